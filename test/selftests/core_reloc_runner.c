/* SPDX-License-Identifier: MIT */
/*
 * core_reloc_runner - offline conformance test of relocore against the
 * kernel's own CO-RE selftest table (tools/testing/selftests/bpf/
 * prog_tests/core_reloc.c of linux-source-6.1).
 *
 * How expectations are derived
 * ----------------------------
 * The expectations are the selftest's own: this file #includes the tree's
 * prog_tests/core_reloc.c (path given by -DRC_CORE_RELOC_C) with a shim
 * test_progs.h (test/selftests/shim/), which makes its static test_cases[]
 * table, its `struct data` (the layout of the programs' global `data`) and
 * its setup functions part of this translation unit.  So, per case:
 *   - `.fails` says the relocation must not produce a runnable program;
 *   - `.input` is written into data.in, like the real test does through the
 *     mmap'ed .bss map, and data.my_pid_tgid is set the same way;
 *   - `.output`/`.output_len` is the expected prefix of data.out, built by
 *     the host compiler from the same core_reloc_types.h the BPF side uses;
 *   - the type-id cases compute their expected output in their `.setup`
 *     function with libbpf's BTF API (btf__parse of the unrelocated object
 *     and of the target): we run those setup functions as they are, offline.
 * Nothing is loaded into the kernel.  Where the real test relies on the
 * running kernel, we substitute offline equivalents:
 *   - "kernel": the target BTF is the Debian 6.1 cloud kernel's vmlinux BTF
 *     (vm/kernel-btf.sh); bpf_get_current_task() returns a synthetic
 *     task_struct whose pid/tgid/comm/group_leader are placed at the offsets
 *     libbpf's BTF API finds in that same target BTF (an oracle independent
 *     of relocore).  pid == tgid, as for test_progs' main thread.
 *   - module cases: the target is vmlinux BTF plus a split BTF holding the
 *     bpf_testmod types (from bpf_testmod.h, built here with libbpf's BTF
 *     writer over the vmlinux BTF, see `mkmodbtf`); the raw tracepoint
 *     context carries the synthetic task and a synthetic
 *     bpf_testmod_test_read_ctx { .len = <expected len>, .off = 0 } laid
 *     out per that module BTF, as the real trigger (a 123-byte read of
 *     /sys/kernel/bpf_testmod) would produce.
 *
 * Judgement
 * ---------
 * `relocore reloc OBJ --btf TARGET [--module MOD] -o OUT` is run; a non-zero
 * exit means "relocation refused".  Otherwise the program `.prog_name` of
 * OUT is executed by bpf_interp.c.  A `.fails` case passes if relocation
 * is refused or the program executes a poisoned instruction (call
 * 0xbad2310).  Any other case passes if relocation succeeds, the program
 * runs to completion and data.out starts with exactly `.output_len` bytes
 * of `.output`.
 *
 * Usage:
 *   core_reloc_runner list-objs          BPF objects the table names
 *   core_reloc_runner count              number of cases
 *   core_reloc_runner mkmodbtf VMLINUX_BTF OUT
 *   core_reloc_runner run --objdir D --relocore BIN --vmlinux-btf F
 *        --module-btf F [--workdir W] [--allow-core-relo] [-v] [CASE...]
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "test_progs.h"

/* ---- the selftest itself -------------------------------------------- */
#ifndef RC_CORE_RELOC_C
#error "build with -DRC_CORE_RELOC_C='\"<linux>/tools/testing/selftests/bpf/prog_tests/core_reloc.c\"'"
#endif
#include RC_CORE_RELOC_C

#include "bpf_interp.h"

/* ---- shim support ---------------------------------------------------- */
struct rc_shim_env env = { .has_testmod = true };
int rc_shim_failures;
static char shim_msg[512];

void rc_shim_report(const char *what, const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	buf[strcspn(buf, "\n")] = 0;
	rc_shim_failures++;
	if (!shim_msg[0])
		snprintf(shim_msg, sizeof(shim_msg), "%s: %s", what, buf);
}

void trigger_module_test_read(int read_sz)
{
	(void)read_sz;
}

/* ---- small utilities -------------------------------------------------- */
static bool verbose;

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p) {
		perror("calloc");
		exit(2);
	}
	return p;
}

/* Address-space layout of the interpreter. */
#define SEC_VADDR(i)	(0x100000000ULL * ((uint64_t)(i) + 1))
#define TASK_VADDR	0xffff888000100000ULL
#define MODCTX_VADDR	0xffff888000200000ULL
#define MODBUF_VADDR	0xffff888000300000ULL
#define CTX_VADDR	0xffffc90000010000ULL

