/* The "target kernel" of the plugin's lit tests: the same types as
 * vmlinux.h, laid out differently (fields moved, widened, bitfields placed
 * elsewhere, members nested in anonymous unions). */
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;
typedef struct { int counter; } atomic_t;
typedef struct { u32 val; } kuid_t;
struct pt_regs { unsigned long r15, r14, di, si, dx, ax; };
struct cred { long pad; atomic_t usage; kuid_t gid; kuid_t uid; };
struct mm_struct {
	atomic_t mm_users;
	long pad[3];
	struct {
		unsigned long start_code, end_code;
		unsigned long arg_start, arg_end;
	};
};
struct list_head { struct list_head *next, *prev; };
struct sched_info { u64 last; u64 stats[8]; u32 pad; u32 grid[2][3]; };
struct task_struct {
	long pad0;
	unsigned int __state;
	s32 tgid;
	union { s32 pid; s32 pid_alias; };
	int prio_delta:6;
	unsigned int in_iowait:1;
	unsigned int in_execve:1;
	struct sched_info sched;
	struct task_struct *real_parent;
	struct mm_struct *mm;
	const struct cred *real_cred;
	char comm[16];
	u64 start_time;
	struct { u32 lo, hi; } start_words;
	long pad1;
	struct list_head tasks;
};
struct task_struct t;
struct pt_regs r;
struct mm_struct m;
struct cred c;
struct sched_info s;
