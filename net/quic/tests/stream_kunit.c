// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_stream: stream ID types (RFC 9000 Section 2.1), stream
 * count limits and implicit opening (Sections 3.2, 4.6, 19.11), the frame
 * checks that yield STREAM_STATE_ERROR and STREAM_LIMIT_ERROR, the send
 * and receive state machines (Section 3), flow control and final size
 * (Sections 4.1 and 4.5), the transport parameters (Section 18.2) and the
 * stream table's lookup and teardown.
 */

#include <kunit/test.h>

#include "../stream.h"

KUNIT_DEFINE_ACTION_WRAPPER(stream_table_free_action, quic_stream_table_free,
			    struct quic_stream_table *);

static struct quic_stream_table *table_new(struct kunit *test, bool is_serv)
{
	struct quic_stream_table *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	KUNIT_ASSERT_EQ(test, quic_stream_table_init(t, is_serv, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, stream_table_free_action, t), 0);
	return t;
}

/* Stream counts and one flow control limit for every stream type. */
static void set_limits(struct kunit *test, struct quic_stream_table *t, bool remote,
		       u16 bidi, u16 uni, u64 data)
{
	struct quic_transport_param p = {
		.remote = remote,
		.max_streams_bidi = bidi,
		.max_streams_uni = uni,
		.max_stream_data_bidi_local = data,
		.max_stream_data_bidi_remote = data,
		.max_stream_data_uni = data,
	};

	KUNIT_ASSERT_EQ(test, quic_stream_set_param(t, &p), 0);
}

/* A table whose streams are limited only by what a case sets. */
static struct quic_stream_table *table_open(struct kunit *test, bool is_serv)
{
	struct quic_stream_table *t = table_new(test, is_serv);

	set_limits(test, t, false, 100, 100, 1000);
	set_limits(test, t, true, 100, 100, 1000);
	return t;
}

struct id_vector {
	const char *desc;
	s64 id;
	bool is_serv;
	bool uni, local, send, recv;
};

/* RFC 9000 Section 2.1, Table 1: bit 0x01 is the initiator (set: server),
 * bit 0x02 the direction (set: unidirectional); a unidirectional stream
 * carries data from its initiator only.
 */
static const struct id_vector id_vectors[] = {
	{ "RFC 9000 2.1 0x00 as client", 0, false, false, true, true, true },
	{ "RFC 9000 2.1 0x01 as client", 1, false, false, false, true, true },
	{ "RFC 9000 2.1 0x02 as client", 2, false, true, true, true, false },
	{ "RFC 9000 2.1 0x03 as client", 3, false, true, false, false, true },
	{ "RFC 9000 2.1 0x00 as server", 0, true, false, false, true, true },
	{ "RFC 9000 2.1 0x01 as server", 1, true, false, true, true, true },
	{ "RFC 9000 2.1 0x02 as server", 2, true, true, false, false, true },
	{ "RFC 9000 2.1 0x03 as server", 3, true, true, true, true, false },
	{ "RFC 9000 2.1 4001 (0x01) as server", 4001, true, false, true, true, true },
	{ "RFC 9000 2.1 4002 (0x02) as client", 4002, false, true, true, true, false },
};

KUNIT_ARRAY_PARAM_DESC(id_vectors, id_vectors, desc);

static void stream_id_types_from_both_roles(struct kunit *test)
{
	const struct id_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, quic_stream_id_uni(v->id), v->uni);
	KUNIT_EXPECT_EQ(test, quic_stream_id_local(v->id, v->is_serv), v->local);
	KUNIT_EXPECT_EQ(test, quic_stream_id_send(v->id, v->is_serv), v->send);
	KUNIT_EXPECT_EQ(test, quic_stream_id_recv(v->id, v->is_serv), v->recv);
	KUNIT_EXPECT_TRUE(test, quic_stream_id_valid(v->id));
}

static void stream_id_range_is_62_bits(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);

	KUNIT_EXPECT_TRUE(test, quic_stream_id_valid((1LL << 62) - 1));
	KUNIT_EXPECT_FALSE(test, quic_stream_id_valid(1LL << 62));
	KUNIT_EXPECT_FALSE(test, quic_stream_id_valid(-1));
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 1LL << 62, GFP_KERNEL)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_recv_get(t, -4, GFP_KERNEL)), -EBADMSG);
}

static void stream_first_ids_follow_role(struct kunit *test)
{
	struct quic_stream_table *client = table_new(test, false);
	struct quic_stream_table *server = table_new(test, true);

	/* Section 2.1: each type starts at its type value. */
	KUNIT_EXPECT_EQ(test, quic_stream_next_local_id(client, false), 0LL);
	KUNIT_EXPECT_EQ(test, quic_stream_next_local_id(client, true), 2LL);
	KUNIT_EXPECT_EQ(test, quic_stream_next_local_id(server, false), 1LL);
	KUNIT_EXPECT_EQ(test, quic_stream_next_local_id(server, true), 3LL);
}

