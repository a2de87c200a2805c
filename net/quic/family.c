// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC address family helpers.
 *
 * Two small tables hold what differs between IPv4 and IPv6. Helpers that
 * act on an address pick the table from the address's own family; helpers
 * that act on a socket pick it from the socket's family, because an IPv6
 * socket also carries IPv4 peers (as IPv4-mapped addresses) unless it is
 * IPV6_V6ONLY.
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/seq_file.h>
#include <net/inet_common.h>
#include <net/inet_ecn.h>
#include <net/ip6_route.h>
#include <net/route.h>

#include "family.h"

struct quic_af_ops {
	sa_family_t family;
	u32 iph_len;
	u32 addr_len;
	bool (*is_any)(const union quic_addr *a);
	void (*udp_conf_init)(struct sock *sk, struct udp_port_cfg *conf,
			      const union quic_addr *a);
	int (*flow_route)(struct sock *sk, union quic_addr *da, union quic_addr *sa,
			  struct flowi *fl);
	void (*lower_xmit)(struct sock *sk, struct sk_buff *skb, struct flowi *fl, u8 ecn);
	void (*seq_dump_addr)(struct seq_file *seq, const union quic_addr *a);
	void (*get_msg_addrs)(const struct sk_buff *skb, const struct udphdr *uh,
			      union quic_addr *da, union quic_addr *sa);
	int (*get_mtu_info)(const struct sk_buff *skb, u32 *info);
	u8 (*get_msg_ecn)(const struct sk_buff *skb);
};

static bool quic_v4_is_any(const union quic_addr *a)
{
	return a->v4.sin_addr.s_addr == htonl(INADDR_ANY);
}

static bool quic_v6_is_any(const union quic_addr *a)
{
	return ipv6_addr_any(&a->v6.sin6_addr);
}

static void quic_v4_udp_conf_init(struct sock *sk, struct udp_port_cfg *conf,
				  const union quic_addr *a)
{
	conf->family = AF_INET;
	conf->local_ip = a->v4.sin_addr;
	conf->local_udp_port = a->v4.sin_port;
	conf->use_udp6_rx_checksums = true;
}

static void quic_v6_udp_conf_init(struct sock *sk, struct udp_port_cfg *conf,
				  const union quic_addr *a)
{
	conf->family = AF_INET6;
	conf->local_ip6 = a->v6.sin6_addr;
	conf->local_udp_port = a->v6.sin6_port;
	conf->use_udp6_rx_checksums = true;
	/* An IPv4 socket's IPv6 path (RFC 9000 Section 9.6) carries no IPv4. */
	conf->ipv6_v6only = sk->sk_family != AF_INET6 || ipv6_only_sock(sk);
}

static int quic_v4_flow_route(struct sock *sk, union quic_addr *da, union quic_addr *sa,
			      struct flowi *fl)
{
	struct flowi4 *fl4 = &fl->u.ip4;
	struct rtable *rt;

	if (__sk_dst_check(sk, 0))
		return 1;

	memset(fl, 0, sizeof(*fl));
	fl4->saddr = sa->v4.sin_addr.s_addr;
	fl4->fl4_sport = sa->v4.sin_port;
	fl4->daddr = da->v4.sin_addr.s_addr;
	fl4->fl4_dport = da->v4.sin_port;
	fl4->flowi4_proto = IPPROTO_UDP;
	/* SO_BINDTODEVICE and SO_MARK steer the tunnel's packets too. */
	fl4->flowi4_oif = READ_ONCE(sk->sk_bound_dev_if);
	fl4->flowi4_mark = READ_ONCE(sk->sk_mark);
	fl4->flowi4_uid = sock_net_uid(sock_net(sk), sk);

	rt = ip_route_output_key(sock_net(sk), fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);

	/* An unbound source takes the address the route picked. */
	if (!sa->v4.sin_family) {
		sa->v4.sin_family = AF_INET;
		sa->v4.sin_addr.s_addr = fl4->saddr;
	}
	sk_setup_caps(sk, &rt->dst);
	return 0;
}

/*
 * An AF_INET socket may have an IPv6 path: a client that moved to a
 * server's IPv6 preferred address, or a server offering one (RFC 9000
 * Section 9.6). It has no struct ipv6_pinfo: no route cookie, IPv6 socket
 * options or source preferences. Its cached IPv6 route is then checked
 * against cookie 0, which never matches, so the route is looked up again
 * for each datagram; the socket's own options (SO_BINDTODEVICE, SO_MARK)
 * still apply through the flow.
 */
