// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC send queue: frames waiting to be sent, packet filling and send-side
 * flow control (RFC 9000 Sections 4, 12.4, 13 and 19; RFC 9221).
 *
 * Loss recovery on the packets sent from here lives in recovery.c.
 */

#include <kunit/static_stub.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>

#include "outqueue.h"

/* Where a packet being filled stands. */
struct quic_outq_fill {
	struct quic_outq *outq;
	struct quic_outq_tx *tx;
	struct quic_outq_space *sp;
	struct quic_outq_packet *pkt;
	gfp_t gfp;
	u8 *p;
	u32 left;		/* bytes left in the buffer */
	u32 limit;		/* payload bytes ack-eliciting frames may reach */
	bool eliciting;
	bool padded;
	bool cc_blocked;	/* ack-eliciting data held back by the window */
	bool fc_blocked;	/* stream data held back by connection credit */
	bool nagle_held;	/* new stream data held back by Nagle's algorithm */
	bool ack;		/* an ACK frame written */
	bool stream_new;	/* new stream data written */
	u32 frames;		/* frames written into the packet */
};

static bool quic_outq_level_valid(u8 level)
{
	return level < QUIC_CRYPTO_MAX;
}

/* A frame without bytes of its own. */
static struct quic_outq_frame *quic_outq_frame_alloc(u8 type, gfp_t gfp)
{
	struct quic_outq_frame *fr;

	fr = kzalloc(sizeof(*fr), gfp);
	if (!fr)
		return NULL;
	INIT_LIST_HEAD(&fr->list);
	fr->type = type;
	return fr;
}

/* Drop @fr's hold on its bytes; the last frame frees them. */
static void quic_outq_bytes_put(struct quic_outq_frame *fr)
{
	if (fr->bytes && refcount_dec_and_test(&fr->bytes->ref)) {
		kfree(fr->bytes->data);
		kfree(fr->bytes);
	}
	fr->bytes = NULL;
	fr->buf = NULL;
}

/* A frame holding @len bytes copied from @from: for application data the
 * one copy on the way in. ERR_PTR(-EFAULT) when @from runs dry (a user
 * buffer that faults), ERR_PTR(-ENOMEM).
 */
static struct quic_outq_frame *
quic_outq_frame_new_iter(u8 type, struct iov_iter *from, u32 len, gfp_t gfp)
{
	struct quic_outq_frame *fr;

	fr = quic_outq_frame_alloc(type, gfp);
	if (!fr)
		return ERR_PTR(-ENOMEM);
	if (!len)
		return fr;
	fr->bytes = kmalloc(sizeof(*fr->bytes), gfp);
	if (fr->bytes)
		fr->bytes->data = kmalloc(len, gfp);
	if (!fr->bytes || !fr->bytes->data) {
		kfree(fr->bytes);
		kfree(fr);
		return ERR_PTR(-ENOMEM);
	}
	refcount_set(&fr->bytes->ref, 1);
	fr->buf = fr->bytes->data;
	if (!copy_from_iter_full(fr->buf, len, from)) {
		quic_outq_bytes_put(fr);
		kfree(fr);
		return ERR_PTR(-EFAULT);
	}
	fr->len = len;
	return fr;
}

/* The same from a kernel buffer; NULL on allocation failure. */
static struct quic_outq_frame *quic_outq_frame_new(u8 type, const u8 *data, u32 len, gfp_t gfp)
{
	struct kvec kv = { .iov_base = (void *)data, .iov_len = len };
	struct quic_outq_frame *fr;
	struct iov_iter it;

	iov_iter_kvec(&it, ITER_SOURCE, &kv, 1, len);
	fr = quic_outq_frame_new_iter(type, &it, len, gfp);
	return IS_ERR(fr) ? NULL : fr;
}

/**
 * quic_outq_frame_free - free a queued frame and release its accounting
 * @outq: the queue
 * @fr: the frame, already unlinked
 *
 * STREAM and DATAGRAM bytes leave the send buffer count; STREAM bytes also
 * leave their stream's unacknowledged count.
 */
void quic_outq_frame_free(struct quic_outq *outq, struct quic_outq_frame *fr)
{
	if (fr->type == QUIC_FRAME_STREAM || fr->type == QUIC_FRAME_DATAGRAM_LEN)
		outq->wmem -= min_t(u64, fr->len, outq->wmem);
	if (fr->type == QUIC_FRAME_STREAM && fr->os)
		fr->os->unacked -= min_t(u64, fr->len, fr->os->unacked);
	if (fr->ctrl) {
		outq->ctrl_held--;
		if (fr->type == QUIC_FRAME_RETIRE_CONNECTION_ID)
			outq->retire_held--;
	}
	quic_outq_bytes_put(fr);
	kfree(fr);
}

/**
 * quic_outq_frames_free - free every frame of a list
 * @outq: the queue
 * @head: the list, left empty
 */
void quic_outq_frames_free(struct quic_outq *outq, struct list_head *head)
{
	struct quic_outq_frame *fr, *tmp;

	list_for_each_entry_safe(fr, tmp, head, list) {
		list_del(&fr->list);
		quic_outq_frame_free(outq, fr);
	}
}

/**
 * quic_outq_packet_free - free a sent packet record and the frames it holds
 * @outq: the queue
 * @pkt: the packet, already unlinked
 */
void quic_outq_packet_free(struct quic_outq *outq, struct quic_outq_packet *pkt)
{
	quic_outq_frames_free(outq, &pkt->frames);
	kfree(pkt);
}

static void quic_outq_os_free(struct quic_outq *outq, struct quic_outq_stream *os)
{
	quic_outq_frames_free(outq, &os->pending);
	list_del(&os->node);
	list_del(&os->active);
	kfree(os);
}

static struct quic_outq_stream *quic_outq_os_find(const struct quic_outq *outq,
						  const struct quic_stream *s)
{
	struct quic_outq_stream *os;

	list_for_each_entry(os, &outq->streams_list, node)
		if (os->stream == s)
			return os;
	return NULL;
}

/**
 * quic_outq_init - set up an empty send queue
 * @outq: the queue
 * @pnspace: the connection's %QUIC_PNSPACE_MAX packet number spaces, indexed
 *	by quic_pnspace_index()
 * @cong: the congestion controller of the path packets are sent on
 * @streams: the connection's stream table
 * @is_serv: we are the server (a server has its peer's address validated,
 *	RFC 9002 Appendix A.8 PeerCompletedAddressValidation())
 *
 * The peer's connection flow control limit starts at 0 until
 * quic_outq_set_max_data() gives its initial_max_data.
 */
void quic_outq_init(struct quic_outq *outq, struct quic_pnspace *pnspace,
		    struct quic_cong *cong, struct quic_stream_table *streams, bool is_serv)
{
	int i;

	memset(outq, 0, sizeof(*outq));
	for (i = 0; i < QUIC_PNSPACE_MAX; i++) {
		INIT_LIST_HEAD(&outq->spaces[i].ctrl);
		INIT_LIST_HEAD(&outq->spaces[i].crypto);
		INIT_LIST_HEAD(&outq->spaces[i].retrans);
		INIT_LIST_HEAD(&outq->spaces[i].sent);
	}
	INIT_LIST_HEAD(&outq->streams_list);
	INIT_LIST_HEAD(&outq->active);
	INIT_LIST_HEAD(&outq->datagrams);
	outq->pnspace = pnspace;
	outq->cong = cong;
	outq->streams = streams;
	outq->is_serv = is_serv;
	outq->peer_validated = is_serv;
	outq->ack_delay_exponent = QUIC_DEF_ACK_DELAY_EXPONENT;
	outq->nagle_pn = -1;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_init);

