// SPDX-License-Identifier: MIT
/*
 * maps.c - the object's maps against the target: each BTF-defined map
 * (.maps) has a type the target's enum bpf_map_type lists, and a size
 * (max_entries 0 "needs" user space to set it, unless the kernel or
 * libbpf sizes that type itself); a legacy "maps" section libbpf 1.0
 * refuses at open.  Maps are created for the whole object, so a map
 * problem is every program's.
 */
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
	return check_maps(c, p);
}
