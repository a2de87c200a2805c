// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers of the suites that drive a send queue by hand (outqueue_util.h).
 */

#include <kunit/test.h>
#include <linux/uio.h>

#include "outqueue_util.h"

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

/**
 * oq_env_new - a client's send queue and what it needs
 * @test: the test case
 * @sdata: bytes the peer allows per stream
 * @max_data: bytes the peer allows on the connection
 *
 * A client whose peer allows 100 streams of each kind. Freed with the test.
 *
 * Return: the environment; the test fails when it cannot be made.
 */
struct oq_env *oq_env_new(struct kunit *test, u64 sdata, u64 max_data)
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

/**
 * oq_env_default - oq_env_new() with 1 MiB windows
 * @test: the test case
 *
 * Return: the environment.
 */
struct oq_env *oq_env_default(struct kunit *test)
{
	return oq_env_new(test, 1 << 20, 1 << 20);
}

/**
 * oq_stream - open or find the sending part of a stream
 * @test: the test case
 * @e: the environment
 * @id: the stream ID
 *
 * Return: the stream.
 */
struct quic_stream *oq_stream(struct kunit *test, struct oq_env *e, s64 id)
{
	struct quic_stream *s = quic_stream_send_get(&e->streams, id, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	return s;
}

/**
 * oq_fill_min - fill one packet, padded when ack-eliciting
 * @test: the test case
 * @e: the environment
 * @level: the encryption level
 * @room: bytes the packet may take
 * @now: the time, in microseconds
 * @min_eliciting: an ack-eliciting payload is padded to this many bytes
 *
 * Return: the length of the payload written to @e->buf.
 */
u32 oq_fill_min(struct kunit *test, struct oq_env *e, u8 level, u32 room, u64 now,
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

/**
 * oq_fill - fill one packet without padding
 * @test: the test case
 * @e: the environment
 * @level: the encryption level
 * @room: bytes the packet may take
 * @now: the time, in microseconds
 *
 * Return: the length of the payload written to @e->buf.
 */
u32 oq_fill(struct kunit *test, struct oq_env *e, u8 level, u32 room, u64 now)
{
	return oq_fill_min(test, e, level, room, now, 0);
}

/**
 * oq_decode - decode the payload just filled, as the server does
 * @test: the test case
 * @e: the environment; its frames land in @e->frames
 * @level: the encryption level of the packet
 *
 * The test fails on a frame the decoder refuses.
 */
void oq_decode(struct kunit *test, struct oq_env *e, u8 level)
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

/**
 * oq_send_data - queue pattern bytes and send them in one packet
 * @test: the test case
 * @e: the environment
 * @s: the stream
 * @offset: offset of the bytes in the pattern @e->data
 * @len: how many
 * @now: the time, in microseconds
 *
 * One Application packet is filled.
 *
 * Return: its packet number.
 */
s64 oq_send_data(struct kunit *test, struct oq_env *e, struct quic_stream *s,
		 u32 offset, u32 len, u64 now)
{
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data + offset, len,
						      false, GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, now), 0U);
	KUNIT_ASSERT_TRUE(test, e->tx.ack_eliciting);
	return e->tx.pn;
}

/**
 * oq_queue - queue pattern bytes on a stream
 * @test: the test case
 * @e: the environment
 * @s: the stream
 * @offset: offset of the bytes in the pattern @e->data
 * @len: how many
 * @fin: the stream ends with them
 *
 * Nothing is sent.
 */
void oq_queue(struct kunit *test, struct oq_env *e, struct quic_stream *s, u32 offset,
	      u32 len, bool fin)
{
	KUNIT_ASSERT_EQ(test, quic_outq_stream_append(&e->outq, s, e->data + offset, len, fin,
						      GFP_KERNEL), 0);
}

/**
 * oq_owe_ack - record that the peer's packet arrived
 * @test: the test case
 * @space: the packet number space it arrived in
 * @pn: its packet number
 *
 * An ACK frame is then owed in @space.
 */
