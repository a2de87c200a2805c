// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_packet: the packet header codec (RFC 9000 Section 17,
 * RFC 9369 Section 3.2, RFC 9287 Section 3).
 *
 * Reference headers are the unprotected ones of RFC 9001 Appendix A and
 * RFC 9369 Appendix A (client and server Initial, Retry, short header).
 * Built headers of the other types were encoded by hand from the layouts
 * of RFC 9000 Section 17.2: first byte 0x80 | 0x40 | type << 4 | pn_len - 1
 * (type 0..3 in v1; Initial 1, 0-RTT 2, Handshake 3, Retry 0 in v2).
 */

#include <kunit/test.h>
#include <linux/unaligned.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "../connection.h"
#include "../endpoint.h"
#include "../packet.h"
#include "../receive.h"

#define W(...)	{ (const u8[]){ __VA_ARGS__ }, sizeof((const u8[]){ __VA_ARGS__ }) }

static const u8 packet_a2_dcid[] = { 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08 };
static const u8 packet_a3_scid[] = { 0xf0, 0x67, 0xa5, 0x50, 0x2a, 0x42, 0x62, 0xb5 };

/* A whole packet in an exact-size buffer: @hdr, then zeros up to @len. */
static u8 *packet_buf(struct kunit *test, const u8 *hdr, u32 hdr_len, u32 len)
{
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	memcpy(buf, hdr, min(hdr_len, len));
	return buf;
}

static struct quic_packet_hdr *packet_hdr_new(struct kunit *test)
{
	struct quic_packet_hdr *hdr = kunit_kzalloc(test, sizeof(*hdr), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hdr);
	return hdr;
}

/*
 * RFC 9001 Appendix A.2, unprotected header of the client Initial:
 * c3 (long, fixed, type 0 = Initial in v1, reserved 00, pn_len 4)
 * 00000001 (v1), 08 8394c8f03e515708 (DCID), 00 (no SCID), 00 (no token),
 * 449e (Length 0x049e = 1182), 00000002 (packet number 2). The packet
 * ends 18 + 1182 = 1200 bytes from its start.
 */
static const u8 packet_a2_v1[] = {
	0xc3, 0x00, 0x00, 0x00, 0x01, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08,
	0x00, 0x00, 0x44, 0x9e, 0x00, 0x00, 0x00, 0x02,
};

/* RFC 9369 Appendix A.2: the same in v2, d3 (type 1 = Initial in v2). */
static const u8 packet_a2_v2[] = {
	0xd3, 0x6b, 0x33, 0x43, 0xcf, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08,
	0x00, 0x00, 0x44, 0x9e, 0x00, 0x00, 0x00, 0x02,
};

static void packet_check_client_initial(struct kunit *test, const u8 *wire, u32 version)
{
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	u8 *buf = packet_buf(test, wire, 22, 1200);
	const u8 *p = buf;
	u32 left = 1200;

	KUNIT_ASSERT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr), 0);
	KUNIT_EXPECT_EQ(test, hdr->type, QUIC_PACKET_INITIAL);
	KUNIT_EXPECT_EQ(test, hdr->version, version);
	KUNIT_EXPECT_EQ(test, hdr->fixed, 1);
	KUNIT_EXPECT_EQ(test, hdr->reserved, 0);
	KUNIT_EXPECT_EQ(test, hdr->pn_len, 4);
	KUNIT_EXPECT_EQ(test, hdr->dcid.len, 8);
	KUNIT_EXPECT_MEMEQ(test, hdr->dcid.data, packet_a2_dcid, sizeof(packet_a2_dcid));
	KUNIT_EXPECT_EQ(test, hdr->scid.len, 0);
	KUNIT_EXPECT_EQ(test, hdr->token_len, 0U);
	KUNIT_EXPECT_EQ(test, hdr->len_size, 2);
	KUNIT_EXPECT_EQ(test, hdr->length, 1182U);
	KUNIT_EXPECT_EQ(test, hdr->pn_offset, 18U);
	KUNIT_EXPECT_EQ(test, hdr->pn, 2ULL);
	KUNIT_EXPECT_EQ(test, hdr->len, 1200U);
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_PTR_EQ(test, p, (const u8 *)buf + 1200);
	KUNIT_EXPECT_EQ(test, quic_packet_level(hdr->type), QUIC_CRYPTO_INITIAL);
}

static void packet_parses_rfc9001_client_initial_header(struct kunit *test)
{
	packet_check_client_initial(test, packet_a2_v1, QUIC_VERSION_V1);
}

static void packet_parses_rfc9369_client_initial_header(struct kunit *test)
{
	packet_check_client_initial(test, packet_a2_v2, QUIC_VERSION_V2);
}

/* Building the A.2 header from its fields gives back its 22 bytes. */
static void packet_builds_rfc9001_client_initial_header(struct kunit *test)
{
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	u8 out[32], *o = out;
	u32 left = sizeof(out);

	hdr->type = QUIC_PACKET_INITIAL;
	hdr->version = QUIC_VERSION_V1;
	hdr->fixed = 1;
	quic_conn_id_set(&hdr->dcid, packet_a2_dcid, sizeof(packet_a2_dcid));
	hdr->length = 1182;
	hdr->pn = 2;
	hdr->pn_len = 4;
	KUNIT_EXPECT_EQ(test, quic_packet_hdr_len(hdr), 22);
	KUNIT_ASSERT_EQ(test, quic_packet_build(&o, &left, hdr), 0);
	KUNIT_ASSERT_EQ(test, (u32)(o - out), 22U);
	KUNIT_EXPECT_MEMEQ(test, out, packet_a2_v1, sizeof(packet_a2_v1));

	hdr->version = QUIC_VERSION_V2;
	o = out;
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_packet_build(&o, &left, hdr), 0);
	KUNIT_EXPECT_MEMEQ(test, out, packet_a2_v2, sizeof(packet_a2_v2));

	/* RFC 9000 Section 6.3: a version we do not speak, only to provoke
	 * Version Negotiation: version 1's layout with that Version field.
	 */
	hdr->version = 0x1a2a3a4a;
	o = out;
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_packet_build(&o, &left, hdr), 0);
	KUNIT_EXPECT_EQ(test, out[0], packet_a2_v1[0]);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out + 1), 0x1a2a3a4aU);
	KUNIT_EXPECT_MEMEQ(test, out + 5, packet_a2_v1 + 5, sizeof(packet_a2_v1) - 5);
}

