// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The QUIC endpoint: what happens to a datagram before a connection is
 * found, and what the UDP tunnels hand to QUIC.
 *
 * quic_rcv() runs in softirq for every datagram a UDP tunnel receives. It
 * finds the connection by the Destination Connection ID (RFC 9000 Section
 * 5.2; any length up to 20 bytes in long headers, our own length in short
 * ones), a listener by the local address for a new client's Initial, or a
 * connection by address pair, and then hands the datagram to it with the
 * socket spinlock held, or queues it to the socket backlog when a user
 * owns the socket (processed by release_sock()).
 *
 * A listener answers here without a connection: Version Negotiation
 * (RFC 9000 Section 6), Retry (Section 8.1.2), Stateless Reset (Section
 * 10.3), or queues a new client for accept() (request.c). ICMP Packet Too
 * Big messages about our datagrams arrive here too.
 *
 * Context: softirq, or process context with the socket owned (the
 * backlog); nothing here sleeps and allocations are GFP_ATOMIC.
 */

#include <linux/udp.h>
#include <linux/unaligned.h>
#include <net/sock.h>
#include <net/udp.h>

#include "addrval.h"
#include "connection.h"
#include "connid_ctl.h"
#include "endpoint.h"
#include "lookup.h"
#include "memory.h"
#include "migrate.h"
#include "packet.h"
#include "receive.h"
#include "request.h"
#include "socket.h"
#include "transmit.h"

/*
 * RFC 9000 Section 6.1: a client's first datagram (at least 1200 bytes, so
 * the answer amplifies nothing) in a version we do not speak gets a
 * Version Negotiation packet listing v1, v2 and a reserved version
 * 0x?a?a?a?a (Section 6.3), and no state is kept.
 */
static void quic_rcv_send_vn(struct sock *sk, struct sk_buff *skb,
			     const struct quic_packet_invariant *inv)
{
	u32 versions[] = { QUIC_VERSION_V1, QUIC_VERSION_V2,
			   (get_random_u32() & 0xf0f0f0f0) | 0x0a0a0a0a };
	union quic_addr local, peer;
	u32 headroom, room, left;
	struct sk_buff *vn;
	u8 *p;

	headroom = MAX_HEADER + sizeof(struct ipv6hdr) + sizeof(struct udphdr);
	/* First byte, version, two ID lengths and IDs, the list. */
	room = 1 + 4 + 1 + 1 + inv->dcid_len + inv->scid_len + sizeof(versions);
	vn = alloc_skb(headroom + room, GFP_ATOMIC);
	if (!vn)
		return;
	skb_reserve(vn, headroom);
	p = vn->data;
	left = room;
	if (quic_packet_build_vn(&p, &left, inv, versions, ARRAY_SIZE(versions))) {
		kfree_skb(vn);
		return;
	}
	skb_put(vn, p - vn->data);
	quic_get_msg_addrs(skb, udp_hdr(skb), &local, &peer);
	quic_xmit_stateless(sk, vn, &peer, &local);
}

/*
 * RFC 9000 Section 8.1: the token of a client's first Initial, and a Retry
 * when the listener validates addresses and the token proves nothing.
 * Return: true when the Initial was answered with a Retry (or dropped).
 */
static bool quic_rcv_listen_validate(struct sock *sk, struct sk_buff *skb,
				     struct quic_request *req)
{
	struct quic_packet_hdr hdr;
	const u8 *p = skb->data;
	u32 len = skb->len;

	if (quic_packet_parse(&p, &len, 0, false, &hdr))
		return false;	/* quic_rcv_packet() of the new socket drops it */
	if (hdr.token_len)
		quic_addrval_check(sock_net(sk), &req->daddr, hdr.token, hdr.token_len, req);
	if (req->validated || !quic_config(sk)->validate_peer_address)
		return false;
	/* The rest of a first flight spanning datagrams gets a Retry too: the
	 * client takes only the first one.
	 */
	if (quic_addrval_send_retry(sk, req))
		QUIC_INC_STATS(sock_net(sk), QUIC_MIB_PKT_RCVDROP);
	return true;
}

