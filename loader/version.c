// SPDX-License-Identifier: MIT
/* version.c - rc_version(): the library's version, RC_VERSION_* of
 * relocore.h (the one place it is written) as it was when the library
 * was built. */
#include "relocore.h"

#define RC_STR_(x) #x
#define RC_STR(x) RC_STR_(x)

const char *rc_version(void)
{
	return RC_STR(RC_VERSION_MAJOR) "." RC_STR(RC_VERSION_MINOR) "."
	       RC_STR(RC_VERSION_PATCH);
}
