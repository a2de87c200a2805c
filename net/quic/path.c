// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC paths and UDP tunnel sockets.
 *
 * Every local address and port QUIC listens on is one kernel UDP socket
 * set up as a UDP tunnel: received datagrams and ICMP errors are handed to
 * the struct quic_udp_ops of the path group that created it, which finds
 * the connection. Paths of any number of QUIC sockets bound to the same
 * address share the tunnel, counting references. Creating a tunnel sleeps
 * (process context, under the mutex of its QUIC_HT_UDP_SOCK bucket);
 * dropping the last reference may happen in atomic context, so closing it
 * is left to a work item, which unhashes it under the same mutex.
 *
 * A path group holds the active path and one alternate path (connection
 * migration, RFC 9000 Section 9), the data of the PATH_CHALLENGE frames
 * sent (Section 8.2), the anti-amplification counters (Section 8.1), the
 * connection IDs checked against the transport parameters (Section 7.3)
 * and the PLPMTUD state of the active path (pmtu.c).
 */

#include <crypto/utils.h>
#include <linux/mutex.h>
#include <linux/quic.h>
#include <linux/random.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/udp_tunnel.h>

#include "family.h"
#include "param.h"
#include "path.h"

/* Workqueue closing released tunnels; created with the first tunnel. */
static struct workqueue_struct *quic_path_wq;
static DEFINE_MUTEX(quic_path_wq_lock);

static struct workqueue_struct *quic_path_get_wq(void)
{
	struct workqueue_struct *wq;

	mutex_lock(&quic_path_wq_lock);
	if (!quic_path_wq)
		WRITE_ONCE(quic_path_wq, alloc_workqueue("quic_path", 0, 0));
	wq = quic_path_wq;
	mutex_unlock(&quic_path_wq_lock);
	return wq;
}

/* encap_rcv: a datagram for one of the connections using this tunnel. */
VISIBLE_IF_QUIC_KUNIT int quic_udp_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct quic_udp_sock *us = rcu_dereference_sk_user_data(sk);

	/* The tunnel is being closed. */
	if (!us) {
		kfree_skb(skb);
		return 0;
	}
	us->ops->rcv(sk, skb);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_udp_rcv);

/*
 * encap_err_rcv: an ICMP error about a datagram we sent. skb->data is at
 * the quoted IP header, the transport header at the ICMP header and
 * @payload just past the quoted UDP header. Only "packet too big" matters
 * to QUIC (RFC 9000 Section 14.2.1); the other errors are left to UDP.
 */
VISIBLE_IF_QUIC_KUNIT void quic_udp_err(struct sock *sk, struct sk_buff *skb, int err,
					__be16 port, u32 info, u8 *payload)
{
	struct quic_udp_sock *us = rcu_dereference_sk_user_data(sk);
	u16 network = skb->network_header;
	u16 transport = skb->transport_header;
	u32 mtu;

	if (!us || quic_get_mtu_info(skb, &mtu))
		return;

	/* Present the quoted datagram the way a received one looks. */
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, payload - sizeof(struct udphdr) - skb->data);
	us->ops->toobig(sk, skb, mtu);
	skb->network_header = network;
	skb->transport_header = transport;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_udp_err);

static void quic_udp_sock_destroy(struct work_struct *work)
{
	struct quic_udp_sock *us = container_of(work, struct quic_udp_sock, work);
	struct quic_hash_head *head;

	head = quic_udp_sock_head(us->net, ntohs(us->addr.v4.sin_port));
	mutex_lock(&head->m_lock);
	hlist_del_rcu(&us->node);
	/* Waits for readers of sk_user_data, so @us may be freed after it. */
	udp_tunnel_sock_release(us->sk->sk_socket);
	mutex_unlock(&head->m_lock);
	kfree(us);
}

static void quic_udp_sock_put(struct quic_udp_sock *us)
{
	if (us && refcount_dec_and_test(&us->refcnt))
		queue_work(READ_ONCE(quic_path_wq), &us->work);
}

