/* SPDX-License-Identifier: MIT */
/*
 * libbpf_oracle - libbpf's own CO-RE relocation decisions, computed offline.
 *
 * Why a C harness and not bpftool's debug output: `bpftool -d gen
 * min_core_btf` only prints the matched *target spec* of each relocation
 * (type, access path, bit offset), so values such as byte_sz, lshift_u64,
 * signed or type_size would have to be re-derived from the target BTF by
 * hand, which would re-implement the very logic under test.  Instead this
 * program links Debian's static libbpf (libbpf.a, 1.1.x) and calls the same
 * non-static internals that libbpf's loader and bpftool's min_core_btf use:
 *
 *   bpf_core_add_cands()       - candidate search (one target BTF, "vmlinux")
 *   bpf_core_calc_relo_insn()  - spec matching and the decided values
 *   bpf_core_patch_insn()      - applied to a *copy* of the instruction, to
 *                                see the poisoning and the errors that only
 *                                show up when patching (memsz adjust, value
 *                                validation, insn form)
 *
 * These are not exported in libbpf's public headers, so their prototypes and
 * the structures they take are declared below, matching libbpf 1.1's
 * relo_core.h / libbpf_internal.h.  The layout was checked against Debian's
 * libbpf.a (1:1.1.2): sizeof(struct bpf_core_spec) == 0x520, the scratch
 * specs are at +0x520 / +0xa40 and bpf_core_cand_list.len is at +8.  The
 * program checks the sizes at compile time.
 *
 * The driving loop mirrors bpftool's btfgen_record_obj() and libbpf's
 * bpf_object__relocate_core(): .BTF.ext core_relo sections in order, the
 * candidate list cached per local type id for the whole object (libbpf
 * shrinks a cached list to the matching candidates, so that is kept too),
 * TYPE_ID_LOCAL without candidate search.  Unlike libbpf, an error in one
 * relocation does not stop the others: every relocation gets a verdict.
 *
 * Usage:
 *   libbpf_oracle dump OBJ TARGET.btf
 *       print libbpf's decisions as JSON, in the schema of
 *       `relocore explain --json` (plus a few libbpf-only fields)
 *   libbpf_oracle trace OBJ TARGET.btf
 *       print libbpf's own debug lines for the relocations (the same lines
 *       `bpftool -d gen min_core_btf` prints), to cross-check this harness
 *   libbpf_oracle compare OBJ TARGET.btf RELOCORE.json NAME [RELOCATED.o]
 *       compare with relocore's JSON; prints `PASS: NAME` or one
 *       `FAIL: NAME: ...` line per mismatch, then
 *       `compared N mismatches M`; exit 0 iff M == 0 and N > 0.
 *       With RELOCATED.o (from `relocore reloc`), also compare every
 *       instruction libbpf patches (or poisons) with relocore's bytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "libbpf_core.h"

/* ---- small helpers ---- */


