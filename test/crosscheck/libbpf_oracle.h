/* SPDX-License-Identifier: MIT */
/*
 * libbpf_oracle.h - libbpf's own CO-RE relocation decisions, offline
 * (libbpf_oracle.c): the libbpf_oracle command (libbpf_oracle_main.c) and
 * bench/core_bench.c use them.
 */
#ifndef RELOCORE_LIBBPF_ORACLE_H
#define RELOCORE_LIBBPF_ORACLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>

struct btf;

/* An ELF section's name and a copy of its contents. */
struct elf_sec {
	char *name;
	unsigned char *data;
	size_t size;
};

/* An object: every section with contents, its .BTF and .BTF.ext. */
struct object {
	const char *path;
	struct elf_sec *secs;
	size_t nsecs;
	struct btf *btf;
	const unsigned char *ext;	/* .BTF.ext */
	size_t ext_size;
};

/* libbpf's decision on one relocation. */
struct verdict {
	char section[256];
	int insn;		/* instruction index within the section */
	int relo_idx;		/* index within the section's core_relo records */
	unsigned kind;
	char spec[256];		/* the access string of the record */
	unsigned local_type_id;
	char local_type[256];
	unsigned target_type_id;	/* 0: no target found */
	char target_type[256];
	uint64_t old_val, new_val;
	bool validate;
	const char *result;	/* ok, poisoned, error */
	char reason[1024];
	char local_spec[256];	/* libbpf's formatted specs */
	char target_spec[256];
	char target_raw[256];	/* raw access path of the target spec, "0:5" */
	struct bpf_insn patched[2];	/* the instruction(s) as libbpf patches them */
	int npatched;		/* 0 if not patched (error) */
	unsigned target_bit_offset;
};

/* Print "libbpf_oracle: MESSAGE" and exit(2). */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* libbpf's print callback (libbpf_set_print): keeps the last warning as a
 * verdict's reason; with trace_mode, echoes every line to stdout. */
extern bool trace_mode;
int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap);

/* Read @path's sections (and, with @want_btf, its .BTF); dies on error. */
void object_open(struct object *o, const char *path, bool want_btf);
/* The section named @name, or NULL. */
struct elf_sec *object_sec(struct object *o, const char *name);

/* libbpf's verdict on every core_relo record of @o against @targ, in
 * .BTF.ext order: *@nout of them (free() the array). */
struct verdict *run_oracle(struct object *o, const struct btf *targ, size_t *nout);

#endif
