// SPDX-License-Identifier: MIT
/*
 * kconfig.c - bake an object's .kconfig externs for an offline target.
 *
 * libbpf fills `extern T NAME __kconfig;` variables (and the relocore
 * plugin's __bpf_* globals, which become exactly those) at load time, for
 * the RUNNING kernel.  Baking does it ahead of time, for a named target:
 * the externs become ordinary read-only globals of a new data section
 * ".rodata.kconfig" that holds their values.  libbpf loads that section as
 * a frozen read-only map, so the verifier still sees constants and prunes
 * the dead branches - decided now by the baked values.
 *
 * The rewrite, all in the ELF (elf_write.c's rc_elf_rewrite; libelf
 * re-lays out the file):
 *   - a section .rodata.kconfig (SHT_PROGBITS, SHF_ALLOC) with the values,
 *     laid out in DATASEC order, each at its type's alignment;
 *   - each extern's symbol: defined in that section (STT_OBJECT, value =
 *     offset, size), binding kept, so the R_BPF_64_64 relocations on the
 *     ld_imm64 instructions now address data;
 *   - .BTF: DATASEC ".kconfig" renamed ".rodata.kconfig" with its size and
 *     offsets; its VARs' linkage extern -> global.  Type ids are unchanged
 *     (one string is appended), so .BTF.ext stays valid.
 * Values follow libbpf's rules (see rc_object_bake_kconfig() in
 * relocore.h).  rc_kconfig_read reads a config file, gzip-compressed
 * (/proc/config.gz) or not.
 */
#include <ctype.h>
#include <errno.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "internal.h"

#define KCONFIG_SEC ".kconfig"
#define BAKED_SEC ".rodata.kconfig"

enum kcfg_type { KCFG_UNKNOWN, KCFG_BOOL, KCFG_CHAR, KCFG_TRISTATE, KCFG_INT, KCFG_CHAR_ARR };

/* One .kconfig extern: its VAR, its value's type, size and place. */
struct kcfg_ext {
	const char *name;
	uint32_t var_id, secinfo_idx;
	enum kcfg_type type;
	bool is_signed, is_weak, set;
	uint32_t size, align, off;
	int sym;		/* ELF symbol index */
};

struct bake {
	const struct rc_object *obj;
	const struct btf *btf;
	const struct rc_btf *types;	/* the same, as the engine reads it */
	const struct rc_btf *target;
	const struct rc_kconfig *kc;
	struct rc_error *err;
	struct kcfg_ext *ext;
	int nr_ext;
	uint32_t sec_id;	/* the DATASEC ".kconfig" */
	unsigned char *data;	/* the new section's bytes */
	uint32_t data_size;
};

static int bfail(struct bake *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bfail(struct bake *b, const char *fmt, ...)
{
	char tmp[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	rc_fmt(b->err->msg, sizeof(b->err->msg), "%s: .kconfig: %s",
	       rc_object_name(b->obj), tmp);
	return -EINVAL;
}

int rc_kernel_version(const char *release, uint32_t *version)
{
	unsigned int a, b, c;

	/* libbpf: "%u.%u.%u" of uname -r, the patch level capped at 255 */
	if (!release || sscanf(release, "%u.%u.%u", &a, &b, &c) != 3 ||
	    a > 255 || b > 255)
		return -EINVAL;
	*version = (a << 16) + (b << 8) + (c > 255 ? 255 : c);
	return 0;
}

/*
 * The kcfg type of BTF type @id (libbpf's classification), with its size
 * and alignment.  Computed here, not with btf__resolve_size() and
 * btf__align_of(): those do not stop on an array that contains itself.
 */
static enum kcfg_type kcfg_type(const struct rc_btf *btf, uint32_t id,
				bool *is_signed, uint32_t *size, uint32_t *align)
{
	const struct btf_type *t = rc_skip_mods_typedefs(btf, id, &id), *el;
	const char *name;

	if (!t)
		return KCFG_UNKNOWN;
	*size = *align = t->size;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		int enc = btf_int_encoding(t);

		if (enc & BTF_INT_BOOL)
			return t->size == 1 ? KCFG_BOOL : KCFG_UNKNOWN;
		*is_signed = enc & BTF_INT_SIGNED;
		if (t->size == 1)
			return KCFG_CHAR;
		if (t->size < 1 || t->size > 8 || (t->size & (t->size - 1)))
			return KCFG_UNKNOWN;
		return KCFG_INT;
	}
	case BTF_KIND_ENUM:
		name = rc_name(btf, t->name_off);
		if (t->size != 4 || !name || strcmp(name, "libbpf_tristate"))
			return KCFG_UNKNOWN;
		return KCFG_TRISTATE;
	case BTF_KIND_ARRAY:
		/* of chars (1-byte, not bool), of a sane length */
		el = rc_skip_mods_typedefs(btf, btf_array(t)->type, NULL);
		if (!btf_array(t)->nelems || btf_array(t)->nelems > (1u << 16) ||
		    !el || !btf_is_int(el) || el->size != 1 ||
		    (btf_int_encoding(el) & BTF_INT_BOOL))
			return KCFG_UNKNOWN;
		*size = btf_array(t)->nelems;
		*align = 1;
		return KCFG_CHAR_ARR;
	default:
		return KCFG_UNKNOWN;
	}
}

