// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_timer: per-socket timers: arming, re-arming and
 * stopping keep the socket reference count balanced, expiries run their
 * handler, an expiry on a socket owned by a user context waits for
 * release_sock(), and close stops everything so that no handler ever runs
 * on a released socket (KASAN watches for the use-after-free).
 *
 * Expiries are real: the cases arm timers of one jiffy and poll, bounded,
 * for the expiry; they never depend on how fast the machine is.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <net/net_namespace.h>

#include "../socket.h"
#include "util.h"

#define TIMER_WAIT_MS	3000

static atomic_t timer_fired[QUIC_TIMER_MAX];

#define TIMER_HANDLER(type)						\
static void timer_on_##type(struct sock *sk)				\
{									\
	atomic_inc(&timer_fired[type]);					\
}

TIMER_HANDLER(QUIC_TIMER_LOSS)
TIMER_HANDLER(QUIC_TIMER_ACK)
TIMER_HANDLER(QUIC_TIMER_IDLE)
TIMER_HANDLER(QUIC_TIMER_PATH)
TIMER_HANDLER(QUIC_TIMER_PMTU)
TIMER_HANDLER(QUIC_TIMER_PACE)

static const struct quic_timer_ops timer_test_ops = {
	.fire = {
		[QUIC_TIMER_LOSS] = timer_on_QUIC_TIMER_LOSS,
		[QUIC_TIMER_ACK] = timer_on_QUIC_TIMER_ACK,
		[QUIC_TIMER_IDLE] = timer_on_QUIC_TIMER_IDLE,
		[QUIC_TIMER_PATH] = timer_on_QUIC_TIMER_PATH,
		[QUIC_TIMER_PMTU] = timer_on_QUIC_TIMER_PMTU,
		[QUIC_TIMER_PACE] = timer_on_QUIC_TIMER_PACE,
	},
};

static int timer_test_init(struct kunit *test)
{
	int i;

	for (i = 0; i < QUIC_TIMER_MAX; i++)
		atomic_set(&timer_fired[i], 0);
	return 0;
}

/* A socket whose timers call the counting handlers above. */
static struct sock *timer_sk(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_DGRAM)->sk;

	quic_timer_init(sk, quic_timers(sk), &timer_test_ops);
	return sk;
}

/* Bounded polls for an asynchronous expiry and its side effects. */
static bool timer_wait_fired(u8 type, int count)
{
	unsigned long end = jiffies + msecs_to_jiffies(TIMER_WAIT_MS);

	while (atomic_read(&timer_fired[type]) != count) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
}

static bool timer_wait_ref(struct sock *sk, int ref)
{
	unsigned long end = jiffies + msecs_to_jiffies(TIMER_WAIT_MS);

	while (refcount_read(&sk->sk_refcnt) != ref) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
}

static bool timer_wait_deferred(struct quic_timers *t, u8 type)
{
	unsigned long end = jiffies + msecs_to_jiffies(TIMER_WAIT_MS);

	while (!test_bit(type, &t->deferred)) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
}

static void timer_arm_and_stop_balance_references(struct kunit *test)
{
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	int ref = refcount_read(&sk->sk_refcnt);
	u8 i;

	for (i = 0; i < QUIC_TIMER_PACE; i++) {
		quic_timer_reset(t, i, 10 * USEC_PER_SEC);
		KUNIT_EXPECT_TRUE(test, quic_timer_pending(t, i));
	}
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref + QUIC_TIMER_PACE);

	/* Re-arming a pending timer takes no second reference. */
	for (i = 0; i < QUIC_TIMER_PACE; i++)
		quic_timer_reset(t, i, 20 * USEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref + QUIC_TIMER_PACE);

	for (i = 0; i < QUIC_TIMER_PACE; i++) {
		quic_timer_stop(t, i);
		KUNIT_EXPECT_FALSE(test, quic_timer_pending(t, i));
	}
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref);
	/* Stopping an idle timer is harmless. */
	quic_timer_stop(t, QUIC_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref);
}

/*
 * A delay beyond an hour is an hour: usecs_to_jiffies() would make the
 * largest ones MAX_JIFFY_OFFSET, a timer that never expires (a closing
 * period whose socket then lingers forever).
 */
