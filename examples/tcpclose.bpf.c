// SPDX-License-Identifier: MIT
/*
 * tcpclose: when a TCP socket is closed (fentry on tcp_close), report its
 * addresses, state, user locks, lifetime counters (bytes, retransmits, RTT)
 * and a few socket flags.
 *
 * fentry programs get BTF-typed pointers, so fields are read directly
 * (sk->field, no bpf_probe_read): clang emits relocated loads, whose
 * offsets *and sizes* libbpf may adjust.
 *
 * CO-RE features used:
 *   - BPF_CORE_READ_BITFIELD on sk_userlocks, a 4-bit bitfield in 6.1 that
 *     became a plain u8 by 6.12 (the same code reads both)
 *   - fields inside anonymous unions/structs of struct sock_common
 *   - bpf_core_enum_value(enum sock_flags, ...) to test sk_flags bits
 *   - bpf_core_field_size / bpf_core_field_offset
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_endian.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

#define AF_INET 2
#define AF_INET6 10

struct close_event {
	u32 pid;
	u16 family;
	u16 sport;		/* host order */
	u16 dport;		/* host order */
	u8 state;		/* TCP state at close */
	u8 userlocks;		/* SOCK_SNDBUF_LOCK | SOCK_RCVBUF_LOCK | ... */
	u8 dead;		/* SOCK_DEAD set */
	u8 linger;		/* SOCK_LINGER set */
	u8 keepalive;		/* SOCK_KEEPOPEN set */
	u8 userlocks_size;	/* bytes the kernel's sk_userlocks spans */
	u32 saddr4;
	u32 daddr4;
	u8 saddr6[16];
	u8 daddr6[16];
	u64 bytes_received;
	u64 bytes_acked;
	u32 total_retrans;
	u32 srtt_us;		/* smoothed RTT (<<3 in the kernel) */
	u32 sk_protocol_off;	/* where sk_protocol lives in this kernel */
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

SEC("fentry/tcp_close")
int BPF_PROG(tcp_close_entry, struct sock *sk, long timeout)
{
	/* the verifier knows sk as a struct sock: reaching the tcp_sock
	 * around it takes the checked cast helper */
	struct tcp_sock *tp = bpf_skc_to_tcp_sock(sk);
	struct close_event *e;
	unsigned long flags;
	u16 family = sk->__sk_common.skc_family;

	if (family != AF_INET && family != AF_INET6)
		return 0;
	if (sk->sk_protocol != IPPROTO_TCP || !tp)
		return 0;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;

	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->family = family;
	e->sport = sk->__sk_common.skc_num;
	e->dport = bpf_ntohs(sk->__sk_common.skc_dport);
	e->state = sk->__sk_common.skc_state;
	e->userlocks = BPF_CORE_READ_BITFIELD(sk, sk_userlocks);
	e->userlocks_size = bpf_core_field_size(sk->sk_userlocks);

	flags = sk->__sk_common.skc_flags;
	e->dead = !!(flags & (1UL << bpf_core_enum_value(enum sock_flags, SOCK_DEAD)));
	e->linger = !!(flags & (1UL << bpf_core_enum_value(enum sock_flags, SOCK_LINGER)));
	e->keepalive = !!(flags & (1UL << bpf_core_enum_value(enum sock_flags, SOCK_KEEPOPEN)));

	if (family == AF_INET) {
		e->saddr4 = sk->__sk_common.skc_rcv_saddr;
		e->daddr4 = sk->__sk_common.skc_daddr;
	} else {
		BPF_CORE_READ_INTO(&e->saddr6, sk, __sk_common.skc_v6_rcv_saddr.in6_u.u6_addr8);
		BPF_CORE_READ_INTO(&e->daddr6, sk, __sk_common.skc_v6_daddr.in6_u.u6_addr8);
	}

	e->bytes_received = tp->bytes_received;
	e->bytes_acked = tp->bytes_acked;
	e->total_retrans = tp->total_retrans;
	e->srtt_us = tp->srtt_us >> 3;
	e->sk_protocol_off = bpf_core_field_offset(sk->sk_protocol);
	bpf_get_current_comm(&e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
	return 0;
}
