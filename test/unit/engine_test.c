// SPDX-License-Identifier: MIT
/*
 * engine_test - the relocation engine, offline, on hand-built BTF.
 *
 * One local BTF (what a program was compiled with) and one target BTF
 * (a "kernel" whose layouts differ) are built with libbpf's BTF writer;
 * every row of the table is one relocation record and the decision
 * expected for it.  Prints "PASS: unit/<row>" or "FAIL: unit/<row>: ...".
 */
#include <errno.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relocore.h"
#include "relocore_private.h"	/* the essential-name hashes and keys */

static int passed, failed;

#define EXPECT(cond, ...) do { if (!(cond)) { fail_row(row, __VA_ARGS__); return; } } while (0)

static void fail_row(const char *row, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: unit/%s: ", row);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed++;
}

static void pass_row(const char *row)
{
	printf("PASS: unit/%s\n", row);
	passed++;
}

/* ids in the local BTF */
struct ids {
	int s32, u32, u16, u64, foo, foo_v2, bar, ptr_bar, arr4, e, fooptr_td, fp;
};

/*
 * local:
 *   struct foo { int a; int b; u32 c:3; u32 d:5; struct bar *p; int arr[4]; u32 u; };
 *   struct foo___v2 { int b; int gone; };   (flavor)
 *   struct bar { int x; };
 *   enum e { E_ONE = 1, E_TWO = 2, E_GONE = 3 };
 */
static struct btf *build_local(struct ids *id)
{
	struct btf *b = btf__new_empty();

	id->s32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	id->u32 = btf__add_int(b, "unsigned int", 4, 0);
	id->u16 = btf__add_int(b, "unsigned short", 2, 0);
	id->u64 = btf__add_int(b, "unsigned long", 8, 0);
	id->bar = btf__add_struct(b, "bar", 4);
	btf__add_field(b, "x", id->s32, 0, 0);
	id->ptr_bar = btf__add_ptr(b, id->bar);
	id->arr4 = btf__add_array(b, id->u32, id->s32, 4);
	id->foo = btf__add_struct(b, "foo", 48);
	btf__add_field(b, "a", id->s32, 0, 0);
	btf__add_field(b, "b", id->s32, 32, 0);
	btf__add_field(b, "c", id->u32, 64, 3);
	btf__add_field(b, "d", id->u32, 67, 5);
	btf__add_field(b, "p", id->ptr_bar, 128, 0);
	btf__add_field(b, "arr", id->arr4, 192, 0);
	btf__add_field(b, "u", id->u32, 320, 0);
	id->foo_v2 = btf__add_struct(b, "foo___v2", 8);
	btf__add_field(b, "b", id->s32, 0, 0);
	btf__add_field(b, "gone", id->s32, 32, 0);
	id->e = btf__add_enum(b, "e", 4);
	btf__add_enum_value(b, "E_ONE", 1);
	btf__add_enum_value(b, "E_TWO", 2);
	btf__add_enum_value(b, "E_GONE", 3);
	id->fp = btf__add_fwd(b, "only_local", BTF_FWD_STRUCT);
	return b;
}

/*
 * target ("kernel"):
 *   struct foo { long pad; union { int a; u32 alias; }; u16 c:3; u16 d:9;
 *                int b; struct bar *p; int arr[8]; u64 u; };   size 80
 *   struct bar { long y; int x; };
 *   enum e { E_TWO = 20, E_ONE = 10 };
 *   struct dup___a { int v; };  struct dup___b { long w; int v; };
 */
static struct btf *build_target(void)
{
	struct btf *b = btf__new_empty();
	int s32, u32, u16, u64, s64, bar, pbar, arr8, un, foo;

