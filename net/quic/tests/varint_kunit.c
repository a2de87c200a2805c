// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_varint: variable-length integers (RFC 9000 Section 16)
 * and the fixed-width integer and byte helpers built beside them.
 */

#include <kunit/test.h>
#include <linux/random.h>

#include "../common.h"

struct varint_vector {
	const char *desc;
	u8 wire[8];
	u32 len;
	u64 value;
};

/* RFC 9000 Appendix A.1 sample encodings, and the non-minimal 0x4025. */
static const struct varint_vector varint_rfc_vectors[] = {
	{ "RFC 9000 A.1 eight-byte 151288809941952652",
	  { 0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c }, 8, 151288809941952652ULL },
	{ "RFC 9000 A.1 four-byte 494878333",
	  { 0x9d, 0x7f, 0x3e, 0x7d }, 4, 494878333 },
	{ "RFC 9000 A.1 two-byte 15293", { 0x7b, 0xbd }, 2, 15293 },
	{ "RFC 9000 A.1 one-byte 37", { 0x25 }, 1, 37 },
	{ "RFC 9000 A.1 two-byte non-minimal 37", { 0x40, 0x25 }, 2, 37 },
};

KUNIT_ARRAY_PARAM_DESC(varint_rfc, varint_rfc_vectors, desc);

static void varint_decode_rfc_examples(struct kunit *test)
{
	const struct varint_vector *v = test->param_value;
	const u8 *p = v->wire;
	u32 left = v->len;
	u64 val = 0;

	KUNIT_ASSERT_EQ(test, quic_get_var(&p, &left, &val), 0);
	KUNIT_EXPECT_EQ(test, val, v->value);
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_PTR_EQ(test, p, v->wire + v->len);
}

static void varint_encode_rfc_examples_minimally(struct kunit *test)
{
	const struct varint_vector *v = test->param_value;
	u8 buf[8] = {}, *p = buf;
	u32 room = sizeof(buf);

	/* The non-minimal 0x4025 vector encodes back to the one-byte 0x25. */
	KUNIT_ASSERT_EQ(test, quic_put_var(&p, &room, v->value), 0);
	if (v->value == 37) {
		KUNIT_EXPECT_EQ(test, p - buf, 1);
		KUNIT_EXPECT_EQ(test, buf[0], 0x25);
		return;
	}
	KUNIT_EXPECT_EQ(test, p - buf, (long)v->len);
	KUNIT_EXPECT_MEMEQ(test, buf, v->wire, v->len);
}

struct varint_boundary {
	const char *desc;
	u64 value;
	u32 len;
};

/* The last value of each length class and the first of the next. */
static const struct varint_boundary varint_boundaries[] = {
	{ "0", 0, 1 },
	{ "63 = 2^6-1", 63, 1 },
	{ "64 = 2^6", 64, 2 },
	{ "16383 = 2^14-1", 16383, 2 },
	{ "16384 = 2^14", 16384, 4 },
	{ "2^30-1", (1ULL << 30) - 1, 4 },
	{ "2^30", 1ULL << 30, 8 },
	{ "2^62-1", (1ULL << 62) - 1, 8 },
};

KUNIT_ARRAY_PARAM_DESC(varint_boundary, varint_boundaries, desc);

static void varint_boundary_round_trip(struct kunit *test)
{
	const struct varint_boundary *b = test->param_value;
	u8 buf[8], *w = buf;
	u32 room = sizeof(buf), left;
	const u8 *r = buf;
	u64 val;

	KUNIT_EXPECT_EQ(test, quic_var_len(b->value), b->len);
	KUNIT_ASSERT_EQ(test, quic_put_var(&w, &room, b->value), 0);
	KUNIT_ASSERT_EQ(test, (u32)(w - buf), b->len);
	KUNIT_EXPECT_EQ(test, room, (u32)sizeof(buf) - b->len);
	/* The two-bit prefix is log2 of the length. */
	KUNIT_EXPECT_EQ(test, buf[0] >> 6, ilog2(b->len));

	left = b->len;
	KUNIT_ASSERT_EQ(test, quic_get_var(&r, &left, &val), 0);
	KUNIT_EXPECT_EQ(test, val, b->value);
	KUNIT_EXPECT_EQ(test, left, 0U);
}

