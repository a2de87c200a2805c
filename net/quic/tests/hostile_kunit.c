// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_hostile: an established connection driven by a hostile
 * peer for thousands of packets per pattern. For each pattern the
 * suite checks three things:
 *
 *  - memory: what the connection holds (its charged receive and send
 *    memory, every frame and packet on its send queues, the stream and
 *    connection ID structures the peer made it allocate) never exceeds the
 *    pattern's documented bound, sampled every tenth of the run, and does
 *    not grow over the second half by more than 64 KiB; where KASAN's
 *    quarantine does not hide it, neither does the slab memory of the
 *    whole kernel, by more than 1 MiB;
 *  - CPU: the last tenth of the packets costs at most five times what the
 *    first tenth did (no list walk that grows with the attack);
 *  - outcome: the connection keeps serving (a stream the peer writes
 *    afterwards still reaches the application), or ends with the
 *    pattern's documented error.
 *
 * Each case writes 1-RTT packets as the server of a connection between two
 * kernel sockets (rx_util.c); the client's own datagrams are lost, so it
 * never hears an acknowledgment unless the pattern sends one. The last
 * two swap the roles: they write as the client to an established server,
 * and to a server in its handshake that accepted early data. The packets
 * per pattern are the module parameter hostile_packets: 10,000 by default
 * (about 130 s for the suite on x86_64 under KASAN and QEMU), 100,000 in
 * make stress.
 */

#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/vmstat.h>
#include <net/sock.h>

#include "../connid.h"
#include "../frame.h"
#include "../inqueue.h"
#include "../outqueue.h"
#include "../packet.h"
#include "../path.h"
#include "../pnspace.h"
#include "../socket.h"
#include "../stream.h"
#include "rx_util.h"
#include "util.h"

#define HOSTILE_PORT	63520

static unsigned int hostile_packets = 10000;
module_param(hostile_packets, uint, 0444);
MODULE_PARM_DESC(hostile_packets, "packets per pattern of the quic_hostile suite (default 10000)");

static const struct conn_case hostile_case = {
	"IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

/* Room left for a frame of @n bytes? */
static bool hostile_room(const struct rx_buf *b, u32 n)
{
	return b->len + n <= sizeof(b->data);
}

/*
 * What the client's connection holds, bytes: charged receive and send
 * memory, the frames and packets of its send queues (control frames
 * included), and the stream and connection ID structures.
 */
static u64 hostile_held(struct sock *sk)
{
	struct quic_outq *outq = quic_outq(sk);
	struct quic_outq_packet *pkt;
	struct quic_outq_frame *fr;
	u64 held;
	u32 i, frames = 0, pkts = 0;

	lock_sock(sk);
	held = atomic_read(&sk->sk_rmem_alloc) + READ_ONCE(sk->sk_wmem_queued);
	for (i = 0; i < ARRAY_SIZE(outq->spaces); i++) {
		struct quic_outq_space *sp = &outq->spaces[i];
		struct list_head *lists[] = { &sp->ctrl, &sp->crypto, &sp->retrans };
		u32 l;

		for (l = 0; l < ARRAY_SIZE(lists); l++)
			list_for_each_entry(fr, lists[l], list)
				frames++;
		list_for_each_entry(pkt, &sp->sent, list) {
			pkts++;
			list_for_each_entry(fr, &pkt->frames, list)
				frames++;
		}
	}
	held += (u64)frames * sizeof(*fr) + (u64)pkts * sizeof(*pkt);
	held += (u64)quic_streams(sk)->count * sizeof(struct quic_stream);
	held += (u64)(quic_source(sk)->count + quic_dest(sk)->count) *
		sizeof(struct quic_conn_id_entry);
	release_sock(sk);
	return held;
}

/* Slab memory of the whole kernel, bytes. */
static long hostile_slab(void)
{
	return (long)(global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B) +
		      global_node_page_state_pages(NR_SLAB_RECLAIMABLE_B)) * PAGE_SIZE;
}

/**
 * struct hostile_run - one pattern's figures
 * @held_max: the most hostile_held() returned
 * @held_mid: what it returned after half of the packets
 * @held_end: and after all of them
 * @slab_mid: kernel slab memory after half of the packets
 * @slab_end: and after all of them
 * @first_ns: time the first tenth of the packets took
 * @last_ns: time the last tenth took
 * @sent: packets sent before the connection ended (all of them if it did not)
 */
struct hostile_run {
	u64 held_max;
	u64 held_mid;
	u64 held_end;
	long slab_mid;
	long slab_end;
	u64 first_ns;
	u64 last_ns;
	u32 sent;
};

/* Established, or a server still in the handshake the case drives. */
static bool hostile_alive(const struct sock *sk)
{
	return quic_is_established(sk) || quic_is_establishing(sk);
}

