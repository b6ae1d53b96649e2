/* A program in a section libbpf does not know (a pre-1.0 style name). */
#include "idiom.h"

SEC("socket1")
int unknown_section(void *ctx)
{
	return 0;
}
