/* A program defined static: libbpf 1.0 and later refuse it at open. */
#include "idiom.h"

SEC("raw_tp/sys_enter")
static int static_prog(void *ctx)
{
	return 0;
}

SEC("raw_tp/sys_exit")
int global_prog(void *ctx)
{
	return static_prog(ctx);
}
