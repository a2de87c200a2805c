// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers of the suites that write packets as the server of a live
 * connection (quic_rx_fuzz, quic_rx_limits).
 *
 * conn_handshake() sets up the connection with the fixed test secrets;
 * the suite derives the server's 1-RTT send keys from the same secret and
 * protects its own packets with them. rx_conn_inject() hands a datagram
 * from the server's address to quic_rcv(), the function the UDP tunnel
 * calls, with bottom halves disabled as in softirq. Whatever the client
 * transmits is lost (the transmit hook of the KUnit build): its
 * acknowledgments of packets the real server never sent would otherwise
 * make the server close the connection.
 *
 * rx_conn_connect() and rx_conn_accept() stop in the handshake instead,
 * for the suite to write Initial packets as the server to a client, or as
 * the client to a server, with the Initial keys both derive from the
 * client's first Destination Connection ID (RFC 9001 Section 5.2).
 */

#include <linux/delay.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <net/sock.h>

#include "../connid.h"
#include "../crypto.h"
#include "../endpoint.h"
#include "../packet.h"
#include "../path.h"
#include "../pnspace.h"
#include "../protocol.h"
#include "../receive.h"
#include "../socket.h"
#include "../transmit.h"
#include "rx_util.h"
#include "util.h"

/* Far from the real server's packet numbers, which stay small. */
#define RX_FIRST_PN	1000

/* The client under test: whatever it transmits is lost, and counted. */
static struct sock *rx_victim;
static atomic_t rx_lost;

static bool rx_drop_victim(struct sock *sk, struct sk_buff *skb)
{
	if (sk != READ_ONCE(rx_victim))
		return false;
	atomic_inc(&rx_lost);
	return true;
}

/**
 * rx_conn_sent - datagrams the client under test transmitted (and lost)
 *
 * Return: the count since the suite's module was loaded
 */
u32 rx_conn_sent(void)
{
	return atomic_read(&rx_lost);
}

static void rx_hook_off(void *unused)
{
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
	WRITE_ONCE(rx_victim, NULL);
}

static void rx_crypto_free(void *tx)
{
	quic_crypto_destroy(tx);
}

/**
 * rx_buf_var - append a variable-length integer
 * @b: the payload
 * @v: the value (RFC 9000 Section 16); nothing is written when it does not fit
 */
void rx_buf_var(struct rx_buf *b, u64 v)
{
	u8 *p = b->data + b->len;
	u32 left = sizeof(b->data) - b->len;

	if (!quic_put_var(&p, &left, v))
		b->len = sizeof(b->data) - left;
}

/**
 * rx_buf_bytes - append bytes, as many as fit
 * @b: the payload
 * @src: the bytes
 * @n: how many
 */
void rx_buf_bytes(struct rx_buf *b, const void *src, u32 n)
{
	n = min_t(u32, n, sizeof(b->data) - b->len);
	memcpy(b->data + b->len, src, n);
	b->len += n;
}

/**
 * rx_buf_fill - append @n bytes of @c, as many as fit
 * @b: the payload
 * @c: the byte
 * @n: how many
 */
void rx_buf_fill(struct rx_buf *b, u8 c, u32 n)
{
	n = min_t(u32, n, sizeof(b->data) - b->len);
	memset(b->data + b->len, c, n);
	b->len += n;
}

/**
 * rx_conn_setup - prepare a case to write packets to live connections
 * @test: the case (owns what is allocated, and undoes the hook)
 * @rc: the state to set up
 * @c: addresses, version and cipher of the connections
 * @port: the listener's port
 *
 * Installs the transmit hook that loses the client's datagrams; open the
 * first connection with rx_conn_open().
 */
void rx_conn_setup(struct kunit *test, struct rx_conn *rc, const struct conn_case *c, u16 port)
{
	memset(rc, 0, sizeof(*rc));
	rc->test = test;
	rc->c = c;
	rc->port = port;
	rc->pkt = kunit_kzalloc(test, RX_PKT_MAX, GFP_KERNEL);
	rc->tx = kunit_kzalloc(test, sizeof(*rc->tx), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, rc->pkt && rc->tx);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rx_crypto_free, rc->tx), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rx_hook_off, NULL), 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, rx_drop_victim);
}

