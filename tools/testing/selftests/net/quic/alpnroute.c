// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ALPN routing, booted, with real TLS: listeners in separate processes
 * share one address and port, each with its own application protocols
 * (QUIC_SOCKOPT_ALPN before listen()), and every client reaches the
 * process serving the protocol it prefers (RFC 7301 Section 3.1 order of
 * its list), whatever the QUIC version. Who may share a port is checked
 * too: not with a protocol already served, not without protocols, not
 * across users.
 *
 * The listeners run in side 1 of a namespace pair (netns.h), one child
 * process each; every connection they accept gets the server handshake
 * (libquic, GnuTLS, the test CA's server certificate), then its stream 0
 * is answered with the name of the process. Clients run in side 0.
 *
 * Usage: alpnroute [certificate directory, default /tests/certs]
 */

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <netinet/quic.h>

#include "ktap.h"
#include "netns.h"
#include "util.h"

#define PORT		5100
#define TIMEO_S		10
#define HOSTNAME	"server.test"	/* the SAN of server.pem */
#define NOBODY		65534

static struct netns_pair pair;

static socklen_t server_addr(int family, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(PORT);
		a->sin6_addr = pair.addr6[1];
		return sizeof(*a);
	}
	((struct sockaddr_in *)ss)->sin_family = AF_INET;
	((struct sockaddr_in *)ss)->sin_port = htons(PORT);
	((struct sockaddr_in *)ss)->sin_addr = pair.addr4[1];
	return sizeof(struct sockaddr_in);
}

/* socket(), bind() and listen() in side 1 with @alpn (NULL: none); the
 * descriptor, or -1 with errno set.
 */
static int listener_open(int family, const char *alpn)
{
	struct sockaddr_storage ss;
	socklen_t len = server_addr(family, &ss);
	int fd, err;

	fd = socket(family, SOCK_DGRAM, IPPROTO_QUIC);
	if (fd < 0)
		return -1;
	if ((alpn && setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, alpn, strlen(alpn))) ||
	    bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 8)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* Answer every client: handshake, read stream 0 to its end, reply with
 * @name and FIN, wait for the client to close. Runs until killed.
 */
static void serve(int lfd, const char *name)
{
	char buf[256];
	uint32_t flags;
	int64_t sid;
	int fd;

	for (;;) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			_exit(1);
		}
		sock_timeouts(fd, TIMEO_S);
		if (!quic_server_handshake(fd, cert_path("server.key"), cert_path("server.pem"),
					   NULL)) {
			do {
				flags = 0;
				if (quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags) < 0)
					break;
			} while (!(flags & MSG_STREAM_FIN));
			if (flags & MSG_STREAM_FIN)
				quic_sendmsg(fd, name, strlen(name), 0, MSG_STREAM_FIN);
			flags = 0;
			while (quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags) > 0)
				;
		}
		close(fd);
	}
}

struct listener {
	pid_t pid;
	int err;		/* listen()'s errno, 0 when it listens */
};

static void listener_stop(struct listener *l)
{
	if (l->pid <= 0)
		return;
	kill(l->pid, SIGKILL);
	waitpid(l->pid, NULL, 0);
	l->pid = -1;
}

/* A child process in side 1 listening with @alpn and serving as @name.
 * With @uid, it first becomes that user and only reports listen()'s
 * result. The result is in @l once this returns.
 */
static void listener_start(struct listener *l, int family, const char *alpn,
			   const char *name, uid_t uid)
{
	int ready[2], err = 0, fd;

	l->pid = -1;
	l->err = EIO;
	if (pipe(ready))
		return;
	l->pid = fork();
	if (l->pid == 0) {
		close(ready[0]);
		if (netns_enter(&pair, 1) || (uid && (setgid(uid) || setuid(uid))))
			err = errno ?: EPERM;
		fd = err ? -1 : listener_open(family, alpn);
		if (!err && fd < 0)
			err = errno;
		if (write(ready[1], &err, sizeof(err)) != sizeof(err) || err || uid)
			_exit(0);
		sock_timeouts(fd, TIMEO_S);
		serve(fd, name);
	}
	close(ready[1]);
	if (l->pid < 0 || read(ready[0], &l->err, sizeof(l->err)) != sizeof(l->err))
		l->err = EIO;
	close(ready[0]);
	if (l->err || uid)
		listener_stop(l);
}

/* What one client saw: the handshake's result, the protocol agreed and
 * the name of the process that answered.
 */
struct seen {
	int handshake;
	char alpn[64];
	char served[64];
};

