// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers of the live-connection KUnit suites (quic_conn, quic_conn_control):
 * two in-kernel QUIC sockets over loopback with a stand-in TLS handshake
 * (see conn_handshake()).
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <net/sock.h>
#include <uapi/linux/tls.h>

#include "../socket.h"
#include "conn_util.h"
#include "util.h"

/**
 * conn_addr - fill a test address
 * @a: out
 * @family: AF_INET or AF_INET6
 * @ip: address literal
 * @port: port, host order
 */
void conn_addr(union quic_addr *a, int family, const char *ip, u16 port)
{
	if (family == AF_INET6)
		quic_kunit_addr6(a, ip, port);
	else
		quic_kunit_addr4(a, ip, port);
}

/**
 * conn_addr_len - the sockaddr length of a family
 * @family: AF_INET or AF_INET6
 *
 * Return: the size of struct sockaddr_in or sockaddr_in6
 */
int conn_addr_len(int family)
{
	return family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

/**
 * conn_send - one sendmsg() with at most one SOL_QUIC control message
 * @sock: the socket
 * @type: cmsg type (QUIC_STREAM_INFO, QUIC_HANDSHAKE_INFO)
 * @ctl: cmsg content, or NULL for none
 * @ctl_len: its size
 * @data: payload
 * @len: its length
 * @flags: msg_flags (MSG_DATAGRAM, MSG_DONTWAIT)
 *
 * Return: what kernel_sendmsg() returns
 */
int conn_send(struct socket *sock, int type, const void *ctl, size_t ctl_len,
	      const void *data, size_t len, int flags)
{
	u8 cbuf[CMSG_SPACE(sizeof(struct quic_stream_info))] = {};
	struct kvec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr msg = { .msg_flags = flags };
	struct cmsghdr *cmsg;

	if (ctl) {
		msg.msg_control = cbuf;
		msg.msg_controllen = CMSG_SPACE(ctl_len);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_QUIC;
		cmsg->cmsg_type = type;
		cmsg->cmsg_len = CMSG_LEN(ctl_len);
		memcpy(CMSG_DATA(cmsg), ctl, ctl_len);
	}
	return kernel_sendmsg(sock, &msg, &iov, 1, len);
}

/**
 * conn_send_crypto - send handshake bytes at an encryption level
 * @sock: the socket
 * @level: QUIC_CRYPTO_*
 * @data: the bytes
 * @len: their length
 *
 * Return: what kernel_sendmsg() returns
 */
int conn_send_crypto(struct socket *sock, u8 level, const void *data, size_t len)
{
	struct quic_handshake_info hi = { .crypto_level = level };

	return conn_send(sock, QUIC_HANDSHAKE_INFO, &hi, sizeof(hi), data, len, 0);
}

/**
 * conn_send_stream - send stream data
 * @sock: the socket
 * @id: stream ID
 * @flags: MSG_STREAM_* flags
 * @data: the bytes
 * @len: their length
 *
 * Return: what kernel_sendmsg() returns
 */
int conn_send_stream(struct socket *sock, s64 id, u32 flags, const void *data,
		     size_t len)
{
	struct quic_stream_info si = { .stream_id = id, .stream_flags = flags };

	return conn_send(sock, QUIC_STREAM_INFO, &si, sizeof(si), data, len, 0);
}

/**
 * conn_recv - one recvmsg() expecting a given control message
 * @sock: the socket
 * @type: the SOL_QUIC cmsg type expected
 * @ctl: out: its content
 * @ctl_len: its size
 * @data: buffer
 * @len: its size
 *
 * Return: bytes read, 0 at end of file, -EBADMSG when the control message
 * differs, or the recvmsg() error
 */
int conn_recv(struct socket *sock, int type, void *ctl, size_t ctl_len, void *data,
	      size_t len)
{
	u8 cbuf[CMSG_SPACE(sizeof(struct quic_stream_info))] = {};
	struct kvec iov = { .iov_base = data, .iov_len = len };
	struct msghdr msg = {};
	struct cmsghdr *cmsg;
	int ret;

	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	ret = kernel_recvmsg(sock, &msg, &iov, 1, len, 0);
	if (ret < 0)
		return ret;
	/* End of file: no control message was written. */
	if (!ret && msg.msg_controllen == sizeof(cbuf))
		return 0;
	cmsg = (struct cmsghdr *)cbuf;
	if (cmsg->cmsg_level != SOL_QUIC || cmsg->cmsg_type != type ||
	    cmsg->cmsg_len != CMSG_LEN(ctl_len))
		return -EBADMSG;
	memcpy(ctl, CMSG_DATA(cmsg), ctl_len);
	return ret;
}

/**
 * conn_recv_crypto - read CRYPTO bytes of a level until a length arrived
 * @sock: the socket
 * @level: the level expected
 * @data: buffer
 * @len: bytes wanted
 *
 * Read CRYPTO bytes of @level until @len arrived.
 *
 * Return: 0, -EBADMSG for another level, -EPIPE at end of file, or the recvmsg() error
 */
int conn_recv_crypto(struct socket *sock, u8 level, u8 *data, size_t len)
{
	struct quic_handshake_info hi;
	size_t got = 0;
	int ret;

	while (got < len) {
		ret = conn_recv(sock, QUIC_HANDSHAKE_INFO, &hi, sizeof(hi), data + got, len - got);
		if (ret <= 0)
			return ret ?: -EPIPE;
		if (hi.crypto_level != level)
			return -EBADMSG;
		got += ret;
	}
	return 0;
}

/**
 * conn_secret - install the fixed test secret of one direction of a level
 * @sock: the socket
 * @level: QUIC_CRYPTO_*
 * @send: the send direction
 * @from_client: the secret the client sends with
 * @cipher: TLS_CIPHER_*
 *
 * Return: what QUIC_SOCKOPT_CRYPTO_SECRET returns
 */
int conn_secret(struct socket *sock, u8 level, bool send, bool from_client, u32 cipher)
{
	struct quic_crypto_secret srt;

	conn_secret_fill(&srt, level, send, from_client, cipher);
	return quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_CRYPTO_SECRET, &srt, sizeof(srt));
}

