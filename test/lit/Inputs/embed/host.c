/* A tool that carries its BPF object, linked in with ld -r -b binary. */
#include <stdio.h>
extern const char _binary_one_bpf_o_start[], _binary_one_bpf_o_end[];
int main(void)
{
	printf("%ld\n", (long)(_binary_one_bpf_o_end - _binary_one_bpf_o_start));
	return 0;
}
