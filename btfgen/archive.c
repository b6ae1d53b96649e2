// SPDX-License-Identifier: MIT
/*
 * archive.c - many kernels' BTF in one file, each type shared between
 * kernels stored once.
 *
 * All kernels' types are appended into one BTF and deduplicated with
 * libbpf's btf__dedup().  Each kernel gets a "root": a FUNC_PROTO whose
 * parameters list that kernel's types in their original order (chained
 * through its return type when there are more than 65535), named by a
 * typedef "__relocore_release__<uname -r>".  Dedup rewrites the roots'
 * references like any other, so after it each root still lists exactly
 * the (now shared) types of its kernel.  Forward declarations are tagged
 * per kernel first (see tag_fwds) and untagged when read back.  Reading a kernel back emits those
 * types, in that order, as a BTF of its own.
 *
 * File: "RCBTFAR1", u32 version (1), u32 flags, u64 raw size, then an
 * xz stream of the raw deduplicated BTF.  Flags: AR_BIG_ENDIAN, the
 * kernels' byte order (s390x: an archive holds kernels of one order, and
 * gives their BTF back in it, as they wrote it).
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lzma.h>

#include "btfgen.h"
#include "relocore_private.h"

#define AR_MAGIC "RCBTFAR1"
#define AR_HDR 24
#define AR_BIG_ENDIAN 1u
#define ROOT_PREFIX "__relocore_release__"
#define MAX_PARAMS 65535
#define MAX_RAW (1u << 30)

struct bg_archive {
	char *path;
	bool big_endian;	/* AR_BIG_ENDIAN */
	struct btf *btf;
	struct rc_btf *types;	/* the same, as the engine reads it */
	char *releases;
	/* bg_archive_get's maps, made on first use and kept zeroed between
	 * gets: old type id -> new id, old string offset -> new offset + 1 */
	uint32_t *tmap, *smap;
	uint32_t str_len;	/* of the archived BTF's string section */
	/* each tagged forward declaration (by type id) and where its untagged
	 * name is among the archive's strings (0: nowhere) */
	struct fwdname { uint32_t id, off; char *name; } *fwd;
	uint32_t nfwd;
	bool fwd_done;
};

/* Add a root listing types [@first, @end) of @btf; returns its id. */
static int add_root(struct btf *btf, uint32_t first, uint32_t end)
{
	int next = 0, id = 0;
	uint32_t chunk_end = end;

	/* build the chain from the last chunk back, so each proto returns
	 * (points to) the next one */
	while (chunk_end > first) {
		uint32_t start = chunk_end - first > MAX_PARAMS ?
				 chunk_end - MAX_PARAMS : first;
		uint32_t i;
		int err;

		id = btf__add_func_proto(btf, next);
		if (id < 0)
			return id;
		for (i = start; i < chunk_end; i++) {
			err = btf__add_func_param(btf, NULL, i);
			if (err)
				return err;
		}
		next = id;
		chunk_end = start;
	}
	return id;
}

/*
 * btf__dedup() takes a forward declaration and a struct of the same name
 * for the same type, so one kernel's "struct foo;" could become another
 * kernel's full struct foo, with all it refers to.  Tagging each kernel's
 * forward declarations with its index keeps them its own.
 */
static int tag_fwds(struct btf *btf, uint32_t first, uint32_t end, int k)
{
	uint32_t i;

	for (i = first; i < end; i++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, i);
		char name[512];
		int off;

		if (!btf_is_fwd(t))
			continue;
		snprintf(name, sizeof(name), "%s" BG_FWD_TAG "%d",
			 btf__name_by_offset(btf, t->name_off), k);
		off = btf__add_str(btf, name);
		if (off < 0)
			return off;
		t = (struct btf_type *)btf__type_by_id(btf, i);
		t->name_off = off;
	}
	return 0;
}

