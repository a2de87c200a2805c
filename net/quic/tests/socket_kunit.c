// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_socket: socket creation and release for every family
 * and type, SOL_QUIC option handling (validation, round trips, unknown and
 * not-yet-supported options), SOL_IP/SOL_IPV6 pass-through, the uapi
 * layout, /proc/net/quic/snmp and the net.quic sysctl handlers.
 */

#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/percpu_counter.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <uapi/linux/tls.h>

#include "../addrval.h"
#include "../connection.h"
#include "../connid_ctl.h"
#include "../lookup.h"
#include "../param.h"
#include "../request.h"
#include "../socket.h"
#include "../token.h"
#include "util.h"

struct socket_kind {
	const char *desc;
	int family;
	int type;
};

static const struct socket_kind socket_kinds[] = {
	{ "AF_INET SOCK_STREAM", AF_INET, SOCK_STREAM },
	{ "AF_INET SOCK_DGRAM", AF_INET, SOCK_DGRAM },
	{ "AF_INET6 SOCK_STREAM", AF_INET6, SOCK_STREAM },
	{ "AF_INET6 SOCK_DGRAM", AF_INET6, SOCK_DGRAM },
};

KUNIT_ARRAY_PARAM_DESC(socket_kind, socket_kinds, desc);

static void socket_create_release_restores_counters(struct kunit *test)
{
	const struct socket_kind *k = test->param_value;
	struct proto *prot = k->family == AF_INET6 ? &quicv6_prot : &quic_prot;
	int inuse = sock_prot_inuse_get(&init_net, prot);
	s64 allocated = percpu_counter_sum(&quic_sockets_allocated);
	struct socket *sock = NULL;
	int i;

	for (i = 0; i < 8; i++) {
		KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, k->family, k->type,
						       IPPROTO_QUIC, &sock), 0);
		KUNIT_EXPECT_PTR_EQ(test, sock->sk->sk_prot, prot);
		KUNIT_EXPECT_EQ(test, sock->sk->sk_protocol, IPPROTO_QUIC);
		KUNIT_EXPECT_EQ(test, sock_prot_inuse_get(&init_net, prot), inuse + 1);
		KUNIT_EXPECT_EQ(test, percpu_counter_sum(&quic_sockets_allocated), allocated + 1);
		KUNIT_EXPECT_TRUE(test, quic_is_closed(sock->sk));
		sock_release(sock);
		KUNIT_EXPECT_EQ(test, sock_prot_inuse_get(&init_net, prot), inuse);
		KUNIT_EXPECT_EQ(test, percpu_counter_sum(&quic_sockets_allocated), allocated);
	}
}

/*
 * Connection ID lookups run under RCU without holding the socket: a socket
 * closed meanwhile must stay readable until the grace period ends, so the
 * lookup can fail refcount_inc_not_zero() instead of touching freed memory.
 */
static void socket_is_freed_after_rcu_grace_period(struct kunit *test)
{
	const struct socket_kind *k = test->param_value;
	struct sock *sk = quic_kunit_socket(test, k->family, k->type)->sk;

	KUNIT_EXPECT_TRUE(test, sock_flag(sk, SOCK_RCU_FREE));
}

/*
 * quic_kernel_setsockopt() and quic_kernel_getsockopt() take a bare
 * struct sock from another module: one that is not a QUIC socket (a raw
 * socket whose protocol number is 261 too, or a UDP socket) is refused
 * before anything reads it as one.
 */
static void socket_kernel_options_refuse_other_sockets(struct kunit *test)
{
	static const struct { int type; int protocol; } others[] = {
		{ SOCK_RAW, IPPROTO_QUIC },
		{ SOCK_DGRAM, IPPROTO_UDP },
		{ SOCK_STREAM, IPPROTO_TCP },
	};
	struct quic_event_option opt = { .type = QUIC_EVENT_STREAM_UPDATE };
	struct socket *sock;
	unsigned int len;
	int i;

	for (i = 0; i < ARRAY_SIZE(others); i++) {
		KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, others[i].type,
						       others[i].protocol, &sock), 0);
		len = sizeof(opt);
		KUNIT_EXPECT_EQ_MSG(test, quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_EVENT,
								 &opt, &len),
				    -EPROTOTYPE, "type %d protocol %d", others[i].type,
				    others[i].protocol);
		/* Refused before the (absent) value is looked at. */
		KUNIT_EXPECT_EQ_MSG(test, quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_EVENT,
								 NULL, sizeof(opt)),
				    -EPROTOTYPE, "type %d protocol %d", others[i].type,
				    others[i].protocol);
		sock_release(sock);
	}
}

/*
 * Stateless reset tokens and address validation tokens are keyed per
 * network namespace: the reset token a listener in one namespace reveals
 * for a connection ID is not the token of that ID in another, and an
 * address token issued in one namespace is refused in another.
 */
static void socket_namespaces_key_their_own_tokens(struct kunit *test)
{
#if IS_BUILTIN(CONFIG_IP_QUIC_KUNIT_TEST) && IS_ENABLED(CONFIG_NET_NS)
	struct quic_conn_id id = { .len = 8, .data = { 1, 2, 3, 4, 5, 6, 7, 8 } };
	struct quic_request req = { .version = QUIC_VERSION_V1 };
	u8 a[QUIC_CONN_ID_TOKEN_LEN], b[QUIC_CONN_ID_TOKEN_LEN];
	u8 token[QUIC_ADDR_TOKEN_MAX_LEN];
	u32 len = sizeof(token);
	union quic_addr addr;
	struct net *net;

	net = copy_net_ns(CLONE_NEWNET, &init_user_ns, &init_net);
	KUNIT_ASSERT_FALSE(test, IS_ERR(net));
	KUNIT_EXPECT_EQ(test, quic_cid_reset_token(&init_net, &id, a), 0);
	KUNIT_EXPECT_EQ(test, quic_cid_reset_token(net, &id, b), 0);
	KUNIT_EXPECT_MEMNEQ(test, a, b, sizeof(a));

	quic_kunit_addr4(&addr, "192.0.2.1", 4433);
	KUNIT_ASSERT_EQ(test, quic_crypto_token_generate(&quic_net(&init_net)->token_mac, &addr,
							 QUIC_VERSION_V1, NULL,
							 ktime_get_real_seconds(), 60, token,
							 &len), 0);
	KUNIT_EXPECT_EQ(test, quic_addrval_check(net, &addr, token, len, &req), -EBADMSG);
	KUNIT_EXPECT_FALSE(test, req.validated);
	KUNIT_EXPECT_EQ(test, quic_addrval_check(&init_net, &addr, token, len, &req), 0);
	KUNIT_EXPECT_TRUE(test, req.validated);
	put_net(net);
#else
	kunit_skip(test, "needs the suites built in and network namespaces");
#endif
}

