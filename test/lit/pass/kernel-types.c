// Which types are relocated.  By default: records declared in a vmlinux.h.
// With -relocore-kernel-btf=FILE: records whose name FILE has, unless
// declared in the main file; -relocore-local-types / -relocore-kernel-types
// override.  -relocore=false turns the plugin off.
// RUN: %clang_bpf -c %inputs/pass/target.c -o %t.target.o
// the same kernel types in a header not named vmlinux.h (-DOWN_HEADER):
// RUN: rm -rf %t.d && mkdir -p %t.d && cp %inputs/pass/vmlinux.h %t.d/kernel-types.h
// RUN: %clang_plugin -O2 -c %s -o %t.o -Rpass=relocore 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: %clang_plugin -O2 -DOWN_HEADER -I%t.d -c %s -o %t.o -Rpass=relocore 2>&1 | FileCheck %s --check-prefix=NONE --allow-empty
// RUN: %clang_plugin -O2 -DOWN_HEADER -I%t.d -c %s -o %t.o -Rpass=relocore -mllvm -relocore-kernel-btf=%t.target.o 2>&1 | FileCheck %s --check-prefix=BTF
// RUN: %clang_plugin -O2 -c %s -o %t.o -Rpass=relocore -mllvm -relocore-local-types=cred 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: %clang_plugin -O2 -c %s -o %t.o -Rpass=relocore -mllvm -relocore-kernel-types=event 2>&1 | FileCheck %s --check-prefix=KTYPES
// RUN: %clang_plugin -O2 -c %s -o %t.o -Rpass=relocore -mllvm -relocore=false 2>&1 | FileCheck %s --check-prefix=NONE --allow-empty
#ifdef OWN_HEADER
/* kernel types from a header not named vmlinux.h (a copy of
 * Inputs/pass/vmlinux.h made by the RUN line): known through the BTF */
#include "kernel-types.h"
#else
#include "pass/vmlinux.h"
#endif

struct event { u32 pid; u32 uid; };	/* the program's own */

__attribute__((section("kprobe/f"))) int f(struct task_struct *t, struct event *e)
{
	e->pid = t->pid;
	e->uid = t->real_cred->uid.val;
	return 0;
}
// DEFAULT-DAG: remark: relocated task_struct.pid (bpf_probe_read_kernel)
// DEFAULT-DAG: remark: relocated task_struct.real_cred (bpf_probe_read_kernel)
// DEFAULT-DAG: remark: relocated cred.uid.val (bpf_probe_read_kernel)
// DEFAULT-NOT: event
// NONE-NOT: remark
// BTF-DAG: remark: relocated task_struct.pid
// BTF-DAG: remark: relocated cred.uid.val
// BTF-NOT: event
// LOCAL-DAG: remark: relocated task_struct.real_cred
// LOCAL-NOT: cred.uid
// KTYPES-DAG: remark: relocated event.pid
// KTYPES-DAG: remark: relocated event.uid
