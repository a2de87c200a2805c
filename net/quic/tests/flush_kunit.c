// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_conn_flush: the engine (transmit.c) records what it
 * notices and the connection acts on it in quic_conn_flush() (connection.c)
 * at the end of each received datagram, timer expiry and release_sock().
 * These cases pin the behaviour that was acted on inside transmission
 * before: a client stops using its Initial keys after its first Handshake
 * packet (RFC 9001 Section 4.9.1), and an ack-eliciting packet restarts
 * the idle timer (RFC 9000 Section 10.1). The key update at the
 * confidentiality limit is pinned by the quic_conn_control suite. A
 * connection error is latched the same way and closes from the top.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <net/sock.h>
#include <uapi/linux/tls.h>

#include "../close.h"
#include "../common.h"
#include "../packet.h"
#include "../path.h"
#include "../socket.h"
#include "../transmit.h"
#include "conn_util.h"
#include "util.h"

static const struct conn_case flush_v1 = {
	"IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

#define FLUSH_PORT	63301

static atomic_t flush_watching, flush_datagrams, flush_first_hs, flush_last_initial;

/* Whether the coalesced packets of a v1 datagram hold an Initial and a
 * Handshake packet (RFC 9000 Section 17.2: long headers, Length field).
 */
static void flush_scan(const u8 *p, u32 len, bool *initial, bool *handshake)
{
	u64 n;

	while (len > 7 && (p[0] & QUIC_HDR_FORM_LONG)) {
		u8 type = (p[0] & 0x30) >> 4;
		u32 off = 5;

		if (type == 0)
			*initial = true;
		else if (type == 2)
			*handshake = true;
		else
			return;
		off += 1 + p[off];		/* DCID */
		if (off >= len)
			return;
		off += 1 + p[off];		/* SCID */
		if (off >= len)
			return;
		p += off;
		len -= off;
		if (type == 0) {		/* Token */
			if (quic_get_var(&p, &len, &n) || n > len)
				return;
			p += n;
			len -= n;
		}
		if (quic_get_var(&p, &len, &n) || n > len)
			return;
		p += n;
		len -= n;
	}
}

/* Transmit hook: the client's datagrams (those to FLUSH_PORT), in order,
 * by what they hold; nothing is dropped.
 */
static bool flush_note(struct sock *sk, struct sk_buff *skb)
{
	bool initial = false, handshake = false;
	int i;

	if (!atomic_read(&flush_watching) ||
	    quic_path_daddr(quic_paths(sk), 0)->v4.sin_port != htons(FLUSH_PORT))
		return false;
	i = atomic_inc_return(&flush_datagrams);
	flush_scan(skb->data, skb_headlen(skb), &initial, &handshake);
	if (handshake)
		atomic_cmpxchg(&flush_first_hs, 0, i);
	if (initial)
		atomic_set(&flush_last_initial, i);
	return false;
}

static void flush_hook_off(void *unused)
{
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
	atomic_set(&flush_watching, 0);
}

/* RFC 9001 Section 4.9.1: "a client MUST discard Initial keys when it
 * first sends a Handshake packet". The datagram with the first Handshake
 * packet may still carry an Initial one before it; none after it does,
 * and the keys are gone once the handshake is over.
 */
static void flush_client_sends_no_initial_after_its_first_handshake_packet(struct kunit *test)
{
	struct conn_pair p = {};
	int first_hs;

	atomic_set(&flush_datagrams, 0);
	atomic_set(&flush_first_hs, 0);
	atomic_set(&flush_last_initial, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, flush_hook_off, NULL), 0);
	atomic_set(&flush_watching, 1);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, flush_note);
	conn_handshake(test, &flush_v1, FLUSH_PORT, &p);
	flush_hook_off(NULL);

	first_hs = atomic_read(&flush_first_hs);
	KUNIT_EXPECT_GT(test, first_hs, 0);
	KUNIT_EXPECT_GT(test, atomic_read(&flush_last_initial), 0);
	KUNIT_EXPECT_LE(test, atomic_read(&flush_last_initial), first_hs);
	lock_sock(p.client->sk);
	KUNIT_EXPECT_TRUE(test, quic_conn_level_discarded(p.client->sk, QUIC_CRYPTO_INITIAL));
	KUNIT_EXPECT_FALSE(test, quic_crypto(p.client->sk, QUIC_CRYPTO_INITIAL)->tx.ready);
	release_sock(p.client->sk);
}

/* Transmit hook: every datagram of the client (to FLUSH_PORT + 1) is lost. */
static bool flush_drop_client(struct sock *sk, struct sk_buff *skb)
{
	return quic_path_daddr(quic_paths(sk), 0)->v4.sin_port == htons(FLUSH_PORT + 1);
}

/* RFC 9000 Section 10.1: sending an ack-eliciting packet, the first since
 * the last packet was received, restarts the idle timer. Nothing comes
 * back here (the client's datagrams are lost), so the mark stays once
 * the system call that sent it returned.
 */
