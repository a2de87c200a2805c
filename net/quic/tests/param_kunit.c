// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_param: transport parameters, their codec and their rules
 * (RFC 9000 Sections 7.3, 7.4 and 18, RFC 9221 Section 3, RFC 9287 Section
 * 3, RFC 9368 Sections 3 and 4).
 *
 * The reference vector is the quic_transport_parameters extension inside
 * the ClientHello of RFC 9001 Appendix A.2. Other wire bytes were written
 * by hand: each parameter is ID, Length, Value with the varint encoding of
 * RFC 9000 Section 16, as noted next to it.
 */

#include <kunit/test.h>
#include <linux/slab.h>

#include "../param.h"
#include "util.h"

#define PARAM_SERVER	true
#define PARAM_CLIENT	false

#define PARAM_ODCID	QUIC_TRANSPORT_PARAM_ORIGINAL_DESTINATION_CONNECTION_ID
#define PARAM_INIT_SCID	QUIC_TRANSPORT_PARAM_INITIAL_SOURCE_CONNECTION_ID

#define W(...)	{ (const u8[]){ __VA_ARGS__ }, sizeof((const u8[]){ __VA_ARGS__ }) }

/*
 * RFC 9001 Appendix A.2: extension 0x0039 of the ClientHello, 0x32 = 50
 * bytes: initial_max_data 2^62 - 1, initial_max_stream_data_bidi_local
 * 0xffff, initial_max_stream_data_uni 0xffff, initial_max_streams_bidi 16,
 * max_idle_timeout 30000 ms, initial_max_streams_uni 16,
 * initial_source_connection_id 8394c8f03e515708,
 * initial_max_stream_data_bidi_remote 0xffff.
 */
static const u8 param_a2[] = {
	0x04, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x05, 0x04, 0x80, 0x00, 0xff, 0xff,
	0x07, 0x04, 0x80, 0x00, 0xff, 0xff,
	0x08, 0x01, 0x10,
	0x01, 0x04, 0x80, 0x00, 0x75, 0x30,
	0x09, 0x01, 0x10,
	0x0f, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08,
	0x06, 0x04, 0x80, 0x00, 0xff, 0xff,
};

/* The same parameters as our encoder writes them: in ascending ID order. */
static const u8 param_a2_sorted[] = {
	0x01, 0x04, 0x80, 0x00, 0x75, 0x30,
	0x04, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x05, 0x04, 0x80, 0x00, 0xff, 0xff,
	0x06, 0x04, 0x80, 0x00, 0xff, 0xff,
	0x07, 0x04, 0x80, 0x00, 0xff, 0xff,
	0x08, 0x01, 0x10,
	0x09, 0x01, 0x10,
	0x0f, 0x08, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08,
};

static const u8 param_a2_cid[] = { 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08 };

static struct quic_params *param_new(struct kunit *test)
{
	struct quic_params *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	return p;
}

static struct sock *param_sock(struct kunit *test, int family)
{
	return quic_kunit_socket(test, family, SOCK_DGRAM)->sk;
}

static int param_decode_copy(struct kunit *test, bool is_serv, const u8 *data, u32 len,
			     struct quic_params *p)
{
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);
	int err;

	/* An exact-size copy: KASAN reports any read past @len. */
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	memcpy(buf, data, len);
	err = quic_param_decode(NULL, is_serv, buf, len, p);
	kunit_kfree(test, buf);
	return err;
}

/*
 * RFC 9000 Sections 7.3 and 18.2: every list must carry
 * initial_source_connection_id, a server's original_destination_connection_id
 * too. Cases about other rules prepend these (0f 01 aa and 00 01 bb) unless
 * the list under test has them, so that only the rule under test can fail.
 */
static const u8 param_need_orig_dcid[] = { 0x00, 0x01, 0xbb };
static const u8 param_need_init_scid[] = { 0x0f, 0x01, 0xaa };

static bool param_has_id(const u8 *data, u32 len, u64 want)
{
	u64 id, vlen;

	while (len) {
		if (quic_get_var(&data, &len, &id) || quic_get_var(&data, &len, &vlen) ||
		    vlen > len)
			return false;
		if (id == want)
			return true;
		data += vlen;
		len -= vlen;
	}
	return false;
}

static int param_decode_complete(struct kunit *test, bool is_serv, const u8 *data, u32 len,
				 struct quic_params *p)
{
	u8 *buf = kunit_kmalloc(test, len + 6, GFP_KERNEL);
	u32 n = 0;
	int err;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	if (!is_serv && !param_has_id(data, len, PARAM_ODCID)) {
		memcpy(buf + n, param_need_orig_dcid, sizeof(param_need_orig_dcid));
		n += sizeof(param_need_orig_dcid);
	}
	if (!param_has_id(data, len, PARAM_INIT_SCID)) {
		memcpy(buf + n, param_need_init_scid, sizeof(param_need_init_scid));
		n += sizeof(param_need_init_scid);
	}
	memcpy(buf + n, data, len);
	err = param_decode_copy(test, is_serv, buf, n + len, p);
	kunit_kfree(test, buf);
	return err;
}

static void param_decodes_rfc9001_client_hello_params(struct kunit *test)
{
	struct quic_params *p = param_new(test);
	struct quic_transport_param *tp = &p->tp;

	KUNIT_ASSERT_EQ(test, sizeof(param_a2), 50U);
	KUNIT_ASSERT_EQ(test, param_decode_copy(test, PARAM_SERVER, param_a2, sizeof(param_a2), p),
			0);

	KUNIT_EXPECT_EQ(test, tp->max_data, QUIC_VARINT_MAX);
	KUNIT_EXPECT_EQ(test, tp->max_stream_data_bidi_local, 0xffffULL);
	KUNIT_EXPECT_EQ(test, tp->max_stream_data_bidi_remote, 0xffffULL);
	KUNIT_EXPECT_EQ(test, tp->max_stream_data_uni, 0xffffULL);
	KUNIT_EXPECT_EQ(test, tp->max_streams_bidi, 16);
	KUNIT_EXPECT_EQ(test, tp->max_streams_uni, 16);
	KUNIT_EXPECT_EQ(test, tp->max_idle_timeout, 30000U * 1000);	/* microseconds */
	KUNIT_EXPECT_TRUE(test, p->present & QUIC_PARAM_HAS_INIT_SCID);
	KUNIT_EXPECT_EQ(test, p->init_scid.len, 8);
	KUNIT_EXPECT_MEMEQ(test, p->init_scid.data, param_a2_cid, sizeof(param_a2_cid));

	/* Absent: RFC 9000 Section 18.2 defaults. */
	KUNIT_EXPECT_EQ(test, tp->remote, 1);
	KUNIT_EXPECT_EQ(test, tp->max_udp_payload_size, 65527);
	KUNIT_EXPECT_EQ(test, tp->ack_delay_exponent, 3);
	KUNIT_EXPECT_EQ(test, tp->max_ack_delay, 25000U);
	KUNIT_EXPECT_EQ(test, tp->active_connection_id_limit, 2);
	KUNIT_EXPECT_EQ(test, tp->max_datagram_frame_size, 0);
	KUNIT_EXPECT_EQ(test, tp->stateless_reset, 0);
	KUNIT_EXPECT_EQ(test, tp->disable_compatible_version, 1);
	KUNIT_EXPECT_EQ(test, p->present, (u32)QUIC_PARAM_HAS_INIT_SCID);
}

static void param_encodes_rfc9001_client_hello_params_in_id_order(struct kunit *test)
{
	struct quic_params *p = param_new(test);
	u8 out[64], *o = out;
	u32 left = sizeof(out);

	KUNIT_ASSERT_EQ(test, param_decode_copy(test, PARAM_SERVER, param_a2, sizeof(param_a2), p),
			0);
	KUNIT_ASSERT_EQ(test, quic_param_encode(NULL, PARAM_CLIENT, p, &o, &left), 0);
	KUNIT_ASSERT_EQ(test, (u32)(o - out), (u32)sizeof(param_a2_sorted));
	KUNIT_EXPECT_MEMEQ(test, out, param_a2_sorted, sizeof(param_a2_sorted));
}

static void param_defaults_when_absent(struct kunit *test)
{
	/* Only the mandatory initial_source_connection_id, empty (Section 7.3). */
	static const u8 wire[] = { 0x0f, 0x00 };
	struct quic_params *p = param_new(test), *init = param_new(test);
	u8 out[8], *o = out;
	u32 left = sizeof(out);

	KUNIT_ASSERT_EQ(test, param_decode_copy(test, PARAM_SERVER, wire, sizeof(wire), p), 0);
	quic_param_init(init);
	init->tp.remote = 1;
	KUNIT_EXPECT_MEMEQ(test, &p->tp, &init->tp, sizeof(init->tp));
	KUNIT_EXPECT_EQ(test, p->present, (u32)QUIC_PARAM_HAS_INIT_SCID);
	KUNIT_EXPECT_EQ(test, p->init_scid.len, 0);

	/* Defaults are left out when encoding: nothing at all to write. */
	KUNIT_ASSERT_EQ(test, quic_param_encode(NULL, PARAM_SERVER, init, &o, &left), 0);
	KUNIT_EXPECT_EQ(test, left, (u32)sizeof(out));
}

