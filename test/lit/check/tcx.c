// relocore check --tc PROG=IFACE answers for the program attached as
// relocore run --tc attaches it: by a tcx link, which needs the target's
// enum bpf_attach_type to have BPF_TCX_INGRESS (Linux 6.6).  Without --tc
// a tc program has nothing to check (user space attaches it).
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.old.o
// RUN: %clang_bpf -DTARGET -DTCX -c %s -o %t.new.o
// RUN: %relocore check %t.o --btf %t.old.o | FileCheck --check-prefix=PLAIN %s
// PLAIN: ok   count_tc (tc)
// RUN: not %relocore check %t.o --btf %t.old.o --tc count_tc=lo | FileCheck --check-prefix=OLD %s
// OLD: FAIL count_tc (tc)
// OLD-NEXT: program_type: tcx link: attach type BPF_TCX_INGRESS (section tc) is not in this kernel's enum bpf_attach_type
// RUN: %relocore check %t.o --btf %t.new.o --tc 'count_*=lo:egress' | FileCheck --check-prefix=NEW %s
// NEW: ok   count_tc (tc)
#ifdef TARGET
enum bpf_prog_type { BPF_PROG_TYPE_UNSPEC, BPF_PROG_TYPE_SCHED_CLS = 3 } prog_types;
enum bpf_attach_type {
	BPF_CGROUP_INET_INGRESS,
#ifdef TCX
	BPF_TCX_INGRESS = 46,
	BPF_TCX_EGRESS,
#endif
} attach_types;
enum bpf_func_id { BPF_FUNC_unspec } func_ids;
#else
#include "common.h"
SEC("tc") int count_tc(void *skb) { return 0; }
char LICENSE[] SEC("license") = "GPL";
#endif
