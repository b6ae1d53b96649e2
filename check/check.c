// SPDX-License-Identifier: MIT
/*
 * check.c - will this object load and attach on that kernel, decided
 * offline from the object and the target's BTF (relocore check).
 *
 * Per program (a FUNC symbol of an executable section other than .text):
 *   relocation    the object is relocated with the engine on a private
 *                 copy; a poisoned instruction is a problem only when it is
 *                 reachable from the program's entry.  Reachability walks
 *                 the instructions propagating known constants (immediates,
 *                 ld_imm64 values, relocated EXISTS/enum/size results)
 *                 through ALU ops and conditional jumps, so a branch whose
 *                 outcome is decided by a constant takes only that edge,
 *                 as the verifier prunes dead code; anything unknown takes
 *                 both.  Calls to BPF subprograms (and callbacks taken by
 *                 address) are followed, their entries with nothing known.
 *                 A refused relocation fails the whole object (libbpf).
 *   helper        every reachable helper call's id is a value of the
 *                 target's enum bpf_func_id.
 *   attach        the section's attach target exists in the target BTF.
 *   program_type  the section names a program type libbpf knows and the
 *                 target's enum bpf_prog_type (and bpf_attach_type) has it.
 *   map           each .maps map's type is in the target's enum
 *                 bpf_map_type; max_entries 0 "needs" user space to size it.
 *                 Maps are created for the whole object, so a map problem is
 *                 every program's.
 *   open          what libbpf refuses at open (a legacy "maps" section).
 * Not decided (said so, never guessed): verifier complexity, stack depth,
 * the types of helper arguments.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "progtype.h"

#define POISON_IMM 0xbad2310
#define NREGS 11
#define CTX_PTR 0xffff		/* rstate.ptr[]: the program's context */
#define EXT_PTR 0xfffe		/* rstate.ptr[]: an extern variable */
#define SCALAR_ARG 0xfffd	/* rstate.ptr[]: a typed context's scalar
				 * argument (never a pointer to read through) */

struct sec {
	const char *name;
	bool exec;
	bool konst;			/* read-only data whose bytes are the values
					 * the kernel sees (.rodata.kconfig, baked) */
	const unsigned char *data;	/* PROGBITS bytes */
	size_t data_size;
	size_t off, size;		/* instructions: file offset, bytes */
	const struct bpf_insn *insns;	/* original (unrelocated) */
	struct bpf_insn *copy;		/* insns, when the file's were not
					 * 8-byte aligned in memory */
	size_t n;
	/* ELF relocations of this section: insn index -> symbol */
	size_t nr_rel;
	struct rel { size_t idx; size_t sym; } *rel;
	const struct rc_result **res;	/* per insn: its CO-RE result */
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
	/* walk state */
	/* per register: a known scalar, or (ptr[r] != 0) a known offset
	 * into the constant section ptr[r] */
	struct rstate {
		bool seen;
		uint16_t known;
		uint64_t v[NREGS];
		uint16_t ptr[NREGS];
		/* registers holding a value fixed at load time that check
		 * does not know (read through an extern: .kconfig, __ksym):
		 * the verifier prunes on it, so what a branch on it leads to
		 * is "uncertain" here */
		uint16_t lconst;
		bool uncertain;
	} **st;
	struct work { size_t sec, idx; } *wl;
	size_t nwl, capwl;
	struct rc_check_prog *prog;	/* being checked */
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
	/* why the .kconfig externs could not be given their values (the
	 * target's config was given): libbpf refuses the object the same */
	char kconfig_err[200];
};

static bool listed(const char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] && !strcmp(list[i], name))
			return true;
	return false;
}

static const char *const kind_names[] = {
	[RC_CHECK_RELOCATION] = "relocation",
	[RC_CHECK_ATTACH] = "attach",
	[RC_CHECK_HELPER] = "helper",
	[RC_CHECK_MAP] = "map",
	[RC_CHECK_PROGRAM_TYPE] = "program_type",
	[RC_CHECK_OPEN] = "open",
	[RC_CHECK_KFUNC] = "kfunc",
	[RC_CHECK_KCONFIG] = "kconfig",
};

const char *rc_check_kind_str(enum rc_check_kind k)
{
	return (unsigned)k < sizeof(kind_names) / sizeof(*kind_names) ?
	       kind_names[k] : "unknown";
}

static int add_problem(struct rc_check_prog *p, enum rc_check_kind kind,
		       bool needs, int sec_insn, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int add_problem(struct rc_check_prog *p, enum rc_check_kind kind,
		       bool needs, int sec_insn, const char *fmt, ...)
{
	struct rc_check_problem *q;
	va_list ap;
	int i;

	for (i = 0; sec_insn >= 0 && i < p->nr_problems; i++)
		if (p->problems[i].kind == kind && p->problems[i].insn == sec_insn)
			return 0;	/* one problem per instruction */
	q = realloc(p->problems, sizeof(*q) * (p->nr_problems + 1));
	if (!q)
		return -ENOMEM;
	p->problems = q;
	q += p->nr_problems++;
	memset(q, 0, sizeof(*q));
	q->kind = kind;
	q->needs = needs;
	q->insn = sec_insn;
	va_start(ap, fmt);
	vsnprintf(q->detail, sizeof(q->detail), fmt, ap);
	va_end(ap);
	p->ok = false;
	return 0;
}

/* ---- target BTF lookups ---- */

static bool find_in(const struct rc_btf *btf, const char *name, int kind)
{
	return btf && rc_btf_find_by_name_kind(btf, name, kind) > 0;
}

/* @name of @kind in vmlinux or any module BTF; the module's name in *@mod. */
static bool target_has(const struct ctx *c, const char *name, int kind,
		       const char **mod)
{
	int i;

	if (mod)
		*mod = NULL;
	if (find_in(c->vml, name, kind))
		return true;
	for (i = 0; i < c->tg->nr_mods; i++)
		if (find_in(c->tg->mods[i].btf, name, kind)) {
			if (mod)
				*mod = c->tg->mods[i].name;
			return true;
		}
	return false;
}

/* @name of @kind in vmlinux or a module BTF: its type and BTF, or NULL */
static const struct btf_type *target_type(const struct ctx *c, const char *name, int kind,
					  const struct rc_btf **in)
{
	int i, id;

	if (c->vml && (id = rc_btf_find_by_name_kind(c->vml, name, kind)) > 0) {
		*in = c->vml;
		return rc_type(c->vml, id);
	}
	for (i = 0; i < c->tg->nr_mods; i++)
		if (c->tg->mods[i].btf &&
		    (id = rc_btf_find_by_name_kind(c->tg->mods[i].btf, name, kind)) > 0) {
			*in = c->tg->mods[i].btf;
			return rc_type(c->tg->mods[i].btf, id);
		}
	return NULL;
}

/* The number of parameters of FUNC (or of the FUNC_PROTO a typedef points
 * to) @name of @kind in the target, or -1 */
static int target_nr_params(const struct ctx *c, const char *name, int kind)
{
	const struct rc_btf *b;
	const struct btf_type *t = target_type(c, name, kind, &b);

	if (t && kind == BTF_KIND_TYPEDEF) {	/* btf_trace_X: PTR -> FUNC_PROTO */
		t = rc_type(b, t->type);
		if (t && btf_is_ptr(t))
			t = rc_type(b, t->type);
	} else if (t) {
		t = rc_type(b, t->type);
	}
	if (!t || !btf_is_func_proto(t))
		return -1;
	/* a trailing void parameter: variable arguments, not one */
	if (btf_vlen(t) && !btf_params(t)[btf_vlen(t) - 1].type)
		return btf_vlen(t) - 1;
	return btf_vlen(t);
}

enum ext_kind { EXT_OTHER, EXT_KCONFIG, EXT_KSYM_TYPED, EXT_KSYM_UNTYPED, EXT_KFUNC };

/* What the extern @name is, by the object's BTF: a VAR of DATASEC .kconfig
 * or .ksyms (typed: its type is not void), or an extern FUNC (a kfunc). */
static enum ext_kind ext_kind(const struct ctx *c, const char *name)
{
	const struct rc_btf *b = c->lbtf;
	uint32_t i, n = b ? rc_btf_type_cnt(b) : 0;

	for (i = 1; i < n; i++) {
		const struct btf_type *t = rc_type(b, i);
		const struct btf_var_secinfo *vs;
		const char *sn;
		int k;

		if (btf_is_func(t) && btf_vlen(t) == BTF_FUNC_EXTERN	/* a FUNC's vlen is its linkage */ &&
		    !strcmp(rc_name(b, t->name_off), name))
			return EXT_KFUNC;
		if (!btf_is_datasec(t))
			continue;
		sn = rc_name(b, t->name_off);
		if (strcmp(sn, ".kconfig") && strcmp(sn, ".ksyms"))
			continue;
		vs = btf_var_secinfos(t);
		for (k = 0; k < btf_vlen(t); k++, vs++) {
			const struct btf_type *v = rc_type(b, vs->type);
			const struct btf_type *vt;

			if (!v || !btf_is_var(v) || strcmp(rc_name(b, v->name_off), name))
				continue;
			if (sn[1] == 'k' && sn[2] == 'c')
				return EXT_KCONFIG;
			vt = rc_skip_mods_typedefs(b, v->type, NULL);
			return vt && btf_kind(vt) != BTF_KIND_UNKN ? EXT_KSYM_TYPED : EXT_KSYM_UNTYPED;
		}
	}
	return EXT_OTHER;
}

/* Is a kfunc or typed __ksym @sym on the target?  1 yes, 0 no, -1 cannot
 * say (the target has no FUNCs: minimized) */
static int ext_present(const struct ctx *c, const struct sym *sym, enum ext_kind k)
{
	if (k == EXT_KFUNC)
		return c->no_funcs ? -1 : target_has(c, sym->name, BTF_KIND_FUNC, NULL);
	if (k == EXT_KSYM_TYPED)
		return c->no_funcs ? -1 : target_has(c, sym->name, BTF_KIND_VAR, NULL);
	return -1;
}

static const struct btf_type *target_enum(const struct ctx *c, const char *ename)
{
	int id = c->vml ? rc_btf_find_by_name_kind(c->vml, ename, BTF_KIND_ENUM) : -1;

	return id > 0 ? rc_type(c->vml, id) : NULL;
}

/* A member of enum @t named @val, or (@val NULL) of value @v that is no
 * *_UNSPEC / __*_MAX_* bookend */
static bool enum_has(const struct ctx *c, const struct btf_type *t,
		     const char *val, int64_t v)
{
	const struct btf_enum *m;
	int i;

	if (!t)
		return false;
	m = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = rc_name(c->vml, m->name_off);

		if (!n)
			continue;
		if (val ? !strcmp(n, val)
			: m->val == v && strncmp(n, "__", 2) && !strstr(n, "_UNSPEC"))
			return true;
	}
	return false;
}

