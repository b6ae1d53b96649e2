#!/usr/bin/env bash
# vm/matrix.sh [--demo] [NAME...] - the VM proof: one set of example objects,
# compiled ONCE on the host, runs on every kernel of vm/kernels.list booted
# in QEMU (TCG), one kernel at a time.  For each kernel: fetch it, build its
# initramfs, boot it, collect the guest's results, judge them on the host
# (test/vm/check.py).  Prints `PASS: vm/<kernel>/<check>` /
# `FAIL: vm/<kernel>/<check>: why` lines, one table (a row per kernel), the
# wall time per kernel and in total; exits non-zero on any FAIL.
#   --demo     also show the guest's progress and the negative-control notes
#   NAME...    only these kernels
# Results: build/vm/<kernel>/{console.log,results/,summary.json}
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

demo=0
names=()
for a in "$@"; do
	case "$a" in
	--demo) demo=1 ;;
	-h|--help) sed -n '2,14p' "$0"; exit 0 ;;
	*) names+=("$a") ;;
	esac
done
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(vm_names)

t_all=$(date +%s)
examples="${RC_VM_EXAMPLES:-$RC_BUILD/examples}"
export RC_VM_EXAMPLES="$examples"
out="$RC_BUILD/vm"
mkdir -p "$out"
for b in bin/relocore bin/relocore-static lib/relocore-pass.so; do
	[ -e "$RC_BUILD/$b" ] || { echo "FAIL: vm/build: no build/$b (make -C build)"; exit 1; }
done
compile=0
ls "$examples"/*.bpf.o >/dev/null 2>&1 || compile=1
if [ "$compile" = 1 ]; then
	echo "matrix: compiling the examples once: examples/build.sh $examples"
	bash "$RC_ROOT/examples/build.sh" "$examples" || { echo "FAIL: vm/examples: examples/build.sh failed"; exit 1; }
fi
# the plugin's BCC-style examples (plain C, natural dereferences), compiled
# once with build/lib/relocore-pass.so: with the others, or when the default
# build/examples predates them
if [ "$compile" = 1 ] || { [ "$examples" = "$RC_BUILD/examples" ] && [ ! -s "$examples/taskwatch.bpf.o" ]; }; then
	echo "matrix: compiling the plugin examples once: llvm-pass/examples/build.sh $examples"
	bash "$RC_ROOT/llvm-pass/examples/build.sh" "$examples" >"$out/plugin-build.log" 2>&1 ||
		{ tail -n 20 "$out/plugin-build.log"; echo "FAIL: vm/examples: llvm-pass/examples/build.sh failed"; exit 1; }
fi
echo "matrix: objects $(cd "$examples" && ls *.bpf.o | tr '\n' ' ')(compiled once, sha $(vm_sha "$examples"/*.bpf.o))"
echo "matrix: kernels ${names[*]}"

# the host's decisions for every kernel (offline `relocore explain`): the
# negative control compares them with the guest's own
hx="$out/host-explain"
mkdir -p "$hx"
for k in $(vm_names); do
	btf=$("$VM_DIR/kernel-btf.sh" "$k") || { echo "FAIL: vm/$k/fetch: no BTF"; continue; }
	for o in "$examples"/*.bpf.o; do
		e=$(basename "$o" .bpf.o)
		"$RC_BUILD/bin/relocore" explain "$o" --btf "$btf" --json >"$hx/$e.$k.json" 2>/dev/null || true
	done
done

fails=0
summaries=()
times=()
for k in "${names[@]}"; do
	t0=$(date +%s)
	echo "== vm/$k: fetch, initramfs, boot, check"
	d="$out/$k"
	summaries+=("$d/summary.json")
	rm -f "$d/summary.json"
	if ! kdir=$("$VM_DIR/kernel.sh" "$k"); then
		echo "FAIL: vm/$k/fetch: vm/kernel.sh $k failed"; fails=$((fails + 1)); continue
	fi
	if ! img=$("$VM_DIR/initramfs.sh" "$k"); then
		echo "FAIL: vm/$k/initramfs: vm/initramfs.sh $k failed"; fails=$((fails + 1)); continue
	fi
	# a guest that hands back nothing (a TCG hang: soft lockups, stalled
	# timers under a loaded host) is booted once more; its console is kept
	rc=1
	for try in 1 2; do
		if [ "$demo" = 1 ]; then
			"$VM_DIR/boot.sh" "$k" "$d" "$img"
		else
			"$VM_DIR/boot.sh" "$k" "$d" "$img" | grep -v 'guest: |'
		fi
		rc=${PIPESTATUS[0]}
		[ "$rc" -ne 0 ] && [ "$try" = 1 ] || break
		cp "$d/console.log" "$out/$k.console.try1.log" 2>/dev/null
		echo "vm[$k]: no results from the guest (console kept: $out/$k.console.try1.log); booting once more"
	done
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: vm/$k/boot: no results from the guest (console: $d/console.log)"
		fails=$((fails + 1))
		echo "{\"kernel\":\"$k\",\"status\":\"FAIL\",\"time\":\"$(($(date +%s) - t0))s\"}" >"$d/summary.json"
		times+=("$k $(($(date +%s) - t0))s")
		continue
	fi
	python3 "$RC_ROOT/test/vm/check.py" "$k" "$d/results" --objs "$examples" \
		--host-explain "$hx" --summary "$d/summary.json" >"$d/check.txt" 2>&1
	rc=$?
	if [ "$demo" = 1 ]; then cat "$d/check.txt"; else grep -v '^  note:' "$d/check.txt"; fi
	[ "$rc" -eq 0 ] || fails=$((fails + 1))
	secs=$(($(date +%s) - t0))
	times+=("$k ${secs}s (guest $(cut -d. -f1 "$d/boot-seconds")s)")
	python3 - "$d/summary.json" "${secs}s" <<'PY'
import json, sys
p, t = sys.argv[1], sys.argv[2]
try:
    d = json.load(open(p))
except Exception:
    d = {"status": "FAIL"}
d["time"] = t
json.dump(d, open(p, "w"))
PY
	echo "== vm/$k: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("status","FAIL"))' "$d/summary.json") in ${secs}s"
done

echo
echo "== VM matrix: the same objects ($(cd "$examples" && ls *.bpf.o | wc -l) compiled once on the host) on ${#names[@]} kernels"
python3 "$RC_ROOT/test/vm/check.py" --table "${summaries[@]}"
echo
for t in "${times[@]}"; do echo "time: $t"; done
echo "time: total $(($(date +%s) - t_all))s"
if [ "$fails" -ne 0 ]; then
	echo "matrix: FAIL ($fails kernel(s) with failures)"
	exit 1
fi
echo "matrix: PASS"