static int quic_v6_flow_route(struct sock *sk, union quic_addr *da, union quic_addr *sa,
			      struct flowi *fl)
{
	struct ipv6_pinfo *np = inet6_sk(sk);
	struct flowi6 *fl6 = &fl->u.ip6;
	struct ip6_flowlabel *flowlabel;
	struct dst_entry *dst;

	if (__sk_dst_check(sk, np ? np->dst_cookie : 0))
		return 1;

	memset(fl, 0, sizeof(*fl));
	fl6->saddr = sa->v6.sin6_addr;
	fl6->fl6_sport = sa->v6.sin6_port;
	fl6->daddr = da->v6.sin6_addr;
	fl6->fl6_dport = da->v6.sin6_port;
	fl6->flowi6_proto = IPPROTO_UDP;
	fl6->flowi6_mark = READ_ONCE(sk->sk_mark);
	fl6->flowi6_uid = sock_net_uid(sock_net(sk), sk);
	/* SO_BINDTODEVICE, else the scope of a link-local destination
	 * (RFC 4007 Section 6): without an interface the route is ambiguous.
	 */
	fl6->flowi6_oif = READ_ONCE(sk->sk_bound_dev_if);
	if (__ipv6_addr_needs_scope_id(ipv6_addr_type(&da->v6.sin6_addr))) {
		if (!da->v6.sin6_scope_id && !fl6->flowi6_oif)
			return -EINVAL;
		if (da->v6.sin6_scope_id && fl6->flowi6_oif &&
		    da->v6.sin6_scope_id != fl6->flowi6_oif)
			return -EINVAL;
		if (!fl6->flowi6_oif)
			fl6->flowi6_oif = da->v6.sin6_scope_id;
	}

	if (np && inet6_test_bit(SNDFLOW, sk)) {
		fl6->flowlabel = da->v6.sin6_flowinfo & IPV6_FLOWINFO_MASK;
		if (fl6->flowlabel & IPV6_FLOWLABEL_MASK) {
			flowlabel = fl6_sock_lookup(sk, fl6->flowlabel);
			if (IS_ERR(flowlabel))
				return -EINVAL;
			fl6_sock_release(flowlabel);
		}
	}

	/* The lookup reads the IPv6 source preferences of a socket it is given. */
	dst = ip6_dst_lookup_flow(sock_net(sk), np ? sk : NULL, fl6, NULL);
	if (IS_ERR(dst))
		return PTR_ERR(dst);

	if (!sa->v6.sin6_family) {
		sa->v6.sin6_family = AF_INET6;
		sa->v6.sin6_addr = fl6->saddr;
	}
	if (np)
		ip6_dst_store(sk, dst, NULL, NULL);
	else
		sk_setup_caps(sk, dst);
	return 0;
}

static void quic_v4_lower_xmit(struct sock *sk, struct sk_buff *skb, struct flowi *fl, u8 ecn)
{
	struct flowi4 *fl4 = &fl->u.ip4;
	struct dst_entry *dst;
	__be16 df = 0;
	u8 tos, ttl;

	/* The route reference is handed over to the skb by the tunnel. */
	dst = sk_dst_get(sk);
	if (!dst) {
		kfree_skb(skb);
		return;
	}
	if (ip_dont_fragment(sk, dst) && !skb->ignore_df)
		df = htons(IP_DF);

	tos = (READ_ONCE(inet_sk(sk)->tos) & ~INET_ECN_MASK) | (ecn & INET_ECN_MASK);
	ttl = ip4_dst_hoplimit(dst);
	udp_tunnel_xmit_skb(dst_rtable(dst), sk, skb, fl4->saddr, fl4->daddr, tos, ttl, df,
			    fl4->fl4_sport, fl4->fl4_dport, false, false);
}

static void quic_v6_lower_xmit(struct sock *sk, struct sk_buff *skb, struct flowi *fl, u8 ecn)
{
	struct flowi6 *fl6 = &fl->u.ip6;
	struct dst_entry *dst;
	__be32 label;
	u8 tc, ttl;

	dst = sk_dst_get(sk);
	if (!dst) {
		kfree_skb(skb);
		return;
	}

	/* An AF_INET socket (no IPV6_TCLASS) uses its IP_TOS. */
	tc = inet6_sk(sk) ? inet6_sk(sk)->tclass : READ_ONCE(inet_sk(sk)->tos);
	tc = (tc & ~INET_ECN_MASK) | (ecn & INET_ECN_MASK);
	ttl = ip6_dst_hoplimit(dst);
	label = ip6_make_flowlabel(sock_net(sk), skb, fl6->flowlabel, true, fl6);
	udp_tunnel6_xmit_skb(dst, sk, skb, NULL, &fl6->saddr, &fl6->daddr, tc, ttl, label,
			     fl6->fl6_sport, fl6->fl6_dport, false);
}