	s32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	u32 = btf__add_int(b, "unsigned int", 4, 0);
	u16 = btf__add_int(b, "unsigned short", 2, 0);
	u64 = btf__add_int(b, "unsigned long", 8, 0);
	s64 = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	bar = btf__add_struct(b, "bar", 16);
	btf__add_field(b, "y", s64, 0, 0);
	btf__add_field(b, "x", s32, 64, 0);
	pbar = btf__add_ptr(b, bar);
	arr8 = btf__add_array(b, u32, s32, 8);
	un = btf__add_union(b, NULL, 4);
	btf__add_field(b, "a", s32, 0, 0);
	btf__add_field(b, "alias", u32, 0, 0);
	foo = btf__add_struct(b, "foo", 88);
	btf__add_field(b, "pad", s64, 0, 0);
	btf__add_field(b, NULL, un, 64, 0);
	btf__add_field(b, "c", u16, 96, 3);
	btf__add_field(b, "d", u16, 99, 9);
	btf__add_field(b, "b", s32, 128, 0);
	btf__add_field(b, "p", pbar, 192, 0);
	btf__add_field(b, "arr", arr8, 256, 0);
	btf__add_field(b, "u", u64, 512, 0);
	(void)foo;
	btf__add_enum(b, "e", 4);
	btf__add_enum_value(b, "E_TWO", 20);
	btf__add_enum_value(b, "E_ONE", 10);
	btf__add_struct(b, "dup___a", 4);
	btf__add_field(b, "v", s32, 0, 0);
	btf__add_struct(b, "dup___b", 16);
	btf__add_field(b, "w", s64, 0, 0);
	btf__add_field(b, "v", s32, 64, 0);
	return b;
}

/* rc_core_decide on a view of @local as it is now (strings were added) */
static int decide(const struct btf *local, const struct rc_target *tgt,
		  const struct rc_relo *relo, struct rc_decision *d)
{
	struct rc_btf *v = rc_btf_wrap(local);
	int ret = v ? rc_core_decide(v, tgt, relo, d) : -ENOMEM;

	rc_btf_free(v);
	return ret;
}

struct row {
	const char *name;
	int *type;		/* local type id */
	const char *access;
	enum rc_relo_kind kind;
	enum rc_outcome outcome;
	unsigned long long orig, val;
};

static void run_row(struct btf *local, const struct rc_target *tgt,
		    const struct row *r)
{
	const char *row = r->name;
	struct rc_relo relo = { 0, *r->type, 0, r->kind };
	struct rc_decision d;
	int off = btf__add_str(local, r->access);

	EXPECT(off > 0, "cannot add access string");
	relo.access_str_off = off;
	EXPECT(decide(local, tgt, &relo, &d) == 0, "decide failed");
	EXPECT(d.outcome == r->outcome, "outcome %d, want %d (%s)", d.outcome,
	       r->outcome, d.reason);
	if (r->outcome == RC_OK) {
		EXPECT(d.orig_val == r->orig, "orig %llu, want %llu",
		       (unsigned long long)d.orig_val, r->orig);
		EXPECT(d.new_val == r->val, "new %llu, want %llu",
		       (unsigned long long)d.new_val, r->val);
	}
	pass_row(row);
}

/* A load of foo.u (u32 -> u64 in the target): offset and size change. */
static void test_patch_ldx(struct btf *local, const struct rc_target *tgt, struct ids *id)
{
	const char *row = "patch/ldx-resize";
	struct rc_relo relo = { 0, id->foo, btf__add_str(local, "0:6"), RC_FIELD_BYTE_OFFSET };
	struct bpf_insn insn = { .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = 1,
				 .src_reg = 2, .off = 40 };
	struct rc_decision d;
	char err[256] = "";

	EXPECT(decide(local, tgt, &relo, &d) == 0 && d.outcome == RC_OK, "decide");
	EXPECT(rc_core_patch(&insn, 1, 0, &d, err, sizeof(err)) == 0, "patch: %s", err);
	EXPECT(insn.off == 64, "off %d", insn.off);
	EXPECT(insn.code == (BPF_LDX | BPF_MEM | BPF_DW), "code 0x%x", insn.code);
	pass_row(row);
}