/* The long header packet type of the first packet of @skb. */
static u8 quic_rcv_long_type(const struct sk_buff *skb, u32 version)
{
	return quic_packet_type_from_wire(version, (skb->data[0] & QUIC_HDR_LONG_TYPE_MASK) >>
					  QUIC_HDR_LONG_TYPE_SHIFT);
}

static void quic_rcv_deliver(struct sock *sk, struct sk_buff *skb, bool alt_local);

/* The connection a datagram belongs to, by its Destination Connection ID
 * or its addresses, with a reference; NULL when none (listeners are not
 * looked at). Context: RCU read side.
 */
static struct sock *quic_rcv_conn_lookup(struct net *net, const struct quic_packet_invariant *inv,
					 union quic_addr *local, union quic_addr *peer)
{
	struct quic_source_conn_id *s;
	struct sock *sk = NULL;

	if (inv->dcid_len) {
		s = quic_conn_id_lookup(net, inv->dcid, inv->dcid_len);
		if (s) {
			sk = quic_conn_id_sk(s);
			if (sk && !refcount_inc_not_zero(&sk->sk_refcnt))
				sk = NULL;
		}
	}
	if (!sk)
		sk = quic_conn_addr_lookup(net, local, peer);
	return sk;
}

/*
 * A 0-RTT datagram of a client waiting for accept() joins its Initial, so
 * that the early data is there when the connection takes it (RFC 9001
 * Section 4.6.1; RFC 9000 Section 5.2.2 lets a server buffer them).
 *
 * accept() owns the listener while it takes the request and hashes the
 * new connection: 0-RTT datagrams that came meanwhile wait in the
 * listener's backlog and find no request when it is processed. They go
 * to that connection instead. Context: softirq with the listener's
 * spinlock held, or its backlog (process context, listener owned).
 */
static void quic_rcv_listen_early(struct sock *sk, struct sk_buff *skb,
				  const struct quic_packet_invariant *inv)
{
	struct quic_request req = {};
	struct sock *conn;
	int err;

	quic_get_msg_addrs(skb, udp_hdr(skb), &req.saddr, &req.daddr);
	quic_conn_id_set(&req.dcid, inv->dcid, inv->dcid_len);
	err = quic_conn_request_append(sk, &req, skb);
	if (!err)
		return;
	if (err == -ENOENT) {
		rcu_read_lock();
		conn = quic_rcv_conn_lookup(sock_net(sk), inv, &req.saddr, &req.daddr);
		rcu_read_unlock();
		if (conn && conn != sk && !quic_is_listen(conn)) {
			local_bh_disable();
			bh_lock_sock_nested(conn);
			quic_rcv_deliver(conn, skb, quic_migrate_alt_local(conn, &req.saddr));
			bh_unlock_sock(conn);
			local_bh_enable();
			sock_put(conn);
			return;
		}
		if (conn)
			sock_put(conn);
	}
	QUIC_INC_STATS(sock_net(sk), QUIC_MIB_PKT_RCVDROP);
	kfree_skb(skb);
}

/* A listener sends at most this many Stateless Resets per second. */
#define QUIC_RCV_RESETS_PER_SEC	64
/* RFC 9000 Section 10.3: 5 bytes that look like a short header, the token. */
#define QUIC_RESET_MIN_LEN	21
#define QUIC_RESET_MAX_LEN	64

/* Whether the listener may send one more Stateless Reset this second. */
static bool quic_rcv_reset_allowed(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);

	if (time_after(jiffies, qs->reset_stamp + HZ)) {
		qs->reset_stamp = jiffies;
		qs->reset_count = 0;
	}
	if (qs->reset_count >= QUIC_RCV_RESETS_PER_SEC)
		return false;
	qs->reset_count++;
	return true;
}

/*
 * RFC 9000 Section 10.3: a short header packet no connection takes (the
 * connection it was for is gone: closed, or lost with a reboot) is
 * answered with a Stateless Reset, so that the peer stops at once rather
 * than at its idle timeout. Our connection IDs all have the same length
 * and their tokens derive from them and a key of the module (Section
 * 10.3.2), so the token is known without the connection.
 *
 * The reset is a short header lookalike: random bytes then the token,
 * shorter than the packet it answers (Section 10.3.3, so that two
 * endpoints cannot loop) and at least 21 bytes; a packet of 21 bytes or
 * less gets none. Beyond 43 bytes its length is random between 43 and
 * that limit, so it looks like any short packet.
 */
