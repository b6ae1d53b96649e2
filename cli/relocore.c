// SPDX-License-Identifier: MIT
/*
 * relocore.c - the relocore command: main() and its command table (one
 * row per command: explain, reloc, run, btfgen, archive, extract, gen,
 * check), and the two commands that only print or apply the engine's
 * decisions:
 *
 *   relocore explain OBJ [--btf FILE] [--json]
 *   relocore reloc OBJ --btf FILE -o OUT.o [--kernel-release REL] [--kconfig F]
 *
 * The others live in a file per family: run.c (with load_opts.c, probe.c,
 * attach.c), check.c, btfgen_cmd.c (btfgen, gen, archive), extract.c.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "heap.h"
#include "relocore.h"

struct opts {
	const char *obj;
	const char *out;
	struct target_opts t;
	bool json;
	const char *kernel_release, *kconfig;
	const char *object;	/* --object N|NAME */
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: relocore COMMAND [OPTIONS]\n"
"\n"
"Commands:\n"
"  explain OBJ [--btf FILE] [--json]\n"
"        Decide every CO-RE relocation of OBJ against the target BTF and\n"
"        print one line per relocation: section, instruction, kind, the\n"
"        access as C, the target type, old -> new value, or why the\n"
"        relocation was poisoned or refused.  Exit 1 if any was refused.\n"
"  reloc OBJ --btf FILE -o OUT [--kernel-release REL] [--kconfig FILE]\n"
"        Write OBJ relocated for the target: instructions patched, the\n"
"        core_relo records consumed, everything else kept, so stock libbpf\n"
"        loads it without doing CO-RE.  Nothing is written on failure.\n"
"        With --kernel-release/--kconfig, the .kconfig externs are baked\n"
"        with the target's values (see relocore reloc --help).\n"
"  run OBJ [--btf FILE] [--duration SECS] [--json] [-- COMMAND...]\n"
"        Relocate OBJ for the running kernel, load and attach it, print its\n"
"        events and maps (see relocore run --help).\n"
"  check OBJ (--btf FILE | --archive A [--release R | --all]) [--json]\n"
"        Will each program of OBJ load and attach on the target kernel(s)?\n"
"        Decided offline; exit 0 all ok, 1 not, 2 bad input (see\n"
"        relocore check --help).\n"
"  btfgen --btf FULL -o MIN OBJ...\n"
"        Minimized BTF: what the objects' relocations need of FULL.\n"
"  archive create|list|extract|install ...\n"
"        Many kernels' BTF in one file (see relocore archive --help).\n"
"  extract BIN [-o DIR] [--object N|NAME] [--list] [--json]\n"
"        Write out the BPF objects embedded in BIN (a libbpf skeleton's\n"
"        binary): DIR/NAME.o each (see relocore extract --help).\n"
"  gen min_core_btf INPUT OUTPUT OBJECT...\n"
"        btfgen in bpftool's argument order.\n"
"  matrix OBJ... [--kernels NAME,...|all] [--kernel NAME=VMLINUZ] [--json F]\n"
"        Boot each kernel in QEMU, load and attach OBJ there, relocore\n"
"        check's offline prediction beside each verdict (see relocore\n"
"        matrix --help).\n"
"\n"
"OBJ is a BPF ELF object, or a binary that embeds one (a libbpf skeleton's\n"
"tool; explain, reloc, run, btfgen): --object picks one of several.\n"
"\n"
"Options:\n"
"  -h, --help       this text; COMMAND --help: the command's options\n"
"  -V, --version    print the versions of relocore, librelocore and libbpf\n"
"\n"
"Manual: relocore(1) and relocore-COMMAND(1).\n");
}

static void explain_usage(FILE *f)
{
	fprintf(f,
"usage: relocore explain OBJ [OPTIONS]\n"
"\n"
"Decide every CO-RE relocation of OBJ against the target BTF and print one\n"
"line per relocation: section, instruction, kind, the access as C, the\n"
"target type, old -> new value, or why the relocation was poisoned or\n"
"refused.  Exit 1 if any was refused.  OBJ is a BPF ELF object, or a\n"
"binary that embeds one (a libbpf skeleton's tool).\n"
"\n"
"Options:\n"
TARGET_HELP
"  --object N|NAME  the embedded object of OBJ to use, by index or name\n"
"                   (relocore extract --list BIN lists them)\n"
"  --json           one JSON object: every relocation and its decision\n"
"  -h, --help       this text\n");
}