static void stream_limits_default_to_zero(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, false);

	/* Section 18.2: absent initial_max_streams_* mean 0 streams. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 0, GFP_KERNEL)), -EAGAIN);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_recv_get(t, 1, GFP_KERNEL)), -EDQUOT);
	KUNIT_EXPECT_EQ(test, t->count, 0U);
}

static void stream_local_open_waits_for_peer_limit(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, true);

	/* Section 19.11: "a server that receives a unidirectional stream
	 * limit of 3 is permitted to open streams 3, 7, and 11, but not
	 * stream 15."
	 */
	set_limits(test, t, true, 0, 3, 0);
	KUNIT_EXPECT_FALSE(test, IS_ERR(quic_stream_send_get(t, 3, GFP_KERNEL)));
	KUNIT_EXPECT_FALSE(test, IS_ERR(quic_stream_send_get(t, 7, GFP_KERNEL)));
	KUNIT_EXPECT_FALSE(test, IS_ERR(quic_stream_send_get(t, 11, GFP_KERNEL)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 15, GFP_KERNEL)), -EAGAIN);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(-EAGAIN),
			(u32)QUIC_TRANSPORT_ERROR_NONE);

	/* MAX_STREAMS (type 0x13) of 4 lets 15 open; lower values are ignored. */
	KUNIT_EXPECT_EQ(test, quic_stream_set_local_max_streams(t, true, 4), 1);
	KUNIT_EXPECT_EQ(test, quic_stream_set_local_max_streams(t, true, 2), 0);
	KUNIT_EXPECT_EQ(test, quic_stream_set_local_max_streams(t, true, 4), 0);
	KUNIT_EXPECT_FALSE(test, IS_ERR(quic_stream_send_get(t, 15, GFP_KERNEL)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 19, GFP_KERNEL)), -EAGAIN);
	/* Bidirectional streams have a limit of their own, still 0. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 1, GFP_KERNEL)), -EAGAIN);
}

static void stream_max_streams_above_2_60_rejected(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, false);

	/* Section 19.11: Maximum Streams cannot exceed 2^60. */
	KUNIT_EXPECT_EQ(test, quic_stream_set_local_max_streams(t, false, 1ULL << 60), 1);
	KUNIT_EXPECT_EQ(test, quic_stream_set_local_max_streams(t, false, (1ULL << 60) + 1),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(-EBADMSG),
			(u32)QUIC_TRANSPORT_ERROR_FRAME_ENCODING);
}

static void stream_peer_open_past_limit_is_stream_limit(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, false);
	struct quic_stream *s;

	/* The client allows the server 3 unidirectional streams: 3, 7, 11. */
	set_limits(test, t, false, 0, 3, 0);
	s = quic_stream_recv_get(t, 11, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));

	/* Section 4.6: a stream ID beyond the limit is STREAM_LIMIT_ERROR. */
	s = quic_stream_recv_get(t, 15, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EDQUOT);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(PTR_ERR(s)),
			(u32)QUIC_TRANSPORT_ERROR_STREAM_LIMIT);
	/* The same through MAX_STREAM_DATA on a bidirectional one (limit 0). */
	s = quic_stream_feedback_get(t, 1, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EDQUOT);
	KUNIT_EXPECT_EQ(test, t->count, 3U);
}

static void stream_peer_open_opens_lower_ids(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, true);
	struct quic_stream *s;
	s64 id;

	/* Section 3.2: before stream 12 (client bidi #3) is created, 0, 4
	 * and 8 must be.
	 */
	s = quic_stream_recv_get(t, 12, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_EQ(test, s->id, 12LL);
	KUNIT_EXPECT_EQ(test, t->count, 4U);
	for (id = 0; id <= 12; id += 4) {
		s = quic_stream_find(t, id);
		KUNIT_ASSERT_NOT_NULL_MSG(test, s, "stream %lld", id);
		KUNIT_EXPECT_EQ(test, s->recv.state, QUIC_STREAM_RECV_STATE_RECV);
		KUNIT_EXPECT_EQ(test, s->send.state, QUIC_STREAM_SEND_STATE_READY);
	}
	/* Other types are untouched. */
	KUNIT_EXPECT_NULL(test, quic_stream_find(t, 2));
	KUNIT_EXPECT_NULL(test, quic_stream_find(t, 1));
	/* Asking again returns the same stream, opening nothing. */
	KUNIT_EXPECT_PTR_EQ(test, quic_stream_recv_get(t, 4, GFP_KERNEL), quic_stream_find(t, 4));
	KUNIT_EXPECT_EQ(test, t->count, 4U);
}

static void stream_local_open_opens_lower_ids(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);
	struct quic_stream *s;

	s = quic_stream_send_get(t, 10, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	/* Client uni streams 2, 6 and 10; send-only, no receiving part. */
	KUNIT_EXPECT_EQ(test, t->count, 3U);
	KUNIT_EXPECT_NOT_NULL(test, quic_stream_find(t, 2));
	KUNIT_EXPECT_NOT_NULL(test, quic_stream_find(t, 6));
	KUNIT_EXPECT_EQ(test, s->recv.state, QUIC_STREAM_STATE_NONE);
	KUNIT_EXPECT_EQ(test, quic_stream_next_local_id(t, true), 14LL);
	/* A peer stream cannot be opened from our side. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 1, GFP_KERNEL)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 3, GFP_KERNEL)), -EINVAL);
}

static void stream_unopened_local_stream_is_state_error(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);
	struct quic_stream *s;

	/* Sections 19.8 and 19.10: STREAM or MAX_STREAM_DATA for a stream
	 * of ours not created yet is STREAM_STATE_ERROR.
	 */
	s = quic_stream_recv_get(t, 0, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EPROTO);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(PTR_ERR(s)),
			(u32)QUIC_TRANSPORT_ERROR_STREAM_STATE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_feedback_get(t, 4, GFP_KERNEL)), -EPROTO);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_feedback_get(t, 2, GFP_KERNEL)), -EPROTO);
	KUNIT_EXPECT_EQ(test, t->count, 0U);

	/* Once we opened 0, the peer may use it. */
	KUNIT_ASSERT_FALSE(test, IS_ERR(quic_stream_send_get(t, 0, GFP_KERNEL)));
	KUNIT_EXPECT_PTR_EQ(test, quic_stream_recv_get(t, 0, GFP_KERNEL), quic_stream_find(t, 0));
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_recv_get(t, 4, GFP_KERNEL)), -EPROTO);
}

