// SPDX-License-Identifier: MIT
/*
 * core_match.c - step 2 of a relocation: which target types are
 * candidates, and does a local spec match a candidate.
 *
 * The rules are libbpf's (relo_core.c), so that an object decides the
 * same with relocore and with libbpf:
 *   - candidates: same kind (enum ~ enum64), same essential name;
 *   - fields match by exact member name, looking through anonymous
 *     members of the target; their types must be "field compatible";
 *   - type relocations use "types compatible" (TYPE_EXISTS, TYPE_SIZE,
 *     TYPE_ID_TARGET) or the stricter "types match" (TYPE_MATCHES);
 *   - enumerators match by essential name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static bool kinds_compat(const struct btf_type *a, const struct btf_type *b)
{
	return btf_kind(a) == btf_kind(b) ||
	       (btf_is_any_enum(a) && btf_is_any_enum(b));
}

/*
 * Work bound of one comparison, in steps (calls and name comparisons).
 * The recursions below are bounded in depth, not in breadth: types that
 * each hold two members (or parameters) of the next one, 30 deep, make
 * 2^30 calls, and two structs of 65535 members 2^32 name comparisons.
 * libbpf walks the same way; relocore must not hang on such BTF.
 */
#define RC_MAX_STEPS (1L << 22)

/*
 * One step of the three relations below: both sides past their modifiers
 * and typedefs (@lt, @tt the types reached, @lid, @tid their ids), within
 * the depth a chain of them may have.  0, or -EINVAL: too deep, or a
 * side is malformed.
 */
static int skip_pair(const struct rc_btf *lbtf, uint32_t *lid,
		     const struct btf_type **lt, const struct rc_btf *tbtf,
		     uint32_t *tid, const struct btf_type **tt, int *depth)
{
	if (--*depth < 0)
		return -EINVAL;
	*lt = rc_skip_mods_typedefs(lbtf, *lid, lid);
	*tt = rc_skip_mods_typedefs(tbtf, *tid, tid);
	return *lt && *tt ? 0 : -EINVAL;
}

static int types_are_compat(const struct rc_btf *lbtf, uint32_t lid,
			    const struct rc_btf *tbtf, uint32_t tid, int level,
			    long *steps)
{
	const struct btf_type *lt = rc_type(lbtf, lid), *tt = rc_type(tbtf, tid);
	int depth = RC_MAX_DEPTH;

	if (--*steps < 0)
		return -E2BIG;
	if (!lt || !tt)
		return -EINVAL;
	if (!kinds_compat(lt, tt))
		return 0;
	for (;;) {
		if (skip_pair(lbtf, &lid, &lt, tbtf, &tid, &tt, &depth))
			return -EINVAL;
		if (!kinds_compat(lt, tt))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_UNKN:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FWD:
			return 1;
		case BTF_KIND_INT:
			/* legacy bitfield-like ints never match */
			return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
		case BTF_KIND_PTR:
			lid = lt->type;
			tid = tt->type;
			continue;
		case BTF_KIND_ARRAY:
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *lp = btf_params(lt), *tp = btf_params(tt);
			int i, n = btf_vlen(lt), err;

			if (n != btf_vlen(tt))
				return 0;
			for (i = 0; i < n; i++) {
				uint32_t a, b;

				if (level <= 0)
					return -EINVAL;
				rc_skip_mods_typedefs(lbtf, lp[i].type, &a);
				rc_skip_mods_typedefs(tbtf, tp[i].type, &b);
				err = types_are_compat(lbtf, a, tbtf, b, level - 1,
						       steps);
				if (err <= 0)
					return err;
			}
			rc_skip_mods_typedefs(lbtf, lt->type, &lid);
			rc_skip_mods_typedefs(tbtf, tt->type, &tid);
			continue;
		}
		default:
			return 0;
		}
	}
}

/* Compatible for TYPE_EXISTS / TYPE_SIZE / TYPE_ID_TARGET: 1, 0, -errno. */
int rc_types_are_compat(const struct rc_btf *lbtf, uint32_t lid,
			const struct rc_btf *tbtf, uint32_t tid, int level)
{
	long steps = RC_MAX_STEPS;

	return types_are_compat(lbtf, lid, tbtf, tid, level, &steps);
}

