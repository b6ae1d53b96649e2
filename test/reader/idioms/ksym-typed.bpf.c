/* A typed __ksym: the address of a kernel variable with its BTF type
 * (libbpf resolves it through the kernel's BTF VAR; a percpu one is read
 * with bpf_per_cpu_ptr / bpf_this_cpu_ptr). */
#include "idiom.h"

struct rq { int cpu; } PAI;
extern const struct rq runqueues __ksym;

int cpu_seen;

SEC("raw_tp/sys_enter")
int ksym_typed(void *ctx)
{
	const struct rq *rq = bpf_this_cpu_ptr(&runqueues);

	cpu_seen = BPF_CORE_READ(rq, cpu);
	return 0;
}
