/* SPDX-License-Identifier: MIT */
/* heap.h - how the relocore command's process allocates (heap.c); also
 * used by bench/core_bench.c, to start a process as the command does. */
#ifndef RELOCORE_CLI_HEAP_H
#define RELOCORE_CLI_HEAP_H

/* At the start of main: the heap grows in one step, in huge pages where
 * the kernel gives them (heap.c says why). */
void cli_heap_in_huge_pages(void);

#endif
