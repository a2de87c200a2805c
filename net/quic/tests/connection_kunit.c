// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_connection: the socket calls that create a connection
 * (RFC 9000 Section 5): bind() with UDP port sharing, connect() (connection
 * IDs of RFC 9000 Section 7.2, Initial keys of RFC 9001 Section 5.2),
 * listen(), the accept queue and accept(), and the lookups the receive
 * path uses to find a socket.
 *
 * Everything runs in init_net over loopback, brought up by the suite.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/quic.h>
#include <net/sock.h>
#include <uapi/linux/tls.h>

#include "../connection.h"
#include "../lookup.h"
#include "../param.h"
#include "../request.h"
#include "../socket.h"
#include "util.h"

struct conn_kind {
	const char *desc;
	int family;
	const char *ip;
	u32 version;
};

static const struct conn_kind conn_kinds[] = {
	{ "IPv4, QUIC v1", AF_INET, "127.0.0.1", QUIC_VERSION_V1 },
	{ "IPv4, QUIC v2", AF_INET, "127.0.0.1", QUIC_VERSION_V2 },
	{ "IPv6, QUIC v1", AF_INET6, "::1", QUIC_VERSION_V1 },
	{ "IPv6, QUIC v2", AF_INET6, "::1", QUIC_VERSION_V2 },
};

KUNIT_ARRAY_PARAM_DESC(conn_kind, conn_kinds, desc);

static void conn_addr(union quic_addr *a, int family, const char *ip, u16 port)
{
	if (family == AF_INET6)
		quic_kunit_addr6(a, ip, port);
	else
		quic_kunit_addr4(a, ip, port);
}

static int conn_bind(struct socket *sock, const char *ip, u16 port)
{
	union quic_addr a;

	conn_addr(&a, sock->sk->sk_family, ip, port);
	return kernel_bind(sock, &a.sa, sock->sk->sk_family == AF_INET6 ?
			   sizeof(a.v6) : sizeof(a.v4));
}

static int conn_connect(struct socket *sock, const char *ip, u16 port)
{
	union quic_addr a;

	conn_addr(&a, sock->sk->sk_family, ip, port);
	return kernel_connect(sock, &a.sa, sock->sk->sk_family == AF_INET6 ?
			      sizeof(a.v6) : sizeof(a.v4), 0);
}

static u16 conn_local_port(struct socket *sock)
{
	union quic_addr a = {};

	kernel_getsockname(sock, &a.sa);
	return ntohs(a.v4.sin_port);
}

static struct quic_udp_sock *conn_tunnel(struct socket *sock)
{
	return quic_paths(sock->sk)->path[0].udp_sk;
}

/* The socket owning a source connection ID in the global table, or NULL. */
static struct sock *conn_owner_of(const struct quic_conn_id *id)
{
	struct quic_source_conn_id *s;
	struct sock *sk = NULL;

	rcu_read_lock();
	s = quic_conn_id_lookup(&init_net, id->data, id->len);
	if (s)
		sk = quic_conn_id_sk(s);
	rcu_read_unlock();
	return sk;
}

static void connection_bind_shares_one_udp_port(struct kunit *test)
{
	struct socket *a = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	struct socket *b = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);

	KUNIT_ASSERT_EQ(test, conn_bind(a, "127.0.0.1", 62001), 0);
	KUNIT_ASSERT_EQ(test, conn_bind(b, "127.0.0.1", 62001), 0);

	KUNIT_EXPECT_EQ(test, conn_local_port(a), 62001);
	KUNIT_EXPECT_EQ(test, conn_local_port(b), 62001);
	KUNIT_ASSERT_NOT_NULL(test, conn_tunnel(a));
	KUNIT_EXPECT_PTR_EQ(test, conn_tunnel(a), conn_tunnel(b));
	KUNIT_EXPECT_TRUE(test, quic_is_closed(a->sk));
}

static void connection_bind_port_zero_picks_a_port(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET6, SOCK_STREAM);

	KUNIT_ASSERT_EQ(test, conn_bind(sock, "::1", 0), 0);
	KUNIT_EXPECT_NE(test, conn_local_port(sock), 0);
	KUNIT_EXPECT_NOT_NULL(test, conn_tunnel(sock));
}

