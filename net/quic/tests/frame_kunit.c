// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_frame: the frame codec (RFC 9000 Sections 12.4 and 19,
 * RFC 9221 Section 4).
 *
 * Every frame type round-trips through a table of hand-encoded vectors;
 * the same table drives the truncation, packet type and short-output
 * cases. Wire bytes were written by hand from the frame layouts of RFC
 * 9000 Section 19 and the varint encoding of Section 16 (1 byte below 64,
 * 0x40-prefixed 2 bytes below 16384, 0x80-prefixed 4 bytes below 2^30,
 * 0xc0-prefixed 8 bytes above), as noted next to each vector.
 */

#include <kunit/test.h>
#include <linux/slab.h>

#include "../frame.h"
#include "../pnspace.h"

/* Receiver settings of the vectors: a server unless noted. */
#define SERVER		1
#define CLIENT		0
#define DGRAM_MAX	1200

/**
 * struct frame_vec - one frame, on the wire and decoded
 * @desc: name shown by KUnit, with the RFC section
 * @wire: the encoded frame
 * @len: length of @wire
 * @f: the expected decoded frame; pointers are filled at run time from
 *	@data_off (data, reason phrase or ACK ranges in place)
 * @data_off: offset in @wire of the variable-size part
 * @pkts: RFC 9000 Table 3 "Pkts" column, positions I, H, 0, 1
 * @is_serv: role of the receiver that may get the frame
 * @open: the frame's data runs to the end of the packet, so a shorter
 *	input is a shorter frame rather than a truncated one
 */
struct frame_vec {
	const char *desc;
	struct {
		const u8 *wire;
		u32 len;
	};
	struct quic_frame f;
	u32 data_off;
	const char *pkts;
	u8 is_serv;
	bool open;
};

#define W(...)	{ (const u8[]){ __VA_ARGS__ }, sizeof((const u8[]){ __VA_ARGS__ }) }

static const u8 frame_token16[QUIC_FRAME_TOKEN_LEN] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};

