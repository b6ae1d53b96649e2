// The plugin's relocation records equal the annotated program's: the same
// program written with preserve_access_index + BPF_CORE_READ (ANNOTATED) and
// in plain C with natural dereferences (compiled with the plugin) gives the
// same `relocore explain` lines (instruction numbers and type ids aside), at
// -O2 and at -O0, in a kprobe (probe reads) and an fentry (direct loads).
// RUN: %clang_bpf -c %inputs/pass/target.c -o %t.target.o
// RUN: %clang_bpf -DANNOTATED -c %s -o %t.a.o
// RUN: %clang_plugin -O2 -c %s -o %t.p.o
// RUN: %relocore explain %t.a.o --btf %t.target.o | sed -E 's/#[0-9]+ +//; s/ \[[0-9]+\]//g; /CO-RE relocation/d' | sort > %t.a.txt
// RUN: %relocore explain %t.p.o --btf %t.target.o | sed -E 's/#[0-9]+ +//; s/ \[[0-9]+\]//g; /CO-RE relocation/d' | sort > %t.p.txt
// RUN: diff %t.a.txt %t.p.txt
// RUN: FileCheck %s < %t.p.txt
// Values checked by hand against target.c's layout.
// RUN: %clang_bpf -O0 -DANNOTATED -c %s -o %t.a0.o
// RUN: %clang_plugin -O0 -c %s -o %t.p0.o
// RUN: %relocore explain %t.a0.o --btf %t.target.o | sed -E 's/#[0-9]+ +//; s/ \[[0-9]+\]//g; /CO-RE relocation/d' | sort > %t.a0.txt
// RUN: %relocore explain %t.p0.o --btf %t.target.o | sed -E 's/#[0-9]+ +//; s/ \[[0-9]+\]//g; /CO-RE relocation/d' | sort > %t.p0.txt
// RUN: diff %t.a0.txt %t.p0.txt
// LLVM 16 with typed pointers (-no-opaque-pointers) too:
// RUN: %clang_plugin -O2 %typed16 -c %s -o %t.t.o
// RUN: %relocore explain %t.t.o --btf %t.target.o | sed -E 's/#[0-9]+ +//; s/ \[[0-9]+\]//g; /CO-RE relocation/d' | sort > %t.t.txt
// RUN: diff %t.a.txt %t.t.txt
#include "common.h"
#include "pass/vmlinux.h"

struct event {			/* program-local: never relocated */
	u32 ppid, uid, pid;
	u64 arg_start, start, stat2;
	char c1;
	u32 in_execve, prio;
	u32 g12, opid, o2pid, next_tgid;
} ev;
/* container_of: libbpf's (bpf_helpers.h) */

