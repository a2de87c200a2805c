// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * System calls used the wrong way on live QUIC sockets: several threads
 * sending, receiving and closing one socket at the same time, a close in
 * the middle of the peer's handshake, bad pointers and lengths in
 * sendmsg()/recvmsg() on an established connection, and an unload of the
 * module while sockets are open. Every call must come back with an error
 * (or its data) within its timeout: nothing may hang, and the kernel log
 * must stay free of lockdep and KASAN reports (checked by
 * scripts/selftest.py). Connections are PSK handshakes through libquic
 * across the namespace pair of netns.h (client side 0 in the main thread,
 * server side 1 in a thread of its own).
 *
 * Usage: misuse [certificate directory, default /tests/certs]
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <netinet/quic.h>

#include "ktap.h"
#include "netns.h"
#include "util.h"

#define PORT_BASE	5400
#define TIMEO_S		10
#define ALPN		"quic-selftest"
#define SENDERS		3

static struct netns_pair pair;
static int next_port = PORT_BASE;

static void lib_log(int level, const char *msg)
{
	(void)level;
	ktap_diag("libquic: %s", msg);
}

static struct sockaddr_in server_sin(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };

	sin.sin_addr = pair.addr4[1];
	return sin;
}

/* The server of one connection: mode 0 handshakes, 1 closes the accepted
 * socket before any handshake, 2 handshakes and reports the result.
 */
struct server {
	int port;
	int mode;
	int ready[2];
	int fd;
	int ret;
	bool accepted;		/* accept() returned: the handshake is next */
};

static void *server_main(void *p)
{
	struct server *s = p;
	struct sockaddr_in sin = server_sin(s->port);
	int lfd;

	s->fd = -1;
	s->ret = -1;
	if (netns_enter(&pair, 1))
		goto out;
	lfd = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) || listen(lfd, 1))
		goto out;
	sock_timeouts(lfd, TIMEO_S);
	if (write(s->ready[1], "r", 1) != 1)
		return NULL;
	s->fd = accept(lfd, NULL, NULL);
	close(lfd);
	if (s->fd < 0)
		return NULL;
	sock_timeouts(s->fd, TIMEO_S);
	__atomic_store_n(&s->accepted, true, __ATOMIC_RELEASE);
	if (s->mode == 1) {
		close(s->fd);
		s->fd = -1;
		s->ret = 0;
		return NULL;
	}
	s->ret = quic_server_handshake(s->fd, cert_path("psk-alice.txt"), NULL, ALPN);
	return NULL;
out:
	if (write(s->ready[1], "x", 1) != 1)
		s->ret = -1;
	return NULL;
}

static int server_start(struct server *s, pthread_t *th, int mode)
{
	char c;

	s->port = next_port++;
	s->mode = mode;
	s->accepted = false;
	if (pipe(s->ready) || pthread_create(th, NULL, server_main, s))
		return -1;
	if (read(s->ready[0], &c, 1) != 1 || c != 'r') {
		pthread_join(*th, NULL);
		return -1;
	}
	return 0;
}

static void server_done(struct server *s, pthread_t th)
{
	pthread_join(th, NULL);
	close(s->ready[0]);
	close(s->ready[1]);
}

/* A connected client socket (handshake not run yet), or -1. */
static int client_socket(int port)
{
	struct sockaddr_in sin = server_sin(port);
	int fd = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);

	if (fd < 0)
		return -1;
	sock_timeouts(fd, TIMEO_S);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* An established connection: 0 with both descriptors. */
static int conn_open(int *cli, int *srv)
{
	struct server s;
	pthread_t th;
	int ret = -1;

	*cli = -1;
	*srv = -1;
	if (server_start(&s, &th, 0))
		return -1;
	*cli = client_socket(s.port);
	if (*cli >= 0)
		ret = quic_client_handshake(*cli, cert_path("psk-alice.txt"), NULL, ALPN);
	if (ret && *cli >= 0)
		shutdown(*cli, SHUT_RDWR);
	server_done(&s, th);
	*srv = s.fd;
	if (ret || s.ret) {
		ktap_diag("handshake: client %d, server %d", ret, s.ret);
		return -1;
	}
	return 0;
}

/* --------------------------------------------------- concurrent calls */

struct worker {
	int fd;
	int64_t sid;
	int err;	/* errno of the call that ended the loop, 0 for end of file */
	long calls;
};

