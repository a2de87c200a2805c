/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers of the live-connection KUnit suites: see conn_util.c.
 */

#ifndef __net_quic_tests_conn_util_h__
#define __net_quic_tests_conn_util_h__

#include <kunit/test.h>
#include <linux/net.h>
#include <linux/quic.h>

#include "../common.h"

/* Receive and send timeout of the test sockets. */
#define CONN_TIMEO	(5 * HZ)

struct conn_case {
	const char *desc;
	int family;
	const char *ip;
	u32 version;
	u32 cipher;
};

/* @user_client: the client is a user socket (sock_create()), which
 * lingers after close() (close.c); kernel sockets do not.
 * @listen_events: bit per QUIC_EVENT_* enabled on the listener.
 * @client_events: bit per QUIC_EVENT_* enabled on the client before connect().
 * @client_cid_limit: the client's active_connection_id_limit (0: default).
 * @client_fixed_version: the client disables compatible version negotiation.
 * @idle_timeout: both ends' max_idle_timeout in microseconds (0: default).
 * @validate_peer_address: the listener answers with a Retry.
 * @listen_version: the listener's configured version (0: v1), preferred
 *	in compatible version negotiation.
 * @grease: both ends send grease_quic_bit (RFC 9287).
 * @plain_1rtt: who sends disable_1rtt_encryption: bit 0 the listener,
 *	bit 1 the client.
 * @client_token: an address validation token the client presents.
 * @client_token_len: its length.
 * @client_keepalive: the client's keepalive_probe_interval (microseconds,
 *	the 28-byte QUIC_SOCKOPT_CONFIG layout; 0: not set).
 * @server_pref: a preferred address the server offers once accepted
 *	(QUIC_SOCKOPT_CONNECTION_MIGRATION before its parameters go out),
 *	of either family.
 * @server_pref2: a second one, of the other family (NULL: none).
 * @client_v6only: IPV6_V6ONLY on the client (AF_INET6 cases).
 * @server_waits_initials: the server's stand-in TLS is slow: it answers
 *	the ClientHello only once the client has sent this many Initial
 *	packets (its first, then PTO probes); 0: at once.
 * @listen_sndbuf: SO_SNDBUF set on the listener (0: not set).
 * @listen_rcvbuf: SO_RCVBUF set on the listener (0: not set).
 * @initial_rtt: both ends' initial_smoothed_rtt in microseconds (0: default)
 * @max_ack_delay: both ends' max_ack_delay in microseconds (0: default)
 * @max_datagram: both ends' max_datagram_frame_size (0: no DATAGRAM)
 * @idle_each: set @client_idle and @listen_idle, 0 included, instead of
 *	@idle_timeout
 * @client_idle: the client's max_idle_timeout, microseconds (0: none)
 * @listen_idle: the listener's max_idle_timeout, microseconds (0: none)
 * @client_late: transport parameters the client sets after connect(),
 *	before its handshake (zero fields leave values as they are; NULL: none)
 * @server_late: the same for the accepted socket, before its handshake
 * @bare_recv_einval: the accepted socket first reads the ClientHello with
 *	no control message room: -EINVAL expected (@bare_recv_seen set)
 * @long_handshake_info: the server sends its Initial with the 8-byte
 *	struct quic_handshake_info of the socket API draft (reserved[7])
 * @bare_recv_seen: set when @bare_recv_einval's read returned -EINVAL
 */
struct conn_pair {
	struct socket *lsock;
	struct socket *client;
	struct socket *server;
	bool user_client;
	u16 server_max_streams;
	u32 probe_interval;
	u32 listen_events;
	u32 client_events;
	u8 client_cid_limit;
	u8 client_fixed_version;
	u32 idle_timeout;
	u8 validate_peer_address;
	u32 listen_version;
	u8 grease;
	u8 plain_1rtt;
	u8 *client_token;
	u32 client_token_len;
	u32 client_keepalive;
	union quic_addr *server_pref;
	union quic_addr *server_pref2;
	u8 client_v6only;
	u8 server_waits_initials;
	int listen_sndbuf;
	int listen_rcvbuf;
	u32 initial_rtt;
	u32 max_ack_delay;
	u16 max_datagram;
	u8 idle_each;
	u32 client_idle;
	u32 listen_idle;
	const struct quic_transport_param *client_late;
	const struct quic_transport_param *server_late;
	u8 bare_recv_einval;
	u8 long_handshake_info;
	u8 bare_recv_seen;
};

void conn_addr(union quic_addr *a, int family, const char *ip, u16 port);
int conn_addr_len(int family);
int conn_send(struct socket *sock, int type, const void *ctl, size_t ctl_len,
	      const void *data, size_t len, int flags);
int conn_send_crypto(struct socket *sock, u8 level, const void *data, size_t len);
int conn_send_stream(struct socket *sock, s64 id, u32 flags, const void *data, size_t len);
int conn_recv(struct socket *sock, int type, void *ctl, size_t ctl_len, void *data,
	      size_t len);
int conn_recv_crypto(struct socket *sock, u8 level, u8 *data, size_t len);
int conn_secret(struct socket *sock, u8 level, bool send, bool from_client, u32 cipher);
void conn_secret_fill(struct quic_crypto_secret *srt, u8 level, bool send, bool from_client,
		      u32 cipher);
int conn_secrets(struct socket *sock, bool client, u8 level, u32 cipher);
int conn_params_to(struct socket *from, struct socket *to);
void conn_sock_release(void *sock);
void conn_limit_streams(struct kunit *test, struct socket *sock, u16 max);
void conn_handshake(struct kunit *test, const struct conn_case *c, u16 port,
		    struct conn_pair *p);
u8 *conn_pattern(struct kunit *test, size_t len, u8 seed);
void conn_expect_stream(struct kunit *test, struct socket *sock, s64 id, const u8 *want,
			size_t len);
void conn_expect_partial(struct kunit *test, struct socket *sock, s64 id, size_t len);

#endif /* __net_quic_tests_conn_util_h__ */
