/* A .kconfig extern of a type libbpf cannot fill (a pointer): libbpf
 * refuses the object when it opens it. */
#include "idiom.h"

extern __u64 *CONFIG_NOT_A_VALUE __kconfig __weak;
__u64 out;

SEC("raw_tp/sys_enter")
int kconfig_badtype(void *ctx)
{
	out = (__u64)CONFIG_NOT_A_VALUE;
	return 0;
}
