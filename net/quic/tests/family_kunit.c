// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_family: IPv4/IPv6 address handling: comparison with
 * wildcards and IPv4-mapped addresses, user address validation, the
 * preferred_address encoding (RFC 9000 Section 18.2), getsockname() and
 * getpeername(), and reading addresses, ECN and MTU from received skbs.
 */

#include <kunit/skbuff.h>
#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>

#include "../lookup.h"
#include "../socket.h"
#include "util.h"

static struct sock *family_sk(struct kunit *test, int family)
{
	return quic_kunit_socket(test, family, SOCK_DGRAM)->sk;
}

static void family_cmp_v4_exact_wildcard_and_port(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET);
	union quic_addr a, b;

	quic_kunit_addr4(&a, "192.0.2.1", 443);
	quic_kunit_addr4(&b, "192.0.2.1", 443);
	KUNIT_EXPECT_TRUE(test, quic_cmp_sk_addr(sk, &a, &b));
	quic_kunit_addr4(&b, "192.0.2.2", 443);
	KUNIT_EXPECT_FALSE(test, quic_cmp_sk_addr(sk, &a, &b));
	quic_kunit_addr4(&b, "192.0.2.1", 444);
	KUNIT_EXPECT_FALSE(test, quic_cmp_sk_addr(sk, &a, &b));
	/* A wildcard on either side matches any address with the same port. */
	quic_kunit_addr4(&a, "0.0.0.0", 443);
	quic_kunit_addr4(&b, "198.51.100.7", 443);
	KUNIT_EXPECT_TRUE(test, quic_cmp_sk_addr(sk, &a, &b));
	KUNIT_EXPECT_TRUE(test, quic_cmp_sk_addr(sk, &b, &a));
	quic_kunit_addr4(&b, "198.51.100.7", 80);
	KUNIT_EXPECT_FALSE(test, quic_cmp_sk_addr(sk, &a, &b));
}

static void family_cmp_v6_exact_and_wildcard(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET6);
	union quic_addr a, b;

	quic_kunit_addr6(&a, "2001:db8::1", 443);
	quic_kunit_addr6(&b, "2001:db8::1", 443);
	KUNIT_EXPECT_TRUE(test, quic_cmp_sk_addr(sk, &a, &b));
	quic_kunit_addr6(&b, "2001:db8::2", 443);
	KUNIT_EXPECT_FALSE(test, quic_cmp_sk_addr(sk, &a, &b));
	quic_kunit_addr6(&a, "::", 443);
	KUNIT_EXPECT_TRUE(test, quic_cmp_sk_addr(sk, &a, &b));
}

static void family_cmp_mapped_matches_ipv4_form(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET6);
	union quic_addr a, b;

	quic_kunit_addr6(&a, "::ffff:192.0.2.1", 443);
	quic_kunit_addr4(&b, "192.0.2.1", 443);
	KUNIT_EXPECT_TRUE(test, quic_cmp_sk_addr(sk, &a, &b));
	KUNIT_EXPECT_TRUE(test, quic_cmp_sk_addr(sk, &b, &a));
	quic_kunit_addr4(&b, "192.0.2.9", 443);
	KUNIT_EXPECT_FALSE(test, quic_cmp_sk_addr(sk, &a, &b));
}

static void family_cmp_v6_wildcard_and_ipv4_follow_v6only(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET6);
	union quic_addr a, b;

	quic_kunit_addr6(&a, "::", 443);
	quic_kunit_addr4(&b, "192.0.2.1", 443);
	KUNIT_EXPECT_TRUE(test, quic_cmp_sk_addr(sk, &a, &b));
	KUNIT_EXPECT_TRUE(test, quic_cmp_sk_addr(sk, &b, &a));
	sk->sk_ipv6only = 1;
	KUNIT_EXPECT_FALSE(test, quic_cmp_sk_addr(sk, &a, &b));
	/* A specific IPv6 address never matches an IPv4 one. */
	sk->sk_ipv6only = 0;
	quic_kunit_addr6(&a, "2001:db8::1", 443);
	KUNIT_EXPECT_FALSE(test, quic_cmp_sk_addr(sk, &a, &b));
}

