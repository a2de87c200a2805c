// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC packet number spaces: packet numbers to send, loss detection inputs
 * and the map of packet numbers received from which ACK frames are built
 * (RFC 9000 Sections 12.3, 13.2, 13.4 and 19.3; RFC 9002 Section 4.1).
 *
 * Received-packet map
 * -------------------
 * The map tracks a window of packet numbers:
 *
 *   min_pn_seen        base_pn                          max_pn_seen
 *        |<-- received -->|0|<-- bit i: base_pn + i -->|1|
 *
 * Everything in [min_pn_seen, base_pn) has been received; base_pn itself
 * has not (or base_pn == max_pn_seen + 1 when nothing is missing); above
 * it, one bit per packet number. Packet numbers below min_pn_seen are too
 * old to tell: RFC 9000 Section 12.3 lets a receiver drop everything below
 * such a minimum.
 *
 * The window would otherwise grow without bound when packets are lost for
 * good, so it is advanced at checkpoints. Whenever a new largest packet
 * number arrives, and either the last checkpoint is older than
 * max_time_limit or the new largest lies more than QUIC_PN_MAP_LIMIT above
 * min(last checkpoint, base_pn), the ranges at or below the last checkpoint
 * are forgotten: base_pn moves to the first packet number missing above
 * the checkpoint, min_pn_seen becomes the checkpoint, and the new largest
 * becomes the next checkpoint. Gaps below the checkpoint are given up on;
 * the peer has long declared them lost and resent their frames.
 */

#include <linux/bitmap.h>
#include <linux/slab.h>
#include <net/inet_ecn.h>

#include "pnspace.h"

/**
 * quic_pnspace_init - set up an empty packet number space
 * @space: the space; any previous content is overwritten, so free it first
 * @gfp: allocation flags for the received-packet map
 *
 * Return: 0, or -ENOMEM.
 */
int quic_pnspace_init(struct quic_pnspace *space, gfp_t gfp)
{
	unsigned long *map;

	map = bitmap_zalloc(QUIC_PN_MAP_INITIAL, gfp);
	if (!map)
		return -ENOMEM;

	memset(space, 0, sizeof(*space));
	space->pn_map = map;
	space->pn_map_len = QUIC_PN_MAP_INITIAL;
	space->max_pn_seen = -1;
	space->last_max_pn_seen = -1;
	space->max_pn_acked_seen = -1;
	space->max_time_limit = QUIC_PNSPACE_TIME_LIMIT;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pnspace_init);

/**
 * quic_pnspace_free - release the memory held by a packet number space
 * @space: the space (may have failed or never been initialised if zeroed)
 */
void quic_pnspace_free(struct quic_pnspace *space)
{
	bitmap_free(space->pn_map);
	space->pn_map = NULL;
	space->pn_map_len = 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pnspace_free);

/**
 * quic_pnspace_check - classify a packet number received in this space
 * @space: the space
 * @pn: full (decoded) packet number
 *
 * To be called before a packet is processed; only quic_pnspace_mark()
 * records it, once the packet has been decrypted (RFC 9000 Section 12.3:
 * duplicate suppression happens after removing packet protection).
 *
 * A packet number far above the window is new, however far: marking it
 * slides the window up to it (see quic_pnspace_mark()).
 *
 * Return: 0 when @pn has not been received yet, or
 * -EEXIST when it has been received already (a duplicate);
 * -ERANGE when it is below the tracked window (too old to tell);
 * -EINVAL when it is not a packet number (negative or above 2^62 - 1).
 */
int quic_pnspace_check(const struct quic_pnspace *space, s64 pn)
{
	s64 off;

	if (pn < 0 || pn > QUIC_PN_MAX)
		return -EINVAL;
	if (!quic_pnspace_has_received(space))
		return 0;
	if (pn < space->min_pn_seen)
		return -ERANGE;
	if (pn < space->base_pn)
		return -EEXIST;

	off = pn - space->base_pn;
	if (off < space->pn_map_len && test_bit(off, space->pn_map))
		return -EEXIST;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pnspace_check);

