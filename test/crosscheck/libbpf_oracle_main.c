/* SPDX-License-Identifier: MIT */
/*
 * libbpf_oracle_main.c - the libbpf_oracle command: libbpf's decisions
 * (libbpf_oracle.c) printed as JSON, traced, or compared with relocore's.
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
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "libbpf_oracle.h"

/* ---- small helpers ---- */

/* CROSSCHECK_POISONED_OLD=0: do not compare "old" of poisoned relocations. */
static int poisoned_old_relaxed(void)
{
	const char *e = getenv("CROSSCHECK_POISONED_OLD");

	return e && !strcmp(e, "0");
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

	for (size_t i = 0, lo = 0; i < n; i++) {
		const struct jval *r = NULL;
		const char *result, *reason;
		uint64_t x;
		char nbuf[32];

		/* match by section, insn and kind; first unused one wins (the
		 * scan starts at the first unused one: both lists come in
		 * .BTF.ext order, so a probe's 20,000 match in linear time) */
		while (lo < relos->n && used[lo])
			lo++;
		for (size_t k = lo; k < relos->n && !r; k++) {
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
