// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The socket calls that make a QUIC connection: bind(), connect(),
 * listen() and accept().
 *
 * Socket states (enum quic_state):
 *
 *   CLOSED --connect()--> ESTABLISHING --handshake done--> ESTABLISHED
 *   CLOSED --listen()---> LISTENING --accept()--> (new socket) ESTABLISHING
 *
 * connect() does not wait for the handshake: it picks the connection IDs,
 * installs the Initial keys and returns; the handshake then runs over
 * sendmsg()/recvmsg() on the socket, driven by the TLS library. accept()
 * takes a waiting client from the listener's queue (request.c), builds
 * its socket and replays the datagrams the client sent meanwhile.
 *
 * Locking: each call takes the socket lock itself.
 */

#include <linux/sched/signal.h>
#include <net/inet_common.h>
#include <net/sock.h>

#include "connect.h"
#include "connection.h"
#include "endpoint.h"
#include "lookup.h"
#include "packet.h"
#include "receive.h"
#include "request.h"
#include "socket.h"
#include "ticket.h"
#include "version.h"

/* The receive queue's memory bound: SO_RCVBUF, but never below twice the
 * connection window we advertise, so that out-of-order data the peer may
 * legitimately send cannot fill the buffer and keep out the bytes that
 * would let the application read (chunk headers are charged too). The
 * streams the peer opens are bounded by SO_RCVBUF as well.
 */
static void quic_conn_rcvbuf(struct sock *sk)
{
	u64 window = quic_local_param(sk)->max_data;

	quic_inq_set_max_data(quic_inq(sk), window);
	quic_inq_set_rcvbuf(quic_inq(sk), max_t(u64, READ_ONCE(sk->sk_rcvbuf),
						min_t(u64, 2 * window, U32_MAX)));
	quic_stream_set_peer_mem_limit(quic_streams(sk), READ_ONCE(sk->sk_rcvbuf));
}

/**
 * quic_conn_update_params - take changed transport parameters into use
 * @sk: the socket, owned by the caller
 *
 * A client after connect() and an accepted socket before its handshake may
 * still change their transport parameters, and a client the remembered
 * ones of its peer (QUIC_SOCKOPT_TRANSPORT_PARAM): what connect() or
 * accept() derived from them is derived again. Nothing to do before.
 *
 * Return: 0, or -ENOMEM (a client's Initial keys of the other version).
 */
int quic_conn_update_params(struct sock *sk)
{
	sock_owned_by_me(sk);
	if (!quic_is_establishing(sk))
		return 0;
	quic_conn_rcvbuf(sk);
	quic_conn_apply_remote(sk);
	/* disable_compatible_version decides whether they are needed. Once
	 * our parameters went to the TLS library (its ClientHello follows;
	 * remembered ones of the peer may still be set), the keys prepared
	 * for the connection IDs of that ClientHello stay.
	 */
	if (quic_paths(sk)->serv || quic_sk(sk)->local_param_sent)
		return 0;
	return quic_version_prepare(sk);
}

/* Bind the active path to @a (port 0: pick one); on failure nothing changes. */
static int quic_conn_bind_path(struct sock *sk, const union quic_addr *a)
{
	struct quic_path_group *paths = quic_paths(sk);
	int err;

	quic_path_set_saddr(paths, 0, a);
	err = quic_path_bind(sk, paths, 0);
	if (err) {
		memset(quic_path_saddr(paths, 0), 0, sizeof(*a));
		return err;
	}
	quic_set_sk_addr(sk, quic_path_saddr(paths, 0), true);
	return 0;
}

/**
 * quic_conn_bind - bind(): give the socket its local address and UDP tunnel
 * @sk: the socket
 * @addr: the address, in kernel memory
 * @addr_len: its length
 *
 * Several QUIC sockets may bind the same address and port: they share one
 * UDP tunnel socket, and received packets are told apart by connection ID.
 * Port 0 picks a free port of the local port range.
 *
 * Return: 0, -EINVAL when the socket is already bound or not closed, or
 * the address is malformed, -EAFNOSUPPORT for a family the socket cannot
 * use, -EADDRINUSE when a UDP socket that is not ours holds the port.
 */