static void reloc_usage(FILE *f)
{
	fprintf(f,
"usage: relocore reloc OBJ --btf FILE -o OUT [OPTIONS]\n"
"\n"
"Write OBJ relocated for the target: instructions patched, the core_relo\n"
"records consumed, everything else kept, so stock libbpf loads it without\n"
"doing CO-RE.  Nothing is written on failure.  With --kernel-release or\n"
"--kconfig, the .kconfig externs (LINUX_KERNEL_VERSION, CONFIG_*, the\n"
"plugin's __bpf_* globals) are baked too, with the target's values: they\n"
"become read-only data (section .rodata.kconfig) that libbpf loads as a\n"
"frozen map, so the verifier prunes on the baked values, not the running\n"
"kernel's.  OBJ is a BPF ELF object, or a binary that embeds one.\n"
"\n"
"Options:\n"
TARGET_HELP
"  --object N|NAME  the embedded object of OBJ to use, by index or name\n"
"                   (relocore extract --list BIN lists them)\n"
"  -o, --output OUT output object (required)\n"
"  --kernel-release REL  bake .kconfig externs for the kernel whose\n"
"                   `uname -r` is REL (default with --kconfig: --release)\n"
"  --kconfig FILE   the target's kernel config (.config or config.gz) for\n"
"                   CONFIG_* externs\n"
"  --json           what was applied, the output, the .kconfig externs baked\n"
"  -h, --help       this text\n");
}

static int parse_opts(int argc, char **argv, struct opts *o,
		      void (*usage)(FILE *f))
{
	static const struct option lo[] = {
		TARGET_LONGOPTS,
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "kernel-release", required_argument, NULL, 'K' },
		{ "kconfig", required_argument, NULL, 'k' },
		{ "object", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, r;

	memset(o, 0, sizeof(*o));
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		r = target_opt(&o->t, c, optarg);
		if (r < 0)
			return -1;
		if (r)
			continue;
		switch (c) {
		case 'j': o->json = true; break;
		case 'o': o->out = optarg; break;
		case 'K': o->kernel_release = optarg; break;
		case 'k': o->kconfig = optarg; break;
		case 'O': o->object = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "relocore: expected exactly one object file\n");
		usage(stderr);
		return -1;
	}
	o->obj = argv[optind];
	return 0;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* "struct task_struct" for type @id of @btf, "" when there is none. */
static void type_str(const struct rc_btf *btf, uint32_t id, char *buf, size_t sz)
{
	const struct btf_type *t;
	const char *kw = "", *name;

	buf[0] = 0;
	if (!btf || !id || id >= rc_btf_type_cnt(btf))
		return;
	t = rc_btf_type_by_id(btf, id);
	if (!t)	/* malformed */
		return;
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT: kw = "struct "; break;
	case BTF_KIND_UNION: kw = "union "; break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: kw = "enum "; break;
	case BTF_KIND_FWD: kw = "fwd "; break;
	case BTF_KIND_TYPEDEF: kw = "typedef "; break;
	}
	name = rc_btf_str(btf, t->name_off);
	snprintf(buf, sz, "%s%s", kw, name && *name ? name : "<anon>");
}

static const char *outcome_str(const struct rc_result *r)
{
	if (r->d.outcome == RC_ERROR || r->patch_err[0])
		return "error";
	return r->d.outcome == RC_POISON ? "poisoned" : "ok";
}

static void print_text_one(FILE *f, const struct rc_result *r)
{
	char acc[256], tt[160];

	rc_spec_format(&r->d.local, acc, sizeof(acc));
	type_str(r->d.targ_btf, r->d.targ_type_id, tt, sizeof(tt));
	fprintf(f, "%-24s #%-5u %-14s %-36s ", r->section, r->insn_idx,
		rc_relo_kind_str(r->relo.kind), acc[0] ? acc : r->access);
	if (r->d.outcome == RC_ERROR)
		fprintf(f, "REFUSED: %s\n", r->d.reason);
	else if (r->patch_err[0])
		fprintf(f, "REFUSED: %s\n", r->patch_err);
	else if (r->d.outcome == RC_POISON)
		fprintf(f, "POISONED: %s\n", r->d.reason);
	else if (tt[0])
		fprintf(f, "=> %s [%u]  %llu -> %llu\n", tt, r->d.targ_type_id,
			(unsigned long long)r->d.orig_val, (unsigned long long)r->d.new_val);
	else
		fprintf(f, "=> (none)  %llu -> %llu\n",
			(unsigned long long)r->d.orig_val, (unsigned long long)r->d.new_val);
}

