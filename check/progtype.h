/* SPDX-License-Identifier: MIT */
/*
 * progtype.h - the one table of BPF program types, by section name, and
 * the one policy for fentry/kprobe and tp_btf/raw_tp twins.
 *
 * Not installed, not ABI: librelocore's check (check/check.c) and the CLI
 * (cli/: relocore run attaches by it) include it; so do the unit tests.
 * Nothing else may.
 *
 * A row says, for a section "PREFIX" or "PREFIX/TARGET" (libbpf 1.x's
 * names): the program type and expected attach type libbpf gives it, what
 * the target kernel must have for it to attach (check), how relocore run
 * attaches it, and which twin family it belongs to.
 */
#ifndef RELOCORE_PROGTYPE_H
#define RELOCORE_PROGTYPE_H

#include <stdbool.h>

/* What the target must have for the section's attach target (check). */
enum pt_needs {
	PT_NEEDS_NONE,		/* nothing the section names */
	PT_NEEDS_FUNC,		/* FUNC <func_prefix><target> in the target BTF */
	PT_NEEDS_KPROBE,	/* FUNC <target>, else maybe inlined or static */
	PT_NEEDS_RAW_TP,	/* typedef btf_trace_<target> */
	PT_NEEDS_TP,		/* category/name: trace_event_raw_<name> or btf_trace_<name> */
};

/* How relocore run attaches a program of the section. */
enum pt_attach {
	PT_ATTACH_AUTO,		/* as libbpf auto-attaches it, or not at all */
	PT_ATTACH_FENTRY,	/* BPF trampoline on entry */
	PT_ATTACH_FEXIT,	/* ... on exit */
	PT_ATTACH_BTF,		/* other BTF-attached kinds: fmod_ret, lsm, iter */
	PT_ATTACH_TP_BTF,
	PT_ATTACH_KPROBE,
	PT_ATTACH_KRETPROBE,
	PT_ATTACH_UPROBE,
	PT_ATTACH_URETPROBE,
	PT_ATTACH_TRACEPOINT,
	PT_ATTACH_RAW_TP,
	PT_ATTACH_PERF_EVENT,
	PT_ATTACH_USDT,
	PT_ATTACH_XDP,		/* a link on the interface user space names */
	PT_ATTACH_TC,		/* a tcx link on the interface and direction
				 * user space names (Linux 6.6) */
	PT_ATTACH_CGROUP,	/* a link on the cgroup user space names */
	PT_ATTACH_ITER,		/* an iterator: attached, created, read through */
	PT_ATTACH_RUN,		/* not attached: run once (BPF_PROG_RUN) */
};

/*
 * Twins: a libbpf tool traces the same function with an fentry/fexit
 * program and a kprobe/kretprobe one (the same tracepoint with tp_btf and
 * raw_tp) and loads one kind, decided once for the whole object.
 */
enum pt_twin {
	PT_TWIN_NONE,
	PT_TWIN_FUNC_BTF,	/* fentry, fexit (and .s): the BTF side */
	PT_TWIN_FUNC_PROBE,	/* kprobe, kretprobe */
	PT_TWIN_TP_BTF,		/* tp_btf: the BTF side */
	PT_TWIN_TP_RAW,		/* raw_tp, raw_tracepoint */
};

struct pt_def {
	const char *prefix;	/* the section is this, or this + "/..." */
	const char *prog_type;	/* BPF_PROG_TYPE_<this> */
	const char *attach_type;	/* BPF_<this>, NULL: none checked */
	enum pt_needs needs;
	const char *func_prefix;	/* PT_NEEDS_FUNC: "", bpf_lsm_, bpf_iter_ */
	enum pt_attach attach;
	enum pt_twin twin;
};

/* Every row (for tests: @n rows). */
const struct pt_def *pt_table(int *n);

/*
 * The row of section @sec, NULL when libbpf knows no such section;
 * *@target (may be NULL) is where the attach target starts after the
 * first '/', NULL when the section names none.
 */
const struct pt_def *pt_find(const char *sec, const char **target);

/* pt_find(@sec)->attach, PT_ATTACH_AUTO for an unknown section. */
enum pt_attach pt_attach_of(const char *sec);

/* One program of an object that may have a twin (pt_pick_twins). */
struct pt_twin_prog {
	enum pt_twin twin;	/* of its section */
	const char *func;	/* the function or tracepoint it attaches to
				 * (the user's attach target, if set) */
	bool pair;		/* out: traced by both kinds */
	bool drop;		/* out: not loaded, its twin is */
};

/* Per family (0: functions, 1: tracepoints). */
struct pt_twin_result {
	int pairs[2];		/* programs in pairs */
	bool btf[2];		/* the BTF side stays */
};

/*
 * Pick twins, as relocore run and relocore check both do: in each family,
 * the programs whose function (tracepoint) both sides trace are in pairs;
 * the BTF side stays if @can_attach(@arg, i) holds for every BTF-side
 * program i in a pair (asked in index order, not again after the first
 * no), else the other side, for the whole family; the losing side's
 * programs in pairs get drop.  A program with no function, or FUNC+OFF,
 * BINARY:FUNC, is in no pair.
 */
void pt_pick_twins(struct pt_twin_prog *p, int n,
		   bool (*can_attach)(void *arg, int i), void *arg,
		   struct pt_twin_result *res);

#endif
