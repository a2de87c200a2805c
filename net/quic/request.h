/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The accept queue of a QUIC listener (request.c).
 *
 * Locking: the queue is changed with the listener's socket lock held and
 * read under RCU by ALPN routing (alpn.c); entries are freed after a grace
 * period.
 */

#ifndef __net_quic_request_h__
#define __net_quic_request_h__

#include <linux/list.h>
#include <linux/skbuff.h>

#include "common.h"

struct sock;

/* Datagrams of one waiting client kept for its new socket. */
#define QUIC_REQUEST_SKBS		4

/**
 * struct quic_request - a client waiting in a listener's accept queue
 * @list: entry in the listener's queue
 * @saddr: our address the client's Initial was sent to
 * @daddr: the client's address
 * @dcid: Destination Connection ID of the client's first Initial: it keys
 *	the Initial packets (RFC 9001 Section 5.2) and comes back as our
 *	original_destination_connection_id (RFC 9000 Section 7.3)
 * @scid: the client's Source Connection ID, our Destination Connection ID
 * @odcid: after a Retry: the client's first Destination Connection ID, from
 *	the token (then @dcid is the Retry's Source Connection ID)
 * @version: QUIC version of the client's Initial
 * @retry: the Initial carried a valid Retry token
 * @validated: the Initial carried a valid token: the address is validated
 * @skbs: the client's datagrams, processed by the new socket after accept()
 * @rcu: freed after a grace period: ALPN routing looks for a client in the
 *	queues of all listeners sharing a port (alpn.c)
 */
struct quic_request {
	struct list_head list;
	union quic_addr saddr;
	union quic_addr daddr;
	struct quic_conn_id dcid;
	struct quic_conn_id scid;
	struct quic_conn_id odcid;
	u32 version;
	u8 retry:1;
	u8 validated:1;
	struct sk_buff_head skbs;
	struct rcu_head rcu;
};

int quic_conn_request_append(struct sock *sk, const struct quic_request *info,
			     struct sk_buff *skb);
int quic_conn_request_add(struct sock *sk, const struct quic_request *info,
			  struct sk_buff *skb);
bool quic_conn_request_queued(struct sock *sk, const struct quic_conn_id *dcid,
			      const union quic_addr *daddr);
void quic_conn_requests_purge(struct sock *sk);
void quic_conn_request_free(struct quic_request *req);

#endif /* __net_quic_request_h__ */
