// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC connections (RFC 9000 Section 5): bind, connect, listen and accept,
 * the per-connection state they set up, and the socket lookups of the
 * receive path.
 *
 * Socket states (enum quic_state):
 *
 *   CLOSED --connect()--> ESTABLISHING --handshake done--> ESTABLISHED
 *   CLOSED --listen()---> LISTENING --accept()--> (new socket) ESTABLISHING
 *
 * connect() does not wait for the handshake: it picks the connection IDs,
 * installs the Initial keys and returns; the handshake then runs over
 * sendmsg()/recvmsg() on the socket, driven by the TLS library.
 */

#include <linux/sched/signal.h>
#include <net/inet_common.h>
#include <net/sock.h>

#include "addrval.h"
#include "close.h"
#include "connection.h"
#include "connid_ctl.h"
#include "event.h"
#include "lookup.h"
#include "migrate.h"
#include "packet.h"
#include "param.h"
#include "receive.h"
#include "request.h"
#include "socket.h"
#include "ticket.h"
#include "version.h"
#include "transmit.h"

/* Bytes of a quoted QUIC packet that hold its Destination Connection ID. */
#define QUIC_CONN_PTB_QUOTE	(6 + QUIC_CONN_ID_MAX_LEN)

/*
 * The quoted packet's Destination Connection ID is one of the peer's: the
 * active one's length tells where a short header's ends. False when the
 * ICMP message did not quote enough of it.
 */
static bool quic_conn_ptb_valid(struct sock *sk, const u8 *q, u32 len)
{
	struct quic_conn_id_entry *active = quic_conn_id_active(quic_dest(sk));
	u32 off = 1, n;

	if (!len)
		return false;
	if (q[0] & QUIC_HDR_FORM_LONG) {
		if (len < 6)
			return false;
		n = q[5];
		off = 6;
	} else {
		if (!active)
			return false;
		n = active->id.len;
	}
	return n <= QUIC_CONN_ID_MAX_LEN && off + n <= len &&
	       quic_conn_id_known(quic_dest(sk), q + off, n);
}

/**
 * quic_conn_ptb - act on an ICMP Packet Too Big for a connection
 * @sk: the socket, owned by the caller
 * @mtu: the MTU the message reports
 * @quote: the start of the quoted QUIC packet
 * @len: bytes at @quote (at most %QUIC_CONN_PTB_QUOTE are looked at)
 *
 * RFC 9000 Section 14.2.1: the message counts only when the quoted packet
 * was sent to one of the peer's connection IDs (the addresses and ports
 * matched when the socket was found).
 */
void quic_conn_ptb(struct sock *sk, u32 mtu, const u8 *quote, u32 len)
{
	sock_owned_by_me(sk);
	if (!quic_is_established(sk) || !quic_conn_ptb_valid(sk, quote, len))
		return;
	quic_xmit_pmtu_toobig(sk, mtu);
	quic_xmit(sk);
}

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

static const struct quic_udp_ops quic_conn_udp_ops = {
	.rcv	= quic_rcv,
	.toobig	= quic_conn_udp_toobig,
};

/* The sending part of @s ended (outqueue callback, socket owned). */
static void quic_conn_stream_acked(struct quic_outq *outq, struct quic_stream *s)
{
	struct quic_sock *qs = container_of(outq, struct quic_sock, outq);

	/* Data Recvd or Reset Recvd: report it before the stream may go. */
	quic_event_stream_part(&qs->inet.sk, s, true);
	quic_msg_stream_done(&qs->inet.sk, s);
}

/* The sending part of @s moved to Send or Data Sent (outqueue callback). */
static void quic_conn_stream_sent(struct quic_outq *outq, struct quic_stream *s)
{
	struct quic_sock *qs = container_of(outq, struct quic_sock, outq);

	quic_event_stream_part(&qs->inet.sk, s, true);
}

/* A PLPMTUD probe was acknowledged or lost (outqueue callback, socket owned). */
static void quic_conn_probe_done(struct quic_outq *outq, s64 pn, bool acked)
{
	struct quic_sock *qs = container_of(outq, struct quic_sock, outq);

	quic_xmit_pmtu_done(&qs->inet.sk, pn, acked);
}

/*
 * RFC 9001 Section 6: key update.
 *
 * The crypto layer keeps, per direction, the current keys and one other
 * slot: the next generation, ready before it is needed so that following a
 * peer's update never costs a derivation on the receive path, or, after an
 * update, the previous receive keys for packets still in flight (Section
 * 6.5). Rekeying a slot may sleep (AEAD setkey), so it runs here, in a
 * work item: right away for the send side after a local update, and three
 * PTOs after an update completed on the receive side, when the previous
 * keys are no longer needed. The work holds a socket reference; after
 * close() it finds the keys gone and does nothing.
 */
static void quic_conn_key_work(struct work_struct *work)
{
	struct quic_sock *qs = container_of(to_delayed_work(work), struct quic_sock, key_work);
	struct sock *sk = &qs->inet.sk;

	lock_sock(sk);
	if (quic_is_established(sk) &&
	    quic_crypto_prepare_next_keys(quic_crypto(sk, QUIC_CRYPTO_APP)))
		net_warn_ratelimited("quic: next 1-RTT keys not derived; key updates refused\n");
	release_sock(sk);
	sock_put(sk);
}

static void quic_conn_key_work_arm(struct sock *sk, u64 delay_us)
{
	sock_hold(sk);
	if (!queue_delayed_work(system_wq, &quic_sk(sk)->key_work, usecs_to_jiffies(delay_us)))
		sock_put(sk);	/* pending already: it prepares whatever is due */
}

/**
 * quic_conn_key_update - QUIC_SOCKOPT_KEY_UPDATE: start a key update
 * @sk: the socket, owned by the caller (process context)
 *
 * RFC 9001 Section 6.1: allowed once the handshake is confirmed and a
 * packet sent with the current keys was acknowledged. The packets that
 * follow carry the other Key Phase; a PING goes out at once so the peer
 * learns of the update even when no data is waiting.
 *
 * Return: 0; -ENOTCONN before the connection is established; -EAGAIN
 * while an update is not allowed yet (handshake not confirmed, the last
 * update not acknowledged, or the next keys not prepared yet).
 */