/**
 * quic_outq_free - free every queued frame and sent packet record
 * @outq: the queue
 *
 * The congestion controller and packet number spaces are left as they are:
 * this is for a connection going away.
 */
void quic_outq_free(struct quic_outq *outq)
{
	struct quic_outq_packet *pkt, *tmp;
	int i;

	for (i = 0; i < QUIC_PNSPACE_MAX; i++) {
		struct quic_outq_space *sp = &outq->spaces[i];

		list_for_each_entry_safe(pkt, tmp, &sp->sent, list) {
			list_del(&pkt->list);
			quic_outq_packet_free(outq, pkt);
		}
		quic_outq_frames_free(outq, &sp->ctrl);
		quic_outq_frames_free(outq, &sp->crypto);
		quic_outq_frames_free(outq, &sp->retrans);
		sp->eliciting = 0;
		sp->ack_only = 0;
		sp->probe = 0;
	}
	quic_outq_data_drop(outq);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_free);

/**
 * quic_outq_data_drop - drop every stream's queued data and every DATAGRAM
 * @outq: the queue
 */
void quic_outq_data_drop(struct quic_outq *outq)
{
	struct quic_outq_stream *os, *otmp;

	list_for_each_entry_safe(os, otmp, &outq->streams_list, node)
		quic_outq_os_free(outq, os);
	quic_outq_frames_free(outq, &outq->datagrams);
}

/**
 * quic_outq_set_ack_delay_exponent - our ack_delay_exponent transport parameter
 * @outq: the queue
 * @exponent: the value we announced (RFC 9000 Section 18.2), at most 20
 *
 * ACK frames we send scale their ACK Delay by 2^@exponent (Section 19.3).
 */
void quic_outq_set_ack_delay_exponent(struct quic_outq *outq, u8 exponent)
{
	outq->ack_delay_exponent = min_t(u8, exponent, QUIC_MAX_ACK_DELAY_EXPONENT);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_set_ack_delay_exponent);

/* The control frames the peer can ask for faster than it acknowledges them. */
static bool quic_outq_is_answer(u8 type)
{
	return type == QUIC_FRAME_PATH_CHALLENGE || type == QUIC_FRAME_PATH_RESPONSE ||
	       type == QUIC_FRAME_NEW_CONNECTION_ID || type == QUIC_FRAME_RETIRE_CONNECTION_ID;
}

/**
 * quic_outq_ctrl_append - queue a control frame
 * @outq: the queue
 * @level: encryption level to send it at
 * @f: the frame; byte fields (NEW_TOKEN token, CONNECTION_CLOSE reason) are copied
 * @gfp: allocation flags
 *
 * For any frame but PADDING, ACK, CRYPTO, STREAM and DATAGRAM, which have
 * their own paths. A MAX_DATA, MAX_STREAMS or NEW_TOKEN frame replaces one
 * of its type still waiting; the MAX_DATA value is what a lost MAX_DATA is resent
 * with (RFC 9000 Section 13.3). A PATH_RESPONSE replaces one still
 * waiting: when the window holds answers back, only the newest challenge
 * is answered (the peer sends another if it still wants one, Section
 * 8.2.2), so a flood of PATH_CHALLENGE frames holds one frame. A
 * PATH_CHALLENGE (a server validating the client's newest address, Section
 * 9.3) replaces one still waiting as well: that one was for an address the
 * client has left, so a client changing its address on every packet holds
 * one frame too, and never uses up the room for answers.
 *
 * Return: 0, -EINVAL for a frame type not taken here or not allowed at
 * @level (RFC 9000 Table 3), -ENOSPC for an answer to the peer when
 * %QUIC_OUTQ_CTRL_MAX of them are held already, -ENOMEM.
 */
int quic_outq_ctrl_append(struct quic_outq *outq, u8 level, const struct quic_frame *f,
			  gfp_t gfp)
{
	struct quic_outq_frame *fr, *old, *tmp;
	struct quic_outq_space *sp;
	const u8 *data = NULL;
	bool answer;
	u32 len = 0;

	/* The KUnit suites make it fail to reach its callers' error paths. */
	KUNIT_STATIC_STUB_REDIRECT(quic_outq_ctrl_append, outq, level, f, gfp);
	if (!quic_outq_level_valid(level) || !quic_frame_allowed(f->type, level))
		return -EINVAL;
	switch (f->type) {
	case QUIC_FRAME_PADDING:
	case QUIC_FRAME_ACK:
	case QUIC_FRAME_ACK_ECN:
	case QUIC_FRAME_CRYPTO:
	case QUIC_FRAME_STREAM ... QUIC_FRAME_STREAM + 7:
	case QUIC_FRAME_DATAGRAM:
	case QUIC_FRAME_DATAGRAM_LEN:
		return -EINVAL;
	case QUIC_FRAME_NEW_TOKEN:
		data = f->data.data;
		len = f->data.len;
		break;
	case QUIC_FRAME_CONNECTION_CLOSE:
	case QUIC_FRAME_CONNECTION_CLOSE_APP:
		data = f->close.phrase;
		len = f->close.phrase_len;
		break;
	default:
		break;
	}

	sp = &outq->spaces[quic_pnspace_index(level)];
	if (f->type == QUIC_FRAME_PATH_RESPONSE || f->type == QUIC_FRAME_PATH_CHALLENGE) {
		list_for_each_entry_safe(old, tmp, &sp->ctrl, list) {
			if (old->type != f->type)
				continue;
			list_del(&old->list);
			quic_outq_frame_free(outq, old);
		}
	}
	answer = quic_outq_is_answer(f->type);
	if (answer && outq->ctrl_held >= QUIC_OUTQ_CTRL_MAX)
		return -ENOSPC;

	fr = quic_outq_frame_new(f->type, data, len, gfp);
	if (!fr)
		return -ENOMEM;
	fr->ctrl = answer;
	outq->ctrl_held += answer;
	if (f->type == QUIC_FRAME_RETIRE_CONNECTION_ID)
		outq->retire_held++;
	fr->f = *f;
	fr->len = 0;
	if (f->type == QUIC_FRAME_NEW_TOKEN)
		fr->f.data.data = fr->buf;
	else if (f->type == QUIC_FRAME_CONNECTION_CLOSE ||
		 f->type == QUIC_FRAME_CONNECTION_CLOSE_APP)
		fr->f.close.phrase = fr->buf;

	if (f->type == QUIC_FRAME_MAX_DATA)
		outq->recv_max_data = max(outq->recv_max_data, f->limit.max);
	/* Limits only grow: a newer one makes a waiting one pointless; so
	 * does a newer token (an application asking for many holds one).
	 */
	if (f->type == QUIC_FRAME_MAX_DATA || f->type == QUIC_FRAME_MAX_STREAMS_BIDI ||
	    f->type == QUIC_FRAME_MAX_STREAMS_UNI || f->type == QUIC_FRAME_NEW_TOKEN) {
		list_for_each_entry_safe(old, tmp, &sp->ctrl, list) {
			if (old->type != f->type)
				continue;
			list_del(&old->list);
			quic_outq_frame_free(outq, old);
		}
	}
	list_add_tail(&fr->list, &sp->ctrl);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_ctrl_append);

