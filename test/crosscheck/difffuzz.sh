#!/usr/bin/env bash
# difffuzz.sh - the differential fuzzer: relocore's CO-RE engine against
# libbpf 1.1's (difffuzz.c; README.md, "A differential fuzzer").
#
#   difffuzz.sh build          build build/difffuzz/difffuzz and its seeds
#   difffuzz.sh smoke [SECS]   every seed once, then SECS (default 60) of
#                              fuzzing: "PASS: difffuzz/smoke (N execs, ...)"
#   difffuzz.sh long EXECS     one worker until EXECS executions (or a
#                              disagreement); prints the figures at the end
#
# Seeds (in build/difffuzz/seeds, kept in $RC_CACHE/difffuzz/seeds-KEY
# under a hash of what they are made of; pairs "LEN TARGET-BTF OBJECT",
# objects stripped of DWARF):
#   - the kernel selftests' CO-RE objects (test_core_reloc_*.bpf.o) with each
#     of their target BTFs (btf__core_reloc_*.bpf.o), from the selftests
#     suite's cache;
#   - the examples and edge cases (build/crosscheck/examples) and the
#     libbpf-tools objects (build/crosscheck/corpus), each with the BTF
#     `bpftool gen min_core_btf` keeps of a Debian kernel for it (the
#     kernels below; the full BTF is 5 MB, too slow to mutate);
#   - the relocore fuzzer's seeds (build/fuzz/seeds: every relocation kind);
#   - test/crosscheck/difffuzz-corpus/: inputs on which the two engines once
#     disagreed (README.md lists each and what was fixed), run every time.
# Whatever of those is missing (suites not run yet) is left out, and said.
# Environment: DIFFFUZZ_KERNELS (default "cloud-5.10 cloud-6.1 rt-7.2
# arm64-6.12"), DIFFFUZZ_DIR (default build/difffuzz).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../scripts/cache.sh
source "$here/../../scripts/cache.sh"
need clang-14 clang-14
need /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev
need /usr/lib/x86_64-linux-gnu/libbpf.a libbpf-dev
need bpftool bpftool
need llvm-objcopy llvm

dir=${DIFFFUZZ_DIR:-$RC_BUILD/difffuzz}
bin=$dir/difffuzz
seeds=$dir/seeds
corpus=$dir/corpus
regr=$here/difffuzz-corpus	# committed: inputs that once disagreed
kernels=${DIFFFUZZ_KERNELS:-cloud-5.10 cloud-6.1 rt-7.2 arm64-6.12}
mkdir -p "$dir" "$corpus"

log() { echo "difffuzz: $*" >&2; }
fail() { echo "FAIL: difffuzz/$1: $2"; exit 1; }

