// SPDX-License-Identifier: MIT
/*
 * btf_validate.c - the validation of BTF the engine must not trust as it
 * is: type ids in range, no void where a type is required, names inside
 * the string section, ints that fit their size, enums of 1, 2, 4 or 8
 * bytes - the rules of each kind's row in rc_btf_kinds (the kind table,
 * relocore_private.h).
 *
 * rc_validate_type decides one type and names the rule it breaks.  Every
 * type is validated at once by a walk (rc_btf_walk with a name, which
 * applies the rules needing no message itself and calls the validator
 * for what they flag; rc_btf_validate, rc_btf_validate_all), or, for a
 * target read from a file, each type when rc_type first reads it
 * (rc_type_validate; rc_lazy_begin and rc_lazy_end tell a decision or a
 * btfgen run that it read a malformed one).  libbpf 1.1's btf__new checks
 * the layout but not the references.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* -EINVAL, with the message "@what: type [@id]: " and @fmt's text (@fmt
 * takes @val, or nothing). */
static int bad(struct rc_validator *v, const char *fmt, uint32_t val)
{
	char tmp[200];

	rc_fmt(tmp, sizeof(tmp), fmt, val);
	rc_fmt(v->err->msg, sizeof(v->err->msg), "%s: type [%u]: %s", v->what, v->id, tmp);
	return -EINVAL;
}

static inline int validate_ref(struct rc_validator *v, uint32_t id, enum rc_btf_ref ref)
{
	if (id >= v->n)
		return bad(v, "refers to type id %u, out of range", id);
	if (ref == RC_REF_TYPE && id == 0)
		return bad(v, "refers to void where a type is required", 0);
	return 0;
}

static inline int validate_name(struct rc_validator *v, uint32_t off)
{
	if (off >= v->str_limit)
		return bad(v, "name offset %u outside the string section", off);
	return 0;
}

/* The size rule of @t's kind: 0, or -EINVAL naming it. */
static int validate_size(struct rc_validator *v, const struct rc_btf_kind *kd,
			 const struct btf_type *t)
{
	char fmt[40];

	switch (kd->size_rule) {
	case RC_SIZE_INT_BITS:
		if (btf_int_bits(t) > 128 || btf_int_offset(t) + btf_int_bits(t) > t->size * 8)
			return bad(v, "int of %u bits does not fit its size", btf_int_bits(t));
		return 0;
	case RC_SIZE_ENUM:	/* "enum of size 3", "enum64 of size 3" */
		/* size 0 and no values: a forward declaration, as clang emits
		 * `enum x;` (vmlinux.h has them); libbpf reads it as one */
		if (!t->size && !btf_vlen(t))
			return 0;
		if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8) {
			rc_fmt(fmt, sizeof(fmt), "%s of size %%u", kd->name);
			return bad(v, fmt, t->size);
		}
		return 0;
	default:
		return 0;
	}
}

/*
 * In the order a reader meets them: the name, the size rule, t->type,
 * the type ids of the fixed part, then each entry's name and type id.
 */
int rc_validate_type(struct rc_validator *v, const struct btf_type *t)
{
	const struct rc_btf_kind *kd = &rc_btf_kinds[btf_kind(t)];
	const uint32_t *w = (const uint32_t *)(t + 1), *e;
	const uint32_t words = kd->ent_size / 4, rw = kd->ent_ref_word;
	const enum rc_btf_ref ref = kd->ent_ref;
	const bool named = kd->ent_name;
	uint32_t i, n = words ? btf_vlen(t) : 0;

	if (validate_name(v, t->name_off))
		return -EINVAL;
	if (!kd->name)
		return bad(v, "unknown kind %u", btf_kind(t));
	if (kd->extra == RC_NO_RECORD)	/* void: no more to it */
		return 0;
	if (validate_size(v, kd, t))
		return -EINVAL;
	if (kd->type_ref == RC_REF_TYPE_OR_EXTERN_VOID && t->type == 0) {
		if (*w != BTF_VAR_GLOBAL_EXTERN)
			return bad(v, "refers to void where a type is required", 0);
	} else if (kd->type_ref && validate_ref(v, t->type, kd->type_ref)) {
		return -EINVAL;
	}
	for (i = 0; i < kd->extra_refs; i++)
		if (validate_ref(v, w[i], RC_REF_TYPE))
			return -EINVAL;
	for (i = 0, e = w + kd->extra / 4; i < n; i++, e += words)
		if ((named && validate_name(v, e[0])) || (ref && validate_ref(v, e[rw], ref)))
			return -EINVAL;
	return 0;
}

/* Validate every type record of @btf (libbpf's; its own part when split). */
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

/* The first malformed type a lazily validated BTF showed this thread in
 * the innermost open window. */
static __thread struct rc_lazy lazy_bad;

const struct btf_type *rc_type_validate(const struct rc_btf *b, uint32_t id)
{
	uint32_t i = id - b->start_id;
	const struct btf_type *t = (const void *)(b->types + b->offs[i]);
	unsigned char st = __atomic_load_n(&b->lazy[i], __ATOMIC_RELAXED);

	if (st == RC_UNCHECKED) {
		struct rc_error e;	/* the reason is told by rc_lazy_end */
		struct rc_validator v = rc_validator_of(b, "", &e, id);

		st = rc_validate_type(&v, t) ? RC_MALFORMED : RC_CHECKED;
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
	struct rc_validator v;

	lazy_bad = outer.btf ? outer : bad;	/* the outer window sees it too */
	if (!bad.btf)
		return 0;
	v = rc_validator_of(bad.btf, bad.btf->what ? bad.btf->what : "BTF", &e, bad.id);
	rc_validate_type(&v, (const void *)(bad.btf->types +
					    bad.btf->offs[bad.id - bad.btf->start_id]));
	rc_fmt(msg, sz, "%s", e.msg[0] ? e.msg : "malformed BTF");
	return -EINVAL;
}

int rc_btf_validate_all(const struct rc_btf *b, struct rc_error *err)
{
	struct rc_validator v = rc_validator_of(b, b->what, err, 0);
	uint32_t i;

	if (b->base && rc_btf_validate_all(b->base, err))
		return -EINVAL;
	if (!b->lazy || __atomic_load_n(&b->checked_all, __ATOMIC_ACQUIRE))
		return 0;
	if (rc_btf_walk_validate(b, &v))
		return -EINVAL;
	for (i = 0; i < b->cnt - b->start_id; i++)	/* threads reading them agree */
		__atomic_store_n(&b->lazy[i], RC_CHECKED, __ATOMIC_RELAXED);
	__atomic_store_n(&((struct rc_btf *)b)->checked_all, true, __ATOMIC_RELEASE);
	return 0;
}
