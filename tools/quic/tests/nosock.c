// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD shim for tests/cli.sh: socket(..., IPPROTO_QUIC) fails with
 * EPROTONOSUPPORT without reaching the kernel, so that no command line
 * tested on the host can make the kernel load (or look for) the QUIC
 * module. Generic netlink sockets fail the same way, so that no
 * quic-handshaked tested here can take (or wait for) a handshake request
 * meant for the host's own agent. Every other socket is created normally.
 */

#include <errno.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/netlink.h>

#define NOSOCK_IPPROTO_QUIC	261

int socket(int domain, int type, int protocol)
{
	static const char nl_msg[] = "nosock: generic netlink socket refused\n";
	static const char msg[] = "nosock: IPPROTO_QUIC socket refused\n";
	ssize_t n;

	if (domain == AF_NETLINK && protocol == NETLINK_GENERIC) {
		n = write(2, nl_msg, sizeof(nl_msg) - 1);
		(void)n;
		errno = EPROTONOSUPPORT;
		return -1;
	}
	if (protocol == NOSOCK_IPPROTO_QUIC) {
		n = write(2, msg, sizeof(msg) - 1);
		(void)n;
		errno = EPROTONOSUPPORT;
		return -1;
	}
	return (int)syscall(SYS_socket, domain, type, protocol);
}
