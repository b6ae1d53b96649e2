// SPDX-License-Identifier: MIT
/*
 * attach.c - will the program attach on the target: its section names a
 * program type (and attach type) libbpf knows and the target's enums list
 * (check/progtype.h's table), the attach point the section names is in the
 * target's BTF (a FUNC, a syscall wrapper, a tracepoint's record or
 * btf_trace_ typedef), or user space must give it ("needs").  Then the
 * context the attach point gives the program: which of its slots hold
 * scalars (before the walk), and whether the program's farthest read of
 * it (found by the walk) fits.
 */
#include <string.h>

#include "check_internal.h"

/* Tracepoint @tgt (CATEGORY/NAME) on the target: a syscall function for
 * syscalls/sys_enter_X and sys_exit_X, else its record (trace_event_raw_)
 * or its btf_trace_ typedef.  0, or a problem added (or -ENOMEM). */
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
		return chk_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "tracepoint '%s' is not CATEGORY/NAME", tgt);
	name++;
	if (!strncmp(tgt, "syscalls/", 9) &&
	    (!strncmp(name, "sys_enter_", 10) || !strncmp(name, "sys_exit_", 9))) {
		const char *sc = name + (name[5] == 'n' ? 10 : 9);

		for (i = 0; i < sizeof(sys_prefixes) / sizeof(*sys_prefixes); i++) {
			snprintf(buf, sizeof(buf), "%s%s", sys_prefixes[i], sc);
			if (chk_target_has(c, buf, BTF_KIND_FUNC, &m))
				return 0;
		}
		return chk_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "tracepoint %s: the target BTF has no syscall function for '%s' (__<arch>_sys_%s, sys_%s)",
				   tgt, sc, sc, sc);
	}
	snprintf(buf, sizeof(buf), "trace_event_raw_%s", name);
	if (chk_target_has(c, buf, BTF_KIND_STRUCT, &m))
		return 0;
	snprintf(buf, sizeof(buf), "btf_trace_%s", name);
	if (chk_target_has(c, buf, BTF_KIND_TYPEDEF, &m))
		return 0;
	return chk_problem(c->prog, RC_CHECK_ATTACH, false, -1,
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
	if (!chk_target_has(c, buf, BTF_KIND_FUNC, NULL))
		for (i = 0; i < sizeof(sys_archs) / sizeof(*sys_archs); i++) {
			snprintf(buf, sizeof(buf), "%sbpf", sys_archs[i]);
			if (chk_target_has(c, buf, BTF_KIND_FUNC, NULL))
				other = sys_archs[i];
		}
	if (other)
		return chk_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "%s: this kernel's syscall wrappers are %s*, not %s*",
				   secname, other, arch);
	snprintf(buf, sizeof(buf), "__se_sys_%s", name);
	if (chk_target_has(c, fn, BTF_KIND_FUNC, NULL) || chk_target_has(c, buf, BTF_KIND_FUNC, NULL))
		return 0;
	snprintf(buf, sizeof(buf), "__do_sys_%s", name);
	if (chk_target_has(c, buf, BTF_KIND_FUNC, NULL))
		return 0;
	return chk_problem(c->prog, RC_CHECK_ATTACH, false, -1,
			   "%s: no syscall '%s' in the target BTF (%s, __se_sys_%s, __do_sys_%s)",
			   secname, name, fn, name, name);
}

/*
 * Is section target @tgt a placeholder that user space replaces before the
 * load: libbpf-tools' "dummy_*" names, xdp-tools' "func" (fentry/func,
 * fexit/func: bpf_program__set_attach_target), or a name no kernel symbol
 * can have (kernel symbols are C identifiers, with '.' for the compiler's
 * clones, ':' after a module's name: "skb-1" is a name for user space's
 * own use)?  A kprobe's "+OFF" is not part of the name.  @symbol: @tgt
 * names a kernel symbol (not a tracepoint's CATEGORY/NAME).
 */