/*
 * Every kind of parameter, hand-encoded, in ascending ID order:
 *   0a 01 02        ack_delay_exponent 2
 *   0b 01 1e        max_ack_delay 30 ms
 *   0c 00           disable_active_migration
 *   0e 01 04        active_connection_id_limit 4
 *   0f 02 aa bb     initial_source_connection_id aabb
 *   11 0c ...       version_information: chosen v1, available v2, v1
 *   20 04 8000ffff  max_datagram_frame_size 65535
 *   6ab2 00         grease_quic_bit (0x2ab2 as a 2-byte varint)
 *   8000baad 00     disable_1rtt_encryption (0xbaad as a 4-byte varint)
 */
static const u8 param_client_wire[] = {
	0x0a, 0x01, 0x02,
	0x0b, 0x01, 0x1e,
	0x0c, 0x00,
	0x0e, 0x01, 0x04,
	0x0f, 0x02, 0xaa, 0xbb,
	0x11, 0x0c, 0x00, 0x00, 0x00, 0x01, 0x6b, 0x33, 0x43, 0xcf, 0x00, 0x00, 0x00, 0x01,
	0x20, 0x04, 0x80, 0x00, 0xff, 0xff,
	0x6a, 0xb2, 0x00,
	0x80, 0x00, 0xba, 0xad, 0x00,
};

static void param_fill_client(struct quic_params *p)
{
	struct quic_transport_param *tp = &p->tp;

	quic_param_init(p);
	tp->ack_delay_exponent = 2;
	tp->max_ack_delay = 30000;
	tp->disable_active_migration = 1;
	tp->active_connection_id_limit = 4;
	p->present = QUIC_PARAM_HAS_INIT_SCID;
	p->init_scid.len = 2;
	p->init_scid.data[0] = 0xaa;
	p->init_scid.data[1] = 0xbb;
	tp->disable_compatible_version = 0;
	p->vi.chosen = QUIC_VERSION_V1;
	p->vi.count = 2;
	p->vi.available[0] = QUIC_VERSION_V2;
	p->vi.available[1] = QUIC_VERSION_V1;
	tp->max_datagram_frame_size = 65535;
	tp->grease_quic_bit = 1;
	tp->disable_1rtt_encryption = 1;
}

static void param_encodes_every_kind_exactly(struct kunit *test)
{
	struct quic_params *p = param_new(test), *got = param_new(test);
	u8 out[64], *o = out;
	u32 left = sizeof(out);

	param_fill_client(p);
	KUNIT_ASSERT_EQ(test, quic_param_encode(NULL, PARAM_CLIENT, p, &o, &left), 0);
	KUNIT_ASSERT_EQ(test, (u32)(o - out), (u32)sizeof(param_client_wire));
	KUNIT_EXPECT_MEMEQ(test, out, param_client_wire, sizeof(param_client_wire));

	KUNIT_ASSERT_EQ(test, param_decode_copy(test, PARAM_SERVER, out, o - out, got), 0);
	p->tp.remote = 1;
	KUNIT_EXPECT_MEMEQ(test, &got->tp, &p->tp, sizeof(p->tp));
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&got->init_scid, &p->init_scid));
	KUNIT_EXPECT_EQ(test, got->vi.chosen, QUIC_VERSION_V1);
	KUNIT_EXPECT_EQ(test, got->vi.count, 2U);
	KUNIT_EXPECT_MEMEQ(test, got->vi.available, p->vi.available, 2 * sizeof(u32));
}

static const u8 param_token[QUIC_FRAME_TOKEN_LEN] = {
	0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
	0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
};

/* A server announcing everything, none of it at its default. */
static void param_fill_server(struct quic_params *p, const union quic_addr *pref)
{
	struct quic_transport_param *tp = &p->tp;
	u32 i;

	quic_param_init(p);
	tp->max_idle_timeout = 30 * USEC_PER_SEC;
	tp->max_udp_payload_size = 1452;
	tp->max_data = 1 << 20;
	tp->max_stream_data_bidi_local = 65536;
	tp->max_stream_data_bidi_remote = 65535;
	tp->max_stream_data_uni = 4096;
	tp->max_streams_bidi = 100;
	tp->max_streams_uni = 3;
	tp->ack_delay_exponent = 4;
	tp->max_ack_delay = 20000;
	tp->disable_active_migration = 1;
	tp->active_connection_id_limit = 8;
	tp->max_datagram_frame_size = 1200;
	tp->grease_quic_bit = 1;
	tp->stateless_reset = 1;
	memcpy(p->reset_token, param_token, sizeof(param_token));

	p->present = QUIC_PARAM_HAS_ORIG_DCID | QUIC_PARAM_HAS_INIT_SCID |
		     QUIC_PARAM_HAS_RETRY_SCID | QUIC_PARAM_HAS_PREF_ADDR;
	quic_conn_id_set(&p->orig_dcid, param_a2_cid, sizeof(param_a2_cid));
	quic_conn_id_set(&p->init_scid, param_token, 5);
	p->retry_scid.len = QUIC_CONN_ID_MAX_LEN;
	for (i = 0; i < QUIC_CONN_ID_MAX_LEN; i++)
		p->retry_scid.data[i] = i;
	p->pref.addr = *pref;
	quic_conn_id_set(&p->pref.cid, param_token + 8, 4);
	memcpy(p->pref.token, param_token, sizeof(param_token));

	tp->disable_compatible_version = 0;
	p->vi.chosen = QUIC_VERSION_V2;
	p->vi.count = 2;
	p->vi.available[0] = QUIC_VERSION_V2;
	p->vi.available[1] = QUIC_VERSION_V1;
}

static void param_expect_same(struct kunit *test, const struct quic_params *got,
			      const struct quic_params *exp)
{
	struct quic_transport_param tp = exp->tp;

	tp.remote = 1;
	KUNIT_EXPECT_MEMEQ(test, &got->tp, &tp, sizeof(tp));
	KUNIT_EXPECT_EQ(test, got->present, exp->present);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&got->orig_dcid, &exp->orig_dcid));
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&got->init_scid, &exp->init_scid));
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&got->retry_scid, &exp->retry_scid));
	KUNIT_EXPECT_MEMEQ(test, got->reset_token, exp->reset_token, QUIC_FRAME_TOKEN_LEN);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&got->pref.cid, &exp->pref.cid));
	KUNIT_EXPECT_MEMEQ(test, got->pref.token, exp->pref.token, QUIC_FRAME_TOKEN_LEN);
	KUNIT_EXPECT_EQ(test, got->vi.chosen, exp->vi.chosen);
	KUNIT_EXPECT_EQ(test, got->vi.count, exp->vi.count);
	KUNIT_EXPECT_MEMEQ(test, got->vi.available, exp->vi.available,
			   exp->vi.count * sizeof(u32));
}

static void param_round_trip_server_ipv4(struct kunit *test)
{
	struct quic_params *p = param_new(test), *got = param_new(test);
	struct sock *sk = param_sock(test, AF_INET);
	union quic_addr pref;
	u8 out[256], *o = out;
	u32 left = sizeof(out);

	quic_kunit_addr4(&pref, "192.0.2.1", 4433);
	param_fill_server(p, &pref);
	KUNIT_ASSERT_EQ(test, quic_param_encode(sk, PARAM_SERVER, p, &o, &left), 0);
	KUNIT_ASSERT_EQ(test, quic_param_decode(sk, PARAM_CLIENT, out, o - out, got), 0);
	param_expect_same(test, got, p);
	KUNIT_EXPECT_EQ(test, got->pref.addr.sa.sa_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohs(got->pref.addr.v4.sin_port), 4433);
	KUNIT_EXPECT_MEMEQ(test, &got->pref.addr.v4.sin_addr, &pref.v4.sin_addr,
			   sizeof(struct in_addr));
}

static void param_round_trip_server_ipv6(struct kunit *test)
{
	struct quic_params *p = param_new(test), *got = param_new(test);
	struct sock *sk = param_sock(test, AF_INET6);
	union quic_addr pref;
	u8 out[256], *o = out;
	u32 left = sizeof(out);

	quic_kunit_addr6(&pref, "2001:db8::1", 443);
	param_fill_server(p, &pref);
	KUNIT_ASSERT_EQ(test, quic_param_encode(sk, PARAM_SERVER, p, &o, &left), 0);
	KUNIT_ASSERT_EQ(test, quic_param_decode(sk, PARAM_CLIENT, out, o - out, got), 0);
	param_expect_same(test, got, p);
	KUNIT_EXPECT_EQ(test, got->pref.addr.sa.sa_family, AF_INET6);
	KUNIT_EXPECT_EQ(test, ntohs(got->pref.addr.v6.sin6_port), 443);
	KUNIT_EXPECT_MEMEQ(test, &got->pref.addr.v6.sin6_addr, &pref.v6.sin6_addr,
			   sizeof(struct in6_addr));
}

