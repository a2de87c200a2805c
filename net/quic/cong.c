// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC RTT estimation (RFC 9002 Section 5), loss detection timing inputs
 * (Section 6), congestion control (Section 7 and Appendix B, with NewReno
 * and CUBIC per RFC 9438) and pacing (Section 7.7).
 *
 * Times are u64 microseconds given by the caller; no clock is read here.
 * All arithmetic is integer; docs/cong.md explains the scaling used.
 */

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "cong.h"

/* Common part of the PTO and the persistent congestion duration:
 * smoothed_rtt + max(4 * rttvar, kGranularity) (RFC 9002 Sections 6.2.1, 7.6.1).
 */
static u64 quic_cong_rto_base(const struct quic_cong *cong)
{
	return (u64)cong->smoothed_rtt + max_t(u64, 4ULL * cong->rttvar, QUIC_KGRANULARITY);
}

static bool quic_cong_sent_in_recovery(const struct quic_cong *cong, u64 sent_time)
{
	/* InCongestionRecovery() of RFC 9002 Appendix B.5 */
	return cong->in_recovery && sent_time <= cong->recovery_start;
}

static void quic_cong_update_state(struct quic_cong *cong)
{
	cong->state = cong->window < cong->ssthresh ? QUIC_CONG_SLOW_START : QUIC_CONG_AVOIDANCE;
}

/* NewReno (RFC 9002 Section 7.3 and Appendix B) */

static void quic_reno_init(struct quic_cong *cong)
{
	cong->reno.bytes_acked = 0;
}

static void quic_reno_on_acked(struct quic_cong *cong, u64 now, u32 bytes)
{
	struct quic_reno *reno = &cong->reno;

	if (cong->window < cong->ssthresh) {
		cong->window += bytes;
		return;
	}
	/* Congestion avoidance with byte counting (RFC 3465 Section 2.1, as
	 * Appendix B.5 suggests): one max_datagram_size per window acked, with
	 * no fraction of a byte lost to integer division.
	 */
	reno->bytes_acked += bytes;
	if (reno->bytes_acked >= cong->window) {
		reno->bytes_acked -= cong->window;
		cong->window += cong->mss;
	}
}

static void quic_reno_on_congestion(struct quic_cong *cong, u64 now)
{
	/* kLossReductionFactor = 0.5 (Appendix B.1) */
	cong->ssthresh = cong->window / 2;
	cong->window = max(cong->ssthresh, cong->min_window);
	cong->reno.bytes_acked = 0;
}

static void quic_reno_on_persistent_congestion(struct quic_cong *cong, u64 now)
{
	cong->reno.bytes_acked = 0;
}

/* CUBIC (RFC 9438 Section 4)
 *
 * Windows are in bytes and times in microseconds, so C = 0.4 segments/s^3
 * becomes 0.4 * mss bytes per (10^6 us)^3, and:
 *
 *   W_cubic(t) = W_max +/- 4 * mss * |t - K|^3 / 10^19	(bytes, t and K in us)
 *   K = cbrt((W_max - cwnd_epoch) / (0.4 * mss))		(seconds)
 *
 * K is computed in units of 100 us, as the exact integer cube root of
 * (W_max - cwnd_epoch) * 2.5 * 10^12 / mss, so it is never more than 100 us
 * below the exact value and never above it. W_cubic(t) is then exact to the
 * byte for that K (one truncating 128-bit multiply-divide).
 * beta = 0.7 is 7/10, (1 + beta) / 2 = 17/20, and
 * alpha = 3 * (1 - beta) / (1 + beta) = 9/17.
 */
#define QUIC_CUBIC_BETA_NUM		7
#define QUIC_CUBIC_BETA_DEN		10
#define QUIC_CUBIC_FC_NUM		17	/* (1 + beta) / 2 */
#define QUIC_CUBIC_FC_DEN		20
#define QUIC_CUBIC_ALPHA_NUM		9	/* 3 * (1 - beta) / (1 + beta) */
#define QUIC_CUBIC_ALPHA_DEN		17
/* 10^12 / C: K^3 in (100 us)^3 per segment of W_max - cwnd_epoch */
#define QUIC_CUBIC_K_SCALE		2500000000000ULL
#define QUIC_CUBIC_K_UNIT		100	/* microseconds per unit of K */
/* 10^18 / C * 4: W_cubic delta = 4 * mss * d^3 / 10^19 with d in us */
#define QUIC_CUBIC_W_SCALE		10000000000000000000ULL
/* |t - K| is capped at 2^28 us (about 268 s) so the product fits 128 bits
 * and the quotient 64 bits; K itself never exceeds 2.1 * 10^8 us.
 */