int quic_conn_bind(struct sock *sk, struct sockaddr *addr, int addr_len)
{
	union quic_addr a;
	int err;

	lock_sock(sk);
	err = -EINVAL;
	if (!quic_is_closed(sk) || quic_is_bound(sk))
		goto out;
	err = quic_get_user_addr(sk, &a, addr, addr_len);
	if (err)
		goto out;
	err = quic_conn_bind_path(sk, &a);
out:
	release_sock(sk);
	return err;
}

/* Our first connection IDs: a random Destination Connection ID of 16 bytes
 * for the server's Initial keys (RFC 9000 Section 7.2: at least 8) and our own Source
 * Connection ID, which enters the global table so that replies find us.
 */
static int quic_conn_client_ids(struct sock *sk, struct quic_conn_id *dcid)
{
	struct quic_conn_id scid;
	int err;

	quic_conn_id_generate(dcid, QUIC_CONN_ID_OWN_LEN);
	quic_conn_id_generate(&scid, QUIC_CONN_ID_OWN_LEN);
	err = quic_conn_id_add(quic_dest(sk), dcid, 0, NULL, GFP_KERNEL);
	if (!err)
		err = quic_conn_id_add(quic_source(sk), &scid, 0, NULL, GFP_KERNEL);
	if (!err)
		quic_path_set_orig_dcid(quic_paths(sk), dcid);
	return err;
}

/* Undo the connection part of a failed connect() or accept(). */
static void quic_conn_reset(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);

	quic_stream_table_free(&qs->streams);
	quic_conn_id_set_free(&qs->source);
	quic_conn_id_set_free(&qs->dest);
	quic_crypto_destroy(quic_crypto(sk, QUIC_CRYPTO_INITIAL));
}

/**
 * quic_conn_connect - connect(): start a client connection to @addr
 * @sk: the socket, locked by the caller
 * @addr: the server's address, in kernel memory
 * @addr_len: its length
 *
 * An unbound socket is bound to the source address of the route and a
 * free port first. The connection IDs are picked, the Initial keys of the
 * configured version installed (RFC 9001 Section 5.2) and the socket moves
 * to ESTABLISHING; the handshake is left to the caller.
 *
 * Return: 0, -EISCONN when already connected or connecting, -EINVAL on a
 * listening socket or for an unusable address (wildcard, port 0),
 * -ENETUNREACH and other route errors, or the errors of bind().
 */
int quic_conn_connect(struct sock *sk, struct sockaddr *addr, int addr_len)
{
	struct quic_path_group *paths = quic_paths(sk);
	struct quic_config *c = quic_config(sk);
	union quic_addr da, sa = {}, bound_sa;
	struct quic_conn_id dcid;
	bool bound;
	int err;

	sock_owned_by_me(sk);
	if (quic_is_establishing(sk) || quic_is_established(sk))
		return -EISCONN;
	if (!quic_is_closed(sk))
		return -EINVAL;
	err = quic_get_user_addr(sk, &da, addr, addr_len);
	if (err)
		return err;
	if (quic_addr_is_any(&da) || !da.v4.sin_port)
		return -EINVAL;

	/* The route picks the source address when the socket has none, or is
	 * bound to the wildcard: the connection is then known by the address
	 * its packets really leave from (and the lookups hash on it).
	 */
	bound = quic_is_bound(sk);
	bound_sa = *quic_path_saddr(paths, 0);
	if (bound && !quic_addr_is_any(&bound_sa))
		sa = *quic_path_saddr(paths, 0);
	sk_dst_reset(sk);
	err = quic_flow_route(sk, &da, &sa, &paths->fl);
	if (err < 0)
		return err;
	if (!bound) {
		err = quic_conn_bind_path(sk, &sa);
		if (err)
			goto out_route;
	} else {
		sa.v4.sin_port = bound_sa.v4.sin_port;
		quic_path_set_saddr(paths, 0, &sa);
		quic_set_sk_addr(sk, &sa, true);
	}
	quic_path_set_daddr(paths, 0, &da);
	quic_set_sk_addr(sk, &da, false);

	err = quic_stream_table_init(quic_streams(sk), false, GFP_KERNEL);
	if (err)
		goto out_unbind;
	err = quic_conn_client_ids(sk, &dcid);
	if (err)
		goto out_reset;
	/* A version we do not speak only provokes Version Negotiation
	 * (packet.c): its packets are protected as version 1's.
	 */
	err = quic_crypto_initial_keys_install(quic_crypto(sk, QUIC_CRYPTO_INITIAL), &dcid,
					       quic_packet_version_supported(c->version) ?
					       c->version : QUIC_VERSION_V1, false);
	if (!err)
		err = quic_version_prepare(sk);
	if (err)
		goto out_reset;
	quic_sk(sk)->orig_version = c->version;
	quic_conn_rcvbuf(sk);
	quic_conn_apply_remote(sk);

	quic_set_state(sk, QUIC_SS_ESTABLISHING);
	WRITE_ONCE(quic_inq(sk)->crypto_only, 1);
	err = sk->sk_prot->hash(sk);
	if (err)
		goto out_closed;
	return 0;

out_closed:
	inet_sk_set_state(sk, QUIC_SS_CLOSED);
out_reset:
	quic_conn_reset(sk);
out_unbind:
	memset(quic_path_daddr(paths, 0), 0, sizeof(da));
	quic_set_sk_addr(sk, quic_path_daddr(paths, 0), false);
	if (!bound) {
		quic_path_free(sk, paths, 0);
		memset(&bound_sa, 0, sizeof(bound_sa));
	}
	quic_path_set_saddr(paths, 0, &bound_sa);
	quic_set_sk_addr(sk, &bound_sa, true);
out_route:
	sk_dst_reset(sk);
	return err;
}

