/* SPDX-License-Identifier: MIT */
/*
 * relocore.h - the one public header of librelocore.
 *
 * librelocore reads a BPF ELF object (programs, .BTF, .BTF.ext), decides
 * every CO-RE relocation of it against a target BTF, and applies the
 * decisions to the object's instructions.  Its areas, in this order:
 *
 *   1. version         RC_VERSION_*, rc_version
 *   2. conventions     errors, ownership, threads; struct rc_error
 *   3. BTF             struct rc_btf, relocore's read-only view (rc_btf_*)
 *   4. targets         the BTF relocations are decided against (rc_target_*)
 *   5. engine          one relocation: parse, find candidates, decide,
 *                      patch (rc_core_*).  A pure function of (local BTF,
 *                      target BTF, relocation, instruction): no I/O, no
 *                      global state
 *   6. objects         BPF ELF files, embedded ones, relocating and
 *                      writing them (rc_object_*, rc_embedded_*)
 *   7. kconfig         offline values of .kconfig externs (rc_kconfig_*)
 *   8. check           will each program load and attach on a target,
 *                      decided offline (rc_check_*): an application of
 *                      the engine (check/), exported with it
 *
 * At the end: what the next SONAME (RC_VERSION_MAJOR 2) should change.
 */
#ifndef RELOCORE_H
#define RELOCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct btf;
struct btf_type;
struct bpf_insn;

/* ===== 1. version ===================================================== */

/*
 * The version of this header.  The library's ABI version is
 * RC_VERSION_MAJOR: it is the SONAME's number (librelocore.so.1) and
 * changes whenever a change breaks programs built against an older header.
 */
#define RC_VERSION_MAJOR 1
#define RC_VERSION_MINOR 2
#define RC_VERSION_PATCH 0

/* The version of the library in use, "MAJOR.MINOR.PATCH" (may be newer
 * than the header's within one RC_VERSION_MAJOR). */
const char *rc_version(void);

/* ===== 2. conventions ================================================= */

/*
 * Errors.  A function that returns int returns 0 (or a documented
 * positive value) on success and a negative errno on failure; one that
 * returns a pointer returns NULL on failure.  The library never prints.
 * The message of a failure goes where the function says:
 *   - the object, target, kconfig and check areas take a struct rc_error
 *     and fill its msg, naming the file (and section, offset, type, field)
 *     concerned;
 *   - the engine's rc_core_parse_spec and rc_core_patch write into a
 *     caller's buffer (char *err, size_t errsz), and rc_core_decide puts
 *     the reason of a poisoned or refused relocation in the decision
 *     (struct rc_decision's reason): a refusal is data, not a failure;
 *   - rc_btf_libbpf and rc_btf_wrap set errno (they wrap libbpf's).
 * On failure nothing is half-done: outputs are untouched or freed, files
 * are not written (see rc_object_write).
 *
 * Ownership.  What a function returns is the caller's, to free with the
 * function named beside it, unless it says it is borrowed ("owned by",
 * "valid while").  What a function takes is borrowed for the call only,
 * unless it says it keeps it.  Every const pointer a function returns into
 * an object, target or BTF stays valid while that object lives.
 *
 * Threads.  No global state: distinct objects and targets may be used
 * from distinct threads.  A target or rc_btf may be read by several
 * threads at once (see struct rc_btf); an object is not shared.
 */

/* Error of the object layer: one message naming file, section, offset. */
struct rc_error {
	char msg[512];
};

/* ===== 3. BTF ========================================================= */

/*
 * A BTF as relocore reads it: ids and string offsets as in the BTF.
 * Read-only once made; two things are computed on first use and kept in
 * it (the size of a pointer, rc_btf_libbpf's copy): call rc_btf_libbpf
 * before sharing one between threads if any of them will.  A target's
 * types checked as they are read (rc_target_open) may be checked by
 * several threads at once: that is safe (one byte per type, atomic).
 * Its types are the kernel's struct btf_type records, so libbpf's inline
 * helpers (btf_kind, btf_members, ...) apply to them.
 */
struct rc_btf;