/* Create a tunnel bound to @a and hash it; the bucket mutex is held. */
static struct quic_udp_sock *quic_udp_sock_create(struct sock *sk, const struct quic_udp_ops *ops,
						  const union quic_addr *a)
{
	struct udp_tunnel_sock_cfg tuncfg = {};
	struct udp_port_cfg conf = {};
	struct net *net = sock_net(sk);
	struct quic_hash_head *head;
	struct quic_udp_sock *us;
	struct socket *sock;
	int err;

	us = kzalloc(sizeof(*us), GFP_KERNEL);
	if (!us)
		return ERR_PTR(-ENOMEM);

	quic_udp_conf_init(sk, &conf, a);
	err = udp_sock_create(net, &conf, &sock);
	if (err) {
		kfree(us);
		return ERR_PTR(err);
	}

	INIT_WORK(&us->work, quic_udp_sock_destroy);
	refcount_set(&us->refcnt, 1);
	us->addr = *a;
	us->ops = ops;
	us->net = net;
	us->sk = sock->sk;
	us->owner = sk->sk_uid;

	tuncfg.sk_user_data = us;
	/* Any non-zero type makes UDP hand datagrams to encap_rcv. */
	tuncfg.encap_type = 1;
	tuncfg.encap_rcv = quic_udp_rcv;
	tuncfg.encap_err_rcv = quic_udp_err;
	setup_udp_tunnel_sock(net, sock, &tuncfg);

	head = quic_udp_sock_head(net, ntohs(a->v4.sin_port));
	hlist_add_head_rcu(&us->node, &head->head);
	return us;
}

/*
 * The tunnel in @head that can serve @a: one bound to that very address, or
 * to the wildcard address covering it. A wildcard request needs a wildcard
 * tunnel: one bound to a single address would miss the others.
 */
static struct quic_udp_sock *quic_udp_sock_find(struct quic_hash_head *head, struct net *net,
						const struct quic_udp_ops *ops,
						const union quic_addr *a)
{
	struct quic_udp_sock *us;

	hlist_for_each_entry(us, &head->head, node) {
		if (!net_eq(us->net, net) || us->ops != ops)
			continue;
		if (quic_addr_is_any(a) && !quic_addr_is_any(&us->addr))
			continue;
		if (quic_cmp_sk_addr(us->sk, &us->addr, a))
			return us;
	}
	return NULL;
}

/* Whether a tunnel of @net holds @port; @dying: only ones being released. */
static bool quic_udp_port_used(struct quic_hash_head *head, struct net *net, u16 port,
			       bool dying)
{
	struct quic_udp_sock *us;

	hlist_for_each_entry(us, &head->head, node) {
		if (!net_eq(us->net, net) || ntohs(us->addr.v4.sin_port) != port)
			continue;
		if (!dying || !refcount_read(&us->refcnt))
			return true;
	}
	return false;
}

/* Take a reference on the tunnel for @a (port set), creating it if needed. */
static struct quic_udp_sock *quic_udp_sock_bind_port(struct sock *sk,
						     const struct quic_udp_ops *ops,
						     const union quic_addr *a)
{
	u16 port = ntohs(a->v4.sin_port);
	struct net *net = sock_net(sk);
	struct quic_hash_head *head;
	struct quic_udp_sock *us;

	head = quic_udp_sock_head(net, port);
	for (;;) {
		mutex_lock(&head->m_lock);
		us = quic_udp_sock_find(head, net, ops, a);
		if (us) {
			/* Another user's port is not ours to share (the rule
			 * of SO_REUSEPORT); the kernel's own sockets may.
			 */
			if (!sk->sk_kern_sock && !uid_eq(us->owner, sk->sk_uid)) {
				us = ERR_PTR(-EADDRINUSE);
				break;
			}
			if (refcount_inc_not_zero(&us->refcnt))
				break;
		} else {
			us = quic_udp_sock_create(sk, ops, a);
			if (!IS_ERR(us) || PTR_ERR(us) != -EADDRINUSE ||
			    !quic_udp_port_used(head, net, port, true))
				break;
		}
		/*
		 * The port is held by a tunnel whose last reference is gone:
		 * wait for its work item to close it, then look again.
		 */
		mutex_unlock(&head->m_lock);
		flush_workqueue(quic_path_wq);
		cond_resched();
	}
	mutex_unlock(&head->m_lock);
	return us;
}

/*
 * Create a tunnel on a free port of the socket's local port range, starting
 * at a random one and skipping reserved ports; the port is stored in @a.
 */