static void family_cmp_ipv4_socket_ignores_ipv6(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET);
	union quic_addr a, b;

	quic_kunit_addr4(&a, "0.0.0.0", 443);
	quic_kunit_addr6(&b, "2001:db8::1", 443);
	KUNIT_EXPECT_FALSE(test, quic_cmp_sk_addr(sk, &a, &b));
}

static void family_user_addr_checks_length_and_family(struct kunit *test)
{
	struct sock *sk4 = family_sk(test, AF_INET), *sk6 = family_sk(test, AF_INET6);
	struct sockaddr_in6 s6;
	struct sockaddr_in s4;
	union quic_addr a;

	quic_kunit_addr4(&s4, "192.0.2.1", 443);
	quic_kunit_addr6(&s6, "2001:db8::1", 443);

	KUNIT_EXPECT_EQ(test, quic_get_user_addr(sk4, &a, (struct sockaddr *)&s4, sizeof(s4)), 0);
	KUNIT_EXPECT_EQ(test, ntohl(a.v4.sin_addr.s_addr), ntohl(s4.sin_addr.s_addr));
	KUNIT_EXPECT_EQ(test, quic_get_user_addr(sk4, &a, (struct sockaddr *)&s4, sizeof(s4) - 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, quic_get_user_addr(sk4, &a, (struct sockaddr *)&s6, sizeof(s6)),
			-EAFNOSUPPORT);
	KUNIT_EXPECT_EQ(test, quic_get_user_addr(sk4, &a, (struct sockaddr *)&s4, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_get_user_addr(sk4, &a, (struct sockaddr *)&s4, -1), -EINVAL);

	KUNIT_EXPECT_EQ(test, quic_get_user_addr(sk6, &a, (struct sockaddr *)&s6, sizeof(s6)), 0);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&a.v6.sin6_addr, &s6.sin6_addr));
	KUNIT_EXPECT_EQ(test, quic_get_user_addr(sk6, &a, (struct sockaddr *)&s6, sizeof(s6) - 1),
			-EINVAL);
	/* Dual-stack takes IPv4; IPV6_V6ONLY does not. */
	KUNIT_EXPECT_EQ(test, quic_get_user_addr(sk6, &a, (struct sockaddr *)&s4, sizeof(s4)), 0);
	KUNIT_EXPECT_EQ(test, a.sa.sa_family, AF_INET);
	sk6->sk_ipv6only = 1;
	KUNIT_EXPECT_EQ(test, quic_get_user_addr(sk6, &a, (struct sockaddr *)&s4, sizeof(s4)),
			-EAFNOSUPPORT);
	s4.sin_family = AF_UNIX;
	KUNIT_EXPECT_EQ(test, quic_get_user_addr(sk4, &a, (struct sockaddr *)&s4, sizeof(s4)),
			-EAFNOSUPPORT);
}

static void family_pref_addr_v4_encode_decode(struct kunit *test)
{
	/* 192.0.2.1:4433, then an all-zero IPv6 address and port. */
	static const u8 want[QUIC_PREF_ADDR_LEN] = { 192, 0, 2, 1, 0x11, 0x51 };
	struct sock *sk = family_sk(test, AF_INET);
	u8 buf[QUIC_PREF_ADDR_LEN + 4], *w = buf;
	u32 room = sizeof(buf), left;
	union quic_addr a, out;
	const u8 *r = buf;

	quic_kunit_addr4(&a, "192.0.2.1", 4433);
	KUNIT_ASSERT_EQ(test, quic_set_pref_addr(sk, &w, &room, &a), 0);
	KUNIT_EXPECT_EQ(test, w - buf, (long)QUIC_PREF_ADDR_LEN);
	KUNIT_EXPECT_MEMEQ(test, buf, want, QUIC_PREF_ADDR_LEN);

	left = QUIC_PREF_ADDR_LEN;
	KUNIT_ASSERT_EQ(test, quic_get_pref_addr(sk, &out, &r, &left), 0);
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_EQ(test, out.sa.sa_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(out.v4.sin_addr.s_addr), ntohl(a.v4.sin_addr.s_addr));
	KUNIT_EXPECT_EQ(test, ntohs(out.v4.sin_port), 4433);
}