/* The type ids @t refers to, into @refs (at most 2 + its vlen). */
static int type_refs(const struct btf_type *t, uint32_t *refs)
{
	int n = 0, i;

	if (rc_btf_kinds[btf_kind(t)].type_ref != RC_REF_NONE)
		refs[n++] = t->type;
	switch (btf_kind(t)) {
	case BTF_KIND_ARRAY:
		refs[n++] = btf_array(t)->type;
		refs[n++] = btf_array(t)->index_type;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (i = 0; i < btf_vlen(t); i++)
			refs[n++] = btf_members(t)[i].type;
		break;
	case BTF_KIND_FUNC_PROTO:
		for (i = 0; i < btf_vlen(t); i++)
			refs[n++] = btf_params(t)[i].type;
		break;
	case BTF_KIND_DATASEC:
		for (i = 0; i < btf_vlen(t); i++)
			refs[n++] = btf_var_secinfos(t)[i].type;
		break;
	}
	return n;
}

/*
 * Every kernel's list (its root's parameters) closed under references
 * after dedup: what a kernel's types refer to, it lists.  An archive that
 * is not would fail when the kernel is read back; it is refused instead.
 */
static int check_closed(const struct btf *all, struct rc_error *err)
{
	uint32_t n = btf__type_cnt(all), id, *mark = calloc(n, sizeof(*mark)), *refs;
	int ret = 0;

	refs = malloc(sizeof(*refs) * (65535 + 3));
	if (!mark || !refs) {
		free(mark);
		free(refs);
		rc_fmt(err->msg, sizeof(err->msg), "out of memory");
		return -ENOMEM;
	}
	for (id = 1; id < n && !ret; id++) {
		const struct btf_type *t = btf__type_by_id(all, id), *r;
		const char *name = btf__name_by_offset(all, t->name_off);

		if (!btf_is_typedef(t) || !name || strncmp(name, ROOT_PREFIX, strlen(ROOT_PREFIX)))
			continue;
		/* mark the list with @id, then look at each member's refs */
		for (int pass = 0; pass < 2 && !ret; pass++) {
			for (r = btf__type_by_id(all, t->type); r && btf_is_func_proto(r);
			     r = r->type ? btf__type_by_id(all, r->type) : NULL) {
				int i, k, nr;

				for (i = 0; i < btf_vlen(r) && !ret; i++) {
					uint32_t m = btf_params(r)[i].type;

					if (!pass) {
						mark[m] = id;
						continue;
					}
					nr = type_refs(btf__type_by_id(all, m), refs);
					for (k = 0; k < nr; k++) {
						if (refs[k] && mark[refs[k]] != id) {
							rc_fmt(err->msg, sizeof(err->msg),
							       "kernel %s: type [%u] refers to [%u], which it does not list after deduplication; not written",
							       name + strlen(ROOT_PREFIX), m, refs[k]);
							ret = -EINVAL;
							break;
						}
					}
				}
			}
		}
	}
	free(mark);
	free(refs);
	return ret;
}

struct bg_archive_writer {
	struct btf *all;	/* every kernel's types so far, and their roots */
	bool big_endian;	/* the kernels' byte order (the first one's) */
	char **rels;
	int n, cap;
};

struct bg_archive_writer *bg_archive_writer_new(void)
{
	struct bg_archive_writer *w = calloc(1, sizeof(*w));

	if (w && !(w->all = btf__new_empty())) {
		free(w);
		return NULL;
	}
	return w;
}

void bg_archive_writer_free(struct bg_archive_writer *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->n; i++)
		free(w->rels[i]);
	free(w->rels);
	btf__free(w->all);
	free(w);
}

