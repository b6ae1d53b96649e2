/* SPDX-License-Identifier: MIT */
/*
 * relocore_private.h - librelocore's private interface: the internals
 * that components built over the library use, and nothing else.
 *
 * NOT part of the ABI.  Not installed; librelocore.so does not export
 * these functions (loader/librelocore.map: relocore.h's, no more), so a
 * user links the static library (librelocore.a) or the loader's sources.
 * Any commit may change what is here.
 *
 * Who may include it:
 *   btfgen/ (its .c files)   types and names read as the engine reads
 *                            them, the kind table and record sizes, the
 *                            validated walk, spec matching (rc_spec_match,
 *                            rc_skip_mods_typedefs, rc_kind_*_based), the
 *                            window of lazily validated reads
 *                            (bg_minimize), rc_fmt;
 *   test/unit/engine_test.c  the essential-name hashes and keys;
 *   test/fuzz/fuzz_object.c  the reader of trusted BTF (rc_btf_from_raw,
 *                            rc_btf_walk);
 *   check/                   the object's ELF as the loader read it
 *                            (rc_object_sections, rc_object_symbols,
 *                            rc_object_rels, rc_object_bytes), so that
 *                            check does not read the ELF a second time;
 *                            the target's modules (rc_target_module); the
 *                            BTF walk and reads btfgen uses too.
 *   cli/extract.c, cli/btfgen_cmd.c
 *                            rc_out_* and rc_write_file, the one way to
 *                            write a file, and rc_make_dirs (outfile.c).
 * Nothing else: the rest of cli/, and bench/, use relocore.h (and btfgen.h).  Within
 * loader/, internal.h includes it, so each declaration is written once.
 *
 * struct rc_btf is defined here, not left opaque: rc_type and rc_name
 * are static inline (every read of a type or a name, the engine's hot
 * path) and btfgen reads types through them - with their meaning: a
 * malformed type of a lazily checked BTF reads as void and is told by
 * rc_lazy_end, where the public rc_btf_type_by_id says NULL.  The inlines
 * read the struct's fields and use rc_type_raw, rc_owner, rc_type_validate,
 * rc_void_type and the RC_CHECKED states, so those are here too.  The fields are the loader's
 * all the same: outside loader/, read types and names through the
 * functions of this header, never the fields.
 */
#ifndef RELOCORE_PRIVATE_H
#define RELOCORE_PRIVATE_H

#include <bpf/btf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "relocore.h"

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
	bool big_endian;		/* the byte order it was written in
					 * (its target's: a bitfield's shift
					 * depends on it) */
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

/* Validate type @id of lazily validated @b (rc_type): the type, or void. */
const struct btf_type *rc_type_validate(const struct rc_btf *b, uint32_t id);

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
			return rc_type_validate(b, id);
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

/* String at @off: a name, "" when empty, NULL when outside the strings. */
static inline const char *rc_name(const struct rc_btf *b, uint32_t off)
{
	while (off < b->start_str)
		b = b->base;
	off -= b->start_str;
	return off < b->str_len ? b->strs + off : NULL;
}

/*
 * What a record of each BTF kind holds and the rules it keeps, one row
 * per kind (rc_btf_kinds, below; as the kernel's btf.c has one kind_ops
 * row per kind): its size, the words that are type ids or name offsets,
 * and its kind's size rule.  Whatever reads records by kind without a
 * case of its own reads the row: the record size (rc_btf_rec_size), the
 * walks' rules that need no message (btf_walk.c), the validator that
 * names what a type breaks (btf_validate.c), btfgen's subset (does
 * t->type refer to a type).  A kind or a rule added is a row edited.
 */
enum rc_btf_ref {
	RC_REF_NONE,		/* no type id there */
	RC_REF_VOID_OK,		/* a type id, void (0) allowed */
	RC_REF_TYPE,		/* a type id, not void */
	RC_REF_TYPE_OR_EXTERN_VOID,	/* a type id, void only when the
				 * record's first extra word says extern
				 * linkage: a VAR for a typeless __ksym
				 * (`extern void sym __ksym;`), which libbpf
				 * opens (it retypes .ksyms VARs itself) */
};
enum rc_btf_size_rule {
	RC_SIZE_ANY,		/* none */
	RC_SIZE_INT_BITS,	/* at most 128 bits, offset + bits within the size */
	RC_SIZE_ENUM,		/* 1, 2, 4 or 8 bytes */
};
#define RC_NO_RECORD 255	/* extra of a kind with no record (void, unknown) */
struct rc_btf_kind {
	const char *name;	/* as in messages ("enum64"); NULL: unknown kind */
	uint8_t extra;		/* bytes between struct btf_type and the entries */
	uint8_t ent_size;	/* bytes per entry, btf_vlen entries; 0: none */
	uint8_t type_ref;	/* what t->type is (enum rc_btf_ref) */
	uint8_t extra_refs;	/* words of type ids (not void) leading extra */
	uint8_t ent_name;	/* an entry's first word is a name offset */
	uint8_t ent_ref;	/* an entry's type id (enum rc_btf_ref), */
	uint8_t ent_ref_word;	/* at this word of the entry */
	uint8_t size_rule;	/* enum rc_btf_size_rule */
};