static void family_pref_addr_v6_encode_decode(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET6);
	u8 buf[QUIC_PREF_ADDR_LEN], *w = buf;
	u32 room = sizeof(buf), left;
	union quic_addr a, out;
	const u8 *r = buf;

	quic_kunit_addr6(&a, "2001:db8::5", 8443);
	KUNIT_ASSERT_EQ(test, quic_set_pref_addr(sk, &w, &room, &a), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf, 0, QUIC_ADDR4_LEN + QUIC_PORT_LEN));
	KUNIT_EXPECT_MEMEQ(test, buf + 6, a.v6.sin6_addr.s6_addr, 16);
	KUNIT_EXPECT_EQ(test, buf[22], 0x20);	/* 8443 = 0x20fb */
	KUNIT_EXPECT_EQ(test, buf[23], 0xfb);

	left = sizeof(buf);
	KUNIT_ASSERT_EQ(test, quic_get_pref_addr(sk, &out, &r, &left), 0);
	KUNIT_EXPECT_EQ(test, out.sa.sa_family, AF_INET6);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&out.v6.sin6_addr, &a.v6.sin6_addr));
	KUNIT_EXPECT_EQ(test, ntohs(out.v6.sin6_port), 8443);
}

static void family_pref_addr_falls_back_to_ipv4(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET6);
	u8 buf[QUIC_PREF_ADDR_LEN], *w = buf;
	u32 room = sizeof(buf), left;
	union quic_addr a, out;
	const u8 *r;

	/* A mapped address is announced in the IPv4 slot. */
	quic_kunit_addr6(&a, "::ffff:198.51.100.9", 443);
	KUNIT_ASSERT_EQ(test, quic_set_pref_addr(sk, &w, &room, &a), 0);
	KUNIT_EXPECT_EQ(test, buf[0], 198);
	KUNIT_EXPECT_EQ(test, buf[3], 9);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf + 6, 0, 18));

	r = buf;
	left = sizeof(buf);
	KUNIT_ASSERT_EQ(test, quic_get_pref_addr(sk, &out, &r, &left), 0);
	KUNIT_EXPECT_EQ(test, out.sa.sa_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohs(out.v4.sin_port), 443);

	/* An IPV6_V6ONLY socket takes it too: through a tunnel of its own. */
	sk->sk_ipv6only = 1;
	r = buf;
	left = sizeof(buf);
	KUNIT_ASSERT_EQ(test, quic_get_pref_addr(sk, &out, &r, &left), 0);
	KUNIT_EXPECT_EQ(test, out.sa.sa_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohs(out.v4.sin_port), 443);
}

/* RFC 9000 Section 18.2: the server may offer one IP version only; an
 * IPv4 socket takes an IPv6 preferred address (it opens an IPv6 tunnel
 * for it) instead of staying on the original path.
 */
static void family_pref_addr_ipv4_socket_takes_an_ipv6_only_offer(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET);
	u8 buf[QUIC_PREF_ADDR_LEN], *w = buf;
	u32 room = sizeof(buf), left = sizeof(buf);
	union quic_addr a, out;
	const u8 *r = buf;

	quic_kunit_addr6(&a, "2001:db8::7", 4433);
	KUNIT_ASSERT_EQ(test, quic_set_pref_addr(sk, &w, &room, &a), 0);
	KUNIT_ASSERT_EQ(test, quic_get_pref_addr(sk, &out, &r, &left), 0);
	KUNIT_EXPECT_EQ(test, out.sa.sa_family, AF_INET6);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&out.v6.sin6_addr, &a.v6.sin6_addr));
	KUNIT_EXPECT_EQ(test, ntohs(out.v6.sin6_port), 4433);
}

/* Both versions offered (Section 9.6: "to allow clients to pick the one
 * most suited to their network attachment"): the client keeps the IP
 * version its connection uses, the one its network is known to reach.
 */
