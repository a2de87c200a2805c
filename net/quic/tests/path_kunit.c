// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_path: UDP tunnel sockets (explicit and random ports,
 * sharing and reference counts, release on rebind, IPv4, IPv6 and
 * IPv4-mapped addresses), the receive and ICMP hooks, path swap, alternate
 * path detection under disable_active_migration (RFC 9000 Section 9), the
 * anti-amplification limit (Section 8.1), PATH_CHALLENGE data (Section
 * 8.2), preferred_address (Sections 9.6 and 18.2), the connection ID
 * checks of Section 7.3 and Packet Too Big sizes for PLPMTUD.
 *
 * Everything runs in init_net with loopback brought up by the suite.
 * Explicit ports are 61000-61099: above the default ephemeral range
 * (32768-60999), so random binds of other suites cannot take them.
 */

#include <kunit/skbuff.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/inet.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/quic.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "../family.h"
#include "../param.h"
#include "../path.h"
#include "util.h"

/* What the test callbacks saw; points into the running case's memory. */
struct path_log {
	struct completion done;
	union quic_addr sa;	/* source of the (quoted) datagram */
	union quic_addr da;	/* its destination */
	u8 data[16];
	u32 len;
	u32 mtu;
	u32 calls;
};

static struct path_log *path_log;

static void path_log_data(struct path_log *log, const struct sk_buff *skb, u32 offset)
{
	log->len = 0;
	if (skb->len > offset)
		log->len = min_t(u32, skb->len - offset, sizeof(log->data));
	if (skb_copy_bits(skb, offset, log->data, log->len))
		log->len = 0;
}

static int path_test_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct path_log *log = READ_ONCE(path_log);

	if (log) {
		quic_get_msg_addrs(skb, udp_hdr(skb), &log->da, &log->sa);
		path_log_data(log, skb, skb_transport_offset(skb) + sizeof(struct udphdr));
		log->calls++;
		complete(&log->done);
	}
	kfree_skb(skb);
	return 0;
}

static void path_test_toobig(struct sock *sk, struct sk_buff *skb, u32 mtu)
{
	struct path_log *log = READ_ONCE(path_log);

	if (!log)
		return;
	quic_get_msg_addrs(skb, udp_hdr(skb), &log->da, &log->sa);
	path_log_data(log, skb, skb_transport_offset(skb) + sizeof(struct udphdr));
	log->mtu = mtu;
	log->calls++;
	complete(&log->done);
}

static const struct quic_udp_ops path_test_ops = {
	.rcv	= path_test_rcv,
	.toobig	= path_test_toobig,
};

static void path_log_stop(void *unused)
{
	WRITE_ONCE(path_log, NULL);
	/* The callbacks run under rcu_read_lock(): let a running one finish. */
	synchronize_rcu();
}

static struct path_log *path_log_start(struct kunit *test)
{
	struct path_log *log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, log);
	init_completion(&log->done);
	WRITE_ONCE(path_log, log);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, path_log_stop, NULL), 0);
	return log;
}

/* "a.b.c.d" or an IPv6 text address, zero padded, port in host order. */
static void path_addr(union quic_addr *a, const char *ip, u16 port)
{
	memset(a, 0, sizeof(*a));
	if (strchr(ip, ':'))
		quic_kunit_addr6(a, ip, port);
	else
		quic_kunit_addr4(a, ip, port);
}

static int path_addr_len(const union quic_addr *a)
{
	return a->sa.sa_family == AF_INET6 ? sizeof(a->v6) : sizeof(a->v4);
}

static struct sock *path_sk(struct kunit *test, int family)
{
	return quic_kunit_socket(test, family, SOCK_DGRAM)->sk;
}

struct path_fixture {
	struct sock *sk;
	struct quic_path_group *paths;
};

static void path_fixture_release(void *data)
{
	struct path_fixture *f = data;

	quic_path_free(f->sk, f->paths, 0);
	quic_path_free(f->sk, f->paths, 1);
	quic_path_flush();
}

/* A path group of @sk whose tunnels are released when the case ends. */
static struct quic_path_group *path_group(struct kunit *test, struct sock *sk, bool serv)
{
	struct path_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->paths = kunit_kzalloc(test, sizeof(*f->paths), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->paths);
	f->sk = sk;
	quic_path_group_init(f->paths, &path_test_ops, serv);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, path_fixture_release, f), 0);
	return f->paths;
}

static int path_bind_addr(struct sock *sk, struct quic_path_group *paths, u8 path,
			  const char *ip, u16 port)
{
	union quic_addr a;

	path_addr(&a, ip, port);
	quic_path_set_saddr(paths, path, &a);
	return quic_path_bind(sk, paths, path);
}

static u16 path_port(struct quic_path_group *paths, u8 path)
{
	return ntohs(quic_path_saddr(paths, path)->v4.sin_port);
}

KUNIT_DEFINE_ACTION_WRAPPER(path_sock_release, sock_release, struct socket *);

/* Bind a plain UDP socket: tells whether a port is free. */
static int path_udp_bind(struct kunit *test, const char *ip, u16 port, struct socket **out)
{
	struct socket *sock;
	union quic_addr a;
	int err;

	path_addr(&a, ip, port);
	err = sock_create_kern(&init_net, a.sa.sa_family, SOCK_DGRAM, IPPROTO_UDP, &sock);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, path_sock_release, sock), 0);
	if (out)
		*out = sock;
	return kernel_bind(sock, &a.sa, path_addr_len(&a));
}

static void path_restore_range(void *data)
{
	WRITE_ONCE(init_net.ipv4.ip_local_ports.range, (u32)(uintptr_t)data);
}

/* Narrow the namespace's local port range for the rest of the case. */
static void path_set_range(struct kunit *test, u16 low, u16 high)
{
	u32 old = READ_ONCE(init_net.ipv4.ip_local_ports.range);

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, path_restore_range,
							(void *)(uintptr_t)old), 0);
	WRITE_ONCE(init_net.ipv4.ip_local_ports.range, (u32)high << 16 | low);
}

static void path_unreserve(void *data)
{
	clear_bit((unsigned long)data, init_net.ipv4.sysctl_local_reserved_ports);
}

static void path_reserve(struct kunit *test, u16 port)
{
	if (!init_net.ipv4.sysctl_local_reserved_ports)
		kunit_skip(test, "no ip_local_reserved_ports bitmap");
	set_bit(port, init_net.ipv4.sysctl_local_reserved_ports);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, path_unreserve,
							(void *)(unsigned long)port), 0);
}

static void path_bind_explicit_port_creates_tunnel(struct kunit *test)
{
	struct sock *sk = path_sk(test, AF_INET);
	struct quic_path_group *paths = path_group(test, sk, false);
	struct quic_udp_sock *us;
	void *user_data;

	KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 0, "127.0.0.1", 61001), 0);
	us = paths->path[0].udp_sk;
	KUNIT_ASSERT_NOT_NULL(test, us);
	KUNIT_EXPECT_EQ(test, refcount_read(&us->refcnt), 1);
	KUNIT_EXPECT_EQ(test, us->sk->sk_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohs(inet_sk(us->sk)->inet_sport), 61001);
	KUNIT_EXPECT_EQ(test, ntohl(inet_sk(us->sk)->inet_rcv_saddr), INADDR_LOOPBACK);
	rcu_read_lock();
	user_data = rcu_dereference_sk_user_data(us->sk);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, user_data, (void *)us);
	KUNIT_EXPECT_TRUE(test, udp_sk(us->sk)->encap_rcv == quic_udp_rcv);
	KUNIT_EXPECT_TRUE(test, udp_sk(us->sk)->encap_err_rcv == quic_udp_err);
	KUNIT_EXPECT_EQ(test, path_port(paths, 0), 61001);

	/* The port is really taken. */
	KUNIT_EXPECT_EQ(test, path_udp_bind(test, "127.0.0.1", 61001, NULL), -EADDRINUSE);
}

