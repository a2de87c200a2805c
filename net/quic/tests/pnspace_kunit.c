// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_pnspace: packet number spaces (RFC 9000 Section 12.3,
 * RFC 9002 Section 4.1), the received-packet map and the ACK ranges built
 * from it (RFC 9000 Sections 13.2.3 and 19.3.1), the window advance, the
 * packet numbers to send and the ECN counters (RFC 9000 Section 13.4).
 *
 * Time is handed to the space explicitly, so no case sleeps.
 */

#include <kunit/test.h>
#include <net/inet_ecn.h>

#include "../pnspace.h"

KUNIT_DEFINE_ACTION_WRAPPER(pnspace_free_action, quic_pnspace_free, struct quic_pnspace *);

static struct quic_pnspace *pnspace_new(struct kunit *test)
{
	struct quic_pnspace *space;

	space = kunit_kzalloc(test, sizeof(*space), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, space);
	KUNIT_ASSERT_EQ(test, quic_pnspace_init(space, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, pnspace_free_action, space), 0);
	return space;
}

static struct quic_ack_info *ack_info_new(struct kunit *test)
{
	struct quic_ack_info *info;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, info);
	return info;
}

static void mark_all(struct kunit *test, struct quic_pnspace *space, const s64 *pns, int n)
{
	int i;

	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ_MSG(test, quic_pnspace_mark(space, pns[i], 0), 0, "pn %lld",
				    pns[i]);
}

static void pnspace_new_space_is_empty(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	struct quic_ack_info *info = ack_info_new(test);

	KUNIT_EXPECT_FALSE(test, quic_pnspace_has_received(space));
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 0), 0);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 123456), 0);
	KUNIT_EXPECT_EQ(test, quic_pnspace_ack_info(space, info), -ENODATA);
	KUNIT_EXPECT_EQ(test, space->pn_map_len, QUIC_PN_MAP_INITIAL);
	KUNIT_EXPECT_EQ(test, space->max_time_limit, (u64)QUIC_PNSPACE_TIME_LIMIT);
	KUNIT_EXPECT_EQ(test, space->max_pn_acked_seen, -1LL);
	KUNIT_EXPECT_FALSE(test, quic_pnspace_has_ecn_count(space));
}

static void pnspace_rejects_numbers_outside_2_62(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);

	/* RFC 9000 Section 12.3: packet numbers are 0 to 2^62 - 1. */
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 1LL << 62), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_pnspace_mark(space, 1LL << 62, 0), -EINVAL);
	KUNIT_EXPECT_FALSE(test, quic_pnspace_has_received(space));
	KUNIT_EXPECT_EQ(test, quic_pnspace_mark(space, (1LL << 62) - 1, 0), 0);
	KUNIT_EXPECT_EQ(test, space->max_pn_seen, (1LL << 62) - 1);
}

static void pnspace_in_order_marks_keep_map_empty(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	int pn;

	for (pn = 0; pn < 200; pn++)
		KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, pn, pn), 0);

	KUNIT_EXPECT_EQ(test, space->base_pn, 200LL);
	KUNIT_EXPECT_EQ(test, space->max_pn_seen, 199LL);
	KUNIT_EXPECT_EQ(test, space->max_pn_time, 199ULL);
	KUNIT_EXPECT_FALSE(test, quic_pnspace_has_gap(space));
	/* In-order packets never need a bit, so the map never grew. */
	KUNIT_EXPECT_EQ(test, space->pn_map_len, QUIC_PN_MAP_INITIAL);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(space->pn_map, space->pn_map_len));
}

static void pnspace_out_of_order_marks_fill_gaps(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);

	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 3, 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 2, 0), 0);
	KUNIT_EXPECT_EQ(test, space->base_pn, 1LL);
	KUNIT_EXPECT_TRUE(test, quic_pnspace_has_gap(space));
	KUNIT_EXPECT_EQ(test, space->max_pn_seen, 3LL);

	/* Filling the hole at the base swallows the run above it. */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, space->base_pn, 4LL);
	KUNIT_EXPECT_FALSE(test, quic_pnspace_has_gap(space));
	KUNIT_EXPECT_TRUE(test, bitmap_empty(space->pn_map, space->pn_map_len));
}