/* CROSSCHECK_POISONED_OLD=0: do not compare "old" of poisoned relocations. */
static int poisoned_old_relaxed(void)
{
	const char *e = getenv("CROSSCHECK_POISONED_OLD");

	return e && !strcmp(e, "0");
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "libbpf_oracle: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static const char *kind_name(unsigned kind)
{
	static const char *names[] = {
		"byte_off", "byte_sz", "field_exists", "signed", "lshift_u64",
		"rshift_u64", "local_type_id", "target_type_id", "type_exists",
		"type_size", "enumval_exists", "enumval_value", "type_matches",
	};
	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

/* libbpf's messages: keep the last warning as the "reason"; optionally echo
 * the debug lines about relocations ("trace" mode). */
static char last_warn[1024];
static bool trace_mode;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[2048];
	size_t n;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (level == LIBBPF_WARN) {
		n = strnlen(buf, sizeof(last_warn) - 1);
		memcpy(last_warn, buf, n);
		last_warn[n] = '\0';
		while (n && (last_warn[n - 1] == '\n' || last_warn[n - 1] == ' '))
			last_warn[--n] = '\0';
	}
	if (trace_mode)
		fputs(buf, stdout);
	return 0;
}

/* ---- the object: ELF sections and .BTF.ext core_relo records ---- */

struct elf_sec {
	char *name;
	unsigned char *data;
	size_t size;
};

struct object {
	const char *path;
	struct elf_sec *secs;
	size_t nsecs;
	struct btf *btf;
	const unsigned char *ext;	/* .BTF.ext */
	size_t ext_size;
};

static void object_open(struct object *o, const char *path, bool want_btf)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf: %s", elf_errmsg(-1));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		die("%s: not an ELF object: %s", path, elf_errmsg(-1));
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *name;
		struct elf_sec *s;

		if (!gelf_getshdr(scn, &sh))
			die("%s: bad section header", path);
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || sh.sh_type == SHT_NOBITS)
			continue;
		d = elf_getdata(scn, NULL);
		o->secs = realloc(o->secs, (o->nsecs + 1) * sizeof(*o->secs));
		s = &o->secs[o->nsecs++];
		s->name = strdup(name);
		s->size = d ? d->d_size : 0;
		s->data = malloc(s->size ? s->size : 1);
		if (s->size)
			memcpy(s->data, d->d_buf, s->size);
		if (strcmp(name, ".BTF.ext") == 0) {
			o->ext = s->data;
			o->ext_size = s->size;
		}
	}
	elf_end(elf);
	close(fd);

	if (!want_btf)
		return;
	o->btf = btf__parse_elf(path, NULL);
	if (!o->btf)
		die("%s: cannot parse .BTF: %s", path, strerror(errno));
}

static struct elf_sec *object_sec(struct object *o, const char *name)
{
	for (size_t i = 0; i < o->nsecs; i++)
		if (strcmp(o->secs[i].name, name) == 0)
			return &o->secs[i];
	return NULL;
}

/* ---- one verdict per relocation ---- */

struct verdict {
	char section[256];
	int insn;		/* instruction index within the section */
	int relo_idx;		/* index within the section's core_relo records */
	unsigned kind;
	char spec[256];		/* the access string of the record */
	unsigned local_type_id;
	char local_type[256];
	unsigned target_type_id;	/* 0: no target found */
	char target_type[256];
	uint64_t old_val, new_val;
	bool validate;
	const char *result;	/* ok, poisoned, error */
	char reason[1024];
	char local_spec[256];	/* libbpf's formatted specs */
	char target_spec[256];
	char target_raw[256];	/* raw access path of the target spec, "0:5" */
	struct bpf_insn patched[2];	/* the instruction(s) as libbpf patches them */
	int npatched;		/* 0 if not patched (error) */
	unsigned target_bit_offset;
};

static void type_desc(const struct btf *btf, unsigned id, char *buf, size_t sz)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name, *kind = "?";

	if (!t) {
		snprintf(buf, sz, "<bad id %u>", id);
		return;
	}
	name = btf__name_by_offset(btf, t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT: kind = "struct"; break;
	case BTF_KIND_UNION: kind = "union"; break;
	case BTF_KIND_ENUM: kind = "enum"; break;
	case BTF_KIND_ENUM64: kind = "enum64"; break;
	case BTF_KIND_TYPEDEF: kind = "typedef"; break;
	case BTF_KIND_INT: kind = "int"; break;
	case BTF_KIND_PTR: kind = "ptr"; break;
	case BTF_KIND_ARRAY: kind = "array"; break;
	case BTF_KIND_FWD: kind = "fwd"; break;
	case BTF_KIND_FUNC_PROTO: kind = "func_proto"; break;
	case BTF_KIND_FLOAT: kind = "float"; break;
	case BTF_KIND_CONST: kind = "const"; break;
	case BTF_KIND_VOLATILE: kind = "volatile"; break;
	default: break;
	}
	snprintf(buf, sz, "%s %s", kind, name && *name ? name : "<anon>");
}

static struct verdict *run_oracle(struct object *o, const struct btf *targ, size_t *nout)
{
	const unsigned char *ext = o->ext, *p, *end;
	struct bpf_core_cand_list **cache;
	struct verdict *out = NULL;
	size_t n = 0;
	__u32 hdr_len, relo_off, relo_len, rec_size;
	unsigned ntypes = btf__type_cnt(o->btf);

