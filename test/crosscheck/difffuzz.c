// SPDX-License-Identifier: MIT
/*
 * difffuzz.c - a differential libFuzzer target: relocore's CO-RE engine
 * against libbpf 1.1's own (Debian's libbpf.a, the internals the crosscheck
 * oracle calls: libbpf_core.h).
 *
 * An input is "LEN(4 bytes, little-endian) TARGET OBJECT": TARGET is LEN
 * bytes of raw BTF (the target kernel's), OBJECT a BPF ELF object with
 * .BTF and .BTF.ext.  Per input:
 *
 *   relocore: rc_object_open_mem, the target parsed with btf__new and
 *             read in place by rc_target_open_mem and checked whole
 *             (rc_target_check), rc_object_relocate (candidates
 *             cached and narrowed per local type, as a tool's start does),
 *             then every decision applied with rc_core_patch to a copy of
 *             its original instruction(s);
 *   libbpf:   for the same records (relocore's reading of .BTF.ext), with
 *             the same two struct btf: bpf_core_add_cands once per local
 *             type (the list kept and narrowed by libbpf for the object),
 *             bpf_core_calc_relo_insn and bpf_core_patch_insn on a copy.
 *
 * and every relocation is compared with the crosscheck's rules (README.md):
 * result (ok, poisoned, error), new value of ok ones, old value where libbpf
 * validates it, target type id, target access path and bit offset, and the
 * patched or poisoned instruction bytes.  A disagreement prints both sides
 * and aborts: libFuzzer keeps the input.
 *
 * Skipped and counted (printed at exit, "difffuzz: ..."): inputs that are
 * not a pair; targets libbpf's btf__new cannot parse; targets and objects
 * relocore refuses as malformed (rc_target_open_mem + rc_target_check and the object readers:
 * relocore's documented stricter checks; the fuzzer does not judge them);
 * relocations on which libbpf itself crashes (SIGSEGV, SIGBUS, SIGFPE: it
 * divides by a bitfield's 0-byte type) or loops
 * (more than DIFF_LIBBPF_CPU_MS of CPU in one call; libbpf 1.1's
 * btf__align_of() recurses forever on an array that contains itself):
 * those are caught with a signal handler and the input's remaining
 * relocations are not compared.
 *
 * The mutator (LLVMFuzzerCustomMutator) keeps the layout valid: most
 * mutations edit one field in place, through a BTF walker, in the target
 * BTF or the object's .BTF (a type's name, a member's name, offset or type,
 * an int's size or encoding, an array's length, an enumerator's value, a
 * kind turned into one of the same record size), an access string of the
 * object ("0:1:2"), a name cut short ("foo___v2" -> "foo"), or a .BTF.ext
 * record (its kind, type or access string); the others are libFuzzer's byte
 * mutations of the target part, in place.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "libbpf_core.h"
#include "relocore.h"

#ifndef DIFF_LIBBPF_CPU_MS
#define DIFF_LIBBPF_CPU_MS 500
#endif

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static struct {
	unsigned long inputs, not_pair, targ_unparsed, targ_refused, obj_refused,
		no_relos, cyclic, relocore_aborted, libbpf_crashed, libbpf_looped,
		pairs, relos, known_signed;
} st;

static void print_stats(void)
{
	fprintf(stderr,
		"difffuzz: %lu inputs, %lu compared (%lu relocations), skipped: "
		"%lu not a pair, %lu target unparsed by libbpf, %lu target refused by relocore, "
		"%lu object refused by relocore, %lu without relocations, %lu cyclic BTF, "
		"%lu relocore aborted, "
		"%lu libbpf crashed, %lu libbpf looped; known: %lu FIELD_SIGNED of a non-int\n",
		st.inputs, st.pairs, st.relos, st.not_pair, st.targ_unparsed, st.targ_refused,
		st.obj_refused, st.no_relos, st.cyclic, st.relocore_aborted, st.libbpf_crashed,
		st.libbpf_looped, st.known_signed);
}

static char last_warn[512];

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN)
		vsnprintf(last_warn, sizeof(last_warn), fmt, ap);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	libbpf_set_print(print_fn);
	elf_version(EV_CURRENT);
	atexit(print_stats);
	return 0;
}

/* ---- guarding the calls into libbpf ---- */

static sigjmp_buf guard_jmp;
static volatile sig_atomic_t guard_sig;

static void guard_handler(int sig)
{
	guard_sig = sig;
	siglongjmp(guard_jmp, 1);
}

struct guard {
	struct sigaction segv, bus, fpe, vtalrm;
};

