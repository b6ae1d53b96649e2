// SPDX-License-Identifier: MIT
/*
 * stockload: load a CO-RE object with STOCK libbpf only (Debian's libbpf.a,
 * statically linked), run INSIDE the QEMU guest only.  No relocore code is
 * involved: libbpf decides the object's CO-RE relocations itself against
 * the running kernel's BTF (/sys/kernel/btf/vmlinux, or --btf FILE) and
 * fills its .kconfig externs (LINUX_KERNEL_VERSION, CONFIG_*) itself.  It is
 * the proof that what the relocore plugin compiles is an ordinary CO-RE
 * object.
 * Its event loop repeats cli/run.c's on purpose: it links and includes no
 * relocore code (not even a shared header), or it would prove nothing.
 *
 *   stockload OBJ [--btf FILE] [--duration SECS] [-v] [-- COMMAND...]
 *   stockload OBJ --load-only [--btf FILE] [-v]
 *
 * Opens, loads and attaches every program (by section name), runs COMMAND
 * once attached, reads the ring buffers until COMMAND exits (+0.2 s) or
 * SECS pass, and prints JSON lines on stdout:
 *   {"object":PATH,"loader":"libbpf","libbpf":"1.1"}
 *   {"kconfig":{"LINUX_KERNEL_VERSION":N,...},"baked":B}
 *        what libbpf put in .kconfig, or (B true) the values `relocore reloc
 *        --kernel-release` baked into .rodata.kconfig
 *   {"attached":N}
 *   {"event":MAP,"value":"<hex bytes>"}         one per ring buffer record
 *   {"events":N}
 * --load-only: open and load, print {"program":NAME,"section":SEC} for each
 * program loaded and {"loaded":N}, attach nothing (test/vm/guest-tests.sh
 * compares it with `relocore run --no-autoattach '*'` on the reader's
 * idiom corpus).
 * (events are raw bytes, exactly as `relocore run` prints records whose
 * type is not in the object's BTF; test/vm/check.py decodes both alike).
 * -v: libbpf's debug log on stderr (its CO-RE decisions: "relo #N: ...").
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int verbose;
static volatile sig_atomic_t stop;

static int print_fn(enum libbpf_print_level l, const char *f, va_list ap)
{
	if (l == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, f, ap);
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

struct rb_ctx {
	const char *map;
	long n;
};

static int on_event(void *ctx, void *data, size_t size)
{
	struct rb_ctx *c = ctx;
	size_t i;

	c->n++;
	printf("{\"event\":");
	json_str(c->map);
	printf(",\"value\":\"");
	for (i = 0; i < size; i++)
		printf("%02x", ((unsigned char *)data)[i]);
	printf("\"}\n");
	fflush(stdout);
	return 0;
}

/* The values libbpf wrote into the .kconfig map (integers up to 8 bytes;
 * the map is mmap'ed, its VARs' offsets are the ones libbpf laid out). */
static void print_kconfig(struct bpf_object *obj)
{
	const struct btf *btf = bpf_object__btf(obj);
	const unsigned char *data = NULL;
	struct bpf_map *map;
	size_t sz = 0;
	int id, n = 0, i;
	bool baked = false;

	bpf_object__for_each_map(map, obj) {
		const char *dot = strrchr(bpf_map__name(map), '.');

		if (bpf_map__is_internal(map) && dot && !strcmp(dot, ".kconfig"))
			data = bpf_map__initial_value(map, &sz);
	}
	/* a .kconfig libbpf filled, or one relocore baked (.rodata.kconfig) */
	id = btf ? btf__find_by_name_kind(btf, ".kconfig", BTF_KIND_DATASEC) : -1;
	if (id <= 0 && btf) {
		id = btf__find_by_name_kind(btf, ".rodata.kconfig", BTF_KIND_DATASEC);
		baked = id > 0;
	}
	printf("{\"kconfig\":{");
	if (data && id > 0) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_var_secinfo *vs = btf_var_secinfos(t);

		for (i = 0; i < btf_vlen(t); i++, vs++) {
			const struct btf_type *v = btf__type_by_id(btf, vs->type);
			unsigned long long val = 0;

			if (!btf_is_var(v) || vs->size > 8 || vs->offset + vs->size > sz)
				continue;
			memcpy(&val, data + vs->offset, vs->size);	/* little-endian */
			printf("%s", n++ ? "," : "");
			json_str(btf__name_by_offset(btf, v->name_off));
			printf(":%llu", val);
		}
	}
	printf("},\"baked\":%s}\n", baked ? "true" : "false");
}

