// SPDX-License-Identifier: MIT
/*
 * ksymaddr: kernel symbols without a type, their addresses filled in when
 * the object loads.
 *
 *   extern void bpf_prog_active __ksym;
 *
 * is the form libbpf documents for the address of a kernel variable whose
 * type does not matter: clang writes a BTF VAR of type void in the .ksyms
 * DATASEC, and libbpf takes the address from /proc/kallsyms when it loads
 * the object (no kernel BTF needed) and writes it into the 64-bit load that
 * takes it.  A weak one the kernel does not have becomes 0.  The program
 * stores both addresses, and the pid of the task switched to (read with
 * CO-RE), on every sched_switch; the VM matrix compares the addresses with
 * the guest's /proc/kallsyms.
 *
 * CO-RE features used: typeless __ksym externs, strong and weak (.ksyms);
 * a BPF_CORE_READ of the raw tracepoint's task.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* a per-CPU int of kernel/bpf/syscall.c since 4.x: in every kernel's
 * kallsyms (CONFIG_KALLSYMS_ALL) */
extern void bpf_prog_active __ksym;
/* in no kernel: libbpf resolves a missing weak ksym to 0 */
extern void relocore_no_such_symbol __ksym __weak;

struct ksymaddr_value {
	u64 active;	/* &bpf_prog_active, as libbpf filled it */
	u64 missing;	/* &relocore_no_such_symbol: 0 */
	u64 hits;	/* sched_switch events seen */
	u32 next_pid;	/* the last task switched to */
	u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct ksymaddr_value);
} addrs SEC(".maps");

/* sched_switch(bool preempt, struct task_struct *prev, struct task_struct
 * *next, ...): the same first three arguments from 4.x to 7.x */
SEC("raw_tp/sched_switch")
int ksymaddr(u64 *ctx)
{
	struct task_struct *next = (struct task_struct *)ctx[2];
	struct ksymaddr_value *v;
	u32 zero = 0;

	v = bpf_map_lookup_elem(&addrs, &zero);
	if (!v)
		return 0;
	v->active = (u64)&bpf_prog_active;
	v->missing = (u64)&relocore_no_such_symbol;
	v->next_pid = BPF_CORE_READ(next, pid);
	__sync_fetch_and_add(&v->hits, 1);
	return 0;
}
