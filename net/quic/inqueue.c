// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC receive queue.
 *
 * Received STREAM and CRYPTO data is copied into chunks. Each byte stream
 * (a stream, or the CRYPTO stream of one encryption level) keeps the offset
 * up to which everything has arrived and a sorted list of the chunks
 * received beyond it. New data is trimmed against both, so a byte is held
 * at most once whatever duplicates or overlaps the peer sends (RFC 9000
 * Section 2.2 lets us discard data received before). Chunks that become
 * contiguous move to one delivery queue shared by all streams, CRYPTO
 * levels and DATAGRAM frames, in the order they became readable; recvmsg()
 * reads from its head.
 *
 * Stream-level flow control and the final size rules belong to stream.c;
 * this file adds the connection-level limit (RFC 9000 Section 4.1), drives
 * the receiving part to Data Recvd and Data Read (Section 3.2, Figure 3)
 * and decides when MAX_DATA is due (Section 4.2).
 */

#include <linux/hash.h>
#include <linux/slab.h>

#include "inqueue.h"

static struct hlist_head *quic_inq_bucket(struct quic_inq *inq, s64 id)
{
	return &inq->streams[hash_64((u64)id, QUIC_INQ_HT_BITS)];
}

static void quic_inq_reasm_init(struct quic_inq_reasm *r)
{
	INIT_LIST_HEAD(&r->chunks);
	r->next = 0;
}

static struct quic_inq_chunk *quic_inq_chunk_new(struct quic_inq *inq, u8 type, u32 len,
						 gfp_t gfp)
{
	struct quic_inq_chunk *c;

	c = kmalloc(struct_size(c, data, len), gfp);
	if (!c)
		return NULL;
	c->offset = 0;
	c->id = 0;
	c->len = len;
	c->read = 0;
	c->type = type;
	c->level = 0;
	c->fin = 0;
	c->ready = 0;
	c->peeled = 0;
	inq->rmem += quic_inq_truesize(len);
	return c;
}

static void quic_inq_chunk_free(struct quic_inq *inq, struct quic_inq_chunk *c)
{
	list_del(&c->list);
	WARN_ON_ONCE(inq->rmem < quic_inq_truesize(c->len));
	inq->rmem -= quic_inq_truesize(c->len);
	if (c->ready) {
		WRITE_ONCE(inq->queued, inq->queued - 1);
		if (c->peeled)
			WRITE_ONCE(inq->peeled_queued, inq->peeled_queued - 1);
		if (c->type == QUIC_INQ_CRYPTO)
			WRITE_ONCE(inq->crypto_ready, inq->crypto_ready - 1);
	}
	if (c->type == QUIC_INQ_DATAGRAM)
		inq->dgrams--;
	else if (c->type == QUIC_INQ_EVENT)
		inq->events--;
	kfree(c);
}

/* @c has just entered the delivery queue; @peeled: it is for a stream socket. */
static void quic_inq_queued(struct quic_inq *inq, struct quic_inq_chunk *c, bool peeled)
{
	c->ready = 1;
	WRITE_ONCE(inq->queued, inq->queued + 1);
	if (peeled) {
		c->peeled = 1;
		WRITE_ONCE(inq->peeled_queued, inq->peeled_queued + 1);
		WRITE_ONCE(inq->peeled_seq, inq->peeled_seq + 1);
	}
	if (c->type == QUIC_INQ_CRYPTO)
		WRITE_ONCE(inq->crypto_ready, inq->crypto_ready + 1);
}

static void quic_inq_reasm_purge(struct quic_inq *inq, struct quic_inq_reasm *r)
{
	struct quic_inq_chunk *c, *tmp;

	list_for_each_entry_safe(c, tmp, &r->chunks, list)
		quic_inq_chunk_free(inq, c);
}

/* Drop the chunks of the delivery queue that @match selects. */
static void quic_inq_readq_purge(struct quic_inq *inq, u8 type, s64 id, u8 level)
{
	struct quic_inq_chunk *c, *tmp;

	list_for_each_entry_safe(c, tmp, &inq->readq, list) {
		if (c->type != type)
			continue;
		if (type == QUIC_INQ_STREAM && c->id != id)
			continue;
		if (type == QUIC_INQ_CRYPTO && c->level != level)
			continue;
		quic_inq_chunk_free(inq, c);
	}
}

/**
 * quic_inq_init - set up an empty receive queue
 * @inq: the queue, owned by the caller
 *
 * The connection limit starts at 0 and the receive buffer is unlimited
 * until quic_inq_set_max_data() and quic_inq_set_rcvbuf() are called.
 */
void quic_inq_init(struct quic_inq *inq)
{
	u8 level;
	u32 i;

	memset(inq, 0, sizeof(*inq));
	INIT_LIST_HEAD(&inq->readq);
	for (i = 0; i < ARRAY_SIZE(inq->streams); i++)
		INIT_HLIST_HEAD(&inq->streams[i]);
	for (level = 0; level < QUIC_CRYPTO_MAX; level++)
		quic_inq_reasm_init(&inq->crypto[level]);
	inq->rcvbuf = U32_MAX;
	inq->dgram_max = QUIC_INQ_DGRAM_MAX;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_init);

static void quic_inq_stream_free(struct quic_inq *inq, struct quic_inq_stream *st)
{
	quic_inq_reasm_purge(inq, &st->reasm);
	hlist_del(&st->node);
	kfree(st);
}

/**
 * quic_inq_free - release everything the queue holds
 * @inq: the queue
 *
 * Afterwards quic_inq_rmem() is 0 and the queue is empty; it may be used
 * again only after quic_inq_init().
 */
