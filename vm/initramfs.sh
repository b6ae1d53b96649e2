#!/usr/bin/env bash
# vm/initramfs.sh NAME - build (once per content) the initramfs that boots
# kernel NAME of vm/kernels.list for the VM tests; prints its path.
#
# It is two gzip'd cpio archives back to back (the kernel unpacks both):
#   base   (shared by every kernel, keyed by the sha256 of its inputs)
#          busybox-static + its applet symlinks, /init (vm/init.sh),
#          /bin/relocore (build/bin/relocore-static), /bin/trigger
#          (test/vm/trigger.c, gcc -static), /bin/vlog (test/vm/vlog.c: a
#          whole verifier log when a load is refused), /bin/stockload
#          (test/vm/stockload.c: loads an object with stock libbpf only, which
#          does the CO-RE itself), /bin/bpfls (test/vm/bpfls.c: the progs,
#          links, maps and pins the kernel holds), /bin/loadbench (test/vm/loadbench.c,
#          run when RC_VM_BENCH=N is set: /etc/vm-bench), /tests/guest-tests.sh,
#          /tests/obj/*.bpf.o (the example objects, compiled once on the host:
#          $RC_VM_EXAMPLES, default build/examples), and for the negative
#          control /tests/neg/<example>.for-<kernel>.o: the objects already
#          relocated on the host (`relocore reloc --btf`) for each kernel of
#          the list
#   idioms (on the kernels of RC_VM_IDIOMS: vm/lib.sh) /tests/idioms/*.o,
#          the reader's idiom corpus as clang-19 builds it (test/reader)
#   progtypes (on the kernels of RC_VM_PROGTYPES) /tests/progtypes/*.bpf.o:
#          XDP, cgroup_skb, iterator and syscall programs (test/vm/progtypes)
#   kernel (keyed by the kernel directory and the module list)
#          /tests/baked/taskwatch.baked*.o (relocated and .kconfig-baked on
#          the host for this kernel: `relocore reloc --kernel-release`),
#          only the modules needed to hand results out: virtio_blk and
#          virtio_pci with their dependencies, resolved on the host with
#          `modprobe -d ROOT -S RELEASE --show-depends` (reads files only;
#          decompressed here, busybox insmod takes plain .ko), their load
#          order in /etc/vm-modules, the kernel's name in /etc/vm-kernel, its
#          .config as /boot/config, and
#          for BTF=archive|rcba kernels its BTF as /boot/vmlinux.btf; for
#          BTF=rcba also /usr/lib/relocore/btf.rcba, a relocore archive of
#          all the list's kernels minimized for the examples
#
# Per architecture (ARCH of kernels.list): an amd64 kernel gets the host's
# busybox-static, build/bin/relocore-static and programs compiled with gcc
# -static; an arm64 kernel gets busybox-static:arm64 (vm/sysroot.sh),
# build/arm64/bin/relocore-static (vm/cross.sh) and the programs
# cross-compiled with aarch64-linux-gnu-gcc -static against that sysroot
# (busybox's applet links are made by /init in the guest: the host cannot
# run an arm64 busybox to list them).  The objects are vm/arch-objs.sh
# ARCH's: on arm64 the host's own files except the architecture-specific
# ones.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 NAME" >&2; exit 2; }
name=$1
t_image=$(date +%s)
read -r _kind _spec btfmode < <(vm_entry "$name")
arch=$(vm_arch "$name")
log() { echo "initramfs[$name]: $*" >&2; }