/* @rc->tx: the fixed test secret's send keys of one direction of @level. */
static void rx_send_keys(struct rx_conn *rc, u8 level, bool from_client)
{
	struct quic_crypto_secret srt;

	conn_secret_fill(&srt, level, true, from_client, rc->c->cipher);
	quic_crypto_destroy(rc->tx);
	memset(rc->tx, 0, sizeof(*rc->tx));
	KUNIT_ASSERT_EQ(rc->test, quic_crypto_set_secret(rc->tx, &srt, rc->c->version), 0);
}

/* A new connection; the suite writes as the peer of @serv's end. */
static void rx_conn_open_end(struct rx_conn *rc, bool serv)
{
	memset(&rc->p, 0, sizeof(rc->p));
	rc->p.max_datagram = rc->max_datagram;
	conn_handshake(rc->test, rc->c, rc->port, &rc->p);
	rc->sk = serv ? rc->p.server->sk : rc->p.client->sk;
	rx_send_keys(rc, QUIC_CRYPTO_APP, serv);
	rc->pn = RX_FIRST_PN;
	WRITE_ONCE(rx_victim, rc->sk);
	rx_conn_pick_dcid(rc);
	rc->conns++;
}

/**
 * rx_conn_open - a new connection, its client ready to take packets
 * @rc: the state
 */
void rx_conn_open(struct rx_conn *rc)
{
	rx_conn_open_end(rc, false);
}

/**
 * rx_conn_open_server - a new connection, its server ready to take packets
 * @rc: the state
 *
 * The roles of rx_conn_open() swapped: @rc->sk is the server, @rc->tx the
 * client's 1-RTT send keys, @rc->dcid a connection ID of the server's, and
 * whatever the server transmits is lost. rx_sock_inject() and
 * rx_conn_send() send from the client's address.
 */
void rx_conn_open_server(struct rx_conn *rc)
{
	rx_conn_open_end(rc, true);
}

/**
 * rx_conn_early_keys - 0-RTT keys for a server in its handshake
 * @rc: the state, after rx_conn_accept()
 *
 * The server installs the client's 0-RTT secret, as its TLS library does
 * when it accepts early data; @rc->tx becomes the client's 0-RTT send
 * keys, for rx_conn_protect_long() with QUIC_PACKET_0RTT.
 */
void rx_conn_early_keys(struct rx_conn *rc)
{
	KUNIT_ASSERT_EQ(rc->test, conn_secret(rc->p.server, QUIC_CRYPTO_EARLY, false, true,
					      rc->c->cipher), 0);
	rx_send_keys(rc, QUIC_CRYPTO_EARLY, true);
	rc->pn = 0;
}

static const char rx_chlo[] = "client hello: a stand-in for TLS";

/* Create a socket of the case's family, released with the case. */
static struct socket *rx_sock_create(struct rx_conn *rc)
{
	struct socket *sock;

	KUNIT_ASSERT_EQ(rc->test, sock_create_kern(&init_net, rc->c->family, SOCK_STREAM,
						   IPPROTO_QUIC, &sock), 0);
	KUNIT_ASSERT_EQ(rc->test, kunit_add_action_or_reset(rc->test, conn_sock_release, sock),
			0);
	sock->sk->sk_rcvtimeo = CONN_TIMEO;
	sock->sk->sk_sndtimeo = CONN_TIMEO;
	return sock;
}

/* Connect the client to the listener's address and send its ClientHello;
 * with @lost, nothing it transmits leaves.
 */
static void rx_client_hello(struct rx_conn *rc, bool lost)
{
	union quic_addr a;

	rc->p.client = rx_sock_create(rc);
	WRITE_ONCE(rx_victim, lost ? rc->p.client->sk : NULL);
	conn_addr(&a, rc->c->family, rc->c->ip, rc->port);
	KUNIT_ASSERT_EQ(rc->test, kernel_connect(rc->p.client, &a.sa,
						 conn_addr_len(rc->c->family), 0), 0);
	KUNIT_ASSERT_EQ(rc->test, conn_send_crypto(rc->p.client, QUIC_CRYPTO_INITIAL, rx_chlo,
						   sizeof(rx_chlo)), sizeof(rx_chlo));
}

/* The active Source Connection ID of @sk. */
static void rx_sock_scid(struct rx_conn *rc, struct sock *sk, struct quic_conn_id *id)
{
	struct quic_conn_id_entry *e;

	lock_sock(sk);
	e = quic_conn_id_active(quic_source(sk));
	if (e)
		*id = e->id;
	release_sock(sk);
	KUNIT_ASSERT_NOT_NULL(rc->test, e);
}