/* Is @val a name of enum @t? */
static bool enum_has_name(const struct ctx *c, const struct btf_type *t, const char *val)
{
	return enum_has(c, t, val, 0);
}

/* Is @v a value of @t other than its *_UNSPEC / __*_MAX_* bookends? */
static bool enum_has_value(const struct ctx *c, const struct btf_type *t, int64_t v)
{
	return enum_has(c, t, NULL, v);
}

static int load_helpers(struct ctx *c)
{
	const struct btf_type *t = target_enum(c, "bpf_func_id");
	const struct btf_enum *m;
	int i;

	if (!t)
		return 0;
	m = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++)
		if (m[i].val >= 0 && m[i].val < 1 << 16 && m[i].val + 1 > c->nr_helpers)
			c->nr_helpers = m[i].val + 1;
	c->helpers = calloc(c->nr_helpers ? c->nr_helpers : 1, 1);
	if (!c->helpers)
		return -ENOMEM;
	for (i = 0; i < btf_vlen(t); i++) {
		const char *n = rc_name(c->vml, m[i].name_off);

		if (m[i].val > 0 && m[i].val < c->nr_helpers && n &&
		    strncmp(n, "__", 2))
			c->helpers[m[i].val] = 1;
	}
	return 0;
}

/* ---- the ELF: sections, symbols, ELF relocations ---- */

static int read_elf(struct ctx *c, struct rc_error *err)
{
	size_t size, nsyms, symtab, i, k;
	const unsigned char *buf = rc_object_bytes(c->obj, &size);
	const struct rc_elf_sec *es = rc_object_sections(c->obj, &c->nsecs);
	const struct rc_elf_sym *es_syms = rc_object_symbols(c->obj, &nsyms, &symtab);

	c->secs = calloc(c->nsecs ? c->nsecs : 1, sizeof(*c->secs));
	if (!c->secs)
		goto nomem;
	/* sections (the object's view, read and bounds-checked at open) */
	for (k = 1; k < c->nsecs; k++) {
		struct sec *s = &c->secs[k];
		const struct rc_elf_sec *sh = &es[k];

		s->name = sh->name;
		if (sh->type == SHT_PROGBITS) {
			s->data = buf + sh->off;
			s->data_size = sh->size;
			s->konst = !strcmp(s->name, ".rodata.kconfig") &&
				   !(sh->flags & SHF_WRITE);
		}
		if (sh->type == SHT_PROGBITS && (sh->flags & SHF_EXECINSTR)) {
			s->exec = true;
			s->off = sh->off;
			s->size = sh->size;
			s->insns = (const void *)(buf + sh->off);
			s->n = sh->size / sizeof(struct bpf_insn);
			if ((uintptr_t)s->insns % 8 && s->n) {	/* read them aligned */
				s->copy = malloc(s->n * sizeof(*s->copy));
				if (!s->copy)
					goto nomem;
				memcpy(s->copy, buf + sh->off, s->n * sizeof(*s->copy));
				s->insns = s->copy;
			}
		}
	}
	/* symbols: the first symbol table's (an unreadable one: "" and 0s) */
	c->syms = calloc(nsyms ? nsyms : 1, sizeof(*c->syms));
	if (!c->syms)
		goto nomem;
	for (i = 0; i < nsyms; i++)
		c->syms[i] = (struct sym){ es_syms[i].name, es_syms[i].shndx,
			es_syms[i].value, es_syms[i].size, es_syms[i].type, es_syms[i].bind };
	c->nsyms = nsyms;
	/* ELF relocations of the executable sections */
	for (k = 1; k < c->nsecs; k++) {
		const struct rc_elf_rel *r;
		struct sec *s;
		size_t n;

		if (es[k].type != SHT_REL || es[k].info >= c->nsecs || !c->secs[es[k].info].exec)
			continue;
		s = &c->secs[es[k].info];
		r = rc_object_rels(c->obj, k, &n);
		{	/* several REL sections may name one section: appended */
			struct rel *more = realloc(s->rel, (s->nr_rel + n + 1) * sizeof(*s->rel));

			if (!more)
				goto nomem;
			s->rel = more;
		}
		for (i = 0; i < n; i++)
			s->rel[s->nr_rel++] = (struct rel){ r[i].off / 8, r[i].sym };
	}
	return 0;
nomem:
	rc_fmt(err->msg, sizeof(err->msg), "out of memory");
	return -ENOMEM;
}

static const struct sym *rel_at(const struct ctx *c, const struct sec *s,
				size_t idx)
{
	size_t i;

	for (i = 0; i < s->nr_rel; i++)
		if (s->rel[i].idx == idx)
			return s->rel[i].sym < c->nsyms ? &c->syms[s->rel[i].sym] : NULL;
	return NULL;
}

static size_t sec_by_name(const struct ctx *c, const char *name)
{
	size_t i;

	for (i = 1; i < c->nsecs; i++)
		if (c->secs[i].exec && !strcmp(c->secs[i].name, name))
			return i;
	return 0;
}

/* ---- reachability with constants ---- */

static int push(struct ctx *c, size_t sec, size_t idx, const struct rstate *in)
{
	struct rstate *s;
	uint16_t old;
	int r;

	if (sec >= c->nsecs || !c->secs[sec].exec || idx >= c->secs[sec].n)
		return 0;	/* out of the program: the verifier's concern */
	s = &c->st[sec][idx];
	if (!s->seen) {
		*s = *in;
		s->seen = true;
	} else {
		bool was = s->uncertain;
		uint16_t lc = s->lconst;

		old = s->known;
		for (r = 0; r < NREGS; r++)
			if ((s->known & (1u << r)) &&
			    (!(in->known & (1u << r)) || in->v[r] != s->v[r] ||
			     in->ptr[r] != s->ptr[r]))
				s->known &= ~(1u << r);
		s->lconst |= in->lconst;
		s->uncertain |= in->uncertain;
		if (s->known == old && s->lconst == lc && s->uncertain == was)
			return 0;
	}
	if (c->nwl == c->capwl) {
		size_t cap = c->capwl ? c->capwl * 2 : 64;
		struct work *w = realloc(c->wl, cap * sizeof(*w));

		if (!w)
			return -ENOMEM;
		c->wl = w;
		c->capwl = cap;
	}
	c->wl[c->nwl++] = (struct work){ sec, idx };
	return 0;
}

static int push_entry(struct ctx *c, size_t sec, size_t idx)
{
	struct rstate none = { 0 };

	return push(c, sec, idx, &none);
}

/* A known scalar (not a pointer). */
static bool known(const struct rstate *s, int r)
{
	return r < NREGS && (s->known & (1u << r)) && !s->ptr[r];
}

