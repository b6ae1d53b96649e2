/* A legacy map definition in a "maps" section: libbpf 1.0 and later
 * refuse to open the object. */
#include "idiom.h"

struct bpf_map_def_legacy { unsigned int type, key_size, value_size, max_entries, map_flags; };
struct bpf_map_def_legacy legacy SEC("maps") = { BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0 };

SEC("raw_tp/sys_enter")
int legacy_maps(void *ctx)
{
	__u32 k = 0;

	bpf_map_lookup_elem(&legacy, &k);
	return 0;
}
