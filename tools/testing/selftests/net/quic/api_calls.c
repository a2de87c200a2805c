// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "api" cases for the draft's Section 3 (Interface): the calls of a client
 * and of a server, socket() to close(), send()/recv() and the libquic
 * wrappers.
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "api.h"
#include "ktap.h"
#include "util.h"

/* An unknown bit in both the MSG_* and the stream flag spaces. */
#define UNKNOWN_FLAG	0x00400000

/* A UDP socket on side 1 standing where a QUIC server would be. */
static int udp_server(int port)
{
	struct sockaddr_storage ss;
	socklen_t len = side_addr(1, AF_INET, port, &ss);
	int fd = socket_in(1, AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, len))
		return -1;
	return fd;
}

/* A listener with a client whose ClientHello was accepted: *@acc is the new socket. */
static int hello_accepted(int *lfd, int *cli, int *acc)
{
	static struct hello h;
	int port = new_port();

	*lfd = listener(AF_INET, port, NULL);
	SETUP(*lfd >= 0, "listener");
	*cli = client_to(AF_INET, port);
	SETUP(*cli >= 0, "client");
	SETUP(!hello_send(*cli, API_ALPN, &h), "ClientHello");
	*acc = keep(accept(*lfd, NULL, NULL));
	SETUP(*acc >= 0, "accept");
	return 0;
}

static int drop(int fd)
{
	/* The runner closes it too; by then the number may be free again. */
	return close(dup2(fd, fd));
}

/* ------------------------------------------------------------ Interface */

int c_connect_silent(void)
{
	int port = new_port();
	int u = udp_server(port), cli;

	SETUP(u >= 0, "UDP socket");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0, "connect");
	CHECK(!readable(u, 300), "a datagram arrived after connect()");
	return 1;
}

int c_accept_queues_hello(void)
{
	union {
		char buf[CMSG_SPACE(8)];
		struct cmsghdr align;
	} cb;
	uint8_t data[2048];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cb.buf,
			    .msg_controllen = sizeof(cb.buf) };
	struct cmsghdr *cm;
	int lfd, cli, acc;
	ssize_t n;

	if (hello_accepted(&lfd, &cli, &acc))
		return -1;
	n = recvmsg(acc, &m, MSG_DONTWAIT);
	CHECK(n > 4, "recvmsg on the accepted socket: %zd", n);
	cm = CMSG_FIRSTHDR(&m);
	CHECK(cm && cm->cmsg_level == SOL_QUIC && cm->cmsg_type == QUIC_HANDSHAKE_INFO,
	      "no QUIC_HANDSHAKE_INFO with it");
	CHECK(*CMSG_DATA(cm) == QUIC_CRYPTO_INITIAL, "level %u", *CMSG_DATA(cm));
	CHECK(data[0] == 1, "the message is of TLS type %u, not ClientHello", data[0]);
	return 1;
}

/* ------------------------------------------------------------- socket() */

int c_socket_kinds(void)
{
	static const int fam[] = { AF_INET, AF_INET6 }, type[] = { SOCK_STREAM, SOCK_DGRAM };
	unsigned int i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			CHECK(keep(socket(fam[i], type[j], IPPROTO_QUIC)) >= 0,
			      "socket(%d, %d, IPPROTO_QUIC)", fam[i], type[j]);
	return 1;
}

int c_socket_inet_v4_only(void)
{
	struct sockaddr_storage ss;
	socklen_t len = side_addr(0, AF_INET6, 0, &ss);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(bind(fd, (struct sockaddr *)&ss, len) == -1, "an IPv6 address was bound");
	len = side_addr(1, AF_INET6, 4433, &ss);
	CHECK(connect(fd, (struct sockaddr *)&ss, len) == -1, "an IPv6 peer was taken");
	return 1;
}

int c_socket_inet6_takes_v4(void)
{
	struct sockaddr_in6 any = { .sin6_family = AF_INET6 };
	struct sockaddr_storage peer;
	socklen_t plen = sizeof(peer);
	static struct hello h;
	int port = new_port(), lfd, cli, acc;

	any.sin6_port = htons(port);
	lfd = socket_in(1, AF_INET6, SOCK_DGRAM, IPPROTO_QUIC);
	SETUP(lfd >= 0 && !bind(lfd, (struct sockaddr *)&any, sizeof(any)) && !listen(lfd, 2),
	      "IPv6 wildcard listener");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0 && !hello_send(cli, API_ALPN, &h), "IPv4 client");
	CHECK(readable(lfd, 2000), "the IPv6 listener did not take the IPv4 client");
	acc = keep(accept(lfd, (struct sockaddr *)&peer, &plen));
	CHECK(acc >= 0, "accept");
	return 1;
}

/* --------------------------------------------------------------- bind() */

