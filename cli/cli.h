/* SPDX-License-Identifier: MIT */
/* cli.h - shared by the relocore command's files. */
#ifndef RELOCORE_CLI_H
#define RELOCORE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "heap.h"
#include "progtype.h"
#include "relocore.h"

struct btf;

/* Print @s as a JSON string. */
void cli_json_str(FILE *f, const char *s);
/* Print the value at @data (@size bytes) of BTF type @id as JSON. */
void cli_json_value(FILE *f, const struct btf *btf, uint32_t id,
		    const void *data, size_t size);

#ifndef RC_DEFAULT_ARCHIVE
#define RC_DEFAULT_ARCHIVE "/usr/lib/relocore/btf.rcba"
#endif
#define TARGET_MAX_MODULES 64

/* What --btf/--base-btf/--module/--archive/--release chose. */
struct target_opts {
	const char *btf, *base_btf, *archive, *release;
	const char *mods[TARGET_MAX_MODULES];
	int nr_mods;
	char release_buf[256];
	char what[512];		/* the target, for messages */
};

/* getopt_long entries of the target options (codes b B m A R). */
#define TARGET_LONGOPTS							\
	{ "btf", required_argument, NULL, 'b' },			\
	{ "base-btf", required_argument, NULL, 'B' },			\
	{ "module", required_argument, NULL, 'm' },			\
	{ "archive", required_argument, NULL, 'A' },			\
	{ "release", required_argument, NULL, 'R' }

#define TARGET_HELP							\
"  --btf FILE       target BTF: raw BTF, an ELF file with .BTF, or\n"	\
"                   BTFHub's FILE.btf.tar.xz (default\n"		\
"                   /sys/kernel/btf/vmlinux)\n"			\
"  --base-btf FILE  the --btf FILE is split BTF over this base\n"	\
"  --module FILE    module BTF split over the target, searched when the\n" \
"                   target has no candidate (repeatable)\n"		\
"  --archive FILE   take the target from a BTF archive (relocore archive);\n" \
"                   used by default when the kernel has no\n"		\
"                   /sys/kernel/btf/vmlinux: $RELOCORE_ARCHIVE, else\n" \
"                   " RC_DEFAULT_ARCHIVE "\n"				\
"  --release REL    the kernel release to take from the archive\n"	\
"                   (default: uname -r)\n"

/* Consume target option @c: 1 if it was one, 0 if not, -1 on error. */
int target_opt(struct target_opts *t, int c, const char *arg);
/* Open the target BTF file @path (raw BTF, ELF with .BTF, BTFHub's
 * .btf.tar.xz), split over @base when set. */
struct rc_target *target_open_file(const char *path, const char *base,
				   struct rc_error *err);
/* Open the chosen target; prints why on failure. */
struct rc_target *target_open(struct target_opts *t);

/* What a tool's user space decides at load time (load_opts.c): the options
 * of `relocore run` and `relocore check`. */
#define LOAD_MAX_OPTS 64
struct load_opts {
	const char *no_autoload[LOAD_MAX_OPTS], *attach_target[LOAD_MAX_OPTS];
	const char *sets[LOAD_MAX_OPTS], *map_size[LOAD_MAX_OPTS];
	const char *uprobe[LOAD_MAX_OPTS], *perf_event[LOAD_MAX_OPTS];
	const char *no_autoattach[LOAD_MAX_OPTS], *optional[LOAD_MAX_OPTS];
	const char *value_size[LOAD_MAX_OPTS], *no_autocreate[LOAD_MAX_OPTS];
	const char *if_present[LOAD_MAX_OPTS];
	int nr_no_autocreate, nr_if_present;
	int nr_no_autoload, nr_attach_target, nr_sets, nr_map_size, nr_uprobe, nr_perf_event;
	int nr_no_autoattach, nr_optional, nr_value_size;
	/* --attach-target F1,F2,...: the one the running kernel has */
	char *resolved[LOAD_MAX_OPTS];
};

enum { LOPT_NO_AUTOLOAD = 0x200, LOPT_ATTACH_TARGET, LOPT_SET, LOPT_MAP_SIZE,
       LOPT_UPROBE, LOPT_PERF_EVENT, LOPT_NO_AUTOATTACH, LOPT_OPTIONAL,
       LOPT_VALUE_SIZE, LOPT_NO_AUTOCREATE, LOPT_IF_PRESENT };

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
	{ "attach-if-present", required_argument, NULL, LOPT_IF_PRESENT }

#define LOAD_HELP							\
"  --no-autoload PROG[,PROG...]  do not load these programs\n"	\
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
"                   default 99hz for the clocks, a period of 100 else)\n"

struct bpf_object;
struct bpf_program;
struct bpf_link;
struct perf_event_attr;

/* Consume load option @c: 1 if it was one, 0 if not, -1 on error. */
int load_opt(struct load_opts *l, int c, const char *arg);
/* --attach-target's FUNC for @p, or NULL */
const char *load_attach_target(const struct load_opts *l, struct bpf_program *p);
/* Every option names a program/map of @obj of the right kind (messages
 * name @what); 0 or -1. */
int load_opts_check(const struct load_opts *l, struct bpf_object *obj, const char *what);
/* Before load: autoload, attach targets (alternatives resolved on the
 * running kernel), map sizes, --set values. */
int load_opts_prepare(struct load_opts *l, struct bpf_object *obj, const char *what);
/* After load_pick_alternatives(): the attach targets of the BTF-attached
 * programs still to be loaded (bpf_program__set_attach_target). */
int load_opts_btf_targets(const struct load_opts *l, struct bpf_object *obj);
/* --no-autoattach said so for @p, or --attach-if-present and the running
 * kernel lacks its attach point (said on stderr) */
bool load_no_autoattach(const struct load_opts *l, struct bpf_program *p);
/* Of fentry/fexit and kprobe/kretprobe programs that trace the same
 * functions (tp_btf and raw_tp programs the same tracepoints), all to be
 * loaded: keep the BTF ones if the running kernel can attach every one of
 * them (a probe program loaded and attached per function), else the others,
 * for the whole object, as a libbpf-tool decides once; says so on stderr
 * (@json: a JSON line on stdout too).  Returns the number of functions and
 * tracepoints decided. */
int load_pick_alternatives(const struct load_opts *l, struct bpf_object *obj, bool json);
/* Attach @p as the options say (or as its section says): up to @max links
 * in @links; the count, or -1 with errno (and a message in *why when the
 * program needs an option). */
int load_opts_attach(const struct load_opts *l, struct bpf_program *p,
		     struct bpf_link **links, int max, const char **why);
int load_perf_attr(const char *spec, struct perf_event_attr *a);
const char *load_perf_event_names(void);

/* relocore run */
int cmd_run(int argc, char **argv);
/* relocore btfgen / relocore archive */
int cmd_btfgen(int argc, char **argv);
int cmd_archive(int argc, char **argv);
/* relocore extract */
int cmd_extract(int argc, char **argv);
/* relocore gen min_core_btf (bpftool's order) */
int cmd_gen(int argc, char **argv);
/* relocore check */
int cmd_check(int argc, char **argv);

#endif