/* Can libbpf fill a .kconfig extern of BTF type @id (bool, char, an int
 * of 1, 2, 4 or 8 bytes, enum libbpf_tristate, char[N])?  libbpf refuses
 * to open an object with one of any other type. */
bool rc_kconfig_type_ok(const struct rc_btf *btf, uint32_t id)
{
	uint32_t size, align;
	bool is_signed;

	return kcfg_type(btf, id, &is_signed, &size, &align) != KCFG_UNKNOWN;
}

struct kcfg_slot {
	const char *name;
	uint32_t size, align;
};

/* libbpf's order of its .kconfig map: alignment descending, then size
 * ascending, then name */
static int kcfg_slot_cmp(const void *pa, const void *pb)
{
	const struct kcfg_slot *a = pa, *b = pb;

	if (a->align != b->align)
		return a->align > b->align ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The size of the map libbpf makes of @btf's .kconfig externs (the VARs of
 * its DATASEC .kconfig, laid out in libbpf's order, each at its type's
 * alignment): 0 without them, -1 for one libbpf cannot fill. */
int64_t rc_kconfig_map_size(const struct rc_btf *btf)
{
	const struct btf_var_secinfo *vs;
	const struct btf_type *ds;
	struct kcfg_slot *v;
	int id, i, n;
	uint64_t off = 0;

	id = rc_btf_find_by_name_kind(btf, ".kconfig", BTF_KIND_DATASEC);
	if (id <= 0 || !(ds = rc_type(btf, id)) || !(n = btf_vlen(ds)))
		return 0;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -1;
	vs = btf_var_secinfos(ds);
	for (i = 0; i < n; i++, vs++) {
		const struct btf_type *var = rc_type(btf, vs->type);
		bool is_signed;

		v[i].name = var && btf_is_var(var) ? rc_name(btf, var->name_off) : NULL;
		if (!v[i].name ||
		    kcfg_type(btf, var->type, &is_signed, &v[i].size, &v[i].align) == KCFG_UNKNOWN ||
		    !v[i].align) {
			free(v);
			return -1;
		}
	}
	qsort(v, n, sizeof(*v), kcfg_slot_cmp);
	for (i = 0; i < n; i++)
		off = (off + v[i].align - 1) / v[i].align * v[i].align + v[i].size;
	free(v);
	return (int64_t)off;
}

static void *ext_ptr(struct bake *b, const struct kcfg_ext *e)
{
	return b->data + e->off;
}

/* A tristate-like value 'y', 'm' or 'n'. */
/* @v into @size bytes at @p in the object's byte order. */
static void put_num(const struct bake *b, void *p, uint32_t size, uint64_t v)
{
	bool be = rc_object_big_endian(b->obj);
	uint32_t k;

	for (k = 0; k < size; k++)
		((unsigned char *)p)[k] = (unsigned char)(v >> 8 * (be ? size - 1 - k : k));
}

static int set_tri(struct bake *b, struct kcfg_ext *e, char v)
{
	switch (e->type) {
	case KCFG_BOOL:
		if (v == 'm')
			return bfail(b, "%s: value 'm' for a bool", e->name);
		*(uint8_t *)ext_ptr(b, e) = v == 'y';
		break;
	case KCFG_TRISTATE: {
		uint32_t t = v == 'y' ? 1 : v == 'm' ? 2 : 0;

		put_num(b, ext_ptr(b, e), 4, t);
		break;
	}
	case KCFG_CHAR:
		*(char *)ext_ptr(b, e) = v;
		break;
	default:
		return bfail(b, "%s: value '%c' needs a bool, tristate or char type",
			     e->name, v);
	}
	e->set = true;
	return 0;
}