int c_bind_twice(void)
{
	struct sockaddr_storage ss;
	socklen_t len = side_addr(0, AF_INET, 0, &ss);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0 && !bind(fd, (struct sockaddr *)&ss, len), "first bind");
	CHECK(bind(fd, (struct sockaddr *)&ss, len) == -1 && errno == EINVAL,
	      "second bind not EINVAL");
	return 1;
}

int c_bind_shared(void)
{
	struct sockaddr_storage ss;
	socklen_t len = side_addr(1, AF_INET, new_port(), &ss);
	int a = socket_in(1, AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	int b = socket_in(1, AF_INET, SOCK_DGRAM, IPPROTO_QUIC);

	SETUP(a >= 0 && b >= 0, "sockets");
	CHECK(!bind(a, (struct sockaddr *)&ss, len), "first socket");
	CHECK(!bind(b, (struct sockaddr *)&ss, len), "second socket on the same address");
	return 1;
}

int c_bind_ephemeral(void)
{
	struct sockaddr_storage ss;
	socklen_t len = side_addr(0, AF_INET6, 0, &ss);
	int fd = keep(socket(AF_INET6, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!bind(fd, (struct sockaddr *)&ss, len), "bind");
	len = sizeof(ss);
	CHECK(!getsockname(fd, (struct sockaddr *)&ss, &len), "getsockname");
	CHECK(((struct sockaddr_in6 *)&ss)->sin6_port != 0, "port still 0");
	return 1;
}

int c_bind_wildcard(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(new_port()) };
	struct sockaddr_in got;
	socklen_t len = sizeof(got);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!bind(fd, (struct sockaddr *)&a, sizeof(a)), "bind INADDR_ANY");
	CHECK(!getsockname(fd, (struct sockaddr *)&got, &len), "getsockname");
	CHECK(got.sin_addr.s_addr == INADDR_ANY && got.sin_port == a.sin_port,
	      "bound to %s:%u", inet_ntoa(got.sin_addr), ntohs(got.sin_port));
	return 1;
}

int c_bind_by_connect(void)
{
	struct sockaddr_in got;
	socklen_t len = sizeof(got);
	int cli = client_to(AF_INET, new_port());

	SETUP(cli >= 0, "connect");
	CHECK(!getsockname(cli, (struct sockaddr *)&got, &len), "getsockname");
	CHECK(got.sin_addr.s_addr == pair.addr4[0].s_addr && got.sin_port,
	      "bound to %s:%u", inet_ntoa(got.sin_addr), ntohs(got.sin_port));
	return 1;
}

int c_bind_not_listening(void)
{
	struct sockaddr_storage ss;
	socklen_t len = side_addr(1, AF_INET, new_port(), &ss);
	int fd = socket_in(1, AF_INET, SOCK_DGRAM, IPPROTO_QUIC);

	SETUP(fd >= 0 && !bind(fd, (struct sockaddr *)&ss, len), "bound socket");
	CHECK(accept4(fd, NULL, NULL, SOCK_NONBLOCK) == -1 && errno == EINVAL,
	      "accept() on a bound socket not EINVAL");
	return 1;
}

/* ------------------------------------------------------------- listen() */

int c_listen_backlog(void)
{
	static struct hello h;
	int port = new_port();
	int lfd = listener(AF_INET, port, NULL), cli;

	SETUP(lfd >= 0, "listener");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0 && !hello_send(cli, API_ALPN, &h), "client");
	CHECK(readable(lfd, 2000), "no connection to accept");
	CHECK(keep(accept(lfd, NULL, NULL)) >= 0, "accept");
	return 1;
}

int c_listen_zero(void)
{
	int lfd = listener(AF_INET, new_port(), NULL);

	SETUP(lfd >= 0, "listener");
	CHECK(!listen(lfd, 0), "listen(0)");
	CHECK(accept4(lfd, NULL, NULL, SOCK_NONBLOCK) == -1 && errno == EINVAL,
	      "accept() after listen(0) not EINVAL: still listening");
	return 1;
}

int c_listen_alpn_route(void)
{
	static struct hello h;
	int port = new_port();
	int one = listener(AF_INET, port, "api-one");
	int two = listener(AF_INET, port, "api-two");
	int cli;

	SETUP(one >= 0 && two >= 0, "listeners");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0 && !hello_send(cli, "api-two", &h), "client");
	CHECK(readable(two, 2000), "the listener of api-two got nothing");
	CHECK(!readable(one, 0), "the listener of api-one got it too");
	return 1;
}

int c_listen_no_alpn(void)
{
	static struct hello h;
	int port = new_port();
	int lfd = listener(AF_INET, port, NULL), cli;

	SETUP(lfd >= 0, "listener");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0 && !hello_send(cli, "api-one", &h), "client");
	CHECK(!readable(lfd, 500), "a listener without ALPN took a client offering one");
	return 1;
}

/* ------------------------------------------------------------- accept() */