static void family_pref_addr_both_offered_keeps_the_connection_ip_version(struct kunit *test)
{
	static const u8 both[QUIC_PREF_ADDR_LEN] = {
		192, 0, 2, 9, 0x01, 0xbb,
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0x01, 0xbc };
	struct sock *sk4 = family_sk(test, AF_INET);
	struct sock *sk6 = family_sk(test, AF_INET6);
	u32 left = sizeof(both);
	const u8 *r = both;
	union quic_addr out;

	KUNIT_ASSERT_EQ(test, quic_get_pref_addr(sk4, &out, &r, &left), 0);
	KUNIT_EXPECT_EQ(test, out.sa.sa_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohs(out.v4.sin_port), 443);

	/* An IPv6 socket talking IPv6 takes the IPv6 address... */
	ipv6_addr_set(&sk6->sk_v6_daddr, htonl(0x20010db8), 0, 0, htonl(1));
	r = both;
	left = sizeof(both);
	KUNIT_ASSERT_EQ(test, quic_get_pref_addr(sk6, &out, &r, &left), 0);
	KUNIT_EXPECT_EQ(test, out.sa.sa_family, AF_INET6);
	KUNIT_EXPECT_EQ(test, ntohs(out.v6.sin6_port), 444);

	/* ... and one talking IPv4 (mapped) the IPv4 one. */
	ipv6_addr_set_v4mapped(htonl(0xc0000201), &sk6->sk_v6_daddr);
	r = both;
	left = sizeof(both);
	KUNIT_ASSERT_EQ(test, quic_get_pref_addr(sk6, &out, &r, &left), 0);
	KUNIT_EXPECT_EQ(test, out.sa.sa_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohs(out.v4.sin_port), 443);
}

/* A server announces an address of either family, whatever its socket's
 * (QUIC_SOCKOPT_CONNECTION_MIGRATION); a mapped one counts as IPv4.
 */
static void family_user_pref_addr_takes_either_family(struct kunit *test)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_port = htons(443) };
	struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons(80) };
	union quic_addr a;

	s6.sin6_addr.s6_addr[15] = 1;
	KUNIT_ASSERT_EQ(test, quic_get_user_pref_addr(&a, (struct sockaddr *)&s6, sizeof(s6)), 0);
	KUNIT_EXPECT_EQ(test, a.sa.sa_family, AF_INET6);
	KUNIT_EXPECT_EQ(test, quic_addr_family(&a), AF_INET6);
	KUNIT_EXPECT_EQ(test, quic_get_user_pref_addr(&a, (struct sockaddr *)&s6, sizeof(s4)),
			-EINVAL);
	ipv6_addr_set_v4mapped(htonl(0xc6336409), &s6.sin6_addr);
	KUNIT_ASSERT_EQ(test, quic_get_user_pref_addr(&a, (struct sockaddr *)&s6, sizeof(s6)), 0);
	KUNIT_EXPECT_EQ(test, a.sa.sa_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(a.v4.sin_addr.s_addr), 0xc6336409U);
	KUNIT_EXPECT_EQ(test, ntohs(a.v4.sin_port), 443);
	KUNIT_ASSERT_EQ(test, quic_get_user_pref_addr(&a, (struct sockaddr *)&s4, sizeof(s4)), 0);
	KUNIT_EXPECT_EQ(test, a.sa.sa_family, AF_INET);
	s4.sin_family = AF_UNIX;
	KUNIT_EXPECT_EQ(test, quic_get_user_pref_addr(&a, (struct sockaddr *)&s4, sizeof(s4)),
			-EAFNOSUPPORT);
}

/* An IPv4 socket on an IPv6 path (after a move to a preferred address):
 * getsockname() and getpeername() report the IPv6 addresses, and an IPv4
 * address set later reports IPv4 again.
 */
