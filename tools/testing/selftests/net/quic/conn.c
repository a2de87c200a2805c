// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A QUIC connection between two network namespaces over veth (netns.h):
 * a server on side 1, a client on side 0, over IPv4 and IPv6.
 *
 * The TLS handshake is played by the stand-in of standin.h.
 *
 * Then: 1 MiB on one stream each way, 99 streams of 4 KiB each way, every
 * byte checked; the IPv6 run uses non-blocking sockets and poll(). A plain
 * close is seen by the peer as end of file; in the IPv6 run the client
 * closes with an application error code and reason phrase
 * (QUIC_SOCKOPT_CONNECTION_CLOSE), which the server reads back after
 * ECONNRESET (RFC 9000 Section 10.2). An idle connection ends with
 * ETIMEDOUT (Section 10.1).
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/tls.h>
#include <linux/quic.h>

#include "ktap.h"
#include "netns.h"
#include "standin.h"

#define PORT		4433
#define BIG		(1024 * 1024)
#define SMALL		4096
#define NSTREAMS	99
#define CHUNK		(64 * 1024)
#define TIMEO_S		20

struct run {
	int family;
	bool nonblock;
	unsigned int idle_ms;	/* 0: the default idle timeout */
	uint32_t close_code;	/* nonzero: the client closes with this code */
};

static const char close_phrase[] = "client done";

/* Room for a struct quic_connection_close and its longest phrase. */
union close_buf {
	struct quic_connection_close cc;
	uint8_t bytes[sizeof(struct quic_connection_close) + 81];
};

/* The close the server reads back is the client's code and phrase. */
static bool close_code_seen(int fd, uint32_t code)
{
	union close_buf b = {};
	socklen_t len = sizeof(b);

	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &b, &len))
		return false;
	return b.cc.errcode == code && !b.cc.frame &&
	       !strcmp((const char *)b.cc.phrase, close_phrase);
}

static int set_close_code(int fd, uint32_t code)
{
	union close_buf b = {};

	b.cc.errcode = code;
	strcpy((char *)b.cc.phrase, close_phrase);
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &b,
			  offsetof(struct quic_connection_close, phrase) + sizeof(close_phrase));
}

static uint8_t pattern(uint64_t stream, size_t i, bool from_client)
{
	return (uint8_t)(i * 31 + (i >> 11) + stream * 7 + (from_client ? 1 : 101));
}

static void fill(uint8_t *buf, size_t off, size_t len, uint64_t stream, bool from_client)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pattern(stream, off + i, from_client);
}

static int set_idle(int fd, unsigned int ms)
{
	struct quic_transport_param p = { 0 };
	socklen_t len = sizeof(p);

	if (!ms)
		return 0;
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, &len))
		return -1;
	p.max_idle_timeout = ms * 1000;
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, sizeof(p));
}

static int send_stream(int fd, int64_t id, size_t len, bool from_client, bool open)
{
	static uint8_t buf[CHUNK];
	struct quic_stream_info si = { .stream_id = id };
	size_t off, n;

	for (off = 0; off < len; off += n) {
		n = len - off < CHUNK ? len - off : CHUNK;
		fill(buf, off, n, id, from_client);
		si.stream_flags = (open && !off ? MSG_STREAM_NEW : 0) |
				  (off + n == len ? MSG_STREAM_FIN : 0);
		CHECK(quic_send(fd, QUIC_STREAM_INFO, &si, sizeof(si), buf, n) == (ssize_t)n,
		      "stream sendmsg");
	}
	return 0;
}

/* Read @count streams (0, or 4..4*count) of @len bytes each until their FIN. */
static int recv_streams(int fd, int first, int count, size_t len, bool from_client)
{
	static size_t got[NSTREAMS + 1];
	static uint8_t buf[CHUNK];
	struct quic_stream_info si;
	int done = 0, idx;
	ssize_t n, i;

	memset(got, 0, sizeof(got));
	while (done < count) {
		n = quic_recv(fd, QUIC_STREAM_INFO, &si, sizeof(si), buf, sizeof(buf));
		CHECK(n >= 0, "stream recvmsg");
		idx = si.stream_id / 4;
		CHECK(si.stream_id % 4 == 0 && idx >= first && idx < first + count,
		      "data on an unexpected stream");
		for (i = 0; i < n; i++)
			CHECK(buf[i] == pattern(si.stream_id, got[idx] + i, from_client),
			      "stream data differs");
		got[idx] += n;
		CHECK(got[idx] <= len, "more stream data than sent");
		if (si.stream_flags & MSG_STREAM_FIN) {
			CHECK(got[idx] == len, "FIN before all the data");
			done++;
		} else {
			CHECK(n > 0, "end of file in a stream");
		}
	}
	return 0;
}

