// SPDX-License-Identifier: GPL-2.0
/*
 * kst - relocore's kernel selftests for kernel/patches/, run inside QEMU.
 * Raw bpf() syscalls only (no libbpf); built with gcc -static.
 *
 *   kst run [FILTER]       the table of per-patch tests; one line per test:
 *                            RESULT <name> PASS
 *                            RESULT <name> FAIL: <why>
 *                          preceded by "<name>: ..." evidence lines (errno,
 *                          verifier log line, bpffs output)
 *   kst load-btf LABEL=FILE...   BPF_BTF_LOAD of raw BTF files (kernels'
 *                          vmlinux BTF): RESULT accept/<LABEL> PASS|FAIL
 *   kst load-obj LABEL=FILE.o... the .BTF of BPF ELF objects, DATASEC sizes
 *                          and VAR offsets filled in from the ELF as a
 *                          loader does, then BPF_BTF_LOAD
 *   kst fuzz N SEED        N mutated BTF blobs through BPF_BTF_LOAD; the
 *                          accepted ones also describe an array map that
 *                          is pinned and read back (pretty printer)
 *
 * Every test expects exactly what the patched kernel does; on Debian's
 * unpatched kernel the per-patch tests are expected to FAIL (the host side,
 * test/kernel/run.sh, shows both runs).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BPFFS "/sys/fs/bpf"
#define LOG_SIZE (1 << 20)

static char vlog[LOG_SIZE];

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* ---- a small BTF builder ------------------------------------------------ */

struct bb {
	unsigned char types[1 << 16];
	unsigned int tlen;
	char strs[1 << 14];
	unsigned int slen;
	unsigned int nr;		/* last type id */
	unsigned char blob[(1 << 16) + (1 << 14) + 64];
	unsigned int blen;
};

static void bb_init(struct bb *b)
{
	b->tlen = 0;
	b->slen = 1;
	b->strs[0] = 0;
	b->nr = 0;
}

static unsigned int bb_str(struct bb *b, const char *s)
{
	unsigned int off = b->slen, n;

	if (!s || !*s)
		return 0;
	n = strlen(s) + 1;
	memcpy(b->strs + off, s, n);
	b->slen += n;
	return off;
}

static void bb_put(struct bb *b, const void *p, unsigned int n)
{
	memcpy(b->types + b->tlen, p, n);
	b->tlen += n;
}

static void bb_u32(struct bb *b, uint32_t v)
{
	bb_put(b, &v, 4);
}

static unsigned int bb_type(struct bb *b, const char *name, int kind,
			    int kflag, int vlen, uint32_t size_or_type)
{
	struct btf_type t = {
		.name_off = bb_str(b, name),
		.info = ((uint32_t)!!kflag << 31) | ((uint32_t)kind << 24) |
			(uint32_t)vlen,
		.size = size_or_type,
	};

	bb_put(b, &t, sizeof(t));
	return ++b->nr;
}

static unsigned int bb_int(struct bb *b, const char *name, int size,
			   int bits, int enc)
{
	unsigned int id = bb_type(b, name, BTF_KIND_INT, 0, 0, size);

	bb_u32(b, ((uint32_t)enc << 24) | (uint32_t)bits);
	return id;
}

/* enum (vals are 32-bit) of kind ENUM, or ENUM64 when is64 */
static unsigned int bb_enum(struct bb *b, const char *name, int is64,
			    int size, int is_signed, int n,
			    const char *const *names, const int64_t *vals)
{
	unsigned int id = bb_type(b, name, is64 ? BTF_KIND_ENUM64 :
				  BTF_KIND_ENUM, is_signed, n, size);
	int i;

	for (i = 0; i < n; i++) {
		bb_u32(b, bb_str(b, names[i]));
		bb_u32(b, (uint32_t)vals[i]);
		if (is64)
			bb_u32(b, (uint32_t)((uint64_t)vals[i] >> 32));
	}
	return id;
}

static unsigned int bb_struct(struct bb *b, const char *name, int is_union,
			      int kflag, int vlen, int size)
{
	return bb_type(b, name, is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT,
		       kflag, vlen, size);
}

static void bb_member(struct bb *b, const char *name, unsigned int type,
		      unsigned int bit_off, unsigned int bitfield_size)
{
	bb_u32(b, bb_str(b, name));
	bb_u32(b, type);
	bb_u32(b, (bitfield_size << 24) | bit_off);
}

static unsigned int bb_array(struct bb *b, unsigned int elem,
			     unsigned int index, unsigned int nelems)
{
	unsigned int id = bb_type(b, NULL, BTF_KIND_ARRAY, 0, 0, 0);

	bb_u32(b, elem);
	bb_u32(b, index);
	bb_u32(b, nelems);
	return id;
}

static unsigned int bb_ptr(struct bb *b, unsigned int type)
{
	return bb_type(b, NULL, BTF_KIND_PTR, 0, 0, type);
}

static unsigned int bb_float(struct bb *b, const char *name, int size)
{
	return bb_type(b, name, BTF_KIND_FLOAT, 0, 0, size);
}

static void bb_finish(struct bb *b)
{
	struct btf_header h = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(h),
		.type_off = 0,
		.type_len = b->tlen,
		.str_off = b->tlen,
		.str_len = b->slen,
	};

	memcpy(b->blob, &h, sizeof(h));
	memcpy(b->blob + sizeof(h), b->types, b->tlen);
	memcpy(b->blob + sizeof(h) + b->tlen, b->strs, b->slen);
	b->blen = sizeof(h) + b->tlen + b->slen;
}

/* BPF_BTF_LOAD: fd, or -errno; the verifier log is in vlog */
static int btf_load(const void *data, unsigned int size, int log_level,
		    unsigned int log_size)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	vlog[0] = 0;
	a.btf = (uintptr_t)data;
	a.btf_size = size;
	if (log_level) {
		a.btf_log_buf = (uintptr_t)vlog;
		a.btf_log_size = log_size ? log_size : sizeof(vlog);
		a.btf_log_level = log_level;
	}
	fd = sys_bpf(BPF_BTF_LOAD, &a);
	return fd < 0 ? -errno : fd;
}

static const char *last_log_line(void)
{
	static char line[512];
	size_t n = strlen(vlog);
	const char *s;

	while (n && vlog[n - 1] == '\n')
		n--;
	for (s = vlog + n; s > vlog && s[-1] != '\n'; s--)
		;
	snprintf(line, sizeof(line), "%.*s", (int)(vlog + n - s), s);
	return line;
}

/* ---- results ------------------------------------------------------------- */

static int nr_pass, nr_fail;

static void result(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("RESULT %s PASS\n", name);
		nr_pass++;
	} else {
		printf("RESULT %s FAIL: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		nr_fail++;
	}
	fflush(stdout);
}

