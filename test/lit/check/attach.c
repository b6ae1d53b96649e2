// relocore check: attach points, helpers and program types from the target
// BTF, over one kernel (--btf) and a fleet (--archive --all).
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -c %inputs/check/target.c -o %t.old.o
// RUN: %clang_bpf -DNEW -c %inputs/check/target.c -o %t.new.o
// RUN: %relocore check %t.o --btf %t.old.o > %t.txt; echo rc=$? >> %t.txt
// RUN: FileCheck %s < %t.txt
// RUN: %relocore check %t.o --btf %t.new.o > %t.new.txt; echo rc=$? >> %t.new.txt
// RUN: FileCheck --check-prefix=NEW %s < %t.new.txt
// The fleet: one row per release of the archive.
// RUN: rm -f %t.rcba
// RUN: %relocore archive create -o %t.rcba 1.0-old=%t.old.o 2.0-new=%t.new.o
// RUN: %relocore check %t.o --archive %t.rcba --all --json > %t.json; echo rc=$? > %t.rc
// RUN: grep -qx rc=1 %t.rc
// RUN: python3 %tools/check-attach-fleet.py %t.json | FileCheck --check-prefix=FLEET %s
// FLEET: fleet ok
// RUN: %relocore check %t.o --archive %t.rcba --all > %t.fleet.txt 2> %t.fleet.err; test $? -eq 1
// RUN: FileCheck --check-prefix=TABLE %s < %t.fleet.txt
// RUN: FileCheck --check-prefix=PROGRESS %s < %t.fleet.err
// TABLE: release {{ *}}ok {{ *}}failing programs
// TABLE-NEXT: 1.0-old {{ *}}7/21 {{ *}}fe_missing fe_none {{.*}}lsm_open
// TABLE-NEXT: 2.0-new {{ *}}9/21 {{ *}}fe_missing fe_none
// PROGRESS: relocore check: [1/2] 1.0-old: {{[0-9.]+}} ms (target {{[0-9.]+}} ms, check {{[0-9.]+}} ms for 1 object(s))
// PROGRESS: relocore check: [2/2] 2.0-new: {{[0-9.]+}} ms
// PROGRESS: relocore check: 2 kernel(s) x 1 object(s) in {{[0-9]+}} ms with 1 worker(s), {{[0-9.]+}} ms per kernel per object
// The same kernels as files: --btf-dir (every *.btf, *.btf.tar.xz, vmlinux
// under it, in path order; a kernel's release is its file's name without
// .btf), --btf more than once; workers (-j) print the same, in order.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/sub && touch %t.dir/README
// RUN: cp %t.old.o %t.dir/1.0-old.btf && cp %t.new.o %t.dir/sub/2.0-new.btf
// RUN: %relocore check %t.o --btf-dir %t.dir > %t.dir.txt; test $? -eq 1
// RUN: FileCheck --check-prefix=TABLE %s < %t.dir.txt
// RUN: %relocore check %t.o --btf-dir %t.dir -j 2 > %t.dir2.txt 2> %t.dir2.err; test $? -eq 1
// RUN: cmp %t.dir.txt %t.dir2.txt
// RUN: FileCheck --check-prefix=WORKERS %s < %t.dir2.err
// WORKERS: relocore check: 2 kernel(s) x 1 object(s) in {{[0-9]+}} ms with 2 worker(s)
// RUN: %relocore check %t.o --btf %t.dir/1.0-old.btf --btf %t.dir/sub/2.0-new.btf --json -j 2 > %t.dir.json; test $? -eq 1
// RUN: python3 %tools/check-attach-fleet.py %t.dir.json | FileCheck --check-prefix=FLEET %s
// RUN: not %relocore check %t.o --btf-dir %t.dir --module %t.old.o 2>&1 | FileCheck --check-prefix=FLEETERR %s
// FLEETERR: several kernels (--btf more than once, --btf-dir) take no --archive, --base-btf, --module
// RUN: rm -rf %t.empty && mkdir %t.empty
// RUN: not %relocore check %t.o --btf-dir %t.empty 2>&1 | FileCheck --check-prefix=EMPTY %s
// EMPTY: --btf-dir {{.*}}: no kernel BTF in it (*.btf, *.btf.tar.xz, vmlinux)
// One release of the archive:
// RUN: %relocore check %t.o --archive %t.rcba --release 2.0-new --json > %t.one.json; test $? -eq 1
// RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['kernels'][0]['release'], len(d['kernels']))" %t.one.json | FileCheck --check-prefix=ONE %s
// ONE: 2.0-new 1
// A BTF without the kernel's enums and functions (a minimized one) cannot
// decide attach points or helpers: said, not counted as problems.
// RUN: echo 'struct task_struct { int pid; } t;' > %t.min.c
// RUN: %clang_bpf -c %t.min.c -o %t.min.o
// RUN: %relocore check %t.o --btf %t.min.o > %t.min.txt; echo rc=$? >> %t.min.txt
// RUN: FileCheck --check-prefix=MIN %s < %t.min.txt
// MIN-DAG: ok   fe_missing (fentry/no_such_function)
// MIN-DAG: ok   future_helper (kprobe/do_unlinkat)
// MIN-DAG: FAIL fe_none (fentry)
// MIN-DAG: FAIL unknown_sec (nosuchtype/x)
// MIN-DAG: not decided: attach points: the target BTF has no FUNC (minimized?)
// MIN-DAG: not decided: helpers: the target BTF has no enum bpf_func_id (minimized?)
// MIN: rc=1
#include "common.h"

