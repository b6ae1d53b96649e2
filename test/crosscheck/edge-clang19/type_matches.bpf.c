// SPDX-License-Identifier: MIT
/*
 * TYPE_MATCHES (bpf_core_type_matches, CO-RE relocation kind 12) from a
 * real compiler: clang 14 cannot emit it, clang 16 and 19 can; this file is
 * built with clang-19 by test/crosscheck/run.sh and its decisions compared
 * with libbpf's on every kernel of the matrix.  Local types mirror kernel
 * types that changed across 5.10 .. 7.2, so the answers differ by kernel.
 */
#define SEC(n) __attribute__((section(n), used))
#define __type_matches(t) __builtin_preserve_type_info(*(t *)0, 2)	/* BPF_TYPE_MATCHES */

typedef int pid_t;
typedef unsigned int u32;
typedef unsigned long long u64;

/* task_struct's run state: `state` before 5.14, `__state` after */
struct task_struct___old { volatile long state; pid_t pid; };
struct task_struct___new { unsigned int __state; pid_t pid; pid_t tgid; };
/* a member of the wrong type: never matches */
struct task_struct___bad { u64 pid; };
/* struct trace_entry: 12 bytes with PREEMPT_RT's extra bytes on 5.10 */
struct trace_entry___min { unsigned short type; unsigned char flags; unsigned char preempt_count; int pid; };
struct trace_entry___rt { unsigned short type; unsigned char flags; unsigned char preempt_count; int pid;
			  unsigned char preempt_lazy_count; unsigned char migrate_disable; };
/* enums: values by name, a missing one fails the match */
enum pid_type___ok { PIDTYPE_PID___ok, PIDTYPE_TGID___ok, PIDTYPE_PGID___ok, PIDTYPE_SID___ok };
enum pid_type___bad { PIDTYPE_NOSUCH___bad };
/* skb drop reasons: the enum exists from 5.17 */
enum skb_drop_reason___any { SKB_DROP_REASON_NOT_SPECIFIED___any = 1 };
/* a typedef of a struct, and a function prototype's shape through a pointer */
typedef struct sk_buff___shape { unsigned int len; } sk_buff_t___shape;
struct file_operations___fn { long (*read)(void *, char *, unsigned long, long long *); };

SEC("kprobe/do_nanosleep")
int type_matches(void *ctx)
{
	int n = 0;

	n |= __type_matches(struct task_struct___old) << 0;
	n |= __type_matches(struct task_struct___new) << 1;
	n |= __type_matches(struct task_struct___bad) << 2;
	n |= __type_matches(struct trace_entry___min) << 3;
	n |= __type_matches(struct trace_entry___rt) << 4;
	n |= __type_matches(enum pid_type___ok) << 5;
	n |= __type_matches(enum pid_type___bad) << 6;
	n |= __type_matches(enum skb_drop_reason___any) << 7;
	n |= __type_matches(sk_buff_t___shape) << 8;
	n |= __type_matches(struct file_operations___fn) << 9;
	return n;
}

char LICENSE[] SEC("license") = "GPL";
