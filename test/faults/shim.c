// SPDX-License-Identifier: MIT
/*
 * shim.c - an LD_PRELOAD library that injects faults into the calls by
 * which relocore writes files (test/faults/run.py).
 *
 * Counted calls, in the order the program makes them: open, openat (when
 * they create or write), fopen (for writing), write, fsync, linkat,
 * renameat, rename, unlinkat, unlink.  Environment:
 *   RC_FAULT_COUNT=FILE    at exit, write the number of counted calls and
 *                          their names, one per line, to FILE
 *   RC_FAULT_AT=N          before the N-th counted call (1-based) do
 *   RC_FAULT_DO=kill       raise SIGKILL
 *              eio|enospc  fail that call with EIO / ENOSPC
 *              swap:DIR:TO rename directory DIR to DIR.moved and put a
 *                          symlink to TO in its place, then make the call
 *   RC_FAULT_NO_TMPFILE=1  open(O_TMPFILE) fails with EOPNOTSUPP (the
 *                          filesystem has none: named temporaries)
 *   RC_FAULT_NO_LINK=1     linkat fails with ENOENT (no capability, no /proc)
 *   RC_FAULT_DIR=DIR       watch files created in DIR:
 *   RC_FAULT_PLANT=FILE    before each of the first 3 creates of a name in
 *                          DIR (open/openat with O_CREAT, fopen, linkat),
 *                          plant a symlink to FILE at that name, as an
 *                          attacker who guessed it would
 *   RC_FAULT_LOG=FILE      append "nonexcl NAME" for every create in DIR
 *                          that would follow or truncate an existing file
 *                          (O_CREAT without O_EXCL, fopen "w"/"a")
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static long counter, fault_at = -1;
static const char *fault_do;
static char names[4096];
static size_t names_len;
static int planted;

/* The shim's own writes go around it. */
static void log_line(const char *what, const char *name)
{
	const char *f = getenv("RC_FAULT_LOG");
	char buf[PATH_MAX + 64];
	int fd, n;

	if (!f)
		return;
	fd = syscall(SYS_openat, AT_FDCWD, f, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%s %s\n", what, name);
	if (syscall(SYS_write, fd, buf, n) != n)
		n = 0;
	close(fd);
}

__attribute__((constructor)) static void init(void)
{
	const char *at = getenv("RC_FAULT_AT");

	if (at)
		fault_at = atol(at);
	fault_do = getenv("RC_FAULT_DO");
}

__attribute__((destructor)) static void fini(void)
{
	const char *f = getenv("RC_FAULT_COUNT");
	char buf[64];
	int fd, n;

	if (!f)
		return;
	fd = syscall(SYS_openat, AT_FDCWD, f, O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%ld\n", counter);
	if (syscall(SYS_write, fd, buf, n) != n ||
	    syscall(SYS_write, fd, names, names_len) != (long)names_len)
		n = 0;
	close(fd);
}

static void do_swap(const char *spec)
{
	char dir[PATH_MAX], moved[PATH_MAX + 8];
	const char *to = strchr(spec, ':');

	if (!to)
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(to - spec), spec);
	snprintf(moved, sizeof(moved), "%s.moved", dir);
	if (syscall(SYS_renameat, AT_FDCWD, dir, AT_FDCWD, moved) || symlink(to + 1, dir))
		log_line("swap-failed", dir);
}

/* Count a call; 0 to go on, -1 (errno set) to fail it. */
static int fault(const char *name)
{
	size_t l = strlen(name);

	counter++;
	if (names_len + l + 2 < sizeof(names)) {
		memcpy(names + names_len, name, l);
		names[names_len + l] = '\n';
		names_len += l + 1;
		names[names_len] = 0;
	}
	if (counter != fault_at || !fault_do)
		return 0;
	if (!strcmp(fault_do, "kill"))
		raise(SIGKILL);
	if (!strncmp(fault_do, "swap:", 5)) {
		do_swap(fault_do + 5);
		return 0;
	}
	errno = !strcmp(fault_do, "enospc") ? ENOSPC : EIO;
	return -1;
}

/* The absolute path of NAME relative to DIRFD, when it is in RC_FAULT_DIR. */
static int watched(int dirfd, const char *name, char *abs, size_t sz)
{
	const char *dir = getenv("RC_FAULT_DIR");
	char base[PATH_MAX], proc[64];
	ssize_t n;

	if (!dir || !name)
		return 0;
	if (name[0] == '/' || dirfd == AT_FDCWD) {
		if (name[0] == '/')
			snprintf(abs, sz, "%s", name);
		else if (getcwd(base, sizeof(base)))
			snprintf(abs, sz, "%s/%s", base, name);
		else
			return 0;
	} else {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", dirfd);
		n = readlink(proc, base, sizeof(base) - 1);
		if (n < 0)
			return 0;
		base[n] = 0;
		snprintf(abs, sz, "%s/%s", base, name);
	}
	/* the file's directory is DIR (not a subdirectory) */
	{
		size_t dl = strlen(dir);
		const char *slash = strrchr(abs, '/');

		return !strncmp(abs, dir, dl) && slash == abs + dl;
	}
}

static void creating(int dirfd, const char *name, int excl)
{
	const char *victim = getenv("RC_FAULT_PLANT");
	char abs[2 * PATH_MAX + 2];

	if (!watched(dirfd, name, abs, sizeof(abs)))
		return;
	if (!excl)
		log_line("nonexcl", abs);
	if (victim && planted < 3 && !symlink(victim, abs)) {
		planted++;
		log_line("planted", abs);
	}
}

static int tmpfile_refused(int flags)
{
	if ((flags & O_TMPFILE) == O_TMPFILE && getenv("RC_FAULT_NO_TMPFILE")) {
		errno = EOPNOTSUPP;
		return 1;
	}
	return 0;
}

static int writes(int flags)
{
	return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) ||
	       (flags & O_TMPFILE) == O_TMPFILE;
}

