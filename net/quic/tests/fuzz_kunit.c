// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_fuzz: a bounded, seeded mutation loop over every
 * decoder of the frame, transport parameter and packet header codecs.
 *
 * Each iteration takes valid seeds (frames and headers from RFC 9000
 * Section 19, RFC 9001 Appendix A and RFC 9369 Appendix A), mutates them
 * (bit flips, random and boundary bytes, truncation, growth, chunk copies
 * and deletions, forged long varints) and decodes the result. The input is
 * placed at the very end of a kmalloc'ed buffer, so that KASAN reports any
 * byte read past it. Checked for every input:
 *   - a failure is one of the errors the decoder documents, and leaves the
 *     cursor alone;
 *   - a success consumed something, points only inside the input, and
 *     re-encodes to bytes that decode to the same thing (for frames, the
 *     re-encoding is never longer and is a fixed point).
 * The seed is fixed, so a failure reproduces; the iteration counts and run
 * time are printed.
 */

#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "../frame.h"
#include "../packet.h"
#include "../param.h"
#include "../socket.h"
#include "util.h"

#define FUZZ_SEED		0x5155494346555a5aULL	/* "QUICFUZZ" */
#define FUZZ_FRAME_ITERS	100000
#define FUZZ_PARAM_ITERS	60000
#define FUZZ_PACKET_ITERS	100000
#define FUZZ_CAP		2048	/* largest mutated input */

#define S(...)	{ ((const u8[]){ __VA_ARGS__ }), sizeof((const u8[]){ __VA_ARGS__ }) }

/**
 * struct fuzz_seed - one valid input to start mutating from
 * @data: the bytes
 * @len: their number
 */
struct fuzz_seed {
	const u8 *data;
	u32 len;
};