static struct quic_udp_sock *quic_udp_sock_bind_any(struct sock *sk,
						    const struct quic_udp_ops *ops,
						    union quic_addr *a)
{
	struct net *net = sock_net(sk);
	int low, high, remaining, port;
	struct quic_hash_head *head;
	struct quic_udp_sock *us;

	inet_sk_get_local_port_range(sk, &low, &high);
	remaining = high - low + 1;
	if (remaining <= 0)
		return ERR_PTR(-EADDRINUSE);

	port = low + get_random_u32_below(remaining);
	for (; remaining > 0; remaining--, port = port < high ? port + 1 : low) {
		if (inet_is_local_reserved_port(net, port))
			continue;

		head = quic_udp_sock_head(net, port);
		mutex_lock(&head->m_lock);
		if (quic_udp_port_used(head, net, port, false)) {
			mutex_unlock(&head->m_lock);
			continue;
		}
		a->v4.sin_port = htons(port);
		us = quic_udp_sock_create(sk, ops, a);
		mutex_unlock(&head->m_lock);
		/* A plain UDP socket may hold the port: try the next one. */
		if (!IS_ERR(us) || PTR_ERR(us) != -EADDRINUSE)
			return us;
		cond_resched();
	}
	return ERR_PTR(-EADDRINUSE);
}

/**
 * quic_path_group_init - set up the path group of a new socket
 * @paths: the group (all of it is reset)
 * @ops: receive callbacks for the tunnels the group creates
 * @serv: true on the server side
 *
 * Only a server starts with an unvalidated peer address (RFC 9000 Section
 * 8.1: clients are only limited by congestion control). PLPMTUD starts
 * DISABLED.
 */
void quic_path_group_init(struct quic_path_group *paths, const struct quic_udp_ops *ops,
			  bool serv)
{
	memset(paths, 0, sizeof(*paths));
	paths->ops = ops;
	paths->serv = serv;
	paths->validated = !serv;
	paths->alt_state = QUIC_PATH_ALT_NONE;
	quic_plpmtud_init(&paths->pl);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_group_init);

/**
 * quic_path_bind - bind a path's local address to a UDP tunnel socket
 * @sk: the QUIC socket (namespace, IPV6_V6ONLY, local port range)
 * @paths: its path group
 * @path: 0 (active), 1 (alternate) or %QUIC_PATH_PREF2
 *
 * The active path's address must suit the socket's family. The others
 * may use the other IP version (a server's preferred address, RFC
 * 9000 Section 9.6): its tunnel is a UDP socket of the address's own
 * family, an IPv6 one IPV6_V6ONLY.
 *
 * With a port in the path's local address, the tunnel of that address is
 * shared or created. With port 0, a free port of the local port range is
 * picked at random (reserved ports skipped) and written into the path's
 * address. The path's previous tunnel, if any, is released. Must be
 * called in process context.
 *
 * A user's socket binds a port below ip_unprivileged_port_start only with
 * CAP_NET_BIND_SERVICE, and shares a tunnel only with sockets of the same
 * owner (its uid); the kernel's own sockets are exempt from both.
 *
 * Return: 0, -EACCES for a privileged port without the capability,
 * -EADDRINUSE when the port is taken (by another owner's tunnel too) or
 * no port is left,
 * -EINVAL for a bad path or an IPv4-mapped address on an IPV6_V6ONLY
 * socket, -EAFNOSUPPORT for an address family the socket cannot use, or
 * another negative errno from creating the UDP socket.
 */
