#!/usr/bin/env bash
# vm/sysroot.sh ARCH - the userland pieces a guest of a foreign Debian
# architecture (arm64), or a program of it run on the host by qemu-user
# (s390x: libbpf's own CO-RE engine, big-endian, test/crosscheck/be.sh),
# needs, fetched once from Debian and printed as a directory (keyed by the
# exact package versions):
#
#   $RC_CACHE/sysroot/ARCH-<key>/
#     usr/include, usr/lib/<triplet>/   libbpf-dev, libelf-dev, zlib1g-dev,
#                                       liblzma-dev of ARCH (headers, .a): what
#                                       the static guest programs and
#                                       relocore-static link against (libc
#                                       comes with the cross toolchain)
#     bin/busybox                       busybox-static of ARCH
#     packages                          the .deb files it was made of
#
# `apt-get download PKG:ARCH` through a private apt configuration of the
# system's release with [arch=ARCH] sources (vm/lib.sh: vm_apt), then
# `dpkg -x`; nothing is installed, no architecture is added to dpkg.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 ARCH (arm64)" >&2; exit 2; }
arch=$1
log() { echo "sysroot[$arch]: $*" >&2; }
case "$arch" in
arm64|s390x) ;;
*) log "no sysroot for '$arch' (arm64, s390x; the host's own packages serve $(vm_host_arch))"; exit 1 ;;
esac
need dpkg dpkg
pkgs=(libbpf-dev libelf-dev zlib1g-dev liblzma-dev busybox-static)

vm_apt system "$arch"
# the .deb file names (package_version_arch.deb) are the key
debs=$(timeout 120 apt-get "${VM_APT[@]}" download --print-uris $(for p in "${pkgs[@]}"; do vm_apt_pkg "$p"; done) 2>/dev/null |
	awk '{print $2}')
[ "$(wc -l <<<"$debs")" = ${#pkgs[@]} ] || { log "apt cannot name all of ${pkgs[*]} for $arch: $debs"; exit 1; }
key=$(sort <<<"$debs" | sha256sum | cut -c1-16)
out="$RC_CACHE/sysroot/$arch-$key"
[ -f "$out/.complete" ] && { echo "$out"; exit 0; }

mkdir -p "$RC_CACHE/sysroot"
exec 9>"$RC_CACHE/sysroot/.lock"
flock 9
[ -f "$out/.complete" ] && { echo "$out"; exit 0; }
tmp=$(mktemp -d "$RC_CACHE/sysroot/.tmp.XXXXXX")
t_fetch=$(date +%s)
trap 'rm -rf "$tmp"' EXIT
log "downloading ${pkgs[*]} ($arch, $VM_APT_SUITE)"
(cd "$tmp" && timeout 600 apt-get "${VM_APT[@]}" download -q $(for p in "${pkgs[@]}"; do vm_apt_pkg "$p"; done) 2>&1 |
	{ grep -v '^W: Download is performed unsandboxed' >&2 || true; })
mkdir -p "$tmp/root/bin"
for deb in "$tmp"/*.deb; do
	log "unpacking $(basename "$deb")"
	timeout 300 dpkg -x "$deb" "$tmp/root"
done
[ -x "$tmp/root/bin/busybox" ] || { log "busybox-static:$arch left no bin/busybox"; exit 1; }
trip=$(case "$arch" in arm64) echo aarch64-linux-gnu ;; s390x) echo s390x-linux-gnu ;; esac)
for a in libbpf.a libelf.a libz.a liblzma.a; do
	[ -f "$tmp/root/usr/lib/$trip/$a" ] || { log "no usr/lib/$trip/$a in ${pkgs[*]}"; exit 1; }
done
(cd "$tmp" && ls ./*.deb | sed 's|^\./||') >"$tmp/root/packages"
rm -rf "$out"
mv "$tmp/root" "$out"
touch "$out/.complete"
log "ready: $out"
rc_time download "sysroot:$arch" "$t_fetch"
echo "$out"