/* One of each frame (RFC 9000 Section 19, RFC 9221 Section 4). */
static const struct fuzz_seed fuzz_frames[] = {
	S(0x00, 0x00, 0x00),
	S(0x01),
	S(0x02, 0x40, 0x64, 0x19, 0x02, 0x03, 0x01, 0x04, 0x00, 0x00),
	S(0x03, 0x05, 0x00, 0x00, 0x05, 0x01, 0x02, 0x41, 0x2c),
	S(0x04, 0x04, 0x43, 0xff, 0x80, 0x01, 0x00, 0x00),
	S(0x05, 0x01, 0x00),
	S(0x06, 0x00, 0x05, 'h', 'e', 'l', 'l', 'o'),
	S(0x07, 0x04, 0xde, 0xad, 0xbe, 0xef),
	S(0x08, 0x00, 'a', 'b', 'c'),
	S(0x0b, 0x00, 0x03, 'a', 'b', 'c'),
	S(0x0d, 0x04, 0x40, 0x40, 'a', 'b', 'c'),
	S(0x0f, 0x08, 0x40, 0x40, 0x03, 'a', 'b', 'c'),
	S(0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	S(0x11, 0x00, 0x44, 0x00),
	S(0x12, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00),
	S(0x13, 0x40, 0x64),
	S(0x14, 0x00),
	S(0x15, 0x00, 0x3f),
	S(0x16, 0x07),
	S(0x17, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00),
	S(0x18, 0x02, 0x01, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08,
	  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
	S(0x19, 0x80, 0x00, 0x40, 0x00),
	S(0x1a, 1, 2, 3, 4, 5, 6, 7, 8),
	S(0x1b, 8, 7, 6, 5, 4, 3, 2, 1),
	S(0x1c, 0x0a, 0x08, 0x03, 'b', 'a', 'd'),
	S(0x1d, 0x52, 0x34, 0x00),
	S(0x1e),
	S(0x30, 'x', 'y', 'z'),
	S(0x31, 0x03, 'x', 'y', 'z'),
};

/*
 * Transport parameter lists: the ClientHello one of RFC 9001 A.2 (received
 * by a server), and a server's with every kind of parameter plus a reserved
 * one (ID 27, received by a client). Keep the client's list first.
 */
static const struct fuzz_seed fuzz_params[] = {
	S(0x04, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	  0x05, 0x04, 0x80, 0x00, 0xff, 0xff, 0x07, 0x04, 0x80, 0x00, 0xff, 0xff,
	  0x08, 0x01, 0x10, 0x01, 0x04, 0x80, 0x00, 0x75, 0x30, 0x09, 0x01, 0x10,
	  0x0f, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08,
	  0x06, 0x04, 0x80, 0x00, 0xff, 0xff),
	S(0x00, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08,
	  0x02, 0x10, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	  0x03, 0x02, 0x45, 0xac, 0x0a, 0x01, 0x04, 0x0b, 0x01, 0x14, 0x0c, 0x00,
	  0x0d, 0x2d, 0xc0, 0x00, 0x02, 0x01, 0x11, 0x51,
	  0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0x01, 0xbb,
	  0x04, 0xf8, 0xf9, 0xfa, 0xfb, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	  0x0e, 0x01, 0x08, 0x0f, 0x01, 0xaa, 0x10, 0x04, 0xf0, 0x67, 0xa5, 0x50,
	  0x11, 0x08, 0x6b, 0x33, 0x43, 0xcf, 0x00, 0x00, 0x00, 0x01,
	  0x1b, 0x02, 0xab, 0xcd, 0x20, 0x02, 0x44, 0xb0, 0x6a, 0xb2, 0x00,
	  0x80, 0x00, 0xba, 0xad, 0x00),
};

/* Packet headers; the payload after them is zeros (fuzz_packet_seed()). */
static const struct fuzz_seed fuzz_headers[] = {
	/* RFC 9001 A.2 and RFC 9369 A.2 client Initial, 1200 bytes. */
	S(0xc3, 0x00, 0x00, 0x00, 0x01, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08,
	  0x00, 0x00, 0x44, 0x9e, 0x00, 0x00, 0x00, 0x02),
	S(0xd3, 0x6b, 0x33, 0x43, 0xcf, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08,
	  0x00, 0x00, 0x44, 0x9e, 0x00, 0x00, 0x00, 0x02),
	/* RFC 9001 A.3 server Initial, 135 bytes. */
	S(0xc1, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a, 0x42, 0x62,
	  0xb5, 0x00, 0x40, 0x75, 0x00, 0x01),
	/* RFC 9001 A.4 and RFC 9369 A.4 Retry. */
	S(0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a, 0x42, 0x62,
	  0xb5, 0x74, 0x6f, 0x6b, 0x65, 0x6e, 0x04, 0xa2, 0x65, 0xba, 0x2e, 0xff, 0x4d, 0x82,
	  0x90, 0x58, 0xfb, 0x3f, 0x0f, 0x24, 0x96, 0xba),
	S(0xcf, 0x6b, 0x33, 0x43, 0xcf, 0x00, 0x08, 0xf0, 0x67, 0xa5, 0x50, 0x2a, 0x42, 0x62,
	  0xb5, 0x74, 0x6f, 0x6b, 0x65, 0x6e, 0xc8, 0x64, 0x6c, 0xe8, 0xbf, 0xe3, 0x39, 0x52,
	  0xd9, 0x55, 0x54, 0x36, 0x65, 0xdc, 0xc7, 0xb6),
	/* v2 0-RTT and Handshake, 2-byte DCID, Length 22, coalesced. */
	S(0xe1, 0x6b, 0x33, 0x43, 0xcf, 0x02, 0x11, 0x22, 0x01, 0x33, 0x16, 0x02, 0x03,
	  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  0xf1, 0x6b, 0x33, 0x43, 0xcf, 0x02, 0x11, 0x22, 0x01, 0x33, 0x16, 0x02, 0x03),
	/* RFC 9001 A.5 short header (no DCID), 21 bytes. */
	S(0x42, 0x00, 0xbf, 0xf4),
	/* Version Negotiation echoing A.2's IDs, listing v2 and v1. */
	S(0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57,
	  0x08, 0x6b, 0x33, 0x43, 0xcf, 0x00, 0x00, 0x00, 0x01),
};

/* Whole length of each packet seed (header plus zero payload). */
static const u32 fuzz_packet_lens[] = { 1200, 1200, 135, 36, 36, 33 + 20 + 13, 21, 23 };

/* Values that sit on varint and field boundaries. */
static const u8 fuzz_boundary[] = { 0x00, 0x01, 0x3f, 0x40, 0x7f, 0x80, 0xbf, 0xc0, 0xff,
				    0x14, 0x15, 0x10, 0x30 };

/**
 * struct fuzz_ctx - state of one fuzz case
 * @test: the running test
 * @rnd: the seeded generator
 * @work: where inputs are built and mutated
 * @tail: %FUZZ_CAP bytes whose end the input is copied against
 * @out: re-encoding output
 * @out2: second re-encoding output
 * @iters: inputs tried
 * @ok: inputs (or frames) decoded successfully
 * @errs: failures, by kind
 * @failed: an invariant broke; stop
 */
struct fuzz_ctx {
	struct kunit *test;
	struct rnd_state rnd;
	u8 *work;
	u8 *tail;
	u8 *out;
	u8 *out2;
	u32 iters;
	u32 ok;
	u32 errs[4];
	bool failed;
};

static u32 fuzz_rand(struct fuzz_ctx *fz, u32 n)
{
	return n ? prandom_u32_state(&fz->rnd) % n : 0;
}

static struct fuzz_ctx *fuzz_ctx_new(struct kunit *test)
{
	struct fuzz_ctx *fz = kunit_kzalloc(test, sizeof(*fz), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fz);
	fz->test = test;
	fz->work = kunit_kzalloc(test, FUZZ_CAP, GFP_KERNEL);
	fz->tail = kunit_kzalloc(test, FUZZ_CAP, GFP_KERNEL);
	fz->out = kunit_kzalloc(test, FUZZ_CAP, GFP_KERNEL);
	fz->out2 = kunit_kzalloc(test, FUZZ_CAP, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fz->work);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fz->tail);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fz->out);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fz->out2);
	prandom_seed_state(&fz->rnd, FUZZ_SEED);
	return fz;
}

