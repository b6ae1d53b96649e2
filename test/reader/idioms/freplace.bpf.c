/* freplace and fentry placeholders: the attach target (a BPF program, or
 * a function name) is set by user space before load
 * (bpf_program__set_attach_target). */
#include "idiom.h"

SEC("freplace/placeholder")
int freplace_prog(void *ctx)
{
	return 0;
}

SEC("fentry/func")
int fentry_placeholder(__u64 *ctx)
{
	return 0;
}
