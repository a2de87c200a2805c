// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_alpn: ALPN routing (net/quic/alpn.c).
 *
 * The receive path opens a client's first Initial with keys derived from
 * its Destination Connection ID (RFC 9001 Section 5.2) and reads the ALPN
 * extension (RFC 7301 Section 3.1) of the ClientHello (RFC 8446 Section
 * 4.1.2) in its CRYPTO frames, to choose among listeners sharing a port.
 * The cases check the key derivation and the opening against RFC 9001 A.1
 * and A.2 (RFC 9369 A.1 and A.2 for v2), whose ClientHello offers "alpn";
 * the CRYPTO frame gathering and the ClientHello walk against reordered,
 * truncated and hostile input; then the rules for sharing a port and the
 * routing of datagrams among real listeners on loopback.
 */

#include <crypto/aes.h>
#include <crypto/gcm.h>
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/quic.h>
#include <linux/skbuff.h>
#include <linux/unaligned.h>
#include <net/route.h>
#include <net/sock.h>

#include "../alpn.h"
#include "../connection.h"
#include "../crypto.h"
#include "../endpoint.h"
#include "../lookup.h"
#include "../receive.h"
#include "../request.h"
#include "../socket.h"
#include "initial_vectors.h"
#include "util.h"

#define ALPN_DGRAM	1200	/* a client's first datagram (RFC 9000 Section 14.1) */
#define ALPN_PORT	62100

/* Each case listens on a port of its own: ALPN_PORT + its number. */
static u16 alpn_port;

/* ------------------------------------------------------------ builders */

/* A ClientHello offering the wire-form list @alpn (no ALPN extension when
 * @alpn is NULL) at @p, after a filler extension of @pad bytes (as large
 * key shares would be); returns its length.
 */
static u32 alpn_hello_pad(u8 *p, const char *alpn, u32 alpn_len, u32 pad)
{
	u8 *start = p;

	*p++ = 1;			/* client_hello */
	p += 3;				/* length, below */
	*p++ = 3;
	*p++ = 3;			/* legacy_version */
	memset(p, 0x5a, 32);		/* random */
	p += 32;
	*p++ = 0;			/* legacy_session_id */
	put_unaligned_be16(2, p);
	p += 2;
	*p++ = 0x13;
	*p++ = 0x01;			/* TLS_AES_128_GCM_SHA256 */
	*p++ = 1;
	*p++ = 0;			/* compression: null */
	/* Extensions: a server_name-like filler, then ALPN. */
	put_unaligned_be16(4 + pad + (alpn ? 6 + alpn_len : 0), p);
	p += 2;
	put_unaligned_be16(0xfa, p);	/* a type nobody reads */
	put_unaligned_be16(pad, p + 2);
	memset(p + 4, 0, pad);
	p += 4 + pad;
	if (alpn) {
		put_unaligned_be16(16, p);
		put_unaligned_be16(2 + alpn_len, p + 2);
		put_unaligned_be16(alpn_len, p + 4);
		memcpy(p + 6, alpn, alpn_len);
		p += 6 + alpn_len;
	}
	start[1] = 0;
	put_unaligned_be16(p - start - 4, start + 2);
	return p - start;
}

static u32 alpn_hello(u8 *p, const char *alpn, u32 alpn_len)
{
	return alpn_hello_pad(p, alpn, alpn_len, 3);
}

/* A CRYPTO frame of @len bytes at stream offset @off. */
static u32 alpn_crypto_frame(u8 *p, u64 off, const u8 *data, u32 len)
{
	u8 *start = p;
	u32 room = 3 * 8;

	*p++ = 0x06;
	quic_put_var(&p, &room, off);
	quic_put_var(&p, &room, len);
	memcpy(p, data, len);
	return p + len - start;
}

/* A client's first datagram: one Initial of @version to @dcid carrying
 * @frames then PADDING, protected with the client's Initial keys, 1200
 * bytes, in an skb as the receive path hands it (data at the packet).
 */
static struct sk_buff *alpn_initial(struct kunit *test, u32 version,
				    const struct quic_conn_id *dcid, const u8 *frames,
				    u32 flen)
{
	struct quic_crypto *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, ALPN_DGRAM, GFP_KERNEL);
	struct quic_crypto_pkt pkt = { .len = ALPN_DGRAM, .largest = -1 };
	struct sk_buff *skb;
	u8 *p = buf;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* Long header, fixed bit, Initial (v1 type 0, v2 type 1), 4-byte PN. */
	*p++ = version == QUIC_VERSION_V2 ? 0xd3 : 0xc3;
	put_unaligned_be32(version, p);
	p += 4;
	*p++ = dcid->len;
	memcpy(p, dcid->data, dcid->len);
	p += dcid->len;
	*p++ = 8;
	memset(p, 0xcc, 8);		/* Source Connection ID */
	p += 8;
	*p++ = 0;			/* no token */
	pkt.pn_offset = p - buf + 2;
	put_unaligned_be16(0x4000 | (ALPN_DGRAM - pkt.pn_offset), p);
	p += 2 + 4;
	KUNIT_ASSERT_LE(test, (u32)(p - buf) + flen + QUIC_TAG_LEN, (u32)ALPN_DGRAM);
	memcpy(p, frames, flen);

	KUNIT_ASSERT_EQ(test, quic_crypto_initial_keys_install(c, dcid, version, false), 0);
	KUNIT_ASSERT_EQ(test, quic_crypto_encrypt_buf(c, buf, &pkt), 0);
	quic_crypto_destroy(c);

	skb = alloc_skb(ALPN_DGRAM, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_data(skb, buf, ALPN_DGRAM);
	quic_kunit_addr4(&QUIC_SKB_CB(skb)->peer, "127.0.0.1", 40000);
	/* What quic_rcv() does first. */
	quic_rcv_parse(skb);
	return skb;
}

