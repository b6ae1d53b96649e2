// SPDX-License-Identifier: MIT
/*
 * target_opts.c - the options that choose a target BTF, shared by every
 * command: --btf, --base-btf, --module, --archive, --release.
 *
 * Without --btf, the target is the running kernel's /sys/kernel/btf/vmlinux
 * with its modules' BTF (every other file of /sys/kernel/btf: libbpf looks
 * for CO-RE candidates there too when vmlinux has none); --btf DIR takes
 * such a directory (a copy of a kernel's /sys/kernel/btf) the same way.
 * When /sys/kernel/btf/vmlinux does not exist (a kernel built without BTF), the BTF of the
 * running release is looked up in the archive given by --archive, else in
 * RELOCORE_ARCHIVE, else in the default archive RC_DEFAULT_ARCHIVE.
 * --btf takes raw BTF, an ELF file with .BTF, or BTFHub's .btf.tar.xz.
 */
#include <bpf/btf.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "btfgen.h"
#include "cli.h"

#define SYSFS_BTF "/sys/kernel/btf"
#define SYSFS_VMLINUX SYSFS_BTF "/vmlinux"

/* Every module of @dir (a kernel's /sys/kernel/btf, or a copy: the files
 * other than vmlinux, each a module's BTF split over vmlinux's), in name
 * order, added to @tg.  0, or -1 after a message; @lenient (the running
 * kernel's own): a module that cannot be read is said and left out. */
static int add_module_dir(struct rc_target *tg, const char *dir, bool lenient)
{
	struct rc_error err = { "" };
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort), i, ret = 0;

	if (n < 0) {
		fprintf(stderr, "relocore: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (!ret && ents[i]->d_name[0] != '.' && strcmp(ents[i]->d_name, "vmlinux") &&
		    !stat(path, &st) && S_ISREG(st.st_mode) &&
		    rc_target_add_module(tg, path, &err)) {
			fprintf(stderr, "relocore: module: %s%s\n", err.msg,
				lenient ? " (left out)" : "");
			ret = lenient ? 0 : -1;
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

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
	const char *moddir = NULL;
	char vml[4096];
	struct rc_target *tg;
	struct stat st;
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
		const char *path = t->btf;

		if (!t->btf)
			t->btf = path = SYSFS_VMLINUX;
		if (!strcmp(path, SYSFS_VMLINUX)) {
			moddir = SYSFS_BTF;	/* the running kernel's modules */
		} else if (!stat(t->btf, &st) && S_ISDIR(st.st_mode)) {
			moddir = t->btf;	/* a copy of /sys/kernel/btf */
			snprintf(vml, sizeof(vml), "%s/vmlinux", moddir);
			path = vml;
		}
		snprintf(t->what, sizeof(t->what), "%.500s", moddir && t->btf != path ? moddir : path);
		tg = target_open_file(path, t->base_btf, &err);
		if (!tg)
			fprintf(stderr, "relocore: target: %s\n", err.msg);
	}
	if (tg && moddir && !t->base_btf &&
	    add_module_dir(tg, moddir, !strcmp(moddir, SYSFS_BTF))) {
		rc_target_free(tg);
		tg = NULL;
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
