// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_outqueue: the send queue and its loss recovery
 * (outqueue.c, recovery.c). Packet filling with ACK frames, splitting,
 * flow control (RFC 9000 Section 4) and the congestion window (RFC 9002
 * Section 7); acknowledgment processing, RTT samples, loss by packet and
 * time threshold, persistent congestion (RFC 9002 Sections 5 to 7); the
 * loss detection timer and its probes (Section 6.2, Appendix A.8, A.9);
 * discarding a packet number space (Section 6.4); retransmission of
 * information rather than packets (RFC 9000 Section 13.3).
 *
 * Each case drives an outqueue of a client, with its own packet number
 * spaces, NewReno congestion controller and stream table, through explicit
 * microsecond times, and reads back the payloads it wrote with the frame
 * decoder, as the server would.
 */

#include <kunit/test.h>
#include <linux/uio.h>

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

static void oq_env_free(void *arg)
{
	struct oq_env *e = arg;
	int i;

	quic_outq_free(&e->outq);
	quic_stream_table_free(&e->streams);
	for (i = 0; i < QUIC_PNSPACE_MAX; i++)
		quic_pnspace_free(&e->space[i]);
}

static void oq_stream_acked(struct quic_outq *outq, struct quic_stream *s)
{
	struct oq_env *e = container_of(outq, struct oq_env, outq);

	if (e->nacked < ARRAY_SIZE(e->acked))
		e->acked[e->nacked] = s;
	e->nacked++;
}

/* A client whose peer allows 100 streams, @sdata bytes per stream and
 * @max_data bytes on the connection.
 */
static struct oq_env *oq_env_new(struct kunit *test, u64 sdata, u64 max_data)
{
	struct quic_transport_param p = {
		.max_streams_bidi = 100,
		.max_streams_uni = 100,
		.max_stream_data_bidi_local = sdata,
		.max_stream_data_bidi_remote = sdata,
		.max_stream_data_uni = sdata,
	};
	struct oq_env *e;
	int i;

	e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, e);
	for (i = 0; i < QUIC_PNSPACE_MAX; i++)
		KUNIT_ASSERT_EQ(test, quic_pnspace_init(&e->space[i], GFP_KERNEL), 0);
	quic_cong_init(&e->cong);
	KUNIT_ASSERT_EQ(test, quic_stream_table_init(&e->streams, false, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, quic_stream_set_param(&e->streams, &p), 0);
	p.remote = 1;
	KUNIT_ASSERT_EQ(test, quic_stream_set_param(&e->streams, &p), 0);
	quic_outq_init(&e->outq, e->space, &e->cong, &e->streams, false);
	e->outq.stream_acked = oq_stream_acked;
	quic_outq_set_max_data(&e->outq, max_data);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, oq_env_free, e), 0);

	for (i = 0; i < ARRAY_SIZE(e->data); i++)
		e->data[i] = i * 7 + 1;
	return e;
}

static struct oq_env *oq_env_default(struct kunit *test)
{
	return oq_env_new(test, 1 << 20, 1 << 20);
}

static struct quic_stream *oq_stream(struct kunit *test, struct oq_env *e, s64 id)
{
	struct quic_stream *s = quic_stream_send_get(&e->streams, id, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	return s;
}

/* Fill one packet at @level with @room bytes at @now, an ack-eliciting
 * payload padded to @min_eliciting bytes; return its length.
 */
static u32 oq_fill_min(struct kunit *test, struct oq_env *e, u8 level, u32 room, u64 now,
		       u32 min_eliciting)
{
	e->tx = (struct quic_outq_tx){
		.level = level,
		.buf = e->buf,
		.room = room,
		.overhead = OQ_OVERHEAD,
		.min_eliciting = min_eliciting,
		.nagle = e->nagle,
		.now = now,
	};
	KUNIT_ASSERT_EQ(test, quic_outq_fill(&e->outq, &e->tx, GFP_KERNEL), 0);
	KUNIT_ASSERT_LE(test, e->tx.len, room);
	return e->tx.len;
}

/* The same without padding. */
static u32 oq_fill(struct kunit *test, struct oq_env *e, u8 level, u32 room, u64 now)
{
	return oq_fill_min(test, e, level, room, now, 0);
}

/* Decode the payload just filled, as the server receives it. */
static void oq_decode(struct kunit *test, struct oq_env *e, u8 level)
{
	struct quic_frame_ctx ctx = { .level = level, .is_serv = 1, .max_datagram = 65535 };
	const u8 *p = e->buf;
	u32 left = e->tx.len;
	struct quic_frame *f;

	e->nframes = 0;
	while (left) {
		KUNIT_ASSERT_LT(test, e->nframes, OQ_FRAMES);
		f = &e->frames[e->nframes++];
		KUNIT_ASSERT_EQ(test, quic_frame_decode(&p, &left, &ctx, f), 0);
	}
}

/* Queue @len pattern bytes at @offset of the pattern on @s and send them
 * in one Application packet at @now; return its packet number.
 */
static s64 oq_send_data(struct kunit *test, struct oq_env *e, struct quic_stream *s,
			u32 offset, u32 len, u64 now)
{
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data + offset, len,
						      false, GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, now), 0U);
	KUNIT_ASSERT_TRUE(test, e->tx.ack_eliciting);
	return e->tx.pn;
}

/* Queue @len pattern bytes at @offset on @s, with the FIN if @fin. */
static void oq_queue(struct kunit *test, struct oq_env *e, struct quic_stream *s, u32 offset,
		     u32 len, bool fin)
{
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data + offset, len, fin,
						      GFP_KERNEL), 0);
}

/* The peer's packet @pn arrived in @space: an ACK frame is owed there. */
static void oq_owe_ack(struct kunit *test, struct quic_pnspace *space, s64 pn)
{
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, pn, OQ_T0), 0);
	space->need_sack = 1;
}

/* Send a packet holding a PING only (ack-eliciting, nothing to repair). */
static s64 oq_send_ping(struct kunit *test, struct oq_env *e, u8 level, u64 now)
{
	struct quic_frame f = { .type = QUIC_FRAME_PING };

	KUNIT_ASSERT_EQ(test, quic_outq_ctrl_append(&e->outq, level, &f, GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, level, OQ_ROOM, now), 0U);
	return e->tx.pn;
}

/* An ACK frame for [@lo, @hi] with @n further ranges. */
static struct quic_frame oq_ack(u64 lo, u64 hi, const struct quic_ack_range *ranges, u32 n)
{
	struct quic_frame f = { .type = QUIC_FRAME_ACK };

	f.ack.largest = hi;
	f.ack.first_range = hi - lo;
	f.ack.range_count = n;
	f.ack.ranges = ranges;
	return f;
}

static int oq_on_ack(struct oq_env *e, u8 level, u64 lo, u64 hi, u64 now)
{
	struct quic_frame f = oq_ack(lo, hi, NULL, 0);

	return quic_outq_on_ack(&e->outq, level, &f, 0, now);
}

/* The packet must hold one STREAM frame: stream @id, @offset, the pattern
 * bytes [@offset, @offset + @len).
 */
static void oq_expect_stream(struct kunit *test, struct oq_env *e, s64 id, u64 offset, u32 len)
{
	const struct quic_frame *f;

	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 1U);
	f = &e->frames[0];
	KUNIT_EXPECT_EQ(test, f->type & ~7, QUIC_FRAME_STREAM);
	KUNIT_EXPECT_EQ(test, f->data.id, (u64)id);
	KUNIT_EXPECT_EQ(test, f->data.offset, offset);
	KUNIT_ASSERT_EQ(test, f->data.len, len);
	KUNIT_EXPECT_MEMEQ(test, f->data.data, e->data + offset, len);
}

/* SIOCOUTQNSD counts new data only; SIOCOUTQ holds it until acknowledged. */
static void outqueue_unsent_excludes_sent_data_and_counts_datagrams(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);

	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data, 100, false,
						      GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_unsent(&e->outq), 100ULL);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 100ULL);

	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	KUNIT_EXPECT_EQ(test, quic_outq_unsent(&e->outq), 0ULL);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 100ULL);

	KUNIT_ASSERT_EQ(test, quic_outq_datagram_append(&e->outq, e->data, 20, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_unsent(&e->outq), 20ULL);

	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 0, OQ_T0 + 20000), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 20ULL);
}

/* sendmsg()'s path: the bytes are taken from the iterator into the frame
 * kept for retransmission. An iterator that runs dry (a user buffer that
 * faults) queues nothing: no frame, no stream entry, no datagram, no send
 * buffer bytes, and the next offset is still the stream's first.
 */