static void family_ipv4_socket_reports_its_ipv6_path(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	union quic_addr a, got;
	int len;

	lock_sock(sock->sk);
	quic_set_state(sock->sk, QUIC_SS_ESTABLISHED);
	release_sock(sock->sk);
	quic_kunit_addr6(&a, "2001:db8::1", 443);
	quic_set_sk_addr(sock->sk, &a, false);
	quic_kunit_addr6(&a, "2001:db8::2", 5000);
	quic_set_sk_addr(sock->sk, &a, true);
	memset(&got, 0, sizeof(got));
	len = quic_get_sk_addr(sock, &got.sa, true);
	KUNIT_EXPECT_EQ(test, len, (int)sizeof(struct sockaddr_in6));
	KUNIT_EXPECT_EQ(test, got.sa.sa_family, AF_INET6);
	KUNIT_EXPECT_EQ(test, got.v6.sin6_addr.s6_addr[15], 1);
	KUNIT_EXPECT_EQ(test, ntohs(got.v6.sin6_port), 443);
	memset(&got, 0, sizeof(got));
	len = quic_get_sk_addr(sock, &got.sa, false);
	KUNIT_EXPECT_EQ(test, len, (int)sizeof(struct sockaddr_in6));
	KUNIT_EXPECT_EQ(test, got.v6.sin6_addr.s6_addr[15], 2);
	KUNIT_EXPECT_EQ(test, ntohs(got.v6.sin6_port), 5000);

	quic_kunit_addr4(&a, "192.0.2.1", 443);
	quic_set_sk_addr(sock->sk, &a, false);
	memset(&got, 0, sizeof(got));
	len = quic_get_sk_addr(sock, &got.sa, true);
	KUNIT_EXPECT_EQ(test, len, (int)sizeof(struct sockaddr_in));
	KUNIT_EXPECT_EQ(test, got.sa.sa_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(got.v4.sin_addr.s_addr), 0xc0000201U);
	lock_sock(sock->sk);
	quic_set_state(sock->sk, QUIC_SS_CLOSED);
	release_sock(sock->sk);
}

static void family_pref_addr_rejects_short_buffers(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET);
	u8 buf[QUIC_PREF_ADDR_LEN] = {}, *w = buf;
	u32 room = QUIC_PREF_ADDR_LEN - 1;
	union quic_addr a, out;
	const u8 *r = buf;

	quic_kunit_addr4(&a, "192.0.2.1", 1);
	KUNIT_EXPECT_EQ(test, quic_set_pref_addr(sk, &w, &room, &a), -ENOSPC);
	KUNIT_EXPECT_PTR_EQ(test, w, &buf[0]);
	KUNIT_EXPECT_EQ(test, quic_get_pref_addr(sk, &out, &r, &room), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, r, (const u8 *)buf);
	KUNIT_EXPECT_EQ(test, room, (u32)QUIC_PREF_ADDR_LEN - 1);
	a.sa.sa_family = AF_UNIX;
	room = sizeof(buf);
	KUNIT_EXPECT_EQ(test, quic_set_pref_addr(sk, &w, &room, &a), -EAFNOSUPPORT);
}

static void family_getname_reports_local_and_peer(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET, SOCK_STREAM);
	struct sockaddr_in out, *o = &out;
	union quic_addr l, p;

	quic_kunit_addr4(&l, "192.0.2.1", 1111);
	quic_kunit_addr4(&p, "192.0.2.2", 2222);
	quic_set_sk_addr(sock->sk, &l, true);
	quic_set_sk_addr(sock->sk, &p, false);

	KUNIT_ASSERT_EQ(test, kernel_getsockname(sock, (struct sockaddr *)o), (int)sizeof(out));
	KUNIT_EXPECT_EQ(test, ntohl(out.sin_addr.s_addr), ntohl(l.v4.sin_addr.s_addr));
	KUNIT_EXPECT_EQ(test, ntohs(out.sin_port), 1111);

	/* No peer name before the connection is established. */
	KUNIT_EXPECT_EQ(test, kernel_getpeername(sock, (struct sockaddr *)o), -ENOTCONN);
	lock_sock(sock->sk);
	quic_set_state(sock->sk, QUIC_SS_ESTABLISHED);
	release_sock(sock->sk);
	KUNIT_ASSERT_EQ(test, kernel_getpeername(sock, (struct sockaddr *)o), (int)sizeof(out));
	KUNIT_EXPECT_EQ(test, ntohl(out.sin_addr.s_addr), ntohl(p.v4.sin_addr.s_addr));
	KUNIT_EXPECT_EQ(test, ntohs(out.sin_port), 2222);
	lock_sock(sock->sk);
	quic_set_state(sock->sk, QUIC_SS_CLOSED);
	release_sock(sock->sk);
}

