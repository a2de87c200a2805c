// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC socket: creation and destruction, memory accounting, the proto and
 * proto_ops tables, and SOL_QUIC socket option dispatch.
 *
 * Options that store settings (config, transport parameters, ALPN, token,
 * session ticket, events), the handshake ones (secrets, encoded transport
 * parameters), and the actions on a live connection (stream open, reset
 * and stop sending, key update, close, connection IDs, migration) are all
 * handled (docs/socket.md has the whole matrix).
 */

#include <linux/poll.h>
#include <net/inet_common.h>
#include <net/sock.h>
#include <net/transp_v6.h>
#include <uapi/linux/tls.h>

#include "connect.h"
#include "connection.h"
#include "connid_ctl.h"
#include "endpoint.h"
#include "lookup.h"
#include "memory.h"
#include "migrate.h"
#include "param.h"
#include "peeloff.h"
#include "receive.h"
#include "socket.h"
#include "sockmsg.h"
#include "ticket.h"
#include "transmit.h"

static DEFINE_PER_CPU(int, quic_memory_per_cpu_fw_alloc);
static unsigned long quic_memory_pressure;
static atomic_long_t quic_memory_allocated;

/* The uapi structures are ABI: fail the build if any of them changes shape. */
#define QUIC_CHECK_LAYOUT(type, size)	static_assert(sizeof(type) == (size))
#define QUIC_CHECK_OFFSET(type, field, off) static_assert(offsetof(type, field) == (off))

QUIC_CHECK_LAYOUT(struct quic_handshake_info, 1);
QUIC_CHECK_OFFSET(struct quic_stream_info, stream_flags, 8);
QUIC_CHECK_LAYOUT(struct quic_stream_info, ALIGN(12, __alignof__(s64)));
QUIC_CHECK_OFFSET(struct quic_stream_peeloff, flags, 8);
QUIC_CHECK_OFFSET(struct quic_stream_peeloff, sd, 12);
QUIC_CHECK_LAYOUT(struct quic_stream_peeloff, 16);
QUIC_CHECK_OFFSET(struct quic_transport_param, active_connection_id_limit, 6);
QUIC_CHECK_OFFSET(struct quic_transport_param, max_datagram_frame_size, 8);
QUIC_CHECK_OFFSET(struct quic_transport_param, max_udp_payload_size, 10);
QUIC_CHECK_OFFSET(struct quic_transport_param, max_idle_timeout, 12);
QUIC_CHECK_OFFSET(struct quic_transport_param, max_ack_delay, 16);
QUIC_CHECK_OFFSET(struct quic_transport_param, max_streams_bidi, 20);
QUIC_CHECK_OFFSET(struct quic_transport_param, max_streams_uni, 22);
QUIC_CHECK_OFFSET(struct quic_transport_param, max_data, 24);
QUIC_CHECK_OFFSET(struct quic_transport_param, max_stream_data_uni, 48);
QUIC_CHECK_LAYOUT(struct quic_transport_param, 64);
QUIC_CHECK_OFFSET(struct quic_config, payload_cipher_type, 12);
QUIC_CHECK_OFFSET(struct quic_config, congestion_control_algo, 16);
QUIC_CHECK_OFFSET(struct quic_config, certificate_request, 20);
QUIC_CHECK_LAYOUT(struct quic_config, 24);
QUIC_CHECK_OFFSET(struct quic_crypto_secret, type, 4);
QUIC_CHECK_OFFSET(struct quic_crypto_secret, secret, 8);
QUIC_CHECK_LAYOUT(struct quic_crypto_secret, 56);
QUIC_CHECK_OFFSET(struct quic_errinfo, errcode, 8);
QUIC_CHECK_LAYOUT(struct quic_errinfo, ALIGN(12, __alignof__(s64)));
QUIC_CHECK_OFFSET(struct quic_connection_id_info, active, 4);
QUIC_CHECK_OFFSET(struct quic_connection_id_info, prior_to, 8);
QUIC_CHECK_LAYOUT(struct quic_connection_id_info, 12);
QUIC_CHECK_LAYOUT(struct quic_event_option, 2);
QUIC_CHECK_OFFSET(struct quic_stream_update, state, 8);
QUIC_CHECK_OFFSET(struct quic_stream_update, errcode, 12);
QUIC_CHECK_OFFSET(struct quic_stream_update, finalsz, 16);
QUIC_CHECK_LAYOUT(struct quic_stream_update, 24);
QUIC_CHECK_LAYOUT(struct quic_stream_max_data, 16);
QUIC_CHECK_OFFSET(struct quic_connection_close, frame, 4);
QUIC_CHECK_OFFSET(struct quic_connection_close, phrase, 5);
QUIC_CHECK_LAYOUT(struct quic_connection_close, 8);
QUIC_CHECK_LAYOUT(union quic_event, 24);
static_assert(QUIC_CRYPTO_MAX == 4 && QUIC_EVENT_MAX == 9 && QUIC_CONG_ALG_MAX == 2);
static_assert(QUIC_TRANSPORT_ERROR_NO_VIABLE_PATH == 0x10);
static_assert(QUIC_TRANSPORT_ERROR_VERSION_NEGOTIATION == 0x11);
static_assert(MSG_QUIC_NOTIFICATION == MSG_NOTIFICATION && MSG_QUIC_STREAM_FIN == MSG_FIN);
static_assert(QUIC_STREAM_RECV_STATE_RESET_READ == 11);

