// SPDX-License-Identifier: MIT
/*
 * btf_walk.c - the walks over a view's own type records: the first one,
 * which indexes a view read raw (each record's offset, in bounds and of
 * a known kind), and the later ones in id order (rc_btf_walk,
 * rc_btf_for_each_type).
 *
 * Of a BTF not trusted, a walk validates each record as it goes: the
 * rules of the kind table (rc_btf_kinds, relocore_private.h) that need no
 * message (names inside the string section, type ids in range, no void
 * where a type is required) are applied here, branch-free, in the walk's
 * loop; a record that breaks one, or of a kind with a size rule, goes to
 * the validator (btf_validate.c), which decides and names the type and
 * the rule.
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

/*
 * The rules of @t's kind that need no message, without branches per
 * entry: or-s into *@bad whether a name offset is at or above @sl or a
 * type id is void where a type is required; returns the largest type id
 * @t refers to, for the caller to compare with the type count.
 */
static inline __attribute__((always_inline)) uint32_t
refs_and_names(const struct rc_btf_kind *kd, const struct btf_type *t, uint32_t sl,
	       uint32_t *bad)
{
	const uint32_t *w = (const uint32_t *)(t + 1), *e;
	const uint32_t ent_words = kd->ent_size / 4, rw = kd->ent_ref_word;
	const uint32_t ref_mask = kd->ent_ref ? ~0u : 0, named = kd->ent_name;
	const uint32_t ent_nonvoid = kd->ent_ref == RC_REF_TYPE;
	uint32_t b = t->name_off >= sl, mx = 0, i, n, id;

	if (kd->type_ref) {
		mx = t->type;
		b |= (kd->type_ref == RC_REF_TYPE) & (t->type == 0);
		b |= (kd->type_ref == RC_REF_TYPE_OR_EXTERN_VOID) & (t->type == 0) &
		     (w[0] != BTF_VAR_GLOBAL_EXTERN);
	}
	for (i = 0; i < kd->extra_refs; i++) {
		b |= w[i] == 0;
		mx = mx > w[i] ? mx : w[i];
	}
	n = ent_words ? btf_vlen(t) : 0;
	e = w + kd->extra / 4;
	for (i = 0; i < n; i++, e += ent_words) {
		id = e[rw] & ref_mask;
		b |= (named & (e[0] >= sl)) | (ent_nonvoid & (id == 0));
		mx = mx > id ? mx : id;
	}
	*bad |= b;
	return mx;
}

/*
 * @stmt for a record of @kind, with kd its row: one copy per known kind,
 * in which the row is a constant and its rules compile to the code a case
 * written for the kind would be (no branch on a field of the row);
 * @other for void and the kinds libbpf 1.1 does not know.
 */
#define ROW(k, stmt)								\
	case k: {								\
		const struct rc_btf_kind *const kd = &rc_btf_kinds[k];		\
		stmt;								\
		break;								\
	}
#define BY_KIND(kind, stmt, other)						\
	switch (kind) {								\
	ROW(1, stmt) ROW(2, stmt) ROW(3, stmt) ROW(4, stmt) ROW(5, stmt)	\
	ROW(6, stmt) ROW(7, stmt) ROW(8, stmt) ROW(9, stmt) ROW(10, stmt)	\
	ROW(11, stmt) ROW(12, stmt) ROW(13, stmt) ROW(14, stmt) ROW(15, stmt)	\
	ROW(16, stmt) ROW(17, stmt) ROW(18, stmt) ROW(19, stmt)			\
	default:								\
		other;								\
	}
_Static_assert(BTF_KIND_ENUM64 == 19, "BY_KIND: a copy per kind libbpf 1.1 knows");

/*
 * Whether @t, of row @kd, may break a rule (rc_validate_type then says
 * what): a record of a kind with a size rule always may.
 */
static inline __attribute__((always_inline)) bool
suspect(const struct rc_btf_kind *kd, const struct btf_type *t, uint32_t sl, uint32_t n)
{
	uint32_t bad = 0;

	if (kd->size_rule)
		return true;
	return refs_and_names(kd, t, sl, &bad) >= n || bad;
}

/* suspect() of @t's kind (names below @sl valid, @n types). */
static inline __attribute__((always_inline)) bool
suspect_type(const struct btf_type *t, uint32_t sl, uint32_t n)
{
	BY_KIND(btf_kind(t), return suspect(kd, t, sl, n), return true);
	return true;
}