/**
 * conn_secret_fill - the fixed test secret of one direction of a level
 * @srt: set to the secret, as QUIC_SOCKOPT_CRYPTO_SECRET takes it
 * @level: QUIC_CRYPTO_*
 * @send: for the sending end
 * @from_client: the secret of the client's direction
 * @cipher: TLS_CIPHER_*
 *
 * A suite that protects packets itself derives the same keys from it.
 */
void conn_secret_fill(struct quic_crypto_secret *srt, u8 level, bool send, bool from_client,
		      u32 cipher)
{
	*srt = (struct quic_crypto_secret){ .send = send, .level = level, .type = cipher };
	/* Each direction of each level has its own fixed secret. */
	memset(srt->secret, 0x10 * level + (from_client ? 1 : 2), sizeof(srt->secret));
}

/**
 * conn_secrets - install both directions of a level
 * @sock: the socket
 * @client: @sock is the client (it sends with the client secret)
 * @level: QUIC_CRYPTO_*
 * @cipher: TLS_CIPHER_*
 *
 * Both ends' secrets for @level: the client sends with the client secret.
 *
 * Return: 0 or the first error
 */
int conn_secrets(struct socket *sock, bool client, u8 level, u32 cipher)
{
	int err;

	err = conn_secret(sock, level, true, client, cipher);
	if (!err)
		err = conn_secret(sock, level, false, !client, cipher);
	return err;
}

/**
 * conn_params_to - hand one side's encoded transport parameters to the other
 * @from: whose parameters
 * @to: who takes them
 *
 * Return: 0 or the first socket option error
 */
int conn_params_to(struct socket *from, struct socket *to)
{
	unsigned int len = 1024;
	u8 *buf;
	int err;

	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = quic_kernel_getsockopt(from->sk, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, buf, &len);
	if (!err)
		err = quic_kernel_setsockopt(to->sk, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, buf, len);
	kfree(buf);
	return err;
}

/**
 * conn_sock_release - kunit action releasing a socket created by a case
 * @sock: the struct socket
 *
 * A kunit action: release a socket created by a case.
 */
void conn_sock_release(void *sock)
{
	sock_release(sock);
}

/* Which of our transport parameters conn_tp_set() changes. */
enum conn_tp {
	CONN_TP_GREASE,		/* grease_quic_bit, RFC 9287 */
	CONN_TP_PLAIN_1RTT,	/* disable_1rtt_encryption */
	CONN_TP_MAX_STREAMS,	/* max_streams_bidi and max_streams_uni */
	CONN_TP_IDLE_TIMEOUT,	/* max_idle_timeout, microseconds */
	CONN_TP_CID_LIMIT,	/* active_connection_id_limit */
	CONN_TP_FIXED_VERSION,	/* disable_compatible_version */
	CONN_TP_MAX_ACK_DELAY,	/* max_ack_delay, microseconds */
	CONN_TP_MAX_DATAGRAM,	/* max_datagram_frame_size */
};

