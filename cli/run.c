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
#include "relocore.h"

#define LOG_LINES 64
#define MAX_LINKS 1024

struct run_opts {
	const char *obj, *event_type;
	const char *object;	/* --object N|NAME: the embedded object */
	struct target_opts t;
	struct load_opts l;
	double duration;
	bool json, verbose, no_maps;
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
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, r;

	memset(o, 0, sizeof(*o));
	o->duration = 5;
	optind = 1;
	while ((c = getopt_long(argc, argv, "vh", lo, NULL)) != -1) {
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

static int load_and_run(struct run_opts *o, const struct rc_object *robj,
			void *image, size_t size)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = NULL);
	struct ring_buffer *rb = NULL;
	struct perf_buffer *pbs[8] = { 0 };
	int nr_pb = 0, i, ret = 1, nr_links = 0, nr_raw = 0, rawfd;
	static struct bpf_link *links[MAX_LINKS];
	static int rawfds[MAX_LINKS];	/* links libbpf has no object for (tcx) */
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct bpf_map *map;
	struct ctx c = { o };
	pid_t child = -1;
	double end;

	obj = bpf_object__open_mem(image, size, &oo);
	if (!obj) {
		fprintf(stderr, "relocore run: libbpf cannot open the relocated object: %s\n",
			strerror(errno));
		log_tail(8);
		return 1;
	}
	if (attach_prepare(&o->l, obj, o->obj))
		goto out;
	attach_pick_twins(&o->l, obj, o->json);
	if (attach_btf_targets(&o->l, obj))
		goto out;
	if (bpf_object__load(obj)) {
		explain_load_failure(robj);
		goto out;
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
		int n;

		if (!bpf_program__autoload(prog) || attach_skip(&o->l, prog))
			continue;
		n = attach_program(&o->l, prog, links + nr_links, MAX_LINKS - nr_links, o->json,
				   &rawfd, &why);
		if (rawfd >= 0 && nr_raw < MAX_LINKS)
			rawfds[nr_raw++] = rawfd;
		if (n < -1)		/* some perf events attached before one failed */
			nr_links += -n - 1;
		if (n < 0) {
			fprintf(stderr, "relocore run: cannot attach %s (section %s): %s\n",
				bpf_program__name(prog), bpf_program__section_name(prog),
				why ? why : strerror(errno));
			if (!why)
				log_tail(4);
			goto out;
		}
		nr_links += n;
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
	ret = 0;
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