/* Number of types, void and (split BTF) the base's included. */
uint32_t rc_btf_type_cnt(const struct rc_btf *b);
/* Type @id (0: void), NULL when out of range or, in a target read from a
 * file (checked type by type: see rc_target_open), malformed.  Owned by
 * @b. */
const struct btf_type *rc_btf_type_by_id(const struct rc_btf *b, uint32_t id);
/* The string at @off ("" for 0), NULL when outside the string sections.
 * Owned by @b. */
const char *rc_btf_str(const struct rc_btf *b, uint32_t off);
/* The base a split BTF is read over, or NULL.  Borrowed. */
const struct rc_btf *rc_btf_base(const struct rc_btf *b);
/* First type of @kind named @name (libbpf's btf__find_by_name_kind). */
int rc_btf_find_by_name_kind(const struct rc_btf *b, const char *name, int kind);
/* Size of type @id, as libbpf's btf__resolve_size; -errno. */
int64_t rc_btf_resolve_size(const struct rc_btf *b, uint32_t id);
/* libbpf's struct btf of the same types and ids, made on first call (a
 * copy: costly for a kernel's BTF) and freed with @b; NULL with errno. */
struct btf *rc_btf_libbpf(const struct rc_btf *b);
/* A view of libbpf's @btf (not owned: it must outlive the view and not
 * change meanwhile); NULL with errno.  Free the view with rc_btf_free. */
struct rc_btf *rc_btf_wrap(const struct btf *btf);
/* Free a view made by rc_btf_wrap (NULL: nothing).  The views a target
 * or an object gives are theirs: never free those. */
void rc_btf_free(struct rc_btf *b);

/* Check a BTF's types and strings are self-consistent (ids in range,
 * strings terminated, sizes sane).  Returns 0 or -EINVAL with @err;
 * @what names it in messages.  @btf stays the caller's. */
int rc_btf_validate(const struct btf *btf, const char *what,
		    struct rc_error *err);

/* ===== 4. targets ===================================================== */

/* Target BTF: vmlinux (or a file), plus optional module BTFs over it. */
struct rc_target;

/*
 * Open a target.  @path is a raw BTF file or an ELF file with a .BTF
 * section; @base_path, when set, is the base BTF @path is split over.
 * Free it with rc_target_free.
 *
 * How a target is checked: the layout of its records (kinds, lengths) when
 * it is opened; the rest (type ids and name offsets in range, no void
 * where a type is required, int encodings) of a raw BTF file - not of the
 * running kernel's /sys/kernel/btf/, which the kernel checked - type by
 * type, when a decision first reads the type: a decision that reads a
 * malformed type is an error naming it (RC_ERROR), the others are not
 * affected.  rc_target_check checks every type at once; an ELF file's
 * .BTF is checked at once when opened.
 */
struct rc_target *rc_target_open(const char *path, const char *base_path,
				 struct rc_error *err);
/* A target of raw BTF @data (@size bytes), read in place: @data stays the
 * caller's and must outlive the target.  Checked as a raw BTF file is,
 * named @what in messages. */
struct rc_target *rc_target_open_mem(const void *data, size_t size, const char *what,
				     struct rc_error *err);
/* Wrap an already parsed BTF as a target: @btf stays the caller's and
 * must outlive the target.  NULL when out of memory. */
struct rc_target *rc_target_from_btf(const struct btf *btf);
/* Make @btf (validated with rc_btf_validate first) a target that owns it:
 * rc_target_free frees it.  NULL when out of memory; @btf is then still
 * the caller's, to btf__free. */
struct rc_target *rc_target_adopt(struct btf *btf);
/* Add module BTF (split over the target's vmlinux), searched when vmlinux
 * has no candidate.  The target keeps what it reads of @path.  Returns 0
 * or -errno with @err; the target is unchanged on failure. */
int rc_target_add_module(struct rc_target *t, const char *path,
			 struct rc_error *err);
/* The target's vmlinux types (relocore's view; rc_btf_libbpf for
 * libbpf's).  Owned by @t. */
const struct rc_btf *rc_target_types(const struct rc_target *t);
/* Check every type of @t now (see rc_target_open): 0, or -EINVAL with
 * @err naming the first malformed type. */
