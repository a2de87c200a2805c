// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC frame codec: every frame type of RFC 9000 Section 19 and the
 * DATAGRAM frames of RFC 9221 Section 4.
 *
 * The encoder is written once, on top of a small output helper that either
 * writes or only counts: quic_frame_len() runs it in counting mode, and
 * quic_frame_encode() runs it twice (count and check, then write) so that a
 * frame is written whole or not at all.
 */

#include <linux/limits.h>
#include <linux/string.h>

#include "frame.h"

/* Packet types a frame may appear in, by encryption level. */
#define QUIC_LVL_I	BIT(QUIC_CRYPTO_INITIAL)
#define QUIC_LVL_H	BIT(QUIC_CRYPTO_HANDSHAKE)
#define QUIC_LVL_0	BIT(QUIC_CRYPTO_EARLY)
#define QUIC_LVL_1	BIT(QUIC_CRYPTO_APP)
#define QUIC_LVL_IH01	(QUIC_LVL_I | QUIC_LVL_H | QUIC_LVL_0 | QUIC_LVL_1)
#define QUIC_LVL_IH_1	(QUIC_LVL_I | QUIC_LVL_H | QUIC_LVL_1)
#define QUIC_LVL___01	(QUIC_LVL_0 | QUIC_LVL_1)
#define QUIC_LVL____1	QUIC_LVL_1

#define QUIC_F_N	QUIC_FRAME_F_NOT_ACK_ELICITING
#define QUIC_F_C	QUIC_FRAME_F_NOT_IN_FLIGHT
#define QUIC_F_P	QUIC_FRAME_F_PROBING
#define QUIC_F_F	QUIC_FRAME_F_FLOW_CONTROLLED

/**
 * struct quic_frame_info - the "Pkts" and "Spec" columns of one frame type
 * @levels: bitmap of the encryption levels (packet types) it may appear in
 * @flags: QUIC_FRAME_F_* properties
 */
struct quic_frame_info {
	u8 levels;
	u8 flags;
};

/* RFC 9000 Section 12.4 Table 3; CONNECTION_CLOSE 0x1c is "ih01", 0x1d is
 * application data only (Section 12.5). DATAGRAM: RFC 9221 Section 5 (0-RTT
 * or 1-RTT keys only, ack-eliciting, congestion controlled).
 */
static const struct quic_frame_info quic_frame_infos[] = {
	[QUIC_FRAME_PADDING]		  = { QUIC_LVL_IH01, QUIC_F_N | QUIC_F_P },
	[QUIC_FRAME_PING]		  = { QUIC_LVL_IH01, 0 },
	[QUIC_FRAME_ACK]		  = { QUIC_LVL_IH_1, QUIC_F_N | QUIC_F_C },
	[QUIC_FRAME_ACK_ECN]		  = { QUIC_LVL_IH_1, QUIC_F_N | QUIC_F_C },
	[QUIC_FRAME_RESET_STREAM]	  = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_STOP_SENDING]	  = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_CRYPTO]		  = { QUIC_LVL_IH_1, 0 },
	[QUIC_FRAME_NEW_TOKEN]		  = { QUIC_LVL____1, 0 },
	[QUIC_FRAME_STREAM + 0]		  = { QUIC_LVL___01, QUIC_F_F },
	[QUIC_FRAME_STREAM + 1]		  = { QUIC_LVL___01, QUIC_F_F },
	[QUIC_FRAME_STREAM + 2]		  = { QUIC_LVL___01, QUIC_F_F },
	[QUIC_FRAME_STREAM + 3]		  = { QUIC_LVL___01, QUIC_F_F },
	[QUIC_FRAME_STREAM + 4]		  = { QUIC_LVL___01, QUIC_F_F },
	[QUIC_FRAME_STREAM + 5]		  = { QUIC_LVL___01, QUIC_F_F },
	[QUIC_FRAME_STREAM + 6]		  = { QUIC_LVL___01, QUIC_F_F },
	[QUIC_FRAME_STREAM + 7]		  = { QUIC_LVL___01, QUIC_F_F },
	[QUIC_FRAME_MAX_DATA]		  = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_MAX_STREAM_DATA]	  = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_MAX_STREAMS_BIDI]	  = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_MAX_STREAMS_UNI]	  = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_DATA_BLOCKED]	  = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_STREAM_DATA_BLOCKED]  = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_STREAMS_BLOCKED_BIDI] = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_STREAMS_BLOCKED_UNI]  = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_NEW_CONNECTION_ID]	  = { QUIC_LVL___01, QUIC_F_P },
	[QUIC_FRAME_RETIRE_CONNECTION_ID] = { QUIC_LVL___01, 0 },
	[QUIC_FRAME_PATH_CHALLENGE]	  = { QUIC_LVL___01, QUIC_F_P },
	[QUIC_FRAME_PATH_RESPONSE]	  = { QUIC_LVL____1, QUIC_F_P },
	[QUIC_FRAME_CONNECTION_CLOSE]	  = { QUIC_LVL_IH01, QUIC_F_N },
	[QUIC_FRAME_CONNECTION_CLOSE_APP] = { QUIC_LVL___01, QUIC_F_N },
	[QUIC_FRAME_HANDSHAKE_DONE]	  = { QUIC_LVL____1, 0 },
};

