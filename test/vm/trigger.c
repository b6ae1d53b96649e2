// SPDX-License-Identifier: MIT
/*
 * trigger: the ground-truth side of the VM tests.  Runs inside the guest,
 * statically linked, under `relocore run OBJ -- /bin/trigger MODE OUT`.
 * Each MODE makes the kernel do what one example traces and writes to OUT
 * (one JSON object per line) what is true about it, taken from the kernel
 * by other means than BPF: getpid()/gettid()/getppid(), /proc/<pid>/stat,
 * TCP_INFO, getsockname(), the kernel's own BTF parsed here from scratch.
 *
 *   btf FILE            the guest kernel's BTF: ids, sizes, member offsets,
 *                       which fields exist, enum values (stdout)
 *   sysinfo             uname, PREEMPT_RT, CLK_TCK (stdout)
 *   getpid OUT          getpid() from the main thread and from a second
 *                       thread (pid != tgid there)
 *   exec OUT            fork + exec of "/bin/trigger exit-child", which
 *                       exits with code 7
 *   iowait OUT DEV      O_DIRECT reads of block device DEV (blocks in
 *                       TASK_UNINTERRUPTIBLE with in_iowait set)
 *   tcp OUT             a TCP connection over loopback, closed from both
 *                       ends, plus its listener; TCP_INFO right before close
 *   drop OUT N          N UDP datagrams to a closed loopback port (dropped,
 *                       reason NO_SOCKET)
 *   taskexit OUT        fork a child that names itself "trg-taskwatch"
 *                       (PR_SET_NAME) and exits; then exit too.  Both exits
 *                       are whole-process exits (do_exit of the last
 *                       thread); the truth of each: /proc/self/stat (pid,
 *                       ppid, start ticks, arg_start), getuid(), the exit
 *                       signal (SIGCHLD: both were fork()ed) and
 *                       LINUX_KERNEL_VERSION of uname -r, computed as libbpf
 *                       does
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static FILE *out;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "trigger: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, ": %s\n", strerror(errno));
	va_end(ap);
	exit(99);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static long gettid_(void)
{
	return syscall(SYS_gettid);
}

/* ---- /proc/<pid>/task/<tid>/stat -------------------------------------- */

struct task_truth {
	long pid, tgid, ppid;
	char comm[64];
	char state;
	long long start_ticks;	/* field 22: clock ticks since boot */
	long priority;		/* field 18: prio - MAX_RT_PRIO (100) */
	long nice;		/* field 19 */
	long policy;		/* field 41 */
	unsigned long long arg_start;	/* field 48 (own process: always shown) */
};

static void read_task(long tgid, long tid, struct task_truth *t)
{
	char path[128], buf[1024], *p, *tok, *save = NULL;
	int fd, n, field;

	memset(t, 0, sizeof(*t));
	t->pid = tid;
	t->tgid = tgid;
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/stat", tgid, tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open %s", path);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		die("read %s", path);
	buf[n] = 0;
	p = strchr(buf, '(');
	tok = strrchr(buf, ')');
	if (!p || !tok)
		die("parse %s", path);
	snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(tok - p - 1), p + 1);
	/* fields from 3 on, space separated after ") " */
	for (field = 3, p = strtok_r(tok + 2, " ", &save); p;
	     p = strtok_r(NULL, " ", &save), field++) {
		switch (field) {
		case 3: t->state = p[0]; break;
		case 4: t->ppid = atol(p); break;
		case 18: t->priority = atol(p); break;
		case 19: t->nice = atol(p); break;
		case 22: t->start_ticks = atoll(p); break;
		case 41: t->policy = atol(p); break;
		case 48: t->arg_start = strtoull(p, NULL, 10); break;
		}
	}
}

