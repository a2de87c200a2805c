// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_token: stateless reset tokens and address validation
 * tokens (net/quic/token.c), against reference values computed outside
 * the kernel and for what a forged, altered, expired or misplaced token
 * must not pass.
 */

#include <kunit/test.h>
#include <linux/skbuff.h>
#include <uapi/linux/quic.h>

#include "../token.h"

/* RFC 9001 Appendix A: the client's first Destination Connection ID. */
static const struct quic_conn_id quic_test_dcid = {
	.len = 8,
	.data = { 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08 },
};

KUNIT_DEFINE_ACTION_WRAPPER(quic_test_mac_free, quic_crypto_mac_free, struct quic_crypto_mac *);

static const u8 quic_test_token_key[32] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};

static struct quic_crypto_mac *quic_test_mac(struct kunit *test, u8 key_xor)
{
	struct quic_crypto_mac *mac = kunit_kzalloc(test, sizeof(*mac), GFP_KERNEL);
	u8 key[32];
	int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mac);
	for (i = 0; i < 32; i++)
		key[i] = quic_test_token_key[i] ^ key_xor;
	KUNIT_ASSERT_EQ(test, quic_crypto_mac_init(mac, key, sizeof(key)), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, quic_test_mac_free, mac), 0);
	return mac;
}

/* HMAC-SHA256(key 0x00..0x1f, "stateless reset" | 8394c8f03e515708), first
 * 16 bytes, computed with Python's hmac module.
 */
static const u8 quic_test_reset_token[QUIC_RESET_TOKEN_LEN] = {
	0x5a, 0x56, 0x86, 0xac, 0x04, 0x85, 0x53, 0x0c,
	0xd4, 0xd6, 0x93, 0x21, 0x7f, 0xa3, 0x91, 0x21,
};

static void crypto_reset_token_matches_reference(struct kunit *test)
{
	struct quic_crypto_mac *mac = quic_test_mac(test, 0);
	u8 token[QUIC_RESET_TOKEN_LEN];

	KUNIT_ASSERT_EQ(test, quic_crypto_reset_token(mac, &quic_test_dcid, token), 0);
	KUNIT_EXPECT_MEMEQ(test, token, quic_test_reset_token, QUIC_RESET_TOKEN_LEN);
	KUNIT_EXPECT_EQ(test, quic_crypto_verify_reset_token(mac, &quic_test_dcid, token), 0);
}

static void crypto_reset_token_rejects_mismatch(struct kunit *test)
{
	struct quic_crypto_mac *other = quic_test_mac(test, 0xff);
	struct quic_crypto_mac *mac = quic_test_mac(test, 0);
	struct quic_conn_id cid = quic_test_dcid;
	u8 token[QUIC_RESET_TOKEN_LEN];
	int i;

	memcpy(token, quic_test_reset_token, sizeof(token));
	for (i = 0; i < QUIC_RESET_TOKEN_LEN; i++) {
		token[i] ^= 0x20;
		KUNIT_EXPECT_EQ(test, quic_crypto_verify_reset_token(mac, &cid, token), -EBADMSG);
		token[i] ^= 0x20;
	}
	KUNIT_EXPECT_EQ(test, quic_crypto_verify_reset_token(other, &cid, token), -EBADMSG);
	cid.data[0] ^= 1;
	KUNIT_EXPECT_EQ(test, quic_crypto_verify_reset_token(mac, &cid, token), -EBADMSG);
	cid.len = 0;	/* RFC 9000 Section 10.3.2: no token for an empty ID */
	KUNIT_EXPECT_EQ(test, quic_crypto_reset_token(mac, &cid, token), -EINVAL);
}

static void quic_test_addr4(union quic_addr *a, u32 ip, u16 port)
{
	memset(a, 0, sizeof(*a));
	a->v4.sin_family = AF_INET;
	a->v4.sin_addr.s_addr = htonl(ip);
	a->v4.sin_port = htons(port);
}

static void quic_test_addr6(union quic_addr *a, u8 last, u16 port)
{
	memset(a, 0, sizeof(*a));
	a->v6.sin6_family = AF_INET6;
	a->v6.sin6_addr.s6_addr[0] = 0x20;
	a->v6.sin6_addr.s6_addr[1] = 0x01;
	a->v6.sin6_addr.s6_addr[15] = last;
	a->v6.sin6_port = htons(port);
}

