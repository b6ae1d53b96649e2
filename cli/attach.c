// SPDX-License-Identifier: MIT
/*
 * attach.c - what `relocore run` does with the load options (load_opts.c)
 * on a libbpf object and the running kernel:
 *
 *   before load    attach_prepare(): autoload, --attach-target's first
 *                  FUNC the kernel has, --optional, map sizes, --set
 *                  attach_pick_twins(): fentry/fexit or kprobe/kretprobe,
 *                  tp_btf or raw_tp, as libbpf-tools decide
 *                  attach_btf_targets(): bpf_program__set_attach_target()
 *   after load     attach_skip(), attach_program(): each program as the
 *                  options say, else as its section says: an XDP, tc or
 *                  cgroup program where --xdp/--tc/--cgroup names (a link), an
 *                  iterator read through, a syscall program run once
 *
 * How a section attaches and which sections are twins is check/progtype.h's
 * one table (pt_find, pt_attach_of, pt_pick_twins), as check decides it;
 * what the kernel has is asked of probe.c.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attach.h"
#include "cli.h"
#include "load_opts.h"
#include "probe.h"
#include "progtype.h"

/* The name after the section's first '/', or "" */
static const char *sec_target(const char *sec)
{
	const char *s = strchr(sec, '/');

	return s ? s + 1 : "";
}

/* @p's attach point: --attach-target's FUNC, else its section's */
static const char *prog_target(const struct load_opts *l, struct bpf_program *p)
{
	const char *t = load_attach_target(l, p);

	return t ? t : sec_target(bpf_program__section_name(p));
}

/* --- before load ----------------------------------------------------------- */

/* MAP=N entries (checked by load_opts_check): @set(map, N) for each */
static int set_maps(struct bpf_object *obj, const char *const *arr, int nr, const char *opt,
		    int (*set)(struct bpf_map *, __u32))
{
	char name[256];
	int i;

	for (i = 0; i < nr; i++)
		if (set(bpf_object__find_map_by_name(obj, load_opt_name(arr[i], name, sizeof(name))),
			strtoul(load_opt_value(arr[i]), NULL, 0))) {
			fprintf(stderr, "relocore: %s %s: %s\n", opt, arr[i], strerror(errno));
			return -1;
		}
	return 0;
}

int attach_prepare(struct load_opts *l, struct bpf_object *obj, const char *what)
{
	struct bpf_program *p;
	char name[256];
	int i;

	if (load_opts_check(l, obj, what))
		return -1;
	bpf_object__for_each_program(p, obj)
		if (load_opt_has(l->no_autoload, l->nr_no_autoload, bpf_program__name(p)))
			bpf_program__set_autoload(p, false);
	/* FUNC,FUNC,...: the first the running kernel has */
	for (i = 0; i < l->nr_attach_target; i++) {
		const char *v = load_opt_value(l->attach_target[i]);
		char *copy, *tok, *save = NULL;

		if (!strchr(v, ','))
			continue;
		p = bpf_object__find_program_by_name(obj, load_opt_name(l->attach_target[i], name, sizeof(name)));
		copy = strdup(v);
		for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save))
			if (probe_has_attach(bpf_program__section_name(p), tok))
				break;
		if (tok) {
			free(l->resolved[i]);	/* (prepared again: run --keep-going) */
			l->resolved[i] = strdup(tok);
			fprintf(stderr, "relocore run: --attach-target %s: the kernel has %s\n",
				l->attach_target[i], tok);
		} else if (load_opt_has(l->optional, l->nr_optional, name)) {
			bpf_program__set_autoload(p, false);
			fprintf(stderr, "relocore run: %s: the kernel has none of %s (--optional): not loaded\n",
				name, v);
		} else {
			fprintf(stderr, "relocore: --attach-target %s: the running kernel has none of them\n",
				l->attach_target[i]);
			free(copy);
			return -1;
		}
		free(copy);
	}
	bpf_object__for_each_program(p, obj) {
		const char *t;

		if (!load_opt_has(l->optional, l->nr_optional, bpf_program__name(p)) ||
		    !bpf_program__autoload(p))
			continue;
		t = prog_target(l, p);
		if (*t && !probe_has_attach(bpf_program__section_name(p), t)) {
			bpf_program__set_autoload(p, false);
			fprintf(stderr, "relocore run: %s: the kernel has no %s (section %s; --optional): not loaded\n",
				bpf_program__name(p), t, bpf_program__section_name(p));
		}
	}
	if (set_maps(obj, l->map_size, l->nr_map_size, "--map-size", bpf_map__set_max_entries) ||
	    set_maps(obj, l->value_size, l->nr_value_size, "--map-value-size", bpf_map__set_value_size))
		return -1;
	for (i = 0; i < l->nr_no_autocreate; i++)
		if (bpf_map__set_autocreate(bpf_object__find_map_by_name(obj, l->no_autocreate[i]), false)) {
			fprintf(stderr, "relocore: --no-autocreate %s: %s\n", l->no_autocreate[i], strerror(errno));
			return -1;
		}
	for (i = 0; i < l->nr_sets; i++)
		if (load_opt_set_global(obj, l->sets[i], what))
			return -1;
	return 0;
}