static const struct quic_frame_info quic_frame_datagram_info = { QUIC_LVL___01, 0 };

static const struct quic_frame_info *quic_frame_info(u64 type)
{
	if (type < ARRAY_SIZE(quic_frame_infos))
		return &quic_frame_infos[type];
	if (type == QUIC_FRAME_DATAGRAM || type == QUIC_FRAME_DATAGRAM_LEN)
		return &quic_frame_datagram_info;
	return NULL;
}

/**
 * quic_frame_allowed - tell whether a frame type may appear in a packet type
 * @type: frame type
 * @level: encryption level of the packet (&enum quic_crypto_level)
 *
 * Return: true when RFC 9000 Section 12.4 (or RFC 9221 for DATAGRAM)
 * permits @type at @level; false for unknown types and levels.
 */
bool quic_frame_allowed(u8 type, u8 level)
{
	const struct quic_frame_info *info = quic_frame_info(type);

	return info && level < QUIC_CRYPTO_MAX && (info->levels & BIT(level));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_frame_allowed);

/**
 * quic_frame_flags - the RFC 9000 Section 12.4 "Spec" properties of a frame type
 * @type: frame type
 *
 * Return: QUIC_FRAME_F_* bits; 0 for an unknown type.
 */
u32 quic_frame_flags(u8 type)
{
	const struct quic_frame_info *info = quic_frame_info(type);

	return info ? info->flags : 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_frame_flags);

/**
 * quic_frame_ack_eliciting - tell whether a frame makes its packet ack-eliciting
 * @type: frame type
 *
 * RFC 9000 Section 13.2: every frame but ACK, PADDING and CONNECTION_CLOSE.
 *
 * Return: true for an ack-eliciting frame type.
 */
bool quic_frame_ack_eliciting(u8 type)
{
	const struct quic_frame_info *info = quic_frame_info(type);

	return info && !(info->flags & QUIC_FRAME_F_NOT_ACK_ELICITING);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_frame_ack_eliciting);

/**
 * quic_frame_transport_error - the transport error code for a decoder error
 * @err: a return value of quic_frame_decode()
 *
 * Return: the QUIC_TRANSPORT_ERROR_* code to close the connection with:
 * NONE for 0, FRAME_ENCODING for -EBADMSG, PROTOCOL_VIOLATION for -EPROTO,
 * STREAM_STATE for -EPIPE and INTERNAL for anything else.
 */
u32 quic_frame_transport_error(int err)
{
	switch (err) {
	case 0:
		return QUIC_TRANSPORT_ERROR_NONE;
	case -EBADMSG:
		return QUIC_TRANSPORT_ERROR_FRAME_ENCODING;
	case -EPROTO:
		return QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION;
	case -EPIPE:
		return QUIC_TRANSPORT_ERROR_STREAM_STATE;
	default:
		return QUIC_TRANSPORT_ERROR_INTERNAL;
	}
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_frame_transport_error);

/*
 * Walk @count (Gap, ACK Range Length) pairs, taken from @ranges when it is
 * set and decoded from @raw otherwise, below the First ACK Range. RFC 9000
 * Section 19.3.1: a packet number computed below zero is a
 * FRAME_ENCODING_ERROR. *@used is the number of bytes of @raw the pairs
 * took, *@smallest the lowest packet number acknowledged.
 */
