// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC PLPMTUD state machine (RFC 8899 Section 5.2, RFC 9000 Section 14.3).
 *
 * QUIC is an acknowledged packetization layer: a probe is an ack-eliciting
 * packet padded to PROBED_SIZE and it is confirmed when that packet number
 * is acknowledged. Hence (RFC 9000 Section 14.3.2) there is no
 * CONFIRMATION_TIMER in SEARCH_COMPLETE: black holes there are reported by
 * the caller's loss detection or by a validated Packet Too Big.
 *
 * Where RFC 8899 leaves a choice, this implementation:
 * - searches (Section 5.3.2 leaves the method open) by probing MAX_PLPMTU
 *   first, so that a path that carries it (the usual case, MAX_PLPMTU
 *   coming from the interface MTU) needs one probe; once a size failed,
 *   halfway between the PLPMTU and the smallest failed size, rounded down
 *   to 4 bytes, until the two are 4 bytes apart. 9000 bytes take two
 *   probes from BASE_PLPMTU; a 1452-byte path below a 9000 limit, 12
 *   sizes (33 probes, most of them the MAX_PROBES of each lost size);
 * - counts PROBE_COUNT per probe size. A size whose probe went
 *   unacknowledged MAX_PROBES times becomes the upper bound of the search,
 *   and the search goes on with a smaller size (Section 5.3.1 allows "any
 *   other size"); SEARCH_COMPLETE is entered when no size worth probing is
 *   left below the bound;
 * - stays in ERROR, probing BASE_PLPMTU, until a probe gets through: the
 *   path must meanwhile carry only probes and CONNECTION_CLOSE (RFC 9000
 *   Section 14), and it is up to the caller to give the path up;
 * - ignores any Packet Too Big below BASE_PLPMTU, as RFC 9000 Section
 *   14.2.1 requires, so BASE is never left for ERROR on a PTB.
 */

#include <linux/minmax.h>

#include "pmtu.h"

/* The next size to probe above the PLPMTU, or 0 when the search is over. */
static u16 quic_pl_next(const struct quic_plpmtud *pl)
{
	u32 high, mid;

	if (!pl->probe_high)
		return pl->pmtu < pl->max ? pl->max : 0;
	high = min_t(u32, pl->probe_high, pl->max + 1U);
	if (pl->pmtu + QUIC_PL_MIN_STEP >= high)
		return 0;
	mid = ALIGN_DOWN((pl->pmtu + high) / 2, QUIC_PL_MIN_STEP);
	return max_t(u32, mid, pl->pmtu + QUIC_PL_MIN_STEP);
}

/* Go on searching with the next size, or settle in SEARCH_COMPLETE. */
static void quic_pl_search_next(struct quic_plpmtud *pl)
{
	u16 next = quic_pl_next(pl);

	pl->probe_count = 0;
	pl->number = -1;
	if (!next) {
		pl->state = QUIC_PL_COMPLETE;
		pl->probe_size = pl->pmtu;
		return;
	}
	pl->state = QUIC_PL_SEARCH;
	pl->probe_size = next;
}

/* Drop back to BASE_PLPMTU (state @state) and forget what was learnt. */
static u32 quic_pl_reset(struct quic_plpmtud *pl, u8 state)
{
	u16 old = pl->pmtu;

	pl->state = state;
	pl->pmtu = QUIC_PL_BASE_PLPMTU;
	pl->probe_size = QUIC_PL_BASE_PLPMTU;
	pl->probe_high = 0;
	pl->probe_count = 0;
	pl->number = -1;
	return old != pl->pmtu ? pl->pmtu : 0;
}

/**
 * quic_plpmtud_init - set up the PLPMTUD state of a new path
 * @pl: the state
 *
 * The machine starts DISABLED with the PLPMTU at BASE_PLPMTU and
 * MAX_PLPMTU at QUIC_PL_MAX_PLPMTU.
 */
void quic_plpmtud_init(struct quic_plpmtud *pl)
{
	pl->max = QUIC_PL_MAX_PLPMTU;
	quic_pl_reset(pl, QUIC_PL_DISABLED);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_init);

/**
 * quic_plpmtud_set_max - change MAX_PLPMTU
 * @pl: the state
 * @max: the new maximum; clamped to [BASE_PLPMTU, QUIC_PL_MAX_PLPMTU]
 *
 * RFC 8899 Section 5.1.2: MAX_PLPMTU is bounded by the local interface and
 * by what the peer can receive (its max_udp_payload_size). A PLPMTU above
 * the new maximum is lowered to it, and a probe above it is abandoned.
 *
 * Return: the new PLPMTU if it changed, otherwise 0.
 */
u32 quic_plpmtud_set_max(struct quic_plpmtud *pl, u32 max)
{
	u32 ret = 0;

	max = clamp_t(u32, max, QUIC_PL_BASE_PLPMTU, QUIC_PL_MAX_PLPMTU);
	pl->max = max;
	if (pl->probe_high > max)
		pl->probe_high = 0;
	if (pl->pmtu > max) {
		pl->pmtu = max;
		ret = max;
	}
	if (pl->state == QUIC_PL_SEARCH && pl->probe_size > max)
		quic_pl_search_next(pl);
	else if (pl->state == QUIC_PL_COMPLETE)
		pl->probe_size = pl->pmtu;
	return ret;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_set_max);

/**
 * quic_plpmtud_start - the path has connectivity: enter BASE
 * @pl: the state
 *
 * RFC 9000 Section 14.3.1: a QUIC sender enters BASE once the handshake is
 * complete. Also used to restart discovery on a new path; the next probe
 * is BASE_PLPMTU bytes and may be sent at once.
 *
 * Return: BASE_PLPMTU if the PLPMTU changed, otherwise 0.
 */
u32 quic_plpmtud_start(struct quic_plpmtud *pl)
{
	return quic_pl_reset(pl, QUIC_PL_BASE);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_start);

/**
 * quic_plpmtud_stop - the path lost connectivity: enter DISABLED
 * @pl: the state
 *
 * Return: BASE_PLPMTU if the PLPMTU changed, otherwise 0.
 */
u32 quic_plpmtud_stop(struct quic_plpmtud *pl)
{
	return quic_pl_reset(pl, QUIC_PL_DISABLED);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_stop);

/**
 * quic_plpmtud_sent - a probe of quic_plpmtud_probe_size() bytes was sent
 * @pl: the state
 * @number: packet number of the probe
 *
 * Only a probe sent in BASE, SEARCHING or ERROR is tracked; its
 * acknowledgment is then recognized by quic_plpmtud_ack().
 */
void quic_plpmtud_sent(struct quic_plpmtud *pl, s64 number)
{
	if (number < 0)
		return;
	if (pl->state == QUIC_PL_BASE || pl->state == QUIC_PL_SEARCH ||
	    pl->state == QUIC_PL_ERROR)
		pl->number = number;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_sent);

/**
 * quic_plpmtud_confirm - tell whether an ACK range covers the probe
 * @pl: the state
 * @largest: largest packet number of the range
 * @smallest: smallest packet number of the range
 *
 * Return: true when a probe is outstanding and its number is in the range.
 */
bool quic_plpmtud_confirm(const struct quic_plpmtud *pl, s64 largest, s64 smallest)
{
	return pl->number >= 0 && pl->number >= smallest && pl->number <= largest;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_confirm);

/**
 * quic_plpmtud_ack - handle an ACK range, confirming the probe if it covers it
 * @pl: the state
 * @largest: largest packet number of the range
 * @smallest: smallest packet number of the range
 *
 * An acknowledged probe confirms PROBED_SIZE: it becomes the PLPMTU
 * (RFC 8899 Section 5.3.1) and PROBE_COUNT is reset. BASE and ERROR then
 * move to SEARCHING; SEARCHING picks the next size, or moves to
 * SEARCH_COMPLETE when MAX_PLPMTU (or the upper bound of the search) is
 * reached.
 *
 * Return: the new PLPMTU if it changed, otherwise 0.
 */
u32 quic_plpmtud_ack(struct quic_plpmtud *pl, s64 largest, s64 smallest)
{
	u16 old = pl->pmtu;

	if (!quic_plpmtud_confirm(pl, largest, smallest))
		return 0;

	pl->pmtu = pl->probe_size;
	quic_pl_search_next(pl);
	return pl->pmtu != old ? pl->pmtu : 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_ack);

/**
 * quic_plpmtud_timeout - PROBE_TIMER expired with the probe unacknowledged
 * @pl: the state
 *
 * PROBE_COUNT is incremented and, below MAX_PROBES, a probe of the same
 * size is due again. On reaching MAX_PROBES: BASE enters ERROR (the path
 * does not carry BASE_PLPMTU); ERROR keeps probing BASE_PLPMTU; SEARCHING
 * takes the failed size as the upper bound and continues below it, or
 * enters SEARCH_COMPLETE when nothing is left to probe. An expiry with no
 * probe outstanding is ignored.
 *
 * Return: the new PLPMTU if it changed, otherwise 0 (a probe failure never
 * lowers the PLPMTU: only a black hole does).
 */
u32 quic_plpmtud_timeout(struct quic_plpmtud *pl)
{
	if (pl->number < 0)
		return 0;

	pl->number = -1;
	if (++pl->probe_count < QUIC_PL_MAX_PROBES)
		return 0;

	pl->probe_count = 0;
	switch (pl->state) {
	case QUIC_PL_BASE:
		pl->state = QUIC_PL_ERROR;
		break;
	case QUIC_PL_SEARCH:
		pl->probe_high = pl->probe_size;
		quic_pl_search_next(pl);
		break;
	default:
		break;
	}
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_timeout);

/**
 * quic_plpmtud_toobig - handle a validated Packet Too Big
 * @pl: the state
 * @size: PL_PTB_SIZE: the MTU it reports minus the IP and UDP headers
 *
 * RFC 8899 Section 4.6.2, with QUIC's rules (RFC 9000 Section 14.2.1):
 * - below BASE_PLPMTU (= MIN_PLPMTU): ignored;
 * - at or above PROBED_SIZE: inconsistent, ignored;
 * - from BASE_PLPMTU to below the PLPMTU: a black hole, back to BASE;
 * - equal to the PLPMTU: the probe was too big and the PLPMTU is the
 *   answer, SEARCHING enters SEARCH_COMPLETE;
 * - between the PLPMTU and PROBED_SIZE: the outstanding probe is lost and
 *   the reported size becomes the next probe (never the PLPMTU directly).
 *
 * Return: the new PLPMTU if it changed, otherwise 0.
 */
u32 quic_plpmtud_toobig(struct quic_plpmtud *pl, u32 size)
{
	if (pl->state == QUIC_PL_DISABLED)
		return 0;
	if (size < QUIC_PL_BASE_PLPMTU || size >= pl->probe_size)
		return 0;

	if (size < pl->pmtu)
		return quic_pl_reset(pl, QUIC_PL_BASE);

	/* PLPMTU <= size < PROBED_SIZE: only possible while SEARCHING. */
	pl->probe_high = size + 1;
	if (size == pl->pmtu) {
		quic_pl_search_next(pl);
		return 0;
	}
	pl->probe_size = size;
	pl->probe_count = 0;
	pl->number = -1;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_toobig);

/**
 * quic_plpmtud_black_hole - the path no longer carries PLPMTU-sized packets
 * @pl: the state
 *
 * Called by the caller's loss detection (RFC 8899 Section 4.3, third
 * indicator). SEARCHING and SEARCH_COMPLETE go back to BASE with the
 * PLPMTU at BASE_PLPMTU; other states already use BASE_PLPMTU.
 *
 * Return: BASE_PLPMTU if the PLPMTU changed, otherwise 0.
 */
u32 quic_plpmtud_black_hole(struct quic_plpmtud *pl)
{
	if (pl->state != QUIC_PL_SEARCH && pl->state != QUIC_PL_COMPLETE)
		return 0;
	return quic_pl_reset(pl, QUIC_PL_BASE);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_black_hole);

/**
 * quic_plpmtud_raise - PMTU_RAISE_TIMER expired in SEARCH_COMPLETE
 * @pl: the state
 *
 * The upper bound found by the last search is forgotten and SEARCHING is
 * entered again with the next size above the PLPMTU, unless the PLPMTU is
 * already MAX_PLPMTU. Ignored in any other state.
 *
 * Return: 0 (the PLPMTU does not change).
 */
u32 quic_plpmtud_raise(struct quic_plpmtud *pl)
{
	if (pl->state != QUIC_PL_COMPLETE)
		return 0;

	pl->probe_high = 0;
	if (quic_pl_next(pl))
		quic_pl_search_next(pl);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_plpmtud_raise);
