// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_crypto: QUIC packet protection (net/quic/crypto.c).
 *
 * Every sample of RFC 9001 Appendix A and RFC 9369 Appendix A is checked to
 * the byte: Initial keys (A.1), client and server Initial packets (A.2, A.3),
 * Retry integrity tags (A.4) and the ChaCha20-Poly1305 short header packet
 * (A.5). The byte arrays were converted by a script from the hex dumps of
 * shared/rfc/rfc9001.md and rfc9369.md (first and last bytes compared with
 * the text by hand). Then key update, tampering, every cipher suite on
 * linear, non-linear and cloned skbs, AEAD limits. Tokens: quic_token.
 */

#include <kunit/test.h>
#include <crypto/hash.h>
#include <linux/mm.h>
#include <linux/skbuff.h>

#include "../crypto.h"
#include "initial_vectors.h"

/* RFC 9001 A.3 and RFC 9369 A.3: ACK and CRYPTO frames of the server Initial */
static const u8 quic_test_server_frames[] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x40, 0x5a, 0x02, 0x00, 0x00,
	0x56, 0x03, 0x03, 0xee, 0xfc, 0xe7, 0xf7, 0xb3, 0x7b, 0xa1, 0xd1, 0x63,
	0x2e, 0x96, 0x67, 0x78, 0x25, 0xdd, 0xf7, 0x39, 0x88, 0xcf, 0xc7, 0x98,
	0x25, 0xdf, 0x56, 0x6d, 0xc5, 0x43, 0x0b, 0x9a, 0x04, 0x5a, 0x12, 0x00,
	0x13, 0x01, 0x00, 0x00, 0x2e, 0x00, 0x33, 0x00, 0x24, 0x00, 0x1d, 0x00,
	0x20, 0x9d, 0x3c, 0x94, 0x0d, 0x89, 0x69, 0x0b, 0x84, 0xd0, 0x8a, 0x60,
	0x99, 0x3c, 0x14, 0x4e, 0xca, 0x68, 0x4d, 0x10, 0x81, 0x28, 0x7c, 0x83,
	0x4d, 0x53, 0x11, 0xbc, 0xf3, 0x2b, 0xb9, 0xda, 0x1a, 0x00, 0x2b, 0x00,
	0x02, 0x03, 0x04,
};

/* RFC 9001 A.2: unprotected client Initial header */
static const u8 quic_test_v1_client_header[] = {
	0xc3, 0x00, 0x00, 0x00, 0x01, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51,
	0x57, 0x08, 0x00, 0x00, 0x44, 0x9e, 0x00, 0x00, 0x00, 0x02,
};

/* RFC 9001 A.3: unprotected server Initial header */
static const u8 quic_test_v1_server_header[] = {
	0xc1, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a,
	0x42, 0x62, 0xb5, 0x00, 0x40, 0x75, 0x00, 0x01,
};

/* RFC 9001 A.3: protected server Initial */
static const u8 quic_test_v1_server_packet[] = {
	0xcf, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a,
	0x42, 0x62, 0xb5, 0x00, 0x40, 0x75, 0xc0, 0xd9, 0x5a, 0x48, 0x2c, 0xd0,
	0x99, 0x1c, 0xd2, 0x5b, 0x0a, 0xac, 0x40, 0x6a, 0x58, 0x16, 0xb6, 0x39,
	0x41, 0x00, 0xf3, 0x7a, 0x1c, 0x69, 0x79, 0x75, 0x54, 0x78, 0x0b, 0xb3,
	0x8c, 0xc5, 0xa9, 0x9f, 0x5e, 0xde, 0x4c, 0xf7, 0x3c, 0x3e, 0xc2, 0x49,
	0x3a, 0x18, 0x39, 0xb3, 0xdb, 0xcb, 0xa3, 0xf6, 0xea, 0x46, 0xc5, 0xb7,
	0x68, 0x4d, 0xf3, 0x54, 0x8e, 0x7d, 0xde, 0xb9, 0xc3, 0xbf, 0x9c, 0x73,
	0xcc, 0x3f, 0x3b, 0xde, 0xd7, 0x4b, 0x56, 0x2b, 0xfb, 0x19, 0xfb, 0x84,
	0x02, 0x2f, 0x8e, 0xf4, 0xcd, 0xd9, 0x37, 0x95, 0xd7, 0x7d, 0x06, 0xed,
	0xbb, 0x7a, 0xaf, 0x2f, 0x58, 0x89, 0x18, 0x50, 0xab, 0xbd, 0xca, 0x3d,
	0x20, 0x39, 0x8c, 0x27, 0x64, 0x56, 0xcb, 0xc4, 0x21, 0x58, 0x40, 0x7d,
	0xd0, 0x74, 0xee,
};

/* RFC 9001 A.4: Retry packet, tag included */
static const u8 quic_test_v1_retry[] = {
	0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a,
	0x42, 0x62, 0xb5, 0x74, 0x6f, 0x6b, 0x65, 0x6e, 0x04, 0xa2, 0x65, 0xba,
	0x2e, 0xff, 0x4d, 0x82, 0x90, 0x58, 0xfb, 0x3f, 0x0f, 0x24, 0x96, 0xba,
};

/* RFC 9001 A.5: protected ChaCha20-Poly1305 short header packet */
static const u8 quic_test_v1_short_packet[] = {
	0x4c, 0xfe, 0x41, 0x89, 0x65, 0x5e, 0x5c, 0xd5, 0x5c, 0x41, 0xf6, 0x90,
	0x80, 0x57, 0x5d, 0x79, 0x99, 0xc2, 0x5a, 0x5b, 0xfb,
};

/* RFC 9369 A.2: unprotected client Initial header */
static const u8 quic_test_v2_client_header[] = {
	0xd3, 0x6b, 0x33, 0x43, 0xcf, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51,
	0x57, 0x08, 0x00, 0x00, 0x44, 0x9e, 0x00, 0x00, 0x00, 0x02,
};

/* RFC 9369 A.3: unprotected server Initial header */
static const u8 quic_test_v2_server_header[] = {
	0xd1, 0x6b, 0x33, 0x43, 0xcf, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a,
	0x42, 0x62, 0xb5, 0x00, 0x40, 0x75, 0x00, 0x01,
};

/* RFC 9369 A.3: protected server Initial */
static const u8 quic_test_v2_server_packet[] = {
	0xdc, 0x6b, 0x33, 0x43, 0xcf, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a,
	0x42, 0x62, 0xb5, 0x00, 0x40, 0x75, 0xd9, 0x2f, 0xaa, 0xf1, 0x6f, 0x05,
	0xd8, 0xa4, 0x39, 0x8c, 0x47, 0x08, 0x96, 0x98, 0xba, 0xee, 0xa2, 0x6b,
	0x91, 0xeb, 0x76, 0x1d, 0x9b, 0x89, 0x23, 0x7b, 0xbf, 0x87, 0x26, 0x30,
	0x17, 0x91, 0x53, 0x58, 0x23, 0x00, 0x35, 0xf7, 0xfd, 0x39, 0x45, 0xd8,
	0x89, 0x65, 0xcf, 0x17, 0xf9, 0xaf, 0x6e, 0x16, 0x88, 0x6c, 0x61, 0xbf,
	0xc7, 0x03, 0x10, 0x6f, 0xba, 0xf3, 0xcb, 0x4c, 0xfa, 0x52, 0x38, 0x2d,
	0xd1, 0x6a, 0x39, 0x3e, 0x42, 0x75, 0x75, 0x07, 0x69, 0x80, 0x75, 0xb2,
	0xc9, 0x84, 0xc7, 0x07, 0xf0, 0xa0, 0x81, 0x2d, 0x8c, 0xd5, 0xa6, 0x88,
	0x1e, 0xaf, 0x21, 0xce, 0xda, 0x98, 0xf4, 0xbd, 0x23, 0xf6, 0xfe, 0x1a,
	0x3e, 0x2c, 0x43, 0xed, 0xd9, 0xce, 0x7c, 0xa8, 0x4b, 0xed, 0x85, 0x21,
	0xe2, 0xe1, 0x40,
};

/* RFC 9369 A.4: Retry packet, tag included */
static const u8 quic_test_v2_retry[] = {
	0xcf, 0x6b, 0x33, 0x43, 0xcf, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a,
	0x42, 0x62, 0xb5, 0x74, 0x6f, 0x6b, 0x65, 0x6e, 0xc8, 0x64, 0x6c, 0xe8,
	0xbf, 0xe3, 0x39, 0x52, 0xd9, 0x55, 0x54, 0x36, 0x65, 0xdc, 0xc7, 0xb6,
};