int quic_conn_key_update(struct sock *sk)
{
	struct quic_crypto *crypto = quic_crypto(sk, QUIC_CRYPTO_APP);
	struct quic_frame ping = { .type = QUIC_FRAME_PING };
	int err;

	sock_owned_by_me(sk);
	if (!quic_is_established(sk))
		return -ENOTCONN;
	if (!quic_outq(sk)->confirmed)
		return -EAGAIN;
	err = quic_crypto_key_update(crypto);
	if (err)
		return err == -EINVAL ? -ENOTCONN : -EAGAIN;
	/* The send side's old keys are never needed again: rekey now. */
	if (quic_crypto_prepare_next_keys(crypto))
		quic_conn_key_work_arm(sk, 0);
	if (!quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &ping, GFP_KERNEL))
		quic_xmit(sk);
	return 0;
}

/**
 * quic_conn_key_updated - a packet of the next key phase authenticated
 * @sk: the socket, owned by the caller (softirq or process context)
 * @phase: the Key Phase now in use in both directions
 *
 * The update, ours or the peer's, is complete on the receive side: the
 * application is told (QUIC_EVENT_KEY_UPDATE) and the previous receive
 * keys are replaced by the next generation three PTOs later.
 */
void quic_conn_key_updated(struct sock *sk, u8 phase)
{
	sock_owned_by_me(sk);
	quic_event_key_update(sk, phase);
	quic_conn_key_work_arm(sk, 3 * quic_cong_pto(quic_cong(sk), QUIC_CRYPTO_APP));
}

/**
 * quic_conn_key_check_limit - update the keys before they wear out
 * @sk: the socket, owned by the caller (softirq or process context)
 *
 * RFC 9001 Section 6.6: a key may protect only so many packets (2^23 for
 * AES-GCM). Once three quarters of the limit are used, an update is
 * started whenever one is allowed, so the limit itself is never reached
 * on a connection whose peer acknowledges.
 */
void quic_conn_key_check_limit(struct sock *sk)
{
	struct quic_crypto *crypto = quic_crypto(sk, QUIC_CRYPTO_APP);
	u64 limit = quic_crypto_confidentiality_limit(crypto);

	if (limit == U64_MAX || crypto->tx_count < limit - limit / 4)
		return;
	if (!quic_outq(sk)->confirmed || quic_crypto_key_update(crypto))
		return;
	quic_conn_key_work_arm(sk, 0);
}

/**
 * quic_conn_init - set up the connection state of a new socket
 * @sk: the socket, from its proto init (process context)
 *
 * Everything quic_conn_free() releases is made safe to release first, so a
 * failure part way leaves a socket that can be destroyed.
 *
 * Return: 0, or -ENOMEM.
 */
int quic_conn_init(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);
	int i, err;

	INIT_LIST_HEAD(&qs->requests);
	quic_close_init(sk);
	quic_conn_id_set_init(&qs->source, true, sock_net(sk), sk);
	quic_conn_id_set_init(&qs->dest, false, sock_net(sk), sk);
	quic_path_group_init(&qs->paths, &quic_conn_udp_ops, false);

	__skb_queue_head_init(&qs->pending);
	qs->send_stream_id = -1;
	quic_outq_init(&qs->outq, qs->space, &qs->cong, &qs->streams, false);
	qs->outq.stream_acked = quic_conn_stream_acked;
	qs->outq.stream_sent = quic_conn_stream_sent;
	qs->outq.probe_done = quic_conn_probe_done;
	quic_inq_init(&qs->inq);
	INIT_DELAYED_WORK(&qs->key_work, quic_conn_key_work);
	INIT_WORK(&qs->retry_work, quic_addrval_retry_work);
	quic_timer_init(sk, &qs->timers, &quic_xmit_timer_ops);

	for (i = 0; i < QUIC_PNSPACE_MAX; i++) {
		err = quic_pnspace_init(&qs->space[i], GFP_KERNEL);
		if (err)
			return err;
	}
	return 0;
}

/**
 * quic_conn_free - release the connection state of a socket
 * @sk: the socket, from its proto destroy
 */
void quic_conn_free(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);
	int i;

	quic_conn_requests_purge(sk);
	quic_alpn_listen_stop(sk);
	quic_close_free(sk);
	__skb_queue_purge(&qs->pending);
	quic_outq_free(&qs->outq);
	quic_inq_free(&qs->inq);
	quic_stream_table_free(&qs->streams);
	quic_conn_id_set_free(&qs->source);
	quic_conn_id_set_free(&qs->dest);
	for (i = 0; i < QUIC_CRYPTO_MAX; i++)
		quic_crypto_destroy(&qs->crypto[i]);
	quic_version_free(sk);
	for (i = 0; i < QUIC_PNSPACE_MAX; i++)
		quic_pnspace_free(&qs->space[i]);
	quic_path_free(sk, &qs->paths, 0);
	quic_path_free(sk, &qs->paths, 1);
}

/* The receive queue's memory bound: SO_RCVBUF, but never below twice the
 * connection window we advertise, so that out-of-order data the peer may
 * legitimately send cannot fill the buffer and keep out the bytes that
 * would let the application read (chunk headers are charged too). The
 * streams the peer opens are bounded by SO_RCVBUF as well.
 */
static void quic_conn_rcvbuf(struct sock *sk)
{
	u64 window = quic_local_param(sk)->max_data;

	quic_inq_set_max_data(quic_inq(sk), window);
	quic_inq_set_rcvbuf(quic_inq(sk), max_t(u64, READ_ONCE(sk->sk_rcvbuf),
						min_t(u64, 2 * window, U32_MAX)));
	quic_stream_set_peer_mem_limit(quic_streams(sk), READ_ONCE(sk->sk_rcvbuf));
}

/* Bind the active path to @a (port 0: pick one); on failure nothing changes. */
static int quic_conn_bind_path(struct sock *sk, const union quic_addr *a)
{
	struct quic_path_group *paths = quic_paths(sk);
	int err;

	quic_path_set_saddr(paths, 0, a);
	err = quic_path_bind(sk, paths, 0);
	if (err) {
		memset(quic_path_saddr(paths, 0), 0, sizeof(*a));
		return err;
	}
	quic_set_sk_addr(sk, quic_path_saddr(paths, 0), true);
	return 0;
}

