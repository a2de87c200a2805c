// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host tests of tools/quic: url.c (test_url.c), the application
 * protocols over a fake transport (test_proto.c) and quic-handshaked's
 * config, key and netlink message handling (test_hsd.c). No QUIC kernel
 * is needed. KTAP-like output ending with "N passed, N failed".
 *
 *   test_tools SCRATCH-DIR
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "tests.h"

static int passed, failed, number;

/* Report one case: "ok N what" or "not ok N what". */
void result(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d ", ok ? "ok" : "not ok", ++number);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s SCRATCH-DIR\n", argv[0]);
		return 2;
	}
	/* QT_TEST_VERBOSE=1: the tools' own log lines too. */
	qt_log_level = getenv("QT_TEST_VERBOSE") ? QT_LOG_DEBUG : -1;
	printf("KTAP version 1\n1..%d\n",
	       test_url_count() + test_proto_count() + test_hsd_count());
	test_url();
	test_proto(argv[1]);
	test_hsd();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
