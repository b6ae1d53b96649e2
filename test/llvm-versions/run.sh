#!/usr/bin/env bash
# test/llvm-versions/run.sh: the plugin gives the same relocation decisions
# whatever LLVM it is built for.  llvm-pass/examples/taskwatch.c is compiled
# with clang (LLVM 14, build/lib/relocore-pass.so) and with clang-16 and
# clang-19 and their plugins (build/lib/llvm-N/relocore-pass.so, skipped
# when not built); `relocore explain` of each object against the BTF of the
# Debian kernel cloud-6.1 (vm/kernel-btf.sh: downloaded once, cached) must
# list the same decisions as the clang-14 object's (instruction numbers and
# type ids aside: they differ between compilers), and must list some.
# Prints PASS:/FAIL: lines (scripts/check.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/need.sh
source "$root/scripts/need.sh"
need diff diffutils
relocore=$root/build/bin/relocore
[ -x "$relocore" ] || { echo "FAIL: llvm-versions: build first (make)"; exit 1; }
kernel=${RC_LLVM_VERSIONS_KERNEL:-cloud-6.1}
btf=$(timeout 900 bash "$root/vm/kernel-btf.sh" "$kernel") || { echo "FAIL: llvm-versions: no BTF of $kernel (vm/kernel-btf.sh)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
decisions() { # OBJ OUT: explain's decisions, normalized and sorted
	"$relocore" explain "$1" --btf "$btf" >"$2.raw" || return 1
	sed -E '/CO-RE relocation/d; s/#[0-9]+ +//; s/ \[[0-9]+\]//g' "$2.raw" | sort >"$2"
	[ -s "$2" ]
}
for v in 14 16 19; do
	if [ $v = 14 ]; then clang=clang; else clang=clang-$v; fi
	if [ $v != 14 ] && [ ! -f "$root/build/lib/llvm-$v/relocore-pass.so" ]; then
		echo "llvm-versions: no build/lib/llvm-$v/relocore-pass.so (llvm-$v-dev not installed): skipped"
		continue
	fi
	echo "llvm-versions: taskwatch.c with $clang and its plugin"
	if ! CLANG=$clang bash "$root/llvm-pass/examples/build.sh" "$tmp/$v" >"$tmp/$v.log" 2>&1; then
		echo "FAIL: llvm-versions/taskwatch/llvm-$v: compile failed: $(grep -m1 error "$tmp/$v.log")"
		fails=$((fails + 1)); continue
	fi
	if ! decisions "$tmp/$v/taskwatch.bpf.o" "$tmp/$v.txt"; then
		echo "FAIL: llvm-versions/taskwatch/llvm-$v: relocore explain gave no decisions"
		fails=$((fails + 1)); continue
	fi
	if [ $v = 14 ]; then
		echo "PASS: llvm-versions/taskwatch/llvm-14 ($(wc -l <"$tmp/14.txt") decisions against $kernel)"
	elif [ ! -s "$tmp/14.txt" ]; then
		echo "FAIL: llvm-versions/taskwatch/llvm-$v: no clang-14 decisions to compare with"
		fails=$((fails + 1))
	elif d=$(diff "$tmp/14.txt" "$tmp/$v.txt"); then
		echo "PASS: llvm-versions/taskwatch/llvm-$v (the $(wc -l <"$tmp/$v.txt") decisions of clang-14 against $kernel)"
	else
		echo "FAIL: llvm-versions/taskwatch/llvm-$v: decisions differ from clang-14's: $(head -4 <<<"$d" | tr '\n' ' ')"
		fails=$((fails + 1))
	fi
done
# self-test: the comparison reports a missing decision
if [ -s "$tmp/14.txt" ]; then
	sed 1d "$tmp/14.txt" >"$tmp/mutant.txt"
	if diff -q "$tmp/14.txt" "$tmp/mutant.txt" >/dev/null; then
		echo "FAIL: llvm-versions/self-test: a dropped decision went unnoticed"; fails=$((fails + 1))
	else
		echo "PASS: llvm-versions/self-test"
	fi
fi
[ $fails = 0 ]
