/* An arena (BPF_MAP_TYPE_ARENA, 33, kernel 6.9+) and a global in its
 * address space (clang 19: section .addr_space.1); libbpf 1.4 maps the
 * section onto the arena, libbpf 1.1 knows neither. */
#include "idiom.h"

#if defined(__clang__) && __clang_major__ >= 18
#define __arena __attribute__((address_space(1)))
struct { __uint(type, 33); __uint(map_flags, 1024 /* BPF_F_MMAPABLE */); __uint(max_entries, 2); } arena SEC(".maps");
int __arena counter;

SEC("syscall")
int arena_prog(void *ctx)
{
	counter++;
	return 0;
}
#else
#error "an arena needs clang 18 or later"
#endif
