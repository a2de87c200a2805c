// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_sockmsg: the data calls as draft-lxin-quic-socket-apis
 * specifies them for programs that use no control messages, or other
 * header generations' ones, and the options it gives live connections,
 * over a loopback connection (conn_util.c):
 *  - send() takes the stream flags from its flags argument, and writes to
 *    the latest opened stream (ours or the peer's) unless MSG_STREAM_NEW
 *    asks for a new one;
 *  - recvmsg() without control message room returns the stream flags in
 *    msg_flags, and refuses TLS messages (EINVAL), whose level it could
 *    not tell;
 *  - MSG_EOR marks the end of a datagram and of a stream;
 *  - QUIC_HANDSHAKE_INFO of the draft's 8 bytes and QUIC_STREAM_INFO with
 *    a non-zero reserved field are taken;
 *  - a server's QUIC_SOCKOPT_TOKEN set issues a NEW_TOKEN.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <net/sock.h>

#include "../inqueue.h"
#include "../socket.h"
#include "../stream.h"
#include "conn_util.h"
#include "util.h"

static const struct conn_case msg_v4 = {
	"IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

/* recvmsg() with no control message buffer at all, as recv() makes it. */
static int msg_recv_bare(struct socket *sock, void *data, size_t len, int flags, int *mflags)
{
	struct kvec iov = { .iov_base = data, .iov_len = len };
	struct msghdr msg = {};
	int ret;

	ret = kernel_recvmsg(sock, &msg, &iov, 1, len, flags);
	*mflags = msg.msg_flags;
	return ret;
}

/* A read of stream data with its QUIC_STREAM_INFO (conn_recv()). */
static int msg_recv_stream(struct socket *sock, void *data, size_t len, s64 *id, u32 *sflags)
{
	struct quic_stream_info si = { .stream_id = -1 };
	int ret;

	ret = conn_recv(sock, QUIC_STREAM_INFO, &si, sizeof(si), data, len);
	*id = si.stream_id;
	*sflags = si.stream_flags;
	return ret;
}

/*
 * Send side: "the flags can also be set to the values in stream_flags
 * ... if Stream msg_control is not being used. In this case, the most
 * recently opened stream will be used". The server answers on the
 * client's stream without naming it; MSG_STREAM_NEW opens the next one.
 */
static void msg_send_flags_argument_carries_the_stream_flags(struct kunit *test)
{
	struct conn_pair p = {};
	u32 sflags;
	u8 buf[32];
	s64 id;

	conn_handshake(test, &msg_v4, 63200, &p);
	/* MSG_STREAM_NEW in the flags argument opens the client's stream 0. */
	KUNIT_ASSERT_EQ(test, conn_send(p.client, 0, NULL, 0, "ping", 4, MSG_STREAM_NEW), 4);
	KUNIT_ASSERT_EQ(test, msg_recv_stream(p.server, buf, sizeof(buf), &id, &sflags), 4);
	KUNIT_EXPECT_EQ(test, id, 0LL);
	KUNIT_EXPECT_FALSE(test, sflags & MSG_STREAM_FIN);

	/* The server's reply goes to the latest stream, the client's, and
	 * MSG_STREAM_FIN in the flags ends it.
	 */
	KUNIT_ASSERT_EQ(test, conn_send(p.server, 0, NULL, 0, "pong", 4, MSG_STREAM_FIN), 4);
	KUNIT_ASSERT_EQ(test, msg_recv_stream(p.client, buf, sizeof(buf), &id, &sflags), 4);
	KUNIT_EXPECT_EQ(test, id, 0LL);
	KUNIT_EXPECT_TRUE(test, sflags & MSG_STREAM_FIN);
	KUNIT_EXPECT_MEMEQ(test, buf, "pong", 4);

	/* Another MSG_STREAM_NEW: the next bidirectional stream, 4; with
	 * MSG_STREAM_UNI the first unidirectional one, 2.
	 */
	KUNIT_ASSERT_EQ(test, conn_send(p.client, 0, NULL, 0, "next", 4, MSG_STREAM_NEW), 4);
	KUNIT_ASSERT_EQ(test, msg_recv_stream(p.server, buf, sizeof(buf), &id, &sflags), 4);
	KUNIT_EXPECT_EQ(test, id, 4LL);
	KUNIT_ASSERT_EQ(test, conn_send(p.client, 0, NULL, 0, "uni", 3,
					MSG_STREAM_NEW | MSG_STREAM_UNI | MSG_STREAM_FIN), 3);
	KUNIT_ASSERT_EQ(test, msg_recv_stream(p.server, buf, sizeof(buf), &id, &sflags), 3);
	KUNIT_EXPECT_EQ(test, id, 2LL);
	KUNIT_EXPECT_TRUE(test, sflags & MSG_STREAM_FIN);
}

/*
 * Stream Information, stream_id -1 without MSG_STREAM_NEW: "Use the latest
 * opened stream for sending data". A reserved field that is not zero is
 * ignored (Reserved Fields).
 */
static void msg_stream_id_minus_one_is_the_latest_stream(struct kunit *test)
{
	struct quic_stream_info si = { .stream_id = 0, .stream_flags = MSG_STREAM_NEW };
	u8 raw[sizeof(struct quic_stream_info)];
	struct conn_pair p = {};
	int ret, got = 0;
	u32 sflags;
	u8 buf[32];
	s64 id;

	conn_handshake(test, &msg_v4, 63201, &p);
	KUNIT_ASSERT_EQ(test, conn_send(p.client, QUIC_STREAM_INFO, &si, sizeof(si), "a", 1, 0),
			1);
	si.stream_id = 4;
	KUNIT_ASSERT_EQ(test, conn_send(p.client, QUIC_STREAM_INFO, &si, sizeof(si), "b", 1, 0),
			1);
	/* The draft's layout names the last four bytes "reserved". */
	si.stream_id = -1;
	si.stream_flags = MSG_STREAM_FIN;
	memcpy(raw, &si, sizeof(si));
	memset(raw + offsetofend(struct quic_stream_info, stream_flags), 0xad, 4);
	KUNIT_ASSERT_EQ(test, conn_send(p.client, QUIC_STREAM_INFO, raw, sizeof(raw), "c", 1, 0),
			1);
	KUNIT_ASSERT_EQ(test, msg_recv_stream(p.server, buf, sizeof(buf), &id, &sflags), 1);
	KUNIT_EXPECT_EQ(test, id, 0LL);
	/* "b" and "c" may come in one read or two, both on stream 4. */
	do {
		ret = msg_recv_stream(p.server, buf + got, sizeof(buf) - got, &id, &sflags);
		KUNIT_ASSERT_GT(test, ret, 0);
		KUNIT_EXPECT_EQ(test, id, 4LL);
		got += ret;
	} while (!(sflags & MSG_STREAM_FIN) && got < 2);
	KUNIT_EXPECT_EQ(test, got, 2);
	KUNIT_EXPECT_MEMEQ(test, buf, "bc", 2);
	KUNIT_EXPECT_TRUE(test, sflags & MSG_STREAM_FIN);
}

/*
 * Multiple Items and Ordering: "Only one such type of ancillary data is
 * allowed per sendmsg() or recvmsg() call": two QUIC_STREAM_INFO are
 * refused, and nothing is sent.
 */
static void msg_second_stream_info_is_refused(struct kunit *test)
{
	struct quic_stream_info si = { .stream_id = -1, .stream_flags = MSG_STREAM_NEW };
	u8 cbuf[2 * CMSG_SPACE(sizeof(si))] = {};
	struct kvec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = { .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct conn_pair p = {};
	struct cmsghdr *cmsg;

	conn_handshake(test, &msg_v4, 63204, &p);
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_QUIC;
	cmsg->cmsg_type = QUIC_STREAM_INFO;
	cmsg->cmsg_len = CMSG_LEN(sizeof(si));
	memcpy(CMSG_DATA(cmsg), &si, sizeof(si));
	cmsg = CMSG_NXTHDR(&msg, cmsg);
	KUNIT_ASSERT_NOT_NULL(test, cmsg);
	cmsg->cmsg_level = SOL_QUIC;
	cmsg->cmsg_type = QUIC_STREAM_INFO;
	cmsg->cmsg_len = CMSG_LEN(sizeof(si));
	memcpy(CMSG_DATA(cmsg), &si, sizeof(si));
	KUNIT_EXPECT_EQ(test, kernel_sendmsg(p.client, &msg, &iov, 1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_streams(p.client->sk)->latest, -1LL);
}

/*
 * Receive side without Stream msg_control: "the flags might also be set to
 * the values in stream_flags"; MSG_EOR "indicates that the received data
 * is read completely": on the stream's last bytes, and on a datagram read
 * whole. A datagram longer than the buffer comes in parts.
 */
static void msg_recv_without_control_reports_flags(struct kunit *test)
{
	struct conn_pair p = { .max_datagram = 1200 };
	int mflags;
	u8 buf[32];

	conn_handshake(test, &msg_v4, 63202, &p);
	KUNIT_ASSERT_EQ(test, conn_send(p.client, 0, NULL, 0, "first", 5, MSG_STREAM_NEW), 5);
	KUNIT_ASSERT_EQ(test, msg_recv_bare(p.server, buf, sizeof(buf), 0, &mflags), 5);
	KUNIT_EXPECT_FALSE(test, mflags & (MSG_STREAM_FIN | MSG_EOR | MSG_CTRUNC));
	KUNIT_ASSERT_EQ(test, conn_send(p.client, 0, NULL, 0, "last", 4, MSG_STREAM_FIN), 4);
	KUNIT_ASSERT_EQ(test, msg_recv_bare(p.server, buf, sizeof(buf), 0, &mflags), 4);
	KUNIT_EXPECT_TRUE(test, mflags & MSG_STREAM_FIN);
	KUNIT_EXPECT_TRUE(test, mflags & MSG_EOR);
	KUNIT_EXPECT_FALSE(test, mflags & MSG_CTRUNC);

	KUNIT_ASSERT_EQ(test, conn_send(p.client, 0, NULL, 0, "0123456789", 10, MSG_DATAGRAM),
			10);
	KUNIT_ASSERT_EQ(test, msg_recv_bare(p.server, buf, 6, 0, &mflags), 6);
	KUNIT_EXPECT_TRUE(test, mflags & MSG_DATAGRAM);
	KUNIT_EXPECT_FALSE(test, mflags & (MSG_EOR | MSG_TRUNC));
	KUNIT_ASSERT_EQ(test, msg_recv_bare(p.server, buf, sizeof(buf), 0, &mflags), 4);
	KUNIT_EXPECT_TRUE(test, mflags & MSG_DATAGRAM);
	KUNIT_EXPECT_TRUE(test, mflags & MSG_EOR);
	KUNIT_EXPECT_MEMEQ(test, buf, "6789", 4);
}

/*
 * recv(): "It MUST return -1 with errno set to EINVAL when attempting to
 * receive a handshake message". The server's ClientHello waits while it
 * reads without control message room; nothing is consumed, and the
 * handshake goes on. The draft's 8-byte struct quic_handshake_info
 * (reserved[7]) works for sending TLS messages.
 */
static void msg_handshake_message_needs_its_control_message(struct kunit *test)
{
	struct conn_pair p = { .bare_recv_einval = 1, .long_handshake_info = 1 };

	conn_handshake(test, &msg_v4, 63203, &p);
	KUNIT_EXPECT_EQ(test, p.bare_recv_seen, 1);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.server->sk));
}

/*
 * Read NEW_TOKEN notifications until @n different tokens came (a frame
 * sent again repeats its token): the number seen, or the error that ended
 * the wait (the socket's receive timeout).
 */
static int msg_distinct_tokens(struct socket *sock, int n)
{
	u8 buf[256], first[256];
	int mflags, ret, len = -1;

	while (n) {
		ret = msg_recv_bare(sock, buf, sizeof(buf), 0, &mflags);
		if (ret <= 0)
			return ret;
		if (!(mflags & MSG_NOTIFICATION) || buf[0] != QUIC_EVENT_NEW_TOKEN)
			continue;
		if (len == ret && !memcmp(buf, first, len))
			continue;
		if (len < 0) {
			len = ret;
			memcpy(first, buf, len);
		}
		n--;
	}
	return 2;
}

/*
 * QUIC_SOCKOPT_TOKEN, server side: "The server uses this option to issue
 * a new token to the client ... The optval type is null." The client gets
 * a second, different token after the one of the handshake.
 */
static void msg_server_token_set_issues_new_token(struct kunit *test)
{
	struct conn_pair p = { .client_events = BIT(QUIC_EVENT_NEW_TOKEN) };

	conn_handshake(test, &msg_v4, 63205, &p);
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p.server->sk, QUIC_SOCKOPT_TOKEN, NULL, 0),
			0);
	KUNIT_EXPECT_EQ(test, msg_distinct_tokens(p.client, 2), 2);
}