void quic_inq_free(struct quic_inq *inq)
{
	struct quic_inq_chunk *c, *ctmp;
	struct quic_inq_stream *st;
	struct hlist_node *tmp;
	u8 level;
	u32 i;

	list_for_each_entry_safe(c, ctmp, &inq->readq, list)
		quic_inq_chunk_free(inq, c);
	for (i = 0; i < ARRAY_SIZE(inq->streams); i++)
		hlist_for_each_entry_safe(st, tmp, &inq->streams[i], node)
			quic_inq_stream_free(inq, st);
	for (level = 0; level < QUIC_CRYPTO_MAX; level++)
		quic_inq_reasm_purge(inq, &inq->crypto[level]);
	quic_inq_tap_set(inq, 0, QUIC_INQ_TAP_OFF, 0, GFP_KERNEL);
	WARN_ON_ONCE(inq->rmem || inq->dgrams || inq->events || inq->queued);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_free);

/**
 * quic_inq_set_max_data - set the connection flow control window
 * @inq: the queue
 * @max_data: the initial_max_data we advertise (RFC 9000 Section 18.2)
 *
 * @max_data is also the credit kept open ahead of what the application has
 * consumed when MAX_DATA updates are computed. The advertised limit never
 * goes down (Section 4.1).
 */
void quic_inq_set_max_data(struct quic_inq *inq, u64 max_data)
{
	u64 max;

	max_data = min(max_data, QUIC_VARINT_MAX);
	inq->window = max_data;
	max = min(inq->consumed + max_data, QUIC_VARINT_MAX);
	if (max > inq->max_data)
		inq->max_data = max;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_set_max_data);

/**
 * quic_inq_set_rcvbuf - set the limit on the memory the queue holds
 * @inq: the queue
 * @rcvbuf: the socket's receive buffer size in bytes
 *
 * STREAM and CRYPTO data that would take quic_inq_rmem() beyond @rcvbuf is
 * refused with -ENOBUFS, DATAGRAM frames are dropped; only data starting
 * at the reader's position may go further, by half of @rcvbuf (at least
 * 64 KiB), so that out-of-order pieces can never keep the application
 * from reading. Data already held is kept when the limit shrinks.
 */
void quic_inq_set_rcvbuf(struct quic_inq *inq, u32 rcvbuf)
{
	inq->rcvbuf = rcvbuf;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_set_rcvbuf);

/**
 * quic_inq_set_pressure - tell the queue that socket memory is short
 * @inq: the queue
 * @on: the protocol (or the socket's memory cgroup) is under pressure
 *
 * Under pressure the MAX_DATA updates computed when the application reads
 * open a quarter of the usual window ahead of what it consumed, so that
 * the peer slows down while memory is short, as TCP clamps its window
 * (tcp_clamp_window()). What was advertised is never taken back (RFC 9000
 * Section 4.1); the full window comes back with the first update after
 * the pressure ends.
 */
void quic_inq_set_pressure(struct quic_inq *inq, bool on)
{
	inq->pressure = on;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_set_pressure);

static bool quic_inq_fits(const struct quic_inq *inq, u64 charge)
{
	return (u64)inq->rmem + charge <= inq->rcvbuf;
}

/* The owner takes @charge more bytes into its memory accounting, or
 * refuses them: then the data is dropped, as at the receive buffer bound.
 */
static bool quic_inq_admit(struct quic_inq *inq, u64 charge)
{
	return !inq->charge || !inq->charge(inq, charge);
}

/*
 * Room kept above the limit for data at the reader's position. Without it
 * a peer could fill the queue with one-byte pieces out of order (each
 * chunk's header is charged) and then never get the bytes in front of
 * them accepted: the application could not read, nothing would be freed,
 * and the stream would stall for good. Data admitted into this room is
 * contiguous with what was read, so the application can always drain it.
 */
#define QUIC_INQ_IN_ORDER_ROOM	(64 * 1024)

static bool quic_inq_fits_in_order(const struct quic_inq *inq, u64 charge)
{
	u64 room = max_t(u64, inq->rcvbuf / 2, QUIC_INQ_IN_ORDER_ROOM);

	return (u64)inq->rmem + charge <= (u64)inq->rcvbuf + room;
}

/* Template for the chunks cut out of one frame. */
struct quic_inq_piece {
	u8 type;
	u8 level;
	s64 id;
	u64 offset;		/* offset of data[0] */
	const u8 *data;
};

/*
 * Place the bytes [from, to) of @p in @r, in a new chunk inserted before
 * @pos. With @commit clear nothing changes and only the memory the chunk
 * would take is added to @charge.
 */
static int quic_inq_place(struct quic_inq *inq, struct list_head *pos,
			  const struct quic_inq_piece *p, u64 from, u64 to, bool commit,
			  u64 *charge, gfp_t gfp)
{
	struct quic_inq_chunk *c;
	u32 len = to - from;

	if (!commit) {
		*charge += quic_inq_truesize(len);
		return 0;
	}
	c = quic_inq_chunk_new(inq, p->type, len, gfp);
	if (!c)
		return -ENOMEM;
	c->offset = from;
	c->id = p->id;
	c->level = p->level;
	memcpy(c->data, p->data + (from - p->offset), len);
	list_add_tail(&c->list, pos);
	return 0;
}

/*
 * Walk the gaps that the bytes [p->offset, end) of @p fill in @r: below
 * @r->next and inside the chunks already held nothing is new. Each gap
 * becomes a chunk of its own (see quic_inq_place() for @commit).
 */
