// SPDX-License-Identifier: MIT
/*
 * progtype_test.c - check/progtype.c's table of program types against
 * libbpf's own (libbpf_prog_type_by_name of the libbpf linked here), and
 * its twin policy (pt_pick_twins), which relocore run and relocore check
 * both decide by.  Prints "PASS: unit/progtype/<row>" or "FAIL: ...: why".
 */
#include <bpf/libbpf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "progtype.h"

static int fails;

static void say(bool ok, const char *row, const char *why)
{
	if (ok)
		printf("PASS: unit/progtype/%s\n", row);
	else
		printf("FAIL: unit/progtype/%s: %s\n", row, why);
	fails += !ok;
}

/*
 * Sections as programs name them, at least one per row of the table
 * (a row without one fails): libbpf 1.x's names and their usual forms.
 */
static const char *const samples[] = {
	"socket", "sk_reuseport/migrate", "sk_reuseport",
	"kprobe.multi/do_unlinkat*", "kretprobe.multi/do_unlinkat*",
	"uprobe.multi/libc.so.6:malloc", "uretprobe.multi/libc.so.6:malloc",
	"kprobe/do_unlinkat", "kprobe", "kretprobe/do_unlinkat", "ksyscall/openat",
	"kretsyscall/openat", "uprobe/libc.so.6:malloc", "uprobe", "uretprobe/libc.so.6:malloc",
	"uprobe.s/libc.so.6:malloc", "uretprobe.s/libc.so.6:malloc", "usdt/libc.so.6:libc:setjmp",
	"tc", "tcx/ingress", "netkit/primary", "classifier", "action",
	"tracepoint/sched/sched_switch", "tp/sched/sched_switch",
	"raw_tracepoint/sched_switch", "raw_tp/sched_switch", "raw_tracepoint.w/sched_switch",
	"raw_tp.w/sched_switch", "tp_btf/sched_switch",
	"fentry/do_unlinkat", "fentry.s/do_unlinkat", "fmod_ret/do_unlinkat",
	"fmod_ret.s/do_unlinkat", "fexit/do_unlinkat", "fexit.s/do_unlinkat", "freplace/handler",
	"lsm/file_open", "lsm.s/file_open", "lsm_cgroup/file_open", "iter/task", "iter.s/task",
	"syscall", "xdp.frags", "xdp", "perf_event", "lwt_in", "lwt_out", "lwt_xmit",
	"lwt_seg6local", "sockops", "sk_skb", "sk_skb/stream_parser", "sk_msg", "lirc_mode2",
	"flow_dissector", "cgroup_skb/ingress", "cgroup_skb/egress", "cgroup/skb",
	"cgroup/sock_create", "cgroup/sock_release", "cgroup/sock", "cgroup/post_bind4",
	"cgroup/post_bind6", "cgroup/dev", "cgroup/sysctl", "cgroup/getsockopt",
	"cgroup/setsockopt", "struct_ops", "struct_ops/tcp_init", "struct_ops.s/init",
	"sk_lookup", "netfilter", "cgroup/bind4", "cgroup/connect6", "cgroup/sendmsg4",
	"cgroup/recvmsg6", "cgroup/getpeername4", "cgroup/getsockname6",
};

/* Sections newer than the libbpf linked here (1.1 on Debian 12), with the
 * libbpf release that added them: libbpf must refuse these, and only these */
static const struct { const char *sec, *since; } newer[] = {
	{ "uprobe.multi/libc.so.6:malloc", "1.2" }, { "uretprobe.multi/libc.so.6:malloc", "1.2" },
	{ "netfilter", "1.2" }, { "tcx/ingress", "1.3" }, { "netkit/primary", "1.3" },
	{ "struct_ops.s/init", "1.2" },
};

static const char *newer_than_ours(const char *sec)
{
	size_t i;

	for (i = 0; i < sizeof(newer) / sizeof(newer[0]); i++)
		if (!strcmp(newer[i].sec, sec))
			return newer[i].since;
	return NULL;
}

