// SPDX-License-Identifier: MIT
/*
 * object.c - a BPF ELF object: its program sections, .BTF and .BTF.ext
 * (func_info, line_info, core_relo), read with libelf from an in-memory
 * copy of the file.  The library's one ELF reader: the section headers,
 * the symbol table and the SHT_REL relocations are read here once, at
 * open, and kept as a view (rc_object_sections, rc_object_symbols,
 * rc_object_rels in relocore_private.h) for kconfig baking and check.
 * Relocation patches the copy; writing emits it with the core_relo
 * records consumed (through outfile.c, whole or not at all).
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define BTF_EXT_MAGIC 0xeB9F

struct prog_sec {
	char *name;
	size_t off, size;	/* file offset and size of the instructions */
};

/* One core_relo sub-section of .BTF.ext: records of one program section. */
struct relo_sec {
	int prog;		/* index in obj->progs */
	uint32_t nr;
	size_t rec_off;		/* offset in the object of the first record */
};

struct btf_ext_hdr {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t func_info_off, func_info_len;
	uint32_t line_info_off, line_info_len;
	uint32_t core_relo_off, core_relo_len;
};

/* One core_relo record and where it applies: what a relocation is before
 * it is decided (about 40 bytes; a struct rc_result is 3 KB). */
struct relo_rec {
	struct rc_relo relo;
	const char *access;	/* in the object's BTF */
	uint32_t insn_idx;
	uint32_t relo_idx;	/* within its section's records */
	int prog;		/* index in obj->progs */
};

/* The relocations of one SHT_REL section (the view's). */
struct rel_sec {
	struct rc_elf_rel *rel;
	size_t nr;
};

struct rc_object {
	char *name;
	unsigned char *buf;	/* the whole file; patched in place */
	size_t size;
	bool mapped;		/* buf is the file mapped (rc_file_map) */
	/* the ELF view: sections by index, the first symbol table, the
	 * SHT_REL sections' entries by section index */
	size_t nr_secs;
	struct rc_elf_sec *secs;
	struct rel_sec *rels;
	struct rc_elf_sym *syms;	/* NULL: no readable symbol table */
	size_t nr_syms, symtab;
	char **names;		/* names libelf gave outside buf: copies */
	size_t nr_names;
	struct btf *btf;
	struct rc_btf *types;	/* the same, as the engine reads it */
	int nr_progs;
	struct prog_sec *progs;
	size_t ext_off, ext_size;	/* .BTF.ext in the file */
	uint32_t relo_rec_size;
	size_t core_relo_len_off;	/* file offset of the header field */
	int nr_relo_secs;
	struct relo_sec *relo_secs;
	size_t nr_relos;
	struct relo_rec *recs;	/* every record, as read */
	struct rc_result *res;	/* made when first asked for (3 KB each) */
	bool relocated;
	bool big_endian;	/* the file's byte order (ELF EI_DATA) */
	bool swap;		/* ... not the host's: its words are swapped
				 * when read and when written back */
};

static int fail(struct rc_error *err, const struct rc_object *obj,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct rc_error *err, const struct rc_object *obj,
		const char *fmt, ...)
{
	char tmp[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	rc_fmt(err->msg, sizeof(err->msg), "%s: %s", obj->name, tmp);
	return -EINVAL;
}

/* A 32-bit word of the object at @p, in host order. */
static uint32_t rd32(const struct rc_object *obj, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return obj->swap ? __builtin_bswap32(v) : v;
}

void rc_insns_swap(struct bpf_insn *insns, size_t n)
{
	size_t i;

	/* code is a byte; the register nibbles trade places (dst_reg is the
	 * high nibble in a big-endian file); off and imm are words */
	for (i = 0; i < n; i++) {
		unsigned char *b = (unsigned char *)&insns[i];
		uint16_t off;
		uint32_t imm;

		b[1] = (unsigned char)(b[1] << 4 | b[1] >> 4);
		memcpy(&off, b + 2, 2);
		memcpy(&imm, b + 4, 4);
		off = __builtin_bswap16(off);
		imm = __builtin_bswap32(imm);
		memcpy(b + 2, &off, 2);
		memcpy(b + 4, &imm, 4);
	}
}

/* Does libbpf take a section named @name by its name, whatever its type
 * and flags? */
static bool libbpf_named(const char *name)
{
	static const char *const named[] = { "license", "version", "maps", ".maps",
					     ".BTF", ".BTF.ext" };
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(*named); i++)
		if (!strcmp(name, named[i]))
			return true;
	return false;
}

bool rc_elf_sec_is_code(const struct rc_elf_sec *s)
{
	return s->type == SHT_PROGBITS && (s->flags & SHF_EXECINSTR) && s->size &&
	       strncmp(s->name, ".debug", 6) && !libbpf_named(s->name);
}

static int find_prog(const struct rc_object *obj, const char *name)
{
	int i;

	for (i = 0; i < obj->nr_progs; i++)
		if (!strcmp(obj->progs[i].name, name))
			return i;
	return -1;
}