static void connection_bind_refuses_second_bind_and_bad_addresses(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	union quic_addr a;

	quic_kunit_addr4(&a, "127.0.0.1", 62002);
	KUNIT_EXPECT_EQ(test, kernel_bind(sock, &a.sa, 2), -EINVAL);
	quic_kunit_addr6(&a, "::1", 62002);
	KUNIT_EXPECT_EQ(test, kernel_bind(sock, &a.sa, sizeof(a.v6)), -EAFNOSUPPORT);
	KUNIT_EXPECT_NULL(test, conn_tunnel(sock));

	KUNIT_ASSERT_EQ(test, conn_bind(sock, "127.0.0.1", 62002), 0);
	KUNIT_EXPECT_EQ(test, conn_bind(sock, "127.0.0.1", 62003), -EINVAL);
	KUNIT_EXPECT_EQ(test, conn_local_port(sock), 62002);
}

/* RFC 9000 Section 7.2: the client's first Destination Connection ID is
 * unpredictable and at least 8 bytes; the Initial keys derive from it
 * (RFC 9001 Section 5.2) for the configured version.
 */
static void connection_connect_sets_up_the_client(struct kunit *test)
{
	const struct conn_kind *k = test->param_value;
	struct socket *sock = quic_kunit_socket(test, k->family, SOCK_STREAM);
	struct sock *sk = sock->sk;
	struct quic_config c = { .version = k->version };
	struct quic_conn_id_entry *dcid, *scid;
	struct quic_crypto *initial;
	union quic_addr peer = {};

	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &c, sizeof(c)), 0);
	KUNIT_ASSERT_EQ(test, conn_connect(sock, k->ip, 62010), 0);

	KUNIT_EXPECT_TRUE(test, quic_is_establishing(sk));
	dcid = quic_conn_id_active(quic_dest(sk));
	scid = quic_conn_id_active(quic_source(sk));
	KUNIT_ASSERT_NOT_NULL(test, dcid);
	KUNIT_ASSERT_NOT_NULL(test, scid);
	KUNIT_EXPECT_GE(test, dcid->id.len, 8);
	KUNIT_EXPECT_GE(test, scid->id.len, 8);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(quic_path_orig_dcid(quic_paths(sk)),
						   &dcid->id));
	KUNIT_EXPECT_PTR_EQ(test, conn_owner_of(&scid->id), sk);

	initial = quic_crypto(sk, QUIC_CRYPTO_INITIAL);
	KUNIT_EXPECT_TRUE(test, initial->tx.ready);
	KUNIT_EXPECT_TRUE(test, initial->rx.ready);
	KUNIT_EXPECT_EQ(test, initial->version, k->version);
	KUNIT_EXPECT_FALSE(test, quic_crypto(sk, QUIC_CRYPTO_HANDSHAKE)->tx.ready);

	/* Autobound to the route's source and a port of the local range. */
	KUNIT_EXPECT_NE(test, conn_local_port(sock), 0);
	KUNIT_EXPECT_FALSE(test, quic_addr_is_any(quic_path_saddr(quic_paths(sk), 0)));
	KUNIT_ASSERT_GT(test, kernel_getpeername(sock, &peer.sa), 0);
	KUNIT_EXPECT_EQ(test, ntohs(peer.v4.sin_port), 62010);
}

static void connection_connect_ids_differ_between_connections(struct kunit *test)
{
	struct socket *a = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	struct socket *b = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	struct quic_conn_id *da, *db;

	KUNIT_ASSERT_EQ(test, conn_connect(a, "127.0.0.1", 62011), 0);
	KUNIT_ASSERT_EQ(test, conn_connect(b, "127.0.0.1", 62011), 0);
	da = &quic_conn_id_active(quic_dest(a->sk))->id;
	db = &quic_conn_id_active(quic_dest(b->sk))->id;
	KUNIT_EXPECT_FALSE(test, quic_conn_id_equal(da, db));
}