/*
 * RFC 9001 Appendix A.3 (and RFC 9369 A.3 with d1): c1 (Initial, pn_len 2),
 * no DCID, SCID f067a5502a4262b5, no token, Length 4075 (117), packet
 * number 0001.
 */
static void packet_parses_rfc9001_server_initial_header(struct kunit *test)
{
	static const u8 v1[] = { 0xc1, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0xf0, 0x67, 0xa5,
				 0x50, 0x2a, 0x42, 0x62, 0xb5, 0x00, 0x40, 0x75, 0x00, 0x01 };
	static const u8 v2[] = { 0xd1, 0x6b, 0x33, 0x43, 0xcf, 0x00, 0x08, 0xf0, 0x67, 0xa5,
				 0x50, 0x2a, 0x42, 0x62, 0xb5, 0x00, 0x40, 0x75, 0x00, 0x01 };
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	const u8 *wires[] = { v1, v2 };
	const u8 *p;
	u32 i, left;
	u8 *buf;

	for (i = 0; i < ARRAY_SIZE(wires); i++) {
		buf = packet_buf(test, wires[i], sizeof(v1), 18 + 117);
		p = buf;
		left = 18 + 117;
		KUNIT_ASSERT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr), 0);
		KUNIT_EXPECT_EQ(test, hdr->type, QUIC_PACKET_INITIAL);
		KUNIT_EXPECT_EQ(test, hdr->version, i ? QUIC_VERSION_V2 : QUIC_VERSION_V1);
		KUNIT_EXPECT_EQ(test, hdr->dcid.len, 0);
		KUNIT_EXPECT_EQ(test, hdr->scid.len, 8);
		KUNIT_EXPECT_MEMEQ(test, hdr->scid.data, packet_a3_scid, sizeof(packet_a3_scid));
		KUNIT_EXPECT_EQ(test, hdr->length, 117U);
		KUNIT_EXPECT_EQ(test, hdr->pn_len, 2);
		KUNIT_EXPECT_EQ(test, hdr->pn, 1ULL);
		KUNIT_EXPECT_EQ(test, hdr->len, 135U);
		KUNIT_EXPECT_EQ(test, left, 0U);
	}
}

/*
 * RFC 9001 Appendix A.4: ff (Retry in v1, Unused 1111), no DCID, SCID
 * f067a5502a4262b5, token "token", tag 04a265ba...; RFC 9369 A.4: cf
 * (Retry is type 0 in v2) with tag c8646ce8....
 */
static const u8 packet_retry_v1[] = {
	0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a, 0x42, 0x62,
	0xb5, 0x74, 0x6f, 0x6b, 0x65, 0x6e, 0x04, 0xa2, 0x65, 0xba, 0x2e, 0xff, 0x4d, 0x82,
	0x90, 0x58, 0xfb, 0x3f, 0x0f, 0x24, 0x96, 0xba,
};

static const u8 packet_retry_v2[] = {
	0xcf, 0x6b, 0x33, 0x43, 0xcf, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a, 0x42, 0x62,
	0xb5, 0x74, 0x6f, 0x6b, 0x65, 0x6e, 0xc8, 0x64, 0x6c, 0xe8, 0xbf, 0xe3, 0x39, 0x52,
	0xd9, 0x55, 0x54, 0x36, 0x65, 0xdc, 0xc7, 0xb6,
};

static void packet_check_retry(struct kunit *test, const u8 *wire, u32 len, u32 version)
{
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	u8 *buf = packet_buf(test, wire, len, len);
	u8 out[64], *o = out;
	const u8 *p = buf;
	u32 left = len;

	KUNIT_ASSERT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr), 0);
	KUNIT_EXPECT_EQ(test, hdr->type, QUIC_PACKET_RETRY);
	KUNIT_EXPECT_EQ(test, hdr->version, version);
	KUNIT_EXPECT_EQ(test, hdr->reserved, 0x0f);
	KUNIT_EXPECT_EQ(test, hdr->dcid.len, 0);
	KUNIT_EXPECT_MEMEQ(test, hdr->scid.data, packet_a3_scid, sizeof(packet_a3_scid));
	KUNIT_EXPECT_EQ(test, hdr->token_len, 5U);
	KUNIT_EXPECT_MEMEQ(test, hdr->token, "token", 5);
	KUNIT_EXPECT_PTR_EQ(test, hdr->token, (const u8 *)buf + 15);
	KUNIT_EXPECT_PTR_EQ(test, hdr->tag, (const u8 *)buf + 20);
	KUNIT_EXPECT_EQ(test, hdr->len, len);
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_EQ(test, quic_packet_level(hdr->type), QUIC_CRYPTO_MAX);

	/* Built back from the parsed fields (tag included): the same bytes. */
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_packet_build(&o, &left, hdr), 0);
	KUNIT_ASSERT_EQ(test, (u32)(o - out), len);
	KUNIT_EXPECT_MEMEQ(test, out, wire, len);
}

static void packet_parses_rfc9001_retry(struct kunit *test)
{
	packet_check_retry(test, packet_retry_v1, sizeof(packet_retry_v1), QUIC_VERSION_V1);
}