/* A first datagram whose ClientHello offers @alpn ("\x02h3\x03smb"). */
static struct sk_buff *alpn_first(struct kunit *test, const struct quic_conn_id *dcid,
				  const char *alpn)
{
	u8 hello[128], frames[160];
	u32 hlen = alpn_hello(hello, alpn, strlen(alpn));

	return alpn_initial(test, QUIC_VERSION_V1, dcid, frames,
			    alpn_crypto_frame(frames, 0, hello, hlen));
}

/* A listener on @ip and the case's port serving @alpn; the
 * result of listen() in @err. The socket is released with the test.
 */
static struct socket *alpn_listener(struct kunit *test, const char *ip, const char *alpn,
				    int *err)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	union quic_addr a;

	quic_kunit_addr4(&a, ip, alpn_port);
	KUNIT_ASSERT_EQ(test, kernel_bind(sock, &a.sa, sizeof(a.v4)), 0);
	if (alpn)
		KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_ALPN,
							     (void *)alpn, strlen(alpn)), 0);
	*err = kernel_listen(sock, 8);
	return sock;
}

/* The listener the receive path picks for @skb sent to 127.0.0.1, when
 * @held is given as the receive path gives it: a datagram held back
 * before comes back there, and ERR_PTR(-EINPROGRESS) says @skb was held.
 */
static struct sock *alpn_lookup_held(struct sk_buff *skb, struct sk_buff **held)
{
	union quic_addr local;
	struct sock *sk;

	quic_kunit_addr4(&local, "127.0.0.1", alpn_port);
	rcu_read_lock();
	sk = quic_conn_listen_lookup(&init_net, &local, skb, held);
	rcu_read_unlock();
	if (!IS_ERR_OR_NULL(sk))
		sock_put(sk);	/* the test's sockets hold their own */
	return sk;
}

static struct sock *alpn_lookup(struct sk_buff *skb)
{
	return alpn_lookup_held(skb, NULL);
}

/* Listeners "one" and "two" on 127.0.0.1, port ALPN_PORT + @n (the
 * case's); returns the one that takes what nothing routes.
 */
static struct sock *alpn_one_two(struct kunit *test, u16 n, struct socket **one,
				 struct socket **two)
{
	struct sock *first;
	int err;