static int quic_inq_fill(struct quic_inq *inq, struct quic_inq_reasm *r,
			 const struct quic_inq_piece *p, u64 end, bool commit, u64 *charge,
			 gfp_t gfp)
{
	u64 cur = max(p->offset, r->next);
	struct list_head *pos = &r->chunks;
	struct quic_inq_chunk *c;
	int err;

	if (cur >= end)
		return 0;
	/* Past everything held (what a peer sending in order leaves after a
	 * loss): straight to the tail, without walking the chunks.
	 */
	if (!list_empty(&r->chunks)) {
		c = list_last_entry(&r->chunks, struct quic_inq_chunk, list);
		if (c->offset + c->len <= cur)
			return quic_inq_place(inq, pos, p, cur, end, commit, charge, gfp);
	}
	list_for_each_entry(c, &r->chunks, list) {
		if (c->offset + c->len <= cur)
			continue;
		if (c->offset >= end) {
			pos = &c->list;
			break;
		}
		if (c->offset > cur) {
			err = quic_inq_place(inq, &c->list, p, cur, c->offset, commit, charge, gfp);
			if (err)
				return err;
		}
		cur = c->offset + c->len;
		if (cur >= end)
			return 0;
	}
	return quic_inq_place(inq, pos, p, cur, end, commit, charge, gfp);
}

/* Move @c, in order now, to the delivery queue. */
static void quic_inq_ready(struct quic_inq *inq, struct quic_inq_chunk *c, bool peeled)
{
	list_move_tail(&c->list, &inq->readq);
	quic_inq_queued(inq, c, peeled);
}

/* A CRYPTO chunk becoming contiguous at the level the tap watches. */
static bool quic_inq_tapped(const struct quic_inq *inq, const struct quic_inq_chunk *c)
{
	return inq->tap.mode != QUIC_INQ_TAP_OFF && c->type == QUIC_INQ_CRYPTO &&
	       c->level == inq->tap.level;
}

/*
 * Give the tap the bytes of @c. COPY keeps the first tap.cap bytes of the
 * level and leaves @c to the application; DIVERT takes @c away from it.
 * Return: -EMSGSIZE when a DIVERT tap cannot hold @c (its bytes are lost:
 * the caller closes the connection), 0 otherwise.
 */
static int quic_inq_tap_take(struct quic_inq *inq, struct quic_inq_chunk *c)
{
	struct quic_inq_tap *t = &inq->tap;
	u32 n = min(c->len, t->cap - t->len);
	int err = 0;

	if (t->mode == QUIC_INQ_TAP_DIVERT && n < c->len)
		err = -EMSGSIZE;
	else
		memcpy(t->buf + t->len, c->data, n);
	if (!err)
		t->len += n;
	if (t->mode == QUIC_INQ_TAP_COPY)
		quic_inq_ready(inq, c, false);
	else
		quic_inq_chunk_free(inq, c);
	return err;
}

/*
 * Copy in what is new of @p (bytes [p->offset, end)), refusing it whole when
 * the receive buffer cannot take it (a piece that starts at the reader's
 * position may use the room kept above the limit), then move what became
 * contiguous to the delivery queue (marked @peeled). *@last is the last
 * chunk moved, or NULL.
 */
static int quic_inq_reasm_add(struct quic_inq *inq, struct quic_inq_reasm *r,
			      const struct quic_inq_piece *p, u64 end, bool peeled, gfp_t gfp,
			      struct quic_inq_chunk **last)
{
	struct quic_inq_chunk *c, *tmp;
	u64 charge = 0;
	int err;

	*last = NULL;
	quic_inq_fill(inq, r, p, end, false, &charge, gfp);
	if (!charge)
		return 0;
	if (!quic_inq_fits(inq, charge) &&
	    !(p->offset <= r->next && quic_inq_fits_in_order(inq, charge)))
		return -ENOBUFS;
	if (!quic_inq_admit(inq, charge))
		return -ENOBUFS;
	/* A failure leaves the gaps filled so far in place: they are valid data,
	 * and a retransmission of the frame brings the rest.
	 */
	err = quic_inq_fill(inq, r, p, end, true, &charge, gfp);

	list_for_each_entry_safe(c, tmp, &r->chunks, list) {
		if (c->offset != r->next)
			break;
		r->next += c->len;
		if (quic_inq_tapped(inq, c)) {
			if (quic_inq_tap_take(inq, c))
				err = -EMSGSIZE;
			continue;
		}
		quic_inq_ready(inq, c, peeled);
		*last = c;
	}
	return err;
}

static struct quic_inq_stream *quic_inq_stream_find(struct quic_inq *inq, s64 id)
{
	struct quic_inq_stream *st;

	hlist_for_each_entry(st, quic_inq_bucket(inq, id), node)
		if (st->id == id)
			return st;
	return NULL;
}

static struct quic_inq_stream *quic_inq_stream_get(struct quic_inq *inq,
						   const struct quic_stream *s, gfp_t gfp)
{
	struct quic_inq_stream *st;

	st = quic_inq_stream_find(inq, s->id);
	if (st)
		return st;
	st = kmalloc(sizeof(*st), gfp);
	if (!st)
		return NULL;
	st->id = s->id;
	quic_inq_reasm_init(&st->reasm);
	/* Everything below the read offset has been read already. */
	st->reasm.next = s->recv.offset;
	st->peeled = s->peeled;
	hlist_add_head(&st->node, quic_inq_bucket(inq, s->id));
	return st;
}

/*
 * The stream has all its data up to the final size in the delivery queue
 * (RFC 9000 Section 3.2, "Recv All Data"): mark the end on the last chunk,
 * or queue an empty one when the FIN came after the last byte.
 */