/* RFC 9369 A.5: protected ChaCha20-Poly1305 short header packet */
static const u8 quic_test_v2_short_packet[] = {
	0x55, 0x58, 0xb1, 0xc6, 0x0a, 0xe7, 0xb6, 0xb9, 0x32, 0xbc, 0x27, 0xd7,
	0x86, 0xf4, 0xbc, 0x2b, 0xb2, 0x0f, 0x21, 0x62, 0xba,
};

KUNIT_DEFINE_ACTION_WRAPPER(quic_test_crypto_destroy, quic_crypto_destroy, struct quic_crypto *);
KUNIT_DEFINE_ACTION_WRAPPER(quic_test_kfree_skb, kfree_skb, struct sk_buff *);
KUNIT_DEFINE_ACTION_WRAPPER(quic_test_free_shash, crypto_free_shash, struct crypto_shash *);

static struct quic_crypto *quic_test_crypto(struct kunit *test)
{
	struct quic_crypto *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, quic_test_crypto_destroy, c), 0);
	return c;
}

static struct crypto_shash *quic_test_hash(struct kunit *test, const char *name)
{
	struct crypto_shash *hash = crypto_alloc_shash(name, 0, 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hash);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, quic_test_free_shash, hash), 0);
	return hash;
}

static u8 *quic_test_dup(struct kunit *test, const u8 *data, u32 len)
{
	u8 *p = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	memcpy(p, data, len);
	return p;
}

static void quic_test_install(struct kunit *test, struct quic_crypto *c, u8 level, u8 send,
			      u32 type, const u8 *secret, u32 secretlen, u32 version)
{
	struct quic_crypto_secret srt = { .send = send, .level = level, .type = type };

	memcpy(srt.secret, secret, secretlen);
	KUNIT_ASSERT_EQ(test, quic_crypto_set_secret(c, &srt, version), 0);
}

/* An skb holding @data: @head bytes linear, the rest in page fragments of at
 * most 300 bytes at odd offsets, one page each.
 */
static struct sk_buff *quic_test_skb(struct kunit *test, const u8 *data, u32 len, u32 head)
{
	struct sk_buff *skb = alloc_skb(head, GFP_KERNEL);
	u32 off = head, i = 0, n;
	struct page *page;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, quic_test_kfree_skb, skb), 0);
	skb_put_data(skb, data, head);
	while (off < len) {
		n = min(len - off, 300U);
		page = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, page);
		memcpy(page_address(page) + 101 + i * 7, data + off, n);
		skb_add_rx_frag(skb, i, page, 101 + i * 7, n, PAGE_SIZE);
		off += n;
		i++;
	}
	KUNIT_ASSERT_EQ(test, skb->len, len);
	return skb;
}

static u8 *quic_test_skb_bytes(struct kunit *test, struct sk_buff *skb, u32 len)
{
	u8 *p = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, 0, p, len), 0);
	return p;
}

KUNIT_ARRAY_PARAM_DESC(quic_test_keys, quic_test_keys_vecs, desc);

static void crypto_initial_secrets_match_rfc(struct kunit *test)
{
	struct crypto_shash *hash = quic_test_hash(test, "hmac(sha256)");
	const struct quic_test_keys_vec *v = test->param_value;
	u8 out[32];
	int err;

	err = quic_crypto_initial_secret(hash, v->version, &quic_test_dcid, out);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_MEMEQ(test, out, v->initial, 32);

	/* RFC 9001 Section 5.2: the same labels for every version. */
	err = quic_crypto_hkdf_expand_label(hash, v->initial, 32, "client in", out, 32);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_MEMEQ(test, out, v->secret[0], 32);
	err = quic_crypto_hkdf_expand_label(hash, v->initial, 32, "server in", out, 32);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_MEMEQ(test, out, v->secret[1], 32);
}

static void quic_test_check_keys(struct kunit *test, const struct quic_test_keys_vec *v, int side)
{
	struct crypto_shash *hash = quic_test_hash(test, "hmac(sha256)");
	struct quic_crypto_keys keys = {};

	KUNIT_ASSERT_EQ(test, quic_crypto_derive_keys(hash, v->version, v->secret[side], 32, 16,
						      &keys), 0);
	KUNIT_EXPECT_MEMEQ(test, keys.key, v->key[side], 16);
	KUNIT_EXPECT_MEMEQ(test, keys.iv, v->iv[side], 12);
	KUNIT_EXPECT_MEMEQ(test, keys.hp, v->hp[side], 16);
}

static void crypto_initial_keys_match_rfc(struct kunit *test)
{
	quic_test_check_keys(test, test->param_value, 0);
	quic_test_check_keys(test, test->param_value, 1);
}

static void crypto_initial_secret_rejects_unknown_version(struct kunit *test)
{
	struct crypto_shash *hash = quic_test_hash(test, "hmac(sha256)");
	struct quic_crypto *c = quic_test_crypto(test);
	u8 out[32];

	KUNIT_EXPECT_EQ(test, quic_crypto_initial_secret(hash, 0xff00001d, &quic_test_dcid, out),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, quic_crypto_initial_keys_install(c, &quic_test_dcid, 0, false),
			-EINVAL);
	KUNIT_EXPECT_FALSE(test, c->tx.ready);
}

/* RFC 9001 A.2, A.3 and RFC 9369 A.2, A.3 */

struct quic_test_initial_vec {
	const char *desc;
	u32 version;
	bool server;		/* sent by the server */
	const u8 *header;
	u32 hlen;
	const u8 *frames;
	u32 flen;
	u32 payload_len;	/* frames and PADDING */
	s64 number;
	const u8 *packet;
	u32 len;
};

static const struct quic_test_initial_vec quic_test_initial_vecs[] = {
	{
		.desc = "RFC 9001 A.2 client Initial", .version = QUIC_VERSION_V1,
		.header = quic_test_v1_client_header, .hlen = sizeof(quic_test_v1_client_header),
		.frames = quic_test_client_frames, .flen = sizeof(quic_test_client_frames),
		.payload_len = 1162, .number = 2,
		.packet = quic_test_v1_client_packet, .len = sizeof(quic_test_v1_client_packet),
	},
	{
		.desc = "RFC 9001 A.3 server Initial", .version = QUIC_VERSION_V1, .server = true,
		.header = quic_test_v1_server_header, .hlen = sizeof(quic_test_v1_server_header),
		.frames = quic_test_server_frames, .flen = sizeof(quic_test_server_frames),
		.payload_len = sizeof(quic_test_server_frames), .number = 1,
		.packet = quic_test_v1_server_packet, .len = sizeof(quic_test_v1_server_packet),
	},
	{
		.desc = "RFC 9369 A.2 client Initial (QUIC v2)", .version = QUIC_VERSION_V2,
		.header = quic_test_v2_client_header, .hlen = sizeof(quic_test_v2_client_header),
		.frames = quic_test_client_frames, .flen = sizeof(quic_test_client_frames),
		.payload_len = 1162, .number = 2,
		.packet = quic_test_v2_client_packet, .len = sizeof(quic_test_v2_client_packet),
	},
	{
		.desc = "RFC 9369 A.3 server Initial (QUIC v2)", .version = QUIC_VERSION_V2,
		.server = true,
		.header = quic_test_v2_server_header, .hlen = sizeof(quic_test_v2_server_header),
		.frames = quic_test_server_frames, .flen = sizeof(quic_test_server_frames),
		.payload_len = sizeof(quic_test_server_frames), .number = 1,
		.packet = quic_test_v2_server_packet, .len = sizeof(quic_test_v2_server_packet),
	},
};

KUNIT_ARRAY_PARAM_DESC(quic_test_initial, quic_test_initial_vecs, desc);

