// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Connection migration (RFC 9000 Section 9).
 *
 * Peer address change, at the server (Sections 9.3 and 9.5): a non-probing
 * packet with the largest packet number so far that arrives from a new
 * client address moves the connection there at once (a NAT rebinding, or
 * the client's own migration). The new address is not validated yet:
 * until a PATH_RESPONSE echoes the PATH_CHALLENGE sent to it, at most three
 * times what it sent goes to it (Section 9.3 and 8.1), and when none comes
 * within three PTOs the connection goes back to the old address (Section
 * 9.3.2). Unless only the port changed, the congestion controller and the
 * RTT estimate start over (Section 9.4).
 *
 * Local address change, at the client (QUIC_SOCKOPT_CONNECTION_MIGRATION,
 * Section 9.2): the connection binds the new local address, moves to it
 * and to a fresh connection ID of the server's (Section 9.5: an ID is not
 * used from two addresses), retires the old ID, and sends a PING from the
 * new address; the server validates it as above. The old address is
 * released at once.
 *
 * Preferred address, server and client (Section 9.6): a server offers one
 * with QUIC_SOCKOPT_CONNECTION_MIGRATION before its handshake; the address
 * gets a tunnel of its own (path 1) and connection ID 1 goes with it in
 * the preferred_address parameter. Once the handshake is confirmed the
 * client validates the address with a PATH_CHALLENGE sent there with that
 * ID (Section 9.6.1), and moves there when the response comes: new peer
 * address, ID 1 active, ID 0 retired, a PING to the new address. The
 * server answers a challenge at its preferred address from that address,
 * probes the client from it too (Section 9.6.2), and moves its sending
 * there once its own challenge is answered and a non-probing packet with
 * a new largest packet number arrived there. Path validation frames go on
 * their own path (Section 8.2, quic_xmit_probe()). A client whose probes
 * go unanswered three times stays on the original address.
 *
 * QUIC_EVENT_CONNECTION_MIGRATION reports a completed migration:
 * local_migration 1 for ours, 0 for the peer's.
 *
 * Context: the socket is owned everywhere; the socket option runs in
 * process context, the rest in softirq or the owner's release_sock().
 */

#include <net/sock.h>

#include "connection.h"
#include "event.h"
#include "family.h"
#include "lookup.h"
#include "migrate.h"
#include "socket.h"
#include "timer.h"
#include "transmit.h"

static int quic_migrate_challenge(struct sock *sk)
{
	struct quic_frame f = { .type = QUIC_FRAME_PATH_CHALLENGE };

	memcpy(f.path_data, quic_path_challenge_new(quic_paths(sk)), QUIC_PATH_ENTROPY_LEN);
	return quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, GFP_ATOMIC);
}

/* Section 8.2.4: three PTOs, and never below six initial RTTs. */
static u64 quic_migrate_timeout(struct sock *sk)
{
	u64 pto = 3 * quic_cong_pto(quic_cong(sk), QUIC_CRYPTO_APP);

	return max_t(u64, pto, 6 * quic_config(sk)->initial_smoothed_rtt);
}

static bool quic_migrate_same_ip(const union quic_addr *a, const union quic_addr *b)
{
	if (a->sa.sa_family != b->sa.sa_family)
		return false;
	if (a->sa.sa_family == AF_INET)
		return a->v4.sin_addr.s_addr == b->v4.sin_addr.s_addr;
	return ipv6_addr_equal(&a->v6.sin6_addr, &b->v6.sin6_addr);
}

/*
 * The active path now leads to or from another address. RFC 9000 Section
 * 9.4: the congestion controller and RTT estimator start over unless only
 * the peer's port changed; Section 14: each pair of IP addresses has its
 * own PMTU, so PLPMTUD starts over as well. ECN is tested again on every
 * new path (Section 13.4.2).
 */
static void quic_migrate_new_path(struct sock *sk, bool same_ip)
{
	if (!same_ip) {
		quic_cong_reset(quic_cong(sk), quic_time_us());
		quic_xmit_pmtu_restart(sk);
	}
	quic_outq_ecn_restart(quic_outq(sk));
}