static void pnspace_duplicates_are_reported(struct kunit *test)
{
	static const s64 pns[] = { 0, 1, 3 };
	struct quic_pnspace *space = pnspace_new(test);

	mark_all(test, space, pns, ARRAY_SIZE(pns));

	/* 1 lies below the base, 3 is a bit in the map: both seen already. */
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 1), -EEXIST);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 3), -EEXIST);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 2), 0);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 4), 0);

	/* Marking a duplicate changes nothing, not even the time. */
	KUNIT_EXPECT_EQ(test, quic_pnspace_mark(space, 3, 5000), -EEXIST);
	KUNIT_EXPECT_EQ(test, quic_pnspace_mark(space, 0, 5000), -EEXIST);
	KUNIT_EXPECT_EQ(test, space->max_pn_time, 0ULL);
	KUNIT_EXPECT_EQ(test, space->base_pn, 2LL);
}

static void pnspace_peer_starting_high_sets_window(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);

	/* 1000 >= QUIC_PN_MAP_INITIAL: the window opens at 1000. */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 1000, 0), 0);
	KUNIT_EXPECT_EQ(test, space->min_pn_seen, 1000LL);
	KUNIT_EXPECT_EQ(test, space->base_pn, 1001LL);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 999), -ERANGE);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 0), -ERANGE);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 1000), -EEXIST);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 1001), 0);
}

static void pnspace_peer_starting_low_accepts_earlier(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);

	/* 5 < QUIC_PN_MAP_INITIAL: the window opens at 0, so 0..4 reordered
	 * behind 5 are still new.
	 */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 5, 0), 0);
	KUNIT_EXPECT_EQ(test, space->min_pn_seen, 0LL);
	KUNIT_EXPECT_EQ(test, space->base_pn, 0LL);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 2), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 2, 0), 0);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 2), -EEXIST);
	KUNIT_EXPECT_EQ(test, space->max_pn_seen, 5LL);
}

/* ACK ranges built from a set of received packet numbers, compared with
 * the fields of RFC 9000 Section 19.3.1 computed by hand: the First ACK
 * Range is largest - smallest of the top range; each Gap is
 * previous_smallest - largest - 2 (one less than the packets missing) and
 * each ACK Range Length is largest - smallest of its range.
 */
struct ack_vector {
	const char *desc;
	s64 marks[16];
	int nmarks;
	s64 largest;
	u64 first_range;
	u32 range_count;
	struct quic_ack_range ranges[4];
	s64 smallest;
};

static const struct ack_vector ack_vectors[] = {
	{
		/* {0..4}: one range, 4 - 0 = 4. */
		.desc = "RFC 9000 19.3.1 in order 0-4",
		.marks = { 0, 1, 2, 3, 4 }, .nmarks = 5,
		.largest = 4, .first_range = 4, .range_count = 0, .smallest = 0,
	},
	{
		/* {4}, {0..2}: 3 missing, Gap = 4 - 2 - 2 = 0, Length 2 - 0 = 2. */
		.desc = "RFC 9000 19.3.1 one missing",
		.marks = { 0, 1, 2, 4 }, .nmarks = 4,
		.largest = 4, .first_range = 0, .range_count = 1,
		.ranges = { { 0, 2 } }, .smallest = 0,
	},
	{
		/* {12..15}, {9}, {5..6}, {0..2}: First 15 - 12 = 3;
		 * Gap 12 - 9 - 2 = 1, Length 0; Gap 9 - 6 - 2 = 1, Length 1;
		 * Gap 5 - 2 - 2 = 1, Length 2.
		 */
		.desc = "RFC 9000 19.3.1 three gaps out of order",
		.marks = { 15, 0, 1, 2, 5, 6, 9, 12, 13, 14 }, .nmarks = 10,
		.largest = 15, .first_range = 3, .range_count = 3,
		.ranges = { { 1, 0 }, { 1, 1 }, { 1, 2 } }, .smallest = 0,
	},
	{
		/* {100}, {0}: 99 missing, Gap = 100 - 0 - 2 = 98, Length 0. */
		.desc = "RFC 9000 19.3.1 wide gap",
		.marks = { 0, 100 }, .nmarks = 2,
		.largest = 100, .first_range = 0, .range_count = 1,
		.ranges = { { 98, 0 } }, .smallest = 0,
	},
	{
		/* {1003}, {1000..1001}: Gap 1003 - 1001 - 2 = 0, Length 1. */
		.desc = "RFC 9000 19.3.1 peer starting at 1000",
		.marks = { 1000, 1001, 1003 }, .nmarks = 3,
		.largest = 1003, .first_range = 0, .range_count = 1,
		.ranges = { { 0, 1 } }, .smallest = 1000,
	},
	{
		/* {9}, {7}: nothing below 7 was received, so nothing below is
		 * acknowledged; Gap 9 - 7 - 2 = 0, Length 0.
		 */
		.desc = "RFC 9000 19.3.1 peer starting at 7",
		.marks = { 7, 9 }, .nmarks = 2,
		.largest = 9, .first_range = 0, .range_count = 1,
		.ranges = { { 0, 0 } }, .smallest = 7,
	},
};

