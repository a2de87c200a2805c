// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_conn_control: what an application does to a live
 * connection beyond sending and reading, between two in-kernel sockets
 * over loopback (stand-in handshake of conn_util.c):
 *
 *  - stream reset and stop sending (RFC 9000 Sections 3 and 19.4-19.5),
 *    QUIC_SOCKOPT_STREAM_RESET and QUIC_SOCKOPT_STREAM_STOP_SENDING;
 *  - key update (RFC 9001 Section 6), QUIC_SOCKOPT_KEY_UPDATE and the
 *    confidentiality limit;
 *  - notifications (QUIC_SOCKOPT_EVENT, MSG_NOTIFICATION): stream update,
 *    stream max data, max streams, connection close, key update;
 *  - connection IDs (RFC 9000 Sections 5.1 and 10.3), the
 *    QUIC_SOCKOPT_CONNECTION_ID option and stateless resets;
 *  - address validation with Retry and NEW_TOKEN (Section 8.1), Version
 *    Negotiation (Section 6), ECN (Section 13.4) and connection migration
 *    (Section 9).
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/random.h>
#include <linux/unaligned.h>
#include <net/sock.h>
#include <uapi/linux/tls.h>

#include "../connection.h"
#include "../connid_ctl.h"
#include "../crypto.h"
#include "../lookup.h"
#include "../packet.h"
#include "../transmit.h"
#include "../socket.h"
#include "conn_util.h"
#include "util.h"

static const struct conn_case ctl_cases[] = {
	{ "IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128 },
	{ "IPv6 v2 ChaCha20-Poly1305", AF_INET6, "::1", QUIC_VERSION_V2,
	  TLS_CIPHER_CHACHA20_POLY1305 },
};

KUNIT_ARRAY_PARAM_DESC(ctl_case, ctl_cases, desc);

#define ctl_v4	(&ctl_cases[0])

static int ctl_event(struct socket *sock, u8 type, bool on)
{
	struct quic_event_option opt = { .type = type, .on = on };

	return quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_EVENT, &opt, sizeof(opt));
}

static int ctl_errinfo(struct socket *sock, int optname, s64 id, u32 errcode)
{
	struct quic_errinfo ei = { .stream_id = id, .errcode = errcode };

	return quic_kernel_setsockopt(sock->sk, optname, &ei, sizeof(ei));
}

/* One recvmsg() of anything; @flags gets msg_flags. */
static int ctl_recv_any(struct socket *sock, void *buf, size_t len, int *flags)
{
	u8 cbuf[CMSG_SPACE(sizeof(struct quic_stream_info))];
	struct kvec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	int ret;

	ret = kernel_recvmsg(sock, &msg, &iov, 1, len, 0);
	*flags = msg.msg_flags;
	return ret;
}

/* Read until a notification of @type arrives (data and other notifications
 * are skipped); up to @len bytes of its payload go to @out.
 * Return: the bytes copied, or the recvmsg() error (-EAGAIN at the timeout).
 */
static int ctl_wait_event_len(struct kunit *test, struct socket *sock, u8 type, void *out,
			      size_t len)
{
	u8 buf[1200];
	int ret, flags, n;

	for (n = 0; n < 1000; n++) {
		ret = ctl_recv_any(sock, buf, sizeof(buf), &flags);
		if (ret <= 0)
			return ret;
		if (!(flags & MSG_NOTIFICATION) || buf[0] != type)
			continue;
		ret = min_t(int, ret - 1, len);
		memcpy(out, buf + 1, ret);
		return ret;
	}
	return -ENOENT;
}

/* As ctl_wait_event_len(), for a payload of exactly @len bytes. */
static void ctl_wait_event(struct kunit *test, struct socket *sock, u8 type, void *out,
			   size_t len)
{
	KUNIT_ASSERT_EQ_MSG(test, ctl_wait_event_len(test, sock, type, out, len), (int)len,
			    "waiting for event %u", type);
}

/* Read until the stream update of @id reaching @state. */
static void ctl_wait_update(struct kunit *test, struct socket *sock, s64 id, u8 state,
			    struct quic_stream_update *u)
{
	int n;

	for (n = 0; n < 100; n++) {
		ctl_wait_event(test, sock, QUIC_EVENT_STREAM_UPDATE, u, sizeof(*u));
		if (u->id == id && u->state == state)
			return;
	}
	KUNIT_FAIL(test, "stream %lld never reached state %u", id, state);
}

/* Exchange data until the client saw HANDSHAKE_DONE (RFC 9001 4.1.2). */
static void ctl_confirm(struct kunit *test, struct conn_pair *p, s64 id)
{
	int i;

	KUNIT_ASSERT_EQ(test, conn_send_stream(p->client, id, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "ping", 4), 4);
	for (i = 0; i < 250 && !quic_outq(p->client->sk)->confirmed; i++)
		msleep(20);
	KUNIT_ASSERT_TRUE(test, quic_outq(p->client->sk)->confirmed);
}

/* RFC 9000 Sections 3.1 and 19.4: an application resets what it sends; the
 * peer learns the code and the final size from a STREAM_UPDATE in Reset
 * Recvd (enabled on the listener: accepted sockets inherit events).
 *
 * Only the states draft-lxin-quic-socket-apis lists are delivered: the
 * peer is told of the new stream (Recv: data pending, no FIN yet); the
 * resetting side is told nothing while its part is in Send or, for a
 * reset of its own, in Reset Sent: its first update is Reset Recvd.
 */
static void ctl_reset_reaches_the_peer_as_a_notification(struct kunit *test)
{
	struct conn_pair p = { .listen_events = BIT(QUIC_EVENT_STREAM_UPDATE) };
	struct quic_stream_update u;
	u8 data[100] = {};

	conn_handshake(test, ctl_v4, 63100, &p);
	KUNIT_ASSERT_EQ(test, ctl_event(p.client, QUIC_EVENT_STREAM_UPDATE, true), 0);

	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, data, sizeof(data)),
			sizeof(data));
	ctl_wait_event(test, p.server, QUIC_EVENT_STREAM_UPDATE, &u, sizeof(u));
	KUNIT_EXPECT_EQ(test, u.id, 0LL);
	KUNIT_EXPECT_EQ(test, u.state, QUIC_STREAM_RECV_STATE_RECV);
	KUNIT_EXPECT_EQ(test, u.finalsz, 0ULL);
	KUNIT_ASSERT_EQ(test, ctl_errinfo(p.client, QUIC_SOCKOPT_STREAM_RESET, 0, 77), 0);

	ctl_wait_event(test, p.server, QUIC_EVENT_STREAM_UPDATE, &u, sizeof(u));
	KUNIT_EXPECT_EQ(test, u.state, QUIC_STREAM_RECV_STATE_RESET_RECVD);
	KUNIT_EXPECT_EQ(test, u.errcode, 77);
	KUNIT_EXPECT_EQ(test, u.finalsz, sizeof(data));

	/* The RESET_STREAM is acknowledged: Reset Recvd, the first update. */
	ctl_wait_event(test, p.client, QUIC_EVENT_STREAM_UPDATE, &u, sizeof(u));
	KUNIT_EXPECT_EQ(test, u.id, 0LL);
	KUNIT_EXPECT_EQ(test, u.state, QUIC_STREAM_SEND_STATE_RESET_RECVD);
	KUNIT_EXPECT_EQ(test, u.errcode, 77);
	KUNIT_EXPECT_EQ(test, u.finalsz, sizeof(data));
	/* A stream reset cannot be written to or reset again. */
	KUNIT_EXPECT_EQ(test, ctl_errinfo(p.client, QUIC_SOCKOPT_STREAM_RESET, 0, 1), -EALREADY);
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, 0, 0, data, 1), -EPIPE);
}

/* Accepted sockets inherit the events enabled on their listener. */
static void ctl_accepted_socket_inherits_events(struct kunit *test)
{
	struct conn_pair p = { .listen_events = BIT(QUIC_EVENT_CONNECTION_CLOSE) };
	struct quic_event_option opt = { .type = QUIC_EVENT_CONNECTION_CLOSE };
	unsigned int len = sizeof(opt);

	conn_handshake(test, ctl_v4, 63101, &p);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(p.server->sk, QUIC_SOCKOPT_EVENT, &opt,
						     &len), 0);
	KUNIT_EXPECT_EQ(test, opt.on, 1);
	opt.type = QUIC_EVENT_STREAM_UPDATE;
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(p.server->sk, QUIC_SOCKOPT_EVENT, &opt,
						     &len), 0);
	KUNIT_EXPECT_EQ(test, opt.on, 0);
	/* And the connecting side has only what it enabled: nothing. */
	opt.type = QUIC_EVENT_CONNECTION_CLOSE;
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(p.client->sk, QUIC_SOCKOPT_EVENT, &opt,
						     &len), 0);
	KUNIT_EXPECT_EQ(test, opt.on, 0);
}

/* RFC 9000 Section 3.5: STOP_SENDING is answered with a RESET_STREAM that
 * carries its code; both sides see it in their notifications.
 */
