/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC RTT estimation, loss detection timing inputs, congestion control and
 * pacing (RFC 9002 Sections 5, 6 and 7; CUBIC per RFC 9438).
 *
 * A struct quic_cong holds everything for one network path. It has no link
 * to a socket and never reads a clock: every time is a u64 count of
 * microseconds on a monotonic clock, handed in by the caller, so the
 * arithmetic can be driven exactly. Windows and sizes are in bytes. Only
 * integer arithmetic is used; docs/cong.md states the precision of each
 * computation.
 *
 * The caller (the loss detection code around the sent packet lists)
 * decides which packets are newly acknowledged, lost or discarded and in
 * which order to report them; the order of RFC 9002 Appendix A.7 is: RTT
 * sample, ECN, losses, then acknowledgments.
 */

#ifndef __net_quic_cong_h__
#define __net_quic_cong_h__

#include <linux/types.h>
#include <uapi/linux/quic.h>

#include "common.h"

/* RFC 9002 Section 6.1.1 and Appendix A.2: kPacketThreshold. */
#define QUIC_KPACKET_THRESHOLD		3
/* RFC 9002 Section 6.1.2: kTimeThreshold = 9/8, kGranularity = 1 ms. */
#define QUIC_KTIME_THRESHOLD_NUM	9
#define QUIC_KTIME_THRESHOLD_DEN	8
#define QUIC_KGRANULARITY		1000U
/* RFC 9002 Section 7.6.1: kPersistentCongestionThreshold. */
#define QUIC_KPERSISTENT_CONGESTION	3

/* RFC 9002 Section 6.2.2: kInitialRtt, 333 ms. Bounds of a configured one. */
#define QUIC_RTT_INIT			333000U
#define QUIC_RTT_MIN			QUIC_KGRANULARITY
#define QUIC_RTT_MAX			(60U * 1000 * 1000)

/* RFC 9002 Section 7.2: initial window min(10 * mds, max(14720, 2 * mds)). */
#define QUIC_INIT_WINDOW_PACKETS	10
#define QUIC_INIT_WINDOW_BYTES		14720U
/* RFC 9002 Section 7.2: kMinimumWindow = 2 * max_datagram_size. */
#define QUIC_MIN_WINDOW_PACKETS		2
/* Upper bound on the window, so that every window sum fits a u32. */
#define QUIC_MAX_WINDOW			(U32_MAX / 2)

/* RFC 9002 Section 7.7: pacing gain N = 1.25. */
#define QUIC_PACING_GAIN_NUM		5
#define QUIC_PACING_GAIN_DEN		4

/* Exponent of the PTO backoff is capped here; the idle timeout ends the
 * connection long before.
 */
#define QUIC_PTO_BACKOFF_MAX		30

/**
 * enum quic_cong_state - congestion controller state (RFC 9002 Section 7.3)
 * @QUIC_CONG_SLOW_START: window below ssthresh, grows by the bytes acked
 * @QUIC_CONG_RECOVERY: reduced once; waits for a packet sent after the reduction
 * @QUIC_CONG_AVOIDANCE: window at or above ssthresh, grows by the algorithm
 */
enum quic_cong_state {
	QUIC_CONG_SLOW_START,
	QUIC_CONG_RECOVERY,
	QUIC_CONG_AVOIDANCE,
};

/**
 * struct quic_reno - NewReno state (RFC 9002 Section 7.3.3, Appendix B.5)
 * @bytes_acked: bytes acked in congestion avoidance since the last increase
 */
struct quic_reno {
	u32 bytes_acked;
};

/**
 * struct quic_cubic - CUBIC state (RFC 9438 Section 4), in bytes and microseconds
 * @epoch_start: t_epoch, start of the congestion avoidance stage
 * @limited_start: when the sender last became application limited
 * @est_rem: remainder of the W_est growth, in 1/(17 * cwnd) bytes
 * @cwnd_rem: remainder of the cubic growth, in 1/cwnd bytes
 * @w_max: W_max, window before the last reduction (less with fast convergence)
 * @cwnd_prior: cwnd_prior, window just before the last reduction
 * @cwnd_epoch: cwnd_epoch, window at @epoch_start
 * @w_est: W_est, the Reno-friendly estimate
 * @k: K in microseconds, a multiple of 100
 * @epoch_valid: @epoch_start and the values derived from it are set
 * @after_timeout: the next epoch follows persistent congestion (K = 0)
 */