static void client_run(int family, uint32_t version, const char *alpn, struct seen *s)
{
	struct quic_config cfg = {};
	struct sockaddr_storage ss;
	socklen_t len = sizeof(cfg), alen = server_addr(family, &ss);
	uint32_t flags = 0;
	size_t got = 0;
	int64_t sid;
	ssize_t n;
	int fd;

	memset(s, 0, sizeof(*s));
	s->handshake = -EIO;
	fd = socket(family, SOCK_STREAM, IPPROTO_QUIC);
	if (fd < 0)
		return;
	sock_timeouts(fd, TIMEO_S);
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len))
		goto out;
	cfg.version = version;
	if (setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, sizeof(cfg)) ||
	    connect(fd, (struct sockaddr *)&ss, alen))
		goto out;
	s->handshake = quic_client_handshake(fd, NULL, HOSTNAME, alpn);
	if (s->handshake)
		goto out;
	len = sizeof(s->alpn) - 1;
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, s->alpn, &len) == 0)
		s->alpn[len] = '\0';
	if (quic_sendmsg(fd, "who", 3, 0, MSG_STREAM_NEW | MSG_STREAM_FIN) != 3)
		goto out;
	while (got < sizeof(s->served) - 1) {
		flags = 0;
		n = quic_recvmsg(fd, s->served + got, sizeof(s->served) - 1 - got, &sid, &flags);
		if (n <= 0)
			break;
		got += n;
		if (flags & MSG_STREAM_FIN)
			break;
	}
	s->served[got] = '\0';
out:
	close(fd);
}

/* A client offering @alpn must reach @name and agree on @agreed. */
static void expect_route(int family, uint32_t version, const char *alpn, const char *name,
			 const char *agreed)
{
	const char *ver = version == QUIC_VERSION_V2 ? "v2" : "v1";
	struct seen s;

	client_run(family, version, alpn, &s);
	if (s.handshake)
		ktap_diag("handshake offering %s: %s", alpn, errno_name(-s.handshake));
	ktap_result(!s.handshake && !strcmp(s.served, name) && !strcmp(s.alpn, agreed),
		    "a %s client offering \"%s\" is served by the %s listener with %s (got %s, %s)",
		    ver, alpn, name, agreed, s.served[0] ? s.served : "nobody",
		    s.alpn[0] ? s.alpn : "no protocol");
}

/* Listeners of @family on one port: the sharing rules, then the routing. */
static void run_family(int family)
{
	const char *fam = family == AF_INET6 ? "IPv6" : "IPv4";
	struct listener smb, web, other;
	struct seen s;

	ktap_subtest_begin(fam);
	ktap_plan(14);

	listener_start(&smb, family, "smb", "smb", 0);
	ktap_result(!smb.err, "a listener for \"smb\" in one process");
	listener_start(&web, family, "h3,hq-interop", "web", 0);
	ktap_result(!web.err, "one for \"h3,hq-interop\" in another, same port");

	listener_start(&other, family, "hq-interop", "other", 0);
	ktap_expect_errno(other.err ? -1 : 0, other.err, EADDRINUSE,
			  "a third listener for a protocol already served");
	listener_start(&other, family, NULL, "other", 0);
	ktap_expect_errno(other.err ? -1 : 0, other.err, EADDRINUSE,
			  "a third listener without protocols");
	listener_start(&other, family, "ftp", "other", NOBODY);
	ktap_expect_errno(other.err ? -1 : 0, other.err, EADDRINUSE,
			  "another user's listener, new protocol and all");

	expect_route(family, QUIC_VERSION_V1, "smb", "smb", "smb");
	expect_route(family, QUIC_VERSION_V1, "hq-interop", "web", "hq-interop");
	expect_route(family, QUIC_VERSION_V1, "h3", "web", "h3");
	expect_route(family, QUIC_VERSION_V1, "h3,smb", "web", "h3");
	expect_route(family, QUIC_VERSION_V1, "smb,h3", "smb", "smb");
	expect_route(family, QUIC_VERSION_V1, "ftp,smb", "smb", "smb");
	expect_route(family, QUIC_VERSION_V2, "smb", "smb", "smb");
	expect_route(family, QUIC_VERSION_V2, "hq-interop", "web", "hq-interop");

	/* Nobody serves it: one listener takes the client, and its TLS ends
	 * the handshake (RFC 7301 Section 3.2, no_application_protocol).
	 */
	client_run(family, QUIC_VERSION_V1, "ftp", &s);
	ktap_result(s.handshake && !s.served[0],
		    "a client offering only \"ftp\" fails its handshake (%s)",
		    s.handshake ? errno_name(-s.handshake) : "it succeeded");

	listener_stop(&smb);
	listener_stop(&web);
	ktap_subtest_end(fam);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		cert_dir = argv[1];
	signal(SIGPIPE, SIG_IGN);
	ktap_plan(2);
	if (access(cert_path("ca.pem"), R_OK) || netns_pair_create(&pair)) {
		ktap_diag("no test credentials in %s or no namespace pair", cert_dir);
		ktap_result(false, "IPv4");
		ktap_result(false, "IPv6");
		return ktap_finish();
	}
	if (netns_enter(&pair, 0)) {
		ktap_diag("entering side 0: %s", errno_name(errno));
		return 1;
	}
	quic_set_ca_file(cert_path("ca.pem"));
	run_family(AF_INET);
	run_family(AF_INET6);
	netns_pair_destroy(&pair);
	return ktap_finish();
}