static void ctl_stop_sending_is_answered_with_a_reset(struct kunit *test)
{
	struct quic_stream_update u;
	struct conn_pair p = {};
	u8 data[300] = {};

	conn_handshake(test, ctl_v4, 63103, &p);
	KUNIT_ASSERT_EQ(test, ctl_event(p.client, QUIC_EVENT_STREAM_UPDATE, true), 0);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 4, MSG_STREAM_NEW, data, sizeof(data)),
			sizeof(data));
	/* The server reads what arrived, then asks the client to stop. */
	conn_expect_partial(test, p.server, 4, sizeof(data));
	KUNIT_ASSERT_EQ(test, ctl_event(p.server, QUIC_EVENT_STREAM_UPDATE, true), 0);
	KUNIT_ASSERT_EQ(test, ctl_errinfo(p.server, QUIC_SOCKOPT_STREAM_STOP_SENDING, 4, 9), 0);

	ctl_wait_update(test, p.client, 4, QUIC_STREAM_SEND_STATE_RESET_SENT, &u);
	KUNIT_EXPECT_EQ(test, u.errcode, 9);
	KUNIT_EXPECT_EQ(test, u.finalsz, sizeof(data));
	ctl_wait_update(test, p.server, 4, QUIC_STREAM_RECV_STATE_RESET_RECVD, &u);
	KUNIT_EXPECT_EQ(test, u.errcode, 9);
	KUNIT_EXPECT_EQ(test, u.finalsz, sizeof(data));
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, 4, 0, data, 1), -EPIPE);
}

/* The stream options refuse what they cannot act on, each with its errno. */
static void ctl_stream_options_check_their_arguments(struct kunit *test)
{
	struct quic_errinfo ei = {};
	unsigned int len = sizeof(ei);
	struct conn_pair p = {};
	struct socket *fresh;

	fresh = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	KUNIT_ASSERT_NOT_NULL(test, fresh);
	KUNIT_EXPECT_EQ(test, ctl_errinfo(fresh, QUIC_SOCKOPT_STREAM_RESET, 0, 1), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, ctl_errinfo(fresh, QUIC_SOCKOPT_STREAM_STOP_SENDING, 0, 1),
			-ENOTCONN);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(fresh->sk, QUIC_SOCKOPT_KEY_UPDATE, NULL, 0),
			-ENOTCONN);

	conn_handshake(test, ctl_v4, 63104, &p);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, "x", 1), 1);
	/* Exact size only. */
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(p.client->sk, QUIC_SOCKOPT_STREAM_RESET,
						     &ei, sizeof(ei) - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(p.client->sk, QUIC_SOCKOPT_STREAM_RESET,
						     &ei, sizeof(ei) + 8), -EINVAL);
	/* 3 is the server's unidirectional stream: the client only receives. */
	KUNIT_EXPECT_EQ(test, ctl_errinfo(p.client, QUIC_SOCKOPT_STREAM_RESET, 3, 1), -EINVAL);
	/* 2 is the client's unidirectional stream: the client only sends. */
	KUNIT_EXPECT_EQ(test, ctl_errinfo(p.client, QUIC_SOCKOPT_STREAM_STOP_SENDING, 2, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ctl_errinfo(p.client, QUIC_SOCKOPT_STREAM_RESET, -5, 1), -EINVAL);
	/* Valid IDs of streams nobody opened. */
	KUNIT_EXPECT_EQ(test, ctl_errinfo(p.client, QUIC_SOCKOPT_STREAM_RESET, 400, 1), -ENOENT);
	KUNIT_EXPECT_EQ(test, ctl_errinfo(p.client, QUIC_SOCKOPT_STREAM_STOP_SENDING, 401, 1),
			-ENOENT);
	/* Actions are set only. */
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(p.client->sk, QUIC_SOCKOPT_STREAM_RESET,
						     &ei, &len), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(p.client->sk, QUIC_SOCKOPT_KEY_UPDATE,
						     &ei, &len), -EOPNOTSUPP);
	/* A second reset of the same part. */
	KUNIT_EXPECT_EQ(test, ctl_errinfo(p.client, QUIC_SOCKOPT_STREAM_RESET, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, ctl_errinfo(p.client, QUIC_SOCKOPT_STREAM_RESET, 0, 1), -EALREADY);
}

/* RFC 9001 Section 6: the client updates the keys, the server follows;
 * later the server updates them back. Each side is told of each update
 * with the new Key Phase, and data keeps flowing, byte-exact.
 */
static void ctl_key_update_started_by_each_side(struct kunit *test)
{
	const struct conn_case *c = test->param_value;
	u8 *data = conn_pattern(test, 5000, 3);
	struct conn_pair p = {};
	int err, i;
	u8 phase;

	conn_handshake(test, c, 63105, &p);
	KUNIT_ASSERT_EQ(test, ctl_event(p.server, QUIC_EVENT_KEY_UPDATE, true), 0);
	KUNIT_ASSERT_EQ(test, ctl_event(p.client, QUIC_EVENT_KEY_UPDATE, true), 0);
	ctl_confirm(test, &p, 0);
	conn_expect_stream(test, p.server, 0, "ping", 4);

	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p.client->sk, QUIC_SOCKOPT_KEY_UPDATE,
						     NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 4, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       data, 5000), 5000);
	ctl_wait_event(test, p.server, QUIC_EVENT_KEY_UPDATE, &phase, 1);
	KUNIT_EXPECT_EQ(test, phase, 1);
	conn_expect_stream(test, p.server, 4, data, 5000);
	ctl_wait_event(test, p.client, QUIC_EVENT_KEY_UPDATE, &phase, 1);
	KUNIT_EXPECT_EQ(test, phase, 1);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.server, 1, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "pong", 4), 4);
	conn_expect_stream(test, p.client, 1, "pong", 4);

	/* The server may update once its previous keys were retired (three
	 * PTOs) and a packet it sent with the current keys was acknowledged.
	 */
	for (i = 0; i < 250; i++) {
		err = quic_kernel_setsockopt(p.server->sk, QUIC_SOCKOPT_KEY_UPDATE, NULL, 0);
		if (err != -EAGAIN)
			break;
		msleep(20);
	}
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.server, 5, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       data, 5000), 5000);
	ctl_wait_event(test, p.client, QUIC_EVENT_KEY_UPDATE, &phase, 1);
	KUNIT_EXPECT_EQ(test, phase, 0);
	conn_expect_stream(test, p.client, 5, data, 5000);
	ctl_wait_event(test, p.server, QUIC_EVENT_KEY_UPDATE, &phase, 1);
	KUNIT_EXPECT_EQ(test, phase, 0);
}

/* RFC 9001 Section 6.6: once three quarters of the confidentiality limit
 * of AES-GCM (2^23 packets) are used, the sender updates the keys by
 * itself; the peer sees the update.
 */
static void ctl_key_update_before_the_confidentiality_limit(struct kunit *test)
{
	struct quic_crypto *crypto;
	struct conn_pair p = {};
	u64 limit;
	u8 phase;

	conn_handshake(test, ctl_v4, 63106, &p);
	KUNIT_ASSERT_EQ(test, ctl_event(p.server, QUIC_EVENT_KEY_UPDATE, true), 0);
	ctl_confirm(test, &p, 0);
	conn_expect_stream(test, p.server, 0, "ping", 4);

	lock_sock(p.client->sk);
	crypto = quic_crypto(p.client->sk, QUIC_CRYPTO_APP);
	limit = quic_crypto_confidentiality_limit(crypto);
	KUNIT_EXPECT_EQ(test, limit, 1ULL << 23);
	/* As if that many packets had been protected with these keys. */
	crypto->tx_count = limit - limit / 4 - 1;
	release_sock(p.client->sk);

	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 4, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "abc", 3), 3);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 8, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "def", 3), 3);
	ctl_wait_event(test, p.server, QUIC_EVENT_KEY_UPDATE, &phase, 1);
	KUNIT_EXPECT_EQ(test, phase, 1);
	lock_sock(p.client->sk);
	KUNIT_EXPECT_LT(test, crypto->tx_count, limit / 2);
	release_sock(p.client->sk);
}

/* The peer's CONNECTION_CLOSE is a notification that comes before the
 * error: code, frame type and phrase as sent.
 */
static void ctl_close_notification_comes_before_the_error(struct kunit *test)
{
	u8 buf[sizeof(struct quic_connection_close) + 81] = {};
	struct quic_connection_close *cc = (void *)buf;
	static const char phrase[] = "bye now";
	struct conn_pair p = {};
	int flags, ret;

	conn_handshake(test, ctl_v4, 63107, &p);
	KUNIT_ASSERT_EQ(test, ctl_event(p.server, QUIC_EVENT_CONNECTION_CLOSE, true), 0);
	cc->errcode = 0x55;
	memcpy(cc->phrase, phrase, sizeof(phrase));
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p.client->sk, QUIC_SOCKOPT_CONNECTION_CLOSE,
						     cc, 5 + sizeof(phrase)), 0);
	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(p.client, SHUT_RDWR), 0);

	memset(buf, 0xff, sizeof(buf));
	ret = ctl_recv_any(p.server, buf, sizeof(buf), &flags);
	KUNIT_ASSERT_EQ(test, ret, 1 + 5 + (int)sizeof(phrase));
	KUNIT_EXPECT_TRUE(test, flags & MSG_NOTIFICATION);
	KUNIT_EXPECT_EQ(test, buf[0], QUIC_EVENT_CONNECTION_CLOSE);
	cc = (void *)(buf + 1);
	KUNIT_EXPECT_EQ(test, get_unaligned(&cc->errcode), 0x55);
	KUNIT_EXPECT_EQ(test, cc->frame, 0);
	KUNIT_EXPECT_STREQ(test, (char *)cc->phrase, phrase);
	KUNIT_EXPECT_EQ(test, ctl_recv_any(p.server, buf, sizeof(buf), &flags), -ECONNRESET);
}

