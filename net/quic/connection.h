/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The core of one QUIC connection (connection.c): the state a socket sets
 * up for it (connection IDs, Initial keys, packet number spaces, the
 * stream table), the handshake's keys and parameters, idle and keys.
 *
 * One QUIC socket is one connection. The socket calls that make one are
 * in connect.h; the lookup tables in lookup.h; the accept queue in
 * request.h.
 *
 * Locking: functions that need the socket lock held say so and assert it.
 */

#ifndef __net_quic_connection_h__
#define __net_quic_connection_h__

#include <linux/list.h>
#include <linux/net.h>
#include <linux/skbuff.h>

#include "common.h"

struct proto_accept_arg;
struct quic_crypto_secret;
struct quic_inq_rinfo;
struct quic_stream;
struct quic_udp_ops;
struct sock;

/* Connection ID length this endpoint picks for itself and, as a client, for
 * the server's first Destination Connection ID (RFC 9000 Section 7.2: at
 * least 8 bytes; we use 16, see QUIC_CONN_ID_DEF_LEN).
 */
#define QUIC_CONN_ID_OWN_LEN		QUIC_CONN_ID_DEF_LEN

/* Bytes of a quoted QUIC packet that hold its Destination Connection ID. */
#define QUIC_CONN_PTB_QUOTE	(6 + QUIC_CONN_ID_MAX_LEN)

int quic_conn_init(struct sock *sk, const struct quic_udp_ops *udp_ops);
void quic_conn_free(struct sock *sk);

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
void quic_conn_flush(struct sock *sk);

void quic_conn_ptb(struct sock *sk, u32 mtu, const u8 *quote, u32 len);
int quic_conn_issue_token(struct sock *sk);

bool quic_msg_read_credit(struct sock *sk, const struct quic_inq_rinfo *ri, gfp_t gfp);
bool quic_msg_discard(struct sock *sk, gfp_t gfp);
bool quic_msg_stream_done(struct sock *sk, struct quic_stream *s);
int quic_msg_stream_reset(struct sock *sk, struct quic_stream *s, u32 errcode);

#endif /* __net_quic_connection_h__ */
