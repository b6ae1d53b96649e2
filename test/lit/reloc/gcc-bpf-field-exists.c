// GCC 12 (Debian 12's bpf-gcc) has no __builtin_preserve_field_info: a
// program's bpf_core_field_exists() compiles, with only a warning, to a call
// of an undefined function of that name, and GCC still writes a byte_off
// record for the field - on the instruction that loads the builtin's
// second argument (the constant 2), not on a field access.  relocore must
// not patch that constant as an offset: it refuses the record, naming the
// section, the instruction, the access and what the instruction holds, and
// writes nothing; relocore check fails the program for it and for the
// undefined function, an extern libbpf cannot resolve: libbpf refuses such
// an object already when it opens it.  The same program built with clang relocates.
// RUN: bpf-gcc -O2 -gbtf -mco-re -c %s -o %t.gcc.o 2>%t.gcc.err
// RUN: FileCheck --check-prefix=WARN %s < %t.gcc.err
// WARN: implicit declaration of function {{.*}}__builtin_preserve_field_info
// RUN: llvm-objdump -dr %t.gcc.o | FileCheck --check-prefix=CALL %s
// CALL: call -1
// CALL-NEXT: R_BPF_64_32 __builtin_preserve_field_info
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
// RUN: not %relocore explain %t.gcc.o --btf %t.target.o | FileCheck %s
// CHECK: 2 CO-RE relocation(s)
// CHECK-DAG: kprobe/fe {{ *}}#{{[0-9]+}} {{ *}}byte_off {{ *}}task_struct.tgid {{ *}}REFUSED: insn #{{[0-9]+}} has imm 2, relocation expects 4
// CHECK-DAG: kprobe/fe {{ *}}#{{[0-9]+}} {{ *}}byte_off {{ *}}task_struct.tgid {{ *}}=> struct task_struct [{{[0-9]+}}]  4 -> 16
// RUN: rm -f %t.out.o
// RUN: not %relocore reloc %t.gcc.o --btf %t.target.o -o %t.out.o 2>&1 | FileCheck --check-prefix=ERR %s
// ERR: relocore: {{.*}}.gcc.o: 1 relocation(s) refused, nothing applied; first: section kprobe/fe insn #{{[0-9]+}} byte_off task_struct.tgid: insn #{{[0-9]+}} has imm 2, relocation expects 4
// RUN: not test -e %t.out.o
// RUN: not %relocore check %t.gcc.o --btf %t.target.o 2>&1 | FileCheck --check-prefix=CHECKCMD %s
// CHECKCMD: the object (every program loads with it):
// CHECKCMD-NEXT: open: extern '__builtin_preserve_field_info': its BTF FUNC [{{[0-9]+}}] is not of extern linkage: libbpf refuses to open the object
// CHECKCMD-NEXT: FAIL fe (kprobe/fe)
// CHECKCMD-NEXT: relocation: section kprobe/fe insn #{{[0-9]+}} byte_off task_struct.tgid: insn #{{[0-9]+}} has imm 2, relocation expects 4 (refused: libbpf refuses the whole object)
// libbpf (bpftool opens the object, loads nothing) refuses it for the extern
// RUN: not bpftool gen skeleton %t.gcc.o 2>&1 >/dev/null | FileCheck --check-prefix=LIBBPF %s
// LIBBPF: failed to find BTF for extern '__builtin_preserve_field_info'
// clang's build of the same program: one field-exists record, one offset
// RUN: %clang_bpf -c %s -o %t.clang.o
// RUN: %relocore explain %t.clang.o --btf %t.target.o | FileCheck --check-prefix=CLANG %s
// CLANG-DAG: field_exists {{ *}}task_struct.tgid {{.*}}1 -> 1
// CLANG-DAG: byte_off {{ *}}task_struct.tgid {{.*}}4 -> 16
#define SEC(n) __attribute__((section(n), used))
#ifndef TARGET
struct task_struct { int pid; int tgid; } __attribute__((preserve_access_index));
/* as libbpf's bpf_core_read.h defines it (BPF_FIELD_EXISTS is 2) */
#define bpf_core_field_exists(f) __builtin_preserve_field_info(f, 2)
SEC("kprobe/fe") int fe(struct task_struct *t)
{
	if (bpf_core_field_exists(t->tgid))
		return t->tgid;
	return 0;
}
#else
struct task_struct { long state; long pad; int tgid; int pid; };
struct task_struct t;
#endif
char LICENSE[] SEC("license") = "GPL";