int rc_target_check(const struct rc_target *t, struct rc_error *err);
/* Free @t, its modules, and the BTF it owns (NULL: nothing). */
void rc_target_free(struct rc_target *t);

/* ===== 5. engine ====================================================== */

/* Relocation kinds, numbered as in .BTF.ext (enum bpf_core_relo_kind). */
enum rc_relo_kind {
	RC_FIELD_BYTE_OFFSET = 0,
	RC_FIELD_BYTE_SIZE = 1,
	RC_FIELD_EXISTS = 2,
	RC_FIELD_SIGNED = 3,
	RC_FIELD_LSHIFT_U64 = 4,
	RC_FIELD_RSHIFT_U64 = 5,
	RC_TYPE_ID_LOCAL = 6,
	RC_TYPE_ID_TARGET = 7,
	RC_TYPE_EXISTS = 8,
	RC_TYPE_SIZE = 9,
	RC_ENUMVAL_EXISTS = 10,
	RC_ENUMVAL_VALUE = 11,
	RC_TYPE_MATCHES = 12,
	RC_RELO_KIND_MAX = 13,
};

/* Returns the libbpf kind name of @kind ("byte_off", "field_exists", ...),
 * a static string. */
const char *rc_relo_kind_str(enum rc_relo_kind kind);

/* One .BTF.ext core_relo record, as stored (struct bpf_core_relo). */
struct rc_relo {
	uint32_t insn_off;	/* byte offset of the instruction in its section */
	uint32_t type_id;	/* local root type */
	uint32_t access_str_off;
	uint32_t kind;		/* enum rc_relo_kind */
};

/* Maximum depth of an access string ("0:1:2:..."). */
#define RC_MAX_SPEC_LEN 64

/* One step of an access path, in either BTF. */
struct rc_access {
	uint32_t type_id;	/* the containing type (struct/union/array) */
	uint32_t idx;		/* member index or array index */
	const char *name;	/* member or enumerator name, NULL for array
				 * steps; owned by the spec's btf */
};

/*
 * A parsed access, "spec": the raw path (every step, anonymous members
 * included) and the resulting bit offset of the field.  Points into @btf:
 * valid while that BTF lives.
 */
struct rc_spec {
	const struct rc_btf *btf;
	uint32_t root_type_id;
	enum rc_relo_kind kind;
	int raw_len;
	uint32_t raw[RC_MAX_SPEC_LEN];
	int len;			/* named steps only */
	struct rc_access steps[RC_MAX_SPEC_LEN];
	uint32_t bit_offset;
};

/* Outcome of deciding one relocation. */
enum rc_outcome {
	RC_OK = 0,		/* new value computed; instruction patched */
	RC_POISON,		/* unresolvable: instruction poisoned (libbpf's way) */
	RC_ERROR,		/* refused: object must not be loaded */
};

/*
 * A decision: computed first, applied later (rc_core_patch), so it can be
 * printed, compared and tested without touching instructions.  Points into
 * the local and target BTFs: valid while they live.
 */
struct rc_decision {
	enum rc_outcome outcome;
	enum rc_relo_kind kind;
	uint64_t orig_val;	/* value the compiler wrote for the local types */
	uint64_t new_val;	/* value for the target */
	bool validate;		/* instruction must hold orig_val */
	uint32_t orig_sz, new_sz;	/* memory access size (FIELD_BYTE_OFFSET) */
	bool fail_memsz_adjust;
	uint32_t local_type_id;
	uint32_t targ_type_id;	/* 0 when no target type matched */
	const struct rc_btf *targ_btf;	/* BTF that holds targ_type_id */
	int nr_cands;		/* candidates with the same essential name */
	int nr_matched;		/* candidates that matched */
	struct rc_spec local;
	struct rc_spec targ;	/* valid when targ_type_id != 0 */
	char reason[256];	/* why poisoned or refused */
};

/* Length of the essential part of @name: "task_struct___old" -> 11. */
size_t rc_essential_name_len(const char *name);

/*
 * Parse the access string @access of @relo against @btf into @spec (the
 * caller's; it points into @btf).  Returns 0, or -errno with a message in
 * @err (@errsz bytes).
 */
