#!/usr/bin/env bash
# test/kernel/run.sh - the kernel/ patch series, tested in QEMU (tcg).
#
# Builds (cached: kernel/build.sh) our patched kernel in its KASAN config,
# boots it and Debian's unpatched prebuilt 6.1 cloud kernel (vm/kernels.list
# "cloud-6.1") with the same test binary (test/kernel/kst.c), and prints
# one line per test for scripts/check.sh:
#
#   PASS: kernel/<test>
#   FAIL: kernel/<test>: why
#
# A per-patch test (p<N>_...) passes when it FAILS on Debian's kernel (the
# bug is there) and PASSES on ours; both runs' evidence is printed above the
# verdict.  ctl_* tests must pass on both; accept/* (raw BTF of every kernel
# of the matrix and of our own, the .BTF of every example object), the
# malformed-BTF run and the kernel log check run on ours.  Exit non-zero on
# any failure.
#
#   RC_KERNEL_SET      fragment set of the "after" kernel (default kasan)
#   RC_KERNEL_FUZZ     "N SEED" of the malformed-BTF run (default "2000 1")
#   RC_KERNEL_BISECT=1 also build and boot the series one patch at a time
#                      (--upto 1..N) and run the tests on each
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../scripts/cache.sh
source "$here/../../scripts/cache.sh"
cd "$RC_ROOT" || exit 1

set_name=${RC_KERNEL_SET:-kasan}
fuzz=${RC_KERNEL_FUZZ:-2000 1}
work="$RC_BUILD/kernel-test"
mkdir -p "$work"
log() { echo "== kernel: $*"; }
fail_all() { echo "FAIL: kernel/setup: $*"; exit 1; }
setup_fail=0
t0=$(date +%s)

# --- the test binary --------------------------------------------------------------
kst="$work/kst"
if [ ! -x "$kst" ] || [ "$RC_ROOT/test/kernel/kst.c" -nt "$kst" ]; then
	log "compiling test/kernel/kst.c (gcc -static)"
	gcc -static -O2 -Wall -Wextra -Wno-sign-compare -Wno-missing-field-initializers \
		-o "$kst.tmp" "$RC_ROOT/test/kernel/kst.c" || fail_all "kst.c does not compile"
	mv "$kst.tmp" "$kst"
fi

# --- our kernel (cached by series + config) ----------------------------------------
log "building our kernel (set $set_name; cached by the hash of series and config)"
bz=$(bash kernel/build.sh --config "$set_name" 2> >(sed -u 's/^/   /' >&2)) || fail_all "kernel/build.sh --config $set_name failed"
key=$(bash kernel/build.sh --config "$set_name" --key 2>/dev/null)
kout=$(dirname "$bz")
log "our kernel: $bz ($(cat "$kout/release"), built in $(awk '/^build_seconds/{print $2}' "$kout/info")s)"

# --- what must be accepted -----------------------------------------------------------
accept="$work/accept"
rm -rf "$accept" && mkdir -p "$accept/btf" "$accept/obj"
for k in cloud-6.1 cloud-6.12 rt-6.12; do
	b=$(bash vm/kernel-btf.sh "$k" 2>/dev/null) || fail_all "vm/kernel-btf.sh $k failed"
	cp "$b" "$accept/btf/$k.btf"
done
cp "$kout/vmlinux.btf" "$accept/btf/ours-6.1-$set_name.btf"
# every BPF object the project builds: examples/ and llvm-pass/examples/
exdir="$work/objects"
rm -rf "$exdir"
bash examples/build.sh "$exdir" >"$work/examples-build.log" 2>&1 ||
	fail_all "examples/build.sh failed (log $work/examples-build.log)"
if ! bash llvm-pass/examples/build.sh "$exdir" >>"$work/examples-build.log" 2>&1; then
	echo "FAIL: kernel/accept/llvm-pass-objects: llvm-pass/examples/build.sh failed (log $work/examples-build.log)"
	setup_fail=1
