#!/usr/bin/env bash
# llvm-pass/examples/build.sh [--arch ARCH] OUTDIR [SRC.c...] - compile the plugin's BCC-style
# examples ONCE, as plain C with natural dereferences, with the relocore
# plugin, against the same vmlinux.h examples/build.sh uses but without the
# preserve_access_index pragma (-DBPF_NO_PRESERVE_ACCESS_INDEX):
#
#   clang -target bpf -O2 -g -D__TARGET_ARCH_x86 -DBPF_NO_PRESERVE_ACCESS_INDEX \
#     -fplugin=build/lib/relocore-pass.so -fpass-plugin=build/lib/relocore-pass.so \
#     -I<vmlinux.h dir> -c X.c -o OUTDIR/X.bpf.o
# --arch arm64 (only the given sources, when they are architecture-specific:
# vm/arch-objs.sh): -D__TARGET_ARCH_arm64 and the vmlinux.h of the arm64
# kernel, as examples/build.sh --arch arm64.
#
# CLANG=clang-16 or CLANG=clang-19 compiles with that clang and the plugin
# built against its LLVM (build/lib/llvm-N/relocore-pass.so; the default
# clang, LLVM 14, uses build/lib/relocore-pass.so).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../../scripts/cache.sh"
arch=x86
if [ "${1:-}" = --arch ]; then
	arch=${2:-}
	shift 2 || true
fi
[ $# -ge 1 ] || { echo "usage: $0 [--arch x86|arm64] OUTDIR [SRC.c...]" >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
clang=${CLANG:-clang}
if [ "$clang" = clang-16 ]; then
	need clang-16 clang-16
elif [ "$clang" = clang-19 ]; then
	need clang-19 clang-19
else
	need clang clang
fi
ver=$("$clang" --version | sed -nE 's/.*clang version ([0-9]+).*/\1/p' | head -1)
[ -n "$ver" ] || { echo "llvm-pass/examples: cannot tell the LLVM version of $clang" >&2; exit 1; }
if [ "$ver" = 14 ]; then
	plugin="$RC_BUILD/lib/relocore-pass.so"
else
	plugin="$RC_BUILD/lib/llvm-$ver/relocore-pass.so"
fi
[ -f "$plugin" ] || { echo "llvm-pass/examples: no $plugin for $clang (LLVM $ver): build it first (make; llvm-$ver-dev)" >&2; exit 1; }
# examples/build.sh generates (or finds) the cached vmlinux.h; reuse it.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hdr=$(env -u CLANG bash "$RC_ROOT/examples/build.sh" --arch "$arch" "$tmp" "$RC_ROOT/examples/getpid.bpf.c" |
      sed -nE 's/.*(generating|using cached) ([^:]*vmlinux\.h).*/\2/p' | head -1)
[ -s "$hdr" ] || { echo "llvm-pass/examples: no vmlinux.h" >&2; exit 1; }
srcs=("$@")
[ ${#srcs[@]} -gt 0 ] || srcs=("$here"/*.c)
for src in "${srcs[@]}"; do
	name=$(basename "$src" .c)
	cmd=("$clang" -target bpf -O2 -g -D__TARGET_ARCH_$arch -DBPF_NO_PRESERVE_ACCESS_INDEX
	     -fplugin="$plugin" -fpass-plugin="$plugin" -Rpass=relocore
	     -I"$(dirname "$hdr")" -c "$src" -o "$out/$name.bpf.o")
	echo "llvm-pass/examples: ${cmd[*]}"
	"${cmd[@]}"
done