/*
 * preferred_address of 192.0.2.1:4433 with CID f8f9fafb (RFC 9000 Section
 * 18.2 figure 22): 0d, Length 24 + 1 + 4 + 16 = 45 (0x2d), c0000201 1151,
 * 16 zero bytes and port 0 for IPv6, 04 f8f9fafb, then the token.
 */
static void param_encodes_preferred_address_layout(struct kunit *test)
{
	static const u8 head[] = { 0x0d, 0x2d, 0xc0, 0x00, 0x02, 0x01, 0x11, 0x51 };
	static const u8 cid[] = { 0x04, 0xf8, 0xf9, 0xfa, 0xfb };
	struct quic_params *p = param_new(test);
	struct sock *sk = param_sock(test, AF_INET);
	static const u8 zero[18];
	u8 out[64], *o = out;
	u32 left = sizeof(out);

	quic_param_init(p);
	p->present = QUIC_PARAM_HAS_PREF_ADDR;
	quic_kunit_addr4(&p->pref.addr, "192.0.2.1", 4433);
	quic_conn_id_set(&p->pref.cid, param_token + 8, 4);
	memcpy(p->pref.token, param_token, sizeof(param_token));
	KUNIT_ASSERT_EQ(test, quic_param_encode(sk, PARAM_SERVER, p, &o, &left), 0);
	KUNIT_ASSERT_EQ(test, (u32)(o - out), 2U + 45);
	KUNIT_EXPECT_MEMEQ(test, out, head, sizeof(head));
	KUNIT_EXPECT_MEMEQ(test, out + 8, zero, sizeof(zero));
	KUNIT_EXPECT_MEMEQ(test, out + 26, cid, sizeof(cid));
	KUNIT_EXPECT_MEMEQ(test, out + 31, param_token, sizeof(param_token));
}

/**
 * struct param_one - the smallest valid instance of one known parameter
 * @id: its ID
 * @wire: ID, Length and Value
 * @len: length of @wire
 */
struct param_one {
	u64 id;
	struct {
		const u8 *wire;
		u32 len;
	};
};

static const struct param_one param_ones[] = {
	{ 0x00, W(0x00, 0x01, 0xaa) },
	{ 0x01, W(0x01, 0x01, 0x05) },
	{ 0x02, W(0x02, 0x10, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) },
	{ 0x03, W(0x03, 0x02, 0x44, 0xb0) },	/* 1200 */
	{ 0x04, W(0x04, 0x01, 0x01) },
	{ 0x05, W(0x05, 0x01, 0x01) },
	{ 0x06, W(0x06, 0x01, 0x01) },
	{ 0x07, W(0x07, 0x01, 0x01) },
	{ 0x08, W(0x08, 0x01, 0x01) },
	{ 0x09, W(0x09, 0x01, 0x01) },
	{ 0x0a, W(0x0a, 0x01, 0x02) },
	{ 0x0b, W(0x0b, 0x01, 0x05) },
	{ 0x0c, W(0x0c, 0x00) },
	{ 0x0d, W(0x0d, 0x2d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		  0, 0, 0x04, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) },
	{ 0x0e, W(0x0e, 0x01, 0x03) },
	{ 0x0f, W(0x0f, 0x01, 0xaa) },
	{ 0x10, W(0x10, 0x01, 0xaa) },
	{ 0x11, W(0x11, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01) },
	{ 0x20, W(0x20, 0x01, 0x10) },
	{ 0x2ab2, W(0x6a, 0xb2, 0x00) },
	{ 0xbaad, W(0x80, 0x00, 0xba, 0xad, 0x00) },
};

static bool param_server_only(u64 id)
{
	return id == 0x00 || id == 0x02 || id == 0x0d || id == 0x10;
}

/* RFC 9000 Section 7.4: a parameter sent twice is TRANSPORT_PARAMETER_ERROR. */
static void param_decode_rejects_duplicates(struct kunit *test)
{
	struct quic_params *p = param_new(test);
	bool is_serv;
	u8 buf[128];
	u32 i, n;

	for (i = 0; i < ARRAY_SIZE(param_ones); i++) {
		n = param_ones[i].len;
		/* Server-only parameters come from a server: decode as a client. */
		is_serv = !param_server_only(param_ones[i].id);
		KUNIT_EXPECT_EQ_MSG(test, param_decode_complete(test, is_serv, param_ones[i].wire,
								n, p),
				    0, "id %#llx once", param_ones[i].id);
		memcpy(buf, param_ones[i].wire, n);
		memcpy(buf + n, param_ones[i].wire, n);
		KUNIT_EXPECT_EQ_MSG(test, param_decode_complete(test, is_serv, buf, 2 * n, p),
				    -EINVAL, "id %#llx twice", param_ones[i].id);
	}
}

/*
 * RFC 9000 Section 18.2: "A client MUST NOT include any server-only
 * transport parameter: original_destination_connection_id,
 * preferred_address, retry_source_connection_id, or stateless_reset_token."
 * Each is accepted from a server and refused from a client.
 */
static void param_decode_rejects_server_only_from_client(struct kunit *test)
{
	struct quic_params *p = param_new(test);
	u32 i, n = 0;

	for (i = 0; i < ARRAY_SIZE(param_ones); i++) {
		if (!param_server_only(param_ones[i].id))
			continue;
		n++;
		KUNIT_EXPECT_EQ_MSG(test, param_decode_complete(test, PARAM_CLIENT,
								param_ones[i].wire,
								param_ones[i].len, p),
				    0, "id %#llx from a server", param_ones[i].id);
		KUNIT_EXPECT_EQ_MSG(test, param_decode_complete(test, PARAM_SERVER,
								param_ones[i].wire,
								param_ones[i].len, p),
				    -EINVAL, "id %#llx from a client", param_ones[i].id);
	}
	KUNIT_EXPECT_EQ(test, n, 4U);
}

/*
 * RFC 9000 Sections 7.4.2 and 18.1: unknown IDs, among them the reserved
 * 31 * N + 27 ones, are ignored whatever their value, even repeated:
 * 27 (0x1b), 58 (0x3a), 31 * 100 + 27 = 3127 (0x4c37), 31 * 2^40 + 27 =
 * 0x1f000000001b (8-byte varint c0 00 1f 00 00 00 00 1b), and 0x12,
 * 0x21 and 0x3fff that are simply not defined.
 */
static void param_ignores_unknown_and_grease_ids(struct kunit *test)
{
	static const u8 wire[] = {
		0x1b, 0x03, 0xde, 0xad, 0x00,
		0x04, 0x02, 0x44, 0x00,			/* max_data 1024 */
		0x1b, 0x00,				/* 27 again */
		0x3a, 0x01, 0xff,
		0x4c, 0x37, 0x02, 0x40, 0x00,
		0xc0, 0x00, 0x1f, 0x00, 0x00, 0x00, 0x00, 0x1b, 0x01, 0x07,
		0x12, 0x01, 0xff,			/* a value that is not a varint */
		0x21, 0x00,
		0x7f, 0xff, 0x04, 0x01, 0x02, 0x03, 0x04,
		0x0e, 0x01, 0x05,			/* active_connection_id_limit 5 */
	};
	struct quic_params *p = param_new(test);

	KUNIT_ASSERT_EQ(test, 58 % 31, 27);
	KUNIT_ASSERT_EQ(test, 3127 % 31, 27);
	KUNIT_ASSERT_EQ(test, 0x1f000000001bULL, (1ULL << 40) * 31 + 27);
	KUNIT_ASSERT_EQ(test, param_decode_complete(test, PARAM_SERVER, wire, sizeof(wire), p), 0);
	KUNIT_EXPECT_EQ(test, p->tp.max_data, 1024ULL);
	KUNIT_EXPECT_EQ(test, p->tp.active_connection_id_limit, 5);
	KUNIT_EXPECT_EQ(test, p->present, (u32)QUIC_PARAM_HAS_INIT_SCID);
}

/**
 * struct param_bad - a parameter list that is a TRANSPORT_PARAMETER_ERROR
 * @desc: the rule broken, with its RFC section
 * @wire: the list
 * @len: its length
 * @is_serv: role of the receiver
 */
struct param_bad {
	const char *desc;
	struct {
		const u8 *wire;
		u32 len;
	};
	bool is_serv;
};

