// SPDX-License-Identifier: MIT
/*
 * load_opts.c - what a libbpf tool's user space decides at run time and an
 * object alone cannot say, as options of `relocore run` (and `relocore
 * check`, which answers for the object loaded that way):
 *
 *   --no-autoload PROG          bpf_program__set_autoload(PROG, false)
 *   --attach-target PROG=FUNC   bpf_program__set_attach_target() for the
 *                               BTF-attached types (fentry/fexit/fmod_ret/
 *                               lsm/tp_btf/iter), the function of a kprobe,
 *                               the event of a (raw) tracepoint
 *   --set VAR=VALUE             a .rodata/.data/.bss/.kconfig-free global by
 *                               its BTF name, checked against its BTF type
 *   --map-size MAP=N            bpf_map__set_max_entries()
 *   --uprobe PROG=BINARY:FUNC   attach a uprobe/uretprobe there (all pids)
 *   --perf-event PROG=EVENT[:PERIOD|:FREQhz]
 *                               open EVENT on every CPU, attach PROG to each
 *
 * Parsing and checking them against an object is pure (check uses it);
 * load_opts_prepare() and load_opts_attach() act on a libbpf object.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"

static const char *after_eq(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq && eq != s && eq[1] ? eq + 1 : NULL;
}

/* The part of "NAME=..." before '=' (or all of @s), in @buf. */
static const char *before_eq(const char *s, char *buf, size_t n)
{
	snprintf(buf, n, "%.*s", (int)strcspn(s, "="), s);
	return buf;
}

static int add(const char **arr, int *nr, const char *arg, const char *opt, bool need_eq)
{
	if (need_eq && !after_eq(arg)) {
		fprintf(stderr, "relocore: %s takes NAME=VALUE, not '%s'\n", opt, arg);
		return -1;
	}
	if (*nr == LOAD_MAX_OPTS) {
		fprintf(stderr, "relocore: too many %s (at most %d)\n", opt, LOAD_MAX_OPTS);
		return -1;
	}
	arr[(*nr)++] = arg;
	return 1;
}

/* PROG[,PROG...]: one entry each */
static int add_list(const char **arr, int *nr, const char *arg, const char *opt)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy || !*arg)
		goto bad;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (add(arr, nr, tok, opt, false) < 0)
			return -1;
	return 1;	/* the pieces point into @copy, kept for the run */
bad:
	fprintf(stderr, "relocore: %s takes PROG[,PROG...], not '%s'\n", opt, arg);
	free(copy);
	return -1;
}

int load_opt(struct load_opts *l, int c, const char *arg)
{
	switch (c) {
	case LOPT_NO_AUTOLOAD:
		return add_list(l->no_autoload, &l->nr_no_autoload, arg, "--no-autoload");
	case LOPT_NO_AUTOATTACH:
		return add_list(l->no_autoattach, &l->nr_no_autoattach, arg, "--no-autoattach");
	case LOPT_OPTIONAL:
		return add_list(l->optional, &l->nr_optional, arg, "--optional");
	case LOPT_IF_PRESENT:
		return add_list(l->if_present, &l->nr_if_present, arg, "--attach-if-present");
	case LOPT_NO_AUTOCREATE:
		return add_list(l->no_autocreate, &l->nr_no_autocreate, arg, "--no-autocreate");
	case LOPT_VALUE_SIZE: {
		const char *v = after_eq(arg);
		char *end;
		unsigned long n = v ? strtoul(v, &end, 0) : 0;

		if (!v || *end || !n || n > UINT32_MAX || *v == '-') {
			fprintf(stderr, "relocore: --map-value-size takes MAP=BYTES, not '%s'\n", arg);
			return -1;
		}
		return add(l->value_size, &l->nr_value_size, arg, "--map-value-size", true);
	}
	case LOPT_ATTACH_TARGET:
		return add(l->attach_target, &l->nr_attach_target, arg, "--attach-target", true);
	case LOPT_SET:
		return add(l->sets, &l->nr_sets, arg, "--set", true);
	case LOPT_MAP_SIZE: {
		const char *v = after_eq(arg);
		char *end;
		unsigned long n;

		if (v) {
			errno = 0;
			n = strtoul(v, &end, 0);
			if (*end || errno || n == 0 || n > UINT32_MAX || *v == '-')
				v = NULL;
		}
		if (!v) {
			fprintf(stderr, "relocore: --map-size takes MAP=N (N a positive 32-bit count), not '%s'\n", arg);
			return -1;
		}
		return add(l->map_size, &l->nr_map_size, arg, "--map-size", true);
	}
	case LOPT_UPROBE: {
		const char *v = after_eq(arg);

		if (!v || !strchr(v, ':') || strchr(v, ':') == v || !strchr(v, ':')[1]) {
			fprintf(stderr, "relocore: --uprobe takes PROG=BINARY:FUNC, not '%s'\n", arg);
			return -1;
		}
		return add(l->uprobe, &l->nr_uprobe, arg, "--uprobe", true);
	}
	case LOPT_PERF_EVENT: {
		struct perf_event_attr a;

		if (!after_eq(arg) || load_perf_attr(after_eq(arg), &a)) {
			fprintf(stderr, "relocore: --perf-event takes PROG=EVENT[:PERIOD|:FREQhz] (EVENT one of %s), not '%s'\n",
				load_perf_event_names(), arg);
			return -1;
		}
		return add(l->perf_event, &l->nr_perf_event, arg, "--perf-event", true);
	}
	}
	return 0;
}