/* A QUIC socket as a user of @uid would have it (not the kernel's own). */
static struct socket *socket_of_user(struct kunit *test, u32 uid)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);

	sock->sk->sk_kern_sock = 0;
	sock->sk->sk_uid = KUIDT_INIT(uid);
	return sock;
}

/*
 * The rules users expect from UDP and TCP: a port below
 * ip_unprivileged_port_start needs CAP_NET_BIND_SERVICE, and a port bound
 * by one user is shared only with sockets of the same user (SO_REUSEPORT's
 * rule); the kernel's own sockets are exempt.
 */
static void socket_bind_keeps_ports_to_their_owner(struct kunit *test)
{
	struct socket *a = socket_of_user(test, 1000), *b = socket_of_user(test, 1001);
	struct socket *c = socket_of_user(test, 1000), *d, *e = socket_of_user(test, 1000);
	const struct cred *old;
	union quic_addr addr;
	struct cred *cred;

	d = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	quic_kunit_addr4(&addr, "0.0.0.0", 62990);
	KUNIT_ASSERT_EQ(test, kernel_bind(a, &addr.sa, sizeof(addr.v4)), 0);
	KUNIT_EXPECT_EQ(test, kernel_bind(b, &addr.sa, sizeof(addr.v4)), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, kernel_bind(c, &addr.sa, sizeof(addr.v4)), 0);
	KUNIT_EXPECT_EQ(test, kernel_bind(d, &addr.sa, sizeof(addr.v4)), 0);

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_effective, CAP_NET_BIND_SERVICE);
	old = override_creds(cred);
	quic_kunit_addr4(&addr, "0.0.0.0", 443);
	KUNIT_EXPECT_EQ(test, kernel_bind(e, &addr.sa, sizeof(addr.v4)), -EACCES);
	revert_creds(old);
	put_cred(cred);
}

static void socket_defaults_follow_rfc(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	struct quic_transport_param *r = quic_remote_param(sk);
	struct quic_config *c = quic_config(sk);

	KUNIT_EXPECT_EQ(test, c->version, QUIC_VERSION_V1);
	KUNIT_EXPECT_EQ(test, c->initial_smoothed_rtt, 333000U);	/* RFC 9002 6.2.2 */
	KUNIT_EXPECT_EQ(test, c->congestion_control_algo, QUIC_CONG_ALG_RENO);
	/* RFC 9000 18.2 defaults for a peer that sent nothing yet. */
	KUNIT_EXPECT_EQ(test, r->remote, 1);
	KUNIT_EXPECT_EQ(test, r->max_udp_payload_size, 65527);
	KUNIT_EXPECT_EQ(test, r->ack_delay_exponent, 3);
	KUNIT_EXPECT_EQ(test, r->max_ack_delay, 25000U);
	KUNIT_EXPECT_EQ(test, r->active_connection_id_limit, 2);
	KUNIT_EXPECT_EQ(test, r->max_data, 0ULL);
	KUNIT_EXPECT_EQ(test, quic_param_validate(quic_local_param(sk)), 0);
	/* Ours: draft-lxin-quic-socket-apis, struct quic_transport_param. */
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->active_connection_id_limit, 7);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->max_data, 65536ULL * 32);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->max_stream_data_bidi_local, 65536ULL * 4);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->max_idle_timeout, 30000000U);
	KUNIT_EXPECT_EQ(test, sk->sk_sndbuf, READ_ONCE(sysctl_quic_wmem[1]));
	KUNIT_EXPECT_EQ(test, sk->sk_rcvbuf, READ_ONCE(sysctl_quic_rmem[1]));
}

static void socket_unknown_option_is_enoprotoopt(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET6, SOCK_DGRAM)->sk;
	static const int names[] = { 16, 17, 255, -1, INT_MAX };
	unsigned int len;
	u8 buf[8] = {};
	int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		len = sizeof(buf);
		KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, names[i], buf, sizeof(buf)),
				-ENOPROTOOPT);
		KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, names[i], buf, &len),
				-ENOPROTOOPT);
	}
}

/* QUIC_SOCKOPT_CONNECTION_MIGRATION: set only; an address, then a connection. */
static void socket_migration_needs_a_connection(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_DGRAM)->sk;
	struct sockaddr_in a = { .sin_family = AF_INET };
	unsigned int len = sizeof(a);

	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_MIGRATION, &a,
						     sizeof(a)), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_MIGRATION, &a,
						     sizeof(a) - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_MIGRATION, &a,
						     &len), -EOPNOTSUPP);
}

/* Stream reset, stop sending and key update act on a connection: set only,
 * and -ENOTCONN on a socket without one (after the size check of the
 * stream actions).
 */
static void socket_connection_actions_need_a_connection(struct kunit *test)
{
	static const int names[] = {
		QUIC_SOCKOPT_STREAM_RESET, QUIC_SOCKOPT_STREAM_STOP_SENDING,
		QUIC_SOCKOPT_KEY_UPDATE,
	};
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	struct quic_errinfo ei = { .stream_id = 0 };
	unsigned int len;
	int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		len = sizeof(ei);
		KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, names[i], &ei, sizeof(ei)),
				-ENOTCONN);
		KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, names[i], &ei, &len),
				-EOPNOTSUPP);
	}
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_STREAM_RESET, &ei,
						     sizeof(ei) - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_KEY_UPDATE, NULL, 0),
			-ENOTCONN);
}

