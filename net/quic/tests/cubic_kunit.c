// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_cubic: CUBIC (RFC 9438 Section 4) in integer arithmetic:
 * the cube root, K and W_cubic(t) against the Section 4.2 formulas, the
 * multiplicative decrease, fast convergence, the Reno-friendly region,
 * recovery, persistent congestion and application-limited periods.
 *
 * Units: windows in bytes, times in microseconds, mss 1200 bytes,
 * C = 0.4, beta = 0.7, alpha = 3 * (1 - beta) / (1 + beta) = 9/17. In bytes
 * and seconds, W_cubic(t) = 0.4 * 1200 * (t - K)^3 + W_max = 480 * (t - K)^3
 * + W_max and K = cbrt((W_max - cwnd_epoch) / 480).
 *
 * Precision (docs/cong.md): K is floor(10^4 * K) * 100 us, at most 100 us
 * below the real K. For a given K, W_cubic(t) is exact but for the cubic
 * term truncated toward zero (less than 1 byte). Where the real K is not a
 * multiple of 100 us, W_cubic(t) may differ from the real-valued formula by
 * at most |dW/dK| * 100 us + 1 = 3 * 480 * (t - K)^2 * 10^-4 + 1 bytes.
 */

#include <kunit/test.h>

#include "../cong.h"

#define CUBIC_T0	(1000ULL * 1000 * 1000)
#define CUBIC_PKT	1200
#define CUBIC_SEC	1000000ULL

struct cubic_root_vector {
	const char *desc;
	u64 x;
	u32 root;
};

static const struct cubic_root_vector cubic_root_vectors[] = {
	{ "cbrt 0", 0, 0 },
	{ "cbrt 1", 1, 1 },
	{ "cbrt 7 = 1.91", 7, 1 },
	{ "cbrt 8", 8, 2 },
	{ "cbrt 26 = 2.96", 26, 2 },
	{ "cbrt 27", 27, 3 },
	{ "cbrt 125 * 10^12 = 50000", 125000000000000ULL, 50000 },
	{ "cbrt (10^18 - 1) = 999999.99", 999999999999999999ULL, 999999 },
	{ "cbrt 10^18", 1000000000000000000ULL, 1000000 },
	/* 2642245^3 = 18446724184312856125 <= 2^64 - 1 < 2642246^3 */
	{ "cbrt (2^64 - 1) = 2642245.95", U64_MAX, 2642245 },
};

KUNIT_ARRAY_PARAM_DESC(cubic_root, cubic_root_vectors, desc);

static void cubic_root_is_exact_floor(struct kunit *test)
{
	const struct cubic_root_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, quic_cubic_root(v->x), v->root);
}

struct cubic_k_vector {
	const char *desc;
	u32 w_max;
	u32 cwnd_epoch;
	u32 mss;
	u32 k;
};

static const struct cubic_k_vector cubic_k_vectors[] = {
	/* cbrt((240000 - 180000) / 480) = cbrt(125) = 5 s exactly */
	{ "RFC 9438 4.2 K = cbrt(125) = 5 s", 240000, 180000, 1200, 5000000 },
	/* cbrt((345600 - 241920) / 480) = cbrt(216) = 6 s exactly */
	{ "RFC 9438 4.2 K = cbrt(216) = 6 s", 345600, 241920, 1200, 6000000 },
	/* cbrt((120000 - 84000) / 480) = cbrt(75) = 4.2171633 s -> 4.2171 s */
	{ "RFC 9438 4.2 K = cbrt(75) = 4.21716 s", 120000, 84000, 1200, 4217100 },
	/* mss 1500: cbrt(45000 / 600) = cbrt(75) again */
	{ "RFC 9438 4.2 K with mss 1500", 150000, 105000, 1500, 4217100 },
	/* cbrt((240000 - 168000) / 480) = cbrt(150) = 5.3132928 s -> 5.3132 s */
	{ "RFC 9438 4.2 K = cbrt(150) = 5.31329 s", 240000, 168000, 1200, 5313200 },
	/* cbrt(6 * 10^8 / 480) = cbrt(1.25 * 10^6) = 107.7217345 s */
	{ "RFC 9438 4.2 K = cbrt(1.25e6) = 107.72173 s", 2000000000, 1400000000, 1200,
	  107721700 },
	/* no distance to W_max: K = 0 */
	{ "RFC 9438 4.2 K = 0 at W_max", 100000, 100000, 1200, 0 },
};

