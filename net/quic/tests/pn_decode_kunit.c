// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_pn_decode: reconstruction of full packet numbers from
 * the truncated header field, and the choice of that field's length
 * (RFC 9000 Section 17.1, Appendices A.2 and A.3).
 */

#include <kunit/test.h>

#include "../common.h"

struct pn_vector {
	const char *desc;
	s64 largest;
	u64 truncated;
	u32 len;
	s64 want;
};

/*
 * Expected values follow the RFC 9000 A.3 rule: the result lies in the
 * window (expected - win/2, expected + win/2] around expected = largest + 1,
 * where win = 2^(8 * len), without going below 0 or reaching 2^62.
 */
static const struct pn_vector pn_vectors[] = {
	{ "RFC 9000 A.3 example: 0xa82f30ea then 16-bit 0x9b32",
	  0xa82f30ea, 0x9b32, 2, 0xa82f9b32 },
	{ "nothing received yet, 1-byte 0", -1, 0x00, 1, 0 },
	{ "nothing received yet, 1-byte 0xff stays 255 (no underflow)", -1, 0xff, 1, 255 },
	/* expected 0x200, window (0x180, 0x280] */
	{ "1-byte upper edge included", 0x1ff, 0x80, 1, 0x280 },
	{ "1-byte just past upper edge wraps down", 0x1ff, 0x81, 1, 0x181 },
	{ "1-byte just below upper edge", 0x1ff, 0x7f, 1, 0x27f },
	/* expected 0x380, window (0x300, 0x400] */
	{ "1-byte lower edge excluded wraps up", 0x37f, 0x00, 1, 0x400 },
	{ "1-byte just above lower edge", 0x37f, 0x01, 1, 0x301 },
	/* expected 0x10000, window (0x8000, 0x18000] */
	{ "2-byte upper edge included", 0xffff, 0x8000, 2, 0x18000 },
	{ "2-byte past upper edge wraps down", 0xffff, 0x8001, 2, 0x8001 },
	/* expected 0x12ffffff, window (0x127fffff, 0x137fffff] */
	{ "3-byte wraps up across 2^24 boundary", 0x12fffffe, 0x000001, 3, 0x13000001 },
	{ "3-byte no adjustment", 0xabcdef, 0xabcdf0, 3, 0xabcdf0 },
	/* expected 0xffffffff, window (0x7fffffff, 0x17fffffff] */
	{ "4-byte wraps up across 2^32", 0xfffffffe, 0x00000002, 4, 0x100000002LL },
	/* expected 2^62 - 1: the candidate 2^62 - 256 may not move up past 2^62 */
	{ "1-byte near 2^62 does not exceed the limit", (1LL << 62) - 2, 0x00, 1,
	  (1LL << 62) - 256 },
	{ "1-byte near 2^62 reaches 2^62-1", (1LL << 62) - 2, 0xff, 1, (1LL << 62) - 1 },
};

KUNIT_ARRAY_PARAM_DESC(pn, pn_vectors, desc);

static void pn_decode_vectors(struct kunit *test)
{
	const struct pn_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, quic_pn_decode(v->largest, v->truncated, v->len), v->want);
}

static void pn_decode_rejects_bad_field(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, quic_pn_decode(10, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_pn_decode(10, 1, 5), -EINVAL);
	/* A truncated value with bits outside its field. */
	KUNIT_EXPECT_EQ(test, quic_pn_decode(10, 0x100, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_pn_decode(10, 0x1000000, 3), -EINVAL);
}

static void pn_encode_len_rfc_examples(struct kunit *test)
{
	/* RFC 9000 A.2: 29,519 packets in flight need 16 bits ... */
	KUNIT_EXPECT_EQ(test, quic_pn_encode_len(0xac5c02, 0xabe8b3), 2U);
	/* ... and 65,611 need 24 bits. */
	KUNIT_EXPECT_EQ(test, quic_pn_encode_len(0xace8fe, 0xabe8b3), 3U);
}

static void pn_encode_len_boundaries(struct kunit *test)
{
	/* Nothing acknowledged: full_pn + 1 packets are outstanding. */
	KUNIT_EXPECT_EQ(test, quic_pn_encode_len(0, -1), 1U);
	KUNIT_EXPECT_EQ(test, quic_pn_encode_len(127, -1), 1U);	/* 128 <= 2^7 */
	KUNIT_EXPECT_EQ(test, quic_pn_encode_len(128, -1), 2U);	/* 129 > 2^7 */
	KUNIT_EXPECT_EQ(test, quic_pn_encode_len(1000 + 32768, 1000), 2U);
	KUNIT_EXPECT_EQ(test, quic_pn_encode_len(1000 + 32769, 1000), 3U);
	KUNIT_EXPECT_EQ(test, quic_pn_encode_len(1LL << 40, 0), 4U);	/* capped */
}

static void pn_encode_then_decode_recovers_number(struct kunit *test)
{
	s64 base = 0x123456, pn, got;
	u32 len, d;

	/* The receiver has seen at least what the sender knows was acked. */
	for (d = 1; d < 70000; d += 97) {
		pn = base + d;
		len = quic_pn_encode_len(pn, base);
		got = quic_pn_decode(base, pn & ((1ULL << (len * 8)) - 1), len);
		KUNIT_ASSERT_EQ_MSG(test, got, pn, "distance %u, length %u", d, len);
	}
}

static struct kunit_case pn_decode_cases[] = {
	KUNIT_CASE_PARAM(pn_decode_vectors, pn_gen_params),
	KUNIT_CASE(pn_decode_rejects_bad_field),
	KUNIT_CASE(pn_encode_len_rfc_examples),
	KUNIT_CASE(pn_encode_len_boundaries),
	KUNIT_CASE(pn_encode_then_decode_recovers_number),
	{}
};

static struct kunit_suite pn_decode_suite = {
	.name = "quic_pn_decode",
	.test_cases = pn_decode_cases,
};

kunit_test_suite(pn_decode_suite);
