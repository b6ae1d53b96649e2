// SPDX-License-Identifier: MIT
/*
 * elf_write.c - the library's one ELF writer: a rewritten object
 * (rc_elf_rewrite), the input's sections in their order, one section's
 * data replaced, one new data section appended and symbols defined in it;
 * libelf lays the result out.  Baking the .kconfig externs (kconfig.c)
 * writes this way.  (A relocated object is the file as read with its
 * instructions patched, written whole by rc_object_write through
 * outfile.c: no ELF layout.)
 *
 * Which section is which comes from the object's view (object.c); the
 * input is opened with libelf here only to copy its headers and data.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static int wfail(const struct rc_object *obj, const struct rc_elf_rewrite *w,
		 struct rc_error *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "OBJ: WHAT: message", -EINVAL. */
static int wfail(const struct rc_object *obj, const struct rc_elf_rewrite *w,
		 struct rc_error *err, const char *fmt, ...)
{
	char tmp[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	rc_fmt(err->msg, sizeof(err->msg), "%s: %s: %s", rc_object_name(obj), w->what, tmp);
	return -EINVAL;
}

/* The first section after 0 named @name, or 0. */
static size_t sec_named(const struct rc_elf_sec *secs, size_t n, const char *name)
{
	size_t k;

	for (k = 1; k < n; k++)
		if (!strcmp(secs[k].name, name))
			return k;
	return 0;
}

/*
 * The input is copied into a new ELF rather than edited in place: editing
 * it (ELF_C_RDWR plus elf_newscn) made libelf 0.188 write its section
 * header table past its buffer on a fuzzed object.
 */
int rc_elf_rewrite(const struct rc_object *obj, const struct rc_elf_rewrite *w, int fd,
		   struct rc_error *err)
{
	const struct rc_elf_sec *secs;
	size_t size, nsecs, nsyms, symidx;
	const unsigned char *buf = rc_object_bytes(obj, &size);
	Elf *in = NULL, *out = NULL;
	Elf_Scn *scn = NULL;
	Elf_Data *d, *sd = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	size_t shstrndx, shnum, phnum, name_idx = 0, new_idx, nlen = strlen(w->add_name) + 1;
	unsigned char *syms = NULL;
	char *names = NULL;
	int ret = -EINVAL;
	size_t i;

	secs = rc_object_sections(obj, &nsecs);
	if (!rc_object_symbols(obj, &nsyms, &symidx))
		symidx = 0;
	elf_version(EV_CURRENT);
	in = elf_memory((char *)buf, size);
	if (!in || !gelf_getehdr(in, &eh) || elf_getshdrstrndx(in, &shstrndx) ||
	    elf_getshdrnum(in, &shnum) || elf_getphdrnum(in, &phnum)) {
		ret = wfail(obj, w, err, "libelf: %s", elf_errmsg(-1));
		goto out;
	}
	if (phnum || shnum >= SHN_LORESERVE || !shstrndx || shstrndx >= shnum) {
		ret = wfail(obj, w, err, "not a relocatable BPF object libelf can rewrite (%zu program headers, %zu sections, names in section %zu)",
			    phnum, shnum, shstrndx);
		goto out;
	}
	if (sec_named(secs, nsecs, w->add_name)) {
		ret = wfail(obj, w, err, "the object already has a section %s", w->add_name);
		goto out;
	}
	if (!symidx || !w->replace_sec) {
		ret = wfail(obj, w, err, "no symbol table or .BTF section");
		goto out;
	}