/* Our row agrees with libbpf's program type and expected attach type */
static void test_sample(const char *sec)
{
	enum bpf_prog_type pt;
	enum bpf_attach_type at;
	const struct pt_def *d = pt_find(sec, NULL);
	const char *since = newer_than_ours(sec), *lt, *la;
	char why[400], row[200];
	bool ok = true;
	int r;

	snprintf(row, sizeof(row), "libbpf/%s", sec);
	why[0] = 0;
	r = libbpf_prog_type_by_name(sec, &pt, &at);
	if (!d) {
		say(false, row, "no row of the table");
		return;
	}
	if (r) {
		if (!since)
			snprintf(why, sizeof(why), "libbpf refuses it (%d) and it is not listed as newer", r);
		say(since, row, why[0] ? why : "");
		if (since)	/* said so in the log */
			printf("   (libbpf %s added it; not the one linked here)\n", since);
		return;
	}
	if (since) {
		snprintf(why, sizeof(why), "libbpf knows it: not newer than %s", since);
		say(false, row, why);
		return;
	}
	lt = libbpf_bpf_prog_type_str(pt);
	la = libbpf_bpf_attach_type_str(at);
	if (!lt || strcasecmp(lt, d->prog_type)) {
		snprintf(why, sizeof(why), "program type %s, libbpf: %s", d->prog_type, lt ? lt : "?");
		ok = false;
	} else if (d->attach_type && (!la || strcasecmp(la, d->attach_type))) {
		snprintf(why, sizeof(why), "attach type %s, libbpf: %s", d->attach_type, la ? la : "?");
		ok = false;
	}
	say(ok, row, why);
}

/* What a row says of itself holds together: the twin families are the
 * program types pt_pick_twins's sides stand for */
static void test_rows(void)
{
	const struct pt_def *t;
	int n, i;
	size_t j;

	t = pt_table(&n);
	for (i = 0; i < n; i++) {
		const struct pt_def *d = &t[i];
		bool sampled = false, ok = true;
		char why[300] = "", row[200];

		for (j = 0; j < sizeof(samples) / sizeof(samples[0]); j++)
			sampled |= pt_find(samples[j], NULL) == d;
		snprintf(row, sizeof(row), "row/%s", d->prefix);
		if (!sampled) {
			snprintf(why, sizeof(why), "no sample section finds this row");
			ok = false;
		}
		switch (d->twin) {
		case PT_TWIN_FUNC_BTF:
			ok &= d->attach == PT_ATTACH_FENTRY || d->attach == PT_ATTACH_FEXIT;
			break;
		case PT_TWIN_FUNC_PROBE:
			ok &= d->attach == PT_ATTACH_KPROBE || d->attach == PT_ATTACH_KRETPROBE;
			break;
		case PT_TWIN_TP_BTF:
			ok &= d->attach == PT_ATTACH_TP_BTF && !strcmp(d->attach_type, "TRACE_RAW_TP");
			break;
		case PT_TWIN_TP_RAW:
			ok &= d->attach == PT_ATTACH_RAW_TP && !strcmp(d->prog_type, "RAW_TRACEPOINT");
			break;
		case PT_TWIN_NONE:
			ok &= d->attach != PT_ATTACH_FENTRY && d->attach != PT_ATTACH_FEXIT &&
			      d->attach != PT_ATTACH_KPROBE && d->attach != PT_ATTACH_KRETPROBE &&
			      d->attach != PT_ATTACH_TP_BTF && d->attach != PT_ATTACH_RAW_TP;
			break;
		}
		if (!ok && !why[0])
			snprintf(why, sizeof(why), "its twin family and how run attaches it disagree");
		ok &= d->needs != PT_NEEDS_FUNC || d->func_prefix;
		say(ok, row, why[0] ? why : "a FUNC row without its function prefix");
	}
}

/* ---- the twin policy ---- */

struct twin_case {
	const char *name;
	const char *secs[6];	/* section "PREFIX/FUNC" of each program */
	const char *fail;	/* BTF-side functions the target cannot attach */
	const char *dropped;	/* the indexes expected dropped, as "0 2" */
	int asks;		/* can_attach calls expected */
};