	alpn_port = ALPN_PORT + n;
	*one = alpn_listener(test, "127.0.0.1", "one", &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	*two = alpn_listener(test, "127.0.0.1", "two", &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	first = alpn_lookup(NULL);
	KUNIT_ASSERT_NOT_NULL(test, first);
	return first;
}

static const struct quic_conn_id alpn_dcid_a = {
	.len = 8, .data = { 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8 },
};

static const struct quic_conn_id alpn_dcid_b = {
	.len = 12,
	.data = { 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbc },
};

/* ------------------------------------------------------ opening Initials */

KUNIT_ARRAY_PARAM_DESC(alpn_keys, quic_test_keys_vecs, desc);

static void alpn_initial_keys_match_appendix_a1(struct kunit *test)
{
	const struct quic_test_keys_vec *v = test->param_value;
	struct quic_crypto_keys keys;

	KUNIT_ASSERT_EQ(test, quic_alpn_initial_keys(v->version, quic_test_dcid.data,
						     quic_test_dcid.len, &keys), 0);
	KUNIT_EXPECT_EQ(test, keys.keylen, 16U);
	KUNIT_EXPECT_MEMEQ(test, keys.key, v->key[0], 16);
	KUNIT_EXPECT_MEMEQ(test, keys.iv, v->iv[0], 12);
	KUNIT_EXPECT_MEMEQ(test, keys.hp, v->hp[0], 16);
	KUNIT_EXPECT_EQ(test, quic_alpn_initial_keys(0xff00001d, quic_test_dcid.data,
						     quic_test_dcid.len, &keys), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn_initial_keys(v->version, quic_test_dcid.data, 21, &keys),
			-EINVAL);
}

/* The ALPN list of the Appendix A.2 ClientHello: "alpn". */
static const u8 alpn_rfc_list[] = { 4, 'a', 'l', 'p', 'n' };

struct alpn_rfc_packet {
	const char *desc;
	const u8 *packet;
};

static const struct alpn_rfc_packet alpn_rfc_packets[] = {
	{ "RFC 9001 A.2 client Initial", quic_test_v1_client_packet },
	{ "RFC 9369 A.2 client Initial (QUIC v2)", quic_test_v2_client_packet },
};

KUNIT_ARRAY_PARAM_DESC(alpn_rfc, alpn_rfc_packets, desc);

static void alpn_peek_reads_the_protocols_of_the_appendix_a2_client(struct kunit *test)
{
	const struct alpn_rfc_packet *v = test->param_value;
	struct quic_alpn_peek peek;

	KUNIT_ASSERT_EQ(test, quic_alpn_peek(v->packet, ALPN_DGRAM, &peek), 0);
	KUNIT_EXPECT_EQ(test, peek.len, 5U);
	KUNIT_EXPECT_MEMEQ(test, peek.list, alpn_rfc_list, 5);
	quic_alpn_peek_free(&peek);
	KUNIT_EXPECT_NULL(test, peek.buf);
}

static void alpn_peek_refuses_a_tampered_initial(struct kunit *test)
{
	const struct alpn_rfc_packet *v = test->param_value;
	u8 *buf = kunit_kmalloc(test, ALPN_DGRAM, GFP_KERNEL);
	struct quic_alpn_peek peek;
	static const u32 at[] = { 6, 30, 600, ALPN_DGRAM - 1 };	/* DCID, payload, tag */
	int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ARRAY_SIZE(at); i++) {
		memcpy(buf, v->packet, ALPN_DGRAM);
		buf[at[i]] ^= 0x01;
		KUNIT_EXPECT_EQ_MSG(test, quic_alpn_peek(buf, ALPN_DGRAM, &peek), -EBADMSG,
				    "byte %u flipped", at[i]);
		quic_alpn_peek_free(&peek);
	}
	/* The packet itself is never written. */
	KUNIT_ASSERT_EQ(test, quic_alpn_peek(v->packet, ALPN_DGRAM, &peek), 0);
	quic_alpn_peek_free(&peek);
}

/* RFC 9001 A.2 and RFC 9369 A.2: the client's Initial has an empty token,
 * a 2-byte Length and a 4-byte packet number 2, so its header (the
 * associated data) is 22 bytes and the Packet Number starts at byte 18.
 */
#define ALPN_RFC_PN_OFFSET	18
#define ALPN_RFC_HDR_LEN	22

static void alpn_gcm_fallback_opens_the_appendix_a2_client(struct kunit *test)
{
	const struct alpn_rfc_packet *v = test->param_value;
	u32 ct_len = ALPN_DGRAM - ALPN_RFC_HDR_LEN - QUIC_TAG_LEN;
	u8 *pkt = kunit_kmalloc(test, ALPN_DGRAM, GFP_KERNEL);
	struct crypto_aes_ctx *aes = kunit_kzalloc(test, sizeof(*aes), GFP_KERNEL);
	u8 mask[AES_BLOCK_SIZE], nonce[QUIC_IV_LEN], *tag;
	struct quic_crypto_keys keys;
	u32 version, i;

	KUNIT_ASSERT_NOT_NULL(test, pkt);
	KUNIT_ASSERT_NOT_NULL(test, aes);
	memcpy(pkt, v->packet, ALPN_DGRAM);
	version = get_unaligned_be32(pkt + 1);
	KUNIT_ASSERT_EQ(test, quic_alpn_initial_keys(version, quic_test_dcid.data,
						     quic_test_dcid.len, &keys), 0);
	/* Header protection off (RFC 9001 Section 5.4.1), by hand. */
	KUNIT_ASSERT_EQ(test, aes_expandkey(aes, keys.hp, AES_KEYSIZE_128), 0);
	aes_encrypt(aes, mask, pkt + ALPN_RFC_PN_OFFSET + 4);
	pkt[0] ^= mask[0] & 0x0f;
	for (i = 0; i < 4; i++)
		pkt[ALPN_RFC_PN_OFFSET + i] ^= mask[1 + i];
	KUNIT_ASSERT_EQ(test, get_unaligned_be32(pkt + ALPN_RFC_PN_OFFSET), 2U);
	memcpy(nonce, keys.iv, QUIC_IV_LEN);
	nonce[QUIC_IV_LEN - 1] ^= 2;
	tag = pkt + ALPN_RFC_HDR_LEN + ct_len;

	/* A wrong tag: refused, nothing decrypted. */
	tag[5] ^= 0x80;
	KUNIT_EXPECT_EQ(test, quic_alpn_gcm_open_ghash(aes, keys.key, nonce, pkt + ALPN_RFC_HDR_LEN,
						       ct_len, pkt, ALPN_RFC_HDR_LEN, tag),
			-EBADMSG);
	KUNIT_EXPECT_MEMEQ(test, pkt + ALPN_RFC_HDR_LEN, v->packet + ALPN_RFC_HDR_LEN, ct_len);
	tag[5] ^= 0x80;
	/* Associated data changed: refused too. */
	pkt[ALPN_RFC_HDR_LEN - 1] ^= 1;
	KUNIT_EXPECT_EQ(test, quic_alpn_gcm_open_ghash(aes, keys.key, nonce, pkt + ALPN_RFC_HDR_LEN,
						       ct_len, pkt, ALPN_RFC_HDR_LEN, tag),
			-EBADMSG);
	pkt[ALPN_RFC_HDR_LEN - 1] ^= 1;

	KUNIT_ASSERT_EQ(test, quic_alpn_gcm_open_ghash(aes, keys.key, nonce, pkt + ALPN_RFC_HDR_LEN,
						       ct_len, pkt, ALPN_RFC_HDR_LEN, tag), 0);
	/* The appendix's plaintext: the CRYPTO frame, then PADDING. */
	KUNIT_EXPECT_MEMEQ(test, pkt + ALPN_RFC_HDR_LEN, quic_test_client_frames,
			   sizeof(quic_test_client_frames));
	KUNIT_EXPECT_NULL(test, memchr_inv(pkt + ALPN_RFC_HDR_LEN + sizeof(quic_test_client_frames),
					   0, ct_len - sizeof(quic_test_client_frames)));
	/* The expanded key is wiped. */
	KUNIT_EXPECT_NULL(test, memchr_inv(aes, 0, sizeof(*aes)));
}

/* Every split of the last block and of the associated data, against the
 * AES-GCM library of the same kernel.
 */
static void alpn_gcm_fallback_agrees_with_the_library(struct kunit *test)
{
	static const u32 lens[] = { 0, 1, 15, 16, 17, 31, 32, 33, 100, 1162 };
	static const u32 ad_lens[] = { 0, 1, 16, 22, 47 };
	u8 *pt = kunit_kmalloc(test, 1200, GFP_KERNEL);
	u8 *text = kunit_kmalloc(test, 1200, GFP_KERNEL);
	u8 ad[48], key[16], iv[GCM_AES_IV_SIZE], tag[QUIC_TAG_LEN];
	struct crypto_aes_ctx *aes = kunit_kzalloc(test, sizeof(*aes), GFP_KERNEL);
	struct aesgcm_ctx *gcm = kunit_kzalloc(test, sizeof(*gcm), GFP_KERNEL);
	struct rnd_state rnd;
	u32 i, j;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_ASSERT_NOT_NULL(test, aes);
	KUNIT_ASSERT_NOT_NULL(test, gcm);
	prandom_seed_state(&rnd, 0x9001);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		for (j = 0; j < ARRAY_SIZE(ad_lens); j++) {
			prandom_bytes_state(&rnd, pt, lens[i]);
			prandom_bytes_state(&rnd, ad, sizeof(ad));
			prandom_bytes_state(&rnd, key, sizeof(key));
			prandom_bytes_state(&rnd, iv, sizeof(iv));
			KUNIT_ASSERT_EQ(test, aesgcm_expandkey(gcm, key, sizeof(key),
							       sizeof(tag)), 0);
			aesgcm_encrypt(gcm, text, pt, lens[i], ad, ad_lens[j], iv, tag);
			KUNIT_EXPECT_EQ_MSG(test, quic_alpn_gcm_open_ghash(aes, key, iv, text,
									   lens[i], ad, ad_lens[j],
									   tag), 0,
					    "%u bytes, %u of associated data", lens[i],
					    ad_lens[j]);
			KUNIT_EXPECT_MEMEQ(test, text, pt, lens[i]);
		}
	}
}