/*
 * Drive the pattern: @build writes packet @i into @b; @send, when given,
 * sends it (another source address), else it goes as the server's. Stops
 * early once the connection ended.
 */
static void hostile_drive(struct rx_conn *rc, struct hostile_run *run,
			  void (*build)(struct rx_conn *rc, struct rx_buf *b, u32 i),
			  void (*send)(struct rx_conn *rc, const struct rx_buf *b, u32 i))
{
	u32 n = max(hostile_packets, 100U), tenth = n / 10, i;
	struct rx_buf *b;
	ktime_t start = 0;

	b = kunit_kmalloc(rc->test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(rc->test, b);
	memset(run, 0, sizeof(*run));
	for (i = 0; i < n && hostile_alive(rc->sk); i++) {
		if (i % tenth == 0) {
			if (i == tenth)
				run->first_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
			run->held_max = max(run->held_max, hostile_held(rc->sk));
			if (i == n / 2) {
				run->held_mid = hostile_held(rc->sk);
				run->slab_mid = hostile_slab();
			}
			if (i == n - tenth || i == 0)
				start = ktime_get();
			cond_resched();
		}
		b->len = 0;
		build(rc, b, i);
		if (send)
			send(rc, b, i);
		else
			rx_conn_send(rc, b->data, b->len);
	}
	run->sent = i;
	if (i == n)
		run->last_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	run->held_end = hostile_held(rc->sk);
	run->held_max = max(run->held_max, run->held_end);
	run->slab_end = hostile_slab();
	kunit_info(rc->test, "%u packets, held at most %llu bytes (%llu at half, %llu at the end), first/last tenth %llu/%llu us, slab %+ld KiB over the second half\n",
		   run->sent, run->held_max, run->held_mid, run->held_end, run->first_ns / 1000,
		   run->last_ns / 1000, (run->slab_end - run->slab_mid) / 1024);
}

/*
 * The checks every pattern shares: what the connection held, the slab
 * growth over the second half (not under KASAN, whose quarantine keeps
 * freed objects), the cost of the last tenth against the first.
 */
static void hostile_expect_bounded(struct kunit *test, const struct hostile_run *run, u64 bound)
{
	KUNIT_EXPECT_LE(test, run->held_max, bound);
	/* Bounded means flat: what the second half adds is noise. */
	if (run->sent == max(hostile_packets, 100U))
		KUNIT_EXPECT_LE(test, run->held_end, run->held_mid + 64 * 1024);
	if (!IS_ENABLED(CONFIG_KASAN) && run->slab_mid)
		KUNIT_EXPECT_LE(test, run->slab_end - run->slab_mid, 1L << 20);
	/* Under a millisecond, a tenth is noise of the scheduler. */
	if (run->last_ns && run->first_ns > NSEC_PER_MSEC)
		KUNIT_EXPECT_LE(test, run->last_ns, 5 * run->first_ns);
}

/* The connection still serves: a new stream from the peer reaches the client. */
static void hostile_expect_serving(struct kunit *test, struct rx_conn *rc)
{
	static const u8 msg[] = "still here";
	struct rx_buf b = {};
	u64 code;

	KUNIT_ASSERT_FALSE(test, rx_conn_closed(rc, &code));
	rx_buf_var(&b, QUIC_FRAME_STREAM | 0x02 | 0x01);	/* Length, FIN */
	rx_buf_var(&b, 3);					/* server-initiated, uni */
	rx_buf_var(&b, sizeof(msg));
	rx_buf_bytes(&b, msg, sizeof(msg));
	rx_conn_send(rc, b.data, b.len);
	conn_expect_stream(test, rc->p.client, 3, msg, sizeof(msg));
}

static struct rx_conn *hostile_open(struct kunit *test)
{
	struct rx_conn *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rx_conn_setup(test, rc, &hostile_case, HOSTILE_PORT);
	rx_conn_open(rc);
	return rc;
}

/* The send and receive buffers, plus a fixed allowance for structures. */
static u64 hostile_buffers(struct rx_conn *rc, u64 extra)
{
	return (u64)READ_ONCE(rc->sk->sk_rcvbuf) + READ_ONCE(rc->sk->sk_sndbuf) + extra;
}

/* ---------------------------------------------------------------- patterns */

/* 40 PATH_CHALLENGE frames a packet, and never an acknowledgment. */
static void hostile_build_challenges(struct rx_conn *rc, struct rx_buf *b, u32 i)
{
	u32 j;

	for (j = 0; j < 40 && hostile_room(b, 1 + QUIC_FRAME_PATH_DATA_LEN); j++) {
		rx_buf_var(b, QUIC_FRAME_PATH_CHALLENGE);
		rx_buf_fill(b, (u8)(i + j), QUIC_FRAME_PATH_DATA_LEN);
	}
}

/* RFC 9000 Section 8.2.2: each challenge is answered, none is kept for
 * long: the send queue stays within the send buffer and a few frames.
 */
static void hostile_path_challenge_flood_without_acks(struct kunit *test)
{
	struct rx_conn *rc = hostile_open(test);
	struct hostile_run run;

	hostile_drive(rc, &run, hostile_build_challenges, NULL);
	KUNIT_EXPECT_EQ(test, run.sent, max(hostile_packets, 100U));
	hostile_expect_bounded(test, &run, hostile_buffers(rc, 64 * 1024));
	hostile_expect_serving(test, rc);
}

/* An ACK of every packet the client sent so far, first in @b. */
static void hostile_ack_all(struct rx_conn *rc, struct rx_buf *b)
{
	struct quic_pnspace *space = quic_pnspace(rc->sk, QUIC_CRYPTO_APP);
	s64 largest = READ_ONCE(space->next_pn) - 1;

	if (largest < 0)
		return;
	rx_buf_var(b, QUIC_FRAME_ACK);
	rx_buf_var(b, largest);
	rx_buf_var(b, 0);		/* ACK Delay */
	rx_buf_var(b, 0);		/* ACK Range Count */
	rx_buf_var(b, largest);	/* First ACK Range: all of them */
}

/*
 * A NEW_CONNECTION_ID that retires every earlier one, and an ACK of all
 * the client sent, each packet: the client retires and forgets an ID per
 * packet while its RETIRE_CONNECTION_ID frames are acknowledged.
 */
static void hostile_build_id_churn(struct rx_conn *rc, struct rx_buf *b, u32 i)
{
	u64 seq = 1000 + (u64)i;

	hostile_ack_all(rc, b);
	rx_buf_var(b, QUIC_FRAME_NEW_CONNECTION_ID);
	rx_buf_var(b, seq);
	rx_buf_var(b, seq);			/* Retire Prior To: every earlier one */
	rx_buf_var(b, 8);
	rx_buf_fill(b, 0x40 | (u8)i, 4);
	rx_buf_fill(b, (u8)(i >> 8), 4);
	rx_buf_fill(b, (u8)i, QUIC_CONN_ID_TOKEN_LEN);
}

/* RFC 9000 Section 5.1.2: the client keeps at most its limit of the
 * peer's IDs and stays up as long as its retirements are acknowledged.
 */
static void hostile_connection_id_churn_with_acks(struct kunit *test)
{
	struct rx_conn *rc = hostile_open(test);
	struct hostile_run run;

	hostile_drive(rc, &run, hostile_build_id_churn, NULL);
	KUNIT_EXPECT_EQ(test, run.sent, max(hostile_packets, 100U));
	hostile_expect_bounded(test, &run, hostile_buffers(rc, 64 * 1024));
	KUNIT_EXPECT_LE(test, quic_dest(rc->sk)->count,
			(u32)quic_local_param(rc->sk)->active_connection_id_limit);
	hostile_expect_serving(test, rc);
}

/*
 * RETIRE_CONNECTION_ID of the client's oldest ID each packet, the packet
 * sent to its newest ID (RFC 9000 Section 19.16: never the one the frame
 * arrives on), with an ACK of all the client sent: the client issues a
 * replacement per packet.
 */
static void hostile_build_retire_churn(struct rx_conn *rc, struct rx_buf *b, u32 i)
{
	struct quic_conn_id_set *ids = quic_source(rc->sk);
	struct quic_conn_id_entry *old, *new;

	hostile_ack_all(rc, b);
	lock_sock(rc->sk);
	old = list_first_entry_or_null(&ids->head, struct quic_conn_id_entry, list);
	new = list_last_entry(&ids->head, struct quic_conn_id_entry, list);
	if (old && old != new) {
		rc->dcid = new->id;
		rx_buf_var(b, QUIC_FRAME_RETIRE_CONNECTION_ID);
		rx_buf_var(b, old->number);
	}
	release_sock(rc->sk);
	rx_buf_var(b, QUIC_FRAME_PING);
}

/* RFC 9000 Section 5.1.1: the client replaces each retired ID, so it
 * holds no more than the server's active_connection_id_limit of its own
 * IDs at any time, and frees the retired ones.
 */
static void hostile_retire_connection_id_churn_of_our_ids(struct kunit *test)
{
	struct rx_conn *rc = hostile_open(test);
	struct hostile_run run;
	u64 first;

	first = quic_source(rc->sk)->next_number;
	hostile_drive(rc, &run, hostile_build_retire_churn, NULL);
	KUNIT_EXPECT_EQ(test, run.sent, max(hostile_packets, 100U));
	hostile_expect_bounded(test, &run, hostile_buffers(rc, 64 * 1024));
	KUNIT_EXPECT_LE(test, quic_source(rc->sk)->count,
			(u32)quic_remote_param(rc->sk)->active_connection_id_limit);
	/* A replacement was issued for (nearly) every retirement. */
	KUNIT_EXPECT_GE(test, quic_source(rc->sk)->next_number - first,
			(u64)run.sent - 8);
	hostile_expect_serving(test, rc);
}

/* What the client's application writes on stream 0 between packets. */
static u8 hostile_chunk[4096];

/*
 * The client's application tops up stream 0 (as much as its send buffer
 * takes, without blocking), then the packet: one more byte of credit on
 * the stream, with an ACK of all the client sent and connection credit to
 * spare. Past the stream's first window, each packet lets one more byte go.
 */
static void hostile_build_tiny_window(struct rx_conn *rc, struct rx_buf *b, u32 i)
{
	struct quic_stream_info si = { .stream_id = 0 };
	struct quic_stream *stream;
	u64 limit = 0;

	while (conn_send(rc->p.client, QUIC_STREAM_INFO, &si, sizeof(si), hostile_chunk,
			 sizeof(hostile_chunk), MSG_DONTWAIT) > 0)
		;
	hostile_ack_all(rc, b);
	lock_sock(rc->sk);
	stream = quic_stream_find(quic_streams(rc->sk), 0);
	if (stream)
		limit = stream->send.max_bytes;
	release_sock(rc->sk);
	rx_buf_var(b, QUIC_FRAME_MAX_DATA);
	rx_buf_var(b, 1ULL << 40);
	rx_buf_var(b, QUIC_FRAME_MAX_STREAM_DATA);
	rx_buf_var(b, 0);
	rx_buf_var(b, limit + 1);
}

/*
 * A peer that opens the window a byte at a time (RFC 9000 Section 4.1
 * lets it): the client's cost per packet stays flat, it holds no more
 * than its send buffer, and it goes on sending into the credit it gets.
 */
static void hostile_tiny_windows_while_the_client_writes(struct kunit *test)
{
	struct quic_stream_info si = { .stream_id = 0, .stream_flags = MSG_STREAM_NEW };
	struct rx_conn *rc = hostile_open(test);
	struct quic_stream *stream;
	struct hostile_run run;
	u64 start;

	KUNIT_ASSERT_EQ(test, conn_send(rc->p.client, QUIC_STREAM_INFO, &si, sizeof(si),
					hostile_chunk, sizeof(hostile_chunk), MSG_DONTWAIT),
			(int)sizeof(hostile_chunk));
	lock_sock(rc->sk);
	stream = quic_stream_find(quic_streams(rc->sk), 0);
	KUNIT_ASSERT_NOT_NULL(test, stream);
	start = stream->send.max_bytes;
	release_sock(rc->sk);

	hostile_drive(rc, &run, hostile_build_tiny_window, NULL);
	KUNIT_EXPECT_EQ(test, run.sent, max(hostile_packets, 100U));
	hostile_expect_bounded(test, &run, hostile_buffers(rc, 64 * 1024));
	lock_sock(rc->sk);
	stream = quic_stream_find(quic_streams(rc->sk), 0);
	KUNIT_EXPECT_NOT_NULL(test, stream);
	if (stream) {
		/* Every byte of credit was granted, and the client went on
		 * sending into it past its first window.
		 */
		KUNIT_EXPECT_EQ(test, stream->send.max_bytes, start + run.sent);
		KUNIT_EXPECT_GT(test, stream->send.bytes, start + run.sent / 2);
		KUNIT_EXPECT_LE(test, stream->send.bytes, stream->send.max_bytes);
		kunit_info(test, "stream window %llu at the start, %llu bytes sent\n", start,
			   stream->send.bytes);
	}
	release_sock(rc->sk);
	hostile_expect_serving(test, rc);
}

static void hostile_build_ping(struct rx_conn *rc, struct rx_buf *b, u32 i)
{
	rx_buf_var(b, QUIC_FRAME_PING);
	rx_buf_fill(b, QUIC_FRAME_PADDING, 64);
}

/* Each packet from another server port: a client takes none of them. */
static void hostile_send_from_new_port(struct rx_conn *rc, const struct rx_buf *b, u32 i)
{
	struct quic_path_group *paths = quic_paths(rc->sk);
	struct sockaddr_in from = quic_path_daddr(paths, 0)->v4;
	u32 len;

	from.sin_port = htons(20000 + i % 40000);
	len = rx_conn_protect(rc, b->data, b->len, 0, 4);
	quic_kunit_rcv4(rc->test, paths->path[0].udp_sk->sk, &from,
			&quic_path_saddr(paths, 0)->v4, rc->pkt, len);
}

/*
 * RFC 9000 Section 9: "If a client receives packets from an unknown
 * server address, the client MUST discard these packets." A new source
 * port on every packet costs the client nothing it keeps.
 */
static void hostile_new_server_address_every_packet(struct kunit *test)
{
	struct rx_conn *rc = hostile_open(test);
	struct hostile_run run;
	u64 before = hostile_held(rc->sk);

	hostile_drive(rc, &run, hostile_build_ping, hostile_send_from_new_port);
	KUNIT_EXPECT_EQ(test, run.sent, max(hostile_packets, 100U));
	hostile_expect_bounded(test, &run, before + 16 * 1024);
	hostile_expect_serving(test, rc);
}

/*
 * One-byte STREAM frames, every other byte, spread over the server's
 * bidirectional streams the client allows: the most reassembly state a
 * byte can buy.
 */
static void hostile_build_pieces(struct rx_conn *rc, struct rx_buf *b, u32 i)
{
	u64 streams = min_t(u64, quic_local_param(rc->sk)->max_streams_bidi, 64);
	u32 j;

	for (j = 0; hostile_room(b, 24); j++) {
		u64 k = (u64)i * 48 + j;
		u64 id = (k % streams) * 4 + 1;		/* server-initiated, bidirectional */

		rx_buf_var(b, QUIC_FRAME_STREAM | 0x04 | 0x02);
		rx_buf_var(b, id);
		rx_buf_var(b, 2 * (k / streams) + 1);	/* odd offsets: never in order */
		rx_buf_var(b, 1);
		rx_buf_fill(b, (u8)k, 1);
	}
}

/*
 * RFC 9000 Section 4.1: a receiver bounds what it buffers. Pieces that
 * never join up are held only within the receive buffer (and the stream
 * windows); past that they are dropped or the connection ends with
 * FLOW_CONTROL_ERROR. Either way the memory stays bounded.
 */
static void hostile_one_byte_pieces_across_streams(struct kunit *test)
{
	struct rx_conn *rc = hostile_open(test);
	struct hostile_run run;
	u64 code;
	u64 rcvbuf = quic_inq(rc->sk)->rcvbuf, bound;

	/* The receive queue's bound (inqueue.c: its buffer, the larger of
	 * SO_RCVBUF and twice the connection window, plus the room kept for
	 * in-order data), the stream structures' (SO_RCVBUF), the send buffer.
	 */
	bound = rcvbuf + max_t(u64, rcvbuf / 2, 64 * 1024) + hostile_buffers(rc, 64 * 1024);
	hostile_drive(rc, &run, hostile_build_pieces, NULL);
	kunit_info(test, "receive queue buffer %llu, bound %llu\n", rcvbuf, bound);
	hostile_expect_bounded(test, &run, bound);
	if (rx_conn_closed(rc, &code))
		KUNIT_EXPECT_EQ(test, code, (u64)QUIC_TRANSPORT_ERROR_FLOW_CONTROL);
}

/* MAX_STREAMS one higher and STREAMS_BLOCKED at the old limit, each packet. */
static void hostile_build_streams_ping_pong(struct rx_conn *rc, struct rx_buf *b, u32 i)
{
	rx_buf_var(b, QUIC_FRAME_MAX_STREAMS_BIDI);
	rx_buf_var(b, 100 + (u64)i);
	rx_buf_var(b, QUIC_FRAME_STREAMS_BLOCKED_BIDI);
	rx_buf_var(b, 100 + (u64)i / 2);
}

/*
 * RFC 9000 Sections 4.6 and 19.14: each STREAMS_BLOCKED may be answered,
 * but what the client queues in answer stays a frame or two, not one per
 * packet received.
 */
static void hostile_max_streams_ping_pong(struct kunit *test)
{
	struct rx_conn *rc = hostile_open(test);
	struct hostile_run run;

	hostile_drive(rc, &run, hostile_build_streams_ping_pong, NULL);
	KUNIT_EXPECT_EQ(test, run.sent, max(hostile_packets, 100U));
	hostile_expect_bounded(test, &run, hostile_buffers(rc, 64 * 1024));
	hostile_expect_serving(test, rc);
}

/*
 * A PATH_CHALLENGE (so that the client keeps sending) and an ACK frame
 * with as many ranges as the packet holds: every other one of the
 * client's packets below its largest, each range a single packet.
 */
static void hostile_build_ack_ranges(struct rx_conn *rc, struct rx_buf *b, u32 i)
{
	s64 largest = READ_ONCE(quic_pnspace(rc->sk, QUIC_CRYPTO_APP)->next_pn) - 1;
	u64 ranges;

	rx_buf_var(b, QUIC_FRAME_PATH_CHALLENGE);
	rx_buf_fill(b, (u8)i, QUIC_FRAME_PATH_DATA_LEN);
	if (largest < 4)
		return;
	/* Each range after the first: Gap 0 and Length 0, two bytes, and
	 * two packet numbers lower (RFC 9000 Section 19.3.1).
	 */
	ranges = min_t(u64, (largest - 1) / 2, (sizeof(b->data) - b->len - 24) / 2);
	rx_buf_var(b, QUIC_FRAME_ACK);
	rx_buf_var(b, largest);
	rx_buf_var(b, 0);		/* ACK Delay */
	rx_buf_var(b, ranges);
	rx_buf_var(b, 0);		/* First ACK Range: the largest alone */
	while (ranges--) {
		rx_buf_var(b, 0);	/* Gap: one packet not acknowledged */
		rx_buf_var(b, 0);	/* ACK Range Length: one acknowledged */
	}
}

/*
 * RFC 9000 Section 19.3.1: an ACK frame may carry as many ranges as fit.
 * Hundreds per frame, every packet, cost each packet about the same and
 * keep nothing: the ranges are walked against the records held (at most
 * the packets in flight and QUIC_OUTQ_ACK_ONLY_MAX others).
 */
static void hostile_ack_frames_with_hundreds_of_ranges(struct kunit *test)
{
	struct rx_conn *rc = hostile_open(test);
	struct hostile_run run;

	hostile_drive(rc, &run, hostile_build_ack_ranges, NULL);
	KUNIT_EXPECT_EQ(test, run.sent, max(hostile_packets, 100U));
	hostile_expect_bounded(test, &run, hostile_buffers(rc, 64 * 1024));
	hostile_expect_serving(test, rc);
}

/* One DATAGRAM frame filling the packet, each packet. */
static void hostile_build_datagram(struct rx_conn *rc, struct rx_buf *b, u32 i)
{
	rx_buf_var(b, QUIC_FRAME_DATAGRAM);
	rx_buf_fill(b, (u8)i, 1000);
}

/*
 * RFC 9221 Section 5: DATAGRAM frames are not flow controlled; a receiver
 * that is not read drops what does not fit in its receive buffer
 * (inqueue.c). The application reads none of 20,000 datagrams.
 */
static void hostile_datagram_flood_never_read(struct kunit *test)
{
	struct rx_conn *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);
	struct msghdr msg = {};
	struct hostile_run run;
	struct kvec iov;
	u64 rcvbuf, code;
	u8 *buf;

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rx_conn_setup(test, rc, &hostile_case, HOSTILE_PORT);
	rc->max_datagram = 1200;
	rx_conn_open(rc);
	rcvbuf = quic_inq(rc->sk)->rcvbuf;
	hostile_drive(rc, &run, hostile_build_datagram, NULL);
	KUNIT_EXPECT_EQ(test, run.sent, max(hostile_packets, 100U));
	hostile_expect_bounded(test, &run, rcvbuf + hostile_buffers(rc, 64 * 1024));

	/* Still serving: the datagrams kept are read whole. */
	KUNIT_ASSERT_FALSE(test, rx_conn_closed(rc, &code));
	buf = kunit_kmalloc(test, 1200, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	iov.iov_base = buf;
	iov.iov_len = 1200;
	KUNIT_EXPECT_EQ(test, kernel_recvmsg(rc->p.client, &msg, &iov, 1, 1200, MSG_DONTWAIT),
			1000);
	KUNIT_EXPECT_TRUE(test, msg.msg_flags & MSG_DATAGRAM);
}

/* Control frames of @type waiting to be sent; the caller owns @sk. */
static u32 hostile_waiting(struct sock *sk, u8 type)
{
	struct quic_outq_space *sp = &quic_outq(sk)->spaces[quic_pnspace_index(QUIC_CRYPTO_APP)];
	struct quic_outq_frame *fr;
	u32 n = 0;

	list_for_each_entry(fr, &sp->ctrl, list)
		n += fr->type == type;
	return n;
}

/* The client's address before a case moved it: where the flood varies. */
static struct sockaddr_in hostile_client;

/*
 * Each packet from another client address: a new port every packet and a
 * new IPv4 address every other one (127.0.0.0/8 all loops back).
 */
static void hostile_send_from_new_client_address(struct rx_conn *rc, const struct rx_buf *b,
						 u32 i)
{
	struct quic_path_group *paths = quic_paths(rc->sk);
	struct sockaddr_in from = hostile_client;
	u32 len;

	from.sin_port = htons(20000 + i % 40000);
	if (i & 1)
		from.sin_addr.s_addr = htonl(INADDR_LOOPBACK + 2 + i % 200);
	len = rx_conn_protect(rc, b->data, b->len, 0, 4);
	quic_kunit_rcv4(rc->test, paths->path[0].udp_sk->sk, &from,
			&quic_path_saddr(paths, 0)->v4, rc->pkt, len);
}

/*
 * RFC 9000 Section 9.3: a server that receives a non-probing packet with
 * the largest number so far from a new client address moves there and
 * validates it, sending at most three times what came from it (Section
 * 8.1). A client (or an on-path attacker, Section 9.3.2) that changes its
 * address on every packet must cost the server one pending validation at
 * a time, and the address to go back to stays the last validated one.
 * Every PATH_CHALLENGE the server sends is lost, as are its ACKs.
 */
static void hostile_nat_rebinding_flood_at_a_server(struct kunit *test)
{
	struct rx_conn *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);
	struct quic_path_group *paths;
	static const u8 msg[] = "from home";
	struct hostile_run run;
	struct rx_buf b = {};

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rx_conn_setup(test, rc, &hostile_case, HOSTILE_PORT + 1);
	rx_conn_open_server(rc);
	paths = quic_paths(rc->sk);
	lock_sock(rc->sk);
	hostile_client = quic_path_daddr(paths, 0)->v4;
	release_sock(rc->sk);

	hostile_drive(rc, &run, hostile_build_ping, hostile_send_from_new_client_address);
	KUNIT_EXPECT_EQ(test, run.sent, max(hostile_packets, 100U));
	hostile_expect_bounded(test, &run, hostile_buffers(rc, 64 * 1024));

	lock_sock(rc->sk);
	/* One challenge waits, for the newest address: none for the
	 * addresses left, which would use up the room for answers
	 * (QUIC_OUTQ_CTRL_MAX) and stop new validations.
	 */
	KUNIT_EXPECT_LE(test, hostile_waiting(rc->sk, QUIC_FRAME_PATH_CHALLENGE), 1U);
	/* Moved to the last address, validating it; the client's original
	 * address is the one to go back to.
	 */
	KUNIT_EXPECT_TRUE(test, quic_path_alt_state(paths, QUIC_PATH_ALT_PROBING));
	KUNIT_EXPECT_EQ(test, ntohs(quic_path_daddr(paths, 1)->v4.sin_port),
			ntohs(hostile_client.sin_port));
	KUNIT_EXPECT_EQ(test, ntohl(quic_path_daddr(paths, 1)->v4.sin_addr.s_addr),
			ntohl(hostile_client.sin_addr.s_addr));
	release_sock(rc->sk);

	/* Still serving: a stream from the client's original address. */
	rx_buf_var(&b, QUIC_FRAME_STREAM | 0x02 | 0x01);	/* Length, FIN */
	rx_buf_var(&b, 2);					/* client-initiated, uni */
	rx_buf_var(&b, sizeof(msg));
	rx_buf_bytes(&b, msg, sizeof(msg));
	hostile_send_from_new_client_address(rc, &b, 0);
	conn_expect_stream(test, rc->p.server, 2, msg, sizeof(msg));
}

