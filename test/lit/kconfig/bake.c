// relocore reloc --kernel-release/--kconfig bakes the .kconfig externs
// (what libbpf fills at load time for the running kernel) for an offline
// target: they become read-only globals of .rodata.kconfig, with libbpf's
// value rules.  Stock clang's `extern ... __kconfig` here; the plugin's
// __bpf_* globals (pass/kconfig.c) are the same externs.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
// RUN: %clang_bpf -DTARGET -DOLD -c %s -o %t.old.o
// RUN: %relocore reloc %t.o --btf %t.target.o --kernel-release 6.1.0-27-cloud-amd64 \
// RUN:   --kconfig %inputs/kconfig/target.config -o %t.baked.o 2>&1 | FileCheck %s --check-prefix=NOTE
// RUN: %tools/kconfig-values.sh %t.baked.o | FileCheck %s --check-prefix=VAL
// RUN: bpftool btf dump file %t.baked.o | FileCheck %s --check-prefix=BTF
// RUN: llvm-readelf -S -s %t.baked.o | FileCheck %s --check-prefix=ELF
// the same from a gzip'ed config (/proc/config.gz):
// RUN: gzip -c %inputs/kconfig/target.config > %t.config.gz
// RUN: %relocore reloc %t.o --btf %t.target.o --kernel-release 6.1.0-27-cloud-amd64 \
// RUN:   --kconfig %t.config.gz -o %t.baked2.o
// RUN: cmp %t.baked.o %t.baked2.o
// RUN: %relocore reloc %t.o --btf %t.target.o --kernel-release 6.1.0-27-cloud-amd64 \
// RUN:   --kconfig %t.config.gz -o %t.baked3.o --json | FileCheck %s --check-prefix=JSON
// RUN: cmp %t.baked.o %t.baked3.o
// stock libbpf (bpftool) opens it: a .rodata.kconfig data map, no externs
// RUN: bpftool gen skeleton %t.baked.o name baked | FileCheck %s --check-prefix=SKEL --implicit-check-not=baked.kconfig
// a target without bpf_get_attach_cookie and sys_bpf wrapper; release
// patch level > 255 is capped as libbpf does
// RUN: %relocore reloc %t.o --btf %t.old.o --kernel-release 4.19.300 \
// RUN:   --kconfig %inputs/kconfig/target.config -o %t.old.baked.o
// RUN: %tools/kconfig-values.sh %t.old.baked.o | FileCheck %s --check-prefix=OLD
#include "common.h"

#ifndef TARGET
extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern _Bool LINUX_HAS_BPF_COOKIE __kconfig __weak;
extern _Bool LINUX_HAS_SYSCALL_WRAPPER __kconfig __weak;
extern unsigned long long LINUX_SOMETHING_NEW __kconfig __weak;
extern int CONFIG_HZ __kconfig;
extern _Bool CONFIG_BPF_SYSCALL __kconfig;
extern enum libbpf_tristate CONFIG_NF_CONNTRACK __kconfig;
extern char CONFIG_TRI_CHAR __kconfig;
extern char CONFIG_LOCALVERSION[8] __kconfig;
extern _Bool CONFIG_PREEMPT_RT __kconfig __weak;
extern short CONFIG_NEG __kconfig;
extern unsigned long CONFIG_HEX __kconfig;
extern _Bool CONFIG_NOTSET __kconfig;

SEC("socket") int prog(void *ctx)
{
	if (LINUX_KERNEL_VERSION < 0x50000 || CONFIG_PREEMPT_RT)
		return 1;
	return CONFIG_HZ + CONFIG_BPF_SYSCALL + CONFIG_NF_CONNTRACK + CONFIG_TRI_CHAR +
	       CONFIG_LOCALVERSION[1] + CONFIG_NEG + CONFIG_HEX + CONFIG_NOTSET +
	       LINUX_HAS_BPF_COOKIE + LINUX_HAS_SYSCALL_WRAPPER + LINUX_SOMETHING_NEW;
}
#else
/* what a kernel's BTF says about bpf cookies and syscall wrappers */
#ifndef OLD
enum bpf_func_id { BPF_FUNC_unspec, BPF_FUNC_get_attach_cookie = 174 };
__attribute__((noinline)) int __x64_sys_bpf(int x) { return x + 1; }
SEC("socket") int tprog(void *ctx) { return __x64_sys_bpf(1); }
#else
enum bpf_func_id { BPF_FUNC_unspec, BPF_FUNC_map_lookup_elem };
#endif
enum bpf_func_id some_var;
#endif
char LICENSE[] SEC("license") = "GPL";
// JSON: "output":"{{.*}}baked3.o","kconfig_baked":13,"relocations":[]
// NOTE: relocore: {{.*}}.o: 13 .kconfig extern(s) baked for 6.1.0-27-cloud-amd64
// VAL-DAG: CONFIG_BPF_SYSCALL OBJECT GLOBAL @{{[0-9]+}} = 01
// VAL-DAG: CONFIG_HEX OBJECT GLOBAL @{{[0-9]+}} = aa 00 00 ff 7f 00 00 00
// VAL-DAG: CONFIG_HZ OBJECT GLOBAL @{{[0-9]+}} = fa 00 00 00
// VAL-DAG: CONFIG_LOCALVERSION OBJECT GLOBAL @{{[0-9]+}} = 2d 72 63 22 78 00 00 00
// VAL-DAG: CONFIG_NEG OBJECT GLOBAL @{{[0-9]+}} = fb ff
// VAL-DAG: CONFIG_NF_CONNTRACK OBJECT GLOBAL @{{[0-9]+}} = 02 00 00 00
// VAL-DAG: CONFIG_NOTSET OBJECT GLOBAL @{{[0-9]+}} = 00
// VAL-DAG: CONFIG_PREEMPT_RT OBJECT WEAK @{{[0-9]+}} = 00
// VAL-DAG: CONFIG_TRI_CHAR OBJECT GLOBAL @{{[0-9]+}} = 6d
// VAL-DAG: LINUX_HAS_BPF_COOKIE OBJECT WEAK @{{[0-9]+}} = 01
// VAL-DAG: LINUX_HAS_SYSCALL_WRAPPER OBJECT WEAK @{{[0-9]+}} = 01
// VAL-DAG: LINUX_KERNEL_VERSION OBJECT GLOBAL @{{[0-9]+}} = 00 01 06 00
// VAL-DAG: LINUX_SOMETHING_NEW OBJECT WEAK @{{[0-9]+}} = 00 00 00 00 00 00 00 00
// BTF: VAR 'LINUX_KERNEL_VERSION' type_id={{[0-9]+}}, linkage=global
// BTF-NOT: linkage=extern
// BTF: DATASEC '.rodata.kconfig' size={{[1-9][0-9]*}} vlen=13
// ELF: .rodata.kconfig PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} {{[0-9a-f]+}} 00 A 0 0 8
// ELF-NOT: {{GLOBAL|WEAK}} DEFAULT UND
// SKEL: struct baked__rodata_kconfig {
// SKEL: s->maps[{{[0-9]}}].name = ".rodata.kconfig";

// OLD-DAG: LINUX_HAS_BPF_COOKIE OBJECT WEAK @{{[0-9]+}} = 00
// OLD-DAG: LINUX_HAS_SYSCALL_WRAPPER OBJECT WEAK @{{[0-9]+}} = 00
// OLD-DAG: LINUX_KERNEL_VERSION OBJECT GLOBAL @{{[0-9]+}} = ff 13 04 00