/**
 * quic_conn_listen_stop - a listener stops listening
 * @sk: the listening socket, owned by the caller
 *
 * listen() with a backlog of 0, and shutdown() with SHUT_RD
 * (draft-lxin-quic-socket-apis: "connection requests SHOULD be discard
 * quietly"): the clients waiting for accept() are dropped and the socket
 * is closed, a client again until it listens again.
 */
void quic_conn_listen_stop(struct sock *sk)
{
	sock_owned_by_me(sk);
	quic_conn_requests_purge(sk);
	quic_set_state(sk, QUIC_SS_CLOSED);
	quic_paths(sk)->serv = 0;
}

/**
 * quic_conn_listen - listen(): accept connections on the bound address
 * @sock: the socket
 * @backlog: how many clients may wait for accept(); a new client beyond
 *	that is not queued. 0 stops listening (draft-lxin-quic-socket-apis)
 *
 * Calling it again on a listening socket only changes the backlog.
 *
 * Listeners may share an address when each has its own protocols
 * (QUIC_SOCKOPT_ALPN before listen()): new clients are routed by the
 * protocols they offer (alpn.c).
 *
 * Return: 0, -EINVAL when the socket is not bound or is connected,
 * -EADDRINUSE when another socket listens on an overlapping address and
 * the two may not share it, -ENOMEM.
 */
int quic_conn_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;
	int err = 0;

	lock_sock(sk);
	/* draft-lxin-quic-socket-apis, listen(): "If backlog is non-zero,
	 * enable listening, else disable listening": the clients waiting for
	 * accept() are dropped and the socket is closed, ready to listen again.
	 */
	if (!backlog) {
		if (quic_is_listen(sk))
			quic_conn_listen_stop(sk);
		goto out;
	}
	WRITE_ONCE(sk->sk_max_ack_backlog, max(backlog, 0));
	if (quic_is_listen(sk))
		goto out;
	err = -EINVAL;
	if (!quic_is_closed(sk) || !quic_is_bound(sk))
		goto out;
	err = quic_ticket_key_init(sk);
	if (!err)
		err = quic_alpn_listen_start(sk);
	if (err)
		goto out;
	quic_paths(sk)->serv = 1;
	quic_set_state(sk, QUIC_SS_LISTENING);
	err = sk->sk_prot->hash(sk);
	if (err) {
		inet_sk_set_state(sk, QUIC_SS_CLOSED);
		quic_alpn_listen_stop(sk);
	}
out:
	release_sock(sk);
	return err;
}

