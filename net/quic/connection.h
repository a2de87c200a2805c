/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC connections (RFC 9000 Section 5): the socket calls that create one
 * (bind, connect, listen, accept), the state they set up (connection IDs,
 * Initial keys, packet number spaces, the stream table) and the lookups
 * that find the socket a received datagram belongs to.
 *
 * One QUIC socket is one connection. A listening socket holds the
 * requests of clients whose first Initial packet arrived and that no
 * accept() has taken yet; accept() turns one into a new socket in the
 * ESTABLISHING state, on which the server side of the handshake runs.
 *
 * Locking: the socket calls take the socket lock themselves; functions
 * that need it held say so and assert it. The lookups run under RCU from
 * the receive path (softirq) and return a socket reference.
 */

#ifndef __net_quic_connection_h__
#define __net_quic_connection_h__

#include <linux/list.h>
#include <linux/net.h>
#include <linux/skbuff.h>

#include "common.h"

struct proto_accept_arg;
struct quic_crypto_secret;
struct quic_stream;
struct sock;

/* Connection ID length this endpoint picks for itself and, as a client, for
 * the server's first Destination Connection ID (RFC 9000 Section 7.2: at
 * least 8 bytes).
 */
#define QUIC_CONN_ID_OWN_LEN		QUIC_CONN_ID_DEF_LEN

int quic_conn_init(struct sock *sk);
void quic_conn_free(struct sock *sk);

int quic_conn_bind(struct sock *sk, struct sockaddr *addr, int addr_len);
int quic_conn_connect(struct sock *sk, struct sockaddr *addr, int addr_len);
int quic_conn_listen(struct socket *sock, int backlog);
struct sock *quic_conn_accept(struct sock *sk, struct proto_accept_arg *arg);

int quic_conn_set_secret(struct sock *sk, const struct quic_crypto_secret *srt);

int quic_conn_get_param_ext(struct sock *sk, u8 *buf, u32 *len);
int quic_conn_set_param_ext(struct sock *sk, const u8 *data, u32 len);
void quic_conn_apply_remote(struct sock *sk);
void quic_conn_discard_level(struct sock *sk, u8 level);
void quic_conn_confirmed(struct sock *sk);
void quic_conn_idle_restart(struct sock *sk);
void quic_conn_idle_sent(struct sock *sk);
bool quic_conn_keepalive(struct sock *sk);
void quic_conn_set_keepalive(struct sock *sk, int val);
int quic_conn_key_update(struct sock *sk);
void quic_conn_key_updated(struct sock *sk, u8 phase);
void quic_conn_key_check_limit(struct sock *sk);

void quic_conn_ptb(struct sock *sk, u32 mtu, const u8 *quote, u32 len);

bool quic_msg_stream_done(struct sock *sk, struct quic_stream *s);
int quic_msg_stream_reset(struct sock *sk, struct quic_stream *s, u32 errcode);

#endif /* __net_quic_connection_h__ */
