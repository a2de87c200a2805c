// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The core of one QUIC connection (RFC 9000 Section 5): the state a socket
 * holds for it (connection IDs, keys, packet number spaces, the stream
 * table), the handshake's keys and transport parameters, key updates,
 * the idle timeout and keep-alives, the discarding of packet number
 * spaces, and the release and reset of streams.
 *
 * bind(), connect(), listen() and accept() are in connect.c, the lookup
 * tables in lookup.c, the accept queue in request.c, closing in close.c.
 */

#include <linux/sched/signal.h>
#include <linux/uio.h>
#include <net/inet_common.h>
#include <net/sock.h>

#include "addrval.h"
#include "connection.h"
#include "connid_ctl.h"
#include "event.h"
#include "lookup.h"
#include "migrate.h"
#include "packet.h"
#include "param.h"
#include "receive.h"
#include "request.h"
#include "socket.h"
#include "ticket.h"
#include "version.h"
#include "transmit.h"

/*
 * The quoted packet's Destination Connection ID is one of the peer's: the
 * active one's length tells where a short header's ends. False when the
 * ICMP message did not quote enough of it.
 */
static bool quic_conn_ptb_valid(struct sock *sk, const u8 *q, u32 len)
{
	struct quic_conn_id_entry *active = quic_conn_id_active(quic_dest(sk));
	u32 off = 1, n;

	if (!len)
		return false;
	if (q[0] & QUIC_HDR_FORM_LONG) {
		if (len < 6)
			return false;
		n = q[5];
		off = 6;
	} else {
		if (!active)
			return false;
		n = active->id.len;
	}
	return n <= QUIC_CONN_ID_MAX_LEN && off + n <= len &&
	       quic_conn_id_known(quic_dest(sk), q + off, n);
}

/**
 * quic_conn_ptb - act on an ICMP Packet Too Big for a connection
 * @sk: the socket, owned by the caller
 * @mtu: the MTU the message reports
 * @quote: the start of the quoted QUIC packet
 * @len: bytes at @quote (at most %QUIC_CONN_PTB_QUOTE are looked at)
 *
 * RFC 9000 Section 14.2.1: the message counts only when the quoted packet
 * was sent to one of the peer's connection IDs (the addresses and ports
 * matched when the socket was found).
 */
void quic_conn_ptb(struct sock *sk, u32 mtu, const u8 *quote, u32 len)
{
	sock_owned_by_me(sk);
	if (!quic_is_established(sk) || !quic_conn_ptb_valid(sk, quote, len))
		return;
	quic_xmit_pmtu_toobig(sk, mtu);
	quic_xmit(sk);
	quic_conn_flush(sk);
}

/* The sending part of @s ended (outqueue callback, socket owned). */
static void quic_conn_stream_acked(struct quic_outq *outq, struct quic_stream *s)
{
	struct quic_sock *qs = container_of(outq, struct quic_sock, outq);

	/* Data Recvd or Reset Recvd: report it before the stream may go. */
	quic_event_stream_part(&qs->inet.sk, s, true);
	quic_msg_stream_done(&qs->inet.sk, s);
}

/* A PLPMTUD probe was acknowledged or lost (outqueue callback, socket owned). */
static void quic_conn_probe_done(struct quic_outq *outq, s64 pn, bool acked)
{
	struct quic_sock *qs = container_of(outq, struct quic_sock, outq);

	quic_xmit_pmtu_done(&qs->inet.sk, pn, acked);
}

/*
 * RFC 9001 Section 6: key update.
 *
 * The crypto layer keeps, per direction, the current keys and one other
 * slot: the next generation, ready before it is needed so that following a
 * peer's update never costs a derivation on the receive path, or, after an
 * update, the previous receive keys for packets still in flight (Section
 * 6.5). Rekeying a slot may sleep (AEAD setkey), so it runs here, in a
 * work item: right away for the send side after a local update, and three
 * PTOs after an update completed on the receive side, when the previous
 * keys are no longer needed. The work holds a socket reference; after
 * close() it finds the keys gone and does nothing.
 */
static void quic_conn_key_work(struct work_struct *work)
{
	struct quic_sock *qs = container_of(to_delayed_work(work), struct quic_sock, key_work);
	struct sock *sk = &qs->inet.sk;

	lock_sock(sk);
	if (quic_is_established(sk) &&
	    quic_crypto_prepare_next_keys(quic_crypto(sk, QUIC_CRYPTO_APP)))
		net_warn_ratelimited("quic: next 1-RTT keys not derived; key updates refused\n");
	release_sock(sk);
	sock_put(sk);
}

static void quic_conn_key_work_arm(struct sock *sk, u64 delay_us)
{
	sock_hold(sk);
	if (!queue_delayed_work(system_wq, &quic_sk(sk)->key_work, usecs_to_jiffies(delay_us)))
		sock_put(sk);	/* pending already: it prepares whatever is due */
}

