// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_plpmtud: the PLPMTUD state machine of RFC 8899 Section
 * 5.2 as QUIC uses it (RFC 9000 Section 14.3), driven through traces of
 * events, each step checking the state, the PLPMTU, the next probe size
 * and the PLPMTU reported to the caller.
 *
 * Constants: BASE_PLPMTU = MIN_PLPMTU = 1200 (RFC 9000 Section 14.3),
 * MAX_PROBES = 3 (RFC 8899 Section 5.1.2), MAX_PLPMTU = 9000 unless a
 * trace lowers it. The search is this implementation's choice (RFC 8899
 * Section 5.3.2): MAX_PLPMTU first; once a size failed, halfway between
 * the PLPMTU and the smallest failed size, rounded down to a multiple of
 * 4 (QUIC_PL_MIN_STEP), until the two are 4 bytes apart. Every expected
 * value below follows from these rules, step by step.
 *
 * Transitions of Figure 5 and the trace covering each:
 *   DISABLED -> BASE (connectivity)                      max, timer, disabled
 *   BASE -> BASE (PROBE_TIMER, PROBE_COUNT < MAX_PROBES)  error
 *   BASE -> SEARCHING (BASE_PLPMTU probe acked)           max
 *   BASE -> ERROR (PROBE_COUNT = MAX_PROBES)              error
 *     (PTB < BASE_PLPMTU is ignored by QUIC: RFC 9000 Section 14.2.1, ptb_black_hole)
 *   ERROR -> SEARCHING (BASE_PLPMTU probe acked)          error
 *   SEARCHING -> SEARCHING (probe acked)                  max
 *   SEARCHING -> SEARCHING (PROBE_TIMER, < MAX_PROBES)    timer
 *   SEARCHING -> SEARCHING (PLPMTU < PTB < PROBED_SIZE)   ptb_lowers_probe
 *   SEARCHING -> SEARCH_COMPLETE (MAX_PLPMTU acked)       max
 *   SEARCHING -> SEARCH_COMPLETE (PROBE_COUNT = MAX)      timer
 *   SEARCHING -> SEARCH_COMPLETE (PTB = PLPMTU)           ptb_equals_pmtu
 *   SEARCHING -> BASE (black hole)                        black_hole_search, ptb_black_hole
 *   SEARCH_COMPLETE -> SEARCHING (PMTU_RAISE_TIMER)       ptb_equals_pmtu, raise
 *   SEARCH_COMPLETE -> BASE (black hole)                  black_hole_complete, ptb_black_hole
 *   SEARCH_COMPLETE -> SEARCH_COMPLETE (CONFIRMATION_TIMER) is not used by
 *     an acknowledged PL (RFC 9000 Section 14.3.2): probes are ignored there (max)
 *   any -> DISABLED (loss of connectivity)                disabled
 */

#include <kunit/test.h>

#include "../pmtu.h"

enum pl_event {
	EV_START,	/* PL indicates connectivity */
	EV_STOP,	/* PL indicates loss of connectivity */
	EV_SENT,	/* probe sent with packet number arg */
	EV_ACK,		/* ACK range [arg, arg] received */
	EV_TIMEOUT,	/* PROBE_TIMER expiry */
	EV_PTB,		/* validated PTB, PL_PTB_SIZE = arg */
	EV_HOLE,	/* black hole detected by the PL */
	EV_RAISE,	/* PMTU_RAISE_TIMER expiry */
	EV_MAX,		/* MAX_PLPMTU set to arg */
};

struct pl_step {
	u8 event;
	u32 arg;
	u32 ret;	/* PLPMTU reported to the caller, 0 = unchanged */
	u8 state;
	u16 pmtu;
	u16 probe;
};