/* show a multi-line text as evidence lines "name: | line" */
static void evidence(const char *name, const char *what, const char *text)
{
	const char *p = text, *e;

	printf("%s: %s:\n", name, what);
	while (*p) {
		e = strchrnul(p, '\n');
		printf("%s: | %.*s\n", name, (int)(e - p), p);
		p = *e ? e + 1 : e;
	}
}

/* ---- patches 2 and 4: BTF checks ----------------------------------------- */

/* One row of "kst run" (the table tests[] below main's helpers): the
 * test's name (its RESULT line), the function that runs it, and for the
 * BTF checks (run_btf_case) the BTF to load and what the kernel must say.
 */
struct kst_test {
	const char *name;
	void (*run)(const struct kst_test *t);
	void (*build)(struct bb *b);	/* run_btf_case: the BTF */
	int err;		/* expected: 0 accepted, else errno */
	const char *line;	/* expected verifier log line (when err) */
};

/* enum types shared by the cases */
static const char *const e_names[] = { "V0", "V1", "V2", "V3" };
static const int64_t e_vals[] = { 0, 1, 2, 3 };

/* kind_flag struct { char c[3]; enum e1 e; } size 4, e1 is 1 byte */
static void b_enum1_at_end(struct bb *b)
{
	unsigned int ch = bb_int(b, "char", 1, 8, BTF_INT_SIGNED);
	unsigned int u32 = bb_int(b, "unsigned int", 4, 32, 0);
	unsigned int arr = bb_array(b, ch, u32, 3);
	unsigned int e = bb_enum(b, "e1", 0, 1, 0, 2, e_names, e_vals);

	bb_struct(b, "s_e1", 0, 1, 2, 4);
	bb_member(b, "c", arr, 0, 0);
	bb_member(b, "e", e, 24, 0);
}

/* kind_flag struct { short h; enum e2 e; } size 4, e2 is 2 bytes */
static void b_enum2_at_end(struct bb *b)
{
	unsigned int sh = bb_int(b, "short", 2, 16, BTF_INT_SIGNED);
	unsigned int e = bb_enum(b, "e2", 0, 2, 0, 2, e_names, e_vals);

	bb_struct(b, "s_e2", 0, 1, 2, 4);
	bb_member(b, "h", sh, 0, 0);
	bb_member(b, "e", e, 16, 0);
}

/* kind_flag struct { enum e64 e; } of size 4: e runs past the end */
static void b_enum64_past_end(struct bb *b)
{
	unsigned int e = bb_enum(b, "e64", 1, 8, 0, 2, e_names, e_vals);

	bb_struct(b, "s_e64", 0, 1, 1, 4);
	bb_member(b, "e", e, 0, 0);
}

/* kind_flag struct { enum e64 e:40; } size 8 */
static void b_enum64_bitfield40(struct bb *b)
{
	unsigned int e = bb_enum(b, "e64", 1, 8, 0, 2, e_names, e_vals);

	bb_struct(b, "s_e64_bf", 0, 1, 1, 8);
	bb_member(b, "e", e, 0, 40);
}

/* kind_flag struct { enum e1 e:9; } size 4: wider than the 1-byte enum */
static void b_enum1_bitfield9(struct bb *b)
{
	unsigned int e = bb_enum(b, "e1", 0, 1, 0, 2, e_names, e_vals);

	bb_struct(b, "s_e1_bf", 0, 1, 1, 4);
	bb_member(b, "e", e, 0, 9);
}

/* control: kind_flag struct { enum e4 a:3; enum e4 b:5; int c; } */
static void b_enum4_bitfields(struct bb *b)
{
	unsigned int in = bb_int(b, "int", 4, 32, BTF_INT_SIGNED);
	unsigned int e = bb_enum(b, "e4", 0, 4, 0, 4, e_names, e_vals);

	bb_struct(b, "s_e4_bf", 0, 1, 3, 8);
	bb_member(b, "a", e, 0, 3);
	bb_member(b, "b", e, 3, 5);
	bb_member(b, "c", in, 32, 0);
}

/* struct { int a; int b; } size 8, b at bit 16 */
static void b_overlap_int(struct bb *b)
{
	unsigned int in = bb_int(b, "int", 4, 32, BTF_INT_SIGNED);

	bb_struct(b, "s_ov", 0, 0, 2, 8);
	bb_member(b, "a", in, 0, 0);
	bb_member(b, "b", in, 16, 0);
}

/* kind_flag struct { int a:8 (bit 0); int b:8 (bit 4); } */
static void b_overlap_kflag_bitfields(struct bb *b)
{
	unsigned int in = bb_int(b, "int", 4, 32, BTF_INT_SIGNED);

	bb_struct(b, "s_ov_bf", 0, 1, 2, 4);
	bb_member(b, "a", in, 0, 8);
	bb_member(b, "b", in, 4, 8);
}

/* legacy bitfields (no kind_flag): int:6 at bit 0, int:6 at bit 4 */
static void b_overlap_legacy_bitfields(struct bb *b)
{
	unsigned int i6 = bb_int(b, "int", 4, 6, BTF_INT_SIGNED);

	bb_struct(b, "s_ov_legacy", 0, 0, 2, 4);
	bb_member(b, "a", i6, 0, 0);
	bb_member(b, "b", i6, 4, 0);
}

/* struct { char c; long l; } with l at byte 0 after c: a char and a long */
static void b_overlap_struct_member(struct bb *b)
{
	unsigned int ch = bb_int(b, "char", 1, 8, BTF_INT_SIGNED);
	unsigned int lo = bb_int(b, "long", 8, 64, BTF_INT_SIGNED);
	unsigned int in = bb_struct(b, "inner", 0, 0, 1, 8);

	bb_member(b, "l", lo, 0, 0);
	bb_struct(b, "s_ov_nested", 0, 0, 2, 16);
	bb_member(b, "in", in, 0, 0);
	bb_member(b, "c", ch, 32, 0);
}

/* controls that must stay legal: adjacent bitfields (legacy and
 * kind_flag), a flexible array, a zero-size struct member, a union
 */