	if (!ext)
		die("%s: no .BTF.ext section", o->path);
	if (o->ext_size < 8 || *(const __u16 *)ext != 0xeB9F)
		die("%s: bad .BTF.ext header", o->path);
	hdr_len = *(const __u32 *)(ext + 4);
	if (hdr_len < 32 || hdr_len > o->ext_size) {
		*nout = 0;	/* no core_relo part */
		return NULL;
	}
	relo_off = *(const __u32 *)(ext + 24);
	relo_len = *(const __u32 *)(ext + 28);
	if (relo_len == 0) {
		*nout = 0;
		return NULL;
	}
	p = ext + hdr_len + relo_off;
	end = p + relo_len;
	if (end > ext + o->ext_size || relo_len < 4)
		die("%s: .BTF.ext core_relo out of bounds", o->path);
	rec_size = *(const __u32 *)p;
	p += 4;
	if (rec_size < sizeof(struct bpf_core_relo))
		die("%s: core_relo record size %u", o->path, rec_size);

	cache = calloc(ntypes, sizeof(*cache));
	while (p + 8 <= end) {
		__u32 sec_name_off = ((const __u32 *)p)[0];
		__u32 num = ((const __u32 *)p)[1];
		const char *sec_name = btf__name_by_offset(o->btf, sec_name_off);
		struct elf_sec *es;

		p += 8;
		if (!sec_name)
			die("%s: bad core_relo section name", o->path);
		if (p + (size_t)num * rec_size > end)
			die("%s: core_relo records out of bounds", o->path);
		es = object_sec(o, sec_name);
		for (__u32 i = 0; i < num; i++, p += rec_size) {
			struct bpf_core_relo relo;
			struct bpf_core_spec specs[3];
			struct bpf_core_relo_res res;
			struct bpf_core_cand_list *cands = NULL;
			struct verdict *v;
			const char *acc;
			int err;

			memcpy(&relo, p, sizeof(relo));
			out = realloc(out, (n + 1) * sizeof(*out));
			v = &out[n++];
			memset(v, 0, sizeof(*v));
			snprintf(v->section, sizeof(v->section), "%s", sec_name);
			v->insn = relo.insn_off / 8;
			v->relo_idx = i;
			v->kind = relo.kind;
			acc = btf__name_by_offset(o->btf, relo.access_str_off);
			snprintf(v->spec, sizeof(v->spec), "%s", acc ? acc : "?");
			v->local_type_id = relo.type_id;
			type_desc(o->btf, relo.type_id, v->local_type, sizeof(v->local_type));
			last_warn[0] = '\0';

			if (relo.type_id == 0 || relo.type_id >= ntypes) {
				v->result = "error";
				snprintf(v->reason, sizeof(v->reason), "bad local type id %u", relo.type_id);
				continue;
			}
			if (relo.kind != BPF_CORE_TYPE_ID_LOCAL) {
				cands = cache[relo.type_id];
				if (!cands) {
					const struct btf_type *lt = btf__type_by_id(o->btf, relo.type_id);
					const char *ln = btf__name_by_offset(o->btf, lt->name_off);
					struct bpf_core_cand lc = { .btf = o->btf, .id = relo.type_id };

					if (!ln || !*ln) {
						/* libbpf: bpf_core_find_cands() -> -EINVAL */
						v->result = "error";
						snprintf(v->reason, sizeof(v->reason),
							 "candidate search failed: anonymous local type: %d", -EINVAL);
						continue;
					}
					cands = calloc(1, sizeof(*cands));
					err = bpf_core_add_cands(&lc, bpf_core_essential_name_len(ln),
								 targ, "vmlinux", 1, cands);
					if (err)
						die("bpf_core_add_cands: %d", err);
					cache[relo.type_id] = cands;
				}
			}

			memset(specs, 0, sizeof(specs));
			memset(&res, 0, sizeof(res));
			err = bpf_core_calc_relo_insn(sec_name, &relo, i, o->btf, cands, specs, &res);
			if (specs[0].btf)
				bpf_core_format_spec(v->local_spec, sizeof(v->local_spec), &specs[0]);
			if (err) {
				v->result = "error";
				snprintf(v->reason, sizeof(v->reason), "calc: %d: %s", err, last_warn);
				continue;
			}
			v->old_val = res.orig_val;
			v->new_val = res.new_val;
			v->validate = res.validate;
			if (specs[2].btf && relo.kind != BPF_CORE_TYPE_ID_LOCAL) {
				v->target_type_id = specs[2].root_type_id;
				type_desc(targ, specs[2].root_type_id, v->target_type, sizeof(v->target_type));
				bpf_core_format_spec(v->target_spec, sizeof(v->target_spec), &specs[2]);
				v->target_bit_offset = specs[2].bit_offset;
				for (int k = 0, len = 0; k < specs[2].raw_len && len < 200; k++)
					len += snprintf(v->target_raw + len, sizeof(v->target_raw) - len,
							"%s%d", k ? ":" : "", specs[2].raw_spec[k]);
			}
			v->result = res.poison ? "poisoned" : "ok";
			if (res.poison)
				snprintf(v->reason, sizeof(v->reason), "no matching target");

			/* patch a copy of the instruction (two for ldimm64) */
			if (!es || (size_t)v->insn * 8 + 8 > es->size) {
				v->result = "error";
				snprintf(v->reason, sizeof(v->reason), "insn #%d outside section %s",
					 v->insn, sec_name);
				continue;
			}
			{
				struct bpf_insn insn[2] = {};
				size_t avail = es->size - (size_t)v->insn * 8;

				memcpy(insn, es->data + (size_t)v->insn * 8, avail >= 16 ? 16 : 8);
				if (insn[0].code == (BPF_LD | BPF_IMM | BPF_DW) && avail < 16) {
					v->result = "error";
					snprintf(v->reason, sizeof(v->reason), "ldimm64 truncated");
					continue;
				}
				last_warn[0] = '\0';
				err = bpf_core_patch_insn(sec_name, insn, v->insn, &relo, i, &res);
				if (err) {
					v->result = "error";
					snprintf(v->reason, sizeof(v->reason), "patch: %d: %s", err, last_warn);
				} else {
					if (!res.poison && insn[0].code == (BPF_JMP | BPF_CALL) &&
					    insn[0].imm == POISON_IMM) {
						v->result = "poisoned";
						snprintf(v->reason, sizeof(v->reason), "patch: %s", last_warn);
					}
					memcpy(v->patched, insn, sizeof(insn));
					v->npatched = ((struct bpf_insn *)(es->data + (size_t)v->insn * 8))->code ==
						      (BPF_LD | BPF_IMM | BPF_DW) ? 2 : 1;
				}
			}
		}
	}
	for (unsigned i = 0; i < ntypes; i++)
		if (cache[i])
			bpf_core_free_cands(cache[i]);
	free(cache);
	*nout = n;
	return out;
}