/* QUIC_SOCKOPT_CONNECTION_ID: exact structure both ways, then a connection. */
static void socket_connection_id_needs_a_connection(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	struct quic_connection_id_info info = { .dest = 1 };
	unsigned int len = sizeof(info);

	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_ID, &info, &len),
			-ENOTCONN);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_ID, &info,
						     sizeof(info)), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_ID, &info,
						     sizeof(info) - 1), -EINVAL);
	info.dest = 2;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_ID, &info, &len),
			-EINVAL);
	len = sizeof(info) - 1;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_ID, &info, &len),
			-EINVAL);
}

/*
 * QUIC_SOCKOPT_STREAM_OPEN is read, never written; it checks its input,
 * then needs a connection that can carry stream data.
 */
static void socket_stream_open_needs_a_connection(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	struct quic_stream_info si = { .stream_id = -1 };
	unsigned int len = sizeof(si);

	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_STREAM_OPEN, &si,
						     sizeof(si)), -EOPNOTSUPP);
	len = sizeof(si) - 1;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_STREAM_OPEN, &si, &len),
			-EINVAL);
	len = sizeof(si);
	si.stream_flags = MSG_STREAM_FIN;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_STREAM_OPEN, &si, &len),
			-EINVAL);
	si.stream_flags = MSG_STREAM_UNI | MSG_STREAM_DONTWAIT;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_STREAM_OPEN, &si, &len),
			-ENOTCONN);
	KUNIT_EXPECT_EQ(test, si.stream_id, -1);
}

/*
 * QUIC_SOCKOPT_CONNECTION_CLOSE takes a struct quic_connection_close whose
 * phrase is a NUL-terminated string of at most 80 bytes; frame is output
 * only. A get returns what was set, at least the structure's size.
 */
static void socket_connection_close_option_rules(struct kunit *test)
{
	const unsigned int off = offsetof(struct quic_connection_close, phrase);
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_DGRAM)->sk;
	u8 buf[128] = {};
	struct quic_connection_close *cc = (void *)buf;
	unsigned int len;

	/* Shorter than the structure, or room for more than 80 bytes. */
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf,
						     sizeof(*cc) - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf,
						     off + 82), -EINVAL);
	/* A phrase without its NUL. */
	memset(cc->phrase, 'x', 20);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf,
						     off + 20), -EINVAL);
	/* The frame type that caused the close is the caller's to give (the
	 * draft's "frame", 0 by default) and is read back.
	 */
	memset(buf, 0, sizeof(buf));
	cc->errcode = 0x10a;
	cc->frame = 0x06;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf,
						     sizeof(*cc)), 0);
	memset(buf, 0, sizeof(buf));
	len = sizeof(buf);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, &len),
			0);
	KUNIT_EXPECT_EQ(test, cc->errcode, 0x10a);
	KUNIT_EXPECT_EQ(test, cc->frame, 0x06);

	/* The longest phrase, then a round trip. */
	memset(buf, 0, sizeof(buf));
	cc->errcode = 0x10c;
	memset(cc->phrase, 'p', 80);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf,
						     off + 81), 0);
	memset(buf, 0, sizeof(buf));
	len = off + 80;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, &len),
			-EINVAL);
	len = sizeof(buf);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, &len),
			0);
	KUNIT_EXPECT_EQ(test, len, off + 81);
	KUNIT_EXPECT_EQ(test, cc->errcode, 0x10c);
	KUNIT_EXPECT_EQ(test, strlen((char *)cc->phrase), 80);

	/* The bare structure, no phrase: the reported length is its size. */
	memset(buf, 0, sizeof(buf));
	cc->errcode = 3;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf,
						     sizeof(*cc)), 0);
	len = sizeof(buf);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, &len),
			0);
	KUNIT_EXPECT_EQ(test, len, sizeof(*cc));
	KUNIT_EXPECT_EQ(test, cc->errcode, 3);
	KUNIT_EXPECT_EQ(test, cc->phrase[0], 0);

	/* The bare structure with its padding not cleared: no phrase (the
	 * three bytes after frame are padding to a program that sets none).
	 */
	memset(buf, 0, sizeof(buf));
	cc->errcode = 4;
	cc->frame = 8;
	memset(cc->phrase, 0xa5, sizeof(*cc) - off);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf,
						     sizeof(*cc)), 0);
	len = sizeof(buf);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, &len),
			0);
	KUNIT_EXPECT_EQ(test, len, sizeof(*cc));
	KUNIT_EXPECT_EQ(test, cc->errcode, 4);
	KUNIT_EXPECT_EQ(test, cc->frame, 8);
	KUNIT_EXPECT_EQ(test, cc->phrase[0], 0);
}

/*
 * The 72-byte struct quic_connection_close of later upstream headers:
 * three reserved bytes after frame, the phrase at offset 8 in a fixed
 * 64-byte buffer. Set and got in that layout; our layout keeps working.
 */
static void socket_connection_close_later_layout(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_DGRAM)->sk;
	struct {
		u32 errcode;
		u8 frame;
		u8 reserved[3];
		u8 phrase[64];
	} longer = { .errcode = 0x1234 };
	u8 buf[128] = {};
	struct quic_connection_close *cc = (void *)buf;
	unsigned int len;

	BUILD_BUG_ON(sizeof(longer) != 72);
	strscpy(longer.phrase, "later layout", sizeof(longer.phrase));
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, &longer,
						     sizeof(longer)), 0);
	/* Read back in our layout: the phrase right after frame. */
	len = sizeof(buf);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, &len),
			0);
	KUNIT_EXPECT_EQ(test, cc->errcode, 0x1234);
	KUNIT_EXPECT_STREQ(test, (char *)cc->phrase, "later layout");

	/* A phrase filling the 64 bytes, no NUL; read back in that layout it
	 * is cut to 63 bytes and its NUL.
	 */
	memset(longer.phrase, 'q', sizeof(longer.phrase));
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, &longer,
						     sizeof(longer)), 0);
	memset(&longer, 0xff, sizeof(longer));
	len = sizeof(longer);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, &longer,
						     &len), 0);
	KUNIT_EXPECT_EQ(test, len, 72U);
	KUNIT_EXPECT_EQ(test, longer.errcode, 0x1234);
	KUNIT_EXPECT_EQ(test, longer.frame, 0);
	KUNIT_EXPECT_EQ(test, longer.reserved[0] | longer.reserved[1] | longer.reserved[2], 0);
	KUNIT_EXPECT_EQ(test, strnlen((char *)longer.phrase, 64), 63);

	/* 72 bytes of our layout, a phrase starting right after frame. */
	memset(buf, 0, sizeof(buf));
	cc->errcode = 7;
	memset(cc->phrase, 'r', 66);
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, 72),
			0);
	memset(buf, 0, sizeof(buf));
	len = sizeof(buf);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, &len),
			0);
	KUNIT_EXPECT_EQ(test, strlen((char *)cc->phrase), 66);
}