/* The replayed flight: its packets and their lengths. */
#define HOSTILE_FLIGHT		32
#define HOSTILE_PIECE		100

struct hostile_flight {
	u8 pkt[HOSTILE_FLIGHT][RX_PKT_MAX];
	u32 len[HOSTILE_FLIGHT];
};

static struct hostile_flight *hostile_flight;

static void hostile_build_nothing(struct rx_conn *rc, struct rx_buf *b, u32 i)
{
}

/* Packet @i % HOSTILE_FLIGHT of the flight, from a new port every other time. */
static void hostile_send_replay(struct rx_conn *rc, const struct rx_buf *b, u32 i)
{
	struct quic_path_group *paths = quic_paths(rc->sk);
	struct sockaddr_in from = hostile_client;
	u32 k = i % HOSTILE_FLIGHT;

	if (i & 1)
		from.sin_port = htons(20000 + i % 40000);
	quic_kunit_rcv4(rc->test, paths->path[0].udp_sk->sk, &from,
			&quic_path_saddr(paths, 0)->v4, hostile_flight->pkt[k],
			hostile_flight->len[k]);
}

/*
 * RFC 9001 Section 9.2: 0-RTT data can be replayed; the transport's part
 * is that a replayed packet is a duplicate (RFC 9000 Section 12.3: "A
 * receiver MUST discard a newly unprotected packet unless it is certain
 * that it has not processed another packet with the same packet number
 * from the same packet number space"), and that no address change moves a
 * connection before its handshake (Section 9). A server that accepted
 * early data takes a client's flight of 32 0-RTT packets, 100 stream
 * bytes each, then the same datagrams again and again, every other one
 * from another port: each is dropped as a duplicate, the data is held
 * once, and what the connection holds stays that of one flight.
 */
