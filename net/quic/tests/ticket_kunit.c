// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_resumption: session tickets and 0-RTT (RFC 9001
 * Sections 4.5 and 4.6) as the kernel sees them (ticket.c):
 *
 *  - whether an EncryptedExtensions accepts early data (RFC 8446
 *    Section 4.2.10), read from the server's first Handshake bytes;
 *  - the receive queue's tap, which lets the kernel read a CRYPTO level
 *    itself (a copy of the first bytes, or all of them instead of the
 *    application);
 *  - between two sockets over loopback (stand-in TLS messages of
 *    conn_util.c): NewSessionTicket messages kept by the client and
 *    announced, other post-handshake messages refused with CRYPTO_ERROR,
 *    the listener's ticket key, and 0-RTT data accepted or rejected.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/poll.h>
#include <net/sock.h>
#include <uapi/linux/tls.h>

#include "../inqueue.h"
#include "../socket.h"
#include "../sockmsg.h"
#include "../stream.h"
#include "../ticket.h"
#include "conn_util.h"
#include "util.h"

static const struct conn_case tkt_v4 = {
	"IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

/* EncryptedExtensions with ALPN "h3" and, if @early, an empty early_data. */
static u32 tkt_ee(u8 *p, bool early)
{
	static const u8 alpn[] = { 0x00, 0x10, 0x00, 0x05, 0x00, 0x03, 0x02, 'h', '3' };
	static const u8 ed[] = { 0x00, 0x2a, 0x00, 0x00 };
	u32 ext = sizeof(alpn) + (early ? sizeof(ed) : 0);

	p[0] = QUIC_TLS_ENCRYPTED_EXTENSIONS;
	p[1] = 0;
	p[2] = 0;
	p[3] = ext + 2;
	p[4] = 0;
	p[5] = ext;
	memcpy(p + 6, alpn, sizeof(alpn));
	if (early)
		memcpy(p + 6 + sizeof(alpn), ed, sizeof(ed));
	return 6 + ext;
}

static void tkt_ee_with_early_data_accepts(struct kunit *test)
{
	u8 ee[64];
	u32 len = tkt_ee(ee, true);

	KUNIT_EXPECT_EQ(test, quic_ticket_ee_early_data(ee, len), 1);
	/* Whatever follows the message (Certificate...) does not matter. */
	KUNIT_EXPECT_EQ(test, quic_ticket_ee_early_data(ee, sizeof(ee)), 1);
}

static void tkt_ee_without_early_data_rejects(struct kunit *test)
{
	u8 ee[64];
	u32 len = tkt_ee(ee, false);

	KUNIT_EXPECT_EQ(test, quic_ticket_ee_early_data(ee, len), 0);
}

static void tkt_ee_cut_short_is_not_decided(struct kunit *test)
{
	u8 ee[64];
	u32 len = tkt_ee(ee, true), i;

	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, quic_ticket_ee_early_data(ee, i), -EAGAIN,
				    "%u of %u bytes", i, len);
}

static void tkt_ee_malformed_is_refused(struct kunit *test)
{
	u8 ee[64];
	u32 len;

	/* Not an EncryptedExtensions (a Certificate). */
	len = tkt_ee(ee, true);
	ee[0] = 11;
	KUNIT_EXPECT_EQ(test, quic_ticket_ee_early_data(ee, len), -EINVAL);
	/* The extension block overruns the message. */
	len = tkt_ee(ee, true);
	ee[5] += 1;
	KUNIT_EXPECT_EQ(test, quic_ticket_ee_early_data(ee, len), -EINVAL);
	/* An extension longer than what is left. */
	len = tkt_ee(ee, false);
	ee[9] = 0x40;
	KUNIT_EXPECT_EQ(test, quic_ticket_ee_early_data(ee, len), -EINVAL);
	/* early_data with a body, which only a NewSessionTicket's has. */
	len = tkt_ee(ee, true);
	ee[len - 1] = 1;
	KUNIT_EXPECT_EQ(test, quic_ticket_ee_early_data(ee, len), -EINVAL);
	/* early_data twice (RFC 8446 Section 4.2: at most once). */
	len = tkt_ee(ee, true);
	memcpy(ee + len, ee + len - 4, 4);
	ee[3] += 4;
	ee[5] += 4;
	KUNIT_EXPECT_EQ(test, quic_ticket_ee_early_data(ee, len + 4), -EINVAL);
	/* No extension block at all. */
	ee[0] = QUIC_TLS_ENCRYPTED_EXTENSIONS;
	ee[1] = 0;
	ee[2] = 0;
	ee[3] = 0;
	KUNIT_EXPECT_EQ(test, quic_ticket_ee_early_data(ee, 4), -EINVAL);
}

