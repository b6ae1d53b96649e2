#!/usr/bin/env bash
# vm/boot.sh NAME OUTDIR [INITRD] - boot kernel NAME of vm/kernels.list under
# QEMU (TCG, no KVM) with the test initramfs; the guest's /init runs the
# tests and writes a tar of /results to a raw virtio disk, which is unpacked
# into OUTDIR/results/.  The serial console goes to OUTDIR/console.log.
# Exit 0 when the guest handed back results; on a failed boot or timeout the
# tail of the console log is shown.
#   RC_VM_TIMEOUT   seconds before QEMU is killed (default 150, 600 with the
#                   libbpf-tools layer; guests take 10-35 s, 110-150 s)
#   RC_VM_MEM       guest memory in MiB (default 1024)
#   RC_VM_ARM64_CPU the -cpu of arm64 guests (default max,pauth-impdef=on)
#   RC_VM_SMP       guest CPUs (default 1: with vm/matrix.sh running two
#                   guests on two host cores, TCG is not oversubscribed;
#                   a 2-CPU guest under load once stalled in a soft lockup)
#   RC_VM_KDIR      the kernel's directory (as vm/kernel.sh prints it) when
#                   NAME is not in the list (relocore matrix --kernel), with
#   RC_VM_ARCH      its architecture (amd64, arm64, s390x)
#   RC_VM_ACCEL     kvm or tcg (default: kvm where /dev/kvm can be opened
#                   and the guest is of the host's architecture, else tcg)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 2 ] || { echo "usage: $0 NAME OUTDIR [INITRD]" >&2; exit 2; }
name=$1 out=$2
initrd=${3:-}
log() { echo "vm[$name]: $*"; }

# the QEMU of the kernel's architecture (ARCH of kernels.list)
arch=${RC_VM_ARCH:-$(vm_arch "$name")}
case "$arch" in
amd64)
	need qemu-system-x86_64 qemu-system-x86
	qemu=(qemu-system-x86_64 -cpu max)
	console=ttyS0 ;;
arm64)
	# the "virt" board (PCIe, PL011 UART); TCG's "max" CPU, every feature
	# kept, pointer authentication with QEMU's implementation-defined
	# algorithm instead of emulating QARMA (pauth-impdef=on: a guest run
	# takes 16-18 s instead of 30-37 s here)
	need qemu-system-aarch64 qemu-system-arm
	qemu=(qemu-system-aarch64 -M virt -cpu "${RC_VM_ARM64_CPU:-max,pauth-impdef=on}")
	console=ttyAMA0 ;;
s390x)
	# big-endian: the virtio machine, its devices on the channel subsystem
	# (virtio-blk-ccw), the console on SCLP
	need qemu-system-s390x qemu-system-misc
	qemu=(qemu-system-s390x -M s390-ccw-virtio -cpu max)
	console=ttysclp0 blk=virtio-blk-ccw ;;
*) log "no QEMU for architecture '$arch' (amd64, arm64, s390x)"; exit 2 ;;
esac
kdir=${RC_VM_KDIR:-$(vm_kernel "$name")}
accel=${RC_VM_ACCEL:-tcg}
if [ -z "${RC_VM_ACCEL:-}" ] && [ "$arch" = "$(vm_host_arch)" ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	accel=kvm
fi
[ "$accel" = tcg ] || [ "$accel" = kvm ] || { log "RC_VM_ACCEL=$accel: kvm or tcg"; exit 2; }
# (under KVM the guest runs the host's CPU model; TCG's "max" otherwise)
[ "$accel" = tcg ] || [ "$arch" != amd64 ] || qemu=(qemu-system-x86_64 -cpu host)
[ -n "$initrd" ] || initrd=$("$VM_DIR/initramfs.sh" "$name")
# with Debian's libbpf-tools in the image (RC_VM_TOOLS, vm/tools.sh) a guest runs
# 2 x 52 tools more: 2-3 minutes under TCG
tmo=${RC_VM_TIMEOUT:-$([ "${RC_VM_TOOLS:-1}" != 0 ] && echo 600 || echo 150)}
rm -rf "$out"
mkdir -p "$out"
disk="$out/results.disk"
truncate -s 64M "$disk"
conlog="$out/console.log"

log "booting $(cat "$kdir/release") ($arch, ${qemu[0]} $accel; initrd $(du -h "$initrd" | cut -f1), timeout ${tmo}s)"
start=$(date +%s.%N)
t_boot=${start%.*}
set +e
timeout --kill-after=5 "$tmo" "${qemu[@]}" -accel "$accel" -m "${RC_VM_MEM:-1024}" -smp "${RC_VM_SMP:-1}" \
	-nographic -no-reboot -nodefaults -serial stdio -monitor none \
	-kernel "$kdir/vmlinuz" -initrd "$initrd" \
	-append "console=$console panic=-1 oops=panic quiet loglevel=4 rdinit=/init" \
	-drive file="$disk",format=raw,if=none,id=res,cache=unsafe \
	-device "${blk:-virtio-blk-pci}",drive=res \
	</dev/null >"$conlog" 2>&1 &
qpid=$!
# progress: echo the guest's own "vm:" lines as they arrive
tail -n +1 -F "$conlog" 2>/dev/null --pid=$qpid | grep --line-buffered '^vm: ' | sed -u "s/^vm: /vm[$name]:   guest: /" &
wait $qpid
rc=$?
set -e
sleep 0.2
secs=$(echo "$(date +%s.%N) - $start" | bc)
printf '%s\n' "$secs" >"$out/boot-seconds"
mkdir -p "$out/results"
if tar -xf "$disk" -C "$out" 2>/dev/null && [ -f "$out/results/guest.rc" ]; then
	rm -f "$disk"
	log "guest finished in ${secs%.*}s (qemu rc $rc, guest tests rc $(cat "$out/results/guest.rc"))"
	rc_time guest "$name" "$t_boot" "$arch"
	exit 0
fi
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	log "TIMEOUT after ${tmo}s; console tail:"
else
	log "no results from the guest (qemu rc $rc after ${secs%.*}s); console tail:"
fi
tail -n 40 "$conlog" | sed 's/^/    | /'
rc_time guest "$name" "$t_boot" "no results"
exit 1
