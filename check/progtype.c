// SPDX-License-Identifier: MIT
/*
 * progtype.c - the one table of BPF program types by section name (libbpf
 * 1.x's section names), and the one twin policy (progtype.h).  Used by
 * relocore check (check.c) and relocore run (cli/attach.c) alike, so
 * the two cannot decide differently.
 */
#include <string.h>

#include "progtype.h"

#define FUNC(p) PT_NEEDS_FUNC, p
#define NONE PT_NEEDS_NONE, NULL

static const struct pt_def defs[] = {
	/* prefix		prog type	attach type	needs	run attaches	twin */
	{ "socket", "SOCKET_FILTER", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "sk_reuseport/migrate", "SK_REUSEPORT", "SK_REUSEPORT_SELECT_OR_MIGRATE", NONE,
	  PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "sk_reuseport", "SK_REUSEPORT", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "kprobe.multi", "KPROBE", "TRACE_KPROBE_MULTI", NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "kretprobe.multi", "KPROBE", "TRACE_KPROBE_MULTI", NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "uprobe.multi", "KPROBE", "TRACE_UPROBE_MULTI", NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "uretprobe.multi", "KPROBE", "TRACE_UPROBE_MULTI", NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "kprobe", "KPROBE", NULL, PT_NEEDS_KPROBE, NULL, PT_ATTACH_KPROBE, PT_TWIN_FUNC_PROBE },
	{ "kretprobe", "KPROBE", NULL, PT_NEEDS_KPROBE, NULL, PT_ATTACH_KRETPROBE,
	  PT_TWIN_FUNC_PROBE },
	{ "ksyscall", "KPROBE", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "kretsyscall", "KPROBE", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "uprobe", "KPROBE", NULL, NONE, PT_ATTACH_UPROBE, PT_TWIN_NONE },
	{ "uretprobe", "KPROBE", NULL, NONE, PT_ATTACH_URETPROBE, PT_TWIN_NONE },
	{ "uprobe.s", "KPROBE", NULL, NONE, PT_ATTACH_UPROBE, PT_TWIN_NONE },
	{ "uretprobe.s", "KPROBE", NULL, NONE, PT_ATTACH_URETPROBE, PT_TWIN_NONE },
	{ "usdt", "KPROBE", NULL, NONE, PT_ATTACH_USDT, PT_TWIN_NONE },
	{ "tc", "SCHED_CLS", NULL, NONE, PT_ATTACH_TC, PT_TWIN_NONE },
	{ "tcx", "SCHED_CLS", NULL, NONE, PT_ATTACH_TC, PT_TWIN_NONE },
	{ "netkit", "SCHED_CLS", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "classifier", "SCHED_CLS", NULL, NONE, PT_ATTACH_TC, PT_TWIN_NONE },
	{ "action", "SCHED_ACT", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "tracepoint", "TRACEPOINT", NULL, PT_NEEDS_TP, NULL, PT_ATTACH_TRACEPOINT, PT_TWIN_NONE },
	{ "tp", "TRACEPOINT", NULL, PT_NEEDS_TP, NULL, PT_ATTACH_TRACEPOINT, PT_TWIN_NONE },
	{ "raw_tracepoint", "RAW_TRACEPOINT", NULL, PT_NEEDS_RAW_TP, NULL, PT_ATTACH_RAW_TP,
	  PT_TWIN_TP_RAW },
	{ "raw_tp", "RAW_TRACEPOINT", NULL, PT_NEEDS_RAW_TP, NULL, PT_ATTACH_RAW_TP, PT_TWIN_TP_RAW },
	{ "raw_tracepoint.w", "RAW_TRACEPOINT_WRITABLE", NULL, PT_NEEDS_RAW_TP, NULL,
	  PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "raw_tp.w", "RAW_TRACEPOINT_WRITABLE", NULL, PT_NEEDS_RAW_TP, NULL, PT_ATTACH_AUTO,
	  PT_TWIN_NONE },
	{ "tp_btf", "TRACING", "TRACE_RAW_TP", PT_NEEDS_RAW_TP, NULL, PT_ATTACH_TP_BTF,
	  PT_TWIN_TP_BTF },
	{ "fentry", "TRACING", "TRACE_FENTRY", FUNC(""), PT_ATTACH_FENTRY, PT_TWIN_FUNC_BTF },
	{ "fentry.s", "TRACING", "TRACE_FENTRY", FUNC(""), PT_ATTACH_FENTRY, PT_TWIN_FUNC_BTF },
	{ "fmod_ret", "TRACING", "MODIFY_RETURN", FUNC(""), PT_ATTACH_BTF, PT_TWIN_NONE },
	{ "fmod_ret.s", "TRACING", "MODIFY_RETURN", FUNC(""), PT_ATTACH_BTF, PT_TWIN_NONE },
	{ "fexit", "TRACING", "TRACE_FEXIT", FUNC(""), PT_ATTACH_FEXIT, PT_TWIN_FUNC_BTF },
	{ "fexit.s", "TRACING", "TRACE_FEXIT", FUNC(""), PT_ATTACH_FEXIT, PT_TWIN_FUNC_BTF },
	{ "freplace", "EXT", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "lsm", "LSM", "LSM_MAC", FUNC("bpf_lsm_"), PT_ATTACH_BTF, PT_TWIN_NONE },
	{ "lsm.s", "LSM", "LSM_MAC", FUNC("bpf_lsm_"), PT_ATTACH_BTF, PT_TWIN_NONE },
	{ "lsm_cgroup", "LSM", "LSM_CGROUP", FUNC("bpf_lsm_"), PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "iter", "TRACING", "TRACE_ITER", FUNC("bpf_iter_"), PT_ATTACH_ITER, PT_TWIN_NONE },
	{ "iter.s", "TRACING", "TRACE_ITER", FUNC("bpf_iter_"), PT_ATTACH_ITER, PT_TWIN_NONE },
	{ "syscall", "SYSCALL", NULL, NONE, PT_ATTACH_RUN, PT_TWIN_NONE },
	{ "xdp.frags", "XDP", NULL, NONE, PT_ATTACH_XDP, PT_TWIN_NONE },
	{ "xdp", "XDP", NULL, NONE, PT_ATTACH_XDP, PT_TWIN_NONE },
	{ "perf_event", "PERF_EVENT", NULL, NONE, PT_ATTACH_PERF_EVENT, PT_TWIN_NONE },
	{ "lwt_in", "LWT_IN", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "lwt_out", "LWT_OUT", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "lwt_xmit", "LWT_XMIT", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "lwt_seg6local", "LWT_SEG6LOCAL", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "sockops", "SOCK_OPS", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "sk_skb", "SK_SKB", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "sk_msg", "SK_MSG", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "lirc_mode2", "LIRC_MODE2", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "flow_dissector", "FLOW_DISSECTOR", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "cgroup_skb", "CGROUP_SKB", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "cgroup/skb", "CGROUP_SKB", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "cgroup/sock_create", "CGROUP_SOCK", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "cgroup/sock_release", "CGROUP_SOCK", "CGROUP_INET_SOCK_RELEASE", NONE, PT_ATTACH_CGROUP,
	  PT_TWIN_NONE },
	{ "cgroup/sock", "CGROUP_SOCK", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "cgroup/post_bind4", "CGROUP_SOCK", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "cgroup/post_bind6", "CGROUP_SOCK", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "cgroup/dev", "CGROUP_DEVICE", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "cgroup/sysctl", "CGROUP_SYSCTL", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "cgroup/getsockopt", "CGROUP_SOCKOPT", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "cgroup/setsockopt", "CGROUP_SOCKOPT", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE },
	{ "struct_ops", "STRUCT_OPS", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "struct_ops.s", "STRUCT_OPS", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "sk_lookup", "SK_LOOKUP", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
	{ "netfilter", "NETFILTER", NULL, NONE, PT_ATTACH_AUTO, PT_TWIN_NONE },
};

/* cgroup/bind4, connect6, sendmsg4, recvmsg6, getpeername4, ...: one row */
static const char *const sock_addr_ops[] = {
	"bind", "connect", "sendmsg", "recvmsg", "getpeername", "getsockname",
};

static const struct pt_def sock_addr_def = {
	"cgroup/", "CGROUP_SOCK_ADDR", NULL, NONE, PT_ATTACH_CGROUP, PT_TWIN_NONE
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

const struct pt_def *pt_table(int *n)
{
	*n = ARRAY_LEN(defs);
	return defs;
}

const struct pt_def *pt_find(const char *sec, const char **target)
{
	const char *dummy;
	size_t i, n;

	if (!target)
		target = &dummy;
	*target = NULL;
	for (i = 0; i < ARRAY_LEN(defs); i++) {
		n = strlen(defs[i].prefix);
		if (strncmp(sec, defs[i].prefix, n) || (sec[n] && sec[n] != '/'))
			continue;
		if (sec[n] == '/' && sec[n + 1])
			*target = sec + n + 1;
		return &defs[i];
	}
	for (i = 0; !strncmp(sec, "cgroup/", 7) && i < ARRAY_LEN(sock_addr_ops); i++)
		if (!strncmp(sec + 7, sock_addr_ops[i], strlen(sock_addr_ops[i])))
			return &sock_addr_def;
	return NULL;
}

enum pt_attach pt_attach_of(const char *sec)
{
	const struct pt_def *d = pt_find(sec, NULL);

	return d ? d->attach : PT_ATTACH_AUTO;
}

/* A function (tracepoint) a twin can be matched on: not FUNC+OFF, not
 * BINARY:FUNC, not empty. */
static bool twin_func(const struct pt_twin_prog *p)
{
	return p->func && *p->func && !strpbrk(p->func, "+:");
}

static bool twins(const struct pt_twin_prog *a, const struct pt_twin_prog *b)
{
	return twin_func(a) && twin_func(b) && !strcmp(a->func, b->func);
}

void pt_pick_twins(struct pt_twin_prog *p, int n,
		   bool (*can_attach)(void *arg, int i), void *arg,
		   struct pt_twin_result *res)
{
	int fam, i, j;

	for (i = 0; i < n; i++)
		p[i].pair = p[i].drop = false;
	for (fam = 0; fam < 2; fam++) {
		enum pt_twin btf = fam ? PT_TWIN_TP_BTF : PT_TWIN_FUNC_BTF;
		enum pt_twin other = fam ? PT_TWIN_TP_RAW : PT_TWIN_FUNC_PROBE;
		bool ok = true;

		res->pairs[fam] = 0;
		for (i = 0; i < n; i++) {
			if (p[i].twin != btf && p[i].twin != other)
				continue;
			for (j = 0; j < n; j++)
				if (p[j].twin == (p[i].twin == btf ? other : btf) && twins(&p[i], &p[j]))
					break;
			if (j == n)
				continue;
			p[i].pair = true;
			res->pairs[fam]++;
		}
		for (i = 0; i < n && ok; i++)
			if (p[i].pair && p[i].twin == btf)
				ok = can_attach(arg, i);
		res->btf[fam] = ok;
		for (i = 0; i < n; i++)
			if (p[i].pair && p[i].twin == (ok ? other : btf))
				p[i].drop = true;
	}
}
