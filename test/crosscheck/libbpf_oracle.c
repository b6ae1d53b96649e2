/* SPDX-License-Identifier: MIT */
/*
 * libbpf_oracle.c - libbpf's own CO-RE relocation decisions, computed offline:
 * the driving loop (run_oracle) and the object reader it needs, used by the
 * libbpf_oracle command (libbpf_oracle_main.c) and bench/core_bench.c
 * through libbpf_oracle.h.
 *
 * Why a C harness and not bpftool's debug output: `bpftool -d gen
 * min_core_btf` only prints the matched *target spec* of each relocation
 * (type, access path, bit offset), so values such as byte_sz, lshift_u64,
 * signed or type_size would have to be re-derived from the target BTF by
 * hand, which would re-implement the very logic under test.  Instead the
 * oracle links Debian's static libbpf (libbpf.a, 1.1.x) and calls the same
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
 * the structures they take are declared in libbpf_core.h, matching libbpf
 * 1.1's relo_core.h / libbpf_internal.h.  The layout was checked against
 * Debian's libbpf.a (1:1.1.2): sizeof(struct bpf_core_spec) == 0x520, the
 * scratch specs are at +0x520 / +0xa40 and bpf_core_cand_list.len is at +8.
 * libbpf_core.h checks the sizes at compile time.
 *
 * The driving loop mirrors bpftool's btfgen_record_obj() and libbpf's
 * bpf_object__relocate_core(): .BTF.ext core_relo sections in order, the
 * candidate list cached per local type id for the whole object (libbpf
 * shrinks a cached list to the matching candidates, so that is kept too),
 * TYPE_ID_LOCAL without candidate search.  Unlike libbpf, an error in one
 * relocation does not stop the others: every relocation gets a verdict.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
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
#include "libbpf_oracle.h"

/* ---- small helpers ---- */

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "libbpf_oracle: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

/* libbpf's messages: keep the last warning as the "reason"; optionally echo
 * the debug lines about relocations ("trace" mode). */
static char last_warn[1024];
bool trace_mode;

int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
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

void object_open(struct object *o, const char *path, bool want_btf)
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

struct elf_sec *object_sec(struct object *o, const char *name)
{
	for (size_t i = 0; i < o->nsecs; i++)
		if (strcmp(o->secs[i].name, name) == 0)
			return &o->secs[i];
	return NULL;
}

/* ---- one verdict per relocation ---- */

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

struct verdict *run_oracle(struct object *o, const struct btf *targ, size_t *nout)
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
