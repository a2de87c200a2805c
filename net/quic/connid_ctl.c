// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Connection IDs on a live connection (RFC 9000 Section 5.1).
 *
 * Once the handshake is done each side holds as many of the other's IDs as
 * it allows (active_connection_id_limit, Section 18.2): quic_cid_issue()
 * tops our source set up to that count (at most QUIC_CONN_ID_ISSUE_MAX)
 * and sends each new ID in a NEW_CONNECTION_ID frame with its stateless
 * reset token. A RETIRE_CONNECTION_ID from the peer removes one and a
 * replacement goes out; a NEW_CONNECTION_ID whose Retire Prior To rises
 * makes us retire the peer's older IDs (Section 5.1.2).
 *
 * Stateless reset tokens (Section 10.3.2) are an HMAC-SHA256 of the ID
 * under a key drawn at module load, so a token can be recomputed from the
 * ID alone.
 *
 * QUIC_SOCKOPT_CONNECTION_ID (struct quic_connection_id_info): a get reads,
 * for our IDs (dest 0) or the peer's (dest 1), the sequence number of the
 * one in use and the lowest one still held; a set with dest 1 switches to
 * another ID of the peer's and retires those below prior_to, with dest 0
 * asks the peer to retire ours below prior_to (new ones are issued first).
 *
 * Context: the socket is owned by the caller everywhere (softirq or
 * process); the frames are queued with GFP_ATOMIC.
 */

#include <net/sock.h>

#include "connection.h"
#include "connid_ctl.h"
#include "crypto.h"
#include "event.h"
#include "frame.h"
#include "socket.h"
#include "token.h"
#include "transmit.h"

/**
 * quic_cid_net_init - key the MAC of a namespace's stateless reset tokens
 * @net: the namespace
 *
 * Context: pernet init (process context).
 * Return: 0 or a negative errno from the crypto API.
 */
int quic_cid_net_init(struct net *net)
{
	return quic_crypto_mac_init_random(&quic_net(net)->reset_mac);
}

/**
 * quic_cid_net_exit - free the MAC of a namespace's stateless reset tokens
 * @net: the namespace
 */
void quic_cid_net_exit(struct net *net)
{
	quic_crypto_mac_free(&quic_net(net)->reset_mac);
}

/**
 * quic_cid_reset_token - the stateless reset token of one of our IDs
 * @net: the namespace of the socket the ID is ours in
 * @id: the connection ID
 * @token: out, %QUIC_CONN_ID_TOKEN_LEN bytes
 *
 * Each namespace has its own key: the tokens a peer learns from one say
 * nothing of the IDs of another.
 *
 * Return: 0 or a negative errno.
 */
int quic_cid_reset_token(struct net *net, const struct quic_conn_id *id, u8 *token)
{
	return quic_crypto_reset_token(&quic_net(net)->reset_mac, id, token);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cid_reset_token);

/**
 * quic_cid_is_stateless_reset - does a datagram end with a reset token of the peer's?
 * @sk: the socket, owned
 * @data: the datagram, from its first byte
 * @len: its length
 *
 * RFC 9000 Section 10.3.1: a datagram that could not be processed, at
 * least 21 bytes long, whose last 16 bytes equal the token of an ID the
 * peer issued us and we have sent to, is a Stateless Reset, whatever its
 * first packet looks like (a long header included). Tokens are compared
 * in constant time (connid.c).
 *
 * Return: true for a Stateless Reset.
 */
bool quic_cid_is_stateless_reset(struct sock *sk, const u8 *data, u32 len)
{
	sock_owned_by_me(sk);
	if (len < 5 + QUIC_CONN_ID_TOKEN_LEN)
		return false;
	return quic_conn_id_reset_matches(quic_dest(sk), data + len - QUIC_CONN_ID_TOKEN_LEN);
}

/* Our IDs the peer must still hold: those not below our Retire Prior To. */
static u32 quic_cid_live(const struct quic_conn_id_set *set)
{
	struct quic_conn_id_entry *e;
	u32 n = 0;

	list_for_each_entry(e, &set->head, list)
		if (e->number >= set->retire_prior_to)
			n++;
	return n;
}

static int quic_cid_send_new(struct sock *sk, const struct quic_conn_id *id, u64 number,
			     gfp_t gfp)
{
	struct quic_frame f = { .type = QUIC_FRAME_NEW_CONNECTION_ID };
	int err;

	f.new_cid.seqno = number;
	f.new_cid.prior_to = quic_source(sk)->retire_prior_to;
	f.new_cid.id = *id;
	err = quic_cid_reset_token(sock_net(sk), id, f.new_cid.token);
	if (err)
		return err;
	return quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, gfp);
}

