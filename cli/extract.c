// SPDX-License-Identifier: MIT
/*
 * relocore extract BIN [-o DIR] [--object N|NAME] [--list] [--json]
 *
 * Write out the BPF ELF objects embedded in BIN (a libbpf skeleton's
 * binary, ld -r -b binary, .incbin): DIR/NAME.o each, NAME as a skeleton
 * names the object (rc_embedded_find).  Nothing is written unless every
 * object is found whole: a truncated one, or none, is an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "relocore_private.h"	/* rc_out_*: how a file is written */

static void usage(FILE *f)
{
	fprintf(f,
"usage: relocore extract BIN [-o DIR] [--object N|NAME] [--list] [--json]\n"
"\n"
"Write the BPF ELF objects embedded in BIN (a libbpf skeleton's binary, an\n"
"object linked in with `ld -r -b binary` or an .incbin; every ELF header\n"
"with e_machine 247 (EM_BPF), its extent from its own section headers) to\n"
"DIR/NAME.o.  NAME is the skeleton's name of the object: the binary's\n"
"symbol at the object (_binary_foo_bpf_o_start -> foo_bpf), else the\n"
"object's source file (biolatency.bpf.c -> biolatency_bpf), else its index\n"
"(object0).  BIN may be a BPF object itself (one object, index 0).\n"
"Nothing is written when BIN embeds none or a truncated one.\n"
"\n"
"Options:\n"
"  -o, --output DIR   where to write (created if missing; default .)\n"
"  --object N|NAME    only this object (index or name)\n"
"  --list             print the objects, write nothing\n"
"  --json             machine-readable output\n"
"  -h, --help         this text\n");
}

int cmd_extract(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "object", required_argument, NULL, 'O' },
		{ "list", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *dir = ".", *select = NULL, *bin;
	bool json = false, list = false;
	struct rc_error err = { "" };
	struct rc_embedded *v = NULL;
	char **paths = NULL;
	struct rc_out *outs = NULL;
	size_t n = 0, i, first = 0, last, opened = 0;
	int dirfd = -1;
	void *buf = NULL;
	size_t size;
	int c, k, ret = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o': dir = optarg; break;
		case 'O': select = optarg; break;
		case 'l': list = true; break;
		case 'j': json = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "relocore extract: expected exactly one file\n");
		usage(stderr);
		return 2;
	}
	bin = argv[optind];
	if (rc_file_read(bin, &buf, &size, &err) ||
	    rc_embedded_find(buf, size, bin, &v, &n, &err)) {
		fprintf(stderr, "relocore: %s\n", err.msg);
		goto out;
	}
	if (!n) {
		fprintf(stderr,
			"relocore: %s: no BPF ELF object embedded in it (no ELF header with e_machine 247 in its %zu bytes); nothing written\n",
			bin, size);
		goto out;
	}
	last = n - 1;
	if (select) {
		char desc[2048];

		k = rc_embedded_select(v, n, select);
		if (k < 0) {
			rc_embedded_describe(v, n, desc, sizeof(desc));
			fprintf(stderr, "relocore: %s: no embedded BPF object '%s'; it embeds %zu: %s\n",
				bin, select, n, desc);
			goto out;
		}
		first = last = k;
	}
	paths = calloc(n, sizeof(*paths));
	if (!paths)
		goto out;
	if (!list) {
		if (rc_make_dirs(dir, true)) {
			fprintf(stderr, "relocore: %s: %s\n", dir, strerror(errno));
			goto out;
		}
		/* all or nothing: every object written to its temporary first,
		 * then each renamed into place */
		outs = calloc(n, sizeof(*outs));
		if (!outs)
			goto out;
		/* the directory opened once: every object lands in it */
		dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0) {
			fprintf(stderr, "relocore: %s: %s\n", dir, strerror(errno));
			goto out;
		}
		for (i = first; i <= last; i++) {
			if (asprintf(&paths[i], "%s/%s.o", dir, v[i].name) < 0) {
				paths[i] = NULL;
				goto abort;
			}
			if (rc_out_open_in(&outs[i], dirfd, strrchr(paths[i], '/') + 1, paths[i], &err) ||
			    rc_out_write(&outs[i], (char *)buf + v[i].offset, v[i].size, &err)) {
				fprintf(stderr, "relocore: %s; nothing written\n", err.msg);
				goto abort;
			}
			opened = i + 1;
		}
		for (i = first; i <= last; i++)
			if (rc_out_commit(&outs[i], &err)) {
				fprintf(stderr, "relocore: %s\n", err.msg);
				for (i++; i <= last; i++)
					rc_out_abort(&outs[i]);
				goto out;
			}
	}
	if (json) {
		printf("{\"file\":");
		cli_json_str(stdout, bin);
		printf(",\"objects\":[");
		for (i = first; i <= last; i++) {
			printf("%s{\"index\":%zu,\"name\":", i > first ? "," : "", i);
			cli_json_str(stdout, v[i].name);
			printf(",\"name_from\":\"%s\",\"offset\":%zu,\"size\":%zu,\"output\":",
			       v[i].origin, v[i].offset, v[i].size);
			if (paths[i])
				cli_json_str(stdout, paths[i]);
			else
				printf("null");
			printf("}");
		}
		printf("]}\n");
	} else {
		for (i = first; i <= last; i++)
			printf("%zu %s offset 0x%zx size %zu name from %s%s%s\n", i,
			       v[i].name, v[i].offset, v[i].size, v[i].origin,
			       paths[i] ? " -> " : "", paths[i] ? paths[i] : "");
	}
	ret = 0;
	goto out;
abort:
	for (i = first; i < opened; i++)
		rc_out_abort(&outs[i]);
out:
	if (dirfd >= 0)
		close(dirfd);
	free(outs);
	for (i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
	free(v);
	free(buf);
	return ret;
}
