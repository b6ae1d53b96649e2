/* SPDX-License-Identifier: MIT */
/*
 * attach.h - what `relocore run` does with the load options on a libbpf
 * object and the running kernel (attach.c), in its order: attach_prepare(),
 * attach_pick_twins(), attach_btf_targets(), bpf_object__load(), then
 * attach_skip() and attach_program() per program.
 */
#ifndef RELOCORE_CLI_ATTACH_H
#define RELOCORE_CLI_ATTACH_H

#include <stdbool.h>

struct bpf_link;
struct bpf_object;
struct bpf_program;
struct load_opts;

/* Before load: autoload, attach targets (alternatives resolved on the
 * running kernel), map sizes, --set values; checks the options first
 * (load_opts_check).  0, or -1 said on stderr. */
int attach_prepare(struct load_opts *l, struct bpf_object *obj, const char *what);
/* Of fentry/fexit and kprobe/kretprobe programs that trace the same
 * functions (tp_btf and raw_tp programs the same tracepoints), all to be
 * loaded: keep the BTF ones if the running kernel can attach every one of
 * them (a probe program loaded and attached per function), else the others,
 * for the whole object, as a libbpf-tool decides once; says so on stderr
 * (@json: a JSON line on stdout too).  Returns the number of functions and
 * tracepoints decided. */
int attach_pick_twins(const struct load_opts *l, struct bpf_object *obj, bool json);
/* After attach_pick_twins(): the attach targets of the BTF-attached
 * programs still to be loaded (bpf_program__set_attach_target). */
int attach_btf_targets(const struct load_opts *l, struct bpf_object *obj);
/* --no-autoattach said so for @p, or --attach-if-present and the running
 * kernel lacks its attach point (said on stderr) */
bool attach_skip(const struct load_opts *l, struct bpf_program *p);
/* Attach @p as the options say (or as its section says): up to @max links
 * in @links; the count, or -1 with errno (and a message in *why when the
 * program needs an option); -n-1 when n links were made before a failure.
 * An iterator's output and a run program's result are printed on stdout
 * (@json: as JSON lines).  A link libbpf has no object for (tcx) is an fd
 * in *@rawfd (-1: none), the caller's to close; the count is 0 then. */
int attach_program(const struct load_opts *l, struct bpf_program *p,
		   struct bpf_link **links, int max, bool json, int *rawfd, const char **why);

#endif
