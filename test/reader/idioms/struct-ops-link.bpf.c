/* struct_ops in .struct_ops.link (libbpf 1.2+: attached through a BPF
 * link); libbpf 1.1 does not know the section. */
#include "idiom.h"

struct sock;
struct tcp_congestion_ops {
	__u32 (*ssthresh)(struct sock *sk);
	void (*cong_avoid)(struct sock *sk, __u32 ack, __u32 acked);
	__u32 (*undo_cwnd)(struct sock *sk);
	char name[16];
} PAI;

SEC("struct_ops/link_ssthresh")
__u32 link_ssthresh(__u64 *ctx) { return 2; }
SEC("struct_ops/link_cong_avoid")
void link_cong_avoid(__u64 *ctx) { }
SEC("struct_ops/link_undo_cwnd")
__u32 link_undo_cwnd(__u64 *ctx) { return 2; }

SEC(".struct_ops.link")
struct tcp_congestion_ops idiom_cc_link = {
	.ssthresh = (void *)link_ssthresh,
	.cong_avoid = (void *)link_cong_avoid,
	.undo_cwnd = (void *)link_undo_cwnd,
	.name = "idiom_cc_link",
};
