// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_recovery: loss recovery of the send queue (recovery.c,
 * RFC 9002). Acknowledgment processing and RTT samples (Sections 5 and
 * A.7), loss by packet and time threshold (Section 6.1), the loss
 * detection timer and its probes (Section 6.2, Appendices A.8 and A.9)
 * with the client's anti-deadlock rule and the amplification limit,
 * persistent congestion (Section 7.6), discarding a packet number space
 * (Section 6.4), and ECN validation (RFC 9000 Section 13.4.2).
 *
 * Each case drives a client's outqueue by hand (outqueue_util.h).
 */

#include <kunit/test.h>

#include "outqueue_util.h"

/* RFC 9002 Section 6.2.2.1: a server blocked by the amplification limit
 * arms no PTO; once the limit is lifted the timer must come back, or data
 * lost afterwards would never be repaired.
 */
static void outqueue_pto_held_back_only_while_amplification_limited(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level;

	/* No PTO in the application space before confirmation (Section 6.2.1). */
	quic_outq_set_confirmed(&e->outq);
	oq_send_data(test, e, s, 0, 100, OQ_T0);
	KUNIT_EXPECT_GT(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
	quic_outq_set_amp_limited(&e->outq, true);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
	/* Validation lifts the limit even when no datagram follows it. */
	quic_outq_set_peer_validated(&e->outq);
	KUNIT_EXPECT_GT(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
}

static void outqueue_ack_of_never_sent_packet_is_refused(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u32 inflight;

	/* Arrange: packet 0 is the only one sent in the Application space. */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	inflight = quic_cong_in_flight(&e->cong);

	/* Act + Assert: RFC 9000 Section 13.1, acknowledging packet 1 (never
	 * sent) is a PROTOCOL_VIOLATION; so is any ACK in the Handshake space,
	 * where nothing was sent. Nothing changes.
	 */
	KUNIT_EXPECT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 1, OQ_T0 + 1000), -EPROTO);
	KUNIT_EXPECT_EQ(test, quic_frame_transport_error(-EPROTO),
			(u32)QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);
	KUNIT_EXPECT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_HANDSHAKE, 0, 0, OQ_T0 + 1000), -EPROTO);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), inflight);
	KUNIT_EXPECT_EQ(test, e->space[QUIC_CRYPTO_APP].max_pn_acked_seen, -1LL);

	/* The right ACK is taken. */
	KUNIT_EXPECT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 0, OQ_T0 + 1000), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), 0U);
}

static void outqueue_rtt_sample_only_when_largest_newly_acked_is_eliciting(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);

	/* Arrange: packet 0 carries data; packet 1 is ACK-only (we owe the
	 * peer an ACK for its packet 0).
	 */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	oq_owe_ack(test, app, 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 10000), 0U);
	KUNIT_ASSERT_EQ(test, e->tx.pn, 1LL);
	KUNIT_ASSERT_FALSE(test, e->tx.ack_eliciting);

	/* Act: an ACK of packet 1 alone. RFC 9002 Section 5.1: the largest is
	 * newly acknowledged but nothing ack-eliciting is: no sample.
	 */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 1, OQ_T0 + 100000), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_latest_rtt(&e->cong), 0U);

	/* Act: packets 0 and 1. Packet 0 is ack-eliciting and newly acked, but
	 * the largest (1) is not newly acknowledged: still no sample.
	 */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 1, OQ_T0 + 150000), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_latest_rtt(&e->cong), 0U);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(&e->cong), QUIC_RTT_INIT);

	/* Act: packet 2 (data) sent at T0 + 200 ms, acknowledged 30 ms later:
	 * latest_rtt = 30000 us, the first sample (smoothed_rtt = 30000).
	 */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 100, 10, OQ_T0 + 200000), 2);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 2, 2, OQ_T0 + 230000), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_latest_rtt(&e->cong), 30000U);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(&e->cong), 30000U);
}