#define QUIC_CUBIC_MAX_OFFSET		BIT_ULL(28)

/**
 * quic_cubic_root - integer cube root
 * @x: the radicand
 *
 * Digit-by-digit method, one bit of the root per three bits of @x.
 *
 * Return: the largest r with r^3 <= @x.
 */
VISIBLE_IF_QUIC_KUNIT u32 quic_cubic_root(u64 x)
{
	u64 r = 0, b;
	int s;

	for (s = 63; s >= 0; s -= 3) {
		r <<= 1;
		/* (r + 1)^3 - r^3: what taking the next bit as 1 costs */
		b = 3 * r * (r + 1) + 1;
		if ((x >> s) >= b) {
			x -= b << s;
			r++;
		}
	}
	return r;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cubic_root);

/**
 * quic_cubic_k - K of RFC 9438 Section 4.2
 * @w_max: W_max in bytes
 * @cwnd_epoch: window at the start of congestion avoidance, bytes
 * @mss: max_datagram_size, clamped to the QUIC range
 *
 * Return: K in microseconds, floor(10^4 * K) * 100 for the exact K in
 * seconds, or 0 when @cwnd_epoch is not below @w_max.
 */
VISIBLE_IF_QUIC_KUNIT u32 quic_cubic_k(u32 w_max, u32 cwnd_epoch, u32 mss)
{
	u64 x;

	if (cwnd_epoch >= w_max)
		return 0;
	mss = clamp_t(u32, mss, QUIC_MIN_UDP_PAYLOAD, QUIC_MAX_UDP_PAYLOAD);
	/* (W_max - cwnd_epoch) / mss / C, in (100 us)^3: below 9 * 10^18 */
	x = mul_u64_u64_div_u64(w_max - cwnd_epoch, QUIC_CUBIC_K_SCALE, mss);
	return quic_cubic_root(x) * QUIC_CUBIC_K_UNIT;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cubic_k);

/**
 * quic_cubic_window - W_cubic(t) of RFC 9438 Section 4.2
 * @w_max: W_max in bytes
 * @k: K in microseconds
 * @mss: max_datagram_size, clamped to the QUIC range
 * @t: time since the start of the epoch, microseconds
 *
 * Return: C * (t - K)^3 + W_max in bytes, the cubic term truncated toward
 * zero; 0 if that would be negative. |t - K| is capped at 2^28 us.
 */
VISIBLE_IF_QUIC_KUNIT u64 quic_cubic_window(u32 w_max, u32 k, u32 mss, u64 t)
{
	u64 d, delta;

	mss = clamp_t(u32, mss, QUIC_MIN_UDP_PAYLOAD, QUIC_MAX_UDP_PAYLOAD);
	d = t < k ? k - t : t - k;
	d = min(d, QUIC_CUBIC_MAX_OFFSET);
	/* d^2 < 2^56 and 4 * mss * d < 2^46: the 128-bit product is exact */
	delta = mul_u64_u64_div_u64(d * d, d * 4 * mss, QUIC_CUBIC_W_SCALE);
	if (t >= k)
		return w_max + delta;
	return delta < w_max ? w_max - delta : 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cubic_window);

static void quic_cubic_init(struct quic_cong *cong)
{
	memset(&cong->cubic, 0, sizeof(cong->cubic));
}

static void quic_cubic_start_epoch(struct quic_cong *cong, u64 now)
{
	struct quic_cubic *cubic = &cong->cubic;

	cubic->epoch_valid = true;
	cubic->epoch_start = now;
	cubic->cwnd_epoch = cong->window;
	cubic->w_est = cong->window;
	cubic->est_rem = 0;
	cubic->cwnd_rem = 0;
	/* After persistent congestion (Section 4.8), or when the window is
	 * already past W_max, the curve starts at its plateau: K = 0 and
	 * W_max = cwnd_epoch, as for a slow start exit without loss (4.10).
	 */
	if (cubic->after_timeout || cubic->w_max <= cong->window) {
		cubic->after_timeout = false;
		cubic->w_max = cong->window;
		cubic->k = 0;
		return;
	}
	cubic->k = quic_cubic_k(cubic->w_max, cong->window, cong->mss);
}