/* Data calls need a connection: connect() or accept() comes first. */
static void socket_data_calls_need_a_connection(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct msghdr msg = {};
	struct kvec iov;
	u8 buf[4] = {};

	iov.iov_base = buf;
	iov.iov_len = sizeof(buf);

	KUNIT_EXPECT_EQ(test, kernel_sendmsg(sock, &msg, &iov, 1, sizeof(buf)), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, kernel_recvmsg(sock, &msg, &iov, 1, sizeof(buf), MSG_DONTWAIT),
			-ENOTCONN);
}

/*
 * The later upstream layout of struct quic_config: 28 bytes, a u32
 * keepalive_probe_interval (microseconds) after our 24. Both are taken;
 * a get returns the layout the buffer holds; the shorter one leaves the
 * keep-alive alone.
 */
static void socket_config_later_layout_carries_the_keepalive(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	struct {
		struct quic_config c;
		u32 keepalive;
		u32 beyond;
	} __packed in = { .c = { .version = QUIC_VERSION_V1 }, .keepalive = 250000 }, out;
	unsigned int len = sizeof(out);

	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &in, 28), 0);
	KUNIT_EXPECT_EQ(test, quic_sk(sk)->keepalive_interval, 250000U);
	memset(&out, 0xa5, sizeof(out));
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONFIG, &out, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 28U);
	KUNIT_EXPECT_EQ(test, out.keepalive, 250000U);
	KUNIT_EXPECT_EQ(test, out.c.version, QUIC_VERSION_V1);
	KUNIT_EXPECT_EQ(test, out.beyond, 0xa5a5a5a5U);

	/* A buffer of the shorter layout gets 24 bytes. */
	len = 27;
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONFIG, &out, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 24U);

	/* Layouts too short for the interval keep it; longer ones (the
	 * draft's is 64 bytes) are read up to it.
	 */
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &in.c, 24), 0);
	KUNIT_EXPECT_EQ(test, quic_sk(sk)->keepalive_interval, 250000U);
	in.keepalive = 300000;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &in, 27), 0);
	KUNIT_EXPECT_EQ(test, quic_sk(sk)->keepalive_interval, 250000U);
	in.beyond = 0xffffffff;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &in, 32), 0);
	KUNIT_EXPECT_EQ(test, quic_sk(sk)->keepalive_interval, 300000U);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &in, 23), -EINVAL);

	/* Under 100 ms is refused; 0 leaves it as it is. */
	in.keepalive = 99999;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &in, 28), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_sk(sk)->keepalive_interval, 300000U);
	in.keepalive = 0;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &in, 28), 0);
	KUNIT_EXPECT_EQ(test, quic_sk(sk)->keepalive_interval, 300000U);
}

static void socket_config_round_trip(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	struct quic_config in = {
		.version = QUIC_VERSION_V2,
		.plpmtud_probe_interval = 10 * USEC_PER_SEC,
		.initial_smoothed_rtt = 100000,
		.payload_cipher_type = TLS_CIPHER_CHACHA20_POLY1305,
		.congestion_control_algo = QUIC_CONG_ALG_CUBIC,
		.validate_peer_address = 1,
		.receive_session_ticket = 1,
	};
	struct quic_config out = {};
	unsigned int len = sizeof(out);

	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &in, sizeof(in)), 0);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONFIG, &out, &len), 0);
	KUNIT_EXPECT_EQ(test, len, (unsigned int)sizeof(out));
	KUNIT_EXPECT_MEMEQ(test, &out, &in, sizeof(in));
	/* The congestion controller follows the configuration. */
	KUNIT_EXPECT_EQ(test, quic_cong_algo(quic_cong(sk)), QUIC_CONG_ALG_CUBIC);
	KUNIT_EXPECT_EQ(test, quic_cong_smoothed_rtt(quic_cong(sk)), 100000U);

	/* draft-lxin-quic-socket-apis: a zero field leaves its value. */
	memset(&in, 0, sizeof(in));
	in.stream_data_nodelay = 1;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &in, sizeof(in)), 0);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->version, QUIC_VERSION_V2);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->initial_smoothed_rtt, 100000U);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->congestion_control_algo, QUIC_CONG_ALG_CUBIC);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->validate_peer_address, 1);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->stream_data_nodelay, 1);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->receive_session_ticket, 1);
}

static void socket_config_rejects_bad_values(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	struct quic_config good = *quic_config(sk), c;
	unsigned int len;

#define EXPECT_CONFIG_EINVAL(field, value) do {					\
		c = good;							\
		c.field = (value);						\
		KUNIT_EXPECT_EQ_MSG(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, \
				    &c, sizeof(c)), -EINVAL, #field " = " #value); \
	} while (0)

	EXPECT_CONFIG_EINVAL(congestion_control_algo, QUIC_CONG_ALG_MAX);
	EXPECT_CONFIG_EINVAL(payload_cipher_type, TLS_CIPHER_AES_CCM_128 + 100);
	EXPECT_CONFIG_EINVAL(initial_smoothed_rtt, 999);
	/* The draft's range: at least 100 ms, less than 6 s. */
	EXPECT_CONFIG_EINVAL(initial_smoothed_rtt, 99999);
	EXPECT_CONFIG_EINVAL(initial_smoothed_rtt, 6000000);
	EXPECT_CONFIG_EINVAL(plpmtud_probe_interval, 1000);
	EXPECT_CONFIG_EINVAL(certificate_request, 3);