/**
 * quic_cid_issue - give the peer as many of our IDs as it may hold
 * @sk: the socket, owned, with 1-RTT keys
 * @gfp: allocation flags
 *
 * Called once the handshake is done and whenever the peer retired one of
 * ours, even the last one it held. Nothing is issued on a connection
 * using zero-length IDs.
 *
 * Return: 0 or a negative errno (the IDs issued so far stay).
 */
int quic_cid_issue(struct sock *sk, gfp_t gfp)
{
	struct quic_conn_id_set *set = quic_source(sk);
	u32 want = min_t(u32, set->max_count, QUIC_CONN_ID_ISSUE_MAX);
	struct quic_conn_id id;
	int err, draws = 0;
	u64 number;

	sock_owned_by_me(sk);
	/* Zero-length IDs are never retired: there is nothing to issue. */
	if (set->active && !set->active->id.len)
		return 0;
	while (quic_cid_live(set) < want) {
		number = set->next_number;
		quic_conn_id_generate(&id, QUIC_CONN_ID_OWN_LEN);
		err = quic_conn_id_add(set, &id, number, NULL, gfp);
		/* A collision in the namespace: draw again, a few times. */
		if (err == -EADDRINUSE && ++draws < 8)
			continue;
		if (err)
			return err == -EDQUOT ? 0 : err;
		err = quic_cid_send_new(sk, &id, number, gfp);
		if (err)
			return err;
	}
	return 0;
}

/*
 * IDs of a set were retired, by either end (draft-lxin-quic-socket-apis,
 * "QUIC_EVENT_CONNECTION_ID": also when the application retired them
 * through QUIC_SOCKOPT_CONNECTION_ID): tell the application which one is
 * in use now and the lowest one still held.
 */
static void quic_cid_notify(struct sock *sk, bool dest)
{
	struct quic_conn_id_set *set = dest ? quic_dest(sk) : quic_source(sk);
	struct quic_conn_id_entry *first;

	if (!set->active || list_empty(&set->head))
		return;
	first = list_first_entry(&set->head, struct quic_conn_id_entry, list);
	quic_event_connection_id(sk, dest, set->active->number, first->number);
}

/**
 * quic_cid_retire_bound - RETIRE_CONNECTION_ID frames held at most
 * @sk: the socket
 *
 * Return: twice our active_connection_id_limit plus
 * %QUIC_CONN_ID_RETIRE_MAX.
 */
u32 quic_cid_retire_bound(const struct sock *sk)
{
	return 2 * (u32)quic_local_param(sk)->active_connection_id_limit +
	       QUIC_CONN_ID_RETIRE_MAX;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cid_retire_bound);

static int quic_cid_send_retire(struct sock *sk, u64 number, gfp_t gfp)
{
	struct quic_frame f = { .type = QUIC_FRAME_RETIRE_CONNECTION_ID };

	f.seqno = number;
	return quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, gfp);
}

/**
 * quic_cid_recv_new - apply a NEW_CONNECTION_ID frame
 * @sk: the socket, owned
 * @f: the frame
 *
 * The ID joins the peer's set (connid.c checks the limit and the rules of
 * Section 19.15). When Retire Prior To rose, the IDs below it left the set
 * and each is retired with RETIRE_CONNECTION_ID (Section 5.1.2); if the
 * one in use went, the next one is used. The application is told
 * (QUIC_EVENT_CONNECTION_ID).
 *
 * No ID we held is forgotten without being retired, however far Retire
 * Prior To jumps (it comes from the network and may jump by up to 2^62).
 * Of the numbers below it that we never received, only the last
 * %QUIC_CONN_ID_RETIRE_MAX are retired at once; a NEW_CONNECTION_ID that
 * arrives later below Retire Prior To is retired on arrival.
 * Retirements the peer has not acknowledged are bounded
 * (quic_cid_retire_bound()): past it the frame fails with -EDQUOT.
 *
 * Return: 0, or a negative errno for quic_conn_id_transport_error().
 */