static const struct frame_vec frame_vecs[] = {
	{ "PADDING x3, RFC 9000 19.1", W(0x00, 0x00, 0x00),
	  { .type = QUIC_FRAME_PADDING, .padding = 3 }, 1, "IH01", SERVER, true },
	{ "PING, RFC 9000 19.2", W(0x01), { .type = QUIC_FRAME_PING }, 1, "IH01", SERVER },
	/* Largest 100 (0x4064), Delay 25, Count 2, First 3: 97..100;
	 * Gap 1, Length 4: 90..94; Gap 0, Length 0: 88..88.
	 */
	{ "ACK with two ranges, RFC 9000 19.3", W(0x02, 0x40, 0x64, 0x19, 0x02, 0x03,
						  0x01, 0x04, 0x00, 0x00),
	  { .type = QUIC_FRAME_ACK, .ack = { .largest = 100, .delay = 25, .range_count = 2,
					     .first_range = 3, .smallest = 88, .raw_len = 4 } },
	  6, "IH_1", SERVER },
	/* Largest 5, First 5 (down to packet 0), ECT0 1, ECT1 2, CE 300 (0x412c). */
	{ "ACK_ECN, RFC 9000 19.3.2", W(0x03, 0x05, 0x00, 0x00, 0x05, 0x01, 0x02, 0x41, 0x2c),
	  { .type = QUIC_FRAME_ACK_ECN, .ack = { .largest = 5, .first_range = 5,
						 .ecn = { 1, 2, 300 } } },
	  5, "IH_1", SERVER },
	/* Stream 4, error 0x3ff (0x43ff), final size 65536 (0x80010000). */
	{ "RESET_STREAM, RFC 9000 19.4", W(0x04, 0x04, 0x43, 0xff, 0x80, 0x01, 0x00, 0x00),
	  { .type = QUIC_FRAME_RESET_STREAM, .reset = { 4, 0x3ff, 65536 } }, 0, "__01", SERVER },
	{ "STOP_SENDING, RFC 9000 19.5", W(0x05, 0x01, 0x00),
	  { .type = QUIC_FRAME_STOP_SENDING, .reset = { .id = 1 } }, 0, "__01", SERVER },
	{ "CRYPTO, RFC 9000 19.6", W(0x06, 0x00, 0x05, 'h', 'e', 'l', 'l', 'o'),
	  { .type = QUIC_FRAME_CRYPTO, .data = { .len = 5 } }, 3, "IH_1", SERVER },
	{ "NEW_TOKEN, RFC 9000 19.7", W(0x07, 0x04, 0xde, 0xad, 0xbe, 0xef),
	  { .type = QUIC_FRAME_NEW_TOKEN, .data = { .len = 4 } }, 2, "___1", CLIENT },
	/* STREAM on stream 0, offset 64 (0x4040) when OFF, length 3 when LEN. */
	{ "STREAM 0x08, RFC 9000 19.8", W(0x08, 0x00, 'a', 'b', 'c'),
	  { .type = 0x08, .data = { .len = 3 } }, 2, "__01", SERVER, true },
	{ "STREAM 0x09 FIN, RFC 9000 19.8", W(0x09, 0x00, 'a', 'b', 'c'),
	  { .type = 0x09, .data = { .len = 3 } }, 2, "__01", SERVER, true },
	{ "STREAM 0x0a LEN, RFC 9000 19.8", W(0x0a, 0x00, 0x03, 'a', 'b', 'c'),
	  { .type = 0x0a, .data = { .len = 3 } }, 3, "__01", SERVER },
	{ "STREAM 0x0b LEN|FIN, RFC 9000 19.8", W(0x0b, 0x00, 0x03, 'a', 'b', 'c'),
	  { .type = 0x0b, .data = { .len = 3 } }, 3, "__01", SERVER },
	{ "STREAM 0x0c OFF, RFC 9000 19.8", W(0x0c, 0x00, 0x40, 0x40, 'a', 'b', 'c'),
	  { .type = 0x0c, .data = { .offset = 64, .len = 3 } }, 4, "__01", SERVER, true },
	{ "STREAM 0x0d OFF|FIN, RFC 9000 19.8", W(0x0d, 0x00, 0x40, 0x40, 'a', 'b', 'c'),
	  { .type = 0x0d, .data = { .offset = 64, .len = 3 } }, 4, "__01", SERVER, true },
	{ "STREAM 0x0e OFF|LEN, RFC 9000 19.8", W(0x0e, 0x00, 0x40, 0x40, 0x03, 'a', 'b', 'c'),
	  { .type = 0x0e, .data = { .offset = 64, .len = 3 } }, 5, "__01", SERVER },
	{ "STREAM 0x0f OFF|LEN|FIN, RFC 9000 19.8",
	  W(0x0f, 0x00, 0x40, 0x40, 0x03, 'a', 'b', 'c'),
	  { .type = 0x0f, .data = { .offset = 64, .len = 3 } }, 5, "__01", SERVER },
	/* 2^62 - 1: the 8-byte varint of all ones. */
	{ "MAX_DATA, RFC 9000 19.9", W(0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	  { .type = QUIC_FRAME_MAX_DATA, .limit = { .max = QUIC_VARINT_MAX } }, 0, "__01", SERVER },
	/* Stream 2 is the client's unidirectional stream: the client sends on it. */
	{ "MAX_STREAM_DATA, RFC 9000 19.10", W(0x11, 0x02, 0x44, 0x00),
	  { .type = QUIC_FRAME_MAX_STREAM_DATA, .limit = { 2, 1024 } }, 0, "__01", CLIENT },
	/* 2^60 = 0x1000000000000000: 8-byte varint d0 00 00 00 00 00 00 00. */
	{ "MAX_STREAMS bidi 2^60, RFC 9000 19.11",
	  W(0x12, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00),
	  { .type = QUIC_FRAME_MAX_STREAMS_BIDI, .limit = { .max = 1ULL << 60 } }, 0, "__01",
	  SERVER },
	{ "MAX_STREAMS uni, RFC 9000 19.11", W(0x13, 0x40, 0x64),
	  { .type = QUIC_FRAME_MAX_STREAMS_UNI, .limit = { .max = 100 } }, 0, "__01", SERVER },
	{ "DATA_BLOCKED, RFC 9000 19.12", W(0x14, 0x00),
	  { .type = QUIC_FRAME_DATA_BLOCKED }, 0, "__01", SERVER },
	{ "STREAM_DATA_BLOCKED, RFC 9000 19.13", W(0x15, 0x00, 0x3f),
	  { .type = QUIC_FRAME_STREAM_DATA_BLOCKED, .limit = { 0, 63 } }, 0, "__01", SERVER },
	{ "STREAMS_BLOCKED bidi, RFC 9000 19.14", W(0x16, 0x07),
	  { .type = QUIC_FRAME_STREAMS_BLOCKED_BIDI, .limit = { .max = 7 } }, 0, "__01", SERVER },
	{ "STREAMS_BLOCKED uni 2^60, RFC 9000 19.14",
	  W(0x17, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00),
	  { .type = QUIC_FRAME_STREAMS_BLOCKED_UNI, .limit = { .max = 1ULL << 60 } }, 0, "__01",
	  SERVER },
	/* Sequence 2, Retire Prior To 1, the 8-byte ID of RFC 9001 A.2, token 00..0f. */
	{ "NEW_CONNECTION_ID, RFC 9000 19.15",
	  W(0x18, 0x02, 0x01, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08,
	    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f),
	  { .type = QUIC_FRAME_NEW_CONNECTION_ID,
	    .new_cid = { .seqno = 2, .prior_to = 1,
			 .id = { 8, { 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08 } } } },
	  0, "__01", SERVER },
	/* 16384 needs the 4-byte form: 80 00 40 00. */
	{ "RETIRE_CONNECTION_ID, RFC 9000 19.16", W(0x19, 0x80, 0x00, 0x40, 0x00),
	  { .type = QUIC_FRAME_RETIRE_CONNECTION_ID, .seqno = 16384 }, 0, "__01", SERVER },
	{ "PATH_CHALLENGE, RFC 9000 19.17", W(0x1a, 1, 2, 3, 4, 5, 6, 7, 8),
	  { .type = QUIC_FRAME_PATH_CHALLENGE, .path_data = { 1, 2, 3, 4, 5, 6, 7, 8 } },
	  0, "__01", SERVER },
	{ "PATH_RESPONSE, RFC 9000 19.18", W(0x1b, 8, 7, 6, 5, 4, 3, 2, 1),
	  { .type = QUIC_FRAME_PATH_RESPONSE, .path_data = { 8, 7, 6, 5, 4, 3, 2, 1 } },
	  0, "___1", SERVER },
	/* PROTOCOL_VIOLATION (0x0a) caused by a STREAM frame, reason "bad". */
	{ "CONNECTION_CLOSE transport, RFC 9000 19.19", W(0x1c, 0x0a, 0x08, 0x03, 'b', 'a', 'd'),
	  { .type = QUIC_FRAME_CONNECTION_CLOSE,
	    .close = { .errcode = 0x0a, .frame_type = 0x08, .phrase_len = 3 } },
	  4, "IH01", SERVER },
	/* Application error 0x1234 (0x5234), no reason. */
	{ "CONNECTION_CLOSE application, RFC 9000 19.19", W(0x1d, 0x52, 0x34, 0x00),
	  { .type = QUIC_FRAME_CONNECTION_CLOSE_APP, .close = { .errcode = 0x1234 } },
	  4, "__01", SERVER },
	{ "HANDSHAKE_DONE, RFC 9000 19.20", W(0x1e),
	  { .type = QUIC_FRAME_HANDSHAKE_DONE }, 0, "___1", CLIENT },
	{ "DATAGRAM 0x30, RFC 9221 4", W(0x30, 'x', 'y', 'z'),
	  { .type = QUIC_FRAME_DATAGRAM, .data = { .len = 3 } }, 1, "__01", SERVER, true },
	{ "DATAGRAM 0x31, RFC 9221 4", W(0x31, 0x03, 'x', 'y', 'z'),
	  { .type = QUIC_FRAME_DATAGRAM_LEN, .data = { .len = 3 } }, 2, "__01", SERVER },
};

static void frame_vec_desc(const struct frame_vec *v, char *desc)
{
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(frame_vec, frame_vecs, frame_vec_desc);

/* The ranges of the ACK vector, in the form quic_pnspace_ack_info() gives. */
static const struct quic_ack_range frame_ack_ranges[] = { { 1, 4 }, { 0, 0 } };

static bool frame_has_data(u8 type)
{
	return type == QUIC_FRAME_CRYPTO || type == QUIC_FRAME_NEW_TOKEN ||
	       type == QUIC_FRAME_DATAGRAM || type == QUIC_FRAME_DATAGRAM_LEN ||
	       (type >= QUIC_FRAME_STREAM && type < QUIC_FRAME_STREAM + 8);
}

/* Expected frame with its pointers into @wire (in place, never a copy). */
static struct quic_frame *frame_expected(struct kunit *test, const struct frame_vec *v,
					 const u8 *wire)
{
	struct quic_frame *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	*f = v->f;
	if (frame_has_data(f->type))
		f->data.data = wire + v->data_off;
	else if (f->type == QUIC_FRAME_CONNECTION_CLOSE ||
		 f->type == QUIC_FRAME_CONNECTION_CLOSE_APP)
		f->close.phrase = wire + v->data_off;
	else if (f->type == QUIC_FRAME_ACK || f->type == QUIC_FRAME_ACK_ECN)
		f->ack.raw = wire + v->data_off;
	else if (f->type == QUIC_FRAME_NEW_CONNECTION_ID)
		memcpy(f->new_cid.token, frame_token16, sizeof(frame_token16));
	return f;
}

static void frame_expect_equal(struct kunit *test, const struct quic_frame *got,
			       const struct quic_frame *exp)
{
	KUNIT_ASSERT_EQ(test, got->type, exp->type);
	switch (exp->type) {
	case QUIC_FRAME_PADDING:
		KUNIT_EXPECT_EQ(test, got->padding, exp->padding);
		break;
	case QUIC_FRAME_ACK:
	case QUIC_FRAME_ACK_ECN:
		KUNIT_EXPECT_EQ(test, got->ack.largest, exp->ack.largest);
		KUNIT_EXPECT_EQ(test, got->ack.delay, exp->ack.delay);
		KUNIT_EXPECT_EQ(test, got->ack.range_count, exp->ack.range_count);
		KUNIT_EXPECT_EQ(test, got->ack.first_range, exp->ack.first_range);
		KUNIT_EXPECT_EQ(test, got->ack.smallest, exp->ack.smallest);
		KUNIT_EXPECT_MEMEQ(test, got->ack.ecn, exp->ack.ecn, sizeof(exp->ack.ecn));
		KUNIT_EXPECT_PTR_EQ(test, got->ack.raw, exp->ack.raw);
		KUNIT_EXPECT_EQ(test, got->ack.raw_len, exp->ack.raw_len);
		KUNIT_EXPECT_NULL(test, got->ack.ranges);
		break;
	case QUIC_FRAME_RESET_STREAM:
	case QUIC_FRAME_STOP_SENDING:
		KUNIT_EXPECT_EQ(test, got->reset.id, exp->reset.id);
		KUNIT_EXPECT_EQ(test, got->reset.errcode, exp->reset.errcode);
		KUNIT_EXPECT_EQ(test, got->reset.final_size, exp->reset.final_size);
		break;
	case QUIC_FRAME_NEW_CONNECTION_ID:
		KUNIT_EXPECT_EQ(test, got->new_cid.seqno, exp->new_cid.seqno);
		KUNIT_EXPECT_EQ(test, got->new_cid.prior_to, exp->new_cid.prior_to);
		KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&got->new_cid.id, &exp->new_cid.id));
		KUNIT_EXPECT_MEMEQ(test, got->new_cid.token, exp->new_cid.token,
				   QUIC_FRAME_TOKEN_LEN);
		break;
	case QUIC_FRAME_RETIRE_CONNECTION_ID:
		KUNIT_EXPECT_EQ(test, got->seqno, exp->seqno);
		break;
	case QUIC_FRAME_PATH_CHALLENGE:
	case QUIC_FRAME_PATH_RESPONSE:
		KUNIT_EXPECT_MEMEQ(test, got->path_data, exp->path_data, QUIC_FRAME_PATH_DATA_LEN);
		break;
	case QUIC_FRAME_CONNECTION_CLOSE:
	case QUIC_FRAME_CONNECTION_CLOSE_APP:
		KUNIT_EXPECT_EQ(test, got->close.errcode, exp->close.errcode);
		KUNIT_EXPECT_EQ(test, got->close.frame_type, exp->close.frame_type);
		KUNIT_EXPECT_PTR_EQ(test, got->close.phrase, exp->close.phrase);
		KUNIT_EXPECT_EQ(test, got->close.phrase_len, exp->close.phrase_len);
		break;
	case QUIC_FRAME_PING:
	case QUIC_FRAME_HANDSHAKE_DONE:
		break;
	default:
		if (frame_has_data(exp->type)) {
			KUNIT_EXPECT_EQ(test, got->data.id, exp->data.id);
			KUNIT_EXPECT_EQ(test, got->data.offset, exp->data.offset);
			KUNIT_EXPECT_PTR_EQ(test, got->data.data, exp->data.data);
			KUNIT_EXPECT_EQ(test, got->data.len, exp->data.len);
		} else {
			KUNIT_EXPECT_EQ(test, got->limit.id, exp->limit.id);
			KUNIT_EXPECT_EQ(test, got->limit.max, exp->limit.max);
		}
		break;
	}
}