static void packet_parses_rfc9369_retry(struct kunit *test)
{
	packet_check_retry(test, packet_retry_v2, sizeof(packet_retry_v2), QUIC_VERSION_V2);
}

/*
 * RFC 9001 Appendix A.5 (same header in RFC 9369 A.5): unprotected short
 * header 4200bff4 with an empty DCID: fixed, no spin, key phase 0, pn_len
 * 3, packet number bits 00bff4 = 49140 of packet 654360564, followed by
 * the 17 bytes of protected payload (21 bytes in all).
 */
static void packet_parses_rfc9001_short_header(struct kunit *test)
{
	static const u8 hdr_bytes[] = { 0x42, 0x00, 0xbf, 0xf4 };
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	u8 *buf = packet_buf(test, hdr_bytes, sizeof(hdr_bytes), 21);
	u8 out[8], *o = out;
	const u8 *p = buf;
	u32 left = 21;

	KUNIT_ASSERT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr), 0);
	KUNIT_EXPECT_EQ(test, hdr->type, QUIC_PACKET_1RTT);
	KUNIT_EXPECT_EQ(test, hdr->fixed, 1);
	KUNIT_EXPECT_EQ(test, hdr->spin, 0);
	KUNIT_EXPECT_EQ(test, hdr->key_phase, 0);
	KUNIT_EXPECT_EQ(test, hdr->reserved, 0);
	KUNIT_EXPECT_EQ(test, hdr->pn_len, 3);
	KUNIT_EXPECT_EQ(test, hdr->pn, 49140ULL);
	KUNIT_EXPECT_EQ(test, hdr->pn_offset, 1U);
	KUNIT_EXPECT_EQ(test, hdr->length, 20U);
	KUNIT_EXPECT_EQ(test, hdr->len, 21U);
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_EQ(test, quic_pn_decode(654360563, hdr->pn, hdr->pn_len), 654360564LL);

	/* Built from the full packet number: its low three bytes. */
	hdr->pn = 654360564;
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_packet_build(&o, &left, hdr), 0);
	KUNIT_ASSERT_EQ(test, (u32)(o - out), 4U);
	KUNIT_EXPECT_MEMEQ(test, out, hdr_bytes, sizeof(hdr_bytes));
}

/*
 * RFC 9000 Appendix A.2: acknowledged 0xabe8b3, sending 0xac5c02 needs 16
 * bits, sending 0xace8fe 24 bits. Appendix A.3: after 0xa82f30ea, the
 * 16-bit value 0x9b32 decodes to 0xa82f9b32.
 */
static void packet_number_encoding_follows_rfc9000_appendix_a(struct kunit *test)
{
	static const u8 exp24[] = { 0x42, 0xaa, 0xac, 0xe8, 0xfe };
	static const u8 exp16[] = { 0x41, 0xaa, 0x5c, 0x02 };
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	static const u8 rx[] = { 0x41, 0xaa, 0x9b, 0x32 };
	u8 out[8], *o = out;
	const u8 *p = rx;
	u32 left = 8;

	hdr->type = QUIC_PACKET_1RTT;
	hdr->fixed = 1;
	hdr->dcid.len = 1;
	hdr->dcid.data[0] = 0xaa;
	hdr->pn = 0xac5c02;
	hdr->pn_len = quic_pn_encode_len(hdr->pn, 0xabe8b3);
	KUNIT_EXPECT_EQ(test, hdr->pn_len, 2);
	KUNIT_ASSERT_EQ(test, quic_packet_build(&o, &left, hdr), 0);
	KUNIT_EXPECT_MEMEQ(test, out, exp16, sizeof(exp16));

	hdr->pn = 0xace8fe;
	hdr->pn_len = quic_pn_encode_len(hdr->pn, 0xabe8b3);
	KUNIT_EXPECT_EQ(test, hdr->pn_len, 3);
	o = out;
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_packet_build(&o, &left, hdr), 0);
	KUNIT_EXPECT_MEMEQ(test, out, exp24, sizeof(exp24));

	left = sizeof(rx);
	KUNIT_ASSERT_EQ(test, quic_packet_parse(&p, &left, 1, false, hdr), 0);
	KUNIT_EXPECT_EQ(test, hdr->pn, 0x9b32ULL);
	KUNIT_EXPECT_EQ(test, quic_pn_decode(0xa82f30ea, hdr->pn, hdr->pn_len), 0xa82f9b32LL);
}

static const u8 packet_token2[] = { 0xaa, 0xbb };
static const u8 packet_tag[QUIC_RETRY_TAG_LEN] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
};

/**
 * struct packet_vec - a header to build and parse back
 * @desc: name, with the RFC section
 * @type: &enum quic_packet_type
 * @version: QUIC_VERSION_V1 or QUIC_VERSION_V2
 * @wire: the hand-encoded header
 * @len: its length
 * @open: minimum packet length when the packet has no Length field (Retry:
 *	10 header bytes, a 1-byte token and the tag; 1-RTT: the whole
 *	header), else 0
 */
struct packet_vec {
	const char *desc;
	u8 type;
	u32 version;
	struct {
		const u8 *wire;
		u32 len;
	};
	u32 open;
};

/*
 * DCID 1122, SCID 33, packet number 0x10203 on 2 bytes (0203), Length 22
 * (16: 2 bytes of packet number and 20 of payload); Initial token aabb;
 * Retry token aabb and tag 00..0f, Unused bits 0101; 1-RTT with spin and
 * key phase set: 0x40 | 0x20 | 0x04 | 0x01 = 0x65.
 */

