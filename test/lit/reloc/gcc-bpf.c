// Objects built by GCC (bpf-gcc -O2 -gbtf -mco-re): GCC writes .BTF and
// .BTF.ext with alignment 1, so .BTF.ext may start at any file offset.
// What must be 4-byte aligned is the data inside it, not the offset of
// the section: relocore reads such an object as libbpf does, and decides
// its relocations as it decides clang's.
// RUN: bpf-gcc -O2 -gbtf -mco-re -c %s -o %t.gcc.o
// RUN: %clang_bpf -c %s -o %t.clang.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
// RUN: llvm-readelf -S %t.gcc.o | FileCheck --check-prefix=SECTIONS %s
// SECTIONS: .BTF.ext PROGBITS {{0+}} {{[0-9a-f]+}} {{[0-9a-f]+}} 00 0 0 1
// where .BTF.ext lands depends on what precedes it (the source path is in
// .BTF): a copy with it moved to an offset that is not a multiple of 4 must
// be read the same way, by relocore and by libbpf (bpftool)
// RUN: python3 %tools/btf-ext-misalign.py %t.gcc.o %t.gcc1.o | FileCheck --check-prefix=UNALIGNED %s
// UNALIGNED: ext offset mod 4 = 1
// RUN: %relocore explain %t.gcc1.o --btf %t.target.o | FileCheck %s
// RUN: bpftool -d gen min_core_btf %t.target.o %t.min.btf %t.gcc1.o 2>&1 | FileCheck --check-prefix=LIBBPF %s
// LIBBPF-DAG: relo #0: matching candidate #0 <byte_off> [{{[0-9]+}}] struct s.b (0:2 @ offset 16)
// LIBBPF-DAG: relo #1: matching candidate #0 <byte_off> [{{[0-9]+}}] struct s.in.y (0:0:0 @ offset 0)
// RUN: %relocore explain %t.gcc.o --btf %t.target.o | FileCheck %s
// RUN: %relocore explain %t.clang.o --btf %t.target.o | FileCheck %s
// CHECK: 2 CO-RE relocation(s)
// CHECK-DAG: kprobe/one {{.*}} byte_off {{ *}}s.b {{.*}}=> struct s [{{[0-9]+}}]  4 -> 16
// CHECK-DAG: kprobe/one {{.*}} byte_off {{ *}}s.in.y {{.*}}=> struct s [{{[0-9]+}}]  12 -> 0
// RUN: %relocore reloc %t.gcc.o --btf %t.target.o -o %t.gcc.out.o
// RUN: llvm-objdump -d %t.gcc.out.o | FileCheck --check-prefix=AFTER %s
// AFTER-DAG: = *(u64 *)(r1 + 16)
// AFTER-DAG: = *(u32 *)(r1 + 0)
// the relocated object has no CO-RE left and is still readable
// RUN: %relocore explain %t.gcc.out.o --btf %t.target.o | FileCheck --check-prefix=NORELO %s
// NORELO: 0 CO-RE relocation(s)
#define SEC(n) __attribute__((section(n), used))
#ifndef TARGET
struct inner { int x; int y; } __attribute__((preserve_access_index));
struct s { unsigned int a; unsigned int b; struct inner in; } __attribute__((preserve_access_index));
SEC("kprobe/one") int one_unaligned(struct s *p) { return p->b + p->in.y; }
#else
struct inner { int y; int x; };
struct s { struct inner in; unsigned long a; unsigned long b; };
struct s t;
#endif
char LICENSE[] SEC("license") = "GPL";