/* ------------------------------------------------- preferred address */

/* Challenges a client sends toward a preferred address before it stays. */
#define QUIC_MIGRATE_PREF_PROBES	3

/* Server: the preferred address @peer came to, by its IP version: path 1's
 * or, when the server offered one of each, QUIC_PATH_PREF2's.
 */
static u8 quic_migrate_pref_slot(struct quic_path_group *paths, const union quic_addr *peer)
{
	if (paths->path[QUIC_PATH_PREF2].udp_sk &&
	    quic_addr_family(peer) == quic_addr_family(quic_path_saddr(paths, QUIC_PATH_PREF2)))
		return QUIC_PATH_PREF2;
	return 1;
}

/* The path a preferred address probe or response takes: for the server,
 * its preferred address of @peer's IP version to @peer with the active ID; for the client, its
 * address to the server's preferred one with ID 1: the address of the
 * tunnel it opened for that path when the preferred address uses the
 * other IP version (quic_migrate_pref_prepare()), else its current one.
 */
static int quic_migrate_pref_send(struct sock *sk, const struct quic_frame *f,
				  const union quic_addr *peer)
{
	struct quic_path_group *paths = quic_paths(sk);
	struct quic_conn_id_entry *e;

	if (paths->serv) {
		e = quic_conn_id_active(quic_dest(sk));
		if (!e)
			return -EINVAL;
		return quic_xmit_probe(sk, f, &e->id,
				       quic_path_saddr(paths, quic_migrate_pref_slot(paths, peer)),
				       peer);
	}
	e = quic_conn_id_find(quic_dest(sk), 1);
	if (!e)
		return -EINVAL;
	quic_conn_id_mark_used(quic_dest(sk), e);
	return quic_xmit_probe(sk, f, &e->id,
			       quic_path_saddr(paths, paths->path[1].udp_sk ? 1 : 0),
			       quic_path_daddr(paths, 1));
}

/* A PATH_CHALLENGE on the preferred address path, toward @peer. */
static void quic_migrate_pref_challenge(struct sock *sk, const union quic_addr *peer)
{
	struct quic_frame f = { .type = QUIC_FRAME_PATH_CHALLENGE };
	struct quic_path_group *paths = quic_paths(sk);

	memcpy(f.path_data, quic_path_challenge_new(paths), QUIC_PATH_ENTROPY_LEN);
	paths->pref_state = QUIC_PATH_PREF_PROBING;
	paths->alt_probes++;
	quic_migrate_pref_send(sk, &f, peer);
}

static void quic_migrate_pref_probe(struct sock *sk)
{
	quic_migrate_pref_challenge(sk, NULL);
	quic_timer_reset(quic_timers(sk), QUIC_TIMER_PATH,
			 quic_cong_pto(quic_cong(sk), QUIC_CRYPTO_APP));
}

/* The client gives up the preferred address: the original one stays. */
static void quic_migrate_pref_abandon(struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);

	paths->pref_addr = 0;
	paths->pref_state = QUIC_PATH_PREF_NONE;
	paths->alt_probes = 0;
	/* A tunnel of the other IP version goes too (safe in softirq). */
	if (paths->path[1].udp_sk)
		quic_path_free(sk, paths, 1);
	memset(quic_path_daddr(paths, 1), 0, sizeof(union quic_addr));
	quic_path_challenge_clear(paths);
}

