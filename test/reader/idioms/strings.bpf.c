/* String literals: clang puts those not copied into an array in
 * .rodata.str1.1 (a mergeable string section libbpf maps as .rodata). */
#include "idiom.h"

char buf[32];

SEC("raw_tp/sys_enter")
int strings(void *ctx)
{
	const char *s = (bpf_get_smp_processor_id() & 1) ? "odd cpu" : "even cpu";

	bpf_probe_read_kernel_str(buf, sizeof(buf), s);
	bpf_printk("%s", s);
	return 0;
}
