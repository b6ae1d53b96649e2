// relocore check reads the object's read-only data (.rodata, .rodata.*) as
// the constants they are to the verifier (libbpf makes them maps the
// program cannot write and freezes them): a branch on a `const volatile`
// knob is pruned by its value, the object's default or the one --set
// writes over it, as user space does through a skeleton before the load.
// Writable data (.data) is no constant: both edges are taken.  The knob
// here is biolatency's targ_single (libbpf-tools): tracepoint
// sched_switch has one argument on the target, ctx[1] is past it.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -c %inputs/check/target.c -o %t.target.o
// RUN: %relocore check %t.o --btf %t.target.o > %t.def.txt; echo rc=$? >> %t.def.txt
// RUN: FileCheck --check-prefix=DEF %s < %t.def.txt
// DEF-DAG: ok   by_rodata (tp_btf/sched_switch)
// DEF-DAG: ok   by_custom (tp_btf/sched_switch)
// DEF-DAG: FAIL by_data (tp_btf/sched_switch)
// DEF-DAG: ok   by_string (tp_btf/sched_switch)
// DEF: rc=1
// RUN: %relocore check %t.o --btf %t.target.o --set one_arg=false --set custom_args=2 \
// RUN:   --set name=two > %t.set.txt; echo rc=$? >> %t.set.txt
// RUN: FileCheck --check-prefix=SET %s < %t.set.txt
// SET-DAG: FAIL by_rodata (tp_btf/sched_switch)
// SET-DAG: attach: tp_btf/sched_switch: insn #{{[0-9]+}} reads the context up to byte 16, but tracepoint sched_switch has 1 argument
// SET-DAG: FAIL by_custom (tp_btf/sched_switch)
// SET-DAG: FAIL by_string (tp_btf/sched_switch)
// SET: rc=1
// A --set of the writable knob changes nothing (it is no constant).
// RUN: not %relocore check %t.o --btf %t.target.o --set data_one_arg=1 | FileCheck --check-prefix=DATA %s
// DATA: FAIL by_data (tp_btf/sched_switch)
// RUN: not %relocore check %t.o --btf %t.target.o --set nosuch=1 2>&1 | FileCheck --check-prefix=BAD %s
// BAD: --set nosuch=1: no object given has a global variable of that name in its BTF
// RUN: not %relocore check %t.o --btf %t.target.o --set one_arg=7 2>&1 | FileCheck --check-prefix=BADVAL %s
// BADVAL: --set one_arg=7: variable one_arg (section .rodata): {{.*}}
// The JSON answer says the same.
// RUN: not %relocore check %t.o --btf %t.target.o --set one_arg=false --json | FileCheck --check-prefix=JSON %s
// JSON: "name":"by_rodata","section":"tp_btf/sched_switch","ok":false
#include <stdbool.h>
#include "common.h"

const volatile bool one_arg = true;
const volatile int custom_args SEC(".rodata.cfg") = 1;
const volatile char name[4] = "one";
volatile int data_one_arg = 1;

SEC("tp_btf/sched_switch") int by_rodata(unsigned long long *ctx)
{
	if (!one_arg)	/* separate paths: a helper call on one */
		return ctx[1] + bpf_get_prandom_u32();
	return ctx[0];
}

SEC("tp_btf/sched_switch") int by_custom(unsigned long long *ctx)
{
	if (custom_args != 1)
		return ctx[1] + bpf_get_prandom_u32();
	return ctx[0];
}

SEC("tp_btf/sched_switch") int by_string(unsigned long long *ctx)
{
	if (name[0] != 'o')
		return ctx[1] + bpf_get_prandom_u32();
	return ctx[0];
}

SEC("tp_btf/sched_switch") int by_data(unsigned long long *ctx)
{
	if (!data_one_arg)
		return ctx[1] + bpf_get_prandom_u32();
	return ctx[0];
}

char LICENSE[] SEC("license") = "GPL";