static void quic_v4_seq_dump_addr(struct seq_file *seq, const union quic_addr *a)
{
	seq_printf(seq, "%pI4:%u\t", &a->v4.sin_addr.s_addr, ntohs(a->v4.sin_port));
}

static void quic_v6_seq_dump_addr(struct seq_file *seq, const union quic_addr *a)
{
	seq_printf(seq, "%pI6c:%u\t", &a->v6.sin6_addr, ntohs(a->v6.sin6_port));
}

static void quic_v4_get_msg_addrs(const struct sk_buff *skb, const struct udphdr *uh,
				  union quic_addr *da, union quic_addr *sa)
{
	const struct iphdr *iph = ip_hdr(skb);

	sa->v4.sin_family = AF_INET;
	sa->v4.sin_port = uh->source;
	sa->v4.sin_addr.s_addr = iph->saddr;

	da->v4.sin_family = AF_INET;
	da->v4.sin_port = uh->dest;
	da->v4.sin_addr.s_addr = iph->daddr;
}

static void quic_v6_get_msg_addrs(const struct sk_buff *skb, const struct udphdr *uh,
				  union quic_addr *da, union quic_addr *sa)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);

	sa->v6.sin6_family = AF_INET6;
	sa->v6.sin6_port = uh->source;
	sa->v6.sin6_addr = ip6h->saddr;

	da->v6.sin6_family = AF_INET6;
	da->v6.sin6_port = uh->dest;
	da->v6.sin6_addr = ip6h->daddr;
}

/* In the UDP error path the transport header still points at the ICMP header. */
static int quic_v4_get_mtu_info(const struct sk_buff *skb, u32 *info)
{
	const struct icmphdr *hdr = icmp_hdr(skb);

	if (hdr->type != ICMP_DEST_UNREACH || hdr->code != ICMP_FRAG_NEEDED)
		return 1;
	*info = ntohs(hdr->un.frag.mtu);
	return 0;
}

static int quic_v6_get_mtu_info(const struct sk_buff *skb, u32 *info)
{
	const struct icmp6hdr *hdr = icmp6_hdr(skb);

	if (hdr->icmp6_type != ICMPV6_PKT_TOOBIG)
		return 1;
	*info = ntohl(hdr->icmp6_mtu);
	return 0;
}

static u8 quic_v4_get_msg_ecn(const struct sk_buff *skb)
{
	return ip_hdr(skb)->tos & INET_ECN_MASK;
}

static u8 quic_v6_get_msg_ecn(const struct sk_buff *skb)
{
	return ipv6_get_dsfield(ipv6_hdr(skb)) & INET_ECN_MASK;
}

static const struct quic_af_ops quic_af_inet = {
	.family		= AF_INET,
	.iph_len	= sizeof(struct iphdr),
	.addr_len	= sizeof(struct sockaddr_in),
	.is_any		= quic_v4_is_any,
	.udp_conf_init	= quic_v4_udp_conf_init,
	.flow_route	= quic_v4_flow_route,
	.lower_xmit	= quic_v4_lower_xmit,
	.seq_dump_addr	= quic_v4_seq_dump_addr,
	.get_msg_addrs	= quic_v4_get_msg_addrs,
	.get_mtu_info	= quic_v4_get_mtu_info,
	.get_msg_ecn	= quic_v4_get_msg_ecn,
};

static const struct quic_af_ops quic_af_inet6 = {
	.family		= AF_INET6,
	.iph_len	= sizeof(struct ipv6hdr),
	.addr_len	= sizeof(struct sockaddr_in6),
	.is_any		= quic_v6_is_any,
	.udp_conf_init	= quic_v6_udp_conf_init,
	.flow_route	= quic_v6_flow_route,
	.lower_xmit	= quic_v6_lower_xmit,
	.seq_dump_addr	= quic_v6_seq_dump_addr,
	.get_msg_addrs	= quic_v6_get_msg_addrs,
	.get_mtu_info	= quic_v6_get_mtu_info,
	.get_msg_ecn	= quic_v6_get_msg_ecn,
};