#define FAKE_PID 4242U

/* ---- ELF object ------------------------------------------------------- */
struct osec {
	char name[64];
	GElf_Shdr sh;
	uint8_t *buf;		/* copy of the contents (zeroes for NOBITS) */
	uint64_t vaddr;		/* 0 if not mapped */
};

struct obj {
	int nsecs;
	struct osec *secs;
	GElf_Sym *syms;
	char **symnames;
	int nsyms;
	struct { int sec; GElf_Rel *rels; int n; } *rels;	/* per target sec */
	uint32_t core_relo_len;
	bool has_btf_ext;
};

static void obj_free(struct obj *o)
{
	if (!o->secs)
		return;
	for (int i = 0; i < o->nsecs; i++) {
		free(o->secs[i].buf);
		free(o->rels[i].rels);
	}
	for (int i = 0; i < o->nsyms; i++)
		free(o->symnames[i]);
	free(o->secs);
	free(o->rels);
	free(o->syms);
	free(o->symnames);
	memset(o, 0, sizeof(*o));
}

static int obj_load(struct obj *o, const char *path, char *err, size_t errlen)
{
	Elf *e = NULL;
	size_t shstrndx;
	int fd, symsec = -1, ret = -1;

	memset(o, 0, sizeof(*o));
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, errlen, "open %s: %s", path, strerror(errno));
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx)) {
		snprintf(err, errlen, "%s: not an ELF file", path);
		goto out;
	}
	if (elf_getshdrnum(e, (size_t *)&o->nsecs)) {
		snprintf(err, errlen, "%s: bad section table", path);
		goto out;
	}
	o->secs = xcalloc(o->nsecs, sizeof(*o->secs));
	o->rels = xcalloc(o->nsecs, sizeof(*o->rels));
	for (int i = 1; i < o->nsecs; i++) {
		Elf_Scn *scn = elf_getscn(e, i);
		struct osec *s = &o->secs[i];
		Elf_Data *d;
		const char *nm;

		if (!scn || !gelf_getshdr(scn, &s->sh)) {
			snprintf(err, errlen, "%s: bad section %d", path, i);
			goto out;
		}
		nm = elf_strptr(e, shstrndx, s->sh.sh_name);
		snprintf(s->name, sizeof(s->name), "%s", nm ? nm : "?");
		s->buf = xcalloc(s->sh.sh_size + 8, 1);
		if (s->sh.sh_type != SHT_NOBITS && s->sh.sh_size) {
			d = elf_getdata(scn, NULL);
			if (!d || !d->d_buf || d->d_size > s->sh.sh_size) {
				snprintf(err, errlen, "%s: cannot read section %s", path, s->name);
				goto out;
			}
			memcpy(s->buf, d->d_buf, d->d_size);
		}
		if (s->sh.sh_type == SHT_SYMTAB)
			symsec = i;
	}
	if (symsec < 0) {
		snprintf(err, errlen, "%s: no symbol table", path);
		goto out;
	}
	{
		Elf_Scn *scn = elf_getscn(e, symsec);
		Elf_Data *d = elf_getdata(scn, NULL);
		struct osec *s = &o->secs[symsec];

		o->nsyms = s->sh.sh_entsize ? s->sh.sh_size / s->sh.sh_entsize : 0;
		o->syms = xcalloc(o->nsyms, sizeof(*o->syms));
		o->symnames = xcalloc(o->nsyms, sizeof(*o->symnames));
		for (int i = 0; i < o->nsyms; i++) {
			const char *nm;

			gelf_getsym(d, i, &o->syms[i]);
			nm = elf_strptr(e, s->sh.sh_link, o->syms[i].st_name);
			o->symnames[i] = strdup(nm ? nm : "");
		}
	}
	for (int i = 1; i < o->nsecs; i++) {
		struct osec *s = &o->secs[i];
		int tgt = s->sh.sh_info, n;
		Elf_Data *d;

		if (s->sh.sh_type != SHT_REL || tgt <= 0 || tgt >= o->nsecs)
			continue;
		d = elf_getdata(elf_getscn(e, i), NULL);
		n = s->sh.sh_entsize ? s->sh.sh_size / s->sh.sh_entsize : 0;
		o->rels[tgt].sec = i;
		o->rels[tgt].rels = xcalloc(n, sizeof(GElf_Rel));
		o->rels[tgt].n = n;
		for (int j = 0; j < n; j++)
			gelf_getrel(d, j, &o->rels[tgt].rels[j]);
	}
	for (int i = 1; i < o->nsecs; i++) {
		struct osec *s = &o->secs[i];

		if (strcmp(s->name, ".BTF.ext") == 0 && s->sh.sh_size >= 8) {
			uint32_t hdr_len;

			o->has_btf_ext = true;
			memcpy(&hdr_len, s->buf + 4, 4);
			if (hdr_len >= 32 && s->sh.sh_size >= 32)
				memcpy(&o->core_relo_len, s->buf + 28, 4);
		}
	}
	ret = 0;