static void set(struct rstate *s, int r, uint64_t v)
{
	if (r >= NREGS)
		return;
	s->known |= 1u << r;
	s->v[r] = v;
	s->ptr[r] = 0;
	s->lconst &= ~(1u << r);
}

static void set_ptr(struct rstate *s, int r, uint16_t sec, uint64_t off)
{
	if (r >= NREGS)
		return;
	s->known |= 1u << r;
	s->v[r] = off;
	s->ptr[r] = sec;
	s->lconst &= ~(1u << r);
}

static bool is_ptr(const struct rstate *s, int r)
{
	return r < NREGS && (s->known & (1u << r)) && s->ptr[r];
}

static void unset(struct rstate *s, int r)
{
	if (r < NREGS) {
		s->known &= ~(1u << r);
		s->lconst &= ~(1u << r);
	}
}

/* @r holds an unknown load-time constant */
static void set_lconst(struct rstate *s, int r)
{
	unset(s, r);
	if (r < NREGS)
		s->lconst |= 1u << r;
}

static bool is_lconst(const struct rstate *s, int r)
{
	return r < NREGS && (s->lconst & (1u << r));
}

/* The instruction's 32-bit immediate as relocated. */
static int32_t imm_of(const struct bpf_insn *in, const struct rc_result *r)
{
	return r && r->d.outcome == RC_OK ? (int32_t)r->d.new_val : in->imm;
}

static bool alu(uint8_t op, uint64_t a, uint64_t b, bool is64, uint64_t *out)
{
	if (!is64) {
		a = (uint32_t)a;
		b = (uint32_t)b;
	}
	switch (op) {
	case BPF_ADD: a += b; break;
	case BPF_SUB: a -= b; break;
	case BPF_MUL: a *= b; break;
	case BPF_OR: a |= b; break;
	case BPF_AND: a &= b; break;
	case BPF_XOR: a ^= b; break;
	case BPF_NEG: a = -a; break;
	case BPF_LSH: a = is64 ? a << (b & 63) : (uint32_t)(a << (b & 31)); break;
	case BPF_RSH: a = is64 ? a >> (b & 63) : (uint32_t)a >> (b & 31); break;
	case BPF_ARSH:
		a = is64 ? (uint64_t)((int64_t)a >> (b & 63)) :
			   (uint32_t)((int32_t)a >> (b & 31));
		break;
	case BPF_DIV:
		if (!b)
			return false;
		a /= b;
		break;
	case BPF_MOD:
		if (!b)
			return false;
		a %= b;
		break;
	default:
		return false;
	}
	*out = is64 ? a : (uint32_t)a;
	return true;
}

/* Outcome of a conditional jump on known values: 1 taken, 0 not, -1 unknown op. */
static int cond(uint8_t op, uint64_t a, uint64_t b, bool is64)
{
	int64_t sa = (int64_t)a, sb = (int64_t)b;

	if (!is64) {
		a = (uint32_t)a;
		b = (uint32_t)b;
		sa = (int32_t)a;
		sb = (int32_t)b;
	}
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSET: return (a & b) != 0;
	case BPF_JSGT: return sa > sb;
	case BPF_JSGE: return sa >= sb;
	case BPF_JSLT: return sa < sb;
	case BPF_JSLE: return sa <= sb;
	}
	return -1;
}

static void clobber_call(struct rstate *s)
{
	int r;

	for (r = 0; r <= 5; r++)
		unset(s, r);
}

/* Where a pseudo call (or a callback's ld_imm64) at @sec:@idx goes. */
static bool call_target(const struct ctx *c, size_t sec, size_t idx, bool call,
			size_t *tsec, size_t *tidx)
{
	const struct sec *s = &c->secs[sec];
	const struct sym *sym = rel_at(c, s, idx);
	int32_t imm = s->insns[idx].imm;

	if (sym) {
		if (sym->shndx >= c->nsecs || !c->secs[sym->shndx].exec)
			return false;
		*tsec = sym->shndx;
		/* libbpf: call: sym_off/8 + imm + 1; address: (sym_off + imm)/8 */
		*tidx = call ? sym->value / 8 + imm + 1 : (sym->value + imm) / 8;
		return true;
	}
	if (!call)
		return false;
	*tsec = sec;
	*tidx = idx + imm + 1;
	return true;
}

static int relo_problem(struct ctx *c, size_t sec, size_t idx,
			const struct rc_result *r)
{
	char acc[200];

	rc_spec_format(&r->d.local, acc, sizeof(acc));
	return add_problem(c->prog, RC_CHECK_RELOCATION, false, (int)idx,
			   "section %s insn #%zu %s %s: %s; poisoned and reachable from the entry, so the verifier rejects it",
			   c->secs[sec].name, idx, rc_relo_kind_str(r->relo.kind),
			   acc[0] ? acc : r->access, r->d.reason);
}

static int helper_problem(struct ctx *c, size_t sec, size_t idx, int32_t id)
{
	return add_problem(c->prog, RC_CHECK_HELPER, false, (int)idx,
			   "section %s insn #%zu: helper #%d is not in this kernel's enum bpf_func_id",
			   c->secs[sec].name, idx, id);
}