static bool quic_is_bool(u8 v)
{
	return v <= 1;
}

/**
 * quic_config_validate - check a socket configuration from userspace
 * @c: the configuration, the caller's fields merged into the socket's
 *
 * Return: 0, or -EINVAL for version 0, an unknown congestion algorithm or
 * cipher, an initial RTT below 100 ms or from 6 s on (the socket API
 * draft's range; the congestion controller itself takes 1 ms..60 s, which
 * only the KUnit suites use), a PLPMTUD probe interval below
 * 5 s (0 disables probing), validate_peer_address or stream_data_nodelay
 * other than 0/1, certificate_request above 2, or non-zero reserved bytes.
 */
int quic_config_validate(const struct quic_config *c)
{
	/* Any other version makes a client's first packets provoke Version
	 * Negotiation (packet.c); a listener only prefers v1 or v2.
	 */
	if (!c->version)
		return -EINVAL;
	if (c->congestion_control_algo >= QUIC_CONG_ALG_MAX)
		return -EINVAL;
	switch (c->payload_cipher_type) {
	case 0:	/* let the handshake choose */
	case TLS_CIPHER_AES_GCM_128:
	case TLS_CIPHER_AES_GCM_256:
	case TLS_CIPHER_AES_CCM_128:
	case TLS_CIPHER_CHACHA20_POLY1305:
		break;
	default:
		return -EINVAL;
	}
	if (c->initial_smoothed_rtt < QUIC_CONFIG_RTT_MIN ||
	    c->initial_smoothed_rtt >= QUIC_CONFIG_RTT_LIMIT)
		return -EINVAL;
	if (c->plpmtud_probe_interval && c->plpmtud_probe_interval < QUIC_MIN_PROBE_INTERVAL)
		return -EINVAL;
	/* receive_session_ticket is a number of seconds to wait (draft-lxin-
	 * quic-socket-apis); certificate_request 0 ignore, 1 request, 2 require.
	 */
	if (!quic_is_bool(c->validate_peer_address) || !quic_is_bool(c->stream_data_nodelay) ||
	    c->certificate_request > 2)
		return -EINVAL;
	if (memchr_inv(c->reserved, 0, sizeof(c->reserved)))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_config_validate);

/* What a peer is assumed to have sent until its parameters arrive. */
static void quic_param_init_remote(struct quic_transport_param *p)
{
	memset(p, 0, sizeof(*p));
	p->remote = 1;
	p->max_udp_payload_size = QUIC_MAX_UDP_PAYLOAD;
	p->ack_delay_exponent = QUIC_DEF_ACK_DELAY_EXPONENT;
	p->max_ack_delay = QUIC_DEF_ACK_DELAY;
	p->active_connection_id_limit = QUIC_DEF_ACTIVE_CONN_ID_LIMIT;
}

static void quic_param_init_local(struct quic_transport_param *p)
{
	quic_param_init_remote(p);
	p->remote = 0;
	p->active_connection_id_limit = QUIC_DEF_LOCAL_CONN_ID_LIMIT;
	p->max_idle_timeout = QUIC_DEF_IDLE_TIMEOUT;
	p->max_data = QUIC_DEF_MAX_DATA;
	p->max_stream_data_bidi_local = QUIC_DEF_MAX_STREAM_DATA;
	p->max_stream_data_bidi_remote = QUIC_DEF_MAX_STREAM_DATA;
	p->max_stream_data_uni = QUIC_DEF_MAX_STREAM_DATA;
	p->max_streams_bidi = QUIC_DEF_MAX_STREAMS;
	p->max_streams_uni = QUIC_DEF_MAX_STREAMS;
}

static void quic_enter_memory_pressure(struct sock *sk)
{
	WRITE_ONCE(quic_memory_pressure, 1);
}

static void quic_write_space(struct sock *sk)
{
	struct socket_wq *wq;

	rcu_read_lock();
	wq = rcu_dereference(sk->sk_wq);
	if (skwq_has_sleeper(wq))
		wake_up_interruptible_sync_poll(&wq->wait, EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND);
	rcu_read_unlock();
}

/*
 * A QUIC socket's lock is held while the UDP tunnel socket's is taken (bind
 * creates the tunnel): give QUIC sockets their own lockdep classes so that
 * this nesting is not mistaken for recursion.
 */
static struct lock_class_key quic_slock_keys[2];
static struct lock_class_key quic_sk_keys[2];

