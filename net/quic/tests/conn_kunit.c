// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_conn: two in-kernel QUIC sockets talking over loopback.
 *
 * The TLS handshake is played by a stand-in that makes the calls a TLS
 * library makes (RFC 9001 Section 4.1.3): it moves opaque "handshake
 * messages" with sendmsg()/recvmsg() and QUIC_HANDSHAKE_INFO, exchanges the
 * transport parameters through QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, and
 * installs fixed traffic secrets with QUIC_SOCKOPT_CRYPTO_SECRET. The
 * secrets are a test device; the kernel derives nothing from them but
 * keys. Everything else, packets, protection, ACKs, flow control, is the
 * real connection.
 */

#include <crypto/internal/aead.h>
#include <asm/ioctls.h>
#include <kunit/skbuff.h>
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/icmp.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/sockios.h>
#include <linux/udp.h>
#include <linux/unaligned.h>
#include <net/sock.h>
#include <uapi/linux/tls.h>

#include "../packet.h"
#include "../path.h"
#include "../pmtu.h"
#include "../socket.h"
#include "../transmit.h"
#include "conn_util.h"
#include "util.h"

static const struct conn_case conn_cases[] = {
	{ "IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128 },
	{ "IPv4 v1 AES-256-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_256 },
	{ "IPv4 v1 AES-128-CCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_CCM_128 },
	{ "IPv4 v1 ChaCha20-Poly1305", AF_INET, "127.0.0.1", QUIC_VERSION_V1,
	  TLS_CIPHER_CHACHA20_POLY1305 },
	{ "IPv4 v2 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V2, TLS_CIPHER_AES_GCM_128 },
	{ "IPv6 v2 AES-256-GCM", AF_INET6, "::1", QUIC_VERSION_V2, TLS_CIPHER_AES_GCM_256 },
	{ "IPv6 v1 ChaCha20-Poly1305", AF_INET6, "::1", QUIC_VERSION_V1,
	  TLS_CIPHER_CHACHA20_POLY1305 },
};

KUNIT_ARRAY_PARAM_DESC(conn_case, conn_cases, desc);

/* RFC 9001 Section 4: the handshake completes for each cipher suite and
 * version, then stream data flows both ways, byte-exact.
 */
static void conn_handshake_then_data_both_ways(struct kunit *test)
{
	const struct conn_case *c = test->param_value;
	const size_t len = 20000;
	struct conn_pair p = {};
	u8 *up, *down;

	conn_handshake(test, c, 63001, &p);
	up = conn_pattern(test, len, 1);
	down = conn_pattern(test, len, 2);

	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN, up,
					       len), len);
	conn_expect_stream(test, p.server, 0, up, len);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.server, 0, MSG_STREAM_FIN, down, len), len);
	conn_expect_stream(test, p.client, 0, down, len);
}

static void conn_several_streams_each_way(struct kunit *test)
{
	const struct conn_case *c = &conn_cases[0];
	const size_t len = 3000;
	struct conn_pair p = {};
	u8 *data[4];
	int i;

	conn_handshake(test, c, 63002, &p);
	for (i = 0; i < 4; i++) {
		data[i] = conn_pattern(test, len, 10 + i);
		/* Client bidirectional streams are 0, 4, 8, 12. */
		KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 4 * i,
						       MSG_STREAM_NEW | MSG_STREAM_FIN,
						       data[i], len), len);
	}
	for (i = 0; i < 4; i++)
		conn_expect_stream(test, p.server, 4 * i, data[i], len);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, conn_send_stream(p.server, 4 * i, MSG_STREAM_FIN,
						       data[3 - i], len), len);
	for (i = 0; i < 4; i++)
		conn_expect_stream(test, p.client, 4 * i, data[3 - i], len);
}

/* RFC 9000 Section 10.2: the peer of a closed connection learns of it. */
static void conn_close_reaches_the_peer(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_stream_info si;
	u8 buf[8];

	conn_handshake(test, &conn_cases[0], 63003, &p);
	kunit_release_action(test, conn_sock_release, p.client);
	KUNIT_EXPECT_EQ(test, conn_recv(p.server, QUIC_STREAM_INFO, &si, sizeof(si), buf,
					sizeof(buf)), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(p.server->sk));
}

/*
 * Loss on the way: datagrams of one endpoint whose first packet has a
 * given type are dropped after being recorded as sent, @skip of them let
 * through first, then @count dropped.
 */
struct conn_drop {
	bool serv;
	u8 type;
	int skip;
	int count;
	int dropped;
	int matched;
	bool every_other;
	u32 max_len;
};

static struct conn_drop conn_drop;

static u8 conn_first_packet_type(const struct sk_buff *skb)
{
	const u8 *p = skb->data;
	u32 version;
	int type;

	if (!(p[0] & QUIC_HDR_FORM_LONG))
		return QUIC_PACKET_1RTT;
	version = get_unaligned_be32(p + 1);
	type = quic_packet_type_from_wire(version, (p[0] & QUIC_HDR_LONG_TYPE_MASK) >>
					  QUIC_HDR_LONG_TYPE_SHIFT);
	return type < 0 ? QUIC_PACKET_TYPE_MAX : type;
}

static bool conn_drop_stub(struct sock *sk, struct sk_buff *skb)
{
	struct conn_drop *d = &conn_drop;

	if (quic_paths(sk)->serv != d->serv || conn_first_packet_type(skb) != d->type)
		return false;
	d->matched++;
	if (d->max_len) {
		/* A path whose MTU leaves @max_len bytes for UDP payloads. */
		if (skb->len <= d->max_len)
			return false;
		d->dropped++;
		return true;
	}
	if (d->every_other) {
		if (d->matched % 2)
			return false;
		d->dropped++;
		return true;
	}
	if (d->skip) {
		d->skip--;
		return false;
	}
	if (!d->count)
		return false;
	d->count--;
	d->dropped++;
	return true;
}

static void conn_drop_disarm(void *unused)
{
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
}

static void conn_drop_arm(struct kunit *test, bool serv, u8 type, int skip, int count)
{
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
	conn_drop = (struct conn_drop){ .serv = serv, .type = type, .skip = skip,
					.count = count };
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_drop_disarm, NULL), 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, conn_drop_stub);
}

static void conn_transfer_up_and_down(struct kunit *test, struct conn_pair *p, s64 id,
				      size_t len)
{
	u8 *up = conn_pattern(test, len, 3), *down = conn_pattern(test, len, 4);

	KUNIT_ASSERT_EQ(test, conn_send_stream(p->client, id, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       up, len), len);
	conn_expect_stream(test, p->server, id, up, len);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p->server, id, MSG_STREAM_FIN, down, len), len);
	conn_expect_stream(test, p->client, id, down, len);
}

/* RFC 9002 Section 6.2: the lost first Initial is sent again on PTO. */
static void conn_survives_lost_client_initial(struct kunit *test)
{
	struct conn_pair p = {};

	conn_drop_arm(test, false, QUIC_PACKET_INITIAL, 0, 1);
	conn_handshake(test, &conn_cases[0], 63010, &p);
	KUNIT_EXPECT_EQ(test, conn_drop.dropped, 1);
	conn_transfer_up_and_down(test, &p, 0, 5000);
}

static void conn_survives_lost_server_handshake_flight(struct kunit *test)
{
	struct conn_pair p = {};

	conn_drop_arm(test, true, QUIC_PACKET_HANDSHAKE, 0, 1);
	conn_handshake(test, &conn_cases[4], 63011, &p);
	KUNIT_EXPECT_EQ(test, conn_drop.dropped, 1);
	conn_transfer_up_and_down(test, &p, 0, 5000);
}

/*
 * RFC 9002 Section 6.2.2.1: while the server's TLS is still making its
 * ServerHello, the client's PTO probes its Initial space and the server
 * acknowledges every probe. RFC 9000 Section 14.1 has the server pad only
 * ack-eliciting Initials: padded, those ACK-only packets would count in
 * flight (RFC 9002 Section 2) with nothing ever acknowledging them, fill
 * the server's window (ten 1200-byte datagrams) and hold the ServerHello
 * back for good, no PTO being armed for them. The server here answers
 * only after the client's first Initial and eleven probes.
 */
static void conn_server_hello_goes_after_the_client_probed_many_times(struct kunit *test)
{
	struct conn_pair p = { .server_waits_initials = 12 };

	conn_handshake(test, &conn_cases[0], 63016, &p);
	conn_transfer_up_and_down(test, &p, 0, 5000);
}