/* Set one of our transport parameters on @sock, before listen() or connect(). */
static void conn_tp_set(struct kunit *test, struct socket *sock, enum conn_tp which, u64 val)
{
	struct quic_transport_param prm = {};
	unsigned int len = sizeof(prm);

	KUNIT_ASSERT_EQ(test, quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &prm,
						     &len), 0);
	switch (which) {
	case CONN_TP_GREASE:
		prm.grease_quic_bit = val;
		break;
	case CONN_TP_PLAIN_1RTT:
		prm.disable_1rtt_encryption = val;
		break;
	case CONN_TP_MAX_STREAMS:
		prm.max_streams_bidi = val;
		prm.max_streams_uni = val;
		break;
	case CONN_TP_IDLE_TIMEOUT:
		prm.max_idle_timeout = val;
		break;
	case CONN_TP_CID_LIMIT:
		prm.active_connection_id_limit = val;
		break;
	case CONN_TP_FIXED_VERSION:
		prm.disable_compatible_version = val;
		break;
	case CONN_TP_MAX_ACK_DELAY:
		prm.max_ack_delay = val;
		break;
	case CONN_TP_MAX_DATAGRAM:
		prm.max_datagram_frame_size = val;
		break;
	}
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &prm,
						     sizeof(prm)), 0);
}

/**
 * conn_limit_streams - set our max_streams_bidi and max_streams_uni
 * @test: the case
 * @sock: the socket, before listen() or connect()
 * @max: the limit
 *
 * Our max_streams_bidi and max_streams_uni transport parameters.
 */
void conn_limit_streams(struct kunit *test, struct socket *sock, u16 max)
{
	conn_tp_set(test, sock, CONN_TP_MAX_STREAMS, max);
}

/* Wait (20 s at most) until @client has sent @count Initial packets. */
static void conn_wait_initials(struct kunit *test, struct socket *client, u8 count)
{
	struct quic_pnspace *space = quic_pnspace(client->sk, QUIC_CRYPTO_INITIAL);
	unsigned long end = jiffies + 20 * HZ;
	s64 sent;

	for (;;) {
		lock_sock(client->sk);
		sent = space->next_pn;
		release_sock(client->sk);
		if (sent >= count || time_after(jiffies, end))
			break;
		msleep(20);
	}
	KUNIT_ASSERT_GE(test, sent, count);
}

/* Server: offer @a as a preferred address, sized by its own family. */
static int conn_offer_pref(struct socket *server, union quic_addr *a)
{
	return quic_kernel_setsockopt(server->sk, QUIC_SOCKOPT_CONNECTION_MIGRATION, a,
				      conn_addr_len(a->sa.sa_family));
}

/*
 * An initial RTT set as QUIC_SOCKOPT_CONFIG sets it, without the option's
 * range (100 ms..6 s): the explorer runs its connections with 1 ms, so
 * that its timers fire quickly. The congestion controller takes 1 ms..60 s.
 */
static void conn_set_initial_rtt(struct kunit *test, struct sock *sk, u32 rtt)
{
	struct quic_config c;

	lock_sock(sk);
	c = *quic_config(sk);
	c.initial_smoothed_rtt = rtt;
	KUNIT_EXPECT_EQ(test, quic_cong_set_config(quic_cong(sk), &c), 0);
	*quic_config(sk) = c;
	release_sock(sk);
}

/**
 * conn_handshake - connect a client to a listener and complete a stand-in handshake
 * @test: the case
 * @c: address family, version and cipher
 * @port: the listener's port
 * @p: in: options; out: the listener, client and accepted server sockets
 *
 * The stand-in handshake, in the order a TLS 1.3 handshake moves:
 * ClientHello (Initial) -> ServerHello (Initial), EncryptedExtensions to
 * Finished (Handshake) -> client Finished (Handshake); the client installs
 * its 1-RTT keys after the server's Finished, the server after the
 * client's Finished.
 */
