// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC packet transmission.
 *
 * quic_xmit() builds datagrams until the send queue, the congestion window
 * or the anti-amplification limit stops it. Each datagram holds one packet
 * per encryption level at most, in the order Initial, Handshake, 0-RTT,
 * 1-RTT (RFC 9000 Section 12.2: coalescing); the send queue (outqueue.c)
 * writes each payload, this file the header around it and the packet
 * protection (RFC 9001 Section 5). A client pads every datagram carrying
 * an Initial packet to 1200 bytes, a server those carrying an
 * ack-eliciting one (RFC 9000 Section 14.1): padding puts a packet in
 * flight, and nothing acknowledges an ACK-only packet on its own.
 *
 * Context: the socket is owned by the caller (lock_sock() or the receive
 * path under bh_lock_sock()); nothing here sleeps.
 */

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/sock.h>

#include "close.h"
#include "connection.h"
#include "migrate.h"
#include "packet.h"
#include "socket.h"
#include "transmit.h"

/* Packet Number field length we always write: the longest, so that the
 * header length is known before the payload (RFC 9000 Section 17.1 allows
 * any length the peer can decode).
 */
#define QUIC_XMIT_PN_LEN	4
/* Bytes a long header's Length field is written on: up to 16383. */
#define QUIC_XMIT_LEN_SIZE	2

static u8 quic_xmit_packet_type(u8 level)
{
	switch (level) {
	case QUIC_CRYPTO_INITIAL:
		return QUIC_PACKET_INITIAL;
	case QUIC_CRYPTO_HANDSHAKE:
		return QUIC_PACKET_HANDSHAKE;
	case QUIC_CRYPTO_EARLY:
		return QUIC_PACKET_0RTT;
	default:
		return QUIC_PACKET_1RTT;
	}
}

/* The header of the next packet of @level, Packet Number and Length left
 * to be filled in.
 */
static void quic_xmit_header(struct sock *sk, u8 level, struct quic_packet_hdr *hdr)
{
	struct quic_conn_id_entry *dcid = quic_conn_id_active(quic_dest(sk));
	struct quic_conn_id_entry *scid = quic_conn_id_active(quic_source(sk));

	memset(hdr, 0, sizeof(*hdr));
	hdr->type = quic_xmit_packet_type(level);
	/* RFC 9287 Section 3: once the peer said it takes either value, the
	 * Fixed Bit is random, so that middleboxes cannot come to rely on it.
	 */
	hdr->fixed = quic_packet_fixed_bit(quic_sk(sk)->remote_param_set &&
					   quic_remote_param(sk)->grease_quic_bit);
	hdr->version = quic_config(sk)->version;
	/* RFC 9369 Section 4: 0-RTT stays in the original version. */
	if (level == QUIC_CRYPTO_EARLY && quic_sk(sk)->orig_version)
		hdr->version = quic_sk(sk)->orig_version;
	hdr->pn_len = QUIC_XMIT_PN_LEN;
	if (dcid)
		hdr->dcid = dcid->id;
	if (hdr->type == QUIC_PACKET_1RTT)
		return;
	hdr->len_size = QUIC_XMIT_LEN_SIZE;
	hdr->length = hdr->pn_len;	/* the real value once the payload is known */
	if (scid)
		hdr->scid = scid->id;
	/* RFC 9000 Section 17.2.2: only a client's Initials carry a token. */
	if (hdr->type == QUIC_PACKET_INITIAL && !quic_paths(sk)->serv) {
		hdr->token = quic_token(sk)->data;
		hdr->token_len = quic_token(sk)->len;
	}
}

/* What quic_xmit_packet() writes: anything due, a PLPMTUD probe, or only
 * the ACK frame owed.
 */
enum quic_xmit_kind {
	QUIC_XMIT_ANY,
	QUIC_XMIT_PMTU_PROBE,
	QUIC_XMIT_ACK_ONLY,
};

/*
 * Write one protected packet of @level at @buf, at most @room bytes, at
 * least @min_len when anything is sent. Return: its length, 0 when the
 * level has nothing to send or no room, or a negative errno.
 */
static int quic_xmit_packet(struct sock *sk, u8 level, u8 *buf, u32 room, u32 min_len,
			    enum quic_xmit_kind kind, u64 now)
{
	struct quic_crypto *crypto = quic_crypto(sk, level);
	struct quic_crypto_pkt pkt = {};
	struct quic_packet_hdr hdr;
	struct quic_outq_tx tx = {};
	u32 hlen, tag, left;
	u8 *p;
	int err;

	quic_xmit_header(sk, level, &hdr);
	err = quic_packet_hdr_len(&hdr);
	if (err < 0)
		return err;
	hlen = err;
	tag = quic_crypto_tag_len(crypto, hdr.type != QUIC_PACKET_1RTT);
	/* Header protection samples 16 bytes after the 4-byte Packet Number
	 * (RFC 9001 Section 5.4.2): the AEAD tag alone covers that.
	 */
	if (room < hlen + tag + QUIC_HP_SAMPLE_LEN)
		return 0;