static struct quic_frame_ctx frame_ctx(u8 level, u8 is_serv)
{
	return (struct quic_frame_ctx){ .level = level, .is_serv = is_serv,
					.max_datagram = DGRAM_MAX };
}

/* The most permissive level of a "Pkts" string: 1-RTT is always there. */
#define FRAME_LEVEL_1RTT	QUIC_CRYPTO_APP

static int frame_decode_buf(const u8 *buf, u32 len, const struct quic_frame_ctx *ctx,
			    struct quic_frame *f, u32 *consumed)
{
	const u8 *p = buf;
	u32 left = len;
	int err;

	err = quic_frame_decode(&p, &left, ctx, f);
	*consumed = p - buf;
	if (!err && left != len - *consumed)
		return -ERANGE;	/* cursor and length disagree */
	return err;
}

static void frame_round_trip(struct kunit *test)
{
	const struct frame_vec *v = test->param_value;
	struct quic_frame_ctx ctx = frame_ctx(FRAME_LEVEL_1RTT, v->is_serv);
	struct quic_frame *got, *exp;
	u8 *wire, *out, *p;
	u32 used, left;

	/* Arrange: an exact-size copy, so that KASAN sees any overread. */
	wire = kunit_kmalloc(test, v->len, GFP_KERNEL);
	out = kunit_kzalloc(test, v->len, GFP_KERNEL);
	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, wire);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	memcpy(wire, v->wire, v->len);
	exp = frame_expected(test, v, wire);

	/* Decode: every byte taken, every field as written by hand. */
	KUNIT_ASSERT_EQ(test, frame_decode_buf(wire, v->len, &ctx, got, &used), 0);
	KUNIT_EXPECT_EQ(test, used, v->len);
	frame_expect_equal(test, got, exp);

	/* Encode the decoded frame: the same bytes, and the announced size. */
	KUNIT_EXPECT_EQ(test, quic_frame_len(got), (int)v->len);
	p = out;
	left = v->len;
	KUNIT_ASSERT_EQ(test, quic_frame_encode(&p, &left, got), 0);
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_PTR_EQ(test, p, out + v->len);
	KUNIT_EXPECT_MEMEQ(test, out, v->wire, v->len);
}

static void frame_decode_rejects_truncation_at_every_byte(struct kunit *test)
{
	const struct frame_vec *v = test->param_value;
	struct quic_frame_ctx ctx = frame_ctx(FRAME_LEVEL_1RTT, v->is_serv);
	struct quic_frame *got;
	u32 cut, used, left;
	const u8 *p;
	u8 *buf;
	int err;

	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	for (cut = 0; cut < v->len; cut++) {
		buf = kunit_kmalloc(test, cut, GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
		memcpy(buf, v->wire, cut);

		p = buf;
		left = cut;
		err = quic_frame_decode(&p, &left, &ctx, got);
		if (v->open && cut && cut >= v->data_off) {
			/* Data to the end of the packet: a shorter, valid frame. */
			KUNIT_EXPECT_EQ_MSG(test, err, 0, "cut at %u", cut);
			used = p - buf;
			KUNIT_EXPECT_EQ(test, used, cut);
			if (got->type == QUIC_FRAME_PADDING)
				KUNIT_EXPECT_EQ(test, got->padding, cut);
			else
				KUNIT_EXPECT_EQ(test, got->data.len, cut - v->data_off);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, err, -EBADMSG, "cut at %u", cut);
			KUNIT_EXPECT_EQ(test, quic_frame_transport_error(err),
					(u32)QUIC_TRANSPORT_ERROR_FRAME_ENCODING);
			KUNIT_EXPECT_PTR_EQ(test, p, (const u8 *)buf);
			KUNIT_EXPECT_EQ(test, left, cut);
		}
		kunit_kfree(test, buf);
	}
}