/* Append @n bytes to the work buffer, as far as there is room. */
static u32 fuzz_append(struct fuzz_ctx *fz, u32 len, const u8 *data, u32 n)
{
	n = min(n, FUZZ_CAP - len);
	memcpy(fz->work + len, data, n);
	return len + n;
}

static u32 fuzz_mutate(struct fuzz_ctx *fz, u32 len)
{
	u32 rounds = 1 + fuzz_rand(fz, 4), pos, n, src;
	u8 *b = fz->work;

	while (rounds--) {
		pos = fuzz_rand(fz, len);
		switch (fuzz_rand(fz, 9)) {
		case 0:		/* flip a bit */
			if (len)
				b[pos] ^= BIT(fuzz_rand(fz, 8));
			break;
		case 1:		/* a random byte */
			if (len)
				b[pos] = prandom_u32_state(&fz->rnd);
			break;
		case 2:		/* a boundary byte */
			if (len)
				b[pos] = fuzz_boundary[fuzz_rand(fz, ARRAY_SIZE(fuzz_boundary))];
			break;
		case 3:		/* truncate */
			len = pos;
			break;
		case 4:		/* grow with random bytes */
			n = min(1 + fuzz_rand(fz, 16), FUZZ_CAP - len);
			prandom_bytes_state(&fz->rnd, b + len, n);
			len += n;
			break;
		case 5:		/* copy a chunk over another place */
			if (!len)
				break;
			src = fuzz_rand(fz, len);
			n = min(1 + fuzz_rand(fz, 32), min(len - src, len - pos));
			memmove(b + pos, b + src, n);
			break;
		case 6:		/* delete a chunk */
			n = min(1 + fuzz_rand(fz, 8), len - pos);
			memmove(b + pos, b + pos + n, len - pos - n);
			len -= n;
			break;
		case 7:		/* an 8-byte varint of a huge value */
			if (len >= 8 && pos <= len - 8) {
				prandom_bytes_state(&fz->rnd, b + pos, 8);
				b[pos] |= 0xc0;
			}
			break;
		default:	/* a length byte made bigger than what follows */
			if (len)
				b[pos] = 0x3f - fuzz_rand(fz, 4);
			break;
		}
	}
	return len;
}

