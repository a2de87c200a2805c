/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC per-socket timers.
 */

#ifndef __net_quic_timer_h__
#define __net_quic_timer_h__

#include <linux/hrtimer.h>
#include <linux/time64.h>
#include <linux/timer.h>

struct sock;

/* The longest delay a timer takes, microseconds: an hour. */
#define QUIC_TIMER_MAX_US	(3600ULL * USEC_PER_SEC)

enum quic_timer_type {
	QUIC_TIMER_LOSS,	/* loss detection / PTO (RFC 9002 Section 6) */
	QUIC_TIMER_ACK,		/* delayed ACK (RFC 9000 Section 13.2.1) */
	QUIC_TIMER_IDLE,	/* idle timeout (RFC 9000 Section 10.1) */
	QUIC_TIMER_PATH,	/* path validation (RFC 9000 Section 8.2.4) */
	QUIC_TIMER_PMTU,	/* PLPMTUD raise timer (RFC 8899 Section 5.1.1) */
	QUIC_TIMER_PACE,	/* pacing, high resolution (RFC 9002 Section 7.7) */
	QUIC_TIMER_MAX,
};

/**
 * struct quic_timer_ops - what to do when a timer expires
 * @fire: handler per enum quic_timer_type; NULL ignores the expiry
 * @done: when set, called after each handler: the owner acts there on
 *	what the handler noticed
 *
 * Handlers run in softirq context with the socket spinlock held, either
 * from the timer itself or, when the socket was owned by a user context at
 * expiry, from release_sock().
 */
struct quic_timer_ops {
	void (*fire[QUIC_TIMER_MAX])(struct sock *sk);
	void (*done)(struct sock *sk);
};

/**
 * struct quic_timers - the timers of one socket
 * @sk: owning socket
 * @ops: expiry handlers
 * @timer: jiffies timers, one per type but QUIC_TIMER_PACE
 * @pace: the pacing timer
 * @deferred: types whose expiry waits for release_sock(); each set bit
 *            holds one socket reference
 * @expiring: types whose expiry has begun in softirq and waits for the
 *            socket spinlock: no longer pending, not deferred yet
 * @armed: types below %QUIC_TIMER_PACE armed and not stopped whose
 *         handler has not started yet: set from the arming, through the
 *         moment the timer core takes the expired timer off its queue,
 *         until quic_timer_fire(); changed under the socket lock
 * @running_deferred: a deferred expiry runs now, from release_sock()
 */
struct quic_timers {
	struct sock *sk;
	const struct quic_timer_ops *ops;
	struct timer_list timer[QUIC_TIMER_PACE];
	struct hrtimer pace;
	unsigned long deferred;
	unsigned long expiring;
	unsigned long armed;
	bool running_deferred;
};

void quic_timer_init(struct sock *sk, struct quic_timers *t, const struct quic_timer_ops *ops);
void quic_timer_reset(struct quic_timers *t, u8 type, u64 timeout_us);
void quic_timer_reduce(struct quic_timers *t, u8 type, u64 timeout_us);
void quic_timer_start_pace(struct quic_timers *t, ktime_t expires);
void quic_timer_stop(struct quic_timers *t, u8 type);
bool quic_timer_pending(struct quic_timers *t, u8 type);
bool quic_timer_armed(struct quic_timers *t, u8 type);
void quic_timer_stop_all(struct quic_timers *t);
void quic_timer_run_deferred(struct quic_timers *t);

#endif /* __net_quic_timer_h__ */