int quic_path_bind(struct sock *sk, struct quic_path_group *paths, u8 path)
{
	struct quic_udp_sock *us, *old;
	union quic_addr a;

	if (path > QUIC_PATH_PREF2 || !paths->ops)
		return -EINVAL;
	a = *quic_path_saddr(paths, path);
	if (a.sa.sa_family == AF_INET6) {
		if (sk->sk_family != AF_INET6 && !path)
			return -EAFNOSUPPORT;
		/* IPV6_V6ONLY: no IPv4 traffic, mapped addresses included. */
		if (ipv6_only_sock(sk) && ipv6_addr_v4mapped(&a.v6.sin6_addr))
			return -EINVAL;
	} else if (a.sa.sa_family != AF_INET || (ipv6_only_sock(sk) && !path)) {
		return -EAFNOSUPPORT;
	}
	if (!quic_path_get_wq())
		return -ENOMEM;
	/* Ports below ip_unprivileged_port_start, as for UDP and TCP. */
	if (a.v4.sin_port && !sk->sk_kern_sock &&
	    inet_port_requires_bind_service(sock_net(sk), ntohs(a.v4.sin_port)) &&
	    !ns_capable(sock_net(sk)->user_ns, CAP_NET_BIND_SERVICE))
		return -EACCES;

	if (a.v4.sin_port)
		us = quic_udp_sock_bind_port(sk, paths->ops, &a);
	else
		us = quic_udp_sock_bind_any(sk, paths->ops, &a);
	if (IS_ERR(us))
		return PTR_ERR(us);

	old = paths->path[path].udp_sk;
	paths->path[path].udp_sk = us;
	quic_path_saddr(paths, path)->v4.sin_port = a.v4.sin_port;
	quic_udp_sock_put(old);
	/* The cached route was looked up from the old source address. */
	if (!path)
		sk_dst_reset(sk);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_bind);

/**
 * quic_path_free - release a path's tunnel and forget its addresses
 * @sk: the QUIC socket
 * @paths: its path group
 * @path: 0 or 1
 *
 * Also ends any migration in progress. Safe in atomic context.
 */
void quic_path_free(struct sock *sk, struct quic_path_group *paths, u8 path)
{
	paths->alt_probes = 0;
	paths->alt_state = QUIC_PATH_ALT_NONE;

	quic_udp_sock_put(paths->path[path].udp_sk);
	paths->path[path].udp_sk = NULL;
	memset(quic_path_daddr(paths, path), 0, sizeof(union quic_addr));
	memset(quic_path_saddr(paths, path), 0, sizeof(union quic_addr));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_free);

/**
 * quic_path_swap - make the alternate path the active one
 * @paths: the path group
 *
 * When the alternate path has a tunnel of its own (a new local address),
 * the two paths are exchanged whole. Otherwise the alternate path only
 * differs by its peer address, and just the peer addresses are exchanged:
 * the local address and tunnel stay. The caller restarts PLPMTUD and
 * drops its cached route for the new active path.
 */
void quic_path_swap(struct quic_path_group *paths)
{
	struct quic_path tmp = paths->path[0];

	paths->alt_probes = 0;
	paths->alt_state = QUIC_PATH_ALT_SWAPPED;

	if (paths->path[1].udp_sk) {
		paths->path[0] = paths->path[1];
		paths->path[1] = tmp;
		return;
	}
	paths->path[0].daddr = paths->path[1].daddr;
	paths->path[1].daddr = tmp.daddr;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_swap);

/**
 * quic_path_detect_alt - classify a received packet by the path it used
 * @paths: the path group
 * @sa: local address the packet arrived on (its destination)
 * @da: peer address it came from (its source)
 * @sk: the QUIC socket (for address comparison)
 *
 * RFC 9000 Section 9: when the peer sent disable_active_migration our
 * local address must not change, and when we sent it the peer's must not
 * - except toward a preferred address (Section 9.6). A client never
 * learns a new server address from a packet: it only accepts the one it
 * is probing (path 1). The first packet on a new path records its
 * addresses in path 1; packets from yet another path are refused while
 * path 1 is in use.
 *
 * Return: 0 for the active path, 1 for the alternate path, -EPERM for a
 * path migration rules forbid (the packet should be dropped), -EBUSY for
 * a third path.
 */