static void *sender(void *p)
{
	static char buf[16384];
	struct worker *w = p;
	uint32_t flags = MSG_STREAM_NEW;

	for (;;) {
		__atomic_add_fetch(&w->calls, 1, __ATOMIC_RELAXED);
		if (quic_sendmsg(w->fd, buf, sizeof(buf), w->sid, flags) < 0) {
			w->err = errno;
			return NULL;
		}
		flags = 0;
	}
}

static void *receiver(void *p)
{
	static char buf[65536];
	struct worker *w = p;
	uint32_t flags;
	int64_t sid;
	ssize_t n;

	for (;;) {
		__atomic_add_fetch(&w->calls, 1, __ATOMIC_RELAXED);
		flags = 0;	/* in: recvmsg() flags; out: what came */
		n = quic_recvmsg(w->fd, buf, sizeof(buf), &sid, &flags);
		if (n <= 0) {
			w->err = n ? errno : 0;
			return NULL;
		}
	}
}

/* Join @th within @secs; false if it is still running. */
static bool join_within(pthread_t th, int secs)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += secs;
	return !pthread_timedjoin_np(th, NULL, &ts);
}

static long calls_of(struct worker *w)
{
	return __atomic_load_n(&w->calls, __ATOMIC_RELAXED);
}

/*
 * Every thread is busy in its calls: each sender is past its first
 * sendmsg() (the stream is open and data flows), the client's receiver is
 * in its first recvmsg() and the server's has read something already.
 */
static bool all_busy(void *p)
{
	struct worker *w = p;
	int i;

	for (i = 0; i < SENDERS; i++)
		if (calls_of(&w[i]) < 2)
			return false;
	return calls_of(&w[SENDERS]) >= 1 && calls_of(&w[SENDERS + 1]) >= 2;
}

/*
 * Three threads send on their own streams and one receives on the client
 * while another thread reads everything on the server; the main thread
 * shuts the client down and closes it under their feet. Each thread must
 * come back with an error, end of file or its data, within its timeout.
 */
static void case_concurrent_calls_and_close(void)
{
	struct worker w[SENDERS + 2] = {};
	pthread_t th[SENDERS + 2];
	int cli, srv, i, returned = 0;

	if (conn_open(&cli, &srv)) {
		ktap_result(false, "threads sending, receiving and closing one socket all return");
		ktap_result(false, "the peer sees the connection end");
		return;
	}
	for (i = 0; i < SENDERS; i++) {
		w[i] = (struct worker){ .fd = cli, .sid = 4 * i };
		pthread_create(&th[i], NULL, sender, &w[i]);
	}
	w[SENDERS] = (struct worker){ .fd = cli };
	pthread_create(&th[SENDERS], NULL, receiver, &w[SENDERS]);
	w[SENDERS + 1] = (struct worker){ .fd = srv };
	pthread_create(&th[SENDERS + 1], NULL, receiver, &w[SENDERS + 1]);

	if (!wait_until(all_busy, w, 10 * 1000))
		ktap_diag("the threads did not all get going within 10 s");
	shutdown(cli, SHUT_RDWR);
	close(cli);
	for (i = 0; i < SENDERS + 1; i++) {
		if (join_within(th[i], 3 * TIMEO_S))
			returned++;
		else
			ktap_diag("thread %d still blocked", i);
	}
	for (i = 0; i < SENDERS + 1; i++)
		ktap_diag("client thread %d: %ld calls, ended with %s", i, w[i].calls,
			  w[i].err ? errno_name(w[i].err) : "end of file");
	ktap_result(returned == SENDERS + 1,
		    "threads sending, receiving and closing one socket all return (%d of %d)",
		    returned, SENDERS + 1);
	ktap_result(join_within(th[SENDERS + 1], 3 * TIMEO_S),
		    "the peer sees the connection end (%s after %ld reads)",
		    w[SENDERS + 1].err ? errno_name(w[SENDERS + 1].err) : "end of file",
		    w[SENDERS + 1].calls);
	close(srv);
}

/* ------------------------------------------------ close in a handshake */

/* The server closes the accepted socket before it handshakes: the
 * client's handshake must fail within its timeouts, not hang.
 */
