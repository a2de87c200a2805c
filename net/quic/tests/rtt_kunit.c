// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_rtt: RTT estimation (RFC 9002 Section 5) and the inputs
 * of the loss detection timers (Section 6, Section 7.6): PTO with backoff,
 * time and packet thresholds, persistent congestion duration.
 *
 * All times are microseconds. Every expected value is worked out in the
 * comment next to it from the RFC formulas, with integer truncation where
 * the implementation truncates.
 */

#include <kunit/test.h>

#include "../cong.h"

/* Any start time works; a large one shows nothing depends on time 0. */
#define RTT_T0		(1000ULL * 1000 * 1000)

static struct quic_cong *rtt_new(struct kunit *test, bool confirmed)
{
	struct quic_cong *cong;

	cong = kunit_kzalloc(test, sizeof(*cong), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cong);
	quic_cong_init(cong);
	if (confirmed)
		quic_cong_set_confirmed(cong);
	return cong;
}

/* An RTT sample of @latest with @ack_delay, the ACK received at @now. */
static void rtt_sample(struct quic_cong *cong, u64 now, u32 latest, u64 ack_delay)
{
	quic_cong_rtt_update(cong, now, now - latest, ack_delay);
}

static void rtt_initial_estimate_is_333ms(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, false);

	/* RFC 9002 Section 6.2.2 and A.4: smoothed_rtt = kInitialRtt = 333 ms,
	 * rttvar = kInitialRtt / 2 = 166500 us, latest_rtt = min_rtt = 0.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 333000U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 166500U);
	KUNIT_EXPECT_EQ(test, quic_cong_latest_rtt(cong), 0U);
	KUNIT_EXPECT_EQ(test, quic_cong_min_rtt(cong), 0U);
	/* "handshakes starting with a PTO of 1 second": 333000 +
	 * max(4 * 166500, 1000) = 999000 us in the Initial space.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_pto(cong, QUIC_CRYPTO_INITIAL), 999000ULL);
}

static void rtt_first_sample_resets_estimator(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);

	/* Section 5.3: the first sample sets smoothed_rtt = latest_rtt and
	 * rttvar = latest_rtt / 2; Section 5.2: min_rtt = latest_rtt. The
	 * 20 ms ack_delay plays no part in the first sample.
	 */
	rtt_sample(cong, RTT_T0, 100000, 20000);
	KUNIT_EXPECT_EQ(test, quic_cong_latest_rtt(cong), 100000U);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 100000U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 50000U);
	KUNIT_EXPECT_EQ(test, quic_cong_min_rtt(cong), 100000U);
}

struct rtt_step {
	const char *desc;
	u32 latest;
	u32 ack_delay;
	u32 smoothed;
	u32 rttvar;
	u32 min_rtt;
};

/*
 * One sequence through the Section 5.3 update, handshake confirmed,
 * max_ack_delay = 25000 (the RFC 9000 default). Each step is checked after
 * replaying every step before it. rttvar uses the previous smoothed_rtt,
 * as Appendix A.7 UpdateRtt() and RFC 6298 do:
 *
 *   adjusted = latest - ack_delay if latest >= min_rtt + ack_delay
 *   rttvar   = (3 * rttvar + |smoothed - adjusted|) / 4	(truncated)
 *   smoothed = (7 * smoothed + adjusted) / 8			(truncated)
 */
