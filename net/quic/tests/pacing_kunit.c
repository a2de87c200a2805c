// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_pacing: the pacer of RFC 9002 Section 7.7, with
 *
 *   rate     = N * congestion_window / smoothed_rtt		(bytes per second)
 *   interval = (smoothed_rtt * packet_size / congestion_window) / N
 *
 * and N = 1.25. Rates are truncated to a byte per second and intervals to a
 * nanosecond; the send schedule keeps nanoseconds and reports microseconds
 * rounded up.
 */

#include <kunit/test.h>

#include "../cong.h"

#define PACING_T0	(1000ULL * 1000 * 1000)

struct pacing_vector {
	const char *desc;
	u32 window;
	u32 srtt;
	u32 bytes;
	u64 rate;
	u64 gap;
};

static const struct pacing_vector pacing_vectors[] = {
	/* 1.25 * 12000 / 0.1 s = 150000 B/s; (0.1 s * 1200 / 12000) / 1.25 = 8 ms */
	{ "RFC 9002 7.7 initial window, 100 ms", 12000, 100000, 1200, 150000, 8000000 },
	/* 1.25 * 14720 / 0.333 = 55255.26 B/s; 0.333 * 1200 / 14720 / 1.25 =
	 * 21717391.30 ns
	 */
	{ "RFC 9002 7.7 initial window, 333 ms", 14720, 333000, 1200, 55255, 21717391 },
	/* 1.25 * 10^6 / 0.02 = 62.5 MB/s; 0.02 * 1200 / 10^6 / 1.25 = 19.2 us */
	{ "RFC 9002 7.7 1 MB window, 20 ms", 1000000, 20000, 1200, 62500000, 19200 },
	/* 1.25 * 2400 / 0.001 = 3 MB/s; 0.001 * 1200 / 2400 / 1.25 = 400 us */
	{ "RFC 9002 7.7 minimum window, 1 ms", 2400, 1000, 1200, 3000000, 400000 },
	/* 1.25 * 3 * 10^6 / 0.01 = 375 MB/s; 0.01 * 1200 / (3 * 10^6) / 1.25 = 3.2 us */
	{ "RFC 9002 7.7 3 MB window, 10 ms", 3000000, 10000, 1200, 375000000, 3200 },
	/* 1.25 * 7000 / 0.012345 = 708788.98 B/s;
	 * 0.012345 * 1350 / 7000 / 1.25 = 1904657.14 ns
	 */
	{ "RFC 9002 7.7 odd sizes, 12.345 ms", 7000, 12345, 1350, 708788, 1904657 },
	/* 1.25 * 10^8 / 0.00005 = 2.5 TB/s; 0.00005 * 1500 / 10^8 / 1.25 = 0.6 ns */
	{ "RFC 9002 7.7 100 MB window, 50 us", 100000000, 50, 1500, 2500000000000ULL, 0 },
};

KUNIT_ARRAY_PARAM_DESC(pacing, pacing_vectors, desc);

static void pacing_rate_and_gap_match_rfc(struct kunit *test)
{
	const struct pacing_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, quic_pacing_rate(v->window, v->srtt), v->rate);
	KUNIT_EXPECT_EQ(test, quic_pacing_gap(v->window, v->srtt, v->bytes), v->gap);
}

static struct quic_cong *pacing_new(struct kunit *test, u32 rtt)
{
	struct quic_cong *cong;

	cong = kunit_kzalloc(test, sizeof(*cong), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cong);
	quic_cong_init(cong);
	quic_cong_set_confirmed(cong);
	if (rtt)
		quic_cong_rtt_update(cong, PACING_T0, PACING_T0 - rtt, 0);
	return cong;
}

