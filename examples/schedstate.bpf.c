// SPDX-License-Identifier: MIT
/*
 * schedstate: on every context switch (raw tracepoint sched_switch), read the
 * outgoing task's scheduling state, including the single-bit flags the
 * scheduler keeps in task_struct bitfields, and
 *   - count switches per (state, flags) in a per-CPU array,
 *   - send an event to user space when a task blocks in uninterruptible
 *     I/O wait (TASK_UNINTERRUPTIBLE with in_iowait set).
 *
 * CO-RE features used:
 *   - bitfield reads with BPF_CORE_READ_BITFIELD_PROBED (byte_off, byte_sz,
 *     lshift_u64, rshift_u64 and signed relocations)
 *   - bpf_core_field_exists guards for fields only some kernels have:
 *       in_user_fault        6.1 only (gone by 6.12)
 *       sched_rt_mutex:1     6.12 on (not in the 6.1 vmlinux.h: flavor)
 *       saved_state          6.12 on, and PREEMPT_RT kernels
 *       softirq_disable_cnt  PREEMPT_RT kernels only (flavor)
 *       numa_preferred_nid   CONFIG_NUMA_BALANCING only (Debian's rt
 *                            kernel has it off)
 *   - task_struct.state vs __state (renamed in 5.14) with a flavor struct
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

#define TASK_UNINTERRUPTIBLE 0x0002

/* Fields of newer or PREEMPT_RT kernels, absent from the 6.1 vmlinux.h. */
struct task_struct___v612 {
	unsigned int saved_state;
	unsigned int sched_rt_mutex:1;
	int softirq_disable_cnt;
} __attribute__((preserve_access_index));

/* task_struct before 5.14 */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

enum {
	F_IOWAIT = 1 << 0,
	F_CONTRIB_LOAD = 1 << 1,
	F_RESET_ON_FORK = 1 << 2,
	F_IN_EXECVE = 1 << 3,
	F_USER_FAULT = 1 << 4,
	F_RT_MUTEX = 1 << 5,
	F_SOFTIRQ_DISABLED = 1 << 6,
	NR_FLAG_COMBOS = 1 << 7,
};

struct block_event {
	u32 pid;
	u32 tgid;
	u32 state;		/* __state (or state) of the outgoing task */
	u32 saved_state;	/* ~0 if the kernel has none */
	u32 flags;		/* F_* */
	s32 prio;
	u32 policy;
	s32 numa_nid;		/* preferred NUMA node, -1 if unknown */
	u64 ts_ns;
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_FLAG_COMBOS);
	__type(key, u32);
	__type(value, u64);
} switch_flags SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

static __always_inline u32 read_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return (u32)BPF_CORE_READ((struct task_struct___pre514 *)t, state);
}

static __always_inline u32 read_flags(struct task_struct *t)
{
	struct task_struct___v612 *n = (void *)t;
	u32 f = 0;

	if (BPF_CORE_READ_BITFIELD_PROBED(t, in_iowait))
		f |= F_IOWAIT;
	if (BPF_CORE_READ_BITFIELD_PROBED(t, sched_contributes_to_load))
		f |= F_CONTRIB_LOAD;
	if (BPF_CORE_READ_BITFIELD_PROBED(t, sched_reset_on_fork))
		f |= F_RESET_ON_FORK;
	if (BPF_CORE_READ_BITFIELD_PROBED(t, in_execve))
		f |= F_IN_EXECVE;
	if (bpf_core_field_exists(t->in_user_fault) &&
	    BPF_CORE_READ_BITFIELD_PROBED(t, in_user_fault))
		f |= F_USER_FAULT;
	if (bpf_core_field_exists(n->sched_rt_mutex) &&
	    BPF_CORE_READ_BITFIELD_PROBED(n, sched_rt_mutex))
		f |= F_RT_MUTEX;
	if (bpf_core_field_exists(n->softirq_disable_cnt) &&
	    BPF_CORE_READ(n, softirq_disable_cnt) > 0)
		f |= F_SOFTIRQ_DISABLED;
	return f;
}

SEC("raw_tracepoint/sched_switch")
int on_switch(struct bpf_raw_tracepoint_args *ctx)
{
	/* TP_PROTO(bool preempt, struct task_struct *prev,
	 *          struct task_struct *next, unsigned int prev_state) */
	struct task_struct *prev = (struct task_struct *)ctx->args[1];
	struct task_struct___v612 *prev_new = (void *)prev;
	struct block_event *e;
	u32 flags, state;
	u64 *cnt;

	flags = read_flags(prev);
	cnt = bpf_map_lookup_elem(&switch_flags, &flags);
	if (cnt)
		(*cnt)++;

	/* a task preempted (args[0]) while it sets up its sleep has not
	 * blocked: the scheduler decided nothing about it (on PREEMPT_RT this
	 * happens between set_current_state() and schedule()), so its
	 * sched_contributes_to_load is stale; only real blocks are events */
	state = read_state(prev);
	if (ctx->args[0] || !(state & TASK_UNINTERRUPTIBLE) || !(flags & F_IOWAIT))
		return 0;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->pid = BPF_CORE_READ(prev, pid);
	e->tgid = BPF_CORE_READ(prev, tgid);
	e->state = state;
	e->saved_state = bpf_core_field_exists(prev_new->saved_state) ?
			 BPF_CORE_READ(prev_new, saved_state) : ~0u;
	e->flags = flags;
	e->prio = BPF_CORE_READ(prev, prio);
	e->policy = BPF_CORE_READ(prev, policy);
	e->numa_nid = bpf_core_field_exists(prev->numa_preferred_nid) ?
		      BPF_CORE_READ(prev, numa_preferred_nid) : -1;
	e->ts_ns = bpf_ktime_get_ns();
	BPF_CORE_READ_STR_INTO(&e->comm, prev, comm);
	bpf_ringbuf_submit(e, 0);
	return 0;
}