/* A poisoned relocation turns the insn into libbpf's "call 0xbad2310". */
static void test_patch_poison(struct btf *local, const struct rc_target *tgt, struct ids *id)
{
	const char *row = "patch/poison-ldimm64";
	struct rc_relo relo = { 0, id->e, btf__add_str(local, "2"), RC_ENUMVAL_VALUE };
	struct bpf_insn insn[2] = { { .code = BPF_LD | BPF_IMM | BPF_DW, .imm = 3 }, { 0 } };
	struct rc_decision d;
	char err[256] = "";

	EXPECT(decide(local, tgt, &relo, &d) == 0 && d.outcome == RC_POISON, "decide");
	EXPECT(rc_core_patch(insn, 2, 0, &d, err, sizeof(err)) == 0, "patch: %s", err);
	EXPECT(insn[0].code == (BPF_JMP | BPF_CALL) && insn[0].imm == 0xbad2310 &&
	       insn[1].code == (BPF_JMP | BPF_CALL), "not poisoned");
	pass_row(row);
}

/* The instruction must hold the compiler's value, else it is refused. */
static void test_patch_validate(struct btf *local, const struct rc_target *tgt, struct ids *id)
{
	const char *row = "patch/validate-mismatch";
	struct rc_relo relo = { 0, id->foo, btf__add_str(local, "0:1"), RC_FIELD_BYTE_OFFSET };
	struct bpf_insn insn = { .code = BPF_ALU64 | BPF_ADD | BPF_K, .imm = 99 };
	struct rc_decision d;
	char err[256] = "";

	EXPECT(decide(local, tgt, &relo, &d) == 0, "decide");
	EXPECT(rc_core_patch(&insn, 1, 0, &d, err, sizeof(err)) < 0, "accepted imm 99");
	EXPECT(strstr(err, "expects 4"), "message: %s", err);
	pass_row(row);
}

/* Candidates are narrowed: after foo.a matched, foo's list is that one. */
static void test_ambiguous(struct btf *local, const struct rc_target *tgt)
{
	const char *row = "ambiguous-candidates";
	int s32 = btf__find_by_name(local, "int");
	int dup = btf__add_struct(local, "dup", 4);
	struct rc_relo relo;
	struct rc_decision d;

	btf__add_field(local, "v", s32, 0, 0);
	relo = (struct rc_relo){ 0, dup, btf__add_str(local, "0:0"), RC_FIELD_BYTE_OFFSET };
	EXPECT(decide(local, tgt, &relo, &d) == 0, "decide");
	EXPECT(d.outcome == RC_ERROR && strstr(d.reason, "ambiguous"),
	       "outcome %d: %s", d.outcome, d.reason);
	pass_row(row);
}

static void test_bad_access(struct btf *local, const struct rc_target *tgt, struct ids *id)
{
	static const char *const bad[] = { "", ":1", "0:x", "0:1:", "0:99", "0:0:0", "1" };
	const char *row = "bad-access-strings";
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rc_relo relo = { 0, id->foo, btf__add_str(local, bad[i]),
					i == 6 ? RC_TYPE_SIZE : RC_FIELD_BYTE_OFFSET };
		struct rc_decision d;

		if (!bad[i][0])
			relo.access_str_off = 0;
		EXPECT(decide(local, tgt, &relo, &d) == 0, "decide");
		EXPECT(d.outcome == RC_ERROR, "'%s' accepted", bad[i]);
	}
	pass_row(row);
}

/* Essential names (libbpf's flavor rule: the last "___" between two
 * non-'_' characters ends it), and the one-pass hash the candidate index
 * uses: it must equal rc_name_hash of that prefix. */
