/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC receive queue: reassembly of STREAM data (RFC 9000 Sections 2.2,
 * 4 and 4.5) and of CRYPTO data per encryption level (Sections 7.5 and
 * 19.6), connection-level flow control (Section 4.1), the bounded queue of
 * DATAGRAM frames (RFC 9221 Section 5) and the delivery queue recvmsg()
 * reads from.
 *
 * A struct quic_inq belongs to one connection. The caller holds the socket
 * lock; nothing here locks or sleeps, and allocations use the gfp_t given
 * (GFP_ATOMIC on the receive path). Frame data is copied in: decoded
 * frames point into a packet buffer that is reused once they are handled.
 *
 * Errors are negative errnos; quic_inq_transport_error() gives the
 * transport error code to close the connection with:
 *
 *   -EOVERFLOW  FLOW_CONTROL_ERROR       stream or connection limit exceeded
 *   -EFBIG      FINAL_SIZE_ERROR         final size changed or exceeded
 *   -EPROTO     STREAM_STATE_ERROR       stream without a receiving part
 *   -EMSGSIZE   CRYPTO_BUFFER_EXCEEDED   CRYPTO data too far ahead
 *   -EBADMSG    FRAME_ENCODING_ERROR     offset beyond 2^62 - 1
 *   -ENOBUFS    (none)                   receive buffer full: drop the packet
 *   -ENOMEM     (none)                   allocation failed: drop the packet
 *   -EINVAL     INTERNAL_ERROR           misuse by the local caller
 */

#ifndef __net_quic_inqueue_h__
#define __net_quic_inqueue_h__

#include <linux/list.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <linux/quic.h>

#include "frame.h"
#include "stream.h"

/* Buckets of the hash of streams being reassembled (1 << QUIC_INQ_HT_BITS). */
#define QUIC_INQ_HT_BITS		4

/* RFC 9000 Section 7.5: at least 4096 bytes of out-of-order CRYPTO data
 * must be accepted. Data ending more than this far beyond the contiguous
 * offset of its level is CRYPTO_BUFFER_EXCEEDED.
 */
#define QUIC_INQ_CRYPTO_MAX_AHEAD	(64 * 1024)

/* DATAGRAM frames held before new ones are dropped (RFC 9221 Section 5.3). */
#define QUIC_INQ_DGRAM_MAX		64

/* Notifications held before new ones are dropped (and counted). */
#define QUIC_INQ_EVENT_MAX		256

/* What a chunk of the delivery queue carries. */
enum quic_inq_type {
	QUIC_INQ_STREAM,
	QUIC_INQ_CRYPTO,
	QUIC_INQ_DATAGRAM,
	QUIC_INQ_EVENT,
};

/**
 * struct quic_inq_chunk - bytes held by the queue
 * @list: entry in a reassembly list, or in the delivery queue
 * @offset: STREAM and CRYPTO: offset of @data[0] in its stream
 * @id: STREAM: stream ID
 * @len: bytes in @data
 * @read: bytes of @data the application has read already
 * @type: &enum quic_inq_type
 * @level: CRYPTO: encryption level (&enum quic_crypto_level)
 * @fin: STREAM: the last byte of @data (or the chunk, if empty) ends the stream
 * @ready: the chunk is in the delivery queue (counted in &quic_inq.queued,
 *	and CRYPTO ones in &quic_inq.crypto_ready)
 * @peeled: STREAM, in the delivery queue: its stream is peeled off, only
 *	quic_inq_read_stream() takes it (counted in &quic_inq.peeled_queued)
 * @data: the bytes
 */
struct quic_inq_chunk {
	struct list_head list;
	u64 offset;
	s64 id;
	u32 len;
	u32 read;
	u8 type;
	u8 level;
	u8 fin;
	u8 ready;
	u8 peeled;
	u8 data[];
};

/**
 * struct quic_inq_reasm - one byte stream being put back in order
 * @chunks: data received beyond @next, sorted by offset, never overlapping
 * @next: offset of the first byte not received yet: everything below it has
 *	been moved to the delivery queue (or read)
 */
struct quic_inq_reasm {
	struct list_head chunks;
	u64 next;
};

/**
 * struct quic_inq_stream - reassembly state of one stream
 * @node: entry in &quic_inq.streams
 * @id: stream ID
 * @reasm: its byte stream
 * @peeled: the stream is peeled off: its chunks enter the delivery queue so
 *	marked
 *
 * Exists from the first data received until all data up to the final
 * size is in the delivery queue, or until the stream is reset or purged.
 */
struct quic_inq_stream {
	struct hlist_node node;
	s64 id;
	struct quic_inq_reasm reasm;
	u8 peeled;
};

