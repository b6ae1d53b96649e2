// SPDX-License-Identifier: MIT
/*
 * target_opts.c - the options that choose a target BTF, shared by every
 * command: --btf, --base-btf, --module, --archive, --release.
 *
 * Without --btf, the target is the running kernel's /sys/kernel/btf/vmlinux;
 * when that does not exist (a kernel built without BTF), the BTF of the
 * running release is looked up in the archive given by --archive, else in
 * RELOCORE_ARCHIVE, else in the default archive RC_DEFAULT_ARCHIVE.
 * --btf takes raw BTF, an ELF file with .BTF, or BTFHub's .btf.tar.xz.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "btfgen.h"
#include "cli.h"

#define SYSFS_VMLINUX "/sys/kernel/btf/vmlinux"

int target_opt(struct target_opts *t, int c, const char *arg)
{
	switch (c) {
	case 'b': t->btf = arg; return 1;
	case 'B': t->base_btf = arg; return 1;
	case 'A': t->archive = arg; return 1;
	case 'R': t->release = arg; return 1;
	case 'm':
		if (t->nr_mods == TARGET_MAX_MODULES) {
			fprintf(stderr, "relocore: too many --module\n");
			return -1;
		}
		t->mods[t->nr_mods++] = arg;
		return 1;
	}
	return 0;
}

static struct rc_target *from_archive(struct target_opts *t)
{
	struct rc_error err = { "" };
	struct bg_archive *a;
	struct rc_target *tg = NULL;
	struct btf *btf;
	struct utsname u;
	const char *rel = t->release;

	if (!rel) {
		uname(&u);
		snprintf(t->release_buf, sizeof(t->release_buf), "%s", u.release);
		rel = t->release_buf;
	}
	a = bg_archive_open(t->archive, &err);
	if (!a) {
		fprintf(stderr, "relocore: archive: %s\n", err.msg);
		return NULL;
	}
	btf = bg_archive_get(a, rel, &err);
	if (btf && rc_btf_validate(btf, t->archive, &err)) {
		btf__free(btf);
		btf = NULL;
	}
	if (btf && !(tg = rc_target_adopt(btf)))
		btf__free(btf);	/* not adopted: still ours */
	if (!tg)
		fprintf(stderr, "relocore: archive: %s\n", err.msg[0] ? err.msg : "out of memory");
	snprintf(t->what, sizeof(t->what), "%s[%s]", t->archive, rel);
	bg_archive_free(a);
	return tg;
}

struct rc_target *target_open_file(const char *path, const char *base,
				   struct rc_error *err)
{
	struct rc_target *tg;
	struct btf *btf;

	if (!bg_btfhub_is(path))
		return rc_target_open(path, base, err);
	if (base) {
		snprintf(err->msg, sizeof(err->msg),
			 "%s: split BTF over --base-btf is read from raw or ELF files, not .btf.tar.xz",
			 path);
		return NULL;
	}
	btf = bg_btfhub_read(path, err);
	if (!btf)
		return NULL;
	tg = rc_target_adopt(btf);
	if (!tg) {
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory", path);
		btf__free(btf);
	}
	return tg;
}

struct rc_target *target_open(struct target_opts *t)
{
	struct rc_error err = { "" };
	struct rc_target *tg;
	int i;

	if (!t->btf && !t->archive && access(SYSFS_VMLINUX, R_OK)) {
		t->archive = getenv("RELOCORE_ARCHIVE");
		if (!t->archive)
			t->archive = RC_DEFAULT_ARCHIVE;
		fprintf(stderr, "relocore: %s: %s; looking the kernel up in %s\n",
			SYSFS_VMLINUX, strerror(errno), t->archive);
	}
	if (t->archive && !t->btf) {
		tg = from_archive(t);
	} else {
		if (!t->btf)
			t->btf = SYSFS_VMLINUX;
		snprintf(t->what, sizeof(t->what), "%s", t->btf);
		tg = target_open_file(t->btf, t->base_btf, &err);
		if (!tg)
			fprintf(stderr, "relocore: target: %s\n", err.msg);
	}
	for (i = 0; tg && i < t->nr_mods; i++) {
		if (rc_target_add_module(tg, t->mods[i], &err)) {
			fprintf(stderr, "relocore: module: %s\n", err.msg);
			rc_target_free(tg);
			tg = NULL;
		}
	}
	return tg;
}

struct rc_target *target_open_for(struct target_opts *t, const char *path,
				  const char *select, struct rc_object **obj)
{
	struct rc_error err = { "" };
	struct rc_target *tg;

	*obj = rc_object_open_select(path, select, &err);
	if (!*obj) {
		fprintf(stderr, "relocore: %s\n", err.msg);
		return NULL;
	}
	tg = target_open(t);
	if (!tg) {
		rc_object_free(*obj);
		*obj = NULL;
	}
	return tg;
}