/* Client: the preferred address answered; move there with ID 1. */
static void quic_migrate_pref_move_client(struct sock *sk)
{
	struct quic_frame retire = { .type = QUIC_FRAME_RETIRE_CONNECTION_ID };
	struct quic_frame ping = { .type = QUIC_FRAME_PING };
	struct quic_path_group *paths = quic_paths(sk);
	struct quic_conn_id_set *set = quic_dest(sk);
	struct quic_conn_id_entry *cur = quic_conn_id_active(set);
	bool same_ip;

	quic_timer_stop(quic_timers(sk), QUIC_TIMER_PATH);
	if (!cur || quic_conn_id_set_active(set, 1)) {
		quic_migrate_pref_abandon(sk);
		return;
	}
	if (cur->number != 1) {
		retire.seqno = cur->number;
		if (!quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &retire, GFP_ATOMIC))
			quic_conn_id_remove(set, retire.seqno);
	}
	same_ip = quic_migrate_same_ip(quic_path_daddr(paths, 0), quic_path_daddr(paths, 1));
	/* The address pair is the socket's key in the lookup table. */
	quic_conn_unhash(sk);
	quic_path_swap(paths);
	/* With a tunnel of its own (the other IP version) path 1 now holds
	 * the original path: its tunnel goes, as after a local migration.
	 */
	if (paths->path[1].udp_sk) {
		quic_path_free(sk, paths, 1);
		quic_set_sk_addr(sk, quic_path_saddr(paths, 0), true);
	}
	memset(quic_path_daddr(paths, 1), 0, sizeof(union quic_addr));
	quic_path_set_alt_state(paths, QUIC_PATH_ALT_NONE);
	paths->pref_addr = 0;
	paths->pref_state = QUIC_PATH_PREF_NONE;
	quic_set_sk_addr(sk, quic_path_daddr(paths, 0), false);
	quic_conn_hash(sk);
	__sk_dst_reset(sk);
	quic_migrate_new_path(sk, same_ip);
	quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &ping, GFP_ATOMIC);
	quic_event_migration(sk, 0);
}

/* The peer's address on path 0 is validated: the anti-amplification limit
 * is gone, and with it the reason to withhold the PTO (RFC 9002 Section
 * 6.2.2.1), which the next quic_xmit() arms again.
 */
static void quic_migrate_validated(struct sock *sk)
{
	quic_path_set_validated(quic_paths(sk), true);
	quic_outq_set_amp_limited(quic_outq(sk), false);
}

/* Server: send from the preferred address from now on (Section 9.6.2). */
static void quic_migrate_pref_move_server(struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);

	/* Of two preferred addresses, the one the client came to becomes
	 * path 1 and the other one's tunnel goes.
	 */
	if (paths->pref2_used) {
		quic_path_free(sk, paths, 1);
		paths->path[1] = paths->path[QUIC_PATH_PREF2];
		paths->path[QUIC_PATH_PREF2].udp_sk = NULL;
	}
	quic_path_free(sk, paths, QUIC_PATH_PREF2);
	quic_conn_unhash(sk);
	quic_path_swap(paths);
	/* The original address stays the listener's: only our reference to
	 * its tunnel goes. Delayed packets sent there still find us by ID.
	 */
	quic_path_free(sk, paths, 1);
	paths->pref_addr = 0;
	paths->pref_moved = 0;
	paths->pref2_used = 0;
	paths->pref_state = QUIC_PATH_PREF_NONE;
	quic_set_sk_addr(sk, quic_path_saddr(paths, 0), true);
	quic_set_sk_addr(sk, quic_path_daddr(paths, 0), false);
	quic_conn_hash(sk);
	__sk_dst_reset(sk);
	/* A new path: its own congestion state (Section 9.4); our probe on it
	 * was answered, so the client's address there is validated.
	 */
	quic_migrate_new_path(sk, false);
	quic_migrate_validated(sk);
	quic_event_migration(sk, 1);
}

/* Our challenge on the preferred address path was answered. */
static void quic_migrate_pref_validated(struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);

	if (!paths->serv) {
		quic_migrate_pref_move_client(sk);
		return;
	}
	paths->pref_state = QUIC_PATH_PREF_VALIDATED;
	if (paths->pref_moved)
		quic_migrate_pref_move_server(sk);
}

