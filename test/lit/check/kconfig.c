// relocore check bakes .kconfig externs with the target's values
// (--kernel-release; with --archive, the release taken from it), so a
// branch on LINUX_KERNEL_VERSION is pruned as on that kernel.  Without a
// release the branch is unknown: both edges are taken.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -c %inputs/check/target.c -o %t.old.o
// RUN: %relocore check %t.o --btf %t.old.o --kernel-release 5.10.0-43-cloud-amd64 > %t.510.txt; echo rc=$? >> %t.510.txt
// RUN: FileCheck --check-prefix=V510 %s < %t.510.txt
// V510: ok   by_version (kprobe/do_unlinkat)
// V510-NOT: not decided
// V510: rc=0
// RUN: %relocore check %t.o --btf %t.old.o --kernel-release 6.1.0 > %t.61.txt; echo rc=$? >> %t.61.txt
// RUN: FileCheck --check-prefix=V61 %s < %t.61.txt
// V61: FAIL by_version (kprobe/do_unlinkat)
// V61-NEXT: relocation: section kprobe/do_unlinkat insn #{{[0-9]+}} byte_off task_struct.newfield
// V61: rc=1
// RUN: %relocore check %t.o --btf %t.old.o > %t.none.txt; echo rc=$? >> %t.none.txt
// RUN: FileCheck --check-prefix=NONE %s < %t.none.txt
// NONE: FAIL by_version (kprobe/do_unlinkat)
// NONE: not decided: .kconfig externs (first: LINUX_KERNEL_VERSION): the target's values are not known
// NONE: rc=1
// The archive's release names the kernel: 5.10 is ok, 6.1 is not.
// RUN: rm -f %t.rcba
// RUN: %relocore archive create -o %t.rcba 5.10.0-old=%t.old.o 6.1.0-old=%t.old.o 2> /dev/null
// RUN: %relocore check %t.o --archive %t.rcba --all 2> /dev/null > %t.all.txt; echo rc=$? >> %t.all.txt
// RUN: FileCheck --check-prefix=ALL %s < %t.all.txt
// ALL: 5.10.0-old {{ *}}1/1
// ALL-NEXT: 6.1.0-old {{ *}}0/1 {{ *}}by_version
// ALL-NEXT: rc=1
// RUN: not %relocore check %t.o --archive %t.rcba --all --kernel-release 5.10.0 2>&1 | FileCheck --check-prefix=BAD %s
// BAD: --all takes --archive, without
#include "common.h"

struct task_struct { int pid; int newfield; } PAI;
extern unsigned int LINUX_KERNEL_VERSION __kconfig;

SEC("kprobe/do_unlinkat") int by_version(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	if (LINUX_KERNEL_VERSION >= KERNEL_VERSION(5, 14, 0))
		return BPF_CORE_READ(t, newfield);
	return BPF_CORE_READ(t, pid);
}
char LICENSE[] SEC("license") = "GPL";