/* Step from @sec:@idx in state @s (a copy). */
static int step(struct ctx *c, size_t sec, size_t idx, struct rstate s)
{
	const struct sec *S = &c->secs[sec];
	const struct bpf_insn *in = &S->insns[idx];
	const struct rc_result *r = S->res ? S->res[idx] : NULL;
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	int dst = in->dst_reg, src = in->src_reg, ret;
	size_t ts, ti;
	uint64_t v;

	if (r && r->d.outcome == RC_POISON)
		return relo_problem(c, sec, idx, r);
	switch (cls) {
	case BPF_LD:
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			const struct sym *sym = rel_at(c, S, idx);

			if (idx + 1 >= S->n)
				return 0;
			unset(&s, dst);
			if (sym && call_target(c, sec, idx, false, &ts, &ti)) {
				ret = push_entry(c, ts, ti);	/* a callback */
				if (ret)
					return ret;
			} else if (sym && !src && sym->shndx < c->nsecs &&
				   sym->shndx <= UINT16_MAX &&
				   c->secs[sym->shndx].konst) {
				/* address in a frozen map: libbpf adds the
				 * symbol's offset to the immediate */
				set_ptr(&s, dst, sym->shndx,
					sym->value + (uint32_t)in->imm);
			} else if (sym && !src && sym->shndx == SHN_UNDEF) {
				/* an extern variable (.kconfig, __ksym): its
				 * value is fixed when the object loads */
				set_ptr(&s, dst, EXT_PTR, 0);
			} else if (!sym && !src) {
				v = r && r->d.outcome == RC_OK ? r->d.new_val :
				    ((uint64_t)(uint32_t)in[1].imm << 32) | (uint32_t)in->imm;
				set(&s, dst, v);
			}
			return push(c, sec, idx + 2, &s);
		}
		clobber_call(&s);	/* ld_abs/ld_ind: r0 result, r1-r5 clobbered */
		return push(c, sec, idx + 1, &s);
	case BPF_LDX: {
		static const int sizes[] = { [BPF_W >> 3] = 4, [BPF_H >> 3] = 2,
					     [BPF_B >> 3] = 1, [BPF_DW >> 3] = 8 };
		int sz = sizes[BPF_SIZE(in->code) >> 3];
		const struct sec *d = is_ptr(&s, src) && s.ptr[src] < c->nsecs ?
				      &c->secs[s.ptr[src]] : NULL;
		int64_t off = d ? (int64_t)s.v[src] + in->off : -1;

		if (is_ptr(&s, src) && s.ptr[src] == CTX_PTR) {
			/* the offset as relocated (a field's byte offset) */
			int16_t ioff = r && r->d.outcome == RC_OK ? (int16_t)r->d.new_val : in->off;
			int64_t at = (int64_t)s.v[src] + ioff, end = at + sz;

			if (!s.uncertain && BPF_MODE(in->code) == BPF_MEM && end > c->ctx_hi) {
				c->ctx_hi = end;
				c->ctx_hi_sec = sec;
				c->ctx_hi_idx = idx;
			}
			unset(&s, dst);
			if (c->typed_ctx && sz == 8 && at >= 0 && at % 8 == 0 && at / 8 < 32 &&
			    (c->scalar_args & (1u << (at / 8))))
				set_ptr(&s, dst, SCALAR_ARG, at / 8);
			return push(c, sec, idx + 1, &s);
		}
		if (is_ptr(&s, src) && s.ptr[src] == SCALAR_ARG) {
			if (!s.uncertain && !c->scalar_deref) {
				c->scalar_deref = true;
				c->scalar_idx = idx;
				c->scalar_arg = (int)s.v[src];
			}
			unset(&s, dst);
			return push(c, sec, idx + 1, &s);
		}
		if (is_ptr(&s, src) && s.ptr[src] == EXT_PTR) {
			set_lconst(&s, dst);
			return push(c, sec, idx + 1, &s);
		}

		/* a load from a frozen read-only map: its value is known */
		if (d && BPF_MODE(in->code) == BPF_MEM && off >= 0 &&
		    (uint64_t)off + sz <= d->data_size) {
			uint64_t val = 0;

			memcpy(&val, d->data + off, sz);	/* little-endian */
			set(&s, dst, val);
		} else {
			unset(&s, dst);
		}
		return push(c, sec, idx + 1, &s);
	}
	case BPF_ST:
		return push(c, sec, idx + 1, &s);
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			unset(&s, src);
			unset(&s, 0);
		}
		return push(c, sec, idx + 1, &s);
	case BPF_ALU:
	case BPF_ALU64: {
		bool is64 = cls == BPF_ALU64;
		bool have_b = BPF_SRC(in->code) == BPF_K || known(&s, src);
		uint64_t b = BPF_SRC(in->code) == BPF_K ?
			     (is64 ? (uint64_t)(int64_t)imm_of(in, r) : (uint32_t)imm_of(in, r)) :
			     (known(&s, src) ? s.v[src] : 0);

		if (op == BPF_MOV && !in->off && is64 && BPF_SRC(in->code) == BPF_X &&
		    is_ptr(&s, src))
			set_ptr(&s, dst, s.ptr[src], s.v[src]);
		else if (is64 && (op == BPF_ADD || op == BPF_SUB) && is_ptr(&s, dst) &&
			 s.ptr[dst] == SCALAR_ARG)
			;	/* still that argument (v: its index) */
		else if (is64 && (op == BPF_ADD || op == BPF_SUB) && is_ptr(&s, dst) &&
			 have_b)
			set_ptr(&s, dst, s.ptr[dst],
				op == BPF_ADD ? s.v[dst] + b : s.v[dst] - b);
		else if (op == BPF_MOV && !in->off && have_b)
			set(&s, dst, is64 ? b : (uint32_t)b);
		else if (op != BPF_MOV && op != BPF_END && !in->off && have_b &&
			 known(&s, dst) && alu(op, s.v[dst], b, is64, &v))
			set(&s, dst, v);
		else if (!is_ptr(&s, dst) &&
			 ((BPF_SRC(in->code) == BPF_X && is_lconst(&s, src) &&
			   (op == BPF_MOV || known(&s, dst) || is_lconst(&s, dst))) ||
			  (op != BPF_MOV && is_lconst(&s, dst) &&
			   (BPF_SRC(in->code) == BPF_K || known(&s, src) || is_lconst(&s, src)))))
			set_lconst(&s, dst);	/* still fixed at load time */
		else
			unset(&s, dst);
		return push(c, sec, idx + 1, &s);
	}
	case BPF_JMP:
	case BPF_JMP32: {
		bool is64 = cls == BPF_JMP;
		uint64_t b;
		int taken;

		if (op == BPF_CALL && (src == BPF_PSEUDO_CALL || src == BPF_PSEUDO_KFUNC_CALL) &&
		    rel_at(c, S, idx) && !rel_at(c, S, idx)->shndx) {
			/* a call to an extern: a kfunc (libbpf makes it one).
			 * A weak one the target lacks: libbpf poisons the
			 * call, the verifier refuses it where it is reached */
			const struct sym *ks = rel_at(c, S, idx);

			if (ks->bind == STB_WEAK && ext_present(c, ks, EXT_KFUNC) == 0 &&
			    (ret = add_problem(c->prog, RC_CHECK_KFUNC, false, (int)idx,
					       "section %s insn #%zu: a reachable call to the weak kfunc '%s', which the target BTF lacks",
					       S->name, idx, ks->name)))
				return ret;
			clobber_call(&s);
			return push(c, sec, idx + 1, &s);
		}
		if (op == BPF_CALL) {
			if (src == BPF_PSEUDO_CALL) {
				/* the callee gets the arguments r1-r5 (the
				 * context among them) */
				struct rstate cs = { 0 };
				int k;

				for (k = 1; k <= 5; k++) {
					cs.known |= s.known & (1u << k);
					cs.lconst |= s.lconst & (1u << k);
					cs.v[k] = s.v[k];
					cs.ptr[k] = s.ptr[k];
				}
				cs.uncertain = s.uncertain;
				if (call_target(c, sec, idx, true, &ts, &ti) &&
				    (ret = push(c, ts, ti, &cs)))
					return ret;
			} else if (src == 0 && c->helpers && !rel_at(c, S, idx) &&
				   in->imm != (int32_t)POISON_IMM &&
				   (in->imm <= 0 || in->imm >= c->nr_helpers ||
				    !c->helpers[in->imm])) {
				ret = helper_problem(c, sec, idx, in->imm);
				if (ret)
					return ret;
			}
			clobber_call(&s);
			return push(c, sec, idx + 1, &s);
		}
		if (op == BPF_EXIT)
			return 0;
		if (op == BPF_JA)
			return push(c, sec, idx + 1 + (is64 ? in->off : in->imm), &s);
		b = BPF_SRC(in->code) == BPF_K ? (uint64_t)(int64_t)imm_of(in, r) :
		    (known(&s, src) ? s.v[src] : 0);
		taken = known(&s, dst) && (BPF_SRC(in->code) == BPF_K || known(&s, src)) ?
			cond(op, s.v[dst], b, is64) : -1;
		/* decided at load by a value check does not know: the
		 * verifier walks one side only, check cannot say which */
		if (taken < 0 && (is_lconst(&s, dst) ||
				  (BPF_SRC(in->code) == BPF_X && is_lconst(&s, src))))
			s.uncertain = true;
		if (taken != 0 && (ret = push(c, sec, idx + 1 + in->off, &s)))
			return ret;
		if (taken != 1)
			return push(c, sec, idx + 1, &s);
		return 0;
	}
	}
	return 0;
}

static int walk(struct ctx *c, size_t sec, size_t entry)
{
	size_t i;
	int ret;

	for (i = 1; i < c->nsecs; i++)
		if (c->secs[i].exec)
			memset(c->st[i], 0, c->secs[i].n * sizeof(**c->st));
	c->nwl = 0;
	c->ctx_hi = 0;
	c->scalar_deref = false;
	{
		struct rstate st = { 0 };

		if (c->nsecs < EXT_PTR)
			set_ptr(&st, 1, CTX_PTR, 0);	/* r1: the context */
		ret = push(c, sec, entry, &st);
	}
	while (!ret && c->nwl) {
		struct work w = c->wl[--c->nwl];

		ret = step(c, w.sec, w.idx, c->st[w.sec][w.idx]);
	}
	return ret;
}

/* ---- attach points, from the section name (progtype.c's table) ---- */

static int check_tracepoint(struct ctx *c, const char *tgt)
{
	static const char *const sys_prefixes[] = {
		"__x64_sys_", "__arm64_sys_", "__s390x_sys_", "__ia32_sys_",
		"__se_sys_", "__do_sys_", "sys_",
	};
	const char *name = strrchr(tgt, '/'), *m;
	char buf[300];
	size_t i;

	if (!name || !name[1])
		return add_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "tracepoint '%s' is not CATEGORY/NAME", tgt);
	name++;
	if (!strncmp(tgt, "syscalls/", 9) &&
	    (!strncmp(name, "sys_enter_", 10) || !strncmp(name, "sys_exit_", 9))) {
		const char *sc = name + (name[5] == 'n' ? 10 : 9);

		for (i = 0; i < sizeof(sys_prefixes) / sizeof(*sys_prefixes); i++) {
			snprintf(buf, sizeof(buf), "%s%s", sys_prefixes[i], sc);
			if (target_has(c, buf, BTF_KIND_FUNC, &m))
				return 0;
		}
		return add_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "tracepoint %s: the target BTF has no syscall function for '%s' (__<arch>_sys_%s, sys_%s)",
				   tgt, sc, sc, sc);
	}
	snprintf(buf, sizeof(buf), "trace_event_raw_%s", name);
	if (target_has(c, buf, BTF_KIND_STRUCT, &m))
		return 0;
	snprintf(buf, sizeof(buf), "btf_trace_%s", name);
	if (target_has(c, buf, BTF_KIND_TYPEDEF, &m))
		return 0;
	return add_problem(c->prog, RC_CHECK_ATTACH, false, -1,
			   "tracepoint %s: neither struct trace_event_raw_%s nor typedef btf_trace_%s in the target BTF",
			   tgt, name, name);
}

/*
 * A kprobe on a syscall wrapper, __<arch>_sys_NAME: SYSCALL_DEFINE makes
 * the wrapper with __se_sys_NAME/__do_sys_NAME, and BTF often holds only
 * those (pahole skips the wrapper).  1: decided ok, 0: not a syscall
 * wrapper, or a problem added.
 */