static void test_essential_hash(void)
{
	static const struct { const char *name; size_t len; } rows[] = {
		{ "task_struct", 11 }, { "task_struct___old", 11 }, { "a___b___c", 5 },
		{ "___x", 4 }, { "x___", 4 }, { "x____y", 6 }, { "x___y_", 1 },
		{ "__", 2 }, { "", 0 }, { "a___", 4 }, { "a___b", 1 }, { "a____b", 6 },
		{ "_a___b", 2 }, { "a___b____", 1 }, { "a___bc___d", 6 },
		{ "a_b__c___d", 6 }, { "a___b___", 1 }, { "a___b___c_", 5 },
		{ "abcdef___g", 6 }, { "abcdefg___h", 7 }, { "abcdefgh___i", 8 },
		{ "abcde___fgh", 5 }, { "ab__", 4 }, { "__u32", 5 }, { "abcdefg_", 8 },
		{ "abcdef__", 8 }, { "abcdefghij", 10 }, { "abcdefg", 7 },
	};
	size_t i, len, want;
	int bad = 0;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *n = rows[i].name;
		uint32_t h = rc_essential_name_hash(n, &len);

		want = rows[i].len;
		if (len != want || rc_essential_name_len(n) != want ||
		    h != rc_name_hash(n, want)) {
			fail_row("essential-name-hash", "'%s': len %zu/%zu (want %zu), hash %08x (want %08x)",
				 n, len, rc_essential_name_len(n), want, h, rc_name_hash(n, want));
			bad = 1;
		}
		/* the index's key: from one load (room after the name) or exactly
		 * (the name at the end of its section), the key of its essential name */
		char padded[32] = { 0 };

		memcpy(padded, n, strlen(n));
		if (rc_name_key(padded, sizeof(padded)) != rc_name_key_len(n, want) ||
		    rc_name_key(n, strlen(n) + 1) != rc_name_key_len(n, want)) {
			fail_row("essential-name-hash", "'%s': index key differs from its essential name's", n);
			bad = 1;
		}
	}
	if (!bad)
		pass_row("essential-name-hash");
}

/*
 * A target read raw and not trusted (rc_target_open_mem): the layout is
 * checked when it is opened, each type when a decision first reads it
 * (the decision is then an error naming it; one that reads only sound
 * types is not affected), every type at once by rc_target_check - which
 * names the first malformed type in id order, whether a common kind
 * (checked in one word over the walk) or a rare one is wrong.
 *   [1] int  [2] ptr -> 1  [3] struct s { int a; }  [4] int (int x)  [5] func f -> 4
 * The decision: the byte offset of s.a, from a local struct s { int a; }.
 */
