#!/usr/bin/env bash
# bench/plugin.sh [--callgrind] [ROUNDS] - compile-time overhead of the
# relocore plugin.
#
# Compiles every examples/*.bpf.c ROUNDS times (default 5) each way and
# prints the total CPU time and the ratio:
#   base      clang -target bpf -O2 -g                (the programs as written)
#   plugin    the same + -fpass-plugin=build/lib/relocore-pass.so
#   plain     the plugin on the programs compiled as plain C
#             (-DBPF_NO_PRESERVE_ACCESS_INDEX: vmlinux.h without the
#             attribute, so the plugin relocates every direct access)
# Target: plugin/base <= 1.05.  Runs are interleaved so machine load affects
# all three alike; the best (minimum) CPU time (user+sys) over the rounds is
# used.  llvm-pass/examples/taskwatch.c (plain C, natural dereferences) is
# compiled too, with and without the plugin ("taskwatch").
# --callgrind: instead of timing, count instructions (valgrind callgrind,
# repeatable on a noisy machine) of one compile per program and mode.
# Every LLVM whose plugin is built is measured, each with its own clang:
# LLVM 14 (clang, build/lib/relocore-pass.so), 16 and 19 (clang-N,
# build/lib/llvm-N/relocore-pass.so); lines start with "llvm-N".
# RC_BENCH_LLVM="14 19" picks versions; RC_BENCH_PROGRAMS (below) programs.
set -euo pipefail
cg=0
if [ "${1:-}" = --callgrind ]; then cg=1; shift; fi
source "$(dirname "$0")/../scripts/cache.sh"
need valgrind valgrind
rounds=${1:-5}
[ -f "$RC_BUILD/lib/relocore-pass.so" ] || { echo "bench/plugin: build first (make)" >&2; exit 1; }

hdr=${RC_VMLINUX_H:-}
if [ -z "$hdr" ]; then
	# the vmlinux.h examples/build.sh uses (the cloud-6.1 kernel's): the
	# newest file of the cache may be another kernel's (another arch)
	tmp=$(mktemp -d)
	hdr=$(env -u CLANG bash "$RC_ROOT/examples/build.sh" "$tmp" "$RC_ROOT/examples/getpid.bpf.c" |
	      sed -nE 's/.*(generating|using cached) ([^:]*vmlinux\.h).*/\2/p' | head -1)
	rm -rf "$tmp"