/**
 * quic_conn_key_update - QUIC_SOCKOPT_KEY_UPDATE: start a key update
 * @sk: the socket, owned by the caller (process context)
 *
 * RFC 9001 Section 6.1: allowed once the handshake is confirmed and a
 * packet sent with the current keys was acknowledged. The packets that
 * follow carry the other Key Phase; a PING goes out at once so the peer
 * learns of the update even when no data is waiting.
 *
 * Return: 0; -ENOTCONN before the connection is established; -EAGAIN
 * while an update is not allowed yet (handshake not confirmed, the last
 * update not acknowledged, or the next keys not prepared yet).
 */
int quic_conn_key_update(struct sock *sk)
{
	struct quic_crypto *crypto = quic_crypto(sk, QUIC_CRYPTO_APP);
	struct quic_frame ping = { .type = QUIC_FRAME_PING };
	int err;

	sock_owned_by_me(sk);
	if (!quic_is_established(sk))
		return -ENOTCONN;
	if (!quic_outq(sk)->confirmed)
		return -EAGAIN;
	err = quic_crypto_key_update(crypto);
	if (err)
		return err == -EINVAL ? -ENOTCONN : -EAGAIN;
	/* The send side's old keys are never needed again: rekey now. */
	if (quic_crypto_prepare_next_keys(crypto))
		quic_conn_key_work_arm(sk, 0);
	if (!quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &ping, GFP_KERNEL))
		quic_xmit(sk);
	return 0;
}

/**
 * quic_conn_key_updated - a packet of the next key phase authenticated
 * @sk: the socket, owned by the caller (softirq or process context)
 * @phase: the Key Phase now in use in both directions
 *
 * The update, ours or the peer's, is complete on the receive side: the
 * application is told (QUIC_EVENT_KEY_UPDATE) and the previous receive
 * keys are replaced by the next generation three PTOs later.
 */
void quic_conn_key_updated(struct sock *sk, u8 phase)
{
	sock_owned_by_me(sk);
	quic_event_key_update(sk, phase);
	quic_conn_key_work_arm(sk, 3 * quic_cong_pto(quic_cong(sk), QUIC_CRYPTO_APP));
}

/**
 * quic_conn_key_check_limit - update the keys before they wear out
 * @sk: the socket, owned by the caller (softirq or process context)
 *
 * RFC 9001 Section 6.6: a key may protect only so many packets (2^23 for
 * AES-GCM). Once three quarters of the limit are used, an update is
 * started whenever one is allowed, so the limit itself is never reached
 * on a connection whose peer acknowledges.
 */
void quic_conn_key_check_limit(struct sock *sk)
{
	struct quic_crypto *crypto = quic_crypto(sk, QUIC_CRYPTO_APP);
	u64 limit = quic_crypto_confidentiality_limit(crypto);

	if (limit == U64_MAX || crypto->tx_count < limit - limit / 4)
		return;
	if (!quic_outq(sk)->confirmed || quic_crypto_key_update(crypto))
		return;
	quic_conn_key_work_arm(sk, 0);
}

/*
 * RFC 9002 Appendix A.8: whenever SetLossDetectionTimer() has a time (a
 * loss time, or a PTO: ack-eliciting packets in flight, or a client's
 * anti-deadlock probe, and not held by the anti-amplification limit), the
 * loss detection timer runs; a connection without it waits forever for an
 * acknowledgment that was lost.
 */
static void quic_conn_timer_invariant(struct sock *sk)
{
#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
	u8 level;

	/* Not before the first packet: connect() alone arms nothing. */
	if ((!quic_is_establishing(sk) && !quic_is_established(sk)) ||
	    !quic_pnspace(sk, QUIC_CRYPTO_INITIAL)->next_pn)
		return;
	if (quic_outq_loss_timer(quic_outq(sk), quic_time_us(), &level) &&
	    !quic_timer_armed(quic_timers(sk), QUIC_TIMER_LOSS))
		quic_invariant_check(sk, "no loss detection timer while RFC 9002 asks for one");
#endif
}

/**
 * quic_conn_flush - act on what transmission noticed
 * @sk: the socket, owned by the caller or its spinlock held (softirq)
 *
 * The engine (transmit.c) only records what it notices in
 * &quic_sock.noticed; the connection acts on it here, at the end of each
 * received datagram, of each timer expiry and of each release_sock():
 * a client's Initial keys go once it sent a Handshake packet (RFC 9001
 * Section 4.9.1), keys near their confidentiality limit are updated (RFC
 * 9001 Section 6.6), and an ack-eliciting packet restarts the idle timer
 * (RFC 9000 Section 10.1). Then a connection error latched meanwhile
 * (quic_rcv_conn_error()) closes the connection.
 */