static int quic_init_sock(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);
	bool v6 = sk->sk_family == AF_INET6;
	int err;

	sock_lock_init_class_and_name(sk, v6 ? "slock-AF_INET6-QUIC" : "slock-AF_INET-QUIC",
				      &quic_slock_keys[v6],
				      v6 ? "sk_lock-AF_INET6-QUIC" : "sk_lock-AF_INET-QUIC",
				      &quic_sk_keys[v6]);

	sk->sk_destruct = inet_sock_destruct;
	sk->sk_write_space = quic_write_space;
	sock_set_flag(sk, SOCK_USE_WRITE_QUEUE);
	/* The receive path finds sockets through RCU lookups (connection IDs)
	 * and takes its reference with refcount_inc_not_zero(): the memory
	 * must outlive a concurrent close until the grace period ends.
	 */
	sock_set_flag(sk, SOCK_RCU_FREE);

	qs->config.version = QUIC_VERSION_V1;
	qs->config.initial_smoothed_rtt = QUIC_RTT_INIT;
	qs->config.congestion_control_algo = QUIC_CONG_ALG_RENO;
	quic_cong_init(&qs->cong);
	quic_param_init_local(&qs->local_param);
	quic_param_init_remote(&qs->remote_param);

	WRITE_ONCE(sk->sk_sndbuf, READ_ONCE(sysctl_quic_wmem[1]));
	WRITE_ONCE(sk->sk_rcvbuf, READ_ONCE(sysctl_quic_rmem[1]));

	local_bh_disable();
	sk_sockets_allocated_inc(sk);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, 1);
	local_bh_enable();

	/* On failure the caller releases the socket, destroy included. */
	err = quic_conn_init(sk, &quic_conn_udp_ops);
	quic_inq(sk)->charge = quic_sock_rmem_charge;
	return err;
}

static void quic_destroy_sock(struct sock *sk)
{
	quic_conn_free(sk);
	/* The queues are empty: every charge goes back before sk_destruct
	 * (inet_sock_destruct()) returns sk_forward_alloc.
	 */
	__quic_sock_mem_sync(sk);
	quic_data_free(quic_alpn(sk));
	quic_data_free(quic_token(sk));
	quic_data_free(quic_ticket(sk));

	local_bh_disable();
	sk_sockets_allocated_dec(sk);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, -1);
	local_bh_enable();
}

/*
 * close(): an open connection ends with an immediate close (close.c);
 * while its closing or draining period runs the socket lingers, and the
 * application's reference is dropped when the period ends.
 */
static void quic_close(struct sock *sk, long timeout)
{
	bool linger;

	lock_sock(sk);
	if (quic_is_establishing(sk) || quic_is_established(sk))
		quic_close_local(sk);
	linger = quic_close_linger(sk);
	if (!linger) {
		quic_timer_stop_all(quic_timers(sk));
		quic_set_state(sk, QUIC_SS_CLOSED);
	}
	release_sock(sk);
	if (!linger)
		sk_common_release(sk);
}

/* inet_shutdown() calls this for a listener shut for reading. */
static int quic_disconnect(struct sock *sk, int flags)
{
	if (quic_is_listen(sk))
		quic_conn_listen_stop(sk);
	else
		quic_set_state(sk, QUIC_SS_CLOSED);
	return 0;
}

/*
 * QUIC has no half-closed connection: shutting down the sending side (or
 * both) closes the connection as close() would, but the socket stays for
 * the application to read what ended it. SHUT_RD alone keeps the
 * connection; what arrives from then on, and what was queued, is dropped
 * as if read (draft-lxin-quic-socket-apis, shutdown(): "discard quietly";
 * quic_msg_discard()). A listener stops listening (quic_disconnect()).
 * Called by inet_shutdown() with the socket locked.
 */
static void quic_shutdown(struct sock *sk, int how)
{
	if (!(how & SEND_SHUTDOWN)) {
		if (quic_is_established(sk) && quic_msg_discard(sk, GFP_KERNEL))
			quic_xmit(sk);
		return;
	}
	if (quic_is_establishing(sk) || quic_is_established(sk))
		quic_close_local(sk);
	else
		quic_set_state(sk, QUIC_SS_CLOSED);
}

static void quic_release_cb(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);

	quic_timer_run_deferred(quic_timers(sk));
	/* A Packet Too Big that came while the owner held the socket. */
	if (qs->ptb_mtu) {
		quic_conn_ptb(sk, qs->ptb_mtu, qs->ptb_quote, qs->ptb_quote_len);
		qs->ptb_mtu = 0;
	}
	quic_conn_flush(sk);
	quic_sock_mem_sync(sk);
}

static int quic_sock_set_event(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	struct quic_event_option opt;

	if (optlen != sizeof(opt))
		return -EINVAL;
	if (copy_from_sockptr(&opt, optval, sizeof(opt)))
		return -EFAULT;
	/* Any non-zero "on" enables (draft-lxin-quic-socket-apis). */
	if (opt.type == QUIC_EVENT_NONE || opt.type > QUIC_EVENT_MAX)
		return -EINVAL;

	if (opt.on)
		quic_sk(sk)->events |= BIT(opt.type);
	else
		quic_sk(sk)->events &= ~BIT(opt.type);
	return 0;
}

/* Later upstream headers dropped the trailing reserved field of struct
 * quic_transport_param: programs built against them pass 56 bytes; the
 * draft's layout has four reserved u64s (88 bytes). Whatever follows our
 * fields is reserved: ignored.
 */
