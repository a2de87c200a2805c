// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC packet reception for a connection: from a datagram that the
 * endpoint (endpoint.c) found the connection of, to the frames it carries.
 *
 * Processing a datagram walks its coalesced packets (RFC 9000 Section
 * 12.2): header parse, protection removal (RFC 9001 Section 5), duplicate
 * detection (RFC 9000 Section 12.3), then every frame in turn. A frame the
 * peer should not have sent closes the connection with the error code of
 * RFC 9000 Section 20; a packet that cannot be authenticated is dropped
 * (RFC 9001 Section 5.5).
 *
 * Context: softirq or process context with the socket owned; nothing here
 * sleeps and allocations are GFP_ATOMIC.
 */

#include <linux/udp.h>
#include <linux/unaligned.h>
#include <net/sock.h>
#include <net/udp.h>

#include "addrval.h"
#include "connection.h"
#include "connid_ctl.h"
#include "event.h"
#include "migrate.h"
#include "packet.h"
#include "receive.h"
#include "socket.h"
#include "ticket.h"
#include "transmit.h"
#include "version.h"

/* What the frames of one packet found. */
struct quic_rcv_pkt {
	const union quic_addr *peer;
	u8 pref_path;
	u8 level;
	bool ack_eliciting;
	bool non_probing;
	bool closed;
	u64 now;
};

static int quic_rcv_ack(struct sock *sk, struct quic_rcv_pkt *rp, const struct quic_frame *f)
{
	u8 exp = quic_remote_param(sk)->ack_delay_exponent;
	u64 delay = 0;
	int err;

	/* RFC 9000 Section 19.3: the ACK Delay of Initial and Handshake ACKs
	 * is ignored; in the Application space it is scaled by the peer's
	 * ack_delay_exponent, and an absurd value is capped, not trusted.
	 */
	if (rp->level == QUIC_CRYPTO_APP)
		delay = f->ack.delay > (U64_MAX >> 21) ? U64_MAX >> 1 : f->ack.delay << exp;
	err = quic_outq_on_ack(quic_outq(sk), rp->level, f, delay, rp->now);
	if (err)
		return err;
	quic_xmit_pmtu_check(sk);
	/* Acknowledged data left the send buffer: wake a waiting writer. */
	if (quic_outq_wmem(quic_outq(sk)) < READ_ONCE(sk->sk_sndbuf))
		sk->sk_write_space(sk);
	if (rp->level == QUIC_CRYPTO_APP)
		quic_crypto_pn_acked(quic_crypto(sk, QUIC_CRYPTO_APP), f->ack.largest);
	return 0;
}

static int quic_rcv_stream(struct sock *sk, const struct quic_frame *f)
{
	struct quic_event_stream_snap snap;
	struct quic_stream *s;
	int err;

	s = quic_stream_recv_get(quic_streams(sk), f->data.id, GFP_ATOMIC);
	if (IS_ERR(s))
		return PTR_ERR(s) == -ENOENT ? 0 : PTR_ERR(s);
	quic_event_stream_snap(s, &snap);
	err = quic_inq_stream_recv(quic_inq(sk), s, &f->data, f->type & QUIC_STREAM_BIT_FIN,
				   GFP_ATOMIC);
	if (err == -ENOBUFS) {
		/* Out of receive memory: drop, the peer will resend. */
		QUIC_INC_STATS(sock_net(sk), QUIC_MIB_FRM_RCVBUFDROP);
		return -ENOBUFS;
	}
	if (!err)
		quic_event_stream_changed(sk, s, &snap);
	return err;
}

/*
 * RFC 9000 Section 3.2: the data of a reset stream is dropped and the
 * application is told, with a STREAM_UPDATE notification in Reset Recvd
 * when it asked for them; that is its "App Read Reset" (Reset Read), after
 * which a stream whose sending part is done too is released. The credit
 * the reset hands back may make a MAX_DATA due.
 */
