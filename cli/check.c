// SPDX-License-Identifier: MIT
/*
 * check.c - relocore check: will OBJ load and attach on that kernel (or on
 * every kernel of an archive, of a directory of BTF files), decided
 * offline.  The deciding is librelocore's rc_check_object(); this file
 * picks targets, one kernel at a time, and prints.
 *
 *   relocore check OBJ (--btf T | --archive A [--release R | --all]) [--json]
 *   relocore check OBJ (--btf T --btf T... | --btf-dir D) [-j N] [--json]
 *
 * Exit 0 when every program is ok on every kernel asked, 1 when not, 2 on
 * bad input (options, object, target).
 */
#include <bpf/btf.h>
#include <errno.h>
#include <fts.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "btfgen.h"
#include "cli.h"
#include "load_opts.h"

/* getopt values of long options without a short one (above any char) */
#define OPT_JSON 0x100	/* below load_opts.h's LOPT_* (0x200...) */

static void usage(FILE *f)
{
	fprintf(f,
"usage: relocore check OBJ|BIN... [--object N|NAME] (--btf FILE | --archive A [--release R | --all]) [--json]\n"
"       relocore check OBJ|BIN... (--btf FILE --btf FILE... | --btf-dir DIR) [-j N] [--json]\n"
"\n"
"Decide offline, per program, whether OBJ loads and attaches on the target\n"
"kernel (or on each of a fleet's), and if not, why.  BIN: a binary that embeds BPF objects (a libbpf\n"
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
"  open          libbpf refuses to open the object (legacy maps section,\n"
"                an extern it cannot resolve, a static program, a bad ELF\n"
"                relocation or data section: as libbpf 1.1 opens it)\n"
"  kfunc         a kfunc or typed __ksym extern the target BTF lacks (a weak\n"
"                kfunc: where its call is reachable)\n"
"  kconfig       a .kconfig extern the target's config (--kconfig) cannot give\n"
"Not decided (never guessed): verifier complexity, stack depth, helper\n"
"argument types.\n"
"\n"
"Options:\n"
TARGET_HELP
"  --all            every kernel of the --archive (one row per release)\n"
"  --btf FILE       given more than once: each FILE one kernel's whole BTF\n"
"                   (one row per file; its release: the file's name without\n"
"                   .btf or .btf.tar.xz, vmlinux's: its directory's)\n"
"  --btf-dir DIR    every kernel BTF under DIR (*.btf, *.btf.tar.xz,\n"
"                   vmlinux; a BTFHub tree), in the order of their paths\n"
"  -j, --jobs N     check the kernels of a fleet in N processes (default 1);\n"
"                   the output is the same, in kernel order\n"
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
"relocore run; programs it does not load are not listed; the object's\n"
".rodata values, with --set's written over them, prune branches as the\n"
"verifier prunes on them (libbpf freezes .rodata); fentry/kprobe and\n"
"tp_btf/raw_tp twins are decided as relocore run decides them):\n"
LOAD_HELP
"  --json           {\"object\",\"kernels\":[{\"release\",\"target\",\"programs\":\n"
"                   [{\"name\",\"section\",\"ok\",\"problems\":[{\"kind\",\"detail\"}]}],\n"
"                   \"not_loaded\":[{\"name\",\"section\"}],\"externs\":[{\"name\",\n"
"                   \"kind\",\"weak\",\"in_target\"}],\"maps\":[{\"name\",\"section\",\n"
"                   \"type\",\"type_name\",\"key_size\",\"value_size\",\"max_entries\",\n"
"                   \"flags\"}],\"problems\":[...],\n"
"                   \"not_decided\":[...]}]}  (problems: the whole object's,\n"
"                   also every program's; there when no program is loaded)\n"
"                   (kind: kconfig, ksym, ksym_untyped, kfunc, none;\n"
"                   in_target: true, false, null when BTF cannot say)\n"
"  -h, --help       this text\n"
"\n"
"Exit status: 0 every program ok everywhere, 1 not, 2 bad input.\n");
}

/* One kernel's answer for one object, as printed. */
struct kernel {
	const char *release;	/* NULL when the target has none (--btf) */
	const char *target;
	struct rc_check *res;
};

/* Is @q one of the object's problems (every program has those)? */
static bool object_problem(const struct rc_check *r, const struct rc_check_problem *q)
{
	int i;

	for (i = 0; i < r->nr_problems; i++)
		if (r->problems[i].kind == q->kind && !strcmp(r->problems[i].detail, q->detail))
			return true;
	return false;
}