static void path_bind_explicit_port_taken_by_udp_fails(struct kunit *test)
{
	struct sock *sk = path_sk(test, AF_INET);
	struct quic_path_group *paths = path_group(test, sk, false);

	KUNIT_ASSERT_EQ(test, path_udp_bind(test, "127.0.0.1", 61002, NULL), 0);
	KUNIT_EXPECT_EQ(test, path_bind_addr(sk, paths, 0, "127.0.0.1", 61002), -EADDRINUSE);
	KUNIT_EXPECT_NULL(test, paths->path[0].udp_sk);
	KUNIT_EXPECT_EQ(test, quic_path_bind(sk, paths, QUIC_PATH_PREF2 + 1), -EINVAL);
}

static void path_bind_port_zero_picks_local_range(struct kunit *test)
{
	struct sock *sk = path_sk(test, AF_INET);
	struct quic_path_group *paths = path_group(test, sk, false);
	struct quic_udp_sock *us;
	int low, high;
	u16 port;

	KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 0, "0.0.0.0", 0), 0);
	us = paths->path[0].udp_sk;
	KUNIT_ASSERT_NOT_NULL(test, us);
	port = path_port(paths, 0);
	inet_get_local_port_range(&init_net, &low, &high);
	KUNIT_EXPECT_GE(test, port, low);
	KUNIT_EXPECT_LE(test, port, high);
	KUNIT_EXPECT_FALSE(test, inet_is_local_reserved_port(&init_net, port));
	KUNIT_EXPECT_EQ(test, ntohs(us->addr.v4.sin_port), port);
	KUNIT_EXPECT_EQ(test, ntohs(inet_sk(us->sk)->inet_sport), port);
}

static void path_bind_port_zero_skips_reserved_ports(struct kunit *test)
{
	struct sock *sk = path_sk(test, AF_INET);
	struct quic_path_group *paths = path_group(test, sk, false);
	int i;

	path_set_range(test, 61010, 61011);
	path_reserve(test, 61010);
	/* The random start falls on either port; 61011 is the only choice. */
	for (i = 0; i < 8; i++) {
		KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 0, "127.0.0.1", 0), 0);
		KUNIT_EXPECT_EQ(test, path_port(paths, 0), 61011);
		quic_path_free(sk, paths, 0);
		quic_path_flush();
	}
}

static void path_bind_port_zero_fails_when_range_exhausted(struct kunit *test)
{
	struct sock *sk1 = path_sk(test, AF_INET), *sk2 = path_sk(test, AF_INET);
	struct quic_path_group *holder = path_group(test, sk1, false);
	struct quic_path_group *paths = path_group(test, sk2, false);

	/* 61012 reserved, 61013 held by plain UDP, 61014 by a QUIC tunnel. */
	path_set_range(test, 61012, 61014);
	path_reserve(test, 61012);
	KUNIT_ASSERT_EQ(test, path_udp_bind(test, "0.0.0.0", 61013, NULL), 0);
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk1, holder, 0, "0.0.0.0", 61014), 0);

	KUNIT_EXPECT_EQ(test, path_bind_addr(sk2, paths, 0, "0.0.0.0", 0), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, path_port(paths, 0), 0);
	KUNIT_EXPECT_NULL(test, paths->path[0].udp_sk);

	/* Once the tunnel is closed its port is the one left. */
	quic_path_free(sk1, holder, 0);
	quic_path_flush();
	KUNIT_EXPECT_EQ(test, path_bind_addr(sk2, paths, 0, "0.0.0.0", 0), 0);
	KUNIT_EXPECT_EQ(test, path_port(paths, 0), 61014);
}

static void path_bind_shares_tunnel_between_sockets(struct kunit *test)
{
	struct sock *sk1 = path_sk(test, AF_INET), *sk2 = path_sk(test, AF_INET);
	struct quic_path_group *p1 = path_group(test, sk1, true);
	struct quic_path_group *p2 = path_group(test, sk2, true);
	struct quic_udp_sock *us;

	KUNIT_ASSERT_EQ(test, path_bind_addr(sk1, p1, 0, "127.0.0.1", 61020), 0);
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk2, p2, 0, "127.0.0.1", 61020), 0);
	us = p1->path[0].udp_sk;
	KUNIT_EXPECT_PTR_EQ(test, p2->path[0].udp_sk, us);
	KUNIT_EXPECT_EQ(test, refcount_read(&us->refcnt), 2);

	quic_path_free(sk1, p1, 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&us->refcnt), 1);
	KUNIT_EXPECT_EQ(test, path_udp_bind(test, "127.0.0.1", 61020, NULL), -EADDRINUSE);

	/* The last reference closes the UDP socket (from the work item). */
	quic_path_free(sk2, p2, 0);
	quic_path_flush();
	KUNIT_EXPECT_EQ(test, path_udp_bind(test, "127.0.0.1", 61020, NULL), 0);
}

static void path_bind_wildcard_tunnel_serves_its_addresses(struct kunit *test)
{
	struct sock *sk1 = path_sk(test, AF_INET), *sk2 = path_sk(test, AF_INET);
	struct quic_path_group *p1 = path_group(test, sk1, true);
	struct quic_path_group *p2 = path_group(test, sk2, true);

	KUNIT_ASSERT_EQ(test, path_bind_addr(sk1, p1, 0, "0.0.0.0", 61021), 0);
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk2, p2, 0, "127.0.0.1", 61021), 0);
	KUNIT_EXPECT_PTR_EQ(test, p2->path[0].udp_sk, p1->path[0].udp_sk);
	KUNIT_EXPECT_EQ(test, refcount_read(&p1->path[0].udp_sk->refcnt), 2);

	/* A tunnel on one address cannot serve a wildcard bind. */
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk1, p1, 1, "127.0.0.1", 61022), 0);
	KUNIT_EXPECT_EQ(test, path_bind_addr(sk2, p2, 1, "0.0.0.0", 61022), -EADDRINUSE);
	KUNIT_EXPECT_NULL(test, p2->path[1].udp_sk);
}

static void path_rebind_releases_old_tunnel(struct kunit *test)
{
	struct sock *sk = path_sk(test, AF_INET);
	struct quic_path_group *paths = path_group(test, sk, false);
	struct quic_udp_sock *old, *us;

	KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 0, "127.0.0.1", 61030), 0);
	old = paths->path[0].udp_sk;
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 0, "127.0.0.1", 61031), 0);
	us = paths->path[0].udp_sk;
	KUNIT_EXPECT_PTR_NE(test, us, old);
	KUNIT_EXPECT_EQ(test, refcount_read(&us->refcnt), 1);

	quic_path_flush();
	KUNIT_EXPECT_EQ(test, path_udp_bind(test, "127.0.0.1", 61030, NULL), 0);
	KUNIT_EXPECT_EQ(test, path_udp_bind(test, "127.0.0.1", 61031, NULL), -EADDRINUSE);

	/* Rebinding the same address keeps the tunnel and its single reference. */
	KUNIT_ASSERT_EQ(test, quic_path_bind(sk, paths, 0), 0);
	KUNIT_EXPECT_PTR_EQ(test, paths->path[0].udp_sk, us);
	KUNIT_EXPECT_EQ(test, refcount_read(&us->refcnt), 1);
}

