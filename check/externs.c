// SPDX-License-Identifier: MIT
/*
 * externs.c - the object's extern symbols as libbpf resolves them at load:
 * kfuncs (extern FUNCs, called), typed and untyped __ksym variables (in
 * .ksyms), and .kconfig values.  What each extern is, whether the target's
 * BTF has it, and the externs that fail the whole object (a strong kfunc
 * or typed __ksym the target lacks, an extern of no kind libbpf opens).
 * A weak kfunc the target lacks is the walk's (walk.c): a problem only
 * where a call to it is reachable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"

/* The DATASEC whose entry is type @id, or NULL. */
static const struct btf_type *ext_datasec(const struct rc_btf *b, uint32_t id)
{
	uint32_t i, n = rc_btf_type_cnt(b);

	for (i = 1; i < n; i++) {
		const struct btf_type *t = rc_type(b, i);
		const struct btf_var_secinfo *vs;
		int k;

		if (!btf_is_datasec(t))
			continue;
		vs = btf_var_secinfos(t);
		for (k = 0; k < btf_vlen(t); k++, vs++)
			if (vs->type == id)
				return t;
	}
	return NULL;
}

/*
 * What the extern @name is, resolved as libbpf resolves it when it opens
 * the object: the first VAR or FUNC of that name in the object's BTF, of
 * extern linkage, an entry of DATASEC .kconfig (a VAR) or .ksyms (typed:
 * its type is not void; a FUNC is a kfunc).  EXT_OTHER where libbpf
 * refuses the object, with its reason in @why (@sz bytes; may be NULL):
 * no such VAR or FUNC (GCC 12 writes none for `extern void x`), one not
 * extern (GCC 12 writes a kconfig or typed __ksym extern as a global VAR),
 * in no DATASEC or another one, a .kconfig one of a type libbpf does not
 * fill.
 */
enum ext_kind chk_ext_resolve(const struct ctx *c, const char *name, char *why, size_t sz)
{
	const struct rc_btf *b = c->lbtf;
	const struct btf_type *t = NULL, *ds, *vt;
	uint32_t i, n = b ? rc_btf_type_cnt(b) : 0;
	const char *sn;

	for (i = 1; i < n && !t; i++) {
		t = rc_type(b, i);
		if ((!btf_is_var(t) && !btf_is_func(t)) || strcmp(rc_name(b, t->name_off), name))
			t = NULL;
	}
	if (!t) {
		if (why)
			rc_fmt(why, sz, "extern '%s' has no BTF VAR or FUNC", name);
		return EXT_OTHER;
	}
	i--;
	if (btf_is_var(t) ? btf_var(t)->linkage != BTF_VAR_GLOBAL_EXTERN
			  : btf_vlen(t) != BTF_FUNC_EXTERN) {	/* a FUNC's vlen is its linkage */
		if (why)
			rc_fmt(why, sz, "extern '%s': its BTF %s [%u] is not of extern linkage", name,
			       btf_is_var(t) ? "VAR" : "FUNC", i);
		return EXT_OTHER;
	}
	ds = ext_datasec(b, i);
	sn = ds ? rc_name(b, ds->name_off) : "";
	if (!strcmp(sn, ".ksyms")) {
		if (btf_is_func(t))
			return EXT_KFUNC;
		vt = rc_skip_mods_typedefs(b, t->type, NULL);
		return vt && btf_kind(vt) != BTF_KIND_UNKN ? EXT_KSYM_TYPED : EXT_KSYM_UNTYPED;
	}
	if (!strcmp(sn, ".kconfig") && btf_is_var(t)) {
		if (rc_kconfig_type_ok(b, t->type))
			return EXT_KCONFIG;
		if (why)
			rc_fmt(why, sz, "extern '%s': its type [%u] is not one libbpf fills for .kconfig (bool, char, int of 1 to 8 bytes, enum libbpf_tristate, char[N])",
			       name, t->type);
		return EXT_OTHER;
	}
	if (why)
		rc_fmt(why, sz, "extern '%s': %s", name,
		       !ds ? "its BTF is in no DATASEC (.kconfig or .ksyms)" :
		       btf_is_func(t) && !strcmp(sn, ".kconfig") ? "a function in .kconfig" :
		       "in DATASEC other than .kconfig or .ksyms");
	return EXT_OTHER;
}

enum ext_kind chk_ext_kind(const struct ctx *c, const char *name)
{
	return chk_ext_resolve(c, name, NULL, 0);
}

/* Is a kfunc or __ksym @sym on the target?  1 yes, 0 no, -1 cannot say
 * (the target has no FUNCs: minimized).  An untyped __ksym's address comes
 * from kallsyms, where more than BTF's VARs and FUNCs are: a FUNC of its
 * name says yes; a VAR says yes only where kallsyms lists variables
 * (CONFIG_KALLSYMS_ALL: Debian's arm64 6.1 has it off, and there libbpf
 * fails to resolve a strong one), no where the config says it does not,
 * and cannot say without the config; no VAR or FUNC cannot say. */