static uint32_t enum_name_off(const struct btf_type *t, int i)
{
	return btf_is_enum(t) ? btf_enum(t)[i].name_off : btf_enum64(t)[i].name_off;
}

/* Every local enumerator has a same-named one in the target; same size. */
static int enums_match(const struct rc_btf *lbtf, const struct btf_type *lt,
		       const struct rc_btf *tbtf, const struct btf_type *tt,
		       long *steps)
{
	int i, j, ln = btf_vlen(lt), tn = btf_vlen(tt);

	if (lt->size != tt->size || ln > tn)
		return 0;
	for (i = 0; i < ln; i++) {
		for (j = 0; j < tn; j++) {
			if (--*steps < 0)
				return -E2BIG;
			if (rc_names_match(lbtf, enum_name_off(lt, i), tbtf,
					   enum_name_off(tt, j)))
				break;
		}
		if (j == tn)
			return 0;
	}
	return 1;
}

static int types_match(const struct rc_btf *lbtf, uint32_t lid,
		       const struct rc_btf *tbtf, uint32_t tid, bool behind_ptr,
		       int level, long *steps);

/* Every local member has a same-named, matching member in the target. */
static int composites_match(const struct rc_btf *lbtf, const struct btf_type *lt,
			    const struct rc_btf *tbtf, const struct btf_type *tt,
			    bool behind_ptr, int level, long *steps)
{
	const struct btf_member *lm = btf_members(lt);
	int i, j, ln = btf_vlen(lt), tn = btf_vlen(tt), err;

	if (ln > tn)
		return 0;
	for (i = 0; i < ln; i++, lm++) {
		const struct btf_member *tm = btf_members(tt);
		bool matched = false;

		for (j = 0; j < tn && !matched; j++, tm++) {
			if (--*steps < 0)
				return -E2BIG;
			if (!rc_names_match(lbtf, lm->name_off, tbtf, tm->name_off))
				continue;
			err = types_match(lbtf, lm->type, tbtf, tm->type,
					  behind_ptr, level - 1, steps);
			if (err < 0)
				return err;
			matched = err > 0;
		}
		if (!matched)
			return 0;
	}
	return 1;
}

static int types_match(const struct rc_btf *lbtf, uint32_t lid,
		       const struct rc_btf *tbtf, uint32_t tid, bool behind_ptr,
		       int level, long *steps)
{
	const struct btf_type *lt, *tt;
	int depth = RC_MAX_DEPTH;

	if (level <= 0)
		return -EINVAL;
	if (--*steps < 0)
		return -E2BIG;
	for (;;) {
		int lk, tk;

		if (skip_pair(lbtf, &lid, &lt, tbtf, &tid, &tt, &depth))
			return -EINVAL;
		if (!rc_names_match(lbtf, lt->name_off, tbtf, tt->name_off))
			return 0;
		lk = btf_kind(lt);
		tk = btf_kind(tt);
		switch (lk) {
		case BTF_KIND_UNKN:
			return lk == tk;
		case BTF_KIND_FWD:
			if (lk == tk)
				return btf_kflag(lt) == btf_kflag(tt);
			if (!behind_ptr)
				return 0;
			/* a forward declaration's kflag says struct (0) or union (1) */
			return (tk == BTF_KIND_STRUCT && !btf_kflag(lt)) ||
			       (tk == BTF_KIND_UNION && btf_kflag(lt));
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			if (!btf_is_any_enum(tt))
				return 0;
			return enums_match(lbtf, lt, tbtf, tt, steps);
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			if (behind_ptr) {
				if (lk == tk)
					return 1;
				if (tk != BTF_KIND_FWD)
					return 0;
				return (lk == BTF_KIND_UNION) == btf_kflag(tt);
			}
			if (lk != tk)
				return 0;
			return composites_match(lbtf, lt, tbtf, tt, behind_ptr, level,
						steps);
		case BTF_KIND_INT:
			if (lk != tk)
				return 0;
			return lt->size == tt->size &&
			       (btf_int_encoding(lt) & BTF_INT_SIGNED) ==
			       (btf_int_encoding(tt) & BTF_INT_SIGNED);
		case BTF_KIND_PTR:
			if (lk != tk)
				return 0;
			behind_ptr = true;
			lid = lt->type;
			tid = tt->type;
			continue;
		case BTF_KIND_ARRAY:
			if (lk != tk || btf_array(lt)->nelems != btf_array(tt)->nelems)
				return 0;
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *lp = btf_params(lt), *tp = btf_params(tt);
			int i, n = btf_vlen(lt), err;

			if (lk != tk || n != btf_vlen(tt))
				return 0;
			for (i = 0; i < n; i++) {
				err = types_match(lbtf, lp[i].type, tbtf, tp[i].type,
						  behind_ptr, level - 1, steps);
				if (err <= 0)
					return err;
			}
			lid = lt->type;
			tid = tt->type;
			continue;
		}
		default:
			return 0;
		}
	}
}