#define QUIC_TRANSPORT_PARAM_SHORT	offsetof(struct quic_transport_param, reserved)
static_assert(QUIC_TRANSPORT_PARAM_SHORT == 56);

/*
 * draft-lxin-quic-socket-apis: programs fill a zeroed structure with the
 * values they care about. A zero field leaves the value as it is; a
 * non-zero flag sets the flag (their default is off, and once on they
 * stay on).
 */
static void quic_param_merge(struct quic_transport_param *to,
			     const struct quic_transport_param *p)
{
	if (p->disable_active_migration)
		to->disable_active_migration = 1;
	if (p->grease_quic_bit)
		to->grease_quic_bit = 1;
	if (p->stateless_reset)
		to->stateless_reset = 1;
	if (p->disable_1rtt_encryption)
		to->disable_1rtt_encryption = 1;
	if (p->disable_compatible_version)
		to->disable_compatible_version = 1;
	if (p->active_connection_id_limit)
		to->active_connection_id_limit = p->active_connection_id_limit;
	if (p->ack_delay_exponent)
		to->ack_delay_exponent = p->ack_delay_exponent;
	if (p->max_datagram_frame_size)
		to->max_datagram_frame_size = p->max_datagram_frame_size;
	if (p->max_udp_payload_size)
		to->max_udp_payload_size = p->max_udp_payload_size;
	if (p->max_idle_timeout)
		to->max_idle_timeout = p->max_idle_timeout;
	if (p->max_ack_delay)
		to->max_ack_delay = p->max_ack_delay;
	if (p->max_streams_bidi)
		to->max_streams_bidi = p->max_streams_bidi;
	if (p->max_streams_uni)
		to->max_streams_uni = p->max_streams_uni;
	if (p->max_data)
		to->max_data = p->max_data;
	if (p->max_stream_data_bidi_local)
		to->max_stream_data_bidi_local = p->max_stream_data_bidi_local;
	if (p->max_stream_data_bidi_remote)
		to->max_stream_data_bidi_remote = p->max_stream_data_bidi_remote;
	if (p->max_stream_data_uni)
		to->max_stream_data_uni = p->max_stream_data_uni;
}

/*
 * Whether transport parameters may still change: before connect() or
 * listen(); on a listener, for the connections it accepts from then on;
 * and until the handshake takes them: ours until they are encoded for the
 * TLS library (an accepted socket's also until its ticket key, bound to
 * them, was derived), the peer's remembered ones (a client's, for 0-RTT)
 * until the peer's own arrive.
 */
static bool quic_sock_param_open(struct sock *sk, bool remote)
{
	struct quic_sock *qs = quic_sk(sk);

	if (quic_is_closed(sk))
		return true;
	if (quic_is_listen(sk))
		return !remote;
	if (!quic_is_establishing(sk))
		return false;
	if (remote)
		return !quic_paths(sk)->serv && !qs->remote_param_set;
	if (qs->local_param_sent)
		return false;
	return !quic_paths(sk)->serv || qs->ticket_unsettled || !quic_ticket(sk)->len;
}

static int quic_sock_set_param(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	struct quic_transport_param p = {}, merged, *to;
	int err;

	if (optlen < QUIC_TRANSPORT_PARAM_SHORT)
		return -EINVAL;
	if (copy_from_sockptr(&p, optval, QUIC_TRANSPORT_PARAM_SHORT))
		return -EFAULT;
	p.remote = !!p.remote;
	if (!quic_sock_param_open(sk, p.remote))
		return -EISCONN;

	/* Remote values are remembered ones, set for 0-RTT resumption. */
	to = p.remote ? quic_remote_param(sk) : quic_local_param(sk);
	merged = *to;
	quic_param_merge(&merged, &p);
	err = quic_param_validate(&merged);
	if (err)
		return err;
	*to = merged;
	if (p.remote)
		quic_sk(sk)->remote_remembered = 1;
	return quic_conn_update_params(sk);
}

/*
 * The later upstream layout of struct quic_config appends a u32
 * keepalive_probe_interval (microseconds) to the 24 bytes of ours: both
 * lengths are accepted, and a get returns the longer one to a buffer that
 * holds it. The draft's layout is 64 bytes, reserved from byte 21: a
 * program built against it writes zero there, which leaves the keep-alive
 * as it is.
 */
#define QUIC_CONFIG_LONG	(sizeof(struct quic_config) + sizeof(u32))
static_assert(QUIC_CONFIG_LONG == 28);

static void quic_config_merge(struct quic_config *to, const struct quic_config *c)
{
	if (c->version)
		to->version = c->version;
	if (c->plpmtud_probe_interval)
		to->plpmtud_probe_interval = c->plpmtud_probe_interval;
	if (c->initial_smoothed_rtt)
		to->initial_smoothed_rtt = c->initial_smoothed_rtt;
	if (c->payload_cipher_type)
		to->payload_cipher_type = c->payload_cipher_type;
	if (c->congestion_control_algo)
		to->congestion_control_algo = c->congestion_control_algo;
	if (c->validate_peer_address)
		to->validate_peer_address = 1;
	if (c->stream_data_nodelay)
		to->stream_data_nodelay = 1;
	if (c->receive_session_ticket)
		to->receive_session_ticket = c->receive_session_ticket;
	if (c->certificate_request)
		to->certificate_request = c->certificate_request;
}

