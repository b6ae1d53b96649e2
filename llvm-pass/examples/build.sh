#!/usr/bin/env bash
# llvm-pass/examples/build.sh OUTDIR - compile the plugin's BCC-style
# examples ONCE, as plain C with natural dereferences, with the relocore
# plugin, against the same vmlinux.h examples/build.sh uses but without the
# preserve_access_index pragma (-DBPF_NO_PRESERVE_ACCESS_INDEX):
#
#   clang -target bpf -O2 -g -D__TARGET_ARCH_x86 -DBPF_NO_PRESERVE_ACCESS_INDEX \
#     -fplugin=build/lib/relocore-pass.so -fpass-plugin=build/lib/relocore-pass.so \
#     -I<vmlinux.h dir> -c X.c -o OUTDIR/X.bpf.o
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../../scripts/cache.sh"
[ $# -ge 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
mkdir -p "$out"
need clang clang
plugin="$RC_BUILD/lib/relocore-pass.so"
[ -f "$plugin" ] || { echo "llvm-pass/examples: build the plugin first (make)" >&2; exit 1; }
# examples/build.sh generates (or finds) the cached vmlinux.h; reuse it.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hdr=$(bash "$RC_ROOT/examples/build.sh" "$tmp" "$RC_ROOT/examples/getpid.bpf.c" |
      sed -nE 's/.*(generating|using cached) ([^:]*vmlinux\.h).*/\2/p' | head -1)
[ -s "$hdr" ] || { echo "llvm-pass/examples: no vmlinux.h" >&2; exit 1; }
for src in "$here"/*.c; do
	name=$(basename "$src" .c)
	cmd=(${CLANG:-clang} -target bpf -O2 -g -D__TARGET_ARCH_x86 -DBPF_NO_PRESERVE_ACCESS_INDEX
	     -fplugin="$plugin" -fpass-plugin="$plugin" -Rpass=relocore
	     -I"$(dirname "$hdr")" -c "$src" -o "$out/$name.bpf.o")
	echo "llvm-pass/examples: ${cmd[*]}"
	"${cmd[@]}"
done