static void outqueue_data_from_a_short_iterator_queues_nothing(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	struct kvec kv = { .iov_base = e->data, .iov_len = 40 };
	struct iov_iter it;

	iov_iter_kvec(&it, ITER_SOURCE, &kv, 1, 40);
	KUNIT_EXPECT_EQ(test, quic_outq_stream_append_iter(&e->outq, s, &it, 100, false,
							   GFP_KERNEL), -EFAULT);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 0ULL);
	KUNIT_EXPECT_EQ(test, quic_outq_unsent(&e->outq), 0ULL);
	KUNIT_EXPECT_TRUE(test, list_empty(&e->outq.streams_list));
	iov_iter_kvec(&it, ITER_SOURCE, &kv, 1, 40);
	KUNIT_EXPECT_EQ(test, quic_outq_datagram_append_iter(&e->outq, &it, 41, GFP_KERNEL),
			-EFAULT);
	KUNIT_EXPECT_TRUE(test, list_empty(&e->outq.datagrams));
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 0ULL);
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);

	/* A whole one: consumed exactly, sent from offset 0. */
	kv.iov_len = 100;
	iov_iter_kvec(&it, ITER_SOURCE, &kv, 1, 100);
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append_iter(&e->outq, s, &it, 60, false,
							   GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&it), 40UL);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 60ULL);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	oq_expect_stream(test, e, 0, 0, 60);
}

/* RFC 9002 Section 6.2.2.1: a server blocked by the amplification limit
 * arms no PTO; once the limit is lifted the timer must come back, or data
 * lost afterwards would never be repaired.
 */
static void outqueue_pto_held_back_only_while_amplification_limited(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level;

	/* No PTO in the application space before confirmation (Section 6.2.1). */
	quic_outq_set_confirmed(&e->outq);
	oq_send_data(test, e, s, 0, 100, OQ_T0);
	KUNIT_EXPECT_GT(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
	quic_outq_set_amp_limited(&e->outq, true);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
	/* Validation lifts the limit even when no datagram follows it. */
	quic_outq_set_peer_validated(&e->outq);
	KUNIT_EXPECT_GT(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
}

static void outqueue_ack_of_never_sent_packet_is_refused(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u32 inflight;

	/* Arrange: packet 0 is the only one sent in the Application space. */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	inflight = quic_cong_in_flight(&e->cong);

	/* Act + Assert: RFC 9000 Section 13.1, acknowledging packet 1 (never
	 * sent) is a PROTOCOL_VIOLATION; so is any ACK in the Handshake space,
	 * where nothing was sent. Nothing changes.
	 */
	KUNIT_EXPECT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 1, OQ_T0 + 1000), -EPROTO);
	KUNIT_EXPECT_EQ(test, quic_frame_transport_error(-EPROTO),
			(u32)QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);
	KUNIT_EXPECT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_HANDSHAKE, 0, 0, OQ_T0 + 1000), -EPROTO);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), inflight);
	KUNIT_EXPECT_EQ(test, e->space[QUIC_CRYPTO_APP].max_pn_acked_seen, -1LL);

	/* The right ACK is taken. */
	KUNIT_EXPECT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 0, OQ_T0 + 1000), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), 0U);
}

static void outqueue_rtt_sample_only_when_largest_newly_acked_is_eliciting(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);

	/* Arrange: packet 0 carries data; packet 1 is ACK-only (we owe the
	 * peer an ACK for its packet 0).
	 */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	oq_owe_ack(test, app, 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 10000), 0U);
	KUNIT_ASSERT_EQ(test, e->tx.pn, 1LL);
	KUNIT_ASSERT_FALSE(test, e->tx.ack_eliciting);

	/* Act: an ACK of packet 1 alone. RFC 9002 Section 5.1: the largest is
	 * newly acknowledged but nothing ack-eliciting is: no sample.
	 */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 1, OQ_T0 + 100000), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_latest_rtt(&e->cong), 0U);

	/* Act: packets 0 and 1. Packet 0 is ack-eliciting and newly acked, but
	 * the largest (1) is not newly acknowledged: still no sample.
	 */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 1, OQ_T0 + 150000), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_latest_rtt(&e->cong), 0U);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(&e->cong), QUIC_RTT_INIT);

	/* Act: packet 2 (data) sent at T0 + 200 ms, acknowledged 30 ms later:
	 * latest_rtt = 30000 us, the first sample (smoothed_rtt = 30000).
	 */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 100, 10, OQ_T0 + 200000), 2);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 2, 2, OQ_T0 + 230000), 0);
	KUNIT_EXPECT_EQ(test, quic_cong_latest_rtt(&e->cong), 30000U);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(&e->cong), 30000U);
}

static void outqueue_packet_threshold_loss_requeues_same_stream_bytes(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u32 window;
	int i;

	/* Arrange: packets 0..3, each with the next 100 bytes of stream 0. */
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, i * 100, 100, OQ_T0 + i), i);
	window = quic_cong_window(&e->cong);

	/* Act: 1..3 acknowledged. RFC 9002 Section 6.1.1: packet 0 is
	 * kPacketThreshold (3) below the largest acknowledged: lost.
	 */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 3, OQ_T0 + 20000), 0);

	/* Assert: it left bytes in flight, the window was reduced (a NewReno
	 * congestion event halves it), and its data waits for retransmission.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), 0U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(&e->cong), window / 2);
	KUNIT_EXPECT_EQ(test, e->space[QUIC_CRYPTO_APP].loss_time, 0ULL);

	/* RFC 9000 Section 13.3: the information goes in a new packet (4), a
	 * STREAM frame with the same offset and bytes.
	 */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 21000), 0U);
	KUNIT_EXPECT_EQ(test, e->tx.pn, 4LL);
	oq_expect_stream(test, e, 0, 0, 100);
}

static void outqueue_time_threshold_loss_sets_and_fires_loss_time(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);
	u64 expiry;
	u8 level;

	/* Arrange: packet 0 at T0, packet 1 at T0 + 1 ms; packet 1 is
	 * acknowledged at T0 + 50 ms: latest_rtt = smoothed_rtt = 49000 us.
	 */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 100, 100, OQ_T0 + 1000), 1);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 1, OQ_T0 + 50000), 0);

	/* Assert: RFC 9002 Section 6.1.2, loss delay = 9/8 * 49000 = 55125 us.
	 * Packet 0 is one below the largest acked and only 50 ms old: not
	 * lost yet, it will be at T0 + 55125, which the timer is armed for.
	 */
	KUNIT_EXPECT_EQ(test, app->loss_time, OQ_T0 + 55125);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0 + 50000, &level), OQ_T0 + 55125);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_APP);
	KUNIT_EXPECT_GT(test, quic_cong_in_flight(&e->cong), 0U);

	/* Act: the timer fires (Appendix A.9): packet 0 is lost. */
	expiry = app->loss_time;
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, expiry, &level),
			QUIC_OUTQ_TIMER_LOSS);

	/* Assert: nothing in flight, loss_time cleared, data requeued. */
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), 0U);
	KUNIT_EXPECT_EQ(test, app->loss_time, 0ULL);
	KUNIT_EXPECT_EQ(test, quic_cong_pto_count(&e->cong), 0U);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, expiry), 0U);
	oq_expect_stream(test, e, 0, 0, 100);
}

/* Client with a confirmed handshake: Application data PTOs are armed. */
static struct oq_env *oq_env_confirmed(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);

	quic_cong_set_confirmed(&e->cong);
	quic_outq_set_confirmed(&e->outq);
	return e;
}

static void outqueue_pto_backs_off_and_probes_with_new_data(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level = 0xff;

	/* Arrange: 100 bytes in packet 0, then 50 new bytes queued. */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data + 100, 50, false,
						      GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), OQ_T0 + OQ_PTO_APP);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_APP);

	/* Act: the PTO fires. */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);

	/* Assert: RFC 9002 Section 6.2.1 backoff; Section 6.2.4: the probe
	 * carries the new data, not a copy of packet 0, and a second probe
	 * (up to two are allowed) has nothing left but a PING.
	 */
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_APP);
	KUNIT_EXPECT_EQ(test, quic_cong_pto_count(&e->cong), 1U);
	KUNIT_EXPECT_TRUE(test, quic_outq_probe_pending(&e->outq, QUIC_CRYPTO_APP));
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + OQ_PTO_APP), 0U);
	oq_expect_stream(test, e, 0, 100, 50);
	KUNIT_EXPECT_TRUE(test, quic_outq_probe_pending(&e->outq, QUIC_CRYPTO_APP));
	KUNIT_ASSERT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + OQ_PTO_APP), 1U);
	KUNIT_EXPECT_EQ(test, e->buf[0], QUIC_FRAME_PING);
	KUNIT_EXPECT_FALSE(test, quic_outq_probe_pending(&e->outq, QUIC_CRYPTO_APP));
	/* The next PTO counts from the probe, with the doubled period. */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			OQ_T0 + 3 * OQ_PTO_APP);
}

