// SPDX-License-Identifier: MIT
/*
 * target.c - the BTF relocations are decided against: vmlinux (a raw BTF
 * file such as /sys/kernel/btf/vmlinux, or an ELF file with .BTF), maybe
 * split over a base, plus module BTFs split over it.
 */
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Raw BTF from a file, mapped rather than read: libbpf copies it anyway.
 * (libbpf 1.1 does not export btf__new_split: split BTF is read by it.) */
static struct btf *parse_raw(const char *path, struct btf *base)
{
	struct btf *btf = NULL;
	struct stat st;
	void *map;
	int fd;

	if (base)
		return btf__parse_raw_split(path, base);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size <= 0 || st.st_size > (1 << 30)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)	/* e.g. sysfs files: let libbpf read it */
		return btf__parse_raw(path);
	btf = btf__new(map, st.st_size);
	munmap(map, st.st_size);
	return btf;
}

/* Parse @path as raw BTF or as an ELF file's .BTF section. */
static struct btf *parse_btf(const char *path, struct btf *base,
			     struct rc_error *err)
{
	unsigned char magic[4] = { 0 };
	struct btf *btf;
	FILE *f;
	size_t n;

	f = fopen(path, "rb");
	if (!f) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		return NULL;
	}
	n = fread(magic, 1, sizeof(magic), f);
	fclose(f);
	if (n == 4 && !memcmp(magic, "\177ELF", 4)) {
		btf = base ? btf__parse_elf_split(path, base) : btf__parse_elf(path, NULL);
	} else if (n >= 2 && magic[0] == 0x9f && magic[1] == 0xeb) {
		btf = parse_raw(path, base);
	} else {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: neither raw BTF (magic 0xeb9f) nor an ELF file", path);
		return NULL;
	}
	if (!btf) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: malformed BTF (header, string or type section)%s%s", path,
		       errno && errno < 4000 ? ": " : "", errno && errno < 4000 ? strerror(errno) : "");
		return NULL;
	}
	return btf;
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
static struct rc_target *target_new(struct btf *vmlinux, bool own,
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
	t->own_vmlinux = own;
	if (btf__base_btf(vmlinux))
		ret = rc_name_index_build(&t->bidx, btf__base_btf(vmlinux), 1,
					  base_what, err);
	if (!ret)
		ret = rc_name_index_build(&t->vidx, vmlinux, 1, what, err);
	if (ret) {
		if (ret != -EINVAL)
			rc_fmt(err->msg, sizeof(err->msg), "out of memory");
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
	struct btf *base = NULL, *btf;
	struct rc_target *t;

	if (base_path) {
		base = parse_btf(base_path, NULL, err);
		if (!base)
			return NULL;
	}
	btf = parse_btf(path, base, err);
	if (!btf) {
		btf__free(base);
		return NULL;
	}
	t = target_new(btf, true, untrusted(path),
		       base_path ? untrusted(base_path) : NULL, err);
	if (!t) {
		btf__free(btf);
		btf__free(base);
		return NULL;
	}
	t->base = base;
	return t;
}

struct rc_target *rc_target_from_btf(const struct btf *btf)
{
	struct rc_error err;

	return target_new((struct btf *)btf, false, NULL, NULL, &err);
}

struct rc_target *rc_target_adopt(struct btf *btf)
{
	struct rc_error err;

	return target_new(btf, true, NULL, NULL, &err);
}

const struct btf *rc_target_vmlinux(const struct rc_target *t)
{
	return t->vmlinux;
}

int rc_target_add_module(struct rc_target *t, const char *path,
			 struct rc_error *err)
{
	struct rc_module *m;
	struct btf *btf;
	const char *slash = strrchr(path, '/');
	int ret;

	btf = parse_btf(path, t->vmlinux, err);
	if (!btf)
		return -EINVAL;
	m = realloc(t->mods, sizeof(*m) * (t->nr_mods + 1));
	if (!m) {
		btf__free(btf);
		return -ENOMEM;
	}
	t->mods = m;
	m = &t->mods[t->nr_mods];
	m->btf = btf;
	m->name = strdup(slash ? slash + 1 : path);
	/* only the module's own types are candidates (validated meanwhile) */
	ret = m->name ? rc_name_index_build(&m->idx, btf, btf__type_cnt(t->vmlinux),
					    untrusted(path), err) : -ENOMEM;
	if (ret) {
		if (ret != -EINVAL)
			rc_fmt(err->msg, sizeof(err->msg), "out of memory");
		free(m->name);
		btf__free(btf);
		return ret;
	}
	t->nr_mods++;
	return 0;
}

void rc_target_free(struct rc_target *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->nr_mods; i++) {
		rc_name_index_free(&t->mods[i].idx);
		btf__free(t->mods[i].btf);
		free(t->mods[i].name);
	}
	free(t->mods);
	rc_name_index_free(&t->vidx);
	rc_name_index_free(&t->bidx);
	if (t->own_vmlinux)
		btf__free(t->vmlinux);
	btf__free(t->base);
	free(t);
}