KUNIT_ARRAY_PARAM_DESC(cubic_k, cubic_k_vectors, desc);

static void cubic_k_matches_rfc(struct kunit *test)
{
	const struct cubic_k_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, quic_cubic_k(v->w_max, v->cwnd_epoch, v->mss), v->k);
}

struct cubic_w_vector {
	const char *desc;
	u64 t;
	u32 window;
};

/* W_max = 240000, K = 5 s: W_cubic(t) = 480 * (t - 5)^3 + 240000, exact. */
static const struct cubic_w_vector cubic_w_vectors[] = {
	/* 480 * (-125) + 240000 = 180000 = cwnd_epoch */
	{ "RFC 9438 4.2 W_cubic(0 s)", 0, 180000 },
	/* 480 * (-64) = -30720 */
	{ "RFC 9438 4.2 W_cubic(1 s)", 1 * CUBIC_SEC, 209280 },
	/* 480 * (-15.625) = -7500 */
	{ "RFC 9438 4.2 W_cubic(2.5 s)", 5 * CUBIC_SEC / 2, 232500 },
	/* 480 * (-8) = -3840 */
	{ "RFC 9438 4.2 W_cubic(3 s)", 3 * CUBIC_SEC, 236160 },
	{ "RFC 9438 4.2 W_cubic(K) = W_max", 5 * CUBIC_SEC, 240000 },
	/* 480 * 0.125 = 60 */
	{ "RFC 9438 4.2 W_cubic(5.5 s)", 11 * CUBIC_SEC / 2, 240060 },
	/* 480 * 8 = 3840 */
	{ "RFC 9438 4.2 W_cubic(7 s)", 7 * CUBIC_SEC, 243840 },
	/* 480 * 125 = 60000 */
	{ "RFC 9438 4.2 W_cubic(10 s)", 10 * CUBIC_SEC, 300000 },
};

KUNIT_ARRAY_PARAM_DESC(cubic_w, cubic_w_vectors, desc);

static void cubic_window_matches_rfc(struct kunit *test)
{
	const struct cubic_w_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, quic_cubic_window(240000, 5000000, CUBIC_PKT, v->t), (u64)v->window);
}

/* W_max = 120000, cwnd_epoch = 84000: real K = cbrt(75) = 4.2171633 s, the
 * integer K = 4.2171 s. Expected: 480 * (t - 4.2171633)^3 + 120000 with
 * the real K, rounded. Tolerance: the largest |t - K| here is 4.217 s, so
 * 3 * 480 * 4.217^2 * 10^-4 + 1 = 3.56: 4 bytes.
 */
#define CUBIC_W_TOLERANCE	4

static const struct cubic_w_vector cubic_w_inexact_vectors[] = {
	/* 480 * (-4.2171633)^3 = -36000.0 */
	{ "RFC 9438 4.2 W_cubic(0 s), K = cbrt(75)", 0, 84000 },
	/* 480 * (-3.2171633)^3 = -15983.08 */
	{ "RFC 9438 4.2 W_cubic(1 s), K = cbrt(75)", 1 * CUBIC_SEC, 104017 },
	/* 480 * (-2.2171633)^3 = -5231.60 */
	{ "RFC 9438 4.2 W_cubic(2 s), K = cbrt(75)", 2 * CUBIC_SEC, 114768 },
	/* 480 * (-0.2171633)^3 = -4.92 */
	{ "RFC 9438 4.2 W_cubic(4 s), K = cbrt(75)", 4 * CUBIC_SEC, 119995 },
	/* 480 * 1.7828367^3 = 2720.04 */
	{ "RFC 9438 4.2 W_cubic(6 s), K = cbrt(75)", 6 * CUBIC_SEC, 122720 },
	/* 480 * 3.7828367^3 = 25983.28 */
	{ "RFC 9438 4.2 W_cubic(8 s), K = cbrt(75)", 8 * CUBIC_SEC, 145983 },
};