static void path_bind_waits_for_tunnel_being_released(struct kunit *test)
{
	struct sock *sk1 = path_sk(test, AF_INET), *sk2 = path_sk(test, AF_INET);
	struct quic_path_group *p1 = path_group(test, sk1, false);
	struct quic_path_group *p2 = path_group(test, sk2, false);
	struct quic_udp_sock *us;

	KUNIT_ASSERT_EQ(test, path_bind_addr(sk1, p1, 0, "127.0.0.1", 61035), 0);
	/* Queues the close; the port is still held until the work runs. */
	quic_path_free(sk1, p1, 0);
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk2, p2, 0, "127.0.0.1", 61035), 0);
	us = p2->path[0].udp_sk;
	KUNIT_ASSERT_NOT_NULL(test, us);
	KUNIT_EXPECT_EQ(test, refcount_read(&us->refcnt), 1);
	quic_path_flush();
	KUNIT_EXPECT_EQ(test, ntohs(inet_sk(us->sk)->inet_sport), 61035);
	KUNIT_EXPECT_EQ(test, path_udp_bind(test, "127.0.0.1", 61035, NULL), -EADDRINUSE);

	/* A wildcard bind conflicting with a tunnel being released waits too. */
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk1, p1, 0, "127.0.0.1", 61036), 0);
	quic_path_free(sk1, p1, 0);
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk2, p2, 1, "0.0.0.0", 61036), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&p2->path[1].udp_sk->refcnt), 1);
}

static void path_bind_ipv6_and_mapped_addresses(struct kunit *test)
{
	struct sock *sk6 = path_sk(test, AF_INET6), *sk4 = path_sk(test, AF_INET);
	struct quic_path_group *p6 = path_group(test, sk6, true);
	struct quic_path_group *p4 = path_group(test, sk4, true);
	struct quic_udp_sock *us;

	KUNIT_ASSERT_EQ(test, path_bind_addr(sk6, p6, 0, "::1", 61050), 0);
	us = p6->path[0].udp_sk;
	KUNIT_EXPECT_EQ(test, us->sk->sk_family, AF_INET6);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_loopback(&us->sk->sk_v6_rcv_saddr));
	KUNIT_EXPECT_EQ(test, ntohs(inet_sk(us->sk)->inet_sport), 61050);

	/* An IPv4-mapped address and its IPv4 form share one tunnel. */
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk6, p6, 1, "::ffff:127.0.0.1", 61051), 0);
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk4, p4, 0, "127.0.0.1", 61051), 0);
	KUNIT_EXPECT_PTR_EQ(test, p4->path[0].udp_sk, p6->path[1].udp_sk);
	KUNIT_EXPECT_EQ(test, refcount_read(&p4->path[0].udp_sk->refcnt), 2);

	/* The IPv6 wildcard with port 0. */
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk6, p6, 0, "::", 0), 0);
	us = p6->path[0].udp_sk;
	KUNIT_EXPECT_EQ(test, us->sk->sk_family, AF_INET6);
	KUNIT_EXPECT_NE(test, path_port(p6, 0), 0);
	KUNIT_EXPECT_EQ(test, ntohs(inet_sk(us->sk)->inet_sport), path_port(p6, 0));
}

static void path_bind_v6only_refuses_ipv4(struct kunit *test)
{
	struct sock *sk = path_sk(test, AF_INET6);
	struct quic_path_group *paths = path_group(test, sk, false);

	sk->sk_ipv6only = 1;
	KUNIT_EXPECT_EQ(test, path_bind_addr(sk, paths, 0, "::ffff:127.0.0.1", 61052), -EINVAL);
	KUNIT_EXPECT_EQ(test, path_bind_addr(sk, paths, 0, "127.0.0.1", 61052), -EAFNOSUPPORT);
	KUNIT_EXPECT_NULL(test, paths->path[0].udp_sk);
}

struct path_rcv_case {
	const char *desc;
	const char *ip;
	u16 port;	/* the tunnel's */
	u16 peer;	/* the sender's */
};

static const struct path_rcv_case path_rcv_cases[] = {
	{ "IPv4 loopback", "127.0.0.1", 61060, 61061 },
	{ "IPv6 loopback", "::1", 61062, 61063 },
};

KUNIT_ARRAY_PARAM_DESC(path_rcv, path_rcv_cases, desc);

static void path_rcv_hands_datagram_to_callback(struct kunit *test)
{
	const struct path_rcv_case *c = test->param_value;
	static const char payload[] = "quic path";
	struct quic_path_group *paths;
	struct msghdr msg = {};
	union quic_addr dst, exp;
	struct path_log *log;
	struct socket *sock;
	struct kvec iov;
	struct sock *sk;

	sk = path_sk(test, strchr(c->ip, ':') ? AF_INET6 : AF_INET);
	paths = path_group(test, sk, true);
	log = path_log_start(test);
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 0, c->ip, c->port), 0);
	KUNIT_ASSERT_EQ(test, path_udp_bind(test, c->ip, c->peer, &sock), 0);

	path_addr(&dst, c->ip, c->port);
	msg.msg_name = &dst;
	msg.msg_namelen = path_addr_len(&dst);
	iov.iov_base = (void *)payload;
	iov.iov_len = sizeof(payload) - 1;
	KUNIT_ASSERT_EQ(test, kernel_sendmsg(sock, &msg, &iov, 1, iov.iov_len), (int)iov.iov_len);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&log->done, 5 * HZ), 0);

	KUNIT_EXPECT_EQ(test, log->calls, 1);
	KUNIT_ASSERT_EQ(test, log->len, iov.iov_len);
	KUNIT_EXPECT_MEMEQ(test, log->data, payload, iov.iov_len);
	path_addr(&exp, c->ip, c->peer);
	KUNIT_EXPECT_MEMEQ(test, &log->sa, &exp, sizeof(exp));
	path_addr(&exp, c->ip, c->port);
	KUNIT_EXPECT_MEMEQ(test, &log->da, &exp, sizeof(exp));
}

/*
 * Finish an ICMP error whose quoted IP header is in place: quote the UDP
 * header of our datagram (port @sport to 443) and 8 bytes of it, then set
 * the headers as the UDP error handler leaves them (see below).
 */
static struct sk_buff *path_icmp_quote_udp(struct sk_buff *skb, u32 outer_len, u32 icmp_len,
					   u16 sport, u8 **payload)
{
	struct udphdr *uh = skb_put_zero(skb, sizeof(*uh));

	uh->source = htons(sport);
	uh->dest = htons(443);
	skb_put_data(skb, "QUICQUIC", 8);

	skb_reset_network_header(skb);
	skb_set_transport_header(skb, outer_len);
	skb_pull(skb, outer_len + icmp_len);
	*payload = (u8 *)(uh + 1);
	return skb;
}

/*
 * An ICMP error as the UDP error handler passes it to encap_err_rcv:
 * network header at the outer IP header, transport header at the ICMP
 * header, data at the quoted IP header.
 */
static struct sk_buff *path_icmp4(struct kunit *test, u8 type, u8 code, u16 mtu,
				  const char *src, u16 sport, u8 **payload)
{
	struct sk_buff *skb = kunit_zalloc_skb(test, 128, GFP_KERNEL);
	struct iphdr *outer, *inner;
	struct icmphdr *icmp;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	outer = skb_put_zero(skb, sizeof(*outer));
	outer->version = 4;
	outer->ihl = 5;
	outer->protocol = IPPROTO_ICMP;
	outer->saddr = in_aton("192.0.2.254");
	outer->daddr = in_aton(src);
	icmp = skb_put_zero(skb, sizeof(*icmp));
	icmp->type = type;
	icmp->code = code;
	icmp->un.frag.mtu = htons(mtu);
	inner = skb_put_zero(skb, sizeof(*inner));
	inner->version = 4;
	inner->ihl = 5;
	inner->protocol = IPPROTO_UDP;
	inner->saddr = in_aton(src);
	inner->daddr = in_aton("192.0.2.7");
	return path_icmp_quote_udp(skb, sizeof(*outer), sizeof(*icmp), sport, payload);
}

