/* Kernel types for pass/opaque.c (a vmlinux.h stand-in: the file name
 * contains "vmlinux.h"): accesses that opaque pointers (LLVM 16, 19) make
 * without a cast or without any GEP: union members, bitfield storage at
 * offset 0, unions and such structs reached through pointer variables. */
#ifndef OPAQUE_VMLINUX_H
#define OPAQUE_VMLINUX_H
#ifdef ANNOTATED
#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
#endif
typedef unsigned int u32;
typedef unsigned long long u64;
struct inner { unsigned int f0:3, f1:5; u32 y; };
union un { u64 w; struct { u32 lo, hi; } p; u32 s; };
struct k {
	unsigned int a:3, b:5;
	int x;
	union un u;
	struct inner in;
	union un *up;
};
#ifdef ANNOTATED
#pragma clang attribute pop
#endif
#endif