static void outqueue_pto_probe_retransmits_oldest_despite_full_window(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level;

	/* Arrange: packet 0 holds 100 bytes, nothing new is queued, and the
	 * rest of the window is taken.
	 */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	quic_cong_on_packet_sent(&e->cong, OQ_T0, quic_cong_room(&e->cong));
	KUNIT_ASSERT_EQ(test, quic_cong_room(&e->cong), 0U);

	/* Act */
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);

	/* Assert: Section 6.2.4, no new data: the oldest unacknowledged data
	 * is sent again, and probes are not blocked by the window.
	 */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + OQ_PTO_APP), 0U);
	KUNIT_EXPECT_TRUE(test, e->tx.ack_eliciting);
	oq_expect_stream(test, e, 0, 0, 100);
}

static void outqueue_pto_probe_is_ping_when_nothing_to_send(struct kunit *test)
{
	static const u8 ping[] = { QUIC_FRAME_PING };
	struct oq_env *e = oq_env_confirmed(test);
	u8 level;

	/* Arrange: packet 0 held a PING, which is never repaired. */
	KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_APP, OQ_T0), 0);

	/* Act */
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);

	/* Assert: Section 6.2.4, no data at all: a PING alone. */
	KUNIT_ASSERT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + OQ_PTO_APP), 1U);
	KUNIT_EXPECT_MEMEQ(test, e->buf, ping, sizeof(ping));
	KUNIT_EXPECT_TRUE(test, e->tx.ack_eliciting);
	KUNIT_EXPECT_EQ(test, e->tx.pn, 1LL);
}

static void outqueue_pto_not_armed_with_nothing_in_flight(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	u8 level;

	/* Arrange + Act + Assert: RFC 9002 Appendix A.8, the peer validated
	 * our address and nothing ack-eliciting is in flight: no timer.
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0, &level),
			QUIC_OUTQ_TIMER_NONE);

	/* Once packet 0 is acknowledged, again nothing is in flight. */
	KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_APP, OQ_T0), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), OQ_T0 + OQ_PTO_APP);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 0, OQ_T0 + 5000), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0 + 5000, &level), 0ULL);
}

/*
 * RFC 9000 Section 21.9: answers the peer asks for (here NEW_CONNECTION_ID
 * frames) are held up to QUIC_OUTQ_CTRL_MAX, then refused; frames of our
 * own, such as the stream credit of an application reading many streams,
 * are never refused for that bound, nor is CONNECTION_CLOSE.
 */
static void outqueue_answers_to_the_peer_are_bounded(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_frame f = { .type = QUIC_FRAME_NEW_CONNECTION_ID };
	u32 i;

	f.new_cid.id.len = 8;
	for (i = 0; i < QUIC_OUTQ_CTRL_MAX; i++) {
		f.new_cid.seqno = i;
		KUNIT_ASSERT_EQ(test, quic_outq_ctrl_append(&e->outq, QUIC_CRYPTO_APP, &f,
							    GFP_KERNEL), 0);
	}
	f.new_cid.seqno = i;
	KUNIT_EXPECT_EQ(test, quic_outq_ctrl_append(&e->outq, QUIC_CRYPTO_APP, &f, GFP_KERNEL),
			-ENOSPC);

	f = (struct quic_frame){ .type = QUIC_FRAME_MAX_STREAM_DATA };
	for (i = 0; i < 2 * QUIC_OUTQ_CTRL_MAX; i++) {
		f.limit.id = 4 * i;
		f.limit.max = 100000;
		KUNIT_ASSERT_EQ(test, quic_outq_ctrl_append(&e->outq, QUIC_CRYPTO_APP, &f,
							    GFP_KERNEL), 0);
	}
	f = (struct quic_frame){ .type = QUIC_FRAME_CONNECTION_CLOSE };
	KUNIT_EXPECT_EQ(test, quic_outq_ctrl_append(&e->outq, QUIC_CRYPTO_APP, &f, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, e->outq.ctrl_held, (u32)QUIC_OUTQ_CTRL_MAX);
}

/*
 * RFC 9002 Section 6.2.4: a PTO expiry sends up to two probes. A PLPMTUD
 * probe (a padded PING, RFC 9000 Section 14.4) that leaves meanwhile is
 * about the path's size, not about the loss: it takes none of them.
 */
static void outqueue_pmtu_probe_takes_no_pto_probe(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 idx = quic_pnspace_index(QUIC_CRYPTO_APP);
	u8 level;

	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_ASSERT_EQ(test, (u32)e->outq.spaces[idx].probe, (u32)QUIC_OUTQ_PTO_PROBES);

	e->tx = (struct quic_outq_tx){
		.level = QUIC_CRYPTO_APP, .buf = e->buf, .room = OQ_ROOM, .overhead = OQ_OVERHEAD,
		.min_len = OQ_ROOM, .pmtu_probe = true, .now = OQ_T0 + OQ_PTO_APP,
	};
	KUNIT_ASSERT_EQ(test, quic_outq_fill(&e->outq, &e->tx, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, e->tx.len, (u32)OQ_ROOM);
	KUNIT_EXPECT_EQ(test, (u32)e->outq.spaces[idx].probe, (u32)QUIC_OUTQ_PTO_PROBES);
}

/*
 * RFC 9002 Section 6.2.2.1: until the server validated its address, a
 * client MUST keep a PTO armed even with nothing in flight. 0-RTT packets
 * in flight do not take that PTO away: the Application space is not
 * probed before the handshake is confirmed. Here the client's Initial was
 * acknowledged, its 0-RTT data is in flight, and nothing more comes.
 */
static void outqueue_client_with_only_0rtt_in_flight_keeps_a_pto(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level = 0xff;
	u64 expiry;

	KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_INITIAL, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_INITIAL, 0, 0, OQ_T0 + 1000), 0);
	oq_queue(test, e, s, 0, 100, false);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_EARLY, OQ_ROOM, OQ_T0 + 1000), 0U);
	KUNIT_ASSERT_TRUE(test, e->tx.ack_eliciting);

	expiry = quic_outq_loss_timer(&e->outq, OQ_T0 + 2000, &level);
	KUNIT_EXPECT_GT(test, expiry, OQ_T0 + 2000);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_INITIAL);
	/* Its expiry asks for an Initial probe (padded by the caller). */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, expiry, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_INITIAL);
}

/*
 * The loss detection timer counts in jiffies and may fire a little before
 * the PTO time it was armed for (RFC 9002 Section 6.2.1): that expiry is
 * no PTO. Nothing is probed, the backoff does not grow, and the caller
 * arms the timer again; at the PTO time the probe goes.
 */
static void outqueue_pto_timer_firing_early_probes_nothing(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u8 level;

	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP - 1000, &level),
			QUIC_OUTQ_TIMER_NONE);
	KUNIT_EXPECT_EQ(test, quic_cong_pto_count(&e->cong), 0U);
	KUNIT_EXPECT_FALSE(test, quic_outq_probe_pending(&e->outq, QUIC_CRYPTO_APP));
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + OQ_PTO_APP, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_EXPECT_EQ(test, quic_cong_pto_count(&e->cong), 1U);
}

static void outqueue_client_keeps_anti_deadlock_pto_until_validated(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	u8 level = 0xff;

	/* Arrange: a client before address validation, nothing in flight. */

	/* Act + Assert: RFC 9002 Section 6.2.2.1, the anti-deadlock PTO runs
	 * from now, in the Initial space (999000 us, no max_ack_delay)...
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), OQ_T0 + 999000);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_INITIAL);

	/* ... or in the Handshake space once it has Handshake keys. */
	quic_outq_set_hs_keys(&e->outq);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), OQ_T0 + 999000);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);

	/* Its expiry asks for a probe there (a PING when there is nothing). */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + 999000, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, OQ_T0 + 999000), 1U);

	/* A validated peer with nothing in flight: no timer at all. */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_HANDSHAKE, 0, 0, OQ_T0 + 1000000), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0 + 1000000, &level), 0ULL);
}