// CHECK-DAG: ok   fe_ok (fentry/vfs_read)
SEC("fentry/vfs_read") int fe_ok(void *ctx) { return 0; }
// CHECK-DAG: FAIL fe_missing (fentry/no_such_function)
// CHECK-DAG: attach: fentry/no_such_function: no FUNC 'no_such_function' in the target BTF
// NEW-DAG: FAIL fe_missing
SEC("fentry/no_such_function") int fe_missing(void *ctx) { return 0; }
// CHECK-DAG: FAIL fe_none (fentry)
// CHECK-DAG: attach: needs an attach target from user space
SEC("fentry") int fe_none(void *ctx) { return 0; }
// A libbpf-tools placeholder: user space sets the real target.
// CHECK-DAG: FAIL fe_dummy (fentry/dummy_file_read)
// CHECK-DAG: attach: needs an attach target from user space: 'dummy_file_read' (section fentry/dummy_file_read) is a placeholder
SEC("fentry/dummy_file_read") int fe_dummy(void *ctx) { return 0; }
// xdp-tools' placeholders (bpf_program__set_attach_target before the
// load), and a kprobe name no kernel symbol can have (user space opens
// that kprobe itself): said as such, not as a missing function
// CHECK-DAG: FAIL fe_func (fentry/func)
// CHECK-DAG: attach: needs an attach target from user space: 'func' (section fentry/func) is a placeholder
SEC("fentry/func") int fe_func(void *ctx) { return 0; }
// CHECK-DAG: FAIL kp_skb (kprobe/skb-1)
// CHECK-DAG: attach: needs an attach target from user space: 'skb-1' (section kprobe/skb-1) is a placeholder
SEC("kprobe/skb-1") int kp_skb(void *ctx) { return 0; }
// a compiler's clone (name.isra.0) is a kernel symbol: missing, not a placeholder
// CHECK-DAG: FAIL kp_clone (kprobe/do_nothing.isra.0)
// CHECK-DAG: attach: kprobe/do_nothing.isra.0: function 'do_nothing.isra.0' not in BTF: may be inlined or static
SEC("kprobe/do_nothing.isra.0") int kp_clone(void *ctx) { return 0; }
// CHECK-DAG: ok   kp_off (kprobe/vfs_read+4)
SEC("kprobe/vfs_read+4") int kp_off(void *ctx) { return 0; }
// CHECK-DAG: FAIL kp_missing (kprobe/inlined_thing)
// CHECK-DAG: attach: kprobe/inlined_thing: function 'inlined_thing' not in BTF: may be inlined or static
SEC("kprobe/inlined_thing") int kp_missing(void *ctx) { return 0; }
// Syscall wrappers: BTF may hold only __do_sys_NAME; the kernel's wrapper
// prefix is the one of its __<arch>_sys_bpf.
// CHECK-DAG: ok   kp_getpid (kprobe/__x64_sys_getpid)
SEC("kprobe/__x64_sys_getpid") int kp_getpid(void *ctx) { return 0; }
// CHECK-DAG: FAIL kp_arm (kprobe/__arm64_sys_getpid)
// CHECK-DAG: attach: kprobe/__arm64_sys_getpid: this kernel's syscall wrappers are __x64_sys_*, not __arm64_sys_*
SEC("kprobe/__arm64_sys_getpid") int kp_arm(void *ctx) { return 0; }
// CHECK-DAG: FAIL kp_nosys (kretprobe/__x64_sys_nosuch)
// CHECK-DAG: attach: kretprobe/__x64_sys_nosuch: no syscall 'nosuch' in the target BTF
SEC("kretprobe/__x64_sys_nosuch") int kp_nosys(void *ctx) { return 0; }
// CHECK-DAG: ok   tp_sys (tracepoint/syscalls/sys_enter_openat)
SEC("tracepoint/syscalls/sys_enter_openat") int tp_sys(void *ctx) { return 0; }
// CHECK-DAG: ok   tp_sched (tracepoint/sched/sched_switch)
SEC("tracepoint/sched/sched_switch") int tp_sched(void *ctx) { return 0; }
// CHECK-DAG: FAIL tp_missing (tp/sched/sched_nosuch)
// CHECK-DAG: attach: tracepoint sched/sched_nosuch: neither struct trace_event_raw_sched_nosuch nor typedef btf_trace_sched_nosuch
SEC("tp/sched/sched_nosuch") int tp_missing(void *ctx) { return 0; }
// CHECK-DAG: ok   tpbtf (tp_btf/sched_switch)
SEC("tp_btf/sched_switch") int tpbtf(void *ctx) { return 0; }
// (tp_btf/sched_switch attaches: its raw_tp twin is not loaded, as relocore run decides)
// CHECK-DAG: --   rawtp (raw_tp/sched_switch): not loaded
SEC("raw_tp/sched_switch") int rawtp(void *ctx) { return 0; }
// CHECK-DAG: FAIL tpbtf_missing (tp_btf/sched_nosuch)
// CHECK-DAG: attach: tp_btf/sched_nosuch: no typedef 'btf_trace_sched_nosuch'
SEC("tp_btf/sched_nosuch") int tpbtf_missing(void *ctx) { return 0; }
// The old kernel has no BPF_PROG_TYPE_LSM:
// CHECK-DAG: FAIL lsm_open (lsm/file_open)
// CHECK-DAG: program_type: BPF_PROG_TYPE_LSM (section lsm/file_open) is not in this kernel's enum bpf_prog_type
// NEW-DAG: ok   lsm_open (lsm/file_open)
SEC("lsm/file_open") int lsm_open(void *ctx) { return 0; }
// CHECK-DAG: FAIL unknown_sec (nosuchtype/x)
// CHECK-DAG: program_type: section 'nosuchtype/x' names no program type libbpf knows
SEC("nosuchtype/x") int unknown_sec(void *ctx) { return 0; }

// Helper #200 is only in the new kernel's enum bpf_func_id.
static long (*bpf_future)(void) = (void *)200;
// CHECK-DAG: FAIL future_helper (kprobe/do_unlinkat)
// CHECK-DAG: helper: section kprobe/do_unlinkat insn #{{[0-9]+}}: helper #200 is not in this kernel's enum bpf_func_id
// NEW-DAG: ok   future_helper (kprobe/do_unlinkat)
SEC("kprobe/do_unlinkat") int future_helper(void *ctx) { return bpf_future(); }
// A known helper behind a constant branch the other way: still checked.
// CHECK-DAG: ok   known_helper (kprobe/do_unlinkat)
SEC("kprobe/do_unlinkat") int known_helper(void *ctx) { return bpf_get_current_task() != 0; }

// CHECK: rc=1
// NEW: rc=1
char LICENSE[] SEC("license") = "GPL";