/* draft-lxin-quic-socket-apis, sendmsg() and recvmsg(): a notification
 * longer than the buffer comes in parts, MSG_EOR on the last; then the
 * next message.
 */
static void ctl_short_buffer_reads_a_notification_in_parts(struct kunit *test)
{
	struct quic_stream_update *up;
	struct conn_pair p = {};
	u8 buf[32], whole[32];
	int flags, ret;

	conn_handshake(test, ctl_v4, 63108, &p);
	KUNIT_ASSERT_EQ(test, ctl_event(p.server, QUIC_EVENT_STREAM_UPDATE, true), 0);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "hello", 5), 5);
	ret = ctl_recv_any(p.server, whole, 4, &flags);
	KUNIT_ASSERT_EQ(test, ret, 4);
	KUNIT_EXPECT_TRUE(test, flags & MSG_NOTIFICATION);
	KUNIT_EXPECT_FALSE(test, flags & MSG_EOR);
	KUNIT_EXPECT_EQ(test, whole[0], QUIC_EVENT_STREAM_UPDATE);
	ret = ctl_recv_any(p.server, buf, sizeof(buf), &flags);
	KUNIT_ASSERT_EQ(test, ret, 1 + (int)sizeof(*up) - 4);
	KUNIT_EXPECT_TRUE(test, flags & MSG_NOTIFICATION);
	KUNIT_EXPECT_TRUE(test, flags & MSG_EOR);
	memcpy(whole + 4, buf, ret);
	up = (void *)(whole + 1);
	KUNIT_EXPECT_EQ(test, get_unaligned(&up->id), 0LL);
	/* The data follows, whole. */
	conn_expect_stream(test, p.server, 0, "hello", 5);
}

/* RFC 9000 Sections 4.1 and 4.6: raised limits are notified: MAX_STREAMS
 * as the new count shifted left by two over the stream type (the socket
 * API draft's value), MAX_STREAM_DATA with its stream.
 */
static void ctl_raised_limits_are_notified(struct kunit *test)
{
	struct quic_stream_max_data md;
	struct conn_pair p = { .server_max_streams = 2 };
	u8 *data = conn_pattern(test, 300 * 1024, 5);
	u64 max_id;

	conn_handshake(test, ctl_v4, 63109, &p);
	KUNIT_ASSERT_EQ(test, ctl_event(p.client, QUIC_EVENT_STREAM_MAX_STREAM, true), 0);
	KUNIT_ASSERT_EQ(test, ctl_event(p.client, QUIC_EVENT_STREAM_MAX_DATA, true), 0);

	/* Two unidirectional streams are allowed; both end and the server
	 * reads them: it hands them back.
	 */
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 2, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "a", 1), 1);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 6, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "b", 1), 1);
	conn_expect_stream(test, p.server, 2, "a", 1);
	conn_expect_stream(test, p.server, 6, "b", 1);
	ctl_wait_event(test, p.client, QUIC_EVENT_STREAM_MAX_STREAM, &max_id, sizeof(max_id));
	KUNIT_EXPECT_EQ(test, max_id & QUIC_STREAM_TYPE_MASK, QUIC_STREAM_TYPE_UNI_MASK);
	KUNIT_EXPECT_GE(test, max_id >> 2, 3);

	/* More than the initial stream window (256 KiB) on one stream: the
	 * write returns once the rest is queued; reading releases it.
	 */
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 10, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       data, 300 * 1024), 300 * 1024);
	conn_expect_stream(test, p.server, 10, data, 300 * 1024);
	ctl_wait_event(test, p.client, QUIC_EVENT_STREAM_MAX_DATA, &md, sizeof(md));
	KUNIT_EXPECT_EQ(test, md.id, 10);
	KUNIT_EXPECT_GT(test, md.max_data, 256 * 1024);
}

static struct quic_connection_id_info ctl_cid_get(struct kunit *test, struct socket *sock,
						  bool dest)
{
	struct quic_connection_id_info info = { .dest = dest };
	unsigned int len = sizeof(info);

	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_CONNECTION_ID, &info,
						     &len), 0);
	return info;
}

static int ctl_cid_set(struct socket *sock, bool dest, u32 active, u32 prior_to)
{
	struct quic_connection_id_info info = {
		.dest = dest, .active = active, .prior_to = prior_to,
	};

	return quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_CONNECTION_ID, &info, sizeof(info));
}

/* The number of IDs in a set, read under the socket lock. */
static u32 ctl_cid_count(struct socket *sock, bool dest)
{
	u32 n;

	lock_sock(sock->sk);
	n = (dest ? quic_dest(sock->sk) : quic_source(sock->sk))->count;
	release_sock(sock->sk);
	return n;
}

/* One round trip on a fresh stream: what was queued before has arrived. */
static void ctl_round_trip(struct kunit *test, struct conn_pair *p, s64 id)
{
	KUNIT_ASSERT_EQ(test, conn_send_stream(p->client, id, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "rt", 2), 2);
	conn_expect_stream(test, p->server, id, "rt", 2);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p->server, id, MSG_STREAM_FIN, "tr", 2), 2);
	conn_expect_stream(test, p->client, id, "tr", 2);
}

/* RFC 9000 Section 5.1.1: each side gives the other as many IDs as its
 * active_connection_id_limit allows (the client asks for 4, the server
 * keeps the default 7 of draft-lxin-quic-socket-apis), each with a
 * stateless reset token.
 */
static void ctl_each_side_holds_the_ids_the_other_allows(struct kunit *test)
{
	struct conn_pair p = { .client_cid_limit = 4 };
	struct quic_connection_id_info info;
	struct quic_conn_id_entry *e;

	conn_handshake(test, ctl_v4, 63110, &p);
	ctl_round_trip(test, &p, 0);
	KUNIT_EXPECT_EQ(test, ctl_cid_count(p.server, false), 4);
	KUNIT_EXPECT_EQ(test, ctl_cid_count(p.client, true), 4);
	KUNIT_EXPECT_EQ(test, ctl_cid_count(p.client, false), 7);
	KUNIT_EXPECT_EQ(test, ctl_cid_count(p.server, true), 7);

	info = ctl_cid_get(test, p.client, true);
	KUNIT_EXPECT_EQ(test, info.active, 0);
	KUNIT_EXPECT_EQ(test, info.prior_to, 0);
	info = ctl_cid_get(test, p.server, false);
	KUNIT_EXPECT_EQ(test, info.active, 0);
	KUNIT_EXPECT_EQ(test, info.prior_to, 0);

	/* Every ID the client holds came with the server's reset token. */
	lock_sock(p.client->sk);
	list_for_each_entry(e, &quic_dest(p.client->sk)->head, list) {
		u8 want[QUIC_CONN_ID_TOKEN_LEN];

		KUNIT_EXPECT_TRUE(test, quic_dest_conn_id(e)->has_token);
		KUNIT_EXPECT_EQ(test, quic_cid_reset_token(&init_net, &e->id, want), 0);
		KUNIT_EXPECT_MEMEQ(test, quic_dest_conn_id(e)->token, want, sizeof(want));
	}
	release_sock(p.client->sk);
}

/* QUIC_SOCKOPT_CONNECTION_ID with dest 1: the client moves to the
 * server's ID 2 and retires 0 and 1; the server replaces them and the
 * connection goes on.
 */
