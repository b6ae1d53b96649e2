// SPDX-License-Identifier: MIT
/*
 * target.c - the BTF relocations are decided against: vmlinux (a raw BTF
 * file such as /sys/kernel/btf/vmlinux, or an ELF file with .BTF), maybe
 * split over a base, plus module BTFs split over it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/*
 * Raw BTF from @path, read in place: the file is mapped and never copied
 * (a file that cannot be mapped, such as a sysfs one, is read once).
 */
static struct rc_btf *parse_raw(const char *path, const struct rc_btf *base,
				struct rc_error *err)
{
	struct rc_btf *b;
	struct stat st;
	void *map, *copy = NULL;
	size_t len = 0;
	int fd;

	fd = rc_file_open(path, &st, err);
	if (fd < 0)
		return NULL;
	map = st.st_size > 0 && st.st_size <= (1 << 30) ?
	      mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	if (map != MAP_FAILED) {
		len = st.st_size;
	} else {	/* sysfs reports a size but cannot be mapped: read it */
		size_t cap = 1 << 20;
		ssize_t k = 0;

		map = NULL;
		copy = malloc(cap);
		while (copy && (k = read(fd, (char *)copy + len, cap - len)) > 0) {
			len += k;
			if (len == cap) {
				void *p = cap < (1u << 30) ? realloc(copy, cap * 2) : NULL;

				if (!p) {
					free(copy);
					copy = NULL;
					break;
				}
				copy = p;
				cap *= 2;
			}
		}
		if (k < 0) {
			free(copy);
			copy = NULL;
		}
		if (!copy) {
			close(fd);
			rc_fmt(err->msg, sizeof(err->msg), "%s: cannot read it", path);
			return NULL;
		}
	}
	close(fd);
	b = rc_btf_from_raw(map ? map : copy, len, base, path, err);
	if (!b) {
		if (map)
			munmap(map, len);
		free(copy);
		return NULL;
	}
	rc_btf_hold(b, map, len, copy);
	return b;
}

/* Parse @path as raw BTF or as an ELF file's .BTF section. */
static struct rc_btf *parse_btf(const char *path, const struct rc_btf *base,
				struct rc_error *err)
{
	unsigned char magic[4] = { 0 };
	struct btf *btf, *lbase = NULL;
	struct rc_btf *b;
	FILE *f;
	size_t n;

	f = fopen(path, "rb");
	if (!f) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		return NULL;
	}
	n = fread(magic, 1, sizeof(magic), f);
	fclose(f);
	if (n >= 2 && ((magic[0] == 0x9f && magic[1] == 0xeb) ||
		       (magic[0] == 0xeb && magic[1] == 0x9f)))
		return parse_raw(path, base, err);
	if (n != 4 || memcmp(magic, "\177ELF", 4)) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: neither raw BTF (magic 0xeb9f) nor an ELF file", path);
		return NULL;
	}
	/* .BTF of an ELF file: libbpf reads it (and takes the pointer size
	 * from the ELF class) */
	if (base && !(lbase = rc_btf_libbpf(base))) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: its base BTF: %s", path, strerror(errno));
		return NULL;
	}
	btf = lbase ? btf__parse_elf_split(path, lbase) : btf__parse_elf(path, NULL);
	if (!btf) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: malformed BTF (header, string or type section)%s%s", path,
		       errno && errno < 4000 ? ": " : "", errno && errno < 4000 ? strerror(errno) : "");
		return NULL;
	}
	b = rc_btf_adopt(btf);
	if (!b) {
		btf__free(btf);
		rc_fmt(err->msg, sizeof(err->msg), "%s: out of memory", path);
		return NULL;
	}
	if (base && b->base != base) {	/* the view's base is libbpf's: use ours */
		rc_btf_free(b->own_base);
		b->own_base = NULL;
		b->base = base;
	}
	return b;
}

/* What to validate @path's BTF as, NULL when it is trusted: the kernel
 * verified the BTF it exports when it booted.  (Validation happens while
 * the candidate index is built: one pass over the types.) */
static const char *untrusted(const char *path)
{
	return strncmp(path, "/sys/kernel/btf/", 16) ? path : NULL;
}

/* A target of @vmlinux (over its base, if split), indexed; the BTFs are
 * validated in the same pass, as @what and @base_what, unless NULL. */
static struct rc_target *target_new(struct rc_btf *vmlinux,
				    const char *what, const char *base_what,
				    struct rc_error *err)
{
	struct rc_target *t = calloc(1, sizeof(*t));
	int ret = 0;