static void timer_longest_delay_is_an_hour(struct kunit *test)
{
	static const u64 delays[] = { U32_MAX, 4295ULL * USEC_PER_SEC, 3 * QUIC_TIMER_MAX_US,
				      U64_MAX };
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	struct timer_list *tl = &t->timer[QUIC_TIMER_IDLE];
	long hour = (long)usecs_to_jiffies(QUIC_TIMER_MAX_US), left;
	u32 i;

	KUNIT_EXPECT_EQ(test, hour, 3600L * HZ);
	for (i = 0; i < ARRAY_SIZE(delays); i++) {
		quic_timer_reset(t, QUIC_TIMER_IDLE, delays[i]);
		left = (long)(READ_ONCE(tl->expires) - jiffies);
		KUNIT_EXPECT_LE_MSG(test, left, hour, "delay %llu us", delays[i]);
		KUNIT_EXPECT_GE(test, left, hour - HZ);
	}
	quic_timer_reduce(t, QUIC_TIMER_ACK, U64_MAX);
	left = (long)(READ_ONCE(t->timer[QUIC_TIMER_ACK].expires) - jiffies);
	KUNIT_EXPECT_LE(test, left, hour);
	quic_timer_stop(t, QUIC_TIMER_IDLE);
	quic_timer_stop(t, QUIC_TIMER_ACK);
}

static void timer_reduce_only_moves_earlier(struct kunit *test)
{
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	struct timer_list *tl = &t->timer[QUIC_TIMER_ACK];
	int ref = refcount_read(&sk->sk_refcnt);
	unsigned long first;

	quic_timer_reduce(t, QUIC_TIMER_ACK, 10 * USEC_PER_SEC);
	KUNIT_ASSERT_TRUE(test, quic_timer_pending(t, QUIC_TIMER_ACK));
	first = tl->expires;

	quic_timer_reduce(t, QUIC_TIMER_ACK, 20 * USEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, tl->expires, first);
	quic_timer_reduce(t, QUIC_TIMER_ACK, 5 * USEC_PER_SEC);
	KUNIT_EXPECT_TRUE(test, time_before(tl->expires, first));
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref + 1);

	quic_timer_stop(t, QUIC_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref);
}

static void timer_expiry_runs_handler_and_drops_reference(struct kunit *test)
{
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	int ref = refcount_read(&sk->sk_refcnt);

	quic_timer_reset(t, QUIC_TIMER_LOSS, 0);
	KUNIT_ASSERT_TRUE(test, timer_wait_fired(QUIC_TIMER_LOSS, 1));
	KUNIT_ASSERT_TRUE(test, timer_wait_ref(sk, ref));
	KUNIT_EXPECT_FALSE(test, quic_timer_pending(t, QUIC_TIMER_LOSS));
	/* Only the timer that expired ran its handler. */
	KUNIT_EXPECT_EQ(test, atomic_read(&timer_fired[QUIC_TIMER_ACK]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&timer_fired[QUIC_TIMER_PACE]), 0);
}

static void timer_expiry_on_owned_socket_waits_for_release(struct kunit *test)
{
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	int ref = refcount_read(&sk->sk_refcnt);

	lock_sock(sk);
	quic_timer_reset(t, QUIC_TIMER_IDLE, 0);
	KUNIT_ASSERT_TRUE(test, timer_wait_deferred(t, QUIC_TIMER_IDLE));
	/* Expired, but the handler must not run under the owner's feet. */
	KUNIT_EXPECT_EQ(test, atomic_read(&timer_fired[QUIC_TIMER_IDLE]), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref + 1);
	release_sock(sk);

	KUNIT_EXPECT_EQ(test, atomic_read(&timer_fired[QUIC_TIMER_IDLE]), 1);
	KUNIT_EXPECT_FALSE(test, test_bit(QUIC_TIMER_IDLE, &t->deferred));
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref);
}

/*
 * An expiry deferred to release_sock() is stale once the owner armed that
 * timer again or stopped it: the idle timer restarted by a packet the
 * backlog just delivered must not close the connection at release. The
 * deferred expiry goes, with its socket reference; the new deadline stands.
 */