KUNIT_ARRAY_PARAM_DESC(cubic_w_inexact, cubic_w_inexact_vectors, desc);

static void cubic_window_within_rounding_tolerance(struct kunit *test)
{
	const struct cubic_w_vector *v = test->param_value;
	u32 k = quic_cubic_k(120000, 84000, CUBIC_PKT);
	u64 w;

	KUNIT_ASSERT_EQ(test, k, 4217100U);
	w = quic_cubic_window(120000, k, CUBIC_PKT, v->t);
	KUNIT_EXPECT_LE(test, w, (u64)v->window + CUBIC_W_TOLERANCE);
	KUNIT_EXPECT_GE(test, w + CUBIC_W_TOLERANCE, (u64)v->window);
}

static struct quic_cong *cubic_new(struct kunit *test)
{
	struct quic_cong *cong;

	cong = kunit_kzalloc(test, sizeof(*cong), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cong);
	quic_cong_init(cong);
	KUNIT_ASSERT_EQ(test, quic_cong_set_algo(cong, QUIC_CONG_ALG_CUBIC), 0);
	quic_cong_set_confirmed(cong);
	/* smoothed_rtt = 100 ms, the RTT in target = W_cubic(t + RTT) */
	quic_cong_rtt_update(cong, CUBIC_T0, CUBIC_T0 - 100000, 0);
	return cong;
}

/* One packet sent at @sent and acknowledged at @now. */
static void cubic_ack(struct quic_cong *cong, u64 now, u64 sent)
{
	quic_cong_on_packet_sent(cong, sent, CUBIC_PKT);
	quic_cong_on_packet_acked(cong, now, sent, CUBIC_PKT);
}

static void cubic_lose(struct quic_cong *cong, u64 now, u64 sent)
{
	quic_cong_on_packet_sent(cong, sent, CUBIC_PKT);
	quic_cong_on_packet_lost(cong, now, sent, CUBIC_PKT);
}

/* Slow start up to @window (a multiple of 1200 above 12000), then a loss
 * at T1 = CUBIC_T0 + 1 s of a packet sent at T1 - 1.
 */
static struct quic_cong *cubic_after_loss(struct kunit *test, u32 window)
{
	struct quic_cong *cong = cubic_new(test);

	while (quic_cong_window(cong) < window)
		cubic_ack(cong, CUBIC_T0 + 1000, CUBIC_T0);
	KUNIT_ASSERT_EQ(test, quic_cong_window(cong), window);
	cubic_lose(cong, CUBIC_T0 + CUBIC_SEC, CUBIC_T0 + CUBIC_SEC - 1);
	return cong;
}

#define CUBIC_T1	(CUBIC_T0 + CUBIC_SEC)
#define CUBIC_E		(CUBIC_T1 + CUBIC_SEC)	/* first ack after recovery */

static void cubic_decrease_by_beta(struct kunit *test)
{
	struct quic_cong *cong = cubic_after_loss(test, 345600);

	/* Section 4.6: cwnd_prior = W_max = cwnd = 345600 (no fast
	 * convergence: cwnd is not below the initial W_max of 0);
	 * ssthresh = cwnd = 345600 * 0.7 = 241920.
	 */
	KUNIT_EXPECT_EQ(test, cong->cubic.w_max, 345600U);
	KUNIT_EXPECT_EQ(test, cong->cubic.cwnd_prior, 345600U);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 241920U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 241920U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_RECOVERY);
}

