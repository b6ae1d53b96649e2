/* One program of each section kind libbpf 1.1 knows at open, several in
 * one section, none auto-attachable without user space. */
#include "idiom.h"

SEC("xdp") int xdp_a_prog(struct xdp_md *ctx) { return XDP_PASS; }
SEC("xdp") int xdp_b_prog(struct xdp_md *ctx) { return XDP_DROP; }
SEC("tc") int tc_prog_prog(struct __sk_buff *skb) { return 0; }
SEC("cgroup_skb/ingress") int cg_skb_prog(struct __sk_buff *skb) { return 1; }
SEC("cgroup/sock_create") int cg_sock_prog(struct bpf_sock *sk) { return 1; }
SEC("cgroup/sysctl") int cg_sysctl_prog(struct bpf_sysctl *ctx) { return 1; }
SEC("sockops") int sockops_prog(struct bpf_sock_ops *ctx) { return 1; }
SEC("sk_lookup") int sk_lookup_prog(struct bpf_sk_lookup *ctx) { return SK_PASS; }
SEC("socket") int socket_filter_prog(struct __sk_buff *skb) { return 0; }
SEC("perf_event") int perf_prog(void *ctx) { return 0; }
SEC("lsm/file_open") int lsm_open_prog(__u64 *ctx) { return 0; }
SEC("lsm.s/bprm_check_security") int lsm_sleepable_prog(__u64 *ctx) { return 0; }
SEC("iter/task") int iter_task_prog(void *ctx) { return 0; }
SEC("syscall") int sys_prog_prog(void *ctx) { return 0; }
SEC("tp/syscalls/sys_enter_getpid") int tp_prog(void *ctx) { return 0; }
SEC("tp_btf/sched_switch") int tpbtf_prog(__u64 *ctx) { return 0; }
SEC("uprobe") int up_prog(void *ctx) { return 0; }
SEC("uretprobe//bin/sh:main") int urp_prog(void *ctx) { return 0; }
SEC("kretprobe/do_exit") int krp_prog(void *ctx) { return 0; }
SEC("fmod_ret/security_file_open") int fmod_prog(__u64 *ctx) { return 0; }
