#!/usr/bin/env bash
# test/crosscheck/libbpf-tools.sh SUITE - fetch Debian's libbpf-tools package
# of SUITE once and print the directory it is unpacked in (dpkg -x, nothing
# installed); its tools are in usr/sbin/.
#
#   SUITE  bookworm  the system's own apt sources (the machine's release)
#          sid       Debian unstable, through a private apt configuration
#                    (vm/lib.sh's vm_apt: its sources file, lists and
#                    package cache in $RC_CACHE/apt/sid/; the system's
#                    sources are not touched); its lists are refreshed when
#                    older than a day
#
# Cached by package version: $RC_CACHE/libbpf-tools/<.deb file name>/
#   root/        the unpacked package
#   version      the package version
# Every apt call and the unpacking have timeouts.  Nothing here is committed
# to the repository: the corpus is fetched at test time.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../vm/lib.sh
source "$here/../../vm/lib.sh"
need apt-get apt
need apt-cache apt
need dpkg dpkg
need /usr/share/keyrings/debian-archive-keyring.gpg debian-archive-keyring

[ $# -eq 1 ] || { echo "usage: $0 bookworm|sid" >&2; exit 2; }
suite=$1
log() { echo "libbpf-tools[$suite]: $*" >&2; }
pkg=libbpf-tools

case "$suite" in
bookworm) vm_apt system ;;
sid)
	# the private apt configuration the VM matrix uses too (vm/lib.sh)
	vm_apt sid
	if [ -z "$(find "$RC_CACHE/apt/sid/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -n1)" ]; then
		log "refreshing the private apt lists of sid (older than a day)"
		vm_apt_update
	fi
	;;
*) echo "$0: unknown suite '$suite' (bookworm|sid)" >&2; exit 2 ;;
esac
apt_opts=("${VM_APT[@]}")

version=$(timeout 120 apt-cache "${apt_opts[@]}" policy "$pkg" 2>/dev/null | awk '/Candidate:/{print $2}')
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
	if [ "$suite" = bookworm ]; then
		log "no candidate for $pkg; running apt-get update once"
		timeout 600 apt-get update -qq >&2 || true
		version=$(timeout 120 apt-cache "${apt_opts[@]}" policy "$pkg" 2>/dev/null | awk '/Candidate:/{print $2}')
	fi
	[ -n "$version" ] && [ "$version" != "(none)" ] || { log "apt knows no $pkg"; exit 1; }
fi
debname="${pkg}_${version/*:/}_amd64.deb"
out="$RC_CACHE/libbpf-tools/$debname"
if [ -f "$out/.done" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$RC_CACHE/libbpf-tools"
exec 9>"$RC_CACHE/libbpf-tools/.lock"
flock 9
[ -f "$out/.done" ] && { echo "$out"; exit 0; }
tmp=$(mktemp -d "$RC_CACHE/libbpf-tools/.tmp.XXXXXX")
t_fetch=$(date +%s)
trap 'rm -rf "$tmp"' EXIT
log "downloading $pkg $version"
(cd "$tmp" && timeout 300 apt-get "${apt_opts[@]}" download -q "$pkg=$version" 2>&1 |
	{ grep -v '^W: Download is performed unsandboxed' >&2 || true; })
deb=$(ls "$tmp"/*.deb 2>/dev/null | head -n1)
[ -n "$deb" ] || { log "apt-get download $pkg=$version left no .deb"; exit 1; }
timeout 300 dpkg -x "$deb" "$tmp/root"
[ -d "$tmp/root/usr/sbin" ] || { log "$deb has no usr/sbin"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
mv "$tmp/root" "$out/root"
echo "$version" >"$out/version"
touch "$out/.done"
log "ready: $out ($(find "$out/root/usr/sbin" -type f | wc -l) files in usr/sbin)"
rc_time download "$pkg" "$t_fetch" "$version"
echo "$out"