/* RFC 9002 Section 6.1: later packets acknowledged reveal the lost ones,
 * whose frames are sent again (RFC 9000 Section 13.3). The burst takes the
 * first flights and the probes of several PTOs, each twice as long as the
 * one before (Section 6.2.1): a few seconds under emulation.
 */
static void conn_survives_burst_of_lost_1rtt_packets(struct kunit *test)
{
	unsigned long resent = quic_mib_read(&init_net, QUIC_MIB_FRM_RETRANS);
	const size_t len = 100000;
	struct conn_pair p = {};
	u8 *up;

	conn_handshake(test, &conn_cases[0], 63012, &p);
	p.client->sk->sk_sndtimeo = 30 * HZ;
	p.server->sk->sk_rcvtimeo = 30 * HZ;
	up = conn_pattern(test, len, 5);
	conn_drop_arm(test, false, QUIC_PACKET_1RTT, 3, 20);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       up, len), len);
	conn_expect_stream(test, p.server, 0, up, len);
	KUNIT_EXPECT_EQ(test, conn_drop.dropped, 20);
	/* The frames of 20 lost packets went out again, and were counted. */
	KUNIT_EXPECT_GE(test, quic_mib_read(&init_net, QUIC_MIB_FRM_RETRANS) - resent, 20);
}

/* RFC 9000 Section 13.2: ACK frames are not sent again, but every later
 * ACK repeats the ranges; with every other ACK-carrying datagram of the
 * receiver lost, the sender still learns of everything and finishes.
 */
static void conn_survives_every_other_ack_lost(struct kunit *test)
{
	const size_t len = 200000;
	struct conn_pair p = {};
	u8 *up;

	conn_handshake(test, &conn_cases[0], 63015, &p);
	up = conn_pattern(test, len, 9);
	conn_drop_arm(test, true, QUIC_PACKET_1RTT, 0, 0);
	conn_drop.every_other = true;
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       up, len), len);
	conn_expect_stream(test, p.server, 0, up, len);
	KUNIT_EXPECT_GT(test, conn_drop.dropped, 0);
	/* The window reopens only through ACKs: the data was all acknowledged. */
	conn_transfer_up_and_down(test, &p, 4, 5000);
}

/* One IPv4 datagram of @len bytes from the plain UDP socket @udp to @to. */
static void conn_udp_send(struct kunit *test, struct socket *udp, const union quic_addr *to,
			  u8 *buf, u32 len)
{
	union quic_addr dst = *to;
	struct msghdr msg = { .msg_name = &dst, .msg_namelen = sizeof(dst.v4) };
	struct kvec iov = { .iov_base = buf, .iov_len = len };

	KUNIT_EXPECT_EQ(test, kernel_sendmsg(udp, &msg, &iov, 1, len), len);
}

/* Hostile datagrams to both ends of a live connection: random bytes,
 * and packets carrying the connection's own IDs but not its keys. Each
 * is dropped (RFC 9001 Section 5.5: a packet that fails authentication
 * is discarded) and the connection carries on.
 */
static void conn_drops_forged_datagrams(struct kunit *test)
{
	unsigned long decdrop = quic_mib_read(&init_net, QUIC_MIB_PKT_DECDROP);
	const struct quic_conn_id *scid, *dcid;
	struct conn_pair p = {};
	struct socket *udp = NULL;
	u8 *buf;
	int i;

	conn_handshake(test, &conn_cases[0], 63013, &p);
	buf = kunit_kzalloc(test, 1400, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_UDP,
					       &udp), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, udp), 0);
	dcid = &quic_conn_id_active(quic_dest(p.client->sk))->id;
	scid = &quic_conn_id_active(quic_source(p.client->sk))->id;

	for (i = 0; i < 64; i++) {
		bool to_server = i & 1;
		u32 len = 1 + get_random_u32_below(1300);

		get_random_bytes(buf, len);
		if (i % 4 >= 2 && len > 30) {
			/* A short header naming the receiver's own ID. */
			buf[0] = 0x40 | (buf[0] & 0x1f);
			memcpy(buf + 1, to_server ? dcid->data : scid->data,
			       to_server ? dcid->len : scid->len);
		}
		conn_udp_send(test, udp, to_server ? quic_path_daddr(quic_paths(p.client->sk), 0) :
				  quic_path_saddr(quic_paths(p.client->sk), 0), buf, len);
	}

	KUNIT_EXPECT_GT(test, quic_mib_read(&init_net, QUIC_MIB_PKT_DECDROP), decdrop);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.client->sk));
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.server->sk));
	conn_transfer_up_and_down(test, &p, 0, 5000);
}

/* RFC 9000 Section 4.2: more than the initial windows needs MAX_DATA and
 * MAX_STREAM_DATA from the reader.
 */
/*
 * One thread plays both ends: write @len bytes of @data from the client on
 * stream 0 in pieces of @chunk (FIN with the last), reading each piece
 * whole at the server into @rbuf before the next; the stream must arrive
 * intact with its FIN.
 */
static void conn_upload(struct kunit *test, struct conn_pair *p, const u8 *data, u8 *rbuf,
			size_t len, size_t chunk)
{
	struct quic_stream_info si = {};
	size_t off, got = 0;
	int ret;

	for (off = 0; off < len; off += chunk) {
		u32 flags = (off ? 0 : MSG_STREAM_NEW) | (off + chunk >= len ? MSG_STREAM_FIN : 0);

		KUNIT_ASSERT_EQ(test, conn_send_stream(p->client, 0, flags, data + off, chunk),
				chunk);
		while (got < off + chunk) {
			ret = conn_recv(p->server, QUIC_STREAM_INFO, &si, sizeof(si), rbuf + got,
					len - got);
			KUNIT_ASSERT_GT_MSG(test, ret, 0, "after %zu of %zu bytes", got, len);
			got += ret;
		}
	}
	KUNIT_EXPECT_TRUE(test, si.stream_flags & MSG_STREAM_FIN);
	KUNIT_EXPECT_MEMEQ(test, rbuf, data, len);
}

static void conn_transfer_beyond_the_initial_windows(struct kunit *test)
{
	const size_t len = 3 * 1024 * 1024 / 2, chunk = 96 * 1024;
	struct conn_pair p = {};
	u8 *data, *rbuf;

	conn_handshake(test, &conn_cases[0], 63014, &p);
	data = conn_pattern(test, len, 6);
	rbuf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	conn_upload(test, &p, data, rbuf, len, chunk);
}

static atomic_t conn_gso_segs;

static void conn_gso_hook_off(void *unused)
{
	WRITE_ONCE(quic_xmit_kunit_hooks.gso, NULL);
}

/*
 * Move 400 kB from client to server on a new connection of conn_cases[@c]
 * (conn_upload()) and return how many datagrams left in GSO runs.
 */
static int conn_gso_transfer(struct kunit *test, int c, u16 port)
{
	const size_t len = 400000, chunk = 50000;
	struct conn_pair p = {};
	u8 *data, *rbuf;

	data = conn_pattern(test, len, 9);
	rbuf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	conn_handshake(test, &conn_cases[c], port, &p);
	atomic_set(&conn_gso_segs, 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.gso, &conn_gso_segs);
	conn_upload(test, &p, data, rbuf, len, chunk);
	WRITE_ONCE(quic_xmit_kunit_hooks.gso, NULL);
	return atomic_read(&conn_gso_segs);
}

/* Once the handshake keys are gone, full 1-RTT datagrams leave in UDP GSO
 * runs (transmit.c); the loopback device passes them whole and the
 * receiving UDP socket cuts them up, so the stream arrives intact only if
 * every segment was a well-formed datagram: IPv4 and IPv6. 400 kB is about
 * 280 datagrams: most of them go in runs.
 */
static void conn_bulk_data_leaves_in_gso_runs(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_gso_hook_off, NULL), 0);
	KUNIT_EXPECT_GT(test, conn_gso_transfer(test, 0, 63031), 100);
	KUNIT_EXPECT_GT(test, conn_gso_transfer(test, 5, 63032), 100);
}

static void conn_set_close(struct kunit *test, struct socket *sock, u32 errcode, u8 frame,
			   const char *phrase)
{
	u8 buf[sizeof(struct quic_connection_close) + QUIC_CLOSE_PHRASE_MAX_LEN] = {};
	struct quic_connection_close *cc = (void *)buf;
	size_t len = strlen(phrase);

	cc->errcode = errcode;
	cc->frame = frame;
	memcpy(cc->phrase, phrase, len);
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf,
						     max(sizeof(*cc), len + 1 +
							 offsetof(typeof(*cc), phrase))), 0);
}

