// SPDX-License-Identifier: MIT
/*
 * cands.c - candidate target types by essential name.
 *
 * libbpf scans every target type for every local type; relocore indexes
 * the target once (essential-name hash -> bucket of type ids) and looks
 * candidates up in one bucket.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Kinds that can be the root of a relocation (others never are candidates). */
static bool indexable(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_FUNC_PROTO:
		return true;
	default:
		return false;
	}
}

struct collect {
	const struct rc_btf *btf;
	struct rc_name_ent *ent;
	uint32_t cnt, start_id;
};

/* The kinds indexable() accepts, a bit per kind (the walk's filter). */
#define INDEXABLE_KINDS							\
	(1u << BTF_KIND_STRUCT | 1u << BTF_KIND_UNION | 1u << BTF_KIND_ENUM |	\
	 1u << BTF_KIND_ENUM64 | 1u << BTF_KIND_FWD | 1u << BTF_KIND_TYPEDEF |	\
	 1u << BTF_KIND_INT | 1u << BTF_KIND_FLOAT | 1u << BTF_KIND_FUNC_PROTO)

/* The string at @off and how many bytes of its section follow it. */
static inline const char *name_at(const struct rc_btf *b, uint32_t off, size_t *avail)
{
	while (off < b->start_str)
		b = b->base;
	off -= b->start_str;
	if (off >= b->str_len)
		return NULL;
	*avail = b->str_len - off;
	return b->strs + off;
}

/* Called for the named types of INDEXABLE_KINDS only. */
static int collect_one(void *ctx, uint32_t id, const struct btf_type *t)
{
	struct collect *c = ctx;
	const char *name;
	size_t avail = 0;

	if (id < c->start_id)
		return 0;
	name = name_at(c->btf, t->name_off, &avail);
	if (!name || !name[0])
		return 0;
	c->ent[c->cnt].hash = rc_name_key(name, avail);
	c->ent[c->cnt].id = id;
	c->cnt++;
	return 0;
}

/* Index the named types of @btf (its own part) from @start_id on. */
int rc_name_index_build(struct rc_name_index *idx, const struct rc_btf *btf,
			uint32_t start_id, const char *what,
			struct rc_error *err)
{
	uint32_t i, n = rc_btf_type_cnt(btf), nb = 1;
	struct collect c = { btf, NULL, 0, start_id };
	int ret;

	memset(idx, 0, sizeof(*idx));
	idx->btf = btf;
	idx->start_id = start_id;
	if (!btf->offs)	/* not indexed yet (this walk does it): at most this many */
		n = btf->start_id + btf->types_len / sizeof(struct btf_type) + 1;
	if (n <= start_id)
		n = start_id;
	c.ent = malloc(sizeof(*c.ent) * (n - start_id + 1));
	ret = -ENOMEM;
	if (c.ent)
		ret = rc_btf_walk(btf, what, err, INDEXABLE_KINDS, true, collect_one, &c);
	if (!ret) {	/* buckets for the names found (about one in eight types) */
		while (nb < c.cnt / 2 + 1)
			nb <<= 1;
		idx->mask = nb - 1;
		idx->bucket = calloc(nb + 1, sizeof(*idx->bucket));
		idx->ent = malloc(sizeof(*idx->ent) * (c.cnt + 1));
		if (!idx->bucket || !idx->ent)
			ret = -ENOMEM;
	}
	if (ret) {
		free(c.ent);
		rc_name_index_free(idx);
		return ret == -EINVAL ? ret : -ENOMEM;
	}
	/* counting sort by bucket; stable, so type id order is kept */
	for (i = 0; i < c.cnt; i++)
		idx->bucket[(c.ent[i].hash & idx->mask) + 1]++;
	for (i = 1; i <= nb; i++)
		idx->bucket[i] += idx->bucket[i - 1];
	for (i = 0; i < c.cnt; i++)
		idx->ent[idx->bucket[c.ent[i].hash & idx->mask]++] = c.ent[i];
	for (i = nb; i > 0; i--)
		idx->bucket[i] = idx->bucket[i - 1];
	idx->bucket[0] = 0;
	free(c.ent);
	return 0;
}

