// SPDX-License-Identifier: MIT
/* tc: count the packets an interface receives (relocore run --tc
 * count_tc=IFACE:ingress, a tcx link: Linux 6.6 and later); every packet
 * passes. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} tc_pkts SEC(".maps");

SEC("tc")
int count_tc(struct __sk_buff *skb)
{
	u32 k = 0;
	u64 *v = bpf_map_lookup_elem(&tc_pkts, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;	/* TC_ACT_OK */
}
