// SPDX-License-Identifier: MIT
/*
 * btf-variant.c - a kernel that could have been: a raw BTF changed the way
 * config options and versions change kernel structs, for a fleet of
 * kernels (bench/fleet.sh).
 *
 *     btf-variant IN.btf OUT.btf SEED COUNT NAMES
 *
 * COUNT structs named in the file NAMES (one name per line: the structs a
 * probe reads) are changed, each one way, chosen by SEED:
 *   add      a member at the start: every other member 8 bytes later
 *            (a config option's field);
 *   remove   a member other than the first (the bytes stay a hole);
 *   rename   a member gets a new name (the field is gone, as when
 *            task_struct's state became __state);
 *   resize   an int member becomes 8 bytes, the members after it 8 bytes
 *            later;
 *   reorder  two adjacent members of one size swap places.
 * Everything else is copied.  Deterministic: the same input, seed, count
 * and names give the same bytes.  Raw little-endian BTF in and out.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

static unsigned char *data;
static size_t size;
static struct btf_header *hdr;
static const unsigned char *types;
static const char *strs;
static uint32_t *off_of;	/* type id -> byte offset of its record in types */
static uint32_t ntypes;
static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return n ? (uint32_t)(rng >> 33) % n : 0;
}

static const struct btf_type *type(uint32_t id)
{
	return id && id < ntypes ? (const struct btf_type *)(types + off_of[id]) : NULL;
}

static size_t rec_size(const struct btf_type *t)
{
	uint32_t vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT: return sizeof(*t) + 4;
	case BTF_KIND_ARRAY: return sizeof(*t) + sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return sizeof(*t) + vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM: return sizeof(*t) + vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO: return sizeof(*t) + vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR: return sizeof(*t) + 4;
	case BTF_KIND_DATASEC: return sizeof(*t) + vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG: return sizeof(*t) + 4;
	case BTF_KIND_ENUM64: return sizeof(*t) + vlen * 12;
	default: return sizeof(*t);
	}
}

/* Bytes of type @id (0 when not known here). */
static uint64_t tsize(uint32_t id, int depth)
{
	const struct btf_type *t = type(id);

	if (!t || depth > 20)
		return 0;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT: case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_FLOAT:
		return t->size;
	case BTF_KIND_PTR:
		return 8;
	case BTF_KIND_TYPEDEF: case BTF_KIND_CONST: case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
		return tsize(t->type, depth + 1);
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = (const void *)(t + 1);

		return a->nelems * tsize(a->type, depth + 1);
	}
	}
	return 0;
}

/* the first INT of @bytes and no encoding beyond signedness */
static uint32_t find_int(uint32_t bytes)
{
	uint32_t id;

	for (id = 1; id < ntypes; id++) {
		const struct btf_type *t = type(id);

		if (BTF_INFO_KIND(t->info) == BTF_KIND_INT && t->size == bytes &&
		    !(*(const uint32_t *)(t + 1) & ~(BTF_INT_SIGNED << 24 | 0xff)))
			return id;
	}
	return 0;
}

/* the output: types, then the input's strings and any added */
static unsigned char *out_t, *out_s;
static size_t tlen, ns, capt, caps;

static void *put(unsigned char **buf, size_t *n, size_t *cap, const void *p, size_t len)
{
	if (*n + len > *cap) {
		*cap = (*n + len) * 2;
		*buf = realloc(*buf, *cap);
		if (!*buf) {
			perror("btf-variant");
			exit(1);
		}
	}
	memcpy(*buf + *n, p, len);
	*n += len;
	return *buf + *n - len;
}

static uint32_t add_str(const char *s)
{
	return (uint32_t)((unsigned char *)put(&out_s, &ns, &caps, s, strlen(s) + 1) - out_s);
}

static uint32_t bitoff(const struct btf_type *t, const struct btf_member *m)
{
	return BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset;
}

static int bitsize(const struct btf_type *t, const struct btf_member *m)
{
	return BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BITFIELD_SIZE(m->offset) : 0;
}

/* @m's bit offset moved by @by bits (its bitfield size, in the top 8 bits
 * with kind_flag, kept: offsets stay far below 2^24) */
static void shift(struct btf_member *m, uint32_t by)
{
	m->offset += by;
}

/* Struct @t (a copy in @buf) changed one way; returns its new record
 * size.  @seed picks the way and where. */
static uint32_t long_id;

