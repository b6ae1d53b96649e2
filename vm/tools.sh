#!/usr/bin/env bash
# vm/tools.sh ARCH - the initramfs layer that brings Debian's libbpf-tools
# into a guest of ARCH (amd64, arm64), built once per content; prints its
# path (a gzip'd cpio archive; vm/initramfs.sh appends it to the image).
#
# The tools are Debian bookworm's libbpf-tools of ARCH (0.26: 52 binaries,
# each a libbpf skeleton with its BPF object embedded, its own static
# libbpf doing the CO-RE), fetched with `apt-get download` (never
# committed) with what they need to run in a busybox guest:
#   /tools/bin/TOOL        the Debian binaries (symlinked names, e.g.
#                          ext4dist -> fsdist, are left out: same object)
#   /lib/..., /lib64/...   the dynamic loader and the libraries the tools
#                          link (libc6, libelf1, zlib1g of ARCH)
#   /bin/bash              bash of ARCH: only a file to put bashreadline's
#                          uprobe on (readline is linked into Debian's bash)
#   /tests/tools.list      test/vm/tools.list: how each tool is run
#   /tests/tools-guest.sh  test/vm/tools-guest.sh: runs them (guest-tests.sh
#                          calls it)
#   /tests/tools-options.list  test/vm/tools-options.list: run's load
#                          options given wrong and right
# The packages come through vm/lib.sh's vm_apt (the system's release; a
# foreign ARCH through a private [arch=ARCH] configuration); the cache key
# is the .deb file names and the two test files.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 ARCH" >&2; exit 2; }
arch=$1
log() { echo "tools[$arch]: $*" >&2; }
need dpkg dpkg
need cpio cpio
need readelf binutils
pkgs=(libbpf-tools libc6 libelf1 zlib1g bash)
list="$RC_ROOT/test/vm/tools.list"
guest="$RC_ROOT/test/vm/tools-guest.sh"
optlist="$RC_ROOT/test/vm/tools-options.list"

vm_apt system "$arch"
uris=$(timeout 120 apt-get "${VM_APT[@]}" download --print-uris $(for p in "${pkgs[@]}"; do vm_apt_pkg "$p"; done) 2>/dev/null |
	awk '{print $2}')
if [ "$(wc -l <<<"$uris")" != ${#pkgs[@]} ]; then
	log "apt cannot name all of ${pkgs[*]} for $arch (got: $uris); updating its lists once"
	vm_apt_update
	uris=$(timeout 120 apt-get "${VM_APT[@]}" download --print-uris $(for p in "${pkgs[@]}"; do vm_apt_pkg "$p"; done) 2>/dev/null |
		awk '{print $2}')
	[ "$(wc -l <<<"$uris")" = ${#pkgs[@]} ] || { log "apt cannot name all of ${pkgs[*]} for $arch: $uris"; exit 1; }
fi
key=$( (sort <<<"$uris"; cat "$list" "$guest" "$optlist") | sha256sum | cut -c1-16)
cache="$RC_CACHE/tools"
out="$cache/$arch-$key.cpio.gz"
[ -s "$out" ] && [ -d "${out%.cpio.gz}.bin" ] && { echo "$out"; exit 0; }

mkdir -p "$cache"
exec 9>"$cache/.lock.$arch"
flock 9
[ -s "$out" ] && [ -d "${out%.cpio.gz}.bin" ] && { echo "$out"; exit 0; }
tmp=$(mktemp -d "$cache/.tmp.XXXXXX")
t_fetch=$(date +%s)
trap 'rm -rf "$tmp"' EXIT
log "downloading ${pkgs[*]} ($arch)"
(cd "$tmp" && timeout 600 apt-get "${VM_APT[@]}" download -q $(for p in "${pkgs[@]}"; do vm_apt_pkg "$p"; done) 2>&1 |
	{ grep -v '^W: Download is performed unsandboxed' >&2 || true; })
mkdir -p "$tmp/x" "$tmp/root/tools/bin" "$tmp/root/tests" "$tmp/root/bin"
for deb in "$tmp"/*.deb; do
	timeout 300 dpkg -x "$deb" "$tmp/x"
done
[ -d "$tmp/x/usr/sbin" ] || { log "libbpf-tools:$arch left no usr/sbin"; exit 1; }
n=0
for b in "$tmp/x/usr/sbin"/*; do
	[ -f "$b" ] && [ ! -L "$b" ] || continue
	cp "$b" "$tmp/root/tools/bin/"
	n=$((n + 1))
done
cp "$tmp/x/bin/bash" "$tmp/root/bin/bash"
# the loader and every library the tools need, by NEEDED, from the packages
trip=$(case "$arch" in amd64) echo x86_64-linux-gnu ;; arm64) echo aarch64-linux-gnu ;; esac)
interp=$(readelf -l "$tmp/root/tools/bin/execsnoop" | sed -n 's/.*interpreter: \(.*\)]/\1/p')
[ -n "$interp" ] || { log "execsnoop:$arch names no interpreter"; exit 1; }
libs=()
want=$(for b in "$tmp/root/tools/bin"/*; do readelf -d "$b" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'; done | sort -u)
while [ -n "$want" ]; do
	next=
	for l in $want; do
		case " ${libs[*]:-} " in *" $l "*) continue ;; esac
		f=$(find "$tmp/x/lib/$trip" "$tmp/x/usr/lib/$trip" -maxdepth 1 -name "$l" 2>/dev/null | head -n1)
		[ -n "$f" ] || { log "no $l of $arch in ${pkgs[*]}"; exit 1; }
		libs+=("$l")
		mkdir -p "$tmp/root/lib/$trip"
		cp -L "$f" "$tmp/root/lib/$trip/$l"
		next+=" $(readelf -d "$f" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
	done
	want=$(tr ' ' '\n' <<<"$next" | sed '/^$/d' | sort -u)
done
mkdir -p "$tmp/root$(dirname "$interp")"
cp -L "$(find "$tmp/x" -path "*/lib*/$(basename "$interp")" | head -n1)" "$tmp/root$interp"
install -m 644 "$list" "$tmp/root/tests/tools.list"
install -m 644 "$guest" "$tmp/root/tests/tools-guest.sh"
install -m 644 "$optlist" "$tmp/root/tests/tools-options.list"
(cd "$tmp" && ls ./*.deb | sed 's|^\./||') >"$tmp/root/tools/packages"
# the guest's whole test run: the examples (a minute) and 2 x 52 tool runs
mkdir -p "$tmp/root/etc"
echo 540 >"$tmp/root/etc/vm-test-timeout"	# (vm/boot.sh kills QEMU at 600 s)
(cd "$tmp/root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -6) >"$out.tmp"
# the binaries on the host too (the archive of a BTF-less kernel is
# minimized for their objects: vm/initramfs.sh)
rm -rf "${out%.cpio.gz}.bin"
cp -a "$tmp/root/tools/bin" "${out%.cpio.gz}.bin"
mv "$out.tmp" "$out"
find "$cache" -maxdepth 1 -name "$arch-*" ! -name "${out##*/}" ! -name "$(basename "${out%.cpio.gz}.bin")" -exec rm -rf {} +
log "ready: $out ($n tools, libraries: ${libs[*]}, loader $interp)"
rc_time download "libbpf-tools:$arch" "$t_fetch" "$n tools"
echo "$out"
