/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC send queue and loss recovery (RFC 9000 Sections 4, 13.3; RFC 9002
 * Sections 5 to 7 and Appendix A; RFC 9221 Section 5).
 *
 * A struct quic_outq holds what one connection still has to send and what
 * it has sent but not seen acknowledged:
 *
 *  - per packet number space (Initial, Handshake, Application data; 0-RTT
 *    uses the Application space): control frames, CRYPTO data with its
 *    offset, frames from lost packets waiting for retransmission, the list
 *    of sent packets and the PTO probe request;
 *  - per stream with data queued: the bytes not yet sent, in order;
 *  - DATAGRAM frames (RFC 9221), which are never retransmitted;
 *  - connection-level send flow control (the peer's max_data).
 *
 * Retransmission is of information, not of packets (RFC 9000 Section 13.3):
 * a sent packet keeps the frames that must be repaired if it is lost, and
 * those go back to the front of their space's retransmission queue. See
 * docs/outqueue.md for which frame is repaired how.
 *
 * The queue has no socket and reads no clock: times are u64 microseconds
 * handed in by the caller. It works on the caller's packet number spaces,
 * congestion controller and stream table. Nothing here takes a lock: the
 * caller serialises every call with the socket lock. outqueue.c holds the
 * queues and packet filling, recovery.c the acknowledgment processing, loss
 * detection, the loss detection timer and space discard.
 */

#ifndef __net_quic_outqueue_h__
#define __net_quic_outqueue_h__

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/types.h>

#include "cong.h"
#include "frame.h"
#include "pnspace.h"
#include "stream.h"

struct iov_iter;

/**
 * struct quic_outq_bytes - bytes queued by one call, shared by the frames
 *	cut from them
 * @ref: frames pointing into @data
 * @data: the bytes, a separate allocation of exactly their length (with a
 *	header in front, a 64 KiB write would take a 128 KiB page block)
 *
 * A STREAM or CRYPTO frame sent in parts hands each packet a frame of its
 * own that points into the same buffer: no copy and no allocation of the
 * bytes per packet. The buffer goes with the last frame.
 */
struct quic_outq_bytes {
	refcount_t ref;
	u8 *data;
};

/**
 * struct quic_outq_frame - one frame queued, or carried by a sent packet
 * @list: entry in a queue or in &quic_outq_packet.frames
 * @os: STREAM frames: the stream's send queue state
 * @bytes: the buffer @buf points into, NULL if none
 * @buf: bytes held: STREAM, CRYPTO, DATAGRAM and NEW_TOKEN data,
 *	CONNECTION_CLOSE reason phrase; NULL if none
 * @head: STREAM and CRYPTO: bytes of @buf already handed to an earlier frame
 * @offset: STREAM and CRYPTO: offset of the first byte not yet handed out
 * @len: STREAM, CRYPTO and DATAGRAM: bytes left from @buf + @head
 * @type: frame type (STREAM frames use %QUIC_FRAME_STREAM, their flags
 *	are computed when the frame is written; DATAGRAM frames use
 *	%QUIC_FRAME_DATAGRAM_LEN)
 * @fin: STREAM: the last byte of the frame ends the stream
 * @fresh: STREAM: never sent, so it still consumes flow control credit
 * @ctrl: an answer to the peer (quic_outq_ctrl_append()): counted in
 *	&quic_outq.ctrl_held
 * @f: control frames: the frame as queued; byte fields point into @buf
 */
struct quic_outq_frame {
	struct list_head list;
	struct quic_outq_stream *os;
	struct quic_outq_bytes *bytes;
	u8 *buf;
	u32 head;
	u64 offset;
	u32 len;
	u8 type;
	u8 fin:1;
	u8 fresh:1;
	u8 ctrl:1;
	struct quic_frame f;
};

/**
 * struct quic_outq_stream - send queue state of one stream
 * @node: entry in &quic_outq.streams
 * @active: entry in &quic_outq.active (round robin) while @pending holds data
 * @stream: the stream; the caller calls quic_outq_stream_purge() before
 *	releasing it
 * @pending: STREAM frames not sent yet, in offset order
 * @offset: offset after the last byte queued
 * @unacked: bytes queued and not acknowledged yet
 * @blocked_at: stream limit for which STREAM_DATA_BLOCKED was queued, plus
 *	one (0: none)
 * @fin_queued: the FIN has been queued
 * @fin_acked: a frame with the FIN has been acknowledged
 */
struct quic_outq_stream {
	struct list_head node;
	struct list_head active;
	struct quic_stream *stream;
	struct list_head pending;
	u64 offset;
	u64 unacked;
	u64 blocked_at;
	u8 fin_queued:1;
	u8 fin_acked:1;
};

/**
 * struct quic_outq_packet - a sent packet (RFC 9002 Appendix A.1.1)
 * @list: entry in &quic_outq_space.sent, in packet number order
 * @frames: the frames to repair if it is lost
 * @pn: packet number
 * @sent_time: when it was sent, microseconds
 * @size: bytes counted in flight: payload plus the caller's overhead
 * @level: encryption level (&enum quic_crypto_level)
 * @ack_eliciting: it carries an ack-eliciting frame
 * @in_flight: it counts toward bytes in flight (ack-eliciting or padded)
 * @pmtu_probe: a PLPMTUD probe (RFC 9000 Section 14.4): its loss is no
 *	congestion signal
 * @ecn: sent with ECT(0), for ECN validation (RFC 9000 Section 13.4.2)
 */
struct quic_outq_packet {
	struct list_head list;
	struct list_head frames;
	s64 pn;
	u64 sent_time;
	u32 size;
	u8 level;
	u8 ack_eliciting:1;
	u8 in_flight:1;
	u8 pmtu_probe:1;
	u8 ecn:1;
};

/* RFC 9000 Section 13.4.2: ECN validation. Packets are marked ECT(0)
 * while testing (the first %QUIC_ECN_TEST_PACKETS) and once capable; the
 * peer's ACK frames must account for them, or marking stops for good.
 */
#define QUIC_ECN_TEST_PACKETS	10

enum quic_ecn_state {
	QUIC_ECN_TESTING,
	QUIC_ECN_CAPABLE,
	QUIC_ECN_FAILED,
};

/* Control frames that answer the peer (PATH_CHALLENGE, PATH_RESPONSE,
 * NEW_CONNECTION_ID, RETIRE_CONNECTION_ID) one connection holds at most,
 * waiting, in flight or waiting to be sent again: the peer can ask for
 * them faster than it acknowledges them, and RFC 9000 Section 21.9 lets an
 * endpoint treat such a flood as an attack. Frames of our own (flow
 * control credit, stream state, closing) are bounded by the streams and
 * limits they are about, and never refused for this bound.
 */
#define QUIC_OUTQ_CTRL_MAX	256

/* Probe packets one PTO expiry sends: RFC 9002 Section 6.2.4 allows up to
 * two, so that a single lost datagram does not cost another, doubled PTO.
 */
#define QUIC_OUTQ_PTO_PROBES	2

/* Records of sent packets that hold only ACK frames a space keeps at most
 * (quic_outq_commit()): a peer that elicits ACKs but never acknowledges
 * would otherwise make it keep one per ACK sent, for good.
 */
#define QUIC_OUTQ_ACK_ONLY_MAX	1024

/**
 * struct quic_outq_space - the queues of one packet number space
 * @ctrl: control frames not sent yet
 * @crypto: CRYPTO data not sent yet
 * @retrans: frames of lost packets, oldest first
 * @sent: sent packets not acknowledged, lost or discarded, by packet number
 * @crypto_offset: offset of the next CRYPTO byte queued
 * @eliciting: ack-eliciting packets in flight
 * @ack_only: records in @sent of packets not in flight (ACK frames only),
 *	at most %QUIC_OUTQ_ACK_ONLY_MAX
 * @probe: the PTO fired: this many ack-eliciting packets are probes (not
 *	congestion limited), %QUIC_OUTQ_PTO_PROBES at first
 */
struct quic_outq_space {
	struct list_head ctrl;
	struct list_head crypto;
	struct list_head retrans;
	struct list_head sent;
	u64 crypto_offset;
	u32 eliciting;
	u32 ack_only;
	u8 probe:2;
};

/**
 * struct quic_outq - the send side of one connection
 * @spaces: queues by packet number space (quic_pnspace_index())
 * @pnspace: the caller's packet number spaces, same index
 * @cong: the caller's congestion controller
 * @streams: the caller's stream table
 * @probe_done: called when a PLPMTUD probe packet was acknowledged
 *	(@acked true) or declared lost; may be NULL
 * @stream_acked: called when the sending part of a stream reached a
 *	terminal state: every byte and the FIN acknowledged (Data Recvd), or
 *	its RESET_STREAM acknowledged (Reset Recvd); may release the stream;
 *	may be NULL
 * @streams_list: streams with state in the queue
 * @active: streams with data not sent yet, in round robin order
 * @datagrams: DATAGRAM frames not sent yet
 * @max_data: the peer's connection flow control limit (RFC 9000 Section 4.1)
 * @data_sent: stream bytes sent for the first time, the credit used
 * @data_blocked_at: limit for which DATA_BLOCKED was queued, plus one
 * @recv_max_data: largest MAX_DATA value queued, resent when one is lost
 * @wmem: bytes of STREAM and DATAGRAM data queued and not released yet
 * @ctrl_held: answers to the peer held, at most %QUIC_OUTQ_CTRL_MAX
 * @retire_held: of those, RETIRE_CONNECTION_ID frames
 * @ack_delay_exponent: our ack_delay_exponent, for the ACK frames we send
 * @nagle_pn: Application packet that last carried new stream data and left
 *	room unused, -1 for none: while it is unacknowledged, a sender using
 *	Nagle's algorithm holds back writes too short to fill a packet
 * @corked: the application's latest stream write had MSG_MORE: new stream
 *	data too short to fill a packet waits for a write without it, FIN or
 *	not (draft-lxin-quic-socket-apis, sendmsg() flags), Nagle or not
 * @is_serv: we are the server
 * @hs_keys: client: Handshake keys are installed (anti-deadlock PTO space)
 * @peer_validated: PeerCompletedAddressValidation() of RFC 9002 Appendix A.8
 * @confirmed: the handshake is confirmed (RFC 9001 Section 4.1.2)
 * @amp_limited: server: the anti-amplification limit blocks sending
 * @black_hole: the path may have stopped carrying the PLPMTU (RFC 8899
 *	Section 4.3): persistent congestion was declared in the application
 *	space over packets all larger than BASE_PLPMTU, or its PTO expired
 *	MAX_PROBES times in a row; the sender reads and clears it with
 *	quic_outq_take_black_hole()
 * @ecn_mark: the datagram being built is marked ECT(0) (set by the sender)
 * @ecn_state: &enum quic_ecn_state of the path
 * @ecn_tested: packets marked while testing
 * @ecn_lost: of those, the ones declared lost
 * @ack_info: scratch space for the ACK frame being written
 */
struct quic_outq {
	struct quic_outq_space spaces[QUIC_PNSPACE_MAX];
	struct quic_pnspace *pnspace;
	struct quic_cong *cong;
	struct quic_stream_table *streams;
	void (*stream_acked)(struct quic_outq *outq, struct quic_stream *s);
	void (*probe_done)(struct quic_outq *outq, s64 pn, bool acked);

	struct list_head streams_list;
	struct list_head active;
	struct list_head datagrams;

	u64 max_data;
	u64 data_sent;
	u64 data_blocked_at;
	u64 recv_max_data;
	u64 wmem;
	u32 ctrl_held;
	u32 retire_held;
	s64 nagle_pn;
	u8 ack_delay_exponent;

	u8 corked:1;
	u8 is_serv:1;
	u8 hs_keys:1;
	u8 peer_validated:1;
	u8 confirmed:1;
	u8 amp_limited:1;
	u8 black_hole:1;
	u8 ecn_mark:1;
	u8 ecn_state;
	u8 ecn_tested;
	u8 ecn_lost;

	struct quic_ack_info ack_info;
};

/**
 * enum quic_outq_timer - what quic_outq_loss_timeout() did
 * @QUIC_OUTQ_TIMER_NONE: nothing was due
 * @QUIC_OUTQ_TIMER_LOSS: packets were declared lost by the time threshold
 * @QUIC_OUTQ_TIMER_PTO: a probe timeout: send a probe packet at the level reported
 */
enum quic_outq_timer {
	QUIC_OUTQ_TIMER_NONE,
	QUIC_OUTQ_TIMER_LOSS,
	QUIC_OUTQ_TIMER_PTO,
};

/**
 * struct quic_outq_tx - one packet payload to fill
 * @level: encryption level of the packet (&enum quic_crypto_level)
 * @buf: where the payload goes
 * @room: bytes available at @buf
 * @overhead: bytes the caller adds around the payload (header, AEAD tag);
 *	counted in the packet's size for congestion control
 * @min_len: pad the payload with PADDING to this length when anything is
 *	sent (client Initial packets, RFC 9000 Section 14.1); 0 for none
 * @min_eliciting: pad to this length only an ack-eliciting payload; a
 *	packet of ACK frames alone is left as it is, since PADDING would put
 *	it in flight (RFC 9002 Section 2) with nothing to ever acknowledge it
 * @pmtu_probe: the packet is a PLPMTUD probe: a PING padded to @min_len,
 *	nothing else, whatever the congestion window
 * @ack_only: write the ACK frame owed and nothing else (no PTO probe, no
 *	PING): the pacer holds everything else back
 * @nagle: apply Nagle's algorithm to new stream data (the socket's
 *	stream_data_nodelay is off); see quic_outq_fill()
 * @now: send time, microseconds
 * @pn: out: the packet number taken from the space (valid if @len)
 * @len: out: payload bytes written; 0 when there was nothing to send
 * @ack_eliciting: out: the packet is ack-eliciting
 * @in_flight: out: the packet counts toward bytes in flight
 * @resent: out: frames of lost packets the packet carries again
 */
struct quic_outq_tx {
	u8 level;
	u8 *buf;
	u32 room;
	u32 overhead;
	u32 min_len;
	u32 min_eliciting;
	bool pmtu_probe;
	bool ack_only;
	bool nagle;
	u64 now;
	s64 pn;
	u32 len;
	bool ack_eliciting;
	bool in_flight;
	u32 resent;
};

/* A PLPMTU black hole was noticed since the last call (see @black_hole
 * of &struct quic_outq).
 */
static inline bool quic_outq_take_black_hole(struct quic_outq *outq)
{
	bool seen = outq->black_hole;

	outq->black_hole = 0;
	return seen;
}

/* RETIRE_CONNECTION_ID frames not acknowledged yet (RFC 9000 Section 5.1.2). */
static inline u32 quic_outq_retire_held(const struct quic_outq *outq)
{
	return outq->retire_held;
}

/* Bytes of STREAM and DATAGRAM data the queue holds: stream writes wait
 * while it is at SO_SNDBUF (socket memory is not charged from it).
 */
static inline u64 quic_outq_wmem(const struct quic_outq *outq)
{
	return outq->wmem;
}

static inline u64 quic_outq_max_data(const struct quic_outq *outq)
{
	return outq->max_data;
}

static inline u64 quic_outq_data_sent(const struct quic_outq *outq)
{
	return outq->data_sent;
}

/* Inputs of the loss detection timer (RFC 9002 Appendix A.8). */
static inline void quic_outq_set_hs_keys(struct quic_outq *outq)
{
	outq->hs_keys = 1;
}

/* The address is validated (a server: its client's; RFC 9002 Appendix
 * A.6): the amplification limit, and the PTO it held back (Section
 * 6.2.2.1), are gone for good.
 */
static inline void quic_outq_set_peer_validated(struct quic_outq *outq)
{
	outq->peer_validated = 1;
	outq->amp_limited = 0;
}

static inline void quic_outq_set_confirmed(struct quic_outq *outq)
{
	outq->confirmed = 1;
	outq->peer_validated = 1;
}

static inline void quic_outq_set_amp_limited(struct quic_outq *outq, bool limited)
{
	outq->amp_limited = limited;
}

/* RFC 9000 Sections 9.4 and 13.4.2: a new path may not carry ECN as the
 * old one did: validate it again from the start.
 */
static inline void quic_outq_ecn_restart(struct quic_outq *outq)
{
	outq->ecn_state = QUIC_ECN_TESTING;
	outq->ecn_tested = 0;
	outq->ecn_lost = 0;
}

/* True when a PTO probe is waiting to be sent in the space of @level. */
static inline bool quic_outq_probe_pending(const struct quic_outq *outq, u8 level)
{
	return outq->spaces[quic_pnspace_index(level)].probe;
}

/* Setup and teardown (outqueue.c) */
/**
 * quic_outq_ecn_mark - whether the next datagram is marked ECT(0)
 * @outq: the queue
 *
 * Return: true while testing (up to %QUIC_ECN_TEST_PACKETS) and once the
 * path was found ECN-capable (RFC 9000 Section 13.4.2).
 */
static inline bool quic_outq_ecn_mark(const struct quic_outq *outq)
{
	return outq->ecn_state == QUIC_ECN_CAPABLE ||
	       (outq->ecn_state == QUIC_ECN_TESTING && outq->ecn_tested < QUIC_ECN_TEST_PACKETS);
}

void quic_outq_init(struct quic_outq *outq, struct quic_pnspace *pnspace,
		    struct quic_cong *cong, struct quic_stream_table *streams, bool is_serv);
void quic_outq_free(struct quic_outq *outq);
void quic_outq_set_ack_delay_exponent(struct quic_outq *outq, u8 exponent);

/* Queueing (outqueue.c) */
int quic_outq_ctrl_append(struct quic_outq *outq, u8 level, const struct quic_frame *f,
			  gfp_t gfp);
int quic_outq_crypto_append(struct quic_outq *outq, u8 level, const u8 *data, u32 len,
			    gfp_t gfp);
int quic_outq_stream_append(struct quic_outq *outq, struct quic_stream *s, const u8 *data,
			    u32 len, bool fin, gfp_t gfp);
int quic_outq_stream_append_iter(struct quic_outq *outq, struct quic_stream *s,
				 struct iov_iter *from, u32 len, bool fin, gfp_t gfp);
int quic_outq_datagram_append(struct quic_outq *outq, const u8 *data, u32 len, gfp_t gfp);
int quic_outq_datagram_append_iter(struct quic_outq *outq, struct iov_iter *from, u32 len,
				   gfp_t gfp);
u64 quic_outq_unsent(const struct quic_outq *outq);
void quic_outq_stream_purge(struct quic_outq *outq, struct quic_stream *s);
bool quic_outq_has_data(const struct quic_outq *outq, u8 level);
bool quic_outq_path_frame_pending(const struct quic_outq *outq);

/* Send-side flow control (outqueue.c) */
bool quic_outq_set_max_data(struct quic_outq *outq, u64 max);
bool quic_outq_set_max_stream_data(struct quic_outq *outq, struct quic_stream *s, u64 max);

/* Packet filling (outqueue.c) */
int quic_outq_fill(struct quic_outq *outq, struct quic_outq_tx *tx, gfp_t gfp);

/* Shared by outqueue.c and recovery.c */
void quic_outq_frame_free(struct quic_outq *outq, struct quic_outq_frame *fr);
void quic_outq_frames_free(struct quic_outq *outq, struct list_head *head);
void quic_outq_packet_free(struct quic_outq *outq, struct quic_outq_packet *pkt);
void quic_outq_frame_acked(struct quic_outq *outq, struct quic_outq_frame *fr);
void quic_outq_frame_lost(struct quic_outq *outq, struct quic_outq_frame *fr,
			  struct list_head *requeue);

/* Acknowledgments, loss detection, timer, discard (recovery.c) */
int quic_outq_on_ack(struct quic_outq *outq, u8 level, const struct quic_frame *f,
		     u64 ack_delay, u64 now);
u64 quic_outq_loss_timer(const struct quic_outq *outq, u64 now, u8 *level);
int quic_outq_loss_timeout(struct quic_outq *outq, u64 now, u8 *level);
void quic_outq_discard_space(struct quic_outq *outq, u8 level);
void quic_outq_retry(struct quic_outq *outq);
void quic_outq_early_rejected(struct quic_outq *outq);
void quic_outq_abandon(struct quic_outq *outq);
void quic_outq_data_drop(struct quic_outq *outq);

#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
const char *quic_outq_invariant(const struct quic_outq *outq);
#else
static inline const char *quic_outq_invariant(const struct quic_outq *outq)
{
	return NULL;
}
#endif

#endif /* __net_quic_outqueue_h__ */
