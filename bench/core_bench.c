// SPDX-License-Identifier: MIT
/*
 * core_bench - relocore vs libbpf on the same work, in one process:
 * open a target BTF, then decide (and patch) every CO-RE relocation of
 * the given objects.
 *
 *   libbpf side:   btf__parse(target); per object: libelf + btf__parse_elf,
 *                  then libbpf's own bpf_core_add_cands (its linear
 *                  candidate scan, cached per local type as libbpf does),
 *                  bpf_core_calc_relo_insn and bpf_core_patch_insn - the
 *                  driving loop of test/crosscheck/libbpf_oracle.c.
 *   relocore side: rc_target_open; per object: rc_object_open +
 *                  rc_object_relocate.
 *
 * usage: core_bench MODE ITER TARGET.btf OBJ...
 *   MODE: both (alternating, prints per-side medians and the ratio),
 *         libbpf or relocore (one side only, for callgrind);
 *         with "-tool" (both-tool, libbpf-tool, relocore-tool) each object
 *         opens the target anew, as each tool's start does; with "-proc"
 *         (both-proc, ...) each object is also done in a process of its
 *         own (fork; the parent allocates nothing large first), so the
 *         memory each side touches is new to it as in a tool's process;
 *         relocore's process sets its heap up as the relocore command
 *         does (cli/heap.c);
 *         read: the physical reference, reading TARGET.btf (page cache)
 *
 * Built by bench/run.sh with test/crosscheck/libbpf_oracle.c and
 * cli/heap.c beside it, over build/lib/librelocore.a.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "heap.h"		/* cli/heap.c */
#include "libbpf_oracle.h"	/* test/crosscheck/libbpf_oracle.c */
#include "relocore.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool per_object;	/* "-tool": the target opened per object */
static bool per_process;	/* "-proc": and each object in a new process */
static long faults[3];		/* -proc: the children's page faults: libbpf, relocore, none */

static size_t libbpf_side(const char *target, char **objs, int n)
{
	struct btf *targ = btf__parse(target, NULL);
	size_t relos = 0;
	int i;

	if (!targ)
		die("libbpf cannot parse %s", target);
	for (i = 0; i < n; i++) {
		if (per_object && i) {
			btf__free(targ);
			targ = btf__parse(target, NULL);
			if (!targ)
				die("libbpf cannot parse %s", target);
		}
		struct object o;
		size_t k, nv = 0;
		struct verdict *v;

		object_open(&o, objs[i], true);
		v = run_oracle(&o, targ, &nv);
		relos += nv;
		free(v);
		for (k = 0; k < o.nsecs; k++) {
			free(o.secs[k].name);
			free(o.secs[k].data);
		}
		free(o.secs);
		btf__free(o.btf);
	}
	btf__free(targ);
	return relos;
}

static size_t relocore_side(const char *target, char **objs, int n)
{
	struct rc_error err = { "" };
	struct rc_target *t = rc_target_open(target, NULL, &err);
	size_t relos = 0;
	int i;

	if (!t)
		die("relocore: %s", err.msg);
	for (i = 0; i < n; i++) {
		struct rc_object *o;

		if (per_object && i) {
			rc_target_free(t);
			t = rc_target_open(target, NULL, &err);
			if (!t)
				die("relocore: %s", err.msg);
		}
		o = rc_object_open(objs[i], &err);

		if (!o)
			die("relocore: %s", err.msg);
		rc_object_relocate(o, t, NULL, &err);	/* refusals are results too */
		relos += rc_object_relo_count(o);
		rc_object_free(o);
	}
	rc_target_free(t);
	return relos;
}

typedef size_t (*side_fn)(const char *target, char **objs, int n);

/* -proc: a process that does nothing, the floor under both sides. */
static size_t null_side(const char *target, char **objs, int n)
{
	return 0;
}