#define STEP(ev, a, r, st, p, pr) \
	{ .event = EV_##ev, .arg = a, .ret = r, .state = QUIC_PL_##st, .pmtu = p, .probe = pr }

struct pl_trace {
	const char *desc;
	const struct pl_step *steps;
	unsigned int n;
};

/* Search from BASE up to a MAX_PLPMTU of 1300: the maximum is probed first. */
static const struct pl_step pl_max[] = {
	STEP(MAX, 1300, 0, DISABLED, 1200, 1200),
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 0, 0, BASE, 1200, 1200),		/* packet number 0 is a valid probe */
	STEP(ACK, 0, 0, SEARCH, 1200, 1300),		/* 1200 confirmed, same PLPMTU */
	STEP(SENT, 1, 0, SEARCH, 1200, 1300),
	STEP(ACK, 1, 1300, COMPLETE, 1300, 1300),	/* MAX_PLPMTU acked */
	STEP(SENT, 2, 0, COMPLETE, 1300, 1300),		/* no probing in SEARCH_COMPLETE */
	STEP(ACK, 2, 0, COMPLETE, 1300, 1300),
};

/* Probe loss: MAX_PROBES losses of a size make it the upper bound, and the
 * search goes halfway between the PLPMTU and it.
 */
static const struct pl_step pl_timer[] = {
	STEP(MAX, 1264, 0, DISABLED, 1200, 1200),
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 10, 0, BASE, 1200, 1200),
	STEP(ACK, 10, 0, SEARCH, 1200, 1264),
	STEP(SENT, 11, 0, SEARCH, 1200, 1264),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1264),	/* PROBE_COUNT 1 */
	STEP(SENT, 12, 0, SEARCH, 1200, 1264),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1264),	/* PROBE_COUNT 2 */
	STEP(SENT, 13, 0, SEARCH, 1200, 1264),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1232),	/* 3: bound 1264, (1200 + 1264) / 2 */
	STEP(SENT, 14, 0, SEARCH, 1200, 1232),
	STEP(ACK, 14, 1232, SEARCH, 1232, 1248),	/* (1232 + 1264) / 2 */
	STEP(SENT, 15, 0, SEARCH, 1232, 1248),
	STEP(ACK, 15, 1248, SEARCH, 1248, 1256),
	STEP(SENT, 16, 0, SEARCH, 1248, 1256),
	STEP(TIMEOUT, 0, 0, SEARCH, 1248, 1256),
	STEP(SENT, 17, 0, SEARCH, 1248, 1256),
	STEP(TIMEOUT, 0, 0, SEARCH, 1248, 1256),
	STEP(SENT, 18, 0, SEARCH, 1248, 1256),
	STEP(TIMEOUT, 0, 0, SEARCH, 1248, 1252),	/* bound 1256 */
	STEP(SENT, 19, 0, SEARCH, 1248, 1252),
	STEP(ACK, 19, 1252, COMPLETE, 1252, 1252),	/* 4 bytes below the bound: done */
	STEP(ACK, 18, 0, COMPLETE, 1252, 1252),		/* a late ACK changes nothing */
};

/* BASE_PLPMTU not confirmed: ERROR, left when a BASE_PLPMTU probe gets through. */
static const struct pl_step pl_error[] = {
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 1, 0, BASE, 1200, 1200),
	STEP(TIMEOUT, 0, 0, BASE, 1200, 1200),		/* PROBE_COUNT 1 < MAX_PROBES */
	STEP(SENT, 2, 0, BASE, 1200, 1200),
	STEP(TIMEOUT, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 3, 0, BASE, 1200, 1200),
	STEP(TIMEOUT, 0, 0, ERROR, 1200, 1200),		/* PROBE_COUNT = MAX_PROBES */
	STEP(TIMEOUT, 0, 0, ERROR, 1200, 1200),		/* no probe in flight: ignored */
	STEP(SENT, 4, 0, ERROR, 1200, 1200),
	STEP(TIMEOUT, 0, 0, ERROR, 1200, 1200),
	STEP(SENT, 5, 0, ERROR, 1200, 1200),
	STEP(TIMEOUT, 0, 0, ERROR, 1200, 1200),
	STEP(SENT, 6, 0, ERROR, 1200, 1200),
	STEP(TIMEOUT, 0, 0, ERROR, 1200, 1200),		/* ERROR keeps probing 1200 */
	STEP(PTB, 1100, 0, ERROR, 1200, 1200),		/* below MIN_PLPMTU: ignored */
	STEP(HOLE, 0, 0, ERROR, 1200, 1200),		/* already at BASE_PLPMTU */
	STEP(SENT, 7, 0, ERROR, 1200, 1200),
	STEP(ACK, 7, 0, SEARCH, 1200, 9000),		/* BASE_PLPMTU probe acked */
};

