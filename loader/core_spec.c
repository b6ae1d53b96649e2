// SPDX-License-Identifier: MIT
/*
 * core_spec.c - step 1 of a relocation: parse the access string of a
 * core_relo record into a spec, and print specs as C.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

static const char *const kind_names[RC_RELO_KIND_MAX] = {
	[RC_FIELD_BYTE_OFFSET] = "byte_off",
	[RC_FIELD_BYTE_SIZE] = "byte_sz",
	[RC_FIELD_EXISTS] = "field_exists",
	[RC_FIELD_SIGNED] = "signed",
	[RC_FIELD_LSHIFT_U64] = "lshift_u64",
	[RC_FIELD_RSHIFT_U64] = "rshift_u64",
	[RC_TYPE_ID_LOCAL] = "local_type_id",
	[RC_TYPE_ID_TARGET] = "target_type_id",
	[RC_TYPE_EXISTS] = "type_exists",
	[RC_TYPE_SIZE] = "type_size",
	[RC_ENUMVAL_EXISTS] = "enumval_exists",
	[RC_ENUMVAL_VALUE] = "enumval_value",
	[RC_TYPE_MATCHES] = "type_matches",
};

const char *rc_relo_kind_str(enum rc_relo_kind kind)
{
	if ((unsigned int)kind >= RC_RELO_KIND_MAX)
		return "unknown";
	return kind_names[kind];
}

void rc_fmt(char *buf, size_t sz, const char *fmt, ...)
{
	va_list ap;

	if (!sz)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sz, fmt, ap);
	va_end(ap);
}

bool rc_kind_field_based(enum rc_relo_kind k)
{
	return k <= RC_FIELD_RSHIFT_U64;
}

bool rc_kind_type_based(enum rc_relo_kind k)
{
	return (k >= RC_TYPE_ID_LOCAL && k <= RC_TYPE_SIZE) ||
	       k == RC_TYPE_MATCHES;
}

bool rc_kind_enumval_based(enum rc_relo_kind k)
{
	return k == RC_ENUMVAL_EXISTS || k == RC_ENUMVAL_VALUE;
}

bool rc_str_empty(const char *s)
{
	return !s || !s[0];
}

const struct btf_type *rc_skip_mods_typedefs(const struct rc_btf *btf,
					     uint32_t id, uint32_t *res_id)
{
	const struct btf_type *t = rc_type(btf, id);
	int guard = 0;

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		if (++guard > 4096)	/* a cycle: malformed BTF */
			return NULL;
		id = t->type;
		t = rc_type(btf, id);
	}
	if (res_id)
		*res_id = id;
	return t;
}

/*
 * A flavor separator is "___" between two non-underscore characters:
 * "task_struct___old" has essential name "task_struct".  The last
 * separator wins, as in libbpf.
 */
size_t rc_essential_name_len(const char *name)
{
	size_t len;

	rc_essential_name_hash(name, &len);
	return len;
}

/*
 * The essential name of @name ends at its last separator "___" (after a
 * non-'_', before a character other than '_'), if any.  The exact byte walk
 * runs only from the first "___" on: most names have none.
 */
static size_t essential_len(const char *name)
{
	const char *u = strstr(name, "___");
	size_t j, sep = (size_t)-1;

	if (!u)
		return strlen(name);
	for (j = u - name; name[j]; j++)
		if (name[j] == '_' && j && name[j - 1] != '_' && name[j + 1] == '_' &&
		    name[j + 2] == '_' && name[j + 3] && name[j + 3] != '_')
			sep = j;
	return sep != (size_t)-1 ? sep : j;
}

/* 8 bytes of a name as a little-endian word on any host: the first byte
 * lowest (the word tricks below count on it; and a name's key and hash
 * are then the same whatever the host's byte order). */
static inline uint64_t name_word(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* ... of the first @n (< 8) bytes, zero-padded */
static inline uint64_t name_tail(const char *p, size_t n)
{
	char b[8] = { 0 };

	memcpy(b, p, n);
	return name_word(b);
}

/* The candidate index's key of an essential name (@len bytes of @name):
 * its first 8 bytes, zero-padded, hashed. */
uint32_t rc_name_key_len(const char *name, size_t len)
{
	return rc_key_hash(name_tail(name, len < 8 ? len : 8));
}

/*
 * rc_name_key_len of @name's essential name, from one 8-byte load when
 * @avail (bytes readable from @name) allows: the bytes up to the first NUL
 * are the key unless a flavor separator may start in them (three '_' in a
 * row there, or a '_' in the last byte: the exact rule then decides).
 */
uint32_t rc_name_key(const char *name, size_t avail)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull,
		       low7 = 0x7f7f7f7f7f7f7f7full;
	uint64_t w, z, u, x;

	if (avail < 8)
		return rc_name_key_len(name, essential_len(name));
	w = name_word(name);
	z = (w - ones) & ~w & high;	/* its lowest bit: the first NUL, exactly */
	if (z)
		w &= (z & -z) - 1;	/* the bytes before it */
	x = w ^ (ones * '_');		/* bytes that were '_' are now 0: exactly */
	u = ~(((x & low7) + low7) | x | low7);
	if ((u & u >> 8 & u >> 16) || (u >> 63))
		return rc_name_key_len(name, essential_len(name));
	return rc_key_hash(w);
}

