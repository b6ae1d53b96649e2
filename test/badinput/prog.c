// The valid object every malformed input of test/badinput/run.sh is
// derived from: a few CO-RE relocations of several kinds in one program.
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct sk {
	int a;
	long b;
	unsigned int f:3;
	const struct sk *next;
} __attribute__((preserve_access_index));

enum mode { MODE_A = 1, MODE_B = 2 };

SEC("kprobe/badinput")
int prog(struct sk *s)
{
	long r = BPF_CORE_READ(s, b);

	r += BPF_CORE_READ(s, next, a);
	r += bpf_core_field_exists(s->f);
	r += bpf_core_type_size(struct sk);
	r += bpf_core_enum_value(enum mode, MODE_B);
	return r;
}
char LICENSE[] SEC("license") = "GPL";
