/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC frame codec (RFC 9000 Sections 12.4 and 19, RFC 9221 Section 4).
 *
 * quic_frame_decode() turns the frame at a cursor into a struct quic_frame
 * and quic_frame_encode() does the reverse. Variable-size content (STREAM,
 * CRYPTO, NEW_TOKEN and DATAGRAM data, reason phrases, ACK ranges) is
 * referenced in place: a decoded frame points into the packet it came from
 * and is only valid while that packet is.
 *
 * The decoder checks the frame against the packet type it arrived in (the
 * "Pkts" column of RFC 9000 Table 3), against the receiver's role and
 * against every field limit the RFCs set. A frame the peer should not have
 * sent is reported as a negative errno that stands for one transport error
 * code (quic_frame_transport_error()):
 *
 *   -EBADMSG  FRAME_ENCODING_ERROR  truncated or malformed frame, unknown
 *                                   type, field out of range
 *   -EPROTO   PROTOCOL_VIOLATION    frame not allowed in this packet type or
 *                                   towards this endpoint, frame type not in
 *                                   its shortest encoding, DATAGRAM not
 *                                   negotiated or over the advertised size
 *   -EPIPE    STREAM_STATE_ERROR    frame for a stream direction that does
 *                                   not exist at the receiver
 *
 * On failure the cursor is left where it was. Encoders return -EINVAL for
 * a frame the RFCs would make the peer reject and -ENOSPC when the output
 * is too short; they too leave the cursor alone on failure.
 */

#ifndef __net_quic_frame_h__
#define __net_quic_frame_h__

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/quic.h>

#include "common.h"
#include "pnspace.h"

/* Frame types (RFC 9000 Section 12.4 Table 3, RFC 9221 Section 4). */
enum quic_frame_type {
	QUIC_FRAME_PADDING		= 0x00,
	QUIC_FRAME_PING			= 0x01,
	QUIC_FRAME_ACK			= 0x02,
	QUIC_FRAME_ACK_ECN		= 0x03,
	QUIC_FRAME_RESET_STREAM		= 0x04,
	QUIC_FRAME_STOP_SENDING		= 0x05,
	QUIC_FRAME_CRYPTO		= 0x06,
	QUIC_FRAME_NEW_TOKEN		= 0x07,
	QUIC_FRAME_STREAM		= 0x08,	/* to 0x0f: QUIC_STREAM_BIT_* */
	QUIC_FRAME_MAX_DATA		= 0x10,
	QUIC_FRAME_MAX_STREAM_DATA	= 0x11,
	QUIC_FRAME_MAX_STREAMS_BIDI	= 0x12,
	QUIC_FRAME_MAX_STREAMS_UNI	= 0x13,
	QUIC_FRAME_DATA_BLOCKED		= 0x14,
	QUIC_FRAME_STREAM_DATA_BLOCKED	= 0x15,
	QUIC_FRAME_STREAMS_BLOCKED_BIDI	= 0x16,
	QUIC_FRAME_STREAMS_BLOCKED_UNI	= 0x17,
	QUIC_FRAME_NEW_CONNECTION_ID	= 0x18,
	QUIC_FRAME_RETIRE_CONNECTION_ID	= 0x19,
	QUIC_FRAME_PATH_CHALLENGE	= 0x1a,
	QUIC_FRAME_PATH_RESPONSE	= 0x1b,
	QUIC_FRAME_CONNECTION_CLOSE	= 0x1c,
	QUIC_FRAME_CONNECTION_CLOSE_APP	= 0x1d,
	QUIC_FRAME_HANDSHAKE_DONE	= 0x1e,
	QUIC_FRAME_DATAGRAM		= 0x30,	/* Datagram Data to the end of the packet */
	QUIC_FRAME_DATAGRAM_LEN		= 0x31,	/* with a Length field */
};

