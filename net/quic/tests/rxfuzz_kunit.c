// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_rx_fuzz: hostile packets through the real receive path
 * of an established connection.
 *
 * Each input is a datagram from the server's address to the client of a
 * connection between two kernel sockets, handed to quic_rcv() as the UDP
 * tunnel does in softirq; packets are protected with the server's 1-RTT
 * keys, derived again from the test secret (rx_util.c).
 *
 * Inputs (RFC 9000 Sections 12.4, 17.3.1 and 19):
 *   - frame payloads, correctly protected: one to four frames of every
 *     type the server may send in 1-RTT packets (and some it may not),
 *     with field values at and around the connection's limits;
 *   - the same, then mutated byte-wise (bit flips, boundary bytes,
 *     truncation, copied and inserted chunks);
 *   - header changes before protection: reserved bits set; the fixed bit
 *     cleared, the long header form, another connection ID;
 *   - damage after protection: a flipped bit anywhere (the protected key
 *     phase bit among them), truncation, trailing bytes;
 *   - replays of an accepted packet.
 *
 * The oracle, for every input:
 *   - a payload whose first frame does not decode (quic_frame_decode(),
 *     the codec suite quic_frame checks) closes the connection with the
 *     code quic_frame_transport_error() names for the failure;
 *   - a first frame acknowledging a packet number far beyond any the
 *     client sent closes with PROTOCOL_VIOLATION (Section 13.1);
 *   - reserved bits set in an authenticated packet close with
 *     PROTOCOL_VIOLATION (Section 17.3.1);
 *   - valid frames never close (until a hostile or mutated input left
 *     the connection open: what it changed is not modelled);
 *   - header changes, damage and replays never close: the packet is
 *     dropped (RFC 9001 Section 5.5, RFC 9000 Sections 5.2 and 12.3);
 *   - any other close carries a transport error code of Section 20
 *     (0x00-0x10, 0x0100-0x01ff), never INTERNAL_ERROR, unless the input
 *     held the peer's own CONNECTION_CLOSE.
 * A closed connection is replaced by a new one. At the end every socket is
 * released and the protocol's socket count and charged memory are back
 * where they started. The seed is fixed and printed; a failure names the
 * input number and dumps the payload. Some values follow the live
 * connection (the packet numbers the client has sent, the IDs it holds),
 * so timing can make two runs of one seed differ slightly: the payload
 * dump is what reproduces a failure.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <net/sock.h>

#include "../connid.h"
#include "../endpoint.h"
#include "../frame.h"
#include "../packet.h"
#include "../param.h"
#include "../path.h"
#include "../pnspace.h"
#include "../protocol.h"
#include "../socket.h"
#include "rx_util.h"
#include "util.h"

#define RXF_PORT		63420
#define RXF_PAYLOAD_MAX		1024
#define RXF_MAX_FAILURES	8
#define RXF_STREAMS		6	/* of each kind the valid frames use */
/* Inputs per 10,000 that are meant to close the connection: each close
 * costs a new handshake, so they are kept few among the 60,000.
 */
#define RXF_RATE_RESERVED	5
#define RXF_RATE_MUTATED	50
#define RXF_RATE_HOSTILE	120
/* An ACK this far beyond the client's next packet number cannot have been
 * overtaken by the client's own probes while the input was in flight.
 */
#define RXF_NEVER_SENT		4096

enum rxf_kind {
	RXF_FRAMES,
	RXF_HOSTILE,
	RXF_MUTATED,
	RXF_RESERVED,
	RXF_HEADER,
	RXF_DAMAGED,
	RXF_REPLAY,
	RXF_KIND_MAX
};

static const char * const rxf_kind_name[RXF_KIND_MAX] = {
	[RXF_FRAMES]	= "valid frames",
	[RXF_HOSTILE]	= "hostile frames",
	[RXF_MUTATED]	= "mutated frames",
	[RXF_RESERVED]	= "reserved bits",
	[RXF_HEADER]	= "header changes",
	[RXF_DAMAGED]	= "damaged after protection",
	[RXF_REPLAY]	= "replays",
};

/* What an input must do to the connection. */
struct rxf_expect {
	bool must_close;	/* ... with @code */
	bool may_close;
	bool peer_close;	/* carries a CONNECTION_CLOSE: any code */
	u32 code;
};

/* What the valid frames told the client about one of the server's streams. */
struct rxf_stream {
	s64 final;	/* final size, or -1 */
	u64 hi;		/* highest offset sent */
};

