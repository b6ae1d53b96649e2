// SPDX-License-Identifier: MIT
/*
 * embedded.c - BPF ELF objects inside other files: a libbpf skeleton's
 * binary (the object is a string literal in .rodata), an object linked in
 * with `ld -r -b binary` or an .incbin.
 *
 * An embedded object is an ELF header with e_machine 247 (EM_BPF),
 * 64-bit, of either byte order, anywhere in the file; its extent is what its own
 * headers say: the ELF header, the section header table and every
 * section with file contents.  An object whose headers reach beyond the
 * file is truncated: that is an error naming the file and the offset.
 *
 * Names, as libbpf skeletons name objects (bpftool gen skeleton: the object
 * file's name without ".o", non-alphanumerics as '_': biolatency.bpf.o ->
 * "biolatency_bpf"), taken from, in order:
 *   - a symbol of the host file at the object's first byte
 *     (`ld -r -b binary foo.bpf.o`: _binary_foo_bpf_o_start -> foo_bpf;
 *     an .incbin label as it is);
 *   - the source file of the object's first line_info record
 *     (".../biolatency.bpf.c" -> biolatency_bpf), which clang -g writes;
 *   - its index among the file's embedded objects ("object0").
 * Repeated names get their index appended ("foo_bpf_1").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define EM_BPF_NR 247
#define EHDR_SIZE 64
#define SHDR_SIZE 64
#define MAX_FILE_SIZE (1u << 30)
#define MAX_EMBEDDED 4096

/* @n bytes at @p of the ELF image @elf, in its byte order (EI_DATA:
 * 1 little-endian, 2 big-endian, as clang -target bpfeb and s390x write). */
static uint64_t rdn(const unsigned char *elf, const unsigned char *p, int n)
{
	bool be = elf[5] == 2;
	uint64_t v = 0;
	int k;

	for (k = 0; k < n; k++)
		v |= (uint64_t)p[k] << 8 * (be ? n - 1 - k : k);
	return v;
}
#define rd16(e, p) ((uint16_t)rdn(e, p, 2))
#define rd32(e, p) ((uint32_t)rdn(e, p, 4))
#define rd64(e, p) rdn(e, p, 8)

bool rc_embedded_is_bpf_header(const void *buf, size_t size)
{
	const unsigned char *p = buf;

	return size >= 20 && !memcmp(p, "\x7f" "ELF", 4) &&
	       p[4] == 2 /* ELFCLASS64 */ && (p[5] == 1 || p[5] == 2) /* LSB, MSB */ &&
	       rd16(p, p + 18) == EM_BPF_NR;
}

/* Section header @i of the ELF image @p (@size bytes, headers checked). */
struct shdr {
	uint32_t name, type;
	uint64_t flags, addr, off, size;
	uint32_t link, info;
	uint64_t entsize;
};

static void rd_shdr(const unsigned char *p, uint64_t shoff, uint32_t i,
		    struct shdr *s)
{
	const unsigned char *h = p + shoff + (uint64_t)i * SHDR_SIZE;

	s->name = rd32(p, h);
	s->type = rd32(p, h + 4);
	s->flags = rd64(p, h + 8);
	s->addr = rd64(p, h + 16);
	s->off = rd64(p, h + 24);
	s->size = rd64(p, h + 32);
	s->link = rd32(p, h + 40);
	s->info = rd32(p, h + 44);
	s->entsize = rd64(p, h + 56);
}

/* The extent of the object whose ELF header is at @off; 0 with @err when
 * it is truncated or its headers are impossible. */
