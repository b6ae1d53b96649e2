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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct checker {
	const struct rc_btf *btf;
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

/*
 * Whether anything in @t may be wrong (check_type then says what): the
 * same rules as check_type, without branches per member, for the walk's
 * common path.
 */
static inline __attribute__((always_inline)) bool
suspect_type(const struct checker *c, const struct btf_type *t)
{
	uint32_t vlen = btf_vlen(t), n = c->n, sl = c->str_limit, i;
	bool bad = t->name_off >= sl;

	switch (btf_kind(t)) {
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return bad || t->type - 1 >= n - 1;	/* 0 or out of range */
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *p = btf_params(t);

		bad |= t->type >= n;
		for (i = 0; i < vlen; i++)
			bad |= (p[i].name_off >= sl) | (p[i].type >= n);
		return bad;
	}
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return bad || t->type >= n;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);

		for (i = 0; i < vlen; i++)
			bad |= (m[i].name_off >= sl) | (m[i].type - 1 >= n - 1);
		return bad;
	}
	default:	/* the rare kinds: check_type decides */
		return true;
	}
}

static int walk_checked(struct checker *c, const struct rc_btf *b);

/*
 * build() for trusted BTF (nothing checked but the records' bounds and
 * kinds): the size of each record from two small tables, the offsets
 * recorded, @fn called for the kinds in @kinds (named ones with @named).
 */
static int build_trusted(struct rc_btf *b, uint32_t kinds, bool named, rc_type_fn fn,
			 void *ctx)
{
	const unsigned char *types = b->types, *p = types, *end = p ? p + b->types_len : p;
	uint32_t cap = b->types_len / sizeof(struct btf_type) + 1, k = 0;
	uint32_t *offs = malloc(sizeof(*offs) * cap);
	int err = 0;

	if (!offs)
		return -ENOMEM;
	if (!fn)
		kinds = 0;
	while (p < end) {
		const struct btf_type *t = (const void *)p;
		uint32_t kind;
		size_t sz;

		if ((size_t)(end - p) < sizeof(*t)) {
			err = -EINVAL;
			break;
		}
		kind = btf_kind(t);
		sz = rc_btf_rec_size(t);
		if (!sz || sz > (size_t)(end - p)) {
			err = -EINVAL;
			break;
		}
		offs[k] = p - types;
		if ((kinds >> kind & 1) && (!named || t->name_off)) {
			err = fn(ctx, b->start_id + k, t);
			if (err)
				break;
		}
		k++;
		p += sz;
	}
	if (err || (uint64_t)b->start_id + k > 0x7fffffffu) {
		free(offs);
		return err ? err : -E2BIG;
	}
	b->offs = offs;
	b->cnt = b->start_id + k;
	return 0;
}

/*
 * The first walk of a view read raw (rc_btf_from_raw) and not trusted:
 * each record's size from the tables, its offset recorded, the record
 * checked and visited as walk() does.  Type ids are checked once the
 * count is known, at the end (from the largest one referred to; walk()
 * then names the type): here only void where a type is required.
 */
static int build(struct checker *c, struct rc_btf *b, uint32_t kinds, bool named,
		 rc_type_fn fn, void *ctx)
{
	const unsigned char *types = b->types, *p = types, *end = p ? p + b->types_len : p;
	uint32_t cap = b->types_len / sizeof(struct btf_type) + 1, k = 0, mx = 0, i;
	const uint32_t sl = c->str_limit;
	uint32_t *offs = malloc(sizeof(*offs) * cap);
	struct checker bc = *c;
	int err = 0;

	if (!offs)
		return -ENOMEM;
	if (!fn)
		kinds = 0;
	bc.n = UINT32_MAX;	/* for check_type: ids are checked at the end */
	while (p < end) {
		const struct btf_type *t = (const void *)p;
		uint32_t kind, vlen, m_ = 0;
		bool bad;
		size_t sz;

		if ((size_t)(end - p) < sizeof(*t)) {
			err = -EINVAL;
			break;
		}
		kind = btf_kind(t);
		vlen = btf_vlen(t);
		sz = rc_btf_rec_size(t);
		if (!sz || sz > (size_t)(end - p)) {
			err = -EINVAL;
			break;
		}
		offs[k] = p - types;
		bad = t->name_off >= sl;
		switch (kind) {
		case BTF_KIND_FUNC:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			bad |= kind != BTF_KIND_FUNC || t->type == 0;	/* VAR, DECL_TAG: rare */
			m_ = t->type;
			break;
		case BTF_KIND_PTR:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			m_ = t->type;
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION: {
			const struct btf_member *m = btf_members(t);

			for (i = 0; i < vlen; i++) {
				bad |= (m[i].name_off >= sl) | (m[i].type == 0);
				m_ = m_ > m[i].type ? m_ : m[i].type;
			}
			break;
		}
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *pa = btf_params(t);

			m_ = t->type;
			for (i = 0; i < vlen; i++) {
				bad |= pa[i].name_off >= sl;
				m_ = m_ > pa[i].type ? m_ : pa[i].type;
			}
			break;
		}
		case BTF_KIND_ARRAY:
			m_ = btf_array(t)->type > btf_array(t)->index_type ?
			     btf_array(t)->type : btf_array(t)->index_type;
			bad = true;
			break;
		case BTF_KIND_DATASEC:
			for (i = 0; i < vlen; i++)
				m_ = m_ > btf_var_secinfos(t)[i].type ? m_ : btf_var_secinfos(t)[i].type;
			bad = true;
			break;
		default:	/* INT, ENUM, ENUM64, FWD, FLOAT: check_type decides */
			bad = true;
			break;
		}
		mx = mx > m_ ? mx : m_;
		if (bad) {
			bc.id = b->start_id + k;
			if (check_type(&bc, t)) {
				err = -EINVAL;
				break;
			}
		}
		if ((kinds >> kind & 1) && (!named || t->name_off)) {
			err = fn(ctx, b->start_id + k, t);
			if (err)
				break;
		}
		k++;
		p += sz;
	}
	if (err == -EINVAL && p < end && !c->err->msg[0]) {
		const struct btf_type *t = (const void *)p;
		size_t avail = end - p;

		rc_fmt(c->err->msg, sizeof(c->err->msg), "%s: malformed BTF: type [%u]: %s",
		       c->what, b->start_id + k, avail < sizeof(*t) ? "record truncated" :
		       !rc_btf_rec_size(t) ? "unknown kind" : "record runs past the type section");
	}
	if (err || (uint64_t)b->start_id + k > 0x7fffffffu) {
		free(offs);
		return err ? err : -E2BIG;
	}
	b->offs = offs;
	b->cnt = c->n = b->start_id + k;
	/* the ids referred to, now that the count is known */
	if (mx >= b->cnt)
		return walk_checked(c, b);
	return 0;
}

