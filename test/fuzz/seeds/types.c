// Fuzz seed: type relocations (local/target type id, exists, size,
// matches), flavors ("___v2") and typedefs.
#include "common.h"

struct task { int pid; struct task *parent; } PAI;
struct task___v2 { int pid; long flags; } PAI;
struct nothere { int z; } PAI;
typedef struct task task_t;
union un { int i; float f; } PAI;
typedef int (*cb_t)(struct task *t, long x);

SEC("tracepoint/types")
int types(void *ctx)
{
	long r = 0;

	r += bpf_core_type_id_local(struct task);
	r += bpf_core_type_id_kernel(struct task);
	r += bpf_core_type_exists(struct task___v2);
	r += bpf_core_type_exists(struct nothere);
	r += bpf_core_type_size(task_t);
	r += bpf_core_type_size(union un);
	r += bpf_core_type_exists(cb_t);
	return r;
}

SEC("tracepoint/flavors")
int flavors(struct task___v2 *t)
{
	return BPF_CORE_READ(t, flags) + BPF_CORE_READ(t, pid);
}
char LICENSE[] SEC("license") = "GPL";