int bg_archive_writer_add(struct bg_archive_writer *w, const char *release,
			  const struct btf *btf, struct rc_error *err)
{
	uint32_t first = btf__type_cnt(w->all), end;
	char name[512], **r;
	int root, td, k;

	if (strchr(release, ' ') || !release[0]) {
		rc_fmt(err->msg, sizeof(err->msg), "bad release name '%s'", release);
		return -EINVAL;
	}
	for (k = 0; k < w->n; k++) {
		if (!strcmp(w->rels[k], release)) {
			rc_fmt(err->msg, sizeof(err->msg),
			       "release %s given twice: an archive finds kernels by release",
			       release);
			return -EINVAL;
		}
	}
	if (w->n && w->big_endian != (btf__endianness(btf) == BTF_BIG_ENDIAN)) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "its BTF is %s-endian, the archive's kernels so far %s-endian: an archive holds kernels of one byte order",
		       w->big_endian ? "little" : "big", w->big_endian ? "big" : "little");
		return -EINVAL;
	}
	w->big_endian = btf__endianness(btf) == BTF_BIG_ENDIAN;
	if (w->n == w->cap) {
		r = realloc(w->rels, sizeof(*r) * (w->cap = w->cap ? w->cap * 2 : 16));
		if (!r)
			goto nomem;
		w->rels = r;
	}
	if (!(w->rels[w->n] = strdup(release)))
		goto nomem;
	if (btf__add_btf(w->all, btf) < 0) {
		free(w->rels[w->n]);
		rc_fmt(err->msg, sizeof(err->msg), "cannot add the BTF of %s", release);
		return -EINVAL;
	}
	end = btf__type_cnt(w->all);
	if (tag_fwds(w->all, first, end, w->n))
		goto nomem;
	root = add_root(w->all, first, end);
	snprintf(name, sizeof(name), ROOT_PREFIX "%s", release);
	td = root < 0 ? root : btf__add_typedef(w->all, name, root);
	if (td < 0) {
		rc_fmt(err->msg, sizeof(err->msg), "cannot index %s", release);
		return -EINVAL;
	}
	w->n++;
	/* Deduplicated once, at the end: libbpf 1.1's btf__dedup run again
	 * over types it deduplicated before merged two kernels' structs
	 * without merging the pointers their members hold (a kernel's list
	 * then named a struct whose pointer it did not list; found by a fleet
	 * of 300 variants), so the whole is kept and deduplicated once. */
	return 0;
nomem:
	rc_fmt(err->msg, sizeof(err->msg), "out of memory");
	return -ENOMEM;
}

int bg_archive_writer_finish(struct bg_archive_writer *w, const char *path,
			     struct rc_error *err)
{
	unsigned char *z = NULL, hdr[AR_HDR] = AR_MAGIC;
	const void *raw;
	size_t zlen, zcap;
	uint32_t raw_sz, v;
	uint64_t sz64;
	struct rc_out o;
	int ret = -EINVAL;

	if (btf__dedup(w->all, NULL)) {
		rc_fmt(err->msg, sizeof(err->msg), "btf__dedup failed: %s", strerror(errno));
		goto out;
	}
	if (check_closed(w->all, err))
		goto out;
	raw = btf__raw_data(w->all, &raw_sz);
	zcap = lzma_stream_buffer_bound(raw_sz);
	z = malloc(zcap);
	zlen = 0;
	if (!raw || !z ||
	    lzma_easy_buffer_encode(9 | LZMA_PRESET_EXTREME, LZMA_CHECK_CRC64, NULL, raw,
				    raw_sz, z, &zlen, zcap) != LZMA_OK) {
		rc_fmt(err->msg, sizeof(err->msg), "compression failed");
		goto out;
	}
	v = 1;
	memcpy(hdr + 8, &v, 4);
	v = w->big_endian ? AR_BIG_ENDIAN : 0;
	memcpy(hdr + 12, &v, 4);
	sz64 = raw_sz;
	memcpy(hdr + 16, &sz64, 8);
	if (rc_out_open(&o, path, err) || rc_out_write(&o, hdr, AR_HDR, err) ||
	    rc_out_write(&o, z, zlen, err) || rc_out_commit(&o, err))
		goto out;	/* the rc_out is closed, the temporary gone */
	ret = 0;
out:
	free(z);
	return ret;
}

int bg_archive_write(const char *path, const char *const *releases,
		     struct btf *const *btfs, int nr, struct rc_error *err)
{
	struct bg_archive_writer *w = bg_archive_writer_new();
	int i, ret = w ? 0 : -ENOMEM;