static void quic_rcv_stateless_reset(struct sock *sk, struct sk_buff *skb)
{
	struct quic_conn_id dcid;
	union quic_addr local, peer;
	struct sk_buff *rst;
	u32 headroom, len;
	u8 *p;

	if (skb->len < QUIC_RESET_MIN_LEN + 1 || skb->len < 1 + QUIC_CONN_ID_OWN_LEN ||
	    !quic_rcv_reset_allowed(sk))
		return;
	len = skb->len - 1;
	if (len > 43)
		len = 43 + get_random_u32_below(min_t(u32, len, QUIC_RESET_MAX_LEN) - 43 + 1);
	quic_conn_id_set(&dcid, skb->data + 1, QUIC_CONN_ID_OWN_LEN);

	headroom = MAX_HEADER + sizeof(struct ipv6hdr) + sizeof(struct udphdr);
	rst = alloc_skb(headroom + len, GFP_ATOMIC);
	if (!rst)
		return;
	skb_reserve(rst, headroom);
	p = skb_put(rst, len);
	get_random_bytes(p, len - QUIC_CONN_ID_TOKEN_LEN);
	p[0] = QUIC_HDR_FIXED_BIT | (p[0] & ~(QUIC_HDR_FORM_LONG | QUIC_HDR_FIXED_BIT));
	if (quic_cid_reset_token(sock_net(sk), &dcid, p + len - QUIC_CONN_ID_TOKEN_LEN)) {
		kfree_skb(rst);
		return;
	}
	quic_get_msg_addrs(skb, udp_hdr(skb), &local, &peer);
	quic_xmit_stateless(sk, rst, &peer, &local);
}

/* A datagram reaching a listener: a new client's first Initial (RFC 9000
 * Section 7.2: a Destination Connection ID of at least 8 bytes, Section
 * 14.1: in a datagram of at least 1200 bytes), queued for accept().
 * A short header packet is for a connection gone: a Stateless Reset.
 */
static void quic_rcv_listen(struct sock *sk, struct sk_buff *skb)
{
	struct quic_packet_invariant inv;
	struct quic_request req = {};
	int err;

	err = quic_skb_invariant(skb, &inv);
	if (!err && !inv.long_header) {
		quic_rcv_stateless_reset(sk, skb);
		QUIC_INC_STATS(sock_net(sk), QUIC_MIB_PKT_RCVDROP);
		kfree_skb(skb);
		return;
	}
	if (!err && inv.long_header && quic_packet_version_supported(inv.version) &&
	    inv.dcid_len >= 8 && inv.dcid_len <= QUIC_CONN_ID_MAX_LEN &&
	    quic_rcv_long_type(skb, inv.version) == QUIC_PACKET_0RTT) {
		quic_rcv_listen_early(sk, skb, &inv);
		return;
	}
	if (!err && inv.long_header && skb->len >= QUIC_MIN_UDP_PAYLOAD &&
	    inv.version != QUIC_VERSION_NEGOTIATION &&
	    !quic_packet_version_supported(inv.version)) {
		quic_rcv_send_vn(sk, skb, &inv);
		kfree_skb(skb);
		return;
	}
	if (err || !inv.long_header || skb->len < QUIC_MIN_UDP_PAYLOAD ||
	    !quic_packet_version_supported(inv.version) || inv.dcid_len < 8 ||
	    inv.dcid_len > QUIC_CONN_ID_MAX_LEN || inv.scid_len > QUIC_CONN_ID_MAX_LEN ||
	    quic_rcv_long_type(skb, inv.version) != QUIC_PACKET_INITIAL) {
		QUIC_INC_STATS(sock_net(sk), QUIC_MIB_PKT_RCVDROP);
		kfree_skb(skb);
		return;
	}

	quic_get_msg_addrs(skb, udp_hdr(skb), &req.saddr, &req.daddr);
	quic_conn_id_set(&req.dcid, inv.dcid, inv.dcid_len);
	quic_conn_id_set(&req.scid, inv.scid, inv.scid_len);
	req.version = inv.version;
	if (quic_rcv_listen_validate(sk, skb, &req)) {
		kfree_skb(skb);
		return;
	}
	err = quic_conn_request_add(sk, &req, skb);
	if (err) {
		QUIC_INC_STATS(sock_net(sk), QUIC_MIB_PKT_RCVDROP);
		kfree_skb(skb);
	}
}