static int quic_frame_ack_walk(u64 largest, u64 first, u64 count,
			       const struct quic_ack_range *ranges, const u8 *raw, u32 raw_len,
			       u32 *used, u64 *smallest)
{
	u32 left = raw_len;
	const u8 *p = raw;
	u64 low, gap, len;
	u64 i;

	if (first > largest)
		return -EBADMSG;
	low = largest - first;
	for (i = 0; i < count; i++) {
		if (ranges) {
			gap = ranges[i].gap;
			len = ranges[i].len;
			if (gap > QUIC_VARINT_MAX || len > QUIC_VARINT_MAX)
				return -EBADMSG;
		} else if (quic_get_var(&p, &left, &gap) || quic_get_var(&p, &left, &len)) {
			return -EBADMSG;
		}
		/* largest = previous_smallest - gap - 2; smallest = largest - len */
		if (low < gap + 2 || low - gap - 2 < len)
			return -EBADMSG;
		low = low - gap - 2 - len;
	}
	*used = raw_len - left;
	*smallest = low;
	return 0;
}

/* Stream ID low bits (RFC 9000 Section 2.1): the receiver's view. */
static bool quic_frame_stream_local(u64 id, bool is_serv)
{
	return !!(id & QUIC_STREAM_TYPE_SERVER_MASK) == is_serv;
}

/* A unidirectional stream the receiver opened: it only sends on it. */
static bool quic_frame_send_only(u64 id, bool is_serv)
{
	return (id & QUIC_STREAM_TYPE_UNI_MASK) && quic_frame_stream_local(id, is_serv);
}

/* A unidirectional stream the peer opened: the receiver only receives. */
static bool quic_frame_recv_only(u64 id, bool is_serv)
{
	return (id & QUIC_STREAM_TYPE_UNI_MASK) && !quic_frame_stream_local(id, is_serv);
}

static int quic_get_vars(const u8 **pp, u32 *plen, u64 *a, u64 *b)
{
	if (quic_get_var(pp, plen, a) || (b && quic_get_var(pp, plen, b)))
		return -EBADMSG;
	return 0;
}

/* Length-prefixed bytes, referenced in place. */
static int quic_get_bytes(const u8 **pp, u32 *plen, const u8 **data, u32 *len)
{
	u64 n;

	if (quic_get_var(pp, plen, &n) || n > *plen)
		return -EBADMSG;
	*data = *pp;
	*len = n;
	*pp += n;
	*plen -= n;
	return 0;
}

static int quic_frame_get_ack(const u8 **pp, u32 *plen, struct quic_frame *f)
{
	struct quic_frame_ack *ack = &f->ack;
	u32 used;
	int err;

	if (quic_get_vars(pp, plen, &ack->largest, &ack->delay) ||
	    quic_get_vars(pp, plen, &ack->range_count, &ack->first_range))
		return -EBADMSG;
	err = quic_frame_ack_walk(ack->largest, ack->first_range, ack->range_count, NULL,
				  *pp, *plen, &used, &ack->smallest);
	if (err)
		return err;
	ack->raw = *pp;
	ack->raw_len = used;
	*pp += used;
	*plen -= used;

	if (f->type == QUIC_FRAME_ACK_ECN &&
	    (quic_get_vars(pp, plen, &ack->ecn[QUIC_ECN_ECT0], &ack->ecn[QUIC_ECN_ECT1]) ||
	     quic_get_vars(pp, plen, &ack->ecn[QUIC_ECN_CE], NULL)))
		return -EBADMSG;
	return 0;
}

static int quic_frame_get_stream(const u8 **pp, u32 *plen, const struct quic_frame_ctx *ctx,
				 struct quic_frame *f)
{
	struct quic_frame_data *d = &f->data;
	u64 len;

	if (quic_get_var(pp, plen, &d->id))
		return -EBADMSG;
	if ((f->type & QUIC_STREAM_BIT_OFF) && quic_get_var(pp, plen, &d->offset))
		return -EBADMSG;
	if (f->type & QUIC_STREAM_BIT_LEN) {
		if (quic_get_var(pp, plen, &len) || len > *plen)
			return -EBADMSG;
	} else {
		len = *plen;
	}
	/* RFC 9000 Section 19.8: the end offset cannot exceed 2^62 - 1. */
	if (len > QUIC_VARINT_MAX - d->offset)
		return -EBADMSG;
	d->data = *pp;
	d->len = len;
	*pp += len;
	*plen -= len;

	if (quic_frame_send_only(d->id, ctx->is_serv))
		return -EPIPE;
	return 0;
}

