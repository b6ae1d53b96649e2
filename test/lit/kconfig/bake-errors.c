// Baking refuses what libbpf would refuse at load time, names the object,
// the extern and the reason, and writes nothing.
// RUN: %clang_bpf -c %s -o %t.o
// RUN: rm -f %t.out.o
// RUN: not %relocore reloc %t.o --btf %t.o --kernel-release 6.1.0 -o %t.out.o 2>&1 | FileCheck %s --check-prefix=NOCONFIG
// RUN: not %relocore reloc %t.o --btf %t.o --kernel-release 6.1.0 --kconfig %inputs/kconfig/missing.config -o %t.out.o 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %relocore reloc %t.o --btf %t.o --kernel-release 6.1.0 --kconfig %inputs/kconfig/bad-bool.config -o %t.out.o 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: not %relocore reloc %t.o --btf %t.o --kernel-release 6.1.0 --kconfig %inputs/kconfig/bad-range.config -o %t.out.o 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not %relocore reloc %t.o --btf %t.o --kconfig %inputs/kconfig/target.config -o %t.out.o 2>&1 | FileCheck %s --check-prefix=NOREL
// RUN: not %relocore reloc %t.o --btf %t.o --kernel-release banana --kconfig %inputs/kconfig/target.config -o %t.out.o 2>&1 | FileCheck %s --check-prefix=BADREL
// RUN: not %relocore reloc %t.o --btf %t.o --kernel-release 6.1.0 --kconfig %t.nonexistent -o %t.out.o 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: test ! -e %t.out.o
// an unknown strong LINUX_ extern and an unsupported type
// RUN: %clang_bpf -DUNKNOWN -c %s -o %t.unknown.o
// RUN: not %relocore reloc %t.unknown.o --btf %t.o --kernel-release 6.1.0 -o %t.out.o 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %clang_bpf -DBADTYPE -c %s -o %t.badtype.o
// RUN: not %relocore reloc %t.badtype.o --btf %t.o --kernel-release 6.1.0 -o %t.out.o 2>&1 | FileCheck %s --check-prefix=BADTYPE
// RUN: test ! -e %t.out.o
// an object without .kconfig externs is written as plain `reloc` would
// RUN: %clang_bpf -DNONE -c %s -o %t.none.o
// RUN: %relocore reloc %t.none.o --btf %t.o -o %t.none.plain.o
// RUN: %relocore reloc %t.none.o --btf %t.o --kernel-release 6.1.0 -o %t.none.baked.o 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: cmp %t.none.plain.o %t.none.baked.o
#include "common.h"

#if defined(UNKNOWN)
extern unsigned int LINUX_KERNEL_RELEASE_NUMBER __kconfig;
SEC("socket") int prog(void *ctx) { return LINUX_KERNEL_RELEASE_NUMBER; }
#elif defined(BADTYPE)
struct pair { int a, b; };
extern struct pair CONFIG_PAIR __kconfig;
SEC("socket") int prog(void *ctx) { return CONFIG_PAIR.b; }
#elif defined(NONE)
SEC("socket") int prog(void *ctx) { return 1; }
#else
extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern _Bool CONFIG_BPF_SYSCALL __kconfig;
extern int CONFIG_HZ __kconfig;
SEC("socket") int prog(void *ctx)
{
	return LINUX_KERNEL_VERSION + CONFIG_BPF_SYSCALL + CONFIG_HZ;
}
#endif
char LICENSE[] SEC("license") = "GPL";
// NOCONFIG: relocore: {{.*}}.tmp.o: .kconfig: CONFIG_{{BPF_SYSCALL|HZ}} needs the target's kernel config (--kconfig)
// MISSING: relocore: {{.*}}.tmp.o: .kconfig: CONFIG_HZ is not in the target's kernel config (declare it __weak for 0)
// BOOL: relocore: {{.*}}.tmp.o: .kconfig: CONFIG_BPF_SYSCALL: value 'm' for a bool
// RANGE: relocore: {{.*}}.tmp.o: .kconfig: CONFIG_HZ: value 4294967296 does not fit 4 byte(s)
// NOREL: relocore: {{.*}}.tmp.o: .kconfig: LINUX_KERNEL_VERSION needs the target's release (--kernel-release)
// BADREL: relocore: {{.*}}.tmp.o: .kconfig: LINUX_KERNEL_VERSION: release 'banana' is not MAJOR.MINOR.PATCH[...]
// NOFILE: relocore: --kconfig {{.*}}nonexistent: No such file or directory
// UNKNOWN: relocore: {{.*}}.unknown.o: .kconfig: LINUX_KERNEL_RELEASE_NUMBER: unknown virtual extern
// BADTYPE: relocore: {{.*}}.badtype.o: .kconfig: CONFIG_PAIR: type [{{[0-9]+}}] is not a kconfig type
// NONE: relocore: {{.*}}.none.o: 0 .kconfig extern(s) baked for 6.1.0
