// SPDX-License-Identifier: MIT
/*
 * walk.c - the instructions reachable from a program's entry, walked once
 * per program the way the verifier prunes dead code, offline.
 *
 * The model.  State (struct rstate) is what is known of each register
 * r0-r10 on every path seen so far into an instruction -
 *   a known scalar     (known bit, v[r]; ptr[r] == 0): an immediate, an
 *                      ld_imm64 value, a relocated CO-RE result (EXISTS,
 *                      enum value, size ...), a value read from a frozen
 *                      read-only section (.rodata.kconfig once baked), or
 *                      ALU on such values;
 *   a known pointer    (known bit, ptr[r] != 0, v[r] an offset): into the
 *                      constant section ptr[r], or tagged CTX_PTR (the
 *                      program's context: r1 at entry), EXT_PTR (an extern
 *                      variable), SCALAR_ARG (v[r]: a typed context's
 *                      argument that is a scalar on the target);
 *   a load-time constant (lconst bit): read through an extern, fixed when
 *                      the object loads but not known here;
 * and "uncertain": the path went through a branch decided by such a
 * load-time constant, so the verifier may not walk it.  Anything else is
 * unknown.  Where paths meet the states are joined: a register stays known
 * only if every path agrees on it; lconst and uncertain are or-ed.  A
 * state is kept only where paths may meet (c->slot: jump targets,
 * functions); a kept state that changed is walked again (a worklist),
 * which ends because a join only ever forgets (known bits) or adds
 * (lconst, uncertain).  From there the walk goes on through the
 * instructions that have one way in, the one before them, without
 * keeping their states.
 *
 * One check_* function per instruction class applies the instruction to
 * the state and pushes the result to each successor it can go to.  A
 * conditional jump whose outcome the known values decide takes only that
 * edge; anything unknown takes both.  Calls to BPF subprograms (and
 * callbacks taken by address by ld_imm64) are followed, with the argument
 * registers r1-r5 for a call and nothing known for a callback.
 *
 * What is decided, as problems of c->prog: a poisoned (CO-RE) instruction
 * reached, a reached helper call whose id the target's enum bpf_func_id
 * lacks, a reached call to a weak kfunc the target lacks.  What is
 * recorded for attach.c: the farthest read of the context on a certain
 * path (c->ctx_hi), the first read through a scalar argument.  Not
 * decided: the types of helper arguments, stack depth, complexity.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"

#define POISON_IMM 0xbad2310	/* the helper id of a poisoned call */

/* The symbol the ELF relocation at instruction @idx of @s names, or NULL. */
static const struct sym *rel_at(const struct ctx *c, const struct sec *s, size_t idx)
{
	size_t i;

	for (i = 0; i < s->nr_rel; i++)
		if (s->rel[i].idx == idx)
			return s->rel[i].sym < c->nsyms ? &c->syms[s->rel[i].sym] : NULL;
	return NULL;
}

/* ---- the state per instruction, and the worklist ---- */

/* Append @sec:@idx to the list *@v (*@n of *@cap).  0 or -ENOMEM. */
static int add_work(struct work **v, size_t *n, size_t *cap, size_t sec, size_t idx)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		struct work *w = realloc(*v, ncap * sizeof(*w));

		if (!w)
			return -ENOMEM;
		*v = w;
		*cap = ncap;
	}
	(*v)[(*n)++] = (struct work){ sec, idx };
	return 0;
}

#define WALK_HEAD 0x80000000u
#define WALK_SLOT 0x7fffffffu

/* Mark where paths may join: each jump's target and each conditional
 * jump's fall-through, each call's target in the section, each function
 * (a FUNC symbol) and the section's start.  Elsewhere an instruction has
 * one way in, the one before it, and its state is not kept. */