/*
 * The one walk over @b's own type records (indexed when the view was
 * made: in bounds, of known kinds): each checked when @check, @fn called
 * for those whose kind is in @kinds (a bit per BTF_KIND_*) and, with
 * @named, that have a name.  Inlined twice, with and without the checks.
 */
static inline __attribute__((always_inline)) int
walk(struct checker *c, const struct rc_btf *b, bool check, uint32_t kinds, bool named,
     rc_type_fn fn, void *ctx)
{
	const uint32_t n = b->cnt, n1 = n - 1, sl = check ? c->str_limit : 0;
	const bool funcs_wanted = fn && (kinds >> BTF_KIND_FUNC & 1);
	const unsigned char *types = b->types;
	const uint32_t *offs = b->offs;
	uint32_t id;
	int err;

	for (id = b->start_id; id < n; id++) {
		const struct btf_type *t = (const void *)(types + offs[id - b->start_id]);

		/* four in ten types of a vmlinux are FUNCs: first, on their own */
		if (btf_kind(t) == BTF_KIND_FUNC && !funcs_wanted &&
		    !(check && ((t->name_off >= sl) | (t->type - 1 >= n1))))
			continue;
		if (check && suspect_type(c, t)) {
			c->id = id;
			if (check_type(c, t))
				return -EINVAL;
		}
		if (fn && (kinds >> btf_kind(t) & 1) && (!named || t->name_off)) {
			err = fn(ctx, id, t);
			if (err)
				return err;
		}
	}
	return 0;
}

/* A check of every record of an indexed view (after build found an id
 * out of range: this names the type). */
static int walk_checked(struct checker *c, const struct rc_btf *b)
{
	int ret = walk(c, b, true, 0, false, NULL, NULL);

	if (!ret && !c->err->msg[0]) {
		rc_fmt(c->err->msg, sizeof(c->err->msg), "%s: type id out of range", c->what);
		ret = -EINVAL;
	}
	return ret ? ret : -EINVAL;
}

int rc_btf_for_each_type(const struct rc_btf *b, rc_type_fn fn, void *ctx)
{
	return walk(NULL, b, false, ~0u, false, fn, ctx);
}

/* Check every type record of @btf (libbpf's; its own part when split). */
int rc_btf_validate(const struct btf *btf, const char *what,
		    struct rc_error *err)
{
	struct rc_btf *b = rc_btf_wrap(btf);
	int ret;

	if (!b) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: BTF raw data unavailable", what);
		return -EINVAL;
	}
	ret = rc_btf_walk(b, what, err, 0, false, NULL, NULL);
	rc_btf_free(b);
	return ret;
}

int rc_btf_walk(const struct rc_btf *b, const char *what, struct rc_error *err,
		uint32_t kinds, bool named, rc_type_fn fn, void *ctx)
{
	struct checker c = { b, b->cnt, b->start_str + b->str_len, what, err, 0 };
	int ret;

	if (!b->offs && !what)	/* the first walk of a view read raw indexes it */
		return build_trusted((struct rc_btf *)b, kinds, named, fn, ctx);
	else if (!b->offs)
		ret = build(&c, (struct rc_btf *)b, kinds, named, fn, ctx);
	else if (!what)
		return walk(NULL, b, false, kinds, named, fn, ctx);
	else
		ret = walk(&c, b, true, kinds, named, fn, ctx);
	/* cycles of modifiers/typedefs need no pass of their own: every walk
	 * through them (rc_skip_mods_typedefs, rc_btf_resolve_size) is bounded */
	return ret == -ENOMEM ? ret : ret ? -EINVAL : 0;
}