/* What QUIC_SOCKOPT_CONNECTION_CLOSE reports is @errcode and @phrase. */
static void conn_expect_close(struct kunit *test, struct socket *sock, u32 errcode, u8 frame,
			      const char *phrase)
{
	u8 buf[sizeof(struct quic_connection_close) + QUIC_CLOSE_PHRASE_MAX_LEN + 1] = {};
	struct quic_connection_close *cc = (void *)buf;
	unsigned int len = sizeof(buf);

	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_CONNECTION_CLOSE, buf,
						     &len), 0);
	KUNIT_EXPECT_EQ(test, cc->errcode, errcode);
	KUNIT_EXPECT_EQ(test, cc->frame, frame);
	KUNIT_EXPECT_STREQ(test, (char *)cc->phrase, phrase);
	KUNIT_EXPECT_EQ(test, len, max(sizeof(*cc), offsetof(typeof(*cc), phrase) +
				       strlen(phrase) + 1));
}

/* RFC 9000 Section 10.2: the application's code and reason phrase travel
 * in the CONNECTION_CLOSE of type 0x1d; the peer's reader gets ECONNRESET
 * and the option reports them; the closing side reads end of file.
 */
static void conn_close_code_and_phrase_reach_the_peer(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_stream_info si;
	u8 buf[8];

	conn_handshake(test, &conn_cases[0], 63020, &p);
	/* Before any close, the option reads back what close() would send. */
	conn_expect_close(test, p.client, 0, 0, "");
	conn_set_close(test, p.client, 0x1234, 0, "going away");
	conn_expect_close(test, p.client, 0x1234, 0, "going away");

	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(p.client, SHUT_RDWR), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_closed(p.client->sk));
	KUNIT_EXPECT_EQ(test, conn_recv(p.client, QUIC_STREAM_INFO, &si, sizeof(si), buf,
					sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, conn_recv(p.server, QUIC_STREAM_INFO, &si, sizeof(si), buf,
					sizeof(buf)), -ECONNRESET);
	conn_expect_close(test, p.server, 0x1234, 0, "going away");
	/* The error was reported once; the connection stays unusable. */
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.server, 1, MSG_STREAM_NEW, buf, 1), -EPIPE);
}

/* RFC 9000 Section 10.2.1: a closing endpoint answers the packets that
 * still arrive with its CONNECTION_CLOSE, so a lost closing datagram is
 * repaired as soon as the peer sends again.
 */
static void conn_closing_state_repeats_a_lost_close(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_stream_info si;
	u8 buf[64] = {};

	conn_handshake(test, &conn_cases[0], 63021, &p);
	conn_set_close(test, p.client, 7, 0, "");
	/* The client's next 1-RTT datagram is its closing one: lost. */
	conn_drop_arm(test, false, QUIC_PACKET_1RTT, 0, 1);
	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(p.client, SHUT_RDWR), 0);
	KUNIT_ASSERT_EQ(test, conn_drop.dropped, 1);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.server->sk));

	/* The server, unaware, sends; the answer is the close again. */
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.server, 1, MSG_STREAM_NEW | MSG_STREAM_FIN, buf,
					       sizeof(buf)), sizeof(buf));
	KUNIT_EXPECT_EQ(test, conn_recv(p.server, QUIC_STREAM_INFO, &si, sizeof(si), buf,
					sizeof(buf)), -ECONNRESET);
	conn_expect_close(test, p.server, 7, 0, "");
	KUNIT_EXPECT_GE(test, conn_drop.matched, 2);
}

/* draft-lxin-quic-socket-apis, shutdown(): "applications MAY use SHUT_WR
 * to send the CLOSE frame multiple times". A second SHUT_WR in the closing
 * state repeats the closing datagram, which here repairs a lost one; in
 * the draining state nothing is sent and the call is -ENOTCONN.
 */
static void conn_shutdown_again_sends_the_close_again(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_stream_info si;
	u8 buf[8];

	conn_handshake(test, &conn_cases[0], 63050, &p);
	conn_set_close(test, p.client, 9, 0, "again");
	conn_drop_arm(test, false, QUIC_PACKET_1RTT, 0, 1);
	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(p.client, SHUT_WR), 0);
	KUNIT_ASSERT_EQ(test, conn_drop.dropped, 1);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p.server->sk));

	KUNIT_EXPECT_EQ(test, kernel_sock_shutdown(p.client, SHUT_WR), 0);
	KUNIT_EXPECT_EQ(test, conn_recv(p.server, QUIC_STREAM_INFO, &si, sizeof(si), buf,
					sizeof(buf)), -ECONNRESET);
	conn_expect_close(test, p.server, 9, 0, "again");
	KUNIT_EXPECT_EQ(test, kernel_sock_shutdown(p.client, SHUT_RDWR), 0);
	KUNIT_EXPECT_EQ(test, kernel_sock_shutdown(p.server, SHUT_WR), -ENOTCONN);
}

/* Send @n datagrams of @len random bytes, a short header naming @cid, to @to. */
static void conn_send_junk(struct kunit *test, const union quic_addr *to,
			   const struct quic_conn_id *cid, int n, u32 len)
{
	struct socket *udp = NULL;
	u8 *buf;
	int i;

	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_UDP,
					       &udp), 0);
	for (i = 0; i < n; i++) {
		get_random_bytes(buf, len);
		buf[0] = 0x40 | (buf[0] & 0x1f);
		memcpy(buf + 1, cid->data, cid->len);
		conn_udp_send(test, udp, to, buf, len);
	}
	sock_release(udp);
}

/* RFC 9000 Section 10.2.1: the closing state answers at a decreasing
 * rate, here after the 1st, 2nd, 4th and 8th packet; Section 10.2.2: the
 * draining peer sends nothing at all.
 */
static void conn_closing_answers_less_and_less_and_draining_is_silent(struct kunit *test)
{
	const struct quic_conn_id *client_cid, *server_cid;
	struct conn_pair p = {};
	struct quic_stream_info si;
	u8 buf[8];

	conn_handshake(test, &conn_cases[0], 63022, &p);
	client_cid = &quic_conn_id_active(quic_source(p.client->sk))->id;
	server_cid = &quic_conn_id_active(quic_dest(p.client->sk))->id;
	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(p.client, SHUT_RDWR), 0);
	KUNIT_EXPECT_EQ(test, conn_recv(p.server, QUIC_STREAM_INFO, &si, sizeof(si), buf,
					sizeof(buf)), 0);

	/* Count (without dropping) the client's 1-RTT datagrams. */
	conn_drop_arm(test, false, QUIC_PACKET_1RTT, 0, 0);
	conn_send_junk(test, quic_path_saddr(quic_paths(p.client->sk), 0), client_cid, 10, 200);
	KUNIT_EXPECT_EQ(test, conn_drop.matched, 4);

	conn_drop_arm(test, true, QUIC_PACKET_1RTT, 0, 0);
	conn_send_junk(test, quic_path_daddr(quic_paths(p.client->sk), 0), server_cid, 10, 200);
	KUNIT_EXPECT_EQ(test, conn_drop.matched, 0);
}

/* RFC 9000 Section 10.2: a user socket closed by its application stays
 * for its closing period (three PTOs) so late packets still find it, and
 * is then released.
 */
static void conn_closed_user_socket_lingers_for_its_period(struct kunit *test)
{
	struct conn_pair p = { .user_client = true };
	int inuse, i;

	conn_handshake(test, &conn_cases[0], 63023, &p);
	inuse = sock_prot_inuse_get(&init_net, &quic_prot);
	kunit_release_action(test, conn_sock_release, p.client);
	KUNIT_EXPECT_EQ(test, sock_prot_inuse_get(&init_net, &quic_prot), inuse);
	for (i = 0; i < 200 && sock_prot_inuse_get(&init_net, &quic_prot) == inuse; i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, sock_prot_inuse_get(&init_net, &quic_prot), inuse - 1);
}

/* RFC 9002 Section 7.7: with a 300 ms smoothed RTT the initial window is
 * spread over the RTT, so a burst is held back by the pacer, and the
 * pacing timer sends the rest: the stream still arrives whole.
 */
