// SPDX-License-Identifier: MIT
/*
 * btf.c - struct rc_btf: a BTF as the engine reads it, in place.
 *
 * A target's BTF is 4-6 MB, ~100k types, and a tool's start reads a few
 * dozen of them.  libbpf's btf__new copies all of it and walks every type
 * before the first can be read; relocore reads the raw data where it lies
 * (a mapped file), and the one walk it makes records each type's offset,
 * checks what the engine relies on (untrusted BTF) and feeds the candidate
 * index.  libbpf's struct btf of the same types is made only when a caller
 * asks for it (rc_btf_libbpf).
 *
 * A view over a libbpf struct btf (rc_btf_wrap: the object's own BTF, a
 * BTF a program built) reads libbpf's memory in the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

const struct btf_type rc_void_type;

uint32_t rc_btf_type_cnt(const struct rc_btf *b)
{
	return b->cnt;
}

const struct btf_type *rc_btf_type_by_id(const struct rc_btf *b, uint32_t id)
{
	const struct btf_type *t = rc_type(b, id);

	return id && t == &rc_void_type ? NULL : t;	/* malformed (checked lazily) */
}

const char *rc_btf_str(const struct rc_btf *b, uint32_t off)
{
	return rc_name(b, off);
}

const struct rc_btf *rc_btf_base(const struct rc_btf *b)
{
	return b->base;
}

int rc_btf_find_by_name_kind(const struct rc_btf *b, const char *name, int kind)
{
	uint32_t id;

	if (kind == BTF_KIND_UNKN || !strcmp(name, "void"))
		return 0;
	for (id = 1; id < b->cnt; id++) {
		const struct btf_type *t = rc_type_raw(b, id);	/* kind, name: bounded */
		const char *n;

		if (btf_kind(t) != kind)
			continue;
		n = rc_name(b, t->name_off);
		if (n && !strcmp(n, name))
			return id;
	}
	return -ENOENT;
}

/*
 * The pointer size: libbpf's rule (the ELF class when parsed from one,
 * else the size of an INT named as a "long"; the base's for split BTF;
 * the host's when nothing says).
 */
static int ptr_size(const struct rc_btf *b)
{
	static const char *const longs[] = {
		"long", "long int", "int long", "unsigned long", "long unsigned",
		"unsigned long int", "unsigned int long", "long unsigned int",
		"long int unsigned", "int unsigned long", "int long unsigned",
	};
	struct rc_btf *m = (struct rc_btf *)b;	/* a cache, not a change */
	uint32_t id, j;

	if (b->ptr_sz)
		return b->ptr_sz > 0 ? b->ptr_sz : (int)sizeof(void *);
	m->ptr_sz = -1;
	if (b->base && ptr_size(b->base) > 0 && b->base->ptr_sz > 0) {
		m->ptr_sz = b->base->ptr_sz;
	} else {
		for (id = 1; id < b->cnt && m->ptr_sz < 0; id++) {
			const struct btf_type *t = rc_type_raw(b, id);	/* kind, size, name */
			const char *n;

			if (!btf_is_int(t) || (t->size != 4 && t->size != 8))
				continue;
			n = rc_name(b, t->name_off);
			for (j = 0; n && j < sizeof(longs) / sizeof(longs[0]); j++)
				if (!strcmp(n, longs[j])) {
					m->ptr_sz = t->size;
					break;
				}
		}
	}
	return b->ptr_sz > 0 ? b->ptr_sz : (int)sizeof(void *);
}