/**
 * quic_outq_crypto_append - queue handshake bytes in CRYPTO frames
 * @outq: the queue
 * @level: QUIC_CRYPTO_INITIAL, QUIC_CRYPTO_HANDSHAKE or QUIC_CRYPTO_APP
 *	(0-RTT packets carry no CRYPTO frames, RFC 9000 Table 3)
 * @data: the bytes
 * @len: their number
 * @gfp: allocation flags
 *
 * Each level has its own CRYPTO stream starting at offset 0 (RFC 9000
 * Section 19.6); the bytes get the next offsets of that level.
 *
 * Return: 0, -EINVAL for a bad level or an offset beyond 2^62 - 1, -ENOMEM.
 */
int quic_outq_crypto_append(struct quic_outq *outq, u8 level, const u8 *data, u32 len,
			    gfp_t gfp)
{
	struct quic_outq_frame *fr;
	struct quic_outq_space *sp;

	if (!quic_outq_level_valid(level) || level == QUIC_CRYPTO_EARLY)
		return -EINVAL;
	sp = &outq->spaces[quic_pnspace_index(level)];
	if (!len)
		return 0;
	if (sp->crypto_offset + len > QUIC_VARINT_MAX)
		return -EINVAL;
	fr = quic_outq_frame_new(QUIC_FRAME_CRYPTO, data, len, gfp);
	if (!fr)
		return -ENOMEM;
	fr->offset = sp->crypto_offset;
	sp->crypto_offset += len;
	list_add_tail(&fr->list, &sp->crypto);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_crypto_append);

/**
 * quic_outq_stream_append_iter - queue stream data taken from an iterator
 * @outq: the queue
 * @s: the stream, with a sending part in Ready or Send
 * @from: where the bytes are (a user buffer for sendmsg()); advanced by
 *	@len on success
 * @len: their number (0 with @fin to end the stream)
 * @fin: these bytes end the stream
 * @gfp: allocation flags
 *
 * The bytes are copied once, from @from into the buffer of the frame that
 * holds them until acknowledged, so that they can be sent again (RFC 9000
 * Section 13.3); they count in quic_outq_wmem() until then. They take the
 * next offsets of the stream. Flow control is applied when they are sent,
 * not here. Nothing is queued when this fails.
 *
 * Return: 0; -EPIPE when the FIN was queued already or the sending part is
 * finished or reset; -EINVAL for a stream we cannot send on or an offset
 * beyond 2^62 - 1; -EFAULT when @from could not be read in full; -ENOMEM.
 */
int quic_outq_stream_append_iter(struct quic_outq *outq, struct quic_stream *s,
				 struct iov_iter *from, u32 len, bool fin, gfp_t gfp)
{
	struct quic_outq_stream *os;
	struct quic_outq_frame *fr;
	bool created = false;
	int err;

	err = quic_stream_send_writable(s);
	if (err)
		return err;
	if (!len && !fin)
		return 0;

	os = quic_outq_os_find(outq, s);
	if (os && os->fin_queued)
		return -EPIPE;
	if (!os) {
		os = kzalloc(sizeof(*os), gfp);
		if (!os)
			return -ENOMEM;
		os->stream = s;
		os->offset = s->send.bytes;
		INIT_LIST_HEAD(&os->pending);
		INIT_LIST_HEAD(&os->active);
		list_add_tail(&os->node, &outq->streams_list);
		created = true;
	}
	err = -EINVAL;
	if (os->offset + len > QUIC_VARINT_MAX)
		goto err;

	fr = quic_outq_frame_new_iter(QUIC_FRAME_STREAM, from, len, gfp);
	if (IS_ERR(fr)) {
		err = PTR_ERR(fr);
		goto err;
	}
	fr->os = os;
	fr->offset = os->offset;
	fr->fin = fin;
	fr->fresh = 1;
	os->offset += len;
	os->unacked += len;
	os->fin_queued = fin;
	outq->wmem += len;
	list_add_tail(&fr->list, &os->pending);
	if (list_empty(&os->active))
		list_add_tail(&os->active, &outq->active);
	return 0;

err:
	if (created)
		quic_outq_os_free(outq, os);
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_stream_append_iter);

/**
 * quic_outq_stream_append - queue stream data from a kernel buffer
 * @outq: the queue
 * @s: the stream, with a sending part in Ready or Send
 * @data: the bytes, copied
 * @len: their number (0 with @fin to end the stream)
 * @fin: these bytes end the stream
 * @gfp: allocation flags
 *
 * quic_outq_stream_append_iter() over @data.
 *
 * Return: as quic_outq_stream_append_iter(), never -EFAULT.
 */
int quic_outq_stream_append(struct quic_outq *outq, struct quic_stream *s, const u8 *data,
			    u32 len, bool fin, gfp_t gfp)
{
	struct kvec kv = { .iov_base = (void *)data, .iov_len = len };
	struct iov_iter it;

	iov_iter_kvec(&it, ITER_SOURCE, &kv, 1, len);
	return quic_outq_stream_append_iter(outq, s, &it, len, fin, gfp);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_stream_append);

/**
 * quic_outq_datagram_append_iter - queue a DATAGRAM frame (RFC 9221)
 * @outq: the queue
 * @from: where the datagram is (a user buffer for sendmsg()); advanced by
 *	@len on success
 * @len: its length; the caller checked it against the peer's
 *	max_datagram_frame_size
 * @gfp: allocation flags
 *
 * DATAGRAM frames are sent in 1-RTT (or 0-RTT) packets after the stream
 * data, and are freed as soon as they are sent: they are never
 * retransmitted (RFC 9221 Section 5.2). The bytes are copied once, into
 * the frame.
 *
 * Return: 0, -EFAULT when @from could not be read in full, or -ENOMEM.
 */
int quic_outq_datagram_append_iter(struct quic_outq *outq, struct iov_iter *from, u32 len,
				   gfp_t gfp)
{
	struct quic_outq_frame *fr;

	fr = quic_outq_frame_new_iter(QUIC_FRAME_DATAGRAM_LEN, from, len, gfp);
	if (IS_ERR(fr))
		return PTR_ERR(fr);
	outq->wmem += len;
	list_add_tail(&fr->list, &outq->datagrams);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_datagram_append_iter);

/**
 * quic_outq_datagram_append - queue a DATAGRAM frame from a kernel buffer
 * @outq: the queue
 * @data: the datagram, copied
 * @len: its length, checked by the caller
 * @gfp: allocation flags
 *
 * quic_outq_datagram_append_iter() over @data.
 *
 * Return: 0 or -ENOMEM.
 */
int quic_outq_datagram_append(struct quic_outq *outq, const u8 *data, u32 len, gfp_t gfp)
{
	struct kvec kv = { .iov_base = (void *)data, .iov_len = len };
	struct iov_iter it;

	iov_iter_kvec(&it, ITER_SOURCE, &kv, 1, len);
	return quic_outq_datagram_append_iter(outq, &it, len, gfp);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_datagram_append);

/**
 * quic_outq_unsent - STREAM and DATAGRAM bytes never sent yet
 * @outq: the queue
 *
 * New data still waiting in the streams' queues (for the congestion
 * window, flow control or the pacer) plus queued datagrams; bytes sent
 * once and awaiting acknowledgment, or waiting for retransmission, are not
 * counted. This is SIOCOUTQNSD; quic_outq_wmem() (SIOCOUTQ) counts both.
 *
 * Return: the byte count.
 */