	if (!w)
		rc_fmt(err->msg, sizeof(err->msg), "out of memory");
	for (i = 0; !ret && i < nr; i++)
		ret = bg_archive_writer_add(w, releases[i], btfs[i], err);
	if (!ret)
		ret = bg_archive_writer_finish(w, path, err);
	bg_archive_writer_free(w);
	return ret;
}

static int list_releases(struct bg_archive *a)
{
	uint32_t i, n = btf__type_cnt(a->btf);
	size_t len = 0, cap = 256;

	a->releases = calloc(1, cap);
	if (!a->releases)
		return -ENOMEM;
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(a->btf, i);
		const char *name = btf__name_by_offset(a->btf, t->name_off);
		size_t l;

		if (!btf_is_typedef(t) || !name || strncmp(name, ROOT_PREFIX, strlen(ROOT_PREFIX)))
			continue;
		name += strlen(ROOT_PREFIX);
		l = strlen(name);
		if (len + l + 2 > cap) {
			char *p = realloc(a->releases, cap = (len + l + 2) * 2);

			if (!p)
				return -ENOMEM;
			a->releases = p;
		}
		len += sprintf(a->releases + len, "%s%s", len ? " " : "", name);
	}
	return 0;
}

struct bg_archive *bg_archive_open(const char *path, struct rc_error *err)
{
	struct bg_archive *a = calloc(1, sizeof(*a));
	unsigned char hdr[AR_HDR], *z = NULL, *raw = NULL;
	uint64_t raw_sz, memlimit = 1ull << 30;
	uint32_t flags;
	size_t in_pos = 0, out_pos = 0;
	long zlen;
	FILE *f = fopen(path, "rb");

	if (!a || !f) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (fread(hdr, 1, AR_HDR, f) != AR_HDR || memcmp(hdr, AR_MAGIC, 8)) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: not a relocore BTF archive (bad header)", path);
		goto fail;
	}
	memcpy(&raw_sz, hdr + 16, 8);
	memcpy(&flags, hdr + 12, 4);
	if (flags & ~AR_BIG_ENDIAN) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: unknown flags 0x%x (a newer relocore's archive?)",
		       path, flags);
		goto fail;
	}
	a->big_endian = flags & AR_BIG_ENDIAN;
	if (hdr[8] != 1 || raw_sz < 24 || raw_sz > MAX_RAW) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: unsupported version %u or absurd size %llu", path, hdr[8],
		       (unsigned long long)raw_sz);
		goto fail;
	}
	if (fseek(f, 0, SEEK_END) || (zlen = ftell(f) - AR_HDR) <= 0 ||
	    fseek(f, AR_HDR, SEEK_SET)) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: truncated (no compressed data)", path);
		goto fail;
	}
	z = malloc(zlen);
	raw = malloc(raw_sz);
	if (!z || !raw || fread(z, 1, zlen, f) != (size_t)zlen) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: read failed", path);
		goto fail;
	}
	if (lzma_stream_buffer_decode(&memlimit, 0, NULL, z, &in_pos, zlen, raw, &out_pos,
				      raw_sz) != LZMA_OK || out_pos != raw_sz) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: corrupt or truncated compressed data (%ld bytes)", path, zlen);
		goto fail;
	}
	a->btf = btf__new(raw, raw_sz);
	if (a->btf)
		memcpy(&a->str_len, raw + offsetof(struct btf_header, str_len), 4);
	if (!a->btf) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: the archived BTF is malformed", path);
		goto fail;
	}
	a->types = rc_btf_wrap(a->btf);
	if (!a->types) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: out of memory", path);
		goto fail;
	}
	if (rc_btf_walk(a->types, path, err, 0, false, NULL, NULL) || list_releases(a))
		goto fail;
	a->path = strdup(path);
	free(z);
	free(raw);
	fclose(f);
	return a;
fail:
	if (f)
		fclose(f);
	free(z);
	free(raw);
	bg_archive_free(a);
	return NULL;
}

void bg_archive_free(struct bg_archive *a)
{
	if (!a)
		return;
	rc_btf_free(a->types);
	btf__free(a->btf);
	free(a->tmap);
	free(a->smap);
	while (a && a->nfwd)
		free(a->fwd[--a->nfwd].name);
	free(a->fwd);
	free(a->releases);
	free(a->path);
	free(a);
}

