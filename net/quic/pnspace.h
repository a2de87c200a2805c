/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC packet number spaces (RFC 9000 Section 12.3, RFC 9002 Section 4.1).
 *
 * One struct quic_pnspace exists per packet number space: Initial,
 * Handshake and Application data. 0-RTT and 1-RTT packets share the
 * Application space; quic_pnspace_index() maps an encryption level to its
 * space.
 *
 * The sending half holds the next packet number and the loss detection
 * inputs of RFC 9002 (bytes in flight, loss time, largest acknowledged).
 * The receiving half is a map of the packet numbers received, from which
 * ACK frames are built (RFC 9000 Sections 13.2 and 19.3).
 *
 * Nothing here knows about sockets or clocks: every time is a u64 count of
 * microseconds handed in by the caller, who also serialises access (the
 * socket lock).
 */

#ifndef __net_quic_pnspace_h__
#define __net_quic_pnspace_h__

#include <linux/types.h>
#include <linux/quic.h>

#include "common.h"

/* RFC 9000 Section 12.3: packet numbers run from 0 to 2^62 - 1. */
#define QUIC_PN_MAX			QUIC_VARINT_MAX

/* ACK Range (Gap, ACK Range Length) pairs reported after the First ACK
 * Range; older ranges are left out (RFC 9000 Section 13.2.3).
 */
#define QUIC_PN_MAX_GAPS		32

/* Received-packet map, in packet numbers (bits). It starts small, grows in
 * steps up to a hard limit, and its base is advanced once a new largest
 * packet number lies more than QUIC_PN_MAP_LIMIT above the last checkpoint.
 */
#define QUIC_PN_MAP_INITIAL		64
#define QUIC_PN_MAP_INCREMENT		64
#define QUIC_PN_MAP_SIZE		4096
#define QUIC_PN_MAP_LIMIT		(QUIC_PN_MAP_SIZE * 3 / 4)

/* Default age after which received ranges are forgotten: three times
 * kInitialRtt (333 ms, RFC 9002 Section 6.2.2), in microseconds.
 */
#define QUIC_PNSPACE_TIME_LIMIT		(333000 * 3)

/* Initial, Handshake and Application data. */
#define QUIC_PNSPACE_MAX		(QUIC_CRYPTO_MAX - 1)

/* ECN counters, in the order of the ECN Counts of an ACK frame
 * (RFC 9000 Section 19.3.2).
 */
enum quic_ecn_count {
	QUIC_ECN_ECT0,
	QUIC_ECN_ECT1,
	QUIC_ECN_CE,
	QUIC_ECN_MAX
};

enum quic_ecn_dir {
	QUIC_ECN_LOCAL,		/* codepoints seen in the IP headers of packets received */
	QUIC_ECN_PEER,		/* counts the peer reported in its ACK frames */
	QUIC_ECN_DIR_MAX
};

/**
 * struct quic_ack_range - one ACK Range of an ACK frame (RFC 9000 Section 19.3.1)
 * @gap: Gap, the number of unacknowledged packets below the previous range, minus one
 * @len: ACK Range Length, the number of acknowledged packets in this range, minus one
 */
struct quic_ack_range {
	u64 gap;
	u64 len;
};

/**
 * struct quic_ack_info - the acknowledgment fields of an ACK frame
 * @largest: Largest Acknowledged
 * @largest_time: when @largest was received (microseconds), for ACK Delay
 * @smallest: smallest packet number covered by the reported ranges
 * @first_range: First ACK Range
 * @range_count: ACK Range Count, the number of valid entries in @ranges
 * @ranges: ACK Ranges, in descending packet number order
 */
struct quic_ack_info {
	s64 largest;
	u64 largest_time;
	s64 smallest;
	u64 first_range;
	u32 range_count;
	struct quic_ack_range ranges[QUIC_PN_MAX_GAPS];
};