static const struct quic_af_ops *quic_af(const union quic_addr *a)
{
	return a->sa.sa_family == AF_INET6 ? &quic_af_inet6 : &quic_af_inet;
}

static const struct quic_af_ops *quic_af_skb(const struct sk_buff *skb)
{
	return ip_hdr(skb)->version == 6 ? &quic_af_inet6 : &quic_af_inet;
}

/**
 * quic_addr_is_any - tell whether an address is the wildcard address
 * @a: IPv4 or IPv6 address
 *
 * Return: true for 0.0.0.0 and ::.
 */
bool quic_addr_is_any(const union quic_addr *a)
{
	return quic_af(a)->is_any(a);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_addr_is_any);

/**
 * quic_encap_len - bytes of IP and UDP header in front of a QUIC packet
 * @a: an address of the path
 *
 * Return: the IP header length of the address family plus 8.
 */
u32 quic_encap_len(const union quic_addr *a)
{
	return quic_af(a)->iph_len + sizeof(struct udphdr);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_encap_len);

/**
 * quic_udp_conf_init - describe the UDP tunnel socket bound to @a
 * @sk: QUIC socket the tunnel serves (for IPV6_V6ONLY)
 * @conf: configuration to fill
 * @a: local address and port
 */
void quic_udp_conf_init(struct sock *sk, struct udp_port_cfg *conf, const union quic_addr *a)
{
	quic_af(a)->udp_conf_init(sk, conf, a);
}

/**
 * quic_flow_route - route a packet from @sa to @da and cache it on @sk
 * @sk: socket whose dst cache is used
 * @da: destination address
 * @sa: source address; its address is filled in when it is unset
 * @fl: flow filled for the transmit path
 *
 * Return: 0 when a route was looked up, 1 when the cached one is still
 * valid (@fl is untouched), or a negative errno.
 */
int quic_flow_route(struct sock *sk, union quic_addr *da, union quic_addr *sa, struct flowi *fl)
{
	return quic_af(da)->flow_route(sk, da, sa, fl);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_flow_route);

/**
 * quic_lower_xmit - hand a packet to the UDP tunnel for transmission
 * @sk: the sending socket (its cached route is used; the skb is freed
 *      when there is none)
 * @skb: the QUIC packet (consumed)
 * @da: destination address (selects the family)
 * @fl: flow from quic_flow_route()
 * @ecn: ECN codepoint for the IP header
 */
void quic_lower_xmit(struct sock *sk, struct sk_buff *skb, const union quic_addr *da,
		     struct flowi *fl, u8 ecn)
{
	quic_af(da)->lower_xmit(sk, skb, fl, ecn);
}

/**
 * quic_seq_dump_addr - print "address:port" and a tab into a seq_file
 * @seq: output
 * @a: address
 */
void quic_seq_dump_addr(struct seq_file *seq, const union quic_addr *a)
{
	quic_af(a)->seq_dump_addr(seq, a);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_seq_dump_addr);

/**
 * quic_get_msg_addrs - read a received datagram's addresses
 * @skb: the datagram, network header set
 * @uh: its UDP header
 * @da: set to the destination (our) address
 * @sa: set to the source (peer) address
 */
void quic_get_msg_addrs(const struct sk_buff *skb, const struct udphdr *uh,
			union quic_addr *da, union quic_addr *sa)
{
	memset(da, 0, sizeof(*da));
	memset(sa, 0, sizeof(*sa));
	quic_af_skb(skb)->get_msg_addrs(skb, uh, da, sa);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_msg_addrs);

/**
 * quic_get_mtu_info - read the MTU from an ICMP "packet too big" error
 * @skb: the ICMP or ICMPv6 error, transport header at the ICMP header
 * @info: set to the reported MTU
 *
 * Return: 0 for Fragmentation Needed / Packet Too Big, 1 for any other
 * error (left to the generic UDP error handling).
 */
int quic_get_mtu_info(const struct sk_buff *skb, u32 *info)
{
	return quic_af_skb(skb)->get_mtu_info(skb, info);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_mtu_info);

/**
 * quic_get_msg_ecn - ECN codepoint of a received datagram
 * @skb: the datagram, network header set
 *
 * Return: the two ECN bits of the IP header.
 */
u8 quic_get_msg_ecn(const struct sk_buff *skb)
{
	return quic_af_skb(skb)->get_msg_ecn(skb);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_msg_ecn);

