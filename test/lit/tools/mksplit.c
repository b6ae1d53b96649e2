// SPDX-License-Identifier: MIT
/*
 * mksplit BASE OUT - a module's BTF split over BASE (raw BTF or an ELF
 * file with .BTF), as a kernel's /sys/kernel/btf/<module> is: raw BTF
 * whose type ids and strings continue BASE's.  The module here is
 * nf_flow_table's part that lit tests read: struct flow_offload { u64
 * flags; u32 timeout at byte 196 } of 216 bytes, and the function
 * flow_offload_add(struct flow_offload *).  Built with libbpf's BTF
 * writer (btf__new_empty_split); BASE must have an "int".
 */
#include <stdio.h>
#include <bpf/btf.h>

int main(int argc, char **argv)
{
	struct btf *base, *mod;
	const void *raw;
	__u32 size;
	int i32, u64, s, ptr, proto, fn;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: mksplit BASE OUT\n");
		return 2;
	}
	base = btf__parse(argv[1], NULL);
	if (!base) {
		perror(argv[1]);
		return 1;
	}
	mod = btf__new_empty_split(base);
	i32 = btf__find_by_name_kind(base, "int", BTF_KIND_INT);
	if (!mod || i32 < 0) {
		fprintf(stderr, "mksplit: %s has no int\n", argv[1]);
		return 1;
	}
	u64 = btf__add_int(mod, "long long unsigned int", 8, 0);
	s = btf__add_struct(mod, "flow_offload", 216);
	btf__add_field(mod, "flags", u64, 0, 0);
	btf__add_field(mod, "timeout", i32, 196 * 8, 0);
	ptr = btf__add_ptr(mod, s);
	proto = btf__add_func_proto(mod, i32);
	btf__add_func_param(mod, "flow", ptr);
	fn = btf__add_func(mod, "flow_offload_add", BTF_FUNC_GLOBAL, proto);
	raw = fn > 0 ? btf__raw_data(mod, &size) : NULL;
	f = raw ? fopen(argv[2], "wb") : NULL;
	if (!f || fwrite(raw, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "mksplit: cannot write %s\n", argv[2]);
		return 1;
	}
	btf__free(mod);
	btf__free(base);
	return 0;
}
