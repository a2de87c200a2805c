/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers of the suites that drive a send queue by hand (quic_outqueue,
 * quic_recovery): a client's outqueue with its packet number spaces,
 * NewReno congestion controller and stream table, filled at explicit
 * microsecond times and read back with the frame decoder, as the server
 * would.
 */

#ifndef __net_quic_tests_outqueue_util_h__
#define __net_quic_tests_outqueue_util_h__

#include <kunit/test.h>

#include "../outqueue.h"

/* Any start time works; a large one shows nothing depends on time 0. */
#define OQ_T0		(1000ULL * 1000 * 1000)
#define OQ_ROOM		1200
#define OQ_OVERHEAD	30
#define OQ_FRAMES	16

/* RFC 9002 Section 6.2.1 with kInitialRtt (no sample yet): 333000 +
 * max(4 * 166500, 1000) = 999000 us, plus max_ack_delay 25000 us for the
 * Application space.
 */
#define OQ_PTO_APP	1024000ULL

struct oq_env {
	struct quic_pnspace space[QUIC_PNSPACE_MAX];
	struct quic_cong cong;
	struct quic_stream_table streams;
	struct quic_outq outq;
	struct quic_stream *acked[4];
	u32 nacked;
	u8 data[4096];
	u8 buf[OQ_ROOM];
	struct quic_outq_tx tx;
	struct quic_frame frames[OQ_FRAMES];
	u32 nframes;
	bool nagle;
};

struct oq_env *oq_env_new(struct kunit *test, u64 sdata, u64 max_data);
struct oq_env *oq_env_default(struct kunit *test);
struct quic_stream *oq_stream(struct kunit *test, struct oq_env *e, s64 id);
u32 oq_fill_min(struct kunit *test, struct oq_env *e, u8 level, u32 room, u64 now,
		u32 min_eliciting);
u32 oq_fill(struct kunit *test, struct oq_env *e, u8 level, u32 room, u64 now);
void oq_decode(struct kunit *test, struct oq_env *e, u8 level);
s64 oq_send_data(struct kunit *test, struct oq_env *e, struct quic_stream *s,
		 u32 offset, u32 len, u64 now);
void oq_queue(struct kunit *test, struct oq_env *e, struct quic_stream *s, u32 offset,
	      u32 len, bool fin);
void oq_owe_ack(struct kunit *test, struct quic_pnspace *space, s64 pn);
s64 oq_send_ping(struct kunit *test, struct oq_env *e, u8 level, u64 now);
struct quic_frame oq_ack(u64 lo, u64 hi, const struct quic_ack_range *ranges, u32 n);
int oq_on_ack(struct oq_env *e, u8 level, u64 lo, u64 hi, u64 now);
void oq_expect_stream(struct kunit *test, struct oq_env *e, s64 id, u64 offset, u32 len);
struct oq_env *oq_env_confirmed(struct kunit *test);
u32 oq_count(struct kunit *test, struct oq_env *e, u8 type, struct quic_frame *last);
s64 oq_send_marked(struct kunit *test, struct oq_env *e, u64 now);

#endif /* __net_quic_tests_outqueue_util_h__ */
