// SPDX-License-Identifier: MIT
/*
 * enum64: enumerator values that do not fit in 31 bits, of an enum that is
 * 64-bit (BTF_KIND_ENUM64) in 6.1 and a 32-bit unsigned ENUM in 6.12.
 *
 * clang 14 predates ENUM64: it describes the local enum as a plain ENUM of
 * size 8 whose 32-bit values are truncated (IFF_CHANGE_PROTO_DOWN, 1 << 32,
 * becomes 0; IFF_TX_SKB_NO_LINEAR, 1 << 31, reads back as -2^31), while the
 * ld_imm64 instruction holds the full value.  libbpf 1.1 computes the
 * expected value from the local BTF, sign-extended, finds that the
 * instruction disagrees and refuses the relocation (-EINVAL) on every
 * target; relocore must refuse it too.  Kept apart from edge.bpf.c because
 * one refused relocation makes the whole object unloadable.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

u64 vals[2];

SEC("kprobe/dev_change_flags")
int enum64_values(void *ctx)
{
	vals[0] = bpf_core_enum_value(enum netdev_priv_flags, IFF_TX_SKB_NO_LINEAR);
	vals[1] = bpf_core_enum_value(enum netdev_priv_flags, IFF_CHANGE_PROTO_DOWN);
	return 0;
}