static void quic_cubic_on_acked(struct quic_cong *cong, u64 now, u32 bytes)
{
	struct quic_cubic *cubic = &cong->cubic;
	u64 t, w_t, target, limit, num, den, inc;

	/* RFC 9438 Section 4.10: Reno's slow start below ssthresh. */
	if (cong->window < cong->ssthresh) {
		cong->window += bytes;
		return;
	}
	if (!cubic->epoch_valid)
		quic_cubic_start_epoch(cong, now);

	t = now > cubic->epoch_start ? now - cubic->epoch_start : 0;
	w_t = quic_cubic_window(cubic->w_max, cubic->k, cong->mss, t);
	/* Section 4.2: target = W_cubic(t + RTT), within [cwnd, 1.5 * cwnd] */
	target = quic_cubic_window(cubic->w_max, cubic->k, cong->mss, t + cong->smoothed_rtt);
	limit = (u64)cong->window * 3 / 2;
	target = clamp_t(u64, target, cong->window, limit);

	/* Section 4.3, W_est in bytes: W_est += alpha * mss * acked / cwnd,
	 * alpha = 9/17 until W_est reaches cwnd_prior, then 1 = 17/17. The
	 * remainder is kept in 1/(17 * cwnd) bytes for both values of alpha.
	 */
	num = QUIC_CUBIC_ALPHA_NUM;
	if (cubic->w_est >= cubic->cwnd_prior)
		num = QUIC_CUBIC_ALPHA_DEN;
	cubic->est_rem += num * cong->mss * bytes;
	den = (u64)QUIC_CUBIC_ALPHA_DEN * cong->window;
	inc = div64_u64(cubic->est_rem, den);
	cubic->est_rem -= inc * den;
	cubic->w_est = min_t(u64, (u64)cubic->w_est + inc, QUIC_MAX_WINDOW);

	if (w_t < cubic->w_est) {
		/* Reno-friendly region: follow W_est, never shrink. */
		cong->window = max(cong->window, cubic->w_est);
		return;
	}
	/* Concave and convex regions (4.4, 4.5): (target - cwnd) / cwnd per
	 * segment acked, i.e. (target - cwnd) * acked / cwnd bytes.
	 */
	cubic->cwnd_rem += (target - cong->window) * bytes;
	inc = div64_u64(cubic->cwnd_rem, cong->window);
	cubic->cwnd_rem -= inc * cong->window;
	cong->window = min_t(u64, cong->window + inc, QUIC_MAX_WINDOW);
}

static void quic_cubic_on_congestion(struct quic_cong *cong, u64 now)
{
	struct quic_cubic *cubic = &cong->cubic;
	u64 cwnd = cong->window;

	/* Section 4.7, fast convergence: a window that stopped short of the
	 * previous W_max releases bandwidth by lowering W_max further.
	 */
	if (cwnd < cubic->w_max)
		cubic->w_max = div_u64(cwnd * QUIC_CUBIC_FC_NUM, QUIC_CUBIC_FC_DEN);
	else
		cubic->w_max = cwnd;
	cubic->cwnd_prior = cwnd;

	/* Section 4.6: ssthresh = cwnd * beta, at least the minimum window.
	 * RFC 9002 Section 7.2's minimum of 2 * mss also holds for ECN-CE.
	 * Using cwnd rather than flight_size is safe because application
	 * limited periods do not grow the window (RFC 9002 Section 7.8).
	 */
	cong->ssthresh = max_t(u32, div_u64(cwnd * QUIC_CUBIC_BETA_NUM, QUIC_CUBIC_BETA_DEN),
			       cong->min_window);
	cong->window = cong->ssthresh;
	cubic->epoch_valid = false;
}

static void quic_cubic_on_persistent_congestion(struct quic_cong *cong, u64 now)
{
	cong->cubic.epoch_valid = false;
	cong->cubic.after_timeout = true;
}

static void quic_cubic_on_app_limited(struct quic_cong *cong, u64 now, bool limited)
{
	struct quic_cubic *cubic = &cong->cubic;

	/* Section 4.2: t must not include application-limited periods, so
	 * the epoch moves forward by the length of such a period.
	 */
	if (limited) {
		cubic->limited_start = now;
		return;
	}
	if (cubic->epoch_valid && now > cubic->limited_start)
		cubic->epoch_start += now - cubic->limited_start;
}

static const struct quic_cong_ops quic_cong_algos[QUIC_CONG_ALG_MAX] = {
	[QUIC_CONG_ALG_RENO] = {
		.name = "reno",
		.init = quic_reno_init,
		.on_acked = quic_reno_on_acked,
		.on_congestion = quic_reno_on_congestion,
		.on_persistent_congestion = quic_reno_on_persistent_congestion,
	},
	[QUIC_CONG_ALG_CUBIC] = {
		.name = "cubic",
		.init = quic_cubic_init,
		.on_acked = quic_cubic_on_acked,
		.on_congestion = quic_cubic_on_congestion,
		.on_persistent_congestion = quic_cubic_on_persistent_congestion,
		.on_app_limited = quic_cubic_on_app_limited,
	},
};

