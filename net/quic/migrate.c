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
	quic_path_set_daddr(paths, 0, peer);
	quic_path_set_alt_state(paths, QUIC_PATH_ALT_PROBING);
	quic_path_set_validated(paths, false);
	quic_path_ampl_rcvd(paths, len);
	__sk_dst_reset(sk);
	if (!same_ip)
		quic_cong_reset(quic_cong(sk));
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
	if (!quic_path_alt_state(paths, QUIC_PATH_ALT_PROBING))
		return;
	quic_path_set_alt_state(paths, QUIC_PATH_ALT_NONE);
	quic_path_set_validated(paths, true);
	quic_timer_stop(quic_timers(sk), QUIC_TIMER_PATH);
	quic_event_migration(sk, local);
}

/**
 * quic_migrate_path_timeout - the new peer address was not validated in time
 * @sk: the socket, owned (the path timer's handler)
 *
 * Section 9.3.2: back to the last validated address.
 */
void quic_migrate_path_timeout(struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);

	if (!quic_path_alt_state(paths, QUIC_PATH_ALT_PROBING))
		return;
	quic_path_set_daddr(paths, 0, quic_path_daddr(paths, 1));
	quic_path_set_alt_state(paths, QUIC_PATH_ALT_NONE);
	quic_path_set_validated(paths, true);
	quic_path_challenge_clear(paths);
	__sk_dst_reset(sk);
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
 * @sk: a client's connection, owned (process context)
 * @optval: struct sockaddr_in or sockaddr_in6: the new local address (port
 *	0 picks one)
 * @optlen: its size
 *
 * Return: 0; -EINVAL for a bad address or length, or on a server;
 * -ENOTCONN before the handshake is confirmed (Section 9: no migration
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
	if (paths->serv)
		return -EINVAL;
	if (!quic_is_established(sk) || !quic_outq(sk)->confirmed)
		return -ENOTCONN;
	if (paths->disable_saddr_alt)
		return -EPERM;
	err = quic_get_user_addr(sk, &a, (struct sockaddr *)&ss, optlen);
	if (err)
		return err;

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
	quic_cong_reset(quic_cong(sk));
	/* A non-probing packet: the server moves to the new address at once. */
	if (!quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &ping, GFP_KERNEL))
		quic_xmit(sk);
	quic_event_migration(sk, 1);
	return err;
}