SEC("kprobe/do_exit") int kp(struct pt_regs *ctx)
{
	struct task_struct *t = (void *)ctx->di;
	struct event *e = &ev;
#ifdef ANNOTATED
	e->ppid = BPF_CORE_READ(t, real_parent, tgid);
	e->uid = BPF_CORE_READ(t, real_cred, uid.val);
	e->arg_start = BPF_CORE_READ(t, mm, arg_start);
	e->start = BPF_CORE_READ(t, start_words.hi);
	e->stat2 = BPF_CORE_READ(t, sched.stats[2]);
	e->c1 = BPF_CORE_READ(t, comm[1]);
	e->in_execve = BPF_CORE_READ_BITFIELD_PROBED(t, in_execve);
	e->prio = BPF_CORE_READ_BITFIELD_PROBED(t, prio_delta);
	e->g12 = BPF_CORE_READ(t, sched.grid[1][2]);
	{
		struct list_head *lh = (void *)ctx->si;
		struct task_struct *o = (void *)((char *)lh -
			bpf_core_field_offset(struct task_struct, tasks));

		e->opid = BPF_CORE_READ(o, pid);
	}
#else
	e->ppid = t->real_parent->tgid;
	e->uid = t->real_cred->uid.val;
	e->arg_start = t->mm->arg_start;
	e->start = t->start_words.hi;
	e->stat2 = t->sched.stats[2];
	e->c1 = t->comm[1];
	e->in_execve = t->in_execve;
	e->prio = t->prio_delta;
	e->g12 = t->sched.grid[1][2];	/* multi-dimensional: every index */
	{
		struct list_head *lh = (void *)ctx->si;

		e->opid = container_of(lh, struct task_struct, tasks)->pid;
	}
#endif
	return 0;
}
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}cred.uid.val {{.*}}  4 -> 16
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}mm_struct.arg_start {{.*}}  16 -> 48
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}pt_regs.di {{.*}}  0 -> 16
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.comm[1] {{.*}}  113 -> 153
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.in_execve {{.*}}  4 -> 20
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.mm {{.*}}  32 -> 136
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.prio_delta {{.*}}  4 -> 20
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.real_cred {{.*}}  24 -> 144
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.real_parent {{.*}}  16 -> 128
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}pt_regs.si {{.*}}  8 -> 24
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.tasks {{.*}}  128 -> 192
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.sched.grid[1][2] {{.*}}  108 -> 120
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.sched.stats[2] {{.*}}  64 -> 48
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.start_words.hi {{.*}}  44 -> 180
// CHECK-DAG: kprobe/do_exit byte_off {{ *}}task_struct.tgid {{.*}}  12 -> 12
// CHECK-DAG: kprobe/do_exit byte_sz {{ *}}task_struct.in_execve {{.*}}  4 -> 4
// CHECK-DAG: kprobe/do_exit byte_sz {{ *}}task_struct.prio_delta {{.*}}  4 -> 4
// CHECK-DAG: kprobe/do_exit lshift_u64 {{ *}}task_struct.in_execve {{.*}}  63 -> 56
// CHECK-DAG: kprobe/do_exit lshift_u64 {{ *}}task_struct.prio_delta {{.*}}  57 -> 58
// CHECK-DAG: kprobe/do_exit rshift_u64 {{ *}}task_struct.in_execve {{.*}}  63 -> 63
// CHECK-DAG: kprobe/do_exit rshift_u64 {{ *}}task_struct.in_execve {{.*}}  63 -> 63
// CHECK-DAG: kprobe/do_exit rshift_u64 {{ *}}task_struct.prio_delta {{.*}}  59 -> 58
// CHECK-DAG: kprobe/do_exit rshift_u64 {{ *}}task_struct.prio_delta {{.*}}  59 -> 58
// CHECK-DAG: kprobe/do_exit signed {{ *}}task_struct.in_execve {{.*}}  0 -> 0
// CHECK-DAG: kprobe/do_exit signed {{ *}}task_struct.prio_delta {{.*}}  1 -> 1

SEC("fentry/do_exit") int fe(u64 *ctx)
{
	struct task_struct *t = (void *)ctx[0];
	struct event *e = &ev;

	e->ppid = t->real_parent->tgid;
	e->arg_start = t->mm->arg_start;
#ifdef ANNOTATED
	e->in_execve = BPF_CORE_READ_BITFIELD(t, in_execve);
	e->g12 = __builtin_preserve_access_index(t->sched.grid[1][2]);
	e->o2pid = ((struct task_struct *)((char *)ctx[1] -
		bpf_core_field_offset(struct task_struct, sched.last)))->pid;
#else
	e->in_execve = t->in_execve;
	e->g12 = t->sched.grid[1][2];
	e->o2pid = container_of((u64 *)ctx[1], struct task_struct, sched.last)->pid;
#endif
	e->next_tgid = t[1].tgid;	/* p[N]: N * the target's size */
	return 0;
}
// CHECK-DAG: fentry/do_exit byte_off {{ *}}mm_struct.arg_start {{.*}}  16 -> 48
// CHECK-DAG: fentry/do_exit byte_off {{ *}}task_struct.in_execve {{.*}}  4 -> 20
// CHECK-DAG: fentry/do_exit byte_off {{ *}}task_struct.mm {{.*}}  32 -> 136
// CHECK-DAG: fentry/do_exit byte_off {{ *}}task_struct.real_parent {{.*}}  16 -> 128
// CHECK-DAG: fentry/do_exit byte_off {{ *}}task_struct.sched.last {{.*}}  80 -> 24
// CHECK-DAG: fentry/do_exit byte_off {{ *}}task_struct[1].tgid {{.*}}  156 -> 220
// CHECK-DAG: fentry/do_exit byte_off {{ *}}task_struct.sched.grid[1][2] {{.*}}  108 -> 120
// CHECK-DAG: fentry/do_exit byte_off {{ *}}task_struct.tgid {{.*}}  12 -> 12
// CHECK-DAG: fentry/do_exit byte_sz {{ *}}task_struct.in_execve {{.*}}  4 -> 4
// CHECK-DAG: fentry/do_exit lshift_u64 {{ *}}task_struct.in_execve {{.*}}  63 -> 56
// CHECK-DAG: fentry/do_exit rshift_u64 {{ *}}task_struct.in_execve {{.*}}  63 -> 63
// CHECK-DAG: fentry/do_exit rshift_u64 {{ *}}task_struct.in_execve {{.*}}  63 -> 63
// CHECK-DAG: fentry/do_exit signed {{ *}}task_struct.in_execve {{.*}}  0 -> 0
char LICENSE[] SEC("license") = "GPL";