static void conn_pacer_holds_a_burst_back_and_its_timer_sends_it(struct kunit *test)
{
	const size_t len = 40000;
	struct conn_pair p = {};
	struct sock *sk;
	u8 *up;

	conn_handshake(test, &conn_cases[0], 63024, &p);
	sk = p.client->sk;
	up = conn_pattern(test, len, 8);
	lock_sock(sk);
	KUNIT_ASSERT_TRUE(test, quic_cong(sk)->rtt_sampled);
	quic_cong(sk)->smoothed_rtt = 300 * USEC_PER_MSEC;
	release_sock(sk);

	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN, up,
					       len), len);
	KUNIT_EXPECT_TRUE(test, quic_timer_pending(quic_timers(sk), QUIC_TIMER_PACE));
	conn_expect_stream(test, p.server, 0, up, len);
}

/*
 * An asynchronous "gcm(aes)" preferred over every other one: it answers
 * each request with -EINPROGRESS and completes it later, from a work
 * item, with an error. A connection that used it would fail.
 */
struct conn_async_req {
	struct work_struct work;
	struct aead_request *req;
};

static void conn_async_complete(struct work_struct *work)
{
	struct conn_async_req *r = container_of(work, struct conn_async_req, work);

	aead_request_complete(r->req, -EIO);
}

static int conn_async_crypt(struct aead_request *req)
{
	struct conn_async_req *r = aead_request_ctx(req);

	r->req = req;
	INIT_WORK(&r->work, conn_async_complete);
	schedule_work(&r->work);
	return -EINPROGRESS;
}

static int conn_async_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int len)
{
	return 0;
}

static int conn_async_setauthsize(struct crypto_aead *tfm, unsigned int size)
{
	return 0;
}

static int conn_async_init(struct crypto_aead *tfm)
{
	crypto_aead_set_reqsize(tfm, sizeof(struct conn_async_req));
	return 0;
}

static struct aead_alg conn_async_gcm = {
	.setkey		= conn_async_setkey,
	.setauthsize	= conn_async_setauthsize,
	.encrypt	= conn_async_crypt,
	.decrypt	= conn_async_crypt,
	.init		= conn_async_init,
	.ivsize		= 12,
	.maxauthsize	= 16,
	.base = {
		.cra_name		= "gcm(aes)",
		.cra_driver_name	= "quic-kunit-async-gcm-aes",
		.cra_priority		= 10000,
		.cra_flags		= CRYPTO_ALG_ASYNC,
		.cra_blocksize		= 1,
		.cra_module		= THIS_MODULE,
	},
};

static bool conn_tfm_is_sync(struct crypto_aead *tfm)
{
	return tfm && !(crypto_aead_tfm(tfm)->__crt_alg->cra_flags & CRYPTO_ALG_ASYNC);
}

KUNIT_DEFINE_ACTION_WRAPPER(conn_crypto_destroy, quic_crypto_destroy, struct quic_crypto *);

static void conn_async_unregister(void *alg)
{
	crypto_unregister_aead(alg);
}

/*
 * Packet protection runs in softirq context, where nothing may wait for
 * an asynchronous completion (docs/crypto.md): with an asynchronous AEAD
 * registered as the preferred "gcm(aes)", which a plain lookup returns,
 * the connection's transforms (packet keys and the Retry integrity key)
 * are still synchronous ones and the connection works.
 */
static void conn_keeps_synchronous_aeads_when_an_async_one_is_preferred(struct kunit *test)
{
	struct quic_conn_id dcid = { .len = 8, .data = "\x83\x94\xc8\xf0\x3e\x51\x57\x08" };
	struct quic_crypto *app, *initial;
	struct conn_pair p = {};
	struct crypto_aead *tfm;

	KUNIT_ASSERT_EQ(test, crypto_register_aead(&conn_async_gcm), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_async_unregister,
							&conn_async_gcm), 0);
	tfm = crypto_alloc_aead("gcm(aes)", 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(tfm));
	KUNIT_EXPECT_STREQ(test, crypto_tfm_alg_driver_name(crypto_aead_tfm(tfm)),
			   "quic-kunit-async-gcm-aes");
	crypto_free_aead(tfm);

	conn_handshake(test, &conn_cases[0], 63025, &p);
	app = quic_crypto(p.client->sk, QUIC_CRYPTO_APP);
	KUNIT_EXPECT_TRUE(test, conn_tfm_is_sync(app->tx.aead[app->tx.phase]));
	KUNIT_EXPECT_TRUE(test, conn_tfm_is_sync(app->rx.aead[app->rx.phase]));
	conn_transfer_up_and_down(test, &p, 0, 20000);

	/* The Initial level's Retry integrity transform (RFC 9001 5.8). */
	initial = kunit_kzalloc(test, sizeof(*initial), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, initial);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_crypto_destroy, initial), 0);
	KUNIT_ASSERT_EQ(test, quic_crypto_initial_keys_install(initial, &dcid, QUIC_VERSION_V1,
							       false), 0);
	KUNIT_EXPECT_TRUE(test, conn_tfm_is_sync(initial->retry));
	KUNIT_EXPECT_TRUE(test, conn_tfm_is_sync(initial->tx.aead[initial->tx.phase]));
}

static int conn_stream_open(struct socket *sock, s64 id, u32 flags, s64 *opened)
{
	struct quic_stream_info si = { .stream_id = id, .stream_flags = flags };
	unsigned int len = sizeof(si);
	int err;

	err = quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_STREAM_OPEN, &si, &len);
	if (!err)
		*opened = si.stream_id;
	return err;
}

/*
 * RFC 9000 Section 4.6: with the server allowing two streams of each
 * type, the client opens eight bidirectional and four unidirectional
 * ones, one after another. A stream both of whose parts ended is
 * released; the server then raises the limit with MAX_STREAMS, and a
 * client blocked by the limit sends STREAMS_BLOCKED and waits for it. A
 * client that does not wait sends STREAMS_BLOCKED only when it sets
 * MSG_STREAM_SNDBLOCK.
 * QUIC_SOCKOPT_STREAM_OPEN opens the next stream of a type.
 */
static void conn_released_streams_raise_the_peer_limit(struct kunit *test)
{
	struct conn_pair p = { .server_max_streams = 2 };
	struct quic_stream_table *ct, *st;
	const size_t len = 1500;
	s64 id, want;
	u64 blocked;
	u8 *data;
	int i;

	conn_handshake(test, &conn_cases[0], 63026, &p);
	ct = quic_streams(p.client->sk);
	st = quic_streams(p.server->sk);
	data = conn_pattern(test, len, 21);

	for (i = 0; i < 8; i++) {
		want = 4 * i;
		KUNIT_ASSERT_EQ(test, conn_stream_open(p.client, -1, 0, &id), 0);
		KUNIT_ASSERT_EQ(test, id, want);
		KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, id, MSG_STREAM_FIN, data, len),
				len);
		conn_expect_stream(test, p.server, id, data, len);
		KUNIT_ASSERT_EQ(test, conn_send_stream(p.server, id, MSG_STREAM_FIN, data, len),
				len);
		conn_expect_stream(test, p.client, id, data, len);
	}
	/* Unidirectional: the server only reads, so its part ends at the FIN. */
	for (i = 0; i < 4; i++) {
		want = 4 * i + 2;
		KUNIT_ASSERT_EQ(test, conn_stream_open(p.client, -1, MSG_STREAM_UNI, &id), 0);
		KUNIT_ASSERT_EQ(test, id, want);
		KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, id, MSG_STREAM_FIN, data, len),
				len);
		conn_expect_stream(test, p.server, id, data, len);
	}
	KUNIT_EXPECT_GE(test, ct->local.max_streams[QUIC_STREAM_BIDI], 8);
	KUNIT_EXPECT_GE(test, ct->local.max_streams[QUIC_STREAM_UNI], 4);
	/* The server holds at most the streams the limit lets be open. */
	KUNIT_EXPECT_LE(test, st->count, 4);
	KUNIT_EXPECT_LE(test, st->peer_mem, 4 * sizeof(struct quic_stream));

	/* Two streams open and not ended: the third waits, or fails at once. */
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 32, MSG_STREAM_NEW, data, 10), 10);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 36, MSG_STREAM_NEW, data, 10), 10);
	conn_expect_partial(test, p.server, 32, 10);
	conn_expect_partial(test, p.server, 36, 10);
	/* Only trying: no STREAMS_BLOCKED unless MSG_STREAM_SNDBLOCK asks. */
	blocked = ct->blocked_at[QUIC_STREAM_BIDI];
	KUNIT_EXPECT_NE(test, blocked, 11);
	KUNIT_EXPECT_EQ(test, conn_stream_open(p.client, -1, MSG_STREAM_DONTWAIT, &id), -EAGAIN);
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, -1, MSG_STREAM_NEW | MSG_STREAM_DONTWAIT,
					       data, 10), -EAGAIN);
	KUNIT_EXPECT_EQ_MSG(test, ct->blocked_at[QUIC_STREAM_BIDI], blocked,
			    "no STREAMS_BLOCKED queued for a caller only trying");
	KUNIT_EXPECT_EQ(test, conn_stream_open(p.client, -1,
					       MSG_STREAM_DONTWAIT | MSG_STREAM_SNDBLOCK, &id),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, -1, MSG_STREAM_NEW | MSG_STREAM_DONTWAIT |
					       MSG_STREAM_SNDBLOCK, data, 10), -EAGAIN);
	/* STREAMS_BLOCKED went out once, for the limit of 10. */
	KUNIT_EXPECT_EQ(test, ct->blocked_at[QUIC_STREAM_BIDI], 11);
	/* A stream opened before is not opened again. */
	KUNIT_EXPECT_EQ(test, conn_stream_open(p.client, 4, 0, &id), -EEXIST);
	KUNIT_EXPECT_EQ(test, conn_stream_open(p.client, 40, MSG_STREAM_UNI, &id), -EINVAL);
	KUNIT_EXPECT_EQ(test, conn_stream_open(p.client, 1, 0, &id), -EINVAL);
	/* A write to a stream that ended and was released is refused. */
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, 0, 0, data, 10), -EPIPE);
}

