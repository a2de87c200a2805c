// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The namespace pair of netns.h carries traffic: a UDP echo server on side 1
 * answers a client on side 0 over IPv4 and IPv6. This is the set-up the
 * data-path tests build on; QUIC sockets are also created on both sides.
 */

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"
#include "netns.h"

#define PORT		4433
#define TIMEOUT_MS	2000
#define TRIES		5

static int udp_socket(int family, const void *addr, bool bind_it)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_port = htons(PORT) };
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(PORT) };
	int fd;

	fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || !bind_it)
		return fd;
	if (family == AF_INET) {
		memcpy(&sin.sin_addr, addr, sizeof(sin.sin_addr));
		if (!bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
			return fd;
	} else {
		memcpy(&sin6.sin6_addr, addr, sizeof(sin6.sin6_addr));
		if (!bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)))
			return fd;
	}
	close(fd);
	return -1;
}

/* Side 1: echo every datagram on both sockets until killed. */
static void serve(struct netns_pair *p, int ready)
{
	struct pollfd pfd[2];
	struct sockaddr_storage from;
	socklen_t fromlen;
	char msg[256];
	ssize_t n;
	int i;

	if (netns_enter(p, 1))
		_exit(1);
	pfd[0].fd = udp_socket(AF_INET, &p->addr4[1], true);
	pfd[1].fd = udp_socket(AF_INET6, &p->addr6[1], true);
	if (pfd[0].fd < 0 || pfd[1].fd < 0)
		_exit(1);
	pfd[0].events = POLLIN;
	pfd[1].events = POLLIN;
	if (write(ready, "r", 1) != 1)
		_exit(1);
	close(ready);
	alarm(60);
	while (poll(pfd, 2, -1) > 0) {
		for (i = 0; i < 2; i++) {
			if (!(pfd[i].revents & POLLIN))
				continue;
			fromlen = sizeof(from);
			n = recvfrom(pfd[i].fd, msg, sizeof(msg), 0, (struct sockaddr *)&from,
				     &fromlen);
			if (n > 0)
				sendto(pfd[i].fd, msg, n, 0, (struct sockaddr *)&from, fromlen);
		}
	}
	_exit(0);
}

/* Side 0: send until the echo comes back or the tries run out. */
static bool echo(struct netns_pair *p, int family)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_port = htons(PORT),
				     .sin6_addr = p->addr6[1] };
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(PORT),
				   .sin_addr = p->addr4[1] };
	static const char ping[] = "quic selftest ping";
	const struct sockaddr *to;
	struct pollfd pfd;
	socklen_t tolen;
	char msg[256];
	int fd, i;
	ssize_t n;

	to = family == AF_INET ? (struct sockaddr *)&sin : (struct sockaddr *)&sin6;
	tolen = family == AF_INET ? sizeof(sin) : sizeof(sin6);
	fd = udp_socket(family, NULL, false);
	if (fd < 0)
		return false;
	pfd.fd = fd;
	pfd.events = POLLIN;
	for (i = 0; i < TRIES; i++) {
		if (sendto(fd, ping, sizeof(ping), 0, to, tolen) != sizeof(ping)) {
			ktap_diag("sendto: %s", errno_name(errno));
			break;
		}
		if (poll(&pfd, 1, TIMEOUT_MS) != 1)
			continue;
		n = recv(fd, msg, sizeof(msg), 0);
		close(fd);
		return n == sizeof(ping) && !memcmp(msg, ping, n);
	}
	close(fd);
	ktap_diag("nothing came back after %d tries", TRIES);
	return false;
}

static bool quic_socket_in(struct netns_pair *p, int side)
{
	int fd;

	if (netns_enter(p, side))
		return false;
	fd = socket(AF_INET6, SOCK_DGRAM, IPPROTO_QUIC);
	if (fd >= 0)
		close(fd);
	netns_enter(p, -1);
	return fd >= 0;
}

int main(void)
{
	struct netns_pair p;
	int pipefd[2], err;
	pid_t server = -1;
	char c;

	ktap_plan(6);

	err = netns_pair_create(&p);
	if (!ktap_result(!err, "two namespaces joined by veth are set up")) {
		ktap_skip("no namespace pair", "veth ends are only visible on their side");
		ktap_skip("no namespace pair", "UDP over IPv4 echoes across the pair");
		ktap_skip("no namespace pair", "UDP over IPv6 echoes across the pair");
		ktap_skip("no namespace pair", "QUIC sockets open on both sides");
		ktap_skip("no namespace pair", "echo server exits cleanly");
		return ktap_finish();
	}

	netns_enter(&p, 0);
	err = !if_nametoindex(p.ifname[0]) || if_nametoindex(p.ifname[1]);
	netns_enter(&p, -1);
	err |= if_nametoindex(p.ifname[0]) || if_nametoindex(p.ifname[1]);
	ktap_result(!err, "veth ends are only visible on their side");

	if (pipe(pipefd) == 0) {
		server = fork();
		if (!server) {
			close(pipefd[0]);
			serve(&p, pipefd[1]);
		}
		close(pipefd[1]);
		if (read(pipefd[0], &c, 1) != 1)
			ktap_diag("echo server did not start");
		close(pipefd[0]);
	}

	netns_enter(&p, 0);
	ktap_result(server > 0 && echo(&p, AF_INET), "UDP over IPv4 echoes across the pair");
	ktap_result(server > 0 && echo(&p, AF_INET6), "UDP over IPv6 echoes across the pair");
	netns_enter(&p, -1);

	ktap_result(quic_socket_in(&p, 0) && quic_socket_in(&p, 1),
		    "QUIC sockets open on both sides");

	if (server > 0) {
		int status = -1;

		kill(server, SIGTERM);
		waitpid(server, &status, 0);
		ktap_result(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
			    "echo server exits cleanly");
	} else {
		ktap_result(false, "echo server exits cleanly");
	}

	netns_pair_destroy(&p);
	return ktap_finish();
}