static int quic_rcv_reset_stream(struct sock *sk, const struct quic_frame *f)
{
	struct quic_frame md = { .type = QUIC_FRAME_MAX_DATA };
	struct quic_event_stream_snap snap;
	struct quic_stream *s;
	int ret;

	s = quic_stream_recv_get(quic_streams(sk), f->reset.id, GFP_ATOMIC);
	if (IS_ERR(s))
		return PTR_ERR(s) == -ENOENT ? 0 : PTR_ERR(s);
	quic_event_stream_snap(s, &snap);
	ret = quic_inq_stream_reset(quic_inq(sk), s, f->reset.final_size, f->reset.errcode);
	if (ret < 0)
		return ret;
	if (ret > 0) {
		md.limit.max = quic_inq_max_data(quic_inq(sk));
		quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &md, GFP_ATOMIC);
	}
	if (s->recv.state != QUIC_STREAM_RECV_STATE_RESET_RECVD ||
	    snap.recv == QUIC_STREAM_RECV_STATE_RESET_RECVD)
		return 0;
	quic_event_stream_changed(sk, s, &snap);
	quic_stream_recv_set_state(s, QUIC_STREAM_RECV_STATE_RESET_READ);
	quic_msg_stream_done(sk, s);
	return 0;
}

/*
 * RFC 9000 Section 3.5: STOP_SENDING is answered with RESET_STREAM. A
 * part reset already needs nothing more. Without memory for the
 * RESET_STREAM the stream is left as it was and the packet is dropped
 * unacknowledged: the peer sends the STOP_SENDING again, rather than wait
 * for good for a RESET_STREAM that never comes.
 */
static int quic_rcv_stop_sending(struct sock *sk, const struct quic_frame *f)
{
	struct quic_event_stream_snap snap;
	struct quic_stream *s;
	int err;

	s = quic_stream_feedback_get(quic_streams(sk), f->reset.id, GFP_ATOMIC);
	if (IS_ERR(s))
		return PTR_ERR(s) == -ENOENT ? 0 : PTR_ERR(s);
	quic_event_stream_snap(s, &snap);
	err = quic_msg_stream_reset(sk, s, f->reset.errcode);
	if (err)
		return err == -ENOMEM ? err : 0;
	quic_event_stream_changed(sk, s, &snap);
	return 0;
}

/*
 * RFC 9000 Section 19.13: STREAM_DATA_BLOCKED asks for nothing (credit
 * goes out as the application reads), but it comes from the peer's
 * sending part and names a stream as a STREAM frame does: one beyond the
 * limit we set is STREAM_LIMIT_ERROR (Section 4.6: "An endpoint that
 * receives a frame with a stream ID exceeding the limit it has sent MUST
 * treat this as a connection error of type STREAM_LIMIT_ERROR"), and one
 * of the peer's not open yet opens (Section 3.2).
 */
static int quic_rcv_stream_data_blocked(struct sock *sk, const struct quic_frame *f)
{
	struct quic_stream *s;

	s = quic_stream_recv_get(quic_streams(sk), f->limit.id, GFP_ATOMIC);
	if (IS_ERR(s))
		return PTR_ERR(s) == -ENOENT ? 0 : PTR_ERR(s);
	return 0;
}

static int quic_rcv_max_stream_data(struct sock *sk, const struct quic_frame *f)
{
	struct quic_stream *s;

	s = quic_stream_feedback_get(quic_streams(sk), f->limit.id, GFP_ATOMIC);
	if (IS_ERR(s))
		return PTR_ERR(s) == -ENOENT ? 0 : PTR_ERR(s);
	if (quic_outq_set_max_stream_data(quic_outq(sk), s, f->limit.max)) {
		quic_event_stream_max_data(sk, s->id, f->limit.max);
		sk->sk_write_space(sk);
	}
	return 0;
}

static int quic_rcv_max_streams(struct sock *sk, const struct quic_frame *f)
{
	bool uni = f->type == QUIC_FRAME_MAX_STREAMS_UNI;
	int ret;

	ret = quic_stream_set_local_max_streams(quic_streams(sk), uni, f->limit.max);
	if (ret <= 0)
		return ret;
	quic_event_max_streams(sk, uni, f->limit.max);
	sk->sk_write_space(sk);
	return 0;
}

