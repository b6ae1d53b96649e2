// SPDX-License-Identifier: MIT
/*
 * taskwatch: a BCC-style program - plain kernel-header C, natural
 * dereferences, no BPF_CORE_READ, no preserve_access_index - made portable
 * by the relocore plugin at compile time (build.sh).
 *
 * kprobe on do_exit: for every exiting process report pid, parent's tgid,
 * uid, argv start, start time, the in_execve/in_iowait bitfields, the first
 * thread of its thread list (container_of), and a
 * field picked by kernel version (__bpf_kernel_version: LINUX_KERNEL_VERSION
 * for libbpf, set for the TARGET kernel; the dead branch is pruned).
 *
 * The task's state shows why pruning matters: kernels before 5.14 call the
 * field "state", later ones "__state".  Every kernel lacks one of the two,
 * so one of the two reads is a poisoned relocation on every target; only
 * the version test keeps the verifier from reaching it.  An object whose
 * __bpf_kernel_version is baked for the wrong kernel (relocore reloc
 * --kernel-release) is therefore refused (test/vm: baked/).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
extern unsigned int __bpf_kernel_version;

/* task_struct before 5.14, in libbpf's flavor convention */
struct task_struct___pre514 {
	volatile long state;
} __attribute__((preserve_access_index));

struct event {
	u32 pid, ppid, uid, kver;
	u64 arg_start, start_time;
	u32 in_execve, in_iowait;
	s32 exit_signal;
	s32 state;
	u32 thread0;
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

SEC("kprobe/do_exit")
int BPF_KPROBE(taskwatch_exit, long code)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct event *e;

	if (task->signal->live.counter != 1)	/* whole-process exits only */
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->pid = task->tgid;
	e->ppid = task->real_parent->tgid;
	e->uid = task->real_cred->uid.val;
	e->arg_start = task->mm ? task->mm->arg_start : 0;
	e->start_time = task->start_time;
	e->in_execve = task->in_execve;
	e->in_iowait = task->in_iowait;
	e->kver = __bpf_kernel_version;
	if (__bpf_kernel_version >= KERNEL_VERSION(5, 0, 0))
		e->exit_signal = task->exit_signal;
	else
		e->exit_signal = -1;
	if (__bpf_kernel_version >= KERNEL_VERSION(5, 14, 0))
		e->state = task->__state;
	else
		e->state = BPF_CORE_READ((struct task_struct___pre514 *)task, state);
	/* container_of (libbpf's): the task on the process's thread list -
	 * for a single-threaded process, the task itself; its offset of
	 * thread_node is relocated like any member access */
	e->thread0 = container_of(task->signal->thread_head.next,
				  struct task_struct, thread_node)->pid;
	bpf_probe_read_kernel_str(e->comm, sizeof(e->comm), task->comm);
	bpf_ringbuf_submit(e, 0);
	return 0;
}
