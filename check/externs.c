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
#include <string.h>

#include "check_internal.h"

/* What the extern @name is, by the object's BTF: a VAR of DATASEC .kconfig
 * or .ksyms (typed: its type is not void), or an extern FUNC (a kfunc). */
enum ext_kind chk_ext_kind(const struct ctx *c, const char *name)
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
int chk_ext_present(const struct ctx *c, const struct sym *sym, enum ext_kind k)
{
	if (k == EXT_KFUNC)
		return c->no_funcs ? -1 : chk_target_has(c, sym->name, BTF_KIND_FUNC, NULL);
	if (k == EXT_KSYM_TYPED)
		return c->no_funcs ? -1 : chk_target_has(c, sym->name, BTF_KIND_VAR, NULL);
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

		if (s->shndx || !s->name[0] || (s->bind != STB_GLOBAL && s->bind != STB_WEAK))
			continue;
		k = chk_ext_kind(c, s->name);
		/* libbpf takes every undefined NOTYPE symbol for an extern and
		 * opens the object only if its BTF puts it in .kconfig or .ksyms
		 * (GCC 12's unknown builtins, unlinked objects) */
		if (k == EXT_OTHER && s->type == STT_NOTYPE &&
		    (ret = chk_problem(p, RC_CHECK_OPEN, false, -1,
				       "extern '%s' is neither a kfunc nor in .kconfig or .ksyms: libbpf refuses to open the object",
				       s->name)))
			return ret;
		if (s->bind != STB_GLOBAL)
			continue;
		if ((k == EXT_KFUNC || k == EXT_KSYM_TYPED) && chk_ext_present(c, s, k) == 0 &&
		    (ret = chk_problem(p, RC_CHECK_KFUNC, false, -1,
				       "%s '%s' is not in the target BTF (vmlinux or modules): libbpf refuses to load the object",
				       k == EXT_KFUNC ? "kfunc" : "__ksym variable", s->name)))
			return ret;
	}
	return 0;
}
