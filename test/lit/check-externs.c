// relocore check does not yet decide kfuncs, __ksym and .kconfig externs:
// it says so ("not decided"), and does not take a kfunc call for a helper.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -c %inputs/check/target.c -o %t.old.o
// RUN: %relocore check %t.o --btf %t.old.o > %t.txt; echo rc=$? >> %t.txt
// RUN: FileCheck %s < %t.txt
// RUN: %relocore check %t.o --btf %t.old.o --json 2>&1 >/dev/null | FileCheck --check-prefix=JSON %s
// CHECK: ok   kf (kprobe/do_unlinkat)
// CHECK-NOT: helper:
// CHECK: not decided: externs (kfuncs, __ksym, .kconfig; first: bpf_some_kfunc): not checked
// CHECK: rc=0
// JSON: relocore check: {{.*}}old.o: not decided: externs
#include "common.h"

extern int bpf_some_kfunc(int x) __ksym;
SEC("kprobe/do_unlinkat") int kf(void *ctx) { return bpf_some_kfunc(1); }
char LICENSE[] SEC("license") = "GPL";
