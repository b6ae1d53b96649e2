#!/bin/sh
# /init of the test initramfs (busybox sh).  Mounts the pseudo file systems,
# loads the modules listed in /etc/vm-modules (in order), runs
# /tests/guest-tests.sh, writes /results as a tar to the raw disk /dev/vda
# and powers off.  Progress goes to the console (ttyS0, ttyAMA0 on arm64)
# with a "vm:" prefix.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
# an image for another architecture than the host's carries busybox and
# /bin/sh only: the applet links are made here
[ -e /bin/mount ] || /bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
mkdir -p /tmp /results && mount -t tmpfs tmpfs /tmp
echo "vm: up at $(cut -d' ' -f1 /proc/uptime)s: $(uname -r) $(uname -v)"
while read -r m; do
	[ -n "$m" ] || continue
	insmod "/lib/modules/$m" || echo "vm: insmod $m failed"
done </etc/vm-modules
n=0
while [ ! -b /dev/vda ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
[ -b /dev/vda ] || echo "vm: no /dev/vda: results cannot leave the guest"
echo "vm: running tests at $(cut -d' ' -f1 /proc/uptime)s"
timeout "$(cat /etc/vm-test-timeout 2>/dev/null || echo 120)" sh /tests/guest-tests.sh >/results/guest.log 2>&1
echo "$?" >/results/guest.rc
echo "vm: tests done (rc $(cat /results/guest.rc)) at $(cut -d' ' -f1 /proc/uptime)s"
tail -n 5 /results/guest.log | sed 's/^/vm: | /'
cp /proc/uptime /results/uptime
tar -cf /tmp/results.tar results && dd if=/tmp/results.tar of=/dev/vda bs=64k conv=fsync 2>/dev/null
sync
echo "vm: results written ($(wc -c </tmp/results.tar) bytes); powering off"
# an x86 kernel without ACPI (ours: kernel/configs/base.config) cannot power
# off (the kernel halts instead): reset, which qemu -no-reboot turns into an
# exit
if [ "$(uname -m)" = x86_64 ] && [ ! -d /sys/firmware/acpi ]; then
	reboot -f
fi
poweroff -f
