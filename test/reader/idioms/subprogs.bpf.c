/* Static and global subprograms (.text), a CO-RE read inside one, and a
 * callback passed to bpf_loop. */
#include "idiom.h"

__u64 sub_out;

static __attribute__((noinline)) int pid_of(struct task_struct *t)
{
	return BPF_CORE_READ(t, real_parent, tgid);
}

__attribute__((noinline)) int global_sub(int x)
{
	return x * 2 + 1;
}

static int loop_cb(__u32 i, void *data)
{
	*(__u64 *)data += i;
	return 0;
}

SEC("kprobe/do_exit")
int subprogs(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	__u64 sum = 0;

	bpf_loop(4, loop_cb, &sum, 0);
	sub_out = pid_of(t) + global_sub(sum);
	return 0;
}