int rc_core_parse_spec(const struct rc_btf *btf, const struct rc_relo *relo,
		       const char *access, struct rc_spec *spec,
		       char *err, size_t errsz);

/* A candidate target type: same kind and essential name as the local one. */
struct rc_cand {
	const struct rc_btf *btf;	/* borrowed from the target */
	uint32_t id;
};

struct rc_cands {
	int len, cap;
	struct rc_cand *c;	/* the caller's: free() */
};

/*
 * Find the candidates for local type @local_id in @target: vmlinux first,
 * module BTFs only when vmlinux has none.  Allocates @out->c (the
 * caller's: free(); valid while @target lives).  0 or -errno.
 */
int rc_core_find_cands(const struct rc_btf *local, uint32_t local_id,
		       const struct rc_target *target, struct rc_cands *out);

/*
 * Decide @relo against the candidate list @cands of its local type, as
 * libbpf does: every matching candidate must agree, and the list is then
 * narrowed to the matching ones so that later relocations of the same
 * local type are decided against the same target layout.  Writes @d.
 */
int rc_core_decide_cands(const struct rc_btf *local, const struct rc_relo *relo,
			 struct rc_cands *cands, struct rc_decision *d);

/*
 * Decide @relo (whose local types live in @local) against @target.
 * Pure: reads both BTFs, writes only @d.  Returns 0 when @d holds a
 * decision (RC_OK, RC_POISON or RC_ERROR).
 */
int rc_core_decide(const struct rc_btf *local, const struct rc_target *target,
		   const struct rc_relo *relo, struct rc_decision *d);

/*
 * Apply @d to the instruction at @insns[@idx] (@cnt instructions in the
 * program, the caller's, patched in place).  Returns 0; RC_PATCH_POISONED
 * when the instruction itself made the decision unusable (a load of a
 * resized signed field) and was poisoned, with the reason in @err; or
 * -errno with a message in @err: the instruction does not hold what the
 * decision expects (it is then untouched).
 */
#define RC_PATCH_POISONED 1

int rc_core_patch(struct bpf_insn *insns, size_t cnt, size_t idx,
		  const struct rc_decision *d, char *err, size_t errsz);

/* Write the access of @spec as C ("task_struct.real_parent->tgid") into
 * @buf (@sz bytes, truncated to fit).  0, or -EINVAL when its root type
 * is not in its BTF. */
int rc_spec_format(const struct rc_spec *spec, char *buf, size_t sz);

/* ===== 6. objects ===================================================== */

/* A BPF ELF object: a private, patchable copy of the file's bytes. */
struct rc_object;

/* Relocation of an object: a record, where it points, and its decision. */
struct rc_result {
	const char *section;	/* program section name */
	uint32_t insn_idx;	/* instruction index in the section */
	int relo_idx;		/* index within the section's records */
	struct rc_relo relo;
	const char *access;	/* raw access string "0:1:2" */
	struct rc_decision d;
	char patch_err[256];	/* non-empty when patching was refused */
};

/* Open the BPF object @path (see rc_object_open_select): free it with
 * rc_object_free.  NULL with @err. */
struct rc_object *rc_object_open(const char *path, struct rc_error *err);
/* Open from memory (copied: @buf stays the caller's). @name is used in
 * messages. */
struct rc_object *rc_object_open_mem(const void *buf, size_t size,
				     const char *name, struct rc_error *err);

/*
 * Open @path as a BPF object: a BPF ELF file, or a file that embeds BPF ELF
 * objects (a libbpf skeleton's binary, `ld -r -b binary`, .incbin; see
 * rc_embedded_find).  @select (NULL: the file must hold exactly one) picks
 * an embedded object by index ("0", "1", ...) or name (rc_embedded's
 * name; "foo" also picks "foo_bpf").  The object is then named
 * "PATH(NAME)".  rc_object_open(path, err) is rc_object_open_select(path,
 * NULL, err).  NULL with @err: none embedded, several and no @select
 * (@err lists them), truncated, or malformed.
 */
struct rc_object *rc_object_open_select(const char *path, const char *select,
					struct rc_error *err);

