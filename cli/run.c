// SPDX-License-Identifier: MIT
/*
 * run.c - relocore run: relocate an object with relocore's engine, then
 * let libbpf do the mechanics (maps, global data, load, attach) on the
 * relocated image, which has no core_relo records left: libbpf does no
 * CO-RE of its own.  Prints ring/perf buffer events and map contents.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attach.h"
#include "cli.h"
#include "load_opts.h"
#include "progtype.h"
#include "relocore.h"

#define LOG_LINES 64
#define MAX_LINKS 1024

struct run_opts {
	const char *obj, *event_type;
	const char *object;	/* --object N|NAME: the embedded object */
	struct target_opts t;
	struct load_opts l;
	double duration;
	bool json, verbose, no_maps, keep_going;
	char **cmd;
};

/* libbpf's messages: kept (last LOG_LINES lines) to show when load fails. */
static struct {
	char *line[LOG_LINES];
	int next;
	bool verbose;
} logbuf;

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *buf = NULL, *p, *save = NULL;

	/* one message may be a whole verifier log: no fixed-size buffer */
	if (vasprintf(&buf, fmt, ap) < 0)
		return 0;
	if (logbuf.verbose)
		fputs(buf, stderr);
	if (level != LIBBPF_DEBUG || logbuf.verbose) {
		for (p = strtok_r(buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
			free(logbuf.line[logbuf.next]);
			logbuf.line[logbuf.next] = strdup(p);
			logbuf.next = (logbuf.next + 1) % LOG_LINES;
		}
	}
	free(buf);
	return 0;
}

static void log_tail(int n)
{
	int i, start = (logbuf.next - n + LOG_LINES * 2) % LOG_LINES;

	for (i = 0; i < n; i++) {
		const char *l = logbuf.line[(start + i) % LOG_LINES];

		if (l)
			fprintf(stderr, "    %s\n", l);
	}
}

static bool log_has(const char *needle)
{
	int i;

	for (i = 0; i < LOG_LINES; i++)
		if (logbuf.line[i] && strstr(logbuf.line[i], needle))
			return true;
	return false;
}

static void log_clear(void)
{
	int i;

	for (i = 0; i < LOG_LINES; i++) {
		free(logbuf.line[i]);
		logbuf.line[i] = NULL;
	}
	logbuf.next = 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: relocore run OBJ [OPTIONS] [-- COMMAND [ARGS...]]\n"
"       (options may come before or after OBJ; COMMAND follows \"--\")\n"
"\n"
"Relocate OBJ for the running kernel with relocore's engine, load it with\n"
"libbpf (which does no CO-RE: the object it receives has no core_relo\n"
"records), attach every program by its section name (kprobe/, kretprobe/,\n"
"tracepoint/, raw_tracepoint/, fentry/, ...), and print what it reports:\n"
"ring buffer and perf buffer events, then the contents of its maps.\n"
"With COMMAND, run it once attached and stop after it exits.\n"
"\n"
"OBJ may be a binary that embeds BPF objects (a libbpf skeleton's tool).\n"
"\n"
"Options:\n"
TARGET_HELP
"  --object N|NAME    the embedded object of OBJ to run, by index or name\n"
"  --duration SECS    how long to collect events (default 5; with COMMAND:\n"
"                     the limit after which COMMAND is killed)\n"
"  --event-type NAME  BTF struct of the buffer events (default: struct\n"
"                     <OBJ name>_event, else struct event, in OBJ's BTF)\n"
LOAD_HELP
"  When OBJ holds fentry and kprobe (fexit and kretprobe, tp_btf and raw_tp)\n"
"  programs for the same event and no option picks, the BTF one is attached\n"
"  if the kernel can attach it, else the other, as libbpf-tools do; said\n"
"  on stderr.\n"
"  -k, --keep-going   a program that fails to load or attach does not stop\n"
"                     the others: libbpf loads the object again without\n"
"                     it; one verdict per program ({\"verdict\":\"attached\"|\n"
"                     \"loaded\"|\"not_loaded\"|\"failed\",\"program\",\"section\",\n"
"                     \"stage\":\"load\"|\"attach\",\"class\",\"errno\",\"message\",\n"
"                     \"log\":[...]} with --json; loaded, not attached, with\n"
"                     \"needs\" where user space must name the interface,\n"
"                     cgroup or events); exit 1 if one failed\n"
"  --no-maps          do not print map contents at the end\n"
"  --json             one JSON object per line\n"
"  -v, --verbose      libbpf's messages on stderr\n");
}