void conn_handshake(struct kunit *test, const struct conn_case *c, u16 port,
		    struct conn_pair *p)
{
	static const char chlo[] = "client hello: a stand-in for TLS";
	static const char shlo[] = "server hello";
	static const char sfin[] = "encrypted extensions .. server finished";
	static const char cfin[] = "client finished";
	struct quic_config cfg = { .version = c->version,
				   .plpmtud_probe_interval = p->probe_interval };
	union quic_addr a;
	u8 buf[64];
	int i;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, c->family, SOCK_STREAM, IPPROTO_QUIC,
					       &p->lsock), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, p->lsock), 0);
	if (p->user_client)
		KUNIT_ASSERT_EQ(test, sock_create(c->family, SOCK_STREAM, IPPROTO_QUIC,
						  &p->client), 0);
	else
		KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, c->family, SOCK_STREAM,
						       IPPROTO_QUIC, &p->client), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, p->client), 0);
	p->lsock->sk->sk_rcvtimeo = CONN_TIMEO;
	if (p->listen_sndbuf) {
		/* What setsockopt(SO_SNDBUF) does. */
		lock_sock(p->lsock->sk);
		p->lsock->sk->sk_userlocks |= SOCK_SNDBUF_LOCK;
		WRITE_ONCE(p->lsock->sk->sk_sndbuf, 2 * p->listen_sndbuf);
		release_sock(p->lsock->sk);
	}
	if (p->listen_rcvbuf)
		sock_set_rcvbuf(p->lsock->sk, p->listen_rcvbuf);
	p->client->sk->sk_rcvtimeo = CONN_TIMEO;
	p->client->sk->sk_sndtimeo = CONN_TIMEO;
	/* IPV6_V6ONLY before connect(), as setsockopt() would set it. */
	if (p->client_v6only)
		p->client->sk->sk_ipv6only = 1;

	conn_addr(&a, c->family, c->ip, port);
	KUNIT_ASSERT_EQ(test, kernel_bind(p->lsock, &a.sa, conn_addr_len(c->family)), 0);
	if (p->server_max_streams)
		conn_limit_streams(test, p->lsock, p->server_max_streams);
	if (p->grease) {
		conn_tp_set(test, p->lsock, CONN_TP_GREASE, 1);
		conn_tp_set(test, p->client, CONN_TP_GREASE, 1);
	}
	if (p->plain_1rtt & 1)
		conn_tp_set(test, p->lsock, CONN_TP_PLAIN_1RTT, 1);
	if (p->plain_1rtt & 2)
		conn_tp_set(test, p->client, CONN_TP_PLAIN_1RTT, 1);
	if (p->validate_peer_address || p->listen_version) {
		struct quic_config lcfg = { .validate_peer_address = p->validate_peer_address,
					    .version = p->listen_version };

		KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p->lsock->sk, QUIC_SOCKOPT_CONFIG,
							     &lcfg, sizeof(lcfg)), 0);
	}
	/* Last of the listener's configuration: a later CONFIG set would
	 * find the value out of its range.
	 */
	if (p->initial_rtt)
		conn_set_initial_rtt(test, p->lsock->sk, p->initial_rtt);
	for (i = 1; i <= QUIC_EVENT_MAX; i++) {
		struct quic_event_option ev = { .type = i, .on = 1 };

		if (p->listen_events & BIT(i))
			KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p->lsock->sk,
								     QUIC_SOCKOPT_EVENT, &ev,
								     sizeof(ev)), 0);
		if (p->client_events & BIT(i))
			KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p->client->sk,
								     QUIC_SOCKOPT_EVENT, &ev,
								     sizeof(ev)), 0);
	}
	if (p->idle_timeout)
		conn_tp_set(test, p->lsock, CONN_TP_IDLE_TIMEOUT, p->idle_timeout);
	if (p->idle_each) {
		conn_tp_set(test, p->lsock, CONN_TP_IDLE_TIMEOUT, p->listen_idle);
		conn_tp_set(test, p->client, CONN_TP_IDLE_TIMEOUT, p->client_idle);
	}
	if (p->max_ack_delay) {
		conn_tp_set(test, p->lsock, CONN_TP_MAX_ACK_DELAY, p->max_ack_delay);
		conn_tp_set(test, p->client, CONN_TP_MAX_ACK_DELAY, p->max_ack_delay);
	}
	if (p->max_datagram) {
		conn_tp_set(test, p->lsock, CONN_TP_MAX_DATAGRAM, p->max_datagram);
		conn_tp_set(test, p->client, CONN_TP_MAX_DATAGRAM, p->max_datagram);
	}
	KUNIT_ASSERT_EQ(test, kernel_listen(p->lsock, 4), 0);
	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p->client->sk, QUIC_SOCKOPT_CONFIG, &cfg,
						     sizeof(cfg)), 0);
	if (p->client_keepalive) {
		struct {
			struct quic_config c;
			u32 keepalive;
		} __packed longer = { .c = cfg, .keepalive = p->client_keepalive };

		KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p->client->sk, QUIC_SOCKOPT_CONFIG,
							     &longer, sizeof(longer)), 0);
	}
	if (p->initial_rtt)
		conn_set_initial_rtt(test, p->client->sk, p->initial_rtt);
	if (p->client_token)
		KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p->client->sk, QUIC_SOCKOPT_TOKEN,
							     p->client_token,
							     p->client_token_len), 0);
	if (p->idle_timeout)
		conn_tp_set(test, p->client, CONN_TP_IDLE_TIMEOUT, p->idle_timeout);
	if (p->client_cid_limit)
		conn_tp_set(test, p->client, CONN_TP_CID_LIMIT, p->client_cid_limit);
	if (p->client_fixed_version)
		conn_tp_set(test, p->client, CONN_TP_FIXED_VERSION, 1);
	KUNIT_ASSERT_EQ(test, kernel_connect(p->client, &a.sa, conn_addr_len(c->family), 0), 0);
	if (p->client_late)
		KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p->client->sk,
							     QUIC_SOCKOPT_TRANSPORT_PARAM,
							     (void *)p->client_late,
							     sizeof(*p->client_late)), 0);

	/* ClientHello in the client's Initial; the server accepts it. */
	KUNIT_ASSERT_EQ(test, conn_send_crypto(p->client, QUIC_CRYPTO_INITIAL, chlo,
					       sizeof(chlo)), sizeof(chlo));
	KUNIT_ASSERT_EQ(test, kernel_accept(p->lsock, &p->server, 0), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_sock_release, p->server), 0);
	p->server->sk->sk_rcvtimeo = CONN_TIMEO;
	p->server->sk->sk_sndtimeo = CONN_TIMEO;
	if (p->bare_recv_einval) {
		struct kvec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
		struct msghdr msg = {};

		p->bare_recv_seen = kernel_recvmsg(p->server, &msg, &iov, 1, sizeof(buf),
						   0) == -EINVAL;
	}
	KUNIT_ASSERT_EQ(test, conn_recv_crypto(p->server, QUIC_CRYPTO_INITIAL, buf, sizeof(chlo)),
			0);
	KUNIT_ASSERT_MEMEQ(test, buf, chlo, sizeof(chlo));
	if (p->server_waits_initials)
		conn_wait_initials(test, p->client, p->server_waits_initials);
	if (p->server_late)
		KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(p->server->sk,
							     QUIC_SOCKOPT_TRANSPORT_PARAM,
							     (void *)p->server_late,
							     sizeof(*p->server_late)), 0);
	/* A preferred address may be of either family (RFC 9000 Section 18.2). */
	if (p->server_pref)
		KUNIT_ASSERT_EQ(test, conn_offer_pref(p->server, p->server_pref), 0);
	if (p->server_pref2)
		KUNIT_ASSERT_EQ(test, conn_offer_pref(p->server, p->server_pref2), 0);

	/* The server's flight: its parameters travel in EncryptedExtensions. */
	KUNIT_ASSERT_EQ(test, conn_params_to(p->client, p->server), 0);
	KUNIT_ASSERT_EQ(test, conn_secrets(p->server, false, QUIC_CRYPTO_HANDSHAKE, c->cipher), 0);
	if (p->long_handshake_info) {
		u8 hs[8] = { QUIC_CRYPTO_INITIAL, 0xff, 0xff };

		KUNIT_ASSERT_EQ(test, conn_send(p->server, QUIC_HANDSHAKE_INFO, hs, sizeof(hs),
						shlo, sizeof(shlo), 0), sizeof(shlo));
	} else {
		KUNIT_ASSERT_EQ(test, conn_send_crypto(p->server, QUIC_CRYPTO_INITIAL, shlo,
						       sizeof(shlo)), sizeof(shlo));
	}
	KUNIT_ASSERT_EQ(test, conn_send_crypto(p->server, QUIC_CRYPTO_HANDSHAKE, sfin,
					       sizeof(sfin)), sizeof(sfin));

	/* The client reads it, finishes, and has its 1-RTT keys. */
	KUNIT_ASSERT_EQ(test, conn_recv_crypto(p->client, QUIC_CRYPTO_INITIAL, buf, sizeof(shlo)),
			0);
	KUNIT_ASSERT_MEMEQ(test, buf, shlo, sizeof(shlo));
	KUNIT_ASSERT_EQ(test, conn_secrets(p->client, true, QUIC_CRYPTO_HANDSHAKE, c->cipher), 0);
	KUNIT_ASSERT_EQ(test, conn_recv_crypto(p->client, QUIC_CRYPTO_HANDSHAKE, buf,
					       sizeof(sfin)), 0);
	KUNIT_ASSERT_MEMEQ(test, buf, sfin, sizeof(sfin));
	KUNIT_ASSERT_EQ(test, conn_params_to(p->server, p->client), 0);
	KUNIT_ASSERT_EQ(test, conn_send_crypto(p->client, QUIC_CRYPTO_HANDSHAKE, cfin,
					       sizeof(cfin)), sizeof(cfin));
	KUNIT_ASSERT_EQ(test, conn_secrets(p->client, true, QUIC_CRYPTO_APP, c->cipher), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p->client->sk));

	/* The server verifies the client's Finished: handshake complete. */
	KUNIT_ASSERT_EQ(test, conn_recv_crypto(p->server, QUIC_CRYPTO_HANDSHAKE, buf,
					       sizeof(cfin)), 0);
	KUNIT_ASSERT_MEMEQ(test, buf, cfin, sizeof(cfin));
	KUNIT_ASSERT_EQ(test, conn_secrets(p->server, false, QUIC_CRYPTO_APP, c->cipher), 0);
	KUNIT_EXPECT_TRUE(test, quic_is_established(p->server->sk));
}