uint32_t rc_essential_name_hash(const char *name, size_t *len)
{
	*len = essential_len(name);
	return rc_name_hash(name, *len);
}

/* 8 bytes at a time (multiply-xorshift), folded to 32 bits. */
uint32_t rc_name_hash(const char *name, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		w = name_word(name + i);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	if (i < len) {
		w = name_tail(name + i, len - i);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	}
	h ^= h >> 29;
	return (uint32_t)(h ^ h >> 32);
}

bool rc_names_match(const struct rc_btf *lbtf, uint32_t loff,
		    const struct rc_btf *tbtf, uint32_t toff)
{
	const char *l = rc_name(lbtf, loff), *t = rc_name(tbtf, toff);
	size_t ll, tl;

	if (rc_str_empty(t))
		return rc_str_empty(l);
	if (!l)
		return false;
	ll = rc_essential_name_len(l);
	tl = rc_essential_name_len(t);
	return ll == tl && strncmp(l, t, ll) == 0;
}

/* A flexible array member?  (internal.h: the matcher asks too.) */
bool rc_is_flex_arr(const struct rc_btf *btf, const struct rc_access *prev,
		    const struct btf_array *arr)
{
	const struct btf_type *t;

	if (!prev->name || arr->nelems > 0)
		return false;
	t = rc_type(btf, prev->type_id);
	return t && prev->idx == (uint32_t)btf_vlen(t) - 1;
}

static int parse_access(const char *s, struct rc_spec *spec, char *err,
			size_t errsz)
{
	if (rc_str_empty(s) || *s == ':') {
		rc_fmt(err, errsz, "empty or malformed access string '%s'",
		       s ? s : "");
		return -EINVAL;
	}
	while (*s) {
		unsigned long v = 0;
		int digits = 0;

		if (*s == ':')
			s++;
		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (*s++ - '0');
			if (v > INT32_MAX) {
				rc_fmt(err, errsz, "access index too large");
				return -EINVAL;
			}
			digits++;
		}
		if (!digits || (*s && *s != ':')) {
			rc_fmt(err, errsz, "access string does not parse at '%s'", s);
			return -EINVAL;
		}
		if (spec->raw_len == RC_MAX_SPEC_LEN) {
			rc_fmt(err, errsz, "access string deeper than %d steps",
			       RC_MAX_SPEC_LEN);
			return -E2BIG;
		}
		spec->raw[spec->raw_len++] = v;
	}
	return 0;
}