static void b_legal_layouts(struct bb *b)
{
	unsigned int in = bb_int(b, "int", 4, 32, BTF_INT_SIGNED);
	unsigned int i4 = bb_int(b, "int", 4, 4, BTF_INT_SIGNED);
	unsigned int u32 = bb_int(b, "unsigned int", 4, 32, 0);
	unsigned int flex = bb_array(b, in, u32, 0);
	unsigned int empty = bb_struct(b, "empty", 0, 0, 0, 0);
	unsigned int lo = bb_int(b, "long", 8, 64, BTF_INT_SIGNED);

	bb_struct(b, "s_bf", 0, 1, 3, 4);
	bb_member(b, "a", in, 0, 4);
	bb_member(b, "b", in, 4, 4);
	bb_member(b, "c", in, 8, 24);
	bb_struct(b, "s_legacy", 0, 0, 2, 4);
	bb_member(b, "a", i4, 0, 0);
	bb_member(b, "b", i4, 4, 0);
	bb_struct(b, "s_flex", 0, 0, 3, 8);
	bb_member(b, "n", in, 0, 0);
	bb_member(b, "e", empty, 32, 0);
	bb_member(b, "m", in, 32, 0);
	bb_struct(b, "u", 1, 0, 2, 8);
	bb_member(b, "i", in, 0, 0);
	bb_member(b, "l", lo, 0, 0);
	bb_struct(b, "s_flex2", 0, 0, 2, 4);
	bb_member(b, "n", in, 0, 0);
	bb_member(b, "d", flex, 32, 0);
}

/* does vlog have a line equal to line? */
static int log_has_line(const char *line)
{
	size_t n = strlen(line);
	const char *p = vlog;

	while ((p = strstr(p, line))) {
		if ((p == vlog || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
		p++;
	}
	return 0;
}

/* Load the row's BTF: PASS when the kernel accepts it and the row expects
 * that, or rejects it with the row's errno and verifier log line.
 */
static void run_btf_case(const struct kst_test *c)
{
	static struct bb b;
	int fd;

	bb_init(&b);
	c->build(&b);
	bb_finish(&b);
	fd = btf_load(b.blob, b.blen, 1, 0);
	if (fd >= 0) {
		close(fd);
		printf("%s: BPF_BTF_LOAD accepted\n", c->name);
		if (c->err)
			result(c->name, 0, "accepted, expected %s and log line \"%s\"",
			       strerror(c->err), c->line);
		else
			result(c->name, 1, "");
		return;
	}
	printf("%s: BPF_BTF_LOAD errno %d (%s), log line: \"%s\"\n",
	       c->name, -fd, strerror(-fd), last_log_line());
	if (!c->err)
		result(c->name, 0, "rejected: %s: \"%s\"", strerror(-fd),
		       last_log_line());
	else
		result(c->name, -fd == c->err && log_has_line(c->line),
		       "expected %s and log line \"%s\"", strerror(c->err),
		       c->line);
}

/* ---- bpffs helpers ---------------------------------------------------------- */

static int obj_pin(int fd, const char *path)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.pathname = (uintptr_t)path;
	a.bpf_fd = fd;
	return sys_bpf(BPF_OBJ_PIN, &a) ? -errno : 0;
}

/* read a whole file: its text (malloc'd), or NULL with errno set */
static char *read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		int e = errno;

		free(buf);
		errno = e;
		return NULL;
	}
	for (;;) {
		if (cap - n < 4096) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			int e = errno;

			close(fd);
			free(buf);
			errno = e;
			return NULL;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

/* the text without the "# WARNING!!" header lines */
static const char *strip_header(const char *text)
{
	while (text[0] == '#') {
		const char *e = strchr(text, '\n');

		if (!e)
			return "";
		text = e + 1;
	}
	return text;
}

/* Pin map fd at pin (replacing what was there) and read the pin back (the
 * BTF pretty printer's text): the text (malloc'd), or NULL after a FAIL
 * result for test name.  The caller unlinks the pin.
 */
static char *pin_and_cat(const char *name, int fd, const char *pin)
{
	char *text;
	int err;

	unlink(pin);
	err = obj_pin(fd, pin);
	if (err) {
		result(name, 0, "pin: %s", strerror(-err));
		return NULL;
	}
	text = read_file(pin, NULL);
	if (!text) {
		int e = errno;

		printf("%s: cat %s: %s\n", name, pin, strerror(e));
		result(name, 0, "cat %s: %s", pin, strerror(e));
	}
	return text;
}

static int map_create(int type, int key_size, int value_size, int max,
		      int flags, int btf_fd, int key_id, int value_id)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = key_size;
	a.value_size = value_size;
	a.max_entries = max;
	a.map_flags = flags;
	a.btf_fd = btf_fd;
	a.btf_key_type_id = key_id;
	a.btf_value_type_id = value_id;
	fd = sys_bpf(BPF_MAP_CREATE, &a);
	return fd < 0 ? -errno : fd;
}

static int map_update(int fd, const void *key, const void *value)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = fd;
	a.key = (uintptr_t)key;
	a.value = (uintptr_t)value;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &a) ? -errno : 0;
}

static int map_delete(int fd, const void *key)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = fd;
	a.key = (uintptr_t)key;
	return sys_bpf(BPF_MAP_DELETE_ELEM, &a) ? -errno : 0;
}

/* ---- patch 1: LPM trie in bpffs ----------------------------------------- */

struct lpm_key {
	uint32_t prefixlen;
	uint8_t data[4];
};

/* BTF: struct lpm_key { __u32 prefixlen; __u8 data[4]; }, __u64 value */
static int lpm_map(int *btf_fd)
{
	static struct bb b;
	unsigned int u32, u8, arr, key, u64;
	int fd;

	bb_init(&b);
	u32 = bb_int(&b, "__u32", 4, 32, 0);
	u8 = bb_int(&b, "__u8", 1, 8, 0);
	arr = bb_array(&b, u8, u32, 4);
	key = bb_struct(&b, "lpm_key", 0, 0, 2, 8);
	bb_member(&b, "prefixlen", u32, 0, 0);
	bb_member(&b, "data", arr, 32, 0);
	u64 = bb_int(&b, "__u64", 8, 64, 0);
	bb_finish(&b);
	*btf_fd = btf_load(b.blob, b.blen, 1, 0);
	if (*btf_fd < 0)
		return *btf_fd;
	fd = map_create(BPF_MAP_TYPE_LPM_TRIE, 8, 8, 256, BPF_F_NO_PREALLOC,
			*btf_fd, key, u64);
	return fd;
}

/* one entry of a test's trie: prefixlen, the address, the value */
struct lpm_entry {
	struct lpm_key key;
	uint64_t value;
};

/* The LPM trie of lpm_map() holding entries[0..n), pinned at pin and read
 * back once: the map fd (its BTF fd in *btf_fd, the text in *text), or -1
 * after a FAIL result for test name (nothing left open or pinned).
 */
static int lpm_pinned(const char *name, const char *pin,
		      const struct lpm_entry *entries, int n, int *btf_fd,
		      char **text)
{
	int fd, i;

	fd = lpm_map(btf_fd);
	if (fd < 0) {
		result(name, 0, "cannot create the LPM trie: %s", strerror(-fd));
		return -1;
	}
	for (i = 0; i < n; i++)
		map_update(fd, &entries[i].key, &entries[i].value);
	*text = pin_and_cat(name, fd, pin);
	if (!*text) {
		unlink(pin);
		close(fd);
		close(*btf_fd);
		return -1;
	}
	return fd;
}