static void outqueue_packet_threshold_loss_requeues_same_stream_bytes(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u32 window;
	int i;

	/* Arrange: packets 0..3, each with the next 100 bytes of stream 0. */
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, i * 100, 100, OQ_T0 + i), i);
	window = quic_cong_window(&e->cong);

	/* Act: 1..3 acknowledged. RFC 9002 Section 6.1.1: packet 0 is
	 * kPacketThreshold (3) below the largest acknowledged: lost.
	 */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 3, OQ_T0 + 20000), 0);

	/* Assert: it left bytes in flight, the window was reduced (a NewReno
	 * congestion event halves it), and its data waits for retransmission.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), 0U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(&e->cong), window / 2);
	KUNIT_EXPECT_EQ(test, e->space[QUIC_CRYPTO_APP].loss_time, 0ULL);

	/* RFC 9000 Section 13.3: the information goes in a new packet (4), a
	 * STREAM frame with the same offset and bytes.
	 */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 21000), 0U);
	KUNIT_EXPECT_EQ(test, e->tx.pn, 4LL);
	oq_expect_stream(test, e, 0, 0, 100);
}

static void outqueue_time_threshold_loss_sets_and_fires_loss_time(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);
	u64 expiry;
	u8 level;

	/* Arrange: packet 0 at T0, packet 1 at T0 + 1 ms; packet 1 is
	 * acknowledged at T0 + 50 ms: latest_rtt = smoothed_rtt = 49000 us.
	 */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 100, 100, OQ_T0 + 1000), 1);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 1, OQ_T0 + 50000), 0);

	/* Assert: RFC 9002 Section 6.1.2, loss delay = 9/8 * 49000 = 55125 us.
	 * Packet 0 is one below the largest acked and only 50 ms old: not
	 * lost yet, it will be at T0 + 55125, which the timer is armed for.
	 */
	KUNIT_EXPECT_EQ(test, app->loss_time, OQ_T0 + 55125);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0 + 50000, &level), OQ_T0 + 55125);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_APP);
	KUNIT_EXPECT_GT(test, quic_cong_in_flight(&e->cong), 0U);

	/* Act: the timer fires (Appendix A.9): packet 0 is lost. */
	expiry = app->loss_time;
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, expiry, &level),
			QUIC_OUTQ_TIMER_LOSS);

	/* Assert: nothing in flight, loss_time cleared, data requeued. */
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), 0U);
	KUNIT_EXPECT_EQ(test, app->loss_time, 0ULL);
	KUNIT_EXPECT_EQ(test, quic_cong_pto_count(&e->cong), 0U);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, expiry), 0U);
	oq_expect_stream(test, e, 0, 0, 100);
}

static void outqueue_pto_backs_off_and_probes_with_new_data(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level = 0xff;

	/* Arrange: 100 bytes in packet 0, then 50 new bytes queued. */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data + 100, 50, false,
						      GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), OQ_T0 + OQ_PTO_APP);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_APP);

	/* Act: the PTO fires. */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);

	/* Assert: RFC 9002 Section 6.2.1 backoff; Section 6.2.4: the probe
	 * carries the new data, not a copy of packet 0; the second probe (up
	 * to two are allowed), with no new data left, sends packet 0's data
	 * again rather than a bare PING.
	 */
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_APP);
	KUNIT_EXPECT_EQ(test, quic_cong_pto_count(&e->cong), 1U);
	KUNIT_EXPECT_TRUE(test, quic_outq_probe_pending(&e->outq, QUIC_CRYPTO_APP));
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + OQ_PTO_APP), 0U);
	oq_expect_stream(test, e, 0, 100, 50);
	KUNIT_EXPECT_TRUE(test, quic_outq_probe_pending(&e->outq, QUIC_CRYPTO_APP));
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + OQ_PTO_APP), 0U);
	oq_expect_stream(test, e, 0, 0, 100);
	KUNIT_EXPECT_FALSE(test, quic_outq_probe_pending(&e->outq, QUIC_CRYPTO_APP));
	/* The next PTO counts from the probe, with the doubled period. */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			OQ_T0 + 3 * OQ_PTO_APP);
}