/* The text answer: the object's problems once (they fail every program:
 * maps, externs, open), then each program with its own. */
static void print_text(FILE *f, const char *obj, const struct kernel *k)
{
	int i, j;

	fprintf(f, "%s on %s%s%s%s:\n", obj, k->target, k->release ? " (" : "",
		k->release ? k->release : "", k->release ? ")" : "");
	if (k->res->nr_problems)
		fprintf(f, "  the object (every program loads with it):\n");
	for (j = 0; j < k->res->nr_problems; j++)
		fprintf(f, "       %s: %s\n", rc_check_kind_str(k->res->problems[j].kind),
			k->res->problems[j].detail);
	for (i = 0; i < k->res->nr_progs; i++) {
		const struct rc_check_prog *p = &k->res->progs[i];
		int own = 0;

		for (j = 0; j < p->nr_problems; j++)
			own += !object_problem(k->res, &p->problems[j]);
		fprintf(f, "  %-4s %s (%s)%s\n", p->ok ? "ok" : "FAIL", p->name, p->section,
			!p->ok && !own ? ": the object's problems" : "");
		for (j = 0; j < p->nr_problems; j++)
			if (!object_problem(k->res, &p->problems[j]))
				fprintf(f, "       %s: %s\n", rc_check_kind_str(p->problems[j].kind),
					p->problems[j].detail);
	}
	for (i = 0; i < k->res->nr_not_loaded; i++)
		fprintf(f, "  --   %s (%s): not loaded (the load options, or its fentry/kprobe or tp_btf/raw_tp twin is)\n",
			k->res->not_loaded[i].name, k->res->not_loaded[i].section);
	if (!k->res->nr_progs)
		fprintf(f, "  (no programs)\n");
	for (i = 0; i < k->res->nr_externs; i++) {
		const struct rc_check_extern *e = &k->res->externs[i];

		if (!e->in_target)
			fprintf(f, "  extern %s (%s%s): not in the target%s\n", e->name,
				e->weak ? "weak " : "", e->kind,
				e->weak ? ": its address is 0 at load" : "");
	}
	for (i = 0; i < k->res->nr_undecided; i++)
		fprintf(f, "  not decided: %s\n", k->res->undecided[i]);
}

/* One element of the "kernels" array. */
static void print_json(FILE *f, const struct kernel *k)
{
	int i, j;

	fprintf(f, "{\"release\":");
	if (k->release)
		cli_json_str(f, k->release);
	else
		fprintf(f, "null");
	fprintf(f, ",\"target\":");
	cli_json_str(f, k->target);
	fprintf(f, ",\"programs\":[");
	for (i = 0; i < k->res->nr_progs; i++) {
		const struct rc_check_prog *p = &k->res->progs[i];

		fprintf(f, "%s{\"name\":", i ? "," : "");
		cli_json_str(f, p->name);
		fprintf(f, ",\"section\":");
		cli_json_str(f, p->section);
		fprintf(f, ",\"ok\":%s,\"problems\":[", p->ok ? "true" : "false");
		for (j = 0; j < p->nr_problems; j++) {
			fprintf(f, "%s{\"kind\":\"%s\",\"detail\":", j ? "," : "",
				rc_check_kind_str(p->problems[j].kind));
			cli_json_str(f, p->problems[j].detail);
			fprintf(f, "}");
		}
		fprintf(f, "]}");
	}
	fprintf(f, "],\"not_loaded\":[");
	for (i = 0; i < k->res->nr_not_loaded; i++) {
		fprintf(f, "%s{\"name\":", i ? "," : "");
		cli_json_str(f, k->res->not_loaded[i].name);
		fprintf(f, ",\"section\":");
		cli_json_str(f, k->res->not_loaded[i].section);
		fprintf(f, "}");
	}
	fprintf(f, "],\"externs\":[");
	for (i = 0; i < k->res->nr_externs; i++) {
		const struct rc_check_extern *e = &k->res->externs[i];

		fprintf(f, "%s{\"name\":", i ? "," : "");
		cli_json_str(f, e->name);
		fprintf(f, ",\"kind\":\"%s\",\"weak\":%s,\"in_target\":%s}", e->kind,
			e->weak ? "true" : "false",
			e->in_target < 0 ? "null" : e->in_target ? "true" : "false");
	}
	fprintf(f, "],\"maps\":[");
	for (i = 0; i < k->res->nr_maps; i++) {
		const struct rc_check_map *m = &k->res->maps[i];

		fprintf(f, "%s{\"name\":", i ? "," : "");
		cli_json_str(f, m->name);
		fprintf(f, ",\"section\":");
		cli_json_str(f, m->section);
		fprintf(f, ",\"type\":%u,\"type_name\":", m->type);
		if (m->type_name[0])
			cli_json_str(f, m->type_name);
		else
			fprintf(f, "null");
		fprintf(f, ",\"key_size\":%u,\"value_size\":%u,\"max_entries\":%u,\"flags\":%u}",
			m->key_size, m->value_size, m->max_entries, m->flags);
	}
	fprintf(f, "],\"problems\":[");
	for (j = 0; j < k->res->nr_problems; j++) {
		fprintf(f, "%s{\"kind\":\"%s\",\"detail\":", j ? "," : "",
			rc_check_kind_str(k->res->problems[j].kind));
		cli_json_str(f, k->res->problems[j].detail);
		fprintf(f, "}");
	}
	fprintf(f, "],\"not_decided\":[");
	for (i = 0; i < k->res->nr_undecided; i++) {
		fprintf(f, "%s", i ? "," : "");
		cli_json_str(f, k->res->undecided[i]);
	}
	fprintf(f, "]}");
}