/* @rc->tx: the Initial keys of one end of the client's connection. */
static void rx_initial_keys(struct rx_conn *rc, bool serv)
{
	struct quic_conn_id odcid;

	lock_sock(rc->p.client->sk);
	odcid = *quic_path_orig_dcid(quic_paths(rc->p.client->sk));
	release_sock(rc->p.client->sk);
	KUNIT_ASSERT_EQ(rc->test, quic_crypto_initial_keys_install(rc->tx, &odcid,
								   rc->c->version, serv), 0);
	rc->pn = RX_FIRST_PN;
	rc->conns++;
}

/**
 * rx_conn_connect - a client in its handshake, taking the suite's Initials
 * @rc: the state
 *
 * The client connects to the case's address, where nothing listens, and
 * sends its ClientHello; whatever it transmits is lost. @rc->sk is the
 * client, @rc->tx the server's Initial keys, @rc->dcid the client's
 * Source Connection ID and @rc->scid one the suite chose as the server's.
 */
void rx_conn_connect(struct rx_conn *rc)
{
	memset(&rc->p, 0, sizeof(rc->p));
	rx_client_hello(rc, true);
	rc->sk = rc->p.client->sk;
	rx_sock_scid(rc, rc->sk, &rc->dcid);
	rc->scid.len = 8;
	memset(rc->scid.data, 0x5c, rc->scid.len);
	rx_initial_keys(rc, true);
}

/**
 * rx_conn_accept - a server in its handshake, taking the suite's Initials
 * @rc: the state
 *
 * A client connects to a listener on @rc->port and sends its ClientHello
 * in a full-size Initial; the accepted server reads it and answers
 * nothing: whatever it transmits is lost. @rc->sk is the server, @rc->tx
 * the client's Initial keys, @rc->dcid the server's Source Connection ID
 * and @rc->scid the client's.
 */
void rx_conn_accept(struct rx_conn *rc)
{
	union quic_addr a;
	u8 buf[sizeof(rx_chlo)];

	memset(&rc->p, 0, sizeof(rc->p));
	rc->p.lsock = rx_sock_create(rc);
	conn_addr(&a, rc->c->family, rc->c->ip, rc->port);
	KUNIT_ASSERT_EQ(rc->test, kernel_bind(rc->p.lsock, &a.sa, conn_addr_len(rc->c->family)),
			0);
	KUNIT_ASSERT_EQ(rc->test, kernel_listen(rc->p.lsock, 4), 0);
	rx_client_hello(rc, false);
	KUNIT_ASSERT_EQ(rc->test, kernel_accept(rc->p.lsock, &rc->p.server, 0), 0);
	KUNIT_ASSERT_EQ(rc->test, kunit_add_action_or_reset(rc->test, conn_sock_release,
							    rc->p.server), 0);
	rc->sk = rc->p.server->sk;
	WRITE_ONCE(rx_victim, rc->sk);
	rc->sk->sk_rcvtimeo = CONN_TIMEO;
	KUNIT_ASSERT_EQ(rc->test, conn_recv_crypto(rc->p.server, QUIC_CRYPTO_INITIAL, buf,
						   sizeof(buf)), 0);
	rx_sock_scid(rc, rc->sk, &rc->dcid);
	rx_sock_scid(rc, rc->p.client->sk, &rc->scid);
	rx_initial_keys(rc, false);
}

/**
 * rx_conn_close - release the connection's three sockets
 * @rc: the state
 */
void rx_conn_close(struct rx_conn *rc)
{
	WRITE_ONCE(rx_victim, NULL);
	kunit_release_action(rc->test, conn_sock_release, rc->p.server);
	kunit_release_action(rc->test, conn_sock_release, rc->p.client);
	kunit_release_action(rc->test, conn_sock_release, rc->p.lsock);
	rc->sk = NULL;
}

/**
 * rx_conn_pick_dcid - use the client's current connection ID
 * @rc: the state
 *
 * A RETIRE_CONNECTION_ID may have replaced the one used so far.
 */
void rx_conn_pick_dcid(struct rx_conn *rc)
{
	struct quic_conn_id_entry *e;

	lock_sock(rc->sk);
	e = list_first_entry_or_null(&quic_source(rc->sk)->head, struct quic_conn_id_entry,
				     list);
	if (e)
		rc->dcid = e->id;
	release_sock(rc->sk);
}

