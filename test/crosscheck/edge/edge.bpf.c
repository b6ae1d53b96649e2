// SPDX-License-Identifier: MIT
/*
 * edge: CO-RE corner cases for the crosscheck, on real kernel types whose
 * layout differs between Debian's 6.1 and 6.12 kernels.  Not an example of
 * a useful tool: every program here only stores what it read into a map.
 *
 *   - load-size adjustment of direct (BTF pointer) loads, fentry:
 *       sock.sk_tsflags      u16 -> u32            (size grows, unsigned: ok)
 *       inode.i_state        unsigned long -> u32  (size shrinks, unsigned)
 *       net_device.operstate unsigned char -> unsigned int
 *       sock.sk_gso_type     int -> u16            (signed: libbpf poisons)
 *   - two target candidates with the same name (the kernel has two
 *     `struct syscall_tp_t`; bpftool names the second one syscall_tp_t___2),
 *     where libbpf keeps only the matching candidates in its per-object
 *     cache, so later relocations of the same local type see fewer
 *     candidates; and type relocations that differ between candidates
 *   - enumerators of a 64-bit enum (ENUM64 in 6.1, a 32-bit ENUM in 6.12),
 *     and negative enumerators (values >= 2^31: see enum64.bpf.c)
 *   - array element accessors (task->comm[5]) and a root array index
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 64);
	__type(key, u32);
	__type(value, u64);
} out SEC(".maps");

static __always_inline void put(u32 k, u64 v)
{
	bpf_map_update_elem(&out, &k, &v, BPF_ANY);
}

SEC("fentry/tcp_set_state")
int BPF_PROG(memsz_sock, struct sock *sk, int state)
{
	put(0, sk->sk_tsflags);
	put(1, sk->sk_gso_type);
	return 0;
}

SEC("fentry/iput")
int BPF_PROG(memsz_inode, struct inode *inode)
{
	put(2, inode->i_state);
	put(3, inode->i_generation);
	return 0;
}

SEC("fentry/netif_carrier_on")
int BPF_PROG(memsz_netdev, struct net_device *dev)
{
	put(4, dev->operstate);
	return 0;
}

SEC("kprobe/syscall_trace_enter")
int dup_candidates(struct pt_regs *ctx)
{
	struct syscall_tp_t *a = (void *)PT_REGS_PARM1(ctx);
	struct syscall_tp_t___2 *b = (void *)PT_REGS_PARM2(ctx);
	u64 ret = BPF_CORE_READ(a, ret);

	/* after `ret` (only in the first candidate), libbpf's cached list of
	 * candidates of struct syscall_tp_t holds only that one */
	if (ret)
		put(5, bpf_core_type_size(struct syscall_tp_t));
	put(6, BPF_CORE_READ(a, syscall_nr));
	put(7, BPF_CORE_READ(b, args[2]));
	put(8, bpf_core_field_exists(b->args));
	return 0;
}

SEC("kprobe/syscall_exit_work")
int dup_type_relos(struct pt_regs *ctx)
{
	/* struct syscall_tp_t___2 (local) still has both candidates here */
	put(9, bpf_core_type_size(struct syscall_tp_t___2));
	put(10, bpf_core_type_exists(struct syscall_tp_t___2));
	put(11, bpf_core_type_id_kernel(struct syscall_tp_t___2));
	return 0;
}

SEC("kprobe/dev_change_flags")
int enums(struct pt_regs *ctx)
{
	put(13, bpf_core_enum_value(enum netdev_priv_flags, IFF_LIVE_RENAME_OK));
	put(14, bpf_core_enum_value_exists(enum netdev_priv_flags, IFF_CHANGE_PROTO_DOWN));
	put(16, bpf_core_enum_value(enum perf_event_state, PERF_EVENT_STATE_DEAD));
	put(17, bpf_core_enum_value(enum perf_event_state, PERF_EVENT_STATE_ACTIVE));
	put(18, bpf_core_type_size(enum netdev_priv_flags));
	return 0;
}

SEC("kprobe/__x64_sys_prctl")
int arrays(struct pt_regs *ctx)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct mm_struct *mm = BPF_CORE_READ(task, mm);

	put(19, BPF_CORE_READ(task, comm[5]));
	put(20, bpf_core_field_offset(task->comm[5]));
	put(21, BPF_CORE_READ(&task[1], pid));
	put(22, bpf_core_field_size(mm->saved_auxv));
	put(23, BPF_CORE_READ(mm, saved_auxv[3]));
	return 0;
}