static void guard_arm(struct guard *g)
{
	struct sigaction sa = { .sa_handler = guard_handler };
	struct itimerval it = { .it_value = { DIFF_LIBBPF_CPU_MS / 1000,
					      DIFF_LIBBPF_CPU_MS % 1000 * 1000 } };

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, &g->segv);
	sigaction(SIGBUS, &sa, &g->bus);
	sigaction(SIGFPE, &sa, &g->fpe);
	sigaction(SIGVTALRM, &sa, &g->vtalrm);
	setitimer(ITIMER_VIRTUAL, &it, NULL);
}

static void guard_disarm(struct guard *g)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_VIRTUAL, &off, NULL);
	sigaction(SIGSEGV, &g->segv, NULL);
	sigaction(SIGBUS, &g->bus, NULL);
	sigaction(SIGFPE, &g->fpe, NULL);
	sigaction(SIGVTALRM, &g->vtalrm, NULL);
}

/* ---- the object's sections (the original instructions) ---- */

static const unsigned char *section_bytes(Elf *elf, const char *name, size_t *size)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!n || strcmp(n, name))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			return NULL;
		*size = d->d_size;
		return d->d_buf;
	}
	return NULL;
}

/* ---- one side's verdict ---- */

enum result { V_OK, V_POISONED, V_ERROR };
static const char *const result_str[] = { "ok", "poisoned", "error" };

struct verdict {
	enum result result;
	uint64_t old_val, new_val;
	bool validate;
	uint32_t targ_type_id;		/* 0: none */
	char targ_raw[256];		/* "0:5:1" */
	uint32_t targ_bit_offset;
	struct bpf_insn insn[2];	/* patched copy */
	int npatched;			/* 0: not patched */
	char why[300];
};

static void raw_str(char *buf, size_t sz, const int *raw, int n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int k = 0; k < n && len < sz - 12; k++)
		len += snprintf(buf + len, sz - len, "%s%d", k ? ":" : "", raw[k]);
}

/*
 * The program sections, as each side patches them: relocation after
 * relocation, in place, as libbpf's loader and rc_object_relocate do (a
 * second relocation of one instruction sees what the first made of it).
 */
struct work_sec {
	const char *name;
	struct bpf_insn *rc, *lb;
	size_t cnt;
};

static struct work_sec *work_sec(Elf *elf, struct work_sec **v, size_t *n, const char *name)
{
	const unsigned char *bytes;
	struct work_sec *w;
	size_t size = 0;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name))
			return (*v)[i].cnt ? &(*v)[i] : NULL;
	w = realloc(*v, (*n + 1) * sizeof(**v));
	if (!w)
		abort();
	*v = w;
	w = &w[(*n)++];
	memset(w, 0, sizeof(*w));
	w->name = name;
	bytes = section_bytes(elf, name, &size);
	if (!bytes || size < 8)
		return NULL;
	w->cnt = size / 8;
	w->rc = malloc(w->cnt * 8);
	w->lb = malloc(w->cnt * 8);
	if (!w->rc || !w->lb)
		abort();
	memcpy(w->rc, bytes, w->cnt * 8);
	memcpy(w->lb, bytes, w->cnt * 8);
	return w;
}

/* relocore's verdict on result @r, its instruction patched in @w. */
static void relocore_verdict(const struct rc_result *r, struct work_sec *w,
			     struct verdict *v)
{
	char err[256] = "";
	int raw[RC_MAX_SPEC_LEN], ret;
	struct bpf_insn *insn;

	memset(v, 0, sizeof(*v));
	v->old_val = r->d.orig_val;
	v->new_val = r->d.new_val;
	v->validate = r->d.validate;
	v->targ_type_id = r->d.targ_type_id;
	if (r->d.targ_type_id) {
		for (int k = 0; k < r->d.targ.raw_len && k < RC_MAX_SPEC_LEN; k++)
			raw[k] = (int)r->d.targ.raw[k];
		raw_str(v->targ_raw, sizeof(v->targ_raw), raw, r->d.targ.raw_len);
		v->targ_bit_offset = r->d.targ.bit_offset;
	}
	snprintf(v->why, sizeof(v->why), "%s", r->patch_err[0] ? r->patch_err : r->d.reason);
	v->result = V_ERROR;
	if (r->d.outcome == RC_ERROR || !w || r->insn_idx >= w->cnt)
		return;
	/* the same call rc_object_relocate made, on the same bytes: the same
	 * answer (a refused patch may have changed the instruction already,
	 * as libbpf's does) */
	v->npatched = r->insn_idx + 1 < w->cnt &&
		      w->rc[r->insn_idx].code == (BPF_LD | BPF_IMM | BPF_DW) ? 2 : 1;
	ret = rc_core_patch(w->rc, w->cnt, r->insn_idx, &r->d, err, sizeof(err));
	if ((ret < 0) != (r->patch_err[0] != 0)) {
		fprintf(stderr, "difffuzz: rc_core_patch %s now, rc_object_relocate said \"%s\"\n",
			ret < 0 ? err : "accepts", r->patch_err);
		abort();
	}
	if (ret < 0) {
		v->npatched = 0;
		return;
	}
	v->result = r->d.outcome == RC_POISON || ret == RC_PATCH_POISONED ? V_POISONED : V_OK;
	insn = &w->rc[r->insn_idx];
	memcpy(v->insn, insn, v->npatched * 8);
}

