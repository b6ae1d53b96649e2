#!/usr/bin/env bash
# bench/matrix.sh [OBJ] - relocore matrix's time: one small object (default
# the schedstate example, a raw tracepoint every kernel has) on every kernel
# of the catalog, RC_MATRIX_JOBS (default: the cores) guests at a time,
# warm (kernels cached; run it twice for a warm figure).  Prints the total,
# each guest's QEMU time and its kernel's own boot (the guest's clock, to
# /init), and where the rest went: not a timed test.
set -uo pipefail
source "$(dirname "$0")/../scripts/cache.sh"
cd "$RC_ROOT"
obj=${1:-$RC_BUILD/examples/schedstate.bpf.o}
[ -s "$obj" ] || bash examples/build.sh "$RC_BUILD/examples" >/dev/null
out=$RC_BUILD/bench-matrix.json
t0=$(date +%s.%N)
"$RC_BUILD/bin/relocore" matrix "$obj" --kernels all -j "${RC_MATRIX_JOBS:-$(nproc)}" --json "$out" >"$RC_BUILD/bench-matrix.txt" 2>&1
rc=$?
t1=$(date +%s.%N)
python3 - "$out" "$(echo "$t1 - $t0" | bc)" "$rc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wall, rc = float(sys.argv[2]), sys.argv[3]
ks = d["kernels"]
for k in ks:
    print(f"bench: {k['name']:16} {k.get('accel', '-'):4} qemu {k.get('boot_seconds') or 0:5.1f}s  "
          f"kernel up at {k.get('guest_up_seconds') or 0:4.1f}s  {k['status']}")
q = sum(k.get("boot_seconds") or 0 for k in ks)
up = sum(k.get("guest_up_seconds") or 0 for k in ks)
print(f"bench: {len(ks)} kernels, 1 object: {wall:.1f}s wall (exit {rc}); guests {q:.0f}s of QEMU time "
      f"(kernels booting {up:.0f}s of it), {d['summary']['attached']} attached, "
      f"check agreed {d['summary']['agree']}/{d['summary']['predicted']}")
PY
