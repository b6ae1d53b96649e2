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
 *   --xdp PROG=IFACE            bpf_program__attach_xdp() there (a link)
 *   --cgroup PROG=PATH          bpf_program__attach_cgroup() there (a link)
 *   --tc PROG=IFACE[:DIR]       a tcx link there (BPF_TCX_INGRESS/EGRESS)
 *
 * This file parses them, checks them against an object (both shared by run
 * and check), reads them back, and encodes a --set VALUE by its BTF type.
 * It asks nothing of the running kernel: what run does with the options
 * there is attach.c, and what it asks the kernel is probe.c.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "load_opts.h"
#include "progtype.h"

/* --- parsing -------------------------------------------------------------- */

const char *load_opt_value(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq && eq != s && eq[1] ? eq + 1 : NULL;
}

/* The part of "NAME=..." before '=' (or all of @s), in @buf. */
const char *load_opt_name(const char *s, char *buf, size_t n)
{
	snprintf(buf, n, "%.*s", (int)strcspn(s, "="), s);
	return buf;
}

static int add(const char **arr, int *nr, const char *arg, const char *opt, bool need_eq)
{
	if (need_eq && !load_opt_value(arg)) {
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
		const char *v = load_opt_value(arg);
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
	case LOPT_XDP:
		return add(l->xdp, &l->nr_xdp, arg, "--xdp", true);
	case LOPT_CGROUP:
		return add(l->cgroup, &l->nr_cgroup, arg, "--cgroup", true);
	case LOPT_TC:
		return add(l->tc, &l->nr_tc, arg, "--tc", true);
	case LOPT_MAP_SIZE: {
		const char *v = load_opt_value(arg);
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
		const char *v = load_opt_value(arg);

		if (!v || !strchr(v, ':') || strchr(v, ':') == v || !strchr(v, ':')[1]) {
			fprintf(stderr, "relocore: --uprobe takes PROG=BINARY:FUNC, not '%s'\n", arg);
			return -1;
		}
		return add(l->uprobe, &l->nr_uprobe, arg, "--uprobe", true);
	}
	case LOPT_PERF_EVENT: {
		struct perf_event_attr a;

		if (!load_opt_value(arg) || load_perf_attr(load_opt_value(arg), &a)) {
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

/* --- reading them back --------------------------------------------------- */

/* The index of the last "@name=..." entry of @arr, or -1 */
static int entry_for(const char *const *arr, int nr, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = nr - 1; i >= 0; i--)
		if (!strncmp(arr[i], name, n) && arr[i][n] == '=')
			return i;
	return -1;
}

const char *load_opt_for(const char *const *arr, int nr, const char *name)
{
	int i = entry_for(arr, nr, name);

	return i < 0 ? NULL : arr[i] + strlen(name) + 1;
}

const char *load_attach_target(const struct load_opts *l, struct bpf_program *p)
{
	const char *name = bpf_program__name(p);
	int i = entry_for(l->attach_target, l->nr_attach_target, name);

	if (i < 0)
		return NULL;
	return l->resolved[i] ? l->resolved[i] : l->attach_target[i] + strlen(name) + 1;
}

/* A program-name entry is a name or a shell glob (fnmatch: x*, probe_[0-9]):
 * a probe of hundreds of programs names them by pattern. */
bool load_opt_has(const char *const *arr, int nr, const char *name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!fnmatch(arr[i], name, 0))
			return true;
	return false;
}

bool load_opt_is_glob(const char *entry)
{
	return strpbrk(entry, "*?[") != NULL;
}

/* --- checking the options against an object (pure) ----------------------- */

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

	load_opt_name(arg, name, sizeof(name));
	p = bpf_object__find_program_by_name(obj, name);
	if (!p)
		fprintf(stderr, "relocore: %s %s: %s has no program '%s' (its programs: %s)\n",
			opt, arg, what, name, prog_names(obj));
	return p;
}

/* Every PROG of a PROG[,PROG...] option @opt is a program of @obj, every
 * glob matches one at least; 0 or -1 */
static int find_progs(struct bpf_object *obj, const char *opt, const char *const *arr, int nr,
		      const char *what)
{
	struct bpf_program *p;
	int i;

	for (i = 0; i < nr; i++) {
		bool any = false;

		if (!load_opt_is_glob(arr[i])) {
			if (!find_prog(obj, opt, arr[i], what))
				return -1;
			continue;
		}
		bpf_object__for_each_program(p, obj)
			any = any || !fnmatch(arr[i], bpf_program__name(p), 0);
		if (!any) {
			fprintf(stderr, "relocore: %s %s: no program of %s matches '%s' (its programs: %s)\n",
				opt, arr[i], what, arr[i], prog_names(obj));
			return -1;
		}
	}
	return 0;
}

/* Every MAP of a MAP=N option @opt is a map of @obj; 0 or -1 */
static int find_maps(struct bpf_object *obj, const char *opt, const char *const *arr, int nr,
		     const char *what)
{
	char name[256];
	int i;

	for (i = 0; i < nr; i++)
		if (!bpf_object__find_map_by_name(obj, load_opt_name(arr[i], name, sizeof(name)))) {
			fprintf(stderr, "relocore: %s %s: %s has no map '%s'\n", opt, arr[i], what, name);
			return -1;
		}
	return 0;
}

int load_opts_check(const struct load_opts *l, struct bpf_object *obj, const char *what)
{
	struct bpf_program *p;
	int i;

	if (find_progs(obj, "--no-autoload", l->no_autoload, l->nr_no_autoload, what) ||
	    find_progs(obj, "--no-autoattach", l->no_autoattach, l->nr_no_autoattach, what) ||
	    find_progs(obj, "--optional", l->optional, l->nr_optional, what) ||
	    find_progs(obj, "--attach-if-present", l->if_present, l->nr_if_present, what))
		return -1;
	for (i = 0; i < l->nr_no_autocreate; i++)
		if (!bpf_object__find_map_by_name(obj, l->no_autocreate[i])) {
			fprintf(stderr, "relocore: --no-autocreate %s: %s has no map '%s'\n",
				l->no_autocreate[i], what, l->no_autocreate[i]);
			return -1;
		}
	if (find_maps(obj, "--map-value-size", l->value_size, l->nr_value_size, what))
		return -1;
	for (i = 0; i < l->nr_attach_target; i++) {
		p = find_prog(obj, "--attach-target", l->attach_target[i], what);
		if (!p)
			return -1;
		switch (pt_attach_of(bpf_program__section_name(p))) {
		case PT_ATTACH_UPROBE: case PT_ATTACH_URETPROBE: case PT_ATTACH_PERF_EVENT: case PT_ATTACH_AUTO: case PT_ATTACH_USDT:
		case PT_ATTACH_XDP: case PT_ATTACH_CGROUP: case PT_ATTACH_RUN: case PT_ATTACH_TC:
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
	for (i = 0; i < l->nr_xdp + l->nr_cgroup + l->nr_tc; i++) {
		int w = i < l->nr_xdp ? 0 : i < l->nr_xdp + l->nr_cgroup ? 1 : 2;
		static const char *const opt[] = { "--xdp", "--cgroup", "--tc" };
		static const char *const kind[] = { "an XDP", "a cgroup or sockops", "a tc" };
		static const enum pt_attach how[] = { PT_ATTACH_XDP, PT_ATTACH_CGROUP, PT_ATTACH_TC };
		const char *a = w == 0 ? l->xdp[i] : w == 1 ? l->cgroup[i - l->nr_xdp] :
				l->tc[i - l->nr_xdp - l->nr_cgroup];

		p = find_prog(obj, opt[w], a, what);
		if (!p)
			return -1;
		if (pt_attach_of(bpf_program__section_name(p)) != how[w]) {
			fprintf(stderr, "relocore: %s %s: program %s (section %s) is not %s program\n",
				opt[w], a, bpf_program__name(p), bpf_program__section_name(p), kind[w]);
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
	if (find_maps(obj, "--map-size", l->map_size, l->nr_map_size, what))
		return -1;
	return 0;
}

/* --- --set VAR=VALUE: the value by its BTF type --------------------------- */

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
		{	/* in the object's byte order (its BTF's) */
			bool be = btf__endianness(btf) == BTF_BIG_ENDIAN;
			unsigned int k;

			for (k = 0; k < size; k++)
				((unsigned char *)out)[k] = (unsigned char)(u >> 8 * (be ? size - 1 - k : k));
		}
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

int load_opt_encode_set(const struct btf *btf, const char *assign, const char *what,
			bool quiet, const char **sec, uint32_t *off, unsigned char **bytes,
			uint32_t *size)
{
	char name[256], why[256];
	unsigned char *buf;
	struct global g;

	load_opt_name(assign, name, sizeof(name));
	if (find_global(btf, name, &g)) {
		if (!quiet)
			fprintf(stderr, "relocore: --set %s: %s has no global variable '%s' in its BTF\n",
				assign, what, name);
		return -ENOENT;
	}
	buf = malloc(g.size ? g.size : 1);
	if (!buf || encode_value(btf, g.type, load_opt_value(assign), buf, g.size, why, sizeof(why))) {
		fprintf(stderr, "relocore: --set %s: variable %s (section %s): %s\n", assign, name,
			g.sec, buf ? why : "out of memory");
		free(buf);
		return -EINVAL;
	}
	*sec = g.sec;
	*off = g.off;
	*bytes = buf;
	*size = g.size;
	return 0;
}

int load_opt_set_global(struct bpf_object *obj, const char *assign, const char *what)
{
	const struct btf *btf = bpf_object__btf(obj);
	unsigned char *buf;
	struct bpf_map *map;
	const char *sec;
	uint32_t off, size;

	if (load_opt_encode_set(btf, assign, what, false, &sec, &off, &buf, &size))
		return -1;
	bpf_object__for_each_map(map, obj) {
		const char *dot = strchr(bpf_map__name(map), '.');
		size_t sz;
		char *data;

		if (!bpf_map__is_internal(map) || !dot || strcmp(dot, sec))
			continue;
		data = (char *)bpf_map__initial_value(map, &sz);
		if (!data || off + size > sz)
			break;
		memcpy(data + off, buf, size);
		free(buf);
		return 0;
	}
	free(buf);
	fprintf(stderr, "relocore: --set %s: section %s of %s has no data to write\n",
		assign, sec, what);
	return -1;
}