static const struct packet_vec packet_vecs[] = {
	{ "v1 Initial, RFC 9000 17.2.2", QUIC_PACKET_INITIAL, QUIC_VERSION_V1,
	  W(0xc1, 0x00, 0x00, 0x00, 0x01, 0x02, 0x11, 0x22, 0x01, 0x33,
	    0x02, 0xaa, 0xbb, 0x16, 0x02, 0x03) },
	{ "v1 0-RTT, RFC 9000 17.2.3", QUIC_PACKET_0RTT, QUIC_VERSION_V1,
	  W(0xd1, 0x00, 0x00, 0x00, 0x01, 0x02, 0x11, 0x22, 0x01, 0x33, 0x16, 0x02, 0x03) },
	{ "v1 Handshake, RFC 9000 17.2.4", QUIC_PACKET_HANDSHAKE, QUIC_VERSION_V1,
	  W(0xe1, 0x00, 0x00, 0x00, 0x01, 0x02, 0x11, 0x22, 0x01, 0x33, 0x16, 0x02, 0x03) },
	{ "v1 Retry, RFC 9000 17.2.5", QUIC_PACKET_RETRY, QUIC_VERSION_V1,
	  W(0xf5, 0x00, 0x00, 0x00, 0x01, 0x02, 0x11, 0x22, 0x01, 0x33, 0xaa, 0xbb,
	    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), 10 + 1 + 16 },
	{ "v2 Initial, RFC 9369 3.2", QUIC_PACKET_INITIAL, QUIC_VERSION_V2,
	  W(0xd1, 0x6b, 0x33, 0x43, 0xcf, 0x02, 0x11, 0x22, 0x01, 0x33,
	    0x02, 0xaa, 0xbb, 0x16, 0x02, 0x03) },
	{ "v2 0-RTT, RFC 9369 3.2", QUIC_PACKET_0RTT, QUIC_VERSION_V2,
	  W(0xe1, 0x6b, 0x33, 0x43, 0xcf, 0x02, 0x11, 0x22, 0x01, 0x33, 0x16, 0x02, 0x03) },
	{ "v2 Handshake, RFC 9369 3.2", QUIC_PACKET_HANDSHAKE, QUIC_VERSION_V2,
	  W(0xf1, 0x6b, 0x33, 0x43, 0xcf, 0x02, 0x11, 0x22, 0x01, 0x33, 0x16, 0x02, 0x03) },
	{ "v2 Retry, RFC 9369 3.2", QUIC_PACKET_RETRY, QUIC_VERSION_V2,
	  W(0xc5, 0x6b, 0x33, 0x43, 0xcf, 0x02, 0x11, 0x22, 0x01, 0x33, 0xaa, 0xbb,
	    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), 10 + 1 + 16 },
	{ "1-RTT, RFC 9000 17.3.1", QUIC_PACKET_1RTT, QUIC_VERSION_V1,
	  W(0x65, 0x11, 0x22, 0x02, 0x03), 1 + 2 + 2 },
};

static void packet_vec_desc(const struct packet_vec *v, char *desc)
{
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(packet_vec, packet_vecs, packet_vec_desc);

#define PV_PAYLOAD	20

static void packet_vec_hdr(const struct packet_vec *v, struct quic_packet_hdr *hdr)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->type = v->type;
	hdr->version = v->type == QUIC_PACKET_1RTT ? 0 : v->version;
	hdr->fixed = 1;
	hdr->dcid.len = 2;
	hdr->dcid.data[0] = 0x11;
	hdr->dcid.data[1] = 0x22;
	if (v->type != QUIC_PACKET_1RTT) {
		hdr->scid.len = 1;
		hdr->scid.data[0] = 0x33;
	}
	hdr->pn = 0x10203;
	hdr->pn_len = 2;
	hdr->length = hdr->pn_len + PV_PAYLOAD;
	switch (v->type) {
	case QUIC_PACKET_INITIAL:
		hdr->token = packet_token2;
		hdr->token_len = sizeof(packet_token2);
		break;
	case QUIC_PACKET_RETRY:
		hdr->token = packet_token2;
		hdr->token_len = sizeof(packet_token2);
		hdr->tag = packet_tag;
		hdr->reserved = 0x5;
		break;
	case QUIC_PACKET_1RTT:
		hdr->spin = 1;
		hdr->key_phase = 1;
		break;
	}
}

/* Total length of the packet the vector heads: its payload included. */
static u32 packet_vec_total(const struct packet_vec *v)
{
	return v->open ? v->len : v->len + PV_PAYLOAD;
}

static void packet_build_and_parse_each_type(struct kunit *test)
{
	const struct packet_vec *v = test->param_value;
	struct quic_packet_hdr *hdr = packet_hdr_new(test), *got = packet_hdr_new(test);
	u32 total = packet_vec_total(v), left;
	u8 out[64], *o = out, *buf;
	const u8 *p;

	/* Build: the hand-encoded bytes, and the announced length. */
	packet_vec_hdr(v, hdr);
	KUNIT_EXPECT_EQ(test, quic_packet_hdr_len(hdr), (int)v->len);
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_packet_build(&o, &left, hdr), 0);
	KUNIT_ASSERT_EQ(test, (u32)(o - out), v->len);
	KUNIT_EXPECT_MEMEQ(test, out, v->wire, v->len);
	if (v->type != QUIC_PACKET_1RTT)
		KUNIT_EXPECT_EQ(test, out[0] >> QUIC_HDR_LONG_TYPE_SHIFT & 0x3,
				quic_packet_type_to_wire(v->version, v->type));

	/* Parse the whole packet back. */
	buf = packet_buf(test, v->wire, v->len, total);
	p = buf;
	left = total;
	KUNIT_ASSERT_EQ(test, quic_packet_parse(&p, &left, 2, false, got), 0);
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_EQ(test, got->len, total);
	KUNIT_EXPECT_EQ(test, got->type, hdr->type);
	KUNIT_EXPECT_EQ(test, got->version, hdr->version);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&got->dcid, &hdr->dcid));
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&got->scid, &hdr->scid));
	KUNIT_EXPECT_EQ(test, got->token_len, hdr->token_len);
	if (hdr->token_len)
		KUNIT_EXPECT_MEMEQ(test, got->token, hdr->token, hdr->token_len);
	if (v->type == QUIC_PACKET_RETRY) {
		KUNIT_EXPECT_MEMEQ(test, got->tag, packet_tag, QUIC_RETRY_TAG_LEN);
		KUNIT_EXPECT_EQ(test, got->reserved, 0x5);
		return;
	}
	KUNIT_EXPECT_EQ(test, got->pn_len, 2);
	KUNIT_EXPECT_EQ(test, got->pn, 0x0203ULL);
	KUNIT_EXPECT_EQ(test, got->pn_offset, v->len - 2);
	KUNIT_EXPECT_EQ(test, got->length, total - got->pn_offset);
	KUNIT_EXPECT_EQ(test, got->spin, hdr->spin);
	KUNIT_EXPECT_EQ(test, got->key_phase, hdr->key_phase);
	KUNIT_EXPECT_EQ(test, got->reserved, 0);
}

