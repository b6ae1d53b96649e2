// SPDX-License-Identifier: MIT
/*
 * minimize.c - keep exactly what relocations need of a full kernel BTF.
 *
 * For every relocation, every target candidate it matches contributes:
 *   field kinds:  each struct/union member on the matched access path
 *                 (anonymous ones included), the arrays stepped through,
 *                 and the types of those members as shells;
 *   TYPE_EXISTS, TYPE_SIZE, TYPE_ID_TARGET: the root type as a shell;
 *   TYPE_MATCHES: the root type whole, recursively (pointees as shells);
 *   ENUMVAL_*:    the enum, with the enumerator matched.
 * A shell is a type with its name, size and kind but no members (for an
 * enum: no enumerators, but its signedness); what a
 * kept type refers to (typedef targets, pointees, array elements) is kept
 * as a shell too, so sizes and offsets resolve exactly as in the full BTF.
 * A member that is a pointer keeps only the pointer: field relocations
 * look no further (its pointee is kept only if needed for another reason,
 * and modifiers on the way to it are dropped).
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btfgen.h"
#include "relocore_private.h"

static int mark(struct bg_subset *s, uint32_t id, int how, int depth);

static int mark_member(struct bg_subset *s, uint32_t id, int i)
{
	const struct btf_type *t = rc_type(s->src, id), *mt;

	if (!s->members[id]) {
		if (s->nr_masks == s->cap_masks) {
			uint32_t cap = s->cap_masks ? 2 * s->cap_masks : 64;
			uint32_t *ids = realloc(s->mask_ids, sizeof(*ids) * cap);

			if (!ids)
				return -ENOMEM;
			s->mask_ids = ids;
			s->cap_masks = cap;
		}
		s->members[id] = calloc(btf_vlen(t) ? btf_vlen(t) : 1, 1);
		if (!s->members[id])
			return -ENOMEM;
		s->mask_ids[s->nr_masks++] = id;
	}
	s->members[id][i] = 1;
	if (btf_is_any_enum(t))		/* an enumerator */
		return mark(s, id, BG_SHELL, 0);
	mt = rc_type(s->src, btf_members(t)[i].type);
	if (mt && btf_is_ptr(mt) &&
	    (!s->keep[btf_members(t)[i].type] || s->weak_ptr[btf_members(t)[i].type])) {
		/* a pointer member: its size and kind are all a field needs
		 * (libbpf's field compatibility takes any pointer for any
		 * pointer), however many relocations reach it */
		s->keep[btf_members(t)[i].type] = BG_SHELL;
		s->weak_ptr[btf_members(t)[i].type] = 1;
		return 0;
	}
	return mark(s, btf_members(t)[i].type, BG_SHELL, 0);
}

/* Keep type @id (@how: BG_SHELL or BG_WHOLE) and what it refers to. */
static int mark(struct bg_subset *s, uint32_t id, int how, int depth)
{
	const struct btf_type *t;
	int i, err;

	if (!id)
		return 0;
	if (id >= s->n || depth > 64)
		return -EINVAL;
	if (s->weak_ptr[id]) {		/* now needed as a whole pointer */
		s->weak_ptr[id] = 0;
		s->keep[id] = 0;
	}
	if (s->keep[id] >= how)
		return 0;
	s->keep[id] = how;
	t = rc_type(s->src, id);
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (how != BG_WHOLE)
			return 0;
		for (i = 0; i < btf_vlen(t); i++) {
			err = mark(s, btf_members(t)[i].type, BG_WHOLE, depth + 1);
			if (err)
				return err;
		}
		return 0;
	case BTF_KIND_PTR:
		/* behind a pointer only the kind and name count */
		return mark(s, t->type, BG_SHELL, depth + 1);
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return mark(s, t->type, how, depth + 1);
	case BTF_KIND_ARRAY:
		return mark(s, btf_array(t)->type, how, depth + 1) ?:
		       mark(s, btf_array(t)->index_type, BG_SHELL, depth + 1);
	case BTF_KIND_FUNC_PROTO:
		for (i = 0; i < btf_vlen(t); i++) {
			err = mark(s, btf_params(t)[i].type, how, depth + 1);
			if (err)
				return err;
		}
		return mark(s, t->type, how, depth + 1);
	default:
		return 0;
	}
}

/* Keep the access path of a matched target spec. */
static int mark_path(struct bg_subset *s, const struct rc_spec *targ)
{
	uint32_t id = targ->root_type_id;
	int i, err;

	err = mark(s, id, BG_SHELL, 0);
	for (i = 1; !err && i < targ->raw_len; i++) {
		const struct btf_type *t = rc_skip_mods_typedefs(s->src, id, &id);

		if (!t)
			return -EINVAL;
		if (btf_is_composite(t)) {
			err = mark_member(s, id, targ->raw[i]);
			id = btf_members(t)[targ->raw[i]].type;
		} else if (btf_is_array(t)) {
			err = mark(s, id, BG_SHELL, 0);
			id = btf_array(t)->type;
		} else {
			return -EINVAL;
		}
	}
	return err;
}

