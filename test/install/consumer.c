// SPDX-License-Identifier: MIT
/*
 * consumer.c - a program that uses librelocore as a user would: through
 * the installed header and `pkg-config --cflags --libs relocore` alone.
 *   consumer OBJ TARGET   decide OBJ's relocations against TARGET's BTF
 * and print the library version and one line per relocation.
 */
#include <relocore.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	const struct rc_result *res;
	struct rc_error err = { "" };
	struct rc_object *obj;
	struct rc_target *t;
	char hdr[32], acc[256];
	size_t i, n;

	snprintf(hdr, sizeof(hdr), "%d.%d.%d", RC_VERSION_MAJOR,
		 RC_VERSION_MINOR, RC_VERSION_PATCH);
	printf("header %s library %s\n", hdr, rc_version());
	if (strcmp(hdr, rc_version()))
		return 3;
	if (argc != 3)
		return 2;
	obj = rc_object_open(argv[1], &err);
	t = obj ? rc_target_open(argv[2], NULL, &err) : NULL;
	if (!t || rc_object_relocate(obj, t, &res, &err)) {
		fprintf(stderr, "consumer: %s\n", err.msg);
		return 1;
	}
	n = rc_object_relo_count(obj);
	printf("relocations: %zu\n", n);
	for (i = 0; i < n; i++) {
		rc_spec_format(&res[i].d.local, acc, sizeof(acc));
		printf("%s %s: %llu -> %llu\n", rc_relo_kind_str(res[i].relo.kind),
		       acc, (unsigned long long)res[i].d.orig_val,
		       (unsigned long long)res[i].d.new_val);
	}
	rc_target_free(t);
	rc_object_free(obj);
	return 0;
}