int openat(int dirfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (!real)
		real = dlsym(RTLD_NEXT, "openat");
	va_start(ap, flags);
	if (flags & O_CREAT || (flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (writes(flags)) {
		if (fault("openat"))
			return -1;
		if (tmpfile_refused(flags))
			return -1;
		if (flags & O_CREAT)
			creating(dirfd, path, flags & O_EXCL);
	}
	return real(dirfd, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (!real)
		real = dlsym(RTLD_NEXT, "open");
	va_start(ap, flags);
	if (flags & O_CREAT || (flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (writes(flags)) {
		if (fault("open"))
			return -1;
		if (tmpfile_refused(flags))
			return -1;
		if (flags & O_CREAT)
			creating(AT_FDCWD, path, flags & O_EXCL);
	}
	return real(path, flags, mode);
}

int open64(const char *path, int flags, ...)
	__attribute__((alias("open")));
int openat64(int dirfd, const char *path, int flags, ...)
	__attribute__((alias("openat")));

FILE *fopen(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);

	if (!real)
		real = dlsym(RTLD_NEXT, "fopen");
	if (strpbrk(mode, "wa+")) {
		if (fault("fopen"))
			return NULL;
		creating(AT_FDCWD, path, strchr(mode, 'x') != NULL);
	}
	return real(path, mode);
}

FILE *fopen64(const char *path, const char *mode)
	__attribute__((alias("fopen")));

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		real = dlsym(RTLD_NEXT, "write");
	/* standard output and error are not files written */
	if (fd > 2 && fault("write"))
		return -1;
	return real(fd, buf, n);
}

int fsync(int fd)
{
	static int (*real)(int);

	if (!real)
		real = dlsym(RTLD_NEXT, "fsync");
	if (fault("fsync"))
		return -1;
	return real(fd);
}

int linkat(int olddirfd, const char *old, int newdirfd, const char *new, int flags)
{
	static int (*real)(int, const char *, int, const char *, int);

	if (!real)
		real = dlsym(RTLD_NEXT, "linkat");
	if (fault("linkat"))
		return -1;
	if (getenv("RC_FAULT_NO_LINK")) {
		errno = ENOENT;
		return -1;
	}
	creating(newdirfd, new, 1);
	return real(olddirfd, old, newdirfd, new, flags);
}

int renameat(int od, const char *o, int nd, const char *n)
{
	static int (*real)(int, const char *, int, const char *);

	if (!real)
		real = dlsym(RTLD_NEXT, "renameat");
	if (fault("renameat"))
		return -1;
	return real(od, o, nd, n);
}

int rename(const char *o, const char *n)
{
	static int (*real)(const char *, const char *);

	if (!real)
		real = dlsym(RTLD_NEXT, "rename");
	if (fault("rename"))
		return -1;
	return real(o, n);
}

int unlinkat(int d, const char *p, int flags)
{
	static int (*real)(int, const char *, int);

	if (!real)
		real = dlsym(RTLD_NEXT, "unlinkat");
	if (fault("unlinkat"))
		return -1;
	return real(d, p, flags);
}

int unlink(const char *p)
{
	static int (*real)(const char *);

	if (!real)
		real = dlsym(RTLD_NEXT, "unlink");
	if (fault("unlink"))
		return -1;
	return real(p);
}
