// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * socket(IPPROTO_QUIC) from userspace: the first call loads the quic module
 * through its MODULE_ALIAS (net-pf-2-proto-261 for AF_INET,
 * net-pf-10-proto-261 for AF_INET6: request_module() runs /sbin/modprobe),
 * and every family/type combination then works.
 *
 * Runs first in the image, before anything else opened a QUIC socket.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"
#include "util.h"

static const struct {
	int family, type;
	const char *name;
} kinds[] = {
	{ AF_INET, SOCK_STREAM, "AF_INET SOCK_STREAM" },
	{ AF_INET, SOCK_DGRAM, "AF_INET SOCK_DGRAM" },
	{ AF_INET6, SOCK_STREAM, "AF_INET6 SOCK_STREAM" },
	{ AF_INET6, SOCK_DGRAM, "AF_INET6 SOCK_DGRAM" },
};

static int getopt_int(int fd, int name)
{
	socklen_t len = sizeof(int);
	int v = -1;

	if (getsockopt(fd, SOL_SOCKET, name, &v, &len))
		return -1;
	return v;
}

/* Each kind: the call succeeds and the socket reports what was asked for. */
static void check_kinds(void)
{
	unsigned int i;
	int fd, err;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		fd = socket(kinds[i].family, kinds[i].type, IPPROTO_QUIC);
		err = errno;
		if (fd < 0) {
			ktap_expect_errno(fd, err, 0, "socket(%s, IPPROTO_QUIC)", kinds[i].name);
			continue;
		}
		if (getopt_int(fd, SO_DOMAIN) != kinds[i].family ||
		    getopt_int(fd, SO_TYPE) != kinds[i].type ||
		    getopt_int(fd, SO_PROTOCOL) != IPPROTO_QUIC)
			ktap_diag("SO_DOMAIN %d SO_TYPE %d SO_PROTOCOL %d",
				  getopt_int(fd, SO_DOMAIN), getopt_int(fd, SO_TYPE),
				  getopt_int(fd, SO_PROTOCOL));
		ktap_result(getopt_int(fd, SO_DOMAIN) == kinds[i].family &&
			    getopt_int(fd, SO_TYPE) == kinds[i].type &&
			    getopt_int(fd, SO_PROTOCOL) == IPPROTO_QUIC,
			    "socket(%s, IPPROTO_QUIC)", kinds[i].name);
		close(fd);
	}
}

/* The first socket of @family must find the module missing and load it. */
static void check_autoload(int family, int type, const char *alias)
{
	int fd, err;

	fd = socket(family, type, IPPROTO_QUIC);
	err = errno;
	if (fd < 0)
		ktap_diag("socket: %s", errno_name(err));
	ktap_result(fd >= 0 && module_present("quic"),
		    "first socket() loads quic through alias %s", alias);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	int err;

	ktap_plan(9);

	ktap_result(!module_present("quic"), "quic is not loaded before the first socket()");
	check_autoload(AF_INET, SOCK_STREAM, "net-pf-2-proto-261");
	check_kinds();
	ktap_result(proto_sockets("QUIC") == 0 && proto_sockets("QUICv6") == 0,
		    "/proc/net/protocols lists QUIC and QUICv6 with no socket left open");

	/* Drop the module and let AF_INET6 bring it back through the other alias. */
	err = module_unload("quic", 5000);
	if (err)
		ktap_diag("delete_module(quic): %s", strerror(-err));
	ktap_result(!err && !module_present("quic"), "quic unloads once its sockets are closed");
	check_autoload(AF_INET6, SOCK_DGRAM, "net-pf-10-proto-261");

	return ktap_finish();
}
