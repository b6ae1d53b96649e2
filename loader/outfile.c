// SPDX-License-Identifier: MIT
/*
 * outfile.c - the one way relocore writes a file: whole or not at all.
 *
 * Every command that writes (reloc, gen min_core_btf, btfgen, archive
 * create/install/extract, extract) goes through here, because what it
 * writes is read later by a loader and a kernel: a half-written object or
 * archive is a wrong answer later, and relocore runs as root in shared
 * directories (/tmp, a CI workspace).
 *
 *   rc_out_open    opens the destination's directory once; every later
 *                  step goes through that descriptor, so the temporary and
 *                  the destination are always in one directory, whatever is
 *                  renamed or replaced by a link meanwhile.  The data goes
 *                  to an unnamed file in it (O_TMPFILE): killed at any
 *                  point, nothing is left behind.  Where the filesystem has
 *                  no unnamed files, to a new random name created
 *                  exclusively (O_CREAT | O_EXCL: never an existing file,
 *                  never through a planted link).
 *   rc_out_write   appends (short writes and EINTR retried; ENOSPC fails).
 *   rc_out_commit  fsyncs the file, links it under a random name, renames
 *                  that over the destination (a link at the destination is
 *                  replaced, not followed; a reader of the old file keeps
 *                  reading the old file), fsyncs the directory.
 *   rc_out_abort   removes the temporary; the destination is untouched.
 *
 * Any failure before the rename leaves the destination as it was and no
 * temporary behind.  A kill between naming the file and renaming it leaves
 * one temporary, BASE.rc-tmp-PID-XXXXXXXX, which the next write beside it
 * removes (remove_stale).  The file's mode is 0644 less the umask, as a file
 * created by open(2).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define TMP_TAG ".rc-tmp-"

/* A temporary's name beside @base: "BASE.rc-tmp-PID-XXXXXXXX" (BASE cut to
 * fit NAME_MAX; random, and only ever created exclusively). */
static void tmp_name(char *buf, size_t sz, const char *base)
{
	static unsigned int counter;
	unsigned int r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (unsigned int)getpid() * 2654435761u ^ (unsigned int)time(NULL) ^
		    ++counter * 40503u;
	snprintf(buf, sz, "%.200s" TMP_TAG "%d-%08x", base, (int)getpid(), r);
}

/* Is process @pid gone: none, or a zombie (killed, not yet reaped by its
 * parent: it will never rename anything)? */