static void stream_wrong_direction_is_state_error(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);

	KUNIT_ASSERT_FALSE(test, IS_ERR(quic_stream_send_get(t, 2, GFP_KERNEL)));
	/* Section 19.8: STREAM for a send-only stream (our uni 2). */
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_recv_get(t, 2, GFP_KERNEL)), -EPROTO);
	/* Section 19.5: STOP_SENDING for a receive-only stream (peer uni 3). */
	KUNIT_ASSERT_FALSE(test, IS_ERR(quic_stream_recv_get(t, 3, GFP_KERNEL)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_feedback_get(t, 3, GFP_KERNEL)), -EPROTO);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_feedback_get(t, 7, GFP_KERNEL)), -EPROTO);
}

static void stream_feedback_opens_peer_bidi_stream(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);
	struct quic_stream *s;

	/* Section 3.2: MAX_STREAM_DATA for an unopened peer bidirectional
	 * stream opens it.
	 */
	s = quic_stream_feedback_get(t, 5, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_EQ(test, s->id, 5LL);
	KUNIT_EXPECT_NOT_NULL(test, quic_stream_find(t, 1));
	KUNIT_EXPECT_EQ(test, t->count, 2U);
}

static void stream_frames_for_released_streams_are_ignored(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);
	struct quic_stream *s;

	s = quic_stream_send_get(t, 0, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	quic_stream_release(t, s);
	s = quic_stream_recv_get(t, 1, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	quic_stream_release(t, s);

	/* Late frames for closed streams are no error; IDs are not reused. */
	s = quic_stream_recv_get(t, 0, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -ENOENT);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(PTR_ERR(s)),
			(u32)QUIC_TRANSPORT_ERROR_NONE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_recv_get(t, 1, GFP_KERNEL)), -ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 0, GFP_KERNEL)), -ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 1, GFP_KERNEL)), -ENOENT);
	KUNIT_EXPECT_EQ(test, t->count, 0U);
}

static void stream_released_peer_streams_return_credit(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, true);
	u64 max = 0;

	set_limits(test, t, false, 2, 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(quic_stream_recv_get(t, 4, GFP_KERNEL)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_recv_get(t, 8, GFP_KERNEL)), -EDQUOT);
	KUNIT_EXPECT_FALSE(test, quic_stream_peer_max_streams_update(t, false, &max));

	/* Two closed: the limit becomes 4 so two more may open (Section 4.6). */
	quic_stream_release(t, quic_stream_find(t, 0));
	quic_stream_release(t, quic_stream_find(t, 4));
	KUNIT_EXPECT_TRUE(test, quic_stream_peer_max_streams_update(t, false, &max));
	KUNIT_EXPECT_EQ(test, max, 4ULL);
	KUNIT_EXPECT_FALSE(test, quic_stream_peer_max_streams_update(t, false, &max));
	KUNIT_EXPECT_FALSE(test, quic_stream_peer_max_streams_update(t, true, &max));
	KUNIT_EXPECT_FALSE(test, IS_ERR(quic_stream_recv_get(t, 12, GFP_KERNEL)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_recv_get(t, 16, GFP_KERNEL)), -EDQUOT);
}

/* Figure 2 of RFC 9000 Section 3.1, transcribed: from -> to arrows. */
static const u8 send_arrows[][2] = {
	{ QUIC_STREAM_SEND_STATE_READY, QUIC_STREAM_SEND_STATE_SEND },
	{ QUIC_STREAM_SEND_STATE_READY, QUIC_STREAM_SEND_STATE_RESET_SENT },
	{ QUIC_STREAM_SEND_STATE_SEND, QUIC_STREAM_SEND_STATE_SENT },
	{ QUIC_STREAM_SEND_STATE_SEND, QUIC_STREAM_SEND_STATE_RESET_SENT },
	{ QUIC_STREAM_SEND_STATE_SENT, QUIC_STREAM_SEND_STATE_RECVD },
	{ QUIC_STREAM_SEND_STATE_SENT, QUIC_STREAM_SEND_STATE_RESET_SENT },
	{ QUIC_STREAM_SEND_STATE_RESET_SENT, QUIC_STREAM_SEND_STATE_RESET_RECVD },
};

/*
 * The streams the peer opens are memory we hold for it: opening a stream
 * opens every lower one of its type (RFC 9000 Section 3.2), and all of
 * them must fit the table's memory bound or none is opened (-ENOBUFS: the
 * packet is dropped and sent again later). Released streams free room.
 */
static void stream_peer_opened_streams_are_charged(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, true);
	const u64 one = sizeof(struct quic_stream);
	struct quic_stream *s;

	quic_stream_set_peer_mem_limit(t, 3 * one);
	/* Client streams 0, 4, 8, 12 would be four: refused, nothing opened. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_recv_get(t, 12, GFP_KERNEL)), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, t->count, 0);
	KUNIT_EXPECT_EQ(test, t->peer_mem, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_feedback_get(t, 12, GFP_KERNEL)), -ENOBUFS);

	s = quic_stream_recv_get(t, 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_EXPECT_EQ(test, t->peer_mem, 3 * one);
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_recv_get(t, 2, GFP_KERNEL)), -ENOBUFS);

	/* Our own streams are the application's, not charged here. */
	KUNIT_EXPECT_FALSE(test, IS_ERR(quic_stream_send_get(t, 1, GFP_KERNEL)));
	KUNIT_EXPECT_EQ(test, t->peer_mem, 3 * one);

	quic_stream_release(t, quic_stream_find(t, 0));
	KUNIT_EXPECT_EQ(test, t->peer_mem, 2 * one);
	KUNIT_EXPECT_FALSE(test, IS_ERR(quic_stream_recv_get(t, 2, GFP_KERNEL)));
	KUNIT_EXPECT_EQ(test, t->peer_mem, 3 * one);
}