static void outqueue_pto_probe_retransmits_oldest_despite_full_window(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level;

	/* Arrange: packet 0 holds 100 bytes, nothing new is queued, and the
	 * rest of the window is taken.
	 */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	quic_cong_on_packet_sent(&e->cong, OQ_T0, quic_cong_room(&e->cong));
	KUNIT_ASSERT_EQ(test, quic_cong_room(&e->cong), 0U);

	/* Act */
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);

	/* Assert: Section 6.2.4, no new data: the oldest unacknowledged data
	 * is sent again, and probes are not blocked by the window.
	 */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + OQ_PTO_APP), 0U);
	KUNIT_EXPECT_TRUE(test, e->tx.ack_eliciting);
	oq_expect_stream(test, e, 0, 0, 100);
}

/*
 * RFC 9002 Section 6.2.4: two probes let one lost datagram cost no further
 * timeout. When one packet holds all the outstanding data, the second
 * probe repeats it rather than being a bare PING: a path that loses the
 * first datagram of each flight would otherwise never deliver it (found
 * by quic_explore, pattern kth-of-flight, in a client's Initial).
 */
static void outqueue_pto_second_probe_repeats_the_only_outstanding_data(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level;

	/* Arrange: packet 0 holds 100 bytes, nothing new is queued. */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);

	/* Act: both probes of the timeout. */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + OQ_PTO_APP), 0U);
	oq_expect_stream(test, e, 0, 0, 100);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + OQ_PTO_APP), 0U);

	/* Assert: the second carries the same bytes again. */
	KUNIT_EXPECT_EQ(test, e->tx.pn, 2LL);
	oq_expect_stream(test, e, 0, 0, 100);
	KUNIT_EXPECT_FALSE(test, quic_outq_probe_pending(&e->outq, QUIC_CRYPTO_APP));
}

static void outqueue_pto_probe_is_ping_when_nothing_to_send(struct kunit *test)
{
	static const u8 ping[] = { QUIC_FRAME_PING };
	struct oq_env *e = oq_env_confirmed(test);
	u8 level;

	/* Arrange: packet 0 held a PING, which is never repaired. */
	KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_APP, OQ_T0), 0);

	/* Act */
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);

	/* Assert: Section 6.2.4, no data at all: a PING alone. */
	KUNIT_ASSERT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + OQ_PTO_APP), 1U);
	KUNIT_EXPECT_MEMEQ(test, e->buf, ping, sizeof(ping));
	KUNIT_EXPECT_TRUE(test, e->tx.ack_eliciting);
	KUNIT_EXPECT_EQ(test, e->tx.pn, 1LL);
}

static void outqueue_pto_not_armed_with_nothing_in_flight(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	u8 level;

	/* Arrange + Act + Assert: RFC 9002 Appendix A.8, the peer validated
	 * our address and nothing ack-eliciting is in flight: no timer.
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0, &level),
			QUIC_OUTQ_TIMER_NONE);

	/* Once packet 0 is acknowledged, again nothing is in flight. */
	KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_APP, OQ_T0), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), OQ_T0 + OQ_PTO_APP);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 0, OQ_T0 + 5000), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0 + 5000, &level), 0ULL);
}

static void outqueue_client_keeps_anti_deadlock_pto_until_validated(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	u8 level = 0xff;

	/* Arrange: a client before address validation, nothing in flight. */

	/* Act + Assert: RFC 9002 Section 6.2.2.1, the anti-deadlock PTO runs
	 * from now, in the Initial space (999000 us, no max_ack_delay)...
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), OQ_T0 + 999000);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_INITIAL);

	/* ... or in the Handshake space once it has Handshake keys. */
	quic_outq_set_hs_keys(&e->outq);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), OQ_T0 + 999000);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);

	/* Its expiry asks for a probe there (a PING when there is nothing). */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + 999000, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, OQ_T0 + 999000), 1U);

	/* A validated peer with nothing in flight: no timer at all. */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_HANDSHAKE, 0, 0, OQ_T0 + 1000000), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0 + 1000000, &level), 0ULL);
}

/*
 * RFC 9002 Section 6.2.2.1: until the server validated its address, a
 * client MUST keep a PTO armed even with nothing in flight. 0-RTT packets
 * in flight do not take that PTO away: the Application space is not
 * probed before the handshake is confirmed. Here the client's Initial was
 * acknowledged, its 0-RTT data is in flight, and nothing more comes.
 */