/* libbpf's btf__resolve_size, on relocore's view. */
int64_t rc_btf_resolve_size(const struct rc_btf *b, uint32_t id)
{
	const struct btf_type *t = rc_type(b, id);
	uint32_t nelems = 1;
	int64_t size = -1;
	int i;

	for (i = 0; i < RC_MAX_DEPTH && t && btf_kind(t) != BTF_KIND_UNKN; i++) {
		switch (btf_kind(t)) {
		case BTF_KIND_INT:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_DATASEC:
		case BTF_KIND_FLOAT:
			size = t->size;
			goto done;
		case BTF_KIND_PTR:
			size = ptr_size(b);
			goto done;
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		case BTF_KIND_ARRAY:
			if (nelems && btf_array(t)->nelems > UINT32_MAX / nelems)
				return -E2BIG;
			nelems *= btf_array(t)->nelems;
			id = btf_array(t)->type;
			break;
		default:
			return -EINVAL;
		}
		t = rc_type(b, id);
	}
done:
	if (size < 0)
		return -EINVAL;
	if (nelems && size > UINT32_MAX / nelems)
		return -E2BIG;
	return nelems * size;
}

static void set_err(struct rc_error *err, const char *what, const char *why)
{
	if (err && what)
		rc_fmt(err->msg, sizeof(err->msg), "%s: malformed BTF: %s", what, why);
}

/*
 * A view of raw BTF @data (@size bytes: header, types, strings) over
 * @base, read in place: @data must outlive it.  -EAGAIN when the data is
 * in the other byte order (libbpf converts that: rc_btf_from_raw falls
 * back to it).
 */
static int view_raw(struct rc_btf *b, const void *data, size_t size,
		    const struct rc_btf *base, const char *what, struct rc_error *err)
{
	const unsigned char *d = data;
	struct btf_header hb, *h = &hb;

	memset(b, 0, sizeof(*b));
	if (size < sizeof(*h)) {
		set_err(err, what, "no header");
		return -EINVAL;
	}
	memcpy(h, data, sizeof(*h));
	if (h->magic != BTF_MAGIC) {
		if (h->magic == __builtin_bswap16(BTF_MAGIC))
			return -EAGAIN;
		set_err(err, what, "bad magic");
		return -EINVAL;
	}
	if (h->hdr_len < sizeof(*h) || h->hdr_len > size ||
	    (uint64_t)h->str_off + h->str_len > size - h->hdr_len ||
	    (uint64_t)h->type_off + h->type_len > h->str_off || h->type_off % 4) {
		set_err(err, what, "header: section offsets or lengths out of range");
		return -EINVAL;
	}
	if ((uintptr_t)(d + h->hdr_len + h->type_off) & 3)
		return -EXDEV;	/* records not aligned in memory: copy */
	b->base = base;
	b->start_id = base ? base->cnt : 1;
	b->start_str = base ? base->start_str + base->str_len : 0;
	b->types = d + h->hdr_len + h->type_off;
	b->types_len = h->type_len;
	b->strs = (const char *)d + h->hdr_len + h->str_off;
	b->str_len = h->str_len;
	b->raw = data;
	b->raw_len = size;
	if (b->str_len || !base) {
		if (!b->str_len || b->strs[b->str_len - 1] ||
		    (uint64_t)b->start_str + b->str_len > 0x7fffffffu ||
		    (!base && b->strs[0])) {
			set_err(err, what, "string section not terminated or not starting with \"\"");
			return -EINVAL;
		}
	}
	b->cnt = b->start_id;	/* no type until the first walk indexes them */
	b->big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;	/* host order */
	return 0;
}

/*
 * A view of libbpf's @lib: its types read where libbpf keeps them (one
 * contiguous section, in host byte order), its strings likewise.
 */