const char *bg_archive_releases(const struct bg_archive *a)
{
	return a->releases;
}

/* A growing buffer of bytes (or of uint32_t: @n counts bytes). */
struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void *buf_add(struct buf *b, const void *data, size_t len)
{
	if (b->n + len > b->cap) {
		size_t cap = (b->n + len) * 2;
		unsigned char *p = realloc(b->p, cap);

		if (!p)
			return NULL;
		b->p = p;
		b->cap = cap;
	}
	if (data)
		memcpy(b->p + b->n, data, len);
	b->n += len;
	return b->p + b->n - len;
}

/* One get's output: types and strings, and the string offsets it mapped
 * (a->smap entries to zero again). */
struct emit {
	struct bg_archive *a;
	struct buf types, strs, used;
	bool nomem;
};

/* The output's offset of the archive's string at @off: each string once
 * (the archive's strings are deduplicated: one offset, one string). */
static uint32_t emit_str(struct emit *e, uint32_t off)
{
	struct bg_archive *a = e->a;
	const char *str;
	size_t len;

	if (!off || off >= a->str_len)
		return 0;
	if (a->smap[off])
		return a->smap[off] - 1;
	str = rc_name(a->types, off);
	len = strlen(str) + 1;
	if (!buf_add(&e->strs, str, len) || !buf_add(&e->used, &off, sizeof(off))) {
		e->nomem = true;
		return 0;
	}
	a->smap[off] = e->strs.n - len + 1;
	return a->smap[off] - 1;
}

static int fwd_by_name(const void *x, const void *y)
{
	const struct fwdname *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->id > b->id) - (a->id < b->id);
}

static int fwd_by_name_only(const void *x, const void *y)
{
	return strcmp(((const struct fwdname *)x)->name, ((const struct fwdname *)y)->name);
}

static int fwd_by_id(const void *x, const void *y)
{
	const struct fwdname *a = x, *b = y;

	return (a->id > b->id) - (a->id < b->id);
}

/* a->fwd: the archive's tagged forward declarations, each with the offset
 * of its untagged name among the archive's strings, found in one pass
 * over them (once per archive).  0 or -ENOMEM. */
static int find_fwd_names(struct bg_archive *a)
{
	uint32_t n = rc_btf_type_cnt(a->types), id, off, cap = 0;
	const char *base = rc_name(a->types, 0);

	a->fwd_done = true;
	for (id = 1; id < n; id++) {
		const struct btf_type *t = rc_type(a->types, id);
		const char *name = rc_name(a->types, t->name_off), *tag;

		if (!btf_is_fwd(t) || !(tag = strstr(name, BG_FWD_TAG)))
			continue;
		if (a->nfwd == cap) {
			struct fwdname *f = realloc(a->fwd, sizeof(*f) * (cap = cap ? cap * 2 : 256));

			if (!f)
				return -ENOMEM;
			a->fwd = f;
		}
		a->fwd[a->nfwd] = (struct fwdname){ id, 0, strndup(name, tag - name) };
		if (!a->fwd[a->nfwd++].name)
			return -ENOMEM;
	}
	if (!a->nfwd)
		return 0;
	qsort(a->fwd, a->nfwd, sizeof(*a->fwd), fwd_by_name);
	for (off = 1; off < a->str_len; off += strlen(base + off) + 1) {
		struct fwdname key = { 0, 0, (char *)base + off }, *f;

		f = bsearch(&key, a->fwd, a->nfwd, sizeof(*f), fwd_by_name_only);
		while (f && f > a->fwd && !strcmp(f[-1].name, key.name))
			f--;	/* the first of that name */
		for (; f && f < a->fwd + a->nfwd && !strcmp(f->name, key.name); f++)
			if (!f->off)
				f->off = off;
	}
	qsort(a->fwd, a->nfwd, sizeof(*a->fwd), fwd_by_id);
	return 0;
}

/* Forward declaration @id's name without its archive tag (see tag_fwds):
 * the archive's own string of that name when it has one (so that it is
 * shared as btf__add_str shares it), else appended. */