out:
	if (e)
		elf_end(e);
	close(fd);
	if (ret)
		obj_free(o);
	return ret;
}

static int obj_find_sym(const struct obj *o, const char *name, int type)
{
	for (int i = 1; i < o->nsyms; i++)
		if (GELF_ST_TYPE(o->syms[i].st_info) == type &&
		    strcmp(o->symnames[i], name) == 0)
			return i;
	return -1;
}

/*
 * Maps every allocated section into the VM, and returns the instructions of
 * the program's section with LD_IMM64 relocations to data resolved.
 */
static struct bpf_insn *obj_prepare(struct obj *o, struct bi_vm *vm, int prog_sym,
				    size_t *cnt, size_t *start, char *err, size_t errlen)
{
	const GElf_Sym *ps = &o->syms[prog_sym];
	int psec = ps->st_shndx;
	struct bpf_insn *insns;

	for (int i = 1; i < o->nsecs; i++) {
		struct osec *s = &o->secs[i];

		if (!(s->sh.sh_flags & SHF_ALLOC))
			continue;
		s->vaddr = SEC_VADDR(i);
		bi_add_region(vm, s->name, s->vaddr, s->buf, s->sh.sh_size,
			      !!(s->sh.sh_flags & SHF_WRITE) || s->sh.sh_type == SHT_NOBITS);
	}
	if (psec <= 0 || psec >= o->nsecs) {
		snprintf(err, errlen, "program symbol has no section");
		return NULL;
	}
	*cnt = o->secs[psec].sh.sh_size / sizeof(struct bpf_insn);
	*start = ps->st_value / sizeof(struct bpf_insn);
	insns = xcalloc(*cnt + 1, sizeof(*insns));
	memcpy(insns, o->secs[psec].buf, *cnt * sizeof(*insns));

	for (int j = 0; j < o->rels[psec].n; j++) {
		const GElf_Rel *r = &o->rels[psec].rels[j];
		size_t idx = r->r_offset / sizeof(struct bpf_insn);
		int symi = GELF_R_SYM(r->r_info);
		const GElf_Sym *sym;
		struct bpf_insn *in;

		if (idx >= *cnt || symi <= 0 || symi >= o->nsyms)
			continue;
		in = &insns[idx];
		sym = &o->syms[symi];
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			uint64_t addr;

			if (idx + 1 >= *cnt)
				continue;
			if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= o->nsecs ||
			    !o->secs[sym->st_shndx].vaddr) {
				/* left unresolved: the interpreter stops if it runs it */
				continue;
			}
			addr = o->secs[sym->st_shndx].vaddr + sym->st_value + (uint32_t)in->imm;
			in[0].imm = (int32_t)(uint32_t)addr;
			in[1].imm = (int32_t)(uint32_t)(addr >> 32);
			in[0].src_reg = 0;
		} else if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL) {
			long target = (long)(sym->st_value / 8) + in->imm + 1;

			if (sym->st_shndx != psec) {
				snprintf(err, errlen, "cross-section subprogram calls are not supported");
				free(insns);
				return NULL;
			}
			in->imm = (int32_t)(target - (long)idx - 1);
		}
	}
	return insns;
}

/* ---- BTF oracle --------------------------------------------------------- */

/* Finds member `name` of struct/union `id`, looking into anonymous members;
 * returns its bit offset from the start of `id`, or -1. */
static long btf_member_bitoff(const struct btf *btf, __u32 id, const char *name,
			      __u32 *member_type)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (!t || !btf_is_composite(t))
		return -1;
	for (int i = 0; i < btf_vlen(t); i++) {
		const struct btf_member *m = btf_members(t) + i;
		const char *mn = btf__name_by_offset(btf, m->name_off);
		long off = btf_member_bit_offset(t, i);

		if (mn && mn[0]) {
			if (strcmp(mn, name) == 0) {
				if (member_type)
					*member_type = m->type;
				return off;
			}
			continue;
		}
		long sub = btf_member_bitoff(btf, m->type, name, member_type);

		if (sub >= 0)
			return off + sub;
	}
	return -1;
}

