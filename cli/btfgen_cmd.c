// SPDX-License-Identifier: MIT
/*
 * btfgen_cmd.c - relocore btfgen, relocore gen min_core_btf (bpftool's
 * order) and relocore archive.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btfgen.h"
#include "cli.h"
#include "relocore_private.h"	/* rc_write_file: how a file is written */

static void btfgen_usage(FILE *f)
{
	fprintf(f,
"usage: relocore btfgen --btf FULL -o MIN OBJ...\n"
"\n"
"Write MIN: the part of the kernel BTF FULL that the CO-RE relocations of\n"
"the objects need (the members they access with their offsets, the types\n"
"they test, the enums they read), so that every relocation decides the same\n"
"against MIN as against FULL.  MIN is raw BTF: give it to relocore --btf,\n"
"to libbpf as btf_custom_path, or put it in an archive.\n"
"An OBJ may be a binary that embeds BPF objects (a libbpf skeleton's tool):\n"
"every object it embeds counts.\n"
"\n"
"Options:\n"
"  --btf FULL       the kernel's BTF: raw BTF, an ELF file with .BTF, or\n"
"                   BTFHub's FILE.btf.tar.xz\n"
"  -o, --output MIN the minimized BTF to write\n"
"  -h, --help       this text\n"
"\n"
"relocore gen min_core_btf FULL MIN OBJ... is the same in bpftool's order.\n");
}

static struct rc_target *read_target(const char *path)
{
	struct rc_error err = { "" };
	struct rc_target *t = target_open_file(path, NULL, &err);

	if (!t)
		fprintf(stderr, "relocore: %s\n", err.msg);
	return t;
}

/* Write MIN: @full minimized for @objs. */
static int btfgen(const char *full, const char *out, const char *const *objs,
		  int nr_objs, const char *who)
{
	struct rc_error err = { "" };
	struct rc_target *ft;
	struct btf *mb;
	int ret;

	ft = read_target(full);
	if (!ft)
		return 1;
	mb = bg_minimize(ft, objs, nr_objs, &err);
	ret = !mb || bg_write_btf(mb, out, &err);
	if (ret)
		fprintf(stderr, "%s: %s\n", who, err.msg);
	else
		fprintf(stderr, "%s: %s: %u of %u types kept\n", who, out,
			btf__type_cnt(mb) - 1, rc_btf_type_cnt(rc_target_types(ft)) - 1);
	btf__free(mb);
	rc_target_free(ft);
	return ret;
}

int cmd_btfgen(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "btf", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *full = NULL, *out = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'b': full = optarg; break;
		case 'o': out = optarg; break;
		case 'h': btfgen_usage(stdout); return 0;
		default: btfgen_usage(stderr); return 2;
		}
	}
	if (!full || !out || optind >= argc) {
		btfgen_usage(stderr);
		return 2;
	}
	return btfgen(full, out, (const char *const *)argv + optind, argc - optind,
		      "relocore btfgen");
}

static void gen_usage(FILE *f)
{
	fprintf(f,
"usage: relocore gen min_core_btf INPUT OUTPUT OBJECT...\n"
"\n"
"bpftool gen min_core_btf's arguments, in its order: write OUTPUT, the part\n"
"of the kernel BTF INPUT (raw BTF, an ELF file with .BTF, or BTFHub's\n"
"FILE.btf.tar.xz) that the CO-RE relocations of the OBJECTs need.  The same\n"
"as relocore btfgen --btf INPUT -o OUTPUT OBJECT..., so scripts written for\n"
"bpftool (BTFHub's, bcc's Makefile.btfgen) switch by name.\n"
"\n"
"Options:\n"
"  -h, --help       this text\n");
}

