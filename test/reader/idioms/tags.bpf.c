/* BTF tags: decl tags on a struct, a member, a function and a parameter;
 * a type tag on a pointer (clang; GCC 12 does not emit them). */
#include "idiom.h"

#define __tag(x) __attribute__((btf_decl_tag(x)))
#define __user __attribute__((btf_type_tag("user")))

struct tagged {
	int a __tag("member");
	int *__user p;
} __tag("struct");

struct tagged tv;

static __attribute__((noinline)) __tag("func") int f(int x __tag("param"))
{
	return x + tv.a;
}

SEC("raw_tp/sys_enter")
int tags(void *ctx)
{
	tv.a = f(1);
	return 0;
}