cache="$RC_CACHE/initramfs"
mkdir -p "$cache"
need cpio cpio
need file file
need modprobe kmod
ls "${RC_VM_EXAMPLES:-$RC_BUILD/examples}"/*.bpf.o >/dev/null 2>&1 ||
	{ log "no objects in ${RC_VM_EXAMPLES:-$RC_BUILD/examples} (examples/build.sh DIR)"; exit 1; }
examples=$("$VM_DIR/arch-objs.sh" "$arch")
# Debian's libbpf-tools (vm/tools.sh): a third layer, unless RC_VM_TOOLS=0
tools=${RC_VM_TOOLS:-1}
tlayer=
tbins=()
olayer=
if [ "$tools" != 0 ]; then
	tlayer=$(vm_memo tools "$arch" "$VM_DIR/tools.sh" "$arch")
	tbins=("${tlayer%.cpio.gz}.bin"/*)
	# RC_VM_TOOLS=truth|NAME,...: the guest runs only these (a fourth,
	# tiny layer: /etc/vm-tools-only)
	only=$(vm_tools_only) || exit 1
fi
if [ "$arch" = "$(vm_host_arch)" ]; then
	need busybox busybox-static
	need gcc gcc
	need /usr/lib/x86_64-linux-gnu/libc.a libc6-dev
	busybox=$(command -v busybox)
	relocore="$RC_BUILD/bin/relocore-static"
	librelocore="$RC_BUILD/lib/librelocore.a"
	CC=(gcc)
	machine="x86-64"
else
	need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
	need /usr/aarch64-linux-gnu/lib/libc.a libc6-dev-arm64-cross
	sysroot=$("$VM_DIR/sysroot.sh" "$arch")
	xdir=$("$VM_DIR/cross.sh" "$arch")
	busybox="$sysroot/bin/busybox"
	relocore="$xdir/bin/relocore-static"
	librelocore="$xdir/lib/librelocore.a"
	CC=(aarch64-linux-gnu-gcc -isystem "$sysroot/usr/include" -L"$sysroot/usr/lib/aarch64-linux-gnu")
	machine="ARM aarch64"
fi
[ -x "$relocore" ] || { log "no $relocore (build first: make -C build)"; exit 1; }
for b in "$busybox" "$relocore"; do
	file -L "$b" | grep -q "$machine.*statically linked" || { log "$b is not a static $machine program: $(file -L "$b")"; exit 1; }
done

# cpio_gz DIR OUT: a newc archive of DIR's content, gzip'd, written atomically
cpio_gz() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -6) >"$2.tmp.$$"
	mv "$2.tmp.$$" "$2"
}

# --- the trigger program, keyed by its source --------------------------------
src="$RC_ROOT/test/vm/trigger.c"
trig="$cache/trigger-$arch-$(vm_sha "$src")"
if [ ! -x "$trig" ]; then
	log "compiling test/vm/trigger.c (${CC[0]} -static)"
	"${CC[@]}" -static -O2 -Wall -Wextra -pthread -o "$trig.tmp.$$" "$src"
	mv "$trig.tmp.$$" "$trig"
fi

# --- guest tools on stock libbpf (libbpf.a, static), keyed by their source ---
# libbpf_tool NAME: test/vm/NAME.c compiled; prints the binary's path
libbpf_tool() {
	local src="$RC_ROOT/test/vm/$1.c" bin
	bin="$cache/$1-$arch-$(vm_sha "$src")"
	if [ ! -x "$bin" ]; then
		log "compiling test/vm/$1.c (${CC[0]} -static, libbpf.a)"
		"${CC[@]}" -static -O2 -Wall -Wextra -o "$bin.tmp.$$" "$src" -lbpf -lelf -lz 2>&1 |
			{ grep -v 'statically linked\|getpw' >&2 || true; }
		mv "$bin.tmp.$$" "$bin"
	fi
	echo "$bin"
}
vlog=$(libbpf_tool vlog)		# a relocated object's whole verifier log
stockload=$(libbpf_tool stockload)	# stock libbpf loads a CO-RE object by itself
bpfls=$(libbpf_tool bpfls)		# the progs, links, maps and pins the kernel holds

# --- loadbench: relocore's load vs libbpf's CO-RE load (bench/vm.sh) ---------
bsrc="$RC_ROOT/test/vm/loadbench.c"
loadbench="$cache/loadbench-$arch-$(vm_sha "$bsrc" "$librelocore")"
if [ ! -x "$loadbench" ]; then
	log "compiling test/vm/loadbench.c (${CC[0]} -static, librelocore.a, libbpf.a)"
	"${CC[@]}" -static -O2 -Wall -I"$RC_ROOT/loader" -o "$loadbench.tmp.$$" "$bsrc" \
		"$librelocore" -lbpf -lelf -lz 2>&1 |
		{ grep -v 'statically linked\|getpw' >&2 || true; }
	mv "$loadbench.tmp.$$" "$loadbench"
fi
echo "${RC_VM_BENCH:-0}" >"$cache/vm-bench.$$"
benchconf="$cache/vm-bench-${RC_VM_BENCH:-0}"
mv "$cache/vm-bench.$$" "$benchconf"

# --- negative-control objects: relocated on the host for each kernel ---------
neg_examples=(getpid tcpclose)
negbtfs=()
for k in $(vm_names); do negbtfs+=("$(vm_btf "$k")"); done
negdir="$cache/neg-$(vm_sha "$relocore" "$examples"/*.bpf.o "${negbtfs[@]}")"
mkdir -p "$negdir"
negfiles=()
for k in $(vm_names); do
	# only kernels that export their BTF: the type ids a BTF-less kernel's
	# objects carry come from pahole's BTF and match no running kernel
	read -r _ _ kmode < <(vm_entry "$k")
	[ "$kmode" = sysfs ] || continue
	btf=$(vm_btf "$k")
	for e in "${neg_examples[@]}"; do
		o="$negdir/$e.for-$k.o"
		negfiles+=("$o")
		[ -s "$o" ] && continue
		log "relocating $e.bpf.o for $k on the host (relocore reloc --btf, negative control)"
		"$RC_BUILD/bin/relocore" reloc "$examples/$e.bpf.o" --btf "$btf" -o "$o.tmp" >/dev/null
		mv "$o.tmp" "$o"
	done
done

# --- base layer ---------------------------------------------------------------
inputs=("$busybox" "$relocore" "$trig" "$vlog" "$stockload" "$bpfls" "$loadbench" "$benchconf" "$VM_DIR/init.sh" "$RC_ROOT/test/vm/guest-tests.sh"
	"$examples"/*.bpf.o "${negfiles[@]}")
key=$( (for f in "${inputs[@]}"; do echo "${f##*/}"; done; cat "${inputs[@]}") | sha256sum | cut -c1-16)
base="$cache/base-$key.cpio.gz"
if [ ! -s "$base" ]; then
	log "building base layer $base"
	t=$(mktemp -d "$cache/.base.XXXXXX")
	mkdir -p "$t"/{bin,dev,proc,sys,tmp,results,etc,boot,tests/obj,tests/neg,lib/modules,sys,mnt}
	ln -s bin "$t/sbin"
	mkdir -p "$t/usr" && ln -s ../bin "$t/usr/bin" && ln -s ../bin "$t/usr/sbin"
	cp "$busybox" "$t/bin/busybox"
	if [ "$arch" = "$(vm_host_arch)" ]; then
		for a in $("$busybox" --list); do
			[ -e "$t/bin/$a" ] || ln -s busybox "$t/bin/$a"
		done
	else	# /init makes the applet links (busybox --install -s)
		ln -s busybox "$t/bin/sh"
	fi
	install -m 755 "$VM_DIR/init.sh" "$t/init"
	install -m 755 "$relocore" "$t/bin/relocore"
	install -m 755 "$trig" "$t/bin/trigger"
	install -m 755 "$vlog" "$t/bin/vlog"
	install -m 755 "$stockload" "$t/bin/stockload"
	install -m 755 "$bpfls" "$t/bin/bpfls"
	install -m 755 "$loadbench" "$t/bin/loadbench"
	cp "$benchconf" "$t/etc/vm-bench"
	install -m 644 "$RC_ROOT/test/vm/guest-tests.sh" "$t/tests/guest-tests.sh"
	cp "$examples"/*.bpf.o "$t/tests/obj/"
	cp "${negfiles[@]}" "$t/tests/neg/"
	cpio_gz "$t" "$base"
	rm -rf "$t"
fi

# --- kernel layer ----------------------------------------------------------------
kdir=$(vm_kernel "$name")
rel=$(cat "$kdir/release")
mods=$(modprobe -d "$kdir" -S "$rel" --show-depends -a virtio_pci virtio_blk 2>/dev/null |
	awk '$1 == "insmod" && !seen[$2]++ {print $2}')
# the tools' file system (fsdist/fsslower -t ext4): where ext4 is a module
if [ "$tools" != 0 ]; then
	# (a kernel without modules, or with ext4 built in: nothing to add)
	mods=$( (echo "$mods"; { modprobe -d "$kdir" -S "$rel" --show-depends ext4 2>/dev/null || true; } |
		awk '$1 == "insmod" {print $2}') | awk 'NF && !seen[$0]++')
fi
kbtf=
ar=
case "$btfmode" in
archive|rcba) kbtf=$(vm_btf "$name") ;;
esac
if [ "$btfmode" = rcba ]; then
	# a relocore archive of every kernel of the list, minimized for the
	# example objects, where relocore looks by default on a kernel without
	# /sys/kernel/btf/vmlinux
	# (releases are the archive's keys: of kernels sharing this one's
	# release, only this one goes in)
	args=("$rel=$kbtf")
	for k in $(vm_names); do
		r=$(cat "$(vm_kernel "$k")/release")
		case " ${args[*]%%=*} " in *" $r "*) continue ;; esac
		args+=("$r=$(vm_btf "$k")")
	done
	ar="$cache/btf-$(vm_sha "$RC_BUILD/bin/relocore" "$examples"/*.bpf.o ${tbins[@]+"${tbins[@]}"} "${args[@]#*=}").rcba"
	if [ ! -s "$ar" ]; then
		log "relocore archive create (${#args[@]} kernels, minimized for the examples${tlayer:+ and ${#tbins[@]} libbpf-tools})"
		"$RC_BUILD/bin/relocore" archive create -o "$ar" \
			$(printf -- '--min %s ' "$examples"/*.bpf.o ${tbins[@]+"${tbins[@]}"}) "${args[@]}" >&2
	fi
fi
# --- baked objects: relocated AND .kconfig-baked on the host for this kernel --
# (relocore reloc --kernel-release REL --kconfig CONFIG): stock libbpf loads
# them with no BTF and no CO-RE.  taskwatch.baked.o gets this kernel's
# release, taskwatch.baked-wrong-V.o a release on the other side of 5.14
# (5.10.0 for a newer kernel, 6.1.0 for an older one), so the verifier must
# take the branch whose relocation is poisoned on this kernel and refuse it.
bbtf=$(vm_btf "$name")
bakedir="$cache/baked-$(vm_sha "$relocore" "$examples/taskwatch.bpf.o" "$bbtf" "$kdir/config" "$kdir/release")"
baked=()
if [ -s "$examples/taskwatch.bpf.o" ]; then
	mkdir -p "$bakedir"
	wrong=5.10.0
	[ "$(printf '%s\n' "$rel" 5.14 | sort -V | head -n1)" = 5.14 ] || wrong=6.1.0
	for v in "$rel" "$wrong"; do
		o="$bakedir/taskwatch.baked.o"
		[ "$v" = "$rel" ] || o="$bakedir/taskwatch.baked-wrong-$v.o"
		baked+=("$o")
		[ -s "$o" ] && continue
		log "baking taskwatch.bpf.o on the host: relocore reloc --btf <$name> --kernel-release $v --kconfig <$name config>"
		"$RC_BUILD/bin/relocore" reloc "$examples/taskwatch.bpf.o" --btf "$bbtf" \
			--kernel-release "$v" --kconfig "$kdir/config" -o "$o.tmp" >&2 || exit 1
		mv "$o.tmp" "$o"
	done
fi
kkey=$( (echo "$name $btfmode $kdir /boot/config"; echo "$mods"; [ -z "$kbtf" ] || cat "$kbtf";
	 [ -z "$ar" ] || cat "$ar"; [ ${#baked[@]} = 0 ] || { printf '%s\n' "${baked[@]##*/}"; cat "${baked[@]}"; }) | sha256sum | cut -c1-16)