static int set_num(struct bake *b, struct kcfg_ext *e, uint64_t v)
{
	void *p = ext_ptr(b, e);

	if (e->type != KCFG_INT && e->type != KCFG_CHAR && e->type != KCFG_BOOL)
		return bfail(b, "%s: value %llu needs an integer, char or bool type",
			     e->name, (unsigned long long)v);
	if (e->type == KCFG_BOOL && v > 1)
		return bfail(b, "%s: value %llu is not a bool", e->name,
			     (unsigned long long)v);
	if (e->type != KCFG_BOOL && e->size < 8) {
		int bits = e->size * 8;
		bool ok = e->is_signed ?
			(int64_t)v >= -(1LL << (bits - 1)) && (int64_t)v < (1LL << (bits - 1)) :
			v < (1ULL << bits);

		if (!ok)
			return bfail(b, "%s: value %llu does not fit %u byte(s)",
				     e->name, (unsigned long long)v, e->size);
	}
	put_num(b, p, e->size < 8 ? e->size : 8, v);
	e->set = true;
	return 0;
}

/* A quoted Kconfig string, "..." with \" and \\ escapes. */
static int set_str(struct bake *b, struct kcfg_ext *e, const char *v,
		   size_t len)
{
	char *p = ext_ptr(b, e);
	size_t i, n = 0;

	if (e->type != KCFG_CHAR_ARR)
		return bfail(b, "%s: a string value needs a char array", e->name);
	if (len < 2 || v[len - 1] != '"')
		return bfail(b, "%s: unterminated string value", e->name);
	for (i = 1; i + 1 < len && n + 1 < e->size; i++) {
		if (v[i] == '\\' && i + 2 < len)
			i++;
		p[n++] = v[i];
	}
	p[n] = 0;	/* truncated to the array, like libbpf */
	e->set = true;
	return 0;
}

static struct kcfg_ext *find_ext(struct bake *b, const char *name, size_t len)
{
	int i;

	for (i = 0; i < b->nr_ext; i++)
		if (strlen(b->ext[i].name) == len && !memcmp(b->ext[i].name, name, len))
			return &b->ext[i];
	return NULL;
}

/* Apply one line of a .config: CONFIG_X=v, or "# CONFIG_X is not set". */
static int config_line(struct bake *b, const char *l, size_t len)
{
	const char *eq = memchr(l, '=', len), *v;
	struct kcfg_ext *e;
	size_t vlen;
	char num[32], *end;
	uint64_t x;

	while (len && isspace((unsigned char)l[len - 1]))
		len--;
	if (len > 16 && !strncmp(l, "# CONFIG_", 9) &&
	    !strncmp(l + len - 11, " is not set", 11)) {
		e = find_ext(b, l + 2, len - 13);
		return e ? set_tri(b, e, 'n') : 0;
	}
	if (strncmp(l, "CONFIG_", 7) || !eq)
		return 0;
	e = find_ext(b, l, eq - l);
	if (!e)
		return 0;
	v = eq + 1;
	vlen = l + len - v;
	if (vlen == 1 && (*v == 'y' || *v == 'm' || *v == 'n'))
		return set_tri(b, e, *v);
	if (vlen && *v == '"')
		return set_str(b, e, v, vlen);
	if (!vlen || vlen >= sizeof(num))
		return bfail(b, "%s: value '%.*s' is not valid", e->name, (int)vlen, v);
	memcpy(num, v, vlen);
	num[vlen] = 0;
	errno = 0;
	x = *num == '-' ? (uint64_t)strtoll(num, &end, 0) : strtoull(num, &end, 0);
	if (errno || *end)
		return bfail(b, "%s: value '%s' is not an integer", e->name, num);
	if (e->type == KCFG_CHAR)
		return bfail(b, "%s: value '%s' needs an integer type", e->name, num);
	return set_num(b, e, x);
}

static bool target_has_func(const struct rc_btf *btf, const char *name)
{
	int id = rc_btf_find_by_name_kind(btf, name, BTF_KIND_FUNC);

	return id > 0;
}

