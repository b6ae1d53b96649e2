// SPDX-License-Identifier: MIT
/*
 * bpfls: what the running kernel holds of BPF, the way `bpftool prog show`,
 * `bpftool link show` and a walk of /sys/fs/bpf would say it (the guests
 * have no bpftool).  Run INSIDE the QEMU guest only (test/vm/guest-tests.sh:
 * after `relocore run` is killed, nothing of it may stay loaded, attached
 * or pinned).  One line per object, sorted by the caller:
 *   prog TYPE NAME
 *   link TYPE PROG_NAME
 *   map TYPE NAME
 *   pin PATH
 * Ids are left out (they differ from run to run).  Exit 1 when the kernel
 * refuses to enumerate (no bpf() or not root).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static void walk(const char *dir)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	char p[4096];
	struct stat st;

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, d->d_name);
		if (lstat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			walk(p);
		else
			printf("pin %s\n", p);
	}
	closedir(dp);
}

static const char *prog_name_of(__u32 id, char *buf, size_t sz)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id);

	snprintf(buf, sz, "?");
	if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
		snprintf(buf, sz, "%s", info.name);
	if (fd >= 0)
		close(fd);
	return buf;
}

int main(void)
{
	__u32 id = 0;
	int err, fd, n = 0;
	char name[64];

	while (!(err = bpf_prog_get_next_id(id, &id))) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;	/* freed meanwhile */
		if (!bpf_obj_get_info_by_fd(fd, &info, &len)) {
			const char *t = libbpf_bpf_prog_type_str(info.type);

			printf("prog %s %s\n", t ? t : "?", info.name);
			n++;
		}
		close(fd);
	}
	if (errno != ENOENT) {
		perror("bpfls: BPF_PROG_GET_NEXT_ID");
		return 1;
	}
	for (id = 0; !bpf_link_get_next_id(id, &id);) {
		struct bpf_link_info info = {};
		__u32 len = sizeof(info);

		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len)) {
			const char *t = libbpf_bpf_link_type_str(info.type);

			printf("link %s %s\n", t ? t : "?",
			       prog_name_of(info.prog_id, name, sizeof(name)));
		}
		close(fd);
	}
	for (id = 0; !bpf_map_get_next_id(id, &id);) {
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);

		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len)) {
			const char *t = libbpf_bpf_map_type_str(info.type);

			printf("map %s %s\n", t ? t : "?", info.name);
		}
		close(fd);
	}
	walk("/sys/fs/bpf");
	return 0;
}
