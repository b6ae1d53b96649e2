/* SPDX-License-Identifier: MIT */
/* cli.h - shared by the relocore command's files. */
#ifndef RELOCORE_CLI_H
#define RELOCORE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct btf;

/* Print @s as a JSON string. */
void cli_json_str(FILE *f, const char *s);
/* Print the value at @data (@size bytes) of BTF type @id as JSON. */
void cli_json_value(FILE *f, const struct btf *btf, uint32_t id,
		    const void *data, size_t size);
/* relocore run */
int cmd_run(int argc, char **argv);

#endif