static int walk_validated(struct rc_validator *c, const struct rc_btf *b);

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
 * the kinds in @kinds (named ones with @named) into @sel.  With @validate,
 * the rules without a message (refs_and_names: names below @sl, no void
 * where a type is required) or-ed into one word, the largest id referred
 * to kept, and the records of kinds with a size rule (the rare ones: the
 * validator's) into @rare.  Nothing is called but rc_btf_kinds read.
 */
static inline __attribute__((always_inline)) void
scan(bool validate, const unsigned char *types, size_t len, uint32_t sl, uint32_t kinds,
     bool named, uint32_t *offs, uint32_t *sel, uint32_t *rare, struct scan *r)
{
	const unsigned char *p = types, *end = len ? types + len : types;
	const bool funcs_wanted = kinds >> BTF_KIND_FUNC & 1;
	uint32_t k = 0, mx = 0, bad = 0, ns = 0, nr = 0;

	r->broken = false;
	while (p < end) {
		const struct btf_type *t = (const void *)p;
		uint32_t kind, m_;
		size_t sz;

		if ((size_t)(end - p) < sizeof(*t)) {
			r->broken = true;
			break;
		}
		offs[k] = p - types;
		kind = btf_kind(t);
		/* four in ten types of a vmlinux are FUNCs: first, on their own */
		if (kind == BTF_KIND_FUNC && !funcs_wanted) {
			if (validate) {
				m_ = refs_and_names(&rc_btf_kinds[BTF_KIND_FUNC], t, sl, &bad);
				mx = mx > m_ ? mx : m_;
			}
			k++;
			p += sizeof(*t);
			continue;
		}
		sz = rc_btf_rec_size(t);
		if (!sz || sz > (size_t)(end - p)) {
			r->broken = true;
			break;
		}
		if (validate) {
			BY_KIND(kind, {
				m_ = refs_and_names(kd, t, sl, &bad);
				mx = mx > m_ ? mx : m_;
				if (kd->size_rule)	/* the validator decides */
					rare[nr++] = k;
			}, break);
		}
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

/* scan() with the rules and without (trusted BTF), each on its own. */
static __attribute__((noinline)) void
scan_validated(const unsigned char *types, size_t len, uint32_t sl, uint32_t kinds,
	       bool named, uint32_t *offs, uint32_t *sel, uint32_t *rare, struct scan *r)
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
 * validated: scan() keeps what the records break of the rules without a
 * message in one word and the largest id referred to, to compare with
 * the count; the kinds with a size rule go to the validator after the
 * loop; if anything is wrong walk_validated names the type.
 */
static int build(struct rc_validator *c0, struct rc_btf *b, uint32_t kinds, bool named,
		 rc_type_fn fn, void *ctx)
{
	struct rc_validator *c = c0;
	uint32_t cap = b->types_len / sizeof(struct btf_type) + 1, i;
	uint32_t *offs = malloc(sizeof(*offs) * cap);
	uint32_t *aux = malloc(sizeof(*aux) * cap * 2);	/* sel, then rare */
	struct rc_validator bc;
	struct scan r;
	int err = 0;

	if (!fn)
		kinds = 0;
	if (!offs || !aux) {
		free(offs);
		free(aux);
		return -ENOMEM;
	}
	if (c && b->check_lazily) {	/* each type validated when first read */
		b->what = strdup(c->what);
		if (!b->what) {
			free(offs);
			free(aux);
			return -ENOMEM;
		}
		c = NULL;
	}
	if (c)
		scan_validated(b->types, b->types ? b->types_len : 0, c->str_limit, kinds, named,
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
	/* a rule broken, or an id referred to beyond the count: the walk
	 * names the first wrong type; else the rare kinds, in id order */
	if (c && (r.bad || r.mx >= b->cnt)) {
		free(aux);
		c->n = b->cnt;
		return walk_validated(c, b);
	}
	if (c) {
		bc = *c;
		bc.n = b->cnt;
		for (i = 0; i < r.nr && !err; i++) {
			bc.id = b->start_id + aux[cap + i];
			if (rc_validate_type(&bc, (const void *)(b->types + offs[aux[cap + i]])))
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
 * build: in bounds, of known kinds): each validated when @validate, @fn
 * called for those whose kind is in @kinds (a bit per BTF_KIND_*) and,
 * with @named, that have a name.  Inlined twice, with and without the
 * validation.
 */
static inline __attribute__((always_inline)) int
walk(struct rc_validator *c, const struct rc_btf *b, bool validate, uint32_t kinds, bool named,
     rc_type_fn fn, void *ctx)
{
	const uint32_t n = b->cnt, sl = validate ? c->str_limit : 0;
	const bool funcs_wanted = fn && (kinds >> BTF_KIND_FUNC & 1);
	const unsigned char *types = b->types;
	const uint32_t *offs = b->offs;
	uint32_t id;
	int err;

	for (id = b->start_id; id < n; id++) {
		const struct btf_type *t = (const void *)(types + offs[id - b->start_id]);

		/* four in ten types of a vmlinux are FUNCs: first, on their own */
		if (btf_kind(t) == BTF_KIND_FUNC && !funcs_wanted &&
		    !(validate && suspect(&rc_btf_kinds[BTF_KIND_FUNC], t, sl, n)))
			continue;
		if (validate && suspect_type(t, sl, n)) {
			c->id = id;
			if (rc_validate_type(c, t))
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

int rc_btf_walk_validate(const struct rc_btf *b, struct rc_validator *v)
{
	return walk(v, b, true, 0, false, NULL, NULL) ? -EINVAL : 0;
}

/* After build found a rule broken or an id out of range: validate every
 * record, to name the first wrong type.  -EINVAL. */
static int walk_validated(struct rc_validator *c, const struct rc_btf *b)
{
	if (!rc_btf_walk_validate(b, c) && !c->err->msg[0])
		rc_fmt(c->err->msg, sizeof(c->err->msg), "%s: type id out of range", c->what);
	return -EINVAL;
}

int rc_btf_for_each_type(const struct rc_btf *b, rc_type_fn fn, void *ctx)
{
	return walk(NULL, b, false, ~0u, false, fn, ctx);
}

int rc_btf_walk(const struct rc_btf *b, const char *what, struct rc_error *err,
		uint32_t kinds, bool named, rc_type_fn fn, void *ctx)
{
	struct rc_validator c = rc_validator_of(b, what, err, 0);
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

