/* SPDX-License-Identifier: MIT */
/*
 * check_internal.h - what the files of relocore check's offline analysis
 * (check/) share: the object as check reads it (sections, symbols, ELF
 * relocations), the walk's register state, struct ctx (one check of one
 * object against one target), and the functions one file gives the others.
 *
 * Not installed, not ABI.  Who may include it: check/check.c (the driver,
 * the ELF reading), check/walk.c (the instruction walk), check/attach.c
 * (attach points, context bounds), check/maps.c, check/externs.c, check/open.c,
 * check/target_btf.c (lookups in the target's BTF).  Nothing else: the
 * analysis is used through loader/relocore.h's rc_check_*.
 *
 * check/ sees the library through relocore.h and the declared private
 * interface (relocore_private.h: the object's ELF as the loader read it,
 * the target's modules, the BTF walk), never loader/internal.h.
 *
 * The shared functions are named chk_*: librelocore.a holds them beside
 * a user's own symbols (librelocore.so does not export them).
 */
#ifndef RELOCORE_CHECK_INTERNAL_H
#define RELOCORE_CHECK_INTERNAL_H

#include <elf.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "relocore_private.h"
#include "progtype.h"

/* The walk's registers (r0-r10), and the tags of rstate.ptr[] that are no
 * section index (a section's index is below them: see chk_walk). */
#define NREGS 11
#define CTX_PTR 0xffff		/* rstate.ptr[]: the program's context */
#define EXT_PTR 0xfffe		/* rstate.ptr[]: an extern variable */
#define SCALAR_ARG 0xfffd	/* rstate.ptr[]: a typed context's scalar
				 * argument (never a pointer to read through) */

/* What check keeps of one relocation's result: the engine's struct
 * rc_result is 3 KB, and a probe has tens of thousands. */
struct crelo {
	enum rc_outcome outcome;
	bool refused;		/* RC_ERROR, or an instruction it does not fit */
	uint32_t insn_idx;
	uint64_t new_val;
	const char *section;	/* the object's */
	char *what;		/* not RC_OK, or refused: "KIND ACCESS: REASON" */
};

struct sec {
	const char *name;
	bool exec;
	bool konst;			/* read-only data whose bytes are the values
					 * the kernel sees: .rodata, .rodata.*
					 * (.rodata.kconfig once baked), frozen
					 * by libbpf */
	const unsigned char *data;	/* PROGBITS bytes (konst: with the
					 * caller's rc_check_opts.sets) */
	unsigned char *data_copy;	/* data, when a set wrote over it */
	size_t data_size;
	size_t off, size;		/* instructions: file offset, bytes */
	const struct bpf_insn *insns;	/* original (unrelocated) */
	struct bpf_insn *copy;		/* insns, when the file's were not
					 * 8-byte aligned in memory */
	size_t n;
	/* ELF relocations of this section: insn index -> symbol */
	size_t nr_rel;
	struct rel { size_t idx; size_t sym; } *rel;
	const struct crelo **res;	/* per insn: its CO-RE result */
};

struct sym {
	const char *name;
	size_t shndx;
	uint64_t value, size;
	int type, bind;
};

