// SPDX-License-Identifier: MIT
/* version.c - rc_version(): the library's version, set by the build from
 * RC_VERSION_* of relocore.h. */
#include "relocore.h"

#ifndef RC_VERSION_STRING
#error "RC_VERSION_STRING is set by CMakeLists.txt"
#endif

const char *rc_version(void)
{
	return RC_VERSION_STRING;
}
