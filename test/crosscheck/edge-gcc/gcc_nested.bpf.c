/* GCC 12's wrong CO-RE records for nested pointer chains (bpf-gcc -O2
 * -gbtf -mco-re, Debian's 12.2): in t->mm->total_vm the record of
 * mm_struct.total_vm is written on the instruction before the load through
 * mm, here the ldimm64 of out1's address (insn #1 holds 8, the record
 * expects total_vm's offset 16).  libbpf refuses the object ("unexpected
 * insn #1 (LDIMM64) value: got 8, exp 16"); relocore must refuse it too,
 * naming section, instruction, access and what the instruction holds
 * (run.sh checks the message), never patch the wrong instruction.  The
 * other records (t->parent->mm->map_count, t->parent->pid) are right and
 * decided alike by both. */
#define SEC(n) __attribute__((section(n), used))
#define PAI __attribute__((preserve_access_index))

struct mm_struct {
	unsigned long mmap_base;
	unsigned long task_size;
	unsigned long total_vm;
	int map_count;
} PAI;
struct task_struct {
	int pid;
	int tgid;
	struct mm_struct *mm;
	struct task_struct *real_parent;
} PAI;

unsigned long out1, out2;

SEC("kprobe/gcc_nested") int gcc_nested(struct task_struct *t)
{
	out1 = t->mm->total_vm;
	out2 = t->real_parent->mm->map_count + t->real_parent->pid;
	return 0;
}

char _license[] SEC("license") = "GPL";
