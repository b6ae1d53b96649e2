#!/usr/bin/env bash
# examples/build.sh [--arch ARCH] [--target bpfeb] OUTDIR [SRC.bpf.c...] - compile every examples/*.bpf.c
# (or the given sources) once, on the host, into OUTDIR/<name>.bpf.o, the way
# users build CO-RE programs:
#
#   clang -target bpf -O2 -g -D__TARGET_ARCH_x86 -I<vmlinux.h dir> -c X.bpf.c
#
# against libbpf's headers (<bpf/bpf_helpers.h>, ...) and a vmlinux.h that
# is generated from the BTF of Debian's 6.1 cloud kernel
# (`bpftool btf dump file BTF format c`).  The vmlinux.h is cached in
# $RC_CACHE/vmlinux-h/<sha256 of the BTF>/ and is never written into the
# clone.  RC_EXAMPLES_BTF=path overrides the BTF (default: the one printed by
# `vm/kernel-btf.sh cloud-6.1`).
#
# --arch arm64: for the programs that are architecture-specific (they read
# struct pt_regs, or attach to an architecture's syscall wrapper: see
# vm/arch-objs.sh), -D__TARGET_ARCH_arm64 against the vmlinux.h of Debian's
# arm64 6.1 cloud kernel (`vm/kernel-btf.sh arm64-6.1`; RC_EXAMPLES_BTF
# overrides it too).  The default is --arch x86.
#
# --target bpfeb: the same programs against the same vmlinux.h, written
# big-endian (clang -target bpfeb), as they would be for s390x
# (test/crosscheck/be.sh decides them against s390x kernels with libbpf
# built for s390x).  The default is -target bpf (the host's order).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../scripts/cache.sh
source "$here/../scripts/cache.sh"

arch=x86 target=bpf
while [ "${1:-}" = --arch ] || [ "${1:-}" = --target ]; do
	case "$1" in
	--arch) arch=${2:-} ;;
	--target) target=${2:-}
		case "$target" in bpf|bpfel|bpfeb) ;; *) echo "examples: --target bpf|bpfel|bpfeb, not '$target'" >&2; exit 2 ;; esac ;;
	esac
	shift 2 || true
done
case "$arch" in
x86) btfkernel=cloud-6.1 ;;
arm64) btfkernel=arm64-6.1 ;;
*) echo "examples: --arch x86|arm64, not '$arch'" >&2; exit 2 ;;
esac
[ $# -ge 1 ] || { echo "usage: $0 [--arch x86|arm64] [--target bpf|bpfel|bpfeb] OUTDIR [SRC.bpf.c...]" >&2; exit 2; }
out=$1
shift
mkdir -p "$out"

need clang clang
need bpftool bpftool
need /usr/include/bpf/bpf_helpers.h libbpf-dev
CLANG=${CLANG:-clang}
BPFTOOL=${BPFTOOL:-bpftool}

btf=${RC_EXAMPLES_BTF:-}
if [ -z "$btf" ]; then
	echo "examples: locating the BTF of Debian's 6.1 cloud kernel ($arch: vm/kernel-btf.sh $btfkernel)"
	btf=$("$RC_ROOT/vm/kernel-btf.sh" "$btfkernel")
fi
[ -s "$btf" ] || { echo "examples: no BTF at '$btf'" >&2; exit 1; }

hash=$(sha256sum "$btf" | cut -c1-16)
hdir="$RC_CACHE/vmlinux-h/$hash"
if [ -s "$hdir/vmlinux.h" ]; then
	echo "examples: using cached $hdir/vmlinux.h (BTF $btf)"
else
	echo "examples: generating $hdir/vmlinux.h: $BPFTOOL btf dump file $btf format c"
	mkdir -p "$hdir"
	tmp=$(mktemp "$hdir/vmlinux.h.XXXXXX")
	if ! "$BPFTOOL" btf dump file "$btf" format c >"$tmp"; then
		rm -f "$tmp"
		echo "examples: bpftool failed" >&2
		exit 1
	fi
	mv "$tmp" "$hdir/vmlinux.h"
fi

shopt -s nullglob
if [ $# -gt 0 ]; then
	srcs=("$@")
else
	srcs=("$here"/*.bpf.c)
fi
[ ${#srcs[@]} -gt 0 ] || { echo "examples: no *.bpf.c in $here" >&2; exit 1; }
for src in "${srcs[@]}"; do
	name=$(basename "$src" .c)
	cmd=("$CLANG" -target "$target" -O2 -g -D__TARGET_ARCH_$arch -Wall
	     -I"$hdir" -I"$here" -c "$src" -o "$out/$name.o")
	echo "examples: ${cmd[*]}"
	"${cmd[@]}"
done
echo "examples: built ${#srcs[@]} objects in $out"
