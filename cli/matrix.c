// SPDX-License-Identifier: MIT
/*
 * matrix.c - relocore matrix: the objects booted on every kernel named,
 * relocore check's prediction beside each verdict.  The work is QEMU,
 * downloads and caches: vm/matrix.py does it (with vm/'s scripts), found
 * beside the source tree for a binary run from its build directory, else
 * in PREFIX/lib/relocore for a binary in PREFIX/bin (where make install
 * and the Debian package put them); $RELOCORE_MATRIX_DIR overrides both.  It is run with RELOCORE set to this
 * binary, which decides the predictions and is what the guests run
 * (its static twin).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cmd_matrix(int argc, char **argv)
{
	char self[PATH_MAX], inst[PATH_MAX + 32], script[PATH_MAX + 64], **args;
	const char *dir = getenv("RELOCORE_MATRIX_DIR");
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int i;

	if (n <= 0) {
		fprintf(stderr, "relocore matrix: /proc/self/exe: %s\n", strerror(errno));
		return 2;
	}
	self[n] = '\0';
	if (!dir) {
		size_t bl = strlen(RC_BUILD_BIN);
		char *slash;

		/* PREFIX/bin/relocore -> PREFIX/lib/relocore */
		snprintf(inst, sizeof(inst), "%s", self);
		slash = strrchr(inst, '/');
		if (slash)
			*slash = '\0';
		slash = strrchr(inst, '/');
		if (slash)
			snprintf(slash, sizeof(inst) - (slash - inst), "/lib/relocore");
		dir = !strncmp(self, RC_BUILD_BIN "/", bl + 1) && !strchr(self + bl + 1, '/') ?
		      RC_SOURCE_DIR : inst;
	}
	snprintf(script, sizeof(script), "%s/vm/matrix.py", dir);
	if (access(script, R_OK)) {
		fprintf(stderr, "relocore matrix: %s: %s (installed by make install; RELOCORE_MATRIX_DIR=DIR)\n",
			script, strerror(errno));
		return 2;
	}
	setenv("RELOCORE", self, 1);
	args = calloc(argc + 3, sizeof(*args));
	if (!args)
		return 2;
	args[0] = "python3";
	args[1] = script;
	for (i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	execvp("python3", args);
	fprintf(stderr, "relocore matrix: python3: %s (apt-get install python3)\n", strerror(errno));
	return 2;
}