static void test_target_checks(void)
{
	/* byte offsets of fields in the type section */
	enum { INT_ENC = 12, PTR_TYPE = 16 + 8, MEM_NAME = 28 + 12, MEM_TYPE = 28 + 16,
	       PARAM_TYPE = 52 + 16, FUNC_TYPE = 72 + 8, END = 84 };
	static const struct {
		const char *row;
		int off1;		/* a u32 of the type section to set, -1: none */
		uint32_t v1;
		int off2;
		uint32_t v2;
		int cut;		/* bytes cut off the type section's end */
		const char *want;	/* in the message; NULL: sound */
		bool decided;		/* the decision reads no malformed type */
		const char *dwant;	/* else its error names the first it read */
	} rows[] = {
		{ "valid", -1, 0, -1, 0, 0, NULL, true },
		{ "member-type-out-of-range", MEM_TYPE, 999, -1, 0, 0, "type [3]: refers to type id 999, out of range", false },
		{ "member-name-outside-strings", MEM_NAME, 1u << 30, -1, 0, 0, "type [3]: name offset", false },
		{ "member-void", MEM_TYPE, 0, -1, 0, 0, "type [3]: refers to void", false },
		{ "func-void", FUNC_TYPE, 0, -1, 0, 0, "type [5]: refers to void", true },
		{ "ptr-out-of-range", PTR_TYPE, 6, -1, 0, 0, "type [2]: refers to type id 6", true },
		{ "param-out-of-range", PARAM_TYPE, 77, -1, 0, 0, "type [4]: refers to type id 77", true },
		{ "int-bits", INT_ENC, 200, -1, 0, 0, "type [1]: int of 200 bits", false },
		/* two wrong: the first in id order is named */
		{ "first-of-rare-and-common", INT_ENC, 200, MEM_TYPE, 999, 0, "type [1]: int of 200 bits", false,
		  "type [3]: refers to type id 999" },
		{ "first-of-common-and-rare", FUNC_TYPE, 0, INT_ENC, 200, 0, "type [1]: int of 200 bits", false },
		{ "first-of-two-common", PTR_TYPE, 9, PARAM_TYPE, 999, 0, "type [2]: refers to type id 9", true },
		/* the layout: refused when opened */
		{ "truncated", -1, 0, -1, 0, 4, "type [5]: record truncated", false },
	};
	struct btf *b = btf__new_empty(), *lb = btf__new_empty();
	struct rc_relo relo = { 0, 0, 0, RC_FIELD_BYTE_OFFSET };
	struct rc_btf *local = NULL;
	const unsigned char *raw;
	uint32_t sz, i, hdr;
	int s, fp;

	btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	btf__add_ptr(b, 1);
	s = btf__add_struct(b, "s", 4);
	btf__add_field(b, "a", 1, 0, 0);
	fp = btf__add_func_proto(b, 1);
	btf__add_func_param(b, "x", 1);
	btf__add_func(b, "f", BTF_FUNC_GLOBAL, fp);
	raw = btf__raw_data(b, &sz);
	hdr = raw ? ((const struct btf_header *)raw)->hdr_len : 0;
	btf__add_int(lb, "int", 4, BTF_INT_SIGNED);
	relo.type_id = btf__add_struct(lb, "s", 4);
	btf__add_field(lb, "a", 1, 0, 0);
	relo.access_str_off = btf__add_str(lb, "0:0");
	local = rc_btf_wrap(lb);
	if (!raw || s != 3 || ((const struct btf_header *)raw)->type_len != END || !local) {
		fail_row("target-checks/setup", "unexpected BTF layout");
		goto out;
	}
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char row[80];
		unsigned char *d = malloc(sz);
		struct btf_header *h = (struct btf_header *)d;
		struct rc_error err = { "" };
		struct rc_decision dec;
		struct rc_target *t;

		snprintf(row, sizeof(row), "target-checks/%s", rows[i].row);
		memcpy(d, raw, sz);
		if (rows[i].off1 >= 0)
			memcpy(d + hdr + rows[i].off1, &rows[i].v1, 4);
		if (rows[i].off2 >= 0)
			memcpy(d + hdr + rows[i].off2, &rows[i].v2, 4);
		h->type_len -= rows[i].cut;
		t = rc_target_open_mem(d, sz, "t.btf", &err);
		if (rows[i].cut) {	/* the layout */
			if (t)
				fail_row(row, "opened; wanted \"%s\"", rows[i].want);
			else if (!strstr(err.msg, rows[i].want))
				fail_row(row, "\"%s\"; wanted \"%s\"", err.msg, rows[i].want);
			else
				pass_row(row);
			free(d);
			continue;
		}
		if (!t) {
			fail_row(row, "refused when opened: %s", err.msg);
		} else if (rc_core_decide(local, t, &relo, &dec)) {
			fail_row(row, "decide failed");
		} else if (rows[i].decided && (dec.outcome != RC_OK || dec.new_val != 0)) {
			fail_row(row, "decision %d (%s), wanted s.a at 0", dec.outcome, dec.reason);
		} else if (!rows[i].decided && (dec.outcome != RC_ERROR ||
						!strstr(dec.reason, rows[i].dwant ?: rows[i].want))) {
			fail_row(row, "decision %d \"%s\"; wanted an error \"%s\"", dec.outcome,
				 dec.reason, rows[i].dwant ?: rows[i].want);
		} else if (!rows[i].want && rc_target_check(t, &err)) {
			fail_row(row, "rc_target_check: %s", err.msg);
		} else if (rows[i].want && !rc_target_check(t, &err)) {
			fail_row(row, "rc_target_check passed; wanted \"%s\"", rows[i].want);
		} else if (rows[i].want && !strstr(err.msg, rows[i].want)) {
			fail_row(row, "rc_target_check: \"%s\"; wanted \"%s\"", err.msg, rows[i].want);
		} else {
			pass_row(row);
		}
		rc_target_free(t);
		free(d);
	}
out:
	rc_btf_free(local);
	btf__free(lb);
	btf__free(b);
}

/*
 * An enum of size 0: clang's form of a forward-declared `enum x;` (vmlinux.h
 * has them, in function pointers' prototypes) is one with no values, which
 * libbpf opens; one with values is refused.
 */
