#!/usr/bin/env bash
# scripts/demo.sh - `make demo`: the project's main proof.  The example BPF
# programs are compiled ONCE, here on the host (examples/build.sh into
# build/examples, and llvm-pass/examples/build.sh: the plugin's BCC-style
# programs, compiled with build/lib/relocore-pass.so), and that same set of
# objects is run by `relocore run` on every kernel of vm/kernels.list, each
# booted in QEMU (TCG); the values they read are checked exactly against
# ground truth taken inside each guest (vm/matrix.sh --demo); the plugin's
# objects are also loaded there by stock libbpf alone (test/vm/stockload.c).
# The Makefile has built build/ before this runs.  Nothing here loads
# anything into the host's kernel.  One line per step; the details of each
# step are in the logs it names.
#
# Debian's libbpf-tools run in every guest both ways (relocore run, and the
# Debian binary with its own libbpf): in the demo the six that have a ground
# truth (RC_VM_TOOLS=truth: test/vm/tools.list's fourth field), all 52 in
# `make demo-full` (RC_VM_TOOLS=1) and in make check's vm suite.  It ends
# with a report of where the time went (scripts/times.py).
set -euo pipefail
source "$(dirname "$0")/cache.sh"
cd "$RC_ROOT"

for b in bin/relocore bin/relocore-static lib/relocore-pass.so; do
	[ -e "$RC_BUILD/$b" ] || { echo "demo: build/$b is missing: run make" >&2; exit 1; }
done
export RC_VM_TOOLS=${RC_VM_TOOLS:-truth}
rc_cold_notice demo
t_compile=$(date +%s)
rm -rf "$RC_BUILD/examples"
mkdir -p "$RC_BUILD/examples"
log="$RC_BUILD/examples/build.log"
bash examples/build.sh "$RC_BUILD/examples" >"$log" 2>&1 ||
	{ tail -n 20 "$log"; echo "demo: examples/build.sh failed (log $log)" >&2; exit 1; }
bash llvm-pass/examples/build.sh "$RC_BUILD/examples" >>"$log" 2>&1 ||
	{ tail -n 20 "$log"; echo "demo: llvm-pass/examples/build.sh failed (log $log)" >&2; exit 1; }
rc_time demo compile "$t_compile"
echo "demo: compiled once on the host (examples/build.sh, llvm-pass/examples/build.sh with the plugin; log $log):"
echo "demo:   $(cd "$RC_BUILD/examples" && for o in *.bpf.o; do printf '%s ' "${o%.bpf.o}"; done)"
t_matrix=$(date +%s)
rc=0
bash vm/matrix.sh --demo || rc=$?
rc_time demo matrix "$t_matrix"
echo
# where the time went (make demo sets RC_TIMES: the Makefile)
[ -z "${RC_TIMES:-}" ] || python3 scripts/times.py "$RC_TIMES"
exit "$rc"