/* Black hole while SEARCHING: back to BASE_PLPMTU, the bound forgotten. */
static const struct pl_step pl_black_hole_search[] = {
	STEP(MAX, 1300, 0, DISABLED, 1200, 1200),
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 1, 0, BASE, 1200, 1200),
	STEP(ACK, 1, 0, SEARCH, 1200, 1300),
	STEP(SENT, 2, 0, SEARCH, 1200, 1300),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1300),
	STEP(SENT, 3, 0, SEARCH, 1200, 1300),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1300),
	STEP(SENT, 4, 0, SEARCH, 1200, 1300),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1248),	/* 1250 rounded down to 4 bytes */
	STEP(SENT, 5, 0, SEARCH, 1200, 1248),
	STEP(ACK, 5, 1248, SEARCH, 1248, 1272),		/* 1274 rounded down */
	STEP(SENT, 6, 0, SEARCH, 1248, 1272),
	STEP(HOLE, 0, 1200, BASE, 1200, 1200),
	STEP(ACK, 6, 0, BASE, 1200, 1200),		/* the abandoned probe no longer counts */
	STEP(SENT, 7, 0, BASE, 1200, 1200),
	STEP(ACK, 7, 0, SEARCH, 1200, 1300),		/* the maximum first again */
};

/* Black hole in SEARCH_COMPLETE: back to BASE_PLPMTU. */
static const struct pl_step pl_black_hole_complete[] = {
	STEP(MAX, 1232, 0, DISABLED, 1200, 1200),
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 1, 0, BASE, 1200, 1200),
	STEP(ACK, 1, 0, SEARCH, 1200, 1232),
	STEP(SENT, 2, 0, SEARCH, 1200, 1232),
	STEP(ACK, 2, 1232, COMPLETE, 1232, 1232),
	STEP(HOLE, 0, 1200, BASE, 1200, 1200),
	STEP(HOLE, 0, 0, BASE, 1200, 1200),		/* BASE already uses 1200 */
};

/* RFC 8899 Section 4.6.2: PTB sizes that are ignored, and one that lowers the probe. */
static const struct pl_step pl_ptb_lowers_probe[] = {
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 1, 0, BASE, 1200, 1200),
	STEP(ACK, 1, 0, SEARCH, 1200, 9000),
	STEP(SENT, 2, 0, SEARCH, 1200, 9000),
	STEP(PTB, 1199, 0, SEARCH, 1200, 9000),		/* < BASE_PLPMTU (RFC 9000 14.2.1) */
	STEP(PTB, 9000, 0, SEARCH, 1200, 9000),		/* = PROBED_SIZE: inconsistent */
	STEP(PTB, 9500, 0, SEARCH, 1200, 9000),		/* > PROBED_SIZE: inconsistent */
	STEP(PTB, 1250, 0, SEARCH, 1200, 1250),		/* PLPMTU < PTB < PROBED_SIZE */
	STEP(ACK, 2, 0, SEARCH, 1200, 1250),		/* the 9000 probe was lost */
	STEP(SENT, 3, 0, SEARCH, 1200, 1250),
	STEP(ACK, 3, 1250, COMPLETE, 1250, 1250),	/* nothing fits between 1250 and it */
};