static void connection_connect_refuses_bad_targets_and_states(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	struct socket *lsock = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);

	KUNIT_EXPECT_EQ(test, conn_connect(sock, "0.0.0.0", 62012), -EINVAL);
	KUNIT_EXPECT_EQ(test, conn_connect(sock, "127.0.0.1", 0), -EINVAL);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(sock->sk));
	KUNIT_EXPECT_NULL(test, conn_tunnel(sock));

	KUNIT_ASSERT_EQ(test, conn_connect(sock, "127.0.0.1", 62012), 0);
	KUNIT_EXPECT_EQ(test, conn_connect(sock, "127.0.0.1", 62012), -EISCONN);

	KUNIT_ASSERT_EQ(test, conn_bind(lsock, "127.0.0.1", 62013), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 4), 0);
	KUNIT_EXPECT_EQ(test, conn_connect(lsock, "127.0.0.1", 62012), -EINVAL);
}

/* A socket bound to the wildcard address is known, once connected, by the
 * address its packets leave from.
 */
static void connection_connect_from_wildcard_takes_route_source(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	union quic_addr *sa;

	KUNIT_ASSERT_EQ(test, conn_bind(sock, "0.0.0.0", 62014), 0);
	KUNIT_ASSERT_EQ(test, conn_connect(sock, "127.0.0.1", 62015), 0);

	sa = quic_path_saddr(quic_paths(sock->sk), 0);
	KUNIT_EXPECT_EQ(test, ntohl(sa->v4.sin_addr.s_addr), INADDR_LOOPBACK);
	KUNIT_EXPECT_EQ(test, ntohs(sa->v4.sin_port), 62014);
}

static void connection_listen_needs_a_bound_socket(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);

	KUNIT_EXPECT_EQ(test, kernel_listen(sock, 8), -EINVAL);
	KUNIT_ASSERT_EQ(test, conn_bind(sock, "127.0.0.1", 62020), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(sock, 8), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_listen(sock->sk));
	/* Again: only the backlog changes. */
	KUNIT_EXPECT_EQ(test, kernel_listen(sock, 2), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sock->sk->sk_max_ack_backlog), 2U);
}

/* shutdown(SHUT_RD) on a listener: "connection requests SHOULD be discard
 * quietly" (draft-lxin-quic-socket-apis). It stops listening as listen()
 * with a backlog of 0 does: closed, a client again, free to listen anew.
 */
static void connection_listener_shut_for_reading_stops_listening(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);

	KUNIT_ASSERT_EQ(test, conn_bind(sock, "127.0.0.1", 62023), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(sock, 8), 0);
	KUNIT_ASSERT_TRUE(test, quic_paths(sock->sk)->serv);
	KUNIT_EXPECT_EQ(test, kernel_sock_shutdown(sock, SHUT_RD), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(sock->sk));
	KUNIT_EXPECT_FALSE(test, quic_paths(sock->sk)->serv);
	KUNIT_EXPECT_EQ(test, kernel_listen(sock, 8), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_listen(sock->sk));
}

static void connection_listen_refuses_a_second_listener(struct kunit *test)
{
	struct socket *a = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct socket *b = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct socket *c = quic_kunit_socket(test, AF_INET, SOCK_STREAM);

	KUNIT_ASSERT_EQ(test, conn_bind(a, "127.0.0.1", 62021), 0);
	KUNIT_ASSERT_EQ(test, conn_bind(b, "127.0.0.1", 62021), 0);
	KUNIT_ASSERT_EQ(test, conn_bind(c, "127.0.0.1", 62022), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(a, 8), 0);
	KUNIT_EXPECT_EQ(test, kernel_listen(b, 8), -EADDRINUSE);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(b->sk));
	KUNIT_EXPECT_EQ(test, kernel_listen(c, 8), 0);
}

static void connection_accept_refuses_without_listen_or_client(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct socket *newsock = NULL;

	KUNIT_EXPECT_EQ(test, kernel_accept(sock, &newsock, O_NONBLOCK), -EINVAL);
	KUNIT_ASSERT_EQ(test, conn_bind(sock, "127.0.0.1", 62030), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(sock, 8), 0);
	KUNIT_EXPECT_EQ(test, kernel_accept(sock, &newsock, O_NONBLOCK), -EAGAIN);
	KUNIT_EXPECT_NULL(test, newsock);
}