static const struct param_bad param_bads[] = {
	{ "ack_delay_exponent 21, RFC 9000 18.2", W(0x0a, 0x01, 0x15) },
	{ "ack_delay_exponent 2^62-1, RFC 9000 18.2",
	  W(0x0a, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff) },
	/* 16384 = 2^14 needs the 4-byte form 80 00 40 00. */
	{ "max_ack_delay 2^14, RFC 9000 18.2", W(0x0b, 0x04, 0x80, 0x00, 0x40, 0x00) },
	{ "max_ack_delay 2^62-1, RFC 9000 18.2",
	  W(0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff) },
	{ "active_connection_id_limit 0, RFC 9000 18.2", W(0x0e, 0x01, 0x00) },
	{ "active_connection_id_limit 1, RFC 9000 18.2", W(0x0e, 0x01, 0x01) },
	/* 1199 = 0x4af: 44 af. */
	{ "max_udp_payload_size 1199, RFC 9000 18.2", W(0x03, 0x02, 0x44, 0xaf) },
	{ "max_udp_payload_size 0, RFC 9000 18.2", W(0x03, 0x01, 0x00) },
	{ "initial_max_streams_bidi 2^60+1, RFC 9000 4.6",
	  W(0x08, 0x08, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01) },
	{ "initial_max_streams_uni 2^60+1, RFC 9000 4.6",
	  W(0x09, 0x08, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01) },
	{ "integer with a trailing byte, RFC 9000 18", W(0x04, 0x02, 0x01, 0x00) },
	{ "integer longer than its Length, RFC 9000 18", W(0x04, 0x01, 0x40, 0x01) },
	{ "integer with an empty value, RFC 9000 18", W(0x04, 0x00) },
	{ "Length beyond the list, RFC 9000 18", W(0x04, 0x02, 0x01) },
	{ "ID without Length, RFC 9000 18", W(0x04) },
	{ "truncated ID, RFC 9000 18", W(0x40) },
	{ "unknown ID with Length beyond the list, RFC 9000 18", W(0x1b, 0x05, 0x00) },
	{ "disable_active_migration not empty, RFC 9000 18.2", W(0x0c, 0x01, 0x00) },
	{ "grease_quic_bit not empty, RFC 9287 3", W(0x6a, 0xb2, 0x01, 0x00) },
	{ "disable_1rtt_encryption not empty", W(0x80, 0x00, 0xba, 0xad, 0x01, 0x00) },
	{ "stateless_reset_token of 15 bytes, RFC 9000 18.2",
	  W(0x02, 0x0f, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14) },
	{ "stateless_reset_token of 17 bytes, RFC 9000 18.2",
	  W(0x02, 0x11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16) },
	{ "original_destination_connection_id of 21 bytes, RFC 9000 17.2",
	  W(0x00, 0x15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
	    21) },
	{ "initial_source_connection_id of 21 bytes, RFC 9000 17.2",
	  W(0x0f, 0x15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
	    21) },
	/* Length 24 + 1 + 0 + 16 = 41 (0x29). */
	{ "preferred_address with an empty CID, RFC 9000 18.2",
	  W(0x0d, 0x29, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0x00, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) },
	/* Length 24 + 1 + 21 + 16 = 62 (0x3e). */
	{ "preferred_address with a 21-byte CID, RFC 9000 18.2",
	  W(0x0d, 0x3e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    21, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
	    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) },
	/* CID length 4 but Length 46: one byte too many. */
	{ "preferred_address longer than its fields, RFC 9000 18.2",
	  W(0x0d, 0x2e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0x04, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16) },
	{ "preferred_address shorter than an address, RFC 9000 18.2",
	  W(0x0d, 0x04, 0xc0, 0x00, 0x02, 0x01) },
	{ "version_information of 3 bytes, RFC 9368 4", W(0x11, 0x03, 0x00, 0x00, 0x01), true },
	{ "version_information of 6 bytes, RFC 9368 4",
	  W(0x11, 0x06, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00), true },
	{ "version_information empty, RFC 9368 4", W(0x11, 0x00), true },
	{ "version_information Chosen Version 0, RFC 9368 4",
	  W(0x11, 0x08, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x01) },
	{ "version_information Available Version 0, RFC 9368 4",
	  W(0x11, 0x0c, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0) },
	/* At a server, the client's Chosen Version must be listed. */
	{ "version_information Chosen not Available at a server, RFC 9368 4",
	  W(0x11, 0x08, 0x00, 0x00, 0x00, 0x01, 0x6b, 0x33, 0x43, 0xcf), true },
	/* The valid preferred_address of param_ones after an empty server CID. */
	{ "preferred_address from a zero-length server CID, RFC 9000 18.2",
	  W(0x0f, 0x00,
	    0x0d, 0x2d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0x04, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) },
};