static void print_task(const char *what, const struct task_truth *t, const char *extra)
{
	fprintf(out, "{\"truth\":\"%s\",\"pid\":%ld,\"tgid\":%ld,\"ppid\":%ld,\"comm\":",
		what, t->pid, t->tgid, t->ppid);
	json_str(out, t->comm);
	fprintf(out, ",\"state\":\"%c\",\"start_ticks\":%lld,\"clk_tck\":%ld,"
		"\"prio\":%ld,\"nice\":%ld,\"policy\":%ld%s}\n",
		t->state, t->start_ticks, sysconf(_SC_CLK_TCK), t->priority + 100,
		t->nice, t->policy, extra ? extra : "");
	fflush(out);
}

/* ---- BTF, parsed from scratch (independent of relocore and libbpf) ---- */

enum {
	K_INT = 1, K_PTR, K_ARRAY, K_STRUCT, K_UNION, K_ENUM, K_FWD, K_TYPEDEF,
	K_VOLATILE, K_CONST, K_RESTRICT, K_FUNC, K_FUNC_PROTO, K_VAR, K_DATASEC,
	K_FLOAT, K_DECL_TAG, K_TYPE_TAG, K_ENUM64,
};

struct bt {
	uint32_t name_off, info, size_type;
};

static struct {
	unsigned char *data;
	const char *strs;
	uint32_t str_len;
	const struct bt **types;	/* by id, [0] unused */
	uint32_t n;
} B;

static unsigned kind(const struct bt *t) { return (t->info >> 24) & 0x1f; }
static unsigned vlen(const struct bt *t) { return t->info & 0xffff; }
static bool kflag(const struct bt *t) { return t->info >> 31; }
static const char *bname(uint32_t off) { return off < B.str_len ? B.strs + off : ""; }

static void btf_load(const char *path)
{
	struct stat st;
	size_t got = 0, cap = 1 << 20;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, pos, cnt = 0, capn = 1024;
	int fd = open(path, O_RDONLY);
	ssize_t r;

	if (fd < 0)
		die("open %s", path);
	if (!fstat(fd, &st) && st.st_size > 0)
		cap = st.st_size + 1;
	B.data = malloc(cap);
	/* sysfs files report size 0 or the real one: read until EOF */
	while ((r = read(fd, B.data + got, cap - got)) > 0) {
		got += r;
		if (got == cap)
			B.data = realloc(B.data, cap *= 2);
	}
	close(fd);
	if (got < 24 || *(uint16_t *)B.data != 0xeb9f)
		die("%s: not raw BTF", path);
	memcpy(&hdr_len, B.data + 4, 4);
	memcpy(&type_off, B.data + 8, 4);
	memcpy(&type_len, B.data + 12, 4);
	memcpy(&str_off, B.data + 16, 4);
	memcpy(&str_len, B.data + 20, 4);
	B.strs = (const char *)B.data + hdr_len + str_off;
	B.str_len = str_len;
	B.types = malloc(capn * sizeof(*B.types));
	B.types[cnt++] = NULL;
	for (pos = 0; pos < type_len;) {
		const struct bt *t = (const void *)(B.data + hdr_len + type_off + pos);
		size_t extra = 0;

		switch (kind(t)) {
		case K_INT: case K_VAR: case K_DECL_TAG: extra = 4; break;
		case K_ARRAY: extra = 12; break;
		case K_STRUCT: case K_UNION: case K_DATASEC: extra = 12 * vlen(t); break;
		case K_ENUM: case K_FUNC_PROTO: extra = 8 * vlen(t); break;
		case K_ENUM64: extra = 12 * vlen(t); break;
		default: break;
		}
		if (cnt == capn)
			B.types = realloc(B.types, (capn *= 2) * sizeof(*B.types));
		B.types[cnt++] = t;
		pos += sizeof(*t) + extra;
	}
	B.n = cnt;
}