static bool placeholder(const char *tgt, bool symbol)
{
	size_t n = strcspn(tgt, "+");

	if (!strncmp(tgt, "dummy", 5))
		return true;
	return symbol && (!strcmp(tgt, "func") || (*tgt >= '0' && *tgt <= '9') ||
			  strspn(tgt, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:") < n);
}

/* The target's enum @ename (when it has one) lacks @name, the program type
 * or attach type (@what) of section @secname: 1 and a problem added; 0
 * when it has it; -ENOMEM. */
static int enum_lacks(struct ctx *c, const char *ename, const char *what, const char *name,
		      const char *secname)
{
	const struct btf_type *e = chk_target_enum(c, ename);
	int ret;

	if (!e || chk_enum_has_name(c, e, name))
		return 0;
	ret = chk_problem(c->prog, RC_CHECK_PROGRAM_TYPE, false, -1,
			  "%s%s (section %s) is not in this kernel's enum %s",
			  what, name, secname, ename);
	return ret ?: 1;
}

/*
 * What a kernel's config must say for a program of the type to load or
 * attach (include/linux/bpf_types.h registers the types under these
 * options; the syscalls/ tracepoints exist with CONFIG_FTRACE_SYSCALLS).
 * A config given (--kconfig) that lacks the option: the program cannot.
 */
static const struct {
	const char *prog_type;		/* BPF_PROG_TYPE_<this>, or NULL: any */
	const char *tp_category;	/* a tracepoint of this category only */
	const char *option;
	const char *fails;		/* where the kernel refuses it */
} needs_config[] = {
	{ "CGROUP_SKB", NULL, "CONFIG_CGROUP_BPF", "EINVAL at load" },
	{ "CGROUP_SOCK", NULL, "CONFIG_CGROUP_BPF", "EINVAL at load" },
	{ "CGROUP_SOCK_ADDR", NULL, "CONFIG_CGROUP_BPF", "EINVAL at load" },
	{ "CGROUP_DEVICE", NULL, "CONFIG_CGROUP_BPF", "EINVAL at load" },
	{ "CGROUP_SYSCTL", NULL, "CONFIG_CGROUP_BPF", "EINVAL at load" },
	{ "CGROUP_SOCKOPT", NULL, "CONFIG_CGROUP_BPF", "EINVAL at load" },
	{ "SOCK_OPS", NULL, "CONFIG_CGROUP_BPF", "EINVAL at load" },
	{ "LSM", NULL, "CONFIG_BPF_LSM", "EINVAL at load" },
	{ "KPROBE", NULL, "CONFIG_BPF_EVENTS", "EINVAL at load" },
	{ "TRACEPOINT", NULL, "CONFIG_BPF_EVENTS", "EINVAL at load" },
	{ "RAW_TRACEPOINT", NULL, "CONFIG_BPF_EVENTS", "EINVAL at load" },
	{ "PERF_EVENT", NULL, "CONFIG_BPF_EVENTS", "EINVAL at load" },
	{ "TRACEPOINT", "syscalls/", "CONFIG_FTRACE_SYSCALLS", "ENOENT at attach: no such tracepoint" },
};

/* The target's config is known and lacks option @opt: it says "# @opt is
 * not set", or it is a whole .config (it has CONFIG_BPF_SYSCALL=y, as every
 * kernel that loads BPF does; a fragment need not) without @opt=y or =m. */
static bool config_lacks(const struct ctx *c, const char *opt)
{
	const char *p, *end;
	bool whole = false;
	size_t n = strlen(opt);

	if (!c->config)
		return false;
	end = c->config + c->config_len;
	for (p = c->config; p && p < end; p = memchr(p, '\n', end - p), p = p ? p + 1 : NULL) {
		size_t left = end - p;

		if (left > n + 1 && !strncmp(p, opt, n) && p[n] == '=' &&
		    (p[n + 1] == 'y' || p[n + 1] == 'm'))
			return false;
		if (left > n + 13 && !strncmp(p, "# ", 2) && !strncmp(p + 2, opt, n) &&
		    !strncmp(p + 2 + n, " is not set", 11))
			return true;
		if (left >= 20 && !strncmp(p, "CONFIG_BPF_SYSCALL=y", 20))
			whole = true;
	}
	return whole;
}

/* config_lacks() of row @n's option, asked once per check (a config is
 * hundreds of KB; an object may have hundreds of programs) */
static bool config_lacks_memo(struct ctx *c, size_t n)
{
	if (n >= sizeof(c->config_memo))
		return config_lacks(c, needs_config[n].option);
	if (!c->config_memo[n])
		c->config_memo[n] = config_lacks(c, needs_config[n].option) ? 1 : 2;
	return c->config_memo[n] == 1;
}

/* The program type, attach type and attach point of section @secname on
 * the target: the first that is missing, or that user space must give, is
 * a problem of c->prog.  0 or -ENOMEM. */
int chk_attach(struct ctx *c, const char *secname)
{
	const char *tgt;
	const struct pt_def *d = pt_find(secname, &tgt);
	char buf[300], pt[80];
	size_t n;
	int ret, kind;

	if (!d)
		return chk_problem(c->prog, RC_CHECK_PROGRAM_TYPE, false, -1,
				   "section '%s' names no program type libbpf knows", secname);
	snprintf(pt, sizeof(pt), "BPF_PROG_TYPE_%s", d->prog_type);
	ret = enum_lacks(c, "bpf_prog_type", "", pt, secname);
	if (!ret && d->attach_type) {
		snprintf(pt, sizeof(pt), "BPF_%s", d->attach_type);
		ret = enum_lacks(c, "bpf_attach_type", "attach type ", pt, secname);
	}
	if (!ret && c->prog && chk_listed(c->opts->tcx, c->opts->nr_tcx, c->prog->name))
		ret = enum_lacks(c, "bpf_attach_type", "tcx link: attach type ", "BPF_TCX_INGRESS",
				 secname);
	if (ret)
		return ret < 0 ? ret : 0;
	for (n = 0; n < sizeof(needs_config) / sizeof(needs_config[0]); n++)
		if (!strcmp(needs_config[n].prog_type, d->prog_type) &&
		    (!needs_config[n].tp_category ||
		     (tgt && !strncmp(tgt, needs_config[n].tp_category, strlen(needs_config[n].tp_category)))) &&
		    config_lacks_memo(c, n))
			return chk_problem(c->prog, needs_config[n].tp_category ? RC_CHECK_ATTACH :
					   RC_CHECK_PROGRAM_TYPE, false, -1,
					   "%s: the target's config has no %s (%s)", secname,
					   needs_config[n].option, needs_config[n].fails);
	/* what user space must attach: uprobes and USDT probes of a binary
	 * the section does not name, perf events it opens */
	if (!strncmp(d->prefix, "uprobe", 6) || !strncmp(d->prefix, "uretprobe", 9) ||
	    !strcmp(d->prefix, "usdt")) {
		bool usdt = !strcmp(d->prefix, "usdt");

		if (tgt && strchr(tgt, ':'))
			return 0;
		return chk_problem(c->prog, RC_CHECK_ATTACH, true, -1,
				   "needs %s from user space (section '%s' names no BINARY:%s)",
				   usdt ? "a USDT probe of a running process" : "a binary and function",
				   secname, usdt ? "PROVIDER:NAME" : "FUNC");
	}
	if (!strcmp(d->prefix, "perf_event"))
		return chk_problem(c->prog, RC_CHECK_ATTACH, true, -1,
				   "needs perf events opened by user space (perf_event_open per CPU; relocore run --perf-event)");
	/* a BPF trampoline is JIT-compiled code: without the JIT the kernel
	 * refuses to load (fentry, fexit, fmod_ret, lsm: ENOMEM or ENOTSUPP)
	 * or to attach (struct_ops, freplace) */
	if (c->no_jit && ((d->needs == PT_NEEDS_FUNC && strncmp(d->prefix, "iter", 4)) ||
			  !strcmp(d->prog_type, "STRUCT_OPS") || !strcmp(d->prog_type, "EXT")))
		return chk_problem(c->prog, RC_CHECK_PROGRAM_TYPE, false, -1,
				   "%s: the target's config has no CONFIG_BPF_JIT: programs run in the interpreter, and a BPF trampoline needs the JIT (the kernel refuses it)",
				   secname);
	if (d->needs == PT_NEEDS_NONE)
		return 0;
	if (c->no_trampolines && d->needs == PT_NEEDS_FUNC && strncmp(d->prefix, "iter", 4))
		return chk_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "%s: the target's config has no CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS: no BPF trampoline can attach to a kernel function (ENOTSUPP at attach)",
				   secname);
	if (c->opts->no_kernel_btf && (d->needs == PT_NEEDS_FUNC || !strncmp(d->prefix, "tp_btf", 6)))
		return chk_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "%s: attaches through the kernel's own BTF, and the target kernel has none (its BTF here is a stand-in: --no-kernel-btf)",
				   secname);
	if (!tgt)
		return chk_problem(c->prog, RC_CHECK_ATTACH, true, -1,
				   "needs an attach target from user space (section '%s' names none)",
				   secname);
	if (c->no_funcs)
		return 0;	/* not decided: said once for the target */
	/* a placeholder that user space replaces (bpf_program__set_attach_target,
	 * or the kprobe it opens itself) */
	if (placeholder(tgt, d->needs != PT_NEEDS_TP) && !chk_target_has(c, tgt, BTF_KIND_FUNC, NULL))
		return chk_problem(c->prog, RC_CHECK_ATTACH, true, -1,
				   "needs an attach target from user space: '%s' (section %s) is a placeholder, not in the target BTF",
				   tgt, secname);
	/* the attach point's name and kind, by how the section attaches */
	switch (d->needs) {
	case PT_NEEDS_FUNC:
		snprintf(buf, sizeof(buf), "%s%s", d->func_prefix, tgt);
		kind = BTF_KIND_FUNC;
		break;
	case PT_NEEDS_KPROBE:
		n = strcspn(tgt, "+");
		snprintf(buf, sizeof(buf), "%.*s", (int)n, tgt);
		kind = BTF_KIND_FUNC;
		break;
	case PT_NEEDS_RAW_TP:
		snprintf(buf, sizeof(buf), "btf_trace_%s", tgt);
		kind = BTF_KIND_TYPEDEF;
		break;
	case PT_NEEDS_TP:
		return check_tracepoint(c, tgt);
	case PT_NEEDS_NONE:
	default:
		return 0;
	}
	if (chk_target_has(c, buf, kind, NULL))
		return 0;
	if (d->needs == PT_NEEDS_KPROBE) {
		bool decided;

		ret = kprobe_syscall(c, secname, buf, &decided);
		if (decided)
			return ret;
		return chk_problem(c->prog, RC_CHECK_ATTACH, false, -1,
				   "%s: function '%s' not in BTF: may be inlined or static (kprobe needs it in kallsyms)",
				   secname, buf);
	}
	return chk_problem(c->prog, RC_CHECK_ATTACH, false, -1,
			   d->needs == PT_NEEDS_FUNC ?
			   "%s: no FUNC '%s' in the target BTF (vmlinux or modules)" :
			   "%s: no typedef '%s' in the target BTF: no such raw tracepoint",
			   secname, buf);
}