/* Make the map hold at least @bits bits (at most QUIC_PN_MAP_SIZE). This
 * runs in the receive path, hence GFP_ATOMIC.
 */
static int quic_pnspace_grow(struct quic_pnspace *space, u32 bits)
{
	unsigned long *map;
	u32 len;

	len = min_t(u32, round_up(bits, QUIC_PN_MAP_INCREMENT), QUIC_PN_MAP_SIZE);
	map = bitmap_zalloc(len, GFP_ATOMIC);
	if (!map)
		return -ENOMEM;

	bitmap_copy(map, space->pn_map, space->pn_map_len);
	bitmap_free(space->pn_map);
	space->pn_map = map;
	space->pn_map_len = len;
	return 0;
}

/* Move base_pn to the first packet number not received at or above @pn. */
static void quic_pnspace_move_base(struct quic_pnspace *space, s64 pn)
{
	unsigned long shift;

	shift = find_next_zero_bit(space->pn_map, space->pn_map_len, pn - space->base_pn);
	bitmap_shift_right(space->pn_map, space->pn_map, shift, space->pn_map_len);
	space->base_pn += shift;
}

/* @pn lies %QUIC_PN_MAP_SIZE or more above base_pn: the packets missing
 * at the bottom of the window were lost long ago (a burst of several
 * thousand packets), and waiting for them would stall the space for good.
 * Give up on everything below @pn - %QUIC_PN_MAP_LIMIT, which leaves @pn a
 * quarter of the map from its top, and keep what was received above that.
 * The ranges given up are reported as too old from now on, never as
 * received.
 */
static void quic_pnspace_slide(struct quic_pnspace *space, s64 pn)
{
	s64 floor = pn - QUIC_PN_MAP_LIMIT;
	s64 shift = floor - space->base_pn;

	if (shift >= space->pn_map_len)
		bitmap_zero(space->pn_map, space->pn_map_len);
	else
		bitmap_shift_right(space->pn_map, space->pn_map, shift, space->pn_map_len);
	space->base_pn = floor;
	space->min_pn_seen = floor;
	/* Received packets just above the floor are now contiguous with it. */
	quic_pnspace_move_base(space, floor);
	/* A checkpoint below the floor would bring given-up ranges back, and
	 * one on the floor itself would report it received: the floor is
	 * just a number, the peer may never have sent it (RFC 9000 Section
	 * 13.1). The checkpoint moves to @pn, which is being received.
	 */
	if (space->last_max_pn_seen < floor)
		space->last_max_pn_seen = pn;
}

/* Called when @now brought a new largest packet number: take a checkpoint
 * if the last one is old enough or far enough below (see the file comment).
 */
static void quic_pnspace_checkpoint(struct quic_pnspace *space, u64 now)
{
	s64 last = min(space->last_max_pn_seen, space->base_pn);
	bool aged;

	aged = now >= space->last_max_pn_time &&
	       now - space->last_max_pn_time >= space->max_time_limit;
	if (!aged && space->max_pn_seen - last <= QUIC_PN_MAP_LIMIT)
		return;

	if (space->base_pn <= space->last_max_pn_seen)
		quic_pnspace_move_base(space, space->last_max_pn_seen + 1);
	space->min_pn_seen = space->last_max_pn_seen;
	space->last_max_pn_seen = space->max_pn_seen;
	space->last_max_pn_time = now;
}

/**
 * quic_pnspace_mark - record a packet number as received
 * @space: the space
 * @pn: full packet number of a packet that was decrypted successfully
 * @now: current time in microseconds (monotonic)
 *
 * The peer's packet numbers need not start at 0 (packets may be lost or
 * skipped). When the first one received is below %QUIC_PN_MAP_INITIAL the
 * window starts at 0, so that lower packets reordered behind it are still
 * accepted; otherwise it starts at that packet number, and anything lower
 * is reported as too old.
 *
 * A packet number %QUIC_PN_MAP_SIZE or more above the window base moves the
 * window up instead of being refused (RFC 9000 Section 12.3 lets the
 * receiver forget old packet numbers): after a long burst of losses the
 * space keeps accepting the peer's new packets.
 *
 * Return: 0, -ENOMEM when the map could not grow, or any error of
 * quic_pnspace_check() (the space is then unchanged).
 */
