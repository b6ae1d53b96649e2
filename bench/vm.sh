#!/usr/bin/env bash
# bench/vm.sh - the VM matrix with timings: wall time per kernel and for the
# whole matrix, and in each guest relocore's open+relocate+load of every
# example object against libbpf's own CO-RE load of the same object
# (test/vm/loadbench.c: medians of N alternating rounds, one process).
# Prints numbers; the matrix's own checks still run.
set -uo pipefail
source "$(dirname "$0")/../scripts/cache.sh"
cd "$RC_ROOT"
export RC_VM_BENCH=${N:-5}
t0=$(date +%s)
bash vm/matrix.sh "$@" | tee build/bench-vm.log | grep -E '^(time:|matrix:)'
echo "bench: matrix wall time $(( $(date +%s) - t0 ))s (includes building the initramfs)"
for d in build/vm/*/; do
	k=$(basename "$d")
	f="$d/results/bench.txt"
	[ -d "$d/results" ] || continue
	[ -s "$f" ] || { echo "bench: $k: no loadbench results"; continue; }
	awk -v k="$k" '{ printf "loadbench %-11s %-18s relocore %7.1f ms  libbpf %7.1f ms  ratio %.3f\n", k, $2, $3, $4, $5;
		r += $3; l += $4 } END { if (l) printf "loadbench %-11s %-18s relocore %7.1f ms  libbpf %7.1f ms  ratio %.3f\n", k, "(all objects)", r, l, r / l }' "$f"
done
