// SPDX-License-Identifier: MIT
/*
 * weakguard: kfuncs used only where the kernel has them.
 * bpf_rcu_read_lock() and bpf_rcu_read_unlock() are kfuncs since 6.2.
 * Declared __weak, libbpf resolves their addresses to 0 on a kernel without
 * them, so a branch on the address (`if (!kfunc)`, libbpf 1.2's
 * bpf_ksym_exists) is decided when the object loads and the verifier drops
 * the guarded calls as dead code: the program loads on 5.10 and 6.1 too.
 * weakcall.bpf.c is its unguarded twin, refused where they are missing.
 * relocore check decides both offline (a weak kfunc's address is a known 0
 * where the target BTF lacks it); the VM matrix compares with the guests.
 *
 * CO-RE features used: weak kfunc externs (.ksyms), their addresses as
 * load-time constants; a BPF_CORE_READ of the socket (fentry's typed
 * context).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

extern void bpf_rcu_read_lock(void) __ksym __weak;
extern void bpf_rcu_read_unlock(void) __ksym __weak;

u64 calls, locked;
u16 last_port;

SEC("fentry/tcp_close")
int BPF_PROG(weakguard, struct sock *sk)
{
	/* the closing socket's local port, read with CO-RE */
	last_port = BPF_CORE_READ(sk, __sk_common.skc_num);
	__sync_fetch_and_add(&calls, 1);
	if (!bpf_rcu_read_lock || !bpf_rcu_read_unlock)
		return 0;
	bpf_rcu_read_lock();
	__sync_fetch_and_add(&locked, 1);
	bpf_rcu_read_unlock();
	return 0;
}
