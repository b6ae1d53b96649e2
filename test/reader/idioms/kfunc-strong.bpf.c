/* A kfunc called by BTF id (a strong __ksym FUNC extern). */
#include "idiom.h"

extern struct task_struct *bpf_task_from_pid(int pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;
int found;

SEC("tp_btf/task_newtask")
int kfunc_strong(__u64 *ctx)
{
	struct task_struct *t = bpf_task_from_pid(1);

	if (t) {
		found = 1;
		bpf_task_release(t);
	}
	return 0;
}