klayer="$cache/kernel-$name-$kkey.cpio.gz"
if [ ! -s "$klayer" ]; then
	log "building kernel layer (release $rel, modules: $(echo $mods | xargs -rn1 basename | tr '\n' ' '))"
	t=$(mktemp -d "$cache/.kernel.XXXXXX")
	mkdir -p "$t/lib/modules" "$t/etc" "$t/boot" "$t/tests/baked"
	[ ${#baked[@]} = 0 ] || cp "${baked[@]}" "$t/tests/baked/"
	: >"$t/etc/vm-modules"
	for m in $mods; do
		b=$(basename "$m")
		case "$b" in
		*.ko.xz)  xz -dc "$m" >"$t/lib/modules/${b%.xz}"; b=${b%.xz} ;;
		*.ko.zst) zstd -dcq "$m" >"$t/lib/modules/${b%.zst}"; b=${b%.zst} ;;
		*.ko.gz)  gzip -dc "$m" >"$t/lib/modules/${b%.gz}"; b=${b%.gz} ;;
		*)        cp "$m" "$t/lib/modules/$b" ;;
		esac
		echo "$b" >>"$t/etc/vm-modules"
	done
	printf '%s\n%s\n%s\n' "$name" "$btfmode" "$rel" >"$t/etc/vm-kernel"
	# the kernel's own .config (what it was built with: the guest's
	# truth for features its programs need, e.g. fentry attachment)
	cp "$kdir/config" "$t/boot/config"
	[ -z "$kbtf" ] || cp "$kbtf" "$t/boot/vmlinux.btf"
	if [ -n "$ar" ]; then
		mkdir -p "$t/usr/lib/relocore"
		cp "$ar" "$t/usr/lib/relocore/btf.rcba"
	fi
	cpio_gz "$t" "$klayer"
	rm -rf "$t"