	tx.level = level;
	tx.buf = buf + hlen;
	tx.room = room - hlen - tag;
	tx.overhead = hlen + tag;
	tx.min_len = min_len > hlen + tag ? min_len - hlen - tag : 0;
	/* Unprotected 1-RTT packets lack the tag that makes every protected
	 * one at least 21 bytes long (RFC 9000 Section 10.3). Ack-eliciting
	 * ones get that length back with PADDING; ACK-only ones stay short:
	 * padding would count them in flight (RFC 9002 Section 2), and as
	 * nothing acknowledges them on their own, a receiver that only sends
	 * ACKs would fill its congestion window with them and stall.
	 */
	if (!tag)
		tx.min_eliciting = QUIC_HP_SAMPLE_LEN;
	/*
	 * RFC 9000 Section 14.1: a client expands every datagram carrying an
	 * Initial packet to 1200 bytes, a server only those carrying an
	 * ack-eliciting one. A server's padded ACK-only Initial would be in
	 * flight (RFC 9002 Section 2) with nothing to ever acknowledge it: a
	 * client whose probes it answers while TLS prepares the ServerHello
	 * would fill the server's congestion window with them, and then the
	 * ServerHello, held by the window with no PTO armed (nothing
	 * ack-eliciting in flight), would never leave.
	 */
	if (level == QUIC_CRYPTO_INITIAL && quic_paths(sk)->serv) {
		tx.min_eliciting = max(tx.min_eliciting, tx.min_len);
		tx.min_len = 0;
	}
	/*
	 * Sections 8.2.1 and 8.2.2: the datagram of a PATH_CHALLENGE or
	 * PATH_RESPONSE is expanded to 1200 bytes; both frames are
	 * ack-eliciting. When the congestion window holds the frame back,
	 * what leaves is an ACK alone, which must stay unpadded, or each ACK
	 * would add 1200 bytes in flight that nothing acknowledges, until the
	 * window is full of them and the connection stalls (found by
	 * quic_explore, scenario nat_rebinding).
	 */
	if (level == QUIC_CRYPTO_APP) {
		tx.min_eliciting = max(tx.min_eliciting, tx.min_len);
		tx.min_len = 0;
	}
	tx.pmtu_probe = kind == QUIC_XMIT_PMTU_PROBE;
	tx.ack_only = kind == QUIC_XMIT_ACK_ONLY;
	tx.nagle = !quic_config(sk)->stream_data_nodelay;
	tx.now = now;
	err = quic_outq_fill(quic_outq(sk), &tx, GFP_ATOMIC);
	if (err || !tx.len)
		return err;
	if (tx.resent)
		QUIC_ADD_STATS(sock_net(sk), QUIC_MIB_FRM_RETRANS, tx.resent);

	hdr.pn = tx.pn;
	hdr.length = hdr.pn_len + tx.len + tag;
	p = buf;
	left = hlen;
	err = quic_packet_build(&p, &left, &hdr);
	if (err)
		return err;

	pkt.len = hlen + tx.len + tag;
	pkt.pn_offset = hlen - hdr.pn_len;
	pkt.number = tx.pn;
	err = quic_crypto_encrypt_buf(crypto, buf, &pkt);
	if (err) {
		/* Recorded as sent: loss detection repairs it later. */
		QUIC_INC_STATS(sock_net(sk), QUIC_MIB_PKT_ENCDROP);
		return err;
	}
	/* A timer that fired while the application held the socket runs
	 * from release_sock(): deferred work, counted apart.
	 */
	QUIC_INC_STATS(sock_net(sk), quic_timers(sk)->running_deferred ?
		       QUIC_MIB_PKT_ENCBACKLOGS : QUIC_MIB_PKT_ENCFASTPATHS);
	if (level == QUIC_CRYPTO_APP)
		quic_sk(sk)->noticed |= QUIC_XMIT_SAW_KEY_LIMIT;
	if (tx.ack_eliciting)
		quic_sk(sk)->noticed |= QUIC_XMIT_SAW_ACK_ELICITING;
	return pkt.len;
}

/**
 * quic_xmit_stateless - send a datagram that belongs to no connection
 * @sk: a listener, owned (softirq)
 * @skb: the datagram, skb->data at its first byte; consumed
 * @da: where it goes (the address the packet it answers came from)
 * @sa: where it comes from (the address that packet was sent to)
 *
 * For Retry, Version Negotiation and Stateless Reset packets. A listener
 * answers many clients, so no route is kept on it: it is looked up each
 * time.
 *
 * Return: 0, or a negative errno when there is no route.
 */
int quic_xmit_stateless(struct sock *sk, struct sk_buff *skb, const union quic_addr *da,
			const union quic_addr *sa)
{
	union quic_addr d = *da, s = *sa;
	struct flowi fl;
	int err;

	sock_owned_by_me(sk);
	sk_dst_reset(sk);
	err = quic_flow_route(sk, &d, &s, &fl);
	if (err < 0) {
		kfree_skb(skb);
		return err;
	}
	quic_lower_xmit(sk, skb, &d, &fl, 0);
	sk_dst_reset(sk);
	return 0;
}

#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
struct quic_xmit_kunit_hooks quic_xmit_kunit_hooks;
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_xmit_kunit_hooks);
#endif

/* Whether a datagram is lost on its way out (test hook); skb->data is at
 * its first QUIC packet.
 */
static bool quic_xmit_drop(struct sock *sk, struct sk_buff *skb)
{
#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
	bool (*hook)(struct sock *sk, struct sk_buff *skb);

	hook = READ_ONCE(quic_xmit_kunit_hooks.drop);
	if (hook)
		return hook(sk, skb);
#endif
	return false;
}

/* Count the datagrams of a GSO run (test hook). */
static void quic_xmit_gso_hook(u16 segs)
{
#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
	atomic_t *gso = READ_ONCE(quic_xmit_kunit_hooks.gso);

	if (gso)
		atomic_add(segs, gso);
#endif
}

/* Route and send a datagram whose skb->data is at its first QUIC packet;
 * the skb is consumed. Return: 0, or a negative errno when no route.
 */
