// Bitfield reads: load offset and size, shifts and signedness follow the
// target's placement of the bits.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
// RUN: %relocore explain %t.o --btf %t.target.o | FileCheck %s
#include "common.h"

#ifndef TARGET
struct flags { unsigned int lo:4; int mid:7; unsigned int hi:21; } PAI;

SEC("kprobe/f") int prog(struct flags *f)
{
	return BPF_CORE_READ_BITFIELD_PROBED(f, mid);
}
// CHECK-DAG: byte_off {{ *}}flags.mid {{.*}}  0 -> 4
// CHECK-DAG: byte_sz {{ *}}flags.mid {{.*}}  4 -> 2
// CHECK-DAG: lshift_u64 {{ *}}flags.mid {{.*}}  53 -> 52
// CHECK-DAG: rshift_u64 {{ *}}flags.mid {{.*}}  57 -> 57
// CHECK-DAG: signed {{ *}}flags.mid {{.*}}  1 -> 1
#else
struct flags { int x; unsigned short hi:5; short mid:7; unsigned short lo:4; };
struct flags t;
#endif
char LICENSE[] SEC("license") = "GPL";