/* The unprotected packet: header, frames, PADDING (zeros), room for the tag. */
static u8 *quic_test_initial_plain(struct kunit *test, const struct quic_test_initial_vec *v)
{
	u8 *p = kunit_kzalloc(test, v->len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	KUNIT_ASSERT_EQ(test, v->hlen + v->payload_len + QUIC_TAG_LEN, v->len);
	memcpy(p, v->header, v->hlen);
	memcpy(p + v->hlen, v->frames, v->flen);
	return p;
}

static void quic_test_initial_pkt(const struct quic_test_initial_vec *v,
				  struct quic_crypto_pkt *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->len = v->len;
	pkt->pn_offset = v->hlen - ((v->header[0] & 0x03) + 1);
	pkt->number = v->number;
	pkt->largest = -1;
}

static void crypto_initial_packet_matches_rfc(struct kunit *test)
{
	const struct quic_test_initial_vec *v = test->param_value;
	struct quic_crypto *c = quic_test_crypto(test);
	u8 *buf = quic_test_initial_plain(test, v);
	struct quic_crypto_pkt pkt;

	KUNIT_ASSERT_EQ(test, quic_crypto_initial_keys_install(c, &quic_test_dcid, v->version,
							       v->server), 0);
	quic_test_initial_pkt(v, &pkt);
	KUNIT_ASSERT_EQ(test, quic_crypto_encrypt_buf(c, buf, &pkt), 0);
	KUNIT_EXPECT_MEMEQ(test, buf, v->packet, v->len);
	KUNIT_EXPECT_EQ(test, c->tx_count, 1);
}

static void crypto_initial_packet_opens_rfc(struct kunit *test)
{
	const struct quic_test_initial_vec *v = test->param_value;
	u8 *buf = quic_test_dup(test, v->packet, v->len);
	struct quic_crypto *c = quic_test_crypto(test);
	struct quic_crypto_pkt pkt;

	KUNIT_ASSERT_EQ(test, quic_crypto_initial_keys_install(c, &quic_test_dcid, v->version,
							       !v->server), 0);
	quic_test_initial_pkt(v, &pkt);
	pkt.number = 0;
	KUNIT_ASSERT_EQ(test, quic_crypto_decrypt_buf(c, buf, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.number, v->number);
	KUNIT_EXPECT_EQ(test, pkt.number_len, (v->header[0] & 0x03) + 1);
	KUNIT_EXPECT_MEMEQ(test, buf, v->header, v->hlen);
	KUNIT_EXPECT_MEMEQ(test, buf + v->hlen, v->frames, v->flen);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf + v->hlen + v->flen, 0, v->payload_len - v->flen));
}

/* The same vectors on skbs whose header starts in the linear part and whose
 * payload spans page fragments.
 */
static void crypto_initial_packet_nonlinear_skb(struct kunit *test)
{
	const struct quic_test_initial_vec *v = test->param_value;
	struct quic_crypto *tx = quic_test_crypto(test);
	struct quic_crypto *rx = quic_test_crypto(test);
	struct quic_crypto_pkt pkt;
	struct sk_buff *skb;
	u8 *out;

	KUNIT_ASSERT_EQ(test, quic_crypto_initial_keys_install(tx, &quic_test_dcid, v->version,
							       v->server), 0);
	KUNIT_ASSERT_EQ(test, quic_crypto_initial_keys_install(rx, &quic_test_dcid, v->version,
							       !v->server), 0);

	skb = quic_test_skb(test, quic_test_initial_plain(test, v), v->len, 10);
	KUNIT_ASSERT_TRUE(test, skb_is_nonlinear(skb));
	quic_test_initial_pkt(v, &pkt);
	KUNIT_ASSERT_EQ(test, quic_crypto_encrypt(tx, skb, &pkt), 0);
	out = quic_test_skb_bytes(test, skb, v->len);
	KUNIT_EXPECT_MEMEQ(test, out, v->packet, v->len);

	skb = quic_test_skb(test, v->packet, v->len, 10);
	quic_test_initial_pkt(v, &pkt);
	KUNIT_ASSERT_EQ(test, quic_crypto_decrypt(rx, skb, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.number, v->number);
	out = quic_test_skb_bytes(test, skb, v->len);
	KUNIT_EXPECT_MEMEQ(test, out, v->header, v->hlen);
	KUNIT_EXPECT_MEMEQ(test, out + v->hlen, v->frames, v->flen);
}

/* RFC 9001 A.4 and RFC 9369 A.4 */

struct quic_test_retry_vec {
	const char *desc;
	u32 version;
	const u8 *packet;
	u32 len;
};

static const struct quic_test_retry_vec quic_test_retry_vecs[] = {
	{ "RFC 9001 A.4 Retry", QUIC_VERSION_V1, quic_test_v1_retry, sizeof(quic_test_v1_retry) },
	{ "RFC 9369 A.4 Retry (QUIC v2)", QUIC_VERSION_V2, quic_test_v2_retry,
	  sizeof(quic_test_v2_retry) },
};

KUNIT_ARRAY_PARAM_DESC(quic_test_retry, quic_test_retry_vecs, desc);

static void crypto_retry_tag_matches_rfc(struct kunit *test)
{
	const struct quic_test_retry_vec *v = test->param_value;
	u8 *buf = quic_test_dup(test, v->packet, v->len);
	struct quic_crypto *c = quic_test_crypto(test);
	u8 tag[QUIC_TAG_LEN];

	/* A client checks the Retry with the Initial state of its first DCID. */
	KUNIT_ASSERT_EQ(test, quic_crypto_initial_keys_install(c, &quic_test_dcid, v->version,
							       false), 0);
	KUNIT_ASSERT_EQ(test, quic_crypto_retry_tag(c, buf, v->len - QUIC_TAG_LEN,
						    &quic_test_dcid, tag), 0);
	KUNIT_EXPECT_MEMEQ(test, tag, v->packet + v->len - QUIC_TAG_LEN, QUIC_TAG_LEN);
	KUNIT_EXPECT_EQ(test, quic_crypto_verify_retry_tag(c, buf, v->len, &quic_test_dcid), 0);
}

static void crypto_retry_tag_detects_tampering(struct kunit *test)
{
	const struct quic_test_retry_vec *v = test->param_value;
	u8 *buf = quic_test_dup(test, v->packet, v->len);
	struct quic_crypto *c = quic_test_crypto(test);
	struct quic_conn_id odcid = quic_test_dcid;
	u32 i;

	KUNIT_ASSERT_EQ(test, quic_crypto_initial_keys_install(c, &quic_test_dcid, v->version,
							       false), 0);
	for (i = 0; i < v->len; i++) {
		buf[i] ^= 0x01;
		KUNIT_EXPECT_EQ_MSG(test, quic_crypto_verify_retry_tag(c, buf, v->len, &odcid),
				    -EBADMSG, "byte %u", i);
		buf[i] ^= 0x01;
	}
	odcid.data[7] ^= 0x80;
	KUNIT_EXPECT_EQ(test, quic_crypto_verify_retry_tag(c, buf, v->len, &odcid), -EBADMSG);
	KUNIT_EXPECT_EQ(test, quic_crypto_verify_retry_tag(c, buf, QUIC_TAG_LEN, &quic_test_dcid),
			-EINVAL);
	/* Still intact: the calls above did not change the state. */
	KUNIT_EXPECT_EQ(test, quic_crypto_verify_retry_tag(c, buf, v->len, &quic_test_dcid), 0);
}

/* RFC 9001 A.5 and RFC 9369 A.5 */

/* Both appendices: the server's 1-RTT secret, the header with a 3-byte packet
 * number (49140 encoded) and a PING frame as the whole payload.
 */
static const u8 quic_test_short_secret[32] = { 0x9a, 0xc3, 0x12, 0xa7, 0xf8, 0x77, 0x46, 0x8e,
	0xbe, 0x69, 0x42, 0x27, 0x48, 0xad, 0x00, 0xa1,
	0x54, 0x43, 0xf1, 0x82, 0x03, 0xa0, 0x7d, 0x60,
	0x60, 0xf6, 0x88, 0xf3, 0x0f, 0x21, 0x63, 0x2b };
static const u8 quic_test_short_header[4] = { 0x42, 0x00, 0xbf, 0xf4 };
#define QUIC_TEST_SHORT_PN	654360564
#define QUIC_TEST_SHORT_LEN	(4 + 1 + QUIC_TAG_LEN)

struct quic_test_short_vec {
	const char *desc;
	u32 version;
	u8 ku[32];
	const u8 *packet;
};

static const struct quic_test_short_vec quic_test_short_vecs[] = {
	{
		.desc = "RFC 9001 A.5 ChaCha20-Poly1305 short header",
		.version = QUIC_VERSION_V1,
		.ku = { 0x12, 0x23, 0x50, 0x47, 0x55, 0x03, 0x6d, 0x55,
			0x63, 0x42, 0xee, 0x93, 0x61, 0xd2, 0x53, 0x42,
			0x1a, 0x82, 0x6c, 0x9e, 0xcd, 0xf3, 0xc7, 0x14,
			0x86, 0x84, 0xb3, 0x6b, 0x71, 0x48, 0x81, 0xf9 },
		.packet = quic_test_v1_short_packet,
	},
	{
		.desc = "RFC 9369 A.5 ChaCha20-Poly1305 short header (QUIC v2)",
		.version = QUIC_VERSION_V2,
		.ku = { 0xc6, 0x93, 0x74, 0xc4, 0x9e, 0x3d, 0x2a, 0x94,
			0x66, 0xfa, 0x68, 0x9e, 0x49, 0xd4, 0x76, 0xdb,
			0x5d, 0x0d, 0xfb, 0xc8, 0x7d, 0x32, 0xce, 0xea,
			0xa6, 0x34, 0x3f, 0xd0, 0xae, 0x4c, 0x7d, 0x88 },
		.packet = quic_test_v2_short_packet,
	},
};

KUNIT_ARRAY_PARAM_DESC(quic_test_short, quic_test_short_vecs, desc);

static void crypto_short_packet_matches_rfc(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, QUIC_TEST_SHORT_LEN, GFP_KERNEL);
	const struct quic_test_short_vec *v = test->param_value;
	struct quic_crypto *c = quic_test_crypto(test);
	struct quic_crypto_pkt pkt = {
		.len = QUIC_TEST_SHORT_LEN, .pn_offset = 1, .number = QUIC_TEST_SHORT_PN,
	};

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	memcpy(buf, quic_test_short_header, 4);
	buf[4] = 0x01;	/* PING */
	quic_test_install(test, c, QUIC_CRYPTO_APP, 1, TLS_CIPHER_CHACHA20_POLY1305,
			  quic_test_short_secret, 32, v->version);
	KUNIT_ASSERT_EQ(test, quic_crypto_encrypt_buf(c, buf, &pkt), 0);
	KUNIT_EXPECT_MEMEQ(test, buf, v->packet, QUIC_TEST_SHORT_LEN);
}