static void packet_parse_rejects_truncation_at_every_byte(struct kunit *test)
{
	const struct packet_vec *v = test->param_value;
	struct quic_packet_hdr *got = packet_hdr_new(test);
	u32 total = packet_vec_total(v), cut, left;
	const u8 *p;
	u8 *buf;
	int err;

	for (cut = 0; cut < total; cut++) {
		buf = packet_buf(test, v->wire, v->len, cut);
		p = buf;
		left = cut;
		err = quic_packet_parse(&p, &left, 2, false, got);
		if (v->open && cut >= v->open) {
			/* No Length field: a shorter packet, still well formed. */
			KUNIT_EXPECT_EQ_MSG(test, err, 0, "cut at %u", cut);
			KUNIT_EXPECT_EQ(test, got->len, cut);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, err, -EINVAL, "cut at %u", cut);
			KUNIT_EXPECT_PTR_EQ(test, p, (const u8 *)buf);
			KUNIT_EXPECT_EQ(test, left, cut);
		}
		kunit_kfree(test, buf);
	}
}

static void packet_build_refuses_short_output(struct kunit *test)
{
	const struct packet_vec *v = test->param_value;
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	u8 out[64], *o;
	u32 room, left;

	packet_vec_hdr(v, hdr);
	for (room = 0; room < v->len; room++) {
		memset(out, 0xa5, sizeof(out));
		o = out;
		left = room;
		KUNIT_EXPECT_EQ(test, quic_packet_build(&o, &left, hdr), -ENOSPC);
		KUNIT_EXPECT_TRUE(test, o == out && left == room);
		KUNIT_EXPECT_NULL(test, memchr_inv(out, 0xa5, sizeof(out)));
	}
}

static void packet_type_encodings_follow_rfc9369(struct kunit *test)
{
	/* RFC 9000 Table 5 and RFC 9369 Section 3.2. */
	static const u8 v1[] = { 0, 1, 2, 3 }, v2[] = { 1, 2, 3, 0 };
	u8 t;

	for (t = QUIC_PACKET_INITIAL; t <= QUIC_PACKET_RETRY; t++) {
		KUNIT_EXPECT_EQ(test, quic_packet_type_to_wire(QUIC_VERSION_V1, t), v1[t]);
		KUNIT_EXPECT_EQ(test, quic_packet_type_to_wire(QUIC_VERSION_V2, t), v2[t]);
		KUNIT_EXPECT_EQ(test, quic_packet_type_from_wire(QUIC_VERSION_V1, v1[t]), t);
		KUNIT_EXPECT_EQ(test, quic_packet_type_from_wire(QUIC_VERSION_V2, v2[t]), t);
	}
	KUNIT_EXPECT_EQ(test, quic_packet_type_to_wire(QUIC_VERSION_V1, QUIC_PACKET_1RTT),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, quic_packet_type_to_wire(0x1a2a3a4a, QUIC_PACKET_INITIAL), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_packet_type_from_wire(QUIC_VERSION_V1, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_packet_level(QUIC_PACKET_0RTT), QUIC_CRYPTO_EARLY);
	KUNIT_EXPECT_EQ(test, quic_packet_level(QUIC_PACKET_HANDSHAKE), QUIC_CRYPTO_HANDSHAKE);
	KUNIT_EXPECT_EQ(test, quic_packet_level(QUIC_PACKET_1RTT), QUIC_CRYPTO_APP);
}

/*
 * RFC 9000 Section 12.2: an Initial, a 0-RTT, a Handshake and a 1-RTT
 * packet in one datagram, walked packet by packet. Zero bytes after a
 * long header packet are not a packet (Fixed Bit 0): the walk stops there.
 */
static void packet_splits_coalesced_datagram(struct kunit *test)
{
	static const u8 order[] = { 0, 1, 2, 8 };	/* packet_vecs indexes */
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	u32 i, total = 0, off = 0, left;
	const u8 *p;
	u8 *dgram;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		total += packet_vec_total(&packet_vecs[order[i]]);
	dgram = kunit_kzalloc(test, total, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dgram);
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		memcpy(dgram + off, packet_vecs[order[i]].wire, packet_vecs[order[i]].len);
		off += packet_vec_total(&packet_vecs[order[i]]);
	}

	p = dgram;
	left = total;
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		KUNIT_ASSERT_EQ_MSG(test, quic_packet_parse(&p, &left, 2, false, hdr), 0,
				    "packet %u", i);
		KUNIT_EXPECT_EQ(test, hdr->type, packet_vecs[order[i]].type);
		KUNIT_EXPECT_EQ(test, hdr->len, packet_vec_total(&packet_vecs[order[i]]));
		KUNIT_EXPECT_EQ(test, hdr->dcid.data[0], 0x11);
	}
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_PTR_EQ(test, p, (const u8 *)dgram + total);

	/* Initial followed by zero padding: the padding is refused. */
	p = dgram;
	left = packet_vec_total(&packet_vecs[0]) + 8;
	memset(dgram + packet_vec_total(&packet_vecs[0]), 0, 8);
	KUNIT_ASSERT_EQ(test, quic_packet_parse(&p, &left, 2, false, hdr), 0);
	KUNIT_EXPECT_EQ(test, left, 8U);
	KUNIT_EXPECT_EQ(test, quic_packet_parse(&p, &left, 2, false, hdr), -EINVAL);
}