static void outqueue_client_with_only_0rtt_in_flight_keeps_a_pto(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level = 0xff;
	u64 expiry;

	KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_INITIAL, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_INITIAL, 0, 0, OQ_T0 + 1000), 0);
	oq_queue(test, e, s, 0, 100, false);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_EARLY, OQ_ROOM, OQ_T0 + 1000), 0U);
	KUNIT_ASSERT_TRUE(test, e->tx.ack_eliciting);

	expiry = quic_outq_loss_timer(&e->outq, OQ_T0 + 2000, &level);
	KUNIT_EXPECT_GT(test, expiry, OQ_T0 + 2000);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_INITIAL);
	/* Its expiry asks for an Initial probe (padded by the caller). */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, expiry, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_INITIAL);
}

/*
 * RFC 9002 Section 6.2.4: a PTO expiry sends up to two probes. A PLPMTUD
 * probe (a padded PING, RFC 9000 Section 14.4) that leaves meanwhile is
 * about the path's size, not about the loss: it takes none of them.
 */
static void outqueue_pmtu_probe_takes_no_pto_probe(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 idx = quic_pnspace_index(QUIC_CRYPTO_APP);
	u8 level;

	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_ASSERT_EQ(test, (u32)e->outq.spaces[idx].probe, (u32)QUIC_OUTQ_PTO_PROBES);

	e->tx = (struct quic_outq_tx){
		.level = QUIC_CRYPTO_APP, .buf = e->buf, .room = OQ_ROOM, .overhead = OQ_OVERHEAD,
		.min_len = OQ_ROOM, .pmtu_probe = true, .now = OQ_T0 + OQ_PTO_APP,
	};
	KUNIT_ASSERT_EQ(test, quic_outq_fill(&e->outq, &e->tx, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, e->tx.len, (u32)OQ_ROOM);
	KUNIT_EXPECT_EQ(test, (u32)e->outq.spaces[idx].probe, (u32)QUIC_OUTQ_PTO_PROBES);
}

/*
 * The loss detection timer counts in jiffies and may fire a little before
 * the PTO time it was armed for (RFC 9002 Section 6.2.1): that expiry is
 * no PTO. Nothing is probed, the backoff does not grow, and the caller
 * arms the timer again; at the PTO time the probe goes.
 */
static void outqueue_pto_timer_firing_early_probes_nothing(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level;

	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP - 1000, &level),
			QUIC_OUTQ_TIMER_NONE);
	KUNIT_EXPECT_EQ(test, quic_cong_pto_count(&e->cong), 0U);
	KUNIT_EXPECT_FALSE(test, quic_outq_probe_pending(&e->outq, QUIC_CRYPTO_APP));
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_EXPECT_EQ(test, quic_cong_pto_count(&e->cong), 1U);
}