static bool target_has_enumval(const struct rc_btf *btf, const char *ename,
			       const char *val)
{
	int id = rc_btf_find_by_name_kind(btf, ename, BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *m;
	int i;

	if (id <= 0)
		return false;
	t = rc_type(btf, id);
	m = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = rc_name(btf, m->name_off);

		if (n && !strcmp(n, val))
			return true;
	}
	return false;
}

/* LINUX_* virtual externs: libbpf's, decided from the target. */
static int set_virtual(struct bake *b, struct kcfg_ext *e)
{
	static const char *const wrappers[] = {
		"__x64_sys_bpf", "__arm64_sys_bpf", "__s390x_sys_bpf",
		"__riscv_sys_bpf", "__powerpc_sys_bpf", "__ia32_sys_bpf",
	};
	uint32_t v;
	size_t i;

	if (!strcmp(e->name, "LINUX_KERNEL_VERSION")) {
		if (!b->kc->release)
			return bfail(b, "LINUX_KERNEL_VERSION needs the target's release (--kernel-release)");
		if (rc_kernel_version(b->kc->release, &v))
			return bfail(b, "LINUX_KERNEL_VERSION: release '%s' is not MAJOR.MINOR.PATCH[...]",
				     b->kc->release);
		return set_num(b, e, v);
	}
	if (!strcmp(e->name, "LINUX_HAS_BPF_COOKIE"))
		return set_num(b, e, b->target &&
			       target_has_enumval(b->target, "bpf_func_id",
						  "BPF_FUNC_get_attach_cookie"));
	if (!strcmp(e->name, "LINUX_HAS_SYSCALL_WRAPPER")) {
		bool has = false;

		for (i = 0; b->target && i < sizeof(wrappers) / sizeof(*wrappers); i++)
			has |= target_has_func(b->target, wrappers[i]);
		return set_num(b, e, has);
	}
	if (!e->is_weak)
		return bfail(b, "%s: unknown virtual extern (libbpf knows LINUX_KERNEL_VERSION, LINUX_HAS_BPF_COOKIE, LINUX_HAS_SYSCALL_WRAPPER)",
			     e->name);
	return 0;	/* an unknown weak LINUX_ extern is 0, as in libbpf */
}

/* The externs of DATASEC .kconfig, their types and layout. */
static int collect(struct bake *b)
{
	const struct btf_type *ds = btf__type_by_id(b->btf, b->sec_id);
	const struct btf_var_secinfo *vs = btf_var_secinfos(ds);
	uint32_t off = 0;
	int i;

	b->nr_ext = btf_vlen(ds);
	b->ext = calloc(b->nr_ext ? b->nr_ext : 1, sizeof(*b->ext));
	if (!b->ext)
		return -ENOMEM;
	for (i = 0; i < b->nr_ext; i++, vs++) {
		const struct btf_type *v = btf__type_by_id(b->btf, vs->type);
		struct kcfg_ext *e = &b->ext[i];
		uint32_t sz = 0, al = 0;

		if (!v || !btf_is_var(v))
			return bfail(b, "entry %d (type [%u]) is not a VAR", i, vs->type);
		e->name = btf__name_by_offset(b->btf, v->name_off);
		e->var_id = vs->type;
		e->secinfo_idx = i;
		if (!e->name || !*e->name)
			return bfail(b, "VAR [%u] has no name", vs->type);
		if (btf_var(v)->linkage != BTF_VAR_GLOBAL_EXTERN)
			return bfail(b, "%s: VAR [%u] is not an extern", e->name, vs->type);
		e->type = kcfg_type(b->types, v->type, &e->is_signed, &sz, &al);
		if (e->type == KCFG_UNKNOWN)
			return bfail(b, "%s: type [%u] is not a kconfig type (bool, char, int, libbpf_tristate, char[])",
				     e->name, v->type);
		e->size = sz;
		e->align = al;
		off = (off + al - 1) / al * al;
		e->off = off;
		off += sz;
		if (off > (1u << 20))
			return bfail(b, "%s: the externs take more than 1 MiB", e->name);
		e->sym = -1;
	}
	b->data_size = (off + 7) / 8 * 8;
	b->data = calloc(1, b->data_size ? b->data_size : 8);
	if (!b->data)
		return -ENOMEM;
	if (!b->data_size)
		b->data_size = 8;
	return 0;
}