static void pacing_uses_path_window_and_rtt(struct kunit *test)
{
	struct quic_cong *cong = pacing_new(test, 100000);

	/* Window 12000, smoothed_rtt 100000: 150000 B/s, 8 ms per 1200 bytes. */
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_rate(cong), 150000ULL);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_gap(cong, 1200), 8000000ULL);

	/* A loss halves the window to 6000: 75000 B/s and 16 ms. */
	quic_cong_on_packet_sent(cong, PACING_T0, 1200);
	quic_cong_on_packet_lost(cong, PACING_T0 + 200000, PACING_T0, 1200);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_rate(cong), 75000ULL);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_gap(cong, 1200), 16000000ULL);
}

static void pacing_no_gap_before_first_rtt_sample(struct kunit *test)
{
	struct quic_cong *cong = pacing_new(test, 0);
	u32 i;

	/* No sample yet: the burst is bounded by the initial window alone
	 * (Section 7.7), and all ten packets may leave at T0.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_gap(cong, 1200), 0ULL);
	for (i = 0; i < 10; i++)
		quic_cong_on_packet_sent(cong, PACING_T0, 1200);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_time(cong), PACING_T0);
	KUNIT_EXPECT_EQ(test, quic_cong_room(cong), 0U);
}

static void pacing_spaces_packets_by_gap(struct kunit *test)
{
	struct quic_cong *cong = pacing_new(test, 100000);

	/* 8 ms per 1200-byte packet: the next one may go at T0 + 8000 us. */
	quic_cong_on_packet_sent(cong, PACING_T0, 1200);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_time(cong), PACING_T0 + 8000);
	/* One sent early anyway queues behind it: T0 + 16000. */
	quic_cong_on_packet_sent(cong, PACING_T0, 1200);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_time(cong), PACING_T0 + 16000);
	/* One sent on time: T0 + 16000 + 8000. A 600-byte one adds 4 ms. */
	quic_cong_on_packet_sent(cong, PACING_T0 + 16000, 1200);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_time(cong), PACING_T0 + 24000);
	quic_cong_on_packet_sent(cong, PACING_T0 + 24000, 600);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_time(cong), PACING_T0 + 28000);
}

static void pacing_idle_sender_gets_no_burst_credit(struct kunit *test)
{
	struct quic_cong *cong = pacing_new(test, 100000);

	quic_cong_on_packet_sent(cong, PACING_T0, 1200);
	/* Idle for a second: the schedule restarts from the send time, it
	 * does not let a burst out to catch up.
	 */
	quic_cong_on_packet_sent(cong, PACING_T0 + 1000000, 1200);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_time(cong), PACING_T0 + 1008000);
}

static void pacing_keeps_nanosecond_precision(struct kunit *test)
{
	struct quic_cong *cong = pacing_new(test, 1);
	u32 i;

	/* smoothed_rtt 1 us, window 12000: (1000 ns * 1200 / 12000) / 1.25 =
	 * 80 ns per packet. Ten packets: 800 ns, reported as 1 us (rounded
	 * up); thirteen: 1040 ns, reported as 2 us. Nothing is lost to
	 * rounding each packet to the microsecond.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_gap(cong, 1200), 80ULL);
	for (i = 0; i < 10; i++)
		quic_cong_on_packet_sent(cong, PACING_T0, 1200);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_time(cong), PACING_T0 + 1);
	for (i = 0; i < 3; i++)
		quic_cong_on_packet_sent(cong, PACING_T0, 1200);
	KUNIT_EXPECT_EQ(test, quic_cong_pacing_time(cong), PACING_T0 + 2);
}

static struct kunit_case pacing_cases[] = {
	KUNIT_CASE_PARAM(pacing_rate_and_gap_match_rfc, pacing_gen_params),
	KUNIT_CASE(pacing_uses_path_window_and_rtt),
	KUNIT_CASE(pacing_no_gap_before_first_rtt_sample),
	KUNIT_CASE(pacing_spaces_packets_by_gap),
	KUNIT_CASE(pacing_idle_sender_gets_no_burst_credit),
	KUNIT_CASE(pacing_keeps_nanosecond_precision),
	{}
};

static struct kunit_suite pacing_suite = {
	.name = "quic_pacing",
	.test_cases = pacing_cases,
};

kunit_test_suite(pacing_suite);
