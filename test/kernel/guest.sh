#!/bin/sh
# /tests/guest-tests.sh of the kernel selftest image (test/kernel/run.sh):
# runs inside QEMU under vm/init.sh, output goes to /results/guest.log.
#   /tests/kst/kst            the test binary (test/kernel/kst.c)
#   /tests/kst/mode           "before" (Debian's kernel) or "after" (ours)
#   /tests/kst/btf/*.btf      raw BTF that must be accepted (after only)
#   /tests/kst/obj/*.o        objects whose .BTF must be accepted (after only)
#   /tests/kst/fuzz           "N SEED": malformed-BTF run (after only)
K=/tests/kst
mode=$(cat $K/mode)
echo "kst: kernel $(uname -r) ($mode)"
dmesg -n 1 2>/dev/null
$K/kst run
if [ "$mode" = after ]; then
	set --
	for f in $K/btf/*.btf; do [ -f "$f" ] && set -- "$@" "$(basename "$f" .btf)=$f"; done
	[ $# -gt 0 ] && $K/kst load-btf "$@"
	set --
	for f in $K/obj/*.o; do [ -f "$f" ] && set -- "$@" "$(basename "$f" .o)=$f"; done
	[ $# -gt 0 ] && $K/kst load-obj "$@"
	[ -f $K/fuzz ] && $K/kst fuzz $(cat $K/fuzz)
	# a KASAN report, an oops or a warning anywhere in the run fails it
	if dmesg | grep -E 'BUG:|KASAN|WARNING:|Oops|general protection|Call Trace' >/tmp/bad; then
		sed 's/^/kernel_log_clean: | /' /tmp/bad | head -60
		echo "RESULT kernel_log_clean FAIL: the kernel log has a report (above)"
	else
		echo "kernel_log_clean: $(dmesg | grep -o 'KernelAddressSanitizer initialized.*' || echo 'no KASAN in this kernel');" \
			"no KASAN report, BUG, WARNING or oops in dmesg ($(dmesg | wc -l) lines)"
		echo "RESULT kernel_log_clean PASS"
	fi
fi
echo "kst: done"