int c_accept_addr(void)
{
	struct sockaddr_in peer, local;
	socklen_t plen = sizeof(peer), llen = sizeof(local);
	static struct hello h;
	int port = new_port();
	int lfd = listener(AF_INET, port, NULL), cli, acc;

	SETUP(lfd >= 0, "listener");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0 && !hello_send(cli, API_ALPN, &h), "client");
	SETUP(!getsockname(cli, (struct sockaddr *)&local, &llen), "getsockname");
	acc = keep(accept(lfd, (struct sockaddr *)&peer, &plen));
	CHECK(acc >= 0 && acc != lfd, "accept");
	CHECK(plen == sizeof(peer) && peer.sin_family == AF_INET &&
	      peer.sin_addr.s_addr == local.sin_addr.s_addr && peer.sin_port == local.sin_port,
	      "peer %s:%u", inet_ntoa(peer.sin_addr), ntohs(peer.sin_port));
	return 1;
}

/* ------------------------------------------------------------ connect() */

int c_connect_first(void)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct quic_handshake_info))];
		struct cmsghdr align;
	} cb = {};
	struct iovec iov = { "\x01\x00\x00\x00", 4 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cb.buf,
			    .msg_controllen = sizeof(cb.buf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	cm->cmsg_level = SOL_QUIC;
	cm->cmsg_type = QUIC_HANDSHAKE_INFO;
	cm->cmsg_len = CMSG_LEN(sizeof(struct quic_handshake_info));
	*CMSG_DATA(cm) = QUIC_CRYPTO_INITIAL;
	CHECK(sendmsg(fd, &m, MSG_DONTWAIT) == -1, "a handshake message went out unconnected");
	ktap_diag("refused with %s", errno_name(errno));
	return 1;
}

/* -------------------------------------------------------------- close() */

int c_close_sends_close(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_CONNECTION_CLOSE) };
	uint8_t ev[128];
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	SETUP(!drop(c.cli), "close");
	CHECK(wait_event(c.srv, QUIC_EVENT_CONNECTION_CLOSE, ev, sizeof(ev), 3000) >= 4,
	      "the server heard of no close");
	return 1;
}

int c_close_info(void)
{
	struct {
		struct quic_connection_close cc;
		char phrase[8];
	} set = { .cc.errcode = 0x1234 }, got;
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_CONNECTION_CLOSE) };
	size_t plen = offsetof(struct quic_connection_close, phrase) + 4;
	socklen_t len = sizeof(got);
	uint8_t ev[128];
	struct conn c;

	memcpy((char *)&set + offsetof(struct quic_connection_close, phrase), "bye", 4);
	if (conn_open(&o, &c))
		return -1;
	SETUP(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &set, plen),
	      "CONNECTION_CLOSE set");
	SETUP(!drop(c.cli), "close");
	SETUP(wait_event(c.srv, QUIC_EVENT_CONNECTION_CLOSE, ev, sizeof(ev), 3000) >= 4,
	      "close event");
	memset(&got, 0, sizeof(got));
	CHECK(!getsockopt(c.srv, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &got, &len),
	      "CONNECTION_CLOSE get");
	CHECK(got.cc.errcode == 0x1234, "errcode %#x", got.cc.errcode);
	CHECK(!strcmp((char *)&got + offsetof(struct quic_connection_close, phrase), "bye"),
	      "phrase differs");
	return 1;
}

int c_close_then_ebadf(void)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);

	SETUP(fd >= 0, "socket");
	CHECK(!close(fd), "close");
	CHECK(getsockname(fd, (struct sockaddr *)&ss, &len) == -1 && errno == EBADF,
	      "the descriptor still works");
	return 1;
}

/* ----------------------------------------------------------- shutdown() */

static int shut_closes(int how)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_CONNECTION_CLOSE) };
	uint8_t ev[128];
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	CHECK(!shutdown(c.cli, how), "shutdown");
	CHECK(wait_event(c.srv, QUIC_EVENT_CONNECTION_CLOSE, ev, sizeof(ev), 3000) >= 4,
	      "the server heard of no close");
	return 1;
}

int c_shut_wr(void)
{
	return shut_closes(SHUT_WR);
}

int c_shut_rdwr(void)
{
	return shut_closes(SHUT_RDWR);
}

int c_shut_rd_discards(void)
{
	struct conn c;
	char buf[8];

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.srv, "abc", 3, 1, MSG_QUIC_STREAM_NEW) == 3, "server send");
	SETUP(readable(c.cli, 3000), "data at the client");
	CHECK(!shutdown(c.cli, SHUT_RD), "shutdown(SHUT_RD)");
	CHECK(recv(c.cli, buf, sizeof(buf), MSG_DONTWAIT) <= 0,
	      "the data queued before SHUT_RD is still readable");
	return 1;
}