static bool pid_gone(pid_t pid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	if (kill(pid, 0))
		return errno == ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	p = strrchr(buf, ')');	/* "PID (COMM) STATE ..." */
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

/*
 * The one temporary a kill can leave: between naming the unnamed file and
 * renaming it (two system calls).  Remove those in the directory whose
 * writer is gone (the pid in the name no longer exists, or is a zombie), once per
 * directory per process.  A writer in another pid namespace may look gone:
 * its rename then fails and it reports so, its destination untouched.
 */
static void remove_stale(int dirfd)
{
	static dev_t last_dev;
	static ino_t last_ino;
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int fd;

	if (fstat(dirfd, &st) || (st.st_dev == last_dev && st.st_ino == last_ino))
		return;
	last_dev = st.st_dev;
	last_ino = st.st_ino;
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((d = readdir(dir))) {
		const char *tag = strstr(d->d_name, TMP_TAG);
		char *end;
		long pid;

		if (!tag || tag == d->d_name)
			continue;
		pid = strtol(tag + strlen(TMP_TAG), &end, 10);
		if (pid <= 0 || *end != '-' || strlen(end) != 9 ||
		    strspn(end + 1, "0123456789abcdef") != 8)
			continue;
		if (pid_gone((pid_t)pid))
			unlinkat(dirfd, d->d_name, 0);
	}
	closedir(dir);
}

static int out_fail(struct rc_out *o, struct rc_error *err, const char *what, int e)
{
	if (err)
		rc_fmt(err->msg, sizeof(err->msg), "%s: %s: %s", o->path, what, strerror(e));
	rc_out_abort(o);
	return -(e ? e : EIO);
}

/* Create a named temporary exclusively in the directory. */
static int open_named(struct rc_out *o)
{
	int i;

	for (i = 0; i < 100; i++) {
		tmp_name(o->tmp, sizeof(o->tmp), o->base);
		o->fd = openat(o->dirfd, o->tmp,
			       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (o->fd >= 0) {
			o->named = true;
			return 0;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* The unnamed file (readable too: copy_to_named may read it back), else a
 * named one. */
static int open_tmp(struct rc_out *o, struct rc_error *err)
{
	int e;

	remove_stale(o->dirfd);
	o->fd = openat(o->dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
	if (o->fd < 0) {	/* no unnamed files here: a name, exclusively */
		e = open_named(o);
		if (e)
			return out_fail(o, err, "cannot create a temporary beside it", -e);
	}
	return 0;
}

static int check_base(struct rc_out *o, struct rc_error *err)
{
	if (!*o->base || !strcmp(o->base, ".") || !strcmp(o->base, ".."))
		return out_fail(o, err, "not a file name", EISDIR);
	return 0;
}

int rc_out_open(struct rc_out *o, const char *path, struct rc_error *err)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int e;

	memset(o, 0, sizeof(*o));
	o->fd = o->dirfd = -1;
	o->path = strdup(path);
	if (!o->path) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: out of memory", path);
		return -ENOMEM;
	}
	o->base = o->path + (slash ? slash - path + 1 : 0);
	if (check_base(o, err))
		return -EISDIR;
	dir = slash ? strndup(path, slash == path ? 1 : slash - path) : strdup(".");
	if (!dir)
		return out_fail(o, err, "out of memory", ENOMEM);
	/* readable for the directory's fsync; a search-only directory as O_PATH */
	o->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (o->dirfd < 0 && errno == EACCES)
		o->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	e = errno;
	free(dir);
	if (o->dirfd < 0)
		return out_fail(o, err, "its directory", e);
	return open_tmp(o, err);
}

int rc_out_open_in(struct rc_out *o, int dirfd, const char *name, const char *shown,
		   struct rc_error *err)
{
	size_t sl = strlen(shown) + 1, nl = strlen(name) + 1;

	memset(o, 0, sizeof(*o));
	o->fd = o->dirfd = -1;
	o->path = malloc(sl + nl);	/* "SHOWN\0NAME\0": one allocation */
	if (!o->path) {
		rc_fmt(err->msg, sizeof(err->msg), "%s: out of memory", shown);
		return -ENOMEM;
	}
	memcpy(o->path, shown, sl);
	memcpy(o->path + sl, name, nl);
	o->base = strchr(name, '/') ? "" : o->path + sl;
	if (check_base(o, err))
		return -EISDIR;
	o->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	if (o->dirfd < 0)
		return out_fail(o, err, "its directory", errno);
	return open_tmp(o, err);
}

int rc_out_write(struct rc_out *o, const void *data, size_t size, struct rc_error *err)
{
	const unsigned char *p = data;

	while (size) {
		ssize_t n = write(o->fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return out_fail(o, err, "write failed", n < 0 ? errno : EIO);
		p += n;
		size -= n;
	}
	return 0;
}

/* Give the unnamed file a (random, new) name in the directory. */
static int link_unnamed(struct rc_out *o)
{
	char proc[64];
	int i, e;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	for (i = 0; i < 100; i++) {
		tmp_name(o->tmp, sizeof(o->tmp), o->base);
		/* by descriptor (needs CAP_DAC_READ_SEARCH before 6.10),
		 * else through /proc */
		if (!linkat(o->fd, "", o->dirfd, o->tmp, AT_EMPTY_PATH) ||
		    (errno != EEXIST &&
		     !linkat(AT_FDCWD, proc, o->dirfd, o->tmp, AT_SYMLINK_FOLLOW))) {
			o->named = true;
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	e = errno;
	return -(e ? e : EEXIST);
}

/* Neither way to name the unnamed file works (no /proc, no capability):
 * copy it to a named temporary. */
static int copy_to_named(struct rc_out *o)
{
	int src = o->fd, e = 0;
	char buf[1 << 16];
	off_t off = 0;
	ssize_t n;

	e = open_named(o);
	if (e) {
		o->fd = src;	/* closed by the caller's abort */
		return e;
	}
	while ((n = pread(src, buf, sizeof(buf), off)) > 0) {
		ssize_t w = 0;

		while (w < n) {
			ssize_t k = write(o->fd, buf + w, n - w);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				e = k < 0 ? errno : EIO;
				goto out;
			}
			w += k;
		}
		off += n;
	}
	if (n < 0)
		e = errno;
	else if (fsync(o->fd))
		e = errno;
out:
	close(src);
	return -e;
}

int rc_out_commit(struct rc_out *o, struct rc_error *err)
{
	int e;

	if (fsync(o->fd))
		return out_fail(o, err, "write failed", errno);
	if (!o->named) {
		e = link_unnamed(o);
		if (e && (e == -ENOENT || e == -EPERM || e == -EACCES || e == -EOPNOTSUPP))
			e = copy_to_named(o);
		if (e)
			return out_fail(o, err, "cannot name the temporary", -e);
	}
	if (renameat(o->dirfd, o->tmp, o->dirfd, o->base))
		return out_fail(o, err, "cannot rename into place", errno);
	o->named = false;	/* it is the destination now */
	/* the rename itself is durable once the directory is synced; a
	 * directory opened search-only (O_PATH) or a filesystem that cannot
	 * sync one is left to the filesystem */
	if (fsync(o->dirfd) && errno != EBADF && errno != EINVAL) {
		e = errno;
		if (err)
			rc_fmt(err->msg, sizeof(err->msg),
			       "%s: written, but syncing its directory failed: %s", o->path,
			       strerror(e));
		rc_out_abort(o);
		return -e;
	}
	rc_out_abort(o);	/* closes; nothing left to remove */
	return 0;
}

void rc_out_abort(struct rc_out *o)
{
	if (o->named && o->dirfd >= 0)
		unlinkat(o->dirfd, o->tmp, 0);
	o->named = false;
	if (o->fd >= 0)
		close(o->fd);
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->fd = o->dirfd = -1;
	free(o->path);
	o->path = NULL;
}

int rc_write_file(const char *path, const void *data, size_t size, struct rc_error *err)
{
	struct rc_out o;
	int ret = rc_out_open(&o, path, err);

	if (!ret)
		ret = rc_out_write(&o, data, size, err);
	if (!ret)
		ret = rc_out_commit(&o, err);
	return ret;
}

int rc_make_dirs(const char *path, bool whole)
{
	char *p = strdup(path), *q;
	int ret = 0;

	if (!p)
		return -ENOMEM;
	for (q = p + 1; *q && !ret; q++)
		if (*q == '/') {
			*q = 0;
			if (mkdir(p, 0755) && errno != EEXIST)
				ret = -errno;
			*q = '/';
		}
	if (!ret && whole && mkdir(p, 0755) && errno != EEXIST)
		ret = -errno;
	free(p);
	return ret;
}