static struct sk_buff *path_icmp6(struct kunit *test, u8 type, u32 mtu, const char *src,
				  u16 sport, u8 **payload)
{
	struct sk_buff *skb = kunit_zalloc_skb(test, 160, GFP_KERNEL);
	struct ipv6hdr *outer, *inner;
	struct icmp6hdr *icmp;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	outer = skb_put_zero(skb, sizeof(*outer));
	outer->version = 6;
	outer->nexthdr = IPPROTO_ICMPV6;
	in6_pton("2001:db8::fe", -1, outer->saddr.s6_addr, -1, NULL);
	in6_pton(src, -1, outer->daddr.s6_addr, -1, NULL);
	icmp = skb_put_zero(skb, sizeof(*icmp));
	icmp->icmp6_type = type;
	icmp->icmp6_mtu = htonl(mtu);
	inner = skb_put_zero(skb, sizeof(*inner));
	inner->version = 6;
	inner->nexthdr = IPPROTO_UDP;
	in6_pton(src, -1, inner->saddr.s6_addr, -1, NULL);
	in6_pton("2001:db8::7", -1, inner->daddr.s6_addr, -1, NULL);
	return path_icmp_quote_udp(skb, sizeof(*outer), sizeof(*icmp), sport, payload);
}

static void path_err_call(struct quic_udp_sock *us, struct sk_buff *skb, u32 info, u8 *payload)
{
	rcu_read_lock();
	quic_udp_err(us->sk, skb, EMSGSIZE, htons(443), info, payload);
	rcu_read_unlock();
}

static void path_err_reports_ipv4_frag_needed(struct kunit *test)
{
	struct sock *sk = path_sk(test, AF_INET);
	struct quic_path_group *paths = path_group(test, sk, false);
	struct path_log *log = path_log_start(test);
	u16 network, transport;
	struct sk_buff *skb;
	union quic_addr exp;
	u8 *payload;

	KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 0, "127.0.0.1", 61070), 0);
	skb = path_icmp4(test, ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED, 1400, "127.0.0.1", 61070,
			 &payload);
	network = skb->network_header;
	transport = skb->transport_header;
	path_err_call(paths->path[0].udp_sk, skb, 1400, payload);

	KUNIT_EXPECT_EQ(test, log->calls, 1);
	KUNIT_EXPECT_EQ(test, log->mtu, 1400);
	path_addr(&exp, "127.0.0.1", 61070);
	KUNIT_EXPECT_MEMEQ(test, &log->sa, &exp, sizeof(exp));
	path_addr(&exp, "192.0.2.7", 443);
	KUNIT_EXPECT_MEMEQ(test, &log->da, &exp, sizeof(exp));
	KUNIT_ASSERT_EQ(test, log->len, 8);
	KUNIT_EXPECT_MEMEQ(test, log->data, "QUICQUIC", 8);
	/* The ICMP layer gets its skb back as it was. */
	KUNIT_EXPECT_EQ(test, skb->network_header, network);
	KUNIT_EXPECT_EQ(test, skb->transport_header, transport);

	/* Port Unreachable is no business of QUIC's. */
	skb = path_icmp4(test, ICMP_DEST_UNREACH, ICMP_PORT_UNREACH, 0, "127.0.0.1", 61070,
			 &payload);
	path_err_call(paths->path[0].udp_sk, skb, 0, payload);
	KUNIT_EXPECT_EQ(test, log->calls, 1);
}

static void path_err_reports_ipv6_packet_too_big(struct kunit *test)
{
	struct sock *sk = path_sk(test, AF_INET6);
	struct quic_path_group *paths = path_group(test, sk, false);
	struct path_log *log = path_log_start(test);
	struct sk_buff *skb;
	union quic_addr exp;
	u8 *payload;

	KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 0, "::1", 61071), 0);
	skb = path_icmp6(test, ICMPV6_PKT_TOOBIG, 1300, "::1", 61071, &payload);
	path_err_call(paths->path[0].udp_sk, skb, 1300, payload);

	KUNIT_EXPECT_EQ(test, log->calls, 1);
	KUNIT_EXPECT_EQ(test, log->mtu, 1300);
	path_addr(&exp, "::1", 61071);
	KUNIT_EXPECT_MEMEQ(test, &log->sa, &exp, sizeof(exp));
	path_addr(&exp, "2001:db8::7", 443);
	KUNIT_EXPECT_MEMEQ(test, &log->da, &exp, sizeof(exp));

	skb = path_icmp6(test, ICMPV6_DEST_UNREACH, 0, "::1", 61071, &payload);
	path_err_call(paths->path[0].udp_sk, skb, 0, payload);
	KUNIT_EXPECT_EQ(test, log->calls, 1);
}

static void path_swap_exchanges_paths_with_alt_tunnel(struct kunit *test)
{
	struct sock *sk = path_sk(test, AF_INET);
	struct quic_path_group *paths = path_group(test, sk, false);
	struct quic_udp_sock *us0, *us1;
	union quic_addr d0, d1;

	path_addr(&d0, "198.51.100.1", 4433);
	path_addr(&d1, "198.51.100.2", 4433);
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 0, "127.0.0.1", 61040), 0);
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 1, "127.0.0.1", 61041), 0);
	quic_path_set_daddr(paths, 0, &d0);
	quic_path_set_daddr(paths, 1, &d1);
	us0 = paths->path[0].udp_sk;
	us1 = paths->path[1].udp_sk;
	paths->alt_probes = 2;
	quic_path_set_alt_state(paths, QUIC_PATH_ALT_PROBING);

	quic_path_swap(paths);
	KUNIT_EXPECT_PTR_EQ(test, paths->path[0].udp_sk, us1);
	KUNIT_EXPECT_PTR_EQ(test, paths->path[1].udp_sk, us0);
	KUNIT_EXPECT_EQ(test, path_port(paths, 0), 61041);
	KUNIT_EXPECT_EQ(test, path_port(paths, 1), 61040);
	KUNIT_EXPECT_MEMEQ(test, quic_path_daddr(paths, 0), &d1, sizeof(d1));
	KUNIT_EXPECT_MEMEQ(test, quic_path_daddr(paths, 1), &d0, sizeof(d0));
	KUNIT_EXPECT_TRUE(test, quic_path_alt_state(paths, QUIC_PATH_ALT_SWAPPED));
	KUNIT_EXPECT_EQ(test, paths->alt_probes, 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&us0->refcnt), 1);
	KUNIT_EXPECT_EQ(test, refcount_read(&us1->refcnt), 1);
}

static void path_swap_exchanges_peer_only_without_alt_tunnel(struct kunit *test)
{
	struct sock *sk = path_sk(test, AF_INET);
	struct quic_path_group *paths = path_group(test, sk, true);
	union quic_addr d0, d1, local;
	struct quic_udp_sock *us;

	path_addr(&d0, "198.51.100.1", 50000);
	path_addr(&d1, "198.51.100.1", 50001);
	path_addr(&local, "127.0.0.1", 61042);
	KUNIT_ASSERT_EQ(test, path_bind_addr(sk, paths, 0, "127.0.0.1", 61042), 0);
	quic_path_set_daddr(paths, 0, &d0);
	us = paths->path[0].udp_sk;

	/* NAT rebinding of the client: same local address, new peer port. */
	KUNIT_ASSERT_EQ(test, quic_path_detect_alt(paths, &local, &d1, sk), 1);
	KUNIT_EXPECT_NULL(test, paths->path[1].udp_sk);

	quic_path_swap(paths);
	KUNIT_EXPECT_PTR_EQ(test, paths->path[0].udp_sk, us);
	KUNIT_EXPECT_NULL(test, paths->path[1].udp_sk);
	KUNIT_EXPECT_MEMEQ(test, quic_path_saddr(paths, 0), &local, sizeof(local));
	KUNIT_EXPECT_MEMEQ(test, quic_path_daddr(paths, 0), &d1, sizeof(d1));
	KUNIT_EXPECT_MEMEQ(test, quic_path_daddr(paths, 1), &d0, sizeof(d0));
	KUNIT_EXPECT_TRUE(test, quic_path_alt_state(paths, QUIC_PATH_ALT_SWAPPED));
}