/* PTB reporting exactly the PLPMTU ends the search; the raise timer restarts it. */
static const struct pl_step pl_ptb_equals_pmtu[] = {
	STEP(MAX, 1300, 0, DISABLED, 1200, 1200),
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 1, 0, BASE, 1200, 1200),
	STEP(ACK, 1, 0, SEARCH, 1200, 1300),
	STEP(SENT, 2, 0, SEARCH, 1200, 1300),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1300),
	STEP(SENT, 3, 0, SEARCH, 1200, 1300),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1300),
	STEP(SENT, 4, 0, SEARCH, 1200, 1300),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1248),
	STEP(SENT, 5, 0, SEARCH, 1200, 1248),
	STEP(ACK, 5, 1248, SEARCH, 1248, 1272),
	STEP(SENT, 6, 0, SEARCH, 1248, 1272),
	STEP(PTB, 1248, 0, COMPLETE, 1248, 1248),	/* PL_PTB_SIZE = PLPMTU */
	STEP(RAISE, 0, 0, SEARCH, 1248, 1300),		/* bound forgotten: the maximum */
};

/* PTB below the PLPMTU is a black hole, in SEARCHING and in SEARCH_COMPLETE. */
static const struct pl_step pl_ptb_black_hole[] = {
	STEP(MAX, 1300, 0, DISABLED, 1200, 1200),
	STEP(PTB, 1250, 0, DISABLED, 1200, 1200),	/* not probing: ignored */
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(PTB, 1199, 0, BASE, 1200, 1200),		/* QUIC never enters ERROR on a PTB */
	STEP(PTB, 1200, 0, BASE, 1200, 1200),
	STEP(SENT, 1, 0, BASE, 1200, 1200),
	STEP(ACK, 1, 0, SEARCH, 1200, 1300),
	STEP(SENT, 2, 0, SEARCH, 1200, 1300),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1300),
	STEP(SENT, 3, 0, SEARCH, 1200, 1300),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1300),
	STEP(SENT, 4, 0, SEARCH, 1200, 1300),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 1248),
	STEP(SENT, 5, 0, SEARCH, 1200, 1248),
	STEP(ACK, 5, 1248, SEARCH, 1248, 1272),
	STEP(SENT, 6, 0, SEARCH, 1248, 1272),
	STEP(PTB, 1220, 1200, BASE, 1200, 1200),	/* BASE_PLPMTU <= PTB < PLPMTU */
	STEP(SENT, 7, 0, BASE, 1200, 1200),
	STEP(ACK, 7, 0, SEARCH, 1200, 1300),
	STEP(SENT, 8, 0, SEARCH, 1200, 1300),
	STEP(ACK, 8, 1300, COMPLETE, 1300, 1300),
	STEP(PTB, 1300, 0, COMPLETE, 1300, 1300),	/* not below the PLPMTU: ignored */
	STEP(PTB, 1250, 1200, BASE, 1200, 1200),
};

/* PMTU_RAISE_TIMER only acts in SEARCH_COMPLETE below MAX_PLPMTU. */
static const struct pl_step pl_raise[] = {
	STEP(RAISE, 0, 0, DISABLED, 1200, 1200),
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(RAISE, 0, 0, BASE, 1200, 1200),
	STEP(MAX, 1232, 0, BASE, 1200, 1200),
	STEP(SENT, 1, 0, BASE, 1200, 1200),
	STEP(ACK, 1, 0, SEARCH, 1200, 1232),
	STEP(RAISE, 0, 0, SEARCH, 1200, 1232),
	STEP(SENT, 2, 0, SEARCH, 1200, 1232),
	STEP(ACK, 2, 1232, COMPLETE, 1232, 1232),
	STEP(RAISE, 0, 0, COMPLETE, 1232, 1232),	/* PLPMTU = MAX_PLPMTU */
	STEP(MAX, 1300, 0, COMPLETE, 1232, 1232),
	STEP(RAISE, 0, 0, SEARCH, 1232, 1300),
	STEP(SENT, 3, 0, SEARCH, 1232, 1300),
	STEP(ACK, 3, 1300, COMPLETE, 1300, 1300),
};

