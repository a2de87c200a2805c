// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_mem: socket memory accounting of a live connection.
 *
 * What the receive queue holds is charged to sk_rmem_alloc, the stream
 * bytes held until acknowledged to sk_wmem_queued, both through
 * sk_forward_alloc against the protocol's net.quic.quic_mem (socket.c).
 * The cases drive two in-kernel sockets over loopback (conn_util.c) and
 * look at the socket fields under the socket lock.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <net/proto_memory.h>
#include <net/sock.h>
#include <uapi/linux/tls.h>

#include "../path.h"
#include "../protocol.h"
#include "../socket.h"
#include "conn_util.h"
#include "rx_util.h"
#include "util.h"

static const struct conn_case mem_case = {
	"IPv4 v1 AES-128-GCM", AF_INET, "127.0.0.1", QUIC_VERSION_V1, TLS_CIPHER_AES_GCM_128
};

/* A snapshot of one socket's accounting, taken under its lock. */
struct mem_snap {
	int rmem_alloc;
	u32 inq_rmem;
	u64 unread;
	int wmem_queued;
	u64 outq_wmem;
	int forward_alloc;
	long allocated;
};

static void mem_snap(struct socket *sock, struct mem_snap *m)
{
	struct sock *sk = sock->sk;

	lock_sock(sk);
	m->rmem_alloc = atomic_read(&sk->sk_rmem_alloc);
	m->inq_rmem = quic_inq_rmem(quic_inq(sk));
	m->unread = quic_inq_unread(quic_inq(sk));
	m->wmem_queued = READ_ONCE(sk->sk_wmem_queued);
	m->outq_wmem = quic_outq_wmem(quic_outq(sk));
	m->forward_alloc = sk_forward_alloc_get(sk);
	m->allocated = rx_memory_charged(sk->sk_prot);
	release_sock(sk);
}

/* A write on stream @id that does not wait. */
static int mem_send_nowait(struct socket *sock, s64 id, u32 flags, const void *data, size_t len)
{
	struct quic_stream_info si = { .stream_id = id, .stream_flags = flags };

	return conn_send(sock, QUIC_STREAM_INFO, &si, sizeof(si), data, len, MSG_DONTWAIT);
}

/* Wait (2 s at most) until @sock holds @len unread bytes. */
static void mem_wait_unread(struct kunit *test, struct socket *sock, u64 len)
{
	struct mem_snap m;
	int i;

	for (i = 0; i < 100; i++) {
		mem_snap(sock, &m);
		if (m.unread >= len)
			return;
		msleep(20);
	}
	KUNIT_FAIL(test, "%llu of %llu bytes arrived", m.unread, len);
}

/* Read @len bytes of stream @id at @sock and compare them with @want. */
static void mem_read_all(struct kunit *test, struct socket *sock, const u8 *want, size_t len)
{
	struct quic_stream_info si;
	size_t got = 0;
	u8 *buf;
	int ret;

	buf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	while (got < len) {
		ret = conn_recv(sock, QUIC_STREAM_INFO, &si, sizeof(si), buf + got, len - got);
		KUNIT_ASSERT_GT_MSG(test, ret, 0, "after %zu of %zu bytes", got, len);
		got += ret;
	}
	KUNIT_EXPECT_MEMEQ(test, buf, want, len);
}

/*
 * The protocol limits net.quic.quic_mem, put back when the case ends. The
 * cases set them to -1 pages, below anything the global count can read
 * (it lags the pages each CPU holds back, see rx_memory_charged()): every
 * request for more pages is then refused.
 */
static long mem_saved_limits[3];

static void mem_restore_limits(void *unused)
{
	memcpy(sysctl_quic_mem, mem_saved_limits, sizeof(mem_saved_limits));
}

static void mem_set_limits(struct kunit *test, long low, long pressure, long high)
{
	memcpy(mem_saved_limits, sysctl_quic_mem, sizeof(mem_saved_limits));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mem_restore_limits, NULL), 0);
	WRITE_ONCE(sysctl_quic_mem[0], low);
	WRITE_ONCE(sysctl_quic_mem[1], pressure);
	WRITE_ONCE(sysctl_quic_mem[2], high);
}