/* --- before load: twins, fentry/kprobe, fexit/kretprobe, tp_btf/raw_tp ------ */

/* The running kernel can attach BTF-side twin @i (pt_pick_twins) */
struct twin_probe {
	struct bpf_program **progs;
	struct pt_twin_prog *tw;
	int n;
};

static bool twin_attaches(void *arg, int i)
{
	const struct twin_probe *t = arg;
	enum pt_attach k = pt_attach_of(bpf_program__section_name(t->progs[i]));
	const char *f = t->tw[i].func;
	int j;

	/* one probe per function: an entry probe if any program of the pair
	 * is an fentry one, else an exit probe; asked once (an earlier
	 * program on it answered yes, else pt_pick_twins had stopped) */
	for (j = 0; j < t->n; j++) {
		enum pt_attach kj;

		if (j == i || !t->tw[j].pair || t->tw[j].twin != t->tw[i].twin ||
		    strcmp(t->tw[j].func, f))
			continue;
		if (j < i)
			return true;
		kj = pt_attach_of(bpf_program__section_name(t->progs[j]));
		if (kj == PT_ATTACH_FENTRY)
			k = kj;
	}

	return probe_btf_attaches(k, f);
}

/* " NAME" of every program of family @fam in a pair, dropped or kept,
 * into @buf; the functions (tracepoints) they trace into @funcs */
static void twin_names(const struct twin_probe *t, int n, int fam, bool drop,
		       char *buf, size_t cap, char *funcs, size_t fcap)
{
	size_t len = 0, lf = 0;
	int i, j;

	buf[0] = 0;
	if (funcs)
		funcs[0] = 0;
	for (i = 0; i < n; i++) {
		bool tp = t->tw[i].twin == PT_TWIN_TP_BTF || t->tw[i].twin == PT_TWIN_TP_RAW;

		if (!t->tw[i].pair || tp != fam)
			continue;
		if (t->tw[i].drop == drop && len < cap)
			len += snprintf(buf + len, cap - len, "%s%s", len ? " " : "",
					bpf_program__name(t->progs[i]));
		for (j = 0; j < i && funcs; j++)	/* each function once */
			if (t->tw[j].pair && !strcmp(t->tw[j].func, t->tw[i].func))
				break;
		if (funcs && j == i && lf < fcap)
			lf += snprintf(funcs + lf, fcap - lf, "%s%s", lf ? " " : "", t->tw[i].func);
	}
}

/*
 * libbpf-tools decide once per tool whether their fentry/fexit (tp_btf)
 * programs or their kprobe/kretprobe (raw_tp) twins are loaded, and switch
 * the others off: progtype.c's pt_pick_twins, as relocore check decides,
 * with a probe program loaded and attached at each BTF-side program's
 * function (fentry_can_attach) as the question.
 */
int attach_pick_twins(const struct load_opts *l, struct bpf_object *obj, bool json)
{
	static struct bpf_program *progs[1024];
	static struct pt_twin_prog tw[1024];
	struct twin_probe t = { progs, tw, 0 };
	struct pt_twin_result res;
	struct bpf_program *p;
	int n = 0, fam;

	bpf_object__for_each_program(p, obj) {
		const struct pt_def *d = pt_find(bpf_program__section_name(p), NULL);

		if (!bpf_program__autoload(p) || n == 1024 || !d || d->twin == PT_TWIN_NONE)
			continue;
		progs[n] = p;
		tw[n++] = (struct pt_twin_prog){ d->twin, prog_target(l, p) };
	}
	t.n = n;
	pt_pick_twins(tw, n, twin_attaches, &t, &res);
	for (fam = 0; fam < 2; fam++) {
		char won[2048], lost[2048], funcs[2048];
		bool ok = res.btf[fam];
		int i;

		if (!res.pairs[fam])
			continue;
		twin_names(&t, n, fam, false, won, sizeof(won), funcs, sizeof(funcs));
		twin_names(&t, n, fam, true, lost, sizeof(lost), NULL, 0);
		for (i = 0; i < n; i++)
			if (tw[i].drop)
				bpf_program__set_autoload(progs[i], false);
		if (json) {
			printf("{\"alternatives\":");
			cli_json_str(stdout, funcs);
			printf(",\"loaded\":");
			cli_json_str(stdout, won);
			printf(",\"not_loaded\":");
			cli_json_str(stdout, lost);
			printf(",\"btf_attachable\":%s}\n", ok ? "true" : "false");
		}
		fprintf(stderr, "relocore run: %s and %s programs trace the same %s (%s); the kernel %s "
			"attach the %s ones: loading %s; not %s (--no-autoload chooses)\n",
			fam ? "tp_btf" : "fentry/fexit", fam ? "raw_tp" : "kprobe/kretprobe",
			fam ? "tracepoints" : "functions", funcs, ok ? "can" : "cannot",
			fam ? "tp_btf" : "fentry/fexit", won, lost);
	}
	return res.pairs[0] + res.pairs[1];
}

