// relocore check --kconfig: a program type the kernel registers only under
// a config option (include/linux/bpf_types.h: cgroup programs under
// CONFIG_CGROUP_BPF, tracing ones under CONFIG_BPF_EVENTS) and the
// syscalls/ tracepoints (CONFIG_FTRACE_SYSCALLS) fail on a target whose
// config lacks it ("# CONFIG_X is not set", or not there in a whole
// .config: one with CONFIG_BPF_SYSCALL=y); with the option =y, in a
// fragment that does not name it, or with no config, as before.  Found by
// relocore matrix on our minimal kernel (kernel/vm-kernel.sh), where
// cgroup_skb is refused at load (EINVAL) and syscalls/ tracepoints at
// attach (ENOENT).
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.btf.o
// RUN: printf 'CONFIG_BPF_SYSCALL=y\nCONFIG_BPF_EVENTS=y\n# CONFIG_CGROUP_BPF is not set\n' >%t.min
// RUN: printf 'CONFIG_BPF_EVENTS=y\nCONFIG_CGROUP_BPF=y\nCONFIG_FTRACE_SYSCALLS=y\n' >%t.full
// RUN: not %relocore check %t.o --btf %t.btf.o --kconfig %t.min | FileCheck --check-prefix=MIN %s
// MIN: FAIL count_egress (cgroup_skb/egress)
// MIN-NEXT: program_type: cgroup_skb/egress: the target's config has no CONFIG_CGROUP_BPF (EINVAL at load)
// MIN: FAIL enter_openat (tracepoint/syscalls/sys_enter_openat)
// MIN-NEXT: attach: tracepoint/syscalls/sys_enter_openat: the target's config has no CONFIG_FTRACE_SYSCALLS (ENOENT at attach: no such tracepoint)
// MIN: ok   on_switch (tracepoint/sched/sched_switch)
// RUN: %relocore check %t.o --btf %t.btf.o --kconfig %t.full | FileCheck --check-prefix=FULL %s
// RUN: %relocore check %t.o --btf %t.btf.o | FileCheck --check-prefix=FULL %s
// FULL: ok   count_egress (cgroup_skb/egress)
// FULL: ok   enter_openat (tracepoint/syscalls/sys_enter_openat)
// FULL: ok   on_switch (tracepoint/sched/sched_switch)
// RUN: printf 'CONFIG_KALLSYMS=y\n' >%t.frag
// RUN: %relocore check %t.o --btf %t.btf.o --kconfig %t.frag | FileCheck --check-prefix=FULL %s
// RUN: printf '# CONFIG_BPF_EVENTS is not set\nCONFIG_CGROUP_BPF=y\nCONFIG_FTRACE_SYSCALLS=y\n' >%t.noev
// RUN: not %relocore check %t.o --btf %t.btf.o --kconfig %t.noev | FileCheck --check-prefix=NOEV %s
// NOEV: ok   count_egress (cgroup_skb/egress)
// NOEV: FAIL enter_openat (tracepoint/syscalls/sys_enter_openat)
// NOEV-NEXT: program_type: tracepoint/syscalls/sys_enter_openat: the target's config has no CONFIG_BPF_EVENTS (EINVAL at load)
#ifdef TARGET
enum bpf_prog_type { BPF_PROG_TYPE_UNSPEC, BPF_PROG_TYPE_TRACEPOINT = 5,
		     BPF_PROG_TYPE_CGROUP_SKB = 8 } prog_types;
enum bpf_attach_type { BPF_CGROUP_INET_INGRESS, BPF_CGROUP_INET_EGRESS } attach_types;
enum bpf_func_id { BPF_FUNC_unspec } func_ids;
struct trace_event_raw_sched_switch { int x; } rec;
int __x64_sys_openat(void) { return 0; }
#else
#include "common.h"
SEC("cgroup_skb/egress") int count_egress(void *skb) { return 1; }
SEC("tracepoint/syscalls/sys_enter_openat") int enter_openat(void *ctx) { return 0; }
SEC("tracepoint/sched/sched_switch") int on_switch(void *ctx) { return 0; }
char LICENSE[] SEC("license") = "GPL";
#endif