static void crypto_short_packet_opens_rfc(struct kunit *test)
{
	const struct quic_test_short_vec *v = test->param_value;
	struct quic_crypto *c = quic_test_crypto(test);
	struct quic_crypto_pkt pkt = {
		.len = QUIC_TEST_SHORT_LEN, .pn_offset = 1, .largest = QUIC_TEST_SHORT_PN - 1,
	};
	u8 *buf;

	buf = quic_test_dup(test, v->packet, QUIC_TEST_SHORT_LEN);
	quic_test_install(test, c, QUIC_CRYPTO_APP, 0, TLS_CIPHER_CHACHA20_POLY1305,
			  quic_test_short_secret, 32, v->version);
	KUNIT_ASSERT_EQ(test, quic_crypto_decrypt_buf(c, buf, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.number, QUIC_TEST_SHORT_PN);
	KUNIT_EXPECT_EQ(test, pkt.number_len, 3);
	KUNIT_EXPECT_EQ(test, pkt.key_phase, 0);
	KUNIT_EXPECT_EQ(test, pkt.key_update, 0);
	KUNIT_EXPECT_MEMEQ(test, buf, quic_test_short_header, 4);
	KUNIT_EXPECT_EQ(test, buf[4], 0x01);
}

/* The "ku" value of the appendix is the next generation's secret. */
static void crypto_next_secret_matches_rfc(struct kunit *test)
{
	struct crypto_shash *hash = quic_test_hash(test, "hmac(sha256)");
	const struct quic_test_short_vec *v = test->param_value;
	struct quic_crypto *c = quic_test_crypto(test);
	u8 next[32];

	KUNIT_ASSERT_EQ(test, quic_crypto_next_secret(hash, v->version, quic_test_short_secret,
						      32, next), 0);
	KUNIT_EXPECT_MEMEQ(test, next, v->ku, 32);

	/* Installing 1-RTT keys prepares that generation in the other slot. */
	quic_test_install(test, c, QUIC_CRYPTO_APP, 0, TLS_CIPHER_CHACHA20_POLY1305,
			  quic_test_short_secret, 32, v->version);
	KUNIT_EXPECT_EQ(test, c->rx.other, QUIC_CRYPTO_SLOT_NEXT);
	KUNIT_EXPECT_MEMEQ(test, c->rx.secret[1], v->ku, 32);
}

/* Key update with SHA-384 (TLS_AES_256_GCM_SHA384). No RFC sample exists:
 * the expected values were computed with Python's hmac module following RFC
 * 8446 Section 7.1, HKDF-Expand(secret, HkdfLabel, 48) with HkdfLabel =
 * 0x0030 | 0x0d | "tls13 quic ku" | 0x00 (0x0f and "tls13 quicv2 ku" for
 * v2), i.e. the single block HMAC-SHA384(secret, HkdfLabel | 0x01), for the
 * secret 0x00 0x01 ... 0x2f. The same code reproduces every value of RFC
 * 9001 A.1 and RFC 9369 A.1.
 */
static const u8 quic_test_sha384_v1_ku[48] = {
	0xd2, 0x1f, 0x52, 0x42, 0x77, 0x39, 0x0b, 0xa9, 0x6b, 0x86, 0x48, 0x4d,
	0x9c, 0x68, 0x7f, 0x85, 0x0f, 0x1e, 0x4d, 0x1f, 0x99, 0x70, 0x33, 0xbb,
	0xa0, 0x60, 0x51, 0x12, 0x91, 0x79, 0xa7, 0x62, 0xa9, 0x40, 0x67, 0xd0,
	0x65, 0xf3, 0xf7, 0x15, 0xe8, 0x3d, 0x65, 0xa7, 0xbf, 0x8c, 0x79, 0xb9,
};

static const u8 quic_test_sha384_v2_ku[48] = {
	0x5d, 0x74, 0x5f, 0x29, 0x79, 0xbe, 0x4d, 0xb8, 0xe0, 0xce, 0xe2, 0x3c,
	0x76, 0xe2, 0x61, 0xc7, 0xdd, 0x64, 0x2f, 0x41, 0x81, 0xbe, 0x80, 0x7c,
	0xef, 0x5b, 0x22, 0x2c, 0x3d, 0x24, 0x9e, 0xea, 0x8a, 0xef, 0x39, 0x41,
	0xa4, 0xbb, 0x07, 0x27, 0x75, 0xe4, 0xcf, 0x0b, 0xf1, 0xea, 0xe4, 0x4c,
};

static void crypto_next_secret_sha384(struct kunit *test)
{
	struct crypto_shash *hash = quic_test_hash(test, "hmac(sha384)");
	u8 secret[48], next[48];
	int i;

	for (i = 0; i < 48; i++)
		secret[i] = i;
	KUNIT_ASSERT_EQ(test, quic_crypto_next_secret(hash, QUIC_VERSION_V1, secret, 48, next), 0);
	KUNIT_EXPECT_MEMEQ(test, next, quic_test_sha384_v1_ku, 48);
	KUNIT_ASSERT_EQ(test, quic_crypto_next_secret(hash, QUIC_VERSION_V2, secret, 48, next), 0);
	KUNIT_EXPECT_MEMEQ(test, next, quic_test_sha384_v2_ku, 48);
}

/* Two endpoints at one level: client sends with secret A and receives with
 * B, the server the other way round.
 */
struct quic_test_pair {
	struct quic_crypto *client;
	struct quic_crypto *server;
	bool long_header;
};

static void quic_test_pair_init(struct kunit *test, struct quic_test_pair *p, u32 type, u8 level)
{
	u8 a[QUIC_SECRET_MAX_LEN], b[QUIC_SECRET_MAX_LEN];
	int i;

	for (i = 0; i < QUIC_SECRET_MAX_LEN; i++) {
		a[i] = 0x11 * (i % 15) + i;
		b[i] = 0xa5 ^ (3 * i);
	}
	p->client = quic_test_crypto(test);
	p->server = quic_test_crypto(test);
	p->long_header = level != QUIC_CRYPTO_APP;
	quic_test_install(test, p->client, level, 1, type, a, sizeof(a), QUIC_VERSION_V1);
	quic_test_install(test, p->client, level, 0, type, b, sizeof(b), QUIC_VERSION_V1);
	quic_test_install(test, p->server, level, 1, type, b, sizeof(b), QUIC_VERSION_V1);
	quic_test_install(test, p->server, level, 0, type, a, sizeof(a), QUIC_VERSION_V1);
}

#define QUIC_TEST_SHORT_PN_OFF	9	/* first byte, 8-byte DCID */
#define QUIC_TEST_LONG_PN_OFF	17	/* first byte, version, DCID, SCID, Length */
#define QUIC_TEST_PN_LEN	2

/* An unprotected packet: 2-byte packet number @number, @payload bytes of
 * frames and room for the tag.
 */
static u8 *quic_test_packet(struct kunit *test, bool long_header, u32 payload, s64 number,
			    u32 *len, u32 *pn_offset)
{
	u32 off = long_header ? QUIC_TEST_LONG_PN_OFF : QUIC_TEST_SHORT_PN_OFF, i;
	u8 *p;

	*len = off + QUIC_TEST_PN_LEN + payload + QUIC_TAG_LEN;
	*pn_offset = off;
	p = kunit_kzalloc(test, *len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	if (long_header) {
		/* Handshake packet, version 1, 8-byte DCID, no SCID, Length */
		p[0] = 0xe0 | (QUIC_TEST_PN_LEN - 1);
		p[4] = 0x01;
		p[5] = 8;
		memset(p + 6, 0x5a, 8);
		p[14] = 0;
		p[15] = 0x40 | ((QUIC_TEST_PN_LEN + payload + QUIC_TAG_LEN) >> 8);
		p[16] = (QUIC_TEST_PN_LEN + payload + QUIC_TAG_LEN) & 0xff;
	} else {
		p[0] = 0x40 | (QUIC_TEST_PN_LEN - 1);
		memset(p + 1, 0x5a, 8);
	}
	p[off] = number >> 8;
	p[off + 1] = number;
	for (i = 0; i < payload; i++)
		p[off + QUIC_TEST_PN_LEN + i] = i * 7 + 1;
	return p;
}

/* Protect a fresh packet from @from with packet number @number. */
static u8 *quic_test_seal(struct kunit *test, struct quic_test_pair *p,
			  struct quic_crypto *from, s64 number)
{
	struct quic_crypto_pkt pkt = { .number = number };
	u8 *buf;

	buf = quic_test_packet(test, p->long_header, 32, number, &pkt.len, &pkt.pn_offset);
	KUNIT_EXPECT_EQ(test, quic_crypto_encrypt_buf(from, buf, &pkt), 0);
	return buf;
}

static int quic_test_open(struct quic_test_pair *p, struct quic_crypto *to, u8 *buf,
			  s64 largest, struct quic_crypto_pkt *pkt)
{
	u32 off = p->long_header ? QUIC_TEST_LONG_PN_OFF : QUIC_TEST_SHORT_PN_OFF;

	memset(pkt, 0, sizeof(*pkt));
	pkt->pn_offset = off;
	pkt->len = off + QUIC_TEST_PN_LEN + 32 + QUIC_TAG_LEN;
	pkt->largest = largest;
	return quic_crypto_decrypt_buf(to, buf, pkt);
}

static void crypto_key_update_round_trip(struct kunit *test)
{
	struct quic_crypto_pkt pkt;
	struct quic_test_pair p;
	u8 *buf;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_GCM_128, QUIC_CRYPTO_APP);
	buf = quic_test_seal(test, &p, p.client, 0);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, buf, -1, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.key_phase, 0);

	/* The client starts; its packets carry Key Phase 1 from now on. */
	KUNIT_ASSERT_EQ(test, quic_crypto_key_update(p.client), 0);
	KUNIT_EXPECT_TRUE(test, p.client->key_pending);
	buf = quic_test_seal(test, &p, p.client, 1);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, buf, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.key_phase, 1);
	KUNIT_EXPECT_EQ(test, pkt.key_update, 1);
	/* The server follows on its send side (RFC 9001 Section 6.2). */
	KUNIT_EXPECT_EQ(test, p.server->tx.phase, 1);
	KUNIT_EXPECT_TRUE(test, p.server->key_pending);

	buf = quic_test_seal(test, &p, p.server, 0);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.client, buf, -1, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.key_phase, 1);
	KUNIT_EXPECT_EQ(test, pkt.key_update, 1);
	KUNIT_EXPECT_EQ(test, p.client->rx.phase, 1);

	buf = quic_test_seal(test, &p, p.client, 2);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, buf, 1, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.key_phase, 1);
	KUNIT_EXPECT_EQ(test, pkt.key_update, 0);
}