static int view_libbpf(struct rc_btf *b, const struct btf *lib,
		       const struct rc_btf *base)
{
	uint32_t n = btf__type_cnt(lib), raw_size, str_len;
	const struct btf_header *h = btf__raw_data(lib, &raw_size);
	const struct btf_type *first, *last;

	memset(b, 0, sizeof(*b));
	if (!h || raw_size < sizeof(*h))
		return -ENOMEM;
	str_len = h->magic == BTF_MAGIC ? h->str_len : __builtin_bswap32(h->str_len);
	b->base = base;
	b->lib = lib;
	b->start_id = base ? base->cnt : 1;
	b->start_str = base ? base->start_str + base->str_len : 0;
	if ((base ? base->cnt : 1) != (btf__base_btf(lib) ? btf__type_cnt(btf__base_btf(lib)) : 1))
		return -EINVAL;
	b->str_len = str_len;
	b->strs = str_len ? btf__str_by_offset(lib, b->start_str) : "";
	if (!b->strs)
		return -EINVAL;
	b->ptr_sz = btf__pointer_size(lib);
	b->big_endian = btf__endianness(lib) == BTF_BIG_ENDIAN;
	if (n > b->start_id) {
		first = btf__type_by_id(lib, b->start_id);
		last = btf__type_by_id(lib, n - 1);
		b->types = (const void *)first;
		b->types_len = (const unsigned char *)last - b->types + rc_btf_rec_size(last);
	}
	/* libbpf's records are indexed as trusted ones are (no checks) */
	if (rc_btf_walk(b, NULL, NULL, 0, false, NULL, NULL))
		return -EINVAL;
	return b->cnt == n ? 0 : -EINVAL;
}

struct rc_btf *rc_btf_wrap(const struct btf *lib)
{
	struct rc_btf *base = NULL, *b = calloc(1, sizeof(*b));
	int ret = -ENOMEM;

	if (b && btf__base_btf(lib)) {
		base = rc_btf_wrap(btf__base_btf(lib));
		if (!base)
			goto fail;
	}
	if (b)
		ret = view_libbpf(b, lib, base);
	if (!ret) {
		b->own_base = base;
		return b;
	}
fail:
	rc_btf_free(base);
	rc_btf_free(b);
	errno = ret < 0 ? -ret : ENOMEM;
	return NULL;
}

struct rc_btf *rc_btf_adopt(struct btf *lib)
{
	struct rc_btf *b = rc_btf_wrap(lib);

	if (b)
		b->lib_own = lib;
	return b;
}

struct btf *rc_btf_new_any_order(const void *data, size_t size)
{
	struct btf_header h;
	struct btf *lib = btf__new(data, size);
	unsigned char *copy;
	uint32_t hdr_len;
	size_t k;
	int saved = errno;

	/* libbpf 1.1 converts the other byte order only under a 24-byte
	 * header; a longer one (clang 21's is 32 bytes) whose extra bytes
	 * are all zero says nothing more (libbpf's own rule for its host's
	 * order): read it with the header cut to 24 bytes, the sections'
	 * offsets being relative to the header's end */
	if (lib || size < sizeof(h))
		return lib;
	memcpy(&h, data, sizeof(h));
	hdr_len = __builtin_bswap32(h.hdr_len);
	if (h.magic != __builtin_bswap16(BTF_MAGIC) || hdr_len <= sizeof(h) || hdr_len > size)
		goto out;
	for (k = sizeof(h); k < hdr_len; k++)
		if (((const unsigned char *)data)[k])
			goto out;
	copy = malloc(size - (hdr_len - sizeof(h)));
	if (!copy)
		return NULL;
	h.hdr_len = __builtin_bswap32((uint32_t)sizeof(h));
	memcpy(copy, &h, sizeof(h));
	memcpy(copy + sizeof(h), (const unsigned char *)data + hdr_len, size - hdr_len);
	lib = btf__new(copy, size - (hdr_len - sizeof(h)));	/* libbpf keeps its own copy */
	saved = errno;
	free(copy);
out:
	errno = saved;
	return lib;
}

/* libbpf's split BTF of raw @data over @base, read from a memfd (libbpf
 * 1.1 exports no btf__new_split); either byte order.  NULL with errno. */
static struct btf *new_split(const void *data, size_t size, struct btf *base)
{
	struct btf *lib;
	char path[64];
	int fd;

	fd = memfd_create("relocore-btf", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		errno = EIO;
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	lib = btf__parse_raw_split(path, base);
	close(fd);
	return lib;
}

/* Split BTF @data of the other byte order over @base (a module's of a
 * big-endian kernel): libbpf converts it. */
static struct btf *split_other_order(const void *data, size_t size, const struct rc_btf *base)
{
	struct btf *lb = rc_btf_libbpf(base);