static int object_extent(const unsigned char *buf, size_t size, size_t off,
			 const char *file, size_t *extent, struct rc_error *err)
{
	const unsigned char *p = buf + off;
	size_t avail = size - off;
	uint64_t shoff, end, phoff;
	uint16_t shnum, shentsize, phnum, phentsize;
	uint32_t i;

	if (avail < EHDR_SIZE) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: embedded BPF object at offset 0x%zx truncated: its ELF header needs %d bytes, %zu left in the file",
		       file, off, EHDR_SIZE, avail);
		return -EINVAL;
	}
	shoff = rd64(p, p + 0x28);
	shentsize = rd16(p, p + 0x3a);
	shnum = rd16(p, p + 0x3c);
	phoff = rd64(p, p + 0x20);
	phentsize = rd16(p, p + 0x36);
	phnum = rd16(p, p + 0x38);
	if (!shnum || !shoff || shentsize != SHDR_SIZE) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: embedded BPF object at offset 0x%zx: no usable section header table (offset 0x%llx, %u entries of %u bytes)",
		       file, off, (unsigned long long)shoff, shnum, shentsize);
		return -EINVAL;
	}
	end = shoff + (uint64_t)shnum * SHDR_SIZE;
	if (shoff > avail || end > avail) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: embedded BPF object at offset 0x%zx truncated: its section header table (offset 0x%llx, %u entries) ends at 0x%llx, %zu bytes are left in the file",
		       file, off, (unsigned long long)shoff, shnum,
		       (unsigned long long)end, avail);
		return -EINVAL;
	}
	if (phnum) {
		uint64_t pend = phoff + (uint64_t)phnum * phentsize;

		if (phoff > avail || pend > avail) {
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: embedded BPF object at offset 0x%zx truncated: its program headers end at 0x%llx, %zu bytes are left in the file",
			       file, off, (unsigned long long)pend, avail);
			return -EINVAL;
		}
		if (pend > end)
			end = pend;
	}
	if (end < EHDR_SIZE)
		end = EHDR_SIZE;
	for (i = 1; i < shnum; i++) {
		struct shdr s;

		rd_shdr(p, shoff, i, &s);
		if (s.type == 8 /* SHT_NOBITS */ || !s.size)
			continue;
		if (s.off > avail || s.size > avail - s.off) {
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: embedded BPF object at offset 0x%zx truncated: its section %u (offset 0x%llx, %llu bytes) ends beyond the file (%zu bytes left)",
			       file, off, i, (unsigned long long)s.off,
			       (unsigned long long)s.size, avail);
			return -EINVAL;
		}
		if (s.off + s.size > end)
			end = s.off + s.size;
	}
	*extent = end;
	return 0;
}

/* Section @name of the ELF image @p (@size bytes, extent checked). */
static bool find_section(const unsigned char *p, size_t size, const char *name,
			 struct shdr *out)
{
	uint64_t shoff = rd64(p, p + 0x28);
	uint16_t shnum = rd16(p, p + 0x3c), shstrndx = rd16(p, p + 0x3e);
	struct shdr str;
	uint32_t i;

	if (shstrndx >= shnum)
		return false;
	rd_shdr(p, shoff, shstrndx, &str);
	if (str.off > size || str.size > size - str.off)
		return false;
	for (i = 1; i < shnum; i++) {
		rd_shdr(p, shoff, i, out);
		if (out->name >= str.size)
			continue;
		if (!strncmp((const char *)p + str.off + out->name, name,
			     str.size - out->name) &&
		    strnlen((const char *)p + str.off + out->name,
			    str.size - out->name) == strlen(name))
			return out->type != 8 && out->off <= size &&
			       out->size <= size - out->off;
	}
	return false;
}

