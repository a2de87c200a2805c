// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC per-socket timers.
 *
 * Every armed timer holds a reference on its socket, taken when it is armed
 * and dropped when it expires or is stopped, so an expiry never runs on a
 * freed socket. An expiry that finds the socket owned by a user context is
 * not run there: it marks the timer in @deferred (the timer's reference
 * moves to that bit) and release_sock() runs it through
 * quic_timer_run_deferred(), as TCP does with its deferred flags.
 */

#include <net/sock.h>

#include "common.h"
#include "timer.h"

static void quic_timer_fire(struct quic_timers *t, u8 type)
{
	void (*fire)(struct sock *sk) = t->ops ? t->ops->fire[type] : NULL;

	/* Unless the owner armed it again while this expiry waited. */
	if (type < QUIC_TIMER_PACE && !timer_pending(&t->timer[type]))
		clear_bit(type, &t->armed);
	if (fire) {
		fire(t->sk);
		if (t->ops->done)
			t->ops->done(t->sk);
	}
}

/* Called with no lock held, in softirq context, holding the timer's reference. */
static void quic_timer_expire(struct quic_timers *t, u8 type)
{
	struct sock *sk = t->sk;

	/* Until the lock is taken the timer is neither pending nor
	 * deferred, yet it will run: quic_timer_armed() must say so to an
	 * owner checking its timers from release_cb with the lock held.
	 */
	set_bit(type, &t->expiring);
	bh_lock_sock(sk);
	clear_bit(type, &t->expiring);
	if (sock_owned_by_user(sk)) {
		/* A set bit already holds a reference: drop the timer's. */
		if (test_and_set_bit(type, &t->deferred))
			__sock_put(sk);
		bh_unlock_sock(sk);
		return;
	}
	quic_timer_fire(t, type);
	bh_unlock_sock(sk);
	sock_put(sk);
}

#define QUIC_TIMER_EXPIRE_FN(name, type)					\
static void quic_timer_##name##_expire(struct timer_list *tl)			\
{										\
	struct quic_timers *t = container_of(tl, struct quic_timers, timer[type]); \
										\
	quic_timer_expire(t, type);						\
}

QUIC_TIMER_EXPIRE_FN(loss, QUIC_TIMER_LOSS)
QUIC_TIMER_EXPIRE_FN(ack, QUIC_TIMER_ACK)
QUIC_TIMER_EXPIRE_FN(idle, QUIC_TIMER_IDLE)
QUIC_TIMER_EXPIRE_FN(path, QUIC_TIMER_PATH)
QUIC_TIMER_EXPIRE_FN(pmtu, QUIC_TIMER_PMTU)

static void (* const quic_timer_expire_fns[QUIC_TIMER_PACE])(struct timer_list *tl) = {
	[QUIC_TIMER_LOSS]	= quic_timer_loss_expire,
	[QUIC_TIMER_ACK]	= quic_timer_ack_expire,
	[QUIC_TIMER_IDLE]	= quic_timer_idle_expire,
	[QUIC_TIMER_PATH]	= quic_timer_path_expire,
	[QUIC_TIMER_PMTU]	= quic_timer_pmtu_expire,
};

static enum hrtimer_restart quic_timer_pace_expire(struct hrtimer *hr)
{
	quic_timer_expire(container_of(hr, struct quic_timers, pace), QUIC_TIMER_PACE);
	return HRTIMER_NORESTART;
}

/**
 * quic_timer_init - set up the timers of a socket
 * @sk: the owning socket
 * @t: its timers
 * @ops: expiry handlers (NULL: expiries do nothing)
 */
void quic_timer_init(struct sock *sk, struct quic_timers *t, const struct quic_timer_ops *ops)
{
	u8 i;

	t->sk = sk;
	t->ops = ops;
	t->deferred = 0;
	t->expiring = 0;
	t->armed = 0;
	for (i = 0; i < QUIC_TIMER_PACE; i++)
		timer_setup(&t->timer[i], quic_timer_expire_fns[i], 0);
	hrtimer_init(&t->pace, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_SOFT);
	t->pace.function = quic_timer_pace_expire;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_timer_init);

/*
 * At least one tick: a zero timeout still expires asynchronously. At most
 * %QUIC_TIMER_MAX_US: usecs_to_jiffies() takes an unsigned int and maps
 * whatever lies above jiffies_to_usecs(MAX_JIFFY_OFFSET), which wraps to
 * about 4294.9 s, to MAX_JIFFY_OFFSET: a timer that never expires.
 */
static unsigned long quic_timer_expires(u64 timeout_us)
{
	return jiffies + max_t(unsigned long,
			       usecs_to_jiffies(min_t(u64, timeout_us, QUIC_TIMER_MAX_US)), 1);
}

/* An expiry of @type deferred to release_sock() is stale once the owner
 * armed that timer again or stopped it: forget it, with its reference.
 * The owner holds the socket, so that reference is never the last.
 */
static void quic_timer_forget_deferred(struct quic_timers *t, u8 type)
{
	if (test_and_clear_bit(type, &t->deferred))
		__sock_put(t->sk);
}

/**
 * quic_timer_reset - (re)arm a timer @timeout_us microseconds from now
 * @t: the socket's timers
 * @type: any type but %QUIC_TIMER_PACE (see quic_timer_start_pace())
 * @timeout_us: delay; rounded up to a jiffy, capped at %QUIC_TIMER_MAX_US (an hour)
 *
 * An expiry of this timer still deferred to release_sock() is dropped:
 * the new deadline replaces it. A deadline already due (@timeout_us 0)
 * keeps it instead: it runs from release_sock() as it would have.
 */
