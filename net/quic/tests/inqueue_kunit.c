// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_inqueue: the receive queue. STREAM data reassembly and
 * delivery (RFC 9000 Sections 2.2 and 3.2), stream and connection flow
 * control (Sections 4.1 and 4.2), final size (Section 4.5), RESET_STREAM,
 * CRYPTO data per encryption level (Sections 7.5 and 19.6), the DATAGRAM
 * queue (RFC 9221 Section 5) and the memory accounting.
 *
 * Every case plays a server: the peer (client) opens streams 0, 4, 8, ...
 */

#include <kunit/test.h>

#include "../inqueue.h"

KUNIT_DEFINE_ACTION_WRAPPER(inq_free_action, quic_inq_free, struct quic_inq *);
KUNIT_DEFINE_ACTION_WRAPPER(inq_table_free_action, quic_stream_table_free,
			    struct quic_stream_table *);

#define INQ_BUF		4096

/* A stream table where the peer may open 100 streams of each type, each with
 * @window bytes of flow control credit.
 */
static struct quic_stream_table *table_new(struct kunit *test, u64 window)
{
	struct quic_transport_param p = {
		.max_streams_bidi = 100,
		.max_streams_uni = 100,
		.max_stream_data_bidi_local = window,
		.max_stream_data_bidi_remote = window,
		.max_stream_data_uni = window,
	};
	struct quic_stream_table *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	KUNIT_ASSERT_EQ(test, quic_stream_table_init(t, true, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, inq_table_free_action, t), 0);
	KUNIT_ASSERT_EQ(test, quic_stream_set_param(t, &p), 0);
	p.remote = 1;
	KUNIT_ASSERT_EQ(test, quic_stream_set_param(t, &p), 0);
	return t;
}

/* An empty queue advertising @max_data to the peer, freed when the case ends. */
static struct quic_inq *inq_new(struct kunit *test, u64 max_data)
{
	struct quic_inq *inq;

	inq = kunit_kzalloc(test, sizeof(*inq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, inq);
	quic_inq_init(inq);
	quic_inq_set_max_data(inq, max_data);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, inq_free_action, inq), 0);
	return inq;
}

static u8 *buf_new(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, INQ_BUF, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	return buf;
}

/* Byte @off of the test stream with seed @seed. */
static u8 pat(u64 off, u8 seed)
{
	return (u8)(seed + off * 13 + (off >> 8));
}

/* @len bytes of stream @seed from offset @off, in a buffer of the case. */
static u8 *pat_buf(struct kunit *test, u64 off, u32 len, u8 seed)
{
	u8 *buf = kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	for (i = 0; i < len; i++)
		buf[i] = pat(off + i, seed);
	return buf;
}

/* Deliver a STREAM frame: bytes [off, off + len) of stream @id, whose
 * contents are pat(offset, id).
 */
static int stream_frame(struct kunit *test, struct quic_inq *inq, struct quic_stream_table *t,
			s64 id, u64 off, u32 len, bool fin)
{
	struct quic_frame_data d = {
		.id = id,
		.offset = off,
		.data = pat_buf(test, off, len, id),
		.len = len,
	};
	struct quic_stream *s;

	s = quic_stream_recv_get(t, id, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	return quic_inq_stream_recv(inq, s, &d, fin, GFP_KERNEL);
}

static int crypto_frame(struct kunit *test, struct quic_inq *inq, u8 level, u64 off, u32 len)
{
	struct quic_frame_data d = {
		.offset = off,
		.data = pat_buf(test, off, len, 100 + level),
		.len = len,
	};

	return quic_inq_crypto_recv(inq, level, &d, GFP_KERNEL);
}

static int dgram_frame(struct quic_inq *inq, const void *data, u32 len)
{
	struct quic_frame_data d = { .data = data, .len = len };

	return quic_inq_dgram_recv(inq, &d, GFP_KERNEL);
}

static struct quic_stream *stream(struct kunit *test, struct quic_stream_table *t, s64 id)
{
	struct quic_stream *s = quic_stream_find(t, id);

	KUNIT_ASSERT_NOT_NULL(test, s);
	return s;
}

static void inqueue_in_order_data_delivered_with_stream_id(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4, 0, 5, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4, 5, 6, false), 0);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 11);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 11, 4), 11);
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_STREAM);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 4LL);
	KUNIT_EXPECT_FALSE(test, ri.fin);
	KUNIT_EXPECT_EQ(test, stream(test, t, 4)->recv.offset, 11ULL);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), -EAGAIN);
}

static void inqueue_out_of_order_segments_reassembled_when_gap_fills(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 20, 10, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 10, 10, false), 0);
	KUNIT_EXPECT_FALSE(test, quic_inq_readable(inq));
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), -EAGAIN);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 10, false), 0);

	KUNIT_EXPECT_TRUE(test, quic_inq_readable(inq));
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 30);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 30, 0), 30);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 0LL);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

