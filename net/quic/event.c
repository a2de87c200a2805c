// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC notifications: the payloads of the events of the uapi header, built
 * where the connection learns of them and queued with quic_inq_event_recv().
 *
 * QUIC_EVENT_STREAM_UPDATE reports the state a stream part reached (RFC
 * 9000 Section 3), with the error code of a reset and the final size once
 * it is known. The callers take a snapshot of a stream's states before they
 * act on it and pass it to quic_event_stream_changed() afterwards: one
 * notification per part whose state moved, carrying the state it ended in
 * (a frame that both completes and ends a stream gives Data Recvd, not Size
 * Known then Data Recvd).
 *
 * Only the states the socket API draft lists for this event are delivered
 * (draft-lxin-quic-socket-apis, "QUIC_EVENT_STREAM_UPDATE"):
 * - sending part: Data Recvd; Reset Sent, only when the reset answers the
 *   peer's STOP_SENDING (the application knows of its own resets, so the
 *   socket option does not report it); Reset Recvd;
 * - receiving part: Recv, once, when the first data of a stream arrives
 *   and the stream is not complete with it (the application learns that a
 *   new stream has data pending); Size Known, which only shows when the
 *   final size arrives ahead of missing data; Data Recvd; Reset Recvd.
 * Ready, Send, Data Sent, Data Read and Reset Read are not delivered.
 */

#include <net/sock.h>

#include "close.h"
#include "event.h"
#include "inqueue.h"
#include "socket.h"
#include "stream.h"

static void quic_event_queue(struct sock *sk, u8 type, const void *payload, u32 len)
{
	sock_owned_by_me(sk);
	if (!quic_event_enabled(sk, type))
		return;
	if (!quic_inq_event_recv(quic_inq(sk), type, payload, len, GFP_ATOMIC))
		sk->sk_data_ready(sk);
}

/**
 * quic_event_stream_snap - record the states of a stream before acting on it
 * @s: the stream
 * @snap: out: its sending and receiving part states
 */
void quic_event_stream_snap(const struct quic_stream *s, struct quic_event_stream_snap *snap)
{
	snap->send = s->send.state;
	snap->recv = s->recv.state;
	snap->recv_empty = s->recv.state == QUIC_STREAM_RECV_STATE_RECV && !s->recv.highest;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_event_stream_snap);

/* The states the draft delivers (see the top of this file). */
static bool quic_event_stream_listed(bool send, u8 state)
{
	if (send)
		return state == QUIC_STREAM_SEND_STATE_RECVD ||
		       state == QUIC_STREAM_SEND_STATE_RESET_SENT ||
		       state == QUIC_STREAM_SEND_STATE_RESET_RECVD;
	return state == QUIC_STREAM_RECV_STATE_RECV ||
	       state == QUIC_STREAM_RECV_STATE_SIZE_KNOWN ||
	       state == QUIC_STREAM_RECV_STATE_RECVD ||
	       state == QUIC_STREAM_RECV_STATE_RESET_RECVD;
}

/**
 * quic_event_stream_part - report the state a stream part is in
 * @sk: the socket, owned
 * @s: the stream
 * @send: the sending part, rather than the receiving one
 *
 * Nothing is queued for a state the draft does not deliver.
 */
void quic_event_stream_part(struct sock *sk, const struct quic_stream *s, bool send)
{
	struct quic_stream_update u;

	if (!quic_event_stream_listed(send, send ? s->send.state : s->recv.state))
		return;
	/* Padding goes to userspace: clear it. */
	memset(&u, 0, sizeof(u));
	u.id = s->id;
	if (send) {
		u.state = s->send.state;
		if (u.state == QUIC_STREAM_SEND_STATE_RESET_SENT ||
		    u.state == QUIC_STREAM_SEND_STATE_RESET_RECVD)
			u.errcode = s->send.errcode;
		/* From Data Sent on, the bytes written are the final size. */
		if (u.state != QUIC_STREAM_SEND_STATE_READY &&
		    u.state != QUIC_STREAM_SEND_STATE_SEND)
			u.finalsz = s->send.bytes;
	} else {
		u.state = s->recv.state;
		if (u.state == QUIC_STREAM_RECV_STATE_RESET_RECVD ||
		    u.state == QUIC_STREAM_RECV_STATE_RESET_READ)
			u.errcode = s->recv.errcode;
		if (u.state != QUIC_STREAM_RECV_STATE_RECV)
			u.finalsz = s->recv.finalsz;
	}
	quic_event_queue(sk, QUIC_EVENT_STREAM_UPDATE, &u, sizeof(u));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_event_stream_part);

/**
 * quic_event_stream_changed - report the stream parts whose state moved
 * @sk: the socket, owned
 * @s: the stream, still in the table
 * @snap: its states before, from quic_event_stream_snap()
 */
void quic_event_stream_changed(struct sock *sk, const struct quic_stream *s,
			       const struct quic_event_stream_snap *snap)
{
	bool first_data;

	if (s->send.state != snap->send && s->send.state != QUIC_STREAM_STATE_NONE)
		quic_event_stream_part(sk, s, true);
	/* Recv is where a receiving part starts: what is reported is the
	 * arrival of its first bytes, when they do not complete it.
	 */
	first_data = snap->recv_empty && s->recv.state == QUIC_STREAM_RECV_STATE_RECV &&
		     s->recv.highest;
	if ((s->recv.state != snap->recv && s->recv.state != QUIC_STREAM_STATE_NONE) ||
	    first_data)
		quic_event_stream_part(sk, s, false);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_event_stream_changed);