static int quic_frame_get_crypto(const u8 **pp, u32 *plen, struct quic_frame *f)
{
	struct quic_frame_data *d = &f->data;

	if (quic_get_var(pp, plen, &d->offset) || quic_get_bytes(pp, plen, &d->data, &d->len))
		return -EBADMSG;
	/* RFC 9000 Section 19.6: the end offset cannot exceed 2^62 - 1. */
	if (d->len > QUIC_VARINT_MAX - d->offset)
		return -EBADMSG;
	return 0;
}

static int quic_frame_get_new_cid(const u8 **pp, u32 *plen, struct quic_frame *f)
{
	struct quic_frame_new_cid *n = &f->new_cid;
	u64 len;

	if (quic_get_vars(pp, plen, &n->seqno, &n->prior_to) ||
	    quic_get_int(pp, plen, &len, 1))
		return -EBADMSG;
	/* RFC 9000 Section 19.15: Length 1 to 20, Retire Prior To <= Sequence. */
	if (!len || len > QUIC_CONN_ID_MAX_LEN || n->prior_to > n->seqno)
		return -EBADMSG;
	if (quic_get_data(pp, plen, n->id.data, len) ||
	    quic_get_data(pp, plen, n->token, QUIC_FRAME_TOKEN_LEN))
		return -EBADMSG;
	n->id.len = len;
	return 0;
}

static int quic_frame_get_close(const u8 **pp, u32 *plen, struct quic_frame *f)
{
	struct quic_frame_close *c = &f->close;

	if (quic_get_var(pp, plen, &c->errcode))
		return -EBADMSG;
	if (f->type == QUIC_FRAME_CONNECTION_CLOSE && quic_get_var(pp, plen, &c->frame_type))
		return -EBADMSG;
	return quic_get_bytes(pp, plen, &c->phrase, &c->phrase_len);
}

static int quic_frame_get_body(const u8 **pp, u32 *plen, const struct quic_frame_ctx *ctx,
			       struct quic_frame *f)
{
	struct quic_frame_limit *l = &f->limit;
	struct quic_frame_reset *r = &f->reset;
	int err;

	switch (f->type) {
	case QUIC_FRAME_PADDING:
		/* Each zero byte is a PADDING frame; take the whole run. */
		f->padding = 1;
		while (*plen && !**pp) {
			(*pp)++;
			(*plen)--;
			f->padding++;
		}
		return 0;
	case QUIC_FRAME_PING:
	case QUIC_FRAME_HANDSHAKE_DONE:
		if (f->type == QUIC_FRAME_HANDSHAKE_DONE && ctx->is_serv)
			return -EPROTO;	/* RFC 9000 Section 19.20 */
		return 0;
	case QUIC_FRAME_ACK:
	case QUIC_FRAME_ACK_ECN:
		return quic_frame_get_ack(pp, plen, f);
	case QUIC_FRAME_RESET_STREAM:
		if (quic_get_vars(pp, plen, &r->id, &r->errcode) ||
		    quic_get_var(pp, plen, &r->final_size))
			return -EBADMSG;
		return quic_frame_send_only(r->id, ctx->is_serv) ? -EPIPE : 0;
	case QUIC_FRAME_STOP_SENDING:
		if (quic_get_vars(pp, plen, &r->id, &r->errcode))
			return -EBADMSG;
		return quic_frame_recv_only(r->id, ctx->is_serv) ? -EPIPE : 0;
	case QUIC_FRAME_CRYPTO:
		return quic_frame_get_crypto(pp, plen, f);
	case QUIC_FRAME_NEW_TOKEN:
		err = quic_get_bytes(pp, plen, &f->data.data, &f->data.len);
		if (err || !f->data.len)
			return -EBADMSG;	/* RFC 9000 Section 19.7: never empty */
		return ctx->is_serv ? -EPROTO : 0;
	case QUIC_FRAME_MAX_DATA:
	case QUIC_FRAME_DATA_BLOCKED:
		return quic_get_vars(pp, plen, &l->max, NULL);
	case QUIC_FRAME_MAX_STREAM_DATA:
		if (quic_get_vars(pp, plen, &l->id, &l->max))
			return -EBADMSG;
		return quic_frame_recv_only(l->id, ctx->is_serv) ? -EPIPE : 0;
	case QUIC_FRAME_STREAM_DATA_BLOCKED:
		if (quic_get_vars(pp, plen, &l->id, &l->max))
			return -EBADMSG;
		return quic_frame_send_only(l->id, ctx->is_serv) ? -EPIPE : 0;
	case QUIC_FRAME_MAX_STREAMS_BIDI:
	case QUIC_FRAME_MAX_STREAMS_UNI:
	case QUIC_FRAME_STREAMS_BLOCKED_BIDI:
	case QUIC_FRAME_STREAMS_BLOCKED_UNI:
		/* RFC 9000 Sections 19.11 and 19.14: at most 2^60 streams. */
		if (quic_get_vars(pp, plen, &l->max, NULL) || l->max > QUIC_FRAME_MAX_STREAMS)
			return -EBADMSG;
		return 0;
	case QUIC_FRAME_NEW_CONNECTION_ID:
		return quic_frame_get_new_cid(pp, plen, f);
	case QUIC_FRAME_RETIRE_CONNECTION_ID:
		return quic_get_vars(pp, plen, &f->seqno, NULL);
	case QUIC_FRAME_PATH_CHALLENGE:
	case QUIC_FRAME_PATH_RESPONSE:
		if (quic_get_data(pp, plen, f->path_data, QUIC_FRAME_PATH_DATA_LEN))
			return -EBADMSG;
		return 0;
	case QUIC_FRAME_CONNECTION_CLOSE:
	case QUIC_FRAME_CONNECTION_CLOSE_APP:
		return quic_frame_get_close(pp, plen, f);
	case QUIC_FRAME_DATAGRAM:
		f->data.data = *pp;
		f->data.len = *plen;
		*pp += *plen;
		*plen = 0;
		return 0;
	case QUIC_FRAME_DATAGRAM_LEN:
		return quic_get_bytes(pp, plen, &f->data.data, &f->data.len);
	default:
		return quic_frame_get_stream(pp, plen, ctx, f);
	}
}