int chk_walk_init(struct ctx *c)
{
	size_t sec, i;

	c->slot = calloc(c->nsecs, sizeof(*c->slot));
	if (!c->slot)
		return -ENOMEM;
	for (sec = 1; sec < c->nsecs; sec++) {
		const struct sec *S = &c->secs[sec];
		uint32_t *h;

		if (!S->exec)
			continue;
		h = c->slot[sec] = calloc(S->n ? S->n : 1, sizeof(*h));
		if (!h)
			return -ENOMEM;
		h[0] = WALK_HEAD;
		for (i = 0; i < S->n; i++) {
			const struct bpf_insn *in = &S->insns[i];
			uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
			int64_t t = -1;

			if (cls == BPF_LD && in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
				i++;	/* its second half */
				continue;
			}
			if (cls != BPF_JMP && cls != BPF_JMP32)
				continue;
			if (op == BPF_CALL)
				t = in->src_reg == BPF_PSEUDO_CALL ? (int64_t)i + in->imm + 1 : -1;
			else if (op == BPF_JA)
				t = (int64_t)i + 1 + (cls == BPF_JMP ? in->off : in->imm);
			else if (op != BPF_EXIT) {
				t = (int64_t)i + 1 + in->off;
				if (i + 1 < S->n)
					h[i + 1] |= WALK_HEAD;
			}
			if (t >= 0 && (uint64_t)t < S->n)
				h[t] |= WALK_HEAD;
		}
	}
	for (i = 0; i < c->nsyms; i++) {
		const struct sym *s = &c->syms[i];

		if (s->type == STT_FUNC && s->shndx < c->nsecs && c->slot[s->shndx] &&
		    s->value / 8 < c->secs[s->shndx].n)
			c->slot[s->shndx][s->value / 8] |= WALK_HEAD;
	}
	return 0;
}

/* Join @in into the state at @sec:@idx (the first path there: @in) and
 * queue the instruction when its state changed.  The next instruction of
 * the step being made, where no path joins, gets @in as c->next instead,
 * walked on at once.  0 or -ENOMEM. */
