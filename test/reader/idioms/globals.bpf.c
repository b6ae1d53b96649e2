/* Global data in .rodata (const volatile knobs), .data, .bss and custom
 * .rodata.* / .data.* sections (libbpf 0.6+ maps each to its own map). */
#include "idiom.h"

const volatile int knob = 3;
const volatile __u64 knob64;
int counter = 7;
__u64 zeroed;
int in_custom SEC(".data.custom") = 5;
const volatile int ro_custom SEC(".rodata.custom") = 9;
__u64 out;

SEC("raw_tp/sys_enter")
int globals(void *ctx)
{
	if (knob > 2)
		counter++;
	zeroed += knob64;
	in_custom++;
	out = ro_custom + counter;
	return 0;
}