/* Wait until a client is queued, like inet_csk_wait_for_connect(). */
static int quic_conn_wait_request(struct sock *sk, long timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct quic_sock *qs = quic_sk(sk);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		if (!list_empty(&qs->requests))
			break;
		if (!quic_is_listen(sk)) {
			err = -EINVAL;
			break;
		}
		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(timeo);
			break;
		}
		sk_wait_event(sk, &timeo, !list_empty(&qs->requests) || !quic_is_listen(sk),
			      &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/* A fresh socket of the listener's family, type and IP settings. */
static struct sock *quic_conn_alloc_child(struct sock *sk, bool kern)
{
	struct inet_sock *inet = inet_sk(sk), *newinet;
	struct sock *newsk;

	newsk = sk_alloc(sock_net(sk), sk->sk_family, GFP_KERNEL, sk->sk_prot, kern);
	if (!newsk)
		return NULL;
	sock_init_data(NULL, newsk);

	newsk->sk_type = sk->sk_type;
	newsk->sk_protocol = IPPROTO_QUIC;
	newsk->sk_backlog_rcv = sk->sk_prot->backlog_rcv;
	/* Never the listener's: net/handshake wraps the destructor of a
	 * socket with a pending request, and that wrapper is not ours to copy.
	 */
	newsk->sk_destruct = inet_sock_destruct;
	newsk->sk_bound_dev_if = sk->sk_bound_dev_if;
	newsk->sk_mark = READ_ONCE(sk->sk_mark);
	newsk->sk_rcvtimeo = sk->sk_rcvtimeo;
	newsk->sk_sndtimeo = sk->sk_sndtimeo;
	newsk->sk_lingertime = sk->sk_lingertime;
	newsk->sk_ipv6only = sk->sk_ipv6only;

	newinet = inet_sk(newsk);
	newinet->uc_ttl = inet->uc_ttl;
	newinet->pmtudisc = inet->pmtudisc;
	newinet->mc_ttl = 1;
	inet_set_bit(MC_LOOP, newsk);
	atomic_set(&newinet->inet_id, get_random_u16());

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		struct ipv6_pinfo *np;

		/* Fresh IPv6 options: the listener's own ones (sticky
		 * options, flow labels) hold references we must not share.
		 */
		newinet->pinet6 = &((struct quic6_sock *)newsk)->inet6;
		RCU_INIT_POINTER(newinet->ipv6_fl_list, NULL);
		np = inet6_sk(newsk);
		np->hop_limit = inet6_sk(sk)->hop_limit;
		np->mcast_hops = IPV6_DEFAULT_MCASTHOPS;
		np->pmtudisc = inet6_sk(sk)->pmtudisc;
		np->tclass = inet6_sk(sk)->tclass;
		inet6_set_bit(MC6_LOOP, newsk);
	}
#endif

	if (newsk->sk_prot->init(newsk)) {
		sk_common_release(newsk);
		return NULL;
	}
	return newsk;
}

/* Settings a new connection takes over from its listener. */
static int quic_conn_inherit(struct sock *newsk, struct sock *sk)
{
	struct quic_sock *nqs = quic_sk(newsk), *qs = quic_sk(sk);
	int err;

	nqs->config = qs->config;
	nqs->keepalive_interval = qs->keepalive_interval;
	/* As TCP's children (sk_clone_lock()): the listener's buffer sizes,
	 * and whether the application fixed them.
	 */
	WRITE_ONCE(newsk->sk_sndbuf, READ_ONCE(sk->sk_sndbuf));
	WRITE_ONCE(newsk->sk_rcvbuf, READ_ONCE(sk->sk_rcvbuf));
	newsk->sk_userlocks |= sk->sk_userlocks & (SOCK_SNDBUF_LOCK | SOCK_RCVBUF_LOCK);
	nqs->local_param = qs->local_param;
	nqs->events = qs->events;
	err = quic_cong_set_config(&nqs->cong, &nqs->config);
	if (!err && qs->alpn.len)
		err = quic_data_dup(&nqs->alpn, qs->alpn.data, qs->alpn.len, GFP_KERNEL);
	return err;
}

/* Set up the server side of the connection @req asked for on @newsk. */
static int quic_conn_accept_request(struct sock *newsk, struct sock *sk,
				    struct quic_request *req)
{
	struct quic_path_group *paths = quic_paths(newsk);
	union quic_addr sa = req->saddr;
	struct quic_conn_id scid;
	struct sk_buff *skb;
	int err;

	/* The listener's lock is held: the child's is a second one of the
	 * same class.
	 */
	lock_sock_nested(newsk, SINGLE_DEPTH_NESTING);
	err = quic_conn_inherit(newsk, sk);
	if (err)
		goto out;

	paths->serv = 1;
	paths->validated = 0;
	/* The listener's port: the child shares its UDP tunnel. */
	sa.v4.sin_port = quic_path_saddr(quic_paths(sk), 0)->v4.sin_port;
	err = quic_conn_bind_path(newsk, &sa);
	if (err)
		goto out;
	quic_path_set_daddr(paths, 0, &req->daddr);
	quic_set_sk_addr(newsk, &req->daddr, false);