	out = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!out || !gelf_newehdr(out, gelf_getclass(in))) {
		ret = wfail(obj, w, err, "libelf: %s", elf_errmsg(-1));
		goto out;
	}
	eh.e_phoff = 0;
	eh.e_shoff = 0;		/* laid out by libelf */
	if (!gelf_update_ehdr(out, &eh)) {
		ret = wfail(obj, w, err, "libelf: %s", elf_errmsg(-1));
		goto out;
	}
	while ((scn = elf_nextscn(in, scn))) {
		size_t k = elf_ndxscn(scn);
		Elf_Scn *os = elf_newscn(out);
		Elf_Data *od;

		if (!os || !gelf_getshdr(scn, &sh) || !(od = elf_newdata(os))) {
			ret = wfail(obj, w, err, "section %zu: libelf: %s", k, elf_errmsg(-1));
			goto out;
		}
		od->d_align = sh.sh_addralign ? sh.sh_addralign : 1;
		od->d_type = ELF_T_BYTE;
		od->d_size = sh.sh_size;
		if (k == shstrndx || k == symidx || k == w->replace_sec ||
		    sh.sh_type != SHT_NOBITS) {
			d = elf_rawdata(scn, NULL);
			if (!d || d->d_size != sh.sh_size) {
				ret = wfail(obj, w, err, "section %zu: its data cannot be read (libelf: %s)",
					    k, elf_errmsg(-1));
				goto out;
			}
			od->d_buf = d->d_buf;
		}
		if (k == shstrndx) {	/* the new section's name appended */
			names = malloc(d->d_size + nlen);
			if (!names) {
				ret = -ENOMEM;
				goto out;
			}
			memcpy(names, d->d_buf, d->d_size);
			memcpy(names + d->d_size, w->add_name, nlen);
			name_idx = d->d_size;
			od->d_buf = names;
			od->d_size += nlen;
			sh.sh_size = od->d_size;
		} else if (k == symidx) {	/* a copy to define the symbols in */
			/* in the host's order (libelf's translation: the file
			 * may be big-endian), written back in the file's */
			d = elf_getdata(scn, NULL);
			if (!d || d->d_type != ELF_T_SYM) {
				ret = wfail(obj, w, err, "section %zu: its symbols cannot be read (libelf: %s)",
					    k, elf_errmsg(-1));
				goto out;
			}
			syms = malloc(d->d_size ? d->d_size : 1);
			if (!syms) {
				ret = -ENOMEM;
				goto out;
			}
			memcpy(syms, d->d_buf, d->d_size);
			od->d_buf = syms;
			od->d_type = ELF_T_SYM;
			sd = od;
		} else if (k == w->replace_sec) {
			od->d_buf = (void *)w->replace;
			od->d_size = w->replace_size;
			sh.sh_size = w->replace_size;
		}
		sh.sh_offset = 0;
		if (!gelf_update_shdr(os, &sh)) {
			ret = wfail(obj, w, err, "section %zu: libelf: %s", k, elf_errmsg(-1));
			goto out;
		}
	}

	/* the new data section, last */
	scn = elf_newscn(out);
	if (!scn || !(d = elf_newdata(scn)) || !gelf_getshdr(scn, &sh)) {
		ret = wfail(obj, w, err, "libelf: %s", elf_errmsg(-1));
		goto out;
	}
	d->d_buf = (void *)w->add_data;
	d->d_size = w->add_size;
	d->d_align = 8;
	d->d_type = ELF_T_BYTE;
	sh.sh_name = name_idx;
	sh.sh_type = SHT_PROGBITS;
	sh.sh_flags = SHF_ALLOC;
	sh.sh_addralign = 8;
	sh.sh_size = w->add_size;
	gelf_update_shdr(scn, &sh);
	new_idx = elf_ndxscn(scn);

	/* the symbols, now defined in it */
	for (i = 0; i < w->nr_defs; i++) {
		const struct rc_elf_def *e = &w->defs[i];
		GElf_Sym sym;

		if (e->sym < 0 || !gelf_getsym(sd, e->sym, &sym)) {
			ret = wfail(obj, w, err, "%s: no symbol", e->name);
			goto out;
		}
		sym.st_shndx = new_idx;
		sym.st_value = e->value;
		sym.st_size = e->size;
		sym.st_info = GELF_ST_INFO(GELF_ST_BIND(sym.st_info), STT_OBJECT);
		gelf_update_sym(sd, e->sym, &sym);
	}

	/* lay out first: a hostile alignment must not make a huge file */
	{
		off_t sz = elf_update(out, ELF_C_NULL);

		if (sz < 0 || (uint64_t)sz > 2 * (uint64_t)size + (1u << 20)) {
			ret = wfail(obj, w, err, "the rewritten object would take %lld bytes (section alignments?)",
				    (long long)sz);
			goto out;
		}
	}
	if (elf_update(out, ELF_C_WRITE) < 0) {
		ret = wfail(obj, w, err, "libelf: writing: %s", elf_errmsg(-1));
		goto out;
	}
	ret = 0;
out:
	elf_end(out);
	elf_end(in);
	free(names);
	free(syms);
	return ret;
}
