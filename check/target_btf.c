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

/* @name of @kind: in vmlinux (*@mod -1) or the first module BTF that has
 * it; its id, 0 when none has it.  Remembered in c->tl. */
static int lookup(const struct ctx *c, const char *name, int kind, int *mod)
{
	struct tlookups *tl = c->tl;
	struct tlookup *l;
	size_t k;
	int i, id = -1;

	for (k = 0; tl && k < tl->n; k++)
		if (tl->v[k].kind == kind && !strcmp(tl->v[k].name, name)) {
			*mod = tl->v[k].mod;
			return tl->v[k].id;
		}
	*mod = -1;
	if (c->vml)
		id = rc_btf_find_by_name_kind(c->vml, name, kind);
	for (i = 0; id <= 0 && i < rc_target_nr_modules(c->tg); i++) {
		const struct rc_btf *m = rc_target_module(c->tg, i, NULL);

		if (m && (id = rc_btf_find_by_name_kind(m, name, kind)) > 0)
			*mod = i;
	}
	if (id < 0)
		id = 0;
	if (tl && tl->n == tl->cap) {	/* out of memory: not remembered */
		size_t cap = tl->cap ? tl->cap * 2 : 64;
		struct tlookup *v = realloc(tl->v, cap * sizeof(*v));

		if (v) {
			tl->v = v;
			tl->cap = cap;
		}
	}
	if (tl && tl->n < tl->cap && (l = &tl->v[tl->n]) && (l->name = strdup(name))) {
		l->kind = kind;
		l->mod = *mod;
		l->id = id;
		tl->n++;
	}
	return id;
}

void chk_target_lookups_free(struct tlookups *tl)
{
	size_t k;

	for (k = 0; tl && k < tl->n; k++)
		free(tl->v[k].name);
	if (tl)
		free(tl->v);
}

/* @name of @kind in vmlinux or any module BTF; the module's name in *@mod. */
bool chk_target_has(const struct ctx *c, const char *name, int kind, const char **mod)
{
	int m, id = lookup(c, name, kind, &m);

	if (mod)
		*mod = NULL;
	if (id && m >= 0 && mod)
		rc_target_module(c->tg, m, mod);
	return id > 0;
}

/* @name of @kind in vmlinux or a module BTF: its type and BTF, or NULL */
const struct btf_type *chk_target_type(const struct ctx *c, const char *name, int kind,
				       const struct rc_btf **in)
{
	int m, id = lookup(c, name, kind, &m);

	if (!id)
		return NULL;
	*in = m < 0 ? c->vml : rc_target_module(c->tg, m, NULL);
	return rc_type(*in, id);
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
	int m, id = lookup(c, ename, BTF_KIND_ENUM, &m);

	return id > 0 && m < 0 ? rc_type(c->vml, id) : NULL;
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

/* The name of value @v of enum @t (not a *_UNSPEC / __*_MAX_* bookend), or
 * NULL */
const char *chk_enum_name(const struct ctx *c, const struct btf_type *t, int64_t v)
{
	const struct btf_enum *m;
	int i;

	if (!t || !btf_is_enum(t))
		return NULL;
	m = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = rc_name(c->vml, m->name_off);

		if (n && m->val == v && strncmp(n, "__", 2) && !strstr(n, "_UNSPEC"))
			return n;
	}
	return NULL;
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
