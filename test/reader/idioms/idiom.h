/* SPDX-License-Identifier: MIT */
/*
 * idiom.h - what every idiom of the reader's corpus shares: libbpf's own
 * BPF headers and the few kernel types the idioms read, declared locally
 * with preserve_access_index as CO-RE programs written without vmlinux.h
 * do (so GCC compiles them too).  Nothing here is an idiom itself.
 */
#ifndef IDIOM_H
#define IDIOM_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#define PAI __attribute__((preserve_access_index))

struct task_struct {
	int pid;
	int tgid;
	unsigned int flags;
	struct task_struct *real_parent;
	char comm[16];
} PAI;

struct sock_common {
	unsigned short skc_family;
	unsigned short skc_num;
} PAI;

struct sock {
	struct sock_common __sk_common;
} PAI;

#ifndef IDIOM_NO_LICENSE	/* a second unit of a linked object */
char LICENSE[] SEC("license") = "GPL";
#endif

#endif