/**
 * quic_frame_decode - decode and check the frame at a cursor
 * @pp: cursor at the Frame Type; advanced past the frame on success
 * @plen: bytes left in the packet payload; reduced on success
 * @ctx: the packet type the frame arrived in and the receiver's settings
 * @f: the decoded frame; its byte fields point into the packet
 *
 * Besides the wire format, this enforces RFC 9000 Section 12.4 (frame
 * types by packet type, shortest Frame Type encoding), the field limits of
 * Section 19, the frames a server must not receive (NEW_TOKEN,
 * HANDSHAKE_DONE), the stream directions of Sections 19.4-19.13 and the
 * max_datagram_frame_size of RFC 9221 Section 3. Flow control, stream
 * limits and connection ID bookkeeping are left to the components owning
 * that state.
 *
 * Return: 0; -EBADMSG, -EPROTO or -EPIPE for a frame the peer must not
 * send (see frame.h and quic_frame_transport_error()); -EINVAL for a bad
 * @ctx level. The cursor is unchanged on failure.
 */
int quic_frame_decode(const u8 **pp, u32 *plen, const struct quic_frame_ctx *ctx,
		      struct quic_frame *f)
{
	const struct quic_frame_info *info;
	const u8 *p = *pp;
	u32 len = *plen;
	u64 type;
	int err;

	if (ctx->level >= QUIC_CRYPTO_MAX)
		return -EINVAL;
	if (quic_get_var(&p, &len, &type))
		return -EBADMSG;
	info = quic_frame_info(type);
	if (!info)
		return -EBADMSG;
	/* RFC 9000 Section 12.4: Frame Type in its shortest encoding. */
	if (quic_var_len(type) != *plen - len)
		return -EPROTO;
	if (!(info->levels & BIT(ctx->level)))
		return -EPROTO;

	memset(f, 0, sizeof(*f));
	f->type = type;
	err = quic_frame_get_body(&p, &len, ctx, f);
	if (err)
		return err;

	if (type == QUIC_FRAME_DATAGRAM || type == QUIC_FRAME_DATAGRAM_LEN) {
		/* RFC 9221 Section 3: size counts type, length and payload. */
		if (*plen - len > ctx->max_datagram)
			return -EPROTO;
	}
	*pp = p;
	*plen = len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_frame_decode);

/*
 * Output of the encoder: writes through the common.h cursor codecs, or
 * only counts when @measure is set. The first error sticks.
 */
struct quic_frame_out {
	u8 *p;
	u32 left;
	u32 len;
	int err;
	bool measure;
};