fi

if [ -n "${only:-}" ]; then
	olayer="$cache/tools-only-$(sha256sum <<<"$only" | cut -c1-16).cpio.gz"
	if [ ! -s "$olayer" ]; then
		t=$(mktemp -d "$cache/.only.XXXXXX")
		mkdir -p "$t/etc"
		printf '%s\n' "$only" >"$t/etc/vm-tools-only"
		cpio_gz "$t" "$olayer"
		rm -rf "$t"
	fi
fi
# --- the reader's idiom corpus (test/reader/run.sh builds it; the clang-19
# objects): on the kernels of RC_VM_IDIOMS (vm/lib.sh), loaded both ways
ilayer=
if vm_idioms_on "$name"; then
	iobjs=("$RC_BUILD"/reader/objs/*.clang-19.o)
	if [ -s "${iobjs[0]}" ]; then
		ilayer="$cache/idioms-$(vm_sha "${iobjs[@]}").cpio.gz"
		if [ ! -s "$ilayer" ]; then
			log "building the idiom layer (${#iobjs[@]} objects of build/reader/objs)"
			t=$(mktemp -d "$cache/.idioms.XXXXXX")
			mkdir -p "$t/tests/idioms"
			cp "${iobjs[@]}" "$t/tests/idioms/"
			cpio_gz "$t" "$ilayer"
			rm -rf "$t"
		fi
	else
		log "no idiom corpus in build/reader/objs (READER_BUILD_ONLY=1 bash test/reader/run.sh): none in this guest"
	fi
fi
# --- program types beyond tracing (test/vm/progtypes), compiled once on the
# host like the examples, on the kernels of RC_VM_PROGTYPES (vm/lib.sh)
player=
if vm_progtypes_on "$name"; then
	psrcs=("$RC_ROOT"/test/vm/progtypes/*.bpf.c)
	pdir="$cache/progtypes-$(vm_sha "${psrcs[@]}" "$RC_ROOT/examples/build.sh")"
	if [ ! -s "$pdir/.done" ]; then	# (two guests may build at once)
		log "compiling ${#psrcs[@]} program-type objects (test/vm/progtypes)"
		bash "$RC_ROOT/examples/build.sh" "$pdir.tmp.$$" "${psrcs[@]}" >/dev/null
		echo ok >"$pdir.tmp.$$/.done"
		mv -T "$pdir.tmp.$$" "$pdir" 2>/dev/null || rm -rf "$pdir.tmp.$$"
	fi
	player="$pdir.cpio.gz"
	if [ ! -s "$player" ]; then
		t=$(mktemp -d "$cache/.progtypes.XXXXXX")
		mkdir -p "$t/tests/progtypes"
		cp "$pdir"/*.bpf.o "$t/tests/progtypes/"
		cpio_gz "$t" "$player"
		rm -rf "$t"
	fi
fi
tkey=notools
[ -z "$tlayer" ] || tkey=$(basename "$tlayer" .cpio.gz)
[ -z "$player" ] || tkey="$tkey-$(basename "$player" .cpio.gz)"
[ -z "$ilayer" ] || tkey="$tkey-$(basename "$ilayer" .cpio.gz)"
[ -z "$olayer" ] || tkey="$tkey-$(basename "$olayer" .cpio.gz)"
img="$cache/$name-$key-$kkey-$tkey.img"
if [ ! -s "$img" ]; then
	cat "$base" "$klayer" ${tlayer:+"$tlayer"} ${olayer:+"$olayer"} ${ilayer:+"$ilayer"} \
		${player:+"$player"} >"$img.tmp.$$"
	mv "$img.tmp.$$" "$img"
	# keep the cache small: of this kernel's images, the two newest (make
	# demo's, with a part of the tools, and make check's, with all of them)
	# (grep finds none on a kernel's first image: not an error)
	ls -t "$cache/$name"-*.img 2>/dev/null | { grep -v "^$img\$" || true; } | tail -n +2 | xargs -r rm -f
fi
rc_time initramfs "$name" "$t_image"
echo "$img"