static int quic_rcv_new_token(struct sock *sk, const struct quic_frame *f)
{
	int err;

	/* A token the application could not hand back through
	 * QUIC_SOCKOPT_TOKEN is of no use: not kept, not reported. Using a
	 * token is optional for a client (RFC 9000 Section 8.1.3).
	 */
	if (f->data.len > QUIC_TOKEN_MAX_LEN)
		return 0;
	/* Kept for the next connection's Initial (RFC 9000 Section 8.1.3). */
	err = quic_data_dup(quic_token(sk), f->data.data, f->data.len, GFP_ATOMIC);
	if (!err)
		quic_event_new_token(sk, f->data.data, f->data.len);
	return err;
}

static int quic_rcv_path_challenge(struct sock *sk, struct quic_rcv_pkt *rp,
				   const struct quic_frame *f)
{
	struct quic_frame resp = { .type = QUIC_FRAME_PATH_RESPONSE };

	/* RFC 9000 Section 8.2.2: answered on the path it came on. */
	if (rp->pref_path) {
		quic_migrate_pref_respond(sk, f, rp->peer);
		return 0;
	}

	memcpy(resp.path_data, f->path_data, sizeof(resp.path_data));
	return quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &resp, GFP_ATOMIC);
}

static void quic_rcv_close(struct sock *sk, struct quic_rcv_pkt *rp, const struct quic_frame *f)
{
	QUIC_INC_STATS(sock_net(sk), QUIC_MIB_FRM_INCLOSES);
	quic_event_close(sk, f);
	quic_close_received(sk, f);
	rp->closed = true;
}

/* RFC 9001 Section 4.1.2: HANDSHAKE_DONE confirms the handshake at the
 * client, which then discards its Handshake keys (Section 4.9.2).
 */
static void quic_rcv_handshake_done(struct sock *sk)
{
	quic_conn_confirmed(sk);
}

/* Handle one frame; a negative return is an errno standing for the
 * transport error quic_rcv_frame_error() maps it to.
 */
static int quic_rcv_frame(struct sock *sk, struct quic_rcv_pkt *rp, const struct quic_frame *f)
{
	switch (f->type) {
	case QUIC_FRAME_PADDING:
	case QUIC_FRAME_PING:
	case QUIC_FRAME_DATA_BLOCKED:
	case QUIC_FRAME_STREAMS_BLOCKED_BIDI:
	case QUIC_FRAME_STREAMS_BLOCKED_UNI:
		return 0;
	case QUIC_FRAME_ACK:
	case QUIC_FRAME_ACK_ECN:
		return quic_rcv_ack(sk, rp, f);
	case QUIC_FRAME_RESET_STREAM:
		return quic_rcv_reset_stream(sk, f);
	case QUIC_FRAME_STOP_SENDING:
		return quic_rcv_stop_sending(sk, f);
	case QUIC_FRAME_STREAM_DATA_BLOCKED:
		return quic_rcv_stream_data_blocked(sk, f);
	case QUIC_FRAME_CRYPTO:
		if (rp->level == QUIC_CRYPTO_APP)
			return quic_ticket_crypto_recv(sk, &f->data);
		return quic_inq_crypto_recv(quic_inq(sk), rp->level, &f->data, GFP_ATOMIC);
	case QUIC_FRAME_NEW_TOKEN:
		return quic_rcv_new_token(sk, f);
	case QUIC_FRAME_MAX_DATA:
		if (quic_outq_set_max_data(quic_outq(sk), f->limit.max))
			sk->sk_write_space(sk);
		return 0;
	case QUIC_FRAME_MAX_STREAM_DATA:
		return quic_rcv_max_stream_data(sk, f);
	case QUIC_FRAME_MAX_STREAMS_BIDI:
	case QUIC_FRAME_MAX_STREAMS_UNI:
		return quic_rcv_max_streams(sk, f);
	case QUIC_FRAME_NEW_CONNECTION_ID:
		return quic_cid_recv_new(sk, f);
	case QUIC_FRAME_RETIRE_CONNECTION_ID:
		return quic_cid_recv_retire(sk, f);
	case QUIC_FRAME_PATH_CHALLENGE:
		return quic_rcv_path_challenge(sk, rp, f);
	case QUIC_FRAME_PATH_RESPONSE:
		if (quic_path_challenge_match(quic_paths(sk), f->path_data))
			quic_migrate_path_response(sk);
		return 0;
	case QUIC_FRAME_CONNECTION_CLOSE:
	case QUIC_FRAME_CONNECTION_CLOSE_APP:
		quic_rcv_close(sk, rp, f);
		return 0;
	case QUIC_FRAME_HANDSHAKE_DONE:
		quic_rcv_handshake_done(sk);
		return 0;
	case QUIC_FRAME_DATAGRAM:
	case QUIC_FRAME_DATAGRAM_LEN:
		/* RFC 9221 Section 5: a datagram with no room is dropped (and
		 * counted); its packet is still processed and acknowledged.
		 */
		quic_inq_dgram_recv(quic_inq(sk), &f->data, GFP_ATOMIC);
		return 0;
	default:
		if ((f->type & ~0x07) == QUIC_FRAME_STREAM)
			return quic_rcv_stream(sk, f);
		return -EBADMSG;
	}
}

