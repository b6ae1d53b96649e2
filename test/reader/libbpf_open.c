// SPDX-License-Identifier: MIT
/*
 * libbpf_open OBJ... - what libbpf's own open makes of each object, one
 * line per fact, for test/reader/run.sh to compare with relocore's read:
 *
 *   open OBJ ok
 *   open OBJ refused ERRNO: LAST LIBBPF WARNING (or its last message)
 *   prog NAME SECTION TYPE ATTACH_TYPE INSNS AUTOLOAD
 *   map NAME TYPE KEY_SIZE VALUE_SIZE MAX_ENTRIES FLAGS
 *   extern NAME KIND      (kcfg or ksym: libbpf's debug message as it
 *                          collects the externs; libbpf has no API for them)
 *
 * Linked against the system's libbpf (Debian 12: 1.1.2); `libbpf_open
 * --version` prints its version.  bpf_object__open_file reads the ELF,
 * the BTF, the programs, maps and externs and refuses what libbpf cannot
 * load; nothing touches the kernel.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

/* libbpf's last warning, and its last message of any level (some
 * refusals come without a warning) */
static char last_warn[512], last_any[512];

/* the externs libbpf collected: "extern (kcfg) #0: symbol 18, off 0, name X" */
#define MAX_EXTERNS 256
static char externs[MAX_EXTERNS][160];
static int nr_externs;

static void take_extern(const char *msg)
{
	const char *k = strstr(msg, "extern ("), *n = strstr(msg, ", name ");
	int klen;

	if (!k || !n || nr_externs >= MAX_EXTERNS || !strstr(msg, ": symbol "))
		return;
	k += strlen("extern (");
	klen = (int)strcspn(k, ")");
	n += strlen(", name ");
	snprintf(externs[nr_externs++], sizeof(externs[0]), "%.*s %.*s",
		 (int)strcspn(n, " \n"), n, klen, k);
}

static int on_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *buf = level == LIBBPF_WARN ? last_warn : last_any, *nl;

	vsnprintf(buf, sizeof(last_warn), fmt, ap);
	if (level == LIBBPF_DEBUG)
		take_extern(buf);
	while ((nl = strchr(buf, '\n')) || (nl = strchr(buf, '\t')))
		*nl = nl[1] ? ' ' : '\0';
	return 0;
}

static const char *or_num(const char *s, unsigned int v, char *buf, size_t sz)
{
	if (s)
		return s;
	snprintf(buf, sz, "%u", v);
	return buf;
}

static int one(const char *path)
{
	struct bpf_object *obj;
	struct bpf_program *p;
	struct bpf_map *m;
	char b1[16], b2[16];
	int err, i;

	last_warn[0] = last_any[0] = '\0';
	nr_externs = 0;
	obj = bpf_object__open_file(path, NULL);
	err = libbpf_get_error(obj);
	if (err) {
		if (last_warn[0])
			printf("open %s refused %d: %s\n", path, -err, last_warn);
		else
			printf("open %s refused %d: (no warning; last message: %s)\n", path, -err, last_any);
		return 0;
	}
	printf("open %s ok\n", path);
	bpf_object__for_each_program(p, obj) {
		enum bpf_prog_type t = bpf_program__type(p);
		enum bpf_attach_type a = bpf_program__expected_attach_type(p);

		printf("prog %s %s %s %s %zu %d\n", bpf_program__name(p),
		       bpf_program__section_name(p),
		       or_num(libbpf_bpf_prog_type_str(t), t, b1, sizeof(b1)),
		       or_num(libbpf_bpf_attach_type_str(a), a, b2, sizeof(b2)),
		       bpf_program__insn_cnt(p), bpf_program__autoload(p));
	}
	bpf_object__for_each_map(m, obj) {
		enum bpf_map_type t = bpf_map__type(m);

		printf("map %s %s %u %u %u %u\n", bpf_map__name(m),
		       or_num(libbpf_bpf_map_type_str(t), t, b1, sizeof(b1)),
		       bpf_map__key_size(m), bpf_map__value_size(m),
		       bpf_map__max_entries(m), bpf_map__map_flags(m));
	}
	for (i = 0; i < nr_externs; i++)
		printf("extern %s\n", externs[i]);
	bpf_object__close(obj);
	return 0;
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout, "usage: libbpf_open OBJ... | --version\n");
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("libbpf %s\n", libbpf_version_string());
		return 0;
	}
	libbpf_set_print(on_print);
	for (i = 1; i < argc; i++)
		one(argv[i]);
	return 0;
}