static const struct rtt_step rtt_steps[] = {
	/* first sample: smoothed = 100000, rttvar = 100000 / 2 = 50000 */
	{ "RFC 9002 5.3 first sample", 100000, 0, 100000, 50000, 100000 },
	/* 120000 >= 100000 + 10000, adjusted = 110000;
	 * rttvar = (3 * 50000 + |100000 - 110000|) / 4 = 160000 / 4 = 40000
	 * (using the new smoothed_rtt instead would give 39687);
	 * smoothed = (7 * 100000 + 110000) / 8 = 810000 / 8 = 101250
	 */
	{ "RFC 9002 5.3 ack_delay subtracted", 120000, 10000, 101250, 40000, 100000 },
	/* min_rtt = min(100000, 90000) = 90000; 90000 < 90000 + 5000 so
	 * adjusted = 90000; rttvar = (3 * 40000 + 11250) / 4 = 32812.5 -> 32812;
	 * smoothed = (7 * 101250 + 90000) / 8 = 99843.75 -> 99843
	 */
	{ "RFC 9002 5.3 ack_delay kept above min_rtt", 90000, 5000, 99843, 32812, 90000 },
	/* ack_delay = min(40000, 25000) = 25000; 150000 >= 90000 + 25000 so
	 * adjusted = 125000; rttvar = (3 * 32812 + |99843 - 125000|) / 4 =
	 * (98436 + 25157) / 4 = 30898.25 -> 30898;
	 * smoothed = (7 * 99843 + 125000) / 8 = 102987.625 -> 102987
	 */
	{ "RFC 9002 5.3 ack_delay capped by max_ack_delay", 150000, 40000, 102987, 30898, 90000 },
};

KUNIT_ARRAY_PARAM_DESC(rtt_steps, rtt_steps, desc);

static void rtt_smoothing_follows_rfc_formulas(struct kunit *test)
{
	const struct rtt_step *want = test->param_value;
	struct quic_cong *cong = rtt_new(test, true);
	const struct rtt_step *s;
	u64 now = RTT_T0;

	for (s = rtt_steps; s <= want; s++) {
		now += 1000000;
		rtt_sample(cong, now, s->latest, s->ack_delay);
	}
	KUNIT_EXPECT_EQ(test, quic_cong_latest_rtt(cong), want->latest);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), want->smoothed);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), want->rttvar);
	KUNIT_EXPECT_EQ(test, quic_cong_min_rtt(cong), want->min_rtt);
}

static void rtt_ack_delay_uncapped_before_confirmation(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, false);

	/* Section 5.3: max_ack_delay (25000) is ignored until the handshake is
	 * confirmed. 200000 >= 100000 + 60000, adjusted = 140000;
	 * rttvar = (3 * 50000 + 40000) / 4 = 47500;
	 * smoothed = (7 * 100000 + 140000) / 8 = 105000.
	 */
	rtt_sample(cong, RTT_T0, 100000, 0);
	rtt_sample(cong, RTT_T0 + 1000000, 200000, 60000);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 105000U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 47500U);
}

static void rtt_ack_delay_capped_after_confirmation(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, false);

	/* The same two samples once confirmed: ack_delay = min(60000, 25000),
	 * adjusted = 175000; rttvar = (150000 + 75000) / 4 = 56250;
	 * smoothed = (700000 + 175000) / 8 = 109375.
	 */
	rtt_sample(cong, RTT_T0, 100000, 0);
	quic_cong_set_confirmed(cong);
	rtt_sample(cong, RTT_T0 + 1000000, 200000, 60000);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 109375U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 56250U);
}

static void rtt_max_ack_delay_follows_transport_parameter(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);

	/* max_ack_delay = 5000: ack_delay = min(60000, 5000), adjusted =
	 * 195000; rttvar = (150000 + 95000) / 4 = 61250;
	 * smoothed = (700000 + 195000) / 8 = 111875.
	 */
	quic_cong_set_max_ack_delay(cong, 5000);
	rtt_sample(cong, RTT_T0, 100000, 0);
	rtt_sample(cong, RTT_T0 + 1000000, 200000, 60000);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 111875U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 61250U);
}