/* RFC 9000 Section 4.6: STREAMS_BLOCKED is due once per peer limit, per type. */
static void stream_blocked_once_per_limit(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, false);
	u64 max = 99;

	set_limits(test, t, true, 1, 0, 1000);
	KUNIT_EXPECT_FALSE(test, IS_ERR(quic_stream_send_get(t, 0, GFP_KERNEL)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 4, GFP_KERNEL)), -EAGAIN);
	KUNIT_EXPECT_TRUE(test, quic_stream_local_blocked(t, false, &max));
	KUNIT_EXPECT_EQ(test, max, 1);
	KUNIT_EXPECT_FALSE(test, quic_stream_local_blocked(t, false, &max));
	/* Unidirectional streams have a limit of their own: 0. */
	KUNIT_EXPECT_TRUE(test, quic_stream_local_blocked(t, true, &max));
	KUNIT_EXPECT_EQ(test, max, 0);

	KUNIT_EXPECT_EQ(test, quic_stream_set_local_max_streams(t, false, 2), 1);
	KUNIT_EXPECT_FALSE(test, IS_ERR(quic_stream_send_get(t, 4, GFP_KERNEL)));
	KUNIT_EXPECT_TRUE(test, quic_stream_local_blocked(t, false, &max));
	KUNIT_EXPECT_EQ(test, max, 2);
}

/* Figure 3 of RFC 9000 Section 3.2, with both "(optional)" arrows. */
static const u8 recv_arrows[][2] = {
	{ QUIC_STREAM_RECV_STATE_RECV, QUIC_STREAM_RECV_STATE_SIZE_KNOWN },
	{ QUIC_STREAM_RECV_STATE_RECV, QUIC_STREAM_RECV_STATE_RESET_RECVD },
	{ QUIC_STREAM_RECV_STATE_SIZE_KNOWN, QUIC_STREAM_RECV_STATE_RECVD },
	{ QUIC_STREAM_RECV_STATE_SIZE_KNOWN, QUIC_STREAM_RECV_STATE_RESET_RECVD },
	{ QUIC_STREAM_RECV_STATE_RECVD, QUIC_STREAM_RECV_STATE_READ },
	{ QUIC_STREAM_RECV_STATE_RECVD, QUIC_STREAM_RECV_STATE_RESET_RECVD },
	{ QUIC_STREAM_RECV_STATE_RESET_RECVD, QUIC_STREAM_RECV_STATE_RESET_READ },
	{ QUIC_STREAM_RECV_STATE_RESET_RECVD, QUIC_STREAM_RECV_STATE_RECVD },
};

static bool is_arrow(const u8 (*arrows)[2], int n, u8 from, u8 to)
{
	int i;

	for (i = 0; i < n; i++)
		if (arrows[i][0] == from && arrows[i][1] == to)
			return true;
	return false;
}

static void stream_send_transitions_match_figure_2(struct kunit *test)
{
	struct quic_stream *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	u8 from, to;
	int want;

	KUNIT_ASSERT_NOT_NULL(test, s);
	/* Every pair of distinct states: legal exactly when an arrow exists. */
	for (from = QUIC_STREAM_SEND_STATE_READY; from <= QUIC_STREAM_SEND_STATE_RESET_RECVD;
	     from++) {
		for (to = QUIC_STREAM_SEND_STATE_READY; to <= QUIC_STREAM_SEND_STATE_RESET_RECVD;
		     to++) {
			if (from == to)
				continue;
			s->send.state = from;
			want = is_arrow(send_arrows, ARRAY_SIZE(send_arrows), from, to) ?
			       0 : -EINVAL;
			KUNIT_EXPECT_EQ_MSG(test, quic_stream_send_set_state(s, to), want,
					    "%u -> %u", from, to);
			KUNIT_EXPECT_EQ(test, s->send.state, want ? from : to);
		}
	}
	/* A receiving state is not a sending one; no part, no state. */
	s->send.state = QUIC_STREAM_SEND_STATE_READY;
	KUNIT_EXPECT_EQ(test, quic_stream_send_set_state(s, QUIC_STREAM_RECV_STATE_RECV), -EINVAL);
	s->send.state = QUIC_STREAM_STATE_NONE;
	KUNIT_EXPECT_EQ(test, quic_stream_send_set_state(s, QUIC_STREAM_SEND_STATE_SEND), -EINVAL);
}

static void stream_recv_transitions_match_figure_3(struct kunit *test)
{
	struct quic_stream *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	u8 from, to;
	int want;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for (from = QUIC_STREAM_RECV_STATE_RECV; from <= QUIC_STREAM_RECV_STATE_RESET_READ;
	     from++) {
		for (to = QUIC_STREAM_RECV_STATE_RECV; to <= QUIC_STREAM_RECV_STATE_RESET_READ;
		     to++) {
			if (from == to)
				continue;
			s->recv.state = from;
			want = is_arrow(recv_arrows, ARRAY_SIZE(recv_arrows), from, to) ?
			       0 : -EINVAL;
			KUNIT_EXPECT_EQ_MSG(test, quic_stream_recv_set_state(s, to), want,
					    "%u -> %u", from, to);
			KUNIT_EXPECT_EQ(test, s->recv.state, want ? from : to);
		}
	}
	s->recv.state = QUIC_STREAM_RECV_STATE_RECV;
	KUNIT_EXPECT_EQ(test, quic_stream_recv_set_state(s, QUIC_STREAM_SEND_STATE_SEND), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_stream_recv_set_state(s, QUIC_STREAM_RECV_STATE_RECV), 0);
}