int quic_path_detect_alt(struct quic_path_group *paths, const union quic_addr *sa,
			 const union quic_addr *da, struct sock *sk)
{
	bool local = !quic_cmp_sk_addr(sk, quic_path_saddr(paths, 0), sa);
	bool peer = !quic_cmp_sk_addr(sk, quic_path_daddr(paths, 0), da);
	union quic_addr *alt_sa = quic_path_saddr(paths, 1);
	union quic_addr *alt_da = quic_path_daddr(paths, 1);
	bool alt_sa_set = !!alt_sa->v4.sin_port;
	bool alt_da_set = !!alt_da->v4.sin_port;
	bool pref;

	if (!local && !peer)
		return 0;

	if (paths->serv)
		pref = alt_sa_set && quic_cmp_sk_addr(sk, alt_sa, sa);
	else
		pref = alt_da_set && quic_cmp_sk_addr(sk, alt_da, da);
	pref = pref && paths->pref_addr;

	if (local && paths->disable_saddr_alt && !pref)
		return -EPERM;
	if (peer && paths->disable_daddr_alt && !pref)
		return -EPERM;
	if (peer && !paths->serv && !(alt_da_set && quic_cmp_sk_addr(sk, alt_da, da)))
		return -EPERM;

	if (alt_sa_set && !quic_cmp_sk_addr(sk, alt_sa, sa))
		return -EBUSY;
	if (alt_da_set && !quic_cmp_sk_addr(sk, alt_da, da))
		return -EBUSY;

	if (!alt_sa_set)
		quic_path_set_saddr(paths, 1, sa);
	if (!alt_da_set)
		quic_path_set_daddr(paths, 1, da);
	return 1;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_detect_alt);

/**
 * quic_path_get_param - report disable_active_migration
 * @paths: the path group
 * @p: transport parameters; @p->remote selects whose value is wanted
 */
void quic_path_get_param(const struct quic_path_group *paths, struct quic_transport_param *p)
{
	if (p->remote) {
		p->disable_active_migration = paths->disable_saddr_alt;
		return;
	}
	p->disable_active_migration = paths->disable_daddr_alt;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_get_param);

/**
 * quic_path_set_param - apply disable_active_migration
 * @paths: the path group
 * @p: transport parameters; the peer's when @p->remote is set (then our
 *     local address must stay), else ours (then the peer's must stay)
 */
void quic_path_set_param(struct quic_path_group *paths, const struct quic_transport_param *p)
{
	if (p->remote) {
		paths->disable_saddr_alt = !!p->disable_active_migration;
		return;
	}
	paths->disable_daddr_alt = !!p->disable_active_migration;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_set_param);

/**
 * quic_path_check_server_cids - client check of the server's CID parameters
 * @paths: the client's path group (orig_dcid, and retry_dcid after a Retry)
 * @peer: the server's transport parameters, from quic_param_decode()
 * @scid: the Source CID of the server's first Initial or Handshake packet
 *
 * RFC 9000 Section 7.3, with the connection IDs this group recorded: the
 * rules are quic_param_cid_auth()'s (original_destination_connection_id
 * equal to our first Destination CID, retry_source_connection_id present
 * and equal to the Retry's Source CID exactly when there was a Retry,
 * initial_source_connection_id equal to @scid).
 *
 * Return: 0, or -EINVAL (a TRANSPORT_PARAMETER_ERROR).
 */
int quic_path_check_server_cids(const struct quic_path_group *paths,
				const struct quic_params *peer,
				const struct quic_conn_id *scid)
{
	struct quic_param_cids seen = {
		.odcid = &paths->orig_dcid,
		.peer_scid = scid,
		.retry_scid = paths->retry ? &paths->retry_dcid : NULL,
	};

	return quic_param_cid_auth(peer, false, &seen);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_check_server_cids);

/**
 * quic_path_challenge_new - fresh data for a PATH_CHALLENGE frame
 * @paths: the path group
 *
 * RFC 9000 Section 8.2.1: every PATH_CHALLENGE carries new unpredictable
 * data. The last QUIC_PATH_CHALLENGES values are kept, so a response to a
 * retransmitted challenge that crossed a newer one still validates.
 *
 * Return: the QUIC_PATH_ENTROPY_LEN bytes to send, valid until the next
 * call.
 */
const u8 *quic_path_challenge_new(struct quic_path_group *paths)
{
	u8 *data = paths->entropy[paths->entropy_next];

	get_random_bytes(data, QUIC_PATH_ENTROPY_LEN);
	paths->entropy_next = (paths->entropy_next + 1) % QUIC_PATH_CHALLENGES;
	if (paths->entropy_count < QUIC_PATH_CHALLENGES)
		paths->entropy_count++;
	return data;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_challenge_new);

/**
 * quic_path_challenge_match - check a PATH_RESPONSE against our challenges
 * @paths: the path group
 * @data: the QUIC_PATH_ENTROPY_LEN bytes of the PATH_RESPONSE
 *
 * Return: true if @data echoes one of the remembered challenges.
 */
