// BTFHub's per-kernel files (a tar holding one raw BTF file, xz-compressed)
// are a target wherever one is taken; gen min_core_btf takes bpftool's
// argument order; archive install puts an archive at the default path.
// RUN: rm -rf %t && mkdir -p %t/hub
// RUN: %clang_bpf -c %s -o %t/prog.o
// RUN: %clang_bpf -DTARGET -c %s -o %t/target.o
// RUN: llvm-objcopy --dump-section .BTF=%t/hub/5.4.0-91-generic.btf %t/target.o
// RUN: tar -cJf %t/5.4.0-91-generic.btf.tar.xz -C %t/hub 5.4.0-91-generic.btf
// RUN: %relocore explain %t/prog.o --btf %t/5.4.0-91-generic.btf.tar.xz | FileCheck --check-prefix=EXPLAIN %s
// EXPLAIN: 2 CO-RE relocation(s) against {{.*}}5.4.0-91-generic.btf.tar.xz
// EXPLAIN: s.b {{.*}}=> struct s [{{[0-9]+}}]  4 -> 16
// EXPLAIN: s.c {{.*}}=> struct s [{{[0-9]+}}]  8 -> 24
//
// The same decisions as from the raw file, the same output object:
// RUN: %relocore reloc %t/prog.o --btf %t/5.4.0-91-generic.btf.tar.xz -o %t/hub.o
// RUN: %relocore reloc %t/prog.o --btf %t/hub/5.4.0-91-generic.btf -o %t/raw.o
// RUN: cmp %t/hub.o %t/raw.o
// A plain (uncompressed) tar too:
// RUN: tar -cf %t/plain.tar -C %t/hub 5.4.0-91-generic.btf
// RUN: %relocore explain %t/prog.o --btf %t/plain.tar | FileCheck --check-prefix=PLAIN %s
// PLAIN: s.b {{.*}}=> struct s [{{[0-9]+}}]  4 -> 16
//
// gen min_core_btf INPUT OUTPUT OBJECT...: what btfgen --btf -o writes
// RUN: %relocore gen min_core_btf %t/5.4.0-91-generic.btf.tar.xz %t/gen.btf %t/prog.o 2>&1 | FileCheck --check-prefix=GEN %s
// GEN: relocore gen min_core_btf: {{.*}}gen.btf: {{[0-9]+}} of {{[0-9]+}} types kept
// RUN: %relocore btfgen --btf %t/hub/5.4.0-91-generic.btf -o %t/btfgen.btf %t/prog.o
// RUN: cmp %t/gen.btf %t/btfgen.btf
// RUN: %relocore explain %t/prog.o --btf %t/gen.btf | FileCheck --check-prefix=EXPLAIN-MIN %s
// EXPLAIN-MIN: s.b {{.*}}4 -> 16
// RUN: %relocore btfgen --btf %t/5.4.0-91-generic.btf.tar.xz -o %t/btfgen2.btf %t/prog.o
// RUN: cmp %t/gen.btf %t/btfgen2.btf
// bpftool's own min_core_btf reads what relocore wrote from the tar.xz:
// RUN: bpftool btf dump file %t/gen.btf | FileCheck --check-prefix=BPFTOOL %s
// BPFTOOL: STRUCT 's' size=32
//
// archive create takes them as inputs, archive install puts one in place
// RUN: %relocore archive create -o %t/btf.rcba 5.4.0-91-generic=%t/5.4.0-91-generic.btf.tar.xz 6.1.0-test=%t/prog.o
// RUN: %relocore archive list %t/btf.rcba | FileCheck --check-prefix=LIST %s
// LIST: 5.4.0-91-generic 6.1.0-test
// RUN: %relocore archive install %t/btf.rcba --destdir %t/root 2>&1 | FileCheck --check-prefix=INSTALL %s
// INSTALL: relocore archive install: {{.*}}btf.rcba (2 kernels) installed as {{.*}}root/usr/lib/relocore/btf.rcba
// RUN: cmp %t/btf.rcba %t/root/usr/lib/relocore/btf.rcba
// RUN: %relocore explain %t/prog.o --archive %t/root/usr/lib/relocore/btf.rcba --release 5.4.0-91-generic | FileCheck --check-prefix=EXPLAIN-AR %s
// EXPLAIN-AR: s.b {{.*}}4 -> 16
// $DESTDIR is the default --destdir; -o names the path; a second install replaces
// RUN: env DESTDIR=%t/root2 %relocore archive install %t/btf.rcba
// RUN: cmp %t/btf.rcba %t/root2/usr/lib/relocore/btf.rcba
// RUN: %relocore archive install %t/btf.rcba -o %t/elsewhere/my.rcba
// RUN: %relocore archive install %t/btf.rcba -o %t/elsewhere/my.rcba
// RUN: cmp %t/btf.rcba %t/elsewhere/my.rcba
// RUN: ls %t/elsewhere | FileCheck --check-prefix=NOTMP %s
// NOTMP-NOT: tmp
#include "common.h"

#ifndef TARGET
struct s { unsigned int a; unsigned int b; unsigned int c; } PAI;
SEC("socket") int prog(struct s *p) { return p->b + p->c; }
#else
struct s { long pad; unsigned long a; unsigned long b; unsigned long c; };
struct s t;
#endif
char LICENSE[] SEC("license") = "GPL";