/**
 * quic_rcv_backlog - process a datagram for a socket its owner holds
 * @sk: the socket (sk_backlog_rcv, or the receive path with the spinlock)
 * @skb: the datagram, skb->data at the first QUIC packet
 *
 * Return: 0 (the skb is consumed).
 */
int quic_rcv_backlog(struct sock *sk, struct sk_buff *skb)
{
	if (quic_is_listen(sk))
		quic_rcv_listen(sk, skb);
	else if (quic_is_establishing(sk) || quic_is_established(sk))
		quic_rcv_datagram(sk, skb);
	else if (quic_sk(sk)->close.period)
		quic_close_rcv(sk, skb);
	else
		kfree_skb(skb);
	quic_conn_flush(sk);
	/* Acknowledged and sent data went away: give its memory back. */
	quic_sock_mem_sync(sk);
	return 0;
}

/* The socket a datagram belongs to, with a reference, or NULL;
 * ERR_PTR(-EINPROGRESS) when ALPN routing held @skb back. A datagram held
 * before and now routed with @skb comes back in @held.
 */
static struct sock *quic_rcv_lookup(struct net *net, struct sk_buff *skb,
				    union quic_addr *local, union quic_addr *peer,
				    struct sk_buff **held)
{
	struct quic_packet_invariant inv;
	struct sock *sk;

	if (quic_skb_invariant(skb, &inv))
		return NULL;

	rcu_read_lock();
	sk = quic_rcv_conn_lookup(net, &inv, local, peer);
	/* A first Initial, or a short header the listener answers with a
	 * Stateless Reset.
	 */
	if (!sk)
		sk = quic_conn_listen_lookup(net, local, skb, held);
	rcu_read_unlock();
	return sk;
}

/* Process @skb on @sk now, or queue it to the backlog while a user owns
 * the socket. Context: softirq, under bh_lock_sock(@sk).
 */
static void quic_rcv_deliver(struct sock *sk, struct sk_buff *skb, bool alt_local)
{
	struct net *net = sock_net(sk);
	u32 limit;

	QUIC_SKB_CB(skb)->alt_local = alt_local;
	if (!sock_owned_by_user(sk)) {
		QUIC_INC_STATS(net, QUIC_MIB_PKT_RCVFASTPATHS);
		quic_rcv_backlog(sk, skb);
		return;
	}
	QUIC_SKB_CB(skb)->backlog = 1;
	/* sk_add_backlog() counts sk_rmem_alloc too, the receive queue's
	 * charge, which may exceed SO_RCVBUF (the queue's own bounds allow
	 * it): the backlog alone may still take SO_RCVBUF, so that ACKs get
	 * through while the receive queue is full.
	 */
	limit = min_t(u64, (u64)atomic_read(&sk->sk_rmem_alloc) + READ_ONCE(sk->sk_rcvbuf),
		      U32_MAX);
	if (sk_add_backlog(sk, skb, limit)) {
		QUIC_INC_STATS(net, QUIC_MIB_PKT_RCVDROP);
		kfree_skb(skb);
	} else {
		QUIC_INC_STATS(net, QUIC_MIB_PKT_RCVBACKLOGS);
	}
}

/**
 * quic_rcv_parse - parse the invariant header of a datagram once
 * @skb: the datagram, skb->data at its first QUIC packet
 *
 * The version-independent fields of its first packet (RFC 8999 Section
 * 5; a short header's Destination Connection ID has our length) go into
 * QUIC_SKB_CB(); quic_skb_invariant() gives them back to the lookup, ALPN
 * routing and a listener, none of which parses the header again.
 */
void quic_rcv_parse(struct sk_buff *skb)
{
	struct quic_skb_cb *cb = QUIC_SKB_CB(skb);
	struct quic_packet_invariant inv;

	cb->inv_ok = !quic_packet_peek(skb->data, skb->len, QUIC_CONN_ID_OWN_LEN, &inv);
	cb->inv_long = inv.long_header;
	cb->version = inv.version;
	cb->dcid_len = inv.dcid_len;
	cb->scid_len = inv.scid_len;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_rcv_parse);