static int quic_xmit_out(struct sock *sk, struct sk_buff *skb, bool ecn)
{
	struct quic_path_group *paths = quic_paths(sk);
	int err;

	err = quic_flow_route(sk, quic_path_daddr(paths, 0), quic_path_saddr(paths, 0),
			      &paths->fl);
	if (err < 0) {
		kfree_skb(skb);
		return err;
	}
	if (quic_xmit_drop(sk, skb)) {
		kfree_skb(skb);
		return 0;
	}
	skb->ignore_df = 0;
	quic_lower_xmit(sk, skb, quic_path_daddr(paths, 0), &paths->fl,
			ecn ? INET_ECN_ECT_0 : INET_ECN_NOT_ECT);
	return 0;
}

/**
 * quic_xmit_resend - send a copy of a datagram built before
 * @sk: the socket, owned by the caller
 * @skb: the datagram as quic_xmit() built it (skb->data at its first
 *	QUIC packet); left untouched
 *
 * For the closing state, which repeats the same closing datagram (RFC 9000
 * Section 10.2.1).
 *
 * Return: 0, -ENOMEM, or a negative errno when there is no route.
 */
int quic_xmit_resend(struct sock *sk, const struct sk_buff *skb)
{
	struct sk_buff *copy = skb_copy(skb, GFP_ATOMIC);

	if (!copy)
		return -ENOMEM;
	return quic_xmit_out(sk, copy, false);
}

/* Levels whose send keys exist, in coalescing order. 0-RTT only until the
 * 1-RTT keys replace it (RFC 9001 Section 4.6.1), and never ahead of the
 * first Initial: the 0-RTT keys exist as soon as TLS has made the
 * ClientHello, before it is handed to us, and a server cannot place a
 * 0-RTT packet of a connection it has not heard of (RFC 9000 Section
 * 5.2.2).
 */
static bool quic_xmit_level_usable(struct sock *sk, u8 level)
{
	if (!quic_crypto(sk, level)->tx.ready)
		return false;
	/* Discarded at the next quic_conn_flush(): no longer used. */
	if (level == QUIC_CRYPTO_INITIAL && (quic_sk(sk)->noticed & QUIC_XMIT_SAW_HANDSHAKE))
		return false;
	if (level == QUIC_CRYPTO_EARLY)
		return !quic_crypto(sk, QUIC_CRYPTO_APP)->tx.ready &&
		       quic_pnspace(sk, QUIC_CRYPTO_INITIAL)->next_pn > 0;
	return true;
}

static const u8 quic_xmit_levels[] = {
	QUIC_CRYPTO_INITIAL, QUIC_CRYPTO_HANDSHAKE, QUIC_CRYPTO_EARLY, QUIC_CRYPTO_APP,
};

/* The smallest datagram worth building for an unvalidated address: a
 * short header, a PATH_CHALLENGE or PATH_RESPONSE and the AEAD tag.
 */
#define QUIC_XMIT_MIN_PROBE	64

/*
 * UDP GSO (Documentation/networking/segmentation-offloads.rst): once the
 * handshake keys are gone, a datagram is a single 1-RTT packet, and runs
 * of them are built back to back in one skb that goes down the stack once
 * (one route, one IP header, one pass through netfilter and the qdisc) and
 * is cut into datagrams of gso_size bytes by the device or, failing that,
 * just before it. Every datagram of a run but the last has the same length;
 * a shorter one ends the run.
 */
struct quic_xmit_run {
	struct sk_buff *skb;	/* the datagrams so far, skb->data at the first */
	u32 size;		/* the length of each (gso_size) */
	u16 segs;		/* how many */
	u16 max;		/* how many the skb has room for */
	bool ecn;		/* their ECN mark, which they share */
	bool full;		/* nothing may follow: the last one was short */
};

/* The UDP and IP length fields hold 16 bits: a run's datagrams together,
 * with the UDP header, fit in them (the IPv6 header counted for both
 * families, to keep one bound).
 */
#define QUIC_XMIT_RUN_MAX_LEN	(U16_MAX - sizeof(struct ipv6hdr) - sizeof(struct udphdr))

static u32 quic_xmit_headroom(void)
{
	return MAX_HEADER + sizeof(struct ipv6hdr) + sizeof(struct udphdr);
}

/**
 * quic_xmit_probe - send a path validation frame on a path of its own
 * @sk: the socket, owned, with 1-RTT send keys
 * @f: a PATH_CHALLENGE or PATH_RESPONSE frame
 * @dcid: the peer's connection ID to send to on that path
 * @sa: our address on that path
 * @da: the peer's address on that path
 *
 * RFC 9000 Section 8.2: a PATH_CHALLENGE goes on the path it validates, a
 * PATH_RESPONSE on the path its challenge came on, both in a datagram
 * expanded to 1200 bytes (the frame, then PADDING). The packet takes the
 * next Application packet number but is not tracked for loss recovery:
 * the validation repeats its challenge itself, and a response is never
 * sent again (Section 13.3). An acknowledgment of it matches no packet
 * sent and is ignored.
 *
 * Return: 0, -EAGAIN without 1-RTT keys, -ENOMEM, or the error of the
 * packet build, the protection or the route lookup.
 */