KUNIT_ARRAY_PARAM_DESC(ack_vectors, ack_vectors, desc);

static void pnspace_ack_ranges_match_rfc(struct kunit *test)
{
	const struct ack_vector *v = test->param_value;
	struct quic_pnspace *space = pnspace_new(test);
	struct quic_ack_info *info = ack_info_new(test);
	u32 i;

	mark_all(test, space, v->marks, v->nmarks);
	KUNIT_ASSERT_EQ(test, quic_pnspace_ack_info(space, info), 0);

	KUNIT_EXPECT_EQ(test, info->largest, v->largest);
	KUNIT_EXPECT_EQ(test, info->first_range, v->first_range);
	KUNIT_ASSERT_EQ(test, info->range_count, v->range_count);
	for (i = 0; i < v->range_count; i++) {
		KUNIT_EXPECT_EQ_MSG(test, info->ranges[i].gap, v->ranges[i].gap, "range %u", i);
		KUNIT_EXPECT_EQ_MSG(test, info->ranges[i].len, v->ranges[i].len, "range %u", i);
	}
	KUNIT_EXPECT_EQ(test, info->smallest, v->smallest);
}

static void pnspace_ack_ranges_decode_back(struct kunit *test)
{
	static const s64 pns[] = { 3, 4, 8, 20, 21, 22, 30, 31 };
	struct quic_pnspace *space = pnspace_new(test);
	struct quic_ack_info *info = ack_info_new(test);
	s64 largest, smallest, pn;
	u32 i, acked = 0;

	mark_all(test, space, pns, ARRAY_SIZE(pns));
	KUNIT_ASSERT_EQ(test, quic_pnspace_ack_info(space, info), 0);

	/* Decode as a peer would (RFC 9000 Section 19.3.1 formulas) and
	 * check that exactly the marked packet numbers come back.
	 */
	largest = info->largest;
	smallest = largest - info->first_range;
	for (i = 0; ; i++) {
		for (pn = smallest; pn <= largest; pn++) {
			KUNIT_EXPECT_EQ_MSG(test, quic_pnspace_check(space, pn), -EEXIST,
					    "pn %lld", pn);
			acked++;
		}
		if (i == info->range_count)
			break;
		largest = smallest - info->ranges[i].gap - 2;
		smallest = largest - info->ranges[i].len;
	}
	KUNIT_EXPECT_EQ(test, acked, (u32)ARRAY_SIZE(pns));
	KUNIT_EXPECT_EQ(test, smallest, info->smallest);
}

