// relocore check --kconfig: a kernel built without the BPF JIT (a whole
// config with no CONFIG_BPF_JIT=y: Debian's s390x kernels, built for z10,
// whose JIT needs z196) runs programs in the interpreter, which has no BPF
// trampoline and calls no kernel function.  Found by relocore matrix in an
// s390x guest: fentry programs were refused at load (ENOMEM), kfunc calls
// with "JIT is required for calling kernel function" (ENOTSUPP), where
// check had said ok; raw tracepoints and kprobes loaded and attached.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DNEW -c %inputs/check/target.c -o %t.btf.o
// RUN: printf '# comment\nCONFIG_BPF_SYSCALL=y\nCONFIG_BPF_EVENTS=y\n' >%t.nojit
// RUN: printf '# comment\nCONFIG_BPF_SYSCALL=y\nCONFIG_BPF_EVENTS=y\nCONFIG_BPF_JIT=y\n' >%t.jit
// RUN: not %relocore check %t.o --btf %t.btf.o --kconfig %t.nojit | FileCheck --check-prefix=NOJIT %s
// NOJIT: FAIL on_unlink (fentry/do_unlinkat)
// NOJIT-NEXT: program_type: fentry/do_unlinkat: the target's config has no CONFIG_BPF_JIT: programs run in the interpreter, and a BPF trampoline needs the JIT (the kernel refuses it)
// NOJIT: FAIL kfunc_call (kprobe/vfs_read)
// NOJIT-NEXT: kfunc: section kprobe/vfs_read insn #{{[0-9]+}}: calls the kfunc 'do_rmdir', and the target's config has no CONFIG_BPF_JIT: the interpreter calls no kernel function (ENOTSUPP at load)
// NOJIT: ok   plain (kprobe/__x64_sys_bpf)
// NOJIT: ok   on_switch (raw_tracepoint/sched_switch)
// RUN: %relocore check %t.o --btf %t.btf.o --kconfig %t.jit | FileCheck --check-prefix=JIT %s
// RUN: %relocore check %t.o --btf %t.btf.o | FileCheck --check-prefix=JIT %s
// JIT: ok   on_unlink (fentry/do_unlinkat)
// JIT: ok   kfunc_call (kprobe/vfs_read)
// JIT: ok   plain (kprobe/__x64_sys_bpf)
// JIT: ok   on_switch (raw_tracepoint/sched_switch)
#include "common.h"

extern int do_rmdir(int dfd) __attribute__((section(".ksyms")));

SEC("fentry/do_unlinkat") int on_unlink(void *ctx) { return 0; }
SEC("kprobe/vfs_read") int kfunc_call(void *ctx) { return do_rmdir(1); }
SEC("kprobe/__x64_sys_bpf") int plain(void *ctx) { return 0; }
SEC("raw_tracepoint/sched_switch") int on_switch(void *ctx) { return 0; }
char LICENSE[] SEC("license") = "GPL";
