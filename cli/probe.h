/* SPDX-License-Identifier: MIT */
/*
 * probe.h - what the running kernel can do (probe.c), for `relocore run`.
 * The answers are the live kernel's: vmlinux and module BTF, kallsyms or
 * available_filter_functions, tracefs, and probe programs it loads.
 */
#ifndef RELOCORE_CLI_PROBE_H
#define RELOCORE_CLI_PROBE_H

#include <stdbool.h>

#include "progtype.h"

/* Does the running kernel have @target for a program of section @sec (its
 * attach kind by progtype's table)?  True for kinds that name no kernel
 * attach point. */
bool probe_has_attach(const char *sec, const char *target);
/* Can the running kernel attach a program of kind @k (PT_ATTACH_FENTRY,
 * _FEXIT or _TP_BTF) at @func (a tp_btf's tracepoint)?  Loads and attaches
 * a probe program there (vmlinux or a module), then closes it. */
bool probe_btf_attaches(enum pt_attach k, const char *func);

#endif
