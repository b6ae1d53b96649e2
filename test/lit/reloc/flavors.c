// A flavor (name___suffix) matches the target type of the essential name;
// bpf_core_field_exists picks the layout the kernel has.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
// RUN: %relocore explain %t.o --btf %t.target.o | FileCheck %s
// The unresolvable read becomes libbpf's poison call, dead on this target:
// RUN: %relocore reloc %t.o --btf %t.target.o -o %t.out.o
// RUN: llvm-objdump -d %t.out.o | FileCheck --check-prefix=POISON %s
// POISON: call 195896080
#include "common.h"

#ifndef TARGET
struct task { int state; } PAI;
struct task___old { long state_old; } PAI;

SEC("tp/x") int prog(struct task *t)
{
	if (bpf_core_field_exists(t->state))
		return BPF_CORE_READ(t, state);
	return BPF_CORE_READ((struct task___old *)t, state_old);
}
// CHECK: field_exists {{ *}}task.state {{ *}}=> (none)  1 -> 0
// CHECK: byte_off {{ *}}task.state {{ *}}POISONED: no candidate has this field
// CHECK: byte_off {{ *}}task___old.state_old {{.*}}=> struct task [{{[0-9]+}}]  0 -> 8
#else
struct task { long pad; long state_old; };
struct task t;
#endif
char LICENSE[] SEC("license") = "GPL";
