/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC packet reception: from a UDP datagram to the frames it carries
 * (RFC 9000 Sections 5.2, 12, 13 and 17, RFC 9001 Section 5).
 */

#ifndef __net_quic_receive_h__
#define __net_quic_receive_h__

#include <linux/types.h>

#include "common.h"

struct sk_buff;
struct sock;

/* Packets of a level whose keys are not installed yet, kept for when they
 * are (RFC 9001 Section 5.7 allows buffering instead of dropping).
 */
#define QUIC_RCV_PENDING_MAX	8

/**
 * struct quic_skb_cb - what the receive path notes in a datagram's skb->cb
 * @peer: the address it came from
 * @ecn: ECN codepoint of its IP header
 * @backlog: it waited in the socket backlog (counted as decrypted from it)
 * @alt_local: it was sent to the local address of the socket's path 1 (a
 *	server's preferred address), not to the active one
 * @held: a packet kept until its keys came, processed again: its bytes
 *	were counted when its datagram arrived
 * @dgram_len: the length of its UDP payload, every coalesced packet
 *	included (a packet held for its keys keeps it, RFC 9000 Section 14.1)
 */
struct quic_skb_cb {
	union quic_addr peer;
	u8 ecn;
	u8 backlog;
	u8 alt_local;
	u8 held;
	u32 dgram_len;
};

#define QUIC_SKB_CB(skb)	((struct quic_skb_cb *)&((skb)->cb[0]))
static_assert(sizeof(struct quic_skb_cb) <= sizeof_field(struct sk_buff, cb));

void quic_rcv_datagram(struct sock *sk, struct sk_buff *skb);
void quic_rcv_pending_retry(struct sock *sk);

#endif /* __net_quic_receive_h__ */
