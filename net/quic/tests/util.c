// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers shared by the QUIC KUnit suites.
 */

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/ip.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/net_namespace.h>

#include "../endpoint.h"
#include "../path.h"
#include "../receive.h"
#include "util.h"

KUNIT_DEFINE_ACTION_WRAPPER(quic_kunit_sock_release, sock_release, struct socket *);

/**
 * quic_kunit_socket - create a kernel QUIC socket released when the test ends
 * @test: the running test; the case fails if the socket cannot be created
 * @family: AF_INET or AF_INET6
 * @type: SOCK_STREAM or SOCK_DGRAM
 *
 * Return: the socket.
 */
struct socket *quic_kunit_socket(struct kunit *test, int family, int type)
{
	struct socket *sock = NULL;
	int err;

	err = sock_create_kern(&init_net, family, type, IPPROTO_QUIC, &sock);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "socket(%d, %d, IPPROTO_QUIC)", family, type);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, quic_kunit_sock_release, sock), 0);
	return sock;
}

/**
 * quic_kunit_addr4 - fill a struct sockaddr_in
 * @addr: output, a struct sockaddr_in (or larger) zeroed first
 * @ip: dotted quad
 * @port: port, host order
 */
void quic_kunit_addr4(void *addr, const char *ip, u16 port)
{
	struct sockaddr_in *a = addr;

	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_port = htons(port);
	in4_pton(ip, -1, (u8 *)&a->sin_addr, -1, NULL);
}

/**
 * quic_kunit_addr6 - fill a struct sockaddr_in6
 * @addr: output, a struct sockaddr_in6 zeroed first
 * @ip: IPv6 address text
 * @port: port, host order
 */
void quic_kunit_addr6(void *addr, const char *ip, u16 port)
{
	struct sockaddr_in6 *a = addr;

	memset(a, 0, sizeof(*a));
	a->sin6_family = AF_INET6;
	a->sin6_port = htons(port);
	in6_pton(ip, -1, a->sin6_addr.s6_addr, -1, NULL);
}

/* Whether quic_kunit_loopback_up() opened the device, so that only then
 * quic_kunit_loopback_down() closes it again.
 */
static bool quic_kunit_lo_opened;

/**
 * quic_kunit_loopback_up - bring init_net's loopback device up for a suite
 *
 * The KUnit kernel runs no userspace, so nothing configures "lo": suites
 * that route packets to 127.0.0.1 or ::1 call this from suite_init.
 *
 * Return: 0, or the error of dev_open().
 */
int quic_kunit_loopback_up(void)
{
	struct net_device *lo = init_net.loopback_dev;
	int err = 0;

	rtnl_lock();
	if (!(lo->flags & IFF_UP)) {
		err = dev_open(lo, NULL);
		quic_kunit_lo_opened = !err;
	}
	rtnl_unlock();
	return err;
}

/**
 * quic_kunit_loopback_down - undo quic_kunit_loopback_up() from suite_exit
 */
void quic_kunit_loopback_down(void)
{
	if (!quic_kunit_lo_opened)
		return;
	rtnl_lock();
	dev_close(init_net.loopback_dev);
	rtnl_unlock();
	quic_kunit_lo_opened = false;
}

/**
 * quic_kunit_net_suite_init - suite_init of a suite with live connections
 * @suite: the suite
 *
 * Return: what quic_kunit_loopback_up() returns
 */
int quic_kunit_net_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

/**
 * quic_kunit_net_suite_exit - suite_exit of a suite with live connections
 * @suite: the suite
 *
 * The UDP tunnels the suite's sockets left are released, then loopback
 * goes down if quic_kunit_net_suite_init() brought it up.
 */
void quic_kunit_net_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

/**
 * quic_kunit_udp4_skb - a received UDP datagram, as the stack leaves it
 * @src: its source, a struct sockaddr_in
 * @dst: its destination, a struct sockaddr_in
 * @data: the UDP payload
 * @len: its length
 * @gfp: allocation flags
 *
 * IPv4 and UDP headers built, network header set, data at the UDP header:
 * what a UDP tunnel's encap_rcv is handed.
 *
 * Return: the skb, or NULL when it could not be allocated
 */
struct sk_buff *quic_kunit_udp4_skb(const void *src, const void *dst, const u8 *data, u32 len,
				    gfp_t gfp)
{
	const struct sockaddr_in *s = src, *d = dst;
	struct sk_buff *skb;
	struct udphdr *uh;
	struct iphdr *iph;

	skb = alloc_skb(MAX_HEADER + sizeof(*iph) + sizeof(*uh) + len, gfp);
	if (!skb)
		return NULL;
	skb_reserve(skb, MAX_HEADER);
	iph = skb_put_zero(skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->ttl = 64;
	iph->protocol = IPPROTO_UDP;
	iph->tot_len = htons(sizeof(*iph) + sizeof(*uh) + len);
	iph->saddr = s->sin_addr.s_addr;
	iph->daddr = d->sin_addr.s_addr;
	uh = skb_put_zero(skb, sizeof(*uh));
	uh->source = s->sin_port;
	uh->dest = d->sin_port;
	uh->len = htons(sizeof(*uh) + len);
	skb_put_data(skb, data, len);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(*iph));
	__skb_pull(skb, sizeof(*iph));
	skb->protocol = htons(ETH_P_IP);
	return skb;
}

/**
 * quic_kunit_rcv4 - hand a datagram to quic_rcv() as the UDP tunnel does
 * @test: the case
 * @udp_sk: the UDP tunnel socket that received it
 * @src: its source, a struct sockaddr_in
 * @dst: its destination, a struct sockaddr_in
 * @data: the UDP payload
 * @len: its length
 *
 * Builds the datagram (quic_kunit_udp4_skb()) and calls quic_rcv() with
 * bottom halves off, as in softirq: on return the datagram was processed,
 * queued to a socket's backlog, or held by the receive path.
 */
void quic_kunit_rcv4(struct kunit *test, struct sock *udp_sk, const void *src,
		     const void *dst, const u8 *data, u32 len)
{
	struct sk_buff *skb = quic_kunit_udp4_skb(src, dst, data, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	local_bh_disable();
	quic_rcv(udp_sk, skb);
	local_bh_enable();
}