static void family_getname_v6_reports_ipv4_peer_as_sockaddr_in(struct kunit *test)
{
	struct socket *sock = quic_kunit_socket(test, AF_INET6, SOCK_STREAM);
	struct sockaddr_in6 out;
	union quic_addr l, p;
	struct sockaddr_in *s4;

	quic_kunit_addr6(&l, "2001:db8::1", 1111);
	quic_kunit_addr4(&p, "192.0.2.2", 2222);
	quic_set_sk_addr(sock->sk, &l, true);
	quic_set_sk_addr(sock->sk, &p, false);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_v4mapped(&sock->sk->sk_v6_daddr));

	KUNIT_ASSERT_EQ(test, kernel_getsockname(sock, (struct sockaddr *)&out),
			(int)sizeof(out));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&out.sin6_addr, &l.v6.sin6_addr));

	lock_sock(sock->sk);
	quic_set_state(sock->sk, QUIC_SS_ESTABLISHED);
	release_sock(sock->sk);
	KUNIT_ASSERT_EQ(test, kernel_getpeername(sock, (struct sockaddr *)&out),
			(int)sizeof(struct sockaddr_in));
	s4 = (struct sockaddr_in *)&out;
	KUNIT_EXPECT_EQ(test, s4->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(s4->sin_addr.s_addr), ntohl(p.v4.sin_addr.s_addr));
	KUNIT_EXPECT_EQ(test, ntohs(s4->sin_port), 2222);
	lock_sock(sock->sk);
	quic_set_state(sock->sk, QUIC_SS_CLOSED);
	release_sock(sock->sk);
}

/* An skb holding an IPv4 header with @tos, then a UDP header. */
static struct sk_buff *family_v4_skb(struct kunit *test, u8 tos)
{
	struct sk_buff *skb = kunit_zalloc_skb(test, 64, GFP_KERNEL);
	struct iphdr *iph;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put(skb, sizeof(*iph) + sizeof(struct udphdr));
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(*iph));
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = 5;
	iph->tos = tos;
	iph->saddr = htonl(0xc0000201);	/* 192.0.2.1 */
	iph->daddr = htonl(0xc0000202);	/* 192.0.2.2 */
	udp_hdr(skb)->source = htons(4433);
	udp_hdr(skb)->dest = htons(443);
	return skb;
}

static void family_msg_addrs_and_ecn_from_ipv4_skb(struct kunit *test)
{
	struct sk_buff *skb = family_v4_skb(test, 0xb8 | INET_ECN_CE);
	union quic_addr da, sa;

	quic_get_msg_addrs(skb, udp_hdr(skb), &da, &sa);
	KUNIT_EXPECT_EQ(test, sa.sa.sa_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(sa.v4.sin_addr.s_addr), 0xc0000201);
	KUNIT_EXPECT_EQ(test, ntohs(sa.v4.sin_port), 4433);
	KUNIT_EXPECT_EQ(test, ntohl(da.v4.sin_addr.s_addr), 0xc0000202);
	KUNIT_EXPECT_EQ(test, ntohs(da.v4.sin_port), 443);
	KUNIT_EXPECT_EQ(test, quic_get_msg_ecn(skb), INET_ECN_CE);
}

static void family_msg_addrs_and_ecn_from_ipv6_skb(struct kunit *test)
{
	struct sk_buff *skb = kunit_zalloc_skb(test, 64, GFP_KERNEL);
	union quic_addr da, sa, want;
	struct ipv6hdr *ip6h;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put(skb, sizeof(*ip6h) + sizeof(struct udphdr));
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(*ip6h));
	ip6h = ipv6_hdr(skb);
	ip6h->version = 6;
	ipv6_change_dsfield(ip6h, 0, INET_ECN_ECT_1);
	quic_kunit_addr6(&want, "2001:db8::7", 0);
	ip6h->saddr = want.v6.sin6_addr;
	udp_hdr(skb)->source = htons(1234);

	quic_get_msg_addrs(skb, udp_hdr(skb), &da, &sa);
	KUNIT_EXPECT_EQ(test, sa.sa.sa_family, AF_INET6);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&sa.v6.sin6_addr, &want.v6.sin6_addr));
	KUNIT_EXPECT_EQ(test, ntohs(sa.v6.sin6_port), 1234);
	KUNIT_EXPECT_EQ(test, quic_get_msg_ecn(skb), INET_ECN_ECT_1);
}