int rc_core_parse_spec(const struct rc_btf *btf, const struct rc_relo *relo,
		       const char *access, struct rc_spec *spec, char *err,
		       size_t errsz)
{
	const struct btf_type *t;
	struct rc_access *acc;
	uint32_t id, idx;
	int64_t sz;
	int i, ret;

	memset(spec, 0, sizeof(*spec));
	spec->btf = btf;
	spec->root_type_id = relo->type_id;
	spec->kind = relo->kind;
	if (relo->kind >= RC_RELO_KIND_MAX) {
		rc_fmt(err, errsz, "unknown relocation kind %u", relo->kind);
		return -EOPNOTSUPP;
	}
	if (!rc_type(btf, relo->type_id)) {
		rc_fmt(err, errsz, "type id %u out of range", relo->type_id);
		return -EINVAL;
	}
	ret = parse_access(access, spec, err, errsz);
	if (ret)
		return ret;

	/* type-based relocations have the access string "0" */
	if (rc_kind_type_based(relo->kind)) {
		if (spec->raw_len != 1 || spec->raw[0] != 0 || strcmp(access, "0")) {
			rc_fmt(err, errsz, "type relocation with access '%s' (want \"0\")",
			       access);
			return -EINVAL;
		}
		return 0;
	}

	t = rc_skip_mods_typedefs(btf, relo->type_id, &id);
	if (!t) {
		rc_fmt(err, errsz, "type [%u] does not resolve", relo->type_id);
		return -EINVAL;
	}
	idx = spec->raw[0];
	acc = &spec->steps[0];
	acc->type_id = id;
	acc->idx = idx;
	spec->len = 1;

	if (rc_kind_enumval_based(relo->kind)) {
		const char *name;

		if (!btf_is_any_enum(t) || spec->raw_len > 1 || idx >= btf_vlen(t)) {
			rc_fmt(err, errsz, "enum value access '%s' invalid for [%u]",
			       access, relo->type_id);
			return -EINVAL;
		}
		name = rc_name(btf, btf_is_enum(t) ? btf_enum(t)[idx].name_off :
					  btf_enum64(t)[idx].name_off);
		/* an unnamed enumerator matches an unnamed one, as in libbpf */
		if (!name) {
			rc_fmt(err, errsz, "enumerator %u of [%u] has no name", idx, id);
			return -EINVAL;
		}
		acc->name = name;
		return 0;
	}

	sz = rc_btf_resolve_size(btf, id);
	if (sz < 0) {
		rc_fmt(err, errsz, "size of [%u] does not resolve", id);
		return -EINVAL;
	}
	spec->bit_offset = (uint64_t)idx * sz * 8;
	for (i = 1; i < spec->raw_len; i++) {
		t = rc_skip_mods_typedefs(btf, id, &id);
		if (!t) {
			rc_fmt(err, errsz, "type [%u] does not resolve", id);
			return -EINVAL;
		}
		idx = spec->raw[i];
		acc = &spec->steps[spec->len];
		if (btf_is_composite(t)) {
			const struct btf_member *m;

			if (idx >= btf_vlen(t)) {
				rc_fmt(err, errsz, "member %u of [%u] out of range (%u members)",
				       idx, id, btf_vlen(t));
				return -EINVAL;
			}
			spec->bit_offset += btf_member_bit_offset(t, idx);
			m = btf_members(t) + idx;
			if (m->name_off) {
				const char *name = rc_name(btf, m->name_off);

				if (rc_str_empty(name)) {
					rc_fmt(err, errsz, "member %u of [%u] has a bad name", idx, id);
					return -EINVAL;
				}
				acc->type_id = id;
				acc->idx = idx;
				acc->name = name;
				spec->len++;
			}
			id = m->type;
		} else if (btf_is_array(t)) {
			const struct btf_array *a = btf_array(t);

			t = rc_skip_mods_typedefs(btf, a->type, &id);
			if (!t) {
				rc_fmt(err, errsz, "array element type [%u] does not resolve",
				       a->type);
				return -EINVAL;
			}
			if (!rc_is_flex_arr(btf, acc - 1, a) && idx >= a->nelems) {
				rc_fmt(err, errsz, "array index %u out of bounds [%u]", idx,
				       a->nelems);
				return -EINVAL;
			}
			acc->type_id = id;
			acc->idx = idx;
			acc->name = NULL;
			spec->len++;
			sz = rc_btf_resolve_size(btf, id);
			if (sz < 0) {
				rc_fmt(err, errsz, "size of [%u] does not resolve", id);
				return -EINVAL;
			}
			spec->bit_offset += (uint64_t)idx * sz * 8;
		} else {
			rc_fmt(err, errsz, "access step %d of '%s' enters [%u], a %s",
			       i, access, id, btf_kind(t) == BTF_KIND_INT ? "int" : "non-composite type");
			return -EINVAL;
		}
	}
	return 0;
}

static const char *kind_word(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT: return "struct ";
	case BTF_KIND_UNION: return "union ";
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: return "enum ";
	case BTF_KIND_FWD: return btf_kflag(t) ? "union " : "struct ";
	default: return "";
	}
}

/*
 * C form of a spec: "task_struct.real_parent", "sk_buff.cb[3]",
 * "enum pid_type::PIDTYPE_PID", "struct task_struct" for type relocations.
 * The first step is the "pointer" step: index 0 is implicit, others show
 * as "[n]".  Anonymous members are not shown, as in C.  A spec never
 * crosses a pointer: BPF_CORE_READ(t, a, b) makes one record per hop.
 */
int rc_spec_format(const struct rc_spec *spec, char *buf, size_t sz)
{
	const struct rc_btf *btf = spec->btf;
	const struct btf_type *t = rc_type(btf, spec->root_type_id);
	size_t n = 0;
	int i;

#define OUT(...) do { if (n < sz) n += snprintf(buf + n, sz - n, __VA_ARGS__); } while (0)
	if (!sz)
		return 0;
	buf[0] = 0;
	if (!t)
		return -EINVAL;
	if (rc_kind_type_based(spec->kind)) {
		OUT("%s%s", kind_word(t), rc_str_empty(rc_name(btf, t->name_off)) ?
		    "<anon>" : rc_name(btf, t->name_off));
		return 0;
	}
	if (rc_kind_enumval_based(spec->kind)) {
		OUT("enum %s::%s", rc_name(btf, t->name_off) ?: "<anon>",
		    spec->len ? spec->steps[0].name : "?");
		return 0;
	}
	OUT("%s", rc_str_empty(rc_name(btf, t->name_off)) ? "<anon>" :
	    rc_name(btf, t->name_off));
	if (spec->len && spec->steps[0].idx)
		OUT("[%u]", spec->steps[0].idx);
	for (i = 1; i < spec->len; i++) {
		const struct rc_access *a = &spec->steps[i];

		if (a->name) {
			OUT(".%s", a->name);
		} else {
			OUT("[%u]", a->idx);
		}
	}
#undef OUT
	return 0;
}
