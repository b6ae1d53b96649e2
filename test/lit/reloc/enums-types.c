// Enum values and type facts come from the target: enumval_exists,
// enumval_value, type_exists, type_size, type ids.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
// RUN: %relocore explain %t.o --btf %t.target.o | FileCheck %s
#include "common.h"

#ifndef TARGET
enum state { ST_RUN = 0, ST_SLEEP = 1, ST_GONE = 7 };
struct big { long a, b; };
struct absent { int z; };

SEC("kprobe/f") long prog(void *ctx)
{
	long s = 0;

	s += bpf_core_enum_value_exists(enum state, ST_GONE);
	s += bpf_core_enum_value(enum state, ST_SLEEP);
	s += bpf_core_type_exists(struct absent);
	s += bpf_core_type_size(struct big);
	s += bpf_core_type_id_kernel(struct big);
	s += bpf_core_type_id_local(struct big);
	return s;
}
// CHECK: enumval_exists {{ *}}enum state::ST_GONE {{ *}}=> (none)  1 -> 0
// CHECK: enumval_value {{ *}}enum state::ST_SLEEP {{ *}}=> enum state [{{[0-9]+}}]  1 -> 64
// CHECK: type_exists {{ *}}struct absent {{ *}}=> (none)  1 -> 0
// CHECK: type_size {{ *}}struct big {{ *}}=> struct big [{{[0-9]+}}]  16 -> 24
// CHECK: target_type_id {{ *}}struct big {{ *}}=> struct big [[[TID:[0-9]+]]]  {{[0-9]+}} -> [[TID]]
// CHECK: local_type_id {{ *}}struct big
#else
enum state { ST_RUN = 0, ST_SLEEP = 64 };
struct big { long a, b, c; };
enum state s;
struct big b;
#endif
char LICENSE[] SEC("license") = "GPL";
