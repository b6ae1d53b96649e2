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
# anything into the host's kernel.
set -euo pipefail
source "$(dirname "$0")/cache.sh"
cd "$RC_ROOT"

for b in bin/relocore bin/relocore-static lib/relocore-pass.so; do
	[ -e "$RC_BUILD/$b" ] || { echo "demo: build/$b is missing: run make" >&2; exit 1; }
done
rc_cold_notice demo
echo "demo: compiling the examples once, on the host: examples/build.sh build/examples"
rm -rf "$RC_BUILD/examples"
bash examples/build.sh "$RC_BUILD/examples"
echo "demo: and the plugin's BCC-style examples (plain C, natural dereferences), with the relocore plugin:"
echo "demo:   llvm-pass/examples/build.sh build/examples"
bash llvm-pass/examples/build.sh "$RC_BUILD/examples" 2>&1 | grep -v 'remark:\|^ \|^$' || true
[ -s "$RC_BUILD/examples/taskwatch.bpf.o" ] || { echo "demo: llvm-pass/examples/build.sh failed" >&2; exit 1; }
echo "demo: objects: $(cd "$RC_BUILD/examples" && sha256sum *.bpf.o | awk '{printf "%s=%s ", $2, substr($1,1,12)}')"
echo
exec bash vm/matrix.sh --demo