/**
 * quic_cong_init - set up a path's estimator and controller with defaults
 * @cong: the state to initialise
 *
 * Defaults: NewReno, kInitialRtt = 333 ms, max_datagram_size = 1200 bytes,
 * max_ack_delay = 25 ms (RFC 9000 Section 18.2), handshake not confirmed.
 */
void quic_cong_init(struct quic_cong *cong)
{
	memset(cong, 0, sizeof(*cong));
	cong->initial_rtt = QUIC_RTT_INIT;
	cong->max_ack_delay = QUIC_DEF_ACK_DELAY;
	cong->ops = &quic_cong_algos[QUIC_CONG_ALG_RENO];
	cong->algo = QUIC_CONG_ALG_RENO;
	quic_cong_set_mss(cong, QUIC_MIN_UDP_PAYLOAD);
	quic_cong_reset(cong, 0);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_init);

/**
 * quic_cong_reset - start over on a new path
 * @cong: the state to reset
 * @now: current time, microseconds: the new path's start
 *
 * Puts the RTT estimator back to the initial RTT (RFC 9002 Section 5.3)
 * and the controller back to slow start with the initial window (RFC 9000
 * Section 9.4). Keeps the algorithm, max_datagram_size, max_ack_delay, the
 * handshake state and the bytes still in flight. Packets sent before @now
 * went on the old path: their acknowledgment or loss only takes them out
 * of flight ("packets sent on the old path MUST NOT contribute to
 * congestion control or RTT estimation for the new path", Section 9.4).
 */
void quic_cong_reset(struct quic_cong *cong, u64 now)
{
	cong->path_start = now;
	cong->rtt_sampled = false;
	cong->first_rtt_sample = 0;
	cong->latest_rtt = 0;
	cong->min_rtt = 0;
	cong->smoothed_rtt = cong->initial_rtt;
	cong->rttvar = cong->initial_rtt / 2;
	cong->pto_count = 0;

	cong->window = cong->init_window;
	cong->ssthresh = U32_MAX;
	cong->in_recovery = false;
	cong->recovery_start = 0;
	cong->pacing_time = 0;
	cong->state = QUIC_CONG_SLOW_START;
	cong->ops->init(cong);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_reset);

/**
 * quic_cong_set_algo - choose the congestion control algorithm
 * @cong: the path state
 * @algo: an enum quic_cong_algo value
 *
 * The window, ssthresh and recovery state carry over; the algorithm's own
 * state starts fresh.
 *
 * Return: 0, or -EINVAL for an unknown algorithm.
 */
int quic_cong_set_algo(struct quic_cong *cong, u8 algo)
{
	if (algo >= QUIC_CONG_ALG_MAX)
		return -EINVAL;
	cong->ops = &quic_cong_algos[algo];
	cong->algo = algo;
	cong->ops->init(cong);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_set_algo);

/**
 * quic_cong_set_config - apply the socket's congestion settings
 * @cong: the path state
 * @config: congestion_control_algo and initial_smoothed_rtt (microseconds,
 *	0 for the default kInitialRtt) are used
 *
 * Meant for before the first RTT sample: the new initial RTT then also
 * becomes smoothed_rtt and rttvar = initial RTT / 2.
 *
 * Return: 0, or -EINVAL for an unknown algorithm or an initial RTT outside
 * [QUIC_RTT_MIN, QUIC_RTT_MAX]; nothing is changed on error.
 */
int quic_cong_set_config(struct quic_cong *cong, const struct quic_config *config)
{
	u32 rtt = config->initial_smoothed_rtt;

	if (config->congestion_control_algo >= QUIC_CONG_ALG_MAX)
		return -EINVAL;
	if (rtt && (rtt < QUIC_RTT_MIN || rtt > QUIC_RTT_MAX))
		return -EINVAL;

	quic_cong_set_algo(cong, config->congestion_control_algo);
	cong->initial_rtt = rtt ?: QUIC_RTT_INIT;
	if (!cong->rtt_sampled) {
		cong->smoothed_rtt = cong->initial_rtt;
		cong->rttvar = cong->initial_rtt / 2;
	}
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_set_config);