/* Fill in every value: LINUX_* from the target, CONFIG_* from .config. */
static int evaluate(struct bake *b)
{
	const char *p = b->kc->config, *end = p ? p + b->kc->config_len : NULL;
	bool need_config = false;
	int i, ret;

	for (i = 0; i < b->nr_ext; i++) {
		struct kcfg_ext *e = &b->ext[i];

		if (!strncmp(e->name, "CONFIG_", 7)) {
			need_config = true;
			continue;
		}
		if (strncmp(e->name, "LINUX_", 6))
			return bfail(b, "%s: unknown extern (libbpf knows CONFIG_* and LINUX_*)",
				     e->name);
		ret = set_virtual(b, e);
		if (ret)
			return ret;
	}
	if (need_config && !p) {
		for (i = 0; i < b->nr_ext; i++)
			if (!strncmp(b->ext[i].name, "CONFIG_", 7) && !b->ext[i].is_weak)
				return bfail(b, "%s needs the target's kernel config (--kconfig)",
					     b->ext[i].name);
	}
	while (p && p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		ret = config_line(b, p, len);
		if (ret)
			return ret;
		p += len + 1;
	}
	for (i = 0; i < b->nr_ext; i++)
		if (!b->ext[i].set && !b->ext[i].is_weak &&
		    !strncmp(b->ext[i].name, "CONFIG_", 7))
			return bfail(b, "%s is not in the target's kernel config (declare it __weak for 0)",
				     b->ext[i].name);
	return 0;
}

/* The object's BTF with the DATASEC and VARs rewritten; raw bytes. */
static void *new_btf(struct bake *b, uint32_t *size)
{
	uint32_t raw_size;
	const void *raw = btf__raw_data(b->btf, &raw_size);
	struct btf *nb = raw ? btf__new(raw, raw_size) : NULL;
	struct btf_var_secinfo *vs;
	struct btf_type *ds;
	const void *out;
	void *copy = NULL;
	int name, i;

	if (!nb)
		return NULL;
	name = btf__add_str(nb, BAKED_SEC);
	if (name < 0)
		goto out;
	/* the types are writable once the BTF is modifiable (add_str) */
	ds = (struct btf_type *)btf__type_by_id(nb, b->sec_id);
	ds->name_off = name;
	ds->size = b->data_size;
	vs = btf_var_secinfos(ds);
	for (i = 0; i < b->nr_ext; i++) {
		struct btf_type *v = (struct btf_type *)btf__type_by_id(nb, b->ext[i].var_id);

		vs[b->ext[i].secinfo_idx].offset = b->ext[i].off;
		vs[b->ext[i].secinfo_idx].size = b->ext[i].size;
		btf_var(v)->linkage = BTF_VAR_GLOBAL_ALLOCATED;
	}
	out = btf__raw_data(nb, size);
	if (out && (copy = malloc(*size)))
		memcpy(copy, out, *size);
out:
	btf__free(nb);
	return copy;
}

/* Find each extern's ELF symbol: undefined, named like its VAR (in the
 * object's view of its symbol table; symbol 0 is not one). */
static int find_symbols(struct bake *b)
{
	size_t n, k, symtab;
	const struct rc_elf_sym *syms = rc_object_symbols(b->obj, &n, &symtab);
	int i;

	if (!syms)
		return bfail(b, "no symbol table");
	for (k = 1; k < n; k++) {
		const struct rc_elf_sym *s = &syms[k];

		if (s->shndx != SHN_UNDEF)
			continue;
		for (i = 0; i < b->nr_ext; i++)
			if (!strcmp(b->ext[i].name, s->name)) {
				b->ext[i].sym = k;
				b->ext[i].is_weak = s->bind == STB_WEAK;
			}
	}
	for (i = 0; i < b->nr_ext; i++)
		if (b->ext[i].sym < 0)
			return bfail(b, "%s: VAR [%u] has no undefined ELF symbol",
				     b->ext[i].name, b->ext[i].var_id);
	return 0;
}

/* Write the baked object (see the top of this file) to the empty file @fd
 * with the library's ELF writer: .BTF replaced by @btf_raw, the values in
 * a new section .rodata.kconfig, the externs' symbols defined in it. */