/* TYPE_MATCHES: the stricter "same shape" relation.  1, 0 or -errno. */
int rc_types_match(const struct rc_btf *lbtf, uint32_t lid,
		   const struct rc_btf *tbtf, uint32_t tid, bool behind_ptr,
		   int level)
{
	long steps = RC_MAX_STEPS;

	return types_match(lbtf, lid, tbtf, tid, behind_ptr, level, &steps);
}

/* May a field of local type @lid be read as a field of target type @tid? */
int rc_fields_are_compat(const struct rc_btf *lbtf, uint32_t lid,
			 const struct rc_btf *tbtf, uint32_t tid)
{
	const struct btf_type *lt, *tt;
	int depth = RC_MAX_DEPTH;

	for (;;) {
		if (skip_pair(lbtf, &lid, &lt, tbtf, &tid, &tt, &depth))
			return -EINVAL;
		if (btf_is_composite(lt) && btf_is_composite(tt))
			return 1;
		if (!kinds_compat(lt, tt))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_PTR:
		case BTF_KIND_FLOAT:
			return 1;
		case BTF_KIND_FWD:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64: {
			const char *ln = rc_name(lbtf, lt->name_off);
			const char *tn = rc_name(tbtf, tt->name_off);
			size_t ll, tl;

			if (!ln || !tn)
				return -EINVAL;
			ll = rc_essential_name_len(ln);
			tl = rc_essential_name_len(tn);
			/* anonymous on either side, or same essential name */
			return ll == 0 || tl == 0 ||
			       (ll == tl && strncmp(ln, tn, ll) == 0);
		}
		case BTF_KIND_INT:
			return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
		case BTF_KIND_ARRAY:
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		default:
			return 0;
		}
	}
}

/*
 * Find local member @lacc by name in target composite @tid, descending
 * into anonymous members.  Extends @spec's raw path and bit offset; on a
 * match appends a named step and stores the member's type in @next_id.
 * As in libbpf, the depth is bounded by the spec's length only (-E2BIG).
 */
static int match_member(const struct rc_btf *lbtf, const struct rc_access *lacc,
			const struct rc_btf *tbtf, uint32_t tid, struct rc_spec *spec,
			uint32_t *next_id, long *steps)
{
	const struct btf_type *lt = rc_type(lbtf, lacc->type_id), *tt;
	const struct btf_member *lm, *m;
	int i, n, found;

	if (!lt)
		return -EINVAL;
	lm = btf_members(lt) + lacc->idx;
	tt = rc_skip_mods_typedefs(tbtf, tid, &tid);
	if (!tt)
		return -EINVAL;
	if (!btf_is_composite(tt))
		return 0;
	n = btf_vlen(tt);
	m = btf_members(tt);
	for (i = 0; i < n; i++, m++) {
		uint32_t bit_off = btf_member_bit_offset(tt, i);
		const char *name;

		if (--*steps < 0)
			return -E2BIG;
		if (spec->raw_len == RC_MAX_SPEC_LEN)
			return -E2BIG;
		/* tentatively step into this member */
		spec->bit_offset += bit_off;
		spec->raw[spec->raw_len++] = i;
		name = rc_name(tbtf, m->name_off);
		if (!name)
			return -EINVAL;
		if (!name[0]) {
			found = match_member(lbtf, lacc, tbtf, m->type, spec,
					     next_id, steps);
			if (found)
				return found;
		} else if (strcmp(lacc->name, name) == 0) {
			struct rc_access *tacc;

			if (spec->len == RC_MAX_SPEC_LEN)
				return -E2BIG;
			tacc = &spec->steps[spec->len++];
			tacc->type_id = tid;
			tacc->idx = i;
			tacc->name = name;
			*next_id = m->type;
			found = rc_fields_are_compat(lbtf, lm->type, tbtf, m->type);
			if (found <= 0)
				spec->len--;
			return found;
		}
		spec->bit_offset -= bit_off;
		spec->raw_len--;
	}
	return 0;
}