int quic_xmit_probe(struct sock *sk, const struct quic_frame *f, const struct quic_conn_id *dcid,
		    const union quic_addr *sa, const union quic_addr *da)
{
	struct quic_crypto *crypto = quic_crypto(sk, QUIC_CRYPTO_APP);
	union quic_addr s = *sa, d = *da;
	struct quic_crypto_pkt pkt = {};
	struct quic_packet_hdr hdr;
	u32 hlen, room, tag;
	struct sk_buff *skb;
	struct flowi fl;
	u8 *buf, *p;
	s64 pn;
	int err;

	sock_owned_by_me(sk);
	if (!crypto->tx.ready)
		return -EAGAIN;
	quic_xmit_header(sk, QUIC_CRYPTO_APP, &hdr);
	hdr.dcid = *dcid;
	err = quic_packet_hdr_len(&hdr);
	if (err < 0)
		return err;
	hlen = err;
	tag = quic_crypto_tag_len(crypto, false);

	skb = alloc_skb(quic_xmit_headroom() + QUIC_MIN_UDP_PAYLOAD, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, quic_xmit_headroom());
	buf = skb_put_zero(skb, QUIC_MIN_UDP_PAYLOAD);
	p = buf + hlen;
	room = QUIC_MIN_UDP_PAYLOAD - hlen - tag;
	err = quic_frame_encode(&p, &room, f);	/* the zeros after it are PADDING */
	if (err)
		goto err;
	pn = quic_pnspace_next_pn(quic_pnspace(sk, QUIC_CRYPTO_APP));
	if (pn < 0) {
		err = pn;
		goto err;
	}
	hdr.pn = pn;
	p = buf;
	room = hlen;
	err = quic_packet_build(&p, &room, &hdr);
	if (err)
		goto err;
	pkt.len = QUIC_MIN_UDP_PAYLOAD;
	pkt.pn_offset = hlen - hdr.pn_len;
	pkt.number = pn;
	err = quic_crypto_encrypt_buf(crypto, buf, &pkt);
	if (err)
		goto err;

	/* The active path's cached route is not this one. */
	sk_dst_reset(sk);
	err = quic_flow_route(sk, &d, &s, &fl);
	if (err < 0)
		goto err;
	quic_lower_xmit(sk, skb, &d, &fl, 0);
	sk_dst_reset(sk);
	return 0;
err:
	kfree_skb(skb);
	return err;
}

/* Hand the run to the UDP tunnel: as one GSO skb when it holds several
 * datagrams, as a plain datagram otherwise.
 */
static void quic_xmit_run_flush(struct sock *sk, struct quic_xmit_run *run)
{
	struct sk_buff *skb = run->skb;

	if (!skb)
		return;
	run->skb = NULL;
	if (run->segs > 1) {
		/* The UDP header goes right before skb->data; its checksum
		 * is completed per segment (udp_set_csum(), __udp_gso_segment()).
		 */
		skb_shinfo(skb)->gso_size = run->size;
		skb_shinfo(skb)->gso_segs = run->segs;
		skb_shinfo(skb)->gso_type = SKB_GSO_UDP_L4;
		skb->ip_summed = CHECKSUM_PARTIAL;
		skb->csum_start = skb_headroom(skb) - sizeof(struct udphdr);
		skb->csum_offset = offsetof(struct udphdr, check);
		quic_xmit_gso_hook(run->segs);
	}
	quic_xmit_out(sk, skb, run->ecn);
}

/* Whether the next datagram can join a run: a lone 1-RTT packet with no
 * rule of its own on its size or its sending (Initial padding, path
 * validation, anti-amplification limit, the closing datagram kept).
 */
static bool quic_xmit_run_ok(struct sock *sk, bool path_frame)
{
	if (!quic_paths(sk)->validated || path_frame || quic_sk(sk)->xmit_keep)
		return false;
	if (quic_xmit_level_usable(sk, QUIC_CRYPTO_INITIAL) ||
	    quic_xmit_level_usable(sk, QUIC_CRYPTO_HANDSHAKE) ||
	    quic_xmit_level_usable(sk, QUIC_CRYPTO_EARLY))
		return false;
#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
	/* The loss hook decides on each datagram. */
	if (READ_ONCE(quic_xmit_kunit_hooks.drop))
		return false;
#endif
	return quic_xmit_level_usable(sk, QUIC_CRYPTO_APP);
}

/*
 * Build the next 1-RTT datagram of at most @room bytes at the end of
 * @run, starting a run when there is none. A run starts in an skb sized
 * for one datagram, so that a lone one (an ACK, say) costs no more memory
 * at either end than without GSO; a second full one moves it to an skb
 * with room for as many as the window lets out, up to a burst, taking one
 * copy of the first. Return: the datagram's length, 0 when there was
 * nothing to send, -ENOMEM when no skb could be had for a new run (the
 * caller then builds the datagram alone).
 */
static int quic_xmit_run_add(struct sock *sk, struct quic_xmit_run *run, u32 room, bool ecn,
			     u64 now)
{
	struct sk_buff *skb, *big = NULL;
	u32 max = 0;
	int n;

	if (run->skb && (run->full || run->ecn != ecn || run->size != room))
		quic_xmit_run_flush(sk, run);
	if (run->skb && run->max == 1) {
		max = clamp_t(u32, quic_cong_room(quic_cong(sk)) / room + 1, 2, QUIC_XMIT_BURST);
		max = min_t(u32, max, QUIC_XMIT_RUN_MAX_LEN / room);
		if (max >= 2)
			big = alloc_skb(quic_xmit_headroom() + max * room,
					GFP_ATOMIC | __GFP_NOWARN);
		if (big)
			skb_reserve(big, quic_xmit_headroom() + run->skb->len);
		else
			quic_xmit_run_flush(sk, run);
	}
	if (!run->skb) {
		skb = alloc_skb(quic_xmit_headroom() + room, GFP_ATOMIC);
		if (!skb)
			return -ENOMEM;
		skb_reserve(skb, quic_xmit_headroom());
		*run = (struct quic_xmit_run){ .skb = skb, .size = room, .max = 1, .ecn = ecn };
	}

	quic_outq(sk)->ecn_mark = ecn;
	skb = big ?: run->skb;
	n = quic_xmit_packet(sk, QUIC_CRYPTO_APP, skb_tail_pointer(skb), room, 0, QUIC_XMIT_ANY,
			     now);
	if (n <= 0) {
		kfree_skb(big);
		if (!run->segs) {
			kfree_skb(run->skb);
			run->skb = NULL;
		}
		quic_xmit_run_flush(sk, run);
		return 0;
	}
	if (big) {
		/* The first datagram goes in front of the second. */
		skb_push(big, run->skb->len);
		skb_copy_to_linear_data(big, run->skb->data, run->skb->len);
		consume_skb(run->skb);
		run->skb = big;
		run->max = max;
	}
	skb_put(skb, n);
	run->segs++;
	run->full = n < run->size;
	if (run->full || (run->segs > 1 && run->segs == run->max))
		quic_xmit_run_flush(sk, run);
	return n;
}

