#!/usr/bin/env bash
# bench/fleet.sh [KERNELS] [PROGRAMS:READS] - relocore at a fleet's scale
# (issue 32): one probe of a security agent's size (bench/probe.sh, default
# 170 programs x 200 reads, about 35,000 relocations) against KERNELS kernel
# BTFs (default 1000):
#   - the fleet: Debian's kernels of vm/kernels.list (5.10 to 7.2, cloud and
#     rt, amd64 and arm64), and deterministic variants of them until there
#     are KERNELS (bench/btf-variant.c: 8 of the structs the probe reads
#     changed per variant - a member added, removed, renamed, resized, or
#     two reordered - as config options and versions change them); kept in
#     $RC_BUILD/bench/fleet/<key> (raw BTF, about 5 MB a kernel);
#   - libbpf's decisions as the reference on a sample of the variants (the
#     crosscheck oracle: libbpf 1.1's own engine, every relocation);
#   - relocore check --btf-dir over 1, 10, 100 ... KERNELS of them, with one
#     and two workers (-j): wall time and peak memory;
#   - relocore archive create --min over the same, against bpftool gen
#     min_core_btf run once per kernel (timed on the first 10 and scaled:
#     a thousand runs of bpftool take longer than the rest of the bench).
# Prints a table and a JSON line per size.  Nothing is asserted.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../scripts/cache.sh
source "$here/../scripts/cache.sh"
N=${1:-1000}
pr=${2:-170:200}
R=${RELOCORE:-$RC_BUILD/bin/relocore}
[ -x "$R" ] || { echo "fleet: build relocore first (make build)" >&2; exit 1; }
work=$RC_BUILD/bench/fleet
mkdir -p "$work"

# the probe
obj="$work/probe-${pr%:*}x${pr#*:}.bpf.o"
"$here/probe.sh" "$obj" "${pr%:*}" "${pr#*:}"

# the real kernels, by release
reals=()
for k in $(awk '!/^[[:space:]]*(#|$)/ && $2 == "deb" {print $1}' "$RC_ROOT/vm/kernels.list"); do
	btf=$(timeout 900 "$RC_ROOT/vm/kernel-btf.sh" "$k") || { echo "fleet: $k: no BTF, skipped" >&2; continue; }
	rel=$(cat "$(timeout 900 "$RC_ROOT/vm/kernel.sh" "$k")/release")
	reals+=("$rel=$btf")
