// SPDX-License-Identifier: MIT
/*
 * check.c - will this object load and attach on that kernel, decided
 * offline from the object and the target's BTF (relocore check): the
 * rc_check_* entry points (loader/relocore.h), the object as check reads
 * it (its ELF sections, symbols and relocations), and the driver that runs
 * the checks below on each program and gathers their problems.
 *
 * Per program (a FUNC symbol of an executable section other than .text):
 *   relocation    every relocation is decided by the engine, not applied
 *                 (rc_object_decide_each); a poisoned instruction is a
 *                 problem only when it is reachable from the program's
 *                 entry.  Reachability walks the instructions propagating
 *                 known constants (immediates, ld_imm64 values, relocated
 *                 EXISTS/enum/size results) through ALU ops and
 *                 conditional jumps, so a branch whose outcome is decided
 *                 by a constant takes only that edge, as the verifier
 *                 prunes dead code; anything unknown takes both.  Calls to BPF subprograms (and callbacks taken by
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
 *
 * Where each check is:
 *   walk.c        relocation (reachable poison), helper, a weak kfunc's
 *                 reachable call; the context reads attach.c judges
 *   attach.c      attach, program_type, and reads past the context
 *   maps.c        map, and the legacy "maps" section (open)
 *   externs.c     kfunc and __ksym externs, externs libbpf cannot open
 *   target_btf.c  the lookups in the target's BTF they all make
 *   check.c       refused relocations, .kconfig values; what the target
 *                 cannot decide (notes); the options (rc_check_opts)
 * check_internal.h holds what they share (struct ctx).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"

/* @name is in @list: one of its names, or matches one of its shell globs
 * (fnmatch), as run's options match */
bool chk_listed(const char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] && !fnmatch(list[i], name, 0))
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

/* @base, an array of @n elements of @size bytes, with one more: zeroed, at
 * [@n].  NULL when out of memory (@base is then as it was). */
static void *grow(void *base, int n, size_t size)
{
	char *more = realloc(base, size * (n + 1));

	if (more)
		memset(more + size * n, 0, size);
	return more;
}

int chk_problem(struct rc_check_prog *p, enum rc_check_kind kind,
		bool needs, int sec_insn, const char *fmt, ...)
{
	struct rc_check_problem *q;
	va_list ap;
	int i;

	for (i = 0; sec_insn >= 0 && i < p->nr_problems; i++)
		if (p->problems[i].kind == kind && p->problems[i].insn == sec_insn)
			return 0;	/* one problem per instruction */
	q = grow(p->problems, p->nr_problems, sizeof(*q));
	if (!q)
		return -ENOMEM;
	p->problems = q;
	q += p->nr_problems++;
	q->kind = kind;
	q->needs = needs;
	q->insn = sec_insn;
	va_start(ap, fmt);
	vsnprintf(q->detail, sizeof(q->detail), fmt, ap);
	va_end(ap);
	p->ok = false;
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
			/* libbpf's read-only data maps (BPF_F_RDONLY_PROG,
			 * frozen once written): the verifier reads their
			 * bytes as constants */
			s->konst = (!strcmp(s->name, ".rodata") ||
				    !strncmp(s->name, ".rodata.", 8)) &&
				   !(sh->flags & SHF_WRITE);
		}
		if (rc_elf_sec_is_code(sh)) {
			s->exec = true;
			s->off = sh->off;
			s->size = sh->size;
			s->insns = (const void *)(buf + sh->off);
			s->n = sh->size / sizeof(struct bpf_insn);
			/* read them aligned, in the host's byte order */
			if (((uintptr_t)s->insns % 8 || rc_object_swapped(c->obj)) && s->n) {
				s->copy = malloc(s->n * sizeof(*s->copy));
				if (!s->copy)
					goto nomem;
				memcpy(s->copy, buf + sh->off, s->n * sizeof(*s->copy));
				if (rc_object_swapped(c->obj))
					rc_insns_swap(s->copy, s->n);
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
	/* what user space writes into the variables of the read-only data
	 * before the load (where the symbol table puts them: the BTF's
	 * offsets are clang's zeros until libbpf fixes them up) */
	for (i = 0; i < c->opts->nr_sets; i++) {
		const struct rc_check_set *set = &c->opts->sets[i];
		const struct sym *y = NULL;
		struct sec *s;

		for (k = 0; k < c->nsyms && !y; k++)
			if (set->name && c->syms[k].type == STT_OBJECT &&
			    !strcmp(c->syms[k].name, set->name))
				y = &c->syms[k];
		if (!y || y->shndx >= c->nsecs || !c->secs[y->shndx].konst)
			continue;	/* writable data: not a constant to the verifier */
		s = &c->secs[y->shndx];
		if (set->size != y->size || y->value > s->data_size ||
		    set->size > s->data_size - y->value) {
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: check: a value of %zu bytes set for %s, a variable of %llu bytes at offset %llu of section %s (%zu bytes)",
			       rc_object_name(c->obj), set->size, set->name,
			       (unsigned long long)y->size, (unsigned long long)y->value, s->name,
			       s->data_size);
			return -EINVAL;
		}
		if (!s->data_copy) {
			s->data_copy = malloc(s->data_size);
			if (!s->data_copy)
				goto nomem;
			memcpy(s->data_copy, s->data, s->data_size);
			s->data = s->data_copy;
		}
		memcpy(s->data_copy + y->value, set->data, set->size);
	}
	return 0;
nomem:
	rc_fmt(err->msg, sizeof(err->msg), "out of memory");
	return -ENOMEM;
}

