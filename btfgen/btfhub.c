// SPDX-License-Identifier: MIT
/*
 * btfhub.c - BTFHub's per-kernel files: FILE.btf.tar.xz, a tar archive
 * holding one raw BTF file, xz-compressed (an uncompressed tar is read
 * too).  The tar is read as POSIX ustar / GNU tar lay it out: 512-byte
 * headers (name, octal size, checksum, type flag), each member's data
 * padded to 512 bytes, two zero blocks at the end; GNU long names ('L')
 * and pax headers ('x', 'g') are skipped over.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btfgen.h"
#include "relocore_private.h"

#define MAX_COMPRESSED (256u << 20)	/* a BTFHub file is a few MiB */
#define MAX_TAR (1024u << 20)		/* what it may unpack to */
#define TAR_BLOCK 512

static const unsigned char xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

static int read_file(const char *path, unsigned char **buf, size_t *len,
		     struct rc_error *err)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL, *nb;
	size_t cap = 0, n = 0, r;

	if (!f) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		return -errno;
	}
	for (;;) {
		if (n == cap) {
			if (cap >= MAX_COMPRESSED) {
				rc_fmt(err->msg, sizeof(err->msg), "%s: larger than %u MiB",
				       path, MAX_COMPRESSED >> 20);
				goto fail;
			}
			cap = cap ? cap * 2 : 1 << 20;
			nb = realloc(b, cap);
			if (!nb)
				goto nomem;
			b = nb;
		}
		r = fread(b + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: read error", path);
		goto fail;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
nomem:
	rc_fmt(err->msg, sizeof(err->msg), "%s: out of memory", path);
fail:
	fclose(f);
	free(b);
	return -EINVAL;
}

int bg_btfhub_is(const char *path)
{
	unsigned char h[TAR_BLOCK];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(h, 1, sizeof(h), f);
	fclose(f);
	if (n >= sizeof(xz_magic) && !memcmp(h, xz_magic, sizeof(xz_magic)))
		return 1;
	return n == TAR_BLOCK && !memcmp(h + 257, "ustar", 5);
}

/* xz-decompress @in into *@out (at most MAX_TAR bytes). */
static int unxz(const char *path, const unsigned char *in, size_t in_len,
		unsigned char **out, size_t *out_len, struct rc_error *err)
{
	lzma_stream s = LZMA_STREAM_INIT;
	unsigned char *b = NULL, *nb;
	size_t cap = 0;
	lzma_ret r;

	if (lzma_stream_decoder(&s, 1u << 30, LZMA_CONCATENATED) != LZMA_OK) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: cannot start the xz decoder", path);
		return -ENOMEM;
	}
	s.next_in = in;
	s.avail_in = in_len;
	do {
		if (s.avail_out == 0) {
			size_t used = cap - s.avail_out;

			if (cap >= MAX_TAR) {
				rc_fmt(err->msg, sizeof(err->msg),
				       "%s: unpacks to more than %u MiB", path, MAX_TAR >> 20);
				goto fail;
			}
			cap = cap ? cap * 2 : in_len * 4 + TAR_BLOCK;
			if (cap > MAX_TAR)
				cap = MAX_TAR;
			nb = realloc(b, cap);
			if (!nb) {
				rc_fmt(err->msg, sizeof(err->msg), "%s: out of memory", path);
				goto fail;
			}
			b = nb;
			s.next_out = b + used;
			s.avail_out = cap - used;
		}
		r = lzma_code(&s, LZMA_FINISH);
	} while (r == LZMA_OK);
	if (r != LZMA_STREAM_END) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: xz data %s at compressed offset %zu",
		       path, r == LZMA_BUF_ERROR ? "truncated" :
		       r == LZMA_FORMAT_ERROR ? "not in xz format" :
		       r == LZMA_MEMLIMIT_ERROR ? "needs too much memory" : "corrupt",
		       in_len - s.avail_in);
		goto fail;
	}
	*out = b;
	*out_len = cap - s.avail_out;
	lzma_end(&s);
	return 0;
fail:
	lzma_end(&s);
	free(b);
	return -EINVAL;
}