static void outqueue_no_application_pto_before_confirmation(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	u8 level;

	/* Arrange: validated but not confirmed, a 1-RTT packet in flight. */
	quic_outq_set_peer_validated(&e->outq);
	KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_APP, OQ_T0), 0);

	/* Act + Assert: RFC 9002 Section 6.2.1, no PTO for Application data
	 * until the handshake is confirmed; then it is armed.
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
	quic_outq_set_confirmed(&e->outq);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), OQ_T0 + OQ_PTO_APP);
}

static void outqueue_lost_handshake_data_keeps_a_pto_behind_a_full_window(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u64 expiry;
	u8 level;

	/* Arrange: a client's Finished (36 bytes of CRYPTO) in Handshake
	 * packet 0 at T0, a PING in packet 1 at T0 + 1 ms, then 1-RTT data
	 * filling the window, which the server cannot acknowledge before it
	 * has the Finished. Packet 1 is acknowledged at T0 + 50 ms and the
	 * loss timer declares packet 0 lost (time threshold).
	 */
	quic_outq_set_hs_keys(&e->outq);
	quic_outq_set_peer_validated(&e->outq);
	KUNIT_ASSERT_EQ(test, quic_outq_crypto_append(&e->outq, QUIC_CRYPTO_HANDSHAKE, e->data,
						      36, GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, OQ_T0), 0U);
	KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_T0 + 1000), 1);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0 + 2000), 0);
	quic_cong_on_packet_sent(&e->cong, OQ_T0 + 2000, quic_cong_room(&e->cong));
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_HANDSHAKE, 1, 1, OQ_T0 + 50000), 0);
	expiry = quic_outq_loss_timer(&e->outq, OQ_T0 + 50000, &level);
	KUNIT_ASSERT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, expiry, &level),
			QUIC_OUTQ_TIMER_LOSS);
	KUNIT_ASSERT_EQ(test, quic_cong_room(&e->cong), 0U);
	KUNIT_ASSERT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, expiry), 0U);

	/* Act + Assert: nothing of the Handshake space is in flight and the
	 * Application space gets no PTO before confirmation, yet the lost
	 * CRYPTO data keeps a Handshake PTO armed (RFC 9002 Section 6.2.1
	 * would leave no timer at all: a deadlock)...
	 */
	expiry = quic_outq_loss_timer(&e->outq, expiry, &level);
	KUNIT_EXPECT_GT(test, expiry, 0ULL);
	KUNIT_ASSERT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, expiry, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);

	/* ... and its probe carries the Finished again through the full
	 * window (Section 7.5).
	 */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, expiry), 0U);
	KUNIT_EXPECT_TRUE(test, e->tx.ack_eliciting);
	oq_decode(test, e, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_GE(test, e->nframes, 1U);
	KUNIT_EXPECT_EQ(test, e->frames[e->nframes - 1].type, QUIC_FRAME_CRYPTO);
	KUNIT_EXPECT_EQ(test, e->frames[e->nframes - 1].data.len, 36U);
}

static void outqueue_overdue_handshake_pto_goes_before_a_pending_loss_time(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);
	u64 now = OQ_T0 + 151000, pto;
	u8 level;

	/* Arrange: the client's Finished in Handshake packet 0 at T0, never
	 * acknowledged. 1-RTT packets 0 and 1 at T0 + 100 ms and + 101 ms;
	 * packet 1 is acknowledged at T0 + 151 ms (first RTT sample, 50 ms):
	 * packet 0 waits for the time threshold, T0 + 156.25 ms, while the
	 * Handshake PTO, T0 + 50 ms + 4 * 25 ms, is already overdue.
	 */
	quic_outq_set_hs_keys(&e->outq);
	KUNIT_ASSERT_EQ(test, quic_outq_crypto_append(&e->outq, QUIC_CRYPTO_HANDSHAKE, e->data,
						      36, GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, OQ_T0), 0U);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0 + 100000), 0);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 100, 100, OQ_T0 + 101000), 1);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 1, now), 0);
	pto = OQ_T0 + quic_cong_pto(&e->cong, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_EQ(test, app->loss_time, OQ_T0 + 156250);
	KUNIT_ASSERT_LT(test, pto, now);

	/* Act + Assert: the timer is the overdue PTO, not the loss time.
	 * Appendix A.8 would wait for the loss time, and on a lossy path each
	 * new acknowledgment of 1-RTT data sets another before the PTO gets
	 * its turn: the lost Finished would never go again.
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, now, &level), pto);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_EQ(test, quic_outq_loss_timeout(&e->outq, now, &level),
			QUIC_OUTQ_TIMER_PTO);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_EXPECT_EQ(test, app->loss_time, OQ_T0 + 156250);

	/* The probe carries the Finished again. */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_HANDSHAKE, OQ_ROOM, now), 0U);
	oq_decode(test, e, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_ASSERT_GE(test, e->nframes, 1U);
	KUNIT_EXPECT_EQ(test, e->frames[e->nframes - 1].type, QUIC_FRAME_CRYPTO);
	KUNIT_EXPECT_EQ(test, e->frames[e->nframes - 1].data.len, 36U);

	/* The next PTO is later (backed off, from the probe): the loss time
	 * is next, and its expiry declares 1-RTT packet 0 lost.
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, now, &level), OQ_T0 + 156250);
	KUNIT_EXPECT_EQ(test, level, QUIC_CRYPTO_APP);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timeout(&e->outq, OQ_T0 + 156250, &level),
			QUIC_OUTQ_TIMER_LOSS);
	KUNIT_EXPECT_EQ(test, app->loss_time, 0ULL);
}

static void outqueue_persistent_congestion_collapses_window(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	const u64 t1 = OQ_T0 + 100000;
	int i;

	/* Arrange: the first RTT sample, 10 ms (smoothed 10000, rttvar 5000). */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 10, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 0, OQ_T0 + 10000), 0);
	/* Packets 1 at t1 and 2 at t1 + 200 ms, then 3..5 just after. */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 10, 10, t1), 1);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 20, 10, t1 + 200000), 2);
	for (i = 3; i <= 5; i++)
		KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, i * 10, 10, t1 + 200000 + i), i);

	/* Act: only packet 5 is acknowledged, 10 ms after it was sent. */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 5, 5, t1 + 210005), 0);

	/* Assert: packets 1 and 2 are lost by packet threshold (3 and 4 are
	 * not: 2 and 1 below, 10 ms old, under the 11250 us time threshold).
	 * Section 7.6.1: duration = (10000 + max(4 * 3750, 1000) + 25000) * 3
	 * = 150000 us < 200 ms between two ack-eliciting losses sent after
	 * the first sample, with nothing between acknowledged: persistent
	 * congestion, the window falls to the minimum (Section 7.6.2).
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_window(&e->cong), quic_cong_min_window(&e->cong));
	KUNIT_EXPECT_EQ(test, quic_cong_window(&e->cong), 2400U);
}

static void outqueue_loss_period_broken_by_ack_is_not_persistent(struct kunit *test)
{
	/* After the First ACK Range [6, 6]: largest = 6 - Gap - 2 = 2, length 0. */
	static const struct quic_ack_range range_2 = { .gap = 2, .len = 0 };
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	const u64 t1 = OQ_T0 + 100000;
	struct quic_frame f;
	u32 window;
	int i;

	/* Arrange: as in the previous case, but with a packet between the two
	 * losses (2, at t1 + 100 ms) that gets acknowledged.
	 */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 10, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 0, OQ_T0 + 10000), 0);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 10, 10, t1), 1);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 20, 10, t1 + 100000), 2);
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 30, 10, t1 + 200000), 3);
	for (i = 4; i <= 6; i++)
		KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, i * 10, 10, t1 + 200000 + i), i);
	window = quic_cong_window(&e->cong);

	/* Act: packets 6 and 2 acknowledged (RFC 9000 Section 19.3.1 ranges). */
	f = oq_ack(6, 6, &range_2, 1);
	KUNIT_ASSERT_EQ(test, quic_outq_on_ack(&e->outq, QUIC_CRYPTO_APP, &f, 0, t1 + 210006), 0);

	/* Assert: 1 and 3 are lost (Section 6.1.1) and 200 ms apart, but an
	 * acknowledgment in between rules out persistent congestion (Section
	 * 7.6.2): one congestion event, the NewReno window is halved.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_window(&e->cong), window / 2);
	KUNIT_EXPECT_GT(test, quic_cong_window(&e->cong), quic_cong_min_window(&e->cong));
}

static void outqueue_discard_initial_removes_bytes_without_loss(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	u32 window = quic_cong_window(&e->cong);
	u8 level;

	/* Arrange: an Initial packet with 500 CRYPTO bytes, padded to 1200,
	 * and 100 more bytes queued.
	 */
	KUNIT_ASSERT_EQ(test, quic_outq_crypto_append(&e->outq, QUIC_CRYPTO_INITIAL, e->data, 500,
						      GFP_KERNEL), 0);
	e->tx = (struct quic_outq_tx){ .level = QUIC_CRYPTO_INITIAL, .buf = e->buf,
				       .room = OQ_ROOM, .overhead = OQ_OVERHEAD,
				       .min_len = OQ_ROOM, .now = OQ_T0 };
	KUNIT_ASSERT_EQ(test, quic_outq_fill(&e->outq, &e->tx, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, e->tx.len, (u32)OQ_ROOM);
	KUNIT_ASSERT_EQ(test, quic_cong_in_flight(&e->cong), OQ_ROOM + OQ_OVERHEAD);
	KUNIT_ASSERT_EQ(test, quic_outq_crypto_append(&e->outq, QUIC_CRYPTO_INITIAL,
						      e->data + 500, 100, GFP_KERNEL), 0);

	/* Act: RFC 9001 Section 4.9.1, the Initial keys are discarded. */
	quic_outq_discard_space(&e->outq, QUIC_CRYPTO_INITIAL);

	/* Assert: RFC 9002 Section 6.4, the bytes left flight without any
	 * congestion reaction, the queued data is gone, no timer is left for
	 * the space.
	 */
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), 0U);
	KUNIT_EXPECT_EQ(test, quic_cong_window(&e->cong), window);
	KUNIT_EXPECT_EQ(test, quic_cong_state(&e->cong), QUIC_CONG_SLOW_START);
	KUNIT_EXPECT_EQ(test, e->space[QUIC_CRYPTO_INITIAL].inflight, 0U);
	KUNIT_EXPECT_EQ(test, e->space[QUIC_CRYPTO_INITIAL].loss_time, 0ULL);
	KUNIT_EXPECT_FALSE(test, quic_outq_has_data(&e->outq, QUIC_CRYPTO_INITIAL));
	quic_outq_set_peer_validated(&e->outq);
	KUNIT_EXPECT_EQ(test, quic_outq_loss_timer(&e->outq, OQ_T0, &level), 0ULL);
}

