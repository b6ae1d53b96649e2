/* SPDX-License-Identifier: MIT */
/* internal.h - helpers shared by librelocore's files; not installed. */
#ifndef RELOCORE_INTERNAL_H
#define RELOCORE_INTERNAL_H

#include <bpf/btf.h>
#include <linux/bpf.h>
#include <stdarg.h>

#include "relocore.h"

/* Nesting limit for recursive type comparisons (libbpf uses the same). */
#define RC_MAX_DEPTH 32

/*
 * A BTF read in place (btf.c): own types [start_id, cnt), own strings
 * [start_str, start_str + str_len); below them, the base's.
 */
struct rc_btf {
	const struct rc_btf *base;
	uint32_t start_id, cnt;
	uint32_t start_str, str_len;
	const char *strs;		/* own string section */
	const unsigned char *types;	/* own type section */
	uint32_t types_len;
	uint32_t *offs;			/* offs[id - start_id]: record offset */
	int ptr_sz;			/* 0 until needed, -1: unknown */
	const void *raw;		/* header and sections, when read raw */
	size_t raw_len;
	const struct btf *lib;		/* libbpf's BTF of the same types */
	struct btf *lib_own;		/* ... freed with the view */
	struct rc_btf *own_base;	/* a base view freed with it */
	void *map;			/* the file, mapped */
	size_t map_len;
	void *copy;			/* or copied */
	/* Checked lazily (a target read from a file): a type is checked when
	 * rc_type first returns it.  lazy[id - start_id]: RC_UNCHECKED,
	 * RC_CHECKED or RC_MALFORMED (bytes: threads may check one type at
	 * once, and find the same); NULL when all were checked up front. */
	bool check_lazily;		/* set before the first walk */
	bool checked_all;		/* since: every type was */
	unsigned char *lazy;
	char *what;			/* its name, for messages */
};

enum { RC_UNCHECKED, RC_CHECKED, RC_MALFORMED };

extern const struct btf_type rc_void_type;

const struct btf_type *rc_type_check(const struct rc_btf *b, uint32_t id);

/* The view whose own types hold @id (@b or a base of it). */
static inline const struct rc_btf *rc_owner(const struct rc_btf *b, uint32_t id)
{
	while (id < b->start_id)
		b = b->base;
	return b;
}

/*
 * The record of @id as it lies, not checked (void for 0, NULL when out of
 * range): for scans that read only its kind and name offset (rc_name
 * bounds it).
 */
static inline const struct btf_type *rc_type_raw(const struct rc_btf *b, uint32_t id)
{
	if (!id)
		return &rc_void_type;
	b = rc_owner(b, id);
	if (id >= b->cnt)
		return NULL;
	return (const void *)(b->types + b->offs[id - b->start_id]);
}

/*
 * Type by id (void for 0), NULL when out of range.  Of a BTF checked
 * lazily, the type is checked the first time; a malformed one reads as
 * void and is remembered for the thread's rc_lazy_end.
 */
static inline const struct btf_type *rc_type(const struct rc_btf *b, uint32_t id)
{
	const struct btf_type *t = rc_type_raw(b, id);

	if (id && t) {
		b = rc_owner(b, id);
		if (b->lazy && __atomic_load_n(&b->lazy[id - b->start_id], __ATOMIC_RELAXED) !=
			       RC_CHECKED)
			return rc_type_check(b, id);
	}
	return t;
}

/*
 * A window in which types of lazily checked BTFs are read (one decision,
 * one btfgen run): rc_lazy_begin opens it, rc_lazy_end closes it and says
 * whether a malformed type was read in it (-EINVAL, the message in @msg,
 * naming the BTF and the type); windows nest.
 */
struct rc_lazy {
	const struct rc_btf *btf;
	uint32_t id;
};
struct rc_lazy rc_lazy_begin(void);
int rc_lazy_end(struct rc_lazy outer, char *msg, size_t sz);
/* Check every type of @b (and its base) now: 0 or -EINVAL with @err. */
int rc_btf_check_all(const struct rc_btf *b, struct rc_error *err);

/* String at @off: a name, "" when empty, NULL when outside the strings. */
static inline const char *rc_name(const struct rc_btf *b, uint32_t off)
{
	while (off < b->start_str)
		b = b->base;
	off -= b->start_str;
	return off < b->str_len ? b->strs + off : NULL;
}

/* Record size of a type: 12 + extra[kind] + vlen * per[kind]; 0 for a
 * kind libbpf 1.1 does not know (it knows 1 to 19). */
static inline size_t rc_btf_rec_size(const struct btf_type *t)
{
	static const uint8_t extra[32] = {
		[0] = 255, [BTF_KIND_INT] = 4, [BTF_KIND_ARRAY] = sizeof(struct btf_array),
		[BTF_KIND_VAR] = sizeof(struct btf_var),
		[BTF_KIND_DECL_TAG] = sizeof(struct btf_decl_tag),
		[BTF_KIND_ENUM64 + 1 ... 31] = 255,
	};
	static const uint8_t per[32] = {
		[BTF_KIND_STRUCT] = sizeof(struct btf_member),
		[BTF_KIND_UNION] = sizeof(struct btf_member),
		[BTF_KIND_ENUM] = sizeof(struct btf_enum),
		[BTF_KIND_ENUM64] = sizeof(struct btf_enum64),
		[BTF_KIND_FUNC_PROTO] = sizeof(struct btf_param),
		[BTF_KIND_DATASEC] = sizeof(struct btf_var_secinfo),
	};
	uint32_t k = btf_kind(t);

	return extra[k] == 255 ? 0 : sizeof(*t) + extra[k] + (size_t)btf_vlen(t) * per[k];
}