struct ask {
	const struct twin_case *c;
	struct pt_twin_prog *p;
	int asked;
};

static bool can_attach(void *arg, int i)
{
	struct ask *a = arg;
	const char *f = a->p[i].func, *s = a->c->fail;
	size_t n = strlen(f);

	a->asked++;
	while (s && *s) {	/* space-separated names */
		if (!strncmp(s, f, n) && (s[n] == ' ' || !s[n]))
			return false;
		s += strcspn(s, " ");
		s += *s == ' ';
	}
	return true;
}

static void test_twins(void)
{
	static const struct twin_case cases[] = {
		{ "fentry-kprobe/btf-stays", { "fentry/a", "kprobe/a", "fexit/a", "kretprobe/a" },
		  NULL, "1 3", 2 },
		{ "fentry-kprobe/probe-stays", { "fentry/a", "kprobe/a", "fexit/b", "kretprobe/b" },
		  "a", "0 2", 1 },
		{ "fentry.s-is-fentry", { "fentry.s/a", "kprobe/a" }, NULL, "1", 1 },
		{ "fexit.s-is-fexit", { "fexit.s/a", "kretprobe/a" }, "a", "0", 1 },
		{ "one-family-for-the-object", { "fentry/a", "kprobe/a", "fentry/b", "kprobe/b", "fentry/c" },
		  "b", "0 2", 2 },
		{ "unpaired-stays", { "fentry/a", "kprobe/b" }, "a", "", 0 },
		{ "offset-is-no-twin", { "fentry/a", "kprobe/a+0x10" }, NULL, "", 0 },
		{ "no-target-is-no-twin", { "fentry", "kprobe" }, NULL, "", 0 },
		{ "fmod_ret-is-no-twin", { "fmod_ret/a", "kprobe/a" }, NULL, "", 0 },
		{ "tp_btf-raw_tp", { "tp_btf/t", "raw_tp/t", "raw_tracepoint/t" }, NULL, "1 2", 1 },
		{ "tp_btf-raw_tp/raw-stays", { "tp_btf/t", "raw_tp/t" }, "t", "0", 1 },
		{ "raw_tp.w-is-no-twin", { "tp_btf/t", "raw_tp.w/t" }, NULL, "", 0 },
		{ "families-apart", { "fentry/a", "kprobe/a", "tp_btf/a", "raw_tp/a" }, "a", "0 2", 2 },
		{ "tracepoint-is-no-twin", { "tp_btf/t", "tracepoint/sched/t" }, NULL, "", 0 },
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct twin_case *c = &cases[k];
		struct pt_twin_prog p[6];
		struct pt_twin_result res;
		struct ask a = { c, p, 0 };
		char got[64] = "", row[200], why[300] = "";
		size_t len = 0;
		int n, i;

		for (n = 0; n < 6 && c->secs[n]; n++) {
			const char *tgt;
			const struct pt_def *d = pt_find(c->secs[n], &tgt);

			p[n] = (struct pt_twin_prog){ d ? d->twin : PT_TWIN_NONE, tgt };
		}
		pt_pick_twins(p, n, can_attach, &a, &res);
		for (i = 0; i < n; i++)
			if (p[i].drop)
				len += snprintf(got + len, sizeof(got) - len, "%s%d", len ? " " : "", i);
		snprintf(row, sizeof(row), "twins/%s", c->name);
		if (strcmp(got, c->dropped))
			snprintf(why, sizeof(why), "dropped '%s', expected '%s'", got, c->dropped);
		else if (a.asked != c->asks)
			snprintf(why, sizeof(why), "asked the target %d times, expected %d", a.asked, c->asks);
		say(!why[0], row, why);
	}
}

int main(void)
{
	size_t i;

	libbpf_set_print(NULL);
	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		test_sample(samples[i]);
	test_rows();
	test_twins();
	return fails ? 1 : 0;
}