/*
 * Build and send one datagram, or add it to @run. Return: its length, 0
 * when nothing was sent.
 */
static int quic_xmit_datagram(struct sock *sk, struct quic_xmit_run *run, u64 now)
{
	struct quic_path_group *paths = quic_paths(sk);
	u32 room = quic_cong_mss(quic_cong(sk));
	u32 used = 0, min_len;
	bool hs_sent = false, path_frame, ecn;
	struct sk_buff *skb;
	int i, n;
	u8 *buf;

	/* RFC 9000 Section 8.1: three times what the client sent, until its
	 * address is validated.
	 */
	if (!paths->validated) {
		u64 ampl = quic_path_ampl_room(paths);
		/* Initials go in datagrams of 1200 bytes (Section 14.1); a
		 * connection that moved may send less to an unvalidated
		 * address, PATH_CHALLENGE included (Section 8.2.1).
		 */
		u32 least = quic_is_established(sk) ? QUIC_XMIT_MIN_PROBE : QUIC_MIN_UDP_PAYLOAD;

		if (ampl < room)
			room = ampl;
		quic_outq_set_amp_limited(quic_outq(sk), room < least);
		if (room < least)
			return 0;
	} else {
		quic_outq_set_amp_limited(quic_outq(sk), false);
	}

	/* RFC 9000 Section 13.4: every packet of the datagram shares its mark. */
	ecn = quic_outq_ecn_mark(quic_outq(sk));
	path_frame = quic_outq_path_frame_pending(quic_outq(sk));
	if (quic_xmit_run_ok(sk, path_frame)) {
		n = quic_xmit_run_add(sk, run, room, ecn, now);
		if (n >= 0)
			return n;
	}
	/* Anything else leaves after the run, in order. */
	quic_xmit_run_flush(sk, run);

	skb = alloc_skb(quic_xmit_headroom() + room, GFP_ATOMIC);
	if (!skb)
		return 0;
	skb_reserve(skb, quic_xmit_headroom());
	buf = skb->data;
	quic_outq(sk)->ecn_mark = ecn;

	for (i = 0; i < ARRAY_SIZE(quic_xmit_levels); i++) {
		u8 level = quic_xmit_levels[i];

		if (!quic_xmit_level_usable(sk, level))
			continue;
		min_len = 0;
		/* Sections 14.1 and 8.2.1: Initials and path validation frames
		 * travel in datagrams of at least 1200 bytes, within what the
		 * anti-amplification limit leaves.
		 */
		if ((level == QUIC_CRYPTO_INITIAL || (level == QUIC_CRYPTO_APP && path_frame)) &&
		    used < QUIC_MIN_UDP_PAYLOAD)
			min_len = min_t(u32, QUIC_MIN_UDP_PAYLOAD, room) - used;
		n = quic_xmit_packet(sk, level, buf + used, room - used, min_len, QUIC_XMIT_ANY,
				     now);
		if (n <= 0)
			continue;
		used += n;
		if (level == QUIC_CRYPTO_HANDSHAKE)
			hs_sent = true;
	}
	if (!used) {
		kfree_skb(skb);
		return 0;
	}
	skb_put(skb, used);

	if (!paths->validated)
		quic_path_ampl_send(paths, used);
	/* An immediate close keeps its datagram for the closing state. */
	if (quic_sk(sk)->xmit_keep && !*quic_sk(sk)->xmit_keep)
		*quic_sk(sk)->xmit_keep = skb_copy(skb, GFP_ATOMIC);
	if (quic_xmit_out(sk, skb, ecn))
		return used;

	/* RFC 9001 Section 4.9.1: a client drops its Initial keys when it
	 * first sends a Handshake packet.
	 */
	if (hs_sent && !paths->serv)
		quic_sk(sk)->noticed |= QUIC_XMIT_SAW_HANDSHAKE;
	return used;
}

/**
 * quic_xmit_timers_update - arm the loss detection timer for what is in flight
 * @sk: the socket, owned by the caller
 */
void quic_xmit_timers_update(struct sock *sk)
{
	u64 now = quic_time_us(), expiry;
	u8 level;

	expiry = quic_outq_loss_timer(quic_outq(sk), now, &level);
	if (!expiry) {
		quic_timer_stop(quic_timers(sk), QUIC_TIMER_LOSS);
		return;
	}
	quic_timer_reset(quic_timers(sk), QUIC_TIMER_LOSS, expiry > now ? expiry - now : 0);
}

/* How far ahead of the pacer a datagram may still leave: the bursts the
 * pacer lets through are at most this long at its rate (RFC 9002 Section
 * 7.7 leaves the burst size to the sender), and a timer is only armed for
 * longer waits, which softirq hrtimers can honour.
 */
#define QUIC_XMIT_PACE_QUANTUM_US	1000

