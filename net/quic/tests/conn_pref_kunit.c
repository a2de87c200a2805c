// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_conn_pref: a server's preferred address of the other IP
 * version (RFC 9000 Sections 9.6 and 18.2), over loopback: an IPv4 client
 * moving to an IPv6 preferred address and an IPV6_V6ONLY client moving to
 * an IPv4 one, each through a UDP tunnel of the other family, and which
 * address a client takes when the server offers one of each. The move of
 * both ends within one IP version is in quic_conn_control.
 */

#include <kunit/test.h>
#include <linux/net.h>
#include <linux/quic.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "../connid.h"
#include "../path.h"
#include "../socket.h"
#include "conn_util.h"
#include "util.h"

static const struct conn_case pref_v4 = {
	"IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

static const struct conn_case pref_v6 = {
	"IPv6 v1 AES-128-GCM", AF_INET6, "::1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

/* Read until a notification of @type; its first payload byte goes to @out. */
static void pref_wait_event(struct kunit *test, struct socket *sock, u8 type, u8 *out)
{
	u8 cbuf[CMSG_SPACE(sizeof(struct quic_stream_info))];
	struct msghdr msg;
	struct kvec iov;
	u8 buf[1200];
	int ret, n;

	for (n = 0; n < 1000; n++) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		iov.iov_base = buf;
		iov.iov_len = sizeof(buf);
		ret = kernel_recvmsg(sock, &msg, &iov, 1, sizeof(buf), 0);
		KUNIT_ASSERT_GT_MSG(test, ret, 0, "waiting for event %u", type);
		if (!(msg.msg_flags & MSG_NOTIFICATION) || buf[0] != type)
			continue;
		KUNIT_ASSERT_GE(test, ret, 2);
		*out = buf[1];
		return;
	}
	KUNIT_FAIL(test, "no event %u", type);
}

/* A stream each way: data flows on the path now in use. */
static void pref_round_trip(struct kunit *test, struct conn_pair *p, s64 id)
{
	KUNIT_ASSERT_EQ(test, conn_send_stream(p->client, id, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "rt", 2), 2);
	conn_expect_stream(test, p->server, id, "rt", 2);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p->server, id, MSG_STREAM_FIN, "tr", 2), 2);
	conn_expect_stream(test, p->client, id, "tr", 2);
}

/* @got (from getpeername() or getsockname(), length @len) is @want. */
static void pref_expect_addr(struct kunit *test, int len, const union quic_addr *got,
			     const union quic_addr *want)
{
	KUNIT_ASSERT_EQ(test, got->sa.sa_family, want->sa.sa_family);
	if (want->sa.sa_family == AF_INET6) {
		KUNIT_EXPECT_EQ(test, len, (int)sizeof(struct sockaddr_in6));
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&got->v6.sin6_addr,
							&want->v6.sin6_addr));
	} else {
		KUNIT_EXPECT_EQ(test, len, (int)sizeof(struct sockaddr_in));
		KUNIT_EXPECT_EQ(test, ntohl(got->v4.sin_addr.s_addr),
				ntohl(want->v4.sin_addr.s_addr));
	}
	KUNIT_EXPECT_EQ(test, ntohs(got->v4.sin_port), ntohs(want->v4.sin_port));
}

/*
 * Both ends moved to @pref: the client was told (local_migration 0),
 * talks to @pref with the server's ID 1 from a local address of @pref's
 * IP version; the server was told (1) and sends from @pref. Then data
 * flows both ways on the new path.
 */
static void pref_expect_moved(struct kunit *test, struct conn_pair *p,
			      const union quic_addr *pref)
{
	union quic_addr got = {};
	u8 local = 9;
	int len;

	pref_wait_event(test, p->client, QUIC_EVENT_CONNECTION_MIGRATION, &local);
	KUNIT_EXPECT_EQ(test, local, 0);
	len = kernel_getpeername(p->client, &got.sa);
	pref_expect_addr(test, len, &got, pref);
	memset(&got, 0, sizeof(got));
	len = kernel_getsockname(p->client, &got.sa);
	KUNIT_EXPECT_EQ(test, got.sa.sa_family, pref->sa.sa_family);
	lock_sock(p->client->sk);
	KUNIT_EXPECT_FALSE(test, quic_paths(p->client->sk)->pref_addr);
	KUNIT_EXPECT_EQ(test, quic_conn_id_active(quic_dest(p->client->sk))->number, 1);
	KUNIT_EXPECT_EQ(test, quic_path_saddr(quic_paths(p->client->sk), 0)->sa.sa_family,
			pref->sa.sa_family);
	/* The tunnel of the original path is gone with it. */
	KUNIT_EXPECT_NULL(test, quic_paths(p->client->sk)->path[1].udp_sk);
	release_sock(p->client->sk);

	local = 9;
	pref_wait_event(test, p->server, QUIC_EVENT_CONNECTION_MIGRATION, &local);
	KUNIT_EXPECT_EQ(test, local, 1);
	memset(&got, 0, sizeof(got));
	len = kernel_getsockname(p->server, &got.sa);
	pref_expect_addr(test, len, &got, pref);

	pref_round_trip(test, p, 0);
	pref_round_trip(test, p, 4);
}