static void rtt_min_rtt_never_includes_ack_delay(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, false);

	/* Section 5.2: min_rtt = min(100000, 80000) = 80000, not 80000 -
	 * 30000. Since 80000 < 80000 + 30000 the delay is not subtracted from
	 * the sample either: rttvar = (150000 + 20000) / 4 = 42500,
	 * smoothed = (700000 + 80000) / 8 = 97500.
	 */
	rtt_sample(cong, RTT_T0, 100000, 0);
	rtt_sample(cong, RTT_T0 + 1000000, 80000, 30000);
	KUNIT_EXPECT_EQ(test, quic_cong_min_rtt(cong), 80000U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 42500U);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 97500U);

	/* A larger sample leaves min_rtt alone: rttvar = (3 * 42500 +
	 * |97500 - 200000|) / 4 = 57500, smoothed = (682500 + 200000) / 8 =
	 * 110312.5 -> 110312.
	 */
	rtt_sample(cong, RTT_T0 + 2000000, 200000, 0);
	KUNIT_EXPECT_EQ(test, quic_cong_min_rtt(cong), 80000U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 57500U);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 110312U);
}

static void rtt_sample_before_send_time_is_ignored(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);

	rtt_sample(cong, RTT_T0, 100000, 0);
	/* An ACK "received" before the packet was sent is no sample. */
	quic_cong_rtt_update(cong, RTT_T0 + 10, RTT_T0 + 20, 0);
	KUNIT_EXPECT_EQ(test, quic_cong_latest_rtt(cong), 100000U);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 100000U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 50000U);
}

static void rtt_reset_returns_to_initial_rtt(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);

	rtt_sample(cong, RTT_T0, 100000, 0);
	quic_cong_reset(cong, RTT_T0 + 100000);
	/* Section 5.3: a reset estimator starts from kInitialRtt again and
	 * the next sample is treated as the first one.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 333000U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 166500U);
	rtt_sample(cong, RTT_T0 + 1000000, 40000, 0);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 40000U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 20000U);
	KUNIT_EXPECT_EQ(test, quic_cong_min_rtt(cong), 40000U);
}

static void rtt_config_sets_initial_rtt(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, false);
	struct quic_config config = {};

	/* initial_smoothed_rtt = 100 ms: smoothed 100000, rttvar 50000, PTO
	 * (Initial space) = 100000 + max(200000, 1000) = 300000.
	 */
	config.initial_smoothed_rtt = 100000;
	KUNIT_ASSERT_EQ(test, quic_cong_set_config(cong, &config), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 100000U);
	KUNIT_EXPECT_EQ(test, quic_cong_rttvar(cong), 50000U);
	KUNIT_EXPECT_EQ(test, quic_cong_pto(cong, QUIC_CRYPTO_INITIAL), 300000ULL);

	/* 0 selects the default 333 ms again. */
	config.initial_smoothed_rtt = 0;
	KUNIT_ASSERT_EQ(test, quic_cong_set_config(cong, &config), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 333000U);
}

static void rtt_config_rejects_out_of_range(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, false);
	struct quic_config config = {};

	/* Below kGranularity, above 60 s, or an unknown algorithm: refused,
	 * and nothing changes.
	 */
	config.initial_smoothed_rtt = QUIC_RTT_MIN - 1;
	KUNIT_EXPECT_EQ(test, quic_cong_set_config(cong, &config), -EINVAL);
	config.initial_smoothed_rtt = QUIC_RTT_MAX + 1;
	KUNIT_EXPECT_EQ(test, quic_cong_set_config(cong, &config), -EINVAL);
	config.initial_smoothed_rtt = 0;
	config.congestion_control_algo = QUIC_CONG_ALG_MAX;
	KUNIT_EXPECT_EQ(test, quic_cong_set_config(cong, &config), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 333000U);
	KUNIT_EXPECT_EQ(test, quic_cong_algo(cong), (u8)QUIC_CONG_ALG_RENO);

	/* The bounds themselves are accepted. */
	config.congestion_control_algo = QUIC_CONG_ALG_RENO;
	config.initial_smoothed_rtt = QUIC_RTT_MIN;
	KUNIT_EXPECT_EQ(test, quic_cong_set_config(cong, &config), 0);
	config.initial_smoothed_rtt = QUIC_RTT_MAX;
	KUNIT_EXPECT_EQ(test, quic_cong_set_config(cong, &config), 0);
}

