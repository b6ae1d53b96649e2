// Errors name the source line: no debug info (-g is required), line tables
// only, a bitfield store.  Exit status is non-zero.
// RUN: %clang_bpf -c %inputs/pass/target.c -o %t.target.o
// RUN: not %clang_plugin -g0 -O2 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOG
// RUN: not %clang_plugin -g0 -O2 -c %s -o %t.o -mllvm -relocore-kernel-btf=%t.target.o 2>&1 | FileCheck %s --check-prefix=NOGBTF
// RUN: not %clang_plugin -gline-tables-only -O2 -c %s -o %t.o -mllvm -relocore-kernel-btf=%t.target.o 2>&1 | FileCheck %s --check-prefix=LINES
// RUN: not %clang_plugin -O2 -DBFWRITE -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BF
// RUN: not %clang_plugin -O2 -c %s -o %t.o -mllvm -relocore-kernel-btf=%t.missing 2>&1 | FileCheck %s --check-prefix=NOFILE
#include "pass/vmlinux.h"

__attribute__((section("kprobe/f"))) int f(struct task_struct *t)
{
	return t->tgid;
}
// NOG: pass/errors.c:[[#@LINE-4]]:{{[0-9]+}}: error: relocore: no type debug info: kernel types cannot be recognized and nothing is relocated (compile with -g) (in function f; no source line: compile with -g)
// NOGBTF: error: relocore: cannot relocate an access to kernel type 'struct task_struct': no type debug info (compile with -g) (in function f
// LINES: pass/errors.c:13:12: error: relocore: cannot relocate an access to kernel type 'struct task_struct': no type debug info (compile with -g)
// NOFILE: error: relocore: cannot read {{.*}}.missing

#ifdef BFWRITE
__attribute__((section("fentry/g"))) int g(struct task_struct *t)
{
	t->in_iowait = 1;
	return 0;
}
// BF: pass/errors.c:[[#@LINE-3]]:5: error: relocore: cannot relocate this use of a bitfield of 'task_struct' (only reads of a bitfield are relocated)
#endif