fi
[ -s "$hdr" ] || { echo "bench/plugin: no vmlinux.h (examples/build.sh)" >&2; exit 1; }
hdir=$(dirname "$hdr")
srcs=("$RC_ROOT"/examples/*.bpf.c)
# RC_BENCH_PROGRAMS="execsnoop": only these examples/NAME.bpf.c (callgrind
# runs take minutes each); "none": taskwatch.c alone
if [ -n "${RC_BENCH_PROGRAMS:-}" ]; then
	srcs=()
	for n in $RC_BENCH_PROGRAMS; do
		[ "$n" = none ] || srcs+=("$RC_ROOT/examples/$n.bpf.c")
	done
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

tw="$RC_ROOT/llvm-pass/examples/taskwatch.c"

compile_one() { # MODE SRC [WRAPPER...]
	local mode=$1 s=$2 extra=()
	shift 2
	case $mode in
	base) ;;
	plugin) extra=(-fpass-plugin="$plugin") ;;
	plain) extra=(-fpass-plugin="$plugin" -DBPF_NO_PRESERVE_ACCESS_INDEX) ;;
	tw-base) extra=(-DBPF_NO_PRESERVE_ACCESS_INDEX) ;;
	tw-plugin) extra=(-fpass-plugin="$plugin" -DBPF_NO_PRESERVE_ACCESS_INDEX) ;;
	esac
	"$@" "$CLANG" -target bpf -O2 -g -D__TARGET_ARCH_x86 -I"$hdir" \
		-I"$RC_ROOT/examples" "${extra[@]}" -c "$s" -o "$out/x.o"
}
compile_all() { # MODE
	local s
	case $1 in
	tw-*) compile_one "$1" "$tw" ;;
	*) for s in "${srcs[@]}"; do compile_one "$1" "$s"; done ;;
	esac
}

bench_one() { # uses V, CLANG, plugin
	if [ $cg = 1 ]; then
		command -v valgrind >/dev/null || { echo "bench/plugin: valgrind missing" >&2; exit 1; }
		count() { # MODE SRC -> instructions
			compile_one "$1" "$2" valgrind --tool=callgrind \
				--callgrind-out-file=/dev/null 2>&1 |
				sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
		}
		unset tot; declare -A tot
		printf "llvm-$V "'%-18s %14s %14s %7s %14s %7s\n' program base plugin ratio plain+plugin ratio
		for s in "${srcs[@]}" "$tw"; do
			n=$(basename "$s")
			if [ "$s" = "$tw" ]; then
				b=$(count tw-base "$s"); p=$(count tw-plugin "$s"); q=$p
			else
				b=$(count base "$s"); p=$(count plugin "$s"); q=$(count plain "$s")
			fi
			tot[b]=$(( ${tot[b]:-0} + b )); tot[p]=$(( ${tot[p]:-0} + p )); tot[q]=$(( ${tot[q]:-0} + q ))
			printf "llvm-$V "'%-18s %14d %14d %7.4f %14d %7.4f\n' "$n" "$b" "$p" \
				"$(awk -v a=$p -v b=$b 'BEGIN{print a/b}')" "$q" "$(awk -v a=$q -v b=$b 'BEGIN{print a/b}')"
		done
		printf "bench/plugin: llvm-$V: "'callgrind instructions, all programs: ratio plugin/base %.4f  (plain+plugin)/base %.4f  (target <= 1.05)\n' \
			"$(awk -v a=${tot[p]} -v b=${tot[b]} 'BEGIN{print a/b}')" "$(awk -v a=${tot[q]} -v b=${tot[b]} 'BEGIN{print a/b}')"
		return 0
	fi
	unset best; declare -A best
	modes=(base plugin plain tw-base tw-plugin)
	for mode in "${modes[@]}"; do best[$mode]=999999; done
	for ((r = 1; r <= rounds; r++)); do
		for mode in "${modes[@]}"; do
			# CPU time (user+sys of clang), less sensitive to other load
			# on the machine than wall time
			TIMEFORMAT='%U+%S'
			t=$( { time compile_all "$mode" >/dev/null; } 2>&1 | tail -1 | awk -F+ '{print $1 + $2}')
			if awk -v a="$t" -v b="${best[$mode]}" 'BEGIN{exit !(a < b)}'; then best[$mode]=$t; fi
		done
	done
	printf "bench/plugin: llvm-$V: "'%d programs, best of %d rounds (CPU s): base %.3f, plugin %.3f, plain+plugin %.3f\n' \
		"${#srcs[@]}" "$rounds" "${best[base]}" "${best[plugin]}" "${best[plain]}"
	printf "bench/plugin: llvm-$V: "'ratio plugin/base %.3f  (plain+plugin)/base %.3f  (target <= 1.05)\n' \
		"$(awk -v a="${best[plugin]}" -v b="${best[base]}" 'BEGIN{print a / b}')" "$(awk -v a="${best[plain]}" -v b="${best[base]}" 'BEGIN{print a / b}')"
	printf "bench/plugin: llvm-$V: "'taskwatch.c (plain C) best CPU s: without %.3f, with the plugin %.3f, ratio %.3f\n' \
		"${best[tw-base]}" "${best[tw-plugin]}" "$(awk -v a="${best[tw-plugin]}" -v b="${best[tw-base]}" 'BEGIN{print a / b}')"

}

for V in ${RC_BENCH_LLVM:-14 16 19}; do
	if [ "$V" = 14 ]; then
		CLANG=clang plugin="$RC_BUILD/lib/relocore-pass.so"
	else
		CLANG=clang-$V plugin="$RC_BUILD/lib/llvm-$V/relocore-pass.so"
	fi
	if [ ! -f "$plugin" ] || ! command -v "$CLANG" >/dev/null; then
		echo "bench/plugin: llvm-$V: no $plugin or $CLANG: skipped"
		continue
	fi
	bench_one
done