/**
 * quic_cong_set_mss - the path's max_datagram_size changed
 * @cong: the path state
 * @mss: the new size, clamped to [1200, 65527] (RFC 9000 Sections 14, 18.2)
 *
 * RFC 9002 Section 7.2: the initial and minimum windows follow the new
 * size. The window becomes the new initial window if it still is the old
 * one (nothing acknowledged and no reduction yet) or if the size decreased
 * before the handshake is confirmed; otherwise it is kept, but not below
 * the new minimum window.
 */
void quic_cong_set_mss(struct quic_cong *cong, u32 mss)
{
	u32 old = cong->mss, old_init = cong->init_window;

	mss = clamp_t(u32, mss, QUIC_MIN_UDP_PAYLOAD, QUIC_MAX_UDP_PAYLOAD);
	cong->mss = mss;
	cong->min_window = QUIC_MIN_WINDOW_PACKETS * mss;
	cong->init_window = min(QUIC_INIT_WINDOW_PACKETS * mss,
				max(QUIC_INIT_WINDOW_BYTES, QUIC_MIN_WINDOW_PACKETS * mss));
	if ((cong->window == old_init && cong->ssthresh == U32_MAX) ||
	    (mss < old && !cong->confirmed))
		cong->window = cong->init_window;
	cong->window = max(cong->window, cong->min_window);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_set_mss);

/**
 * quic_cong_set_max_ack_delay - record the peer's max_ack_delay
 * @cong: the path state
 * @max_ack_delay: microseconds, capped at 2^14 ms (RFC 9000 Section 18.2)
 */
void quic_cong_set_max_ack_delay(struct quic_cong *cong, u32 max_ack_delay)
{
	cong->max_ack_delay = min_t(u32, max_ack_delay, QUIC_MAX_ACK_DELAY);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_set_max_ack_delay);

/**
 * quic_cong_set_confirmed - the handshake is confirmed
 * @cong: the path state
 *
 * From now on ack_delay is capped by max_ack_delay (RFC 9002 Section 5.3).
 */
void quic_cong_set_confirmed(struct quic_cong *cong)
{
	cong->confirmed = true;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_set_confirmed);

/**
 * quic_cong_set_app_limited - the sender is or is no longer limited by the
 * application or flow control rather than by the window
 * @cong: the path state
 * @now: current time, microseconds
 * @limited: true when the sender stopped with room left in the window
 *
 * While limited, acknowledgments do not grow the window (RFC 9002 Section
 * 7.8); CUBIC also leaves the period out of its elapsed time (RFC 9438
 * Section 5.8). A sender held back only by pacing is not limited.
 */
void quic_cong_set_app_limited(struct quic_cong *cong, u64 now, bool limited)
{
	if (cong->app_limited == limited)
		return;
	cong->app_limited = limited;
	if (cong->ops->on_app_limited)
		cong->ops->on_app_limited(cong, now, limited);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_set_app_limited);

/**
 * quic_cong_rtt_update - take an RTT sample (RFC 9002 Sections 5.1 to 5.3)
 * @cong: the path state
 * @now: time the ACK frame was received, microseconds
 * @sent_time: send time of the largest acknowledged packet
 * @ack_delay: the ACK frame's decoded ACK Delay, microseconds (0 may be
 *	passed for Initial packets, Section 5.3)
 *
 * Call only when the largest acknowledged packet is newly acknowledged and
 * an ack-eliciting packet is newly acknowledged (Section 5.1). A sample
 * with @now before @sent_time is dropped; samples are capped at
 * QUIC_RTT_MAX. Updates follow Appendix A.7 (rttvar from the previous
 * smoothed_rtt), each truncated to the microsecond.
 */
void quic_cong_rtt_update(struct quic_cong *cong, u64 now, u64 sent_time, u64 ack_delay)
{
	u32 latest, adjusted, sample;

	if (now < sent_time || sent_time < cong->path_start)
		return;
	latest = min_t(u64, now - sent_time, QUIC_RTT_MAX);
	cong->latest_rtt = latest;

	if (!cong->rtt_sampled) {
		cong->rtt_sampled = true;
		cong->first_rtt_sample = now;
		cong->min_rtt = latest;
		cong->smoothed_rtt = latest;
		cong->rttvar = latest / 2;
		return;
	}

	/* min_rtt ignores the acknowledgment delay (Section 5.2). */
	cong->min_rtt = min(cong->min_rtt, latest);
	if (cong->confirmed)
		ack_delay = min_t(u64, ack_delay, cong->max_ack_delay);
	/* Subtract ack_delay only if the result stays at or above min_rtt. */
	adjusted = latest;
	if (latest - cong->min_rtt >= ack_delay)
		adjusted = latest - ack_delay;

	sample = cong->smoothed_rtt > adjusted ? cong->smoothed_rtt - adjusted :
						 adjusted - cong->smoothed_rtt;
	cong->rttvar = (3 * cong->rttvar + sample) / 4;
	cong->smoothed_rtt = (7 * cong->smoothed_rtt + adjusted) / 8;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_rtt_update);