/* What the receive path hands a listener for a client's first Initial. */
static void conn_request_fill(struct quic_request *req, const struct conn_kind *k,
			      u16 lport, u16 cport, u8 seed)
{
	int i;

	memset(req, 0, sizeof(*req));
	conn_addr(&req->saddr, k->family, k->ip, lport);
	conn_addr(&req->daddr, k->family, k->ip, cport);
	req->dcid.len = 8;
	for (i = 0; i < req->dcid.len; i++)
		req->dcid.data[i] = seed + i;
	/* The client's own ID may have any length (RFC 9000 Section 5.1). */
	req->scid.len = 5;
	for (i = 0; i < req->scid.len; i++)
		req->scid.data[i] = 0xa0 + seed + i;
	req->version = k->version;
}

static int conn_request_add(struct sock *sk, const struct quic_request *req)
{
	int err;

	lock_sock(sk);
	err = quic_conn_request_add(sk, req, NULL);
	release_sock(sk);
	return err;
}

/* The new socket is the server end of the client's connection: its
 * Destination Connection ID is the client's Source one, its Initial keys
 * come from the client's first Destination Connection ID (RFC 9001
 * Section 5.2), which it will echo as original_destination_connection_id
 * (RFC 9000 Section 7.3).
 */
static void connection_accept_sets_up_the_server_side(struct kunit *test)
{
	const struct conn_kind *k = test->param_value;
	struct socket *lsock = quic_kunit_socket(test, k->family, SOCK_STREAM);
	struct socket *newsock = NULL;
	struct quic_conn_id_entry *dcid, *scid;
	struct quic_request *req;
	union quic_addr peer = {};
	struct quic_crypto *initial;
	struct sock *sk;

	req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	conn_request_fill(req, k, 62040, 50000, 1);
	KUNIT_ASSERT_EQ(test, conn_bind(lsock, k->ip, 62040), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 8), 0);
	KUNIT_ASSERT_EQ(test, conn_request_add(lsock->sk, req), 0);

	KUNIT_ASSERT_EQ(test, kernel_accept(lsock, &newsock, O_NONBLOCK), 0);
	KUNIT_ASSERT_NOT_NULL(test, newsock);
	sk = newsock->sk;

	KUNIT_EXPECT_TRUE(test, quic_is_establishing(sk));
	KUNIT_EXPECT_EQ(test, sk->sk_family, k->family);
	KUNIT_EXPECT_TRUE(test, quic_paths(sk)->serv);
	KUNIT_EXPECT_FALSE(test, quic_paths(sk)->validated);
	KUNIT_EXPECT_PTR_EQ(test, conn_tunnel(newsock), conn_tunnel(lsock));

	dcid = quic_conn_id_active(quic_dest(sk));
	scid = quic_conn_id_active(quic_source(sk));
	KUNIT_ASSERT_NOT_NULL(test, dcid);
	KUNIT_ASSERT_NOT_NULL(test, scid);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&dcid->id, &req->scid));
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(quic_path_orig_dcid(quic_paths(sk)),
						   &req->dcid));
	KUNIT_EXPECT_FALSE(test, quic_conn_id_equal(&scid->id, &req->dcid));
	KUNIT_EXPECT_PTR_EQ(test, conn_owner_of(&scid->id), sk);

	initial = quic_crypto(sk, QUIC_CRYPTO_INITIAL);
	KUNIT_EXPECT_TRUE(test, initial->tx.ready);
	KUNIT_EXPECT_EQ(test, initial->version, k->version);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->version, k->version);

	KUNIT_ASSERT_GT(test, kernel_getpeername(newsock, &peer.sa), 0);
	KUNIT_EXPECT_EQ(test, ntohs(peer.v4.sin_port), 50000);
	KUNIT_EXPECT_EQ(test, conn_local_port(newsock), 62040);

	/* The queue is empty again. */
	sock_release(newsock);
	newsock = NULL;
	KUNIT_EXPECT_EQ(test, kernel_accept(lsock, &newsock, O_NONBLOCK), -EAGAIN);
}