#undef EXPECT_CONFIG_EINVAL
	c = good;
	c.initial_smoothed_rtt = 100000;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &c, sizeof(c)), 0);
	c.initial_smoothed_rtt = 5999999;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &c, sizeof(c)), 0);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->initial_smoothed_rtt, 5999999U);

	/* Any non-zero version is taken: a client's first packets in one we
	 * do not speak provoke Version Negotiation (RFC 9000 Section 6.3).
	 */
	c = good;
	c.version = 0x1a2a3a4a;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &c, sizeof(c)), 0);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->version, 0x1a2a3a4aU);
	good.version = 0x1a2a3a4a;

	/* Reserved bytes are ignored, not refused; a non-zero flag sets it
	 * (draft-lxin-quic-socket-apis, "!0: enabled").
	 */
	c = good;
	c.reserved[2] = 1;
	c.validate_peer_address = 2;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &c, sizeof(c)), 0);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->reserved[2], 0);
	KUNIT_EXPECT_EQ(test, quic_config(sk)->validate_peer_address, 1);
	good.validate_peer_address = 1;

	/* Short and oversized option lengths. */
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &good,
						     sizeof(good) - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_CONFIG, &good, 0), -EINVAL);
	len = sizeof(c) - 1;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_CONFIG, &c, &len), -EINVAL);
	/* Nothing was changed by the failed calls. */
	KUNIT_EXPECT_MEMEQ(test, quic_config(sk), &good, sizeof(good));
}

/* Programs built against later upstream headers pass the 56-byte layout of
 * struct quic_transport_param (no trailing reserved field), those built
 * from the draft an 88-byte one: both accepted, what follows our fields
 * ignored; shorter ones are refused.
 */
static void socket_transport_param_accepts_the_56_byte_layout(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	struct quic_transport_param p = {};
	unsigned int len = sizeof(p);

	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, &len),
			0);
	p.max_streams_bidi = 7;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, 56), 0);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, 55),
			-EINVAL);
	p.max_streams_bidi = 8;
	p.reserved = U64_MAX;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, 60), 0);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->reserved, 0);
	p.max_streams_bidi = 7;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, 56), 0);
	memset(&p, 0, sizeof(p));
	len = 56;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, &len),
			0);
	KUNIT_EXPECT_EQ(test, len, 56);
	KUNIT_EXPECT_EQ(test, p.max_streams_bidi, 7);
	len = 55;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, &len),
			-EINVAL);
}

static void socket_transport_param_local_and_remote(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET6, SOCK_STREAM)->sk;
	struct quic_transport_param p = *quic_local_param(sk), out = {};
	unsigned int len = sizeof(out);

	p.max_data = 1 << 24;
	p.max_streams_bidi = 7;
	p.grease_quic_bit = 1;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p,
						     sizeof(p)), 0);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &out,
						     &len), 0);
	KUNIT_EXPECT_MEMEQ(test, &out, &p, sizeof(p));

	/* remote = 1 stores remembered peer values (0-RTT resumption) ... */
	p.remote = 1;
	p.max_data = 4096;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p,
						     sizeof(p)), 0);
	KUNIT_EXPECT_EQ(test, quic_remote_param(sk)->max_data, 4096ULL);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->max_data, 1ULL << 24);
	/* ... and "remote" in the getsockopt buffer selects which set is read. */
	memset(&out, 0, sizeof(out));
	out.remote = 1;
	len = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &out,
						     &len), 0);
	KUNIT_EXPECT_EQ(test, out.max_data, 4096ULL);
}

static void socket_transport_param_rejects_rfc_violations(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	struct quic_transport_param good = *quic_local_param(sk), p;

#define EXPECT_PARAM_EINVAL(field, value) do {					\
		p = good;							\
		p.field = (value);						\
		KUNIT_EXPECT_EQ_MSG(test, quic_kernel_setsockopt(sk,		\
				    QUIC_SOCKOPT_TRANSPORT_PARAM, &p, sizeof(p)), \
				    -EINVAL, #field " = " #value);		\
	} while (0)

	/* RFC 9000 Section 18.2 limits */
	EXPECT_PARAM_EINVAL(ack_delay_exponent, 21);
	EXPECT_PARAM_EINVAL(max_ack_delay, 16384 * 1000);
	EXPECT_PARAM_EINVAL(active_connection_id_limit, 1);
	EXPECT_PARAM_EINVAL(max_udp_payload_size, 1199);
	EXPECT_PARAM_EINVAL(max_udp_payload_size, 65528);
	EXPECT_PARAM_EINVAL(max_data, 1ULL << 62);
	EXPECT_PARAM_EINVAL(max_stream_data_uni, U64_MAX);
#undef EXPECT_PARAM_EINVAL
	KUNIT_EXPECT_MEMEQ(test, quic_local_param(sk), &good, sizeof(good));

	p = good;
	p.ack_delay_exponent = 20;
	p.max_ack_delay = 16384 * 1000 - 1;
	p.max_udp_payload_size = 1200;
	/* The limits themselves pass; the rules are quic_param_validate()'s. */
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p,
						     sizeof(p)), 0);

	/* draft-lxin-quic-socket-apis: programs set only the fields they
	 * care about in a zeroed structure; the others keep their values,
	 * a non-zero flag sets it, reserved bytes are ignored.
	 */
	memset(&p, 0, sizeof(p));
	p.max_datagram_frame_size = 1400;
	p.disable_active_migration = 2;
	p.reserved = 1;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p,
						     sizeof(p) + 1), 0);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->max_datagram_frame_size, 1400);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->disable_active_migration, 1);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->reserved, 0);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->ack_delay_exponent, 20);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->max_udp_payload_size, 1200);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->max_data, good.max_data);
	KUNIT_EXPECT_EQ(test, quic_local_param(sk)->active_connection_id_limit,
			good.active_connection_id_limit);
}

/*
 * draft-lxin-quic-socket-apis, Appendix D: a server configures its listener
 * after listen(); the connections it accepts from then on inherit it. A
 * listener has no peer: remembered remote parameters are refused.
 */