static void cubic_epoch_follows_cubic_function(struct kunit *test)
{
	struct quic_cong *cong = cubic_after_loss(test, 345600);

	/* First ack of a packet sent after T1: recovery ends, the epoch starts
	 * with cwnd_epoch = 241920 and K = cbrt((345600 - 241920) / 480) = 6 s.
	 * At t = 0, W_cubic(0) = 241920 while W_est = 241920 + 9/17 * 1200 *
	 * 1200 / 241920 = 241923.15 -> 241923: Reno-friendly, cwnd = 241923.
	 */
	cubic_ack(cong, CUBIC_E, CUBIC_T1 + 1);
	KUNIT_EXPECT_EQ(test, cong->cubic.k, 6000000U);
	KUNIT_EXPECT_EQ(test, cong->cubic.cwnd_epoch, 241920U);
	KUNIT_EXPECT_EQ(test, cong->cubic.w_est, 241923U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 241923U);

	/* t = 2 s: W_cubic(2) = 345600 - 480 * 4^3 = 314880 > W_est =
	 * 241923.15 + 3.15 = 241926: concave region. target = W_cubic(2.1) =
	 * 345600 - 480 * 3.9^3 = 317126.88 (317127 with the cubic term
	 * truncated), inside [cwnd, 1.5 * cwnd]. cwnd += (target - cwnd) *
	 * 1200 / cwnd = 75204 * 1200 / 241923 = 373.03 -> 373: 242296.
	 */
	cubic_ack(cong, CUBIC_E + 2 * CUBIC_SEC, CUBIC_T1 + 2);
	KUNIT_EXPECT_EQ(test, cong->cubic.w_est, 241926U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 242296U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_AVOIDANCE);
}

static void cubic_reno_friendly_region_follows_w_est(struct kunit *test)
{
	struct quic_cong *cong = cubic_after_loss(test, 345600);
	u32 i;

	/* All acks at t = 0, where W_cubic(0) = cwnd_epoch = 241920 stays
	 * below W_est: every ack sets cwnd = W_est (Section 4.3).
	 */
	for (i = 0; i < 202; i++) {
		cubic_ack(cong, CUBIC_E, CUBIC_T1 + 1 + i);
		KUNIT_ASSERT_EQ(test, quic_cong_window(cong), cong->cubic.w_est);
	}
	/* W_est += 9/17 * 1200 * 1200 / cwnd per ack: 202 acks (about one
	 * window) add about alpha * mss = 635.3 bytes; iterating the real
	 * recursion from 241920 gives 242555.72, the integer one keeps the
	 * remainder and ends on its floor, 242555.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 242555U);
}

static void cubic_reno_friendly_alpha_becomes_one(struct kunit *test)
{
	struct quic_cong *cong = cubic_after_loss(test, 43200);
	u32 i, start;

	/* W_max = cwnd_prior = 43200, cwnd_epoch = 30240, K = cbrt(27) = 3 s.
	 * At t = 0 with alpha = 9/17, W_est reaches cwnd_prior after n acks
	 * with (43200^2 - 30240^2) / (2 * 9/17 * 1200^2) = 624.2: the 625th.
	 */
	for (i = 0; i < 624; i++)
		cubic_ack(cong, CUBIC_E, CUBIC_T1 + 1 + i);
	KUNIT_EXPECT_EQ(test, cong->cubic.k, 3000000U);
	KUNIT_EXPECT_LT(test, cong->cubic.w_est, 43200U);
	cubic_ack(cong, CUBIC_E, CUBIC_T1 + 625);
	KUNIT_EXPECT_GE(test, cong->cubic.w_est, 43200U);
	start = quic_cong_window(cong);
	KUNIT_EXPECT_EQ(test, start, 43216U);

	/* Then alpha = 1 (Section 4.3), Reno's rate: 36 acks (43200 bytes,
	 * about one window) add 1200 * 1200 / cwnd each: 1183.79 bytes from
	 * 43216 by the real recursion, 1184 with the integer remainder.
	 */
	for (i = 0; i < 36; i++)
		cubic_ack(cong, CUBIC_E, CUBIC_T1 + 626 + i);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong) - start, 1184U);
}