/* The transport error code a frame handler's errno stands for. */
static u32 quic_rcv_frame_error(const struct quic_frame *f, int err)
{
	/* RFC 9000 Section 21.9: the peer asked for more control frames
	 * (answers, connection IDs) than the send queue holds.
	 */
	if (err == -ENOSPC)
		return QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION;
	/* RFC 9001 Section 4.1.3: a TLS message QUIC does not carry after the
	 * handshake (see quic_ticket_crypto_recv()), TLS alert unexpected_message.
	 */
	if (f->type == QUIC_FRAME_CRYPTO && err == -EPROTO)
		return QUIC_TRANSPORT_ERROR_CRYPTO + QUIC_TLS_ALERT_UNEXPECTED_MESSAGE;
	if ((f->type & ~0x07) == QUIC_FRAME_STREAM || f->type == QUIC_FRAME_RESET_STREAM ||
	    f->type == QUIC_FRAME_STOP_SENDING || f->type == QUIC_FRAME_MAX_STREAM_DATA ||
	    f->type == QUIC_FRAME_STREAM_DATA_BLOCKED || f->type == QUIC_FRAME_CRYPTO ||
	    f->type == QUIC_FRAME_DATAGRAM || f->type == QUIC_FRAME_DATAGRAM_LEN)
		return quic_inq_transport_error(err);
	if (f->type == QUIC_FRAME_NEW_CONNECTION_ID || f->type == QUIC_FRAME_RETIRE_CONNECTION_ID)
		return quic_conn_id_transport_error(err);
	if (f->type == QUIC_FRAME_MAX_STREAMS_BIDI || f->type == QUIC_FRAME_MAX_STREAMS_UNI)
		return quic_stream_transport_error(err);
	return quic_frame_transport_error(err);
}

/* Walk the frames of a decrypted payload. Return: 0, or -EPROTO when the
 * connection was closed for an error (the packet is not acknowledged).
 */
static int quic_rcv_frames(struct sock *sk, struct quic_rcv_pkt *rp, const u8 *p, u32 len)
{
	struct quic_frame_ctx ctx = {
		.level = rp->level,
		.is_serv = quic_paths(sk)->serv,
		.max_datagram = quic_local_param(sk)->max_datagram_frame_size,
	};
	struct quic_frame f;
	int err;

	/* RFC 9000 Section 12.4: a packet carries at least one frame. */
	if (!len) {
		quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION, 0);
		return -EPROTO;
	}
	while (len && !rp->closed) {
		err = quic_frame_decode(&p, &len, &ctx, &f);
		if (err) {
			QUIC_INC_STATS(sock_net(sk), QUIC_MIB_PKT_INVFRMDROP);
			quic_rcv_conn_error(sk, quic_frame_transport_error(err), 0);
			return -EPROTO;
		}
		if (quic_frame_ack_eliciting(f.type))
			rp->ack_eliciting = true;
		/* RFC 9000 Section 9.1: the frames a probing packet may hold. */
		if (f.type != QUIC_FRAME_PADDING && f.type != QUIC_FRAME_PATH_CHALLENGE &&
		    f.type != QUIC_FRAME_PATH_RESPONSE && f.type != QUIC_FRAME_NEW_CONNECTION_ID)
			rp->non_probing = true;
		err = quic_rcv_frame(sk, rp, &f);
		if (err == -ENOBUFS || err == -ENOMEM)
			return err;	/* drop the packet unacknowledged */
		if (err) {
			quic_rcv_conn_error(sk, quic_rcv_frame_error(&f, err), f.type);
			return -EPROTO;
		}
	}
	return 0;
}