static void socket_listener_takes_config_and_params_after_listen(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_DGRAM);
	struct quic_transport_param p = { .max_streams_uni = 11 };
	struct quic_config c = { .validate_peer_address = 1 };
	union quic_addr addr;

	quic_kunit_addr4(&addr, "0.0.0.0", 62991);
	KUNIT_ASSERT_EQ(test, kernel_bind(sock, &addr.sa, sizeof(addr.v4)), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(sock, 1), 0);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_CONFIG, &c,
						     sizeof(c)), 0);
	KUNIT_EXPECT_EQ(test, quic_config(sock->sk)->validate_peer_address, 1);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p,
						     sizeof(p)), 0);
	KUNIT_EXPECT_EQ(test, quic_local_param(sock->sk)->max_streams_uni, 11);
	p.remote = 1;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &p,
						     sizeof(p)), -EISCONN);
}

/*
 * draft-lxin-quic-socket-apis, listen(): "If backlog is non-zero, enable
 * listening, else disable listening". The socket may listen again.
 */
static void socket_listen_with_zero_backlog_stops_listening(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_DGRAM), *child;
	union quic_addr addr;

	quic_kunit_addr4(&addr, "0.0.0.0", 62992);
	KUNIT_ASSERT_EQ(test, kernel_bind(sock, &addr.sa, sizeof(addr.v4)), 0);
	KUNIT_EXPECT_EQ(test, kernel_listen(sock, 0), 0);
	KUNIT_EXPECT_FALSE(test, quic_is_listen(sock->sk));
	KUNIT_ASSERT_EQ(test, kernel_listen(sock, 4), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_listen(sock->sk));
	KUNIT_EXPECT_FALSE(test, sk_unhashed(sock->sk));
	KUNIT_ASSERT_EQ(test, kernel_listen(sock, 0), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(sock->sk));
	KUNIT_EXPECT_TRUE(test, sk_unhashed(sock->sk));
	KUNIT_EXPECT_FALSE(test, quic_paths(sock->sk)->serv);
	KUNIT_EXPECT_EQ(test, kernel_accept(sock, &child, O_NONBLOCK), -EINVAL);
	KUNIT_EXPECT_EQ(test, kernel_listen(sock, 1), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_listen(sock->sk));
}

static void socket_alpn_round_trip_and_limits(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	static const u8 want[] = { 2, 'h', '3', 4, 's', 'm', 'b', 'd' };
	char out[16];
	unsigned int len = sizeof(out);
	char *big;

	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_ALPN, "h3,smbd", 7), 0);
	KUNIT_EXPECT_EQ(test, quic_alpn(sk)->len, (u32)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, quic_alpn(sk)->data, want, sizeof(want));
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_ALPN, out, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 7U);
	KUNIT_EXPECT_MEMEQ(test, out, "h3,smbd", 7);
	len = 6;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_ALPN, out, &len), -EINVAL);

	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_ALPN, "h3,,x", 5), -EINVAL);
	/* The draft's bound on the option: a list of 256 bytes (two names of
	 * 127 and 128) is taken, one of 257 refused.
	 */
	big = kunit_kzalloc(test, QUIC_ALPN_OPT_MAX_LEN + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, 'a', QUIC_ALPN_OPT_MAX_LEN + 1);
	big[127] = ',';
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_ALPN, big,
						     QUIC_ALPN_OPT_MAX_LEN + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn(sk)->len, (u32)sizeof(want));
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_ALPN, big,
						     QUIC_ALPN_OPT_MAX_LEN), 0);
	KUNIT_EXPECT_EQ(test, quic_alpn(sk)->len, (u32)QUIC_ALPN_OPT_MAX_LEN + 1);
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_ALPN, "h3,smbd", 7), 0);
	/* Failed calls kept the list; an empty value clears it. */
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_ALPN, "h3,,x", 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn(sk)->len, (u32)sizeof(want));
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_ALPN, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, quic_alpn(sk)->len, 0U);
}

static void socket_token_and_ticket_round_trip(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET6, SOCK_DGRAM)->sk;
	static const u8 token[] = { 0xde, 0xad, 0xbe, 0xef, 0x01 };
	unsigned int len;
	u8 *big, out[8];

	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TOKEN, (void *)token,
						     sizeof(token)), 0);
	len = sizeof(out);
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_TOKEN, out, &len), 0);
	KUNIT_EXPECT_EQ(test, len, (unsigned int)sizeof(token));
	KUNIT_EXPECT_MEMEQ(test, out, token, sizeof(token));
	len = sizeof(token) - 1;
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_TOKEN, out, &len), -EINVAL);

	big = kunit_kzalloc(test, QUIC_TICKET_MAX_LEN + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	/* The draft's bound: 512 bytes taken, 513 refused. */
	KUNIT_EXPECT_EQ(test, QUIC_TOKEN_MAX_LEN, 512);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TOKEN, big,
						     QUIC_TOKEN_MAX_LEN + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TOKEN, big,
						     QUIC_TOKEN_MAX_LEN), 0);
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_SESSION_TICKET, big,
						     QUIC_TICKET_MAX_LEN + 1), -EINVAL);
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_SESSION_TICKET, big,
						     QUIC_TICKET_MAX_LEN), 0);
	KUNIT_EXPECT_EQ(test, quic_ticket(sk)->len, (u32)QUIC_TICKET_MAX_LEN);
	/* A NULL value with a length is refused, not dereferenced. */
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_TOKEN, NULL, 4), -EINVAL);
}

static void socket_event_enable_disable(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_DGRAM)->sk;
	struct quic_event_option ev = { .type = QUIC_EVENT_KEY_UPDATE, .on = 1 };
	unsigned int len = sizeof(ev);

	KUNIT_EXPECT_FALSE(test, quic_event_enabled(sk, QUIC_EVENT_KEY_UPDATE));
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev)), 0);
	KUNIT_EXPECT_TRUE(test, quic_event_enabled(sk, QUIC_EVENT_KEY_UPDATE));
	KUNIT_EXPECT_FALSE(test, quic_event_enabled(sk, QUIC_EVENT_NEW_TOKEN));

	ev.on = 0;
	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sk, QUIC_SOCKOPT_EVENT, &ev, &len), 0);
	KUNIT_EXPECT_EQ(test, ev.on, 1);
	ev.on = 0;
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev)), 0);
	KUNIT_EXPECT_FALSE(test, quic_event_enabled(sk, QUIC_EVENT_KEY_UPDATE));

	ev.type = QUIC_EVENT_NONE;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev)),
			-EINVAL);
	ev.type = QUIC_EVENT_END;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev)),
			-EINVAL);
	/* draft-lxin-quic-socket-apis: any non-zero "on" enables. */
	ev.type = QUIC_EVENT_NEW_TOKEN;
	ev.on = 2;
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev)), 0);
	KUNIT_EXPECT_TRUE(test, quic_event_enabled(sk, QUIC_EVENT_NEW_TOKEN));
	KUNIT_EXPECT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_EVENT, &ev, 1), -EINVAL);
}