/**
 * quic_event_stream_max_data - the peer raised a stream's flow control limit
 * @sk: the socket, owned
 * @id: the stream
 * @max_data: its new limit (RFC 9000 Section 19.10)
 */
void quic_event_stream_max_data(struct sock *sk, s64 id, u64 max_data)
{
	struct quic_stream_max_data m = { .id = id, .max_data = max_data };

	quic_event_queue(sk, QUIC_EVENT_STREAM_MAX_DATA, &m, sizeof(m));
}

/**
 * quic_event_max_streams - the peer raised a stream limit (MAX_STREAMS)
 * @sk: the socket, owned
 * @uni: the limit of unidirectional streams
 * @max_streams: the new cumulative count (RFC 9000 Section 19.11)
 *
 * draft-lxin-quic-socket-apis, QUIC_EVENT_STREAM_MAX_STREAM: the type of
 * the streams limited in the two low bits, the new count above them
 * (max_stream >> 2). A stream of ours of that type may be opened when its
 * ID is below the value.
 */
void quic_event_max_streams(struct sock *sk, bool uni, u64 max_streams)
{
	u64 max_stream;

	if (!max_streams)
		return;
	max_stream = (max_streams << 2) | (uni ? QUIC_STREAM_TYPE_UNI_MASK : 0) |
		     (quic_streams(sk)->is_serv ? QUIC_STREAM_TYPE_SERVER_MASK : 0);
	quic_event_queue(sk, QUIC_EVENT_STREAM_MAX_STREAM, &max_stream, sizeof(max_stream));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_event_max_streams);

/**
 * quic_event_close - the peer closed the connection (CONNECTION_CLOSE)
 * @sk: the socket, owned
 * @f: the frame; its phrase points into the packet
 *
 * The payload is struct quic_connection_close: the code (capped at 2^32-1
 * as QUIC_SOCKOPT_CONNECTION_CLOSE reports it), the frame type (capped at
 * 255) and the phrase, cut at %QUIC_CLOSE_PHRASE_MAX_LEN bytes and always
 * NUL-terminated.
 */
void quic_event_close(struct sock *sk, const struct quic_frame *f)
{
	u8 buf[sizeof(struct quic_connection_close) + QUIC_CLOSE_PHRASE_MAX_LEN + 1] = {};
	struct quic_connection_close *c = (struct quic_connection_close *)buf;
	u32 plen = min_t(u32, f->close.phrase_len, QUIC_CLOSE_PHRASE_MAX_LEN);

	c->errcode = min_t(u64, f->close.errcode, U32_MAX);
	c->frame = min_t(u64, f->close.frame_type, U8_MAX);
	if (plen)
		memcpy(c->phrase, f->close.phrase, plen);
	quic_event_queue(sk, QUIC_EVENT_CONNECTION_CLOSE, buf,
			 offsetof(struct quic_connection_close, phrase) + plen + 1);
}

/**
 * quic_event_key_update - a key update completed (RFC 9001 Section 6)
 * @sk: the socket, owned
 * @phase: the Key Phase bit now in use
 */
void quic_event_key_update(struct sock *sk, u8 phase)
{
	quic_event_queue(sk, QUIC_EVENT_KEY_UPDATE, &phase, sizeof(phase));
}

/**
 * quic_event_new_token - the server sent a NEW_TOKEN (RFC 9000 Section 19.7)
 * @sk: the socket, owned
 * @token: the token
 * @len: its length
 */
void quic_event_new_token(struct sock *sk, const u8 *token, u32 len)
{
	quic_event_queue(sk, QUIC_EVENT_NEW_TOKEN, token, len);
}

/**
 * quic_event_new_session_ticket - a client received a NewSessionTicket
 * @sk: the socket, owned
 * @msg: the whole TLS message (header included), for the TLS library
 * @len: its length
 */
void quic_event_new_session_ticket(struct sock *sk, const u8 *msg, u32 len)
{
	quic_event_queue(sk, QUIC_EVENT_NEW_SESSION_TICKET, msg, len);
}

/**
 * quic_event_connection_id - the connection ID in use changed
 * @sk: the socket, owned
 * @dest: one the peer issued (the Destination Connection ID we send with),
 *	rather than one of ours
 * @active: sequence number of the one now in use
 * @prior_to: lowest sequence number not retired
 */
void quic_event_connection_id(struct sock *sk, bool dest, u32 active, u32 prior_to)
{
	struct quic_connection_id_info info;

	memset(&info, 0, sizeof(info));
	info.dest = dest;
	info.active = active;
	info.prior_to = prior_to;
	quic_event_queue(sk, QUIC_EVENT_CONNECTION_ID, &info, sizeof(info));
}

/**
 * quic_event_migration - a connection migration completed
 * @sk: the socket, owned
 * @local: 1: we moved to a new local address; 0: the peer's new address
 *	was validated
 */
void quic_event_migration(struct sock *sk, u8 local)
{
	quic_event_queue(sk, QUIC_EVENT_CONNECTION_MIGRATION, &local, sizeof(local));
}