#define QUIC_TEST_NOW		1000000
#define QUIC_TEST_LIFETIME	3000000

static u8 *quic_test_token(struct kunit *test, const struct quic_crypto_mac *mac,
			   const union quic_addr *a, const struct quic_conn_id *odcid, u32 *len)
{
	u8 *token = kunit_kzalloc(test, QUIC_ADDR_TOKEN_MAX_LEN, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, token);
	*len = QUIC_ADDR_TOKEN_MAX_LEN;
	KUNIT_ASSERT_EQ(test, quic_crypto_token_generate(mac, a, QUIC_VERSION_V1, odcid,
							 QUIC_TEST_NOW, QUIC_TEST_LIFETIME, token,
							 len), 0);
	return token;
}

static void crypto_token_round_trip(struct kunit *test)
{
	struct quic_crypto_mac *mac = quic_test_mac(test, 0);
	struct quic_conn_id odcid = {};
	union quic_addr a4, a6;
	u8 *token, flags = 0;
	u32 len;

	/* Retry token: carries the ODCID back to a stateless server. */
	quic_test_addr4(&a4, 0xc0000201, 4433);
	token = quic_test_token(test, mac, &a4, &quic_test_dcid, &len);
	KUNIT_EXPECT_EQ(test, len, QUIC_ADDR_TOKEN_MIN_LEN + quic_test_dcid.len);
	KUNIT_ASSERT_EQ(test, quic_crypto_token_verify(mac, &a4, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW + 1, &flags, &odcid), 0);
	KUNIT_EXPECT_EQ(test, flags, QUIC_TOKEN_FLAG_RETRY);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&odcid, &quic_test_dcid));

	/* NEW_TOKEN token. */
	quic_test_addr6(&a6, 7, 443);
	token = quic_test_token(test, mac, &a6, NULL, &len);
	KUNIT_EXPECT_EQ(test, len, QUIC_ADDR_TOKEN_MIN_LEN);
	KUNIT_ASSERT_EQ(test, quic_crypto_token_verify(mac, &a6, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), 0);
	KUNIT_EXPECT_EQ(test, flags, 0);
	KUNIT_EXPECT_EQ(test, odcid.len, 0);
}

static void crypto_token_rejects_other_address(struct kunit *test)
{
	struct quic_crypto_mac *mac = quic_test_mac(test, 0);
	struct quic_conn_id odcid;
	union quic_addr a, b;
	u8 *token, flags;
	u32 len;

	quic_test_addr4(&a, 0xc0000201, 4433);
	token = quic_test_token(test, mac, &a, &quic_test_dcid, &len);
	quic_test_addr4(&b, 0xc0000202, 4433);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &b, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), -EBADMSG);
	/* A Retry token is bound to the port too. */
	quic_test_addr4(&b, 0xc0000201, 4434);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &b, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), -EBADMSG);

	quic_test_addr6(&a, 7, 443);
	token = quic_test_token(test, mac, &a, NULL, &len);
	quic_test_addr6(&b, 8, 443);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &b, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), -EBADMSG);
	/* A NEW_TOKEN token is not (RFC 9000 Section 8.1.3). */
	quic_test_addr6(&b, 7, 50000);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &b, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), 0);
	quic_test_addr4(&b, 7, 443);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &b, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), -EBADMSG);
	b.sa.sa_family = AF_UNIX;
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &b, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid),
			-EAFNOSUPPORT);
}

static void crypto_token_expires(struct kunit *test)
{
	struct quic_crypto_mac *mac = quic_test_mac(test, 0);
	u64 expiry = QUIC_TEST_NOW + QUIC_TEST_LIFETIME;
	struct quic_conn_id odcid;
	union quic_addr a;
	u8 *token, flags;
	u32 len;

	quic_test_addr4(&a, 0x0a000001, 1234);
	token = quic_test_token(test, mac, &a, NULL, &len);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &a, QUIC_VERSION_V1, token, len, expiry,
						       &flags, &odcid), 0);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &a, QUIC_VERSION_V1, token, len,
						       expiry + 1, &flags, &odcid), -EKEYEXPIRED);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_generate(mac, &a, QUIC_VERSION_V1, NULL,
							 U64_MAX - 5, 6, token, &len), -EINVAL);
}

