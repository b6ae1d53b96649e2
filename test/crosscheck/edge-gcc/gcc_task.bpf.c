/* Built with GCC (bpf-gcc -O2 -gbtf -mco-re), not clang: GCC's CO-RE
 * records (and its .BTF.ext, aligned to 1 in the file) decided against
 * real kernels' BTF by relocore and by libbpf.  Local types declare only
 * what is read, as CO-RE programs do; a ___flavor and a field no kernel
 * has (poisoned) included.  Debian's GCC 12 writes records only for some
 * of these reads (none for loads of unsigned fields or pointers; a chain
 * p->a->b gets b's record on a's load, which libbpf and relocore both
 * refuse: gcc_nested.bpf.c has one): both engines decide the records GCC
 * wrote. */
#define SEC(n) __attribute__((section(n), used))
#define PAI __attribute__((preserve_access_index))

struct list_head { struct list_head *next, *prev; } PAI;
struct task_struct {
	int pid;
	int tgid;
	struct task_struct *real_parent;
	struct list_head children;
	char comm[16];
	unsigned int flags;
} PAI;
struct task_struct___old { long state; } PAI;
struct task_struct___none { int no_such_field_anywhere; } PAI;
struct sk_buff { unsigned int len; unsigned short protocol; } PAI;

unsigned long out[16] SEC(".bss");

SEC("kprobe/gcc_task") int gcc_task(struct task_struct *t)
{
	out[0] = t->pid;
	out[1] = t->tgid;
	out[2] = (unsigned long)t->real_parent;
	out[3] = (unsigned long)t->children.next;
	out[4] = t->comm[3];
	out[5] = t->flags;
	out[6] = ((struct task_struct___old *)t)->state;
	return 0;
}

SEC("kprobe/gcc_skb") int gcc_skb(struct sk_buff *skb)
{
	out[7] = skb->len;
	out[8] = skb->protocol;
	return 0;
}

SEC("kprobe/gcc_none") int gcc_none(struct task_struct___none *t)
{
	out[9] = t->no_such_field_anywhere;
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