/* First type of @k (STRUCT/UNION/ENUM/ENUM64) named @name, 0 if none. */
static uint32_t btf_find(unsigned k, const char *name)
{
	uint32_t i;

	for (i = 1; i < B.n; i++) {
		unsigned tk = kind(B.types[i]);

		if ((tk == k || (k == K_ENUM && tk == K_ENUM64)) &&
		    !strcmp(bname(B.types[i]->name_off), name))
			return i;
	}
	return 0;
}

static uint32_t btf_skip_mods(uint32_t id)
{
	while (id && id < B.n) {
		unsigned k = kind(B.types[id]);

		if (k != K_TYPEDEF && k != K_VOLATILE && k != K_CONST && k != K_RESTRICT &&
		    k != K_TYPE_TAG)
			break;
		id = B.types[id]->size_type;
	}
	return id;
}

/* Member @name of struct/union @id, looking through anonymous members.
 * Sets *bit_off (from the start of @id), *bits (bitfield size or 0) and
 * *type.  Returns 1 if found. */
static int btf_member(uint32_t id, const char *name, uint32_t *bit_off, uint32_t *bits,
		      uint32_t *type)
{
	const struct bt *t = B.types[id];
	const uint32_t *m = (const uint32_t *)(t + 1);
	unsigned i;

	for (i = 0; i < vlen(t); i++, m += 3) {
		uint32_t off = kflag(t) ? m[2] & 0xffffff : m[2];
		uint32_t sz = kflag(t) ? m[2] >> 24 : 0;
		const char *mn = bname(m[0]);

		if (!*mn) {
			uint32_t sub = btf_skip_mods(m[1]);
			unsigned sk = sub ? kind(B.types[sub]) : 0;

			if ((sk == K_STRUCT || sk == K_UNION) &&
			    btf_member(sub, name, bit_off, bits, type)) {
				*bit_off += off;
				return 1;
			}
			continue;
		}
		if (!strcmp(mn, name)) {
			*bit_off = off;
			*bits = sz;
			*type = m[1];
			return 1;
		}
	}
	return 0;
}

static uint32_t btf_size(uint32_t id)
{
	id = btf_skip_mods(id);
	if (!id)
		return 0;
	switch (kind(B.types[id])) {
	case K_INT: case K_STRUCT: case K_UNION: case K_ENUM: case K_ENUM64: case K_FLOAT:
		return B.types[id]->size_type;
	case K_PTR:
		return 8;
	case K_ARRAY: {
		const uint32_t *a = (const uint32_t *)(B.types[id] + 1);	/* type, index, nelems */

		return btf_size(a[0]) * a[2];
	}
	}
	return 0;
}

static void print_fields(const char *sname, const char *const *fields)
{
	uint32_t id = btf_find(K_STRUCT, sname);
	int i;

	fprintf(out, "\"%s\":{\"id\":%u,\"size\":%u,\"fields\":{", sname, id,
		id ? B.types[id]->size_type : 0);
	for (i = 0; fields[i]; i++) {
		uint32_t off, bits, type;

		fprintf(out, "%s\"%s\":", i ? "," : "", fields[i]);
		if (id && btf_member(id, fields[i], &off, &bits, &type))
			fprintf(out, "{\"bit_off\":%u,\"bits\":%u,\"size\":%u}", off, bits,
				btf_size(type));
		else
			fputs("null", out);
	}
	fputs("}}", out);
}

static void print_enum(const char *ename, const char *const *vals)
{
	uint32_t id = btf_find(K_ENUM, ename);
	const struct bt *t = id ? B.types[id] : NULL;
	int i;

	fprintf(out, "\"%s\":{\"id\":%u,\"size\":%u,\"values\":{", ename, id, t ? t->size_type : 0);
	for (i = 0; vals[i]; i++) {
		long long v = 0;
		int found = 0;
		unsigned k;

		for (k = 0; t && k < vlen(t) && !found; k++) {
			const uint32_t *e = (const uint32_t *)(t + 1) +
					    k * (kind(t) == K_ENUM64 ? 3 : 2);

			if (strcmp(bname(e[0]), vals[i]))
				continue;
			found = 1;
			v = kind(t) == K_ENUM64 ? ((long long)e[2] << 32 | e[1]) : (int32_t)e[1];
		}
		fprintf(out, "%s\"%s\":", i ? "," : "", vals[i]);
		if (found)
			fprintf(out, "%lld", v);
		else
			fputs("null", out);
	}
	fputs("}}", out);
}