/* @s, a string libelf returned: in the object's bytes, or a copy kept
 * with the object (NULL: out of memory). */
static const char *keep_name(struct rc_object *obj, const char *s)
{
	char **more;

	if ((const unsigned char *)s >= obj->buf &&
	    (const unsigned char *)s < obj->buf + obj->size)
		return s;
	more = realloc(obj->names, sizeof(*more) * (obj->nr_names + 1));
	if (!more)
		return NULL;
	obj->names = more;
	more[obj->nr_names] = strdup(s);
	return more[obj->nr_names] ? more[obj->nr_names++] : NULL;
}

/*
 * Read the ELF section headers into the view; note the program sections,
 * .BTF and .BTF.ext.
 */
static int read_sections(struct rc_object *obj, Elf *elf, struct rc_error *err,
			 size_t *btf_off, size_t *btf_size)
{
	size_t shstrndx, shnum, btf_idx = 0, ext_idx = 0;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	*btf_off = *btf_size = 0;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return fail(err, obj, "not an ELF file");
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_BPF)
		return fail(err, obj, "not a 64-bit BPF ELF object (machine %u)",
			    eh.e_machine);
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB && eh.e_ident[EI_DATA] != ELFDATA2MSB)
		return fail(err, obj, "unknown ELF byte order (EI_DATA %u)", eh.e_ident[EI_DATA]);
	obj->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	obj->swap = obj->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	/* libelf shows a truncated section header table as no sections */
	if (!eh.e_shnum || eh.e_shoff > obj->size ||
	    (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > obj->size - eh.e_shoff)
		return fail(err, obj,
			    "section header table (offset 0x%llx, %u entries) missing or beyond the file (0x%zx bytes)",
			    (unsigned long long)eh.e_shoff, eh.e_shnum, obj->size);
	if (elf_getshdrstrndx(elf, &shstrndx))
		return fail(err, obj, "no section name table: %s", elf_errmsg(-1));
	if (elf_getshdrnum(elf, &shnum))
		return fail(err, obj, "libelf: %s", elf_errmsg(-1));
	obj->secs = calloc(shnum ? shnum : 1, sizeof(*obj->secs));
	obj->rels = calloc(shnum ? shnum : 1, sizeof(*obj->rels));
	if (!obj->secs || !obj->rels)
		return -ENOMEM;
	obj->nr_secs = shnum;
	obj->secs[0].name = "";

	while ((scn = elf_nextscn(elf, scn))) {
		struct rc_elf_sec *v;
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return fail(err, obj, "bad section header %zu: %s",
				    elf_ndxscn(scn), elf_errmsg(-1));
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			return fail(err, obj, "section %zu: bad name offset %u",
				    elf_ndxscn(scn), sh.sh_name);
		if (elf_ndxscn(scn) >= shnum)
			return fail(err, obj, "libelf: section %zu of %zu", elf_ndxscn(scn), shnum);
		v = &obj->secs[elf_ndxscn(scn)];
		*v = (struct rc_elf_sec){ keep_name(obj, name), sh.sh_type, sh.sh_flags,
			sh.sh_offset, sh.sh_size, sh.sh_link, sh.sh_info, sh.sh_entsize };
		if (!v->name)
			return -ENOMEM;
		if (sh.sh_type == SHT_NOBITS)
			continue;
		if (sh.sh_offset > obj->size || sh.sh_size > obj->size - sh.sh_offset)
			return fail(err, obj,
				    "section %s: offset 0x%llx size 0x%llx beyond the file (0x%zx)",
				    name, (unsigned long long)sh.sh_offset,
				    (unsigned long long)sh.sh_size, obj->size);
		v->data = obj->buf + sh.sh_offset;
		if (rc_elf_sec_is_code(v)) {
			struct prog_sec *p;

			/* its instructions: whole ones (a tail of fewer than 8
			 * bytes is no instruction; libbpf reads a program's
			 * size / 8 instructions and opens such an object) */
			p = realloc(obj->progs, sizeof(*p) * (obj->nr_progs + 1));
			if (!p)
				return -ENOMEM;
			obj->progs = p;
			p += obj->nr_progs++;
			p->name = strdup(name);
			p->off = sh.sh_offset;
			p->size = sh.sh_size / sizeof(struct bpf_insn) * sizeof(struct bpf_insn);
			if (!p->name)
				return -ENOMEM;
		} else if (!strcmp(name, ".BTF") || !strcmp(name, ".BTF.ext")) {
			/* one of each: with two, readers disagree on which counts */
			size_t *idx = name[4] ? &ext_idx : &btf_idx;

			if (*idx)
				return fail(err, obj, "section %s appears twice (sections %zu and %zu)",
					    name, *idx, elf_ndxscn(scn));
			*idx = elf_ndxscn(scn);
			if (name[4]) {
				obj->ext_off = sh.sh_offset;
				obj->ext_size = sh.sh_size;
			} else {
				*btf_off = sh.sh_offset;
				*btf_size = sh.sh_size;
			}
		}
	}
	return 0;
}

