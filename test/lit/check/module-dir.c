// relocore takes a kernel's module BTF with its vmlinux BTF: --btf DIR
// reads a copy of a kernel's /sys/kernel/btf (vmlinux and one split BTF
// per module, as the running kernel's is read by default), the same as
// --btf DIR/vmlinux --module DIR/<module>.  A type and a function that
// live in a module (nf_flow_table's struct flow_offload and
// flow_offload_add) are found there and missing without it.
// RUN: clang -O1 -Wall %tools/mksplit.c -lbpf -o %t.mksplit
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DNEW -c %inputs/check/target.c -o %t.target.o
// RUN: rm -rf %t.sys && mkdir %t.sys
// RUN: llvm-objcopy --dump-section .BTF=%t.sys/vmlinux %t.target.o
// RUN: %t.mksplit %t.sys/vmlinux %t.sys/nf_flow_table
// RUN: not %relocore check %t.o --btf %t.sys/vmlinux | FileCheck --check-prefix=NOMOD %s
// NOMOD: FAIL fo (kprobe/flow_offload_add)
// NOMOD-DAG: attach: kprobe/flow_offload_add: function 'flow_offload_add' not in BTF
// NOMOD-DAG: relocation: section kprobe/flow_offload_add insn #{{[0-9]+}} byte_off flow_offload.timeout: no type of this name in the target
// RUN: %relocore check %t.o --btf %t.sys | FileCheck --check-prefix=DIR %s
// DIR: {{.*}}.o on {{.*}}.sys:
// DIR-NEXT: ok   fo (kprobe/flow_offload_add)
// RUN: %relocore explain %t.o --btf %t.sys > %t.dir.txt
// RUN: %relocore explain %t.o --btf %t.sys/vmlinux --module %t.sys/nf_flow_table > %t.mod.txt
// RUN: FileCheck --check-prefix=EXPLAIN %s < %t.dir.txt
// EXPLAIN: byte_off {{ *}}flow_offload.timeout {{ *}}=> struct flow_offload [{{[0-9]+}}]  8 -> 196
// RUN: sed 1d %t.dir.txt > %t.dir.body && sed 1d %t.mod.txt > %t.mod.body && cmp %t.dir.body %t.mod.body
// RUN: rm -f %t.out.o && %relocore reloc %t.o --btf %t.sys -o %t.out.o && test -s %t.out.o
#include "common.h"

struct flow_offload { unsigned long flags; int timeout; } PAI;

SEC("kprobe/flow_offload_add") int fo(struct flow_offload **p)
{
	struct flow_offload *f = 0;

	return BPF_CORE_READ(f, timeout);
}
char LICENSE[] SEC("license") = "GPL";