/**
 * quic_conn_bind - bind(): give the socket its local address and UDP tunnel
 * @sk: the socket
 * @addr: the address, in kernel memory
 * @addr_len: its length
 *
 * Several QUIC sockets may bind the same address and port: they share one
 * UDP tunnel socket, and received packets are told apart by connection ID.
 * Port 0 picks a free port of the local port range.
 *
 * Return: 0, -EINVAL when the socket is already bound or not closed, or
 * the address is malformed, -EAFNOSUPPORT for a family the socket cannot
 * use, -EADDRINUSE when a UDP socket that is not ours holds the port.
 */
int quic_conn_bind(struct sock *sk, struct sockaddr *addr, int addr_len)
{
	union quic_addr a;
	int err;

	lock_sock(sk);
	err = -EINVAL;
	if (!quic_is_closed(sk) || quic_is_bound(sk))
		goto out;
	err = quic_get_user_addr(sk, &a, addr, addr_len);
	if (err)
		goto out;
	err = quic_conn_bind_path(sk, &a);
out:
	release_sock(sk);
	return err;
}

/* Our first connection IDs: a random Destination Connection ID of 8 bytes
 * for the server's Initial keys (RFC 9000 Section 7.2) and our own Source
 * Connection ID, which enters the global table so that replies find us.
 */
static int quic_conn_client_ids(struct sock *sk, struct quic_conn_id *dcid)
{
	struct quic_conn_id scid;
	int err;

	quic_conn_id_generate(dcid, QUIC_CONN_ID_OWN_LEN);
	quic_conn_id_generate(&scid, QUIC_CONN_ID_OWN_LEN);
	err = quic_conn_id_add(quic_dest(sk), dcid, 0, NULL, GFP_KERNEL);
	if (!err)
		err = quic_conn_id_add(quic_source(sk), &scid, 0, NULL, GFP_KERNEL);
	if (!err)
		quic_path_set_orig_dcid(quic_paths(sk), dcid);
	return err;
}

/* Undo the connection part of a failed connect() or accept(). */
static void quic_conn_reset(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);

	quic_stream_table_free(&qs->streams);
	quic_conn_id_set_free(&qs->source);
	quic_conn_id_set_free(&qs->dest);
	quic_crypto_destroy(quic_crypto(sk, QUIC_CRYPTO_INITIAL));
}

/**
 * quic_conn_connect - connect(): start a client connection to @addr
 * @sk: the socket, locked by the caller
 * @addr: the server's address, in kernel memory
 * @addr_len: its length
 *
 * An unbound socket is bound to the source address of the route and a
 * free port first. The connection IDs are picked, the Initial keys of the
 * configured version installed (RFC 9001 Section 5.2) and the socket moves
 * to ESTABLISHING; the handshake is left to the caller.
 *
 * Return: 0, -EISCONN when already connected or connecting, -EINVAL on a
 * listening socket or for an unusable address (wildcard, port 0),
 * -ENETUNREACH and other route errors, or the errors of bind().
 */
int quic_conn_connect(struct sock *sk, struct sockaddr *addr, int addr_len)
{
	struct quic_path_group *paths = quic_paths(sk);
	struct quic_config *c = quic_config(sk);
	union quic_addr da, sa = {}, bound_sa;
	struct quic_conn_id dcid;
	bool bound;
	int err;

	sock_owned_by_me(sk);
	if (quic_is_establishing(sk) || quic_is_established(sk))
		return -EISCONN;
	if (!quic_is_closed(sk))
		return -EINVAL;
	err = quic_get_user_addr(sk, &da, addr, addr_len);
	if (err)
		return err;
	if (quic_addr_is_any(&da) || !da.v4.sin_port)
		return -EINVAL;

	/* The route picks the source address when the socket has none, or is
	 * bound to the wildcard: the connection is then known by the address
	 * its packets really leave from (and the lookups hash on it).
	 */
	bound = quic_is_bound(sk);
	bound_sa = *quic_path_saddr(paths, 0);
	if (bound && !quic_addr_is_any(&bound_sa))
		sa = *quic_path_saddr(paths, 0);
	sk_dst_reset(sk);
	err = quic_flow_route(sk, &da, &sa, &paths->fl);
	if (err < 0)
		return err;
	if (!bound) {
		err = quic_conn_bind_path(sk, &sa);
		if (err)
			goto out_route;
	} else {
		sa.v4.sin_port = bound_sa.v4.sin_port;
		quic_path_set_saddr(paths, 0, &sa);
		quic_set_sk_addr(sk, &sa, true);
	}
	quic_path_set_daddr(paths, 0, &da);
	quic_set_sk_addr(sk, &da, false);

	err = quic_stream_table_init(quic_streams(sk), false, GFP_KERNEL);
	if (err)
		goto out_unbind;
	err = quic_conn_client_ids(sk, &dcid);
	if (err)
		goto out_reset;
	err = quic_crypto_initial_keys_install(quic_crypto(sk, QUIC_CRYPTO_INITIAL), &dcid,
					       c->version, false);
	if (!err)
		err = quic_version_prepare(sk);
	if (err)
		goto out_reset;
	quic_sk(sk)->orig_version = c->version;
	quic_conn_rcvbuf(sk);
	quic_conn_apply_remote(sk);

	quic_set_state(sk, QUIC_SS_ESTABLISHING);
	WRITE_ONCE(quic_inq(sk)->crypto_only, 1);
	err = sk->sk_prot->hash(sk);
	if (err)
		goto out_closed;
	return 0;

out_closed:
	inet_sk_set_state(sk, QUIC_SS_CLOSED);
out_reset:
	quic_conn_reset(sk);
out_unbind:
	memset(quic_path_daddr(paths, 0), 0, sizeof(da));
	quic_set_sk_addr(sk, quic_path_daddr(paths, 0), false);
	if (!bound) {
		quic_path_free(sk, paths, 0);
		memset(&bound_sa, 0, sizeof(bound_sa));
	}
	quic_path_set_saddr(paths, 0, &bound_sa);
	quic_set_sk_addr(sk, &bound_sa, true);
out_route:
	sk_dst_reset(sk);
	return err;
}

