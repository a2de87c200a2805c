// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_peeloff: one stream of a connection as a socket of its
 * own (draft-lxin-quic-socket-apis, QUIC_SOCKOPT_STREAM_PEELOFF), over
 * loopback with the handshake stand-in of conn_util.c: writes on the
 * stream socket go on its stream, reads return that stream's data only
 * and the connection's reads pass it over, a blocked read wakes for it,
 * poll() follows the stream, and close() and shutdown() end its parts.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/net.h>
#include <linux/poll.h>
#include <linux/quic.h>
#include <net/sock.h>

#include "../path.h"
#include "../peeloff.h"
#include "../socket.h"
#include "conn_util.h"
#include "util.h"

static const struct conn_case peel_v4 = {
	"IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

/* The socket of stream @id of @sock, released when the case ends (before
 * the connection: cleanup actions run last first).
 */
static struct socket *peel(struct kunit *test, struct socket *sock, s64 id)
{
	struct socket *ss = NULL;

	KUNIT_ASSERT_EQ(test, quic_peel_stream(sock->sk, id, &ss), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, ss), 0);
	ss->sk->sk_rcvtimeo = CONN_TIMEO;
	ss->sk->sk_sndtimeo = CONN_TIMEO;
	return ss;
}

static int peel_send(struct socket *ss, const void *data, size_t len, int flags)
{
	struct kvec kv = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr msg = { .msg_flags = flags };

	return kernel_sendmsg(ss, &msg, &kv, 1, len);
}

static int peel_recv(struct socket *ss, void *buf, size_t len, int flags, int *mflags)
{
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {};
	int ret;

	ret = kernel_recvmsg(ss, &msg, &kv, 1, len, flags);
	if (mflags)
		*mflags = msg.msg_flags;
	return ret;
}

/* Wait until stream @id of @sock holds @len bytes received in order. */
static void peel_wait_arrived(struct kunit *test, struct socket *sock, s64 id, u64 len)
{
	struct quic_stream *s;
	int i;

	for (i = 0; i < 100; i++) {
		lock_sock(sock->sk);
		s = quic_stream_find(quic_streams(sock->sk), id);
		if (s && s->recv.highest >= len) {
			release_sock(sock->sk);
			return;
		}
		release_sock(sock->sk);
		msleep(20);
	}
	KUNIT_FAIL(test, "stream %lld: %llu bytes never arrived", id, len);
}

/* Writes on the stream socket go on its stream, with no QUIC_STREAM_INFO;
 * close() ends the stream with a FIN, which the peer reads as its end.
 * Its addresses are the connection's.
 */
static void peel_writes_go_on_the_stream_and_close_sends_fin(struct kunit *test)
{
	struct sockaddr_storage a, b;
	struct conn_pair p = {};
	struct socket *ss;

	conn_handshake(test, &peel_v4, 63051, &p);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, "ab", 2), 2);
	ss = peel(test, p.client, 0);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	KUNIT_EXPECT_EQ(test, kernel_getpeername(ss, (struct sockaddr *)&a),
			kernel_getpeername(p.client, (struct sockaddr *)&b));
	KUNIT_EXPECT_MEMEQ(test, &a, &b, sizeof(struct sockaddr_in));
	KUNIT_EXPECT_EQ(test, kernel_getsockname(ss, (struct sockaddr *)&a),
			kernel_getsockname(p.client, (struct sockaddr *)&b));
	KUNIT_EXPECT_MEMEQ(test, &a, &b, sizeof(struct sockaddr_in));
	KUNIT_EXPECT_EQ(test, peel_send(ss, "cdef", 4, 0), 4);
	KUNIT_EXPECT_EQ(test, peel_send(ss, "g", 1, 0), 1);
	kunit_release_action(test, conn_sock_release, ss);
	conn_expect_stream(test, p.server, 0, (const u8 *)"abcdefg", 7);
}