static void crypto_key_update_refused_until_acked(struct kunit *test)
{
	struct quic_crypto_pkt pkt;
	struct quic_test_pair p;
	u8 *buf;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_GCM_128, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, quic_crypto_key_update(p.client), 0);
	KUNIT_EXPECT_EQ(test, quic_crypto_key_update(p.client), -EBUSY);

	buf = quic_test_seal(test, &p, p.client, 5);	/* first packet of the new phase */
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, buf, 4, &pkt), 0);
	buf = quic_test_seal(test, &p, p.server, 0);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.client, buf, -1, &pkt), 0);

	/* An acknowledgment of an older packet does not complete it. */
	quic_crypto_pn_acked(p.client, 4);
	KUNIT_EXPECT_EQ(test, quic_crypto_key_update(p.client), -EBUSY);
	quic_crypto_pn_acked(p.client, 5);
	KUNIT_EXPECT_FALSE(test, p.client->key_pending);
	/* Acknowledged, but the previous receive keys are still retained. */
	KUNIT_EXPECT_EQ(test, quic_crypto_key_update(p.client), -EAGAIN);
	KUNIT_ASSERT_EQ(test, quic_crypto_prepare_next_keys(p.client), 0);
	KUNIT_EXPECT_EQ(test, quic_crypto_key_update(p.client), 0);
	KUNIT_EXPECT_EQ(test, p.client->tx.phase, 0);
}

static void crypto_key_update_keeps_old_keys_for_reordering(struct kunit *test)
{
	struct quic_crypto_pkt pkt;
	struct quic_test_pair p;
	u8 *late, *later, *buf;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_GCM_128, QUIC_CRYPTO_APP);
	later = quic_test_seal(test, &p, p.client, 2);
	late = quic_test_seal(test, &p, p.client, 3);
	buf = quic_test_seal(test, &p, p.client, 4);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, buf, -1, &pkt), 0);

	KUNIT_ASSERT_EQ(test, quic_crypto_key_update(p.client), 0);
	buf = quic_test_seal(test, &p, p.client, 5);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, buf, 4, &pkt), 0);
	KUNIT_ASSERT_EQ(test, pkt.key_update, 1);
	KUNIT_EXPECT_EQ(test, p.server->rx.other, QUIC_CRYPTO_SLOT_PREV);

	/* A delayed packet of the old phase still opens with the old keys. */
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, late, 5, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.number, 3);
	KUNIT_EXPECT_EQ(test, pkt.key_phase, 0);
	KUNIT_EXPECT_EQ(test, pkt.key_update, 0);

	/* After the retention time the old keys are gone. */
	KUNIT_ASSERT_EQ(test, quic_crypto_prepare_next_keys(p.server), 0);
	KUNIT_EXPECT_EQ(test, p.server->rx.other, QUIC_CRYPTO_SLOT_NEXT);
	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, later, 5, &pkt), -EBADMSG);
	KUNIT_EXPECT_EQ(test, p.server->rx.phase, 1);
}

/* RFC 9001 Section 6.4: old keys opening a packet numbered after the first
 * packet of the new phase is a KEY_UPDATE_ERROR.
 */
static void crypto_key_update_rejects_old_keys_for_newer_packets(struct kunit *test)
{
	struct quic_crypto_pkt pkt;
	struct quic_test_pair p;
	u8 *stale, *buf;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_GCM_128, QUIC_CRYPTO_APP);
	stale = quic_test_seal(test, &p, p.client, 10);
	KUNIT_ASSERT_EQ(test, quic_crypto_key_update(p.client), 0);
	buf = quic_test_seal(test, &p, p.client, 6);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, buf, -1, &pkt), 0);
	KUNIT_ASSERT_EQ(test, pkt.key_update, 1);

	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, stale, 6, &pkt), -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, p.server->rx.phase, 1);
}

/* A forged Key Phase flip must not cost a derivation nor change any key
 * (RFC 9001 Section 6.3): the next generation was prepared at install time.
 */
static void crypto_key_phase_spoof_derives_nothing(struct kunit *test)
{
	struct quic_crypto_dir *before;
	struct quic_crypto_pkt pkt;
	struct quic_test_pair p;
	u8 *buf;
	int i;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_GCM_128, QUIC_CRYPTO_APP);
	before = kunit_kmalloc(test, 2 * sizeof(*before), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, before);
	memcpy(&before[0], &p.server->rx, sizeof(*before));
	memcpy(&before[1], &p.server->tx, sizeof(*before));

	for (i = 0; i < 100; i++) {
		buf = quic_test_seal(test, &p, p.client, i);
		/* Header protection is an XOR: flipping the protected bit flips
		 * the Key Phase bit the receiver reads.
		 */
		buf[0] ^= 0x04;
		KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, buf, i - 1, &pkt), -EBADMSG);
	}
	KUNIT_EXPECT_MEMEQ(test, &p.server->rx, &before[0], sizeof(*before));
	KUNIT_EXPECT_MEMEQ(test, &p.server->tx, &before[1], sizeof(*before));
	KUNIT_EXPECT_FALSE(test, p.server->key_pending);
	KUNIT_EXPECT_EQ(test, p.server->rx_failures, 100);

	buf = quic_test_seal(test, &p, p.client, 100);
	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, buf, 99, &pkt), 0);
}