static void inqueue_duplicate_and_overlapping_segments_not_duplicated(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	/* Arrange: [0,10) twice, [5,15) over its end, [30,40) ahead, then
	 * [25,45) around it and [12,30) into the gap between.
	 */
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 10, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 10, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 5, 10, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 30, 10, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 25, 20, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 12, 18, false), 0);

	/* Each byte is held once: 45 bytes in the six gaps that were filled. */
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 6 * quic_inq_truesize(0) + 45);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 45);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 45, 0), 45);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), -EAGAIN);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

static void inqueue_fin_flag_only_on_last_chunk(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 10, 10, true), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 10, false), 0);
	KUNIT_EXPECT_EQ(test, stream(test, t, 0)->recv.state, QUIC_STREAM_RECV_STATE_RECVD);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, 8, &ri), 8);
	KUNIT_EXPECT_FALSE(test, ri.fin);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf + 8, 8, &ri), 8);
	KUNIT_EXPECT_FALSE(test, ri.fin);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf + 16, 8, &ri), 4);
	KUNIT_EXPECT_TRUE(test, ri.fin);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 0LL);

	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 20, 0), 20);
	KUNIT_EXPECT_EQ(test, stream(test, t, 0)->recv.state, QUIC_STREAM_RECV_STATE_READ);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), -EAGAIN);
}

static void inqueue_fin_alone_delivered_as_empty_message(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 5, false), 0);
	KUNIT_ASSERT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 5);
	KUNIT_ASSERT_FALSE(test, ri.fin);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 5, 0, true), 0);

	KUNIT_EXPECT_TRUE(test, quic_inq_readable(inq));
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 0);
	KUNIT_EXPECT_TRUE(test, ri.fin);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 0LL);
	KUNIT_EXPECT_EQ(test, stream(test, t, 0)->recv.state, QUIC_STREAM_RECV_STATE_READ);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

static void inqueue_data_after_all_received_is_discarded(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);
	u32 rmem;

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 10, true), 0);
	rmem = quic_inq_rmem(inq);

	KUNIT_EXPECT_EQ(test, stream_frame(test, inq, t, 0, 0, 10, true), 0);
	KUNIT_EXPECT_EQ(test, stream_frame(test, inq, t, 0, 3, 4, false), 0);

	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), rmem);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 10);
	KUNIT_EXPECT_TRUE(test, ri.fin);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), -EAGAIN);
}

static void inqueue_beyond_max_stream_data_is_flow_control_error(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 100);
	struct quic_inq *inq = inq_new(test, 10000);
	int err;

	KUNIT_EXPECT_EQ(test, stream_frame(test, inq, t, 0, 90, 10, false), 0);

	err = stream_frame(test, inq, t, 0, 91, 10, false);

	KUNIT_EXPECT_EQ(test, err, -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, quic_inq_transport_error(err), QUIC_TRANSPORT_ERROR_FLOW_CONTROL);
}

static void inqueue_sum_over_streams_beyond_max_data_is_flow_control_error(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 250);
	int err;

	/* 100 + 100 + 50 reaches max_data exactly; resending adds nothing. */
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 100, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4, 50, 50, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 8, 0, 50, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 100, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4, 0, 60, false), 0);

	err = stream_frame(test, inq, t, 8, 50, 1, false);

	KUNIT_EXPECT_EQ(test, err, -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, quic_inq_transport_error(err), QUIC_TRANSPORT_ERROR_FLOW_CONTROL);
}

static void inqueue_final_size_change_is_final_size_error(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	int err;

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 5, 5, true), 0);

	err = stream_frame(test, inq, t, 0, 0, 12, true);
	KUNIT_EXPECT_EQ(test, err, -EFBIG);
	KUNIT_EXPECT_EQ(test, quic_inq_transport_error(err), QUIC_TRANSPORT_ERROR_FINAL_SIZE);

	err = stream_frame(test, inq, t, 0, 10, 1, false);
	KUNIT_EXPECT_EQ(test, err, -EFBIG);
	KUNIT_EXPECT_EQ(test, quic_inq_transport_error(err), QUIC_TRANSPORT_ERROR_FINAL_SIZE);
}