static void param_bad_desc(const struct param_bad *b, char *desc)
{
	strscpy(desc, b->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(param_bad, param_bads, param_bad_desc);

static void param_decode_rejects_invalid_values(struct kunit *test)
{
	const struct param_bad *b = test->param_value;
	struct quic_params *p = param_new(test);

	KUNIT_EXPECT_EQ(test, param_decode_complete(test, b->is_serv, b->wire, b->len, p), -EINVAL);
}

/* The limits of Section 18.2 themselves are valid. */
static void param_decode_accepts_limits(struct kunit *test)
{
	static const u8 wire[] = {
		0x03, 0x02, 0x44, 0xb0,				/* max_udp_payload_size 1200 */
		0x0a, 0x01, 0x14,				/* ack_delay_exponent 20 */
		0x0b, 0x02, 0x7f, 0xff,				/* max_ack_delay 16383 */
		0x0e, 0x01, 0x02,				/* active_connection_id_limit 2 */
		/* initial_max_streams_bidi 2^60 */
		0x08, 0x08, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	/* From a server, version_information may omit the Chosen Version,
	 * and may list nothing at all.
	 */
	static const u8 vi_unlisted[] = { 0x11, 0x08, 0, 0, 0, 1, 0x6b, 0x33, 0x43, 0xcf };
	static const u8 vi_empty[] = { 0x11, 0x04, 0x6b, 0x33, 0x43, 0xcf };
	struct quic_params *p = param_new(test);

	KUNIT_ASSERT_EQ(test, param_decode_complete(test, PARAM_SERVER, wire, sizeof(wire), p), 0);
	KUNIT_EXPECT_EQ(test, p->tp.max_udp_payload_size, 1200);
	KUNIT_EXPECT_EQ(test, p->tp.ack_delay_exponent, 20);
	KUNIT_EXPECT_EQ(test, p->tp.max_ack_delay, 16383U * 1000);
	KUNIT_EXPECT_EQ(test, p->tp.active_connection_id_limit, 2);

	KUNIT_ASSERT_EQ(test, param_decode_complete(test, PARAM_CLIENT, vi_unlisted,
						    sizeof(vi_unlisted), p), 0);
	KUNIT_EXPECT_EQ(test, p->vi.chosen, 1U);
	KUNIT_EXPECT_EQ(test, p->vi.count, 1U);
	KUNIT_EXPECT_EQ(test, p->vi.available[0], QUIC_VERSION_V2);
	KUNIT_EXPECT_EQ(test, p->tp.disable_compatible_version, 0);
	KUNIT_ASSERT_EQ(test, param_decode_complete(test, PARAM_CLIENT, vi_empty,
						    sizeof(vi_empty), p), 0);
	KUNIT_EXPECT_EQ(test, p->vi.chosen, QUIC_VERSION_V2);
	KUNIT_EXPECT_EQ(test, p->vi.count, 0U);
}

/*
 * Values wider than the socket API's fields are saturated, never wrapped:
 * a smaller limit is always safe to assume. active_connection_id_limit
 * 1000 (0x43e8) reads as 255, max_udp_payload_size 70000 (0x80011170) as
 * 65527, max_datagram_frame_size 100000 (0x800186a0) as 65535,
 * initial_max_streams_uni 2^60 as 65535 and max_idle_timeout 2^62 - 1 ms
 * as 4294967 ms.
 */
static void param_saturates_wide_values(struct kunit *test)
{
	static const u8 wire[] = {
		0x0e, 0x02, 0x43, 0xe8,
		0x03, 0x04, 0x80, 0x01, 0x11, 0x70,
		0x20, 0x04, 0x80, 0x01, 0x86, 0xa0,
		0x09, 0x08, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	struct quic_params *p = param_new(test);

	KUNIT_ASSERT_EQ(test, param_decode_complete(test, PARAM_SERVER, wire, sizeof(wire), p), 0);
	KUNIT_EXPECT_EQ(test, p->tp.active_connection_id_limit, 255);
	KUNIT_EXPECT_EQ(test, p->tp.max_udp_payload_size, 65527);
	KUNIT_EXPECT_EQ(test, p->tp.max_datagram_frame_size, 65535);
	KUNIT_EXPECT_EQ(test, p->tp.max_streams_uni, 65535);
	KUNIT_EXPECT_EQ(test, p->tp.max_idle_timeout, 4294967U * 1000);
}

/*
 * Times are microseconds in struct quic_transport_param and milliseconds
 * on the wire: max_idle_timeout 1 us goes out as 1 ms (01 01 01, rounded
 * up so it stays enabled), max_ack_delay 40999 us as 40 ms (0b 01 28).
 */
static void param_converts_time_units(struct kunit *test)
{
	static const u8 exp[] = { 0x01, 0x01, 0x01, 0x0b, 0x01, 0x28 };
	struct quic_params *p = param_new(test);
	u8 out[16], *o = out;
	u32 left = sizeof(out);

	quic_param_init(p);
	p->tp.max_idle_timeout = 1;
	p->tp.max_ack_delay = 40999;
	KUNIT_ASSERT_EQ(test, quic_param_encode(NULL, PARAM_CLIENT, p, &o, &left), 0);
	KUNIT_ASSERT_EQ(test, (u32)(o - out), (u32)sizeof(exp));
	KUNIT_EXPECT_MEMEQ(test, out, exp, sizeof(exp));

	KUNIT_ASSERT_EQ(test, param_decode_complete(test, PARAM_SERVER, out, sizeof(exp), p), 0);
	KUNIT_EXPECT_EQ(test, p->tp.max_idle_timeout, 1000U);
	KUNIT_EXPECT_EQ(test, p->tp.max_ack_delay, 40000U);
}

/* Offsets at which a parameter ends: the only valid places to cut a list. */
static bool param_is_boundary(const u8 *data, u32 len, u32 cut)
{
	const u8 *p = data;
	u32 left = len;
	u64 id, vlen;

	while (left && (u32)(p - data) < cut) {
		if (quic_get_var(&p, &left, &id) || quic_get_var(&p, &left, &vlen) || vlen > left)
			return false;
		p += vlen;
		left -= vlen;
	}
	return (u32)(p - data) == cut;
}

static void param_decode_rejects_truncation_at_every_byte(struct kunit *test)
{
	struct quic_params *p = param_new(test), *got = param_new(test);
	union quic_addr pref;
	u32 left = 256, len, cut;
	u8 *out, *o;
	int err;

	out = kunit_kzalloc(test, left, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	quic_kunit_addr4(&pref, "192.0.2.1", 4433);
	param_fill_server(p, &pref);
	o = out;
	KUNIT_ASSERT_EQ(test, quic_param_encode(param_sock(test, AF_INET), PARAM_SERVER, p, &o,
						&left), 0);
	len = o - out;

	for (cut = 0; cut < len; cut++) {
		err = param_decode_copy(test, PARAM_CLIENT, out, cut, got);
		/* A shorter list is valid if it still has the mandatory CIDs. */
		if (param_is_boundary(out, len, cut) && param_has_id(out, cut, PARAM_ODCID) &&
		    param_has_id(out, cut, PARAM_INIT_SCID))
			KUNIT_EXPECT_EQ_MSG(test, err, 0, "cut at %u", cut);
		else
			KUNIT_EXPECT_EQ_MSG(test, err, -EINVAL, "cut at %u", cut);
	}
}

static void param_encode_refuses_short_output(struct kunit *test)
{
	struct quic_params *p = param_new(test);
	u32 len, room, left;
	u8 out[64], *o;

	param_fill_client(p);
	o = out;
	left = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_param_encode(NULL, PARAM_CLIENT, p, &o, &left), 0);
	len = o - out;
	for (room = 0; room < len; room++) {
		o = out;
		left = room;
		KUNIT_EXPECT_EQ_MSG(test, quic_param_encode(NULL, PARAM_CLIENT, p, &o, &left),
				    -ENOSPC, "room %u", room);
		KUNIT_EXPECT_TRUE(test, o == out && left == room);
	}
}

static int param_try_encode(struct sock *sk, bool is_serv, const struct quic_params *p)
{
	u8 out[256], *o = out;
	u32 left = sizeof(out);

	return quic_param_encode(sk, is_serv, p, &o, &left);
}

static void param_encode_rejects_invalid_params(struct kunit *test)
{
	struct quic_params *p = param_new(test);
	struct sock *sk = param_sock(test, AF_INET);
	union quic_addr pref;

	quic_kunit_addr4(&pref, "192.0.2.1", 4433);
	param_fill_server(p, &pref);
	KUNIT_ASSERT_EQ(test, param_try_encode(sk, PARAM_SERVER, p), 0);

	/* RFC 9000 Section 18.2: server-only parameters from a client. */
	KUNIT_EXPECT_EQ(test, param_try_encode(sk, PARAM_CLIENT, p), -EINVAL);
	p->present = QUIC_PARAM_HAS_INIT_SCID;
	KUNIT_EXPECT_EQ(test, param_try_encode(sk, PARAM_CLIENT, p), -EINVAL);
	p->tp.stateless_reset = 0;
	KUNIT_EXPECT_EQ(test, param_try_encode(sk, PARAM_CLIENT, p), 0);

	/* Out of range for quic_param_validate(). */
	param_fill_server(p, &pref);
	p->tp.ack_delay_exponent = 21;
	KUNIT_EXPECT_EQ(test, param_try_encode(sk, PARAM_SERVER, p), -EINVAL);
	param_fill_server(p, &pref);
	p->tp.active_connection_id_limit = 1;
	KUNIT_EXPECT_EQ(test, param_try_encode(sk, PARAM_SERVER, p), -EINVAL);

	/* Malformed optional parameters; a preferred address needs the socket. */
	param_fill_server(p, &pref);
	p->vi.chosen = 0;
	KUNIT_EXPECT_EQ(test, param_try_encode(sk, PARAM_SERVER, p), -EINVAL);
	param_fill_server(p, &pref);
	p->pref.cid.len = 0;
	KUNIT_EXPECT_EQ(test, param_try_encode(sk, PARAM_SERVER, p), -EINVAL);
	param_fill_server(p, &pref);
	p->init_scid.len = QUIC_CONN_ID_MAX_LEN + 1;
	KUNIT_EXPECT_EQ(test, param_try_encode(sk, PARAM_SERVER, p), -EINVAL);
	param_fill_server(p, &pref);
	KUNIT_EXPECT_EQ(test, param_try_encode(NULL, PARAM_SERVER, p), -EINVAL);

	/* RFC 9000 Section 18.2: no preferred_address from a zero-length CID. */
	param_fill_server(p, &pref);
	p->init_scid.len = 0;
	KUNIT_EXPECT_EQ(test, param_try_encode(sk, PARAM_SERVER, p), -EINVAL);
	p->present &= ~QUIC_PARAM_HAS_PREF_ADDR;
	KUNIT_EXPECT_EQ(test, param_try_encode(sk, PARAM_SERVER, p), 0);
}

/*
 * quic_param_validate(): the RFC 9000 Section 18.2 ranges shared by the
 * socket option and the decoder. The limits themselves are valid.
 */
static void param_validate_accepts_rfc_limits(struct kunit *test)
{
	struct quic_params *p = param_new(test);
	struct quic_transport_param *tp = &p->tp;

	quic_param_init(p);
	KUNIT_EXPECT_EQ(test, quic_param_validate(tp), 0);
	tp->ack_delay_exponent = 20;
	tp->max_ack_delay = 16384 * 1000 - 1;
	tp->active_connection_id_limit = 2;
	tp->max_udp_payload_size = 1200;
	tp->max_data = QUIC_VARINT_MAX;
	tp->max_stream_data_bidi_local = QUIC_VARINT_MAX;
	tp->max_stream_data_bidi_remote = QUIC_VARINT_MAX;
	tp->max_stream_data_uni = QUIC_VARINT_MAX;
	tp->remote = 1;
	tp->disable_active_migration = 1;
	tp->grease_quic_bit = 1;
	tp->stateless_reset = 1;
	tp->disable_1rtt_encryption = 1;
	tp->disable_compatible_version = 0;
	KUNIT_EXPECT_EQ(test, quic_param_validate(tp), 0);
	tp->max_udp_payload_size = 65527;
	KUNIT_EXPECT_EQ(test, quic_param_validate(tp), 0);
}

static void param_validate_rejects_out_of_range(struct kunit *test)
{
	struct quic_params *p = param_new(test);
	struct quic_transport_param good, tp;

	quic_param_init(p);
	good = p->tp;
	KUNIT_ASSERT_EQ(test, quic_param_validate(&good), 0);

#define PARAM_EXPECT_INVALID(field, value) do {					\
		tp = good;							\
		tp.field = (value);						\
		KUNIT_EXPECT_EQ_MSG(test, quic_param_validate(&tp), -EINVAL,	\
				    #field " = " #value);			\
	} while (0)

	PARAM_EXPECT_INVALID(ack_delay_exponent, 21);
	PARAM_EXPECT_INVALID(max_ack_delay, 16384 * 1000);
	PARAM_EXPECT_INVALID(active_connection_id_limit, 0);
	PARAM_EXPECT_INVALID(active_connection_id_limit, 1);
	PARAM_EXPECT_INVALID(max_udp_payload_size, 1199);
	PARAM_EXPECT_INVALID(max_udp_payload_size, 65528);
	PARAM_EXPECT_INVALID(max_data, 1ULL << 62);
	PARAM_EXPECT_INVALID(max_stream_data_bidi_local, 1ULL << 62);
	PARAM_EXPECT_INVALID(max_stream_data_bidi_remote, U64_MAX);
	PARAM_EXPECT_INVALID(max_stream_data_uni, U64_MAX);
	PARAM_EXPECT_INVALID(remote, 2);
	PARAM_EXPECT_INVALID(disable_active_migration, 2);
	PARAM_EXPECT_INVALID(grease_quic_bit, 2);
	PARAM_EXPECT_INVALID(stateless_reset, 2);
	PARAM_EXPECT_INVALID(disable_1rtt_encryption, 2);
	PARAM_EXPECT_INVALID(disable_compatible_version, 2);
	PARAM_EXPECT_INVALID(reserved, 1);
#undef PARAM_EXPECT_INVALID
}

/* RFC 9000 Section 7.3: initial_source_connection_id is never optional. */
static void param_decode_rejects_missing_initial_scid(struct kunit *test)
{
	/* max_data 1024 only; from a server, with original_destination_cid bb. */
	static const u8 from_client[] = { 0x04, 0x02, 0x44, 0x00 };
	static const u8 from_server[] = { 0x00, 0x01, 0xbb, 0x04, 0x02, 0x44, 0x00 };
	static const u8 with_it[] = { 0x00, 0x01, 0xbb, 0x04, 0x02, 0x44, 0x00, 0x0f, 0x00 };
	struct quic_params *p = param_new(test);

	KUNIT_EXPECT_EQ(test, param_decode_copy(test, PARAM_SERVER, from_client,
						sizeof(from_client), p), -EINVAL);
	KUNIT_EXPECT_EQ(test, param_decode_copy(test, PARAM_CLIENT, from_server,
						sizeof(from_server), p), -EINVAL);
	/* A zero-length one is present (Section 7.3, last paragraph). */
	KUNIT_EXPECT_EQ(test, param_decode_copy(test, PARAM_CLIENT, with_it, sizeof(with_it), p),
			0);
	KUNIT_EXPECT_EQ(test, param_decode_copy(test, PARAM_SERVER, with_it + 3,
						sizeof(with_it) - 3, p), 0);
}

/* RFC 9000 Section 7.3: a server must send original_destination_connection_id. */
static void param_decode_rejects_missing_odcid_from_server(struct kunit *test)
{
	/* initial_source_connection_id aa, max_data 1024 */
	static const u8 wire[] = { 0x0f, 0x01, 0xaa, 0x04, 0x02, 0x44, 0x00 };
	struct quic_params *p = param_new(test);

	KUNIT_EXPECT_EQ(test, param_decode_copy(test, PARAM_CLIENT, wire, sizeof(wire), p),
			-EINVAL);
	/* The same list from a client is complete. */
	KUNIT_EXPECT_EQ(test, param_decode_copy(test, PARAM_SERVER, wire, sizeof(wire), p), 0);
}

/*
 * RFC 9000 Section 18.2: "A server that chooses a zero-length connection
 * ID MUST NOT provide a preferred address." Its choice is its
 * initial_source_connection_id. Our encoder refuses that list, so the
 * preferred_address of param_ones is appended to an encoded one.
 */
static void param_decode_rejects_pref_addr_from_zero_length_cid(struct kunit *test)
{
	const struct param_one *pa = &param_ones[QUIC_TRANSPORT_PARAM_PREFERRED_ADDRESS];
	struct quic_params *p = param_new(test), *got = param_new(test);
	u8 out[128], *o = out;
	u32 left = sizeof(out) - pa->len;

	KUNIT_ASSERT_EQ(test, pa->id, (u64)QUIC_TRANSPORT_PARAM_PREFERRED_ADDRESS);
	quic_param_init(p);
	p->present = QUIC_PARAM_HAS_ORIG_DCID | QUIC_PARAM_HAS_INIT_SCID;
	quic_conn_id_set(&p->orig_dcid, param_a2_cid, sizeof(param_a2_cid));
	p->init_scid.len = 0;
	KUNIT_ASSERT_EQ(test, quic_param_encode(NULL, PARAM_SERVER, p, &o, &left), 0);
	memcpy(o, pa->wire, pa->len);
	o += pa->len;

	KUNIT_EXPECT_EQ(test, param_decode_copy(test, PARAM_CLIENT, out, o - out, got), -EINVAL);

	/* With a one-byte connection ID the same preferred_address is fine. */
	quic_conn_id_set(&p->init_scid, param_a2_cid, 1);
	o = out;
	left = sizeof(out) - pa->len;
	KUNIT_ASSERT_EQ(test, quic_param_encode(NULL, PARAM_SERVER, p, &o, &left), 0);
	memcpy(o, pa->wire, pa->len);
	o += pa->len;
	KUNIT_EXPECT_EQ(test, param_decode_copy(test, PARAM_CLIENT, out, o - out, got), 0);
	KUNIT_EXPECT_TRUE(test, got->present & QUIC_PARAM_HAS_PREF_ADDR);
}

/* version_information with @n Available Versions and @extra stray bytes. */
static u32 param_put_vi(u8 *buf, u32 size, u32 chosen, const u32 *avail, u32 n, u32 extra)
{
	u8 *o = buf;
	u32 left = size, i;

	if (quic_put_var(&o, &left, QUIC_TRANSPORT_PARAM_VERSION_INFORMATION) ||
	    quic_put_var(&o, &left, (n + 1) * 4 + extra) || quic_put_int(&o, &left, chosen, 4))
		return 0;
	for (i = 0; i < n; i++)
		if (quic_put_int(&o, &left, avail[i], 4))
			return 0;
	for (i = 0; i < extra; i++)
		if (quic_put_int(&o, &left, 0, 1))
			return 0;
	return o - buf;
}

#define PARAM_VI_LONG	20
#define PARAM_VI_AT	15

/*
 * Twenty Available Versions: v1 first, v2 at position 15 (from 0), the
 * others reserved 0x?a?a?a?a versions (RFC 9368 Section 3).
 */
static void param_vi_long_list(u32 *avail)
{
	u32 i;

	for (i = 0; i < PARAM_VI_LONG; i++)
		avail[i] = 0x0a0a0a0a | (i % 16) << 28 | (i / 16) << 20;
	avail[0] = QUIC_VERSION_V1;
	avail[PARAM_VI_AT] = QUIC_VERSION_V2;
}

/* RFC 9368 Section 3: the list is not cut at QUIC_PARAM_MAX_VERSIONS. */
static void param_decode_keeps_long_version_list(struct kunit *test)
{
	struct quic_params *p = param_new(test);
	u32 avail[PARAM_VI_LONG], len;
	u8 buf[128];

	param_vi_long_list(avail);
	len = param_put_vi(buf, sizeof(buf), QUIC_VERSION_V1, avail, PARAM_VI_LONG, 0);
	KUNIT_ASSERT_EQ(test, len, 3U + 4 * (PARAM_VI_LONG + 1));	/* Length 84: 2 bytes */
	KUNIT_ASSERT_EQ(test, param_decode_complete(test, PARAM_SERVER, buf, len, p), 0);

	KUNIT_EXPECT_EQ(test, p->vi.chosen, QUIC_VERSION_V1);
	KUNIT_EXPECT_EQ(test, p->vi.total, (u32)PARAM_VI_LONG);
	KUNIT_EXPECT_EQ(test, p->vi.count, (u32)QUIC_PARAM_MAX_VERSIONS);
	KUNIT_EXPECT_MEMEQ(test, p->vi.available, avail, QUIC_PARAM_MAX_VERSIONS * sizeof(u32));
	KUNIT_EXPECT_EQ(test, p->vi.supported, QUIC_PARAM_VERSION_V1 | QUIC_PARAM_VERSION_V2);
	KUNIT_EXPECT_TRUE(test, quic_param_version_listed(&p->vi, QUIC_VERSION_V2));
	KUNIT_EXPECT_TRUE(test, quic_param_version_listed(&p->vi, QUIC_VERSION_V1));
	KUNIT_EXPECT_TRUE(test, quic_param_version_listed(&p->vi, avail[7]));
	KUNIT_EXPECT_FALSE(test, quic_param_version_listed(&p->vi, 0xff00001dU));

	/* Without v2 at position 15, v2 is not listed. */
	avail[PARAM_VI_AT] = 0x1a2a3a4a;
	len = param_put_vi(buf, sizeof(buf), QUIC_VERSION_V1, avail, PARAM_VI_LONG, 0);
	KUNIT_ASSERT_EQ(test, param_decode_complete(test, PARAM_SERVER, buf, len, p), 0);
	KUNIT_EXPECT_EQ(test, p->vi.total, (u32)PARAM_VI_LONG);
	KUNIT_EXPECT_FALSE(test, quic_param_version_listed(&p->vi, QUIC_VERSION_V2));
	KUNIT_EXPECT_TRUE(test, quic_param_version_listed(&p->vi, QUIC_VERSION_V1));
}

/* RFC 9368 Section 4: at a server, the Chosen Version may be listed anywhere. */
static void param_decode_finds_chosen_version_past_kept_entries(struct kunit *test)
{
	struct quic_params *p = param_new(test);
	u32 avail[PARAM_VI_LONG], len;
	u8 buf[128];

	param_vi_long_list(avail);
	avail[0] = 0x2a3a4a5a;
	len = param_put_vi(buf, sizeof(buf), QUIC_VERSION_V2, avail, PARAM_VI_LONG, 0);
	KUNIT_ASSERT_EQ(test, param_decode_complete(test, PARAM_SERVER, buf, len, p), 0);
	KUNIT_EXPECT_TRUE(test, quic_param_version_listed(&p->vi, QUIC_VERSION_V2));
	KUNIT_EXPECT_FALSE(test, quic_param_version_listed(&p->vi, QUIC_VERSION_V1));

	avail[PARAM_VI_AT] = 0x3a4a5a6a;
	len = param_put_vi(buf, sizeof(buf), QUIC_VERSION_V2, avail, PARAM_VI_LONG, 0);
	KUNIT_EXPECT_EQ(test, param_decode_complete(test, PARAM_SERVER, buf, len, p), -EINVAL);
	/* A server's own Chosen Version need not be listed. */
	KUNIT_EXPECT_EQ(test, param_decode_complete(test, PARAM_CLIENT, buf, len, p), 0);
}

/* RFC 9368 Section 4: every entry and the length of a long list are checked. */
static void param_decode_rejects_bad_long_version_list(struct kunit *test)
{
	static const u32 zero_at[] = { QUIC_PARAM_MAX_VERSIONS, PARAM_VI_AT, PARAM_VI_LONG - 1 };
	struct quic_params *p = param_new(test);
	u32 avail[PARAM_VI_LONG], len, i, extra;
	u8 buf[128];

	for (i = 0; i < ARRAY_SIZE(zero_at); i++) {
		param_vi_long_list(avail);
		avail[zero_at[i]] = 0;
		len = param_put_vi(buf, sizeof(buf), QUIC_VERSION_V1, avail, PARAM_VI_LONG, 0);
		KUNIT_EXPECT_EQ_MSG(test, param_decode_complete(test, PARAM_SERVER, buf, len, p),
				    -EINVAL, "version 0 at %u, from a client", zero_at[i]);
		KUNIT_EXPECT_EQ_MSG(test, param_decode_complete(test, PARAM_CLIENT, buf, len, p),
				    -EINVAL, "version 0 at %u, from a server", zero_at[i]);
	}
	param_vi_long_list(avail);
	for (extra = 1; extra < 4; extra++) {
		len = param_put_vi(buf, sizeof(buf), QUIC_VERSION_V1, avail, PARAM_VI_LONG, extra);
		KUNIT_EXPECT_EQ_MSG(test, param_decode_complete(test, PARAM_CLIENT, buf, len, p),
				    -EINVAL, "%u stray bytes", extra);
	}
	len = param_put_vi(buf, sizeof(buf), 0, avail, PARAM_VI_LONG, 0);
	KUNIT_EXPECT_EQ(test, param_decode_complete(test, PARAM_CLIENT, buf, len, p), -EINVAL);
}

/* Our own version_information (no decoder bits): listed from @available. */
static void param_version_listed_reads_local_list(struct kunit *test)
{
	struct quic_params *p = param_new(test);

	param_fill_client(p);
	KUNIT_EXPECT_EQ(test, p->vi.supported, 0U);
	KUNIT_EXPECT_TRUE(test, quic_param_version_listed(&p->vi, QUIC_VERSION_V2));
	KUNIT_EXPECT_TRUE(test, quic_param_version_listed(&p->vi, QUIC_VERSION_V1));
	p->vi.count = 1;
	KUNIT_EXPECT_FALSE(test, quic_param_version_listed(&p->vi, QUIC_VERSION_V1));
}

/*
 * RFC 9000 Section 7.3, Figures 7 and 8: the client's first Initial has
 * DCID S1 and SCID C1, a Retry has SCID S2, the server's Initial SCID S3.
 * S1 is the client DCID of RFC 9001 Appendix A, S2 the Retry Source CID
 * of RFC 9001 A.4; C1 and S3 are made up.
 */
struct param_hs {
	struct quic_conn_id s1, s2, s3, c1;
};

static void param_hs_init(struct kunit *test, struct param_hs *h)
{
	static const u8 s2[] = { 0xf0, 0x67, 0xa5, 0x50, 0x2a, 0x42, 0x62, 0xb5 };
	static const u8 s3[] = { 0x53, 0x33, 0x53, 0x33 };
	static const u8 c1[] = { 0xc1, 0xc1, 0xc1 };

	KUNIT_ASSERT_EQ(test, quic_conn_id_set(&h->s1, param_a2_cid, sizeof(param_a2_cid)), 0);
	KUNIT_ASSERT_EQ(test, quic_conn_id_set(&h->s2, s2, sizeof(s2)), 0);
	KUNIT_ASSERT_EQ(test, quic_conn_id_set(&h->s3, s3, sizeof(s3)), 0);
	KUNIT_ASSERT_EQ(test, quic_conn_id_set(&h->c1, c1, sizeof(c1)), 0);
}

/* Parameters as sent (encoded by @is_serv) and as received (decoded). */
static struct quic_params *param_hs_sent(struct kunit *test, bool is_serv,
					 const struct quic_params *p)
{
	struct quic_params *got = param_new(test);
	u8 out[128], *o = out;
	u32 left = sizeof(out);

	KUNIT_ASSERT_EQ(test, quic_param_encode(NULL, is_serv, p, &o, &left), 0);
	KUNIT_ASSERT_EQ(test, param_decode_copy(test, !is_serv, out, o - out, got), 0);
	return got;
}

/* The server's parameters of Figure 7 (@retry NULL) or Figure 8. */
static struct quic_params *param_hs_server(struct kunit *test, const struct param_hs *h,
					   const struct quic_conn_id *odcid,
					   const struct quic_conn_id *retry)
{
	struct quic_params *p = param_new(test);

	quic_param_init(p);
	p->present = QUIC_PARAM_HAS_ORIG_DCID | QUIC_PARAM_HAS_INIT_SCID;
	p->orig_dcid = *odcid;
	p->init_scid = h->s3;
	if (retry) {
		p->present |= QUIC_PARAM_HAS_RETRY_SCID;
		p->retry_scid = *retry;
	}
	return param_hs_sent(test, PARAM_SERVER, p);
}

static struct quic_params *param_hs_client(struct kunit *test, const struct quic_conn_id *scid)
{
	struct quic_params *p = param_new(test);

	quic_param_init(p);
	p->present = QUIC_PARAM_HAS_INIT_SCID;
	p->init_scid = *scid;
	return param_hs_sent(test, PARAM_CLIENT, p);
}

static void param_cid_auth_accepts_rfc9000_handshakes(struct kunit *test)
{
	struct quic_params *srv, *cli;
	struct quic_param_cids seen;
	struct param_hs h;

	param_hs_init(test, &h);
	cli = param_hs_client(test, &h.c1);
	seen = (struct quic_param_cids){ .peer_scid = &h.c1 };
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(cli, PARAM_SERVER, &seen), 0);

	/* Figure 7: original_destination_connection_id S1, no Retry. */
	srv = param_hs_server(test, &h, &h.s1, NULL);
	seen = (struct quic_param_cids){ .odcid = &h.s1, .peer_scid = &h.s3 };
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), 0);

	/* Figure 8: S1 still, and retry_source_connection_id S2. */
	srv = param_hs_server(test, &h, &h.s1, &h.s2);
	seen.retry_scid = &h.s2;
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), 0);
}

