// Objects inside binaries: a tool that embeds its BPF object (ld -r -b
// binary, an .incbin) is taken wherever an object is; extract writes the
// objects out, byte for byte; several need --object; a truncated one or
// none is an error that names the file and offset, and nothing is written.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_bpf -c %s -o %t.d/one.bpf.o
// RUN: %clang_bpf -DSECOND -c %s -o %t.d/two.bpf.o
// RUN: %clang_bpf -DTARGET -c %s -o %t.target.o
//
// ld -r -b binary: the symbol _binary_one_bpf_o_start names it one_bpf
// RUN: cd %t.d && ld -r -b binary one.bpf.o -o one.blob.o
// RUN: cc -Wl,-z,noexecstack %inputs/embed/host.c %t.d/one.blob.o -o %t.d/tool
// RUN: %relocore extract --list %t.d/tool | FileCheck --check-prefix=LIST1 %s
// LIST1: 0 one_bpf offset 0x{{[0-9a-f]+}} size {{[0-9]+}} name from symbol
// LIST1-NOT: 1 {{.*}}
// RUN: %relocore explain %t.d/tool --btf %t.target.o | FileCheck --check-prefix=EXPLAIN %s
// EXPLAIN: tool(one_bpf): 1 CO-RE relocation(s)
// EXPLAIN: kprobe/one {{.*}} byte_off {{ *}}s.b {{.*}}=> struct s [{{[0-9]+}}]  4 -> 16
// the binary decides as its object does, and reloc writes the same bytes
// RUN: %relocore explain %t.d/one.bpf.o --btf %t.target.o --json | sed 's/^{"object":"[^"]*"//' > %t.d/plain.json
// RUN: %relocore explain %t.d/tool --btf %t.target.o --json | sed 's/^{"object":"[^"]*"//' | diff %t.d/plain.json -
// RUN: %relocore reloc %t.d/one.bpf.o --btf %t.target.o -o %t.d/r-plain.o
// RUN: %relocore reloc %t.d/tool --btf %t.target.o -o %t.d/r-tool.o
// RUN: cmp %t.d/r-plain.o %t.d/r-tool.o
// RUN: %relocore btfgen --btf %t.target.o -o %t.d/min-plain.btf %t.d/one.bpf.o
// RUN: %relocore btfgen --btf %t.target.o -o %t.d/min-tool.btf %t.d/tool
// RUN: cmp %t.d/min-plain.btf %t.d/min-tool.btf
// RUN: %relocore extract %t.d/tool -o %t.d/out
// RUN: cmp %t.d/out/one_bpf.o %t.d/one.bpf.o
//
// stripped (as Debian ships tools): the name comes from the source file
// RUN: strip -o %t.d/tool.stripped %t.d/tool
// RUN: %relocore extract --list --json %t.d/tool.stripped | FileCheck --check-prefix=STRIPPED %s
// STRIPPED: {"file":"{{.*}}tool.stripped","objects":[{"index":0,"name":"embedded","name_from":"source","offset":{{[0-9]+}},"size":{{[0-9]+}},"output":null}]}
//
// two objects (.incbin under labels, a stray ELF magic between them)
// RUN: cc -c -DOBJ1='"%t.d/one.bpf.o"' -DOBJ2='"%t.d/two.bpf.o"' %inputs/embed/two.S -o %t.d/two.o
// RUN: cc -Wl,-z,noexecstack %inputs/embed/host2.c %t.d/two.o -o %t.d/tool2
// RUN: not %relocore explain %t.d/tool2 --btf %t.target.o 2>&1 | FileCheck --check-prefix=SEVERAL %s
// SEVERAL: relocore: {{.*}}tool2 embeds 2 BPF objects, choose one with --object N|NAME: 0 first_obj (offset 0x{{[0-9a-f]+}}, {{[0-9]+}} bytes); 1 second_obj (offset
// RUN: %relocore explain %t.d/tool2 --object 1 --btf %t.target.o | FileCheck --check-prefix=SECOND %s
// RUN: %relocore explain %t.d/tool2 --object second_obj --btf %t.target.o | FileCheck --check-prefix=SECOND %s
// SECOND: tool2(second_obj): 1 CO-RE relocation(s)
// SECOND: kprobe/two {{.*}} byte_off {{ *}}s.a {{.*}}=> struct s [{{[0-9]+}}]  0 -> 8
// RUN: %relocore explain %t.d/tool2 --object 0 --btf %t.target.o | FileCheck --check-prefix=EXPLAIN0 %s
// EXPLAIN0: tool2(first_obj): 1 CO-RE relocation(s)
// RUN: not %relocore explain %t.d/tool2 --object nosuch --btf %t.target.o 2>&1 | FileCheck --check-prefix=NOSUCH %s
// RUN: not %relocore extract %t.d/tool2 --object 7 -o %t.d/none7 2>&1 | FileCheck --check-prefix=NOSUCH %s
// NOSUCH: no embedded BPF object '{{nosuch|7}}'; it embeds 2: 0 first_obj {{.*}}; 1 second_obj
// RUN: test ! -e %t.d/none7
// btfgen takes every object a binary embeds
// RUN: %relocore btfgen --btf %t.target.o -o %t.d/min-two.btf %t.d/one.bpf.o %t.d/two.bpf.o
// RUN: %relocore btfgen --btf %t.target.o -o %t.d/min-tool2.btf %t.d/tool2
// RUN: cmp %t.d/min-two.btf %t.d/min-tool2.btf
// RUN: not cmp -s %t.d/min-two.btf %t.d/min-plain.btf
// the relocatable (ET_REL) that carries them names them too
// RUN: %relocore extract %t.d/two.o -o %t.d/out2 --json | FileCheck --check-prefix=JSON2 %s
// JSON2: "objects":[{"index":0,"name":"first_obj","name_from":"symbol",{{.*}}"output":"{{.*}}out2/first_obj.o"},{"index":1,"name":"second_obj",
// RUN: cmp %t.d/out2/first_obj.o %t.d/one.bpf.o
// RUN: cmp %t.d/out2/second_obj.o %t.d/two.bpf.o
// RUN: %relocore extract %t.d/tool2 --object second_obj -o %t.d/out3
// RUN: cmp %t.d/out3/second_obj.o %t.d/two.bpf.o
// RUN: test ! -e %t.d/out3/first_obj.o
//
// truncated: 100 bytes of host, then the object without its last 100
// bytes: nothing written, file and offset named
// RUN: python3 -c "import sys; d=open(sys.argv[1],'rb').read(); open(sys.argv[2],'wb').write(b'H'*100 + d[:-100])" %t.d/one.bpf.o %t.d/trunc
// RUN: not %relocore extract %t.d/trunc -o %t.d/tout 2>&1 | FileCheck --check-prefix=TRUNC %s
// RUN: not %relocore explain %t.d/trunc --btf %t.target.o 2>&1 | FileCheck --check-prefix=TRUNC %s
// TRUNC: relocore: {{.*}}trunc: embedded BPF object at offset 0x64 truncated: its section header table (offset 0x{{[0-9a-f]+}}, {{[0-9]+}} entries) ends at 0x{{[0-9a-f]+}}
// RUN: test ! -e %t.d/tout
//
// none: a binary without a BPF object
// RUN: echo 'int main(void) { return 0; }' > %t.d/none.c
// RUN: cc %t.d/none.c -o %t.d/none
// RUN: not %relocore extract %t.d/none -o %t.d/nout 2>&1 | FileCheck --check-prefix=NONE %s
// NONE: relocore: {{.*}}none: no BPF ELF object embedded in it (no ELF header with e_machine 247
// RUN: not %relocore explain %t.d/none --btf %t.target.o 2>&1 | FileCheck --check-prefix=NONE2 %s
// NONE2: relocore: {{.*}}none: an ELF file for machine 62, not a BPF object, with no BPF ELF object embedded in it
// RUN: test ! -e %t.d/nout
#include "common.h"

#ifndef TARGET
struct s { unsigned int a; unsigned int b; } PAI;
#ifndef SECOND
SEC("kprobe/one") int one(struct s *p) { return p->b; }
#else
SEC("kprobe/two") int two(struct s *p) { return p->a; }
#endif
#else
struct s { long pad; unsigned long a; unsigned long b; };
struct s t;
#endif
char LICENSE[] SEC("license") = "GPL";
