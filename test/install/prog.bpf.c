// SPDX-License-Identifier: MIT
/* prog.bpf.c: one CO-RE field read (-DTARGET: the target's layout). */
#define SEC(n) __attribute__((section(n), used))
#define PAI __attribute__((preserve_access_index))
#ifndef TARGET
struct s { unsigned int a; unsigned int b; } PAI;
SEC("socket") int prog(struct s *p) { return p->b; }
#else
struct s { long pad; unsigned long a; unsigned long b; };
struct s t;
#endif
char LICENSE[] SEC("license") = "GPL";
