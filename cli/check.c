// SPDX-License-Identifier: MIT
/*
 * check.c - relocore check: will OBJ load and attach on that kernel (or on
 * every kernel of an archive), decided offline.  The deciding is
 * librelocore's rc_check_object(); this file picks targets and prints.
 *
 *   relocore check OBJ (--btf T | --archive A [--release R | --all]) [--json]
 *
 * Exit 0 when every program is ok on every kernel asked, 1 when not, 2 on
 * bad input (options, object, target).
 */
#include <bpf/btf.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "btfgen.h"
#include "cli.h"
#include "load_opts.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: relocore check OBJ|BIN... [--object N|NAME] (--btf FILE | --archive A [--release R | --all]) [--json]\n"
"\n"
"Decide offline, per program, whether OBJ loads and attaches on the target\n"
"kernel, and if not, why.  BIN: a binary that embeds BPF objects (a libbpf\n"
"skeleton's tool); --object picks one of several.  Several OBJs share each\n"
"target (built once per kernel); --json prints one document per object,\n"
"one per line.  Problems, by kind:\n"
"  relocation    a poisoned CO-RE relocation reachable from the program's\n"
"                entry (branches pruned on known constants: relocated\n"
"                EXISTS/enum/size values), or a refused one\n"
"  attach        the section's attach target is not in the target BTF\n"
"                (fentry/fexit/fmod_ret/lsm/iter FUNC, tp_btf/raw_tp\n"
"                btf_trace_*, kprobe FUNC, tracepoint event)\n"
"  helper        a reachable helper call not in enum bpf_func_id\n"
"  map           a map type not in enum bpf_map_type; max_entries 0\n"
"                (\"needs ...\": user space must size it)\n"
"  program_type  the section's program or attach type is unknown\n"
"  open          libbpf refuses to open the object (legacy maps section)\n"
"  kfunc         a kfunc or typed __ksym extern the target BTF lacks (a weak\n"
"                kfunc: where its call is reachable)\n"
"  kconfig       a .kconfig extern the target's config (--kconfig) cannot give\n"
"Not decided (never guessed): verifier complexity, stack depth, helper\n"
"argument types.\n"
"\n"
"Options:\n"
TARGET_HELP
"  --all            every kernel of the --archive (one row per release)\n"
"  --object N|NAME  the embedded object of BIN, by index or name\n"
"  --kernel-release REL  the target's `uname -r`, for the .kconfig externs\n"
"                   (LINUX_KERNEL_VERSION ...): they are baked with the\n"
"                   target's values and prune branches as on the target\n"
"                   (default with --archive: the release taken from it)\n"
"  --kconfig FILE   the target's kernel config, for CONFIG_* externs\n"
"  --no-kernel-btf  the target kernel has no BTF of its own (the --btf or\n"
"                   archive BTF stands in for it): fentry/fexit/fmod_ret/\n"
"                   lsm/iter/tp_btf programs cannot attach there\n"
"What a tool's user space decides when it loads OBJ (the options of\n"
"relocore run; programs it does not load are not listed; .rodata values\n"
"(--set) are accepted and not used to prune branches; fentry/kprobe and\n"
"tp_btf/raw_tp twins are decided as relocore run decides them):\n"
LOAD_HELP
"  --json           {\"object\",\"kernels\":[{\"release\",\"target\",\"programs\":\n"
"                   [{\"name\",\"section\",\"ok\",\"problems\":[{\"kind\",\"detail\"}]}],\n"
"                   \"not_loaded\":[{\"name\",\"section\"}]}]}\n"
"  -h, --help       this text\n"
"\n"
"Exit status: 0 every program ok everywhere, 1 not, 2 bad input.\n");
}

struct kernel {
	char *release;		/* NULL when the target has none (--btf) */
	char *target;
	struct rc_check *res;
};

