// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Logging: messages at or above the configured priority go to the
 * application's log function, or to stderr when it set none.
 */

#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

static quic_set_log_func_t log_func;
static int log_level = QUIC_LOG_ERROR;

/* Route library messages to @func (NULL: stderr); returns the previous one. */
QUIC_API quic_set_log_func_t quic_set_log_func(quic_set_log_func_t func)
{
	quic_set_log_func_t old = log_func;

	log_func = func;
	return old;
}

/*
 * Emit messages of priority @level and more urgent (a QUIC_LOG_* value);
 * returns the level in force before.
 */
QUIC_API int quic_set_log_level(int level)
{
	int old = log_level;

	log_level = level;
	return old;
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