int cmd_gen(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	if (!strcmp(sub, "help") || !strcmp(sub, "-h") || !strcmp(sub, "--help"))
		return gen_usage(stdout), 0;
	if (strcmp(sub, "min_core_btf")) {
		if (*sub)
			fprintf(stderr, "relocore gen: unknown subcommand '%s' (relocore has min_core_btf)\n", sub);
		return gen_usage(stderr), 2;
	}
	if (argc > 2 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help")))
		return gen_usage(stdout), 0;
	if (argc < 5) {
		fprintf(stderr, "relocore gen min_core_btf: expected INPUT OUTPUT OBJECT...\n");
		return gen_usage(stderr), 2;
	}
	return btfgen(argv[2], argv[3], (const char *const *)argv + 4, argc - 4,
		      "relocore gen min_core_btf");
}

static void archive_usage(FILE *f)
{
	fprintf(f,
"usage: relocore archive create -o ARCHIVE [--min OBJ]... RELEASE=BTF...\n"
"       relocore archive list ARCHIVE [--json]\n"
"       relocore archive extract ARCHIVE RELEASE -o OUT.btf\n"
"       relocore archive install ARCHIVE [--destdir DIR] [-o PATH]\n"
"\n"
"An archive holds the BTF of many kernels, each type shared between them\n"
"stored once, looked up by release (uname -r).  BTF is raw BTF, an ELF file\n"
"with .BTF, or BTFHub's FILE.btf.tar.xz.  With --min, each kernel's BTF is\n"
"first minimized for the objects (as relocore btfgen).  relocore\n"
"explain/reloc/run take --archive ARCHIVE [--release REL], and use an\n"
"archive by default on kernels without /sys/kernel/btf/vmlinux:\n"
"$RELOCORE_ARCHIVE, else " RC_DEFAULT_ARCHIVE ", where install puts one.\n"
"\n"
"Options:\n"
"  -o, --output FILE  create: the archive; extract: the BTF; install: the\n"
"                   path to install to (default $DESTDIR" RC_DEFAULT_ARCHIVE ")\n"
"  --min OBJ        create: minimize each kernel's BTF for OBJ (repeatable)\n"
"  --json           list: as JSON\n"
"  --destdir DIR    install: put the default path under DIR (default\n"
"                   $DESTDIR)\n"
"  -h, --help       this text\n");
}

static int archive_create(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "min", required_argument, NULL, 'n' },
		{ 0 }
	};
	const char *out = NULL, *objs[64];
	int c, i, n, nr_objs = 0, ret = 1;
	struct rc_error err = { "" };
	struct bg_archive_writer *w;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'n' && nr_objs < 64)
			objs[nr_objs++] = optarg;
		else
			return archive_usage(stderr), 2;
	}
	n = argc - optind;
	if (!out || n <= 0)
		return archive_usage(stderr), 2;
	w = bg_archive_writer_new();
	if (!w) {
		fprintf(stderr, "relocore archive: out of memory\n");
		return 1;
	}
	/* a kernel at a time: read, minimized, copied into the archive and
	 * freed, so that memory does not grow with the kernels */
	for (i = 0; i < n; i++) {
		char *arg = argv[optind + i], *eq = strchr(arg, '=');
		struct rc_target *tgt;
		struct btf *btf = NULL;

		if (!eq) {
			fprintf(stderr, "relocore archive: expected RELEASE=BTF, got '%s'\n", arg);
			goto out;
		}
		*eq = 0;
		tgt = read_target(eq + 1);
		if (!tgt)
			goto out;
		if (nr_objs) {
			btf = bg_minimize(tgt, objs, nr_objs, &err);
		} else if (!rc_target_check(tgt, &err)) {	/* all of it is written */
			/* libbpf's copy of it: the archive is written with libbpf */
			btf = rc_btf_libbpf(rc_target_types(tgt));
			if (!btf)
				snprintf(err.msg, sizeof(err.msg), "%s", strerror(errno));
		}
		if (btf) {
			fprintf(stderr, "relocore archive: [%d/%d] %s: %u types\n", i + 1, n, arg,
				btf__type_cnt(btf) - 1);
			if (bg_archive_writer_add(w, arg, btf, &err))
				btf = NULL;
		}
		if (nr_objs)
			btf__free(btf);		/* (else the target owns it) */
		rc_target_free(tgt);
		if (!btf) {
			fprintf(stderr, "relocore archive: %s: %s\n", arg, err.msg);
			goto out;
		}
	}
	if (bg_archive_writer_finish(w, out, &err)) {
		fprintf(stderr, "relocore archive: %s\n", err.msg);
		goto out;
	}
	ret = 0;
out:
	bg_archive_writer_free(w);
	return ret;
}

/* relocore archive install ARCHIVE [--destdir DIR] [-o PATH]: check every
 * kernel of ARCHIVE reads back, then copy it (atomically) to PATH, by
 * default DESTDIR + RC_DEFAULT_ARCHIVE. */