int c_shut_wr_again(void)
{
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	SETUP(!shutdown(c.cli, SHUT_WR), "first shutdown");
	CHECK(!shutdown(c.cli, SHUT_WR), "second shutdown(SHUT_WR)");
	return 1;
}

struct blocked {
	int fd;
	int what;	/* 0 recv, 1 accept, 2 send */
	volatile pid_t tid;
	ssize_t ret;
};

static void *block_main(void *p)
{
	struct blocked *b = p;
	static char big[1 << 20];

	b->tid = gettid();
	if (b->what == 0)
		b->ret = recv(b->fd, big, 16, 0);
	else if (b->what == 1)
		b->ret = accept(b->fd, NULL, NULL);
	else
		b->ret = quic_sendmsg(b->fd, big, sizeof(big), 0, MSG_QUIC_STREAM_NEW);
	return NULL;
}

/* Is the thread of @arg asleep (in the call it was started for)? */
static bool asleep(void *arg)
{
	const struct blocked *b = arg;
	char path[64], buf[256], *p;

	if (!b->tid)
		return false;
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", b->tid);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return false;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/* Does shutdown(SHUT_RDWR) of @fd end a call blocked in it within 2 s? */
static int unblocks(int fd, int what)
{
	struct blocked b = { .fd = fd, .what = what };
	struct timespec ts;
	pthread_t th;
	int r;

	SETUP(!pthread_create(&th, NULL, block_main, &b), "thread");
	if (!wait_until(asleep, &b, 2000)) {
		pthread_join(th, NULL);
		return fail("the call did not block");
	}
	SETUP(!shutdown(fd, SHUT_RDWR), "shutdown");
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 2;
	r = pthread_timedjoin_np(th, NULL, &ts);
	if (r) {
		pthread_join(th, NULL);	/* the socket timeout ends it */
		return fail("still blocked 2 s after shutdown");
	}
	if (what == 1 && b.ret >= 0)
		keep(b.ret);
	return 1;
}

int c_shut_unblocks_recv(void)
{
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	return unblocks(c.cli, 0);
}

int c_shut_unblocks_accept(void)
{
	int lfd = listener(AF_INET, new_port(), NULL);

	SETUP(lfd >= 0, "listener");
	return unblocks(lfd, 1);
}

int c_shut_unblocks_send(void)
{
	struct conn_opts o = { .srv_stream_data = 16384 };
	int sndbuf = 32768;
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	setsockopt(c.cli, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	return unblocks(c.cli, 2);
}

/* ---------------------------------------------------- sendmsg()/recvmsg() */

int c_sendmsg_count(void)
{
	static char out[1000], in[1000];
	struct conn c;
	bool fin;

	memset(out, 'q', sizeof(out));
	if (conn_open(NULL, &c))
		return -1;
	CHECK(quic_sendmsg(c.cli, out, sizeof(out), 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN)
	      == sizeof(out), "sendmsg did not return the length");
	CHECK(read_stream(c.srv, 0, in, sizeof(in), &fin) == sizeof(in) && fin &&
	      !memcmp(in, out, sizeof(in)), "the peer got something else");
	return 1;
}

static ssize_t send_info(int fd, struct iovec *iov, int n, int64_t sid, uint32_t sflags,
			 int flags, int msg_flags, void *name, socklen_t namelen)
{
	struct quic_stream_info si = { .stream_id = sid, .stream_flags = sflags };
	union {
		char buf[CMSG_SPACE(sizeof(si))];
		struct cmsghdr align;
	} cb = {};
	struct msghdr m = { .msg_name = name, .msg_namelen = namelen, .msg_iov = iov,
			    .msg_iovlen = n, .msg_control = cb.buf,
			    .msg_controllen = sizeof(cb.buf), .msg_flags = msg_flags };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

	cm->cmsg_level = SOL_QUIC;
	cm->cmsg_type = QUIC_STREAM_INFO;
	cm->cmsg_len = CMSG_LEN(sizeof(si));
	memcpy(CMSG_DATA(cm), &si, sizeof(si));
	return sendmsg(fd, &m, flags);
}

int c_sendmsg_iov_one(void)
{
	struct iovec iov[2] = { { "ab", 2 }, { "cd", 2 } };
	struct conn c;
	char in[8];
	uint32_t f;
	int64_t sid;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(send_info(c.cli, iov, 2, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN, 0, 0,
			NULL, 0) == 4, "sendmsg");
	CHECK(recv_info(c.srv, in, sizeof(in), &sid, &f, 0) == 4 && !memcmp(in, "abcd", 4) &&
	      (f & MSG_QUIC_STREAM_FIN), "the peer did not read one message \"abcd\" with FIN");
	return 1;
}

int c_sendmsg_name_ignored(void)
{
	struct sockaddr_storage ss;
	socklen_t len = side_addr(1, AF_INET, 9, &ss);
	struct iovec iov = { "xy", 2 };
	struct conn c;
	char in[8];
	bool fin;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(send_info(c.cli, &iov, 1, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN, 0, 0,
			&ss, len) == 2, "sendmsg with msg_name");
	CHECK(read_stream(c.srv, 0, in, 2, &fin) == 2 && !memcmp(in, "xy", 2),
	      "the peer did not get it");
	return 1;
}

int c_sendmsg_msgflags_ignored(void)
{
	struct iovec a = { "ab", 2 }, b = { "cd", 2 };
	struct conn c;
	char in[8];
	bool fin;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(send_info(c.cli, &a, 1, 0, MSG_QUIC_STREAM_NEW, 0, MSG_QUIC_STREAM_FIN, NULL, 0)
	      == 2, "first sendmsg");
	CHECK(send_info(c.cli, &b, 1, 0, MSG_QUIC_STREAM_FIN, 0, 0, NULL, 0) == 2,
	      "the stream was ended by msg_flags");
	CHECK(read_stream(c.srv, 0, in, 8, &fin) == 4 && fin && !memcmp(in, "abcd", 4),
	      "the peer read something else");
	return 1;
}

int c_msg_more(void)
{
	struct iovec a = { "ab", 2 }, b = { "cd", 2 };
	struct conn c;
	char in[8];
	bool fin;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(send_info(c.cli, &a, 1, 0, MSG_QUIC_STREAM_NEW, MSG_MORE, 0, NULL, 0) == 2,
	      "sendmsg with MSG_MORE");
	CHECK(!readable(c.srv, 300), "data held by MSG_MORE went out");
	CHECK(send_info(c.cli, &b, 1, 0, MSG_QUIC_STREAM_FIN, 0, 0, NULL, 0) == 2,
	      "sendmsg without it");
	CHECK(read_stream(c.srv, 0, in, 8, &fin) == 4 && fin && !memcmp(in, "abcd", 4),
	      "the peer read something else");
	return 1;
}

int c_msg_dontwait_send(void)
{
	struct conn_opts o = { .srv_stream_data = 16384 };
	static char chunk[16384];
	int sndbuf = 32768, i;
	struct iovec iov = { chunk, sizeof(chunk) };
	struct conn c;
	ssize_t n = 0;

	if (conn_open(&o, &c))
		return -1;
	setsockopt(c.cli, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	for (i = 0; i < 4096; i++) {
		n = send_info(c.cli, &iov, 1, 0, i ? 0 : MSG_QUIC_STREAM_NEW, MSG_DONTWAIT, 0,
			      NULL, 0);
		if (n < 0)
			break;
	}
	CHECK(n == -1 && errno == EAGAIN, "no EAGAIN after %d sends", i);
	return 1;
}

static int dgram_conn(struct conn *c)
{
	struct conn_opts o = { .dgram = 1200 };

	return conn_open(&o, c);
}

int c_sendmsg_flag_dgram(void)
{
	struct iovec iov = { "dgram", 5 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct conn c;
	uint32_t f;
	char in[16];

	if (dgram_conn(&c))
		return -1;
	CHECK(sendmsg(c.cli, &m, MSG_QUIC_DATAGRAM) == 5, "sendmsg(MSG_QUIC_DATAGRAM)");
	CHECK(recv_info(c.srv, in, sizeof(in), NULL, &f, 0) == 5 && (f & MSG_QUIC_DATAGRAM) &&
	      !memcmp(in, "dgram", 5), "the peer did not read a datagram");
	return 1;
}

int c_recv_dontwait(void)
{
	struct conn c;
	char in[8];

	if (conn_open(NULL, &c))
		return -1;
	CHECK(recv(c.cli, in, sizeof(in), MSG_DONTWAIT) == -1 && errno == EAGAIN,
	      "recv(MSG_DONTWAIT) on an empty queue");
	return 1;
}

int c_recv_flag_dgram(void)
{
	struct iovec iov;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct conn c;
	char in[16];

	if (dgram_conn(&c))
		return -1;
	SETUP(send(c.cli, "dgram", 5, MSG_QUIC_DATAGRAM) == 5, "send");
	iov.iov_base = in;
	iov.iov_len = sizeof(in);
	CHECK(recvmsg(c.srv, &m, 0) == 5 && (m.msg_flags & MSG_QUIC_DATAGRAM),
	      "msg_flags %#x", m.msg_flags);
	return 1;
}

int c_recv_flag_notification(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	struct iovec iov;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct conn c;
	char in[64];
	ssize_t n;
	int i;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1,
	      "send");
	for (i = 0; i < 8; i++) {
		iov.iov_base = in;
		iov.iov_len = sizeof(in);
		m.msg_flags = 0;
		n = recvmsg(c.srv, &m, 0);
		CHECK(n > 0, "recvmsg");
		if (m.msg_flags & MSG_QUIC_NOTIFICATION)
			break;
	}
	CHECK(i < 8 && in[0] == QUIC_EVENT_STREAM_UPDATE, "no message had MSG_QUIC_NOTIFICATION");
	return 1;
}

int c_recv_eor(void)
{
	struct iovec iov;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct conn c;
	char in[64];

	if (dgram_conn(&c))
		return -1;
	SETUP(send(c.cli, "whole", 5, MSG_QUIC_DATAGRAM) == 5, "send");
	iov.iov_base = in;
	iov.iov_len = sizeof(in);
	CHECK(recvmsg(c.srv, &m, 0) == 5, "recvmsg");
	CHECK(m.msg_flags & MSG_EOR, "no MSG_EOR on a message read whole (%#x)", m.msg_flags);
	return 1;
}

int c_recv_eor_pieces(void)
{
	char out[100], in[100];
	struct iovec iov;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct conn c;
	ssize_t n;

	memset(out, 'd', sizeof(out));
	out[99] = 'e';
	if (dgram_conn(&c))
		return -1;
	SETUP(send(c.cli, out, sizeof(out), MSG_QUIC_DATAGRAM) == sizeof(out), "send");
	iov.iov_base = in;
	iov.iov_len = 40;
	n = recvmsg(c.srv, &m, 0);
	CHECK(n == 40 && !(m.msg_flags & MSG_EOR), "first read %zd, flags %#x", n, m.msg_flags);
	iov.iov_base = in + 40;
	iov.iov_len = 60;
	m.msg_flags = 0;
	n = recvmsg(c.srv, &m, MSG_DONTWAIT);
	CHECK(n == 60 && (m.msg_flags & MSG_EOR), "second read %zd, flags %#x", n, m.msg_flags);
	CHECK(!memcmp(in, out, sizeof(in)), "the pieces differ from the datagram");
	return 1;
}

int c_recv_event_pieces(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	uint8_t in[64];
	struct iovec iov;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct conn c;
	ssize_t n;
	int i;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1,
	      "send");
	/* Read 4 bytes at a time until the first event; data is dropped. */
	for (i = 0; i < 8; i++) {
		iov.iov_base = in;
		iov.iov_len = 4;
		m.msg_flags = 0;
		n = recvmsg(c.srv, &m, 0);
		SETUP(n > 0, "recvmsg");
		if (m.msg_flags & MSG_QUIC_NOTIFICATION)
			break;
	}
	SETUP(i < 8 && n == 4, "no event");
	iov.iov_base = in + 4;
	iov.iov_len = sizeof(in) - 4;
	m.msg_flags = 0;
	n = recvmsg(c.srv, &m, MSG_DONTWAIT);
	CHECK(n == 1 + (ssize_t)sizeof(struct quic_stream_update) - 4 &&
	      (m.msg_flags & MSG_QUIC_NOTIFICATION) && (m.msg_flags & MSG_EOR),
	      "the rest of the event: %zd bytes, flags %#x", n, m.msg_flags);
	return 1;
}

int c_recv_fin_in_msg_flags(void)
{
	struct iovec iov;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct conn c;
	char in[16];

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "xyz", 3, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 3,
	      "send");
	iov.iov_base = in;
	iov.iov_len = sizeof(in);
	CHECK(recvmsg(c.srv, &m, 0) == 3, "recvmsg");
	CHECK(m.msg_flags & MSG_QUIC_STREAM_FIN, "msg_flags %#x", m.msg_flags);
	return 1;
}

/* ---------------------------------------------------------------- send() */

int c_send_new(void)
{
	struct streams st;
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(send(c.cli, "a", 1, MSG_QUIC_STREAM_NEW) == 1, "first send");
	CHECK(send(c.cli, "b", 1, MSG_QUIC_STREAM_NEW) == 1, "second send");
	CHECK(!drain(c.srv, 2, &st), "the peer read no 2 bytes");
	CHECK(!strcmp(st.data[0], "a") && !strcmp(st.data[4], "b"),
	      "stream 0 \"%s\", stream 4 \"%s\"", st.data[0], st.data[4]);
	return 1;
}

int c_send_new_uni(void)
{
	struct conn c;
	int64_t sid;
	char in[8];

	if (conn_open(NULL, &c))
		return -1;
	CHECK(send(c.cli, "u", 1, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_UNI) == 1, "send");
	CHECK(recv_info(c.srv, in, 1, &sid, NULL, 0) == 1 && sid == 2,
	      "on stream %lld", (long long)sid);
	return 1;
}

int c_send_fin(void)
{
	struct conn c;
	char in[8];
	bool fin;

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "ab", 2, 0, MSG_QUIC_STREAM_NEW) == 2, "open stream 0");
	CHECK(send(c.cli, "cd", 2, MSG_QUIC_STREAM_FIN) == 2, "send(MSG_QUIC_STREAM_FIN)");
	CHECK(read_stream(c.srv, 0, in, 8, &fin) == 4 && fin, "the stream did not end");
	return 1;
}