/**
 * quic_conn_listen - listen(): accept connections on the bound address
 * @sock: the socket
 * @backlog: how many clients may wait for accept(); a new client beyond
 *	that is not queued
 *
 * Calling it again on a listening socket only changes the backlog.
 *
 * Listeners may share an address when each has its own protocols
 * (QUIC_SOCKOPT_ALPN before listen()): new clients are routed by the
 * protocols they offer (alpn.c).
 *
 * Return: 0, -EINVAL when the socket is not bound or is connected,
 * -EADDRINUSE when another socket listens on an overlapping address and
 * the two may not share it, -ENOMEM.
 */
int quic_conn_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;
	int err = 0;

	lock_sock(sk);
	WRITE_ONCE(sk->sk_max_ack_backlog, max(backlog, 0));
	if (quic_is_listen(sk))
		goto out;
	err = -EINVAL;
	if (!quic_is_closed(sk) || !quic_is_bound(sk))
		goto out;
	err = quic_ticket_key_init(sk);
	if (!err)
		err = quic_alpn_listen_start(sk);
	if (err)
		goto out;
	quic_paths(sk)->serv = 1;
	quic_set_state(sk, QUIC_SS_LISTENING);
	err = sk->sk_prot->hash(sk);
	if (err) {
		inet_sk_set_state(sk, QUIC_SS_CLOSED);
		quic_alpn_listen_stop(sk);
	}
out:
	release_sock(sk);
	return err;
}

/* The client waiting for accept() that @info's datagram comes from. */

/* Wait until a client is queued, like inet_csk_wait_for_connect(). */
static int quic_conn_wait_request(struct sock *sk, long timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct quic_sock *qs = quic_sk(sk);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		if (!list_empty(&qs->requests))
			break;
		if (!quic_is_listen(sk)) {
			err = -EINVAL;
			break;
		}
		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(timeo);
			break;
		}
		sk_wait_event(sk, &timeo, !list_empty(&qs->requests) || !quic_is_listen(sk),
			      &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/* A fresh socket of the listener's family, type and IP settings. */
static struct sock *quic_conn_alloc_child(struct sock *sk, bool kern)
{
	struct inet_sock *inet = inet_sk(sk), *newinet;
	struct sock *newsk;

	newsk = sk_alloc(sock_net(sk), sk->sk_family, GFP_KERNEL, sk->sk_prot, kern);
	if (!newsk)
		return NULL;
	sock_init_data(NULL, newsk);

	newsk->sk_type = sk->sk_type;
	newsk->sk_protocol = IPPROTO_QUIC;
	newsk->sk_backlog_rcv = sk->sk_prot->backlog_rcv;
	/* Never the listener's: net/handshake wraps the destructor of a
	 * socket with a pending request, and that wrapper is not ours to copy.
	 */
	newsk->sk_destruct = inet_sock_destruct;
	newsk->sk_bound_dev_if = sk->sk_bound_dev_if;
	newsk->sk_mark = READ_ONCE(sk->sk_mark);
	newsk->sk_rcvtimeo = sk->sk_rcvtimeo;
	newsk->sk_sndtimeo = sk->sk_sndtimeo;
	newsk->sk_lingertime = sk->sk_lingertime;
	newsk->sk_ipv6only = sk->sk_ipv6only;

	newinet = inet_sk(newsk);
	newinet->uc_ttl = inet->uc_ttl;
	newinet->pmtudisc = inet->pmtudisc;
	newinet->mc_ttl = 1;
	inet_set_bit(MC_LOOP, newsk);
	atomic_set(&newinet->inet_id, get_random_u16());

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		struct ipv6_pinfo *np;

		/* Fresh IPv6 options: the listener's own ones (sticky
		 * options, flow labels) hold references we must not share.
		 */
		newinet->pinet6 = &((struct quic6_sock *)newsk)->inet6;
		RCU_INIT_POINTER(newinet->ipv6_fl_list, NULL);
		np = inet6_sk(newsk);
		np->hop_limit = inet6_sk(sk)->hop_limit;
		np->mcast_hops = IPV6_DEFAULT_MCASTHOPS;
		np->pmtudisc = inet6_sk(sk)->pmtudisc;
		np->tclass = inet6_sk(sk)->tclass;
		inet6_set_bit(MC6_LOOP, newsk);
	}
#endif

	if (newsk->sk_prot->init(newsk)) {
		sk_common_release(newsk);
		return NULL;
	}
	return newsk;
}

/* Settings a new connection takes over from its listener. */
static int quic_conn_inherit(struct sock *newsk, struct sock *sk)
{
	struct quic_sock *nqs = quic_sk(newsk), *qs = quic_sk(sk);
	int err;

	nqs->config = qs->config;
	nqs->keepalive_interval = qs->keepalive_interval;
	/* As TCP's children (sk_clone_lock()): the listener's buffer sizes,
	 * and whether the application fixed them.
	 */
	WRITE_ONCE(newsk->sk_sndbuf, READ_ONCE(sk->sk_sndbuf));
	WRITE_ONCE(newsk->sk_rcvbuf, READ_ONCE(sk->sk_rcvbuf));
	newsk->sk_userlocks |= sk->sk_userlocks & (SOCK_SNDBUF_LOCK | SOCK_RCVBUF_LOCK);
	nqs->local_param = qs->local_param;
	nqs->events = qs->events;
	err = quic_cong_set_config(&nqs->cong, &nqs->config);
	if (!err && qs->alpn.len)
		err = quic_data_dup(&nqs->alpn, qs->alpn.data, qs->alpn.len, GFP_KERNEL);
	return err;
}

/* Set up the server side of the connection @req asked for on @newsk. */
static int quic_conn_accept_request(struct sock *newsk, struct sock *sk,
				    struct quic_request *req)
{
	struct quic_path_group *paths = quic_paths(newsk);
	union quic_addr sa = req->saddr;
	struct quic_conn_id scid;
	struct sk_buff *skb;
	int err;

	/* The listener's lock is held: the child's is a second one of the
	 * same class.
	 */
	lock_sock_nested(newsk, SINGLE_DEPTH_NESTING);
	err = quic_conn_inherit(newsk, sk);
	if (err)
		goto out;

	paths->serv = 1;
	paths->validated = 0;
	/* The listener's port: the child shares its UDP tunnel. */
	sa.v4.sin_port = quic_path_saddr(quic_paths(sk), 0)->v4.sin_port;
	err = quic_conn_bind_path(newsk, &sa);
	if (err)
		goto out;
	quic_path_set_daddr(paths, 0, &req->daddr);
	quic_set_sk_addr(newsk, &req->daddr, false);