/**
 * conn_pattern - a buffer of test bytes
 * @test: the case (owns the buffer)
 * @len: its size
 * @seed: varies the pattern
 *
 * Return: the buffer
 */
u8 *conn_pattern(struct kunit *test, size_t len, u8 seed)
{
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < len; i++)
		buf[i] = seed + i * 7 + (i >> 9);
	return buf;
}

/**
 * conn_expect_stream - receive a stream until its FIN and compare it
 * @test: the case
 * @sock: the socket
 * @id: the stream expected
 * @want: the bytes expected
 * @len: their number
 *
 * Receive stream @id until its FIN, checking every byte against @want.
 */
void conn_expect_stream(struct kunit *test, struct socket *sock, s64 id, const u8 *want,
			size_t len)
{
	u8 *got = kunit_kzalloc(test, len + 1, GFP_KERNEL);
	struct quic_stream_info si;
	size_t n = 0;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, got);
	for (;;) {
		ret = conn_recv(sock, QUIC_STREAM_INFO, &si, sizeof(si), got + n, len + 1 - n);
		KUNIT_ASSERT_GE_MSG(test, ret, 0, "recvmsg after %zu of %zu bytes", n, len);
		KUNIT_ASSERT_EQ(test, si.stream_id, id);
		n += ret;
		if (si.stream_flags & MSG_STREAM_FIN)
			break;
		KUNIT_ASSERT_GT_MSG(test, ret, 0, "no FIN after %zu bytes", n);
	}
	KUNIT_ASSERT_EQ(test, n, len);
	KUNIT_EXPECT_MEMEQ(test, got, want, len);
}

/**
 * conn_expect_partial - receive bytes of a stream, without its end
 * @test: the case
 * @sock: the socket
 * @id: the stream expected
 * @len: bytes to read
 *
 * Receive @len bytes of stream @id without its end.
 */
void conn_expect_partial(struct kunit *test, struct socket *sock, s64 id, size_t len)
{
	struct quic_stream_info si;
	size_t n = 0;
	u8 buf[64];
	int ret;

	while (n < len) {
		ret = conn_recv(sock, QUIC_STREAM_INFO, &si, sizeof(si), buf,
				min(sizeof(buf), len - n));
		KUNIT_ASSERT_GT(test, ret, 0);
		KUNIT_ASSERT_EQ(test, si.stream_id, id);
		KUNIT_ASSERT_FALSE(test, si.stream_flags & MSG_STREAM_FIN);
		n += ret;
	}
}