/* Received data is charged when it is queued and given back when read. */
static void mem_received_data_is_charged_until_read(struct kunit *test)
{
	const size_t len = 30000;
	struct conn_pair p = {};
	struct mem_snap m;
	u8 *up;

	conn_handshake(test, &mem_case, 63040, &p);
	up = conn_pattern(test, len, 1);
	KUNIT_ASSERT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, up, len), len);
	mem_wait_unread(test, p.server, len);

	mem_snap(p.server, &m);
	KUNIT_EXPECT_GT(test, m.inq_rmem, (u32)len);
	KUNIT_EXPECT_EQ(test, (u32)m.rmem_alloc, m.inq_rmem);
	KUNIT_EXPECT_GE(test, m.forward_alloc, 0);
	/* The charge came out of the protocol's pages. */
	KUNIT_EXPECT_GE(test, m.allocated, (long)sk_mem_pages(m.rmem_alloc + m.forward_alloc));

	mem_read_all(test, p.server, up, len);
	mem_snap(p.server, &m);
	KUNIT_EXPECT_EQ(test, m.rmem_alloc, 0);
	KUNIT_EXPECT_EQ(test, m.inq_rmem, 0U);
	/* Whole free pages went back to the protocol. */
	KUNIT_EXPECT_LT(test, m.forward_alloc, (int)PAGE_SIZE);
}

/* Stream bytes are in sk_wmem_queued from the write until their ACK. */
static void mem_queued_data_is_charged_until_acknowledged(struct kunit *test)
{
	const size_t len = 2 * 1024 * 1024;
	struct conn_pair p = {};
	size_t sent = 0;
	struct mem_snap m;
	int i, ret;
	u8 *up;

	conn_handshake(test, &mem_case, 63041, &p);
	up = conn_pattern(test, len, 2);
	/* The server does not read: flow control keeps the rest queued. */
	while (sent < len) {
		ret = mem_send_nowait(p.client, 0, sent ? 0 : MSG_STREAM_NEW, up + sent,
				      min_t(size_t, len - sent, 65536));
		if (ret == -EAGAIN)
			break;
		KUNIT_ASSERT_GT(test, ret, 0);
		sent += ret;
	}
	KUNIT_ASSERT_GT(test, sent, 0UL);

	mem_snap(p.client, &m);
	KUNIT_EXPECT_GT(test, m.outq_wmem, 0ULL);
	KUNIT_EXPECT_EQ(test, (u64)m.wmem_queued, m.outq_wmem);
	KUNIT_EXPECT_GE(test, m.forward_alloc, 0);

	mem_read_all(test, p.server, up, sent);
	for (i = 0; i < 100; i++) {
		mem_snap(p.client, &m);
		if (!m.outq_wmem)
			break;
		msleep(20);
	}
	KUNIT_EXPECT_EQ(test, m.outq_wmem, 0ULL);
	KUNIT_EXPECT_EQ(test, m.wmem_queued, 0);
	KUNIT_EXPECT_LT(test, m.forward_alloc, (int)PAGE_SIZE);
}

/*
 * Past the protocol's hard limit nothing more is taken in: the datagram is
 * dropped unacknowledged, and the peer's retransmission brings the data
 * once memory is back.
 */
static void mem_hard_limit_drops_what_cannot_be_charged(struct kunit *test)
{
	unsigned long drops = quic_mib_read(&init_net, QUIC_MIB_FRM_RCVBUFDROP);
	const size_t len = 20000;
	struct conn_pair p = {};
	struct mem_snap m;
	u8 *up;

	conn_handshake(test, &mem_case, 63042, &p);
	up = conn_pattern(test, len, 3);
	/* The client's write is larger than its whole send buffer: as for
	 * TCP, such a write is charged past the hard limit (a socket may
	 * always fill its own buffer), so only the receiver meets the limit.
	 */
	lock_sock(p.client->sk);
	p.client->sk->sk_userlocks |= SOCK_SNDBUF_LOCK;
	WRITE_ONCE(p.client->sk->sk_sndbuf, SOCK_MIN_SNDBUF);
	release_sock(p.client->sk);

	/* The server keeps less than a page charged ahead
	 * (sk_forward_alloc): at most that much gets in.
	 */
	mem_set_limits(test, -1, -1, -1);
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, 0, MSG_STREAM_NEW, up, len), len);
	msleep(100);
	mem_snap(p.server, &m);
	KUNIT_EXPECT_LT(test, m.unread, (u64)len);
	KUNIT_EXPECT_LT(test, m.rmem_alloc, (int)PAGE_SIZE);
	KUNIT_EXPECT_GT(test, quic_mib_read(&init_net, QUIC_MIB_FRM_RCVBUFDROP), drops);

	mem_restore_limits(NULL);
	mem_read_all(test, p.server, up, len);
}

/*
 * A write that socket memory cannot take waits for it (or fails at once
 * with MSG_DONTWAIT), as a TCP write does; the send buffer alone would
 * have let it in.
 */