/* After a packet of @level was processed: address validation, key
 * discard and acknowledgment scheduling.
 */
static void quic_rcv_packet_done(struct sock *sk, struct quic_rcv_pkt *rp)
{
	struct quic_pnspace *space = quic_pnspace(sk, rp->level);
	struct quic_path_group *paths = quic_paths(sk);

	/* RFC 9000 Section 8.1: a Handshake packet proves the client owns its
	 * address; RFC 9001 Section 4.9.1: the server then drops Initial keys.
	 */
	if (rp->level == QUIC_CRYPTO_HANDSHAKE && paths->serv) {
		if (!paths->validated) {
			quic_path_set_validated(paths, true);
			quic_outq_set_peer_validated(quic_outq(sk));
		}
		quic_conn_discard_level(sk, QUIC_CRYPTO_INITIAL);
	}

	if (!rp->ack_eliciting)
		return;
	/* Nothing owed: every packet before this one was acknowledged. */
	if (!space->need_sack)
		quic_sk(sk)->ack_pending = 0;
	/* RFC 9000 Section 13.2.1: Initial and Handshake packets are
	 * acknowledged at once; 1-RTT ones within max_ack_delay, or at once
	 * for every second packet (Section 13.2.2), or when one arrives out of
	 * order. Until then the ACK frame only rides on packets sent anyway.
	 */
	if (rp->level != QUIC_CRYPTO_APP || quic_pnspace_has_gap(space) ||
	    ++quic_sk(sk)->ack_pending >= 2) {
		quic_sk(sk)->ack_pending = 0;
		quic_sk(sk)->ack_now = 1;
		space->need_sack = 1;
		space->ack_delayed = 0;
		return;
	}
	if (!space->need_sack)
		space->ack_delayed = 1;
	space->need_sack = 1;
	quic_timer_reduce(quic_timers(sk), QUIC_TIMER_ACK, quic_local_param(sk)->max_ack_delay);
}

/*
 * RFC 9000 Section 10.3.1: the datagram whose packet could not be parsed,
 * was discarded or could not be decrypted (skb->data at that packet, the
 * datagram's end at its end), whatever its header form, ends with the
 * token of one of the peer's IDs we sent to: the peer lost its state. The
 * connection ends at once, sending nothing more.
 */
static bool quic_rcv_is_reset(struct sock *sk, struct sk_buff *skb)
{
	if (!quic_cid_is_stateless_reset(sk, skb->data, skb->len))
		return false;
	quic_conn_closed(sk, ECONNRESET);
	return true;
}

/* Hold a packet whose keys are not installed yet. */
static void quic_rcv_hold(struct sock *sk, struct sk_buff *skb, u32 len)
{
	struct sk_buff_head *q = &quic_sk(sk)->pending;
	struct sk_buff *copy;

	if (skb_queue_len(q) >= QUIC_RCV_PENDING_MAX)
		return;
	copy = alloc_skb(len, GFP_ATOMIC);
	if (!copy)
		return;
	skb_put_data(copy, skb->data, len);
	copy->network_header = 0;
	/* Its ECN codepoint and source address go with it. */
	*QUIC_SKB_CB(copy) = *QUIC_SKB_CB(skb);
	QUIC_SKB_CB(copy)->held = 1;
	__skb_queue_tail(q, copy);
}

/*
 * RFC 9000 Section 6.2: a client that has processed no packet of the
 * server yet abandons the attempt on a Version Negotiation packet, unless
 * it lists the version it chose (then it is discarded, as are packets
 * whose connection IDs do not echo ours, Section 17.2.1). Taking another
 * version from the list would need a new TLS handshake: the application
 * gets EPROTONOSUPPORT and may connect again with it (RFC 9368 Section 2.1,
 * incompatible version negotiation).
 */