/* Taken from a run of the patched kernel.  1-byte int arrays are printed
 * as NUL-terminated character arrays by the BTF printer (any map type):
 * the keys use bytes that are not printable characters.  The order is
 * trie_get_next_key()'s: more specific prefixes first.
 */
#define LPM_CAT_EXPECT \
	"{16,[10,1,],}: 2\n" \
	"{32,[10,2,3,4,],}: 4\n" \
	"{24,[10,2,3,],}: 3\n" \
	"{8,[10,],}: 1\n"

static void test_lpm_cat(const struct kst_test *t)
{
	const char *name = t->name;
	const char *pin = BPFFS "/kst_lpm";
	static const struct lpm_entry entries[] = {
		{ { 8, { 10, 0, 0, 0 } }, 1 },
		{ { 16, { 10, 1, 0, 0 } }, 2 },
		{ { 24, { 10, 2, 3, 0 } }, 3 },
		{ { 32, { 10, 2, 3, 4 } }, 4 },
	};
	int btf_fd, fd;
	char *text;

	fd = lpm_pinned(name, pin, entries, 4, &btf_fd, &text);
	if (fd < 0)
		return;
	evidence(name, "cat " BPFFS "/kst_lpm", text);
	result(name, !strcmp(strip_header(text), LPM_CAT_EXPECT),
	       "output differs from the expected text");
	free(text);
	unlink(pin);
	close(fd);
	close(btf_fd);
}

/* A writer inserts, replaces and deletes 10.i.0.0/16 -> i * 1000 + 16
 * (4 <= i < 32) while the reader cats the pin: every line must be one of
 * the stable entries or a 10.i.0.0/16 line with its own value.
 */
static void test_lpm_race(const struct kst_test *t)
{
	const char *name = t->name;
	const char *pin = BPFFS "/kst_lpm_race";
	static const struct lpm_entry entries[] = {
		{ { 8, { 10, 0, 0, 0 } }, 1 },
		{ { 24, { 10, 2, 3, 0 } }, 3 },
	};
	int btf_fd, fd, reads = 0, lines = 0, bad = 0, status;
	time_t end;
	pid_t pid;
	char *text, badline[128] = "";

	fd = lpm_pinned(name, pin, entries, 2, &btf_fd, &text);
	if (fd < 0)
		return;
	free(text);

	pid = fork();
	if (!pid) {
		unsigned int seed = 1;
		time_t stop = time(NULL) + 4;
		int i;

		while (time(NULL) < stop) {
			for (i = 0; i < 200; i++) {
				int x = 4 + rand_r(&seed) % 28;
				struct lpm_key k = { 16, { 10, x, 0, 0 } };
				uint64_t v = x * 1000 + 16;

				if (rand_r(&seed) % 3)
					map_update(fd, &k, &v);
				else
					map_delete(fd, &k);
			}
		}
		_exit(0);
	}
	end = time(NULL) + 4;
	while (time(NULL) < end) {
		char *p, *e;

		text = read_file(pin, NULL);
		if (!text) {
			snprintf(badline, sizeof(badline), "cat: %s",
				 strerror(errno));
			bad++;
			break;
		}
		reads++;
		for (p = (char *)strip_header(text); *p; p = e + 1) {
			unsigned int x;
			unsigned long long v;
			int n = 0;

			e = strchrnul(p, '\n');
			lines++;
			if (!strncmp(p, "{8,[10,],}: 1\n", e - p + 1) ||
			    !strncmp(p, "{24,[10,2,3,],}: 3\n", e - p + 1))
				n = 1;
			else if (sscanf(p, "{16,[10,%u,],}: %llu%n", &x, &v, &n) == 2 &&
				 p + n == e && x >= 4 && x < 32 && v == x * 1000ULL + 16)
				n = 1;
			else
				n = 0;
			if (!n) {
				if (!bad)
					snprintf(badline, sizeof(badline),
						 "%.*s", (int)(e - p), p);
				bad++;
			}
			if (!*e)
				break;
		}
		free(text);
	}
	waitpid(pid, &status, 0);
	printf("%s: %d reads of the pin racing the updater, %d lines, %d bad%s%s\n",
	       name, reads, lines, bad, bad ? ", first: " : "", badline);
	result(name, !bad && reads > 0, "%d bad lines, first: %s", bad,
	       badline);
	unlink(pin);
	close(fd);
	close(btf_fd);
}

/* ---- patch 3: what the pretty printer shows ----------------------------- */

struct show_val {
	uint8_t a;		/* enum e1: 1 byte */
	uint8_t x;		/* __u8 */
	uint8_t pad[6];
	uint64_t b;		/* enum e8: an 8-byte BTF_KIND_ENUM */
	uint32_t c;		/* enum e4 c:3 at bit 128, then int d:5 */
	uint32_t e;		/* enum64 e64s, 4 bytes */
	float f;
	uint32_t g;		/* __u32 */
	double h;
	int8_t s;		/* signed enum es1: 1 byte */
	uint8_t pad2[7];
};

/* Taken from a run of the patched kernel: a (1-byte enum) V1, x 127,
 * b (8-byte enum, no enumerator) 4294967297, c (enum bitfield) V2,
 * d (int bitfield) 0x3, e (4-byte enum64) V3, f 1.5f as bits, g, h -2.5 as
 * bits, s (signed 1-byte enum) M1.
 */
#define SHOW_EXPECT "0: {V1,127,4294967297,V2,0x3,V3,0x3fc00000,4294967295,0xc004000000000000,M1,}\n"