/* RFC 9000 Section 7.3: "the corresponding transport parameter is included
 * with a zero-length value".
 */
static void param_cid_auth_accepts_zero_length_cids(struct kunit *test)
{
	struct quic_param_cids seen = {};
	struct quic_params *srv, *cli;
	struct quic_conn_id empty = {};
	struct param_hs h;

	param_hs_init(test, &h);
	cli = param_hs_client(test, &empty);
	seen.peer_scid = &empty;
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(cli, PARAM_SERVER, &seen), 0);
	seen.peer_scid = &h.c1;
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(cli, PARAM_SERVER, &seen), -EINVAL);

	h.s3 = empty;
	srv = param_hs_server(test, &h, &h.s1, NULL);
	seen = (struct quic_param_cids){ .odcid = &h.s1, .peer_scid = &empty };
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), 0);
}

static void param_cid_auth_rejects_wrong_odcid(struct kunit *test)
{
	struct quic_param_cids seen;
	struct quic_params *srv;
	struct param_hs h;

	param_hs_init(test, &h);
	/* An attacker's Initial made the server see S2 as the first DCID. */
	srv = param_hs_server(test, &h, &h.s2, NULL);
	seen = (struct quic_param_cids){ .odcid = &h.s1, .peer_scid = &h.s3 };
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), -EINVAL);

	/* After a Retry it still names the first Initial's DCID, not the Retry's. */
	seen.retry_scid = &h.s2;
	srv = param_hs_server(test, &h, &h.s2, &h.s2);
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), -EINVAL);
}

