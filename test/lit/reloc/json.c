// --json: one object per relocation, for scripts.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
// RUN: %relocore explain %t.o --btf %t.target.o --json | FileCheck %s
#include "common.h"

#ifndef TARGET
struct s { int a; int b; } PAI;
SEC("kprobe/f") int prog(struct s *p) { return BPF_CORE_READ(p, b); }
// CHECK: {"object":"{{.*}}.o","target":"{{.*}}.target.o","relocations":[{"section":"kprobe/f","insn":{{[0-9]+}},"kind":"byte_off","access":"s.b","spec":"0:1","target_spec":"0:0","local_type_id":{{[0-9]+}},"local_type":"struct s","target_type_id":{{[0-9]+}},"target_type":"struct s","target_bit_offset":0,"old":4,"new":0,"result":"ok","reason":""}]}
#else
struct s { int b; };
struct s t;
#endif
char LICENSE[] SEC("license") = "GPL";