/*
 * Every object of @path: the BPF object it is, or each one it embeds (in
 * file order).  *@objs (free() it, rc_object_free each) gets *@nr >= 1.
 * 0, or -errno with @err as rc_object_open_select would say.
 */
int rc_object_open_all(const char *path, struct rc_object ***objs, size_t *nr,
		       struct rc_error *err);

/* Free @obj, its results and its BTF views (NULL: nothing). */
void rc_object_free(struct rc_object *obj);
/* Its name in messages ("PATH" or "PATH(NAME)").  Owned by @obj. */
const char *rc_object_name(const struct rc_object *obj);
/* Its .BTF as libbpf reads it.  Owned by @obj. */
const struct btf *rc_object_btf(const struct rc_object *obj);
/* The same types, as the engine reads them.  Owned by @obj. */
const struct rc_btf *rc_object_types(const struct rc_object *obj);
size_t rc_object_relo_count(const struct rc_object *obj);

/*
 * Decide every relocation of @obj against @target and patch the object's
 * instructions in memory.  Fills @res (rc_object_relo_count entries,
 * owned by the object).  Returns 0 when every relocation was applied
 * (poisoned ones included), -ENOENT/-EINVAL when any was refused; in that
 * case the object's instructions are left untouched.
 */
int rc_object_relocate(struct rc_object *obj, const struct rc_target *target,
		       const struct rc_result **res, struct rc_error *err);

/*
 * rc_object_relocate, without keeping the results (a struct rc_result is
 * 3 KB: 100 MB for a probe of 35,000 relocations): each relocation, once
 * decided and patched (in .BTF.ext order), is handed to @fn (NULL: none)
 * as @r, valid during the call only, with its index @i.  A non-zero return
 * from @fn stops the relocation: that value is returned and nothing is
 * applied.  rc_object_results does not see these results.  Since 1.2.
 */
typedef int (*rc_result_fn)(void *ctx, const struct rc_result *r, size_t i);
int rc_object_relocate_each(struct rc_object *obj, const struct rc_target *target,
			    rc_result_fn fn, void *ctx, struct rc_error *err);

/* All results, in .BTF.ext order (owned by the object); returns their
 * count. */
size_t rc_object_results(const struct rc_object *obj,
			 const struct rc_result **res);

/*
 * Write the (relocated) object to @path: instructions patched, core_relo
 * records consumed, everything else kept.  Written to a temporary file and
 * renamed, so a failure never leaves a half-written output.
 */
int rc_object_write(struct rc_object *obj, const char *path,
		    struct rc_error *err);

/*
 * The object's bytes as rc_object_write() would write them: relocated
 * instructions, core_relo records consumed.  Allocated: the caller's,
 * free() it.  NULL when out of memory.
 */
void *rc_object_image(const struct rc_object *obj, size_t *size);

/* A BPF ELF object embedded in another file. */
struct rc_embedded {
	size_t index;		/* among the file's embedded objects */
	size_t offset;		/* file offset of its ELF header */
	size_t size;		/* its extent, from its own headers */
	char name[128];		/* as a libbpf skeleton names it ("biolatency_bpf") */
	const char *origin;	/* where the name came from: "symbol" (the host
				 * file's symbol at the object), "source" (its
				 * first line_info file), "index" ("object0");
				 * a static string */
};

/*
 * Find the BPF ELF objects in @buf (@size bytes of the file @file, named in
 * messages): every 64-bit little-endian ELF header with e_machine 247
 * (EM_BPF), its extent taken from its ELF header, section header table and
 * sections.  A file that is a BPF object itself yields one, at offset 0.
 * *@out (the caller's: free()) gets *@nr entries in file order, names
 * unique.  0, or -EINVAL with @err naming the file and offset of a
 * truncated object.
 */
int rc_embedded_find(const void *buf, size_t size, const char *file,
		     struct rc_embedded **out, size_t *nr, struct rc_error *err);
/* The index of the object @select names among @v (see
 * rc_object_open_select), -1 if none; NULL @select: 0 when @n is 1. */
int rc_embedded_select(const struct rc_embedded *v, size_t n,
		       const char *select);
/* "0 foo_bpf (offset 0x.., N bytes); 1 ..." into @buf (@sz bytes,
 * truncated to fit). */
