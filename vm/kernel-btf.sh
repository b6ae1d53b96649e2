#!/usr/bin/env bash
# kernel-btf.sh FLAVOR - print the path of the raw BTF (.BTF section) of the
# newest Debian 12 kernel image package of FLAVOR, fetching it once.
#
#   FLAVOR: cloud-6.1   linux-image-6.1.0-*-cloud-amd64-unsigned
#           cloud-6.12  linux-image-6.12.*+deb12-cloud-amd64-unsigned
#           rt-6.12     linux-image-6.12.*+deb12-rt-amd64-unsigned
#
# The package is downloaded with `apt-get download` (no install), unpacked
# with `dpkg -x`, the vmlinux ELF is recovered from the compressed payload of
# the bzImage (by finding the compressor's magic bytes, then decompressing
# from there), and its .BTF section is written out with objcopy.  Result:
#   $RC_CACHE/kernels/<package .deb file name>/vmlinux.btf
# (plus config-* from the package, for reference).  Nothing else is kept.
# Set RC_KERNEL_PKG to pin a package name instead of picking the newest.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../scripts/cache.sh
source "$here/../scripts/cache.sh"

usage() { echo "usage: $0 cloud-6.1|cloud-6.12|rt-6.12" >&2; exit 2; }
[ $# -eq 1 ] || usage
case "$1" in
	cloud-6.1)  re='^linux-image-6\.1\.0-[0-9]+-cloud-amd64-unsigned$' ;;
	cloud-6.12) re='^linux-image-6\.12\.[0-9]+\+deb12-cloud-amd64-unsigned$' ;;
	rt-6.12)    re='^linux-image-6\.12\.[0-9]+\+deb12-rt-amd64-unsigned$' ;;
	*) usage ;;
esac

log() { echo "kernel-btf: $*" >&2; }

find_pkg() {
	apt-cache search --names-only "$re" 2>/dev/null | awk '{print $1}' | sort -V | tail -n1
}

pkg="${RC_KERNEL_PKG:-}"
if [ -z "$pkg" ]; then
	pkg=$(find_pkg)
	if [ -z "$pkg" ]; then
		log "no package matches $re; running apt-get update once"
		timeout 600 apt-get update -qq >&2 || true
		pkg=$(find_pkg)
	fi
fi
[ -n "$pkg" ] || { log "no package for $1"; exit 1; }

# The .deb file name names the cache entry (package + exact version).
uri_line=$(timeout 120 apt-get download --print-uris "$pkg" 2>/dev/null | head -n1)
debname=$(awk '{print $2}' <<<"$uri_line")
[ -n "$debname" ] || { log "apt-get cannot locate $pkg"; exit 1; }
out="$RC_CACHE/kernels/$debname"
btf="$out/vmlinux.btf"
if [ -s "$btf" ]; then
	echo "$btf"
	exit 0
fi

mkdir -p "$RC_CACHE/kernels"
exec 9>"$RC_CACHE/kernels/.lock"
flock 9
if [ -s "$btf" ]; then echo "$btf"; exit 0; fi

tmp=$(mktemp -d "$RC_CACHE/kernels/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log "downloading $debname"
# (apt warns that it downloads unsandboxed as root into a private dir: harmless)
(cd "$tmp" && timeout 900 apt-get download -q "$pkg" 2>&1 | { grep -v '^W: Download is performed unsandboxed' >&2 || true; })
deb=$(ls "$tmp"/*.deb | head -n1)
log "unpacking $(basename "$deb")"
mkdir "$tmp/root"
timeout 300 dpkg -x "$deb" "$tmp/root"
img=$(ls "$tmp"/root/boot/vmlinuz-* | head -n1)
[ -f "$img" ] || { log "no vmlinuz in $deb"; exit 1; }

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

mkdir -p "$tmp/out"
chmod 644 "$tmp/vmlinux.btf"; mv "$tmp/vmlinux.btf" "$tmp/out/"
cp "$tmp"/root/boot/config-* "$tmp/out/" 2>/dev/null || true
rm -rf "$out"
mv "$tmp/out" "$out"
echo "$btf"