void rc_name_index_free(struct rc_name_index *idx)
{
	free(idx->ent);
	free(idx->bucket);
	memset(idx, 0, sizeof(*idx));
}

static int cands_push(struct rc_cands *c, const struct rc_btf *btf, uint32_t id)
{
	if (c->len == c->cap) {
		int cap = c->cap ? c->cap * 2 : 4;
		struct rc_cand *p = realloc(c->c, sizeof(*p) * cap);

		if (!p)
			return -ENOMEM;
		c->c = p;
		c->cap = cap;
	}
	c->c[c->len++] = (struct rc_cand){ btf, id };
	return 0;
}

/* Add the candidates of one index, in type id order (as libbpf finds them). */
static int add_cands(const struct rc_name_index *idx, const struct btf_type *lt,
		     const char *lname, size_t llen, struct rc_cands *out)
{
	uint32_t h = rc_name_key_len(lname, llen), b, k;
	int err;

	if (!idx->bucket)
		return 0;
	b = h & idx->mask;
	for (k = idx->bucket[b]; k < idx->bucket[b + 1]; k++) {
		const struct rc_name_ent *e = &idx->ent[k];
		const struct btf_type *t;
		const char *n;

		if (e->hash != h)
			continue;
		/* kind and name only (the name was bounded when indexed): a
		 * candidate is checked when the decision reads it */
		t = rc_type_raw(idx->btf, e->id);
		n = rc_name(idx->btf, t->name_off);

		if (!(btf_kind(t) == btf_kind(lt) ||
		      (btf_is_any_enum(t) && btf_is_any_enum(lt))))
			continue;
		/* the bucket's key is 8 bytes of the name: compare the names
		 * (the cheap test first), then the essential name's length */
		if (strncmp(n, lname, llen) || rc_essential_name_len(n) != llen)
			continue;
		err = cands_push(out, idx->btf, e->id);
		if (err)
			return err;
	}
	return 0;
}

/*
 * A local root of a kind no compiler emits as one (a VAR, a FUNC, a
 * DATASEC: a malformed object) is not in the index: libbpf still looks for
 * types of its kind and name, so scan the types of @idx's BTF for it.
 */
static int scan_cands(const struct rc_name_index *idx, const struct btf_type *lt,
		      const char *lname, size_t llen, struct rc_cands *out)
{
	uint32_t id, n;
	int err;

	if (!idx->btf)
		return 0;
	n = rc_btf_type_cnt(idx->btf);
	for (id = idx->start_id; id < n; id++) {
		const struct btf_type *t = rc_type_raw(idx->btf, id);	/* kind, name */
		const char *name;

		if (btf_kind(t) != btf_kind(lt) || !t->name_off)
			continue;
		name = rc_name(idx->btf, t->name_off);
		if (rc_str_empty(name) || rc_essential_name_len(name) != llen ||
		    strncmp(name, lname, llen))
			continue;
		err = cands_push(out, idx->btf, id);
		if (err)
			return err;
	}
	return 0;
}

static int find_in(const struct rc_name_index *idx, const struct btf_type *lt,
		   const char *lname, size_t llen, struct rc_cands *out)
{
	return indexable(lt) ? add_cands(idx, lt, lname, llen, out) :
			       scan_cands(idx, lt, lname, llen, out);
}

int rc_core_find_cands(const struct rc_btf *local, uint32_t local_id,
		       const struct rc_target *target, struct rc_cands *out)
{
	const struct btf_type *lt = rc_type(local, local_id);
	const char *lname;
	size_t llen;
	int i, err;

	memset(out, 0, sizeof(*out));
	if (!lt)
		return -EINVAL;
	lname = rc_name(local, lt->name_off);
	if (rc_str_empty(lname))
		return -EINVAL;
	llen = rc_essential_name_len(lname);
	err = find_in(&target->bidx, lt, lname, llen, out) ?:
	      find_in(&target->vidx, lt, lname, llen, out);
	/* modules are searched only when vmlinux has no candidate */
	for (i = 0; !err && !out->len && i < target->nr_mods; i++)
		err = find_in(&target->mods[i].idx, lt, lname, llen, out);
	if (err) {
		free(out->c);
		memset(out, 0, sizeof(*out));
	}
	return err;
}