/**
 * struct rxf - the fuzzer's state
 * @c: the connection under test, and how to write to it (rx_util.c)
 * @rnd: the generator
 * @last: the last packet accepted, for replays
 * @last_len: its length (0: none)
 * @payload: frames of the current input
 * @len: their length
 * @streams: the server's bidirectional ([0]) and unidirectional ([1])
 *	streams the valid frames use
 * @open_ended: the payload ends with a STREAM frame without a Length
 * @ncid_next: sequence number of the next NEW_CONNECTION_ID to send
 * @tainted: a hostile or mutated input left the connection open: what it
 *	did to streams and limits is unknown, so valid frames may now fail
 * @inputs: inputs per kind
 * @closes: connection closes per kind
 * @codes: closes per transport error code (0x00-0x10; 0x11: CRYPTO_ERROR)
 * @peer_closes: closes by an injected CONNECTION_CLOSE
 * @failures: oracle violations reported
 */
struct rxf {
	struct rx_conn c;
	struct rnd_state rnd;
	u8 *last;
	u32 last_len;
	u8 payload[RXF_PAYLOAD_MAX];
	u32 len;
	struct rxf_stream streams[2][RXF_STREAMS];
	bool open_ended;
	u64 ncid_next;
	bool tainted;
	u32 inputs[RXF_KIND_MAX];
	u32 closes[RXF_KIND_MAX];
	u32 codes[0x12];
	u32 peer_closes;
	u32 failures;
};

/* make check runs the default on both arches; make stress and any longer
 * run raise the count and vary the seed (KUnit stops a case after five
 * minutes: about 200,000 inputs on x86_64 with KASAN):
 *   ./kunit.py run 'quic_rx_fuzz' --kernel_args=quic_kunit.rx_fuzz_inputs=200000
 */
static unsigned int rx_fuzz_inputs = 60000;
module_param(rx_fuzz_inputs, uint, 0444);
MODULE_PARM_DESC(rx_fuzz_inputs, "inputs of the quic_rx_fuzz suite (default 60000)");

static unsigned long long rx_fuzz_seed = 0x5258465a51554943ULL;	/* "RXFZQUIC" */
module_param(rx_fuzz_seed, ullong, 0444);
MODULE_PARM_DESC(rx_fuzz_seed, "seed of the quic_rx_fuzz suite");

