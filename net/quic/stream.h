/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC streams (RFC 9000 Sections 2, 3 and 4): stream IDs, the stream
 * table of a connection with its stream count limits, the sending and
 * receiving state machines and per-stream flow control.
 *
 * A struct quic_stream_table belongs to one connection and is protected by
 * its owner's lock (the socket lock); nothing here takes a lock.
 *
 * Errors caused by the peer are negative errnos, each standing for one
 * transport error code; quic_stream_transport_error() gives the code to
 * close the connection with:
 *
 *   -EDQUOT     STREAM_LIMIT_ERROR     peer opened more streams than allowed
 *   -EPROTO     STREAM_STATE_ERROR     frame not allowed for the stream
 *   -EFBIG      FINAL_SIZE_ERROR       final size changed or exceeded
 *   -EOVERFLOW  FLOW_CONTROL_ERROR     data beyond the advertised limit
 *   -EBADMSG    FRAME_ENCODING_ERROR   value that cannot be encoded
 *   -ENOENT     (none)                 stream already closed: ignore frame
 *   -EAGAIN     (none)                 blocked by the peer's limits
 *   -ENOMEM     INTERNAL_ERROR
 *   -EINVAL     INTERNAL_ERROR         misuse by the local caller
 */

#ifndef __net_quic_stream_h__
#define __net_quic_stream_h__

#include <linux/bits.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/quic.h>

#include "common.h"

/* Buckets of the per-table stream hash (1 << QUIC_STREAM_HT_BITS). */
#define QUIC_STREAM_HT_BITS		6

/* RFC 9000 Section 4.6: a stream count above 2^60 would allow stream IDs
 * that cannot be encoded.
 */
#define QUIC_MAX_STREAMS_LIMIT		BIT_ULL(60)

/* State of the part of a stream that does not exist: the receiving part of
 * a unidirectional stream we opened, the sending part of one the peer
 * opened.
 */
#define QUIC_STREAM_STATE_NONE		0xff

/* Index of the per-direction limits. */
enum {
	QUIC_STREAM_BIDI,
	QUIC_STREAM_UNI,
	QUIC_STREAM_DIRS
};

/**
 * struct quic_stream - one stream
 * @node: entry in the table's hash
 * @id: stream ID
 * @send: sending part
 * @send.max_bytes: flow control limit set by the peer (absolute offset)
 * @send.bytes: bytes written to the stream so far: the offset of the next byte
 * @send.errcode: application error code of the RESET_STREAM sent
 * @send.state: QUIC_STREAM_SEND_STATE_* or %QUIC_STREAM_STATE_NONE
 * @recv: receiving part
 * @recv.max_bytes: flow control limit advertised to the peer
 * @recv.window: credit kept open ahead of what the application has read
 * @recv.highest: largest offset received, plus one (the flow control credit used)
 * @recv.finalsz: final size, valid in every state but Recv
 * @recv.offset: bytes the application has read
 * @recv.errcode: application error code of the RESET_STREAM received
 * @recv.state: QUIC_STREAM_RECV_STATE_* or %QUIC_STREAM_STATE_NONE
 * @peeled: a stream socket of its own reads its data (peeloff.c), the
 *	connection's recvmsg() does not
 */
struct quic_stream {
	struct hlist_node node;
	s64 id;
	struct {
		u64 max_bytes;
		u64 bytes;
		u32 errcode;
		u8 state;
	} send;
	struct {
		u64 max_bytes;
		u64 window;
		u64 highest;
		u64 finalsz;
		u64 offset;
		u32 errcode;
		u8 state;
	} recv;
	u8 peeled;
};

/**
 * struct quic_stream_limits - stream counts for the streams one side opens
 * @max_streams: cumulative number of streams allowed, by %QUIC_STREAM_BIDI/UNI
 * @next_id: lowest stream ID of that type not opened yet
 */