/*
 * The rows.  Here, not in a .c file, so that the walks' per-kind copies
 * of their loop (btf_walk.c) are compiled with the row's rules as
 * constants.  The layouts are BTF's (linux/btf.h): after struct
 * btf_type, a kind's fixed part (extra), then btf_vlen entries.
 */
static const struct rc_btf_kind rc_btf_kinds[32] = {
	/* void is id 0, never a record; libbpf 1.1 knows kinds 1 to 19 */
	[BTF_KIND_UNKN]		= { "void", .extra = RC_NO_RECORD },
	[BTF_KIND_ENUM64 + 1 ... 31] = { NULL, .extra = RC_NO_RECORD },

	[BTF_KIND_INT]		= { "int", .extra = 4, .size_rule = RC_SIZE_INT_BITS },
	[BTF_KIND_FLOAT]	= { "float" },
	[BTF_KIND_FWD]		= { "fwd" },
	[BTF_KIND_ENUM]		= { "enum", .ent_size = sizeof(struct btf_enum), .ent_name = 1,
				    .size_rule = RC_SIZE_ENUM },
	[BTF_KIND_ENUM64]	= { "enum64", .ent_size = sizeof(struct btf_enum64), .ent_name = 1,
				    .size_rule = RC_SIZE_ENUM },

	/* a modifier or a pointer may refer to void */
	[BTF_KIND_PTR]		= { "ptr", .type_ref = RC_REF_VOID_OK },
	[BTF_KIND_TYPEDEF]	= { "typedef", .type_ref = RC_REF_VOID_OK },
	[BTF_KIND_VOLATILE]	= { "volatile", .type_ref = RC_REF_VOID_OK },
	[BTF_KIND_CONST]	= { "const", .type_ref = RC_REF_VOID_OK },
	[BTF_KIND_RESTRICT]	= { "restrict", .type_ref = RC_REF_VOID_OK },
	[BTF_KIND_TYPE_TAG]	= { "type_tag", .type_ref = RC_REF_VOID_OK },

	[BTF_KIND_ARRAY]	= { "array", .extra = sizeof(struct btf_array),
				    .extra_refs = 2 },	/* type, index_type */
	[BTF_KIND_STRUCT]	= { "struct", .ent_size = sizeof(struct btf_member), .ent_name = 1,
				    .ent_ref = RC_REF_TYPE, .ent_ref_word = 1 },
	[BTF_KIND_UNION]	= { "union", .ent_size = sizeof(struct btf_member), .ent_name = 1,
				    .ent_ref = RC_REF_TYPE, .ent_ref_word = 1 },

	/* a FUNC's vlen is its linkage, not a count; a prototype's return
	 * type and a parameter's type may be void (void f(...)) */
	[BTF_KIND_FUNC]		= { "func", .type_ref = RC_REF_TYPE },
	[BTF_KIND_FUNC_PROTO]	= { "func_proto", .type_ref = RC_REF_VOID_OK,
				    .ent_size = sizeof(struct btf_param), .ent_name = 1,
				    .ent_ref = RC_REF_VOID_OK, .ent_ref_word = 1 },
	[BTF_KIND_VAR]		= { "var", .extra = sizeof(struct btf_var),
				    .type_ref = RC_REF_TYPE_OR_EXTERN_VOID },
	[BTF_KIND_DATASEC]	= { "datasec", .ent_size = sizeof(struct btf_var_secinfo),
				    .ent_ref = RC_REF_TYPE, .ent_ref_word = 0 },
	[BTF_KIND_DECL_TAG]	= { "decl_tag", .extra = sizeof(struct btf_decl_tag),
				    .type_ref = RC_REF_TYPE },
};

/* Record size of a type: 12 + extra + vlen * ent_size of its kind; 0 for
 * a kind libbpf 1.1 does not know (it knows 1 to 19). */
static inline size_t rc_btf_rec_size(const struct btf_type *t)
{
	const struct rc_btf_kind *kd = &rc_btf_kinds[btf_kind(t)];

	return kd->extra == RC_NO_RECORD ? 0 :
	       sizeof(*t) + kd->extra + (size_t)btf_vlen(t) * kd->ent_size;
}