int quic_cid_recv_new(struct sock *sk, const struct quic_frame *f)
{
	struct quic_conn_id_set *set = quic_dest(sk);
	u64 before = set->active ? set->active->number : 0;
	u64 prior = set->retire_prior_to, retire, window, n;
	struct quic_conn_id_entry *e;
	u32 far = 0;
	int err;

	sock_owned_by_me(sk);
	retire = max(f->new_cid.prior_to, prior);
	window = retire - min_t(u64, retire - prior, QUIC_CONN_ID_RETIRE_MAX);
	/* Held IDs below the window would leave the set unretired: count
	 * them (a frame connid.c refuses ends the connection anyway).
	 */
	if (f->new_cid.prior_to <= f->new_cid.seqno) {
		list_for_each_entry(e, &set->head, list) {
			if (e->number >= window)
				break;
			far++;
		}
	}
	/* Section 5.1.2: an endpoint SHOULD track at least twice its
	 * active_connection_id_limit of retirements not acknowledged yet;
	 * one jump of Retire Prior To may add %QUIC_CONN_ID_RETIRE_MAX more.
	 * A peer that makes us retire faster than it acknowledges gets
	 * CONNECTION_ID_LIMIT_ERROR.
	 */
	if (far + (retire - window) &&
	    quic_outq_retire_held(quic_outq(sk)) + far + (retire - window) >
	    quic_cid_retire_bound(sk))
		return -EDQUOT;
	if (far) {
		list_for_each_entry(e, &set->head, list) {
			if (e->number >= window)
				break;
			err = quic_cid_send_retire(sk, e->number, GFP_ATOMIC);
			if (err)
				return err;
		}
	}

	err = quic_conn_id_recv_new(set, f->new_cid.seqno, f->new_cid.prior_to, &f->new_cid.id,
				    f->new_cid.token, GFP_ATOMIC);
	if (err < 0)
		return err;
	if (err) {	/* Section 19.15: below Retire Prior To, arriving late */
		if (quic_outq_retire_held(quic_outq(sk)) >= quic_cid_retire_bound(sk))
			return -EDQUOT;
		return quic_cid_send_retire(sk, f->new_cid.seqno, GFP_ATOMIC);
	}
	for (n = window; n < set->retire_prior_to; n++) {
		err = quic_cid_send_retire(sk, n, GFP_ATOMIC);
		if (err)
			return err;
	}
	/* Retire Prior To rose, or the ID in use changed with it. */
	if (set->retire_prior_to > prior || (set->active && set->active->number != before))
		quic_cid_notify(sk, true);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_cid_recv_new);

/**
 * quic_cid_recv_retire - apply a RETIRE_CONNECTION_ID frame
 * @sk: the socket, owned
 * @f: the frame
 *
 * The peer no longer uses one of our IDs: it leaves the set (and the
 * lookup table) and a replacement is issued. When it was the one we put in
 * our long headers the next one takes its place. The application is told
 * of every retirement (QUIC_EVENT_CONNECTION_ID).
 *
 * Return: 0, or a negative errno for quic_conn_id_transport_error().
 */
int quic_cid_recv_retire(struct sock *sk, const struct quic_frame *f)
{
	int ret;

	sock_owned_by_me(sk);
	ret = quic_conn_id_recv_retire(quic_source(sk), f->seqno);
	if (ret <= 0)
		return ret;
	quic_cid_notify(sk, false);
	return quic_cid_issue(sk, GFP_ATOMIC);
}

/**
 * quic_cid_get_opt - QUIC_SOCKOPT_CONNECTION_ID read
 * @sk: the socket, owned
 * @len: the caller's buffer length
 * @optval: struct quic_connection_id_info: @dest in, the rest out
 * @optlen: out: the length written
 *
 * Return: 0; -EINVAL for a short buffer or @dest not 0 or 1; -ENOTCONN
 * before connect() or accept(); -EFAULT.
 */
int quic_cid_get_opt(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen)
{
	struct quic_connection_id_info info;
	struct quic_conn_id_entry *first;
	struct quic_conn_id_set *set;

	sock_owned_by_me(sk);
	if (len < sizeof(info))
		return -EINVAL;
	if (copy_from_sockptr(&info, optval, sizeof(info)))
		return -EFAULT;
	if (info.dest > 1)
		return -EINVAL;
	set = info.dest ? quic_dest(sk) : quic_source(sk);
	if (!set->active)
		return -ENOTCONN;
	first = list_first_entry(&set->head, struct quic_conn_id_entry, list);
	info.active = set->active->number;
	info.prior_to = first->number;
	len = sizeof(info);
	if (copy_to_sockptr(optval, &info, len) || copy_to_sockptr(optlen, &len, sizeof(len)))
		return -EFAULT;
	return 0;
}