/* Position of each encryption level in a "Pkts" string (RFC 9000 12.4). */
static const u8 frame_pkts_levels[] = {
	QUIC_CRYPTO_INITIAL, QUIC_CRYPTO_HANDSHAKE, QUIC_CRYPTO_EARLY, QUIC_CRYPTO_APP,
};

static void frame_decode_enforces_packet_types(struct kunit *test)
{
	const struct frame_vec *v = test->param_value;
	struct quic_frame_ctx ctx;
	struct quic_frame *got;
	bool allowed;
	u32 i, used;
	int err;

	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	for (i = 0; i < ARRAY_SIZE(frame_pkts_levels); i++) {
		/* "_" marks a forbidden packet type; "ih" are allowed (0x1c). */
		allowed = v->pkts[i] != '_';
		ctx = frame_ctx(frame_pkts_levels[i], v->is_serv);
		KUNIT_EXPECT_EQ(test, quic_frame_allowed(v->f.type, ctx.level), allowed);

		err = frame_decode_buf(v->wire, v->len, &ctx, got, &used);
		if (allowed) {
			KUNIT_EXPECT_EQ_MSG(test, err, 0, "level %u", ctx.level);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, err, -EPROTO, "level %u", ctx.level);
			KUNIT_EXPECT_EQ(test, quic_frame_transport_error(err),
					(u32)QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);
		}
	}
}

static void frame_encode_refuses_short_output(struct kunit *test)
{
	const struct frame_vec *v = test->param_value;
	struct quic_frame_ctx ctx = frame_ctx(FRAME_LEVEL_1RTT, v->is_serv);
	struct quic_frame *got;
	u32 room, left, used;
	u8 *out, *p;

	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	out = kunit_kmalloc(test, v->len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	KUNIT_ASSERT_EQ(test, frame_decode_buf(v->wire, v->len, &ctx, got, &used), 0);

	for (room = 0; room < v->len; room++) {
		memset(out, 0xa5, v->len);
		p = out;
		left = room;
		KUNIT_EXPECT_EQ_MSG(test, quic_frame_encode(&p, &left, got), -ENOSPC,
				    "room %u", room);
		KUNIT_EXPECT_PTR_EQ(test, p, out);
		KUNIT_EXPECT_EQ(test, left, room);
		/* Nothing written: all-or-nothing. */
		KUNIT_EXPECT_NULL(test, memchr_inv(out, 0xa5, v->len));
	}
}

/* RFC 9000 Section 12.4: unknown frame types are FRAME_ENCODING_ERROR. */
static void frame_decode_rejects_unknown_types(struct kunit *test)
{
	static const u8 types[][2] = {
		{ 0x1f }, { 0x20 }, { 0x21 }, { 0x2f }, { 0x32 }, { 0x3f },
		{ 0x40, 0x40 },		/* 64, two bytes */
		{ 0x7f, 0xff },		/* 16383 */
	};
	struct quic_frame_ctx ctx = frame_ctx(FRAME_LEVEL_1RTT, SERVER);
	struct quic_frame *got;
	u32 i, used;
	int err;

	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		err = frame_decode_buf(types[i], types[i][0] & 0x40 ? 2 : 1, &ctx, got, &used);
		KUNIT_EXPECT_EQ_MSG(test, err, -EBADMSG, "type %02x", types[i][0]);
		KUNIT_EXPECT_EQ(test, quic_frame_transport_error(err),
				(u32)QUIC_TRANSPORT_ERROR_FRAME_ENCODING);
		KUNIT_EXPECT_FALSE(test, quic_frame_allowed(types[i][0], QUIC_CRYPTO_APP));
	}
	/* An empty payload holds no frame at all. */
	KUNIT_EXPECT_EQ(test, frame_decode_buf(types[0], 0, &ctx, got, &used), -EBADMSG);
}

/*
 * RFC 9000 Section 12.4: "a frame type MUST use the shortest possible
 * encoding", PROTOCOL_VIOLATION otherwise: PING as 0x4001 (its own
 * example), CRYPTO as 0x80000006, HANDSHAKE_DONE in eight bytes.
 */
static void frame_decode_rejects_long_type_encoding(struct kunit *test)
{
	static const u8 ping2[] = { 0x40, 0x01 };
	static const u8 crypto4[] = { 0x80, 0x00, 0x00, 0x06, 0x00, 0x01, 'x' };
	static const u8 done8[] = { 0xc0, 0, 0, 0, 0, 0, 0, 0x1e };
	struct quic_frame_ctx ctx = frame_ctx(FRAME_LEVEL_1RTT, CLIENT);
	struct quic_frame *got;
	u32 used;
	int err;

	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	err = frame_decode_buf(ping2, sizeof(ping2), &ctx, got, &used);
	KUNIT_EXPECT_EQ(test, err, -EPROTO);
	KUNIT_EXPECT_EQ(test, quic_frame_transport_error(err),
			(u32)QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);
	KUNIT_EXPECT_EQ(test, frame_decode_buf(crypto4, sizeof(crypto4), &ctx, got, &used),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, frame_decode_buf(done8, sizeof(done8), &ctx, got, &used), -EPROTO);
}

/**
 * struct frame_bad - a frame breaking a field limit
 * @desc: the rule, with its RFC section
 * @wire: the frame
 * @len: its length
 * @err: expected return value
 * @is_serv: receiver role
 */
struct frame_bad {
	const char *desc;
	struct {
		const u8 *wire;
		u32 len;
	};
	int err;
	u8 is_serv;
};

