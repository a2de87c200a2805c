// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_reno: the NewReno congestion controller of RFC 9002
 * Section 7 and Appendix B, and the bookkeeping every algorithm shares:
 * initial and minimum window, slow start, congestion avoidance, one
 * reduction per recovery period, persistent congestion, ECN-CE,
 * application-limited sending and max_datagram_size changes.
 *
 * Windows are bytes, times microseconds; packets are 1200 bytes unless a
 * case says otherwise. Expected values are worked out in the comments.
 */

#include <kunit/test.h>

#include "../cong.h"

#define RENO_T0		(1000ULL * 1000 * 1000)
#define RENO_PKT	1200

static struct quic_cong *reno_new(struct kunit *test, bool confirmed)
{
	struct quic_cong *cong;

	cong = kunit_kzalloc(test, sizeof(*cong), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cong);
	quic_cong_init(cong);
	if (confirmed)
		quic_cong_set_confirmed(cong);
	return cong;
}

/* Send @n packets of @size at @now and acknowledge them at @ack. */
static void reno_send_ack(struct quic_cong *cong, u64 now, u64 ack, u32 n, u32 size)
{
	u32 i;

	for (i = 0; i < n; i++)
		quic_cong_on_packet_sent(cong, now, size);
	for (i = 0; i < n; i++)
		quic_cong_on_packet_acked(cong, ack, now, size);
}

/* A loss at @now of a packet sent at @sent. */
static void reno_lose(struct quic_cong *cong, u64 now, u64 sent)
{
	quic_cong_on_packet_sent(cong, sent, RENO_PKT);
	quic_cong_on_packet_lost(cong, now, sent, RENO_PKT);
}

struct reno_window_vector {
	const char *desc;
	u32 mss;
	u32 init_window;
	u32 min_window;
};

/* Section 7.2: initial window min(10 * mds, max(14720, 2 * mds)),
 * minimum window 2 * mds.
 */
static const struct reno_window_vector reno_window_vectors[] = {
	/* min(12000, max(14720, 2400)) = 12000 */
	{ "RFC 9002 7.2 mds 1200", 1200, 12000, 2400 },
	/* min(14720, max(14720, 2944)) = 14720 */
	{ "RFC 9002 7.2 mds 1472", 1472, 14720, 2944 },
	/* min(15000, max(14720, 3000)) = 14720 */
	{ "RFC 9002 7.2 mds 1500", 1500, 14720, 3000 },
	/* min(90000, max(14720, 18000)) = 18000 */
	{ "RFC 9002 7.2 mds 9000", 9000, 18000, 18000 },
	/* min(655270, max(14720, 131054)) = 131054 */
	{ "RFC 9002 7.2 mds 65527", 65527, 131054, 131054 },
	/* below the 1200 bytes every QUIC path carries: taken as 1200 */
	{ "RFC 9000 14 mds clamped to 1200", 1000, 12000, 2400 },
};

KUNIT_ARRAY_PARAM_DESC(reno_window, reno_window_vectors, desc);

static void reno_initial_and_minimum_window(struct kunit *test)
{
	const struct reno_window_vector *v = test->param_value;
	struct quic_cong *cong = reno_new(test, false);

	/* Before anything was sent, the window follows the new size. */
	quic_cong_set_mss(cong, v->mss);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), v->init_window);
	KUNIT_EXPECT_EQ(test, quic_cong_min_window(cong), v->min_window);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), U32_MAX);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_SLOW_START);
}

static void reno_is_the_default_algorithm(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, false);
	struct quic_config config = {};

	KUNIT_EXPECT_EQ(test, quic_cong_algo(cong), (u8)QUIC_CONG_ALG_RENO);
	KUNIT_EXPECT_STREQ(test, cong->ops->name, "reno");

	config.congestion_control_algo = QUIC_CONG_ALG_CUBIC;
	KUNIT_EXPECT_EQ(test, quic_cong_set_config(cong, &config), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_algo(cong), (u8)QUIC_CONG_ALG_CUBIC);
	KUNIT_EXPECT_STREQ(test, cong->ops->name, "cubic");

	KUNIT_EXPECT_EQ(test, quic_cong_set_algo(cong, QUIC_CONG_ALG_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_cong_set_algo(cong, QUIC_CONG_ALG_RENO), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_algo(cong), (u8)QUIC_CONG_ALG_RENO);
}