static void socket_ip_level_options_pass_through(struct kunit *test)
{
	struct sock *sk4 = quic_kunit_socket(test, AF_INET, SOCK_DGRAM)->sk;
	struct sock *sk6 = quic_kunit_socket(test, AF_INET6, SOCK_DGRAM)->sk;
	int tos = 0x20, tclass = 0x48, ttl = 300;

	KUNIT_ASSERT_EQ(test, sk4->sk_prot->setsockopt(sk4, SOL_IP, IP_TOS,
						       KERNEL_SOCKPTR(&tos), sizeof(tos)), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(inet_sk(sk4)->tos), 0x20);
	KUNIT_ASSERT_EQ(test, sk6->sk_prot->setsockopt(sk6, SOL_IPV6, IPV6_TCLASS,
						       KERNEL_SOCKPTR(&tclass),
						       sizeof(tclass)), 0);
	KUNIT_EXPECT_EQ(test, inet6_sk(sk6)->tclass, 0x48);
	/* Errors of the IP layer come back unchanged. */
	KUNIT_EXPECT_EQ(test, sk4->sk_prot->setsockopt(sk4, SOL_IP, IP_TTL,
						       KERNEL_SOCKPTR(&ttl), sizeof(ttl)), -EINVAL);
}

struct socket_layout {
	const char *desc;
	size_t got;
	size_t want;
};

/* sizeof/offsetof of the uapi structures userspace was built against. */
static const struct socket_layout socket_layouts[] = {
	{ "sizeof quic_transport_param", sizeof(struct quic_transport_param), 64 },
	{ "offsetof quic_transport_param.max_data",
	  offsetof(struct quic_transport_param, max_data), 24 },
	{ "sizeof quic_config", sizeof(struct quic_config), 24 },
	{ "offsetof quic_config.congestion_control_algo",
	  offsetof(struct quic_config, congestion_control_algo), 16 },
	{ "sizeof quic_crypto_secret", sizeof(struct quic_crypto_secret), 56 },
	{ "offsetof quic_crypto_secret.secret", offsetof(struct quic_crypto_secret, secret), 8 },
	{ "sizeof quic_connection_id_info", sizeof(struct quic_connection_id_info), 12 },
	{ "sizeof quic_event_option", sizeof(struct quic_event_option), 2 },
	{ "sizeof quic_stream_update", sizeof(struct quic_stream_update), 24 },
	{ "offsetof quic_connection_close.phrase",
	  offsetof(struct quic_connection_close, phrase), 5 },
	{ "sizeof union quic_event", sizeof(union quic_event), 24 },
	{ "IPPROTO_QUIC", IPPROTO_QUIC, 261 },
	{ "SOL_QUIC", SOL_QUIC, 288 },
	{ "QUIC_SOCKOPT_TRANSPORT_PARAM_EXT", QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, 14 },
	{ "QUIC_VERSION_V2", QUIC_VERSION_V2, 0x6b3343cf },
	{ "MSG_DATAGRAM", MSG_DATAGRAM, MSG_RST },
	{ "QUIC_TRANSPORT_ERROR_CRYPTO", QUIC_TRANSPORT_ERROR_CRYPTO, 0x100 },
};

KUNIT_ARRAY_PARAM_DESC(socket_layout, socket_layouts, desc);

static void socket_uapi_layout_is_stable(struct kunit *test)
{
	const struct socket_layout *l = test->param_value;

	KUNIT_EXPECT_EQ(test, l->got, l->want);
}

static const char * const socket_snmp_names[] = {
	"QuicConnCurrentEstabs", "QuicConnPassiveEstabs", "QuicConnActiveEstabs",
	"QuicPktRcvFastpaths", "QuicPktDecFastpaths", "QuicPktEncFastpaths",
	"QuicPktRcvBacklogs", "QuicPktDecBacklogs", "QuicPktEncBacklogs",
	"QuicPktInvHdrDrop", "QuicPktInvNumDrop", "QuicPktInvFrmDrop",
	"QuicPktRcvDrop", "QuicPktDecDrop", "QuicPktEncDrop",
	"QuicFrmRcvBufDrop", "QuicFrmRetrans", "QuicFrmOutCloses", "QuicFrmInCloses",
};

static char *socket_snmp_dump(struct kunit *test)
{
	struct seq_file *seq = kunit_kzalloc(test, sizeof(*seq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, seq);
	seq->size = 4096;
	seq->buf = kunit_kzalloc(test, seq->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seq->buf);
	seq->private = &init_net;
	KUNIT_ASSERT_EQ(test, quic_snmp_seq_show(seq, NULL), 0);
	KUNIT_ASSERT_LT(test, seq->count, seq->size);
	return seq->buf;
}

static void socket_snmp_lists_every_counter_in_order(struct kunit *test)
{
	char *buf = socket_snmp_dump(test), *line = buf, *nl;
	unsigned long val;
	char name[40];
	int i, n;

	for (i = 0; i < ARRAY_SIZE(socket_snmp_names); i++) {
		nl = strchr(line, '\n');
		KUNIT_ASSERT_NOT_NULL_MSG(test, nl, "line %d missing", i);
		*nl = '\0';
		n = sscanf(line, "%39s %lu", name, &val);
		KUNIT_ASSERT_EQ(test, n, 2);
		KUNIT_EXPECT_STREQ(test, name, socket_snmp_names[i]);
		KUNIT_EXPECT_EQ(test, val, quic_mib_read(&init_net, i + 1));
		line = nl + 1;
	}
	KUNIT_EXPECT_EQ(test, *line, '\0');
}

static void socket_snmp_counts_established_connections(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_STREAM)->sk;
	unsigned long before = quic_mib_read(&init_net, QUIC_MIB_CONN_CURRENTESTABS);
	char want[64], *buf;

	lock_sock(sk);
	quic_set_state(sk, QUIC_SS_ESTABLISHED);
	release_sock(sk);
	KUNIT_EXPECT_EQ(test, quic_mib_read(&init_net, QUIC_MIB_CONN_CURRENTESTABS), before + 1);
	buf = socket_snmp_dump(test);
	snprintf(want, sizeof(want), "%-32s\t%lu\n", "QuicConnCurrentEstabs", before + 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, want));

	lock_sock(sk);
	quic_set_state(sk, QUIC_SS_CLOSED);
	release_sock(sk);
	KUNIT_EXPECT_EQ(test, quic_mib_read(&init_net, QUIC_MIB_CONN_CURRENTESTABS), before);
}

