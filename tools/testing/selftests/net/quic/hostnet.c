// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest reaches a peer on the host through QEMU user networking, both
 * ways, as the interop tests against host-side QUIC stacks will:
 *
 *  - guest to host: a datagram sent to 10.0.2.2:$selftest_hostecho reaches
 *    the UDP echo server that scripts/selftest.py runs on the host's
 *    loopback, and the echo comes back;
 *  - host to guest: the runner forwards a host port to guest port
 *    $selftest_hostfwd (hostfwd=udp:...); we bind that port, wait for the
 *    runner's probe and answer it. The runner records whether the answer
 *    arrived, and checks the packet capture for our marker.
 *
 * Both variables come from the kernel command line (the kernel passes
 * unknown "name=value" words to /init as environment). Without them, as in
 * a boot not started by the runner, every case is skipped.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"

#define HOST_ADDR	"10.0.2.2"
#define TIMEOUT_MS	1000
#define TRIES		10
#define PROBE_WAIT_MS	30000
#define LINGER_MS	2000

/*
 * The payloads, without a terminating NUL, as scripts/selftest.py spells
 * them; the runner looks for the marker in the capture of the guest NIC.
 */
static const char marker[] = "quic-selftest-hostnet guest->host";
static const char probe[] = "quic-selftest-hostnet probe";
static const char answer[] = "quic-selftest-hostnet answer";
#define MARKER_LEN	(sizeof(marker) - 1)
#define PROBE_LEN	(sizeof(probe) - 1)
#define ANSWER_LEN	(sizeof(answer) - 1)

/* A port from the environment: 0 when absent, -1 when not a port number. */
static int env_port(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	v = strtol(s, &end, 10);
	if (*end || v <= 0 || v > 65535)
		return -1;
	return v;
}

static int udp_bound(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		ktap_diag("bind port %d: %s", port, errno_name(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Send the marker to the host's echo server until it comes back. */
static bool echo_from_host(int port)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct pollfd pfd = { .events = POLLIN };
	char msg[256];
	bool ok = false;
	ssize_t n;
	int i;

	inet_pton(AF_INET, HOST_ADDR, &to.sin_addr);
	pfd.fd = udp_bound(0);
	if (pfd.fd < 0)
		return false;
	for (i = 0; i < TRIES && !ok; i++) {
		if (sendto(pfd.fd, marker, MARKER_LEN, 0, (struct sockaddr *)&to,
			   sizeof(to)) != MARKER_LEN) {
			ktap_diag("sendto %s:%d: %s", HOST_ADDR, port, errno_name(errno));
			break;
		}
		if (poll(&pfd, 1, TIMEOUT_MS) != 1)
			continue;
		n = recv(pfd.fd, msg, sizeof(msg), 0);
		ok = n == MARKER_LEN && !memcmp(msg, marker, n);
		if (!ok)
			ktap_diag("unexpected echo of %zd bytes", n);
	}
	if (i == TRIES && !ok)
		ktap_diag("no echo from %s:%d after %d tries", HOST_ADDR, port, TRIES);
	close(pfd.fd);
	return ok;
}

/*
 * Wait for the runner's probe on the forwarded port and answer it. The
 * answer may be lost like any datagram: the runner probes again until one
 * arrives, so keep answering until the probes stop for LINGER_MS.
 * Returns true once a probe arrived and an answer went out.
 */
static bool answer_host_probe(int port)
{
	struct pollfd pfd = { .events = POLLIN };
	int idle = 0, limit = PROBE_WAIT_MS;
	struct sockaddr_storage from;
	socklen_t fromlen;
	bool answered = false;
	char msg[256];
	ssize_t n;

	pfd.fd = udp_bound(port);
	if (pfd.fd < 0)
		return false;
	while (idle < limit) {
		if (poll(&pfd, 1, 100) != 1) {
			idle += 100;
			continue;
		}
		fromlen = sizeof(from);
		n = recvfrom(pfd.fd, msg, sizeof(msg), 0, (struct sockaddr *)&from, &fromlen);
		if (n != PROBE_LEN || memcmp(msg, probe, n)) {
			ktap_diag("ignored %zd bytes that are not the probe", n);
			continue;
		}
		if (sendto(pfd.fd, answer, ANSWER_LEN, 0, (struct sockaddr *)&from,
			   fromlen) == ANSWER_LEN) {
			answered = true;
			idle = 0;
			limit = LINGER_MS;
		}
	}
	close(pfd.fd);
	if (!answered)
		ktap_diag("no probe on port %d within %d ms", port, PROBE_WAIT_MS);
	return answered;
}

/* One case: skipped without its variable, failed when it is not a port. */
static void port_case(const char *var, bool (*check)(int port), const char *name)
{
	int port = env_port(var);
	char why[64];

	if (!port) {
		snprintf(why, sizeof(why), "no %s on the kernel command line", var);
		ktap_skip(why, "%s", name);
		return;
	}
	if (port < 0)
		ktap_diag("%s=%s is not a port number", var, getenv(var));
	ktap_result(port > 0 && check(port), "%s", name);
}

int main(void)
{
	ktap_plan(2);
	port_case("selftest_hostecho", echo_from_host,
		  "UDP from the guest reaches the host peer and the echo returns");
	port_case("selftest_hostfwd", answer_host_probe,
		  "UDP from the host arrives through the forwarded port");
	return ktap_finish();
}