/* ---- JSON output ---- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void dump_json(const char *obj, const char *target, struct verdict *v, size_t n)
{
	const char *slash = strrchr(obj, '/');

	printf("{\"object\":");
	json_str(stdout, slash ? slash + 1 : obj);
	printf(",\"target\":");
	json_str(stdout, target);
	printf(",\"relocations\":[");
	for (size_t i = 0; i < n; i++) {
		printf("%s\n{\"section\":", i ? "," : "");
		json_str(stdout, v[i].section);
		printf(",\"insn\":%d,\"kind\":\"%s\",\"spec\":", v[i].insn, kind_name(v[i].kind));
		json_str(stdout, v[i].spec);
		printf(",\"local_type_id\":%u,\"local_type\":", v[i].local_type_id);
		json_str(stdout, v[i].local_type);
		printf(",\"target_type_id\":%u,\"target_type\":", v[i].target_type_id);
		json_str(stdout, v[i].target_type);
		printf(",\"old\":%llu,\"new\":%llu,\"result\":\"%s\",\"reason\":",
		       (unsigned long long)v[i].old_val, (unsigned long long)v[i].new_val,
		       v[i].result);
		json_str(stdout, v[i].reason);
		printf(",\"validate\":%s,\"libbpf_local_spec\":", v[i].validate ? "true" : "false");
		json_str(stdout, v[i].local_spec);
		printf(",\"target_spec\":");
		json_str(stdout, v[i].target_raw);
		printf(",\"target_bit_offset\":%u", v[i].target_bit_offset);
		printf(",\"libbpf_target_spec\":");
		json_str(stdout, v[i].target_spec);
		printf("}");
	}
	printf("\n]}\n");
}

/* ---- a minimal JSON reader (enough for relocore's explain output) ---- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	bool b;
	bool neg;		/* number had a leading '-' */
	uint64_t mag;		/* |number| if integral */
	bool integral;
	char *s;		/* J_STR */
	size_t n;		/* J_ARR / J_OBJ element count */
	struct jval *items;	/* J_ARR values, J_OBJ values */
	char **keys;		/* J_OBJ keys */
};