static void reno_slow_start_grows_by_acked_bytes(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u32 i;

	/* Section 7.3.1 and B.5: window += sent_bytes per acked packet. */
	for (i = 0; i < 10; i++)
		quic_cong_on_packet_sent(cong, RENO_T0, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), 12000U);
	KUNIT_EXPECT_EQ(test, quic_cong_room(cong), 0U);

	/* Three acks: 12000 + 3 * 1200 = 15600; in flight 12000 - 3600. */
	for (i = 0; i < 3; i++)
		quic_cong_on_packet_acked(cong, RENO_T0 + 100000, RENO_T0, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 15600U);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), 8400U);
	KUNIT_EXPECT_EQ(test, quic_cong_room(cong), 7200U);

	/* A 500-byte packet grows it by 500: 16100. */
	reno_send_ack(cong, RENO_T0 + 1, RENO_T0 + 100001, 1, 500);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 16100U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_SLOW_START);
}

static void reno_slow_start_ends_at_ssthresh(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u64 t1 = RENO_T0 + 100000;

	/* Loss at 12000: ssthresh = 6000. Persistent congestion then drops
	 * the window to 2400 < 6000: slow start again (Section 7.3.1).
	 */
	reno_lose(cong, t1, RENO_T0);
	quic_cong_on_persistent_congestion(cong, t1);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 2400U);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 6000U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_SLOW_START);

	/* 2400 + 1200 = 3600, + 1200 = 4800: still below 6000. */
	reno_send_ack(cong, t1 + 10, t1 + 100000, 2, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 4800U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_SLOW_START);
	/* 4800 + 1200 = 6000 = ssthresh: congestion avoidance (7.3.3). */
	reno_send_ack(cong, t1 + 20, t1 + 100020, 1, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 6000U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_AVOIDANCE);
	/* From here the window no longer grows per acked byte: 4 more acks
	 * (4800 bytes) leave it at 6000.
	 */
	reno_send_ack(cong, t1 + 30, t1 + 100030, 4, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 6000U);
}

static void reno_avoidance_adds_one_mss_per_window(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u64 t1 = RENO_T0 + 100000;

	/* Loss at 12000: ssthresh = window = 6000 (Appendix B.6). */
	reno_lose(cong, t1, RENO_T0);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 6000U);

	/* Section 7.3.3: at most one max_datagram_size per window acked.
	 * 4 acks of packets sent after recovery started (4800 < 6000): 6000.
	 */
	reno_send_ack(cong, t1 + 10, t1 + 100010, 4, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_AVOIDANCE);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 6000U);
	/* The 5th makes 6000 bytes acked: 6000 + 1200 = 7200. */
	reno_send_ack(cong, t1 + 20, t1 + 100020, 1, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 7200U);
	/* The next increase needs 7200 bytes: 5 acks are not enough, 6 are. */
	reno_send_ack(cong, t1 + 30, t1 + 100030, 5, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 7200U);
	reno_send_ack(cong, t1 + 40, t1 + 100040, 1, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 8400U);
}

static void reno_one_reduction_per_recovery_period(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u64 t1 = RENO_T0 + 100000, t2 = t1 + 1000;

	/* First loss: ssthresh = 12000 / 2 = 6000, window 6000 (B.6). */
	reno_lose(cong, t1, RENO_T0);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 6000U);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 6000U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_RECOVERY);

	/* Section 7.3.2: losses and CE of packets sent before t1 change
	 * nothing, and acks of such packets do not grow the window.
	 */
	reno_lose(cong, t1 + 5, RENO_T0 + 10);
	reno_lose(cong, t1 + 6, t1);
	quic_cong_on_ecn_ce(cong, t1 + 7, RENO_T0 + 20);
	quic_cong_on_packet_sent(cong, RENO_T0 + 30, RENO_PKT);
	quic_cong_on_packet_acked(cong, t1 + 8, RENO_T0 + 30, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 6000U);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 6000U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_RECOVERY);

	/* A loss of a packet sent after t1 starts a new period: 3000. */
	reno_lose(cong, t2 + 100000, t2);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 3000U);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 3000U);
}