struct quic_stream_limits {
	u64 max_streams[QUIC_STREAM_DIRS];
	s64 next_id[QUIC_STREAM_DIRS];
};

/**
 * struct quic_stream_params - the stream-related transport parameters of one side
 * @max_stream_data_bidi_local: initial_max_stream_data_bidi_local
 * @max_stream_data_bidi_remote: initial_max_stream_data_bidi_remote
 * @max_stream_data_uni: initial_max_stream_data_uni
 * @max_streams_bidi: initial_max_streams_bidi
 * @max_streams_uni: initial_max_streams_uni
 */
struct quic_stream_params {
	u64 max_stream_data_bidi_local;
	u64 max_stream_data_bidi_remote;
	u64 max_stream_data_uni;
	u64 max_streams_bidi;
	u64 max_streams_uni;
};

/**
 * struct quic_stream_table - the streams of one connection
 * @hash: buckets, allocated per table
 * @count: streams in the table
 * @is_serv: we are the server (our streams have the 0x01 bit set)
 * @local: streams we open; their counts are limited by the peer
 * @peer: streams the peer opens; their counts are limited by us
 * @peer_closed: peer streams released since the last MAX_STREAMS, by direction
 * @blocked_at: our stream limit for which STREAMS_BLOCKED was queued, plus
 *	one, by direction (0: none)
 * @peer_mem: bytes of the stream structures the peer made us allocate
 * @peer_mem_limit: bound on @peer_mem (the socket's receive buffer)
 * @local_param: our transport parameters
 * @remote_param: the peer's transport parameters
 * @latest: the stream opened last, by either end, that we may send on
 *	(-1: none): where stream data without a stream ID goes
 */
struct quic_stream_table {
	struct hlist_head *hash;
	u32 count;
	u8 is_serv:1;
	struct quic_stream_limits local;
	struct quic_stream_limits peer;
	u64 peer_closed[QUIC_STREAM_DIRS];
	u64 blocked_at[QUIC_STREAM_DIRS];
	u64 peer_mem;
	u64 peer_mem_limit;
	struct quic_stream_params local_param;
	struct quic_stream_params remote_param;
	s64 latest;
};

/* Stream ID classification (RFC 9000 Section 2.1). */

static inline bool quic_stream_id_valid(s64 id)
{
	return id >= 0 && id <= (s64)QUIC_VARINT_MAX;
}

static inline bool quic_stream_id_uni(s64 id)
{
	return id & QUIC_STREAM_TYPE_UNI_MASK;
}

static inline bool quic_stream_id_server(s64 id)
{
	return id & QUIC_STREAM_TYPE_SERVER_MASK;
}

/* Opened by this endpoint. */
static inline bool quic_stream_id_local(s64 id, bool is_serv)
{
	return quic_stream_id_server(id) == is_serv;
}

/* This endpoint may send on it: bidirectional, or unidirectional and ours. */
static inline bool quic_stream_id_send(s64 id, bool is_serv)
{
	return !quic_stream_id_uni(id) || quic_stream_id_local(id, is_serv);
}

/* This endpoint may receive on it: bidirectional, or unidirectional and the peer's. */
static inline bool quic_stream_id_recv(s64 id, bool is_serv)
{
	return !quic_stream_id_uni(id) || !quic_stream_id_local(id, is_serv);
}

/* Streams of a type that must be allowed for @id to be opened (Section 4.6). */
static inline u64 quic_stream_id_to_count(s64 id)
{
	return ((u64)id >> 2) + 1;
}

/* Next stream ID of the given direction this endpoint would open. */
static inline s64 quic_stream_next_local_id(const struct quic_stream_table *t, bool uni)
{
	return t->local.next_id[uni];
}

/* The peer's limit lets our stream @id be opened (or it is open already).
 * Reads one word: for wait conditions, which run after release_sock() and
 * may only read.
 */
static inline bool quic_stream_send_limit_allows(const struct quic_stream_table *t, s64 id)
{
	return quic_stream_id_to_count(id) <=
	       READ_ONCE(t->local.max_streams[quic_stream_id_uni(id)]);
}