/*
 * A view of raw BTF @data over @base, read in place (@data must outlive
 * it).  Its header and string section are checked here; its type records
 * are neither indexed nor checked until its first rc_btf_walk, which
 * indexes them (and, given @what, checks each; or, with check_lazily set
 * before it, has rc_type check each when first read).  An unindexed
 * @base is indexed first, as trusted.  Data of the other byte order is
 * converted by libbpf (btf__new), and that view is indexed at once.  NULL
 * with @err naming @what.
 */
struct rc_btf *rc_btf_from_raw(const void *data, size_t size, const struct rc_btf *base,
			       const char *what, struct rc_error *err);

/* Skip const/volatile/restrict/type_tag and typedefs; NULL on bad id. */
const struct btf_type *rc_skip_mods_typedefs(const struct rc_btf *btf,
					     uint32_t id, uint32_t *res_id);

bool rc_kind_field_based(enum rc_relo_kind k);
bool rc_kind_enumval_based(enum rc_relo_kind k);

uint32_t rc_name_hash(const char *name, size_t len);
/* The candidate index's key: the first 8 bytes of an essential name,
 * zero-padded, hashed (rc_key_hash; flavors share it: "task_struct___v1"
 * and "task_struct"; so do names alike in their first 8 bytes - the index
 * compares names).  rc_name_key of a NUL-terminated name, @avail bytes
 * readable from it; rc_name_key_len of an essential name of @len bytes. */
uint32_t rc_name_key(const char *name, size_t avail);
uint32_t rc_name_key_len(const char *name, size_t len);
/* rc_name_hash of @name's essential name, in one pass; its length in *@len. */
uint32_t rc_essential_name_hash(const char *name, size_t *len);

/* Match a parsed local spec against target type @tid: 1, 0 or -errno. */
int rc_spec_match(const struct rc_spec *local, const struct rc_btf *tbtf,
		  uint32_t tid, struct rc_spec *targ);

/*
 * A walk over @b's own type records, in id order: @fn called for those
 * whose kind is in @kinds (a bit per BTF_KIND_*) and, with @named, that
 * have a name; its first non-zero return stops the walk.  With @what each
 * type is checked (-EINVAL with @err naming @what, type and field).  The
 * first walk of a view read raw indexes it.  Returns 0, -ENOMEM, or
 * -EINVAL for a malformed record or @fn's non-zero return - @fn's return
 * itself from a later walk without @what.
 */
typedef int (*rc_type_fn)(void *ctx, uint32_t id, const struct btf_type *t);
int rc_btf_walk(const struct rc_btf *b, const char *what, struct rc_error *err,
		uint32_t kinds, bool named, rc_type_fn fn, void *ctx);
/* Call @fn for each own type record of @b, in id order (of an indexed
 * view: rc_btf_walk's walk, every kind, no checks).  Stops at the first
 * non-zero return and returns it. */
int rc_btf_for_each_type(const struct rc_btf *b, rc_type_fn fn, void *ctx);

/*
 * The object's ELF, read once when it is opened (loader/object.c): its
 * sections, its symbol table and its SHT_REL relocations, as libelf gave
 * them.  Everything points into the object and lives as long as it.
 */
struct rc_elf_sec {
	const char *name;		/* "" for section 0 */
	uint32_t type;			/* sh_type */
	uint64_t flags;			/* sh_flags */
	uint64_t off, size;		/* sh_offset, sh_size */
	uint32_t link, info;		/* sh_link, sh_info */
	uint64_t entsize;		/* sh_entsize */
	const unsigned char *data;	/* the bytes at off (NULL: SHT_NOBITS);
					 * in the file's bounds (checked at open) */
};

/* A symbol; one libelf could not read is all zero, with the name "". */
struct rc_elf_sym {
	const char *name;		/* "" when unreadable */
	uint32_t shndx;			/* st_shndx */
	uint64_t value, size;		/* st_value, st_size */
	uint8_t type, bind;		/* STT_*, STB_* */
};

/* An entry of a SHT_REL section. */
struct rc_elf_rel {
	uint64_t off;			/* r_offset in the section it applies to */
	uint32_t sym, type;		/* ELF64_R_SYM, ELF64_R_TYPE of r_info */
};

/* Is @s code - a section of programs, as libbpf takes one: PROGBITS,
 * executable, not empty, and not one libbpf ignores or takes by its name
 * whatever its flags (DWARF's .debug*; license, version, maps, .maps,
 * .BTF, .BTF.ext)? */