int bg_subset_add_relo(struct bg_subset *s, const struct rc_btf *local,
		       const struct rc_relo *relo, const struct rc_target *target)
{
	const char *access = rc_name(local, relo->access_str_off);
	struct rc_cands cands = { 0 };
	struct rc_spec lspec, tspec;
	char why[256];
	int i, err;

	if (relo->kind == RC_TYPE_ID_LOCAL)
		return 0;
	err = rc_core_parse_spec(local, relo, access ? access : "", &lspec, why,
				 sizeof(why));
	if (err)
		return 0;	/* refused either way: nothing to keep */
	err = rc_core_find_cands(local, relo->type_id, target, &cands);
	if (err)
		return err == -EINVAL ? 0 : err;	/* anonymous local type */
	for (i = 0; i < cands.len && !err; i++) {
		int m;

		if (cands.c[i].btf != s->src)
			continue;	/* a module's type: not ours to keep */
		m = rc_spec_match(&lspec, s->src, cands.c[i].id, &tspec);
		if (m <= 0)
			continue;
		if (rc_kind_field_based(relo->kind))
			err = mark_path(s, &tspec);
		else if (relo->kind == RC_TYPE_MATCHES)
			err = mark(s, cands.c[i].id, BG_WHOLE, 0);
		else if (rc_kind_enumval_based(relo->kind))
			err = mark_member(s, tspec.steps[0].type_id, tspec.steps[0].idx) ?:
			      mark(s, cands.c[i].id, BG_SHELL, 0);
		else
			err = mark(s, cands.c[i].id, BG_SHELL, 0);
	}
	free(cands.c);
	return err;
}

static struct btf *minimize(const struct rc_target *target, const char *const *objs,
			    int nr_objs, struct rc_error *err)
{
	const struct rc_btf *full = rc_target_types(target);
	struct bg_subset s;
	struct btf *out = NULL;
	int i, ret;

	if (bg_subset_init(&s, full)) {
		rc_fmt(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	for (i = 0; i < nr_objs; i++) {
		/* a binary that embeds several objects: all of them */
		struct rc_object **all;
		size_t j, k, n, nr_all;

		if (rc_object_open_all(objs[i], &all, &nr_all, err))
			goto out;
		for (j = 0, ret = 0; j < nr_all && !ret; j++) {
			struct rc_object *obj = all[j];

			n = rc_object_relo_count(obj);
			if (n && rc_object_big_endian(obj) != full->big_endian) {
				rc_fmt(err->msg, sizeof(err->msg),
				       "%s: a %s-endian object, a %s-endian kernel BTF: it cannot load there",
				       rc_object_name(obj), rc_object_big_endian(obj) ? "big" : "little",
				       full->big_endian ? "big" : "little");
				ret = -EINVAL;
			}
			for (k = 0; k < n && !ret; k++) {
				const struct rc_relo *relo;
				const char *sec;
				uint32_t insn;

				relo = rc_object_relo(obj, k, &sec, &insn);
				ret = bg_subset_add_relo(&s, rc_object_types(obj), relo, target);
				if (ret)
					rc_fmt(err->msg, sizeof(err->msg),
					       "%s: section %s insn #%u: cannot keep the types of this relocation: %s",
					       rc_object_name(obj), sec, insn, strerror(-ret));
			}
		}
		for (j = 0; j < nr_all; j++)
			rc_object_free(all[j]);
		free(all);
		if (ret)
			goto out;
	}
	out = bg_subset_emit(&s, NULL, 0);
	if (!out)
		rc_fmt(err->msg, sizeof(err->msg), "cannot emit the minimized BTF: %s",
		       strerror(errno));
	else if (full->big_endian)	/* written in its kernel's order, as its bpftool does */
		btf__set_endianness(out, BTF_BIG_ENDIAN);
out:
	bg_subset_free(&s);
	return out;
}

/* A target read from a file is checked type by type as this reads it: a
 * malformed type read fails the whole (nothing half-minimized). */
struct btf *bg_minimize(const struct rc_target *target, const char *const *objs,
			int nr_objs, struct rc_error *err)
{
	struct rc_lazy outer = rc_lazy_begin();
	struct btf *out = minimize(target, objs, nr_objs, err);
	char why[sizeof(err->msg)];

	if (rc_lazy_end(outer, why, sizeof(why))) {
		btf__free(out);
		rc_fmt(err->msg, sizeof(err->msg), "%s", why);
		return NULL;
	}
	return out;
}
