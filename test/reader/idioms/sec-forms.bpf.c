/* Section forms of libbpf 1.x: '?' (not loaded unless user space asks),
 * ksyscall, usdt, kprobe.multi with a pattern, uprobe without a target,
 * iter.s, fentry.s, raw_tp.w, tp_btf without the event's prefix. */
#include "idiom.h"

SEC("?raw_tp/sys_enter") int optional_prog(void *ctx) { return 0; }
SEC("ksyscall/getpid") int ksyscall_prog(void *ctx) { return 0; }
SEC("kretsyscall/getpid") int kretsyscall_prog(void *ctx) { return 0; }
SEC("usdt") int usdt_prog(void *ctx) { return 0; }
SEC("kprobe.multi/do_unlinkat*") int kmulti_prog(void *ctx) { return 0; }
SEC("iter.s/task") int iter_s_prog(void *ctx) { return 0; }
SEC("fentry.s/do_unlinkat") int fentry_s_prog(__u64 *ctx) { return 0; }
SEC("raw_tp.w/sys_enter") int raw_tp_w_prog(void *ctx) { return 0; }
SEC("tp/sched/sched_switch") int tp_prog(void *ctx) { return 0; }
SEC("tracepoint/syscalls/sys_enter_openat") int tracepoint_prog(void *ctx) { return 0; }
SEC("cgroup/connect4") int connect4_prog(struct bpf_sock_addr *ctx) { return 1; }
SEC("sk_skb/stream_verdict") int sk_skb_prog(struct __sk_buff *skb) { return SK_PASS; }
SEC("sk_msg") int sk_msg_prog(struct sk_msg_md *msg) { return SK_PASS; }
SEC("flow_dissector") int flow_prog(struct __sk_buff *skb) { return 0; }
SEC("lwt_in") int lwt_prog(struct __sk_buff *skb) { return 0; }
SEC("sk_reuseport") int reuseport_prog(struct sk_reuseport_md *ctx) { return SK_PASS; }