/*
 * A writer waiting for the peer's MAX_STREAMS (RFC 9000 Section 4.6)
 * sleeps through its timeout, then gets -EAGAIN; the stream table is
 * changed only with the socket lock held (quic_msg_stream_get() asserts
 * it under lockdep), so the wait condition, which also runs right after
 * release_sock(), opens nothing.
 */
static void conn_stream_open_waits_for_max_streams(struct kunit *test)
{
	struct conn_pair p = { .server_max_streams = 1 };
	unsigned long start;
	s64 id;

	conn_handshake(test, &conn_cases[0], 63087, &p);
	KUNIT_ASSERT_EQ(test, conn_stream_open(p.client, -1, 0, &id), 0);
	KUNIT_ASSERT_EQ(test, id, 0);
	p.client->sk->sk_sndtimeo = msecs_to_jiffies(300);
	start = jiffies;
	KUNIT_EXPECT_EQ(test, conn_stream_open(p.client, -1, 0, &id), -EAGAIN);
	KUNIT_EXPECT_GE(test, jiffies - start, msecs_to_jiffies(200));
	lock_sock(p.client->sk);
	KUNIT_EXPECT_NULL(test, quic_stream_find(quic_streams(p.client->sk), 4));
	release_sock(p.client->sk);
}

/* The client's PLPMTUD state, read under its socket lock. */
static void conn_plpmtud(struct socket *sock, struct quic_plpmtud *pl, u32 *mss)
{
	lock_sock(sock->sk);
	*pl = *quic_path_pl(quic_paths(sock->sk));
	*mss = quic_cong_mss(quic_cong(sock->sk));
	release_sock(sock->sk);
}

/*
 * RFC 9000 Section 14.3, RFC 8899: on a path that loses every datagram
 * over 1400 bytes, the client's probes (PINGs padded to the size probed)
 * climb from 1200 bytes and settle at 1400 after three lost probes of
 * each larger size; every packet is then built to 1400 bytes, and data
 * still flows. The lost probes are not taken as congestion (Section 14.4).
 */
/*
 * Small writes on stream @id (opened by the caller) until the client's
 * search completes; its state and packet size are returned.
 */
static void conn_plpmtud_search(struct kunit *test, struct conn_pair *p, s64 id,
				struct quic_plpmtud *pl, u32 *mss)
{
	u8 *data = conn_pattern(test, 100, 31);
	int i;

	for (i = 0; i < 2000; i++) {
		conn_plpmtud(p->client, pl, mss);
		if (quic_plpmtud_state(pl) == QUIC_PL_COMPLETE)
			break;
		KUNIT_ASSERT_EQ(test, conn_send_stream(p->client, id, 0, data, 100), 100);
		conn_expect_partial(test, p->server, id, 100);
		usleep_range(5000, 6000);
	}
	KUNIT_ASSERT_EQ_MSG(test, quic_plpmtud_state(pl), QUIC_PL_COMPLETE,
			    "PLPMTU %u, probing %u", pl->pmtu, pl->probe_size);
}

/* A connection whose client found that its path carries 1400 bytes. */
static void conn_plpmtud_at_1400(struct kunit *test, struct conn_pair *p, u16 port)
{
	u8 *data = conn_pattern(test, 100, 31);
	struct quic_plpmtud pl;
	u32 mss;

	p->probe_interval = QUIC_MIN_PROBE_INTERVAL;
	conn_drop_arm(test, false, QUIC_PACKET_1RTT, 0, 0);
	conn_drop.max_len = 1400;
	conn_handshake(test, &conn_cases[0], port, p);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p->client, 0, MSG_STREAM_NEW, data, 100), 100);
	conn_expect_partial(test, p->server, 0, 100);
	conn_plpmtud_search(test, p, 0, &pl, &mss);
	KUNIT_ASSERT_EQ(test, mss, 1400);
}

static void conn_plpmtud_finds_the_largest_size_that_passes(struct kunit *test)
{
	struct conn_pair p = { .probe_interval = QUIC_MIN_PROBE_INTERVAL };
	struct quic_plpmtud pl;
	u8 *data = conn_pattern(test, 1000, 31);
	u32 mss, window;
	int i;

	conn_drop_arm(test, false, QUIC_PACKET_1RTT, 0, 0);
	conn_drop.max_len = 1400;
	conn_handshake(test, &conn_cases[0], 63027, &p);
	window = quic_cong(p.client->sk)->window;

	/* Traffic both ways keeps acknowledgments, and loss detection, going. */
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, data, 100), 100);
	conn_expect_partial(test, p.server, 0, 100);
	conn_plpmtud_search(test, &p, 0, &pl, &mss);
	KUNIT_EXPECT_EQ(test, pl.pmtu, 1400);
	KUNIT_EXPECT_EQ(test, mss, 1400);
	/* 1424 and 1404 were each lost three times. */
	KUNIT_EXPECT_GE(test, conn_drop.dropped, 6);
	KUNIT_EXPECT_GE(test, quic_cong(p.client->sk)->window, window);
	KUNIT_EXPECT_TRUE(test, quic_timer_pending(quic_timers(p.client->sk), QUIC_TIMER_PMTU));

	/* Full-size packets pass: a transfer completes without more loss. */
	i = conn_drop.dropped;
	conn_transfer_up_and_down(test, &p, 4, 60000);
	KUNIT_EXPECT_EQ(test, conn_drop.dropped, i);
}

/*
 * RFC 8899 Section 4.3: the path stops carrying the PLPMTU (a black hole:
 * now only 1300 bytes pass). Every full-size packet is lost and none is
 * declared lost, for want of an ACK; after MAX_PROBES timeouts in a row
 * the sender falls back to BASE_PLPMTU, the data gets through, and a new
 * search settles below the new limit.
 */
static void conn_plpmtud_black_hole_falls_back_and_searches_again(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_plpmtud pl;
	u32 mss;

	conn_plpmtud_at_1400(test, &p, 63033);
	conn_drop.max_len = 1300;
	conn_transfer_up_and_down(test, &p, 4, 30000);
	conn_plpmtud(p.client, &pl, &mss);
	KUNIT_EXPECT_LE(test, mss, 1300U);

	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 8, MSG_STREAM_NEW, "x", 1), 1);
	conn_expect_partial(test, p.server, 8, 1);
	conn_plpmtud_search(test, &p, 8, &pl, &mss);
	KUNIT_EXPECT_LE(test, pl.pmtu, 1300U);
	KUNIT_EXPECT_GE(test, pl.pmtu, 1200U);
	KUNIT_EXPECT_EQ(test, mss, (u32)pl.pmtu);
}

/*
 * An ICMP "fragmentation needed" as the UDP error handler passes it on
 * (network header at the outer IP header, transport header at the ICMP
 * header, data at the quoted IPv4 header), about a datagram from @from to
 * @to whose QUIC packet starts with @quote.
 */
