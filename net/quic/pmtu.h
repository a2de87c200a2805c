/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC Datagram Packetization Layer PMTU Discovery (RFC 8899, applied to
 * QUIC by RFC 9000 Section 14.3).
 *
 * A pure state machine: it owns no timer and sends nothing. The caller
 * feeds it events (probe sent, probe acknowledged, PROBE_TIMER expiry,
 * Packet Too Big, black hole, PMTU_RAISE_TIMER expiry) and reads back the
 * size of the next probe. Every event returns the new PLPMTU when the event
 * changed it (so the caller can resize its packets), and 0 otherwise.
 *
 * All sizes are QUIC datagram sizes, i.e. UDP payload bytes.
 */

#ifndef __net_quic_pmtu_h__
#define __net_quic_pmtu_h__

#include <linux/types.h>

#include "common.h"

/*
 * RFC 9000 Section 14.3: BASE_PLPMTU is QUIC's smallest allowed maximum
 * datagram size, and MIN_PLPMTU is the same value.
 */
#define QUIC_PL_BASE_PLPMTU	QUIC_MIN_UDP_PAYLOAD
/* The largest PLPMTU searched for: a jumbo frame payload. */
#define QUIC_PL_MAX_PLPMTU	9000
/* RFC 8899 Section 5.1.2: the default value of MAX_PROBES. */
#define QUIC_PL_MAX_PROBES	3

/*
 * Search granularity (RFC 8899 Section 5.3.2 leaves the method to the
 * implementation): probe sizes are multiples of QUIC_PL_MIN_STEP, and the
 * search ends when the PLPMTU is that close to the smallest failed size.
 */
#define QUIC_PL_MIN_STEP	4

/* RFC 8899 Section 5.2, Figure 5. */
enum quic_pl_state {
	QUIC_PL_DISABLED,
	QUIC_PL_BASE,
	QUIC_PL_SEARCH,		/* SEARCHING */
	QUIC_PL_COMPLETE,	/* SEARCH_COMPLETE */
	QUIC_PL_ERROR,
};

/**
 * struct quic_plpmtud - PLPMTUD state of one path (RFC 8899 Section 5.1.3)
 * @number: packet number of the outstanding probe, or -1 when none is
 *          outstanding (0 is a valid packet number)
 * @pmtu: PLPMTU, the largest datagram size confirmed on the path
 * @probe_size: PROBED_SIZE, the size of the next or outstanding probe
 * @probe_high: smallest size known not to pass (a probe of it was lost
 *              MAX_PROBES times, or a Packet Too Big said so), 0 when no
 *              such size is known
 * @max: MAX_PLPMTU
 * @probe_count: PROBE_COUNT, unacknowledged probes of the current size
 * @state: an enum quic_pl_state value
 */
struct quic_plpmtud {
	s64 number;
	u16 pmtu;
	u16 probe_size;
	u16 probe_high;
	u16 max;
	u8 probe_count;
	u8 state;
};

void quic_plpmtud_init(struct quic_plpmtud *pl);
u32 quic_plpmtud_set_max(struct quic_plpmtud *pl, u32 max);
u32 quic_plpmtud_start(struct quic_plpmtud *pl);
u32 quic_plpmtud_stop(struct quic_plpmtud *pl);
void quic_plpmtud_sent(struct quic_plpmtud *pl, s64 number);
bool quic_plpmtud_confirm(const struct quic_plpmtud *pl, s64 largest, s64 smallest);
u32 quic_plpmtud_ack(struct quic_plpmtud *pl, s64 largest, s64 smallest);
u32 quic_plpmtud_timeout(struct quic_plpmtud *pl);
u32 quic_plpmtud_toobig(struct quic_plpmtud *pl, u32 size);
u32 quic_plpmtud_black_hole(struct quic_plpmtud *pl);
u32 quic_plpmtud_raise(struct quic_plpmtud *pl);

static inline u8 quic_plpmtud_state(const struct quic_plpmtud *pl)
{
	return pl->state;
}

static inline u32 quic_plpmtud_pmtu(const struct quic_plpmtud *pl)
{
	return pl->pmtu;
}

static inline u32 quic_plpmtud_probe_size(const struct quic_plpmtud *pl)
{
	return pl->probe_size;
}

/* A probe should be sent when probing and none is in flight. */
static inline bool quic_plpmtud_need_probe(const struct quic_plpmtud *pl)
{
	return (pl->state == QUIC_PL_BASE || pl->state == QUIC_PL_SEARCH ||
		pl->state == QUIC_PL_ERROR) && pl->number < 0;
}

#endif /* __net_quic_pmtu_h__ */