void quic_conn_flush(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);
	u8 noticed = qs->noticed;

	sock_owned_by_me(sk);
	/* Nothing to check or act on once closed: the queues are released,
	 * and work that held the socket (the next key work) may still run.
	 */
	if (quic_is_closed(sk))
		return;
	quic_invariant_check(sk, quic_outq_invariant(quic_outq(sk)));
	quic_invariant_check(sk, quic_stream_invariant(quic_streams(sk)));
	if (quic_inq_highest(quic_inq(sk)) > quic_inq_max_data(quic_inq(sk)))
		quic_invariant_check(sk, "stream bytes received beyond our MAX_DATA");
	quic_conn_timer_invariant(sk);
	if (!noticed && !qs->close.latched)
		return;
	qs->noticed = 0;
	if (noticed & QUIC_XMIT_SAW_HANDSHAKE) {
		quic_conn_discard_level(sk, QUIC_CRYPTO_INITIAL);
		quic_xmit_timers_update(sk);
	}
	if (noticed & QUIC_XMIT_SAW_KEY_LIMIT)
		quic_conn_key_check_limit(sk);
	if (noticed & QUIC_XMIT_SAW_ACK_ELICITING)
		quic_conn_idle_sent(sk);
	/* Last: a latched connection error ends the connection. */
	quic_close_flush(sk);
}

/* RFC 9000 Section 10.1: the connection is silently closed. Once closed,
 * the same timer measures the closing or draining period (close.c).
 */
static void quic_conn_idle_fire(struct sock *sk)
{
	if (quic_conn_keepalive(sk))
		return;
	if (quic_is_establishing(sk) || quic_is_established(sk))
		quic_conn_closed(sk, ETIMEDOUT);
	else
		quic_close_period_end(sk);
}

/* Expiry handlers of every socket's timers (timer.c): softirq, socket
 * spinlock held, or release_sock() of the owner.
 */
static const struct quic_timer_ops quic_conn_timer_ops = {
	.fire = {
		[QUIC_TIMER_LOSS]	= quic_xmit_loss_fire,
		[QUIC_TIMER_ACK]	= quic_xmit_ack_fire,
		[QUIC_TIMER_IDLE]	= quic_conn_idle_fire,
		[QUIC_TIMER_PACE]	= quic_xmit_pace_fire,
		[QUIC_TIMER_PMTU]	= quic_xmit_pmtu_fire,
		[QUIC_TIMER_PATH]	= quic_migrate_path_timeout,
	},
	.done = quic_conn_flush,
};

/**
 * quic_conn_init - set up the connection state of a new socket
 * @sk: the socket, from its proto init (process context)
 * @udp_ops: what the UDP tunnels of its paths hand received datagrams and
 *	ICMP reports to (endpoint.c)
 *
 * Everything quic_conn_free() releases is made safe to release first, so a
 * failure part way leaves a socket that can be destroyed.
 *
 * Return: 0, or -ENOMEM.
 */
int quic_conn_init(struct sock *sk, const struct quic_udp_ops *udp_ops)
{
	struct quic_sock *qs = quic_sk(sk);
	int i, err;

	INIT_LIST_HEAD(&qs->requests);
	quic_close_init(sk);
	quic_conn_id_set_init(&qs->source, true, sock_net(sk), sk);
	quic_conn_id_set_init(&qs->dest, false, sock_net(sk), sk);
	quic_path_group_init(&qs->paths, udp_ops, false);

	__skb_queue_head_init(&qs->pending);
	quic_outq_init(&qs->outq, qs->space, &qs->cong, &qs->streams, false);
	qs->outq.stream_acked = quic_conn_stream_acked;
	qs->outq.probe_done = quic_conn_probe_done;
	quic_inq_init(&qs->inq);
	INIT_DELAYED_WORK(&qs->key_work, quic_conn_key_work);
	INIT_WORK(&qs->retry_work, quic_addrval_retry_work);
	quic_timer_init(sk, &qs->timers, &quic_conn_timer_ops);

	for (i = 0; i < QUIC_PNSPACE_MAX; i++) {
		err = quic_pnspace_init(&qs->space[i], GFP_KERNEL);
		if (err)
			return err;
	}
	return 0;
}

/**
 * quic_conn_free - release the connection state of a socket
 * @sk: the socket, from its proto destroy
 */
void quic_conn_free(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);
	int i;

	quic_conn_requests_purge(sk);
	quic_alpn_listen_stop(sk);
	quic_close_free(sk);
	__skb_queue_purge(&qs->pending);
	quic_outq_free(&qs->outq);
	quic_inq_free(&qs->inq);
	quic_stream_table_free(&qs->streams);
	quic_conn_id_set_free(&qs->source);
	quic_conn_id_set_free(&qs->dest);
	for (i = 0; i < QUIC_CRYPTO_MAX; i++)
		quic_crypto_destroy(&qs->crypto[i]);
	quic_version_free(sk);
	for (i = 0; i < QUIC_PNSPACE_MAX; i++)
		quic_pnspace_free(&qs->space[i]);
	quic_path_free(sk, &qs->paths, 0);
	quic_path_free(sk, &qs->paths, 1);
	quic_path_free(sk, &qs->paths, QUIC_PATH_PREF2);
}