static void alpn_peek_refuses_what_is_not_a_whole_initial(struct kunit *test)
{
	u8 *buf = kunit_kmalloc(test, ALPN_DGRAM, GFP_KERNEL);
	struct quic_alpn_peek peek;
	u32 len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, quic_test_v1_client_packet, ALPN_DGRAM);
	/* Cut short: the Length field runs past the datagram. */
	for (len = 0; len < ALPN_DGRAM; len += 97) {
		KUNIT_EXPECT_EQ_MSG(test, quic_alpn_peek(buf, len, &peek), -EINVAL,
				    "%u bytes", len);
		quic_alpn_peek_free(&peek);
	}
	/* A Handshake packet (type 2 in v1). */
	buf[0] = (buf[0] & ~0x30) | 0x20;
	KUNIT_EXPECT_EQ(test, quic_alpn_peek(buf, ALPN_DGRAM, &peek), -EINVAL);
	quic_alpn_peek_free(&peek);
	/* A short header packet. */
	buf[0] = 0x43;
	KUNIT_EXPECT_EQ(test, quic_alpn_peek(buf, ALPN_DGRAM, &peek), -EINVAL);
	quic_alpn_peek_free(&peek);
	/* A version we do not speak. */
	memcpy(buf, quic_test_v1_client_packet, ALPN_DGRAM);
	put_unaligned_be32(0x1a2a3a4a, buf + 1);
	KUNIT_EXPECT_EQ(test, quic_alpn_peek(buf, ALPN_DGRAM, &peek), -EINVAL);
	quic_alpn_peek_free(&peek);
}

static void alpn_peek_gathers_a_hello_split_over_reordered_frames(struct kunit *test)
{
	u8 hello[128], frames[256], *p = frames;
	static const char alpn[] = "\x02h3\x0ahq-interop";
	struct quic_alpn_peek peek;
	struct sk_buff *skb;
	u32 hlen;

	hlen = alpn_hello(hello, alpn, sizeof(alpn) - 1);
	/* Bytes 40.., then 0..19, a PING, then 20..39 and a duplicate of 0..9. */
	p += alpn_crypto_frame(p, 40, hello + 40, hlen - 40);
	p += alpn_crypto_frame(p, 0, hello, 20);
	*p++ = 0x01;
	p += alpn_crypto_frame(p, 20, hello + 20, 20);
	p += alpn_crypto_frame(p, 0, hello, 10);
	skb = alpn_initial(test, QUIC_VERSION_V2, &alpn_dcid_b, frames, p - frames);

	KUNIT_EXPECT_EQ(test, quic_alpn_peek(skb->data, skb->len, &peek), 0);
	KUNIT_EXPECT_EQ(test, peek.len, (u32)sizeof(alpn) - 1);
	if (peek.list)
		KUNIT_EXPECT_MEMEQ(test, peek.list, alpn, sizeof(alpn) - 1);
	quic_alpn_peek_free(&peek);
	kfree_skb(skb);
}

static void alpn_peek_without_the_hello_start_or_alpn_says_so(struct kunit *test)
{
	u8 hello[128], frames[256];
	struct quic_alpn_peek peek;
	struct sk_buff *skb;
	u32 hlen;

	/* The rest of a ClientHello: CRYPTO data from offset 1000 only. */
	hlen = alpn_hello(hello, "\x02h3", 3);
	skb = alpn_initial(test, QUIC_VERSION_V1, &alpn_dcid_a, frames,
			   alpn_crypto_frame(frames, 1000, hello, hlen));
	KUNIT_EXPECT_EQ(test, quic_alpn_peek(skb->data, skb->len, &peek), -ENODATA);
	quic_alpn_peek_free(&peek);
	kfree_skb(skb);

	/* A ClientHello cut before its ALPN extension. */
	skb = alpn_initial(test, QUIC_VERSION_V1, &alpn_dcid_a, frames,
			   alpn_crypto_frame(frames, 0, hello, hlen - 4));
	KUNIT_EXPECT_EQ(test, quic_alpn_peek(skb->data, skb->len, &peek), -EAGAIN);
	quic_alpn_peek_free(&peek);
	kfree_skb(skb);

	/* A whole ClientHello without ALPN. */
	hlen = alpn_hello(hello, NULL, 0);
	skb = alpn_initial(test, QUIC_VERSION_V1, &alpn_dcid_a, frames,
			   alpn_crypto_frame(frames, 0, hello, hlen));
	KUNIT_EXPECT_EQ(test, quic_alpn_peek(skb->data, skb->len, &peek), -ENOENT);
	quic_alpn_peek_free(&peek);
	kfree_skb(skb);
}

