// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tables a received datagram's socket is found in, and the socket
 * states that decide which table a socket is in.
 *
 * Listeners are hashed by local port, connected sockets by address pair;
 * the receive path tries connection IDs first (connid.c). Changes take
 * the bucket's lock with bottom halves off; lookups run under RCU from
 * the receive path and return a socket reference.
 */

#include <net/inet_sock.h>
#include <net/sock.h>

#include "alpn.h"
#include "lookup.h"
#include "socket.h"

/**
 * quic_set_state - move a socket to a new state, keeping the MIBs right
 * @sk: the socket (locked by the caller)
 * @state: one of enum quic_state
 */
void quic_set_state(struct sock *sk, int state)
{
	struct net *net = sock_net(sk);

	if (sk->sk_state == state)
		return;

	if (state == QUIC_SS_ESTABLISHED)
		QUIC_INC_STATS(net, QUIC_MIB_CONN_CURRENTESTABS);
	else if (quic_is_established(sk))
		QUIC_DEC_STATS(net, QUIC_MIB_CONN_CURRENTESTABS);

	if (state == QUIC_SS_CLOSED)
		sk->sk_prot->unhash(sk);

	inet_sk_set_state(sk, state);
	sk->sk_state_change(sk);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_set_state);

/* A listener already serves this address and port, and may not share it
 * (alpn.c). Called under the bucket lock.
 */
static bool quic_conn_listen_taken(struct sock *sk, struct quic_hash_head *head)
{
	union quic_addr *a = quic_path_saddr(quic_paths(sk), 0);
	struct net *net = sock_net(sk);
	struct sock *other;

	sk_for_each(other, &head->head) {
		if (other != sk && net_eq(sock_net(other), net) &&
		    quic_cmp_sk_addr(other, quic_path_saddr(quic_paths(other), 0), a) &&
		    !quic_alpn_listen_shares(sk, other))
			return true;
	}
	return false;
}

/**
 * quic_conn_hash - enter a socket in the lookup table of its state
 * @sk: a listening or connecting socket, locked by the caller
 *
 * Listeners are found by local port, connected sockets by address pair
 * (the receive path tries connection IDs first).
 *
 * Return: 0, or -EADDRINUSE for a listener whose address is taken.
 */
int quic_conn_hash(struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);
	struct net *net = sock_net(sk);
	struct quic_hash_head *head;

	sock_owned_by_me(sk);
	if (quic_is_listen(sk))
		head = quic_listen_sock_head(net, ntohs(quic_path_saddr(paths, 0)->v4.sin_port));
	else
		head = quic_sock_head(net, quic_path_saddr(paths, 0), quic_path_daddr(paths, 0));

	spin_lock_bh(&head->s_lock);
	/* Checked and added under one lock: two listen() calls cannot both
	 * pass the check.
	 */
	if (quic_is_listen(sk) && quic_conn_listen_taken(sk, head)) {
		spin_unlock_bh(&head->s_lock);
		return -EADDRINUSE;
	}
	sk_add_node_rcu(sk, &head->head);
	spin_unlock_bh(&head->s_lock);
	return 0;
}

/**
 * quic_conn_unhash - remove a socket from its lookup table
 * @sk: the socket, still in the state it was hashed in
 *
 * Readers under RCU may still see the socket: it is freed after a grace
 * period (SOCK_RCU_FREE) and they take their reference with
 * refcount_inc_not_zero().
 */
void quic_conn_unhash(struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);
	struct net *net = sock_net(sk);
	struct quic_hash_head *head;

	if (sk_unhashed(sk))
		return;
	if (quic_is_listen(sk))
		head = quic_listen_sock_head(net, ntohs(quic_path_saddr(paths, 0)->v4.sin_port));
	else
		head = quic_sock_head(net, quic_path_saddr(paths, 0), quic_path_daddr(paths, 0));

	spin_lock_bh(&head->s_lock);
	sk_del_node_init_rcu(sk);
	spin_unlock_bh(&head->s_lock);
	quic_alpn_listen_stop(sk);
}

/**
 * quic_conn_listen_lookup - find the listener for a datagram to @local
 * @net: namespace of the receiving tunnel
 * @local: the address and port the datagram was sent to
 * @skb: the datagram (skb->data at its first QUIC packet), or NULL
 * @held: for the receive path: where a datagram held back for ALPN routing
 *	is returned, to be processed before @skb; or NULL
 *
 * Listeners bound to that very address are preferred over wildcard ones.
 * When several share it, @skb's ClientHello chooses (alpn.c); without
 * @skb the first one is taken. Called under rcu_read_lock() (receive path).
 *
 * Return: the listening socket with a reference taken, NULL, or
 * ERR_PTR(-EINPROGRESS) when @skb was held back (see quic_alpn_route()).
 */
struct sock *quic_conn_listen_lookup(struct net *net, const union quic_addr *local,
				     struct sk_buff *skb, struct sk_buff **held)
{
	bool specific = false, shared = false;
	struct quic_hash_head *head;
	struct sock *sk, *best = NULL;

	head = quic_listen_sock_head(net, ntohs(local->v4.sin_port));
	sk_for_each_rcu(sk, &head->head) {
		union quic_addr *a = quic_path_saddr(quic_paths(sk), 0);

		if (!net_eq(sock_net(sk), net) || !quic_cmp_sk_addr(sk, a, local))
			continue;
		if (!best || (!quic_addr_is_any(a) && !specific)) {
			best = sk;
			specific = !quic_addr_is_any(a);
			shared = false;
		} else if (quic_addr_is_any(a) != specific) {
			shared = true;
		}
	}
	if (best && shared && skb) {
		best = quic_alpn_route(net, head, local, best, skb, held);
		if (IS_ERR(best))
			return best;
	}
	if (best && !refcount_inc_not_zero(&best->sk_refcnt))
		best = NULL;
	return best;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_listen_lookup);

/**
 * quic_conn_addr_lookup - find a connected socket by its address pair
 * @net: namespace of the receiving tunnel
 * @local: the address the datagram was sent to
 * @peer: the address it came from
 *
 * For packets whose Destination Connection ID is empty or unknown.
 * Called under rcu_read_lock() (receive path).
 *
 * Return: the socket with a reference taken, or NULL.
 */
struct sock *quic_conn_addr_lookup(struct net *net, const union quic_addr *local,
				   const union quic_addr *peer)
{
	struct quic_hash_head *head = quic_sock_head(net, local, peer);
	struct sock *sk;

	sk_for_each_rcu(sk, &head->head) {
		struct quic_path_group *paths = quic_paths(sk);

		if (!net_eq(sock_net(sk), net) ||
		    !quic_cmp_sk_addr(sk, quic_path_saddr(paths, 0), local) ||
		    !quic_cmp_sk_addr(sk, quic_path_daddr(paths, 0), peer))
			continue;
		if (refcount_inc_not_zero(&sk->sk_refcnt))
			return sk;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_addr_lookup);
