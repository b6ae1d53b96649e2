// SPDX-License-Identifier: MIT
/*
 * getpid: trace getpid(2) with a kprobe/kretprobe pair and report who called
 * it: pid, tgid, parent's tgid, comm, the task's start time, its scheduler
 * state and what getpid returned.
 *
 * CO-RE features used:
 *   - BPF_CORE_READ chains (task->real_parent->tgid, task->group_leader->...)
 *   - "flavor" structs for renamed fields: task_struct.state became __state
 *     (5.14) and real_start_time became start_boottime (5.5); the program
 *     picks the one the running kernel has with bpf_core_field_exists()
 *   - bpf_core_type_id_kernel(), bpf_core_type_size(), bpf_core_field_size()
 *     so that a loader can print the raw task_struct with the kernel's BTF,
 *     and bpf_core_type_id_local() for the event itself (the object's BTF)
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* task_struct as kernels older than 5.14 (state) and 5.5 (real_start_time)
 * lay it out.  Only the fields named here matter; the rest comes from BTF. */
struct task_struct___old {
	long state;
	u64 real_start_time;
} __attribute__((preserve_access_index));

struct getpid_event {
	u32 pid;		/* thread id */
	u32 tgid;		/* process id */
	u32 ppid;		/* real parent's tgid */
	u32 leader_pid;		/* thread group leader's pid */
	u64 start_time_ns;	/* boot-based start time of the thread */
	u64 latency_ns;		/* time spent inside getpid() */
	s64 ret;		/* what getpid() returned */
	u32 state;		/* task state (TASK_RUNNING = 0, ...) */
	u32 task_btf_id;	/* kernel BTF id of struct task_struct */
	u32 task_size;		/* sizeof(struct task_struct) in the kernel */
	u32 comm_size;		/* sizeof(task->comm) in the kernel */
	u32 event_btf_id;	/* this struct's id in the object's BTF */
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, u64);	/* pid_tgid */
	__type(value, u64);	/* entry timestamp */
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

static __always_inline u64 task_start_time(struct task_struct *task)
{
	if (bpf_core_field_exists(task->start_boottime))
		return BPF_CORE_READ(task, start_boottime);
	return BPF_CORE_READ((struct task_struct___old *)task, real_start_time);
}

static __always_inline u32 task_state(struct task_struct *task)
{
	if (bpf_core_field_exists(task->__state))
		return BPF_CORE_READ(task, __state);
	return (u32)BPF_CORE_READ((struct task_struct___old *)task, state);
}

/*
 * The syscall's entry point is architecture-specific (the pt_regs wrapper
 * the syscall table calls): one object per architecture, compiled with
 * -D__TARGET_ARCH_<arch> (examples/build.sh --arch).
 */
#if defined(__TARGET_ARCH_arm64)
#define SYS_GETPID "__arm64_sys_getpid"
#else
#define SYS_GETPID "__x64_sys_getpid"
#endif

SEC("kprobe/" SYS_GETPID)
int BPF_KPROBE(getpid_entry)
{
	u64 id = bpf_get_current_pid_tgid();
	u64 ts = bpf_ktime_get_ns();

	bpf_map_update_elem(&start, &id, &ts, BPF_ANY);
	return 0;
}

SEC("kretprobe/" SYS_GETPID)
int BPF_KRETPROBE(getpid_exit, long ret)
{
	u64 id = bpf_get_current_pid_tgid();
	struct task_struct *task;
	struct getpid_event *e;
	u64 *tsp;

	tsp = bpf_map_lookup_elem(&start, &id);
	if (!tsp)
		return 0;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		goto out;

	task = (struct task_struct *)bpf_get_current_task();
	e->pid = BPF_CORE_READ(task, pid);
	e->tgid = BPF_CORE_READ(task, tgid);
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->leader_pid = BPF_CORE_READ(task, group_leader, pid);
	e->start_time_ns = task_start_time(task);
	e->latency_ns = bpf_ktime_get_ns() - *tsp;
	e->ret = ret;
	e->state = task_state(task);
	e->task_btf_id = bpf_core_type_id_kernel(struct task_struct);
	e->task_size = bpf_core_type_size(struct task_struct);
	e->comm_size = bpf_core_field_size(task->comm);
	e->event_btf_id = bpf_core_type_id_local(struct getpid_event);
	BPF_CORE_READ_STR_INTO(&e->comm, task, comm);
	bpf_ringbuf_submit(e, 0);
out:
	bpf_map_delete_elem(&start, &id);
	return 0;
}
