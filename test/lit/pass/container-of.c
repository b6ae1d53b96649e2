// container_of(ptr, kernel type, member): clang folds offsetof() to a
// constant; the plugin finds the member at that offset of the local layout
// (debug info) and relocates it (byte_off, as bpf_core_field_offset), so
// the containing object is found on the target's layout too.
// RUN: %clang_bpf -c %inputs/pass/target.c -o %t.target.o
// RUN: %clang_plugin -O2 -c %s -o %t.o -Rpass=relocore -Rpass-missed=relocore 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %relocore explain %t.o --btf %t.target.o | FileCheck %s --check-prefix=EXPLAIN
// RUN: %clang_plugin -O0 -c %s -o %t.0.o
// RUN: %relocore explain %t.0.o --btf %t.target.o | FileCheck %s --check-prefix=EXPLAIN
#include "common.h"
#include "pass/vmlinux.h"
/* container_of: libbpf's (bpf_helpers.h, its offsetof is pointer-based);
 * and the kernel's, with the builtin (a plain constant) */
#define kcontainer_of(ptr, type, member) ({ \
	void *__mptr = (void *)(ptr); ((type *)(__mptr - __builtin_offsetof(type, member))); })

struct mine { u64 a; struct list_head link; u32 v; };	/* program-local */

SEC("fentry/f") int f(u64 *ctx)
{
	struct list_head *lh = (void *)ctx[0];
	struct task_struct *t = container_of(lh, struct task_struct, tasks);
	struct mine *m = container_of(lh, struct mine, link);
	u32 *hi = (void *)ctx[1];
	struct task_struct *u = container_of(hi, struct task_struct, start_words.hi);
	struct task_struct *w = kcontainer_of(ctx[2], struct task_struct, sched.last);
	struct task_struct *x = kcontainer_of(ctx[3], struct task_struct, tasks);

	return t->tgid + m->v + u->tgid + w->tgid + x->tgid;
}
char LICENSE[] SEC("license") = "GPL";
// REMARK-DAG: pass/container-of.c:22:{{[0-9]+}}: remark: relocated container_of offset task_struct.tasks
// REMARK-DAG: pass/container-of.c:25:{{[0-9]+}}: remark: container_of: no member of 'task_struct' at offset 44: not relocated
// REMARK-DAG: pass/container-of.c:26:{{[0-9]+}}: remark: relocated container_of offset task_struct.sched.last
// REMARK-DAG: pass/container-of.c:27:{{[0-9]+}}: remark: relocated container_of offset task_struct.tasks
// REMARK-NOT: mine
// EXPLAIN-DAG: byte_off {{ *}}task_struct.tasks {{.*}}  128 -> 192
// EXPLAIN-DAG: byte_off {{ *}}task_struct.sched.last {{.*}}  80 -> 24
// EXPLAIN-DAG: byte_off {{ *}}task_struct.tgid {{.*}}  12 -> 12