/* Reads on the stream socket return its stream's data wherever it sits
 * in the queue; the connection's own reads pass it over from the peeloff
 * on, and go on with the other streams.
 */
static void peel_reads_only_its_stream_and_the_connection_passes_it_over(struct kunit *test)
{
	struct quic_stream_info si;
	struct conn_pair p = {};
	struct socket *ss;
	int mflags = 0;
	char buf[16];

	conn_handshake(test, &peel_v4, 63052, &p);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, "one", 3), 3);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 4, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "four", 4), 4);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_FIN, "-1", 2), 2);
	peel_wait_arrived(test, p.server, 4, 4);
	peel_wait_arrived(test, p.server, 0, 5);

	ss = peel(test, p.server, 0);
	conn_expect_stream(test, p.server, 4, (const u8 *)"four", 4);
	KUNIT_EXPECT_EQ(test, peel_recv(ss, buf, sizeof(buf), MSG_PEEK, NULL), 5);
	KUNIT_EXPECT_EQ(test, peel_recv(ss, buf, sizeof(buf), 0, &mflags), 5);
	KUNIT_EXPECT_MEMEQ(test, buf, "one-1", 5);
	KUNIT_EXPECT_TRUE(test, mflags & MSG_EOR);
	KUNIT_EXPECT_EQ(test, peel_recv(ss, buf, sizeof(buf), 0, NULL), 0);
	/* Nothing was left for the connection's socket. */
	p.server->sk->sk_rcvtimeo = 0;
	KUNIT_EXPECT_EQ(test, conn_recv(p.server, QUIC_STREAM_INFO, &si, sizeof(si), buf,
					sizeof(buf)), -EAGAIN);
}

struct peel_later {
	struct delayed_work work;
	struct socket *sock;
	int ret;
};

static void peel_later_send(struct work_struct *work)
{
	struct peel_later *l = container_of(to_delayed_work(work), struct peel_later, work);

	l->ret = conn_send_stream(l->sock, 0, MSG_STREAM_FIN, "late", 4);
}

/* A read blocked on the stream socket wakes when its stream's data comes,
 * and poll() reports the stream: writable while it may send, readable
 * once its data is queued.
 */
static void peel_blocked_read_wakes_and_poll_follows_the_stream(struct kunit *test)
{
	struct peel_later later = {};
	struct conn_pair p = {};
	struct socket *ss;
	__poll_t mask;
	char buf[8];

	conn_handshake(test, &peel_v4, 63053, &p);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, "x", 1), 1);
	peel_wait_arrived(test, p.server, 0, 1);
	ss = peel(test, p.server, 0);
	KUNIT_EXPECT_EQ(test, peel_recv(ss, buf, sizeof(buf), 0, NULL), 1);

	mask = ss->ops->poll(NULL, ss, NULL);
	KUNIT_EXPECT_TRUE(test, mask & EPOLLOUT);
	KUNIT_EXPECT_FALSE(test, mask & EPOLLIN);

	later.sock = p.client;
	INIT_DELAYED_WORK(&later.work, peel_later_send);
	schedule_delayed_work(&later.work, msecs_to_jiffies(300));
	KUNIT_ASSERT_TRUE(test, delayed_work_pending(&later.work));
	KUNIT_EXPECT_EQ(test, peel_recv(ss, buf, sizeof(buf), MSG_WAITALL, NULL), 4);
	flush_delayed_work(&later.work);
	KUNIT_EXPECT_EQ(test, later.ret, 4);
	KUNIT_EXPECT_MEMEQ(test, buf, "late", 4);
	/* The stream's end is readable: a read returns 0 at once. */
	mask = ss->ops->poll(NULL, ss, NULL);
	KUNIT_EXPECT_TRUE(test, mask & EPOLLIN);
	KUNIT_EXPECT_EQ(test, peel_recv(ss, buf, sizeof(buf), MSG_DONTWAIT, NULL), 0);
}

