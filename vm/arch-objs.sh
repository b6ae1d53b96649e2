#!/usr/bin/env bash
# vm/arch-objs.sh ARCH - the example objects a guest of Debian architecture
# ARCH runs; prints their directory.
#
# amd64: the objects compiled once on the host ($RC_VM_EXAMPLES, default
#        build/examples) as they are.
# arm64: the SAME files (copied byte for byte) for every object that is not
#        architecture-specific; the others are compiled once more, for arm64
#        (examples/build.sh --arch arm64, llvm-pass/examples/build.sh --arch
#        arm64), into $RC_VM_EXAMPLES_ARM64 (default <examples dir>-arm64).
#        An object is architecture-specific when it
#          - has a CO-RE relocation on struct pt_regs (kprobe arguments and
#            return values: PT_REGS_PARM1 is pt_regs.di on x86_64,
#            user_pt_regs.regs[0] on arm64; arm64's pt_regs has no `di`), or
#          - attaches to a symbol of x86_64's syscall wrappers (__x64_sys_*;
#            arm64's are __arm64_sys_*).
#        (decided from the object itself: `relocore explain --json`.)
#        The directory holds ARCH-SPECIFIC: one line per object compiled for
#        ARCH, with the reason; the copied ones are named in SHARED.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need readelf binutils
need python3 python3
[ $# -eq 1 ] || { echo "usage: $0 ARCH (amd64|arm64)" >&2; exit 2; }
arch=$1
log() { echo "arch-objs[$arch]: $*" >&2; }
host="${RC_VM_EXAMPLES:-$RC_BUILD/examples}"
ls "$host"/*.bpf.o >/dev/null 2>&1 || { log "no objects in $host"; exit 1; }
if [ "$arch" = "$(vm_host_arch)" ]; then echo "$host"; exit 0; fi
case "$arch" in
arm64) barch=arm64 ;;
*) log "unknown ARCH '$arch' (amd64|arm64)"; exit 1 ;;
esac
out="${RC_VM_EXAMPLES_ARM64:-$host-$arch}"
# keyed by the host objects, the sources and the build scripts
srcs=("$RC_ROOT"/examples/*.bpf.c "$RC_ROOT"/llvm-pass/examples/*.c)
key=$(vm_sha "$host"/*.bpf.o "${srcs[@]}" "$RC_ROOT/examples/build.sh" \
	"$RC_ROOT/llvm-pass/examples/build.sh" "$0")
if [ "$(cat "$out/.key" 2>/dev/null)" = "$key" ]; then echo "$out"; exit 0; fi

# any kernel BTF will do: the relocations' accesses are the object's own
btf=$("$VM_DIR/kernel-btf.sh" "$(vm_names | head -n1)")
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
: >"$out.tmp/ARCH-SPECIFIC"
: >"$out.tmp/SHARED"
for o in "$host"/*.bpf.o; do
	e=$(basename "$o" .bpf.o)
	secs=$(readelf -SW "$o" | sed -nE 's/^ *\[ *[0-9]+\] ([^ ]+) .*/\1/p' | tr '\n' ' ')
	why=$("$RC_BUILD/bin/relocore" explain "$o" --btf "$btf" --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
why = sorted({r["access"].split(".")[0] for r in d["relocations"]
              if r["access"].split(".")[0].split("___")[0] in ("pt_regs", "user_pt_regs")})
secs = sorted({r["section"] for r in d["relocations"]} | set(sys.argv[1].split()))
x64 = sorted({s.split("/", 1)[1] for s in secs if "/__x64_sys_" in s})
out = []
if why:
    out.append("reads struct pt_regs")
if x64:
    out.append("attaches to " + ", ".join(x64))
print("; ".join(out))
' "$secs")
	if [ -z "$why" ]; then
		cp "$o" "$out.tmp/"
		echo "$e" >>"$out.tmp/SHARED"
		continue
	fi
	src=
	for s in "$RC_ROOT/examples/$e.bpf.c" "$RC_ROOT/llvm-pass/examples/$e.c"; do
		[ -f "$s" ] && { src=$s; break; }
	done
	[ -n "$src" ] || { log "$e.bpf.o is architecture-specific ($why) and has no source here to build for $arch"; exit 1; }
	log "$e: $why: compiling it for $arch"
	case "$src" in
	*/llvm-pass/*) bash "$RC_ROOT/llvm-pass/examples/build.sh" --arch "$barch" "$out.tmp" "$src" >"$out.tmp/$e.build.log" 2>&1 ;;
	*) bash "$RC_ROOT/examples/build.sh" --arch "$barch" "$out.tmp" "$src" >"$out.tmp/$e.build.log" 2>&1 ;;
	esac || { tail -n 20 "$out.tmp/$e.build.log" >&2; log "building $e for $arch failed"; exit 1; }
	rm -f "$out.tmp/$e.build.log"
	echo "$e	$why" >>"$out.tmp/ARCH-SPECIFIC"
done
echo "$key" >"$out.tmp/.key"
rm -rf "$out"
mv "$out.tmp" "$out"
log "$(wc -l <"$out/SHARED") objects shared with $(vm_host_arch) ($(tr '\n' ' ' <"$out/SHARED")), $(wc -l <"$out/ARCH-SPECIFIC") compiled for $arch ($(cut -f1 "$out/ARCH-SPECIFIC" | tr '\n' ' '))"
echo "$out"