static void hostile_zero_rtt_replays_at_a_server(struct kunit *test)
{
	struct rx_conn *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);
	struct quic_path_group *paths;
	struct hostile_run run;
	unsigned long dups;
	struct rx_buf b;
	u32 rmem;
	u32 k;

	hostile_flight = kunit_kzalloc(test, sizeof(*hostile_flight), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, rc && hostile_flight);
	rx_conn_setup(test, rc, &hostile_case, HOSTILE_PORT + 2);
	rx_conn_accept(rc);
	rx_conn_early_keys(rc);
	paths = quic_paths(rc->sk);
	lock_sock(rc->sk);
	hostile_client = quic_path_daddr(paths, 0)->v4;
	release_sock(rc->sk);

	for (k = 0; k < HOSTILE_FLIGHT; k++) {
		b.len = 0;
		rx_buf_var(&b, QUIC_FRAME_STREAM | 0x04 | 0x02);	/* Offset, Length */
		rx_buf_var(&b, 0);					/* client bidi */
		rx_buf_var(&b, k * HOSTILE_PIECE);
		rx_buf_var(&b, HOSTILE_PIECE);
		rx_buf_fill(&b, (u8)k, HOSTILE_PIECE);
		hostile_flight->len[k] = rx_conn_protect_long(rc, QUIC_PACKET_0RTT, NULL, 0,
							      b.data, b.len, 0);
		memcpy(hostile_flight->pkt[k], rc->pkt, hostile_flight->len[k]);
	}

	/* The flight once, from the client's address. */
	for (k = 0; k < HOSTILE_FLIGHT; k++)
		rx_conn_inject(rc, hostile_flight->pkt[k], hostile_flight->len[k]);
	lock_sock(rc->sk);
	rmem = quic_inq(rc->sk)->rmem;
	KUNIT_EXPECT_EQ(test, quic_inq(rc->sk)->highest, HOSTILE_FLIGHT * HOSTILE_PIECE);
	release_sock(rc->sk);
	dups = quic_mib_read(&init_net, QUIC_MIB_PKT_INVNUMDROP);

	hostile_drive(rc, &run, hostile_build_nothing, hostile_send_replay);
	KUNIT_EXPECT_EQ(test, run.sent, max(hostile_packets, 100U));
	hostile_expect_bounded(test, &run, hostile_buffers(rc, 64 * 1024));
	/* Every replay was dropped as a duplicate. */
	KUNIT_EXPECT_GE(test, quic_mib_read(&init_net, QUIC_MIB_PKT_INVNUMDROP) - dups,
			(unsigned long)run.sent);

	lock_sock(rc->sk);
	KUNIT_EXPECT_TRUE(test, quic_is_establishing(rc->sk));
	/* No move before the handshake: the client's address stays. */
	KUNIT_EXPECT_EQ(test, ntohs(quic_path_daddr(paths, 0)->v4.sin_port),
			ntohs(hostile_client.sin_port));
	/* Each byte once: the flow control credit used and the memory the
	 * received data holds are those of one flight.
	 */
	KUNIT_EXPECT_EQ(test, quic_inq(rc->sk)->highest, HOSTILE_FLIGHT * HOSTILE_PIECE);
	KUNIT_EXPECT_EQ(test, quic_inq(rc->sk)->rmem, rmem);
	release_sock(rc->sk);
}