/* One relocation as an element of "relocations" (@first: no comma). */
static void print_json_one(FILE *f, const struct rc_object *obj,
			   const struct rc_result *r, bool first)
{
	char acc[256], lt[160], tt[160], spec[RC_MAX_SPEC_LEN * 12] = "";
	size_t len = 0;
	int k;

	rc_spec_format(&r->d.local, acc, sizeof(acc));
	type_str(rc_object_types(obj), r->relo.type_id, lt, sizeof(lt));
	type_str(r->d.targ_btf, r->d.targ_type_id, tt, sizeof(tt));
	for (k = 0; r->d.targ_type_id && k < r->d.targ.raw_len; k++)
		len += snprintf(spec + len, sizeof(spec) - len, "%s%u",
				k ? ":" : "", r->d.targ.raw[k]);
	fprintf(f, "%s{\"section\":", first ? "" : ",");
	json_str(f, r->section);
	fprintf(f, ",\"insn\":%u,\"kind\":\"%s\",\"access\":", r->insn_idx,
		rc_relo_kind_str(r->relo.kind));
	json_str(f, acc);
	fprintf(f, ",\"spec\":");
	json_str(f, r->access);
	fprintf(f, ",\"target_spec\":");
	json_str(f, spec);
	fprintf(f, ",\"local_type_id\":%u,\"local_type\":", r->relo.type_id);
	json_str(f, lt);
	fprintf(f, ",\"target_type_id\":%u,\"target_type\":", r->d.targ_type_id);
	json_str(f, tt);
	fprintf(f, ",\"target_bit_offset\":%u,\"old\":%llu,\"new\":%llu,\"result\":\"%s\",\"reason\":",
		r->d.targ.bit_offset, (unsigned long long)r->d.orig_val,
		(unsigned long long)r->d.new_val, outcome_str(r));
	json_str(f, r->d.outcome == RC_ERROR || !r->patch_err[0] ? r->d.reason : r->patch_err);
	fprintf(f, "}");
}

/* The document's head, up to the "relocations" array's "[".  @output,
 * @baked (reloc): the file written, the .kconfig externs baked (-1: none
 * asked for). */
static void print_json_head(const struct rc_object *obj, const char *target,
			    const char *output, int baked)
{
	printf("{\"object\":");
	json_str(stdout, rc_object_name(obj));
	printf(",\"target\":");
	json_str(stdout, target);
	if (output) {
		printf(",\"output\":");
		json_str(stdout, output);
	}
	if (baked >= 0)
		printf(",\"kconfig_baked\":%d", baked);
	printf(",\"relocations\":[");
}

/* Each relocation printed as it is decided (rc_object_relocate_each: no
 * result kept), to @f as text or JSON; @refused counts the refusals. */
struct printer {
	FILE *f;
	const struct rc_object *obj;
	bool json;
	size_t refused;
};

static int print_one(void *ctx, const struct rc_result *r, size_t i)
{
	struct printer *p = ctx;

	if (r->d.outcome == RC_ERROR || r->patch_err[0])
		p->refused++;
	if (!p->f)
		return 0;
	if (p->json)
		print_json_one(p->f, p->obj, r, i == 0);
	else
		print_text_one(p->f, r);
	return 0;
}

static int cmd_explain(int argc, char **argv)
{
	struct rc_error err = { "" };
	struct printer pr = { stdout };
	struct rc_object *obj;
	struct rc_target *t;
	struct opts o;
	int ret = 0;

	if (parse_opts(argc, argv, &o, explain_usage))
		return 2;
	t = target_open_for(&o.t, o.obj, o.object, &obj);
	if (!t)
		return 1;
	pr.obj = obj;
	pr.json = o.json;
	if (o.json)
		print_json_head(obj, o.t.what, NULL, -1);
	else
		printf("%s: %zu CO-RE relocation(s) against %s\n", rc_object_name(obj),
		       rc_object_relo_count(obj), o.t.what);
	if (rc_object_relocate_each(obj, t, print_one, &pr, &err) || pr.refused)
		ret = 1;
	if (o.json)
		printf("]}\n");
	if (ret && err.msg[0])
		fprintf(stderr, "relocore: %s\n", err.msg);
	rc_target_free(t);
	rc_object_free(obj);
	return ret;
}

