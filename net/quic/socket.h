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

#include "alpn.h"
#include "close.h"
#include "common.h"
#include "cong.h"
#include "connid.h"
#include "crypto.h"
#include "family.h"
#include "inqueue.h"
#include "outqueue.h"
#include "path.h"
#include "pnspace.h"
#include "protocol.h"
#include "stream.h"
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

/* Limits on what userspace may hand us through socket options: those of
 * draft-lxin-quic-socket-apis, Security Considerations, "Memory Limits"
 * (ALPN 256 bytes, TOKEN 512, SESSION_TICKET 4096).
 */
#define QUIC_ALPN_OPT_MAX_LEN		256
#define QUIC_TOKEN_MAX_LEN		512
/* QUIC_SOCKOPT_CONFIG's initial_smoothed_rtt (microseconds), the draft's
 * range: at least QUIC_RTO_MIN (100 ms), less than QUIC_RTO_MAX (6 s).
 */
#define QUIC_CONFIG_RTT_MIN		100000U
#define QUIC_CONFIG_RTT_LIMIT		6000000U
#define QUIC_TICKET_MAX_LEN		4096
/* A quic_transport_parameters extension (QUIC_SOCKOPT_TRANSPORT_PARAM_EXT). */
#define QUIC_PARAM_EXT_MAX_LEN		4096
/* Shortest keep-alive interval accepted (microseconds): 100 ms. */
#define QUIC_MIN_KEEPALIVE_INTERVAL	100000

/* Smallest PLPMTUD probe interval accepted (microseconds); 0 disables. */
#define QUIC_MIN_PROBE_INTERVAL		(5 * USEC_PER_SEC)

/* Transport parameter defaults of a new socket (flow control in bytes):
 * those draft-lxin-quic-socket-apis gives in struct quic_transport_param.
 * The active_connection_id_limit we offer is 7; a peer that sends none is
 * taken to have RFC 9000's default of 2.
 */