/* ---- the context the attach point gives the program ---- */

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
		t = chk_target_type(c, tgt, BTF_KIND_FUNC, b);
		*first = 0;
		t = t ? rc_type(*b, t->type) : NULL;
	} else if (!strcmp(d->prefix, "tp_btf")) {
		rc_fmt(buf, sizeof(buf), "btf_trace_%s", tgt);
		t = chk_target_type(c, buf, BTF_KIND_TYPEDEF, b);
		t = t ? rc_type(*b, t->type) : NULL;
		t = t && btf_is_ptr(t) ? rc_type(*b, t->type) : NULL;
		*first = 1;
	} else {
		return NULL;
	}
	return t && btf_is_func_proto(t) && btf_vlen(t) >= *first ? t : NULL;
}

/* Before the walk: which context slots hold scalars on the target */
void chk_ctx_types(struct ctx *c, const char *asec)
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

/* The farthest read of the context (c->ctx_hi) against its size on the
 * target, where the target says it. */
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

		n = chk_target_nr_params(c, tgt, BTF_KIND_FUNC);
		if (n >= 0) {
			bound = 8 * (n + (entry ? 0 : 1));
			rc_fmt(what, sizeof(what), "function %s takes %d argument%s%s", tgt, n,
			       n == 1 ? "" : "s", entry ? "" : " (and the return value)");
		}
	} else if (!strcmp(pfx, "tp_btf") || !strcmp(pfx, "raw_tp") ||
		   !strcmp(pfx, "raw_tracepoint")) {
		rc_fmt(buf, sizeof(buf), "btf_trace_%s", tgt);
		n = chk_target_nr_params(c, buf, BTF_KIND_TYPEDEF);
		if (n >= 1) {
			bound = 8 * (n - 1);
			rc_fmt(what, sizeof(what), "tracepoint %s has %d argument%s", tgt, n - 1,
			       n == 2 ? "" : "s");
		}
	} else if (d->needs == PT_NEEDS_TP && strchr(tgt, '/')) {
		const char *name = strrchr(tgt, '/') + 1;

		if (!strncmp(tgt, "syscalls/sys_enter_", 19)) {
			t = chk_target_type(c, "syscall_trace_enter", BTF_KIND_STRUCT, &b);
			rc_fmt(buf, sizeof(buf), "__se_sys_%s", name + 10);
			n = chk_target_nr_params(c, buf, BTF_KIND_FUNC);
			if (n < 0) {
				rc_fmt(buf, sizeof(buf), "__do_sys_%s", name + 10);
				n = chk_target_nr_params(c, buf, BTF_KIND_FUNC);
			}
			if (t && n >= 0) {
				bound = t->size + 8 * n;
				rc_fmt(what, sizeof(what), "its record (struct syscall_trace_enter, %u bytes, and %d argument%s) is %lld bytes",
				       t->size, n, n == 1 ? "" : "s", (long long)bound);
			}
		} else if (!strncmp(tgt, "syscalls/sys_exit_", 18)) {
			t = chk_target_type(c, "syscall_trace_exit", BTF_KIND_STRUCT, &b);
			if (t) {
				bound = t->size;
				rc_fmt(what, sizeof(what), "its record (struct syscall_trace_exit) is %lld bytes",
				       (long long)bound);
			}
		} else {
			rc_fmt(buf, sizeof(buf), "trace_event_raw_%s", name);
			t = chk_target_type(c, buf, BTF_KIND_STRUCT, &b);
			if (t) {
				bound = t->size;
				rc_fmt(what, sizeof(what), "its record (struct %s) is %lld bytes",
				       buf, (long long)bound);
			}
		}
	}
	if (bound < 0 || c->ctx_hi <= bound)
		return 0;
	return chk_problem(c->prog, RC_CHECK_ATTACH, false, (int)c->ctx_hi_idx,
			   "%s: insn #%zu reads the context up to byte %lld, but %s: %s",
			   asec, c->ctx_hi_idx, (long long)c->ctx_hi, what,
			   d->needs == PT_NEEDS_TP ? "the kernel refuses the attachment (EACCES)"
					   : "the verifier refuses the load (invalid bpf_context access)");
}

/* After the walk: a read through a scalar argument of a typed context, or
 * (else) past what the target gives, is a problem of c->prog. */
int chk_ctx_bound(struct ctx *c, const char *asec)
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
		return chk_problem(c->prog, RC_CHECK_ATTACH, false, (int)c->scalar_idx,
				   "%s: insn #%zu reads memory through argument %d of the context, a scalar on the target%s: the verifier refuses the load (invalid mem access 'scalar')",
				   asec, c->scalar_idx, c->scalar_arg, ty);
	}
	return ctx_bound_size(c, asec);
}