/**
 * rx_conn_min_pn_len - the shortest Packet Number field the client decodes
 * @rc: the state
 *
 * RFC 9000 Appendix A.3: the window of the encoded length, centred on the
 * number after the largest the client received, must hold ours.
 *
 * Return: 1 to 4
 */
u8 rx_conn_min_pn_len(struct rx_conn *rc)
{
	s64 seen = quic_pnspace(rc->sk, QUIC_CRYPTO_APP)->max_pn_seen;
	u64 dist = seen < 0 ? U32_MAX : rc->pn - seen;
	u8 len = 1;

	while (len < 4 && dist >= BIT_ULL(8 * len - 1))
		len++;
	return len;
}

/**
 * rx_conn_protect - a protected 1-RTT packet from the peer of @rc->sk
 * @rc: the state; the packet is built in @rc->pkt with the next number
 * @payload: its frames
 * @len: their length
 * @first: bits to set in the first byte (spin, reserved bits)
 * @pn_len: length of the Packet Number field, 1 to 4
 *
 * A short header (RFC 9000 Section 17.3.1) for @rc->dcid; PADDING is added
 * when the payload is too short for the header protection sample (RFC 9001
 * Section 5.4.2): callers that care pad their payload themselves.
 *
 * Return: the packet's length
 */
u32 rx_conn_protect(struct rx_conn *rc, const u8 *payload, u32 len, u8 first, u8 pn_len)
{
	u32 hlen = 1 + rc->dcid.len + pn_len, pad = 0;
	struct quic_crypto_pkt pkt = {};

	KUNIT_ASSERT_LE(rc->test, len, RX_PAYLOAD_MAX);
	if (len + pn_len < 4)
		pad = 4 - len - pn_len;
	rc->pkt[0] = QUIC_HDR_FIXED_BIT | first | (pn_len - 1);
	memcpy(rc->pkt + 1, rc->dcid.data, rc->dcid.len);
	memcpy(rc->pkt + hlen, payload, len);
	memset(rc->pkt + hlen + len, 0, pad);
	pkt.len = hlen + len + pad + QUIC_TAG_LEN;
	pkt.pn_offset = 1 + rc->dcid.len;
	pkt.number = rc->pn++;
	pkt.largest = -1;
	KUNIT_ASSERT_EQ(rc->test, quic_crypto_encrypt_buf(rc->tx, rc->pkt, &pkt), 0);
	return pkt.len;
}

/**
 * rx_sock_inject - hand a datagram from a connection's peer to it
 * @test: the case
 * @sk: the connection (IPv4)
 * @data: the UDP payload
 * @len: its length
 *
 * From the peer's address to ours on the active path, through quic_rcv()
 * as the UDP tunnel does in softirq: on return the packet was processed
 * (or queued to the backlog of a socket the caller owns).
 */
void rx_sock_inject(struct kunit *test, struct sock *sk, const u8 *data, u32 len)
{
	struct quic_path_group *paths = quic_paths(sk);

	quic_kunit_rcv4(test, paths->path[0].udp_sk->sk, &quic_path_daddr(paths, 0)->v4,
			&quic_path_saddr(paths, 0)->v4, data, len);
}

/**
 * rx_conn_inject - hand a datagram from the peer's address to @rc->sk
 * @rc: the state
 * @data: the UDP payload
 * @len: its length
 *
 * Through quic_rcv(), as the UDP tunnel does in softirq: on return the
 * packet was processed (or queued to the backlog of a socket the caller
 * does not own, which it never does here).
 */
void rx_conn_inject(struct rx_conn *rc, const u8 *data, u32 len)
{
	rx_sock_inject(rc->test, rc->sk, data, len);
}

/**
 * rx_conn_send - protect a payload in the shortest packet and inject it
 * @rc: the state
 * @payload: the frames
 * @len: their length
 */
void rx_conn_send(struct rx_conn *rc, const u8 *payload, u32 len)
{
	rx_conn_inject(rc, rc->pkt, rx_conn_protect(rc, payload, len, 0, 4));
}

/**
 * rx_conn_protect_long - a protected long header packet, built in @rc->pkt
 * @rc: the state: the packet goes from @rc->scid to @rc->dcid with the
 *	next packet number, protected with @rc->tx
 * @type: QUIC_PACKET_INITIAL, QUIC_PACKET_0RTT or QUIC_PACKET_HANDSHAKE
 * @token: an Initial's Token, or NULL
 * @token_len: the Token's length
 * @payload: its frames
 * @len: their length
 * @size: the packet's length, PADDING added to the payload to reach it;
 *	0 for none
 *
 * Return: the packet's length
 */
