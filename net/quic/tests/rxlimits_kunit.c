// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_rx_limits: what a peer can make a live connection hold
 * or do, the error that ends it when a limit is crossed, and the packets
 * it must discard.
 *
 * Each case writes packets as the server of a connection between two
 * kernel sockets and hands them to the client's receive path (rx_util.c);
 * the client's own datagrams are lost, so nothing but the case's packets
 * reaches it. The handshake cases write Initial packets to a client, or
 * as the client to a server, the other end's datagrams lost. Transport
 * error codes are those of RFC 9000 Section 20.1.
 */

#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <net/sock.h>

#include "../connid.h"
#include "../frame.h"
#include "../inqueue.h"
#include "../packet.h"
#include "../param.h"
#include "../path.h"
#include "../pnspace.h"
#include "../protocol.h"
#include "../socket.h"
#include "../stream.h"
#include "../timer.h"
#include "../transmit.h"
#include "rx_util.h"
#include "util.h"

#define LIM_PORT	63440

static const struct conn_case lim_case = {
	"IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

/* A STREAM frame with Offset and Length of @n bytes of @c. */
static void lim_stream(struct rx_buf *b, u64 id, u64 off, u8 c, u32 n)
{
	rx_buf_var(b, QUIC_FRAME_STREAM | 0x04 | 0x02);
	rx_buf_var(b, id);
	rx_buf_var(b, off);
	rx_buf_var(b, n);
	rx_buf_fill(b, c, n);
}

static void lim_send(struct rx_conn *rc, const struct rx_buf *b)
{
	rx_conn_send(rc, b->data, b->len);
}

/* Stream @id bytes @off to @off + @n of @want in one packet. */
static void lim_send_data(struct rx_conn *rc, u64 id, u32 off, const u8 *want, u32 n, bool fin)
{
	struct rx_buf b = {};

	rx_buf_var(&b, QUIC_FRAME_STREAM | 0x04 | 0x02 | (fin ? 0x01 : 0));
	rx_buf_var(&b, id);
	rx_buf_var(&b, off);
	rx_buf_var(&b, n);
	rx_buf_bytes(&b, want + off, n);
	lim_send(rc, &b);
}

/* Control frames of type @type (0: any) the client's send queue holds
 * in its Application space: waiting, in packets in flight, or waiting to
 * be sent again.
 */
static u32 lim_ctrl_held(struct rx_conn *rc, u8 type)
{
	u8 idx = quic_pnspace_index(QUIC_CRYPTO_APP);
	struct quic_outq_space *sp = &quic_outq(rc->sk)->spaces[idx];
	struct list_head *lists[] = { &sp->ctrl, &sp->retrans };
	struct quic_outq_packet *pkt;
	struct quic_outq_frame *fr;
	u32 i, n = 0;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		list_for_each_entry(fr, lists[i], list)
			n += type ? fr->type == type : fr->type != QUIC_FRAME_STREAM;
	list_for_each_entry(pkt, &sp->sent, list)
		list_for_each_entry(fr, &pkt->frames, list)
			n += type ? fr->type == type : fr->type != QUIC_FRAME_STREAM;
	return n;
}

static struct rx_conn *lim_open(struct kunit *test)
{
	struct rx_conn *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rx_conn_setup(test, rc, &lim_case, LIM_PORT);
	rx_conn_open(rc);
	return rc;
}

static void lim_expect_closed(struct kunit *test, struct rx_conn *rc, u64 want)
{
	u64 code;

	KUNIT_ASSERT_TRUE(test, rx_conn_closed(rc, &code));
	KUNIT_EXPECT_EQ(test, code, want);
}

static void lim_expect_open(struct kunit *test, struct rx_conn *rc)
{
	u64 code;

	KUNIT_EXPECT_FALSE(test, rx_conn_closed(rc, &code));
}

/* Read @len bytes of stream @id from the client and compare them. */
static void lim_expect_data(struct kunit *test, struct rx_conn *rc, s64 id, const u8 *want,
			    u32 len)
{
	conn_expect_stream(test, rc->p.client, id, want, len);
}

/* RFC 9000 Section 7.5: post-handshake CRYPTO data beyond what the
 * endpoint buffers is CRYPTO_BUFFER_EXCEEDED, not a reason to hold it.
 */
static void lim_crypto_far_ahead_is_crypto_buffer_exceeded(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct rx_buf b = {};

	rx_buf_var(&b, QUIC_FRAME_CRYPTO);
	rx_buf_var(&b, 1 << 20);
	rx_buf_var(&b, 16);
	rx_buf_fill(&b, 0x04, 16);
	lim_send(rc, &b);
	lim_expect_closed(test, rc, QUIC_TRANSPORT_ERROR_CRYPTO_BUF_EXCEEDED);
}

/* RFC 9000 Section 19.3.1: an ACK Range Count larger than the frame can
 * hold is a FRAME_ENCODING_ERROR found without walking the count.
 */
static void lim_ack_range_count_beyond_the_packet_is_frame_encoding_error(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct rx_buf b = {};

	rx_buf_var(&b, QUIC_FRAME_ACK);
	rx_buf_var(&b, 0);
	rx_buf_var(&b, 0);
	rx_buf_var(&b, BIT_ULL(62) - 1);
	rx_buf_var(&b, 0);
	lim_send(rc, &b);
	lim_expect_closed(test, rc, QUIC_TRANSPORT_ERROR_FRAME_ENCODING);
}

/* RFC 9000 Section 13.1: acknowledging a packet never sent. */
static void lim_ack_of_a_never_sent_packet_is_protocol_violation(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct rx_buf b = {};

	rx_buf_var(&b, QUIC_FRAME_ACK);
	rx_buf_var(&b, quic_pnspace(rc->sk, QUIC_CRYPTO_APP)->next_pn + 100000);
	rx_buf_var(&b, 0);
	rx_buf_var(&b, 0);
	rx_buf_var(&b, 0);
	lim_send(rc, &b);
	lim_expect_closed(test, rc, QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);
}

/* RFC 9000 Section 5.1.1: more connection IDs than the client's
 * active_connection_id_limit is CONNECTION_ID_LIMIT_ERROR.
 */
static void lim_new_connection_ids_beyond_the_limit(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	u8 limit = quic_local_param(rc->sk)->active_connection_id_limit;
	u64 seq = quic_dest(rc->sk)->next_number;
	u32 sent = 0;
	u8 cid[8];

	/* Up to the limit the IDs are taken; one more ends the connection. */
	while (quic_is_established(rc->sk) && sent <= limit) {
		struct rx_buf b = {};

		memset(cid, 0x30 + sent, sizeof(cid));
		rx_buf_var(&b, QUIC_FRAME_NEW_CONNECTION_ID);
		rx_buf_var(&b, seq + sent);
		rx_buf_var(&b, 0);
		rx_buf_var(&b, sizeof(cid));
		rx_buf_bytes(&b, cid, sizeof(cid));
		rx_buf_fill(&b, 0x40 + sent, QUIC_CONN_ID_TOKEN_LEN);
		lim_send(rc, &b);
		sent++;
	}
	lim_expect_closed(test, rc, QUIC_TRANSPORT_ERROR_CONNECTION_ID_LIMIT);
	KUNIT_EXPECT_EQ(test, seq + sent, (u64)limit + 1);
}

/* RFC 9000 Section 4.6: a stream beyond the client's max_streams_bidi. */
static void lim_stream_beyond_max_streams_is_stream_limit_error(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	u16 max = quic_local_param(rc->sk)->max_streams_bidi;
	struct rx_buf b = {};

	/* The last stream allowed opens; the next one is over the limit. */
	lim_stream(&b, 4ULL * (max - 1) + 1, 0, 'a', 4);
	lim_send(rc, &b);
	lim_expect_open(test, rc);
	b.len = 0;
	lim_stream(&b, 4ULL * max + 1, 0, 'b', 4);
	lim_send(rc, &b);
	lim_expect_closed(test, rc, QUIC_TRANSPORT_ERROR_STREAM_LIMIT);
}

/* RFC 9000 Section 4.1: data past the stream's flow control limit. */
static void lim_stream_data_past_the_window_is_flow_control_error(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	u64 max = quic_local_param(rc->sk)->max_stream_data_bidi_remote;
	struct rx_buf b = {};

	lim_stream(&b, 1, max - 4, 'a', 4);
	lim_send(rc, &b);
	lim_expect_open(test, rc);
	b.len = 0;
	lim_stream(&b, 1, max, 'b', 1);
	lim_send(rc, &b);
	lim_expect_closed(test, rc, QUIC_TRANSPORT_ERROR_FLOW_CONTROL);
}

/*
 * Out-of-order data leaving tens of thousands of gaps: the receive queue
 * never holds more than its limit (chunk headers are charged, so one-byte
 * pieces run into it quickly; packets beyond it are dropped unacknowledged
 * for the peer to resend, RFC 9000 Section 13.2.1), and once the peer
 * resends what the reader still misses, the stream completes.
 */
static void lim_stream_gaps_stay_within_the_receive_buffer(struct kunit *test)
{
	const u32 gaps = 50000, per_pkt = 120;
	struct rx_conn *rc = lim_open(test);
	struct quic_inq *inq = quic_inq(rc->sk);
	u32 i, peak = 0, len = 2 * gaps, got = 0, rounds = 0;
	struct quic_stream_info si = {};
	u8 *want, *buf;
	int ret;

	KUNIT_ASSERT_GE(test, quic_local_param(rc->sk)->max_stream_data_bidi_remote, len);
	want = kunit_kmalloc(test, len, GFP_KERNEL);
	buf = kunit_kzalloc(test, len + 1, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, want && buf);
	for (i = 0; i < len; i++)
		want[i] = 'a' + i % 26;

	/* Every even byte, one-byte frames: a gap after each. */
	for (i = 0; i < gaps; i += per_pkt) {
		struct rx_buf b = {};
		u32 j;

		for (j = i; j < i + per_pkt && j < gaps; j++)
			lim_stream(&b, 1, 2 * j, want[2 * j], 1);
		lim_send(rc, &b);
		peak = max(peak, quic_inq_rmem(inq));
	}
	lim_expect_open(test, rc);
	KUNIT_EXPECT_LE(test, peak, inq->rcvbuf);
	kunit_info(test, "%u gaps: the receive queue peaked at %u bytes, its limit %u\n", gaps,
		   peak, inq->rcvbuf);

	/* The peer resends from where the reader stands, a few packets at a
	 * time, until the FIN is read.
	 */
	rc->sk->sk_rcvtimeo = 0;
	while (!(si.stream_flags & MSG_STREAM_FIN) && rounds++ < 2 * len / 1000 + 100) {
		u32 off = got - got % 1000, n;

		for (n = 0; n < 4 && off < len; n++, off += 1000)
			lim_send_data(rc, 1, off, want, min_t(u32, 1000, len - off),
				      off + 1000 >= len);
		peak = max(peak, quic_inq_rmem(inq));
		do {
			ret = conn_recv(rc->p.client, QUIC_STREAM_INFO, &si, sizeof(si), buf + got,
					len + 1 - got);
			if (ret > 0)
				got += ret;
		} while (ret > 0 && !(si.stream_flags & MSG_STREAM_FIN));
		KUNIT_ASSERT_TRUE(test, ret >= 0 || ret == -EAGAIN);
	}
	lim_expect_open(test, rc);
	KUNIT_EXPECT_TRUE(test, si.stream_flags & MSG_STREAM_FIN);
	KUNIT_ASSERT_EQ(test, got, len);
	KUNIT_EXPECT_MEMEQ(test, buf, want, len);
	/* In-order data may use the room kept above the limit. */
	KUNIT_EXPECT_LE(test, peak, inq->rcvbuf + max(inq->rcvbuf / 2, 64 * 1024));
	kunit_info(test, "resent in %u rounds; the queue peaked at %u bytes\n", rounds, peak);
}

/*
 * RFC 9000 Section 12.3 and RFC 9002 Section 6: 10,000 consecutive
 * packets lost (more than the 4,096 some receivers track). The packet
 * after the burst is taken, a late one from inside it does no harm, and
 * the data the burst carried completes the stream when it is resent.
 */
static void lim_loss_burst_of_ten_thousand_packets(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct quic_pnspace *space = quic_pnspace(rc->sk, QUIC_CRYPTO_APP);
	s64 after, resume;
	u8 want[40];
	u32 i;

	for (i = 0; i < sizeof(want); i++)
		want[i] = 'k' + i % 10;
	lim_send_data(rc, 1, 0, want, 10, false);
	rc->pn += 10000;
	after = rc->pn;
	lim_send_data(rc, 1, 30, want, 10, true);
	KUNIT_EXPECT_EQ(test, space->max_pn_seen, after);

	/* One of the lost packets, late: taken or dropped, never harmful. */
	resume = rc->pn;
	rc->pn = after - 5000;
	lim_send_data(rc, 1, 10, want, 10, false);
	rc->pn = resume;
	lim_expect_open(test, rc);
	KUNIT_EXPECT_EQ(test, space->max_pn_seen, after);

	/* The rest resent in new packets, as loss recovery would. */
	lim_send_data(rc, 1, 10, want, 10, false);
	lim_send_data(rc, 1, 20, want, 10, false);
	lim_expect_open(test, rc);
	lim_expect_data(test, rc, 1, want, sizeof(want));
}

/* RFC 9000 Section 8.2.2: every PATH_CHALLENGE is answered, but a flood
 * of them holds nothing: the connection stays up with its send queue
 * within the send buffer.
 */
static void lim_path_challenge_flood_holds_nothing(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	u32 i, j, before = rx_conn_sent();

	for (i = 0; i < 500; i++) {
		struct rx_buf b = {};

		for (j = 0; j < 40; j++) {
			rx_buf_var(&b, QUIC_FRAME_PATH_CHALLENGE);
			rx_buf_fill(&b, i + j, QUIC_FRAME_PATH_DATA_LEN);
		}
		lim_send(rc, &b);
	}
	lim_expect_open(test, rc);
	KUNIT_EXPECT_LE(test, quic_outq_wmem(quic_outq(rc->sk)), READ_ONCE(rc->sk->sk_sndbuf));
	/* Answered: the client did transmit. */
	KUNIT_EXPECT_GT(test, rx_conn_sent(), before);
	/* With the window full, only the newest answer waits (RFC 9000
	 * Section 8.2.2: the peer challenges again if it still wants one).
	 */
	KUNIT_EXPECT_LE(test, lim_ctrl_held(rc, QUIC_FRAME_PATH_RESPONSE), 1U);
	KUNIT_EXPECT_LE(test, lim_ctrl_held(rc, 0), 16U);
}

/*
 * RFC 9000 Section 5.1.2: a peer raising Retire Prior To in every
 * NEW_CONNECTION_ID while it acknowledges nothing makes the client hold a
 * RETIRE_CONNECTION_ID per ID. Past a bound of at least twice the
 * client's active_connection_id_limit retirements unacknowledged, the
 * connection ends with CONNECTION_ID_LIMIT_ERROR instead of holding more.
 */
static void lim_retire_churn_without_acks_is_connection_id_limit_error(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	u8 limit = quic_local_param(rc->sk)->active_connection_id_limit;
	u64 seq = quic_dest(rc->sk)->next_number;
	u32 sent = 0;
	u8 cid[8];

	while (quic_is_established(rc->sk) && sent < 1000) {
		struct rx_buf b = {};

		memset(cid, sent, sizeof(cid));
		cid[0] = 0x77;
		rx_buf_var(&b, QUIC_FRAME_NEW_CONNECTION_ID);
		rx_buf_var(&b, seq + sent);
		rx_buf_var(&b, seq + sent);	/* every earlier one retired */
		rx_buf_var(&b, sizeof(cid));
		rx_buf_bytes(&b, cid, sizeof(cid));
		rx_buf_fill(&b, sent, QUIC_CONN_ID_TOKEN_LEN);
		lim_send(rc, &b);
		sent++;
		KUNIT_ASSERT_LE(test, lim_ctrl_held(rc, QUIC_FRAME_RETIRE_CONNECTION_ID),
				2U * limit + 16);
	}
	lim_expect_closed(test, rc, QUIC_TRANSPORT_ERROR_CONNECTION_ID_LIMIT);
	KUNIT_EXPECT_GE(test, sent, 2U * limit);
}

/* Whether the client holds a RETIRE_CONNECTION_ID frame for @number. */
static bool lim_retire_held(struct rx_conn *rc, u64 number)
{
	u8 idx = quic_pnspace_index(QUIC_CRYPTO_APP);
	struct quic_outq_space *sp = &quic_outq(rc->sk)->spaces[idx];
	struct list_head *lists[] = { &sp->ctrl, &sp->retrans };
	struct quic_outq_packet *pkt;
	struct quic_outq_frame *fr;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		list_for_each_entry(fr, lists[i], list)
			if (fr->type == QUIC_FRAME_RETIRE_CONNECTION_ID && fr->f.seqno == number)
				return true;
	list_for_each_entry(pkt, &sp->sent, list)
		list_for_each_entry(fr, &pkt->frames, list)
			if (fr->type == QUIC_FRAME_RETIRE_CONNECTION_ID && fr->f.seqno == number)
				return true;
	return false;
}

/*
 * RFC 9000 Section 5.1.2: an ID is never forgotten without being retired.
 * Retire Prior To jumps by 40: every ID of the server's the client held
 * is retired, however far below the new value it lies. Section 19.15: a
 * NEW_CONNECTION_ID arriving late, below Retire Prior To, is retired too.
 */
static void lim_retire_prior_to_jump_retires_every_id_held(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct quic_conn_id_set *set = quic_dest(rc->sk);
	struct quic_conn_id_entry *e;
	u64 held[8], jump;
	u32 n = 0, i;
	u8 cid[8];

	list_for_each_entry(e, &set->head, list)
		if (n < ARRAY_SIZE(held))
			held[n++] = e->number;
	KUNIT_ASSERT_GT(test, n, 0U);
	jump = set->next_number + 40;

	{
		struct rx_buf b = {};

		memset(cid, 0x61, sizeof(cid));
		rx_buf_var(&b, QUIC_FRAME_NEW_CONNECTION_ID);
		rx_buf_var(&b, jump);
		rx_buf_var(&b, jump);
		rx_buf_var(&b, sizeof(cid));
		rx_buf_bytes(&b, cid, sizeof(cid));
		rx_buf_fill(&b, 0x62, QUIC_CONN_ID_TOKEN_LEN);
		lim_send(rc, &b);
	}
	lim_expect_open(test, rc);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE_MSG(test, lim_retire_held(rc, held[i]), "ID %llu", held[i]);

	/* A late one, far below the new Retire Prior To. */
	{
		struct rx_buf b = {};

		memset(cid, 0x63, sizeof(cid));
		rx_buf_var(&b, QUIC_FRAME_NEW_CONNECTION_ID);
		rx_buf_var(&b, held[n - 1] + 1);
		rx_buf_var(&b, 0);
		rx_buf_var(&b, sizeof(cid));
		rx_buf_bytes(&b, cid, sizeof(cid));
		rx_buf_fill(&b, 0x64, QUIC_CONN_ID_TOKEN_LEN);
		lim_send(rc, &b);
	}
	lim_expect_open(test, rc);
	KUNIT_EXPECT_TRUE(test, lim_retire_held(rc, held[n - 1] + 1));
}

/*
 * RFC 9000 Section 21.9: a peer retiring our connection IDs over and over
 * while it acknowledges nothing makes us mint a NEW_CONNECTION_ID for each.
 * The send queue holds a bounded number of control frames; past it the
 * connection ends with PROTOCOL_VIOLATION.
 */
static void lim_retire_of_our_ids_without_acks_is_bounded(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct quic_conn_id_set *set = quic_source(rc->sk);
	u32 sent = 0;

	while (quic_is_established(rc->sk) && sent < 5000) {
		struct quic_conn_id_entry *last;
		struct rx_buf b = {};

		/* The newest: the packets go to the oldest (rx_conn_pick_dcid()). */
		last = list_last_entry(&set->head, struct quic_conn_id_entry, list);
		rx_buf_var(&b, QUIC_FRAME_RETIRE_CONNECTION_ID);
		rx_buf_var(&b, last->number);
		lim_send(rc, &b);
		sent++;
		/* The answers are bounded; our own control frames are few. */
		KUNIT_ASSERT_LE(test, quic_outq(rc->sk)->ctrl_held, (u32)QUIC_OUTQ_CTRL_MAX);
		KUNIT_ASSERT_LE(test, lim_ctrl_held(rc, 0), (u32)QUIC_OUTQ_CTRL_MAX + 16);
	}
	lim_expect_closed(test, rc, QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);
}

/*
 * RFC 9221 Section 5: a receiver may drop a DATAGRAM frame it has no room
 * for, but the packet that carried it is still processed and acknowledged:
 * the STREAM frame after the dropped datagram is delivered, and the
 * packet number is recorded as received.
 */
static void lim_dropped_datagram_keeps_its_packet(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct quic_pnspace *space = quic_pnspace(rc->sk, QUIC_CRYPTO_APP);
	struct rx_buf b = {};
	s64 pn;

	lock_sock(rc->sk);
	quic_local_param(rc->sk)->max_datagram_frame_size = 1200;
	quic_inq(rc->sk)->dgram_max = 0;	/* every datagram is dropped */
	release_sock(rc->sk);

	rx_buf_var(&b, QUIC_FRAME_DATAGRAM_LEN);
	rx_buf_var(&b, 4);
	rx_buf_bytes(&b, "lost", 4);
	rx_buf_var(&b, QUIC_FRAME_STREAM | 0x04 | 0x02 | 0x01);	/* with the FIN */
	rx_buf_var(&b, 1);
	rx_buf_var(&b, 0);
	rx_buf_var(&b, 8);
	rx_buf_fill(&b, 'd', 8);
	pn = rc->pn;
	lim_send(rc, &b);

	lim_expect_open(test, rc);
	KUNIT_EXPECT_EQ(test, space->max_pn_seen, pn);
	KUNIT_EXPECT_EQ(test, quic_inq_dgram_drops(quic_inq(rc->sk)), 1ULL);
	lim_expect_data(test, rc, 1, (const u8 *)"dddddddd", 8);
}

/*
 * RFC 9002 Section 7.7: "packets containing only ACK frames SHOULD
 * therefore not be paced". With the pacer holding the client's next
 * datagram back for a second, the acknowledgment owed for every second
 * packet (RFC 9000 Section 13.2.2) still leaves at once.
 */
static void lim_ack_leaves_while_the_pacer_holds_data(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct rx_buf b = {};
	struct quic_cong *cong;
	u32 sent;

	rx_buf_var(&b, QUIC_FRAME_PING);
	lock_sock(rc->sk);
	cong = quic_cong(rc->sk);
	/* As on a path with a 1 s RTT, where a pacer a second ahead is within
	 * its bound (a few dozen full-size gaps, transmit.c's invariant).
	 */
	cong->smoothed_rtt = USEC_PER_SEC;
	cong->rtt_sampled = true;
	cong->pacing_time = (quic_time_us() + USEC_PER_SEC) * NSEC_PER_USEC;
	release_sock(rc->sk);
	sent = rx_conn_sent();
	lim_send(rc, &b);
	lim_send(rc, &b);
	KUNIT_EXPECT_GT(test, rx_conn_sent(), sent);
	lim_expect_open(test, rc);
}

/* Acknowledge every packet the client sent so far. */
static void lim_ack_all(struct rx_conn *rc)
{
	s64 next = quic_pnspace(rc->sk, QUIC_CRYPTO_APP)->next_pn;
	struct rx_buf b = {};

	if (next <= 0)
		return;
	rx_buf_var(&b, QUIC_FRAME_ACK);
	rx_buf_var(&b, next - 1);
	rx_buf_var(&b, 0);
	rx_buf_var(&b, 0);
	rx_buf_var(&b, next - 1);
	lim_send(rc, &b);
}

/*
 * RFC 9000 Section 10.1: "An endpoint also restarts its idle timer when
 * sending an ack-eliciting packet if no other ack-eliciting packets have
 * been sent since last receiving and processing a packet." The client
 * receives a PING, stays quiet half a second (nothing of its own in
 * flight, so no probe), then sends stream data: the idle timeout runs
 * from that send, not from the PING.
 */
static void lim_idle_timer_restarts_on_the_first_ack_eliciting_send(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct timer_list *idle = &quic_timers(rc->sk)->timer[QUIC_TIMER_IDLE];
	unsigned long rcvd, after_rcv, before_send, sent;
	struct rx_buf b = {};

	lim_ack_all(rc);
	rx_buf_var(&b, QUIC_FRAME_PING);
	lim_send(rc, &b);
	after_rcv = jiffies;
	rcvd = READ_ONCE(idle->expires);
	KUNIT_ASSERT_TRUE(test, timer_pending(idle));

	msleep(500);
	before_send = jiffies;
	KUNIT_ASSERT_EQ(test, conn_send_stream(rc->p.client, 0, MSG_STREAM_NEW, "idle", 4), 4);
	sent = READ_ONCE(idle->expires);
	/* The whole timeout from the send: at least what was left of it
	 * just after the PING.
	 */
	KUNIT_EXPECT_TRUE(test, timer_pending(idle));
	KUNIT_EXPECT_GE(test, sent - before_send, rcvd - after_rcv);
	lim_expect_open(test, rc);
}

/*
 * RFC 9000 Section 4.1: a peer that never raises its limits. With every
 * packet acknowledged, the writer is held back by flow control alone; it
 * then blocks until its timeout instead of spinning, and the client sends
 * next to nothing while it waits.
 */
static void lim_writer_blocked_by_flow_control_sleeps(struct kunit *test)
{
	const u32 chunk = 64 * 1024;
	struct rx_conn *rc = lim_open(test);
	u32 total = 0, idle = 0, sent;
	unsigned long start;
	u32 flags = MSG_STREAM_NEW;
	u8 *data;
	int ret;

	data = kunit_kzalloc(test, chunk, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	/* Fill without waiting; acknowledge whatever went out; again, until
	 * nothing more is taken for a while (pacing spreads the packets).
	 */
	rc->sk->sk_sndtimeo = 0;
	while (idle < 20 && total < 64 * 1024 * 1024) {
		ret = conn_send_stream(rc->p.client, 0, flags, data, chunk);
		if (ret > 0) {
			total += ret;
			flags = 0;
			idle = 0;
		} else {
			KUNIT_ASSERT_EQ(test, ret, -EAGAIN);
			idle++;
			msleep(20);
		}
		lim_ack_all(rc);
	}
	KUNIT_EXPECT_EQ(test, idle, 20);
	KUNIT_EXPECT_GE(test, (u64)total, quic_remote_param(rc->sk)->max_stream_data_bidi_remote);

	rc->sk->sk_sndtimeo = HZ;
	sent = rx_conn_sent();
	start = jiffies;
	ret = conn_send_stream(rc->p.client, 0, 0, data, chunk);
	sent = rx_conn_sent() - sent;
	KUNIT_EXPECT_EQ(test, ret, -EAGAIN);
	KUNIT_EXPECT_GE(test, jiffies - start, HZ / 2);
	kunit_info(test, "%u bytes taken; blocked %u ms with %u datagrams sent meanwhile\n",
		   total, jiffies_to_msecs(jiffies - start), sent);
	KUNIT_EXPECT_LT(test, sent, 10);
	lim_expect_open(test, rc);
}

/*
 * A packet that arrives while the application holds the socket waits in
 * the socket backlog and is decrypted by release_sock(); a timer that
 * expires meanwhile (here the probe timeout, RFC 9002 Section 6.2) runs
 * from release_sock() too. /proc/net/quic/snmp counts both apart from the
 * fast paths.
 */
static void lim_owned_socket_defers_to_the_backlog(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	unsigned long rcv = quic_mib_read(&init_net, QUIC_MIB_PKT_RCVBACKLOGS);
	unsigned long dec = quic_mib_read(&init_net, QUIC_MIB_PKT_DECBACKLOGS);
	unsigned long enc = quic_mib_read(&init_net, QUIC_MIB_PKT_ENCBACKLOGS);
	struct quic_pnspace *space = quic_pnspace(rc->sk, QUIC_CRYPTO_APP);
	struct rx_buf b = {};
	s64 pn = rc->pn;

	rx_buf_var(&b, QUIC_FRAME_PING);
	lock_sock(rc->sk);
	lim_send(rc, &b);
	KUNIT_EXPECT_EQ(test, quic_mib_read(&init_net, QUIC_MIB_PKT_RCVBACKLOGS), rcv + 1);
	KUNIT_EXPECT_NE(test, space->max_pn_seen, pn);
	release_sock(rc->sk);
	KUNIT_EXPECT_EQ(test, space->max_pn_seen, pn);
	KUNIT_EXPECT_EQ(test, quic_mib_read(&init_net, QUIC_MIB_PKT_DECBACKLOGS), dec + 1);

	/* Data the server never acknowledges: its probe timeout expires
	 * while the socket is held, and the probe leaves from release_sock().
	 */
	KUNIT_ASSERT_EQ(test, conn_send_stream(rc->p.client, 0, MSG_STREAM_NEW, "probe", 5), 5);
	lock_sock(rc->sk);
	msleep(1500);
	release_sock(rc->sk);
	KUNIT_EXPECT_GT(test, quic_mib_read(&init_net, QUIC_MIB_PKT_ENCBACKLOGS), enc);
	lim_expect_open(test, rc);
}

/* A client in its handshake, taking the suite's Initials as the server's. */
static struct rx_conn *lim_connect(struct kunit *test)
{
	struct rx_conn *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rx_conn_setup(test, rc, &lim_case, LIM_PORT);
	rx_conn_connect(rc);
	return rc;
}

/* A server in its handshake, taking the suite's Initials as the client's. */
static struct rx_conn *lim_accept(struct kunit *test)
{
	struct rx_conn *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rx_conn_setup(test, rc, &lim_case, LIM_PORT);
	rx_conn_accept(rc);
	return rc;
}

/* The largest Initial packet number @rc->sk processed, -1 for none. */
static s64 lim_initial_seen(struct rx_conn *rc)
{
	s64 pn;

	lock_sock(rc->sk);
	pn = quic_pnspace(rc->sk, QUIC_CRYPTO_INITIAL)->max_pn_seen;
	release_sock(rc->sk);
	return pn;
}

static const u8 lim_ping = QUIC_FRAME_PING;

/*
 * RFC 9000 Section 17.2.2: "Initial packets sent by the server MUST set
 * the Token Length field to 0; clients that receive an Initial packet
 * with a non-zero Token Length field MUST either discard the packet or
 * generate a connection error of type PROTOCOL_VIOLATION." The client
 * discards it: nothing of it is processed, not even its Source Connection
 * ID. The same packet without the token is taken.
 */
static void lim_client_discards_a_server_initial_with_a_token(struct kunit *test)
{
	static const u8 token[] = "only a client's Initial carries a token";
	struct rx_conn *rc = lim_connect(test);
	s64 pn = rc->pn;

	rx_conn_send_initial(rc, token, sizeof(token), &lim_ping, 1, 0);
	KUNIT_EXPECT_LT(test, lim_initial_seen(rc), pn);
	KUNIT_EXPECT_FALSE(test, quic_sk(rc->sk)->peer_scid_set);
	KUNIT_EXPECT_TRUE(test, quic_is_establishing(rc->sk));

	rx_conn_send_initial(rc, NULL, 0, &lim_ping, 1, 0);
	KUNIT_EXPECT_EQ(test, lim_initial_seen(rc), pn + 1);
	KUNIT_EXPECT_TRUE(test, quic_sk(rc->sk)->peer_scid_set);
}

/*
 * RFC 9000 Section 7.2: "Once a client has received a valid Initial
 * packet from the server, it MUST discard any subsequent packet it
 * receives on that connection with a different Source Connection ID."
 */
static void lim_client_discards_another_server_source_id(struct kunit *test)
{
	struct rx_conn *rc = lim_connect(test);
	struct quic_conn_id first = rc->scid;
	s64 pn = rc->pn;

	rx_conn_send_initial(rc, NULL, 0, &lim_ping, 1, 0);
	KUNIT_ASSERT_EQ(test, lim_initial_seen(rc), pn);
	KUNIT_ASSERT_TRUE(test, quic_sk(rc->sk)->peer_scid_set);

	memset(rc->scid.data, 0x6d, rc->scid.len);
	rx_conn_send_initial(rc, NULL, 0, &lim_ping, 1, 0);
	KUNIT_EXPECT_EQ(test, lim_initial_seen(rc), pn);
	KUNIT_EXPECT_MEMEQ(test, quic_sk(rc->sk)->peer_scid.data, first.data, first.len);

	/* The first server's packets are still taken. */
	rc->scid = first;
	rx_conn_send_initial(rc, NULL, 0, &lim_ping, 1, 0);
	KUNIT_EXPECT_EQ(test, lim_initial_seen(rc), pn + 2);
	KUNIT_EXPECT_TRUE(test, quic_is_establishing(rc->sk));
}

/*
 * RFC 9000 Section 7.2: a server sets its Destination Connection ID from
 * the client's first Initial; "if subsequent Initial packets include a
 * different Source Connection ID, they MUST be discarded."
 */
static void lim_server_discards_another_client_source_id(struct kunit *test)
{
	struct rx_conn *rc = lim_accept(test);
	struct quic_conn_id client = rc->scid;
	s64 pn = rc->pn;

	rx_conn_send_initial(rc, NULL, 0, &lim_ping, 1, QUIC_MIN_UDP_PAYLOAD);
	KUNIT_ASSERT_EQ(test, lim_initial_seen(rc), pn);

	memset(rc->scid.data, 0x6d, rc->scid.len);
	rx_conn_send_initial(rc, NULL, 0, &lim_ping, 1, QUIC_MIN_UDP_PAYLOAD);
	KUNIT_EXPECT_EQ(test, lim_initial_seen(rc), pn);

	rc->scid = client;
	rx_conn_send_initial(rc, NULL, 0, &lim_ping, 1, QUIC_MIN_UDP_PAYLOAD);
	KUNIT_EXPECT_EQ(test, lim_initial_seen(rc), pn + 2);
	KUNIT_EXPECT_TRUE(test, quic_is_establishing(rc->sk));
}

/*
 * RFC 9000 Section 14.1: "A server MUST discard an Initial packet that is
 * carried in a UDP datagram with a payload that is smaller than the
 * smallest allowed maximum datagram size of 1200 bytes." At an accepted
 * connection as at the listener: 1199 bytes are discarded, 1200 taken.
 */
static void lim_server_discards_an_initial_in_a_short_datagram(struct kunit *test)
{
	struct rx_conn *rc = lim_accept(test);
	s64 pn = rc->pn;

	rx_conn_send_initial(rc, NULL, 0, &lim_ping, 1, QUIC_MIN_UDP_PAYLOAD - 1);
	KUNIT_EXPECT_LT(test, lim_initial_seen(rc), pn);

	rx_conn_send_initial(rc, NULL, 0, &lim_ping, 1, QUIC_MIN_UDP_PAYLOAD);
	KUNIT_EXPECT_EQ(test, lim_initial_seen(rc), pn + 1);
	KUNIT_EXPECT_TRUE(test, quic_is_establishing(rc->sk));
}

/*
 * RFC 9000 Sections 4.6 and 19.13: a STREAM_DATA_BLOCKED frame names a
 * stream of the peer's sending part, and one beyond the limit we set is
 * STREAM_LIMIT_ERROR, as for a STREAM frame.
 */
static void lim_stream_data_blocked_beyond_max_streams_is_stream_limit_error(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	u16 max = quic_local_param(rc->sk)->max_streams_bidi;
	struct rx_buf b = {};

	rx_buf_var(&b, QUIC_FRAME_STREAM_DATA_BLOCKED);
	rx_buf_var(&b, 4ULL * (max - 1) + 1);
	rx_buf_var(&b, 0);
	lim_send(rc, &b);
	lim_expect_open(test, rc);
	b.len = 0;
	rx_buf_var(&b, QUIC_FRAME_STREAM_DATA_BLOCKED);
	rx_buf_var(&b, 4ULL * max + 1);
	rx_buf_var(&b, 0);
	lim_send(rc, &b);
	lim_expect_closed(test, rc, QUIC_TRANSPORT_ERROR_STREAM_LIMIT);
}

/* Whether a RESET_STREAM for stream @id waits to be sent, or is in flight. */
static bool lim_reset_stream_queued(struct rx_conn *rc, s64 id)
{
	struct quic_outq_space *sp;
	struct quic_outq_packet *pkt;
	struct quic_outq_frame *fr;
	bool found = false;

	lock_sock(rc->sk);
	sp = &quic_outq(rc->sk)->spaces[quic_pnspace_index(QUIC_CRYPTO_APP)];
	list_for_each_entry(fr, &sp->ctrl, list)
		found |= fr->type == QUIC_FRAME_RESET_STREAM && fr->f.reset.id == id;
	list_for_each_entry(fr, &sp->retrans, list)
		found |= fr->type == QUIC_FRAME_RESET_STREAM && fr->f.reset.id == id;
	list_for_each_entry(pkt, &sp->sent, list)
		list_for_each_entry(fr, &pkt->frames, list)
			found |= fr->type == QUIC_FRAME_RESET_STREAM && fr->f.reset.id == id;
	release_sock(rc->sk);
	return found;
}

/* Static stub of quic_outq_ctrl_append(): no memory for a control frame. */
static int lim_ctrl_append_enomem(struct quic_outq *outq, u8 level, const struct quic_frame *f,
				  gfp_t gfp)
{
	return -ENOMEM;
}

/*
 * RFC 9000 Section 3.5: STOP_SENDING is answered with RESET_STREAM. When
 * the RESET_STREAM cannot be queued (no memory), the packet is dropped
 * unacknowledged and the stream left as it was, so that the STOP_SENDING
 * the peer sends again is answered; a stream marked reset with no
 * RESET_STREAM ever sent would leave the peer waiting for good.
 */
static void lim_stop_sending_without_memory_is_answered_when_resent(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct quic_pnspace *space = quic_pnspace(rc->sk, QUIC_CRYPTO_APP);
	struct quic_stream *s;
	struct rx_buf b = {};
	s64 pn;

	KUNIT_ASSERT_EQ(test, conn_send_stream(rc->p.client, 0, MSG_STREAM_NEW, "data", 4), 4);
	s = quic_stream_find(quic_streams(rc->sk), 0);
	KUNIT_ASSERT_NOT_NULL(test, s);
	rx_buf_var(&b, QUIC_FRAME_STOP_SENDING);
	rx_buf_var(&b, 0);
	rx_buf_var(&b, 7);

	pn = rc->pn;
	kunit_activate_static_stub(test, quic_outq_ctrl_append, lim_ctrl_append_enomem);
	lim_send(rc, &b);
	kunit_deactivate_static_stub(test, quic_outq_ctrl_append);
	lim_expect_open(test, rc);
	KUNIT_EXPECT_LT(test, space->max_pn_seen, pn);
	KUNIT_EXPECT_NE(test, s->send.state, QUIC_STREAM_SEND_STATE_RESET_SENT);
	KUNIT_EXPECT_FALSE(test, lim_reset_stream_queued(rc, 0));

	lim_send(rc, &b);
	lim_expect_open(test, rc);
	KUNIT_EXPECT_EQ(test, space->max_pn_seen, pn + 1);
	KUNIT_EXPECT_EQ(test, s->send.state, QUIC_STREAM_SEND_STATE_RESET_SENT);
	KUNIT_EXPECT_EQ(test, s->send.errcode, 7);
	KUNIT_EXPECT_TRUE(test, lim_reset_stream_queued(rc, 0));
}

/* Amplification: the server's datagrams are counted, the client's after
 * its first flight lost.
 */
static struct {
	atomic_t client;
	atomic_t server_bytes;
	atomic_t server_dgrams;
} lim_ampl;

static bool lim_ampl_hook(struct sock *sk, struct sk_buff *skb)
{
	if (quic_paths(sk)->serv) {
		atomic_add(skb->len, &lim_ampl.server_bytes);
		atomic_inc(&lim_ampl.server_dgrams);
		return false;
	}
	/* The client's first datagram (its Initial) goes, nothing after. */
	return atomic_inc_return(&lim_ampl.client) > 1;
}

static void lim_ampl_off(void *unused)
{
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
}

/*
 * A listener on LIM_PORT + @port_off, a client whose first Initial (a
 * stand-in ClientHello) is the only datagram of its to reach the server
 * (lim_ampl_hook(), which also counts the server's), and the server's
 * accepted socket, that ClientHello read. *@clientp gets the client.
 */
static struct socket *lim_server_of_one_initial(struct kunit *test, u16 port_off,
						struct socket **clientp)
{
	static const char chlo[] = "client hello: a stand-in for TLS";
	struct socket *lsock, *client, *server = NULL;
	const struct conn_case *c = &lim_case;
	union quic_addr a;
	u8 buf[64];

	memset(&lim_ampl, 0, sizeof(lim_ampl));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lim_ampl_off, NULL), 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, lim_ampl_hook);

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_QUIC,
					       &lsock), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, lsock), 0);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_QUIC,
					       &client), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, client), 0);
	lsock->sk->sk_rcvtimeo = CONN_TIMEO;
	conn_addr(&a, c->family, c->ip, LIM_PORT + port_off);
	KUNIT_ASSERT_EQ(test, kernel_bind(lsock, &a.sa, conn_addr_len(c->family)), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 4), 0);
	KUNIT_ASSERT_EQ(test, kernel_connect(client, &a.sa, conn_addr_len(c->family), 0), 0);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(client, QUIC_CRYPTO_INITIAL, chlo, sizeof(chlo)),
			sizeof(chlo));

	KUNIT_ASSERT_EQ(test, kernel_accept(lsock, &server, 0), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, server), 0);
	server->sk->sk_rcvtimeo = CONN_TIMEO;
	server->sk->sk_sndtimeo = CONN_TIMEO;
	KUNIT_ASSERT_EQ(test, conn_recv_crypto(server, QUIC_CRYPTO_INITIAL, buf, sizeof(chlo)), 0);
	*clientp = client;
	return server;
}

