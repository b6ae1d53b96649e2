// SPDX-License-Identifier: MIT
/*
 * execsnoop: report every exec (tracepoint sched/sched_process_exec) with the
 * new image's file name and first argument, and every process exit (kprobe on
 * do_exit) with its exit code, lifetime and resident memory.
 *
 * CO-RE features used:
 *   - BPF_CORE_READ chains through pointers (task->real_parent->tgid,
 *     task->real_cred->uid.val, task->mm->arg_start) and through the
 *     anonymous struct that wraps mm_struct's members
 *   - the tracepoint's own context struct (trace_event_raw_*), relocated too
 *   - mm_struct.rss_stat changed type in 6.2: `struct mm_rss_stat` (an array
 *     of atomic_long_t) became `struct percpu_counter rss_stat[]`.  The
 *     program carries a flavor of mm_struct with the new layout and picks a
 *     layout with bpf_core_type_exists(struct mm_rss_stat).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

#define FILENAME_LEN 127
#define ARG_LEN 64

enum event_type { EV_EXEC = 1, EV_EXIT = 2 };

struct exec_event {
	u32 type;		/* EV_EXEC */
	u32 pid;
	u32 ppid;
	u32 uid;
	u32 old_pid;		/* pid before exec (differs for non-leader threads) */
	char comm[16];
	char filename[FILENAME_LEN + 1];
	char arg0[ARG_LEN];
};

struct exit_event {
	u32 type;		/* EV_EXIT */
	u32 pid;
	u32 tid;
	u32 ppid;
	s64 code;		/* do_exit()'s argument */
	u64 lifetime_ns;
	u64 rss_file_pages;
	u64 rss_anon_pages;
	u64 rss_shmem_pages;
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 512 * 1024);
} events SEC(".maps");

/* mm_struct from 6.2 on: per-cpu RSS counters. */
struct mm_struct___new {
	struct percpu_counter rss_stat[NR_MM_COUNTERS];
} __attribute__((preserve_access_index));

static __always_inline u64 mm_rss(struct mm_struct *mm, int which)
{
	long v;

	if (bpf_core_type_exists(struct mm_rss_stat)) {
		switch (which) {
		case MM_FILEPAGES:
			v = BPF_CORE_READ(mm, rss_stat.count[MM_FILEPAGES].counter);
			break;
		case MM_ANONPAGES:
			v = BPF_CORE_READ(mm, rss_stat.count[MM_ANONPAGES].counter);
			break;
		default:
			v = BPF_CORE_READ(mm, rss_stat.count[MM_SHMEMPAGES].counter);
			break;
		}
	} else {
		struct mm_struct___new *m = (void *)mm;

		switch (which) {
		case MM_FILEPAGES:
			v = BPF_CORE_READ(m, rss_stat[MM_FILEPAGES].count);
			break;
		case MM_ANONPAGES:
			v = BPF_CORE_READ(m, rss_stat[MM_ANONPAGES].count);
			break;
		default:
			v = BPF_CORE_READ(m, rss_stat[MM_SHMEMPAGES].count);
			break;
		}
	}
	return v < 0 ? 0 : v;
}

SEC("tracepoint/sched/sched_process_exec")
int handle_exec(struct trace_event_raw_sched_process_exec *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	unsigned int fname_off;
	struct exec_event *e;
	unsigned long arg_start;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;

	e->type = EV_EXEC;
	e->pid = BPF_CORE_READ(task, tgid);
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->uid = BPF_CORE_READ(task, real_cred, uid.val);
	e->old_pid = BPF_CORE_READ(ctx, old_pid);
	bpf_get_current_comm(&e->comm, sizeof(e->comm));

	/* __data_loc: low 16 bits are the offset of the string in the record */
	fname_off = BPF_CORE_READ(ctx, __data_loc_filename) & 0xFFFF;
	bpf_probe_read_kernel_str(&e->filename, sizeof(e->filename), (void *)ctx + fname_off);

	arg_start = BPF_CORE_READ(task, mm, arg_start);
	if (bpf_probe_read_user_str(&e->arg0, sizeof(e->arg0), (void *)arg_start) < 0)
		e->arg0[0] = '\0';

	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("kprobe/do_exit")
int BPF_KPROBE(handle_exit, long code)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	u64 id = bpf_get_current_pid_tgid();
	struct exit_event *e;
	struct mm_struct *mm;

	/* only report whole-process exits: the last thread of the group */
	if (BPF_CORE_READ(task, signal, live.counter) != 1)
		return 0;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;

	e->type = EV_EXIT;
	e->pid = id >> 32;
	e->tid = (u32)id;
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->code = code;
	e->lifetime_ns = bpf_ktime_get_ns() - BPF_CORE_READ(task, start_time);
	mm = BPF_CORE_READ(task, mm);
	if (mm) {
		e->rss_file_pages = mm_rss(mm, MM_FILEPAGES);
		e->rss_anon_pages = mm_rss(mm, MM_ANONPAGES);
		e->rss_shmem_pages = mm_rss(mm, MM_SHMEMPAGES);
	} else {
		e->rss_file_pages = e->rss_anon_pages = e->rss_shmem_pages = 0;
	}
	BPF_CORE_READ_STR_INTO(&e->comm, task, comm);
	bpf_ringbuf_submit(e, 0);
	return 0;
}