static int quic_inq_stream_all_recvd(struct quic_inq *inq, struct quic_stream *s,
				     struct quic_inq_stream *st, struct quic_inq_chunk *last,
				     gfp_t gfp)
{
	if (!last) {
		/* The empty chunk that carries the end is held memory too. */
		if (!quic_inq_admit(inq, quic_inq_truesize(0)))
			return -ENOBUFS;
		last = quic_inq_chunk_new(inq, QUIC_INQ_STREAM, 0, gfp);
		if (!last)
			return -ENOMEM;
		last->id = s->id;
		last->offset = st->reasm.next;
		list_add_tail(&last->list, &inq->readq);
		quic_inq_queued(inq, last, st->peeled);
	}
	last->fin = 1;
	quic_stream_recv_set_state(s, QUIC_STREAM_RECV_STATE_RECVD);
	quic_inq_stream_free(inq, st);
	return 0;
}

/**
 * quic_inq_stream_recv - take the data of one STREAM frame
 * @inq: the queue
 * @s: the frame's stream, from quic_stream_recv_get()
 * @d: the frame's Stream ID, Offset and Stream Data (pointing into the packet)
 * @fin: the frame's FIN bit
 * @gfp: allocation flags (GFP_ATOMIC on the receive path)
 *
 * quic_stream_recv_data() applies the stream limit and the final size
 * rules (RFC 9000 Sections 4.1 and 4.5) first; then the credit the frame
 * used is added to the connection total, which must stay within the
 * MAX_DATA we advertised (Section 4.1). The bytes not received before are
 * copied; what becomes contiguous is queued for delivery. Once every byte
 * up to the final size has arrived the stream moves to Data Recvd and its
 * last chunk carries the FIN. Frames for a stream in Data Recvd or a reset
 * state are checked and then discarded (Section 3.2).
 *
 * Return: 0; -EOVERFLOW (FLOW_CONTROL_ERROR), -EFBIG (FINAL_SIZE_ERROR),
 * -EPROTO (STREAM_STATE_ERROR): close the connection with
 * quic_inq_transport_error(); -ENOBUFS when the receive buffer cannot hold
 * the new bytes and -ENOMEM when allocation failed: the packet should be
 * dropped unacknowledged, the checks already applied are idempotent, so
 * its retransmission is taken normally; -EINVAL when @d is not for @s.
 */
int quic_inq_stream_recv(struct quic_inq *inq, struct quic_stream *s,
			 const struct quic_frame_data *d, bool fin, gfp_t gfp)
{
	struct quic_inq_piece p = {
		.type = QUIC_INQ_STREAM,
		.id = s->id,
		.offset = d->offset,
		.data = d->data,
	};
	u64 highest = s->recv.highest;
	u8 state = s->recv.state;
	struct quic_inq_chunk *last;
	struct quic_inq_stream *st;
	int err;

	if (d->id != (u64)s->id)
		return -EINVAL;
	err = quic_stream_recv_data(s, d->offset, d->len, fin);
	if (err)
		return err;

	/* RFC 9000 Section 4.1: the highest offsets received over all streams
	 * count against the connection limit, duplicates adding nothing.
	 */
	inq->highest += s->recv.highest - highest;
	if (inq->highest > inq->max_data)
		return -EOVERFLOW;

	if (state != QUIC_STREAM_RECV_STATE_RECV && state != QUIC_STREAM_RECV_STATE_SIZE_KNOWN)
		return 0;

	st = quic_inq_stream_get(inq, s, gfp);
	if (!st)
		return -ENOMEM;
	err = quic_inq_reasm_add(inq, &st->reasm, &p, d->offset + d->len, st->peeled, gfp,
				 &last);
	if (err)
		return err;

	if (s->recv.state == QUIC_STREAM_RECV_STATE_SIZE_KNOWN &&
	    st->reasm.next == s->recv.finalsz)
		return quic_inq_stream_all_recvd(inq, s, st, last, gfp);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_stream_recv);

/* RFC 9000 Section 4.2: raise MAX_DATA once less than half of the window is
 * left open ahead of what the application consumed (the rule stream.c
 * applies to MAX_STREAM_DATA).
 */
static bool quic_inq_conn_update(struct quic_inq *inq)
{
	u64 window = inq->pressure ? inq->window / 4 : inq->window;
	u64 max;

	if (inq->max_data - inq->consumed >= window / 2)
		return false;
	max = min(inq->consumed + window, QUIC_VARINT_MAX);
	if (max <= inq->max_data)
		return false;
	inq->max_data = max;
	return true;
}

/**
 * quic_inq_stream_purge - drop everything held for one stream
 * @inq: the queue
 * @id: stream ID
 *
 * For a stream that is reset or released: its reassembly state and its
 * chunks waiting in the delivery queue are freed and uncharged. Flow
 * control is not touched.
 */
void quic_inq_stream_purge(struct quic_inq *inq, s64 id)
{
	struct quic_inq_stream *st;

	st = quic_inq_stream_find(inq, id);
	if (st)
		quic_inq_stream_free(inq, st);
	quic_inq_readq_purge(inq, QUIC_INQ_STREAM, id, 0);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_stream_purge);

/**
 * quic_inq_stream_reset - take a RESET_STREAM frame
 * @inq: the queue
 * @s: the frame's stream, from quic_stream_recv_get()
 * @finalsz: the frame's Final Size
 * @errcode: the frame's Application Protocol Error Code
 *
 * quic_stream_recv_reset() checks the final size (RFC 9000 Section 4.5)
 * and moves the stream to Reset Recvd. Every byte up to the final size
 * counts against the connection limit (Section 4.1); the data still held
 * for the stream is dropped and uncharged, and what the application had
 * not read is returned to the connection window (Section 4.5: both ends
 * account for the credit of a reset stream). A reset the stream ignores
 * (Data Recvd, or a repeated reset) changes nothing here either.
 *
 * Return: 1 when the credit returned makes a MAX_DATA frame due, with the
 * limit quic_inq_max_data() gives; 0 when not; -EOVERFLOW
 * (FLOW_CONTROL_ERROR), -EFBIG (FINAL_SIZE_ERROR) or -EPROTO
 * (STREAM_STATE_ERROR) to close the connection with.
 */