/* A peer updating again while we still hold the previous keys is not
 * followed: its packets fail until the next keys are prepared.
 */
static void crypto_key_update_second_peer_update_fails(struct kunit *test)
{
	struct quic_crypto_pkt pkt;
	struct quic_test_pair p;
	u8 *buf;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_GCM_128, QUIC_CRYPTO_APP);
	KUNIT_ASSERT_EQ(test, quic_crypto_key_update(p.client), 0);
	buf = quic_test_seal(test, &p, p.client, 1);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, buf, 0, &pkt), 0);
	buf = quic_test_seal(test, &p, p.server, 1);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.client, buf, 0, &pkt), 0);
	quic_crypto_pn_acked(p.client, 1);
	KUNIT_ASSERT_EQ(test, quic_crypto_prepare_next_keys(p.client), 0);
	KUNIT_ASSERT_EQ(test, quic_crypto_key_update(p.client), 0);

	buf = quic_test_seal(test, &p, p.client, 2);
	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, buf, 1, &pkt), -EBADMSG);
	KUNIT_EXPECT_EQ(test, p.server->rx.phase, 1);
	KUNIT_EXPECT_EQ(test, p.server->tx.phase, 1);

	KUNIT_ASSERT_EQ(test, quic_crypto_prepare_next_keys(p.server), 0);
	buf = quic_test_seal(test, &p, p.client, 3);
	KUNIT_ASSERT_EQ(test, quic_test_open(&p, p.server, buf, 1, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.key_update, 1);
	KUNIT_EXPECT_EQ(test, p.server->rx.phase, 0);
}

static void crypto_key_update_needs_1rtt_keys(struct kunit *test)
{
	struct quic_test_pair p;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_GCM_128, QUIC_CRYPTO_HANDSHAKE);
	KUNIT_EXPECT_EQ(test, quic_crypto_key_update(p.client), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_crypto_prepare_next_keys(p.client), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_crypto_key_update(quic_test_crypto(test)), -EINVAL);
}

/* Tampering: any changed bit fails with -EBADMSG, only the failure counter
 * moves and the next genuine packet opens.
 */
struct quic_test_tamper {
	const char *desc;
	int offset;		/* negative: from the end */
	u8 bit;
};

static const struct quic_test_tamper quic_test_tampers[] = {
	{ "fixed bit of the first byte (RFC 9001 5.3 associated data)", 0, 0x40 },
	{ "protected bits of the first byte (RFC 9001 5.4.1)", 0, 0x01 },
	{ "Destination Connection ID (RFC 9001 5.3 associated data)", 3, 0x01 },
	{ "packet number (RFC 9001 5.3 nonce)", QUIC_TEST_SHORT_PN_OFF + 1, 0x80 },
	{ "payload (RFC 9001 5.3)", 20, 0x10 },
	{ "authentication tag (RFC 9001 5.3)", -1, 0x01 },
};

KUNIT_ARRAY_PARAM_DESC(quic_test_tamper, quic_test_tampers, desc);

static void crypto_tampered_packet_rejected(struct kunit *test)
{
	u32 len = QUIC_TEST_SHORT_PN_OFF + QUIC_TEST_PN_LEN + 32 + QUIC_TAG_LEN;
	const struct quic_test_tamper *t = test->param_value;
	struct quic_crypto_pkt pkt;
	struct quic_test_pair p;
	u8 *buf;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_GCM_128, QUIC_CRYPTO_APP);
	buf = quic_test_seal(test, &p, p.client, 7);
	buf[t->offset < 0 ? len + t->offset : t->offset] ^= t->bit;
	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, buf, 6, &pkt), -EBADMSG);
	KUNIT_EXPECT_EQ(test, p.server->rx_failures, 1);
	KUNIT_EXPECT_EQ(test, pkt.number, 0);
	KUNIT_EXPECT_EQ(test, p.server->rx.phase, 0);
	KUNIT_EXPECT_EQ(test, p.server->rx.other, QUIC_CRYPTO_SLOT_NEXT);
	KUNIT_EXPECT_EQ(test, p.server->tx.phase, 0);

	buf = quic_test_seal(test, &p, p.client, 8);
	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, buf, 6, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.number, 8);
}

static void crypto_truncated_packets_rejected(struct kunit *test)
{
	u32 len = QUIC_TEST_SHORT_PN_OFF + QUIC_TEST_PN_LEN + 32 + QUIC_TAG_LEN;
	struct quic_crypto_pkt pkt = {};
	struct quic_test_pair p;
	struct sk_buff *skb;
	u8 *buf;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_GCM_128, QUIC_CRYPTO_APP);
	buf = quic_test_seal(test, &p, p.client, 1);

	/* Long enough to be sampled, but the tag is cut. */
	pkt = (struct quic_crypto_pkt){ .len = len - 1, .pn_offset = QUIC_TEST_SHORT_PN_OFF };
	KUNIT_EXPECT_EQ(test, quic_crypto_decrypt_buf(p.server, buf, &pkt), -EBADMSG);
	/* RFC 9001 Section 5.4.2: the sample would run past the packet. */
	pkt.len = QUIC_TEST_SHORT_PN_OFF + QUIC_PN_MAX_LEN + QUIC_HP_SAMPLE_LEN - 1;
	KUNIT_EXPECT_EQ(test, quic_crypto_decrypt_buf(p.server, buf, &pkt), -EINVAL);
	pkt.len = len;
	pkt.pn_offset = len - QUIC_PN_MAX_LEN - QUIC_HP_SAMPLE_LEN + 1;
	KUNIT_EXPECT_EQ(test, quic_crypto_decrypt_buf(p.server, buf, &pkt), -EINVAL);
	pkt.pn_offset = len;
	KUNIT_EXPECT_EQ(test, quic_crypto_decrypt_buf(p.server, buf, &pkt), -EINVAL);
	pkt.pn_offset = U32_MAX;
	KUNIT_EXPECT_EQ(test, quic_crypto_decrypt_buf(p.server, buf, &pkt), -EINVAL);
	pkt.len = 0;
	KUNIT_EXPECT_EQ(test, quic_crypto_encrypt_buf(p.client, buf, &pkt), -EINVAL);

	/* An skb shorter than the length claimed for its packet. */
	skb = quic_test_skb(test, buf, len - 1, len - 1);
	pkt = (struct quic_crypto_pkt){ .len = len, .pn_offset = QUIC_TEST_SHORT_PN_OFF };
	KUNIT_EXPECT_EQ(test, quic_crypto_decrypt(p.server, skb, &pkt), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_crypto_encrypt(p.client, skb, &pkt), -EINVAL);

	/* A largest packet number outside the varint range is a caller bug. */
	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, buf, -2, &pkt), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, buf, QUIC_VARINT_MAX + 1, &pkt),
			-EINVAL);

	/* Only the authentication failure was counted. */
	KUNIT_EXPECT_EQ(test, p.server->rx_failures, 1);
	buf = quic_test_seal(test, &p, p.client, 2);
	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, buf, 1, &pkt), 0);
}

static void crypto_no_keys_refused(struct kunit *test)
{
	struct quic_crypto *c = quic_test_crypto(test);
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct quic_crypto_pkt pkt = { .len = 64 };
	u8 tag[QUIC_TAG_LEN];

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, quic_crypto_encrypt_buf(c, buf, &pkt), -ENOKEY);
	KUNIT_EXPECT_EQ(test, quic_crypto_decrypt_buf(c, buf, &pkt), -ENOKEY);
	KUNIT_EXPECT_EQ(test, quic_crypto_retry_tag(c, buf, 32, &quic_test_dcid, tag), -ENOKEY);
}

/* Every cipher suite QUIC defines header protection for (RFC 9001 5.4.3, 5.4.4). */
struct quic_test_cipher {
	const char *desc;
	u32 type;
	u64 conf_limit;
	u64 integ_limit;
};

/* Limits from RFC 9001 Section 6.6: 2^23 and 2^52 for AES-GCM, 2^21.5
 * (2965820.3) for AES-CCM, none (more than 2^62) and 2^36 for ChaCha20.
 */
