// SPDX-License-Identifier: MIT
/*
 * vlog OBJ: a diagnostic for the VM tests, run INSIDE the guest only.  OBJ
 * has no CO-RE relocations left (relocated on the host by `relocore reloc`);
 * libbpf loads it with a large verifier log buffer per program and prints
 * the verifier's whole log, so that a refusal can be read in full.  Nothing
 * is attached; the object is closed again at once.
 */
#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define LOG_SZ (4 << 20)

static int quiet(enum libbpf_print_level l, const char *f, va_list ap)
{
	return l == LIBBPF_DEBUG ? 0 : vfprintf(stderr, f, ap);
}

int main(int argc, char **argv)
{
	struct bpf_program *p;
	struct bpf_object *o;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: vlog OBJ\n");
		return 2;
	}
	libbpf_set_print(quiet);
	o = bpf_object__open_file(argv[1], NULL);
	if (!o)
		return 1;
	bpf_object__for_each_program(p, o)
		{
		bpf_program__set_log_buf(p, calloc(1, LOG_SZ), LOG_SZ);
		bpf_program__set_log_level(p, 1);
	}
	err = bpf_object__load(o);
	bpf_object__for_each_program(p, o) {
		size_t n;
		const char *log = bpf_program__log_buf(p, &n);

		printf("=== program %s (section %s)\n%s\n", bpf_program__name(p),
		       bpf_program__section_name(p), log ? log : "");
	}
	printf("=== load: %d\n", err);
	bpf_object__close(o);
	return err ? 1 : 0;
}
