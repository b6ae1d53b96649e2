// SPDX-License-Identifier: MIT
/*
 * subset.c - choose types (and struct members) of a BTF and emit them as
 * a new, renumbered BTF with the same sizes and offsets.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btfgen.h"
#include "relocore_private.h"

int bg_subset_init(struct bg_subset *s, const struct rc_btf *src)
{
	memset(s, 0, sizeof(*s));
	s->src = src;
	s->n = rc_btf_type_cnt(src);
	s->keep = calloc(s->n, 1);
	s->weak_ptr = calloc(s->n, 1);
	s->members = calloc(s->n, sizeof(*s->members));
	if (!s->keep || !s->members || !s->weak_ptr) {
		bg_subset_free(s);
		return -ENOMEM;
	}
	return 0;
}

void bg_subset_free(struct bg_subset *s)
{
	uint32_t i;

	for (i = 0; s->members && i < s->nr_masks; i++)
		free(s->members[s->mask_ids[i]]);
	free(s->mask_ids);
	free(s->members);
	free(s->keep);
	free(s->weak_ptr);
	memset(s, 0, sizeof(*s));
}

/* Old id -> new id, 0 for void; -1 when a referenced type was not kept
 * (@map holds new id + 1, 0 for "not kept": a zeroed allocation). */
static int map_id(const int32_t *map, uint32_t id)
{
	return id ? map[id] - 1 : 0;
}

static bool member_kept(const struct bg_subset *s, uint32_t id, int i)
{
	return s->keep[id] == BG_WHOLE ||
	       (s->members[id] && s->members[id][i]);
}

/* An enum with only the enumerators marked; same size and signedness. */
static int emit_enum(const struct bg_subset *s, struct btf *dst, uint32_t id,
		     const struct btf_type *t, const char *name)
{
	bool is64 = btf_is_enum64(t);
	int nid, i, err;
	struct btf_type *nt;

	nid = is64 ? btf__add_enum64(dst, name, t->size, btf_kflag(t)) :
		     btf__add_enum(dst, name, t->size);
	if (nid < 0)
		return nid;
	for (i = 0; i < btf_vlen(t); i++) {
		if (!member_kept(s, id, i))
			continue;
		if (is64) {
			const struct btf_enum64 *e = btf_enum64(t) + i;

			err = btf__add_enum64_value(dst, rc_name(s->src, e->name_off),
						    btf_enum64_value(e));
		} else {
			const struct btf_enum *e = btf_enum(t) + i;

			err = btf__add_enum_value(dst, rc_name(s->src, e->name_off),
						  e->val);
		}
		if (err)
			return err;
	}
	/* libbpf derives kflag (signedness) from the values added: restore it */
	nt = (struct btf_type *)btf__type_by_id(dst, nid);
	nt->info = (uint32_t)btf_kflag(t) << 31 | (uint32_t)btf_kind(nt) << 24 | btf_vlen(nt);
	return nid;
}

/*
 * Append @t (named @name; a type without references: INT, FLOAT, FWD,
 * ENUM, ENUM64) to @dst as it is: a record of its kind and length added
 * with its strings, then its other words copied.
 */
static int copy_type(const struct bg_subset *s, struct btf *dst, const struct btf_type *t,
		     const char *name)
{
	size_t sz = rc_btf_rec_size(t), i, vlen = btf_vlen(t);
	bool is64 = btf_is_enum64(t);
	struct btf_type *nt;
	uint32_t *offs;
	int nid, err = 0;

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		nid = btf__add_int(dst, name, 1, 0);
		break;
	case BTF_KIND_FLOAT:
		nid = btf__add_float(dst, name, 4);
		break;
	case BTF_KIND_FWD:
		nid = btf__add_fwd(dst, name, BTF_FWD_STRUCT);
		break;
	default:
		nid = is64 ? btf__add_enum64(dst, name, 8, false) : btf__add_enum(dst, name, 4);
		for (i = 0; nid > 0 && i < vlen && !err; i++) {
			const char *n = rc_name(s->src, is64 ? btf_enum64(t)[i].name_off :
							       btf_enum(t)[i].name_off);

			err = is64 ? btf__add_enum64_value(dst, n, 0) :
				     btf__add_enum_value(dst, n, 0);
		}
		break;
	}
	if (nid < 0 || err)
		return nid < 0 ? nid : err;
	nt = (struct btf_type *)btf__type_by_id(dst, nid);
	if (rc_btf_rec_size(nt) != sz)
		return -EINVAL;
	/* keep the string offsets just made, take every other word */
	offs = malloc(sizeof(*offs) * (vlen + 1));
	if (!offs)
		return -ENOMEM;
	offs[0] = nt->name_off;
	for (i = 0; btf_is_any_enum(t) && i < vlen; i++)
		offs[i + 1] = is64 ? btf_enum64(nt)[i].name_off : btf_enum(nt)[i].name_off;
	memcpy(nt, t, sz);
	nt->name_off = offs[0];
	for (i = 0; btf_is_any_enum(t) && i < vlen; i++) {
		if (is64)
			btf_enum64(nt)[i].name_off = offs[i + 1];
		else
			btf_enum(nt)[i].name_off = offs[i + 1];
	}
	free(offs);
	return nid;
}