/*
 * RFC 9000 Section 8.1: before the client's address is validated, a server
 * sends at most three times what it received. A client sends its Initial
 * and falls silent; the server has 16 KiB of handshake data to send and
 * probes for two seconds: never more than 3 x 1200 bytes leave.
 */
static void lim_amplification_is_three_times_the_received(struct kunit *test)
{
	const struct conn_case *c = &lim_case;
	struct socket *client, *server;
	u32 rcvd, sent, dgrams;
	u8 *flight;

	server = lim_server_of_one_initial(test, 1, &client);
	KUNIT_ASSERT_EQ(test, conn_params_to(client, server), 0);
	KUNIT_ASSERT_EQ(test, conn_secrets(server, false, QUIC_CRYPTO_HANDSHAKE, c->cipher), 0);

	/* A large server flight (a certificate chain, say), then silence. */
	flight = kunit_kzalloc(test, 16384, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, flight);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(server, QUIC_CRYPTO_INITIAL, flight, 512), 512);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(server, QUIC_CRYPTO_HANDSHAKE, flight, 16384),
			16384);
	msleep(2000);

	lock_sock(server->sk);
	rcvd = quic_paths(server->sk)->ampl_rcvlen;
	release_sock(server->sk);
	sent = atomic_read(&lim_ampl.server_bytes);
	dgrams = atomic_read(&lim_ampl.server_dgrams);
	kunit_info(test, "received %u bytes, sent %u in %u datagrams\n", rcvd, sent, dgrams);
	KUNIT_EXPECT_GE(test, rcvd, 1200U);
	KUNIT_EXPECT_GT(test, sent, 0U);
	KUNIT_EXPECT_LE(test, sent, 3 * rcvd);
}

