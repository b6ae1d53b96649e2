/* A typeless __ksym declared const void: clang emits CONST -> void. */
#include "idiom.h"

extern const void bpf_prog_active __ksym;
__u64 addr;

SEC("raw_tp/sys_enter")
int ksym_typeless_const(void *ctx)
{
	addr = (__u64)&bpf_prog_active;
	return 0;
}