static void outqueue_no_application_pto_before_confirmation(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	u8 level;

	/* Arrange: validated but not confirmed, a 1-RTT packet in flight. */
	quic_outq_set_peer_validated(&e->outq);
	KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_APP, OQ_T0), 0);

	/* Act + Assert: RFC 9002 Section 6.2.1, no PTO for Application data
	 * until the handshake is confirmed; then it is armed.
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
	quic_outq_set_confirmed(&e->outq);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), OQ_T0 + OQ_PTO_APP);
}

static void outqueue_lost_handshake_data_keeps_a_pto_behind_a_full_window(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u64 expiry;
	u8 level;

	/* Arrange: a client's Finished (36 bytes of CRYPTO) in Handshake
	 * packet 0 at T0, a PING in packet 1 at T0 + 1 ms, then 1-RTT data
	 * filling the window, which the server cannot acknowledge before it
	 * has the Finished. Packet 1 is acknowledged at T0 + 50 ms and the
	 * loss timer declares packet 0 lost (time threshold).
	 */
	quic_outq_set_hs_keys(&e->outq);
	quic_outq_set_peer_validated(&e->outq);
	KUNIT_ASSERT_EQ(test, quic_outq_crypto_append(&e->outq, QUIC_CRYPTO_HANDSHAKE, e->data,
						      36, GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, OQ_T0), 0U);
	KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_T0 + 1000), 1);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0 + 2000), 0);
	quic_cong_on_packet_sent(&e->cong, OQ_T0 + 2000, quic_cong_room(&e->cong));
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_HANDSHAKE, 1, 1, OQ_T0 + 50000), 0);
	expiry = quic_outq_loss_timer(&e->outq, OQ_T0 + 50000, &level);
	KUNIT_ASSERT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, expiry, &level),
			QUIC_OUTQ_TIMER_LOSS);
	KUNIT_ASSERT_EQ(test, quic_cong_room(&e->cong), 0U);
	KUNIT_ASSERT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, expiry), 0U);

	/* Act + Assert: nothing of the Handshake space is in flight and the
	 * Application space gets no PTO before confirmation, yet the lost
	 * CRYPTO data keeps a Handshake PTO armed (RFC 9002 Section 6.2.1
	 * would leave no timer at all: a deadlock)...
	 */
	expiry = quic_outq_loss_timer(&e->outq, expiry, &level);
	KUNIT_EXPECT_GT(test, expiry, 0ULL);
	KUNIT_ASSERT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, expiry, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);

	/* ... and its probe carries the Finished again through the full
	 * window (Section 7.5).
	 */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, expiry), 0U);
	KUNIT_EXPECT_TRUE(test, e->tx.ack_eliciting);
	oq_decode(test, e, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_GE(test, e->nframes, 1U);
	KUNIT_EXPECT_EQ(test, e->frames[e->nframes - 1].type, QUIC_FRAME_CRYPTO);
	KUNIT_EXPECT_EQ(test, e->frames[e->nframes - 1].data.len, 36U);
}