fi
for o in "$exdir"/*.bpf.o; do cp "$o" "$accept/obj/$(basename "$o" .bpf.o).o"; done

# --- images: vm/initramfs.sh's cloud-6.1 image + an overlay --------------------------
# The overlay replaces /tests/guest-tests.sh with test/kernel/guest.sh and
# adds /tests/kst; for our kernel it empties /etc/vm-modules (all built in).
# Our kernel enters a private kernels.list (RC_VM_KERNELS) under a name that
# carries its key, so vm/kernel.sh never reuses a stale build, and the
# image is built for these two kernels only.
list="$work/kernels.list"
ours="ours-6.1-$set_name.$key"
{
	grep -E '^cloud-6\.1[[:space:]]' vm/kernels.list
	echo "$ours build kernel/vm-kernel.sh sysfs"
} >"$list"
for d in "$RC_CACHE/kernels/build-ours-6.1-$set_name".*; do
	[ -d "$d" ] && [ "$d" != "$RC_CACHE/kernels/build-$ours" ] && rm -rf "$d"
done
base_img=$(RC_VM_TOOLS=0 RC_VM_KERNELS="$list" bash vm/initramfs.sh cloud-6.1 2>"$work/initramfs.log") ||
	fail_all "vm/initramfs.sh cloud-6.1 failed (log $work/initramfs.log)"
overlay() { # MODE OUT.img EXTRA...
	local mode=$1 img=$2 t
	t=$(mktemp -d "$work/.ov.XXXXXX")
	mkdir -p "$t/tests/kst" "$t/etc"
	install -m 755 "$kst" "$t/tests/kst/kst"
	install -m 644 "$RC_ROOT/test/kernel/guest.sh" "$t/tests/guest-tests.sh"
	echo "$mode" >"$t/tests/kst/mode"
	echo 900 >"$t/etc/vm-test-timeout"
	if [ "$mode" = after ]; then
		cp -r "$accept/btf" "$accept/obj" "$t/tests/kst/"
		echo "$fuzz" >"$t/tests/kst/fuzz"
		: >"$t/etc/vm-modules"
	fi
	(cd "$t" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) >"$img.ov"
	cat "$base_img" "$img.ov" >"$img"
	rm -rf "$t" "$img.ov"
}
overlay before "$work/before.img"
overlay after "$work/after.img"

# --- boot both --------------------------------------------------------------------------

boot() { # NAME OUTDIR IMG TIMEOUT
	RC_VM_KERNELS="$list" RC_VM_TIMEOUT=$4 RC_VM_MEM=1536 RC_VM_SMP=2 bash vm/boot.sh "$1" "$2" "$3" 2>&1 | sed 's/^/   /'
	[ -f "$2/results/guest.log" ]
}
log "booting Debian's unpatched cloud-6.1 (before)"
boot cloud-6.1 "$work/before" "$work/before.img" 600 || echo "   (no results from the before run)"
log "booting our kernel $ours (after)"
boot "$ours" "$work/after" "$work/after.img" 1200 || echo "   (no results from the after run)"

# --- verdicts ---------------------------------------------------------------------------
bl="$work/before/results/guest.log"
al="$work/after/results/guest.log"
[ -f "$bl" ] || : >"$bl"
[ -f "$al" ] || : >"$al"
res() { awk -v n="$2" '$1 == "RESULT" && $2 == n { $1 = ""; $2 = ""; sub(/^  /, ""); print; exit }' "$1"; }
evid() { grep -F "$2: " "$1" | grep -v '^RESULT ' | sed "s|^$2: ||; s|^|      $3 |"; }
fails=$setup_fail
verdict() { # NAME OK WHY
	if [ "$2" = 1 ]; then echo "PASS: kernel/$1"; else echo "FAIL: kernel/$1: $3"; fails=$((fails + 1)); fi
}
names=$(awk '$1 == "RESULT" {print $2}' "$al" "$bl" | awk '!seen[$0]++')
[ -n "$names" ] || { verdict boot 0 "neither run produced results (console logs: $work/before/console.log $work/after/console.log)"; exit 1; }
for n in $names; do
	b=$(res "$bl" "$n") a=$(res "$al" "$n")
	case "$n" in
	p[0-9]*)
		echo "-- $n  (before: Debian $(grep -m1 '^kst: kernel' "$bl" | awk '{print $3}'), after: ours $(grep -m1 '^kst: kernel' "$al" | awk '{print $3}'))"
		evid "$bl" "$n" "before:"
		echo "      before: ${b:-no result}"
		evid "$al" "$n" "after: "
		echo "      after:  ${a:-no result}"
		if [ "${a%%:*}" != PASS ]; then verdict "$n" 0 "fails on our kernel: ${a:-no result}"
		elif [ "${b%%:*}" = PASS ]; then verdict "$n" 0 "passes on Debian's unpatched kernel too: the test does not show the bug"
		elif [ -z "$b" ]; then verdict "$n" 0 "no result from Debian's unpatched kernel"
		else verdict "$n" 1 ""
		fi ;;
	ctl_*)
		if [ "${a%%:*}" = PASS ] && [ "${b%%:*}" = PASS ]; then verdict "$n" 1 ""
		else verdict "$n" 0 "control must pass on both: before ${b:-no result}; after ${a:-no result}"; fi ;;
	*)
		evid "$al" "$n" "after:" | tail -n 12
		if [ "${a%%:*}" = PASS ]; then verdict "$n" 1 ""; else verdict "$n" 0 "${a:-no result from our kernel}"; fi ;;
	esac
done
grep -q '^RESULT fuzz_btf_load' "$al" || verdict fuzz_btf_load 0 "the malformed-BTF run did not finish (console: $work/after/console.log)"
grep -q '^RESULT kernel_log_clean' "$al" || verdict kernel_log_clean 0 "no kernel log check (console: $work/after/console.log)"

# --- optional: each patch builds and boots on its own -------------------------------
if [ "${RC_KERNEL_BISECT:-0}" = 1 ]; then
	np=$(ls kernel/patches/*.patch | wc -l)
	for i in $(seq 1 "$np"); do
		k=$(bash kernel/build.sh --config b --upto "$i" --key 2>/dev/null)
		nm="ours-6.1-b.upto$i.$k"
		echo "$nm build kernel/vm-kernel.sh sysfs" >>"$list"
		log "patch $i alone on top of the previous ones: build and boot"
		if boot "$nm" "$work/upto$i" "$work/after.img" 900; then
			verdict "series_upto_$i" 1 ""
			grep '^RESULT p' "$work/upto$i/results/guest.log" | sed 's/^/      /'
		else
			verdict "series_upto_$i" 0 "patches 1..$i do not build or boot"
		fi
	done
fi
log "done in $(( $(date +%s) - t0 ))s"
[ "$fails" -eq 0 ]