static void outqueue_stream_data_split_across_packets_respects_room(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u64 next = 0;
	int n = 0;

	/* Arrange: 1000 bytes queued on stream 0. */
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data, 1000, true,
						      GFP_KERNEL), 0);

	/* Act: packets of 300 bytes of payload until nothing is left. */
	while (oq_fill(test, e, QUIC_CRYPTO_APP, 300, OQ_T0 + n)) {
		const struct quic_frame *f;

		/* Assert: every packet but the last is filled exactly, with one
		 * STREAM frame continuing where the previous one stopped.
		 */
		oq_decode(test, e, QUIC_CRYPTO_APP);
		KUNIT_ASSERT_EQ(test, e->nframes, 1U);
		f = &e->frames[0];
		KUNIT_EXPECT_EQ(test, f->data.offset, next);
		KUNIT_EXPECT_MEMEQ(test, f->data.data, e->data + next, f->data.len);
		next += f->data.len;
		KUNIT_EXPECT_EQ(test, !!(f->type & QUIC_STREAM_BIT_FIN), next == 1000);
		if (next < 1000)
			KUNIT_EXPECT_EQ(test, e->tx.len, 300U);
		KUNIT_ASSERT_LT(test, ++n, 10);
	}
	/* Headers: 4 bytes at offset 0, 6 after: 296 + 294 + 294 + 116. */
	KUNIT_EXPECT_EQ(test, next, 1000ULL);
	KUNIT_EXPECT_EQ(test, n, 4);
	KUNIT_EXPECT_EQ(test, s->send.state, QUIC_STREAM_SEND_STATE_SENT);
}

/* A write sent in several packets is not copied per packet: the frame each
 * packet carries points into the write's one buffer, which lives until the
 * last of them is acknowledged.
 */
static void outqueue_parts_of_a_write_share_its_bytes(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	struct quic_outq_space *sp = &e->outq.spaces[quic_pnspace_index(QUIC_CRYPTO_APP)];
	struct quic_outq_bytes *bytes = NULL;
	struct quic_outq_packet *pkt;
	struct quic_outq_frame *fr;
	int n = 0;

	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data, 1000, true,
						      GFP_KERNEL), 0);
	while (oq_fill(test, e, QUIC_CRYPTO_APP, 300, OQ_T0 + n))
		KUNIT_ASSERT_LT(test, ++n, 10);
	KUNIT_ASSERT_EQ(test, n, 4);

	list_for_each_entry(pkt, &sp->sent, list) {
		fr = list_first_entry(&pkt->frames, struct quic_outq_frame, list);
		KUNIT_ASSERT_NOT_NULL(test, fr->bytes);
		bytes = bytes ?: fr->bytes;
		KUNIT_EXPECT_PTR_EQ(test, fr->bytes, bytes);
	}
	KUNIT_ASSERT_NOT_NULL(test, bytes);
	KUNIT_EXPECT_EQ(test, refcount_read(&bytes->ref), 4U);

	/* Three acknowledged: the fourth packet's frame still holds the bytes. */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 2, OQ_T0 + 20000), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&bytes->ref), 1U);
	pkt = list_first_entry(&sp->sent, struct quic_outq_packet, list);
	fr = list_first_entry(&pkt->frames, struct quic_outq_frame, list);
	KUNIT_EXPECT_EQ(test, fr->offset, 884ULL);
	KUNIT_EXPECT_MEMEQ(test, fr->buf + fr->head, e->data + 884, 116);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 116ULL);
}

/* Count the frames of @type in the payload just filled; keep the last. */
static u32 oq_count(struct kunit *test, struct oq_env *e, u8 type, struct quic_frame *last)
{
	u32 i, n = 0;

	oq_decode(test, e, QUIC_CRYPTO_APP);
	for (i = 0; i < e->nframes; i++) {
		if (e->frames[i].type != type)
			continue;
		*last = e->frames[i];
		n++;
	}
	return n;
}

static void outqueue_max_data_blocks_and_queues_one_data_blocked(struct kunit *test)
{
	struct oq_env *e = oq_env_new(test, 1 << 20, 100);
	struct quic_stream *s = oq_stream(test, e, 0);
	struct quic_frame db = {};
	u32 blocked = 0;
	int i;

	/* Arrange: the peer allows 100 bytes on the connection; 300 queued. */
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data, 300, false,
						      GFP_KERNEL), 0);

	/* Act: the first packet takes the 100 bytes. */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	oq_expect_stream(test, e, 0, 0, 100);

	/* Act: more packets while blocked. */
	for (i = 1; i < 4; i++)
		if (oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + i))
			blocked += oq_count(test, e, QUIC_FRAME_DATA_BLOCKED, &db);

	/* Assert: RFC 9000 Sections 4.1 and 19.12, no byte beyond max_data,
	 * and exactly one DATA_BLOCKED carrying the limit.
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_data_sent(&e->outq), 100ULL);
	KUNIT_EXPECT_EQ(test, s->send.bytes, 100ULL);
	KUNIT_EXPECT_EQ(test, blocked, 1U);
	KUNIT_EXPECT_EQ(test, db.limit.max, 100ULL);
}

static void outqueue_max_data_raise_unblocks(struct kunit *test)
{
	struct oq_env *e = oq_env_new(test, 1 << 20, 100);
	struct quic_stream *s = oq_stream(test, e, 0);
	struct quic_frame db = {};

	/* Arrange: blocked at 100 with 200 bytes waiting. */
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data, 300, false,
						      GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 1), 0U);

	/* Act + Assert: a MAX_DATA below the limit changes nothing (Section
	 * 4.1); a larger one lets the next 150 bytes go.
	 */
	KUNIT_EXPECT_FALSE(test, quic_outq_set_max_data(&e->outq, 50));
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 2), 0U);
	KUNIT_EXPECT_TRUE(test, quic_outq_set_max_data(&e->outq, 250));
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 3), 0U);
	oq_expect_stream(test, e, 0, 100, 150);

	/* Blocked again, at the new limit: one new DATA_BLOCKED with 250. */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 4), 0U);
	KUNIT_EXPECT_EQ(test, oq_count(test, e, QUIC_FRAME_DATA_BLOCKED, &db), 1U);
	KUNIT_EXPECT_EQ(test, db.limit.max, 250ULL);
}

static void outqueue_stream_limit_queues_stream_data_blocked(struct kunit *test)
{
	struct oq_env *e = oq_env_new(test, 100, 1 << 20);
	struct quic_stream *s = oq_stream(test, e, 4);
	struct quic_frame sdb = {};

	/* Arrange: the peer allows 100 bytes on stream 4; 300 queued. */
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data, 300, false,
						      GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	oq_expect_stream(test, e, 4, 0, 100);

	/* Act: the next packet signals the block (RFC 9000 Section 19.13),
	 * once: the one after has nothing.
	 */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 1), 0U);
	KUNIT_EXPECT_EQ(test, oq_count(test, e, QUIC_FRAME_STREAM_DATA_BLOCKED, &sdb), 1U);
	KUNIT_EXPECT_EQ(test, sdb.limit.id, 4ULL);
	KUNIT_EXPECT_EQ(test, sdb.limit.max, 100ULL);
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 2), 0U);

	/* MAX_STREAM_DATA 200 (Section 19.10) lets 100 more bytes go. */
	KUNIT_EXPECT_TRUE(test, quic_outq_set_max_stream_data(&e->outq, s, 200));
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 3), 0U);
	oq_expect_stream(test, e, 4, 100, 100);
}

