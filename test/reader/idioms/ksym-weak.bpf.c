/* Weak __ksyms, typed and typeless: libbpf resolves a missing one to 0. */
#include "idiom.h"

struct rq { int cpu; } PAI;
extern const struct rq runqueues __ksym __weak;
extern void no_such_kernel_symbol __ksym __weak;
__u64 addr[2];

SEC("raw_tp/sys_enter")
int ksym_weak(void *ctx)
{
	addr[0] = (__u64)&runqueues;
	addr[1] = (__u64)&no_such_kernel_symbol;
	return 0;
}