static int write_baked(struct bake *b, int fd, void *btf_raw, uint32_t btf_size)
{
	const struct rc_elf_sec *secs;
	struct rc_elf_def *defs = calloc(b->nr_ext ? b->nr_ext : 1, sizeof(*defs));
	struct rc_elf_rewrite w = {
		.what = KCONFIG_SEC, .replace = btf_raw, .replace_size = btf_size,
		.add_name = BAKED_SEC, .add_data = b->data, .add_size = b->data_size,
		.defs = defs, .nr_defs = b->nr_ext,
	};
	size_t n, k;
	int i, ret;

	if (!defs)
		return -ENOMEM;
	secs = rc_object_sections(b->obj, &n);
	for (k = 1; k < n && !w.replace_sec; k++)
		if (!strcmp(secs[k].name, ".BTF"))
			w.replace_sec = k;
	for (i = 0; i < b->nr_ext; i++)
		defs[i] = (struct rc_elf_def){ b->ext[i].sym, b->ext[i].off, b->ext[i].size,
					       b->ext[i].name };
	ret = rc_elf_rewrite(b->obj, &w, fd, b->err);
	free(defs);
	return ret;
}

struct rc_object *rc_object_bake_kconfig(const struct rc_object *obj,
					 const struct rc_kconfig *kc,
					 const struct rc_target *target,
					 int *nr_baked, struct rc_error *err)
{
	struct bake b = { .obj = obj, .btf = rc_object_btf(obj), .types = rc_object_types(obj),
			  .kc = kc, .err = err };
	const unsigned char *buf;
	struct rc_object *out = NULL;
	unsigned char *img = NULL;
	void *btf_raw = NULL;
	uint32_t btf_size;
	size_t size;
	FILE *f = NULL;
	long len;
	int id, ret;

	*nr_baked = 0;
	b.target = target ? rc_target_types(target) : NULL;
	buf = rc_object_bytes(obj, &size);
	id = b.btf ? btf__find_by_name_kind(b.btf, KCONFIG_SEC, BTF_KIND_DATASEC) : -ENOENT;
	if (id <= 0)	/* nothing to bake: the same object */
		return rc_object_open_mem(buf, size, rc_object_name(obj), err);
	b.sec_id = id;
	ret = collect(&b);
	if (!ret)
		ret = find_symbols(&b);
	if (!ret) {	/* a target read from a file: its types checked as read */
		struct rc_lazy outer = rc_lazy_begin();

		ret = evaluate(&b);
		if (rc_lazy_end(outer, err->msg, sizeof(err->msg)))
			ret = -EINVAL;
	}
	if (ret)
		goto out;
	btf_raw = new_btf(&b, &btf_size);
	f = tmpfile();
	if (!btf_raw || !f) {
		bfail(&b, "out of memory or temporary file: %s", strerror(errno));
		goto out;
	}
	if (write_baked(&b, fileno(f), btf_raw, btf_size))
		goto out;
	len = lseek(fileno(f), 0, SEEK_END);
	img = len > 0 ? malloc(len) : NULL;
	if (!img || pread(fileno(f), img, len, 0) != len) {
		bfail(&b, "reading back the rewritten object: %s", strerror(errno));
		goto out;
	}
	out = rc_object_open_mem(img, len, rc_object_name(obj), err);
	if (out)
		*nr_baked = b.nr_ext;
out:
	if (ret == -ENOMEM || (!out && !err->msg[0]))
		bfail(&b, "out of memory");
	if (f)
		fclose(f);
	free(img);
	free(btf_raw);
	free(b.ext);
	free(b.data);
	return out;
}

int rc_kconfig_read(const char *path, char **text, size_t *len,
		    struct rc_error *err)
{
	gzFile f = gzopen(path, "rb");	/* plain or gzip (/proc/config.gz) */
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	int r;

	if (!f || !buf) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: %s", path,
		       f ? "out of memory" : strerror(errno ? errno : ENOENT));
		if (f)
			gzclose(f);
		free(buf);
		return -EINVAL;
	}
	while ((r = gzread(f, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap) {
			char *nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;

			if (!nb) {
				r = -1;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	gzclose(f);
	if (r < 0) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: read failed (corrupt gzip or too large)", path);
		free(buf);
		return -EINVAL;
	}
	*text = buf;
	*len = n;
	return 0;
}