static void flush_ack_eliciting_send_marks_the_idle_timer(struct kunit *test)
{
	struct conn_pair p = {};

	conn_handshake(test, &flush_v1, FLUSH_PORT + 1, &p);
	lock_sock(p.client->sk);
	quic_sk(p.client->sk)->idle_sent = 0;
	release_sock(p.client->sk);
	/* Nothing reaches the server: no ACK restarts anything. */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, flush_hook_off, NULL), 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, flush_drop_client);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, "x", 1), 1);
	lock_sock(p.client->sk);
	KUNIT_EXPECT_TRUE(test, quic_sk(p.client->sk)->idle_sent);
	KUNIT_EXPECT_EQ(test, quic_sk(p.client->sk)->noticed, 0);
	release_sock(p.client->sk);
}

static atomic_t flush_client_sent;

/* Transmit hook: count the client's datagrams (to FLUSH_PORT + 2). */
static bool flush_count_client(struct sock *sk, struct sk_buff *skb)
{
	if (quic_path_daddr(quic_paths(sk), 0)->v4.sin_port == htons(FLUSH_PORT + 2))
		atomic_inc(&flush_client_sent);
	return false;
}

/* A connection error is latched: the first one wins, nothing but the
 * CONNECTION_CLOSE is sent after it, and the connection closes when the
 * layer above flushes (here release_sock()), not inside the code that
 * found the error. The peer sees the first error's code.
 */
static void flush_connection_error_is_latched_and_closed_from_the_top(struct kunit *test)
{
	struct conn_pair p = {};
	struct sock *sk;
	int i, err;

	conn_handshake(test, &flush_v1, FLUSH_PORT + 2, &p);
	sk = p.client->sk;
	atomic_set(&flush_client_sent, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, flush_hook_off, NULL), 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, flush_count_client);

	lock_sock(sk);
	quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION, 0);
	quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_FLOW_CONTROL, 0);
	KUNIT_EXPECT_TRUE(test, quic_is_established(sk));
	err = READ_ONCE(sk->sk_err);
	KUNIT_EXPECT_EQ(test, err, 0);
	/* Data waiting to go stays: only the close may leave now. */
	quic_sk(sk)->ack_now = 1;
	quic_xmit(sk);
	KUNIT_EXPECT_EQ(test, atomic_read(&flush_client_sent), 0);
	release_sock(sk);

	KUNIT_EXPECT_TRUE(test, quic_is_closed(sk));
	err = READ_ONCE(sk->sk_err);
	KUNIT_EXPECT_EQ(test, err, EPROTO);
	KUNIT_EXPECT_GT(test, atomic_read(&flush_client_sent), 0);
	for (i = 0; i < 100 && !quic_is_closed(p.server->sk); i++)
		msleep(20);
	lock_sock(p.server->sk);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(p.server->sk));
	KUNIT_EXPECT_EQ(test, quic_sk(p.server->sk)->close.seen.errcode,
			QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);
	release_sock(p.server->sk);
}

static int flush_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void flush_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

/*
 * The pacer's invariant (transmit.c) holds on a connection that just
 * sent, and names the pacer once its next send time is pushed far ahead.
 */
static void flush_pacer_far_ahead_breaks_the_pacing_invariant(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_cong *cong;
	struct sock *sk;
	u64 saved, now;

	if (!IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS))
		kunit_skip(test, "CONFIG_IP_QUIC_DEBUG_INVARIANTS is off");
	conn_handshake(test, &flush_v1, FLUSH_PORT + 3, &p);
	sk = p.client->sk;
	lock_sock(sk);
	cong = quic_cong(sk);
	now = quic_time_us();
	KUNIT_EXPECT_NULL(test, quic_xmit_pacing_invariant(sk, now));
	saved = cong->pacing_time;
	cong->pacing_time = (now + 10 * USEC_PER_SEC) * NSEC_PER_USEC;
	KUNIT_EXPECT_NOT_NULL(test, quic_xmit_pacing_invariant(sk, now));
	cong->pacing_time = saved;
	KUNIT_EXPECT_NULL(test, quic_xmit_pacing_invariant(sk, now));
	release_sock(sk);
}

static struct kunit_case flush_test_cases[] = {
	KUNIT_CASE(flush_client_sends_no_initial_after_its_first_handshake_packet),
	KUNIT_CASE(flush_ack_eliciting_send_marks_the_idle_timer),
	KUNIT_CASE(flush_connection_error_is_latched_and_closed_from_the_top),
	KUNIT_CASE(flush_pacer_far_ahead_breaks_the_pacing_invariant),
	{}
};

static struct kunit_suite flush_suite = {
	.name = "quic_conn_flush",
	.suite_init = flush_suite_init,
	.suite_exit = flush_suite_exit,
	.test_cases = flush_test_cases,
};

kunit_test_suite(flush_suite);