static int push(struct ctx *c, size_t sec, size_t idx, const struct rstate *in)
{
	struct rstate *s;
	uint32_t *slot;
	uint16_t old;
	int r;

	if (sec >= c->nsecs || !c->secs[sec].exec || idx >= c->secs[sec].n)
		return 0;	/* out of the program: the verifier's concern */
	slot = &c->slot[sec][idx];
	if (sec == c->cur_sec && idx == c->ft && !(*slot & WALK_HEAD) && !c->has_next) {
		c->next = *in;
		c->has_next = true;
		return 0;
	}
	if (!(*slot & WALK_SLOT)) {
		if (c->npool == c->cappool) {
			size_t ncap = c->cappool ? c->cappool * 2 : 256;
			struct rstate *p = realloc(c->pool, ncap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			c->pool = p;
			c->cappool = ncap;
		}
		if (c->npool >= WALK_SLOT ||
		    add_work(&c->seen, &c->nseen, &c->capseen, sec, idx))
			return -ENOMEM;
		c->pool[c->npool++] = *in;
		*slot |= (uint32_t)c->npool;
	} else {
		bool was;
		uint16_t lc;

		s = &c->pool[(*slot & WALK_SLOT) - 1];
		was = s->uncertain;
		lc = s->lconst;
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
	return add_work(&c->wl, &c->nwl, &c->capwl, sec, idx);
}

/* A callback's entry: walked with nothing known. */
static int push_entry(struct ctx *c, size_t sec, size_t idx)
{
	struct rstate none = { 0 };

	return push(c, sec, idx, &none);
}

/* ---- what a register holds ---- */

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
static int32_t imm_of(const struct bpf_insn *in, const struct crelo *r)
{
	return r && r->outcome == RC_OK ? (int32_t)r->new_val : in->imm;
}

/* @a op @b, 64- or 32-bit, in *@out; false when the walk cannot say
 * (a division by zero, an op it does not know). */
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

/* After a call: r0 (its result) and r1-r5 unknown. */
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

/* ---- the problems the walk finds ---- */

/* A poisoned instruction reached from the entry. */
static int relo_problem(struct ctx *c, size_t sec, size_t idx,
			const struct crelo *r)
{
	return chk_problem(c->prog, RC_CHECK_RELOCATION, false, (int)idx,
			   "section %s insn #%zu %s; poisoned and reachable from the entry, so the verifier rejects it",
			   c->secs[sec].name, idx, r->what);
}

/* A reached call to helper @id, which the target lacks. */
static int helper_problem(struct ctx *c, size_t sec, size_t idx, int32_t id)
{
	return chk_problem(c->prog, RC_CHECK_HELPER, false, (int)idx,
			   "section %s insn #%zu: helper #%d is not in this kernel's enum bpf_func_id",
			   c->secs[sec].name, idx, id);
}

/* ---- one instruction: each check_* applies the instruction at @sec:@idx
 * to @s (the state before it, the step's own copy) and pushes the state
 * after to each successor it can go to.  0 or -ENOMEM. ---- */

/* @sym is a weak kfunc or typed __ksym that the target's BTF lacks (a
 * typeless one is found in kallsyms at load: not known here). */
static bool weak_absent(const struct ctx *c, const struct sym *sym)
{
	enum ext_kind k;

	if (sym->bind != STB_WEAK)
		return false;
	k = chk_ext_kind(c, sym->name);
	return (k == EXT_KFUNC || k == EXT_KSYM_TYPED) && chk_ext_present(c, sym, k) == 0;
}

/* BPF_LD: ld_imm64 (a constant, a relocated one, an address in a frozen
 * section, an extern variable, a callback), or a legacy packet load. */
static int check_ld(struct ctx *c, size_t sec, size_t idx, const struct bpf_insn *in,
		    const struct crelo *r, struct rstate *s)
{
	const struct sec *S = &c->secs[sec];
	int dst = in->dst_reg, src = in->src_reg, ret;
	size_t ts, ti;
	uint64_t v;

	if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
		const struct sym *sym = rel_at(c, S, idx);

		if (idx + 1 >= S->n)
			return 0;
		unset(s, dst);
		if (sym && call_target(c, sec, idx, false, &ts, &ti)) {
			ret = push_entry(c, ts, ti);	/* a callback */
			if (ret)
				return ret;
		} else if (sym && !src && sym->shndx < c->nsecs &&
			   sym->shndx <= UINT16_MAX &&
			   c->secs[sym->shndx].konst) {
			/* address in a frozen map: libbpf adds the
			 * symbol's offset to the immediate */
			set_ptr(s, dst, sym->shndx,
				sym->value + (uint32_t)in->imm);
		} else if (sym && !src && sym->shndx == SHN_UNDEF && weak_absent(c, sym)) {
			/* a weak kfunc or typed __ksym the target lacks:
			 * libbpf resolves its address to 0, and a branch on
			 * it (if (!sym), bpf_ksym_exists) is known */
			set(s, dst, 0);
		} else if (sym && !src && sym->shndx == SHN_UNDEF) {
			/* an extern variable (.kconfig, __ksym): its
			 * value is fixed when the object loads */
			set_ptr(s, dst, EXT_PTR, 0);
		} else if (!sym && !src) {
			v = r && r->outcome == RC_OK ? r->new_val :
			    ((uint64_t)(uint32_t)in[1].imm << 32) | (uint32_t)in->imm;
			set(s, dst, v);
		}
		return push(c, sec, idx + 2, s);
	}
	clobber_call(s);	/* ld_abs/ld_ind: r0 result, r1-r5 clobbered */
	return push(c, sec, idx + 1, s);
}

/* BPF_LDX: a read of the context (how far it reaches; a typed context's
 * scalar slot), through a scalar argument (refused), of an extern (a
 * load-time constant), or of a frozen section (its bytes: a known value);
 * any other read gives an unknown value. */
static int check_ldx(struct ctx *c, size_t sec, size_t idx, const struct bpf_insn *in,
		     const struct crelo *r, struct rstate *s)
{
	static const int sizes[] = { [BPF_W >> 3] = 4, [BPF_H >> 3] = 2,
				     [BPF_B >> 3] = 1, [BPF_DW >> 3] = 8 };
	int sz = sizes[BPF_SIZE(in->code) >> 3];
	int dst = in->dst_reg, src = in->src_reg;
	const struct sec *d = is_ptr(s, src) && s->ptr[src] < c->nsecs ?
			      &c->secs[s->ptr[src]] : NULL;
	int64_t off = d ? (int64_t)s->v[src] + in->off : -1;

	if (is_ptr(s, src) && s->ptr[src] == CTX_PTR) {
		/* the offset as relocated (a field's byte offset) */
		int16_t ioff = r && r->outcome == RC_OK ? (int16_t)r->new_val : in->off;
		int64_t at = (int64_t)s->v[src] + ioff, end = at + sz;

		if (!s->uncertain && BPF_MODE(in->code) == BPF_MEM && end > c->ctx_hi) {
			c->ctx_hi = end;
			c->ctx_hi_sec = sec;
			c->ctx_hi_idx = idx;
		}
		unset(s, dst);
		if (c->typed_ctx && sz == 8 && at >= 0 && at % 8 == 0 && at / 8 < 32 &&
		    (c->scalar_args & (1u << (at / 8))))
			set_ptr(s, dst, SCALAR_ARG, at / 8);
		return push(c, sec, idx + 1, s);
	}
	if (is_ptr(s, src) && s->ptr[src] == SCALAR_ARG) {
		if (!s->uncertain && !c->scalar_deref) {
			c->scalar_deref = true;
			c->scalar_idx = idx;
			c->scalar_arg = (int)s->v[src];
		}
		unset(s, dst);
		return push(c, sec, idx + 1, s);
	}
	if (is_ptr(s, src) && s->ptr[src] == EXT_PTR) {
		set_lconst(s, dst);
		return push(c, sec, idx + 1, s);
	}

	/* a load from a frozen read-only map: its value is known */
	if (d && BPF_MODE(in->code) == BPF_MEM && off >= 0 &&
	    (uint64_t)off + sz <= d->data_size) {
		bool be = rc_object_big_endian(c->obj);
		uint64_t val = 0;
		int k;

		for (k = 0; k < sz; k++)	/* in the object's byte order */
			val |= (uint64_t)d->data[off + k] << 8 * (be ? sz - 1 - k : k);
		set(s, dst, val);
	} else {
		unset(s, dst);
	}
	return push(c, sec, idx + 1, s);
}

/* BPF_ST, BPF_STX: memory is not tracked; an atomic op writes its source
 * register (a fetch) and r0 (cmpxchg). */
static int check_st(struct ctx *c, size_t sec, size_t idx, const struct bpf_insn *in,
		    struct rstate *s)
{
	if (BPF_CLASS(in->code) == BPF_STX && BPF_MODE(in->code) == BPF_ATOMIC) {
		unset(s, in->src_reg);
		unset(s, 0);
	}
	return push(c, sec, idx + 1, s);
}

/* BPF_ALU, BPF_ALU64: known operands give a known result; a pointer moves
 * by a known offset; a load-time constant stays one through ALU with known
 * values or other load-time constants; anything else is unknown. */
static int check_alu(struct ctx *c, size_t sec, size_t idx, const struct bpf_insn *in,
		     const struct crelo *r, struct rstate *s)
{
	uint8_t op = BPF_OP(in->code);
	int dst = in->dst_reg, src = in->src_reg;
	bool is64 = BPF_CLASS(in->code) == BPF_ALU64;
	bool have_b = BPF_SRC(in->code) == BPF_K || known(s, src);
	uint64_t b = BPF_SRC(in->code) == BPF_K ?
		     (is64 ? (uint64_t)(int64_t)imm_of(in, r) : (uint32_t)imm_of(in, r)) :
		     (known(s, src) ? s->v[src] : 0);
	uint64_t v;

	if (op == BPF_MOV && !in->off && is64 && BPF_SRC(in->code) == BPF_X &&
	    is_ptr(s, src))
		set_ptr(s, dst, s->ptr[src], s->v[src]);
	else if (is64 && (op == BPF_ADD || op == BPF_SUB) && is_ptr(s, dst) &&
		 s->ptr[dst] == SCALAR_ARG)
		;	/* still that argument (v: its index) */
	else if (is64 && (op == BPF_ADD || op == BPF_SUB) && is_ptr(s, dst) &&
		 have_b)
		set_ptr(s, dst, s->ptr[dst],
			op == BPF_ADD ? s->v[dst] + b : s->v[dst] - b);
	else if (op == BPF_MOV && !in->off && have_b)
		set(s, dst, is64 ? b : (uint32_t)b);
	else if (op != BPF_MOV && op != BPF_END && !in->off && have_b &&
		 known(s, dst) && alu(op, s->v[dst], b, is64, &v))
		set(s, dst, v);
	else if (!is_ptr(s, dst) &&
		 ((BPF_SRC(in->code) == BPF_X && is_lconst(s, src) &&
		   (op == BPF_MOV || known(s, dst) || is_lconst(s, dst))) ||
		  (op != BPF_MOV && is_lconst(s, dst) &&
		   (BPF_SRC(in->code) == BPF_K || known(s, src) || is_lconst(s, src)))))
		set_lconst(s, dst);	/* still fixed at load time */
	else
		unset(s, dst);
	return push(c, sec, idx + 1, s);
}

/* A call: to an extern (a kfunc: a weak one the target lacks is a
 * problem where reached), to a BPF subprogram (followed, with r1-r5), or
 * to a helper (its id in the target's enum bpf_func_id).  r0-r5 are
 * unknown after it. */
static int check_call(struct ctx *c, size_t sec, size_t idx, const struct bpf_insn *in,
		      struct rstate *s)
{
	const struct sec *S = &c->secs[sec];
	const struct sym *ks = rel_at(c, S, idx);
	int src = in->src_reg, ret;
	size_t ts, ti;

	if ((src == BPF_PSEUDO_CALL || src == BPF_PSEUDO_KFUNC_CALL) && ks && !ks->shndx) {
		/* a call to an extern: a kfunc (libbpf makes it one).
		 * A weak one the target lacks: libbpf poisons the
		 * call, the verifier refuses it where it is reached */
		bool absent = ks->bind == STB_WEAK && chk_ext_present(c, ks, EXT_KFUNC) == 0;

		if (absent &&
		    (ret = chk_problem(c->prog, RC_CHECK_KFUNC, false, (int)idx,
				       "section %s insn #%zu: a reachable call to the weak kfunc '%s', which the target BTF lacks",
				       S->name, idx, ks->name)))
			return ret;
		/* the verifier: "JIT is required for calling kernel function" */
		if (!absent && c->no_jit &&
		    (ret = chk_problem(c->prog, RC_CHECK_KFUNC, false, (int)idx,
				       "section %s insn #%zu: calls the kfunc '%s', and the target's config has no CONFIG_BPF_JIT: the interpreter calls no kernel function (ENOTSUPP at load)",
				       S->name, idx, ks->name)))
			return ret;
	} else if (src == BPF_PSEUDO_CALL) {
		/* the callee gets the arguments r1-r5 (the
		 * context among them) */
		struct rstate cs = { 0 };
		int k;

		for (k = 1; k <= 5; k++) {
			cs.known |= s->known & (1u << k);
			cs.lconst |= s->lconst & (1u << k);
			cs.v[k] = s->v[k];
			cs.ptr[k] = s->ptr[k];
		}
		cs.uncertain = s->uncertain;
		if (call_target(c, sec, idx, true, &ts, &ti) &&
		    (ret = push(c, ts, ti, &cs)))
			return ret;
	} else if (src == 0 && c->helpers && !ks &&
		   in->imm != (int32_t)POISON_IMM &&
		   (in->imm <= 0 || in->imm >= c->nr_helpers ||
		    !c->helpers[in->imm])) {
		ret = helper_problem(c, sec, idx, in->imm);
		if (ret)
			return ret;
	}
	clobber_call(s);
	return push(c, sec, idx + 1, s);
}

/* BPF_JMP, BPF_JMP32: a call, an exit (the path ends), a jump, or a
 * conditional jump: the known values decide its edge, else both are
 * taken (uncertain when a load-time constant decides it). */
static int check_jmp(struct ctx *c, size_t sec, size_t idx, const struct bpf_insn *in,
		     const struct crelo *r, struct rstate *s)
{
	uint8_t op = BPF_OP(in->code);
	int dst = in->dst_reg, src = in->src_reg, ret, taken;
	bool is64 = BPF_CLASS(in->code) == BPF_JMP;
	uint64_t b;

	if (op == BPF_CALL)
		return check_call(c, sec, idx, in, s);
	if (op == BPF_EXIT)
		return 0;
	if (op == BPF_JA)
		return push(c, sec, idx + 1 + (is64 ? in->off : in->imm), s);
	b = BPF_SRC(in->code) == BPF_K ? (uint64_t)(int64_t)imm_of(in, r) :
	    (known(s, src) ? s->v[src] : 0);
	taken = known(s, dst) && (BPF_SRC(in->code) == BPF_K || known(s, src)) ?
		cond(op, s->v[dst], b, is64) : -1;
	/* decided at load by a value check does not know: the
	 * verifier walks one side only, check cannot say which */
	if (taken < 0 && (is_lconst(s, dst) ||
			  (BPF_SRC(in->code) == BPF_X && is_lconst(s, src))))
		s->uncertain = true;
	if (taken != 0 && (ret = push(c, sec, idx + 1 + in->off, s)))
		return ret;
	if (taken != 1)
		return push(c, sec, idx + 1, s);
	return 0;
}

/* Step from @sec:@idx in state @s (a copy): a poisoned instruction reached
 * is a problem (and the path's end); else its class's check_*. */
static int step(struct ctx *c, size_t sec, size_t idx, struct rstate s)
{
	const struct sec *S = &c->secs[sec];
	const struct bpf_insn *in = &S->insns[idx];
	const struct crelo *r = S->res ? S->res[idx] : NULL;

	c->cur_sec = sec;
	c->ft = idx + (in->code == (BPF_LD | BPF_IMM | BPF_DW) ? 2 : 1);
	if (r && r->outcome == RC_POISON)
		return relo_problem(c, sec, idx, r);
	switch (BPF_CLASS(in->code)) {
	case BPF_LD:
		return check_ld(c, sec, idx, in, r, &s);
	case BPF_LDX:
		return check_ldx(c, sec, idx, in, r, &s);
	case BPF_ST:
	case BPF_STX:
		return check_st(c, sec, idx, in, &s);
	case BPF_ALU:
	case BPF_ALU64:
		return check_alu(c, sec, idx, in, r, &s);
	case BPF_JMP:
	case BPF_JMP32:
		return check_jmp(c, sec, idx, in, r, &s);
	}
	return 0;
}

/* Walk program @sec:@entry (r1: its context) to every instruction it
 * reaches, adding to c->prog the problems met on the way.  0 or -ENOMEM. */
int chk_walk(struct ctx *c, size_t sec, size_t entry)
{
	size_t i;
	int ret;

	/* what the last walk kept, forgotten (a probe's hundreds of
	 * programs share one .text of 10^5 instructions: clearing them all
	 * for each program was most of check's time) */
	for (i = 0; i < c->nseen; i++)
		c->slot[c->seen[i].sec][c->seen[i].idx] &= WALK_HEAD;
	c->nseen = 0;
	c->npool = 0;
	c->nwl = 0;
	c->ctx_hi = 0;
	c->scalar_deref = false;
	c->has_next = false;
	c->cur_sec = 0;		/* no step is being made */
	{
		struct rstate st = { 0 };

		if (c->nsecs < EXT_PTR)
			set_ptr(&st, 1, CTX_PTR, 0);	/* r1: the context */
		ret = push(c, sec, entry, &st);
	}
	while (!ret && c->nwl) {
		struct work w = c->wl[--c->nwl];
		struct rstate s = c->pool[(c->slot[w.sec][w.idx] & WALK_SLOT) - 1];

		/* from a join point, on through the instructions that have
		 * one way in */
		for (;;) {
			ret = step(c, w.sec, w.idx, s);
			if (ret || !c->has_next)
				break;
			c->has_next = false;
			w.idx = c->ft;
			s = c->next;
		}
		c->has_next = false;
		c->cur_sec = 0;
	}
	return ret;
}
