// SPDX-License-Identifier: MIT
/*
 * open.c - what libbpf 1.x refuses when it opens an object, beyond the
 * externs (externs.c) and a legacy maps section (maps.c): a program
 * defined static, past its section's end or not of whole instructions; no
 * symbol table; .maps or .struct_ops without BTF; an ELF relocation of a program's section that names no
 * symbol or section, lies outside the section, or, inside a program, is
 * on neither a call nor a 64-bit load or points anywhere but at an
 * extern, .text, .maps or a data section libbpf maps; a "version" section
 * not of 4 bytes; the data sections libbpf fixes up from the ELF (every
 * entry of a DATASEC a VAR, every global VAR an ELF object symbol, a
 * DATASEC of size 0 sized by its ELF section; every entry of .kconfig and
 * .ksyms an extern ELF symbol, once an extern is there).  Each fails the
 * whole object ("open"); test/reader compares these with libbpf's own
 * open.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"

static bool is_text(const struct ctx *c, size_t shndx)
{
	return !strcmp(c->secs[shndx].name, ".text");
}

/* The programs: static ones, ones past their section's end. */
static int program_problems(struct ctx *c, struct rc_check_prog *p)
{
	size_t j;
	int ret = 0;

	for (j = 0; j < c->nsyms && !ret; j++) {
		const struct sym *s = &c->syms[j];
		const struct sec *sec;

		if (s->type != STT_FUNC || !s->shndx || s->shndx >= c->nsecs ||
		    !c->secs[s->shndx].exec)
			continue;
		sec = &c->secs[s->shndx];
		if (!s->size || s->size % 8 || s->value % 8)
			ret = chk_problem(p, RC_CHECK_OPEN, false, -1,
					  "program '%s' at byte %llu of section '%s' has %llu bytes, no whole instructions: libbpf refuses to open the object",
					  s->name, (unsigned long long)s->value, sec->name,
					  (unsigned long long)s->size);
		else if (s->value > sec->size || s->size > sec->size - s->value)
			ret = chk_problem(p, RC_CHECK_OPEN, false, -1,
					  "program '%s' at byte %llu (%llu bytes) crosses the end of section '%s' (%zu bytes): libbpf refuses to open the object",
					  s->name, (unsigned long long)s->value,
					  (unsigned long long)s->size, sec->name, sec->size);
		else if (s->bind == STB_LOCAL && !is_text(c, s->shndx))
			ret = chk_problem(p, RC_CHECK_OPEN, false, -1,
					  "program '%s' of section '%s' is static: libbpf 1.0 and later refuse to open the object",
					  s->name, sec->name);
	}
	return ret;
}

static bool has_pfx(const char *s, const char *pfx)
{
	return !strncmp(s, pfx, strlen(pfx)) && (!s[strlen(pfx)] || s[strlen(pfx)] == '.');
}

/* What a program's ELF relocation on @insn may point into, for libbpf: an
 * extern (undefined), .text (a call, or a subprogram's address: the
 * section's symbol or a global function's), .maps, or a data section it maps (.data*, .rodata*
 * with bytes, .bss*; and .addr_space.1, an arena's, which libbpf 1.4 maps
 * and 1.1 does not: test/reader lists it).  NULL if it may, else why not. */
static const char *relo_target_problem(const struct ctx *c, const struct rc_elf_sec *es,
				       size_t nsecs, const struct sym *s,
				       const struct bpf_insn *insn)
{
	const struct rc_elf_sec *t;
	bool call = insn->code == (BPF_JMP | BPF_CALL);

	if (!call && insn->code != (BPF_LD | BPF_IMM | BPF_DW))
		return "it is on neither a call nor a 64-bit load";

	if (!s->shndx || s->shndx >= SHN_LORESERVE)
		return !s->shndx && s->type == STT_NOTYPE &&
		       (s->bind == STB_GLOBAL || s->bind == STB_WEAK) ? NULL :
		       "its symbol is in a special section, not an extern";
	t = &es[s->shndx];
	if (c->secs[s->shndx].exec)
		return strcmp(t->name, ".text") ? "its symbol is in code other than .text" :
		       s->value % 8 ? "its symbol's offset in .text is no instruction" :
		       call || (s->bind == STB_LOCAL && s->type == STT_SECTION) ||
		       (s->bind == STB_GLOBAL && s->type == STT_FUNC) ? NULL :
		       "its symbol in .text is neither a global function nor the section";
	if (call)
		return "a call whose symbol is not in .text";
	if (!strcmp(t->name, ".maps") || !strcmp(t->name, ".addr_space.1"))
		return NULL;
	if (t->type == SHT_PROGBITS && t->size &&
	    (has_pfx(t->name, ".data") || has_pfx(t->name, ".rodata")))
		return NULL;
	if (t->type == SHT_NOBITS && has_pfx(t->name, ".bss"))
		return NULL;
	return "its symbol's section is no map, data or code section";
}