static void pnspace_ack_ranges_keep_newest_32_gaps(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	struct quic_ack_info *info = ack_info_new(test);
	u32 i;
	int pn;

	/* 0, 2, 4, ..., 80: 41 single-packet ranges, one missing packet
	 * between neighbours. Only the top range and 32 more fit; the 8
	 * lowest (0..14) are left out (RFC 9000 Section 13.2.3), so the
	 * lowest reported packet is 80 - 2 * 32 = 16.
	 */
	for (pn = 0; pn <= 80; pn += 2)
		KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, pn, 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_ack_info(space, info), 0);

	KUNIT_EXPECT_EQ(test, info->largest, 80LL);
	KUNIT_EXPECT_EQ(test, info->first_range, 0ULL);
	KUNIT_ASSERT_EQ(test, info->range_count, (u32)QUIC_PN_MAX_GAPS);
	for (i = 0; i < QUIC_PN_MAX_GAPS; i++) {
		KUNIT_EXPECT_EQ_MSG(test, info->ranges[i].gap, 0ULL, "range %u", i);
		KUNIT_EXPECT_EQ_MSG(test, info->ranges[i].len, 0ULL, "range %u", i);
	}
	KUNIT_EXPECT_EQ(test, info->smallest, 16LL);
}

static void pnspace_ack_ranges_33_fit_exactly(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	struct quic_ack_info *info = ack_info_new(test);
	int pn;

	/* 0, 2, ..., 64: 33 ranges, exactly the top range plus 32. */
	for (pn = 0; pn <= 64; pn += 2)
		KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, pn, 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_ack_info(space, info), 0);
	KUNIT_EXPECT_EQ(test, info->range_count, (u32)QUIC_PN_MAX_GAPS);
	KUNIT_EXPECT_EQ(test, info->smallest, 0LL);
}

static void pnspace_map_grows_to_fixed_window(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);

	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 0, 0), 0);
	/* base 1, offset 99 needs 100 bits: rounded up to 2 * 64. */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 100, 0), 0);
	KUNIT_EXPECT_EQ(test, space->pn_map_len, 128);
	/* offset 4095 is the last bit a full-size map has. */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 4096, 0), 0);
	KUNIT_EXPECT_EQ(test, space->pn_map_len, QUIC_PN_MAP_SIZE);
	KUNIT_EXPECT_EQ(test, space->base_pn, 1LL);
}

static void pnspace_beyond_window_slides_instead_of_refusing(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	struct quic_ack_info *info = ack_info_new(test);
	s64 far = 1 + QUIC_PN_MAP_SIZE, floor = far - QUIC_PN_MAP_LIMIT;

	/* 1 is lost, so the base stays at 1; 2 and floor + 1 are received. */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 2, 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, floor + 1, 0), 0);

	/* One past the largest number a window based at 1 can hold is new. */
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, far), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, far, 7), 0);

	/* Everything below the floor is given up, never reported received. */
	KUNIT_EXPECT_EQ(test, space->min_pn_seen, floor);
	KUNIT_EXPECT_EQ(test, space->base_pn, floor);
	KUNIT_EXPECT_EQ(test, space->max_pn_seen, far);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 2), -ERANGE);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, floor), 0);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, floor + 1), -EEXIST);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, far), -EEXIST);

	/* The ACK reports exactly far and floor + 1. */
	KUNIT_ASSERT_EQ(test, quic_pnspace_ack_info(space, info), 0);
	KUNIT_EXPECT_EQ(test, info->largest, far);
	KUNIT_EXPECT_EQ(test, info->first_range, 0ULL);
	KUNIT_ASSERT_EQ(test, info->range_count, 1U);
	KUNIT_EXPECT_EQ(test, info->smallest, floor + 1);
}

/* The defect this guards against: a burst of lost packets larger than the
 * map froze the window, and every later packet was refused until the idle
 * timeout. 10,000 consecutive packets lost, then the peer carries on.
 */
static void pnspace_survives_10000_packet_gap(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	struct quic_ack_info *info = ack_info_new(test);
	s64 pn, resume = 10 + 10000;
	u64 now = 0;

	/* Only the distance rule advances the window here, not time. */
	quic_pnspace_set_time_limit(space, U64_MAX);
	/* 5 is missing too, so the window base is stuck at 5 before the burst. */
	for (pn = 0; pn < 10; pn++)
		if (pn != 5)
			KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, pn, now), 0);
	KUNIT_ASSERT_EQ(test, space->base_pn, 5LL);

	for (pn = resume; pn < resume + 2 * QUIC_PN_MAP_SIZE; pn++) {
		now += 10;
		KUNIT_ASSERT_EQ_MSG(test, quic_pnspace_check(space, pn), 0, "pn %lld", pn);
		KUNIT_ASSERT_EQ_MSG(test, quic_pnspace_mark(space, pn, now), 0, "pn %lld", pn);
	}

	KUNIT_EXPECT_EQ(test, space->max_pn_seen, pn - 1);
	KUNIT_EXPECT_FALSE(test, quic_pnspace_has_gap(space));
	KUNIT_ASSERT_EQ(test, quic_pnspace_ack_info(space, info), 0);
	KUNIT_EXPECT_EQ(test, info->largest, pn - 1);
	KUNIT_EXPECT_EQ(test, info->range_count, 0U);
	/* Only packets received after the gap are acknowledged. */
	KUNIT_EXPECT_GE(test, info->smallest, resume);
}