/* --- perf events ---------------------------------------------------------- */

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} perf_events[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
};

const char *load_perf_event_names(void)
{
	static char buf[512];
	size_t i, n = 0;

	if (!buf[0])
		for (i = 0; i < sizeof(perf_events) / sizeof(perf_events[0]); i++)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : "",
				      perf_events[i].name);
	return buf;
}

/* EVENT[:PERIOD|:FREQhz] -> @a; -1 when not understood. */
int load_perf_attr(const char *spec, struct perf_event_attr *a)
{
	size_t len = strcspn(spec, ":"), i;
	const char *p = spec[len] ? spec + len + 1 : NULL;
	char *end;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	for (i = 0; i < sizeof(perf_events) / sizeof(perf_events[0]); i++)
		if (strlen(perf_events[i].name) == len && !strncmp(spec, perf_events[i].name, len))
			break;
	if (i == sizeof(perf_events) / sizeof(perf_events[0]))
		return -1;
	a->type = perf_events[i].type;
	a->config = perf_events[i].config;
	/* the tools' defaults: software clocks at 99 Hz, counters every 100 */
	if (a->type == PERF_TYPE_SOFTWARE && a->config <= PERF_COUNT_SW_TASK_CLOCK) {
		a->freq = 1;
		a->sample_freq = 99;
	} else {
		a->sample_period = 100;
	}
	if (p) {
		unsigned long long v;

		errno = 0;
		v = strtoull(p, &end, 0);
		if (end == p || errno || !v || *p == '-')
			return -1;
		if (!strcasecmp(end, "hz")) {
			a->freq = 1;
			a->sample_freq = v;
		} else if (!*end) {
			a->freq = 0;
			a->sample_period = v;
		} else {
			return -1;
		}
	}
	return 0;
}

/* --- checking the options against the object (pure) ----------------------- */

static const char *prog_names(struct bpf_object *obj)
{
	static char buf[2048];
	struct bpf_program *p;
	size_t n = 0;

	buf[0] = 0;
	bpf_object__for_each_program(p, obj)
		if (n < sizeof(buf) - 1)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? " " : "",
				      bpf_program__name(p));
	return buf;
}

static struct bpf_program *find_prog(struct bpf_object *obj, const char *opt,
				     const char *arg, const char *what)
{
	char name[256];
	struct bpf_program *p;

	before_eq(arg, name, sizeof(name));
	p = bpf_object__find_program_by_name(obj, name);
	if (!p)
		fprintf(stderr, "relocore: %s %s: %s has no program '%s' (its programs: %s)\n",
			opt, arg, what, name, prog_names(obj));
	return p;
}

/* The name after the section's first '/', or "" */
static const char *sec_target(const char *sec)
{
	const char *s = strchr(sec, '/');

	return s ? s + 1 : "";
}

