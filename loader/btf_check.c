// SPDX-License-Identifier: MIT
/*
 * btf_check.c - the walks over a view's type records, and the checks of
 * BTF the engine must not trust as it is.
 *
 * The first walk of a view read raw (build) indexes it: each record's
 * offset, in bounds and of a known kind (a member count that runs a
 * record past the type section is rejected there).  A BTF not trusted is
 * also checked: type ids in range, no void where a type is required,
 * names inside the string section, ints that fit their size, enums of
 * 1, 2, 4 or 8 bytes.  Every type at once (rc_btf_walk with a name,
 * rc_btf_validate, rc_btf_check_all), or, for a target read from a file,
 * each type when rc_type first reads it (rc_type_check; rc_lazy_begin
 * and rc_lazy_end tell a decision or a btfgen run that it read a
 * malformed one).  libbpf 1.1's btf__new checks the layout but not the
 * references.
 *
 * Cycles of modifiers or typedefs are not looked for: every walk through
 * such chains (rc_skip_mods_typedefs, rc_btf_resolve_size) is bounded,
 * and one too long fails it as malformed BTF.
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

/* The checker of @b's own types, naming @what in @err. */
static struct checker checker_of(const struct rc_btf *b, const char *what,
				 struct rc_error *err, uint32_t id)
{
	return (struct checker){ b, b->cnt, b->start_str + b->str_len, what, err, id };
}

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
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8)
			return bad(c, btf_is_enum64(t) ? "enum64 of size %u" : "enum of size %u",
				   t->size);
		if (btf_is_enum64(t))
			for (i = 0; i < vlen && !err; i++)
				err = check_name(c, btf_enum64(t)[i].name_off);
		else
			for (i = 0; i < vlen && !err; i++)
				err = check_name(c, btf_enum(t)[i].name_off);
		return err;
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

/* What scan() found: the records' count and where it stopped. */
struct scan {
	uint32_t k;		/* records indexed */
	uint32_t mx;		/* the largest type id referred to */
	uint32_t bad;		/* non-zero: some record breaks a rule */
	uint32_t ns, nr;	/* entries in sel and rare */
	bool broken;		/* record k is truncated or of an unknown kind */
	size_t off;		/* where the walk stopped */
};

/*
 * The loop of build(): each record's offset into @offs; the records of
 * the kinds in @kinds (named ones with @named) into @sel, those of the
 * rare kinds into @rare; the common rules (names below @sl, no void
 * where a type is required) or-ed into one word, the largest id referred
 * to kept.  Nothing is called: all it needs stays in registers.
 */
static inline __attribute__((always_inline)) void
scan(bool check, const unsigned char *types, size_t len, uint32_t sl, uint32_t kinds,
     bool named, uint32_t *offs, uint32_t *sel, uint32_t *rare, struct scan *r)
{
	const unsigned char *p = types, *end = len ? types + len : types;
	const bool funcs_wanted = kinds >> BTF_KIND_FUNC & 1;
	uint32_t k = 0, mx = 0, bad = 0, ns = 0, nr = 0, i;

	r->broken = false;
	while (p < end) {
		const struct btf_type *t = (const void *)p;
		uint32_t kind, vlen, m_ = 0;
		size_t sz;

		if ((size_t)(end - p) < sizeof(*t)) {
			r->broken = true;
			break;
		}
		offs[k] = p - types;
		kind = btf_kind(t);
		/* four in ten types of a vmlinux are FUNCs: first, on their own */
		if (kind == BTF_KIND_FUNC && !funcs_wanted) {
			if (check) {
				bad |= (t->name_off >= sl) | (t->type == 0);
				mx = mx > t->type ? mx : t->type;
			}
			k++;
			p += sizeof(*t);
			continue;
		}
		vlen = btf_vlen(t);
		sz = rc_btf_rec_size(t);
		if (!sz || sz > (size_t)(end - p)) {
			r->broken = true;
			break;
		}
		if (check)
			bad |= t->name_off >= sl;
		switch (check ? kind : BTF_KIND_UNKN) {
		case BTF_KIND_PTR:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			m_ = t->type;
			break;
		case BTF_KIND_FUNC:
			bad |= t->type == 0;
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
			rare[nr++] = k;
			break;
		case BTF_KIND_DATASEC:
			for (i = 0; i < vlen; i++)
				m_ = m_ > btf_var_secinfos(t)[i].type ? m_ : btf_var_secinfos(t)[i].type;
			rare[nr++] = k;
			break;
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			m_ = t->type;
			rare[nr++] = k;
			break;
		case BTF_KIND_INT:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FWD:
		case BTF_KIND_FLOAT:
			rare[nr++] = k;
			break;
		default:	/* not checked */
			break;
		}
		mx = mx > m_ ? mx : m_;
		if ((kinds >> kind & 1) && (!named || t->name_off))
			sel[ns++] = k;
		k++;
		p += sz;
	}
	r->off = p - types;
	r->k = k;
	r->mx = mx;
	r->bad = bad;
	r->ns = ns;
	r->nr = nr;
}