static int quic_sock_set_config(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	struct quic_config c = {}, in;
	u32 keepalive = 0;
	int err;

	if (optlen < sizeof(c))
		return -EINVAL;
	if (copy_from_sockptr(&in, optval, sizeof(in)))
		return -EFAULT;
	if (optlen >= QUIC_CONFIG_LONG &&
	    copy_from_sockptr_offset(&keepalive, optval, sizeof(in), sizeof(keepalive)))
		return -EFAULT;
	if (keepalive && keepalive < QUIC_MIN_KEEPALIVE_INTERVAL)
		return -EINVAL;
	if (!quic_sock_param_open(sk, false))
		return -EISCONN;
	/* Once connecting, the Initial keys of the version are in place. */
	if (in.version && in.version != quic_config(sk)->version &&
	    !quic_is_closed(sk) && !quic_is_listen(sk))
		return -EISCONN;

	c = *quic_config(sk);
	quic_config_merge(&c, &in);
	err = quic_config_validate(&c);
	if (err)
		return err;
	/* Validated: the algorithm and the initial RTT are acceptable. */
	err = quic_cong_set_config(quic_cong(sk), &c);
	if (err)
		return err;
	*quic_config(sk) = c;
	if (keepalive)
		quic_sk(sk)->keepalive_interval = keepalive;
	return 0;
}

static int quic_sock_set_data(struct quic_data *d, sockptr_t optval, unsigned int optlen,
			      u32 max)
{
	int err;
	u8 *p;

	if (optlen > max)
		return -EINVAL;
	if (!optlen) {
		quic_data_free(d);
		return 0;
	}
	p = memdup_sockptr(optval, optlen);
	if (IS_ERR(p))
		return PTR_ERR(p);
	err = quic_data_dup(d, p, optlen, GFP_KERNEL);
	kfree_sensitive(p);	/* a ticket or a ticket key */
	return err;
}

static int quic_sock_set_alpn(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	int err;
	u8 *p;

	if (!optlen) {
		quic_data_free(quic_alpn(sk));
		return 0;
	}
	if (optlen > QUIC_ALPN_OPT_MAX_LEN)
		return -EINVAL;
	p = memdup_sockptr(optval, optlen);
	if (IS_ERR(p))
		return PTR_ERR(p);
	err = quic_alpn_from_string(quic_alpn(sk), p, optlen, GFP_KERNEL);
	kfree(p);
	return err;
}

static int quic_sock_set_secret(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	struct quic_crypto_secret srt;
	int err;

	if (optlen != sizeof(srt))
		return -EINVAL;
	if (copy_from_sockptr(&srt, optval, sizeof(srt)))
		return -EFAULT;
	err = quic_conn_set_secret(sk, &srt);
	if (!err) {
		/* Packets held for the new receive keys, then what is due. */
		if (!srt.send)
			quic_rcv_pending_retry(sk);
		quic_xmit(sk);
	}
	memzero_explicit(&srt, sizeof(srt));
	return err;
}

static int quic_sock_set_param_ext(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	u8 *data;
	int err;

	if (!optlen || optlen > QUIC_PARAM_EXT_MAX_LEN)
		return -EINVAL;
	data = memdup_sockptr(optval, optlen);
	if (IS_ERR(data))
		return PTR_ERR(data);
	err = quic_conn_set_param_ext(sk, data, optlen);
	kfree(data);
	return err;
}