bool rc_elf_sec_is_code(const struct rc_elf_sec *s);
/* The section headers by index, *@nr of them (section 0 included). */
const struct rc_elf_sec *rc_object_sections(const struct rc_object *obj, size_t *nr);
/*
 * The first SHT_SYMTAB's symbols (its data size / sh_entsize of them,
 * symbol 0 included), its section index in *@sec; NULL (*@nr 0) when the
 * object has no symbol table libelf can read (none, or sh_entsize 0).
 */
const struct rc_elf_sym *rc_object_symbols(const struct rc_object *obj, size_t *nr,
					   size_t *sec);
/* The entries libelf could read of SHT_REL section @sec when it applies to
 * an executable section (NULL, *@nr 0 for any other section: the
 * relocations of debug info and .BTF.ext, most of a large object's, are
 * not read). */
const struct rc_elf_rel *rc_object_rels(const struct rc_object *obj, size_t sec,
					size_t *nr);
/* The object's byte order: big-endian (ELF EI_DATA, clang -target bpfeb),
 * and whether that is not the host's (its words, instructions included,
 * are then in the other order in rc_object_bytes). */
bool rc_object_big_endian(const struct rc_object *obj);
bool rc_object_swapped(const struct rc_object *obj);
/* Swap @n instructions between the two byte orders (the register nibbles,
 * off and imm); its own inverse. */
void rc_insns_swap(struct bpf_insn *insns, size_t n);
/* The object file's bytes as read (relocations applied in place). */
const unsigned char *rc_object_bytes(const struct rc_object *obj, size_t *size);
/* Relocation @i of @obj (0 to rc_object_relo_count - 1) as read, with its
 * program section and instruction: what btfgen needs, without the
 * results' 3 KB each (rc_object_results).  NULL past the end. */
const struct rc_relo *rc_object_relo(const struct rc_object *obj, size_t i,
				     const char **section, uint32_t *insn_idx);

/* rc_object_relocate_each without patching: every relocation of @obj (not
 * relocated) decided and handed to @fn as there, @obj only read, so one
 * object is decided against many targets.  Refusals return as there. */
int rc_object_decide_each(const struct rc_object *obj, const struct rc_target *target,
			  rc_result_fn fn, void *ctx, struct rc_error *err);

/* A target's module BTFs (rc_target_add_module): how many, and the @i-th
 * (NULL out of range) with its name in *@name when @name is set. */
int rc_target_nr_modules(const struct rc_target *t);
const struct rc_btf *rc_target_module(const struct rc_target *t, int i,
				      const char **name);

/* Is BTF type @id of a kind libbpf fills for a .kconfig extern? (check:
 * libbpf refuses to open an object with another; kconfig.c) */
bool rc_kconfig_type_ok(const struct rc_btf *btf, uint32_t id);
/* The size of the map libbpf makes of the .kconfig externs of @btf (its
 * layout: alignment descending, size ascending, name): 0 none, -1 a type
 * libbpf cannot fill. */
int64_t rc_kconfig_map_size(const struct rc_btf *btf);

/*
 * outfile.c: the one way relocore writes a file, whole or not at all (an
 * unnamed temporary in the destination's directory, fsync'd, renamed into
 * place, the directory fsync'd; on any error the destination untouched and
 * no temporary left; never through a planted link).  Each returns 0 or a
 * negative errno with @err naming the path; on error @o is already closed.
 */
struct rc_out {
	int fd, dirfd;
	bool named;			/* the temporary has the name tmp */
	char tmp[256];
	char *path;			/* the destination, for messages */
	const char *base;		/* its name in the directory */
};
int rc_out_open(struct rc_out *o, const char *path, struct rc_error *err);
/* The same for the file @name (no '/') of the directory open as @dirfd
 * (not closed; a writer of several files in one directory opens it once);
 * messages name it @shown. */
int rc_out_open_in(struct rc_out *o, int dirfd, const char *name, const char *shown,
		   struct rc_error *err);
int rc_out_write(struct rc_out *o, const void *data, size_t size, struct rc_error *err);
/* Commit: @o is closed after it, whatever it returns. */
int rc_out_commit(struct rc_out *o, struct rc_error *err);
void rc_out_abort(struct rc_out *o);
/* rc_out_open + rc_out_write + rc_out_commit */
int rc_write_file(const char *path, const void *data, size_t size, struct rc_error *err);
/* mkdir -p: the directories of @path, and @path itself when @whole;
 * 0 or -errno (errno kept). */
int rc_make_dirs(const char *path, bool whole);

/* snprintf into a fixed buffer, never overflowing. */
void rc_fmt(char *buf, size_t sz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