static void stream_send_part_lifecycle(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);
	struct quic_stream *s, *r;

	s = quic_stream_send_get(t, 0, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_EQ(test, s->send.state, QUIC_STREAM_SEND_STATE_READY);

	/* Ready -> Send -> Data Sent (FIN) -> Data Recvd. */
	KUNIT_EXPECT_EQ(test, quic_stream_send_data(s, 100, false), 0);
	KUNIT_EXPECT_EQ(test, s->send.state, QUIC_STREAM_SEND_STATE_SEND);
	KUNIT_EXPECT_EQ(test, quic_stream_send_data(s, 0, true), 0);
	KUNIT_EXPECT_EQ(test, s->send.state, QUIC_STREAM_SEND_STATE_SENT);
	/* Section 4.5: nothing may be sent at or beyond the final size. */
	KUNIT_EXPECT_EQ(test, quic_stream_send_data(s, 1, false), -EPIPE);
	KUNIT_EXPECT_EQ(test, quic_stream_send_set_state(s, QUIC_STREAM_SEND_STATE_RECVD), 0);
	KUNIT_EXPECT_EQ(test, quic_stream_send_reset(s, 7), -EALREADY);
	KUNIT_EXPECT_EQ(test, s->send.bytes, 100ULL);

	/* Ready -> Reset Sent straight away (Section 3.1), then Reset Recvd. */
	r = quic_stream_send_get(t, 4, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(r));
	KUNIT_EXPECT_EQ(test, quic_stream_send_reset(r, 7), 0);
	KUNIT_EXPECT_EQ(test, r->send.state, QUIC_STREAM_SEND_STATE_RESET_SENT);
	KUNIT_EXPECT_EQ(test, r->send.errcode, 7U);
	KUNIT_EXPECT_EQ(test, quic_stream_send_data(r, 1, false), -EPIPE);
	KUNIT_EXPECT_EQ(test, quic_stream_send_reset(r, 8), -EALREADY);
	KUNIT_EXPECT_EQ(test, quic_stream_send_set_state(r, QUIC_STREAM_SEND_STATE_RESET_RECVD), 0);
}

static void stream_done_when_both_parts_terminal(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);
	struct quic_stream *s, *u;

	s = quic_stream_send_get(t, 0, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_ASSERT_EQ(test, quic_stream_send_data(s, 0, true), 0);
	KUNIT_ASSERT_EQ(test, quic_stream_send_set_state(s, QUIC_STREAM_SEND_STATE_RECVD), 0);
	KUNIT_EXPECT_FALSE(test, quic_stream_is_done(s));
	KUNIT_ASSERT_EQ(test, quic_stream_recv_data(s, 0, 5, true), 0);
	KUNIT_ASSERT_EQ(test, quic_stream_recv_set_state(s, QUIC_STREAM_RECV_STATE_RECVD), 0);
	KUNIT_EXPECT_FALSE(test, quic_stream_is_done(s));
	KUNIT_ASSERT_EQ(test, quic_stream_recv_set_state(s, QUIC_STREAM_RECV_STATE_READ), 0);
	KUNIT_EXPECT_TRUE(test, quic_stream_is_done(s));

	/* A peer unidirectional stream has only a receiving part. */
	u = quic_stream_recv_get(t, 3, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(u));
	KUNIT_ASSERT_EQ(test, quic_stream_recv_reset(u, 0, 1), 0);
	KUNIT_ASSERT_EQ(test, quic_stream_recv_set_state(u, QUIC_STREAM_RECV_STATE_RESET_READ), 0);
	KUNIT_EXPECT_TRUE(test, quic_stream_is_done(u));
	KUNIT_EXPECT_EQ(test, quic_stream_send_data(u, 1, false), -EINVAL);
}

/* A sequence of frames on one peer stream (flow control limit 1000); all
 * steps but the last succeed, the last returns @err.
 */
struct fs_step {
	bool reset;
	u64 offset, len;	/* for a reset, offset is the Final Size */
	bool fin;
};

struct fs_vector {
	const char *desc;
	struct fs_step steps[3];
	int nsteps;
	int err;
	u32 code;
};

static const struct fs_vector fs_vectors[] = {
	{ "RFC 9000 4.5 data beyond FIN", { { false, 0, 100, true }, { false, 100, 1, false } },
	  2, -EFBIG, QUIC_TRANSPORT_ERROR_FINAL_SIZE },
	{ "RFC 9000 4.5 second FIN lower", { { false, 0, 100, true }, { false, 50, 40, true } },
	  2, -EFBIG, QUIC_TRANSPORT_ERROR_FINAL_SIZE },
	{ "RFC 9000 4.5 FIN below data", { { false, 100, 100, false }, { false, 0, 150, true } },
	  2, -EFBIG, QUIC_TRANSPORT_ERROR_FINAL_SIZE },
	{ "RFC 9000 4.5 reset other size", { { false, 0, 100, true }, { true, 120, 0, false } },
	  2, -EFBIG, QUIC_TRANSPORT_ERROR_FINAL_SIZE },
	{ "RFC 9000 4.5 data after reset", { { true, 50, 0, false }, { false, 40, 20, false } },
	  2, -EFBIG, QUIC_TRANSPORT_ERROR_FINAL_SIZE },
	{ "RFC 9000 4.5 second reset", { { true, 50, 0, false }, { true, 60, 0, false } },
	  2, -EFBIG, QUIC_TRANSPORT_ERROR_FINAL_SIZE },
	{ "RFC 9000 4.5 reset below data", { { false, 0, 80, false }, { true, 70, 0, false } },
	  2, -EFBIG, QUIC_TRANSPORT_ERROR_FINAL_SIZE },
	{ "RFC 9000 4.5 retransmit to FIN",
	  { { false, 0, 100, true }, { false, 0, 100, true }, { false, 20, 30, false } },
	  3, 0, QUIC_TRANSPORT_ERROR_NONE },
	{ "RFC 9000 4.5 reset at FIN", { { false, 0, 100, true }, { true, 100, 0, false } },
	  2, 0, QUIC_TRANSPORT_ERROR_NONE },
	{ "RFC 9000 4.1 data past limit", { { false, 990, 11, false } },
	  1, -EOVERFLOW, QUIC_TRANSPORT_ERROR_FLOW_CONTROL },
	{ "RFC 9000 4.1 reset past limit", { { true, 1001, 0, false } },
	  1, -EOVERFLOW, QUIC_TRANSPORT_ERROR_FLOW_CONTROL },
	{ "RFC 9000 19.8 offset past 2^62-1", { { false, (1ULL << 62) - 1, 1, false } },
	  1, -EOVERFLOW, QUIC_TRANSPORT_ERROR_FLOW_CONTROL },
	{ "RFC 9000 4.1 data up to limit", { { false, 990, 10, true } },
	  1, 0, QUIC_TRANSPORT_ERROR_NONE },
};