static void family_mtu_info_from_icmp_errors(struct kunit *test)
{
	struct sk_buff *skb = family_v4_skb(test, 0);
	struct icmp6hdr *ih6;
	struct icmphdr *ih;
	u32 mtu = 0;

	/* The transport header now points at an ICMP header. */
	ih = icmp_hdr(skb);
	ih->type = ICMP_DEST_UNREACH;
	ih->code = ICMP_FRAG_NEEDED;
	ih->un.frag.mtu = htons(1400);
	KUNIT_EXPECT_EQ(test, quic_get_mtu_info(skb, &mtu), 0);
	KUNIT_EXPECT_EQ(test, mtu, 1400U);
	ih->code = ICMP_PORT_UNREACH;
	KUNIT_EXPECT_EQ(test, quic_get_mtu_info(skb, &mtu), 1);

	skb = kunit_zalloc_skb(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put(skb, sizeof(struct ipv6hdr) + sizeof(*ih6));
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(struct ipv6hdr));
	ipv6_hdr(skb)->version = 6;
	ih6 = icmp6_hdr(skb);
	ih6->icmp6_type = ICMPV6_PKT_TOOBIG;
	ih6->icmp6_mtu = htonl(1280);
	KUNIT_EXPECT_EQ(test, quic_get_mtu_info(skb, &mtu), 0);
	KUNIT_EXPECT_EQ(test, mtu, 1280U);
	ih6->icmp6_type = ICMPV6_DEST_UNREACH;
	KUNIT_EXPECT_EQ(test, quic_get_mtu_info(skb, &mtu), 1);
}

static void family_any_addr_and_encap_len(struct kunit *test)
{
	union quic_addr a;

	quic_kunit_addr4(&a, "0.0.0.0", 1);
	KUNIT_EXPECT_TRUE(test, quic_addr_is_any(&a));
	KUNIT_EXPECT_EQ(test, quic_encap_len(&a), 28U);		/* 20 + 8 */
	quic_kunit_addr4(&a, "127.0.0.1", 1);
	KUNIT_EXPECT_FALSE(test, quic_addr_is_any(&a));
	quic_kunit_addr6(&a, "::", 1);
	KUNIT_EXPECT_TRUE(test, quic_addr_is_any(&a));
	KUNIT_EXPECT_EQ(test, quic_encap_len(&a), 48U);		/* 40 + 8 */
	quic_kunit_addr6(&a, "::1", 1);
	KUNIT_EXPECT_FALSE(test, quic_addr_is_any(&a));
}

/* Route lookups use the socket's cached route: the socket lock is held. */
static int family_route(struct sock *sk, union quic_addr *da, union quic_addr *sa,
			struct flowi *fl)
{
	int err;

	lock_sock(sk);
	err = quic_flow_route(sk, da, sa, fl);
	sk_dst_reset(sk);
	release_sock(sk);
	return err;
}

/* The tunnel's packets follow SO_MARK and SO_BINDTODEVICE like any socket's. */
static void family_route_v4_takes_mark_and_bound_device(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET);
	union quic_addr da, sa = {};
	struct flowi fl;

	quic_kunit_addr4(&da, "127.0.0.1", 4433);
	WRITE_ONCE(sk->sk_mark, 0x2a);
	WRITE_ONCE(sk->sk_bound_dev_if, init_net.loopback_dev->ifindex);

	KUNIT_ASSERT_EQ(test, family_route(sk, &da, &sa, &fl), 0);
	KUNIT_EXPECT_EQ(test, fl.u.ip4.flowi4_mark, 0x2aU);
	KUNIT_EXPECT_EQ(test, fl.u.ip4.flowi4_oif, init_net.loopback_dev->ifindex);
	/* The unbound source took the address the route chose. */
	KUNIT_EXPECT_EQ(test, sa.v4.sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(sa.v4.sin_addr.s_addr), INADDR_LOOPBACK);
}

