/* SPDX-License-Identifier: MIT */
/*
 * load_opts.h - what a tool's user space decides at load time, as options
 * of `relocore run` and `relocore check` (load_opts.c): their table, their
 * help, parsing them, checking them against an object, and reading them.
 * What run does with them on the running kernel is attach.h.
 */
#ifndef RELOCORE_CLI_LOAD_OPTS_H
#define RELOCORE_CLI_LOAD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The options as given (load_opt()); each array holds its option's entries
 * in order, PROG[,PROG...] lists split into one entry per name. */
#define LOAD_MAX_OPTS 64
struct load_opts {
	const char *no_autoload[LOAD_MAX_OPTS], *attach_target[LOAD_MAX_OPTS];
	const char *sets[LOAD_MAX_OPTS], *map_size[LOAD_MAX_OPTS];
	const char *uprobe[LOAD_MAX_OPTS], *perf_event[LOAD_MAX_OPTS];
	const char *no_autoattach[LOAD_MAX_OPTS], *optional[LOAD_MAX_OPTS];
	const char *value_size[LOAD_MAX_OPTS], *no_autocreate[LOAD_MAX_OPTS];
	const char *if_present[LOAD_MAX_OPTS];
	const char *xdp[LOAD_MAX_OPTS], *cgroup[LOAD_MAX_OPTS], *tc[LOAD_MAX_OPTS];
	int nr_no_autocreate, nr_if_present, nr_xdp, nr_cgroup, nr_tc;
	int nr_no_autoload, nr_attach_target, nr_sets, nr_map_size, nr_uprobe, nr_perf_event;
	int nr_no_autoattach, nr_optional, nr_value_size;
	/* --attach-target F1,F2,...: the one the running kernel has */
	char *resolved[LOAD_MAX_OPTS];
};

enum { LOPT_NO_AUTOLOAD = 0x200, LOPT_ATTACH_TARGET, LOPT_SET, LOPT_MAP_SIZE,
       LOPT_UPROBE, LOPT_PERF_EVENT, LOPT_NO_AUTOATTACH, LOPT_OPTIONAL,
       LOPT_VALUE_SIZE, LOPT_NO_AUTOCREATE, LOPT_IF_PRESENT, LOPT_XDP, LOPT_CGROUP, LOPT_TC };

#define LOAD_LONGOPTS							\
	{ "no-autoload", required_argument, NULL, LOPT_NO_AUTOLOAD },	\
	{ "attach-target", required_argument, NULL, LOPT_ATTACH_TARGET }, \
	{ "set", required_argument, NULL, LOPT_SET },			\
	{ "map-size", required_argument, NULL, LOPT_MAP_SIZE },		\
	{ "uprobe", required_argument, NULL, LOPT_UPROBE },		\
	{ "perf-event", required_argument, NULL, LOPT_PERF_EVENT },	\
	{ "no-autoattach", required_argument, NULL, LOPT_NO_AUTOATTACH }, \
	{ "optional", required_argument, NULL, LOPT_OPTIONAL },		\
	{ "map-value-size", required_argument, NULL, LOPT_VALUE_SIZE },	\
	{ "no-autocreate", required_argument, NULL, LOPT_NO_AUTOCREATE }, \
	{ "attach-if-present", required_argument, NULL, LOPT_IF_PRESENT }, \
	{ "xdp", required_argument, NULL, LOPT_XDP },			\
	{ "cgroup", required_argument, NULL, LOPT_CGROUP },		\
	{ "tc", required_argument, NULL, LOPT_TC }

