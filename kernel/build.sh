#!/usr/bin/env bash
# kernel/build.sh [--config NAME] [--upto N] [--key] [--tree] [-j N]
#
# Build relocore's patched kernel: Debian's linux-source-6.1 (pinned to
# $RC_KERNEL_VERSION; any other version is refused) + kernel/patches/*.patch
# (`git am`), configured from the fragment set NAME of kernel/configs/sets
# (default "b"), and print the path of the bzImage (the only stdout line;
# progress goes to stderr).
#
#   --config NAME   fragment set (kernel/configs/sets)
#   --upto N        apply only the first N patches of the series (0: none);
#                   each patch must build and boot on its own
#   --key           print the cache key and exit (nothing is built)
#   --tree          print the source tree (series applied) and exit
#   -j N            make jobs (default 2: the machine is shared)
#
# Cache (outside the clone, scripts/cache.sh):
#   $RC_CACHE/kernel/src-<ver>-<tarball key>/   extracted tree, a git repo
#                                               (tag debian-base), series on
#                                               branch "series"
#   $RC_CACHE/kernel/obj-<NAME>/                O= build dir (incremental)
#   $RC_CACHE/kernel/out/<NAME>-<key>/          bzImage, config, System.map,
#                                               vmlinux.btf, release, build.log
# key = sha256 of version, toolchain, the applied patches and the merged
# fragments: a cached result is reused only for the same series and config.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../scripts/cache.sh
source "$here/../scripts/cache.sh"

RC_KERNEL_VERSION=6.1.192
TARBALL=/usr/src/linux-source-6.1.tar.xz

set_name=b
upto=
jobs=2
mode=build
while [ $# -gt 0 ]; do
	case "$1" in
	--config) set_name=$2; shift 2 ;;
	--config=*) set_name=${1#*=}; shift ;;
	--upto) upto=$2; shift 2 ;;
	--key) mode=key; shift ;;
	--tree) mode=tree; shift ;;
	-j) jobs=$2; shift 2 ;;
	-h|--help) sed -n '2,26p' "$0"; exit 0 ;;
	*) echo "build.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done

