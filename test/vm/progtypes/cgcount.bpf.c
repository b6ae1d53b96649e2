// SPDX-License-Identifier: MIT
/* cgroup_skb: count the packets the sockets of a cgroup send (relocore run
 * --cgroup count_egress=PATH), and their bytes; every packet passes. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct egress_count {
	u64 packets;
	u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct egress_count);
} egress SEC(".maps");

SEC("cgroup_skb/egress")
int count_egress(struct __sk_buff *skb)
{
	u32 k = 0;
	struct egress_count *v = bpf_map_lookup_elem(&egress, &k);

	if (v) {
		__sync_fetch_and_add(&v->packets, 1);
		__sync_fetch_and_add(&v->bytes, skb->len);
	}
	return 1;
}