static int quic_do_setsockopt(struct sock *sk, int optname, sockptr_t optval,
			      unsigned int optlen)
{
	int err;

	if (sockptr_is_null(optval) && optlen)
		return -EINVAL;

	lock_sock(sk);
	switch (optname) {
	case QUIC_SOCKOPT_EVENT:
		err = quic_sock_set_event(sk, optval, optlen);
		break;
	case QUIC_SOCKOPT_TRANSPORT_PARAM:
		err = quic_sock_set_param(sk, optval, optlen);
		break;
	case QUIC_SOCKOPT_CONFIG:
		err = quic_sock_set_config(sk, optval, optlen);
		break;
	case QUIC_SOCKOPT_TOKEN:
		/* An accepted socket issues a token; its value is not read. */
		if (quic_paths(sk)->serv && !quic_is_listen(sk) && !quic_is_closed(sk)) {
			err = quic_conn_issue_token(sk);
			break;
		}
		err = quic_sock_set_data(quic_token(sk), optval, optlen, QUIC_TOKEN_MAX_LEN);
		break;
	case QUIC_SOCKOPT_SESSION_TICKET:
		err = quic_sock_set_data(quic_ticket(sk), optval, optlen, QUIC_TICKET_MAX_LEN);
		if (!err)	/* the application's own key, used as it is */
			quic_sk(sk)->ticket_unsettled = 0;
		break;
	case QUIC_SOCKOPT_ALPN:
		err = quic_sock_set_alpn(sk, optval, optlen);
		break;
	case QUIC_SOCKOPT_CRYPTO_SECRET:
		err = quic_sock_set_secret(sk, optval, optlen);
		break;
	case QUIC_SOCKOPT_TRANSPORT_PARAM_EXT:
		err = quic_sock_set_param_ext(sk, optval, optlen);
		break;
	case QUIC_SOCKOPT_CONNECTION_CLOSE:
		err = quic_close_set(sk, optval, optlen);
		break;
	case QUIC_SOCKOPT_STREAM_RESET:
		err = quic_msg_stream_reset_opt(sk, optval, optlen);
		break;
	case QUIC_SOCKOPT_STREAM_STOP_SENDING:
		err = quic_msg_stop_sending_opt(sk, optval, optlen);
		break;
	case QUIC_SOCKOPT_KEY_UPDATE:
		/* The value, if any, is not used. */
		err = quic_conn_key_update(sk);
		break;
	case QUIC_SOCKOPT_STREAM_OPEN:
	case QUIC_SOCKOPT_STREAM_PEELOFF:
		err = -EOPNOTSUPP;	/* a getsockopt() only */
		break;
	case QUIC_SOCKOPT_CONNECTION_ID:
		err = quic_cid_set_opt(sk, optval, optlen);
		break;
	case QUIC_SOCKOPT_CONNECTION_MIGRATION:
		err = quic_migrate_local(sk, optval, optlen);
		break;
	default:
		err = -ENOPROTOOPT;
		break;
	}
	release_sock(sk);
	return err;
}

static int quic_setsockopt(struct sock *sk, int level, int optname, sockptr_t optval,
			   unsigned int optlen)
{
	if (level != SOL_QUIC)
		return quic_common_setsockopt(sk, level, optname, optval, optlen);
	return quic_do_setsockopt(sk, optname, optval, optlen);
}

/* The exported calls take a bare struct sock from another module: only
 * sockets of our two protos are QUIC sockets (a raw socket may carry
 * protocol number 261 too).
 */
static bool quic_sk_is_quic(const struct sock *sk)
{
	return sk && (sk->sk_prot == &quic_prot || sk->sk_prot == &quicv6_prot);
}

/**
 * quic_kernel_setsockopt - set a SOL_QUIC option on a kernel socket
 * @sk: the socket
 * @optname: QUIC_SOCKOPT_*
 * @optval: option value, in kernel memory
 * @optlen: its length
 *
 * For kernel consumers (net/handshake users such as SMB and NFS), which
 * cannot go through setsockopt() with a kernel buffer for SOL_QUIC.
 *
 * Return: 0 or a negative errno, exactly as setsockopt() would;
 * -EPROTOTYPE when @sk is not a QUIC socket.
 */
int quic_kernel_setsockopt(struct sock *sk, int optname, void *optval, unsigned int optlen)
{
	if (!quic_sk_is_quic(sk))
		return -EPROTOTYPE;
	return quic_do_setsockopt(sk, optname, KERNEL_SOCKPTR(optval), optlen);
}
EXPORT_SYMBOL_GPL(quic_kernel_setsockopt);

/* Copy @len bytes of @val out and report @len as the option length. */
static int quic_sock_put(sockptr_t optval, sockptr_t optlen, const void *val, u32 len)
{
	if (len && copy_to_sockptr(optval, val, len))
		return -EFAULT;
	if (copy_to_sockptr(optlen, &len, sizeof(len)))
		return -EFAULT;
	return 0;
}

static int quic_sock_get_event(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen)
{
	struct quic_event_option opt;

	if (len < sizeof(opt))
		return -EINVAL;
	if (copy_from_sockptr(&opt, optval, sizeof(opt)))
		return -EFAULT;
	if (opt.type == QUIC_EVENT_NONE || opt.type > QUIC_EVENT_MAX)
		return -EINVAL;
	opt.on = quic_event_enabled(sk, opt.type);
	return quic_sock_put(optval, optlen, &opt, sizeof(opt));
}

static int quic_sock_get_config(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen)
{
	struct {
		struct quic_config c;
		u32 keepalive;
	} __packed out;

	if (len < sizeof(out.c))
		return -EINVAL;
	out.c = *quic_config(sk);
	out.keepalive = quic_sk(sk)->keepalive_interval;
	return quic_sock_put(optval, optlen, &out,
			     len < QUIC_CONFIG_LONG ? sizeof(out.c) : QUIC_CONFIG_LONG);
}

static int quic_sock_get_param(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen)
{
	struct quic_transport_param p;

	if (len < QUIC_TRANSPORT_PARAM_SHORT)
		return -EINVAL;
	/* The caller's "remote" byte selects which set it wants. */
	if (copy_from_sockptr(&p.remote, optval, sizeof(p.remote)))
		return -EFAULT;
	p = *(p.remote ? quic_remote_param(sk) : quic_local_param(sk));
	/* A buffer of the shorter, later layout gets that layout. */
	return quic_sock_put(optval, optlen, &p,
			     len < sizeof(p) ? QUIC_TRANSPORT_PARAM_SHORT : sizeof(p));
}