/* The input, copied so that it ends exactly at the end of @fz->tail. */
static const u8 *fuzz_place(struct fuzz_ctx *fz, u32 len)
{
	u8 *in = fz->tail + FUZZ_CAP - len;

	memcpy(in, fz->work, len);
	return in;
}

static bool fuzz_inside(const u8 *in, u32 len, const u8 *p, u64 n)
{
	return p >= in && p <= in + len && n <= (u64)(in + len - p);
}

static void fuzz_report(struct fuzz_ctx *fz, const char *what, const u8 *in, u32 len, int err)
{
	if (fz->failed)
		return;
	fz->failed = true;
	KUNIT_FAIL(fz->test, "%s: iteration %u, err %d, input %*ph", what, fz->iters, err,
		   min(len, 64U), in);
}

static void fuzz_summary(struct fuzz_ctx *fz, const char *name, ktime_t start)
{
	kunit_info(fz->test, "%s: %u inputs, %u decoded, errors %u/%u/%u/%u, %lld ms, seed %#llx\n",
		   name, fz->iters, fz->ok, fz->errs[0], fz->errs[1], fz->errs[2], fz->errs[3],
		   ktime_ms_delta(ktime_get(), start), FUZZ_SEED);
}

static const u8 *fuzz_frame_ptr(const struct quic_frame *f, u64 *n)
{
	switch (f->type) {
	case QUIC_FRAME_ACK:
	case QUIC_FRAME_ACK_ECN:
		*n = f->ack.raw_len;
		return f->ack.raw;
	case QUIC_FRAME_CONNECTION_CLOSE:
	case QUIC_FRAME_CONNECTION_CLOSE_APP:
		*n = f->close.phrase_len;
		return f->close.phrase;
	case QUIC_FRAME_CRYPTO:
	case QUIC_FRAME_NEW_TOKEN:
	case QUIC_FRAME_DATAGRAM:
	case QUIC_FRAME_DATAGRAM_LEN:
		*n = f->data.len;
		return f->data.data;
	default:
		if (f->type >= QUIC_FRAME_STREAM && f->type < QUIC_FRAME_STREAM + 8) {
			*n = f->data.len;
			return f->data.data;
		}
		return NULL;
	}
}

/*
 * Re-encode a decoded frame: never longer than what was consumed, decodes
 * again under the same context, and encodes again to the same bytes.
 */
static void fuzz_frame_reencode(struct fuzz_ctx *fz, const struct quic_frame_ctx *ctx,
				const struct quic_frame *f, u32 used, const u8 *in, u32 len)
{
	struct quic_frame g;
	u32 n, left, n2;
	const u8 *q;
	u8 *o;
	int err;

	err = quic_frame_len(f);
	if (err <= 0 || (u32)err > used)
		return fuzz_report(fz, "frame length", in, len, err);
	n = err;
	o = fz->out;
	left = FUZZ_CAP;
	err = quic_frame_encode(&o, &left, f);
	if (err || o - fz->out != n)
		return fuzz_report(fz, "frame re-encode", in, len, err);

	q = fz->out;
	left = n;
	err = quic_frame_decode(&q, &left, ctx, &g);
	if (err || left || g.type != f->type)
		return fuzz_report(fz, "frame re-decode", fz->out, n, err);
	o = fz->out2;
	left = FUZZ_CAP;
	err = quic_frame_encode(&o, &left, &g);
	n2 = o - fz->out2;
	if (err || n2 != n || memcmp(fz->out, fz->out2, n))
		return fuzz_report(fz, "frame fixed point", fz->out, n, err);
}