static void tkt_crypto(struct quic_inq *inq, u8 level, u64 off, const u8 *data, u32 len,
		       int *err)
{
	struct quic_frame_data d = { .offset = off, .len = len, .data = data };

	*err = quic_inq_crypto_recv(inq, level, &d, GFP_KERNEL);
}

/* Read every CRYPTO byte the application would get. Return: how many. */
static int tkt_read_all(struct quic_inq *inq)
{
	struct quic_inq_rinfo ri;
	int n, total = 0;
	u8 buf[64];

	while ((n = quic_inq_read_buf(inq, NULL, buf, sizeof(buf), &ri)) > 0)
		total += n;
	return total;
}

static void tkt_tap_copy_keeps_the_first_bytes_in_order(struct kunit *test)
{
	struct quic_inq inq;
	u8 data[40];
	int err, i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = i;
	quic_inq_init(&inq);
	KUNIT_ASSERT_EQ(test, quic_inq_tap_set(&inq, QUIC_CRYPTO_HANDSHAKE, QUIC_INQ_TAP_COPY,
					       16, GFP_KERNEL), 0);
	/* Out of order: nothing is copied until the gap is filled. */
	tkt_crypto(&inq, QUIC_CRYPTO_HANDSHAKE, 10, data + 10, 30, &err);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, inq.tap.len, 0);
	/* Another level is not watched. */
	tkt_crypto(&inq, QUIC_CRYPTO_INITIAL, 0, data, 10, &err);
	KUNIT_EXPECT_EQ(test, inq.tap.len, 0);
	tkt_crypto(&inq, QUIC_CRYPTO_HANDSHAKE, 0, data, 10, &err);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, inq.tap.len, 16);
	KUNIT_EXPECT_MEMEQ(test, inq.tap.buf, data, 16);
	/* The application still gets everything: both levels, 50 bytes. */
	KUNIT_EXPECT_EQ(test, tkt_read_all(&inq), 50);
	quic_inq_free(&inq);
}

static void tkt_tap_divert_takes_bytes_from_the_application(struct kunit *test)
{
	struct quic_inq inq;
	u8 data[24];
	int err;

	memset(data, 0xab, sizeof(data));
	quic_inq_init(&inq);
	KUNIT_ASSERT_EQ(test, quic_inq_tap_set(&inq, QUIC_CRYPTO_APP, QUIC_INQ_TAP_DIVERT, 32,
					       GFP_KERNEL), 0);
	tkt_crypto(&inq, QUIC_CRYPTO_APP, 0, data, 20, &err);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, inq.tap.len, 20);
	KUNIT_EXPECT_MEMEQ(test, inq.tap.buf, data, 20);
	KUNIT_EXPECT_FALSE(test, quic_inq_readable(&inq));
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(&inq), 0);
	/* Consumed bytes make room; more than the room left is refused. */
	quic_inq_tap_consume(&inq, 8);
	KUNIT_EXPECT_EQ(test, inq.tap.len, 12);
	tkt_crypto(&inq, QUIC_CRYPTO_APP, 20, data, 20, &err);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, inq.tap.len, 32);
	tkt_crypto(&inq, QUIC_CRYPTO_APP, 40, data, 1, &err);
	KUNIT_EXPECT_EQ(test, err, -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(&inq), 0);
	quic_inq_free(&inq);
}