static void test_show(const struct kst_test *t)
{
	const char *name = t->name;
	const char *pin = BPFFS "/kst_show";
	static const char *const s_names[] = { "M1", "Z0" };
	static const int64_t s_vals[] = { -1, 0 };
	static struct bb b;
	unsigned int u8, u32, i32, e1, e8, e4, e64s, es1, f4, f8, val;
	struct show_val v;
	uint32_t k = 0;
	int btf_fd, fd;
	char *text;

	bb_init(&b);
	u8 = bb_int(&b, "__u8", 1, 8, 0);
	u32 = bb_int(&b, "__u32", 4, 32, 0);
	i32 = bb_int(&b, "int", 4, 32, BTF_INT_SIGNED);
	e1 = bb_enum(&b, "e1", 0, 1, 0, 4, e_names, e_vals);
	e8 = bb_enum(&b, "e8", 0, 8, 0, 4, e_names, e_vals);
	e4 = bb_enum(&b, "e4", 0, 4, 0, 4, e_names, e_vals);
	e64s = bb_enum(&b, "e64s", 1, 4, 0, 4, e_names, e_vals);
	es1 = bb_enum(&b, "es1", 0, 1, 1, 1, s_names, s_vals);
	f4 = bb_float(&b, "float", 4);
	f8 = bb_float(&b, "double", 8);
	val = bb_struct(&b, "show_val", 0, 1, 10, sizeof(v));
	bb_member(&b, "a", e1, 0, 0);
	bb_member(&b, "x", u8, 8, 0);
	bb_member(&b, "b", e8, 64, 0);
	bb_member(&b, "c", e4, 128, 3);
	bb_member(&b, "d", i32, 131, 5);
	bb_member(&b, "e", e64s, 160, 0);
	bb_member(&b, "f", f4, 192, 0);
	bb_member(&b, "g", u32, 224, 0);
	bb_member(&b, "h", f8, 256, 0);
	bb_member(&b, "s", es1, 320, 0);
	bb_finish(&b);
	btf_fd = btf_load(b.blob, b.blen, 1, 0);
	if (btf_fd < 0) {
		printf("%s: BPF_BTF_LOAD: %s: %s\n", name, strerror(-btf_fd),
		       last_log_line());
		result(name, 0, "BPF_BTF_LOAD: %s: %s", strerror(-btf_fd),
		       last_log_line());
		return;
	}
	fd = map_create(BPF_MAP_TYPE_ARRAY, 4, sizeof(v), 1, 0, btf_fd, u32,
			val);
	if (fd < 0) {
		result(name, 0, "map: %s", strerror(-fd));
		close(btf_fd);
		return;
	}
	memset(&v, 0, sizeof(v));
	v.a = 1;
	v.x = 127;
	v.b = 0x100000001ULL;
	v.c = 2 | (3 << 3);
	v.e = 3;
	v.f = 1.5f;
	v.g = ~0U;
	v.h = -2.5;
	v.s = -1;
	map_update(fd, &k, &v);
	text = pin_and_cat(name, fd, pin);
	if (!text)
		goto out;
	evidence(name, "cat " BPFFS "/kst_show", text);
	printf("%s: expected:\n%s: | %s", name, name, SHOW_EXPECT);
	result(name, !strcmp(strip_header(text), SHOW_EXPECT),
	       "output differs from the expected text");
	free(text);
out:
	unlink(pin);
	close(fd);
	close(btf_fd);
}

/* ---- patch 5: CO-RE relocation without func_info ----------------------- */

/* from a run of the patched kernel */
#define P5_LOG_LINE "prog '': relo #0: patched insn #0 (ALU/ALU64) imm 0 -> 8"

static void test_core_relo(const struct kst_test *t)
{
	const char *name = t->name;
	/* r0 = 0 (the local offset of list_head___kst.prev); exit */
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_core_relo relo;
	static struct bb b;
	unsigned char pkt[64] = { 0 };
	union bpf_attr a;
	unsigned int vp, st, acc;
	int btf_fd, fd;

	bb_init(&b);
	vp = bb_ptr(&b, 0);
	st = bb_struct(&b, "list_head___kst", 0, 0, 1, 8);
	bb_member(&b, "prev", vp, 0, 0);
	acc = bb_str(&b, "0:0");
	bb_finish(&b);
	btf_fd = btf_load(b.blob, b.blen, 1, 0);
	if (btf_fd < 0) {
		result(name, 0, "BPF_BTF_LOAD: %s", strerror(-btf_fd));
		return;
	}
	relo.insn_off = 0;
	relo.type_id = st;
	relo.access_str_off = acc;
	relo.kind = BPF_CORE_FIELD_BYTE_OFFSET;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uintptr_t)insns;
	a.insn_cnt = 2;
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)vlog;
	a.log_size = sizeof(vlog);
	a.log_level = 2;	/* the CO-RE relocation lines too */
	a.prog_btf_fd = btf_fd;
	a.core_relos = (uintptr_t)&relo;
	a.core_relo_cnt = 1;
	a.core_relo_rec_size = sizeof(relo);
	vlog[0] = 0;
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		int e = errno;

		printf("%s: BPF_PROG_LOAD: %s\n", name, strerror(e));
		evidence(name, "verifier log", vlog);
		result(name, 0, "BPF_PROG_LOAD: %s", strerror(e));
		close(btf_fd);
		return;
	}
	evidence(name, "verifier log (list_head.prev is at 8 in vmlinux)",
		 vlog);
	/* TEST_RUN clobbers nothing of vlog: the load's log stays */
	memset(&a, 0, sizeof(a));
	a.test.prog_fd = fd;
	a.test.data_in = (uintptr_t)pkt;
	a.test.data_size_in = sizeof(pkt);
	a.test.repeat = 1;
	if (sys_bpf(BPF_PROG_TEST_RUN, &a)) {
		result(name, 0, "BPF_PROG_TEST_RUN: %s", strerror(errno));
	} else {
		printf("%s: BPF_PROG_TEST_RUN retval %u (expected 8: relocated; 0: the core_relo was ignored)\n",
		       name, a.test.retval);
		result(name, a.test.retval == 8 && log_has_line(P5_LOG_LINE),
		       "retval %u, expected 8 and the log line \"%s\"",
		       a.test.retval, P5_LOG_LINE);
	}
	close(fd);
	close(btf_fd);
}

/* ---- loading real BTF --------------------------------------------------- */

/* Bytes a type record takes: struct btf_type and what its kind appends
 * (members, enumerators, params, secinfos...); unknown kinds append nothing.
 */
static size_t btf_type_len(const struct btf_type *bt)
{
	size_t vlen = BTF_INFO_VLEN(bt->info);

	switch (BTF_INFO_KIND(bt->info)) {
	case BTF_KIND_INT: return sizeof(*bt) + 4;
	case BTF_KIND_ARRAY: return sizeof(*bt) + sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return sizeof(*bt) + vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM: return sizeof(*bt) + vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64: return sizeof(*bt) + vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO: return sizeof(*bt) + vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR: return sizeof(*bt) + sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return sizeof(*bt) + vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG: return sizeof(*bt) + sizeof(struct btf_decl_tag);
	default: return sizeof(*bt);
	}
}

static void *slurp(const char *path, size_t *len)
{
	struct stat st;
	void *p;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		close(fd);
		return NULL;
	}
	p = malloc(st.st_size ? st.st_size : 1);
	if (p && read(fd, p, st.st_size) != st.st_size) {
		free(p);
		p = NULL;
	}
	close(fd);
	*len = st.st_size;
	return p;
}