/* libbpf's verdict, as the oracle computes it (libbpf_oracle.c
 * run_oracle): returns false when libbpf crashed or looped. */
static bool libbpf_verdict(const struct btf *local, const struct btf *targ,
			   const struct rc_result *r, struct bpf_core_cand_list **cache,
			   struct work_sec *w, struct verdict *v)
{
	struct bpf_core_relo relo = {
		.insn_off = r->relo.insn_off, .type_id = r->relo.type_id,
		.access_str_off = r->relo.access_str_off,
		.kind = (enum bpf_core_relo_kind)r->relo.kind,
	};
	static struct bpf_core_spec specs[3];
	static struct bpf_core_relo_res res;
	struct bpf_core_cand_list *volatile cands = NULL;
	struct bpf_insn *insn = w && r->insn_idx < w->cnt ? &w->lb[r->insn_idx] : NULL;
	bool ldimm64 = insn && insn->code == (BPF_LD | BPF_IMM | BPF_DW);
	struct bpf_insn before[2] = {};
	struct guard g;
	int err;

	memset(v, 0, sizeof(*v));
	v->result = V_ERROR;
	if (relo.type_id == 0 || relo.type_id >= btf__type_cnt(local)) {
		snprintf(v->why, sizeof(v->why), "bad local type id %u", relo.type_id);
		return true;
	}
	guard_sig = 0;
	if (sigsetjmp(guard_jmp, 1)) {
		guard_disarm(&g);
		if (guard_sig == SIGVTALRM)
			st.libbpf_looped++;
		else
			st.libbpf_crashed++;
		return false;
	}
	guard_arm(&g);
	if (relo.kind != BPF_CORE_TYPE_ID_LOCAL) {
		cands = cache[relo.type_id];
		if (!cands) {
			const struct btf_type *lt = btf__type_by_id(local, relo.type_id);
			const char *ln = btf__name_by_offset(local, lt->name_off);
			struct bpf_core_cand lc = { .btf = local, .id = relo.type_id };

			if (!ln || !*ln) {
				guard_disarm(&g);
				snprintf(v->why, sizeof(v->why), "anonymous local type");
				return true;
			}
			cands = calloc(1, sizeof(*cands));
			if (!cands || bpf_core_add_cands(&lc, bpf_core_essential_name_len(ln),
							 targ, "vmlinux", 1, cands)) {
				guard_disarm(&g);
				fprintf(stderr, "difffuzz: bpf_core_add_cands failed\n");
				abort();
			}
			cache[relo.type_id] = cands;
		}
	}
	memset(specs, 0, sizeof(specs));
	memset(&res, 0, sizeof(res));
	last_warn[0] = 0;
	err = bpf_core_calc_relo_insn(r->section, &relo, r->relo_idx, local, cands, specs, &res);
	/* an ldimm64 cut short by the section's end: libbpf would write past
	 * it; an error (relocore refuses it) */
	if (!err && insn && !(ldimm64 && r->insn_idx + 1 >= w->cnt)) {
		memcpy(before, insn, ldimm64 ? 16 : 8);
		err = bpf_core_patch_insn(r->section, insn, r->insn_idx, &relo,
					  r->relo_idx, &res) ?: 1;
	}
	guard_disarm(&g);
	snprintf(v->why, sizeof(v->why), "%s", last_warn);
	if (err != 1)
		return true;	/* calc or patch refused, or no instruction */
	v->old_val = res.orig_val;
	v->new_val = res.new_val;
	v->validate = res.validate;
	if (specs[2].btf && relo.kind != BPF_CORE_TYPE_ID_LOCAL) {
		v->targ_type_id = specs[2].root_type_id;
		raw_str(v->targ_raw, sizeof(v->targ_raw), specs[2].raw_spec, specs[2].raw_len);
		v->targ_bit_offset = specs[2].bit_offset;
	}
	v->npatched = ldimm64 ? 2 : 1;
	v->result = res.poison || (insn->code == (BPF_JMP | BPF_CALL) && insn->imm == POISON_IMM &&
				   memcmp(before, insn, 8)) ? V_POISONED : V_OK;
	memcpy(v->insn, insn, v->npatched * 8);
	return true;
}

/* ---- comparing (the crosscheck's rules) ---- */