/* Held back by the pacer: arm the pacing timer for when it lets go. */
static bool quic_xmit_paced(struct sock *sk, u64 now)
{
	u64 t = quic_cong_pacing_time(quic_cong(sk));

	if (t <= now + QUIC_XMIT_PACE_QUANTUM_US)
		return false;
	quic_timer_start_pace(quic_timers(sk),
			      ns_to_ktime((t - QUIC_XMIT_PACE_QUANTUM_US) * NSEC_PER_USEC));
	return true;
}

/*
 * PLPMTUD on the active path (RFC 9000 Section 14.3, RFC 8899): pmtu.c is
 * the state machine, this is its transport. Enabled by a nonzero
 * plpmtud_probe_interval once the handshake is confirmed. A probe is one
 * 1-RTT packet, a PING padded to the size probed, sent (never fragmented:
 * DF is set) as soon as one is due; its acknowledgment confirms the size
 * and the next probe follows at once, its loss (loss detection, or the
 * PMTU timer as PROBE_TIMER) counts a failed attempt. Once the search is
 * complete the PMTU timer, at the probe interval, is PMTU_RAISE_TIMER.
 * Each new PLPMTU becomes the congestion controller's max_datagram_size,
 * the size every later packet is built to.
 */

static bool quic_xmit_pmtu_enabled(struct sock *sk)
{
	return quic_config(sk)->plpmtud_probe_interval && quic_is_established(sk) &&
	       quic_outq(sk)->confirmed;
}

static void quic_xmit_pmtu_apply(struct sock *sk, u32 pmtu)
{
	if (pmtu)
		quic_cong_set_mss(quic_cong(sk), pmtu);
}

/* PROBE_TIMER while a probe is out, PMTU_RAISE_TIMER once complete. */
static void quic_xmit_pmtu_timer(struct sock *sk)
{
	struct quic_plpmtud *pl = quic_path_pl(quic_paths(sk));
	struct quic_timers *t = quic_timers(sk);

	if (pl->number >= 0)
		quic_timer_reset(t, QUIC_TIMER_PMTU, 3 * quic_cong_pto(quic_cong(sk),
								       QUIC_CRYPTO_APP));
	else if (quic_plpmtud_state(pl) == QUIC_PL_COMPLETE)
		quic_timer_reset(t, QUIC_TIMER_PMTU, quic_config(sk)->plpmtud_probe_interval);
	else
		quic_timer_stop(t, QUIC_TIMER_PMTU);
}

/* Send a probe when one is due. */
static void quic_xmit_pmtu_probe(struct sock *sk, u64 now)
{
	struct quic_plpmtud *pl = quic_path_pl(quic_paths(sk));
	struct quic_pnspace *space = quic_pnspace(sk, QUIC_CRYPTO_APP);
	u32 size = quic_plpmtud_probe_size(pl);
	struct sk_buff *skb;
	s64 pn;
	int n;

	if (!quic_xmit_pmtu_enabled(sk) || !quic_plpmtud_need_probe(pl))
		return;
	skb = alloc_skb(quic_xmit_headroom() + size, GFP_ATOMIC);
	if (!skb)
		return;
	skb_reserve(skb, quic_xmit_headroom());
	pn = space->next_pn;
	quic_outq(sk)->ecn_mark = quic_outq_ecn_mark(quic_outq(sk));
	n = quic_xmit_packet(sk, QUIC_CRYPTO_APP, skb->data, size, size, QUIC_XMIT_PMTU_PROBE, now);
	if (n <= 0) {
		kfree_skb(skb);
		return;
	}
	skb_put(skb, n);
	quic_plpmtud_sent(pl, pn);
	quic_xmit_out(sk, skb, quic_outq(sk)->ecn_mark);
	quic_xmit_pmtu_timer(sk);
}

/**
 * quic_xmit_pmtu_start - begin PLPMTUD on a connection whose handshake is confirmed
 * @sk: the socket, owned by the caller
 *
 * MAX_PLPMTU is the smaller of what the route's MTU leaves for a UDP
 * payload and the peer's max_udp_payload_size (RFC 8899 Section 5.1.2);
 * the search starts at BASE_PLPMTU, with the caller's next transmission.
 * Nothing happens when the probe interval is 0.
 */
void quic_xmit_pmtu_start(struct sock *sk)
{
	struct quic_plpmtud *pl = quic_path_pl(quic_paths(sk));
	u32 max = quic_remote_param(sk)->max_udp_payload_size;
	struct dst_entry *dst;

	if (!quic_xmit_pmtu_enabled(sk))
		return;
	dst = sk_dst_get(sk);
	if (dst) {
		u32 hdr = quic_path_encap_len(quic_paths(sk));
		u32 mtu = dst_mtu(dst);

		max = min(max, mtu > hdr ? mtu - hdr : 0);
		dst_release(dst);
	}
	quic_xmit_pmtu_apply(sk, quic_plpmtud_set_max(pl, max));
	quic_xmit_pmtu_apply(sk, quic_plpmtud_start(pl));
}

/**
 * quic_xmit_pmtu_restart - discovery starts over on a new path
 * @sk: the socket, owned by the caller
 *
 * RFC 9000 Section 14: each pair of local and remote IP addresses may have
 * its own PMTU. When the active path changes to another address (not only
 * another port of the peer's), the PLPMTU goes back to BASE_PLPMTU and
 * the search begins again, bounded by the new route.
 */
void quic_xmit_pmtu_restart(struct sock *sk)
{
	sock_owned_by_me(sk);
	quic_xmit_pmtu_start(sk);
	quic_xmit_pmtu_timer(sk);
}

/**
 * quic_xmit_pmtu_check - act on what loss detection noticed about the PMTU
 * @sk: the socket, owned by the caller
 *
 * Loss detection records a black hole (RFC 8899 Section 4.3: persistent
 * congestion over packets all larger than BASE_PLPMTU, or MAX_PROBES
 * timeouts in a row); the PLPMTU goes back to BASE_PLPMTU and the search
 * starts again from there. Called after ACK processing and the loss timer.
 */