static void tkt_tap_rejects_bad_arguments(struct kunit *test)
{
	struct quic_inq inq;

	quic_inq_init(&inq);
	KUNIT_EXPECT_EQ(test, quic_inq_tap_set(&inq, QUIC_CRYPTO_MAX, QUIC_INQ_TAP_COPY, 8,
					       GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_inq_tap_set(&inq, QUIC_CRYPTO_APP, 7, 8, GFP_KERNEL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, quic_inq_tap_set(&inq, QUIC_CRYPTO_APP, QUIC_INQ_TAP_COPY, 0,
					       GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, inq.tap.mode, QUIC_INQ_TAP_OFF);
	quic_inq_free(&inq);
}

/* A NewSessionTicket-shaped message of @len bytes (header included). */
static void tkt_nst(u8 *p, u32 len, u8 fill)
{
	memset(p, fill, len);
	p[0] = QUIC_TLS_NEW_SESSION_TICKET;
	p[1] = 0;
	p[2] = (len - 4) >> 8;
	p[3] = (len - 4) & 0xff;
}

/* One recvmsg() that must return a notification. */
static int tkt_recv_event(struct socket *sock, u8 *buf, size_t len)
{
	struct kvec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {};
	int ret;

	ret = kernel_recvmsg(sock, &msg, &iov, 1, len, 0);
	if (ret >= 0 && !(msg.msg_flags & MSG_NOTIFICATION))
		return -EBADMSG;
	return ret;
}

static bool tkt_pri(struct socket *sock)
{
	return quic_inet_poll(NULL, sock, NULL) & EPOLLPRI;
}

/* Wait up to a second for the client to hold a ticket (EPOLLPRI). */
static bool tkt_wait_pri(struct socket *sock)
{
	int i;

	for (i = 0; i < 50 && !tkt_pri(sock); i++)
		msleep(20);
	return tkt_pri(sock);
}

static void tkt_client_keeps_and_announces_tickets(struct kunit *test)
{
	struct conn_pair p = { .client_events = BIT(QUIC_EVENT_NEW_SESSION_TICKET) };
	u8 *one, *two, *got;
	u8 ev[600];
	unsigned int len;

	one = kunit_kmalloc(test, 300, GFP_KERNEL);
	two = kunit_kmalloc(test, 500, GFP_KERNEL);
	got = kunit_kzalloc(test, 600, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, got);
	conn_handshake(test, &tkt_v4, 4840, &p);
	KUNIT_EXPECT_FALSE(test, tkt_pri(p.client));

	/* Two tickets, the second split over two sendmsg() calls. */
	tkt_nst(one, 300, 0x11);
	tkt_nst(two, 500, 0x22);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(p.server, QUIC_CRYPTO_APP, one, 300), 300);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(p.server, QUIC_CRYPTO_APP, two, 200), 200);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(p.server, QUIC_CRYPTO_APP, two + 200, 300), 300);
	KUNIT_ASSERT_TRUE(test, tkt_wait_pri(p.client));

	/* Each one is announced, whole, in order. */
	KUNIT_EXPECT_EQ(test, tkt_recv_event(p.client, ev, sizeof(ev)), 301);
	KUNIT_EXPECT_EQ(test, ev[0], QUIC_EVENT_NEW_SESSION_TICKET);
	KUNIT_EXPECT_MEMEQ(test, ev + 1, one, 300);
	KUNIT_EXPECT_EQ(test, tkt_recv_event(p.client, ev, sizeof(ev)), 501);
	KUNIT_EXPECT_MEMEQ(test, ev + 1, two, 500);

	/* The option returns the latest and clears EPOLLPRI. */
	len = 600;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(p.client->sk, QUIC_SOCKOPT_SESSION_TICKET,
						     got, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 500);
	KUNIT_EXPECT_MEMEQ(test, got, two, 500);
	KUNIT_EXPECT_FALSE(test, tkt_pri(p.client));

	/* None of it reached the data path: stream data still flows. */
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.server, 1, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "x", 1), 1);
	conn_expect_stream(test, p.client, 1, (const u8 *)"x", 1);
}

/* The CRYPTO_ERROR a socket's connection was closed with (0: open). */
static u32 tkt_close_code(struct kunit *test, struct socket *sock)
{
	u8 buf[sizeof(struct quic_connection_close) + 64] = {};
	struct quic_connection_close *cc = (void *)buf;
	unsigned int len = sizeof(buf);
	int i;

	for (i = 0; i < 50 && !READ_ONCE(sock->sk->sk_err); i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_CONNECTION_CLOSE,
						     buf, &len), 0);
	return cc->errcode;
}

static void tkt_other_post_handshake_message_is_refused(struct kunit *test)
{
	struct conn_pair p = {};
	u8 msg[40];

	conn_handshake(test, &tkt_v4, 4841, &p);
	/* A TLS KeyUpdate (24): never in QUIC (RFC 9001 Section 6). */
	tkt_nst(msg, sizeof(msg), 0);
	msg[0] = 24;
	KUNIT_ASSERT_EQ(test, conn_send_crypto(p.server, QUIC_CRYPTO_APP, msg, sizeof(msg)),
			sizeof(msg));
	KUNIT_EXPECT_EQ(test, tkt_close_code(test, p.server),
			QUIC_TRANSPORT_ERROR_CRYPTO + QUIC_TLS_ALERT_UNEXPECTED_MESSAGE);
}