static void reno_recovery_ends_on_later_packet_ack(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u64 t1 = RENO_T0 + 100000;

	reno_lose(cong, t1, RENO_T0);
	/* A packet sent at t1 itself still belongs to the period (B.5:
	 * sent_time <= congestion_recovery_start_time).
	 */
	reno_send_ack(cong, t1, t1 + 100000, 1, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_RECOVERY);
	/* One sent after t1 ends it (Section 7.3.2): avoidance, 6000 >= 6000. */
	reno_send_ack(cong, t1 + 1, t1 + 100001, 1, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_AVOIDANCE);
}

static void reno_ecn_ce_is_a_congestion_signal(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u64 t1 = RENO_T0 + 100000;

	quic_cong_on_packet_sent(cong, RENO_T0, RENO_PKT);
	/* Section 7.1 and B.7: an increased ECN-CE count for a packet sent at
	 * T0 reduces like a loss: ssthresh = window = 6000.
	 */
	quic_cong_on_ecn_ce(cong, t1, RENO_T0);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 6000U);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 6000U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_RECOVERY);
	/* The marked packet was delivered: it stays in flight until acked. */
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), 1200U);
	/* Once per period: a second increase for the same flight is ignored. */
	quic_cong_on_ecn_ce(cong, t1 + 10, RENO_T0);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 6000U);
	/* A later flight reduces again: 3000. */
	quic_cong_on_ecn_ce(cong, t1 + 200000, t1 + 100);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 3000U);
}

static void reno_persistent_congestion_collapses_window(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u64 t1 = RENO_T0 + 100000;

	/* min_rtt 80000 from the samples 100000 and 80000; latest 150000. */
	quic_cong_rtt_update(cong, RENO_T0, RENO_T0 - 100000, 0);
	quic_cong_rtt_update(cong, RENO_T0 + 10, RENO_T0 - 79990, 0);
	quic_cong_rtt_update(cong, RENO_T0 + 20, RENO_T0 - 149980, 0);
	KUNIT_EXPECT_EQ(test, quic_cong_min_rtt(cong), 80000U);

	reno_lose(cong, t1, RENO_T0);
	quic_cong_on_persistent_congestion(cong, t1);
	/* Section 7.6.2: kMinimumWindow = 2 * 1200; B.8: the recovery period
	 * ends (start time 0); Section 5.2: min_rtt = newest sample, 150000.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 2400U);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 6000U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_SLOW_START);
	KUNIT_EXPECT_EQ(test, quic_cong_min_rtt(cong), 150000U);
	/* With no recovery period, a packet sent at T0 grows the window in
	 * slow start again: 2400 + 1200.
	 */
	reno_send_ack(cong, RENO_T0, t1 + 100000, 1, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 3600U);
}

static void reno_app_limited_does_not_grow(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);

	/* Section 7.8: an underused window does not grow. */
	quic_cong_set_app_limited(cong, RENO_T0, true);
	reno_send_ack(cong, RENO_T0, RENO_T0 + 100000, 3, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 12000U);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), 0U);

	/* Limited again by the window only: 12000 + 1200. */
	quic_cong_set_app_limited(cong, RENO_T0 + 200000, false);
	reno_send_ack(cong, RENO_T0 + 200000, RENO_T0 + 300000, 1, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 13200U);
}

static void reno_min_window_floor(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u64 t = RENO_T0;

	/* Each loss in a new period: 12000 -> 6000 -> 3000 -> max(1500, 2400)
	 * -> max(1200, 2400): the window never goes below 2 * 1200.
	 */
	reno_lose(cong, t + 100, t);
	reno_lose(cong, t + 300, t + 200);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 3000U);
	reno_lose(cong, t + 500, t + 400);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 1500U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 2400U);
	reno_lose(cong, t + 700, t + 600);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 1200U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 2400U);
}

static void reno_mss_decrease_before_confirmation(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, false);

	/* mds 1500: initial window 14720; 2 acks grow it to 17720. */
	quic_cong_set_mss(cong, 1500);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 14720U);
	reno_send_ack(cong, RENO_T0, RENO_T0 + 100000, 2, 1500);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 17720U);
	/* Section 7.2: decreased to complete the handshake, the window is
	 * set to the new initial window, min(12000, 14720) = 12000.
	 */
	quic_cong_set_mss(cong, 1200);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 12000U);
	KUNIT_EXPECT_EQ(test, quic_cong_min_window(cong), 2400U);
	KUNIT_EXPECT_EQ(test, quic_cong_mss(cong), 1200U);
}