/*
 * The view's symbols: those of the first SHT_SYMTAB, its data size /
 * sh_entsize of them, each as gelf_getsym reads it (one it cannot read
 * is all zero), named from its sh_link string table ("" when not).
 */
static int read_symbols(struct rc_object *obj, Elf *elf)
{
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t n, i;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	if (!scn || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
		return 0;
	n = d->d_size / sh.sh_entsize;
	obj->syms = calloc(n ? n : 1, sizeof(*obj->syms));
	if (!obj->syms)
		return -ENOMEM;
	obj->nr_syms = n;
	obj->symtab = elf_ndxscn(scn);
	for (i = 0; i < n; i++) {
		struct rc_elf_sym *v = &obj->syms[i];
		const char *nm;
		GElf_Sym gs;

		v->name = "";
		if (!gelf_getsym(d, i, &gs))
			continue;
		nm = elf_strptr(elf, sh.sh_link, gs.st_name);
		if (nm && !(nm = keep_name(obj, nm)))
			return -ENOMEM;
		*v = (struct rc_elf_sym){ nm ? nm : "", gs.st_shndx, gs.st_value,
			gs.st_size, GELF_ST_TYPE(gs.st_info), GELF_ST_BIND(gs.st_info) };
	}
	return 0;
}

/* The view's relocations: the entries (its data size / sh_entsize of
 * them) that gelf_getrel reads of each SHT_REL section that applies to an
 * executable section; the others' (debug info, .BTF.ext: most of a large
 * object) are left unread. */
static int read_rels(struct rc_object *obj, Elf *elf)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		struct rel_sec *rs = &obj->rels[elf_ndxscn(scn)];
		GElf_Shdr sh;
		Elf_Data *d;
		size_t n, i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_REL)
			continue;
		if (sh.sh_info >= obj->nr_secs || !rc_elf_sec_is_code(&obj->secs[sh.sh_info]) ||
		    libbpf_named(obj->secs[elf_ndxscn(scn)].name))	/* not relocations to libbpf */
			continue;
		d = elf_getdata(scn, NULL);
		n = d && sh.sh_entsize ? d->d_size / sh.sh_entsize : 0;
		rs->rel = calloc(n ? n : 1, sizeof(*rs->rel));
		if (!rs->rel)
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			GElf_Rel r;

			if (gelf_getrel(d, i, &r))
				rs->rel[rs->nr++] = (struct rc_elf_rel){ r.r_offset,
					GELF_R_SYM(r.r_info), GELF_R_TYPE(r.r_info) };
		}
	}
	return 0;
}

/*
 * Check one info sub-section of .BTF.ext (func_info, line_info or
 * core_relo): a record size, then per program section a header and
 * records.  For core_relo, also remember where the records are.
 */
static int read_ext_info(struct rc_object *obj, const char *what,
			 uint32_t off, uint32_t len, uint32_t min_rec,
			 bool core, struct rc_error *err)
{
	/* the header is read with memcpy: GCC (bpf-gcc -gbtf) writes
	 * .BTF.ext with alignment 1, at any file offset */
	uint32_t hdr_len = rd32(obj, obj->buf + obj->ext_off + 4);
	size_t base = obj->ext_off + hdr_len, pos, end;
	uint32_t rec_size;

	if (!len)
		return 0;
	if (off % 4)
		return fail(err, obj, ".BTF.ext: %s at offset %u is not 4-byte aligned",
			    what, off);
	if ((uint64_t)hdr_len + off + len > obj->ext_size)
		return fail(err, obj,
			    ".BTF.ext: %s (offset %u, length %u) beyond the section (%zu bytes)",
			    what, off, len, obj->ext_size);
	if (len < 4)
		return fail(err, obj, ".BTF.ext: %s has no record size", what);
	pos = base + off;
	end = pos + len;
	rec_size = rd32(obj, obj->buf + pos);
	if (rec_size < min_rec || rec_size % 4 || rec_size > 1024)
		return fail(err, obj, ".BTF.ext: %s record size %u invalid (offset 0x%zx)",
			    what, rec_size, pos - obj->ext_off);
	pos += 4;
	if (core)
		obj->relo_rec_size = rec_size;
	while (pos < end) {
		uint32_t name_off, nr;
		const char *sec;
		int prog;

		if (end - pos < 8)
			return fail(err, obj, ".BTF.ext: %s truncated section header at offset 0x%zx",
				    what, pos - obj->ext_off);
		name_off = rd32(obj, obj->buf + pos);
		nr = rd32(obj, obj->buf + pos + 4);
		pos += 8;
		sec = btf__str_by_offset(obj->btf, name_off);
		if (!sec)
			return fail(err, obj, ".BTF.ext: %s section name offset %u out of range",
				    what, name_off);
		if (!nr)
			return fail(err, obj, ".BTF.ext: %s for '%s' has zero records", what, sec);
		if ((uint64_t)nr * rec_size > end - pos)
			return fail(err, obj,
				    ".BTF.ext: %s for '%s': %u records of %u bytes overrun the section at offset 0x%zx",
				    what, sec, nr, rec_size, pos - obj->ext_off);
		prog = find_prog(obj, sec);
		/* func_info and line_info are matched to a program by its
		 * section when it loads: libbpf ignores those of another
		 * section; a CO-RE record must have its program */
		if (prog < 0 && core)
			return fail(err, obj, ".BTF.ext: %s names section '%s', which is not a program section",
				    what, sec);
		if (core) {
			struct relo_sec *rs = realloc(obj->relo_secs,
						      sizeof(*rs) * (obj->nr_relo_secs + 1));
			if (!rs)
				return -ENOMEM;
			obj->relo_secs = rs;
			rs[obj->nr_relo_secs++] = (struct relo_sec){ prog, nr, pos };
			obj->nr_relos += nr;
		}
		pos += (size_t)nr * rec_size;
	}
	return 0;
}