static const struct quic_test_cipher quic_test_ciphers[] = {
	{ "AEAD_AES_128_GCM (RFC 9001 5.3, 5.4.3)", TLS_CIPHER_AES_GCM_128,
	  1ULL << 23, 1ULL << 52 },
	{ "AEAD_AES_256_GCM (RFC 9001 5.3, 5.4.3)", TLS_CIPHER_AES_GCM_256,
	  1ULL << 23, 1ULL << 52 },
	{ "AEAD_AES_128_CCM (RFC 9001 5.3, 5.4.3)", TLS_CIPHER_AES_CCM_128,
	  2965820, 2965820 },
	{ "AEAD_CHACHA20_POLY1305 (RFC 9001 5.3, 5.4.4)", TLS_CIPHER_CHACHA20_POLY1305,
	  U64_MAX, 1ULL << 36 },
};

KUNIT_ARRAY_PARAM_DESC(quic_test_cipher, quic_test_ciphers, desc);

static void quic_test_buf_round_trip(struct kunit *test, u32 type, u8 level, u32 payload)
{
	struct quic_crypto_pkt pkt = { .number = 300 };
	struct quic_test_pair p;
	u8 *plain, *buf;

	quic_test_pair_init(test, &p, type, level);
	plain = quic_test_packet(test, p.long_header, payload, pkt.number, &pkt.len,
				 &pkt.pn_offset);
	buf = quic_test_dup(test, plain, pkt.len);
	KUNIT_ASSERT_EQ(test, quic_crypto_encrypt_buf(p.client, buf, &pkt), 0);
	KUNIT_EXPECT_NE(test, memcmp(buf + pkt.pn_offset + QUIC_TEST_PN_LEN,
				     plain + pkt.pn_offset + QUIC_TEST_PN_LEN, payload), 0);

	pkt.number = 0;
	pkt.largest = 299;
	KUNIT_ASSERT_EQ(test, quic_crypto_decrypt_buf(p.server, buf, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.number, 300);
	KUNIT_EXPECT_MEMEQ(test, buf, plain, pkt.len - QUIC_TAG_LEN);
}

static void crypto_cipher_round_trip_buffer(struct kunit *test)
{
	const struct quic_test_cipher *c = test->param_value;

	/* 3 bytes of frames: the smallest payload a 2-byte number allows. */
	quic_test_buf_round_trip(test, c->type, QUIC_CRYPTO_APP, 3);
	quic_test_buf_round_trip(test, c->type, QUIC_CRYPTO_APP, 1200);
	quic_test_buf_round_trip(test, c->type, QUIC_CRYPTO_HANDSHAKE, 1000);
}

static void quic_test_skb_round_trip(struct kunit *test, u32 type, u8 level, u32 payload,
				     u32 head)
{
	struct quic_crypto_pkt pkt = { .number = 77 };
	struct quic_test_pair p;
	struct sk_buff *skb;
	u8 *plain, *out;

	quic_test_pair_init(test, &p, type, level);
	plain = quic_test_packet(test, p.long_header, payload, pkt.number, &pkt.len,
				 &pkt.pn_offset);
	skb = quic_test_skb(test, plain, pkt.len, min(head, pkt.len));
	KUNIT_ASSERT_EQ(test, quic_crypto_encrypt(p.client, skb, &pkt), 0);
	out = quic_test_skb_bytes(test, skb, pkt.len);
	KUNIT_EXPECT_NE(test, memcmp(out + pkt.len - QUIC_TAG_LEN - 16,
				     plain + pkt.len - QUIC_TAG_LEN - 16, 16), 0);

	pkt.number = 0;
	pkt.largest = 76;
	KUNIT_ASSERT_EQ(test, quic_crypto_decrypt(p.server, skb, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.number, 77);
	out = quic_test_skb_bytes(test, skb, pkt.len);
	KUNIT_EXPECT_MEMEQ(test, out, plain, pkt.len - QUIC_TAG_LEN);
}

static void crypto_cipher_round_trip_linear_skb(struct kunit *test)
{
	const struct quic_test_cipher *c = test->param_value;

	quic_test_skb_round_trip(test, c->type, QUIC_CRYPTO_APP, 1200, U32_MAX);
	quic_test_skb_round_trip(test, c->type, QUIC_CRYPTO_HANDSHAKE, 40, U32_MAX);
}

static void crypto_cipher_round_trip_nonlinear_skb(struct kunit *test)
{
	const struct quic_test_cipher *c = test->param_value;

	/* Header partly in a fragment; sample across fragments. */
	quic_test_skb_round_trip(test, c->type, QUIC_CRYPTO_APP, 1200, 4);
	quic_test_skb_round_trip(test, c->type, QUIC_CRYPTO_APP, 1452, 64);
	quic_test_skb_round_trip(test, c->type, QUIC_CRYPTO_HANDSHAKE, 700, 20);
	/* A 3-byte payload: the tag lies entirely in the fragment. */
	quic_test_skb_round_trip(test, c->type, QUIC_CRYPTO_APP, 3, 12);
}

/* A cloned skb shares its data: protection must work on a private copy. */
static void crypto_cipher_cloned_skb_untouched(struct kunit *test)
{
	const struct quic_test_cipher *c = test->param_value;
	struct quic_crypto_pkt pkt = { .number = 9 };
	struct sk_buff *skb, *clone;
	struct quic_test_pair p;
	u8 *plain, *out;

	quic_test_pair_init(test, &p, c->type, QUIC_CRYPTO_APP);
	plain = quic_test_packet(test, false, 600, pkt.number, &pkt.len, &pkt.pn_offset);
	skb = quic_test_skb(test, plain, pkt.len, 100);
	clone = skb_clone(skb, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, clone);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, quic_test_kfree_skb, clone), 0);

	KUNIT_ASSERT_EQ(test, quic_crypto_encrypt(p.client, skb, &pkt), 0);
	out = quic_test_skb_bytes(test, clone, pkt.len);
	KUNIT_EXPECT_MEMEQ(test, out, plain, pkt.len);

	pkt.largest = 8;
	KUNIT_ASSERT_EQ(test, quic_crypto_decrypt(p.server, skb, &pkt), 0);
	out = quic_test_skb_bytes(test, skb, pkt.len);
	KUNIT_EXPECT_MEMEQ(test, out, plain, pkt.len - QUIC_TAG_LEN);
}

static void crypto_cipher_limits_match_rfc(struct kunit *test)
{
	const struct quic_test_cipher *c = test->param_value;
	struct quic_test_pair p;

	quic_test_pair_init(test, &p, c->type, QUIC_CRYPTO_APP);
	KUNIT_EXPECT_EQ(test, quic_crypto_confidentiality_limit(p.client), c->conf_limit);
	KUNIT_EXPECT_EQ(test, quic_crypto_integrity_limit(p.client), c->integ_limit);
}

static void crypto_unknown_cipher_refused(struct kunit *test)
{
	static const u32 types[] = {
		0, TLS_CIPHER_SM4_GCM, TLS_CIPHER_SM4_CCM, TLS_CIPHER_ARIA_GCM_128,
		TLS_CIPHER_ARIA_GCM_256, U32_MAX,
	};
	struct quic_crypto *c = quic_test_crypto(test);
	struct quic_crypto_secret srt = { .send = 1, .level = QUIC_CRYPTO_APP };
	int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		srt.type = types[i];
		KUNIT_EXPECT_EQ_MSG(test, quic_crypto_set_secret(c, &srt, QUIC_VERSION_V1),
				    -EINVAL, "type %u", types[i]);
	}
	KUNIT_EXPECT_NULL(test, c->cipher);
	KUNIT_EXPECT_FALSE(test, c->tx.ready);
}