static void conn_release(void *sock)
{
	sock_release(sock);
}

/* RFC 9000 Sections 9.6 and 18.2: a server offers a preferred address
 * before its transport parameters go out, with a port, not the address in
 * use, once; preferred_address then carries it with connection ID 1 and
 * that ID's reset token. The client (decoding as one) reads it back.
 */
static void connection_preferred_address_offered_before_the_parameters(struct kunit *test)
{
	const struct conn_kind *k = &conn_kinds[0];
	struct socket *lsock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct socket *newsock = NULL;
	struct quic_conn_id_entry *one;
	struct quic_request *req;
	struct quic_params *params;
	union quic_addr pref;
	u32 len = 512;
	u8 *buf;

	req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	params = kunit_kzalloc(test, sizeof(*params), GFP_KERNEL);
	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, req && params && buf);
	conn_request_fill(req, k, 62043, 50003, 7);
	KUNIT_ASSERT_EQ(test, conn_bind(lsock, k->ip, 62043), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 8), 0);
	KUNIT_ASSERT_EQ(test, conn_request_add(lsock->sk, req), 0);
	KUNIT_ASSERT_EQ(test, kernel_accept(lsock, &newsock, O_NONBLOCK), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_release, newsock), 0);

	conn_addr(&pref, AF_INET, "127.0.0.4", 0);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(newsock->sk, QUIC_SOCKOPT_CONNECTION_MIGRATION,
						     &pref, sizeof(pref.v4)), -EINVAL);
	conn_addr(&pref, AF_INET, k->ip, 62043);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(newsock->sk, QUIC_SOCKOPT_CONNECTION_MIGRATION,
						     &pref, sizeof(pref.v4)), -EINVAL);
	conn_addr(&pref, AF_INET, "127.0.0.4", 62044);
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(newsock->sk, QUIC_SOCKOPT_CONNECTION_MIGRATION,
						     &pref, sizeof(pref.v4)), 0);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(newsock->sk, QUIC_SOCKOPT_CONNECTION_MIGRATION,
						     &pref, sizeof(pref.v4)), -EINVAL);

	lock_sock(newsock->sk);
	one = quic_conn_id_find(quic_source(newsock->sk), 1);
	KUNIT_EXPECT_NOT_NULL(test, one);
	KUNIT_EXPECT_EQ(test, quic_conn_get_param_ext(newsock->sk, buf, &len), 0);
	quic_param_init(params);
	KUNIT_EXPECT_EQ(test, quic_param_decode(newsock->sk, false, buf, len, params), 0);
	release_sock(newsock->sk);
	KUNIT_EXPECT_TRUE(test, params->present & QUIC_PARAM_HAS_PREF_ADDR);
	KUNIT_EXPECT_EQ(test, ntohl(params->pref.addr.v4.sin_addr.s_addr),
			ntohl(pref.v4.sin_addr.s_addr));
	KUNIT_EXPECT_EQ(test, ntohs(params->pref.addr.v4.sin_port), ntohs(pref.v4.sin_port));
	if (one)
		KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&params->pref.cid, &one->id));
	/* The parameters went out: too late now. */
	conn_addr(&pref, AF_INET, "127.0.0.4", 62045);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(newsock->sk, QUIC_SOCKOPT_CONNECTION_MIGRATION,
						     &pref, sizeof(pref.v4)), -EINVAL);
}