static void quic_rcv_vn(struct sock *sk, struct sk_buff *skb)
{
	struct quic_conn_id_entry *own = quic_conn_id_active(quic_source(sk));
	struct quic_path_group *paths = quic_paths(sk);
	struct quic_packet_invariant inv;
	u32 versions[64];
	int n, i;

	if (paths->serv || paths->retry || quic_sk(sk)->peer_scid_set ||
	    !quic_is_establishing(sk) || !own)
		goto drop;
	n = quic_packet_parse_vn(skb->data, skb->len, &inv, versions, ARRAY_SIZE(versions));
	if (n <= 0 || inv.dcid_len != own->id.len || memcmp(inv.dcid, own->id.data, inv.dcid_len) ||
	    inv.scid_len != paths->orig_dcid.len ||
	    memcmp(inv.scid, paths->orig_dcid.data, inv.scid_len))
		goto drop;
	for (i = 0; i < min_t(int, n, ARRAY_SIZE(versions)); i++)
		if (versions[i] == quic_config(sk)->version)
			goto drop;
	quic_conn_closed(sk, EPROTONOSUPPORT);
	return;
drop:
	QUIC_INC_STATS(sock_net(sk), QUIC_MIB_PKT_RCVDROP);
}

/* Long header packets discarded before their protection is removed:
 * nothing in them is acted on.
 */
static bool quic_rcv_long_discard(struct sock *sk, const struct sk_buff *skb,
				  const struct quic_packet_hdr *hdr)
{
	struct quic_sock *qs = quic_sk(sk);
	bool serv = quic_paths(sk)->serv;

	if (hdr->type == QUIC_PACKET_1RTT)
		return false;
	/* RFC 9000 Section 17.2.2: "Initial packets sent by the server MUST
	 * set the Token Length field to 0; clients that receive an Initial
	 * packet with a non-zero Token Length field MUST either discard the
	 * packet or generate a connection error of type PROTOCOL_VIOLATION."
	 * Not authenticated yet: discarded, as anyone could have sent it.
	 */
	if (!serv && hdr->type == QUIC_PACKET_INITIAL && hdr->token_len)
		return true;
	/* RFC 9000 Section 7.2: once the peer's first Source Connection ID
	 * is known (a server takes it from the client's first Initial at
	 * accept(), a client from the server's first packet in
	 * quic_rcv_packet()), "if subsequent Initial packets include a
	 * different Source Connection ID, they MUST be discarded". A client
	 * discards "any subsequent packet" with another one; a server does
	 * the same with Handshake and 0-RTT packets, which carry the ID of
	 * the client's Initials.
	 */
	if (qs->peer_scid_set && !quic_conn_id_equal(&hdr->scid, &qs->peer_scid))
		return true;
	/* RFC 9000 Section 14.1: "A server MUST discard an Initial packet
	 * that is carried in a UDP datagram with a payload that is smaller
	 * than the smallest allowed maximum datagram size of 1200 bytes": at
	 * the connection as at the listener (quic_rcv_listen()).
	 */
	return serv && hdr->type == QUIC_PACKET_INITIAL &&
	       QUIC_SKB_CB(skb)->dgram_len < QUIC_MIN_UDP_PAYLOAD;
}

/*
 * Process the packet at skb->data. Return: its length (to move to the
 * next coalesced packet), 0 to stop walking the datagram.
 */
