// SPDX-License-Identifier: MIT
/*
 * fuzz_object.c - libFuzzer target over relocore's readers and engine.
 *
 * One input is either
 *   - an ELF object ("\177ELF..."): relocated against a fixed target BTF,
 *     read once at start-up from $RELOCORE_FUZZ_TARGET (raw BTF or an ELF
 *     file with .BTF; default: RC_FUZZ_TARGET_DEFAULT, set at build time);
 *   - anything else: a pair "LEN(4 bytes, little-endian) TARGET OBJECT",
 *     TARGET being LEN bytes of raw BTF, so that the target BTF is fuzzed
 *     too.  It is parsed with btf__new, checked with rc_btf_validate and
 *     wrapped with rc_target_from_btf, and read in place (rc_target_open_mem:
 *     its types checked as read; rc_target_check must agree with
 *     rc_btf_validate, and a malformed target is relocated against too).
 *   - when LEN has its top bit set: "LEN TARGET MLEN MODULE OBJECT": the
 *     target is written to a file and opened with rc_target_open, MODULE
 *     (MLEN bytes of raw BTF split over it) added with rc_target_add_module.
 *
 * Per input: rc_embedded_find (objects inside binaries) and the objects it
 * finds, rc_object_open_mem (ELF, .BTF, .BTF.ext readers),
 * rc_core_decide on every record, rc_object_relocate (candidates,
 * matching, calculation, patching), rc_spec_format of every spec,
 * rc_object_write into a private temporary directory, and a re-open of
 * what was written; rc_object_bake_kconfig (a fixed config, and the input
 * as config text) and a relocation of the baked object.  Invariants that must hold for any input abort.
 *
 * Build (test/fuzz/smoke.sh does it):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iloader -Icheck \
 *       loader/[*].c check/[*].c test/fuzz/fuzz_object.c -lbpf -lelf -lz
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "relocore.h"
#include "relocore_private.h"	/* the trusted reader: rc_btf_from_raw + rc_btf_walk */

#ifndef RC_FUZZ_TARGET_DEFAULT
#define RC_FUZZ_TARGET_DEFAULT "build/fuzz/target.o"
#endif

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz_object: invariant failed: %s (%s:%d)\n", \
				#cond, __FILE__, __LINE__);		\
			abort();					\
		}							\
	} while (0)

static struct rc_target *fixed_target;
static char out_dir[4096], out_path[4200], targ_path[4200], mod_path[4200];

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static void cleanup(void)
{
	if (out_path[0]) {
		unlink(out_path);
		unlink(targ_path);
		unlink(mod_path);
	}
	if (out_dir[0])
		rmdir(out_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("RELOCORE_FUZZ_TARGET");
	const char *tmp = getenv("TMPDIR");
	struct rc_error err = { "" };

	libbpf_set_print(quiet);
	if (!path || !*path)
		path = RC_FUZZ_TARGET_DEFAULT;
	fixed_target = rc_target_open(path, NULL, &err);
	if (!fixed_target) {
		fprintf(stderr, "fuzz_object: fixed target: %s\n"
			"  (set RELOCORE_FUZZ_TARGET to a raw BTF or ELF file with .BTF)\n",
			err.msg);
		exit(1);
	}
	/* outputs go to tmpfs when there is one: each input writes one */
	if (!tmp || !*tmp)
		tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(out_dir, sizeof(out_dir), "%s/relocore-fuzz.XXXXXX", tmp);
	if (!mkdtemp(out_dir)) {
		perror("fuzz_object: mkdtemp");
		exit(1);
	}
	snprintf(out_path, sizeof(out_path), "%s/out.o", out_dir);
	snprintf(targ_path, sizeof(targ_path), "%s/target.btf", out_dir);
	snprintf(mod_path, sizeof(mod_path), "%s/module.btf", out_dir);
	atexit(cleanup);
	return 0;
}

/*
 * The reader of trusted BTF (the running kernel's: indexed, not checked)
 * on the same bytes: the same types at the same places, and on any bytes
 * no read outside them.
 */
static void trusted_same(const void *data, size_t len, const struct rc_btf *checked)
{
	struct rc_error err = { "" };
	struct rc_btf *b = rc_btf_from_raw(data, len, NULL, NULL, &err);
	uint32_t id;

	if (!b)
		return;
	if (!rc_btf_walk(b, NULL, &err, ~0u, false, NULL, NULL) && checked) {
		CHECK(rc_btf_type_cnt(b) == rc_btf_type_cnt(checked));
		for (id = 0; id < rc_btf_type_cnt(b); id++)
			CHECK(!memcmp(rc_btf_type_by_id(b, id), rc_btf_type_by_id(checked, id),
				      sizeof(struct btf_type)));
	}
	rc_btf_free(b);
}

/* rc_spec_format into buffers of several sizes: always terminated. */
static void format_spec(const struct rc_spec *spec)
{
	static const size_t sizes[] = { 1, 2, 9, 64, 512 };
	char buf[512];
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(buf, 'X', sizeof(buf));
		rc_spec_format(spec, buf, sizes[i]);
		CHECK(memchr(buf, 0, sizes[i]) != NULL);
	}
	CHECK(rc_spec_format(spec, buf, 0) == 0);
}

