/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC packet transmission: turning the send queue into protected
 * packets, coalesced into UDP datagrams (RFC 9000 Sections 12.2, 14 and
 * 17, RFC 9001 Section 5), within the anti-amplification limit (RFC 9000
 * Section 8.1), and the timers that drive it.
 */

#ifndef __net_quic_transmit_h__
#define __net_quic_transmit_h__

#include <linux/ktime.h>
#include <linux/types.h>

#include "timer.h"

struct quic_close_info;
struct quic_conn_id;
struct quic_frame;
struct sk_buff;
struct sock;

/* Datagrams sent by one quic_xmit() call at most, so that a receive in
 * softirq context does not transmit without bound.
 */
#define QUIC_XMIT_BURST		16

/* The clock every protocol computation of a socket uses, microseconds. */
static inline u64 quic_time_us(void)
{
	return ktime_to_us(ktime_get());
}

void quic_xmit(struct sock *sk);
void quic_xmit_timers_update(struct sock *sk);
void quic_xmit_close(struct sock *sk, const struct quic_close_info *info,
		     struct sk_buff **keep);
int quic_xmit_resend(struct sock *sk, const struct sk_buff *skb);
int quic_xmit_probe(struct sock *sk, const struct quic_frame *f, const struct quic_conn_id *dcid,
		    const union quic_addr *sa, const union quic_addr *da);
int quic_xmit_stateless(struct sock *sk, struct sk_buff *skb, const union quic_addr *da,
			const union quic_addr *sa);
void quic_xmit_pmtu_start(struct sock *sk);
void quic_xmit_pmtu_done(struct sock *sk, s64 pn, bool acked);
void quic_xmit_pmtu_restart(struct sock *sk);
void quic_xmit_pmtu_check(struct sock *sk);
void quic_xmit_pmtu_toobig(struct sock *sk, u32 mtu);

/**
 * enum quic_xmit_notice - what the engine notices and the connection acts on
 * @QUIC_XMIT_SAW_HANDSHAKE: a client sent its first Handshake packet: its
 *	Initial keys go (RFC 9001 Section 4.9.1); none is used meanwhile
 * @QUIC_XMIT_SAW_KEY_LIMIT: a 1-RTT packet was protected: the keys may be
 *	near their confidentiality limit (RFC 9001 Section 6.6)
 * @QUIC_XMIT_SAW_ACK_ELICITING: an ack-eliciting packet was sent: the idle
 *	timer may restart (RFC 9000 Section 10.1)
 *
 * Bits of &quic_sock.noticed, set under the socket lock by transmit.c and
 * cleared by quic_conn_flush() at the end of each received datagram, each
 * timer expiry and each release_sock().
 */
enum quic_xmit_notice {
	QUIC_XMIT_SAW_HANDSHAKE		= BIT(0),
	QUIC_XMIT_SAW_KEY_LIMIT		= BIT(1),
	QUIC_XMIT_SAW_ACK_ELICITING	= BIT(2),
};

void quic_xmit_loss_fire(struct sock *sk);
void quic_xmit_ack_fire(struct sock *sk);
void quic_xmit_pace_fire(struct sock *sk);
void quic_xmit_pmtu_fire(struct sock *sk);

#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
const char *quic_xmit_pacing_invariant(struct sock *sk, u64 now);
#endif

#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
/**
 * struct quic_xmit_kunit_hooks - what the KUnit suites change in transmission
 * @drop: when set, called for each datagram after it was recorded as sent;
 *	returning true loses it, so that loss recovery is exercised on a real
 *	connection. A plain pointer rather than a static stub: datagrams also
 *	leave from timers and softirq, outside the test's thread. While it is
 *	set, datagrams leave one by one, never in a GSO run.
 * @gso: when set, the datagrams that left in GSO runs are added to it
 */
struct quic_xmit_kunit_hooks {
	bool (*drop)(struct sock *sk, struct sk_buff *skb);
	atomic_t *gso;
};

extern struct quic_xmit_kunit_hooks quic_xmit_kunit_hooks;
#endif

#endif /* __net_quic_transmit_h__ */