static u32 quic_rcv_packet(struct sock *sk, struct sk_buff *skb, u64 now)
{
	struct quic_rcv_pkt rp = { .now = now };
	struct quic_crypto_pkt pkt = {};
	struct net *net = sock_net(sk);
	struct quic_packet_hdr hdr;
	struct quic_pnspace *space;
	struct quic_crypto *crypto;
	struct quic_conn_id_entry *own;
	const u8 *p = skb->data;
	u32 len = skb->len, tag;
	bool largest;
	int err;

	/* A Version Negotiation packet is never coalesced (Section 17.2.1). */
	if (len >= 5 && (p[0] & QUIC_HDR_FORM_LONG) &&
	    get_unaligned_be32(p + 1) == QUIC_VERSION_NEGOTIATION) {
		quic_rcv_vn(sk, skb);
		return 0;
	}
	own = quic_conn_id_active(quic_source(sk));
	err = quic_packet_parse(&p, &len, own ? own->id.len : 0,
				quic_local_param(sk)->grease_quic_bit, &hdr);
	if (err) {
		QUIC_INC_STATS(net, QUIC_MIB_PKT_INVHDRDROP);
		quic_rcv_is_reset(sk, skb);
		return 0;
	}
	if (hdr.type == QUIC_PACKET_RETRY) {
		if (!quic_addrval_retry_rcv(sk, skb, &hdr))
			QUIC_INC_STATS(net, QUIC_MIB_PKT_RCVDROP);
		return 0;	/* a Retry takes the rest of the datagram */
	}
	rp.level = quic_packet_level(hdr.type);
	if (rp.level >= QUIC_CRYPTO_MAX)
		return hdr.len;
	if (quic_rcv_long_discard(sk, skb, &hdr)) {
		QUIC_INC_STATS(net, QUIC_MIB_PKT_RCVDROP);
		return quic_rcv_is_reset(sk, skb) ? 0 : hdr.len;
	}
	crypto = quic_crypto(sk, rp.level);
	/* Another version: compatible version negotiation (version.c). */
	if (hdr.type != QUIC_PACKET_1RTT && hdr.version != quic_config(sk)->version) {
		crypto = quic_version_rx_crypto(sk, hdr.type, hdr.version);
		if (!crypto) {
			QUIC_INC_STATS(net, QUIC_MIB_PKT_RCVDROP);
			return hdr.len;
		}
	}
	if (!crypto->rx.ready) {
		/* RFC 9000 Section 10.3.1: a packet that cannot be decrypted
		 * may end a Stateless Reset, keys or no keys.
		 */
		if (quic_rcv_is_reset(sk, skb))
			return 0;
		if (!quic_conn_level_discarded(sk, rp.level))
			quic_rcv_hold(sk, skb, hdr.len);
		return hdr.len;
	}

	space = quic_pnspace(sk, rp.level);
	pkt.len = hdr.len;
	pkt.pn_offset = hdr.pn_offset;
	pkt.largest = space->max_pn_seen;
	err = quic_crypto_decrypt(crypto, skb, &pkt);
	if (err) {
		QUIC_INC_STATS(net, QUIC_MIB_PKT_DECDROP);
		if (quic_rcv_is_reset(sk, skb))
			return 0;
		if (err == -EKEYREJECTED)
			quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_KEY_UPDATE, 0);
		else if (err == -EKEYEXPIRED)
			quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_AEAD_LIMIT_REACHED, 0);
		return hdr.type == QUIC_PACKET_1RTT ? 0 : hdr.len;
	}
	QUIC_INC_STATS(net, QUIC_SKB_CB(skb)->backlog ? QUIC_MIB_PKT_DECBACKLOGS :
		       QUIC_MIB_PKT_DECFASTPATHS);
	if (pkt.key_update)
		quic_conn_key_updated(sk, pkt.key_phase);

	/* RFC 9000 Section 7.2: the client switches to the Source Connection
	 * ID of the server's first packet, which the server's transport
	 * parameters must then confirm (Section 7.3).
	 */
	if (!quic_paths(sk)->serv && !quic_sk(sk)->peer_scid_set &&
	    hdr.type != QUIC_PACKET_1RTT) {
		quic_conn_id_set_free(quic_dest(sk));
		if (quic_conn_id_add(quic_dest(sk), &hdr.scid, 0, NULL, GFP_ATOMIC)) {
			quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_INTERNAL, 0);
			return 0;
		}
		quic_sk(sk)->peer_scid = hdr.scid;
		quic_sk(sk)->peer_scid_set = 1;
	}

	/* RFC 9000 Sections 17.2 and 17.3.1: the Reserved Bits are 0 once
	 * header protection is removed.
	 */
	if (skb->data[0] & (hdr.type == QUIC_PACKET_1RTT ? QUIC_HDR_SHORT_RESERVED_MASK :
						       QUIC_HDR_LONG_RESERVED_MASK)) {
		quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION, 0);
		return 0;
	}
	if (quic_pnspace_check(space, pkt.number)) {
		QUIC_INC_STATS(net, QUIC_MIB_PKT_INVNUMDROP);
		return hdr.len;
	}

	largest = pkt.number > space->max_pn_seen;
	rp.peer = &QUIC_SKB_CB(skb)->peer;
	if (hdr.type == QUIC_PACKET_1RTT)
		rp.pref_path = quic_migrate_pref_on_path(sk, QUIC_SKB_CB(skb)->alt_local, rp.peer);
	tag = quic_crypto_tag_len(crypto, hdr.type != QUIC_PACKET_1RTT);
	err = quic_rcv_frames(sk, &rp, skb->data + pkt.pn_offset + pkt.number_len,
			      hdr.len - pkt.pn_offset - pkt.number_len - tag);
	if (err)
		return 0;
	if (quic_pnspace_mark(space, pkt.number, now))
		return hdr.len;
	quic_pnspace_inc_ecn_count(space, QUIC_SKB_CB(skb)->ecn);
	if (rp.closed)
		return 0;
	quic_rcv_packet_done(sk, &rp);
	/* RFC 9000 Section 9.3: the client's non-probing packets with the
	 * largest number so far lead to its new address; Section 9.6.2: at a
	 * server's preferred address, to that path once validated.
	 */
	if (rp.pref_path && quic_paths(sk)->serv)
		quic_migrate_pref_rcvd(sk, rp.peer, largest && rp.non_probing);
	else if (largest && rp.non_probing && hdr.type == QUIC_PACKET_1RTT &&
		 !quic_cmp_sk_addr(sk, quic_path_daddr(quic_paths(sk), 0), rp.peer))
		quic_migrate_peer_moved(sk, rp.peer, hdr.len);
	/* RFC 9000 Section 10.1: any packet processed restarts the idle timer. */
	quic_conn_idle_restart(sk);
	return hdr.len;
}