static void test_enum_fwd(void)
{
	static const struct {
		const char *row;
		bool is64, value, ok;
	} rows[] = {
		{ "enum-fwd/enum", false, false, true },
		{ "enum-fwd/enum64", true, false, true },
		{ "enum-fwd/enum-with-value", false, true, false },
		{ "enum-fwd/enum64-with-value", true, true, false },
	};
	uint32_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct btf *b = btf__new_empty();
		struct rc_error err = { "" };
		int walk;

		btf__add_int(b, "int", 4, BTF_INT_SIGNED);
		if (rows[i].is64)
			btf__add_enum64(b, "e", 8, false);
		else
			btf__add_enum(b, "e", 4);
		if (rows[i].value && rows[i].is64)
			btf__add_enum64_value(b, "E", 1);
		else if (rows[i].value)
			btf__add_enum_value(b, "E", 1);
		/* libbpf's btf__add_enum refuses size 0: made by hand */
		if (btf__type_cnt(b) == 3)
			((struct btf_type *)btf__type_by_id(b, 2))->size = 0;
		walk = rc_btf_validate(b, "t.btf", &err);
		if (btf__type_cnt(b) != 3)
			fail_row(rows[i].row, "libbpf did not add the enum");
		else if (rows[i].ok && walk)
			fail_row(rows[i].row, "refused: \"%s\"", err.msg);
		else if (!rows[i].ok && !walk)
			fail_row(rows[i].row, "accepted; wanted \"of size 0\"");
		else if (!rows[i].ok && !strstr(err.msg, "type [2]: enum"))
			fail_row(rows[i].row, "\"%s\"; wanted \"type [2]: enum... of size 0\"", err.msg);
		else
			pass_row(rows[i].row);
		btf__free(b);
	}
}

/*
 * A VAR of type void (id 0): only an extern may be one - a typeless __ksym
 * (`extern void sym __ksym;`), which libbpf opens - by the walk that
 * validates a whole BTF (rc_btf_validate) and by a raw target's check.
 */
static void test_var_void(void)
{
	static const struct {
		const char *row;
		int linkage;
		bool ok;
	} rows[] = {
		{ "var-void/extern", BTF_VAR_GLOBAL_EXTERN, true },
		{ "var-void/static", BTF_VAR_STATIC, false },
		{ "var-void/global", BTF_VAR_GLOBAL_ALLOCATED, false },
	};
	uint32_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct btf *b = btf__new_empty();
		struct rc_error err = { "" }, terr = { "" };
		const void *raw;
		uint32_t sz;
		struct rc_target *t;
		int walk, tgt = -1;

		btf__add_int(b, "int", 4, BTF_INT_SIGNED);
		btf__add_var(b, "sym", rows[i].linkage, 0);
		walk = rc_btf_validate(b, "t.btf", &err);
		raw = btf__raw_data(b, &sz);
		t = raw ? rc_target_open_mem(raw, sz, "t.btf", &terr) : NULL;
		if (t)
			tgt = rc_target_check(t, &terr);
		if (!t && !raw)
			fail_row(rows[i].row, "no raw BTF");
		else if (rows[i].ok && (walk || tgt))
			fail_row(rows[i].row, "refused: \"%s\" / \"%s\"", err.msg, terr.msg);
		else if (!rows[i].ok && (!walk || (t && !tgt)))
			fail_row(rows[i].row, "accepted; wanted \"refers to void\"");
		else if (!rows[i].ok && (!strstr(err.msg, "type [2]: refers to void") ||
					 (t && !strstr(terr.msg, "type [2]: refers to void"))))
			fail_row(rows[i].row, "\"%s\" / \"%s\"; wanted \"type [2]: refers to void\"", err.msg, terr.msg);
		else
			pass_row(rows[i].row);
		rc_target_free(t);
		btf__free(b);
	}
}

