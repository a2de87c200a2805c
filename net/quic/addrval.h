/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Address validation: Retry packets and tokens (addrval.c).
 */

#ifndef __net_quic_addrval_h__
#define __net_quic_addrval_h__

#include <linux/types.h>

struct sock;
struct sk_buff;
struct work_struct;
struct quic_request;
struct quic_packet_hdr;
union quic_addr;

int quic_addrval_init(void);
void quic_addrval_exit(void);
int quic_addrval_net_init(struct net *net);
void quic_addrval_net_exit(struct net *net);

int quic_addrval_check(struct net *net, const union quic_addr *addr, const u8 *token, u32 len,
		       struct quic_request *req);
int quic_addrval_send_retry(struct sock *sk, const struct quic_request *req);
int quic_addrval_new_token(struct sock *sk);

bool quic_addrval_retry_rcv(struct sock *sk, struct sk_buff *skb,
			    const struct quic_packet_hdr *hdr);
void quic_addrval_retry_work(struct work_struct *work);

#endif /* __net_quic_addrval_h__ */
