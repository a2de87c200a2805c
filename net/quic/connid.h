/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC connection ID sets (RFC 9000 Sections 5.1, 10.3, 19.15 and 19.16).
 *
 * A connection has two sets:
 * - the source set: IDs we issued, which the peer puts in the Destination
 *   Connection ID of packets to us. Each entry is also in the global
 *   QUIC_HT_CONNECTION_ID table so that the receive path can find the
 *   socket of a packet under RCU (quic_conn_id_lookup());
 * - the destination set: IDs the peer issued, one of which (the active
 *   one) we send to, each with its stateless reset token.
 *
 * Sets are changed under their owner's lock (the socket lock); the global
 * table's buckets are changed under their spinlock and read under RCU.
 *
 * Errors caused by the peer are negative errnos that stand for one
 * transport error code each (quic_conn_id_transport_error()):
 *
 *   -EDQUOT    CONNECTION_ID_LIMIT_ERROR  more IDs than active_connection_id_limit
 *   -EPROTO    PROTOCOL_VIOLATION         retiring an ID never issued, an ID or
 *                                          token reused, IDs with a zero-length ID
 *   -EBADMSG   FRAME_ENCODING_ERROR       Retire Prior To above the Sequence
 *                                          Number, or an ID length not 1 to 20
 *   -ENOMEM, -EINVAL, -EEXIST, -EADDRINUSE, -ENOENT: INTERNAL_ERROR (local)
 */

#ifndef __net_quic_connid_h__
#define __net_quic_connid_h__

#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <linux/quic.h>
#include <net/net_namespace.h>

#include "common.h"

/* RFC 9000 Section 19.15: Stateless Reset Token (128). */
#define QUIC_CONN_ID_TOKEN_LEN		16

struct sock;

/**
 * struct quic_conn_id_entry - what source and destination IDs have in common
 * @list: entry in the set, in ascending @number order
 * @id: the connection ID
 * @number: its sequence number (RFC 9000 Section 5.1.1)
 */
struct quic_conn_id_entry {
	struct list_head list;
	struct quic_conn_id id;
	u64 number;
};

/**
 * struct quic_source_conn_id - a connection ID we issued
 * @common: ID and sequence number; must stay first
 * @node: entry in the global QUIC_HT_CONNECTION_ID table (unhashed for
 *	zero-length IDs)
 * @rcu: deferred free, as lookups may still hold the entry
 * @net: network namespace the ID is valid in
 * @sk: the socket owning the connection (only stored, never dereferenced here)
 */
struct quic_source_conn_id {
	struct quic_conn_id_entry common;
	struct hlist_node node;
	struct rcu_head rcu;
	possible_net_t net;
	struct sock *sk;
};

/**
 * struct quic_dest_conn_id - a connection ID the peer issued
 * @common: ID and sequence number; must stay first
 * @token: its stateless reset token (RFC 9000 Section 10.3)
 * @has_token: @token is valid
 * @used: packets were sent to it (it was the active ID, or a probe used it)
 */
struct quic_dest_conn_id {
	struct quic_conn_id_entry common;
	u8 token[QUIC_CONN_ID_TOKEN_LEN];
	u8 has_token:1;
	u8 used:1;
};

/**
 * struct quic_conn_id_set - the source or the destination IDs of a connection
 * @head: the entries, ascending sequence numbers
 * @active: the ID in use (NULL only while the set is empty)
 * @net: network namespace (source sets)
 * @sk: owning socket, copied into each source entry
 * @next_number: one more than the largest sequence number added
 * @retire_prior_to: largest Retire Prior To sent (source) or received (destination)
 * @count: number of entries
 * @max_count: active_connection_id_limit that applies to the set
 * @source: this is a source set
 */
struct quic_conn_id_set {
	struct list_head head;
	struct quic_conn_id_entry *active;
	struct net *net;
	struct sock *sk;
	u64 next_number;
	u64 retire_prior_to;
	u32 count;
	u32 max_count;
	u8 source:1;
};

static inline struct quic_conn_id_entry *quic_conn_id_active(const struct quic_conn_id_set *set)
{
	return set->active;
}

static inline struct quic_dest_conn_id *quic_dest_conn_id(struct quic_conn_id_entry *e)
{
	return container_of(e, struct quic_dest_conn_id, common);
}

static inline struct quic_source_conn_id *quic_source_conn_id(struct quic_conn_id_entry *e)
{
	return container_of(e, struct quic_source_conn_id, common);
}

/* The socket of a source ID found by quic_conn_id_lookup(). */
static inline struct sock *quic_conn_id_sk(const struct quic_source_conn_id *s)
{
	return READ_ONCE(s->sk);
}

void quic_conn_id_set_init(struct quic_conn_id_set *set, bool source, struct net *net,
			   struct sock *sk);
void quic_conn_id_set_free(struct quic_conn_id_set *set);
int quic_conn_id_set_param(struct quic_conn_id_set *set, const struct quic_transport_param *p);
void quic_conn_id_get_param(const struct quic_conn_id_set *set, struct quic_transport_param *p);
int quic_conn_id_generate(struct quic_conn_id *id, u32 len);

int quic_conn_id_add(struct quic_conn_id_set *set, const struct quic_conn_id *id, u64 number,
		     const u8 *token, gfp_t gfp);
int quic_conn_id_remove(struct quic_conn_id_set *set, u64 number);
int quic_conn_id_retire_prior(struct quic_conn_id_set *set, u64 prior_to);
int quic_conn_id_recv_new(struct quic_conn_id_set *set, u64 number, u64 prior_to,
			  const struct quic_conn_id *id, const u8 *token, gfp_t gfp);
int quic_conn_id_recv_retire(struct quic_conn_id_set *set, u64 number);

struct quic_conn_id_entry *quic_conn_id_find(const struct quic_conn_id_set *set, u64 number);
int quic_conn_id_set_active(struct quic_conn_id_set *set, u64 number);
int quic_conn_id_set_token(struct quic_conn_id_set *set, u64 number, const u8 *token);
bool quic_conn_id_known(const struct quic_conn_id_set *set, const u8 *data, u32 len);
void quic_conn_id_mark_used(struct quic_conn_id_set *set, struct quic_conn_id_entry *e);
bool quic_conn_id_reset_matches(const struct quic_conn_id_set *set, const u8 *token);
bool quic_conn_id_token_exists(const struct quic_conn_id_set *set, const u8 *token);

struct quic_source_conn_id *quic_conn_id_lookup(const struct net *net, const u8 *data, u32 len);

u32 quic_conn_id_transport_error(int err);

#endif /* __net_quic_connid_h__ */