struct synth {
	uint8_t *mem;
	uint64_t size;
	uint64_t vaddr;
	char what[128];		/* description of the layout, for messages */
};

static int put_field(const struct btf *btf, __u32 sid, uint8_t *mem, uint64_t size,
		     const char *field, const void *val, size_t vlen, char *err, size_t errlen)
{
	__u32 ft = 0;
	long bo = btf_member_bitoff(btf, sid, field, &ft);
	long fsz;

	if (bo < 0 || bo % 8) {
		snprintf(err, errlen, "oracle: no byte-aligned member '%s' in target", field);
		return -1;
	}
	fsz = btf__resolve_size(btf, ft);
	if (fsz < 0 || (size_t)fsz < vlen || (uint64_t)(bo / 8 + vlen) > size) {
		snprintf(err, errlen, "oracle: member '%s' has unexpected size %ld", field, fsz);
		return -1;
	}
	memset(mem + bo / 8, 0, fsz);
	memcpy(mem + bo / 8, val, vlen);
	return 0;
}

/* A task_struct of the target kernel: pid == tgid == FAKE_PID, comm, and
 * group_leader pointing to itself.  Everything else is junk. */
static int make_task(const struct btf *vmlinux, struct synth *s, char *err, size_t errlen)
{
	int id = btf__find_by_name_kind(vmlinux, "task_struct", BTF_KIND_STRUCT);
	int pid = FAKE_PID;
	char comm[16] = "test_progs";
	uint64_t self = TASK_VADDR;
	long sz;

	if (id <= 0) {
		snprintf(err, errlen, "oracle: no struct task_struct in vmlinux BTF");
		return -1;
	}
	sz = btf__resolve_size(vmlinux, id);
	if (sz <= 0) {
		snprintf(err, errlen, "oracle: task_struct has no size");
		return -1;
	}
	s->size = sz;
	s->vaddr = TASK_VADDR;
	s->mem = xcalloc(sz, 1);
	memset(s->mem, 0xa5, sz);
	if (put_field(vmlinux, id, s->mem, sz, "pid", &pid, 4, err, errlen) ||
	    put_field(vmlinux, id, s->mem, sz, "tgid", &pid, 4, err, errlen) ||
	    put_field(vmlinux, id, s->mem, sz, "comm", comm, sizeof(comm), err, errlen) ||
	    put_field(vmlinux, id, s->mem, sz, "group_leader", &self, 8, err, errlen))
		return -1;
	snprintf(s->what, sizeof(s->what), "task_struct (%ld bytes): pid@%ld tgid@%ld comm@%ld group_leader@%ld",
		 sz, btf_member_bitoff(vmlinux, id, "pid", NULL) / 8,
		 btf_member_bitoff(vmlinux, id, "tgid", NULL) / 8,
		 btf_member_bitoff(vmlinux, id, "comm", NULL) / 8,
		 btf_member_bitoff(vmlinux, id, "group_leader", NULL) / 8);
	return 0;
}

/* bpf_testmod_test_read_ctx as laid out by the module BTF. */
static int make_read_ctx(const struct btf *mod, long long len, struct synth *s,
			 char *err, size_t errlen)
{
	int id = btf__find_by_name_kind(mod, "bpf_testmod_test_read_ctx", BTF_KIND_STRUCT);
	uint64_t buf = MODBUF_VADDR;
	long long off = 0;
	long sz;

	if (id <= 0) {
		snprintf(err, errlen, "oracle: no bpf_testmod_test_read_ctx in module BTF");
		return -1;
	}
	sz = btf__resolve_size(mod, id);
	s->size = sz;
	s->vaddr = MODCTX_VADDR;
	s->mem = xcalloc(sz, 1);
	memset(s->mem, 0x5a, sz);
	if (put_field(mod, id, s->mem, sz, "buf", &buf, 8, err, errlen) ||
	    put_field(mod, id, s->mem, sz, "off", &off, 8, err, errlen) ||
	    put_field(mod, id, s->mem, sz, "len", &len, 8, err, errlen))
		return -1;
	snprintf(s->what, sizeof(s->what), "bpf_testmod_test_read_ctx (%ld bytes)", sz);
	return 0;
}

/* ---- module BTF --------------------------------------------------------- */

static int find_base(const struct btf *base, const char *name, int kind)
{
	int id = btf__find_by_name_kind(base, name, kind);

	if (id <= 0)
		fprintf(stderr, "mkmodbtf: '%s' (kind %d) not in vmlinux BTF\n", name, kind);
	return id;
}

