#!/usr/bin/env bash
# vm/build-kernels.sh - build (cached) every kernel of vm/kernels.list whose
# KIND is "build" (relocore's patched kernels: minutes of both cores each),
# one after another, through vm/kernel.sh.  Prints nothing on stdout; its
# progress on stderr (vm/kernel.sh, kernel/build.sh: a line every 30 s).
#
# Nothing else of the proof needs these builds to start: vm/matrix.sh runs
# this in the background while it downloads Debian's kernels, and make demo
# (scripts/demo.sh) starts it before even building relocore, so that the
# kernel compiles fill the cores from the first minute.  A second caller
# waits on vm/kernel.sh's lock of each kernel and then finds it cached.  A
# failed build is not fatal here: vm/matrix.sh asks for the kernel again
# where it needs it, and that attempt says why.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

case "${1:-}" in
-h|--help) sed -n '2,13p' "$0"; exit 0 ;;
"") ;;
*) echo "usage: $0" >&2; exit 2 ;;
esac

rc=0
for k in $(vm_names); do
	read -r kind _ < <(vm_entry "$k") && [ "$kind" = build ] || continue
	"$VM_DIR/kernel.sh" "$k" >/dev/null || rc=1
done
exit $rc
