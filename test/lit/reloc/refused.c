// Ambiguous candidates are refused, with the reason, a non-zero exit and no
// output file.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
// RUN: not %relocore explain %t.o --btf %t.target.o | FileCheck %s
// RUN: rm -f %t.out.o
// RUN: not %relocore reloc %t.o --btf %t.target.o -o %t.out.o 2>&1 | FileCheck --check-prefix=ERR %s
// RUN: not test -e %t.out.o
#include "common.h"

#ifndef TARGET
struct dup { int v; } PAI;
SEC("kprobe/f") int prog(struct dup *d) { return BPF_CORE_READ(d, v); }
// CHECK: byte_off {{ *}}dup.v {{ *}}REFUSED: ambiguous: candidates [{{[0-9]+}}] and [{{[0-9]+}}] place the field at bit 0 and 64
// ERR: relocore: {{.*}}.o: 1 relocation(s) refused, nothing applied; first: section kprobe/f insn #{{[0-9]+}} byte_off dup.v: ambiguous
#else
struct dup___a { int v; };
struct dup___b { long w; int v; };
struct dup___a a;
struct dup___b b;
#endif
char LICENSE[] SEC("license") = "GPL";
