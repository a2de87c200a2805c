// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Logging: messages at or above the configured priority go to the
 * application's log function, or to stderr when it set none.
 */

#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

static void (*log_func)(int level, const char *msg);
static int log_level = QUIC_LOG_ERROR;

/* Route library messages to @func (NULL: stderr). */
QUIC_API void quic_set_log_func(void (*func)(int level, const char *msg))
{
	log_func = func;
}

/* Emit messages of priority @level and more urgent (a QUIC_LOG_* value). */
QUIC_API void quic_set_log_level(int level)
{
	log_level = level;
}

/* Format one message and hand it on when its @level is enabled. */
void quic_log(int level, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (level > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (log_func)
		log_func(level, msg);
	else
		fprintf(stderr, "libquic: %s\n", msg);
}