/* Skeleton-style name of @s (@len bytes): non-alphanumerics become '_'. */
static void sanitize(char *dst, size_t sz, const char *s, size_t len)
{
	size_t i;

	/* a name never reads as an index (--object N): "0x" -> "_0x" */
	if (len && s[0] >= '0' && s[0] <= '9' && sz > 1) {
		*dst++ = '_';
		sz--;
	}
	if (len >= sz)
		len = sz - 1;
	for (i = 0; i < len; i++) {
		char c = s[i];

		dst[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') ? c : '_';
	}
	dst[len] = 0;
}

/* The source file of the object's first line_info record, as a skeleton
 * name: ".../biolatency.bpf.c" -> "biolatency_bpf". */
static bool name_from_line_info(const unsigned char *p, size_t size,
				char *name, size_t sz)
{
	struct shdr btf, ext;
	uint32_t hlen, str_off, str_len, ehlen, li_off, li_len, rec, nr, foff;
	const unsigned char *b, *e, *li;
	const char *s, *base;
	size_t len;

	if (!find_section(p, size, ".BTF", &btf) ||
	    !find_section(p, size, ".BTF.ext", &ext) || btf.size < 24 ||
	    ext.size < 24)
		return false;
	b = p + btf.off;
	e = p + ext.off;
	if (rd16(p, b) != 0xeb9f || rd16(p, e) != 0xeb9f)
		return false;
	hlen = rd32(p, b + 4);
	str_off = rd32(p, b + 16);
	str_len = rd32(p, b + 20);
	if ((uint64_t)hlen + str_off + str_len > btf.size)
		return false;
	ehlen = rd32(p, e + 4);
	li_off = rd32(p, e + 16);
	li_len = rd32(p, e + 20);
	if (ehlen < 24 || (uint64_t)ehlen + li_off + li_len > ext.size ||
	    li_len < 4 + 8 + 16)
		return false;
	li = e + ehlen + li_off;
	rec = rd32(p, li);
	nr = rd32(p, li + 8);
	if (rec < 16 || !nr)
		return false;
	foff = rd32(p, li + 12 + 4);
	if (foff >= str_len)
		return false;
	s = (const char *)b + hlen + str_off + foff;
	len = strnlen(s, str_len - foff);
	if (!len || len == str_len - foff)
		return false;
	base = memrchr(s, '/', len);
	base = base ? base + 1 : s;
	len -= base - s;
	if (len > 2 && !strncmp(base + len - 2, ".c", 2))
		len -= 2;
	if (!len)
		return false;
	sanitize(name, sz, base, len);
	return true;
}

/* A symbol of the host ELF file @buf at file offset @off: the name of an
 * object symbol or label whose address is that byte. */
static bool name_from_host_symbol(const unsigned char *buf, size_t size,
				  size_t off, char *name, size_t sz)
{
	uint64_t shoff;
	uint16_t shnum, shentsize, type;
	uint32_t i, sec = 0;
	uint64_t addr = 0;
	bool best_binary = false, found = false;
	int pass;

	if (size < EHDR_SIZE || memcmp(buf, "\x7f" "ELF", 4) || buf[4] != 2 ||
	    (buf[5] != 1 && buf[5] != 2))
		return false;
	type = rd16(buf, buf + 16);
	shoff = rd64(buf, buf + 0x28);
	shentsize = rd16(buf, buf + 0x3a);
	shnum = rd16(buf, buf + 0x3c);
	if (shentsize != SHDR_SIZE || !shnum || shoff > size ||
	    (uint64_t)shnum * SHDR_SIZE > size - shoff)
		return false;
	/* the section that holds @off */
	for (i = 1; i < shnum; i++) {
		struct shdr s;

		rd_shdr(buf, shoff, i, &s);
		if (s.type == 8 || s.off > off || off - s.off >= s.size)
			continue;
		sec = i;
		addr = (type == 1 /* ET_REL */ ? 0 : s.addr) + (off - s.off);
		break;
	}
	if (!sec)
		return false;
	/* .symtab first, then .dynsym */
	for (pass = 0; pass < 2 && !found; pass++) {
		for (i = 1; i < shnum; i++) {
			struct shdr sym, str;
			uint64_t k, n;

			rd_shdr(buf, shoff, i, &sym);
			if (sym.type != (pass ? 11u : 2u) || sym.entsize != 24 ||
			    sym.link >= shnum || sym.off > size ||
			    sym.size > size - sym.off)
				continue;
			rd_shdr(buf, shoff, sym.link, &str);
			if (str.off > size || str.size > size - str.off)
				continue;
			n = sym.size / 24;
			for (k = 1; k < n; k++) {
				const unsigned char *e = buf + sym.off + k * 24;
				uint32_t noff = rd32(buf, e);
				uint16_t shndx = rd16(buf, e + 6);
				uint64_t value = rd64(buf, e + 8);
				unsigned char st_type = e[4] & 0xf;
				const char *nm;
				size_t len;
				bool binary;

				if (shndx != sec || value != addr ||
				    (st_type != 0 && st_type != 1) ||
				    noff >= str.size)
					continue;
				nm = (const char *)buf + str.off + noff;
				len = strnlen(nm, str.size - noff);
				if (!len || len == str.size - noff)
					continue;
				/* ld -b binary: _binary_<path>_start */
				binary = len > 14 && !strncmp(nm, "_binary_", 8) &&
					 !strcmp(nm + len - 6, "_start");
				if (found && (best_binary || !binary))
					continue;
				if (binary) {
					nm += 8;
					len -= 14;
					if (len > 2 && !strncmp(nm + len - 2, "_o", 2))
						len -= 2;
				}
				sanitize(name, sz, nm, len);
				found = true;
				best_binary = binary;
			}
		}
	}
	return found;
}

static bool name_taken(const struct rc_embedded *v, size_t n, size_t i)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (j != i && !strcmp(v[i].name, v[j].name))
			return true;
	return false;
}

int rc_embedded_find(const void *data, size_t size, const char *file,
		     struct rc_embedded **out, size_t *nr, struct rc_error *err)
{
	const unsigned char *buf = data;
	struct rc_embedded *v = NULL;
	size_t n = 0, pos = 0, i;