/* RFC 9000 Section 18.2: "Servers MAY communicate a preferred address of
 * each address family". An AF_INET client connected to 127.0.0.1 is
 * offered only [::1] (by an AF_INET server socket): it opens an IPv6
 * tunnel, validates the address from it and both ends move there.
 */
static void pref_ipv4_client_moves_to_an_ipv6_preferred_address(struct kunit *test)
{
	struct conn_pair p = { .listen_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION),
			       .client_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION) };
	union quic_addr pref;

	quic_kunit_addr6(&pref, "::1", 63201);
	p.server_pref = &pref;
	conn_handshake(test, &pref_v4, 63200, &p);
	KUNIT_EXPECT_EQ(test, p.client->sk->sk_family, AF_INET);
	pref_expect_moved(test, &p, &pref);
}

/* The reverse: an IPV6_V6ONLY client connected to [::1] is offered only
 * 127.0.0.3 (by a dual-stack server socket), which it reaches through an
 * IPv4 tunnel of its own: its socket itself takes no IPv4.
 */
static void pref_v6only_client_moves_to_an_ipv4_preferred_address(struct kunit *test)
{
	struct conn_pair p = { .listen_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION),
			       .client_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION),
			       .client_v6only = 1 };
	union quic_addr pref;

	quic_kunit_addr4(&pref, "127.0.0.3", 63203);
	p.server_pref = &pref;
	conn_handshake(test, &pref_v6, 63202, &p);
	KUNIT_EXPECT_TRUE(test, ipv6_only_sock(p.client->sk));
	pref_expect_moved(test, &p, &pref);
}

/* RFC 9000 Section 9.6: a server offering one address of each IP version
 * (the IPv6 one first, so the IPv4 one is its second tunnel); the IPv4
 * client keeps IPv4, the version its network reached the server with.
 */
static void pref_client_keeps_its_ip_version_when_both_are_offered(struct kunit *test)
{
	struct conn_pair p = { .listen_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION),
			       .client_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION) };
	union quic_addr pref6, pref4;

	quic_kunit_addr6(&pref6, "::1", 63205);
	quic_kunit_addr4(&pref4, "127.0.0.3", 63206);
	p.server_pref = &pref6;
	p.server_pref2 = &pref4;
	conn_handshake(test, &pref_v4, 63204, &p);
	pref_expect_moved(test, &p, &pref4);
	/* The unused preferred address's tunnel went with the move. */
	lock_sock(p.server->sk);
	KUNIT_EXPECT_NULL(test, quic_paths(p.server->sk)->path[QUIC_PATH_PREF2].udp_sk);
	KUNIT_EXPECT_NULL(test, quic_paths(p.server->sk)->path[1].udp_sk);
	release_sock(p.server->sk);
}

/* The same for an IPv6 client, the IPv6 address offered first. */
static void pref_ipv6_client_keeps_ipv6_when_both_are_offered(struct kunit *test)
{
	struct conn_pair p = { .listen_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION),
			       .client_events = BIT(QUIC_EVENT_CONNECTION_MIGRATION) };
	union quic_addr pref6, pref4;

	quic_kunit_addr6(&pref6, "::1", 63208);
	quic_kunit_addr4(&pref4, "127.0.0.3", 63209);
	p.server_pref = &pref6;
	p.server_pref2 = &pref4;
	conn_handshake(test, &pref_v6, 63207, &p);
	pref_expect_moved(test, &p, &pref6);
	lock_sock(p.server->sk);
	KUNIT_EXPECT_NULL(test, quic_paths(p.server->sk)->path[QUIC_PATH_PREF2].udp_sk);
	KUNIT_EXPECT_NULL(test, quic_paths(p.server->sk)->path[1].udp_sk);
	release_sock(p.server->sk);
}

static int pref_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void pref_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

static struct kunit_case pref_test_cases[] = {
	KUNIT_CASE(pref_ipv4_client_moves_to_an_ipv6_preferred_address),
	KUNIT_CASE(pref_v6only_client_moves_to_an_ipv4_preferred_address),
	KUNIT_CASE(pref_client_keeps_its_ip_version_when_both_are_offered),
	KUNIT_CASE(pref_ipv6_client_keeps_ipv6_when_both_are_offered),
	{}
};

static struct kunit_suite pref_suite = {
	.name = "quic_conn_pref",
	.suite_init = pref_suite_init,
	.suite_exit = pref_suite_exit,
	.test_cases = pref_test_cases,
};

kunit_test_suite(pref_suite);