static bool quic_out_room(struct quic_frame_out *o, u32 n)
{
	if (o->err)
		return false;
	if (n > U32_MAX - o->len) {
		o->err = -EINVAL;
		return false;
	}
	o->len += n;
	return true;
}

static void quic_out_var(struct quic_frame_out *o, u64 v)
{
	u32 n = quic_var_len(v);

	if (!n) {
		o->err = o->err ?: -EINVAL;
		return;
	}
	if (quic_out_room(o, n) && !o->measure)
		o->err = quic_put_var(&o->p, &o->left, v);
}

static void quic_out_data(struct quic_frame_out *o, const void *data, u32 n)
{
	if (quic_out_room(o, n) && !o->measure)
		o->err = quic_put_data(&o->p, &o->left, data, n);
}

static void quic_out_bytes(struct quic_frame_out *o, const u8 *data, u32 n)
{
	quic_out_var(o, n);
	quic_out_data(o, data, n);
}

static int quic_out_fail(struct quic_frame_out *o)
{
	o->err = o->err ?: -EINVAL;
	return o->err;
}

static int quic_frame_put_ack(struct quic_frame_out *o, const struct quic_frame *f)
{
	const struct quic_frame_ack *ack = &f->ack;
	u64 smallest, i;
	u32 used;

	if (quic_frame_ack_walk(ack->largest, ack->first_range, ack->range_count, ack->ranges,
				ack->raw, ack->ranges ? 0 : ack->raw_len, &used, &smallest) ||
	    (!ack->ranges && used != ack->raw_len))
		return quic_out_fail(o);

	quic_out_var(o, ack->largest);
	quic_out_var(o, ack->delay);
	quic_out_var(o, ack->range_count);
	quic_out_var(o, ack->first_range);
	if (ack->ranges) {
		for (i = 0; i < ack->range_count; i++) {
			quic_out_var(o, ack->ranges[i].gap);
			quic_out_var(o, ack->ranges[i].len);
		}
	} else {
		quic_out_data(o, ack->raw, ack->raw_len);
	}
	if (f->type == QUIC_FRAME_ACK_ECN) {
		quic_out_var(o, ack->ecn[QUIC_ECN_ECT0]);
		quic_out_var(o, ack->ecn[QUIC_ECN_ECT1]);
		quic_out_var(o, ack->ecn[QUIC_ECN_CE]);
	}
	return o->err;
}

static int quic_frame_put_stream(struct quic_frame_out *o, const struct quic_frame *f)
{
	const struct quic_frame_data *d = &f->data;

	if (d->offset > QUIC_VARINT_MAX || d->len > QUIC_VARINT_MAX - d->offset ||
	    (!(f->type & QUIC_STREAM_BIT_OFF) && d->offset))
		return quic_out_fail(o);
	quic_out_var(o, d->id);
	if (f->type & QUIC_STREAM_BIT_OFF)
		quic_out_var(o, d->offset);
	if (f->type & QUIC_STREAM_BIT_LEN)
		quic_out_var(o, d->len);
	quic_out_data(o, d->data, d->len);
	return o->err;
}

static int quic_frame_put_new_cid(struct quic_frame_out *o, const struct quic_frame *f)
{
	const struct quic_frame_new_cid *n = &f->new_cid;
	u8 len = n->id.len;

	if (!len || len > QUIC_CONN_ID_MAX_LEN || n->prior_to > n->seqno)
		return quic_out_fail(o);
	quic_out_var(o, n->seqno);
	quic_out_var(o, n->prior_to);
	quic_out_data(o, &len, 1);
	quic_out_data(o, n->id.data, len);
	quic_out_data(o, n->token, QUIC_FRAME_TOKEN_LEN);
	return o->err;
}