/*
 * The bpf_testmod module's BTF as split BTF over vmlinux: the types of
 * bpf_testmod.h, with member offsets/sizes taken from the host compiler's
 * view of that same header (x86-64 is the kernel's layout).
 */
static int cmd_mkmodbtf(const char *vmlinux_path, const char *out_path)
{
	struct btf *base = btf__parse(vmlinux_path, NULL), *m;
	int chr, loff, szt, bl, in, pchar, id;
	const void *raw;
	__u32 raw_sz;
	FILE *f;

	if (!base) {
		fprintf(stderr, "mkmodbtf: cannot parse %s\n", vmlinux_path);
		return 1;
	}
	chr = find_base(base, "char", BTF_KIND_INT);
	loff = find_base(base, "loff_t", BTF_KIND_TYPEDEF);
	szt = find_base(base, "size_t", BTF_KIND_TYPEDEF);
	bl = find_base(base, "_Bool", BTF_KIND_INT);
	in = find_base(base, "int", BTF_KIND_INT);
	if (chr <= 0 || loff <= 0 || szt <= 0 || bl <= 0 || in <= 0)
		return 1;
	m = btf__new_empty_split(base);
	if (!m)
		return 1;
	pchar = btf__add_ptr(m, chr);
#define ADD_RW_CTX(sname)							\
	id = btf__add_struct(m, #sname, sizeof(struct sname));			\
	if (id < 0 ||								\
	    btf__add_field(m, "buf", pchar, offsetof(struct sname, buf) * 8, 0) || \
	    btf__add_field(m, "off", loff, offsetof(struct sname, off) * 8, 0) || \
	    btf__add_field(m, "len", szt, offsetof(struct sname, len) * 8, 0))	\
		goto err;
	ADD_RW_CTX(bpf_testmod_test_read_ctx);
	ADD_RW_CTX(bpf_testmod_test_write_ctx);
#undef ADD_RW_CTX
	id = btf__add_struct(m, "bpf_testmod_test_writable_ctx",
			     sizeof(struct bpf_testmod_test_writable_ctx));
	if (id < 0 ||
	    btf__add_field(m, "early_ret", bl,
			   offsetof(struct bpf_testmod_test_writable_ctx, early_ret) * 8, 0) ||
	    btf__add_field(m, "val", in,
			   offsetof(struct bpf_testmod_test_writable_ctx, val) * 8, 0))
		goto err;
	raw = btf__raw_data(m, &raw_sz);
	if (!raw)
		goto err;
	f = fopen(out_path, "wb");
	if (!f || fwrite(raw, 1, raw_sz, f) != raw_sz || fclose(f)) {
		perror(out_path);
		return 1;
	}
	btf__free(m);
	btf__free(base);
	return 0;
err:
	fprintf(stderr, "mkmodbtf: building BTF failed\n");
	return 1;
}

/* ---- running relocore ------------------------------------------------- */

static int run_relocore(const char *relocore, const char *obj, const char *btf,
			const char *mod, const char *out, const char *log,
			char *msg, size_t msglen)
{
	const char *argv[16];
	int argc = 0, status;
	pid_t pid;

	argv[argc++] = relocore;
	argv[argc++] = "reloc";
	argv[argc++] = obj;
	argv[argc++] = "--btf";
	argv[argc++] = btf;
	if (mod) {
		argv[argc++] = "--module";
		argv[argc++] = mod;
	}
	argv[argc++] = "-o";
	argv[argc++] = out;
	argv[argc] = NULL;

	unlink(out);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		alarm(120);
		execv(relocore, (char **)argv);
		fprintf(stderr, "exec %s: %s\n", relocore, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;

	/* first non-empty line of the log, for messages */
	msg[0] = 0;
	{
		FILE *f = fopen(log, "r");
		char line[512];

		while (f && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			if (line[0]) {
				snprintf(msg, msglen, "%s", line);
				break;
			}
		}
		if (f)
			fclose(f);
	}
	if (WIFSIGNALED(status)) {
		snprintf(msg, msglen, "relocore killed by signal %d", WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

/* ---- one case ------------------------------------------------------------ */

struct opts {
	const char *objdir, *relocore, *vmlinux_btf, *module_btf, *workdir;
	bool allow_core_relo;
};

static void describe_diff(const uint8_t *exp, const uint8_t *got, int len,
			  char *out, size_t outlen)
{
	size_t pos = 0;
	int ranges = 0;

	out[0] = 0;
	for (int i = 0; i < len && ranges < 4;) {
		int j;

		if (exp[i] == got[i]) {
			i++;
			continue;
		}
		for (j = i; j < len && j < i + 8 && exp[j] != got[j]; j++)
			;
		pos += snprintf(out + pos, outlen > pos ? outlen - pos : 0,
				"%sout[%d..%d] expected ", ranges ? "; " : "", i, j - 1);
		for (int k = i; k < j; k++)
			pos += snprintf(out + pos, outlen > pos ? outlen - pos : 0, "%02x", exp[k]);
		pos += snprintf(out + pos, outlen > pos ? outlen - pos : 0, " got ");
		for (int k = i; k < j; k++)
			pos += snprintf(out + pos, outlen > pos ? outlen - pos : 0, "%02x", got[k]);
		ranges++;
		i = j;
	}
	if (ranges == 4)
		snprintf(out + pos, outlen > pos ? outlen - pos : 0, "; ...");
}

static void sanitize(const char *in, char *out, size_t n)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < n; i++)
		out[i] = (isalnum((unsigned char)in[i]) || in[i] == '_' || in[i] == '-') ? in[i] : '_';
	out[i] = 0;
}

/* Returns true on pass; fills why on failure. */
static bool run_case(const struct opts *op, int idx, const struct btf *vmlinux,
		     const struct btf *modbtf, char *why, size_t whylen)
{
	struct core_reloc_test_case tc = test_cases[idx];
	char obj_path[PATH_MAX], btf_path[PATH_MAX], out_path[PATH_MAX], log_path[PATH_MAX];
	char base[128], msg[512], err[256] = "";
	const char *mod = NULL;
	struct obj o = {0};
	struct bi_vm vm;
	struct synth task = {0}, rctx = {0};
	uint8_t *ctx = NULL, *modbuf = NULL;
	struct bpf_insn *insns = NULL;
	size_t cnt = 0, start = 0;
	enum bi_status st;
	bool pass = false;
	int rc, psym, dsym;

	why[0] = 0;
	sanitize(tc.case_name, base, sizeof(base));
	snprintf(obj_path, sizeof(obj_path), "%s/%s", op->objdir, tc.bpf_obj_file);
	if (tc.btf_src_file) {
		snprintf(btf_path, sizeof(btf_path), "%s/%s", op->objdir, tc.btf_src_file);
	} else {
		snprintf(btf_path, sizeof(btf_path), "%s", op->vmlinux_btf);
		if (tc.needs_testmod)
			mod = op->module_btf;
	}
	snprintf(out_path, sizeof(out_path), "%s/%s.o", op->workdir, base);
	snprintf(log_path, sizeof(log_path), "%s/%s.log", op->workdir, base);

	if (tc.setup) {
		/* The setup functions write the expectation into tc.output; give
		 * them a private copy so the table stays pristine. */
		char *copy = xcalloc(tc.output_len + 1, 1);

		memcpy(copy, tc.output, tc.output_len);
		tc.output = copy;
		rc_shim_failures = 0;
		shim_msg[0] = 0;
		if (tc.setup(&tc) || rc_shim_failures) {
			snprintf(why, whylen, "test setup failed: %s", shim_msg);
			goto out;
		}
	}

	rc = run_relocore(op->relocore, obj_path, btf_path, mod, out_path, log_path,
			  msg, sizeof(msg));
	if (rc != 0) {
		if (tc.fails) {
			pass = true;
			snprintf(why, whylen, "refused (exit %d): %s", rc, msg);
		} else {
			snprintf(why, whylen, "relocore refused (exit %d): %s", rc, msg);
		}
		goto out;
	}
	if (obj_load(&o, out_path, err, sizeof(err))) {
		snprintf(why, whylen, "relocore output unreadable: %s", err);
		goto out;
	}
	if (o.core_relo_len && !op->allow_core_relo) {
		snprintf(why, whylen, "relocore output still has %u bytes of .BTF.ext core_relo records",
			 o.core_relo_len);
		goto out;
	}
	psym = obj_find_sym(&o, tc.prog_name, STT_FUNC);
	if (psym < 0) {
		snprintf(why, whylen, "program %s not found in relocated object", tc.prog_name);
		goto out;
	}

	bi_init(&vm);
	vm.pid_tgid = ((uint64_t)FAKE_PID << 32) | FAKE_PID;
	snprintf(vm.comm, sizeof(vm.comm), "test_progs");
	insns = obj_prepare(&o, &vm, psym, &cnt, &start, err, sizeof(err));
	if (!insns) {
		snprintf(why, whylen, "cannot prepare program: %s", err);
		goto out;
	}

	/* The harness part of the real test: zero data, copy input, pid. */
	dsym = obj_find_sym(&o, "data", STT_OBJECT);
	if (dsym < 0 || o.syms[dsym].st_shndx >= o.nsecs) {
		snprintf(why, whylen, "global 'data' not found in relocated object");
		goto out;
	}
	{
		const GElf_Sym *ds = &o.syms[dsym];
		struct osec *s = &o.secs[ds->st_shndx];
		uint64_t dsz = ds->st_size;
		uint8_t *d = s->buf + ds->st_value;

		if (ds->st_value + dsz > s->sh.sh_size) {
			snprintf(why, whylen, "global 'data' lies outside its section");
			goto out;
		}
		memset(d, 0, dsz < sizeof(struct data) ? dsz : sizeof(struct data));
		if (tc.input_len > 0) {
			if ((uint64_t)tc.input_len > dsz || tc.input_len > (int)sizeof(((struct data *)0)->in)) {
				snprintf(why, whylen, "input larger than data.in");
				goto out;
			}
			memcpy(d + offsetof(struct data, in), tc.input, tc.input_len);
		}
		if (dsz >= offsetof(struct data, my_pid_tgid) + sizeof(uint64_t)) {
			uint64_t v = vm.pid_tgid;	/* getpid() | gettid() << 32 */

			memcpy(d + offsetof(struct data, my_pid_tgid), &v, sizeof(v));
		}
	}

	/* Kernel-side objects. */
	ctx = xcalloc(64, 1);
	if (!tc.btf_src_file) {
		if (make_task(vmlinux, &task, err, sizeof(err))) {
			snprintf(why, whylen, "%s", err);
			goto out;
		}
		bi_add_region(&vm, "task_struct", task.vaddr, task.mem, task.size, false);
		vm.current_task = task.vaddr;
		memcpy(ctx, &task.vaddr, 8);	/* args[0] of bpf_testmod_test_read */
		if (tc.needs_testmod) {
			const struct core_reloc_module_output *exp = (const void *)tc.output;

			if (make_read_ctx(modbtf, exp->len, &rctx, err, sizeof(err))) {
				snprintf(why, whylen, "%s", err);
				goto out;
			}
			bi_add_region(&vm, "read_ctx", rctx.vaddr, rctx.mem, rctx.size, false);
			modbuf = xcalloc(256, 1);
			bi_add_region(&vm, "read_buf", MODBUF_VADDR, modbuf, 256, true);
			memcpy(ctx + 8, &rctx.vaddr, 8);
		}
	}
	bi_add_region(&vm, "ctx", CTX_VADDR, ctx, 64, false);

	st = bi_run(&vm, insns, cnt, start, CTX_VADDR);
	if (verbose)
		fprintf(stderr, "  %s: interp %s after %llu insns (r0=%llu) %s\n", tc.case_name,
			bi_status_str(st), (unsigned long long)vm.executed,
			(unsigned long long)vm.r0, vm.msg);
	if (st == BI_POISON) {
		if (tc.fails) {
			pass = true;
			snprintf(why, whylen, "%s", vm.msg);
		} else {
			snprintf(why, whylen, "program hit a %s (relocation left poisoned)", vm.msg);
		}
		goto out;
	}
	if (st != BI_OK) {
		snprintf(why, whylen, "%s%s at insn %ld: %s",
			 tc.fails ? "expected failure, but program stopped on " : "",
			 bi_status_str(st), vm.fault_pc, vm.msg);
		goto out;
	}
	{
		const GElf_Sym *ds = &o.syms[dsym];
		const uint8_t *d = o.secs[ds->st_shndx].buf + ds->st_value;
		uint64_t dsz = ds->st_size;

		/* the real test reports a skip here; we count it as not passed */
		if (dsz >= offsetof(struct data, skip) + 1 && d[offsetof(struct data, skip)]) {
			snprintf(why, whylen, "program set data.skip (BPF object built without a needed clang feature)");
			goto out;
		}
		if (tc.fails) {
			snprintf(why, whylen, "expected failure, but relocation succeeded and the program ran to completion");
			goto out;
		}
		if ((uint64_t)offsetof(struct data, out) + tc.output_len > dsz) {
			snprintf(why, whylen, "output larger than data.out");
			goto out;
		}
		if (memcmp(d + offsetof(struct data, out), tc.output, tc.output_len) != 0) {
			describe_diff((const uint8_t *)tc.output, d + offsetof(struct data, out),
				      tc.output_len, why, whylen);
			goto out;
		}
	}
	pass = true;
out:
	if (tc.setup)
		free((void *)tc.output);
	free(insns);
	free(ctx);
	free(modbuf);
	free(task.mem);
	free(rctx.mem);
	obj_free(&o);
	return pass;
}

/* ---- commands ----------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: core_reloc_runner list-objs | count | mkmodbtf VMLINUX_BTF OUT |\n"
		"       run --objdir D --relocore BIN --vmlinux-btf F --module-btf F\n"
		"           [--workdir W] [--allow-core-relo] [-v] [CASE...]\n");
	exit(2);
}

static int cmd_list_objs(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(test_cases); i++) {
		const char *f[2] = { test_cases[i].bpf_obj_file, test_cases[i].btf_src_file };

		for (int k = 0; k < 2; k++) {
			bool seen = false;

			if (!f[k])
				continue;
			for (size_t j = 0; j < i && !seen; j++)
				seen = (test_cases[j].bpf_obj_file && !strcmp(test_cases[j].bpf_obj_file, f[k])) ||
				       (test_cases[j].btf_src_file && !strcmp(test_cases[j].btf_src_file, f[k]));
			if (!seen && k == 1 && !strcmp(f[0], f[1]))
				seen = true;
			if (!seen)
				printf("%s\n", f[k]);
		}
	}
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	struct opts op = {0};
	char **only = NULL;
	int nonly = 0, passed = 0, failed = 0, total = 0;
	struct btf *vmlinux, *modbtf;
	char cwd_objdir[PATH_MAX];

	only = xcalloc(argc, sizeof(*only));
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--objdir") && i + 1 < argc) op.objdir = argv[++i];
		else if (!strcmp(a, "--relocore") && i + 1 < argc) op.relocore = argv[++i];
		else if (!strcmp(a, "--vmlinux-btf") && i + 1 < argc) op.vmlinux_btf = argv[++i];
		else if (!strcmp(a, "--module-btf") && i + 1 < argc) op.module_btf = argv[++i];
		else if (!strcmp(a, "--workdir") && i + 1 < argc) op.workdir = argv[++i];
		else if (!strcmp(a, "--allow-core-relo")) op.allow_core_relo = true;
		else if (!strcmp(a, "-v")) verbose = true;
		else if (a[0] == '-') usage();
		else only[nonly++] = argv[i];
	}
	if (!op.objdir || !op.relocore || !op.vmlinux_btf || !op.module_btf)
		usage();
	if (!realpath(op.objdir, cwd_objdir)) {
		perror(op.objdir);
		return 2;
	}
	op.objdir = cwd_objdir;
	if (!op.workdir)
		op.workdir = op.objdir;
	/* The setup functions open the case's files by relative name, as the
	 * real test does from its output directory. */
	if (chdir(op.objdir)) {
		perror(op.objdir);
		return 2;
	}
	vmlinux = btf__parse(op.vmlinux_btf, NULL);
	if (!vmlinux) {
		fprintf(stderr, "cannot parse vmlinux BTF %s\n", op.vmlinux_btf);
		return 2;
	}
	modbtf = btf__parse_split(op.module_btf, vmlinux);
	if (!modbtf) {
		fprintf(stderr, "cannot parse module BTF %s\n", op.module_btf);
		return 2;
	}

	for (size_t i = 0; i < ARRAY_SIZE(test_cases); i++) {
		char why[1024];
		bool ok;

		if (nonly) {
			bool sel = false;

			for (int k = 0; k < nonly && !sel; k++)
				sel = !strcmp(only[k], test_cases[i].case_name);
			if (!sel)
				continue;
		}
		total++;
		ok = run_case(&op, (int)i, vmlinux, modbtf, why, sizeof(why));
		if (ok) {
			passed++;
			if (verbose && why[0])
				printf("PASS: core_reloc/%s (%s)\n", test_cases[i].case_name, why);
			else
				printf("PASS: core_reloc/%s\n", test_cases[i].case_name);
		} else {
			failed++;
			printf("FAIL: core_reloc/%s: %s\n", test_cases[i].case_name, why);
		}
		fflush(stdout);
	}
	printf("core_reloc: %d passed, %d failed\n", passed, failed);
	printf("core_reloc: %d/%d cases passed\n", passed, total);
	btf__free(modbtf);
	btf__free(vmlinux);
	free(only);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return 2;
	libbpf_set_print(NULL);
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "list-objs"))
		return cmd_list_objs();
	if (!strcmp(argv[1], "count")) {
		printf("%zu\n", ARRAY_SIZE(test_cases));
		return 0;
	}
	if (!strcmp(argv[1], "mkmodbtf") && argc == 4)
		return cmd_mkmodbtf(argv[2], argv[3]);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	usage();
	return 2;
}
