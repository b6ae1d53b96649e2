#!/usr/bin/env bash
# bench/scale.sh [PAIRS] - relocore against bpftool on probes of a security
# agent's size (issue 32): btfgen, explain, reloc and check on one kernel,
# archive create --min and check --all over three (Debian's 6.1 cloud, 6.12
# cloud, 6.12 rt), for probes of about 1,000 to 35,000 relocations built by
# bench/probe.sh (cached; the largest takes clang 14 several minutes the
# first time).  PAIRS interleaved runs of each pair (default 7): medians of
# wall time, the largest peak memory.  Prints a table and a JSON line per
# probe (bench/scale.py).  BENCH_PROBES="PROGRAMS:READS ..." picks the probes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../scripts/cache.sh
source "$here/../scripts/cache.sh"
pairs=${1:-7}
R=${RELOCORE:-$RC_BUILD/bin/relocore}
[ -x "$R" ] || { echo "scale: build relocore first (make build)" >&2; exit 1; }
work=$RC_BUILD/bench/scale
mkdir -p "$work"
rm -f "$work/full.rcba"
kernels=()
for k in cloud-6.1 cloud-6.12 rt-6.12; do
	kernels+=("$k=$("$RC_ROOT/vm/kernel-btf.sh" "$k")")
done
objs=()
for pr in ${BENCH_PROBES:-10:50 50:50 100:50 190:110 170:200}; do
	o="$work/probe-${pr%:*}x${pr#*:}.bpf.o"
	"$here/probe.sh" "$o" "${pr%:*}" "${pr#*:}"
	objs+=("$o")
done
echo "scale: relocore $("$R" --version | head -1), $(bpftool version | head -1); $pairs pairs each"
python3 "$here/scale.py" "$R" "$work" "$pairs" "${kernels[@]}" -- "${objs[@]}"