/*
 * shutdown(SHUT_RD): "All incoming data and connection requests SHOULD be
 * discard quietly" (draft-lxin-quic-socket-apis). What was queued is gone
 * and reads return end of file at once. What the peer sends afterwards is
 * dropped as if read: its flow control credit comes back, so the server
 * gets all of 768 KiB (three times the stream window) acknowledged, and
 * the client holds nothing.
 */
static void msg_shut_rd_discards_and_keeps_crediting_the_peer(struct kunit *test)
{
	const size_t big = 768 * 1024;
	struct conn_pair p = {};
	struct quic_stream *s;
	int mflags, i;
	u8 buf[8], *data;
	u8 state = 0;

	data = kunit_kzalloc(test, big, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	conn_handshake(test, &msg_v4, 63210, &p);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, "hi", 2), 2);
	conn_expect_partial(test, p.server, 0, 2);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.server, 0, 0, "abc", 3), 3);
	for (i = 0; i < 250 && !quic_inq_readable(quic_inq(p.client->sk)); i++)
		msleep(20);
	KUNIT_ASSERT_TRUE(test, quic_inq_readable(quic_inq(p.client->sk)));

	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(p.client, SHUT_RD), 0);
	KUNIT_EXPECT_FALSE(test, quic_inq_readable(quic_inq(p.client->sk)));
	KUNIT_EXPECT_EQ(test, msg_recv_bare(p.client, buf, sizeof(buf), 0, &mflags), 0);

	KUNIT_ASSERT_EQ(test, conn_send_stream(p.server, 0, MSG_STREAM_FIN, data, big), big);
	for (i = 0; i < 500; i++) {
		lock_sock(p.server->sk);
		s = quic_stream_find(quic_streams(p.server->sk), 0);
		state = s ? s->send.state : QUIC_STREAM_SEND_STATE_RECVD;
		release_sock(p.server->sk);
		if (state == QUIC_STREAM_SEND_STATE_RECVD)
			break;
		msleep(20);
	}
	KUNIT_EXPECT_EQ(test, state, QUIC_STREAM_SEND_STATE_RECVD);
	lock_sock(p.client->sk);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(quic_inq(p.client->sk)), 0U);
	release_sock(p.client->sk);
	/* The connection is still up: the client writes on. */
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_FIN, "!", 1), 1);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.client->sk));
}