static void timeouts(int fd)
{
	struct timeval tv = { .tv_sec = TIMEO_S };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* Side 1: accept one connection and answer what the client does. */
static int server(const struct netns_pair *p, const struct run *r, int ready)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(PORT),
				   .sin6_addr = p->addr6[1] };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(PORT),
				  .sin_addr = p->addr4[1] };
	uint8_t byte;
	int lfd, fd, i;

	CHECK(!netns_enter(p, 1), "enter side 1");
	lfd = socket(r->family, SOCK_STREAM, IPPROTO_QUIC);
	CHECK(lfd >= 0, "server socket");
	timeouts(lfd);
	CHECK(!set_idle(lfd, r->idle_ms), "server idle timeout");
	CHECK(!bind(lfd, r->family == AF_INET ? (struct sockaddr *)&a4 : (struct sockaddr *)&a6,
		    r->family == AF_INET ? sizeof(a4) : sizeof(a6)), "bind");
	CHECK(!listen(lfd, 4), "listen");
	CHECK(write(ready, "r", 1) == 1, "ready");
	fd = accept(lfd, NULL, NULL);
	CHECK(fd >= 0, "accept");
	timeouts(fd);
	if (r->nonblock)
		fcntl(fd, F_SETFL, O_NONBLOCK);
	CHECK(!handshake(fd, false), "server handshake");

	if (r->idle_ms) {
		/* Nothing more is sent: the connection must time out. */
		CHECK(quic_recv(fd, QUIC_STREAM_INFO, &byte, 1, &byte, 1) < 0 &&
		      errno == ETIMEDOUT, "idle timeout");
		return 0;
	}
	CHECK(!recv_streams(fd, 0, 1, BIG, true), "1 MiB from the client");
	CHECK(!send_stream(fd, 0, BIG, false, false), "1 MiB to the client");
	CHECK(!recv_streams(fd, 1, NSTREAMS, SMALL, true), "streams from the client");
	for (i = 1; i <= NSTREAMS; i++)
		CHECK(!send_stream(fd, 4 * i, SMALL, false, false), "streams to the client");
	if (r->close_code) {
		/* The client closes with an application error. */
		CHECK(quic_recv(fd, QUIC_STREAM_INFO, &byte, 1, &byte, 1) < 0 &&
		      errno == ECONNRESET, "close with an error code seen");
		CHECK(close_code_seen(fd, r->close_code), "the client's code and phrase");
	} else {
		/* The client closes: end of file. */
		CHECK(quic_recv(fd, QUIC_STREAM_INFO, &byte, 1, &byte, 1) == 0, "close seen");
	}
	close(fd);
	close(lfd);
	return 0;
}

static double elapsed(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void client(const struct netns_pair *p, const struct run *r, const char *name)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(PORT),
				   .sin6_addr = p->addr6[1] };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(PORT),
				  .sin_addr = p->addr4[1] };
	struct timespec t0;
	bool ok;
	int fd, i;

	netns_enter(p, 0);
	fd = socket(r->family, SOCK_STREAM, IPPROTO_QUIC);
	ok = fd >= 0 && !set_idle(fd, r->idle_ms);
	if (ok) {
		timeouts(fd);
		ok = !connect(fd, r->family == AF_INET ? (struct sockaddr *)&a4 :
			      (struct sockaddr *)&a6,
			      r->family == AF_INET ? sizeof(a4) : sizeof(a6));
		if (ok && r->nonblock)
			fcntl(fd, F_SETFL, O_NONBLOCK);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ok = ok && !handshake(fd, true);
	ktap_result(ok, "%s: handshake completes", name);
	ktap_diag("%s: handshake %.2f s", name, elapsed(&t0));
	if (r->idle_ms) {
		uint8_t byte;

		ktap_result(ok && quic_recv(fd, QUIC_STREAM_INFO, &byte, 1, &byte, 1) < 0 &&
			    errno == ETIMEDOUT, "%s: an idle connection times out", name);
		close(fd);
		netns_enter(p, -1);
		return;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ok = ok && !send_stream(fd, 0, BIG, true, true) && !recv_streams(fd, 0, 1, BIG, false);
	ktap_result(ok, "%s: 1 MiB each way on one stream, byte-exact", name);
	ktap_diag("%s: 2 MiB in %.2f s", name, elapsed(&t0));

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 1; ok && i <= NSTREAMS; i++)
		ok = !send_stream(fd, 4 * i, SMALL, true, true);
	ok = ok && !recv_streams(fd, 1, NSTREAMS, SMALL, false);
	ktap_result(ok, "%s: %d streams of 4 KiB each way, byte-exact", name, NSTREAMS);
	ktap_diag("%s: %d streams in %.2f s", name, NSTREAMS, elapsed(&t0));
	if (ok && r->close_code && set_close_code(fd, r->close_code))
		ktap_diag("%s: QUIC_SOCKOPT_CONNECTION_CLOSE: %s", name, errno_name(errno));
	if (fd >= 0)
		close(fd);
	netns_enter(p, -1);
}

static void one_run(const struct netns_pair *p, const struct run *r, const char *name,
		    int results)
{
	int pipefd[2], status = -1, i;
	pid_t pid;
	char c;

	if (pipe(pipefd)) {
		for (i = 0; i < results; i++)
			ktap_result(false, "%s: pipe", name);
		return;
	}
	pid = fork();
	if (!pid) {
		close(pipefd[0]);
		alarm(120);
		_exit(server(p, r, pipefd[1]) ? 1 : 0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &c, 1) != 1)
		ktap_diag("%s: server did not start", name);
	close(pipefd[0]);
	client(p, r, name);
	waitpid(pid, &status, 0);
	ktap_result(WIFEXITED(status) && !WEXITSTATUS(status),
		    "%s: the server saw everything, then the close", name);
}

int main(void)
{
	static const struct run v4 = { .family = AF_INET };
	static const struct run v6 = { .family = AF_INET6, .nonblock = true,
				       .close_code = 0x1234 };
	static const struct run idle = { .family = AF_INET, .idle_ms = 1000 };
	struct netns_pair p;

	ktap_plan(4 + 4 + 3);
	if (netns_pair_create(&p)) {
		for (int i = 0; i < 4 + 4 + 3; i++)
			ktap_result(false, "no namespace pair for the connections");
		return ktap_finish();
	}
	one_run(&p, &v4, "IPv4, blocking", 4);
	one_run(&p, &v6, "IPv6, non-blocking with poll", 4);
	one_run(&p, &idle, "idle timeout", 3);
	netns_pair_destroy(&p);
	return ktap_finish();
}
