/* CO-RE relocations of every kind through libbpf's macros: field offset,
 * exists, size, signedness, bitfield lshift/rshift, type exists/size/id,
 * enum value exists/value, in a program and in a .text subprogram. */
#include "idiom.h"

enum pid_type { PIDTYPE_PID, PIDTYPE_TGID, PIDTYPE_MAX };
struct task_struct___bits { unsigned int in_iowait:1; unsigned int sched_reset_on_fork:1; } PAI;
__u64 out[12];

static __attribute__((noinline)) int sub(struct task_struct *t)
{
	return bpf_core_field_exists(t->flags);
}

SEC("kprobe/do_exit")
int core_kinds(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	struct task_struct___bits *b = (void *)t;

	out[0] = BPF_CORE_READ(t, pid);
	out[1] = bpf_core_field_size(t->comm);
	out[2] = __builtin_preserve_field_info(t->pid, BPF_FIELD_SIGNED);
	out[3] = BPF_CORE_READ_BITFIELD_PROBED(b, in_iowait);
	out[4] = bpf_core_type_exists(struct task_struct);
	out[5] = bpf_core_type_size(struct task_struct);
	out[6] = bpf_core_type_id_kernel(struct task_struct);
	out[7] = bpf_core_enum_value_exists(enum pid_type, PIDTYPE_TGID);
	out[8] = bpf_core_enum_value(enum pid_type, PIDTYPE_MAX);
	out[9] = bpf_core_type_id_local(struct task_struct);
	out[10] = sub(t);
	return 0;
}