int c_send_latest_own(void)
{
	struct streams st;
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1 &&
	      quic_sendmsg(c.cli, "b", 1, 4, MSG_QUIC_STREAM_NEW) == 1 &&
	      quic_sendmsg(c.cli, "c", 1, 8, MSG_QUIC_STREAM_NEW) == 1 &&
	      quic_sendmsg(c.cli, "d", 1, 4, 0) == 1, "streams 0, 4 and 8, then 4 again");
	CHECK(send(c.cli, "z", 1, MSG_QUIC_STREAM_FIN) == 1, "send()");
	CHECK(!drain(c.srv, 5, &st), "the peer read no 5 bytes");
	CHECK(!strcmp(st.data[8], "cz") && st.fin[8] && !strcmp(st.data[4], "bd"),
	      "stream 8 \"%s\"%s, stream 4 \"%s\": send() did not go to 8, the last opened",
	      st.data[8], st.fin[8] ? " with FIN" : "", st.data[4]);
	return 1;
}

int c_send_latest_peer(void)
{
	struct conn c;
	int64_t sid = -1;
	char in[8];
	bool fin;

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "q", 1, 0, MSG_QUIC_STREAM_NEW) == 1, "client opens stream 0");
	SETUP(read_stream(c.srv, 0, in, 1, &fin) == 1, "server reads it");
	CHECK(send(c.srv, "r", 1, 0) == 1, "server send()");
	CHECK(recv_info(c.cli, in, sizeof(in), &sid, NULL, 0) == 1 && sid == 0 && in[0] == 'r',
	      "the answer came on stream %lld", (long long)sid);
	return 1;
}