/* RFC 9000 Section 13.1: an ACK never covers a packet that was not
 * received. After a jump of a whole map, the window's floor lies on a
 * number the peer never sent; the checkpoints that follow must not turn
 * it into the start of an acknowledged range. Every ACK built after each
 * packet is checked, not only the last.
 */
static void pnspace_ack_after_a_jump_covers_only_received_numbers(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	struct quic_ack_info *info = ack_info_new(test);
	s64 pn, resume = 10 + 10000;
	u64 now = 0;

	/* A checkpoint at every new largest number once 10 us passed. */
	quic_pnspace_set_time_limit(space, 10);
	for (pn = 0; pn < 10; pn++)
		KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, pn, now), 0);

	for (pn = resume; pn < resume + 64; pn++) {
		now += 20;
		KUNIT_ASSERT_EQ_MSG(test, quic_pnspace_mark(space, pn, now), 0, "pn %lld", pn);
		KUNIT_ASSERT_EQ(test, quic_pnspace_ack_info(space, info), 0);
		KUNIT_EXPECT_EQ(test, info->largest, pn);
		/* Nothing between 10 and resume was received. */
		KUNIT_ASSERT_GE_MSG(test, info->smallest, resume, "after pn %lld", pn);
		KUNIT_EXPECT_GE(test, (s64)(info->largest - info->first_range), resume);
	}
}

static void pnspace_window_advances_by_time(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	struct quic_ack_info *info = ack_info_new(test);

	quic_pnspace_set_time_limit(space, 1000);

	/* Checkpoint (0, t=0). 1 and 4 are lost. */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 2, 10), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 3, 999), 0);
	KUNIT_EXPECT_EQ(test, space->last_max_pn_seen, 0LL);
	KUNIT_EXPECT_EQ(test, space->min_pn_seen, 0LL);

	/* t=1000: the checkpoint is 1000 us old. base (1) is above it, so
	 * nothing moves yet; 5 becomes the new checkpoint.
	 */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 5, 1000), 0);
	KUNIT_EXPECT_EQ(test, space->base_pn, 1LL);
	KUNIT_EXPECT_EQ(test, space->min_pn_seen, 0LL);
	KUNIT_EXPECT_EQ(test, space->last_max_pn_seen, 5LL);
	KUNIT_EXPECT_EQ(test, space->last_max_pn_time, 1000ULL);

	/* t=2000: everything up to 5 is given up; 6 was received, so the
	 * base moves to 7 and the oldest packet still tracked is 5.
	 */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 6, 2000), 0);
	KUNIT_EXPECT_EQ(test, space->base_pn, 7LL);
	KUNIT_EXPECT_EQ(test, space->min_pn_seen, 5LL);
	KUNIT_EXPECT_EQ(test, space->last_max_pn_seen, 6LL);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 4), -ERANGE);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 5), -EEXIST);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 7), 0);

	/* Only {5, 6} is acknowledged now. */
	KUNIT_ASSERT_EQ(test, quic_pnspace_ack_info(space, info), 0);
	KUNIT_EXPECT_EQ(test, info->largest, 6LL);
	KUNIT_EXPECT_EQ(test, info->first_range, 1ULL);
	KUNIT_EXPECT_EQ(test, info->range_count, 0U);
	KUNIT_EXPECT_EQ(test, info->largest_time, 2000ULL);
}

