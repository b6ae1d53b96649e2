// A weak kfunc the target lacks: libbpf resolves its address to 0, so a
// branch on that address (`if (!kfunc)`, bpf_ksym_exists) is decided when
// the object loads, and the verifier drops the guarded call as dead code.
// check prunes it alike: a guarded call is no problem, an unguarded one is
// (libbpf poisons it, the verifier refuses it where reached).  A weak kfunc
// the target has: both paths stay, and calling it is fine.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DNEW -c %inputs/check/target.c -o %t.new.o
// RUN: %relocore check %t.o --btf %t.new.o > %t.txt; echo rc=$? >> %t.txt
// RUN: FileCheck %s < %t.txt
#include "common.h"

extern int bpf_weak_kfunc(int x) __attribute__((section(".ksyms"), weak));
extern int do_unlinkat(int dfd) __attribute__((section(".ksyms"), weak));

/* libbpf's bpf_ksym_exists() (bpf_helpers.h of libbpf 1.2 on) */
#define ksym_exists(sym) ({ _Static_assert(!__builtin_constant_p(!!sym), #sym " should be weak"); !!sym; })

// CHECK-DAG: ok   guarded (kprobe/do_unlinkat)
SEC("kprobe/do_unlinkat") int guarded(void *ctx)
{
	if (!bpf_weak_kfunc)
		return 0;
	return bpf_weak_kfunc(1);
}

// CHECK-DAG: ok   exists (kprobe/do_unlinkat)
SEC("kprobe/do_unlinkat") int exists(void *ctx)
{
	if (ksym_exists(bpf_weak_kfunc))
		return bpf_weak_kfunc(2);
	return 0;
}

// CHECK-DAG: FAIL unguarded (kprobe/do_unlinkat)
// CHECK-DAG: kfunc: section kprobe/do_unlinkat insn #{{[0-9]+}}: a reachable call to the weak kfunc 'bpf_weak_kfunc', which the target BTF lacks
SEC("kprobe/do_unlinkat") int unguarded(void *ctx) { return bpf_weak_kfunc(3); }

// CHECK-DAG: ok   present (kprobe/do_unlinkat)
SEC("kprobe/do_unlinkat") int present(void *ctx)
{
	if (!do_unlinkat)
		return 0;
	return do_unlinkat(4);
}

// CHECK: rc=1
char LICENSE[] SEC("license") = "GPL";