static int cmd_btf(const char *path)
{
	static const char *const task[] = {
		"pid", "tgid", "real_parent", "group_leader", "comm", "start_boottime",
		"real_start_time", "start_time", "__state", "state", "saved_state",
		"sched_rt_mutex", "softirq_disable_cnt", "in_user_fault",
		"numa_preferred_nid", "in_iowait", "sched_contributes_to_load",
		"prio", "policy", "real_cred", "mm", "signal", "exit_signal", "in_execve",
		NULL };
	static const char *const sock[] = { "sk_protocol", "sk_userlocks", "__sk_common", NULL };
	static const char *const skc[] = { "skc_family", "skc_num", "skc_dport", "skc_state",
					   "skc_flags", "skc_daddr", "skc_rcv_saddr", NULL };
	static const char *const tcp[] = { "bytes_received", "bytes_acked", "total_retrans",
					   "srtt_us", NULL };
	static const char *const kfree[] = { "rx_sk", "reason", "protocol", "location", NULL };
	static const char *const mm[] = { "rss_stat", "arg_start", NULL };
	static const char *const drop[] = { "SKB_DROP_REASON_NO_SOCKET", "SKB_DROP_REASON_TCP_CSUM",
					    "SKB_DROP_REASON_QUEUE_PURGE", "SKB_DROP_REASON_MAX", NULL };
	static const char *const sflags[] = { "SOCK_DEAD", "SOCK_LINGER", "SOCK_KEEPOPEN", NULL };
	static const char *const none[] = { NULL };

	btf_load(path);
	fprintf(out, "{\"btf\":\"%s\",\"types\":%u,", path, B.n - 1);
	print_fields("task_struct", task); fputc(',', out);
	print_fields("sock", sock); fputc(',', out);
	print_fields("sock_common", skc); fputc(',', out);
	print_fields("tcp_sock", tcp); fputc(',', out);
	print_fields("trace_event_raw_kfree_skb", kfree); fputc(',', out);
	print_fields("mm_struct", mm); fputc(',', out);
	print_fields("mm_rss_stat", none); fputc(',', out);
	print_enum("skb_drop_reason", drop); fputc(',', out);
	print_enum("skb_drop_reason_subsys", none); fputc(',', out);
	print_enum("sock_flags", sflags);
	fputs("}\n", out);
	return 0;
}

/* ---- sysinfo ---------------------------------------------------------- */

static int cmd_sysinfo(void)
{
	struct utsname u;
	struct stat st;

	uname(&u);
	fprintf(out, "{\"truth\":\"sys\",\"release\":");
	json_str(out, u.release);
	fprintf(out, ",\"machine\":");
	json_str(out, u.machine);
	fprintf(out, ",\"version\":");
	json_str(out, u.version);
	fprintf(out, ",\"preempt_rt\":%s,\"config_gz\":%s,\"clk_tck\":%ld,\"ncpu\":%ld}\n",
		strstr(u.version, "PREEMPT_RT") ? "true" : "false",
		stat("/proc/config.gz", &st) ? "false" : "true",
		sysconf(_SC_CLK_TCK), sysconf(_SC_NPROCESSORS_ONLN));
	return 0;
}

/* ---- getpid ------------------------------------------------------------- */

#define GETPID_CALLS 5

static void *getpid_thread(void *arg)
{
	struct task_truth t;
	long i, r = 0;

	(void)arg;
	for (i = 0; i < GETPID_CALLS; i++)
		r = syscall(SYS_getpid);
	read_task(getpid(), gettid_(), &t);
	print_task("getpid-thread", &t, NULL);
	return (void *)r;
}