static void tkt_oversized_ticket_is_crypto_buffer_exceeded(struct kunit *test)
{
	struct conn_pair p = {};
	u8 msg[8];

	conn_handshake(test, &tkt_v4, 4842, &p);
	/* A header announcing 64 KiB: more than a ticket may hold. */
	tkt_nst(msg, sizeof(msg), 0);
	msg[1] = 1;
	KUNIT_ASSERT_EQ(test, conn_send_crypto(p.server, QUIC_CRYPTO_APP, msg, sizeof(msg)),
			sizeof(msg));
	KUNIT_EXPECT_EQ(test, tkt_close_code(test, p.server),
			QUIC_TRANSPORT_ERROR_CRYPTO_BUF_EXCEEDED);
}

static void tkt_server_refuses_crypto_data_after_the_handshake(struct kunit *test)
{
	struct conn_pair p = {};
	u8 msg[40];

	conn_handshake(test, &tkt_v4, 4843, &p);
	tkt_nst(msg, sizeof(msg), 0);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(p.client, QUIC_CRYPTO_APP, msg, sizeof(msg)),
			sizeof(msg));
	KUNIT_EXPECT_EQ(test, tkt_close_code(test, p.client),
			QUIC_TRANSPORT_ERROR_CRYPTO + QUIC_TLS_ALERT_UNEXPECTED_MESSAGE);
}

static void tkt_listener_key_is_made_and_inherited(struct kunit *test)
{
	struct conn_pair p = {};
	u8 lkey[128], skey[128], ckey[128];
	unsigned int llen = sizeof(lkey), slen = sizeof(skey), clen = sizeof(ckey);

	conn_handshake(test, &tkt_v4, 4844, &p);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(p.lsock->sk, QUIC_SOCKOPT_SESSION_TICKET,
						     lkey, &llen), 0);
	KUNIT_EXPECT_EQ(test, llen, QUIC_TICKET_KEY_LEN);
	KUNIT_EXPECT_FALSE(test, !memchr_inv(lkey, 0, llen));
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(p.server->sk, QUIC_SOCKOPT_SESSION_TICKET,
						     skey, &slen), 0);
	/* The accepted socket's: derived from the listener's for its version
	 * and transport parameters.
	 */
	KUNIT_ASSERT_EQ(test, slen, QUIC_TICKET_KEY_LEN);
	KUNIT_EXPECT_NE(test, memcmp(skey, lkey, slen), 0);
	quic_ticket_key_derive(lkey, llen, quic_config(p.server->sk)->version,
			       quic_local_param(p.server->sk), ckey);
	KUNIT_EXPECT_MEMEQ(test, skey, ckey, slen);
	/* A client holds no key (and no ticket yet). */
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(p.client->sk, QUIC_SOCKOPT_SESSION_TICKET,
						     ckey, &clen), 0);
	KUNIT_EXPECT_EQ(test, clen, 0);
}

/*
 * draft-lxin-quic-socket-apis: transport parameters may change on a client
 * after connect() and on an accepted socket before its handshake, only the
 * non-zero fields. Each peer sees the new values, and the accepted
 * socket's ticket key is bound to the parameters it really sent.
 */
static void tkt_key_binds_params_changed_before_the_handshake(struct kunit *test)
{
	struct quic_transport_param client = { .max_streams_bidi = 9 };
	struct quic_transport_param server = { .max_data = 3 << 20, .max_streams_uni = 5 };
	struct conn_pair p = { .client_late = &client, .server_late = &server };
	u8 lkey[128], skey[128], want[QUIC_TICKET_KEY_LEN];
	unsigned int llen = sizeof(lkey), slen = sizeof(skey);

	conn_handshake(test, &tkt_v4, 4849, &p);
	KUNIT_EXPECT_EQ(test, quic_remote_param(p.server->sk)->max_streams_bidi, 9);
	KUNIT_EXPECT_EQ(test, quic_remote_param(p.client->sk)->max_data, 3ULL << 20);
	KUNIT_EXPECT_EQ(test, quic_remote_param(p.client->sk)->max_streams_uni, 5);
	/* Fields left at zero kept the server's values. */
	KUNIT_EXPECT_EQ(test, quic_local_param(p.server->sk)->max_streams_bidi,
			quic_local_param(p.lsock->sk)->max_streams_bidi);
	KUNIT_EXPECT_NE(test, quic_local_param(p.server->sk)->max_stream_data_uni, 0);

	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(p.lsock->sk, QUIC_SOCKOPT_SESSION_TICKET,
						     lkey, &llen), 0);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(p.server->sk, QUIC_SOCKOPT_SESSION_TICKET,
						     skey, &slen), 0);
	KUNIT_ASSERT_EQ(test, slen, QUIC_TICKET_KEY_LEN);
	quic_ticket_key_derive(lkey, llen, QUIC_VERSION_V1, quic_local_param(p.server->sk), want);
	KUNIT_EXPECT_MEMEQ(test, skey, want, slen);

	/* Encoded for TLS and keyed: no more changes. */
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(p.server->sk, QUIC_SOCKOPT_TRANSPORT_PARAM,
						     &server, sizeof(server)), -EISCONN);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(p.client->sk, QUIC_SOCKOPT_TRANSPORT_PARAM,
						     &client, sizeof(client)), -EISCONN);
}

