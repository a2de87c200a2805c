// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC streams: the per-connection stream table, stream count limits and
 * implicit opening (RFC 9000 Sections 2.1 and 4.6), the sending and
 * receiving state machines (Section 3) and stream-level flow control with
 * the final size rules (Sections 4.1 and 4.5).
 *
 * Connection-level flow control is left to the caller: the credit a
 * STREAM or RESET_STREAM frame consumes is the growth of recv.highest
 * across quic_stream_recv_data() or quic_stream_recv_reset().
 */

#include <linux/hash.h>
#include <linux/slab.h>

#include "stream.h"

static u8 quic_stream_dir(s64 id)
{
	return quic_stream_id_uni(id) ? QUIC_STREAM_UNI : QUIC_STREAM_BIDI;
}

static struct hlist_head *quic_stream_bucket(const struct quic_stream_table *t, s64 id)
{
	return &t->hash[hash_64((u64)id, QUIC_STREAM_HT_BITS)];
}

static void quic_stream_limits_init(struct quic_stream_limits *lim, bool server)
{
	s64 type = server ? QUIC_STREAM_TYPE_SERVER_MASK : 0;

	memset(lim, 0, sizeof(*lim));
	lim->next_id[QUIC_STREAM_BIDI] = type;
	lim->next_id[QUIC_STREAM_UNI] = type | QUIC_STREAM_TYPE_UNI_MASK;
}

/**
 * quic_stream_table_init - set up an empty stream table
 * @t: the table
 * @is_serv: the connection's role: true for a server
 * @gfp: allocation flags for the hash buckets
 *
 * Every limit starts at 0 (the transport parameter defaults, RFC 9000
 * Section 18.2) until quic_stream_set_param() is called.
 *
 * Return: 0, or -ENOMEM.
 */
int quic_stream_table_init(struct quic_stream_table *t, bool is_serv, gfp_t gfp)
{
	struct hlist_head *hash;
	u32 i;

	hash = kmalloc_array(1U << QUIC_STREAM_HT_BITS, sizeof(*hash), gfp);
	if (!hash)
		return -ENOMEM;
	for (i = 0; i < 1U << QUIC_STREAM_HT_BITS; i++)
		INIT_HLIST_HEAD(&hash[i]);

	memset(t, 0, sizeof(*t));
	t->hash = hash;
	t->is_serv = is_serv;
	quic_stream_limits_init(&t->local, is_serv);
	quic_stream_limits_init(&t->peer, !is_serv);
	t->peer_mem_limit = U64_MAX;
	t->latest = -1;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_table_init);

/**
 * quic_stream_table_free - free every stream and the table's buckets
 * @t: the table (may be zeroed or already freed)
 */
void quic_stream_table_free(struct quic_stream_table *t)
{
	struct quic_stream *s;
	struct hlist_node *n;
	u32 i;

	if (!t->hash)
		return;
	for (i = 0; i < 1U << QUIC_STREAM_HT_BITS; i++) {
		hlist_for_each_entry_safe(s, n, &t->hash[i], node) {
			hlist_del(&s->node);
			kfree(s);
		}
	}
	kfree(t->hash);
	t->hash = NULL;
	t->count = 0;
	t->peer_mem = 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_table_free);

/**
 * quic_stream_set_param - take transport parameters for streams opened from now on
 * @t: the table
 * @p: ours (@p->remote == 0) or the peer's (@p->remote != 0)
 *
 * Our max_streams_bidi/uni limit the streams the peer opens, the peer's
 * limit ours. The initial_max_stream_data values set the flow control
 * limits of each new stream as RFC 9000 Section 18.2 assigns them; streams
 * already open keep theirs.
 *
 * Return: 0, or -EINVAL when a stream data limit exceeds 2^62 - 1.
 */
