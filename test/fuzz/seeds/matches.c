// Fuzz seed: TYPE_MATCHES (needs a compiler that knows BPF_TYPE_MATCHES).
#include "common.h"

struct task { int pid; struct task *parent; } PAI;
enum state { ST_IDLE = 0, ST_RUN = 1 };
struct shape { int w, h; enum state st; char name[8]; } PAI;

SEC("kprobe/matches")
int matches(void *ctx)
{
	return bpf_core_type_matches(struct task) + bpf_core_type_matches(struct shape) +
	       bpf_core_type_matches(enum state);
}
char LICENSE[] SEC("license") = "GPL";