static void check_result(const struct rc_result *r, const struct rc_btf *local)
{
	const char *k = rc_relo_kind_str(r->relo.kind);

	CHECK(k && *k);
	CHECK(r->section && r->access);
	CHECK(memchr(r->d.reason, 0, sizeof(r->d.reason)));
	CHECK(memchr(r->patch_err, 0, sizeof(r->patch_err)));
	CHECK(r->d.outcome == RC_OK || r->d.outcome == RC_POISON ||
	      r->d.outcome == RC_ERROR);
	format_spec(&r->d.local);
	if (r->d.targ_type_id) {
		CHECK(r->d.targ_btf);
		CHECK(r->d.targ_type_id < rc_btf_type_cnt(r->d.targ_btf));
		CHECK(r->d.targ.btf == r->d.targ_btf);
		format_spec(&r->d.targ);
	}
	CHECK(r->d.local.btf == local);
}

/* The public one-shot API: decide every record without the cache. */
static void decide_each(const struct rc_btf *local, const struct rc_target *t,
			const struct rc_result *res, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct rc_decision d;

		if (rc_core_decide(local, t, &res[i].relo, &d) == 0) {
			CHECK(memchr(d.reason, 0, sizeof(d.reason)));
			format_spec(&d.local);
			if (d.targ_type_id)
				format_spec(&d.targ);
		}
	}
}

/* What rc_object_write wrote is rc_object_image, byte for byte. */
static void check_image(const struct rc_object *obj, const char *path)
{
	size_t size, got;
	unsigned char *img = rc_object_image(obj, &size), *buf;
	FILE *f;

	if (!img)
		return;
	buf = malloc(size + 1);
	f = fopen(path, "rb");
	CHECK(buf && f);
	got = fread(buf, 1, size + 1, f);
	fclose(f);
	CHECK(got == size && !memcmp(buf, img, size));
	free(buf);
	free(img);
}

/* A kernel config with every value form the baker reads. */
static const char kconfig_text[] =
	"CONFIG_BPF_SYSCALL=y\nCONFIG_HZ=250\nCONFIG_NF_CONNTRACK=m\n"
	"# CONFIG_PREEMPT_RT is not set\nCONFIG_LOCALVERSION=\"-x\\\"y\"\n"
	"CONFIG_NEG=-5\nCONFIG_HEX=0x7fff0000aa\nCONFIG_TRI_CHAR=m\n";

/* .kconfig baking (relocore reloc --kernel-release): with a fixed config,
 * and with the input itself as the config text; a baked object must open
 * and relocate like any other. */
static void bake(const struct rc_object *obj, const uint8_t *data, size_t size,
		 const struct rc_target *t)
{
	struct rc_kconfig kc[2] = {
		{ "6.1.0-27-cloud-amd64", kconfig_text, sizeof(kconfig_text) - 1 },
		{ "5.300.7", (const char *)data, size },
	};
	int i, n;

	for (i = 0; i < 2; i++) {
		struct rc_error err = { "" };
		struct rc_object *b = rc_object_bake_kconfig(obj, &kc[i], t, &n, &err);

		if (!b) {
			CHECK(err.msg[0] && memchr(err.msg, 0, sizeof(err.msg)));
			continue;
		}
		CHECK(n >= 0);
		CHECK(!n || btf__find_by_name_kind(rc_object_btf(b), ".rodata.kconfig",
						   BTF_KIND_DATASEC) > 0);
		CHECK(rc_object_relo_count(b) == rc_object_relo_count(obj));
		rc_object_relocate(b, t, NULL, &err);
		rc_object_free(b);
	}
}

