// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_crypto_bench: throughput of QUIC packet protection
 * (quic_crypto_encrypt() on an skb: AEAD and header protection, per-packet
 * request allocation included) beside the raw crypto API AEAD on the same
 * packet sizes in the same run, for every cipher suite and for 1200- and
 * 1452-byte packets. Not part of the functional suites; run it on its own,
 * at native speed where possible:
 *
 *   ./kunit.py run --arch=um 'quic_crypto_bench*'
 *
 * The two sides run in 60 alternating slices of at least 1 ms and 8
 * packets each (0.25 s per cipher suite under UML, a few seconds under
 * QEMU with KASAN); each side's figure is its best slice, which filters out
 * preemption by other load on the machine (the ratio of the means over all
 * slices is printed too). The
 * figures are printed; only functional sanity is asserted, never time.
 */

#include <kunit/test.h>
#include <crypto/aead.h>
#include <linux/ktime.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>

#include "../crypto.h"

#define BENCH_SLICE_NS		NSEC_PER_MSEC
#define BENCH_ROUNDS		60
#define BENCH_BATCH		8	/* packets between two clock reads */
#define BENCH_PN_OFFSET		9	/* short header, 8-byte DCID */
#define BENCH_HLEN		(BENCH_PN_OFFSET + 4)

struct crypto_bench_cipher {
	const char *name;
	u32 type;
	const char *aead;
	u32 keylen;
	bool ccm;
};

struct crypto_bench_raw {
	struct crypto_aead *tfm;
	struct aead_request *req;
	struct crypto_wait wait;
	struct scatterlist sg;
	u8 iv[16];
	u8 *buf;
};

struct crypto_bench_total {
	u64 packets;
	u64 ns;
	u64 best_ps;	/* picoseconds per packet in the fastest slice */
};

static void crypto_bench_account(struct crypto_bench_total *t, u64 packets, u64 ns)
{
	u64 ps = div64_u64(ns * 1000, packets);

	if (!t->best_ps || ps < t->best_ps)
		t->best_ps = ps;
	t->packets += packets;
	t->ns += ns;
}

KUNIT_DEFINE_ACTION_WRAPPER(crypto_bench_destroy, quic_crypto_destroy, struct quic_crypto *);
KUNIT_DEFINE_ACTION_WRAPPER(crypto_bench_free_aead, crypto_free_aead, struct crypto_aead *);
KUNIT_DEFINE_ACTION_WRAPPER(crypto_bench_free_req, aead_request_free, struct aead_request *);
KUNIT_DEFINE_ACTION_WRAPPER(crypto_bench_kfree_skb, kfree_skb, struct sk_buff *);

static struct quic_crypto *crypto_bench_quic(struct kunit *test,
					     const struct crypto_bench_cipher *bc)
{
	struct quic_crypto_secret srt = { .send = 1, .level = QUIC_CRYPTO_APP, .type = bc->type };
	struct quic_crypto *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, crypto_bench_destroy, c), 0);
	memset(srt.secret, 0x3c, sizeof(srt.secret));
	KUNIT_ASSERT_EQ(test, quic_crypto_set_secret(c, &srt, QUIC_VERSION_V1), 0);
	return c;
}

/* The same AEAD, keyed once, one preallocated request, a linear buffer. */
static void crypto_bench_raw_init(struct kunit *test, const struct crypto_bench_cipher *bc,
				  struct crypto_bench_raw *raw, u32 len)
{
	u8 key[QUIC_KEY_MAX_LEN];

	memset(key, 0x5a, sizeof(key));
	raw->tfm = crypto_alloc_aead(bc->aead, 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, raw->tfm);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, crypto_bench_free_aead, raw->tfm),
			0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setauthsize(raw->tfm, QUIC_TAG_LEN), 0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setkey(raw->tfm, key, bc->keylen), 0);
	raw->req = aead_request_alloc(raw->tfm, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, raw->req);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, crypto_bench_free_req, raw->req),
			0);
	raw->buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, raw->buf);

	memset(raw->iv, 0, sizeof(raw->iv));
	if (bc->ccm)
		raw->iv[0] = 2;	/* L - 1 for a 12-byte nonce */
	crypto_init_wait(&raw->wait);
	sg_init_one(&raw->sg, raw->buf, len);
	aead_request_set_callback(raw->req, CRYPTO_TFM_REQ_MAY_BACKLOG, crypto_req_done,
				  &raw->wait);
	aead_request_set_ad(raw->req, BENCH_HLEN);
	aead_request_set_crypt(raw->req, &raw->sg, &raw->sg, len - BENCH_HLEN - QUIC_TAG_LEN,
			       raw->iv);
}

static int crypto_bench_raw_slice(struct crypto_bench_raw *raw, struct crypto_bench_total *t)
{
	u64 start = ktime_get_ns(), now, packets = 0;
	int i, err;

	do {
		for (i = 0; i < BENCH_BATCH; i++) {
			err = crypto_wait_req(crypto_aead_encrypt(raw->req), &raw->wait);
			if (err)
				return err;
		}
		packets += BENCH_BATCH;
		now = ktime_get_ns();
	} while (now - start < BENCH_SLICE_NS);
	crypto_bench_account(t, packets, now - start);
	return 0;
}