/* -------------------------------------------------- frames and messages */

static void alpn_crypto_prefix_stops_at_a_gap(struct kunit *test)
{
	u8 frames[64], out[32], *p = frames;
	u32 have;

	p += alpn_crypto_frame(p, 5, "fghij", 5);
	*p++ = 0x00;					/* PADDING */
	p += alpn_crypto_frame(p, 0, "abcde", 5);
	p += alpn_crypto_frame(p, 20, "uvw", 3);	/* after a gap */
	p += alpn_crypto_frame(p, 3, "defghijk", 8);	/* overlaps, extends */
	KUNIT_ASSERT_EQ(test, quic_alpn_crypto_prefix(frames, p - frames, out, sizeof(out),
						      &have), 0);
	KUNIT_EXPECT_EQ(test, have, 11U);
	KUNIT_EXPECT_MEMEQ(test, out, "abcdefghijk", 11);

	/* Never more than the room given. */
	KUNIT_ASSERT_EQ(test, quic_alpn_crypto_prefix(frames, p - frames, out, 7, &have), 0);
	KUNIT_EXPECT_EQ(test, have, 7U);
}

static void alpn_crypto_prefix_takes_only_frames_of_an_initial(struct kunit *test)
{
	/* ACK (largest 5, delay 0, 1 range, first 2, gap 0, length 0), ACK_ECN
	 * (no range, three counts), CONNECTION_CLOSE (reason "x"), PING, then
	 * a CRYPTO frame: all an Initial may carry (RFC 9000 Section 17.2.2).
	 */
	static const u8 ok[] = { 0x02, 5, 0, 1, 2, 0, 0, 0x03, 5, 0, 0, 2, 1, 1, 1,
				 0x1c, 0, 0, 1, 'x', 0x01, 0x06, 0, 2, 'o', 'k' };
	static const u8 stream[] = { 0x08, 0, 'z' };			/* STREAM */
	static const u8 overrun[] = { 0x06, 0, 9, 'a' };		/* 9 bytes, 1 here */
	static const u8 acks[] = { 0x02, 5, 0, 0x3f, 2, 0, 0 };	/* 63 ranges, 1 here */
	static const u8 close[] = { 0x1c, 0, 0, 5, 'x' };		/* reason runs over */
	u8 out[16];
	u32 have;

	KUNIT_ASSERT_EQ(test, quic_alpn_crypto_prefix(ok, sizeof(ok), out, sizeof(out), &have), 0);
	KUNIT_EXPECT_EQ(test, have, 2U);
	KUNIT_EXPECT_MEMEQ(test, out, "ok", 2);
	KUNIT_EXPECT_EQ(test, quic_alpn_crypto_prefix(stream, sizeof(stream), out, sizeof(out),
						      &have), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn_crypto_prefix(overrun, sizeof(overrun), out, sizeof(out),
						      &have), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn_crypto_prefix(acks, sizeof(acks), out, sizeof(out),
						      &have), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn_crypto_prefix(close, sizeof(close), out, sizeof(out),
						      &have), -EINVAL);
}

/* RFC 9001 A.2's CRYPTO frame: type, offset 0, length 0x40f1, the hello. */
#define ALPN_RFC_HELLO		(quic_test_client_frames + 4)
#define ALPN_RFC_HELLO_LEN	(sizeof(quic_test_client_frames) - 4)

static void alpn_client_hello_of_appendix_a2_is_read_at_every_cut(struct kunit *test)
{
	const u8 *list = NULL, *hello = ALPN_RFC_HELLO;
	u32 len, list_len, end;
	int err;

	KUNIT_ASSERT_EQ(test, quic_alpn_client_hello(hello, ALPN_RFC_HELLO_LEN, &list,
						     &list_len), 0);
	KUNIT_ASSERT_EQ(test, list_len, 5U);
	KUNIT_EXPECT_MEMEQ(test, list, alpn_rfc_list, 5);
	end = list - hello + list_len;
	/* Any shorter prefix lacks part of the extension, any longer one has it. */
	for (len = 0; len <= ALPN_RFC_HELLO_LEN; len++) {
		err = quic_alpn_client_hello(hello, len, &list, &list_len);
		if (err != (len < end ? -EAGAIN : 0)) {
			KUNIT_FAIL(test, "%u of %zu bytes: %d", len, ALPN_RFC_HELLO_LEN, err);
			break;
		}
	}
}

static void alpn_client_hello_with_hostile_lengths_is_refused(struct kunit *test)
{
	u8 *h = kunit_kmalloc(test, ALPN_RFC_HELLO_LEN, GFP_KERNEL);
	u32 len = ALPN_RFC_HELLO_LEN, list_len, alpn_at;
	const u8 *list;

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_EQ(test, quic_alpn_client_hello(ALPN_RFC_HELLO, len, &list, &list_len), 0);
	alpn_at = list - ALPN_RFC_HELLO - 6;	/* the extension's type */

#define ALPN_HOSTILE(what, off, val, want) do {					\
	memcpy(h, ALPN_RFC_HELLO, len);						\
	h[off] = (val);								\
	KUNIT_EXPECT_EQ_MSG(test, quic_alpn_client_hello(h, len, &list, &list_len), \
			    want, what);					\
} while (0)

	ALPN_HOSTILE("a ServerHello", 0, 2, -EINVAL);
	ALPN_HOSTILE("message length shorter than its content", 3, 0x10, -EINVAL);
	ALPN_HOSTILE("session ID longer than the message", 38, 0xff, -EINVAL);
	ALPN_HOSTILE("cipher suites longer than the message", 39, 0xff, -EINVAL);
	ALPN_HOSTILE("compression methods longer than the message", 45, 0xff, -EINVAL);
	ALPN_HOSTILE("extensions longer than the message", 47, 0xff, -EINVAL);
	ALPN_HOSTILE("an extension longer than the extensions", alpn_at + 2, 0xff, -EINVAL);
	ALPN_HOSTILE("protocol list longer than the extension", alpn_at + 5, 0x07, -EINVAL);
	ALPN_HOSTILE("protocol list shorter than the extension", alpn_at + 5, 0x03, -EINVAL);
	ALPN_HOSTILE("an empty protocol name", alpn_at + 6, 0x00, -EINVAL);
	ALPN_HOSTILE("a name running past the list", alpn_at + 6, 0x05, -EINVAL);
	ALPN_HOSTILE("no ALPN extension (type 17)", alpn_at + 1, 17, -ENOENT);