void quic_timer_reset(struct quic_timers *t, u8 type, u64 timeout_us)
{
	if (WARN_ON_ONCE(type >= QUIC_TIMER_PACE))
		return;
	if (test_bit(type, &t->deferred)) {
		if (!timeout_us)
			return;
		quic_timer_forget_deferred(t, type);
	}
	set_bit(type, &t->armed);
	sk_reset_timer(t->sk, &t->timer[type], quic_timer_expires(timeout_us));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_timer_reset);

/**
 * quic_timer_reduce - arm a timer, unless it is already due sooner
 * @t: the socket's timers
 * @type: any type but %QUIC_TIMER_PACE
 * @timeout_us: delay from now
 *
 * Used where several events may each want an earlier expiry (the ACK delay
 * timer for instance): the earliest wins, and an expiry still deferred to
 * release_sock() is the earliest of all: it stays.
 */
void quic_timer_reduce(struct quic_timers *t, u8 type, u64 timeout_us)
{
	unsigned long expires = quic_timer_expires(timeout_us);
	struct timer_list *tl;

	if (WARN_ON_ONCE(type >= QUIC_TIMER_PACE))
		return;
	tl = &t->timer[type];
	set_bit(type, &t->armed);
	if (timer_pending(tl) && time_before_eq(READ_ONCE(tl->expires), expires))
		return;
	sk_reset_timer(t->sk, tl, expires);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_timer_reduce);

/**
 * quic_timer_start_pace - arm the pacing timer for an absolute time
 * @t: the socket's timers
 * @expires: CLOCK_MONOTONIC time of the next allowed send
 *
 * A pacing timer already queued is left alone: the sender is woken then and
 * computes the next send time itself.
 */
void quic_timer_start_pace(struct quic_timers *t, ktime_t expires)
{
	if (hrtimer_is_queued(&t->pace))
		return;
	sock_hold(t->sk);
	hrtimer_start(&t->pace, expires, HRTIMER_MODE_ABS_PINNED_SOFT);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_timer_start_pace);

/**
 * quic_timer_stop - stop a timer, dropping its socket reference
 * @t: the socket's timers
 * @type: which timer
 *
 * An expiry already running on another CPU completes on its own; one
 * deferred to release_sock() is dropped.
 */
void quic_timer_stop(struct quic_timers *t, u8 type)
{
	if (type < QUIC_TIMER_MAX)
		quic_timer_forget_deferred(t, type);
	if (type == QUIC_TIMER_PACE) {
		if (hrtimer_try_to_cancel(&t->pace) == 1)
			__sock_put(t->sk);
		return;
	}
	if (type < QUIC_TIMER_PACE) {
		clear_bit(type, &t->armed);
		sk_stop_timer(t->sk, &t->timer[type]);
	}
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_timer_stop);

/**
 * quic_timer_armed - tell whether a timer will run
 * @t: the socket's timers
 * @type: which timer
 *
 * For the timers below %QUIC_TIMER_PACE, what the owner armed and did not
 * stop until its handler starts: the expiry is no longer pending once the
 * timer core took it off its queue, and on another CPU it may not have
 * reached quic_timer_expire() yet (found on arm64 with two CPUs by the
 * loss detection timer invariant, connection.c). The caller holds the
 * socket lock.
 *
 * Return: true when it is queued, expired and waits for release_sock(), or
 * expired and its handler has not run yet.
 */
bool quic_timer_armed(struct quic_timers *t, u8 type)
{
	if (type < QUIC_TIMER_PACE)
		return test_bit(type, &t->armed);
	return quic_timer_pending(t, type) || test_bit(type, &t->deferred) ||
	       test_bit(type, &t->expiring);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_timer_armed);

/**
 * quic_timer_pending - tell whether a timer is armed
 * @t: the socket's timers
 * @type: which timer
 *
 * Return: true when the timer is queued and has not expired yet.
 */
bool quic_timer_pending(struct quic_timers *t, u8 type)
{
	if (type == QUIC_TIMER_PACE)
		return hrtimer_is_queued(&t->pace);
	return type < QUIC_TIMER_PACE && timer_pending(&t->timer[type]);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_timer_pending);

/**
 * quic_timer_stop_all - stop every timer and forget deferred expiries
 * @t: the socket's timers
 *
 * Called from close() in process context. Waits for expiries running on
 * other CPUs, so that no handler runs on the socket afterwards; the socket
 * references of the timers and of the deferred expiries are dropped.
 */
void quic_timer_stop_all(struct quic_timers *t)
{
	struct sock *sk = t->sk;
	u8 i;

	for (i = 0; i < QUIC_TIMER_PACE; i++)
		sk_stop_timer_sync(sk, &t->timer[i]);
	t->armed = 0;
	if (hrtimer_cancel(&t->pace))
		__sock_put(sk);

	for (i = 0; i < QUIC_TIMER_MAX; i++)
		if (test_and_clear_bit(i, &t->deferred))
			__sock_put(sk);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_timer_stop_all);

/**
 * quic_timer_run_deferred - run the expiries that found the socket owned
 * @t: the socket's timers
 *
 * Called from the socket's release_cb, i.e. from release_sock() with the
 * socket spinlock held.
 */
void quic_timer_run_deferred(struct quic_timers *t)
{
	u8 i;

	for (i = 0; i < QUIC_TIMER_MAX; i++) {
		if (!test_and_clear_bit(i, &t->deferred))
			continue;
		t->running_deferred = true;
		quic_timer_fire(t, i);
		t->running_deferred = false;
		/* The socket's owner still holds a reference: this is never the last. */
		__sock_put(t->sk);
	}
}
