// SPDX-License-Identifier: MIT
/*
 * btf_check.c - reject BTF that libbpf parses but the engine must not
 * trust: type ids out of range, names outside the string section, cycles
 * of modifiers, absurd member counts.  libbpf 1.1 checks the layout of
 * the type section (sizes of records) but not the references in them.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

struct checker {
	const struct btf *btf;
	uint32_t n;
	const char *what;
	struct rc_error *err;
	uint32_t id;
};

static int bad(struct checker *c, const char *fmt, uint32_t v)
{
	char tmp[200];

	rc_fmt(tmp, sizeof(tmp), fmt, v);
	rc_fmt(c->err->msg, sizeof(c->err->msg), "%s: type [%u]: %s", c->what,
	       c->id, tmp);
	return -EINVAL;
}

static int check_ref(struct checker *c, uint32_t id, bool void_ok)
{
	if (id >= c->n)
		return bad(c, "refers to type id %u, out of range", id);
	if (!void_ok && id == 0)
		return bad(c, "refers to void where a type is required", 0);
	return 0;
}

static int check_name(struct checker *c, uint32_t off)
{
	if (!btf__name_by_offset(c->btf, off))
		return bad(c, "name offset %u outside the string section", off);
	return 0;
}

static int check_type(struct checker *c, const struct btf_type *t)
{
	int i, vlen = btf_vlen(t), err = 0;

	if (check_name(c, t->name_off))
		return -EINVAL;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		if (btf_int_bits(t) > 128 || btf_int_offset(t) + btf_int_bits(t) > t->size * 8)
			return bad(c, "int of %u bits does not fit its size", btf_int_bits(t));
		return 0;
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return check_ref(c, t->type, true);
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return check_ref(c, t->type, false);
	case BTF_KIND_ARRAY:
		if (check_ref(c, btf_array(t)->type, false) ||
		    check_ref(c, btf_array(t)->index_type, false))
			return -EINVAL;
		return 0;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);

		for (i = 0; i < vlen && !err; i++, m++)
			err = check_name(c, m->name_off) ?: check_ref(c, m->type, false);
		return err;
	}
	case BTF_KIND_ENUM: {
		const struct btf_enum *e = btf_enum(t);

		if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8)
			return bad(c, "enum of size %u", t->size);
		for (i = 0; i < vlen && !err; i++)
			err = check_name(c, e[i].name_off);
		return err;
	}
	case BTF_KIND_ENUM64: {
		const struct btf_enum64 *e = btf_enum64(t);

		if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8)
			return bad(c, "enum64 of size %u", t->size);
		for (i = 0; i < vlen && !err; i++)
			err = check_name(c, e[i].name_off);
		return err;
	}
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *p = btf_params(t);

		if (check_ref(c, t->type, true))
			return -EINVAL;
		for (i = 0; i < vlen && !err; i++)
			err = check_name(c, p[i].name_off) ?: check_ref(c, p[i].type, true);
		return err;
	}
	case BTF_KIND_DATASEC: {
		const struct btf_var_secinfo *v = btf_var_secinfos(t);

		for (i = 0; i < vlen && !err; i++)
			err = check_ref(c, v[i].type, false);
		return err;
	}
	case BTF_KIND_FWD:
	case BTF_KIND_FLOAT:
	case BTF_KIND_UNKN:
		return 0;
	default:
		return bad(c, "unknown kind %u", btf_kind(t));
	}
}

int rc_btf_validate(const struct btf *btf, const char *what,
		    struct rc_error *err)
{
	const struct btf *base = btf__base_btf(btf);
	struct checker c = { btf, btf__type_cnt(btf), what, err, 0 };
	uint32_t start = base ? btf__type_cnt(base) : 1;

	for (c.id = start; c.id < c.n; c.id++) {
		const struct btf_type *t = btf__type_by_id(btf, c.id);

		if (!t || check_type(&c, t))
			return -EINVAL;
	}
	/* modifier/typedef chains must end (no cycles) */
	for (c.id = start; c.id < c.n; c.id++) {
		const struct btf_type *t = btf__type_by_id(btf, c.id);

		if ((btf_is_mod(t) || btf_is_typedef(t)) &&
		    !rc_skip_mods_typedefs(btf, c.id, NULL))
			return bad(&c, "modifier chain does not end", 0);
	}
	return 0;
}