u64 quic_outq_unsent(const struct quic_outq *outq)
{
	const struct quic_outq_stream *os;
	const struct quic_outq_frame *fr;
	u64 n = 0;

	list_for_each_entry(os, &outq->streams_list, node)
		list_for_each_entry(fr, &os->pending, list)
			n += fr->len;
	list_for_each_entry(fr, &outq->datagrams, list)
		n += fr->len;
	return n;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_unsent);

static void quic_outq_purge_list(struct quic_outq *outq, struct list_head *head,
				 struct quic_outq_stream *os)
{
	struct quic_outq_frame *fr, *tmp;

	list_for_each_entry_safe(fr, tmp, head, list) {
		if (fr->type != QUIC_FRAME_STREAM || fr->os != os)
			continue;
		list_del(&fr->list);
		quic_outq_frame_free(outq, fr);
	}
}

/**
 * quic_outq_stream_purge - forget every STREAM frame of a stream
 * @outq: the queue
 * @s: the stream
 *
 * For a stream whose sending part was reset (once RESET_STREAM is sent no
 * STREAM frame is needed, RFC 9000 Section 13.3) and before a stream is
 * released. Frames waiting and frames in sent packets are dropped; the
 * packets themselves stay in flight.
 */
void quic_outq_stream_purge(struct quic_outq *outq, struct quic_stream *s)
{
	struct quic_outq_stream *os = quic_outq_os_find(outq, s);
	struct quic_outq_packet *pkt;
	int i;

	if (!os)
		return;
	for (i = 0; i < QUIC_PNSPACE_MAX; i++) {
		quic_outq_purge_list(outq, &outq->spaces[i].retrans, os);
		list_for_each_entry(pkt, &outq->spaces[i].sent, list)
			quic_outq_purge_list(outq, &pkt->frames, os);
	}
	quic_outq_os_free(outq, os);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_stream_purge);

/**
 * quic_outq_has_data - is there something to send at a level
 * @outq: the queue
 * @level: encryption level
 *
 * Flow control and the congestion window are not considered.
 *
 * Return: true when frames wait in the level's space (for the Application
 * space: stream data and DATAGRAM frames too) or an ACK frame is due (owed
 * and not allowed to wait for the ACK timer).
 */
bool quic_outq_has_data(const struct quic_outq *outq, u8 level)
{
	u8 idx = quic_pnspace_index(level);
	const struct quic_outq_space *sp = &outq->spaces[idx];

	if (!list_empty(&sp->ctrl) || !list_empty(&sp->crypto) || !list_empty(&sp->retrans))
		return true;
	if (level != QUIC_CRYPTO_EARLY && outq->pnspace[idx].need_sack &&
	    !outq->pnspace[idx].ack_delayed)
		return true;
	return idx == QUIC_CRYPTO_APP &&
	       (!list_empty(&outq->active) || !list_empty(&outq->datagrams));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_has_data);

/**
 * quic_outq_path_frame_pending - is a PATH_CHALLENGE or PATH_RESPONSE waiting
 * @outq: the queue
 *
 * RFC 9000 Section 8.2.1: the datagram carrying one is expanded to 1200
 * bytes (as far as the anti-amplification limit allows).
 *
 * Return: true when one waits in the Application space, new or to resend.
 */
bool quic_outq_path_frame_pending(const struct quic_outq *outq)
{
	const struct quic_outq_space *sp = &outq->spaces[quic_pnspace_index(QUIC_CRYPTO_APP)];
	const struct list_head *lists[] = { &sp->ctrl, &sp->retrans };
	const struct quic_outq_frame *fr;
	int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		list_for_each_entry(fr, lists[i], list)
			if (fr->type == QUIC_FRAME_PATH_CHALLENGE ||
			    fr->type == QUIC_FRAME_PATH_RESPONSE)
				return true;
	return false;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_path_frame_pending);

/**
 * quic_outq_set_max_data - the peer's connection flow control limit
 * @outq: the queue
 * @max: initial_max_data, or the Maximum Data of a MAX_DATA frame
 *
 * The limit only grows: a smaller value is ignored (RFC 9000 Section 4.1).
 * A raise ends the DATA_BLOCKED state for the old limit.
 *
 * Return: true when the limit grew.
 */
bool quic_outq_set_max_data(struct quic_outq *outq, u64 max)
{
	if (max <= outq->max_data)
		return false;
	outq->max_data = max;
	return true;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_set_max_data);

/**
 * quic_outq_set_max_stream_data - apply a MAX_STREAM_DATA frame
 * @outq: the queue
 * @s: the stream
 * @max: Maximum Stream Data
 *
 * Return: true when the stream's limit grew (quic_stream_send_max_data()).
 */
bool quic_outq_set_max_stream_data(struct quic_outq *outq, struct quic_stream *s, u64 max)
{
	return quic_stream_send_max_data(s, max);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_set_max_stream_data);

/* Queue DATA_BLOCKED and STREAM_DATA_BLOCKED (RFC 9000 Sections 4.1, 19.12,
 * 19.13) once per limit, when stream data waits on it. Allocation failure
 * only delays the signal to a later packet.
 */
static void quic_outq_blocked(struct quic_outq_fill *c)
{
	struct quic_outq *outq = c->outq;
	struct quic_frame f = {};
	struct quic_outq_stream *os;
	struct quic_outq_frame *fr;

	list_for_each_entry(os, &outq->active, active) {
		fr = list_first_entry(&os->pending, struct quic_outq_frame, list);
		if (!fr->len)
			continue;
		if (outq->data_sent >= outq->max_data &&
		    outq->data_blocked_at != outq->max_data + 1) {
			f.type = QUIC_FRAME_DATA_BLOCKED;
			f.limit.max = outq->max_data;
			if (!quic_outq_ctrl_append(outq, QUIC_CRYPTO_APP, &f, c->gfp))
				outq->data_blocked_at = outq->max_data + 1;
		}
		if (!quic_stream_send_credit(os->stream) &&
		    os->blocked_at != os->stream->send.max_bytes + 1) {
			f.type = QUIC_FRAME_STREAM_DATA_BLOCKED;
			f.limit.id = os->stream->id;
			f.limit.max = os->stream->send.max_bytes;
			if (!quic_outq_ctrl_append(outq, QUIC_CRYPTO_APP, &f, c->gfp))
				os->blocked_at = os->stream->send.max_bytes + 1;
		}
	}
}

/* Bytes an ack-eliciting frame may still take in this packet. */
static u32 quic_outq_avail(const struct quic_outq_fill *c)
{
	u32 used = c->tx->room - c->left;

	return c->limit > used ? c->limit - used : 0;
}

static int quic_outq_put(struct quic_outq_fill *c, const struct quic_frame *f)
{
	u32 avail = quic_outq_avail(c), room = avail;
	int err;

	err = quic_frame_encode(&c->p, &room, f);
	if (err)
		return err;
	c->left -= avail - room;
	c->eliciting |= quic_frame_ack_eliciting(f->type);
	return 0;
}