static void outqueue_overdue_handshake_pto_goes_before_a_pending_loss_time(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);
	u64 now = OQ_T0 + 151000, pto;
	u8 level;

	/* Arrange: the client's Finished in Handshake packet 0 at T0, never
	 * acknowledged. 1-RTT packets 0 and 1 at T0 + 100 ms and + 101 ms;
	 * packet 1 is acknowledged at T0 + 151 ms (first RTT sample, 50 ms):
	 * packet 0 waits for the time threshold, T0 + 156.25 ms, while the
	 * Handshake PTO, T0 + 50 ms + 4 * 25 ms, is already overdue.
	 */
	quic_outq_set_hs_keys(&e->outq);
	KUNIT_ASSERT_EQ(test, quic_outq_crypto_append(&e->outq, QUIC_CRYPTO_HANDSHAKE, e->data,
						      36, GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, OQ_T0), 0U);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0 + 100000), 0);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 100, 100, OQ_T0 + 101000), 1);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 1, now), 0);
	pto = OQ_T0 + quic_cong_pto(&e->cong, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_EQ(test, app->loss_time, OQ_T0 + 156250);
	KUNIT_ASSERT_LT(test, pto, now);

	/* Act + Assert: the timer is the overdue PTO, not the loss time.
	 * Appendix A.8 would wait for the loss time, and on a lossy path each
	 * new acknowledgment of 1-RTT data sets another before the PTO gets
	 * its turn: the lost Finished would never go again.
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, now, &level), pto);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, now, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_EXPECT_EQ(test, app->loss_time, OQ_T0 + 156250);

	/* The probe carries the Finished again. */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, now), 0U);
	oq_decode(test, e, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_GE(test, e->nframes, 1U);
	KUNIT_EXPECT_EQ(test, e->frames[e->nframes - 1].type, QUIC_FRAME_CRYPTO);
	KUNIT_EXPECT_EQ(test, e->frames[e->nframes - 1].data.len, 36U);

	/* The next PTO is later (backed off, from the probe): the loss time
	 * is next, and its expiry declares 1-RTT packet 0 lost.
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, now, &level), OQ_T0 + 156250);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_APP);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + 156250, &level),
			QUIC_OUTQ_TIMER_LOSS);
	KUNIT_EXPECT_EQ(test, app->loss_time, 0ULL);
}

static void outqueue_persistent_congestion_collapses_window(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	const u64 t1 = OQ_T0 + 100000;
	int i;

	/* Arrange: the first RTT sample, 10 ms (smoothed 10000, rttvar 5000). */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 10, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 0, OQ_T0 + 10000), 0);
	/* Packets 1 at t1 and 2 at t1 + 200 ms, then 3..5 just after. */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 10, 10, t1), 1);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 20, 10, t1 + 200000), 2);
	for (i = 3; i <= 5; i++)
		KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, i * 10, 10, t1 + 200000 + i), i);

	/* Act: only packet 5 is acknowledged, 10 ms after it was sent. */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 5, 5, t1 + 210005), 0);

	/* Assert: packets 1 and 2 are lost by packet threshold (3 and 4 are
	 * not: 2 and 1 below, 10 ms old, under the 11250 us time threshold).
	 * Section 7.6.1: duration = (10000 + max(4 * 3750, 1000) + 25000) * 3
	 * = 150000 us < 200 ms between two ack-eliciting losses sent after
	 * the first sample, with nothing between acknowledged: persistent
	 * congestion, the window falls to the minimum (Section 7.6.2).
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_window(&e->cong), quic_cong_min_window(&e->cong));
	KUNIT_EXPECT_EQ(test, quic_cong_window(&e->cong), 2400U);
}

static void outqueue_loss_period_broken_by_ack_is_not_persistent(struct kunit *test)
{
	/* After the First ACK Range [6, 6]: largest = 6 - Gap - 2 = 2, length 0. */
	static const struct quic_ack_range range_2 = { .gap = 2, .len = 0 };
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	const u64 t1 = OQ_T0 + 100000;
	struct quic_frame f;
	u32 window;
	int i;

	/* Arrange: as in the previous case, but with a packet between the two
	 * losses (2, at t1 + 100 ms) that gets acknowledged.
	 */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 10, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 0, OQ_T0 + 10000), 0);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 10, 10, t1), 1);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 20, 10, t1 + 100000), 2);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 30, 10, t1 + 200000), 3);
	for (i = 4; i <= 6; i++)
		KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, i * 10, 10, t1 + 200000 + i), i);
	window = quic_cong_window(&e->cong);

	/* Act: packets 6 and 2 acknowledged (RFC 9000 Section 19.3.1 ranges). */
	f = oq_ack(6, 6, &range_2, 1);
	KUNIT_ASSERT_EQ(test, quic_outq_on_ack(&e->outq, QUIC_CRYPTO_APP, &f, 0, t1 + 210006), 0);

	/* Assert: 1 and 3 are lost (Section 6.1.1) and 200 ms apart, but an
	 * acknowledgment in between rules out persistent congestion (Section
	 * 7.6.2): one congestion event, the NewReno window is halved.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_window(&e->cong), window / 2);
	KUNIT_EXPECT_GT(test, quic_cong_window(&e->cong), quic_cong_min_window(&e->cong));
}

static void outqueue_discard_initial_removes_bytes_without_loss(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	u32 window = quic_cong_window(&e->cong);
	u8 level;

	/* Arrange: an Initial packet with 500 CRYPTO bytes, padded to 1200,
	 * and 100 more bytes queued.
	 */
	KUNIT_ASSERT_EQ(test, quic_outq_crypto_append(&e->outq, QUIC_CRYPTO_INITIAL, e->data, 500,
						      GFP_KERNEL), 0);
	e->tx = (struct quic_outq_tx){ .level = QUIC_CRYPTO_INITIAL, .buf = e->buf,
				       .room = OQ_ROOM, .overhead = OQ_OVERHEAD,
				       .min_len = OQ_ROOM, .now = OQ_T0 };
	KUNIT_ASSERT_EQ(test, quic_outq_fill(&e->outq, &e->tx, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, e->tx.len, (u32)OQ_ROOM);
	KUNIT_ASSERT_EQ(test, quic_cong_in_flight(&e->cong), OQ_ROOM + OQ_OVERHEAD);
	KUNIT_ASSERT_EQ(test, quic_outq_crypto_append(&e->outq, QUIC_CRYPTO_INITIAL,
						      e->data + 500, 100, GFP_KERNEL), 0);

	/* Act: RFC 9001 Section 4.9.1, the Initial keys are discarded. */
	quic_outq_discard_space(&e->outq, QUIC_CRYPTO_INITIAL);

	/* Assert: RFC 9002 Section 6.4, the bytes left flight without any
	 * congestion reaction, the queued data is gone, no timer is left for
	 * the space.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), 0U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(&e->cong), window);
	KUNIT_EXPECT_EQ(test, quic_cong_state(&e->cong), QUIC_CONG_SLOW_START);
	KUNIT_EXPECT_EQ(test, e->space[QUIC_CRYPTO_INITIAL].inflight, 0U);
	KUNIT_EXPECT_EQ(test, e->space[QUIC_CRYPTO_INITIAL].loss_time, 0ULL);
	KUNIT_EXPECT_FALSE(test, quic_outq_has_data(&e->outq, QUIC_CRYPTO_INITIAL));
	quic_outq_set_peer_validated(&e->outq);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
}

/* RFC 9000 Section 13.4.2.1: an ACK_ECN whose ECT(0) and CE counts grew by
 * the number of marked packets it newly acknowledges makes the path
 * ECN-capable; marking goes on.
 */
static void outqueue_ecn_validated_by_matching_counts(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_frame f;
	s64 a, b;

	a = oq_send_marked(test, e, 1000);
	b = oq_send_marked(test, e, 1000);
	KUNIT_EXPECT_EQ(test, e->outq.ecn_tested, 2);
	f = oq_ack(a, b, NULL, 0);
	f.type = QUIC_FRAME_ACK_ECN;
	f.ack.ecn[QUIC_ECN_ECT0] = 1;
	f.ack.ecn[QUIC_ECN_CE] = 1;
	KUNIT_EXPECT_EQ(test, quic_outq_on_ack(&e->outq, QUIC_CRYPTO_APP, &f, 0, 3000), 0);
	KUNIT_EXPECT_EQ(test, e->outq.ecn_state, QUIC_ECN_CAPABLE);
	/* Capable: marking goes on past the testing packets. */
	e->outq.ecn_tested = QUIC_ECN_TEST_PACKETS;
	KUNIT_EXPECT_TRUE(test, quic_outq_ecn_mark(&e->outq));
}

/* ECN validation fails, and marking stops for good, on an ACK without
 * ECN counts for marked packets, on counts that grew too little, and on an
 * ECT(1) count we never sent for.
 */
static void outqueue_ecn_validation_failures_stop_marking(struct kunit *test)
{
	static const u8 kinds[] = { 0, 1, 2 };
	struct oq_env *e;
	struct quic_frame f;
	s64 a, b;
	int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		e = oq_env_confirmed(test);
		a = oq_send_marked(test, e, 1000);
		b = oq_send_marked(test, e, 1000);
		f = oq_ack(a, b, NULL, 0);
		if (kinds[i] == 1) {
			f.type = QUIC_FRAME_ACK_ECN;
			f.ack.ecn[QUIC_ECN_ECT0] = 1;	/* two were marked */
		} else if (kinds[i] == 2) {
			f.type = QUIC_FRAME_ACK_ECN;
			f.ack.ecn[QUIC_ECN_ECT0] = 2;
			f.ack.ecn[QUIC_ECN_ECT1] = 1;
		}
		KUNIT_EXPECT_EQ(test, quic_outq_on_ack(&e->outq, QUIC_CRYPTO_APP, &f, 0, 3000),
				0);
		KUNIT_EXPECT_EQ_MSG(test, e->outq.ecn_state, QUIC_ECN_FAILED, "case %d", i);
		KUNIT_EXPECT_FALSE(test, quic_outq_ecn_mark(&e->outq));
	}
}