/* Append type @id of src to @dst, references through @map. */
static int emit_one(const struct bg_subset *s, struct btf *dst, uint32_t id,
		    const int32_t *map)
{
	const struct rc_btf *src = s->src;
	const struct btf_type *t = rc_type(src, id);
	const char *name = rc_name(src, t->name_off);
	int i, err, ref = 0;

	if (rc_btf_kinds[btf_kind(t)].type_ref != RC_REF_NONE) {	/* t->type is a type id */
		ref = map_id(map, t->type);
		if (ref < 0 && !(btf_is_ptr(t) && s->weak_ptr[id]))
			return -ENOENT;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_FWD: {
		/* an archive renames forward declarations per kernel (see
		 * archive.c): the original name is before BG_FWD_TAG */
		const char *tag = strstr(name, BG_FWD_TAG);
		char buf[512];

		if (!tag)
			return copy_type(s, dst, t, name);
		snprintf(buf, sizeof(buf), "%.*s", (int)(tag - name), name);
		return btf__add_fwd(dst, buf, btf_kflag(t) ? BTF_FWD_UNION : BTF_FWD_STRUCT);
	}
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (s->keep[id] == BG_WHOLE)
			return copy_type(s, dst, t, name);
		return emit_enum(s, dst, id, t, name);
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
		/* no references: copied as they are */
		return copy_type(s, dst, t, name);
	case BTF_KIND_PTR:
		if (s->weak_ptr[id]) {
			/* a member's pointer: what it points to is irrelevant
			 * unless kept anyway; modifiers on the way are dropped */
			uint32_t to = t->type;
			const struct btf_type *pt = rc_type(src, to);

			while (pt && btf_is_mod(pt)) {
				to = pt->type;
				pt = rc_type(src, to);
			}
			ref = to && s->keep[to] ? map_id(map, to) : 0;
		}
		return btf__add_ptr(dst, ref);
	case BTF_KIND_TYPEDEF:
		return btf__add_typedef(dst, name, ref);
	case BTF_KIND_VOLATILE:
		return btf__add_volatile(dst, ref);
	case BTF_KIND_CONST:
		return btf__add_const(dst, ref);
	case BTF_KIND_RESTRICT:
		return btf__add_restrict(dst, ref);
	case BTF_KIND_TYPE_TAG:
		return btf__add_type_tag(dst, name, ref);
	case BTF_KIND_FUNC:
		return btf__add_func(dst, name, btf_vlen(t), ref);
	case BTF_KIND_VAR:
		return btf__add_var(dst, name, btf_var(t)->linkage, ref);
	case BTF_KIND_DECL_TAG:
		return btf__add_decl_tag(dst, name, ref, btf_decl_tag(t)->component_idx);
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		int e = map_id(map, a->type), ix = map_id(map, a->index_type);

		if (e < 0 || ix < 0)
			return -ENOENT;
		return btf__add_array(dst, ix, e, a->nelems);
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);
		int nid = btf_is_struct(t) ? btf__add_struct(dst, name, t->size) :
			  btf__add_union(dst, name, t->size);

		if (nid < 0)
			return nid;
		for (i = 0; i < btf_vlen(t); i++, m++) {
			int mt;

			if (!member_kept(s, id, i))
				continue;
			mt = map_id(map, m->type);
			if (mt < 0)
				return -ENOENT;
			err = btf__add_field(dst, rc_name(src, m->name_off), mt,
					     btf_member_bit_offset(t, i),
					     btf_member_bitfield_size(t, i));
			if (err)
				return err;
		}
		return nid;
	}
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *p = btf_params(t);
		int nid = btf__add_func_proto(dst, ref);

		if (nid < 0)
			return nid;
		for (i = 0; i < btf_vlen(t); i++, p++) {
			int pt = map_id(map, p->type);

			if (pt < 0)
				return -ENOENT;
			err = btf__add_func_param(dst, rc_name(src, p->name_off), pt);
			if (err)
				return err;
		}
		return nid;
	}
	case BTF_KIND_DATASEC: {
		const struct btf_var_secinfo *v = btf_var_secinfos(t);
		int nid = btf__add_datasec(dst, name, t->size);

		if (nid < 0)
			return nid;
		for (i = 0; i < btf_vlen(t); i++, v++) {
			int vt = map_id(map, v->type);

			if (vt < 0)
				return -ENOENT;
			err = btf__add_datasec_var_info(dst, vt, v->offset, v->size);
			if (err)
				return err;
		}
		return nid;
	}
	default:
		return -EINVAL;
	}
}

struct btf *bg_subset_emit(const struct bg_subset *s, const uint32_t *order,
			   uint32_t nr)
{
	int32_t *map = calloc(s->n, sizeof(*map));	/* new id + 1 */
	uint32_t *ids = NULL, i, k = 0;
	struct btf *dst = btf__new_empty();
	int err = -ENOMEM;

	if (!map || !dst)
		goto fail;
	if (!order) {
		ids = malloc(sizeof(*ids) * s->n);
		if (!ids)
			goto fail;
		for (i = 1; i < s->n; i++) {
			uint64_t w;

			/* few are kept: skip 8 unkept ids at a time */
			if (!(i & 7) && i + 8 <= s->n && (memcpy(&w, s->keep + i, 8), !w)) {
				i += 7;
				continue;
			}
			if (s->keep[i])
				ids[nr++] = i;
		}
		order = ids;
	}
	/* assign the new ids first, so that references may point forward */
	for (i = 0; i < nr; i++) {
		if (order[i] == 0 || order[i] >= s->n || map[order[i]])
			continue;
		map[order[i]] = ++k + 1;
	}
	for (i = 0, k = 0; i < nr; i++) {
		int id;

		if (order[i] == 0 || order[i] >= s->n || map[order[i]] != (int32_t)k + 2)
			continue;	/* a duplicate in @order */
		id = emit_one(s, dst, order[i], map);
		if (id < 0) {
			err = id;
			goto fail;
		}
		k++;
	}
	free(map);
	free(ids);
	return dst;
fail:
	free(map);
	free(ids);
	btf__free(dst);
	errno = -err;
	return NULL;
}