/* RFC 9000 Section 19.15: Stateless Reset Token (128). */
#define QUIC_FRAME_TOKEN_LEN		16
/* RFC 9000 Sections 19.17 and 19.18: Data (64). */
#define QUIC_FRAME_PATH_DATA_LEN	8
/* RFC 9000 Section 4.6: stream counts above 2^60 cannot be used. */
#define QUIC_FRAME_MAX_STREAMS		BIT_ULL(60)

/* Properties of a frame type: RFC 9000 Section 12.4 "Spec" column. */
#define QUIC_FRAME_F_NOT_ACK_ELICITING	BIT(0)	/* N */
#define QUIC_FRAME_F_NOT_IN_FLIGHT	BIT(1)	/* C */
#define QUIC_FRAME_F_PROBING		BIT(2)	/* P */
#define QUIC_FRAME_F_FLOW_CONTROLLED	BIT(3)	/* F */

/**
 * struct quic_frame_ack - ACK and ACK_ECN frames (RFC 9000 Section 19.3)
 * @largest: Largest Acknowledged
 * @delay: ACK Delay as carried, before scaling by ack_delay_exponent
 * @first_range: First ACK Range
 * @range_count: ACK Range Count
 * @ecn: ECT0, ECT1 and ECN-CE Counts (&enum quic_ecn_count), ACK_ECN only
 * @smallest: decoder: the smallest packet number the frame acknowledges
 * @ranges: encoder: @range_count (Gap, ACK Range Length) pairs in the order
 *	they are sent, as quic_pnspace_ack_info() reports them; NULL to send
 *	@raw instead. The decoder sets it to NULL.
 * @raw: decoder: the encoded ACK Ranges inside the packet, already checked;
 *	walk them with quic_frame_ack_next()
 * @raw_len: length of @raw
 */
struct quic_frame_ack {
	u64 largest;
	u64 delay;
	u64 first_range;
	u64 range_count;
	u64 ecn[QUIC_ECN_MAX];
	u64 smallest;
	const struct quic_ack_range *ranges;
	const u8 *raw;
	u32 raw_len;
};

/**
 * struct quic_frame_data - frames carrying bytes: STREAM, CRYPTO, NEW_TOKEN, DATAGRAM
 * @id: STREAM: Stream ID
 * @offset: STREAM and CRYPTO: Offset (0 for a STREAM frame without OFF bit)
 * @data: the bytes, inside the packet (never copied by the decoder)
 * @len: number of bytes
 */
struct quic_frame_data {
	u64 id;
	u64 offset;
	const u8 *data;
	u32 len;
};

/**
 * struct quic_frame_reset - RESET_STREAM and STOP_SENDING frames (RFC 9000 Sections 19.4, 19.5)
 * @id: Stream ID
 * @errcode: Application Protocol Error Code
 * @final_size: RESET_STREAM: Final Size (0 for STOP_SENDING)
 */
struct quic_frame_reset {
	u64 id;
	u64 errcode;
	u64 final_size;
};

/**
 * struct quic_frame_limit - flow control and stream limit frames (RFC 9000 Sections 19.9-19.14)
 * @id: MAX_STREAM_DATA and STREAM_DATA_BLOCKED: Stream ID (0 otherwise)
 * @max: Maximum Data, Maximum Stream Data or Maximum Streams
 */
struct quic_frame_limit {
	u64 id;
	u64 max;
};

/**
 * struct quic_frame_new_cid - NEW_CONNECTION_ID frame (RFC 9000 Section 19.15)
 * @seqno: Sequence Number
 * @prior_to: Retire Prior To
 * @id: Connection ID, 1 to 20 bytes
 * @token: Stateless Reset Token
 */
struct quic_frame_new_cid {
	u64 seqno;
	u64 prior_to;
	struct quic_conn_id id;
	u8 token[QUIC_FRAME_TOKEN_LEN];
};

/**
 * struct quic_frame_close - CONNECTION_CLOSE frames (RFC 9000 Section 19.19)
 * @errcode: Error Code (transport or application, by frame type)
 * @frame_type: type 0x1c: Frame Type that triggered the error (0 otherwise)
 * @phrase: Reason Phrase, inside the packet
 * @phrase_len: Reason Phrase Length
 */
