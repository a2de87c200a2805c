// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Linked dynamically on purpose: checks that the image builder copied the
 * program's loader and shared libraries (scripts/selftest.py,
 * copy_with_libs()), which the GnuTLS-based handshake tests will rely on.
 */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"
#include "util.h"

int main(void)
{
	static char maps[65536];
	bool libc = false;
	int fd;

	ktap_plan(3);
	ktap_result(true, "dynamically linked program starts");

	if (read_file("/proc/self/maps", maps, sizeof(maps)) > 0)
		libc = strstr(maps, "/libc.so.6") && strstr(maps, "/ld-linux");
	ktap_result(libc, "loader and libc.so.6 are mapped from the image");

	fd = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);
	ktap_result(fd >= 0, "QUIC socket through the shared libc");
	if (fd >= 0)
		close(fd);
	return ktap_finish();
}