static int quic_frame_put_body(struct quic_frame_out *o, const struct quic_frame *f)
{
	const struct quic_frame_limit *l = &f->limit;
	const struct quic_frame_reset *r = &f->reset;
	const struct quic_frame_data *d = &f->data;

	switch (f->type) {
	case QUIC_FRAME_PADDING:
		/* The type byte is the first PADDING frame; zeros follow. */
		if (!f->padding)
			return quic_out_fail(o);
		if (!quic_out_room(o, f->padding - 1) || o->measure)
			return o->err;
		if (o->left < f->padding - 1) {
			o->err = -ENOSPC;
			return o->err;
		}
		memset(o->p, 0, f->padding - 1);
		o->p += f->padding - 1;
		o->left -= f->padding - 1;
		return o->err;
	case QUIC_FRAME_PING:
	case QUIC_FRAME_HANDSHAKE_DONE:
		return o->err;
	case QUIC_FRAME_ACK:
	case QUIC_FRAME_ACK_ECN:
		return quic_frame_put_ack(o, f);
	case QUIC_FRAME_RESET_STREAM:
		quic_out_var(o, r->id);
		quic_out_var(o, r->errcode);
		quic_out_var(o, r->final_size);
		return o->err;
	case QUIC_FRAME_STOP_SENDING:
		quic_out_var(o, r->id);
		quic_out_var(o, r->errcode);
		return o->err;
	case QUIC_FRAME_CRYPTO:
		if (d->offset > QUIC_VARINT_MAX || d->len > QUIC_VARINT_MAX - d->offset)
			return quic_out_fail(o);
		quic_out_var(o, d->offset);
		quic_out_bytes(o, d->data, d->len);
		return o->err;
	case QUIC_FRAME_NEW_TOKEN:
		if (!d->len)
			return quic_out_fail(o);
		quic_out_bytes(o, d->data, d->len);
		return o->err;
	case QUIC_FRAME_MAX_STREAM_DATA:
	case QUIC_FRAME_STREAM_DATA_BLOCKED:
		quic_out_var(o, l->id);
		fallthrough;
	case QUIC_FRAME_MAX_DATA:
	case QUIC_FRAME_DATA_BLOCKED:
		quic_out_var(o, l->max);
		return o->err;
	case QUIC_FRAME_MAX_STREAMS_BIDI:
	case QUIC_FRAME_MAX_STREAMS_UNI:
	case QUIC_FRAME_STREAMS_BLOCKED_BIDI:
	case QUIC_FRAME_STREAMS_BLOCKED_UNI:
		if (l->max > QUIC_FRAME_MAX_STREAMS)
			return quic_out_fail(o);
		quic_out_var(o, l->max);
		return o->err;
	case QUIC_FRAME_NEW_CONNECTION_ID:
		return quic_frame_put_new_cid(o, f);
	case QUIC_FRAME_RETIRE_CONNECTION_ID:
		quic_out_var(o, f->seqno);
		return o->err;
	case QUIC_FRAME_PATH_CHALLENGE:
	case QUIC_FRAME_PATH_RESPONSE:
		quic_out_data(o, f->path_data, QUIC_FRAME_PATH_DATA_LEN);
		return o->err;
	case QUIC_FRAME_CONNECTION_CLOSE:
	case QUIC_FRAME_CONNECTION_CLOSE_APP:
		quic_out_var(o, f->close.errcode);
		if (f->type == QUIC_FRAME_CONNECTION_CLOSE)
			quic_out_var(o, f->close.frame_type);
		quic_out_bytes(o, f->close.phrase, f->close.phrase_len);
		return o->err;
	case QUIC_FRAME_DATAGRAM:
		quic_out_data(o, d->data, d->len);
		return o->err;
	case QUIC_FRAME_DATAGRAM_LEN:
		quic_out_bytes(o, d->data, d->len);
		return o->err;
	default:
		if ((f->type & ~(QUIC_STREAM_BIT_MASK - 1)) != QUIC_FRAME_STREAM)
			return quic_out_fail(o);
		return quic_frame_put_stream(o, f);
	}
}

static int quic_frame_put(struct quic_frame_out *o, const struct quic_frame *f)
{
	if (!quic_frame_info(f->type))
		return quic_out_fail(o);
	quic_out_var(o, f->type);
	return quic_frame_put_body(o, f);
}

/**
 * quic_frame_len - number of bytes quic_frame_encode() would write
 * @f: the frame
 *
 * Return: the encoded length, or -EINVAL for a frame that cannot be
 * encoded (the same checks as quic_frame_encode()).
 */
int quic_frame_len(const struct quic_frame *f)
{
	struct quic_frame_out o = { .measure = true };

	quic_frame_put(&o, f);
	if (o.err)
		return o.err;
	return o.len > INT_MAX ? -EINVAL : o.len;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_frame_len);