int quic_inq_stream_reset(struct quic_inq *inq, struct quic_stream *s, u64 finalsz,
			  u32 errcode)
{
	u64 highest = s->recv.highest;
	u8 state = s->recv.state;
	int err;

	err = quic_stream_recv_reset(s, finalsz, errcode);
	if (err)
		return err;
	if (s->recv.state == state)
		return 0;

	inq->highest += s->recv.highest - highest;
	if (inq->highest > inq->max_data)
		return -EOVERFLOW;

	quic_inq_stream_purge(inq, s->id);
	if (s->peeled)
		WRITE_ONCE(inq->peeled_seq, inq->peeled_seq + 1);
	inq->consumed += s->recv.finalsz - s->recv.offset;
	return quic_inq_conn_update(inq);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_stream_reset);

/**
 * quic_inq_tap_set - let the kernel read one level's CRYPTO stream itself
 * @inq: the queue
 * @level: encryption level to watch
 * @mode: QUIC_INQ_TAP_COPY: the first @cap bytes of the level are copied
 *	as they become contiguous, the application still gets them all;
 *	QUIC_INQ_TAP_DIVERT: contiguous bytes go to the tap only, at most
 *	@cap of them not consumed (quic_inq_tap_consume()) at any time;
 *	QUIC_INQ_TAP_OFF: stop (@level and @cap are ignored)
 * @cap: bytes the tap holds
 * @gfp: allocation flags
 *
 * A level has one reader: bytes that arrived before the tap was set went
 * to the application. Setting a tap replaces the previous one.
 *
 * Return: 0, -ENOMEM, or -EINVAL for a bad level or mode or a zero @cap.
 */
int quic_inq_tap_set(struct quic_inq *inq, u8 level, u8 mode, u32 cap, gfp_t gfp)
{
	struct quic_inq_tap *t = &inq->tap;
	u8 *buf = NULL;

	if (mode > QUIC_INQ_TAP_DIVERT)
		return -EINVAL;
	if (mode != QUIC_INQ_TAP_OFF) {
		if (level >= QUIC_CRYPTO_MAX || !cap)
			return -EINVAL;
		buf = kmalloc(cap, gfp);
		if (!buf)
			return -ENOMEM;
	}
	kfree(t->buf);
	t->buf = buf;
	t->len = 0;
	t->cap = buf ? cap : 0;
	t->level = level;
	t->mode = mode;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_tap_set);

/**
 * quic_inq_tap_consume - drop bytes from the front of the tap
 * @inq: the queue
 * @len: bytes done with (at most what the tap holds)
 */
void quic_inq_tap_consume(struct quic_inq *inq, u32 len)
{
	struct quic_inq_tap *t = &inq->tap;

	len = min(len, t->len);
	memmove(t->buf, t->buf + len, t->len - len);
	t->len -= len;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_tap_consume);

/**
 * quic_inq_crypto_recv - take the data of one CRYPTO frame
 * @inq: the queue
 * @level: encryption level of the packet it came in (&enum quic_crypto_level)
 * @d: the frame's Offset and Crypto Data (pointing into the packet)
 * @gfp: allocation flags (GFP_ATOMIC on the receive path)
 *
 * Each level is a byte stream of its own starting at offset 0 (RFC 9000
 * Section 19.6); its bytes are delivered in order, tagged with the level.
 * CRYPTO frames are not flow controlled, so data ending more than
 * %QUIC_INQ_CRYPTO_MAX_AHEAD bytes beyond the contiguous offset of the
 * level is refused (Section 7.5). Frames of a discarded level are ignored.
 *
 * Return: 0; -EMSGSIZE (CRYPTO_BUFFER_EXCEEDED) or -EBADMSG
 * (FRAME_ENCODING_ERROR, data beyond 2^62 - 1) to close the connection with;
 * -ENOBUFS or -ENOMEM: drop the packet unacknowledged; -EINVAL for an
 * unknown level.
 */
int quic_inq_crypto_recv(struct quic_inq *inq, u8 level, const struct quic_frame_data *d,
			 gfp_t gfp)
{
	struct quic_inq_piece p = {
		.type = QUIC_INQ_CRYPTO,
		.level = level,
		.offset = d->offset,
		.data = d->data,
	};
	struct quic_inq_chunk *last;
	struct quic_inq_reasm *r;
	u64 end;

	if (level >= QUIC_CRYPTO_MAX)
		return -EINVAL;
	if (inq->crypto_gone & BIT(level))
		return 0;
	if (d->offset > QUIC_VARINT_MAX || d->len > QUIC_VARINT_MAX - d->offset)
		return -EBADMSG;

	r = &inq->crypto[level];
	end = d->offset + d->len;
	if (end > r->next && end - r->next > QUIC_INQ_CRYPTO_MAX_AHEAD)
		return -EMSGSIZE;
	return quic_inq_reasm_add(inq, r, &p, end, false, gfp, &last);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_crypto_recv);

/**
 * quic_inq_crypto_offset - how much CRYPTO data of a level arrived in order
 * @inq: the queue
 * @level: encryption level
 *
 * Return: the offset of the first byte of the level not received yet.
 */
u64 quic_inq_crypto_offset(const struct quic_inq *inq, u8 level)
{
	if (level >= QUIC_CRYPTO_MAX)
		return 0;
	return inq->crypto[level].next;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_crypto_offset);