int chk_ext_present(const struct ctx *c, const struct sym *sym, enum ext_kind k)
{
	if (k == EXT_KFUNC)
		return c->no_funcs ? -1 : chk_target_has(c, sym->name, BTF_KIND_FUNC, NULL);
	if (k == EXT_KSYM_TYPED)
		return c->no_funcs ? -1 : chk_target_has(c, sym->name, BTF_KIND_VAR, NULL);
	if (k == EXT_KSYM_UNTYPED) {
		if (chk_target_has(c, sym->name, BTF_KIND_FUNC, NULL))
			return 1;
		if (chk_target_has(c, sym->name, BTF_KIND_VAR, NULL))
			return c->kallsyms_vars;
		return -1;
	}
	return -1;
}

/* libbpf resolves every extern when it loads the object: a strong kfunc or
 * typed __ksym the kernel's BTF lacks, or a .kconfig value the config
 * cannot give, fails the whole object (every program) */
int chk_extern_problems(struct ctx *c, struct rc_check_prog *p)
{
	size_t i;
	int ret;

	if (c->kconfig_err[0] &&
	    (ret = chk_problem(p, RC_CHECK_KCONFIG, false, -1, "%s", c->kconfig_err)))
		return ret;
	for (i = 0; i < c->nsyms; i++) {
		const struct sym *s = &c->syms[i];
		enum ext_kind k;
		char why[160];

		if (s->shndx || !s->name[0] || (s->bind != STB_GLOBAL && s->bind != STB_WEAK))
			continue;
		k = chk_ext_resolve(c, s->name, why, sizeof(why));
		/* libbpf takes every undefined NOTYPE symbol for an extern and
		 * opens the object only if its BTF puts it in .kconfig or .ksyms
		 * (GCC 12's unknown builtins and externs, unlinked objects) */
		if (k == EXT_OTHER && s->type == STT_NOTYPE &&
		    (ret = chk_problem(p, RC_CHECK_OPEN, false, -1,
				       "%s: libbpf refuses to open the object",
				       why)))
			return ret;
		if (s->bind != STB_GLOBAL)
			continue;
		if ((k == EXT_KFUNC || k == EXT_KSYM_TYPED) && chk_ext_present(c, s, k) == 0 &&
		    (ret = chk_problem(p, RC_CHECK_KFUNC, false, -1,
				       "%s '%s' is not in the target BTF (vmlinux or modules): libbpf refuses to load the object",
				       k == EXT_KFUNC ? "kfunc" : "__ksym variable", s->name)))
			return ret;
		if (k == EXT_KSYM_UNTYPED && chk_ext_present(c, s, k) == 0 &&
		    (ret = chk_problem(p, RC_CHECK_KFUNC, false, -1,
				       "untyped __ksym '%s' is a variable, and the target's kallsyms lists none (its config has no CONFIG_KALLSYMS_ALL): libbpf refuses to load the object",
				       s->name)))
			return ret;
	}
	return 0;
}

int chk_list_externs(struct ctx *c, const struct rc_object *orig, struct rc_check *out)
{
	static const char *const kind_str[] = {
		[EXT_OTHER] = "none", [EXT_KCONFIG] = "kconfig", [EXT_KSYM_TYPED] = "ksym",
		[EXT_KSYM_UNTYPED] = "ksym_untyped", [EXT_KFUNC] = "kfunc",
	};
	/* the object before baking: its .kconfig externs are still externs */
	const struct ctx o = { .obj = orig, .lbtf = rc_object_types(orig) };
	size_t nsyms, symtab, i, n = 0;
	const struct rc_elf_sym *es = rc_object_symbols(orig, &nsyms, &symtab);

	for (i = 0; i < nsyms; i++)
		n += !es[i].shndx && es[i].name[0] && es[i].type == STT_NOTYPE &&
		     (es[i].bind == STB_GLOBAL || es[i].bind == STB_WEAK);
	out->externs = calloc(n ? n : 1, sizeof(*out->externs));
	if (!out->externs)
		return -ENOMEM;
	for (i = 0; i < nsyms; i++) {
		const struct sym s = { es[i].name, es[i].shndx, es[i].value, es[i].size,
				       es[i].type, es[i].bind };
		struct rc_check_extern *e = &out->externs[out->nr_externs];
		enum ext_kind k;

		if (s.shndx || !s.name[0] || s.type != STT_NOTYPE ||
		    (s.bind != STB_GLOBAL && s.bind != STB_WEAK))
			continue;
		k = chk_ext_kind(&o, s.name);
		rc_fmt(e->name, sizeof(e->name), "%s", s.name);
		e->kind = kind_str[k];
		e->weak = s.bind == STB_WEAK;
		e->in_target = chk_ext_present(c, &s, k);
		out->nr_externs++;
	}
	return 0;
}