/* reloc --kernel-release/--kconfig: replace *@obj by its baked copy;
 * the number of externs baked, or -1. */
static int bake(struct rc_object **obj, struct opts *o, struct rc_target *t)
{
	struct rc_kconfig kc = { .release = o->kernel_release };
	struct rc_error err = { "" };
	struct rc_object *baked;
	char *text = NULL;
	int n;

	if (!kc.release)
		kc.release = o->t.release;
	if (o->kconfig) {
		if (rc_kconfig_read(o->kconfig, &text, &kc.config_len, &err)) {
			fprintf(stderr, "relocore: --kconfig %s\n", err.msg);
			return -1;
		}
		kc.config = text;
	}
	baked = rc_object_bake_kconfig(*obj, &kc, t, &n, &err);
	free(text);
	if (!baked) {
		fprintf(stderr, "relocore: %s\n", err.msg);
		return -1;
	}
	fprintf(stderr, "relocore: %s: %d .kconfig extern(s) baked for %s\n",
		rc_object_name(baked), n, kc.release ? kc.release : "the given config");
	rc_object_free(*obj);
	*obj = baked;
	return n;
}

static int cmd_reloc(int argc, char **argv)
{
	struct printer pr = { NULL };
	char *list = NULL;
	size_t list_len = 0;
	struct rc_error err = { "" };
	int baked = -1;
	struct rc_object *obj;
	struct rc_target *t;
	struct opts o;
	int ret = 1;

	if (parse_opts(argc, argv, &o, reloc_usage))
		return 2;
	if (!o.out) {
		fprintf(stderr, "relocore reloc: -o OUT is required\n");
		return 2;
	}
	t = target_open_for(&o.t, o.obj, o.object, &obj);
	if (!t)
		return 1;
	if ((o.kernel_release || o.kconfig) && (baked = bake(&obj, &o, t)) < 0)
		goto out;
	/* --json: the relocations printed as decided, into memory (a few
	 * hundred bytes each, not a result's 3 KB), shown once written */
	pr.obj = obj;
	pr.json = true;
	if (o.json && !(pr.f = open_memstream(&list, &list_len))) {
		fprintf(stderr, "relocore: out of memory\n");
		goto out;
	}
	if (!rc_object_relocate_each(obj, t, print_one, &pr, &err) &&
	    !rc_object_write(obj, o.out, &err))
		ret = 0;
	else
		fprintf(stderr, "relocore: %s\n", err.msg);
	if (pr.f && fclose(pr.f)) {
		fprintf(stderr, "relocore: out of memory\n");
		ret = 1;
	}
	if (!ret && o.json) {
		print_json_head(obj, o.t.what, o.out, baked);
		fwrite(list, 1, list_len, stdout);
		printf("]}\n");
	}
	free(list);
out:
	rc_target_free(t);
	rc_object_free(obj);
	return ret;
}

/* The command table: adding a command is one row (and its own file). */
static const struct cmd {
	const char *name;
	int (*func)(int argc, char **argv);
} cmds[] = {
	{ "explain", cmd_explain },
	{ "reloc", cmd_reloc },
	{ "run", cmd_run },
	{ "btfgen", cmd_btfgen },
	{ "archive", cmd_archive },
	{ "extract", cmd_extract },
	{ "gen", cmd_gen },
	{ "check", cmd_check },
	{ "matrix", cmd_matrix },
};

int main(int argc, char **argv)
{
	size_t i;

	cli_heap_in_huge_pages();
	libbpf_set_print(NULL);
	if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("relocore %s (librelocore %s, libbpf %s)\n", RC_CLI_VERSION,
		       rc_version(), libbpf_version_string());
		return 0;
	}
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].func(argc - 1, argv + 1);
	fprintf(stderr, "relocore: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