/**
 * quic_conn_apply_remote - take the peer's transport parameters into use
 * @sk: the socket, owned by the caller
 *
 * The peer's limits bound what we open and send (RFC 9000 Sections 4.1
 * and 4.6); its max_ack_delay enters the PTO (RFC 9002 Section 6.2.1).
 * Called with remembered parameters at connect() (0-RTT, RFC 9000
 * Section 7.4.1) and again once the peer's own arrive.
 */
void quic_conn_apply_remote(struct sock *sk)
{
	struct quic_transport_param *r = quic_remote_param(sk);

	quic_stream_set_param(quic_streams(sk), quic_local_param(sk));
	quic_stream_set_param(quic_streams(sk), r);
	if (quic_stream_raise_send_limits(quic_streams(sk)))
		sk->sk_write_space(sk);
	quic_outq_set_max_data(quic_outq(sk), r->max_data);
	quic_cong_set_max_ack_delay(quic_cong(sk), r->max_ack_delay);
	quic_conn_id_set_param(quic_dest(sk), quic_local_param(sk));
	quic_conn_id_set_param(quic_source(sk), r);
}

/**
 * quic_conn_discard_level - throw away the keys and state of a level
 * @sk: the socket, owned by the caller
 * @level: QUIC_CRYPTO_INITIAL or QUIC_CRYPTO_HANDSHAKE (RFC 9001 Section 4.9)
 *
 * Its packets in flight leave the congestion window without being lost
 * (RFC 9002 Section 6.4), its queued data and keys are freed, and packets
 * of that level arriving later are ignored.
 */
void quic_conn_discard_level(struct sock *sk, u8 level)
{
	struct quic_sock *qs = quic_sk(sk);

	if (qs->discarded & BIT(level))
		return;
	qs->discarded |= BIT(level);
	quic_outq_discard_space(&qs->outq, level);
	quic_inq_crypto_discard(&qs->inq, level);
	quic_crypto_destroy(quic_crypto(sk, level));
	if (level == QUIC_CRYPTO_INITIAL)
		quic_version_free(sk);
}

/**
 * quic_conn_confirmed - the handshake is confirmed (RFC 9001 Section 4.1.2)
 * @sk: the socket, owned by the caller
 *
 * At the server when the handshake completes, at the client on
 * HANDSHAKE_DONE: the Handshake keys go (Section 4.9.2), PTO covers the
 * Application space, max_ack_delay applies in full, PLPMTUD may start
 * (RFC 9000 Section 14.3.1) and a client probes the server's preferred
 * address (Section 9.6.1).
 */
void quic_conn_confirmed(struct sock *sk)
{
	quic_outq_set_confirmed(quic_outq(sk));
	quic_cong_set_confirmed(quic_cong(sk));
	quic_conn_discard_level(sk, QUIC_CRYPTO_HANDSHAKE);
	quic_xmit_pmtu_start(sk);
	quic_migrate_pref_start(sk);
}

/**
 * quic_conn_issue_token - QUIC_SOCKOPT_TOKEN on a server: one more NEW_TOKEN
 * @sk: an accepted socket, owned by the caller
 *
 * draft-lxin-quic-socket-apis, QUIC_SOCKOPT_TOKEN: "The server uses this
 * option to issue a new token to the client". One went at the end of the
 * handshake already (RFC 9000 Section 8.1.3); this sends another, for the
 * client's next connection.
 *
 * Return: 0, -ENOTCONN until the handshake completed or after the
 * connection ended, or the error of making the token.
 */
int quic_conn_issue_token(struct sock *sk)
{
	int err;

	sock_owned_by_me(sk);
	if (!quic_is_established(sk))
		return -ENOTCONN;
	err = quic_addrval_new_token(sk);
	if (!err)
		quic_xmit(sk);
	return err;
}

/**
 * quic_conn_idle_restart - restart the idle timeout (RFC 9000 Section 10.1)
 * @sk: the socket, owned by the caller
 *
 * The smaller of both endpoints' max_idle_timeout (0 means none), and no
 * less than three PTOs so that a lost packet or two do not end it. With
 * a keep-alive on an established connection (the configured interval, or
 * half the timeout with SO_KEEPALIVE), the timer first fires after that,
 * for quic_conn_keepalive().
 */
void quic_conn_idle_restart(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);
	u64 local = quic_local_param(sk)->max_idle_timeout;
	u64 remote = quic_remote_param(sk)->max_idle_timeout;
	u64 timeout, pto;

	if (!local || !remote)
		timeout = local ?: remote;
	else
		timeout = min(local, remote);
	if (!timeout)
		return;
	pto = 3 * quic_cong_pto(quic_cong(sk), QUIC_CRYPTO_APP);
	timeout = max(timeout, pto);
	qs->idle_sent = 0;
	qs->ka_sent = 0;
	qs->ka_rest = 0;
	if (quic_is_established(sk)) {
		u64 ka = qs->keepalive_interval;

		if (!ka && sock_flag(sk, SOCK_KEEPOPEN))
			ka = timeout / 2;
		if (ka && ka < timeout) {
			qs->ka_rest = timeout - ka;
			timeout = ka;
		}
	}
	quic_timer_reset(quic_timers(sk), QUIC_TIMER_IDLE, timeout);
}