struct quic_cubic {
	u64 epoch_start;
	u64 limited_start;
	u64 est_rem;
	u64 cwnd_rem;
	u32 w_max;
	u32 cwnd_prior;
	u32 cwnd_epoch;
	u32 w_est;
	u32 k;
	bool epoch_valid;
	bool after_timeout;
};

struct quic_cong;

/**
 * struct quic_cong_ops - one congestion control algorithm
 * @name: short name, for diagnostics
 * @init: reset the algorithm's private state
 * @on_acked: grow the window for @bytes newly acked outside recovery while
 *	the sender is not application limited
 * @on_congestion: start of a recovery period: set ssthresh and the reduced
 *	window (the caller then applies the minimum window)
 * @on_persistent_congestion: the window was collapsed to the minimum
 * @on_app_limited: the sender became (@limited) or stopped being application
 *	limited at @now; optional
 *
 * The common code (cong.c) does the bookkeeping that RFC 9002 Appendix B
 * gives every controller: bytes in flight, the recovery period, the
 * application-limited check, the minimum window and persistent congestion.
 */
struct quic_cong_ops {
	const char *name;
	void (*init)(struct quic_cong *cong);
	void (*on_acked)(struct quic_cong *cong, u64 now, u32 bytes);
	void (*on_congestion)(struct quic_cong *cong, u64 now);
	void (*on_persistent_congestion)(struct quic_cong *cong, u64 now);
	void (*on_app_limited)(struct quic_cong *cong, u64 now, bool limited);
};

/**
 * struct quic_cong - RTT estimator, congestion controller and pacer of a path
 * @first_rtt_sample: time of the first RTT sample (valid if @rtt_sampled)
 * @recovery_start: congestion_recovery_start_time (valid if @in_recovery)
 * @path_start: when the path began (quic_cong_reset()): packets sent
 *	before it went on the old path and feed neither the RTT estimate nor
 *	the congestion controller (RFC 9000 Section 9.4)
 * @pacing_time: earliest send time of the next paced packet, nanoseconds
 * @latest_rtt: latest_rtt, RFC 9002 Section 5.1
 * @min_rtt: min_rtt, Section 5.2
 * @smoothed_rtt: smoothed_rtt, Section 5.3
 * @rttvar: rttvar, Section 5.3
 * @initial_rtt: kInitialRtt in use for this path
 * @max_ack_delay: the peer's max_ack_delay transport parameter
 * @pto_count: PTO backoff exponent, Appendix A.3
 * @window: congestion_window
 * @ssthresh: slow start threshold, U32_MAX until the first reduction
 * @bytes_in_flight: bytes_in_flight, Appendix B.2
 * @mss: max_datagram_size
 * @init_window: kInitialWindow for @mss
 * @min_window: kMinimumWindow for @mss
 * @ops: the congestion control algorithm
 * @algo: its enum quic_cong_algo value
 * @state: enum quic_cong_state
 * @rtt_sampled: an RTT sample has been taken
 * @in_recovery: @recovery_start is set
 * @confirmed: the handshake is confirmed (RFC 9001 Section 4.1.2)
 * @app_limited: the sender is application or flow control limited
 * @reno: state of QUIC_CONG_ALG_RENO
 * @cubic: state of QUIC_CONG_ALG_CUBIC
 */
struct quic_cong {
	u64 first_rtt_sample;
	u64 recovery_start;
	u64 path_start;
	u64 pacing_time;

	u32 latest_rtt;
	u32 min_rtt;
	u32 smoothed_rtt;
	u32 rttvar;
	u32 initial_rtt;
	u32 max_ack_delay;
	u32 pto_count;

	u32 window;
	u32 ssthresh;
	u32 bytes_in_flight;
	u32 mss;
	u32 init_window;
	u32 min_window;

	const struct quic_cong_ops *ops;
	u8 algo;
	u8 state;
	bool rtt_sampled;
	bool in_recovery;
	bool confirmed;
	bool app_limited;

	union {
		struct quic_reno reno;
		struct quic_cubic cubic;
	};
};

static inline u32 quic_cong_window(const struct quic_cong *cong)
{
	return cong->window;
}

static inline u32 quic_cong_ssthresh(const struct quic_cong *cong)
{
	return cong->ssthresh;
}