/* The finder of objects embedded in a binary: every object it reports lies
 * inside the input, starts with a BPF ELF header, follows the one before it,
 * has a unique name; the ones not at offset 0 are opened (and freed). */
static void embedded(const uint8_t *data, size_t size)
{
	struct rc_error err = { "" };
	struct rc_embedded *v = NULL;
	size_t n = 0, i, j;

	if (rc_embedded_find(data, size, "fuzz.bin", &v, &n, &err)) {
		CHECK(err.msg[0] && memchr(err.msg, 0, sizeof(err.msg)));
		CHECK(!v && !n);
		return;
	}
	for (i = 0; i < n; i++) {
		struct rc_object *o;

		CHECK(v[i].index == i);
		CHECK(v[i].offset < size && v[i].size <= size - v[i].offset);
		CHECK(rc_embedded_is_bpf_header(data + v[i].offset, size - v[i].offset));
		CHECK(!i || v[i].offset >= v[i - 1].offset + v[i - 1].size);
		CHECK(v[i].name[0] && memchr(v[i].name, 0, sizeof(v[i].name)));
		CHECK(v[i].origin);
		for (j = 0; j < i; j++)
			CHECK(strcmp(v[i].name, v[j].name));
		CHECK(rc_embedded_select(v, n, v[i].name) == (int)i);
		if (v[i].offset && i < 4) {
			o = rc_object_open_mem(data + v[i].offset, v[i].size, "fuzz.emb", &err);
			rc_object_free(o);
		}
	}
	free(v);
}

/* relocore check walks every program of the object: on any input it
 * answers or says why not, and each answer is whole */
static void check_object(const struct rc_object *obj, const struct rc_target *t)
{
	static const char *const names[] = { "x", "y" };
	static const char *const targets[] = { "x=a,b", "y=c" };
	struct rc_check_opts o = { sizeof(o), .no_autoload = names, .nr_no_autoload = 1,
				   .attach_target = targets, .nr_attach_target = 2,
				   .optional = names + 1, .nr_optional = 1,
				   .sized_maps = names, .nr_sized_maps = 2,
				   .user_attached = names, .nr_user_attached = 2,
				   .pick_alternatives = true, .no_kernel_btf = false };
	struct rc_error err = { "" };
	struct rc_check *r;
	int i, j, pass;

	for (pass = 0; pass < 2; pass++) {
		r = rc_check_object_opts(obj, t, NULL, pass ? &o : NULL, &err);
		if (!r) {
			CHECK(err.msg[0] && memchr(err.msg, 0, sizeof(err.msg)));
			continue;
		}
		for (i = 0; i < r->nr_progs; i++) {
			CHECK(r->progs[i].name && r->progs[i].section);
			CHECK(r->progs[i].ok == !r->progs[i].nr_problems);
			for (j = 0; j < r->progs[i].nr_problems; j++)
				CHECK(memchr(r->progs[i].problems[j].detail, 0,
					     sizeof(r->progs[i].problems[j].detail)) &&
				      rc_check_kind_str(r->progs[i].problems[j].kind));
		}
		rc_check_free(r);
		o.no_kernel_btf = true;
	}
}