static void ctl_switching_to_another_peer_id_retires_the_older_ones(struct kunit *test)
{
	struct conn_pair p = { .client_cid_limit = 4 };
	struct quic_connection_id_info info;
	int i;

	conn_handshake(test, ctl_v4, 63111, &p);
	ctl_round_trip(test, &p, 0);
	KUNIT_EXPECT_EQ(test, ctl_cid_set(p.client, true, 9, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ctl_cid_set(p.client, true, 1, 2), -EINVAL);
	KUNIT_ASSERT_EQ(test, ctl_cid_set(p.client, true, 2, 2), 0);
	info = ctl_cid_get(test, p.client, true);
	KUNIT_EXPECT_EQ(test, info.active, 2);
	KUNIT_EXPECT_EQ(test, info.prior_to, 2);

	ctl_round_trip(test, &p, 4);
	/* The server retired 0 and 1 and issued 4 and 5. */
	for (i = 0; i < 100 && ctl_cid_count(p.client, true) < 4; i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, ctl_cid_count(p.client, true), 4);
	info = ctl_cid_get(test, p.server, false);
	KUNIT_EXPECT_EQ(test, info.prior_to, 2);
	ctl_round_trip(test, &p, 8);
}

/* QUIC_SOCKOPT_CONNECTION_ID with dest 0: the server asks the client to
 * retire its IDs below 2; the client must move off the one it uses and is
 * told so with QUIC_EVENT_CONNECTION_ID.
 */
static void ctl_peer_retiring_the_id_in_use_is_notified(struct kunit *test)
{
	struct quic_connection_id_info info;
	struct conn_pair p = {};

	conn_handshake(test, ctl_v4, 63112, &p);
	KUNIT_ASSERT_EQ(test, ctl_event(p.client, QUIC_EVENT_CONNECTION_ID, true), 0);
	ctl_round_trip(test, &p, 0);
	/* Above the next number the server would issue (7 were). */
	KUNIT_EXPECT_EQ(test, ctl_cid_set(p.server, false, 0, 99), -EINVAL);
	KUNIT_ASSERT_EQ(test, ctl_cid_set(p.server, false, 0, 2), 0);
	ctl_wait_event(test, p.client, QUIC_EVENT_CONNECTION_ID, &info, sizeof(info));
	KUNIT_EXPECT_EQ(test, info.dest, 1);
	KUNIT_EXPECT_EQ(test, info.active, 2);
	KUNIT_EXPECT_EQ(test, info.prior_to, 2);
	ctl_round_trip(test, &p, 4);
	info = ctl_cid_get(test, p.server, false);
	KUNIT_EXPECT_GE(test, info.prior_to, 2);
}

/* A NEW_CONNECTION_ID from the network whose Retire Prior To jumps by
 * 2^40 queues a bounded number of RETIRE_CONNECTION_ID frames, not 2^40:
 * one per ID the client held, and the last QUIC_CONN_ID_RETIRE_MAX
 * numbers below the new value.
 */
static void ctl_huge_retire_prior_to_is_bounded(struct kunit *test)
{
	struct quic_frame f = { .type = QUIC_FRAME_NEW_CONNECTION_ID };
	const struct quic_outq_space *sp;
	const struct quic_outq_frame *fr;
	struct conn_pair p = {};
	int retires = 0, held;

	conn_handshake(test, ctl_v4, 63120, &p);
	ctl_round_trip(test, &p, 0);
	f.new_cid.seqno = 1ULL << 40;
	f.new_cid.prior_to = 1ULL << 40;
	quic_conn_id_generate(&f.new_cid.id, 8);
	get_random_bytes(f.new_cid.token, sizeof(f.new_cid.token));

	lock_sock(p.client->sk);
	held = quic_dest(p.client->sk)->count;
	KUNIT_EXPECT_EQ(test, quic_cid_recv_new(p.client->sk, &f), 0);
	sp = &quic_outq(p.client->sk)->spaces[quic_pnspace_index(QUIC_CRYPTO_APP)];
	list_for_each_entry(fr, &sp->ctrl, list)
		retires += fr->type == QUIC_FRAME_RETIRE_CONNECTION_ID;
	KUNIT_EXPECT_EQ(test, quic_conn_id_active(quic_dest(p.client->sk))->number, 1ULL << 40);
	release_sock(p.client->sk);
	KUNIT_EXPECT_EQ(test, retires, QUIC_CONN_ID_RETIRE_MAX + held);
}

/*
 * A kernel socket cannot linger through its closing period (it holds no
 * reference on its namespace): closed while the period runs, the period
 * ends with it, under the socket lock, before the socket's state is
 * freed, so that a datagram for it still on its way (the receive path
 * holds a reference) is dropped rather than answered with the closing
 * datagram being freed. The test holds such a reference.
 */
static void ctl_kernel_socket_closed_in_its_closing_period_leaves_it(struct kunit *test)
{
	struct conn_pair p = {};
	struct sock *sk;

	conn_handshake(test, ctl_v4, 63189, &p);
	ctl_round_trip(test, &p, 0);
	sk = p.client->sk;
	KUNIT_ASSERT_FALSE(test, (bool)sk->sk_net_refcnt);
	sock_hold(sk);
	kunit_release_action(test, conn_sock_release, p.client);
	KUNIT_EXPECT_FALSE(test, (bool)quic_sk(sk)->close.period);
	KUNIT_EXPECT_NULL(test, quic_sk(sk)->close.skb);
	sock_put(sk);
}

/* RFC 9000 Section 10.3.1: a datagram ending with a reset token of the
 * peer's ends the connection at once (ECONNRESET); a datagram with a
 * token we never got is just dropped.
 */
static void ctl_stateless_reset_ends_the_connection(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_conn_id_entry *own, *srv_id;
	struct socket *udp;
	union quic_addr to;
	struct msghdr msg = {};
	struct kvec iov;
	u8 dgram[48];
	int len = sizeof(to);

	conn_handshake(test, ctl_v4, 63113, &p);
	ctl_round_trip(test, &p, 0);
	KUNIT_ASSERT_GT(test, kernel_getsockname(p.client, &to.sa), 0);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_UDP,
					       &udp), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, udp), 0);

	/* A short header to the client's ID, as the server would send it. */
	get_random_bytes(dgram, sizeof(dgram));
	dgram[0] = 0x40 | (dgram[0] & 0x3f);
	lock_sock(p.client->sk);
	own = quic_conn_id_active(quic_source(p.client->sk));
	memcpy(dgram + 1, own->id.data, own->id.len);
	release_sock(p.client->sk);
	msg.msg_name = &to;
	msg.msg_namelen = len;

	/* Random tail: not a reset; the connection lives on. */
	iov.iov_base = dgram;
	iov.iov_len = sizeof(dgram);
	KUNIT_ASSERT_EQ(test, kernel_sendmsg(udp, &msg, &iov, 1, sizeof(dgram)), sizeof(dgram));
	ctl_round_trip(test, &p, 4);

	/* The tail the server's ID 0 gets: its stateless reset token. */
	lock_sock(p.server->sk);
	srv_id = quic_conn_id_find(quic_source(p.server->sk), 0);
	KUNIT_ASSERT_NOT_NULL(test, srv_id);
	KUNIT_ASSERT_EQ(test, quic_cid_reset_token(&init_net, &srv_id->id,
						   dgram + sizeof(dgram) - 16), 0);
	release_sock(p.server->sk);
	msg.msg_name = &to;
	KUNIT_ASSERT_EQ(test, kernel_sendmsg(udp, &msg, &iov, 1, sizeof(dgram)), sizeof(dgram));
	KUNIT_EXPECT_EQ(test, conn_recv(p.client, QUIC_STREAM_INFO, dgram, 8, dgram, 8),
			-ECONNRESET);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(p.client->sk));
}

/* Send @dgram to the client from a plain UDP socket. */
static void ctl_send_raw(struct kunit *test, struct conn_pair *p, u8 *dgram, size_t len)
{
	struct msghdr msg = {};
	struct socket *udp;
	union quic_addr to;
	struct kvec iov = { .iov_base = dgram, .iov_len = len };

	KUNIT_ASSERT_GT(test, kernel_getsockname(p->client, &to.sa), 0);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_UDP,
					       &udp), 0);
	msg.msg_name = &to;
	msg.msg_namelen = sizeof(to.v4);
	KUNIT_EXPECT_EQ(test, kernel_sendmsg(udp, &msg, &iov, 1, len), (int)len);
	sock_release(udp);
}

/* The reset token of the server's ID @number, at the end of @dgram. */
static void ctl_reset_tail(struct kunit *test, struct conn_pair *p, u64 number, u8 *dgram,
			   size_t len)
{
	struct quic_conn_id_entry *e;

	lock_sock(p->server->sk);
	e = quic_conn_id_find(quic_source(p->server->sk), number);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, quic_cid_reset_token(&init_net, &e->id, dgram + len - 16), 0);
	release_sock(p->server->sk);
}

/*
 * RFC 9000 Section 10.3.1: only the tokens of IDs we have sent to count
 * ("MUST NOT check for any stateless reset tokens associated with
 * connection IDs it has not used"): the token of the server's ID 1, which
 * the client holds but never used, ends nothing. The check does not look
 * at the header form: a datagram whose first packet is a long header that
 * cannot be processed and that ends with the token of ID 0 is a reset.
 */
static void ctl_stateless_reset_needs_a_used_id_and_any_header(struct kunit *test)
{
	struct quic_conn_id_entry *own;
	struct conn_pair p = {};
	u8 dgram[64];
	int n;

	conn_handshake(test, ctl_v4, 63122, &p);
	ctl_round_trip(test, &p, 0);
	lock_sock(p.client->sk);
	own = quic_conn_id_active(quic_source(p.client->sk));
	get_random_bytes(dgram, sizeof(dgram));
	n = own->id.len;
	memcpy(dgram + 1, own->id.data, n);
	release_sock(p.client->sk);

	/* A short header with the tail of the unused ID 1: dropped. */
	dgram[0] = 0x40 | (dgram[0] & 0x3f);
	ctl_reset_tail(test, &p, 1, dgram, sizeof(dgram));
	ctl_send_raw(test, &p, dgram, sizeof(dgram));
	ctl_round_trip(test, &p, 4);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.client->sk));

	/* A long header (Handshake, version 1, the client's ID, an unknown
	 * Source ID, then its length) with the tail of ID 0: a reset.
	 */
	dgram[0] = 0xe0;
	put_unaligned_be32(QUIC_VERSION_V1, dgram + 1);
	dgram[5] = n;
	memcpy(dgram + 6, own->id.data, n);
	dgram[6 + n] = 4;
	put_unaligned_be16(0x4000 | (sizeof(dgram) - 6 - n - 1 - 4 - 2), dgram + 6 + n + 1 + 4);
	ctl_reset_tail(test, &p, 0, dgram, sizeof(dgram));
	ctl_send_raw(test, &p, dgram, sizeof(dgram));
	KUNIT_EXPECT_EQ(test, conn_recv(p.client, QUIC_STREAM_INFO, dgram, 8, dgram, 8),
			-ECONNRESET);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(p.client->sk));
}