#undef ALPN_HOSTILE
}

/* ------------------------------------------------------------ listeners */

/* A listener made without the test's cleanup, to be closed early. */
static struct socket *alpn_own_listener(struct kunit *test, const char *alpn, int *err)
{
	struct socket *sock = NULL;
	union quic_addr a;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_QUIC,
					       &sock), 0);
	quic_kunit_addr4(&a, "127.0.0.1", alpn_port);
	*err = kernel_bind(sock, &a.sa, sizeof(a.v4));
	if (!*err)
		*err = quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_ALPN, (void *)alpn,
					      strlen(alpn));
	if (!*err)
		*err = kernel_listen(sock, 8);
	return sock;
}

static void alpn_listeners_share_a_port_only_with_distinct_protocols(struct kunit *test)
{
	struct socket *one, *again;
	int err;

	alpn_port = ALPN_PORT + 1;
	one = alpn_own_listener(test, "one,two", &err);
	KUNIT_EXPECT_EQ(test, err, 0);
	alpn_listener(test, "127.0.0.1", "three", &err);
	KUNIT_EXPECT_EQ_MSG(test, err, 0, "distinct protocols share");
	alpn_listener(test, "127.0.0.1", "two", &err);
	KUNIT_EXPECT_EQ_MSG(test, err, -EADDRINUSE, "a protocol already served");
	alpn_listener(test, "127.0.0.1", NULL, &err);
	KUNIT_EXPECT_EQ_MSG(test, err, -EADDRINUSE, "a listener without protocols");

	/* Once "one,two" is closed, its protocols are free again. */
	again = alpn_own_listener(test, "two", &err);
	KUNIT_EXPECT_EQ(test, err, -EADDRINUSE);
	sock_release(one);
	KUNIT_EXPECT_EQ(test, kernel_listen(again, 8), 0);
	sock_release(again);
}

static void alpn_route_follows_the_protocol_the_client_prefers(struct kunit *test)
{
	struct socket *one, *many;
	struct sk_buff *skb;
	struct sock *first;
	int err;

	alpn_port = ALPN_PORT + 2;
	one = alpn_listener(test, "127.0.0.1", "one", &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	many = alpn_listener(test, "127.0.0.1", "two,three", &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	first = alpn_lookup(NULL);
	KUNIT_ASSERT_NOT_NULL(test, first);

	skb = alpn_first(test, &alpn_dcid_a, "\x05three\x03one");
	KUNIT_EXPECT_PTR_EQ_MSG(test, alpn_lookup(skb), many->sk, "its first choice wins");
	kfree_skb(skb);
	skb = alpn_first(test, &alpn_dcid_a, "\x04zero\x03one");
	KUNIT_EXPECT_PTR_EQ_MSG(test, alpn_lookup(skb), one->sk,
				"a choice nobody serves is skipped");
	kfree_skb(skb);
	skb = alpn_first(test, &alpn_dcid_a, "\x03one\x05three");
	KUNIT_EXPECT_PTR_EQ_MSG(test, alpn_lookup(skb), one->sk, "the client's order counts");
	kfree_skb(skb);
	skb = alpn_first(test, &alpn_dcid_a, "\x03two");
	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup(skb), many->sk);
	kfree_skb(skb);
	skb = alpn_first(test, &alpn_dcid_a, "\x04zero");
	KUNIT_EXPECT_PTR_EQ_MSG(test, alpn_lookup(skb), first,
				"nothing served: the first listener answers");
	kfree_skb(skb);
}

static void alpn_route_sends_later_datagrams_where_the_client_waits(struct kunit *test)
{
	struct socket *one, *two, *waiting;
	struct quic_request req = {};
	u8 hello[96], frames[128];
	struct sk_buff *skb;
	struct sock *first;
	u32 hlen;
	int err;

	first = alpn_one_two(test, 3, &one, &two);
	waiting = first == one->sk ? two : one;

	/* Not the first listener: it queued the client of alpn_dcid_b from
	 * 127.0.0.1:40000.
	 */
	quic_kunit_addr4(&req.saddr, "127.0.0.1", alpn_port);
	quic_kunit_addr4(&req.daddr, "127.0.0.1", 40000);
	quic_conn_id_set(&req.dcid, alpn_dcid_b.data, alpn_dcid_b.len);
	req.version = QUIC_VERSION_V1;
	lock_sock(waiting->sk);
	err = quic_conn_request_add(waiting->sk, &req, NULL);
	release_sock(waiting->sk);
	KUNIT_ASSERT_EQ(test, err, 0);

	/* The second half of its ClientHello: no ALPN to read. */
	hlen = alpn_hello(hello, "\x03one", 4);
	skb = alpn_initial(test, QUIC_VERSION_V1, &alpn_dcid_b, frames,
			   alpn_crypto_frame(frames, 1100, hello, hlen));
	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup(skb), waiting->sk);
	/* The same from another address is another client. */
	quic_kunit_addr4(&QUIC_SKB_CB(skb)->peer, "127.0.0.1", 40001);
	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup(skb), first);
	kfree_skb(skb);

	/* A client nobody queued goes to the first listener. */
	skb = alpn_initial(test, QUIC_VERSION_V1, &alpn_dcid_a, frames,
			   alpn_crypto_frame(frames, 1100, hello, hlen));
	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup(skb), first);
	kfree_skb(skb);
}

