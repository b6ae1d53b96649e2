/* A weak kfunc guarded by its address (libbpf 1.2's bpf_ksym_exists). */
#include "idiom.h"

extern void bpf_rcu_read_lock(void) __ksym __weak;
extern void bpf_rcu_read_unlock(void) __ksym __weak;
int locked;

SEC("fentry/tcp_close")
int kfunc_weak(__u64 *ctx)
{
	if (bpf_rcu_read_lock) {
		bpf_rcu_read_lock();
		locked++;
		bpf_rcu_read_unlock();
	}
	return 0;
}
