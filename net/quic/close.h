/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC connection termination (RFC 9000 Section 10).
 */

#ifndef __net_quic_close_h__
#define __net_quic_close_h__

#include <linux/sockptr.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct sk_buff;
struct sock;
struct quic_frame;

/* Longest reason phrase kept, sent or reported (bytes, NUL excluded). */
#define QUIC_CLOSE_PHRASE_MAX_LEN	80
/* Longest closing or draining period, microseconds (close.c). */
#define QUIC_CLOSE_PERIOD_MAX		(60ULL * USEC_PER_SEC)

/**
 * struct quic_close_info - one CONNECTION_CLOSE, to send or as received
 * @errcode: transport or application error code
 * @frame: transport errors: the frame type that caused the error, or 0
 * @app: @errcode is an application error (frame type 0x1d)
 * @set: the application chose this close (QUIC_SOCKOPT_CONNECTION_CLOSE),
 *	or a CONNECTION_CLOSE ended the connection
 * @phrase_len: bytes of @phrase
 * @phrase: reason phrase, NUL-terminated; NULL when empty
 */
struct quic_close_info {
	u64 errcode;
	u8 frame;
	u8 app:1;
	u8 set:1;
	u32 phrase_len;
	u8 *phrase;
};

/**
 * struct quic_close - how a connection ends, and its closing or draining period
 * @local: what close() and shutdown() send
 * @seen: the CONNECTION_CLOSE that ended the connection, ours or the peer's
 * @skb: closing state: our closing datagram, repeated to late packets
 * @rcvd: closing state: bytes received
 * @sent: closing state: bytes of repeated closing datagrams sent
 * @pkts: closing state: packets received
 * @err_code: the latched connection error's transport error code
 * @err_frame: the frame type that caused it, or 0
 * @latched: a connection error waits for quic_close_flush()
 * @period: the closing or draining period runs (RFC 9000 Section 10.2)
 * @lingering: the application closed the socket during the period
 * @work: releases a lingering socket once the period ends
 */
struct quic_close {
	struct quic_close_info local;
	struct quic_close_info seen;
	struct sk_buff *skb;
	u64 rcvd;
	u64 sent;
	u32 pkts;
	u32 err_code;
	u8 err_frame;
	u8 latched:1;
	u8 period:1;
	u8 lingering:1;
	struct work_struct work;
};

void quic_close_init(struct sock *sk);
void quic_close_free(struct sock *sk);
int quic_close_set(struct sock *sk, sockptr_t optval, unsigned int optlen);
int quic_close_get(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen);

void quic_close_immediate(struct sock *sk, const struct quic_close_info *info, int err);
void quic_close_local(struct sock *sk);
void quic_close_received(struct sock *sk, const struct quic_frame *f);
int quic_close_repeat(struct sock *sk);
void quic_close_rcv(struct sock *sk, struct sk_buff *skb);
void quic_close_period_end(struct sock *sk);
u64 quic_close_period(struct sock *sk);
bool quic_close_linger(struct sock *sk);
void quic_conn_closed(struct sock *sk, int err);
void quic_rcv_conn_error(struct sock *sk, u32 errcode, u8 frame_type);
void quic_close_flush(struct sock *sk);

int quic_close_wq_init(void);
void quic_close_wq_destroy(void);

#endif /* __net_quic_close_h__ */