KUNIT_ARRAY_PARAM_DESC(fs_vectors, fs_vectors, desc);

static int fs_apply(struct quic_stream *s, const struct fs_step *st)
{
	if (st->reset)
		return quic_stream_recv_reset(s, st->offset, 9);
	return quic_stream_recv_data(s, st->offset, st->len, st->fin);
}

static void stream_final_size_and_flow_control(struct kunit *test)
{
	const struct fs_vector *v = test->param_value;
	struct quic_stream_table *t = table_open(test, false);
	struct quic_stream *s;
	int i, err;

	s = quic_stream_recv_get(t, 1, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_ASSERT_EQ(test, s->recv.max_bytes, 1000ULL);

	for (i = 0; i < v->nsteps - 1; i++)
		KUNIT_ASSERT_EQ_MSG(test, fs_apply(s, &v->steps[i]), 0, "step %d", i);
	err = fs_apply(s, &v->steps[i]);
	KUNIT_EXPECT_EQ(test, err, v->err);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(err), v->code);
}

static void stream_recv_reset_states_and_credit(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);
	struct quic_stream *s;

	s = quic_stream_recv_get(t, 1, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_ASSERT_EQ(test, quic_stream_recv_data(s, 0, 30, false), 0);
	KUNIT_EXPECT_EQ(test, s->recv.highest, 30ULL);

	/* Recv -> Reset Recvd; all credit up to the final size is used. */
	KUNIT_EXPECT_EQ(test, quic_stream_recv_reset(s, 70, 5), 0);
	KUNIT_EXPECT_EQ(test, s->recv.state, QUIC_STREAM_RECV_STATE_RESET_RECVD);
	KUNIT_EXPECT_EQ(test, s->recv.highest, 70ULL);
	KUNIT_EXPECT_EQ(test, s->recv.finalsz, 70ULL);
	KUNIT_EXPECT_EQ(test, s->recv.errcode, 5U);
	/* Repeated RESET_STREAM: accepted, nothing changes. */
	KUNIT_EXPECT_EQ(test, quic_stream_recv_reset(s, 70, 6), 0);
	KUNIT_EXPECT_EQ(test, s->recv.errcode, 5U);

	/* In Data Recvd the reset is not signalled (Section 3.2). */
	s = quic_stream_recv_get(t, 5, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_ASSERT_EQ(test, quic_stream_recv_data(s, 0, 10, true), 0);
	KUNIT_ASSERT_EQ(test, quic_stream_recv_set_state(s, QUIC_STREAM_RECV_STATE_RECVD), 0);
	KUNIT_EXPECT_EQ(test, quic_stream_recv_reset(s, 10, 5), 0);
	KUNIT_EXPECT_EQ(test, s->recv.state, QUIC_STREAM_RECV_STATE_RECVD);
}

static void stream_params_set_initial_limits(struct kunit *test)
{
	struct quic_transport_param ours = {
		.max_stream_data_bidi_local = 100, .max_stream_data_bidi_remote = 200,
		.max_stream_data_uni = 300, .max_streams_bidi = 10, .max_streams_uni = 11,
	};
	struct quic_transport_param theirs = {
		.remote = 1, .max_stream_data_bidi_local = 1000,
		.max_stream_data_bidi_remote = 2000, .max_stream_data_uni = 3000,
		.max_streams_bidi = 12, .max_streams_uni = 13,
	};
	struct quic_stream_table *t = table_new(test, false);
	struct quic_transport_param got = {};
	struct quic_stream *s;

	KUNIT_ASSERT_EQ(test, quic_stream_set_param(t, &ours), 0);
	KUNIT_ASSERT_EQ(test, quic_stream_set_param(t, &theirs), 0);

	/* Section 18.2 (we are the client):
	 * - our bidi stream 0: we send up to their bidi_remote, they up to our bidi_local;
	 * - our uni stream 2: we send up to their uni;
	 * - their bidi stream 1: we send up to their bidi_local, they up to our bidi_remote;
	 * - their uni stream 3: they send up to our uni.
	 */
	s = quic_stream_send_get(t, 0, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_EQ(test, s->send.max_bytes, 2000ULL);
	KUNIT_EXPECT_EQ(test, s->recv.max_bytes, 100ULL);
	s = quic_stream_send_get(t, 2, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_EQ(test, s->send.max_bytes, 3000ULL);
	s = quic_stream_recv_get(t, 1, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_EQ(test, s->send.max_bytes, 1000ULL);
	KUNIT_EXPECT_EQ(test, s->recv.max_bytes, 200ULL);
	s = quic_stream_recv_get(t, 3, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_EQ(test, s->recv.max_bytes, 300ULL);

	/* Stream counts: ours limit the peer, theirs limit us. */
	KUNIT_EXPECT_EQ(test, t->peer.max_streams[QUIC_STREAM_BIDI], 10ULL);
	KUNIT_EXPECT_EQ(test, t->peer.max_streams[QUIC_STREAM_UNI], 11ULL);
	KUNIT_EXPECT_EQ(test, t->local.max_streams[QUIC_STREAM_BIDI], 12ULL);
	KUNIT_EXPECT_EQ(test, t->local.max_streams[QUIC_STREAM_UNI], 13ULL);

	got.remote = 1;
	quic_stream_get_param(t, &got);
	KUNIT_EXPECT_MEMEQ(test, &got, &theirs, sizeof(got));
	memset(&got, 0, sizeof(got));
	quic_stream_get_param(t, &got);
	KUNIT_EXPECT_MEMEQ(test, &got, &ours, sizeof(got));
}

static void stream_params_reject_unencodable_limits(struct kunit *test)
{
	struct quic_transport_param p = { .max_stream_data_uni = 1ULL << 62 };
	struct quic_stream_table *t = table_new(test, false);

	KUNIT_EXPECT_EQ(test, quic_stream_set_param(t, &p), -EINVAL);
	p.max_stream_data_uni = (1ULL << 62) - 1;
	KUNIT_EXPECT_EQ(test, quic_stream_set_param(t, &p), 0);
}

static void stream_send_flow_control(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);
	struct quic_stream *s;

	s = quic_stream_send_get(t, 0, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_EQ(test, quic_stream_send_credit(s), 1000ULL);
	KUNIT_EXPECT_EQ(test, quic_stream_send_data(s, 600, false), 0);
	KUNIT_EXPECT_EQ(test, quic_stream_send_credit(s), 400ULL);
	/* Over the limit: blocked, nothing accounted. */
	KUNIT_EXPECT_EQ(test, quic_stream_send_data(s, 401, false), -EAGAIN);
	KUNIT_EXPECT_EQ(test, s->send.bytes, 600ULL);

	/* Section 4.1: MAX_STREAM_DATA that does not increase is ignored. */
	KUNIT_EXPECT_FALSE(test, quic_stream_send_max_data(s, 900));
	KUNIT_EXPECT_FALSE(test, quic_stream_send_max_data(s, 1000));
	KUNIT_EXPECT_TRUE(test, quic_stream_send_max_data(s, 1500));
	KUNIT_EXPECT_EQ(test, quic_stream_send_credit(s), 900ULL);
	KUNIT_EXPECT_EQ(test, quic_stream_send_data(s, 900, true), 0);
	KUNIT_EXPECT_EQ(test, quic_stream_send_credit(s), 0ULL);
}

static void stream_reading_raises_receive_limit(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);
	struct quic_stream *s;

	s = quic_stream_recv_get(t, 1, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_ASSERT_EQ(test, quic_stream_recv_data(s, 0, 700, false), 0);

	/* Window 1000: 1000 - 400 = 600 left, at least half: no update. */
	KUNIT_EXPECT_EQ(test, quic_stream_recv_consume(s, 400), 0);
	/* 1000 - 600 = 400 left, under half: limit 600 + 1000 = 1600. */
	KUNIT_EXPECT_EQ(test, quic_stream_recv_consume(s, 200), 1);
	KUNIT_EXPECT_EQ(test, s->recv.max_bytes, 1600ULL);
	/* Only 100 more bytes were received. */
	KUNIT_EXPECT_EQ(test, quic_stream_recv_consume(s, 101), -EINVAL);
	KUNIT_EXPECT_EQ(test, s->recv.offset, 600ULL);

	/* Section 3.3: no MAX_STREAM_DATA once the final size is known. */
	KUNIT_ASSERT_EQ(test, quic_stream_recv_data(s, 700, 300, true), 0);
	KUNIT_EXPECT_EQ(test, quic_stream_recv_consume(s, 400), 0);
	KUNIT_EXPECT_EQ(test, s->recv.max_bytes, 1600ULL);
}

static void stream_lookup_after_many_opens_and_closes(struct kunit *test)
{
	struct quic_stream_table *t = table_new(test, true);
	struct quic_stream *s;
	s64 id;

	set_limits(test, t, true, 1000, 0, 0);
	set_limits(test, t, false, 0, 1000, 0);
	/* 1000 server bidi streams (1, 5, ..., 3997), 1000 client uni
	 * (2, 6, ..., 3998) opened implicitly by the last one.
	 */
	KUNIT_ASSERT_FALSE(test, IS_ERR(quic_stream_send_get(t, 3997, GFP_KERNEL)));
	KUNIT_ASSERT_FALSE(test, IS_ERR(quic_stream_recv_get(t, 3998, GFP_KERNEL)));
	KUNIT_ASSERT_EQ(test, t->count, 2000U);

	/* Close every other one of each type. */
	for (id = 1; id <= 3997; id += 8)
		quic_stream_release(t, quic_stream_find(t, id));
	for (id = 2; id <= 3998; id += 8)
		quic_stream_release(t, quic_stream_find(t, id));
	KUNIT_EXPECT_EQ(test, t->count, 1000U);

	for (id = 0; id < 4000; id++) {
		s = quic_stream_find(t, id);
		if ((id & 3) == 0 || (id & 3) == 3 || (id % 8) == 1 || (id % 8) == 2) {
			KUNIT_EXPECT_NULL_MSG(test, s, "stream %lld", id);
			continue;
		}
		KUNIT_ASSERT_NOT_NULL_MSG(test, s, "stream %lld", id);
		KUNIT_EXPECT_EQ(test, s->id, id);
	}
	KUNIT_EXPECT_EQ(test, PTR_ERR(quic_stream_send_get(t, 4001, GFP_KERNEL)), -EAGAIN);
}

static void stream_free_releases_everything(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, false);

	KUNIT_ASSERT_FALSE(test, IS_ERR(quic_stream_send_get(t, 396, GFP_KERNEL)));
	KUNIT_ASSERT_FALSE(test, IS_ERR(quic_stream_send_get(t, 398, GFP_KERNEL)));
	KUNIT_ASSERT_FALSE(test, IS_ERR(quic_stream_recv_get(t, 397, GFP_KERNEL)));
	KUNIT_ASSERT_FALSE(test, IS_ERR(quic_stream_recv_get(t, 399, GFP_KERNEL)));
	KUNIT_EXPECT_EQ(test, t->count, 400U);

	/* KASAN flags any stream touched after this; the cleanup action
	 * frees the table a second time, which must be harmless.
	 */
	quic_stream_table_free(t);
	KUNIT_EXPECT_EQ(test, t->count, 0U);
	KUNIT_EXPECT_NULL(test, t->hash);
}

static void stream_errors_map_to_transport_codes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(0), (u32)QUIC_TRANSPORT_ERROR_NONE);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(-EDQUOT),
			(u32)QUIC_TRANSPORT_ERROR_STREAM_LIMIT);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(-EPROTO),
			(u32)QUIC_TRANSPORT_ERROR_STREAM_STATE);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(-EFBIG),
			(u32)QUIC_TRANSPORT_ERROR_FINAL_SIZE);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(-EOVERFLOW),
			(u32)QUIC_TRANSPORT_ERROR_FLOW_CONTROL);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(-ENOMEM),
			(u32)QUIC_TRANSPORT_ERROR_INTERNAL);
	KUNIT_EXPECT_EQ(test, quic_stream_transport_error(-EINVAL),
			(u32)QUIC_TRANSPORT_ERROR_INTERNAL);
}

