// SPDX-License-Identifier: MIT
/* A syscall program: not attached, run once by relocore run
 * (BPF_PROG_RUN); it returns the size of struct task_struct on the
 * running kernel, relocated (bpf_core_type_size). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

SEC("syscall")
int run_once(void *ctx)
{
	return bpf_core_type_size(struct task_struct);
}