log() { echo "kernel[$set_name]: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# --- the fragment set --------------------------------------------------------
sets="$here/configs/sets"
frags=$(awk -v n="$set_name" '!/^[[:space:]]*(#|$)/ && $1 == n":" {$1=""; print}' "$sets")
[ -n "$frags" ] || die "no fragment set '$set_name' in $sets (have: $(awk '!/^[[:space:]]*(#|$)/{printf "%s ", $1}' "$sets"))"
frag_files=()
for f in $frags; do
	[ -f "$here/configs/$f" ] || die "fragment $f of set $set_name is missing"
	frag_files+=("$here/configs/$f")
done

# --- the series ---------------------------------------------------------------
mapfile -t patches < <(ls "$here"/patches/*.patch 2>/dev/null | sort)
if [ -n "$upto" ]; then
	if ! [[ "$upto" =~ ^[0-9]+$ ]] || [ "$upto" -gt "${#patches[@]}" ]; then
		die "--upto $upto: the series has ${#patches[@]} patches"
	fi
	patches=("${patches[@]:0:$upto}")
fi

# --- the pinned source ----------------------------------------------------------
need /usr/src/linux-source-6.1.tar.xz linux-source-6.1
pkgver=$(dpkg-query -W -f '${Version}' linux-source-6.1 2>/dev/null || echo unknown)
# the version inside the tarball (read once per tarball: it takes a while)
verfile="$RC_CACHE/kernel/version-$(stat -c '%s-%Y' "$TARBALL")"
if [ ! -s "$verfile" ]; then
	mkdir -p "$RC_CACHE/kernel"
	log "reading the version of $TARBALL"
	tar -xJOf "$TARBALL" linux-source-6.1/Makefile 2>/dev/null |
		awk '/^VERSION/{a=$3}/^PATCHLEVEL/{b=$3}/^SUBLEVEL/{c=$3}/^EXTRAVERSION/{d=$3}END{print a"."b"."c d}' >"$verfile.tmp"
	mv "$verfile.tmp" "$verfile"
fi
tar_ver=$(cat "$verfile")
if [ "$tar_ver" != "$RC_KERNEL_VERSION" ]; then
	die "$TARBALL is Linux $tar_ver (package linux-source-6.1 $pkgver); this series is pinned to $RC_KERNEL_VERSION and is not applied to another version. Install linux-source-6.1 with a $RC_KERNEL_VERSION tarball or rebase kernel/patches/ and change RC_KERNEL_VERSION."
fi

toolchain="$(gcc --version | head -n1); $(pahole --version 2>/dev/null || echo no-pahole); $(ld --version | head -n1)"
key=$( {
	echo "recipe 1 $RC_KERNEL_VERSION $pkgver"
	echo "$toolchain"
	for p in "${patches[@]}"; do sha256sum <"$p"; done
	echo "set $set_name"
	cat "${frag_files[@]}"
} | sha256sum | cut -c1-16)
if [ "$mode" = key ]; then echo "$key"; exit 0; fi

kdir="$RC_CACHE/kernel"
out="$kdir/out/$set_name-$key"
if [ "$mode" = build ] && [ -s "$out/bzImage" ] && [ -f "$out/.done" ]; then
	log "cached: Linux $RC_KERNEL_VERSION (Debian $pkgver) + ${#patches[@]} patches, set $set_name, key $key"
	echo "$out/bzImage"
	exit 0
fi

need pahole dwarves
need flex flex
need bison bison
need bc bc
need gcc gcc
need make make
need git git
need /usr/include/openssl/ssl.h libssl-dev
need /usr/include/gelf.h libelf-dev

mkdir -p "$kdir/out"
exec 8>"$kdir/.tree.lock"
log "waiting for the tree lock" ; flock 8

src="$kdir/src-$RC_KERNEL_VERSION-$(stat -c '%s-%Y' "$TARBALL")"
if [ ! -f "$src/.git/relocore-done" ]; then
	log "extracting $TARBALL (Linux $tar_ver, Debian $pkgver) into $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	timeout 900 tar -xJf "$TARBALL" -C "$src.tmp" --strip-components=1
	log "recording the pristine tree in git (tag debian-base)"
	(
		cd "$src.tmp"
		git init -q -b debian
		git config user.name relocore
		git config user.email relocore@localhost
		git config gc.auto 0
		# Debian's .gitignore ignores the top level: add everything
		git add -f -A .
		git commit -q -m "Debian linux-source-6.1 $pkgver (Linux $tar_ver)"
		git tag debian-base
	)
	mv "$src.tmp" "$src"
	touch "$src/.git/relocore-done"
fi
log "Linux $RC_KERNEL_VERSION from Debian linux-source-6.1 $pkgver ($src)"

# apply the series (only when it differs from what the tree holds, so that
# unchanged files keep their mtimes and the build stays incremental)
series_id=$(for p in "${patches[@]}"; do sha256sum <"$p"; done | sha256sum | cut -c1-16)
if [ "$(cat "$src/.git/relocore-series" 2>/dev/null)" != "$series_id" ] ||
	! git -C "$src" diff --quiet HEAD; then
	log "applying ${#patches[@]} patches (git am)"
	git -C "$src" am --abort >/dev/null 2>&1 || true
	git -C "$src" checkout -q -f -B series debian-base
	for p in "${patches[@]}"; do
		log "  $(basename "$p")"
		git -C "$src" am -q --whitespace=nowarn "$p" >&2 ||
			{ git -C "$src" am --abort || true; die "$(basename "$p") does not apply"; }
	done
	echo "$series_id" >"$src/.git/relocore-series"
else
	log "series already applied (${#patches[@]} patches)"
fi
git -C "$src" log --oneline debian-base..HEAD | sed 's/^/    /' >&2
if [ "$mode" = tree ]; then echo "$src"; exit 0; fi

# configure: allnoconfig + the merged fragments, then check every option the
# fragments ask for survived (a dropped dependency fails here, not at boot)
obj="$kdir/obj-$set_name"
mkdir -p "$obj"
# No ccache: the sets the tests build (b, nobtf, kasan) share no compile
# (a task_struct layout or a compiler flag changes what nearly every file
# preprocesses to), and on a miss ccache costs 20-40% more CPU (it runs the preprocessor once more,
# then hashes and stores): measured on 26 sampled objects, 21.0 s of CPU
# through ccache, 15.7 s without (kernel/README).  Each set keeps its own O=
# build directory: a changed series or fragment rebuilds only what Kbuild's
# fixdep says depends on it.
kmake=(make -C "$src" O="$obj")
merged="$obj/relocore.fragment"
cat "${frag_files[@]}" >"$merged.new"
if ! cmp -s "$merged.new" "$merged" || [ ! -f "$obj/.config" ]; then
	mv "$merged.new" "$merged"
	log "configuring: allnoconfig + $frags"
	"${kmake[@]}" -s KCONFIG_ALLCONFIG="$merged" allnoconfig >&2
else
	rm -f "$merged.new"
	"${kmake[@]}" -s olddefconfig >&2
fi
bad=0
# a later fragment may override an earlier one: check each option's last word
tac "$merged" | awk '{ o = $0; sub(/^# /, "", o); sub(/[= ].*/, "", o); if (!seen[o]++) print }' >"$merged.last"
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		opt=${line%%=*}
		if ! grep -qxF "$line" "$obj/.config"; then
			log "config: $line was asked for, got: $(grep -E "^(# )?${opt}[= ]" "$obj/.config" || echo unset)"
			bad=1
		fi ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		if grep -q "^$opt=" "$obj/.config"; then
			log "config: $opt was asked off, got: $(grep "^$opt=" "$obj/.config")"
			bad=1
		fi ;;
	esac
done <"$merged.last"
[ "$bad" -eq 0 ] || die "the fragment set $set_name does not configure as written"

# build, with a progress line every 30 s
blog="$obj/build.log"
log "building bzImage (make -j$jobs bzImage modules; log $blog)"
start=$(date +%s)
(
	while sleep 30; do
		n=$(grep -cE '^  (CC|AS|LD|AR|BTF|GEN)' "$blog" 2>/dev/null || true)
		last=$(grep -E '^  [A-Z]' "$blog" 2>/dev/null | tail -n1 | awk '{print $2}')
		log "  ... $(( $(date +%s) - start ))s, $n steps, at $last"
	done
) &
ticker=$!
trap 'kill $ticker 2>/dev/null || true' EXIT
rc=0
"${kmake[@]}" -j"$jobs" bzImage modules >"$blog" 2>&1 || rc=$?
kill $ticker 2>/dev/null || true
trap - EXIT
secs=$(( $(date +%s) - start ))
if [ "$rc" -ne 0 ]; then
	grep -E 'error|Error' "$blog" | head -20 >&2
	die "make failed after ${secs}s (log $blog)"
fi
log "built in ${secs}s"
rc_time kernel-build "$set_name" "$start" "${#patches[@]} patches"

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp "$obj/arch/x86/boot/bzImage" "$out.tmp/bzImage"
cp "$obj/.config" "$out.tmp/config"
cp "$obj/System.map" "$out.tmp/System.map"
for f in modules.builtin modules.builtin.modinfo; do
	[ ! -f "$obj/$f" ] || cp "$obj/$f" "$out.tmp/$f"
done
cat "$obj/include/config/kernel.release" >"$out.tmp/release"
if grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$obj/.config"; then
	objcopy -O binary --only-section=.BTF "$obj/vmlinux" "$out.tmp/vmlinux.btf"
else
	# built without BTF: make it on the host from the DWARF, with pahole
	log "no BTF in this kernel: pahole -J (DWARF -> BTF)"
	pahole -J --btf_encode_detached="$out.tmp/vmlinux.btf" "$obj/vmlinux" >&2 ||
		die "pahole could not convert the DWARF of vmlinux"
	dwarf=0
	for h in $(readelf -S -W "$obj/vmlinux" |
		   awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\.debug_/) print $(i + 4) }'); do
		dwarf=$((dwarf + 16#$h))
	done
	echo "dwarf_bytes $dwarf btf_bytes $(stat -c %s "$out.tmp/vmlinux.btf")" >"$out.tmp/btf-size"
	log "DWARF $dwarf bytes -> BTF $(stat -c %s "$out.tmp/vmlinux.btf") bytes"
fi
cp "$blog" "$out.tmp/build.log"
{
	echo "linux $RC_KERNEL_VERSION debian $pkgver"
	echo "set $set_name: $frags"
	echo "key $key"
	echo "build_seconds $secs"
	[ ! -f "$out.tmp/btf-size" ] || cat "$out.tmp/btf-size"
	git -C "$src" log --oneline debian-base..HEAD
} >"$out.tmp/info"
rm -rf "$out"
mv "$out.tmp" "$out"
touch "$out/.done"
log "ready: $out (release $(cat "$out/release"), ${#patches[@]} patches)"
echo "$out/bzImage"
