// SPDX-License-Identifier: MIT
/*
 * btf_check.c - reject BTF that libbpf parses but the engine must not
 * trust: type ids out of range, names outside the string section, cycles
 * of modifiers, absurd member counts.  libbpf 1.1 checks the layout of
 * the type section (sizes of records) but not the references in them.
 * A cycle of modifiers or typedefs is not rejected here: every walk
 * through such chains is bounded and reports it as an error.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

struct checker {
	const struct btf *btf;
	uint32_t n;		/* type count, base included */
	uint32_t str_limit;	/* string offsets below this are valid */
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

static inline int check_ref(struct checker *c, uint32_t id, bool void_ok)
{
	if (id >= c->n)
		return bad(c, "refers to type id %u, out of range", id);
	if (!void_ok && id == 0)
		return bad(c, "refers to void where a type is required", 0);
	return 0;
}

static inline int check_name(struct checker *c, uint32_t off)
{
	if (off >= c->str_limit)
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
		bool any = false;

		/* the common case in one branch-free pass; report on a second */
		for (i = 0; i < vlen; i++)
			any |= (m[i].name_off >= c->str_limit) | (m[i].type - 1 >= c->n - 1);
		for (i = 0; any && i < vlen && !err; i++)
			err = check_name(c, m[i].name_off) ?: check_ref(c, m[i].type, false);
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

/* Length of a type record (libbpf checked these when it parsed the BTF). */
static inline size_t type_rec_size(const struct btf_type *t)
{
	size_t vlen = btf_vlen(t), base = sizeof(*t);

	switch (btf_kind(t)) {
	case BTF_KIND_INT: return base + 4;
	case BTF_KIND_ARRAY: return base + sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: return base + vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM: return base + vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64: return base + vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO: return base + vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR: return base + sizeof(struct btf_var);
	case BTF_KIND_DATASEC: return base + vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG: return base + sizeof(struct btf_decl_tag);
	default: return base;
	}
}

/* String section size of @btf's own raw data (0 if it cannot be had). */
static uint32_t own_str_len(const struct btf *btf, const struct btf_header **hdr)
{
	uint32_t size;
	const struct btf_header *h = btf__raw_data(btf, &size);

	*hdr = h;
	if (!h || size < sizeof(*h))
		return 0;
	return h->str_len;
}

/*
 * The record size of @t and, with @check, whether anything in it may be
 * wrong (*@suspect; check_type then says what): the same rules as
 * check_type, without branches per member, for the walk's common path.
 */
static inline __attribute__((always_inline)) size_t
scan_type(const struct checker *c, const struct btf_type *t, bool check, bool *suspect)
{
	uint32_t vlen = btf_vlen(t), n = check ? c->n : 0, sl = check ? c->str_limit : 0, i;
	bool bad = check && t->name_off >= sl;

	switch (btf_kind(t)) {
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		bad |= check && t->type - 1 >= n - 1;	/* 0 or out of range */
		*suspect = bad;
		return sizeof(*t) + (btf_kind(t) == BTF_KIND_FUNC ? 0 : 4);
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *p = btf_params(t);

		if (check) {
			bad |= t->type >= n;
			for (i = 0; i < vlen; i++)
				bad |= (p[i].name_off >= sl) | (p[i].type >= n);
		}
		*suspect = bad;
		return sizeof(*t) + vlen * sizeof(*p);
	}
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		*suspect = bad || (check && t->type >= n);
		return sizeof(*t);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);

		if (check)
			for (i = 0; i < vlen; i++)
				bad |= (m[i].name_off >= sl) | (m[i].type - 1 >= n - 1);
		*suspect = bad;
		return sizeof(*t) + vlen * sizeof(*m);
	}
	default:	/* the rare kinds: check_type decides */
		*suspect = check;
		return type_rec_size(t);
	}
}

/*
 * The one walk over @btf's own type records (raw data, no per-type library
 * call): each checked when @check, @fn called for those whose kind is in
 * @kinds (a bit per BTF_KIND_*) and, with @named, that have a name.
 * Inlined twice, with and without the checks.
 */
static inline __attribute__((always_inline)) int
walk(struct checker *c, const struct btf *btf, bool check, uint32_t kinds, bool named,
     rc_type_fn fn, void *ctx)
{
	const struct btf *base = btf__base_btf(btf);
	uint32_t id = base ? btf__type_cnt(base) : 1, n = btf__type_cnt(btf);
	const struct btf_header *h;
	const unsigned char *p, *end;
	int err;

	own_str_len(btf, &h);
	if (!h)
		return -ENOMEM;
	p = (const unsigned char *)h + h->hdr_len + h->type_off;
	end = p + h->type_len;
	const uint32_t sl = check ? c->str_limit : 0, n1 = n - 1;
	const bool funcs_wanted = fn && (kinds >> BTF_KIND_FUNC & 1);

	for (; id < n && p < end; id++) {
		const struct btf_type *t = (const void *)p;
		bool suspect;
		size_t sz;

		/* four in ten types of a vmlinux are FUNCs: first, on their own */
		if (btf_kind(t) == BTF_KIND_FUNC && !funcs_wanted &&
		    !(check && ((t->name_off >= sl) | (t->type - 1 >= n1)))) {
			p += sizeof(*t);
			continue;
		}
		sz = scan_type(c, t, check, &suspect);

		if (check && suspect) {
			c->id = id;
			if (check_type(c, t))
				return -EINVAL;
		}
		if (fn && (kinds >> btf_kind(t) & 1) && (!named || t->name_off)) {
			err = fn(ctx, id, t);
			if (err)
				return err;
		}
		p += sz;
	}
	return id == n && p == end ? 0 : -EINVAL;
}

int rc_btf_for_each_type(const struct btf *btf, rc_type_fn fn, void *ctx)
{
	return walk(NULL, btf, false, ~0u, false, fn, ctx);
}

/*
 * Check every type record of @btf (its own part, for split BTF), walking
 * its raw data: one pass, no per-type library calls.
 */
int rc_btf_validate(const struct btf *btf, const char *what,
		    struct rc_error *err)
{
	return rc_btf_validate_visit(btf, what, err, NULL, NULL);
}

int rc_btf_validate_visit(const struct btf *btf, const char *what,
			  struct rc_error *err, rc_type_fn fn, void *ctx)
{
	return rc_btf_walk(btf, what, err, ~0u, false, fn, ctx);
}

int rc_btf_walk(const struct btf *btf, const char *what, struct rc_error *err,
		uint32_t kinds, bool named, rc_type_fn fn, void *ctx)
{
	const struct btf *base = btf__base_btf(btf);
	struct checker c = { btf, btf__type_cnt(btf), 0, what, err, 0 };
	const struct btf_header *h, *bh;
	int ret;

	if (!what)
		return walk(NULL, btf, false, kinds, named, fn, ctx);
	c.str_limit = own_str_len(btf, &h) + (base ? own_str_len(base, &bh) : 0);
	if (!h) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: BTF raw data unavailable", what);
		return -EINVAL;
	}
	ret = walk(&c, btf, true, kinds, named, fn, ctx);
	if (ret == -EINVAL && !err->msg[0])
		return bad(&c, "type section does not match the type count", 0);
	/* cycles of modifiers/typedefs need no pass of their own: every walk
	 * through them (rc_skip_mods_typedefs, btf__resolve_size) is bounded */
	return ret == -ENOMEM ? ret : ret ? -EINVAL : 0;
}