struct path_ep {
	const char *ip;		/* NULL: not set */
	u16 port;
};

struct path_alt_case {
	const char *desc;
	int family;
	bool serv;
	bool disable_saddr_alt;	/* the peer sent disable_active_migration */
	bool disable_daddr_alt;	/* we sent it */
	bool pref_addr;
	struct path_ep sa0, da0;	/* active path */
	struct path_ep alt_sa, alt_da;	/* alternate path before */
	struct path_ep sa, da;		/* packet: our address, peer address */
	int ret;
	struct path_ep exp_sa, exp_da;	/* alternate path after */
};

#define L4	{ "192.0.2.1", 4433 }
#define P4	{ "198.51.100.1", 50000 }

/* Unlisted fields are false, 0 or an unset address. */
static const struct path_alt_case path_alt_cases[] = {
	{
		.desc = "RFC 9000 9: packet on the active path",
		.family = AF_INET, .serv = true,
		.sa0 = L4, .da0 = P4, .sa = L4, .da = P4,
		.ret = 0,
	}, {
		.desc = "RFC 9000 9.5: new peer address becomes the alternate path",
		.family = AF_INET, .serv = true,
		.sa0 = L4, .da0 = P4, .sa = L4, .da = { "198.51.100.1", 50001 },
		.ret = 1, .exp_sa = L4, .exp_da = { "198.51.100.1", 50001 },
	}, {
		.desc = "RFC 9000 9: our disable_active_migration refuses a new peer address",
		.family = AF_INET, .serv = true, .disable_daddr_alt = true,
		.sa0 = L4, .da0 = P4, .sa = L4, .da = { "198.51.100.2", 50000 },
		.ret = -EPERM,
	}, {
		.desc = "RFC 9000 9: peer's disable_active_migration refuses a new local address",
		.family = AF_INET, .serv = true, .disable_saddr_alt = true,
		.sa0 = L4, .da0 = P4, .sa = { "192.0.2.9", 4433 }, .da = P4,
		.ret = -EPERM,
	}, {
		.desc = "RFC 9000 9: new local address allowed without disable_active_migration",
		.family = AF_INET, .serv = true,
		.sa0 = L4, .da0 = P4, .sa = { "192.0.2.9", 4433 }, .da = P4,
		.ret = 1, .exp_sa = { "192.0.2.9", 4433 }, .exp_da = P4,
	}, {
		.desc = "RFC 9000 9: peer's disable_active_migration leaves peer address free",
		.family = AF_INET, .serv = true, .disable_saddr_alt = true,
		.sa0 = L4, .da0 = P4, .sa = L4, .da = { "198.51.100.2", 50000 },
		.ret = 1, .exp_sa = L4, .exp_da = { "198.51.100.2", 50000 },
	}, {
		.desc = "RFC 9000 9: our disable_active_migration leaves local address free",
		.family = AF_INET, .serv = true, .disable_daddr_alt = true,
		.sa0 = L4, .da0 = P4, .sa = { "192.0.2.9", 4433 }, .da = P4,
		.ret = 1, .exp_sa = { "192.0.2.9", 4433 }, .exp_da = P4,
	}, {
		.desc = "RFC 9000 9.6: server preferred address despite disable_active_migration",
		.family = AF_INET, .serv = true, .pref_addr = true,
		.disable_saddr_alt = true, .disable_daddr_alt = true,
		.sa0 = L4, .da0 = P4, .alt_sa = { "203.0.113.1", 4433 },
		.sa = { "203.0.113.1", 4433 }, .da = P4,
		.ret = 1, .exp_sa = { "203.0.113.1", 4433 }, .exp_da = P4,
	}, {
		.desc = "RFC 9000 9: client discards packets from an unknown server address",
		.family = AF_INET,
		.sa0 = L4, .da0 = P4, .sa = L4, .da = { "198.51.100.7", 50000 },
		.ret = -EPERM,
	}, {
		.desc = "RFC 9000 9.6: client accepts the preferred address it probes",
		.family = AF_INET, .pref_addr = true,
		.disable_saddr_alt = true, .disable_daddr_alt = true,
		.sa0 = L4, .da0 = P4, .alt_da = { "203.0.113.5", 443 },
		.sa = L4, .da = { "203.0.113.5", 443 },
		.ret = 1, .exp_sa = L4, .exp_da = { "203.0.113.5", 443 },
	}, {
		.desc = "RFC 9000 9: a third path is refused while the alternate is in use",
		.family = AF_INET, .serv = true,
		.sa0 = L4, .da0 = P4, .alt_sa = L4, .alt_da = { "198.51.100.2", 50001 },
		.sa = L4, .da = { "198.51.100.3", 50002 },
		.ret = -EBUSY, .exp_sa = L4, .exp_da = { "198.51.100.2", 50001 },
	}, {
		.desc = "RFC 9000 9: IPv4-mapped active path matches IPv4 packet addresses",
		.family = AF_INET6, .serv = true,
		.sa0 = { "::ffff:192.0.2.1", 4433 }, .da0 = { "::ffff:198.51.100.1", 50000 },
		.sa = L4, .da = P4,
		.ret = 0,
	}, {
		.desc = "RFC 9000 9: new IPv6 peer address on an IPv6 path",
		.family = AF_INET6, .serv = true,
		.sa0 = { "2001:db8::1", 4433 }, .da0 = { "2001:db8:1::1", 50000 },
		.sa = { "2001:db8::1", 4433 }, .da = { "2001:db8:1::2", 50000 },
		.ret = 1, .exp_sa = { "2001:db8::1", 4433 }, .exp_da = { "2001:db8:1::2", 50000 },
	},
};

KUNIT_ARRAY_PARAM_DESC(path_alt, path_alt_cases, desc);

static void path_ep(union quic_addr *a, const struct path_ep *ep)
{
	if (ep->ip)
		path_addr(a, ep->ip, ep->port);
	else
		memset(a, 0, sizeof(*a));
}

static void path_detect_alt_follows_migration_rules(struct kunit *test)
{
	const struct path_alt_case *c = test->param_value;
	struct quic_path_group *paths;
	union quic_addr a, sa, da;
	struct sock *sk;

	sk = path_sk(test, c->family);
	paths = path_group(test, sk, c->serv);
	paths->disable_saddr_alt = c->disable_saddr_alt;
	paths->disable_daddr_alt = c->disable_daddr_alt;
	paths->pref_addr = c->pref_addr;
	path_ep(&a, &c->sa0);
	quic_path_set_saddr(paths, 0, &a);
	path_ep(&a, &c->da0);
	quic_path_set_daddr(paths, 0, &a);
	path_ep(&a, &c->alt_sa);
	quic_path_set_saddr(paths, 1, &a);
	path_ep(&a, &c->alt_da);
	quic_path_set_daddr(paths, 1, &a);
	path_ep(&sa, &c->sa);
	path_ep(&da, &c->da);

	KUNIT_EXPECT_EQ(test, quic_path_detect_alt(paths, &sa, &da, sk), c->ret);
	path_ep(&a, &c->exp_sa);
	KUNIT_EXPECT_MEMEQ(test, quic_path_saddr(paths, 1), &a, sizeof(a));
	path_ep(&a, &c->exp_da);
	KUNIT_EXPECT_MEMEQ(test, quic_path_daddr(paths, 1), &a, sizeof(a));
}

