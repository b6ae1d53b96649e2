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

/* Write @size bytes to @path through a temporary file and a rename. */
static int write_file(const char *path, const void *data, size_t size,
		      struct rc_error *err)
{
	size_t plen = strlen(path), done = 0;
	char *tmp = malloc(plen + 16);
	int fd;

	if (!tmp)
		return -ENOMEM;
	snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		free(tmp);
		return -errno;
	}
	while (done < size) {
		ssize_t n = write(fd, (const char *)data + done, size - done);

		if (n <= 0)
			break;
		done += n;
	}
	if (done != size || fchmod(fd, 0644) || close(fd) || rename(tmp, path)) {
		snprintf(err->msg, sizeof(err->msg), "%s: write failed: %s", path,
			 strerror(errno));
		unlink(tmp);
		free(tmp);
		return -EIO;
	}
	free(tmp);
	return 0;
}

/* mkdir -p @dir */
static int mkdirs(const char *dir)
{
	char *p = strdup(dir), *q;
	int ret = 0;

	if (!p)
		return -1;
	for (q = p + 1; *q && !ret; q++)
		if (*q == '/') {
			*q = 0;
			if (mkdir(p, 0755) && errno != EEXIST)
				ret = -1;
			*q = '/';
		}
	if (!ret && mkdir(p, 0755) && errno != EEXIST)
		ret = -1;
	free(p);
	return ret;
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
	size_t n = 0, i, first = 0, last;
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
		if (mkdirs(dir)) {
			fprintf(stderr, "relocore: %s: %s\n", dir, strerror(errno));
			goto out;
		}
		for (i = first; i <= last; i++) {
			if (asprintf(&paths[i], "%s/%s.o", dir, v[i].name) < 0) {
				paths[i] = NULL;
				goto out;
			}
			if (write_file(paths[i], (char *)buf + v[i].offset, v[i].size, &err)) {
				fprintf(stderr, "relocore: %s\n", err.msg);
				/* all or nothing */
				while (i-- > first)
					unlink(paths[i]);
				goto out;
			}
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
out:
	for (i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
	free(v);
	free(buf);
	return ret;
}