static void disagree(const struct rc_result *r, const struct verdict *a,
		     const struct verdict *b, const char *what)
{
	fprintf(stderr,
		"difffuzz: DISAGREEMENT: %s: section %s insn #%u %s access \"%s\" local type [%u]\n"
		"  relocore: %s old=%llu new=%llu target [%u] %s bit %u (%s)\n"
		"  libbpf:   %s old=%llu new=%llu target [%u] %s bit %u (%s)\n",
		what, r->section, r->insn_idx, rc_relo_kind_str(r->relo.kind), r->access,
		r->relo.type_id,
		result_str[a->result], (unsigned long long)a->old_val,
		(unsigned long long)a->new_val, a->targ_type_id, a->targ_raw,
		a->targ_bit_offset, a->why,
		result_str[b->result], (unsigned long long)b->old_val,
		(unsigned long long)b->new_val, b->targ_type_id, b->targ_raw,
		b->targ_bit_offset, b->why);
	for (int k = 0; k < a->npatched || k < b->npatched; k++)
		fprintf(stderr, "  insn +%d: relocore %016llx libbpf %016llx\n", k,
			(unsigned long long)*(const uint64_t *)&a->insn[k],
			(unsigned long long)*(const uint64_t *)&b->insn[k]);
	abort();
}

/*
 * libbpf 1.1's FIELD_SIGNED is "an enum with kind_flag, or
 * btf_int_encoding(t) & BTF_INT_SIGNED" for any type t: of a type that is
 * not an int it reads the 32-bit word after the type's header, i.e. a
 * struct's first member name, or, for a kind without a body (a pointer),
 * the next type or, after the last type, the string section ("\0cha" of
 * "\0char": bit 24 set, "signed").  relocore answers 0 for what is neither
 * an int nor an enum.  On real BTF the word read is a name offset or a type
 * id below 2^24 and libbpf answers 0 too.  Known (test/crosscheck/README.md):
 * counted, not compared.
 */
static bool signed_of_non_int(const struct rc_result *r)
{
	const struct rc_spec *ts = &r->d.targ;
	const struct rc_access *acc;
	const struct btf_type *t;
	uint32_t id;

	if (!r->d.targ_type_id || !ts->btf || ts->len < 1)
		return false;
	acc = &ts->steps[ts->len - 1];
	t = rc_btf_type_by_id(ts->btf, acc->type_id);
	if (!t)
		return false;
	if (acc->name && btf_is_composite(t))
		id = btf_members(t)[acc->idx].type;
	else if (btf_is_array(t))
		id = btf_array(t)->type;
	else
		id = acc->type_id;
	for (int k = 0; k < 64; k++) {
		t = rc_btf_type_by_id(ts->btf, id);
		if (!t || !(btf_is_mod(t) || btf_is_typedef(t)))
			break;
		id = t->type;
	}
	return t && !btf_is_int(t) && !btf_is_any_enum(t);
}

static void compare(const struct rc_result *r, const struct verdict *rc,
		    const struct verdict *lb)
{
	unsigned kind = r->relo.kind;

	if (rc->result != lb->result)
		disagree(r, rc, lb, "result");
	if (lb->result == V_ERROR)
		return;
	if (lb->result == V_OK && rc->new_val != lb->new_val) {
		if (kind == BPF_CORE_FIELD_SIGNED && signed_of_non_int(r)) {
			st.known_signed++;
			return;
		}
		disagree(r, rc, lb, "new value");
	}
	if (lb->validate && kind != BPF_CORE_TYPE_ID_LOCAL && rc->old_val != lb->old_val)
		disagree(r, rc, lb, "old value");
	if (lb->result == V_OK && lb->targ_type_id && kind != BPF_CORE_TYPE_ID_LOCAL &&
	    rc->targ_type_id != lb->targ_type_id)
		disagree(r, rc, lb, "target type");
	if (lb->result == V_OK && lb->targ_type_id &&
	    (kind <= BPF_CORE_FIELD_RSHIFT_U64 || kind == BPF_CORE_ENUMVAL_EXISTS ||
	     kind == BPF_CORE_ENUMVAL_VALUE) && strcmp(rc->targ_raw, lb->targ_raw))
		disagree(r, rc, lb, "target access path");
	if (lb->result == V_OK && lb->targ_type_id && kind <= BPF_CORE_FIELD_RSHIFT_U64 &&
	    rc->targ_bit_offset != lb->targ_bit_offset)
		disagree(r, rc, lb, "target bit offset");
	if (rc->npatched != lb->npatched ||
	    memcmp(rc->insn, lb->insn, sizeof(struct bpf_insn) * lb->npatched))
		disagree(r, rc, lb, "patched instruction");
}

/* ---- the domain: BTF the kernel's verifier would accept ---- */