/* The programs of one section as byte ranges sorted by start, each with
 * the furthest end of it and those before it, so that whether a byte lies
 * in a program is a binary search (a probe has thousands of relocations
 * and symbols; ranges may overlap in a damaged object). */
struct range {
	uint64_t start, end, max_end;
};

static int range_cmp(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* @shndx's FUNC symbols as ranges in *@out (malloc'd); their number, or
 * -1 when out of memory. */
static long program_ranges(const struct ctx *c, size_t shndx, struct range **out)
{
	struct range *r;
	size_t j, n = 0;

	for (j = 0; j < c->nsyms; j++)
		n += c->syms[j].type == STT_FUNC && c->syms[j].shndx == shndx;
	r = *out = malloc((n ? n : 1) * sizeof(*r));
	if (!r)
		return -1;
	for (j = 0, n = 0; j < c->nsyms; j++) {
		const struct sym *s = &c->syms[j];

		if (s->type == STT_FUNC && s->shndx == shndx && s->size) {
			r[n].start = s->value;
			r[n].end = s->value + s->size < s->value ? UINT64_MAX : s->value + s->size;
			n++;
		}
	}
	qsort(r, n, sizeof(*r), range_cmp);
	for (j = 0; j < n; j++)
		r[j].max_end = j && r[j - 1].max_end > r[j].end ? r[j - 1].max_end : r[j].end;
	return (long)n;
}

/* Does byte @off lie in one of the @n ranges @r? */
static bool in_program(const struct range *r, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;	/* the first range starting after @off: lo */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && off < r[lo - 1].max_end;
}

/* The symbol table; BTF where .maps or .struct_ops need it; the ELF
 * relocations of the programs' sections; the version section. */
static int relocation_problems(struct ctx *c, struct rc_check_prog *p)
{
	size_t nsecs, k, i, n;
	const struct rc_elf_sec *es = rc_object_sections(c->obj, &nsecs);
	struct range *ranges = NULL;
	long nranges;

	if (!c->nsyms)
		return chk_problem(p, RC_CHECK_OPEN, false, -1,
				   "no symbol table (a stripped object?): libbpf refuses to open the object");
	for (k = 1; k < nsecs && !c->lbtf; k++)
		if (!strcmp(es[k].name, ".maps") || !strcmp(es[k].name, ".struct_ops"))
			return chk_problem(p, RC_CHECK_OPEN, false, -1,
					   "section '%s' needs the object's BTF, and it has none: libbpf refuses to open the object",
					   es[k].name);
	for (k = 1; k < nsecs; k++)
		if (!strcmp(es[k].name, "version") && es[k].size != 4 &&	/* unless ignored */
		    es[k].type != SHT_STRTAB && es[k].type != 0x6fff4c03 /* SHT_LLVM_ADDRSIG */)
			return chk_problem(p, RC_CHECK_OPEN, false, -1,
					   "section 'version' has %llu bytes, not 4 (a kernel version): libbpf refuses to open the object",
					   (unsigned long long)es[k].size);

	for (k = 1; k < nsecs; k++) {
		const struct rc_elf_rel *r;
		const struct sec *tgt;

		if (es[k].type != SHT_REL || es[k].info >= c->nsecs || !c->secs[es[k].info].exec)
			continue;
		tgt = &c->secs[es[k].info];
		r = rc_object_rels(c->obj, k, &n);
		free(ranges);
		nranges = program_ranges(c, es[k].info, &ranges);
		if (nranges < 0)
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			const char *why = NULL;

			if (r[i].sym >= c->nsyms)
				why = "its symbol is not in the symbol table";
			else if (c->syms[r[i].sym].shndx >= nsecs &&
				 c->syms[r[i].sym].shndx < SHN_LORESERVE)
				why = "its symbol names no section";
			else if (r[i].off % 8 || r[i].off >= tgt->size)
				why = "its offset is no instruction of the section";
			else if (!in_program(ranges, (size_t)nranges, r[i].off))
				continue;	/* libbpf skips it (an overridden weak function's) */
			else
				why = relo_target_problem(c, es, nsecs, &c->syms[r[i].sym],
							  &tgt->insns[r[i].off / 8]);
			if (why) {
				free(ranges);
				return chk_problem(p, RC_CHECK_OPEN, false, -1,
						   "section '%s': ELF relocation #%zu (offset 0x%llx, symbol #%u): %s: libbpf refuses to open the object",
						   tgt->name, i, (unsigned long long)r[i].off, r[i].sym, why);
			}
		}
	}
	free(ranges);
	return 0;
}

