/* Inner and outer maps: an array of maps and a hash of maps declared with
 * __array(values, ...), one with an initial value (a map's address). */
#include "idiom.h"

struct inner { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); __type(key, __u32); __type(value, __u32); };
struct inner inner0 SEC(".maps"), inner1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct inner);
} outer SEC(".maps") = {
	.values = { [0] = &inner0, [1] = &inner1 },
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, struct inner);
} outer_hash SEC(".maps");

SEC("raw_tp/sys_enter")
int map_in_map(void *ctx)
{
	__u32 k = 0;
	void *in = bpf_map_lookup_elem(&outer, &k);

	if (in)
		bpf_map_lookup_elem(in, &k);
	in = bpf_map_lookup_elem(&outer_hash, &k);
	if (in)
		bpf_map_lookup_elem(in, &k);
	return 0;
}
