#!/usr/bin/env bash
# vm/kernel.sh NAME - fetch the kernel NAME of vm/kernels.list once and print
# the directory that holds it:
#
#   $RC_CACHE/kernels/<.deb file name>/      (KIND deb; key = package+version)
#   $RC_CACHE/kernels/build-<NAME>-<KEY>/    (KIND build; KEY from
#                                            `SCRIPT --key NAME`, if any)
#     vmlinuz              the bootable image
#     System.map           when the package ships one
#     config               the kernel's .config
#     release              `uname -r` of that kernel
#     lib/modules/<release>/   the modules tree (modules.dep, *.ko[.xz|.zst])
#     vmlinux.btf          added by vm/kernel-btf.sh when asked for
#
# The same directory is used by vm/kernel-btf.sh.  Nothing is installed:
# `apt-get download` + `dpkg -x` only.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 NAME  (NAME from $VM_LIST)" >&2; exit 2; }
name=$1
read -r kind spec _btf < <(vm_entry "$name")
log() { echo "kernel[$name]: $*" >&2; }

need depmod kmod
mkdir -p "$RC_CACHE/kernels"

case "$kind" in
deb)
	pin_var="RC_KERNEL_PKG_$(tr -c 'A-Za-z0-9\n' _ <<<"$name")"
	pkg="${!pin_var:-}"
	# the package resolution (apt-cache search + apt-get --print-uris, ~4s)
	# is remembered until the apt lists change
	stamp=$(stat -c %Y /var/lib/apt/lists/*Packages* 2>/dev/null | sort -n | tail -n1)
	memo="$RC_CACHE/kernels/.resolved-$name"
	want="$spec|$pkg|$stamp"
	debname=
	if [ -f "$memo" ] && [ "$(sed -n 1p "$memo")" = "$want" ]; then
		pkg=$(sed -n 2p "$memo")
		debname=$(sed -n 3p "$memo")
	fi
	if [ -z "$debname" ]; then
		find_pkg() { apt-cache search --names-only "$spec" 2>/dev/null | awk '{print $1}' | grep -E "$spec" | sort -V | tail -n1; }
		if [ -z "$pkg" ]; then
			pkg=$(find_pkg)
			if [ -z "$pkg" ]; then
				log "no package matches $spec; running apt-get update once"
				timeout 600 apt-get update -qq >&2 || true
				pkg=$(find_pkg)
				stamp=$(stat -c %Y /var/lib/apt/lists/*Packages* 2>/dev/null | sort -n | tail -n1)
				want="$spec|${!pin_var:-}|$stamp"
			fi
		fi
		[ -n "$pkg" ] || { log "no package matches $spec"; exit 1; }
		debname=$(timeout 120 apt-get download --print-uris "$pkg" 2>/dev/null | awk 'NR==1{print $2}')
		[ -n "$debname" ] || { log "apt-get cannot locate $pkg"; exit 1; }
		printf '%s\n%s\n%s\n' "$want" "$pkg" "$debname" >"$memo.$$" && mv "$memo.$$" "$memo"
	fi
	out="$RC_CACHE/kernels/$debname"
	;;
build)
	# keyed by what the build script says its result depends on (for
	# kernel/vm-kernel.sh: the series and the config), when it can say
	key=$("$RC_ROOT/$spec" --key "$name" 2>/dev/null | tail -n1 || true)
	out="$RC_CACHE/kernels/build-$name${key:+-$key}"
	;;
*)
	log "unknown KIND '$kind' (deb|build)"; exit 1 ;;
esac

[ -f "$out/.kernel-complete" ] && { echo "$out"; exit 0; }

exec 9>"$RC_CACHE/kernels/.lock"
flock 9
[ -f "$out/.kernel-complete" ] && { echo "$out"; exit 0; }

tmp=$(mktemp -d "$RC_CACHE/kernels/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

case "$kind" in
deb)
	log "downloading $debname"
	(cd "$tmp" && timeout 900 apt-get download -q "$pkg" 2>&1 |
		{ grep -v '^W: Download is performed unsandboxed' >&2 || true; })
	deb=$(ls "$tmp"/*.deb | head -n1)
	log "unpacking $(basename "$deb") ($(du -h "$deb" | cut -f1))"
	timeout 600 dpkg -x "$deb" "$tmp/root"
	img=$(ls "$tmp"/root/boot/vmlinuz-* | head -n1)
	[ -f "$img" ] || { log "no vmlinuz in $deb"; exit 1; }
	rel=${img##*/vmlinuz-}
	[ -d "$tmp/root/lib/modules/$rel" ] || { log "no lib/modules/$rel in $deb"; exit 1; }
	cp "$img" "$out/vmlinuz"
	cp "$tmp/root/boot/config-$rel" "$out/config"
	[ -f "$tmp/root/boot/System.map-$rel" ] && cp "$tmp/root/boot/System.map-$rel" "$out/System.map"
	rm -rf "$out/lib"
	mkdir -p "$out/lib/modules"
	mv "$tmp/root/lib/modules/$rel" "$out/lib/modules/"
	# the package ships no modules.dep (postinst runs depmod): make it here,
	# reading files only
	if [ ! -s "$out/lib/modules/$rel/modules.dep" ]; then
		depmod -b "$out" "$rel"
	fi
	echo "$rel" >"$out/release"
	;;
build)
	log "building with $spec"
	"$RC_ROOT/$spec" "$name" "$out" >&2
	for f in vmlinuz release config; do
		[ -s "$out/$f" ] || { log "$spec left no $f in $out"; exit 1; }
	done
	;;
esac
touch "$out/.kernel-complete"
log "ready: $out (release $(cat "$out/release"))"
echo "$out"