done
[ ${#reals[@]} -gt 0 ] || { echo "fleet: no kernel BTF" >&2; exit 1; }

# the structs the probe reads: what the variants change
names="$work/names.txt"
"$R" explain "$obj" --btf "${reals[0]#*=}" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("\n".join(sorted({r["local_type"][7:] for r in d["relocations"]
                        if r["local_type"].startswith("struct ")})))' >"$names"

# the fleet, cached by the generator, the names, the kernels and the size
cc -O2 -Wall -o "$work/btf-variant" "$here/btf-variant.c"
key=$( { sha256sum "$here/btf-variant.c" "$names"; printf '%s\n' "${reals[@]}" "$N"; } | sha256sum | cut -c1-16)
fleet="$work/$key"
if [ ! -e "$fleet/.done" ]; then
	rm -rf "$work"/[0-9a-f]*[0-9a-f]
	mkdir -p "$fleet"
	i=0
	for r in "${reals[@]}"; do
		[ $i -lt "$N" ] || break
		cp "${r#*=}" "$fleet/$(printf '%04d' $i)-${r%%=*}.btf"
		i=$((i + 1))
	done
	while [ $i -lt "$N" ]; do
		r=${reals[$((i % ${#reals[@]}))]}
		"$work/btf-variant" "${r#*=}" "$fleet/$(printf '%04d' $i)-${r%%=*}+v$i.btf" "$i" 8 "$names"
		i=$((i + 1))
		[ $((i % 100)) -ne 0 ] || echo "fleet: $i/$N kernels made" >&2
	done
	touch "$fleet/.done"
fi
mapfile -t all < <(find "$fleet" -name '*.btf' | sort)
echo "fleet: ${#all[@]} kernels in $fleet ($(du -sh "$fleet" | cut -f1)); probe $(basename "$obj")"

# libbpf's decisions on a sample of the variants (every relocation)
oracle=$RC_BUILD/crosscheck/libbpf_oracle
cc -O2 -g -o "$oracle" "$RC_ROOT/test/crosscheck/libbpf_oracle.c" \
	"$RC_ROOT/test/crosscheck/libbpf_oracle_main.c" /usr/lib/x86_64-linux-gnu/libbpf.a -lelf -lz
sample=0 compared=0 mism=0
for ((i = ${#reals[@]}; i < ${#all[@]}; i += (${#all[@]} / 10 > 0 ? ${#all[@]} / 10 : 1))); do
	f=${all[$i]}
	"$R" explain "$obj" --btf "$f" --json >"$work/explain.json"
	out=$("$oracle" compare "$obj" "$f" "$work/explain.json" "$(basename "$f")" 2>&1 | tail -1)
	n=$(sed -n 's/^compared \([0-9]*\) mismatches [0-9]*$/\1/p' <<<"$out")
	m=$(sed -n 's/^compared [0-9]* mismatches \([0-9]*\)$/\1/p' <<<"$out")
	sample=$((sample + 1)) compared=$((compared + ${n:-0})) mism=$((mism + ${m:-1}))
done
echo "fleet: libbpf's engine on $sample variants: $compared relocations compared, $mism mismatches"

# check and archive create --min over 1, 10, 100 ... N kernels
runt() { # -> "wall peak_kb" of a command, its output discarded
	local t0 t1 mem
	mem=$(mktemp)
	t0=$(date +%s.%N)
	/usr/bin/time -f %M -o "$mem" "$@" >/dev/null 2>&1 || [ $? -eq 1 ]
	t1=$(date +%s.%N)
	echo "$(echo "$t1 - $t0" | bc) $(tail -1 "$mem")"
	rm -f "$mem"
}
printf '%-8s %-22s %-22s %-22s %-26s %s\n' kernels "check -j1 (s, MB)" "check -j2" "archive --min" "bpftool x kernels (est.)" "archive bytes"
for n in 1 10 100 1000 10000; do
	[ "$n" -le "${#all[@]}" ] || break
	sub="$work/sub"
	rm -rf "$sub"
	mkdir -p "$sub"
	for f in "${all[@]:0:$n}"; do ln -s "$f" "$sub/"; done
	read -r c1 m1 < <(runt "$R" check "$obj" --btf-dir "$sub" -j 1)
	read -r c2 m2 < <(runt "$R" check "$obj" --btf-dir "$sub" -j 2)
	args=()
	for f in "${all[@]:0:$n}"; do b=$(basename "$f" .btf); args+=("${b#*-}=$f"); done
	read -r a1 am < <(runt "$R" archive create -o "$work/min.rcba" --min "$obj" "${args[@]}")
	bt=0
	k=$((n < 10 ? n : 10))
	for f in "${all[@]:0:$k}"; do
		read -r w _ < <(runt bpftool gen min_core_btf "$f" "$work/bpftool.btf" "$obj")
		bt=$(echo "$bt + $w" | bc)
	done
	bt=$(echo "$bt * $n / $k" | bc -l)
	printf '%-8s %-22s %-22s %-22s %-26s %s\n' "$n" \
		"$(printf '%.2f s %d MB' "$c1" $((m1 / 1024)))" "$(printf '%.2f s %d MB' "$c2" $((m2 / 1024)))" \
		"$(printf '%.2f s %d MB' "$a1" $((am / 1024)))" "$(printf '%.1f s (%.2fx)' "$bt" "$(echo "$a1 / $bt" | bc -l)")" \
		"$(stat -c %s "$work/min.rcba")"
	printf '{"kernels":%d,"check_j1":[%s,%d],"check_j2":[%s,%d],"archive_min":[%s,%d],"bpftool_est":%s}\n' \
		"$n" "$c1" "$m1" "$c2" "$m2" "$a1" "$am" "$bt" >>"$work/fleet.jsonl"
done
rm -rf "$work/sub"