/**
 * quic_rcv - a UDP tunnel received a datagram
 * @udp_sk: the tunnel socket
 * @skb: the datagram, skb->data at the UDP header
 *
 * Context: softirq.
 * Return: 0 (the skb is consumed).
 */
int quic_rcv(struct sock *udp_sk, struct sk_buff *skb)
{
	struct net *net = sock_net(udp_sk);
	struct sk_buff *held = NULL;
	union quic_addr local, peer;
	struct sock *sk;
	bool alt_local;
	u32 off;

	off = skb_transport_offset(skb) + sizeof(struct udphdr);
	if (skb_linearize(skb) || !pskb_may_pull(skb, off + 1))
		goto drop;
	quic_get_msg_addrs(skb, udp_hdr(skb), &local, &peer);
	QUIC_SKB_CB(skb)->peer = peer;
	QUIC_SKB_CB(skb)->ecn = quic_get_msg_ecn(skb);
	QUIC_SKB_CB(skb)->backlog = 0;
	QUIC_SKB_CB(skb)->alt_local = 0;
	QUIC_SKB_CB(skb)->held = 0;
	__skb_pull(skb, off);
	QUIC_SKB_CB(skb)->dgram_len = skb->len;
	quic_rcv_parse(skb);

	sk = quic_rcv_lookup(net, skb, &local, &peer, &held);
	if (IS_ERR(sk))
		return 0;	/* held back by ALPN routing */
	if (!sk) {
		if (held) {
			QUIC_INC_STATS(net, QUIC_MIB_PKT_RCVDROP);
			kfree_skb(held);
		}
		goto drop;
	}
	/* Which of its local addresses it came to is only known here. */
	alt_local = quic_migrate_alt_local(sk, &local);

	bh_lock_sock(sk);
	/* The start of a ClientHello held back for this datagram goes first. */
	if (held)
		quic_rcv_deliver(sk, held, alt_local);
	quic_rcv_deliver(sk, skb, alt_local);
	bh_unlock_sock(sk);
	sock_put(sk);
	return 0;

drop:
	QUIC_INC_STATS(net, QUIC_MIB_PKT_RCVDROP);
	kfree_skb(skb);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_rcv);

/*
 * An ICMP Packet Too Big about a datagram we sent (RFC 9000 Section
 * 14.2.1). The quoted datagram looks like a received one: network header
 * at its IP header, transport header at its UDP header, so its source is
 * our address and its destination the peer's. Validation (RFC 8085
 * Section 5.2, RFC 8899 Section 4.6.1): both addresses and ports match a
 * connection, and the quoted packet names one of the peer's connection
 * IDs; a message that does not quote that much is ignored. While the
 * owner holds the socket the report waits for release_cb, as TCP's does.
 * Context: softirq, under rcu_read_lock().
 */
static void quic_conn_udp_toobig(struct sock *udp_sk, struct sk_buff *skb, u32 mtu)
{
	u32 off = skb_transport_offset(skb) + sizeof(struct udphdr), len;
	u8 quote[QUIC_CONN_PTB_QUOTE];
	union quic_addr local, peer;
	struct quic_sock *qs;
	struct sock *sk;

	if (skb->len <= off)
		return;
	len = min_t(u32, skb->len - off, sizeof(quote));
	if (skb_copy_bits(skb, off, quote, len))
		return;
	quic_get_msg_addrs(skb, udp_hdr(skb), &peer, &local);
	sk = quic_conn_addr_lookup(sock_net(udp_sk), &local, &peer);
	if (!sk)
		return;
	qs = quic_sk(sk);
	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk)) {
		quic_conn_ptb(sk, mtu, quote, len);
	} else {
		qs->ptb_mtu = mtu;
		memcpy(qs->ptb_quote, quote, len);
		qs->ptb_quote_len = len;
	}
	bh_unlock_sock(sk);
	sock_put(sk);
}

/* What the UDP tunnels of our sockets' paths hand to QUIC (path.c). */
const struct quic_udp_ops quic_conn_udp_ops = {
	.rcv	= quic_rcv,
	.toobig	= quic_conn_udp_toobig,
};