static struct sk_buff *conn_icmp_frag_needed(struct kunit *test, u16 mtu,
					     const union quic_addr *from,
					     const union quic_addr *to, const u8 *quote,
					     u32 len, u8 **payload)
{
	struct sk_buff *skb = kunit_zalloc_skb(test, 256, GFP_KERNEL);
	struct iphdr *outer, *inner;
	struct icmphdr *icmp;
	struct udphdr *uh;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb->protocol = htons(ETH_P_IP);
	outer = skb_put_zero(skb, sizeof(*outer));
	outer->version = 4;
	outer->ihl = 5;
	outer->protocol = IPPROTO_ICMP;
	outer->saddr = from->v4.sin_addr.s_addr;
	outer->daddr = from->v4.sin_addr.s_addr;
	icmp = skb_put_zero(skb, sizeof(*icmp));
	icmp->type = ICMP_DEST_UNREACH;
	icmp->code = ICMP_FRAG_NEEDED;
	icmp->un.frag.mtu = htons(mtu);
	inner = skb_put_zero(skb, sizeof(*inner));
	inner->version = 4;
	inner->ihl = 5;
	inner->protocol = IPPROTO_UDP;
	inner->saddr = from->v4.sin_addr.s_addr;
	inner->daddr = to->v4.sin_addr.s_addr;
	uh = skb_put_zero(skb, sizeof(*uh));
	uh->source = from->v4.sin_port;
	uh->dest = to->v4.sin_port;
	skb_put_data(skb, quote, len);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(*outer));
	skb_pull(skb, sizeof(*outer) + sizeof(*icmp));
	*payload = (u8 *)(uh + 1);
	return skb;
}

/* Hand the client's tunnel a Packet Too Big quoting a 1-RTT packet to @dcid. */
static void conn_ptb(struct kunit *test, struct conn_pair *p, u16 mtu,
		     const struct quic_conn_id *dcid)
{
	struct sock *sk = p->client->sk;
	struct quic_path_group *paths = quic_paths(sk);
	u8 quote[1 + QUIC_CONN_ID_MAX_LEN + 4];
	struct sk_buff *skb;
	u8 *payload;

	quote[0] = QUIC_HDR_FIXED_BIT;
	memcpy(quote + 1, dcid->data, dcid->len);
	memset(quote + 1 + dcid->len, 0, 4);
	skb = conn_icmp_frag_needed(test, mtu, quic_path_saddr(paths, 0),
				    quic_path_daddr(paths, 0), quote, 1 + dcid->len + 4, &payload);
	local_bh_disable();
	rcu_read_lock();
	quic_udp_err(paths->path[0].udp_sk->sk, skb, EMSGSIZE,
		     quic_path_daddr(paths, 0)->v4.sin_port, mtu, payload);
	rcu_read_unlock();
	local_bh_enable();
}

/*
 * RFC 9000 Section 14.2.1: an ICMP Packet Too Big counts only when its
 * quoted packet matches the connection, addresses, ports and the peer's
 * connection ID; one below 1200 bytes is ignored, and none raises the
 * PMTU. A valid one below the PLPMTU lowers it to BASE_PLPMTU at once
 * (RFC 8899 Section 4.6.2) and the search starts again.
 */
static void conn_packet_too_big_is_validated_then_lowers_the_plpmtu(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_conn_id dcid, wrong;
	struct quic_plpmtud pl;
	u32 mss;

	conn_plpmtud_at_1400(test, &p, 63034);
	lock_sock(p.client->sk);
	dcid = quic_conn_id_active(quic_dest(p.client->sk))->id;
	release_sock(p.client->sk);
	wrong = dcid;
	wrong.data[0] ^= 0xff;

	/* 1300 bytes for UDP payloads: 1328 bytes of IPv4 packet. */
	conn_ptb(test, &p, 1328, &wrong);
	conn_plpmtud(p.client, &pl, &mss);
	KUNIT_EXPECT_EQ(test, mss, 1400U);
	conn_ptb(test, &p, 1000, &dcid);
	conn_plpmtud(p.client, &pl, &mss);
	KUNIT_EXPECT_EQ(test, mss, 1400U);
	conn_ptb(test, &p, 1500, &dcid);
	conn_plpmtud(p.client, &pl, &mss);
	KUNIT_EXPECT_EQ(test, mss, 1400U);

	conn_ptb(test, &p, 1328, &dcid);
	conn_plpmtud(p.client, &pl, &mss);
	KUNIT_EXPECT_EQ(test, mss, (u32)QUIC_PL_BASE_PLPMTU);
	/* Searching again (its first probe may be acknowledged already). */
	KUNIT_EXPECT_NE(test, quic_plpmtud_state(&pl), QUIC_PL_COMPLETE);

	/* While the application holds the socket it waits for release_sock(). */
	conn_drop.max_len = 1300;
	conn_plpmtud_search(test, &p, 0, &pl, &mss);
	KUNIT_ASSERT_EQ(test, mss, 1300U);
	lock_sock(p.client->sk);
	conn_ptb(test, &p, 1278, &dcid);
	KUNIT_EXPECT_EQ(test, quic_cong_mss(quic_cong(p.client->sk)), 1300U);
	release_sock(p.client->sk);
	conn_plpmtud(p.client, &pl, &mss);
	KUNIT_EXPECT_EQ(test, mss, (u32)QUIC_PL_BASE_PLPMTU);
}

/*
 * RFC 9000 Section 14: each pair of IP addresses has its own PMTU. When
 * the client moves to another local address, what it found on the old
 * path does not hold: its packets go back to BASE_PLPMTU and the search
 * starts over on the new path (here it finds 1400 again).
 */
static void conn_plpmtud_starts_over_on_a_new_path(struct kunit *test)
{
	struct conn_pair p = {};
	struct quic_plpmtud pl;
	union quic_addr na;
	u32 mss;

	conn_plpmtud_at_1400(test, &p, 63035);
	quic_kunit_addr4(&na, "127.0.0.2", 0);
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p.client->sk,
						     QUIC_SOCKOPT_CONNECTION_MIGRATION, &na,
						     sizeof(na.v4)), 0);
	conn_plpmtud(p.client, &pl, &mss);
	KUNIT_EXPECT_EQ(test, mss, (u32)QUIC_PL_BASE_PLPMTU);
	KUNIT_EXPECT_NE(test, quic_plpmtud_state(&pl), QUIC_PL_COMPLETE);

	conn_plpmtud_search(test, &p, 0, &pl, &mss);
	KUNIT_EXPECT_EQ(test, mss, 1400U);
}

/*
 * QUIC_SOCKOPT_TOKEN is read at a client (the token to present next
 * time); a listener or an accepted socket has none to give: -EINVAL.
 */
static void conn_token_is_read_at_the_client_only(struct kunit *test)
{
	struct conn_pair p = {};
	unsigned int len;
	u8 buf[64];

	conn_handshake(test, &conn_cases[0], 63036, &p);
	len = sizeof(buf);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(p.client->sk, QUIC_SOCKOPT_TOKEN, buf, &len),
			0);
	len = sizeof(buf);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(p.server->sk, QUIC_SOCKOPT_TOKEN, buf, &len),
			-EINVAL);
	len = sizeof(buf);
	KUNIT_EXPECT_EQ(test, quic_kernel_getsockopt(p.lsock->sk, QUIC_SOCKOPT_TOKEN, buf, &len),
			-EINVAL);
}

/*
 * RFC 9001 Section 4.8: a TLS library that fails the handshake reports
 * the alert as CRYPTO_ERROR (0x0100 + AlertDescription) with
 * QUIC_SOCKOPT_CONNECTION_CLOSE and shuts the socket down; before the
 * handshake completes that goes out as a transport CONNECTION_CLOSE (type
 * 0x1c) in the Initial packets, and the peer reads the code back.
 */