struct jparser {
	const char *p, *end;
	const char *err;
};

static void jws(struct jparser *jp)
{
	while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r'))
		jp->p++;
}

static bool jparse(struct jparser *jp, struct jval *v, int depth);

static char *jstring(struct jparser *jp)
{
	size_t cap = 16, len = 0;
	char *s = malloc(cap);

	jp->p++;	/* opening quote */
	while (jp->p < jp->end && *jp->p != '"') {
		char c = *jp->p++;

		if (c == '\\') {
			if (jp->p >= jp->end)
				break;
			c = *jp->p++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u': {
				unsigned cp = 0;

				for (int k = 0; k < 4; k++) {
					char h = jp->p < jp->end ? *jp->p++ : 0;

					cp <<= 4;
					if (h >= '0' && h <= '9') cp |= h - '0';
					else if (h >= 'a' && h <= 'f') cp |= h - 'a' + 10;
					else if (h >= 'A' && h <= 'F') cp |= h - 'A' + 10;
					else { jp->err = "bad \\u escape"; free(s); return NULL; }
				}
				c = cp < 0x80 ? (char)cp : '?';
				break;
			}
			default: break;	/* \" \\ \/ */
			}
		}
		if (len + 2 > cap)
			s = realloc(s, cap *= 2);
		s[len++] = c;
	}
	if (jp->p >= jp->end) {
		jp->err = "unterminated string";
		free(s);
		return NULL;
	}
	jp->p++;
	s[len] = '\0';
	return s;
}

static bool jparse(struct jparser *jp, struct jval *v, int depth)
{
	memset(v, 0, sizeof(*v));
	if (depth > 64) {
		jp->err = "nesting too deep";
		return false;
	}
	jws(jp);
	if (jp->p >= jp->end) {
		jp->err = "unexpected end";
		return false;
	}
	switch (*jp->p) {
	case '{':
	case '[': {
		bool obj = *jp->p == '{';
		char close = obj ? '}' : ']';

		v->type = obj ? J_OBJ : J_ARR;
		jp->p++;
		jws(jp);
		if (jp->p < jp->end && *jp->p == close) {
			jp->p++;
			return true;
		}
		for (;;) {
			char *key = NULL;

			jws(jp);
			if (obj) {
				if (jp->p >= jp->end || *jp->p != '"') {
					jp->err = "expected key";
					return false;
				}
				if (!(key = jstring(jp)))
					return false;
				jws(jp);
				if (jp->p >= jp->end || *jp->p != ':') {
					jp->err = "expected ':'";
					return false;
				}
				jp->p++;
			}
			v->items = realloc(v->items, (v->n + 1) * sizeof(*v->items));
			if (obj) {
				v->keys = realloc(v->keys, (v->n + 1) * sizeof(*v->keys));
				v->keys[v->n] = key;
			}
			if (!jparse(jp, &v->items[v->n], depth + 1))
				return false;
			v->n++;
			jws(jp);
			if (jp->p < jp->end && *jp->p == ',') {
				jp->p++;
				continue;
			}
			if (jp->p < jp->end && *jp->p == close) {
				jp->p++;
				return true;
			}
			jp->err = obj ? "expected ',' or '}'" : "expected ',' or ']'";
			return false;
		}
	}
	case '"':
		v->type = J_STR;
		v->s = jstring(jp);
		return v->s != NULL;
	case 't':
	case 'f':
	case 'n': {
		static const char *words[] = { "true", "false", "null" };

		for (int k = 0; k < 3; k++) {
			size_t l = strlen(words[k]);

			if ((size_t)(jp->end - jp->p) >= l && strncmp(jp->p, words[k], l) == 0) {
				jp->p += l;
				v->type = k == 2 ? J_NULL : J_BOOL;
				v->b = k == 0;
				return true;
			}
		}
		jp->err = "bad literal";
		return false;
	}
	default: {
		const char *q = jp->p;

		v->type = J_NUM;
		v->integral = true;
		if (*q == '-') {
			v->neg = true;
			q++;
		}
		if (q >= jp->end || *q < '0' || *q > '9') {
			jp->err = "bad value";
			return false;
		}
		while (q < jp->end && *q >= '0' && *q <= '9') {
			v->mag = v->mag * 10 + (uint64_t)(*q - '0');
			q++;
		}
		/* fractions/exponents are not expected; accept and flag them */
		while (q < jp->end && (*q == '.' || *q == 'e' || *q == 'E' || *q == '+' ||
				       *q == '-' || (*q >= '0' && *q <= '9'))) {
			v->integral = false;
			q++;
		}
		jp->p = q;
		return true;
	}
	}
}