static void cubic_fast_convergence_lowers_w_max(struct kunit *test)
{
	struct quic_cong *cong = cubic_after_loss(test, 345600);

	/* A new loss (packet sent after T1) with cwnd = 241920 < W_max =
	 * 345600 (Section 4.7): W_max = 241920 * (1 + 0.7) / 2 = 205632;
	 * cwnd_prior = 241920; ssthresh = cwnd = 241920 * 0.7 = 169344.
	 */
	cubic_lose(cong, CUBIC_E, CUBIC_T1 + 1);
	KUNIT_EXPECT_EQ(test, cong->cubic.w_max, 205632U);
	KUNIT_EXPECT_EQ(test, cong->cubic.cwnd_prior, 241920U);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 169344U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 169344U);

	/* The next epoch: K = cbrt((205632 - 169344) / 480) = cbrt(75.6) =
	 * 4.2283792 s -> 4.2283 s.
	 */
	cubic_ack(cong, CUBIC_E + CUBIC_SEC, CUBIC_E + 1);
	KUNIT_EXPECT_EQ(test, cong->cubic.k, 4228300U);
}

static void cubic_one_reduction_per_recovery_period(struct kunit *test)
{
	struct quic_cong *cong = cubic_after_loss(test, 345600);

	/* Inside the period begun at T1, losses and ECN-CE of packets sent
	 * up to T1 change nothing and their acks do not grow the window.
	 */
	cubic_lose(cong, CUBIC_T1 + 10, CUBIC_T0 + 5);
	cubic_lose(cong, CUBIC_T1 + 20, CUBIC_T1);
	quic_cong_on_ecn_ce(cong, CUBIC_T1 + 30, CUBIC_T1 - 2);
	cubic_ack(cong, CUBIC_T1 + 40, CUBIC_T0 + 6);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 241920U);
	KUNIT_EXPECT_EQ(test, cong->cubic.w_max, 345600U);
	KUNIT_EXPECT_FALSE(test, cong->cubic.epoch_valid);

	/* ECN-CE for a packet sent after T1 is a new event, with fast
	 * convergence: W_max = 205632, cwnd = 169344 (as by a loss).
	 */
	quic_cong_on_ecn_ce(cong, CUBIC_E, CUBIC_T1 + 1);
	KUNIT_EXPECT_EQ(test, cong->cubic.w_max, 205632U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 169344U);
}

static void cubic_minimum_window_floor(struct kunit *test)
{
	struct quic_cong *cong = cubic_new(test);
	static const u32 windows[] = { 8400, 5880, 4116, 2881, 2400, 2400 };
	u64 t = CUBIC_T1;
	u32 i;

	/* Losses in successive periods from 12000: cwnd * 0.7 truncated,
	 * 8400, 5880, 4116, 2881.2, then max(2016.7, 2 * 1200) = 2400
	 * (Section 4.6: ssthresh is at least 2 segments).
	 */
	for (i = 0; i < ARRAY_SIZE(windows); i++) {
		cubic_lose(cong, t + 100, t);
		KUNIT_EXPECT_EQ(test, quic_cong_window(cong), windows[i]);
		KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), windows[i]);
		t += 200;
	}
}