struct ctx {
	const struct rc_object *obj;
	const struct rc_btf *lbtf;		/* object BTF (may be NULL) */
	const struct rc_target *tg;
	const struct rc_btf *vml;
	size_t nsecs;
	struct sec *secs;
	size_t nsyms;
	struct sym *syms;
	/* target enum values */
	uint8_t *helpers;		/* helpers[id]: known */
	int64_t nr_helpers;
	const char *helper_enum_what;
	/* walk state (walk.c): per register, a known scalar, or (ptr[r] !=
	 * 0) a known offset into the constant section ptr[r] */
	struct rstate {
		uint16_t known;
		uint64_t v[NREGS];
		uint16_t ptr[NREGS];
		/* registers holding a value fixed at load time that check
		 * does not know (read through an extern: .kconfig, __ksym):
		 * the verifier prunes on it, so what a branch on it leads to
		 * is "uncertain" here */
		uint16_t lconst;
		bool uncertain;
	} *pool;			/* the states kept, at join points */
	size_t npool, cappool;
	/* per section, per instruction: WALK_HEAD if paths may join there
	 * (a jump's target, a conditional jump's fall-through, a function's
	 * entry), and the index in pool + 1 of its state (0: none yet) */
	uint32_t **slot;
	/* the state the step being made hands to the next instruction in
	 * sequence (cur_sec:ft) when no path can join there: walked on at
	 * once, not kept */
	struct rstate next;
	bool has_next;
	size_t cur_sec, ft;
	struct crelo *crelos;		/* every relocation, in .BTF.ext order */
	size_t ncrelos, nrefused, last_sec;
	struct work { size_t sec, idx; } *wl;
	size_t nwl, capwl;
	/* the target lookups made (chk_target_*), found or not: each program
	 * asks for the same few names, and a lookup scans the whole BTF */
	struct tlookups {
		size_t n, cap;
		struct tlookup {
			char *name;
			int kind;
			int mod;		/* -1: vmlinux */
			int id;			/* 0: not found */
		} *v;
	} *tl;
	struct work *seen;		/* the slots the last walk set */
	size_t nseen, capseen;
	struct rc_check_prog *prog;	/* being checked */
	/* what fails the whole object (externs, maps, open), found once and
	 * given to every program (check.c object_problems) */
	struct rc_check_prog objp;
	bool objp_done;
	size_t nkept;			/* list_not_loaded: out->progs passed */
	/* the program's reads of its context (r1 at entry) on certain paths:
	 * the end of the farthest one and its instruction */
	int64_t ctx_hi;
	size_t ctx_hi_sec, ctx_hi_idx;
	/* a BTF-typed context (fentry/fexit/tp_btf): which of its u64 slots
	 * hold a scalar on the target, and the first read through one */
	uint32_t scalar_args;
	bool typed_ctx, scalar_deref;
	size_t scalar_idx;
	int scalar_arg;
	bool no_funcs;			/* target has no FUNC: attach undecided */
	const struct rc_check_opts *opts;	/* never NULL */
	/* the target's config says it has no BPF trampolines on ftrace
	 * (no CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS: arm64 before 6.4) */
	bool no_trampolines;
	/* ... no BPF JIT (a whole config without CONFIG_BPF_JIT=y: Debian's
	 * s390x, built for z10): programs run in the interpreter, which calls
	 * no kernel function and has no trampoline */
	bool no_jit;
	const char *config;		/* the target's .config (--kconfig), or NULL */
	size_t config_len;
	signed char config_memo[16];	/* attach.c: per needs_config row, 0 not
					 * known yet, 1 the config lacks it, 2 not */
	/* the target's kallsyms lists variables (CONFIG_KALLSYMS_ALL): 1 it
	 * does, 0 it does not (the config says so), -1 no config given */
	int kallsyms_vars;
	/* why the .kconfig externs could not be given their values (the
	 * target's config was given): libbpf refuses the object the same */
	char kconfig_err[200];
};

/* What an extern symbol is, by the object's BTF (chk_ext_kind). */
enum ext_kind { EXT_OTHER, EXT_KCONFIG, EXT_KSYM_TYPED, EXT_KSYM_UNTYPED, EXT_KFUNC };

/* ---- check.c: the problems of a program ---- */

/* Add a problem of @kind to @p (which is then not ok); @sec_insn >= 0: the
 * instruction it is at, one problem of a kind per instruction.  0 or
 * -ENOMEM. */