/* RFC 9000 Section 17.2: v1 and v2 IDs longer than 20 bytes are dropped. */
static void packet_enforces_conn_id_limits(struct kunit *test)
{
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	struct quic_packet_invariant inv;
	u8 *buf, out[64], *o;
	u32 n, left;
	const u8 *p;

	for (n = 20; n <= 21; n++) {
		/* c0 v1 | n DCID bytes | 00 | 00 token | 01 Length | 00 pn */
		buf = kunit_kzalloc(test, 6 + n + 4, GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
		buf[0] = 0xc0;
		buf[4] = 0x01;
		buf[5] = n;
		buf[6 + n + 2] = 0x01;
		p = buf;
		left = 6 + n + 4;
		KUNIT_EXPECT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr),
				n == 20 ? 0 : -EINVAL);
		/* The invariant view still reads it, for Version Negotiation. */
		KUNIT_EXPECT_EQ(test, quic_packet_peek(buf, 6 + n + 4, 0, &inv), 0);
		KUNIT_EXPECT_EQ(test, inv.dcid_len, n);

		/* Same for the Source Connection ID: the bytes after it stay. */
		buf[5] = 0;
		buf[6] = n;
		p = buf;
		left = 6 + n + 4;
		KUNIT_EXPECT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr),
				n == 20 ? 0 : -EINVAL);

		/* And a short header for a 21-byte ID length. */
		buf[0] = 0x40;
		p = buf;
		left = 6 + n + 4;
		KUNIT_EXPECT_EQ(test, quic_packet_parse(&p, &left, n, false, hdr),
				n == 20 ? 0 : -EINVAL);
	}

	memset(hdr, 0, sizeof(*hdr));
	hdr->type = QUIC_PACKET_HANDSHAKE;
	hdr->version = QUIC_VERSION_V1;
	hdr->fixed = 1;
	hdr->pn_len = 1;
	hdr->length = 1;
	hdr->scid.len = 21;
	o = out;
	left = sizeof(out);
	KUNIT_EXPECT_EQ(test, quic_packet_build(&o, &left, hdr), -EINVAL);
	hdr->scid.len = 0;
	hdr->dcid.len = 21;
	KUNIT_EXPECT_EQ(test, quic_packet_build(&o, &left, hdr), -EINVAL);
	hdr->type = QUIC_PACKET_1RTT;
	KUNIT_EXPECT_EQ(test, quic_packet_build(&o, &left, hdr), -EINVAL);
}

/* RFC 9287 Section 3: a Fixed Bit of 0 only when we allowed greasing. */
static void packet_fixed_bit_greasing(struct kunit *test)
{
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	const struct packet_vec *v;
	u32 i, seen = 0, left;
	u8 out[64], *o;
	const u8 *p;
	u8 *buf;

	for (i = 0; i < ARRAY_SIZE(packet_vecs); i++) {
		v = &packet_vecs[i];
		buf = packet_buf(test, v->wire, v->len, packet_vec_total(v));
		buf[0] &= ~QUIC_HDR_FIXED_BIT;
		p = buf;
		left = packet_vec_total(v);
		KUNIT_EXPECT_EQ_MSG(test, quic_packet_parse(&p, &left, 2, false, hdr), -EINVAL,
				    "%s", v->desc);
		KUNIT_EXPECT_EQ_MSG(test, quic_packet_parse(&p, &left, 2, true, hdr), 0, "%s",
				    v->desc);
		KUNIT_EXPECT_EQ(test, hdr->fixed, 0);
	}

	/* The builder writes the bit it is given. */
	packet_vec_hdr(&packet_vecs[2], hdr);
	hdr->fixed = 0;
	o = out;
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_packet_build(&o, &left, hdr), 0);
	KUNIT_EXPECT_EQ(test, out[0], packet_vecs[2].wire[0] & ~QUIC_HDR_FIXED_BIT);
	hdr->fixed = 2;
	KUNIT_EXPECT_EQ(test, quic_packet_build(&o, &left, hdr), -EINVAL);

	/* Without the peer's consent the bit is always 1; with it, both values
	 * show up (64 draws all equal: probability 2^-63).
	 */
	for (i = 0; i < 64; i++) {
		KUNIT_EXPECT_EQ(test, quic_packet_fixed_bit(false), 1);
		seen |= BIT(quic_packet_fixed_bit(true));
	}
	KUNIT_EXPECT_EQ(test, seen, 3U);
}

/*
 * Version Negotiation in reply to the RFC 9001 A.2 client Initial (RFC
 * 9000 Section 17.2.1): Version 0, DCID = the client's SCID (empty), SCID
 * = the client's DCID 8394c8f03e515708, then v2 and v1:
 * 00000000 00 08 8394c8f03e515708 6b3343cf 00000001.
 */
