// Fuzz seed: enum value relocations (exists, value), enum flavors.
#include "common.h"

enum state { ST_IDLE = 0, ST_RUN = 1, ST_GONE = 7 };
enum state___old { ST_OLD = 3 };
enum big { BIG_A = 0x12345678, BIG_B = -1LL };

SEC("kprobe/enums")
int enums(void *ctx)
{
	long r = 0;

	r += bpf_core_enum_value_exists(enum state, ST_GONE);
	r += bpf_core_enum_value(enum state, ST_RUN);
	r += bpf_core_enum_value_exists(enum state___old, ST_OLD);
	r += bpf_core_enum_value(enum big, BIG_A);
	r += bpf_core_enum_value(enum big, BIG_B);
	return r;
}
char LICENSE[] SEC("license") = "GPL";
