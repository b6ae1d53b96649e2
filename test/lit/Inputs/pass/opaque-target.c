/* The "target kernel" of pass/opaque.c: opaque-vmlinux.h's types laid out
 * differently (members moved, union members reordered, bitfields moved). */
typedef unsigned int u32;
typedef unsigned long long u64;
struct inner { u64 pad; u32 y; unsigned int f1:5, f0:3; };
union un { u32 s; struct { u32 pad, lo, hi; } p; u64 w; };
struct k {
	long pad0;
	union un *up;
	int x;
	unsigned int b:6, a:4;
	struct inner in;
	long pad1;
	union un u;
};
struct k k;
union un u;
