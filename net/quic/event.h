/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC notifications (QUIC_SOCKOPT_EVENT, MSG_NOTIFICATION).
 *
 * An application enables each event type with QUIC_SOCKOPT_EVENT; the
 * connection then queues a notification whenever that event happens, and
 * recvmsg() returns it with MSG_NOTIFICATION set, ahead of data: one byte
 * with the QUIC_EVENT_* type, followed by that event's member of union
 * quic_event (see quic_inq_event_recv()).
 *
 * Every function here is called with the socket owned (lock_sock() or the
 * spinlock in softirq); none sleeps. A disabled event costs one bit test.
 */

#ifndef __net_quic_event_h__
#define __net_quic_event_h__

#include <linux/types.h>

struct sock;
struct quic_stream;
struct quic_frame;

/**
 * struct quic_event_stream_snap - the states of a stream before a change
 * @send: sending part state (QUIC_STREAM_SEND_STATE_* or none)
 * @recv: receiving part state (QUIC_STREAM_RECV_STATE_* or none)
 * @recv_empty: the receiving part is in Recv and no stream data arrived yet
 */
struct quic_event_stream_snap {
	u8 send;
	u8 recv;
	bool recv_empty;
};

void quic_event_stream_snap(const struct quic_stream *s, struct quic_event_stream_snap *snap);
void quic_event_stream_part(struct sock *sk, const struct quic_stream *s, bool send);
void quic_event_stream_changed(struct sock *sk, const struct quic_stream *s,
			       const struct quic_event_stream_snap *snap);
void quic_event_stream_max_data(struct sock *sk, s64 id, u64 max_data);
void quic_event_max_streams(struct sock *sk, bool uni, u64 max_streams);
void quic_event_close(struct sock *sk, const struct quic_frame *f);
void quic_event_key_update(struct sock *sk, u8 phase);
void quic_event_new_token(struct sock *sk, const u8 *token, u32 len);
void quic_event_new_session_ticket(struct sock *sk, const u8 *msg, u32 len);
void quic_event_connection_id(struct sock *sk, bool dest, u32 active, u32 prior_to);
void quic_event_migration(struct sock *sk, u8 local);

#endif /* __net_quic_event_h__ */