static const struct frame_bad frame_bads[] = {
	/* 2^60 + 1 = d0 00 00 00 00 00 00 01 */
	{ "MAX_STREAMS bidi 2^60+1, RFC 9000 19.11",
	  W(0x12, 0xd0, 0, 0, 0, 0, 0, 0, 0x01), -EBADMSG },
	{ "MAX_STREAMS uni 2^62-1, RFC 9000 19.11",
	  W(0x13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), -EBADMSG },
	{ "STREAMS_BLOCKED bidi 2^60+1, RFC 9000 19.14",
	  W(0x16, 0xd0, 0, 0, 0, 0, 0, 0, 0x01), -EBADMSG },
	{ "STREAMS_BLOCKED uni 2^60+1, RFC 9000 19.14",
	  W(0x17, 0xd0, 0, 0, 0, 0, 0, 0, 0x01), -EBADMSG },
	/* Offset 2^62 - 1 plus one byte ends at 2^62. */
	{ "STREAM end beyond 2^62-1, RFC 9000 19.8",
	  W(0x0e, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 'a'), -EBADMSG },
	{ "STREAM end 2^62-1 without LEN, RFC 9000 19.8",
	  W(0x0c, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 'a'), -EBADMSG },
	{ "STREAM Length beyond packet, RFC 9000 19.8", W(0x0a, 0x00, 0x04, 'a', 'b', 'c'),
	  -EBADMSG },
	{ "CRYPTO end beyond 2^62-1, RFC 9000 19.6",
	  W(0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 'a'), -EBADMSG },
	{ "NEW_TOKEN empty, RFC 9000 19.7", W(0x07, 0x00), -EBADMSG },
	{ "NEW_CONNECTION_ID length 0, RFC 9000 19.15",
	  W(0x18, 0x01, 0x00, 0x00, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
	  -EBADMSG },
	{ "NEW_CONNECTION_ID length 21, RFC 9000 19.15",
	  W(0x18, 0x01, 0x00, 21, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	    18, 19, 20, 21, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), -EBADMSG },
	{ "NEW_CONNECTION_ID Retire Prior To > Sequence, RFC 9000 19.15",
	  W(0x18, 0x01, 0x02, 0x01, 0xaa, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
	  -EBADMSG },
	{ "CONNECTION_CLOSE reason beyond packet, RFC 9000 19.19",
	  W(0x1c, 0x00, 0x00, 0x05, 'a', 'b'), -EBADMSG },
	/* Largest 5, First ACK Range 6: packet -1. */
	{ "ACK First ACK Range below 0, RFC 9000 19.3.1", W(0x02, 0x05, 0x00, 0x00, 0x06),
	  -EBADMSG },
	/* Largest 5, First 1 (4..5), Gap 3: largest = 4 - 3 - 2 = -1. */
	{ "ACK Gap below 0, RFC 9000 19.3.1", W(0x02, 0x05, 0x00, 0x01, 0x01, 0x03, 0x00),
	  -EBADMSG },
	/* Gap 2: largest = 4 - 2 - 2 = 0, then Length 1: smallest -1. */
	{ "ACK Range Length below 0, RFC 9000 19.3.1",
	  W(0x02, 0x05, 0x00, 0x01, 0x01, 0x02, 0x01), -EBADMSG },
	{ "ACK Range Count beyond packet, RFC 9000 19.3", W(0x02, 0x05, 0x00, 0x3f, 0x00),
	  -EBADMSG },
	/* RFC 9000 19.7 and 19.20: a server never receives these. */
	{ "NEW_TOKEN at a server, RFC 9000 19.7", W(0x07, 0x01, 0xaa), -EPROTO, SERVER },
	{ "HANDSHAKE_DONE at a server, RFC 9000 19.20", W(0x1e), -EPROTO, SERVER },
	/* Stream 3: server-initiated unidirectional, send-only for the server. */
	{ "STREAM on a send-only stream, RFC 9000 19.8", W(0x08, 0x03, 'a'), -EPIPE, SERVER },
	{ "RESET_STREAM on a send-only stream, RFC 9000 19.4", W(0x04, 0x03, 0x00, 0x00),
	  -EPIPE, SERVER },
	{ "STREAM_DATA_BLOCKED on a send-only stream, RFC 9000 19.13", W(0x15, 0x03, 0x00),
	  -EPIPE, SERVER },
	/* Stream 2: client-initiated unidirectional, receive-only for the server. */
	{ "STOP_SENDING on a receive-only stream, RFC 9000 19.5", W(0x05, 0x02, 0x00),
	  -EPIPE, SERVER },
	{ "MAX_STREAM_DATA on a receive-only stream, RFC 9000 19.10", W(0x11, 0x02, 0x00),
	  -EPIPE, SERVER },
	/* Stream 2 seen by the client that opened it: send-only there. */
	{ "STREAM on a client's send-only stream, RFC 9000 19.8", W(0x0b, 0x02, 0x00),
	  -EPIPE, CLIENT },
};

static void frame_bad_desc(const struct frame_bad *b, char *desc)
{
	strscpy(desc, b->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(frame_bad, frame_bads, frame_bad_desc);

static u32 frame_err_code(int err)
{
	switch (err) {
	case -EBADMSG:
		return QUIC_TRANSPORT_ERROR_FRAME_ENCODING;
	case -EPROTO:
		return QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION;
	default:
		return QUIC_TRANSPORT_ERROR_STREAM_STATE;
	}
}

static void frame_decode_rejects_bad_fields(struct kunit *test)
{
	const struct frame_bad *b = test->param_value;
	struct quic_frame_ctx ctx = frame_ctx(FRAME_LEVEL_1RTT, b->is_serv);
	struct quic_frame *got;
	u32 used;
	int err;

	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	err = frame_decode_buf(b->wire, b->len, &ctx, got, &used);
	KUNIT_EXPECT_EQ(test, err, b->err);
	KUNIT_EXPECT_EQ(test, quic_frame_transport_error(err), frame_err_code(b->err));
	KUNIT_EXPECT_EQ(test, used, 0U);
}

/* The limits themselves are allowed: these decode fine. */
static void frame_decode_accepts_values_at_limits(struct kunit *test)
{
	static const u8 end_at_max[] = {	/* offset 2^62 - 2, one byte */
		0x0e, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x01, 'a' };
	static const u8 empty_at_max[] = {	/* offset 2^62 - 1, no data */
		0x0e, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00 };
	static const u8 cid20[] = { 0x18, 0x01, 0x01, 20,
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	/* Largest 5, First 1 (4..5), Gap 2 (largest 0), Length 0: down to 0. */
	static const u8 ack_zero[] = { 0x02, 0x05, 0x00, 0x01, 0x01, 0x02, 0x00 };
	struct quic_frame_ctx ctx = frame_ctx(FRAME_LEVEL_1RTT, SERVER);
	struct quic_frame *got;
	u32 used;

	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	KUNIT_EXPECT_EQ(test, frame_decode_buf(end_at_max, sizeof(end_at_max), &ctx, got, &used),
			0);
	KUNIT_EXPECT_EQ(test, got->data.offset, QUIC_VARINT_MAX - 1);
	KUNIT_EXPECT_EQ(test, frame_decode_buf(empty_at_max, sizeof(empty_at_max), &ctx, got,
					       &used), 0);
	KUNIT_EXPECT_EQ(test, got->data.len, 0U);
	KUNIT_EXPECT_EQ(test, frame_decode_buf(cid20, sizeof(cid20), &ctx, got, &used), 0);
	KUNIT_EXPECT_EQ(test, got->new_cid.id.len, 20);
	KUNIT_EXPECT_EQ(test, got->new_cid.prior_to, got->new_cid.seqno);
	KUNIT_EXPECT_EQ(test, frame_decode_buf(ack_zero, sizeof(ack_zero), &ctx, got, &used), 0);
	KUNIT_EXPECT_EQ(test, got->ack.smallest, 0ULL);
}

/* Walk the ranges of a frame into @lo/@hi; returns how many there were. */
static u32 frame_ack_collect(const struct quic_frame_ack *ack, u64 *lo, u64 *hi, u32 max)
{
	struct quic_frame_ack_iter it;
	u32 n = 0;

	quic_frame_ack_iter_init(&it, ack);
	while (n < max && quic_frame_ack_next(&it, &lo[n], &hi[n]))
		n++;
	return n;
}

/*
 * The ACK vector of the table: Largest 100, First ACK Range 3 gives
 * 97..100; Gap 1 gives largest 97 - 1 - 2 = 94, Length 4 gives 90..94;
 * Gap 0 gives largest 90 - 0 - 2 = 88, Length 0 gives 88..88.
 */
static void frame_ack_ranges_match_hand_computed(struct kunit *test)
{
	static const u64 exp_lo[] = { 97, 90, 88 }, exp_hi[] = { 100, 94, 88 };
	const struct frame_vec *v = &frame_vecs[2];
	struct quic_frame_ctx ctx = frame_ctx(QUIC_CRYPTO_HANDSHAKE, SERVER);
	struct quic_frame *got, *enc;
	u64 lo[4], hi[4];
	u8 out[16], *p;
	u32 used, left;

	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	enc = kunit_kzalloc(test, sizeof(*enc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, enc);
	KUNIT_ASSERT_EQ(test, v->f.type, QUIC_FRAME_ACK);

	/* Decoded ranges, walked in place. */
	KUNIT_ASSERT_EQ(test, frame_decode_buf(v->wire, v->len, &ctx, got, &used), 0);
	KUNIT_ASSERT_EQ(test, frame_ack_collect(&got->ack, lo, hi, 4), 3U);
	KUNIT_EXPECT_MEMEQ(test, lo, exp_lo, sizeof(exp_lo));
	KUNIT_EXPECT_MEMEQ(test, hi, exp_hi, sizeof(exp_hi));

	/* Encoded from the (Gap, Length) array form: the same bytes. */
	*enc = v->f;
	enc->ack.ranges = frame_ack_ranges;
	KUNIT_ASSERT_EQ(test, frame_ack_collect(&enc->ack, lo, hi, 4), 3U);
	KUNIT_EXPECT_MEMEQ(test, lo, exp_lo, sizeof(exp_lo));
	p = out;
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_frame_encode(&p, &left, enc), 0);
	KUNIT_ASSERT_EQ(test, (u32)(p - out), v->len);
	KUNIT_EXPECT_MEMEQ(test, out, v->wire, v->len);
}

/*
 * Packets 0, 1, 2, 5, 6 and 9 received: quic_pnspace_ack_info() reports
 * Largest 9, First ACK Range 0 (9..9), then Gap 9 - 6 - 2 = 1 with Length
 * 1 (5..6), then Gap 5 - 2 - 2 = 1 with Length 2 (0..2). With an ACK
 * Delay of 16 the frame is 02 09 10 02 00 01 01 01 02; as ACK_ECN with
 * counts 3, 0, 1 it ends in 03 00 01.
 */
static void frame_ack_encodes_pnspace_ranges(struct kunit *test)
{
	static const u8 exp_ack[] = { 0x02, 0x09, 0x10, 0x02, 0x00, 0x01, 0x01, 0x01, 0x02 };
	static const u8 exp_ecn[] = { 0x03, 0x09, 0x10, 0x02, 0x00, 0x01, 0x01, 0x01, 0x02,
				      0x03, 0x00, 0x01 };
	static const s64 pns[] = { 0, 1, 2, 5, 6, 9 };
	static const u64 ecn[QUIC_ECN_MAX] = { 3, 0, 1 };
	struct quic_pnspace *space;
	struct quic_ack_info *info;
	struct quic_frame *f;
	u8 out[32], *p;
	u32 i, left;

	space = kunit_kzalloc(test, sizeof(*space), GFP_KERNEL);
	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, space);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	KUNIT_ASSERT_EQ(test, quic_pnspace_init(space, GFP_KERNEL), 0);
	for (i = 0; i < ARRAY_SIZE(pns); i++)
		KUNIT_ASSERT_EQ(test, quic_pnspace_mark(space, pns[i], 0), 0);
	KUNIT_ASSERT_EQ(test, quic_pnspace_ack_info(space, info), 0);
	quic_pnspace_free(space);

	quic_frame_ack_init(f, info, 16, NULL);
	KUNIT_EXPECT_EQ(test, quic_frame_len(f), (int)sizeof(exp_ack));
	p = out;
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_frame_encode(&p, &left, f), 0);
	KUNIT_ASSERT_EQ(test, (u32)(p - out), (u32)sizeof(exp_ack));
	KUNIT_EXPECT_MEMEQ(test, out, exp_ack, sizeof(exp_ack));

	quic_frame_ack_init(f, info, 16, ecn);
	KUNIT_EXPECT_EQ(test, f->type, QUIC_FRAME_ACK_ECN);
	p = out;
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_frame_encode(&p, &left, f), 0);
	KUNIT_ASSERT_EQ(test, (u32)(p - out), (u32)sizeof(exp_ecn));
	KUNIT_EXPECT_MEMEQ(test, out, exp_ecn, sizeof(exp_ecn));
}

static const u8 frame_one_byte[1] = { 'a' };
static const struct quic_ack_range frame_below_zero[] = { { 3, 0 } };

/* Frames the encoder refuses to write, each with the rule it breaks. */
static const struct quic_frame frame_unencodable[] = {
	{ .type = 0x1f },					/* unknown type */
	{ .type = QUIC_FRAME_PADDING, .padding = 0 },		/* no byte at all */
	{ .type = 0x08, .data = { .offset = 5 } },		/* offset without OFF bit */
	{ .type = 0x0c, .data = { .offset = QUIC_VARINT_MAX, .len = 1,
				  .data = frame_one_byte } },	/* ends beyond 2^62 - 1 */
	{ .type = QUIC_FRAME_CRYPTO, .data = { .offset = QUIC_VARINT_MAX, .len = 1,
					       .data = frame_one_byte } },
	{ .type = QUIC_FRAME_NEW_TOKEN },			/* empty token */
	{ .type = QUIC_FRAME_MAX_DATA, .limit = { .max = 1ULL << 62 } },	/* not a varint */
	{ .type = QUIC_FRAME_MAX_STREAMS_BIDI, .limit = { .max = (1ULL << 60) + 1 } },
	{ .type = QUIC_FRAME_STREAMS_BLOCKED_UNI, .limit = { .max = (1ULL << 60) + 1 } },
	{ .type = QUIC_FRAME_NEW_CONNECTION_ID, .new_cid = { .seqno = 1 } },	/* empty ID */
	{ .type = QUIC_FRAME_NEW_CONNECTION_ID,
	  .new_cid = { .seqno = 1, .prior_to = 2, .id = { .len = 4 } } },
	{ .type = QUIC_FRAME_ACK, .ack = { .largest = 1, .first_range = 2 } },
	/* Largest 3, First 0, Gap 3: largest 3 - 3 - 2 < 0. */
	{ .type = QUIC_FRAME_ACK, .ack = { .largest = 3, .range_count = 1,
					   .ranges = frame_below_zero } },
	{ .type = QUIC_FRAME_RESET_STREAM, .reset = { .final_size = 1ULL << 62 } },
};

static void frame_encode_rejects_invalid_frames(struct kunit *test)
{
	u8 out[64], *p;
	u32 i, left;

	for (i = 0; i < ARRAY_SIZE(frame_unencodable); i++) {
		p = out;
		left = sizeof(out);
		KUNIT_EXPECT_EQ_MSG(test, quic_frame_encode(&p, &left, &frame_unencodable[i]),
				    -EINVAL, "frame %u", i);
		KUNIT_EXPECT_EQ_MSG(test, quic_frame_len(&frame_unencodable[i]), -EINVAL,
				    "frame %u", i);
		KUNIT_EXPECT_TRUE(test, p == out && left == sizeof(out));
	}
}

/* RFC 9221 Section 3: DATAGRAM only when announced, and not over the size. */
static void frame_decode_checks_datagram_size(struct kunit *test)
{
	static const u8 with_len[] = { 0x31, 0x03, 'x', 'y', 'z' };	/* 5 bytes */
	static const u8 to_end[] = { 0x30, 'x', 'y', 'z' };		/* 4 bytes */
	struct quic_frame_ctx ctx = frame_ctx(FRAME_LEVEL_1RTT, SERVER);
	struct quic_frame *got;
	u32 used;

	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);

	ctx.max_datagram = 0;
	KUNIT_EXPECT_EQ(test, frame_decode_buf(to_end, 1, &ctx, got, &used), -EPROTO);
	ctx.max_datagram = 4;
	KUNIT_EXPECT_EQ(test, frame_decode_buf(with_len, sizeof(with_len), &ctx, got, &used),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, frame_decode_buf(to_end, sizeof(to_end), &ctx, got, &used), 0);
	ctx.max_datagram = 5;
	KUNIT_EXPECT_EQ(test, frame_decode_buf(with_len, sizeof(with_len), &ctx, got, &used), 0);
	KUNIT_EXPECT_EQ(test, got->data.len, 3U);
}

/* RFC 9000 Section 12.4 "Spec" column: N, C, P and F markings. */
static void frame_flags_follow_spec_column(struct kunit *test)
{
	u32 t;

	KUNIT_EXPECT_EQ(test, quic_frame_flags(QUIC_FRAME_PADDING),
			QUIC_FRAME_F_NOT_ACK_ELICITING | QUIC_FRAME_F_PROBING);
	KUNIT_EXPECT_EQ(test, quic_frame_flags(QUIC_FRAME_ACK),
			QUIC_FRAME_F_NOT_ACK_ELICITING | QUIC_FRAME_F_NOT_IN_FLIGHT);
	KUNIT_EXPECT_EQ(test, quic_frame_flags(QUIC_FRAME_ACK_ECN),
			QUIC_FRAME_F_NOT_ACK_ELICITING | QUIC_FRAME_F_NOT_IN_FLIGHT);
	for (t = QUIC_FRAME_STREAM; t < QUIC_FRAME_STREAM + 8; t++)
		KUNIT_EXPECT_EQ(test, quic_frame_flags(t), QUIC_FRAME_F_FLOW_CONTROLLED);
	KUNIT_EXPECT_EQ(test, quic_frame_flags(QUIC_FRAME_NEW_CONNECTION_ID),
			QUIC_FRAME_F_PROBING);
	KUNIT_EXPECT_EQ(test, quic_frame_flags(QUIC_FRAME_PATH_CHALLENGE), QUIC_FRAME_F_PROBING);
	KUNIT_EXPECT_EQ(test, quic_frame_flags(QUIC_FRAME_PATH_RESPONSE), QUIC_FRAME_F_PROBING);
	KUNIT_EXPECT_EQ(test, quic_frame_flags(QUIC_FRAME_CONNECTION_CLOSE),
			QUIC_FRAME_F_NOT_ACK_ELICITING);
	KUNIT_EXPECT_EQ(test, quic_frame_flags(QUIC_FRAME_CONNECTION_CLOSE_APP),
			QUIC_FRAME_F_NOT_ACK_ELICITING);
	KUNIT_EXPECT_EQ(test, quic_frame_flags(QUIC_FRAME_PING), 0U);
	KUNIT_EXPECT_EQ(test, quic_frame_flags(QUIC_FRAME_DATAGRAM), 0U);

	/* RFC 9000 Section 13.2 and RFC 9221 Section 5.2. */
	KUNIT_EXPECT_FALSE(test, quic_frame_ack_eliciting(QUIC_FRAME_PADDING));
	KUNIT_EXPECT_FALSE(test, quic_frame_ack_eliciting(QUIC_FRAME_ACK));
	KUNIT_EXPECT_FALSE(test, quic_frame_ack_eliciting(QUIC_FRAME_CONNECTION_CLOSE));
	KUNIT_EXPECT_TRUE(test, quic_frame_ack_eliciting(QUIC_FRAME_PING));
	KUNIT_EXPECT_TRUE(test, quic_frame_ack_eliciting(QUIC_FRAME_DATAGRAM_LEN));
	KUNIT_EXPECT_FALSE(test, quic_frame_ack_eliciting(0x1f));
}

/*
 * RFC 9001 Appendix A.2: the client Initial payload is one CRYPTO frame
 * (06 00 40f1: offset 0, 241 bytes of ClientHello) and PADDING up to 1162
 * bytes, so 1162 - 245 = 917 PADDING frames.
 */
static const u8 frame_a2_crypto[] = {
	0x06, 0x00, 0x40, 0xf1, 0x01, 0x00, 0x00, 0xed, 0x03, 0x03, 0xeb, 0xf8, 0xfa, 0x56, 0xf1,
	0x29, 0x39, 0xb9, 0x58, 0x4a, 0x38, 0x96, 0x47, 0x2e, 0xc4, 0x0b, 0xb8, 0x63, 0xcf, 0xd3,
	0xe8, 0x68, 0x04, 0xfe, 0x3a, 0x47, 0xf0, 0x6a, 0x2b, 0x69, 0x48, 0x4c, 0x00, 0x00, 0x04,
	0x13, 0x01, 0x13, 0x02, 0x01, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x10, 0x00, 0x0e, 0x00,
	0x00, 0x0b, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x2e, 0x63, 0x6f, 0x6d, 0xff, 0x01,
	0x00, 0x01, 0x00, 0x00, 0x0a, 0x00, 0x08, 0x00, 0x06, 0x00, 0x1d, 0x00, 0x17, 0x00, 0x18,
	0x00, 0x10, 0x00, 0x07, 0x00, 0x05, 0x04, 0x61, 0x6c, 0x70, 0x6e, 0x00, 0x05, 0x00, 0x05,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x33, 0x00, 0x26, 0x00, 0x24, 0x00, 0x1d, 0x00, 0x20,
	0x93, 0x70, 0xb2, 0xc9, 0xca, 0xa4, 0x7f, 0xba, 0xba, 0xf4, 0x55, 0x9f, 0xed, 0xba, 0x75,
	0x3d, 0xe1, 0x71, 0xfa, 0x71, 0xf5, 0x0f, 0x1c, 0xe1, 0x5d, 0x43, 0xe9, 0x94, 0xec, 0x74,
	0xd7, 0x48, 0x00, 0x2b, 0x00, 0x03, 0x02, 0x03, 0x04, 0x00, 0x0d, 0x00, 0x10, 0x00, 0x0e,
	0x04, 0x03, 0x05, 0x03, 0x06, 0x03, 0x02, 0x03, 0x08, 0x04, 0x08, 0x05, 0x08, 0x06, 0x00,
	0x2d, 0x00, 0x02, 0x01, 0x01, 0x00, 0x1c, 0x00, 0x02, 0x40, 0x01, 0x00, 0x39, 0x00, 0x32,
	0x04, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x05, 0x04, 0x80, 0x00, 0xff,
	0xff, 0x07, 0x04, 0x80, 0x00, 0xff, 0xff, 0x08, 0x01, 0x10, 0x01, 0x04, 0x80, 0x00, 0x75,
	0x30, 0x09, 0x01, 0x10, 0x0f, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08, 0x06,
	0x04, 0x80, 0x00, 0xff, 0xff,
};

#define FRAME_A2_PAYLOAD_LEN	1162

static void frame_decodes_rfc9001_client_initial_payload(struct kunit *test)
{
	struct quic_frame_ctx ctx = frame_ctx(QUIC_CRYPTO_INITIAL, SERVER);
	struct quic_frame *f;
	const u8 *p;
	u8 *payload;
	u32 left;

	KUNIT_ASSERT_EQ(test, sizeof(frame_a2_crypto), 245U);
	payload = kunit_kzalloc(test, FRAME_A2_PAYLOAD_LEN, GFP_KERNEL);
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, payload);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	memcpy(payload, frame_a2_crypto, sizeof(frame_a2_crypto));

	p = payload;
	left = FRAME_A2_PAYLOAD_LEN;
	KUNIT_ASSERT_EQ(test, quic_frame_decode(&p, &left, &ctx, f), 0);
	KUNIT_EXPECT_EQ(test, f->type, QUIC_FRAME_CRYPTO);
	KUNIT_EXPECT_EQ(test, f->data.offset, 0ULL);
	KUNIT_EXPECT_EQ(test, f->data.len, 241U);
	KUNIT_EXPECT_PTR_EQ(test, f->data.data, (const u8 *)payload + 4);
	/* ClientHello: handshake type 1, length 0x0000ed. */
	KUNIT_EXPECT_EQ(test, f->data.data[0], 0x01);

	KUNIT_ASSERT_EQ(test, quic_frame_decode(&p, &left, &ctx, f), 0);
	KUNIT_EXPECT_EQ(test, f->type, QUIC_FRAME_PADDING);
	KUNIT_EXPECT_EQ(test, f->padding, 917U);
	KUNIT_EXPECT_EQ(test, left, 0U);
}