int chk_problem(struct rc_check_prog *p, enum rc_check_kind kind,
		bool needs, int sec_insn, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Is @name one of the @n strings of @list? */
bool chk_listed(const char *const *list, size_t n, const char *name);

/* ---- target_btf.c: what the target's BTF has (vmlinux, then modules) ---- */

/* Has the target @name of BTF @kind (the module it is in: *@mod, NULL
 * for vmlinux; @mod may be NULL)?  Its type, and the BTF it is in: */
bool chk_target_has(const struct ctx *c, const char *name, int kind, const char **mod);
void chk_target_lookups_free(struct tlookups *tl);
const struct btf_type *chk_target_type(const struct ctx *c, const char *name, int kind,
				       const struct rc_btf **in);
/* The parameters of FUNC @name, or of the FUNC_PROTO TYPEDEF @name points
 * to (btf_trace_X); variable arguments not counted.  -1: none such. */
int chk_target_nr_params(const struct ctx *c, const char *name, int kind);
/* vmlinux's enum @ename, and its members by name or by value (a value
 * of a *_UNSPEC or __*_MAX_* member does not count). */
const struct btf_type *chk_target_enum(const struct ctx *c, const char *ename);
bool chk_enum_has_name(const struct ctx *c, const struct btf_type *t, const char *val);
bool chk_enum_has_value(const struct ctx *c, const struct btf_type *t, int64_t v);
const char *chk_enum_name(const struct ctx *c, const struct btf_type *t, int64_t v);
/* c->helpers, c->nr_helpers from enum bpf_func_id.  0 or -ENOMEM. */
int chk_load_helpers(struct ctx *c);

/* ---- externs.c: kfuncs, __ksym and .kconfig externs ---- */

/* What the extern @name is, by the object's BTF; is a kfunc or typed
 * __ksym on the target (1, 0, -1: cannot say, no FUNC in its BTF);
 * the externs that fail the whole object, as problems of @p. */
enum ext_kind chk_ext_kind(const struct ctx *c, const char *name);
enum ext_kind chk_ext_resolve(const struct ctx *c, const char *name, char *why, size_t sz);
int chk_ext_present(const struct ctx *c, const struct sym *sym, enum ext_kind k);
int chk_extern_problems(struct ctx *c, struct rc_check_prog *p);
/* The externs of @orig (the object before any .kconfig baking; @c may
 * hold the baked copy) into @out->externs, decided against @c's target.
 * 0 or a negative errno. */
int chk_list_externs(struct ctx *c, const struct rc_object *orig, struct rc_check *out);

/* ---- maps.c: the object's maps ---- */

/* Each map's type and size, a legacy "maps" section: problems of @p. */
int chk_map_problems(struct ctx *c, struct rc_check_prog *p);
/* The maps libbpf makes when it opens @obj (rc_check.maps). */
int chk_list_maps(const struct rc_object *obj, struct rc_check *out);

/* ---- open.c: what else libbpf refuses at open ---- */

/* Static programs, programs past their section, bad ELF relocations of
 * programs, DATASECs libbpf cannot fix up: problems of @p. */
int chk_open_problems(struct ctx *c, struct rc_check_prog *p);

/* ---- walk.c: the instructions reachable from a program's entry ---- */

/* The walk's per-instruction slots, and where paths may join (once per
 * check, after the ELF is read).  0 or -ENOMEM. */
int chk_walk_init(struct ctx *c);
/* Walk the program at @sec:@entry; its problems into c->prog, its context
 * reads into c->ctx_hi and c->scalar_*.  0 or -ENOMEM. */
int chk_walk(struct ctx *c, size_t sec, size_t entry);

/* ---- attach.c: the attach point, and the context it gives ---- */

/* Section @secname's program type and attach point on the target; before
 * the walk, the context's scalar slots (c->typed_ctx, c->scalar_args);
 * after it, its reads against the context's size.  Problems: c->prog. */
int chk_attach(struct ctx *c, const char *secname);
void chk_ctx_types(struct ctx *c, const char *asec);
int chk_ctx_bound(struct ctx *c, const char *asec);

#endif
