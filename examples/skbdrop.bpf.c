// SPDX-License-Identifier: MIT
/*
 * skbdrop: count packet drops by reason (tracepoint skb/kfree_skb) and send
 * an event to user space for the reasons worth a look (no socket, bad
 * checksum, netfilter).
 *
 * The numbering of enum skb_drop_reason changes between kernels (e.g.
 * SKB_DROP_REASON_NO_SOCKET is 2 in 6.1 and 3 in 6.12), so every reason the
 * program names is resolved with bpf_core_enum_value(), and the size of the
 * counter table comes from SKB_DROP_REASON_MAX of the running kernel.
 *
 * CO-RE features used:
 *   - bpf_core_enum_value / bpf_core_enum_value_exists, including a flavor
 *     enum for a reason that the 6.1 headers do not know yet (QUEUE_PURGE)
 *   - bpf_core_type_exists / bpf_core_type_size on an enum that is only in
 *     newer kernels (enum skb_drop_reason_subsys, 6.8+) and on a struct
 *   - direct, relocated loads from the tracepoint context, whose layout
 *     changed in 6.x (rx_sk was inserted before protocol and reason);
 *     bpf_core_field_exists on a flavor of the context struct for rx_sk
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_endian.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

#define MAX_REASONS 256

/* Reasons added after 6.1: the ___new suffix is dropped when matching. */
enum skb_drop_reason___new {
	SKB_DROP_REASON_QUEUE_PURGE___new = 0,
};

/* Only in kernels with subsystem-scoped drop reasons (6.8+). */
enum skb_drop_reason_subsys {
	SKB_DROP_REASON_SUBSYS_CORE = 0,
};

/* The tracepoint context of 6.x kernels that record the receiving socket. */
struct trace_event_raw_kfree_skb___new {
	void *rx_sk;
} __attribute__((preserve_access_index));

enum drop_class {
	DROP_OTHER = 0,
	DROP_NO_SOCKET = 1,
	DROP_CSUM = 2,
	DROP_NETFILTER = 3,
	DROP_QUEUE_PURGE = 4,
	DROP_NO_REASON = 5,	/* the kernel records no drop reasons (< 5.17) */
};

struct drop_event {
	u64 ts_ns;
	u64 location;		/* kernel address that freed the skb */
	u64 rx_sk;		/* receiving socket, 0 if unknown */
	u32 reason;		/* the running kernel's enum value */
	u32 subsys;		/* reason >> 16 where reasons are subsystem-scoped */
	u32 drop_class;		/* enum drop_class */
	u16 protocol;		/* ethertype, host order */
	u16 enum_size;		/* sizeof(enum skb_drop_reason) in the kernel */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MAX_REASONS);
	__type(key, u32);
	__type(value, u64);
} drops_by_reason SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

static __always_inline u32 classify(u32 reason)
{
	if (reason == bpf_core_enum_value(enum skb_drop_reason, SKB_DROP_REASON_NO_SOCKET))
		return DROP_NO_SOCKET;
	if (reason == bpf_core_enum_value(enum skb_drop_reason, SKB_DROP_REASON_TCP_CSUM) ||
	    reason == bpf_core_enum_value(enum skb_drop_reason, SKB_DROP_REASON_UDP_CSUM))
		return DROP_CSUM;
	if (reason == bpf_core_enum_value(enum skb_drop_reason, SKB_DROP_REASON_NETFILTER_DROP))
		return DROP_NETFILTER;
	if (bpf_core_enum_value_exists(enum skb_drop_reason___new, SKB_DROP_REASON_QUEUE_PURGE___new) &&
	    reason == bpf_core_enum_value(enum skb_drop_reason___new, SKB_DROP_REASON_QUEUE_PURGE___new))
		return DROP_QUEUE_PURGE;
	return DROP_OTHER;
}

SEC("tracepoint/skb/kfree_skb")
int on_kfree_skb(struct trace_event_raw_kfree_skb *ctx)
{
	struct trace_event_raw_kfree_skb___new *ctx_new = (void *)ctx;
	u32 reason = 0, key, subsys = 0, cls = DROP_NO_REASON;
	struct drop_event *e;
	u64 *cnt;

	/* before 5.17 the tracepoint records no reason (and the kernel has no
	 * enum skb_drop_reason): every IPv4 drop is reported as such, and the
	 * reason code below is dead code the verifier prunes */
	if (!bpf_core_field_exists(ctx->reason)) {
		if (ctx->protocol != 0x0800)
			return 0;
		goto emit;
	}
	reason = ctx->reason;
	if (bpf_core_type_exists(enum skb_drop_reason_subsys)) {
		subsys = reason >> 16;
		reason &= 0xffff;
	}
	/* the table covers the core subsystem's reasons of this kernel */
	key = reason;
	if (subsys == 0 && key < bpf_core_enum_value(enum skb_drop_reason, SKB_DROP_REASON_MAX) &&
	    key < MAX_REASONS) {
		cnt = bpf_map_lookup_elem(&drops_by_reason, &key);
		if (cnt)
			(*cnt)++;
	}

	cls = classify(reason);
	if (subsys != 0 || cls == DROP_OTHER)
		return 0;
emit:
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->ts_ns = bpf_ktime_get_ns();
	e->location = (u64)ctx->location;
	e->rx_sk = bpf_core_field_exists(ctx_new->rx_sk) ? (u64)ctx_new->rx_sk : 0;
	e->reason = reason;
	e->subsys = subsys;
	e->drop_class = cls;
	e->protocol = ctx->protocol;	/* the tracepoint stored ntohs() already */
	e->enum_size = bpf_core_type_exists(enum skb_drop_reason) ?
		       bpf_core_type_size(enum skb_drop_reason) : 0;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
