// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Options of other levels on a QUIC socket: SOL_IP and SOL_IPV6 go to the
 * IP layer of the socket's family (docs/socket.md), so they behave exactly
 * as on any inet socket, validation and errors included; SOL_SOCKET is the
 * generic socket layer; a level QUIC does not know is ENOPROTOOPT.
 */

#include <errno.h>
#include <unistd.h>
#include <netinet/in.h>

#include "ktap.h"

#ifndef SOL_TCP
#define SOL_TCP		6
#endif

struct ipopt {
	int family, type, level, name, value;
	int err;		/* expected errno of the set; 0: must read back @value */
	const char *label;
};

static const struct ipopt cases[] = {
	{ AF_INET, SOCK_STREAM, SOL_IP, IP_TOS, 0x28, 0, "AF_INET SOL_IP IP_TOS" },
	{ AF_INET, SOCK_STREAM, SOL_IP, IP_TTL, 33, 0, "AF_INET SOL_IP IP_TTL" },
	{ AF_INET, SOCK_DGRAM, SOL_IP, IP_TTL, 256, EINVAL,
	  "AF_INET SOL_IP IP_TTL 256 is refused by the IP layer" },
	/* Not 200..212: those are multicast routing's MRT_*, which a kernel
	 * with CONFIG_IP_MROUTE answers with EOPNOTSUPP on any socket but a
	 * raw IGMP one (Debian's kernel does).
	 */
	{ AF_INET, SOCK_DGRAM, SOL_IP, 250, 1, ENOPROTOOPT,
	  "AF_INET SOL_IP unknown option 250" },
	{ AF_INET6, SOCK_DGRAM, SOL_IPV6, IPV6_UNICAST_HOPS, 17, 0,
	  "AF_INET6 SOL_IPV6 IPV6_UNICAST_HOPS" },
	{ AF_INET6, SOCK_DGRAM, SOL_IPV6, IPV6_TCLASS, 0x28, 0, "AF_INET6 SOL_IPV6 IPV6_TCLASS" },
	{ AF_INET6, SOCK_STREAM, SOL_IPV6, IPV6_V6ONLY, 1, 0, "AF_INET6 SOL_IPV6 IPV6_V6ONLY" },
	{ AF_INET6, SOCK_STREAM, SOL_IPV6, IPV6_UNICAST_HOPS, 256, EINVAL,
	  "AF_INET6 SOL_IPV6 IPV6_UNICAST_HOPS 256 is refused by the IPv6 layer" },
	{ AF_INET6, SOCK_STREAM, SOL_IPV6, 250, 1, ENOPROTOOPT,
	  "AF_INET6 SOL_IPV6 unknown option 250" },
	{ AF_INET6, SOCK_DGRAM, SOL_IP, IP_TOS, 0x28, 0,
	  "AF_INET6 SOL_IP IP_TOS (dual stack) reaches the IPv4 layer" },
	{ AF_INET, SOCK_STREAM, SOL_SOCKET, SO_PRIORITY, 3, 0, "AF_INET SOL_SOCKET SO_PRIORITY" },
	{ AF_INET, SOCK_STREAM, SOL_TCP, 1, 1, ENOPROTOOPT, "AF_INET SOL_TCP is no QUIC level" },
	{ AF_INET6, SOCK_DGRAM, SOL_TCP, 1, 1, ENOPROTOOPT, "AF_INET6 SOL_TCP is no QUIC level" },
};

static bool run(const struct ipopt *c)
{
	socklen_t len = sizeof(int);
	int fd, ret, err, v = -1;

	fd = socket(c->family, c->type, IPPROTO_QUIC);
	if (fd < 0) {
		ktap_diag("socket: %s", errno_name(errno));
		return false;
	}
	ret = setsockopt(fd, c->level, c->name, &c->value, sizeof(c->value));
	err = errno;
	if (c->err || ret) {
		close(fd);
		if (ret != -1 || err != c->err)
			ktap_diag("setsockopt: %s, expected %s", ret ? errno_name(err) : "success",
				  errno_name(c->err));
		return ret == -1 && err == c->err;
	}
	ret = getsockopt(fd, c->level, c->name, &v, &len);
	err = errno;
	close(fd);
	if (ret)
		ktap_diag("getsockopt: %s", errno_name(err));
	else if (v != c->value)
		ktap_diag("read back %d, set %d", v, c->value);
	return !ret && v == c->value;
}

int main(void)
{
	unsigned int i;

	ktap_plan(ARRAY_SIZE(cases));
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		ktap_result(run(&cases[i]), "%s", cases[i].label);
	return ktap_finish();
}