/* what user space does at load time: the load options (load_opts.c) */
static struct rc_check_opts check_opts = { sizeof(check_opts), .pick_alternatives = true };
static const char *names_buf[5 * LOAD_MAX_OPTS];

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
	check_opts.tcx = names_buf + used;
	check_opts.nr_tcx = names_of(l->tc, l->nr_tc, &used);
}

/* Forward: the job of every worker (below). */
struct job;
static int encode_sets(struct job *jb, const struct load_opts *l);
static void free_sets(struct job *jb);

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A kernel to check: a release of the --archive, or a BTF file (--btf,
 * --btf-dir) named @release after it. */
struct kref {
	char *release;
	char *path;		/* NULL: from the archive */
};

static bool is_release(const char *s);

/* What every worker checks: the objects against kernels [from, to). */
struct job {
	struct rc_object **objs;
	int nobj;
	/* per object, the --set values it has a variable for */
	struct rc_check_set **sets;
	size_t *nr_sets;
	bool json;
	const char *archive;		/* --all */
	struct bg_archive *ar;		/* it, opened once (workers inherit it) */
	struct target_opts *single;	/* one target, as every command picks it */
	struct rc_kconfig *kc;		/* with @single */
	struct kref *ks;
	int nk;
};

/* --set VAR=VALUE: per object, VAR's section, offset and value encoded by
 * its BTF type (load_opts.c, as run writes it).  An object without VAR
 * takes none; a VAR that no object has, or a VALUE that does not fit, is
 * an error (said; -1). */
static int encode_sets(struct job *jb, const struct load_opts *l)
{
	int o, i;

	jb->sets = calloc(jb->nobj, sizeof(*jb->sets));
	jb->nr_sets = calloc(jb->nobj, sizeof(*jb->nr_sets));
	if (!jb->sets || !jb->nr_sets)
		return -1;
	for (i = 0; i < l->nr_sets; i++) {
		int found = 0;

		for (o = 0; o < jb->nobj; o++) {
			const struct btf *btf = rc_object_btf(jb->objs[o]);
			struct rc_check_set *set, *more;
			unsigned char *bytes;
			const char *sec;
			uint32_t off, size;
			char *name;
			int r = btf ? load_opt_encode_set(btf, l->sets[i], rc_object_name(jb->objs[o]),
							  true, &sec, &off, &bytes, &size) : -ENOENT;

			if (r == -ENOENT)
				continue;
			if (r)
				return -1;
			name = strndup(l->sets[i], strcspn(l->sets[i], "="));
			more = name ? realloc(jb->sets[o], (jb->nr_sets[o] + 1) * sizeof(*more)) : NULL;
			if (!more) {
				free(name);
				free(bytes);
				return -1;
			}
			jb->sets[o] = more;
			set = &more[jb->nr_sets[o]++];
			*set = (struct rc_check_set){ name, bytes, size };
			found++;
		}
		if (!found) {
			fprintf(stderr, "relocore check: --set %s: no object given has a global variable of that name in its BTF\n",
				l->sets[i]);
			return -1;
		}
	}
	return 0;
}