	err = quic_stream_table_init(quic_streams(newsk), true, GFP_KERNEL);
	if (err)
		goto out;
	quic_conn_id_generate(&scid, QUIC_CONN_ID_OWN_LEN);
	err = quic_conn_id_add(quic_dest(newsk), &req->scid, 0, NULL, GFP_KERNEL);
	if (!err)
		err = quic_conn_id_add(quic_source(newsk), &scid, 0, NULL, GFP_KERNEL);
	if (err)
		goto out;
	/* RFC 9000 Section 7.3: after a Retry the original ID is the token's,
	 * and the Retry's Source Connection ID is the one the client now uses.
	 */
	if (req->retry) {
		quic_path_set_orig_dcid(paths, &req->odcid);
		paths->retry = 1;
		paths->retry_dcid = req->dcid;
	} else {
		quic_path_set_orig_dcid(paths, &req->dcid);
	}
	quic_sk(newsk)->peer_scid = req->scid;
	quic_sk(newsk)->peer_scid_set = 1;
	err = quic_crypto_initial_keys_install(quic_crypto(newsk, QUIC_CRYPTO_INITIAL),
					       &req->dcid, req->version, true);
	if (err)
		goto out;
	/* The listener's version is the one preferred (version.c). */
	quic_sk(newsk)->pref_version = quic_config(newsk)->version;
	quic_sk(newsk)->orig_version = req->version;
	quic_config(newsk)->version = req->version;
	/* The ticket key, from the listener's: any connection resumes the
	 * sessions of the others of its version and parameters (ticket.c).
	 */
	err = quic_ticket_key_bind(newsk, sk);
	if (err)
		goto out;

	quic_outq(newsk)->is_serv = 1;
	/* RFC 9002 Appendix A.8: a server takes its own address as validated. */
	quic_outq_set_peer_validated(quic_outq(newsk));
	/* A token proved the client's address: no amplification limit. */
	if (req->validated)
		quic_path_set_validated(paths, true);
	quic_conn_rcvbuf(newsk);
	quic_conn_apply_remote(newsk);

	quic_set_state(newsk, QUIC_SS_ESTABLISHING);
	WRITE_ONCE(quic_inq(newsk)->crypto_only, 1);
	err = newsk->sk_prot->hash(newsk);
	if (err)
		goto out;
	/* The client's first datagrams, kept by the listener. */
	while ((skb = __skb_dequeue(&req->skbs)))
		quic_rcv_backlog(newsk, skb);
out:
	release_sock(newsk);
	return err;
}

/**
 * quic_conn_accept - accept(): take the next client of a listener
 * @sk: the listening socket
 * @arg: accept flags (O_NONBLOCK), kern, and the error on failure
 *
 * Blocks for up to SO_RCVTIMEO (forever by default) unless non-blocking;
 * a signal ends the wait. The new socket is in ESTABLISHING: its Initial
 * keys are those of the client's first Destination Connection ID, and the
 * server side of the handshake runs on it.
 *
 * Return: the new socket, or NULL with @arg->err set: -EINVAL when @sk
 * does not listen, -EAGAIN when non-blocking (or the timeout passed) with
 * nobody waiting, -ERESTARTSYS or -EINTR on a signal, -ENOMEM.
 */
struct sock *quic_conn_accept(struct sock *sk, struct proto_accept_arg *arg)
{
	struct quic_sock *qs = quic_sk(sk);
	struct quic_request *req;
	struct sock *newsk = NULL;
	int err;

	lock_sock(sk);
	err = -EINVAL;
	if (!quic_is_listen(sk))
		goto out;
	err = quic_conn_wait_request(sk, sock_rcvtimeo(sk, arg->flags & O_NONBLOCK));
	if (err)
		goto out;

	req = list_first_entry(&qs->requests, struct quic_request, list);
	list_del_rcu(&req->list);
	qs->request_count--;

	err = -ENOMEM;
	newsk = quic_conn_alloc_child(sk, arg->kern);
	if (newsk) {
		err = quic_conn_accept_request(newsk, sk, req);
		if (err) {
			sk_common_release(newsk);
			newsk = NULL;
		}
	}
	quic_conn_request_free(req);
out:
	release_sock(sk);
	arg->err = err;
	return newsk;
}

/**
 * quic_conn_apply_remote - take the peer's transport parameters into use
 * @sk: the socket, owned by the caller
 *
 * The peer's limits bound what we open and send (RFC 9000 Sections 4.1
 * and 4.6); its max_ack_delay enters the PTO (RFC 9002 Section 6.2.1).
 * Called with remembered parameters at connect() (0-RTT, RFC 9000
 * Section 7.4.1) and again once the peer's own arrive.
 */
void quic_conn_apply_remote(struct sock *sk)
{
	struct quic_transport_param *r = quic_remote_param(sk);

	quic_stream_set_param(quic_streams(sk), quic_local_param(sk));
	quic_stream_set_param(quic_streams(sk), r);
	if (quic_stream_raise_send_limits(quic_streams(sk)))
		sk->sk_write_space(sk);
	quic_outq_set_max_data(quic_outq(sk), r->max_data);
	quic_cong_set_max_ack_delay(quic_cong(sk), r->max_ack_delay);
	quic_conn_id_set_param(quic_dest(sk), quic_local_param(sk));
	quic_conn_id_set_param(quic_source(sk), r);
}

/**
 * quic_conn_discard_level - throw away the keys and state of a level
 * @sk: the socket, owned by the caller
 * @level: QUIC_CRYPTO_INITIAL or QUIC_CRYPTO_HANDSHAKE (RFC 9001 Section 4.9)
 *
 * Its packets in flight leave the congestion window without being lost
 * (RFC 9002 Section 6.4), its queued data and keys are freed, and packets
 * of that level arriving later are ignored.
 */
void quic_conn_discard_level(struct sock *sk, u8 level)
{
	struct quic_sock *qs = quic_sk(sk);

	if (qs->discarded & BIT(level))
		return;
	qs->discarded |= BIT(level);
	quic_outq_discard_space(&qs->outq, level);
	quic_inq_crypto_discard(&qs->inq, level);
	quic_crypto_destroy(quic_crypto(sk, level));
	if (level == QUIC_CRYPTO_INITIAL)
		quic_version_free(sk);
}