/* Whether @t derives another version 1 key from @key than @base. */
static bool tkt_key_moves(const u8 *key, u32 keylen, const struct quic_transport_param *t,
			  const u8 *base)
{
	u8 other[QUIC_TICKET_KEY_LEN];

	quic_ticket_key_derive(key, keylen, QUIC_VERSION_V1, t, other);
	return memcmp(other, base, sizeof(other)) != 0;
}

/* RFC 9369 Section 5 and RFC 9000 Section 7.4.1: a ticket is good in its
 * version, while the server keeps what a client remembers for 0-RTT.
 */
static void tkt_connection_key_binds_version_and_remembered_limits(struct kunit *test)
{
	struct quic_transport_param tp = {
		.active_connection_id_limit = 4, .max_data = 1 << 20,
		.max_stream_data_bidi_local = 1 << 16, .max_stream_data_bidi_remote = 1 << 16,
		.max_stream_data_uni = 1 << 16, .max_streams_bidi = 100, .max_streams_uni = 3,
		.max_datagram_frame_size = 1200, .max_idle_timeout = 30000000,
	};
	u8 key[200], base[QUIC_TICKET_KEY_LEN], other[QUIC_TICKET_KEY_LEN];
	struct quic_transport_param t;

	memset(key, 0x3c, sizeof(key));	/* longer than a SHA-256 block */
	quic_ticket_key_derive(key, sizeof(key), QUIC_VERSION_V1, &tp, base);
	KUNIT_EXPECT_TRUE(test, !!memchr_inv(base, 0, sizeof(base)));
	KUNIT_EXPECT_NE(test, memcmp(base, base + 32, 32), 0);
	quic_ticket_key_derive(key, sizeof(key), QUIC_VERSION_V1, &tp, other);
	KUNIT_EXPECT_MEMEQ_MSG(test, other, base, sizeof(base), "one key, version, parameters");

	quic_ticket_key_derive(key, sizeof(key), QUIC_VERSION_V2, &tp, other);
	KUNIT_EXPECT_NE_MSG(test, memcmp(other, base, sizeof(base)), 0, "another version");
	key[199] ^= 1;
	quic_ticket_key_derive(key, sizeof(key), QUIC_VERSION_V1, &tp, other);
	KUNIT_EXPECT_NE_MSG(test, memcmp(other, base, sizeof(base)), 0, "another listener key");
	key[199] ^= 1;

	/* Each remembered limit changes it; what 0-RTT does not depend on
	 * (here the idle timeout) does not.
	 */
	t = tp;
	t.active_connection_id_limit--;
	KUNIT_EXPECT_TRUE_MSG(test, tkt_key_moves(key, sizeof(key), &t, base),
			      "active_connection_id_limit lowered");
	t = tp;
	t.max_data--;
	KUNIT_EXPECT_TRUE_MSG(test, tkt_key_moves(key, sizeof(key), &t, base),
			      "max_data lowered");
	t = tp;
	t.max_stream_data_bidi_local--;
	KUNIT_EXPECT_TRUE_MSG(test, tkt_key_moves(key, sizeof(key), &t, base),
			      "max_stream_data_bidi_local lowered");
	t = tp;
	t.max_stream_data_bidi_remote--;
	KUNIT_EXPECT_TRUE_MSG(test, tkt_key_moves(key, sizeof(key), &t, base),
			      "max_stream_data_bidi_remote lowered");
	t = tp;
	t.max_stream_data_uni--;
	KUNIT_EXPECT_TRUE_MSG(test, tkt_key_moves(key, sizeof(key), &t, base),
			      "max_stream_data_uni lowered");
	t = tp;
	t.max_streams_bidi--;
	KUNIT_EXPECT_TRUE_MSG(test, tkt_key_moves(key, sizeof(key), &t, base),
			      "max_streams_bidi lowered");
	t = tp;
	t.max_streams_uni--;
	KUNIT_EXPECT_TRUE_MSG(test, tkt_key_moves(key, sizeof(key), &t, base),
			      "max_streams_uni lowered");
	t = tp;
	t.max_datagram_frame_size--;
	KUNIT_EXPECT_TRUE_MSG(test, tkt_key_moves(key, sizeof(key), &t, base),
			      "max_datagram_frame_size lowered");
	t = tp;
	t.max_idle_timeout--;
	KUNIT_EXPECT_FALSE_MSG(test, tkt_key_moves(key, sizeof(key), &t, base),
			       "max_idle_timeout lowered");
}

