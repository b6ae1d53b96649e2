/* Tail calls through a prog array whose slots are set in the object
 * (__array(values, int (void *)) with initial values). */
#include "idiom.h"

SEC("raw_tp/sys_enter")
int tail_target(void *ctx)
{
	return 1;
}

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, int (void *));
} jmp SEC(".maps") = {
	.values = { [1] = (void *)&tail_target },
};

SEC("raw_tp/sys_enter")
int tailcall(void *ctx)
{
	bpf_tail_call(ctx, &jmp, 1);
	return 0;
}
