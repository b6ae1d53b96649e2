/* Kernel types in a header NOT named vmlinux.h (pass/kernel-types.c). */
#ifndef PASS_KERNEL_TYPES_H
#define PASS_KERNEL_TYPES_H
#ifdef ANNOTATED
#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
#endif
typedef unsigned char u8;
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;
typedef struct { int counter; } atomic_t;
typedef struct { u32 val; } kuid_t;
struct pt_regs { unsigned long di, si, dx, ax; };
struct cred { atomic_t usage; kuid_t uid; kuid_t gid; };
struct mm_struct {
	struct {
		unsigned long start_code, end_code;
		unsigned long arg_start, arg_end;
	};
	atomic_t mm_users;
};
struct sched_info { u64 stats[4]; u64 last; };
struct task_struct {
	unsigned int __state;
	unsigned int in_execve:1;
	unsigned int in_iowait:1;
	int prio_delta:5;
	s32 pid;
	s32 tgid;
	struct task_struct *real_parent;
	const struct cred *real_cred;
	struct mm_struct *mm;
	union {
		u64 start_time;
		struct { u32 lo, hi; } start_words;
	};
	struct sched_info sched;
	char comm[16];
};
#ifdef ANNOTATED
#pragma clang attribute pop
#endif
#endif