/* Use the peer's ID @active and retire its IDs below @prior_to. */
static int quic_cid_set_dest(struct sock *sk, u32 active, u32 prior_to)
{
	struct quic_conn_id_set *set = quic_dest(sk);
	struct quic_conn_id_entry *e, *tmp;
	int err;

	if (prior_to > active || !quic_conn_id_find(set, active))
		return -EINVAL;
	err = quic_conn_id_set_active(set, active);
	if (err)
		return err;
	list_for_each_entry_safe(e, tmp, &set->head, list) {
		if (e->number >= prior_to)
			break;
		err = quic_cid_send_retire(sk, e->number, GFP_KERNEL);
		if (err)
			return err;
		quic_conn_id_remove(set, e->number);
	}
	return 0;
}

/* Ask the peer to retire our IDs below @prior_to, new ones first, and put
 * our ID @active in use. The peer picks which of our IDs it sends to
 * (RFC 9000 Section 5.1.2); ours in use is the one our long headers carry
 * and the option reports.
 */
static int quic_cid_set_source(struct sock *sk, u32 active, u32 prior_to)
{
	struct quic_conn_id_set *set = quic_source(sk);
	u64 keep = max_t(u64, prior_to, set->retire_prior_to);
	struct quic_conn_id_entry *e;
	int err;

	if (prior_to > set->next_number)
		return -EINVAL;
	/* An @active below the IDs kept is no choice (a program that only
	 * retires passes 0); from there on it names an ID we still hold.
	 */
	if (active >= keep && !quic_conn_id_find(set, active))
		return -EINVAL;
	if (prior_to > set->retire_prior_to) {
		err = quic_conn_id_retire_prior(set, prior_to);
		if (err)
			return err;
		/* The frames carry the new Retire Prior To; one ID at least is new. */
		err = quic_cid_issue(sk, GFP_KERNEL);
		if (err)
			return err;
	}
	if (active >= keep)
		return quic_conn_id_set_active(set, active);
	/* Otherwise the lowest ID kept (the peer may have retired some
	 * already, so it is not always @prior_to itself).
	 */
	if (set->active->number >= keep)
		return 0;
	list_for_each_entry(e, &set->head, list)
		if (e->number >= keep)
			return quic_conn_id_set_active(set, e->number);
	return 0;
}

/**
 * quic_cid_set_opt - QUIC_SOCKOPT_CONNECTION_ID write
 * @sk: the socket, owned (process context)
 * @optval: struct quic_connection_id_info
 * @optlen: its size, exactly
 *
 * With @dest 1, the peer's ID @active is used from now on and those below
 * @prior_to (at most @active) are retired. With @dest 0, the peer is asked
 * to retire our IDs below @prior_to (at most the next number to issue):
 * new IDs are issued carrying that Retire Prior To. Our ID @active is then
 * the one in use, unless it is below the IDs kept: then the lowest kept.
 * When IDs were retired, QUIC_EVENT_CONNECTION_ID reports the set as it
 * is now, as for retirements the peer causes.
 *
 * Return: 0; -EINVAL for a bad length or value, or an @active not held;
 * -ENOTCONN before the connection is established; -EFAULT; -ENOMEM.
 */
int quic_cid_set_opt(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	struct quic_connection_id_info info;
	struct quic_conn_id_set *set;
	u64 lowest, prior;
	int err;

	sock_owned_by_me(sk);
	if (optlen != sizeof(info))
		return -EINVAL;
	if (copy_from_sockptr(&info, optval, sizeof(info)))
		return -EFAULT;
	if (info.dest > 1)
		return -EINVAL;
	if (!quic_is_established(sk))
		return -ENOTCONN;
	if (!quic_source(sk)->active->id.len || !quic_dest(sk)->active->id.len)
		return -EINVAL;	/* zero-length IDs cannot change */
	set = info.dest ? quic_dest(sk) : quic_source(sk);
	lowest = list_first_entry(&set->head, struct quic_conn_id_entry, list)->number;
	prior = set->retire_prior_to;
	if (info.dest)
		err = quic_cid_set_dest(sk, info.active, info.prior_to);
	else
		err = quic_cid_set_source(sk, info.active, info.prior_to);
	if (err)
		return err;
	if (set->retire_prior_to != prior ||
	    list_first_entry(&set->head, struct quic_conn_id_entry, list)->number != lowest)
		quic_cid_notify(sk, info.dest);
	quic_xmit(sk);
	return 0;
}