/* CONFIG_IP_QUIC_DEBUG_INVARIANTS: a receiving part's flow control is
 * checked (read <= received <= our limit, within the final size); each
 * kind of drift is named, a right table passes.
 */
static void stream_invariant_names_flow_control_drift(struct kunit *test)
{
	struct quic_stream_table *t = table_open(test, true);
	struct quic_stream *s;

	if (!IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS))
		kunit_skip(test, "CONFIG_IP_QUIC_DEBUG_INVARIANTS is off");
	s = quic_stream_recv_get(t, 0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_EQ(test, quic_stream_recv_data(s, 0, 100, false), 0);
	KUNIT_ASSERT_EQ(test, quic_stream_recv_consume(s, 40), 0);
	KUNIT_EXPECT_NULL(test, quic_stream_invariant(t));

	s->recv.offset = 101;
	KUNIT_EXPECT_NOT_NULL(test, quic_stream_invariant(t));
	s->recv.offset = 40;
	s->recv.highest = s->recv.max_bytes + 1;
	KUNIT_EXPECT_NOT_NULL(test, quic_stream_invariant(t));
	s->recv.highest = 100;
	KUNIT_ASSERT_EQ(test, quic_stream_recv_data(s, 100, 0, true), 0);
	KUNIT_EXPECT_NULL(test, quic_stream_invariant(t));
	s->recv.finalsz = 99;
	KUNIT_EXPECT_NOT_NULL(test, quic_stream_invariant(t));
}