static const struct conn_case rxf_case = {
	"IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

static u32 rxf_below(struct rxf *r, u32 n)
{
	return n ? prandom_u32_state(&r->rnd) % n : 0;
}

static bool rxf_chance(struct rxf *r, u32 percent)
{
	return rxf_below(r, 100) < percent;
}

static u64 rxf_u64(struct rxf *r)
{
	return ((u64)prandom_u32_state(&r->rnd) << 32) | prandom_u32_state(&r->rnd);
}

/* A value for a field whose legal range ends at @limit: mostly inside,
 * sometimes on either side of the edge, sometimes far out.
 */
static u64 rxf_value(struct rxf *r, u64 limit)
{
	switch (rxf_below(r, 12)) {
	case 0:
		return 0;
	case 1:
		return limit;
	case 2:
		return limit + 1;
	case 3:
		return limit ? limit - 1 : 0;
	case 4:
		return rxf_u64(r) & (BIT_ULL(62) - 1);
	default:
		return limit ? rxf_u64(r) % limit : 0;
	}
}

/* Appending to the payload; writes past the end are silently cut, which
 * is one more way to truncate a frame.
 */
static void rxf_byte(struct rxf *r, u8 b)
{
	if (r->len < RXF_PAYLOAD_MAX)
		r->payload[r->len++] = b;
}

static void rxf_var(struct rxf *r, u64 v)
{
	u8 buf[8], *p = buf;
	u32 left = sizeof(buf), i;

	if (v >= BIT_ULL(62))
		v = BIT_ULL(62) - 1;
	if (quic_put_var(&p, &left, v))
		return;
	for (i = 0; i < sizeof(buf) - left; i++)
		rxf_byte(r, buf[i]);
}

static void rxf_bytes(struct rxf *r, u32 n)
{
	while (n--)
		rxf_byte(r, prandom_u32_state(&r->rnd));
}

/* A stream id for a hostile frame: the server's streams mostly, also the
 * client's and ones beyond the limits.
 */
static u64 rxf_any_stream_id(struct rxf *r)
{
	u32 k = rxf_chance(r, 90) ? rxf_below(r, RXF_STREAMS) : rxf_below(r, 300);

	switch (rxf_below(r, 10)) {
	case 0:
		return 4 * k;		/* client bidirectional */
	case 1:
		return 4 * k + 2;	/* client unidirectional */
	case 2:
	case 3:
	case 4:
		return 4 * k + 3;	/* server unidirectional */
	default:
		return 4 * k + 1;	/* server bidirectional */
	}
}

/* A frame of a random type with values at, around and beyond the edges. */
static void rxf_hostile_frame(struct rxf *r)
{
	const struct quic_transport_param *lp = quic_local_param(r->c.sk);
	s64 next = quic_pnspace(r->c.sk, QUIC_CRYPTO_APP)->next_pn;
	u64 largest, len, n;
	u32 i;
	u8 type;

	switch (rxf_below(r, 20)) {
	case 0:
	case 1:
		/* Ranges that may run below zero; now and then a never-sent packet. */
		largest = next > 0 ? rxf_below(r, next) : 0;
		if (rxf_chance(r, 25))
			largest = next + RXF_NEVER_SENT + rxf_below(r, 1000);
		type = rxf_chance(r, 20) ? QUIC_FRAME_ACK_ECN : QUIC_FRAME_ACK;
		rxf_byte(r, type);
		rxf_var(r, largest);
		rxf_var(r, rxf_value(r, 1000));
		n = rxf_chance(r, 80) ? rxf_below(r, 4) : rxf_value(r, 64);
		rxf_var(r, n);
		rxf_var(r, rxf_below(r, largest + 2));
		for (i = 0; i < n && i < 64; i++) {
			rxf_var(r, rxf_below(r, 4));
			rxf_var(r, rxf_below(r, 4));
		}
		if (type == QUIC_FRAME_ACK_ECN) {
			rxf_var(r, rxf_value(r, next));
			rxf_var(r, rxf_value(r, next));
			rxf_var(r, rxf_value(r, next));
		}
		break;
	case 2:
		rxf_byte(r, QUIC_FRAME_RESET_STREAM);
		rxf_var(r, rxf_any_stream_id(r));
		rxf_var(r, rxf_u64(r) & 0xffff);
		rxf_var(r, rxf_value(r, lp->max_stream_data_bidi_remote));
		break;
	case 3:
		rxf_byte(r, QUIC_FRAME_STOP_SENDING);
		rxf_var(r, rxf_any_stream_id(r));
		rxf_var(r, rxf_u64(r) & 0xffff);
		break;
	case 4:
		/* Post-handshake TLS messages of any type and length. */
		len = rxf_below(r, 40);
		rxf_byte(r, QUIC_FRAME_CRYPTO);
		rxf_var(r, rxf_chance(r, 50) ? 0 : rxf_value(r, 1 << 20));
		rxf_var(r, len);
		rxf_bytes(r, len);
		break;
	case 5:
		rxf_byte(r, QUIC_FRAME_NEW_TOKEN);
		rxf_var(r, rxf_chance(r, 50) ? 0 : rxf_value(r, 64));
		rxf_bytes(r, rxf_below(r, 64));
		break;
	case 6:
	case 7:
		/* STREAM beyond the flow control limits, after a final size, or
		 * on a stream the server cannot send on.
		 */
		n = rxf_below(r, 8);
		len = rxf_below(r, 200);
		rxf_byte(r, QUIC_FRAME_STREAM | n);
		rxf_var(r, rxf_any_stream_id(r));
		if (n & 0x04)
			rxf_var(r, rxf_value(r, lp->max_stream_data_bidi_remote));
		if (n & 0x02)
			rxf_var(r, len);
		rxf_bytes(r, len);
		break;
	case 8:
		rxf_byte(r, QUIC_FRAME_MAX_STREAM_DATA);
		rxf_var(r, rxf_any_stream_id(r));
		rxf_var(r, rxf_u64(r));
		break;
	case 9:
		rxf_byte(r, QUIC_FRAME_MAX_STREAMS_BIDI + rxf_below(r, 2));
		rxf_var(r, rxf_value(r, QUIC_FRAME_MAX_STREAMS));
		break;
	case 10:
		type = QUIC_FRAME_DATA_BLOCKED + rxf_below(r, 4);
		rxf_byte(r, type);
		if (type == QUIC_FRAME_STREAM_DATA_BLOCKED)
			rxf_var(r, rxf_any_stream_id(r));
		rxf_var(r, rxf_value(r, QUIC_FRAME_MAX_STREAMS));
		break;
	case 11:
	case 12:
		/* Beyond active_connection_id_limit, bad lengths and sequences. */
		n = quic_dest(r->c.sk)->next_number + rxf_below(r, 8);
		len = rxf_chance(r, 80) ? 1 + rxf_below(r, 20) : rxf_below(r, 40);
		rxf_byte(r, QUIC_FRAME_NEW_CONNECTION_ID);
		rxf_var(r, rxf_chance(r, 80) ? n : rxf_value(r, n));
		rxf_var(r, rxf_below(r, n + 2));
		rxf_byte(r, len);
		rxf_bytes(r, len + QUIC_CONN_ID_TOKEN_LEN);
		break;
	case 13:
		rxf_byte(r, QUIC_FRAME_RETIRE_CONNECTION_ID);
		rxf_var(r, rxf_value(r, quic_source(r->c.sk)->next_number));
		break;
	case 14:
		len = rxf_below(r, 30);
		type = rxf_chance(r, 50) ? QUIC_FRAME_CONNECTION_CLOSE :
			QUIC_FRAME_CONNECTION_CLOSE_APP;
		rxf_byte(r, type);
		rxf_var(r, rxf_value(r, 0x200));
		if (type == QUIC_FRAME_CONNECTION_CLOSE)
			rxf_var(r, rxf_below(r, 0x40));
		rxf_var(r, rxf_chance(r, 80) ? len : rxf_value(r, 4096));
		rxf_bytes(r, len);
		break;
	case 15:
		len = rxf_below(r, 100);
		type = rxf_chance(r, 50) ? QUIC_FRAME_DATAGRAM : QUIC_FRAME_DATAGRAM_LEN;
		rxf_byte(r, type);
		if (type == QUIC_FRAME_DATAGRAM_LEN)
			rxf_var(r, rxf_chance(r, 80) ? len : rxf_value(r, 4096));
		rxf_bytes(r, len);
		break;
	case 16:
		/* Types RFC 9000 does not define, and non-shortest encodings. */
		if (rxf_chance(r, 50)) {
			rxf_var(r, 0x1f + rxf_below(r, 0x100));
		} else {
			rxf_byte(r, 0x40);
			rxf_byte(r, rxf_below(r, 0x20));
		}
		rxf_bytes(r, rxf_below(r, 8));
		break;
	default:
		/* Random bytes: whatever they decode to, after valid frames. */
		rxf_bytes(r, 1 + rxf_below(r, 24));
		break;
	}
}

/* The largest offset a valid STREAM frame reaches on one stream: well
 * inside both the stream's and (summed over every stream) the
 * connection's flow control limit.
 */
static u64 rxf_stream_cap(struct rxf *r, bool uni)
{
	const struct quic_transport_param *lp = quic_local_param(r->c.sk);
	u64 cap = (uni ? lp->max_stream_data_uni : lp->max_stream_data_bidi_remote) / 2;

	cap = min_t(u64, cap, lp->max_data / (4 * RXF_STREAMS));
	return min_t(u64, cap, 2048);
}

/* A STREAM or RESET_STREAM frame that keeps the stream's final size. */
static void rxf_valid_stream(struct rxf *r, bool reset)
{
	bool uni = rxf_chance(r, 40);
	u32 k = rxf_below(r, RXF_STREAMS);
	struct rxf_stream *st = &r->streams[uni][k];
	u64 cap = st->final >= 0 ? st->final : rxf_stream_cap(r, uni);
	u64 id = 4 * k + (uni ? 3 : 1), off, len;
	u8 bits = 0;

	if (reset) {
		if (st->final < 0)
			st->final = st->hi + rxf_below(r, 100);
		rxf_byte(r, QUIC_FRAME_RESET_STREAM);
		rxf_var(r, id);
		rxf_var(r, rxf_below(r, 0x10000));
		rxf_var(r, st->final);
		return;
	}
	off = rxf_below(r, cap + 1);
	len = rxf_below(r, min_t(u64, cap - off, 200) + 1);
	if (off)
		bits |= 0x04;
	if (rxf_chance(r, 70))
		bits |= 0x02;
	if ((st->final < 0 && off + len >= st->hi && rxf_chance(r, 5)) ||
	    (st->final >= 0 && off + len == st->final)) {
		bits |= 0x01;
		st->final = off + len;
	}
	/* Without a Length field the data runs to the end of the packet,
	 * padding included: no FIN then, and room for a few more bytes.
	 */
	if (rxf_chance(r, 80) || (bits & 0x01))
		bits |= 0x02;
	st->hi = max(st->hi, off + len + ((bits & 0x02) ? 0 : 4));
	rxf_byte(r, QUIC_FRAME_STREAM | bits);
	rxf_var(r, id);
	if (bits & 0x04)
		rxf_var(r, off);
	if (bits & 0x02)
		rxf_var(r, len);
	rxf_bytes(r, len);
	if (!(bits & 0x02))
		r->open_ended = true;
}

/* An ACK of packets the client did send, in one to four ranges. */
static void rxf_valid_ack(struct rxf *r)
{
	s64 next = quic_pnspace(r->c.sk, QUIC_CRYPTO_APP)->next_pn;
	u64 largest, smallest, first, gap[3], span[3];
	u32 n, i;

	if (next <= 0) {
		rxf_byte(r, QUIC_FRAME_PING);
		return;
	}
	largest = rxf_below(r, next);
	first = rxf_below(r, min_t(u64, largest, 8) + 1);
	smallest = largest - first;
	/* Each further range needs a gap: its largest is smallest - gap - 2. */
	for (n = 0; n < rxf_below(r, 4) && smallest >= 2; n++) {
		gap[n] = rxf_below(r, min_t(u64, smallest - 2, 4) + 1);
		smallest -= gap[n] + 2;
		span[n] = rxf_below(r, min_t(u64, smallest, 4) + 1);
		smallest -= span[n];
	}
	rxf_byte(r, QUIC_FRAME_ACK);
	rxf_var(r, largest);
	rxf_var(r, rxf_below(r, 1000));
	rxf_var(r, n);
	rxf_var(r, first);
	for (i = 0; i < n; i++) {
		rxf_var(r, gap[i]);
		rxf_var(r, span[i]);
	}
}

/* A frame the server may send in a 1-RTT packet, with legal values. */
static void rxf_valid_frame(struct rxf *r)
{
	struct quic_conn_id_set *dest = quic_dest(r->c.sk), *src = quic_source(r->c.sk);
	struct quic_conn_id_entry *e;
	u32 i;

	switch (rxf_below(r, 20)) {
	case 0:
		for (i = 1 + rxf_below(r, 16); i; i--)
			rxf_byte(r, QUIC_FRAME_PADDING);
		break;
	case 1:
		rxf_byte(r, QUIC_FRAME_PING);
		break;
	case 2:
	case 3:
		rxf_valid_ack(r);
		break;
	case 4:
		rxf_valid_stream(r, true);
		break;
	case 5:
	case 6:
		/* STOP_SENDING and MAX_STREAM_DATA: the client's sending part of
		 * the server's bidirectional streams.
		 */
		rxf_byte(r, rxf_chance(r, 50) ? QUIC_FRAME_STOP_SENDING :
			 QUIC_FRAME_MAX_STREAM_DATA);
		rxf_var(r, 4 * rxf_below(r, RXF_STREAMS) + 1);
		rxf_var(r, rxf_u64(r) & 0xfffffff);
		break;
	case 7:
		rxf_byte(r, QUIC_FRAME_NEW_TOKEN);
		rxf_var(r, 1 + rxf_below(r, 48));
		rxf_bytes(r, r->payload[r->len - 1]);
		break;
	case 8:
		rxf_byte(r, QUIC_FRAME_MAX_DATA);
		rxf_var(r, rxf_u64(r) & 0xffffffff);
		break;
	case 9:
		rxf_byte(r, QUIC_FRAME_MAX_STREAMS_BIDI + rxf_below(r, 2));
		rxf_var(r, rxf_below(r, 1000));
		break;
	case 10:
		rxf_byte(r, QUIC_FRAME_DATA_BLOCKED);
		rxf_var(r, rxf_u64(r) & 0xffffff);
		break;
	case 11:
		rxf_byte(r, QUIC_FRAME_STREAM_DATA_BLOCKED);
		rxf_var(r, 4 * rxf_below(r, RXF_STREAMS) + (rxf_chance(r, 50) ? 1 : 3));
		rxf_var(r, rxf_below(r, 4096));
		break;
	case 12:
		rxf_byte(r, QUIC_FRAME_STREAMS_BLOCKED_BIDI + rxf_below(r, 2));
		rxf_var(r, rxf_below(r, 1000));
		break;
	case 13:
		/* A new ID while the client has room for one. */
		r->ncid_next = max(r->ncid_next, dest->next_number);
		if (dest->count + (r->ncid_next - dest->next_number) >=
		    quic_local_param(r->c.sk)->active_connection_id_limit) {
			rxf_byte(r, QUIC_FRAME_PING);
			break;
		}
		rxf_byte(r, QUIC_FRAME_NEW_CONNECTION_ID);
		rxf_var(r, r->ncid_next++);
		rxf_var(r, 0);
		rxf_byte(r, 8);
		rxf_bytes(r, 8 + QUIC_CONN_ID_TOKEN_LEN);
		break;
	case 14:
		/* Retire one of the client's IDs, not the one this packet uses. */
		e = list_last_entry(&src->head, struct quic_conn_id_entry, list);
		if (src->count < 2 || (e->id.len == r->c.dcid.len &&
				       !memcmp(e->id.data, r->c.dcid.data, e->id.len))) {
			rxf_byte(r, QUIC_FRAME_PING);
			break;
		}
		rxf_byte(r, QUIC_FRAME_RETIRE_CONNECTION_ID);
		rxf_var(r, e->number);
		break;
	case 15:
		rxf_byte(r, QUIC_FRAME_PATH_CHALLENGE + rxf_below(r, 2));
		rxf_bytes(r, QUIC_FRAME_PATH_DATA_LEN);
		break;
	case 16:
		rxf_byte(r, QUIC_FRAME_HANDSHAKE_DONE);
		break;
	default:
		rxf_valid_stream(r, false);
		break;
	}
}

/* Byte-level damage to a well-formed payload. */
static void rxf_mutate(struct rxf *r)
{
	static const u8 edges[] = { 0x00, 0x01, 0x3f, 0x40, 0x7f, 0x80, 0xbf, 0xc0, 0xff };
	u32 n = 1 + rxf_below(r, 3), at, span;

	while (n-- && r->len) {
		at = rxf_below(r, r->len);
		switch (rxf_below(r, 6)) {
		case 0:
			r->payload[at] ^= BIT(rxf_below(r, 8));
			break;
		case 1:
			r->payload[at] = edges[rxf_below(r, ARRAY_SIZE(edges))];
			break;
		case 2:
			r->len = at;	/* truncate */
			break;
		case 3:
			/* copy a chunk over another place: overlapping data */
			span = 1 + rxf_below(r, min_t(u32, r->len - at, 32));
			memmove(r->payload + rxf_below(r, r->len - span + 1), r->payload + at,
				span);
			break;
		case 4:
			/* insert random bytes */
			span = min_t(u32, 1 + rxf_below(r, 8), RXF_PAYLOAD_MAX - r->len);
			memmove(r->payload + at + span, r->payload + at, r->len - at);
			prandom_bytes_state(&r->rnd, r->payload + at, span);
			r->len += span;
			break;
		default:
			r->payload[at] = prandom_u32_state(&r->rnd);
			break;
		}
	}
}

/* A random Packet Number length the client can still decode. */
static u8 rxf_pn_len(struct rxf *r)
{
	u8 len = rx_conn_min_pn_len(&r->c);

	return len + rxf_below(r, 5 - len);
}

/* The payload in a protected packet; padded first when it is too short
 * for the header protection sample, so that the oracle sees the padding.
 */
static u32 rxf_protect(struct rxf *r, u8 first, u8 pn_len)
{
	while (r->len + pn_len < 4)
		rxf_byte(r, QUIC_FRAME_PADDING);
	return rx_conn_protect(&r->c, r->payload, r->len, first, pn_len);
}

/* What the payload must do, from the frame codec alone. */
static void rxf_oracle(struct rxf *r, struct rxf_expect *e)
{
	struct quic_frame_ctx ctx = {
		.level = QUIC_CRYPTO_APP,
		.is_serv = 0,
		.max_datagram = quic_local_param(r->c.sk)->max_datagram_frame_size,
	};
	s64 next = quic_pnspace(r->c.sk, QUIC_CRYPTO_APP)->next_pn;
	const u8 *p = r->payload;
	u32 len = r->len;
	struct quic_frame f;
	bool first = true;
	int err;

	*e = (struct rxf_expect){ .may_close = true };
	while (len) {
		err = quic_frame_decode(&p, &len, &ctx, &f);
		if (err) {
			if (first) {
				e->must_close = true;
				e->code = quic_frame_transport_error(err);
			}
			return;
		}
		if (first && (f.type == QUIC_FRAME_ACK || f.type == QUIC_FRAME_ACK_ECN) &&
		    f.ack.largest >= (u64)next + RXF_NEVER_SENT / 2) {
			e->must_close = true;
			e->code = QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION;
		}
		if (f.type == QUIC_FRAME_CONNECTION_CLOSE ||
		    f.type == QUIC_FRAME_CONNECTION_CLOSE_APP)
			e->peer_close = true;
		first = false;
	}
}

/* A new connection, and a clean model of its streams. */
static void rxf_connect(struct rxf *r)
{
	u32 i;

	rx_conn_open(&r->c);
	r->last_len = 0;
	r->ncid_next = 0;
	r->tainted = false;
	memset(r->streams, 0, sizeof(r->streams));
	for (i = 0; i < RXF_STREAMS; i++) {
		r->streams[0][i].final = -1;
		r->streams[1][i].final = -1;
	}
}

static bool rxf_transport_code(u64 code)
{
	return code <= QUIC_TRANSPORT_ERROR_VERSION_NEGOTIATION ||
	       (code >= QUIC_TRANSPORT_ERROR_CRYPTO && code <= QUIC_TRANSPORT_ERROR_CRYPTO + 0xff);
}

static void rxf_fail(struct rxf *r, u32 i, enum rxf_kind kind, const char *what, u64 code,
		     const struct rxf_expect *e)
{
	r->failures++;
	KUNIT_FAIL(r->c.test, "input %u (%s, seed %#llx): %s (close code %#llx, expected %#x)",
		   i, rxf_kind_name[kind], rx_fuzz_seed, what, code, e->code);
	print_hex_dump(KERN_INFO, "    payload: ", DUMP_PREFIX_OFFSET, 16, 1, r->payload,
		       min_t(u32, r->len, 128), false);
}

/* Check the connection against the expectation; replace it if it closed. */
static void rxf_check(struct rxf *r, u32 i, enum rxf_kind kind, const struct rxf_expect *e)
{
	const struct quic_close_info *seen;
	u64 code = 0;

	if (quic_is_established(r->c.sk)) {
		if (e->must_close)
			rxf_fail(r, i, kind, "the connection stayed open", 0, e);
		return;
	}
	lock_sock(r->c.sk);
	seen = &quic_sk(r->c.sk)->close.seen;
	code = seen->errcode;
	release_sock(r->c.sk);

	r->closes[kind]++;
	if (e->peer_close && !e->must_close)
		r->peer_closes++;
	else if (code < ARRAY_SIZE(r->codes) - 1)
		r->codes[code]++;
	else if (code >= QUIC_TRANSPORT_ERROR_CRYPTO)
		r->codes[ARRAY_SIZE(r->codes) - 1]++;

	if (!e->may_close)
		rxf_fail(r, i, kind, "closed by an input that must be dropped", code, e);
	else if (e->must_close && code != e->code)
		rxf_fail(r, i, kind, "closed with another code", code, e);
	else if (!e->peer_close &&
		 (!rxf_transport_code(code) || code == QUIC_TRANSPORT_ERROR_INTERNAL))
		rxf_fail(r, i, kind, "closed with a code outside RFC 9000 Section 20", code, e);

	rx_conn_close(&r->c);
	rxf_connect(r);
}

/* A packet the client must drop whole: the header is changed before
 * protection in a way that makes it someone else's or not 1-RTT at all.
 */
static u32 rxf_header_change(struct rxf *r)
{
	u32 len = rxf_protect(r, 0, rxf_pn_len(r));

	switch (rxf_below(r, 3)) {
	case 0:
		r->c.pkt[0] &= ~QUIC_HDR_FIXED_BIT;	/* grease_quic_bit not sent */
		break;
	case 1:
		r->c.pkt[0] |= QUIC_HDR_FORM_LONG;
		break;
	default:
		r->c.pkt[1 + rxf_below(r, r->c.dcid.len)] ^= 1 + rxf_below(r, 255);
		break;
	}
	return len;
}

/* Damage after protection: AEAD (or the connection ID lookup) rejects it. */
static u32 rxf_damage(struct rxf *r)
{
	u32 len = rxf_protect(r, 0, rxf_pn_len(r)), at;

	switch (rxf_below(r, 4)) {
	case 0:
		r->c.pkt[0] ^= QUIC_HDR_SHORT_KEY_PHASE_BIT;
		break;
	case 1:
		return 1 + r->c.dcid.len + rxf_below(r, len - 1 - r->c.dcid.len);
	case 2:
		at = min_t(u32, len + 1 + rxf_below(r, 32), RX_PKT_MAX);
		prandom_bytes_state(&r->rnd, r->c.pkt + len, at - len);
		return at;
	default:
		at = 1 + r->c.dcid.len + rxf_below(r, len - 1 - r->c.dcid.len);
		r->c.pkt[at] ^= BIT(rxf_below(r, 8));
		break;
	}
	return len;
}

/*
 * rx_fuzz_inputs (60,000) inputs against live connections; each is dropped or closes the
 * connection as the oracle at the top of this file says.
 */
static void rx_fuzz_every_input_is_dropped_or_closes_with_its_code(struct kunit *test)
{
	s64 socks_before = percpu_counter_sum(&quic_sockets_allocated);
	long mem_before;
	struct rxf_expect e;
	enum rxf_kind kind;
	struct proto *prot;
	ktime_t start;
	struct rxf *r;
	u32 i, len;
	int n;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->last = kunit_kzalloc(test, RX_PKT_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->last);
	prandom_seed_state(&r->rnd, rx_fuzz_seed);
	rx_conn_setup(test, &r->c, &rxf_case, RXF_PORT);
	rxf_connect(r);
	prot = r->c.sk->sk_prot;
	mem_before = rx_memory_charged(prot);

	start = ktime_get();
	for (i = 0; i < rx_fuzz_inputs && r->failures < RXF_MAX_FAILURES; i++) {
		u32 roll = rxf_below(r, 10000);

		rx_conn_pick_dcid(&r->c);
		r->len = 0;
		r->open_ended = false;
		if (roll < RXF_RATE_RESERVED)
			kind = RXF_RESERVED;
		else if (roll < RXF_RATE_RESERVED + RXF_RATE_MUTATED)
			kind = RXF_MUTATED;
		else if (roll < RXF_RATE_RESERVED + RXF_RATE_MUTATED + RXF_RATE_HOSTILE)
			kind = RXF_HOSTILE;
		else if (roll < 1500)
			kind = RXF_HEADER;
		else if (roll < 3000)
			kind = RXF_DAMAGED;
		else if (roll < 3300 && r->last_len)
			kind = RXF_REPLAY;
		else
			kind = RXF_FRAMES;
		r->inputs[kind]++;

		switch (kind) {
		case RXF_REPLAY:
			/* RFC 9000 Section 12.3: a duplicate is not processed again. */
			e = (struct rxf_expect){};
			memcpy(r->payload, "replay", 6);
			r->len = 6;
			rx_conn_inject(&r->c, r->last, r->last_len);
			rxf_check(r, i, kind, &e);
			continue;
		case RXF_HEADER:
		case RXF_DAMAGED:
			/* A harmless payload: only the packet around it is wrong. */
			rxf_byte(r, QUIC_FRAME_PING);
			e = (struct rxf_expect){};
			len = kind == RXF_HEADER ? rxf_header_change(r) : rxf_damage(r);
			break;
		case RXF_RESERVED:
			rxf_valid_frame(r);
			e = (struct rxf_expect){ .must_close = true, .may_close = true,
				.code = QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION };
			len = rxf_protect(r, BIT(3 + rxf_below(r, 2)), rxf_pn_len(r));
			break;
		case RXF_FRAMES:
			for (n = 1 + rxf_below(r, 4); n && !r->open_ended; n--)
				rxf_valid_frame(r);
			e = (struct rxf_expect){ .may_close = r->tainted };
			len = rxf_protect(r, 0, rxf_pn_len(r));
			break;
		default:
			/* Hostile frames among valid ones, or valid ones mutated. */
			for (n = 1 + rxf_below(r, 4); n && !r->open_ended; n--) {
				if (kind == RXF_HOSTILE && rxf_chance(r, 60))
					rxf_hostile_frame(r);
				else
					rxf_valid_frame(r);
			}
			if (kind == RXF_MUTATED)
				rxf_mutate(r);
			len = rxf_protect(r, 0, rxf_pn_len(r));
			rxf_oracle(r, &e);
			break;
		}
		rx_conn_inject(&r->c, r->c.pkt, len);
		if ((kind == RXF_HOSTILE || kind == RXF_MUTATED) && quic_is_established(r->c.sk))
			r->tainted = true;
		if (kind == RXF_FRAMES && quic_is_established(r->c.sk)) {
			memcpy(r->last, r->c.pkt, len);
			r->last_len = len;
		}
		rxf_check(r, i, kind, &e);
	}

	kunit_info(test, "seed %#llx: %u inputs, %u connections, %lld ms\n", rx_fuzz_seed, i,
		   r->c.conns, ktime_ms_delta(ktime_get(), start));
	for (kind = 0; kind < RXF_KIND_MAX; kind++)
		kunit_info(test, "  %-26s %6u inputs, %5u closed the connection\n",
			   rxf_kind_name[kind], r->inputs[kind], r->closes[kind]);
	for (n = 0; n < ARRAY_SIZE(r->codes); n++)
		if (r->codes[n])
			kunit_info(test, "  closes with %s %#x: %u\n",
				   n < ARRAY_SIZE(r->codes) - 1 ? "code" : "CRYPTO_ERROR",
				   n < ARRAY_SIZE(r->codes) - 1 ? n : QUIC_TRANSPORT_ERROR_CRYPTO,
				   r->codes[n]);
	kunit_info(test, "  closes by the peer's CONNECTION_CLOSE: %u\n", r->peer_closes);
	KUNIT_EXPECT_EQ(test, i, rx_fuzz_inputs);
	/* Each kind was exercised, and the frame inputs reached frame processing. */
	for (kind = 0; kind < RXF_KIND_MAX; kind++)
		KUNIT_EXPECT_GT(test, r->inputs[kind], 0);
	KUNIT_EXPECT_GT(test, r->closes[RXF_HOSTILE], 0);
	KUNIT_EXPECT_GT(test, r->closes[RXF_MUTATED], 0);

	/* Teardown leaves nothing behind: sockets and charged memory. */
	rx_conn_close(&r->c);
	rx_expect_released(test, prot, socks_before, mem_before);
}

static struct kunit_case rx_fuzz_cases[] = {
	KUNIT_CASE_SLOW(rx_fuzz_every_input_is_dropped_or_closes_with_its_code),
	{}
};

static struct kunit_suite rx_fuzz_suite = {
	.name = "quic_rx_fuzz",
	.suite_init = quic_kunit_net_suite_init,
	.suite_exit = quic_kunit_net_suite_exit,
	.test_cases = rx_fuzz_cases,
};

kunit_test_suite(rx_fuzz_suite);
