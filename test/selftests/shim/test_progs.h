/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for the kernel selftests' test_progs.h, just enough to compile
 * tools/testing/selftests/bpf/prog_tests/core_reloc.c as a host object so
 * that relocore's conformance runner can read its test_cases[] table and
 * run its setup functions (which only use libbpf's offline BTF API).
 *
 * Nothing here loads BPF programs: the test body of core_reloc.c
 * (run_core_reloc_tests) is compiled and linked against libbpf but never
 * called.
 */
#ifndef RC_SHIM_TEST_PROGS_H
#define RC_SHIM_TEST_PROGS_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Failures seen by the setup functions are counted here and reported by
 * the runner for the case being set up. */
extern int rc_shim_failures;
void rc_shim_report(const char *what, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct rc_shim_env {
	bool has_testmod;
};
extern struct rc_shim_env env;

/* Selection and skipping are done by the runner, not here. */
static inline bool test__start_subtest(const char *name) { (void)name; return true; }
static inline void test__skip(void) { }

/* The module trigger reads from /sys/kernel/bpf_testmod: never called. */
void trigger_module_test_read(int read_sz);

#define _CHECK(condition, tag, duration, format...) ({			\
	int __ret = !!(condition);					\
	(void)(duration);						\
	if (__ret)							\
		rc_shim_report(tag, format);				\
	__ret;								\
})
#define CHECK_FAIL(condition) _CHECK(condition, "check_fail", 0, "%s\n", #condition)
#define CHECK(condition, tag, format...) _CHECK(condition, tag, duration, format)

#define ASSERT_OK(res, name) ({						\
	long long ___res = (res);					\
	bool ___ok = ___res == 0;					\
	if (!___ok)							\
		rc_shim_report(name, "unexpected error: %lld\n", ___res); \
	___ok;								\
})
#define ASSERT_FALSE(actual, name) ({					\
	bool ___ok = !(actual);						\
	if (!___ok)							\
		rc_shim_report(name, "unexpected true\n");		\
	___ok;								\
})
#define ASSERT_GE(actual, expected, name) ({				\
	long long ___a = (actual), ___e = (expected);			\
	bool ___ok = ___a >= ___e;					\
	if (!___ok)							\
		rc_shim_report(name, "%lld < %lld\n", ___a, ___e);	\
	___ok;								\
})
#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *___p = (ptr);					\
	bool ___ok = !libbpf_get_error(___p);				\
	if (!___ok)							\
		rc_shim_report(name, "unexpected error pointer %p\n", ___p); \
	___ok;								\
})

#endif
