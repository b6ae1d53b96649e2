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
 * Candidate index of a target BTF: type ids bucketed by the hash of their
 * essential name (a counting sort, so building it is one linear pass).
 */
struct rc_name_index {
	const struct btf *btf;
	uint32_t start_id;	/* first type id that belongs to this BTF */
	uint32_t mask;		/* buckets - 1 (a power of two) */
	uint32_t *bucket;	/* bucket b holds ent[bucket[b] .. bucket[b+1]) */
	struct rc_name_ent {
		uint32_t hash;
		uint32_t id;
	} *ent;
};

struct rc_target {
	struct btf *vmlinux;
	bool own_vmlinux;
	struct btf *base;	/* base of a split vmlinux (--base-btf) */
	struct rc_name_index bidx;	/* the base's types, when split */
	struct rc_name_index vidx;
	int nr_mods;
	struct rc_module {
		struct btf *btf;
		char *name;
		struct rc_name_index idx;
	} *mods;
};

/* The object file's bytes as read (relocations applied in place). */
const unsigned char *rc_object_bytes(const struct rc_object *obj, size_t *size);

/* Skip const/volatile/restrict/type_tag and typedefs; NULL on bad id. */
const struct btf_type *rc_skip_mods_typedefs(const struct btf *btf,
					     uint32_t id, uint32_t *res_id);
/* Type by id, NULL when out of range. */
const struct btf_type *rc_type(const struct btf *btf, uint32_t id);
/* Name of a type or member offset, "" when empty, NULL when invalid. */
const char *rc_name(const struct btf *btf, uint32_t off);
bool rc_str_empty(const char *s);

bool rc_kind_field_based(enum rc_relo_kind k);
bool rc_kind_type_based(enum rc_relo_kind k);
bool rc_kind_enumval_based(enum rc_relo_kind k);

/* Does @name match @targ_name ignoring flavor suffixes? */
bool rc_names_match(const struct btf *lbtf, uint32_t loff,
		    const struct btf *tbtf, uint32_t toff);
uint32_t rc_name_hash(const char *name, size_t len);
/* rc_name_hash of @name's essential name, in one pass; its length in *@len. */
uint32_t rc_essential_name_hash(const char *name, size_t *len);

int rc_types_are_compat(const struct btf *lbtf, uint32_t lid,
			const struct btf *tbtf, uint32_t tid, int level);
int rc_types_match(const struct btf *lbtf, uint32_t lid,
		   const struct btf *tbtf, uint32_t tid, bool behind_ptr,
		   int level);
int rc_fields_are_compat(const struct btf *lbtf, uint32_t lid,
			 const struct btf *tbtf, uint32_t tid);
/* Match a parsed local spec against target type @tid: 1, 0 or -errno. */
int rc_spec_match(const struct rc_spec *local, const struct btf *tbtf,
		  uint32_t tid, struct rc_spec *targ);

/* Call @fn for each type record of @btf's own part (split: above its
 * base), in id order, read straight from the raw data.  Stops at the first
 * non-zero return and returns it; -EINVAL if the records and the type
 * count disagree. */
typedef int (*rc_type_fn)(void *ctx, uint32_t id, const struct btf_type *t);
int rc_btf_for_each_type(const struct btf *btf, rc_type_fn fn, void *ctx);

/* rc_btf_validate, calling @fn (if not NULL) for each type once it has
 * been checked: validation and another walk in one pass. */
int rc_btf_validate_visit(const struct btf *btf, const char *what,
			  struct rc_error *err, rc_type_fn fn, void *ctx);
/* The same walk, @fn called only for the kinds in @kinds (a bit per
 * BTF_KIND_*) and, with @named, types with a name; @what NULL: no checks. */
int rc_btf_walk(const struct btf *btf, const char *what, struct rc_error *err,
		uint32_t kinds, bool named, rc_type_fn fn, void *ctx);

/* Index @btf's own types from @start_id on.  With @what, validate @btf in
 * the same pass (rc_btf_validate: -EINVAL with @err). */
int rc_name_index_build(struct rc_name_index *idx, const struct btf *btf,
			uint32_t start_id, const char *what,
			struct rc_error *err);
void rc_name_index_free(struct rc_name_index *idx);

/* snprintf into a fixed buffer, never overflowing. */
void rc_fmt(char *buf, size_t sz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
