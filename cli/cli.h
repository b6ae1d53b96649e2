/* SPDX-License-Identifier: MIT */
/* cli.h - shared by the relocore command's files: JSON printing
 * (btf_json.c), the target options (target_opts.c), the commands.  The load
 * options are load_opts.h; what run does with them, attach.h and probe.h. */
#ifndef RELOCORE_CLI_H
#define RELOCORE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "relocore.h"

struct btf;

/* Print @s as a JSON string. */
void cli_json_str(FILE *f, const char *s);
/* The same for @n bytes of @s (NULs and other bytes escaped). */
void cli_json_strn(FILE *f, const char *s, size_t n);
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
"  --btf FILE|DIR   target BTF: raw BTF, an ELF file with .BTF, or\n"	\
"                   BTFHub's FILE.btf.tar.xz; a DIR is a copy of a\n"	\
"                   kernel's /sys/kernel/btf: DIR/vmlinux and each other\n" \
"                   file a module (default /sys/kernel/btf/vmlinux with\n" \
"                   the running kernel's modules)\n"			\
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
/* Open the object @path (its embedded object @select, or NULL) into *@obj,
 * then the chosen target, as explain, reloc and run begin; NULL (why said
 * on stderr, nothing left open) when either fails. */
struct rc_target *target_open_for(struct target_opts *t, const char *path,
				  const char *select, struct rc_object **obj);

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
int cmd_matrix(int argc, char **argv);

#endif