bool quic_path_challenge_match(const struct quic_path_group *paths, const u8 *data)
{
	u8 i;

	for (i = 0; i < paths->entropy_count; i++)
		if (!crypto_memneq(paths->entropy[i], data, QUIC_PATH_ENTROPY_LEN))
			return true;
	return false;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_challenge_match);

/**
 * quic_path_challenge_clear - forget the challenges (validation ended)
 * @paths: the path group
 */
void quic_path_challenge_clear(struct quic_path_group *paths)
{
	memzero_explicit(paths->entropy, sizeof(paths->entropy));
	paths->entropy_next = 0;
	paths->entropy_count = 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_challenge_clear);

/**
 * quic_path_set_validated - mark the peer address validated or not
 * @paths: the path group
 * @validated: true once validated (e.g. a Handshake packet was processed,
 *             RFC 9000 Section 8.1), false for a new unvalidated address
 *
 * The anti-amplification counters restart from zero and sending is no
 * longer blocked.
 */
void quic_path_set_validated(struct quic_path_group *paths, bool validated)
{
	paths->validated = validated;
	paths->blocked = 0;
	paths->ampl_sndlen = 0;
	paths->ampl_rcvlen = 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_set_validated);

/**
 * quic_path_ampl_room - bytes that may still be sent to the peer address
 * @paths: the path group
 *
 * Return: U64_MAX once the address is validated, otherwise three times
 * the bytes received minus the bytes sent (RFC 9000 Section 8.1).
 */
u64 quic_path_ampl_room(const struct quic_path_group *paths)
{
	u64 limit;

	if (paths->validated)
		return U64_MAX;
	limit = paths->ampl_rcvlen * QUIC_PATH_AMPL_FACTOR;
	return limit > paths->ampl_sndlen ? limit - paths->ampl_sndlen : 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_ampl_room);

/**
 * quic_path_ampl_send - account a datagram about to be sent
 * @paths: the path group
 * @len: its UDP payload length
 *
 * Return: true if it fits in the anti-amplification limit (it is then
 * counted), false if not (it must not be sent, and the group is marked
 * blocked until more bytes arrive).
 */
bool quic_path_ampl_send(struct quic_path_group *paths, u32 len)
{
	if (paths->validated)
		return true;
	if (len > quic_path_ampl_room(paths)) {
		paths->blocked = 1;
		return false;
	}
	paths->ampl_sndlen += len;
	return true;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_ampl_send);

/**
 * quic_path_ampl_rcvd - account a datagram received from the peer address
 * @paths: the path group
 * @len: its UDP payload length (RFC 9000 Section 8.1 counts every
 *       datagram attributed to the connection, even if discarded)
 *
 * Return: true if this lifted a block, so sending should resume.
 */
bool quic_path_ampl_rcvd(struct quic_path_group *paths, u32 len)
{
	if (paths->validated)
		return false;
	paths->ampl_rcvlen += len;
	if (!paths->blocked || !len)
		return false;
	paths->blocked = 0;
	return true;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_ampl_rcvd);

/**
 * quic_path_offer_pref_addr - server: listen on a preferred address
 * @sk: the QUIC socket
 * @paths: its path group (server side)
 * @addr: the address to offer in preferred_address, with its port
 *
 * The address becomes the local address of path 1 and is bound, so that
 * packets the client sends there arrive (RFC 9000 Section 9.6). RFC 9000
 * Section 18.2 carries one address of each IP version: a second offer, of
 * the other version than the first, goes to %QUIC_PATH_PREF2.
 *
 * Return: 0, -EINVAL for a client, a port 0 address, a third offer or a
 * second one of the first one's IP version, or the error of
 * quic_path_bind().
 */
int quic_path_offer_pref_addr(struct sock *sk, struct quic_path_group *paths,
			      const union quic_addr *addr)
{
	u8 path = 1;
	int err;

	if (!paths->serv || !addr->v4.sin_port || paths->path[QUIC_PATH_PREF2].udp_sk)
		return -EINVAL;
	if (paths->path[1].udp_sk) {
		if (!paths->pref_addr ||
		    quic_addr_family(addr) == quic_addr_family(quic_path_saddr(paths, 1)))
			return -EINVAL;
		path = QUIC_PATH_PREF2;
	}

	quic_path_set_saddr(paths, path, addr);
	err = quic_path_bind(sk, paths, path);
	if (err) {
		memset(quic_path_saddr(paths, path), 0, sizeof(union quic_addr));
		return err;
	}
	paths->pref_addr = 1;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_offer_pref_addr);

