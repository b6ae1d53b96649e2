#!/usr/bin/env bash
# bench/btfgen.sh - relocore btfgen vs bpftool gen min_core_btf, side by
# side in one run, on the example objects and the full BTF of each Debian
# kernel: wall time (best of N) and output size; and the archive of all
# kernels' full BTF against the sum of per-kernel xz files (the BTFHub way).
# Prints numbers, asserts nothing.
set -euo pipefail
source "$(dirname "$0")/../scripts/cache.sh"
need bpftool bpftool
cd "$RC_ROOT"
out=build/bench/btfgen
mkdir -p "$out"
bash examples/build.sh "$out/ex" >/dev/null
objs=("$out"/ex/*.bpf.o)
N=${N:-7}
best() { # best wall time in ms of N runs of the command
	local b=999999 t0 t1 i
	for i in $(seq "$N"); do
		t0=$(date +%s%N); "$@" >/dev/null 2>&1 || { echo "bench: $* failed" >&2; exit 1; }; t1=$(date +%s%N)
		t=$(( (t1 - t0) / 1000000 )); [ "$t" -lt "$b" ] && b=$t
	done
	echo "$b"
}
printf '%-12s %10s %10s %7s %10s %10s %7s\n' kernel relocore bpftool speedup rc-bytes bt-bytes size
args=()
sum=0
for k in cloud-6.1 cloud-6.12 rt-6.12; do
	full=$(vm/kernel-btf.sh "$k")
	tr=$(best build/bin/relocore btfgen --btf "$full" -o "$out/$k.rc.btf" "${objs[@]}")
	tb=$(best bpftool gen min_core_btf "$full" "$out/$k.bt.btf" "${objs[@]}")
	sr=$(stat -c %s "$out/$k.rc.btf"); sb=$(stat -c %s "$out/$k.bt.btf")
	awk -v k="$k" -v tr="$tr" -v tb="$tb" -v sr="$sr" -v sb="$sb" 'BEGIN {
		printf "%-12s %8dms %8dms %6.1fx %10d %10d %6.2fx\n", k, tr, tb, tb / (tr ? tr : 1), sr, sb, sr / sb }'
	rel=$(cat "$(vm/kernel.sh "$k")/release")
	args+=("$rel=$full")
	sum=$((sum + $(xz -9 -c "$full" | wc -c)))
done
build/bin/relocore archive create -o "$out/full.rcba" "${args[@]}" 2>/dev/null
a=$(stat -c %s "$out/full.rcba")
echo "archive of ${#args[@]} kernels' full BTF: $a bytes; per-kernel xz -9 files: $sum bytes; ratio $(awk -v a=$a -v s=$sum 'BEGIN{printf "%.2f", a/s}')"
build/bin/relocore archive create -o "$out/min.rcba" $(printf -- '--min %s ' "${objs[@]}") "${args[@]}" 2>/dev/null
echo "archive of the same kernels minimized for the examples: $(stat -c %s "$out/min.rcba") bytes"
