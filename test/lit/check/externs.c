// relocore check: the object's externs, as libbpf resolves them at load:
// a kfunc (extern FUNC) or typed __ksym variable the target BTF lacks
// fails the whole object unless weak (a weak kfunc's call is poisoned:
// a problem where it is reachable); a .kconfig value the target's config
// cannot give fails it too (--kconfig); without the config, said as not
// decided.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DNEW -c %inputs/check/target.c -o %t.new.o
// RUN: printf 'CONFIG_HZ=250\n' > %t.config
// RUN: %relocore check %t.o --btf %t.new.o > %t.txt; echo rc=$? >> %t.txt
// RUN: FileCheck %s < %t.txt
// RUN: %relocore check %t.o --btf %t.new.o --kernel-release 6.1.0 --kconfig %t.config > %t.cfg.txt; echo rc=$? >> %t.cfg.txt
// RUN: FileCheck --check-prefix=CFG %s < %t.cfg.txt
// RUN: %relocore check %t.o --btf %t.new.o --json > %t.json 2> %t.json.err || true
// RUN: FileCheck --check-prefix=NOTE %s < %t.json.err
// NOTE: relocore check: {{.*}}new.o: not decided: .kconfig externs
// RUN: python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels'][0]; p={x['name']: x for x in k['programs']}; kinds={q['kind'] for x in p.values() for q in x['problems']}; assert 'kfunc' in kinds, kinds; print('kinds ok')" %t.json | FileCheck --check-prefix=JSON %s
#include "common.h"

extern int bpf_nosuch_kfunc(int x) __attribute__((section(".ksyms")));
extern int bpf_weak_kfunc(int x) __attribute__((section(".ksyms"), weak));
extern int do_unlinkat(int dfd) __attribute__((section(".ksyms")));
extern const int CONFIG_HZ __attribute__((section(".kconfig")));
extern const int CONFIG_NOSUCH __attribute__((section(".kconfig")));

// every program: the strong kfunc the target lacks
// CHECK-DAG: kfunc: kfunc 'bpf_nosuch_kfunc' is not in the target BTF (vmlinux or modules): libbpf refuses to load the object
// CHECK-NOT: kfunc 'do_unlinkat'
// a call to a kfunc (an ELF relocation to an extern) is no helper call
// CHECK-NOT: helper:
// CHECK-DAG: not decided: .kconfig externs (first: CONFIG_{{HZ|NOSUCH}}): the target's values are not known
SEC("kprobe/do_unlinkat") int strong(void *ctx) { return bpf_nosuch_kfunc(1) + do_unlinkat(2); }
// a weak one, reached: its call is poisoned
// CHECK-DAG: kfunc: section kprobe/do_unlinkat insn #{{[0-9]+}}: a reachable call to the weak kfunc 'bpf_weak_kfunc', which the target BTF lacks
SEC("kprobe/do_unlinkat") int weak(void *ctx) { return bpf_weak_kfunc(1); }
// with the config: CONFIG_NOSUCH is strong and not in it
// CFG-DAG: kconfig: .kconfig externs: {{.*}}CONFIG_NOSUCH
SEC("kprobe/do_unlinkat") int cfg(void *ctx) { return CONFIG_HZ + CONFIG_NOSUCH; }
// CHECK: rc=1
// CFG: rc=1
// JSON: kinds ok
char LICENSE[] SEC("license") = "GPL";