/**
 * quic_cong_pto - probe timeout period (RFC 9002 Section 6.2.1, Appendix A.8)
 * @cong: the path state
 * @level: enum quic_crypto_level of the packet number space
 *
 * smoothed_rtt + max(4 * rttvar, kGranularity), plus max_ack_delay for the
 * Application Data space only, times 2^pto_count.
 *
 * Return: the PTO period in microseconds.
 */
u64 quic_cong_pto(const struct quic_cong *cong, u8 level)
{
	u64 duration = quic_cong_rto_base(cong);

	if (level == QUIC_CRYPTO_APP || level == QUIC_CRYPTO_EARLY)
		duration += cong->max_ack_delay;
	return duration << cong->pto_count;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_pto);

/**
 * quic_cong_pto_backoff - a PTO expired: double the period (Section 6.2.1)
 * @cong: the path state
 */
void quic_cong_pto_backoff(struct quic_cong *cong)
{
	if (cong->pto_count < QUIC_PTO_BACKOFF_MAX)
		cong->pto_count++;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_pto_backoff);

/**
 * quic_cong_pto_reset - an acknowledgment arrived: drop the backoff
 * @cong: the path state
 *
 * The caller skips this at a client not yet sure the server validated its
 * address (RFC 9002 Section 6.2.1).
 */
void quic_cong_pto_reset(struct quic_cong *cong)
{
	cong->pto_count = 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_pto_reset);

/**
 * quic_cong_loss_delay - time threshold for loss detection (Section 6.1.2)
 * @cong: the path state
 *
 * Return: max(9/8 * max(smoothed_rtt, latest_rtt), kGranularity) in
 * microseconds, the product truncated.
 */
u64 quic_cong_loss_delay(const struct quic_cong *cong)
{
	u64 rtt = max(cong->smoothed_rtt, cong->latest_rtt);

	rtt = rtt * QUIC_KTIME_THRESHOLD_NUM / QUIC_KTIME_THRESHOLD_DEN;
	return max_t(u64, rtt, QUIC_KGRANULARITY);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_loss_delay);

/**
 * quic_cong_is_lost - may an unacknowledged packet be declared lost
 * @cong: the path state
 * @now: current time, microseconds
 * @pn: the packet's number
 * @sent_time: its send time
 * @largest_acked: largest acknowledged packet number of its space
 * @loss_time: set to when it will be lost by time, or 0 (unchanged if lost)
 *
 * The per-packet test of DetectAndRemoveLostPackets() (Appendix A.10):
 * packet threshold kPacketThreshold = 3 (Section 6.1.1) or time threshold
 * quic_cong_loss_delay() (Section 6.1.2). Packets above @largest_acked are
 * never lost here.
 *
 * Return: true if the packet is lost.
 */
bool quic_cong_is_lost(const struct quic_cong *cong, u64 now, s64 pn, u64 sent_time,
		       s64 largest_acked, u64 *loss_time)
{
	u64 delay = quic_cong_loss_delay(cong);

	if (pn > largest_acked) {
		*loss_time = 0;
		return false;
	}
	if (largest_acked - pn >= QUIC_KPACKET_THRESHOLD || sent_time + delay <= now)
		return true;
	*loss_time = sent_time + delay;
	return false;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_is_lost);

/**
 * quic_cong_pc_duration - persistent congestion duration (Section 7.6.1)
 * @cong: the path state
 *
 * Return: (smoothed_rtt + max(4 * rttvar, kGranularity) + max_ack_delay) *
 * kPersistentCongestionThreshold, in microseconds; max_ack_delay counts
 * whatever the packet number space.
 */
u64 quic_cong_pc_duration(const struct quic_cong *cong)
{
	return (quic_cong_rto_base(cong) + cong->max_ack_delay) * QUIC_KPERSISTENT_CONGESTION;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_pc_duration);

