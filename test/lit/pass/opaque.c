// Accesses that have no cast (union members) or no GEP at all (bitfield
// storage at offset 0, unions through a pointer variable) with opaque
// pointers, LLVM 16's default and 19's only mode: the member is found from
// the accessed type and the debug info.  The plain program compiled with
// the plugin gives the annotated program's records (instruction numbers and
// type ids aside), at -O2 and -O0, in a kprobe (probe reads) and an fentry
// (direct loads); on LLVM 14 (typed pointers) the same.
// RUN: %clang_bpf -c %inputs/pass/opaque-target.c -o %t.target.o
// RUN: %clang_bpf -DANNOTATED -c %s -o %t.a.o
// RUN: %clang_plugin -O2 -c %s -o %t.p.o -Rpass=relocore 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %relocore explain %t.a.o --btf %t.target.o | sed -E 's/#[0-9]+ +//; s/ \[[0-9]+\]//g; /CO-RE relocation/d' | sort > %t.a.txt
// RUN: %relocore explain %t.p.o --btf %t.target.o | sed -E 's/#[0-9]+ +//; s/ \[[0-9]+\]//g; /CO-RE relocation/d' | sort > %t.p.txt
// RUN: diff %t.a.txt %t.p.txt
// RUN: FileCheck %s < %t.p.txt
// RUN: %clang_bpf -O0 -DANNOTATED -c %s -o %t.a0.o
// RUN: %clang_plugin -O0 -c %s -o %t.p0.o
// RUN: %relocore explain %t.a0.o --btf %t.target.o | sed -E 's/#[0-9]+ +//; s/ \[[0-9]+\]//g; /CO-RE relocation/d' | sort > %t.a0.txt
// RUN: %relocore explain %t.p0.o --btf %t.target.o | sed -E 's/#[0-9]+ +//; s/ \[[0-9]+\]//g; /CO-RE relocation/d' | sort > %t.p0.txt
// RUN: diff %t.a0.txt %t.p0.txt
// A struct with bitfields at offset 0 that nothing names in the IR has no
// IR type with opaque pointers (clang makes one while compiling, IR read
// back by opt may have none): an error, never the local layout.  With typed
// pointers (LLVM 14) the pointer type names it: relocated.
// RUN: %clang_bpf -Xclang -disable-llvm-passes -DONLY_BITFIELD -S -emit-llvm -o %t.bf.ll %s
// RUN: %if_opaque_not %opt -passes=relocore -pass-remarks=relocore -S %t.bf.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=BF-%pointers
#include "common.h"
#include "pass/opaque-vmlinux.h"

struct event { u32 a, f0, s, hi, lo, us, uhi; } ev;	/* program-local */

#ifdef ONLY_BITFIELD
SEC("kprobe/f") int only(u64 *ctx)
{
	struct k *k = (void *)ctx[0];

	ev.a = k->a;
	return 0;
}
#else
SEC("kprobe/f") int kp(u64 *ctx)
{
	struct k *k = (void *)ctx[0];
	union un *u = (void *)ctx[1];
	struct event *e = &ev;
#ifdef ANNOTATED
	e->a = BPF_CORE_READ_BITFIELD_PROBED(k, a);
	e->f0 = BPF_CORE_READ_BITFIELD_PROBED(k, in.f0);
	e->s = BPF_CORE_READ(k, u.s);
	e->hi = BPF_CORE_READ(k, u.p.hi);
	e->lo = BPF_CORE_READ(k, up, p.lo);
	e->us = BPF_CORE_READ(u, s);
	e->uhi = BPF_CORE_READ(u, p.hi);
#else
	e->a = k->a;
	e->f0 = k->in.f0;
	e->s = k->u.s;
	e->hi = k->u.p.hi;
	e->lo = k->up->p.lo;
	e->us = u->s;
	e->uhi = u->p.hi;
#endif
	return 0;
}

SEC("fentry/f") int fe(u64 *ctx)
{
	struct k *k = (void *)ctx[0];
	union un *u = (void *)ctx[1];
	struct event *e = &ev;
#ifdef ANNOTATED
	e->a = BPF_CORE_READ_BITFIELD(k, a);
	e->s = __builtin_preserve_access_index(k->u.s);
	e->uhi = __builtin_preserve_access_index(u->p.hi);
#else
	e->a = k->a;
	e->s = k->u.s;
	e->uhi = u->p.hi;
#endif
	return 0;
}
#endif
char LICENSE[] SEC("license") = "GPL";
// REMARK-DAG: remark: relocated bitfield read k.a (bpf_probe_read_kernel)
// REMARK-DAG: remark: relocated bitfield read k.in.f0 (bpf_probe_read_kernel)
// REMARK-DAG: remark: relocated k.u.s (bpf_probe_read_kernel)
// REMARK-DAG: remark: relocated k.u.p.hi (bpf_probe_read_kernel)
// REMARK-DAG: remark: relocated un.p.lo (bpf_probe_read_kernel)
// REMARK-DAG: remark: relocated un.s (bpf_probe_read_kernel)
// REMARK-DAG: remark: relocated un.p.hi (bpf_probe_read_kernel)
// REMARK-DAG: remark: relocated bitfield read k.a [-Rpass=relocore]
// Values by hand: local k = {a:3,b:5 @0, x @4, u @8, in @16, up @24};
// target k = {pad0, up @8, x @16, b:6,a:4 @20, in @24 (f0 in the unit @36,
// bits 5-7), pad1, u @48}; target un = {s, p = {pad, lo @4, hi @8}, w}.
// CHECK-DAG: kprobe/f byte_off {{ *}}k.a {{.*}}  0 -> 20
// CHECK-DAG: kprobe/f lshift_u64 {{ *}}k.a {{.*}}  61 -> 54
// CHECK-DAG: kprobe/f rshift_u64 {{ *}}k.a {{.*}}  61 -> 60
// CHECK-DAG: kprobe/f byte_off {{ *}}k.in.f0 {{.*}}  16 -> 36
// CHECK-DAG: kprobe/f lshift_u64 {{ *}}k.in.f0 {{.*}}  61 -> 56
// CHECK-DAG: kprobe/f byte_off {{ *}}k.u.s {{.*}}  8 -> 48
// CHECK-DAG: kprobe/f byte_off {{ *}}k.u.p.hi {{.*}}  12 -> 56
// CHECK-DAG: kprobe/f byte_off {{ *}}k.up {{.*}}  24 -> 8
// CHECK-DAG: kprobe/f byte_off {{ *}}un.p.lo {{.*}}  0 -> 4
// CHECK-DAG: kprobe/f byte_off {{ *}}un.s {{.*}}  0 -> 0
// CHECK-DAG: kprobe/f byte_off {{ *}}un.p.hi {{.*}}  4 -> 8
// CHECK-DAG: fentry/f byte_off {{ *}}k.a {{.*}}  0 -> 20
// CHECK-DAG: fentry/f byte_off {{ *}}k.u.s {{.*}}  8 -> 48
// CHECK-DAG: fentry/f byte_off {{ *}}un.p.hi {{.*}}  4 -> 8
// BF-opaque: error: {{.*}}relocore: cannot relocate this access to a bitfield at offset 0 of kernel type 'struct k'
// BF-typed: remark: {{.*}}relocated bitfield read k.a (bpf_probe_read_kernel)