void rc_embedded_describe(const struct rc_embedded *v, size_t n, char *buf,
			  size_t sz);
/* Does @buf start with a 64-bit little-endian EM_BPF ELF header? */
bool rc_embedded_is_bpf_header(const void *buf, size_t size);
/* Read the regular file @path (at most 1 GiB) into *@buf (the caller's:
 * free()).  0, or -errno with @err. */
int rc_file_read(const char *path, void **buf, size_t *size,
		 struct rc_error *err);

/* ===== 7. kconfig ===================================================== */

/*
 * Offline values for an object's .kconfig externs (libbpf's `extern T NAME
 * __kconfig`, the plugin's __bpf_* globals), for a target that is not the
 * running kernel.  The strings are the caller's, borrowed for each call.
 */
struct rc_kconfig {
	const char *release;	/* the target's `uname -r`: LINUX_KERNEL_VERSION */
	const char *config;	/* the target's .config text, or NULL */
	size_t config_len;
};

/* LINUX_KERNEL_VERSION of @release as libbpf computes it: a<<16 | b<<8 |
 * min(c, 255) of "a.b.c...".  0 or -EINVAL. */
int rc_kernel_version(const char *release, uint32_t *version);

/*
 * Bake @obj's .kconfig externs with the values they have on the target:
 * a new object in which they are read-only globals of a section
 * ".rodata.kconfig" (libbpf loads it as a frozen read-only map, so the
 * verifier still prunes on them), with BTF to match.  Values follow
 * libbpf's rules: LINUX_KERNEL_VERSION from @kc->release;
 * LINUX_HAS_BPF_COOKIE and LINUX_HAS_SYSCALL_WRAPPER from @target's BTF
 * (bpf_get_attach_cookie, __<arch>_sys_bpf); CONFIG_* from @kc->config
 * (y/m/n, numbers, "strings"; "# CONFIG_X is not set" is n); a weak extern
 * that is not found is 0, a strong one is an error.  Types: bool, char,
 * integers of 1-8 bytes, enum libbpf_tristate, char arrays.  An object
 * without .kconfig externs comes back unchanged (as a new object all the
 * same).  The new object is the caller's (rc_object_free); @obj is not
 * changed.  *@nr_baked is the number of externs baked.  NULL with @err
 * on failure.
 */
struct rc_object *rc_object_bake_kconfig(const struct rc_object *obj,
					 const struct rc_kconfig *kc,
					 const struct rc_target *target,
					 int *nr_baked, struct rc_error *err);

/* Read a kernel config file, plain or gzip-compressed (/proc/config.gz),
 * into *@text (the caller's: free(); *@len bytes).  0, or -errno with
 * @err. */
int rc_kconfig_read(const char *path, char **text, size_t *len,
		    struct rc_error *err);

/* ===== 8. check ======================================================= */

/*
 * relocore check: will each program of an object load and attach on a
 * target, decided offline from the object and the target's BTF.  The
 * answer is data: per program, ok or the problems that stop it.
 */
enum rc_check_kind {
	RC_CHECK_RELOCATION,	/* a reachable poisoned or a refused relocation */
	RC_CHECK_ATTACH,	/* the attach point is not in the target */
	RC_CHECK_HELPER,	/* a reachable helper call the target lacks */
	RC_CHECK_MAP,		/* map type unknown, or max_entries 0 */
	RC_CHECK_PROGRAM_TYPE,	/* program or attach type unknown */
	RC_CHECK_OPEN,		/* libbpf refuses to open the object */
	RC_CHECK_KFUNC,		/* a kfunc or typed __ksym extern the target
				 * lacks */
	RC_CHECK_KCONFIG,	/* a .kconfig extern the target's config
				 * cannot give */
};

struct rc_check_problem {
	enum rc_check_kind kind;
	bool needs;		/* user space must supply it ("needs ..."),
				 * not the kernel's fault */
	int insn;		/* instruction index in its section, or -1 */
	char detail[400];
};

struct rc_check_prog {
	char *name;		/* the program's function */
	char *section;
	bool ok;		/* no problems */
	int nr_problems;
	struct rc_check_problem *problems;
};

