/* SPDX-License-Identifier: MIT */
/*
 * libbpf_core.h - libbpf 1.1's CO-RE engine internals, as declared in its
 * relo_core.h / libbpf_internal.h (not public headers).  Debian's static
 * libbpf.a (1:1.1.2) exports these symbols; the layouts below were checked
 * against it (sizes asserted at compile time).  Used by libbpf_oracle.c and
 * the differential fuzzer difffuzz.c.
 */
#ifndef RELOCORE_LIBBPF_CORE_H
#define RELOCORE_LIBBPF_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>


struct bpf_core_cand {
	const struct btf *btf;
	__u32 id;
};

struct bpf_core_cand_list {
	struct bpf_core_cand *cands;
	int len;
};

#define BPF_CORE_SPEC_MAX_LEN 64

struct bpf_core_accessor {
	__u32 type_id;
	__u32 idx;
	const char *name;
};

struct bpf_core_spec {
	const struct btf *btf;
	struct bpf_core_accessor spec[BPF_CORE_SPEC_MAX_LEN];
	__u32 root_type_id;
	enum bpf_core_relo_kind relo_kind;
	int len;
	int raw_spec[BPF_CORE_SPEC_MAX_LEN];
	int raw_len;
	__u32 bit_offset;
};

struct bpf_core_relo_res {
	__u64 orig_val;
	__u64 new_val;
	bool poison;
	bool validate;
	bool fail_memsz_adjust;
	__u32 orig_sz;
	__u32 orig_type_id;
	__u32 new_sz;
	__u32 new_type_id;
};

_Static_assert(sizeof(struct bpf_core_spec) == 0x520, "bpf_core_spec layout");
_Static_assert(sizeof(struct bpf_core_relo_res) == 40, "bpf_core_relo_res layout");
_Static_assert(sizeof(struct bpf_core_relo) == 16, "bpf_core_relo layout");

size_t bpf_core_essential_name_len(const char *name);
int bpf_core_add_cands(struct bpf_core_cand *local_cand, size_t local_essent_len,
		       const struct btf *targ_btf, const char *targ_btf_name,
		       int targ_start_id, struct bpf_core_cand_list *cands);
void bpf_core_free_cands(struct bpf_core_cand_list *cands);
int bpf_core_calc_relo_insn(const char *prog_name, const struct bpf_core_relo *relo,
			    int relo_idx, const struct btf *local_btf,
			    struct bpf_core_cand_list *cands,
			    struct bpf_core_spec *specs_scratch,
			    struct bpf_core_relo_res *targ_res);
int bpf_core_patch_insn(const char *prog_name, struct bpf_insn *insn, int insn_idx,
			const struct bpf_core_relo *relo, int relo_idx,
			const struct bpf_core_relo_res *res);
int bpf_core_format_spec(char *buf, size_t buf_sz, const struct bpf_core_spec *spec);

#define POISON_IMM 195896080	/* 0xbad2310, libbpf's poison marker */

#endif
