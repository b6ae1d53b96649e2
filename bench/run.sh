#!/usr/bin/env bash
# bench/run.sh - relocore vs libbpf: open Debian 6.12's vmlinux BTF and
# decide every CO-RE relocation of the example objects.  Wall time as a
# ratio measured in one process (alternating runs, medians), and
# callgrind instruction counts of each side (repeatable).
# Not a test: it prints numbers and asserts nothing.
set -euo pipefail
source "$(dirname "$0")/../scripts/cache.sh"
need valgrind valgrind
cd "$RC_ROOT"
out=build/bench
mkdir -p "$out"
echo "bench: building examples and core_bench"
bash examples/build.sh "$out/examples" >/dev/null
objs=("$out"/examples/*.bpf.o)
cc -O2 -g -Wall -Iloader -o "$out/core_bench" bench/core_bench.c build/lib/librelocore.a \
	/usr/lib/x86_64-linux-gnu/libbpf.a -lelf -lz
btf=$(vm/kernel-btf.sh cloud-6.12)
echo "bench: target $(basename "$(dirname "$btf")") ($(stat -c %s "$btf") bytes), ${#objs[@]} objects"
"$out/core_bench" both "${ITER:-21}" "$btf" "${objs[@]}"
for side in libbpf relocore; do
	valgrind --tool=callgrind --callgrind-out-file="$out/cg.$side" \
		"$out/core_bench" $side 1 "$btf" "${objs[@]}" >/dev/null 2>"$out/cg.$side.log"
	ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out/cg.$side.log")
	[ -n "$ir" ] || ir=$(grep -o 'refs: *[0-9,]*' "$out/cg.$side.log" | tr -dc 0-9)
	echo "callgrind $side: $ir instructions"
	eval "ir_$side=$ir"
done
awk -v a="$ir_relocore" -v b="$ir_libbpf" 'BEGIN { printf "callgrind ratio relocore/libbpf: %.3f\n", a / b }'