static int quic_sock_get_data(const struct quic_data *d, u32 len, sockptr_t optval,
			      sockptr_t optlen)
{
	if (len < d->len)
		return -EINVAL;
	return quic_sock_put(optval, optlen, d->data, d->len);
}

static int quic_sock_get_alpn(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen)
{
	u32 out = QUIC_ALPN_LIST_MAX_LEN;
	u8 *buf;
	int err;

	buf = kmalloc(out, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = quic_alpn_to_string(quic_alpn(sk), buf, &out);
	if (!err)
		err = len < out ? -EINVAL : quic_sock_put(optval, optlen, buf, out);
	kfree(buf);
	return err;
}

static int quic_sock_get_param_ext(struct sock *sk, u32 len, sockptr_t optval,
				   sockptr_t optlen)
{
	u32 out = QUIC_PARAM_EXT_MAX_LEN;
	u8 *buf;
	int err;

	buf = kmalloc(out, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = quic_conn_get_param_ext(sk, buf, &out);
	if (!err)
		err = len < out ? -EINVAL : quic_sock_put(optval, optlen, buf, out);
	kfree(buf);
	return err;
}

static int quic_do_getsockopt(struct sock *sk, int optname, sockptr_t optval, sockptr_t optlen)
{
	int err, len;

	if (copy_from_sockptr(&len, optlen, sizeof(len)))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	/* It takes the lock itself: a stream socket it cannot finish making
	 * is released, which takes it too.
	 */
	if (optname == QUIC_SOCKOPT_STREAM_PEELOFF)
		return quic_peel_opt(sk, len, optval, optlen);

	lock_sock(sk);
	switch (optname) {
	case QUIC_SOCKOPT_EVENT:
		err = quic_sock_get_event(sk, len, optval, optlen);
		break;
	case QUIC_SOCKOPT_TRANSPORT_PARAM:
		err = quic_sock_get_param(sk, len, optval, optlen);
		break;
	case QUIC_SOCKOPT_CONFIG:
		err = quic_sock_get_config(sk, len, optval, optlen);
		break;
	case QUIC_SOCKOPT_TOKEN:
		/* A client's token to keep; a server has none to give (and
		 * libquic copies in other projects tell a server socket by
		 * this failing).
		 */
		err = -EINVAL;
		if (!quic_paths(sk)->serv)
			err = quic_sock_get_data(quic_token(sk), len, optval, optlen);
		break;
	case QUIC_SOCKOPT_SESSION_TICKET:
		/* An accepted socket's key leaves bound to its parameters. */
		err = quic_ticket_key_settle(sk);
		if (!err)
			err = quic_sock_get_data(quic_ticket(sk), len, optval, optlen);
		if (!err)
			WRITE_ONCE(quic_sk(sk)->ticket_new, 0);
		break;
	case QUIC_SOCKOPT_ALPN:
		err = quic_sock_get_alpn(sk, len, optval, optlen);
		break;
	case QUIC_SOCKOPT_CRYPTO_SECRET:
		/* Secrets go into the kernel, never out of it. */
	case QUIC_SOCKOPT_STREAM_RESET:
	case QUIC_SOCKOPT_STREAM_STOP_SENDING:
	case QUIC_SOCKOPT_KEY_UPDATE:
	case QUIC_SOCKOPT_CONNECTION_MIGRATION:
		/* Actions: a setsockopt() only. */
		err = -EOPNOTSUPP;
		break;
	case QUIC_SOCKOPT_TRANSPORT_PARAM_EXT:
		err = quic_sock_get_param_ext(sk, len, optval, optlen);
		break;
	case QUIC_SOCKOPT_CONNECTION_CLOSE:
		err = quic_close_get(sk, len, optval, optlen);
		break;
	case QUIC_SOCKOPT_STREAM_OPEN:
		err = quic_msg_stream_open(sk, len, optval, optlen);
		break;
	case QUIC_SOCKOPT_CONNECTION_ID:
		err = quic_cid_get_opt(sk, len, optval, optlen);
		break;
	default:
		err = -ENOPROTOOPT;
		break;
	}
	release_sock(sk);
	return err;
}

static int quic_getsockopt(struct sock *sk, int level, int optname, char __user *optval,
			   int __user *optlen)
{
	if (level != SOL_QUIC)
		return quic_common_getsockopt(sk, level, optname, optval, optlen);
	return quic_do_getsockopt(sk, optname, USER_SOCKPTR(optval), USER_SOCKPTR(optlen));
}

/**
 * quic_kernel_getsockopt - read a SOL_QUIC option of a kernel socket
 * @sk: the socket
 * @optname: QUIC_SOCKOPT_*
 * @optval: buffer, in kernel memory
 * @optlen: in: size of @optval; out: length of the value
 *
 * Return: 0 or a negative errno, exactly as getsockopt() would;
 * -EPROTOTYPE when @sk is not a QUIC socket.
 */
int quic_kernel_getsockopt(struct sock *sk, int optname, void *optval, unsigned int *optlen)
{
	if (!quic_sk_is_quic(sk))
		return -EPROTOTYPE;
	return quic_do_getsockopt(sk, optname, KERNEL_SOCKPTR(optval), KERNEL_SOCKPTR(optlen));
}
EXPORT_SYMBOL_GPL(quic_kernel_getsockopt);

static int quic_inet_connect(struct socket *sock, struct sockaddr *addr, int addr_len,
			     int flags)
{
	struct sock *sk = sock->sk;
	int err;

	lock_sock(sk);
	err = sk->sk_prot->connect(sk, addr, addr_len);
	release_sock(sk);
	return err;
}

static int quic_inet_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	return quic_get_sk_addr(sock, uaddr, peer);
}

/* draft-lxin-quic-socket-apis, shutdown(): SHUT_WR may be repeated to send
 * the CLOSE frame again. Once our close went out the socket is CLOSED, to
 * which inet_shutdown() says -ENOTCONN; in the closing state a further
 * SHUT_WR or SHUT_RDWR repeats the closing datagram (quic_close_repeat()).
 */
static int quic_inet_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;
	int err = -ENOTCONN;

	if (how != SHUT_WR && how != SHUT_RDWR)
		return inet_shutdown(sock, how);
	lock_sock(sk);
	if (quic_is_closed(sk))
		err = quic_close_repeat(sk);
	release_sock(sk);
	if (err == -ENOTCONN)
		return inet_shutdown(sock, how);
	return err;
}

