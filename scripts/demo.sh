#!/usr/bin/env bash
# scripts/demo.sh - `make demo`: the project's main proof.  The example BPF
# programs are compiled ONCE, here on the host (examples/build.sh into
# build/examples), and that same set of objects is run by `relocore run` on
# every kernel of vm/kernels.list, each booted in QEMU (TCG); the values they
# read are checked exactly against ground truth taken inside each guest
# (vm/matrix.sh --demo).  The Makefile has built build/ before this runs.
# Nothing here loads anything into the host's kernel.
set -euo pipefail
source "$(dirname "$0")/cache.sh"
cd "$RC_ROOT"

for b in relocore relocore-static; do
	[ -x "$RC_BUILD/bin/$b" ] || { echo "demo: build/bin/$b is missing: run make" >&2; exit 1; }
done
echo "demo: compiling the examples once, on the host: examples/build.sh build/examples"
rm -rf "$RC_BUILD/examples"
bash examples/build.sh "$RC_BUILD/examples"
echo "demo: objects: $(cd "$RC_BUILD/examples" && sha256sum *.bpf.o | awk '{printf "%s=%s ", $2, substr($1,1,12)}')"
echo
exec bash vm/matrix.sh --demo