/* @fn on each object in a child process of its own; the relocations counted. */
static size_t in_processes(side_fn fn, const char *target, char **objs, int n)
{
	size_t relos = 0, r;
	int i, fds[2], st;
	struct rusage ru;
	pid_t pid;

	for (i = 0; i < n; i++) {
		if (pipe(fds))
			die("pipe: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			close(fds[0]);
			if (fn == relocore_side)	/* as the relocore command starts */
				cli_heap_in_huge_pages();
			r = fn(target, objs + i, 1);
			if (write(fds[1], &r, sizeof(r)) != sizeof(r))
				_exit(1);
			_exit(0);
		}
		close(fds[1]);
		if (read(fds[0], &r, sizeof(r)) != sizeof(r) || wait4(pid, &st, 0, &ru) != pid ||
		    !WIFEXITED(st) || WEXITSTATUS(st))
			die("the process of %s failed", objs[i]);
		faults[fn == libbpf_side ? 0 : fn == relocore_side ? 1 : 2] += ru.ru_minflt + ru.ru_majflt;
		close(fds[0]);
		relos += r;
	}
	return relos;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double tl[64], tr[64], tn[64];
	size_t nl = 0, nr = 0;
	int iter, i;

	if (argc < 5 && !(argc == 4 && !strcmp(argv[1], "read"))) {
		fprintf(stderr, "usage: %s both|libbpf|relocore[-tool|-proc] ITER TARGET.btf OBJ...\n"
			"       %s read ITER FILE\n", argv[0], argv[0]);
		return 2;
	}
	libbpf_set_print(print_fn);
	iter = atoi(argv[2]);
	if (iter < 1 || iter > 64)
		iter = 1;
	if (!strcmp(argv[1], "read")) {	/* read(2) of the whole file, best of ITER */
		double best = 1e9;
		static char buf[1 << 20];

		for (i = 0; i < iter; i++) {
			double t0 = now();
			FILE *f = fopen(argv[3], "rb");
			size_t tot = 0, k;

			if (!f)
				die("%s: %s", argv[3], strerror(errno));
			while ((k = fread(buf, 1, sizeof(buf), f)) > 0)
				tot += k;
			fclose(f);
			if (now() - t0 < best)
				best = now() - t0;
			if (!tot)
				die("%s: empty", argv[3]);
		}
		printf("read %s: %.2f ms (best of %d)\n", argv[3], best * 1e3, iter);
		return 0;
	}
	if (strlen(argv[1]) > 5 && !strcmp(argv[1] + strlen(argv[1]) - 5, "-proc")) {
		per_process = true;
		strcpy(argv[1] + strlen(argv[1]) - 5, "-tool");
	}
	if (strlen(argv[1]) > 5 && !strcmp(argv[1] + strlen(argv[1]) - 5, "-tool")) {
		per_object = true;
		argv[1][strlen(argv[1]) - 5] = 0;
	}
	for (i = 0; i < iter; i++) {
		double t0;

		if (strcmp(argv[1], "relocore")) {
			t0 = now();
			nl = per_process ? in_processes(libbpf_side, argv[3], argv + 4, argc - 4) :
					   libbpf_side(argv[3], argv + 4, argc - 4);
			tl[i] = now() - t0;
		}
		if (strcmp(argv[1], "libbpf")) {
			t0 = now();
			nr = per_process ? in_processes(relocore_side, argv[3], argv + 4, argc - 4) :
					   relocore_side(argv[3], argv + 4, argc - 4);
			tr[i] = now() - t0;
		}
		if (per_process) {
			t0 = now();
			in_processes(null_side, argv[3], argv + 4, argc - 4);
			tn[i] = now() - t0;
		}
	}
	if (strcmp(argv[1], "both")) {
		printf("%s: %zu relocations\n", argv[1], nl + nr);
		return 0;
	}
	if (nl != nr)
		die("relocation counts differ: libbpf %zu, relocore %zu", nl, nr);
	qsort(tl, iter, sizeof(double), cmp_double);
	qsort(tr, iter, sizeof(double), cmp_double);
	printf("relocations per run: %zu (%d objects)\n", nr, argc - 4);
	printf("libbpf   median %.2f ms (min %.2f)\n", tl[iter / 2] * 1e3, tl[0] * 1e3);
	printf("relocore median %.2f ms (min %.2f)\n", tr[iter / 2] * 1e3, tr[0] * 1e3);
	printf("ratio relocore/libbpf (median): %.3f\n", tr[iter / 2] / tl[iter / 2]);
	if (per_process) {
		qsort(tn, iter, sizeof(double), cmp_double);
		printf("page faults per process: libbpf %ld, relocore %ld\n",
		       faults[0] / iter / (argc - 4), faults[1] / iter / (argc - 4));
		printf("a process that does nothing (fork, exit, wait): median %.2f ms for as many"
		       " (%ld faults each); net of it, ratio %.3f\n", tn[iter / 2] * 1e3,
		       faults[2] / iter / (argc - 4),
		       (tr[iter / 2] - tn[iter / 2]) / (tl[iter / 2] - tn[iter / 2]));
	}
	return 0;
}