#define LOAD_HELP							\
"  --no-autoload PROG[,PROG...]  do not load these programs (each PROG\n" \
"                   a name or a shell glob: 'tail_*', also below)\n"	\
"                   (bpf_program__set_autoload false)\n"		\
"  --no-autoattach PROG[,PROG...]  load them but do not attach them\n" \
"  --optional PROG[,PROG...]  load and attach them only where the running\n" \
"                   kernel has their attach point (tracepoint, kprobe\n" \
"                   function, BTF function or raw tracepoint)\n"	\
"  --attach-if-present PROG[,PROG...]  load them; attach them only where\n" \
"                   the running kernel has their attach point\n"	\
"  --attach-target PROG=FUNC[,FUNC...]  attach PROG there (the first FUNC\n" \
"                   the running kernel has): the function of fentry/\n" \
"                   fexit/fmod_ret/lsm/kprobe/kretprobe, the tp_btf or\n" \
"                   raw_tp event, a tracepoint's CATEGORY/NAME\n"	\
"  --set VAR=VALUE  set a global (.rodata/.data/.bss) by its BTF name;\n" \
"                   VALUE must fit its BTF type: an integer, true/false,\n" \
"                   an enumerator's name, a string for a char array\n"	\
"  --map-size MAP=N set MAP's max_entries\n"			\
"  --map-value-size MAP=N  set MAP's value size (bytes)\n"		\
"  --no-autocreate MAP[,MAP...]  do not create these maps (the programs'\n" \
"                   references to them are poisoned, as libbpf does)\n"	\
"  --uprobe PROG=BINARY:FUNC  attach PROG (uprobe/uretprobe, or a kprobe\n" \
"                   program attached as one) to FUNC of BINARY, all\n"	\
"                   processes; repeatable for several functions\n"	\
"  --perf-event PROG=EVENT[:PERIOD|:FREQhz]  open EVENT on every CPU and\n" \
"                   attach PROG to each (cpu-clock, task-clock, cycles,\n" \
"                   instructions, cache-misses, cache-references, ...;\n" \
"                   default 99hz for the clocks, a period of 100 else)\n" \
"  --xdp PROG=IFACE  attach the XDP program PROG to interface IFACE (a\n" \
"                   link: the kernel picks native or generic mode)\n"	\
"  --cgroup PROG=PATH  attach the cgroup program PROG (cgroup_skb,\n"	\
"                   cgroup/*, sockops) to the cgroup v2 directory PATH\n" \
"  --tc PROG=IFACE[:ingress|:egress]  attach the tc program PROG there\n" \
"                   (a tcx link, Linux 6.6 and later; default ingress)\n"

struct bpf_object;
struct btf;
struct bpf_program;
struct perf_event_attr;

/* Consume load option @c: 1 if it was one, 0 if not, -1 on error. */
int load_opt(struct load_opts *l, int c, const char *arg);
/* Every option names a program/map of @obj of the right kind (messages
 * name @what); 0 or -1. */
int load_opts_check(const struct load_opts *l, struct bpf_object *obj, const char *what);

/* An entry "NAME=VALUE": its VALUE (NULL when there is none), its NAME
 * (copied into @buf). */
const char *load_opt_value(const char *entry);
const char *load_opt_name(const char *entry, char *buf, size_t n);
/* The VALUE of the last "@name=VALUE" of @arr, or NULL */
const char *load_opt_for(const char *const *arr, int nr, const char *name);
/* @name is one of the @nr entries of @arr (a PROG[,PROG...] option), or
 * matches one that is a shell glob (fnmatch) */
bool load_opt_has(const char *const *arr, int nr, const char *name);
/* @entry is a glob (has *, ? or [) */
bool load_opt_is_glob(const char *entry);
/* --attach-target's FUNC for @p (the one the running kernel has, once
 * attach_prepare() resolved it), or NULL */
const char *load_attach_target(const struct load_opts *l, struct bpf_program *p);

/* --set VAR=VALUE (@assign): VALUE checked against VAR's BTF type and
 * written into @obj's initial global data; says why not, -1. */
int load_opt_set_global(struct bpf_object *obj, const char *assign, const char *what);
/* --set VAR=VALUE (@assign) against the object BTF @btf: VAR's section
 * (a string of @btf), offset and size, VALUE encoded by VAR's type
 * (*@bytes, malloc'd).  0; -ENOENT when @btf has no VAR (said unless
 * @quiet); -EINVAL after saying why VALUE does not fit. */
int load_opt_encode_set(const struct btf *btf, const char *assign, const char *what,
			bool quiet, const char **sec, uint32_t *off, unsigned char **bytes,
			uint32_t *size);

/* --perf-event's EVENT[:PERIOD|:FREQhz] -> @a; -1 when not understood. */
int load_perf_attr(const char *spec, struct perf_event_attr *a);
/* The EVENT names --perf-event knows, ", "-separated */
const char *load_perf_event_names(void);

#endif