static struct quic_path_group *path_bare_group(struct kunit *test, bool serv)
{
	struct quic_path_group *paths = kunit_kzalloc(test, sizeof(*paths), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, paths);
	quic_path_group_init(paths, &path_test_ops, serv);
	return paths;
}

/* RFC 9000 Section 8.1: at most three times the bytes received. */
static void path_ampl_limits_to_three_times_received(struct kunit *test)
{
	struct quic_path_group *paths = path_bare_group(test, true);

	/* Nothing received from the client address yet: nothing may be sent. */
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), 0);
	KUNIT_EXPECT_FALSE(test, quic_path_ampl_send(paths, 1));
	KUNIT_EXPECT_TRUE(test, paths->blocked);

	/* A 1200-byte Initial (Section 14.1) allows 3 * 1200 = 3600 bytes. */
	KUNIT_EXPECT_TRUE(test, quic_path_ampl_rcvd(paths, 1200));
	KUNIT_EXPECT_FALSE(test, paths->blocked);
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), 3600);
	KUNIT_EXPECT_TRUE(test, quic_path_ampl_send(paths, 1200));
	KUNIT_EXPECT_TRUE(test, quic_path_ampl_send(paths, 1200));
	KUNIT_EXPECT_TRUE(test, quic_path_ampl_send(paths, 1200));
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), 0);
	KUNIT_EXPECT_FALSE(test, quic_path_ampl_send(paths, 1));
	KUNIT_EXPECT_TRUE(test, paths->blocked);
	KUNIT_EXPECT_EQ(test, paths->ampl_sndlen, 3600);

	/* An empty datagram adds nothing; one byte allows three. */
	KUNIT_EXPECT_FALSE(test, quic_path_ampl_rcvd(paths, 0));
	KUNIT_EXPECT_TRUE(test, paths->blocked);
	KUNIT_EXPECT_TRUE(test, quic_path_ampl_rcvd(paths, 1));
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), 3);
	KUNIT_EXPECT_FALSE(test, quic_path_ampl_send(paths, 4));
	KUNIT_EXPECT_TRUE(test, quic_path_ampl_send(paths, 3));
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), 0);
	/* The refused 4-byte datagram left the group blocked until now. */
	KUNIT_EXPECT_TRUE(test, quic_path_ampl_rcvd(paths, 100));
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), 300);
	KUNIT_EXPECT_FALSE(test, quic_path_ampl_rcvd(paths, 100));
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), 600);
	KUNIT_EXPECT_EQ(test, paths->ampl_rcvlen, 1401);
	KUNIT_EXPECT_EQ(test, paths->ampl_sndlen, 3603);

	/* Validated: no limit, nothing counted. */
	quic_path_set_validated(paths, true);
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), U64_MAX);
	KUNIT_EXPECT_TRUE(test, quic_path_ampl_send(paths, 65527));
	KUNIT_EXPECT_FALSE(test, quic_path_ampl_rcvd(paths, 1200));
	KUNIT_EXPECT_FALSE(test, paths->blocked);

	/* A new, unvalidated peer address starts from zero again. */
	quic_path_set_validated(paths, false);
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), 0);
}

static void path_ampl_counts_past_16_bits(struct kunit *test)
{
	struct quic_path_group *paths = path_bare_group(test, true);
	int i;

	/* 25 full datagrams of 1200 bytes: 30000 received, 90000 allowed. */
	for (i = 0; i < 25; i++)
		quic_path_ampl_rcvd(paths, 1200);
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), 90000);
	for (i = 0; i < 75; i++)
		KUNIT_EXPECT_TRUE(test, quic_path_ampl_send(paths, 1200));
	KUNIT_EXPECT_FALSE(test, quic_path_ampl_send(paths, 1));

	/* A client is only limited by congestion control. */
	paths = path_bare_group(test, false);
	KUNIT_EXPECT_EQ(test, quic_path_ampl_room(paths), U64_MAX);
}

static void path_challenge_data_is_fresh_and_matched(struct kunit *test)
{
	struct quic_path_group *paths = path_bare_group(test, false);
	u8 first[QUIC_PATH_ENTROPY_LEN], second[QUIC_PATH_ENTROPY_LEN];
	u8 zero[QUIC_PATH_ENTROPY_LEN] = {};

	KUNIT_EXPECT_FALSE(test, quic_path_challenge_match(paths, zero));
	memcpy(first, quic_path_challenge_new(paths), sizeof(first));
	memcpy(second, quic_path_challenge_new(paths), sizeof(second));
	KUNIT_EXPECT_MEMNEQ(test, first, second, sizeof(first));
	KUNIT_EXPECT_TRUE(test, quic_path_challenge_match(paths, first));
	KUNIT_EXPECT_TRUE(test, quic_path_challenge_match(paths, second));
	KUNIT_EXPECT_FALSE(test, quic_path_challenge_match(paths, zero));

	/* Only the last QUIC_PATH_CHALLENGES (3) values are remembered. */
	quic_path_challenge_new(paths);
	quic_path_challenge_new(paths);
	KUNIT_EXPECT_FALSE(test, quic_path_challenge_match(paths, first));
	KUNIT_EXPECT_TRUE(test, quic_path_challenge_match(paths, second));

	quic_path_challenge_clear(paths);
	KUNIT_EXPECT_FALSE(test, quic_path_challenge_match(paths, second));
	KUNIT_EXPECT_FALSE(test, quic_path_challenge_match(paths, zero));
}

/* RFC 9000 Section 18.2: disable_active_migration, in each direction. */
static void path_param_maps_disable_active_migration(struct kunit *test)
{
	struct quic_path_group *paths = path_bare_group(test, false);
	struct quic_transport_param p = {};

	p.remote = 1;
	p.disable_active_migration = 1;
	quic_path_set_param(paths, &p);
	KUNIT_EXPECT_TRUE(test, paths->disable_saddr_alt);
	KUNIT_EXPECT_FALSE(test, paths->disable_daddr_alt);

	p.remote = 0;
	quic_path_set_param(paths, &p);
	KUNIT_EXPECT_TRUE(test, paths->disable_daddr_alt);

	p.remote = 1;
	p.disable_active_migration = 0;
	quic_path_set_param(paths, &p);
	KUNIT_EXPECT_FALSE(test, paths->disable_saddr_alt);

	quic_path_get_param(paths, &p);
	KUNIT_EXPECT_EQ(test, p.disable_active_migration, 0);
	p.remote = 0;
	quic_path_get_param(paths, &p);
	KUNIT_EXPECT_EQ(test, p.disable_active_migration, 1);
}

/* The server's connection ID parameters: S3 always, @odcid and @rscid if set. */
static void path_server_params(struct quic_params *p, const struct quic_conn_id *s3,
			       const struct quic_conn_id *odcid, const struct quic_conn_id *rscid)
{
	quic_param_init(p);
	p->present = QUIC_PARAM_HAS_INIT_SCID;
	p->init_scid = *s3;
	if (odcid) {
		p->present |= QUIC_PARAM_HAS_ORIG_DCID;
		p->orig_dcid = *odcid;
	}
	if (rscid) {
		p->present |= QUIC_PARAM_HAS_RETRY_SCID;
		p->retry_scid = *rscid;
	}
}

/*
 * RFC 9000 Section 7.3, Figures 7 and 8: S1 is the client's first
 * Destination CID, S2 the Retry's Source CID and S3 the Source CID of the
 * server's Initial. S1 and S2 are those of RFC 9001 Appendix A (client
 * DCID 0x8394c8f03e515708) and A.4 (Retry Source CID 0xf067a5502a4262b5);
 * S3 is made up. The rules are quic_param_cid_auth()'s (quic_param suite);
 * this checks that the group supplies the right connection IDs.
 */