/*
 * RFC 9001 Appendix A.3: the server Initial payload is ACK (02 00 00 00
 * 00: Largest 0, no delay, no ranges, First 0) then CRYPTO (06 00 405a:
 * offset 0, 90 bytes of ServerHello), 99 bytes in all.
 */
static const u8 frame_a3_payload[] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x40, 0x5a, 0x02, 0x00, 0x00, 0x56, 0x03, 0x03,
	0xee, 0xfc, 0xe7, 0xf7, 0xb3, 0x7b, 0xa1, 0xd1, 0x63, 0x2e, 0x96, 0x67, 0x78, 0x25, 0xdd,
	0xf7, 0x39, 0x88, 0xcf, 0xc7, 0x98, 0x25, 0xdf, 0x56, 0x6d, 0xc5, 0x43, 0x0b, 0x9a, 0x04,
	0x5a, 0x12, 0x00, 0x13, 0x01, 0x00, 0x00, 0x2e, 0x00, 0x33, 0x00, 0x24, 0x00, 0x1d, 0x00,
	0x20, 0x9d, 0x3c, 0x94, 0x0d, 0x89, 0x69, 0x0b, 0x84, 0xd0, 0x8a, 0x60, 0x99, 0x3c, 0x14,
	0x4e, 0xca, 0x68, 0x4d, 0x10, 0x81, 0x28, 0x7c, 0x83, 0x4d, 0x53, 0x11, 0xbc, 0xf3, 0x2b,
	0xb9, 0xda, 0x1a, 0x00, 0x2b, 0x00, 0x02, 0x03, 0x04,
};