static int parse(int argc, char **argv, struct run_opts *o)
{
	static const struct option lo[] = {
		TARGET_LONGOPTS,
		{ "duration", required_argument, NULL, 'd' },
		{ "event-type", required_argument, NULL, 'e' },
		{ "object", required_argument, NULL, 'O' },
		LOAD_LONGOPTS,
		{ "no-maps", no_argument, NULL, 'M' },
		{ "keep-going", no_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, r;

	memset(o, 0, sizeof(*o));
	o->duration = 5;
	optind = 1;
	while ((c = getopt_long(argc, argv, "vhk", lo, NULL)) != -1) {
		r = target_opt(&o->t, c, optarg);
		if (!r)
			r = load_opt(&o->l, c, optarg);
		if (r < 0)
			return -1;
		if (r)
			continue;
		switch (c) {
		case 'd': o->duration = atof(optarg); break;
		case 'e': o->event_type = optarg; break;
		case 'O': o->object = optarg; break;
		case 'M': o->no_maps = true; break;
		case 'k': o->keep_going = true; break;
		case 'j': o->json = true; break;
		case 'v': o->verbose = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	/* getopt moved the operands after the options: OBJ, then, after
	 * "--", the command (whose own options getopt left alone) */
	if (optind >= argc) {
		usage(stderr);
		return -1;
	}
	o->obj = argv[optind++];
	if (optind < argc)
		o->cmd = argv + optind;
	if (o->duration <= 0)
		o->duration = 5;
	return 0;
}

struct ctx {
	const struct run_opts *o;
	const struct btf *btf;
	uint32_t event_id;
	const char *map_name;
	long events;
};

/*
 * The struct events are printed with: --event-type NAME, else the struct
 * named after the object ("getpid.bpf.o" -> struct getpid_event), else a
 * struct named "event".  (Keep it in the object's BTF with a global, e.g.
 * "const struct getpid_event *unused_event __attribute__((unused));".)
 */
static uint32_t find_event_type(const struct btf *btf, const char *want,
				const char *obj_path)
{
	const char *base = strrchr(obj_path, '/') ? strrchr(obj_path, '/') + 1 : obj_path;
	char name[256];
	int id;

	if (want)
		return (id = btf__find_by_name_kind(btf, want, BTF_KIND_STRUCT)) > 0 ? id : 0;
	snprintf(name, sizeof(name), "%.*s_event", (int)strcspn(base, "."), base);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
	if (id <= 0)
		id = btf__find_by_name_kind(btf, "event", BTF_KIND_STRUCT);
	return id > 0 ? id : 0;
}

static void print_record(struct ctx *c, const char *what, const char *map,
			 uint32_t key_id, const void *key, size_t ksz,
			 uint32_t val_id, const void *val, size_t vsz)
{
	FILE *f = stdout;
	size_t i;

	if (c->o->json) {
		fprintf(f, "{\"%s\":", what);
		cli_json_str(f, map);
	} else {
		fprintf(f, "%s %s: ", what, map);
	}
	if (key) {
		fputs(c->o->json ? ",\"key\":" : "key=", f);
		if (key_id)
			cli_json_value(f, c->btf, key_id, key, ksz);
		else
			fprintf(f, "%llu", ksz == 4 ? (unsigned long long)*(const uint32_t *)key :
				ksz == 8 ? (unsigned long long)*(const uint64_t *)key : 0ull);
	}
	fputs(c->o->json ? ",\"value\":" : (key ? " value=" : ""), f);
	if (val_id) {
		cli_json_value(f, c->btf, val_id, val, vsz);
	} else {
		fputc('"', f);
		for (i = 0; i < vsz; i++)
			fprintf(f, "%02x", ((const unsigned char *)val)[i]);
		fputc('"', f);
	}
	fputs(c->o->json ? "}\n" : "\n", f);
	fflush(f);
}

static int on_ringbuf(void *ctx, void *data, size_t size)
{
	struct ctx *c = ctx;

	c->events++;
	print_record(c, "event", c->map_name, 0, NULL, 0, c->event_id, data, size);
	return 0;
}

static void on_perfbuf(void *ctx, int cpu, void *data, __u32 size)
{
	on_ringbuf(ctx, data, size);
}

static void dump_map(struct ctx *c, struct bpf_map *map)
{
	enum bpf_map_type type = bpf_map__type(map);
	uint32_t ksz = bpf_map__key_size(map), vsz = bpf_map__value_size(map);
	unsigned char key[512], next[512], *val;
	void *prev = NULL;
	int fd = bpf_map__fd(map), n = 0;

	if (bpf_map__is_internal(map) || ksz > sizeof(key))
		return;
	if (type != BPF_MAP_TYPE_HASH && type != BPF_MAP_TYPE_ARRAY &&
	    type != BPF_MAP_TYPE_LRU_HASH)
		return;
	val = malloc(vsz);
	if (!val)
		return;
	while (n < 4096 && !bpf_map_get_next_key(fd, prev, next)) {
		memcpy(key, next, ksz);
		prev = key;
		if (bpf_map_lookup_elem(fd, key, val))
			continue;
		if (type == BPF_MAP_TYPE_ARRAY) {	/* skip all-zero slots */
			uint32_t i;

			for (i = 0; i < vsz && !val[i]; i++)
				;
			if (i == vsz)
				continue;
		}
		print_record(c, "map", bpf_map__name(map), bpf_map__btf_key_type_id(map),
			     key, ksz, bpf_map__btf_value_type_id(map), val, vsz);
		n++;
	}
	free(val);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* After a failed load: the verifier's complaint, and the poisoned relocations. */
static void explain_load_failure(const struct rc_object *robj)
{
	const struct rc_result *res;
	size_t i, n = rc_object_results(robj, &res);
	struct utsname u;
	int shown = 0;

	/* the headline: libbpf's last word on a program, else its last line */
	for (i = 0; i < LOG_LINES; i++) {
		const char *l = logbuf.line[(logbuf.next - 1 - (int)i + LOG_LINES) % LOG_LINES];

		if (l && strstr(l, "prog '") && (strstr(l, "failed") || strstr(l, "error"))) {
			fprintf(stderr, "relocore run: loading failed: %s\n", l);
			break;
		}
	}
	if (i == LOG_LINES)
		fprintf(stderr, "relocore run: loading failed: the kernel or libbpf refused the object\n");
	fprintf(stderr, "relocore run: the kernel refused the program; libbpf and verifier log tail:\n");
	log_tail(24);
	if (!log_has("unknown#195896080") && !log_has("0xbad2310"))
		return;
	uname(&u);
	for (i = 0; i < n; i++) {
		char acc[256];

		if (res[i].d.outcome != RC_POISON)
			continue;
		rc_spec_format(&res[i].d.local, acc, sizeof(acc));
		fprintf(stderr,
			"relocore run: poisoned relocation reached: section %s insn #%u %s %s: %s on kernel %s\n",
			res[i].section, res[i].insn_idx, rc_relo_kind_str(res[i].relo.kind),
			acc, res[i].d.reason, u.release);
		shown++;
	}
	if (!shown)
		fprintf(stderr, "relocore run: (no poisoned relocation in this object)\n");
}

/* --- --keep-going: one verdict per program ------------------------------- */

#define VLOG 8

/* A program that failed: at load (libbpf loads the object again without
 * it) or at attach. */
struct verdict {
	char *prog;
	const char *stage;	/* "load", "attach" */
	const char *class;	/* classify() */
	int err;		/* errno */
	char *msg;		/* libbpf's (or relocore's) line about it */
	char *log[VLOG];	/* the last lines of the verifier's log */
	int nlog;
};
static struct verdict fails[MAX_LINKS];
static int nr_fails;

static struct verdict *fail_of(const char *prog)
{
	int i;

	for (i = 0; i < nr_fails; i++)
		if (!strcmp(fails[i].prog, prog))
			return &fails[i];
	return NULL;
}

/* What refused the program, from libbpf's and the verifier's lines since
 * the load began; the first rule that matches (relocore check's problem
 * kinds where they meet: relocation, attach, kfunc, helper, map,
 * program_type, also EINVAL with no verifier log; btf_missing: the kernel
 * has no BTF a BTF-attached program needs; verifier: any other verifier
 * refusal; load: another errno with no log) */
static const char *classify(int err)
{
	static const struct {
		const char *needle, *class;
	} rules[] = {
		{ "unknown#195896080", "relocation" },	/* the poison, 0xbad2310 */
		{ "0xbad2310", "relocation" },
		{ "vmlinux BTF", "btf_missing" },
		{ "kernel BTF is missing", "btf_missing" },
		{ "failed to find kernel BTF type ID", "attach" },
		{ "failed to find BTF for extern", "kfunc" },
		/* a kfunc call the kernel cannot take: before 5.13 any
		 * (reserved fields), or a weak one libbpf left unresolved */
		{ "BPF_CALL uses reserved fields", "kfunc" },
		{ "bpf_unspec#0", "kfunc" },
		{ "kernel function", "kfunc" },
		{ "kfunc", "kfunc" },
		{ "invalid func", "helper" },
		{ "unknown func", "helper" },
		{ "failed to create", "map" },
		{ "program of this type", "program_type" },
		{ "prog type", "program_type" },
		{ "BEGIN PROG LOAD LOG", "verifier" },
	};
	size_t r;

	for (r = 0; r < sizeof(rules) / sizeof(rules[0]); r++)
		if (log_has(rules[r].needle))
			return rules[r].class;
	/* refused before the verifier ran (no log): the kernel does not know
	 * the program type, or its expected attach type */
	return err == EINVAL ? "program_type" : "load";
}

static struct verdict *add_fail(const char *prog, const char *stage, const char *class,
				int err, const char *msg)
{
	struct verdict *v;
	bool begin = false, end = false;
	int i, in;

	if (nr_fails == MAX_LINKS)
		return NULL;
	v = &fails[nr_fails++];
	v->prog = strdup(prog);
	v->stage = stage;
	v->class = class;
	v->err = err;
	v->msg = strdup(msg ? msg : strerror(err));
	/* the verifier's last words: the lines before END PROG LOAD LOG (a
	 * long log's BEGIN may be gone from the lines kept: then every line
	 * before END is the log's) */
	for (i = 0; i < LOG_LINES; i++) {
		const char *l = logbuf.line[(logbuf.next + i) % LOG_LINES];

		if (l && strstr(l, "BEGIN PROG LOAD LOG"))
			begin = true;
		if (l && strstr(l, "END PROG LOAD LOG"))
			end = true;
	}
	in = end && !begin;
	for (i = 0; i < LOG_LINES; i++) {
		const char *l = logbuf.line[(logbuf.next + i) % LOG_LINES];

		if (!l)
			continue;
		if (strstr(l, "BEGIN PROG LOAD LOG")) {
			in = 1;
			while (v->nlog)
				free(v->log[--v->nlog]);
		} else if (strstr(l, "END PROG LOAD LOG")) {
			in = 0;
		} else if (in) {
			if (v->nlog == VLOG) {
				free(v->log[0]);
				memmove(v->log, v->log + 1, sizeof(v->log[0]) * (VLOG - 1));
				v->nlog--;
			}
			v->log[v->nlog++] = strdup(l);
		}
	}
	return v;
}

/* The line of libbpf's log that names the program it failed on, else NULL;
 * its name in @name. */
static const char *failed_prog(char *name, size_t size)
{
	int i;

	for (i = 0; i < LOG_LINES; i++) {
		const char *l = logbuf.line[(logbuf.next + i) % LOG_LINES], *q, *e;

		if (!l || !(q = strstr(l, "prog '")) || !(strstr(l, "failed") || strstr(l, "error")))
			continue;
		q += 6;
		e = strchr(q, '\'');
		if (!e || (size_t)(e - q) >= size)
			continue;
		snprintf(name, size, "%.*s", (int)(e - q), q);
		return l;
	}
	return NULL;
}

/* After a failed bpf_object__load: the program(s) to leave out next time,
 * or 0 when the failure is the object's (a map, an extern). */
static int note_load_failure(struct bpf_object *obj, int err)
{
	const char *class = classify(err), *line;
	struct bpf_program *p;
	char name[256];
	int n = 0;

	line = failed_prog(name, sizeof(name));
	if (line && bpf_object__find_program_by_name(obj, name) && !fail_of(name))
		return add_fail(name, "load", class, err, line) ? 1 : 0;
	if (strcmp(class, "btf_missing"))
		return 0;
	/* no kernel BTF: every BTF-attached program cannot load */
	bpf_object__for_each_program(p, obj) {
		enum pt_attach k = pt_attach_of(bpf_program__section_name(p));

		if (!bpf_program__autoload(p) || fail_of(bpf_program__name(p)) ||
		    !(k == PT_ATTACH_FENTRY || k == PT_ATTACH_FEXIT || k == PT_ATTACH_BTF ||
		      k == PT_ATTACH_ITER || k == PT_ATTACH_TP_BTF))
			continue;
		if (add_fail(bpf_program__name(p), "load", class, err,
			     "the kernel has no BTF (vmlinux BTF) for a BTF-attached program"))
			n++;
	}
	return n;
}

static void print_verdict(const struct run_opts *o, struct bpf_program *p, const char *state,
			  const struct verdict *v, const char *needs)
{
	int i;

	if (!o->json) {
		if (v)
			fprintf(stderr, "relocore run: %s (section %s): failed to %s: %s: %s\n",
				bpf_program__name(p), bpf_program__section_name(p), v->stage,
				v->class, v->msg);
		else if (needs)
			fprintf(stderr, "relocore run: %s (section %s): loaded, not attached: %s\n",
				bpf_program__name(p), bpf_program__section_name(p), needs);
		return;
	}
	printf("{\"verdict\":\"%s\",\"program\":", v ? "failed" : state);
	cli_json_str(stdout, bpf_program__name(p));
	printf(",\"section\":");
	cli_json_str(stdout, bpf_program__section_name(p));
	if (v) {
		printf(",\"stage\":\"%s\",\"class\":\"%s\",\"errno\":%d,\"message\":",
		       v->stage, v->class, v->err);
		cli_json_str(stdout, v->msg);
		printf(",\"log\":[");
		for (i = 0; i < v->nlog; i++) {
			printf(i ? "," : "");
			cli_json_str(stdout, v->log[i]);
		}
		printf("]");
	}
	if (!v && needs) {
		printf(",\"needs\":");
		cli_json_str(stdout, needs);
	}
	printf("}\n");
}

static int load_and_run(struct run_opts *o, const struct rc_object *robj,
			void *image, size_t size)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = NULL);
	struct ring_buffer *rb = NULL;
	struct perf_buffer *pbs[8] = { 0 };
	int nr_pb = 0, i, ret = 1, nr_links = 0, nr_raw = 0, rawfd, try, np = 0;
	static signed char state[MAX_LINKS];	/* per program: 1 attached, 0 not */
	static char *dropped[MAX_LINKS];	/* not loaded after the first try */
	static char *needs[MAX_LINKS];		/* per program: what user space must give */
	int nr_dropped = 0;
	static struct bpf_link *links[MAX_LINKS];
	static int rawfds[MAX_LINKS];	/* links libbpf has no object for (tcx) */
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct bpf_map *map;
	struct ctx c = { o };
	pid_t child = -1;
	double end;

	/* with --keep-going, once more without each program that failed */
	for (try = 0;; try++) {
		int e;

		obj = bpf_object__open_mem(image, size, &oo);
		if (!obj) {
			fprintf(stderr, "relocore run: libbpf cannot open the relocated object: %s\n",
				strerror(errno));
			log_tail(8);
			return 1;
		}
		if (attach_prepare(&o->l, obj, o->obj))
			goto out;
		for (i = 0; i < nr_fails; i++) {
			prog = bpf_object__find_program_by_name(obj, fails[i].prog);
			if (prog)
				bpf_program__set_autoload(prog, false);
		}
		/* the twins are picked once, as a tool decides once: a BTF
		 * program that failed is not replaced by its kprobe twin */
		if (!try) {
			attach_pick_twins(&o->l, obj, o->json);
			nr_dropped = 0;
			bpf_object__for_each_program(prog, obj)
				if (!bpf_program__autoload(prog) && nr_dropped < MAX_LINKS)
					dropped[nr_dropped++] = strdup(bpf_program__name(prog));
		} else {
			for (i = 0; i < nr_dropped; i++) {
				prog = bpf_object__find_program_by_name(obj, dropped[i]);
				if (prog)
					bpf_program__set_autoload(prog, false);
			}
		}
		if (attach_btf_targets(&o->l, obj))
			goto out;
		log_clear();
		if (!bpf_object__load(obj))
			break;
		e = errno;
		if (!o->keep_going || !note_load_failure(obj, e)) {
			explain_load_failure(robj);
			if (o->keep_going)	/* the object's failure: every program's */
				bpf_object__for_each_program(prog, obj) {
					struct verdict *v = NULL;

					if (bpf_program__autoload(prog))
						v = add_fail(bpf_program__name(prog), "load",
							     classify(e), e, "the object did not load");
					print_verdict(o, prog, "not_loaded", v ? v : fail_of(bpf_program__name(prog)),
						      NULL);
				}
			goto out;
		}
		bpf_object__close(obj);
	}
	if (o->json)	/* what the kernel holds: name and tag of each program */
		bpf_object__for_each_program(prog, obj) {
			struct bpf_prog_info info = { 0 };
			uint32_t len = sizeof(info), k;

			if (!bpf_program__autoload(prog) ||
			    bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
				continue;
			printf("{\"program\":");
			cli_json_str(stdout, bpf_program__name(prog));
			printf(",\"section\":");
			cli_json_str(stdout, bpf_program__section_name(prog));
			printf(",\"tag\":\"");
			for (k = 0; k < sizeof(info.tag); k++)
				printf("%02x", info.tag[k]);
			printf("\"}\n");
		}
	c.btf = bpf_object__btf(obj);
	c.event_id = c.btf ? find_event_type(c.btf, o->event_type, o->obj) : 0;
	if (o->event_type && !c.event_id)
		fprintf(stderr, "relocore run: no struct %s in the object; printing hex\n",
			o->event_type);

	bpf_object__for_each_program(prog, obj) {
		const char *why;
		int n, k = np++;

		if (k < MAX_LINKS) {
			state[k] = 0;
			free(needs[k]);
			needs[k] = NULL;
		}
		if (!bpf_program__autoload(prog) || attach_skip(&o->l, prog))
			continue;
		log_clear();
		n = attach_program(&o->l, prog, links + nr_links, MAX_LINKS - nr_links, o->json,
				   &rawfd, &why);
		if (rawfd >= 0 && nr_raw < MAX_LINKS)
			rawfds[nr_raw++] = rawfd;
		if (n < -1)		/* some perf events attached before one failed */
			nr_links += -n - 1;
		if (n < 0 && o->keep_going && why && !strncmp(why, "needs ", 6)) {
			/* what user space must say (an interface, a cgroup,
			 * events): loaded, not attached, as check decides */
			if (k < MAX_LINKS)
				needs[k] = strdup(why);
			continue;
		}
		if (n < 0 && o->keep_going) {
			int e = errno;
			char msg[512];

			snprintf(msg, sizeof(msg), "%s", why ? why : strerror(e));
			add_fail(bpf_program__name(prog), "attach", "attach", e, msg);
			continue;
		}
		if (n < 0) {
			fprintf(stderr, "relocore run: cannot attach %s (section %s): %s\n",
				bpf_program__name(prog), bpf_program__section_name(prog),
				why ? why : strerror(errno));
			if (!why)
				log_tail(4);
			goto out;
		}
		if (k < MAX_LINKS)
			state[k] = 1;
		nr_links += n;
	}
	if (o->keep_going) {
		np = 0;
		bpf_object__for_each_program(prog, obj) {
			int k = np++;

			print_verdict(o, prog, !bpf_program__autoload(prog) ? "not_loaded" :
				      k < MAX_LINKS && state[k] ? "attached" : "loaded",
				      fail_of(bpf_program__name(prog)), k < MAX_LINKS ? needs[k] : NULL);
		}
	}
	bpf_object__for_each_map(map, obj) {
		if (bpf_map__type(map) == BPF_MAP_TYPE_RINGBUF) {
			c.map_name = bpf_map__name(map);
			if (!rb)
				rb = ring_buffer__new(bpf_map__fd(map), on_ringbuf, &c, NULL);
			else
				ring_buffer__add(rb, bpf_map__fd(map), on_ringbuf, &c);
		} else if (bpf_map__type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY && nr_pb < 8) {
			c.map_name = bpf_map__name(map);
			pbs[nr_pb] = perf_buffer__new(bpf_map__fd(map), 64, on_perfbuf, NULL, &c, NULL);
			if (pbs[nr_pb])
				nr_pb++;
		}
	}
	if (o->json)
		printf("{\"attached\":%d}\n", nr_links + nr_raw);
	else
		printf("attached %d program(s); collecting for up to %gs\n", nr_links + nr_raw,
		       o->duration);
	fflush(stdout);
	/* what setting up freed (the target's BTF) goes back to the kernel:
	 * the heap keeps freed blocks while it grows (heap.c) */
	malloc_trim(0);

	if (o->cmd) {
		child = fork();
		if (child == 0) {
			execvp(o->cmd[0], o->cmd);
			fprintf(stderr, "relocore run: %s: %s\n", o->cmd[0], strerror(errno));
			_exit(127);
		}
	}
	end = now() + o->duration;
	while (!stop && now() < end) {
		if (rb)
			ring_buffer__poll(rb, 50);
		for (i = 0; i < nr_pb; i++)
			perf_buffer__poll(pbs[i], rb ? 0 : 50);
		if (!rb && !nr_pb)
			usleep(50000);
		if (child > 0 && waitpid(child, NULL, WNOHANG) == child) {
			child = -1;
			end = now() + 0.2;	/* drain what is in flight */
		}
	}
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (rb)
		ring_buffer__consume(rb);
	for (i = 0; i < nr_pb; i++)
		perf_buffer__consume(pbs[i]);
	if (!o->no_maps)
		bpf_object__for_each_map(map, obj)
			dump_map(&c, map);
	ret = nr_fails ? 1 : 0;
out:
	for (i = 0; i < nr_pb; i++)
		perf_buffer__free(pbs[i]);
	ring_buffer__free(rb);
	for (i = 0; i < nr_links; i++)
		bpf_link__destroy(links[i]);
	for (i = 0; i < nr_raw; i++)
		close(rawfds[i]);
	bpf_object__close(obj);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct rc_error err = { "" };
	struct rc_object *robj, *check;
	struct rc_target *t;
	struct run_opts o;
	void *image;
	size_t size;
	int ret = 1;

	if (parse(argc, argv, &o))
		return 2;
	logbuf.verbose = o.verbose;
	libbpf_set_print(libbpf_log);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	t = target_open_for(&o.t, o.obj, o.object, &robj);
	if (!t)
		return 1;
	if (rc_object_relocate(robj, t, NULL, &err)) {
		fprintf(stderr, "relocore: %s\n", err.msg);
		goto out;
	}
	image = rc_object_image(robj, &size);
	if (!image)
		goto out;
	/* what libbpf receives must not ask it for CO-RE */
	check = rc_object_open_mem(image, size, o.obj, &err);
	if (!check || rc_object_relo_count(check)) {
		fprintf(stderr, "relocore run: relocated image still has core_relo records\n");
		rc_object_free(check);
		free(image);
		goto out;
	}
	if (o.json) {
		printf("{\"object\":");
		cli_json_str(stdout, o.obj);
		printf(",\"relocations\":%zu,\"core_relos_left\":0}\n",
		       rc_object_relo_count(robj));
	}
	rc_object_free(check);
	ret = load_and_run(&o, robj, image, size);
	free(image);
out:
	rc_target_free(t);
	rc_object_free(robj);
	return ret;
}