	if (!t) {
		rc_fmt(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	t->vmlinux = vmlinux;
	/* BTF read raw and not trusted: each type checked when first read (a
	 * base was indexed before its split view was made: checked whole) */
	if (what && vmlinux->raw)
		vmlinux->check_lazily = true;
	if (vmlinux->base)
		ret = rc_name_index_build(&t->bidx, vmlinux->base, 1, base_what, err);
	if (!ret)
		ret = rc_name_index_build(&t->vidx, vmlinux, 1, what, err);
	if (ret) {
		if (ret != -EINVAL)
			rc_fmt(err->msg, sizeof(err->msg), "out of memory");
		else if (!err->msg[0])
			rc_fmt(err->msg, sizeof(err->msg), "%s: malformed BTF", what ? what : "target");
		rc_name_index_free(&t->bidx);
		rc_name_index_free(&t->vidx);
		free(t);
		return NULL;
	}
	return t;
}

struct rc_target *rc_target_open(const char *path, const char *base_path,
				 struct rc_error *err)
{
	struct rc_btf *base = NULL, *btf;
	struct rc_target *t;

	if (base_path) {
		base = parse_btf(base_path, NULL, err);
		if (!base)
			return NULL;
	}
	btf = parse_btf(path, base, err);
	if (!btf) {
		rc_btf_free(base);
		return NULL;
	}
	t = target_new(btf, untrusted(path), base_path ? untrusted(base_path) : NULL, err);
	if (!t) {
		rc_btf_free(btf);
		rc_btf_free(base);
		return NULL;
	}
	t->base = base;
	return t;
}

struct rc_target *rc_target_open_mem(const void *data, size_t size, const char *what,
				     struct rc_error *err)
{
	struct rc_btf *b = rc_btf_from_raw(data, size, NULL, what, err);
	struct rc_target *t = b ? target_new(b, what, NULL, err) : NULL;

	if (!t)
		rc_btf_free(b);
	return t;
}

struct rc_target *rc_target_from_btf(const struct btf *btf)
{
	struct rc_btf *b = rc_btf_wrap(btf);
	struct rc_target *t;
	struct rc_error err;

	t = b ? target_new(b, NULL, NULL, &err) : NULL;
	if (!t)
		rc_btf_free(b);
	return t;
}

struct rc_target *rc_target_adopt(struct btf *btf)
{
	struct rc_btf *b = rc_btf_adopt(btf);
	struct rc_target *t;
	struct rc_error err;

	t = b ? target_new(b, NULL, NULL, &err) : NULL;
	if (!t && b) {
		b->lib_own = NULL;	/* not adopted after all */
		rc_btf_free(b);
	}
	return t;
}

const struct rc_btf *rc_target_types(const struct rc_target *t)
{
	return t->vmlinux;
}

int rc_target_nr_modules(const struct rc_target *t)
{
	return t->nr_mods;
}

const struct rc_btf *rc_target_module(const struct rc_target *t, int i,
				       const char **name)
{
	if (i < 0 || i >= t->nr_mods)
		return NULL;
	if (name)
		*name = t->mods[i].name;
	return t->mods[i].btf;
}

int rc_target_add_module(struct rc_target *t, const char *path,
			 struct rc_error *err)
{
	struct rc_module *m;
	struct rc_btf *btf;
	const char *slash = strrchr(path, '/');
	int ret;

	btf = parse_btf(path, t->vmlinux, err);
	if (!btf)
		return -EINVAL;
	m = realloc(t->mods, sizeof(*m) * (t->nr_mods + 1));
	if (!m) {
		rc_btf_free(btf);
		return -ENOMEM;
	}
	t->mods = m;
	m = &t->mods[t->nr_mods];
	m->btf = btf;
	m->name = strdup(slash ? slash + 1 : path);
	btf->check_lazily = btf->raw && untrusted(path);
	/* only the module's own types are candidates (validated meanwhile) */
	ret = m->name ? rc_name_index_build(&m->idx, btf, t->vmlinux->cnt,
					    untrusted(path), err) : -ENOMEM;
	if (ret) {
		if (ret != -EINVAL)
			rc_fmt(err->msg, sizeof(err->msg), "out of memory");
		free(m->name);
		rc_btf_free(btf);
		return ret;
	}
	t->nr_mods++;
	return 0;
}

int rc_target_check(const struct rc_target *t, struct rc_error *err)
{
	int i;

	if (rc_btf_validate_all(t->vmlinux, err))
		return -EINVAL;
	for (i = 0; i < t->nr_mods; i++)
		if (rc_btf_validate_all(t->mods[i].btf, err))
			return -EINVAL;
	return 0;
}

void rc_target_free(struct rc_target *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->nr_mods; i++) {
		rc_name_index_free(&t->mods[i].idx);
		rc_btf_free(t->mods[i].btf);
		free(t->mods[i].name);
	}
	free(t->mods);
	rc_name_index_free(&t->vidx);
	rc_name_index_free(&t->bidx);
	rc_btf_free(t->vmlinux);
	rc_btf_free(t->base);
	free(t);
}