static void reno_mss_change_after_confirmation(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u64 t = RENO_T0;

	/* One ack: 13200. Raising mds to 1500 keeps it; the minimum window
	 * becomes 3000 and the initial window 14720.
	 */
	reno_send_ack(cong, t, t + 100000, 1, RENO_PKT);
	quic_cong_set_mss(cong, 1500);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 13200U);
	KUNIT_EXPECT_EQ(test, quic_cong_min_window(cong), 3000U);
	/* Back to 1200 once confirmed: window kept, minimum 2400. */
	quic_cong_set_mss(cong, 1200);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 13200U);

	/* At the minimum window (13200 -> 6600 -> 3300 -> 2400), a larger
	 * mds lifts the window to its new minimum: 2 * 9000 = 18000.
	 */
	reno_lose(cong, t + 200100, t + 200000);
	reno_lose(cong, t + 200300, t + 200200);
	reno_lose(cong, t + 200500, t + 200400);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 2400U);
	quic_cong_set_mss(cong, 9000);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 18000U);
}

static void reno_bytes_in_flight_accounting(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u32 i;

	for (i = 0; i < 4; i++)
		quic_cong_on_packet_sent(cong, RENO_T0, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), 4800U);
	KUNIT_EXPECT_EQ(test, quic_cong_room(cong), 7200U);
	quic_cong_on_packet_acked(cong, RENO_T0 + 100000, RENO_T0, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), 3600U);
	quic_cong_on_packet_lost(cong, RENO_T0 + 100000, RENO_T0, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), 2400U);
	/* B.9: discarded packets leave the flight without a signal. */
	quic_cong_on_packet_discarded(cong, RENO_PKT);
	quic_cong_on_packet_discarded(cong, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), 0U);
	/* More removed than sent: the count stays at 0. */
	quic_cong_on_packet_discarded(cong, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), 0U);
}

/*
 * RFC 9000 Section 9.4: "packets sent on the old path MUST NOT contribute
 * to congestion control or RTT estimation for the new path". Three
 * packets leave on the old path, the path changes (quic_cong_reset()),
 * and their acknowledgment, loss or ECN-CE report only takes them out of
 * flight; a loss of a packet sent on the new path is a congestion event.
 */
static void reno_old_path_packets_do_not_feed_the_new_path(struct kunit *test)
{
	struct quic_cong *cong = reno_new(test, true);
	u64 now = RENO_T0 + 500000;
	u32 window;
	int i;

	for (i = 0; i < 3; i++)
		quic_cong_on_packet_sent(cong, RENO_T0, RENO_PKT);
	quic_cong_reset(cong, RENO_T0 + 1000);
	window = quic_cong_window(cong);

	quic_cong_rtt_update(cong, now, RENO_T0, 0);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 333000U);
	quic_cong_on_packet_acked(cong, now, RENO_T0, RENO_PKT);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), window);
	quic_cong_on_packet_lost(cong, now, RENO_T0, RENO_PKT);
	quic_cong_on_ecn_ce(cong, now, RENO_T0);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), window);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), (u32)RENO_PKT);

	reno_lose(cong, now + 1000, RENO_T0 + 2000);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), window / 2);
}

static struct kunit_case reno_cases[] = {
	KUNIT_CASE_PARAM(reno_initial_and_minimum_window, reno_window_gen_params),
	KUNIT_CASE(reno_is_the_default_algorithm),
	KUNIT_CASE(reno_slow_start_grows_by_acked_bytes),
	KUNIT_CASE(reno_slow_start_ends_at_ssthresh),
	KUNIT_CASE(reno_avoidance_adds_one_mss_per_window),
	KUNIT_CASE(reno_one_reduction_per_recovery_period),
	KUNIT_CASE(reno_recovery_ends_on_later_packet_ack),
	KUNIT_CASE(reno_ecn_ce_is_a_congestion_signal),
	KUNIT_CASE(reno_persistent_congestion_collapses_window),
	KUNIT_CASE(reno_app_limited_does_not_grow),
	KUNIT_CASE(reno_min_window_floor),
	KUNIT_CASE(reno_mss_decrease_before_confirmation),
	KUNIT_CASE(reno_mss_change_after_confirmation),
	KUNIT_CASE(reno_bytes_in_flight_accounting),
	KUNIT_CASE(reno_old_path_packets_do_not_feed_the_new_path),
	{}
};

static struct kunit_suite reno_suite = {
	.name = "quic_reno",
	.test_cases = reno_cases,
};

kunit_test_suite(reno_suite);