	*out = NULL;
	*nr = 0;
	while (pos + 4 <= size) {
		const unsigned char *hit = memmem(buf + pos, size - pos, "\x7f" "ELF", 4);
		size_t off, extent;
		struct rc_embedded *e;

		if (!hit)
			break;
		off = hit - buf;
		if (!rc_embedded_is_bpf_header(hit, size - off)) {
			pos = off + 1;
			continue;
		}
		if (object_extent(buf, size, off, file, &extent, err)) {
			free(v);
			return -EINVAL;
		}
		if (n == MAX_EMBEDDED) {
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: more than %d embedded BPF objects (the next at offset 0x%zx)",
			       file, MAX_EMBEDDED, off);
			free(v);
			return -E2BIG;
		}
		e = realloc(v, sizeof(*v) * (n + 1));
		if (!e) {
			free(v);
			rc_fmt(err->msg, sizeof(err->msg), "%s: out of memory", file);
			return -ENOMEM;
		}
		v = e;
		e = &v[n];
		memset(e, 0, sizeof(*e));
		e->index = n;
		e->offset = off;
		e->size = extent;
		if (off && name_from_host_symbol(buf, size, off, e->name, sizeof(e->name)))
			e->origin = "symbol";
		else if (name_from_line_info(hit, extent, e->name, sizeof(e->name)))
			e->origin = "source";
		else {
			rc_fmt(e->name, sizeof(e->name), "object%zu", n);
			e->origin = "index";
		}
		n++;
		pos = off + extent;
	}
	/* one name, one object: a repeated name gets the index appended */
	for (i = 1; i < n; i++) {
		int tries;

		for (tries = 0; name_taken(v, n, i); tries++) {
			size_t l = strlen(v[i].name);

			if (tries < 3 && l + 24 < sizeof(v[i].name))
				rc_fmt(v[i].name + l, sizeof(v[i].name) - l, "_%zu", i);
			else
				rc_fmt(v[i].name, sizeof(v[i].name),
				       "embedded_%zu_at_0x%zx_%d", i, v[i].offset, tries);
			if (tries > 8)
				break;
		}
	}
	*out = v;
	*nr = n;
	return 0;
}

int rc_file_open(const char *path, struct stat *st, struct rc_error *err)
{
	int fd = open(path, O_RDONLY), e;

	if (fd >= 0 && !fstat(fd, st))
		return fd;
	e = errno;
	rc_fmt(err->msg, sizeof(err->msg), "%s: %s", path, strerror(e));
	if (fd >= 0)
		close(fd);
	return -e;
}

int rc_file_read(const char *path, void **data, size_t *size,
		 struct rc_error *err)
{
	unsigned char *buf;
	struct stat st;
	size_t got = 0;
	int fd;

	*data = NULL;
	*size = 0;
	fd = rc_file_open(path, &st, err);
	if (fd < 0)
		return fd;
	if (!S_ISREG(st.st_mode) || st.st_size > MAX_FILE_SIZE) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: not a regular file of sane size", path);
		close(fd);
		return -EINVAL;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, st.st_size - got);

		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	if (!buf || got != (size_t)st.st_size) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: read failed", path);
		free(buf);
		return -EIO;
	}
	*data = buf;
	*size = got;
	return 0;
}

int rc_file_map(const char *path, void **data, size_t *size, bool *mapped,
		struct rc_error *err)
{
	struct stat st;
	void *p;
	int fd;

	*mapped = false;
	fd = rc_file_open(path, &st, err);
	if (fd < 0)
		return fd;
	if (S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= MAX_FILE_SIZE) {
		/* private: patches stay in this process's copy of a page */
		p = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			close(fd);
			*data = p;
			*size = st.st_size;
			*mapped = true;
			return 0;
		}
	}
	close(fd);
	return rc_file_read(path, data, size, err);
}

void rc_file_unmap(void *data, size_t size, bool mapped)
{
	if (mapped)
		munmap(data, size);
	else
		free(data);
}

int rc_embedded_select(const struct rc_embedded *v, size_t n,
		       const char *select)
{
	size_t i, l;
	char *end;
	unsigned long k;

	if (!select || !*select)
		return n == 1 ? 0 : -1;
	k = strtoul(select, &end, 10);
	if (*select >= '0' && *select <= '9' && !*end)
		return k < n ? (int)k : -1;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, select))
			return i;
	/* "biolatency" for biolatency_bpf, "biolatency_bpf.o" for it too */
	l = strlen(select);
	for (i = 0; i < n; i++) {
		size_t nl = strlen(v[i].name);

		if ((nl == l + 4 && !strncmp(v[i].name, select, l) &&
		     !strcmp(v[i].name + l, "_bpf")) ||
		    (l == nl + 2 && !strncmp(select, v[i].name, nl) &&
		     !strcmp(select + nl, ".o")))
			return i;
	}
	return -1;
}

void rc_embedded_describe(const struct rc_embedded *v, size_t n, char *buf,
			  size_t sz)
{
	size_t i, len = 0;

	buf[0] = 0;
	for (i = 0; i < n && len + 1 < sz; i++) {
		int w = snprintf(buf + len, sz - len, "%s%zu %s (offset 0x%zx, %zu bytes)",
				 i ? "; " : "", i, v[i].name, v[i].offset, v[i].size);

		if (w < 0 || (size_t)w >= sz - len) {
			if (sz > 4)
				strcpy(buf + sz - 4, "...");
			break;
		}
		len += w;
	}
}