/* A global ELF object symbol named @name? (what libbpf finds a VAR by) */
static bool has_object_sym(const struct ctx *c, const char *name)
{
	size_t j;

	for (j = 0; j < c->nsyms; j++) {
		const struct sym *s = &c->syms[j];

		if (s->type == STT_OBJECT && (s->bind == STB_GLOBAL || s->bind == STB_WEAK) &&
		    !strcmp(s->name, name))
			return true;
	}
	return false;
}

/* An ELF symbol libbpf takes for an extern named @name? */
static bool has_extern_sym(const struct ctx *c, const char *name)
{
	size_t j;

	for (j = 0; j < c->nsyms; j++) {
		const struct sym *s = &c->syms[j];

		if (!s->shndx && s->type == STT_NOTYPE &&
		    (s->bind == STB_GLOBAL || s->bind == STB_WEAK) && !strcmp(s->name, name))
			return true;
	}
	return false;
}

/* The ELF section named @name's size, or 0. */
static uint64_t elf_sec_size(const struct ctx *c, const char *name)
{
	size_t nsecs, k;
	const struct rc_elf_sec *es = rc_object_sections(c->obj, &nsecs);

	for (k = 1; k < nsecs; k++)
		if (!strcmp(es[k].name, name))
			return es[k].size;
	return 0;
}

/* The DATASECs libbpf fixes up from the ELF when it opens the object
 * (all but the externs' .kconfig and .ksyms). */
static int datasec_problems(struct ctx *c, struct rc_check_prog *p)
{
	const struct rc_btf *b = c->lbtf;
	uint32_t id, n = b ? rc_btf_type_cnt(b) : 0;

	for (id = 1; id < n; id++) {
		const struct btf_type *t = rc_type(b, id);
		const struct btf_var_secinfo *vs;
		const char *sn;
		int k;

		if (!btf_is_datasec(t))
			continue;
		sn = rc_name(b, t->name_off);
		if (!strcmp(sn, ".kconfig") || !strcmp(sn, ".ksyms")) {
			/* libbpf looks at it when an extern is in it */
			int any = 0;

			vs = btf_var_secinfos(t);
			for (k = 0; k < btf_vlen(t); k++)
				any |= has_extern_sym(c, rc_name(b, rc_type(b, vs[k].type)->name_off));
			for (k = 0; k < btf_vlen(t) && any; k++, vs++) {
				const char *vn = rc_name(b, rc_type(b, vs->type)->name_off);

				if (!has_extern_sym(c, vn))
					return chk_problem(p, RC_CHECK_OPEN, false, -1,
							   "'%s' of DATASEC '%s' has no extern ELF symbol (undefined, global or weak, no type): libbpf refuses to open the object",
							   vn, sn);
			}
			continue;
		}
		if (!t->size && !elf_sec_size(c, sn))
			return chk_problem(p, RC_CHECK_OPEN, false, -1,
					   "DATASEC '%s' [%u]: of size 0, and no ELF section of that name gives one: libbpf refuses to open the object",
					   sn, id);
		vs = btf_var_secinfos(t);
		for (k = 0; k < btf_vlen(t); k++, vs++) {
			const struct btf_type *v = rc_type(b, vs->type);

			if (!btf_is_var(v))
				return chk_problem(p, RC_CHECK_OPEN, false, -1,
						   "DATASEC '%s' [%u]: entry %d is type [%u], not a VAR: libbpf refuses to open the object",
						   sn, id, k, vs->type);
			if (btf_var(v)->linkage == BTF_VAR_STATIC ||
			    btf_var(v)->linkage == BTF_VAR_GLOBAL_EXTERN)
				continue;
			if (!has_object_sym(c, rc_name(b, v->name_off)))
				return chk_problem(p, RC_CHECK_OPEN, false, -1,
						   "DATASEC '%s' [%u]: global VAR '%s' has no ELF object symbol: libbpf refuses to open the object",
						   sn, id, rc_name(b, v->name_off));
		}
	}
	return 0;
}

/* A kernel runs instructions of its own byte order: libbpf, built for it,
 * refuses an object of the other ("elf: endianness mismatch"). */
static int byte_order_problem(struct ctx *c, struct rc_check_prog *p)
{
	bool obe = rc_object_big_endian(c->obj), kbe;

	if (!c->vml)
		return 0;
	kbe = c->vml->big_endian;
	if (obe == kbe)
		return 0;
	return chk_problem(p, RC_CHECK_OPEN, false, -1,
			   "the object is %s-endian, the kernel %s-endian (its BTF): libbpf refuses to open it there (\"elf: endianness mismatch\"); compile it with clang -target %s",
			   obe ? "big" : "little", kbe ? "big" : "little", kbe ? "bpfeb" : "bpfel");
}

int chk_open_problems(struct ctx *c, struct rc_check_prog *p)
{
	return byte_order_problem(c, p) ?: program_problems(c, p) ?:
	       relocation_problems(c, p) ?: datasec_problems(c, p);
}
