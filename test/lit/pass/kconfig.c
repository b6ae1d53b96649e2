// __bpf_* globals become libbpf .kconfig externs: an undefined ELF symbol
// and a BTF VAR (extern) in DATASEC .kconfig, read with ld_imm64 + load;
// the branch on them stays for the verifier to prune on the target.
// RUN: %clang_plugin -O2 -c %s -o %t.o
// RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
// RUN: bpftool btf dump file %t.o | FileCheck %s --check-prefix=BTF
// RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=ASM
// libbpf's own linker accepts the object (.BTF, .BTF.ext, the externs):
// RUN: bpftool gen object %t.linked.o %t.o
// RUN: %relocore explain %t.o --btf %t.o | FileCheck %s --check-prefix=EXPLAIN
// offline, for a named target (relocore reloc --kernel-release): the
// plugin's globals bake like libbpf's externs (kconfig/bake.c)
// RUN: %relocore reloc %t.o --btf %t.o --kernel-release 6.2.300-rc1 -o %t.baked.o
// RUN: %tools/kconfig-values.sh %t.baked.o | FileCheck %s --check-prefix=BAKED
#include "common.h"
#include "pass/vmlinux.h"

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
extern unsigned int __bpf_kernel_version;
extern _Bool __bpf_config_preempt_rt;
unsigned int __bpf_has_bpf_cookie;	/* a definition works too */

SEC("kprobe/f") int f(struct task_struct *t)
{
	if (__bpf_kernel_version >= KERNEL_VERSION(6, 2, 0))
		return t->pid;
	if (__bpf_config_preempt_rt || __bpf_has_bpf_cookie)
		return 7;
	return t->tgid;
}
char LICENSE[] SEC("license") = "GPL";
// SYM-DAG: NOTYPE  GLOBAL DEFAULT   UND LINUX_KERNEL_VERSION
// SYM-DAG: NOTYPE  WEAK   DEFAULT   UND CONFIG_PREEMPT_RT
// SYM-DAG: NOTYPE  WEAK   DEFAULT   UND LINUX_HAS_BPF_COOKIE
// SYM-NOT: __bpf_
// BTF-DAG: VAR 'LINUX_KERNEL_VERSION' type_id={{[0-9]+}}, linkage=extern
// BTF-DAG: VAR 'CONFIG_PREEMPT_RT' type_id={{[0-9]+}}, linkage=extern
// BTF-DAG: VAR 'LINUX_HAS_BPF_COOKIE' type_id={{[0-9]+}}, linkage=extern
// BTF-DAG: DATASEC '.kconfig' size=0 vlen=3
// ASM: R_BPF_64_64 LINUX_KERNEL_VERSION
// ASM: r{{[0-9]}} = *(u32 *)(r{{[0-9]}} + {{0|0x0}})
// EXPLAIN-DAG: byte_off {{ *}}task_struct.pid
// EXPLAIN-DAG: byte_off {{ *}}task_struct.tgid
// BAKED: CONFIG_PREEMPT_RT OBJECT WEAK @{{[0-9]+}} = 00
// BAKED: LINUX_HAS_BPF_COOKIE OBJECT WEAK @{{[0-9]+}} = 00 00 00 00
// BAKED: LINUX_KERNEL_VERSION OBJECT GLOBAL @{{[0-9]+}} = ff 02 06 00