/**
 * quic_path_put_pref_addr - server: write the address part of preferred_address
 * @sk: the QUIC socket
 * @paths: its path group, with a preferred address offered
 * @pp: output cursor, advanced by QUIC_PREF_ADDR_LEN
 * @plen: room left
 *
 * Return: 0, -EINVAL when no preferred address is offered, or the error
 * of quic_set_pref_addr().
 */
int quic_path_put_pref_addr(struct sock *sk, struct quic_path_group *paths, u8 **pp,
			    u32 *plen)
{
	if (!paths->serv || !paths->pref_addr)
		return -EINVAL;
	return quic_set_pref_addrs(pp, plen, quic_path_saddr(paths, 1),
				   quic_path_saddr(paths, QUIC_PATH_PREF2));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_put_pref_addr);

/**
 * quic_path_get_pref_addr - client: take the server's preferred address
 * @sk: the QUIC socket
 * @paths: its path group (client side)
 * @pp: cursor at the address part of preferred_address, advanced past it
 * @plen: bytes left
 *
 * A usable address (of a family the socket can reach, with a port) becomes
 * the peer address of path 1, to be validated once the handshake is
 * confirmed (RFC 9000 Section 9.6.1); otherwise nothing is recorded.
 *
 * Return: 0, or -EINVAL for a client-side misuse or a short value.
 */
int quic_path_get_pref_addr(struct sock *sk, struct quic_path_group *paths, const u8 **pp,
			    u32 *plen)
{
	union quic_addr addr;
	int err;

	if (paths->serv)
		return -EINVAL;
	err = quic_get_pref_addr(sk, &addr, pp, plen);
	if (err)
		return err;
	if (!addr.sa.sa_family || !addr.v4.sin_port)
		return 0;

	quic_path_set_daddr(paths, 1, &addr);
	paths->pref_addr = 1;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_get_pref_addr);

/**
 * quic_path_encap_len - IP and UDP header bytes in front of the active path's packets
 * @paths: the path group, its peer address set
 *
 * The IP version is the peer address's own, whatever the socket's family:
 * an IPv4-mapped peer counts as IPv4, and an IPv4 socket may be on an IPv6
 * path (RFC 9000 Section 9.6).
 *
 * Return: 28 for IPv4, 48 for IPv6.
 */
u32 quic_path_encap_len(struct quic_path_group *paths)
{
	union quic_addr a = {};

	a.sa.sa_family = quic_addr_family(quic_path_daddr(paths, 0));
	return quic_encap_len(&a);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_encap_len);

/**
 * quic_path_pl_toobig - feed a Packet Too Big to the active path's PLPMTUD
 * @paths: the path group
 * @mtu: the MTU the ICMP message reports (IP packet size)
 *
 * The IP and UDP header lengths of the active path are subtracted to get
 * PL_PTB_SIZE (RFC 8899 Section 4.6.2); an IPv4-mapped peer counts as
 * IPv4. The caller has matched the quoted packet to the connection.
 *
 * Return: the new PLPMTU if it changed, otherwise 0.
 */
u32 quic_path_pl_toobig(struct quic_path_group *paths, u32 mtu)
{
	u32 hlen = quic_path_encap_len(paths);

	if (mtu <= hlen)
		return 0;
	return quic_plpmtud_toobig(&paths->pl, mtu - hlen);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_pl_toobig);

/**
 * quic_path_flush - wait until every released tunnel is closed
 *
 * For the pernet exit of the namespace (a released tunnel still refers to
 * it) and for tests.
 */
void quic_path_flush(void)
{
	struct workqueue_struct *wq = READ_ONCE(quic_path_wq);

	if (wq)
		flush_workqueue(wq);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_path_flush);

/**
 * quic_path_destroy - close released tunnels and free the workqueue
 *
 * For module exit, once no QUIC socket is left and before the hash tables
 * are destroyed.
 */
void quic_path_destroy(void)
{
	if (quic_path_wq) {
		destroy_workqueue(quic_path_wq);
		quic_path_wq = NULL;
	}
}