static void socket_sysctl_accepts_ordered_triples_only(struct kunit *test)
{
	int vals[3] = { 4096, 16384, 65536 };
	struct ctl_table t = { .data = vals, .maxlen = sizeof(vals), .mode = 0644 };
	static const char * const bad[] = { "abc", "3 2 1", "0 10 20", "-5 10 20", "10 20 5" };
	char buf[64];
	size_t len;
	loff_t pos;
	int i;

	strscpy(buf, "1000 2000 3000", sizeof(buf));
	len = strlen(buf);
	pos = 0;
	KUNIT_ASSERT_EQ(test, quic_sysctl_buf(&t, 1, buf, &len, &pos), 0);
	KUNIT_EXPECT_EQ(test, vals[0], 1000);
	KUNIT_EXPECT_EQ(test, vals[2], 3000);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		strscpy(buf, bad[i], sizeof(buf));
		len = strlen(buf);
		pos = 0;
		KUNIT_EXPECT_NE_MSG(test, quic_sysctl_buf(&t, 1, buf, &len, &pos), 0,
				    "\"%s\" accepted", bad[i]);
		KUNIT_EXPECT_EQ(test, vals[0], 1000);
		KUNIT_EXPECT_EQ(test, vals[1], 2000);
		KUNIT_EXPECT_EQ(test, vals[2], 3000);
	}

	/* Reading prints the three values back. */
	len = sizeof(buf);
	pos = 0;
	memset(buf, 0, sizeof(buf));
	KUNIT_ASSERT_EQ(test, quic_sysctl_buf(&t, 0, buf, &len, &pos), 0);
	KUNIT_EXPECT_STREQ(test, buf, "1000\t2000\t3000\n");
}

static void socket_sysctl_mem_checks_order(struct kunit *test)
{
	long vals[3] = { 10, 20, 30 };
	struct ctl_table t = { .data = vals, .maxlen = sizeof(vals), .mode = 0644 };
	char buf[64];
	size_t len;
	loff_t pos = 0;

	strscpy(buf, "40 20 30", sizeof(buf));
	len = strlen(buf);
	KUNIT_EXPECT_EQ(test, quic_sysctl_mem(&t, 1, buf, &len, &pos), -EINVAL);
	KUNIT_EXPECT_EQ(test, vals[0], 10L);
	strscpy(buf, "15 25 35", sizeof(buf));
	len = strlen(buf);
	pos = 0;
	KUNIT_ASSERT_EQ(test, quic_sysctl_mem(&t, 1, buf, &len, &pos), 0);
	KUNIT_EXPECT_EQ(test, vals[0], 15L);
	KUNIT_EXPECT_EQ(test, vals[2], 35L);
}

static struct kunit_case socket_cases[] = {
	KUNIT_CASE_PARAM(socket_create_release_restores_counters, socket_kind_gen_params),
	KUNIT_CASE_PARAM(socket_is_freed_after_rcu_grace_period, socket_kind_gen_params),
	KUNIT_CASE(socket_defaults_follow_rfc),
	KUNIT_CASE(socket_unknown_option_is_enoprotoopt),
	KUNIT_CASE(socket_migration_needs_a_connection),
	KUNIT_CASE(socket_connection_actions_need_a_connection),
	KUNIT_CASE(socket_connection_id_needs_a_connection),
	KUNIT_CASE(socket_stream_open_needs_a_connection),
	KUNIT_CASE(socket_connection_close_option_rules),
	KUNIT_CASE(socket_connection_close_later_layout),
	KUNIT_CASE(socket_data_calls_need_a_connection),
	KUNIT_CASE(socket_config_round_trip),
	KUNIT_CASE(socket_config_later_layout_carries_the_keepalive),
	KUNIT_CASE(socket_config_rejects_bad_values),
	KUNIT_CASE(socket_transport_param_local_and_remote),
	KUNIT_CASE(socket_transport_param_accepts_the_56_byte_layout),
	KUNIT_CASE(socket_transport_param_rejects_rfc_violations),
	KUNIT_CASE(socket_listener_takes_config_and_params_after_listen),
	KUNIT_CASE(socket_listen_with_zero_backlog_stops_listening),
	KUNIT_CASE(socket_alpn_round_trip_and_limits),
	KUNIT_CASE(socket_token_and_ticket_round_trip),
	KUNIT_CASE(socket_event_enable_disable),
	KUNIT_CASE(socket_kernel_options_refuse_other_sockets),
	KUNIT_CASE(socket_namespaces_key_their_own_tokens),
	KUNIT_CASE(socket_bind_keeps_ports_to_their_owner),
	KUNIT_CASE(socket_ip_level_options_pass_through),
	KUNIT_CASE_PARAM(socket_uapi_layout_is_stable, socket_layout_gen_params),
	KUNIT_CASE(socket_snmp_lists_every_counter_in_order),
	KUNIT_CASE(socket_snmp_counts_established_connections),
	KUNIT_CASE(socket_sysctl_accepts_ordered_triples_only),
	KUNIT_CASE(socket_sysctl_mem_checks_order),
	{}
};

static struct kunit_suite socket_suite = {
	.name = "quic_socket",
	.test_cases = socket_cases,
};

kunit_test_suite(socket_suite);
