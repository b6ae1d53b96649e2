/* struct_ops: programs in struct_ops/ sections and a .struct_ops map of
 * the kernel's struct tcp_congestion_ops pointing at them. */
#include "idiom.h"

struct sock;
struct tcp_congestion_ops {
	void (*init)(struct sock *sk);
	__u32 (*ssthresh)(struct sock *sk);
	void (*cong_avoid)(struct sock *sk, __u32 ack, __u32 acked);
	__u32 (*undo_cwnd)(struct sock *sk);
	char name[16];
} PAI;

SEC("struct_ops/idiom_init")
void idiom_init(__u64 *ctx) { }
SEC("struct_ops/idiom_ssthresh")
__u32 idiom_ssthresh(__u64 *ctx) { return 2; }
SEC("struct_ops/idiom_cong_avoid")
void idiom_cong_avoid(__u64 *ctx) { }
SEC("struct_ops/idiom_undo_cwnd")
__u32 idiom_undo_cwnd(__u64 *ctx) { return 2; }

SEC(".struct_ops")
struct tcp_congestion_ops idiom_cc = {
	.init = (void *)idiom_init,
	.ssthresh = (void *)idiom_ssthresh,
	.cong_avoid = (void *)idiom_cong_avoid,
	.undo_cwnd = (void *)idiom_undo_cwnd,
	.name = "idiom_cc",
};