static int read_btf_ext(struct rc_object *obj, struct rc_error *err)
{
	struct btf_ext_hdr h = { 0 };

	if (!obj->ext_size)
		return 0;
	if (!obj->btf)
		return fail(err, obj, "has .BTF.ext but no .BTF");
	if (obj->ext_size < 24)
		return fail(err, obj, ".BTF.ext: %zu bytes, shorter than its header",
			    obj->ext_size);
	/* Where the section lies in the file does not matter (GCC aligns it
	 * to 1; every read here is a byte copy); the offsets inside it must
	 * keep its records 4-byte aligned, as libbpf requires. */
	memcpy(&h, obj->buf + obj->ext_off, 24);
	if (obj->swap) {	/* the u16 magic, two bytes, then words */
		uint32_t *w = &h.hdr_len;
		int k;

		h.magic = __builtin_bswap16(h.magic);
		for (k = 0; k < 5; k++)
			w[k] = __builtin_bswap32(w[k]);
	}
	if (h.magic != BTF_EXT_MAGIC)
		return fail(err, obj, ".BTF.ext: bad magic 0x%04x", h.magic);
	if (h.version != 1)
		return fail(err, obj, ".BTF.ext: unsupported version %u", h.version);
	if (h.hdr_len < 24 || h.hdr_len > obj->ext_size || h.hdr_len % 4)
		return fail(err, obj, ".BTF.ext: header length %u invalid", h.hdr_len);
	if (h.hdr_len >= 32) {
		h.core_relo_off = rd32(obj, obj->buf + obj->ext_off + 24);
		h.core_relo_len = rd32(obj, obj->buf + obj->ext_off + 28);
		obj->core_relo_len_off = obj->ext_off + 28;
	}
	return read_ext_info(obj, "func_info", h.func_info_off, h.func_info_len, 8,
			     false, err) ?:
	       read_ext_info(obj, "line_info", h.line_info_off, h.line_info_len, 16,
			     false, err) ?:
	       read_ext_info(obj, "core_relo", h.core_relo_off, h.core_relo_len,
			     sizeof(struct rc_relo), true, err);
}

/* Read the core_relo records, each pointing at its insn. */
static int index_relos(struct rc_object *obj, struct rc_error *err)
{
	size_t k = 0;
	int s;

	obj->recs = calloc(obj->nr_relos ? obj->nr_relos : 1, sizeof(*obj->recs));
	if (!obj->recs)
		return -ENOMEM;
	for (s = 0; s < obj->nr_relo_secs; s++) {
		const struct relo_sec *rs = &obj->relo_secs[s];
		const struct prog_sec *p = &obj->progs[rs->prog];
		uint32_t i;

		for (i = 0; i < rs->nr; i++, k++) {
			struct relo_rec *r = &obj->recs[k];

			const unsigned char *rb = obj->buf + rs->rec_off +
						  (size_t)i * obj->relo_rec_size;

			/* insn_off, type_id, access_str_off, kind: words */
			r->relo.insn_off = rd32(obj, rb);
			r->relo.type_id = rd32(obj, rb + 4);
			r->relo.access_str_off = rd32(obj, rb + 8);
			r->relo.kind = rd32(obj, rb + 12);
			r->prog = rs->prog;
			r->relo_idx = i;
			r->insn_idx = r->relo.insn_off / 8;
			if (r->relo.insn_off % 8 || r->relo.insn_off >= p->size)
				return fail(err, obj,
					    "section %s: core_relo #%u points at byte %u, outside the program (%zu insns)",
					    p->name, i, r->relo.insn_off, p->size / 8);
			if (r->relo.type_id >= btf__type_cnt(obj->btf))
				return fail(err, obj,
					    "section %s: core_relo #%u (insn %u): type id %u out of range",
					    p->name, i, r->insn_idx, r->relo.type_id);
			r->access = btf__str_by_offset(obj->btf, r->relo.access_str_off);
			if (!r->access)
				return fail(err, obj,
					    "section %s: core_relo #%u (insn %u): access string offset %u out of range",
					    p->name, i, r->insn_idx, r->relo.access_str_off);
			if (r->relo.kind >= RC_RELO_KIND_MAX)
				return fail(err, obj,
					    "section %s: core_relo #%u (insn %u): unknown kind %u",
					    p->name, i, r->insn_idx, r->relo.kind);
		}
	}
	return 0;
}