static void varint_encode_refuses_above_2_62(struct kunit *test)
{
	static const u64 bad[] = { 1ULL << 62, (1ULL << 62) + 1, U64_MAX };
	u8 buf[8] = {}, *p;
	u32 room, i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		p = buf;
		room = sizeof(buf);
		KUNIT_EXPECT_EQ(test, quic_var_len(bad[i]), 0U);
		KUNIT_EXPECT_EQ(test, quic_put_var(&p, &room, bad[i]), -EINVAL);
		KUNIT_EXPECT_PTR_EQ(test, p, &buf[0]);
		KUNIT_EXPECT_EQ(test, room, (u32)sizeof(buf));
	}
}

static void varint_encode_refuses_short_buffer(struct kunit *test)
{
	u8 buf[8] = {}, *p = buf;
	u32 room = 3;

	/* 16384 needs four bytes. */
	KUNIT_EXPECT_EQ(test, quic_put_var(&p, &room, 16384), -ENOSPC);
	KUNIT_EXPECT_PTR_EQ(test, p, &buf[0]);
	KUNIT_EXPECT_EQ(test, room, 3U);
	room = 0;
	KUNIT_EXPECT_EQ(test, quic_put_var(&p, &room, 0), -ENOSPC);
}

static void varint_decode_rejects_truncated_input(struct kunit *test)
{
	static const u8 enc[][8] = {
		{ 0x7b, 0xbd },
		{ 0x9d, 0x7f, 0x3e, 0x7d },
		{ 0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c },
	};
	static const u32 lens[] = { 2, 4, 8 };
	u32 i, cut, left;
	const u8 *p;
	u64 val;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		for (cut = 0; cut < lens[i]; cut++) {
			p = enc[i];
			left = cut;
			val = 0xdead;
			KUNIT_EXPECT_EQ(test, quic_get_var(&p, &left, &val), -EINVAL);
			/* Cursor, length and output are untouched. */
			KUNIT_EXPECT_PTR_EQ(test, p, &enc[i][0]);
			KUNIT_EXPECT_EQ(test, left, cut);
			KUNIT_EXPECT_EQ(test, val, 0xdeadULL);
		}
	}
}

static void varint_fixed_length_encoding(struct kunit *test)
{
	static const u8 want[] = { 0x80, 0x00, 0x00, 0x25 };
	u8 buf[8] = {}, *p = buf;
	u32 room = sizeof(buf);

	/* 37 written on four bytes, as a Length field reserved in advance. */
	KUNIT_ASSERT_EQ(test, quic_put_var_fixed(&p, &room, 37, 4), 0);
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));

	p = buf;
	room = sizeof(buf);
	KUNIT_EXPECT_EQ(test, quic_put_var_fixed(&p, &room, 64, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_put_var_fixed(&p, &room, 16384, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_put_var_fixed(&p, &room, 1, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_put_var_fixed(&p, &room, 1ULL << 62, 8), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, p, &buf[0]);
}

static void varint_random_values_round_trip(struct kunit *test)
{
	struct rnd_state rnd;
	u8 buf[8], *w;
	u32 i, room, left;
	const u8 *r;
	u64 v, got;

	prandom_seed_state(&rnd, 0x9000);
	for (i = 0; i < 4096; i++) {
		/* Spread the values over every length class. */
		v = prandom_u32_state(&rnd);
		v = (v << 32 | prandom_u32_state(&rnd)) >> (prandom_u32_state(&rnd) % 64);
		v &= QUIC_VARINT_MAX;

		w = buf;
		room = sizeof(buf);
		KUNIT_ASSERT_EQ(test, quic_put_var(&w, &room, v), 0);
		r = buf;
		left = w - buf;
		KUNIT_ASSERT_EQ(test, quic_get_var(&r, &left, &got), 0);
		KUNIT_ASSERT_EQ(test, got, v);
		KUNIT_ASSERT_EQ(test, left, 0U);
	}
}

static void int_fixed_width_round_trip(struct kunit *test)
{
	static const u8 want[] = { 0x01, 0x02, 0x03, 0xff, 0xfe, 0xfd, 0xfc };
	u8 buf[16] = {}, *w = buf;
	u32 room = sizeof(buf), left;
	const u8 *r = buf;
	u64 v;

	KUNIT_ASSERT_EQ(test, quic_put_int(&w, &room, 0x010203, 3), 0);
	KUNIT_ASSERT_EQ(test, quic_put_int(&w, &room, 0xfffefdfc, 4), 0);
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));

	left = w - buf;
	KUNIT_ASSERT_EQ(test, quic_get_int(&r, &left, &v, 3), 0);
	KUNIT_EXPECT_EQ(test, v, 0x010203ULL);
	KUNIT_ASSERT_EQ(test, quic_get_int(&r, &left, &v, 4), 0);
	KUNIT_EXPECT_EQ(test, v, 0xfffefdfcULL);
	KUNIT_EXPECT_EQ(test, left, 0U);
}