static struct kunit_case stream_cases[] = {
	KUNIT_CASE_PARAM(stream_id_types_from_both_roles, id_vectors_gen_params),
	KUNIT_CASE(stream_id_range_is_62_bits),
	KUNIT_CASE(stream_invariant_names_flow_control_drift),
	KUNIT_CASE(stream_first_ids_follow_role),
	KUNIT_CASE(stream_limits_default_to_zero),
	KUNIT_CASE(stream_local_open_waits_for_peer_limit),
	KUNIT_CASE(stream_max_streams_above_2_60_rejected),
	KUNIT_CASE(stream_peer_open_past_limit_is_stream_limit),
	KUNIT_CASE(stream_peer_open_opens_lower_ids),
	KUNIT_CASE(stream_local_open_opens_lower_ids),
	KUNIT_CASE(stream_unopened_local_stream_is_state_error),
	KUNIT_CASE(stream_wrong_direction_is_state_error),
	KUNIT_CASE(stream_feedback_opens_peer_bidi_stream),
	KUNIT_CASE(stream_frames_for_released_streams_are_ignored),
	KUNIT_CASE(stream_released_peer_streams_return_credit),
	KUNIT_CASE(stream_peer_opened_streams_are_charged),
	KUNIT_CASE(stream_blocked_once_per_limit),
	KUNIT_CASE(stream_send_transitions_match_figure_2),
	KUNIT_CASE(stream_recv_transitions_match_figure_3),
	KUNIT_CASE(stream_send_part_lifecycle),
	KUNIT_CASE(stream_done_when_both_parts_terminal),
	KUNIT_CASE_PARAM(stream_final_size_and_flow_control, fs_vectors_gen_params),
	KUNIT_CASE(stream_recv_reset_states_and_credit),
	KUNIT_CASE(stream_params_set_initial_limits),
	KUNIT_CASE(stream_params_reject_unencodable_limits),
	KUNIT_CASE(stream_send_flow_control),
	KUNIT_CASE(stream_reading_raises_receive_limit),
	KUNIT_CASE(stream_lookup_after_many_opens_and_closes),
	KUNIT_CASE(stream_free_releases_everything),
	KUNIT_CASE(stream_errors_map_to_transport_codes),
	{}
};

static struct kunit_suite stream_suite = {
	.name = "quic_stream",
	.test_cases = stream_cases,
};

kunit_test_suite(stream_suite);