static void free_sets(struct job *jb)
{
	int o;
	size_t i;

	for (o = 0; jb->sets && o < jb->nobj; o++) {
		for (i = 0; i < jb->nr_sets[o]; i++) {
			free((void *)jb->sets[o][i].name);
			free((void *)jb->sets[o][i].data);
		}
		free(jb->sets[o]);
	}
	free(jb->sets);
	free(jb->nr_sets);
}

/*
 * Check the objects on kernels [@from, @to) of @jb, one kernel at a time
 * (its target freed before the next: memory does not grow with kernels):
 * each object's answer printed at once into @out[o] (a text block, or a
 * JSON element, comma-separated), and a line "GOOD\tTOTAL\tLABEL\tFAILING"
 * into @rows[o] for the fleet table.  0, or -1 after a message.
 */
static int run_kernels(const struct job *jb, int from, int to, FILE **out, FILE **rows)
{
	struct rc_error err = { "" };
	struct bg_archive *a = jb->ar;
	char what[600];
	int i, o, ret = 0;

	for (i = from; i < to && !ret; i++) {
		const struct kref *kr = &jb->ks[i];
		struct rc_target *t = NULL;
		struct rc_kconfig kc = { 0 };
		double t0 = now_ms(), t1;

		err.msg[0] = 0;
		if (jb->single) {
			t = target_open(jb->single);
			snprintf(what, sizeof(what), "%s", jb->single->what);
			kc = *jb->kc;
			if (!kc.release && kr->release)
				kc.release = kr->release;
		} else if (kr->path) {
			t = target_open_file(kr->path, NULL, &err);
			snprintf(what, sizeof(what), "%s", kr->path);
			kc.release = is_release(kr->release) ? kr->release : NULL;
		} else {
			struct btf *btf = bg_archive_get(a, kr->release, &err);

			if (btf && rc_btf_validate(btf, jb->archive, &err)) {
				btf__free(btf);
				btf = NULL;
			}
			if (btf && !(t = rc_target_adopt(btf)))
				btf__free(btf);
			snprintf(what, sizeof(what), "%s[%s]", jb->archive, kr->release);
			kc.release = kr->release;
		}
		if (!t) {
			if (!jb->single)
				fprintf(stderr, "relocore check: %s: %s\n", what,
					err.msg[0] ? err.msg : "out of memory");
			ret = -1;
			break;
		}
		t1 = now_ms();
		for (o = 0; o < jb->nobj && !ret; o++) {
			struct kernel k = { jb->single && !kr->path && !jb->single->btf ?
					    kr->release : (jb->single ? NULL : kr->release),
					    what, NULL };
			struct rc_check_opts oo = check_opts;
			int p, good = 0;

			oo.sets = jb->sets[o];
			oo.nr_sets = jb->nr_sets[o];
			k.res = rc_check_object_opts(jb->objs[o], t, &kc, &oo, &err);
			if (!k.res) {
				fprintf(stderr, "relocore check: %s\n", err.msg);
				ret = -1;
				break;
			}
			if (jb->json) {
				if (ftell(out[o]) > 0)
					fputc(',', out[o]);
				print_json(out[o], &k);
				for (p = 0; p < k.res->nr_undecided; p++)
					fprintf(stderr, "relocore check: %s: not decided: %s\n",
						what, k.res->undecided[p]);
			} else {
				print_text(out[o], rc_object_name(jb->objs[o]), &k);
			}
			for (p = 0; p < k.res->nr_progs; p++)
				good += k.res->progs[p].ok;
			fprintf(rows[o], "%d\t%d\t%s\t", good, k.res->nr_progs,
				k.release ? k.release : what);
			for (p = 0; p < k.res->nr_progs; p++)
				if (!k.res->progs[p].ok)
					fprintf(rows[o], " %s", k.res->progs[p].name);
			fputc('\n', rows[o]);
			rc_check_free(k.res);
		}
		rc_target_free(t);
		if (jb->nk > 1)
			fprintf(stderr, "relocore check: [%d/%d] %s: %.1f ms (target %.1f ms, check %.1f ms for %d object(s))\n",
				i + 1, jb->nk, kr->release ? kr->release : what, now_ms() - t0,
				t1 - t0, now_ms() - t1, jb->nobj);
	}
	for (o = 0; o < jb->nobj; o++)
		if (fflush(out[o]) || fflush(rows[o]))
			ret = -1;
	return ret;
}