static void timer_deferred_expiry_dropped_when_rearmed_or_stopped(struct kunit *test)
{
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	int ref = refcount_read(&sk->sk_refcnt);

	lock_sock(sk);
	quic_timer_reset(t, QUIC_TIMER_IDLE, 0);
	quic_timer_reset(t, QUIC_TIMER_PATH, 0);
	KUNIT_ASSERT_TRUE(test, timer_wait_deferred(t, QUIC_TIMER_IDLE));
	KUNIT_ASSERT_TRUE(test, timer_wait_deferred(t, QUIC_TIMER_PATH));
	quic_timer_reset(t, QUIC_TIMER_IDLE, 10 * USEC_PER_SEC);
	quic_timer_stop(t, QUIC_TIMER_PATH);
	KUNIT_EXPECT_FALSE(test, test_bit(QUIC_TIMER_IDLE, &t->deferred));
	KUNIT_EXPECT_FALSE(test, test_bit(QUIC_TIMER_PATH, &t->deferred));
	release_sock(sk);

	KUNIT_EXPECT_EQ(test, atomic_read(&timer_fired[QUIC_TIMER_IDLE]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&timer_fired[QUIC_TIMER_PATH]), 0);
	KUNIT_EXPECT_TRUE(test, quic_timer_pending(t, QUIC_TIMER_IDLE));
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref + 1);
	quic_timer_stop(t, QUIC_TIMER_IDLE);
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref);
}

/*
 * A deferred expiry that the owner's new deadline does not put later still
 * runs from release_sock(): a reduce (the ACK that was due is not put
 * off), or a reset to a deadline already due (the loss detection timer
 * re-armed for a PTO time that has passed).
 */
static void timer_deferred_expiry_kept_when_still_due(struct kunit *test)
{
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	int ref = refcount_read(&sk->sk_refcnt);

	lock_sock(sk);
	quic_timer_reduce(t, QUIC_TIMER_ACK, 0);
	quic_timer_reset(t, QUIC_TIMER_LOSS, 0);
	KUNIT_ASSERT_TRUE(test, timer_wait_deferred(t, QUIC_TIMER_ACK));
	KUNIT_ASSERT_TRUE(test, timer_wait_deferred(t, QUIC_TIMER_LOSS));
	quic_timer_reduce(t, QUIC_TIMER_ACK, 10 * USEC_PER_SEC);
	quic_timer_reset(t, QUIC_TIMER_LOSS, 0);
	release_sock(sk);

	KUNIT_EXPECT_EQ(test, atomic_read(&timer_fired[QUIC_TIMER_ACK]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&timer_fired[QUIC_TIMER_LOSS]), 1);
	KUNIT_EXPECT_FALSE(test, quic_timer_pending(t, QUIC_TIMER_LOSS));
	quic_timer_stop(t, QUIC_TIMER_ACK);
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref);
}

/*
 * Between the timer core taking an expired timer off its queue and the
 * expiry reaching the socket lock, the timer is neither pending nor
 * deferred, yet its handler will run: it is still armed (on SMP the window
 * is real; the loss detection timer invariant found it on arm64 with two
 * CPUs). The case takes the timer off the queue itself, then runs the
 * expiry as the timer core would.
 */
static void timer_armed_until_its_handler_runs(struct kunit *test)
{
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	struct timer_list *tl = &t->timer[QUIC_TIMER_LOSS];
	int ref = refcount_read(&sk->sk_refcnt);

	quic_timer_reset(t, QUIC_TIMER_LOSS, 10 * USEC_PER_SEC);
	KUNIT_ASSERT_TRUE(test, timer_delete(tl));
	KUNIT_EXPECT_FALSE(test, quic_timer_pending(t, QUIC_TIMER_LOSS));
	KUNIT_EXPECT_TRUE(test, quic_timer_armed(t, QUIC_TIMER_LOSS));
	local_bh_disable();
	tl->function(tl);
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, atomic_read(&timer_fired[QUIC_TIMER_LOSS]), 1);
	KUNIT_EXPECT_FALSE(test, quic_timer_armed(t, QUIC_TIMER_LOSS));
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref);

	/* Armed again while that expiry waited: the new deadline stands. */
	quic_timer_reset(t, QUIC_TIMER_LOSS, 10 * USEC_PER_SEC);
	KUNIT_ASSERT_TRUE(test, timer_delete(tl));
	quic_timer_reset(t, QUIC_TIMER_LOSS, 10 * USEC_PER_SEC);
	local_bh_disable();
	tl->function(tl);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, quic_timer_pending(t, QUIC_TIMER_LOSS));
	KUNIT_EXPECT_TRUE(test, quic_timer_armed(t, QUIC_TIMER_LOSS));
	quic_timer_stop(t, QUIC_TIMER_LOSS);
	KUNIT_EXPECT_FALSE(test, quic_timer_armed(t, QUIC_TIMER_LOSS));
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref);
}