static struct kunit_case hostile_cases[] = {
	KUNIT_CASE_SLOW(hostile_path_challenge_flood_without_acks),
	KUNIT_CASE_SLOW(hostile_connection_id_churn_with_acks),
	KUNIT_CASE_SLOW(hostile_retire_connection_id_churn_of_our_ids),
	KUNIT_CASE_SLOW(hostile_tiny_windows_while_the_client_writes),
	KUNIT_CASE_SLOW(hostile_new_server_address_every_packet),
	KUNIT_CASE_SLOW(hostile_one_byte_pieces_across_streams),
	KUNIT_CASE_SLOW(hostile_max_streams_ping_pong),
	KUNIT_CASE_SLOW(hostile_ack_frames_with_hundreds_of_ranges),
	KUNIT_CASE_SLOW(hostile_datagram_flood_never_read),
	KUNIT_CASE_SLOW(hostile_nat_rebinding_flood_at_a_server),
	KUNIT_CASE_SLOW(hostile_zero_rtt_replays_at_a_server),
	{}
};

static struct kunit_suite hostile_suite = {
	.name = "quic_hostile",
	.suite_init = quic_kunit_net_suite_init,
	.suite_exit = quic_kunit_net_suite_exit,
	.test_cases = hostile_cases,
};

kunit_test_suite(hostile_suite);