/* RFC 9000 Section 13.4.2.1: "An endpoint MUST NOT fail ECN validation
 * as a result of processing an ACK frame that does not increase the
 * largest acknowledged packet number." An older ACK frame arriving after a
 * newer one newly acknowledges a marked packet with counts that did not
 * grow: the path stays ECN-capable.
 */
static void outqueue_ecn_reordered_ack_does_not_fail_validation(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_frame f;
	s64 a, b;

	a = oq_send_marked(test, e, 1000);
	b = oq_send_marked(test, e, 1000);
	f = oq_ack(b, b, NULL, 0);
	f.type = QUIC_FRAME_ACK_ECN;
	f.ack.ecn[QUIC_ECN_ECT0] = 1;
	KUNIT_ASSERT_EQ(test, quic_outq_on_ack(&e->outq, QUIC_CRYPTO_APP, &f, 0, 3000), 0);
	KUNIT_ASSERT_EQ(test, e->outq.ecn_state, QUIC_ECN_CAPABLE);

	/* The frame the peer sent first, acknowledging only a. */
	f = oq_ack(a, a, NULL, 0);
	f.type = QUIC_FRAME_ACK_ECN;
	f.ack.ecn[QUIC_ECN_ECT0] = 1;
	KUNIT_EXPECT_EQ(test, quic_outq_on_ack(&e->outq, QUIC_CRYPTO_APP, &f, 0, 3100), 0);
	KUNIT_EXPECT_EQ(test, e->outq.ecn_state, QUIC_ECN_CAPABLE);
	KUNIT_EXPECT_TRUE(test, quic_outq_ecn_mark(&e->outq));
}