/**
 * quic_inq_crypto_discard - forget the CRYPTO data of a level
 * @inq: the queue
 * @level: encryption level whose keys are discarded (RFC 9001 Section 4.9)
 *
 * Frees its out-of-order data and its chunks not read yet; later CRYPTO
 * frames of the level are ignored.
 */
void quic_inq_crypto_discard(struct quic_inq *inq, u8 level)
{
	if (level >= QUIC_CRYPTO_MAX)
		return;
	quic_inq_reasm_purge(inq, &inq->crypto[level]);
	quic_inq_readq_purge(inq, QUIC_INQ_CRYPTO, 0, level);
	inq->crypto_gone |= BIT(level);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_crypto_discard);

/**
 * quic_inq_unread - bytes the application can read now
 * @inq: the queue
 *
 * What recvmsg() calls would return without waiting: the unread part of
 * every chunk in the delivery queue (in-order STREAM data, CRYPTO data,
 * datagrams). Out-of-order data waiting for a gap to fill is not counted.
 * This is SIOCINQ.
 *
 * Return: the byte count.
 */
u64 quic_inq_unread(const struct quic_inq *inq)
{
	const struct quic_inq_chunk *c;
	u64 n = 0;

	list_for_each_entry(c, &inq->readq, list)
		n += c->len - c->read;
	return n;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_unread);

/**
 * quic_inq_dgram_recv - take one DATAGRAM frame
 * @inq: the queue
 * @d: the frame's Datagram Data (pointing into the packet; may be empty)
 * @gfp: allocation flags (GFP_ATOMIC on the receive path)
 *
 * The datagram is queued whole, to be read as one message. DATAGRAM frames
 * are not flow controlled and may be dropped when they cannot be stored
 * (RFC 9221 Section 5.3): when %QUIC_INQ_DGRAM_MAX are queued, the receive
 * buffer is full or allocation fails, the new one is dropped and counted
 * in quic_inq_dgram_drops(). A dropped datagram is no connection error and
 * its packet is still acknowledged.
 *
 * Return: 0 when queued, -ENOBUFS when dropped.
 */
int quic_inq_dgram_recv(struct quic_inq *inq, const struct quic_frame_data *d, gfp_t gfp)
{
	struct quic_inq_chunk *c = NULL;

	if (inq->dgrams < inq->dgram_max && quic_inq_fits(inq, quic_inq_truesize(d->len)) &&
	    quic_inq_admit(inq, quic_inq_truesize(d->len)))
		c = quic_inq_chunk_new(inq, QUIC_INQ_DATAGRAM, d->len, gfp);
	if (!c) {
		inq->dgram_drops++;
		return -ENOBUFS;
	}
	memcpy(c->data, d->data, d->len);
	list_add_tail(&c->list, &inq->readq);
	quic_inq_queued(inq, c, false);
	inq->dgrams++;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_dgram_recv);

/**
 * quic_inq_event_recv - queue a notification for recvmsg()
 * @inq: the queue
 * @type: QUIC_EVENT_* (1..QUIC_EVENT_MAX)
 * @payload: the event's structure from the uapi header (its variable part
 *	included, e.g. a close phrase or a token), may be NULL when @len is 0
 * @len: bytes at @payload
 * @gfp: allocation flags
 *
 * The message recvmsg() returns with MSG_NOTIFICATION is one byte holding
 * @type followed by @payload. Notifications overtake data: each is queued
 * after the notifications already waiting and ahead of every data chunk,
 * so that the application learns of a reset or a close before it reads on
 * (a chunk read in part keeps its place behind them). Like DATAGRAM frames
 * they are charged to the receive buffer; past %QUIC_INQ_EVENT_MAX queued
 * ones, a full buffer, or a failed allocation, the new one is dropped and
 * counted in quic_inq_event_drops().
 *
 * Return: 0 when queued, -ENOBUFS when dropped, -EINVAL for a bad type.
 */
int quic_inq_event_recv(struct quic_inq *inq, u8 type, const void *payload, u32 len,
			gfp_t gfp)
{
	struct quic_inq_chunk *c = NULL, *pos;

	if (!type || type > QUIC_EVENT_MAX || len > U16_MAX)
		return -EINVAL;
	if (inq->events < QUIC_INQ_EVENT_MAX && quic_inq_fits(inq, quic_inq_truesize(1 + len)) &&
	    quic_inq_admit(inq, quic_inq_truesize(1 + len)))
		c = quic_inq_chunk_new(inq, QUIC_INQ_EVENT, 1 + len, gfp);
	if (!c) {
		inq->event_drops++;
		return -ENOBUFS;
	}
	c->data[0] = type;
	if (len)
		memcpy(c->data + 1, payload, len);
	/* Ahead of data, behind other events; a DATAGRAM the application
	 * has begun to read is finished first (its next read goes on).
	 */
	list_for_each_entry(pos, &inq->readq, list)
		if (pos->type != QUIC_INQ_EVENT &&
		    !(pos->type == QUIC_INQ_DATAGRAM && pos->read))
			break;
	list_add_tail(&c->list, &pos->list);
	quic_inq_queued(inq, c, false);
	inq->events++;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_event_recv);

/* @c continues the message described by @ri. */
static bool quic_inq_same_msg(const struct quic_inq_chunk *c, const struct quic_inq_rinfo *ri)
{
	if (c->type != ri->type)
		return false;
	if (c->type == QUIC_INQ_STREAM)
		return c->id == ri->stream_id;
	return c->level == ri->level;
}