int quic_pnspace_mark(struct quic_pnspace *space, s64 pn, u64 now)
{
	u32 off;
	int err;

	err = quic_pnspace_check(space, pn);
	if (err)
		return err;

	if (!quic_pnspace_has_received(space)) {
		if (pn >= QUIC_PN_MAP_INITIAL) {
			space->min_pn_seen = pn;
			space->base_pn = pn;
		}
		space->last_max_pn_seen = pn;
		space->last_max_pn_time = now;
	}

	if (pn - space->base_pn >= QUIC_PN_MAP_SIZE) {
		/* Grow first, so that a failure leaves the space unchanged. */
		if (space->pn_map_len <= QUIC_PN_MAP_LIMIT) {
			err = quic_pnspace_grow(space, QUIC_PN_MAP_LIMIT + 1);
			if (err)
				return err;
		}
		quic_pnspace_slide(space, pn);
	}
	off = pn - space->base_pn;
	if (off >= space->pn_map_len) {
		err = quic_pnspace_grow(space, off + 1);
		if (err)
			return err;
	}

	if (!off && !quic_pnspace_has_gap(space)) {
		/* In order with nothing missing: the map stays empty. */
		space->base_pn++;
	} else {
		set_bit(off, space->pn_map);
		if (!off)
			quic_pnspace_move_base(space, pn);
	}

	if (pn > space->max_pn_seen) {
		space->max_pn_seen = pn;
		space->max_pn_time = now;
		quic_pnspace_checkpoint(space, now);
	}
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pnspace_mark);

/* Walk the received ranges in ascending order. *@from starts at
 * min_pn_seen and is the cursor; each call yields one maximal range
 * [*@lo, *@hi] and returns false when there is none left.
 */
static bool quic_pnspace_next_range(const struct quic_pnspace *space, s64 *from,
				    s64 *lo, s64 *hi)
{
	unsigned long start, end;

	if (*from < space->base_pn) {
		*from = space->base_pn;
		if (space->min_pn_seen < space->base_pn) {
			*lo = space->min_pn_seen;
			*hi = space->base_pn - 1;
			return true;
		}
	}

	start = find_next_bit(space->pn_map, space->pn_map_len, *from - space->base_pn);
	if (start >= space->pn_map_len)
		return false;
	end = find_next_zero_bit(space->pn_map, space->pn_map_len, start);

	*lo = space->base_pn + start;
	*hi = space->base_pn + end - 1;
	*from = space->base_pn + end;
	return true;
}

/**
 * quic_pnspace_ack_info - the ACK ranges to send for this space
 * @space: the space
 * @info: filled with Largest Acknowledged, First ACK Range and up to
 *	%QUIC_PN_MAX_GAPS ACK Ranges, as RFC 9000 Section 19.3.1 encodes them
 *
 * The range holding the largest packet number is always reported; when
 * there are more ranges than fit, the oldest (lowest) ones are left out
 * (RFC 9000 Section 13.2.3). @info->smallest is the lowest packet number
 * covered by what is reported.
 *
 * Return: 0, or -ENODATA when nothing has been received in this space.
 */
