// relocore check: a struct_ops map is created at load as libbpf 1.1
// creates it (bpf_map__init_kern_struct_ops): the target has the struct
// and registers it as a struct_ops type (struct bpf_struct_ops_NAME), and
// every member the object sets is in the target's struct, of the same
// kind, of the same size where it is data.  Else the map fails, and with
// it the object: said once, for the object.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.ok.o
// RUN: %clang_bpf -DTARGET -DNOREG -c %s -o %t.noreg.o
// RUN: %clang_bpf -DTARGET -DNOMEMBER -c %s -o %t.nomember.o
// RUN: %clang_bpf -DTARGET -DSMALL -c %s -o %t.small.o
// RUN: %clang_bpf -DTARGET -DNOSTRUCT -c %s -o %t.nostruct.o
// RUN: %relocore check %t.o --btf %t.ok.o | FileCheck --check-prefix=OK %s
// OK: ok   cc_init (struct_ops/cc_init)
// OK-NEXT: ok   cc_undo (struct_ops/cc_undo)
// RUN: not %relocore check %t.o --btf %t.noreg.o | FileCheck --check-prefix=NOREG %s
// NOREG: the object (every program loads with it):
// NOREG-NEXT: map: struct_ops map cc: the target registers no struct_ops of that type (no struct bpf_struct_ops_NAME): libbpf cannot create the map
// NOREG-NEXT: FAIL cc_init (struct_ops/cc_init): the object's problems
// RUN: not %relocore check %t.o --btf %t.nomember.o | FileCheck --check-prefix=NOMEMBER %s
// NOMEMBER: map: struct_ops map cc: member undo_cwnd is not in the target's struct tcp_congestion_ops: libbpf cannot create the map
// RUN: not %relocore check %t.o --btf %t.small.o | FileCheck --check-prefix=SMALL %s
// SMALL: map: struct_ops map cc: member name is 16 bytes, 8 in the target's struct tcp_congestion_ops
// RUN: not %relocore check %t.o --btf %t.nostruct.o | FileCheck --check-prefix=NOSTRUCT %s
// NOSTRUCT: map: struct_ops map cc: the target has no struct of that type: libbpf cannot create the map
#ifdef TARGET
#define SEC(n) __attribute__((section(n), used))
enum bpf_prog_type { BPF_PROG_TYPE_UNSPEC, BPF_PROG_TYPE_STRUCT_OPS = 27 } prog_types;
enum bpf_map_type { BPF_MAP_TYPE_UNSPEC, BPF_MAP_TYPE_STRUCT_OPS = 26 } map_types;
enum bpf_func_id { BPF_FUNC_unspec } func_ids;
struct sock;
#ifndef NOSTRUCT
struct tcp_congestion_ops {
	void (*init)(struct sock *sk);
	unsigned int (*ssthresh)(struct sock *sk);
#ifndef NOMEMBER
	unsigned int (*undo_cwnd)(struct sock *sk);
#endif
#ifdef SMALL
	char name[8];
#else
	char name[16];
#endif
	void *owner;
} ops;
#ifndef NOREG
struct bpf_struct_ops_tcp_congestion_ops { int refcnt; struct tcp_congestion_ops data; } reg;
#endif
#endif
#else
#include "common.h"

struct sock;
struct tcp_congestion_ops {
	void (*init)(struct sock *sk);
	__u32 (*undo_cwnd)(struct sock *sk);
	char name[16];
} PAI;

SEC("struct_ops/cc_init") void cc_init(__u64 *ctx) { }
SEC("struct_ops/cc_undo") __u32 cc_undo(__u64 *ctx) { return 2; }

SEC(".struct_ops")
struct tcp_congestion_ops cc = {
	.init = (void *)cc_init,
	.undo_cwnd = (void *)cc_undo,
	.name = "lit_cc",
};
char LICENSE[] SEC("license") = "GPL";
#endif