/**
 * quic_cong_is_persistent - do two lost packets establish persistent
 * congestion (Section 7.6.2)
 * @cong: the path state
 * @first_sent: send time of the earliest lost ack-eliciting packet
 * @last_sent: send time of the latest one
 *
 * The caller checks that no packet sent between the two was acknowledged,
 * in any packet number space. Packets sent before the first RTT sample do
 * not count: the caller picks @first_sent among the later ones, and this
 * function refuses a @first_sent that is not after the first sample.
 *
 * Return: true if their send times span more than quic_cong_pc_duration().
 */
bool quic_cong_is_persistent(const struct quic_cong *cong, u64 first_sent, u64 last_sent)
{
	if (!cong->rtt_sampled || first_sent <= cong->first_rtt_sample)
		return false;
	return last_sent > first_sent && last_sent - first_sent > quic_cong_pc_duration(cong);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_is_persistent);

/**
 * quic_cong_on_packet_sent - an in-flight packet was sent
 * @cong: the path state
 * @now: send time, microseconds
 * @bytes: its size, QUIC header and AEAD overhead included, no UDP/IP
 *
 * Only packets that count toward bytes_in_flight are reported: ACK-only
 * packets are neither counted nor paced (RFC 9002 Sections 7, 7.7). The
 * pacer schedules the next packet quic_cong_pacing_gap() after this one.
 */
void quic_cong_on_packet_sent(struct quic_cong *cong, u64 now, u32 bytes)
{
	u64 now_ns = now * NSEC_PER_USEC;

	cong->bytes_in_flight = min_t(u64, (u64)cong->bytes_in_flight + bytes, U32_MAX);
	cong->pacing_time = max(cong->pacing_time, now_ns) + quic_cong_pacing_gap(cong, bytes);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_on_packet_sent);

/**
 * quic_cong_on_packet_acked - an in-flight packet was newly acknowledged
 * @cong: the path state
 * @now: time the acknowledgment was received, microseconds
 * @sent_time: the packet's send time
 * @bytes: its size as reported to quic_cong_on_packet_sent()
 *
 * OnPacketAcked() of RFC 9002 Appendix B.5: a packet sent after the start
 * of the recovery period ends it; the window grows unless the packet was
 * sent during recovery or the sender is application limited.
 */
void quic_cong_on_packet_acked(struct quic_cong *cong, u64 now, u64 sent_time, u32 bytes)
{
	cong->bytes_in_flight -= min(bytes, cong->bytes_in_flight);
	if (sent_time < cong->path_start || quic_cong_sent_in_recovery(cong, sent_time))
		return;
	if (cong->app_limited) {
		quic_cong_update_state(cong);
		return;
	}
	cong->ops->on_acked(cong, now, bytes);
	cong->window = min(cong->window, QUIC_MAX_WINDOW);
	quic_cong_update_state(cong);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_on_packet_acked);

/* OnCongestionEvent() of RFC 9002 Appendix B.6: once per recovery period. */
static void quic_cong_congestion_event(struct quic_cong *cong, u64 now, u64 sent_time)
{
	if (sent_time < cong->path_start || quic_cong_sent_in_recovery(cong, sent_time))
		return;
	cong->in_recovery = true;
	cong->recovery_start = now;
	cong->state = QUIC_CONG_RECOVERY;
	cong->ops->on_congestion(cong, now);
	cong->window = max(cong->window, cong->min_window);
}

/**
 * quic_cong_on_packet_lost - an in-flight packet was declared lost
 * @cong: the path state
 * @now: current time, microseconds
 * @sent_time: the packet's send time
 * @bytes: its size as reported to quic_cong_on_packet_sent()
 *
 * OnPacketsLost() of RFC 9002 Appendix B.8 for one packet: a loss of a
 * packet sent after the current recovery period started begins a new one
 * and reduces the window. Reporting a batch packet by packet is equivalent
 * to reporting its latest send time. Persistent congestion is checked
 * separately by the caller (quic_cong_is_persistent()).
 */
void quic_cong_on_packet_lost(struct quic_cong *cong, u64 now, u64 sent_time, u32 bytes)
{
	cong->bytes_in_flight -= min(bytes, cong->bytes_in_flight);
	quic_cong_congestion_event(cong, now, sent_time);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_on_packet_lost);

/**
 * quic_cong_on_packet_discarded - forget an in-flight packet (key discard)
 * @cong: the path state
 * @bytes: its size as reported to quic_cong_on_packet_sent()
 *
 * RemoveFromBytesInFlight() of RFC 9002 Appendix B.9: no congestion signal.
 */
void quic_cong_on_packet_discarded(struct quic_cong *cong, u32 bytes)
{
	cong->bytes_in_flight -= min(bytes, cong->bytes_in_flight);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_on_packet_discarded);