static void outqueue_cwnd_blocks_eliciting_data_but_not_ack_only(struct kunit *test)
{
	static const u8 ack_0[] = { QUIC_FRAME_ACK, 0x00, 0x00, 0x00, 0x00 };
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);
	u32 inflight;

	/* Arrange: the window is full; data is queued and an ACK is owed for
	 * the peer's packet 0 received just now.
	 */
	quic_cong_on_packet_sent(&e->cong, OQ_T0, quic_cong_window(&e->cong));
	inflight = quic_cong_in_flight(&e->cong);
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data, 100, false,
						      GFP_KERNEL), 0);
	oq_owe_ack(test, app, 0);

	/* Act */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);

	/* Assert: RFC 9002 Section 7, ACK-only packets are not congestion
	 * controlled; the data waits. ACK: Largest 0, Delay 0, no range.
	 */
	KUNIT_EXPECT_EQ(test, e->tx.len, (u32)sizeof(ack_0));
	KUNIT_EXPECT_MEMEQ(test, e->buf, ack_0, sizeof(ack_0));
	KUNIT_EXPECT_FALSE(test, e->tx.ack_eliciting);
	KUNIT_EXPECT_FALSE(test, e->tx.in_flight);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), inflight);
	KUNIT_EXPECT_TRUE(test, quic_outq_has_data(&e->outq, QUIC_CRYPTO_APP));
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
}

static void outqueue_eliciting_minimum_pads_data_but_not_ack_only(struct kunit *test)
{
	static const u8 ack_0[] = { QUIC_FRAME_ACK, 0x00, 0x00, 0x00, 0x00 };
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);
	u32 inflight = quic_cong_in_flight(&e->cong);

	/* Arrange: an ACK is owed for the peer's packet 0, nothing else. */
	oq_owe_ack(test, app, 0);

	/* Act, Assert: RFC 9002 Section 2, a packet with PADDING counts in
	 * flight, and one of ACK frames alone is never acknowledged on its
	 * own: it goes out short, not in flight.
	 */
	KUNIT_ASSERT_EQ(test, oq_fill_min(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0, 16),
			(u32)sizeof(ack_0));
	KUNIT_EXPECT_MEMEQ(test, e->buf, ack_0, sizeof(ack_0));
	KUNIT_EXPECT_FALSE(test, e->tx.in_flight);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), inflight);

	/* Act, Assert: three bytes of stream data make the packet
	 * ack-eliciting; it is padded to the minimum and in flight.
	 */
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data, 3, false,
						      GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, oq_fill_min(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0, 16), 16U);
	KUNIT_EXPECT_TRUE(test, e->tx.ack_eliciting);
	KUNIT_EXPECT_TRUE(test, e->tx.in_flight);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(&e->cong), inflight + 16 + OQ_OVERHEAD);
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 2U);
	KUNIT_EXPECT_EQ(test, e->frames[0].type & ~7, QUIC_FRAME_STREAM);
	KUNIT_EXPECT_EQ(test, e->frames[0].data.len, 3U);
	KUNIT_EXPECT_EQ(test, e->frames[1].type, QUIC_FRAME_PADDING);
}

static void outqueue_fin_acked_moves_stream_to_data_recvd(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);

	/* Arrange: 10 bytes in packet 0, 10 more with the FIN in packet 1. */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 10, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data + 10, 10, true,
						      GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 1), 0U);
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_EXPECT_TRUE(test, e->frames[0].type & QUIC_STREAM_BIT_FIN);
	KUNIT_EXPECT_EQ(test, s->send.state, QUIC_STREAM_SEND_STATE_SENT);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 20ULL);

	/* Act: the FIN's packet is acknowledged first: bytes 0..9 are not. */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 1, OQ_T0 + 1000), 0);
	KUNIT_EXPECT_EQ(test, s->send.state, QUIC_STREAM_SEND_STATE_SENT);
	KUNIT_EXPECT_EQ(test, e->nacked, 0U);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 10ULL);

	/* Act: then packet 0. */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 1, OQ_T0 + 2000), 0);

	/* Assert: RFC 9000 Section 3.1 "Recv All ACKs": Data Recvd, reported once. */
	KUNIT_EXPECT_EQ(test, s->send.state, QUIC_STREAM_SEND_STATE_RECVD);
	KUNIT_EXPECT_EQ(test, e->nacked, 1U);
	KUNIT_EXPECT_PTR_EQ(test, e->acked[0], s);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 0ULL);
}

static void outqueue_datagram_never_retransmitted(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	int i;

	/* Arrange: a 20-byte DATAGRAM in packet 0, PINGs in 1..3. */
	KUNIT_ASSERT_EQ(test, quic_outq_datagram_append(&e->outq, e->data, 20, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 20ULL);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 1U);
	KUNIT_EXPECT_EQ(test, e->frames[0].type, QUIC_FRAME_DATAGRAM_LEN);
	KUNIT_EXPECT_MEMEQ(test, e->frames[0].data.data, e->data, 20);
	KUNIT_EXPECT_TRUE(test, e->tx.ack_eliciting);
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 0ULL);
	for (i = 1; i <= 3; i++)
		KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_APP, OQ_T0 + i), i);

	/* Act: packet 0 is lost (three later packets acknowledged). */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 3, OQ_T0 + 20000), 0);
	KUNIT_ASSERT_EQ(test, quic_cong_in_flight(&e->cong), 0U);

	/* Assert: RFC 9221 Section 5.2, nothing is sent again. */
	KUNIT_EXPECT_FALSE(test, quic_outq_has_data(&e->outq, QUIC_CRYPTO_APP));
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 21000), 0U);
}

static void outqueue_ack_frame_goes_first_when_owed(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);
	int i;

	/* Arrange: the peer's packets 0..2 arrived; data is queued. */
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, quic_pnspace_mark(app, i, OQ_T0), 0);
	app->need_sack = 1;
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data, 50, false,
						      GFP_KERNEL), 0);

	/* Act: 8 ms later (ACK Delay 8000 >> 3 = 1000). */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 8000), 0U);

	/* Assert: ACK (largest 2, first range 2) then the STREAM frame. */
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 2U);
	KUNIT_EXPECT_EQ(test, e->frames[0].type, QUIC_FRAME_ACK);
	KUNIT_EXPECT_EQ(test, e->frames[0].ack.largest, 2ULL);
	KUNIT_EXPECT_EQ(test, e->frames[0].ack.first_range, 2ULL);
	KUNIT_EXPECT_EQ(test, e->frames[0].ack.delay, 1000ULL);
	KUNIT_EXPECT_EQ(test, e->frames[1].type & ~7, QUIC_FRAME_STREAM);
	KUNIT_EXPECT_FALSE(test, app->need_sack);
}

/*
 * RFC 9000 Section 13.2.1: an acknowledgment of 1-RTT packets may wait up
 * to max_ack_delay. While it may, it rides on a packet sent for other
 * frames but makes no packet of its own; once due, it does.
 */
static void outqueue_delayed_ack_rides_on_data_but_never_goes_alone(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);

	oq_owe_ack(test, app, 0);
	app->ack_delayed = 1;
	KUNIT_EXPECT_FALSE(test, quic_outq_has_data(&e->outq, QUIC_CRYPTO_APP));
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	KUNIT_EXPECT_TRUE(test, app->need_sack);
	KUNIT_EXPECT_EQ(test, app->next_pn, 0LL);

	/* Data to send: the ACK frame goes with it and is no longer owed. */
	oq_queue(test, e, s, 0, 50, false);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 2U);
	KUNIT_EXPECT_EQ(test, e->frames[0].type, QUIC_FRAME_ACK);
	KUNIT_EXPECT_FALSE(test, app->need_sack);
	KUNIT_EXPECT_FALSE(test, app->ack_delayed);

	/* Due (a second packet, or the ACK timer): it goes alone. */
	oq_owe_ack(test, app, 1);
	KUNIT_EXPECT_TRUE(test, quic_outq_has_data(&e->outq, QUIC_CRYPTO_APP));
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 1U);
	KUNIT_EXPECT_EQ(test, e->frames[0].type, QUIC_FRAME_ACK);
	KUNIT_EXPECT_EQ(test, e->frames[0].ack.largest, 1ULL);
	KUNIT_EXPECT_FALSE(test, e->tx.ack_eliciting);
}