static int crypto_bench_quic_slice(struct quic_crypto *c, struct sk_buff *skb, u32 len,
				   s64 *pn, struct crypto_bench_total *t)
{
	struct quic_crypto_pkt pkt = { .len = len, .pn_offset = BENCH_PN_OFFSET };
	u64 start = ktime_get_ns(), now, packets = 0;
	int i, err;

	do {
		for (i = 0; i < BENCH_BATCH; i++) {
			/* Unprotected first byte again: short header, 4-byte number. */
			skb->data[0] = 0x43;
			pkt.number = (*pn)++;
			err = quic_crypto_encrypt(c, skb, &pkt);
			if (err)
				return err;
		}
		packets += BENCH_BATCH;
		now = ktime_get_ns();
	} while (now - start < BENCH_SLICE_NS);
	crypto_bench_account(t, packets, now - start);
	/* Stay clear of the confidentiality limit: counting is not measured. */
	c->tx_count = 0;
	return 0;
}

/* MB/s with one decimal, as tenths, from picoseconds per packet. */
static u64 crypto_bench_mbps10(u64 ps, u32 len)
{
	return div64_u64(len * 10000000ULL, max_t(u64, ps, 1));
}

/* @a over @b in thousandths. */
static u64 crypto_bench_ratio(u64 a, u64 b)
{
	return div64_u64(a * 1000, max_t(u64, b, 1));
}

static void crypto_bench_size(struct kunit *test, const struct crypto_bench_cipher *bc, u32 len)
{
	struct crypto_bench_total ours = {}, raw_total = {};
	u64 mb_ours, mb_raw, ratio, mean;
	struct crypto_bench_raw *raw;
	struct quic_crypto *c;
	struct sk_buff *skb;
	s64 pn = 0;
	int r;

	c = crypto_bench_quic(test, bc);
	raw = kunit_kzalloc(test, sizeof(*raw), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, raw);
	crypto_bench_raw_init(test, bc, raw, len);

	skb = alloc_skb(len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, crypto_bench_kfree_skb, skb), 0);
	memset(skb_put(skb, len), 0x11, len);

	for (r = 0; r < BENCH_ROUNDS; r++) {
		KUNIT_ASSERT_EQ(test, crypto_bench_quic_slice(c, skb, len, &pn, &ours), 0);
		KUNIT_ASSERT_EQ(test, crypto_bench_raw_slice(raw, &raw_total), 0);
	}
	KUNIT_ASSERT_GT(test, ours.packets, 0);
	KUNIT_ASSERT_GT(test, raw_total.packets, 0);

	mb_ours = crypto_bench_mbps10(ours.best_ps, len);
	mb_raw = crypto_bench_mbps10(raw_total.best_ps, len);
	ratio = crypto_bench_ratio(ours.best_ps, raw_total.best_ps);
	mean = crypto_bench_ratio(div64_u64(ours.ns * 1000, ours.packets),
				  div64_u64(raw_total.ns * 1000, raw_total.packets));
	kunit_info(test,
		   "%-17s %4u B: quic %5llu.%llu MB/s %6llu ns/pkt | raw AEAD %5llu.%llu MB/s %6llu ns/pkt | ratio %llu.%03llu (mean %llu.%03llu)\n",
		   bc->name, len, mb_ours / 10, mb_ours % 10, ours.best_ps / 1000, mb_raw / 10,
		   mb_raw % 10, raw_total.best_ps / 1000, ratio / 1000, ratio % 1000,
		   mean / 1000, mean % 1000);
}

static void crypto_bench_run(struct kunit *test, const struct crypto_bench_cipher *bc)
{
	crypto_bench_size(test, bc, 1200);
	crypto_bench_size(test, bc, 1452);
}

static const struct crypto_bench_cipher crypto_bench_ciphers[] = {
	{ "AES-128-GCM", TLS_CIPHER_AES_GCM_128, "gcm(aes)", 16, false },
	{ "AES-256-GCM", TLS_CIPHER_AES_GCM_256, "gcm(aes)", 32, false },
	{ "AES-128-CCM", TLS_CIPHER_AES_CCM_128, "ccm(aes)", 16, true },
	{ "ChaCha20-Poly1305", TLS_CIPHER_CHACHA20_POLY1305, "rfc7539(chacha20,poly1305)", 32,
	  false },
};

static void crypto_bench_aes_128_gcm(struct kunit *test)
{
	crypto_bench_run(test, &crypto_bench_ciphers[0]);
}

static void crypto_bench_aes_256_gcm(struct kunit *test)
{
	crypto_bench_run(test, &crypto_bench_ciphers[1]);
}

static void crypto_bench_aes_128_ccm(struct kunit *test)
{
	crypto_bench_run(test, &crypto_bench_ciphers[2]);
}

static void crypto_bench_chacha20_poly1305(struct kunit *test)
{
	crypto_bench_run(test, &crypto_bench_ciphers[3]);
}

static struct kunit_case quic_crypto_bench_cases[] = {
	KUNIT_CASE_SLOW(crypto_bench_aes_128_gcm),
	KUNIT_CASE_SLOW(crypto_bench_aes_256_gcm),
	KUNIT_CASE_SLOW(crypto_bench_aes_128_ccm),
	KUNIT_CASE_SLOW(crypto_bench_chacha20_poly1305),
	{}
};

static struct kunit_suite quic_crypto_bench_suite = {
	.name = "quic_crypto_bench",
	.test_cases = quic_crypto_bench_cases,
};

kunit_test_suite(quic_crypto_bench_suite);
