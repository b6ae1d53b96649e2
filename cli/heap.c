// SPDX-License-Identifier: MIT
/*
 * heap.c - how the relocore command's process allocates.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "heap.h"

/*
 * Every command maps or reads a whole kernel BTF (4-6 MB) and hands it to
 * libbpf's btf__new, which copies it: about 1300 new 4 KiB pages, each a
 * page fault, most of a small command's time where faults are dear (in a
 * virtual machine; here 15-20 us each: 20-25 ms, while all the
 * instructions of `relocore btfgen` on one object, 19M, take 5-8 ms).  So the heap grows in one 32 MB step that may be
 * backed by transparent huge pages (madvise, honoured when THP is
 * "always" or "madvise"; harmless otherwise): the copy faults a few 2 MB
 * pages instead.  Only address space is reserved; memory is what is
 * touched, rounded to 2 MB.  Large blocks stay in the heap (not mmap'd on
 * their own, not given back on free), so they are reused too.
 */
void cli_heap_in_huge_pages(void)
{
	const size_t huge = 2ul << 20;
	uintptr_t lo, hi;
	void *p;

	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 32 << 20);
	p = malloc(1);	/* the heap's first growth: by the pad */
	if (!p)
		return;
	lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	hi = (uintptr_t)sbrk(0) & ~(huge - 1);
	if (hi > lo && hi - lo <= (64ul << 20))	/* p is in the brk heap */
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	free(p);
}