static void cubic_persistent_congestion_restarts_with_k_zero(struct kunit *test)
{
	struct quic_cong *cong = cubic_after_loss(test, 345600);
	u64 f = CUBIC_E + 10 * CUBIC_SEC;
	u32 i;

	/* RFC 9002 Section 7.6.2: minimum window, ssthresh stays 241920. */
	quic_cong_on_persistent_congestion(cong, CUBIC_E);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 2400U);
	KUNIT_EXPECT_EQ(test, quic_cong_ssthresh(cong), 241920U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_SLOW_START);

	/* Slow start: 2400 + 200 * 1200 = 242400 >= 241920. */
	for (i = 0; i < 200; i++)
		cubic_ack(cong, CUBIC_E + 1000, CUBIC_E + 1 + i);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 242400U);
	KUNIT_EXPECT_EQ(test, quic_cong_state(cong), (u8)QUIC_CONG_AVOIDANCE);

	/* Section 4.8: the first epoch after the timeout has K = 0 and
	 * W_max = cwnd_epoch = 242400, W_est = 242400. At t = 0: W_est =
	 * 242400 + 9/17 * 1200^2 / 242400 = 242403.1 -> 242403 = cwnd.
	 */
	cubic_ack(cong, f, CUBIC_E + 300);
	KUNIT_EXPECT_EQ(test, cong->cubic.k, 0U);
	KUNIT_EXPECT_EQ(test, cong->cubic.w_max, 242400U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 242403U);

	/* Convex from the start: W_cubic(2) = 242400 + 480 * 8 = 246240 >
	 * W_est; target = W_cubic(2.1) = 242400 + 480 * 9.261 = 246845.28;
	 * cwnd += (246845 - 242403) * 1200 / 242403 = 21.99 -> 21: 242424.
	 */
	cubic_ack(cong, f + 2 * CUBIC_SEC, CUBIC_E + 301);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 242424U);
}

static void cubic_app_limited_time_is_excluded(struct kunit *test)
{
	struct quic_cong *cong = cubic_after_loss(test, 345600);

	/* Epoch starts at E with cwnd 241923 (see the epoch case). */
	cubic_ack(cong, CUBIC_E, CUBIC_T1 + 1);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 241923U);

	/* Application limited from E + 0.5 s to E + 1.5 s: an ack in between
	 * grows nothing (RFC 9002 Section 7.8).
	 */
	quic_cong_set_app_limited(cong, CUBIC_E + CUBIC_SEC / 2, true);
	cubic_ack(cong, CUBIC_E + CUBIC_SEC, CUBIC_T1 + 2);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 241923U);
	KUNIT_EXPECT_EQ(test, cong->cubic.w_est, 241923U);
	quic_cong_set_app_limited(cong, CUBIC_E + 3 * CUBIC_SEC / 2, false);

	/* RFC 9438 Section 4.2: t leaves that second out, so an ack at E + 3 s
	 * sees t = 2 s and lands where the epoch case did at t = 2 s: 242296.
	 */
	cubic_ack(cong, CUBIC_E + 3 * CUBIC_SEC, CUBIC_T1 + 3);
	KUNIT_EXPECT_EQ(test, quic_cong_window(cong), 242296U);
}

static struct kunit_case cubic_cases[] = {
	KUNIT_CASE_PARAM(cubic_root_is_exact_floor, cubic_root_gen_params),
	KUNIT_CASE_PARAM(cubic_k_matches_rfc, cubic_k_gen_params),
	KUNIT_CASE_PARAM(cubic_window_matches_rfc, cubic_w_gen_params),
	KUNIT_CASE_PARAM(cubic_window_within_rounding_tolerance, cubic_w_inexact_gen_params),
	KUNIT_CASE(cubic_decrease_by_beta),
	KUNIT_CASE(cubic_epoch_follows_cubic_function),
	KUNIT_CASE(cubic_reno_friendly_region_follows_w_est),
	KUNIT_CASE(cubic_reno_friendly_alpha_becomes_one),
	KUNIT_CASE(cubic_fast_convergence_lowers_w_max),
	KUNIT_CASE(cubic_one_reduction_per_recovery_period),
	KUNIT_CASE(cubic_minimum_window_floor),
	KUNIT_CASE(cubic_persistent_congestion_restarts_with_k_zero),
	KUNIT_CASE(cubic_app_limited_time_is_excluded),
	{}
};

static struct kunit_suite cubic_suite = {
	.name = "quic_cubic",
	.test_cases = cubic_cases,
};

kunit_test_suite(cubic_suite);