static size_t mutate(struct btf_type *t, size_t sz, uint32_t seed_tag)
{
	struct btf_member *m = (struct btf_member *)(t + 1);
	uint32_t vlen = BTF_INFO_VLEN(t->info), i, k;
	char name[300];

	switch (rnd(5)) {
	case 0:	/* add a member at the start */
		memmove(m + 1, m, vlen * sizeof(*m));
		for (i = 1; i <= vlen; i++)
			shift(&m[i], 64);
		snprintf(name, sizeof(name), "rc_variant_%u", seed_tag);
		m[0].name_off = add_str(name) + hdr->str_len;
		m[0].type = long_id;
		m[0].offset = 0;
		t->info = (t->info & ~0xffffu) | (vlen + 1);
		t->size += 8;
		return sz + sizeof(*m);
	case 1:	/* remove one (not the first) */
		k = 1 + rnd(vlen - 1);
		memmove(m + k, m + k + 1, (vlen - k - 1) * sizeof(*m));
		t->info = (t->info & ~0xffffu) | (vlen - 1);
		return sz - sizeof(*m);
	case 2:	/* rename one */
		k = rnd(vlen);
		snprintf(name, sizeof(name), "%s___v%u",
			 m[k].name_off < hdr->str_len ? strs + m[k].name_off : "", seed_tag);
		m[k].name_off = add_str(name) + hdr->str_len;
		return sz;
	case 3:	/* an int grows to 8 bytes, what follows moves */
		for (k = rnd(vlen), i = 0; i < vlen; i++, k = (k + 1) % vlen)
			if (!bitsize(t, &m[k]) && tsize(m[k].type, 0) == 4 &&
			    BTF_INFO_KIND(t->info) == BTF_KIND_STRUCT)
				break;
		if (i == vlen)
			return sz;
		m[k].type = long_id;
		for (i = 0; i < vlen; i++)
			if (bitoff(t, &m[i]) > bitoff(t, &m[k]))
				shift(&m[i], 64);
		t->size += 8;
		return sz;
	default:	/* two adjacent members of one size swap places */
		for (k = rnd(vlen), i = 0; i + 1 < vlen; i++, k = (k + 1) % (vlen - 1)) {
			uint64_t a = tsize(m[k].type, 0), b = tsize(m[k + 1].type, 0);

			if (a && a == b && !bitsize(t, &m[k]) && !bitsize(t, &m[k + 1]) &&
			    bitoff(t, &m[k]) + a * 8 == bitoff(t, &m[k + 1]))
				break;
		}
		if (i + 1 >= vlen)
			return sz;
		{
			uint32_t o = m[k].offset;

			m[k].offset = m[k + 1].offset;
			m[k + 1].offset = o;
		}
		return sz;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv)
{
	FILE *f;
	char **names = NULL, line[300], **pick;
	size_t nnames = 0, cap = 0, p;
	uint32_t id, count, n, *chosen;
	unsigned long seed;

	if (argc != 6) {
		fprintf(stderr, "usage: btf-variant IN.btf OUT.btf SEED COUNT NAMES\n");
		return 2;
	}
	seed = strtoul(argv[3], NULL, 0);
	count = strtoul(argv[4], NULL, 0);
	rng = seed * 2654435761u + 1;
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < sizeof(*hdr) ||
	    fseek(f, 0, SEEK_SET) || !(data = malloc(size)) || fread(data, 1, size, f) != size) {
		perror(argv[1]);
		return 1;
	}
	fclose(f);
	hdr = (struct btf_header *)data;
	if (hdr->magic != BTF_MAGIC || hdr->hdr_len + hdr->str_off + hdr->str_len > size) {
		fprintf(stderr, "%s: not raw little-endian BTF\n", argv[1]);
		return 1;
	}
	types = data + hdr->hdr_len + hdr->type_off;
	strs = (const char *)data + hdr->hdr_len + hdr->str_off;
	for (p = 0, ntypes = 1; p < hdr->type_len; ntypes++)
		p += rec_size((const struct btf_type *)(types + p));
	off_of = calloc(ntypes, sizeof(*off_of));
	for (p = 0, id = 1; id < ntypes; id++) {
		off_of[id] = p;
		p += rec_size(type(id));
	}
	f = fopen(argv[5], "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0])
			continue;
		if (nnames == cap)
			names = realloc(names, sizeof(*names) * (cap = cap ? cap * 2 : 64));
		names[nnames++] = strdup(line);
	}
	if (!f || !nnames) {
		fprintf(stderr, "%s: no struct names\n", argv[5]);
		return 1;
	}
	fclose(f);
	qsort(names, nnames, sizeof(*names), cmp_str);
	/* the structs to change: @count names, drawn by the seed */
	pick = calloc(count ? count : 1, sizeof(*pick));
	for (n = 0; n < count; n++)
		pick[n] = names[rnd(nnames)];
	qsort(pick, count, sizeof(*pick), cmp_str);
	chosen = calloc(ntypes, sizeof(*chosen));
	for (id = 1; id < ntypes; id++) {
		const struct btf_type *t = type(id);
		const char *nm = strs + t->name_off;

		if (BTF_INFO_KIND(t->info) == BTF_KIND_STRUCT && BTF_INFO_VLEN(t->info) >= 2 &&
		    bsearch(&nm, pick, count, sizeof(*pick), cmp_str))
			chosen[id] = 1;
	}
	long_id = find_int(8);
	for (id = 1; id < ntypes; id++) {
		const struct btf_type *t = type(id);
		size_t sz = rec_size(t);
		struct btf_type *c;

		if (!chosen[id] || !long_id) {
			put(&out_t, &tlen, &capt, t, sz);
			continue;
		}
		/* a copy with room for one more member, changed */
		c = calloc(1, sz + sizeof(struct btf_member));
		memcpy(c, t, sz);
		sz = mutate(c, sz, (uint32_t)seed);
		put(&out_t, &tlen, &capt, c, sz);
		free(c);
	}
	{
		struct btf_header h = *hdr;

		h.hdr_len = sizeof(h);
		h.type_off = 0;
		h.type_len = tlen;
		h.str_off = tlen;
		h.str_len = hdr->str_len + ns;
		f = fopen(argv[2], "wb");
		if (!f || fwrite(&h, sizeof(h), 1, f) != 1 ||
		    fwrite(out_t, 1, tlen, f) != tlen ||
		    fwrite(strs, 1, hdr->str_len, f) != hdr->str_len ||
		    (ns && fwrite(out_s, 1, ns, f) != ns) || fclose(f)) {
			perror(argv[2]);
			return 1;
		}
	}
	return 0;
}