/* Both parts are in a terminal state (or do not exist). */
static inline bool quic_stream_is_done(const struct quic_stream *s)
{
	return (s->send.state == QUIC_STREAM_STATE_NONE ||
		s->send.state == QUIC_STREAM_SEND_STATE_RECVD ||
		s->send.state == QUIC_STREAM_SEND_STATE_RESET_RECVD) &&
	       (s->recv.state == QUIC_STREAM_STATE_NONE ||
		s->recv.state == QUIC_STREAM_RECV_STATE_READ ||
		s->recv.state == QUIC_STREAM_RECV_STATE_RESET_READ);
}

/* Whether more data may be written to the sending part (Ready or Send).
 * Return: 0, -EINVAL without a sending part, -EPIPE once finished or reset.
 */
static inline int quic_stream_send_writable(const struct quic_stream *s)
{
	switch (s->send.state) {
	case QUIC_STREAM_SEND_STATE_READY:
	case QUIC_STREAM_SEND_STATE_SEND:
		return 0;
	case QUIC_STREAM_STATE_NONE:
		return -EINVAL;
	default:
		return -EPIPE;
	}
}

/* Credit the peer leaves us on this stream. */
static inline u64 quic_stream_send_credit(const struct quic_stream *s)
{
	return s->send.max_bytes > s->send.bytes ? s->send.max_bytes - s->send.bytes : 0;
}

int quic_stream_table_init(struct quic_stream_table *t, bool is_serv, gfp_t gfp);
void quic_stream_table_free(struct quic_stream_table *t);
int quic_stream_set_param(struct quic_stream_table *t, const struct quic_transport_param *p);
void quic_stream_get_param(const struct quic_stream_table *t, struct quic_transport_param *p);
u32 quic_stream_raise_send_limits(struct quic_stream_table *t);

struct quic_stream *quic_stream_find(const struct quic_stream_table *t, s64 id);
struct quic_stream *quic_stream_send_get(struct quic_stream_table *t, s64 id, gfp_t gfp);
struct quic_stream *quic_stream_recv_get(struct quic_stream_table *t, s64 id, gfp_t gfp);
struct quic_stream *quic_stream_feedback_get(struct quic_stream_table *t, s64 id, gfp_t gfp);
void quic_stream_release(struct quic_stream_table *t, struct quic_stream *s);

int quic_stream_set_local_max_streams(struct quic_stream_table *t, bool uni, u64 max);
bool quic_stream_peer_max_streams_update(struct quic_stream_table *t, bool uni, u64 *max);
bool quic_stream_local_blocked(struct quic_stream_table *t, bool uni, u64 *max);

/* Bound the memory of the streams the peer opens (see quic_stream_recv_get()). */
static inline void quic_stream_set_peer_mem_limit(struct quic_stream_table *t, u64 limit)
{
	t->peer_mem_limit = limit;
}

int quic_stream_send_set_state(struct quic_stream *s, u8 state);
int quic_stream_recv_set_state(struct quic_stream *s, u8 state);

int quic_stream_send_data(struct quic_stream *s, u64 len, bool fin);
bool quic_stream_send_max_data(struct quic_stream *s, u64 max);
int quic_stream_send_reset(struct quic_stream *s, u32 errcode);

int quic_stream_recv_data(struct quic_stream *s, u64 offset, u64 len, bool fin);
int quic_stream_recv_reset(struct quic_stream *s, u64 finalsz, u32 errcode);
int quic_stream_recv_consume(struct quic_stream *s, u64 len);

u32 quic_stream_transport_error(int err);

#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
const char *quic_stream_invariant(const struct quic_stream_table *t);
#else
static inline const char *quic_stream_invariant(const struct quic_stream_table *t)
{
	return NULL;
}
#endif

#endif /* __net_quic_stream_h__ */