/* @r: record @k as a result, no decision yet. */
static void result_init(const struct rc_object *obj, size_t k, struct rc_result *r)
{
	const struct relo_rec *rec = &obj->recs[k];

	*r = (struct rc_result){ .section = obj->progs[rec->prog].name,
		.insn_idx = rec->insn_idx, .relo_idx = rec->relo_idx,
		.relo = rec->relo, .access = rec->access };
}

/* The results array, made when first asked for: each record's fields,
 * no decision yet.  -ENOMEM when it cannot be. */
static int make_results(struct rc_object *obj)
{
	size_t k;

	if (obj->res)
		return 0;
	obj->res = calloc(obj->nr_relos ? obj->nr_relos : 1, sizeof(*obj->res));
	if (!obj->res)
		return -ENOMEM;
	for (k = 0; k < obj->nr_relos; k++)
		result_init(obj, k, &obj->res[k]);
	return 0;
}

const struct rc_relo *rc_object_relo(const struct rc_object *obj, size_t i,
				     const char **section, uint32_t *insn_idx)
{
	if (i >= obj->nr_relos)
		return NULL;
	*section = obj->progs[obj->recs[i].prog].name;
	*insn_idx = obj->recs[i].insn_idx;
	return &obj->recs[i].relo;
}

/* Open the object in @buf (@size bytes, @mapped by rc_file_map or else
 * malloc'd), which the object then owns. */
static struct rc_object *open_owned(unsigned char *buf, size_t size, bool mapped,
				    const char *name, struct rc_error *err)
{
	struct rc_object *obj = calloc(1, sizeof(*obj));
	size_t btf_off, btf_size;
	Elf *elf = NULL;
	int ret;

	if (!obj || !(obj->name = strdup(name ? name : "<memory>"))) {
		rc_fmt(err->msg, sizeof(err->msg), "out of memory");
		rc_file_unmap(buf, size, mapped);
		rc_object_free(obj);
		return NULL;
	}
	obj->buf = buf;
	obj->size = size;
	obj->mapped = mapped;
	if (size < EI_NIDENT || memcmp(obj->buf, ELFMAG, SELFMAG)) {
		fail(err, obj, "not an ELF file");
		goto err;
	}
	elf_version(EV_CURRENT);
	elf = elf_memory((char *)obj->buf, size);
	if (!elf) {
		fail(err, obj, "libelf: %s", elf_errmsg(-1));
		goto err;
	}
	ret = read_sections(obj, elf, err, &btf_off, &btf_size) ?:
	      read_symbols(obj, elf) ?: read_rels(obj, elf);
	elf_end(elf);
	if (ret)
		goto err;
	if (btf_size) {
		obj->btf = rc_btf_new_any_order(obj->buf + btf_off, btf_size);
		if (!obj->btf) {
			fail(err, obj, ".BTF at offset 0x%zx: malformed (header, strings or types): %s",
			     btf_off, strerror(errno));
			goto err;
		}
		obj->types = rc_btf_wrap(obj->btf);
		if (!obj->types) {
			fail(err, obj, ".BTF: %s", strerror(errno));
			goto err;
		}
		if (rc_btf_walk(obj->types, obj->name, err, 0, false, NULL, NULL))
			goto err;
	}
	if (read_btf_ext(obj, err) || index_relos(obj, err))
		goto err;
	return obj;
err:
	if (!err->msg[0])
		fail(err, obj, "out of memory");
	rc_object_free(obj);
	return NULL;
}

