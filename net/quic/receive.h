/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC packet reception: from a UDP datagram to the frames it carries
 * (RFC 9000 Sections 5.2, 12, 13 and 17, RFC 9001 Section 5).
 */

#ifndef __net_quic_receive_h__
#define __net_quic_receive_h__

#include <linux/skbuff.h>
#include <linux/types.h>

#include "common.h"
#include "packet.h"

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
 * @version: the invariant header of its first packet (RFC 8999), parsed
 *	once by quic_rcv_parse(): long header: the version
 * @dcid_len: the Destination Connection ID's length (short header: ours)
 * @scid_len: long header: the Source Connection ID's length
 * @inv_ok: the invariant header was whole
 * @inv_long: it is a long header
 */
struct quic_skb_cb {
	union quic_addr peer;
	u8 ecn;
	u8 backlog;
	u8 alt_local;
	u8 held;
	u32 dgram_len;
	u32 version;
	u8 dcid_len;
	u8 scid_len;
	u8 inv_ok:1;
	u8 inv_long:1;
};

#define QUIC_SKB_CB(skb)	((struct quic_skb_cb *)&((skb)->cb[0]))
static_assert(sizeof(struct quic_skb_cb) <= sizeof_field(struct sk_buff, cb));

/**
 * quic_skb_invariant - the invariant header quic_rcv_parse() found
 * @skb: a received datagram, skb->data still at its first packet
 * @inv: the fields, pointing into skb->data
 *
 * The header is parsed once at the entry point; the lookup, ALPN routing
 * and a listener's checks read the result from here.
 *
 * Return: 0, or -EINVAL when the datagram ends before its connection IDs.
 */
static inline int quic_skb_invariant(const struct sk_buff *skb,
				     struct quic_packet_invariant *inv)
{
	const struct quic_skb_cb *cb = QUIC_SKB_CB(skb);

	memset(inv, 0, sizeof(*inv));
	if (!cb->inv_ok)
		return -EINVAL;
	inv->long_header = cb->inv_long;
	inv->dcid_len = cb->dcid_len;
	if (!cb->inv_long) {
		inv->dcid = skb->data + 1;
		inv->rest = inv->dcid + cb->dcid_len;
	} else {
		inv->version = cb->version;
		inv->dcid = skb->data + 6;
		inv->scid = inv->dcid + cb->dcid_len + 1;
		inv->scid_len = cb->scid_len;
		inv->rest = inv->scid + cb->scid_len;
	}
	inv->rest_len = skb->len - (inv->rest - skb->data);
	return 0;
}

void quic_rcv_datagram(struct sock *sk, struct sk_buff *skb);
void quic_rcv_pending_retry(struct sock *sk);

#endif /* __net_quic_receive_h__ */