static uint32_t emit_fwd_name(struct emit *e, uint32_t id)
{
	struct bg_archive *a = e->a;
	struct fwdname key = { id, 0, NULL }, *f;
	size_t len;

	if (!a->fwd_done && find_fwd_names(a)) {
		e->nomem = true;
		return 0;
	}
	f = bsearch(&key, a->fwd, a->nfwd, sizeof(*f), fwd_by_id);
	if (!f)
		return 0;
	if (f->off)
		return emit_str(e, f->off);
	len = strlen(f->name) + 1;
	if (!buf_add(&e->strs, f->name, len)) {
		e->nomem = true;
		return 0;
	}
	return e->strs.n - len;
}

/* Type @id of the archive, whole, into e->types: its type ids through
 * a->tmap, its strings through emit_str.  0, or -ENOENT when it refers
 * to a type this kernel does not list. */
static int emit_whole(struct emit *e, uint32_t id)
{
	struct bg_archive *a = e->a;
	const struct btf_type *t = rc_type(a->types, id);
	size_t sz = rc_btf_rec_size(t);
	struct btf_type *nt = buf_add(&e->types, t, sz);
	uint32_t *refs[2] = { NULL, NULL }, i, vlen = btf_vlen(t);
	const char *name = rc_name(a->types, t->name_off), *tag;
	int k;

	if (!nt) {
		e->nomem = true;
		return -ENOMEM;
	}
	tag = btf_is_fwd(t) ? strstr(name, BG_FWD_TAG) : NULL;
	nt->name_off = tag ? emit_fwd_name(e, id) : emit_str(e, t->name_off);
	if (rc_btf_kinds[btf_kind(t)].type_ref != RC_REF_NONE)
		refs[0] = &nt->type;
	switch (btf_kind(t)) {
	case BTF_KIND_ARRAY:
		refs[0] = &btf_array(nt)->type;
		refs[1] = &btf_array(nt)->index_type;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (i = 0; i < vlen; i++) {
			struct btf_member *m = btf_members(nt) + i;

			m->name_off = emit_str(e, m->name_off);
			if (m->type && !(m->type = a->tmap[m->type]))
				return -ENOENT;
		}
		break;
	case BTF_KIND_ENUM:
		for (i = 0; i < vlen; i++)
			btf_enum(nt)[i].name_off = emit_str(e, btf_enum(nt)[i].name_off);
		break;
	case BTF_KIND_ENUM64:
		for (i = 0; i < vlen; i++)
			btf_enum64(nt)[i].name_off = emit_str(e, btf_enum64(nt)[i].name_off);
		break;
	case BTF_KIND_FUNC_PROTO:
		for (i = 0; i < vlen; i++) {
			struct btf_param *p = btf_params(nt) + i;

			p->name_off = emit_str(e, p->name_off);
			if (p->type && !(p->type = a->tmap[p->type]))
				return -ENOENT;
		}
		break;
	case BTF_KIND_DATASEC:
		for (i = 0; i < vlen; i++) {
			struct btf_var_secinfo *v = btf_var_secinfos(nt) + i;

			if (v->type && !(v->type = a->tmap[v->type]))
				return -ENOENT;
		}
		break;
	}
	for (k = 0; k < 2; k++)
		if (refs[k] && *refs[k] && !(*refs[k] = a->tmap[*refs[k]]))
			return -ENOENT;
	return e->nomem ? -ENOMEM : 0;
}

/* Types @order[0..@nr) of the archive, whole and renumbered from 1 in
 * that order (a repeated one once), as a BTF of their own: its records
 * copied with their type ids and string offsets mapped, the raw BTF made
 * here and handed to btf__new.  The same bytes as emitting them one by
 * one through libbpf's btf__add_* (bg_subset_emit), without its string
 * hashing: most of check --all's time per kernel.  NULL with errno. */