/* Frame header bytes of a STREAM or CRYPTO frame carrying @len bytes. */
static u32 quic_outq_data_hdr(const struct quic_outq_frame *fr, u64 len)
{
	u32 hdr = 1 + quic_var_len(len);

	if (fr->type == QUIC_FRAME_CRYPTO)
		return hdr + quic_var_len(fr->offset);
	hdr += quic_var_len(fr->os->stream->id);
	if (fr->offset)
		hdr += quic_var_len(fr->offset);
	return hdr;
}

/* Write the first @n bytes of a STREAM or CRYPTO frame; what is left stays
 * queued where it is. Return the frame that now describes the bytes sent,
 * moved into the packet, or NULL on allocation failure.
 */
static struct quic_outq_frame *quic_outq_data_take(struct quic_outq_fill *c,
						   struct quic_outq_frame *fr, u32 n)
{
	struct quic_outq_frame *part;
	struct quic_frame f = {};

	if (n < fr->len) {
		/* The part points into the same bytes: nothing is copied. */
		part = quic_outq_frame_alloc(fr->type, c->gfp);
		if (!part)
			return NULL;
		part->bytes = fr->bytes;
		refcount_inc(&part->bytes->ref);
		part->buf = fr->buf;
		part->head = fr->head;
		part->len = n;
		part->os = fr->os;
		part->offset = fr->offset;
		part->fresh = fr->fresh;
		fr->head += n;
		fr->offset += n;
		/* The bytes move to @part: the totals of quic_outq_wmem() and
		 * of the stream's unacknowledged bytes stay as they are.
		 */
		fr->len -= n;
	} else {
		part = fr;
		list_del(&fr->list);
	}

	f.type = part->type;
	f.data.offset = part->offset;
	f.data.data = part->buf + part->head;
	f.data.len = part->len;
	if (part->type == QUIC_FRAME_STREAM) {
		f.type |= QUIC_STREAM_BIT_LEN;
		if (part->offset)
			f.type |= QUIC_STREAM_BIT_OFF;
		if (part->fin)
			f.type |= QUIC_STREAM_BIT_FIN;
		f.data.id = part->os->stream->id;
	}
	WARN_ON_ONCE(quic_outq_put(c, &f));
	list_add_tail(&part->list, &c->pkt->frames);
	c->frames++;
	return part;
}

/* How many of @fr's bytes fit in @avail bytes of frame, at most @max. */
static u32 quic_outq_data_fit(const struct quic_outq_frame *fr, u32 avail, u64 max)
{
	u64 want = min_t(u64, fr->len, max);
	u32 hdr = quic_outq_data_hdr(fr, min_t(u64, want, avail));

	if (avail < hdr || (avail == hdr && want))
		return U32_MAX;
	return min_t(u64, want, avail - hdr);
}

/* Write STREAM or CRYPTO frames from @head while they fit. */
static void quic_outq_data_list(struct quic_outq_fill *c, struct list_head *head)
{
	struct quic_outq_frame *fr, *tmp;
	u32 n;

	list_for_each_entry_safe(fr, tmp, head, list) {
		if (fr->type != QUIC_FRAME_STREAM && fr->type != QUIC_FRAME_CRYPTO)
			continue;
		if (!quic_frame_allowed(fr->type, c->tx->level))
			continue;
		n = quic_outq_data_fit(fr, quic_outq_avail(c), fr->len);
		if (n == U32_MAX || (!n && fr->len))
			break;
		if (!quic_outq_data_take(c, fr, n))
			break;
	}
}

/* Write control frames from @head while they fit; the ones that are not
 * repaired after a loss are freed once written.
 */
static void quic_outq_ctrl_list(struct quic_outq_fill *c, struct list_head *head)
{
	struct quic_outq_frame *fr, *tmp;

	list_for_each_entry_safe(fr, tmp, head, list) {
		if (fr->type == QUIC_FRAME_STREAM || fr->type == QUIC_FRAME_CRYPTO)
			continue;
		if (!quic_frame_allowed(fr->type, c->tx->level))
			continue;
		if (quic_outq_put(c, &fr->f))
			continue;
		list_del(&fr->list);
		c->frames++;
		switch (fr->type) {
		case QUIC_FRAME_PING:
		case QUIC_FRAME_PATH_CHALLENGE:
		case QUIC_FRAME_PATH_RESPONSE:
		case QUIC_FRAME_CONNECTION_CLOSE:
		case QUIC_FRAME_CONNECTION_CLOSE_APP:
			quic_outq_frame_free(c->outq, fr);
			break;
		default:
			list_add_tail(&fr->list, &c->pkt->frames);
			break;
		}
	}
}

/* One STREAM frame of new data from @os, within both flow control limits.
 * Return true if a frame was written.
 */
static bool quic_outq_stream_one(struct quic_outq_fill *c, struct quic_outq_stream *os)
{
	struct quic_outq *outq = c->outq;
	struct quic_outq_frame *fr, *part;
	u64 credit;
	bool fin;
	u32 n;

	fr = list_first_entry(&os->pending, struct quic_outq_frame, list);
	credit = outq->max_data > outq->data_sent ? outq->max_data - outq->data_sent : 0;
	if (fr->len && !credit)
		c->fc_blocked = true;
	credit = min(credit, quic_stream_send_credit(os->stream));
	if (fr->len && !credit)
		return false;
	if (os->stream->send.state != QUIC_STREAM_SEND_STATE_READY &&
	    os->stream->send.state != QUIC_STREAM_SEND_STATE_SEND)
		return false;

	n = quic_outq_data_fit(fr, quic_outq_avail(c), credit);
	if (n == U32_MAX || (!n && fr->len))
		return false;
	fin = fr->fin && n == fr->len;
	part = quic_outq_data_take(c, fr, n);
	if (!part)
		return false;
	/* Within the credit and in Ready or Send: this cannot fail. */
	WARN_ON_ONCE(quic_stream_send_data(os->stream, n, fin));
	part->fresh = 0;
	part->fin = fin;
	outq->data_sent += n;
	c->stream_new = true;
	return true;
}

/* Unused room below which a packet of stream data counts as full: about a
 * STREAM frame header with all its fields.
 */
#define QUIC_OUTQ_NAGLE_SLACK	24

/*
 * RFC 9000 Section 13: "A sender MAY wait for a short period of time to
 * collect multiple frames before sending a packet that is not maximally
 * packed", delaying "conservatively". Nagle's algorithm in the form Linux
 * TCP uses (Minshall's): new stream data too short to fill the rest of the
 * packet waits only while the last packet that went out part-filled with
 * stream data is unacknowledged, so at most one such packet is in flight
 * and the wait ends with its acknowledgment (or with its loss being
 * declared, which empties the flight or acknowledges a later packet).
 * Writes that add up to a full packet go at once, and data that ends a
 * stream is never held: the last piece of a message or request is what a
 * peer waits for. Not for PTO probes. While corked (MSG_MORE), short data
 * waits whatever is in flight, FIN included.
 */
static bool quic_outq_nagle_hold(struct quic_outq_fill *c, const struct quic_pnspace *space)
{
	u32 avail = quic_outq_avail(c);
	struct quic_outq *outq = c->outq;
	struct quic_outq_stream *os;
	struct quic_outq_frame *fr;
	u64 n = 0;

	if (c->sp->probe)
		return false;
	if (!outq->corked &&
	    (!c->tx->nagle || outq->nagle_pn < 0 || space->max_pn_acked_seen >= outq->nagle_pn ||
	     !quic_cong_in_flight(outq->cong)))
		return false;
	list_for_each_entry(os, &outq->active, active) {
		/* A stream on the active list still has its FIN to send. */
		if (os->fin_queued && !outq->corked)
			return false;
		list_for_each_entry(fr, &os->pending, list) {
			n += fr->len;
			if (n >= avail)
				return false;
		}
	}
	return n > 0;
}