int main(void)
{
	struct ids id;
	struct btf *local, *target;
	struct rc_target *tgt;
	size_t i;

	libbpf_set_print(NULL);
	local = build_local(&id);
	target = build_target();
	tgt = rc_target_from_btf(target);
	if (!local || !target || !tgt) {
		printf("FAIL: unit/setup: cannot build BTF\n");
		return 1;
	}

	const struct row rows[] = {
		{ "byte_off/through-anon-union", &id.foo, "0:0", RC_FIELD_BYTE_OFFSET, RC_OK, 0, 8 },
		{ "byte_off/moved", &id.foo, "0:1", RC_FIELD_BYTE_OFFSET, RC_OK, 4, 16 },
		{ "byte_off/array-elem", &id.foo, "0:5:2", RC_FIELD_BYTE_OFFSET, RC_OK, 32, 40 },
		{ "byte_off/root-index", &id.foo, "1:1", RC_FIELD_BYTE_OFFSET, RC_OK, 52, 104 },
		{ "byte_off/bitfield", &id.foo, "0:3", RC_FIELD_BYTE_OFFSET, RC_OK, 8, 12 },
		{ "byte_off/flavor", &id.foo_v2, "0:0", RC_FIELD_BYTE_OFFSET, RC_OK, 0, 16 },
		{ "byte_off/missing-field-poisons", &id.foo_v2, "0:1", RC_FIELD_BYTE_OFFSET, RC_POISON, 0, 0 },
		{ "byte_sz/int", &id.foo, "0:1", RC_FIELD_BYTE_SIZE, RC_OK, 4, 4 },
		{ "byte_sz/array", &id.foo, "0:5", RC_FIELD_BYTE_SIZE, RC_OK, 16, 32 },
		{ "byte_sz/bitfield-load", &id.foo, "0:3", RC_FIELD_BYTE_SIZE, RC_OK, 4, 2 },
		{ "field_exists/yes", &id.foo, "0:4", RC_FIELD_EXISTS, RC_OK, 1, 1 },
		{ "field_exists/no", &id.foo_v2, "0:1", RC_FIELD_EXISTS, RC_OK, 1, 0 },
		{ "signed/int", &id.foo, "0:0", RC_FIELD_SIGNED, RC_OK, 1, 1 },
		{ "signed/unsigned", &id.foo, "0:6", RC_FIELD_SIGNED, RC_OK, 0, 0 },
		{ "lshift_u64/bitfield", &id.foo, "0:3", RC_FIELD_LSHIFT_U64, RC_OK, 56, 52 },
		{ "rshift_u64/bitfield", &id.foo, "0:3", RC_FIELD_RSHIFT_U64, RC_OK, 59, 55 },
		{ "lshift_u64/plain", &id.foo, "0:1", RC_FIELD_LSHIFT_U64, RC_OK, 32, 32 },
		{ "type_id_local", &id.foo, "0", RC_TYPE_ID_LOCAL, RC_OK, id.foo, id.foo },
		{ "type_id_target", &id.foo, "0", RC_TYPE_ID_TARGET, RC_OK, id.foo,
		  btf__find_by_name_kind(target, "foo", BTF_KIND_STRUCT) },
		{ "type_exists/yes", &id.bar, "0", RC_TYPE_EXISTS, RC_OK, 1, 1 },
		{ "type_exists/no", &id.fp, "0", RC_TYPE_EXISTS, RC_OK, 1, 0 },
		{ "type_size", &id.foo, "0", RC_TYPE_SIZE, RC_OK, 48, 88 },
		{ "type_size/flavor", &id.foo_v2, "0", RC_TYPE_SIZE, RC_OK, 8, 88 },
		{ "type_matches/superset", &id.bar, "0", RC_TYPE_MATCHES, RC_OK, 1, 1 },
		{ "type_matches/missing-member", &id.foo_v2, "0", RC_TYPE_MATCHES, RC_OK, 1, 0 },
		{ "enumval_exists/yes", &id.e, "1", RC_ENUMVAL_EXISTS, RC_OK, 1, 1 },
		{ "enumval_exists/no", &id.e, "2", RC_ENUMVAL_EXISTS, RC_OK, 1, 0 },
		{ "enumval_value", &id.e, "1", RC_ENUMVAL_VALUE, RC_OK, 2, 20 },
		{ "enumval_value/missing-poisons", &id.e, "2", RC_ENUMVAL_VALUE, RC_POISON, 0, 0 },
	};
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		run_row(local, tgt, &rows[i]);
	test_patch_ldx(local, tgt, &id);
	test_patch_poison(local, tgt, &id);
	test_patch_validate(local, tgt, &id);
	test_bad_access(local, tgt, &id);
	test_ambiguous(local, tgt);
	test_essential_hash();
	test_target_checks();
	test_var_void();
	test_enum_fwd();

	rc_target_free(tgt);
	btf__free(target);
	btf__free(local);
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