static void conn_tls_alert_in_the_handshake_is_a_crypto_error(struct kunit *test)
{
	static const char chlo[] = "client hello";
	struct socket *lsock, *client, *server;
	struct quic_handshake_info hi;
	union quic_addr a;
	u8 buf[64];

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_QUIC,
					       &lsock), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, lsock), 0);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_QUIC,
					       &client), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, client), 0);
	lsock->sk->sk_rcvtimeo = CONN_TIMEO;
	conn_addr(&a, AF_INET, "127.0.0.1", 63028);
	KUNIT_ASSERT_EQ(test, kernel_bind(lsock, &a.sa, sizeof(a.v4)), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(lsock, 4), 0);
	KUNIT_ASSERT_EQ(test, kernel_connect(client, &a.sa, sizeof(a.v4), 0), 0);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(client, QUIC_CRYPTO_INITIAL, chlo, sizeof(chlo)),
			sizeof(chlo));
	KUNIT_ASSERT_EQ(test, kernel_accept(lsock, &server, 0), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, server), 0);
	server->sk->sk_rcvtimeo = CONN_TIMEO;
	KUNIT_ASSERT_EQ(test, conn_recv_crypto(server, QUIC_CRYPTO_INITIAL, buf, sizeof(chlo)), 0);

	/* The server's TLS library refuses the ClientHello: no_application_protocol,
	 * naming the CRYPTO frame (0x06) that carried it.
	 */
	conn_set_close(test, server, QUIC_TRANSPORT_ERROR_CRYPTO + 120, 0x06, "");
	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(server, SHUT_RDWR), 0);
	client->sk->sk_rcvtimeo = CONN_TIMEO;
	KUNIT_EXPECT_EQ(test, conn_recv(client, QUIC_HANDSHAKE_INFO, &hi, sizeof(hi), buf,
					sizeof(buf)), -ECONNRESET);
	conn_expect_close(test, client, QUIC_TRANSPORT_ERROR_CRYPTO + 120, 0x06, "");
	KUNIT_EXPECT_EQ(test, quic_sk(client->sk)->peer_errcode, QUIC_TRANSPORT_ERROR_CRYPTO + 120);
	KUNIT_EXPECT_FALSE(test, quic_sk(client->sk)->close.seen.app);
}

static int conn_ioctl(struct socket *sock, int cmd)
{
	int n = -1, err;

	err = sock->sk->sk_prot->ioctl(sock->sk, cmd, &n);
	return err ? err : n;
}

/* Poll @sock's ioctl @cmd until it reads @want (2 s at most); returns the last value. */
static int conn_ioctl_until(struct socket *sock, int cmd, int want)
{
	int i, n = 0;

	for (i = 0; i < 100; i++) {
		n = conn_ioctl(sock, cmd);
		if (n == want)
			break;
		msleep(20);
	}
	return n;
}

/* SIOCINQ counts what recvmsg() returns now; SIOCOUTQ what is held for
 * sending until acknowledged, SIOCOUTQNSD what was never sent. A listener
 * has neither queue: -EINVAL, as TCP answers.
 */
static void conn_ioctl_reports_the_queues(struct kunit *test)
{
	const size_t len = 3000;
	struct conn_pair p = {};
	struct quic_stream_info si;
	u8 *up, buf[1000];

	conn_handshake(test, &conn_cases[0], 63030, &p);
	up = conn_pattern(test, len, 5);
	KUNIT_EXPECT_EQ(test, conn_ioctl(p.lsock, SIOCINQ), -EINVAL);
	KUNIT_EXPECT_EQ(test, conn_ioctl(p.lsock, SIOCOUTQ), -EINVAL);
	KUNIT_EXPECT_EQ(test, conn_ioctl(p.client, SIOCATMARK), -ENOIOCTLCMD);
	KUNIT_EXPECT_EQ(test, conn_ioctl(p.server, SIOCINQ), 0);

	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, up, len), len);
	KUNIT_EXPECT_EQ(test, conn_ioctl_until(p.server, SIOCINQ, len), len);
	KUNIT_ASSERT_EQ(test, conn_recv(p.server, QUIC_STREAM_INFO, &si, sizeof(si), buf,
					sizeof(buf)), sizeof(buf));
	KUNIT_EXPECT_EQ(test, conn_ioctl(p.server, SIOCINQ), len - sizeof(buf));

	/* All of it arrived, so none is unsent; the ACK empties the queue. */
	KUNIT_EXPECT_EQ(test, conn_ioctl(p.client, SIOCOUTQNSD), 0);
	KUNIT_EXPECT_EQ(test, conn_ioctl_until(p.client, SIOCOUTQ, 0), 0);
}

static int conn_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void conn_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

/* One recvmsg() with @flags; the stream information, when any, in @si. */
static int conn_recv_flags(struct socket *sock, struct quic_stream_info *si, void *data,
			   size_t len, int flags, int *msg_flags)
{
	u8 cbuf[CMSG_SPACE(sizeof(struct quic_stream_info))] = {};
	struct kvec iov = { .iov_base = data, .iov_len = len };
	struct msghdr msg = { .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cmsg = (struct cmsghdr *)cbuf;
	int ret;

	memset(si, 0, sizeof(*si));
	si->stream_id = -1;
	ret = kernel_recvmsg(sock, &msg, &iov, 1, len, flags);
	if (ret >= 0 && cmsg->cmsg_level == SOL_QUIC && cmsg->cmsg_type == QUIC_STREAM_INFO)
		memcpy(si, CMSG_DATA(cmsg), sizeof(*si));
	*msg_flags = msg.msg_flags;
	return ret;
}

/* recv(2) MSG_PEEK: the data stays queued, and the read after it returns
 * the same bytes; this held for stream data and for a DATAGRAM. It was
 * ignored before: a peek consumed what it returned.
 */
static void conn_recv_peek_leaves_the_data_queued(struct kunit *test)
{
	static const char text[] = "peeked, then read";
	struct quic_stream_info si;
	struct conn_pair p = { .max_datagram = 1200 };
	int mflags;
	u8 buf[64];

	conn_handshake(test, &conn_cases[0], 63046, &p);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN, text,
					       sizeof(text)), sizeof(text));
	/* One sendmsg(), one packet: the bytes and the FIN arrive together.
	 * The first peek waits for them and takes nothing.
	 */
	KUNIT_ASSERT_EQ(test, conn_recv_flags(p.server, &si, buf, 6, MSG_PEEK, &mflags), 6);
	KUNIT_EXPECT_EQ(test, si.stream_id, 0LL);
	KUNIT_EXPECT_FALSE(test, si.stream_flags & MSG_STREAM_FIN);
	KUNIT_EXPECT_MEMEQ(test, buf, text, 6);

	KUNIT_ASSERT_EQ(test, conn_recv_flags(p.server, &si, buf, sizeof(buf), MSG_PEEK, &mflags),
			sizeof(text));
	KUNIT_EXPECT_TRUE(test, si.stream_flags & MSG_STREAM_FIN);
	memset(buf, 0, sizeof(buf));
	KUNIT_ASSERT_EQ(test, conn_recv_flags(p.server, &si, buf, sizeof(buf), 0, &mflags),
			sizeof(text));
	KUNIT_EXPECT_MEMEQ(test, buf, text, sizeof(text));
	KUNIT_EXPECT_TRUE(test, si.stream_flags & MSG_STREAM_FIN);

	/* A DATAGRAM: peeked short (no MSG_EOR: more to come), then read
	 * whole, with MSG_EOR.
	 */
	KUNIT_ASSERT_EQ(test, conn_send(p.client, 0, NULL, 0, text, sizeof(text), MSG_DATAGRAM),
			sizeof(text));
	KUNIT_ASSERT_EQ(test, conn_recv_flags(p.server, &si, buf, 4, MSG_PEEK, &mflags), 4);
	KUNIT_EXPECT_TRUE(test, mflags & MSG_DATAGRAM);
	KUNIT_EXPECT_FALSE(test, mflags & MSG_EOR);
	KUNIT_ASSERT_EQ(test, conn_recv_flags(p.server, &si, buf, sizeof(buf), 0, &mflags),
			sizeof(text));
	KUNIT_EXPECT_TRUE(test, mflags & MSG_DATAGRAM);
	KUNIT_EXPECT_TRUE(test, mflags & MSG_EOR);
	KUNIT_EXPECT_MEMEQ(test, buf, text, sizeof(text));
}

struct conn_later {
	struct delayed_work work;
	struct socket *sock;
	const u8 *data;
	size_t len;
	int ret;
};

static void conn_later_send(struct work_struct *work)
{
	struct conn_later *l = container_of(to_delayed_work(work), struct conn_later, work);

	l->ret = conn_send_stream(l->sock, 0, MSG_STREAM_FIN, l->data, l->len);
}

/* recv(2) MSG_WAITALL: one call returns the whole length asked for, though
 * the second half arrives while it waits; it was ignored before (the call
 * returned the first half).
 */