static void param_cid_auth_rejects_missing_odcid(struct kunit *test)
{
	struct quic_param_cids seen;
	struct quic_params *srv;
	struct param_hs h;

	param_hs_init(test, &h);
	srv = param_hs_server(test, &h, &h.s1, NULL);
	seen = (struct quic_param_cids){ .odcid = &h.s1, .peer_scid = &h.s3 };
	KUNIT_ASSERT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), 0);
	srv->present &= ~QUIC_PARAM_HAS_ORIG_DCID;
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), -EINVAL);
}

static void param_cid_auth_rejects_wrong_initial_scid(struct kunit *test)
{
	struct quic_params *srv, *cli;
	struct quic_param_cids seen;
	struct param_hs h;

	param_hs_init(test, &h);
	/* At a client: S3 announced, but the server's Initial came from S2. */
	srv = param_hs_server(test, &h, &h.s1, NULL);
	seen = (struct quic_param_cids){ .odcid = &h.s1, .peer_scid = &h.s2 };
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), -EINVAL);

	/* At a server: C1 announced, the Initial came from S1. */
	cli = param_hs_client(test, &h.c1);
	seen = (struct quic_param_cids){ .peer_scid = &h.s1 };
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(cli, PARAM_SERVER, &seen), -EINVAL);
	/* Same bytes, other length: 8394c8 is a prefix of S1. */
	cli = param_hs_client(test, &h.s1);
	h.s1.len = 3;
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(cli, PARAM_SERVER, &seen), -EINVAL);
}