/**
 * quic_migrate_pref_offer - server: offer a preferred address
 * @sk: a server's connection, owned, before its transport parameters
 *	were encoded
 * @a: the address, with a port
 *
 * RFC 9000 Section 18.2 carries an IPv4 and an IPv6 address: a second
 * offer, of the other IP version, is announced next to the first, with
 * the same connection ID; the client picks one (quic_get_pref_addr()).
 * Either may be of the other IP version than the socket's.
 *
 * Return: 0; -EINVAL once the parameters went out, for a third offer, a
 * second one of the first one's IP version, a port 0 or the address in
 * use; -ENOMEM; an errno of binding the address.
 */
static int quic_migrate_pref_offer(struct sock *sk, const union quic_addr *a)
{
	struct quic_path_group *paths = quic_paths(sk);
	bool second = paths->pref_addr;
	struct quic_conn_id cid;
	int err;

	if (!quic_is_establishing(sk) || quic_sk(sk)->local_param_sent)
		return -EINVAL;
	/* The address in use is no other path. */
	if (quic_cmp_sk_addr(sk, quic_path_saddr(paths, 0), a))
		return -EINVAL;
	err = quic_path_offer_pref_addr(sk, paths, a);
	if (err || second)
		return err;
	quic_conn_id_generate(&cid, QUIC_CONN_ID_OWN_LEN);
	err = quic_conn_id_add(quic_source(sk), &cid, 1, NULL, GFP_KERNEL);
	if (err) {
		quic_path_free(sk, paths, 1);
		paths->pref_addr = 0;
		return err;
	}
	paths->pref_state = QUIC_PATH_PREF_OFFERED;
	return 0;
}

/**
 * quic_migrate_pref_start - client: the handshake is confirmed
 * @sk: the socket, owned
 *
 * A preferred address the server offered is probed now (Section 9.6.1).
 */
void quic_migrate_pref_start(struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);

	if (paths->serv || paths->pref_state != QUIC_PATH_PREF_OFFERED)
		return;
	paths->alt_probes = 0;
	quic_migrate_pref_probe(sk);
}

/**
 * quic_migrate_pref_prepare - client: open a path of the preferred address's IP version
 * @sk: the socket, owned, in process context (binding sleeps), once the
 *	server's preferred address is recorded in path 1
 *
 * RFC 9000 Section 9.6 lets a server offer an address of either IP
 * version. One of the version the connection already uses is reached
 * from the current local address. One of the other version needs a local
 * address of that version and a UDP tunnel bound to it: the route to the
 * preferred address picks the address, and a free port is taken. An
 * IPv4 socket so gets an IPv6 tunnel, an IPV6_V6ONLY socket an IPv4 one.
 * If that fails the preferred address is given up and the client stays
 * on the original path, as when it cannot be validated (Section 9.6.1).
 */
void quic_migrate_pref_prepare(struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);
	union quic_addr sa = {};
	struct flowi fl;
	int err;

	sock_owned_by_me(sk);
	if (paths->serv || !paths->pref_addr || paths->path[1].udp_sk)
		return;
	if (quic_addr_family(quic_path_daddr(paths, 1)) ==
	    quic_addr_family(quic_path_saddr(paths, 0)))
		return;
	/* The active path's cached route is not this one. */
	sk_dst_reset(sk);
	err = quic_flow_route(sk, quic_path_daddr(paths, 1), &sa, &fl);
	sk_dst_reset(sk);
	if (err >= 0) {
		sa.v4.sin_port = 0;
		quic_path_set_saddr(paths, 1, &sa);
		err = quic_path_bind(sk, paths, 1);
	}
	if (err < 0) {
		memset(quic_path_saddr(paths, 1), 0, sizeof(union quic_addr));
		quic_migrate_pref_abandon(sk);
	}
}

/**
 * quic_migrate_alt_local - was a datagram sent to the alternate path's address
 * @sk: the QUIC socket the receive path found, not locked
 * @local: the address the datagram was sent to
 *
 * A server offering a preferred address has a local address of its own
 * on path 1 (and on QUIC_PATH_PREF2 when it offered one of each IP
 * version); it is set before the handshake and only cleared after the
 * move, so reading it unlocked gives an answer right for any datagram
 * that could be on that path. A client's path 1 tunnel (a preferred
 * address of the other IP version) may go at any time, and the client
 * does not need the answer: it tells paths apart by the peer's address.
 *
 * Return: true when @local is one of a server's preferred addresses.
 */