/* New stream data, one frame per stream in turn (round robin), so that
 * streams share packets fairly (RFC 9000 Section 2.3 leaves the policy to
 * us). A stream that wrote goes to the back of the line.
 */
static void quic_outq_streams(struct quic_outq_fill *c)
{
	struct quic_outq *outq = c->outq;
	struct quic_outq_stream *os;
	u32 idle = 0, n = 0;

	list_for_each_entry(os, &outq->active, active)
		n++;
	while (!list_empty(&outq->active) && idle < n && quic_outq_avail(c)) {
		os = list_first_entry(&outq->active, struct quic_outq_stream, active);
		idle = quic_outq_stream_one(c, os) ? 0 : idle + 1;
		if (list_empty(&os->pending)) {
			list_del_init(&os->active);
			n--;
			continue;
		}
		list_move_tail(&os->active, &outq->active);
	}
}

/* DATAGRAM frames that fit, in order; freed once written. */
static void quic_outq_datagrams(struct quic_outq_fill *c)
{
	struct quic_outq_frame *fr, *tmp;
	struct quic_frame f = {};

	list_for_each_entry_safe(fr, tmp, &c->outq->datagrams, list) {
		f.type = QUIC_FRAME_DATAGRAM_LEN;
		f.data.data = fr->buf;
		f.data.len = fr->len;
		if (quic_outq_put(c, &f))
			break;
		list_del(&fr->list);
		quic_outq_frame_free(c->outq, fr);
	}
}

/* RFC 9000 Section 13.2: an ACK frame when the space owes one. It goes
 * first and is not congestion controlled. The ACK Delay is the time since
 * the largest packet was received, scaled down (Section 19.3).
 */
static void quic_outq_ack(struct quic_outq_fill *c, struct quic_pnspace *space)
{
	struct quic_ack_info *info = &c->outq->ack_info;
	const u64 *ecn = NULL;
	struct quic_frame f;
	u32 room = c->left;
	u64 delay = 0;

	if (c->tx->level == QUIC_CRYPTO_EARLY || !space->need_sack)
		return;
	if (quic_pnspace_ack_info(space, info))
		return;
	if (c->tx->now > space->max_pn_time)
		delay = (c->tx->now - space->max_pn_time) >> c->outq->ack_delay_exponent;
	if (quic_pnspace_has_ecn_count(space))
		ecn = space->ecn_count[QUIC_ECN_LOCAL];
	quic_frame_ack_init(&f, info, delay, ecn);
	if (quic_frame_encode(&c->p, &room, &f))
		return;
	c->left = room;
	c->ack = true;
	space->need_sack = 0;
}

/*
 * RFC 9002 Section 6.2.4: a probe carries new data if there is any, else
 * data sent before: the frames of the oldest packet of the space that
 * still holds some move (they are not copied) to the retransmission list.
 * The old packet stays in flight for congestion control and RTT; its
 * frames now wait for the probe's fate. Each probe packet does this, so
 * that the second of the two probes repeats what the first carried when
 * only one packet holds frames: losing one datagram of the pair then costs
 * no further timeout. With nothing at all, quic_outq_finish() writes a PING.
 */
static void quic_outq_probe_frames(struct quic_outq *outq, struct quic_outq_space *sp, u8 idx)
{
	struct quic_outq_packet *pkt;

	if (!list_empty(&sp->ctrl) || !list_empty(&sp->crypto) || !list_empty(&sp->retrans))
		return;
	if (idx == QUIC_CRYPTO_APP && (!list_empty(&outq->active) || !list_empty(&outq->datagrams)))
		return;
	list_for_each_entry(pkt, &sp->sent, list) {
		if (!pkt->ack_eliciting || list_empty(&pkt->frames))
			continue;
		list_splice_init(&pkt->frames, &sp->retrans);
		return;
	}
}

/* Write the PING of a probe that found nothing else, then pad to
 * tx->min_len, or to tx->min_eliciting when the packet is ack-eliciting.
 */
static void quic_outq_finish(struct quic_outq_fill *c)
{
	struct quic_outq_tx *tx = c->tx;
	struct quic_frame f = {};
	u32 used, min;

	if (c->sp->probe && !c->eliciting && !tx->ack_only) {
		f.type = QUIC_FRAME_PING;
		quic_outq_put(c, &f);
	}
	used = tx->room - c->left;
	min = c->eliciting ? max(tx->min_len, tx->min_eliciting) : tx->min_len;
	if (used && used < min && min <= tx->room) {
		f.type = QUIC_FRAME_PADDING;
		f.padding = min - used;
		if (!quic_frame_encode(&c->p, &c->left, &f))
			c->padded = true;
	}
}

/* Record the packet as sent: RFC 9002 Appendix A.5 OnPacketSent(). */
/* Free the oldest record of a packet not in flight (ACK frames only). */
static void quic_outq_forget_ack_only(struct quic_outq *outq, struct quic_outq_space *sp)
{
	struct quic_outq_packet *pkt;

	list_for_each_entry(pkt, &sp->sent, list) {
		if (pkt->in_flight)
			continue;
		list_del(&pkt->list);
		quic_outq_packet_free(outq, pkt);
		sp->ack_only--;
		return;
	}
}

static void quic_outq_commit(struct quic_outq_fill *c, struct quic_pnspace *space)
{
	struct quic_outq_packet *pkt = c->pkt;
	struct quic_outq_tx *tx = c->tx;
	struct quic_outq *outq = c->outq;

	tx->len = tx->room - c->left;
	tx->pn = quic_pnspace_next_pn(space);
	tx->ack_eliciting = c->eliciting;
	tx->in_flight = c->eliciting || c->padded;

	pkt->pn = tx->pn;
	pkt->level = tx->level;
	pkt->sent_time = tx->now;
	pkt->size = tx->len + tx->overhead;
	pkt->ack_eliciting = tx->ack_eliciting;
	pkt->in_flight = tx->in_flight;
	pkt->ecn = outq->ecn_mark;
	if (pkt->ecn && outq->ecn_state == QUIC_ECN_TESTING && outq->ecn_tested < U8_MAX)
		outq->ecn_tested++;

	/* The peer never acknowledges a packet of ours that only holds ACK
	 * frames unless something ack-eliciting follows (RFC 9000 Section
	 * 13.2.1), so a pure receiver would pile up records. One is only
	 * needed while ack-eliciting packets are in flight: then later
	 * acknowledgments clear it, and it keeps the packet numbers of a
	 * loss period contiguous for persistent congestion.
	 */
	if (!pkt->in_flight) {
		if (!c->sp->eliciting) {
			kfree(pkt);
			return;
		}
		/* While nothing is ever acknowledged, only the newest
		 * records are kept: forgetting an old one only means its
		 * acknowledgment, if it comes, finds nothing (an ACK is
		 * judged by the packet numbers sent, not by the records).
		 */
		if (c->sp->ack_only >= QUIC_OUTQ_ACK_ONLY_MAX)
			quic_outq_forget_ack_only(outq, c->sp);
		c->sp->ack_only++;
	}
	list_add_tail(&pkt->list, &c->sp->sent);

	if (pkt->in_flight)
		quic_cong_on_packet_sent(outq->cong, tx->now, pkt->size);
	if (pkt->ack_eliciting) {
		space->inflight += pkt->size;
		space->last_sent_time = tx->now;
		c->sp->eliciting++;
		/* A PLPMTUD probe is about the path's size, not the loss the
		 * PTO probes for (RFC 9002 Section 6.2.4): it takes none.
		 */
		if (c->sp->probe && !pkt->pmtu_probe)
			c->sp->probe--;
	}
}

