// Fuzz seed: field relocations through structs, unions, anonymous members,
// arrays, nested pointers and bitfields (byte_off, byte_sz, field_exists,
// signed, lshift_u64, rshift_u64).
#include "common.h"

struct inner { int a; unsigned long long b; char name[16]; } PAI;
struct bits { unsigned int lo:4; int mid:7; unsigned int hi:21; long long wide:40; } PAI;
struct outer {
	int x;
	union { short s; unsigned int u; };
	struct { char c; long l; } anon;
	struct inner in[3];
	struct inner *next;
	struct bits bf;
	int missing_in_target;
	char tail[];
} PAI;

SEC("kprobe/fields")
int fields(struct outer *o)
{
	long r = 0;

	r += BPF_CORE_READ(o, x);
	r += BPF_CORE_READ(o, u);
	r += BPF_CORE_READ(o, anon.l);
	r += BPF_CORE_READ(o, in[2].b);
	r += BPF_CORE_READ(o, next, a);
	r += BPF_CORE_READ(o, next, name[3]);
	r += BPF_CORE_READ_BITFIELD_PROBED(&o->bf, mid);
	r += BPF_CORE_READ_BITFIELD_PROBED(&o->bf, wide);
	r += BPF_CORE_READ_BITFIELD_PROBED(&o->bf, hi);
	r += bpf_core_field_exists(o->missing_in_target);
	r += bpf_core_field_size(o->in[1].name);
	r += bpf_core_field_offset(o->tail);
	r += __builtin_preserve_field_info(o->bf.lo, BPF_FIELD_SIGNED);
	return r;
}
char LICENSE[] SEC("license") = "GPL";