	err = quic_stream_table_init(quic_streams(newsk), true, GFP_KERNEL);
	if (err)
		goto out;
	quic_conn_id_generate(&scid, QUIC_CONN_ID_OWN_LEN);
	err = quic_conn_id_add(quic_dest(newsk), &req->scid, 0, NULL, GFP_KERNEL);
	if (!err)
		err = quic_conn_id_add(quic_source(newsk), &scid, 0, NULL, GFP_KERNEL);
	if (err)
		goto out;
	/* RFC 9000 Section 7.3: after a Retry the original ID is the token's,
	 * and the Retry's Source Connection ID is the one the client now uses.
	 */
	if (req->retry) {
		quic_path_set_orig_dcid(paths, &req->odcid);
		paths->retry = 1;
		paths->retry_dcid = req->dcid;
	} else {
		quic_path_set_orig_dcid(paths, &req->dcid);
	}
	quic_sk(newsk)->peer_scid = req->scid;
	quic_sk(newsk)->peer_scid_set = 1;
	err = quic_crypto_initial_keys_install(quic_crypto(newsk, QUIC_CRYPTO_INITIAL),
					       &req->dcid, req->version, true);
	if (err)
		goto out;
	/* The listener's version is the one preferred (version.c). */
	quic_sk(newsk)->pref_version = quic_config(newsk)->version;
	quic_sk(newsk)->orig_version = req->version;
	quic_config(newsk)->version = req->version;
	/* The ticket key, from the listener's: any connection resumes the
	 * sessions of the others of its version and parameters (ticket.c).
	 */
	err = quic_ticket_key_bind(newsk, sk);
	if (err)
		goto out;

	quic_outq(newsk)->is_serv = 1;
	/* RFC 9002 Appendix A.8: a server takes its own address as validated. */
	quic_outq_set_peer_validated(quic_outq(newsk));
	/* A token proved the client's address: no amplification limit. */
	if (req->validated)
		quic_path_set_validated(paths, true);
	quic_conn_rcvbuf(newsk);
	quic_conn_apply_remote(newsk);

	quic_set_state(newsk, QUIC_SS_ESTABLISHING);
	WRITE_ONCE(quic_inq(newsk)->crypto_only, 1);
	err = newsk->sk_prot->hash(newsk);
	if (err)
		goto out;
	/* The client's first datagrams, kept by the listener. */
	while ((skb = __skb_dequeue(&req->skbs)))
		quic_rcv_backlog(newsk, skb);
out:
	release_sock(newsk);
	return err;
}

/**
 * quic_conn_accept - accept(): take the next client of a listener
 * @sk: the listening socket
 * @arg: accept flags (O_NONBLOCK), kern, and the error on failure
 *
 * Blocks for up to SO_RCVTIMEO (forever by default) unless non-blocking;
 * a signal ends the wait. The new socket is in ESTABLISHING: its Initial
 * keys are those of the client's first Destination Connection ID, and the
 * server side of the handshake runs on it.
 *
 * Return: the new socket, or NULL with @arg->err set: -EINVAL when @sk
 * does not listen, -EAGAIN when non-blocking (or the timeout passed) with
 * nobody waiting, -ERESTARTSYS or -EINTR on a signal, -ENOMEM.
 */
struct sock *quic_conn_accept(struct sock *sk, struct proto_accept_arg *arg)
{
	struct quic_sock *qs = quic_sk(sk);
	struct quic_request *req;
	struct sock *newsk = NULL;
	int err;

	lock_sock(sk);
	err = -EINVAL;
	if (!quic_is_listen(sk))
		goto out;
	err = quic_conn_wait_request(sk, sock_rcvtimeo(sk, arg->flags & O_NONBLOCK));
	if (err)
		goto out;

	req = list_first_entry(&qs->requests, struct quic_request, list);
	list_del_rcu(&req->list);
	qs->request_count--;

	err = -ENOMEM;
	newsk = quic_conn_alloc_child(sk, arg->kern);
	if (newsk) {
		err = quic_conn_accept_request(newsk, sk, req);
		if (err) {
			sk_common_release(newsk);
			newsk = NULL;
		}
	}
	quic_conn_request_free(req);
out:
	release_sock(sk);
	arg->err = err;
	return newsk;
}