static void inqueue_rcvbuf_limit_refuses_with_enobufs(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);
	int err;

	quic_inq_set_rcvbuf(inq, 2 * quic_inq_truesize(100));
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 100, 100, true), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 100, false), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 2 * quic_inq_truesize(100));

	/* Out of order on another stream: no room. */
	err = stream_frame(test, inq, t, 4, 10, 1, false);

	KUNIT_EXPECT_EQ(test, err, -ENOBUFS);
	KUNIT_EXPECT_EQ(test, quic_inq_transport_error(err), QUIC_TRANSPORT_ERROR_NONE);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 2 * quic_inq_truesize(100));

	/* Reading frees the room; the retransmission is then taken. */
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 200);
	KUNIT_EXPECT_TRUE(test, ri.fin);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
	KUNIT_EXPECT_EQ(test, stream_frame(test, inq, t, 4, 10, 1, false), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), quic_inq_truesize(1));

	quic_inq_free(inq);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

/*
 * A queue filled to its limit with one-byte pieces out of order: more
 * out-of-order data is refused, but the bytes at the reader's position
 * are taken past the limit, so the application can read and free it
 * (otherwise the stream would stall for good).
 */
static void inqueue_in_order_data_passes_a_queue_full_of_gaps(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);
	u64 off;

	quic_inq_set_rcvbuf(inq, 10 * quic_inq_truesize(1));
	for (off = 1; off < 20; off += 2)
		KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, off, 1, false), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 10 * quic_inq_truesize(1));
	KUNIT_EXPECT_EQ(test, stream_frame(test, inq, t, 0, 21, 1, false), -ENOBUFS);

	KUNIT_EXPECT_EQ(test, stream_frame(test, inq, t, 0, 0, 20, false), 0);
	KUNIT_EXPECT_GT(test, quic_inq_rmem(inq), 10 * quic_inq_truesize(1));
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 20);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 20, 0), 20);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

static void inqueue_partial_read_keeps_rest(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 100, false), 0);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, 30, &ri), 30);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 30, 0), 30);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), quic_inq_truesize(100));
	KUNIT_EXPECT_EQ(test, stream(test, t, 0)->recv.offset, 30ULL);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 70);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 30, 70, 0), 70);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

/* SIOCINQ: only bytes a read returns now; data beyond a gap waits. */
static void inqueue_unread_counts_only_deliverable_bytes(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);
	u8 v = 9;

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 20, 10, false), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_unread(inq), 0ULL);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 10, false), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_unread(inq), 10ULL);
	KUNIT_ASSERT_EQ(test, quic_inq_read_buf(inq, t, buf, 4, &ri), 4);
	KUNIT_EXPECT_EQ(test, quic_inq_unread(inq), 6ULL);
	KUNIT_ASSERT_EQ(test, dgram_frame(inq, &v, 1), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_unread(inq), 7ULL);
	/* The gap fills: the held segment becomes readable too. */
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 10, 10, false), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_unread(inq), 27ULL);
}

static void inqueue_messages_follow_order_streams_became_readable(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 8, 0, 5, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4, 0, 5, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 8, 5, 5, false), 0);

	/* One read never mixes streams. */
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 5);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 8LL);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 5, 8), 5);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 5);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 4LL);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 5, 4), 5);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 5);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 8LL);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 5, 5, 8), 5);
}

/* QUIC_SOCKOPT_STREAM_PEELOFF: a peeled stream's data, queued before or
 * after, is read apart from the rest; the connection's reads and its
 * readable test pass it over.
 */
static void inqueue_peeled_stream_is_read_apart(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);
	struct kvec kv = { .iov_base = buf, .iov_len = INQ_BUF };
	struct iov_iter to;

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 8, 0, 5, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4, 0, 5, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 8, 5, 5, false), 0);
	quic_inq_stream_peel(inq, stream(test, t, 8));
	KUNIT_EXPECT_TRUE(test, quic_inq_stream_readable(inq, 8));

	KUNIT_EXPECT_TRUE(test, quic_inq_readable(inq));
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 5);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 4LL);
	KUNIT_EXPECT_FALSE(test, quic_inq_readable(inq));
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), -EAGAIN);

	/* Later data of the stream is its socket's too, in one read. */
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 8, 10, 3, true), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4, 5, 2, false), 0);
	iov_iter_kvec(&to, ITER_DEST, &kv, 1, INQ_BUF);
	KUNIT_EXPECT_EQ(test, quic_inq_read_stream(inq, t, 8, &to, &ri), 13);
	KUNIT_EXPECT_TRUE(test, ri.fin);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 13, 8), 13);
	KUNIT_EXPECT_FALSE(test, quic_inq_stream_readable(inq, 8));
	KUNIT_EXPECT_EQ(test, inq->peeled_queued, 0U);
	KUNIT_EXPECT_EQ(test, inq->queued, 1U);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 2);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 4LL);
}