static void tkt_listener_keeps_a_key_the_application_set(struct kunit *test)
{
	struct socket *lsock;
	union quic_addr a;
	u8 key[48], got[64];
	unsigned int len = sizeof(got);

	memset(key, 0x5c, sizeof(key));
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_QUIC,
					       &lsock), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, lsock), 0);
	conn_addr(&a, AF_INET, "127.0.0.1", 4845);
	KUNIT_ASSERT_EQ(test, kernel_bind(lsock, &a.sa, sizeof(a.v4)), 0);
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(lsock->sk, QUIC_SOCKOPT_SESSION_TICKET, key,
						     sizeof(key)), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 1), 0);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(lsock->sk, QUIC_SOCKOPT_SESSION_TICKET, got,
						     &len), 0);
	KUNIT_EXPECT_EQ(test, len, sizeof(key));
	KUNIT_EXPECT_MEMEQ(test, got, key, sizeof(key));
}

/*
 * Read stream 0 of @sock to its FIN into @got (room for @len bytes) and,
 * in whatever order they come, the DATAGRAMs (their bytes counted in
 * *@dgram). Return: stream bytes read, or a negative errno.
 */
static int tkt_read_stream_and_dgrams(struct socket *sock, u8 *got, size_t len, int *dgram)
{
	u8 cbuf[CMSG_SPACE(sizeof(struct quic_stream_info))];
	struct quic_stream_info si;
	struct msghdr msg;
	bool fin = false;
	struct kvec iov;
	size_t n = 0;
	int ret;

	*dgram = 0;
	for (;;) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		iov.iov_base = got + n;
		iov.iov_len = len - n;
		/* After the FIN, only what is queued already. */
		ret = kernel_recvmsg(sock, &msg, &iov, 1, len - n, fin ? MSG_DONTWAIT : 0);
		if (ret == -EAGAIN && fin)
			return n;
		if (ret < 0)
			return ret;
		if (msg.msg_flags & MSG_DATAGRAM) {
			*dgram += ret;
			continue;
		}
		if (fin)
			return -EPROTO;
		memcpy(&si, CMSG_DATA((struct cmsghdr *)cbuf), sizeof(si));
		n += ret;
		fin = si.stream_flags & MSG_STREAM_FIN;
		if (!fin && (!ret || n == len))
			return -EMSGSIZE;
	}
}

/* Wait up to a second until stream @id of @sock received @want bytes.
 * Return: the bytes received (its highest offset).
 */
static u64 tkt_stream_received(struct socket *sock, s64 id, u64 want)
{
	struct quic_stream *s;
	u64 got = 0;
	int i;

	for (i = 0; i < 50; i++) {
		lock_sock(sock->sk);
		s = quic_stream_find(quic_streams(sock->sk), id);
		got = s ? s->recv.highest : 0;
		release_sock(sock->sk);
		if (got >= want)
			break;
		msleep(20);
	}
	return got;
}

/*
 * A resumed connection: the client remembers the server's limits, writes
 * stream 0 before the handshake and installs 0-RTT keys with its
 * ClientHello; the server takes the 0-RTT packets (@accept, with keys and
 * early_data in its EncryptedExtensions) or not.
 */
