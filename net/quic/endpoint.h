/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QUIC endpoint (endpoint.c): datagrams before a connection is found,
 * listeners' answers, the UDP tunnels' callbacks.
 */

#ifndef __net_quic_endpoint_h__
#define __net_quic_endpoint_h__

struct quic_udp_ops;
struct sk_buff;
struct sock;

extern const struct quic_udp_ops quic_conn_udp_ops;

int quic_rcv(struct sock *udp_sk, struct sk_buff *skb);
int quic_rcv_backlog(struct sock *sk, struct sk_buff *skb);
void quic_rcv_parse(struct sk_buff *skb);

#endif /* __net_quic_endpoint_h__ */
