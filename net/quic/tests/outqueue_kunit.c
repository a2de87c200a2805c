// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_outqueue: the send queue (outqueue.c). Packet filling
 * with ACK frames, splitting, flow control (RFC 9000 Section 4) and the
 * congestion window (RFC 9002 Section 7), retransmission of information
 * rather than packets (RFC 9000 Section 13.3), the bound on answers to
 * the peer, Nagle. Loss recovery has its own suite, quic_recovery.
 *
 * Each case drives a client's outqueue by hand (outqueue_util.h).
 */

#include <kunit/test.h>
#include <linux/uio.h>

#include "outqueue_util.h"

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

/* NEW_TOKEN frames an application asks for (QUIC_SOCKOPT_TOKEN on a
 * server) faster than they leave: the newest replaces one still waiting.
 */
static void outqueue_waiting_token_is_replaced_by_a_newer_one(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_frame f = { .type = QUIC_FRAME_NEW_TOKEN };
	struct quic_outq_frame *fr;
	u8 token[16] = {};
	u32 i, n = 0;

	f.data.data = token;
	f.data.len = sizeof(token);
	for (i = 0; i < 200; i++) {
		token[0] = i;
		KUNIT_ASSERT_EQ(test, quic_outq_ctrl_append(&e->outq, QUIC_CRYPTO_APP, &f,
							    GFP_KERNEL), 0);
	}
	list_for_each_entry(fr, &e->outq.spaces[quic_pnspace_index(QUIC_CRYPTO_APP)].ctrl, list) {
		if (fr->type != QUIC_FRAME_NEW_TOKEN)
			continue;
		n++;
		KUNIT_EXPECT_EQ(test, fr->f.data.data[0], 199);
	}
	KUNIT_EXPECT_EQ(test, n, 1U);
}

/* RFC 9000 Section 9.3: a server validates the client's newest address.
 * A challenge still waiting was for an address the client has left: the
 * newest replaces it, in its own frame, and it is not held as an answer
 * twice; a waiting PATH_RESPONSE stays.
 */