static void run(const uint8_t *data, size_t size, const struct rc_target *t)
{
	struct rc_error err = { "" };
	const struct rc_result *res = NULL;
	const struct rc_btf *local;
	struct rc_object *obj, *again;
	size_t i, n;
	int ret;

	embedded(data, size);
	obj = rc_object_open_mem(data, size, "fuzz.o", &err);
	if (!obj) {
		CHECK(err.msg[0] && memchr(err.msg, 0, sizeof(err.msg)));
		return;
	}
	bake(obj, data, size, t);
	check_object(obj, t);
	local = rc_object_types(obj);
	n = rc_object_relo_count(obj);
	CHECK(!n || local);
	CHECK(!strcmp(rc_object_name(obj), "fuzz.o"));

	ret = rc_object_relocate(obj, t, &res, &err);
	CHECK(!n || res);
	decide_each(local, t, res, n);
	for (i = 0; i < n; i++)
		check_result(&res[i], local);
	if (ret == 0) {
		/* success means every record was applied */
		for (i = 0; i < n; i++)
			CHECK(res[i].d.outcome != RC_ERROR && !res[i].patch_err[0]);
		/* a second relocation is refused */
		if (n)
			CHECK(rc_object_relocate(obj, t, NULL, &err) != 0);
	} else {
		CHECK(err.msg[0]);
	}

	/* written output, relocated or not, must read back without crashing */
	err.msg[0] = 0;
	if (rc_object_write(obj, out_path, &err) == 0) {
		check_image(obj, out_path);
		again = rc_object_open(out_path, &err);
		if (again) {
			rc_object_relocate(again, t, NULL, &err);
			rc_object_free(again);
		}
		unlink(out_path);
	}
	rc_object_free(obj);
}

static bool write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	bool ok;

	if (!f)
		return false;
	ok = fwrite(data, 1, size, f) == size;
	return !fclose(f) && ok;
}

/* "TARGET MLEN MODULE OBJECT": a target file plus a module BTF file. */
static void run_files(const uint8_t *targ, size_t tlen, const uint8_t *data,
		      size_t size)
{
	struct rc_error err = { "" };
	struct rc_target *t;
	uint32_t mlen;

	if (size < 4)
		return;
	memcpy(&mlen, data, 4);
	data += 4;
	size -= 4;
	if (mlen > size || !write_file(targ_path, targ, tlen) ||
	    !write_file(mod_path, data, mlen))
		return;
	t = rc_target_open(targ_path, NULL, &err);
	if (!t) {
		CHECK(err.msg[0]);
		return;
	}
	if (rc_target_add_module(t, mod_path, &err) == 0)
		run(data + mlen, size - mlen, t);
	else
		CHECK(err.msg[0]);
	rc_target_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rc_error err = { "" };
	struct rc_target *t;
	struct btf *tbtf;
	uint32_t len;

	if (size >= 4 && !memcmp(data, "\177ELF", 4)) {
		run(data, size, fixed_target);
		return 0;
	}

	/* "LEN TARGET OBJECT": fuzz the target BTF as well */
	if (size < 4)
		return 0;
	memcpy(&len, data, 4);
	data += 4;
	size -= 4;
	if (len & 0x80000000u) {
		len &= ~0x80000000u;
		if (len <= size)
			run_files(data, len, data + len, size - len);
		return 0;
	}
	if (len > size)
		return 0;
	tbtf = btf__new(data, len);
	if (!tbtf) {
		trusted_same(data, len, NULL);
		return 0;
	}
	if (rc_btf_validate(tbtf, "fuzz-target.btf", &err) == 0) {
		t = rc_target_from_btf(tbtf);
		if (t) {
			CHECK(rc_btf_type_cnt(rc_target_types(t)) == btf__type_cnt(tbtf));
			run(data + len, size - len, t);
			rc_target_free(t);
		}
		/* the same bytes read in place, as a target file is */
		t = rc_target_open_mem(data, len, "fuzz-target.btf", &err);
		CHECK(t || err.msg[0]);
		if (t) {
			CHECK(rc_btf_type_cnt(rc_target_types(t)) == btf__type_cnt(tbtf));
			trusted_same(data, len, rc_target_types(t));
			run(data + len, size - len, t);
			/* checked type by type as read: all of them pass too */
			CHECK(rc_target_check(t, &err) == 0);
			rc_target_free(t);
		}
	} else {
		CHECK(err.msg[0]);
		/* malformed types, read in place: opened (the layout is sound)
		 * or not, the decisions that read them are errors, none crash,
		 * and the check of every type finds what rc_btf_validate found */
		err.msg[0] = 0;
		t = rc_target_open_mem(data, len, "fuzz-target.btf", &err);
		CHECK(t || err.msg[0]);
		if (t) {
			run(data + len, size - len, t);
			CHECK(rc_target_check(t, &err) != 0 && err.msg[0]);
			rc_target_free(t);
		}
	}
	btf__free(tbtf);
	return 0;
}