static void tkt_zero_rtt(struct kunit *test, bool accept, u16 port)
{
	static const char chlo[] = "client hello with early_data";
	static const char shlo[] = "server hello";
	static const char cfin[] = "client finished";
	struct quic_transport_param prm = {};
	struct socket *lsock, *client, *server;
	unsigned int plen = sizeof(prm);
	u8 ee[64], buf[64], *data, *got;
	union quic_addr a;
	int dgram = 0;
	u32 eelen;

	data = conn_pattern(test, 3000, 7);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_QUIC,
					       &lsock), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, lsock), 0);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_QUIC,
					       &client), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, client), 0);
	client->sk->sk_rcvtimeo = CONN_TIMEO;
	client->sk->sk_sndtimeo = CONN_TIMEO;
	lsock->sk->sk_rcvtimeo = CONN_TIMEO;
	conn_addr(&a, AF_INET, "127.0.0.1", port);
	KUNIT_ASSERT_EQ(test, kernel_bind(lsock, &a.sa, sizeof(a.v4)), 0);
	/* The server takes DATAGRAM frames (RFC 9221). */
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(lsock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM,
						     &prm, &plen), 0);
	prm.max_datagram_frame_size = 1200;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(lsock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM,
						     &prm, sizeof(prm)), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 2), 0);

	/* Without remembered limits, no data before the handshake (to a port
	 * nobody listens on: its close must not reach the listener).
	 */
	conn_addr(&a, AF_INET, "127.0.0.1", port + 100);
	KUNIT_ASSERT_EQ(test, kernel_connect(client, &a.sa, sizeof(a.v4), 0), 0);
	KUNIT_EXPECT_EQ(test, conn_send_stream(client, 0, MSG_STREAM_NEW, data, 10), -ENOTCONN);
	kunit_release_action(test, conn_sock_release, client);
	conn_addr(&a, AF_INET, "127.0.0.1", port);

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_QUIC,
					       &client), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, client), 0);
	client->sk->sk_rcvtimeo = CONN_TIMEO;
	client->sk->sk_sndtimeo = CONN_TIMEO;
	/* The server's limits from the last connection (its parameters). */
	plen = sizeof(prm);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(lsock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM,
						     &prm, &plen), 0);
	prm.remote = 1;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(client->sk, QUIC_SOCKOPT_TRANSPORT_PARAM,
						     &prm, sizeof(prm)), 0);
	KUNIT_ASSERT_EQ(test, kernel_connect(client, &a.sa, sizeof(a.v4), 0), 0);
	KUNIT_EXPECT_EQ(test, conn_send_stream(client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN, data,
					       3000), 3000);
	/* RFC 9221 Section 3: a DATAGRAM too, with the remembered limit. */
	KUNIT_EXPECT_EQ(test, conn_send(client, 0, NULL, 0, "dgram", 5, MSG_DATAGRAM), 5);

	/* TLS made the ClientHello: 0-RTT keys, then the Initial. */
	KUNIT_ASSERT_EQ(test, conn_secret(client, QUIC_CRYPTO_EARLY, true, true,
					  TLS_CIPHER_AES_GCM_128), 0);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(client, QUIC_CRYPTO_INITIAL, chlo, sizeof(chlo)),
			sizeof(chlo));
	KUNIT_ASSERT_EQ(test, kernel_accept(lsock, &server, 0), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, server), 0);
	server->sk->sk_rcvtimeo = CONN_TIMEO;
	server->sk->sk_sndtimeo = CONN_TIMEO;
	KUNIT_ASSERT_EQ(test, conn_recv_crypto(server, QUIC_CRYPTO_INITIAL, buf, sizeof(chlo)), 0);

	if (accept) {
		/* The server's TLS accepts early data: 0-RTT keys, and the
		 * stream's bytes are in before the handshake completes, kept
		 * from the TLS library's reads.
		 */
		KUNIT_ASSERT_EQ(test, conn_secret(server, QUIC_CRYPTO_EARLY, false, true,
						  TLS_CIPHER_AES_GCM_128), 0);
		KUNIT_EXPECT_EQ(test, tkt_stream_received(server, 0, 3000), 3000);
		KUNIT_EXPECT_FALSE(test, quic_is_established(server->sk));
		KUNIT_EXPECT_FALSE(test, quic_inet_poll(NULL, server, NULL) & EPOLLIN);
	}
	KUNIT_ASSERT_EQ(test, conn_params_to(client, server), 0);
	KUNIT_ASSERT_EQ(test, conn_secrets(server, false, QUIC_CRYPTO_HANDSHAKE,
					   TLS_CIPHER_AES_GCM_128), 0);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(server, QUIC_CRYPTO_INITIAL, shlo, sizeof(shlo)),
			sizeof(shlo));
	eelen = tkt_ee(ee, accept);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(server, QUIC_CRYPTO_HANDSHAKE, ee, eelen), eelen);

	KUNIT_ASSERT_EQ(test, conn_recv_crypto(client, QUIC_CRYPTO_INITIAL, buf, sizeof(shlo)), 0);
	KUNIT_ASSERT_EQ(test, conn_secrets(client, true, QUIC_CRYPTO_HANDSHAKE,
					   TLS_CIPHER_AES_GCM_128), 0);
	KUNIT_ASSERT_EQ(test, conn_recv_crypto(client, QUIC_CRYPTO_HANDSHAKE, buf, eelen), 0);
	KUNIT_ASSERT_EQ(test, conn_params_to(server, client), 0);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(client, QUIC_CRYPTO_HANDSHAKE, cfin, sizeof(cfin)),
			sizeof(cfin));
	KUNIT_ASSERT_EQ(test, conn_secrets(client, true, QUIC_CRYPTO_APP,
					   TLS_CIPHER_AES_GCM_128), 0);
	KUNIT_EXPECT_EQ(test, (u8)quic_sk(client->sk)->early,
			accept ? QUIC_EARLY_ACCEPTED : QUIC_EARLY_REJECTED);
	/* RFC 9001 Section 4.9.3: the 0-RTT keys are gone. */
	KUNIT_EXPECT_FALSE(test, quic_crypto(client->sk, QUIC_CRYPTO_EARLY)->tx.ready);

	KUNIT_ASSERT_EQ(test, conn_recv_crypto(server, QUIC_CRYPTO_HANDSHAKE, buf, sizeof(cfin)),
			0);
	KUNIT_ASSERT_EQ(test, conn_secrets(server, false, QUIC_CRYPTO_APP,
					   TLS_CIPHER_AES_GCM_128), 0);
	/* Readable now; if rejected, the same bytes came again in 1-RTT (a
	 * DATAGRAM is not sent twice: only an accepted one arrives).
	 */
	got = kunit_kzalloc(test, 3100, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_EXPECT_EQ(test, tkt_read_stream_and_dgrams(server, got, 3100, &dgram), 3000);
	KUNIT_EXPECT_MEMEQ(test, got, data, 3000);
	KUNIT_EXPECT_EQ(test, dgram, accept ? 5 : 0);
	KUNIT_EXPECT_EQ(test, conn_send_stream(server, 0, MSG_STREAM_FIN, "ok", 2), 2);
	conn_expect_stream(test, client, 0, (const u8 *)"ok", 2);
}