static void inqueue_max_stream_data_update_after_half_window(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 100);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 100, false), 0);

	/* Half the window read: half is still open, nothing to send. */
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, 50, &ri), 50);
	KUNIT_EXPECT_FALSE(test, ri.stream_update);
	KUNIT_EXPECT_EQ(test, stream(test, t, 0)->recv.max_bytes, 100ULL);

	/* One more byte: the limit moves to read offset + window. */
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, 1, &ri), 1);
	KUNIT_EXPECT_TRUE(test, ri.stream_update);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 0LL);
	KUNIT_EXPECT_EQ(test, ri.max_stream_data, 151ULL);
	KUNIT_EXPECT_EQ(test, stream(test, t, 0)->recv.max_bytes, 151ULL);
	KUNIT_EXPECT_FALSE(test, ri.conn_update);

	/* The new credit is usable. */
	KUNIT_EXPECT_EQ(test, stream_frame(test, inq, t, 0, 100, 51, false), 0);
}

static void inqueue_max_data_update_after_half_window(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 200);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 100, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4, 0, 100, false), 0);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 100);
	KUNIT_EXPECT_FALSE(test, ri.conn_update);
	KUNIT_EXPECT_EQ(test, quic_inq_max_data(inq), 200ULL);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, 1, &ri), 1);
	KUNIT_EXPECT_TRUE(test, ri.conn_update);
	KUNIT_EXPECT_EQ(test, ri.max_data, 301ULL);
	KUNIT_EXPECT_EQ(test, quic_inq_max_data(inq), 301ULL);

	/* Exactly the new limit is accepted, one byte more is not. */
	KUNIT_EXPECT_EQ(test, stream_frame(test, inq, t, 8, 0, 101, false), 0);
	KUNIT_EXPECT_EQ(test, stream_frame(test, inq, t, 8, 101, 1, false), -EOVERFLOW);
}

static void inqueue_reset_stream_drops_buffered_data(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 50, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4, 0, 10, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 60, 20, false), 0);

	KUNIT_EXPECT_GE(test, quic_inq_stream_reset(inq, stream(test, t, 0), 100, 7), 0);

	KUNIT_EXPECT_EQ(test, stream(test, t, 0)->recv.state, QUIC_STREAM_RECV_STATE_RESET_RECVD);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), quic_inq_truesize(10));
	/* Late data of the reset stream is dropped too. */
	KUNIT_EXPECT_EQ(test, stream_frame(test, inq, t, 0, 50, 10, false), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 10);
	KUNIT_EXPECT_EQ(test, ri.stream_id, 4LL);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), -EAGAIN);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

static void inqueue_reset_stream_returns_connection_credit(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 200);
	int err;

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 50, false), 0);

	/* The final size counts as received; none of it will be read. */
	KUNIT_EXPECT_EQ(test, quic_inq_stream_reset(inq, stream(test, t, 0), 150, 0), 1);

	KUNIT_EXPECT_EQ(test, quic_inq_max_data(inq), 350ULL);
	err = quic_inq_stream_reset(inq, quic_stream_recv_get(t, 4, GFP_KERNEL), 201, 0);
	KUNIT_EXPECT_EQ(test, err, -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, quic_inq_transport_error(err), QUIC_TRANSPORT_ERROR_FLOW_CONTROL);
}

static void inqueue_crypto_delivered_in_order_per_level(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_HANDSHAKE, 6, 6), 0);
	KUNIT_ASSERT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_INITIAL, 0, 10), 0);
	KUNIT_ASSERT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_HANDSHAKE, 0, 8), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_crypto_offset(inq, QUIC_CRYPTO_HANDSHAKE), 12ULL);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 10);
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_CRYPTO);
	KUNIT_EXPECT_EQ(test, ri.level, QUIC_CRYPTO_INITIAL);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 10, 100 + QUIC_CRYPTO_INITIAL), 10);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 12);
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_CRYPTO);
	KUNIT_EXPECT_EQ(test, ri.level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 0, 12, 100 + QUIC_CRYPTO_HANDSHAKE), 12);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

static void inqueue_crypto_beyond_limit_is_crypto_buffer_exceeded(struct kunit *test)
{
	struct quic_inq *inq = inq_new(test, 10000);
	int err;

	/* RFC 9000 Section 7.5: 4096 bytes out of order must be taken; ours
	 * reach QUIC_INQ_CRYPTO_MAX_AHEAD.
	 */
	KUNIT_EXPECT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_HANDSHAKE, 4000, 96), 0);
	KUNIT_EXPECT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_HANDSHAKE,
					   QUIC_INQ_CRYPTO_MAX_AHEAD - 10, 10), 0);

	err = crypto_frame(test, inq, QUIC_CRYPTO_HANDSHAKE, QUIC_INQ_CRYPTO_MAX_AHEAD - 9, 10);

	KUNIT_EXPECT_EQ(test, err, -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, quic_inq_transport_error(err),
			QUIC_TRANSPORT_ERROR_CRYPTO_BUF_EXCEEDED);
	/* The limit follows the level's contiguous offset, per level. */
	KUNIT_EXPECT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_INITIAL,
					   QUIC_INQ_CRYPTO_MAX_AHEAD - 10, 10), 0);
	KUNIT_EXPECT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_HANDSHAKE, 0, 100), 0);
	KUNIT_EXPECT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_HANDSHAKE,
					   QUIC_INQ_CRYPTO_MAX_AHEAD - 9, 10), 0);
}