static void connection_accept_inherits_listener_settings(struct kunit *test)
{
	struct socket *lsock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct quic_transport_param p = *quic_local_param(lsock->sk);
	struct socket *newsock = NULL;
	struct quic_request req;
	u8 alpn[16];
	u32 len = sizeof(alpn);

	p.max_streams_bidi = 7;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(lsock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM,
						     &p, sizeof(p)), 0);
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(lsock->sk, QUIC_SOCKOPT_ALPN, "h3", 2), 0);
	conn_request_fill(&req, &conn_kinds[0], 62041, 50001, 2);
	KUNIT_ASSERT_EQ(test, conn_bind(lsock, "127.0.0.1", 62041), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 8), 0);
	KUNIT_ASSERT_EQ(test, conn_request_add(lsock->sk, &req), 0);
	KUNIT_ASSERT_EQ(test, kernel_accept(lsock, &newsock, O_NONBLOCK), 0);

	KUNIT_EXPECT_EQ(test, quic_local_param(newsock->sk)->max_streams_bidi, 7);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(newsock->sk, QUIC_SOCKOPT_ALPN, alpn, &len),
			0);
	KUNIT_EXPECT_EQ(test, len, 2U);
	KUNIT_EXPECT_MEMEQ(test, alpn, "h3", 2);
	sock_release(newsock);
}

static void connection_accept_queue_is_bounded_and_deduplicated(struct kunit *test)
{
	struct socket *lsock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct quic_request a, b;

	conn_request_fill(&a, &conn_kinds[0], 62042, 50002, 3);
	conn_request_fill(&b, &conn_kinds[0], 62042, 50003, 4);
	KUNIT_EXPECT_EQ(test, conn_request_add(lsock->sk, &a), -EINVAL);

	KUNIT_ASSERT_EQ(test, conn_bind(lsock, "127.0.0.1", 62042), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 1), 0);
	KUNIT_EXPECT_EQ(test, conn_request_add(lsock->sk, &a), 0);
	/* A retransmitted first Initial of the same client. */
	KUNIT_EXPECT_EQ(test, conn_request_add(lsock->sk, &a), -EEXIST);
	KUNIT_EXPECT_EQ(test, conn_request_add(lsock->sk, &b), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, quic_sk(lsock->sk)->request_count, 1U);
}

static void connection_lookups_find_listener_and_connection(struct kunit *test)
{
	struct socket *lsock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct socket *csock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct quic_path_group *paths;
	union quic_addr local, other;
	struct sock *found;

	KUNIT_ASSERT_EQ(test, conn_bind(lsock, "0.0.0.0", 62050), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 8), 0);
	KUNIT_ASSERT_EQ(test, conn_connect(csock, "127.0.0.1", 62050), 0);

	quic_kunit_addr4(&local, "127.0.0.1", 62050);
	rcu_read_lock();
	found = quic_conn_listen_lookup(&init_net, &local, NULL, NULL);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, found, lsock->sk);
	if (found)
		sock_put(found);

	quic_kunit_addr4(&other, "127.0.0.1", 62051);
	rcu_read_lock();
	found = quic_conn_listen_lookup(&init_net, &other, NULL, NULL);
	rcu_read_unlock();
	KUNIT_EXPECT_NULL(test, found);

	paths = quic_paths(csock->sk);
	rcu_read_lock();
	found = quic_conn_addr_lookup(&init_net, quic_path_saddr(paths, 0),
				      quic_path_daddr(paths, 0));
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, found, csock->sk);
	if (found)
		sock_put(found);
}

static void connection_close_removes_socket_from_lookups(struct kunit *test)
{
	struct socket *sock = NULL;
	struct quic_conn_id id;
	union quic_addr local;
	struct sock *found;

	quic_kunit_addr4(&local, "127.0.0.1", 62060);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_QUIC,
					       &sock), 0);
	if (conn_bind(sock, "127.0.0.1", 62060) || kernel_listen(sock, 8)) {
		sock_release(sock);
		KUNIT_FAIL(test, "listening socket not set up");
		return;
	}
	rcu_read_lock();
	found = quic_conn_listen_lookup(&init_net, &local, NULL, NULL);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, found, sock->sk);
	if (found)
		sock_put(found);
	sock_release(sock);

	rcu_read_lock();
	found = quic_conn_listen_lookup(&init_net, &local, NULL, NULL);
	rcu_read_unlock();
	KUNIT_EXPECT_NULL(test, found);

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_QUIC,
					       &sock), 0);
	if (conn_connect(sock, "127.0.0.1", 62062)) {
		sock_release(sock);
		KUNIT_FAIL(test, "connect failed");
		return;
	}
	id = quic_conn_id_active(quic_source(sock->sk))->id;
	KUNIT_EXPECT_PTR_EQ(test, conn_owner_of(&id), sock->sk);
	sock_release(sock);
	KUNIT_EXPECT_NULL(test, conn_owner_of(&id));
}