static void int_rejects_value_wider_than_field(struct kunit *test)
{
	u8 buf[8] = {}, *w = buf;
	u32 room = sizeof(buf);

	KUNIT_EXPECT_EQ(test, quic_put_int(&w, &room, 0x100, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_put_int(&w, &room, 0x10000, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_put_int(&w, &room, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_put_int(&w, &room, 1, 9), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, w, &buf[0]);
	room = 1;
	KUNIT_EXPECT_EQ(test, quic_put_int(&w, &room, 1, 2), -ENOSPC);
}

static void int_decode_rejects_truncated_input(struct kunit *test)
{
	static const u8 in[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	u32 width, cut, left;
	const u8 *p;
	u64 v;

	for (width = 1; width <= 8; width++) {
		for (cut = 0; cut < width; cut++) {
			p = in;
			left = cut;
			KUNIT_EXPECT_EQ(test, quic_get_int(&p, &left, &v, width), -EINVAL);
			KUNIT_EXPECT_PTR_EQ(test, p, &in[0]);
			KUNIT_EXPECT_EQ(test, left, cut);
		}
	}
}

static void data_copy_respects_bounds(struct kunit *test)
{
	static const u8 src[4] = { 0xaa, 0xbb, 0xcc, 0xdd };
	u8 out[4] = {}, buf[4] = {}, *w = buf;
	u32 room = 3, left = 3;
	const u8 *r = src;

	KUNIT_EXPECT_EQ(test, quic_put_data(&w, &room, src, 4), -ENOSPC);
	KUNIT_EXPECT_PTR_EQ(test, w, &buf[0]);
	KUNIT_EXPECT_EQ(test, quic_get_data(&r, &left, out, 4), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, r, &src[0]);

	KUNIT_ASSERT_EQ(test, quic_get_data(&r, &left, out, 3), 0);
	KUNIT_EXPECT_MEMEQ(test, out, src, 3);
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_ASSERT_EQ(test, quic_put_data(&w, &room, src, 3), 0);
	KUNIT_EXPECT_MEMEQ(test, buf, src, 3);
	KUNIT_EXPECT_EQ(test, room, 0U);
}

static struct kunit_case varint_cases[] = {
	KUNIT_CASE_PARAM(varint_decode_rfc_examples, varint_rfc_gen_params),
	KUNIT_CASE_PARAM(varint_encode_rfc_examples_minimally, varint_rfc_gen_params),
	KUNIT_CASE_PARAM(varint_boundary_round_trip, varint_boundary_gen_params),
	KUNIT_CASE(varint_encode_refuses_above_2_62),
	KUNIT_CASE(varint_encode_refuses_short_buffer),
	KUNIT_CASE(varint_decode_rejects_truncated_input),
	KUNIT_CASE(varint_fixed_length_encoding),
	KUNIT_CASE(varint_random_values_round_trip),
	KUNIT_CASE(int_fixed_width_round_trip),
	KUNIT_CASE(int_rejects_value_wider_than_field),
	KUNIT_CASE(int_decode_rejects_truncated_input),
	KUNIT_CASE(data_copy_respects_bounds),
	{}
};

static struct kunit_suite varint_suite = {
	.name = "quic_varint",
	.test_cases = varint_cases,
};

kunit_test_suite(varint_suite);