int quic_pnspace_ack_info(const struct quic_pnspace *space, struct quic_ack_info *info)
{
	u32 total = 0, skip, idx = 0, pos, i;
	s64 from, lo, hi, prev_lo = 0;

	if (!quic_pnspace_has_received(space))
		return -ENODATA;

	from = space->min_pn_seen;
	while (quic_pnspace_next_range(space, &from, &lo, &hi))
		total++;
	skip = total > QUIC_PN_MAX_GAPS + 1 ? total - (QUIC_PN_MAX_GAPS + 1) : 0;

	/* Second walk: keep the highest ranges; position 0 is the highest.
	 * ranges[] first holds the raw bounds, converted below once the
	 * smallest packet number of the range above each one is known.
	 */
	from = space->min_pn_seen;
	while (quic_pnspace_next_range(space, &from, &lo, &hi)) {
		if (idx++ < skip)
			continue;
		pos = total - idx;
		if (!pos) {
			info->largest = hi;
			info->first_range = hi - lo;
			prev_lo = lo;
			continue;
		}
		info->ranges[pos - 1].gap = lo;
		info->ranges[pos - 1].len = hi;
	}

	info->range_count = total - skip - 1;
	for (i = 0; i < info->range_count; i++) {
		lo = info->ranges[i].gap;
		hi = info->ranges[i].len;
		/* largest = previous_smallest - gap - 2; smallest = largest - ack_range */
		info->ranges[i].gap = prev_lo - hi - 2;
		info->ranges[i].len = hi - lo;
		prev_lo = lo;
	}
	info->smallest = prev_lo;
	info->largest_time = space->max_pn_time;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pnspace_ack_info);

/**
 * quic_pnspace_next_pn - take the packet number for the next packet sent
 * @space: the space
 *
 * RFC 9000 Section 12.3: once the packet number reaches 2^62 - 1 the
 * sender must close the connection without sending anything more, so
 * 2^62 - 2 is the last number handed out.
 *
 * Return: the packet number, or -EOVERFLOW when the space is exhausted.
 */
s64 quic_pnspace_next_pn(struct quic_pnspace *space)
{
	if (space->next_pn >= QUIC_PN_MAX)
		return -EOVERFLOW;
	return space->next_pn++;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pnspace_next_pn);

/**
 * quic_pnspace_set_max_pn_acked - note the largest packet number acknowledged
 * @space: the space
 * @pn: Largest Acknowledged of an ACK frame just received
 * @now: current time in microseconds
 *
 * Return: true when @pn is newly the largest acknowledged (an RTT sample
 * may then be taken, RFC 9002 Section 5.1), false otherwise.
 */
bool quic_pnspace_set_max_pn_acked(struct quic_pnspace *space, s64 pn, u64 now)
{
	if (pn <= space->max_pn_acked_seen)
		return false;
	space->max_pn_acked_seen = pn;
	space->max_pn_acked_time = now;
	return true;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pnspace_set_max_pn_acked);

/**
 * quic_pnspace_inc_ecn_count - count the ECN codepoint of a received packet
 * @space: the space the packet belongs to
 * @ecn: ECN field of the IP header (INET_ECN_*; higher bits are ignored)
 *
 * Call this once per QUIC packet processed, never for duplicates (RFC 9000
 * Section 13.4.1). Not-ECT is not counted.
 */
void quic_pnspace_inc_ecn_count(struct quic_pnspace *space, u8 ecn)
{
	u64 *count = space->ecn_count[QUIC_ECN_LOCAL];

	switch (ecn & INET_ECN_MASK) {
	case INET_ECN_ECT_0:
		count[QUIC_ECN_ECT0]++;
		break;
	case INET_ECN_ECT_1:
		count[QUIC_ECN_ECT1]++;
		break;
	case INET_ECN_CE:
		count[QUIC_ECN_CE]++;
		break;
	default:
		break;
	}
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pnspace_inc_ecn_count);

/**
 * quic_pnspace_set_ecn_count - take the ECN Counts of a received ACK frame
 * @space: the space the ACK frame acknowledges
 * @count: ECT0, ECT1 and ECN-CE counts (&enum quic_ecn_count order)
 *
 * The counts are cumulative, so a reordered ACK frame may carry lower
 * values: each counter only ever increases.
 *
 * Return: true when the ECN-CE count increased, which the congestion
 * controller treats as a congestion signal (RFC 9002 Section 7.1).
 */
bool quic_pnspace_set_ecn_count(struct quic_pnspace *space, const u64 *count)
{
	u64 *peer = space->ecn_count[QUIC_ECN_PEER];
	bool ce = false;
	int i;

	for (i = 0; i < QUIC_ECN_MAX; i++) {
		if (count[i] <= peer[i])
			continue;
		peer[i] = count[i];
		if (i == QUIC_ECN_CE)
			ce = true;
	}
	return ce;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pnspace_set_ecn_count);