/**
 * quic_conn_idle_sent - an ack-eliciting packet was sent
 * @sk: the socket, owned by the caller
 *
 * RFC 9000 Section 10.1: "An endpoint also restarts its idle timer when
 * sending an ack-eliciting packet if no other ack-eliciting packets have
 * been sent since last receiving and processing a packet", so that new
 * activity after a silence gets the whole timeout. Later ones do not:
 * the packets the peer never answers do not keep the connection up.
 */
void quic_conn_idle_sent(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);

	/* Closing or draining: the timer measures that period (close.c). */
	if (qs->idle_sent || (!quic_is_establishing(sk) && !quic_is_established(sk)))
		return;
	quic_conn_idle_restart(sk);
	qs->idle_sent = 1;
}

/**
 * quic_conn_set_keepalive - SO_KEEPALIVE was set or cleared
 * @sk: the socket, locked by the caller (sk_setsockopt(), sock_set_keepalive())
 * @val: the new value
 *
 * An established connection re-arms its idle timer at once, the keep-alive
 * half way included or not.
 */
void quic_conn_set_keepalive(struct sock *sk, int val)
{
	sock_owned_by_me(sk);
	sock_valbool_flag(sk, SOCK_KEEPOPEN, val);
	if (quic_is_established(sk))
		quic_conn_idle_restart(sk);
}

/**
 * quic_conn_keepalive - the idle timer fired half way with SO_KEEPALIVE
 * @sk: the socket, owned (timer context with the spinlock)
 *
 * RFC 9000 Section 10.1.2: a PING keeps the connection (and the NAT and
 * firewall state on its path) alive; the peer's acknowledgment restarts
 * the idle timer. If none comes, the rest of the idle timeout runs out
 * (when the PING is the first ack-eliciting packet since the last one
 * received, sending it restarted the timer: quic_conn_idle_sent()).
 *
 * Return: true when a PING went and the timer runs on, false when the
 * idle timeout is over.
 */
bool quic_conn_keepalive(struct sock *sk)
{
	struct quic_frame ping = { .type = QUIC_FRAME_PING };
	struct quic_sock *qs = quic_sk(sk);

	if (qs->ka_sent || !qs->ka_rest || !quic_is_established(sk))
		return false;
	qs->ka_sent = 1;
	quic_timer_reset(quic_timers(sk), QUIC_TIMER_IDLE, qs->ka_rest);
	if (!quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &ping, GFP_ATOMIC))
		quic_xmit(sk);
	return true;
}

/* Both directions of the 1-RTT keys are installed: the TLS library
 * installs them once the handshake is complete (RFC 9001 Section 4.1.1),
 * the server only after it verified the client's Finished. The server
 * then confirms the handshake with HANDSHAKE_DONE (Section 4.1.2).
 */
static void quic_conn_established(struct sock *sk)
{
	struct quic_frame done = { .type = QUIC_FRAME_HANDSHAKE_DONE };
	struct net *net = sock_net(sk);
	bool serv = quic_paths(sk)->serv;

	quic_set_state(sk, QUIC_SS_ESTABLISHED);
	QUIC_INC_STATS(net, serv ? QUIC_MIB_CONN_PASSIVEESTABS : QUIC_MIB_CONN_ACTIVEESTABS);
	/* Data that came in 0-RTT packets is the application's now. */
	WRITE_ONCE(quic_inq(sk)->crypto_only, 0);
	if (quic_inq_readable(quic_inq(sk)))
		sk->sk_data_ready(sk);
	quic_ticket_established(sk);
	/* RFC 9000 Section 5.1.1: the peer gets as many of our IDs as it holds. */
	quic_cid_issue(sk, GFP_KERNEL);
	if (!serv)
		return;
	quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &done, GFP_KERNEL);
	/* RFC 9000 Section 8.1.3: a token for the client's next connection. */
	quic_addrval_new_token(sk);
	quic_conn_confirmed(sk);
}

/**
 * quic_conn_set_secret - install a traffic secret from the TLS handshake
 * @sk: the socket, locked by the caller
 * @srt: level, direction, cipher suite and secret (QUIC_SOCKOPT_CRYPTO_SECRET)
 *
 * Handshake, 0-RTT and 1-RTT secrets come from the TLS library; Initial
 * keys never do (they derive from the client's first Destination
 * Connection ID, RFC 9001 Section 5.2). 0-RTT keys only exist for the
 * client to send and the server to receive (RFC 9001 Section 4.6.1). The
 * second direction of the 1-RTT keys completes the handshake and the socket
 * becomes ESTABLISHED. The caller then processes the packets held for
 * new receive keys (quic_rcv_pending_retry()) and sends what is due.
 *
 * Context: process context (installing keys allocates and may sleep).
 * Return: 0; -EINVAL outside ESTABLISHING, for the Initial level, a 0-RTT
 * direction that does not exist or a bad cipher or direction; -EEXIST for
 * a direction that already has keys; errors of quic_crypto_set_secret().
 */