/* Loss of connectivity disables probing from any state. */
static const struct pl_step pl_disabled[] = {
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 1, 0, BASE, 1200, 1200),
	STEP(ACK, 1, 0, SEARCH, 1200, 9000),
	STEP(SENT, 2, 0, SEARCH, 1200, 9000),
	STEP(STOP, 0, 0, DISABLED, 1200, 1200),		/* the PLPMTU was still 1200 */
	STEP(ACK, 2, 0, DISABLED, 1200, 1200),
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 3, 0, BASE, 1200, 1200),
	STEP(ACK, 3, 0, SEARCH, 1200, 9000),
	STEP(SENT, 4, 0, SEARCH, 1200, 9000),
	STEP(ACK, 4, 9000, COMPLETE, 9000, 9000),
	STEP(STOP, 0, 1200, DISABLED, 1200, 1200),
	STEP(TIMEOUT, 0, 0, DISABLED, 1200, 1200),
	STEP(SENT, 5, 0, DISABLED, 1200, 1200),
	STEP(ACK, 5, 0, DISABLED, 1200, 1200),
	STEP(HOLE, 0, 0, DISABLED, 1200, 1200),
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(STOP, 0, 0, DISABLED, 1200, 1200),
};

/* MAX_PLPMTU lowered under the PLPMTU and the probe, then clamped. */
static const struct pl_step pl_lower_max[] = {
	STEP(START, 0, 0, BASE, 1200, 1200),
	STEP(SENT, 1, 0, BASE, 1200, 1200),
	STEP(ACK, 1, 0, SEARCH, 1200, 9000),
	STEP(SENT, 2, 0, SEARCH, 1200, 9000),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 9000),
	STEP(SENT, 3, 0, SEARCH, 1200, 9000),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 9000),
	STEP(SENT, 4, 0, SEARCH, 1200, 9000),
	STEP(TIMEOUT, 0, 0, SEARCH, 1200, 5100),	/* (1200 + 9000) / 2 */
	STEP(SENT, 5, 0, SEARCH, 1200, 5100),
	STEP(ACK, 5, 5100, SEARCH, 5100, 7048),		/* 7050 rounded down */
	STEP(SENT, 6, 0, SEARCH, 5100, 7048),
	STEP(MAX, 1250, 1250, COMPLETE, 1250, 1250),	/* PLPMTU = MAX_PLPMTU */
	STEP(ACK, 6, 0, COMPLETE, 1250, 1250),		/* probe above the maximum dropped */
	STEP(MAX, 100, 1200, COMPLETE, 1200, 1200),	/* clamped to BASE_PLPMTU */
	STEP(MAX, 20000, 0, COMPLETE, 1200, 1200),	/* clamped to 9000 */
	STEP(RAISE, 0, 0, SEARCH, 1200, 9000),
};

static const struct pl_trace pl_traces[] = {
	{ "RFC 8899 5.2 BASE to SEARCHING to SEARCH_COMPLETE at MAX_PLPMTU",
	  pl_max, ARRAY_SIZE(pl_max) },
	{ "RFC 8899 5.3.1 probe losses lower the upper bound",
	  pl_timer, ARRAY_SIZE(pl_timer) },
	{ "RFC 8899 5.2 BASE to ERROR and back to SEARCHING",
	  pl_error, ARRAY_SIZE(pl_error) },
	{ "RFC 8899 4.3 black hole in SEARCHING",
	  pl_black_hole_search, ARRAY_SIZE(pl_black_hole_search) },
	{ "RFC 8899 4.3 black hole in SEARCH_COMPLETE",
	  pl_black_hole_complete, ARRAY_SIZE(pl_black_hole_complete) },
	{ "RFC 8899 4.6.2 PTB between PLPMTU and PROBED_SIZE",
	  pl_ptb_lowers_probe, ARRAY_SIZE(pl_ptb_lowers_probe) },
	{ "RFC 8899 4.6.2 PTB equal to PLPMTU then raise",
	  pl_ptb_equals_pmtu, ARRAY_SIZE(pl_ptb_equals_pmtu) },
	{ "RFC 9000 14.2.1 PTB below PLPMTU or BASE_PLPMTU",
	  pl_ptb_black_hole, ARRAY_SIZE(pl_ptb_black_hole) },
	{ "RFC 8899 5.1.1 PMTU_RAISE_TIMER",
	  pl_raise, ARRAY_SIZE(pl_raise) },
	{ "RFC 8899 5.2 DISABLED on loss of connectivity",
	  pl_disabled, ARRAY_SIZE(pl_disabled) },
	{ "RFC 8899 5.1.2 MAX_PLPMTU lowered",
	  pl_lower_max, ARRAY_SIZE(pl_lower_max) },
};