static void print_text(const char *obj, const struct kernel *k)
{
	int i, j;

	printf("%s on %s%s%s%s:\n", obj, k->target, k->release ? " (" : "",
	       k->release ? k->release : "", k->release ? ")" : "");
	for (i = 0; i < k->res->nr_progs; i++) {
		const struct rc_check_prog *p = &k->res->progs[i];

		printf("  %-4s %s (%s)\n", p->ok ? "ok" : "FAIL", p->name, p->section);
		for (j = 0; j < p->nr_problems; j++)
			printf("       %s: %s\n", rc_check_kind_str(p->problems[j].kind),
			       p->problems[j].detail);
	}
	for (i = 0; i < k->res->nr_not_loaded; i++)
		printf("  --   %s (%s): not loaded (the load options, or its fentry/kprobe or tp_btf/raw_tp twin is)\n",
		       k->res->not_loaded[i].name, k->res->not_loaded[i].section);
	if (!k->res->nr_progs)
		printf("  (no programs)\n");
	for (i = 0; i < k->res->nr_undecided; i++)
		printf("  not decided: %s\n", k->res->undecided[i]);
}

static void print_json(const char *obj, const struct kernel *ks, int nk)
{
	int n, i, j;

	printf("{\"object\":");
	cli_json_str(stdout, obj);
	printf(",\"kernels\":[");
	for (n = 0; n < nk; n++) {
		const struct kernel *k = &ks[n];

		printf("%s{\"release\":", n ? "," : "");
		if (k->release)
			cli_json_str(stdout, k->release);
		else
			printf("null");
		printf(",\"target\":");
		cli_json_str(stdout, k->target);
		printf(",\"programs\":[");
		for (i = 0; i < k->res->nr_progs; i++) {
			const struct rc_check_prog *p = &k->res->progs[i];

			printf("%s{\"name\":", i ? "," : "");
			cli_json_str(stdout, p->name);
			printf(",\"section\":");
			cli_json_str(stdout, p->section);
			printf(",\"ok\":%s,\"problems\":[", p->ok ? "true" : "false");
			for (j = 0; j < p->nr_problems; j++) {
				printf("%s{\"kind\":\"%s\",\"detail\":", j ? "," : "",
				       rc_check_kind_str(p->problems[j].kind));
				cli_json_str(stdout, p->problems[j].detail);
				printf("}");
			}
			printf("]}");
		}
		printf("],\"not_loaded\":[");
		for (i = 0; i < k->res->nr_not_loaded; i++) {
			printf("%s{\"name\":", i ? "," : "");
			cli_json_str(stdout, k->res->not_loaded[i].name);
			printf(",\"section\":");
			cli_json_str(stdout, k->res->not_loaded[i].section);
			printf("}");
		}
		printf("]}");
	}
	printf("]}\n");
}

/* what user space does at load time: the load options (load_opts.c) */
static struct rc_check_opts check_opts = { sizeof(check_opts), .pick_alternatives = true };
static const char *names_buf[4 * LOAD_MAX_OPTS];

/* "NAME=..." entries -> their NAMEs, appended to @list from names_buf */
static size_t names_of(const char *const *arr, int n, size_t *used)
{
	size_t start = *used;
	int i;

	for (i = 0; i < n && *used < sizeof(names_buf) / sizeof(names_buf[0]); i++)
		names_buf[(*used)++] = strndup(arr[i], strcspn(arr[i], "="));
	return *used - start;
}

static void set_check_opts(const struct load_opts *l)
{
	size_t used = 0, n;

	check_opts.no_autoload = l->no_autoload;
	check_opts.nr_no_autoload = l->nr_no_autoload;
	check_opts.attach_target = l->attach_target;
	check_opts.nr_attach_target = l->nr_attach_target;
	check_opts.optional = l->optional;
	check_opts.nr_optional = l->nr_optional;
	check_opts.sized_maps = names_buf;
	check_opts.nr_sized_maps = names_of(l->map_size, l->nr_map_size, &used);
	check_opts.user_attached = names_buf + used;
	n = names_of(l->uprobe, l->nr_uprobe, &used);
	n += names_of(l->perf_event, l->nr_perf_event, &used);
	n += names_of(l->no_autoattach, l->nr_no_autoattach, &used);
	n += names_of(l->if_present, l->nr_if_present, &used);
	check_opts.nr_user_attached = n;
}

