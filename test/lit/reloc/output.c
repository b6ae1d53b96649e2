// relocore reloc patches the instructions and consumes the core_relo
// records: the output has the target's offsets and no CO-RE left to do.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
// RUN: llvm-objdump -d %t.o | FileCheck --check-prefix=BEFORE %s
// RUN: %relocore reloc %t.o --btf %t.target.o -o %t.out.o
// RUN: llvm-objdump -d %t.out.o | FileCheck --check-prefix=AFTER %s
// RUN: %relocore explain %t.out.o --btf %t.target.o | FileCheck --check-prefix=NORELO %s
// RUN: %relocore reloc %t.o --btf %t.target.o -o %t.out2.o --json | FileCheck --check-prefix=JSON %s
// RUN: cmp %t.out.o %t.out2.o
#include "common.h"

#ifndef TARGET
struct s { unsigned int a; unsigned int b; } PAI;
SEC("socket") int prog(struct s *p) { return p->b; }
// BEFORE: r0 = *(u32 *)(r1 + 4)
// AFTER: r0 = *(u64 *)(r1 + 16)
// NORELO: 0 CO-RE relocation(s)
// JSON: {"object":"{{.*}}.o","target":"{{.*}}target.o","output":"{{.*}}out2.o","relocations":[{"section":"socket","insn":0,"kind":"byte_off","access":"s.b",{{.*}}"old":4,"new":16,"result":"ok"
#else
struct s { long pad; unsigned long a; unsigned long b; };
struct s t;
#endif
char LICENSE[] SEC("license") = "GPL";
