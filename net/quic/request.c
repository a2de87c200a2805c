// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The accept queue of a QUIC listener: clients whose first Initial packet
 * arrived and that no accept() has taken yet, each with the datagrams it
 * sent meanwhile. It plays the part net/core/request_sock.c plays for TCP:
 * the receive path adds to it (softirq, listener lock held), accept()
 * takes from it, ALPN routing asks whether a client already waits in it.
 */

#include <net/sock.h>

#include "request.h"
#include "socket.h"

/**
 * quic_conn_request_free - free a client taken out of an accept queue
 * @req: the request, no longer on any queue
 *
 * Its datagrams go with it; the memory itself after a grace period, as
 * ALPN routing may still be reading the queue it was on.
 */
void quic_conn_request_free(struct quic_request *req)
{
	__skb_queue_purge(&req->skbs);
	kfree_rcu(req, rcu);
}

/**
 * quic_conn_requests_purge - empty a listener's accept queue
 * @sk: the listener, being destroyed or leaving the LISTENING state
 *
 * The waiting clients are forgotten with the datagrams they sent. Called
 * with the listener owned or no longer reachable by the receive path.
 */
void quic_conn_requests_purge(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);
	struct quic_request *req, *tmp;

	list_for_each_entry_safe(req, tmp, &qs->requests, list) {
		list_del_rcu(&req->list);
		quic_conn_request_free(req);
	}
	qs->request_count = 0;
}

/* The client waiting for accept() that @info's datagram comes from. */
static struct quic_request *quic_conn_request_find(struct sock *sk,
						   const struct quic_request *info)
{
	struct quic_request *req;

	list_for_each_entry(req, &quic_sk(sk)->requests, list)
		if (quic_conn_id_equal(&req->dcid, &info->dcid) &&
		    !memcmp(&req->daddr, &info->daddr, sizeof(info->daddr)))
			return req;
	return NULL;
}

/**
 * quic_conn_request_add - queue a new client on a listener
 * @sk: the listening socket, owned by the caller (softirq with the socket
 *	spinlock and not owned by a user, or its backlog processing)
 * @info: the client's addresses, connection IDs and version
 * @skb: the datagram that carried its Initial, or NULL; on success it is
 *	kept and processed by the new socket after accept()
 *
 * A client already queued (same address and Destination Connection ID, a
 * retransmitted Initial) is not queued twice: its datagram joins the
 * request, up to %QUIC_REQUEST_SKBS of them.
 *
 * Return: 0; -EEXIST for a client already queued whose datagram was not
 * kept; -ENOBUFS when the backlog is full; -ENOMEM; -EINVAL when @sk does
 * not listen. On error @skb still belongs to the caller.
 */
int quic_conn_request_add(struct sock *sk, const struct quic_request *info,
			  struct sk_buff *skb)
{
	struct quic_sock *qs = quic_sk(sk);
	struct quic_request *req;

	if (!quic_is_listen(sk))
		return -EINVAL;
	req = quic_conn_request_find(sk, info);
	if (req) {
		if (!skb || skb_queue_len(&req->skbs) >= QUIC_REQUEST_SKBS)
			return -EEXIST;
		__skb_queue_tail(&req->skbs, skb);
		return 0;
	}
	if (qs->request_count >= READ_ONCE(sk->sk_max_ack_backlog))
		return -ENOBUFS;

	req = kmemdup(info, sizeof(*info), GFP_ATOMIC);
	if (!req)
		return -ENOMEM;
	__skb_queue_head_init(&req->skbs);
	if (skb)
		__skb_queue_tail(&req->skbs, skb);
	list_add_tail_rcu(&req->list, &qs->requests);
	qs->request_count++;
	sk->sk_data_ready(sk);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_request_add);

/**
 * quic_conn_request_queued - tell whether a client waits in a listener's queue
 * @sk: a listener, not locked: the caller holds rcu_read_lock()
 * @dcid: Destination Connection ID of the client's first Initial
 * @daddr: the client's address
 *
 * The queue changes under the listener's lock; entries are freed after a
 * grace period, so the walk is safe, and a client added or taken meanwhile
 * may be seen either way.
 *
 * Return: true when a client with that ID and address is queued.
 */
bool quic_conn_request_queued(struct sock *sk, const struct quic_conn_id *dcid,
			      const union quic_addr *daddr)
{
	struct quic_request *req;

	list_for_each_entry_rcu(req, &quic_sk(sk)->requests, list)
		if (quic_conn_id_equal(&req->dcid, dcid) &&
		    !memcmp(&req->daddr, daddr, sizeof(*daddr)))
			return true;
	return false;
}

/**
 * quic_conn_request_append - queue a later datagram of a client waiting for accept()
 * @sk: the listener, owned by the caller
 * @info: its Destination Connection ID and addresses
 * @skb: the datagram (0-RTT packets that followed the first Initial)
 *
 * Return: 0; -ENOENT when no such client waits, -EEXIST when its queue is
 * full. On error @skb still belongs to the caller.
 */
int quic_conn_request_append(struct sock *sk, const struct quic_request *info,
			     struct sk_buff *skb)
{
	struct quic_request *req = quic_conn_request_find(sk, info);

	if (!req)
		return -ENOENT;
	if (skb_queue_len(&req->skbs) >= QUIC_REQUEST_SKBS)
		return -EEXIST;
	__skb_queue_tail(&req->skbs, skb);
	return 0;
}