static void outqueue_lost_max_data_resent_with_current_value(struct kunit *test)
{
	struct quic_frame f = { .type = QUIC_FRAME_MAX_DATA };
	struct oq_env *e = oq_env_default(test);
	struct quic_frame got = {};
	int i;

	/* Arrange: MAX_DATA 1000 in packet 0, MAX_DATA 2000 in packet 1, PINGs
	 * in 2..4.
	 */
	f.limit.max = 1000;
	KUNIT_ASSERT_EQ(test, quic_outq_ctrl_append(&e->outq, QUIC_CRYPTO_APP, &f, GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	f.limit.max = 2000;
	KUNIT_ASSERT_EQ(test, quic_outq_ctrl_append(&e->outq, QUIC_CRYPTO_APP, &f, GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 1), 0U);
	for (i = 2; i <= 4; i++)
		KUNIT_ASSERT_EQ(test, oq_send_ping(test, e, QUIC_CRYPTO_APP, OQ_T0 + i), i);

	/* Act: 1..4 acknowledged, packet 0 lost. */
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 1, 4, OQ_T0 + 20000), 0);

	/* Assert: RFC 9000 Section 13.3, the current maximum goes out. */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 21000), 0U);
	KUNIT_EXPECT_EQ(test, oq_count(test, e, QUIC_FRAME_MAX_DATA, &got), 1U);
	KUNIT_EXPECT_EQ(test, got.limit.max, 2000ULL);
}

static void outqueue_streams_share_packets_round_robin(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *a = oq_stream(test, e, 0);
	struct quic_stream *b = oq_stream(test, e, 4);

	/* Arrange: 500 bytes on each of streams 0 and 4. */
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, a, e->data, 500, false,
						      GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, b, e->data, 500, false,
						      GFP_KERNEL), 0);

	/* Act: two packets with room for one frame each. */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, 200, OQ_T0), 0U);
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 1U);
	KUNIT_EXPECT_EQ(test, e->frames[0].data.id, 0ULL);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, 200, OQ_T0 + 1), 0U);

	/* Assert: the second packet serves the other stream. */
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 1U);
	KUNIT_EXPECT_EQ(test, e->frames[0].data.id, 4ULL);
	KUNIT_EXPECT_EQ(test, e->frames[0].data.offset, 0ULL);
}

static void outqueue_reset_stream_purges_its_data(struct kunit *test)
{
	struct quic_frame f = { .type = QUIC_FRAME_RESET_STREAM };
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);

	/* Arrange: 100 bytes in packet 0, 100 more waiting. */
	KUNIT_ASSERT_EQ(test, oq_send_data(test, e, s, 0, 100, OQ_T0), 0);
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data + 100, 100, false,
						      GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, quic_outq_wmem(&e->outq), 200ULL);

	/* Act: the application resets the stream (Final Size 100). */
	KUNIT_ASSERT_EQ(test, quic_stream_send_reset(s, 7), 0);
	quic_outq_stream_purge(&e->outq, s);
	f.reset.id = 0;
	f.reset.errcode = 7;
	f.reset.final_size = s->send.bytes;
	KUNIT_ASSERT_EQ(test, quic_outq_ctrl_append(&e->outq, QUIC_CRYPTO_APP, &f, GFP_KERNEL), 0);

	/* Assert: RFC 9000 Section 13.3, no STREAM frame is needed any more:
	 * the bytes are released and the next packet holds the RESET_STREAM
	 * alone; its acknowledgment moves the stream to Reset Recvd (3.1).
	 */
	KUNIT_EXPECT_EQ(test, quic_outq_wmem(&e->outq), 0ULL);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 1), 0U);
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 1U);
	KUNIT_EXPECT_EQ(test, e->frames[0].type, QUIC_FRAME_RESET_STREAM);
	KUNIT_EXPECT_EQ(test, e->frames[0].reset.final_size, 100ULL);
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, 0, 1, OQ_T0 + 2000), 0);
	KUNIT_EXPECT_EQ(test, s->send.state, QUIC_STREAM_SEND_STATE_RESET_RECVD);
	/* A terminal sending part is reported, as for Data Recvd. */
	KUNIT_EXPECT_EQ(test, e->nacked, 1U);
}

/* Send one ECT(0)-marked PING packet of the Application space. */
static s64 oq_send_marked(struct kunit *test, struct oq_env *e, u64 now)
{
	e->outq.ecn_mark = quic_outq_ecn_mark(&e->outq);
	KUNIT_EXPECT_TRUE(test, e->outq.ecn_mark);
	return oq_send_ping(test, e, QUIC_CRYPTO_APP, now);
}

/* RFC 9000 Section 13.4.2.1: an ACK_ECN whose ECT(0) and CE counts grew by
 * the number of marked packets it newly acknowledges makes the path
 * ECN-capable; marking goes on.
 */
static void outqueue_ecn_validated_by_matching_counts(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_frame f;
	s64 a, b;

	a = oq_send_marked(test, e, 1000);
	b = oq_send_marked(test, e, 1000);
	KUNIT_EXPECT_EQ(test, e->outq.ecn_tested, 2);
	f = oq_ack(a, b, NULL, 0);
	f.type = QUIC_FRAME_ACK_ECN;
	f.ack.ecn[QUIC_ECN_ECT0] = 1;
	f.ack.ecn[QUIC_ECN_CE] = 1;
	KUNIT_EXPECT_EQ(test, quic_outq_on_ack(&e->outq, QUIC_CRYPTO_APP, &f, 0, 3000), 0);
	KUNIT_EXPECT_EQ(test, e->outq.ecn_state, QUIC_ECN_CAPABLE);
	/* Capable: marking goes on past the testing packets. */
	e->outq.ecn_tested = QUIC_ECN_TEST_PACKETS;
	KUNIT_EXPECT_TRUE(test, quic_outq_ecn_mark(&e->outq));
}

/* ECN validation fails, and marking stops for good, on an ACK without
 * ECN counts for marked packets, on counts that grew too little, and on an
 * ECT(1) count we never sent for.
 */
static void outqueue_ecn_validation_failures_stop_marking(struct kunit *test)
{
	static const u8 kinds[] = { 0, 1, 2 };
	struct oq_env *e;
	struct quic_frame f;
	s64 a, b;
	int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		e = oq_env_confirmed(test);
		a = oq_send_marked(test, e, 1000);
		b = oq_send_marked(test, e, 1000);
		f = oq_ack(a, b, NULL, 0);
		if (kinds[i] == 1) {
			f.type = QUIC_FRAME_ACK_ECN;
			f.ack.ecn[QUIC_ECN_ECT0] = 1;	/* two were marked */
		} else if (kinds[i] == 2) {
			f.type = QUIC_FRAME_ACK_ECN;
			f.ack.ecn[QUIC_ECN_ECT0] = 2;
			f.ack.ecn[QUIC_ECN_ECT1] = 1;
		}
		KUNIT_EXPECT_EQ(test, quic_outq_on_ack(&e->outq, QUIC_CRYPTO_APP, &f, 0, 3000),
				0);
		KUNIT_EXPECT_EQ_MSG(test, e->outq.ecn_state, QUIC_ECN_FAILED, "case %d", i);
		KUNIT_EXPECT_FALSE(test, quic_outq_ecn_mark(&e->outq));
	}
}

/* RFC 9000 Section 13.4.2.1: "An endpoint MUST NOT fail ECN validation
 * as a result of processing an ACK frame that does not increase the
 * largest acknowledged packet number." An older ACK frame arriving after a
 * newer one newly acknowledges a marked packet with counts that did not
 * grow: the path stays ECN-capable.
 */
static void outqueue_ecn_reordered_ack_does_not_fail_validation(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_frame f;
	s64 a, b;

	a = oq_send_marked(test, e, 1000);
	b = oq_send_marked(test, e, 1000);
	f = oq_ack(b, b, NULL, 0);
	f.type = QUIC_FRAME_ACK_ECN;
	f.ack.ecn[QUIC_ECN_ECT0] = 1;
	KUNIT_ASSERT_EQ(test, quic_outq_on_ack(&e->outq, QUIC_CRYPTO_APP, &f, 0, 3000), 0);
	KUNIT_ASSERT_EQ(test, e->outq.ecn_state, QUIC_ECN_CAPABLE);

	/* The frame the peer sent first, acknowledging only a. */
	f = oq_ack(a, a, NULL, 0);
	f.type = QUIC_FRAME_ACK_ECN;
	f.ack.ecn[QUIC_ECN_ECT0] = 1;
	KUNIT_EXPECT_EQ(test, quic_outq_on_ack(&e->outq, QUIC_CRYPTO_APP, &f, 0, 3100), 0);
	KUNIT_EXPECT_EQ(test, e->outq.ecn_state, QUIC_ECN_CAPABLE);
	KUNIT_EXPECT_TRUE(test, quic_outq_ecn_mark(&e->outq));
}

