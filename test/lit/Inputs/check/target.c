/*
 * A hand-made target kernel for the check tests: the enums and functions
 * relocore check reads from a kernel's BTF.  -DNEW: a newer kernel
 * (task_struct.newfield, helper #200, map type 33).
 */
#define SEC(n) __attribute__((section(n), used))

struct task_struct {
	int pid;
#ifdef NEW
	int newfield;
#endif
};
struct task_struct task;

enum bpf_func_id {
	BPF_FUNC_unspec = 0,
	BPF_FUNC_map_lookup_elem = 1,
	BPF_FUNC_get_prandom_u32 = 7,
	BPF_FUNC_get_current_task = 35,
	BPF_FUNC_probe_read_kernel = 113,
	BPF_FUNC_loop = 181,
#ifdef NEW
	BPF_FUNC_future = 200,
#endif
	__BPF_FUNC_MAX_ID,
};
enum bpf_func_id func_ids;

enum bpf_map_type {
	BPF_MAP_TYPE_UNSPEC = 0,
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PERF_EVENT_ARRAY = 4,
#ifdef NEW
	BPF_MAP_TYPE_FUTURE = 33,
#endif
};
enum bpf_map_type map_types;

enum bpf_prog_type {
	BPF_PROG_TYPE_UNSPEC,
	BPF_PROG_TYPE_SOCKET_FILTER,
	BPF_PROG_TYPE_KPROBE,
	BPF_PROG_TYPE_TRACEPOINT,
	BPF_PROG_TYPE_RAW_TRACEPOINT,
	BPF_PROG_TYPE_TRACING,
	BPF_PROG_TYPE_PERF_EVENT,
#ifdef NEW
	BPF_PROG_TYPE_LSM,
#endif
};
enum bpf_prog_type prog_types;

enum bpf_attach_type {
	BPF_TRACE_RAW_TP,
	BPF_TRACE_FENTRY,
	BPF_TRACE_FEXIT,
#ifdef NEW
	BPF_LSM_MAC,
#endif
};
enum bpf_attach_type attach_types;

/* tracepoints: sched/sched_switch (event struct and raw tp typedef) */
struct trace_event_raw_sched_switch { int prev_pid; };
struct trace_event_raw_sched_switch ev;
typedef void (*btf_trace_sched_switch)(void *, int);
btf_trace_sched_switch tp_sched_switch;

/* kernel functions */
SEC("text") int do_unlinkat(int dfd) { return dfd; }
SEC("text") int vfs_read(int fd) { return fd; }
SEC("text") int do_rmdir(int dfd) { return dfd; }
SEC("text") int __x64_sys_openat(int fd) { return fd; }
SEC("text") int __x64_sys_bpf(int fd) { return fd; }
/* SYSCALL_DEFINE0(getpid): BTF has __do_sys_getpid, not the wrapper */
SEC("text") int __do_sys_getpid(int fd) { return fd; }
SEC("text") int bpf_lsm_file_open(int f) { return f; }

#ifdef PROG_ACTIVE
/* a kernel variable (a per-CPU int in vmlinux): a BTF VAR of its name */
int bpf_prog_active;
#endif
