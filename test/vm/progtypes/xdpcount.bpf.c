// SPDX-License-Identifier: MIT
/* XDP: count the packets an interface receives (relocore run --xdp
 * count_xdp=IFACE); test/vm/check.py compares the count with the pings
 * sent over lo. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} xdp_pkts SEC(".maps");

SEC("xdp")
int count_xdp(struct xdp_md *ctx)
{
	u32 k = 0;
	u64 *v = bpf_map_lookup_elem(&xdp_pkts, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
	return XDP_PASS;
}