/*
 * MSG_MORE holds a short write back, but not past the end of the
 * connection: shutdown(SHUT_WR) (as close() does) sends what waits before
 * its CONNECTION_CLOSE, as TCP sends corked data before its FIN.
 */
static void msg_more_held_data_leaves_at_close(struct kunit *test)
{
	struct conn_pair p = {};

	conn_handshake(test, &msg_v4, 63211, &p);
	KUNIT_ASSERT_EQ(test, conn_send(p.client, 0, NULL, 0, "ab", 2,
					MSG_STREAM_NEW | MSG_MORE), 2);
	KUNIT_EXPECT_TRUE(test, quic_outq(p.client->sk)->corked);
	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(p.client, SHUT_WR), 0);
	conn_expect_partial(test, p.server, 0, 2);
}

static int msg_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void msg_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

static struct kunit_case msg_test_cases[] = {
	KUNIT_CASE(msg_send_flags_argument_carries_the_stream_flags),
	KUNIT_CASE(msg_stream_id_minus_one_is_the_latest_stream),
	KUNIT_CASE(msg_second_stream_info_is_refused),
	KUNIT_CASE(msg_recv_without_control_reports_flags),
	KUNIT_CASE(msg_handshake_message_needs_its_control_message),
	KUNIT_CASE(msg_server_token_set_issues_new_token),
	KUNIT_CASE(msg_shut_rd_discards_and_keeps_crediting_the_peer),
	KUNIT_CASE(msg_more_held_data_leaves_at_close),
	{}
};

static struct kunit_suite msg_suite = {
	.name = "quic_sockmsg",
	.suite_init = msg_suite_init,
	.suite_exit = msg_suite_exit,
	.test_cases = msg_test_cases,
};

kunit_test_suite(msg_suite);