struct rtt_pto_vector {
	const char *desc;
	u8 level;
	u32 backoff;
	u64 pto;
};

/*
 * After one sample of 100000 (smoothed 100000, rttvar 50000) with the
 * default max_ack_delay 25000, Section 6.2.1 and A.8:
 *   Initial/Handshake: (100000 + max(4 * 50000, 1000)) * 2^n = 300000 * 2^n
 *   Application Data:  (300000 + 25000) * 2^n = 325000 * 2^n
 */
static const struct rtt_pto_vector rtt_pto_vectors[] = {
	{ "RFC 9002 6.2.1 Initial, no backoff", QUIC_CRYPTO_INITIAL, 0, 300000 },
	{ "RFC 9002 6.2.1 Handshake, no backoff", QUIC_CRYPTO_HANDSHAKE, 0, 300000 },
	{ "RFC 9002 6.2.1 1-RTT adds max_ack_delay", QUIC_CRYPTO_APP, 0, 325000 },
	{ "RFC 9002 6.2.1 0-RTT shares the 1-RTT space", QUIC_CRYPTO_EARLY, 0, 325000 },
	{ "RFC 9002 6.2.1 Initial, backoff 1", QUIC_CRYPTO_INITIAL, 1, 600000 },
	{ "RFC 9002 6.2.1 1-RTT, backoff 1", QUIC_CRYPTO_APP, 1, 650000 },
	{ "RFC 9002 6.2.1 Handshake, backoff 3", QUIC_CRYPTO_HANDSHAKE, 3, 2400000 },
	{ "RFC 9002 6.2.1 1-RTT, backoff 3", QUIC_CRYPTO_APP, 3, 2600000 },
};

KUNIT_ARRAY_PARAM_DESC(rtt_pto, rtt_pto_vectors, desc);

static void rtt_pto_with_backoff(struct kunit *test)
{
	const struct rtt_pto_vector *v = test->param_value;
	struct quic_cong *cong = rtt_new(test, true);
	u32 i;

	rtt_sample(cong, RTT_T0, 100000, 0);
	for (i = 0; i < v->backoff; i++)
		quic_cong_pto_backoff(cong);
	KUNIT_EXPECT_EQ(test, quic_cong_pto_count(cong), v->backoff);
	KUNIT_EXPECT_EQ(test, quic_cong_pto(cong, v->level), v->pto);
}

static void rtt_pto_reset_drops_backoff(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);

	rtt_sample(cong, RTT_T0, 100000, 0);
	quic_cong_pto_backoff(cong);
	quic_cong_pto_backoff(cong);
	KUNIT_EXPECT_EQ(test, quic_cong_pto(cong, QUIC_CRYPTO_INITIAL), 1200000ULL);
	quic_cong_pto_reset(cong);
	KUNIT_EXPECT_EQ(test, quic_cong_pto(cong, QUIC_CRYPTO_INITIAL), 300000ULL);
}

static void rtt_pto_backoff_saturates(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);
	u32 i;

	rtt_sample(cong, RTT_T0, 100000, 0);
	for (i = 0; i < QUIC_PTO_BACKOFF_MAX + 10; i++)
		quic_cong_pto_backoff(cong);
	/* The exponent stops at QUIC_PTO_BACKOFF_MAX: 300000 << 30. */
	KUNIT_EXPECT_EQ(test, quic_cong_pto_count(cong), (u32)QUIC_PTO_BACKOFF_MAX);
	KUNIT_EXPECT_EQ(test, quic_cong_pto(cong, QUIC_CRYPTO_INITIAL),
			300000ULL << QUIC_PTO_BACKOFF_MAX);
}