static void frame_decodes_rfc9001_server_initial_payload(struct kunit *test)
{
	struct quic_frame_ctx ctx = frame_ctx(QUIC_CRYPTO_INITIAL, CLIENT);
	u32 left = sizeof(frame_a3_payload);
	const u8 *p = frame_a3_payload;
	struct quic_frame_ack_iter it;
	struct quic_frame *f;
	u64 lo, hi;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	KUNIT_ASSERT_EQ(test, left, 99U);

	KUNIT_ASSERT_EQ(test, quic_frame_decode(&p, &left, &ctx, f), 0);
	KUNIT_EXPECT_EQ(test, f->type, QUIC_FRAME_ACK);
	KUNIT_EXPECT_EQ(test, f->ack.largest, 0ULL);
	KUNIT_EXPECT_EQ(test, f->ack.range_count, 0ULL);
	quic_frame_ack_iter_init(&it, &f->ack);
	KUNIT_EXPECT_TRUE(test, quic_frame_ack_next(&it, &lo, &hi));
	KUNIT_EXPECT_EQ(test, lo, 0ULL);
	KUNIT_EXPECT_EQ(test, hi, 0ULL);
	KUNIT_EXPECT_FALSE(test, quic_frame_ack_next(&it, &lo, &hi));

	KUNIT_ASSERT_EQ(test, quic_frame_decode(&p, &left, &ctx, f), 0);
	KUNIT_EXPECT_EQ(test, f->type, QUIC_FRAME_CRYPTO);
	KUNIT_EXPECT_EQ(test, f->data.len, 90U);
	KUNIT_EXPECT_EQ(test, f->data.data[0], 0x02);	/* ServerHello */
	KUNIT_EXPECT_EQ(test, left, 0U);
}