	return lb ? new_split(data, size, lb) : NULL;
}

struct rc_btf *rc_btf_from_raw(const void *data, size_t size, const struct rc_btf *base,
			       const char *what, struct rc_error *err)
{
	struct rc_btf *b = calloc(1, sizeof(*b));
	int ret;

	if (!b) {
		rc_fmt(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	/* the base's ids must be known first (its checks come with its index) */
	if (base && !base->offs && rc_btf_walk(base, NULL, err, 0, false, NULL, NULL)) {
		if (!err->msg[0])
			rc_fmt(err->msg, sizeof(err->msg), "%s: its base BTF is malformed",
			       what ? what : "BTF");
		free(b);
		return NULL;
	}
	ret = view_raw(b, data, size, base, what, err);
	if (ret == -EXDEV) {	/* an odd header length: read a copy, aligned */
		struct btf_header h;
		unsigned char *copy = malloc(size + 4);
		size_t k;

		memcpy(&h, data, sizeof(h));
		k = (4 - (h.hdr_len + h.type_off) % 4) % 4;
		ret = -ENOMEM;
		if (copy) {
			memcpy(copy + k, data, size);
			ret = view_raw(b, copy + k, size, base, what, err);
		}
		if (!ret)
			b->copy = copy;
		else
			free(copy);
	}
	if (ret == -EAGAIN) {	/* the other byte order: libbpf converts it */
		struct btf *lib = base ? split_other_order(data, size, base) :
				  rc_btf_new_any_order(data, size);

		if (!lib) {
			free(b);
			rc_fmt(err->msg, sizeof(err->msg), "%s: malformed BTF (header, string or type section)",
			       what ? what : "BTF");
			return NULL;
		}
		if (!base) {
			free(b);
			b = rc_btf_adopt(lib);
		} else if (view_libbpf(b, lib, base)) {	/* over the view given */
			free(b);
			b = NULL;
		} else {
			b->lib_own = lib;
			return b;
		}
		if (!b)
			btf__free(lib);
		return b;
	}
	if (ret) {
		if (ret != -EINVAL || !what)
			rc_fmt(err->msg, sizeof(err->msg), "%s: %s", what ? what : "BTF",
			       ret == -EINVAL ? "malformed BTF" : strerror(-ret));
		free(b);
		return NULL;
	}
	return b;
}

void rc_btf_hold(struct rc_btf *b, void *map, size_t map_len, void *copy)
{
	if (b->copy || b->lib_own) {	/* the view reads a copy of its own */
		if (map)
			munmap(map, map_len);
		free(copy);
		return;
	}
	b->map = map;
	b->map_len = map_len;
	b->copy = copy;
}

/* libbpf's struct btf for @b, made on first use (same ids, same strings). */
struct btf *rc_btf_libbpf(const struct rc_btf *b)
{
	struct rc_btf *m = (struct rc_btf *)b;	/* a cache, not a change */
	struct btf *base = NULL, *lib;

	if (b->lib)
		return (struct btf *)b->lib;
	if (!b->raw) {
		errno = EINVAL;
		return NULL;
	}
	if (b->lazy) {	/* libbpf's readers expect every type checked */
		struct rc_error e;

		if (rc_btf_validate_all(b, &e)) {
			errno = EINVAL;
			return NULL;
		}
	}
	if (b->base) {
		base = rc_btf_libbpf(b->base);
		if (!base)
			return NULL;
	}
	if (!base) {
		lib = btf__new(b->raw, b->raw_len);
	} else {
		lib = new_split(b->raw, b->raw_len, base);
	}
	if (!lib)
		return NULL;
	if (b->ptr_sz > 0)
		btf__set_pointer_size(lib, b->ptr_sz);
	m->lib = m->lib_own = lib;
	return lib;
}

void rc_btf_free(struct rc_btf *b)
{
	if (!b)
		return;
	free(b->offs);
	free(b->lazy);
	free(b->what);
	btf__free(b->lib_own);
	if (b->map)
		munmap(b->map, b->map_len);
	free(b->copy);
	rc_btf_free(b->own_base);
	free(b);
}
