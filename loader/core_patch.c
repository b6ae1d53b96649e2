// SPDX-License-Identifier: MIT
/*
 * core_patch.c - step 4 of a relocation: apply a decision to the
 * instruction it belongs to.
 *
 *   ALU/ALU64 with an immediate: imm := new value
 *   LDX/ST/STX: off := new value; the access size follows the field's
 *               size when it changed (pointers, unsigned ints only)
 *   LD_IMM64:   the 64-bit immediate := new value
 *
 * A poisoned instruction becomes "call 0xbad2310", libbpf's marker: the
 * verifier rejects it only if it is reachable ("invalid func unknown#195896080").
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "internal.h"

#define RC_POISON_IMM 0xbad2310

static bool is_ldimm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static void poison(struct bpf_insn *insn, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		insn[i].code = BPF_JMP | BPF_CALL;
		insn[i].dst_reg = 0;
		insn[i].src_reg = 0;
		insn[i].off = 0;
		insn[i].imm = RC_POISON_IMM;
	}
}

static int size_bytes(const struct bpf_insn *insn)
{
	switch (BPF_SIZE(insn->code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	case BPF_DW: return 8;
	}
	return -1;
}

static int size_code(uint32_t bytes)
{
	switch (bytes) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	case 8: return BPF_DW;
	}
	return -1;
}

int rc_core_patch(struct bpf_insn *insns, size_t cnt, size_t idx,
		  const struct rc_decision *d, char *err, size_t errsz)
{
	struct bpf_insn *insn;
	bool poisoned = d->outcome == RC_POISON;

	if (d->outcome == RC_ERROR) {
		rc_fmt(err, errsz, "relocation was refused: %s", d->reason);
		return -EINVAL;
	}
	if (idx >= cnt) {
		rc_fmt(err, errsz, "instruction #%zu outside the program (%zu insns)",
		       idx, cnt);
		return -EINVAL;
	}
	insn = &insns[idx];
	if (poisoned) {
		/* as libbpf: whatever the instruction, both halves of an
		 * ldimm64 (the verifier would otherwise complain about the
		 * second one rather than the poison) */
		if (is_ldimm64(insn) && idx + 1 >= cnt) {
			rc_fmt(err, errsz, "insn #%zu: ldimm64 cut short by the section's end",
			       idx);
			return -EINVAL;
		}
		poison(insn, is_ldimm64(insn) ? 2 : 1);
		return 0;
	}

	switch (BPF_CLASS(insn->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		if (BPF_SRC(insn->code) != BPF_K)
			break;
		if (d->validate && (uint64_t)(int64_t)insn->imm != d->orig_val) {
			rc_fmt(err, errsz, "insn #%zu has imm %d, relocation expects %llu",
			       idx, insn->imm, (unsigned long long)d->orig_val);
			return -EINVAL;
		}
		insn->imm = (int32_t)d->new_val;
		return 0;
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX:
		if (d->validate && (uint64_t)(int64_t)insn->off != d->orig_val) {
			rc_fmt(err, errsz, "insn #%zu has offset %d, relocation expects %llu",
			       idx, insn->off, (unsigned long long)d->orig_val);
			return -EINVAL;
		}
		if (d->new_val > SHRT_MAX) {
			rc_fmt(err, errsz, "insn #%zu: offset %llu does not fit a 16-bit field",
			       idx, (unsigned long long)d->new_val);
			return -ERANGE;
		}
		if (d->fail_memsz_adjust) {
			/* a resized signed or non-scalar field cannot be loaded with
			 * another size: poison, as libbpf does */
			poison(insn, 1);
			rc_fmt(err, errsz,
			       "field is %u bytes on the target, %u here, and not an unsigned integer or pointer: the access cannot be resized",
			       d->new_sz, d->orig_sz);
			return RC_PATCH_POISONED;
		}
		insn->off = (int16_t)d->new_val;
		if (d->new_sz != d->orig_sz) {
			int code = size_code(d->new_sz);

			if (size_bytes(insn) != (int)d->orig_sz) {
				rc_fmt(err, errsz,
				       "insn #%zu accesses %d bytes, the field has %u",
				       idx, size_bytes(insn), d->orig_sz);
				return -EINVAL;
			}
			if (code < 0) {
				rc_fmt(err, errsz, "insn #%zu: no load of %u bytes", idx,
				       d->new_sz);
				return -EINVAL;
			}
			insn->code = BPF_MODE(insn->code) | code | BPF_CLASS(insn->code);
		}
		return 0;
	case BPF_LD: {
		uint64_t imm;

		if (!is_ldimm64(insn) || idx + 1 >= cnt || insn[0].src_reg ||
		    insn[0].off || insn[1].code || insn[1].dst_reg ||
		    insn[1].src_reg || insn[1].off)
			break;
		imm = (uint32_t)insn[0].imm | ((uint64_t)(uint32_t)insn[1].imm << 32);
		if (d->validate && imm != d->orig_val) {
			rc_fmt(err, errsz, "insn #%zu has imm64 %llu, relocation expects %llu",
			       idx, (unsigned long long)imm,
			       (unsigned long long)d->orig_val);
			return -EINVAL;
		}
		insn[0].imm = (uint32_t)d->new_val;
		insn[1].imm = d->new_val >> 32;
		return 0;
	}
	default:
		break;
	}
	rc_fmt(err, errsz,
	       "insn #%zu (code 0x%02x) cannot carry a CO-RE relocation", idx,
	       insn->code);
	return -EINVAL;
}