/* Account @len bytes of stream data read: stream and connection windows. */
static void quic_inq_stream_consumed(struct quic_inq *inq, struct quic_stream_table *t,
				     u64 len, struct quic_inq_rinfo *ri)
{
	struct quic_stream *s = quic_stream_find(t, ri->stream_id);

	if (s) {
		if (len && quic_stream_recv_consume(s, len) == 1) {
			ri->stream_update = 1;
			ri->max_stream_data = s->recv.max_bytes;
		}
		/* RFC 9000 Section 3.2: "App Read All Data". */
		if (ri->fin)
			quic_stream_recv_set_state(s, QUIC_STREAM_RECV_STATE_READ);
	}
	inq->consumed += len;
	if (len && quic_inq_conn_update(inq)) {
		ri->conn_update = 1;
		ri->max_data = inq->max_data;
	}
}

/* Where a read of the connection starts: the head, or the first CRYPTO
 * chunk during the handshake (the TLS library is the reader then); the
 * chunks of peeled streams are passed over.
 */
static struct quic_inq_chunk *quic_inq_head(struct quic_inq *inq)
{
	struct quic_inq_chunk *c;

	if (!inq->crypto_only && !inq->peeled_queued)
		return list_first_entry_or_null(&inq->readq, struct quic_inq_chunk, list);
	list_for_each_entry(c, &inq->readq, list)
		if (inq->crypto_only ? c->type == QUIC_INQ_CRYPTO : !c->peeled)
			return c;
	return NULL;
}

/* Where a read of stream @id starts: its first chunk in the queue. */
static struct quic_inq_chunk *quic_inq_stream_head(struct quic_inq *inq, s64 id)
{
	struct quic_inq_chunk *c;

	list_for_each_entry(c, &inq->readq, list)
		if (c->type == QUIC_INQ_STREAM && c->id == id)
			return c;
	return NULL;
}

/**
 * quic_inq_head_type - what the next read would return
 * @inq: the queue
 *
 * Return: the &enum quic_inq_type of the head message, or -EAGAIN when
 * nothing is readable.
 */
int quic_inq_head_type(struct quic_inq *inq)
{
	struct quic_inq_chunk *c = quic_inq_head(inq);

	return c ? c->type : -EAGAIN;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_head_type);

/*
 * Copy the head message of the delivery queue to @to: the connection's
 * (@id < 0) or stream @id's, whose chunks are picked out of the queue. With
 * @take the message is taken: what was copied leaves the queue and stream
 * bytes are accounted in @t (quic_inq_read()); otherwise it stays as it was
 * (quic_inq_peek()).
 */
static int quic_inq_copy(struct quic_inq *inq, struct quic_stream_table *t, s64 id,
			 struct iov_iter *to, struct quic_inq_rinfo *ri, bool take)
{
	struct quic_inq_chunk *c, *tmp, *first;
	size_t copied = 0, left, want, n;

	memset(ri, 0, sizeof(*ri));
	first = id < 0 ? quic_inq_head(inq) : quic_inq_stream_head(inq, id);
	if (!first)
		return -EAGAIN;
	ri->type = first->type;
	ri->level = first->level;
	ri->stream_id = first->id;
	if (first->type == QUIC_INQ_DATAGRAM || first->type == QUIC_INQ_EVENT) {
		/* One message, or as much of its rest as @to holds: the next
		 * call goes on with what is left (draft-lxin-quic-socket-apis,
		 * sendmsg() and recvmsg(): MSG_EOR marks the end).
		 */
		left = first->len - first->read;
		want = min(left, iov_iter_count(to));
		if (copy_to_iter(first->data + first->read, want, to) < want)
			return -EFAULT;
		ri->trunc = want < left;
		if (take) {
			first->read += want;
			if (!ri->trunc)
				quic_inq_chunk_free(inq, first);
		}
		return want;
	}

	c = first;
	list_for_each_entry_safe_from(c, tmp, &inq->readq, list) {
		if (!quic_inq_same_msg(c, ri)) {
			if (id >= 0)
				continue;
			break;
		}
		left = c->len - c->read;
		if (left) {
			want = min(left, iov_iter_count(to));
			if (!want)
				break;
			n = copy_to_iter(c->data + c->read, want, to);
			if (take)
				c->read += n;
			copied += n;
			if (n < want && !copied)
				return -EFAULT;
			if (n < left)
				break;
		}
		if (c->fin)
			ri->fin = 1;
		if (take)
			quic_inq_chunk_free(inq, c);
		if (ri->fin)
			break;
	}
	if (take && ri->type == QUIC_INQ_STREAM)
		quic_inq_stream_consumed(inq, t, copied, ri);
	return copied;
}

/**
 * quic_inq_read - read the head of the delivery queue
 * @inq: the queue
 * @t: the connection's stream table, to account what is read
 * @to: destination
 * @ri: output: what was read and which flow control updates are due
 *
 * While &quic_inq.crypto_only is set, only CRYPTO data is read (the
 * oldest first), anything else staying queued.
 * One call returns one message: bytes of one stream (stopping after its
 * last byte, @ri->fin then set), bytes of one CRYPTO level, or one whole
 * DATAGRAM or notification, or as much of it as @to holds (@ri->trunc
 * then set: the next call returns more of it).
 * Chunks read in part keep the rest for the next call.
 * Stream bytes read are passed to quic_stream_recv_consume(), which may
 * make MAX_STREAM_DATA due, and to the connection window, which may make
 * MAX_DATA due (RFC 9000 Section 4.2); @ri tells the caller what to send.
 * The stream moves to Data Read when its FIN is read.
 *
 * Return: bytes copied (0 for an empty datagram or a FIN alone: see @ri),
 * -EAGAIN when nothing is queued, -EFAULT when nothing could be copied.
 */