/**
 * quic_outq_fill - build the payload of one packet
 * @outq: the queue
 * @tx: the packet: level, buffer, room, overhead, padding and time in;
 *	packet number, length and flags out
 * @gfp: allocation flags (splitting a frame copies its first part)
 *
 * Frames go in this order: an ACK frame if the space owes one (not
 * congestion controlled), frames from lost packets (RFC 9000 Section 13.3:
 * repairs before new data), control frames, CRYPTO data, then for the
 * Application space DATA_BLOCKED/STREAM_DATA_BLOCKED, new stream data in
 * round robin and DATAGRAM frames. STREAM and CRYPTO frames are split to
 * fit. New stream data is bounded by the peer's connection and stream
 * limits (RFC 9000 Section 4.1). Ack-eliciting frames stop where the packet
 * would overflow the congestion window (RFC 9002 Section 7), except for a
 * PTO probe (Section 6.2.4), which also gets a PING when nothing else is
 * there. Frames not allowed at the level (0-RTT, RFC 9000 Table 3) wait.
 *
 * When anything was written, the packet takes the space's next packet
 * number and is recorded as sent at @tx->now with size @tx->len +
 * @tx->overhead (RFC 9002 Appendix A.5): bytes in flight, the space's
 * in-flight bytes and last ack-eliciting send time are updated. In the
 * Application space the congestion controller is told whether the sender
 * is application limited (Section 7.8).
 *
 * A PLPMTUD probe (@tx->pmtu_probe) holds a PING and PADDING only and is
 * not limited by the window; it is recorded as a probe and takes none of
 * the PTO's probes. With @tx->ack_only only the ACK frame owed is written
 * (for a sender whose pacer holds the rest back).
 *
 * Return: 0 (with @tx->len 0 when there was nothing to send), -EINVAL for a
 * bad level, -EOVERFLOW when the space's packet numbers are exhausted,
 * -ENOMEM.
 */
int quic_outq_fill(struct quic_outq *outq, struct quic_outq_tx *tx, gfp_t gfp)
{
	struct quic_outq_fill c = { .outq = outq, .tx = tx, .gfp = gfp };
	struct quic_pnspace *space;
	u32 cwnd, idx;

	tx->len = 0;
	tx->ack_eliciting = false;
	tx->in_flight = false;
	tx->resent = 0;
	if (!quic_outq_level_valid(tx->level))
		return -EINVAL;
	idx = quic_pnspace_index(tx->level);
	space = &outq->pnspace[idx];
	if (space->next_pn >= QUIC_PN_MAX)
		return -EOVERFLOW;

	c.pkt = kzalloc(sizeof(*c.pkt), gfp);
	if (!c.pkt)
		return -ENOMEM;
	INIT_LIST_HEAD(&c.pkt->frames);
	c.sp = &outq->spaces[idx];
	c.p = tx->buf;
	c.left = tx->room;

	c.limit = tx->room;
	if (tx->pmtu_probe) {
		/* RFC 9000 Section 14.4: a PING padded to the size probed;
		 * nothing that would need repair if the probe is lost.
		 */
		struct quic_frame ping = { .type = QUIC_FRAME_PING };

		if (quic_outq_put(&c, &ping)) {
			kfree(c.pkt);
			return 0;
		}
		quic_outq_finish(&c);
		c.pkt->pmtu_probe = 1;
		quic_outq_commit(&c, space);
		return 0;
	}

	quic_outq_ack(&c, space);

	/* The pacer holds everything back but the ACK (RFC 9002 Section 7.7). */
	if (tx->ack_only) {
		c.limit = 0;
	} else if (!c.sp->probe) {
		cwnd = quic_cong_room(outq->cong);
		cwnd = cwnd > tx->overhead ? cwnd - tx->overhead : 0;
		c.limit = min(c.limit, cwnd);
	}

	if (c.sp->probe && !tx->ack_only)
		quic_outq_probe_frames(outq, c.sp, idx);
	/* Frames of lost packets first (counted for QuicFrmRetrans). */
	quic_outq_data_list(&c, &c.sp->retrans);
	quic_outq_ctrl_list(&c, &c.sp->retrans);
	tx->resent = c.frames;
	if (idx == QUIC_CRYPTO_APP)
		quic_outq_blocked(&c);
	quic_outq_ctrl_list(&c, &c.sp->ctrl);
	if (tx->level != QUIC_CRYPTO_EARLY)
		quic_outq_data_list(&c, &c.sp->crypto);
	if (idx == QUIC_CRYPTO_APP) {
		c.nagle_held = quic_outq_nagle_hold(&c, space);
		if (!c.nagle_held)
			quic_outq_streams(&c);
		quic_outq_datagrams(&c);
	}
	quic_outq_finish(&c);

	/* The window, not the packet, was the limit, and data is left. */
	if (!c.sp->probe && c.limit < tx->room && quic_outq_has_data(outq, tx->level))
		c.cc_blocked = true;
	/* RFC 9002 Section 7.8: stopping for lack of data or of flow control
	 * credit is application limited; stopping at the window is not.
	 */
	if (idx == QUIC_CRYPTO_APP && !c.sp->probe && !tx->ack_only) {
		if (c.fc_blocked || c.nagle_held || !quic_outq_has_data(outq, tx->level))
			quic_cong_set_app_limited(outq->cong, tx->now, true);
		else if (c.cc_blocked)
			quic_cong_set_app_limited(outq->cong, tx->now, false);
	}

	/* An ACK frame that may still wait does not make a packet alone. */
	if (c.ack && !c.eliciting && !c.frames && !c.padded && space->ack_delayed) {
		space->need_sack = 1;
		c.left = tx->room;
	}
	if (c.left == tx->room) {
		kfree(c.pkt);
		return 0;
	}
	if (c.ack)
		space->ack_delayed = 0;
	quic_outq_commit(&c, space);
	if (c.stream_new && quic_outq_avail(&c) > QUIC_OUTQ_NAGLE_SLACK)
		outq->nagle_pn = tx->pn;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_fill);

/**
 * quic_outq_frame_acked - release a frame whose packet was acknowledged
 * @outq: the queue
 * @fr: the frame, already unlinked; freed here
 *
 * The last STREAM frame of a stream to be acknowledged, FIN included,
 * moves its sending part from Data Sent to Data Recvd (RFC 9000 Section
 * 3.1); an acknowledged RESET_STREAM moves it to Reset Recvd. Both are
 * reported through &quic_outq.stream_acked, which may release the stream.
 */