int quic_conn_set_secret(struct sock *sk, const struct quic_crypto_secret *srt)
{
	bool serv = quic_paths(sk)->serv;
	struct quic_crypto *crypto;
	int err;

	sock_owned_by_me(sk);
	if (!quic_is_establishing(sk) || srt->send > 1)
		return -EINVAL;
	if (srt->level == QUIC_CRYPTO_INITIAL || srt->level >= QUIC_CRYPTO_MAX)
		return -EINVAL;
	if (srt->level == QUIC_CRYPTO_EARLY && srt->send == serv)
		return -EINVAL;

	crypto = quic_crypto(sk, srt->level);
	/* RFC 9369 Section 4: 0-RTT stays in the original version. */
	err = quic_crypto_set_secret(crypto, srt, srt->level == QUIC_CRYPTO_EARLY ?
				     quic_sk(sk)->orig_version : quic_config(sk)->version);
	if (err)
		return err;
	if (srt->level == QUIC_CRYPTO_HANDSHAKE && srt->send)
		quic_outq_set_hs_keys(quic_outq(sk));
	if (srt->level == QUIC_CRYPTO_EARLY && srt->send) {
		err = quic_ticket_early_offered(sk);
		if (err)
			return err;
	}
	if (srt->level == QUIC_CRYPTO_APP && crypto->tx.ready && crypto->rx.ready)
		quic_conn_established(sk);
	return 0;
}

/**
 * quic_conn_get_param_ext - encode our transport parameters for TLS
 * @sk: the socket, locked by the caller, connecting or connected
 * @buf: output
 * @len: in: room at @buf; out: bytes written
 *
 * The quic_transport_parameters extension (RFC 9001 Section 8.2) the TLS
 * library sends: our integer parameters, initial_source_connection_id,
 * and at a server original_destination_connection_id (RFC 9000 Section
 * 7.3) and the preferred address offered (Section 9.6).
 *
 * Return: 0, -EINVAL before connect()/accept(), -ENOSPC when @buf is too
 * small.
 */
int quic_conn_get_param_ext(struct sock *sk, u8 *buf, u32 *len)
{
	struct quic_conn_id_entry *scid = quic_conn_id_active(quic_source(sk));
	struct quic_conn_id_entry *pref;
	bool serv = quic_paths(sk)->serv;
	struct quic_params *params;
	u32 left = *len;
	u8 *p = buf;
	int err;

	sock_owned_by_me(sk);
	if ((!quic_is_establishing(sk) && !quic_is_established(sk)) || !scid)
		return -EINVAL;
	/* The parameters are final: the ticket key is bound to them. */
	err = quic_ticket_key_settle(sk);
	if (err)
		return err;
	params = kzalloc(sizeof(*params), GFP_KERNEL);
	if (!params)
		return -ENOMEM;
	quic_param_init(params);
	params->tp = *quic_local_param(sk);
	params->init_scid = scid->id;
	params->present |= QUIC_PARAM_HAS_INIT_SCID;
	/* RFC 9368 Section 3: version_information (version.c), always sent
	 * (RFC 9369 Section 4); disable_compatible_version only shortens it.
	 */
	params->tp.disable_compatible_version = 0;
	quic_version_fill(sk, &params->vi);
	if (serv) {
		params->orig_dcid = quic_paths(sk)->orig_dcid;
		params->present |= QUIC_PARAM_HAS_ORIG_DCID;
		if (quic_paths(sk)->retry) {
			params->retry_scid = quic_paths(sk)->retry_dcid;
			params->present |= QUIC_PARAM_HAS_RETRY_SCID;
		}
		/* RFC 9000 Section 10.3: the token of the ID of the handshake. */
		if (scid->id.len &&
		    !quic_cid_reset_token(sock_net(sk), &scid->id, params->reset_token))
			params->tp.stateless_reset = 1;
		/* Section 9.6: the preferred address and connection ID 1. */
		pref = quic_conn_id_find(quic_source(sk), 1);
		if (quic_paths(sk)->pref_addr && pref &&
		    !quic_cid_reset_token(sock_net(sk), &pref->id, params->pref.token)) {
			params->pref.addr = *quic_path_saddr(quic_paths(sk), 1);
			/* One address of each IP version (Section 18.2). */
			params->pref.addr2 = *quic_path_saddr(quic_paths(sk), QUIC_PATH_PREF2);
			params->pref.cid = pref->id;
			params->present |= QUIC_PARAM_HAS_PREF_ADDR;
		}
	}
	err = quic_param_encode(sk, serv, params, &p, &left);
	if (!err) {
		*len = p - buf;
		quic_sk(sk)->local_param_sent = 1;
	}
	kfree(params);
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_get_param_ext);