/* shutdown(SHUT_RD) on the stream socket sends STOP_SENDING: the peer
 * answers with RESET_STREAM (RFC 9000 Section 3.5); reads then return 0.
 */
static void peel_shutdown_rd_sends_stop_sending(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_stream *s;
	struct socket *ss;
	u8 state = 0;
	char buf[8];
	int i;

	conn_handshake(test, &peel_v4, 63054, &p);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, "abc", 3), 3);
	peel_wait_arrived(test, p.server, 0, 3);
	ss = peel(test, p.server, 0);
	KUNIT_EXPECT_EQ(test, kernel_sock_shutdown(ss, SHUT_RD), 0);
	KUNIT_EXPECT_EQ(test, peel_recv(ss, buf, sizeof(buf), 0, NULL), 0);
	for (i = 0; i < 100; i++) {
		lock_sock(p.client->sk);
		s = quic_stream_find(quic_streams(p.client->sk), 0);
		state = s ? s->send.state : QUIC_STREAM_SEND_STATE_RESET_RECVD;
		release_sock(p.client->sk);
		if (state == QUIC_STREAM_SEND_STATE_RESET_SENT ||
		    state == QUIC_STREAM_SEND_STATE_RESET_RECVD)
			break;
		msleep(20);
	}
	KUNIT_EXPECT_TRUE(test, state == QUIC_STREAM_SEND_STATE_RESET_SENT ||
			  state == QUIC_STREAM_SEND_STATE_RESET_RECVD);
	/* Its sending part is still open: the stream socket writes on. */
	KUNIT_EXPECT_EQ(test, peel_send(ss, "s", 1, MSG_STREAM_FIN), 1);
	conn_expect_stream(test, p.client, 0, (const u8 *)"s", 1);
}

/* What a peeloff refuses: a stream never opened (-ENOENT), one peeled off
 * already (-EBUSY), a socket not connected (-ENOTCONN), the option from a
 * kernel caller, who has no descriptor table, and any set (-EOPNOTSUPP).
 */
static void peel_refuses_what_it_cannot_take(struct kunit *test)
{
	struct quic_stream_peeloff opt = { .stream_id = 0 };
	struct socket *fresh, *ss = NULL;
	unsigned int len = sizeof(opt);
	struct conn_pair p = {};

	conn_handshake(test, &peel_v4, 63055, &p);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, "a", 1), 1);
	KUNIT_EXPECT_EQ(test, quic_peel_stream(p.client->sk, 8, &ss), -ENOENT);
	KUNIT_EXPECT_NULL(test, ss);
	peel(test, p.client, 0);
	KUNIT_EXPECT_EQ(test, quic_peel_stream(p.client->sk, 0, &ss), -EBUSY);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(p.client->sk, QUIC_SOCKOPT_STREAM_PEELOFF,
						     &opt, &len), -EOPNOTSUPP);
	/* A read-only option: a set is refused as for STREAM_OPEN. */
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(p.client->sk, QUIC_SOCKOPT_STREAM_PEELOFF,
						     &opt, sizeof(opt)), -EOPNOTSUPP);

	fresh = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	KUNIT_EXPECT_EQ(test, quic_peel_stream(fresh->sk, 0, &ss), -ENOTCONN);
}

static int peel_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void peel_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

static struct kunit_case peel_test_cases[] = {
	KUNIT_CASE(peel_writes_go_on_the_stream_and_close_sends_fin),
	KUNIT_CASE(peel_reads_only_its_stream_and_the_connection_passes_it_over),
	KUNIT_CASE(peel_blocked_read_wakes_and_poll_follows_the_stream),
	KUNIT_CASE(peel_shutdown_rd_sends_stop_sending),
	KUNIT_CASE(peel_refuses_what_it_cannot_take),
	{}
};

static struct kunit_suite peel_suite = {
	.name = "quic_peeloff",
	.suite_init = peel_suite_init,
	.suite_exit = peel_suite_exit,
	.test_cases = peel_test_cases,
};

kunit_test_suite(peel_suite);
