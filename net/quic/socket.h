/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC socket: state kept per socket and the accessors other components use.
 */

#ifndef __net_quic_socket_h__
#define __net_quic_socket_h__

#include <linux/quic.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/tcp_states.h>

#include "common.h"
#include "cong.h"
#include "family.h"
#include "path.h"
#include "protocol.h"
#include "timer.h"

extern struct proto quic_prot;
extern struct proto quicv6_prot;
extern const struct proto_ops quic_proto_ops;
extern const struct proto_ops quicv6_proto_ops;

enum quic_state {
	QUIC_SS_CLOSED		= TCP_CLOSE,
	QUIC_SS_LISTENING	= TCP_LISTEN,
	QUIC_SS_ESTABLISHING	= TCP_SYN_RECV,
	QUIC_SS_ESTABLISHED	= TCP_ESTABLISHED,
};

/* Limits on what userspace may hand us through socket options. */
#define QUIC_TOKEN_MAX_LEN		1024
#define QUIC_TICKET_MAX_LEN		4096

/* Smallest PLPMTUD probe interval accepted (microseconds); 0 disables. */
#define QUIC_MIN_PROBE_INTERVAL		(5 * USEC_PER_SEC)

/* Transport parameter defaults of a new socket (flow control in bytes). */
#define QUIC_DEF_MAX_DATA		(1024 * 1024)
#define QUIC_DEF_MAX_STREAM_DATA	(256 * 1024)
#define QUIC_DEF_MAX_STREAMS		100
#define QUIC_DEF_IDLE_TIMEOUT		(30 * USEC_PER_SEC)

/**
 * struct quic_sock - a QUIC socket
 * @inet: the inet socket; must stay first
 * @config: per-socket configuration (QUIC_SOCKOPT_CONFIG)
 * @local_param: transport parameters we announce (QUIC_SOCKOPT_TRANSPORT_PARAM)
 * @remote_param: the peer's, or remembered ones for 0-RTT resumption
 * @events: bitmap of enabled QUIC_EVENT_* notifications
 * @alpn: ALPN protocol name list, TLS wire format (length-prefixed names)
 * @token: address validation token to present in the next Initial
 * @ticket: TLS session ticket for resumption
 * @paths: the active and alternate paths with their UDP tunnel sockets
 * @timers: loss, ACK, idle, path, PMTU and pacing timers
 * @cong: RTT estimator, congestion controller and pacer
 */
struct quic_sock {
	struct inet_sock		inet;

	struct quic_config		config;
	struct quic_transport_param	local_param;
	struct quic_transport_param	remote_param;
	u32				events;

	struct quic_data		alpn;
	struct quic_data		token;
	struct quic_data		ticket;

	struct quic_path_group		paths;
	struct quic_timers		timers;
	struct quic_cong		cong;
};

struct quic6_sock {
	struct quic_sock	quic;
	struct ipv6_pinfo	inet6;
};

static inline struct quic_sock *quic_sk(const struct sock *sk)
{
	return (struct quic_sock *)sk;
}

static inline struct quic_config *quic_config(const struct sock *sk)
{
	return &quic_sk(sk)->config;
}

static inline struct quic_data *quic_alpn(const struct sock *sk)
{
	return &quic_sk(sk)->alpn;
}

static inline struct quic_data *quic_token(const struct sock *sk)
{
	return &quic_sk(sk)->token;
}

static inline struct quic_data *quic_ticket(const struct sock *sk)
{
	return &quic_sk(sk)->ticket;
}

static inline struct quic_path_group *quic_paths(const struct sock *sk)
{
	return &quic_sk(sk)->paths;
}

static inline struct quic_timers *quic_timers(const struct sock *sk)
{
	return &quic_sk(sk)->timers;
}

static inline struct quic_cong *quic_cong(const struct sock *sk)
{
	return &quic_sk(sk)->cong;
}

static inline struct quic_transport_param *quic_local_param(const struct sock *sk)
{
	return &quic_sk(sk)->local_param;
}

static inline struct quic_transport_param *quic_remote_param(const struct sock *sk)
{
	return &quic_sk(sk)->remote_param;
}

static inline bool quic_event_enabled(const struct sock *sk, u8 type)
{
	return type <= QUIC_EVENT_MAX && (quic_sk(sk)->events & BIT(type));
}

static inline bool quic_is_establishing(const struct sock *sk)
{
	return sk->sk_state == QUIC_SS_ESTABLISHING;
}

static inline bool quic_is_established(const struct sock *sk)
{
	return sk->sk_state == QUIC_SS_ESTABLISHED;
}

static inline bool quic_is_listen(const struct sock *sk)
{
	return sk->sk_state == QUIC_SS_LISTENING;
}

static inline bool quic_is_closed(const struct sock *sk)
{
	return sk->sk_state == QUIC_SS_CLOSED;
}

void quic_set_state(struct sock *sk, int state);

int quic_config_validate(const struct quic_config *c);

#endif /* __net_quic_socket_h__ */