/* Copy what @from holds (from its start) to stdout. */
static void copy_out(FILE *from)
{
	char buf[65536];
	size_t n;

	rewind(from);
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		fwrite(buf, 1, n, stdout);
}

/*
 * Check every kernel of @jb with @jobs workers (processes, each a
 * contiguous share of the kernels), then print each object's answers in
 * kernel order: the text blocks and, for several kernels, the fleet table
 * (a row per kernel); with --json one document per object.  0 every
 * program ok everywhere, 1 not, 2 on failure.
 */
static int check_kernels(const struct job *jb, int jobs)
{
	FILE **out = calloc((size_t)jobs * jb->nobj, sizeof(*out));
	FILE **rows = calloc((size_t)jobs * jb->nobj, sizeof(*rows));
	pid_t *pid = calloc(jobs, sizeof(*pid));
	double t0 = now_ms();
	bool ok = true, failed = false;
	int w, o, st;
	char line[8192];

	if (!out || !rows || !pid)
		failed = true;
	for (w = 0; !failed && w < jobs * jb->nobj; w++)
		if (!(out[w] = tmpfile()) || !(rows[w] = tmpfile()))
			failed = true;
	fflush(stdout);
	for (w = 0; !failed && w < jobs; w++) {
		int from = (int)((long)jb->nk * w / jobs), to = (int)((long)jb->nk * (w + 1) / jobs);

		if (jobs == 1) {
			failed = run_kernels(jb, from, to, out, rows) != 0;
			break;
		}
		pid[w] = fork();
		if (pid[w] < 0) {
			perror("relocore check: fork");
			failed = true;
		} else if (!pid[w]) {
			_exit(run_kernels(jb, from, to, out + w * jb->nobj,
					  rows + w * jb->nobj) ? 2 : 0);
		}
	}
	for (w = 0; jobs > 1 && w < jobs; w++)
		if (pid && pid[w] > 0 && (waitpid(pid[w], &st, 0) < 0 || !WIFEXITED(st) ||
					  WEXITSTATUS(st)))
			failed = true;
	if (!failed && jb->nk > 1)
		fprintf(stderr, "relocore check: %d kernel(s) x %d object(s) in %.0f ms with %d worker(s), %.1f ms per kernel per object\n",
			jb->nk, jb->nobj, now_ms() - t0, jobs, (now_ms() - t0) / jb->nk / jb->nobj);
	for (o = 0; !failed && o < jb->nobj; o++) {
		if (jb->json) {
			bool first = true;

			printf("{\"object\":");
			cli_json_str(stdout, rc_object_name(jb->objs[o]));
			printf(",\"kernels\":[");
			for (w = 0; w < jobs; w++) {
				FILE *f = out[w * jb->nobj + o];

				if (ftell(f) > 0 && !first)
					putchar(',');
				first &= ftell(f) <= 0;
				copy_out(f);
			}
			printf("]}\n");
		} else {
			for (w = 0; w < jobs; w++)
				copy_out(out[w * jb->nobj + o]);
		}
		if (!jb->json && jb->nk > 1)
			printf("%-36s %-8s %s\n", "release", "ok", "failing programs");
		for (w = 0; w < jobs; w++) {
			FILE *f = rows[w * jb->nobj + o];

			rewind(f);
			while (fgets(line, sizeof(line), f)) {
				int good, tot, n = 0;

				if (sscanf(line, "%d\t%d\t%n", &good, &tot, &n) < 2 || !n)
					continue;
				ok &= good == tot;
				if (!jb->json && jb->nk > 1) {
					char *label = line + n, *fails = strchr(label, '\t');

					if (fails)
						*fails++ = 0;
					printf("%-36s %3d/%-4d%s", label, good, tot,
					       fails ? fails : "\n");
				}
			}
		}
	}
	for (w = 0; out && rows && w < jobs * jb->nobj; w++) {
		if (out[w])
			fclose(out[w]);
		if (rows[w])
			fclose(rows[w]);
	}
	free(out);
	free(rows);
	free(pid);
	return failed ? 2 : ok ? 0 : 1;
}

