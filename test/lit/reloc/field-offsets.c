// Field offsets follow the target's layout: moved members, nested members,
// array elements, members the target nests in an anonymous union.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
// RUN: %relocore explain %t.o --btf %t.target.o | FileCheck %s
#include "common.h"

#ifndef TARGET
struct inner { int x; int y; } PAI;
struct outer { int a; struct inner in; long arr[4]; } PAI;

SEC("kprobe/f") int prog(struct outer *o)
{
	long s = 0;

	s += BPF_CORE_READ(o, a);
	s += BPF_CORE_READ(o, in.y);
	s += BPF_CORE_READ(o, arr[2]);
	return s;
}
// CHECK: 3 CO-RE relocation(s)
// CHECK: kprobe/f {{.*}} byte_off {{ *}}outer.a {{.*}}=> struct outer [{{[0-9]+}}]  0 -> 16
// CHECK: kprobe/f {{.*}} byte_off {{ *}}outer.in.y {{.*}}=> struct outer [{{[0-9]+}}]  8 -> 0
// CHECK: kprobe/f {{.*}} byte_off {{ *}}outer.arr[2] {{.*}}=> struct outer [{{[0-9]+}}]  32 -> 40
#else
struct inner { int y; int x; };
struct outer {
	struct inner in;
	long pad;
	union { int a; unsigned int a_alias; };
	int pad2;
	long arr[8];
};
struct outer t;
#endif
char LICENSE[] SEC("license") = "GPL";