static void tkt_zero_rtt_accepted_arrives_before_the_handshake_ends(struct kunit *test)
{
	tkt_zero_rtt(test, true, 4846);
}

static void tkt_zero_rtt_rejected_is_sent_again_as_1rtt(struct kunit *test)
{
	tkt_zero_rtt(test, false, 4847);
}

static int tkt_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void tkt_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

static struct kunit_case tkt_test_cases[] = {
	KUNIT_CASE(tkt_ee_with_early_data_accepts),
	KUNIT_CASE(tkt_ee_without_early_data_rejects),
	KUNIT_CASE(tkt_ee_cut_short_is_not_decided),
	KUNIT_CASE(tkt_ee_malformed_is_refused),
	KUNIT_CASE(tkt_tap_copy_keeps_the_first_bytes_in_order),
	KUNIT_CASE(tkt_tap_divert_takes_bytes_from_the_application),
	KUNIT_CASE(tkt_tap_rejects_bad_arguments),
	KUNIT_CASE(tkt_client_keeps_and_announces_tickets),
	KUNIT_CASE(tkt_other_post_handshake_message_is_refused),
	KUNIT_CASE(tkt_oversized_ticket_is_crypto_buffer_exceeded),
	KUNIT_CASE(tkt_server_refuses_crypto_data_after_the_handshake),
	KUNIT_CASE(tkt_listener_key_is_made_and_inherited),
	KUNIT_CASE(tkt_listener_keeps_a_key_the_application_set),
	KUNIT_CASE(tkt_connection_key_binds_version_and_remembered_limits),
	KUNIT_CASE(tkt_key_binds_params_changed_before_the_handshake),
	KUNIT_CASE(tkt_zero_rtt_accepted_arrives_before_the_handshake_ends),
	KUNIT_CASE(tkt_zero_rtt_rejected_is_sent_again_as_1rtt),
	{}
};

static struct kunit_suite tkt_suite = {
	.name = "quic_resumption",
	.suite_init = tkt_suite_init,
	.suite_exit = tkt_suite_exit,
	.test_cases = tkt_test_cases,
};

kunit_test_suite(tkt_suite);