struct conn_cipher {
	const char *desc;
	u32 type;
};

static const struct conn_cipher conn_ciphers[] = {
	{ "TLS_AES_128_GCM_SHA256", TLS_CIPHER_AES_GCM_128 },
	{ "TLS_AES_256_GCM_SHA384", TLS_CIPHER_AES_GCM_256 },
	{ "TLS_AES_128_CCM_SHA256", TLS_CIPHER_AES_CCM_128 },
	{ "TLS_CHACHA20_POLY1305_SHA256", TLS_CIPHER_CHACHA20_POLY1305 },
};

KUNIT_ARRAY_PARAM_DESC(conn_cipher, conn_ciphers, desc);

static int conn_set_secret(struct sock *sk, u8 level, u8 send, u32 type)
{
	struct quic_crypto_secret srt = { .send = send, .level = level, .type = type };

	/* A fixed test secret; its value does not matter here. */
	memset(srt.secret, 0x40 + level * 2 + send, sizeof(srt.secret));
	return quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CRYPTO_SECRET, &srt, sizeof(srt));
}

static void connection_secret_refused_outside_the_handshake(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	struct quic_crypto_secret srt = {};
	unsigned int len = sizeof(srt);

	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_HANDSHAKE, 1,
					      TLS_CIPHER_AES_GCM_128), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CRYPTO_SECRET, &srt,
						     sizeof(srt) - 1), -EINVAL);
	/* Secrets are never read back. */
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CRYPTO_SECRET, &srt, &len),
			-EOPNOTSUPP);
}

/* RFC 9001 Section 4.1.1: the TLS library installs the 1-RTT keys when the
 * handshake is complete; the second direction makes the socket ESTABLISHED.
 */
static void connection_secrets_complete_the_client_handshake(struct kunit *test)
{
	const struct conn_cipher *c = test->param_value;
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	unsigned long estabs = quic_mib_read(&init_net, QUIC_MIB_CONN_ACTIVEESTABS);
	struct sock *sk = sock->sk;

	KUNIT_ASSERT_EQ(test, conn_connect(sock, "127.0.0.1", 62070), 0);
	KUNIT_ASSERT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_HANDSHAKE, 0, c->type), 0);
	KUNIT_ASSERT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_HANDSHAKE, 1, c->type), 0);
	KUNIT_ASSERT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_APP, 1, c->type), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_establishing(sk));

	KUNIT_ASSERT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_APP, 0, c->type), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_established(sk));
	KUNIT_EXPECT_EQ(test, quic_mib_read(&init_net, QUIC_MIB_CONN_ACTIVEESTABS), estabs + 1);
	KUNIT_EXPECT_TRUE(test, quic_crypto(sk, QUIC_CRYPTO_APP)->tx.ready);
	KUNIT_EXPECT_TRUE(test, quic_crypto(sk, QUIC_CRYPTO_HANDSHAKE)->rx.ready);

	/* Nothing more is taken once established. */
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_EARLY, 1, c->type), -EINVAL);
}

static void connection_secret_rules_per_level_and_direction(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct sock *sk = sock->sk;

	KUNIT_ASSERT_EQ(test, conn_connect(sock, "127.0.0.1", 62071), 0);
	/* Initial keys come from the Destination Connection ID, not TLS. */
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_INITIAL, 1,
					      TLS_CIPHER_AES_GCM_128), -EINVAL);
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_MAX, 1,
					      TLS_CIPHER_AES_GCM_128), -EINVAL);
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_HANDSHAKE, 2,
					      TLS_CIPHER_AES_GCM_128), -EINVAL);
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_HANDSHAKE, 1, 0x1234), -EINVAL);
	/* A client sends 0-RTT and never receives it (RFC 9001 Section 4.6.1). */
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_EARLY, 0,
					      TLS_CIPHER_AES_GCM_128), -EINVAL);
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_EARLY, 1,
					      TLS_CIPHER_AES_GCM_128), 0);
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_EARLY, 1,
					      TLS_CIPHER_AES_GCM_128), -EEXIST);
	/* Both directions of a level use one cipher suite. */
	KUNIT_ASSERT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_HANDSHAKE, 1,
					      TLS_CIPHER_AES_GCM_128), 0);
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_HANDSHAKE, 0,
					      TLS_CIPHER_CHACHA20_POLY1305), -EINVAL);
	KUNIT_EXPECT_TRUE(test, quic_is_establishing(sk));
}