static void rtt_pto_granularity_floor(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);

	/* One 400 us sample: rttvar = 200, 4 * 200 = 800 < kGranularity, so
	 * PTO = 400 + 1000 = 1400 in the Handshake space, 1400 + 25000 in 1-RTT.
	 */
	rtt_sample(cong, RTT_T0, 400, 0);
	KUNIT_EXPECT_EQ(test, quic_cong_pto(cong, QUIC_CRYPTO_HANDSHAKE), 1400ULL);
	KUNIT_EXPECT_EQ(test, quic_cong_pto(cong, QUIC_CRYPTO_APP), 26400ULL);
}

static void rtt_loss_delay_time_threshold(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);

	/* Section 6.1.2: 9/8 * max(smoothed_rtt, latest_rtt).
	 * One sample of 100000: 9/8 * 100000 = 112500.
	 */
	rtt_sample(cong, RTT_T0, 100000, 0);
	KUNIT_EXPECT_EQ(test, quic_cong_loss_delay(cong), 112500ULL);
	/* latest 200000 > smoothed (700000 + 200000) / 8 = 112500:
	 * 9/8 * 200000 = 225000.
	 */
	rtt_sample(cong, RTT_T0 + 1000000, 200000, 0);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 112500U);
	KUNIT_EXPECT_EQ(test, quic_cong_loss_delay(cong), 225000ULL);
	/* latest 10000 < smoothed (787500 + 10000) / 8 = 99687.5 -> 99687:
	 * 9/8 * 99687 = 112147.875 -> 112147.
	 */
	rtt_sample(cong, RTT_T0 + 2000000, 10000, 0);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(cong), 99687U);
	KUNIT_EXPECT_EQ(test, quic_cong_loss_delay(cong), 112147ULL);
}

static void rtt_loss_delay_granularity_floor(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);

	/* 9/8 * 400 = 450 < kGranularity = 1000. */
	rtt_sample(cong, RTT_T0, 400, 0);
	KUNIT_EXPECT_EQ(test, quic_cong_loss_delay(cong), 1000ULL);
}

static void rtt_packet_threshold_declares_loss(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);
	u64 loss_time = 1;

	/* Section 6.1.1, kPacketThreshold = 3: with packet 10 acknowledged,
	 * packet 7 is lost whatever its send time, packet 8 is not.
	 */
	rtt_sample(cong, RTT_T0, 100000, 0);
	KUNIT_EXPECT_TRUE(test, quic_cong_is_lost(cong, RTT_T0, 7, RTT_T0, 10, &loss_time));
	KUNIT_EXPECT_FALSE(test, quic_cong_is_lost(cong, RTT_T0, 8, RTT_T0, 10, &loss_time));
	/* Not lost yet: lost at send time + 9/8 * 100000. */
	KUNIT_EXPECT_EQ(test, loss_time, RTT_T0 + 112500);
	/* Packets above the largest acknowledged are no candidates. */
	KUNIT_EXPECT_FALSE(test, quic_cong_is_lost(cong, RTT_T0, 11, 0, 10, &loss_time));
	KUNIT_EXPECT_EQ(test, loss_time, 0ULL);
}

static void rtt_time_threshold_declares_loss(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);
	u64 sent = RTT_T0 + 5000000, loss_time = 0;

	/* Section 6.1.2 with loss_delay = 112500: a packet one below the
	 * largest acknowledged is lost once 112500 us have passed since it
	 * was sent (sent_time <= now - loss_delay), not one microsecond before.
	 */
	rtt_sample(cong, RTT_T0, 100000, 0);
	KUNIT_EXPECT_FALSE(test, quic_cong_is_lost(cong, sent + 112499, 9, sent, 10, &loss_time));
	KUNIT_EXPECT_EQ(test, loss_time, sent + 112500);
	KUNIT_EXPECT_TRUE(test, quic_cong_is_lost(cong, sent + 112500, 9, sent, 10, &loss_time));
}