static int add_kref(struct kref **ks, int *nk, const char *release, const char *path)
{
	struct kref *k = realloc(*ks, sizeof(**ks) * (*nk + 1));

	if (!k)
		return -1;
	*ks = k;
	k[*nk].release = release ? strdup(release) : NULL;
	k[*nk].path = path ? strdup(path) : NULL;
	(*nk)++;
	return 0;
}

/* A kernel BTF file's release: its name without .btf.tar.xz or .btf, as
 * BTFHub names them (vmlinux, vmlinux.btf: its directory's name). */
static int add_btf_file(struct kref **ks, int *nk, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char rel[512];
	size_t l = strlen(base);

	if (l > 11 && !strcmp(base + l - 11, ".btf.tar.xz"))
		l -= 11;
	else if (l > 4 && !strcmp(base + l - 4, ".btf"))
		l -= 4;
	if (l == 7 && !strncmp(base, "vmlinux", 7) && base > path + 1) {
		const char *d = base - 1;

		while (d > path && d[-1] != '/')
			d--;
		snprintf(rel, sizeof(rel), "%.*s", (int)(base - 1 - d), d);
	} else {
		snprintf(rel, sizeof(rel), "%.*s", (int)l, base);
	}
	return add_kref(ks, nk, rel, path);
}

/* @s reads as a kernel release (MAJOR.MINOR...): the .kconfig externs
 * are baked with it */