/* RFC 9000 Sections 8.1.2 and 17.2.5: a listener that validates addresses
 * answers the first Initial with a Retry; the client comes back with the
 * token and new keys, both ends record the IDs of Section 7.3, and the
 * connection works. The server then sends NEW_TOKEN: a second connection
 * presenting it is validated from its first packet, without a Retry.
 */
static void ctl_retry_then_new_token(struct kunit *test)
{
	struct conn_pair p = { .validate_peer_address = 1,
			       .client_events = BIT(QUIC_EVENT_NEW_TOKEN) };
	struct conn_pair q = { .validate_peer_address = 1 };
	u8 token[QUIC_TOKEN_MAX_LEN];
	unsigned int len = sizeof(token);
	int n;

	conn_handshake(test, ctl_v4, 63114, &p);
	KUNIT_EXPECT_TRUE(test, quic_paths(p.client->sk)->retry);
	KUNIT_EXPECT_TRUE(test, quic_paths(p.server->sk)->retry);
	KUNIT_EXPECT_TRUE(test, quic_paths(p.server->sk)->validated);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&quic_paths(p.client->sk)->orig_dcid,
						   &quic_paths(p.server->sk)->orig_dcid));
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&quic_paths(p.client->sk)->retry_dcid,
						   &quic_paths(p.server->sk)->retry_dcid));
	n = ctl_wait_event_len(test, p.client, QUIC_EVENT_NEW_TOKEN, token, sizeof(token));
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(p.client->sk, QUIC_SOCKOPT_TOKEN, token,
						     &len), 0);
	KUNIT_EXPECT_EQ(test, len, n);
	ctl_round_trip(test, &p, 0);

	/* The next connection presents the token (as an application would). */
	q.client_token = token;
	q.client_token_len = len;
	conn_handshake(test, ctl_v4, 63115, &q);
	KUNIT_EXPECT_FALSE(test, quic_paths(q.client->sk)->retry);
	KUNIT_EXPECT_FALSE(test, quic_paths(q.server->sk)->retry);
	KUNIT_EXPECT_TRUE(test, quic_paths(q.server->sk)->validated);
	ctl_round_trip(test, &q, 0);
}

/* A kernel UDP socket on 127.0.0.1, released when the case ends. */
static struct socket *ctl_udp(struct kunit *test, long timeo)
{
	struct socket *udp;
	union quic_addr a;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_UDP,
					       &udp), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, udp), 0);
	quic_kunit_addr4(&a, "127.0.0.1", 0);
	KUNIT_ASSERT_EQ(test, kernel_bind(udp, &a.sa, sizeof(a.v4)), 0);
	udp->sk->sk_rcvtimeo = timeo;
	return udp;
}

static void ctl_udp_send(struct kunit *test, struct socket *udp, union quic_addr *to,
			 void *buf, size_t len)
{
	struct msghdr msg = { .msg_name = to, .msg_namelen = sizeof(to->v4) };
	struct kvec iov = { .iov_base = buf, .iov_len = len };

	KUNIT_ASSERT_EQ(test, kernel_sendmsg(udp, &msg, &iov, 1, len), (int)len);
}

/* A long header of version @version with 8-byte IDs, padded to @len. */
static void ctl_long_header(u8 *buf, size_t len, u32 version, const u8 *dcid, const u8 *scid)
{
	memset(buf, 0, len);
	buf[0] = 0xc0;
	put_unaligned_be32(version, buf + 1);
	buf[5] = 8;
	memcpy(buf + 6, dcid, 8);
	buf[14] = 8;
	memcpy(buf + 15, scid, 8);
}

/* RFC 9000 Section 6.1: a listener answers a first datagram of 1200 bytes
 * in an unknown version with Version Negotiation (v1, v2 and a reserved
 * version, the IDs echoed), and a shorter one with nothing.
 */
static void ctl_unknown_version_gets_version_negotiation(struct kunit *test)
{
	static const u8 dcid[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, scid[8] = { 9, 9, 9, 9, 8, 8, 8, 8 };
	struct socket *lsock, *udp = ctl_udp(test, HZ / 2);
	struct quic_packet_invariant inv;
	u8 *buf = kunit_kzalloc(test, 1500, GFP_KERNEL);
	struct kvec iov = { .iov_base = buf, .iov_len = 1500 };
	struct msghdr msg = {};
	u32 versions[8];
	union quic_addr a;
	int n, i, reserved = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	lsock = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	quic_kunit_addr4(&a, "127.0.0.1", 63116);
	KUNIT_ASSERT_EQ(test, kernel_bind(lsock, &a.sa, sizeof(a.v4)), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 4), 0);

	ctl_long_header(buf, 1000, 0x1a2a3a4a, dcid, scid);
	ctl_udp_send(test, udp, &a, buf, 1000);
	KUNIT_EXPECT_EQ(test, kernel_recvmsg(udp, &msg, &iov, 1, 1500, 0), -EAGAIN);

	ctl_long_header(buf, 1200, 0x1a2a3a4a, dcid, scid);
	ctl_udp_send(test, udp, &a, buf, 1200);
	n = kernel_recvmsg(udp, &msg, &iov, 1, 1500, 0);
	KUNIT_ASSERT_GT(test, n, 0);
	n = quic_packet_parse_vn(buf, n, &inv, versions, ARRAY_SIZE(versions));
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, versions[0], QUIC_VERSION_V1);
	KUNIT_EXPECT_EQ(test, versions[1], QUIC_VERSION_V2);
	for (i = 0; i < n; i++)
		reserved += (versions[i] & 0x0f0f0f0f) == 0x0a0a0a0a;
	KUNIT_EXPECT_EQ(test, reserved, 1);
	KUNIT_EXPECT_EQ(test, inv.dcid_len, 8);
	KUNIT_EXPECT_MEMEQ(test, inv.dcid, scid, 8);
	KUNIT_EXPECT_MEMEQ(test, inv.scid, dcid, 8);
}

/* RFC 9000 Section 6.2: a client discards a Version Negotiation that
 * lists its version or does not echo its IDs, and abandons the attempt
 * (EPROTONOSUPPORT) on one that offers only versions it does not speak.
 */
static void ctl_client_abandons_on_version_negotiation(struct kunit *test)
{
	struct socket *cli = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct socket *udp = ctl_udp(test, HZ / 2);
	u8 wrong[QUIC_CONN_ID_MAX_LEN] = {}, buf[64];
	struct quic_conn_id scid, odcid;
	struct quic_handshake_info hi;
	union quic_addr to, me;
	int len, o;

	cli->sk->sk_rcvtimeo = HZ / 2;
	KUNIT_ASSERT_GT(test, kernel_getsockname(udp, &to.sa), 0);
	KUNIT_ASSERT_EQ(test, kernel_connect(cli, &to.sa, sizeof(to.v4), 0), 0);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(cli, QUIC_CRYPTO_INITIAL, "client hello", 12), 12);
	KUNIT_ASSERT_GT(test, kernel_getsockname(cli, &me.sa), 0);
	lock_sock(cli->sk);
	scid = quic_conn_id_active(quic_source(cli->sk))->id;
	odcid = quic_paths(cli->sk)->orig_dcid;
	release_sock(cli->sk);

	/* VN header: DCID = the client's SCID, SCID = its first DCID. */
	buf[0] = 0x80;
	put_unaligned_be32(0, buf + 1);
	buf[5] = scid.len;
	memcpy(buf + 6, scid.data, scid.len);
	o = 6 + scid.len;
	buf[o] = odcid.len;
	memcpy(buf + o + 1, odcid.data, odcid.len);
	len = o + 1 + odcid.len;
	put_unaligned_be32(QUIC_VERSION_V1, buf + len);
	ctl_udp_send(test, udp, &me, buf, len + 4);
	put_unaligned_be32(0x1a2a3a4a, buf + len);
	memcpy(buf + o + 1, wrong, odcid.len);
	ctl_udp_send(test, udp, &me, buf, len + 4);
	KUNIT_EXPECT_EQ(test, conn_recv(cli, QUIC_HANDSHAKE_INFO, &hi, sizeof(hi), buf, 8),
			-EAGAIN);
	KUNIT_EXPECT_TRUE(test, quic_is_establishing(cli->sk));

	memcpy(buf + o + 1, odcid.data, odcid.len);
	ctl_udp_send(test, udp, &me, buf, len + 4);
	KUNIT_EXPECT_EQ(test, conn_recv(cli, QUIC_HANDSHAKE_INFO, &hi, sizeof(hi), buf, 8),
			-EPROTONOSUPPORT);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(cli->sk));
}