bool quic_migrate_alt_local(struct sock *sk, const union quic_addr *local)
{
	struct quic_path_group *paths = quic_paths(sk);

	if (!paths->serv)
		return false;
	if (READ_ONCE(paths->path[1].udp_sk) &&
	    quic_cmp_sk_addr(sk, quic_path_saddr(paths, 1), local))
		return true;
	return READ_ONCE(paths->path[QUIC_PATH_PREF2].udp_sk) &&
	       quic_cmp_sk_addr(sk, quic_path_saddr(paths, QUIC_PATH_PREF2), local);
}

/**
 * quic_migrate_pref_on_path - did a packet come on the preferred address path
 * @sk: the socket, owned
 * @alt_local: it was sent to our path 1 address (QUIC_SKB_CB())
 * @peer: the address it came from
 *
 * Return: true for a server's packet sent to its preferred address, or a
 * client's packet from the server's preferred address while it probes.
 */
bool quic_migrate_pref_on_path(struct sock *sk, bool alt_local, const union quic_addr *peer)
{
	struct quic_path_group *paths = quic_paths(sk);

	if (!paths->pref_addr || paths->pref_state == QUIC_PATH_PREF_NONE)
		return false;
	if (paths->serv)
		return alt_local;
	return quic_cmp_sk_addr(sk, quic_path_daddr(paths, 1), peer);
}

/**
 * quic_migrate_pref_respond - answer a PATH_CHALLENGE on its own path
 * @sk: the socket, owned
 * @f: the challenge
 * @peer: the address it came from
 *
 * For a challenge that came on the preferred address path (Section 8.2.2).
 * A response that cannot be sent is lost like any packet.
 */
void quic_migrate_pref_respond(struct sock *sk, const struct quic_frame *f,
			       const union quic_addr *peer)
{
	struct quic_frame resp = { .type = QUIC_FRAME_PATH_RESPONSE };

	memcpy(resp.path_data, f->path_data, sizeof(resp.path_data));
	quic_migrate_pref_send(sk, &resp, peer);
}

/**
 * quic_migrate_pref_rcvd - server: a packet arrived at the preferred address
 * @sk: the server's connection, owned
 * @peer: the address it came from
 * @moved: it is non-probing and carries the largest packet number so far
 *
 * The server probes the client from that address, and moves there once
 * both its probe was answered and such a packet came (Section 9.6.2).
 */
void quic_migrate_pref_rcvd(struct sock *sk, const union quic_addr *peer, bool moved)
{
	struct quic_path_group *paths = quic_paths(sk);

	if (!paths->serv || !paths->pref_addr || paths->pref_state == QUIC_PATH_PREF_NONE ||
	    !quic_is_established(sk))
		return;
	paths->pref2_used = quic_migrate_pref_slot(paths, peer) == QUIC_PATH_PREF2;
	quic_path_set_daddr(paths, paths->pref2_used ? QUIC_PATH_PREF2 : 1, peer);
	if (moved)
		paths->pref_moved = 1;
	if (paths->pref_state == QUIC_PATH_PREF_OFFERED ||
	    (paths->pref_state == QUIC_PATH_PREF_PROBING && moved &&
	     paths->alt_probes < QUIC_MIGRATE_PREF_PROBES))
		quic_migrate_pref_challenge(sk, peer);
	else if (paths->pref_state == QUIC_PATH_PREF_VALIDATED && paths->pref_moved)
		quic_migrate_pref_move_server(sk);
}

/* Path 0's peer becomes @peer. The address pair is the socket's key in
 * the lookup table: it leaves its bucket under the old pair and joins the
 * new one's, so that lookups and the unhash at close use the right lock.
 */