static void accept_blob(const char *label, const void *data, size_t len)
{
	char name[256];
	int fd;

	snprintf(name, sizeof(name), "accept/%s", label);
	fd = btf_load(data, len, 0, 0);
	if (fd >= 0) {
		printf("%s: BPF_BTF_LOAD of %zu bytes accepted\n", name, len);
		close(fd);
		result(name, 1, "");
		return;
	}
	/* again with a log, to say why */
	btf_load(data, len, 1, 0);
	printf("%s: BPF_BTF_LOAD of %zu bytes: %s; log tail: %s\n", name, len,
	       strerror(-fd), last_log_line());
	result(name, 0, "%s: %s", strerror(-fd), last_log_line());
}

/* The .BTF of a BPF ELF object as a loader sends it: DATASEC sizes are the
 * ELF section sizes and VAR offsets the symbol values (the compiler leaves
 * them 0).
 */
static void *obj_btf(const char *path, size_t *out_len, char *why, size_t wlen)
{
	size_t len, i;
	unsigned char *f = slurp(path, &len), *btf = NULL;
	Elf64_Ehdr *eh = (Elf64_Ehdr *)f;
	Elf64_Shdr *sh, *symtab = NULL;
	const char *shstr;
	size_t btf_len = 0;

	if (!f || len < sizeof(*eh) || memcmp(f, ELFMAG, SELFMAG) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > len) {
		snprintf(why, wlen, "not an ELF file");
		free(f);
		return NULL;
	}
	sh = (Elf64_Shdr *)(f + eh->e_shoff);
	shstr = (const char *)f + sh[eh->e_shstrndx].sh_offset;
	for (i = 0; i < eh->e_shnum; i++) {
		if (!strcmp(shstr + sh[i].sh_name, ".BTF")) {
			btf_len = sh[i].sh_size;
			btf = malloc(btf_len);
			memcpy(btf, f + sh[i].sh_offset, btf_len);
		}
		if (sh[i].sh_type == SHT_SYMTAB)
			symtab = &sh[i];
	}
	if (!btf) {
		snprintf(why, wlen, "no .BTF section");
		free(f);
		return NULL;
	}
	{
		struct btf_header *h = (struct btf_header *)btf;
		unsigned char *t = btf + h->hdr_len + h->type_off;
		unsigned char *tend = t + h->type_len;
		const char *strs = (const char *)btf + h->hdr_len + h->str_off;
		static unsigned char *types[1 << 17];
		unsigned int n = 0, int_id = 0, dummy = 0;
		bool ksyms = false;

		/* index the types, then fix the DATASECs */
		while (t < tend && n < (1 << 17) - 1) {
			types[++n] = t;
			t += btf_type_len((struct btf_type *)t);
		}
		for (i = 1; i <= n; i++) {
			struct btf_type *bt = (struct btf_type *)types[i];

			if (BTF_INFO_KIND(bt->info) == BTF_KIND_DATASEC &&
			    !strcmp(strs + bt->name_off, ".ksyms"))
				ksyms = true;
			if (BTF_INFO_KIND(bt->info) == BTF_KIND_INT && bt->size == 4 && !int_id)
				int_id = i;
			/* an extern function (a kfunc) goes in as global, as
			 * libbpf sends it */
			if (BTF_INFO_KIND(bt->info) == BTF_KIND_FUNC &&
			    BTF_INFO_VLEN(bt->info) == BTF_FUNC_EXTERN)
				bt->info = (bt->info & ~0xffffu) | BTF_FUNC_GLOBAL;
		}
		if (ksyms && int_id && h->str_off == h->type_off + h->type_len) {
			/* as libbpf: a VAR "dummy_ksym" (int) appended for the
			 * .ksyms entries that are functions */
			size_t tl = h->hdr_len + h->type_off + h->type_len;
			unsigned char *nb = malloc(btf_len + 16 + 11);
			struct btf_type *v = (struct btf_type *)(nb + tl);
			struct btf_header *nh = (struct btf_header *)nb;

			memcpy(nb, btf, tl);
			v->name_off = h->str_len;
			v->info = BTF_KIND_VAR << 24;
			v->type = int_id;
			*(uint32_t *)(v + 1) = BTF_VAR_GLOBAL_ALLOCATED;
			memcpy(nb + tl + 16, btf + tl, btf_len - tl);
			memcpy(nb + btf_len + 16, "dummy_ksym", 11);
			nh->type_len += 16;
			nh->str_off += 16;
			nh->str_len += 11;
			free(btf);
			btf = nb;
			btf_len += 16 + 11;
			h = nh;
			strs = (const char *)btf + h->hdr_len + h->str_off;
			t = btf + h->hdr_len + h->type_off;
			tend = t + h->type_len;
			for (n = 0; t < tend && n < (1 << 17) - 1; t += btf_type_len((struct btf_type *)t))
				types[++n] = t;
			dummy = n;
		}
		for (i = 1; i <= n; i++) {
			struct btf_type *bt = (struct btf_type *)types[i];
			struct btf_var_secinfo *vs = (void *)(bt + 1);
			const char *sname = strs + bt->name_off;
			unsigned int j, s, secidx = 0;

			if (BTF_INFO_KIND(bt->info) != BTF_KIND_DATASEC)
				continue;
			if (!strcmp(sname, ".ksyms") && dummy) {
				/* externs resolved by the loader, as libbpf
				 * lays them out: a function's entry the dummy
				 * VAR, a variable's made an allocated int, 4
				 * bytes each */
				for (j = 0; j < BTF_INFO_VLEN(bt->info); j++) {
					struct btf_type *vt = (struct btf_type *)types[vs[j].type];

					if (BTF_INFO_KIND(vt->info) == BTF_KIND_FUNC) {
						vs[j].type = dummy;
					} else {
						*(uint32_t *)(vt + 1) = BTF_VAR_GLOBAL_ALLOCATED;
						vt->type = int_id;
					}
					vs[j].offset = j * 4;
					vs[j].size = 4;
				}
				bt->size = BTF_INFO_VLEN(bt->info) * 4;
				continue;
			}
			if (!strcmp(sname, ".kconfig")) {
				/* externs: the loader lays them out in a
				 * map of their own and allocates them
				 */
				unsigned int off = 0, al;

				for (j = 0; j < BTF_INFO_VLEN(bt->info); j++) {
					struct btf_var *bv = (void *)(types[vs[j].type] +
								      sizeof(struct btf_type));

					for (al = 8; al > 1 && vs[j].size % al; al /= 2)
						;
					off = (off + al - 1) / al * al;
					vs[j].offset = off;
					off += vs[j].size;
					bv->linkage = BTF_VAR_GLOBAL_ALLOCATED;
				}
				bt->size = off;
				continue;
			}
			for (s = 0; s < eh->e_shnum; s++)
				if (!strcmp(shstr + sh[s].sh_name, sname))
					secidx = s;
			if (!secidx) {
				snprintf(why, wlen, "no section %s", sname);
				free(f);
				free(btf);
				return NULL;
			}
			bt->size = sh[secidx].sh_size;
			for (j = 0; j < BTF_INFO_VLEN(bt->info); j++) {
				struct btf_type *var = (struct btf_type *)types[vs[j].type];
				const char *vname = strs + var->name_off;
				Elf64_Sym *sym;
				size_t k, nsym;

				if (!symtab)
					break;
				sym = (Elf64_Sym *)(f + symtab->sh_offset);
				nsym = symtab->sh_size / sizeof(*sym);
				for (k = 0; k < nsym; k++) {
					const char *symname = (const char *)f +
						sh[symtab->sh_link].sh_offset + sym[k].st_name;

					if (sym[k].st_shndx == secidx &&
					    !strcmp(symname, vname))
						vs[j].offset = sym[k].st_value;
				}
			}
		}
	}
	free(f);
	*out_len = btf_len;
	return btf;
}