void quic_xmit_pmtu_check(struct sock *sk)
{
	struct quic_plpmtud *pl = quic_path_pl(quic_paths(sk));

	sock_owned_by_me(sk);
	if (!quic_outq_take_black_hole(quic_outq(sk)) || !quic_xmit_pmtu_enabled(sk))
		return;
	quic_xmit_pmtu_apply(sk, quic_plpmtud_black_hole(pl));
	quic_xmit_pmtu_timer(sk);
}

/**
 * quic_xmit_pmtu_toobig - act on a validated ICMP Packet Too Big
 * @sk: the socket, owned by the caller
 * @mtu: the MTU it reports (IP packet size)
 *
 * RFC 9000 Section 14.2.1: a report below QUIC's smallest maximum
 * datagram size is ignored, and the PMTU is never raised from ICMP
 * (pmtu.c, quic_plpmtud_toobig()). A size below the PLPMTU is a black hole
 * (back to BASE_PLPMTU at once); one between the PLPMTU and the
 * outstanding probe becomes the next probe.
 */
void quic_xmit_pmtu_toobig(struct sock *sk, u32 mtu)
{
	sock_owned_by_me(sk);
	if (!quic_xmit_pmtu_enabled(sk))
		return;
	quic_xmit_pmtu_apply(sk, quic_path_pl_toobig(quic_paths(sk), mtu));
	quic_xmit_pmtu_timer(sk);
}

/**
 * quic_xmit_pmtu_done - a probe was acknowledged or declared lost
 * @sk: the socket, owned by the caller
 * @pn: the probe's packet number
 * @acked: acknowledged (the size passes) or lost (one failed attempt)
 *
 * Called from ACK processing; the next probe goes out with the next
 * transmission.
 */
void quic_xmit_pmtu_done(struct sock *sk, s64 pn, bool acked)
{
	struct quic_plpmtud *pl = quic_path_pl(quic_paths(sk));

	if (!quic_plpmtud_confirm(pl, pn, pn))
		return;
	quic_xmit_pmtu_apply(sk, acked ? quic_plpmtud_ack(pl, pn, pn) : quic_plpmtud_timeout(pl));
	quic_xmit_pmtu_timer(sk);
}

/*
 * RFC 9002 Section 7.7: "packets containing only ACK frames SHOULD
 * therefore not be paced". While the pacer holds the datagrams back, a
 * 1-RTT acknowledgment that may not wait any longer leaves alone.
 */
static void quic_xmit_ack_alone(struct sock *sk, u64 now)
{
	struct quic_pnspace *space = quic_pnspace(sk, QUIC_CRYPTO_APP);
	u32 room = quic_cong_mss(quic_cong(sk));
	struct sk_buff *skb;
	int n;

	if (!space->need_sack || space->ack_delayed || !quic_paths(sk)->validated ||
	    !quic_xmit_level_usable(sk, QUIC_CRYPTO_APP))
		return;
	skb = alloc_skb(quic_xmit_headroom() + room, GFP_ATOMIC);
	if (!skb)
		return;
	skb_reserve(skb, quic_xmit_headroom());
	quic_outq(sk)->ecn_mark = quic_outq_ecn_mark(quic_outq(sk));
	n = quic_xmit_packet(sk, QUIC_CRYPTO_APP, skb->data, room, 0, QUIC_XMIT_ACK_ONLY, now);
	if (n <= 0) {
		kfree_skb(skb);
		return;
	}
	skb_put(skb, n);
	quic_xmit_out(sk, skb, quic_outq(sk)->ecn_mark);
}

/**
 * quic_xmit_pacing_invariant - is the pacer within its bounds?
 * @sk: the socket, owned by the caller or its spinlock held (softirq)
 * @now: the time of the burst just sent, microseconds
 *
 * RFC 9002 Section 7.7: the pacer spreads packets over the RTT and never
 * holds one back for long. Each packet sent moves its next send time one
 * gap (at most a full datagram's, smoothed_rtt * mss / cwnd / N) past
 * now or past itself; a paced burst only sends while that time is within
 * the quantum, an unpaced one (probes) at most QUIC_XMIT_BURST datagrams.
 * So after any burst the pacer is at most the quantum plus
 * 2 * QUIC_XMIT_BURST gaps ahead: more means gaps piled up without
 * sending (a stall the peer sees as a dead path).
 *
 * Return: NULL, or what is broken; always NULL without
 * CONFIG_IP_QUIC_DEBUG_INVARIANTS.
 */
VISIBLE_IF_QUIC_KUNIT const char *quic_xmit_pacing_invariant(struct sock *sk, u64 now)
{
#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
	const struct quic_cong *cong = quic_cong(sk);
	u64 gap_us = DIV_ROUND_UP_ULL(quic_cong_pacing_gap(cong, quic_cong_mss(cong)),
				      NSEC_PER_USEC);
	u64 t = quic_cong_pacing_time(cong);

	if (t > now + QUIC_XMIT_PACE_QUANTUM_US + 2 * QUIC_XMIT_BURST * gap_us)
		return "the pacer holds the next packet more than two bursts of gaps ahead";
#endif
	return NULL;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_xmit_pacing_invariant);