#define QUIC_DEF_MAX_DATA		(65536 * 32)
#define QUIC_DEF_MAX_STREAM_DATA	(65536 * 4)
#define QUIC_DEF_MAX_STREAMS		100
#define QUIC_DEF_IDLE_TIMEOUT		(30 * USEC_PER_SEC)
#define QUIC_DEF_LOCAL_CONN_ID_LIMIT	7

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
 * @crypto: packet protection keys per encryption level
 * @space: packet number spaces (Initial, Handshake, Application)
 * @source: connection IDs we issued (the peer's Destination IDs)
 * @dest: connection IDs the peer issued, for our packets to it
 * @streams: the stream table, set up by connect() or accept()
 * @requests: listener: clients waiting for accept() (&struct quic_request)
 * @request_count: entries in @requests
 * @listen_alpn: listener: the protocols it routes new clients by (alpn.c)
 * @outq: what is to be sent and what is in flight
 * @inq: what was received and waits for the application
 * @pending: packets held until the keys of their level are installed
 * @close: how the connection ended, its closing or draining period
 * @peer_errcode: error code of the peer's CONNECTION_CLOSE
 * @discarded: bit per encryption level whose keys were discarded
 * @ack_pending: ack-eliciting 1-RTT packets not acknowledged yet
 * @ack_now: an ACK is due without delay
 * @idle_sent: an ack-eliciting packet was sent since the idle timer was
 *	last restarted (RFC 9000 Section 10.1, quic_conn_idle_sent())
 * @noticed: what transmission noticed for quic_conn_flush() to act on
 *	(enum quic_xmit_notice bits)
 * @xmit_keep: while quic_xmit_close() sends, where it keeps a copy of the
 *	first datagram (close.c repeats it in the closing state)
 * @peer_scid: Source Connection ID of the peer's first Initial (RFC 9000 7.3)
 * @key_work: prepares the next 1-RTT key generation after a key update
 * @retry_work: client: derives the Initial keys again after a Retry
 * @peer_scid_set: @peer_scid is known
 * @remote_param_set: the peer's transport parameters were taken
 * @local_param_sent: our transport parameters were encoded for the TLS
 *	library (a server's preferred address can no longer be offered)
 * @remote_remembered: client: @remote_param holds remembered values, set
 *	before connect(): stream data may be written before the handshake
 *	(it goes in 0-RTT packets if the TLS library offers early data)
 * @ticket_unsettled: accepted socket: @ticket still holds its listener's
 *	key, from which its own is derived once its transport parameters are
 *	final (ticket.c)
 * @early: client: &enum quic_early_state of the 0-RTT data
 * @initial_alt: Initial keys of the other version (version.c): a client's
 *	ready to switch, a server's of the original version after switching
 * @orig_version: the version of the client's first packets (RFC 9368)
 * @pref_version: server: the version its listener was configured with
 * @keepalive_interval: keep-alive PING after this long idle, microseconds
 *	(0: half the idle timeout with SO_KEEPALIVE, else none); the
 *	keepalive_probe_interval of the longer QUIC_SOCKOPT_CONFIG layout
 * @ka_rest: keep-alive: idle time left after the keep-alive PING (0: off)
 * @ka_sent: keep-alive: the PING of this idle period went
 * @reset_stamp: listener: start of the second @reset_count counts in
 * @reset_count: listener: Stateless Resets sent since @reset_stamp
 * @ticket_new: client: a NewSessionTicket arrived that
 *	QUIC_SOCKOPT_SESSION_TICKET has not returned yet (EPOLLPRI; read
 *	without the lock, hence not a bit-field)
 * @ptb_mtu: an ICMP Packet Too Big arrived while the owner held the
 *	socket: the MTU it reports, acted on in release_cb (0: none)
 * @ptb_quote: the start of the packet it quotes (its Destination
 *	Connection ID is checked then)
 * @ptb_quote_len: bytes in @ptb_quote
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

	struct quic_crypto		crypto[QUIC_CRYPTO_MAX];
	struct quic_pnspace		space[QUIC_PNSPACE_MAX];
	struct quic_conn_id_set		source;
	struct quic_conn_id_set		dest;
	struct quic_stream_table	streams;

	struct list_head		requests;
	u32				request_count;
	struct quic_listen_alpn __rcu	*listen_alpn;

	struct quic_outq		outq;
	struct quic_inq			inq;
	struct sk_buff_head		pending;
	struct quic_close		close;
	u64				peer_errcode;
	u8				discarded;
	u8				ack_pending;
	u8				ack_now:1;
	u8				idle_sent:1;
	u8				noticed;
	struct sk_buff			**xmit_keep;
	struct quic_conn_id		peer_scid;
	struct delayed_work		key_work;
	struct work_struct		retry_work;
	u8				peer_scid_set:1;
	u8				remote_param_set:1;
	u8				local_param_sent:1;
	u8				remote_remembered:1;
	u8				ticket_unsettled:1;
	u8				early:2;
	struct quic_crypto		*initial_alt;
	u32				orig_version;
	u32				pref_version;
	u32				keepalive_interval;
	u64				ka_rest;
	u8				ka_sent;
	unsigned long			reset_stamp;
	u32				reset_count;
	u8				ticket_new;
	u32				ptb_mtu;
	u8				ptb_quote[6 + QUIC_CONN_ID_MAX_LEN];
	u8				ptb_quote_len;
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

static inline struct quic_crypto *quic_crypto(const struct sock *sk, u8 level)
{
	return &quic_sk(sk)->crypto[level];
}

/* The packet number space of an encryption level (0-RTT shares 1-RTT's). */
static inline struct quic_pnspace *quic_pnspace(const struct sock *sk, u8 level)
{
	return &quic_sk(sk)->space[quic_pnspace_index(level)];
}

static inline struct quic_conn_id_set *quic_source(const struct sock *sk)
{
	return &quic_sk(sk)->source;
}

static inline struct quic_conn_id_set *quic_dest(const struct sock *sk)
{
	return &quic_sk(sk)->dest;
}

static inline struct quic_stream_table *quic_streams(const struct sock *sk)
{
	return &quic_sk(sk)->streams;
}

static inline struct quic_outq *quic_outq(const struct sock *sk)
{
	return &quic_sk(sk)->outq;
}

static inline struct quic_inq *quic_inq(const struct sock *sk)
{
	return &quic_sk(sk)->inq;
}

/* The keys of @level were discarded (RFC 9001 Section 4.9). */
static inline bool quic_conn_level_discarded(const struct sock *sk, u8 level)
{
	return quic_sk(sk)->discarded & BIT(level);
}

/* The active path has a UDP tunnel: bind() or connect() ran. */
static inline bool quic_is_bound(const struct sock *sk)
{
	return !!quic_sk(sk)->paths.path[0].udp_sk;
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

/**
 * quic_invariant_check - warn when a connection invariant is broken
 * @sk: the socket, its lock held
 * @why: what quic_outq_invariant() or the memory check found, or NULL
 *
 * With CONFIG_IP_QUIC_DEBUG_INVARIANTS, a broken invariant prints the
 * connection's state, counts it in quic_invariant_breaks and warns once
 * per call site, so that every test that drives a connection checks them.
 * Compiled out otherwise.
 */
static inline void quic_invariant_check(const struct sock *sk, const char *why)
{
#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
	const struct quic_sock *qs = (const struct quic_sock *)sk;
	int i;

	if (likely(!why))
		return;
	atomic_inc(&quic_invariant_breaks);
	pr_err("quic: invariant broken: %s (state %d, %s)\n", why, sk->sk_state,
	       qs->paths.serv ? "server" : "client");
	pr_err("quic:  in flight %u window %u/%u, data sent %llu of %llu, wmem %llu queued %d, rmem %u charged %d\n",
	       quic_cong_in_flight(&qs->cong), quic_cong_window(&qs->cong),
	       quic_cong_min_window(&qs->cong), qs->outq.data_sent, qs->outq.max_data,
	       qs->outq.wmem, READ_ONCE(sk->sk_wmem_queued), quic_inq_rmem(&qs->inq),
	       atomic_read(&sk->sk_rmem_alloc));
	for (i = 0; i < QUIC_PNSPACE_MAX; i++)
		pr_err("quic:  space %d: eliciting %u, bytes %u, next pn %lld\n", i,
		       qs->outq.spaces[i].eliciting, qs->space[i].inflight,
		       qs->space[i].next_pn);
	WARN_ON_ONCE(1);
#endif
}

int quic_config_validate(const struct quic_config *c);

#endif /* __net_quic_socket_h__ */