const char *load_attach_target(const struct load_opts *l, struct bpf_program *p)
{
	const char *name = bpf_program__name(p);
	size_t n = strlen(name);
	int i;

	for (i = l->nr_attach_target - 1; i >= 0; i--)
		if (!strncmp(l->attach_target[i], name, n) && l->attach_target[i][n] == '=')
			return l->resolved[i] ? l->resolved[i] : l->attach_target[i] + n + 1;
	return NULL;
}

static bool in_list(const char *const *arr, int nr, const char *name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(arr[i], name))
			return true;
	return false;
}

static const char *prog_target(const struct load_opts *l, struct bpf_program *p);
static bool kernel_has_attach(const char *sec, const char *target);

bool load_no_autoattach(const struct load_opts *l, struct bpf_program *p)
{
	const char *t;

	if (in_list(l->no_autoattach, l->nr_no_autoattach, bpf_program__name(p)))
		return true;
	if (!in_list(l->if_present, l->nr_if_present, bpf_program__name(p)))
		return false;
	t = prog_target(l, p);
	if (!*t || kernel_has_attach(bpf_program__section_name(p), t))
		return false;
	fprintf(stderr, "relocore run: %s: the kernel has no %s (--attach-if-present): loaded, not attached\n",
		bpf_program__name(p), t);
	return true;
}

static const char *opt_for(const char *const *arr, int nr, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = nr - 1; i >= 0; i--)
		if (!strncmp(arr[i], name, n) && arr[i][n] == '=')
			return arr[i] + n + 1;
	return NULL;
}

/* --set: the global @name's section, offset, size and type */
struct global {
	const char *sec;
	uint32_t off, size, type;
};

static int find_global(const struct btf *btf, const char *name, struct global *g)
{
	uint32_t i, n = btf ? btf__type_cnt(btf) : 0;

	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const struct btf_var_secinfo *vs;
		int k;

		if (!btf_is_datasec(t))
			continue;
		vs = btf_var_secinfos(t);
		for (k = 0; k < btf_vlen(t); k++, vs++) {
			const struct btf_type *v = btf__type_by_id(btf, vs->type);

			if (!v || !btf_is_var(v) || strcmp(btf__name_by_offset(btf, v->name_off), name))
				continue;
			g->sec = btf__name_by_offset(btf, t->name_off);
			g->off = vs->offset;
			g->size = vs->size;
			g->type = v->type;
			return 0;
		}
	}
	return -ENOENT;
}

static const char *type_str(const struct btf *btf, uint32_t id, char *buf, size_t n)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	static const char *const kinds[] = { "void", "int", "pointer", "array", "struct",
		"union", "enum", "forward", "typedef", "volatile", "const", "restrict",
		"function", "function type", "variable", "datasec", "float", "decl tag",
		"type tag", "enum64" };
	const char *nm = t ? btf__name_by_offset(btf, t->name_off) : "";

	if (t && (btf_is_int(t) || btf_is_float(t)) && nm && *nm)
		snprintf(buf, n, "%s", nm);	/* int, unsigned char, ... */
	else
		snprintf(buf, n, "%s%s%s", t && btf_kind(t) < 20 ? kinds[btf_kind(t)] : "?",
			 nm && *nm ? " " : "", nm ? nm : "");
	return buf;
}

