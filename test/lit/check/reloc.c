// relocore check: a poisoned relocation matters only if it is reachable.
// Branches decided by relocated constants (field/enum EXISTS) are pruned as
// the verifier prunes them; calls to subprograms are followed.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -c %inputs/check/target.c -o %t.old.o
// RUN: %clang_bpf -DNEW -c %inputs/check/target.c -o %t.new.o
// RUN: %relocore check %t.o --btf %t.old.o > %t.txt; echo rc=$? >> %t.txt
// RUN: FileCheck %s < %t.txt
// RUN: %relocore check %t.o --btf %t.new.o > %t.new.txt; echo rc=$? >> %t.new.txt
// RUN: FileCheck --check-prefix=NEW %s < %t.new.txt
// RUN: %relocore check %t.o --btf %t.old.o --json > %t.json; echo rc=$? > %t.rc
// RUN: grep -qx rc=1 %t.rc
// RUN: python3 %tools/check-reloc-json.py %t.json | FileCheck --check-prefix=JSON %s
// JSON: json ok
#include "common.h"

struct task_struct { int pid; int newfield; } PAI;
enum bpf_func_id___l { BPF_FUNC_future = 200 };
static long (*bpf_future)(void) = (void *)200;

// CHECK: {{.*}}.o on {{.*}}old.o:
// CHECK-DAG: ok   guarded (kprobe/do_unlinkat)
// NEW-DAG: ok   guarded (kprobe/do_unlinkat)
SEC("kprobe/do_unlinkat") int guarded(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	if (bpf_core_field_exists(t->newfield))
		return BPF_CORE_READ(t, newfield);
	return BPF_CORE_READ(t, pid);
}

// CHECK-DAG: FAIL unguarded (kprobe/do_unlinkat)
// CHECK-DAG: relocation: section kprobe/do_unlinkat insn #{{[0-9]+}} byte_off task_struct.newfield: {{.*}}poisoned and reachable from the entry
// NEW-DAG: ok   unguarded (kprobe/do_unlinkat)
SEC("kprobe/do_unlinkat") int unguarded(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	return BPF_CORE_READ(t, newfield);
}

// A helper only newer kernels have, called when their enum says so: the
// call is dead code on the old kernel, so it is no problem there.
// CHECK-DAG: ok   enum_guarded (kprobe/vfs_read)
// NEW-DAG: ok   enum_guarded (kprobe/vfs_read)
SEC("kprobe/vfs_read") int enum_guarded(void *ctx)
{
	if (bpf_core_enum_value_exists(enum bpf_func_id___l, BPF_FUNC_future))
		return bpf_future();
	return 0;
}

static __attribute__((noinline)) int read_new(struct task_struct *t)
{
	return BPF_CORE_READ(t, newfield);
}

// CHECK-DAG: FAIL via_sub (kprobe/vfs_read)
// CHECK-DAG: relocation: section .text insn #{{[0-9]+}} byte_off task_struct.newfield
// NEW-DAG: ok   via_sub (kprobe/vfs_read)
SEC("kprobe/vfs_read") int via_sub(void *ctx)
{
	return read_new((void *)bpf_get_current_task());
}

// CHECK-DAG: ok   sub_guarded (kprobe/vfs_read)
// NEW-DAG: ok   sub_guarded (kprobe/vfs_read)
SEC("kprobe/vfs_read") int sub_guarded(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	if (!bpf_core_field_exists(t->newfield))
		return 0;
	return read_new(t);
}

// Guarded by a value only known at run time: both edges are taken.
// CHECK-DAG: FAIL runtime_guard (kprobe/vfs_read)
// CHECK-DAG: relocation: section kprobe/vfs_read insn #{{[0-9]+}} byte_off task_struct.newfield
// NEW-DAG: ok   runtime_guard (kprobe/vfs_read)
SEC("kprobe/vfs_read") int runtime_guard(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	if (bpf_get_prandom_u32() & 1)
		return BPF_CORE_READ(t, newfield);
	return 0;
}

// A constant computed from the relocated size (arithmetic on it) decides
// the branch: the 4-byte pid makes "size * 2 > 100" false.
// CHECK-DAG: ok   size_guard (kprobe/vfs_read)
SEC("kprobe/vfs_read") int size_guard(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	unsigned long sz = bpf_core_field_size(t->pid);

	asm volatile("" : "+r"(sz));	/* keep the arithmetic in BPF */
	if (sz * 2 > 100)
		return BPF_CORE_READ(t, newfield);
	return 0;
}

// A callback taken by address (bpf_loop) is walked too.
static long cb(unsigned int i, void *ctx)
{
	struct task_struct *t = ctx;

	return BPF_CORE_READ(t, newfield) & 1;
}
// CHECK-DAG: FAIL callback (kprobe/vfs_read)
// CHECK-DAG: relocation: section .text insn #{{[0-9]+}} byte_off task_struct.newfield
// NEW-DAG: ok   callback (kprobe/vfs_read)
SEC("kprobe/vfs_read") int callback(void *ctx)
{
	return bpf_loop(4, cb, (void *)bpf_get_current_task(), 0);
}

// A loop (a back edge): the walk reaches a fixed point, and the access
// after the loop is reached.
// CHECK-DAG: FAIL after_loop (kprobe/vfs_read)
// NEW-DAG: ok   after_loop (kprobe/vfs_read)
SEC("kprobe/vfs_read") int after_loop(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	unsigned int i, n = bpf_get_prandom_u32() & 7, s = 0;

#pragma clang loop unroll(disable)
	for (i = 0; i < n; i++)
		s += i;
	return s + BPF_CORE_READ(t, newfield);
}

// CHECK: rc=1
// NEW: rc=0
char LICENSE[] SEC("license") = "GPL";