int c_send_dgram(void)
{
	struct conn c;
	uint32_t f;
	char in[16];

	if (dgram_conn(&c))
		return -1;
	CHECK(send(c.cli, "dg", 2, MSG_QUIC_DATAGRAM) == 2, "send");
	CHECK(recv_info(c.srv, in, sizeof(in), NULL, &f, 0) == 2 && (f & MSG_QUIC_DATAGRAM),
	      "no datagram at the peer");
	return 1;
}

int c_recv_plain(void)
{
	struct conn c;
	char in[16];

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "plain", 5, 0, MSG_QUIC_STREAM_NEW) == 5, "send");
	CHECK(recv(c.srv, in, sizeof(in), 0) == 5 && !memcmp(in, "plain", 5), "recv");
	return 1;
}

int c_recv_handshake_einval(void)
{
	int lfd, cli, acc;
	char in[2048];

	if (hello_accepted(&lfd, &cli, &acc))
		return -1;
	SETUP(readable(acc, 2000), "ClientHello queued");
	CHECK(recv(acc, in, sizeof(in), MSG_DONTWAIT) == -1 && errno == EINVAL,
	      "recv() of a handshake message not EINVAL");
	return 1;
}

int c_read_write(void)
{
	struct conn c;
	char in[8];
	size_t got = 0;
	ssize_t n;

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW) == 1, "open stream 0");
	CHECK(write(c.cli, "bc", 2) == 2, "write()");
	while (got < 3 && (n = read(c.srv, in + got, sizeof(in) - got)) > 0)
		got += n;
	CHECK(got == 3 && !memcmp(in, "abc", 3), "read() got %zu bytes", got);
	return 1;
}