/**
 * quic_conn_set_param_ext - take the peer's transport parameters from TLS
 * @sk: the socket, locked by the caller, in the handshake
 * @data: the peer's quic_transport_parameters extension
 * @len: its length
 *
 * Decoded and validated by param.c (RFC 9000 Sections 7.4 and 18.2), the
 * connection IDs authenticated against those the handshake packets
 * carried (Section 7.3), then put to use. A bad list closes the connection
 * with TRANSPORT_PARAMETER_ERROR.
 *
 * Return: 0, -EINVAL for parameters the peer should not have sent (the
 * connection is closed) or outside the handshake, -EALREADY when they
 * were taken already, -ENOMEM.
 */
int quic_conn_set_param_ext(struct sock *sk, const u8 *data, u32 len)
{
	struct quic_sock *qs = quic_sk(sk);
	bool serv = quic_paths(sk)->serv;
	struct quic_param_cids seen = {};
	struct quic_params *params;
	int err;

	sock_owned_by_me(sk);
	if (!quic_is_establishing(sk))
		return -EINVAL;
	if (qs->remote_param_set)
		return -EALREADY;
	params = kzalloc(sizeof(*params), GFP_KERNEL);
	if (!params)
		return -ENOMEM;

	err = quic_param_decode(sk, serv, data, len, params);
	if (!err) {
		seen.peer_scid = qs->peer_scid_set ? &qs->peer_scid : NULL;
		if (!serv) {
			seen.odcid = &quic_paths(sk)->orig_dcid;
			if (quic_paths(sk)->retry)
				seen.retry_scid = &quic_paths(sk)->retry_dcid;
		}
		err = quic_param_cid_auth(params, serv, &seen);
	}
	if (err) {
		kfree(params);
		quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_TRANSPORT_PARAM, 0);
		return -EINVAL;
	}
	/* RFC 9368 Sections 2.3 and 4; absent, it is not checked (Section 4
	 * allows that to a client that did not react to Version Negotiation).
	 */
	if (!params->tp.disable_compatible_version) {
		err = serv ? quic_version_negotiate(sk, &params->vi) :
			     quic_version_check_server(quic_config(sk)->version, &params->vi);
		if (err) {
			kfree(params);
			if (err == -EPROTO)
				quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_VERSION_NEGOTIATION,
						    0);
			return err == -EPROTO ? -EINVAL : err;
		}
	}

	*quic_remote_param(sk) = params->tp;
	qs->remote_param_set = 1;
	/* Both ends asked for it: short header packets go unprotected. */
	quic_crypto_set_plain_1rtt(quic_crypto(sk, QUIC_CRYPTO_APP),
				   params->tp.disable_1rtt_encryption &&
				   quic_local_param(sk)->disable_1rtt_encryption);
	/* RFC 9000 Section 10.3: the token of the server's handshake ID. */
	if (!serv && params->tp.stateless_reset)
		quic_conn_id_set_token(quic_dest(sk), 0, params->reset_token);
	/* Section 9.6: the ID of a preferred address is the server's ID 1,
	 * usable on any path; the address is probed once the handshake is
	 * confirmed (migrate.c), from a tunnel of its own when its IP version
	 * is not the connection's.
	 */
	if (!serv && (params->present & QUIC_PARAM_HAS_PREF_ADDR) &&
	    !quic_conn_id_add(quic_dest(sk), &params->pref.cid, 1, params->pref.token,
			      GFP_KERNEL) &&
	    params->pref.addr.sa.sa_family && params->pref.addr.v4.sin_port) {
		quic_path_set_daddr(quic_paths(sk), 1, &params->pref.addr);
		quic_paths(sk)->pref_addr = 1;
		quic_paths(sk)->pref_state = QUIC_PATH_PREF_OFFERED;
		/* Of the other IP version: a local address and tunnel for it. */
		quic_migrate_pref_prepare(sk);
	}
	kfree(params);
	quic_conn_apply_remote(sk);
	quic_xmit(sk);
	return 0;
}

/**
 * quic_msg_read_credit - queue the flow control credit a read handed back
 * @sk: the socket, owned by the caller
 * @ri: what quic_inq_read() reported
 * @gfp: allocation flags
 *
 * RFC 9000 Section 4.2: MAX_DATA and MAX_STREAM_DATA as the read made
 * them due. The caller sends them.
 *
 * Return: true when a frame was queued.
 */
bool quic_msg_read_credit(struct sock *sk, const struct quic_inq_rinfo *ri, gfp_t gfp)
{
	struct quic_frame f = {};
	bool queued = false;

	sock_owned_by_me(sk);
	if (ri->conn_update) {
		f.type = QUIC_FRAME_MAX_DATA;
		f.limit.max = ri->max_data;
		queued |= !quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, gfp);
	}
	if (ri->stream_update) {
		f.type = QUIC_FRAME_MAX_STREAM_DATA;
		f.limit.id = ri->stream_id;
		f.limit.max = ri->max_stream_data;
		queued |= !quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, gfp);
	}
	return queued;
}