static void rtt_persistent_congestion_rfc_example(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);
	u64 unit, t0;

	/* Section 7.6.3: smoothed_rtt + max(4 * rttvar, kGranularity) +
	 * max_ack_delay = 2 units, threshold 3, so the duration is 6 units.
	 * One sample of 100000 gives 100000 + 200000 + 25000 = 325000 = 2
	 * units: unit = 162500 us, duration = 975000 us.
	 */
	rtt_sample(cong, RTT_T0, 100000, 0);
	unit = 162500;
	KUNIT_EXPECT_EQ(test, quic_cong_pc_duration(cong), 6 * unit);

	/* The example assumes an earlier RTT sample (Section 7.6.2): the
	 * packets go out from t0 on, after the sample at RTT_T0. Packets 2 to
	 * 8 (sent at t = 1 and t = 8) are lost: 8 - 1 = 7 > 6 units.
	 */
	t0 = RTT_T0 + 1000000;
	KUNIT_EXPECT_TRUE(test, quic_cong_is_persistent(cong, t0 + unit, t0 + 8 * unit));
	/* Exactly 6 units is not more than the duration. */
	KUNIT_EXPECT_FALSE(test, quic_cong_is_persistent(cong, t0 + unit, t0 + 7 * unit));
	KUNIT_EXPECT_TRUE(test, quic_cong_is_persistent(cong, t0 + unit, t0 + 7 * unit + 1));
}

static void rtt_persistent_congestion_needs_prior_sample(struct kunit *test)
{
	struct quic_cong *cong = rtt_new(test, true);

	/* Section 7.6.2: no RTT sample yet, no persistent congestion. */
	KUNIT_EXPECT_FALSE(test, quic_cong_is_persistent(cong, RTT_T0, RTT_T0 + 100000000));

	/* A first packet sent before (or at) the first sample does not count. */
	rtt_sample(cong, RTT_T0, 100000, 0);
	KUNIT_EXPECT_FALSE(test, quic_cong_is_persistent(cong, RTT_T0 - 1, RTT_T0 + 100000000));
	KUNIT_EXPECT_FALSE(test, quic_cong_is_persistent(cong, RTT_T0, RTT_T0 + 100000000));
	KUNIT_EXPECT_TRUE(test, quic_cong_is_persistent(cong, RTT_T0 + 1, RTT_T0 + 100000000));
}

static struct kunit_case rtt_cases[] = {
	KUNIT_CASE(rtt_initial_estimate_is_333ms),
	KUNIT_CASE(rtt_first_sample_resets_estimator),
	KUNIT_CASE_PARAM(rtt_smoothing_follows_rfc_formulas, rtt_steps_gen_params),
	KUNIT_CASE(rtt_ack_delay_uncapped_before_confirmation),
	KUNIT_CASE(rtt_ack_delay_capped_after_confirmation),
	KUNIT_CASE(rtt_max_ack_delay_follows_transport_parameter),
	KUNIT_CASE(rtt_min_rtt_never_includes_ack_delay),
	KUNIT_CASE(rtt_sample_before_send_time_is_ignored),
	KUNIT_CASE(rtt_reset_returns_to_initial_rtt),
	KUNIT_CASE(rtt_config_sets_initial_rtt),
	KUNIT_CASE(rtt_config_rejects_out_of_range),
	KUNIT_CASE_PARAM(rtt_pto_with_backoff, rtt_pto_gen_params),
	KUNIT_CASE(rtt_pto_reset_drops_backoff),
	KUNIT_CASE(rtt_pto_backoff_saturates),
	KUNIT_CASE(rtt_pto_granularity_floor),
	KUNIT_CASE(rtt_loss_delay_time_threshold),
	KUNIT_CASE(rtt_loss_delay_granularity_floor),
	KUNIT_CASE(rtt_packet_threshold_declares_loss),
	KUNIT_CASE(rtt_time_threshold_declares_loss),
	KUNIT_CASE(rtt_persistent_congestion_rfc_example),
	KUNIT_CASE(rtt_persistent_congestion_needs_prior_sample),
	{}
};

static struct kunit_suite rtt_suite = {
	.name = "quic_rtt",
	.test_cases = rtt_cases,
};

kunit_test_suite(rtt_suite);