static void __quic_xmit(struct sock *sk, bool paced)
{
	struct quic_xmit_run run = {};
	u64 now = quic_time_us();
	int i;

	if (!quic_is_establishing(sk) && !quic_is_established(sk))
		return;
	/* A latched connection error: CONNECTION_CLOSE is all that goes. */
	if (quic_sk(sk)->close.latched)
		return;
	if (paced)
		quic_xmit_pmtu_probe(sk, now);
	for (i = 0; i < QUIC_XMIT_BURST; i++) {
		if (paced && quic_xmit_paced(sk, now)) {
			quic_xmit_run_flush(sk, &run);
			quic_xmit_ack_alone(sk, now);
			break;
		}
		if (quic_xmit_datagram(sk, &run, now) <= 0)
			break;
	}
	quic_xmit_run_flush(sk, &run);
	quic_xmit_timers_update(sk);
	quic_invariant_check(sk, quic_outq_invariant(quic_outq(sk)));
	quic_invariant_check(sk, quic_xmit_pacing_invariant(sk, now));
}

/**
 * quic_xmit - send what the queues, windows, limits and pacer allow
 * @sk: the socket, owned by the caller
 *
 * Sends up to %QUIC_XMIT_BURST datagrams, then re-arms the loss detection
 * timer; the pacing timer calls again when the pacer held datagrams back.
 * Nothing is sent on a closed or listening socket.
 */
void quic_xmit(struct sock *sk)
{
	__quic_xmit(sk, true);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_xmit);

/**
 * quic_xmit_close - send CONNECTION_CLOSE at every level the peer may read
 * @sk: the socket, owned by the caller
 * @info: error code, frame type (transport errors) and reason phrase;
 *	@info->app selects an application close (frame type 0x1d)
 * @keep: when it is NULL, a copy of the first datagram sent is left here
 *	for the caller (the closing state repeats it, close.c)
 *
 * RFC 9000 Section 10.2.3: before the handshake is confirmed the peer may
 * lack 1-RTT keys, so the frame goes in every packet type we have keys
 * for, and an application close becomes APPLICATION_ERROR (0x0c) without
 * its phrase outside 1-RTT packets, where frame type 0x1d is not allowed.
 */
void quic_xmit_close(struct sock *sk, const struct quic_close_info *info,
		     struct sk_buff **keep)
{
	struct quic_frame f = {};
	int i;

	for (i = 0; i < ARRAY_SIZE(quic_xmit_levels); i++) {
		u8 l = quic_xmit_levels[i];

		if (l == QUIC_CRYPTO_EARLY || !quic_crypto(sk, l)->tx.ready)
			continue;
		memset(&f, 0, sizeof(f));
		f.close.errcode = info->errcode;
		if (info->app && l == QUIC_CRYPTO_APP) {
			f.type = QUIC_FRAME_CONNECTION_CLOSE_APP;
		} else {
			f.type = QUIC_FRAME_CONNECTION_CLOSE;
			if (info->app)
				f.close.errcode = QUIC_TRANSPORT_ERROR_APPLICATION;
			else
				f.close.frame_type = info->frame;
		}
		if (l == QUIC_CRYPTO_APP) {
			f.close.phrase = info->phrase;
			f.close.phrase_len = info->phrase_len;
		}
		if (!quic_outq_ctrl_append(quic_outq(sk), l, &f, GFP_ATOMIC))
			QUIC_INC_STATS(sock_net(sk), QUIC_MIB_FRM_OUTCLOSES);
	}
	/* Now: once closed, nothing is sent again but the closing datagram. */
	quic_sk(sk)->xmit_keep = keep;
	__quic_xmit(sk, false);
	quic_sk(sk)->xmit_keep = NULL;
}

/**
 * quic_xmit_loss_fire - the loss detection timer expired
 * @sk: the socket
 *
 * RFC 9002 Section 6: packets are declared lost or a PTO probe is due;
 * what that calls for is sent.
 *
 * Context: a timer expiry (timer.c): softirq with the socket spinlock held,
 * or release_sock() of the owner.
 */
void quic_xmit_loss_fire(struct sock *sk)
{
	u8 level;

	quic_outq_loss_timeout(quic_outq(sk), quic_time_us(), &level);
	quic_xmit_pmtu_check(sk);
	quic_xmit(sk);
}

/**
 * quic_xmit_ack_fire - max_ack_delay is up
 * @sk: the socket
 *
 * The ACK frame owed goes, alone if need be.
 *
 * Context: a timer expiry (timer.c): softirq with the socket spinlock held,
 * or release_sock() of the owner.
 */
void quic_xmit_ack_fire(struct sock *sk)
{
	quic_pnspace(sk, QUIC_CRYPTO_APP)->ack_delayed = 0;
	quic_xmit(sk);
}

/**
 * quic_xmit_pace_fire - the pacer lets the next datagrams go
 * @sk: the socket
 *
 * RFC 9002 Section 7.7.
 *
 * Context: a timer expiry (timer.c): softirq with the socket spinlock held,
 * or release_sock() of the owner.
 */
void quic_xmit_pace_fire(struct sock *sk)
{
	quic_xmit(sk);
}

/**
 * quic_xmit_pmtu_fire - a PLPMTUD timer expired
 * @sk: the socket
 *
 * PROBE_TIMER (the probe counts as lost) or PMTU_RAISE_TIMER
 * (RFC 8899 Section 5.1.1).
 *
 * Context: a timer expiry (timer.c): softirq with the socket spinlock held,
 * or release_sock() of the owner.
 */
void quic_xmit_pmtu_fire(struct sock *sk)
{
	struct quic_plpmtud *pl = quic_path_pl(quic_paths(sk));

	if (!quic_xmit_pmtu_enabled(sk))
		return;
	if (pl->number >= 0)
		quic_xmit_pmtu_apply(sk, quic_plpmtud_timeout(pl));
	else
		quic_plpmtud_raise(pl);
	quic_xmit_pmtu_timer(sk);
	quic_xmit(sk);
}