int main(int argc, char **argv)
{
	const char *path = NULL, *btf_path = NULL;
	double duration = 10, end;
	struct bpf_link *links[64];
	struct rb_ctx ctxs[8];
	struct ring_buffer *rb = NULL;
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct bpf_map *map;
	char **cmd = NULL;
	int i, nr_links = 0, nr_rb = 0, ret = 1, load_only = 0;
	pid_t child = -1;
	long total = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			cmd = argv + i + 1;
			break;
		} else if (!strcmp(argv[i], "--btf") && i + 1 < argc) {
			btf_path = argv[++i];
		} else if (!strcmp(argv[i], "--duration") && i + 1 < argc) {
			duration = atof(argv[++i]);
		} else if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "--load-only")) {
			load_only = 1;
		} else if (!path && argv[i][0] != '-') {
			path = argv[i];
		} else {
			path = NULL;
			break;
		}
	}
	if (!path || (cmd && !*cmd)) {
		fprintf(stderr, "usage: stockload OBJ [--btf FILE] [--duration SECS] [-v] "
			"[-- COMMAND...]\n       stockload OBJ --load-only [--btf FILE] [-v]\n");
		return 2;
	}
	libbpf_set_print(print_fn);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	{
		LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = btf_path);

		obj = bpf_object__open_file(path, &oo);
	}
	if (!obj) {
		fprintf(stderr, "stockload: libbpf cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	printf("{\"object\":");
	json_str(path);
	printf(",\"loader\":\"libbpf\",\"libbpf\":\"%u.%u\"}\n", libbpf_major_version(),
	       libbpf_minor_version());
	fflush(stdout);
	if (bpf_object__load(obj)) {
		fprintf(stderr, "stockload: libbpf failed to load %s: %s\n", path, strerror(errno));
		goto out;
	}
	print_kconfig(obj);
	if (load_only) {
		int n = 0;

		bpf_object__for_each_program(prog, obj) {
			if (bpf_program__fd(prog) < 0)
				continue;
			printf("{\"program\":");
			json_str(bpf_program__name(prog));
			printf(",\"section\":");
			json_str(bpf_program__section_name(prog));
			printf("}\n");
			n++;
		}
		printf("{\"loaded\":%d}\n", n);
		ret = 0;
		goto out;
	}
	bpf_object__for_each_program(prog, obj) {
		struct bpf_link *l;

		if (!bpf_program__autoload(prog))
			continue;
		l = bpf_program__attach(prog);
		if (!l) {
			fprintf(stderr, "stockload: cannot attach %s (section %s): %s\n",
				bpf_program__name(prog), bpf_program__section_name(prog),
				strerror(errno));
			goto out;
		}
		if (nr_links < 64)
			links[nr_links++] = l;
	}
	bpf_object__for_each_map(map, obj) {
		if (bpf_map__type(map) != BPF_MAP_TYPE_RINGBUF || nr_rb == 8)
			continue;
		ctxs[nr_rb] = (struct rb_ctx){ bpf_map__name(map), 0 };
		if (!rb)
			rb = ring_buffer__new(bpf_map__fd(map), on_event, &ctxs[nr_rb], NULL);
		else if (ring_buffer__add(rb, bpf_map__fd(map), on_event, &ctxs[nr_rb]))
			continue;
		if (!rb) {
			fprintf(stderr, "stockload: ring_buffer__new: %s\n", strerror(errno));
			goto out;
		}
		nr_rb++;
	}
	printf("{\"attached\":%d}\n", nr_links);
	fflush(stdout);

	if (cmd) {
		child = fork();
		if (child == 0) {
			execvp(cmd[0], cmd);
			fprintf(stderr, "stockload: %s: %s\n", cmd[0], strerror(errno));
			_exit(127);
		}
	}
	end = now() + duration;
	while (!stop && now() < end) {
		if (rb)
			ring_buffer__poll(rb, 50);
		else
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
	for (i = 0; i < nr_rb; i++)
		total += ctxs[i].n;
	printf("{\"events\":%ld}\n", total);
	ret = 0;
out:
	ring_buffer__free(rb);
	for (i = 0; i < nr_links; i++)
		bpf_link__destroy(links[i]);
	bpf_object__close(obj);
	return ret;
}