/*
 * Does @btf hold a type that contains itself (through struct/union members,
 * array elements, typedefs and modifiers; a pointer ends the chain)?  The
 * kernel refuses such BTF ("Loop detected"), relocore refuses the
 * relocations that reach one ("malformed type"), and libbpf 1.1 follows
 * them: btf__align_of() recurses until the stack ends, member matching
 * stops at its 64-step spec limit and answers.  Not compared: counted.
 */
static bool btf_has_containment_cycle(const struct btf *btf)
{
	uint32_t n = btf__type_cnt(btf), *stack, top = 0;
	uint8_t *color;	/* 0 new, 1 on the path, 2 done */
	uint32_t *next;	/* per type on the path: next edge to follow */
	bool cyclic = false;

	color = calloc(n, 1);
	stack = calloc(n, sizeof(*stack));
	next = calloc(n, sizeof(*next));
	if (!color || !stack || !next)
		goto out;
	for (uint32_t root = 1; root < n && !cyclic; root++) {
		if (color[root])
			continue;
		stack[top++] = root;
		color[root] = 1;
		while (top && !cyclic) {
			uint32_t id = stack[top - 1], to = 0;
			const struct btf_type *t = btf__type_by_id(btf, id);
			bool more = false;

			switch (btf_kind(t)) {
			case BTF_KIND_STRUCT:
			case BTF_KIND_UNION:
				if (next[id] < btf_vlen(t)) {
					to = btf_members(t)[next[id]++].type;
					more = true;
				}
				break;
			case BTF_KIND_ARRAY:
				if (!next[id]++) {
					to = btf_array(t)->type;
					more = true;
				}
				break;
			case BTF_KIND_TYPEDEF:
			case BTF_KIND_CONST:
			case BTF_KIND_VOLATILE:
			case BTF_KIND_RESTRICT:
			case BTF_KIND_TYPE_TAG:
				if (!next[id]++) {
					to = t->type;
					more = true;
				}
				break;
			default:
				break;
			}
			if (!more) {
				color[id] = 2;
				top--;
				continue;
			}
			if (!to || to >= n || color[to] == 2)
				continue;
			if (color[to] == 1) {
				cyclic = true;
				break;
			}
			color[to] = 1;
			stack[top++] = to;
		}
	}
out:
	free(color);
	free(stack);
	free(next);
	return cyclic;
}

/* DIFFFUZZ_KEEP=DIR: the first inputs libbpf crashed or looped on, per
 * signal, are written there (DIR/libbpf-SIGNAME-N), to study them. */
static void keep_skipped(const uint8_t *data, size_t size, int sig)
{
	static unsigned kept[65];
	const char *dir = getenv("DIFFFUZZ_KEEP");
	char path[4096];
	FILE *f;

	if (!dir || sig < 0 || sig > 64 || kept[sig] >= 5)
		return;
	snprintf(path, sizeof(path), "%s/libbpf-%s-%u", dir, sigabbrev_np(sig) ?: "SIG",
		 kept[sig]++);
	f = fopen(path, "wb");
	if (f) {
		fwrite(data, 1, size, f);
		fclose(f);
	}
}

/* ---- one input ---- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rc_error err = { "" };
	struct btf *targ = NULL;
	struct rc_target *target = NULL;
	struct rc_object *obj = NULL;
	struct bpf_core_cand_list **cache = NULL;
	struct work_sec *secs = NULL;
	size_t nsecs = 0;
	const struct rc_result *res;
	const struct btf *local;
	unsigned char *image = NULL;
	Elf *elf = NULL;
	size_t n, ntypes, i;
	uint32_t len;
	int ret;

	st.inputs++;
	if (size < 4)
		goto not_pair;
	memcpy(&len, data, 4);
	if (len < 24 || len > size - 4 || size - 4 - len < 64)
		goto not_pair;

	targ = btf__new(data + 4, len);
	if (!targ) {
		st.targ_unparsed++;
		return 0;
	}
	/* relocore reads the same bytes in place, as it reads a target file */
	/* its types are checked as decisions read them; here all at once, so
	 * that only targets relocore finds sound are compared */
	target = rc_target_open_mem(data + 4, len, "target", &err);
	if (!target || rc_target_check(target, &err)) {
		st.targ_refused++;
		goto out;
	}
	obj = rc_object_open_mem(data + 4 + len, size - 4 - len, "object", &err);
	if (!obj) {
		st.obj_refused++;
		goto out;
	}
	n = rc_object_relo_count(obj);
	if (!n) {
		st.no_relos++;
		goto out;
	}
	if (btf_has_containment_cycle(targ) || btf_has_containment_cycle(rc_object_btf(obj))) {
		st.cyclic++;
		goto out;
	}
	ret = rc_object_relocate(obj, target, &res, &err);
	n = rc_object_results(obj, &res);
	if (ret) {
		bool refused = false;

		for (i = 0; i < n; i++)
			refused |= res[i].d.outcome == RC_ERROR || res[i].patch_err[0];
		if (!refused) {	/* stopped before deciding everything */
			st.relocore_aborted++;
			goto out;
		}
	}

	/* the original instructions */
	image = malloc(size - 4 - len);
	if (!image)
		goto out;
	memcpy(image, data + 4 + len, size - 4 - len);
	elf = elf_memory((char *)image, size - 4 - len);
	if (!elf)
		goto out;
	local = rc_object_btf(obj);
	ntypes = btf__type_cnt(local);
	cache = calloc(ntypes, sizeof(*cache));
	if (!cache)
		goto out;
	st.pairs++;
	for (i = 0; i < n; i++) {
		const struct rc_result *r = &res[i];
		struct work_sec *w = work_sec(elf, &secs, &nsecs, r->section);
		struct verdict rv, lv;

		if (!libbpf_verdict(local, targ, r, cache, w, &lv)) {
			keep_skipped(data, size, guard_sig);
			break;	/* libbpf crashed or looped: counted */
		}
		relocore_verdict(r, w, &rv);
		st.relos++;
		compare(r, &rv, &lv);
	}