/* scan() with the checks and without (trusted BTF), each on its own. */
static __attribute__((noinline)) void
scan_checked(const unsigned char *types, size_t len, uint32_t sl, uint32_t kinds, bool named,
	     uint32_t *offs, uint32_t *sel, uint32_t *rare, struct scan *r)
{
	scan(true, types, len, sl, kinds, named, offs, sel, rare, r);
}

static __attribute__((noinline)) void
scan_trusted(const unsigned char *types, size_t len, uint32_t kinds, bool named,
	     uint32_t *offs, uint32_t *sel, struct scan *r)
{
	scan(false, types, len, 0, kinds, named, offs, sel, NULL, r);
}

/*
 * The first walk of a view read raw (rc_btf_from_raw): each record's size
 * and offset, @fn called for the kinds in @kinds (named ones with @named)
 * once all records passed.  With @c (BTF not trusted) each record is also
 * checked: scan() keeps what the common kinds break in one word and the
 * largest id referred to, to compare with the count; the rare kinds are
 * checked after the loop; if anything is wrong walk_checked names the type.
 */
static int build(struct checker *c0, struct rc_btf *b, uint32_t kinds, bool named,
		 rc_type_fn fn, void *ctx)
{
	struct checker *c = c0;
	uint32_t cap = b->types_len / sizeof(struct btf_type) + 1, i;
	uint32_t *offs = malloc(sizeof(*offs) * cap);
	uint32_t *aux = malloc(sizeof(*aux) * cap * 2);	/* sel, then rare */
	struct checker bc;
	struct scan r;
	int err = 0;

	if (!fn)
		kinds = 0;
	if (!offs || !aux) {
		free(offs);
		free(aux);
		return -ENOMEM;
	}
	if (c && b->check_lazily) {	/* each type checked when first read */
		b->what = strdup(c->what);
		if (!b->what) {
			free(offs);
			free(aux);
			return -ENOMEM;
		}
		c = NULL;
	}
	if (c)
		scan_checked(b->types, b->types ? b->types_len : 0, c->str_limit, kinds, named,
			     offs, aux, aux + cap, &r);
	else
		scan_trusted(b->types, b->types ? b->types_len : 0, kinds, named, offs, aux, &r);
	if (b->what && !r.broken && !(b->lazy = calloc(r.k ? r.k : 1, 1))) {
		free(offs);
		free(aux);
		return -ENOMEM;
	}
	if (r.broken) {
		const struct btf_type *t = (const void *)(b->types + r.off);
		size_t avail = b->types_len - r.off;

		if (c0 && !c0->err->msg[0])
			rc_fmt(c0->err->msg, sizeof(c0->err->msg), "%s: malformed BTF: type [%u]: %s",
			       c0->what, b->start_id + r.k, avail < sizeof(*t) ? "record truncated" :
			       !rc_btf_rec_size(t) ? "unknown kind" :
			       "record runs past the type section");
		err = -EINVAL;
	}
	if (err || (uint64_t)b->start_id + r.k > 0x7fffffffu) {
		free(offs);
		free(aux);
		return err ? err : -E2BIG;
	}
	b->offs = offs;
	b->cnt = b->start_id + r.k;
	/* a common kind wrong, or an id referred to beyond the count: the
	 * walk names the first wrong type; else the rare kinds, in id order */
	if (c && (r.bad || r.mx >= b->cnt)) {
		free(aux);
		c->n = b->cnt;
		return walk_checked(c, b);
	}
	if (c) {
		bc = *c;
		bc.n = b->cnt;
		for (i = 0; i < r.nr && !err; i++) {
			bc.id = b->start_id + aux[cap + i];
			if (check_type(&bc, (const void *)(b->types + offs[aux[cap + i]])))
				err = -EINVAL;
		}
	}
	for (i = 0; i < r.ns && !err; i++)
		err = fn(ctx, b->start_id + aux[i], (const void *)(b->types + offs[aux[i]]));
	free(aux);
	return err;
}