static void path_server_cids_checked_per_rfc9000_7_3(struct kunit *test)
{
	static const u8 s1[] = { 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08 };
	static const u8 s2[] = { 0xf0, 0x67, 0xa5, 0x50, 0x2a, 0x42, 0x62, 0xb5 };
	static const u8 s3[] = { 0x53, 0x33 };
	struct quic_path_group *paths = path_bare_group(test, false);
	struct quic_params *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct quic_conn_id id1, id2, id3;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	KUNIT_ASSERT_EQ(test, quic_conn_id_set(&id1, s1, sizeof(s1)), 0);
	KUNIT_ASSERT_EQ(test, quic_conn_id_set(&id2, s2, sizeof(s2)), 0);
	KUNIT_ASSERT_EQ(test, quic_conn_id_set(&id3, s3, sizeof(s3)), 0);
	quic_path_set_orig_dcid(paths, &id1);
	KUNIT_EXPECT_PTR_EQ(test, quic_path_orig_dcid(paths), &paths->orig_dcid);

	/* No Retry: original_destination_connection_id = S1, no retry_source_cid. */
	path_server_params(p, &id3, &id1, NULL);
	KUNIT_EXPECT_EQ(test, quic_path_check_server_cids(paths, p, &id3), 0);
	KUNIT_EXPECT_EQ(test, quic_path_check_server_cids(paths, p, &id1), -EINVAL);
	path_server_params(p, &id3, NULL, NULL);
	KUNIT_EXPECT_EQ(test, quic_path_check_server_cids(paths, p, &id3), -EINVAL);
	path_server_params(p, &id3, &id2, NULL);
	KUNIT_EXPECT_EQ(test, quic_path_check_server_cids(paths, p, &id3), -EINVAL);
	path_server_params(p, &id3, &id1, &id2);
	KUNIT_EXPECT_EQ(test, quic_path_check_server_cids(paths, p, &id3), -EINVAL);

	/* With a Retry: S1 still, and retry_source_connection_id = S2. */
	quic_path_set_retry_dcid(paths, &id2);
	KUNIT_EXPECT_PTR_EQ(test, quic_path_orig_dcid(paths), &paths->retry_dcid);
	path_server_params(p, &id3, &id1, &id2);
	KUNIT_EXPECT_EQ(test, quic_path_check_server_cids(paths, p, &id3), 0);
	path_server_params(p, &id3, &id1, NULL);
	KUNIT_EXPECT_EQ(test, quic_path_check_server_cids(paths, p, &id3), -EINVAL);
	path_server_params(p, &id3, &id1, &id1);
	KUNIT_EXPECT_EQ(test, quic_path_check_server_cids(paths, p, &id3), -EINVAL);
	path_server_params(p, &id3, &id2, &id2);
	KUNIT_EXPECT_EQ(test, quic_path_check_server_cids(paths, p, &id3), -EINVAL);
}

/* RFC 9000 Section 18.2: IPv4 address, IPv4 port, IPv6 address, IPv6 port. */
static void path_pref_addr_offered_and_taken(struct kunit *test)
{
	static const u8 want[QUIC_PREF_ADDR_LEN] = {
		0x7f, 0x00, 0x00, 0x01, 0xee, 0x98,	/* 127.0.0.1, port 61080 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* [::]:0 */
	};
	struct sock *ssk = path_sk(test, AF_INET), *csk = path_sk(test, AF_INET);
	struct quic_path_group *serv = path_group(test, ssk, true);
	struct quic_path_group *cli = path_group(test, csk, false);
	u8 buf[QUIC_PREF_ADDR_LEN + 4];
	u32 len = sizeof(buf);
	union quic_addr a;
	const u8 *q;
	u8 *p = buf;

	KUNIT_EXPECT_EQ(test, quic_path_put_pref_addr(ssk, serv, &p, &len), -EINVAL);
	path_addr(&a, "127.0.0.1", 61080);
	KUNIT_ASSERT_EQ(test, quic_path_offer_pref_addr(ssk, serv, &a), 0);
	KUNIT_EXPECT_NOT_NULL(test, serv->path[1].udp_sk);
	KUNIT_EXPECT_TRUE(test, serv->pref_addr);
	KUNIT_EXPECT_EQ(test, quic_path_offer_pref_addr(ssk, serv, &a), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_path_offer_pref_addr(csk, cli, &a), -EINVAL);

	KUNIT_ASSERT_EQ(test, quic_path_put_pref_addr(ssk, serv, &p, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 4);
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));

	q = buf;
	len = QUIC_PREF_ADDR_LEN;
	KUNIT_EXPECT_EQ(test, quic_path_get_pref_addr(ssk, serv, &q, &len), -EINVAL);
	KUNIT_ASSERT_EQ(test, quic_path_get_pref_addr(csk, cli, &q, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 0);
	KUNIT_EXPECT_PTR_EQ(test, q, (const u8 *)buf + QUIC_PREF_ADDR_LEN);
	KUNIT_EXPECT_TRUE(test, cli->pref_addr);
	KUNIT_EXPECT_MEMEQ(test, quic_path_daddr(cli, 1), &a, sizeof(a));
}

/* RFC 9000 Section 18.2: one address of each IP version. A server's
 * second offer, of the other version (here IPv6 on an IPv4 socket), gets
 * a tunnel of its own and is announced next to the first; a third one,
 * or a second of the first one's version, is refused.
 */