/* Encode @val for BTF type @id into @out (@size bytes); a message in @why. */
static int encode_value(const struct btf *btf, uint32_t id, const char *val,
			unsigned char *out, uint32_t size, char *why, size_t wn)
{
	const struct btf_type *t;
	char tb[128], *end;
	int i;

	id = btf__resolve_type(btf, id) < 0 ? id : (uint32_t)btf__resolve_type(btf, id);
	t = btf__type_by_id(btf, id);
	if (!t) {
		snprintf(why, wn, "its type [%u] is not in the object's BTF", id);
		return -1;
	}
	if (btf_is_int(t) || btf_is_enum(t) || btf_kind(t) == 19 /* ENUM64 */) {
		bool sgn = btf_is_int(t) ? !!(btf_int_encoding(t) & BTF_INT_SIGNED)
					 : !!btf_kflag(t);
		bool is_bool = btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_BOOL);
		unsigned long long u = 0;
		long long s;
		bool ok = false;

		if (t->size > 8 || t->size != size) {
			snprintf(why, wn, "its type %s is %u bytes", type_str(btf, id, tb, sizeof(tb)), t->size);
			return -1;
		}
		if (is_bool && (!strcmp(val, "true") || !strcmp(val, "false"))) {
			u = val[0] == 't';
			ok = true;
		}
		if (!ok && btf_is_enum(t)) {	/* an enumerator by name */
			const struct btf_enum *e = btf_enum(t);

			for (i = 0; i < btf_vlen(t); i++, e++)
				if (!strcmp(btf__name_by_offset(btf, e->name_off), val)) {
					u = (unsigned long long)(long long)e->val;
					ok = true;
				}
		}
		if (!ok) {
			errno = 0;
			if (sgn || *val == '-') {
				s = strtoll(val, &end, 0);
				u = (unsigned long long)s;
				if (!*val || *end || errno)
					goto bad;
				if (size < 8) {
					long long lim = 1LL << (size * 8 - (sgn ? 1 : 0));

					if (sgn ? (s < -lim || s >= lim) : (s < 0 || s >= lim))
						goto range;
				}
				if (!sgn && s < 0)
					goto range;
			} else {
				u = strtoull(val, &end, 0);
				if (!*val || *end || errno)
					goto bad;
				if (size < 8 && u >> (size * 8))
					goto range;
			}
			if (is_bool && u > 1)
				goto range;
		}
		memcpy(out, &u, size);		/* BPF objects here are little-endian */
		return 0;
bad:
		snprintf(why, wn, "'%s' is not a value of its type %s", val, type_str(btf, id, tb, sizeof(tb)));
		return -1;
range:
		snprintf(why, wn, "%s does not fit its type %s (%u bytes, %s)", val,
			 type_str(btf, id, tb, sizeof(tb)), size, sgn ? "signed" : "unsigned");
		return -1;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		uint32_t eid = btf__resolve_type(btf, a->type) < 0 ? a->type
					: (uint32_t)btf__resolve_type(btf, a->type);
		const struct btf_type *e = btf__type_by_id(btf, eid);

		if (e && btf_is_int(e) && e->size == 1 && a->nelems == size) {
			if (strlen(val) >= size) {
				snprintf(why, wn, "\"%s\" is %zu characters; its type char[%u] holds %u and the NUL",
					 val, strlen(val), size, size - 1);
				return -1;
			}
			memset(out, 0, size);
			memcpy(out, val, strlen(val));
			return 0;
		}
	}
	snprintf(why, wn, "its type is %s: --set takes integers, bools, enums and char arrays",
		 type_str(btf, id, tb, sizeof(tb)));
	return -1;
}

/* --- what the running kernel has ------------------------------------------------ */

static struct btf *vmlinux_btf(void)
{
	static struct btf *btf;
	static bool tried;

	if (!tried) {
		tried = true;
		btf = btf__load_vmlinux_btf();
		if (!btf)
			btf = NULL;
	}
	return btf;
}

/* The BTF id of @name (@kind) in vmlinux or a module; the module's BTF fd
 * (or 0) in @btf_fd.  0 when nowhere. */
static uint32_t kernel_btf_id(const char *name, int kind, int *btf_fd)
{
	struct btf *vmlinux = vmlinux_btf();
	uint32_t id = 0;
	int r;

	*btf_fd = 0;
	if (vmlinux && (r = btf__find_by_name_kind(vmlinux, name, kind)) > 0)
		return r;
	while (vmlinux && !bpf_btf_get_next_id(id, &id)) {
		struct bpf_btf_info info = { 0 };
		uint32_t len = sizeof(info);
		char nm[64] = "";
		struct btf *mod;
		int fd = bpf_btf_get_fd_by_id(id);

		if (fd < 0)
			continue;
		info.name = (uintptr_t)nm;
		info.name_len = sizeof(nm);
		if (bpf_obj_get_info_by_fd(fd, &info, &len) || !info.kernel_btf ||
		    !strcmp(nm, "vmlinux")) {
			close(fd);
			continue;
		}
		mod = btf__load_from_kernel_by_id_split(id, vmlinux);
		r = mod ? btf__find_by_name_kind(mod, name, kind) : -1;
		btf__free(mod);
		if (r > 0) {
			*btf_fd = fd;
			return r;
		}
		close(fd);
	}
	return 0;
}