static void param_cid_auth_rejects_missing_initial_scid(struct kunit *test)
{
	struct quic_params *srv, *cli;
	struct quic_param_cids seen;
	struct param_hs h;

	param_hs_init(test, &h);
	cli = param_hs_client(test, &h.c1);
	seen = (struct quic_param_cids){ .peer_scid = &h.c1 };
	KUNIT_ASSERT_EQ(test, quic_param_cid_auth(cli, PARAM_SERVER, &seen), 0);
	cli->present &= ~QUIC_PARAM_HAS_INIT_SCID;
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(cli, PARAM_SERVER, &seen), -EINVAL);

	srv = param_hs_server(test, &h, &h.s1, NULL);
	seen = (struct quic_param_cids){ .odcid = &h.s1, .peer_scid = &h.s3 };
	KUNIT_ASSERT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), 0);
	srv->present &= ~QUIC_PARAM_HAS_INIT_SCID;
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), -EINVAL);
}

static void param_cid_auth_rejects_missing_retry_scid_after_retry(struct kunit *test)
{
	struct quic_param_cids seen;
	struct quic_params *srv;
	struct param_hs h;

	param_hs_init(test, &h);
	srv = param_hs_server(test, &h, &h.s1, NULL);
	seen = (struct quic_param_cids){ .odcid = &h.s1, .peer_scid = &h.s3,
					 .retry_scid = &h.s2 };
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), -EINVAL);
}

static void param_cid_auth_rejects_retry_scid_without_retry(struct kunit *test)
{
	struct quic_param_cids seen;
	struct quic_params *srv;
	struct param_hs h;

	param_hs_init(test, &h);
	srv = param_hs_server(test, &h, &h.s1, &h.s2);
	seen = (struct quic_param_cids){ .odcid = &h.s1, .peer_scid = &h.s3 };
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), -EINVAL);
}

static void param_cid_auth_rejects_wrong_retry_scid(struct kunit *test)
{
	struct quic_param_cids seen;
	struct quic_params *srv;
	struct param_hs h;

	param_hs_init(test, &h);
	srv = param_hs_server(test, &h, &h.s1, &h.s3);
	seen = (struct quic_param_cids){ .odcid = &h.s1, .peer_scid = &h.s3,
					 .retry_scid = &h.s2 };
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(srv, PARAM_CLIENT, &seen), -EINVAL);
}

/* RFC 9000 Section 18.2: not from a client, even if the decoder was bypassed. */
static void param_cid_auth_rejects_server_only_cids_from_client(struct kunit *test)
{
	struct quic_param_cids seen;
	struct quic_params *cli;
	struct param_hs h;

	param_hs_init(test, &h);
	cli = param_hs_client(test, &h.c1);
	seen = (struct quic_param_cids){ .peer_scid = &h.c1 };
	cli->present |= QUIC_PARAM_HAS_ORIG_DCID;
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(cli, PARAM_SERVER, &seen), -EINVAL);
	cli->present = QUIC_PARAM_HAS_INIT_SCID | QUIC_PARAM_HAS_RETRY_SCID;
	KUNIT_EXPECT_EQ(test, quic_param_cid_auth(cli, PARAM_SERVER, &seen), -EINVAL);
}

static struct kunit_case param_cases[] = {
	KUNIT_CASE(param_decodes_rfc9001_client_hello_params),
	KUNIT_CASE(param_encodes_rfc9001_client_hello_params_in_id_order),
	KUNIT_CASE(param_defaults_when_absent),
	KUNIT_CASE(param_encodes_every_kind_exactly),
	KUNIT_CASE(param_round_trip_server_ipv4),
	KUNIT_CASE(param_round_trip_server_ipv6),
	KUNIT_CASE(param_encodes_preferred_address_layout),
	KUNIT_CASE(param_decode_rejects_duplicates),
	KUNIT_CASE(param_decode_rejects_server_only_from_client),
	KUNIT_CASE(param_ignores_unknown_and_grease_ids),
	KUNIT_CASE_PARAM(param_decode_rejects_invalid_values, param_bad_gen_params),
	KUNIT_CASE(param_decode_accepts_limits),
	KUNIT_CASE(param_saturates_wide_values),
	KUNIT_CASE(param_converts_time_units),
	KUNIT_CASE(param_decode_rejects_truncation_at_every_byte),
	KUNIT_CASE(param_encode_refuses_short_output),
	KUNIT_CASE(param_encode_rejects_invalid_params),
	KUNIT_CASE(param_validate_accepts_rfc_limits),
	KUNIT_CASE(param_validate_rejects_out_of_range),
	KUNIT_CASE(param_decode_rejects_missing_initial_scid),
	KUNIT_CASE(param_decode_rejects_missing_odcid_from_server),
	KUNIT_CASE(param_decode_rejects_pref_addr_from_zero_length_cid),
	KUNIT_CASE(param_decode_keeps_long_version_list),
	KUNIT_CASE(param_decode_finds_chosen_version_past_kept_entries),
	KUNIT_CASE(param_decode_rejects_bad_long_version_list),
	KUNIT_CASE(param_version_listed_reads_local_list),
	KUNIT_CASE(param_cid_auth_accepts_rfc9000_handshakes),
	KUNIT_CASE(param_cid_auth_accepts_zero_length_cids),
	KUNIT_CASE(param_cid_auth_rejects_wrong_odcid),
	KUNIT_CASE(param_cid_auth_rejects_missing_odcid),
	KUNIT_CASE(param_cid_auth_rejects_wrong_initial_scid),
	KUNIT_CASE(param_cid_auth_rejects_missing_initial_scid),
	KUNIT_CASE(param_cid_auth_rejects_missing_retry_scid_after_retry),
	KUNIT_CASE(param_cid_auth_rejects_retry_scid_without_retry),
	KUNIT_CASE(param_cid_auth_rejects_wrong_retry_scid),
	KUNIT_CASE(param_cid_auth_rejects_server_only_cids_from_client),
	{}
};

static struct kunit_suite param_suite = {
	.name = "quic_param",
	.test_cases = param_cases,
};

kunit_test_suite(param_suite);