#define RC_CHECK_MAX_NOTES 4

/* An extern of the object as libbpf collects it when it opens the object
 * (an undefined global or weak symbol of no type), and what check makes
 * of it on the target.  Since 1.2. */
struct rc_check_extern {
	char name[128];
	/* "kconfig" (.kconfig: libbpf fills it from the kernel's config),
	 * "ksym" (a typed __ksym variable: its BTF id in the kernel),
	 * "ksym_untyped" (its address from kallsyms, no type), "kfunc", or
	 * "none" (in no DATASEC libbpf knows: libbpf refuses the object) */
	const char *kind;
	bool weak;
	/* kfunc, ksym: 1 the target's BTF has it, 0 not (a weak one is then
	 * 0 at load, a strong one fails the load), -1 not known here (a
	 * minimized target; kconfig and ksym_untyped: never from BTF) */
	int in_target;
};

/* A map libbpf makes of the object when it opens it: a BTF-defined map of
 * .maps, a global data section's (.data, .rodata, .bss, .data.*,
 * .rodata.*), the .kconfig externs', a struct_ops variable's.  Since 1.2. */
struct rc_check_map {
	/* its name: the variable's; for a data map, its section's name (libbpf's
	 * "real name", which bpf_object__find_map_by_name takes; the kernel
	 * sees it prefixed with the object's name and cut to 15 bytes) */
	char name[128];
	char section[64];	/* .maps, .struct_ops, or the data section */
	uint32_t type;		/* enum bpf_map_type */
	/* its name in the target's enum bpf_map_type, as libbpf names it
	 * ("array", "lru_hash"): "" where the target has no such value */
	char type_name[48];
	uint32_t key_size, value_size, max_entries;
	uint32_t flags;		/* map_flags, as libbpf sets them at open */
};

/* The answer of rc_check_object: the caller's, rc_check_free frees it
 * and everything it points to. */
struct rc_check {
	int nr_progs;
	struct rc_check_prog *progs;
	/* What this target's BTF cannot decide (a minimized BTF has no
	 * enum bpf_func_id, no FUNCs): said, not guessed, not a problem. */
	int nr_undecided;
	char undecided[RC_CHECK_MAX_NOTES][200];
	/* The object's other programs, not loaded (rc_check_opts: not
	 * autoloaded, optional without their attach point, the losing side
	 * of pick_alternatives), in the object's order: name and section
	 * only (ok false, no problems).  Since 1.2. */
	int nr_not_loaded;
	struct rc_check_prog *not_loaded;
	/* The object's externs, in its symbol table's order.  Since 1.2. */
	int nr_externs;
	struct rc_check_extern *externs;
	/* The maps libbpf makes at open, in its order (BTF-defined, data,
	 * .kconfig, struct_ops).  Since 1.2. */
	int nr_maps;
	struct rc_check_map *maps;
	/* The object's own problems (libbpf refuses to open or load the
	 * whole object: externs, maps, open), also each program's: here
	 * even when no program is loaded.  Since 1.2. */
	int nr_problems;
	struct rc_check_problem *problems;
};

/* "relocation", "attach", "helper", "map", "program_type", "open",
 * "kfunc", "kconfig" (static strings). */
const char *rc_check_kind_str(enum rc_check_kind kind);

/*
 * Check every program of @obj (as opened, not relocated: the engine
 * decides, nothing is applied) against @target.  A poisoned relocation counts only
 * when it is reachable from the program's entry, known constants (the
 * relocated values among them) deciding conditional jumps as the
 * verifier's dead-code pruning does.  With @kc (a release and/or a
 * config), the .kconfig externs are baked with the target's values
 * (rc_object_bake_kconfig) and loads of them are known constants too.
 * Not decided: verifier complexity, stack depth, helper argument types.
 * @obj, @target and @kc are only read.  NULL with @err on failure.
 */
struct rc_check *rc_check_object(const struct rc_object *obj,
				 const struct rc_target *target,
				 const struct rc_kconfig *kc,
				 struct rc_error *err);