static bool kernel_has_btf(const char *name, int kind)
{
	int fd;
	bool r = kernel_btf_id(name, kind, &fd) != 0;

	if (fd > 0)
		close(fd);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Functions a kprobe can take: the tracing's available_filter_functions
 * (as libbpf-tools' kprobe_exists), else /proc/kallsyms. */
static bool kernel_has_ksym(const char *name)
{
	static char **syms;
	static size_t n;
	static bool loaded;
	const char *const files[] = { "/sys/kernel/tracing/available_filter_functions",
		"/sys/kernel/debug/tracing/available_filter_functions", "/proc/kallsyms" };
	char line[512], *key = (char *)name;

	if (!loaded) {
		size_t cap = 0, f;

		loaded = true;
		for (f = 0; f < 3 && !n; f++) {
			FILE *fp = fopen(files[f], "r");

			if (!fp)
				continue;
			while (fgets(line, sizeof(line), fp)) {
				char *tok = line, *save = NULL;

				if (f == 2) {	/* ADDR TYPE NAME [module] */
					strtok_r(line, " \t\n", &save);
					strtok_r(NULL, " \t\n", &save);
					tok = strtok_r(NULL, " \t\n", &save);
				} else {
					tok = strtok_r(line, " \t\n", &save);
				}
				if (!tok)
					continue;
				if (n == cap) {
					char **m = realloc(syms, (cap = cap ? cap * 2 : 65536) * sizeof(*m));

					if (!m)
						break;
					syms = m;
				}
				syms[n] = strdup(tok);
				if (syms[n])
					n++;
			}
			fclose(fp);
		}
		qsort(syms, n, sizeof(*syms), cmp_str);
	}
	return n && bsearch(&key, syms, n, sizeof(*syms), cmp_str);
}

static bool kernel_has_tracepoint(const char *cat_name)
{
	char p[512];

	snprintf(p, sizeof(p), "/sys/kernel/tracing/events/%s", cat_name);
	if (!access(p, F_OK))
		return true;
	snprintf(p, sizeof(p), "/sys/kernel/debug/tracing/events/%s", cat_name);
	return !access(p, F_OK);
}

/* Does the running kernel have @target for a program of section @sec? */
static bool kernel_has_attach(const char *sec, const char *target)
{
	const struct pt_def *d = pt_find(sec, NULL);
	enum pt_attach k = d ? d->attach : PT_ATTACH_AUTO;
	char tn[300];

	switch (k) {
	case PT_ATTACH_FENTRY: case PT_ATTACH_FEXIT: case PT_ATTACH_BTF:
		/* bpf_lsm_NAME, bpf_iter_NAME: the FUNC the kernel attaches at */
		snprintf(tn, sizeof(tn), "%s%s", d->func_prefix ? d->func_prefix : "", target);
		return kernel_has_btf(tn, BTF_KIND_FUNC);
	case PT_ATTACH_TP_BTF: case PT_ATTACH_RAW_TP:
		snprintf(tn, sizeof(tn), "btf_trace_%s", target);
		if (kernel_has_btf(tn, BTF_KIND_TYPEDEF))
			return true;
		if (k == PT_ATTACH_TP_BTF)
			return false;
		/* a raw tracepoint by name, without BTF: in any category */
		{
			glob_t g;
			bool found;
			char pat[600];

			snprintf(pat, sizeof(pat), "/sys/kernel/tracing/events/*/%s", target);
			found = !glob(pat, GLOB_NOSORT, NULL, &g) && g.gl_pathc;
			globfree(&g);
			if (found)
				return true;
			snprintf(pat, sizeof(pat), "/sys/kernel/debug/tracing/events/*/%s", target);
			found = !glob(pat, GLOB_NOSORT, NULL, &g) && g.gl_pathc;
			globfree(&g);
			return found;
		}
	case PT_ATTACH_KPROBE: case PT_ATTACH_KRETPROBE:
		return kernel_has_ksym(target);
	case PT_ATTACH_TRACEPOINT:
		return kernel_has_tracepoint(target);
	default:
		return true;
	}
}

/* --- acting on a libbpf object ------------------------------------------------ */

static int apply_set(struct bpf_object *obj, const char *assign, const char *what)
{
	const struct btf *btf = bpf_object__btf(obj);
	char name[256], why[256];
	unsigned char *buf;
	struct bpf_map *map;
	struct global g;

	before_eq(assign, name, sizeof(name));
	if (find_global(btf, name, &g)) {
		fprintf(stderr, "relocore: --set %s: %s has no global variable '%s' in its BTF\n",
			assign, what, name);
		return -1;
	}
	buf = malloc(g.size ? g.size : 1);
	if (!buf || encode_value(btf, g.type, after_eq(assign), buf, g.size, why, sizeof(why))) {
		fprintf(stderr, "relocore: --set %s: variable %s (section %s): %s\n", assign, name,
			g.sec, buf ? why : "out of memory");
		free(buf);
		return -1;
	}
	bpf_object__for_each_map(map, obj) {
		const char *dot = strchr(bpf_map__name(map), '.');
		size_t sz;
		char *data;

		if (!bpf_map__is_internal(map) || !dot || strcmp(dot, g.sec))
			continue;
		data = (char *)bpf_map__initial_value(map, &sz);
		if (!data || g.off + g.size > sz)
			break;
		memcpy(data + g.off, buf, g.size);
		free(buf);
		return 0;
	}
	free(buf);
	fprintf(stderr, "relocore: --set %s: section %s of %s has no data to write\n",
		assign, g.sec, what);
	return -1;
}

int load_opts_check(const struct load_opts *l, struct bpf_object *obj, const char *what)
{
	struct bpf_program *p;
	char name[256];
	int i;

	for (i = 0; i < l->nr_no_autoload; i++)
		if (!find_prog(obj, "--no-autoload", l->no_autoload[i], what))
			return -1;
	for (i = 0; i < l->nr_no_autoattach; i++)
		if (!find_prog(obj, "--no-autoattach", l->no_autoattach[i], what))
			return -1;
	for (i = 0; i < l->nr_optional; i++)
		if (!find_prog(obj, "--optional", l->optional[i], what))
			return -1;
	for (i = 0; i < l->nr_if_present; i++)
		if (!find_prog(obj, "--attach-if-present", l->if_present[i], what))
			return -1;
	for (i = 0; i < l->nr_no_autocreate; i++)
		if (!bpf_object__find_map_by_name(obj, l->no_autocreate[i])) {
			fprintf(stderr, "relocore: --no-autocreate %s: %s has no map '%s'\n",
				l->no_autocreate[i], what, l->no_autocreate[i]);
			return -1;
		}
	for (i = 0; i < l->nr_value_size; i++)
		if (!bpf_object__find_map_by_name(obj, before_eq(l->value_size[i], name, sizeof(name)))) {
			fprintf(stderr, "relocore: --map-value-size %s: %s has no map '%s'\n",
				l->value_size[i], what, name);
			return -1;
		}
	for (i = 0; i < l->nr_attach_target; i++) {
		p = find_prog(obj, "--attach-target", l->attach_target[i], what);
		if (!p)
			return -1;
		switch (pt_attach_of(bpf_program__section_name(p))) {
		case PT_ATTACH_UPROBE: case PT_ATTACH_URETPROBE: case PT_ATTACH_PERF_EVENT: case PT_ATTACH_AUTO: case PT_ATTACH_USDT:
			fprintf(stderr, "relocore: --attach-target %s: program %s (section %s) takes no attach target%s\n",
				l->attach_target[i], bpf_program__name(p), bpf_program__section_name(p),
				pt_attach_of(bpf_program__section_name(p)) == PT_ATTACH_UPROBE ||
				pt_attach_of(bpf_program__section_name(p)) == PT_ATTACH_URETPROBE ?
				" (a uprobe: --uprobe PROG=BINARY:FUNC)" : "");
			return -1;
		default:
			break;
		}
	}
	for (i = 0; i < l->nr_uprobe; i++) {
		enum pt_attach k;

		p = find_prog(obj, "--uprobe", l->uprobe[i], what);
		if (!p)
			return -1;
		k = pt_attach_of(bpf_program__section_name(p));
		if (k != PT_ATTACH_UPROBE && k != PT_ATTACH_URETPROBE && k != PT_ATTACH_KPROBE && k != PT_ATTACH_KRETPROBE) {
			fprintf(stderr, "relocore: --uprobe %s: program %s (section %s) is not a uprobe or kprobe program\n",
				l->uprobe[i], bpf_program__name(p), bpf_program__section_name(p));
			return -1;
		}
	}
	for (i = 0; i < l->nr_perf_event; i++) {
		p = find_prog(obj, "--perf-event", l->perf_event[i], what);
		if (!p)
			return -1;
		if (pt_attach_of(bpf_program__section_name(p)) != PT_ATTACH_PERF_EVENT) {
			fprintf(stderr, "relocore: --perf-event %s: program %s (section %s) is not a perf_event program\n",
				l->perf_event[i], bpf_program__name(p), bpf_program__section_name(p));
			return -1;
		}
	}
	for (i = 0; i < l->nr_map_size; i++)
		if (!bpf_object__find_map_by_name(obj, before_eq(l->map_size[i], name, sizeof(name)))) {
			fprintf(stderr, "relocore: --map-size %s: %s has no map '%s'\n",
				l->map_size[i], what, name);
			return -1;
		}
	return 0;
}

static const char *prog_target(const struct load_opts *l, struct bpf_program *p)
{
	const char *t = load_attach_target(l, p);

	return t ? t : sec_target(bpf_program__section_name(p));
}

/* MAP=N entries (checked by load_opts_check): @set(map, N) for each */
static int set_maps(struct bpf_object *obj, const char *const *arr, int nr, const char *opt,
		    int (*set)(struct bpf_map *, __u32))
{
	char name[256];
	int i;

	for (i = 0; i < nr; i++)
		if (set(bpf_object__find_map_by_name(obj, before_eq(arr[i], name, sizeof(name))),
			strtoul(after_eq(arr[i]), NULL, 0))) {
			fprintf(stderr, "relocore: %s %s: %s\n", opt, arr[i], strerror(errno));
			return -1;
		}
	return 0;
}

int load_opts_prepare(struct load_opts *l, struct bpf_object *obj, const char *what)
{
	struct bpf_program *p;
	char name[256];
	int i;

	if (load_opts_check(l, obj, what))
		return -1;
	for (i = 0; i < l->nr_no_autoload; i++) {
		p = bpf_object__find_program_by_name(obj, l->no_autoload[i]);
		bpf_program__set_autoload(p, false);
	}
	/* FUNC,FUNC,...: the first the running kernel has */
	for (i = 0; i < l->nr_attach_target; i++) {
		const char *v = after_eq(l->attach_target[i]);
		char *copy, *tok, *save = NULL;

		if (!strchr(v, ','))
			continue;
		p = bpf_object__find_program_by_name(obj, before_eq(l->attach_target[i], name, sizeof(name)));
		copy = strdup(v);
		for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save))
			if (kernel_has_attach(bpf_program__section_name(p), tok))
				break;
		if (tok) {
			l->resolved[i] = strdup(tok);
			fprintf(stderr, "relocore run: --attach-target %s: the kernel has %s\n",
				l->attach_target[i], tok);
		} else if (in_list(l->optional, l->nr_optional, name)) {
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
	for (i = 0; i < l->nr_optional; i++) {
		const char *t;

		p = bpf_object__find_program_by_name(obj, l->optional[i]);
		if (!bpf_program__autoload(p))
			continue;
		t = prog_target(l, p);
		if (*t && !kernel_has_attach(bpf_program__section_name(p), t)) {
			bpf_program__set_autoload(p, false);
			fprintf(stderr, "relocore run: %s: the kernel has no %s (section %s; --optional): not loaded\n",
				l->optional[i], t, bpf_program__section_name(p));
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
		if (apply_set(obj, l->sets[i], what))
			return -1;
	return 0;
}

int load_opts_btf_targets(const struct load_opts *l, struct bpf_object *obj)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		const char *tgt = load_attach_target(l, p);
		enum pt_attach k = pt_attach_of(bpf_program__section_name(p));

		if (!tgt || !bpf_program__autoload(p) ||
		    !(k == PT_ATTACH_FENTRY || k == PT_ATTACH_FEXIT || k == PT_ATTACH_BTF || k == PT_ATTACH_TP_BTF))
			continue;
		if (bpf_program__set_attach_target(p, 0, tgt)) {
			fprintf(stderr, "relocore: --attach-target %s=%s: %s (not in the kernel's BTF, vmlinux or modules)\n",
				bpf_program__name(p), tgt, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int perf_open(struct perf_event_attr *a, int cpu)
{
	return syscall(__NR_perf_event_open, a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int load_opts_attach(const struct load_opts *l, struct bpf_program *p,
		     struct bpf_link **links, int max, const char **why)
{
	const char *sec = bpf_program__section_name(p), *name = bpf_program__name(p);
	enum pt_attach k = pt_attach_of(sec);
	const char *tgt = load_attach_target(l, p), *v;
	struct bpf_link *lk = NULL;
	static char msg[512];

	*why = NULL;
	if (k == PT_ATTACH_PERF_EVENT) {
		struct perf_event_attr a;
		int cpu, ncpu = libbpf_num_possible_cpus(), n = 0, fd;

		v = opt_for(l->perf_event, l->nr_perf_event, name);
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
	if (opt_for(l->uprobe, l->nr_uprobe, name) || k == PT_ATTACH_UPROBE || k == PT_ATTACH_URETPROBE) {
		size_t nl = strlen(name);
		int i, cnt = 0;

		if (!opt_for(l->uprobe, l->nr_uprobe, name)) {
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
libbpf:
	lk = bpf_program__attach(p);
done:
	if (!lk)
		return -1;
	links[0] = lk;
	return 1;
}

/* --- alternatives: fentry/kprobe, fexit/kretprobe, tp_btf/raw_tp ------------- */

/* Load a two-instruction tracing program at @id of @btf_fd (0: vmlinux) and
 * attach it: what the kernel must do for the real one (a trampoline for
 * fentry/fexit, a BTF raw tracepoint for tp_btf). */
static bool can_attach_btf(uint32_t id, int btf_fd, enum bpf_attach_type at)
{
	const struct bpf_insn insns[] = {
		{ .code = 0xb7, .dst_reg = 0, .imm = 0 },	/* r0 = 0 */
		{ .code = 0x95 },				/* exit */
	};
	LIBBPF_OPTS(bpf_prog_load_opts, po, .expected_attach_type = at,
		    .attach_btf_id = id, .attach_btf_obj_fd = btf_fd);
	int fd, lfd;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "rc_probe", "GPL", insns, 2, &po);
	if (fd < 0)
		return false;
	lfd = bpf_raw_tracepoint_open(NULL, fd);
	close(fd);
	if (lfd < 0)
		return false;
	close(lfd);
	return true;
}

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
	uint32_t id;
	bool ok;
	int fd, j;

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

	if (k == PT_ATTACH_TP_BTF) {
		char tn[300];

		snprintf(tn, sizeof(tn), "btf_trace_%s", f);
		id = kernel_btf_id(tn, BTF_KIND_TYPEDEF, &fd);
	} else {
		id = kernel_btf_id(f, BTF_KIND_FUNC, &fd);
	}
	ok = id && can_attach_btf(id, fd, k == PT_ATTACH_TP_BTF ? BPF_TRACE_RAW_TP :
					  k == PT_ATTACH_FENTRY ? BPF_TRACE_FENTRY : BPF_TRACE_FEXIT);
	if (fd > 0)
		close(fd);
	return ok;
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
int load_pick_alternatives(const struct load_opts *l, struct bpf_object *obj, bool json)
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