/*
 * A view of raw BTF @data over @base, read in place (@data must outlive
 * it; rc_btf_hold hands it a mapping or buffer to release with it).
 * Records are indexed, not checked: rc_btf_walk checks.  NULL with @err
 * naming @what.
 */
struct rc_btf *rc_btf_from_raw(const void *data, size_t size, const struct rc_btf *base,
			       const char *what, struct rc_error *err);
void rc_btf_hold(struct rc_btf *b, void *map, size_t map_len, void *copy);
/* A view of libbpf's @lib that owns it (freed with the view). */
struct rc_btf *rc_btf_adopt(struct btf *lib);

/*
 * Candidate index of a target BTF: type ids bucketed by the hash of their
 * essential name (a counting sort, so building it is one linear pass).
 */
struct rc_name_index {
	const struct rc_btf *btf;
	uint32_t start_id;	/* first type id that belongs to this BTF */
	uint32_t mask;		/* buckets - 1 (a power of two) */
	uint32_t *bucket;	/* bucket b holds ent[bucket[b] .. bucket[b+1]) */
	struct rc_name_ent {
		uint32_t hash;
		uint32_t id;
	} *ent;
};

struct rc_target {
	struct rc_btf *vmlinux;
	struct rc_btf *base;	/* base of a split vmlinux (--base-btf) */
	struct rc_name_index bidx;	/* the base's types, when split */
	struct rc_name_index vidx;
	int nr_mods;
	struct rc_module {
		struct rc_btf *btf;
		char *name;
		struct rc_name_index idx;
	} *mods;
};

/* The object file's bytes as read (relocations applied in place). */
const unsigned char *rc_object_bytes(const struct rc_object *obj, size_t *size);

/* Skip const/volatile/restrict/type_tag and typedefs; NULL on bad id. */
const struct btf_type *rc_skip_mods_typedefs(const struct rc_btf *btf,
					     uint32_t id, uint32_t *res_id);
bool rc_str_empty(const char *s);

bool rc_kind_field_based(enum rc_relo_kind k);
bool rc_kind_type_based(enum rc_relo_kind k);
bool rc_kind_enumval_based(enum rc_relo_kind k);

/* Does @name match @targ_name ignoring flavor suffixes? */
bool rc_names_match(const struct rc_btf *lbtf, uint32_t loff,
		    const struct rc_btf *tbtf, uint32_t toff);
uint32_t rc_name_hash(const char *name, size_t len);
/* The candidate index's key: the first 8 bytes of an essential name,
 * zero-padded, hashed (flavors share it: "task_struct___v1" and
 * "task_struct"; so do names alike in their first 8 bytes - the index
 * compares names).  rc_name_key of a NUL-terminated name, @avail bytes
 * readable from it; rc_name_key_len of an essential name of @len bytes. */
static inline uint32_t rc_key_hash(uint64_t w)
{
	w *= 0x9e3779b97f4a7c15ull;
	return (uint32_t)(w >> 32 ^ w >> 7);
}
uint32_t rc_name_key(const char *name, size_t avail);
uint32_t rc_name_key_len(const char *name, size_t len);
/* rc_name_hash of @name's essential name, in one pass; its length in *@len. */
uint32_t rc_essential_name_hash(const char *name, size_t *len);

int rc_types_are_compat(const struct rc_btf *lbtf, uint32_t lid,
			const struct rc_btf *tbtf, uint32_t tid, int level);
int rc_types_match(const struct rc_btf *lbtf, uint32_t lid,
		   const struct rc_btf *tbtf, uint32_t tid, bool behind_ptr,
		   int level);
int rc_fields_are_compat(const struct rc_btf *lbtf, uint32_t lid,
			 const struct rc_btf *tbtf, uint32_t tid);
/* Match a parsed local spec against target type @tid: 1, 0 or -errno. */
int rc_spec_match(const struct rc_spec *local, const struct rc_btf *tbtf,
		  uint32_t tid, struct rc_spec *targ);

/* Call @fn for each own type record of @b, in id order.  Stops at the
 * first non-zero return and returns it. */
typedef int (*rc_type_fn)(void *ctx, uint32_t id, const struct btf_type *t);
int rc_btf_for_each_type(const struct rc_btf *b, rc_type_fn fn, void *ctx);

/* The same walk, @fn called only for the kinds in @kinds (a bit per
 * BTF_KIND_*) and, with @named, types with a name; with @what each type
 * is checked first (-EINVAL with @err naming @what, type and field). */
int rc_btf_walk(const struct rc_btf *b, const char *what, struct rc_error *err,
		uint32_t kinds, bool named, rc_type_fn fn, void *ctx);

/* Index @btf's own types from @start_id on.  With @what, validate @btf in
 * the same pass (rc_btf_validate: -EINVAL with @err). */
int rc_name_index_build(struct rc_name_index *idx, const struct rc_btf *btf,
			uint32_t start_id, const char *what,
			struct rc_error *err);
void rc_name_index_free(struct rc_name_index *idx);

/* snprintf into a fixed buffer, never overflowing. */
void rc_fmt(char *buf, size_t sz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