/**
 * struct quic_pnspace - one packet number space
 * @ecn_count: ECN counters by direction (&enum quic_ecn_dir) and codepoint
 * @pn_map: bitmap of received packet numbers; bit i stands for @base_pn + i
 * @pn_map_len: number of bits in @pn_map
 * @need_sack: an ACK frame is owed in this space
 * @ack_delayed: the ACK frame owed may wait for the ACK timer (max_ack_delay,
 *	RFC 9000 Section 13.2.1): until then it only goes in a packet sent for
 *	other frames, never in one of its own
 * @sack_path: path the ACK frame is to be sent on
 * @min_pn_seen: smallest packet number still tracked; anything lower is too old
 * @base_pn: smallest packet number at or above @min_pn_seen not received yet;
 *	every number in [@min_pn_seen, @base_pn) has been received
 * @max_pn_seen: largest packet number received, -1 before the first one
 * @max_pn_time: when @max_pn_seen was received
 * @last_max_pn_seen: @max_pn_seen at the last checkpoint (window advance)
 * @last_max_pn_time: when that checkpoint was taken
 * @max_time_limit: age of a checkpoint after which the window advances
 * @next_pn: packet number for the next packet sent
 * @inflight: bytes of ack-eliciting packets in flight (RFC 9002 Appendix A.1)
 * @loss_time: time at which the next packet will be declared lost, 0 if none
 * @last_sent_time: when the last ack-eliciting packet was sent
 * @max_pn_acked_seen: largest packet number the peer acknowledged, -1 if none
 * @max_pn_acked_time: when @max_pn_acked_seen was first acknowledged
 */
struct quic_pnspace {
	u64 ecn_count[QUIC_ECN_DIR_MAX][QUIC_ECN_MAX];
	unsigned long *pn_map;
	u16 pn_map_len;
	u8 need_sack:1;
	u8 ack_delayed:1;
	u8 sack_path:1;

	s64 min_pn_seen;
	s64 base_pn;
	s64 max_pn_seen;
	u64 max_pn_time;
	s64 last_max_pn_seen;
	u64 last_max_pn_time;
	u64 max_time_limit;

	s64 next_pn;
	u32 inflight;
	u64 loss_time;
	u64 last_sent_time;
	s64 max_pn_acked_seen;
	u64 max_pn_acked_time;
};

/**
 * quic_pnspace_index - packet number space of an encryption level
 * @level: &enum quic_crypto_level
 *
 * 0-RTT (QUIC_CRYPTO_EARLY) shares the Application data space with 1-RTT
 * (RFC 9002 Section 4.1).
 *
 * Return: an index below %QUIC_PNSPACE_MAX.
 */
static inline u8 quic_pnspace_index(u8 level)
{
	return level == QUIC_CRYPTO_EARLY ? QUIC_CRYPTO_APP : level % QUIC_PNSPACE_MAX;
}

/* True once a packet has been received in this space. */
static inline bool quic_pnspace_has_received(const struct quic_pnspace *space)
{
	return space->max_pn_seen >= 0;
}

/* True when some packet number below the largest received is missing. */
static inline bool quic_pnspace_has_gap(const struct quic_pnspace *space)
{
	return space->base_pn <= space->max_pn_seen;
}

static inline void quic_pnspace_set_time_limit(struct quic_pnspace *space, u64 usecs)
{
	space->max_time_limit = usecs;
}

/* An ACK frame of type 0x03 (with ECN Counts) is sent once any is non-zero. */
static inline bool quic_pnspace_has_ecn_count(const struct quic_pnspace *space)
{
	const u64 *c = space->ecn_count[QUIC_ECN_LOCAL];

	return c[QUIC_ECN_ECT0] || c[QUIC_ECN_ECT1] || c[QUIC_ECN_CE];
}

int quic_pnspace_init(struct quic_pnspace *space, gfp_t gfp);
void quic_pnspace_free(struct quic_pnspace *space);

int quic_pnspace_check(const struct quic_pnspace *space, s64 pn);
int quic_pnspace_mark(struct quic_pnspace *space, s64 pn, u64 now);
int quic_pnspace_ack_info(const struct quic_pnspace *space, struct quic_ack_info *info);

s64 quic_pnspace_next_pn(struct quic_pnspace *space);
bool quic_pnspace_set_max_pn_acked(struct quic_pnspace *space, s64 pn, u64 now);

void quic_pnspace_inc_ecn_count(struct quic_pnspace *space, u8 ecn);
bool quic_pnspace_set_ecn_count(struct quic_pnspace *space, const u64 *count);

#endif /* __net_quic_pnspace_h__ */