/**
 * quic_msg_discard - drop what the receive queue holds once reading is shut
 * @sk: the socket, owned by the caller, with RCV_SHUTDOWN set
 * @gfp: allocation flags (GFP_ATOMIC on the receive path)
 *
 * draft-lxin-quic-socket-apis, shutdown(): after SHUT_RD "All incoming
 * data ... SHOULD be discard quietly". Everything queued (stream data,
 * datagrams, notifications, TLS messages) is consumed as reads would
 * consume it: the peer gets its flow control credit back and streams read
 * to their end are released, so a peer that keeps sending is neither
 * blocked nor makes the socket hold memory. The caller sends what this
 * queued.
 *
 * Return: true when frames were queued.
 */
bool quic_msg_discard(struct sock *sk, gfp_t gfp)
{
	struct quic_inq_rinfo ri;
	struct quic_stream *s;
	bool queued = false;
	struct iov_iter to;

	sock_owned_by_me(sk);
	for (;;) {
		iov_iter_discard(&to, ITER_DEST, U32_MAX);
		/* Each read takes a whole message or a stream's run of bytes. */
		if (quic_inq_read(quic_inq(sk), quic_streams(sk), &to, &ri) < 0)
			break;
		queued |= quic_msg_read_credit(sk, &ri, gfp);
		if (ri.type != QUIC_INQ_STREAM || !ri.fin)
			continue;
		s = quic_stream_find(quic_streams(sk), ri.stream_id);
		if (s)
			queued |= quic_msg_stream_done(sk, s);
	}
	return queued;
}

/**
 * quic_msg_stream_done - release a stream once both its parts have ended
 * @sk: the socket, owned by the caller
 * @s: a stream of the socket; freed when it is done
 *
 * A stream whose sending part was acknowledged or reset and whose
 * receiving part was read to its end (or that has no such part) leaves
 * the table with whatever the queues still held for it. A stream the
 * peer opened gives the peer one back: MAX_STREAMS raises its limit
 * (RFC 9000 Section 4.6). Softirq or process context; GFP_ATOMIC.
 *
 * Return: true when a MAX_STREAMS frame was queued for the caller to send.
 */
bool quic_msg_stream_done(struct sock *sk, struct quic_stream *s)
{
	struct quic_stream_table *t = quic_streams(sk);
	bool uni = quic_stream_id_uni(s->id);
	struct quic_frame f = {};
	s64 id = s->id;

	sock_owned_by_me(sk);
	if (!quic_stream_is_done(s))
		return false;
	quic_outq_stream_purge(quic_outq(sk), s);
	quic_inq_stream_purge(quic_inq(sk), id);
	quic_stream_release(t, s);
	if (quic_stream_id_local(id, t->is_serv) ||
	    !quic_stream_peer_max_streams_update(t, uni, &f.limit.max))
		return false;
	f.type = uni ? QUIC_FRAME_MAX_STREAMS_UNI : QUIC_FRAME_MAX_STREAMS_BIDI;
	return !quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, GFP_ATOMIC);
}

/**
 * quic_msg_stream_reset - abandon the sending part of a stream
 * @sk: the socket, owned by the caller
 * @s: the stream
 * @errcode: application protocol error code for the peer
 *
 * RFC 9000 Sections 3.1 and 19.4: the part moves to Reset Sent, the data
 * still queued or in flight for it is forgotten (no STREAM frame is sent
 * again once RESET_STREAM is) and a RESET_STREAM with the bytes written so
 * far as its Final Size is queued; it is sent again until acknowledged.
 * Softirq or process context; GFP_ATOMIC.
 *
 * Return: 0, -EALREADY when the part was reset or fully acknowledged
 * already, -EINVAL for a stream without a sending part, -ENOMEM (the
 * stream is then left as it was).
 */
int quic_msg_stream_reset(struct sock *sk, struct quic_stream *s, u32 errcode)
{
	struct quic_frame f = { .type = QUIC_FRAME_RESET_STREAM };
	u32 old_errcode = s->send.errcode;
	u8 old_state = s->send.state;
	int err;

	sock_owned_by_me(sk);
	err = quic_stream_send_reset(s, errcode);
	if (err)
		return err;
	f.reset.id = s->id;
	f.reset.errcode = errcode;
	f.reset.final_size = s->send.bytes;
	err = quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, GFP_ATOMIC);
	if (err) {
		/* A part in Reset Sent with no RESET_STREAM queued would never
		 * send one (RFC 9000 Section 3.5): back to where it was, its
		 * data kept, for the STOP_SENDING sent again or the
		 * application's next try.
		 */
		s->send.state = old_state;
		s->send.errcode = old_errcode;
		return err;
	}
	quic_outq_stream_purge(quic_outq(sk), s);
	/* Room freed by the purge: a writer on another stream may go on. */
	sk->sk_write_space(sk);
	return 0;
}