static bool is_release(const char *s)
{
	return s && s[0] >= '0' && s[0] <= '9' && strchr(s, '.');
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every kernel BTF file under @dir (recursive): names ending in .btf or
 * .btf.tar.xz, or named vmlinux; in the order of their paths. */
static int add_btf_dir(struct kref **ks, int *nk, const char *dir)
{
	char *paths_arg[] = { (char *)dir, NULL }, **paths = NULL;
	size_t n = 0, cap = 0, i;
	FTS *fts = fts_open(paths_arg, FTS_LOGICAL | FTS_NOCHDIR, NULL);
	FTSENT *e;
	int ret = 0;

	if (!fts) {
		fprintf(stderr, "relocore check: --btf-dir %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = fts_read(fts))) {
		size_t l = strlen(e->fts_name);

		if (e->fts_info == FTS_DNR || e->fts_info == FTS_ERR) {
			fprintf(stderr, "relocore check: --btf-dir %s: %s\n", e->fts_path,
				strerror(e->fts_errno));
			ret = -1;
			break;
		}
		if (e->fts_info != FTS_F ||
		    !((l > 4 && !strcmp(e->fts_name + l - 4, ".btf")) ||
		      (l > 11 && !strcmp(e->fts_name + l - 11, ".btf.tar.xz")) ||
		      !strcmp(e->fts_name, "vmlinux")))
			continue;
		if (n == cap) {
			char **p = realloc(paths, sizeof(*p) * (cap = cap ? cap * 2 : 256));

			if (!p) {
				ret = -1;
				break;
			}
			paths = p;
		}
		if (!(paths[n++] = strdup(e->fts_path))) {
			ret = -1;
			break;
		}
	}
	fts_close(fts);
	if (!ret && !n) {
		fprintf(stderr, "relocore check: --btf-dir %s: no kernel BTF in it (*.btf, *.btf.tar.xz, vmlinux)\n",
			dir);
		ret = -1;
	}
	if (paths)
		qsort(paths, n, sizeof(*paths), cmp_path);
	for (i = 0; i < n; i++) {
		if (!ret && add_btf_file(ks, nk, paths[i]))
			ret = -1;
		free(paths[i]);
	}
	free(paths);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	static const struct option lo[] = {
		TARGET_LONGOPTS,
		LOAD_LONGOPTS,
		{ "all", no_argument, NULL, 'a' },
		{ "btf-dir", required_argument, NULL, 'D' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "kernel-release", required_argument, NULL, 'K' },
		{ "kconfig", required_argument, NULL, 'k' },
		{ "object", required_argument, NULL, 'O' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "no-kernel-btf", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct target_opts t = { 0 };
	static struct load_opts l;
	struct rc_kconfig kc = { 0 };
	const char *kconfig = NULL, *select = NULL;
	char *text = NULL, *end;
	struct rc_error err = { "" };
	struct job jb = { 0 };
	struct kref *ks = NULL;
	bool all = false, fleet = false;
	int c, r, nk = 0, jobs = 1, o, i, ret = 2, nbtf = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hj:", lo, NULL)) != -1) {
		if (c == 'b' && ++nbtf > 1)
			fleet = true;	/* several --btf: one kernel each */
		if (c == 'b' && add_btf_file(&ks, &nk, optarg))
			goto out;
		r = target_opt(&t, c, optarg);
		if (!r)
			r = load_opt(&l, c, optarg);
		if (r < 0)
			goto out;
		if (r)
			continue;
		switch (c) {
		case 'a': all = true; break;
		case 'D':
			fleet = true;
			if (add_btf_dir(&ks, &nk, optarg))
				goto out;
			break;
		case OPT_JSON: jb.json = true; break;
		case 'J':
		case 'j':
			jobs = (int)strtol(optarg, &end, 10);
			if (*end || jobs < 1 || jobs > 256) {
				fprintf(stderr, "relocore check: --jobs takes 1 to 256, not '%s'\n", optarg);
				goto out;
			}
			break;
		case 'K': kc.release = optarg; break;
		case 'k': kconfig = optarg; break;
		case 'O': select = optarg; break;
		case 'N': check_opts.no_kernel_btf = true; break;
		case 'h': usage(stdout); ret = 0; goto out;
		default: usage(stderr); goto out;
		}
	}
	set_check_opts(&l);
	if (optind >= argc) {
		fprintf(stderr, "relocore check: expected an object file\n");
		usage(stderr);
		goto out;
	}
	if (all && (!t.archive || t.release || t.btf || fleet || kc.release || kconfig)) {
		fprintf(stderr, "relocore check: --all takes --archive, without --release, --btf, --btf-dir, --kernel-release or --kconfig\n");
		goto out;
	}
	if (fleet && (t.archive || t.base_btf || t.nr_mods || kc.release || kconfig)) {
		fprintf(stderr, "relocore check: several kernels (--btf more than once, --btf-dir) take no --archive, --base-btf, --module, --kernel-release or --kconfig: each file is one kernel's whole BTF\n");
		goto out;
	}
	if (kconfig && rc_kconfig_read(kconfig, &text, &kc.config_len, &err)) {
		fprintf(stderr, "relocore check: --kconfig %s\n", err.msg);
		goto out;
	}
	kc.config = text;
	jb.nobj = argc - optind;
	jb.objs = calloc(jb.nobj, sizeof(*jb.objs));
	if (!jb.objs)
		goto out;
	for (o = 0; o < jb.nobj; o++) {
		jb.objs[o] = rc_object_open_select(argv[optind + o], select, &err);
		if (!jb.objs[o]) {
			fprintf(stderr, "relocore check: %s\n", err.msg);
			goto out;
		}
	}
	if (encode_sets(&jb, &l))
		goto out;
	if (all) {
		struct bg_archive *a = bg_archive_open(t.archive, &err);
		char *rels, *save = NULL, *rel;

		if (!a) {
			fprintf(stderr, "relocore check: archive: %s\n", err.msg);
			goto out;
		}
		rels = strdup(bg_archive_releases(a));
		jb.ar = a;
		for (rel = rels ? strtok_r(rels, " ", &save) : NULL; rel;
		     rel = strtok_r(NULL, " ", &save))
			if (add_kref(&ks, &nk, rel, NULL))
				break;
		free(rels);
		jb.archive = t.archive;
	} else if (!fleet) {
		/* one target, picked as every command picks it */
		for (i = 0; i < nk; i++) {
			free(ks[i].release);
			free(ks[i].path);
		}
		nk = 0;
		if (add_kref(&ks, &nk, NULL, NULL))
			goto out;
		jb.single = &t;
		jb.kc = &kc;
		if (t.archive && !t.btf) {
			struct utsname u;

			if (!t.release)
				uname(&u);
			ks[0].release = strdup(t.release ? t.release : u.release);
		}
	}
	if (!nk) {
		fprintf(stderr, "relocore check: no kernels\n");
		goto out;
	}
	if (jobs > nk)
		jobs = nk;
	jb.ks = ks;
	jb.nk = nk;
	ret = check_kernels(&jb, jobs);
out:
	bg_archive_free(jb.ar);
	for (o = 0; jb.objs && o < jb.nobj; o++)
		rc_object_free(jb.objs[o]);
	free_sets(&jb);
	free(jb.objs);
	for (i = 0; i < nk; i++) {
		free(ks[i].release);
		free(ks[i].path);
	}
	free(ks);
	free(text);
	return ret;
}