/* The object's problems, for the answer itself (they are found once:
 * object_problems copies them to each program). */
static int object_problems(struct ctx *c, struct rc_check_prog *p);

static int whole_object_problems(struct ctx *c, struct rc_check *out)
{
	struct rc_check_prog whole = { 0 };
	int ret = object_problems(c, &whole);

	out->nr_problems = whole.nr_problems;
	out->problems = whole.problems;
	return ret;
}

static size_t sec_by_name(const struct ctx *c, const char *name)
{
	size_t i;

	for (i = 1; i < c->nsecs; i++)
		if (c->secs[i].exec && !strcmp(c->secs[i].name, name))
			return i;
	return 0;
}

/* ---- every program's problems: what fails the whole object ---- */

/* What libbpf refuses at open or load of the object: externs, maps. */
/* The object's problems are every program's: found once per check (they
 * read the whole ELF and BTF), then copied to each program. */
static int object_problems(struct ctx *c, struct rc_check_prog *p)
{
	const struct rc_check_problem *q;
	int i, ret;

	if (!c->objp_done) {
		ret = chk_extern_problems(c, &c->objp) ?: chk_map_problems(c, &c->objp) ?:
		      chk_open_problems(c, &c->objp);
		if (ret)
			return ret;
		c->objp_done = true;
	}
	for (i = 0, q = c->objp.problems; i < c->objp.nr_problems; i++, q++)
		if ((ret = chk_problem(p, q->kind, q->needs, q->insn, "%s", q->detail)))
			return ret;
	return 0;
}

/* Relocations the engine refused fail the whole object at load. */
static int refused_problems(struct ctx *c, struct rc_check_prog *p)
{
	size_t i, left = c->nrefused;
	int ret;

	for (i = 0; i < c->ncrelos && left; i++) {
		const struct crelo *r = &c->crelos[i];

		if (!r->refused)
			continue;
		left--;
		ret = chk_problem(p, RC_CHECK_RELOCATION, false, -1,
				  "section %s insn #%u %s (refused: libbpf refuses the whole object)",
				  r->section, r->insn_idx, r->what);
		if (ret)
			return ret;
	}
	return 0;
}

/* Keep what the walk needs of relocation @i: its value, and for one that
 * is not plainly applied its words for messages; each instruction's slot
 * holds its result (a refused or poisoned one over an applied one). */