static int cmd_getpid(void)
{
	struct task_truth t;
	pthread_t th;
	long i;

	for (i = 0; i < GETPID_CALLS; i++)
		syscall(SYS_getpid);
	read_task(getpid(), gettid_(), &t);
	t.ppid = getppid();
	print_task("getpid-main", &t, NULL);
	if (pthread_create(&th, NULL, getpid_thread, NULL))
		die("pthread_create");
	pthread_join(th, NULL);
	return 0;
}

/* ---- exec / exit ----------------------------------------------------------- */

#define CHILD_ARGV0 "trg-exec-argv0"
#define CHILD_CODE 7

static int cmd_exit_child(void)
{
	struct task_truth t;
	char extra[128];

	read_task(getpid(), gettid_(), &t);
	snprintf(extra, sizeof(extra), ",\"mono_ns\":%llu,\"exit_code\":%d,\"uid\":%d",
		 (unsigned long long)mono_ns(), CHILD_CODE, (int)getuid());
	print_task("exec-child", &t, extra);
	fclose(out);
	exit(CHILD_CODE);
}

static int cmd_exec(const char *path)
{
	struct task_truth t;
	char extra[160];
	int status = 0;
	pid_t c;

	read_task(getpid(), gettid_(), &t);
	print_task("exec-parent", &t, NULL);
	fflush(out);
	c = fork();
	if (c < 0)
		die("fork");
	if (c == 0) {
		/* the strings in memory the child has touched: a fork shares
		 * the binary's .rodata without copying its page tables, and a
		 * BPF program reading argv at execve (bpf_probe_read_user, no
		 * page faults) would find them absent */
		char *argv[] = { strdup(CHILD_ARGV0), strdup("exit-child"), strdup(path), NULL };

		execv("/bin/trigger", argv);
		_exit(127);
	}
	waitpid(c, &status, 0);
	snprintf(extra, sizeof(extra),
		 ",\"child\":%d,\"child_status\":%d,\"filename\":\"/bin/trigger\",\"argv0\":\"%s\"",
		 (int)c, status, CHILD_ARGV0);
	print_task("exec-result", &t, extra);
	return 0;
}

/* ---- iowait ---------------------------------------------------------------- */

static long vol_switches(void)
{
	char buf[4096], *p;
	int fd = open("/proc/self/status", O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	p = strstr(buf, "\nvoluntary_ctxt_switches:");
	return p ? atol(p + 26) : -1;
}

/* Read DEV with O_DIRECT until this task has slept (voluntary context
 * switches) at least 8 times: each such sleep is a wait for the disk. */
static int cmd_iowait(const char *dev)
{
	struct task_truth t;
	void *buf;
	int fd, i, ok = 0;
	long v0 = vol_switches(), v = v0;
	char extra[96];

	fd = open(dev, O_RDONLY | O_DIRECT);
	if (fd < 0)
		die("open %s O_DIRECT", dev);
	if (posix_memalign(&buf, 4096, 65536))
		die("posix_memalign");
	for (i = 0; i < 4000 && v - v0 < 8; i++) {
		if (pread(fd, buf, 65536, (off_t)((i * 7919) % 1000) * 65536) == 65536)
			ok++;
		v = vol_switches();
	}
	close(fd);
	read_task(getpid(), gettid_(), &t);
	snprintf(extra, sizeof(extra), ",\"reads\":%d,\"voluntary_switches\":%ld", ok, v - v0);
	print_task("iowait", &t, extra);
	return 0;
}

/* ---- tcp ------------------------------------------------------------------- */

static void tcp_truth(const char *role, int fd, int linger, int keepalive, int userlocks)
{
	struct sockaddr_in a, b;
	socklen_t al = sizeof(a), bl = sizeof(b), il;
	struct tcp_info ti;

	memset(&ti, 0, sizeof(ti));
	il = sizeof(ti);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &il))
		die("TCP_INFO");
	getsockname(fd, (struct sockaddr *)&a, &al);
	memset(&b, 0, sizeof(b));
	if (getpeername(fd, (struct sockaddr *)&b, &bl))
		b.sin_port = 0, b.sin_addr.s_addr = 0;
	fprintf(out, "{\"truth\":\"tcp\",\"role\":\"%s\",\"pid\":%d,\"family\":%d,"
		"\"sport\":%u,\"dport\":%u,\"saddr4\":%u,\"daddr4\":%u,\"state\":%u,"
		"\"bytes_received\":%llu,\"bytes_acked\":%llu,\"total_retrans\":%u,"
		"\"srtt_us\":%u,\"linger\":%d,\"keepalive\":%d,\"userlocks\":%d,\"dead\":0}\n",
		role, getpid(), AF_INET, ntohs(a.sin_port), ntohs(b.sin_port),
		a.sin_addr.s_addr, b.sin_addr.s_addr, ti.tcpi_state,
		(unsigned long long)ti.tcpi_bytes_received, (unsigned long long)ti.tcpi_bytes_acked,
		ti.tcpi_total_retrans, ti.tcpi_rtt, linger, keepalive, userlocks);
	fflush(out);
}