/**
 * quic_frame_encode - write one frame
 * @pp: output cursor; advanced past the frame on success
 * @plen: room left; reduced on success
 * @f: the frame. @f->type selects the fields used; a STREAM type's flag
 *	bits decide which optional fields are written (with the OFF bit clear
 *	the offset must be 0; with the LEN bit clear the data must end the
 *	packet, which is the caller's business).
 *
 * Values the receiver would reject are refused: varints above 2^62 - 1,
 * STREAM and CRYPTO data ending beyond 2^62 - 1, stream counts above 2^60,
 * connection IDs outside 1..20 bytes, Retire Prior To above the Sequence
 * Number, an empty NEW_TOKEN, ACK ranges going below zero, an empty
 * PADDING run.
 *
 * Return: 0, -EINVAL for a frame that cannot be encoded, -ENOSPC when it
 * does not fit; nothing is written on failure.
 */
int quic_frame_encode(u8 **pp, u32 *plen, const struct quic_frame *f)
{
	struct quic_frame_out o = { .measure = true };

	quic_frame_put(&o, f);
	if (o.err)
		return o.err;
	if (o.len > *plen)
		return -ENOSPC;

	o = (struct quic_frame_out){ .p = *pp, .left = *plen };
	quic_frame_put(&o, f);
	if (WARN_ON_ONCE(o.err))
		return o.err;
	*pp = o.p;
	*plen = o.left;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_frame_encode);

/**
 * quic_frame_ack_init - prepare an ACK frame from a packet number space's ranges
 * @f: the frame to fill
 * @info: ranges from quic_pnspace_ack_info(); referenced, not copied, so
 *	it must outlive the encoding
 * @delay: ACK Delay field, already scaled down by our ack_delay_exponent
 * @ecn: ECT0, ECT1 and ECN-CE counts for an ACK_ECN frame, or NULL for a
 *	plain ACK frame
 */
void quic_frame_ack_init(struct quic_frame *f, const struct quic_ack_info *info, u64 delay,
			 const u64 *ecn)
{
	struct quic_frame_ack *ack = &f->ack;

	memset(f, 0, sizeof(*f));
	f->type = ecn ? QUIC_FRAME_ACK_ECN : QUIC_FRAME_ACK;
	ack->largest = info->largest;
	ack->delay = delay;
	ack->first_range = info->first_range;
	ack->range_count = info->range_count;
	ack->ranges = info->ranges;
	ack->smallest = info->smallest;
	if (ecn)
		memcpy(ack->ecn, ecn, sizeof(ack->ecn));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_frame_ack_init);

/**
 * quic_frame_ack_iter_init - start walking the ranges of an ACK frame
 * @it: the iterator
 * @ack: a decoded ACK frame, or one prepared by quic_frame_ack_init(); it
 *	must stay unchanged while @it is used
 */
void quic_frame_ack_iter_init(struct quic_frame_ack_iter *it, const struct quic_frame_ack *ack)
{
	memset(it, 0, sizeof(*it));
	it->ranges = ack->ranges;
	it->p = ack->raw;
	it->len = ack->raw_len;
	it->left = ack->range_count;
	it->first = true;
	it->largest = ack->largest;
	it->first_range = ack->first_range;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_frame_ack_iter_init);

/**
 * quic_frame_ack_next - the next range of acknowledged packet numbers
 * @it: the iterator
 * @low: smallest packet number of the range
 * @high: largest packet number of the range
 *
 * Ranges come in descending order, the First ACK Range first.
 *
 * Return: true with @low and @high set, false when no range is left (or
 * the ranges are malformed, which a decoded frame never is).
 */
bool quic_frame_ack_next(struct quic_frame_ack_iter *it, u64 *low, u64 *high)
{
	u64 gap, len;

	if (it->first) {
		if (it->first_range > it->largest)
			return false;
		it->first = false;
		it->low = it->largest - it->first_range;
		*low = it->low;
		*high = it->largest;
		return true;
	}
	if (!it->left)
		return false;
	if (it->ranges) {
		gap = it->ranges[it->next].gap;
		len = it->ranges[it->next].len;
		it->next++;
	} else if (quic_get_var(&it->p, &it->len, &gap) || quic_get_var(&it->p, &it->len, &len)) {
		return false;
	}
	if (gap > QUIC_VARINT_MAX || it->low < gap + 2 || it->low - gap - 2 < len)
		return false;
	it->left--;
	*high = it->low - gap - 2;
	it->low = *high - len;
	*low = it->low;
	return true;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_frame_ack_next);
