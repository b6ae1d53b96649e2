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
set -euo pipefail
source "$(dirname "$0")/cache.sh"
cd "$RC_ROOT"

for b in bin/relocore bin/relocore-static lib/relocore-pass.so; do
	[ -e "$RC_BUILD/$b" ] || { echo "demo: build/$b is missing: run make" >&2; exit 1; }
done
rc_cold_notice demo
rm -rf "$RC_BUILD/examples"
mkdir -p "$RC_BUILD/examples"
log="$RC_BUILD/examples/build.log"
bash examples/build.sh "$RC_BUILD/examples" >"$log" 2>&1 ||
	{ tail -n 20 "$log"; echo "demo: examples/build.sh failed (log $log)" >&2; exit 1; }
bash llvm-pass/examples/build.sh "$RC_BUILD/examples" >>"$log" 2>&1 ||
	{ tail -n 20 "$log"; echo "demo: llvm-pass/examples/build.sh failed (log $log)" >&2; exit 1; }
echo "demo: compiled once on the host (examples/build.sh, llvm-pass/examples/build.sh with the plugin; log $log):"
echo "demo:   $(cd "$RC_BUILD/examples" && for o in *.bpf.o; do printf '%s ' "${o%.bpf.o}"; done)"
exec bash vm/matrix.sh --demo