struct rc_object *rc_object_open_mem(const void *data, size_t size,
				     const char *name, struct rc_error *err)
{
	unsigned char *buf = malloc(size ? size : 1);

	if (!buf) {
		rc_fmt(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	memcpy(buf, data, size);
	return open_owned(buf, size, false, name, err);
}

/* "@path": the file names the object; "@path(NAME)" for an embedded one. */
static struct rc_object *open_embedded(unsigned char *buf, size_t size, bool mapped,
				       const char *path, const char *select,
				       struct rc_error *err)
{
	struct rc_embedded *v;
	struct rc_object *obj;
	size_t n;
	char list[400], *name;
	int k;

	if (rc_embedded_find(buf, size, path, &v, &n, err)) {
		rc_file_unmap(buf, size, mapped);
		return NULL;
	}
	if (!n) {
		bool elf = size >= EI_NIDENT && !memcmp(buf, ELFMAG, SELFMAG) &&
			   buf[EI_CLASS] == ELFCLASS64 && buf[EI_DATA] == ELFDATA2LSB &&
			   size >= sizeof(Elf64_Ehdr);

		if (elf)
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: an ELF file for machine %u, not a BPF object, with no BPF ELF object embedded in it (no ELF header with e_machine 247 inside)",
			       path, (unsigned)((Elf64_Ehdr *)buf)->e_machine);
		else
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: not an ELF file, and no BPF ELF object is embedded in it (no ELF header with e_machine 247 inside)",
			       path);
		rc_file_unmap(buf, size, mapped);
		free(v);
		return NULL;
	}
	k = rc_embedded_select(v, n, select);
	if (k < 0) {
		rc_embedded_describe(v, n, list, sizeof(list));
		if (select)
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: no embedded BPF object '%s'; it embeds %zu: %s",
			       path, select, n, list);
		else
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s embeds %zu BPF objects, choose one with --object N|NAME: %s",
			       path, n, list);
		rc_file_unmap(buf, size, mapped);
		free(v);
		return NULL;
	}
	if (asprintf(&name, "%s(%s)", path, v[k].name) < 0)
		name = NULL;
	obj = name ? rc_object_open_mem(buf + v[k].offset, v[k].size, name, err) : NULL;
	if (!name)
		rc_fmt(err->msg, sizeof(err->msg), "out of memory");
	free(name);
	rc_file_unmap(buf, size, mapped);
	free(v);
	return obj;
}

/* A BPF object itself (or something that starts as one: its own reader
 * says what is wrong with it), not a file that embeds some. */
static bool is_bpf_object(const unsigned char *buf, size_t size)
{
	return size >= 20 && !memcmp(buf, ELFMAG, SELFMAG) &&
	       ((buf[18] | buf[19] << 8) == EM_BPF || (buf[19] | buf[18] << 8) == EM_BPF);
}

struct rc_object *rc_object_open_select(const char *path, const char *select,
					struct rc_error *err)
{
	void *buf;
	size_t size;
	bool mapped;

	if (rc_file_map(path, &buf, &size, &mapped, err))
		return NULL;
	if (is_bpf_object(buf, size)) {
		if (select && strcmp(select, "0")) {
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: is a BPF object itself, not a file that embeds several: --object %s names nothing (0 is the object)",
			       path, select);
			rc_file_unmap(buf, size, mapped);
			return NULL;
		}
		return open_owned(buf, size, mapped, path, err);
	}
	return open_embedded(buf, size, mapped, path, select, err);
}

int rc_object_open_all(const char *path, struct rc_object ***objs, size_t *nr,
		       struct rc_error *err)
{
	struct rc_embedded *v = NULL;
	struct rc_object **out;
	size_t n = 0, i;
	void *buf;
	size_t size;
	bool mapped;

	*objs = NULL;
	*nr = 0;
	if (rc_file_map(path, &buf, &size, &mapped, err))
		return -EINVAL;
	/* a BPF object is one (no need to read it all for embedded ones) */
	if (is_bpf_object(buf, size))
		n = 1;
	else if (rc_embedded_find(buf, size, path, &v, &n, err)) {
		rc_file_unmap(buf, size, mapped);
		return -EINVAL;
	}
	free(v);
	rc_file_unmap(buf, size, mapped);
	if (n <= 1) {
		/* one object, or none (that one's open says why) */
		struct rc_object *o = rc_object_open_select(path, NULL, err);

		if (!o)
			return -EINVAL;
		out = malloc(sizeof(*out));
		if (!out) {
			rc_object_free(o);
			return -ENOMEM;
		}
		out[0] = o;
		*objs = out;
		*nr = 1;
		return 0;
	}
	out = calloc(n, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		char sel[32];

		snprintf(sel, sizeof(sel), "%zu", i);
		out[i] = rc_object_open_select(path, sel, err);
		if (!out[i]) {
			while (i--)
				rc_object_free(out[i]);
			free(out);
			return -EINVAL;
		}
	}
	*objs = out;
	*nr = n;
	return 0;
}

struct rc_object *rc_object_open(const char *path, struct rc_error *err)
{
	return rc_object_open_select(path, NULL, err);
}

void rc_object_free(struct rc_object *obj)
{
	int i;

	if (!obj)
		return;
	for (i = 0; i < obj->nr_progs; i++)
		free(obj->progs[i].name);
	free(obj->progs);
	for (i = 0; obj->rels && i < (int)obj->nr_secs; i++)
		free(obj->rels[i].rel);
	free(obj->rels);
	free(obj->secs);
	free(obj->syms);
	for (i = 0; i < (int)obj->nr_names; i++)
		free(obj->names[i]);
	free(obj->names);
	free(obj->relo_secs);
	free(obj->recs);
	free(obj->res);
	rc_btf_free(obj->types);
	btf__free(obj->btf);
	rc_file_unmap(obj->buf, obj->size, obj->mapped);
	free(obj->name);
	free(obj);
}

const char *rc_object_name(const struct rc_object *obj)
{
	return obj->name;
}

const unsigned char *rc_object_bytes(const struct rc_object *obj, size_t *size)
{
	*size = obj->size;
	return obj->buf;
}