static int match_enumval(const struct rc_spec *local, const struct rc_btf *tbtf,
			 uint32_t tid, struct rc_spec *targ)
{
	const struct btf_type *tt = rc_skip_mods_typedefs(tbtf, tid, &tid);
	const char *lname = local->steps[0].name;
	size_t llen = rc_essential_name_len(lname);
	int i;

	if (!tt)
		return -EINVAL;
	if (!btf_is_any_enum(tt))
		return 0;
	for (i = 0; i < btf_vlen(tt); i++) {
		const char *n = rc_name(tbtf, enum_name_off(tt, i));

		if (!n)
			return -EINVAL;
		if (rc_essential_name_len(n) == llen && !strncmp(lname, n, llen)) {
			targ->steps[0] = (struct rc_access){ tid, i, n };
			targ->len = 1;
			targ->raw[0] = i;
			targ->raw_len = 1;
			return 1;
		}
	}
	return 0;
}

int rc_spec_match(const struct rc_spec *local, const struct rc_btf *tbtf,
		  uint32_t tid, struct rc_spec *targ)
{
	long steps = RC_MAX_STEPS;
	int i;

	memset(targ, 0, sizeof(*targ));
	targ->btf = tbtf;
	targ->root_type_id = tid;
	targ->kind = local->kind;

	if (rc_kind_type_based(local->kind)) {
		if (local->kind == RC_TYPE_MATCHES)
			return rc_types_match(local->btf, local->root_type_id,
					      tbtf, tid, false, RC_MAX_DEPTH);
		return rc_types_are_compat(local->btf, local->root_type_id,
					   tbtf, tid, RC_MAX_DEPTH);
	}
	if (rc_kind_enumval_based(local->kind))
		return match_enumval(local, tbtf, tid, targ);

	for (i = 0; i < local->len; i++) {
		const struct rc_access *lacc = &local->steps[i];
		const struct btf_type *tt = rc_skip_mods_typedefs(tbtf, tid, &tid);
		int64_t sz;

		if (!tt)
			return -EINVAL;
		if (lacc->name) {
			int m = match_member(local->btf, lacc, tbtf, tid, targ, &tid,
					     &steps);

			if (m <= 0)
				return m;
			continue;
		}
		/* array step; step 0 indexes the root type itself */
		if (i > 0) {
			const struct btf_array *a;

			if (!btf_is_array(tt))
				return 0;
			a = btf_array(tt);
			if (!rc_is_flex_arr(tbtf, &targ->steps[targ->len - 1], a) &&
			    lacc->idx >= a->nelems)
				return 0;
			if (!rc_skip_mods_typedefs(tbtf, a->type, &tid))
				return -EINVAL;
		}
		if (targ->raw_len == RC_MAX_SPEC_LEN || targ->len == RC_MAX_SPEC_LEN)
			return -E2BIG;
		targ->steps[targ->len++] = (struct rc_access){ tid, lacc->idx, NULL };
		targ->raw[targ->raw_len++] = lacc->idx;
		sz = rc_btf_resolve_size(tbtf, tid);
		if (sz < 0)
			return -EINVAL;
		if (sz > INT32_MAX)	/* libbpf holds it in an int: an error */
			return -EOVERFLOW;
		targ->bit_offset += (uint64_t)lacc->idx * sz * 8;
	}
	return 1;
}