static void connection_secrets_complete_the_server_handshake(struct kunit *test)
{
	struct socket *lsock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	unsigned long estabs = quic_mib_read(&init_net, QUIC_MIB_CONN_PASSIVEESTABS);
	struct socket *newsock = NULL;
	struct quic_request req;
	struct sock *sk;

	conn_request_fill(&req, &conn_kinds[0], 62072, 50010, 9);
	KUNIT_ASSERT_EQ(test, conn_bind(lsock, "127.0.0.1", 62072), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 8), 0);
	KUNIT_ASSERT_EQ(test, conn_request_add(lsock->sk, &req), 0);
	KUNIT_ASSERT_EQ(test, kernel_accept(lsock, &newsock, O_NONBLOCK), 0);
	sk = newsock->sk;

	/* A server receives 0-RTT and never sends it. */
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_EARLY, 1,
					      TLS_CIPHER_AES_GCM_128), -EINVAL);
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_EARLY, 0,
					      TLS_CIPHER_AES_GCM_128), 0);
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_APP, 0,
					      TLS_CIPHER_AES_GCM_128), 0);
	KUNIT_EXPECT_EQ(test, conn_set_secret(sk, QUIC_CRYPTO_APP, 1,
					      TLS_CIPHER_AES_GCM_128), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_established(sk));
	KUNIT_EXPECT_EQ(test, quic_mib_read(&init_net, QUIC_MIB_CONN_PASSIVEESTABS), estabs + 1);
	sock_release(newsock);
}

static int connection_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void connection_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

static struct kunit_case connection_cases[] = {
	KUNIT_CASE(connection_bind_shares_one_udp_port),
	KUNIT_CASE(connection_bind_port_zero_picks_a_port),
	KUNIT_CASE(connection_bind_refuses_second_bind_and_bad_addresses),
	KUNIT_CASE_PARAM(connection_connect_sets_up_the_client, conn_kind_gen_params),
	KUNIT_CASE(connection_connect_ids_differ_between_connections),
	KUNIT_CASE(connection_connect_refuses_bad_targets_and_states),
	KUNIT_CASE(connection_connect_from_wildcard_takes_route_source),
	KUNIT_CASE(connection_listen_needs_a_bound_socket),
	KUNIT_CASE(connection_listen_refuses_a_second_listener),
	KUNIT_CASE(connection_listener_shut_for_reading_stops_listening),
	KUNIT_CASE(connection_accept_refuses_without_listen_or_client),
	KUNIT_CASE_PARAM(connection_accept_sets_up_the_server_side, conn_kind_gen_params),
	KUNIT_CASE(connection_accept_inherits_listener_settings),
	KUNIT_CASE(connection_preferred_address_offered_before_the_parameters),
	KUNIT_CASE(connection_accept_queue_is_bounded_and_deduplicated),
	KUNIT_CASE(connection_lookups_find_listener_and_connection),
	KUNIT_CASE(connection_close_removes_socket_from_lookups),
	KUNIT_CASE(connection_secret_refused_outside_the_handshake),
	KUNIT_CASE_PARAM(connection_secrets_complete_the_client_handshake, conn_cipher_gen_params),
	KUNIT_CASE(connection_secret_rules_per_level_and_direction),
	KUNIT_CASE(connection_secrets_complete_the_server_handshake),
	{}
};

static struct kunit_suite connection_suite = {
	.name = "quic_connection",
	.suite_init = connection_suite_init,
	.suite_exit = connection_suite_exit,
	.test_cases = connection_cases,
};

kunit_test_suite(connection_suite);