/* RFC 9000 Section 13.4: over loopback, which keeps the ECN bits, each
 * side marks ECT(0), the peer counts what it received in ACK_ECN frames,
 * and both paths validate as ECN-capable.
 */
static void ctl_ecn_validates_over_loopback(struct kunit *test)
{
	struct conn_pair p = {};
	u8 *data = conn_pattern(test, 20000, 7);
	struct quic_pnspace *space;

	conn_handshake(test, ctl_v4, 63117, &p);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       data, 20000), 20000);
	conn_expect_stream(test, p.server, 0, data, 20000);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.server, 0, MSG_STREAM_FIN, data, 20000), 20000);
	conn_expect_stream(test, p.client, 0, data, 20000);
	ctl_round_trip(test, &p, 4);

	/* What the client received was marked; what it sent was counted. */
	lock_sock(p.client->sk);
	space = quic_pnspace(p.client->sk, QUIC_CRYPTO_APP);
	KUNIT_EXPECT_EQ(test, quic_outq(p.client->sk)->ecn_state, QUIC_ECN_CAPABLE);
	KUNIT_EXPECT_GT(test, space->ecn_count[QUIC_ECN_LOCAL][QUIC_ECN_ECT0], 0);
	KUNIT_EXPECT_GT(test, space->ecn_count[QUIC_ECN_PEER][QUIC_ECN_ECT0], 0);
	release_sock(p.client->sk);
	lock_sock(p.server->sk);
	KUNIT_EXPECT_EQ(test, quic_outq(p.server->sk)->ecn_state, QUIC_ECN_CAPABLE);
	release_sock(p.server->sk);
}

static struct sock *ctl_watched;
static atomic_t ctl_largest;

/* Transmit hook: the largest datagram @ctl_watched sent; nothing dropped. */
static bool ctl_note_size(struct sock *sk, struct sk_buff *skb)
{
	int len = skb->len;

	if (sk == READ_ONCE(ctl_watched) && len > atomic_read(&ctl_largest))
		atomic_set(&ctl_largest, len);
	return false;
}

static void ctl_size_hook_off(void *unused)
{
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
	WRITE_ONCE(ctl_watched, NULL);
}

/* @sock's peer is @want: getpeername() says so, and the lookup by address
 * pair (for packets without a connection ID) finds @sock there, which it
 * does only if the socket moved to the bucket of its new pair.
 */
static void ctl_expect_peer(struct kunit *test, struct socket *sock, const union quic_addr *want)
{
	union quic_addr local = {}, peer = {};
	struct sock *found;

	KUNIT_ASSERT_GT(test, kernel_getsockname(sock, &local.sa), 0);
	KUNIT_ASSERT_GT(test, kernel_getpeername(sock, &peer.sa), 0);
	KUNIT_EXPECT_TRUE(test, peer.v4.sin_addr.s_addr == want->v4.sin_addr.s_addr);
	KUNIT_EXPECT_EQ(test, ntohs(peer.v4.sin_port), ntohs(want->v4.sin_port));
	rcu_read_lock();
	found = quic_conn_addr_lookup(sock_net(sock->sk), &local, want);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, found, sock->sk);
	if (found)
		sock_put(found);
}

static atomic_t ctl_drops;

/* Transmit hook: lose the next ctl_drops datagrams of @ctl_watched. */
static bool ctl_drop_next(struct sock *sk, struct sk_buff *skb)
{
	return sk == READ_ONCE(ctl_watched) && atomic_dec_if_positive(&ctl_drops) >= 0;
}

/*
 * RFC 9002 Section 6.2.2.1: the anti-amplification limit withholds the
 * PTO only while the server is at it. On a path the server validated
 * (after the handshake, or after the client moved), its answer on stream
 * @id is lost in its first three datagrams, and nothing the client sends
 * can reveal the loss: only the server's PTO brings it.
 */
static void ctl_tail_loss_is_probed(struct kunit *test, struct conn_pair *p, s64 id)
{
	KUNIT_ASSERT_EQ(test, conn_send_stream(p->client, id, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "rt", 2), 2);
	conn_expect_stream(test, p->server, id, "rt", 2);
	lock_sock(p->server->sk);
	KUNIT_EXPECT_FALSE(test, quic_outq(p->server->sk)->amp_limited);
	release_sock(p->server->sk);

	atomic_set(&ctl_drops, 3);
	WRITE_ONCE(ctl_watched, p->server->sk);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ctl_size_hook_off, NULL), 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, ctl_drop_next);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p->server, id, MSG_STREAM_FIN, "tr", 2), 2);
	conn_expect_stream(test, p->client, id, "tr", 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctl_drops), 0);
	kunit_release_action(test, ctl_size_hook_off, NULL);
}

static void ctl_set_ecn_failed(struct socket *sock)
{
	lock_sock(sock->sk);
	quic_outq(sock->sk)->ecn_state = QUIC_ECN_FAILED;
	release_sock(sock->sk);
}

static int ctl_migrate(struct socket *sock, union quic_addr *a, unsigned int len)
{
	return quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_CONNECTION_MIGRATION, a, len);
}

/* RFC 9000 Section 9: the client moves to another local address
 * (127.0.0.2, a new port) with QUIC_SOCKOPT_CONNECTION_MIGRATION: it takes
 * a new connection ID of the server's and retires the old one; the server
 * follows to the new address, validates it with PATH_CHALLENGE, and both
 * are told. Data flows before, during and after.
 */
static void ctl_client_moves_to_a_new_local_address(struct kunit *test)
{
	struct conn_pair p = { .listen_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION),
			       .client_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION) };
	struct quic_connection_id_info info;
	union quic_addr na, before, after;
	u8 local = 9;

	conn_handshake(test, ctl_v4, 63118, &p);
	ctl_round_trip(test, &p, 0);
	KUNIT_ASSERT_GT(test, kernel_getsockname(p.client, &before.sa), 0);
	quic_kunit_addr4(&na, "127.0.0.2", 0);
	KUNIT_EXPECT_EQ(test, ctl_migrate(p.server, &na, sizeof(na.v4)), -EINVAL);
	KUNIT_EXPECT_EQ(test, ctl_migrate(p.client, &na, 3), -EINVAL);
	/* ECN failed on the old path (RFC 9000 Section 13.4.2: the new one is
	 * validated again, by both ends).
	 */
	ctl_set_ecn_failed(p.client);
	ctl_set_ecn_failed(p.server);
	/* From here the client sends a PING, ACKs and its PATH_RESPONSE. */
	atomic_set(&ctl_largest, 0);
	WRITE_ONCE(ctl_watched, p.client->sk);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ctl_size_hook_off, NULL), 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, ctl_note_size);
	KUNIT_ASSERT_EQ(test, ctl_migrate(p.client, &na, sizeof(na.v4)), 0);
	KUNIT_ASSERT_GT(test, kernel_getsockname(p.client, &after.sa), 0);
	KUNIT_EXPECT_TRUE(test, after.v4.sin_addr.s_addr == na.v4.sin_addr.s_addr);
	KUNIT_EXPECT_NE(test, ntohs(after.v4.sin_port), 0);
	KUNIT_EXPECT_NE(test, ntohs(after.v4.sin_port), ntohs(before.v4.sin_port));
	ctl_wait_event(test, p.client, QUIC_EVENT_CONNECTION_MIGRATION, &local, 1);
	KUNIT_EXPECT_EQ(test, local, 1);
	info = ctl_cid_get(test, p.client, true);
	KUNIT_EXPECT_EQ(test, info.active, 1);

	/* The client's PING moved the server, whose PATH_CHALLENGE the
	 * client answers by itself.
	 */
	ctl_wait_event(test, p.server, QUIC_EVENT_CONNECTION_MIGRATION, &local, 1);
	KUNIT_EXPECT_EQ(test, local, 0);
	ctl_expect_peer(test, p.server, &after);
	lock_sock(p.client->sk);
	KUNIT_EXPECT_NE(test, quic_outq(p.client->sk)->ecn_state, QUIC_ECN_FAILED);
	release_sock(p.client->sk);
	lock_sock(p.server->sk);
	KUNIT_EXPECT_NE(test, quic_outq(p.server->sk)->ecn_state, QUIC_ECN_FAILED);
	release_sock(p.server->sk);
	/* RFC 9000 Section 8.2.1: the PATH_RESPONSE went in 1200 bytes. */
	KUNIT_EXPECT_GE(test, atomic_read(&ctl_largest), QUIC_MIN_UDP_PAYLOAD);
	ctl_size_hook_off(NULL);
	ctl_round_trip(test, &p, 4);
	lock_sock(p.server->sk);
	KUNIT_EXPECT_TRUE(test, quic_paths(p.server->sk)->validated);
	KUNIT_EXPECT_TRUE(test, quic_path_daddr(quic_paths(p.server->sk), 0)->v4.sin_addr.s_addr ==
				na.v4.sin_addr.s_addr);
	KUNIT_EXPECT_TRUE(test, quic_path_daddr(quic_paths(p.server->sk), 0)->v4.sin_port ==
				after.v4.sin_port);
	release_sock(p.server->sk);
	ctl_round_trip(test, &p, 8);
	ctl_tail_loss_is_probed(test, &p, 12);
}