/*
 * The one walk over @b's own type records (indexed by the first walk,
 * build: in bounds, of known kinds): each checked when @check, @fn called
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
	struct checker c = checker_of(b, what, err, 0);
	int ret;

	if (!b->offs)	/* the first walk of a view read raw indexes it */
		ret = build(what ? &c : NULL, (struct rc_btf *)b, kinds, named, fn, ctx);
	else if (!what)
		return walk(NULL, b, false, kinds, named, fn, ctx);
	else
		ret = walk(&c, b, true, kinds, named, fn, ctx);
	/* cycles of modifiers/typedefs need no pass of their own: every walk
	 * through them (rc_skip_mods_typedefs, rc_btf_resolve_size) is bounded */
	return ret == -ENOMEM ? ret : ret ? -EINVAL : 0;
}

/* The first malformed type a lazily checked BTF showed this thread in
 * the innermost open window. */
static __thread struct rc_lazy lazy_bad;

const struct btf_type *rc_type_check(const struct rc_btf *b, uint32_t id)
{
	uint32_t i = id - b->start_id;
	const struct btf_type *t = (const void *)(b->types + b->offs[i]);
	unsigned char st = __atomic_load_n(&b->lazy[i], __ATOMIC_RELAXED);

	if (st == RC_UNCHECKED) {
		struct rc_error e;	/* the reason is told by rc_lazy_end */
		struct checker c = checker_of(b, "", &e, id);

		st = check_type(&c, t) ? RC_MALFORMED : RC_CHECKED;
		__atomic_store_n(&b->lazy[i], st, __ATOMIC_RELAXED);
	}
	if (st == RC_CHECKED)
		return t;
	if (!lazy_bad.btf)
		lazy_bad = (struct rc_lazy){ b, id };
	return &rc_void_type;
}

struct rc_lazy rc_lazy_begin(void)
{
	struct rc_lazy outer = lazy_bad;

	lazy_bad = (struct rc_lazy){ NULL, 0 };
	return outer;
}

int rc_lazy_end(struct rc_lazy outer, char *msg, size_t sz)
{
	struct rc_lazy bad = lazy_bad;
	struct rc_error e = { "" };
	struct checker c;

	lazy_bad = outer.btf ? outer : bad;	/* the outer window sees it too */
	if (!bad.btf)
		return 0;
	c = checker_of(bad.btf, bad.btf->what ? bad.btf->what : "BTF", &e, bad.id);
	check_type(&c, (const void *)(bad.btf->types + bad.btf->offs[bad.id - bad.btf->start_id]));
	rc_fmt(msg, sz, "%s", e.msg[0] ? e.msg : "malformed BTF");
	return -EINVAL;
}

int rc_btf_check_all(const struct rc_btf *b, struct rc_error *err)
{
	struct checker c = checker_of(b, b->what, err, 0);
	uint32_t i;
	int ret;

	if (b->base && rc_btf_check_all(b->base, err))
		return -EINVAL;
	if (!b->lazy || __atomic_load_n(&b->checked_all, __ATOMIC_ACQUIRE))
		return 0;
	ret = walk(&c, b, true, 0, false, NULL, NULL);
	if (ret)
		return -EINVAL;
	for (i = 0; i < b->cnt - b->start_id; i++)	/* threads reading them agree */
		__atomic_store_n(&b->lazy[i], RC_CHECKED, __ATOMIC_RELAXED);
	__atomic_store_n(&((struct rc_btf *)b)->checked_all, true, __ATOMIC_RELEASE);
	return 0;
}
