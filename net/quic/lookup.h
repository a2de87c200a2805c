/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Socket lookup tables and socket states (lookup.c).
 */

#ifndef __net_quic_lookup_h__
#define __net_quic_lookup_h__

#include <linux/skbuff.h>

#include "common.h"

struct net;
struct sock;

void quic_set_state(struct sock *sk, int state);
int quic_conn_hash(struct sock *sk);
void quic_conn_unhash(struct sock *sk);
struct sock *quic_conn_listen_lookup(struct net *net, const union quic_addr *local,
				     struct sk_buff *skb, struct sk_buff **held);
struct sock *quic_conn_addr_lookup(struct net *net, const union quic_addr *local,
				   const union quic_addr *peer);

#endif /* __net_quic_lookup_h__ */
