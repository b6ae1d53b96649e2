// SPDX-License-Identifier: MIT
/* A task iterator: one line per task, "PID TGID COMM" (task_struct read
 * with CO-RE); relocore run reads it through. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("iter/task")
int list_tasks(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *t = ctx->task;

	if (!t)
		return 0;
	BPF_SEQ_PRINTF(seq, "%d %d %s\n", t->pid, t->tgid, t->comm);
	return 0;
}