void quic_outq_frame_acked(struct quic_outq *outq, struct quic_outq_frame *fr)
{
	struct quic_outq_stream *os = fr->os;
	struct quic_stream *s;

	if (fr->type == QUIC_FRAME_RESET_STREAM) {
		s = quic_stream_find(outq->streams, fr->f.reset.id);
		if (s && !quic_stream_send_set_state(s, QUIC_STREAM_SEND_STATE_RESET_RECVD) &&
		    outq->stream_acked) {
			quic_outq_frame_free(outq, fr);
			outq->stream_acked(outq, s);
			return;
		}
	}
	if (fr->type != QUIC_FRAME_STREAM || !os) {
		quic_outq_frame_free(outq, fr);
		return;
	}
	if (fr->fin)
		os->fin_acked = 1;
	quic_outq_frame_free(outq, fr);
	if (!os->fin_acked || os->unacked)
		return;

	s = os->stream;
	quic_outq_os_free(outq, os);
	if (quic_stream_send_set_state(s, QUIC_STREAM_SEND_STATE_RECVD))
		return;
	if (outq->stream_acked)
		outq->stream_acked(outq, s);
}

/**
 * quic_outq_frame_lost - decide how to repair a frame of a lost packet
 * @outq: the queue
 * @fr: the frame, already unlinked
 * @requeue: where frames to send again are appended; others are freed
 *
 * RFC 9000 Section 13.3: STREAM and CRYPTO data, RESET_STREAM,
 * STOP_SENDING, NEW_CONNECTION_ID, RETIRE_CONNECTION_ID, NEW_TOKEN and
 * HANDSHAKE_DONE are sent again as they were. MAX_DATA, MAX_STREAM_DATA
 * and MAX_STREAMS are sent again with the current value (MAX_STREAM_DATA
 * not once the receiving part left Recv, STOP_SENDING not once all its data
 * arrived or it was reset). The blocked frames are sent
 * again, with the current limit, only while still blocked.
 */
void quic_outq_frame_lost(struct quic_outq *outq, struct quic_outq_frame *fr,
			  struct list_head *requeue)
{
	struct quic_stream_table *t = outq->streams;
	struct quic_frame_limit *lim = &fr->f.limit;
	struct quic_stream *s = NULL;
	bool keep = true;
	u8 dir;

	switch (fr->type) {
	case QUIC_FRAME_MAX_DATA:
		lim->max = max(lim->max, outq->recv_max_data);
		break;
	case QUIC_FRAME_MAX_STREAM_DATA:
		s = quic_stream_find(t, lim->id);
		keep = s && s->recv.state == QUIC_STREAM_RECV_STATE_RECV;
		if (keep)
			lim->max = max(lim->max, s->recv.max_bytes);
		break;
	case QUIC_FRAME_MAX_STREAMS_BIDI:
	case QUIC_FRAME_MAX_STREAMS_UNI:
		dir = fr->type - QUIC_FRAME_MAX_STREAMS_BIDI;
		lim->max = max(lim->max, t->peer.max_streams[dir]);
		break;
	case QUIC_FRAME_DATA_BLOCKED:
		keep = outq->data_sent >= outq->max_data;
		lim->max = outq->max_data;
		break;
	case QUIC_FRAME_STREAM_DATA_BLOCKED:
		s = quic_stream_find(t, lim->id);
		keep = s && !quic_stream_send_credit(s);
		if (keep)
			lim->max = s->send.max_bytes;
		break;
	case QUIC_FRAME_STREAMS_BLOCKED_BIDI:
	case QUIC_FRAME_STREAMS_BLOCKED_UNI:
		dir = fr->type - QUIC_FRAME_STREAMS_BLOCKED_BIDI;
		keep = lim->max == t->local.max_streams[dir];
		break;
	case QUIC_FRAME_RESET_STREAM:
		s = quic_stream_find(t, fr->f.reset.id);
		keep = s && s->send.state == QUIC_STREAM_SEND_STATE_RESET_SENT;
		break;
	case QUIC_FRAME_STOP_SENDING:
		/* Until the receiving part is in Data Recvd or Reset Recvd. */
		s = quic_stream_find(t, fr->f.reset.id);
		keep = s && (s->recv.state == QUIC_STREAM_RECV_STATE_RECV ||
			     s->recv.state == QUIC_STREAM_RECV_STATE_SIZE_KNOWN);
		break;
	default:
		break;
	}
	if (!keep) {
		quic_outq_frame_free(outq, fr);
		return;
	}
	list_add_tail(&fr->list, requeue);
}

#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
/**
 * quic_outq_invariant - the first broken invariant of a send queue
 * @outq: the queue, its owner's lock held
 *
 * What the accounting must always agree with: bytes in flight are the
 * sizes of the sent packets that count in flight (RFC 9002 Appendix B.2);
 * each space's ack-eliciting packets and bytes in flight are those of its
 * list, which is in packet number order; no Application packet is in
 * flight without being ack-eliciting; stream bytes sent stay within
 * the peer's connection and stream limits (RFC 9000 Section 4.1); the
 * congestion window is never below kMinimumWindow (RFC 9002 Section 7.2).
 *
 * Return: NULL, or a description of what is broken.
 */
const char *quic_outq_invariant(const struct quic_outq *outq)
{
	const struct quic_outq_stream *os;
	const struct quic_outq_packet *pkt;
	u64 flight = 0;
	int i;

	for (i = 0; i < QUIC_PNSPACE_MAX; i++) {
		const struct quic_outq_space *sp = &outq->spaces[i];
		u64 bytes = 0;
		u32 eliciting = 0, ack_only = 0;
		s64 last = -1;

		list_for_each_entry(pkt, &sp->sent, list) {
			if (pkt->pn <= last)
				return "sent packets out of packet number order";
			last = pkt->pn;
			if (pkt->in_flight)
				flight += pkt->size;
			else
				ack_only++;
			/* Only a client's Initial datagrams are padded whatever
			 * they hold (RFC 9000 Section 14.1); an Application
			 * packet in flight with nothing ack-eliciting would wait
			 * for an acknowledgment nothing asks for.
			 */
			if (i == QUIC_CRYPTO_APP && pkt->in_flight && !pkt->ack_eliciting)
				return "an Application packet in flight is not ack-eliciting";
			if (pkt->ack_eliciting) {
				eliciting++;
				bytes += pkt->size;
			}
		}
		if (eliciting != sp->eliciting)
			return "a space's ack-eliciting count differs from its packets";
		if (ack_only != sp->ack_only || ack_only > QUIC_OUTQ_ACK_ONLY_MAX)
			return "a space's count of ACK-only records differs from its packets";
		if (bytes != outq->pnspace[i].inflight)
			return "a space's bytes in flight differ from its packets";
	}
	if (flight != quic_cong_in_flight(outq->cong))
		return "bytes in flight differ from the packets in flight";
	/* RFC 9000 Section 4.1: a stream's bytes sent (up to its first
	 * frame never sent) stay within the peer's MAX_STREAM_DATA.
	 */
	list_for_each_entry(os, &outq->streams_list, node) {
		u64 sent = os->offset;

		if (!list_empty(&os->pending))
			sent = list_first_entry(&os->pending, struct quic_outq_frame, list)->offset;
		if (sent > os->stream->send.max_bytes)
			return "stream bytes sent beyond the peer's MAX_STREAM_DATA";
	}
	if (outq->data_sent > outq->max_data)
		return "stream bytes sent beyond the peer's MAX_DATA";
	if (quic_cong_window(outq->cong) < quic_cong_min_window(outq->cong))
		return "congestion window below kMinimumWindow";
	return NULL;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_outq_invariant);
#endif