static void path_pref_addr_server_offers_one_of_each_ip_version(struct kunit *test)
{
	static const u8 want[QUIC_PREF_ADDR_LEN] = {
		0x7f, 0x00, 0x00, 0x01, 0xee, 0x9a,	/* 127.0.0.1, port 61082 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xee, 0x9b,	/* [::1]:61083 */
	};
	struct sock *ssk = path_sk(test, AF_INET);
	struct quic_path_group *serv = path_group(test, ssk, true);
	u8 buf[QUIC_PREF_ADDR_LEN];
	u32 len = sizeof(buf);
	union quic_addr a4, a6, b;
	u8 *p = buf;

	path_addr(&a4, "127.0.0.1", 61082);
	path_addr(&a6, "::1", 61083);
	KUNIT_ASSERT_EQ(test, quic_path_offer_pref_addr(ssk, serv, &a4), 0);
	path_addr(&b, "127.0.0.2", 61084);
	KUNIT_EXPECT_EQ(test, quic_path_offer_pref_addr(ssk, serv, &b), -EINVAL);
	KUNIT_ASSERT_EQ(test, quic_path_offer_pref_addr(ssk, serv, &a6), 0);
	KUNIT_EXPECT_NOT_NULL(test, serv->path[QUIC_PATH_PREF2].udp_sk);
	KUNIT_EXPECT_EQ(test, serv->path[QUIC_PATH_PREF2].udp_sk->sk->sk_family, AF_INET6);
	path_addr(&b, "::1", 61085);
	KUNIT_EXPECT_EQ(test, quic_path_offer_pref_addr(ssk, serv, &b), -EINVAL);

	KUNIT_ASSERT_EQ(test, quic_path_put_pref_addr(ssk, serv, &p, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 0);
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
	quic_path_free(ssk, serv, QUIC_PATH_PREF2);
}

static void path_pref_addr_client_picks_usable_family(struct kunit *test)
{
	static const u8 both[QUIC_PREF_ADDR_LEN] = {
		192, 0, 2, 1, 0x01, 0xbb,			/* 192.0.2.1:443 */
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
		0x01, 0xbb,					/* [2001:db8::1]:443 */
	};
	static const u8 none[QUIC_PREF_ADDR_LEN] = {};
	struct sock *sk6 = path_sk(test, AF_INET6), *sk4 = path_sk(test, AF_INET);
	struct quic_path_group *p6 = path_group(test, sk6, false);
	struct quic_path_group *p4 = path_group(test, sk4, false);
	union quic_addr exp;
	const u8 *q = both;
	u32 len = sizeof(both);

	/* An IPv6 socket takes the IPv6 address, an IPv4 one the IPv4 address. */
	KUNIT_ASSERT_EQ(test, quic_path_get_pref_addr(sk6, p6, &q, &len), 0);
	path_addr(&exp, "2001:db8::1", 443);
	KUNIT_EXPECT_MEMEQ(test, quic_path_daddr(p6, 1), &exp, sizeof(exp));
	q = both;
	len = sizeof(both);
	KUNIT_ASSERT_EQ(test, quic_path_get_pref_addr(sk4, p4, &q, &len), 0);
	path_addr(&exp, "192.0.2.1", 443);
	KUNIT_EXPECT_MEMEQ(test, quic_path_daddr(p4, 1), &exp, sizeof(exp));

	/* All zero: no address to move to, nothing recorded. */
	p4->pref_addr = 0;
	memset(quic_path_daddr(p4, 1), 0, sizeof(union quic_addr));
	q = none;
	len = sizeof(none);
	KUNIT_EXPECT_EQ(test, quic_path_get_pref_addr(sk4, p4, &q, &len), 0);
	KUNIT_EXPECT_FALSE(test, p4->pref_addr);
	KUNIT_EXPECT_EQ(test, quic_path_daddr(p4, 1)->sa.sa_family, 0);

	/* Truncated value. */
	q = both;
	len = QUIC_PREF_ADDR_LEN - 1;
	KUNIT_EXPECT_EQ(test, quic_path_get_pref_addr(sk4, p4, &q, &len), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, q, (const u8 *)both);
}

/* Reach SEARCHING with PLPMTU 1232 and PROBED_SIZE 1248 (see quic_plpmtud):
 * MAX_PLPMTU 1264 lost three times, then 1232 acknowledged.
 */
static void path_pl_searching(struct kunit *test, struct quic_path_group *paths)
{
	struct quic_plpmtud *pl = quic_path_pl(paths);
	int i;

	quic_plpmtud_set_max(pl, 1264);
	quic_plpmtud_start(pl);
	quic_plpmtud_sent(pl, 1);
	quic_plpmtud_ack(pl, 1, 1);
	for (i = 2; i < 5; i++) {
		quic_plpmtud_sent(pl, i);
		quic_plpmtud_timeout(pl);
	}
	quic_plpmtud_sent(pl, 5);
	quic_plpmtud_ack(pl, 5, 5);
	KUNIT_ASSERT_EQ(test, quic_plpmtud_pmtu(pl), 1232);
	KUNIT_ASSERT_EQ(test, quic_plpmtud_probe_size(pl), 1248);
}

/* RFC 8899 Section 4.6.2: PL_PTB_SIZE is the PTB size minus IP and UDP headers. */
static void path_pl_toobig_subtracts_ip_and_udp_headers(struct kunit *test)
{
	struct quic_path_group *paths = path_bare_group(test, false);
	struct quic_plpmtud *pl = quic_path_pl(paths);
	union quic_addr a;

	/* IPv4: 1268 - 20 - 8 = 1240, between PLPMTU 1232 and PROBED_SIZE 1248. */
	path_addr(&a, "198.51.100.1", 443);
	quic_path_set_daddr(paths, 0, &a);
	path_pl_searching(test, paths);
	KUNIT_EXPECT_EQ(test, quic_path_pl_toobig(paths, 1268), 0);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_probe_size(pl), 1240);
	/* 1227 - 28 = 1199 is below BASE_PLPMTU: ignored (RFC 9000 14.2.1). */
	KUNIT_EXPECT_EQ(test, quic_path_pl_toobig(paths, 1227), 0);
	KUNIT_EXPECT_EQ(test, quic_path_pl_toobig(paths, 28), 0);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_probe_size(pl), 1240);

	/* IPv6: 1290 - 40 - 8 = 1242. */
	path_addr(&a, "2001:db8::1", 443);
	quic_path_set_daddr(paths, 0, &a);
	path_pl_searching(test, paths);
	KUNIT_EXPECT_EQ(test, quic_path_pl_toobig(paths, 1290), 0);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_probe_size(pl), 1242);

	/* IPv4-mapped peer: IPv4 headers, 1268 - 28 = 1240. */
	path_addr(&a, "::ffff:198.51.100.1", 443);
	quic_path_set_daddr(paths, 0, &a);
	path_pl_searching(test, paths);
	KUNIT_EXPECT_EQ(test, quic_path_pl_toobig(paths, 1268), 0);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_probe_size(pl), 1240);

	/* 1248 - 28 = 1220 < PLPMTU 1232: black hole, PLPMTU back to 1200. */
	path_addr(&a, "198.51.100.1", 443);
	quic_path_set_daddr(paths, 0, &a);
	path_pl_searching(test, paths);
	KUNIT_EXPECT_EQ(test, quic_path_pl_toobig(paths, 1248), 1200);
	KUNIT_EXPECT_EQ(test, quic_plpmtud_state(pl), QUIC_PL_BASE);
}

static int path_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void path_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

static struct kunit_case path_cases[] = {
	KUNIT_CASE(path_bind_explicit_port_creates_tunnel),
	KUNIT_CASE(path_bind_explicit_port_taken_by_udp_fails),
	KUNIT_CASE(path_bind_port_zero_picks_local_range),
	KUNIT_CASE(path_bind_port_zero_skips_reserved_ports),
	KUNIT_CASE(path_bind_port_zero_fails_when_range_exhausted),
	KUNIT_CASE(path_bind_shares_tunnel_between_sockets),
	KUNIT_CASE(path_bind_wildcard_tunnel_serves_its_addresses),
	KUNIT_CASE(path_rebind_releases_old_tunnel),
	KUNIT_CASE(path_bind_waits_for_tunnel_being_released),
	KUNIT_CASE(path_bind_ipv6_and_mapped_addresses),
	KUNIT_CASE(path_bind_v6only_refuses_ipv4),
	KUNIT_CASE_PARAM(path_rcv_hands_datagram_to_callback, path_rcv_gen_params),
	KUNIT_CASE(path_err_reports_ipv4_frag_needed),
	KUNIT_CASE(path_err_reports_ipv6_packet_too_big),
	KUNIT_CASE(path_swap_exchanges_paths_with_alt_tunnel),
	KUNIT_CASE(path_swap_exchanges_peer_only_without_alt_tunnel),
	KUNIT_CASE_PARAM(path_detect_alt_follows_migration_rules, path_alt_gen_params),
	KUNIT_CASE(path_ampl_limits_to_three_times_received),
	KUNIT_CASE(path_ampl_counts_past_16_bits),
	KUNIT_CASE(path_challenge_data_is_fresh_and_matched),
	KUNIT_CASE(path_param_maps_disable_active_migration),
	KUNIT_CASE(path_server_cids_checked_per_rfc9000_7_3),
	KUNIT_CASE(path_pref_addr_offered_and_taken),
	KUNIT_CASE(path_pref_addr_server_offers_one_of_each_ip_version),
	KUNIT_CASE(path_pref_addr_client_picks_usable_family),
	KUNIT_CASE(path_pl_toobig_subtracts_ip_and_udp_headers),
	{}
};

static struct kunit_suite path_suite = {
	.name = "quic_path",
	.suite_init = path_suite_init,
	.suite_exit = path_suite_exit,
	.test_cases = path_cases,
};

kunit_test_suite(path_suite);
