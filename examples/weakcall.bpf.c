// SPDX-License-Identifier: MIT
/*
 * weakcall: weakguard.bpf.c without its guard.  bpf_rcu_read_lock() and
 * bpf_rcu_read_unlock() (kfuncs since 6.2) are called unconditionally; on a
 * kernel without them libbpf leaves the weak calls unresolved and the
 * verifier refuses the program where they are reached.  relocore check says
 * so offline ("a reachable call to the weak kfunc"); the VM matrix compares
 * with what each guest's load does.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

extern void bpf_rcu_read_lock(void) __ksym __weak;
extern void bpf_rcu_read_unlock(void) __ksym __weak;

u64 calls;
u16 last_port;

SEC("fentry/tcp_close")
int BPF_PROG(weakcall, struct sock *sk)
{
	/* the closing socket's local port, read with CO-RE */
	last_port = BPF_CORE_READ(sk, __sk_common.skc_num);
	bpf_rcu_read_lock();
	__sync_fetch_and_add(&calls, 1);
	bpf_rcu_read_unlock();
	return 0;
}