static struct btf *emit_kernel(struct bg_archive *a, const uint32_t *order, uint32_t nr)
{
	uint32_t n = rc_btf_type_cnt(a->types), i, k = 0;
	struct emit e = { .a = a };
	struct btf_header h = { .magic = BTF_MAGIC, .version = BTF_VERSION,
				.hdr_len = sizeof(h) };
	struct btf *out = NULL;
	int err = -ENOMEM;

	if (!a->tmap)
		a->tmap = calloc(n, sizeof(*a->tmap));
	if (!a->smap)
		a->smap = calloc(a->str_len ? a->str_len : 1, sizeof(*a->smap));
	if (!a->tmap || !a->smap || !buf_add(&e.strs, "", 1))
		goto out;
	for (i = 0; i < nr; i++)
		if (order[i] && order[i] < n && !a->tmap[order[i]])
			a->tmap[order[i]] = ++k;
	for (i = 0, k = 0; i < nr; i++) {
		if (!order[i] || order[i] >= n || a->tmap[order[i]] != k + 1)
			continue;	/* a repeated one */
		err = emit_whole(&e, order[i]);
		if (err)
			goto out;
		k++;
	}
	h.type_len = e.types.n;
	h.str_off = e.types.n;
	h.str_len = e.strs.n;
	err = -ENOMEM;
	if (!buf_add(&e.types, e.strs.p, e.strs.n) ||
	    !buf_add(&e.types, NULL, sizeof(h)))
		goto out;
	memmove(e.types.p + sizeof(h), e.types.p, e.types.n - sizeof(h));
	memcpy(e.types.p, &h, sizeof(h));
	out = btf__new(e.types.p, e.types.n);
	err = out ? 0 : -errno;
out:
	for (i = 0; i < nr && a->tmap; i++)
		if (order[i] < n)
			a->tmap[order[i]] = 0;
	for (i = 0; i < e.used.n / sizeof(uint32_t); i++)
		a->smap[((uint32_t *)e.used.p)[i]] = 0;
	free(e.types.p);
	free(e.strs.p);
	free(e.used.p);
	errno = -err;
	return out;
}

struct btf *bg_archive_get(struct bg_archive *a, const char *release,
			   struct rc_error *err)
{
	char name[512];
	uint32_t *order = NULL, nr = 0, cap = 0, n = rc_btf_type_cnt(a->types);
	struct btf *out = NULL;
	const struct btf_type *t;
	int id;

	snprintf(name, sizeof(name), ROOT_PREFIX "%s", release);
	id = btf__find_by_name_kind(a->btf, name, BTF_KIND_TYPEDEF);
	if (id <= 0) {
		rc_fmt(err->msg, sizeof(err->msg),
		       "%s: no BTF for kernel %s; the archive holds: %s", a->path, release,
		       a->releases[0] ? a->releases : "(nothing)");
		return NULL;
	}
	/* walk the chain of roots, collecting the kernel's types in order */
	for (t = rc_type(a->types, rc_type(a->types, id)->type); t && btf_is_func_proto(t);
	     t = t->type ? rc_type(a->types, t->type) : NULL) {
		const struct btf_param *p = btf_params(t);
		int i;

		for (i = 0; i < btf_vlen(t); i++) {
			if (nr == cap) {
				uint32_t *o = realloc(order, sizeof(*o) * (cap = cap ? cap * 2 : 1024));

				if (!o)
					goto out;
				order = o;
			}
			if (p[i].type >= n)
				break;
			order[nr++] = p[i].type;
		}
		if (i < btf_vlen(t))
			break;
	}
	out = t ? NULL : emit_kernel(a, order, nr);
	if (out && a->big_endian)	/* given back in its kernel's order */
		btf__set_endianness(out, BTF_BIG_ENDIAN);
	if (!out)
		rc_fmt(err->msg, sizeof(err->msg), "%s: the entry of %s is inconsistent",
		       a->path, release);
out:
	free(order);
	return out;
}

int bg_write_btf(const struct btf *btf, const char *path, struct rc_error *err)
{
	uint32_t sz;
	const void *raw = btf__raw_data(btf, &sz);

	if (!raw) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: out of memory", path);
		return -ENOMEM;
	}
	return rc_write_file(path, raw, sz, err);
}