static void family_route_v6_takes_mark(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET6);
	union quic_addr da, sa = {};
	struct flowi fl;

	quic_kunit_addr6(&da, "::1", 4433);
	WRITE_ONCE(sk->sk_mark, 7);

	KUNIT_ASSERT_EQ(test, family_route(sk, &da, &sa, &fl), 0);
	KUNIT_EXPECT_EQ(test, fl.u.ip6.flowi6_mark, 7U);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_loopback(&sa.v6.sin6_addr));
}

/* RFC 4007 Section 6: a link-local destination means nothing without its
 * zone; the scope ID names the interface, and must agree with
 * SO_BINDTODEVICE when both are given.
 */
static void family_route_v6_link_local_needs_matching_scope(struct kunit *test)
{
	struct sock *sk = family_sk(test, AF_INET6);
	int lo = init_net.loopback_dev->ifindex;
	union quic_addr da, sa = {};
	struct flowi fl;

	quic_kunit_addr6(&da, "fe80::1", 4433);
	KUNIT_EXPECT_EQ(test, family_route(sk, &da, &sa, &fl), -EINVAL);

	WRITE_ONCE(sk->sk_bound_dev_if, lo);
	da.v6.sin6_scope_id = lo + 1;
	KUNIT_EXPECT_EQ(test, family_route(sk, &da, &sa, &fl), -EINVAL);

	/* With the scope alone the interface comes from it. */
	WRITE_ONCE(sk->sk_bound_dev_if, 0);
	da.v6.sin6_scope_id = lo;
	family_route(sk, &da, &sa, &fl);
	KUNIT_EXPECT_EQ(test, fl.u.ip6.flowi6_oif, lo);
}

static int family_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void family_suite_exit(struct kunit_suite *suite)
{
	quic_kunit_loopback_down();
}

static struct kunit_case family_cases[] = {
	KUNIT_CASE(family_cmp_v4_exact_wildcard_and_port),
	KUNIT_CASE(family_cmp_v6_exact_and_wildcard),
	KUNIT_CASE(family_cmp_mapped_matches_ipv4_form),
	KUNIT_CASE(family_cmp_v6_wildcard_and_ipv4_follow_v6only),
	KUNIT_CASE(family_cmp_ipv4_socket_ignores_ipv6),
	KUNIT_CASE(family_user_addr_checks_length_and_family),
	KUNIT_CASE(family_pref_addr_v4_encode_decode),
	KUNIT_CASE(family_pref_addr_v6_encode_decode),
	KUNIT_CASE(family_pref_addr_falls_back_to_ipv4),
	KUNIT_CASE(family_pref_addr_ipv4_socket_takes_an_ipv6_only_offer),
	KUNIT_CASE(family_pref_addr_both_offered_keeps_the_connection_ip_version),
	KUNIT_CASE(family_user_pref_addr_takes_either_family),
	KUNIT_CASE(family_ipv4_socket_reports_its_ipv6_path),
	KUNIT_CASE(family_pref_addr_rejects_short_buffers),
	KUNIT_CASE(family_getname_reports_local_and_peer),
	KUNIT_CASE(family_getname_v6_reports_ipv4_peer_as_sockaddr_in),
	KUNIT_CASE(family_msg_addrs_and_ecn_from_ipv4_skb),
	KUNIT_CASE(family_msg_addrs_and_ecn_from_ipv6_skb),
	KUNIT_CASE(family_mtu_info_from_icmp_errors),
	KUNIT_CASE(family_any_addr_and_encap_len),
	KUNIT_CASE(family_route_v4_takes_mark_and_bound_device),
	KUNIT_CASE(family_route_v6_takes_mark),
	KUNIT_CASE(family_route_v6_link_local_needs_matching_scope),
	{}
};

static struct kunit_suite family_suite = {
	.name = "quic_family",
	.suite_init = family_suite_init,
	.suite_exit = family_suite_exit,
	.test_cases = family_cases,
};

kunit_test_suite(family_suite);