/* Write an IPv4-mapped IPv6 address as plain IPv4; copy anything else. */
static void quic_addr_unmap(union quic_addr *out, const union quic_addr *in)
{
	if (in->sa.sa_family == AF_INET6 && ipv6_addr_v4mapped(&in->v6.sin6_addr)) {
		memset(out, 0, sizeof(*out));
		out->v4.sin_family = AF_INET;
		out->v4.sin_port = in->v6.sin6_port;
		out->v4.sin_addr.s_addr = in->v6.sin6_addr.s6_addr32[3];
		return;
	}
	*out = *in;
}

/**
 * quic_get_user_addr - validate and copy an address given by the user
 * @sk: socket the address is for
 * @a: set to the address, zero padded
 * @addr: the user's sockaddr (already in kernel memory)
 * @addr_len: its length
 *
 * An IPv6 socket accepts IPv4 addresses unless it is IPV6_V6ONLY.
 *
 * Return: 0, -EINVAL when @addr_len is too short for the family,
 * -EAFNOSUPPORT for a family the socket cannot use.
 */
int quic_get_user_addr(struct sock *sk, union quic_addr *a, const struct sockaddr *addr,
		       int addr_len)
{
	const struct quic_af_ops *af;

	if (addr_len < (int)sizeof(addr->sa_family))
		return -EINVAL;
	if (addr->sa_family == AF_INET)
		af = &quic_af_inet;
	else if (addr->sa_family == AF_INET6 && sk->sk_family == AF_INET6)
		af = &quic_af_inet6;
	else
		return -EAFNOSUPPORT;
	if (af->family != sk->sk_family && ipv6_only_sock(sk))
		return -EAFNOSUPPORT;
	if (addr_len < af->addr_len)
		return -EINVAL;

	memset(a, 0, sizeof(*a));
	memcpy(a, addr, af->addr_len);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_user_addr);

/**
 * quic_get_user_pref_addr - validate a preferred address given by a server
 * @a: set to the address, zero padded; an IPv4-mapped one as plain IPv4
 * @addr: the user's sockaddr (already in kernel memory)
 * @addr_len: its length
 *
 * Unlike quic_get_user_addr(), the socket's family does not matter: a
 * server may announce an address of either family in preferred_address
 * (RFC 9000 Section 18.2), and a path of the other family gets a UDP
 * tunnel of its own.
 *
 * Return: 0, -EINVAL when @addr_len is too short for the family,
 * -EAFNOSUPPORT for a family other than AF_INET and AF_INET6.
 */
int quic_get_user_pref_addr(union quic_addr *a, const struct sockaddr *addr, int addr_len)
{
	union quic_addr in = {};
	int len;

	if (addr_len < (int)sizeof(addr->sa_family))
		return -EINVAL;
	if (addr->sa_family == AF_INET)
		len = sizeof(struct sockaddr_in);
	else if (addr->sa_family == AF_INET6)
		len = sizeof(struct sockaddr_in6);
	else
		return -EAFNOSUPPORT;
	if (addr_len < len)
		return -EINVAL;
	memcpy(&in, addr, len);
	quic_addr_unmap(a, &in);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_user_pref_addr);

/**
 * quic_addr_family - the IP version a path address really uses
 * @a: IPv4, IPv4-mapped IPv6 or IPv6 address
 *
 * Return: AF_INET for an IPv4 or IPv4-mapped address, AF_INET6 for any
 * other IPv6 address, 0 for an unset one.
 */
sa_family_t quic_addr_family(const union quic_addr *a)
{
	if (a->sa.sa_family == AF_INET6 && ipv6_addr_v4mapped(&a->v6.sin6_addr))
		return AF_INET;
	return a->sa.sa_family == AF_INET || a->sa.sa_family == AF_INET6 ?
	       a->sa.sa_family : 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_addr_family);

/* The IP version of the address @sk is connected to (or, unconnected, the
 * one it would use first): an IPv6 socket carrying IPv4 holds it mapped.
 */
static sa_family_t quic_sk_peer_family(struct sock *sk)
{
	if (sk->sk_family == AF_INET6 && !ipv6_addr_v4mapped(&sk->sk_v6_daddr))
		return AF_INET6;
	return AF_INET;
}

