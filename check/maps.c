// SPDX-License-Identifier: MIT
/*
 * maps.c - the object's maps against the target: each BTF-defined map
 * (.maps) has a type the target's enum bpf_map_type lists, and a size
 * (max_entries 0 "needs" user space to set it, unless the kernel or
 * libbpf sizes that type itself); a legacy "maps" section libbpf 1.0
 * refuses at open; struct_ops maps against the target's struct.  Maps are
 * created for the whole object, so a map problem is every program's.  And the maps themselves, as libbpf makes
 * them at open (chk_list_maps): test/reader compares them with libbpf's.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"

/* The __uint(NAME, V) value of map struct member @m: PTR -> ARRAY[V]. */
static bool map_uint(const struct rc_btf *btf, const struct btf_member *m,
		     uint32_t *v)
{
	const struct btf_type *t = rc_type(btf, m->type);

	if (!t || !btf_is_ptr(t) || !(t = rc_type(btf, t->type)) || !btf_is_array(t))
		return false;
	*v = btf_array(t)->nelems;
	return true;
}

static int check_maps(struct ctx *c, struct rc_check_prog *p)
{
	/* types libbpf or the kernel size on their own (max_entries 0 is right) */
	static const uint32_t self_sized[] = {
		4,	/* PERF_EVENT_ARRAY: libbpf uses the number of CPUs */
		19, 21,	/* CGROUP_STORAGE, PERCPU_CGROUP_STORAGE */
		24, 28, 29, 32,	/* SK_, INODE_, TASK_, CGRP_STORAGE */
	};
	const struct btf_type *mt = chk_target_enum(c, "bpf_map_type");
	const struct btf_var_secinfo *vs;
	const struct btf_type *ds;
	int id, i, j, ret;
	size_t k;

	if (!c->lbtf || (id = rc_btf_find_by_name_kind(c->lbtf, ".maps", BTF_KIND_DATASEC)) <= 0)
		return 0;
	ds = rc_type(c->lbtf, id);
	vs = btf_var_secinfos(ds);
	for (i = 0; i < btf_vlen(ds); i++, vs++) {
		const struct btf_type *var = rc_type(c->lbtf, vs->type), *st;
		const struct btf_member *m;
		const char *mname;
		bool has_type = false, has_max = false, self = false;
		uint32_t type = 0, max = 0;

		if (!var || !btf_is_var(var) ||
		    !(st = rc_skip_mods_typedefs(c->lbtf, var->type, NULL)) ||
		    !btf_is_struct(st))
			continue;
		mname = rc_name(c->lbtf, var->name_off);
		m = btf_members(st);
		for (j = 0; j < btf_vlen(st); j++, m++) {
			const char *n = rc_name(c->lbtf, m->name_off);

			if (n && !strcmp(n, "type"))
				has_type = map_uint(c->lbtf, m, &type);
			else if (n && !strcmp(n, "max_entries"))
				has_max = map_uint(c->lbtf, m, &max);
		}
		if (has_type && mt && !chk_enum_has_value(c, mt, type)) {
			ret = chk_problem(p, RC_CHECK_MAP, false, -1,
					  "map %s: type %u is not in this kernel's enum bpf_map_type",
					  mname ? mname : "?", type);
			if (ret)
				return ret;
		}
		for (k = 0; k < sizeof(self_sized) / sizeof(*self_sized); k++)
			self |= has_type && type == self_sized[k];
		if ((!has_max || !max) && !self &&
		    !(mname && chk_listed(c->opts->sized_maps, c->opts->nr_sized_maps, mname))) {
			ret = chk_problem(p, RC_CHECK_MAP, true, -1,
					  "map %s: needs max_entries from user space (bpf_map__set_max_entries before load): the object says 0",
					  mname ? mname : "?");
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* The member @name of struct @t in @b, or NULL. */
static const struct btf_member *member_named(const struct rc_btf *b, const struct btf_type *t,
					     const char *name)
{
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = rc_name(b, m->name_off);

		if (n && !strcmp(n, name))
			return m;
	}
	return NULL;
}

/*
 * Each struct_ops map (a variable of .struct_ops or .struct_ops.link) as
 * libbpf 1.1 creates it at load (bpf_map__init_kern_struct_ops): the
 * target has the struct (tcp_congestion_ops, ...) and registers it as a
 * struct_ops type (struct bpf_struct_ops_NAME); every member the object's
 * struct has is in the target's, of the same kind of type, of the same
 * size where it is not a pointer.  Else the map, and the object, fail.
 */
static int check_struct_ops(struct ctx *c, struct rc_check_prog *p)
{
	static const char *const secs[] = { ".struct_ops", ".struct_ops.link" };
	size_t si;
	int ret;

	for (si = 0; c->lbtf && si < sizeof(secs) / sizeof(*secs); si++) {
		int id = rc_btf_find_by_name_kind(c->lbtf, secs[si], BTF_KIND_DATASEC), i, j;
		const struct btf_var_secinfo *vs;
		const struct btf_type *ds;

		if (id <= 0)
			continue;
		ds = rc_type(c->lbtf, id);
		vs = btf_var_secinfos(ds);
		for (i = 0; i < btf_vlen(ds); i++, vs++) {
			const struct btf_type *var = rc_type(c->lbtf, vs->type), *st, *kt;
			const struct rc_btf *kb;
			const struct btf_member *m;
			const char *mname, *tname;
			char wrap[300];

			if (!var || !btf_is_var(var) ||
			    !(st = rc_skip_mods_typedefs(c->lbtf, var->type, NULL)) ||
			    !btf_is_struct(st))
				continue;
			mname = rc_name(c->lbtf, var->name_off) ?: "?";
			tname = rc_name(c->lbtf, st->name_off) ?: "";
			rc_fmt(wrap, sizeof(wrap), "bpf_struct_ops_%s", tname);
			kt = chk_target_type(c, tname, BTF_KIND_STRUCT, &kb);
			if (!kt || !chk_target_has(c, wrap, BTF_KIND_STRUCT, NULL)) {
				ret = chk_problem(p, RC_CHECK_MAP, false, -1,
						  "struct_ops map %s: %s: libbpf cannot create the map",
						  mname, !kt ? "the target has no struct of that type" :
						  "the target registers no struct_ops of that type (no struct bpf_struct_ops_NAME)");
				if (ret)
					return ret;
				continue;
			}
			m = btf_members(st);
			for (j = 0; j < btf_vlen(st); j++, m++) {
				const char *n = rc_name(c->lbtf, m->name_off);
				const struct btf_member *km = n ? member_named(kb, kt, n) : NULL;
				const struct btf_type *lt = rc_skip_mods_typedefs(c->lbtf, m->type, NULL);
				const struct btf_type *ktt = km ? rc_skip_mods_typedefs(kb, km->type, NULL) : NULL;

				if (!n || !*n)
					continue;
				if (!km)
					ret = chk_problem(p, RC_CHECK_MAP, false, -1,
							  "struct_ops map %s: member %s is not in the target's struct %s: libbpf cannot create the map",
							  mname, n, tname);
				else if (!lt || !ktt || btf_kind(lt) != btf_kind(ktt))
					ret = chk_problem(p, RC_CHECK_MAP, false, -1,
							  "struct_ops map %s: member %s is of another kind of type in the target's struct %s",
							  mname, n, tname);
				else if (!btf_is_ptr(lt) && rc_btf_resolve_size(c->lbtf, m->type) !=
						 rc_btf_resolve_size(kb, km->type))
					ret = chk_problem(p, RC_CHECK_MAP, false, -1,
							  "struct_ops map %s: member %s is %lld bytes, %lld in the target's struct %s",
							  mname, n, (long long)rc_btf_resolve_size(c->lbtf, m->type),
							  (long long)rc_btf_resolve_size(kb, km->type), tname);
				else
					ret = 0;
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

int chk_map_problems(struct ctx *c, struct rc_check_prog *p)
{
	size_t i, nsecs;
	const struct rc_elf_sec *es = rc_object_sections(c->obj, &nsecs);
	int ret;

	for (i = 1; i < c->nsecs; i++)	/* (libbpf ignores string tables and addrsig) */
		if (!strcmp(c->secs[i].name, "maps") && es[i].type != SHT_STRTAB &&
		    es[i].type != 0x6fff4c03 /* SHT_LLVM_ADDRSIG */ &&
		    (ret = chk_problem(p, RC_CHECK_OPEN, false, -1,
				       "legacy 'maps' section: libbpf 1.0 and later refuse to open the object (use BTF-defined maps in .maps)")))
			return ret;
	ret = check_maps(c, p);
	return ret ? ret : check_struct_ops(c, p);
}

/* ---- the maps libbpf makes at open (rc_check.maps) ---- */

static int add_map(struct rc_check *out, size_t *cap, const char *name, const char *sec,
		   uint32_t type, uint32_t key, uint32_t value, uint32_t max, uint32_t flags)
{
	struct rc_check_map *m;

	if ((size_t)out->nr_maps == *cap) {
		size_t n = *cap ? *cap * 2 : 8;

		m = realloc(out->maps, n * sizeof(*m));
		if (!m)
			return -ENOMEM;
		out->maps = m;
		*cap = n;
	}
	m = &out->maps[out->nr_maps++];
	memset(m, 0, sizeof(*m));
	rc_fmt(m->name, sizeof(m->name), "%s", name);
	rc_fmt(m->section, sizeof(m->section), "%s", sec);
	m->type = type;
	m->key_size = key;
	m->value_size = value;
	m->max_entries = max;
	m->flags = flags;
	return 0;
}

/* the size of what member @m (__type(key, T): PTR -> T) points to */
static uint32_t map_ptr_size(const struct rc_btf *btf, const struct btf_member *m)
{
	const struct btf_type *t = rc_type(btf, m->type);
	int64_t sz;

	if (!t || !btf_is_ptr(t) || (sz = rc_btf_resolve_size(btf, t->type)) < 0)
		return 0;
	return (uint32_t)sz;
}

/* libbpf lets user space mmap a data map (BPF_F_MMAPABLE) when the object's
 * BTF has a DATASEC of its section with a variable that is not static */
static bool data_mmapable(const struct rc_btf *btf, const char *sec)
{
	const struct btf_var_secinfo *vs;
	const struct btf_type *ds;
	int id, i;

	if (!btf || (id = rc_btf_find_by_name_kind(btf, sec, BTF_KIND_DATASEC)) <= 0)
		return false;
	ds = rc_type(btf, id);
	vs = btf_var_secinfos(ds);
	for (i = 0; i < btf_vlen(ds); i++, vs++) {
		const struct btf_type *v = rc_type(btf, vs->type);

		if (v && btf_is_var(v) && btf_var(v)->linkage != BTF_VAR_STATIC)
			return true;
	}
	return false;
}

#define MAP_ARRAY 2
#define MAP_STRUCT_OPS 26
#define F_RDONLY_PROG 0x80
#define F_MMAPABLE 0x400

int chk_list_maps(const struct rc_object *obj, struct rc_check *out)
{
	const struct rc_btf *btf = rc_object_types(obj);
	const struct rc_elf_sec *es;
	const struct btf_var_secinfo *vs;
	const struct btf_type *ds;
	size_t cap = 0, i, nsecs;
	int64_t ksz;
	int id, j, k, ret;

	/* BTF-defined maps, in .maps's DATASEC order */
	if (btf && (id = rc_btf_find_by_name_kind(btf, ".maps", BTF_KIND_DATASEC)) > 0) {
		ds = rc_type(btf, id);
		vs = btf_var_secinfos(ds);
		for (j = 0; j < btf_vlen(ds); j++, vs++) {
			const struct btf_type *var = rc_type(btf, vs->type), *st;
			const struct btf_member *m;
			uint32_t type = 0, key = 0, value = 0, max = 0, flags = 0;
			bool has_values = false, has_value = false;

			if (!var || !btf_is_var(var) ||
			    !(st = rc_skip_mods_typedefs(btf, var->type, NULL)) || !btf_is_struct(st))
				continue;
			m = btf_members(st);
			for (k = 0; k < btf_vlen(st); k++, m++) {
				const char *n = rc_name(btf, m->name_off);

				if (!n)
					continue;
				if (!strcmp(n, "type"))
					map_uint(btf, m, &type);
				else if (!strcmp(n, "max_entries"))
					map_uint(btf, m, &max);
				else if (!strcmp(n, "map_flags"))
					map_uint(btf, m, &flags);
				else if (!strcmp(n, "key_size"))
					map_uint(btf, m, &key);
				else if (!strcmp(n, "value_size"))
					has_value = map_uint(btf, m, &value);
				else if (!strcmp(n, "key"))
					key = map_ptr_size(btf, m);
				else if (!strcmp(n, "value"))
					value = map_ptr_size(btf, m), has_value = true;
				else if (!strcmp(n, "values"))
					has_values = true;
			}
			/* __array(values, ...): map-in-map and prog arrays
			 * hold 4-byte ids */
			if (has_values && !has_value)
				value = 4;
			ret = add_map(out, &cap, rc_name(btf, var->name_off) ?: "", ".maps",
				      type, key, value, max, flags);
			if (ret)
				return ret;
		}
	}
	/* a map per global data section, in section order */
	es = rc_object_sections(obj, &nsecs);
	for (i = 1; i < nsecs; i++) {
		const char *n = es[i].name;
		bool ro = !strcmp(n, ".rodata") || !strncmp(n, ".rodata.", 8);
		bool data = ro || !strcmp(n, ".data") || !strncmp(n, ".data.", 6);

		/* (an empty one makes none: GCC writes an empty .bss) */
		if (!es[i].size ||
		    (es[i].type == SHT_PROGBITS ? !data || (es[i].flags & SHF_EXECINSTR)
						: es[i].type != SHT_NOBITS || strcmp(n, ".bss")))
			continue;
		ret = add_map(out, &cap, n, n, MAP_ARRAY, 4, (uint32_t)es[i].size, 1,
			      (ro ? F_RDONLY_PROG : 0) | (data_mmapable(btf, n) ? F_MMAPABLE : 0));
		if (ret)
			return ret;
	}
	/* the .kconfig externs' values */
	if (btf && (ksz = rc_kconfig_map_size(btf)) > 0 &&
	    (ret = add_map(out, &cap, ".kconfig", ".kconfig", MAP_ARRAY, 4, (uint32_t)ksz, 1,
			   F_RDONLY_PROG | (data_mmapable(btf, ".kconfig") ? F_MMAPABLE : 0))))
		return ret;
	/* a struct_ops map per variable of .struct_ops */
	if (btf && (id = rc_btf_find_by_name_kind(btf, ".struct_ops", BTF_KIND_DATASEC)) > 0) {
		ds = rc_type(btf, id);
		vs = btf_var_secinfos(ds);
		for (j = 0; j < btf_vlen(ds); j++, vs++) {
			const struct btf_type *var = rc_type(btf, vs->type);
			int64_t sz;

			if (!var || !btf_is_var(var) || (sz = rc_btf_resolve_size(btf, var->type)) < 0)
				continue;
			ret = add_map(out, &cap, rc_name(btf, var->name_off) ?: "", ".struct_ops",
				      MAP_STRUCT_OPS, 4, (uint32_t)sz, 1, 0);
			if (ret)
				return ret;
		}
	}
	return 0;
}