/* An octal tar number field; -1 when it is not one. */
static long long tar_num(const unsigned char *p, size_t n)
{
	long long v = 0;
	size_t i = 0;
	bool digits = false;

	while (i < n && p[i] == ' ')
		i++;
	for (; i < n && p[i] >= '0' && p[i] <= '7'; i++) {
		if (v > (1LL << 40))
			return -1;
		v = v * 8 + (p[i] - '0');
		digits = true;
	}
	if (!digits || (i < n && p[i] != ' ' && p[i] != 0))
		return -1;
	return v;
}

struct btf *bg_btfhub_read(const char *path, struct rc_error *err)
{
	unsigned char *file = NULL, *tar = NULL;
	size_t file_len = 0, len = 0, off = 0, data_off = 0, data_len = 0;
	char name[320] = "", member[320] = "", longname[256] = "";
	int nr_files = 0;
	struct btf *btf = NULL;

	if (read_file(path, &file, &file_len, err))
		return NULL;
	if (file_len >= sizeof(xz_magic) && !memcmp(file, xz_magic, sizeof(xz_magic))) {
		if (unxz(path, file, file_len, &tar, &len, err))
			goto out;
		free(file);
		file = NULL;
	} else {
		tar = file;
		len = file_len;
		file = NULL;
	}
	while (off + TAR_BLOCK <= len) {
		const unsigned char *h = tar + off;
		long long size, sum;
		unsigned int check = 0;
		size_t i;
		char type = h[156];

		for (i = 0; i < TAR_BLOCK && !h[i]; i++)
			;
		if (i == TAR_BLOCK)
			break;		/* the end-of-archive zero blocks */
		for (i = 0; i < TAR_BLOCK; i++)
			check += (i >= 148 && i < 156) ? ' ' : h[i];
		sum = tar_num(h + 148, 8);
		size = tar_num(h + 124, 12);
		if (sum < 0 || sum != check) {
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: not a tar archive: bad header checksum at tar offset %zu",
			       path, off);
			goto out;
		}
		if (size < 0) {
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: tar header at offset %zu: bad size field", path, off);
			goto out;
		}
		if ((size_t)size > len - off - TAR_BLOCK) {
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: tar truncated: member at offset %zu has %lld bytes, %zu left",
			       path, off, size, len - off - TAR_BLOCK);
			goto out;
		}
		if (longname[0]) {
			snprintf(name, sizeof(name), "%s", longname);
			longname[0] = 0;
		} else if (!memcmp(h + 257, "ustar", 5) && h[345]) {
			snprintf(name, sizeof(name), "%.155s/%.100s", (const char *)h + 345,
				 (const char *)h);
		} else {
			snprintf(name, sizeof(name), "%.100s", (const char *)h);
		}
		if (type == 'L') {
			snprintf(longname, sizeof(longname), "%.*s",
				 (int)(size < 255 ? size : 255), (const char *)h + TAR_BLOCK);
		} else if (type == '0' || type == 0 || type == '7') {
			if (nr_files++ == 0) {
				data_off = off + TAR_BLOCK;
				data_len = size;
				snprintf(member, sizeof(member), "%s", name);
			} else {
				rc_fmt(err->msg, sizeof(err->msg),
				       "%s: the tar holds more than one file (%s, %s): expected one raw BTF file",
				       path, member, name);
				goto out;
			}
		}
		/* directories, links, pax headers: nothing to read */
		off += TAR_BLOCK + (size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
	}
	if (!nr_files && off == 0 && len < TAR_BLOCK) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: not a tar archive: %zu bytes, shorter than one tar header", path, len);
		goto out;
	}
	if (!nr_files) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: the tar holds no file (expected one raw BTF file)",
		       path);
		goto out;
	}
	btf = btf__new(tar + data_off, data_len);
	if (!btf) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: %s (%zu bytes at tar offset %zu): not raw BTF (%s)",
		       path, member, data_len, data_off, strerror(errno));
		btf = NULL;
		goto out;
	}
	if (rc_btf_validate(btf, path, err)) {
		btf__free(btf);
		btf = NULL;
	}
out:
	free(file);
	free(tar);
	return btf;
}
