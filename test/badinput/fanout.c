// Absurd nesting that is valid C: 30 levels of types that each hold two
// of the next (struct members, function prototype parameters).  Comparing
// such types naively takes 2^30 steps; relocore must give up, not hang.
// Compiled twice by run.sh: the object, and with -DTARGET its target.
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct s30 { int x; };
typedef int (*f30)(int);
struct s29 { struct s30 a, b; };
typedef int (*f29)(f30 a, f30 b);
struct s28 { struct s29 a, b; };
typedef int (*f28)(f29 a, f29 b);
struct s27 { struct s28 a, b; };
typedef int (*f27)(f28 a, f28 b);
struct s26 { struct s27 a, b; };
typedef int (*f26)(f27 a, f27 b);
struct s25 { struct s26 a, b; };
typedef int (*f25)(f26 a, f26 b);
struct s24 { struct s25 a, b; };
typedef int (*f24)(f25 a, f25 b);
struct s23 { struct s24 a, b; };
typedef int (*f23)(f24 a, f24 b);
struct s22 { struct s23 a, b; };
typedef int (*f22)(f23 a, f23 b);
struct s21 { struct s22 a, b; };
typedef int (*f21)(f22 a, f22 b);
struct s20 { struct s21 a, b; };
typedef int (*f20)(f21 a, f21 b);
struct s19 { struct s20 a, b; };
typedef int (*f19)(f20 a, f20 b);
struct s18 { struct s19 a, b; };
typedef int (*f18)(f19 a, f19 b);
struct s17 { struct s18 a, b; };
typedef int (*f17)(f18 a, f18 b);
struct s16 { struct s17 a, b; };
typedef int (*f16)(f17 a, f17 b);
struct s15 { struct s16 a, b; };
typedef int (*f15)(f16 a, f16 b);
struct s14 { struct s15 a, b; };
typedef int (*f14)(f15 a, f15 b);
struct s13 { struct s14 a, b; };
typedef int (*f13)(f14 a, f14 b);
struct s12 { struct s13 a, b; };
typedef int (*f12)(f13 a, f13 b);
struct s11 { struct s12 a, b; };
typedef int (*f11)(f12 a, f12 b);
struct s10 { struct s11 a, b; };
typedef int (*f10)(f11 a, f11 b);
struct s9 { struct s10 a, b; };
typedef int (*f9)(f10 a, f10 b);
struct s8 { struct s9 a, b; };
typedef int (*f8)(f9 a, f9 b);
struct s7 { struct s8 a, b; };
typedef int (*f7)(f8 a, f8 b);
struct s6 { struct s7 a, b; };
typedef int (*f6)(f7 a, f7 b);
struct s5 { struct s6 a, b; };
typedef int (*f5)(f6 a, f6 b);
struct s4 { struct s5 a, b; };
typedef int (*f4)(f5 a, f5 b);
struct s3 { struct s4 a, b; };
typedef int (*f3)(f4 a, f4 b);
struct s2 { struct s3 a, b; };
typedef int (*f2)(f3 a, f3 b);
struct s1 { struct s2 a, b; };
typedef int (*f1)(f2 a, f2 b);
struct s0 { struct s1 a, b; };
typedef int (*f0)(f1 a, f1 b);

#ifndef TARGET
SEC("kprobe/fanout")
int fanout(void *ctx)
{
	/* TYPE_EXISTS of f0: the prototypes' parameters are compared */
	return bpf_core_type_exists(f0);
}
char LICENSE[] SEC("license") = "GPL";
#else
struct s0 g_s0;
f0 g_f0;
#endif