struct quic_frame_close {
	u64 errcode;
	u64 frame_type;
	const u8 *phrase;
	u32 phrase_len;
};

/**
 * struct quic_frame - one decoded frame, or one frame to encode
 * @type: frame type (&enum quic_frame_type; STREAM types carry their flags)
 * @padding: PADDING: number of bytes. The decoder folds a run of PADDING
 *	frames into one; the encoder writes that many zero bytes.
 * @ack: ACK, ACK_ECN
 * @data: STREAM, CRYPTO, NEW_TOKEN, DATAGRAM
 * @reset: RESET_STREAM, STOP_SENDING
 * @limit: MAX_DATA, MAX_STREAM_DATA, MAX_STREAMS, DATA_BLOCKED,
 *	STREAM_DATA_BLOCKED, STREAMS_BLOCKED
 * @new_cid: NEW_CONNECTION_ID
 * @seqno: RETIRE_CONNECTION_ID: Sequence Number
 * @path_data: PATH_CHALLENGE, PATH_RESPONSE: Data
 * @close: CONNECTION_CLOSE (both types)
 */
struct quic_frame {
	u8 type;
	union {
		u32 padding;
		struct quic_frame_ack ack;
		struct quic_frame_data data;
		struct quic_frame_reset reset;
		struct quic_frame_limit limit;
		struct quic_frame_new_cid new_cid;
		u64 seqno;
		u8 path_data[QUIC_FRAME_PATH_DATA_LEN];
		struct quic_frame_close close;
	};
};

/**
 * struct quic_frame_ctx - what the decoder needs to know about the receiver
 * @level: encryption level of the packet carrying the frames
 *	(&enum quic_crypto_level: QUIC_CRYPTO_EARLY is a 0-RTT packet,
 *	QUIC_CRYPTO_APP a 1-RTT packet)
 * @is_serv: the receiver is the server
 * @max_datagram: max_datagram_frame_size the receiver announced (RFC 9221
 *	Section 3); 0 means DATAGRAM frames are refused
 */
struct quic_frame_ctx {
	u8 level;
	u8 is_serv;
	u32 max_datagram;
};

/**
 * struct quic_frame_ack_iter - walk over the ranges of an ACK frame
 * @ranges: array form (&quic_frame_ack.ranges), or NULL
 * @p: encoded form (&quic_frame_ack.raw)
 * @len: bytes left at @p
 * @left: ranges not returned yet, the first one included
 * @next: index of the next entry of @ranges
 * @first: the First ACK Range has not been returned yet
 * @largest: Largest Acknowledged of the frame
 * @first_range: First ACK Range of the frame
 * @low: smallest packet number of the range returned last
 */
struct quic_frame_ack_iter {
	const struct quic_ack_range *ranges;
	const u8 *p;
	u32 len;
	u64 left;
	u64 next;
	bool first;
	u64 largest;
	u64 first_range;
	u64 low;
};

int quic_frame_decode(const u8 **pp, u32 *plen, const struct quic_frame_ctx *ctx,
		      struct quic_frame *f);
int quic_frame_encode(u8 **pp, u32 *plen, const struct quic_frame *f);
int quic_frame_len(const struct quic_frame *f);
u32 quic_frame_transport_error(int err);

bool quic_frame_allowed(u8 type, u8 level);
u32 quic_frame_flags(u8 type);
bool quic_frame_ack_eliciting(u8 type);

void quic_frame_ack_init(struct quic_frame *f, const struct quic_ack_info *info, u64 delay,
			 const u64 *ecn);
void quic_frame_ack_iter_init(struct quic_frame_ack_iter *it, const struct quic_frame_ack *ack);
bool quic_frame_ack_next(struct quic_frame_ack_iter *it, u64 *low, u64 *high);

#endif /* __net_quic_frame_h__ */