const struct rc_elf_sec *rc_object_sections(const struct rc_object *obj, size_t *nr)
{
	*nr = obj->nr_secs;
	return obj->secs;
}

const struct rc_elf_sym *rc_object_symbols(const struct rc_object *obj, size_t *nr,
					   size_t *sec)
{
	*nr = obj->nr_syms;
	*sec = obj->symtab;
	return obj->syms;
}

const struct rc_elf_rel *rc_object_rels(const struct rc_object *obj, size_t sec,
					size_t *nr)
{
	if (sec >= obj->nr_secs || obj->secs[sec].type != SHT_REL) {
		*nr = 0;
		return NULL;
	}
	*nr = obj->rels[sec].nr;
	return obj->rels[sec].rel;
}

const struct btf *rc_object_btf(const struct rc_object *obj)
{
	return obj->btf;
}

const struct rc_btf *rc_object_types(const struct rc_object *obj)
{
	return obj->types;
}

bool rc_object_big_endian(const struct rc_object *obj)
{
	return obj->big_endian;
}

bool rc_object_swapped(const struct rc_object *obj)
{
	return obj->swap;
}

size_t rc_object_relo_count(const struct rc_object *obj)
{
	return obj->nr_relos;
}

/* Earlier record group of the same program section as group @s, or -1. */
static int same_section_before(const struct rc_object *obj, int s)
{
	int k;

	for (k = 0; k < s; k++)
		if (obj->relo_secs[k].prog == obj->relo_secs[s].prog)
			return k;
	return -1;
}

static bool scratch_shared(const struct rc_object *obj, int s)
{
	return same_section_before(obj, s) >= 0;
}

/* The working copy of group @s's section: shared with an earlier group of
 * the same section, or a fresh copy of the instructions. */
static struct bpf_insn *section_copy(const struct rc_object *obj,
				     struct bpf_insn **scratch, int s)
{
	const struct prog_sec *p = &obj->progs[obj->relo_secs[s].prog];
	int k = same_section_before(obj, s);
	struct bpf_insn *insns;

	if (k >= 0)
		return scratch[k];
	insns = malloc(p->size ? p->size : 1);
	if (insns)
		memcpy(insns, obj->buf + p->off, p->size);
	if (insns && obj->swap)	/* decided and patched in host order */
		rc_insns_swap(insns, p->size / sizeof(*insns));
	return insns;
}

/*
 * Decide every relocation and patch copies of the program sections, one
 * relocation at a time: each decided into @slots[i] (the object's results)
 * or, with @slots NULL, into one buffer handed to @fn and reused.  The
 * copies are committed (with @commit) only if every relocation applies.
 * The first refusal is kept (a copy) for the message.  Without @commit
 * the object is only read.
 */