/* RFC 9000 Section 9.6: the server offers 127.0.0.3 at another port as
 * its preferred address, with connection ID 1. Once the handshake is
 * confirmed the client validates it (its PATH_CHALLENGE, answered from
 * that address) and moves there; the server probes the client from there
 * and moves its sending too. Both are told, and data flows after.
 */
static void ctl_server_preferred_address_moves_both_ends(struct kunit *test)
{
	struct conn_pair p = { .listen_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION),
			       .client_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION) };
	struct quic_connection_id_info info;
	union quic_addr pref, got;
	u8 local = 9;

	quic_kunit_addr4(&pref, "127.0.0.3", 63121);
	p.server_pref = &pref;
	conn_handshake(test, ctl_v4, 63120, &p);

	ctl_wait_event(test, p.client, QUIC_EVENT_CONNECTION_MIGRATION, &local, 1);
	KUNIT_EXPECT_EQ(test, local, 0);
	KUNIT_ASSERT_GT(test, kernel_getpeername(p.client, &got.sa), 0);
	KUNIT_EXPECT_EQ(test, ntohl(got.v4.sin_addr.s_addr), ntohl(pref.v4.sin_addr.s_addr));
	KUNIT_EXPECT_EQ(test, ntohs(got.v4.sin_port), ntohs(pref.v4.sin_port));
	info = ctl_cid_get(test, p.client, true);
	KUNIT_EXPECT_EQ(test, info.active, 1);

	local = 9;
	ctl_wait_event(test, p.server, QUIC_EVENT_CONNECTION_MIGRATION, &local, 1);
	KUNIT_EXPECT_EQ(test, local, 1);
	KUNIT_ASSERT_GT(test, kernel_getsockname(p.server, &got.sa), 0);
	KUNIT_EXPECT_EQ(test, ntohl(got.v4.sin_addr.s_addr), ntohl(pref.v4.sin_addr.s_addr));
	KUNIT_EXPECT_EQ(test, ntohs(got.v4.sin_port), ntohs(pref.v4.sin_port));
	lock_sock(p.server->sk);
	KUNIT_EXPECT_FALSE(test, quic_paths(p.server->sk)->pref_addr);
	KUNIT_EXPECT_TRUE(test, quic_paths(p.server->sk)->validated);
	release_sock(p.server->sk);
	lock_sock(p.client->sk);
	KUNIT_EXPECT_FALSE(test, quic_paths(p.client->sk)->pref_addr);
	KUNIT_EXPECT_NULL(test, quic_conn_id_find(quic_dest(p.client->sk), 0));
	release_sock(p.client->sk);

	ctl_round_trip(test, &p, 0);
	ctl_round_trip(test, &p, 4);
	/* Offered before the handshake only. */
	KUNIT_EXPECT_EQ(test, ctl_migrate(p.server, &pref, sizeof(pref.v4)), -EINVAL);
}

static atomic_t ctl_fixed[2];

static bool ctl_count_fixed_bit(struct sock *sk, struct sk_buff *skb)
{
	if (!(skb->data[0] & QUIC_HDR_FORM_LONG))
		atomic_inc(&ctl_fixed[!!(skb->data[0] & QUIC_HDR_FIXED_BIT)]);
	return false;
}

static void ctl_hook_off(void *unused)
{
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
}

/* RFC 9287: when both ends sent grease_quic_bit, 1-RTT packets go out with
 * a random Fixed Bit, and the receiver takes both values.
 */
static void ctl_grease_quic_bit_randomizes_the_fixed_bit(struct kunit *test)
{
	struct conn_pair p = { .grease = 1 };
	u8 *data = conn_pattern(test, 60000, 9);

	conn_handshake(test, ctl_v4, 63119, &p);
	atomic_set(&ctl_fixed[0], 0);
	atomic_set(&ctl_fixed[1], 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ctl_hook_off, NULL), 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, ctl_count_fixed_bit);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       data, 60000), 60000);
	conn_expect_stream(test, p.server, 0, data, 60000);
	ctl_round_trip(test, &p, 4);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
	/* About 50 short-header packets each way: both values, by far. */
	KUNIT_EXPECT_GT(test, atomic_read(&ctl_fixed[0]), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&ctl_fixed[1]), 0);
}

static const char ctl_marker[] = "disable_1rtt_encryption: in the clear";
static atomic_t ctl_clear, ctl_short;

/* Count the short header datagrams, and those showing ctl_marker. */
static bool ctl_find_marker(struct sock *sk, struct sk_buff *skb)
{
	unsigned int n = sizeof(ctl_marker) - 1, len = skb_headlen(skb), i;

	if (skb->data[0] & QUIC_HDR_FORM_LONG)
		return false;
	atomic_inc(&ctl_short);
	for (i = 0; i + n <= len; i++) {
		if (!memcmp(skb->data + i, ctl_marker, n)) {
			atomic_inc(&ctl_clear);
			break;
		}
	}
	return false;
}

/* Packets @sock sent in the Application space that count in flight yet
 * are not ack-eliciting: padded ACK-only packets, which nothing would ever
 * acknowledge while the peer only sends data.
 */
static u32 ctl_padded_acks(struct socket *sock)
{
	struct quic_outq_space *sp = &quic_outq(sock->sk)->spaces[QUIC_CRYPTO_APP];
	struct quic_outq_packet *pkt;
	u32 n = 0;

	lock_sock(sock->sk);
	list_for_each_entry(pkt, &sp->sent, list)
		n += pkt->in_flight && !pkt->ack_eliciting;
	release_sock(sock->sk);
	return n;
}

/*
 * disable_1rtt_encryption (@who: bit 0 the listener sends it, bit 1 the
 * client): only when both sent it do 1-RTT packets travel unprotected;
 * the stream arrives intact either way. The server, which only
 * acknowledges, never pads its ACK-only packets into flight: they would
 * fill its congestion window for good (transmit.c).
 */
static void ctl_plain_1rtt(struct kunit *test, u8 who, u16 port)
{
	struct conn_pair p = { .plain_1rtt = who };
	size_t len = 40000, i, n = sizeof(ctl_marker) - 1;
	bool both = who == 3, plain;
	u8 *data;

	data = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	for (i = 0; i < len; i++)
		data[i] = ctl_marker[i % n];
	conn_handshake(test, ctl_v4, port, &p);
	lock_sock(p.client->sk);
	plain = quic_crypto(p.client->sk, QUIC_CRYPTO_APP)->plain_1rtt;
	release_sock(p.client->sk);
	KUNIT_EXPECT_EQ(test, plain, both);
	lock_sock(p.server->sk);
	plain = quic_crypto(p.server->sk, QUIC_CRYPTO_APP)->plain_1rtt;
	release_sock(p.server->sk);
	KUNIT_EXPECT_EQ(test, plain, both);

	atomic_set(&ctl_clear, 0);
	atomic_set(&ctl_short, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ctl_hook_off, NULL), 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, ctl_find_marker);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       data, len), len);
	conn_expect_stream(test, p.server, 0, data, len);
	KUNIT_EXPECT_EQ(test, ctl_padded_acks(p.server), 0U);
	ctl_round_trip(test, &p, 4);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
	KUNIT_EXPECT_GT(test, atomic_read(&ctl_short), 0);
	if (both)
		KUNIT_EXPECT_GT(test, atomic_read(&ctl_clear), 0);
	else
		KUNIT_EXPECT_EQ(test, atomic_read(&ctl_clear), 0);
}

static void ctl_disable_1rtt_encryption_by_both_sends_plaintext(struct kunit *test)
{
	ctl_plain_1rtt(test, 3, 63125);
}

static void ctl_disable_1rtt_encryption_by_one_side_keeps_protection(struct kunit *test)
{
	ctl_plain_1rtt(test, 2, 63126);
	ctl_plain_1rtt(test, 1, 63127);
}

static int ctl_udp_recv(struct socket *udp, u8 *buf, size_t len)
{
	struct kvec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {};

	return kernel_recvmsg(udp, &msg, &iov, 1, len, 0);
}

/* A short header packet of @len bytes to the connection ID @dcid. */
static void ctl_short_packet(u8 *buf, size_t len, const struct quic_conn_id *dcid)
{
	get_random_bytes(buf, len);
	buf[0] = 0x40 | (buf[0] & 0x3f);
	memcpy(buf + 1, dcid->data, dcid->len);
}

/* A QUIC listener on 127.0.0.1:@port (@a), released when the case ends. */
static void ctl_listener(struct kunit *test, u16 port, union quic_addr *a)
{
	struct socket *lsock;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_QUIC,
					       &lsock), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, lsock), 0);
	conn_addr(a, AF_INET, "127.0.0.1", port);
	KUNIT_ASSERT_EQ(test, kernel_bind(lsock, &a->sa, sizeof(a->v4)), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 1), 0);
}

