/* SPDX-License-Identifier: MIT */
/*
 * bpf_interp - a small eBPF interpreter for offline conformance tests.
 *
 * Memory model: a flat 64-bit virtual address space made of named regions
 * (stack frames, the object's data sections, the program context, synthetic
 * kernel objects).  Every load/store is bounds-checked against one region;
 * an access outside any region stops the program with BI_FAULT.  Helpers
 * that read "unsafe" memory (bpf_probe_read_*) return -EFAULT and zero the
 * destination instead, like the kernel does.
 *
 * A call to helper 0xbad2310 (libbpf's marker for a CO-RE relocation that
 * could not be resolved) stops the program with BI_POISON.
 */
#ifndef RC_BPF_INTERP_H
#define RC_BPF_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

#define BI_POISON_IMM 0xbad2310	/* 195896080, libbpf's poison helper id */
#define BI_MAX_REGIONS 64

enum bi_status {
	BI_OK = 0,	/* program exited; r0 holds its return value */
	BI_POISON,	/* executed a poisoned (unresolved CO-RE) instruction */
	BI_FAULT,	/* memory access outside every region, or read-only */
	BI_BADINSN,	/* unknown/invalid instruction */
	BI_HELPER,	/* call to a helper the interpreter doesn't know */
	BI_LIMIT,	/* instruction budget or call depth exhausted */
};

struct bi_region {
	uint64_t base;
	uint64_t size;
	uint8_t *mem;		/* owned by whoever added the region */
	bool writable;
	char name[48];
};

struct bi_vm {
	struct bi_region regions[BI_MAX_REGIONS];
	int nregions;

	/* environment seen by helpers */
	uint64_t pid_tgid;	/* bpf_get_current_pid_tgid() */
	uint64_t current_task;	/* bpf_get_current_task() */
	char comm[16];		/* bpf_get_current_comm() */

	uint64_t insn_budget;	/* 0: default (1M) */

	/* result details */
	uint64_t r0;
	long fault_pc;		/* instruction index where execution stopped */
	char msg[256];		/* human-readable reason for a non-BI_OK status */
	uint64_t executed;	/* instructions executed */
};

void bi_init(struct bi_vm *vm);
/* Adds a region backed by mem (not copied, not freed).  Returns its index. */
int bi_add_region(struct bi_vm *vm, const char *name, uint64_t base,
		  void *mem, uint64_t size, bool writable);
/* Host pointer for [addr, addr+size) if entirely inside one region. */
void *bi_translate(struct bi_vm *vm, uint64_t addr, uint64_t size, bool write);

/*
 * Runs insns[start..] (the whole section's instructions, so that static
 * subprogram calls within it work) with r1 = ctx.
 */
enum bi_status bi_run(struct bi_vm *vm, const struct bpf_insn *insns,
		      size_t insn_cnt, size_t start, uint64_t ctx);

const char *bi_status_str(enum bi_status st);

#endif