static void fuzz_frames_one(struct fuzz_ctx *fz, const u8 *in, u32 len)
{
	static const u32 dgram[] = { 0, 5, 1200 };
	struct quic_frame_ctx ctx = {
		.level = fuzz_rand(fz, QUIC_CRYPTO_MAX),
		.is_serv = fuzz_rand(fz, 2),
		.max_datagram = dgram[fuzz_rand(fz, ARRAY_SIZE(dgram))],
	};
	const u8 *p = in, *start, *ptr;
	struct quic_frame f;
	u32 left = len, used;
	u64 n;
	int err;

	while (left && !fz->failed) {
		start = p;
		err = quic_frame_decode(&p, &left, &ctx, &f);
		if (err) {
			if ((err != -EBADMSG && err != -EPROTO && err != -EPIPE) || p != start ||
			    quic_frame_transport_error(err) == QUIC_TRANSPORT_ERROR_INTERNAL)
				fuzz_report(fz, "frame error", in, len, err);
			fz->errs[err == -EBADMSG ? 0 : err == -EPROTO ? 1 : 2]++;
			return;
		}
		fz->ok++;
		used = p - start;
		if (!used || p > in + len || left != len - (p - in))
			return fuzz_report(fz, "frame cursor", in, len, 0);
		/* Everything a frame points at lies inside the frame itself. */
		ptr = fuzz_frame_ptr(&f, &n);
		if (!quic_frame_allowed(f.type, ctx.level) ||
		    (ptr && !fuzz_inside(start, used, ptr, n)))
			return fuzz_report(fz, "frame fields", start, used, 0);
		fuzz_frame_reencode(fz, &ctx, &f, used, start, used);
	}
}

static void fuzz_frame_decoder(struct kunit *test)
{
	struct fuzz_ctx *fz = fuzz_ctx_new(test);
	ktime_t start = ktime_get();
	u32 len, k, pick;

	for (fz->iters = 0; fz->iters < FUZZ_FRAME_ITERS && !fz->failed; fz->iters++) {
		/* One to four seed frames, then mutations. */
		len = 0;
		for (k = 1 + fuzz_rand(fz, 4); k; k--) {
			pick = fuzz_rand(fz, ARRAY_SIZE(fuzz_frames));
			len = fuzz_append(fz, len, fuzz_frames[pick].data, fuzz_frames[pick].len);
		}
		len = fuzz_mutate(fz, len);
		fuzz_frames_one(fz, fuzz_place(fz, len), len);
		if (!(fz->iters % 1024))
			cond_resched();
	}
	fuzz_summary(fz, "frames", start);
	KUNIT_EXPECT_FALSE(test, fz->failed);
	KUNIT_EXPECT_GT(test, fz->ok, FUZZ_FRAME_ITERS / 4);
}

static void fuzz_params_one(struct fuzz_ctx *fz, struct sock *sk, bool is_serv, const u8 *in,
			    u32 len, struct quic_params *p, struct quic_params *q)
{
	u32 left;
	u8 *o;
	int err;

	err = quic_param_decode(sk, is_serv, in, len, p);
	if (err) {
		if (err != -EINVAL)
			fuzz_report(fz, "param error", in, len, err);
		fz->errs[0]++;
		return;
	}
	fz->ok++;
	if (quic_param_validate(&p->tp) || p->orig_dcid.len > QUIC_CONN_ID_MAX_LEN ||
	    p->init_scid.len > QUIC_CONN_ID_MAX_LEN || p->retry_scid.len > QUIC_CONN_ID_MAX_LEN ||
	    p->vi.count > QUIC_PARAM_MAX_VERSIONS)
		return fuzz_report(fz, "param fields", in, len, 0);

	/* A preferred address of no usable family cannot be sent back. */
	if ((p->present & QUIC_PARAM_HAS_PREF_ADDR) && !p->pref.addr.sa.sa_family)
		return;
	o = fz->out;
	left = FUZZ_CAP;
	err = quic_param_encode(sk, !is_serv, p, &o, &left);
	if (err)
		return fuzz_report(fz, "param re-encode", in, len, err);
	/* A version list cut to QUIC_PARAM_MAX_VERSIONS may lose the Chosen one. */
	if (p->vi.count == QUIC_PARAM_MAX_VERSIONS)
		return;
	err = quic_param_decode(sk, is_serv, fz->out, o - fz->out, q);
	if (err || memcmp(&p->tp, &q->tp, sizeof(p->tp)) || p->present != q->present)
		return fuzz_report(fz, "param re-decode", fz->out, o - fz->out, err);
}