static const char *const sys_archs[] = {
	"__x64_sys_", "__ia32_sys_", "__arm64_sys_", "__s390x_sys_", "__riscv_sys_",
};

static int kprobe_syscall(struct ctx *c, const char *secname, const char *fn,
			  bool *decided)
{
	const char *arch = NULL, *name = NULL, *other = NULL;
	char buf[300];
	size_t i;

	*decided = false;
	for (i = 0; i < sizeof(sys_archs) / sizeof(*sys_archs); i++) {
		size_t n = strlen(sys_archs[i]);

		if (!strncmp(fn, sys_archs[i], n)) {
			arch = sys_archs[i];
			name = fn + n;
		}
	}
	if (!arch || !*name)
		return 0;
	*decided = true;
	/* the kernel's own wrapper prefix, as libbpf finds it: __<arch>_sys_bpf */
	snprintf(buf, sizeof(buf), "%sbpf", arch);
	if (!target_has(c, buf, BTF_KIND_FUNC, NULL))
		for (i = 0; i < sizeof(sys_archs) / sizeof(*sys_archs); i++) {
			snprintf(buf, sizeof(buf), "%sbpf", sys_archs[i]);
			if (target_has(c, buf, BTF_KIND_FUNC, NULL))
				other = sys_archs[i];
		}
	if (other)
		return add_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "%s: this kernel's syscall wrappers are %s*, not %s*",
				   secname, other, arch);
	snprintf(buf, sizeof(buf), "__se_sys_%s", name);
	if (target_has(c, fn, BTF_KIND_FUNC, NULL) || target_has(c, buf, BTF_KIND_FUNC, NULL))
		return 0;
	snprintf(buf, sizeof(buf), "__do_sys_%s", name);
	if (target_has(c, buf, BTF_KIND_FUNC, NULL))
		return 0;
	return add_problem(c->prog, RC_CHECK_ATTACH, false, -1,
			   "%s: no syscall '%s' in the target BTF (%s, __se_sys_%s, __do_sys_%s)",
			   secname, name, fn, name, name);
}

static int check_attach(struct ctx *c, const char *secname)
{
	const char *tgt, *mod;
	const struct pt_def *d = pt_find(secname, &tgt);
	char buf[300], pt[80];
	const struct btf_type *e;
	size_t n;

	if (!d)
		return add_problem(c->prog, RC_CHECK_PROGRAM_TYPE, false, -1,
				   "section '%s' names no program type libbpf knows", secname);
	snprintf(pt, sizeof(pt), "BPF_PROG_TYPE_%s", d->prog_type);
	e = target_enum(c, "bpf_prog_type");
	if (e && !enum_has_name(c, e, pt))
		return add_problem(c->prog, RC_CHECK_PROGRAM_TYPE, false, -1,
				   "%s (section %s) is not in this kernel's enum bpf_prog_type",
				   pt, secname);
	if (d->attach_type) {
		snprintf(pt, sizeof(pt), "BPF_%s", d->attach_type);
		e = target_enum(c, "bpf_attach_type");
		if (e && !enum_has_name(c, e, pt))
			return add_problem(c->prog, RC_CHECK_PROGRAM_TYPE, false, -1,
					   "attach type %s (section %s) is not in this kernel's enum bpf_attach_type",
					   pt, secname);
	}
	/* what user space must attach: uprobes and USDT probes of a binary
	 * the section does not name, perf events it opens */
	if (!strncmp(d->prefix, "uprobe", 6) || !strncmp(d->prefix, "uretprobe", 9) ||
	    !strcmp(d->prefix, "usdt")) {
		bool usdt = !strcmp(d->prefix, "usdt");

		if (tgt && strchr(tgt, ':'))
			return 0;
		return add_problem(c->prog, RC_CHECK_ATTACH, true, -1,
				   "needs %s from user space (section '%s' names no BINARY:%s)",
				   usdt ? "a USDT probe of a running process" : "a binary and function",
				   secname, usdt ? "PROVIDER:NAME" : "FUNC");
	}
	if (!strcmp(d->prefix, "perf_event"))
		return add_problem(c->prog, RC_CHECK_ATTACH, true, -1,
				   "needs perf events opened by user space (perf_event_open per CPU; relocore run --perf-event)");
	if (d->needs == PT_NEEDS_NONE)
		return 0;
	if (c->no_trampolines && d->needs == PT_NEEDS_FUNC && strncmp(d->prefix, "iter", 4))
		return add_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "%s: the target's config has no CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS: no BPF trampoline can attach to a kernel function (ENOTSUPP at attach)",
				   secname);
	if (c->opts->no_kernel_btf && (d->needs == PT_NEEDS_FUNC || !strncmp(d->prefix, "tp_btf", 6)))
		return add_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "%s: attaches through the kernel's own BTF, and the target kernel has none (its BTF here is a stand-in: --no-kernel-btf)",
				   secname);
	if (!tgt)
		return add_problem(c->prog, RC_CHECK_ATTACH, true, -1,
				   "needs an attach target from user space (section '%s' names none)",
				   secname);
	if (c->no_funcs)
		return 0;	/* not decided: said once for the target */
	/* libbpf-tools' convention: a "dummy_*" target is a placeholder that
	 * user space replaces (bpf_program__set_attach_target) */
	if (!strncmp(tgt, "dummy", 5) && !target_has(c, tgt, BTF_KIND_FUNC, NULL))
		return add_problem(c->prog, RC_CHECK_ATTACH, true, -1,
				   "needs an attach target from user space: '%s' (section %s) is a placeholder, not in the target BTF",
				   tgt, secname);
	switch (d->needs) {
	case PT_NEEDS_FUNC:
		snprintf(buf, sizeof(buf), "%s%s", d->func_prefix, tgt);
		if (target_has(c, buf, BTF_KIND_FUNC, &mod))
			return 0;
		return add_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "%s: no FUNC '%s' in the target BTF (vmlinux or modules)",
				   secname, buf);
	case PT_NEEDS_KPROBE:
		n = strcspn(tgt, "+");
		snprintf(buf, sizeof(buf), "%.*s", (int)n, tgt);
		if (target_has(c, buf, BTF_KIND_FUNC, &mod))
			return 0;
		{
			bool decided;
			int r = kprobe_syscall(c, secname, buf, &decided);

			if (decided)
				return r;
		}
		return add_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "%s: function '%s' not in BTF: may be inlined or static (kprobe needs it in kallsyms)",
				   secname, buf);
	case PT_NEEDS_RAW_TP:
		snprintf(buf, sizeof(buf), "btf_trace_%s", tgt);
		if (target_has(c, buf, BTF_KIND_TYPEDEF, &mod))
			return 0;
		return add_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "%s: no typedef '%s' in the target BTF: no such raw tracepoint",
				   secname, buf);
	case PT_NEEDS_TP:
		return check_tracepoint(c, tgt);
	case PT_NEEDS_NONE:
		break;
	}
	return 0;
}

/* ---- maps and object-level refusals: every program's problems ---- */

/* The __uint(NAME, V) value of map struct member @m: PTR -> ARRAY[V]. */
static bool map_uint(const struct rc_btf *btf, const struct btf_member *m,
		     uint32_t *v)
{
	const struct btf_type *t = rc_type(btf, m->type);

	if (!t || !btf_is_ptr(t) || !(t = rc_type(btf, t->type)) || !btf_is_array(t))
		return false;
	*v = btf_array(t)->nelems;
	return true;
}