/**
 * quic_get_pref_addr - decode the address part of a preferred_address value
 * @sk: the client socket; the IP version of its connection is preferred
 * @addr: set to the address to migrate to; sa_family is 0 when the value
 *        holds neither an IPv4 nor an IPv6 address (both all zeros)
 * @pp: cursor; advanced past the 24 address bytes on success
 * @plen: bytes left at the cursor
 *
 * RFC 9000 Section 18.2: IPv4 address and port, then IPv6 address and port;
 * a family the server does not offer is all zeros. Section 9.6 lets a
 * server offer one of each "to allow clients to pick the one most suited
 * to their network attachment". The client keeps the IP version it
 * connected with when the server offers it: the handshake just showed
 * that its network reaches the server that way, while the other version
 * may not be routed at all. It takes the other version when that is the
 * only one offered, whatever the socket's family: a path of the other
 * version gets a UDP tunnel of its own (an AF_INET socket an IPv6 one, an
 * IPV6_V6ONLY socket an IPv4 one). If the move fails, the client stays
 * on the original path (Section 9.6.1).
 *
 * Return: 0, or -EINVAL when fewer than 24 bytes are left.
 */
int quic_get_pref_addr(struct sock *sk, union quic_addr *addr, const u8 **pp, u32 *plen)
{
	const u8 *p = *pp;
	bool has4, has6;
	struct in6_addr a6;
	__be16 port4, port6;
	__be32 a4;

	if (*plen < QUIC_PREF_ADDR_LEN)
		return -EINVAL;

	memcpy(&a4, p, QUIC_ADDR4_LEN);
	memcpy(&port4, p + QUIC_ADDR4_LEN, QUIC_PORT_LEN);
	memcpy(&a6, p + QUIC_ADDR4_LEN + QUIC_PORT_LEN, QUIC_ADDR6_LEN);
	memcpy(&port6, p + QUIC_ADDR4_LEN + QUIC_PORT_LEN + QUIC_ADDR6_LEN, QUIC_PORT_LEN);
	*pp = p + QUIC_PREF_ADDR_LEN;
	*plen -= QUIC_PREF_ADDR_LEN;

	memset(addr, 0, sizeof(*addr));
	has4 = port4 || a4;
	has6 = port6 || !ipv6_addr_any(&a6);
	if (has6 && (!has4 || quic_sk_peer_family(sk) == AF_INET6)) {
		addr->v6.sin6_family = AF_INET6;
		addr->v6.sin6_addr = a6;
		addr->v6.sin6_port = port6;
		return 0;
	}
	if (has4) {
		addr->v4.sin_family = AF_INET;
		addr->v4.sin_addr.s_addr = a4;
		addr->v4.sin_port = port4;
	}
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_pref_addr);

