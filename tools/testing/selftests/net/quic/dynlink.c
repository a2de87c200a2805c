// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Linked dynamically on purpose: checks that the image builder copied the
 * program's loader and shared libraries (scripts/selftest.py,
 * copy_with_libs()), which the GnuTLS-based handshake tests will rely on.
 */

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>

#include "ktap.h"
#include "util.h"

int main(void)
{
	static char maps[65536];
	unsigned long interp;
	bool libc = false;
	int fd;

	ktap_plan(3);
	/* AT_BASE is where the program interpreter was mapped: 0 without one. */
	interp = getauxval(AT_BASE);
	if (!interp)
		ktap_diag("AT_BASE is 0: no program interpreter ran");
	ktap_result(interp != 0, "dynamically linked program starts");

	if (read_file("/proc/self/maps", maps, sizeof(maps)) > 0)
		libc = strstr(maps, "/libc.so.6") && strstr(maps, "/ld-linux");
	ktap_result(libc, "loader and libc.so.6 are mapped from the image");

	fd = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);
	ktap_result(fd >= 0, "QUIC socket through the shared libc");
	if (fd >= 0)
		close(fd);
	return ktap_finish();
}