out:
	for (i = 0; i < nsecs; i++) {
		free(secs[i].rc);
		free(secs[i].lb);
	}
	free(secs);
	for (i = 0; cache && i < ntypes; i++)
		if (cache[i])
			bpf_core_free_cands(cache[i]);
	free(cache);
	if (elf)
		elf_end(elf);
	free(image);
	rc_object_free(obj);
	rc_target_free(target);
	btf__free(targ);
	return 0;
not_pair:
	st.not_pair++;
	return 0;
}

/* ---- the structure-aware mutator ---- */

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

struct btf_view {
	uint8_t *types, *strs;	/* within the buffer */
	uint32_t types_len, strs_len;
};

static bool btf_view(uint8_t *p, size_t avail, struct btf_view *v)
{
	uint32_t hdr, toff, tlen, soff, slen;

	if (avail < 24 || p[0] != 0x9f || p[1] != 0xeb)
		return false;
	memcpy(&hdr, p + 4, 4);
	memcpy(&toff, p + 8, 4);
	memcpy(&tlen, p + 12, 4);
	memcpy(&soff, p + 16, 4);
	memcpy(&slen, p + 20, 4);
	if (hdr < 24 || hdr > avail || (uint64_t)hdr + toff + tlen > avail ||
	    (uint64_t)hdr + soff + slen > avail)
		return false;
	v->types = p + hdr + toff;
	v->types_len = tlen;
	v->strs = p + hdr + soff;
	v->strs_len = slen;
	return true;
}

/* Size of the type record at @t (up to @end), 0 if malformed. */
static size_t type_rec_size(const uint8_t *t, const uint8_t *end)
{
	uint32_t info, vlen, kind;
	size_t extra;

	if (end - t < 12)
		return 0;
	memcpy(&info, t + 4, 4);
	kind = (info >> 24) & 0x1f;
	vlen = info & 0xffff;
	switch (kind) {
	case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG: extra = 4; break;
	case BTF_KIND_ARRAY: extra = 12; break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64: extra = (size_t)vlen * 12; break;
	case BTF_KIND_ENUM: case BTF_KIND_FUNC_PROTO: extra = (size_t)vlen * 8; break;
	default: extra = 0; break;
	}
	return (size_t)(end - t) >= 12 + extra ? 12 + extra : 0;
}

/* Collect up to @max type record starts. */
static size_t btf_types(struct btf_view *v, uint8_t **out, size_t max)
{
	uint8_t *t = v->types, *end = v->types + v->types_len;
	size_t n = 0, sz;

	while (t < end && n < max && (sz = type_rec_size(t, end))) {
		out[n++] = t;
		t += sz;
	}
	return n;
}

static void put32(uint8_t *p, uint32_t x) { memcpy(p, &x, 4); }
static uint32_t get32(const uint8_t *p) { uint32_t x; memcpy(&x, p, 4); return x; }

