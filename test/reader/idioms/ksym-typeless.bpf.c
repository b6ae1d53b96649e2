/* A typeless __ksym declared void (libbpf's documented form for a kernel
 * variable without a type): clang emits a VAR of type void (id 0). */
#include "idiom.h"

extern void bpf_prog_active __ksym;
__u64 addr;

SEC("raw_tp/sys_enter")
int ksym_typeless(void *ctx)
{
	addr = (__u64)&bpf_prog_active;
	return 0;
}
