// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_conn_end: how a live connection ends without either
 * application closing it.
 *
 *  - RFC 9000 Section 10.1: each end advertises max_idle_timeout; the
 *    timeout in force is the smaller of the two, 0 meaning "none" on that
 *    side, and never less than three PTOs. Each case measures when the
 *    idle connection actually ended, on both ends.
 *  - RFC 9001 Section 6.6: past the integrity limit of its AEAD an end
 *    processes no more packets and closes with AEAD_LIMIT_REACHED.
 */

#include <kunit/test.h>
#include <linux/ktime.h>
#include <net/sock.h>
#include <uapi/linux/tls.h>

#include "../close.h"
#include "../crypto.h"
#include "../socket.h"
#include "../transmit.h"
#include "conn_util.h"
#include "util.h"

static const struct conn_case end_v4 = {
	"IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

/*
 * Block in recvmsg() on @sock until the connection ends (at most @limit_ms)
 * and return how long that took, in milliseconds; *@err gets the error.
 */
static s64 end_wait_closed(struct socket *sock, long limit_ms, int *err)
{
	ktime_t start = ktime_get();
	struct quic_stream_info si;
	u8 buf[16];

	sock->sk->sk_rcvtimeo = msecs_to_jiffies(limit_ms);
	*err = conn_recv(sock, QUIC_STREAM_INFO, &si, sizeof(si), buf, sizeof(buf));
	return ktime_ms_delta(ktime_get(), start);
}

/* Closed silently: no CONNECTION_CLOSE was sent or received (Section 10.1). */
static void end_expect_idle_close(struct kunit *test, struct socket *sock)
{
	lock_sock(sock->sk);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(sock->sk));
	KUNIT_EXPECT_FALSE(test, quic_sk(sock->sk)->close.seen.set);
	release_sock(sock->sk);
}

/*
 * Both ends idle from the handshake on: each closes silently by its own
 * timer, 1 s for the values the cases give (a second, give or take the
 * time of the handshake's last packets and a jiffy), not 3 s.
 */
static void end_expect_closed_after_a_second(struct kunit *test, struct conn_pair *p, u16 port)
{
	s64 ms;
	int err;

	conn_handshake(test, &end_v4, port, p);
	ms = end_wait_closed(p->client, 6000, &err);
	KUNIT_EXPECT_EQ(test, err, -ETIMEDOUT);
	KUNIT_EXPECT_GE(test, ms, 900);
	KUNIT_EXPECT_LT(test, ms, 2500);
	kunit_info(test, "client closed after %lld ms\n", ms);
	end_expect_idle_close(test, p->client);
	/* The server's own timer, started at the same time, ends it too. */
	end_wait_closed(p->server, 3000, &err);
	KUNIT_EXPECT_EQ(test, err, -ETIMEDOUT);
	end_expect_idle_close(test, p->server);
}

/* Section 10.1: the client offers 3 s, the server 1 s; both use 1 s. */
static void end_idle_timeout_is_the_smaller_of_both_ends(struct kunit *test)
{
	struct conn_pair p = { .idle_each = 1, .client_idle = 3 * USEC_PER_SEC,
			       .listen_idle = USEC_PER_SEC };

	end_expect_closed_after_a_second(test, &p, 63160);
}

/* Section 10.1: 0 on the client's side is "no timeout of mine": the
 * server's 1 s applies to both.
 */
static void end_idle_timeout_zero_on_one_end_leaves_the_other(struct kunit *test)
{
	struct conn_pair p = { .idle_each = 1, .client_idle = 0, .listen_idle = USEC_PER_SEC };

	end_expect_closed_after_a_second(test, &p, 63161);
}

/* Section 10.1: 0 on both sides: an idle connection stays open. */
static void end_idle_timeout_zero_on_both_ends_never_closes(struct kunit *test)
{
	struct conn_pair p = { .idle_each = 1 };
	int err;

	conn_handshake(test, &end_v4, 63162, &p);
	end_wait_closed(p.client, 2000, &err);
	KUNIT_EXPECT_EQ(test, err, -EAGAIN);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.client->sk));
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.server->sk));
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN, "x",
					       1), 1);
	conn_expect_stream(test, p.server, 0, "x", 1);
}

/* Section 10.1: "at least three times the current Probe Timeout": both
 * ends ask for 1 ms, the connection lives three PTOs.
 */
static void end_idle_timeout_is_at_least_three_ptos(struct kunit *test)
{
	struct conn_pair p = { .idle_each = 1, .client_idle = 1000, .listen_idle = 1000 };
	u64 pto;
	s64 ms;
	int err;

	conn_handshake(test, &end_v4, 63163, &p);
	lock_sock(p.client->sk);
	pto = quic_cong_pto(quic_cong(p.client->sk), QUIC_CRYPTO_APP);
	release_sock(p.client->sk);
	ms = end_wait_closed(p.client, 6000, &err);
	KUNIT_EXPECT_EQ(test, err, -ETIMEDOUT);
	kunit_info(test, "PTO %llu us, client closed after %lld ms\n", pto, ms);
	/* Less a jiffy of rounding, not less than three PTOs of the time. */
	KUNIT_EXPECT_GE(test, ms * 1000 + jiffies_to_usecs(1), 3 * pto);
	KUNIT_EXPECT_GE(test, ms, 2);
}