/**
 * quic_cong_on_ecn_ce - the peer's ECN-CE count increased
 * @cong: the path state
 * @now: current time, microseconds
 * @sent_time: send time of the largest packet the ACK frame acknowledges
 *
 * ProcessECN() of RFC 9002 Appendix B.7: a congestion event like a loss.
 */
void quic_cong_on_ecn_ce(struct quic_cong *cong, u64 now, u64 sent_time)
{
	quic_cong_congestion_event(cong, now, sent_time);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_on_ecn_ce);

/**
 * quic_cong_on_persistent_congestion - persistent congestion was established
 * @cong: the path state
 * @now: current time, microseconds
 *
 * RFC 9002 Section 7.6.2 and Appendix B.8: the window collapses to the
 * minimum window and the recovery period ends; Section 5.2: min_rtt restarts
 * from the newest RTT sample.
 */
void quic_cong_on_persistent_congestion(struct quic_cong *cong, u64 now)
{
	cong->window = cong->min_window;
	cong->in_recovery = false;
	cong->recovery_start = 0;
	if (cong->rtt_sampled)
		cong->min_rtt = cong->latest_rtt;
	cong->ops->on_persistent_congestion(cong, now);
	quic_cong_update_state(cong);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_on_persistent_congestion);

/**
 * quic_pacing_rate - pacing rate N * cwnd / smoothed_rtt (Section 7.7)
 * @window: congestion window, bytes
 * @srtt: smoothed_rtt, microseconds (taken as at least 1, at most QUIC_RTT_MAX)
 *
 * Return: bytes per second with N = 5/4, truncated.
 */
VISIBLE_IF_QUIC_KUNIT u64 quic_pacing_rate(u32 window, u32 srtt)
{
	u64 num = (u64)window * QUIC_PACING_GAIN_NUM * USEC_PER_SEC;

	srtt = clamp_t(u32, srtt, 1, QUIC_RTT_MAX);
	return div64_u64(num, (u64)srtt * QUIC_PACING_GAIN_DEN);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pacing_rate);

/**
 * quic_pacing_gap - inter-packet interval (smoothed_rtt * size / cwnd) / N
 * @window: congestion window, bytes (taken as at least 1)
 * @srtt: smoothed_rtt, microseconds (taken as at most QUIC_RTT_MAX)
 * @bytes: packet size (taken as at most 65527)
 *
 * Return: nanoseconds with N = 5/4, truncated.
 */
VISIBLE_IF_QUIC_KUNIT u64 quic_pacing_gap(u32 window, u32 srtt, u32 bytes)
{
	u64 num;

	srtt = min_t(u32, srtt, QUIC_RTT_MAX);
	bytes = min_t(u32, bytes, QUIC_MAX_UDP_PAYLOAD);
	window = max_t(u32, window, 1);
	/* below 6 * 10^7 * 10^3 * 65527 * 4 < 2^64 */
	num = (u64)srtt * NSEC_PER_USEC * bytes * QUIC_PACING_GAIN_DEN;
	return div64_u64(num, (u64)window * QUIC_PACING_GAIN_NUM);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pacing_gap);

/**
 * quic_cong_pacing_rate - the path's current pacing rate
 * @cong: the path state
 *
 * Return: N * cwnd / smoothed_rtt in bytes per second.
 */
u64 quic_cong_pacing_rate(const struct quic_cong *cong)
{
	return quic_pacing_rate(cong->window, cong->smoothed_rtt);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_pacing_rate);

/**
 * quic_cong_pacing_gap - how long a packet of @bytes holds the pacer
 * @cong: the path state
 * @bytes: the packet's size
 *
 * Until the first RTT sample nothing has been acknowledged, so bursts are
 * already limited to the initial window as Section 7.7 asks and the
 * initial RTT is no basis for a rate: no gap then.
 *
 * Return: nanoseconds.
 */
u64 quic_cong_pacing_gap(const struct quic_cong *cong, u32 bytes)
{
	if (!cong->rtt_sampled)
		return 0;
	return quic_pacing_gap(cong->window, cong->smoothed_rtt, bytes);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_pacing_gap);

/**
 * quic_cong_pacing_time - when the pacer lets the next packet go
 * @cong: the path state
 *
 * Return: the earliest send time in microseconds, rounded up; a time at or
 * before now means the packet may leave at once.
 */
u64 quic_cong_pacing_time(const struct quic_cong *cong)
{
	return DIV_ROUND_UP_ULL(cong->pacing_time, NSEC_PER_USEC);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cong_pacing_time);