static void crypto_token_rejects_alteration(struct kunit *test)
{
	struct quic_crypto_mac *other = quic_test_mac(test, 0x5c);
	struct quic_crypto_mac *mac = quic_test_mac(test, 0);
	struct quic_conn_id odcid;
	union quic_addr a;
	u8 *token, flags;
	u32 len, i;

	quic_test_addr4(&a, 0xc0000201, 4433);
	token = quic_test_token(test, mac, &a, &quic_test_dcid, &len);
	for (i = 0; i < len; i++) {
		token[i] ^= 0x04;
		KUNIT_EXPECT_LT_MSG(test, quic_crypto_token_verify(mac, &a, QUIC_VERSION_V1, token,
								   len, QUIC_TEST_NOW, &flags,
								   &odcid), 0, "byte %u", i);
		token[i] ^= 0x04;
	}
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &a, QUIC_VERSION_V1, token, len - 1,
						       QUIC_TEST_NOW, &flags, &odcid), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &a, QUIC_VERSION_V1, token,
						       QUIC_ADDR_TOKEN_MAX_LEN + 1, QUIC_TEST_NOW,
						       &flags, &odcid), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(other, &a, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), -EBADMSG);
	/* Untouched, it still verifies. */
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &a, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), 0);
}

/* RFC 9369 Section 5: tokens are specific to the QUIC version that issued
 * them; a server does not accept one in an Initial of another version.
 */
static void crypto_token_is_bound_to_its_version(struct kunit *test)
{
	struct quic_crypto_mac *mac = quic_test_mac(test, 0);
	u8 token[QUIC_ADDR_TOKEN_MAX_LEN], flags;
	struct quic_conn_id odcid;
	u32 len = sizeof(token);
	union quic_addr a;

	quic_test_addr4(&a, 0xc0000201, 4433);
	KUNIT_ASSERT_EQ(test, quic_crypto_token_generate(mac, &a, QUIC_VERSION_V2, &quic_test_dcid,
							 QUIC_TEST_NOW, QUIC_TEST_LIFETIME, token,
							 &len), 0);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &a, QUIC_VERSION_V2, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), 0);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &a, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), -EBADMSG);
	len = sizeof(token);
	KUNIT_ASSERT_EQ(test, quic_crypto_token_generate(mac, &a, QUIC_VERSION_V1, NULL,
							 QUIC_TEST_NOW, QUIC_TEST_LIFETIME, token,
							 &len), 0);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &a, QUIC_VERSION_V2, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), -EBADMSG);
	KUNIT_EXPECT_EQ(test, quic_crypto_token_verify(mac, &a, QUIC_VERSION_V1, token, len,
						       QUIC_TEST_NOW, &flags, &odcid), 0);
}

static void crypto_token_unique(struct kunit *test)
{
	struct quic_crypto_mac *mac = quic_test_mac(test, 0);
	union quic_addr a;
	u8 *t1, *t2;
	u32 l1, l2;

	quic_test_addr4(&a, 0xc0000201, 4433);
	t1 = quic_test_token(test, mac, &a, NULL, &l1);
	t2 = quic_test_token(test, mac, &a, NULL, &l2);
	KUNIT_ASSERT_EQ(test, l1, l2);
	KUNIT_EXPECT_NE(test, memcmp(t1, t2, l1), 0);
	l1 = QUIC_ADDR_TOKEN_MIN_LEN - 1;
	KUNIT_EXPECT_EQ(test,
			quic_crypto_token_generate(mac, &a, QUIC_VERSION_V1, NULL, 0, 1, t1, &l1),
			-EINVAL);
}

static struct kunit_case quic_token_cases[] = {
	KUNIT_CASE(crypto_reset_token_matches_reference),
	KUNIT_CASE(crypto_reset_token_rejects_mismatch),
	KUNIT_CASE(crypto_token_round_trip),
	KUNIT_CASE(crypto_token_rejects_other_address),
	KUNIT_CASE(crypto_token_expires),
	KUNIT_CASE(crypto_token_rejects_alteration),
	KUNIT_CASE(crypto_token_is_bound_to_its_version),
	KUNIT_CASE(crypto_token_unique),
	{}
};

static struct kunit_suite quic_token_suite = {
	.name = "quic_token",
	.test_cases = quic_token_cases,
};

kunit_test_suite(quic_token_suite);