static int keep_result(void *ctx, const struct rc_result *r, size_t i)
{
	struct ctx *c = ctx;
	struct crelo *k = &c->crelos[i];
	const struct crelo **slot;
	size_t s;

	*k = (struct crelo){ r->d.outcome, r->d.outcome == RC_ERROR || r->patch_err[0],
			     r->insn_idx, r->d.new_val, r->section, NULL };
	if (k->refused)
		c->nrefused++;
	if (k->outcome != RC_OK || k->refused) {
		char acc[200];

		rc_spec_format(&r->d.local, acc, sizeof(acc));
		if (asprintf(&k->what, "%s %s: %s", rc_relo_kind_str(r->relo.kind),
			     acc[0] ? acc : r->access,
			     r->patch_err[0] ? r->patch_err : r->d.reason) < 0) {
			k->what = NULL;
			return -ENOMEM;
		}
	}
	/* relocations come section by section: the last one's is likely */
	s = c->last_sec && !strcmp(c->secs[c->last_sec].name, r->section) ?
	    c->last_sec : sec_by_name(c, r->section);
	c->last_sec = s;
	if (!s || r->insn_idx >= c->secs[s].n)
		return 0;
	slot = &c->secs[s].res[r->insn_idx];
	if (!*slot || k->outcome != RC_OK)
		*slot = k;
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
	if (c->no_funcs && c->vml && rc_btf_base(c->vml))
		c->no_funcs = rc_btf_for_each_type(rc_btf_base(c->vml), has_func, NULL) <= 0;
	for (i = 0; c->no_funcs && i < rc_target_nr_modules(c->tg); i++)
		c->no_funcs = rc_btf_for_each_type(rc_target_module(c->tg, i, NULL),
						   has_func, NULL) <= 0;
	if (c->no_funcs)
		note(out, "attach points: the target BTF has no FUNC (minimized?)");
	if (!c->helpers)
		note(out, "helpers: the target BTF has no enum bpf_func_id (minimized?)");
	if (!chk_target_enum(c, "bpf_map_type"))
		note(out, "map types: the target BTF has no enum bpf_map_type");
	if (!chk_target_enum(c, "bpf_prog_type"))
		note(out, "program types: the target BTF has no enum bpf_prog_type");
	for (i = 0; i < (int)c->nsyms; i++) {
		const struct sym *sy = &c->syms[i];
		enum ext_kind k;
		char buf[200];

		if (sy->shndx || !sy->name[0] || sy->bind == STB_LOCAL)
			continue;
		k = chk_ext_kind(c, sy->name);
		if (k == EXT_KCONFIG)
			rc_fmt(buf, sizeof(buf), ".kconfig externs (first: %s): the target's values are not known (give --kernel-release, --kconfig)",
			       sy->name);
		else if (k == EXT_KSYM_UNTYPED && sy->bind == STB_GLOBAL &&	/* weak: 0 if absent */
			 chk_ext_present(c, sy, k) < 0)
			rc_fmt(buf, sizeof(buf), chk_target_has(c, sy->name, BTF_KIND_VAR, NULL) ?
			       "untyped __ksym externs (first: %s): variables, in kallsyms only with CONFIG_KALLSYMS_ALL (give --kconfig): not checked" :
			       "untyped __ksym externs (first: %s): not in the target BTF (their addresses come from kallsyms at load): not checked",
			       sy->name);
		else if ((k == EXT_KFUNC || k == EXT_KSYM_TYPED) && chk_ext_present(c, sy, k) < 0)
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
	struct rc_check_prog *p = grow(out->progs, out->nr_progs, sizeof(*p));

	if (!p)
		return -ENOMEM;
	out->progs = p;
	p += out->nr_progs++;
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
		free(c->secs[i].data_copy);
		free(c->secs[i].res);
		if (c->slot)
			free(c->slot[i]);
	}
	free(c->slot);
	free(c->pool);
	for (i = 0; c->crelos && i < c->ncrelos; i++)
		free(c->crelos[i].what);
	free(c->crelos);
	free(c->seen);
	chk_target_lookups_free(c->tl);
	free(c->tl);
	free(c->secs);
	free(c->syms);
	free(c->helpers);
	free(c->wl);
	free(c->objp.problems);
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
		chk_attach(c, buf);
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
		     size_t entry, const char *name)
{
	const struct rc_check_opts *o = c->opts;
	struct rc_check_prog *p;
	const char *asec;
	char buf[300];
	int ret, i;
	bool attach_problem = false;

	/* SEC("?..."): libbpf does not load it unless user space asks */
	if (chk_listed(o->no_autoload, o->nr_no_autoload, name) || c->secs[sec].name[0] == '?')
		return 0;
	ret = add_prog(out, name, c->secs[sec].name);
	if (ret)
		return ret;
	p = c->prog = &out->progs[out->nr_progs - 1];
	asec = effective_section(c, name, c->secs[sec].name, buf, sizeof(buf));
	chk_ctx_types(c, asec);
	ret = refused_problems(c, p) ?: object_problems(c, p) ?:
	      chk_attach(c, asec) ?: chk_walk(c, sec, entry) ?: chk_ctx_bound(c, asec);
	if (ret)
		return ret;
	/* user space attaches it itself: what the section says does not count */
	if (chk_listed(o->user_attached, o->nr_user_attached, name)) {
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
	if (attach_problem && chk_listed(o->optional, o->nr_optional, name)) {
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

/* The programs: FUNC symbols of executable sections other than .text (a
 * section without one is one program, named after it), @fn called on
 * each in the object's order.  0 or @fn's error. */
static int each_prog(struct ctx *c, struct rc_check *out,
		     int (*fn)(struct ctx *c, struct rc_check *out, size_t sec,
			       size_t entry, const char *name))
{
	size_t i, j;
	int ret;

	for (i = 1; i < c->nsecs; i++) {
		bool any = false;

		if (!c->secs[i].exec || !strcmp(c->secs[i].name, ".text"))
			continue;
		for (j = 0; j < c->nsyms; j++) {
			const struct sym *s = &c->syms[j];

			if (s->shndx != i || s->type != STT_FUNC || s->value % 8)
				continue;
			any = true;
			ret = fn(c, out, i, s->value / 8, s->name);
			if (ret)
				return ret;
		}
		if (!any && c->secs[i].n && (ret = fn(c, out, i, 0, c->secs[i].name)))
			return ret;
	}
	return 0;
}

/* Program @name of @sec into out->not_loaded unless it is the next one of
 * out->progs (those loaded, in the same order, c->nkept of them passed) */
static int list_not_loaded(struct ctx *c, struct rc_check *out, size_t sec,
			   size_t entry, const char *name)
{
	const struct rc_check_prog *k = c->nkept < (size_t)out->nr_progs ?
					&out->progs[c->nkept] : NULL;
	struct rc_check_prog *p;

	(void)entry;
	if (k && !strcmp(k->name, name) && !strcmp(k->section, c->secs[sec].name)) {
		c->nkept++;
		return 0;
	}
	p = grow(out->not_loaded, out->nr_not_loaded, sizeof(*p));
	if (!p)
		return -ENOMEM;
	out->not_loaded = p;
	p += out->nr_not_loaded++;
	memset(p, 0, sizeof(*p));
	p->name = strdup(name);
	/* its section as libbpf names it: without the '?' */
	p->section = strdup(c->secs[sec].name + (c->secs[sec].name[0] == '?'));
	return p->name && p->section ? 0 : -ENOMEM;
}

/* each map's type as the target's enum bpf_map_type names it ("array" for
 * BPF_MAP_TYPE_ARRAY, as libbpf_bpf_map_type_str does) */
static void map_type_names(struct ctx *c, struct rc_check *out)
{
	const struct btf_type *e = chk_target_enum(c, "bpf_map_type");
	int i;

	for (i = 0; i < out->nr_maps; i++) {
		struct rc_check_map *m = &out->maps[i];
		const char *n = chk_enum_name(c, e, m->type);
		char *p;

		if (!n || strncmp(n, "BPF_MAP_TYPE_", 13))
			continue;
		rc_fmt(m->type_name, sizeof(m->type_name), "%s", n + 13);
		for (p = m->type_name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	}
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
	struct rc_check_opts o = { sizeof(o) };
	struct ctx c = { .obj = obj, .tg = target, .vml = rc_target_types(target), .opts = &o };
	struct rc_check *out = calloc(1, sizeof(*out));
	struct rc_error rerr = { "" };
	struct rc_object *baked = NULL;
	size_t i;
	int ret = -ENOMEM, nbaked = 0;

	/* the caller's options, as far as its struct reaches (one built
	 * against an older header is shorter): the rest stay zero */
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	o.sz = sizeof(o);
	if (!out)
		goto fail;
	/* every type of the target: the checks below read many of them */
	if (rc_target_check(target, err)) {
		free(out);
		return NULL;
	}
	/* .kconfig externs with the target's values: loads of them become
	 * loads from a frozen map, whose values prune branches */
	if (kc && (kc->release || kc->config) && rc_object_types(obj) &&
	    rc_btf_find_by_name_kind(rc_object_types(obj), ".kconfig", BTF_KIND_DATASEC) > 0) {
		/* (without .kconfig nothing is baked: no copy of the object) */
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
	if (kc && kc->config &&
	    memmem(kc->config, kc->config_len, "\nCONFIG_BPF_SYSCALL=y", 21) &&
	    !memmem(kc->config, kc->config_len, "\nCONFIG_BPF_JIT=y", 17))
		c.no_jit = true;
	if (kc && kc->config) {
		c.config = kc->config;
		c.config_len = kc->config_len;
	}
	c.kallsyms_vars = !kc || !kc->config ? -1 :
			  !!memmem(kc->config, kc->config_len, "CONFIG_KALLSYMS_ALL=y", 21);
	c.lbtf = rc_object_types(c.obj);
	ret = read_elf(&c, err);
	if (ret)
		goto fail;
	ret = -ENOMEM;
	c.tl = calloc(1, sizeof(*c.tl));
	c.ncrelos = rc_object_relo_count(c.obj);
	c.crelos = calloc(c.ncrelos ? c.ncrelos : 1, sizeof(*c.crelos));
	if (!c.tl || !c.crelos || chk_load_helpers(&c) || chk_walk_init(&c))
		goto fail;
	for (i = 1; i < c.nsecs; i++) {
		if (!c.secs[i].exec)
			continue;
		c.secs[i].res = calloc(c.secs[i].n ? c.secs[i].n : 1, sizeof(*c.secs[i].res));
		if (!c.secs[i].res)
			goto fail;
	}
	/* the decisions, each kept small as it comes (refusals among them);
	 * decided, not applied: @obj stays as it was */
	ret = rc_object_decide_each(c.obj, target, keep_result, &c, &rerr);
	if (ret == -ENOMEM)
		goto fail;
	undecided(&c, out);
	ret = chk_list_externs(&c, obj, out);
	if (ret)
		goto fail;
	ret = chk_list_maps(obj, out);
	if (ret)
		goto fail;
	map_type_names(&c, out);
	ret = whole_object_problems(&c, out);
	if (ret)
		goto fail;
	ret = each_prog(&c, out, check_one);
	if (ret)
		goto fail;
	if (c.opts->pick_alternatives && (ret = pick_alternatives(&c, out)))
		goto fail;
	c.nkept = 0;
	ret = each_prog(&c, out, list_not_loaded);
	if (ret)
		goto fail;
	ctx_free(&c);
	rc_object_free(baked);
	return out;
fail:
	if (!err->msg[0])
		rc_fmt(err->msg, sizeof(err->msg), "%s: check: %s",
		       rc_object_name(obj), strerror(-ret));
	ctx_free(&c);
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
	for (i = 0; i < r->nr_progs; i++)
		prog_free(&r->progs[i]);
	for (i = 0; i < r->nr_not_loaded; i++)
		prog_free(&r->not_loaded[i]);
	free(r->progs);
	free(r->not_loaded);
	free(r->externs);
	free(r->maps);
	free(r->problems);
	free(r);
}
