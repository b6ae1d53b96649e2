// SPDX-License-Identifier: MIT
/*
 * btfgen_cmd.c - relocore btfgen and relocore archive.
 */
#include <bpf/btf.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "btfgen.h"
#include "cli.h"

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
"every object it embeds counts.\n");
}

static struct rc_target *read_target(const char *path)
{
	struct rc_error err = { "" };
	struct rc_target *t = rc_target_open(path, NULL, &err);

	if (!t)
		fprintf(stderr, "relocore: %s\n", err.msg);
	return t;
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
	struct rc_error err = { "" };
	struct rc_target *ft;
	struct btf *mb;
	int c, ret;

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
	ft = read_target(full);
	if (!ft)
		return 1;
	mb = bg_minimize(ft, (const char *const *)argv + optind, argc - optind, &err);
	ret = !mb || bg_write_btf(mb, out, &err);
	if (ret)
		fprintf(stderr, "relocore btfgen: %s\n", err.msg);
	else
		fprintf(stderr, "relocore btfgen: %s: %u of %u types kept\n", out,
			btf__type_cnt(mb) - 1, btf__type_cnt(rc_target_vmlinux(ft)) - 1);
	btf__free(mb);
	rc_target_free(ft);
	return ret;
}

static void archive_usage(FILE *f)
{
	fprintf(f,
"usage: relocore archive create -o ARCHIVE [--min OBJ]... RELEASE=BTF...\n"
"       relocore archive list ARCHIVE [--json]\n"
"       relocore archive extract ARCHIVE RELEASE -o OUT.btf\n"
"\n"
"An archive holds the BTF of many kernels, each type shared between them\n"
"stored once, looked up by release (uname -r).  With --min, each kernel's\n"
"BTF is first minimized for the objects (as relocore btfgen).  relocore\n"
"explain/reloc/run take --archive ARCHIVE [--release REL], and use an\n"
"archive by default on kernels without /sys/kernel/btf/vmlinux.\n");
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
	const char **rels;
	struct btf **btfs;
	struct rc_target **tgts;

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
	rels = calloc(n, sizeof(*rels));
	btfs = calloc(n, sizeof(*btfs));
	tgts = calloc(n, sizeof(*tgts));
	if (!rels || !btfs || !tgts)
		goto out;
	for (i = 0; i < n; i++) {
		char *arg = argv[optind + i], *eq = strchr(arg, '=');

		if (!eq) {
			fprintf(stderr, "relocore archive: expected RELEASE=BTF, got '%s'\n", arg);
			goto out;
		}
		*eq = 0;
		rels[i] = arg;
		tgts[i] = read_target(eq + 1);
		if (!tgts[i])
			goto out;
		if (nr_objs) {
			btfs[i] = bg_minimize(tgts[i], objs, nr_objs, &err);
			rc_target_free(tgts[i]);
			tgts[i] = NULL;
			if (!btfs[i]) {
				fprintf(stderr, "relocore archive: %s: %s\n", rels[i], err.msg);
				goto out;
			}
		} else {
			btfs[i] = (struct btf *)rc_target_vmlinux(tgts[i]);
		}
		fprintf(stderr, "relocore archive: %s: %u types\n", rels[i],
			btf__type_cnt(btfs[i]) - 1);
	}
	if (bg_archive_write(out, rels, btfs, n, &err)) {
		fprintf(stderr, "relocore archive: %s\n", err.msg);
		goto out;
	}
	ret = 0;
out:
	for (i = 0; btfs && tgts && i < n; i++) {
		if (tgts[i])
			rc_target_free(tgts[i]);	/* owns btfs[i] */
		else
			btf__free(btfs[i]);
	}
	free(btfs);
	free(tgts);
	free(rels);
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
