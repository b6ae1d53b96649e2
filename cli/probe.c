// SPDX-License-Identifier: MIT
/*
 * probe.c - what the running kernel can do, asked of it by `relocore run`
 * (never by check, which decides offline): whether it has an attach point
 * (a BTF function or tracepoint of vmlinux or a module, a kprobe-able
 * symbol, a tracefs event), and whether it can attach a BTF-side program
 * there, answered by loading and attaching a two-instruction "rc_probe"
 * program (as libbpf-tools' fentry_can_attach does).
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"

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

/* Where tracefs may be mounted: its own mount, else under debugfs */
static const char *const tracefs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static bool kernel_has_tracepoint(const char *cat_name)
{
	char p[512];
	size_t i;

	for (i = 0; i < sizeof(tracefs) / sizeof(tracefs[0]); i++) {
		snprintf(p, sizeof(p), "%s/events/%s", tracefs[i], cat_name);
		if (!access(p, F_OK))
			return true;
	}
	return false;
}

/* A tracepoint called @name in any category (a raw tracepoint by name,
 * without BTF) */
static bool kernel_has_tp_named(const char *name)
{
	char pat[600];
	size_t i;

	for (i = 0; i < sizeof(tracefs) / sizeof(tracefs[0]); i++) {
		glob_t g;
		bool found;

		snprintf(pat, sizeof(pat), "%s/events/*/%s", tracefs[i], name);
		found = !glob(pat, GLOB_NOSORT, NULL, &g) && g.gl_pathc;
		globfree(&g);
		if (found)
			return true;
	}
	return false;
}

bool probe_has_attach(const char *sec, const char *target)
{
	const struct pt_def *d = pt_find(sec, NULL);
	enum pt_attach k = d ? d->attach : PT_ATTACH_AUTO;
	char tn[300];

	switch (k) {
	case PT_ATTACH_FENTRY: case PT_ATTACH_FEXIT: case PT_ATTACH_BTF: case PT_ATTACH_ITER:
		/* bpf_lsm_NAME, bpf_iter_NAME: the FUNC the kernel attaches at */
		snprintf(tn, sizeof(tn), "%s%s", d->func_prefix ? d->func_prefix : "", target);
		return kernel_has_btf(tn, BTF_KIND_FUNC);
	case PT_ATTACH_TP_BTF: case PT_ATTACH_RAW_TP:
		snprintf(tn, sizeof(tn), "btf_trace_%s", target);
		if (kernel_has_btf(tn, BTF_KIND_TYPEDEF))
			return true;
		if (k == PT_ATTACH_TP_BTF)
			return false;
		return kernel_has_tp_named(target);
	case PT_ATTACH_KPROBE: case PT_ATTACH_KRETPROBE:
		return kernel_has_ksym(target);
	case PT_ATTACH_TRACEPOINT:
		return kernel_has_tracepoint(target);
	default:
		return true;
	}
}

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

bool probe_btf_attaches(enum pt_attach k, const char *func)
{
	uint32_t id;
	bool ok;
	int fd;

	if (k == PT_ATTACH_TP_BTF) {
		char tn[300];

		snprintf(tn, sizeof(tn), "btf_trace_%s", func);
		id = kernel_btf_id(tn, BTF_KIND_TYPEDEF, &fd);
	} else {
		id = kernel_btf_id(func, BTF_KIND_FUNC, &fd);
	}
	ok = id && can_attach_btf(id, fd, k == PT_ATTACH_TP_BTF ? BPF_TRACE_RAW_TP :
					  k == PT_ATTACH_FENTRY ? BPF_TRACE_FENTRY : BPF_TRACE_FEXIT);
	if (fd > 0)
		close(fd);
	return ok;
}