static int check_maps(struct ctx *c, struct rc_check_prog *p)
{
	/* types libbpf or the kernel size on their own (max_entries 0 is right) */
	static const uint32_t self_sized[] = {
		4,	/* PERF_EVENT_ARRAY: libbpf uses the number of CPUs */
		19, 21,	/* CGROUP_STORAGE, PERCPU_CGROUP_STORAGE */
		24, 28, 29, 32,	/* SK_, INODE_, TASK_, CGRP_STORAGE */
	};
	const struct btf_type *mt = target_enum(c, "bpf_map_type");
	const struct btf_var_secinfo *vs;
	const struct btf_type *ds;
	int id, i, j, ret;
	size_t k;

	if (!c->lbtf || (id = rc_btf_find_by_name_kind(c->lbtf, ".maps", BTF_KIND_DATASEC)) <= 0)
		return 0;
	ds = rc_type(c->lbtf, id);
	vs = btf_var_secinfos(ds);
	for (i = 0; i < btf_vlen(ds); i++, vs++) {
		const struct btf_type *var = rc_type(c->lbtf, vs->type), *st;
		const struct btf_member *m;
		const char *mname;
		bool has_type = false, has_max = false, self = false;
		uint32_t type = 0, max = 0;

		if (!var || !btf_is_var(var) ||
		    !(st = rc_skip_mods_typedefs(c->lbtf, var->type, NULL)) ||
		    !btf_is_struct(st))
			continue;
		mname = rc_name(c->lbtf, var->name_off);
		m = btf_members(st);
		for (j = 0; j < btf_vlen(st); j++, m++) {
			const char *n = rc_name(c->lbtf, m->name_off);

			if (n && !strcmp(n, "type"))
				has_type = map_uint(c->lbtf, m, &type);
			else if (n && !strcmp(n, "max_entries"))
				has_max = map_uint(c->lbtf, m, &max);
		}
		if (has_type && mt && !enum_has_value(c, mt, type)) {
			ret = add_problem(p, RC_CHECK_MAP, false, -1,
					  "map %s: type %u is not in this kernel's enum bpf_map_type",
					  mname ? mname : "?", type);
			if (ret)
				return ret;
		}
		for (k = 0; k < sizeof(self_sized) / sizeof(*self_sized); k++)
			self |= has_type && type == self_sized[k];
		if ((!has_max || !max) && !self &&
		    !(mname && listed(c->opts->sized_maps, c->opts->nr_sized_maps, mname))) {
			ret = add_problem(p, RC_CHECK_MAP, true, -1,
					  "map %s: needs max_entries from user space (bpf_map__set_max_entries before load): the object says 0",
					  mname ? mname : "?");
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* libbpf resolves every extern when it loads the object: a strong kfunc or
 * typed __ksym the kernel's BTF lacks, or a .kconfig value the config
 * cannot give, fails the whole object (every program) */
static int extern_problems(struct ctx *c, struct rc_check_prog *p)
{
	size_t i;
	int ret;

	if (c->kconfig_err[0] &&
	    (ret = add_problem(p, RC_CHECK_KCONFIG, false, -1, "%s", c->kconfig_err)))
		return ret;
	for (i = 0; i < c->nsyms; i++) {
		const struct sym *s = &c->syms[i];
		enum ext_kind k;

		if (s->shndx || !s->name[0] || (s->bind != STB_GLOBAL && s->bind != STB_WEAK))
			continue;
		k = ext_kind(c, s->name);
		/* libbpf takes every undefined NOTYPE symbol for an extern and
		 * opens the object only if its BTF puts it in .kconfig or .ksyms
		 * (GCC 12's unknown builtins, unlinked objects) */
		if (k == EXT_OTHER && s->type == STT_NOTYPE &&
		    (ret = add_problem(p, RC_CHECK_OPEN, false, -1,
				       "extern '%s' is neither a kfunc nor in .kconfig or .ksyms: libbpf refuses to open the object",
				       s->name)))
			return ret;
		if (s->bind != STB_GLOBAL)
			continue;
		if ((k == EXT_KFUNC || k == EXT_KSYM_TYPED) && ext_present(c, s, k) == 0 &&
		    (ret = add_problem(p, RC_CHECK_KFUNC, false, -1,
				       "%s '%s' is not in the target BTF (vmlinux or modules): libbpf refuses to load the object",
				       k == EXT_KFUNC ? "kfunc" : "__ksym variable", s->name)))
			return ret;
	}
	return 0;
}

static int object_problems(struct ctx *c, struct rc_check_prog *p)
{
	size_t i;
	int ret;

	ret = extern_problems(c, p);
	if (ret)
		return ret;
	for (i = 1; i < c->nsecs; i++)
		if (!strcmp(c->secs[i].name, "maps") &&
		    (ret = add_problem(p, RC_CHECK_OPEN, false, -1,
				       "legacy 'maps' section: libbpf 1.0 and later refuse to open the object (use BTF-defined maps in .maps)")))
			return ret;
	return check_maps(c, p);
}

/* Relocations the engine refused fail the whole object at load. */
static int refused_problems(struct ctx *c, const struct rc_result *res, size_t n,
			    struct rc_check_prog *p)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		const struct rc_result *r = &res[i];
		char acc[200];

		if (r->d.outcome != RC_ERROR && !r->patch_err[0])
			continue;
		rc_spec_format(&r->d.local, acc, sizeof(acc));
		ret = add_problem(p, RC_CHECK_RELOCATION, false, -1,
				  "section %s insn #%u %s %s: %s (refused: libbpf refuses the whole object)",
				  r->section, r->insn_idx, rc_relo_kind_str(r->relo.kind),
				  acc[0] ? acc : r->access,
				  r->patch_err[0] ? r->patch_err : r->d.reason);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- driver ---- */

static int has_func(void *ctx, uint32_t id, const struct btf_type *t)
{
	(void)ctx;
	(void)id;
	return btf_is_func(t);
}

static void note(struct rc_check *out, const char *what)
{
	if (out->nr_undecided < RC_CHECK_MAX_NOTES)
		rc_fmt(out->undecided[out->nr_undecided++], sizeof(out->undecided[0]),
		       "%s", what);
}

/* What the target's BTF cannot decide, said once per target. */
static void undecided(struct ctx *c, struct rc_check *out)
{
	int i;

	c->no_funcs = !c->vml || rc_btf_for_each_type(c->vml, has_func, NULL) <= 0;
	if (c->no_funcs && c->tg->base)
		c->no_funcs = rc_btf_for_each_type(c->tg->base, has_func, NULL) <= 0;
	for (i = 0; c->no_funcs && i < c->tg->nr_mods; i++)
		c->no_funcs = rc_btf_for_each_type(c->tg->mods[i].btf, has_func, NULL) <= 0;
	if (c->no_funcs)
		note(out, "attach points: the target BTF has no FUNC (minimized?)");
	if (!c->helpers)
		note(out, "helpers: the target BTF has no enum bpf_func_id (minimized?)");
	if (!target_enum(c, "bpf_map_type"))
		note(out, "map types: the target BTF has no enum bpf_map_type");
	if (!target_enum(c, "bpf_prog_type"))
		note(out, "program types: the target BTF has no enum bpf_prog_type");
	for (i = 0; i < (int)c->nsyms; i++) {
		const struct sym *sy = &c->syms[i];
		enum ext_kind k;
		char buf[200];

		if (sy->shndx || !sy->name[0] || sy->bind == STB_LOCAL)
			continue;
		k = ext_kind(c, sy->name);
		if (k == EXT_KCONFIG)
			rc_fmt(buf, sizeof(buf), ".kconfig externs (first: %s): the target's values are not known (give --kernel-release, --kconfig)",
			       sy->name);
		else if (k == EXT_KSYM_UNTYPED)
			rc_fmt(buf, sizeof(buf), "untyped __ksym externs (first: %s): kallsyms, not in BTF: not checked",
			       sy->name);
		else if ((k == EXT_KFUNC || k == EXT_KSYM_TYPED) && ext_present(c, sy, k) < 0)
			rc_fmt(buf, sizeof(buf), "kfuncs and __ksym externs (first: %s): the target BTF has no FUNC/VAR to look in",
			       sy->name);
		else if (k == EXT_OTHER && sy->type != STT_NOTYPE)	/* libbpf: not an extern */
			rc_fmt(buf, sizeof(buf), "externs of no known kind (first: %s): not checked", sy->name);
		else
			continue;
		note(out, buf);
		break;
	}
}

static int add_prog(struct rc_check *out, const char *name, const char *sec)
{
	struct rc_check_prog *p = realloc(out->progs, sizeof(*p) * (out->nr_progs + 1));

	if (!p)
		return -ENOMEM;
	out->progs = p;
	p += out->nr_progs++;
	memset(p, 0, sizeof(*p));
	p->ok = true;
	p->name = strdup(name);
	p->section = strdup(sec);
	return p->name && p->section ? 0 : -ENOMEM;
}

static void ctx_free(struct ctx *c)
{
	size_t i;

	for (i = 0; c->secs && i < c->nsecs; i++) {
		free(c->secs[i].rel);
		free(c->secs[i].copy);
		free(c->secs[i].res);
		if (c->st)
			free(c->st[i]);
	}
	free(c->st);
	free(c->secs);
	free(c->syms);
	free(c->helpers);
	free(c->wl);
}

/*
 * What the program reads of its context against what the target gives it:
 * fentry/fexit/fmod_ret one u64 per argument of the function (fexit and
 * fmod_ret one more: the return value), tp_btf and raw_tp one per argument
 * of the tracepoint (btf_trace_NAME, its first parameter is the probe's
 * data), a tracepoint the record (syscalls: struct syscall_trace_enter
 * with a long per argument of the syscall, struct syscall_trace_exit;
 * others: struct trace_event_raw_NAME).  The verifier refuses a read past
 * that at load (BTF-attached programs) or the kernel at attach (EACCES:
 * the program's max_ctx_offset against the event's record).
 */
/* The FUNC_PROTO of @asec's BTF-typed context on the target (fentry,
 * fexit, fmod_ret: the function's; tp_btf: the tracepoint's, whose first
 * parameter is the probe's data), with the index of its first argument. */
static const struct btf_type *ctx_proto(struct ctx *c, const char *asec, const struct rc_btf **b,
					int *first)
{
	const char *tgt;
	const struct pt_def *d = pt_find(asec, &tgt);
	const struct btf_type *t;
	char buf[300];

	if (!d || !tgt || c->no_funcs)
		return NULL;
	if (d->needs == PT_NEEDS_FUNC && (!strncmp(d->prefix, "fentry", 6) || !strncmp(d->prefix, "fexit", 5) ||
				  !strncmp(d->prefix, "fmod_ret", 8))) {
		t = target_type(c, tgt, BTF_KIND_FUNC, b);
		*first = 0;
		t = t ? rc_type(*b, t->type) : NULL;
	} else if (!strcmp(d->prefix, "tp_btf")) {
		rc_fmt(buf, sizeof(buf), "btf_trace_%s", tgt);
		t = target_type(c, buf, BTF_KIND_TYPEDEF, b);
		t = t ? rc_type(*b, t->type) : NULL;
		t = t && btf_is_ptr(t) ? rc_type(*b, t->type) : NULL;
		*first = 1;
	} else {
		return NULL;
	}
	return t && btf_is_func_proto(t) && btf_vlen(t) >= *first ? t : NULL;
}

static int ctx_bound_size(struct ctx *c, const char *asec);

/* Before the walk: which context slots hold scalars on the target */
static void ctx_types(struct ctx *c, const char *asec)
{
	const struct rc_btf *b;
	const struct btf_type *t;
	int first, i;

	c->typed_ctx = false;
	c->scalar_args = 0;
	t = ctx_proto(c, asec, &b, &first);
	if (!t)
		return;
	c->typed_ctx = true;
	for (i = first; i < btf_vlen(t) && i - first < 32; i++) {
		const struct btf_type *a = rc_skip_mods_typedefs(b, btf_params(t)[i].type, NULL);

		if (a && (btf_is_int(a) || btf_is_enum(a) || btf_kind(a) == BTF_KIND_ENUM64))
			c->scalar_args |= 1u << (i - first);
	}
}

static int ctx_bound(struct ctx *c, const char *asec)
{
	if (c->scalar_deref) {
		const struct rc_btf *b;
		const struct btf_type *t;
		int first;
		char ty[128] = "";

		t = ctx_proto(c, asec, &b, &first);
		if (t && c->scalar_arg + first < btf_vlen(t)) {
			const struct btf_param *pa = &btf_params(t)[c->scalar_arg + first];
			const struct btf_type *at = rc_type(b, pa->type);
			const char *pn = rc_name(b, pa->name_off), *tn = at ? rc_name(b, at->name_off) : NULL;

			rc_fmt(ty, sizeof(ty), " (%s%s%s)", tn && *tn ? tn : "a scalar",
			       pn && *pn ? " " : "", pn && *pn ? pn : "");
		}
		return add_problem(c->prog, RC_CHECK_ATTACH, false, (int)c->scalar_idx,
				   "%s: insn #%zu reads memory through argument %d of the context, a scalar on the target%s: the verifier refuses the load (invalid mem access 'scalar')",
				   asec, c->scalar_idx, c->scalar_arg, ty);
	}
	return ctx_bound_size(c, asec);
}

static int ctx_bound_size(struct ctx *c, const char *asec)
{
	const char *tgt, *pfx;
	const struct pt_def *d = pt_find(asec, &tgt);
	const struct rc_btf *b;
	const struct btf_type *t;
	char buf[300], what[300];
	int64_t bound = -1;
	int n;

	if (!d || !tgt || c->ctx_hi <= 0 || c->no_funcs)
		return 0;
	pfx = d->prefix;
	if (d->needs == PT_NEEDS_FUNC && (!strcmp(pfx, "fentry") || !strcmp(pfx, "fentry.s") ||
				  !strcmp(pfx, "fexit") || !strcmp(pfx, "fexit.s") ||
				  !strncmp(pfx, "fmod_ret", 8))) {
		bool entry = !strncmp(pfx, "fentry", 6);

		n = target_nr_params(c, tgt, BTF_KIND_FUNC);
		if (n >= 0) {
			bound = 8 * (n + (entry ? 0 : 1));
			rc_fmt(what, sizeof(what), "function %s takes %d argument%s%s", tgt, n,
			       n == 1 ? "" : "s", entry ? "" : " (and the return value)");
		}
	} else if (!strcmp(pfx, "tp_btf") || !strcmp(pfx, "raw_tp") ||
		   !strcmp(pfx, "raw_tracepoint")) {
		rc_fmt(buf, sizeof(buf), "btf_trace_%s", tgt);
		n = target_nr_params(c, buf, BTF_KIND_TYPEDEF);
		if (n >= 1) {
			bound = 8 * (n - 1);
			rc_fmt(what, sizeof(what), "tracepoint %s has %d argument%s", tgt, n - 1,
			       n == 2 ? "" : "s");
		}
	} else if (d->needs == PT_NEEDS_TP && strchr(tgt, '/')) {
		const char *name = strrchr(tgt, '/') + 1;

		if (!strncmp(tgt, "syscalls/sys_enter_", 19)) {
			t = target_type(c, "syscall_trace_enter", BTF_KIND_STRUCT, &b);
			rc_fmt(buf, sizeof(buf), "__se_sys_%s", name + 10);
			n = target_nr_params(c, buf, BTF_KIND_FUNC);
			if (n < 0) {
				rc_fmt(buf, sizeof(buf), "__do_sys_%s", name + 10);
				n = target_nr_params(c, buf, BTF_KIND_FUNC);
			}
			if (t && n >= 0) {
				bound = t->size + 8 * n;
				rc_fmt(what, sizeof(what), "its record (struct syscall_trace_enter, %u bytes, and %d argument%s) is %lld bytes",
				       t->size, n, n == 1 ? "" : "s", (long long)bound);
			}
		} else if (!strncmp(tgt, "syscalls/sys_exit_", 18)) {
			t = target_type(c, "syscall_trace_exit", BTF_KIND_STRUCT, &b);
			if (t) {
				bound = t->size;
				rc_fmt(what, sizeof(what), "its record (struct syscall_trace_exit) is %lld bytes",
				       (long long)bound);
			}
		} else {
			rc_fmt(buf, sizeof(buf), "trace_event_raw_%s", name);
			t = target_type(c, buf, BTF_KIND_STRUCT, &b);
			if (t) {
				bound = t->size;
				rc_fmt(what, sizeof(what), "its record (struct %s) is %lld bytes",
				       buf, (long long)bound);
			}
		}
	}
	if (bound < 0 || c->ctx_hi <= bound)
		return 0;
	return add_problem(c->prog, RC_CHECK_ATTACH, false, (int)c->ctx_hi_idx,
			   "%s: insn #%zu reads the context up to byte %lld, but %s: %s",
			   asec, c->ctx_hi_idx, (long long)c->ctx_hi, what,
			   d->needs == PT_NEEDS_TP ? "the kernel refuses the attachment (EACCES)"
					   : "the verifier refuses the load (invalid bpf_context access)");
}

static void prog_free(struct rc_check_prog *p)
{
	free(p->name);
	free(p->section);
	free(p->problems);
}

/* The section @p is checked as: its own, or with the attach target user
 * space sets (PROG=FUNC[,FUNC...]: the first the target has) in @buf */
static const char *effective_section(struct ctx *c, const char *name, const char *sec,
				     char *buf, size_t n)
{
	const struct rc_check_opts *o = c->opts;
	size_t nl = strlen(name), i, pl = strcspn(sec, "/");
	const char *list = NULL;
	char cand[256];

	for (i = 0; i < o->nr_attach_target; i++)
		if (!strncmp(o->attach_target[i], name, nl) && o->attach_target[i][nl] == '=')
			list = o->attach_target[i] + nl + 1;
	if (!list || !*list)
		return sec;
	while (*list) {
		size_t cl = strcspn(list, ",");
		struct rc_check_prog trial = { 0 };
		struct rc_check_prog *saved = c->prog;
		bool fits;

		rc_fmt(cand, sizeof(cand), "%.*s", (int)cl, list);
		rc_fmt(buf, n, "%.*s/%s", (int)pl, sec, cand);
		c->prog = &trial;
		check_attach(c, buf);
		c->prog = saved;
		fits = !trial.nr_problems;
		prog_free(&trial);
		if (fits || !list[cl])
			return buf;	/* the first that fits, else the last */
		list += cl + 1;
	}
	return buf;
}

static int check_one(struct ctx *c, struct rc_check *out, size_t sec,
		     size_t entry, const char *name, const struct rc_result *res,
		     size_t nres)
{
	const struct rc_check_opts *o = c->opts;
	struct rc_check_prog *p;
	const char *asec;
	char buf[300];
	int ret, i;
	bool attach_problem = false;

	if (listed(o->no_autoload, o->nr_no_autoload, name))
		return 0;
	ret = add_prog(out, name, c->secs[sec].name);
	if (ret)
		return ret;
	p = c->prog = &out->progs[out->nr_progs - 1];
	asec = effective_section(c, name, c->secs[sec].name, buf, sizeof(buf));
	ctx_types(c, asec);
	ret = refused_problems(c, res, nres, p) ?: object_problems(c, p) ?:
	      check_attach(c, asec) ?: walk(c, sec, entry) ?: ctx_bound(c, asec);
	if (ret)
		return ret;
	/* user space attaches it itself: what the section says does not count */
	if (listed(o->user_attached, o->nr_user_attached, name)) {
		int k = 0;

		for (i = 0; i < p->nr_problems; i++)	/* (reads past the context stay) */
			if (p->problems[i].kind != RC_CHECK_ATTACH || p->problems[i].insn >= 0)
				p->problems[k++] = p->problems[i];
		p->nr_problems = k;
		p->ok = !k;
	}
	for (i = 0; i < p->nr_problems; i++)
		attach_problem |= p->problems[i].kind == RC_CHECK_ATTACH && !p->problems[i].needs;
	/* loaded only where the target has its attach point */
	if (attach_problem && listed(o->optional, o->nr_optional, name)) {
		prog_free(p);
		out->nr_progs--;
	}
	return 0;
}

/* Can the BTF side attach on the target: no attach point missing (a read
 * past the context, insn >= 0, does not count: the kernel attaches, then
 * refuses the program) */
static bool twin_attaches(void *arg, int i)
{
	const struct rc_check_prog *p = &((const struct rc_check *)arg)->progs[i];
	int j;

	for (j = 0; j < p->nr_problems; j++)
		if (p->problems[j].kind == RC_CHECK_ATTACH && p->problems[j].insn < 0)
			return false;
	return true;
}

/* fentry/fexit vs kprobe/kretprobe programs on the same functions, tp_btf
 * vs raw_tp on the same tracepoints: progtype.c's pt_pick_twins, as relocore
 * run decides (rc_check_opts.pick_alternatives); the losing side's programs
 * are not in the result. */
static int pick_alternatives(struct ctx *c, struct rc_check *out)
{
	struct pt_twin_prog *tw = calloc(out->nr_progs + 1, sizeof(*tw));
	char (*fn)[300] = calloc(out->nr_progs + 1, sizeof(*fn));
	struct pt_twin_result res;
	int i, k = 0;

	if (!tw || !fn) {
		free(tw);
		free(fn);
		return -ENOMEM;
	}
	for (i = 0; i < out->nr_progs; i++) {
		const char *tgt, *s = effective_section(c, out->progs[i].name, out->progs[i].section,
						       fn[i], sizeof(fn[i]));
		const struct pt_def *d = pt_find(s, &tgt);

		tw[i].twin = d ? d->twin : PT_TWIN_NONE;
		tw[i].func = tgt;
	}
	pt_pick_twins(tw, out->nr_progs, twin_attaches, out, &res);
	for (i = 0; i < out->nr_progs; i++) {
		if (tw[i].drop)
			prog_free(&out->progs[i]);
		else
			out->progs[k++] = out->progs[i];
	}
	out->nr_progs = k;
	free(tw);
	free(fn);
	return 0;
}

struct rc_check *rc_check_object(const struct rc_object *obj,
				 const struct rc_target *target,
				 const struct rc_kconfig *kc,
				 struct rc_error *err)
{
	return rc_check_object_opts(obj, target, kc, NULL, err);
}

struct rc_check *rc_check_object_opts(const struct rc_object *obj,
				      const struct rc_target *target,
				      const struct rc_kconfig *kc,
				      const struct rc_check_opts *opts,
				      struct rc_error *err)
{
	static const struct rc_check_opts none = { sizeof(none) };
	struct ctx c = { .obj = obj, .tg = target, .vml = rc_target_types(target),
			 .opts = opts && opts->sz >= sizeof(none) ? opts : &none };
	struct rc_check *out = calloc(1, sizeof(*out));
	const struct rc_result *res = NULL;
	struct rc_error rerr = { "" };
	struct rc_object *copy = NULL, *baked = NULL;
	size_t size, nres = 0, i, j;
	const unsigned char *bytes;
	int ret = -ENOMEM, nbaked = 0;

	if (!out)
		goto fail;
	/* every type of the target: the checks below read many of them */
	if (rc_target_check(target, err)) {
		free(out);
		return NULL;
	}
	/* .kconfig externs with the target's values: loads of them become
	 * loads from a frozen map, whose values prune branches */
	if (kc && (kc->release || kc->config)) {
		baked = rc_object_bake_kconfig(obj, kc, target, &nbaked, &rerr);
		if (baked) {
			c.obj = baked;
		} else if (kc->config) {
			/* with the target's config, what libbpf would fill in
			 * and cannot is libbpf's refusal too */
			rc_fmt(c.kconfig_err, sizeof(c.kconfig_err), ".kconfig externs: %s", rerr.msg);
		} else {
			char buf[200];

			rc_fmt(buf, sizeof(buf), ".kconfig values: not baked: %s", rerr.msg);
			note(out, buf);
		}
		rerr.msg[0] = 0;
	}
	/* a config that says trampolines cannot attach (libbpf-tools'
	 * fentry_can_attach finds the same at run time) */
	if (kc && kc->config &&
	    memmem(kc->config, kc->config_len, "CONFIG_FUNCTION_TRACER=y", 24) &&
	    !memmem(kc->config, kc->config_len, "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y", 41))
		c.no_trampolines = true;
	c.lbtf = rc_object_types(c.obj);
	bytes = rc_object_bytes(c.obj, &size);
	elf_version(EV_CURRENT);
	ret = read_elf(&c, err);
	if (ret)
		goto fail;
	/* the engine's decisions, on a copy: @obj stays as it was */
	copy = rc_object_open_mem(bytes, size, rc_object_name(c.obj), err);
	if (!copy) {
		ret = -EINVAL;
		goto fail;
	}
	rc_object_relocate(copy, target, &res, &rerr);	/* refusals: in res */
	nres = rc_object_results(copy, &res);
	ret = -ENOMEM;
	c.st = calloc(c.nsecs, sizeof(*c.st));
	if (!c.st || load_helpers(&c))
		goto fail;
	for (i = 1; i < c.nsecs; i++) {
		if (!c.secs[i].exec)
			continue;
		c.st[i] = calloc(c.secs[i].n ? c.secs[i].n : 1, sizeof(**c.st));
		c.secs[i].res = calloc(c.secs[i].n ? c.secs[i].n : 1, sizeof(*c.secs[i].res));
		if (!c.st[i] || !c.secs[i].res)
			goto fail;
	}
	undecided(&c, out);
	for (j = 0; j < nres; j++) {
		size_t s = sec_by_name(&c, res[j].section);
		const struct rc_result **slot;

		if (!s || res[j].insn_idx >= c.secs[s].n)
			continue;
		slot = &c.secs[s].res[res[j].insn_idx];
		if (!*slot || res[j].d.outcome != RC_OK)
			*slot = &res[j];
	}
	/* programs: FUNC symbols of executable sections other than .text */
	for (i = 1; i < c.nsecs; i++) {
		bool any = false;

		if (!c.secs[i].exec || !strcmp(c.secs[i].name, ".text"))
			continue;
		for (j = 0; j < c.nsyms; j++) {
			const struct sym *s = &c.syms[j];

			if (s->shndx != i || s->type != STT_FUNC || s->value % 8)
				continue;
			any = true;
			ret = check_one(&c, out, i, s->value / 8, s->name, res, nres);
			if (ret)
				goto fail;
		}
		if (!any && c.secs[i].n &&
		    (ret = check_one(&c, out, i, 0, c.secs[i].name, res, nres)))
			goto fail;
	}
	if (c.opts->pick_alternatives && (ret = pick_alternatives(&c, out)))
		goto fail;
	ctx_free(&c);
	rc_object_free(copy);
	rc_object_free(baked);
	return out;
fail:
	if (!err->msg[0])
		rc_fmt(err->msg, sizeof(err->msg), "%s: check: %s",
		       rc_object_name(obj), strerror(-ret));
	ctx_free(&c);
	rc_object_free(copy);
	rc_object_free(baked);
	rc_check_free(out);
	return NULL;
}

bool rc_check_ok(const struct rc_check *r)
{
	int i;

	for (i = 0; i < r->nr_progs; i++)
		if (!r->progs[i].ok)
			return false;
	return true;
}

void rc_check_free(struct rc_check *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < r->nr_progs; i++) {
		free(r->progs[i].name);
		free(r->progs[i].section);
		free(r->progs[i].problems);
	}
	free(r->progs);
	free(r);
}