const struct proto_ops quic_proto_ops = {
	.family		= PF_INET,
	.owner		= THIS_MODULE,
	.release	= inet_release,
	.bind		= inet_bind,
	.connect	= quic_inet_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= inet_accept,
	.getname	= quic_inet_getname,
	.poll		= quic_inet_poll,
	.ioctl		= inet_ioctl,
	.gettstamp	= sock_gettstamp,
	.listen		= quic_conn_listen,
	.shutdown	= quic_inet_shutdown,
	.setsockopt	= sock_common_setsockopt,
	.getsockopt	= sock_common_getsockopt,
	.sendmsg	= inet_sendmsg,
	.recvmsg	= inet_recvmsg,
	.mmap		= sock_no_mmap,
};

const struct proto_ops quicv6_proto_ops = {
	.family		= PF_INET6,
	.owner		= THIS_MODULE,
	.release	= inet6_release,
	.bind		= inet6_bind,
	.connect	= quic_inet_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= inet_accept,
	.getname	= quic_inet_getname,
	.poll		= quic_inet_poll,
	.ioctl		= inet6_ioctl,
	.gettstamp	= sock_gettstamp,
	.listen		= quic_conn_listen,
	.shutdown	= quic_inet_shutdown,
	.setsockopt	= sock_common_setsockopt,
	.getsockopt	= sock_common_getsockopt,
	.sendmsg	= inet_sendmsg,
	.recvmsg	= inet_recvmsg,
	.mmap		= sock_no_mmap,
};

#define QUIC_PROTO_COMMON					\
	.owner			= THIS_MODULE,			\
	.init			= quic_init_sock,		\
	.destroy		= quic_destroy_sock,		\
	.shutdown		= quic_shutdown,		\
	.setsockopt		= quic_setsockopt,		\
	.getsockopt		= quic_getsockopt,		\
	.connect		= quic_conn_connect,		\
	.bind			= quic_conn_bind,		\
	.close			= quic_close,			\
	.disconnect		= quic_disconnect,		\
	.sendmsg		= quic_sendmsg,			\
	.recvmsg		= quic_recvmsg,			\
	.ioctl			= quic_ioctl,			\
	.backlog_rcv		= quic_rcv_backlog,		\
	.accept			= quic_conn_accept,		\
	.keepalive		= quic_conn_set_keepalive,	\
	.hash			= quic_conn_hash,		\
	.unhash			= quic_conn_unhash,		\
	.release_cb		= quic_release_cb,		\
	.no_autobind		= true,				\
	.sysctl_mem		= sysctl_quic_mem,		\
	.sysctl_rmem		= sysctl_quic_rmem,		\
	.sysctl_wmem		= sysctl_quic_wmem,		\
	.memory_pressure	= &quic_memory_pressure,	\
	.enter_memory_pressure	= quic_enter_memory_pressure,	\
	.memory_allocated	= &quic_memory_allocated,	\
	.per_cpu_fw_alloc	= &quic_memory_per_cpu_fw_alloc, \
	.sockets_allocated	= &quic_sockets_allocated

struct proto quic_prot = {
	QUIC_PROTO_COMMON,
	.name			= "QUIC",
	.obj_size		= sizeof(struct quic_sock),
};
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_prot);

struct proto quicv6_prot = {
	QUIC_PROTO_COMMON,
	.name			= "QUICv6",
	.obj_size		= sizeof(struct quic6_sock),
	.ipv6_pinfo_offset	= offsetof(struct quic6_sock, inet6),
};
EXPORT_SYMBOL_IF_QUIC_KUNIT(quicv6_prot);