/*
 * What user space does when it loads the object (relocore run's options),
 * so that check answers for the object loaded that way.  Each list holds
 * program or map names; @attach_target holds "PROG=FUNC[,FUNC...]" (the
 * first FUNC the target has).  Programs not loaded are not in the result.
 * The lists are the caller's, read during the call only.
 */
/* Program and map names in these lists may be shell globs (fnmatch:
 * "tail_*"); a name matches itself.  Since 1.2. */
/* A value user space writes into a global variable of the object before
 * it loads (a skeleton's `obj->rodata->x = ...`, relocore run's --set):
 * the variable's @size bytes (its symbol's size).  Since 1.2. */
struct rc_check_set {
	const char *name;			/* the variable (its ELF symbol) */
	const void *data;
	size_t size;
};

struct rc_check_opts {
	size_t sz;				/* sizeof(struct rc_check_opts) */
	const char *const *no_autoload;		/* not loaded */
	size_t nr_no_autoload;
	const char *const *attach_target;	/* PROG=FUNC[,FUNC...] */
	size_t nr_attach_target;
	const char *const *optional;		/* loaded only where the target
						 * has their attach point */
	size_t nr_optional;
	const char *const *sized_maps;		/* max_entries set by user space */
	size_t nr_sized_maps;
	const char *const *user_attached;	/* attached by user space itself
						 * (uprobes, perf events) or not
						 * at all: no attach problems */
	size_t nr_user_attached;
	/* fentry/fexit programs whose functions kprobe/kretprobe programs
	 * trace too (tp_btf and raw_tp the same tracepoints): keep the BTF
	 * ones if every one of them can attach on the target, else the
	 * others, as `relocore run` and libbpf-tools decide */
	bool pick_alternatives;
	/* the target kernel exposes no BTF of its own (the target BTF stands
	 * for it, from an archive): what attaches through the kernel's BTF
	 * (fentry, fexit, fmod_ret, lsm, iter, tp_btf) cannot */
	bool no_kernel_btf;
	/* the values user space sets (above).  The object's read-only data
	 * (.rodata, .rodata.*: libbpf makes them maps the program cannot
	 * write and freezes them) holds constants the verifier prunes
	 * branches on, as on .kconfig values: check reads them from the
	 * object's bytes with these written over them.  Since 1.2. */
	const struct rc_check_set *sets;
	size_t nr_sets;
	/* programs user space attaches by tcx links (relocore run --tc): the
	 * target's enum bpf_attach_type must have BPF_TCX_INGRESS and
	 * BPF_TCX_EGRESS (Linux 6.6).  Since 1.2. */
	const char *const *tcx;
	size_t nr_tcx;
};

/* rc_check_object() with @opts (NULL: none). */
struct rc_check *rc_check_object_opts(const struct rc_object *obj,
				      const struct rc_target *target,
				      const struct rc_kconfig *kc,
				      const struct rc_check_opts *opts,
				      struct rc_error *err);
/* Every program ok? */
bool rc_check_ok(const struct rc_check *r);
/* Free @r (NULL: nothing). */
void rc_check_free(struct rc_check *r);

/*
 * ===== For the next SONAME (RC_VERSION_MAJOR 2) =======================
 *
 * Kept as they are because changing them breaks programs built against
 * librelocore.so.1:
 *   - one error style: rc_core_parse_spec and rc_core_patch should take a
 *     struct rc_error like the rest (today char *err, size_t errsz);
 *     rc_btf_libbpf and rc_btf_wrap should say why, not only errno;
 *   - engine internals public by size: struct rc_spec (RC_MAX_SPEC_LEN
 *     steps inline), struct rc_decision (two specs and reason[256]) and
 *     struct rc_result (patch_err[256]) are read by callers field by
 *     field; they should become opaque with accessors, the fixed buffers
 *     with them, as should rc_check_problem's detail[400] and
 *     rc_check's undecided notes;
 *   - struct rc_cands' growth fields (len, cap) should be private;
 *   - "check" names two things: rc_target_check and rc_btf_validate check
 *     BTF validity, rc_check_* loadability; the first should become
 *     rc_target_validate;
 *   - rc_file_read, rc_embedded_* belong to a file area of their own.
 */

#ifdef __cplusplus
}
#endif
#endif /* RELOCORE_H */