/* ------------------------------------------------ getsockname()/getpeername() */

int c_getsockname(void)
{
	struct sockaddr_storage ss, got;
	socklen_t len = side_addr(0, AF_INET6, new_port(), &ss), glen = sizeof(got);
	int fd = keep(socket(AF_INET6, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0 && !bind(fd, (struct sockaddr *)&ss, len), "bind");
	CHECK(!getsockname(fd, (struct sockaddr *)&got, &glen), "getsockname");
	CHECK(glen == len && !memcmp(&got, &ss, len), "another address");
	return 1;
}

int c_getpeername(void)
{
	struct sockaddr_storage ss, got;
	int port = new_port();
	socklen_t len = side_addr(1, AF_INET, port, &ss), glen = sizeof(got);
	int cli = client_to(AF_INET, port);

	SETUP(cli >= 0, "connect");
	CHECK(!getpeername(cli, (struct sockaddr *)&got, &glen), "getpeername");
	CHECK(glen == len && !memcmp(&got, &ss, len), "another address");
	return 1;
}

int c_getname_truncated(void)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	unsigned char got[8];
	socklen_t len = side_addr(0, AF_INET6, new_port(), &ss), glen = sizeof(got);
	int fd = keep(socket(AF_INET6, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0 && !bind(fd, (struct sockaddr *)&ss, len), "bind");
	CHECK(!getsockname(fd, (struct sockaddr *)got, &glen), "getsockname");
	CHECK(glen == sizeof(*a6), "length %u", glen);
	CHECK(!memcmp(got, &ss, sizeof(got)), "the first bytes differ");
	return 1;
}

/* -------------------------------------------- quic_sendmsg()/quic_recvmsg() */

int c_qsend_stream(void)
{
	struct conn c;
	int64_t sid = -1;
	uint32_t f;
	char in[8];

	if (conn_open(NULL, &c))
		return -1;
	CHECK(quic_sendmsg(c.cli, "hi", 2, 8, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 2,
	      "quic_sendmsg");
	CHECK(recv_info(c.srv, in, sizeof(in), &sid, &f, 0) == 2 && sid == 8 &&
	      (f & MSG_QUIC_STREAM_FIN), "stream %lld, flags %#x", (long long)sid, f);
	return 1;
}

int c_qsend_msg_flags(void)
{
	struct conn c;
	char in[8];
	bool fin;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(quic_sendmsg(c.cli, "w", 1, 0, MSG_QUIC_STREAM_NEW | MSG_DONTWAIT) == 1,
	      "MSG_DONTWAIT in quic_sendmsg()'s flags");
	CHECK(read_stream(c.srv, 0, in, 1, &fin) == 1, "the peer got nothing");
	return 1;
}

int c_qsend_unknown(void)
{
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(quic_sendmsg(c.cli, "u", 1, 0, MSG_QUIC_STREAM_NEW | UNKNOWN_FLAG) == -1 &&
	      errno == EINVAL, "an unknown flag was taken");
	return 1;
}

int c_qrecv_unknown(void)
{
	struct conn c;
	uint32_t f = UNKNOWN_FLAG;
	int64_t sid;
	char in[8];

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "u", 1, 0, MSG_QUIC_STREAM_NEW) == 1, "send");
	SETUP(readable(c.srv, 3000), "data");
	CHECK(quic_recvmsg(c.srv, in, sizeof(in), &sid, &f) == -1 && errno == EINVAL,
	      "an unknown flag was taken");
	return 1;
}

