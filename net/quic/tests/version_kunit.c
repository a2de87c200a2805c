// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_version: compatible version negotiation between QUIC v1
 * and v2 (RFC 9368 Section 2.3, RFC 9369 Section 4) and version downgrade
 * prevention (RFC 9368 Section 4), as version.c implements them: the
 * server's choice, both ends' checks of the other's version_information,
 * and connections over loopback (stand-in TLS messages of conn_util.c)
 * that start in one version and complete in the other.
 */

#include <kunit/test.h>
#include <linux/unaligned.h>
#include <net/sock.h>
#include <uapi/linux/tls.h>

#include "../param.h"
#include "../path.h"
#include "../socket.h"
#include "../transmit.h"
#include "../version.h"
#include "conn_util.h"
#include "util.h"

#define V1	QUIC_VERSION_V1
#define V2	QUIC_VERSION_V2

static void ver_vi(struct quic_param_version_info *vi, u32 chosen, const u32 *list, u32 n)
{
	u32 i;

	memset(vi, 0, sizeof(*vi));
	vi->chosen = chosen;
	for (i = 0; i < n && i < QUIC_PARAM_MAX_VERSIONS; i++)
		vi->available[vi->count++] = list[i];
	vi->total = n;
}

static void ver_other_pairs_v1_and_v2(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, quic_version_other(V1), V2);
	KUNIT_EXPECT_EQ(test, quic_version_other(V2), V1);
	KUNIT_EXPECT_EQ(test, quic_version_other(0x709a50c4), 0);	/* v2 draft */
	KUNIT_EXPECT_EQ(test, quic_version_other(0), 0);
}

struct ver_select_case {
	const char *desc;
	u32 original;
	u32 preferred;
	u32 list[3];
	u32 n;
	u32 want;
};

static const struct ver_select_case ver_select_cases[] = {
	{ "v1 client offering v2, server preferring v2: v2", V1, V2, { V1, V2 }, 2, V2 },
	{ "v2 client offering v1, server preferring v1: stays v2", V2, V1, { V2, V1 }, 2, V2 },
	{ "v1 client offering only v1: stays v1", V1, V2, { V1 }, 1, V1 },
	{ "server preferring the original version: no change", V1, V1, { V1, V2 }, 2, V1 },
	{ "preferred version not compatible: original", V1, 0x709a50c4, { V1, 0x709a50c4 }, 2,
	  V1 },
	{ "offer with unknown versions around v2: v2", V1, V2, { V1, 0x1a2a3a4a, V2 }, 3, V2 },
};

KUNIT_ARRAY_PARAM_DESC(ver_select, ver_select_cases, desc);

static void ver_server_selects_a_listed_compatible_version(struct kunit *test)
{
	const struct ver_select_case *c = test->param_value;
	struct quic_param_version_info vi;

	ver_vi(&vi, c->original, c->list, c->n);
	KUNIT_EXPECT_EQ(test, quic_version_select(c->original, c->preferred, &vi), c->want);
}

static void ver_server_refuses_a_chosen_version_not_in_use(struct kunit *test)
{
	static const u32 both[] = { V1, V2 };
	struct quic_param_version_info vi;

	/* RFC 9368 Section 4: Chosen Version = the version of the packets. */
	ver_vi(&vi, V1, both, 2);
	KUNIT_EXPECT_EQ(test, quic_version_check_client(V1, &vi), 0);
	KUNIT_EXPECT_EQ(test, quic_version_check_client(V2, &vi), -EPROTO);
}

static void ver_client_refuses_a_chosen_version_not_negotiated(struct kunit *test)
{
	static const u32 both[] = { V2, V1 };
	struct quic_param_version_info vi;

	/* The server says v2: right if we switched to v2, a downgrade (or a
	 * forged long header) otherwise.
	 */
	ver_vi(&vi, V2, both, 2);
	KUNIT_EXPECT_EQ(test, quic_version_check_server(V2, &vi), 0);
	KUNIT_EXPECT_EQ(test, quic_version_check_server(V1, &vi), -EPROTO);
}

/* Versions of the long header packets each side sent, from a transmit hook. */
static u32 ver_client_first, ver_client_last, ver_server_first, ver_server_last;

static bool ver_watch(struct sock *sk, struct sk_buff *skb)
{
	u32 v;

	if (skb->len < 5 || !(skb->data[0] & 0x80))
		return false;
	v = get_unaligned_be32(skb->data + 1);
	if (!quic_paths(sk)->serv) {
		if (!ver_client_first)
			ver_client_first = v;
		ver_client_last = v;
	} else {
		if (!ver_server_first)
			ver_server_first = v;
		ver_server_last = v;
	}
	return false;
}

struct ver_live_case {
	const char *desc;
	u32 client;
	u32 listener;
	u8 fixed;	/* the client disables compatible version negotiation */
	u32 want;
};

static const struct ver_live_case ver_live_cases[] = {
	{ "v1 client, v2 listener: upgraded to v2", V1, V2, 0, V2 },
	{ "v2 client, v1 listener: stays v2", V2, V1, 0, V2 },
	{ "v1 client, v1 listener: v1", V1, V1, 0, V1 },
	{ "v1 client without compatible versions, v2 listener: v1", V1, V2, 1, V1 },
};

KUNIT_ARRAY_PARAM_DESC(ver_live, ver_live_cases, desc);

static void ver_connection_completes_in_the_negotiated_version(struct kunit *test)
{
	const struct ver_live_case *l = test->param_value;
	struct conn_case c = { l->desc, AF_INET, "127.0.0.1", l->client, TLS_CIPHER_AES_GCM_128 };
	struct conn_pair p = { .listen_version = l->listener, .client_fixed_version = l->fixed };
	static u16 port = 63170;
	u8 *data = conn_pattern(test, 3000, 3);

	ver_client_first = 0;
	ver_client_last = 0;
	ver_server_first = 0;
	ver_server_last = 0;
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, ver_watch);
	conn_handshake(test, &c, port++, &p);
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       data, 3000), 3000);
	conn_expect_stream(test, p.server, 0, data, 3000);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);

	KUNIT_EXPECT_EQ(test, quic_config(p.client->sk)->version, l->want);
	KUNIT_EXPECT_EQ(test, quic_config(p.server->sk)->version, l->want);
	/* The client starts in its own version; the server answers in the
	 * negotiated one (an acknowledgment may come first in the original
	 * one), and the client goes on in it (RFC 9369 Section 4).
	 */
	KUNIT_EXPECT_EQ(test, ver_client_first, l->client);
	KUNIT_EXPECT_TRUE(test, ver_server_first == l->client || ver_server_first == l->want);
	KUNIT_EXPECT_EQ(test, ver_server_last, l->want);
	KUNIT_EXPECT_EQ(test, ver_client_last, l->want);
}

static int ver_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void ver_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

static struct kunit_case ver_test_cases[] = {
	KUNIT_CASE(ver_other_pairs_v1_and_v2),
	KUNIT_CASE_PARAM(ver_server_selects_a_listed_compatible_version, ver_select_gen_params),
	KUNIT_CASE(ver_server_refuses_a_chosen_version_not_in_use),
	KUNIT_CASE(ver_client_refuses_a_chosen_version_not_negotiated),
	KUNIT_CASE_PARAM(ver_connection_completes_in_the_negotiated_version,
			 ver_live_gen_params),
	{}
};

static struct kunit_suite ver_suite = {
	.name = "quic_version",
	.suite_init = ver_suite_init,
	.suite_exit = ver_suite_exit,
	.test_cases = ver_test_cases,
};

kunit_test_suite(ver_suite);