static void pnspace_window_advances_by_count(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	struct quic_ack_info *info = ack_info_new(test);
	int pn;

	/* 1 is lost; 0 and 2..3074 arrive within the time limit. The
	 * distance is measured from min(checkpoint, base):
	 * - at 3073, 3073 - min(0, 1) > 3072: checkpoint 3073, base 1 stays
	 *   (it is above the old checkpoint 0), min_pn_seen 0;
	 * - at 3074, 3074 - min(3073, 1) > 3072: the base moves past 3073 to
	 *   3075, min_pn_seen becomes 3073, checkpoint 3074.
	 */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 0, 0), 0);
	for (pn = 2; pn <= 3073; pn++)
		KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, pn, 1), 0);
	KUNIT_EXPECT_EQ(test, space->base_pn, 1LL);
	KUNIT_EXPECT_EQ(test, space->min_pn_seen, 0LL);
	KUNIT_EXPECT_EQ(test, space->last_max_pn_seen, 3073LL);

	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, 3074, 2), 0);
	KUNIT_EXPECT_EQ(test, space->base_pn, 3075LL);
	KUNIT_EXPECT_EQ(test, space->min_pn_seen, 3073LL);
	KUNIT_EXPECT_EQ(test, space->last_max_pn_seen, 3074LL);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(space, 1), -ERANGE);
	KUNIT_EXPECT_FALSE(test, quic_pnspace_has_gap(space));

	KUNIT_ASSERT_EQ(test, quic_pnspace_ack_info(space, info), 0);
	KUNIT_EXPECT_EQ(test, info->largest, 3074LL);
	KUNIT_EXPECT_EQ(test, info->first_range, 1ULL);
	KUNIT_EXPECT_EQ(test, info->range_count, 0U);
}

static void pnspace_next_pn_stops_before_2_62_minus_1(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);

	KUNIT_EXPECT_EQ(test, quic_pnspace_next_pn(space), 0LL);
	KUNIT_EXPECT_EQ(test, quic_pnspace_next_pn(space), 1LL);

	/* RFC 9000 Section 12.3: reaching 2^62 - 1 ends the connection. */
	space->next_pn = QUIC_PN_MAX - 1;
	KUNIT_EXPECT_EQ(test, quic_pnspace_next_pn(space), (s64)QUIC_PN_MAX - 1);
	KUNIT_EXPECT_EQ(test, quic_pnspace_next_pn(space), (s64)-EOVERFLOW);
	KUNIT_EXPECT_EQ(test, quic_pnspace_next_pn(space), (s64)-EOVERFLOW);
}

static void pnspace_largest_acked_only_increases(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);

	KUNIT_EXPECT_TRUE(test, quic_pnspace_set_max_pn_acked(space, 5, 10));
	KUNIT_EXPECT_FALSE(test, quic_pnspace_set_max_pn_acked(space, 3, 20));
	KUNIT_EXPECT_FALSE(test, quic_pnspace_set_max_pn_acked(space, 5, 30));
	KUNIT_EXPECT_EQ(test, space->max_pn_acked_seen, 5LL);
	KUNIT_EXPECT_EQ(test, space->max_pn_acked_time, 10ULL);
	KUNIT_EXPECT_TRUE(test, quic_pnspace_set_max_pn_acked(space, 9, 40));
	KUNIT_EXPECT_EQ(test, space->max_pn_acked_time, 40ULL);
}

static void pnspace_ecn_counts_received_codepoints(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	const u64 *local = space->ecn_count[QUIC_ECN_LOCAL];

	quic_pnspace_inc_ecn_count(space, INET_ECN_NOT_ECT);
	KUNIT_EXPECT_FALSE(test, quic_pnspace_has_ecn_count(space));

	quic_pnspace_inc_ecn_count(space, INET_ECN_ECT_0);
	quic_pnspace_inc_ecn_count(space, INET_ECN_ECT_0);
	quic_pnspace_inc_ecn_count(space, INET_ECN_ECT_1);
	/* A whole TOS byte (DSCP EF, 0xb8) with CE in the low bits. */
	quic_pnspace_inc_ecn_count(space, 0xb8 | INET_ECN_CE);

	KUNIT_EXPECT_TRUE(test, quic_pnspace_has_ecn_count(space));
	KUNIT_EXPECT_EQ(test, local[QUIC_ECN_ECT0], 2ULL);
	KUNIT_EXPECT_EQ(test, local[QUIC_ECN_ECT1], 1ULL);
	KUNIT_EXPECT_EQ(test, local[QUIC_ECN_CE], 1ULL);
	KUNIT_EXPECT_EQ(test, space->ecn_count[QUIC_ECN_PEER][QUIC_ECN_ECT0], 0ULL);
}