u32 rx_conn_protect_long(struct rx_conn *rc, u8 type, const u8 *token, u32 token_len,
			 const u8 *payload, u32 len, u32 size)
{
	struct quic_packet_hdr hdr = {
		.type = type, .fixed = 1, .pn_len = 4, .len_size = 2,
		.version = rc->c->version, .dcid = rc->dcid, .scid = rc->scid,
		.token = token, .token_len = token_len, .pn = rc->pn,
		.length = 4,
	};
	struct quic_crypto_pkt pkt = { .number = rc->pn, .largest = -1 };
	u32 left = RX_PKT_MAX, hlen, plen = len;
	u8 *p = rc->pkt;
	int n;

	n = quic_packet_hdr_len(&hdr);
	KUNIT_ASSERT_GT(rc->test, n, 0);
	hlen = n;
	if (size > hlen + len + QUIC_TAG_LEN)
		plen = size - hlen - QUIC_TAG_LEN;
	KUNIT_ASSERT_LE(rc->test, hlen + plen + QUIC_TAG_LEN, (u32)RX_PKT_MAX);
	hdr.length = hdr.pn_len + plen + QUIC_TAG_LEN;
	KUNIT_ASSERT_EQ(rc->test, quic_packet_build(&p, &left, &hdr), 0);
	memcpy(p, payload, len);
	memset(p + len, 0, plen - len);
	pkt.len = hlen + plen + QUIC_TAG_LEN;
	pkt.pn_offset = hlen - hdr.pn_len;
	KUNIT_ASSERT_EQ(rc->test, quic_crypto_encrypt_buf(rc->tx, rc->pkt, &pkt), 0);
	rc->pn++;
	return pkt.len;
}

/**
 * rx_conn_send_initial - protect an Initial packet with @rc->tx and inject it
 * @rc: the state: the packet goes from @rc->scid to @rc->dcid with the
 *	next packet number, in a datagram of its own
 * @token: its Token, or NULL
 * @token_len: the Token's length
 * @payload: its frames
 * @len: their length
 * @size: the datagram's length, PADDING added to the payload to reach it;
 *	0 for none
 */
void rx_conn_send_initial(struct rx_conn *rc, const u8 *token, u32 token_len,
			  const u8 *payload, u32 len, u32 size)
{
	u32 n = rx_conn_protect_long(rc, QUIC_PACKET_INITIAL, token, token_len, payload, len,
				     size);

	rx_conn_inject(rc, rc->pkt, n);
}

/**
 * rx_conn_closed - did the connection end, and with which code?
 * @rc: the state
 * @code: set to the code of the CONNECTION_CLOSE that ended it (the
 *	client's, or the one the suite sent)
 *
 * Return: true when the client is no longer established
 */
bool rx_conn_closed(struct rx_conn *rc, u64 *code)
{
	*code = 0;
	if (quic_is_established(rc->sk))
		return false;
	lock_sock(rc->sk);
	*code = quic_sk(rc->sk)->close.seen.errcode;
	release_sock(rc->sk);
	return true;
}

/**
 * rx_memory_charged - memory charged to a protocol, per-CPU reserves included
 * @prot: the protocol
 *
 * Return: pages
 */
long rx_memory_charged(const struct proto *prot)
{
	long sum = atomic_long_read(prot->memory_allocated);
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(prot->per_cpu_fw_alloc, cpu);
	return sum;
}

/**
 * rx_expect_released - expect sockets and charged memory back where they were
 * @test: the case
 * @prot: the protocol
 * @socks_before: quic_sockets_allocated before the case
 * @mem_before: rx_memory_charged() before the case
 *
 * Waits up to five seconds for sockets closed by the case to be freed.
 */
void rx_expect_released(struct kunit *test, const struct proto *prot, s64 socks_before,
			long mem_before)
{
	s64 socks = 0;
	long mem = 0;
	int i;

	for (i = 0; i < 100; i++) {
		socks = percpu_counter_sum(&quic_sockets_allocated);
		mem = rx_memory_charged(prot);
		if (socks <= socks_before && mem <= mem_before)
			break;
		msleep(50);
	}
	KUNIT_EXPECT_LE(test, socks, socks_before);
	KUNIT_EXPECT_LE(test, mem, mem_before);
}