/* kst load-btf (objects 0: raw BTF files) or load-obj (objects 1: the
 * .BTF of BPF ELF objects): one accept/LABEL result per LABEL=FILE argument.
 */
static void cmd_load(int argc, char **argv, int objects)
{
	char why[128];
	int i;

	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		size_t len;
		void *p;

		if (!eq) {
			result(argv[i], 0, "argument is not LABEL=FILE");
			continue;
		}
		*eq = 0;
		if (objects) {
			p = obj_btf(eq + 1, &len, why, sizeof(why));
			if (!p)
				result(argv[i], 0, "%s: %s", eq + 1, why);
		} else {
			p = slurp(eq + 1, &len);
			if (!p)
				result(argv[i], 0, "cannot read %s", eq + 1);
		}
		if (p) {
			accept_blob(argv[i], p, len);
			free(p);
		}
	}
}

/* ---- malformed BTF ------------------------------------------------------- */

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 11);
}

/* a valid blob with every kind, the base of the mutations */
static void fuzz_base(struct bb *b)
{
	unsigned int in, u32, ch, e, e64, arr, st, un, p, td, cst, vol, fp,
		     fn, var, fl, flex;
	static const char *const names[] = { "A", "B", "C" };
	static const int64_t vals[] = { -1, 1, 0x7fffffff };

	bb_init(b);
	in = bb_int(b, "int", 4, 32, BTF_INT_SIGNED);
	u32 = bb_int(b, "unsigned int", 4, 32, 0);
	ch = bb_int(b, "char", 1, 8, BTF_INT_CHAR);
	e = bb_enum(b, "e", 0, rnd() % 2 ? 1 : 4, rnd() % 2, 3, names, vals);
	e64 = bb_enum(b, "e64", 1, 8, 1, 3, names, vals);
	arr = bb_array(b, ch, u32, 8);
	flex = bb_array(b, in, u32, 0);
	fl = bb_float(b, "float", 4);
	p = bb_ptr(b, 0);
	st = bb_struct(b, "s", 0, 1, 8, 40);
	bb_member(b, "a", e, 0, 2);
	bb_member(b, "b", e, 2, 2);
	bb_member(b, "c", in, 8, 8);
	bb_member(b, "name", arr, 32, 0);
	bb_member(b, "x", e64, 128, 0);
	bb_member(b, "f", fl, 192, 0);
	bb_member(b, "p", p, 256, 0);
	bb_member(b, "d", flex, 320, 0);
	un = bb_struct(b, "u", 1, 0, 2, 40);
	bb_member(b, "s", st, 0, 0);
	bb_member(b, "i", in, 0, 0);
	td = bb_type(b, "td", BTF_KIND_TYPEDEF, 0, 0, st);
	cst = bb_type(b, NULL, BTF_KIND_CONST, 0, 0, td);
	vol = bb_type(b, NULL, BTF_KIND_VOLATILE, 0, 0, cst);
	fp = bb_type(b, NULL, BTF_KIND_FUNC_PROTO, 0, 1, in);
	bb_u32(b, bb_str(b, "arg"));
	bb_u32(b, vol);
	fn = bb_type(b, "fn", BTF_KIND_FUNC, 0, 1, fp);
	var = bb_type(b, "v", BTF_KIND_VAR, 0, 0, un);
	bb_u32(b, 1);
	bb_type(b, ".data", BTF_KIND_DATASEC, 0, 1, 40);
	bb_u32(b, var);
	bb_u32(b, 0);
	bb_u32(b, 40);
	bb_type(b, "tag", BTF_KIND_DECL_TAG, 0, 0, st);
	bb_u32(b, (uint32_t)-1);
	bb_type(b, "fwd", BTF_KIND_FWD, rnd() % 2, 0, 0);
	bb_type(b, "ttag", BTF_KIND_TYPE_TAG, 0, 0, in);
	bb_type(b, NULL, BTF_KIND_RESTRICT, 0, 0, p);
	(void)fn;
	bb_finish(b);
}

/* Pin an array map of value type id and read it back: exercises the
 * pretty printer on whatever the kernel accepted.
 */
static int fuzz_show(int btf_fd, unsigned int key_id, unsigned int id,
		     unsigned int size)
{
	static unsigned char val[4096];
	const char *pin = BPFFS "/kst_fuzz";
	uint32_t k = 0;
	unsigned int i;
	char *text;
	int fd;

	if (!size || size > sizeof(val))
		return 0;
	fd = map_create(BPF_MAP_TYPE_ARRAY, 4, size, 1, 0, btf_fd, key_id, id);
	if (fd < 0)
		return 0;
	for (i = 0; i < size; i++)
		val[i] = rnd();
	map_update(fd, &k, val);
	unlink(pin);
	if (!obj_pin(fd, pin)) {
		text = read_file(pin, NULL);
		free(text);
		unlink(pin);
	}
	close(fd);
	return 1;
}