KUNIT_ARRAY_PARAM_DESC(plpmtud_traces, pl_traces, desc);

static u32 pl_apply(struct quic_plpmtud *pl, const struct pl_step *s)
{
	switch (s->event) {
	case EV_START:
		return quic_plpmtud_start(pl);
	case EV_STOP:
		return quic_plpmtud_stop(pl);
	case EV_SENT:
		quic_plpmtud_sent(pl, s->arg);
		return 0;
	case EV_ACK:
		return quic_plpmtud_ack(pl, s->arg, s->arg);
	case EV_TIMEOUT:
		return quic_plpmtud_timeout(pl);
	case EV_PTB:
		return quic_plpmtud_toobig(pl, s->arg);
	case EV_HOLE:
		return quic_plpmtud_black_hole(pl);
	case EV_RAISE:
		return quic_plpmtud_raise(pl);
	case EV_MAX:
		return quic_plpmtud_set_max(pl, s->arg);
	}
	return U32_MAX;
}

static void plpmtud_trace_follows_rfc8899(struct kunit *test)
{
	const struct pl_trace *t = test->param_value;
	struct quic_plpmtud pl;
	unsigned int i;

	quic_plpmtud_init(&pl);
	for (i = 0; i < t->n; i++) {
		const struct pl_step *s = &t->steps[i];
		u32 ret = pl_apply(&pl, s);

		KUNIT_ASSERT_EQ_MSG(test, ret, s->ret, "step %u: reported PLPMTU", i);
		KUNIT_ASSERT_EQ_MSG(test, quic_plpmtud_state(&pl), s->state, "step %u: state", i);
		KUNIT_ASSERT_EQ_MSG(test, quic_plpmtud_pmtu(&pl), s->pmtu, "step %u: PLPMTU", i);
		KUNIT_ASSERT_EQ_MSG(test, quic_plpmtud_probe_size(&pl), s->probe,
				    "step %u: PROBED_SIZE", i);
	}
}

/* RFC 8899 Section 5.2: DISABLED is the initial state, BASE_PLPMTU 1200 (RFC 9000 14.3). */
static void plpmtud_init_starts_disabled_at_base(struct kunit *test)
{
	struct quic_plpmtud pl;

	quic_plpmtud_init(&pl);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_state(&pl), QUIC_PL_DISABLED);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_pmtu(&pl), 1200);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_probe_size(&pl), 1200);
	KUNIT_EXPECT_EQ(test, pl.max, 9000);
	KUNIT_EXPECT_FALSE(test, quic_plpmtud_need_probe(&pl));

	quic_plpmtud_start(&pl);
	KUNIT_EXPECT_TRUE(test, quic_plpmtud_need_probe(&pl));
	quic_plpmtud_sent(&pl, 7);
	KUNIT_EXPECT_FALSE(test, quic_plpmtud_need_probe(&pl));
}

