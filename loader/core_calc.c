// SPDX-License-Identifier: MIT
/*
 * core_calc.c - step 3 of a relocation: compute the local (original) and
 * target (new) values of a relocation from matched specs, and decide it
 * against a candidate list.
 *
 * Unresolvable relocations are not errors: the instruction is poisoned
 * (RC_POISON), so that code guarded by bpf_core_field_exists() and
 * friends still verifies.  Existence kinds resolve to 0 instead.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define POISON 1	/* internal: "no target, poison the instruction" */

struct field_val {
	uint64_t val;
	uint32_t sz;		/* load size for FIELD_BYTE_OFFSET */
	uint32_t type_id;	/* field type for FIELD_BYTE_OFFSET */
	bool validate;
};

static int calc_field(const struct rc_spec *spec, enum rc_relo_kind kind,
		      struct field_val *fv, char *why, size_t whysz)
{
	const struct rc_access *acc;
	const struct btf_type *t, *mt;
	const struct btf_member *m;
	uint32_t byte_off, byte_sz, bit_off, bit_sz, ftid;
	bool bitfield;
	int64_t sz;

	memset(fv, 0, sizeof(*fv));
	fv->validate = true;
	if (kind == RC_FIELD_EXISTS) {
		fv->val = spec ? 1 : 0;
		return 0;
	}
	if (!spec)
		return POISON;

	acc = &spec->steps[spec->len - 1];
	t = rc_type(spec->btf, acc->type_id);
	if (!t)
		return -EINVAL;

	if (!acc->name) {	/* the field is an array element (or the root) */
		sz = rc_btf_resolve_size(spec->btf, acc->type_id);
		if (sz < 0) {
			rc_fmt(why, whysz, "size of [%u] does not resolve", acc->type_id);
			return -EINVAL;
		}
		if (kind == RC_FIELD_BYTE_OFFSET) {
			fv->val = spec->bit_offset / 8;
			fv->sz = sz;
			fv->type_id = acc->type_id;
		} else if (kind == RC_FIELD_BYTE_SIZE) {
			fv->val = sz;
		} else {
			rc_fmt(why, whysz, "%s cannot apply to an array element",
			       rc_relo_kind_str(kind));
			return -EINVAL;
		}
		return 0;
	}

	m = btf_members(t) + acc->idx;
	mt = rc_skip_mods_typedefs(spec->btf, m->type, &ftid);
	if (!mt)
		return -EINVAL;
	bit_off = spec->bit_offset;
	bit_sz = btf_member_bitfield_size(t, acc->idx);
	bitfield = bit_sz > 0;
	if (bitfield) {
		/* smallest aligned load (up to 8 bytes) covering the bits;
		 * like libbpf, a type larger than 8 bytes is taken as it is
		 * when the bits lie in its first bytes-sized block */
		byte_sz = mt->size;
		if (!byte_sz) {
			rc_fmt(why, whysz, "bitfield %s of [%u] has a 0-byte type",
			       acc->name, acc->type_id);
			return -EINVAL;
		}
		byte_off = bit_off / 8 / byte_sz * byte_sz;
		while (bit_off + bit_sz - byte_off * 8 > byte_sz * 8) {
			if (byte_sz >= 8) {
				rc_fmt(why, whysz, "bitfield %s cannot be read with a 64-bit load",
				       acc->name);
				return -E2BIG;
			}
			byte_sz *= 2;
			byte_off = bit_off / 8 / byte_sz * byte_sz;
		}
	} else {
		sz = rc_btf_resolve_size(spec->btf, ftid);
		if (sz < 0) {
			rc_fmt(why, whysz, "size of field %s does not resolve", acc->name);
			return -EINVAL;
		}
		byte_sz = sz;
		byte_off = bit_off / 8;
		bit_sz = byte_sz * 8;
	}
	/* compilers and kernels may place bitfields differently: only the
	 * signedness and the right shift are checked against the insn */
	fv->validate = !bitfield;