int quic_stream_set_param(struct quic_stream_table *t, const struct quic_transport_param *p)
{
	struct quic_stream_params *prm = p->remote ? &t->remote_param : &t->local_param;
	struct quic_stream_limits *lim = p->remote ? &t->local : &t->peer;

	if (p->max_stream_data_bidi_local > QUIC_VARINT_MAX ||
	    p->max_stream_data_bidi_remote > QUIC_VARINT_MAX ||
	    p->max_stream_data_uni > QUIC_VARINT_MAX)
		return -EINVAL;

	prm->max_stream_data_bidi_local = p->max_stream_data_bidi_local;
	prm->max_stream_data_bidi_remote = p->max_stream_data_bidi_remote;
	prm->max_stream_data_uni = p->max_stream_data_uni;
	prm->max_streams_bidi = p->max_streams_bidi;
	prm->max_streams_uni = p->max_streams_uni;

	lim->max_streams[QUIC_STREAM_BIDI] = p->max_streams_bidi;
	lim->max_streams[QUIC_STREAM_UNI] = p->max_streams_uni;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_set_param);

/**
 * quic_stream_raise_send_limits - apply the peer's parameters to open streams
 * @t: the table, with the peer's parameters just set
 *
 * Streams opened before the peer's transport parameters arrived (a server
 * taking 0-RTT data, a client writing with remembered parameters) got
 * their send limits from what was known then. RFC 9000 Section 7.4.1: the
 * values of the handshake replace those, and a limit only grows (Section
 * 4.1); the larger of both is kept.
 *
 * Return: the number of streams whose limit grew.
 */
u32 quic_stream_raise_send_limits(struct quic_stream_table *t)
{
	const struct quic_stream_params *theirs = &t->remote_param;
	struct quic_stream *s;
	u32 i, n = 0;
	u64 max;

	for (i = 0; i < (1U << QUIC_STREAM_HT_BITS); i++) {
		hlist_for_each_entry(s, &t->hash[i], node) {
			if (!quic_stream_id_send(s->id, t->is_serv))
				continue;
			if (quic_stream_id_uni(s->id))
				max = theirs->max_stream_data_uni;
			else if (quic_stream_id_local(s->id, t->is_serv))
				max = theirs->max_stream_data_bidi_remote;
			else
				max = theirs->max_stream_data_bidi_local;
			n += quic_stream_send_max_data(s, max);
		}
	}
	return n;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_raise_send_limits);

/**
 * quic_stream_get_param - read back the stream transport parameters
 * @t: the table
 * @p: @p->remote selects ours (0) or the peer's; the five stream fields are filled
 */
void quic_stream_get_param(const struct quic_stream_table *t, struct quic_transport_param *p)
{
	const struct quic_stream_params *prm = p->remote ? &t->remote_param : &t->local_param;

	p->max_stream_data_bidi_local = prm->max_stream_data_bidi_local;
	p->max_stream_data_bidi_remote = prm->max_stream_data_bidi_remote;
	p->max_stream_data_uni = prm->max_stream_data_uni;
	p->max_streams_bidi = prm->max_streams_bidi;
	p->max_streams_uni = prm->max_streams_uni;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_get_param);

/**
 * quic_stream_find - look a stream up by ID
 * @t: the table
 * @id: stream ID
 *
 * Return: the stream, or NULL when it is not open (never opened, or released).
 */
struct quic_stream *quic_stream_find(const struct quic_stream_table *t, s64 id)
{
	struct quic_stream *s;

	hlist_for_each_entry(s, quic_stream_bucket(t, id), node) {
		if (s->id == id)
			return s;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_find);

/* Allocate a stream with the state and flow control limits of its type. */
static struct quic_stream *quic_stream_create(struct quic_stream_table *t, s64 id, gfp_t gfp)
{
	const struct quic_stream_params *ours = &t->local_param;
	const struct quic_stream_params *theirs = &t->remote_param;
	bool local = quic_stream_id_local(id, t->is_serv);
	struct quic_stream *s;

	s = kzalloc(sizeof(*s), gfp);
	if (!s)
		return NULL;
	s->id = id;
	s->send.state = QUIC_STREAM_STATE_NONE;
	s->recv.state = QUIC_STREAM_STATE_NONE;