static void fuzz_param_decoder(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET6, SOCK_DGRAM)->sk;
	struct quic_params *p, *q;
	struct fuzz_ctx *fz;
	ktime_t start;
	u32 len, k;

	fz = fuzz_ctx_new(test);
	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, q);
	start = ktime_get();
	for (fz->iters = 0; fz->iters < FUZZ_PARAM_ITERS && !fz->failed; fz->iters++) {
		k = fuzz_rand(fz, ARRAY_SIZE(fuzz_params));
		len = fuzz_append(fz, 0, fuzz_params[k].data, fuzz_params[k].len);
		len = fuzz_mutate(fz, len);
		/* Each seed is decoded by the role it was written for (a server
		 * receives the ClientHello list): a wrong role is refused for
		 * missing or forbidden parameters before anything is mutated,
		 * and quic_param already covers that.
		 */
		fuzz_params_one(fz, fuzz_rand(fz, 2) ? sk : NULL, k == 0, fuzz_place(fz, len), len,
				p, q);
		if (!(fz->iters % 1024))
			cond_resched();
	}
	fuzz_summary(fz, "transport parameters", start);
	KUNIT_EXPECT_FALSE(test, fz->failed);
	KUNIT_EXPECT_GT(test, fz->ok, FUZZ_PARAM_ITERS / 10);
}

/* Header rebuilt from its parsed fields, then the original payload. */
static void fuzz_packet_rebuild(struct fuzz_ctx *fz, const struct quic_packet_hdr *hdr,
				const u8 *pkt, u8 dcid_len, bool grease)
{
	struct quic_packet_hdr g;
	u32 left = FUZZ_CAP, n;
	u8 *o = fz->out;
	const u8 *q;
	int err;

	err = quic_packet_build(&o, &left, hdr);
	if (err)
		return fuzz_report(fz, "packet rebuild", pkt, hdr->len, err);
	if (hdr->type == QUIC_PACKET_RETRY) {
		/* Nothing in a Retry is re-encoded differently. */
		if (o - fz->out != hdr->len || memcmp(fz->out, pkt, hdr->len))
			fuzz_report(fz, "retry rebuild", pkt, hdr->len, 0);
		return;
	}
	n = hdr->len - hdr->pn_offset - hdr->pn_len;
	if (n > left)
		return fuzz_report(fz, "packet payload", pkt, hdr->len, 0);
	memcpy(o, pkt + hdr->pn_offset + hdr->pn_len, n);
	n += o - fz->out;

	q = fz->out;
	left = n;
	err = quic_packet_parse(&q, &left, dcid_len, grease, &g);
	if (err || left || g.type != hdr->type || g.version != hdr->version ||
	    !quic_conn_id_equal(&g.dcid, &hdr->dcid) || !quic_conn_id_equal(&g.scid, &hdr->scid) ||
	    g.token_len != hdr->token_len || g.length != hdr->length || g.pn != hdr->pn ||
	    g.pn_len != hdr->pn_len || g.fixed != hdr->fixed || g.spin != hdr->spin ||
	    g.key_phase != hdr->key_phase ||
	    (g.token_len && memcmp(g.token, hdr->token, g.token_len)))
		fuzz_report(fz, "packet re-parse", fz->out, n, err);
}