/* What a tap does with the CRYPTO bytes of its level (quic_inq_tap_set()). */
enum quic_inq_tap_mode {
	QUIC_INQ_TAP_OFF,
	QUIC_INQ_TAP_COPY,
	QUIC_INQ_TAP_DIVERT,
};

/**
 * struct quic_inq_tap - the kernel's own view of one level's CRYPTO stream
 * @buf: in-order bytes taken, from the level's first byte (COPY) or from
 *	the first one not consumed yet (DIVERT)
 * @len: bytes in @buf
 * @cap: size of @buf
 * @level: encryption level watched
 * @mode: &enum quic_inq_tap_mode
 */
struct quic_inq_tap {
	u8 *buf;
	u32 len;
	u32 cap;
	u8 level;
	u8 mode;
};

/**
 * struct quic_inq - the receive side of one connection
 * @readq: chunks ready for the application, in the order they became readable
 * @streams: hash of &struct quic_inq_stream by stream ID
 * @crypto: CRYPTO data reassembly, by encryption level
 * @crypto_gone: bit n set: level n was discarded, its CRYPTO frames are ignored
 * @max_data: connection flow control limit advertised to the peer
 * @window: credit kept open ahead of what the application has consumed
 * @highest: sum over all streams of the highest offset received (credit used)
 * @consumed: stream bytes the application has read or that resets released
 * @rmem: memory held by chunks (quic_inq_truesize() of each)
 * @rcvbuf: limit on @rmem, from the socket's receive buffer size
 * @dgrams: DATAGRAM chunks in @readq
 * @dgram_max: limit on @dgrams
 * @dgram_drops: DATAGRAM frames dropped because the queue was full
 * @events: EVENT chunks in @readq (they sit at its head, oldest first)
 * @event_drops: notifications dropped because the queue was full
 * @tap: CRYPTO bytes of one level the kernel reads itself
 * @crypto_ready: CRYPTO chunks in @readq
 * @queued: chunks in @readq
 * @peeled_queued: chunks in @readq of streams peeled off
 * @peeled_seq: counts the chunks of peeled streams queued, and their
 *	resets: a stream socket's wait ends when it moves
 * @crypto_only: the handshake is in progress: reads take CRYPTO data only,
 *	data that came in 0-RTT packets waits for its end
 * @pressure: socket memory is short: MAX_DATA updates open less
 *	(quic_inq_set_pressure())
 * @charge: set by the owner (NULL: no accounting): called with the memory
 *	a chunk is about to take, before it is allocated; non-zero refuses it
 *	and the data is dropped as at the @rcvbuf bound. What is freed is not
 *	reported: the owner compares quic_inq_rmem() with what it charged.
 */
struct quic_inq {
	struct list_head readq;
	struct hlist_head streams[1 << QUIC_INQ_HT_BITS];
	struct quic_inq_reasm crypto[QUIC_CRYPTO_MAX];
	u8 crypto_gone;
	u64 max_data;
	u64 window;
	u64 highest;
	u64 consumed;
	u32 rmem;
	u32 rcvbuf;
	u32 dgrams;
	u32 dgram_max;
	u64 dgram_drops;
	u32 events;
	u64 event_drops;
	struct quic_inq_tap tap;
	u32 crypto_ready;
	u32 queued;
	u32 peeled_queued;
	u32 peeled_seq;
	u8 crypto_only;
	u8 pressure;
	int (*charge)(struct quic_inq *inq, u32 bytes);
};

/**
 * struct quic_inq_rinfo - what one quic_inq_read() returned
 * @type: &enum quic_inq_type of the data read
 * @level: CRYPTO: encryption level, for a QUIC_HANDSHAKE_INFO cmsg
 * @stream_id: STREAM: stream ID, for a QUIC_STREAM_INFO cmsg
 * @fin: STREAM: the last byte of the stream was read (MSG_STREAM_FIN)
 * @trunc: DATAGRAM or EVENT: the message did not fit; the rest stays queued
 * @stream_update: STREAM: send MAX_STREAM_DATA for @stream_id with @max_stream_data
 * @conn_update: send MAX_DATA with @max_data
 * @max_stream_data: new stream limit, valid with @stream_update
 * @max_data: new connection limit, valid with @conn_update
 */
struct quic_inq_rinfo {
	u8 type;
	u8 level;
	s64 stream_id;
	u8 fin:1;
	u8 trunc:1;
	u8 stream_update:1;
	u8 conn_update:1;
	u64 max_stream_data;
	u64 max_data;
};

/**
 * quic_inq_truesize - memory charged for a chunk holding @len bytes
 * @len: data bytes
 *
 * Return: the charge, header included, so that many small segments cannot
 * hold more memory than the receive buffer allows.
 */
static inline u32 quic_inq_truesize(u32 len)
{
	return sizeof(struct quic_inq_chunk) + len;
}

