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
#     arch                 its Debian architecture (KIND deb)
#
# The same directory is used by vm/kernel-btf.sh.  Nothing is installed:
# `apt-get download` + `dpkg -x` only.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 NAME  (NAME from $VM_LIST)" >&2; exit 2; }
name=$1
read -r kind spec _btf < <(vm_entry "$name")
arch=$(vm_arch "$name")
log() { echo "kernel[$name]: $*" >&2; }

need depmod kmod
mkdir -p "$RC_CACHE/kernels"

case "$kind" in
deb)
	# SPEC is [SUITE/]REGEX: SUITE (bullseye, sid, ...) is fetched through a
	# private apt configuration (vm/lib.sh: vm_apt), never the system's
	suite=system re=$spec
	case "$spec" in [a-z]*/*) suite=${spec%%/*}; re=${spec#*/} ;; esac
	# a foreign ARCH (arm64) comes through its own private configuration
	# ([arch=arm64] sources) as PKG:arm64
	vm_apt "$suite" "$arch"
	pin_var="RC_KERNEL_PKG_$(tr -c 'A-Za-z0-9\n' _ <<<"$name")"
	pin="${!pin_var:-}"
	# the package resolution (apt-cache search + apt-get --print-uris) is
	# remembered until the apt lists change
	stamp=$(vm_apt_stamp)
	memo="$RC_CACHE/kernels/.resolved-$name"
	want="$spec|$arch|$pin|$stamp"
	debname=
	if [ -f "$memo" ] && [ "$(sed -n 1p "$memo")" = "$want" ]; then
		pkg=$(sed -n 2p "$memo")
		debname=$(sed -n 3p "$memo")
	fi
	# resolve: on failure (the mirror or the lists unreachable), a kernel
	# fetched before under an older resolution is used, and that is said
	resolve_failed() {
		local old
		old=$(sed -n 3p "$memo" 2>/dev/null)
		if [ -n "$old" ] && [ -f "$RC_CACHE/kernels/$old/.kernel-complete" ]; then
			log "$1; using the kernel fetched before: $old"
			pkg=$(sed -n 2p "$memo") debname=$old old_used=1
			return 0
		fi
		log "$1"
		exit 1
	}
	if [ -z "$debname" ]; then
		find_pkgs() { apt-cache "${VM_APT[@]}" search --names-only "$re" 2>/dev/null | awk '{print $1}' | grep -E "$re" | sort -rV; }
		if [ -n "$pin" ]; then
			cands=$pin
		else
			cands=$(find_pkgs)
			if [ -z "$cands" ]; then
				log "no package matches $re ($suite); running apt-get update once"
				vm_apt_update
				cands=$(find_pkgs)
			fi
		fi
		[ -n "$cands" ] || resolve_failed "no package matches $re ($suite)"
		# the lists may name packages the mirror no longer has (404): take
		# the newest one whose .deb is really there, and say so
		[ -n "$debname" ] || pkg=
		for c in $cands; do
			[ -z "$debname" ] || break
			uri=$(timeout 120 apt-get "${VM_APT[@]}" download --print-uris "$(vm_apt_pkg "$c")" 2>/dev/null | awk 'NR==1{print $1}' | tr -d "'" || true)
			[ -n "$uri" ] || continue
			if timeout 60 python3 -c 'import sys,urllib.request; urllib.request.urlopen(urllib.request.Request(sys.argv[1], method="HEAD"), timeout=50)' "$uri" 2>/dev/null; then
				pkg=$c
				debname=$(basename "$uri")
				break
			fi
			log "$c is listed but not downloadable (${uri##*/}): trying an older one"
		done
		[ -n "$debname" ] || resolve_failed "none of the packages matching $re can be downloaded"
		if [ -z "${old_used:-}" ]; then
			[ "$pkg" = "$(head -n1 <<<"$cands")" ] || log "fell back to $pkg (newer ones are listed but missing; pin with $pin_var=PACKAGE)"
			printf '%s\n%s\n%s\n' "$want" "$pkg" "$debname" >"$memo.$$" && mv "$memo.$$" "$memo"
		fi
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