static void pnspace_ecn_peer_counts_only_increase(struct kunit *test)
{
	struct quic_pnspace *space = pnspace_new(test);
	const u64 *peer = space->ecn_count[QUIC_ECN_PEER];
	u64 c[QUIC_ECN_MAX];

	c[QUIC_ECN_ECT0] = 2;
	c[QUIC_ECN_ECT1] = 0;
	c[QUIC_ECN_CE] = 0;
	KUNIT_EXPECT_FALSE(test, quic_pnspace_set_ecn_count(space, c));
	KUNIT_EXPECT_EQ(test, peer[QUIC_ECN_ECT0], 2ULL);

	/* A reordered ACK frame with lower counts changes nothing. */
	c[QUIC_ECN_ECT0] = 1;
	KUNIT_EXPECT_FALSE(test, quic_pnspace_set_ecn_count(space, c));
	KUNIT_EXPECT_EQ(test, peer[QUIC_ECN_ECT0], 2ULL);

	/* ECN-CE grew: a congestion signal (RFC 9002 Section 7.1). */
	c[QUIC_ECN_ECT0] = 2;
	c[QUIC_ECN_ECT1] = 1;
	c[QUIC_ECN_CE] = 1;
	KUNIT_EXPECT_TRUE(test, quic_pnspace_set_ecn_count(space, c));
	KUNIT_EXPECT_FALSE(test, quic_pnspace_set_ecn_count(space, c));

	c[QUIC_ECN_ECT0] = 3;
	c[QUIC_ECN_CE] = 0;
	KUNIT_EXPECT_FALSE(test, quic_pnspace_set_ecn_count(space, c));
	KUNIT_EXPECT_EQ(test, peer[QUIC_ECN_ECT0], 3ULL);
	KUNIT_EXPECT_EQ(test, peer[QUIC_ECN_ECT1], 1ULL);
	KUNIT_EXPECT_EQ(test, peer[QUIC_ECN_CE], 1ULL);
}

static void pnspace_early_data_shares_application_space(struct kunit *test)
{
	/* RFC 9002 Section 4.1: 0-RTT and 1-RTT share one space; Initial,
	 * Handshake and Application data each have their own.
	 */
	KUNIT_EXPECT_EQ(test, quic_pnspace_index(QUIC_CRYPTO_EARLY),
			quic_pnspace_index(QUIC_CRYPTO_APP));
	KUNIT_EXPECT_NE(test, quic_pnspace_index(QUIC_CRYPTO_INITIAL),
			quic_pnspace_index(QUIC_CRYPTO_APP));
	KUNIT_EXPECT_NE(test, quic_pnspace_index(QUIC_CRYPTO_HANDSHAKE),
			quic_pnspace_index(QUIC_CRYPTO_APP));
	KUNIT_EXPECT_NE(test, quic_pnspace_index(QUIC_CRYPTO_HANDSHAKE),
			quic_pnspace_index(QUIC_CRYPTO_INITIAL));
	KUNIT_EXPECT_LT(test, quic_pnspace_index(QUIC_CRYPTO_HANDSHAKE), QUIC_PNSPACE_MAX);
	KUNIT_EXPECT_LT(test, quic_pnspace_index(QUIC_CRYPTO_INITIAL), QUIC_PNSPACE_MAX);
	KUNIT_EXPECT_LT(test, quic_pnspace_index(QUIC_CRYPTO_APP), QUIC_PNSPACE_MAX);
}