static int relocate(struct rc_object *obj, const struct rc_target *target,
		    struct rc_result *slots, rc_result_fn fn, void *ctx,
		    bool commit, struct rc_error *err)
{
	uint32_t nt = obj->btf ? btf__type_cnt(obj->btf) : 0;
	struct rc_cands *cache = NULL;
	struct bpf_insn **scratch = NULL;
	struct rc_result *one = NULL, *bad = NULL;
	size_t i, nbad = 0;
	int s, ret = 0;

	if (obj->relocated)
		return fail(err, obj, "already relocated");
	/* a kernel runs instructions of its own byte order only (libbpf,
	 * where the two differ: "elf: endianness mismatch") */
	if (target->vmlinux && target->vmlinux->big_endian != obj->big_endian)
		return fail(err, obj,
			    "a %s-endian object, a %s-endian kernel BTF: it cannot load there (compile it with clang -target %s)",
			    obj->big_endian ? "big" : "little",
			    target->vmlinux->big_endian ? "big" : "little",
			    target->vmlinux->big_endian ? "bpfeb" : "bpfel");
	if (!obj->nr_relos)
		return 0;
	/* one candidate list per local type (narrowed as we go) */
	cache = calloc(nt, sizeof(*cache));
	scratch = calloc(obj->nr_relo_secs, sizeof(*scratch));
	if (!slots)
		one = malloc(sizeof(*one));
	bad = malloc(sizeof(*bad));
	if (!cache || !scratch || (!slots && !one) || !bad) {
		ret = -ENOMEM;
		goto out;
	}
	for (s = 0, i = 0; s < obj->nr_relo_secs; s++) {
		const struct relo_sec *rs = &obj->relo_secs[s];
		const struct prog_sec *p = &obj->progs[rs->prog];
		struct bpf_insn *insns;
		uint32_t k;

		/* several record groups may name one section: chain the copies */
		insns = section_copy(obj, scratch, s);
		if (!insns) {
			ret = -ENOMEM;
			goto out;
		}
		scratch[s] = insns;
		for (k = 0; k < rs->nr; k++, i++) {
			const struct relo_rec *rec = &obj->recs[i];
			struct rc_result *r = slots ? &slots[i] : one;
			uint32_t id = rec->relo.type_id;
			const struct btf_type *lt = rc_type(obj->types, id);
			struct rc_cands *c = &cache[id];

			result_init(obj, i, r);
			if (!c->c && rec->relo.kind != RC_TYPE_ID_LOCAL && lt->name_off &&
			    !rc_str_empty(rc_name(obj->types, lt->name_off))) {
				ret = rc_core_find_cands(obj->types, id, target, c);
				if (ret)
					goto out;
				if (!c->c)	/* remember "searched, none found" */
					c->c = malloc(sizeof(*c->c));
			}
			ret = rc_core_decide_cands(obj->types, &r->relo, c, &r->d);
			if (ret)
				goto out;
			if (r->d.outcome != RC_ERROR &&
			    rc_core_patch(insns, p->size / 8, r->insn_idx, &r->d,
					  r->patch_err, sizeof(r->patch_err)) ==
			    RC_PATCH_POISONED) {
				r->d.outcome = RC_POISON;
				rc_fmt(r->d.reason, sizeof(r->d.reason), "%s", r->patch_err);
				r->patch_err[0] = 0;
			}
			if ((r->d.outcome == RC_ERROR || r->patch_err[0]) && !nbad++)
				*bad = *r;
			if (fn && (ret = fn(ctx, r, i)))
				goto out;
		}
	}
	if (nbad) {
		char acc[160];

		rc_spec_format(&bad->d.local, acc, sizeof(acc));
		ret = fail(err, obj,
			   "%zu relocation(s) refused, nothing applied; first: section %s insn #%u %s %s: %s",
			   nbad, bad->section, bad->insn_idx, rc_relo_kind_str(bad->relo.kind),
			   acc[0] ? acc : bad->access,
			   bad->patch_err[0] ? bad->patch_err : bad->d.reason);
		goto out;
	}
	for (s = 0; commit && s < obj->nr_relo_secs; s++) {
		const struct prog_sec *p = &obj->progs[obj->relo_secs[s].prog];

		if (scratch_shared(obj, s))	/* committed with its first group */
			continue;
		if (obj->swap)	/* back to the file's order */
			rc_insns_swap(scratch[s], p->size / sizeof(*scratch[s]));
		memcpy(obj->buf + p->off, scratch[s], p->size);
	}
	obj->relocated |= commit;
out:
	for (i = 0; cache && i < nt; i++)
		free(cache[i].c);
	free(cache);
	for (s = 0; scratch && s < obj->nr_relo_secs; s++)
		if (!scratch_shared(obj, s))
			free(scratch[s]);
	free(scratch);
	free(one);
	free(bad);
	return ret;
}

int rc_object_relocate(struct rc_object *obj, const struct rc_target *target,
		       const struct rc_result **res, struct rc_error *err)
{
	if (make_results(obj))
		return -ENOMEM;
	if (res)
		*res = obj->res;
	return relocate(obj, target, obj->res, NULL, NULL, true, err);
}

int rc_object_relocate_each(struct rc_object *obj, const struct rc_target *target,
			    rc_result_fn fn, void *ctx, struct rc_error *err)
{
	return relocate(obj, target, NULL, fn, ctx, true, err);
}

int rc_object_decide_each(const struct rc_object *obj, const struct rc_target *target,
			  rc_result_fn fn, void *ctx, struct rc_error *err)
{
	/* not committed: nothing of @obj is written */
	return relocate((struct rc_object *)obj, target, NULL, fn, ctx, false, err);
}

/* Where a written object's core_relo length is zeroed (0: nowhere): once
 * relocated, its records are consumed, so stock libbpf sees none. */
static size_t consumed_len_off(const struct rc_object *obj)
{
	return obj->relocated ? obj->core_relo_len_off : 0;
}

void *rc_object_image(const struct rc_object *obj, size_t *size)
{
	unsigned char *out = malloc(obj->size ? obj->size : 1);
	size_t off = consumed_len_off(obj);

	if (!out)
		return NULL;
	memcpy(out, obj->buf, obj->size);
	if (off)
		memset(out + off, 0, 4);
	*size = obj->size;
	return out;
}

size_t rc_object_results(const struct rc_object *obj,
			 const struct rc_result **res)
{
	/* made on first use: the object owns them (out of memory: none) */
	if (make_results((struct rc_object *)obj)) {
		*res = NULL;
		return 0;
	}
	*res = obj->res;
	return obj->nr_relos;
}

int rc_object_write(struct rc_object *obj, const char *path,
		    struct rc_error *err)
{
	unsigned char len[4];
	size_t off = consumed_len_off(obj);
	int ret;

	/* written from the object's own bytes (no copy of a large object),
	 * the length zeroed for the write only */
	if (off) {
		memcpy(len, obj->buf + off, 4);
		memset(obj->buf + off, 0, 4);
	}
	ret = rc_write_file(path, obj->buf, obj->size, err);
	if (off)
		memcpy(obj->buf + off, len, 4);
	return ret;
}