static void quic_migrate_set_peer(struct sock *sk, const union quic_addr *peer)
{
	struct quic_path_group *paths = quic_paths(sk);
	union quic_addr a = *peer;	/* may be path 1's, which stays */

	quic_conn_unhash(sk);
	quic_path_set_daddr(paths, 0, &a);
	quic_set_sk_addr(sk, &a, false);
	quic_conn_hash(sk);
}

/**
 * quic_migrate_peer_moved - the client's packets come from a new address
 * @sk: a server's connection, owned
 * @peer: the address the packet came from
 * @len: the packet's length: it counts toward what may be sent back
 *
 * The caller checked that the packet is a non-probing one carrying the
 * largest packet number received (Section 9.3).
 */
void quic_migrate_peer_moved(struct sock *sk, const union quic_addr *peer, u32 len)
{
	struct quic_path_group *paths = quic_paths(sk);
	bool same_ip;

	sock_owned_by_me(sk);
	if (!paths->serv || !quic_is_established(sk))
		return;
	same_ip = quic_migrate_same_ip(peer, quic_path_daddr(paths, 0));
	/* A move while the last one is validated replaces it; the address to
	 * go back to stays the last validated one.
	 */
	if (!quic_path_alt_state(paths, QUIC_PATH_ALT_PROBING))
		quic_path_set_daddr(paths, 1, quic_path_daddr(paths, 0));
	quic_migrate_set_peer(sk, peer);
	quic_path_set_alt_state(paths, QUIC_PATH_ALT_PROBING);
	quic_path_set_validated(paths, false);
	quic_path_ampl_rcvd(paths, len);
	__sk_dst_reset(sk);
	quic_migrate_new_path(sk, same_ip);
	if (!quic_migrate_challenge(sk))
		quic_timer_reset(quic_timers(sk), QUIC_TIMER_PATH, quic_migrate_timeout(sk));
}

/**
 * quic_migrate_path_response - a PATH_RESPONSE matched a challenge of ours
 * @sk: the socket, owned
 *
 * Completes a pending validation of the peer's new address.
 */
void quic_migrate_path_response(struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);
	u8 local = 0;

	sock_owned_by_me(sk);
	quic_path_challenge_clear(paths);
	if (paths->pref_state == QUIC_PATH_PREF_PROBING) {
		quic_migrate_pref_validated(sk);
		return;
	}
	if (!quic_path_alt_state(paths, QUIC_PATH_ALT_PROBING))
		return;
	quic_path_set_alt_state(paths, QUIC_PATH_ALT_NONE);
	quic_migrate_validated(sk);
	quic_timer_stop(quic_timers(sk), QUIC_TIMER_PATH);
	quic_event_migration(sk, local);
}

/**
 * quic_migrate_path_timeout - the new peer address was not validated in time
 * @sk: the socket, owned (the path timer's handler)
 *
 * Section 9.3.2: back to the last validated address, where what waited
 * is sent and the loss detection timer armed again.
 */
void quic_migrate_path_timeout(struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);

	if (!paths->serv && paths->pref_state == QUIC_PATH_PREF_PROBING) {
		if (paths->alt_probes < QUIC_MIGRATE_PREF_PROBES)
			quic_migrate_pref_probe(sk);
		else
			quic_migrate_pref_abandon(sk);
		return;
	}
	if (!quic_path_alt_state(paths, QUIC_PATH_ALT_PROBING))
		return;
	quic_migrate_set_peer(sk, quic_path_daddr(paths, 1));
	quic_path_set_alt_state(paths, QUIC_PATH_ALT_NONE);
	quic_migrate_validated(sk);
	quic_path_challenge_clear(paths);
	__sk_dst_reset(sk);
	/* While the new address was unvalidated the anti-amplification limit
	 * may have held data and the PTO back (RFC 9002 Section 6.2.2.1);
	 * nothing else would send them now (found by quic_explore, scenario
	 * nat_rebinding).
	 */
	quic_xmit(sk);
}