static void inqueue_crypto_discard_frees_level(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_INITIAL, 0, 10), 0);
	KUNIT_ASSERT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_INITIAL, 20, 10), 0);
	KUNIT_ASSERT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_HANDSHAKE, 0, 5), 0);

	quic_inq_crypto_discard(inq, QUIC_CRYPTO_INITIAL);

	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), quic_inq_truesize(5));
	KUNIT_EXPECT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_INITIAL, 10, 10), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), quic_inq_truesize(5));
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 5);
	KUNIT_EXPECT_EQ(test, ri.level, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), -EAGAIN);
}

static void inqueue_datagram_queue_bounded_and_drop_counted(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);
	u8 i, v;

	for (i = 0; i < QUIC_INQ_DGRAM_MAX; i++)
		KUNIT_ASSERT_EQ(test, dgram_frame(inq, &i, 1), 0);

	v = 200;
	KUNIT_EXPECT_EQ(test, dgram_frame(inq, &v, 1), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, quic_inq_dgram_drops(inq), 1ULL);
	KUNIT_EXPECT_EQ(test, quic_inq_transport_error(-ENOBUFS), QUIC_TRANSPORT_ERROR_NONE);

	/* The oldest are kept: reading one makes room for one more. */
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 1);
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_DATAGRAM);
	KUNIT_EXPECT_EQ(test, buf[0], 0);
	v = 201;
	KUNIT_EXPECT_EQ(test, dgram_frame(inq, &v, 1), 0);
	for (i = 1; i < QUIC_INQ_DGRAM_MAX; i++) {
		KUNIT_ASSERT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 1);
		KUNIT_EXPECT_EQ(test, buf[0], i);
	}
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 1);
	KUNIT_EXPECT_EQ(test, buf[0], 201);
	KUNIT_EXPECT_EQ(test, quic_inq_dgram_drops(inq), 1ULL);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

static void inqueue_datagram_read_as_one_message(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	u8 *a = pat_buf(test, 0, 10, 1);
	u8 *b = pat_buf(test, 0, 6, 2);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, dgram_frame(inq, a, 10), 0);
	KUNIT_ASSERT_EQ(test, dgram_frame(inq, b, 6), 0);
	KUNIT_ASSERT_EQ(test, dgram_frame(inq, b, 0), 0);
	KUNIT_ASSERT_EQ(test, dgram_frame(inq, a, 10), 0);

	/* Two datagrams never merge into one read. */
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 10);
	KUNIT_EXPECT_MEMEQ(test, buf, a, 10);
	KUNIT_EXPECT_FALSE(test, ri.trunc);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 6);
	KUNIT_EXPECT_MEMEQ(test, buf, b, 6);
	/* An empty datagram is a message of its own. */
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 0);
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_DATAGRAM);
	/* Too short a buffer: the rest of the datagram comes next. */
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, 4, &ri), 4);
	KUNIT_EXPECT_MEMEQ(test, buf, a, 4);
	KUNIT_EXPECT_TRUE(test, ri.trunc);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 6);
	KUNIT_EXPECT_MEMEQ(test, buf, a + 4, 6);
	KUNIT_EXPECT_FALSE(test, ri.trunc);
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_DATAGRAM);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), -EAGAIN);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

#define INQ_STREAMS	16
#define INQ_SEGS	4
#define INQ_SEG_LEN	8

/* Notifications overtake data that waits (a chunk read in part included)
 * and keep their own order; each is one message: type byte, then payload.
 */
static void inqueue_events_overtake_data_in_their_own_order(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	u64 first = 0x1122334455667788ULL, second = 42;
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 100, false), 0);
	KUNIT_ASSERT_EQ(test, quic_inq_read_buf(inq, t, buf, 10, &ri), 10);
	KUNIT_ASSERT_EQ(test, dgram_frame(inq, "dg", 2), 0);
	KUNIT_ASSERT_EQ(test, quic_inq_event_recv(inq, QUIC_EVENT_STREAM_MAX_STREAM, &first,
						  sizeof(first), GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, quic_inq_event_recv(inq, QUIC_EVENT_KEY_UPDATE, &second, 1,
						  GFP_KERNEL), 0);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 1 + 8);
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_EVENT);
	KUNIT_EXPECT_EQ(test, buf[0], QUIC_EVENT_STREAM_MAX_STREAM);
	KUNIT_EXPECT_MEMEQ(test, buf + 1, &first, 8);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 2);
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_EVENT);
	KUNIT_EXPECT_EQ(test, buf[0], QUIC_EVENT_KEY_UPDATE);
	KUNIT_EXPECT_EQ(test, buf[1], 42);
	/* Then the rest of the stream chunk, and the datagram. */
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 90);
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_STREAM);
	KUNIT_EXPECT_MEMEQ(test, buf, pat_buf(test, 10, 90, 0), 90);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 2);
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_DATAGRAM);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