	/* RFC 9000 Section 18.2: a bidi_local limit applies to the streams
	 * opened by the endpoint that sent it, bidi_remote and uni to those
	 * opened by the endpoint that received it.
	 */
	if (quic_stream_id_uni(id)) {
		if (local) {
			s->send.state = QUIC_STREAM_SEND_STATE_READY;
			s->send.max_bytes = theirs->max_stream_data_uni;
		} else {
			s->recv.state = QUIC_STREAM_RECV_STATE_RECV;
			s->recv.max_bytes = ours->max_stream_data_uni;
		}
	} else {
		s->send.state = QUIC_STREAM_SEND_STATE_READY;
		s->recv.state = QUIC_STREAM_RECV_STATE_RECV;
		if (local) {
			s->send.max_bytes = theirs->max_stream_data_bidi_remote;
			s->recv.max_bytes = ours->max_stream_data_bidi_local;
		} else {
			s->send.max_bytes = theirs->max_stream_data_bidi_local;
			s->recv.max_bytes = ours->max_stream_data_bidi_remote;
		}
	}
	s->recv.window = s->recv.max_bytes;

	hlist_add_head(&s->node, quic_stream_bucket(t, id));
	t->count++;
	if (!local)
		t->peer_mem += sizeof(*s);
	if (quic_stream_id_send(id, t->is_serv))
		t->latest = id;
	return s;
}

/* Open every stream of @id's type from the next unopened one up to @id
 * (RFC 9000 Section 3.2: lower-numbered streams of a type open first).
 * Streams opened before an allocation failure stay open.
 */
static struct quic_stream *quic_stream_open_upto(struct quic_stream_table *t,
						 struct quic_stream_limits *lim, s64 id, gfp_t gfp)
{
	u8 dir = quic_stream_dir(id);
	struct quic_stream *s = NULL;

	while (lim->next_id[dir] <= id) {
		s = quic_stream_create(t, lim->next_id[dir], gfp);
		if (!s)
			return ERR_PTR(-ENOMEM);
		lim->next_id[dir] += 4;
	}
	return s;
}

/**
 * quic_stream_send_get - get or open a stream the application sends on
 * @t: the table
 * @id: stream ID
 * @gfp: allocation flags
 *
 * A stream of ours that is not open yet is opened, together with every
 * lower-numbered stream of its type (RFC 9000 Section 2.1).
 *
 * Return: the stream, or ERR_PTR() of
 * -EINVAL when @id is not a stream ID, is a unidirectional stream of the
 * peer, or a peer stream that the peer has not opened;
 * -ENOENT when the stream was open once and has been released;
 * -EAGAIN when the peer's stream limit does not allow it yet (the caller
 * may send STREAMS_BLOCKED and wait for MAX_STREAMS);
 * -ENOMEM.
 */
struct quic_stream *quic_stream_send_get(struct quic_stream_table *t, s64 id, gfp_t gfp)
{
	u8 dir = quic_stream_dir(id);
	struct quic_stream *s;

	if (!quic_stream_id_valid(id) || !quic_stream_id_send(id, t->is_serv))
		return ERR_PTR(-EINVAL);

	s = quic_stream_find(t, id);
	if (s)
		return s;

	if (!quic_stream_id_local(id, t->is_serv))
		return ERR_PTR(id < t->peer.next_id[dir] ? -ENOENT : -EINVAL);
	if (id < t->local.next_id[dir])
		return ERR_PTR(-ENOENT);
	if (quic_stream_id_to_count(id) > t->local.max_streams[dir])
		return ERR_PTR(-EAGAIN);
	return quic_stream_open_upto(t, &t->local, id, gfp);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_send_get);

/* A frame from the peer names a stream that is not in the table. */
static struct quic_stream *quic_stream_peer_open(struct quic_stream_table *t, s64 id, gfp_t gfp)
{
	u8 dir = quic_stream_dir(id);
	u64 n;

