// relocore check: an undefined symbol that libbpf must resolve as an extern
// but cannot - not a kfunc, not in .kconfig or .ksyms: here a variable
// another object defines, not linked in (GCC 12's unknown builtins are the
// same case: gcc-bpf-field-exists.c).  libbpf refuses to open such an
// object; check says so for every program ("open").  Linked with the
// object that defines it (bpftool gen object), the problem is gone.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DDEF -c %s -o %t.def.o
// RUN: %clang_bpf -DNEW -c %inputs/check/target.c -o %t.new.o
// RUN: not %relocore check %t.o --btf %t.new.o | FileCheck %s
// CHECK: the object (every program loads with it):
// CHECK-NEXT: open: extern 'shared_counter': its BTF is in no DATASEC (.kconfig or .ksyms): libbpf refuses to open the object
// CHECK-NEXT: FAIL reader (kprobe/do_unlinkat): the object's problems
// CHECK-NOT: externs of no known kind
// libbpf (bpftool opens the object, loads nothing) agrees
// RUN: not bpftool gen skeleton %t.o 2>&1 >/dev/null | FileCheck --check-prefix=LIBBPF %s
// LIBBPF: failed to find BTF for extern 'shared_counter' [{{[0-9]+}}] section
// RUN: bpftool gen object %t.linked.o %t.o %t.def.o
// RUN: bpftool gen skeleton %t.linked.o > /dev/null
// RUN: %relocore check %t.linked.o --btf %t.new.o | FileCheck --check-prefix=LINKED %s
// LINKED: ok   reader (kprobe/do_unlinkat)
// LINKED-NOT: open:
#include "common.h"

#ifndef DEF
extern int shared_counter;
SEC("kprobe/do_unlinkat") int reader(void *ctx) { return shared_counter; }
char LICENSE[] SEC("license") = "GPL";
#else
int shared_counter SEC(".data") = 1;
#endif