static void case_server_closes_during_handshake(void)
{
	struct server s;
	time_t start = time(NULL);
	pthread_t th;
	int fd, ret = 0;

	if (server_start(&s, &th, 1)) {
		ktap_result(false, "a server closing during the handshake fails the client's");
		return;
	}
	fd = client_socket(s.port);
	if (fd >= 0)
		ret = quic_client_handshake(fd, cert_path("psk-alice.txt"), NULL, ALPN);
	server_done(&s, th);
	ktap_diag("client handshake: %s after %ld s", ret ? errno_name(-ret) : "success",
		  (long)(time(NULL) - start));
	ktap_result(fd >= 0 && ret < 0,
		    "a server closing during the handshake fails the client's, no hang");
	if (fd >= 0)
		close(fd);
}

static bool server_accepted(void *p)
{
	return __atomic_load_n(&((struct server *)p)->accepted, __ATOMIC_ACQUIRE);
}

/* The client closes its socket right after its first flight: the
 * server's handshake must fail within its timeouts.
 */
static void case_client_closes_during_handshake(void)
{
	struct server s;
	time_t start = time(NULL);
	pthread_t th;
	int fd;

	if (server_start(&s, &th, 2)) {
		ktap_result(false, "a client closing during the handshake fails the server's");
		return;
	}
	fd = client_socket(s.port);
	if (fd >= 0) {
		/* A ClientHello's worth of bytes, then gone. */
		static const char hello[64] = "not a ClientHello";
		struct quic_handshake_info hi = { .crypto_level = QUIC_CRYPTO_INITIAL };
		char cbuf[CMSG_SPACE(sizeof(hi))] = {};
		struct iovec iov = { .iov_base = (void *)hello, .iov_len = sizeof(hello) };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

		cm->cmsg_level = SOL_QUIC;
		cm->cmsg_type = QUIC_HANDSHAKE_INFO;
		cm->cmsg_len = CMSG_LEN(sizeof(hi));
		memcpy(CMSG_DATA(cm), &hi, sizeof(hi));
		if (sendmsg(fd, &msg, 0) != sizeof(hello))
			ktap_diag("client: sendmsg: %s", errno_name(errno));
		/* Gone once the server has the connection and starts its handshake. */
		if (!wait_until(server_accepted, &s, TIMEO_S * 1000))
			ktap_diag("the server did not accept within %d s", TIMEO_S);
		close(fd);
	}
	server_done(&s, th);
	ktap_diag("server handshake: %s after %ld s", s.ret ? errno_name(-s.ret) : "success",
		  (long)(time(NULL) - start));
	ktap_result(fd >= 0 && s.ret < 0,
		    "a client closing during the handshake fails the server's, no hang");
	if (s.fd >= 0)
		close(s.fd);
}

/* ------------------------------------------- bad pointers and lengths */