/* A ClientHello of @pad filler bytes then ALPN @alpn, split at @cut over
 * two datagrams of the client @dcid; the second one's frame comes first
 * in @frames of the test.
 */
static void alpn_split(struct kunit *test, const struct quic_conn_id *dcid, const char *alpn,
		       u32 pad, u32 cut, struct sk_buff **one, struct sk_buff **two)
{
	u8 *hello = kunit_kzalloc(test, 1200, GFP_KERNEL);
	u8 *frames = kunit_kzalloc(test, 1200, GFP_KERNEL);
	u32 hlen;

	KUNIT_ASSERT_NOT_NULL(test, hello);
	KUNIT_ASSERT_NOT_NULL(test, frames);
	hlen = alpn_hello_pad(hello, alpn, strlen(alpn), pad);
	KUNIT_ASSERT_LT(test, cut, hlen);
	*one = alpn_initial(test, QUIC_VERSION_V1, dcid, frames,
			    alpn_crypto_frame(frames, 0, hello, cut));
	*two = alpn_initial(test, QUIC_VERSION_V1, dcid, frames,
			    alpn_crypto_frame(frames, cut, hello + cut, hlen - cut));
}

/*
 * A ClientHello over two datagrams, its ALPN extension in the second (a
 * post-quantum key share makes one so large): the first is held back
 * until the second comes, and both go to the listener the two read
 * together name, the held one first.
 */
static void alpn_route_holds_a_hello_start_until_its_rest(struct kunit *test)
{
	struct sk_buff *one, *two, *again, *held = NULL;
	struct socket *a, *b, *wanted;
	struct quic_data d[2];
	struct quic_alpn_peek peek;
	struct sock *first;
	int i;

	first = alpn_one_two(test, 4, &a, &b);
	/* The client wants the listener that is not the fallback. */
	wanted = first == a->sk ? b : a;

	alpn_split(test, &alpn_dcid_a, wanted == a ? "\x03one" : "\x03two", 1000, 700, &one,
		   &two);
	KUNIT_EXPECT_EQ_MSG(test, quic_alpn_peek(one->data, one->len, &peek), -EAGAIN,
			    "the first datagram has a ClientHello cut before ALPN");
	quic_alpn_peek_free(&peek);
	d[0] = (struct quic_data){ one->data, one->len };
	d[1] = (struct quic_data){ two->data, two->len };
	KUNIT_EXPECT_EQ_MSG(test, quic_alpn_peek_many(d, 2, &peek), 0, "the two read together");
	KUNIT_EXPECT_EQ(test, peek.len, 4);
	quic_alpn_peek_free(&peek);

	/* Without a way to hand back a held datagram, nothing is held. */
	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup(one), first);
	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup(two), first);

	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup_held(one, &held), ERR_PTR(-EINPROGRESS));
	KUNIT_EXPECT_NULL(test, held);
	/* A retransmission of the start replaces the one held (and frees it). */
	again = skb_copy(one, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, again);
	QUIC_SKB_CB(again)->peer = QUIC_SKB_CB(one)->peer;
	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup_held(again, &held), ERR_PTR(-EINPROGRESS));
	/* The rest from another address is another client's. */
	quic_kunit_addr4(&QUIC_SKB_CB(two)->peer, "127.0.0.1", 40001);
	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup_held(two, &held), first);
	KUNIT_EXPECT_NULL(test, held);
	quic_kunit_addr4(&QUIC_SKB_CB(two)->peer, "127.0.0.1", 40000);
	KUNIT_EXPECT_PTR_EQ_MSG(test, alpn_lookup_held(two, &held), wanted->sk,
				"the rest brings the choice");
	KUNIT_EXPECT_PTR_EQ_MSG(test, held, again, "and hands back the start, to go first");
	kfree_skb(held);
	held = NULL;
	KUNIT_EXPECT_PTR_EQ_MSG(test, alpn_lookup_held(two, &held), first,
				"nothing is held any more");
	KUNIT_EXPECT_NULL(test, held);
	kfree_skb(two);

	/* A full table drops its oldest entry: the first of 33 clients. */
	for (i = 0; i < 33; i++) {
		struct quic_conn_id dcid = alpn_dcid_b;

		dcid.data[0] = i;
		alpn_split(test, &dcid, "\x03one", 1000, 700, &one, &two);
		KUNIT_EXPECT_PTR_EQ(test, alpn_lookup_held(one, &held), ERR_PTR(-EINPROGRESS));
		if (i)
			kfree_skb(two);
		else
			again = two;
	}
	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup_held(again, &held), first);
	KUNIT_EXPECT_NULL_MSG(test, held, "the oldest held datagram was dropped");
	kfree_skb(again);
	quic_alpn_held_purge(&init_net);
}

/*
 * The UDP receive path hands datagrams over with a route it does not hold
 * a reference on (a noref dst, valid only inside that RCU section). A
 * ClientHello start held for up to a second must not keep it.
 */
