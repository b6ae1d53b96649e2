// SPDX-License-Identifier: MIT
/*
 * target_btf.c - what relocore check asks of the target's BTF: does it have
 * a FUNC, VAR, STRUCT or TYPEDEF of a name (vmlinux first, then each
 * module's BTF), a function's parameters, and the enums that list what the
 * kernel supports (bpf_func_id, bpf_prog_type, bpf_attach_type,
 * bpf_map_type).  Lookups only: every decision is the caller's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"

static bool find_in(const struct rc_btf *btf, const char *name, int kind)
{
	return btf && rc_btf_find_by_name_kind(btf, name, kind) > 0;
}

/* @name of @kind in vmlinux or any module BTF; the module's name in *@mod. */
bool chk_target_has(const struct ctx *c, const char *name, int kind, const char **mod)
{
	int i;

	if (mod)
		*mod = NULL;
	if (find_in(c->vml, name, kind))
		return true;
	for (i = 0; i < rc_target_nr_modules(c->tg); i++)
		if (find_in(rc_target_module(c->tg, i, mod), name, kind))
			return true;
	if (mod)
		*mod = NULL;
	return false;
}

/* @name of @kind in vmlinux or a module BTF: its type and BTF, or NULL */
const struct btf_type *chk_target_type(const struct ctx *c, const char *name, int kind,
				       const struct rc_btf **in)
{
	int i, id;

	if (c->vml && (id = rc_btf_find_by_name_kind(c->vml, name, kind)) > 0) {
		*in = c->vml;
		return rc_type(c->vml, id);
	}
	for (i = 0; i < rc_target_nr_modules(c->tg); i++) {
		const struct rc_btf *m = rc_target_module(c->tg, i, NULL);

		if (m && (id = rc_btf_find_by_name_kind(m, name, kind)) > 0) {
			*in = m;
			return rc_type(m, id);
		}
	}
	return NULL;
}

/* The number of parameters of FUNC (or of the FUNC_PROTO a typedef points
 * to) @name of @kind in the target, or -1 */
int chk_target_nr_params(const struct ctx *c, const char *name, int kind)
{
	const struct rc_btf *b;
	const struct btf_type *t = chk_target_type(c, name, kind, &b);

	if (t && kind == BTF_KIND_TYPEDEF) {	/* btf_trace_X: PTR -> FUNC_PROTO */
		t = rc_type(b, t->type);
		if (t && btf_is_ptr(t))
			t = rc_type(b, t->type);
	} else if (t) {
		t = rc_type(b, t->type);
	}
	if (!t || !btf_is_func_proto(t))
		return -1;
	/* a trailing void parameter: variable arguments, not one */
	if (btf_vlen(t) && !btf_params(t)[btf_vlen(t) - 1].type)
		return btf_vlen(t) - 1;
	return btf_vlen(t);
}

/* The target's (vmlinux's) enum @ename, or NULL. */
const struct btf_type *chk_target_enum(const struct ctx *c, const char *ename)
{
	int id = c->vml ? rc_btf_find_by_name_kind(c->vml, ename, BTF_KIND_ENUM) : -1;

	return id > 0 ? rc_type(c->vml, id) : NULL;
}

/* A member of enum @t named @val, or (@val NULL) of value @v that is no
 * *_UNSPEC / __*_MAX_* bookend */
static bool enum_has(const struct ctx *c, const struct btf_type *t,
		     const char *val, int64_t v)
{
	const struct btf_enum *m;
	int i;

	if (!t)
		return false;
	m = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = rc_name(c->vml, m->name_off);

		if (!n)
			continue;
		if (val ? !strcmp(n, val)
			: m->val == v && strncmp(n, "__", 2) && !strstr(n, "_UNSPEC"))
			return true;
	}
	return false;
}

/* Is @val a name of enum @t? */
bool chk_enum_has_name(const struct ctx *c, const struct btf_type *t, const char *val)
{
	return enum_has(c, t, val, 0);
}

/* Is @v a value of @t other than its *_UNSPEC / __*_MAX_* bookends? */
bool chk_enum_has_value(const struct ctx *c, const struct btf_type *t, int64_t v)
{
	return enum_has(c, t, NULL, v);
}

/* c->helpers[id]: @id is a helper of the target's enum bpf_func_id (none
 * when it has no such enum).  0 or -ENOMEM. */
int chk_load_helpers(struct ctx *c)
{
	const struct btf_type *t = chk_target_enum(c, "bpf_func_id");
	const struct btf_enum *m;
	int i;

	if (!t)
		return 0;
	m = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++)
		if (m[i].val >= 0 && m[i].val < 1 << 16 && m[i].val + 1 > c->nr_helpers)
			c->nr_helpers = m[i].val + 1;
	c->helpers = calloc(c->nr_helpers ? c->nr_helpers : 1, 1);
	if (!c->helpers)
		return -ENOMEM;
	for (i = 0; i < btf_vlen(t); i++) {
		const char *n = rc_name(c->vml, m[i].name_off);

		if (m[i].val > 0 && m[i].val < c->nr_helpers && n &&
		    strncmp(n, "__", 2))
			c->helpers[m[i].val] = 1;
	}
	return 0;
}