static void conn_recv_waitall_waits_for_the_whole_length(struct kunit *test)
{
	const size_t len = 6000;
	struct quic_stream_info si;
	struct conn_later later = {};
	struct conn_pair p = {};
	int mflags;
	u8 *data, *buf;

	conn_handshake(test, &conn_cases[0], 63047, &p);
	data = conn_pattern(test, len, 9);
	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, data, len / 2),
			len / 2);
	later.sock = p.client;
	later.data = data + len / 2;
	later.len = len / 2;
	INIT_DELAYED_WORK(&later.work, conn_later_send);
	schedule_delayed_work(&later.work, msecs_to_jiffies(500));
	/* The read must start before the second half is sent, or the case
	 * checks nothing MSG_WAITALL adds.
	 */
	KUNIT_ASSERT_TRUE(test, delayed_work_pending(&later.work));

	KUNIT_EXPECT_EQ(test, conn_recv_flags(p.server, &si, buf, len, MSG_WAITALL, &mflags),
			len);
	flush_delayed_work(&later.work);
	KUNIT_EXPECT_EQ(test, later.ret, len / 2);
	KUNIT_EXPECT_EQ(test, si.stream_id, 0LL);
	KUNIT_EXPECT_TRUE(test, si.stream_flags & MSG_STREAM_FIN);
	KUNIT_EXPECT_MEMEQ(test, buf, data, len);
}

/* Of the IDs in @set, one of @sk's, how many are not @len bytes long. */
static int conn_ids_not_of_len(struct sock *sk, struct quic_conn_id_set *set, u32 len)
{
	struct quic_conn_id_entry *e;
	int n = 0;

	lock_sock(sk);
	list_for_each_entry(e, &set->head, list)
		n += e->id.len != len;
	release_sock(sk);
	return n;
}

/* The socket API draft's Security section: the connection IDs an endpoint
 * makes carry at least 128 random bits. Their source, get_random_bytes(),
 * is not something a test can judge; their length is: the Destination
 * Connection ID the client picks for its first Initial (RFC 9000 Section
 * 7.2), and every source ID of either end, are 16 bytes, and the peer
 * holds them so.
 */
static void conn_ids_we_make_are_16_bytes(struct kunit *test)
{
	struct conn_pair p = {};
	struct sock *c, *s;

	conn_handshake(test, &conn_cases[0], 63048, &p);
	c = p.client->sk;
	s = p.server->sk;

	lock_sock(c);
	KUNIT_EXPECT_EQ(test, quic_paths(c)->orig_dcid.len, 16);
	KUNIT_EXPECT_GT(test, quic_source(c)->count, 1U);
	release_sock(c);
	lock_sock(s);
	KUNIT_EXPECT_GT(test, quic_source(s)->count, 1U);
	release_sock(s);
	KUNIT_EXPECT_EQ(test, conn_ids_not_of_len(c, quic_source(c), 16), 0);
	KUNIT_EXPECT_EQ(test, conn_ids_not_of_len(s, quic_source(s), 16), 0);
	KUNIT_EXPECT_EQ(test, conn_ids_not_of_len(c, quic_dest(c), 16), 0);
	KUNIT_EXPECT_EQ(test, conn_ids_not_of_len(s, quic_dest(s), 16), 0);
}

static int conn_cid_opt(struct socket *sock, bool set, bool dest, u32 *active, u32 *prior_to)
{
	struct quic_connection_id_info info = {
		.dest = dest, .active = *active, .prior_to = *prior_to,
	};
	unsigned int len = sizeof(info);
	int err;

	if (set)
		return quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_CONNECTION_ID, &info, len);
	err = quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_CONNECTION_ID, &info, &len);
	*active = info.active;
	*prior_to = info.prior_to;
	return err;
}

/* draft-lxin-quic-socket-apis, QUIC_SOCKOPT_CONNECTION_ID: "active" with
 * dest 0 switches our own ID in use: an ID we hold, at or above the IDs
 * kept, becomes it and is read back; any other is -EINVAL and changes
 * nothing. An active below prior_to (programs that only retire pass 0)
 * leaves the choice to the retirement: the lowest ID kept.
 */
static void conn_cid_source_active_is_switched_and_read_back(struct kunit *test)
{
	struct conn_pair p = {};
	u32 active, prior;

	conn_handshake(test, &conn_cases[0], 63049, &p);
	active = 3;
	prior = 0;
	KUNIT_EXPECT_EQ(test, conn_cid_opt(p.client, true, false, &active, &prior), 0);
	KUNIT_EXPECT_EQ(test, conn_cid_opt(p.client, false, false, &active, &prior), 0);
	KUNIT_EXPECT_EQ(test, active, 3U);
	KUNIT_EXPECT_EQ(test, prior, 0U);

	active = 1;
	KUNIT_EXPECT_EQ(test, conn_cid_opt(p.client, true, false, &active, &prior), 0);
	KUNIT_EXPECT_EQ(test, conn_cid_opt(p.client, false, false, &active, &prior), 0);
	KUNIT_EXPECT_EQ(test, active, 1U);

	/* Not issued yet, or below what the peer is asked to keep. */
	active = 60;
	KUNIT_EXPECT_EQ(test, conn_cid_opt(p.client, true, false, &active, &prior), -EINVAL);
	active = 0;
	prior = 2;
	KUNIT_EXPECT_EQ(test, conn_cid_opt(p.client, true, false, &active, &prior), 0);
	KUNIT_EXPECT_EQ(test, conn_cid_opt(p.client, false, false, &active, &prior), 0);
	KUNIT_EXPECT_EQ(test, active, 2U);

	/* An ID above the new Retire Prior To is taken with it. */
	active = 4;
	prior = 3;
	KUNIT_EXPECT_EQ(test, conn_cid_opt(p.client, true, false, &active, &prior), 0);
	KUNIT_EXPECT_EQ(test, conn_cid_opt(p.client, false, false, &active, &prior), 0);
	KUNIT_EXPECT_EQ(test, active, 4U);

	/* The connection still carries data both ways. */
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW | MSG_STREAM_FIN,
					       "id", 2), 2);
	conn_expect_stream(test, p.server, 0, (const u8 *)"id", 2);
}

static struct kunit_case conn_test_cases[] = {
	KUNIT_CASE(conn_recv_peek_leaves_the_data_queued),
	KUNIT_CASE(conn_recv_waitall_waits_for_the_whole_length),
	KUNIT_CASE(conn_ids_we_make_are_16_bytes),
	KUNIT_CASE(conn_cid_source_active_is_switched_and_read_back),
	KUNIT_CASE_PARAM(conn_handshake_then_data_both_ways, conn_case_gen_params),
	KUNIT_CASE(conn_several_streams_each_way),
	KUNIT_CASE(conn_close_reaches_the_peer),
	KUNIT_CASE(conn_ioctl_reports_the_queues),
	KUNIT_CASE_SLOW(conn_survives_lost_client_initial),
	KUNIT_CASE_SLOW(conn_survives_lost_server_handshake_flight),
	KUNIT_CASE_SLOW(conn_server_hello_goes_after_the_client_probed_many_times),
	KUNIT_CASE_SLOW(conn_survives_burst_of_lost_1rtt_packets),
	KUNIT_CASE_SLOW(conn_survives_every_other_ack_lost),
	KUNIT_CASE(conn_drops_forged_datagrams),
	KUNIT_CASE_SLOW(conn_transfer_beyond_the_initial_windows),
	KUNIT_CASE(conn_bulk_data_leaves_in_gso_runs),
	KUNIT_CASE(conn_close_code_and_phrase_reach_the_peer),
	KUNIT_CASE(conn_closing_state_repeats_a_lost_close),
	KUNIT_CASE(conn_shutdown_again_sends_the_close_again),
	KUNIT_CASE(conn_closing_answers_less_and_less_and_draining_is_silent),
	KUNIT_CASE(conn_closed_user_socket_lingers_for_its_period),
	KUNIT_CASE_SLOW(conn_pacer_holds_a_burst_back_and_its_timer_sends_it),
	KUNIT_CASE(conn_keeps_synchronous_aeads_when_an_async_one_is_preferred),
	KUNIT_CASE_SLOW(conn_released_streams_raise_the_peer_limit),
	KUNIT_CASE(conn_stream_open_waits_for_max_streams),
	KUNIT_CASE_SLOW(conn_plpmtud_finds_the_largest_size_that_passes),
	KUNIT_CASE_SLOW(conn_plpmtud_black_hole_falls_back_and_searches_again),
	KUNIT_CASE_SLOW(conn_packet_too_big_is_validated_then_lowers_the_plpmtu),
	KUNIT_CASE_SLOW(conn_plpmtud_starts_over_on_a_new_path),
	KUNIT_CASE(conn_tls_alert_in_the_handshake_is_a_crypto_error),
	KUNIT_CASE(conn_token_is_read_at_the_client_only),
	{}
};

static struct kunit_suite conn_suite = {
	.name = "quic_conn",
	.suite_init = conn_suite_init,
	.suite_exit = conn_suite_exit,
	.test_cases = conn_test_cases,
};

kunit_test_suite(conn_suite);