static void xfer(int from, int to, size_t n)
{
	char buf[4096];
	size_t got = 0;

	memset(buf, 'x', sizeof(buf));
	if (write(from, buf, n) != (ssize_t)n)
		die("write");
	while (got < n) {
		ssize_t r = read(to, buf, sizeof(buf));

		if (r <= 0)
			die("read");
		got += r;
	}
}

static int cmd_tcp(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	struct linger lg = { 1, 2 };
	int one = 1, sz = 65536, l, c, s;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 4) ||
	    getsockname(l, (struct sockaddr *)&a, &al))
		die("listen");
	c = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(c, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	setsockopt(c, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	setsockopt(c, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (connect(c, (struct sockaddr *)&a, sizeof(a)))
		die("connect");
	s = accept(l, NULL, NULL);
	if (s < 0)
		die("accept");
	setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	xfer(c, s, 1000);
	xfer(s, c, 2000);
	xfer(c, s, 300);
	usleep(100000);		/* let the last ACKs land */
	/* sk_userlocks: the listener is bound to an address (SOCK_BINDADDR_LOCK
	 * = 4), the accepted socket is cloned from it; the client set both
	 * buffer sizes (SOCK_SNDBUF_LOCK | SOCK_RCVBUF_LOCK = 3) and autobinds */
	tcp_truth("server", s, 1, 0, 4);
	close(s);
	usleep(100000);		/* the FIN reaches the client */
	tcp_truth("client", c, 0, 1, 3);
	close(c);
	usleep(20000);
	tcp_truth("listener", l, 0, 0, 4);
	close(l);
	return 0;
}

/* ---- drop ------------------------------------------------------------------ */

static int cmd_drop(int n)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(9) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), i, sent = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (i = 0; i < n; i++) {
		if (sendto(fd, "drop", 4, 0, (struct sockaddr *)&a, sizeof(a)) == 4)
			sent++;
		usleep(2000);
	}
	close(fd);
	fprintf(out, "{\"truth\":\"drop\",\"pid\":%d,\"sent\":%d,\"port\":9,\"protocol\":%d}\n",
		getpid(), sent, 0x0800);
	return 0;
}

/* ---- taskexit --------------------------------------------------------------- */

#define TASKEXIT_COMM "trg-taskwatch"

/* LINUX_KERNEL_VERSION as libbpf computes it (get_kernel_version()): Ubuntu's
 * /proc/version_signature if there is one, else uname -r "a.b.c...";
 * a<<16 | b<<8 | min(c, 255); 0 when the release does not parse. */