	if (quic_stream_id_local(id, t->is_serv)) {
		/* RFC 9000 Sections 19.5, 19.8, 19.10: a stream of ours
		 * that we have not created yet is a STREAM_STATE_ERROR.
		 */
		return ERR_PTR(id < t->local.next_id[dir] ? -ENOENT : -EPROTO);
	}
	if (id < t->peer.next_id[dir])
		return ERR_PTR(-ENOENT);
	/* RFC 9000 Section 4.6 */
	if (quic_stream_id_to_count(id) > t->peer.max_streams[dir])
		return ERR_PTR(-EDQUOT);
	/* Opening a stream opens every lower one of its type: all of them
	 * must fit the memory the peer may make us hold, or none is opened.
	 */
	n = ((u64)(id - t->peer.next_id[dir]) >> 2) + 1;
	if (t->peer_mem > t->peer_mem_limit ||
	    n > (t->peer_mem_limit - t->peer_mem) / sizeof(struct quic_stream))
		return ERR_PTR(-ENOBUFS);
	return quic_stream_open_upto(t, &t->peer, id, gfp);
}

/**
 * quic_stream_recv_get - the stream of a STREAM, STREAM_DATA_BLOCKED or RESET_STREAM frame
 * @t: the table
 * @id: Stream ID field of the frame
 * @gfp: allocation flags
 *
 * These frames come from the sending part of the peer. A peer stream not
 * open yet is opened with every lower-numbered stream of its type.
 *
 * Return: the stream, or ERR_PTR() of
 * -EPROTO for a unidirectional stream of ours (send-only) or a stream of
 * ours never opened (STREAM_STATE_ERROR, RFC 9000 Sections 19.4, 19.8, 19.13);
 * -EDQUOT when the peer exceeds the stream limit we set (STREAM_LIMIT_ERROR);
 * -ENOENT when the stream has been released already (ignore the frame);
 * -EBADMSG when @id is not a stream ID; -ENOBUFS when the streams to open
 * would take the memory of peer-opened streams beyond the table's limit
 * (drop the packet: the peer sends it again once streams were released);
 * -ENOMEM.
 */
struct quic_stream *quic_stream_recv_get(struct quic_stream_table *t, s64 id, gfp_t gfp)
{
	struct quic_stream *s;

	if (!quic_stream_id_valid(id))
		return ERR_PTR(-EBADMSG);
	if (!quic_stream_id_recv(id, t->is_serv))
		return ERR_PTR(-EPROTO);

	s = quic_stream_find(t, id);
	return s ?: quic_stream_peer_open(t, id, gfp);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_recv_get);

/**
 * quic_stream_feedback_get - the stream of a MAX_STREAM_DATA or STOP_SENDING frame
 * @t: the table
 * @id: Stream ID field of the frame
 * @gfp: allocation flags
 *
 * These frames come from the receiving part of the peer, about our sending
 * part. For a bidirectional peer stream not open yet, they open it (RFC
 * 9000 Section 3.2).
 *
 * Return: the stream, or ERR_PTR() of
 * -EPROTO for a unidirectional stream of the peer (receive-only) or a
 * stream of ours never opened (STREAM_STATE_ERROR, RFC 9000 Sections
 * 19.5 and 19.10); -EDQUOT, -ENOENT, -EBADMSG, -ENOBUFS and -ENOMEM as
 * for quic_stream_recv_get().
 */
struct quic_stream *quic_stream_feedback_get(struct quic_stream_table *t, s64 id, gfp_t gfp)
{
	struct quic_stream *s;

	if (!quic_stream_id_valid(id))
		return ERR_PTR(-EBADMSG);
	if (!quic_stream_id_send(id, t->is_serv))
		return ERR_PTR(-EPROTO);

