// relocore check answers for the object as its user space loads it (the
// load options of relocore run) and bounds what a program reads of its
// context by what the target gives: a function's arguments (fentry), a
// tracepoint's (tp_btf), a scalar argument is no pointer to read through.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DNEW -c %inputs/check/target.c -o %t.new.o
// RUN: %relocore check %t.o --btf %t.new.o > %t.txt; echo rc=$? >> %t.txt
// RUN: FileCheck %s < %t.txt
// RUN: %relocore check %t.o --btf %t.new.o --no-autoload fe_args --attach-target kp_dummy=no_such_fn,do_rmdir --map-size sized=64 --uprobe up=/bin/sh:main --optional tp_missing --perf-event pe=cpu-clock > %t.opts.txt; echo rc=$? >> %t.opts.txt
// RUN: FileCheck --check-prefix=OPTS %s < %t.opts.txt
// RUN: %relocore check %t.o --btf %t.new.o --json --no-autoload fe_args,fe_twin > %t.json || true
// RUN: python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels'][0]; n=[x['name'] for x in k['not_loaded']]; assert 'fe_args' in n and 'fe_twin' in n, n; p={x['name']: x for x in k['programs']}; assert 'kp_twin' in p and 'fe_args' not in p, p; print('json ok')" %t.json | FileCheck --check-prefix=JSON %s
// a program-name list takes shell globs (a probe's hundreds of programs):
// RUN: %relocore check %t.o --btf %t.new.o --json --no-autoload 'fe_*' > %t.glob.json || true
// RUN: python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels'][0]; n=sorted(x['name'] for x in k['not_loaded'] if x['name'].startswith('fe')); p=[x['name'] for x in k['programs']]; assert n == ['fe_args', 'fe_scalar', 'fe_twin'], n; assert 'kp_twin' in p and not [x for x in p if x.startswith('fe_')], p; print('glob ok')" %t.glob.json | FileCheck --check-prefix=GLOB %s
// GLOB: glob ok
// RUN: %relocore check %t.o --btf %t.new.o --no-kernel-btf > %t.nokbtf.txt; echo rc=$? >> %t.nokbtf.txt
// RUN: FileCheck --check-prefix=NOKBTF %s < %t.nokbtf.txt
// RUN: not %relocore check %t.o --btf %t.new.o --map-size sized 2> %t.err
// RUN: FileCheck --check-prefix=BAD %s < %t.err
#include "common.h"

typedef unsigned long long u64;

struct {
	__uint(type, 1);	/* HASH */
	__type(key, int);
	__type(value, int);
	__uint(max_entries, 0);
} sized SEC(".maps");

/* vfs_read(int fd): one argument; reading a second is refused */
// CHECK-DAG: FAIL fe_args (fentry/vfs_read)
// CHECK-DAG: attach: fentry/vfs_read: insn #{{[0-9]+}} reads the context up to byte 16, but function vfs_read takes 1 argument: the verifier refuses the load
// OPTS-DAG: --   fe_args (fentry/vfs_read): not loaded
SEC("fentry/vfs_read") int fe_args(u64 *ctx) { return ctx[1] != 0; }
/* ...and its only argument is an int: no pointer to read through */
// CHECK-DAG: reads memory through argument 0 of the context, a scalar on the target (int fd)
SEC("fentry/vfs_read") int fe_scalar(u64 *ctx) { return *(int *)ctx[0]; }

/* fentry and kprobe twins on do_unlinkat: the fentry one attaches, the
 * kprobe one is not loaded (as relocore run decides) */
// (without --map-size every program has the map's problem, below)
// CHECK-DAG: FAIL fe_twin (fentry/do_unlinkat)
// CHECK-DAG: --   kp_twin (kprobe/do_unlinkat): not loaded
// OPTS-DAG: ok   fe_twin (fentry/do_unlinkat)
// NOKBTF-DAG: --   fe_twin (fentry/do_unlinkat): not loaded
// NOKBTF-DAG: FAIL kp_twin (kprobe/do_unlinkat)
// NOKBTF-DAG: attaches through the kernel's own BTF, and the target kernel has none
SEC("fentry/do_unlinkat") int fe_twin(void *ctx) { return 0; }
SEC("kprobe/do_unlinkat") int kp_twin(void *ctx) { return 0; }

/* a sleepable fentry is an fentry: its kprobe twin is not loaded either
 * (relocore run decides alike: check/progtype.c's one twin policy) */
// CHECK-DAG: FAIL fes_twin (fentry.s/__x64_sys_bpf)
// CHECK-DAG: --   kps_twin (kprobe/__x64_sys_bpf): not loaded
// OPTS-DAG: ok   fes_twin (fentry.s/__x64_sys_bpf)
// OPTS-DAG: --   kps_twin (kprobe/__x64_sys_bpf): not loaded
// NOKBTF-DAG: --   fes_twin (fentry.s/__x64_sys_bpf): not loaded
// NOKBTF-DAG: FAIL kps_twin (kprobe/__x64_sys_bpf)
SEC("fentry.s/__x64_sys_bpf") int fes_twin(void *ctx) { return 0; }
SEC("kprobe/__x64_sys_bpf") int kps_twin(void *ctx) { return 0; }

/* a placeholder user space replaces; with --attach-target the first the
 * target has */
// CHECK-DAG: FAIL kp_dummy (kprobe/dummy_fn)
// CHECK-DAG: needs an attach target from user space
// OPTS-DAG: ok   kp_dummy (kprobe/dummy_fn)
SEC("kprobe/dummy_fn") int kp_dummy(void *ctx) { return 0; }

/* uprobes and perf events: user space attaches them */
// CHECK-DAG: FAIL up (uprobe)
// CHECK-DAG: needs a binary and function from user space (section 'uprobe' names no BINARY:FUNC)
// OPTS-DAG: ok   up (uprobe)
SEC("uprobe") int up(void *ctx) { return 0; }
// CHECK-DAG: needs perf events opened by user space
// OPTS-DAG: ok   pe (perf_event)
SEC("perf_event") int pe(void *ctx) { return 0; }

/* --optional: not loaded where the target lacks the attach point */
// CHECK-DAG: FAIL tp_missing (tp_btf/sched_nosuch)
// OPTS-DAG: --   tp_missing (tp_btf/sched_nosuch): not loaded
SEC("tp_btf/sched_nosuch") int tp_missing(void *ctx) { return 0; }

/* the map: --map-size sizes it for every program */
// CHECK-DAG: map: map sized: needs max_entries from user space
// OPTS-NOT: map sized: needs
// CHECK: rc=1
// (fe_scalar reads through a scalar, option or not)
// OPTS: rc=1
// JSON: json ok
// BAD: --map-size takes MAP=N
char LICENSE[] SEC("license") = "GPL";