int quic_inq_read(struct quic_inq *inq, struct quic_stream_table *t, struct iov_iter *to,
		  struct quic_inq_rinfo *ri)
{
	return quic_inq_copy(inq, t, -1, to, ri, true);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_read);

/**
 * quic_inq_head_continues - tell whether the next read continues a message
 * @inq: the queue
 * @ri: what the last quic_inq_read() returned
 *
 * Return: true when the head of the queue is more data of the same stream
 * (or CRYPTO level) as @ri.
 */
bool quic_inq_head_continues(struct quic_inq *inq, const struct quic_inq_rinfo *ri)
{
	struct quic_inq_chunk *c = quic_inq_head(inq);

	return c && (ri->type == QUIC_INQ_STREAM || ri->type == QUIC_INQ_CRYPTO) &&
	       quic_inq_same_msg(c, ri);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_head_continues);

/**
 * quic_inq_peek - copy the head message of the delivery queue, leaving it queued
 * @inq: the queue
 * @to: destination
 * @ri: output: what the message is, as quic_inq_read() reports it; no
 *	flow control update is ever due
 *
 * recvmsg(MSG_PEEK): the same bytes quic_inq_read() would return, but
 * nothing is consumed, freed or accounted, so the next read returns them
 * again. A DATAGRAM or notification too long for @to sets @ri->trunc.
 *
 * Return: bytes copied, -EAGAIN when nothing is queued, -EFAULT when
 * nothing could be copied.
 */
int quic_inq_peek(struct quic_inq *inq, struct iov_iter *to, struct quic_inq_rinfo *ri)
{
	return quic_inq_copy(inq, NULL, -1, to, ri, false);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_peek);

/**
 * quic_inq_stream_peel - give a stream's data to a socket of its own
 * @inq: the queue
 * @s: the stream
 *
 * draft-lxin-quic-socket-apis, QUIC_SOCKOPT_STREAM_PEELOFF: from now on the
 * stream's data, what is queued already and what comes later, is read with
 * quic_inq_read_stream() only; quic_inq_read() and quic_inq_readable()
 * pass it over.
 */
void quic_inq_stream_peel(struct quic_inq *inq, struct quic_stream *s)
{
	struct quic_inq_stream *st = quic_inq_stream_find(inq, s->id);
	struct quic_inq_chunk *c;

	s->peeled = 1;
	if (st)
		st->peeled = 1;
	list_for_each_entry(c, &inq->readq, list) {
		if (c->type != QUIC_INQ_STREAM || c->id != s->id || c->peeled)
			continue;
		c->peeled = 1;
		WRITE_ONCE(inq->peeled_queued, inq->peeled_queued + 1);
	}
	WRITE_ONCE(inq->peeled_seq, inq->peeled_seq + 1);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_stream_peel);

/**
 * quic_inq_stream_readable - is data (or the end) of stream @id queued?
 * @inq: the queue, its owner's lock held
 * @id: stream ID
 *
 * Return: true when quic_inq_read_stream() would return something.
 */
bool quic_inq_stream_readable(struct quic_inq *inq, s64 id)
{
	return quic_inq_stream_head(inq, id);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_stream_readable);

/**
 * quic_inq_read_stream - read stream @id's next data, wherever it is queued
 * @inq: the queue
 * @t: the connection's stream table, to account what is read
 * @id: stream ID (0 or more)
 * @to: destination
 * @ri: output, as for quic_inq_read()
 *
 * As quic_inq_read(), for the chunks of one stream: those of other
 * streams and any other message are left where they are.
 *
 * Return: as quic_inq_read().
 */
int quic_inq_read_stream(struct quic_inq *inq, struct quic_stream_table *t, s64 id,
			 struct iov_iter *to, struct quic_inq_rinfo *ri)
{
	return quic_inq_copy(inq, t, id, to, ri, true);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_read_stream);

/**
 * quic_inq_peek_stream - quic_inq_read_stream() that leaves the data queued
 * @inq: the queue
 * @id: stream ID (0 or more)
 * @to: destination
 * @ri: output, as for quic_inq_peek()
 *
 * Return: as quic_inq_peek().
 */
int quic_inq_peek_stream(struct quic_inq *inq, s64 id, struct iov_iter *to,
			 struct quic_inq_rinfo *ri)
{
	return quic_inq_copy(inq, NULL, id, to, ri, false);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_peek_stream);

/**
 * quic_inq_read_buf - quic_inq_read() into a kernel buffer
 * @inq: the queue
 * @t: the connection's stream table
 * @buf: destination
 * @len: room at @buf
 * @ri: output, as for quic_inq_read()
 *
 * Return: as quic_inq_read().
 */
int quic_inq_read_buf(struct quic_inq *inq, struct quic_stream_table *t, void *buf, u32 len,
		      struct quic_inq_rinfo *ri)
{
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	struct iov_iter to;

	iov_iter_kvec(&to, ITER_DEST, &kv, 1, len);
	return quic_inq_read(inq, t, &to, ri);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_read_buf);

/**
 * quic_inq_transport_error - the transport error an inqueue errno stands for
 * @err: 0 or a negative errno returned by this component
 *
 * Return: the RFC 9000 Section 20.1 code to close the connection with, or
 * QUIC_TRANSPORT_ERROR_NONE when @err calls for no close (0, -ENOBUFS,
 * -ENOMEM: the packet is dropped instead).
 */
u32 quic_inq_transport_error(int err)
{
	switch (err) {
	case -EMSGSIZE:
		return QUIC_TRANSPORT_ERROR_CRYPTO_BUF_EXCEEDED;
	case -ENOBUFS:
	case -ENOMEM:
		return QUIC_TRANSPORT_ERROR_NONE;
	default:
		return quic_stream_transport_error(err);
	}
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inq_transport_error);
