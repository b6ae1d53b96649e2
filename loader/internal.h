/* SPDX-License-Identifier: MIT */
/*
 * internal.h - helpers shared by librelocore's own files (loader/); not
 * installed.  What other components may use of the internals is in
 * relocore_private.h, which this includes: nothing outside loader/
 * includes this header.
 */
#ifndef RELOCORE_INTERNAL_H
#define RELOCORE_INTERNAL_H

#include <bpf/btf.h>
#include <linux/bpf.h>
#include <stdarg.h>

#include "relocore.h"
#include "relocore_private.h"

/* Nesting limit for recursive type comparisons (libbpf uses the same). */
#define RC_MAX_DEPTH 32

/*
 * The validator of a view's own types (btf_validate.c): the rules of
 * rc_btf_kinds against @btf's counts, messages into @err naming @what and
 * the type @id being validated.  The walks (btf_walk.c) drive it.
 */
struct rc_validator {
	const struct rc_btf *btf;
	uint32_t n;		/* type count, base included */
	uint32_t str_limit;	/* string offsets below this are valid */
	const char *what;
	struct rc_error *err;
	uint32_t id;
};

static inline struct rc_validator rc_validator_of(const struct rc_btf *b, const char *what,
						  struct rc_error *err, uint32_t id)
{
	return (struct rc_validator){ b, b->cnt, b->start_str + b->str_len, what, err, id };
}

/* Whether @t (type v->id) keeps its kind's rules: 0, or -EINVAL with a
 * message naming the type and the rule broken. */
int rc_validate_type(struct rc_validator *v, const struct btf_type *t);

/* Validate every own type of indexed view @b with @v, in id order (the
 * walk of btf_walk.c): 0, or -EINVAL naming the first malformed one. */
int rc_btf_walk_validate(const struct rc_btf *b, struct rc_validator *v);

/* Validate every type of @b (and its base) now: 0 or -EINVAL with @err. */
int rc_btf_validate_all(const struct rc_btf *b, struct rc_error *err);

/* libbpf's btf__new, also for BTF of the other byte order under a header
 * longer than libbpf 1.1 converts (its extra bytes zero). */
struct btf *rc_btf_new_any_order(const void *data, size_t size);

/* Hand view @b (rc_btf_from_raw's) a mapping or buffer to release with it. */
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

bool rc_str_empty(const char *s);

struct stat;
/* Open @path read-only and fstat it into @st: the descriptor, or -errno
 * with @err naming @path.  rc_file_read and the target reader use it. */
int rc_file_open(const char *path, struct stat *st, struct rc_error *err);
/* @path's bytes mapped privately (writable, copy on write: what is
 * patched stays in this process), or read into memory where it cannot be
 * mapped (*mapped false); rc_file_unmap gives them back either way. */
int rc_file_map(const char *path, void **data, size_t *size, bool *mapped,
		struct rc_error *err);
void rc_file_unmap(void *data, size_t size, bool mapped);

/* elf_write.c, the one ELF writer. */


/* A symbol to define in the new section (STT_OBJECT, binding kept). */
struct rc_elf_def {
	int sym;			/* its index in the symbol table */
	uint64_t value, size;
	const char *name;		/* for messages */
};

/* What rc_elf_rewrite changes of an object. */
struct rc_elf_rewrite {
	const char *what;		/* messages say "OBJ: WHAT: ..." */
	size_t replace_sec;		/* this section's data becomes ... */
	const void *replace;		/* ... these bytes */
	size_t replace_size;
	const char *add_name;		/* a new SHT_PROGBITS, SHF_ALLOC section, */
	const void *add_data;		/* 8-aligned, after the others */
	size_t add_size;
	const struct rc_elf_def *defs;	/* symbols defined in it */
	size_t nr_defs;
};

/*
 * Write @obj rewritten as @w says to the empty file @fd: a new ELF
 * (ELF_C_WRITE) with the input's sections in their order, so every index
 * (sh_link, sh_info, symbols' st_shndx, e_shstrndx) stays valid, the
 * section name table, the symbol table and section @w->replace_sec
 * replaced, the new section last; libelf lays it out.  0, -ENOMEM, or
 * -EINVAL with @err.
 */
int rc_elf_rewrite(const struct rc_object *obj, const struct rc_elf_rewrite *w, int fd,
		   struct rc_error *err);

/* The type kinds (the field and enum value kinds: relocore_private.h). */
bool rc_kind_type_based(enum rc_relo_kind k);

/* Does @name match @targ_name ignoring flavor suffixes? */
bool rc_names_match(const struct rc_btf *lbtf, uint32_t loff,
		    const struct rc_btf *tbtf, uint32_t toff);
/* The hash of the candidate index's key (rc_name_key, in
 * relocore_private.h): the first 8 bytes of an essential name, as a word. */
static inline uint32_t rc_key_hash(uint64_t w)
{
	w *= 0x9e3779b97f4a7c15ull;
	return (uint32_t)(w >> 32 ^ w >> 7);
}

int rc_types_are_compat(const struct rc_btf *lbtf, uint32_t lid,
			const struct rc_btf *tbtf, uint32_t tid, int level);
int rc_types_match(const struct rc_btf *lbtf, uint32_t lid,
		   const struct rc_btf *tbtf, uint32_t tid, bool behind_ptr,
		   int level);
int rc_fields_are_compat(const struct rc_btf *lbtf, uint32_t lid,
			 const struct rc_btf *tbtf, uint32_t tid);
/* Is @arr a flexible array member: of no elements, and the last member
 * of the struct @prev (the named step that reached it) steps into? */
bool rc_is_flex_arr(const struct rc_btf *btf, const struct rc_access *prev,
		    const struct btf_array *arr);


/* Index @btf's own types from @start_id on.  With @what, validate @btf in
 * the same pass (rc_btf_validate: -EINVAL with @err). */
int rc_name_index_build(struct rc_name_index *idx, const struct rc_btf *btf,
			uint32_t start_id, const char *what,
			struct rc_error *err);
void rc_name_index_free(struct rc_name_index *idx);

#endif
