// SPDX-License-Identifier: MIT
/*
 * bitfields.bpf.c - task_struct's one-bit flags read through CO-RE
 * (BPF_CORE_READ_BITFIELD_PROBED: byte_off, byte_sz, lshift_u64,
 * rshift_u64, signed).  The left shift depends on the kernel's byte order:
 * on Debian's s390x 6.12, in_iowait is lshift 36 and sched_reset_on_fork
 * 32 (libbpf built for s390x decides so; a little-endian formula gives 59
 * and 63).  test/crosscheck/be.sh compiles it big-endian as well and loads
 * it in an s390x guest.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

__u64 flags[3];

SEC("tp_btf/sched_switch")
int on_switch_bitfields(u64 *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	flags[0] += BPF_CORE_READ_BITFIELD_PROBED(t, in_iowait);
	flags[1] += BPF_CORE_READ_BITFIELD_PROBED(t, sched_reset_on_fork);
	flags[2] += BPF_CORE_READ_BITFIELD_PROBED(t, in_execve);
	return 0;
}
