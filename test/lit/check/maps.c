// relocore check: map types from the target's enum bpf_map_type; a map
// with max_entries 0 "needs" user space to size it; a legacy "maps"
// section is refused at open.  Maps are created for the whole object, so
// their problems are every program's: said once, for the object.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DSIZED -c %s -o %t.sized.o
// RUN: %clang_bpf -DLEGACY -c %s -o %t.legacy.o
// RUN: %clang_bpf -c %inputs/check/target.c -o %t.old.o
// RUN: %clang_bpf -DNEW -c %inputs/check/target.c -o %t.new.o
// RUN: %relocore check %t.o --btf %t.old.o > %t.txt; echo rc=$? >> %t.txt
// RUN: FileCheck %s < %t.txt
// RUN: %relocore check %t.o --btf %t.new.o > %t.new.txt; echo rc=$? >> %t.new.txt
// RUN: FileCheck --check-prefix=NEW %s < %t.new.txt
// RUN: grep -c "needs max_entries" %t.new.txt | FileCheck --check-prefix=ONCE %s
// ONCE: {{^}}1{{$}}
// RUN: %relocore check %t.sized.o --btf %t.new.o > %t.sized.txt; echo rc=$? >> %t.sized.txt
// RUN: FileCheck --check-prefix=SIZED %s < %t.sized.txt
// RUN: %relocore check %t.legacy.o --btf %t.new.o --json > %t.legacy.json; echo rc=$? >> %t.legacy.rc
// RUN: grep -qx rc=1 %t.legacy.rc
// RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); p=d['kernels'][0]['programs'][0]; assert not p['ok'] and [q['kind'] for q in p['problems']] == ['open'] and 'legacy' in p['problems'][0]['detail'], p; print('legacy ok')" %t.legacy.json | FileCheck --check-prefix=LEGACY %s
// LEGACY: legacy ok
#include "common.h"

#ifdef LEGACY
struct legacy_def { unsigned int type, key_size, value_size, max_entries; };
struct legacy_def old_map SEC("maps") = { 1, 4, 4, 16 };
#else
struct {
	__uint(type, 1);	/* HASH */
	__type(key, int);
	__type(value, int);
#ifdef SIZED
	__uint(max_entries, 64);
#endif
} unsized SEC(".maps");

struct {
	__uint(type, 4);	/* PERF_EVENT_ARRAY: libbpf sizes it */
	__uint(key_size, 4);
	__uint(value_size, 4);
} events SEC(".maps");

#ifndef SIZED
struct {
	__uint(type, 33);	/* only the new kernel has it */
	__uint(max_entries, 1);
} future SEC(".maps");
#endif
#endif

// CHECK: the object (every program loads with it):
// CHECK-DAG: map: map unsized: needs max_entries from user space
// CHECK-DAG: map: map future: type 33 is not in this kernel's enum bpf_map_type
// CHECK-NOT: map events
// CHECK: FAIL prog (kprobe/do_unlinkat): the object's problems
// CHECK-NEXT: FAIL prog2 (kprobe/do_rmdir): the object's problems
// CHECK: rc=1
// NEW: the object (every program loads with it):
// NEW-NEXT: map: map unsized: needs max_entries
// NEW-NEXT: FAIL prog (kprobe/do_unlinkat): the object's problems
// NEW-NEXT: FAIL prog2 (kprobe/do_rmdir): the object's problems
// NEW-NEXT: rc=1
// SIZED: ok   prog (kprobe/do_unlinkat)
// SIZED-NEXT: ok   prog2 (kprobe/do_rmdir)
// SIZED-NEXT: rc=0
SEC("kprobe/do_unlinkat") int prog(void *ctx) { return 0; }
SEC("kprobe/do_rmdir") int prog2(void *ctx) { return 0; }
char LICENSE[] SEC("license") = "GPL";