/* A notification read into a short buffer comes in parts (@ri->trunc); bad types
 * are refused; the queue holds at most QUIC_INQ_EVENT_MAX and counts drops,
 * and a full receive buffer refuses them too.
 */
static void inqueue_event_queue_bounded_and_drop_counted(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);
	u8 payload[24] = {};
	u32 i;

	KUNIT_EXPECT_EQ(test, quic_inq_event_recv(inq, 0, NULL, 0, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_inq_event_recv(inq, QUIC_EVENT_MAX + 1, NULL, 0, GFP_KERNEL),
			-EINVAL);
	for (i = 0; i < QUIC_INQ_EVENT_MAX; i++)
		KUNIT_ASSERT_EQ(test, quic_inq_event_recv(inq, QUIC_EVENT_STREAM_UPDATE, payload,
							  sizeof(payload), GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_event_recv(inq, QUIC_EVENT_STREAM_UPDATE, payload,
						  sizeof(payload), GFP_KERNEL), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, quic_inq_event_drops(inq), 1ULL);

	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, 5, &ri), 5);
	KUNIT_EXPECT_TRUE(test, ri.trunc);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 20);
	KUNIT_EXPECT_FALSE(test, ri.trunc);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri), 25);
	KUNIT_EXPECT_FALSE(test, ri.trunc);
	while (quic_inq_read_buf(inq, t, buf, INQ_BUF, &ri) > 0)
		;
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);

	/* The receive buffer bounds them too. */
	quic_inq_set_rcvbuf(inq, quic_inq_truesize(1 + sizeof(payload)));
	KUNIT_EXPECT_EQ(test, quic_inq_event_recv(inq, QUIC_EVENT_STREAM_UPDATE, payload,
						  sizeof(payload), GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_event_recv(inq, QUIC_EVENT_STREAM_UPDATE, payload,
						  sizeof(payload), GFP_KERNEL), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, quic_inq_event_drops(inq), 2ULL);
}

static void inqueue_many_streams_interleaved(struct kunit *test)
{
	static const u8 order[INQ_SEGS] = { 2, 0, 3, 1 };
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 100000);
	u32 got[INQ_STREAMS] = {}, fins[INQ_STREAMS] = {};
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);
	u8 *out;
	int i, j, n, k;

	out = kunit_kzalloc(test, INQ_STREAMS * INQ_SEGS * INQ_SEG_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);

	/* Round j sends segment order[(j + stream) % 4] of every stream, so
	 * streams complete in different rounds; the last segment has the FIN.
	 */
	for (j = 0; j < INQ_SEGS; j++) {
		for (i = 0; i < INQ_STREAMS; i++) {
			k = order[(j + i) % INQ_SEGS];
			KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4 * i, k * INQ_SEG_LEN,
							   INQ_SEG_LEN, k == INQ_SEGS - 1), 0);
		}
	}

	while ((n = quic_inq_read_buf(inq, t, buf, 5, &ri)) >= 0) {
		i = ri.stream_id / 4;
		KUNIT_ASSERT_LT(test, i, INQ_STREAMS);
		KUNIT_ASSERT_LE(test, got[i] + n, INQ_SEGS * INQ_SEG_LEN);
		KUNIT_EXPECT_EQ(test, fins[i], 0U);
		memcpy(out + i * INQ_SEGS * INQ_SEG_LEN + got[i], buf, n);
		got[i] += n;
		fins[i] += ri.fin;
	}

	KUNIT_EXPECT_EQ(test, n, -EAGAIN);
	for (i = 0; i < INQ_STREAMS; i++) {
		KUNIT_EXPECT_EQ(test, got[i], INQ_SEGS * INQ_SEG_LEN);
		KUNIT_EXPECT_EQ(test, fins[i], 1U);
		KUNIT_EXPECT_MEMEQ(test, out + i * INQ_SEGS * INQ_SEG_LEN,
				   pat_buf(test, 0, INQ_SEGS * INQ_SEG_LEN, 4 * i),
				   INQ_SEGS * INQ_SEG_LEN);
	}
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
}

/* The owner's side of the charge hook: a budget the cases set. */
struct inq_budget {
	struct quic_inq inq;
	u64 left;
	u64 charged;
	u32 refused;
};