/* The next ID of the server's we have not used: one above the active one. */
static int quic_migrate_next_dcid(struct sock *sk)
{
	struct quic_conn_id_set *set = quic_dest(sk);
	struct quic_conn_id_entry *e, *cur = set->active;
	struct quic_frame f = { .type = QUIC_FRAME_RETIRE_CONNECTION_ID };
	int err;

	list_for_each_entry(e, &set->head, list)
		if (e->number > cur->number)
			break;
	if (list_entry_is_head(e, &set->head, list))
		return -EAGAIN;	/* no spare ID: the peer has not issued one */
	f.seqno = cur->number;
	err = quic_conn_id_set_active(set, e->number);
	if (err)
		return err;
	err = quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, GFP_KERNEL);
	if (!err)
		quic_conn_id_remove(set, f.seqno);
	return err;
}

/**
 * quic_migrate_local - QUIC_SOCKOPT_CONNECTION_MIGRATION: move to a new local address
 * @sk: a client's connection, owned (process context); on a server's
 *	connection before its handshake, the preferred address to offer
 * @optval: struct sockaddr_in or sockaddr_in6: the new local address (port
 *	0 picks one)
 * @optlen: its size
 *
 * Return: 0; -EINVAL for a bad address or length, or on a server once
 * its transport parameters went out; -ENOTCONN before the handshake is
 * confirmed (Section 9: no migration
 * before); -EPERM when the server sent disable_active_migration; -EAGAIN
 * when the server has not given us a spare connection ID yet; -EFAULT;
 * -EADDRINUSE or another errno from binding the address.
 */
int quic_migrate_local(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	struct quic_frame ping = { .type = QUIC_FRAME_PING };
	struct quic_path_group *paths = quic_paths(sk);
	struct sockaddr_storage ss = {};
	union quic_addr a;
	int err;

	sock_owned_by_me(sk);
	if (optlen < sizeof(struct sockaddr_in) || optlen > sizeof(ss))
		return -EINVAL;
	if (copy_from_sockptr(&ss, optval, optlen))
		return -EFAULT;
	if (paths->serv) {
		/* Either IP version, whatever the socket's family. */
		err = quic_get_user_pref_addr(&a, (struct sockaddr *)&ss, optlen);
		return err ?: quic_migrate_pref_offer(sk, &a);
	}
	if (!quic_is_established(sk) || !quic_outq(sk)->confirmed)
		return -ENOTCONN;
	if (paths->disable_saddr_alt)
		return -EPERM;
	err = quic_get_user_addr(sk, &a, (struct sockaddr *)&ss, optlen);
	if (err)
		return err;
	/* The peer stays where it is: the new address must reach it, so it
	 * is of the peer's IP version (after a move to a preferred address
	 * of the other version, not necessarily the socket's), or the
	 * dual-stack IPv6 wildcard.
	 */
	if (quic_addr_family(&a) != quic_addr_family(quic_path_daddr(paths, 0)) &&
	    !(quic_addr_is_any(&a) && a.sa.sa_family == AF_INET6 && !ipv6_only_sock(sk)))
		return -EAFNOSUPPORT;

	quic_path_set_saddr(paths, 1, &a);
	quic_path_set_daddr(paths, 1, quic_path_daddr(paths, 0));
	err = quic_path_bind(sk, paths, 1);
	if (err)
		return err;
	err = quic_migrate_next_dcid(sk);
	if (err) {
		quic_path_free(sk, paths, 1);
		return err;
	}
	/* The address pair is the socket's key in the lookup table. */
	quic_conn_unhash(sk);
	quic_path_swap(paths);
	quic_path_free(sk, paths, 1);
	quic_path_set_alt_state(paths, QUIC_PATH_ALT_NONE);
	quic_set_sk_addr(sk, quic_path_saddr(paths, 0), true);
	err = quic_conn_hash(sk);
	__sk_dst_reset(sk);
	quic_migrate_new_path(sk, false);
	/* A non-probing packet: the server moves to the new address at once. */
	if (!quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &ping, GFP_KERNEL))
		quic_xmit(sk);
	quic_event_migration(sk, 1);
	return err;
}