static void outqueue_waiting_path_challenge_is_replaced_by_a_newer_one(struct kunit *test)
{
	struct oq_env *e = oq_env_confirmed(test);
	struct quic_frame f = { .type = QUIC_FRAME_PATH_RESPONSE };
	struct quic_outq_frame *fr;
	u32 i, challenges = 0, responses = 0;

	KUNIT_ASSERT_EQ(test, quic_outq_ctrl_append(&e->outq, QUIC_CRYPTO_APP, &f, GFP_KERNEL), 0);
	f.type = QUIC_FRAME_PATH_CHALLENGE;
	for (i = 0; i < 2 * QUIC_OUTQ_CTRL_MAX; i++) {
		memset(f.path_data, i, sizeof(f.path_data));
		KUNIT_ASSERT_EQ(test, quic_outq_ctrl_append(&e->outq, QUIC_CRYPTO_APP, &f,
							    GFP_KERNEL), 0);
	}
	list_for_each_entry(fr, &e->outq.spaces[quic_pnspace_index(QUIC_CRYPTO_APP)].ctrl, list) {
		if (fr->type == QUIC_FRAME_PATH_RESPONSE)
			responses++;
		if (fr->type != QUIC_FRAME_PATH_CHALLENGE)
			continue;
		challenges++;
		KUNIT_EXPECT_EQ(test, fr->f.path_data[0], (u8)(i - 1));
	}
	KUNIT_EXPECT_EQ(test, challenges, 1U);
	KUNIT_EXPECT_EQ(test, responses, 1U);
	KUNIT_EXPECT_EQ(test, e->outq.ctrl_held, 2U);
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

/* MSG_MORE (draft-lxin-quic-socket-apis, sendmsg() flags): while the
 * queue is corked, stream data too short for a packet waits even with
 * nothing in flight and Nagle off, FIN included; a packet's worth goes;
 * uncorking lets the rest go.
 */
static void outqueue_corked_holds_short_data_until_uncorked(struct kunit *test)
{
	struct oq_env *e = oq_env_default(test);
	struct quic_stream *s = oq_stream(test, e, 0);
	u64 left;

	e->outq.corked = 1;
	oq_queue(test, e, s, 0, 100, false);
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	KUNIT_EXPECT_EQ(test, quic_outq_unsent(&e->outq), 100ULL);

	oq_queue(test, e, s, 100, 1300, true);
	KUNIT_ASSERT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), (u32)OQ_ROOM);
	KUNIT_EXPECT_EQ(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	left = quic_outq_unsent(&e->outq);
	KUNIT_EXPECT_GT(test, left, 0ULL);

	e->outq.corked = 0;
	KUNIT_ASSERT_GT(test, oq_fill(test, e, QUIC_CRYPTO_APP, OQ_ROOM, OQ_T0), 0U);
	oq_expect_stream(test, e, 0, 1400 - left, left);
	KUNIT_EXPECT_TRUE(test, e->frames[0].type & QUIC_STREAM_BIT_FIN);
	KUNIT_EXPECT_EQ(test, quic_outq_unsent(&e->outq), 0ULL);
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

/* CONFIG_IP_QUIC_DEBUG_INVARIANTS: the check finds each kind of drift
 * between the accounting and the packets it is about, and nothing on a
 * queue that is right.
 */
static void outqueue_invariant_names_what_drifted(struct kunit *test)
{
	struct oq_env *e;
	struct quic_stream *s;
	u64 limit;
	u32 saved;

	if (!IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS))
		kunit_skip(test, "CONFIG_IP_QUIC_DEBUG_INVARIANTS is off");
	e = oq_env_default(test);
	s = oq_stream(test, e, 0);
	oq_send_data(test, e, s, 0, 100, OQ_T0);
	oq_send_ping(test, e, QUIC_CRYPTO_INITIAL, OQ_T0);
	KUNIT_EXPECT_NULL(test, quic_outq_invariant(&e->outq));

	e->cong.bytes_in_flight += 1;
	KUNIT_EXPECT_NOT_NULL(test, quic_outq_invariant(&e->outq));
	e->cong.bytes_in_flight -= 1;

	saved = e->space[QUIC_CRYPTO_APP].inflight;
	e->space[QUIC_CRYPTO_APP].inflight = 0;
	KUNIT_EXPECT_NOT_NULL(test, quic_outq_invariant(&e->outq));
	e->space[QUIC_CRYPTO_APP].inflight = saved;

	e->outq.spaces[QUIC_CRYPTO_INITIAL].eliciting++;
	KUNIT_EXPECT_NOT_NULL(test, quic_outq_invariant(&e->outq));
	e->outq.spaces[QUIC_CRYPTO_INITIAL].eliciting--;

	e->outq.data_sent = e->outq.max_data + 1;
	KUNIT_EXPECT_NOT_NULL(test, quic_outq_invariant(&e->outq));
	e->outq.data_sent = 100;
	KUNIT_EXPECT_NULL(test, quic_outq_invariant(&e->outq));

	/* RFC 9000 Section 4.1: 100 bytes sent, the peer allowed 99. */
	limit = s->send.max_bytes;
	s->send.max_bytes = 99;
	KUNIT_ASSERT_NOT_NULL(test, quic_outq_invariant(&e->outq));
	KUNIT_EXPECT_STREQ(test, quic_outq_invariant(&e->outq),
			   "stream bytes sent beyond the peer's MAX_STREAM_DATA");
	s->send.max_bytes = limit;
	KUNIT_EXPECT_NULL(test, quic_outq_invariant(&e->outq));
}

static struct kunit_case outqueue_cases[] = {
	KUNIT_CASE(outqueue_invariant_names_what_drifted),
	KUNIT_CASE(outqueue_nagle_holds_short_writes_until_the_short_packet_is_acked),
	KUNIT_CASE(outqueue_corked_holds_short_data_until_uncorked),
	KUNIT_CASE(outqueue_nodelay_sends_every_short_write),
	KUNIT_CASE(outqueue_unsent_excludes_sent_data_and_counts_datagrams),
	KUNIT_CASE(outqueue_data_from_a_short_iterator_queues_nothing),
	KUNIT_CASE(outqueue_answers_to_the_peer_are_bounded),
	KUNIT_CASE(outqueue_waiting_token_is_replaced_by_a_newer_one),
	KUNIT_CASE(outqueue_waiting_path_challenge_is_replaced_by_a_newer_one),
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
