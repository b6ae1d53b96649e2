// SPDX-License-Identifier: MIT
/*
 * loadbench - inside a guest: relocore's open + relocate + load of a CO-RE
 * object against libbpf's own CO-RE load of the same object, alternating,
 * in one process.  Statically linked (librelocore.a, libbpf.a).
 *
 *   relocore: rc_target_open(/sys/kernel/btf/vmlinux), rc_object_open,
 *             rc_object_relocate, then libbpf opens the relocated image
 *             (no core_relo records left) and loads it
 *   libbpf:   bpf_object__open_file + bpf_object__load (libbpf reads the
 *             kernel BTF and does the CO-RE relocations itself)
 *
 * usage: loadbench N OBJ...   prints, per object, the median times and the
 * ratio relocore/libbpf:  "loadbench OBJ relocore_ms libbpf_ms ratio"
 */
#include <bpf/libbpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "relocore.h"

#define VMLINUX "/sys/kernel/btf/vmlinux"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int quiet(enum libbpf_print_level l, const char *f, va_list ap)
{
	return 0;
}

static double with_relocore(const char *path)
{
	struct rc_error err = { "" };
	struct rc_target *t;
	struct rc_object *o;
	struct bpf_object *bo = NULL;
	double t0 = now(), t1 = -1;
	void *img = NULL;
	size_t sz;

	t = rc_target_open(VMLINUX, NULL, &err);
	o = t ? rc_object_open(path, &err) : NULL;
	if (o && !rc_object_relocate(o, t, NULL, &err))
		img = rc_object_image(o, &sz);
	if (img)
		bo = bpf_object__open_mem(img, sz, NULL);
	if (bo && !bpf_object__load(bo))
		t1 = now();
	if (t1 < 0)
		fprintf(stderr, "loadbench: relocore path failed for %s: %s\n", path, err.msg);
	bpf_object__close(bo);
	free(img);
	rc_object_free(o);
	rc_target_free(t);
	return t1 < 0 ? -1 : t1 - t0;
}

static double with_libbpf(const char *path)
{
	double t0 = now(), t1 = -1;
	struct bpf_object *bo = bpf_object__open_file(path, NULL);

	if (bo && !bpf_object__load(bo))
		t1 = now();
	if (t1 < 0)
		fprintf(stderr, "loadbench: libbpf failed for %s\n", path);
	bpf_object__close(bo);
	return t1 < 0 ? -1 : t1 - t0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n, i, k;

	if (argc < 3 || (n = atoi(argv[1])) < 1 || n > 100) {
		fprintf(stderr, "usage: %s N OBJ...\n", argv[0]);
		return 2;
	}
	libbpf_set_print(quiet);
	for (k = 2; k < argc; k++) {
		double r[100], l[100];

		for (i = 0; i < n; i++) {
			r[i] = with_relocore(argv[k]);
			l[i] = with_libbpf(argv[k]);
			if (r[i] < 0 || l[i] < 0)
				return 1;
		}
		qsort(r, n, sizeof(double), cmp);
		qsort(l, n, sizeof(double), cmp);
		printf("loadbench %s %.1f %.1f %.3f\n", strrchr(argv[k], '/') ?
		       strrchr(argv[k], '/') + 1 : argv[k], r[n / 2], l[n / 2],
		       r[n / 2] / l[n / 2]);
		fflush(stdout);
	}
	return 0;
}