static void fuzz_packets_one(struct fuzz_ctx *fz, const u8 *in, u32 len)
{
	u8 dcid_len = fuzz_rand(fz, 3) ? 2 : fuzz_rand(fz, 22);
	struct quic_packet_invariant inv;
	bool grease = fuzz_rand(fz, 2);
	struct quic_packet_hdr hdr;
	u32 left = len, versions[2];
	const u8 *p = in, *pkt;
	int err;

	err = quic_packet_parse_vn(in, len, &inv, versions, ARRAY_SIZE(versions));
	if (err == 0 || (err < 0 && err != -EINVAL) ||
	    (err > 0 && inv.rest_len != err * QUIC_VERSION_LEN))
		return fuzz_report(fz, "version negotiation", in, len, err);

	while (left && !fz->failed) {
		pkt = p;
		err = quic_packet_parse(&p, &left, dcid_len, grease, &hdr);
		if (err) {
			if ((err != -EINVAL && err != -EPROTONOSUPPORT) || p != pkt ||
			    (err == -EPROTONOSUPPORT && quic_packet_peek(p, left, dcid_len, &inv)))
				fuzz_report(fz, "packet error", in, len, err);
			fz->errs[err == -EINVAL ? 0 : 1]++;
			return;
		}
		fz->ok++;
		if (!hdr.len || p != pkt + hdr.len || hdr.dcid.len > QUIC_CONN_ID_MAX_LEN ||
		    hdr.scid.len > QUIC_CONN_ID_MAX_LEN ||
		    (hdr.token_len && !fuzz_inside(pkt, hdr.len, hdr.token, hdr.token_len)) ||
		    (hdr.tag && !fuzz_inside(pkt, hdr.len, hdr.tag, QUIC_RETRY_TAG_LEN)) ||
		    (hdr.type != QUIC_PACKET_RETRY &&
		     (hdr.pn_len < 1 || hdr.pn_len > 4 || hdr.pn_offset + hdr.pn_len > hdr.len)))
			return fuzz_report(fz, "packet fields", in, len, 0);
		fuzz_packet_rebuild(fz, &hdr, pkt, dcid_len, grease);
	}
}

static u32 fuzz_packet_seed(struct fuzz_ctx *fz, u32 k)
{
	u32 len = fuzz_append(fz, 0, fuzz_headers[k].data, fuzz_headers[k].len);

	memset(fz->work + len, 0, fuzz_packet_lens[k] - len);
	return fuzz_packet_lens[k];
}

static void fuzz_packet_decoder(struct kunit *test)
{
	struct fuzz_ctx *fz = fuzz_ctx_new(test);
	ktime_t start = ktime_get();
	u32 len, k, extra;

	BUILD_BUG_ON(ARRAY_SIZE(fuzz_headers) != ARRAY_SIZE(fuzz_packet_lens));
	for (fz->iters = 0; fz->iters < FUZZ_PACKET_ITERS && !fz->failed; fz->iters++) {
		k = fuzz_rand(fz, ARRAY_SIZE(fuzz_headers));
		len = fuzz_packet_seed(fz, k);
		/* Sometimes a second packet coalesced behind the first. */
		if (fuzz_rand(fz, 4) == 0) {
			extra = fuzz_rand(fz, ARRAY_SIZE(fuzz_headers));
			if (len + fuzz_packet_lens[extra] <= FUZZ_CAP) {
				memmove(fz->work + fuzz_packet_lens[extra], fz->work, len);
				len += fuzz_packet_seed(fz, extra);
			}
		}
		len = fuzz_mutate(fz, len);
		fuzz_packets_one(fz, fuzz_place(fz, len), len);
		if (!(fz->iters % 1024))
			cond_resched();
	}
	fuzz_summary(fz, "packets", start);
	KUNIT_EXPECT_FALSE(test, fz->failed);
	KUNIT_EXPECT_GT(test, fz->ok, FUZZ_PACKET_ITERS / 4);
}

static struct kunit_case fuzz_cases[] = {
	KUNIT_CASE_SLOW(fuzz_frame_decoder),
	KUNIT_CASE_SLOW(fuzz_param_decoder),
	KUNIT_CASE_SLOW(fuzz_packet_decoder),
	{}
};

static struct kunit_suite fuzz_suite = {
	.name = "quic_fuzz",
	.test_cases = fuzz_cases,
};

kunit_test_suite(fuzz_suite);