static int archive_install(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "destdir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *src, *out = NULL, *destdir = getenv("DESTDIR"), *p;
	struct rc_error err = { "" };
	char dest[4096];
	struct bg_archive *a;
	int c, nr = 0, ret = 1;
	void *data = NULL;
	size_t size;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'd': destdir = optarg; break;
		case 'h': archive_usage(stdout); return 0;
		default: archive_usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "relocore archive install: expected one ARCHIVE\n");
		return archive_usage(stderr), 2;
	}
	src = argv[optind];
	if (out)
		snprintf(dest, sizeof(dest), "%s", out);
	else if (snprintf(dest, sizeof(dest), "%s%s", destdir ? destdir : "",
			  RC_DEFAULT_ARCHIVE) >= (int)sizeof(dest))
		return fprintf(stderr, "relocore archive install: --destdir too long\n"), 1;
	a = bg_archive_open(src, &err);
	if (!a) {
		fprintf(stderr, "relocore archive install: %s\n", err.msg);
		return 1;
	}
	for (p = bg_archive_releases(a); *p; nr++) {
		size_t l = strcspn(p, " ");
		char rel[512];
		struct btf *b;

		snprintf(rel, sizeof(rel), "%.*s", (int)l, p);
		b = bg_archive_get(a, rel, &err);
		if (!b || rc_btf_validate(b, src, &err)) {
			fprintf(stderr, "relocore archive install: %s: kernel %s: %s\n",
				src, rel, err.msg);
			btf__free(b);
			bg_archive_free(a);
			return 1;
		}
		btf__free(b);
		p += l + (p[l] == ' ');
	}
	bg_archive_free(a);
	if (!nr) {
		fprintf(stderr, "relocore archive install: %s holds no kernel\n", src);
		return 1;
	}
	if (rc_make_dirs(dest, false)) {
		fprintf(stderr, "relocore archive install: %s: cannot create its directory: %s\n",
			dest, strerror(errno));
		return 1;
	}
	/* whole or not at all: a reader of the old archive keeps reading it */
	if (rc_file_read(src, &data, &size, &err) || rc_write_file(dest, data, size, &err)) {
		fprintf(stderr, "relocore archive install: %s\n", err.msg);
		goto out;
	}
	fprintf(stderr, "relocore archive install: %s (%d kernel%s) installed as %s\n",
		src, nr, nr == 1 ? "" : "s", dest);
	ret = 0;
out:
	free(data);
	return ret;
}

int cmd_archive(int argc, char **argv)
{
	struct rc_error err = { "" };
	struct bg_archive *a;
	const char *sub = argc > 1 ? argv[1] : "";
	int ret = 1;

	if (!strcmp(sub, "create"))
		return archive_create(argc - 1, argv + 1);
	if (!strcmp(sub, "install"))
		return archive_install(argc - 1, argv + 1);
	if (!strcmp(sub, "-h") || !strcmp(sub, "--help"))
		return archive_usage(stdout), 0;
	if (strcmp(sub, "list") && strcmp(sub, "extract"))
		return archive_usage(stderr), 2;
	if (argc < 3)
		return archive_usage(stderr), 2;
	a = bg_archive_open(argv[2], &err);
	if (!a) {
		fprintf(stderr, "relocore archive: %s\n", err.msg);
		return 1;
	}
	if (!strcmp(sub, "list")) {
		const char *r = bg_archive_releases(a);

		if (argc > 3 && !strcmp(argv[3], "--json")) {
			const char *p = r;

			printf("{\"archive\":");
			cli_json_str(stdout, argv[2]);
			printf(",\"releases\":[");
			while (*p) {
				size_t l = strcspn(p, " ");
				char buf[512];

				snprintf(buf, sizeof(buf), "%.*s", (int)l, p);
				printf("%s", p == r ? "" : ",");
				cli_json_str(stdout, buf);
				p += l + (p[l] == ' ');
			}
			printf("]}\n");
		} else {
			printf("%s\n", r);
		}
		ret = 0;
	} else if (argc == 6 && !strcmp(argv[4], "-o")) {
		struct btf *b = bg_archive_get(a, argv[3], &err);

		ret = !b || bg_write_btf(b, argv[5], &err);
		if (ret)
			fprintf(stderr, "relocore archive: %s\n", err.msg);
		btf__free(b);
	} else {
		archive_usage(stderr);
		ret = 2;
	}
	bg_archive_free(a);
	return ret;
}