static void packet_version_negotiation_build_and_parse(struct kunit *test)
{
	static const u8 exp[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x83, 0x94, 0xc8, 0xf0,
				  0x3e, 0x51, 0x57, 0x08, 0x6b, 0x33, 0x43, 0xcf, 0x00, 0x00,
				  0x00, 0x01 };
	static const u32 versions[] = { QUIC_VERSION_V2, QUIC_VERSION_V1 };
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	struct quic_packet_invariant rcvd, inv;
	u8 out[64], *o = out;
	u32 got[4], left;
	const u8 *p;
	int n;

	KUNIT_ASSERT_EQ(test, quic_packet_peek(packet_a2_v1, sizeof(packet_a2_v1), 0, &rcvd), 0);
	KUNIT_ASSERT_TRUE(test, rcvd.long_header);
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_packet_build_vn(&o, &left, &rcvd, versions, 2), 0);
	KUNIT_ASSERT_EQ(test, (u32)(o - out), 1 + (u32)sizeof(exp));
	/* First byte: long header, 0x40 set, the rest arbitrary. */
	KUNIT_EXPECT_EQ(test, out[0] & 0xc0, 0xc0);
	KUNIT_EXPECT_MEMEQ(test, out + 1, exp, sizeof(exp));

	n = quic_packet_parse_vn(out, o - out, &inv, got, ARRAY_SIZE(got));
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, got[0], QUIC_VERSION_V2);
	KUNIT_EXPECT_EQ(test, got[1], QUIC_VERSION_V1);
	KUNIT_EXPECT_EQ(test, inv.dcid_len, 0);
	KUNIT_EXPECT_EQ(test, inv.scid_len, 8);
	KUNIT_EXPECT_MEMEQ(test, inv.scid, packet_a2_dcid, sizeof(packet_a2_dcid));

	/* Only one version kept when asked for one; the count is still 2. */
	KUNIT_EXPECT_EQ(test, quic_packet_parse_vn(out, o - out, &inv, got, 1), 2);

	/* The v1/v2 parser does not take it. */
	p = out;
	left = o - out;
	KUNIT_EXPECT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr), -EPROTONOSUPPORT);
}

/* RFC 9000 Section 17.2.1: Version Negotiation IDs may be 255 bytes long. */
static void packet_version_negotiation_long_conn_ids(struct kunit *test)
{
	static const u32 versions[] = { QUIC_VERSION_V1 };
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	struct quic_packet_invariant rcvd, inv;
	u32 len = 7 + 2 * 255 + 4, left;
	u8 *in, *out, *o;
	const u8 *p;
	u32 got[1];

	/* A first packet of an unknown version 0x1a2a3a4a with 255-byte IDs. */
	in = kunit_kzalloc(test, len, GFP_KERNEL);
	out = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, in);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	in[0] = 0xc0;
	in[1] = 0x1a;
	in[2] = 0x2a;
	in[3] = 0x3a;
	in[4] = 0x4a;
	in[5] = 255;
	memset(in + 6, 0xd1, 255);
	in[6 + 255] = 255;
	memset(in + 7 + 255, 0x5c, 255);

	p = in;
	left = len;
	KUNIT_EXPECT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr), -EPROTONOSUPPORT);
	KUNIT_EXPECT_PTR_EQ(test, p, (const u8 *)in);
	KUNIT_ASSERT_EQ(test, quic_packet_peek(in, len, 0, &rcvd), 0);
	KUNIT_EXPECT_EQ(test, rcvd.version, 0x1a2a3a4aU);

	o = out;
	left = len;
	KUNIT_ASSERT_EQ(test, quic_packet_build_vn(&o, &left, &rcvd, versions, 1), 0);
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_ASSERT_EQ(test, quic_packet_parse_vn(out, len, &inv, got, 1), 1);
	KUNIT_EXPECT_EQ(test, inv.dcid_len, 255);
	KUNIT_EXPECT_EQ(test, inv.scid_len, 255);
	KUNIT_EXPECT_EQ(test, inv.dcid[0], 0x5c);	/* the other side's SCID */
	KUNIT_EXPECT_EQ(test, inv.scid[0], 0xd1);
	KUNIT_EXPECT_EQ(test, got[0], QUIC_VERSION_V1);

	o = out;
	left = len - 1;
	KUNIT_EXPECT_EQ(test, quic_packet_build_vn(&o, &left, &rcvd, versions, 1), -ENOSPC);
}

