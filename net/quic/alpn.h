/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ALPN routing: listeners sharing one address and port, each serving its
 * own application protocols, and the choice among them for a new client
 * by the ALPN extension of its ClientHello (alpn.c).
 */

#ifndef __net_quic_alpn_h__
#define __net_quic_alpn_h__

#include <linux/rcupdate.h>
#include <linux/types.h>

#include "common.h"

struct net;
struct sock;
struct sk_buff;
struct crypto_aes_ctx;
struct quic_crypto_keys;
struct quic_hash_head;

/**
 * struct quic_listen_alpn - the protocols a listener routes by
 * @rcu: freed after a grace period: the receive path reads it under RCU
 * @len: length of @data
 * @data: the listener's QUIC_SOCKOPT_ALPN list as it was at listen(), in
 *	the wire form of RFC 7301 (length-prefixed names)
 */
struct quic_listen_alpn {
	struct rcu_head rcu;
	u32 len;
	u8 data[];
};

/**
 * struct quic_alpn_peek - what a client's first Initial offers
 * @buf: the opened copy of the packet and the CRYPTO data from offset 0
 * @list: the ALPN extension's protocol name list, in @buf
 * @len: length of @list
 */
struct quic_alpn_peek {
	u8 *buf;
	const u8 *list;
	u32 len;
};

int quic_alpn_listen_start(struct sock *sk);
void quic_alpn_listen_stop(struct sock *sk);
bool quic_alpn_listen_shares(struct sock *sk, struct sock *other);

int quic_alpn_peek(const u8 *data, u32 len, struct quic_alpn_peek *peek);
int quic_alpn_peek_many(const struct quic_data *dgrams, u32 n, struct quic_alpn_peek *peek);
void quic_alpn_peek_free(struct quic_alpn_peek *peek);
struct sock *quic_alpn_route(struct net *net, struct quic_hash_head *head,
			     const union quic_addr *local, struct sock *first,
			     struct sk_buff *skb, struct sk_buff **held);
void quic_alpn_held_purge(struct net *net);
int quic_alpn_gcm_open_ghash(struct crypto_aes_ctx *aes, const u8 *key, const u8 *iv,
			     u8 *text, u32 len, const u8 *ad, u32 ad_len, const u8 *tag);

#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
int quic_alpn_initial_keys(u32 version, const u8 *dcid, u32 dcid_len,
			   struct quic_crypto_keys *keys);
int quic_alpn_crypto_prefix(const u8 *frames, u32 len, u8 *out, u32 cap, u32 *have);
int quic_alpn_client_hello(const u8 *msg, u32 len, const u8 **list, u32 *list_len);
#endif

#endif /* __net_quic_alpn_h__ */