/*
 * RFC 9000 Section 8.1: before the client's address is validated, the
 * server counts "all of the payload bytes received in datagrams that are
 * uniquely attributed to a single connection", discarded packets
 * included. A datagram holding a 0-RTT packet the server cannot open
 * (no 0-RTT keys) still earns its three times.
 */
static void lim_amplification_counts_datagrams_whose_packets_are_discarded(struct kunit *test)
{
	const struct conn_case *c = &lim_case;
	struct socket *client, *server;
	struct quic_path_group *paths;
	struct quic_conn_id_entry *e;
	u64 before, after;
	u8 *pkt, *p;
	u32 left;

	server = lim_server_of_one_initial(test, 2, &client);

	/* A long header 0-RTT packet (RFC 9000 Section 17.2.3) of 1000
	 * bytes to the server's connection ID, its payload noise.
	 */
	pkt = kunit_kzalloc(test, 1000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pkt);
	get_random_bytes(pkt, 1000);
	lock_sock(server->sk);
	paths = quic_paths(server->sk);
	KUNIT_ASSERT_FALSE(test, paths->validated);
	before = paths->ampl_rcvlen;
	e = quic_conn_id_active(quic_source(server->sk));
	KUNIT_ASSERT_NOT_NULL(test, e);
	p = pkt;
	*p++ = QUIC_HDR_FORM_LONG | QUIC_HDR_FIXED_BIT | (1 << 4) | 0x03;
	put_unaligned_be32(c->version, p);
	p += 4;
	*p++ = e->id.len;
	memcpy(p, e->id.data, e->id.len);
	p += e->id.len;
	*p++ = 0;	/* the client's Source Connection ID: empty will do */
	left = 2;
	KUNIT_ASSERT_EQ(test, quic_put_var_fixed(&p, &left, 1000 - (p - pkt) - 2, 2), 0);
	release_sock(server->sk);

	quic_kunit_rcv4(test, paths->path[0].udp_sk->sk, &quic_path_daddr(paths, 0)->v4,
			&quic_path_saddr(paths, 0)->v4, pkt, 1000);
	lock_sock(server->sk);
	after = paths->ampl_rcvlen;
	release_sock(server->sk);
	KUNIT_EXPECT_EQ(test, after - before, 1000ULL);
}