int attach_btf_targets(const struct load_opts *l, struct bpf_object *obj)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		const char *tgt = load_attach_target(l, p);
		enum pt_attach k = pt_attach_of(bpf_program__section_name(p));

		if (!tgt || !bpf_program__autoload(p) ||
		    !(k == PT_ATTACH_FENTRY || k == PT_ATTACH_FEXIT || k == PT_ATTACH_BTF ||
		      k == PT_ATTACH_ITER || k == PT_ATTACH_TP_BTF))
			continue;
		if (bpf_program__set_attach_target(p, 0, tgt)) {
			fprintf(stderr, "relocore: --attach-target %s=%s: %s (not in the kernel's BTF, vmlinux or modules)\n",
				bpf_program__name(p), tgt, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* --- after load: attaching ------------------------------------------------- */

bool attach_skip(const struct load_opts *l, struct bpf_program *p)
{
	const char *t;

	if (load_opt_has(l->no_autoattach, l->nr_no_autoattach, bpf_program__name(p)))
		return true;
	if (!load_opt_has(l->if_present, l->nr_if_present, bpf_program__name(p)))
		return false;
	t = prog_target(l, p);
	if (!*t || probe_has_attach(bpf_program__section_name(p), t))
		return false;
	fprintf(stderr, "relocore run: %s: the kernel has no %s (--attach-if-present): loaded, not attached\n",
		bpf_program__name(p), t);
	return true;
}

/* An iterator: attached, an instance created and read to its end; what it
 * wrote printed ({"iter":NAME,"output":"..."} with @json).  The link in
 * @links[0]: 1, or -1 with errno and *@why. */
static int attach_iter(struct bpf_program *p, struct bpf_link **links, bool json,
		       const char **why)
{
	static char msg[300];
	struct bpf_link *lk = bpf_program__attach_iter(p, NULL);
	size_t len = 0, cap = 1 << 16;
	char *buf;
	ssize_t n;
	int fd, e;

	if (!lk)
		return -1;
	links[0] = lk;
	fd = bpf_iter_create(bpf_link__fd(lk));
	buf = malloc(cap);
	if (fd < 0 || !buf) {
		e = fd < 0 ? errno : ENOMEM;
		snprintf(msg, sizeof(msg), "bpf_iter_create: %s", strerror(e));
		*why = msg;
		free(buf);
		if (fd >= 0)
			close(fd);
		errno = e;
		return -2;	/* the link was made */
	}
	/* read through (bounded: an iterator's output is for a person) */
	while (len < (64u << 20) && (n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len == cap) {
			char *more = realloc(buf, cap * 2);

			if (!more)
				break;
			buf = more;
			cap *= 2;
		}
	}
	close(fd);
	if (json) {
		printf("{\"iter\":\"%s\",\"output\":", bpf_program__name(p));
		cli_json_strn(stdout, buf, len);
		printf("}\n");
	} else {
		printf("%s: iterator output (%zu bytes):\n%.*s", bpf_program__name(p), len, (int)len, buf);
	}
	free(buf);
	return 1;
}

static int perf_open(struct perf_event_attr *a, int cpu)
{
	return syscall(__NR_perf_event_open, a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* tcx (Linux 6.6; Debian 12's UAPI headers predate it) */
#ifndef BPF_TCX_INGRESS
#define BPF_TCX_INGRESS 46
#define BPF_TCX_EGRESS 47
#endif

/* --tc PROG=IFACE[:ingress|:egress]: a tcx link, its fd in *@rawfd.  A
 * legacy tc filter (cls_bpf) would outlive a killed relocore run, a link
 * does not, so kernels before 6.6 are refused with that reason. */
static int attach_tc(struct bpf_program *p, const char *v, int *rawfd, const char **why)
{
	static char msg[400];
	char ifname[64];
	const char *colon = strchr(v, ':');
	bool egress = colon && !strcmp(colon + 1, "egress");
	unsigned int ifindex;
	int fd;

	snprintf(ifname, sizeof(ifname), "%.*s", colon ? (int)(colon - v) : (int)strlen(v), v);
	if (colon && strcmp(colon + 1, "ingress") && !egress) {
		snprintf(msg, sizeof(msg), "--tc %s=%s: the direction is ingress or egress",
			 bpf_program__name(p), v);
		*why = msg;
		errno = EINVAL;
		return -1;
	}
	ifindex = if_nametoindex(ifname);
	if (!ifindex) {
		snprintf(msg, sizeof(msg), "--tc %s=%s: no interface %s", bpf_program__name(p), v, ifname);
		*why = msg;
		errno = ENODEV;
		return -1;
	}
	fd = bpf_link_create(bpf_program__fd(p), ifindex,
			     egress ? BPF_TCX_EGRESS : BPF_TCX_INGRESS, NULL);
	if (fd < 0) {
		int e = errno;

		snprintf(msg, sizeof(msg), "tcx link on %s %s: %s%s", ifname,
			 egress ? "egress" : "ingress", strerror(e),
			 e == EINVAL ? " (tcx needs Linux 6.6; relocore run attaches no legacy tc "
				       "filter: it would outlive a killed run)" : "");
		*why = msg;
		errno = e;
		return -1;
	}
	*rawfd = fd;
	return 0;
}

int attach_program(const struct load_opts *l, struct bpf_program *p,
		   struct bpf_link **links, int max, bool json, int *rawfd, const char **why)
{
	const char *sec = bpf_program__section_name(p), *name = bpf_program__name(p);
	enum pt_attach k = pt_attach_of(sec);
	const char *tgt = load_attach_target(l, p), *v;
	struct bpf_link *lk = NULL;
	static char msg[512];

	*why = NULL;
	*rawfd = -1;
	if (k == PT_ATTACH_TC) {
		v = load_opt_for(l->tc, l->nr_tc, name);
		if (!v) {
			snprintf(msg, sizeof(msg),
				 "needs --tc %s=IFACE[:ingress|:egress] (a tc program: user space names the interface)",
				 name);
			*why = msg;
			errno = EINVAL;
			return -1;
		}
		return attach_tc(p, v, rawfd, why);
	}
	if (k == PT_ATTACH_PERF_EVENT) {
		struct perf_event_attr a;
		int cpu, ncpu = libbpf_num_possible_cpus(), n = 0, fd;

		v = load_opt_for(l->perf_event, l->nr_perf_event, name);
		if (!v) {
			snprintf(msg, sizeof(msg), "needs --perf-event %s=EVENT[:PERIOD] (a perf_event program: user space opens the events)", name);
			*why = msg;
			errno = EINVAL;
			return -1;
		}
		load_perf_attr(v, &a);
		for (cpu = 0; cpu < ncpu && n < max; cpu++) {
			fd = perf_open(&a, cpu);
			if (fd < 0) {
				if (errno == ENODEV)	/* an offline CPU */
					continue;
				snprintf(msg, sizeof(msg), "perf_event_open(%s) on CPU %d: %s", v, cpu, strerror(errno));
				*why = msg;
				return n ? -n - 1 : -1;
			}
			lk = bpf_program__attach_perf_event(p, fd);
			if (!lk) {
				int e = errno;

				close(fd);
				errno = e;
				snprintf(msg, sizeof(msg), "attach to perf event %s on CPU %d: %s", v, cpu, strerror(e));
				*why = msg;
				return n ? -n - 1 : -1;
			}
			links[n++] = lk;
		}
		return n;
	}
	if (load_opt_for(l->uprobe, l->nr_uprobe, name) || k == PT_ATTACH_UPROBE || k == PT_ATTACH_URETPROBE) {
		size_t nl = strlen(name);
		int i, cnt = 0;

		if (!load_opt_for(l->uprobe, l->nr_uprobe, name)) {
			/* libbpf's own form: uprobe/BINARY:FUNC in the section */
			if (strchr(sec_target(sec), ':'))
				goto libbpf;
			snprintf(msg, sizeof(msg), "needs --uprobe %s=BINARY:FUNC (section %s names no binary)", name, sec);
			*why = msg;
			errno = EINVAL;
			return -1;
		}
		/* every --uprobe PROG=...: one attachment each */
		for (i = 0; i < l->nr_uprobe && cnt < max; i++) {
			LIBBPF_OPTS(bpf_uprobe_opts, uo);
			char bin[PATH_MAX];

			if (strncmp(l->uprobe[i], name, nl) || l->uprobe[i][nl] != '=')
				continue;
			v = l->uprobe[i] + nl + 1;
			snprintf(bin, sizeof(bin), "%.*s", (int)(strrchr(v, ':') - v), v);
			uo.func_name = strrchr(v, ':') + 1;
			uo.retprobe = k == PT_ATTACH_URETPROBE || k == PT_ATTACH_KRETPROBE;
			lk = bpf_program__attach_uprobe_opts(p, -1, bin, 0, &uo);
			if (!lk) {
				int e = errno;

				snprintf(msg, sizeof(msg), "uprobe on %s: %s", v, strerror(e));
				*why = msg;
				errno = e;
				return cnt ? -cnt - 1 : -1;
			}
			links[cnt++] = lk;
		}
		return cnt;
	}
	if (k == PT_ATTACH_USDT && !strchr(sec_target(sec), ':')) {
		snprintf(msg, sizeof(msg), "needs a USDT probe of a running process (section %s names none; "
			 "relocore run attaches no USDT by option)", sec);
		*why = msg;
		errno = EOPNOTSUPP;
		return -1;
	}
	if (tgt && (k == PT_ATTACH_KPROBE || k == PT_ATTACH_KRETPROBE)) {
		lk = bpf_program__attach_kprobe(p, k == PT_ATTACH_KRETPROBE, tgt);
		goto done;
	}
	if (tgt && k == PT_ATTACH_RAW_TP) {
		lk = bpf_program__attach_raw_tracepoint(p, tgt);
		goto done;
	}
	if (tgt && k == PT_ATTACH_TRACEPOINT) {
		char cat[256];

		if (!strchr(tgt, '/')) {
			snprintf(msg, sizeof(msg), "--attach-target %s=%s: a tracepoint is CATEGORY/NAME", name, tgt);
			*why = msg;
			errno = EINVAL;
			return -1;
		}
		snprintf(cat, sizeof(cat), "%.*s", (int)(strchr(tgt, '/') - tgt), tgt);
		lk = bpf_program__attach_tracepoint(p, cat, strchr(tgt, '/') + 1);
		goto done;
	}
	if (k == PT_ATTACH_XDP || k == PT_ATTACH_CGROUP) {
		bool xdp = k == PT_ATTACH_XDP;

		v = load_opt_for(xdp ? l->xdp : l->cgroup, xdp ? l->nr_xdp : l->nr_cgroup, name);
		if (!v) {
			snprintf(msg, sizeof(msg), xdp ?
				 "needs --xdp %s=IFACE (an XDP program: user space names the interface)" :
				 "needs --cgroup %s=PATH (user space names the cgroup: a cgroup v2 directory)",
				 name);
			*why = msg;
			errno = EINVAL;
			return -1;
		}
		if (xdp) {
			unsigned int ifindex = if_nametoindex(v);

			if (!ifindex) {
				snprintf(msg, sizeof(msg), "--xdp %s=%s: no interface %s", name, v, v);
				*why = msg;
				errno = ENODEV;
				return -1;
			}
			lk = bpf_program__attach_xdp(p, ifindex);
		} else {
			int fd = open(v, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e;

			if (fd < 0) {
				snprintf(msg, sizeof(msg), "--cgroup %s=%s: %s", name, v, strerror(errno));
				*why = msg;
				return -1;
			}
			lk = bpf_program__attach_cgroup(p, fd);	/* the link holds the cgroup */
			e = errno;
			close(fd);
			errno = e;
		}
		goto done;
	}
	if (k == PT_ATTACH_ITER)
		return attach_iter(p, links, json, why);
	if (k == PT_ATTACH_RUN) {
		LIBBPF_OPTS(bpf_test_run_opts, to);

		if (bpf_prog_test_run_opts(bpf_program__fd(p), &to)) {
			snprintf(msg, sizeof(msg), "BPF_PROG_RUN: %s", strerror(errno));
			*why = msg;
			return -1;
		}
		if (json)
			printf("{\"run\":\"%s\",\"retval\":%u}\n", name, to.retval);
		else
			printf("%s: ran once (BPF_PROG_RUN): retval %u\n", name, to.retval);
		return 0;
	}
libbpf:
	lk = bpf_program__attach(p);
done:
	if (!lk)
		return -1;
	links[0] = lk;
	return 1;
}