/* RFC 8899 Section 4.1: a probe is confirmed by the ACK of its own packet number. */
static void plpmtud_confirm_matches_ack_range(struct kunit *test)
{
	struct quic_plpmtud pl;

	quic_plpmtud_init(&pl);
	quic_plpmtud_start(&pl);
	KUNIT_EXPECT_FALSE(test, quic_plpmtud_confirm(&pl, 100, 0));	/* none sent */

	quic_plpmtud_sent(&pl, 100);
	KUNIT_EXPECT_TRUE(test, quic_plpmtud_confirm(&pl, 100, 100));
	KUNIT_EXPECT_TRUE(test, quic_plpmtud_confirm(&pl, 105, 90));
	KUNIT_EXPECT_FALSE(test, quic_plpmtud_confirm(&pl, 99, 90));
	KUNIT_EXPECT_FALSE(test, quic_plpmtud_confirm(&pl, 200, 101));
	KUNIT_EXPECT_EQ(test, quic_plpmtud_ack(&pl, 99, 0), 0);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_state(&pl), QUIC_PL_BASE);

	/* Only the latest probe is tracked. */
	quic_plpmtud_sent(&pl, 120);
	KUNIT_EXPECT_FALSE(test, quic_plpmtud_confirm(&pl, 100, 100));
	KUNIT_EXPECT_EQ(test, quic_plpmtud_ack(&pl, 125, 110), 0);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_state(&pl), QUIC_PL_SEARCH);
	KUNIT_EXPECT_FALSE(test, quic_plpmtud_confirm(&pl, 125, 110));

	/* A negative packet number is no probe. */
	quic_plpmtud_sent(&pl, -1);
	KUNIT_EXPECT_TRUE(test, quic_plpmtud_need_probe(&pl));
}

/* Run probes until the search ends on a path carrying up to @path_mtu:
 * a probe no larger is acknowledged, a larger one lost. Return: probes sent.
 */
static unsigned int pl_search(struct quic_plpmtud *pl, u32 path_mtu)
{
	unsigned int probes = 0;
	s64 pn = 0;

	quic_plpmtud_init(pl);
	quic_plpmtud_start(pl);
	while (quic_plpmtud_need_probe(pl) && probes < 1000) {
		quic_plpmtud_sent(pl, pn);
		if (quic_plpmtud_probe_size(pl) <= path_mtu)
			quic_plpmtud_ack(pl, pn, pn);
		else
			quic_plpmtud_timeout(pl);
		pn++;
		probes++;
	}
	return probes;
}

/* A path that carries MAX_PLPMTU 9000: BASE, then 9000 itself. */
static void plpmtud_search_reaches_9000_in_two_probes(struct kunit *test)
{
	struct quic_plpmtud pl;

	KUNIT_EXPECT_EQ(test, pl_search(&pl, 9000), 2);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_state(&pl), QUIC_PL_COMPLETE);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_pmtu(&pl), 9000);
}

/*
 * A 1452-byte path below a 9000 limit: BASE, then 9000, 5100, 3148, 2172
 * and 1684 lost (3 probes each), 1440 acked, 1560, 1500 and 1468 lost,
 * 1452 acked, 1460 and 1456 lost: 1 + 10 * 3 + 2 probes over 12 sizes
 * (32-byte steps took 18 probes here, but 245 to reach 9000).
 */
static void plpmtud_search_finds_a_smaller_path_by_halving(struct kunit *test)
{
	struct quic_plpmtud pl;

	KUNIT_EXPECT_EQ(test, pl_search(&pl, 1452), 33);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_state(&pl), QUIC_PL_COMPLETE);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_pmtu(&pl), 1452);
	/* Any path: the largest multiple of 4 it carries. */
	pl_search(&pl, 3001);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_pmtu(&pl), 3000);
	pl_search(&pl, 1203);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_pmtu(&pl), 1200);
}

static struct kunit_case plpmtud_cases[] = {
	KUNIT_CASE(plpmtud_init_starts_disabled_at_base),
	KUNIT_CASE(plpmtud_confirm_matches_ack_range),
	KUNIT_CASE_PARAM(plpmtud_trace_follows_rfc8899, plpmtud_traces_gen_params),
	KUNIT_CASE(plpmtud_search_reaches_9000_in_two_probes),
	KUNIT_CASE(plpmtud_search_finds_a_smaller_path_by_halving),
	{}
};

static struct kunit_suite plpmtud_suite = {
	.name = "quic_plpmtud",
	.test_cases = plpmtud_cases,
};

kunit_test_suite(plpmtud_suite);