/* A NEW_TOKEN whose token QUIC_SOCKOPT_TOKEN could not take back (the
 * socket API draft bounds the option at 512 bytes) is not kept: the
 * client would report a token it then refuses to present. One within the
 * bound is kept as before.
 */
static void lim_new_token_beyond_the_option_bound_is_not_kept(struct kunit *test)
{
	struct rx_conn *rc = lim_open(test);
	struct rx_buf b = {};
	u32 before;

	/* The token of the server's NEW_TOKEN at the end of the handshake. */
	before = quic_token(rc->sk)->len;
	KUNIT_ASSERT_LE(test, before, (u32)QUIC_TOKEN_MAX_LEN);
	rx_buf_var(&b, QUIC_FRAME_NEW_TOKEN);
	rx_buf_var(&b, QUIC_TOKEN_MAX_LEN + 1);
	rx_buf_fill(&b, 0x5a, QUIC_TOKEN_MAX_LEN + 1);
	lim_send(rc, &b);
	lim_expect_open(test, rc);
	KUNIT_EXPECT_EQ(test, quic_token(rc->sk)->len, before);

	memset(&b, 0, sizeof(b));
	rx_buf_var(&b, QUIC_FRAME_NEW_TOKEN);
	rx_buf_var(&b, QUIC_TOKEN_MAX_LEN);
	rx_buf_fill(&b, 0xa5, QUIC_TOKEN_MAX_LEN);
	lim_send(rc, &b);
	lim_expect_open(test, rc);
	KUNIT_EXPECT_EQ(test, quic_token(rc->sk)->len, (u32)QUIC_TOKEN_MAX_LEN);
}