static void case_bad_buffers(void)
{
	struct quic_stream_info si = { .stream_id = 0, .stream_flags = MSG_STREAM_NEW };
	char cbuf[CMSG_SPACE(sizeof(si))] = {}, data[16] = "data";
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	struct pollfd pfd = { .events = POLLIN };
	void *unmapped;
	int cli, srv;
	ssize_t ret;

	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unmapped == MAP_FAILED || conn_open(&cli, &srv)) {
		ktap_result(false, "bad buffers on an established connection (no connection)");
		return;
	}
	pfd.fd = srv;
	cm->cmsg_level = SOL_QUIC;
	cm->cmsg_type = QUIC_STREAM_INFO;
	cm->cmsg_len = CMSG_LEN(sizeof(si));
	memcpy(CMSG_DATA(cm), &si, sizeof(si));

	/* Stream data from memory the process cannot read. */
	iov.iov_base = unmapped;
	ret = sendmsg(cli, &msg, 0);
	ktap_expect_errno(ret, errno, EFAULT, "sendmsg() from an unreadable buffer: EFAULT");
	iov.iov_base = data;

	/* A stream info control message without all of stream_flags (the
	 * reserved bytes after it may be missing: other header generations).
	 */
	cm->cmsg_len = CMSG_LEN(offsetof(struct quic_stream_info, stream_flags) + 3);
	ret = sendmsg(cli, &msg, 0);
	ktap_expect_errno(ret, errno, EINVAL, "sendmsg() with a short stream info: EINVAL");
	cm->cmsg_len = CMSG_LEN(sizeof(si));

	/* Flags that do not exist. */
	si.stream_flags = 0x80000000u;
	memcpy(CMSG_DATA(cm), &si, sizeof(si));
	ret = sendmsg(cli, &msg, 0);
	ktap_expect_errno(ret, errno, EINVAL, "sendmsg() with unknown stream flags: EINVAL");
	si.stream_flags = MSG_STREAM_NEW | MSG_STREAM_FIN;
	memcpy(CMSG_DATA(cm), &si, sizeof(si));

	/* The connection still works: data, then the peer reads into an
	 * unreadable buffer (EFAULT) and, after that, into a good one.
	 */
	ret = sendmsg(cli, &msg, 0);
	ktap_result(ret == sizeof(data), "a good sendmsg() afterwards still sends (%zd)", ret);
	/* The bytes are at the server once it polls readable. */
	if (poll(&pfd, 1, TIMEO_S * 1000) != 1)
		ktap_diag("the server did not become readable: %s", errno_name(errno));
	iov.iov_base = unmapped;
	msg.msg_controllen = sizeof(cbuf);
	ret = recvmsg(srv, &msg, 0);
	ktap_expect_errno(ret, errno, EFAULT, "recvmsg() into an unwritable buffer: EFAULT");
	iov.iov_base = data;
	memset(data, 0, sizeof(data));
	msg.msg_controllen = sizeof(cbuf);
	ret = recvmsg(srv, &msg, 0);
	ktap_result(ret == sizeof(data) && !memcmp(data, "data", 5),
		    "the data is still there for a good recvmsg() (%zd)", ret);

	/* A control buffer the kernel cannot read. */
	msg.msg_control = unmapped;
	msg.msg_controllen = sizeof(cbuf);
	ret = sendmsg(cli, &msg, 0);
	ktap_expect_errno(ret, errno, EFAULT,
			  "sendmsg() with an unreadable control buffer: EFAULT");
	close(cli);
	close(srv);
	munmap(unmapped, 4096);
}

/* --------------------------------------------------------- module */

static void case_module_unload_refused(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);
	long ret;

	/* The socket holds a reference on the module: delete_module() finds
	 * it in use and, not allowed to wait, fails with EWOULDBLOCK.
	 */
	ret = syscall(SYS_delete_module, "quic", O_NONBLOCK);
	ktap_expect_errno(ret, errno, EWOULDBLOCK,
			  "unloading the module with a socket open is refused: EWOULDBLOCK");
	if (fd >= 0)
		close(fd);
}

static int quic_refcnt(void)
{
	return module_refs("quic");
}

/* QUIC sockets (both families) in the namespace of @side, or -1. */
static int sockets_on(int side)
{
	int v4, v6;

	if (netns_enter(&pair, side))
		return -1;
	v4 = proto_sockets("QUIC");
	v6 = proto_sockets("QUICv6");
	netns_enter(&pair, 0);
	return v4 < 0 || v6 < 0 ? -1 : v4 + v6;
}

int main(int argc, char **argv)
{
	int before, after;

	if (argc > 1)
		cert_dir = argv[1];
	signal(SIGPIPE, SIG_IGN);
	quic_set_log_func(lib_log);
	ktap_plan(13);
	close(socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC));	/* load the module */
	/*
	 * The baseline: each QUIC socket holds a reference on the module, so
	 * with none left it is 0. Sockets of an earlier test may still be in
	 * their closing period, and this one's is freed a moment after
	 * close(): wait for them, for a while.
	 */
	before = wait_value(quic_refcnt, 0, 30 * 1000);
	if (before)
		ktap_diag("module refcount %d at the start, not 0: held from before", before);
	if (netns_pair_create(&pair) || netns_enter(&pair, 0))
		return ktap_finish();
	case_concurrent_calls_and_close();
	case_server_closes_during_handshake();
	case_client_closes_during_handshake();
	case_bad_buffers();
	case_module_unload_refused();

	/*
	 * Sockets closed above linger through their closing period; then
	 * every one of them must be gone, with its module reference: the
	 * count must come back to the baseline exactly, a single socket or
	 * reference left over fails.
	 */
	after = wait_value(quic_refcnt, before, 30 * 1000);
	ktap_diag("QUIC sockets left in the test's namespaces: %d and %d", sockets_on(0),
		  sockets_on(1));
	netns_pair_destroy(&pair);
	ktap_result(after >= 0 && after == before,
		    "every socket of the test is freed: module refcount %d again (%d)", before,
		    after);
	return ktap_finish();
}