static int inq_budget_charge(struct quic_inq *inq, u32 bytes)
{
	struct inq_budget *b = container_of(inq, struct inq_budget, inq);

	if (bytes > b->left) {
		b->refused++;
		return -ENOBUFS;
	}
	b->left -= bytes;
	b->charged += bytes;
	return 0;
}

/* A queue advertising 100000 bytes whose owner grants what ->left says. */
static struct inq_budget *inq_budget_new(struct kunit *test)
{
	struct inq_budget *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	quic_inq_init(&b->inq);
	quic_inq_set_max_data(&b->inq, 100000);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, inq_free_action, &b->inq), 0);
	b->inq.charge = inq_budget_charge;
	return b;
}

static void inqueue_owner_charge_precedes_every_chunk(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 100000);
	struct inq_budget *b;
	u8 v = 7;

	b = inq_budget_new(test);
	b->left = U64_MAX;

	/* Gaps, in-order data, CRYPTO, DATAGRAM and a notification: the
	 * owner was asked for exactly what the queue holds.
	 */
	KUNIT_ASSERT_EQ(test, stream_frame(test, &b->inq, t, 0, 500, 100, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, &b->inq, t, 0, 0, 1000, false), 0);
	KUNIT_ASSERT_EQ(test, crypto_frame(test, &b->inq, QUIC_CRYPTO_HANDSHAKE, 0, 300), 0);
	KUNIT_ASSERT_EQ(test, dgram_frame(&b->inq, &v, 1), 0);
	KUNIT_ASSERT_EQ(test, quic_inq_event_recv(&b->inq, QUIC_EVENT_STREAM_UPDATE, &v, 1,
						  GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, b->charged, (u64)quic_inq_rmem(&b->inq));
	KUNIT_EXPECT_EQ(test, b->refused, 0U);
}

/* A FIN that comes after the last byte (an empty STREAM frame with the
 * FIN bit) queues an empty chunk to carry the end: it is charged to the
 * owner like any other. Found by the invariant check of
 * CONFIG_IP_QUIC_DEBUG_INVARIANTS (rx fuzzing: 48 bytes held, 0 charged).
 */
static void inqueue_fin_after_the_last_byte_is_charged(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 100000);
	struct inq_budget *b;

	b = inq_budget_new(test);
	b->left = U64_MAX;
	KUNIT_ASSERT_EQ(test, stream_frame(test, &b->inq, t, 0, 0, 10, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, &b->inq, t, 0, 10, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->charged, (u64)quic_inq_rmem(&b->inq));

	/* Refused, the end waits for the peer's resend; nothing is held. */
	b->left = 0;
	KUNIT_EXPECT_EQ(test, stream_frame(test, &b->inq, t, 4, 0, 0, true), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, b->charged, (u64)quic_inq_rmem(&b->inq));
}

static void inqueue_refused_charge_drops_the_data(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 100000);
	struct quic_inq_rinfo ri;
	struct inq_budget *b;
	u8 *buf = buf_new(test);

	b = inq_budget_new(test);
	b->left = quic_inq_truesize(100);

	/* Within the receive buffer but past what the owner grants: dropped
	 * (the packet is not acknowledged), nothing held, no error to close.
	 */
	KUNIT_EXPECT_EQ(test, stream_frame(test, &b->inq, t, 0, 0, 101, false), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(&b->inq), 0U);
	KUNIT_EXPECT_EQ(test, dgram_frame(&b->inq, buf, 200), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, quic_inq_dgram_drops(&b->inq), 1ULL);
	KUNIT_EXPECT_EQ(test, quic_inq_event_recv(&b->inq, QUIC_EVENT_STREAM_UPDATE, buf, 200,
						  GFP_KERNEL), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, quic_inq_event_drops(&b->inq), 1ULL);
	KUNIT_EXPECT_EQ(test, b->refused, 3U);

	/* What the owner grants is taken; the peer's resend of the rest
	 * goes in once memory is back.
	 */
	KUNIT_EXPECT_EQ(test, stream_frame(test, &b->inq, t, 0, 0, 100, false), 0);
	KUNIT_EXPECT_EQ(test, stream_frame(test, &b->inq, t, 0, 100, 1, false), -ENOBUFS);
	b->left = U64_MAX;
	KUNIT_EXPECT_EQ(test, stream_frame(test, &b->inq, t, 0, 100, 1, false), 0);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(&b->inq, t, buf, INQ_BUF, &ri), 101);
	KUNIT_EXPECT_EQ(test, quic_inq_rmem(&b->inq), 0U);
}