/* Testing marks only the first QUIC_ECN_TEST_PACKETS packets. */
static void outqueue_ecn_testing_marks_a_bounded_number(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	int i;

	for (i = 0; i < QUIC_ECN_TEST_PACKETS; i++)
		oq_send_marked(test, e, 1000 + i);
	KUNIT_EXPECT_EQ(test, e->outq.ecn_state, QUIC_ECN_TESTING);
	KUNIT_EXPECT_FALSE(test, quic_outq_ecn_mark(&e->outq));
}

static void outqueue_early_data_packet_has_no_ack(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_pnspace *app = &e->space[QUIC_CRYPTO_APP];
	struct quic_stream *s = oq_stream(test, e, 0);

	/* Arrange: an ACK is owed in the Application space, data is queued. */
	oq_owe_ack(test, app, 0);
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data, 50, false,
						      GFP_KERNEL), 0);

	/* Act: a 0-RTT packet. */
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_EARLY, OQ_ROOM, OQ_T0), 0U);

	/* Assert: RFC 9000 Table 3, no ACK in 0-RTT; the packet number comes
	 * from the shared Application space (RFC 9002 Section 4.1). The ACK
	 * goes in the next 1-RTT packet.
	 */
	oq_expect_stream(test, e, 0, 0, 50);
	KUNIT_EXPECT_EQ(test, e->tx.pn, 0LL);
	KUNIT_EXPECT_TRUE(test, app->need_sack);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0 + 1), 0U);
	KUNIT_EXPECT_EQ(test, e->tx.pn, 1LL);
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 1U);
	KUNIT_EXPECT_EQ(test, e->frames[0].type, QUIC_FRAME_ACK);
}

/*
 * RFC 9000 Section 13 lets a sender wait to fill packets. With Nagle's
 * algorithm (stream_data_nodelay off), a short write waits while the last
 * part-filled packet of stream data is unacknowledged; writes that add up
 * to a full packet, the acknowledgment of that packet and a FIN release it.
 */
static void outqueue_nagle_holds_short_writes_until_the_short_packet_is_acked(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u64 now = OQ_T0;
	s64 short_pn;

	e->nagle = true;
	/* Nothing part-filled in flight: the first short write goes. */
	oq_queue(test, e, s, 0, 100, false);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, now), 0U);
	oq_expect_stream(test, e, 0, 0, 100);
	short_pn = e->tx.pn;

	/* The second waits, and the sender counts as application limited. */
	quic_cong_set_app_limited(&e->cong, now, false);
	oq_queue(test, e, s, 100, 100, false);
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, now), 0U);
	KUNIT_EXPECT_EQ(test, quic_outq_unsent(&e->outq), 100ULL);
	KUNIT_EXPECT_TRUE(test, e->cong.app_limited);

	/* Enough for a full packet goes at once; the short rest waits. */
	oq_queue(test, e, s, 200, 1300, false);
	KUNIT_ASSERT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, now), (u32)OQ_ROOM);
	oq_decode(test, e, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, e->nframes, 2U);
	KUNIT_EXPECT_EQ(test, e->frames[0].data.offset, 100ULL);
	KUNIT_EXPECT_EQ(test, e->frames[1].data.offset, 200ULL);
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, now), 0U);
	KUNIT_EXPECT_EQ(test, quic_outq_unsent(&e->outq),
			1500ULL - 200 - e->frames[1].data.len);

	/* Acknowledging the part-filled packet lets the rest go. */
	now += 10000;
	KUNIT_ASSERT_EQ(test, oq_on_ack(e, QUIC_CRYPTO_APP, short_pn, short_pn, now), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, now), 0U);
	oq_expect_stream(test, e, 0, 200 + e->frames[1].data.len,
			 1300 - e->frames[1].data.len);
	KUNIT_EXPECT_EQ(test, quic_outq_unsent(&e->outq), 0ULL);
	KUNIT_EXPECT_EQ(test, e->outq.nagle_pn, e->tx.pn);

	/* That one is unacknowledged now, but data that ends the stream goes. */
	oq_queue(test, e, s, 1500, 10, true);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, now), 0U);
	oq_expect_stream(test, e, 0, 1500, 10);
	KUNIT_EXPECT_TRUE(test, e->frames[0].type & QUIC_STREAM_BIT_FIN);
}

/* stream_data_nodelay: every write goes as soon as it is queued. */
static void outqueue_nodelay_sends_every_short_write(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u32 i;

	for (i = 0; i < 3; i++) {
		oq_queue(test, e, s, i * 100, 100, false);
		KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
		oq_expect_stream(test, e, 0, i * 100, 100);
	}
	/* A PTO probe is not held either, with Nagle on. */
	e->nagle = true;
	oq_queue(test, e, s, 300, 100, false);
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	e->outq.spaces[QUIC_CRYPTO_APP].probe = 1;
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	oq_expect_stream(test, e, 0, 300, 100);
}

static struct kunit_case outqueue_cases[] = {
	KUNIT_CASE(outqueue_nagle_holds_short_writes_until_the_short_packet_is_acked),
	KUNIT_CASE(outqueue_nodelay_sends_every_short_write),
	KUNIT_CASE(outqueue_ack_of_never_sent_packet_is_refused),
	KUNIT_CASE(outqueue_ecn_validated_by_matching_counts),
	KUNIT_CASE(outqueue_ecn_validation_failures_stop_marking),
	KUNIT_CASE(outqueue_ecn_reordered_ack_does_not_fail_validation),
	KUNIT_CASE(outqueue_ecn_testing_marks_a_bounded_number),
	KUNIT_CASE(outqueue_unsent_excludes_sent_data_and_counts_datagrams),
	KUNIT_CASE(outqueue_data_from_a_short_iterator_queues_nothing),
	KUNIT_CASE(outqueue_pto_held_back_only_while_amplification_limited),
	KUNIT_CASE(outqueue_rtt_sample_only_when_largest_newly_acked_is_eliciting),
	KUNIT_CASE(outqueue_packet_threshold_loss_requeues_same_stream_bytes),
	KUNIT_CASE(outqueue_time_threshold_loss_sets_and_fires_loss_time),
	KUNIT_CASE(outqueue_pto_backs_off_and_probes_with_new_data),
	KUNIT_CASE(outqueue_pto_probe_retransmits_oldest_despite_full_window),
	KUNIT_CASE(outqueue_pto_probe_is_ping_when_nothing_to_send),
	KUNIT_CASE(outqueue_pto_not_armed_with_nothing_in_flight),
	KUNIT_CASE(outqueue_client_keeps_anti_deadlock_pto_until_validated),
	KUNIT_CASE(outqueue_client_with_only_0rtt_in_flight_keeps_a_pto),
	KUNIT_CASE(outqueue_pmtu_probe_takes_no_pto_probe),
	KUNIT_CASE(outqueue_answers_to_the_peer_are_bounded),
	KUNIT_CASE(outqueue_pto_timer_firing_early_probes_nothing),
	KUNIT_CASE(outqueue_no_application_pto_before_confirmation),
	KUNIT_CASE(outqueue_lost_handshake_data_keeps_a_pto_behind_a_full_window),
	KUNIT_CASE(outqueue_overdue_handshake_pto_goes_before_a_pending_loss_time),
	KUNIT_CASE(outqueue_persistent_congestion_collapses_window),
	KUNIT_CASE(outqueue_loss_period_broken_by_ack_is_not_persistent),
	KUNIT_CASE(outqueue_discard_initial_removes_bytes_without_loss),
	KUNIT_CASE(outqueue_stream_data_split_across_packets_respects_room),
	KUNIT_CASE(outqueue_parts_of_a_write_share_its_bytes),
	KUNIT_CASE(outqueue_max_data_blocks_and_queues_one_data_blocked),
	KUNIT_CASE(outqueue_max_data_raise_unblocks),
	KUNIT_CASE(outqueue_stream_limit_queues_stream_data_blocked),
	KUNIT_CASE(outqueue_cwnd_blocks_eliciting_data_but_not_ack_only),
	KUNIT_CASE(outqueue_eliciting_minimum_pads_data_but_not_ack_only),
	KUNIT_CASE(outqueue_fin_acked_moves_stream_to_data_recvd),
	KUNIT_CASE(outqueue_datagram_never_retransmitted),
	KUNIT_CASE(outqueue_ack_frame_goes_first_when_owed),
	KUNIT_CASE(outqueue_delayed_ack_rides_on_data_but_never_goes_alone),
	KUNIT_CASE(outqueue_lost_max_data_resent_with_current_value),
	KUNIT_CASE(outqueue_streams_share_packets_round_robin),
	KUNIT_CASE(outqueue_reset_stream_purges_its_data),
	KUNIT_CASE(outqueue_early_data_packet_has_no_ack),
	{}
};

static struct kunit_suite outqueue_suite = {
	.name = "quic_outqueue",
	.test_cases = outqueue_cases,
};

kunit_test_suite(outqueue_suite);