static const struct jval *jget(const struct jval *o, const char *key)
{
	if (!o || o->type != J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->keys[i], key) == 0)
			return &o->items[i];
	return NULL;
}

static const char *jstr(const struct jval *o, const char *key)
{
	const struct jval *v = jget(o, key);

	return v && v->type == J_STR ? v->s : NULL;
}

/* numbers are compared modulo 2^64, so -1 and 18446744073709551615 agree */
static bool jnum(const struct jval *o, const char *key, uint64_t *out)
{
	const struct jval *v = jget(o, key);

	if (!v || v->type != J_NUM || !v->integral)
		return false;
	*out = v->neg ? (uint64_t)0 - v->mag : v->mag;
	return true;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		die("%s: %s", path, strerror(errno));
	do {
		if (n + 65536 > cap)
			buf = realloc(buf, cap = cap ? cap * 2 : 131072);
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

/* ---- comparison ---- */

static int mismatches, compared;

static void fail(const char *name, const struct verdict *v, const struct jval *r,
		 const char *fmt, ...)
{
	const char *acc = r ? jstr(r, "access") : NULL;
	va_list ap;

	printf("FAIL: %s: %s insn %d %s %s (%s%s%s): ", name, v->section, v->insn,
	       kind_name(v->kind), v->spec, v->local_type, acc ? " " : "", acc ? acc : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* "123" or "<none>" for a relocore number field, for messages */
static const char *jnum_str(const struct jval *o, const char *key, char *buf, size_t sz)
{
	uint64_t x;

	if (!jnum(o, key, &x))
		return "<none>";
	snprintf(buf, sz, "%llu", (unsigned long long)x);
	return buf;
}

static int compare(const char *name, struct verdict *v, size_t n, const char *json_path)
{
	struct jparser jp;
	struct jval root;
	const struct jval *relos;
	size_t len;
	char *text = read_all(json_path, &len);
	bool *used;
	int bad_here = 0;

	jp.p = text;
	jp.end = text + len;
	jp.err = NULL;
	if (!jparse(&jp, &root, 0)) {
		printf("FAIL: %s: relocore JSON unreadable (%s at byte %ld)\n", name,
		       jp.err, (long)(jp.p - text));
		mismatches++;
		return 1;
	}
	relos = jget(&root, "relocations");
	if (!relos || relos->type != J_ARR) {
		printf("FAIL: %s: relocore JSON has no \"relocations\" array\n", name);
		mismatches++;
		return 1;
	}
	used = calloc(relos->n + 1, sizeof(*used));

	for (size_t i = 0; i < n; i++) {
		const struct jval *r = NULL;
		const char *result, *reason;
		uint64_t x;
		char nbuf[32];

		/* match by section, insn and kind; first unused one wins */
		for (size_t k = 0; k < relos->n && !r; k++) {
			const struct jval *c = &relos->items[k];
			const char *sec = jstr(c, "section"), *kd = jstr(c, "kind");

			if (used[k] || !sec || !kd || !jnum(c, "insn", &x))
				continue;
			if (strcmp(sec, v[i].section) == 0 && x == (uint64_t)v[i].insn &&
			    strcmp(kd, kind_name(v[i].kind)) == 0) {
				r = c;
				used[k] = true;
			}
		}
		compared++;
		if (!r) {
			fail(name, &v[i], NULL, "missing in relocore output (libbpf: %s new=%llu)",
			     v[i].result, (unsigned long long)v[i].new_val);
			bad_here++;
			continue;
		}
		result = jstr(r, "result");
		reason = jstr(r, "reason");
		if (!result || strcmp(result, v[i].result) != 0) {
			fail(name, &v[i], r, "result: relocore %s (%s) new=%s, libbpf %s (%s) new=%llu",
			     result ? result : "<none>", reason ? reason : "",
			     jnum_str(r, "new", nbuf, sizeof(nbuf)),
			     v[i].result, v[i].reason, (unsigned long long)v[i].new_val);
			bad_here++;
			continue;
		}
		if (strcmp(v[i].result, "error") == 0)
			continue;
		/* new value: meaningful only when libbpf patches it in */
		if (strcmp(v[i].result, "ok") == 0) {
			if (!jnum(r, "new", &x))
				fail(name, &v[i], r, "relocore has no integral \"new\" (libbpf new=%llu)",
				     (unsigned long long)v[i].new_val), bad_here++;
			else if (x != v[i].new_val)
				fail(name, &v[i], r, "new: relocore %llu, libbpf %llu (target %s)",
				     (unsigned long long)x, (unsigned long long)v[i].new_val,
				     v[i].target_spec[0] ? v[i].target_spec : "none"), bad_here++;
		}
		/* old value: when libbpf validates it against the instruction,
		 * it is unambiguous (it equals the compiled-in value).  For a
		 * poisoned relocation libbpf still computes it (nothing uses
		 * it); relocore reports the same, and it is compared too unless
		 * CROSSCHECK_POISONED_OLD=0. */
		if (v[i].validate && v[i].kind != BPF_CORE_TYPE_ID_LOCAL &&
		    (strcmp(v[i].result, "ok") == 0 || !poisoned_old_relaxed())) {
			if (!jnum(r, "old", &x))
				fail(name, &v[i], r, "relocore has no integral \"old\" (libbpf old=%llu)",
				     (unsigned long long)v[i].old_val), bad_here++;
			else if (x != v[i].old_val)
				fail(name, &v[i], r, "old: relocore %llu, libbpf %llu",
				     (unsigned long long)x, (unsigned long long)v[i].old_val), bad_here++;
		}
		/* the matched target access path and bit offset (optional in
		 * relocore's output), for field and enumerator relocations */
		if (strcmp(v[i].result, "ok") == 0 && v[i].target_type_id &&
		    v[i].kind <= BPF_CORE_FIELD_RSHIFT_U64) {
			const char *ts = jstr(r, "target_spec");

			if (ts && strcmp(ts, v[i].target_raw) != 0)
				fail(name, &v[i], r, "target_spec: relocore \"%s\", libbpf \"%s\" (%s)",
				     ts, v[i].target_raw, v[i].target_spec), bad_here++;
			if (jget(r, "target_bit_offset") &&
			    (!jnum(r, "target_bit_offset", &x) || x != v[i].target_bit_offset))
				fail(name, &v[i], r, "target_bit_offset: relocore %s, libbpf %u (%s)",
				     jnum_str(r, "target_bit_offset", nbuf, sizeof(nbuf)),
				     v[i].target_bit_offset, v[i].target_spec), bad_here++;
		}
		if (strcmp(v[i].result, "ok") == 0 && v[i].target_type_id &&
		    (v[i].kind == BPF_CORE_ENUMVAL_EXISTS || v[i].kind == BPF_CORE_ENUMVAL_VALUE)) {
			const char *ts = jstr(r, "target_spec");

			if (ts && strcmp(ts, v[i].target_raw) != 0)
				fail(name, &v[i], r, "target_spec: relocore \"%s\", libbpf \"%s\" (%s)",
				     ts, v[i].target_raw, v[i].target_spec), bad_here++;
		}
		/* the chosen target type, where libbpf found one */
		if (strcmp(v[i].result, "ok") == 0 && v[i].target_type_id &&
		    v[i].kind != BPF_CORE_TYPE_ID_LOCAL) {
			if (!jnum(r, "target_type_id", &x) || x != v[i].target_type_id)
				fail(name, &v[i], r, "target_type_id: relocore %s, libbpf %u (%s)",
				     jnum_str(r, "target_type_id", nbuf, sizeof(nbuf)),
				     v[i].target_type_id, v[i].target_type), bad_here++;
		}
	}
	for (size_t k = 0; k < relos->n; k++) {
		if (!used[k]) {
			const struct jval *c = &relos->items[k];
			uint64_t insn = 0;

			jnum(c, "insn", &insn);
			printf("FAIL: %s: relocore reports a relocation libbpf does not see: %s insn %llu %s %s\n",
			       name, jstr(c, "section") ?: "?", (unsigned long long)insn,
			       jstr(c, "kind") ?: "?", jstr(c, "spec") ?: "?");
			bad_here++;
			compared++;
		}
	}
	free(used);
	mismatches += bad_here;
	if (!bad_here && n)
		printf("PASS: %s\n", name);
	return bad_here;
}

/* Compare the instructions libbpf patched with those of the object relocore
 * wrote (`relocore reloc`): same section name, same index. */
static void compare_insns(const char *name, struct verdict *v, size_t n, const char *path)
{
	struct object rel;
	int bad_here = 0;

	object_open(&rel, path, false);
	for (size_t i = 0; i < n; i++) {
		struct elf_sec *es;
		const struct bpf_insn *got;

		if (!v[i].npatched)
			continue;
		es = object_sec(&rel, v[i].section);
		if (!es || (size_t)(v[i].insn + v[i].npatched) * 8 > es->size) {
			fail(name, &v[i], NULL, "relocated object has no insn #%d in %s",
			     v[i].insn, v[i].section);
			bad_here++;
			continue;
		}
		got = (const struct bpf_insn *)(es->data + (size_t)v[i].insn * 8);
		for (int k = 0; k < v[i].npatched; k++) {
			const struct bpf_insn *w = &v[i].patched[k];

			if (memcmp(&got[k], w, sizeof(*w)) == 0)
				continue;
			fail(name, &v[i], NULL,
			     "patched insn #%d: relocore code=0x%02x dst=%u src=%u off=%d imm=%d, "
			     "libbpf code=0x%02x dst=%u src=%u off=%d imm=%d (libbpf %s)",
			     v[i].insn + k, got[k].code, got[k].dst_reg, got[k].src_reg, got[k].off,
			     got[k].imm, w->code, w->dst_reg, w->src_reg, w->off, w->imm, v[i].result);
			bad_here++;
			break;
		}
	}
	mismatches += bad_here;
	if (!bad_here)
		printf("PASS: %s/insns\n", name);
}

int main(int argc, char **argv)
{
	struct object obj;
	struct btf *targ;
	struct verdict *v;
	size_t n;
	const char *mode;

	if (argc < 4)
		die("usage: %s dump|trace OBJ TARGET.btf | compare OBJ TARGET.btf RELOCORE.json NAME",
		    argv[0]);
	mode = argv[1];
	if (strcmp(mode, "compare") == 0 && argc != 6 && argc != 7)
		die("usage: %s compare OBJ TARGET.btf RELOCORE.json NAME [RELOCATED.o]", argv[0]);
	trace_mode = strcmp(mode, "trace") == 0;
	libbpf_set_print(print_fn);

	object_open(&obj, argv[2], true);
	targ = btf__parse(argv[3], NULL);
	if (!targ)
		die("%s: cannot parse target BTF: %s", argv[3], strerror(errno));
	v = run_oracle(&obj, targ, &n);

	if (strcmp(mode, "dump") == 0) {
		dump_json(argv[2], argv[3], v, n);
		return 0;
	}
	if (trace_mode)
		return 0;
	if (strcmp(mode, "compare") != 0)
		die("unknown mode %s", mode);
	compare(argv[5], v, n, argv[4]);
	if (argc == 7)
		compare_insns(argv[5], v, n, argv[6]);
	if (n == 0)
		printf("FAIL: %s: no CO-RE relocations in %s\n", argv[5], argv[2]);
	printf("compared %d mismatches %d\n", compared, mismatches);
	return (mismatches || n == 0) ? 1 : 0;
}
