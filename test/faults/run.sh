#!/usr/bin/env bash
# test/faults/run.sh - every file relocore writes is whole or absent, never
# follows a planted link, and survives a kill at any point (issue 30):
# test/faults/run.py injects the faults (shim.c, an LD_PRELOAD library that
# kills or fails the N-th write-related call) into each writing command on
# two of Debian's kernels' BTF and two example objects, and reads every
# outcome back with relocore and with libbpf (test/reader/libbpf_open.c).
# The full-disk tests mount a small tmpfs (root).  ~1 minute.
set -uo pipefail
source "$(dirname "$0")/../../scripts/cache.sh"
cd "$RC_ROOT"
# shellcheck source=../../scripts/need.sh
source scripts/need.sh
need bpftool bpftool
need clang clang
work=build/faults
rm -rf "$work"; mkdir -p "$work"
R=${RELOCORE:-$RC_ROOT/build/bin/relocore}	# RELOCORE=path: test that binary
[ -x "$R" ] || { echo "FAIL: faults/setup: no build/bin/relocore (make build)"; exit 1; }
setup() { echo "FAIL: faults/setup: $*"; exit 1; }
cc -O1 -Wall -Wextra -shared -fPIC -o "$work/shim.so" test/faults/shim.c -ldl ||
	setup "building shim.c"
cc -O2 -Wall -o "$work/libbpf_open" test/reader/libbpf_open.c -lbpf || setup "building libbpf_open"
k1=$(vm/kernel-btf.sh cloud-6.1) || setup "no BTF of cloud-6.1"
k2=$(vm/kernel-btf.sh cloud-6.12) || setup "no BTF of cloud-6.12"
bash examples/build.sh "$work/ex" examples/tcpclose.bpf.c examples/schedstate.bpf.c >/dev/null ||
	setup "building the examples"
clang -target bpf -O2 -g -I/usr/include/x86_64-linux-gnu -Itest/lit/Inputs \
	-c test/lit/kconfig/bake.c -o "$work/kconfig.o" || setup "compiling the kconfig object"
exec python3 test/faults/run.py "$RC_ROOT/$work" "$R" "$RC_ROOT/$work/shim.so" \
	"$RC_ROOT/$work/libbpf_open" "$k1" "$k2" "$RC_ROOT/$work/ex/tcpclose.bpf.o" \
	"$RC_ROOT/$work/ex/schedstate.bpf.o" "$RC_ROOT/$work/kconfig.o" \
	"$RC_ROOT/test/lit/Inputs/kconfig/target.config"