static void frame_transport_error_mapping(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, quic_frame_transport_error(0), (u32)QUIC_TRANSPORT_ERROR_NONE);
	KUNIT_EXPECT_EQ(test, quic_frame_transport_error(-EBADMSG),
			(u32)QUIC_TRANSPORT_ERROR_FRAME_ENCODING);
	KUNIT_EXPECT_EQ(test, quic_frame_transport_error(-EPROTO),
			(u32)QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);
	KUNIT_EXPECT_EQ(test, quic_frame_transport_error(-EPIPE),
			(u32)QUIC_TRANSPORT_ERROR_STREAM_STATE);
	KUNIT_EXPECT_EQ(test, quic_frame_transport_error(-ENOMEM),
			(u32)QUIC_TRANSPORT_ERROR_INTERNAL);
}

static struct kunit_case frame_cases[] = {
	KUNIT_CASE_PARAM(frame_round_trip, frame_vec_gen_params),
	KUNIT_CASE_PARAM(frame_decode_rejects_truncation_at_every_byte, frame_vec_gen_params),
	KUNIT_CASE_PARAM(frame_decode_enforces_packet_types, frame_vec_gen_params),
	KUNIT_CASE_PARAM(frame_encode_refuses_short_output, frame_vec_gen_params),
	KUNIT_CASE_PARAM(frame_decode_rejects_bad_fields, frame_bad_gen_params),
	KUNIT_CASE(frame_decode_rejects_unknown_types),
	KUNIT_CASE(frame_decode_rejects_long_type_encoding),
	KUNIT_CASE(frame_decode_accepts_values_at_limits),
	KUNIT_CASE(frame_ack_ranges_match_hand_computed),
	KUNIT_CASE(frame_ack_encodes_pnspace_ranges),
	KUNIT_CASE(frame_encode_rejects_invalid_frames),
	KUNIT_CASE(frame_decode_checks_datagram_size),
	KUNIT_CASE(frame_flags_follow_spec_column),
	KUNIT_CASE(frame_decodes_rfc9001_client_initial_payload),
	KUNIT_CASE(frame_decodes_rfc9001_server_initial_payload),
	KUNIT_CASE(frame_transport_error_mapping),
	{}
};

static struct kunit_suite frame_suite = {
	.name = "quic_frame",
	.test_cases = frame_cases,
};

kunit_test_suite(frame_suite);