/* Jiffies until the client's IDLE timer, which measures its closing period. */
static long end_period_left(struct sock *sk)
{
	return (long)(READ_ONCE(quic_timers(sk)->timer[QUIC_TIMER_IDLE].expires) - jiffies);
}

/*
 * RFC 9000 Section 10.2: the closing period lasts three PTOs of RFC 9002's
 * formula. Twenty PTOs that expired unanswered do not stretch it by 2^20,
 * and an RTT estimate of 50 s does not make it last past a minute.
 */
static void end_closing_period_leaves_out_backoff_and_is_capped(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_cong *cong;
	struct sock *sk;
	u64 pto;

	conn_handshake(test, &end_v4, 63164, &p);
	sk = p.client->sk;
	cong = quic_cong(sk);
	lock_sock(sk);
	pto = quic_cong_pto(cong, QUIC_CRYPTO_APP);
	cong->pto_count = 20;
	KUNIT_EXPECT_EQ(test, quic_cong_pto(cong, QUIC_CRYPTO_APP), pto << 20);
	KUNIT_EXPECT_EQ(test, quic_close_period(sk), 3 * pto);
	cong->smoothed_rtt = 50 * USEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, quic_close_period(sk), QUIC_CLOSE_PERIOD_MAX);
	cong->smoothed_rtt = 1000;
	pto = quic_cong_pto(cong, QUIC_CRYPTO_APP) >> 20;
	release_sock(sk);

	/* shutdown() enters the period: the IDLE timer is armed for it. */
	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(p.client, SHUT_RDWR), 0);
	KUNIT_EXPECT_TRUE(test, (bool)quic_sk(sk)->close.period);
	KUNIT_EXPECT_LE(test, end_period_left(sk), (long)usecs_to_jiffies(3 * pto) + 1);
	KUNIT_EXPECT_GT(test, end_period_left(sk), 0L);
}

/* Transmit hook: change one byte of the server's next 1-RTT datagram. */
static struct sock *end_server;
static atomic_t end_damage;

static bool end_damage_one(struct sock *sk, struct sk_buff *skb)
{
	if (sk != READ_ONCE(end_server) || (skb->data[0] & 0x80))
		return false;
	if (atomic_dec_if_positive(&end_damage) >= 0)
		skb->data[skb->len - 1] ^= 0x5a;	/* in the AEAD tag */
	return false;
}

static void end_hook_off(void *unused)
{
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
	WRITE_ONCE(end_server, NULL);
}

/*
 * RFC 9001 Section 6.6: one failed decryption short of the limit of
 * AES-128-GCM, a damaged packet reaches it; the next packet is not
 * processed and the client closes with AEAD_LIMIT_REACHED, which the
 * server receives.
 */
static void end_aead_limit_reached_closes_the_connection(struct kunit *test)
{
	struct quic_stream_info si;
	struct conn_pair p = {};
	struct quic_crypto *crypto;
	u8 buf[16];
	int err;

	conn_handshake(test, &end_v4, 63164, &p);
	lock_sock(p.client->sk);
	crypto = quic_crypto(p.client->sk, QUIC_CRYPTO_APP);
	crypto->rx_failures = quic_crypto_integrity_limit(crypto) - 1;
	release_sock(p.client->sk);

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, end_hook_off, NULL), 0);
	atomic_set(&end_damage, 1);
	WRITE_ONCE(end_server, p.server->sk);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, end_damage_one);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.server, 1, MSG_STREAM_NEW, "damaged", 7), 7);
	/* Its retransmission, undamaged, is the packet past the limit. */
	err = conn_recv(p.client, QUIC_STREAM_INFO, &si, sizeof(si), buf, sizeof(buf));
	KUNIT_EXPECT_LT(test, err, 0);
	lock_sock(p.client->sk);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(p.client->sk));
	KUNIT_EXPECT_EQ(test, quic_sk(p.client->sk)->close.seen.errcode,
			(u64)QUIC_TRANSPORT_ERROR_AEAD_LIMIT_REACHED);
	release_sock(p.client->sk);

	err = conn_recv(p.server, QUIC_STREAM_INFO, &si, sizeof(si), buf, sizeof(buf));
	KUNIT_EXPECT_LT(test, err, 0);
	lock_sock(p.server->sk);
	KUNIT_EXPECT_EQ(test, quic_sk(p.server->sk)->close.seen.errcode,
			(u64)QUIC_TRANSPORT_ERROR_AEAD_LIMIT_REACHED);
	KUNIT_EXPECT_FALSE(test, quic_sk(p.server->sk)->close.seen.app);
	release_sock(p.server->sk);
}

static struct kunit_case conn_end_cases[] = {
	KUNIT_CASE_SLOW(end_idle_timeout_is_the_smaller_of_both_ends),
	KUNIT_CASE_SLOW(end_idle_timeout_zero_on_one_end_leaves_the_other),
	KUNIT_CASE_SLOW(end_idle_timeout_zero_on_both_ends_never_closes),
	KUNIT_CASE(end_idle_timeout_is_at_least_three_ptos),
	KUNIT_CASE(end_aead_limit_reached_closes_the_connection),
	KUNIT_CASE(end_closing_period_leaves_out_backoff_and_is_capped),
	{}
};

static struct kunit_suite conn_end_suite = {
	.name = "quic_conn_end",
	.suite_init = quic_kunit_net_suite_init,
	.suite_exit = quic_kunit_net_suite_exit,
	.test_cases = conn_end_cases,
};

kunit_test_suite(conn_end_suite);