static inline u32 quic_cong_in_flight(const struct quic_cong *cong)
{
	return cong->bytes_in_flight;
}

static inline u32 quic_cong_mss(const struct quic_cong *cong)
{
	return cong->mss;
}

static inline u32 quic_cong_min_window(const struct quic_cong *cong)
{
	return cong->min_window;
}

static inline u8 quic_cong_algo(const struct quic_cong *cong)
{
	return cong->algo;
}

static inline u8 quic_cong_state(const struct quic_cong *cong)
{
	return cong->state;
}

static inline u32 quic_cong_smoothed_rtt(const struct quic_cong *cong)
{
	return cong->smoothed_rtt;
}

static inline u32 quic_cong_rttvar(const struct quic_cong *cong)
{
	return cong->rttvar;
}

static inline u32 quic_cong_latest_rtt(const struct quic_cong *cong)
{
	return cong->latest_rtt;
}

static inline u32 quic_cong_min_rtt(const struct quic_cong *cong)
{
	return cong->min_rtt;
}

static inline u32 quic_cong_pto_count(const struct quic_cong *cong)
{
	return cong->pto_count;
}

/* Room left in the window for new in-flight bytes (RFC 9002 Section 7). */
static inline u32 quic_cong_room(const struct quic_cong *cong)
{
	return cong->window > cong->bytes_in_flight ? cong->window - cong->bytes_in_flight : 0;
}

/* Setup and configuration */
void quic_cong_init(struct quic_cong *cong);
void quic_cong_reset(struct quic_cong *cong, u64 now);
int quic_cong_set_algo(struct quic_cong *cong, u8 algo);
int quic_cong_set_config(struct quic_cong *cong, const struct quic_config *config);
void quic_cong_set_mss(struct quic_cong *cong, u32 mss);
void quic_cong_set_max_ack_delay(struct quic_cong *cong, u32 max_ack_delay);
void quic_cong_set_confirmed(struct quic_cong *cong);
void quic_cong_set_app_limited(struct quic_cong *cong, u64 now, bool limited);

/* RTT estimation (RFC 9002 Section 5) */
void quic_cong_rtt_update(struct quic_cong *cong, u64 now, u64 sent_time, u64 ack_delay);

/* Loss detection timing (RFC 9002 Section 6) */
u64 quic_cong_pto(const struct quic_cong *cong, u8 level);
void quic_cong_pto_backoff(struct quic_cong *cong);
void quic_cong_pto_reset(struct quic_cong *cong);
u64 quic_cong_loss_delay(const struct quic_cong *cong);
bool quic_cong_is_lost(const struct quic_cong *cong, u64 now, s64 pn, u64 sent_time,
		       s64 largest_acked, u64 *loss_time);
u64 quic_cong_pc_duration(const struct quic_cong *cong);
bool quic_cong_is_persistent(const struct quic_cong *cong, u64 first_sent, u64 last_sent);

/* Congestion control (RFC 9002 Section 7, Appendix B) */
void quic_cong_on_packet_sent(struct quic_cong *cong, u64 now, u32 bytes);
void quic_cong_on_packet_acked(struct quic_cong *cong, u64 now, u64 sent_time, u32 bytes);
void quic_cong_on_packet_lost(struct quic_cong *cong, u64 now, u64 sent_time, u32 bytes);
void quic_cong_on_packet_discarded(struct quic_cong *cong, u32 bytes);
void quic_cong_on_ecn_ce(struct quic_cong *cong, u64 now, u64 sent_time);
void quic_cong_on_persistent_congestion(struct quic_cong *cong, u64 now);

/* Pacing (RFC 9002 Section 7.7) */
u64 quic_cong_pacing_rate(const struct quic_cong *cong);
u64 quic_cong_pacing_gap(const struct quic_cong *cong, u32 bytes);
u64 quic_cong_pacing_time(const struct quic_cong *cong);

#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
/* Integer building blocks, reached by the KUnit suites only. */
u32 quic_cubic_root(u64 x);
u32 quic_cubic_k(u32 w_max, u32 cwnd_epoch, u32 mss);
u64 quic_cubic_window(u32 w_max, u32 k, u32 mss, u64 t);
u64 quic_pacing_rate(u32 window, u32 srtt);
u64 quic_pacing_gap(u32 window, u32 srtt, u32 bytes);
#endif

#endif /* __net_quic_cong_h__ */