	s = quic_stream_find(t, id);
	return s ?: quic_stream_peer_open(t, id, gfp);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_feedback_get);

/**
 * quic_stream_release - remove a stream from the table and free it
 * @t: the table
 * @s: a stream of @t, normally once quic_stream_is_done()
 *
 * Its ID is never reused. A released peer stream counts towards the
 * credit quic_stream_peer_max_streams_update() hands back to the peer.
 */
void quic_stream_release(struct quic_stream_table *t, struct quic_stream *s)
{
	if (!quic_stream_id_local(s->id, t->is_serv)) {
		t->peer_closed[quic_stream_dir(s->id)]++;
		t->peer_mem -= sizeof(*s);
	}
	hlist_del(&s->node);
	t->count--;
	kfree(s);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_release);

/**
 * quic_stream_set_local_max_streams - apply a MAX_STREAMS frame from the peer
 * @t: the table
 * @uni: the frame is for unidirectional streams (type 0x13)
 * @max: Maximum Streams field
 *
 * Return: 1 when our limit grew, 0 when the frame does not increase it and
 * is ignored (RFC 9000 Section 19.11), -EBADMSG when @max exceeds 2^60
 * (FRAME_ENCODING_ERROR).
 */
int quic_stream_set_local_max_streams(struct quic_stream_table *t, bool uni, u64 max)
{
	u8 dir = uni ? QUIC_STREAM_UNI : QUIC_STREAM_BIDI;

	if (max > QUIC_MAX_STREAMS_LIMIT)
		return -EBADMSG;
	if (max <= t->local.max_streams[dir])
		return 0;
	/* Read locklessly by writers waiting for it. */
	WRITE_ONCE(t->local.max_streams[dir], max);
	return 1;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_set_local_max_streams);

/**
 * quic_stream_peer_max_streams_update - raise the peer's stream limit as its streams close
 * @t: the table
 * @uni: unidirectional (true) or bidirectional streams
 * @max: set to the new limit, to be sent in a MAX_STREAMS frame
 *
 * Each peer stream released since the last call gives one stream back, so
 * that the number the peer may have open stays what our transport
 * parameter allowed (RFC 9000 Section 4.6).
 *
 * Return: true when the limit grew and a MAX_STREAMS frame is due.
 */
bool quic_stream_peer_max_streams_update(struct quic_stream_table *t, bool uni, u64 *max)
{
	u8 dir = uni ? QUIC_STREAM_UNI : QUIC_STREAM_BIDI;
	u64 cur = t->peer.max_streams[dir], next;

	next = min(cur + t->peer_closed[dir], QUIC_MAX_STREAMS_LIMIT);
	t->peer_closed[dir] = 0;
	if (next <= cur)
		return false;
	t->peer.max_streams[dir] = next;
	*max = next;
	return true;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_peer_max_streams_update);

/**
 * quic_stream_local_blocked - the peer's stream limit stops us opening a stream
 * @t: the table
 * @uni: unidirectional (true) or bidirectional streams
 * @max: set to the limit, to be sent in a STREAMS_BLOCKED frame
 *
 * RFC 9000 Section 4.6: "A sender SHOULD send a STREAMS_BLOCKED frame
 * (type=0x16 or 0x17) when it wishes to open a stream but is unable to do
 * so due to the maximum stream limit set by its peer." Once per limit:
 * a later call for the same limit asks for nothing.
 *
 * Return: true when a STREAMS_BLOCKED frame is due.
 */
bool quic_stream_local_blocked(struct quic_stream_table *t, bool uni, u64 *max)
{
	u8 dir = uni ? QUIC_STREAM_UNI : QUIC_STREAM_BIDI;
	u64 cur = t->local.max_streams[dir];

	if (t->blocked_at[dir] == cur + 1)
		return false;
	t->blocked_at[dir] = cur + 1;
	*max = cur;
	return true;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_local_blocked);

/* Arrows of RFC 9000 Figure 2 (sending part): bit n set means state n may follow. */
static const u32 quic_stream_send_next[] = {
	[QUIC_STREAM_SEND_STATE_READY] = BIT(QUIC_STREAM_SEND_STATE_SEND) |
					 BIT(QUIC_STREAM_SEND_STATE_RESET_SENT),
	[QUIC_STREAM_SEND_STATE_SEND] = BIT(QUIC_STREAM_SEND_STATE_SENT) |
					BIT(QUIC_STREAM_SEND_STATE_RESET_SENT),
	[QUIC_STREAM_SEND_STATE_SENT] = BIT(QUIC_STREAM_SEND_STATE_RECVD) |
					BIT(QUIC_STREAM_SEND_STATE_RESET_SENT),
	[QUIC_STREAM_SEND_STATE_RECVD] = 0,
	[QUIC_STREAM_SEND_STATE_RESET_SENT] = BIT(QUIC_STREAM_SEND_STATE_RESET_RECVD),
	[QUIC_STREAM_SEND_STATE_RESET_RECVD] = 0,
};

/* Arrows of RFC 9000 Figure 3 (receiving part), including the two optional ones. */
static const u32 quic_stream_recv_next[] = {
	[QUIC_STREAM_RECV_STATE_RECV] = BIT(QUIC_STREAM_RECV_STATE_SIZE_KNOWN) |
					BIT(QUIC_STREAM_RECV_STATE_RESET_RECVD),
	[QUIC_STREAM_RECV_STATE_SIZE_KNOWN] = BIT(QUIC_STREAM_RECV_STATE_RECVD) |
					      BIT(QUIC_STREAM_RECV_STATE_RESET_RECVD),
	[QUIC_STREAM_RECV_STATE_RECVD] = BIT(QUIC_STREAM_RECV_STATE_READ) |
					 BIT(QUIC_STREAM_RECV_STATE_RESET_RECVD),
	[QUIC_STREAM_RECV_STATE_READ] = 0,
	[QUIC_STREAM_RECV_STATE_RESET_RECVD] = BIT(QUIC_STREAM_RECV_STATE_RESET_READ) |
					       BIT(QUIC_STREAM_RECV_STATE_RECVD),
	[QUIC_STREAM_RECV_STATE_RESET_READ] = 0,
};

/* Follow one arrow of a figure: @next[n] has bit m set when state m may
 * follow state n; the figure's states are @first to @last.
 */
static int quic_stream_move(u8 *cur, u8 state, const u32 *next, u8 first, u8 last)
{
	if (*cur == QUIC_STREAM_STATE_NONE || state < first || state > last)
		return -EINVAL;
	if (*cur == state)
		return 0;
	if (!(next[*cur] & BIT(state)))
		return -EINVAL;
	*cur = state;
	return 0;
}

/**
 * quic_stream_send_set_state - move the sending part along RFC 9000 Figure 2
 * @s: the stream
 * @state: QUIC_STREAM_SEND_STATE_*
 *
 * For the transitions not driven by quic_stream_send_data() or
 * quic_stream_send_reset(): "Recv All ACKs" (Data Sent to Data Recvd) and
 * "Recv ACK" of the RESET_STREAM (Reset Sent to Reset Recvd). Setting the
 * current state again is a no-op.
 *
 * Return: 0, or -EINVAL when the figure has no such arrow or the stream
 * has no sending part.
 */
int quic_stream_send_set_state(struct quic_stream *s, u8 state)
{
	return quic_stream_move(&s->send.state, state, quic_stream_send_next,
				QUIC_STREAM_SEND_STATE_READY, QUIC_STREAM_SEND_STATE_RESET_RECVD);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_send_set_state);

/**
 * quic_stream_recv_set_state - move the receiving part along RFC 9000 Figure 3
 * @s: the stream
 * @state: QUIC_STREAM_RECV_STATE_*
 *
 * For the transitions not driven by quic_stream_recv_data() or
 * quic_stream_recv_reset(): "Recv All Data", "App Read All Data" and "App
 * Read Reset". Setting the current state again is a no-op.
 *
 * Return: 0, or -EINVAL when the figure has no such arrow or the stream
 * has no receiving part.
 */
int quic_stream_recv_set_state(struct quic_stream *s, u8 state)
{
	return quic_stream_move(&s->recv.state, state, quic_stream_recv_next,
				QUIC_STREAM_RECV_STATE_RECV, QUIC_STREAM_RECV_STATE_RESET_READ);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_recv_set_state);

/**
 * quic_stream_send_data - account for new bytes written to a stream
 * @s: the stream
 * @len: bytes of new data (may be 0, e.g. for a FIN alone)
 * @fin: this is the end of the stream
 *
 * The sending part moves from Ready to Send, and to Data Sent with @fin
 * (RFC 9000 Section 3.1). Data may not exceed the peer's limit: the caller
 * sends at most quic_stream_send_credit() bytes.
 *
 * Return: 0; -EAGAIN when @len exceeds the credit (blocked: the caller may
 * send STREAM_DATA_BLOCKED); -EPIPE after the FIN or a reset; -EINVAL when
 * the stream has no sending part.
 */
int quic_stream_send_data(struct quic_stream *s, u64 len, bool fin)
{
	int err;

	err = quic_stream_send_writable(s);
	if (err)
		return err;
	if (len > quic_stream_send_credit(s))
		return -EAGAIN;

	s->send.bytes += len;
	s->send.state = fin ? QUIC_STREAM_SEND_STATE_SENT : QUIC_STREAM_SEND_STATE_SEND;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_send_data);

/**
 * quic_stream_send_max_data - apply a MAX_STREAM_DATA frame
 * @s: the stream
 * @max: Maximum Stream Data field
 *
 * Return: true when the limit grew; a frame that does not increase it is
 * ignored (RFC 9000 Section 4.1).
 */
bool quic_stream_send_max_data(struct quic_stream *s, u64 max)
{
	if (max <= s->send.max_bytes)
		return false;
	s->send.max_bytes = max;
	return true;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_send_max_data);

/**
 * quic_stream_send_reset - abandon the sending part (a RESET_STREAM is to be sent)
 * @s: the stream
 * @errcode: application protocol error code for the RESET_STREAM
 *
 * Allowed from Ready, Send and Data Sent (RFC 9000 Section 3.1); the Final
 * Size of the RESET_STREAM is @s->send.bytes.
 *
 * Return: 0, -EALREADY when the part is reset or finished already, or
 * -EINVAL when the stream has no sending part.
 */
int quic_stream_send_reset(struct quic_stream *s, u32 errcode)
{
	switch (s->send.state) {
	case QUIC_STREAM_SEND_STATE_READY:
	case QUIC_STREAM_SEND_STATE_SEND:
	case QUIC_STREAM_SEND_STATE_SENT:
		s->send.state = QUIC_STREAM_SEND_STATE_RESET_SENT;
		s->send.errcode = errcode;
		return 0;
	case QUIC_STREAM_STATE_NONE:
		return -EINVAL;
	default:
		return -EALREADY;
	}
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_send_reset);

static bool quic_stream_recv_size_known(const struct quic_stream *s)
{
	return s->recv.state != QUIC_STREAM_RECV_STATE_RECV;
}

/**
 * quic_stream_recv_data - check and account a STREAM frame
 * @s: the stream (from quic_stream_recv_get())
 * @offset: Offset field
 * @len: length of Stream Data
 * @fin: FIN bit
 *
 * Applies RFC 9000 Section 4.5 (the final size, once known, never changes
 * and no data lies at or beyond it) and Section 4.1 (no data beyond the
 * limit we advertised). A FIN moves Recv to Size Known. Frames arriving in
 * later states are checked the same way and otherwise left to the caller
 * (which discards them).
 *
 * Return: 0; -EFBIG on a final size violation (FINAL_SIZE_ERROR);
 * -EOVERFLOW when data exceeds the stream's flow control limit or 2^62 - 1
 * (FLOW_CONTROL_ERROR); -EPROTO when the stream has no receiving part.
 */
int quic_stream_recv_data(struct quic_stream *s, u64 offset, u64 len, bool fin)
{
	u64 end;

	if (s->recv.state == QUIC_STREAM_STATE_NONE)
		return -EPROTO;
	if (offset > QUIC_VARINT_MAX || len > QUIC_VARINT_MAX - offset)
		return -EOVERFLOW;
	end = offset + len;

	if (quic_stream_recv_size_known(s)) {
		if (end > s->recv.finalsz || (fin && end != s->recv.finalsz))
			return -EFBIG;
		return 0;
	}
	if (fin && end < s->recv.highest)
		return -EFBIG;
	if (end > s->recv.max_bytes)
		return -EOVERFLOW;

	if (end > s->recv.highest)
		s->recv.highest = end;
	if (fin) {
		s->recv.finalsz = end;
		s->recv.state = QUIC_STREAM_RECV_STATE_SIZE_KNOWN;
	}
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_recv_data);

/**
 * quic_stream_recv_reset - check and apply a RESET_STREAM frame
 * @s: the stream (from quic_stream_recv_get())
 * @finalsz: Final Size field
 * @errcode: Application Protocol Error Code field
 *
 * Recv and Size Known move to Reset Recvd. In Data Recvd all data is
 * there already, so the reset is not signalled and the state stays (RFC
 * 9000 Section 3.2 allows either); later states are unchanged. In every
 * state the final size must match what is known (Section 4.5).
 *
 * Return: 0; -EFBIG when @finalsz differs from the known final size or is
 * below data received (FINAL_SIZE_ERROR); -EOVERFLOW when it exceeds the
 * flow control limit (FLOW_CONTROL_ERROR); -EPROTO when the stream has no
 * receiving part.
 */
int quic_stream_recv_reset(struct quic_stream *s, u64 finalsz, u32 errcode)
{
	if (s->recv.state == QUIC_STREAM_STATE_NONE)
		return -EPROTO;

	if (quic_stream_recv_size_known(s)) {
		if (finalsz != s->recv.finalsz)
			return -EFBIG;
		if (s->recv.state != QUIC_STREAM_RECV_STATE_SIZE_KNOWN)
			return 0;
	} else {
		if (finalsz < s->recv.highest)
			return -EFBIG;
		if (finalsz > s->recv.max_bytes)
			return -EOVERFLOW;
		s->recv.finalsz = finalsz;
	}

	/* Every byte up to the final size now counts as received. */
	s->recv.highest = finalsz;
	s->recv.errcode = errcode;
	s->recv.state = QUIC_STREAM_RECV_STATE_RESET_RECVD;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_recv_reset);

/**
 * quic_stream_recv_consume - account for data the application has read
 * @s: the stream
 * @len: bytes read
 *
 * While in Recv (the only state MAX_STREAM_DATA is sent in, RFC 9000
 * Section 3.3), once less than half of the window is left open ahead of
 * the read offset, the limit is raised to offset + window.
 *
 * Return: 1 when @s->recv.max_bytes was raised and a MAX_STREAM_DATA frame
 * is due, 0 when not, -EINVAL when @len goes beyond the data received.
 */
int quic_stream_recv_consume(struct quic_stream *s, u64 len)
{
	u64 max;

	if (s->recv.state == QUIC_STREAM_STATE_NONE ||
	    len > s->recv.highest - s->recv.offset)
		return -EINVAL;
	s->recv.offset += len;

	if (s->recv.state != QUIC_STREAM_RECV_STATE_RECV)
		return 0;
	if (s->recv.max_bytes - s->recv.offset >= s->recv.window / 2)
		return 0;
	max = min(s->recv.offset + s->recv.window, QUIC_VARINT_MAX);
	if (max <= s->recv.max_bytes)
		return 0;
	s->recv.max_bytes = max;
	return 1;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_recv_consume);

/**
 * quic_stream_transport_error - the transport error code for an error of this component
 * @err: a return value of a quic_stream_*() function
 *
 * Return: the QUIC_TRANSPORT_ERROR_* code to close the connection with, or
 * QUIC_TRANSPORT_ERROR_NONE when @err is 0 or does not call for closing
 * it (-ENOENT: frame for a released stream, to be ignored; -EAGAIN: the
 * local side is blocked). The mapping is listed in stream.h.
 */
u32 quic_stream_transport_error(int err)
{
	switch (err) {
	case 0:
	case -ENOENT:
	case -EAGAIN:
		return QUIC_TRANSPORT_ERROR_NONE;
	case -EDQUOT:
		return QUIC_TRANSPORT_ERROR_STREAM_LIMIT;
	case -EPROTO:
		return QUIC_TRANSPORT_ERROR_STREAM_STATE;
	case -EFBIG:
		return QUIC_TRANSPORT_ERROR_FINAL_SIZE;
	case -EOVERFLOW:
		return QUIC_TRANSPORT_ERROR_FLOW_CONTROL;
	case -EBADMSG:
		return QUIC_TRANSPORT_ERROR_FRAME_ENCODING;
	default:
		return QUIC_TRANSPORT_ERROR_INTERNAL;
	}
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_transport_error);

#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
/**
 * quic_stream_invariant - the first broken flow control invariant of a table
 * @t: the stream table, its owner's lock held
 *
 * For every receiving part (RFC 9000 Section 4.1): what the application
 * read never passes what was received, and what was received never
 * passes the limit we advertised; a known final size bounds both.
 *
 * Return: NULL, or a description of what is broken.
 */
const char *quic_stream_invariant(const struct quic_stream_table *t)
{
	const struct quic_stream *s;
	u32 i;

	if (!t->hash)		/* no table (yet, or any more) */
		return NULL;
	for (i = 0; i < (1U << QUIC_STREAM_HT_BITS); i++) {
		hlist_for_each_entry(s, &t->hash[i], node) {
			if (s->recv.state == QUIC_STREAM_STATE_NONE)
				continue;
			if (s->recv.offset > s->recv.highest)
				return "a stream read past the data received";
			if (s->recv.highest > s->recv.max_bytes)
				return "a stream received past our MAX_STREAM_DATA";
			if (quic_stream_recv_size_known(s) && s->recv.highest > s->recv.finalsz)
				return "a stream received past its final size";
		}
	}
	return NULL;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_stream_invariant);
#endif