int c_qrecv_info(void)
{
	struct conn c;
	int64_t sid = -1;
	uint32_t f = 0;
	char in[8];

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.srv, "s", 1, 5, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1,
	      "server send");
	CHECK(quic_recvmsg(c.cli, in, sizeof(in), &sid, &f) == 1 && sid == 5 &&
	      (f & MSG_QUIC_STREAM_FIN), "stream %lld, flags %#x", (long long)sid, f);
	return 1;
}

/* --------------------------------------- quic_client/server_handshake() */

int c_hs_psk(void)
{
	struct conn c;

	return conn_open(NULL, &c) ? fail("PSK handshake") : 1;
}

int c_hs_cert(void)
{
	struct conn_opts o = { .cert = true };
	char alpn[64] = "";
	socklen_t len = sizeof(alpn) - 1;
	struct conn c;

	if (conn_open(&o, &c))
		return fail("certificate handshake");
	CHECK(!getsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_ALPN, alpn, &len) &&
	      !strcmp(alpn, API_ALPN), "ALPN \"%s\"", alpn);
	return 1;
}

int c_hs_wrong_name(void)
{
	struct conn_opts o = { .cert = true, .cli_host = "other.test" };
	struct conn c;

	CHECK(conn_open(&o, &c), "a server with another name was accepted");
	CHECK(c.cli_ret < 0, "returned %d", c.cli_ret);
	ktap_diag("returned %s", errno_name(-c.cli_ret));
	return 1;
}

int c_hs_alpn_list(void)
{
	struct conn_opts o = { .cli_alpn = "api-none,quic-selftest" };
	char alpn[64] = "";
	socklen_t len = sizeof(alpn) - 1;
	struct conn c;

	if (conn_open(&o, &c))
		return fail("handshake");
	CHECK(!getsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_ALPN, alpn, &len) &&
	      !strcmp(alpn, API_ALPN), "ALPN \"%s\"", alpn);
	return 1;
}

int c_recv_kinds(void)
{
	struct conn_opts o = { .dgram = 1200, .srv_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	bool dgram = false, event = false;
	struct conn c;
	char in[64];
	int i;

	if (conn_open(&o, &c))
		return -1;
	SETUP(send(c.cli, "dg", 2, MSG_QUIC_DATAGRAM) == 2, "datagram");
	SETUP(quic_sendmsg(c.cli, "s", 1, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1,
	      "stream data");
	for (i = 0; i < 8 && !(dgram && event); i++) {
		ssize_t n = recv(c.srv, in, sizeof(in), 0);

		CHECK(n > 0, "recv");
		if (n == 2 && !memcmp(in, "dg", 2))
			dgram = true;
		else if (n == 1 + (ssize_t)sizeof(struct quic_stream_update) &&
			 in[0] == QUIC_EVENT_STREAM_UPDATE)
			event = true;
	}
	CHECK(dgram && event, "recv() got %s", dgram ? "no event" : "no datagram");
	return 1;
}
