/* BTF-defined maps of the common kinds, with key/value types or sizes,
 * flags, map_extra (bloom filter), and pinning by name. */
#include "idiom.h"

struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 4); __type(key, __u32); __type(value, __u64); } arr SEC(".maps");
struct { __uint(type, BPF_MAP_TYPE_HASH); __uint(max_entries, 64); __type(key, int); __type(value, struct task_struct *); __uint(map_flags, BPF_F_NO_PREALLOC); } hash SEC(".maps");
struct { __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY); __uint(max_entries, 1); __uint(key_size, 4); __uint(value_size, 16); } pcpu SEC(".maps");
struct { __uint(type, BPF_MAP_TYPE_LRU_HASH); __uint(max_entries, 32); __type(key, __u64); __type(value, __u64); __uint(pinning, LIBBPF_PIN_BY_NAME); } pinned SEC(".maps");
struct { __uint(type, BPF_MAP_TYPE_RINGBUF); __uint(max_entries, 4096); } rb SEC(".maps");
struct { __uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY); __uint(key_size, 4); __uint(value_size, 4); } events SEC(".maps");
struct { __uint(type, BPF_MAP_TYPE_BLOOM_FILTER); __uint(max_entries, 16); __type(value, __u32); __uint(map_extra, 3); } bloom SEC(".maps");
struct { __uint(type, BPF_MAP_TYPE_QUEUE); __uint(max_entries, 8); __type(value, __u32); } q SEC(".maps");
struct lpm_key { __u32 prefixlen; __u32 addr; };
struct { __uint(type, BPF_MAP_TYPE_LPM_TRIE); __uint(max_entries, 8); __type(key, struct lpm_key); __type(value, __u32); __uint(map_flags, BPF_F_NO_PREALLOC); } lpm SEC(".maps");
struct { __uint(type, BPF_MAP_TYPE_TASK_STORAGE); __uint(map_flags, BPF_F_NO_PREALLOC); __type(key, int); __type(value, __u64); } tstore SEC(".maps");

SEC("raw_tp/sys_enter")
int maps(void *ctx)
{
	__u32 k = 0, v = 1;
	__u64 *p = bpf_map_lookup_elem(&arr, &k);

	if (p)
		(*p)++;
	bpf_map_lookup_elem(&hash, &k);
	bpf_map_lookup_elem(&pcpu, &k);
	bpf_map_lookup_elem(&pinned, &k);
	bpf_ringbuf_output(&rb, &v, sizeof(v), 0);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &v, sizeof(v));
	bpf_map_push_elem(&bloom, &v, 0);
	bpf_map_push_elem(&q, &v, 0);
	bpf_map_lookup_elem(&lpm, &k);
	return 0;
}