static void crypto_bad_secret_refused(struct kunit *test)
{
	struct quic_crypto_secret srt = {
		.send = 1, .level = QUIC_CRYPTO_HANDSHAKE, .type = TLS_CIPHER_AES_GCM_128,
	};
	struct quic_crypto *c = quic_test_crypto(test);

	srt.level = QUIC_CRYPTO_MAX;
	KUNIT_EXPECT_EQ(test, quic_crypto_set_secret(c, &srt, QUIC_VERSION_V1), -EINVAL);
	srt.level = QUIC_CRYPTO_HANDSHAKE;
	srt.send = 2;
	KUNIT_EXPECT_EQ(test, quic_crypto_set_secret(c, &srt, QUIC_VERSION_V1), -EINVAL);
	srt.send = 1;
	KUNIT_EXPECT_EQ(test, quic_crypto_set_secret(c, &srt, 0xff00001d), -EINVAL);

	KUNIT_ASSERT_EQ(test, quic_crypto_set_secret(c, &srt, QUIC_VERSION_V1), 0);
	KUNIT_EXPECT_EQ(test, quic_crypto_set_secret(c, &srt, QUIC_VERSION_V1), -EEXIST);
	/* The other direction must use the same suite, level and version. */
	srt.send = 0;
	srt.type = TLS_CIPHER_AES_GCM_256;
	KUNIT_EXPECT_EQ(test, quic_crypto_set_secret(c, &srt, QUIC_VERSION_V1), -EINVAL);
	srt.type = TLS_CIPHER_AES_GCM_128;
	KUNIT_EXPECT_EQ(test, quic_crypto_set_secret(c, &srt, QUIC_VERSION_V2), -EINVAL);
	srt.level = QUIC_CRYPTO_APP;
	KUNIT_EXPECT_EQ(test, quic_crypto_set_secret(c, &srt, QUIC_VERSION_V1), -EINVAL);
	KUNIT_EXPECT_FALSE(test, c->rx.ready);
	srt.level = QUIC_CRYPTO_HANDSHAKE;
	KUNIT_EXPECT_EQ(test, quic_crypto_set_secret(c, &srt, QUIC_VERSION_V1), 0);
}

/* RFC 9001 Section 6.6: counters and their enforcement. */
static void crypto_aead_limits_enforced(struct kunit *test)
{
	struct quic_crypto_pkt pkt;
	struct quic_test_pair p;
	u8 *buf;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_CCM_128, QUIC_CRYPTO_APP);
	quic_test_seal(test, &p, p.client, 0);
	quic_test_seal(test, &p, p.client, 1);
	buf = quic_test_seal(test, &p, p.client, 2);
	KUNIT_EXPECT_EQ(test, p.client->tx_count, 3);

	/* At the confidentiality limit the keys are not used any more... */
	p.client->tx_count = quic_crypto_confidentiality_limit(p.client);
	pkt = (struct quic_crypto_pkt){
		.len = QUIC_TEST_SHORT_PN_OFF + QUIC_TEST_PN_LEN + 32 + QUIC_TAG_LEN,
		.pn_offset = QUIC_TEST_SHORT_PN_OFF, .number = 3,
	};
	KUNIT_EXPECT_EQ(test, quic_crypto_encrypt_buf(p.client, buf, &pkt), -EKEYEXPIRED);
	/* ...until a key update brings fresh ones. */
	KUNIT_ASSERT_EQ(test, quic_crypto_key_update(p.client), 0);
	KUNIT_EXPECT_EQ(test, p.client->tx_count, 0);
	buf = quic_test_seal(test, &p, p.client, 3);
	KUNIT_EXPECT_EQ(test, p.client->tx_count, 1);

	/* Past the integrity limit no packet is processed. */
	buf[20] ^= 1;
	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, buf, 2, &pkt), -EBADMSG);
	KUNIT_EXPECT_EQ(test, p.server->rx_failures, 1);
	p.server->rx_failures = quic_crypto_integrity_limit(p.server);
	buf = quic_test_seal(test, &p, p.client, 4);
	KUNIT_EXPECT_EQ(test, quic_test_open(&p, p.server, buf, 2, &pkt), -EKEYEXPIRED);
}

/* disable_1rtt_encryption: no AEAD, no header protection, no tag. */
static void crypto_plain_1rtt_skips_protection(struct kunit *test)
{
	struct quic_crypto_pkt pkt = { .number = 0x1234 };
	struct quic_test_pair p;
	u8 *plain, *buf;

	quic_test_pair_init(test, &p, TLS_CIPHER_AES_GCM_128, QUIC_CRYPTO_APP);
	quic_crypto_set_plain_1rtt(p.client, true);
	quic_crypto_set_plain_1rtt(p.server, true);
	KUNIT_EXPECT_EQ(test, quic_crypto_tag_len(p.client, false), 0);
	KUNIT_EXPECT_EQ(test, quic_crypto_tag_len(p.client, true), QUIC_TAG_LEN);

	plain = quic_test_packet(test, false, 2, 0, &pkt.len, &pkt.pn_offset);
	pkt.len -= QUIC_TAG_LEN;	/* no tag, and shorter than a sample */
	buf = quic_test_dup(test, plain, pkt.len);
	KUNIT_ASSERT_EQ(test, quic_crypto_encrypt_buf(p.client, buf, &pkt), 0);
	KUNIT_EXPECT_EQ(test, buf[QUIC_TEST_SHORT_PN_OFF], 0x12);
	KUNIT_EXPECT_EQ(test, buf[QUIC_TEST_SHORT_PN_OFF + 1], 0x34);
	KUNIT_EXPECT_MEMEQ(test, buf, plain, QUIC_TEST_SHORT_PN_OFF);
	KUNIT_EXPECT_MEMEQ(test, buf + QUIC_TEST_SHORT_PN_OFF + 2,
			   plain + QUIC_TEST_SHORT_PN_OFF + 2, 2);

	pkt.number = 0;
	pkt.largest = 0x1233;
	KUNIT_ASSERT_EQ(test, quic_crypto_decrypt_buf(p.server, buf, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.number, 0x1234);
	KUNIT_EXPECT_EQ(test, pkt.number_len, 2);
}

static struct kunit_case quic_crypto_cases[] = {
	KUNIT_CASE_PARAM(crypto_initial_secrets_match_rfc, quic_test_keys_gen_params),
	KUNIT_CASE_PARAM(crypto_initial_keys_match_rfc, quic_test_keys_gen_params),
	KUNIT_CASE(crypto_initial_secret_rejects_unknown_version),
	KUNIT_CASE_PARAM(crypto_initial_packet_matches_rfc, quic_test_initial_gen_params),
	KUNIT_CASE_PARAM(crypto_initial_packet_opens_rfc, quic_test_initial_gen_params),
	KUNIT_CASE_PARAM(crypto_initial_packet_nonlinear_skb, quic_test_initial_gen_params),
	KUNIT_CASE_PARAM(crypto_retry_tag_matches_rfc, quic_test_retry_gen_params),
	KUNIT_CASE_PARAM(crypto_retry_tag_detects_tampering, quic_test_retry_gen_params),
	KUNIT_CASE_PARAM(crypto_short_packet_matches_rfc, quic_test_short_gen_params),
	KUNIT_CASE_PARAM(crypto_short_packet_opens_rfc, quic_test_short_gen_params),
	KUNIT_CASE_PARAM(crypto_next_secret_matches_rfc, quic_test_short_gen_params),
	KUNIT_CASE(crypto_next_secret_sha384),
	KUNIT_CASE(crypto_key_update_round_trip),
	KUNIT_CASE(crypto_key_update_refused_until_acked),
	KUNIT_CASE(crypto_key_update_keeps_old_keys_for_reordering),
	KUNIT_CASE(crypto_key_update_rejects_old_keys_for_newer_packets),
	KUNIT_CASE(crypto_key_phase_spoof_derives_nothing),
	KUNIT_CASE(crypto_key_update_second_peer_update_fails),
	KUNIT_CASE(crypto_key_update_needs_1rtt_keys),
	KUNIT_CASE_PARAM(crypto_tampered_packet_rejected, quic_test_tamper_gen_params),
	KUNIT_CASE(crypto_truncated_packets_rejected),
	KUNIT_CASE(crypto_no_keys_refused),
	KUNIT_CASE_PARAM(crypto_cipher_round_trip_buffer, quic_test_cipher_gen_params),
	KUNIT_CASE_PARAM(crypto_cipher_round_trip_linear_skb, quic_test_cipher_gen_params),
	KUNIT_CASE_PARAM(crypto_cipher_round_trip_nonlinear_skb, quic_test_cipher_gen_params),
	KUNIT_CASE_PARAM(crypto_cipher_cloned_skb_untouched, quic_test_cipher_gen_params),
	KUNIT_CASE_PARAM(crypto_cipher_limits_match_rfc, quic_test_cipher_gen_params),
	KUNIT_CASE(crypto_unknown_cipher_refused),
	KUNIT_CASE(crypto_bad_secret_refused),
	KUNIT_CASE(crypto_aead_limits_enforced),
	KUNIT_CASE(crypto_plain_1rtt_skips_protection),
	{}
};

static struct kunit_suite quic_crypto_suite = {
	.name = "quic_crypto",
	.test_cases = quic_crypto_cases,
};

kunit_test_suite(quic_crypto_suite);