static void ctl_gone_connection_gets_a_stateless_reset(struct kunit *test)
{
	struct socket *udp;
	struct quic_conn_id dcid;
	u8 pkt[100], rst[128], token[16];
	union quic_addr a;
	int n;

	ctl_listener(test, 63140, &a);
	udp = ctl_udp(test, HZ / 5);
	quic_conn_id_generate(&dcid, QUIC_CONN_ID_OWN_LEN);
	KUNIT_ASSERT_EQ(test, quic_cid_reset_token(&init_net, &dcid, token), 0);

	/* RFC 9000 Section 10.3: short header lookalike ending in the token
	 * of the packet's ID, shorter than the packet, at least 21 bytes.
	 */
	ctl_short_packet(pkt, sizeof(pkt), &dcid);
	ctl_udp_send(test, udp, &a, pkt, sizeof(pkt));
	n = ctl_udp_recv(udp, rst, sizeof(rst));
	KUNIT_ASSERT_GE(test, n, 43);
	KUNIT_EXPECT_LT(test, n, (int)sizeof(pkt));
	KUNIT_EXPECT_EQ(test, rst[0] & 0xc0, 0x40);
	KUNIT_EXPECT_MEMEQ(test, rst + n - 16, token, 16);

	/* Section 10.3.3: 43 bytes or less, one byte shorter. */
	ctl_short_packet(pkt, 30, &dcid);
	ctl_udp_send(test, udp, &a, pkt, 30);
	KUNIT_EXPECT_EQ(test, ctl_udp_recv(udp, rst, sizeof(rst)), 29);
	KUNIT_EXPECT_MEMEQ(test, rst + 29 - 16, token, 16);

	/* 21 bytes: a reset would not be smaller and still valid. */
	ctl_short_packet(pkt, 21, &dcid);
	ctl_udp_send(test, udp, &a, pkt, 21);
	KUNIT_EXPECT_EQ(test, ctl_udp_recv(udp, rst, sizeof(rst)), -EAGAIN);
}

static void ctl_stateless_resets_are_rate_limited(struct kunit *test)
{
	struct socket *udp;
	struct quic_conn_id dcid;
	union quic_addr a;
	u8 pkt[60], rst[64];
	unsigned long start;
	int i, got = 0;
	u32 secs;

	ctl_listener(test, 63142, &a);
	udp = ctl_udp(test, HZ / 5);
	quic_conn_id_generate(&dcid, QUIC_CONN_ID_OWN_LEN);
	start = jiffies;
	for (i = 0; i < 200; i++) {
		ctl_short_packet(pkt, sizeof(pkt), &dcid);
		ctl_udp_send(test, udp, &a, pkt, sizeof(pkt));
	}
	secs = DIV_ROUND_UP(jiffies - start + 1, HZ);
	while (ctl_udp_recv(udp, rst, sizeof(rst)) > 0)
		got++;
	/* 64 a second: each second (or part) the 200 packets took starts a
	 * new allowance; some were refused however slow the machine.
	 */
	KUNIT_EXPECT_GT(test, got, 0);
	KUNIT_EXPECT_LE(test, got, 64 * (secs + 1));
	KUNIT_EXPECT_LT(test, got, 200);
}

static struct sock *ctl_silenced;

/* Test hook: the socket in ctl_silenced sends nothing. */
static bool ctl_drop_silenced(struct sock *sk, struct sk_buff *skb)
{
	return sk == READ_ONCE(ctl_silenced);
}

static void ctl_peer_of_a_vanished_server_is_reset(struct kunit *test)
{
	struct conn_pair p = {};
	int i;

	conn_handshake(test, ctl_v4, 63144, &p);
	ctl_round_trip(test, &p, 0);
	/* The server's socket goes without a word (as in a crash): its
	 * CONNECTION_CLOSE never leaves.
	 */
	WRITE_ONCE(ctl_silenced, p.server->sk);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, ctl_drop_silenced);
	kunit_release_action(test, conn_sock_release, p.server);
	/* The client writes on; once the server's closing period is over,
	 * the listener answers with a Stateless Reset.
	 */
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, 8, MSG_STREAM_NEW, "hello", 5), 5);
	for (i = 0; i < 100 && !READ_ONCE(p.client->sk->sk_err); i++)
		msleep(100);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
	WRITE_ONCE(ctl_silenced, NULL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p.client->sk->sk_err), ECONNRESET);
}

/* RFC 9000 Sections 10.1 and 10.1.2: with a one-second idle timeout, a
 * silent connection ends; with SO_KEEPALIVE its PINGs keep it open.
 */
static void ctl_keepalive_outlives_the_idle_timeout(struct kunit *test)
{
	struct conn_pair p = { .idle_timeout = USEC_PER_SEC };
	struct conn_pair q = { .idle_timeout = USEC_PER_SEC };

	conn_handshake(test, ctl_v4, 63150, &p);
	conn_handshake(test, ctl_v4, 63151, &q);
	ctl_round_trip(test, &p, 0);
	ctl_round_trip(test, &q, 0);
	/* Set on the idle connection: it takes effect at once. */
	sock_set_keepalive(p.client->sk);
	msleep(3000);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.client->sk));
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.server->sk));
	ctl_round_trip(test, &p, 4);
	KUNIT_EXPECT_FALSE(test, quic_is_established(q.client->sk));
	KUNIT_EXPECT_EQ(test, READ_ONCE(q.client->sk->sk_err), ETIMEDOUT);
}

/* The keepalive_probe_interval of the later config layout keeps an idle
 * connection alive on its own, without SO_KEEPALIVE: a PING every
 * 300 ms against an idle timeout of 1 s.
 */
static void ctl_keepalive_interval_of_the_later_config(struct kunit *test)
{
	struct conn_pair p = { .idle_timeout = USEC_PER_SEC, .client_keepalive = 300000 };

	conn_handshake(test, ctl_v4, 63152, &p);
	ctl_round_trip(test, &p, 0);
	KUNIT_EXPECT_FALSE(test, sock_flag(p.client->sk, SOCK_KEEPOPEN));
	msleep(3000);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.client->sk));
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.server->sk));
	ctl_round_trip(test, &p, 4);
}

static int ctl_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void ctl_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

static struct kunit_case ctl_test_cases[] = {
	KUNIT_CASE(ctl_reset_reaches_the_peer_as_a_notification),
	KUNIT_CASE(ctl_accepted_socket_inherits_events),
	KUNIT_CASE(ctl_stop_sending_is_answered_with_a_reset),
	KUNIT_CASE(ctl_stream_options_check_their_arguments),
	KUNIT_CASE_PARAM(ctl_key_update_started_by_each_side, ctl_case_gen_params),
	KUNIT_CASE(ctl_key_update_before_the_confidentiality_limit),
	KUNIT_CASE(ctl_close_notification_comes_before_the_error),
	KUNIT_CASE(ctl_short_buffer_reads_a_notification_in_parts),
	KUNIT_CASE(ctl_raised_limits_are_notified),
	KUNIT_CASE(ctl_each_side_holds_the_ids_the_other_allows),
	KUNIT_CASE(ctl_switching_to_another_peer_id_retires_the_older_ones),
	KUNIT_CASE(ctl_peer_retiring_the_id_in_use_is_notified),
	KUNIT_CASE(ctl_stateless_reset_ends_the_connection),
	KUNIT_CASE(ctl_stateless_reset_needs_a_used_id_and_any_header),
	KUNIT_CASE(ctl_huge_retire_prior_to_is_bounded),
	KUNIT_CASE(ctl_kernel_socket_closed_in_its_closing_period_leaves_it),
	KUNIT_CASE(ctl_retry_then_new_token),
	KUNIT_CASE(ctl_unknown_version_gets_version_negotiation),
	KUNIT_CASE(ctl_client_abandons_on_version_negotiation),
	KUNIT_CASE(ctl_ecn_validates_over_loopback),
	KUNIT_CASE(ctl_client_moves_to_a_new_local_address),
	KUNIT_CASE(ctl_server_preferred_address_moves_both_ends),
	KUNIT_CASE(ctl_grease_quic_bit_randomizes_the_fixed_bit),
	KUNIT_CASE(ctl_disable_1rtt_encryption_by_both_sends_plaintext),
	KUNIT_CASE(ctl_disable_1rtt_encryption_by_one_side_keeps_protection),
	KUNIT_CASE(ctl_gone_connection_gets_a_stateless_reset),
	KUNIT_CASE(ctl_stateless_resets_are_rate_limited),
	KUNIT_CASE_SLOW(ctl_peer_of_a_vanished_server_is_reset),
	KUNIT_CASE_SLOW(ctl_keepalive_outlives_the_idle_timeout),
	KUNIT_CASE_SLOW(ctl_keepalive_interval_of_the_later_config),
	{}
};

static struct kunit_suite ctl_suite = {
	.name = "quic_conn_control",
	.suite_init = ctl_suite_init,
	.suite_exit = ctl_suite_exit,
	.test_cases = ctl_test_cases,
};

kunit_test_suite(ctl_suite);