/**
 * quic_inq_rmem - memory held by the queue
 * @inq: the queue
 *
 * Return: the sum of quic_inq_truesize() over every chunk held, which the
 * queue keeps within its own bound; the owner charges the same amount to
 * socket memory (see @charge of &struct quic_inq).
 */
static inline u32 quic_inq_rmem(const struct quic_inq *inq)
{
	return inq->rmem;
}

/**
 * quic_inq_max_data - connection flow control limit currently advertised
 * @inq: the queue
 *
 * Return: the Maximum Data value of the last MAX_DATA (or initial_max_data).
 */
static inline u64 quic_inq_max_data(const struct quic_inq *inq)
{
	return inq->max_data;
}

/* Highest stream offsets received over all streams: the credit used. */
static inline u64 quic_inq_highest(const struct quic_inq *inq)
{
	return inq->highest;
}

/**
 * quic_inq_dgram_drops - DATAGRAM frames dropped so far
 * @inq: the queue
 *
 * Return: the number of datagrams refused because the queue was full.
 */
static inline u64 quic_inq_dgram_drops(const struct quic_inq *inq)
{
	return inq->dgram_drops;
}

/**
 * quic_inq_event_drops - notifications dropped so far
 * @inq: the queue
 *
 * Return: the number of events refused because %QUIC_INQ_EVENT_MAX were
 * queued or the receive buffer was full.
 */
static inline u64 quic_inq_event_drops(const struct quic_inq *inq)
{
	return inq->event_drops;
}

/**
 * quic_inq_readable - whether recvmsg() would find something
 * @inq: the queue
 *
 * Return: true when the delivery queue holds something the connection's
 * recvmsg() reads (the data of peeled streams is for their sockets).
 */
static inline bool quic_inq_readable(const struct quic_inq *inq)
{
	if (READ_ONCE(inq->crypto_only))
		return READ_ONCE(inq->crypto_ready);
	return READ_ONCE(inq->queued) > READ_ONCE(inq->peeled_queued);
}

void quic_inq_init(struct quic_inq *inq);
u64 quic_inq_unread(const struct quic_inq *inq);
void quic_inq_free(struct quic_inq *inq);
void quic_inq_set_max_data(struct quic_inq *inq, u64 max_data);
void quic_inq_set_rcvbuf(struct quic_inq *inq, u32 rcvbuf);
void quic_inq_set_pressure(struct quic_inq *inq, bool on);

int quic_inq_stream_recv(struct quic_inq *inq, struct quic_stream *s,
			 const struct quic_frame_data *d, bool fin, gfp_t gfp);
int quic_inq_stream_reset(struct quic_inq *inq, struct quic_stream *s, u64 finalsz,
			  u32 errcode);
void quic_inq_stream_purge(struct quic_inq *inq, s64 id);

int quic_inq_tap_set(struct quic_inq *inq, u8 level, u8 mode, u32 cap, gfp_t gfp);
void quic_inq_tap_consume(struct quic_inq *inq, u32 len);
int quic_inq_crypto_recv(struct quic_inq *inq, u8 level, const struct quic_frame_data *d,
			 gfp_t gfp);
u64 quic_inq_crypto_offset(const struct quic_inq *inq, u8 level);
void quic_inq_crypto_discard(struct quic_inq *inq, u8 level);

int quic_inq_dgram_recv(struct quic_inq *inq, const struct quic_frame_data *d, gfp_t gfp);

int quic_inq_event_recv(struct quic_inq *inq, u8 type, const void *payload, u32 len,
			gfp_t gfp);

int quic_inq_read(struct quic_inq *inq, struct quic_stream_table *t, struct iov_iter *to,
		  struct quic_inq_rinfo *ri);
int quic_inq_peek(struct quic_inq *inq, struct iov_iter *to, struct quic_inq_rinfo *ri);
void quic_inq_stream_peel(struct quic_inq *inq, struct quic_stream *s);
bool quic_inq_stream_readable(struct quic_inq *inq, s64 id);
int quic_inq_read_stream(struct quic_inq *inq, struct quic_stream_table *t, s64 id,
			 struct iov_iter *to, struct quic_inq_rinfo *ri);
int quic_inq_peek_stream(struct quic_inq *inq, s64 id, struct iov_iter *to,
			 struct quic_inq_rinfo *ri);
int quic_inq_head_type(struct quic_inq *inq);
bool quic_inq_head_continues(struct quic_inq *inq, const struct quic_inq_rinfo *ri);
int quic_inq_read_buf(struct quic_inq *inq, struct quic_stream_table *t, void *buf, u32 len,
		      struct quic_inq_rinfo *ri);

u32 quic_inq_transport_error(int err);

#endif /* __net_quic_inqueue_h__ */