void oq_owe_ack(struct kunit *test, struct quic_pnspace *space, s64 pn)
{
	KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, pn, OQ_T0), 0);
	space->need_sack = 1;
}

/**
 * oq_send_ping - send a packet holding a PING only
 * @test: the test case
 * @e: the environment
 * @level: the encryption level
 * @now: the time, in microseconds
 *
 * The packet is ack-eliciting with nothing to repair.
 *
 * Return: its packet number.
 */
s64 oq_send_ping(struct kunit *test, struct oq_env *e, u8 level, u64 now)
{
	struct quic_frame f = { .type = QUIC_FRAME_PING };

	KUNIT_ASSERT_EQ(test, quic_outq_ctrl_append(&e->outq, level, &f, GFP_KERNEL), 0);
	KUNIT_ASSERT_GT(test, oq_fill(test, e, level, OQ_ROOM, now), 0U);
	return e->tx.pn;
}

/**
 * oq_ack - an ACK frame
 * @lo: the smallest packet number of the first range
 * @hi: the largest acknowledged
 * @ranges: further ranges, or NULL
 * @n: how many
 *
 * Return: the frame, pointing at @ranges.
 */
struct quic_frame oq_ack(u64 lo, u64 hi, const struct quic_ack_range *ranges, u32 n)
{
	struct quic_frame f = { .type = QUIC_FRAME_ACK };

	f.ack.largest = hi;
	f.ack.first_range = hi - lo;
	f.ack.range_count = n;
	f.ack.ranges = ranges;
	return f;
}

/**
 * oq_on_ack - the peer acknowledges one range
 * @e: the environment
 * @level: the encryption level of the ACK
 * @lo: the smallest packet number acknowledged
 * @hi: the largest
 * @now: the time, in microseconds
 *
 * Return: what quic_outq_on_ack() returns.
 */
int oq_on_ack(struct oq_env *e, u8 level, u64 lo, u64 hi, u64 now)
{
	struct quic_frame f = oq_ack(lo, hi, NULL, 0);

	return quic_outq_on_ack(&e->outq, level, &f, 0, now);
}

/**
 * oq_expect_stream - check that the packet just filled holds one STREAM frame
 * @test: the test case
 * @e: the environment
 * @id: the stream ID expected
 * @offset: the offset expected, also into the pattern @e->data
 * @len: the length expected
 *
 * Its bytes must be the pattern's.
 */
void oq_expect_stream(struct kunit *test, struct oq_env *e, s64 id, u64 offset, u32 len)
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

/**
 * oq_env_confirmed - a client whose handshake is confirmed
 * @test: the test case
 *
 * Application data PTOs are armed (RFC 9002 Section 6.2.1).
 *
 * Return: the environment.
 */
struct oq_env *oq_env_confirmed(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);

	quic_cong_set_confirmed(&e->cong);
	quic_outq_set_confirmed(&e->outq);
	return e;
}

/**
 * oq_count - count the frames of a type in the payload just filled
 * @test: the test case
 * @e: the environment
 * @type: the frame type
 * @last: set to the last such frame
 *
 * Return: how many there are.
 */
u32 oq_count(struct kunit *test, struct oq_env *e, u8 type, struct quic_frame *last)
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

/**
 * oq_send_marked - send an ECT(0)-marked PING packet of the Application space
 * @test: the test case
 * @e: the environment
 * @now: the time, in microseconds
 *
 * Return: its packet number.
 */
s64 oq_send_marked(struct kunit *test, struct oq_env *e, u64 now)
{
	e->outq.ecn_mark = quic_outq_ecn_mark(&e->outq);
	KUNIT_EXPECT_TRUE(test, e->outq.ecn_mark);
	return oq_send_ping(test, e, QUIC_CRYPTO_APP, now);
}