static void timer_pace_hrtimer_fires_once(struct kunit *test)
{
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	int ref = refcount_read(&sk->sk_refcnt);
	ktime_t when = ktime_add_us(ktime_get(), 1000);

	quic_timer_start_pace(t, when);
	/* Already queued: the second start changes nothing. */
	quic_timer_start_pace(t, when);
	KUNIT_EXPECT_TRUE(test, quic_timer_pending(t, QUIC_TIMER_PACE));
	KUNIT_EXPECT_LE(test, refcount_read(&sk->sk_refcnt), ref + 1);

	KUNIT_ASSERT_TRUE(test, timer_wait_fired(QUIC_TIMER_PACE, 1));
	KUNIT_ASSERT_TRUE(test, timer_wait_ref(sk, ref));
	KUNIT_EXPECT_FALSE(test, quic_timer_pending(t, QUIC_TIMER_PACE));
}

static void timer_pace_stop_cancels(struct kunit *test)
{
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	int ref = refcount_read(&sk->sk_refcnt);

	quic_timer_start_pace(t, ktime_add_ms(ktime_get(), 10000));
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref + 1);
	quic_timer_stop(t, QUIC_TIMER_PACE);
	KUNIT_EXPECT_FALSE(test, quic_timer_pending(t, QUIC_TIMER_PACE));
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref);
}

static void timer_stop_all_drops_timers_and_deferred_expiries(struct kunit *test)
{
	struct sock *sk = timer_sk(test);
	struct quic_timers *t = quic_timers(sk);
	int ref = refcount_read(&sk->sk_refcnt);
	u8 i;

	lock_sock(sk);
	quic_timer_reset(t, QUIC_TIMER_PATH, 0);
	KUNIT_ASSERT_TRUE(test, timer_wait_deferred(t, QUIC_TIMER_PATH));
	for (i = 0; i < QUIC_TIMER_PACE; i++)
		if (i != QUIC_TIMER_PATH)
			quic_timer_reset(t, i, 10 * USEC_PER_SEC);
	quic_timer_start_pace(t, ktime_add_ms(ktime_get(), 10000));

	quic_timer_stop_all(t);
	for (i = 0; i < QUIC_TIMER_MAX; i++)
		KUNIT_EXPECT_FALSE(test, quic_timer_pending(t, i));
	KUNIT_EXPECT_EQ(test, t->deferred, 0UL);
	KUNIT_EXPECT_EQ(test, refcount_read(&sk->sk_refcnt), ref);
	release_sock(sk);
	/* The forgotten expiry does not run at release either. */
	KUNIT_EXPECT_EQ(test, atomic_read(&timer_fired[QUIC_TIMER_PATH]), 0);
}

static void timer_release_with_armed_timers_runs_nothing_after(struct kunit *test)
{
	struct socket *sock = NULL;
	struct quic_timers *t;
	int i, fired[QUIC_TIMER_MAX];

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET6, SOCK_STREAM, IPPROTO_QUIC,
					       &sock), 0);
	t = quic_timers(sock->sk);
	quic_timer_init(sock->sk, t, &timer_test_ops);
	for (i = 0; i < QUIC_TIMER_PACE; i++)
		quic_timer_reset(t, i, 0);
	quic_timer_start_pace(t, ktime_add_us(ktime_get(), 100));

	/* close() stops every timer; the socket is freed right after. */
	sock_release(sock);
	for (i = 0; i < QUIC_TIMER_MAX; i++)
		fired[i] = atomic_read(&timer_fired[i]);
	msleep(50);
	for (i = 0; i < QUIC_TIMER_MAX; i++)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&timer_fired[i]), fired[i], "timer %d", i);
}

static struct kunit_case timer_cases[] = {
	KUNIT_CASE(timer_arm_and_stop_balance_references),
	KUNIT_CASE(timer_reduce_only_moves_earlier),
	KUNIT_CASE(timer_longest_delay_is_an_hour),
	KUNIT_CASE(timer_expiry_runs_handler_and_drops_reference),
	KUNIT_CASE(timer_expiry_on_owned_socket_waits_for_release),
	KUNIT_CASE(timer_deferred_expiry_dropped_when_rearmed_or_stopped),
	KUNIT_CASE(timer_deferred_expiry_kept_when_still_due),
	KUNIT_CASE(timer_armed_until_its_handler_runs),
	KUNIT_CASE(timer_pace_hrtimer_fires_once),
	KUNIT_CASE(timer_pace_stop_cancels),
	KUNIT_CASE(timer_stop_all_drops_timers_and_deferred_expiries),
	KUNIT_CASE(timer_release_with_armed_timers_runs_nothing_after),
	{}
};

static struct kunit_suite timer_suite = {
	.name = "quic_timer",
	.init = timer_test_init,
	.test_cases = timer_cases,
};

kunit_test_suite(timer_suite);