static int add_kernel(struct kernel **ks, int *nk, const struct rc_object *obj,
		      const struct rc_target *t, const char *release,
		      const char *what, const struct rc_kconfig *kc0)
{
	struct rc_kconfig kc = kc0 ? *kc0 : (struct rc_kconfig){ 0 };
	struct rc_error err = { "" };
	struct kernel *k = realloc(*ks, sizeof(**ks) * (*nk + 1));

	if (!k)
		return -1;
	*ks = k;
	k += *nk;
	memset(k, 0, sizeof(*k));
	if (!kc.release)
		kc.release = release;
	k->res = rc_check_object_opts(obj, t, &kc, &check_opts, &err);
	if (!k->res) {
		fprintf(stderr, "relocore check: %s\n", err.msg);
		return -1;
	}
	k->release = release ? strdup(release) : NULL;
	k->target = strdup(what);
	(*nk)++;
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One object and its answers, a kernel each. */
struct objrun {
	struct rc_object *obj;
	struct kernel *ks;
	int nk;
};

/* Every kernel of the archive @path, each target built once for all
 * @nobj objects; one progress line per kernel on stderr, with what the
 * target and the checks took. */
static int check_all(const char *path, struct objrun *objs, int nobj)
{
	struct rc_error err = { "" };
	double t0 = now_ms(), t1, t2;
	struct bg_archive *a = bg_archive_open(path, &err);
	char *rels, *save = NULL, *r, what[600];
	int ret = 0, n = 0, o;

	if (!a) {
		fprintf(stderr, "relocore check: archive: %s\n", err.msg);
		return -1;
	}
	rels = strdup(bg_archive_releases(a));
	fprintf(stderr, "relocore check: %s opened in %.0f ms\n", path, now_ms() - t0);
	t0 = now_ms();
	for (r = rels ? strtok_r(rels, " ", &save) : NULL; r && !ret;
	     r = strtok_r(NULL, " ", &save)) {
		struct btf *btf;

		t1 = now_ms();
		btf = bg_archive_get(a, r, &err);
		struct rc_target *t = NULL;

		if (btf && rc_btf_validate(btf, path, &err)) {
			btf__free(btf);
			btf = NULL;
		}
		if (btf && !(t = rc_target_adopt(btf)))
			btf__free(btf);
		if (!t) {
			fprintf(stderr, "relocore check: archive %s[%s]: %s\n", path, r,
				err.msg[0] ? err.msg : "out of memory");
			ret = -1;
			break;
		}
		snprintf(what, sizeof(what), "%s[%s]", path, r);
		t2 = now_ms();
		for (o = 0; o < nobj && !ret; o++)
			ret = add_kernel(&objs[o].ks, &objs[o].nk, objs[o].obj, t, r,
					 what, NULL);
		rc_target_free(t);
		n++;
		fprintf(stderr, "relocore check: %s: %.1f ms (target %.1f ms, check %.1f ms for %d object(s))\n",
			r, now_ms() - t1, t2 - t1, now_ms() - t2, nobj);
	}
	if (n)
		fprintf(stderr, "relocore check: %d kernel(s) x %d object(s) in %.0f ms, %.1f ms per kernel per object once the archive is open\n",
			n, nobj, now_ms() - t0, (now_ms() - t0) / n / nobj);
	if (!rels)
		ret = -1;
	free(rels);
	bg_archive_free(a);
	return ret;
}

static bool print_obj(const struct objrun *or, bool json);

int cmd_check(int argc, char **argv)
{
	static const struct option lo[] = {
		TARGET_LONGOPTS,
		LOAD_LONGOPTS,
		{ "all", no_argument, NULL, 'a' },
		{ "kernel-release", required_argument, NULL, 'K' },
		{ "kconfig", required_argument, NULL, 'k' },
		{ "object", required_argument, NULL, 'O' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-kernel-btf", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct target_opts t = { 0 };
	static struct load_opts l;
	struct rc_kconfig kc = { 0 };
	const char *kconfig = NULL, *select = NULL;
	char *text = NULL;
	struct rc_error err = { "" };
	struct objrun *objs = NULL;
	bool json = false, all = false, ok = true;
	int c, r, nobj = 0, cap = 0, o, i, ret = 2;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		r = target_opt(&t, c, optarg);
		if (!r)
			r = load_opt(&l, c, optarg);
		if (r < 0)
			return 2;
		if (r)
			continue;
		switch (c) {
		case 'a': all = true; break;
		case 'K': kc.release = optarg; break;
		case 'k': kconfig = optarg; break;
		case 'O': select = optarg; break;
		case 'j': json = true; break;
		case 'N': check_opts.no_kernel_btf = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	set_check_opts(&l);
	if (optind >= argc) {
		fprintf(stderr, "relocore check: expected an object file\n");
		usage(stderr);
		return 2;
	}
	if (all && (!t.archive || t.release || t.btf || kc.release || kconfig)) {
		fprintf(stderr, "relocore check: --all takes --archive, without --release, --btf, --kernel-release or --kconfig\n");
		return 2;
	}
	if (kconfig && rc_kconfig_read(kconfig, &text, &kc.config_len, &err)) {
		fprintf(stderr, "relocore check: --kconfig %s\n", err.msg);
		return 2;
	}
	kc.config = text;
	cap = argc - optind;
	objs = calloc(cap, sizeof(*objs));
	if (!objs)
		goto out;
	for (; optind < argc; optind++, nobj++) {
		objs[nobj].obj = rc_object_open_select(argv[optind], select, &err);
		if (!objs[nobj].obj) {
			fprintf(stderr, "relocore check: %s\n", err.msg);
			goto out;
		}
	}
	if (all) {
		if (check_all(t.archive, objs, nobj))
			goto out;
	} else {
		struct rc_target *tg = target_open(&t);
		const char *rel = t.archive && !t.btf ?
				  (t.release ? t.release : t.release_buf) : NULL;

		if (!tg)
			goto out;
		for (o = 0, r = 0; o < nobj && !r; o++)
			r = add_kernel(&objs[o].ks, &objs[o].nk, objs[o].obj, tg, rel,
				       t.what, &kc);
		rc_target_free(tg);
		if (r)
			goto out;
	}
	for (o = 0; o < nobj; o++)
		ok &= print_obj(&objs[o], json);
	ret = ok ? 0 : 1;
out:
	for (o = 0; objs && o < cap; o++) {	/* calloc'd: unopened ones are empty */
		for (i = 0; i < objs[o].nk; i++) {
			free(objs[o].ks[i].release);
			free(objs[o].ks[i].target);
			rc_check_free(objs[o].ks[i].res);
		}
		free(objs[o].ks);
		rc_object_free(objs[o].obj);
	}
	free(objs);
	free(text);
	return ret;
}

/* Print one object's answers (text: a block per kernel and, for several
 * kernels, the fleet table; --json: one document); all ok? */
static bool print_obj(const struct objrun *or, bool json)
{
	const struct kernel *ks = or->ks;
	const struct rc_object *obj = or->obj;
	int nk = or->nk, i, r;
	bool ok = true;

	for (i = 0; i < nk; i++) {
		ok &= rc_check_ok(ks[i].res);
		if (!json)
			print_text(rc_object_name(obj), &ks[i]);
	}
	if (!json && nk > 1) {
		/* the fleet view: one row per kernel */
		printf("%-36s %-8s %s\n", "release", "ok", "failing programs");
		for (i = 0; i < nk; i++) {
			int j, good = 0, tot = ks[i].res->nr_progs;

			for (j = 0; j < tot; j++)
				good += ks[i].res->progs[j].ok;
			printf("%-36s %3d/%-4d", ks[i].release ? ks[i].release : ks[i].target,
			       good, tot);
			for (j = 0; j < tot; j++)
				if (!ks[i].res->progs[j].ok)
					printf(" %s", ks[i].res->progs[j].name);
			printf("\n");
		}
	}
	if (json) {
		print_json(rc_object_name(obj), ks, nk);
		for (i = 0; i < nk; i++)
			for (r = 0; r < ks[i].res->nr_undecided; r++)
				fprintf(stderr, "relocore check: %s: not decided: %s\n",
					ks[i].target, ks[i].res->undecided[r]);
	}
	return ok;
}
