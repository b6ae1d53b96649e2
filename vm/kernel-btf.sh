#!/usr/bin/env bash
# kernel-btf.sh NAME - print the path of the raw BTF (.BTF section) of the
# kernel NAME of vm/kernels.list, extracting it once.
#
#   NAME: cloud-6.1   linux-image-6.1.0-*-cloud-amd64-unsigned
#         cloud-6.12  linux-image-6.12.*+deb12-cloud-amd64-unsigned
#         rt-6.12     linux-image-6.12.*+deb12-rt-amd64-unsigned
#         (and any other line of vm/kernels.list)
#
# vm/kernel.sh NAME fetches the kernel (`apt-get download` + `dpkg -x`, no
# install) into $RC_CACHE/kernels/<package .deb file name>/; here the vmlinux
# ELF is recovered from the compressed payload of its vmlinuz (by finding the
# compressor's magic bytes, then decompressing from there), and its .BTF
# section is written out with objcopy.  Result, beside the kernel:
#   $RC_CACHE/kernels/<package .deb file name>/vmlinux.btf
# A kernel built by a `build` entry may leave vmlinux.btf itself.
# Set RC_KERNEL_PKG to pin a package name instead of picking the newest.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 1 ] || { echo "usage: $0 NAME (a kernel of $here/kernels.list)" >&2; exit 2; }
log() { echo "kernel-btf: $*" >&2; }
# shellcheck source=../scripts/need.sh
source "$here/../scripts/need.sh"
need objcopy binutils
need xz xz-utils
need zstd zstd
need lz4 lz4
need bzip2 bzip2

if [ -n "${RC_KERNEL_PKG:-}" ]; then
	export "RC_KERNEL_PKG_$(tr -c 'A-Za-z0-9\n' _ <<<"$1")=$RC_KERNEL_PKG"
fi
dir=$("$here/kernel.sh" "$1")
btf="$dir/vmlinux.btf"
if [ -s "$btf" ]; then
	echo "$btf"
	exit 0
fi

exec 9>"$dir/.btf.lock"
flock 9
if [ -s "$btf" ]; then echo "$btf"; exit 0; fi

tmp=$(mktemp -d "$dir/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
img="$dir/vmlinuz"
log "extracting vmlinux from $img"

# Try each compressor whose magic occurs in the image, at each occurrence,
# until one yields an ELF file.
try_payload() { # $1 = byte offset, $2.. = decompress command
	local off=$1; shift
	tail -c +"$((off + 1))" "$img" | timeout 300 "$@" >"$tmp/vmlinux" 2>/dev/null || true
	[ "$(head -c4 "$tmp/vmlinux" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]
}
found=
for spec in 'fd377a585a00|xz -dc' '28b52ffd|zstd -dcq' '1f8b08|gzip -dc' \
	    '425a68|bzip2 -dc' '5d000000|xz -dc --format=lzma' '02214c18|lz4 -dc'; do
	magic=${spec%%|*}; cmd=${spec#*|}
	command -v "${cmd%% *}" >/dev/null || continue
	pat=$(sed 's/../\\x&/g' <<<"$magic")
	while read -r off; do
		[ -n "$off" ] || continue
		# shellcheck disable=SC2086
		if try_payload "$off" $cmd; then found=$cmd; break 2; fi
	done < <(LC_ALL=C grep -obUaP "$pat" "$img" | cut -d: -f1 | head -n 8)
done
[ -n "$found" ] || { log "could not find a vmlinux payload in $img"; exit 1; }
log "payload decompressed with '$found'; extracting .BTF"
objcopy -O binary --only-section=.BTF "$tmp/vmlinux" "$tmp/vmlinux.btf"
[ -s "$tmp/vmlinux.btf" ] || { log "vmlinux has no .BTF section"; exit 1; }

chmod 644 "$tmp/vmlinux.btf"
mv "$tmp/vmlinux.btf" "$btf"
echo "$btf"