/**
 * quic_conn_confirmed - the handshake is confirmed (RFC 9001 Section 4.1.2)
 * @sk: the socket, owned by the caller
 *
 * At the server when the handshake completes, at the client on
 * HANDSHAKE_DONE: the Handshake keys go (Section 4.9.2), PTO covers the
 * Application space, max_ack_delay applies in full, PLPMTUD may start
 * (RFC 9000 Section 14.3.1) and a client probes the server's preferred
 * address (Section 9.6.1).
 */
void quic_conn_confirmed(struct sock *sk)
{
	quic_outq_set_confirmed(quic_outq(sk));
	quic_cong_set_confirmed(quic_cong(sk));
	quic_conn_discard_level(sk, QUIC_CRYPTO_HANDSHAKE);
	quic_xmit_pmtu_start(sk);
	quic_migrate_pref_start(sk);
}

/**
 * quic_conn_idle_restart - restart the idle timeout (RFC 9000 Section 10.1)
 * @sk: the socket, owned by the caller
 *
 * The smaller of both endpoints' max_idle_timeout (0 means none), and no
 * less than three PTOs so that a lost packet or two do not end it. With
 * a keep-alive on an established connection (the configured interval, or
 * half the timeout with SO_KEEPALIVE), the timer first fires after that,
 * for quic_conn_keepalive().
 */
void quic_conn_idle_restart(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);
	u64 local = quic_local_param(sk)->max_idle_timeout;
	u64 remote = quic_remote_param(sk)->max_idle_timeout;
	u64 timeout, pto;

	if (!local || !remote)
		timeout = local ?: remote;
	else
		timeout = min(local, remote);
	if (!timeout)
		return;
	pto = 3 * quic_cong_pto(quic_cong(sk), QUIC_CRYPTO_APP);
	timeout = max(timeout, pto);
	qs->idle_sent = 0;
	qs->ka_sent = 0;
	qs->ka_rest = 0;
	if (quic_is_established(sk)) {
		u64 ka = qs->keepalive_interval;

		if (!ka && sock_flag(sk, SOCK_KEEPOPEN))
			ka = timeout / 2;
		if (ka && ka < timeout) {
			qs->ka_rest = timeout - ka;
			timeout = ka;
		}
	}
	quic_timer_reset(quic_timers(sk), QUIC_TIMER_IDLE, timeout);
}

/**
 * quic_conn_idle_sent - an ack-eliciting packet was sent
 * @sk: the socket, owned by the caller
 *
 * RFC 9000 Section 10.1: "An endpoint also restarts its idle timer when
 * sending an ack-eliciting packet if no other ack-eliciting packets have
 * been sent since last receiving and processing a packet", so that new
 * activity after a silence gets the whole timeout. Later ones do not:
 * the packets the peer never answers do not keep the connection up.
 */
void quic_conn_idle_sent(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);

	/* Closing or draining: the timer measures that period (close.c). */
	if (qs->idle_sent || (!quic_is_establishing(sk) && !quic_is_established(sk)))
		return;
	quic_conn_idle_restart(sk);
	qs->idle_sent = 1;
}

/**
 * quic_conn_set_keepalive - SO_KEEPALIVE was set or cleared
 * @sk: the socket, locked by the caller (sk_setsockopt(), sock_set_keepalive())
 * @val: the new value
 *
 * An established connection re-arms its idle timer at once, the keep-alive
 * half way included or not.
 */
void quic_conn_set_keepalive(struct sock *sk, int val)
{
	sock_owned_by_me(sk);
	sock_valbool_flag(sk, SOCK_KEEPOPEN, val);
	if (quic_is_established(sk))
		quic_conn_idle_restart(sk);
}

/**
 * quic_conn_keepalive - the idle timer fired half way with SO_KEEPALIVE
 * @sk: the socket, owned (timer context with the spinlock)
 *
 * RFC 9000 Section 10.1.2: a PING keeps the connection (and the NAT and
 * firewall state on its path) alive; the peer's acknowledgment restarts
 * the idle timer. If none comes, the rest of the idle timeout runs out
 * (when the PING is the first ack-eliciting packet since the last one
 * received, sending it restarted the timer: quic_conn_idle_sent()).
 *
 * Return: true when a PING went and the timer runs on, false when the
 * idle timeout is over.
 */
bool quic_conn_keepalive(struct sock *sk)
{
	struct quic_frame ping = { .type = QUIC_FRAME_PING };
	struct quic_sock *qs = quic_sk(sk);

	if (qs->ka_sent || !qs->ka_rest || !quic_is_established(sk))
		return false;
	qs->ka_sent = 1;
	quic_timer_reset(quic_timers(sk), QUIC_TIMER_IDLE, qs->ka_rest);
	if (!quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &ping, GFP_ATOMIC))
		quic_xmit(sk);
	return true;
}

/* Both directions of the 1-RTT keys are installed: the TLS library
 * installs them once the handshake is complete (RFC 9001 Section 4.1.1),
 * the server only after it verified the client's Finished. The server
 * then confirms the handshake with HANDSHAKE_DONE (Section 4.1.2).
 */
static void quic_conn_established(struct sock *sk)
{
	struct quic_frame done = { .type = QUIC_FRAME_HANDSHAKE_DONE };
	struct net *net = sock_net(sk);
	bool serv = quic_paths(sk)->serv;

	quic_set_state(sk, QUIC_SS_ESTABLISHED);
	QUIC_INC_STATS(net, serv ? QUIC_MIB_CONN_PASSIVEESTABS : QUIC_MIB_CONN_ACTIVEESTABS);
	/* Data that came in 0-RTT packets is the application's now. */
	WRITE_ONCE(quic_inq(sk)->crypto_only, 0);
	if (quic_inq_readable(quic_inq(sk)))
		sk->sk_data_ready(sk);
	quic_ticket_established(sk);
	/* RFC 9000 Section 5.1.1: the peer gets as many of our IDs as it holds. */
	quic_cid_issue(sk, GFP_KERNEL);
	if (!serv)
		return;
	quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &done, GFP_KERNEL);
	/* RFC 9000 Section 8.1.3: a token for the client's next connection. */
	quic_addrval_new_token(sk);
	quic_conn_confirmed(sk);
}