build_bin() {
	if [ -x "$bin" ] && [ -z "$(find "$RC_ROOT"/loader/*.[ch] "$RC_ROOT"/check/*.[ch] "$here"/difffuzz.c "$here"/libbpf_core.h \
			"$here"/difffuzz.sh -newer "$bin" -print -quit)" ]; then
		return 0
	fi
	log "building $bin (libFuzzer, ASan, UBSan; libbpf.a 1.1)"
	clang-14 -g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-I"$RC_ROOT/loader" -I"$RC_ROOT/check" -I"$here" "$RC_ROOT"/loader/*.c "$RC_ROOT"/check/*.c \
		"$here/difffuzz.c" \
		/usr/lib/x86_64-linux-gnu/libbpf.a -lelf -lz -o "$bin.tmp" >"$dir/build.log" 2>&1 || {
		sed 's/^/    /' "$dir/build.log" | head -30
		fail build "compiling difffuzz.c failed"
	}
	mv "$bin.tmp" "$bin"
}

# pair OBJ BTF NAME: write the seed "LEN BTF OBJ" (OBJ without DWARF)
pair() {
	local tmp=$seeds/.obj.$$
	llvm-objcopy --strip-debug "$1" "$tmp" 2>/dev/null || cp "$1" "$tmp"
	python3 - "$2" "$tmp" "$seeds/$3" <<'EOF'
import struct, sys
btf = open(sys.argv[1], 'rb').read()
obj = open(sys.argv[2], 'rb').read()
open(sys.argv[3], 'wb').write(struct.pack('<I', len(btf)) + btf + obj)
EOF
	rm -f "$tmp"
}

# raw .BTF of an ELF file
btf_of() { llvm-objcopy --dump-section .BTF="$2" "$1" /dev/null 2>/dev/null || objcopy -O binary --only-section=.BTF "$1" "$2"; }

# seeds_key: a hash of everything the seeds are made of (this script, the
# selftests' objects, the crosscheck objects, the kernels' BTF, the fuzzer's
# seeds): the seeds are kept in the cache under it, so a fresh clone with
# the same inputs takes them from there instead of making them again
seeds_key() {
	local k
	{
		sha256sum <"$here/difffuzz.sh"
		echo "$kernels"
		for k in $kernels; do
			timeout 600 "$RC_ROOT/vm/kernel-btf.sh" "$k" 2>/dev/null | xargs -r sha256sum | cut -c1-64
		done
		find "$RC_CACHE"/selftests-*/obj -maxdepth 1 -name '*.bpf.o' 2>/dev/null | sort | xargs -r sha256sum | cut -c1-64
		find "$RC_BUILD/crosscheck/examples" "$RC_BUILD"/crosscheck/corpus/*/objs -maxdepth 1 -name '*.o' 2>/dev/null |
			sort | xargs -r sha256sum | cut -c1-64
		find "$RC_BUILD/fuzz/seeds/inputs" -type f 2>/dev/null | sort | xargs -r sha256sum | cut -c1-64
	} | sha256sum | cut -c1-16
}

build_seeds() {
	local stamp=$seeds/.done key f t base name k kbtf n=0 kept
	key=$(seeds_key)
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && return 0
	kept=$RC_CACHE/difffuzz/seeds-$key
	if [ -f "$kept/.done" ]; then
		rm -rf "$seeds"
		cp -a "$kept" "$seeds"
		log "seeds: $(ls "$seeds" | wc -l) from the cache ($kept)"
		return 0
	fi
	rm -rf "$seeds"
	mkdir -p "$seeds"
	local work=$dir/work
	rm -rf "$work"
	mkdir -p "$work"

	# 1. the kernel selftests' CO-RE tests and their targets
	local st
	st=$(ls -d "$RC_CACHE"/selftests-*/obj 2>/dev/null | head -1)
	if [ -n "$st" ]; then
		for f in "$st"/test_core_reloc_*.bpf.o; do
			name=${f##*/test_core_reloc_}
			name=${name%.bpf.o}
			for t in "$st"/btf__core_reloc_*.bpf.o; do
				base=${t##*/btf__core_reloc_}
				base=${base%.bpf.o}
				case $name in "${base%%___*}"*) ;; *) continue ;; esac
				btf_of "$t" "$work/t.btf" || continue
				pair "$f" "$work/t.btf" "selftest-$name-$base" && n=$((n + 1))
			done
		done
		log "seeds: $n selftests pairs"
	else
		log "seeds: no selftests objects in $RC_CACHE (run test/selftests/run.sh): left out"
	fi

	# 2. examples, edge cases, libbpf-tools: minimized BTF of Debian kernels
	local objs=() m=0
	[ -d "$RC_BUILD/crosscheck/examples" ] && objs+=("$RC_BUILD"/crosscheck/examples/*.o)
	for f in "$RC_BUILD"/crosscheck/corpus/*/objs/*.o; do [ -f "$f" ] && objs+=("$f"); done
	[ ${#objs[@]} -gt 0 ] || log "seeds: no crosscheck objects (run test/crosscheck/run.sh): left out"
	for k in $kernels; do
		kbtf=$(timeout 600 "$RC_ROOT/vm/kernel-btf.sh" "$k" 2>/dev/null) ||
			{ log "seeds: kernel $k has no BTF here (vm/kernel-btf.sh): left out"; continue; }
		for f in "${objs[@]}"; do
			name=$(basename "$f" .o)
			timeout 60 bpftool gen min_core_btf "$kbtf" "$work/min.btf" "$f" >/dev/null 2>&1 || continue
			pair "$f" "$work/min.btf" "$name-$k" && m=$((m + 1))
		done
	done
	log "seeds: $m objects x kernels (min_core_btf)"

	# 3. the relocore fuzzer's seeds that are pairs (each kind, lit layouts)
	local fz=$RC_BUILD/fuzz/seeds/inputs c=0
	if [ -d "$fz" ]; then
		for f in "$fz"/*; do
			# not the bare objects (fixed target) nor the module form
			head -c 4 "$f" | cmp -s - <(printf "\177ELF") && continue
			[ "$(od -An -tu1 -j3 -N1 "$f" | tr -d ' ')" -ge 128 ] && continue
			cp "$f" "$seeds/fuzz-$(basename "$f")" && c=$((c + 1))
		done
	fi
	log "seeds: $c from build/fuzz/seeds"
	[ $((n + m + c)) -gt 0 ] || fail seeds "no seeds could be made"
	rm -rf "$work"
	echo "$key" >"$stamp"
	# kept for the next clone; older sets of seeds are dropped
	mkdir -p "$RC_CACHE/difffuzz"
	find "$RC_CACHE/difffuzz" -maxdepth 1 -name 'seeds-*' -exec rm -rf {} +
	cp -a "$seeds" "$kept.tmp.$$" && mv "$kept.tmp.$$" "$kept"
}

# run ARGS...: the fuzzer over the working corpus and the seeds
run() {
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:handle_segv=1} \
		"$bin" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 "$@" "$corpus" "$seeds" "$regr"
}

report() {	# LOG: the figures of a run
	local execs stats
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$1" | tail -1)
	stats=$(grep '^difffuzz: [0-9]* inputs' "$1" | tail -1)
	echo "difffuzz: ${execs:-0} execs; ${stats#difffuzz: }"
}

cmd=${1:-smoke}
case $cmd in
build)
	build_bin
	build_seeds
	echo "difffuzz: $bin, $(ls "$seeds" | wc -l) seeds in $seeds"
	;;
smoke | long)
	build_bin
	build_seeds
	art=$dir/crashes/$cmd-$(date +%Y%m%d-%H%M%S)-$$
	mkdir -p "$art"
	logf=$dir/$cmd.log
	# every seed once: relocore and libbpf agree on the unmutated inputs
	mapfile -t all < <(find "$seeds" "$regr" -type f ! -name .done | sort)
	if ! ASAN_OPTIONS=detect_leaks=0 "$bin" "${all[@]}" >"$logf" 2>&1; then
		bad=$(grep '^Running: ' "$logf" | tail -1 | sed 's/^Running: //')
		grep -m1 -A4 'DISAGREEMENT\|^SUMMARY' "$logf" | sed 's/^/    /'
		fail seeds "seed $bad (log $logf)"
	fi
	stats=$(grep '^difffuzz: [0-9]* inputs' "$logf" | tail -1)
	echo "${stats}"
	echo "PASS: difffuzz/seeds (${#all[@]} seeds and regression inputs)"
	if [ "$cmd" = smoke ]; then
		run -max_total_time="${2:-60}" -artifact_prefix="$art/" >"$logf" 2>&1
	else
		[ -n "${2:-}" ] || { echo "usage: $0 long EXECS" >&2; exit 2; }
		run -runs="$2" -artifact_prefix="$art/" >"$logf" 2>&1
	fi
	rc=$?
	report "$logf"
	if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$art")" ]; then
		grep -m1 -A6 'DISAGREEMENT\|^SUMMARY\|ERROR: ' "$logf" | sed 's/^/    /'
		unit=$(sed -n 's/.*Test unit written to //p' "$logf" | tail -1)
		fail "$cmd" "fuzzer exited $rc; reproducer ${unit:-$art}; reproduce: $bin FILE (log $logf)"
	fi
	rmdir "$art" 2>/dev/null
	echo "PASS: difffuzz/$cmd ($(sed -n 's/^stat::number_of_executed_units: *//p' "$logf" | tail -1) execs, 0 disagreements)"
	;;
-h | --help)
	sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	;;
*)
	echo "usage: $0 build | smoke [SECONDS] | long EXECS" >&2
	exit 2
	;;
esac
