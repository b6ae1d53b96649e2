#!/usr/bin/env bash
# kernel/vm-kernel.sh NAME OUTDIR - the "build" KIND of vm/kernels.list for
# relocore's patched kernels: builds (cached) with kernel/build.sh and leaves
# in OUTDIR what vm/kernel.sh expects: vmlinuz, release, config, System.map,
# vmlinux.btf and lib/modules/<release>/ (everything is built in: the tree
# holds modules.builtin and an empty modules.dep, so that
# `modprobe --show-depends virtio_blk` answers "builtin").
#
# NAME is ours-6.1-SET[.uptoN][.ANYTHING]: SET is a fragment set of
# kernel/configs/sets (a, b, kasan), .uptoN applies the first N patches
# only.  Anything after that is ignored (callers may append a cache key).
#
# kernel/vm-kernel.sh --key NAME prints the build's cache key (hash of the
# series and the config) without building: a caller that caches OUTDIR
# should key it with this.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../scripts/need.sh
source "$here/../scripts/need.sh"
need depmod kmod

keyonly=
if [ "${1:-}" = --key ]; then keyonly=1; shift; set -- "$1" /dev/null; fi
[ $# -eq 2 ] || { echo "usage: $0 NAME OUTDIR | --key NAME" >&2; exit 2; }
name=$1 out=$2
rest=${name#ours-6.1-}
[ "$rest" != "$name" ] || { echo "vm-kernel: NAME must be ours-6.1-SET[.uptoN][...], got $name" >&2; exit 2; }
set_name=${rest%%.*}
args=(--config "$set_name")
case "$rest" in
*.upto[0-9]*) n=${rest#*.upto}; n=${n%%.*}; args+=(--upto "$n") ;;
esac

if [ -n "$keyonly" ]; then exec "$here/build.sh" "${args[@]}" --key; fi
img=$("$here/build.sh" "${args[@]}")
kdir=$(dirname "$img")
mkdir -p "$out"
cp "$img" "$out/vmlinuz"
for f in release config System.map vmlinux.btf info; do
	cp "$kdir/$f" "$out/$f"
done
rel=$(cat "$kdir/release")
mkdir -p "$out/lib/modules/$rel"
cp "$kdir/modules.builtin" "$out/lib/modules/$rel/" 2>/dev/null || : >"$out/lib/modules/$rel/modules.builtin"
[ -f "$kdir/modules.builtin.modinfo" ] && cp "$kdir/modules.builtin.modinfo" "$out/lib/modules/$rel/"
depmod -b "$out" "$rel" 2>/dev/null || : >"$out/lib/modules/$rel/modules.dep"
echo "vm-kernel: $name -> $out (release $rel)" >&2