static void cmd_fuzz(int n, uint64_t seed)
{
	static struct bb b;
	static unsigned char blob[sizeof(b.blob)];
	int i, accepted = 0, shown = 0, errs[140] = { 0 };

	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	fuzz_base(&b);
	i = btf_load(b.blob, b.blen, 1, 0);
	if (i < 0) {
		printf("fuzz_btf_load: the unmutated base blob is rejected: %s: %s\n",
		       strerror(-i), last_log_line());
		result("fuzz_btf_load", 0, "the base blob is rejected: %s",
		       last_log_line());
		return;
	}
	close(i);
	for (i = 0; i < n; i++) {
		unsigned int len, m, nmut, id;
		int fd, log_level;

		fuzz_base(&b);
		len = b.blen;
		memcpy(blob, b.blob, len);
		nmut = 1 + (rnd() % 4 == 0);
		for (m = 0; m < nmut; m++) {
			unsigned int hl = sizeof(struct btf_header);
			unsigned int where = rnd() % 10;
			unsigned int off;

			switch (where) {
			case 0:	/* header field */
				off = 4 + 4 * (rnd() % 5);
				((uint32_t *)blob)[off / 4] += (int)(rnd() % 17) - 8;
				break;
			case 1:	/* truncate */
				len = hl + rnd() % (len - hl);
				break;
			case 2:	/* a type's info word: kind, kflag, vlen */
				off = hl + 4 + 4 * (rnd() % (b.tlen / 4));
				blob[off + rnd() % 4] ^= 1 << (rnd() % 8);
				break;
			case 3:	/* a word of the type section: small value */
				off = hl + 4 * (rnd() % (b.tlen / 4));
				((uint32_t *)(blob + off))[0] = rnd() % 64;
				break;
			case 4:	/* a word of the type section: bit offsets */
				off = hl + 4 * (rnd() % (b.tlen / 4));
				((uint32_t *)(blob + off))[0] =
					(rnd() % 70) | ((rnd() % 3) ? 0 : (rnd() % 70) << 24);
				break;
			case 5:	/* string table byte */
				blob[hl + b.tlen + rnd() % b.slen] = rnd() % 3 ? 0 : 'A' + rnd() % 60;
				break;
			default:	/* random byte */
				blob[hl + rnd() % (len - hl)] ^= 1 << (rnd() % 8);
				break;
			}
			if (len <= hl)
				len = hl + 1;
		}
		log_level = rnd() % 3 ? 1 : 0;
		fd = btf_load(blob, len, log_level, rnd() % 2 ? 0 : 64 + rnd() % 256);
		if (fd < 0) {
			errs[-fd < 139 ? -fd : 139]++;
			if (-fd >= 139)
				printf("fuzz_btf_load: blob %d: errno %d\n", i, -fd);
			continue;
		}
		accepted++;
		{
			/* every sized type of what the kernel accepted
			 * becomes the value type of a pinned map
			 */
			struct btf_header *h = (struct btf_header *)blob;
			unsigned char *t = blob + h->hdr_len + h->type_off;
			unsigned char *tend = t + h->type_len;

			for (id = 1; t + sizeof(struct btf_type) <= tend; id++) {
				struct btf_type *bt = (struct btf_type *)t;
				int kind = BTF_INFO_KIND(bt->info);

				t += btf_type_len(bt);
				if (kind == BTF_KIND_INT || kind == BTF_KIND_STRUCT ||
				    kind == BTF_KIND_UNION || kind == BTF_KIND_ENUM ||
				    kind == BTF_KIND_ENUM64 || kind == BTF_KIND_FLOAT)
					shown += fuzz_show(fd, 2, id, bt->size);
			}
		}
		close(fd);
	}
	printf("fuzz_btf_load: %d mutated blobs: %d accepted (%d maps pinned and read), rejected:",
	       n, accepted, shown);
	for (i = 1; i < 140; i++)
		if (errs[i])
			printf(" %s x%d", i < 139 ? strerror(i) : "other", errs[i]);
	printf("\n");
	result("fuzz_btf_load", 1, "");
}

/* ---- the table of "kst run" ------------------------------------------------ */

/* One row per test, run in this order; kst run FILTER runs the rows whose
 * name contains FILTER.
 */
static const struct kst_test tests[] = {
	/* patch 2 */
	{ "p2_enum1_member_at_end", run_btf_case, b_enum1_at_end, 0, NULL },
	{ "p2_enum2_member_at_end", run_btf_case, b_enum2_at_end, 0, NULL },
	{ "p2_enum64_member_past_end", run_btf_case, b_enum64_past_end, EINVAL,
	  "\te type_id=1 bitfield_size=0 bits_offset=0 Member exceeds struct_size" },
	{ "p2_enum64_bitfield_40", run_btf_case, b_enum64_bitfield40, 0, NULL },
	{ "p2_enum1_bitfield_9", run_btf_case, b_enum1_bitfield9, EINVAL,
	  "\te type_id=1 bitfield_size=9 bits_offset=0 Invalid member bitfield_size" },
	{ "ctl_enum4_bitfields", run_btf_case, b_enum4_bitfields, 0, NULL },
	/* patch 4 */
	{ "p4_overlap_int", run_btf_case, b_overlap_int, EINVAL,
	  "\tb type_id=1 bits_offset=16 Member overlaps the previous member" },
	{ "p4_overlap_kflag_bitfields", run_btf_case, b_overlap_kflag_bitfields, EINVAL,
	  "\tb type_id=1 bitfield_size=8 bits_offset=4 Member overlaps the previous member" },
	{ "p4_overlap_legacy_bitfields", run_btf_case, b_overlap_legacy_bitfields, EINVAL,
	  "\tb type_id=1 bits_offset=4 Member overlaps the previous member" },
	{ "p4_overlap_struct_member", run_btf_case, b_overlap_struct_member, EINVAL,
	  "\tc type_id=1 bits_offset=32 Member overlaps the previous member" },
	{ "ctl_legal_layouts", run_btf_case, b_legal_layouts, 0, NULL },
	/* patch 1 */
	{ "p1_lpm_trie_cat", test_lpm_cat },
	{ "p1_lpm_trie_cat_racing_updates", test_lpm_race },
	/* patch 3 */
	{ "p3_bpffs_show_enums_bitfields_floats", test_show },
	/* patch 5 */
	{ "p5_core_relo_without_func_info", test_core_relo },
};

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	const char *filter = argc > 2 ? argv[2] : NULL;
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: kst run [FILTER] | load-btf LABEL=FILE... | load-obj LABEL=FILE.o... | fuzz N SEED\n");
		return 2;
	}
	if (!strcmp(argv[1], "load-btf")) {
		cmd_load(argc - 2, argv + 2, 0);
	} else if (!strcmp(argv[1], "load-obj")) {
		cmd_load(argc - 2, argv + 2, 1);
	} else if (!strcmp(argv[1], "fuzz") && argc == 4) {
		cmd_fuzz(atoi(argv[2]), strtoull(argv[3], NULL, 0));
	} else if (!strcmp(argv[1], "run")) {
		for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			if (!filter || strstr(tests[i].name, filter))
				tests[i].run(&tests[i]);
	} else {
		fprintf(stderr, "kst: unknown command %s\n", argv[1]);
		return 2;
	}
	printf("kst: %d passed, %d failed\n", nr_pass, nr_fail);
	return nr_fail ? 1 : 0;
}