static void alpn_held_hello_start_keeps_no_route(struct kunit *test)
{
	struct flowi4 fl4 = { .daddr = htonl(INADDR_LOOPBACK) };
	struct sk_buff *one, *two, *held = NULL;
	struct socket *a, *b, *wanted;
	struct sock *first;
	struct rtable *rt;

	first = alpn_one_two(test, 6, &a, &b);
	wanted = first == a->sk ? b : a;
	alpn_split(test, &alpn_dcid_a, wanted == a ? "\x03one" : "\x03two", 1000, 700, &one,
		   &two);
	rt = ip_route_output_key(&init_net, &fl4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(rt));

	rcu_read_lock();
	skb_dst_set_noref(one, &rt->dst);
	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup_held(one, &held), ERR_PTR(-EINPROGRESS));
	rcu_read_unlock();
	ip_rt_put(rt);

	KUNIT_EXPECT_PTR_EQ(test, alpn_lookup_held(two, &held), wanted->sk);
	KUNIT_ASSERT_PTR_EQ(test, held, one);
	KUNIT_EXPECT_EQ_MSG(test, held->_skb_refdst, 0UL, "the held datagram kept its route");
	kfree_skb(held);
	kfree_skb(two);
	quic_alpn_held_purge(&init_net);
}

/* Hand @pkt to the receive path as a datagram from 127.0.0.1:40000 to
 * the case's port, through the UDP tunnel of @listener.
 */
static void alpn_receive(struct kunit *test, struct sock *listener, const struct sk_buff *pkt)
{
	union quic_addr src, dst;

	quic_kunit_addr4(&src, "127.0.0.1", 40000);
	quic_kunit_addr4(&dst, "127.0.0.1", alpn_port);
	quic_kunit_rcv4(test, quic_paths(listener)->path[0].udp_sk->sk, &src, &dst, pkt->data,
			pkt->len);
}

/* The datagrams @sk queued for its one waiting client, copied, or 0. */
static u32 alpn_queued(struct sock *sk, struct sk_buff **out, u32 max)
{
	struct quic_request *req;
	struct sk_buff *skb;
	u32 n = 0;

	lock_sock(sk);
	if (quic_sk(sk)->request_count == 1) {
		req = list_first_entry(&quic_sk(sk)->requests, struct quic_request, list);
		skb_queue_walk(&req->skbs, skb)
			if (n < max)
				out[n++] = skb_copy(skb, GFP_KERNEL);
	}
	release_sock(sk);
	return n;
}

/*
 * The receive path itself: the two datagrams of a split ClientHello sent
 * to the shared port end in the queue of the listener the ClientHello
 * names, as one client with both datagrams, the first one first.
 */
static void alpn_receive_path_queues_both_halves_in_order(struct kunit *test)
{
	struct sk_buff *one, *two, *got[3] = {};
	struct socket *a, *b, *wanted, *other;
	struct sock *first;
	int n, i;

	first = alpn_one_two(test, 5, &a, &b);
	wanted = first == a->sk ? b : a;
	other = wanted == a ? b : a;

	alpn_split(test, &alpn_dcid_a, wanted == a ? "\x03one" : "\x03two", 1000, 700, &one,
		   &two);
	alpn_receive(test, wanted->sk, one);
	KUNIT_EXPECT_EQ_MSG(test, alpn_queued(wanted->sk, got, 3) +
			    alpn_queued(other->sk, got, 3), 0,
			    "the start alone is held, queued nowhere");
	alpn_receive(test, wanted->sk, two);
	KUNIT_EXPECT_EQ(test, alpn_queued(other->sk, got, 3), 0);
	n = alpn_queued(wanted->sk, got, 3);
	KUNIT_EXPECT_EQ_MSG(test, n, 2, "the client waits where its protocol is served");
	if (n == 2) {
		KUNIT_EXPECT_EQ(test, got[0]->len, one->len);
		KUNIT_EXPECT_MEMEQ_MSG(test, got[0]->data, one->data, one->len,
				       "the ClientHello's start comes first");
		KUNIT_EXPECT_MEMEQ(test, got[1]->data, two->data, two->len);
	}
	for (i = 0; i < n; i++)
		kfree_skb(got[i]);
	kfree_skb(one);
	kfree_skb(two);
}

static int alpn_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void alpn_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

static struct kunit_case alpn_cases[] = {
	KUNIT_CASE_PARAM(alpn_initial_keys_match_appendix_a1, alpn_keys_gen_params),
	KUNIT_CASE_PARAM(alpn_peek_reads_the_protocols_of_the_appendix_a2_client,
			 alpn_rfc_gen_params),
	KUNIT_CASE_PARAM(alpn_peek_refuses_a_tampered_initial, alpn_rfc_gen_params),
	KUNIT_CASE(alpn_peek_refuses_what_is_not_a_whole_initial),
	KUNIT_CASE_PARAM(alpn_gcm_fallback_opens_the_appendix_a2_client, alpn_rfc_gen_params),
	KUNIT_CASE(alpn_gcm_fallback_agrees_with_the_library),
	KUNIT_CASE(alpn_peek_gathers_a_hello_split_over_reordered_frames),
	KUNIT_CASE(alpn_peek_without_the_hello_start_or_alpn_says_so),
	KUNIT_CASE(alpn_crypto_prefix_stops_at_a_gap),
	KUNIT_CASE(alpn_crypto_prefix_takes_only_frames_of_an_initial),
	KUNIT_CASE(alpn_client_hello_of_appendix_a2_is_read_at_every_cut),
	KUNIT_CASE(alpn_client_hello_with_hostile_lengths_is_refused),
	KUNIT_CASE(alpn_listeners_share_a_port_only_with_distinct_protocols),
	KUNIT_CASE(alpn_route_follows_the_protocol_the_client_prefers),
	KUNIT_CASE(alpn_route_sends_later_datagrams_where_the_client_waits),
	KUNIT_CASE(alpn_route_holds_a_hello_start_until_its_rest),
	KUNIT_CASE(alpn_held_hello_start_keeps_no_route),
	KUNIT_CASE(alpn_receive_path_queues_both_halves_in_order),
	{}
};

static struct kunit_suite alpn_suite = {
	.name = "quic_alpn",
	.suite_init = alpn_suite_init,
	.suite_exit = alpn_suite_exit,
	.test_cases = alpn_cases,
};

kunit_test_suite(alpn_suite);