static void inqueue_memory_pressure_opens_a_quarter_window(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 100000);
	struct quic_inq *inq = inq_new(test, 4000);
	struct quic_inq_rinfo ri;
	u8 *buf = buf_new(test);

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 4000, false), 0);
	quic_inq_set_pressure(inq, true);
	/* Under pressure: an update once less than 500 bytes are open, to
	 * consumed + 1000.
	 */
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, 3000, &ri), 3000);
	KUNIT_EXPECT_FALSE(test, ri.conn_update);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, 501, &ri), 501);
	KUNIT_EXPECT_TRUE(test, ri.conn_update);
	KUNIT_EXPECT_EQ(test, ri.max_data, 4501ULL);
	/* The pressure ends: the whole window again (3502 + 4000). */
	quic_inq_set_pressure(inq, false);
	KUNIT_EXPECT_EQ(test, quic_inq_read_buf(inq, t, buf, 1, &ri), 1);
	KUNIT_EXPECT_TRUE(test, ri.conn_update);
	KUNIT_EXPECT_EQ(test, ri.max_data, 7502ULL);
}

static void inqueue_free_releases_everything(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, 1000);
	struct quic_inq *inq = inq_new(test, 10000);
	u8 v = 1;

	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 0, 0, 10, false), 0);
	KUNIT_ASSERT_EQ(test, stream_frame(test, inq, t, 4, 50, 10, false), 0);
	KUNIT_ASSERT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_APP, 30, 10), 0);
	KUNIT_ASSERT_EQ(test, crypto_frame(test, inq, QUIC_CRYPTO_APP, 0, 10), 0);
	KUNIT_ASSERT_EQ(test, dgram_frame(inq, &v, 1), 0);
	KUNIT_EXPECT_GT(test, quic_inq_rmem(inq), 0U);

	quic_inq_free(inq);

	KUNIT_EXPECT_EQ(test, quic_inq_rmem(inq), 0U);
	KUNIT_EXPECT_FALSE(test, quic_inq_readable(inq));
}

static struct kunit_case inqueue_cases[] = {
	KUNIT_CASE(inqueue_in_order_data_delivered_with_stream_id),
	KUNIT_CASE(inqueue_out_of_order_segments_reassembled_when_gap_fills),
	KUNIT_CASE(inqueue_duplicate_and_overlapping_segments_not_duplicated),
	KUNIT_CASE(inqueue_fin_flag_only_on_last_chunk),
	KUNIT_CASE(inqueue_fin_alone_delivered_as_empty_message),
	KUNIT_CASE(inqueue_data_after_all_received_is_discarded),
	KUNIT_CASE(inqueue_beyond_max_stream_data_is_flow_control_error),
	KUNIT_CASE(inqueue_sum_over_streams_beyond_max_data_is_flow_control_error),
	KUNIT_CASE(inqueue_final_size_change_is_final_size_error),
	KUNIT_CASE(inqueue_rcvbuf_limit_refuses_with_enobufs),
	KUNIT_CASE(inqueue_in_order_data_passes_a_queue_full_of_gaps),
	KUNIT_CASE(inqueue_partial_read_keeps_rest),
	KUNIT_CASE(inqueue_unread_counts_only_deliverable_bytes),
	KUNIT_CASE(inqueue_messages_follow_order_streams_became_readable),
	KUNIT_CASE(inqueue_peeled_stream_is_read_apart),
	KUNIT_CASE(inqueue_max_stream_data_update_after_half_window),
	KUNIT_CASE(inqueue_max_data_update_after_half_window),
	KUNIT_CASE(inqueue_reset_stream_drops_buffered_data),
	KUNIT_CASE(inqueue_reset_stream_returns_connection_credit),
	KUNIT_CASE(inqueue_crypto_delivered_in_order_per_level),
	KUNIT_CASE(inqueue_crypto_beyond_limit_is_crypto_buffer_exceeded),
	KUNIT_CASE(inqueue_crypto_discard_frees_level),
	KUNIT_CASE(inqueue_datagram_queue_bounded_and_drop_counted),
	KUNIT_CASE(inqueue_datagram_read_as_one_message),
	KUNIT_CASE(inqueue_events_overtake_data_in_their_own_order),
	KUNIT_CASE(inqueue_event_queue_bounded_and_drop_counted),
	KUNIT_CASE(inqueue_many_streams_interleaved),
	KUNIT_CASE(inqueue_owner_charge_precedes_every_chunk),
	KUNIT_CASE(inqueue_fin_after_the_last_byte_is_charged),
	KUNIT_CASE(inqueue_refused_charge_drops_the_data),
	KUNIT_CASE(inqueue_memory_pressure_opens_a_quarter_window),
	KUNIT_CASE(inqueue_free_releases_everything),
	{}
};

static struct kunit_suite inqueue_suite = {
	.name = "quic_inqueue",
	.test_cases = inqueue_cases,
};

kunit_test_suite(inqueue_suite);