	switch (kind) {
	case RC_FIELD_BYTE_OFFSET:
		fv->val = byte_off;
		if (!bitfield) {
			fv->sz = byte_sz;
			fv->type_id = ftid;
		}
		break;
	case RC_FIELD_BYTE_SIZE:
		fv->val = byte_sz;
		break;
	case RC_FIELD_SIGNED:
		fv->val = (btf_is_any_enum(mt) && btf_kflag(mt)) ||
			  (btf_is_int(mt) && (btf_int_encoding(mt) & BTF_INT_SIGNED));
		fv->validate = true;
		break;
	case RC_FIELD_LSHIFT_U64:
		/* the shift that brings the field's top bit to bit 63 of the
		 * zero-extended load: in the byte order of the BTF's kernel
		 * (libbpf computes it in its host's order, which is the
		 * kernel's when it loads there) */
		if (spec->btf->big_endian)
			fv->val = (8 - byte_sz) * 8 + (bit_off - byte_off * 8);
		else
			fv->val = 64 - (bit_off + bit_sz - byte_off * 8);
		break;
	case RC_FIELD_RSHIFT_U64:
		fv->val = 64 - bit_sz;
		fv->validate = true;
		break;
	default:
		return -EOPNOTSUPP;
	}
	return 0;
}

static int calc_type(const struct rc_spec *spec, enum rc_relo_kind kind,
		     uint64_t *val, bool *validate)
{
	int64_t sz;

	*validate = true;
	if (!spec) {
		*val = 0;	/* type-based kinds resolve to 0 when absent */
		return 0;
	}
	switch (kind) {
	case RC_TYPE_ID_TARGET:
		*val = spec->root_type_id;
		*validate = false;	/* ids change in linking */
		return 0;
	case RC_TYPE_EXISTS:
	case RC_TYPE_MATCHES:
		*val = 1;
		return 0;
	case RC_TYPE_SIZE:
		sz = rc_btf_resolve_size(spec->btf, spec->root_type_id);
		if (sz < 0)
			return -EINVAL;
		*val = sz;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int calc_enumval(const struct rc_spec *spec, enum rc_relo_kind kind,
			uint64_t *val)
{
	const struct btf_type *t;
	uint32_t i;

	if (kind == RC_ENUMVAL_EXISTS) {
		*val = spec ? 1 : 0;
		return 0;
	}
	if (!spec)
		return POISON;
	t = rc_type(spec->btf, spec->steps[0].type_id);
	if (!t || !btf_is_any_enum(t))
		return -EINVAL;
	i = spec->steps[0].idx;
	if (btf_is_enum(t))
		*val = (uint64_t)(int64_t)btf_enum(t)[i].val;
	else
		*val = btf_enum64_value(btf_enum64(t) + i);
	return 0;
}

/* Local and target values of a relocation; @targ NULL means no target. */
static int calc_relo(const struct rc_spec *local, const struct rc_spec *targ,
		     struct rc_decision *d)
{
	enum rc_relo_kind kind = local->kind;
	int err;

	d->orig_val = d->new_val = 0;
	d->validate = true;
	d->fail_memsz_adjust = false;
	d->orig_sz = d->new_sz = 0;
	d->outcome = RC_OK;

	if (rc_kind_field_based(kind)) {
		struct field_val lv, tv;

		err = calc_field(local, kind, &lv, d->reason, sizeof(d->reason));
		if (err)
			goto out;
		d->orig_val = lv.val;
		d->validate = lv.validate;
		d->orig_sz = lv.sz;
		err = calc_field(targ, kind, &tv, d->reason, sizeof(d->reason));
		if (err)
			goto out;
		d->new_val = tv.val;
		d->new_sz = tv.sz;
		if (lv.sz != tv.sz) {
			const struct btf_type *ot = rc_type(local->btf, lv.type_id);
			const struct btf_type *nt = rc_type(targ->btf, tv.type_id);

			/* resizing a load is safe for pointers and unsigned ints */
			if (ot && nt && btf_is_ptr(ot) && btf_is_ptr(nt))
				goto out;
			if (ot && nt && btf_is_int(ot) && btf_is_int(nt) &&
			    btf_int_encoding(ot) != BTF_INT_SIGNED &&
			    btf_int_encoding(nt) != BTF_INT_SIGNED)
				goto out;
			d->fail_memsz_adjust = true;
		}
	} else if (rc_kind_type_based(kind)) {
		bool unused;

		err = calc_type(local, kind, &d->orig_val, &d->validate);
		if (!err)
			err = calc_type(targ, kind, &d->new_val, &unused);
	} else if (rc_kind_enumval_based(kind)) {
		err = calc_enumval(local, kind, &d->orig_val);
		if (!err)
			err = calc_enumval(targ, kind, &d->new_val);
	} else {
		err = -EOPNOTSUPP;
	}
out:
	if (err == POISON) {
		d->outcome = RC_POISON;
		return 0;
	}
	if (err == -EOPNOTSUPP)
		rc_fmt(d->reason, sizeof(d->reason), "unsupported relocation kind %d",
		       kind);
	return err;
}

static void decision_init(struct rc_decision *d, const struct rc_btf *local,
			  const struct rc_relo *relo)
{
	memset(d, 0, sizeof(*d));
	d->kind = relo->kind;
	d->local_type_id = relo->type_id;
	d->local.btf = local;
	d->local.root_type_id = relo->type_id;
	d->local.kind = relo->kind;
}

static int refuse(struct rc_decision *d, int err)
{
	d->outcome = RC_ERROR;
	if (!d->reason[0])
		rc_fmt(d->reason, sizeof(d->reason), "%s", strerror(-err));
	return 0;
}

static int decide_cands(const struct rc_btf *local, const struct rc_relo *relo,
			struct rc_cands *cands, struct rc_decision *d)
{
	const char *access = rc_name(local, relo->access_str_off);
	const struct btf_type *lt;
	struct rc_spec cand;
	struct rc_decision cd;
	int i, j, err;

	decision_init(d, local, relo);
	if (!access) {
		rc_fmt(d->reason, sizeof(d->reason),
		       "access string offset %u out of range", relo->access_str_off);
		return refuse(d, -EINVAL);
	}
	err = rc_core_parse_spec(local, relo, access, &d->local, d->reason,
				 sizeof(d->reason));
	if (err)
		return refuse(d, err);

	/* TYPE_ID_LOCAL needs no target */
	if (relo->kind == RC_TYPE_ID_LOCAL) {
		d->orig_val = d->new_val = relo->type_id;
		d->validate = false;
		return 0;
	}
	lt = rc_type(local, relo->type_id);
	if (rc_str_empty(rc_name(local, lt->name_off))) {
		rc_fmt(d->reason, sizeof(d->reason),
		       "%s relocation of an anonymous type [%u] has no candidates",
		       rc_relo_kind_str(relo->kind), relo->type_id);
		return refuse(d, -EOPNOTSUPP);
	}

	d->nr_cands = cands->len;
	for (i = 0, j = 0; i < cands->len; i++) {
		err = rc_spec_match(&d->local, cands->c[i].btf, cands->c[i].id, &cand);
		if (err < 0) {
			rc_fmt(d->reason, sizeof(d->reason),
			       "error matching candidate [%u]: %s", cands->c[i].id,
			       err == -E2BIG ? "types nested or branching beyond the comparison limits" :
			       err == -EOVERFLOW ? "an indexed type of 2 GiB or more" :
			       "malformed type");
			return refuse(d, err);
		}
		if (err == 0)
			continue;

		decision_init(&cd, local, relo);
		cd.local = d->local;
		err = calc_relo(&d->local, &cand, &cd);
		if (err) {
			rc_fmt(d->reason, sizeof(d->reason), "%s", cd.reason);
			return refuse(d, err);
		}
		if (j == 0) {
			*d = cd;
			d->targ = cand;
			d->targ_type_id = cands->c[i].id;
			d->targ_btf = cands->c[i].btf;
		} else if (cand.bit_offset != d->targ.bit_offset) {
			rc_fmt(d->reason, sizeof(d->reason),
			       "ambiguous: candidates [%u] and [%u] place the field at bit %u and %u",
			       d->targ_type_id, cands->c[i].id, d->targ.bit_offset,
			       cand.bit_offset);
			return refuse(d, -EINVAL);
		} else if (cd.outcome != d->outcome || cd.new_val != d->new_val) {
			rc_fmt(d->reason, sizeof(d->reason),
			       "ambiguous: candidates [%u] and [%u] decide %s %llu and %s %llu",
			       d->targ_type_id, cands->c[i].id,
			       d->outcome == RC_POISON ? "poison" : "value",
			       (unsigned long long)d->new_val,
			       cd.outcome == RC_POISON ? "poison" : "value",
			       (unsigned long long)cd.new_val);
			return refuse(d, -EINVAL);
		}
		cands->c[j++] = cands->c[i];
	}
	d->nr_cands = cands->len;
	d->nr_matched = j;
	/* later relocations of this local type see only the matching layout */
	if (j > 0) {
		cands->len = j;
		return 0;
	}

	/* no candidate matched: existence kinds give 0, others poison */
	{
		struct rc_spec keep = d->local;
		int nc = d->nr_cands;

		decision_init(d, local, relo);
		d->local = keep;
		d->nr_cands = nc;
		err = calc_relo(&d->local, NULL, d);
		if (err)
			return refuse(d, err);
		if (d->outcome == RC_POISON)
			rc_fmt(d->reason, sizeof(d->reason), "%s",
			       nc ? "no candidate has this field/type/value"
				  : "no type of this name in the target");
	}
	return 0;
}

/*
 * A target read from a file is checked type by type as the decision reads
 * it: a malformed type read makes the decision an error naming it, and
 * the candidate list is left as it was (not narrowed on what it read).
 */
int rc_core_decide_cands(const struct rc_btf *local, const struct rc_relo *relo,
			 struct rc_cands *cands, struct rc_decision *d)
{
	struct rc_cand few[8], *orig = few;
	struct rc_lazy outer;
	int len = cands->len, ret;

	if (len > (int)(sizeof(few) / sizeof(few[0])) && !(orig = malloc(sizeof(*orig) * len)))
		return -ENOMEM;
	if (len)
		memcpy(orig, cands->c, sizeof(*orig) * len);
	outer = rc_lazy_begin();
	ret = decide_cands(local, relo, cands, d);
	if (rc_lazy_end(outer, d->reason, sizeof(d->reason))) {
		d->outcome = RC_ERROR;
		if (len)
			memcpy(cands->c, orig, sizeof(*orig) * len);
		cands->len = len;
		ret = 0;
	}
	if (orig != few)
		free(orig);
	return ret;
}

int rc_core_decide(const struct rc_btf *local, const struct rc_target *target,
		   const struct rc_relo *relo, struct rc_decision *d)
{
	struct rc_cands cands = { 0 };
	int err;

	if (relo->kind != RC_TYPE_ID_LOCAL && rc_type(local, relo->type_id)) {
		const struct btf_type *lt = rc_type(local, relo->type_id);

		if (!rc_str_empty(rc_name(local, lt->name_off))) {
			err = rc_core_find_cands(local, relo->type_id, target, &cands);
			if (err)
				return err;
		}
	}
	err = rc_core_decide_cands(local, relo, &cands, d);
	free(cands.c);
	return err;
}