/**
 * quic_rcv_datagram - process a datagram of a connection
 * @sk: the socket, owned by the caller (or its spinlock held in softirq)
 * @skb: the whole datagram, skb->data at the first QUIC packet; consumed
 *
 * Walks its coalesced packets (RFC 9000 Section 12.2) and the frames of
 * each, then sends what they call for.
 */
void quic_rcv_datagram(struct sock *sk, struct sk_buff *skb)
{
	struct quic_path_group *paths = quic_paths(sk);
	u32 seq = quic_inq(sk)->peeled_seq;
	u64 now = quic_time_us();
	u32 n;

	/* RFC 9000 Section 8.1: every byte of a datagram that reached this
	 * connection counts toward what a server may send to an address it
	 * has not validated, whatever becomes of its packets (discarded,
	 * held for keys, duplicates, padding).
	 */
	if (paths->serv && !paths->validated && !QUIC_SKB_CB(skb)->held)
		quic_path_ampl_rcvd(paths, skb->len);
	quic_sk(sk)->ack_now = 0;
	while (skb->len) {
		n = quic_rcv_packet(sk, skb, now);
		if (!n || n >= skb->len)
			break;
		/* Frames point into the packet only while it is handled. */
		__skb_pull(skb, n);
	}
	kfree_skb(skb);

	/* After SHUT_RD what arrived is dropped as if read (quic_shutdown()). */
	if ((READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN) && quic_is_established(sk))
		quic_msg_discard(sk, GFP_ATOMIC);
	if (quic_is_establishing(sk) || quic_is_established(sk)) {
		/* The ACK timer only serves a 1-RTT acknowledgment still
		 * allowed to wait, which a coalesced 1-RTT packet may have
		 * left behind an Initial or Handshake one that was due.
		 */
		if (quic_sk(sk)->ack_now && !quic_pnspace(sk, QUIC_CRYPTO_APP)->ack_delayed)
			quic_timer_stop(quic_timers(sk), QUIC_TIMER_ACK);
		quic_xmit(sk);
	}
	/* Stream sockets (peeloff.c) wait on the connection's queue too. */
	if (quic_inq_readable(quic_inq(sk)) || quic_inq(sk)->peeled_seq != seq)
		sk->sk_data_ready(sk);
}

/**
 * quic_rcv_pending_retry - process packets held for keys just installed
 * @sk: the socket, owned by the caller
 */
void quic_rcv_pending_retry(struct sock *sk)
{
	struct sk_buff_head q;
	struct sk_buff *skb;

	__skb_queue_head_init(&q);
	skb_queue_splice_init(&quic_sk(sk)->pending, &q);
	while ((skb = __skb_dequeue(&q)))
		quic_rcv_datagram(sk, skb);
}