/* Testing marks only the first QUIC_ECN_TEST_PACKETS packets. */
static void outqueue_ecn_testing_marks_a_bounded_number(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	int i;

	for (i = 0; i < QUIC_ECN_TEST_PACKETS; i++)
		oq_send_marked(test, e, 1000 + i);
	KUNIT_EXPECT_EQ(test, e->outq.ecn_state, QUIC_ECN_TESTING);
	KUNIT_EXPECT_FALSE(test, quic_outq_ecn_mark(&e->outq));
}

static struct kunit_case recovery_cases[] = {
	KUNIT_CASE(outqueue_pto_held_back_only_while_amplification_limited),
	KUNIT_CASE(outqueue_ack_of_never_sent_packet_is_refused),
	KUNIT_CASE(outqueue_rtt_sample_only_when_largest_newly_acked_is_eliciting),
	KUNIT_CASE(outqueue_packet_threshold_loss_requeues_same_stream_bytes),
	KUNIT_CASE(outqueue_time_threshold_loss_sets_and_fires_loss_time),
	KUNIT_CASE(outqueue_pto_backs_off_and_probes_with_new_data),
	KUNIT_CASE(outqueue_pto_probe_retransmits_oldest_despite_full_window),
	KUNIT_CASE(outqueue_pto_second_probe_repeats_the_only_outstanding_data),
	KUNIT_CASE(outqueue_pto_probe_is_ping_when_nothing_to_send),
	KUNIT_CASE(outqueue_pto_not_armed_with_nothing_in_flight),
	KUNIT_CASE(outqueue_client_keeps_anti_deadlock_pto_until_validated),
	KUNIT_CASE(outqueue_client_with_only_0rtt_in_flight_keeps_a_pto),
	KUNIT_CASE(outqueue_pmtu_probe_takes_no_pto_probe),
	KUNIT_CASE(outqueue_pto_timer_firing_early_probes_nothing),
	KUNIT_CASE(outqueue_no_application_pto_before_confirmation),
	KUNIT_CASE(outqueue_lost_handshake_data_keeps_a_pto_behind_a_full_window),
	KUNIT_CASE(outqueue_overdue_handshake_pto_goes_before_a_pending_loss_time),
	KUNIT_CASE(outqueue_persistent_congestion_collapses_window),
	KUNIT_CASE(outqueue_loss_period_broken_by_ack_is_not_persistent),
	KUNIT_CASE(outqueue_discard_initial_removes_bytes_without_loss),
	KUNIT_CASE(outqueue_ecn_validated_by_matching_counts),
	KUNIT_CASE(outqueue_ecn_validation_failures_stop_marking),
	KUNIT_CASE(outqueue_ecn_reordered_ack_does_not_fail_validation),
	KUNIT_CASE(outqueue_ecn_testing_marks_a_bounded_number),
	{}
};

static struct kunit_suite recovery_suite = {
	.name = "quic_recovery",
	.test_cases = recovery_cases,
};

kunit_test_suite(recovery_suite);