/* Write @addr into its IP version's slot of the 24 bytes at @p. */
static int quic_put_pref_slot(u8 *p, const union quic_addr *addr)
{
	union quic_addr a;

	quic_addr_unmap(&a, addr);
	if (a.sa.sa_family == AF_INET) {
		memcpy(p, &a.v4.sin_addr, QUIC_ADDR4_LEN);
		memcpy(p + QUIC_ADDR4_LEN, &a.v4.sin_port, QUIC_PORT_LEN);
		return 0;
	}
	if (a.sa.sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	p += QUIC_ADDR4_LEN + QUIC_PORT_LEN;
	memcpy(p, &a.v6.sin6_addr, QUIC_ADDR6_LEN);
	memcpy(p + QUIC_ADDR6_LEN, &a.v6.sin6_port, QUIC_PORT_LEN);
	return 0;
}

/**
 * quic_set_pref_addrs - encode the address part of a preferred_address value
 * @pp: output cursor; advanced by 24 bytes on success
 * @plen: room left at the cursor
 * @addr: IPv4, IPv4-mapped IPv6 or IPv6 address
 * @addr2: NULL or unset (sa_family 0), or an address of the other IP
 *	   version than @addr: RFC 9000 Section 18.2 carries one of each
 *
 * A version without an address is written as all zeros.
 *
 * Return: 0, -ENOSPC when fewer than 24 bytes are left, -EAFNOSUPPORT for
 * an address of neither family, -EINVAL for two of one IP version.
 */
int quic_set_pref_addrs(u8 **pp, u32 *plen, const union quic_addr *addr,
			const union quic_addr *addr2)
{
	bool two = addr2 && addr2->sa.sa_family;
	int err;

	if (addr->sa.sa_family != AF_INET && addr->sa.sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	if (two && quic_addr_family(addr2) == quic_addr_family(addr))
		return -EINVAL;
	if (*plen < QUIC_PREF_ADDR_LEN)
		return -ENOSPC;

	memset(*pp, 0, QUIC_PREF_ADDR_LEN);
	err = quic_put_pref_slot(*pp, addr);
	if (!err && two)
		err = quic_put_pref_slot(*pp, addr2);
	if (err)
		return err;
	*pp += QUIC_PREF_ADDR_LEN;
	*plen -= QUIC_PREF_ADDR_LEN;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_set_pref_addrs);

/**
 * quic_set_pref_addr - encode a preferred_address value of one address
 * @sk: socket announcing the address
 * @pp: output cursor; advanced by 24 bytes on success
 * @plen: room left at the cursor
 * @addr: IPv4, IPv4-mapped IPv6 or IPv6 address; the other family is
 *        written as all zeros
 *
 * Return: 0, -ENOSPC when fewer than 24 bytes are left, -EAFNOSUPPORT for
 * an address of neither family.
 */
int quic_set_pref_addr(struct sock *sk, u8 **pp, u32 *plen, const union quic_addr *addr)
{
	return quic_set_pref_addrs(pp, plen, addr, NULL);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_set_pref_addr);

/**
 * quic_cmp_sk_addr - tell whether @addr matches a socket address @a
 * @sk: socket owning @a (its family and IPV6_V6ONLY decide what matches)
 * @a: an address the socket is bound or connected to
 * @addr: an address seen on the wire or asked for by the user
 *
 * Ports must be equal. A wildcard address on either side matches any
 * address of its family; IPv4-mapped IPv6 addresses match their IPv4 form;
 * on a dual-stack IPv6 socket the IPv6 wildcard also matches IPv4.
 *
 * Return: true on a match.
 */
bool quic_cmp_sk_addr(struct sock *sk, const union quic_addr *a, const union quic_addr *addr)
{
	union quic_addr x, y;

	if (a->v4.sin_port != addr->v4.sin_port)
		return false;

	quic_addr_unmap(&x, a);
	quic_addr_unmap(&y, addr);
	if (x.sa.sa_family == y.sa.sa_family) {
		if (quic_addr_is_any(&x) || quic_addr_is_any(&y))
			return true;
		if (x.sa.sa_family == AF_INET)
			return x.v4.sin_addr.s_addr == y.v4.sin_addr.s_addr;
		return ipv6_addr_equal(&x.v6.sin6_addr, &y.v6.sin6_addr);
	}

	if (sk->sk_family != AF_INET6 || ipv6_only_sock(sk))
		return false;
	if (x.sa.sa_family == AF_INET6)
		return ipv6_addr_any(&x.v6.sin6_addr);
	return y.sa.sa_family == AF_INET6 && ipv6_addr_any(&y.v6.sin6_addr);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cmp_sk_addr);

/* An AF_INET socket on an IPv6 path holds its IPv6 address in the
 * sock_common IPv6 fields, which an AF_INET socket otherwise leaves
 * unused, and 0.0.0.0 in the IPv4 ones.
 */
static bool quic_sk_v6_path(struct sock *sk, bool peer)
{
	if (peer)
		return !sk->sk_daddr && !ipv6_addr_any(&sk->sk_v6_daddr);
	return !sk->sk_rcv_saddr && !ipv6_addr_any(&sk->sk_v6_rcv_saddr);
}

/**
 * quic_get_sk_addr - getsockname()/getpeername() for QUIC sockets
 * @sock: the socket
 * @uaddr: output address
 * @peer: true for the peer address
 *
 * On an IPv6 socket, an IPv4 peer or local address (held IPv4-mapped) is
 * reported as a struct sockaddr_in; on an IPv4 socket whose path is IPv6
 * (a server's preferred address, RFC 9000 Section 9.6), the IPv6 address
 * is reported as a struct sockaddr_in6.
 *
 * Return: the address length, or a negative errno (-ENOTCONN for the peer
 * of an unconnected socket).
 */
int quic_get_sk_addr(struct socket *sock, struct sockaddr *uaddr, bool peer)
{
	union quic_addr *a = quic_addr(uaddr);
	struct sock *sk = sock->sk;
	__be32 v4;
	int ret;

	if (sk->sk_family == AF_INET) {
		ret = inet_getname(sock, uaddr, peer);
		if (ret < 0 || !quic_sk_v6_path(sk, peer))
			return ret;
		/* An IPv6 path: the address quic_set_sk_addr() kept for it. */
		memset(a, 0, sizeof(struct sockaddr_in6));
		a->v6.sin6_family = AF_INET6;
		if (peer) {
			a->v6.sin6_port = inet_sk(sk)->inet_dport;
			a->v6.sin6_addr = sk->sk_v6_daddr;
		} else {
			a->v6.sin6_port = inet_sk(sk)->inet_sport;
			a->v6.sin6_addr = sk->sk_v6_rcv_saddr;
		}
		return sizeof(struct sockaddr_in6);
	}

	ret = inet6_getname(sock, uaddr, peer);
	if (ret < 0)
		return ret;
	if (!ipv6_addr_v4mapped(&a->v6.sin6_addr))
		return ret;

	v4 = a->v6.sin6_addr.s6_addr32[3];
	a->v4.sin_family = AF_INET;
	a->v4.sin_addr.s_addr = v4;
	/* sin_port already sits where sin6_port was. */
	memset(a->v4.sin_zero, 0, sizeof(a->v4.sin_zero));
	return sizeof(struct sockaddr_in);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_sk_addr);

/**
 * quic_set_sk_addr - record a local or peer address in the inet socket
 * @sk: the socket
 * @a: the address (IPv4 addresses are stored IPv4-mapped on IPv6 sockets;
 *     IPv6 ones on IPv4 sockets in the sock_common IPv6 fields)
 * @src: true for the local address, false for the peer's
 */
void quic_set_sk_addr(struct sock *sk, const union quic_addr *a, bool src)
{
	struct inet_sock *inet = inet_sk(sk);
	struct in6_addr *v6;

	if (sk->sk_family == AF_INET) {
		union quic_addr x;
		__be32 v4 = 0;

		/* An IPv6 address goes where quic_get_sk_addr() finds it. */
		quic_addr_unmap(&x, a);
		v6 = src ? &sk->sk_v6_rcv_saddr : &sk->sk_v6_daddr;
		if (x.sa.sa_family == AF_INET6)
			*v6 = x.v6.sin6_addr;
		else
			memset(v6, 0, sizeof(*v6));
		if (x.sa.sa_family == AF_INET)
			v4 = x.v4.sin_addr.s_addr;
		if (src) {
			inet->inet_sport = a->v4.sin_port;
			inet->inet_saddr = v4;
			inet->inet_rcv_saddr = v4;
		} else {
			inet->inet_dport = a->v4.sin_port;
			inet->inet_daddr = v4;
		}
		return;
	}

	v6 = src ? &sk->sk_v6_rcv_saddr : &sk->sk_v6_daddr;
	if (a->sa.sa_family == AF_INET)
		ipv6_addr_set_v4mapped(a->v4.sin_addr.s_addr, v6);
	else
		*v6 = a->v6.sin6_addr;
	if (src)
		inet->inet_sport = a->v4.sin_port;
	else
		inet->inet_dport = a->v4.sin_port;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_set_sk_addr);

/**
 * quic_set_sk_ecn - set the ECN codepoint of the socket's outgoing packets
 * @sk: the socket
 * @ecn: two ECN bits
 */
void quic_set_sk_ecn(struct sock *sk, u8 ecn)
{
	struct inet_sock *inet = inet_sk(sk);

	ecn &= INET_ECN_MASK;
	WRITE_ONCE(inet->tos, (READ_ONCE(inet->tos) & ~INET_ECN_MASK) | ecn);
	if (sk->sk_family == AF_INET6)
		inet6_sk(sk)->tclass = (inet6_sk(sk)->tclass & ~INET_ECN_MASK) | ecn;
}

/**
 * quic_common_setsockopt - pass a non-SOL_QUIC option to the IP layer
 * @sk: the socket
 * @level: SOL_IP or SOL_IPV6
 * @optname: option name
 * @optval: option value
 * @optlen: its length
 *
 * Return: what ip_setsockopt() or ipv6_setsockopt() returns.
 */
int quic_common_setsockopt(struct sock *sk, int level, int optname, sockptr_t optval,
			   unsigned int optlen)
{
	if (sk->sk_family == AF_INET6)
		return ipv6_setsockopt(sk, level, optname, optval, optlen);
	return ip_setsockopt(sk, level, optname, optval, optlen);
}

/**
 * quic_common_getsockopt - pass a non-SOL_QUIC option to the IP layer
 * @sk: the socket
 * @level: SOL_IP or SOL_IPV6
 * @optname: option name
 * @optval: user buffer
 * @optlen: user length
 *
 * Return: what ip_getsockopt() or ipv6_getsockopt() returns.
 */
int quic_common_getsockopt(struct sock *sk, int level, int optname, char __user *optval,
			   int __user *optlen)
{
	if (sk->sk_family == AF_INET6)
		return ipv6_getsockopt(sk, level, optname, optval, optlen);
	return ip_getsockopt(sk, level, optname, optval, optlen);
}