/* Mutate one field of one type of @v.  Returns false if nothing to do. */
static bool mutate_btf(struct btf_view *v, uint32_t *s)
{
	static uint8_t *types[1 << 16];
	size_t n = btf_types(v, types, sizeof(types) / sizeof(types[0]));
	uint8_t *t, *m;
	uint32_t info, kind, vlen, other;

	if (!n)
		return false;
	t = types[rnd(s) % n];
	info = get32(t + 4);
	kind = (info >> 24) & 0x1f;
	vlen = info & 0xffff;
	other = get32(types[rnd(s) % n]);	/* another type's name_off */
	switch (rnd(s) % 8) {
	case 0:		/* rename: another type's name, or none */
		put32(t, rnd(s) % 4 ? other : 0);
		return true;
	case 1:		/* the kind, into one with a record of the same size */
		if (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION)
			kind = kind == BTF_KIND_STRUCT ? BTF_KIND_UNION : BTF_KIND_STRUCT;
		else if (kind == BTF_KIND_PTR || kind == BTF_KIND_TYPEDEF ||
			 kind == BTF_KIND_CONST || kind == BTF_KIND_VOLATILE ||
			 kind == BTF_KIND_RESTRICT || kind == BTF_KIND_TYPE_TAG ||
			 kind == BTF_KIND_FWD || kind == BTF_KIND_FLOAT) {
			static const uint32_t same[] = { BTF_KIND_PTR, BTF_KIND_TYPEDEF,
				BTF_KIND_CONST, BTF_KIND_VOLATILE, BTF_KIND_RESTRICT,
				BTF_KIND_TYPE_TAG, BTF_KIND_FWD, BTF_KIND_FLOAT };
			kind = same[rnd(s) % 8];
		}
		info = (info & ~(0x1fu << 24)) | kind << 24;
		if (rnd(s) % 2)
			info ^= 1u << 31;	/* kind_flag */
		put32(t + 4, info);
		return true;
	case 2:		/* size or referenced type */
		put32(t + 8, rnd(s) % 2 ? get32(t + 8) + (rnd(s) % 9) - 4 : rnd(s) % (n + 2));
		return true;
	default:
		break;
	}
	/* a field of the record's body */
	switch (kind) {
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		if (!vlen)
			return false;
		m = t + 12 + (rnd(s) % vlen) * 12;
		switch (rnd(s) % 4) {
		case 0: put32(m, other); break;				/* member name */
		case 1: put32(m + 4, rnd(s) % (n + 2)); break;		/* member type */
		case 2: put32(m + 8, get32(m + 8) + (rnd(s) % 17) - 8); break;	/* bit offset */
		default: put32(m + 8, get32(m + 8) ^ (1u << (rnd(s) % 32))); break;
		}
		return true;
	case BTF_KIND_ENUM:
		if (!vlen)
			return false;
		m = t + 12 + (rnd(s) % vlen) * 8;
		if (rnd(s) % 2)
			put32(m, other);
		else
			put32(m + 4, get32(m + 4) + (rnd(s) % 5) - 2);
		return true;
	case BTF_KIND_ENUM64:
		if (!vlen)
			return false;
		m = t + 12 + (rnd(s) % vlen) * 12;
		put32(m + 4 + 4 * (rnd(s) % 2), rnd(s));
		return true;
	case BTF_KIND_INT:	/* encoding, offset, bits */
		put32(t + 12, get32(t + 12) ^ (1u << (rnd(s) % 32)));
		return true;
	case BTF_KIND_ARRAY:	/* element type, index type, length */
		m = t + 12 + 4 * (rnd(s) % 3);
		put32(m, rnd(s) % 2 ? rnd(s) % (n + 2) : get32(m) + (rnd(s) % 5) - 2);
		return true;
	default:
		put32(t + 8, rnd(s) % (n + 2));
		return true;
	}
}

/* An access string of the object: a digit changed, or cut short. */
static bool mutate_access(struct btf_view *v, uint32_t *s)
{
	uint32_t starts[4096], n = 0, off = 0;

	while (off < v->strs_len && n < 4096) {
		uint32_t e = off;

		while (e < v->strs_len && v->strs[e])
			e++;
		if (e > off && v->strs[off] >= '0' && v->strs[off] <= '9')
			starts[n++] = off;
		off = e + 1;
	}
	if (!n)
		return false;
	off = starts[rnd(s) % n];
	{
		uint32_t e = off;

		while (e < v->strs_len && v->strs[e])
			e++;
		off += rnd(s) % (e - off);
		if (v->strs[off] == ':')
			v->strs[off] = rnd(s) % 2 ? 0 : '0' + rnd(s) % 10;
		else
			v->strs[off] = '0' + rnd(s) % 10;
	}
	return true;
}

