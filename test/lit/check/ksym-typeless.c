// A typeless __ksym (`extern void sym __ksym;`, libbpf's form for the
// address of a kernel variable without a type): clang emits a BTF VAR of
// type void (id 0) in .ksyms.  libbpf 1.1 opens such an object (it retypes
// .ksyms VARs itself), and so must every command here: the reader accepts
// a VAR of type void when its linkage is extern, and still refuses one that
// is not (test/unit: engine_test "var-void").  check says what it cannot
// decide (a strong typeless ksym's address comes from kallsyms at load, not
// from the BTF); a weak one libbpf resolves to 0 where the kernel lacks it,
// so it cannot fail the load and is not named.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: %clang_bpf -DNEW -c %inputs/check/target.c -o %t.new.o
// RUN: bpftool btf dump file %t.o | FileCheck --check-prefix=SEC %s
// SEC-DAG: VAR 'bpf_prog_active' type_id=0, linkage=extern
// SEC-DAG: VAR 'nosuch_sym' type_id=0, linkage=extern
// SEC-DAG: DATASEC '.ksyms'
// RUN: %relocore check %t.o --btf %t.new.o > %t.txt 2>&1; echo rc=$? >> %t.txt
// RUN: FileCheck %s < %t.txt
// CHECK-NOT: refers to void
// CHECK: untyped __ksym externs (first: bpf_prog_active): not in the target BTF (their addresses come from kallsyms at load): not checked
// CHECK: rc=0
// The externs as libbpf collects them, each with what the target's BTF
// says of it: nothing, for a typeless one the BTF has no VAR or FUNC of.
// RUN: %relocore check %t.o --btf %t.new.o --json | FileCheck --check-prefix=JSON %s
// JSON-DAG: {"name":"bpf_prog_active","kind":"ksym_untyped","weak":false,"in_target":null}
// JSON-DAG: {"name":"nosuch_sym","kind":"ksym_untyped","weak":true,"in_target":null}
// JSON-DAG: "not_decided":["untyped __ksym externs
// The target's BTF has a VAR bpf_prog_active: libbpf takes its address
// from kallsyms, which lists variables only with CONFIG_KALLSYMS_ALL (off
// in Debian's arm64 6.1): with the config check decides, without it it says
// it cannot.  A weak typeless ksym never fails the load.
// RUN: %clang_bpf -DNEW -DPROG_ACTIVE -c %inputs/check/target.c -o %t.var.o
// RUN: %relocore check %t.o --btf %t.var.o > %t.var.txt 2>&1; echo rc=$? >> %t.var.txt
// RUN: FileCheck --check-prefix=VAR %s < %t.var.txt
// VAR: untyped __ksym externs (first: bpf_prog_active): variables, in kallsyms only with CONFIG_KALLSYMS_ALL (give --kconfig): not checked
// VAR: rc=0
// RUN: printf 'CONFIG_KALLSYMS=y\nCONFIG_KALLSYMS_ALL=y\n' > %t.all.config
// RUN: %relocore check %t.o --btf %t.var.o --kconfig %t.all.config --json | FileCheck --check-prefix=ALL %s
// ALL: "ok":true
// ALL-SAME: {"name":"bpf_prog_active","kind":"ksym_untyped","weak":false,"in_target":true}
// ALL-SAME: "not_decided":[]
// RUN: printf 'CONFIG_KALLSYMS=y\n# CONFIG_KALLSYMS_ALL is not set\n' > %t.none.config
// RUN: not %relocore check %t.o --btf %t.var.o --kconfig %t.none.config > %t.none.txt 2>&1
// RUN: FileCheck --check-prefix=NONE %s < %t.none.txt
// NONE: untyped __ksym 'bpf_prog_active' is a variable, and the target's kallsyms lists none (its config has no CONFIG_KALLSYMS_ALL): libbpf refuses to load the object
// RUN: not %relocore check %t.o --btf %t.var.o --kconfig %t.none.config --json | FileCheck --check-prefix=NONEJ %s
// NONEJ: {"name":"bpf_prog_active","kind":"ksym_untyped","weak":false,"in_target":false}
// RUN: %relocore explain %t.o --btf %t.new.o > %t.ex.txt 2>&1; echo rc=$? >> %t.ex.txt
// RUN: FileCheck --check-prefix=EXPLAIN %s < %t.ex.txt
// EXPLAIN-NOT: refers to void
// EXPLAIN: rc=0
// RUN: %relocore reloc %t.o --btf %t.new.o -o %t.out.o > %t.re.txt 2>&1; echo rc=$? >> %t.re.txt
// RUN: FileCheck --check-prefix=RELOC %s < %t.re.txt
// RELOC: rc=0
// RUN: bpftool btf dump file %t.out.o | FileCheck --check-prefix=SEC %s
#include "common.h"

extern void bpf_prog_active __attribute__((section(".ksyms")));
extern void nosuch_sym __attribute__((section(".ksyms"), weak));

SEC("kprobe/do_unlinkat") int typeless(void *ctx)
{
	if (&nosuch_sym)
		return 2;
	return (int)(long)&bpf_prog_active;
}
char LICENSE[] SEC("license") = "GPL";