static void pnspace_levels_are_independent(struct kunit *test)
{
	struct quic_pnspace *sp[QUIC_PNSPACE_MAX];
	struct quic_pnspace *initial, *handshake, *app;
	int i;

	for (i = 0; i < QUIC_PNSPACE_MAX; i++)
		sp[i] = pnspace_new(test);
	initial = sp[quic_pnspace_index(QUIC_CRYPTO_INITIAL)];
	handshake = sp[quic_pnspace_index(QUIC_CRYPTO_HANDSHAKE)];
	app = sp[quic_pnspace_index(QUIC_CRYPTO_APP)];

	/* The same numbers in each space (RFC 9000 Section 12.3: each space
	 * starts at 0) and different histories.
	 */
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(initial, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(initial, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(handshake, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(sp[quic_pnspace_index(QUIC_CRYPTO_EARLY)], 0, 0),
			0);
	quic_pnspace_inc_ecn_count(handshake, INET_ECN_CE);
	KUNIT_EXPECT_EQ(test, quic_pnspace_next_pn(initial), 0LL);
	KUNIT_EXPECT_EQ(test, quic_pnspace_next_pn(initial), 1LL);

	KUNIT_EXPECT_EQ(test, quic_pnspace_check(initial, 1), -EEXIST);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(handshake, 0), 0);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(handshake, 1), -EEXIST);
	/* 0-RTT packet 0 landed in the Application space. */
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(app, 0), -EEXIST);
	KUNIT_EXPECT_EQ(test, quic_pnspace_check(app, 1), 0);

	KUNIT_EXPECT_EQ(test, initial->base_pn, 2LL);
	KUNIT_EXPECT_EQ(test, handshake->base_pn, 0LL);
	KUNIT_EXPECT_EQ(test, app->base_pn, 1LL);
	KUNIT_EXPECT_FALSE(test, quic_pnspace_has_ecn_count(initial));
	KUNIT_EXPECT_TRUE(test, quic_pnspace_has_ecn_count(handshake));
	KUNIT_EXPECT_FALSE(test, quic_pnspace_has_ecn_count(app));
	KUNIT_EXPECT_EQ(test, quic_pnspace_next_pn(handshake), 0LL);
	KUNIT_EXPECT_EQ(test, quic_pnspace_next_pn(app), 0LL);
}

static struct kunit_case pnspace_cases[] = {
	KUNIT_CASE(pnspace_new_space_is_empty),
	KUNIT_CASE(pnspace_rejects_numbers_outside_2_62),
	KUNIT_CASE(pnspace_in_order_marks_keep_map_empty),
	KUNIT_CASE(pnspace_out_of_order_marks_fill_gaps),
	KUNIT_CASE(pnspace_duplicates_are_reported),
	KUNIT_CASE(pnspace_peer_starting_high_sets_window),
	KUNIT_CASE(pnspace_peer_starting_low_accepts_earlier),
	KUNIT_CASE_PARAM(pnspace_ack_ranges_match_rfc, ack_vectors_gen_params),
	KUNIT_CASE(pnspace_ack_ranges_decode_back),
	KUNIT_CASE(pnspace_ack_ranges_keep_newest_32_gaps),
	KUNIT_CASE(pnspace_ack_ranges_33_fit_exactly),
	KUNIT_CASE(pnspace_map_grows_to_fixed_window),
	KUNIT_CASE(pnspace_beyond_window_slides_instead_of_refusing),
	KUNIT_CASE(pnspace_survives_10000_packet_gap),
	KUNIT_CASE(pnspace_ack_after_a_jump_covers_only_received_numbers),
	KUNIT_CASE(pnspace_window_advances_by_time),
	KUNIT_CASE(pnspace_window_advances_by_count),
	KUNIT_CASE(pnspace_next_pn_stops_before_2_62_minus_1),
	KUNIT_CASE(pnspace_largest_acked_only_increases),
	KUNIT_CASE(pnspace_ecn_counts_received_codepoints),
	KUNIT_CASE(pnspace_ecn_peer_counts_only_increase),
	KUNIT_CASE(pnspace_early_data_shares_application_space),
	KUNIT_CASE(pnspace_levels_are_independent),
	{}
};

static struct kunit_suite pnspace_suite = {
	.name = "quic_pnspace",
	.test_cases = pnspace_cases,
};

kunit_test_suite(pnspace_suite);
