// SPDX-License-Identifier: MIT
/*
 * kconfig.bpf.c - .kconfig externs of three sizes.  relocore reloc
 * --kconfig bakes them into a .rodata.kconfig section in the object's own
 * byte order (test/crosscheck/be.sh: big-endian, and the same bytes as
 * relocore-static writes running on a big-endian host).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern int CONFIG_HZ __kconfig;
extern _Bool CONFIG_BPF_SYSCALL __kconfig;

__u64 seen;

SEC("tp_btf/sched_switch")
int on_switch_kconfig(u64 *ctx)
{
	seen = LINUX_KERNEL_VERSION + CONFIG_HZ + CONFIG_BPF_SYSCALL;
	return 0;
}