static void packet_version_negotiation_rejects_malformed(struct kunit *test)
{
	/* No version listed; 5 bytes of versions; not version 0; a short
	 * header; a DCID running past the end; a truncated Version.
	 */
	static const u8 shorthdr[] = { 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	static const u8 odd[] = { 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2 };
	static const u8 v1[] = { 0x80, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1 };
	static const u8 past[] = { 0x80, 0, 0, 0, 0, 9, 0, 0, 0, 1 };
	static const u8 none[] = { 0x80, 0, 0, 0, 0, 0, 0 };
	static const u32 v[] = { QUIC_VERSION_V1, 0 };
	static const u8 cut[] = { 0x80, 0, 0, 0 };
	struct quic_packet_invariant inv;
	u8 out[32], *o = out;
	u32 got[2], left;

	KUNIT_EXPECT_EQ(test, quic_packet_parse_vn(none, sizeof(none), &inv, got, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_packet_parse_vn(odd, sizeof(odd), &inv, got, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_packet_parse_vn(v1, sizeof(v1), &inv, got, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_packet_parse_vn(shorthdr, sizeof(shorthdr), &inv, got, 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, quic_packet_parse_vn(past, sizeof(past), &inv, got, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_packet_parse_vn(cut, sizeof(cut), &inv, got, 2), -EINVAL);

	/* Building: no versions, or version 0 in the list. */
	KUNIT_ASSERT_EQ(test, quic_packet_peek(packet_a2_v1, sizeof(packet_a2_v1), 0, &inv), 0);
	left = sizeof(out);
	KUNIT_EXPECT_EQ(test, quic_packet_build_vn(&o, &left, &inv, v, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_packet_build_vn(&o, &left, &inv, v, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, left, (u32)sizeof(out));
}

static void packet_parse_rejects_malformed_long_headers(struct kunit *test)
{
	struct quic_packet_hdr *hdr = packet_hdr_new(test);
	const u8 *p;
	u32 left;
	u8 *buf;

	/* RFC 9000 Section 17.2.5.2: a Retry with an empty token (A.4 without
	 * its 5-byte token) is dropped.
	 */
	buf = packet_buf(test, packet_retry_v1, 15, 15 + QUIC_RETRY_TAG_LEN);
	memcpy(buf + 15, packet_retry_v1 + 20, QUIC_RETRY_TAG_LEN);
	p = buf;
	left = 15 + QUIC_RETRY_TAG_LEN;
	KUNIT_EXPECT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr), -EINVAL);

	/* Handshake with pn_len 4 but Length 3. */
	p = (const u8[]){ 0xe3, 0, 0, 0, 1, 0, 0, 0x03, 0, 0, 0 };
	left = 11;
	KUNIT_EXPECT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr), -EINVAL);

	/* Initial whose Token Length runs beyond the datagram. */
	p = (const u8[]){ 0xc0, 0, 0, 0, 1, 0, 0, 0x05, 0xaa, 0x01, 0x00 };
	left = 11;
	KUNIT_EXPECT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr), -EINVAL);

	/* A reserved version (RFC 9000 Section 15) is not parsed as v1. */
	p = (const u8[]){ 0xc0, 0x0a, 0x0a, 0x0a, 0x0a, 0, 0, 0x00, 0x01, 0x00 };
	left = 10;
	KUNIT_EXPECT_EQ(test, quic_packet_parse(&p, &left, 0, false, hdr), -EPROTONOSUPPORT);
	KUNIT_EXPECT_FALSE(test, quic_packet_version_supported(0x0a0a0a0a));
}

/* The invariant header is parsed once when a datagram arrives
 * (quic_rcv_parse()); what the receive path reads back from the skb
 * (quic_skb_invariant()) must be what a fresh peek finds, for a long
 * header, a short header (our Destination Connection ID length), and
 * every truncation of both.
 */
static void packet_invariant_parsed_once_matches_a_peek(struct kunit *test)
{
	static const u8 lng[] = { 0xc3, 0x00, 0x00, 0x00, 0x01, 0x03, 0xaa, 0xbb, 0xcc,
				  0x02, 0xdd, 0xee, 0x00, 0x41, 0x00, 0x11, 0x22 };
	static const u8 shrt[] = { 0x43, 1, 2, 3, 4, 5, 6, 7, 8, 0x99, 0x98 };
	const u8 *pkts[] = { lng, shrt };
	const u32 lens[] = { sizeof(lng), sizeof(shrt) };
	struct quic_packet_invariant want, got;
	struct sk_buff *skb;
	int i, err;
	u32 len;

	for (i = 0; i < ARRAY_SIZE(pkts); i++) {
		for (len = 1; len <= lens[i]; len++) {
			skb = alloc_skb(len, GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, skb);
			skb_put_data(skb, pkts[i], len);
			quic_rcv_parse(skb);
			err = quic_packet_peek(skb->data, len, QUIC_CONN_ID_OWN_LEN, &want);
			KUNIT_EXPECT_EQ(test, quic_skb_invariant(skb, &got), err);
			if (!err) {
				KUNIT_EXPECT_EQ(test, got.long_header, want.long_header);
				KUNIT_EXPECT_EQ(test, got.version, want.version);
				KUNIT_EXPECT_PTR_EQ(test, got.dcid, want.dcid);
				KUNIT_EXPECT_EQ(test, got.dcid_len, want.dcid_len);
				KUNIT_EXPECT_EQ(test, got.scid_len, want.scid_len);
				KUNIT_EXPECT_PTR_EQ(test, got.rest, want.rest);
				KUNIT_EXPECT_EQ(test, got.rest_len, want.rest_len);
				if (want.scid_len)
					KUNIT_EXPECT_PTR_EQ(test, got.scid, want.scid);
			}
			kfree_skb(skb);
		}
	}
}

static struct kunit_case packet_cases[] = {
	KUNIT_CASE(packet_invariant_parsed_once_matches_a_peek),
	KUNIT_CASE(packet_parses_rfc9001_client_initial_header),
	KUNIT_CASE(packet_parses_rfc9369_client_initial_header),
	KUNIT_CASE(packet_builds_rfc9001_client_initial_header),
	KUNIT_CASE(packet_parses_rfc9001_server_initial_header),
	KUNIT_CASE(packet_parses_rfc9001_retry),
	KUNIT_CASE(packet_parses_rfc9369_retry),
	KUNIT_CASE(packet_parses_rfc9001_short_header),
	KUNIT_CASE(packet_number_encoding_follows_rfc9000_appendix_a),
	KUNIT_CASE_PARAM(packet_build_and_parse_each_type, packet_vec_gen_params),
	KUNIT_CASE_PARAM(packet_parse_rejects_truncation_at_every_byte, packet_vec_gen_params),
	KUNIT_CASE_PARAM(packet_build_refuses_short_output, packet_vec_gen_params),
	KUNIT_CASE(packet_type_encodings_follow_rfc9369),
	KUNIT_CASE(packet_splits_coalesced_datagram),
	KUNIT_CASE(packet_enforces_conn_id_limits),
	KUNIT_CASE(packet_fixed_bit_greasing),
	KUNIT_CASE(packet_version_negotiation_build_and_parse),
	KUNIT_CASE(packet_version_negotiation_long_conn_ids),
	KUNIT_CASE(packet_version_negotiation_rejects_malformed),
	KUNIT_CASE(packet_parse_rejects_malformed_long_headers),
	{}
};

static struct kunit_suite packet_suite = {
	.name = "quic_packet",
	.test_cases = packet_cases,
};

kunit_test_suite(packet_suite);