# one lock per kernel: vm/matrix.sh builds ours while it downloads Debian's
exec 9>"$out.lock"
flock 9
[ -f "$out/.kernel-complete" ] && { echo "$out"; exit 0; }

tmp=$(mktemp -d "$RC_CACHE/kernels/.tmp.XXXXXX")
t_fetch=$(date +%s)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

case "$kind" in
deb)
	# one package (linux-image-REL-unsigned: boot/vmlinuz-REL, lib/modules)
	# or the split layout of Debian 14 (linux-binary-unsigned-REL: the
	# image under usr/lib/modules/REL/; linux-modules-REL, linux-base-REL:
	# modules, config)
	pkgs=("$pkg")
	case "$pkg" in
	linux-binary-unsigned-*) r=${pkg#linux-binary-unsigned-}; pkgs+=("linux-modules-$r" "linux-base-$r") ;;
	linux-binary-*) r=${pkg#linux-binary-}; pkgs+=("linux-modules-$r" "linux-base-$r") ;;
	esac
	log "downloading ${pkgs[*]} ($suite, $arch)"
	(cd "$tmp" && timeout 900 apt-get "${VM_APT[@]}" download -q $(for p in "${pkgs[@]}"; do vm_apt_pkg "$p"; done) 2>&1 |
		{ grep -v '^W: Download is performed unsandboxed' >&2 || true; })
	for deb in "$tmp"/*.deb; do
		log "unpacking $(basename "$deb") ($(du -h "$deb" | cut -f1))"
		timeout 600 dpkg -x "$deb" "$tmp/root"
	done
	if [ -d "$tmp/root/usr/lib/modules" ]; then
		mkdir -p "$tmp/root/lib/modules"
		cp -a "$tmp/root/usr/lib/modules/." "$tmp/root/lib/modules/"
	fi
	img=$(ls "$tmp"/root/boot/vmlinuz-* "$tmp"/root/lib/modules/*/vmlinuz.unsigned "$tmp"/root/lib/modules/*/vmlinuz 2>/dev/null | head -n1 || true)
	[ -f "$img" ] || { log "no vmlinuz in ${pkgs[*]}"; exit 1; }
	case "$img" in
	*/boot/vmlinuz-*) rel=${img##*/vmlinuz-} ;;
	*) rel=$(basename "$(dirname "$img")") ;;
	esac
	[ -d "$tmp/root/lib/modules/$rel" ] || { log "no lib/modules/$rel in ${pkgs[*]}"; exit 1; }
	cp "$img" "$out/vmlinuz"
	for c in "$tmp/root/boot/config-$rel" "$tmp/root/lib/modules/$rel/config"; do
		if [ -f "$c" ]; then cp "$c" "$out/config"; break; fi
	done
	[ -s "$out/config" ] || { log "no config of $rel in ${pkgs[*]}"; exit 1; }
	# a System.map only when it is one (Debian 14's is a placeholder)
	for m in "$tmp/root/boot/System.map-$rel" "$tmp/root/lib/modules/$rel/System.map"; do
		if [ -f "$m" ] && [ "$(stat -c %s "$m")" -gt 4096 ]; then cp "$m" "$out/System.map"; break; fi
	done
	rm -f "$tmp/root/lib/modules/$rel"/{vmlinuz.unsigned,vmlinuz,config,System.map}
	rm -rf "$out/lib"
	mkdir -p "$out/lib/modules"
	mv "$tmp/root/lib/modules/$rel" "$out/lib/modules/"
	# the package ships no modules.dep (postinst runs depmod): make it here,
	# reading files only
	if [ ! -s "$out/lib/modules/$rel/modules.dep" ]; then
		depmod -b "$out" "$rel"
	fi
	echo "$rel" >"$out/release"
	echo "$pkg ($suite)" >"$out/package"
	echo "$arch" >"$out/arch"
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
[ "$kind" != deb ] || rc_time download "$name" "$t_fetch" "$pkg"
log "ready: $out (release $(cat "$out/release"))"
echo "$out"