static void mem_hard_limit_makes_a_write_wait(struct kunit *test)
{
	const size_t len = 20000;
	struct conn_pair p = {};
	struct mem_snap m;
	struct sock *sk;
	u8 *up;

	conn_handshake(test, &mem_case, 63043, &p);
	up = conn_pattern(test, len, 4);
	sk = p.client->sk;

	mem_set_limits(test, -1, -1, -1);
	lock_sock(sk);
	/* A send buffer this large never lets the charge through as
	 * "under its own buffer" (__sk_mem_raise_allocated()).
	 */
	sk->sk_userlocks |= SOCK_SNDBUF_LOCK;
	WRITE_ONCE(sk->sk_sndbuf, 4 * 1024 * 1024);
	sk->sk_sndtimeo = HZ / 5;
	release_sock(sk);
	KUNIT_EXPECT_EQ(test, mem_send_nowait(p.client, 0, MSG_STREAM_NEW, up, len), -EAGAIN);
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, 0, 0, up, len), -EAGAIN);
	mem_snap(p.client, &m);
	KUNIT_EXPECT_EQ(test, m.wmem_queued, 0);
	KUNIT_EXPECT_EQ(test, m.outq_wmem, 0ULL);

	mem_restore_limits(NULL);
	lock_sock(sk);
	sk->sk_sndtimeo = CONN_TIMEO;
	release_sock(sk);
	KUNIT_EXPECT_EQ(test, conn_send_stream(p.client, 0, 0, up, len), len);
	mem_read_all(test, p.server, up, len);
}

/*
 * An accepted socket takes its listener's SO_SNDBUF and SO_RCVBUF, as a
 * TCP child does: a server sizes its connections' buffers on the
 * listener. The receive queue's bound follows (never below twice the
 * connection window).
 */
static void mem_accepted_socket_takes_the_listener_buffers(struct kunit *test)
{
	struct conn_pair p = { .listen_sndbuf = 300000, .listen_rcvbuf = 3000000 };
	int sndbuf, rcvbuf, locks;
	struct sock *sk;
	u32 bound;

	conn_handshake(test, &mem_case, 63045, &p);
	sk = p.server->sk;
	lock_sock(sk);
	sndbuf = sk->sk_sndbuf;
	rcvbuf = sk->sk_rcvbuf;
	locks = sk->sk_userlocks;
	bound = quic_inq(sk)->rcvbuf;
	release_sock(sk);
	KUNIT_EXPECT_EQ(test, sndbuf, 600000);
	KUNIT_EXPECT_EQ(test, rcvbuf, 6000000);
	KUNIT_EXPECT_TRUE(test, locks & SOCK_SNDBUF_LOCK);
	KUNIT_EXPECT_TRUE(test, locks & SOCK_RCVBUF_LOCK);
	KUNIT_EXPECT_GE(test, bound, (u32)rcvbuf);
}

/* Closing sockets with data queued both ways gives every page back. */
static void mem_closed_sockets_give_every_page_back(struct kunit *test)
{
	const size_t len = 200000;
	struct conn_pair p = {};
	struct mem_snap m;
	long before;
	u8 *data;

	conn_handshake(test, &mem_case, 63044, &p);
	data = conn_pattern(test, len, 5);
	mem_snap(p.lsock, &m);
	before = m.allocated;

	KUNIT_ASSERT_GT(test, mem_send_nowait(p.client, 0, MSG_STREAM_NEW, data, len), 0);
	mem_wait_unread(test, p.server, 1);
	KUNIT_ASSERT_GT(test, mem_send_nowait(p.server, 0, 0, data, len), 0);
	mem_wait_unread(test, p.client, 1);
	mem_snap(p.lsock, &m);
	KUNIT_EXPECT_GT(test, m.allocated, before);

	kunit_release_action(test, conn_sock_release, p.client);
	kunit_release_action(test, conn_sock_release, p.server);
	/* The last pages go back in sk_destruct, after an RCU grace period. */
	rcu_barrier();
	synchronize_rcu();
	rcu_barrier();
	mem_snap(p.lsock, &m);
	KUNIT_EXPECT_LE(test, m.allocated, before);
}

static int mem_suite_init(struct kunit_suite *suite)
{
	return quic_kunit_loopback_up();
}

static void mem_suite_exit(struct kunit_suite *suite)
{
	quic_path_flush();
	quic_kunit_loopback_down();
}

static struct kunit_case mem_test_cases[] = {
	KUNIT_CASE(mem_received_data_is_charged_until_read),
	KUNIT_CASE(mem_queued_data_is_charged_until_acknowledged),
	KUNIT_CASE(mem_hard_limit_drops_what_cannot_be_charged),
	KUNIT_CASE(mem_hard_limit_makes_a_write_wait),
	KUNIT_CASE(mem_accepted_socket_takes_the_listener_buffers),
	KUNIT_CASE(mem_closed_sockets_give_every_page_back),
	{}
};

static struct kunit_suite mem_suite = {
	.name = "quic_mem",
	.suite_init = mem_suite_init,
	.suite_exit = mem_suite_exit,
	.test_cases = mem_test_cases,
};

kunit_test_suite(mem_suite);