static struct kunit_case lim_cases[] = {
	KUNIT_CASE(lim_crypto_far_ahead_is_crypto_buffer_exceeded),
	KUNIT_CASE(lim_ack_range_count_beyond_the_packet_is_frame_encoding_error),
	KUNIT_CASE(lim_ack_of_a_never_sent_packet_is_protocol_violation),
	KUNIT_CASE(lim_new_connection_ids_beyond_the_limit),
	KUNIT_CASE(lim_stream_beyond_max_streams_is_stream_limit_error),
	KUNIT_CASE(lim_stream_data_past_the_window_is_flow_control_error),
	KUNIT_CASE_SLOW(lim_stream_gaps_stay_within_the_receive_buffer),
	KUNIT_CASE(lim_loss_burst_of_ten_thousand_packets),
	KUNIT_CASE_SLOW(lim_path_challenge_flood_holds_nothing),
	KUNIT_CASE(lim_retire_churn_without_acks_is_connection_id_limit_error),
	KUNIT_CASE(lim_retire_prior_to_jump_retires_every_id_held),
	KUNIT_CASE_SLOW(lim_retire_of_our_ids_without_acks_is_bounded),
	KUNIT_CASE(lim_dropped_datagram_keeps_its_packet),
	KUNIT_CASE(lim_ack_leaves_while_the_pacer_holds_data),
	KUNIT_CASE(lim_writer_blocked_by_flow_control_sleeps),
	KUNIT_CASE(lim_owned_socket_defers_to_the_backlog),
	KUNIT_CASE_SLOW(lim_amplification_is_three_times_the_received),
	KUNIT_CASE(lim_amplification_counts_datagrams_whose_packets_are_discarded),
	KUNIT_CASE(lim_client_discards_a_server_initial_with_a_token),
	KUNIT_CASE(lim_client_discards_another_server_source_id),
	KUNIT_CASE(lim_server_discards_another_client_source_id),
	KUNIT_CASE(lim_server_discards_an_initial_in_a_short_datagram),
	KUNIT_CASE(lim_stream_data_blocked_beyond_max_streams_is_stream_limit_error),
	KUNIT_CASE(lim_stop_sending_without_memory_is_answered_when_resent),
	KUNIT_CASE(lim_idle_timer_restarts_on_the_first_ack_eliciting_send),
	KUNIT_CASE(lim_new_token_beyond_the_option_bound_is_not_kept),
	{}
};

static struct kunit_suite lim_suite = {
	.name = "quic_rx_limits",
	.suite_init = quic_kunit_net_suite_init,
	.suite_exit = quic_kunit_net_suite_exit,
	.test_cases = lim_cases,
};

kunit_test_suite(lim_suite);