/* A .BTF.ext core_relo record: its kind, type or access string. */
static bool mutate_ext(uint8_t *ext, size_t size, uint32_t nlocal, uint32_t *s)
{
	uint32_t hdr, off, len, rec;
	uint8_t *p, *end, *recs[1024];
	size_t n = 0;

	if (size < 32 || (get32(ext) & 0xffff) != 0xeb9f)
		return false;
	hdr = get32(ext + 4);
	off = get32(ext + 24);
	len = get32(ext + 28);
	if (hdr < 32 || (uint64_t)hdr + off + len > size || len < 4)
		return false;
	p = ext + hdr + off;
	end = p + len;
	rec = get32(p);
	if (rec < 16 || rec > 64)
		return false;
	p += 4;
	while (p + 8 <= end && n < 1024) {
		uint32_t num = get32(p + 4);

		p += 8;
		for (uint32_t i = 0; i < num && p + rec <= end && n < 1024; i++, p += rec)
			recs[n++] = p;
		if (p + rec > end)
			break;
	}
	if (!n)
		return false;
	p = recs[rnd(s) % n];
	switch (rnd(s) % 3) {
	case 0: put32(p + 12, rnd(s) % 13); break;			/* kind */
	case 1: put32(p + 4, 1 + rnd(s) % (nlocal ? nlocal : 1)); break;	/* type */
	default: put32(p + 8, get32(recs[rnd(s) % n] + 8)); break;	/* access */
	}
	return true;
}

/* The object's section @name (in a buffer of @size bytes). */
static uint8_t *elf_section(uint8_t *o, size_t size, const char *name, size_t *secsz)
{
	uint64_t shoff;
	uint16_t shentsize, shnum, shstrndx;
	const uint8_t *strsh;
	uint64_t stroff, strsz;

	if (size < 64 || memcmp(o, "\177ELF\2\1", 6))
		return NULL;
	memcpy(&shoff, o + 0x28, 8);
	memcpy(&shentsize, o + 0x3a, 2);
	memcpy(&shnum, o + 0x3c, 2);
	memcpy(&shstrndx, o + 0x3e, 2);
	if (shentsize != 64 || shstrndx >= shnum || shoff > size ||
	    (uint64_t)shnum * 64 > size - shoff)
		return NULL;
	strsh = o + shoff + (uint64_t)shstrndx * 64;
	memcpy(&stroff, strsh + 0x18, 8);
	memcpy(&strsz, strsh + 0x20, 8);
	if (stroff > size || strsz > size - stroff)
		return NULL;
	for (uint16_t i = 0; i < shnum; i++) {
		const uint8_t *sh = o + shoff + (uint64_t)i * 64;
		uint32_t nm = get32(sh);
		uint64_t off, sz;

		memcpy(&off, sh + 0x18, 8);
		memcpy(&sz, sh + 0x20, 8);
		if (nm >= strsz || off > size || sz > size - off)
			continue;
		if (strnlen((const char *)o + stroff + nm, strsz - nm) < strsz - nm &&
		    !strcmp((const char *)o + stroff + nm, name)) {
			*secsz = sz;
			return o + off;
		}
	}
	return NULL;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	uint32_t s = seed | 1, len;
	struct btf_view v;
	uint8_t *obj, *sec;
	size_t osz, secsz;

	if (size < 4 || (memcpy(&len, data, 4), len > size - 4))
		return LLVMFuzzerMutate(data, size, max_size);
	obj = data + 4 + len;
	osz = size - 4 - len;
	for (int k = 1 + rnd(&s) % 3; k > 0; k--) {
		switch (rnd(&s) % 8) {
		case 0: case 1: case 2:	/* the target's types */
			if (btf_view(data + 4, len, &v))
				mutate_btf(&v, &s);
			break;
		case 3:			/* the object's types */
			if ((sec = elf_section(obj, osz, ".BTF", &secsz)) &&
			    btf_view(sec, secsz, &v))
				mutate_btf(&v, &s);
			break;
		case 4:			/* an access string */
			if ((sec = elf_section(obj, osz, ".BTF", &secsz)) &&
			    btf_view(sec, secsz, &v))
				mutate_access(&v, &s);
			break;
		case 5:			/* a core_relo record */
			if ((sec = elf_section(obj, osz, ".BTF.ext", &secsz))) {
				uint8_t *bsec;
				size_t bsz;
				uint8_t *ts[1 << 12];
				uint32_t nl = 0;

				if ((bsec = elf_section(obj, osz, ".BTF", &bsz)) &&
				    btf_view(bsec, bsz, &v))
					nl = btf_types(&v, ts, sizeof(ts) / sizeof(ts[0]));
				mutate_ext(sec, secsz, nl, &s);
			}
			break;
		case 6:			/* bytes of the target, in place */
			if (len)
				LLVMFuzzerMutate(data + 4, len, len);
			break;
		default:		/* a name of either side cut short ("foo___v2" -> "foo") */
			if (rnd(&s) % 2 ? btf_view(data + 4, len, &v) :
			    ((sec = elf_section(obj, osz, ".BTF", &secsz)) && btf_view(sec, secsz, &v))) {
				if (v.strs_len > 2) {
					uint32_t o = 1 + rnd(&s) % (v.strs_len - 1);

					if (v.strs[o] && v.strs[o - 1])
						v.strs[o] = 0;
				}
			}
			break;
		}
	}
	return size;
}
