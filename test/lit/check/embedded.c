// relocore check takes a binary that embeds BPF objects (a skeleton's
// tool): the same answer as for the object itself; --object picks one of
// several, and a binary with several and no --object is bad input (2).
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_bpf -c %s -o %t.d/one.bpf.o
// RUN: %clang_bpf -DSECOND -c %s -o %t.d/two.bpf.o
// RUN: %clang_bpf -c %inputs/check/target.c -o %t.old.o
// RUN: cd %t.d && ld -r -b binary one.bpf.o -o one.blob.o
// RUN: cc -Wl,-z,noexecstack %inputs/embed/host.c %t.d/one.blob.o -o %t.d/tool
// RUN: %relocore check %t.d/one.bpf.o --btf %t.old.o --json | sed 's/^{"object":"[^"]*"//' > %t.d/plain.json
// RUN: %relocore check %t.d/tool --btf %t.old.o --json | sed 's/^{"object":"[^"]*"//' | diff %t.d/plain.json -
// RUN: %relocore check %t.d/tool --btf %t.old.o | FileCheck --check-prefix=ONE %s
// ONE: tool(one_bpf) on
// ONE: ok   prog (kprobe/do_unlinkat)
// RUN: cc -c -DOBJ1='"%t.d/one.bpf.o"' -DOBJ2='"%t.d/two.bpf.o"' %inputs/embed/two.S -o %t.d/two.o
// RUN: cc -Wl,-z,noexecstack %inputs/embed/host2.c %t.d/two.o -o %t.d/tool2
// RUN: %relocore check %t.d/tool2 --btf %t.old.o 2> %t.d/several.err; echo rc=$? >> %t.d/several.err
// RUN: FileCheck --check-prefix=SEVERAL %s < %t.d/several.err
// SEVERAL: relocore check: {{.*}}tool2
// SEVERAL: rc=2
// RUN: %relocore check %t.d/tool2 --object 1 --btf %t.old.o > %t.d/second.txt; echo rc=$? >> %t.d/second.txt
// RUN: FileCheck --check-prefix=SECOND %s < %t.d/second.txt
// SECOND: FAIL prog (fentry/no_such_function)
// SECOND: rc=1
// Several objects against one target: one JSON document per object, per
// line; exit 1 as one of them fails.
// RUN: %relocore check %t.d/one.bpf.o %t.d/two.bpf.o --btf %t.old.o --json > %t.d/multi.jsonl; echo rc=$? > %t.d/multi.rc
// RUN: grep -qx rc=1 %t.d/multi.rc
// RUN: python3 -c "import json,sys; L=[json.loads(l) for l in open(sys.argv[1])]; assert [d['object'].split('/')[-1] for d in L] == ['one.bpf.o','two.bpf.o'], L; assert [d['kernels'][0]['programs'][0]['ok'] for d in L] == [True, False], L; print('multi ok')" %t.d/multi.jsonl | FileCheck --check-prefix=MULTI %s
// MULTI: multi ok
#include "common.h"

#ifndef SECOND
SEC("kprobe/do_unlinkat") int prog(void *ctx) { return 0; }
#else
SEC("fentry/no_such_function") int prog(void *ctx) { return 0; }
#endif
char LICENSE[] SEC("license") = "GPL";