/**
 * quic_conn_set_secret - install a traffic secret from the TLS handshake
 * @sk: the socket, locked by the caller
 * @srt: level, direction, cipher suite and secret (QUIC_SOCKOPT_CRYPTO_SECRET)
 *
 * Handshake, 0-RTT and 1-RTT secrets come from the TLS library; Initial
 * keys never do (they derive from the client's first Destination
 * Connection ID, RFC 9001 Section 5.2). 0-RTT keys only exist for the
 * client to send and the server to receive (RFC 9001 Section 4.6.1). The
 * second direction of the 1-RTT keys completes the handshake and the socket
 * becomes ESTABLISHED. Packets held for the new keys are processed, and
 * whatever they allow is sent.
 *
 * Context: process context (installing keys allocates and may sleep).
 * Return: 0; -EINVAL outside ESTABLISHING, for the Initial level, a 0-RTT
 * direction that does not exist or a bad cipher or direction; -EEXIST for
 * a direction that already has keys; errors of quic_crypto_set_secret().
 */
int quic_conn_set_secret(struct sock *sk, const struct quic_crypto_secret *srt)
{
	bool serv = quic_paths(sk)->serv;
	struct quic_crypto *crypto;
	int err;

	sock_owned_by_me(sk);
	if (!quic_is_establishing(sk) || srt->send > 1)
		return -EINVAL;
	if (srt->level == QUIC_CRYPTO_INITIAL || srt->level >= QUIC_CRYPTO_MAX)
		return -EINVAL;
	if (srt->level == QUIC_CRYPTO_EARLY && srt->send == serv)
		return -EINVAL;

	crypto = quic_crypto(sk, srt->level);
	/* RFC 9369 Section 4: 0-RTT stays in the original version. */
	err = quic_crypto_set_secret(crypto, srt, srt->level == QUIC_CRYPTO_EARLY ?
				     quic_sk(sk)->orig_version : quic_config(sk)->version);
	if (err)
		return err;
	if (srt->level == QUIC_CRYPTO_HANDSHAKE && srt->send)
		quic_outq_set_hs_keys(quic_outq(sk));
	if (srt->level == QUIC_CRYPTO_EARLY && srt->send) {
		err = quic_ticket_early_offered(sk);
		if (err)
			return err;
	}
	if (srt->level == QUIC_CRYPTO_APP && crypto->tx.ready && crypto->rx.ready)
		quic_conn_established(sk);
	if (!srt->send)
		quic_rcv_pending_retry(sk);
	quic_xmit(sk);
	return 0;
}

/**
 * quic_conn_get_param_ext - encode our transport parameters for TLS
 * @sk: the socket, locked by the caller, connecting or connected
 * @buf: output
 * @len: in: room at @buf; out: bytes written
 *
 * The quic_transport_parameters extension (RFC 9001 Section 8.2) the TLS
 * library sends: our integer parameters, initial_source_connection_id,
 * and at a server original_destination_connection_id (RFC 9000 Section
 * 7.3) and the preferred address offered (Section 9.6).
 *
 * Return: 0, -EINVAL before connect()/accept(), -ENOSPC when @buf is too
 * small.
 */
int quic_conn_get_param_ext(struct sock *sk, u8 *buf, u32 *len)
{
	struct quic_conn_id_entry *scid = quic_conn_id_active(quic_source(sk));
	struct quic_conn_id_entry *pref;
	bool serv = quic_paths(sk)->serv;
	struct quic_params *params;
	u32 left = *len;
	u8 *p = buf;
	int err;

	sock_owned_by_me(sk);
	if ((!quic_is_establishing(sk) && !quic_is_established(sk)) || !scid)
		return -EINVAL;
	params = kzalloc(sizeof(*params), GFP_KERNEL);
	if (!params)
		return -ENOMEM;
	quic_param_init(params);
	params->tp = *quic_local_param(sk);
	params->init_scid = scid->id;
	params->present |= QUIC_PARAM_HAS_INIT_SCID;
	/* RFC 9368 Section 3: version_information (version.c), always sent
	 * (RFC 9369 Section 4); disable_compatible_version only shortens it.
	 */
	params->tp.disable_compatible_version = 0;
	quic_version_fill(sk, &params->vi);
	if (serv) {
		params->orig_dcid = quic_paths(sk)->orig_dcid;
		params->present |= QUIC_PARAM_HAS_ORIG_DCID;
		if (quic_paths(sk)->retry) {
			params->retry_scid = quic_paths(sk)->retry_dcid;
			params->present |= QUIC_PARAM_HAS_RETRY_SCID;
		}
		/* RFC 9000 Section 10.3: the token of the ID of the handshake. */
		if (scid->id.len &&
		    !quic_cid_reset_token(sock_net(sk), &scid->id, params->reset_token))
			params->tp.stateless_reset = 1;
		/* Section 9.6: the preferred address and connection ID 1. */
		pref = quic_conn_id_find(quic_source(sk), 1);
		if (quic_paths(sk)->pref_addr && pref &&
		    !quic_cid_reset_token(sock_net(sk), &pref->id, params->pref.token)) {
			params->pref.addr = *quic_path_saddr(quic_paths(sk), 1);
			params->pref.cid = pref->id;
			params->present |= QUIC_PARAM_HAS_PREF_ADDR;
		}
	}
	err = quic_param_encode(sk, serv, params, &p, &left);
	if (!err) {
		*len = p - buf;
		quic_sk(sk)->local_param_sent = 1;
	}
	kfree(params);
	return err;
}

/**
 * quic_conn_set_param_ext - take the peer's transport parameters from TLS
 * @sk: the socket, locked by the caller, in the handshake
 * @data: the peer's quic_transport_parameters extension
 * @len: its length
 *
 * Decoded and validated by param.c (RFC 9000 Sections 7.4 and 18.2), the
 * connection IDs authenticated against those the handshake packets
 * carried (Section 7.3), then put to use. A bad list closes the connection
 * with TRANSPORT_PARAMETER_ERROR.
 *
 * Return: 0, -EINVAL for parameters the peer should not have sent (the
 * connection is closed) or outside the handshake, -EALREADY when they
 * were taken already, -ENOMEM.
 */