static unsigned kernel_version(void)
{
	unsigned a = 0, b = 0, c = 0;
	struct utsname u;
	FILE *f = fopen("/proc/version_signature", "r");

	if (f) {
		int n = fscanf(f, "%*s %*s %u.%u.%u", &a, &b, &c);

		fclose(f);
		if (n == 3)
			return a << 16 | b << 8 | (c > 255 ? 255 : c);
	}
	uname(&u);
	if (sscanf(u.release, "%u.%u.%u", &a, &b, &c) != 3)
		return 0;
	return a << 16 | b << 8 | (c > 255 ? 255 : c);
}

static void taskexit_truth(const char *what, const char *more)
{
	struct task_truth t;
	char extra[320];

	read_task(getpid(), gettid_(), &t);
	snprintf(extra, sizeof(extra),
		 ",\"uid\":%d,\"arg_start\":%llu,\"exit_signal\":%d,\"kver\":%u,"
		 "\"in_execve\":0,\"in_iowait\":0%s",
		 (int)getuid(), t.arg_start, SIGCHLD, kernel_version(), more);
	print_task(what, &t, extra);
}

static int cmd_taskexit(void)
{
	char more[96];
	int status = 0;
	pid_t c;

	fflush(out);
	c = fork();
	if (c < 0)
		die("fork");
	if (c == 0) {
		if (prctl(PR_SET_NAME, TASKEXIT_COMM, 0, 0, 0))
			die("PR_SET_NAME");
		taskexit_truth("taskexit-child", "");
		fclose(out);
		_exit(0);
	}
	waitpid(c, &status, 0);
	snprintf(more, sizeof(more), ",\"child\":%d,\"child_status\":%d", (int)c, status);
	taskexit_truth("taskexit-self", more);
	return 0;
}

/* ---- open ------------------------------------------------------------------ */

#define OPEN_PATH "/tmp/trg-open-probe"
#define OPEN_FLAGS (O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC)

/* open(2) a file with known flags (opensnoop's ground truth), by openat */
static int cmd_open(void)
{
	struct task_truth t;
	char extra[256];
	int fd;

	read_task(getpid(), gettid_(), &t);
	fd = openat(AT_FDCWD, OPEN_PATH, OPEN_FLAGS, 0640);
	if (fd < 0)
		die("open %s", OPEN_PATH);
	close(fd);
	unlink(OPEN_PATH);
	snprintf(extra, sizeof(extra), ",\"path\":\"%s\",\"flags\":%d,\"fd\":%d,\"uid\":%d",
		 OPEN_PATH, OPEN_FLAGS, fd, (int)getuid());
	print_task("open", &t, extra);
	return 0;
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "a");

	if (!f)
		die("open %s", path);
	return f;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	out = stdout;
	if (!strcmp(mode, "btf") && argc == 3)
		return cmd_btf(argv[2]);
	if (!strcmp(mode, "sysinfo"))
		return cmd_sysinfo();
	if (argc < 3) {
		fprintf(stderr, "usage: trigger btf FILE | sysinfo | "
			"getpid|exec|iowait DEV|tcp|drop N|taskexit|open OUT\n");
		return 2;
	}
	out = open_out(argv[2]);
	if (!strcmp(mode, "getpid"))
		return cmd_getpid();
	if (!strcmp(mode, "exec"))
		return cmd_exec(argv[2]);
	if (!strcmp(mode, "exit-child"))
		return cmd_exit_child();
	if (!strcmp(mode, "iowait") && argc == 4)
		return cmd_iowait(argv[3]);
	if (!strcmp(mode, "tcp"))
		return cmd_tcp();
	if (!strcmp(mode, "drop") && argc == 4)
		return cmd_drop(atoi(argv[3]));
	if (!strcmp(mode, "taskexit"))
		return cmd_taskexit();
	if (!strcmp(mode, "open"))
		return cmd_open();
	fprintf(stderr, "trigger: unknown mode '%s'\n", mode);
	return 2;
}