int quic_conn_set_param_ext(struct sock *sk, const u8 *data, u32 len)
{
	struct quic_sock *qs = quic_sk(sk);
	bool serv = quic_paths(sk)->serv;
	struct quic_param_cids seen = {};
	struct quic_params *params;
	int err;

	sock_owned_by_me(sk);
	if (!quic_is_establishing(sk))
		return -EINVAL;
	if (qs->remote_param_set)
		return -EALREADY;
	params = kzalloc(sizeof(*params), GFP_KERNEL);
	if (!params)
		return -ENOMEM;

	err = quic_param_decode(sk, serv, data, len, params);
	if (!err) {
		seen.peer_scid = qs->peer_scid_set ? &qs->peer_scid : NULL;
		if (!serv) {
			seen.odcid = &quic_paths(sk)->orig_dcid;
			if (quic_paths(sk)->retry)
				seen.retry_scid = &quic_paths(sk)->retry_dcid;
		}
		err = quic_param_cid_auth(params, serv, &seen);
	}
	if (err) {
		kfree(params);
		quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_TRANSPORT_PARAM, 0);
		return -EINVAL;
	}
	/* RFC 9368 Sections 2.3 and 4; absent, it is not checked (Section 4
	 * allows that to a client that did not react to Version Negotiation).
	 */
	if (!params->tp.disable_compatible_version) {
		err = serv ? quic_version_negotiate(sk, &params->vi) :
			     quic_version_check_server(quic_config(sk)->version, &params->vi);
		if (err) {
			kfree(params);
			if (err == -EPROTO)
				quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_VERSION_NEGOTIATION,
						    0);
			return err == -EPROTO ? -EINVAL : err;
		}
	}

	*quic_remote_param(sk) = params->tp;
	qs->remote_param_set = 1;
	/* Both ends asked for it: short header packets go unprotected. */
	quic_crypto_set_plain_1rtt(quic_crypto(sk, QUIC_CRYPTO_APP),
				   params->tp.disable_1rtt_encryption &&
				   quic_local_param(sk)->disable_1rtt_encryption);
	/* RFC 9000 Section 10.3: the token of the server's handshake ID. */
	if (!serv && params->tp.stateless_reset)
		quic_conn_id_set_token(quic_dest(sk), 0, params->reset_token);
	/* Section 9.6: the ID of a preferred address is the server's ID 1,
	 * usable on any path; the address is probed once the handshake is
	 * confirmed (migrate.c), when this socket can reach its family.
	 */
	if (!serv && (params->present & QUIC_PARAM_HAS_PREF_ADDR) &&
	    !quic_conn_id_add(quic_dest(sk), &params->pref.cid, 1, params->pref.token,
			      GFP_KERNEL) &&
	    params->pref.addr.sa.sa_family && params->pref.addr.v4.sin_port) {
		quic_path_set_daddr(quic_paths(sk), 1, &params->pref.addr);
		quic_paths(sk)->pref_addr = 1;
		quic_paths(sk)->pref_state = QUIC_PATH_PREF_OFFERED;
	}
	kfree(params);
	quic_conn_apply_remote(sk);
	quic_xmit(sk);
	return 0;
}

/**
 * quic_msg_stream_done - release a stream once both its parts have ended
 * @sk: the socket, owned by the caller
 * @s: a stream of the socket; freed when it is done
 *
 * A stream whose sending part was acknowledged or reset and whose
 * receiving part was read to its end (or that has no such part) leaves
 * the table with whatever the queues still held for it. A stream the
 * peer opened gives the peer one back: MAX_STREAMS raises its limit
 * (RFC 9000 Section 4.6). Softirq or process context; GFP_ATOMIC.
 *
 * Return: true when a MAX_STREAMS frame was queued for the caller to send.
 */
bool quic_msg_stream_done(struct sock *sk, struct quic_stream *s)
{
	struct quic_stream_table *t = quic_streams(sk);
	bool uni = quic_stream_id_uni(s->id);
	struct quic_frame f = {};
	s64 id = s->id;

	sock_owned_by_me(sk);
	if (!quic_stream_is_done(s))
		return false;
	quic_outq_stream_purge(quic_outq(sk), s);
	quic_inq_stream_purge(quic_inq(sk), id);
	quic_stream_release(t, s);
	if (quic_stream_id_local(id, t->is_serv) ||
	    !quic_stream_peer_max_streams_update(t, uni, &f.limit.max))
		return false;
	f.type = uni ? QUIC_FRAME_MAX_STREAMS_UNI : QUIC_FRAME_MAX_STREAMS_BIDI;
	return !quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, GFP_ATOMIC);
}

/**
 * quic_msg_stream_reset - abandon the sending part of a stream
 * @sk: the socket, owned by the caller
 * @s: the stream
 * @errcode: application protocol error code for the peer
 *
 * RFC 9000 Sections 3.1 and 19.4: the part moves to Reset Sent, the data
 * still queued or in flight for it is forgotten (no STREAM frame is sent
 * again once RESET_STREAM is) and a RESET_STREAM with the bytes written so
 * far as its Final Size is queued; it is sent again until acknowledged.
 * Softirq or process context; GFP_ATOMIC.
 *
 * Return: 0, -EALREADY when the part was reset or fully acknowledged
 * already, -EINVAL for a stream without a sending part, -ENOMEM (the
 * stream is then left as it was).
 */
int quic_msg_stream_reset(struct sock *sk, struct quic_stream *s, u32 errcode)
{
	struct quic_frame f = { .type = QUIC_FRAME_RESET_STREAM };
	u32 old_errcode = s->send.errcode;
	u8 old_state = s->send.state;
	int err;

	sock_owned_by_me(sk);
	err = quic_stream_send_reset(s, errcode);
	if (err)
		return err;
	f.reset.id = s->id;
	f.reset.errcode = errcode;
	f.reset.final_size = s->send.bytes;
	err = quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, GFP_ATOMIC);
	if (err) {
		/* A part in Reset Sent with no RESET_STREAM queued would never
		 * send one (RFC 9000 Section 3.5): back to where it was, its
		 * data kept, for the STOP_SENDING sent again or the
		 * application's next try.
		 */
		s->send.state = old_state;
		s->send.errcode = old_errcode;
		return err;
	}
	quic_outq_stream_purge(quic_outq(sk), s);
	/* Room freed by the purge: a writer on another stream may go on. */
	sk->sk_write_space(sk);
	return 0;
}
