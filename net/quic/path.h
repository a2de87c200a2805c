/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC paths: the UDP tunnel sockets QUIC runs on, the active and
 * alternate path of a connection (RFC 9000 Section 9), path validation
 * data (Section 8.2), the anti-amplification limit (Section 8.1) and the
 * PLPMTUD state of the active path (Section 14.3, see pmtu.h).
 *
 * A path group belongs to one QUIC socket and is protected by that
 * socket's lock. UDP tunnel sockets are shared by every path bound to the
 * same local address and port; they are created in process context and
 * released from a work item, so a path may drop its reference anywhere.
 */

#ifndef __net_quic_path_h__
#define __net_quic_path_h__

#include <linux/refcount.h>
#include <linux/workqueue.h>
#include <net/flow.h>

#include "common.h"
#include "pmtu.h"

struct quic_params;
struct quic_transport_param;

/* RFC 9000 Section 19.17: the Data field of PATH_CHALLENGE is 64 bits. */
#define QUIC_PATH_ENTROPY_LEN	8
/* PATH_CHALLENGE values remembered, so a late PATH_RESPONSE still counts. */
#define QUIC_PATH_CHALLENGES	3
/* RFC 9000 Section 8.1: at most three times the bytes received. */
#define QUIC_PATH_AMPL_FACTOR	3
/* Server: the path of a second preferred address, of the other IP version
 * than path 1's (RFC 9000 Section 18.2: one of each may be offered). Only
 * its local address and tunnel are used; it becomes path 1 when the
 * client comes to it (migrate.c).
 */
#define QUIC_PATH_PREF2		2

/*
 * Migration state of the alternate path, driven by the packet layer:
 * NONE -> PENDING when a new path is seen but no unused peer connection ID
 * is left to probe it with; PENDING or NONE -> PROBING once PATH_CHALLENGE
 * is sent on it (back to NONE if validation fails); PROBING -> SWAPPED when
 * PATH_RESPONSE validated it and quic_path_swap() made it active; SWAPPED
 * -> NONE once a non-probing packet confirms the move and the old path is
 * freed.
 */
enum quic_path_alt_state {
	QUIC_PATH_ALT_NONE,	/* no alternate path */
	QUIC_PATH_ALT_PENDING,	/* waiting for a peer connection ID to probe with */
	QUIC_PATH_ALT_PROBING,	/* PATH_CHALLENGE sent on the alternate path */
	QUIC_PATH_ALT_SWAPPED,	/* the alternate path became the active one */
};

/* Where the move to a server's preferred address stands (RFC 9000
 * Section 9.6): each side validates the new path with a PATH_CHALLENGE of
 * its own before it sends there for good.
 */
enum quic_path_pref_state {
	QUIC_PATH_PREF_NONE,		/* none offered, or the move is over */
	QUIC_PATH_PREF_OFFERED,		/* in the parameters, not probed yet */
	QUIC_PATH_PREF_PROBING,		/* our PATH_CHALLENGE is out on it */
	QUIC_PATH_PREF_VALIDATED,	/* server: its response came back */
};

/**
 * struct quic_udp_ops - consumers of what a UDP tunnel socket receives
 * @rcv: a datagram arrived. @sk is the UDP socket, skb->data and the
 *       transport header are at the UDP header; @rcv owns @skb. Called in
 *       softirq context under rcu_read_lock(). The return value is ignored.
 * @toobig: an ICMP Fragmentation Needed or ICMPv6 Packet Too Big arrived
 *          for a datagram sent from this socket. @mtu is the MTU it
 *          reports (IP level). The network and transport headers of @skb
 *          point at the quoted IP and UDP headers, so quic_get_msg_addrs()
 *          returns the quoted datagram's addresses (its source is ours);
 *          the quoted bytes after the UDP header may be short or
 *          non-linear. @skb is not owned. Softirq, rcu_read_lock() held.
 *
 * Tunnels are shared only between path groups using the same ops.
 */
struct quic_udp_ops {
	int (*rcv)(struct sock *sk, struct sk_buff *skb);
	void (*toobig)(struct sock *sk, struct sk_buff *skb, u32 mtu);
};

/**
 * struct quic_udp_sock - a UDP tunnel socket shared by QUIC paths
 * @work: releases the socket once the last reference is gone
 * @node: entry in the QUIC_HT_UDP_SOCK table (by port, m_lock held)
 * @addr: local address and port the socket is bound to
 * @ops: where received datagrams and errors go
 * @net: namespace of the socket
 * @refcnt: paths using the socket
 * @sk: the UDP socket
 * @owner: uid of the QUIC socket that bound the port: only sockets of the
 *	same owner (or of the kernel) share it, as SO_REUSEPORT asks
 */
struct quic_udp_sock {
	struct work_struct work;
	struct hlist_node node;
	union quic_addr addr;
	const struct quic_udp_ops *ops;
	struct net *net;
	refcount_t refcnt;
	struct sock *sk;
	kuid_t owner;
};

/**
 * struct quic_path - one network path: a local and a peer address
 * @daddr: peer address
 * @saddr: local address
 * @udp_sk: the UDP tunnel socket @saddr is bound to, or NULL
 */
struct quic_path {
	union quic_addr daddr;
	union quic_addr saddr;
	struct quic_udp_sock *udp_sk;
};

/**
 * struct quic_path_group - the paths of one connection
 * @retry_dcid: Source CID of the Retry packet (RFC 9000 Section 7.3)
 * @orig_dcid: Destination CID of the client's first Initial packet
 * @entropy: recent PATH_CHALLENGE data, newest at @entropy_next - 1
 * @path: active path (0), alternate path (1), and a server's second
 *	preferred address (%QUIC_PATH_PREF2)
 * @fl: flow of the last route lookup on the active path
 * @ops: receive callbacks of the tunnels this group creates
 * @ampl_sndlen: bytes sent to the peer address before it was validated
 * @ampl_rcvlen: bytes received from it before it was validated
 * @mtu_info: MTU from the last ICMP error, for when PLPMTUD is disabled
 * @pl: PLPMTUD state of the active path
 * @entropy_next: slot of @entropy the next challenge goes to
 * @entropy_count: valid slots of @entropy
 * @alt_probes: PATH_CHALLENGE frames sent on the alternate path
 * @alt_state: an enum quic_path_alt_state value
 * @pref_state: an enum quic_path_pref_state value (migrate.c)
 * @ecn_probes: packets sent while validating ECN on the path
 * @disable_saddr_alt: the peer sent disable_active_migration: our local
 *                     address must not change (RFC 9000 Section 9)
 * @disable_daddr_alt: we sent disable_active_migration: the peer address
 *                     must not change
 * @pref_addr: a preferred_address is in use (RFC 9000 Section 9.6): path 1
 *             holds it (server: local address, client: peer address)
 * @pref_moved: server: a non-probing packet with a new largest packet
 *              number arrived at the preferred address
 * @pref2_used: server: the client came to the second preferred address
 *		(%QUIC_PATH_PREF2), not to path 1's
 * @validated: the peer address is validated (RFC 9000 Section 8)
 * @blocked: sending stopped at the anti-amplification limit
 * @retry: a Retry packet was sent (server) or received (client)
 * @serv: this is the server side
 */
struct quic_path_group {
	struct quic_conn_id retry_dcid;
	struct quic_conn_id orig_dcid;

	u8 entropy[QUIC_PATH_CHALLENGES][QUIC_PATH_ENTROPY_LEN];
	struct quic_path path[3];
	struct flowi fl;
	const struct quic_udp_ops *ops;

	u64 ampl_sndlen;
	u64 ampl_rcvlen;

	u32 mtu_info;
	struct quic_plpmtud pl;

	u8 entropy_next;
	u8 entropy_count;
	u8 alt_probes;
	u8 alt_state;
	u8 pref_state;
	u8 ecn_probes;

	u8 disable_saddr_alt:1;
	u8 disable_daddr_alt:1;
	u8 pref_addr:1;
	u8 pref_moved:1;
	u8 pref2_used:1;
	u8 validated:1;
	u8 blocked:1;
	u8 retry:1;
	u8 serv:1;
};

static inline union quic_addr *quic_path_saddr(struct quic_path_group *paths, u8 path)
{
	return &paths->path[path].saddr;
}

static inline void quic_path_set_saddr(struct quic_path_group *paths, u8 path,
				       const union quic_addr *addr)
{
	paths->path[path].saddr = *addr;
}

static inline union quic_addr *quic_path_daddr(struct quic_path_group *paths, u8 path)
{
	return &paths->path[path].daddr;
}

static inline void quic_path_set_daddr(struct quic_path_group *paths, u8 path,
				       const union quic_addr *addr)
{
	paths->path[path].daddr = *addr;
}

/* Only valid while the path is bound (udp_sk set). */
static inline union quic_addr *quic_path_uaddr(struct quic_path_group *paths, u8 path)
{
	return &paths->path[path].udp_sk->addr;
}

static inline struct quic_plpmtud *quic_path_pl(struct quic_path_group *paths)
{
	return &paths->pl;
}

static inline bool quic_path_alt_state(const struct quic_path_group *paths, u8 state)
{
	return paths->alt_state == state;
}

static inline void quic_path_set_alt_state(struct quic_path_group *paths, u8 state)
{
	paths->alt_state = state;
}

/*
 * The Destination CID the client puts in its Initial packets until it
 * learns the server's: the Retry's Source CID after a Retry, else the one
 * of the first Initial. Initial packets carrying it belong to this
 * connection (RFC 9000 Section 7.3).
 */
static inline struct quic_conn_id *quic_path_orig_dcid(struct quic_path_group *paths)
{
	return paths->retry ? &paths->retry_dcid : &paths->orig_dcid;
}

static inline void quic_path_set_orig_dcid(struct quic_path_group *paths,
					   const struct quic_conn_id *id)
{
	paths->orig_dcid = *id;
}

static inline void quic_path_set_retry_dcid(struct quic_path_group *paths,
					    const struct quic_conn_id *id)
{
	paths->retry_dcid = *id;
	paths->retry = 1;
}

void quic_path_group_init(struct quic_path_group *paths, const struct quic_udp_ops *ops,
			  bool serv);
int quic_path_bind(struct sock *sk, struct quic_path_group *paths, u8 path);
void quic_path_free(struct sock *sk, struct quic_path_group *paths, u8 path);
void quic_path_swap(struct quic_path_group *paths);
int quic_path_detect_alt(struct quic_path_group *paths, const union quic_addr *sa,
			 const union quic_addr *da, struct sock *sk);

void quic_path_get_param(const struct quic_path_group *paths, struct quic_transport_param *p);
void quic_path_set_param(struct quic_path_group *paths, const struct quic_transport_param *p);
int quic_path_check_server_cids(const struct quic_path_group *paths,
				const struct quic_params *peer,
				const struct quic_conn_id *scid);

const u8 *quic_path_challenge_new(struct quic_path_group *paths);
bool quic_path_challenge_match(const struct quic_path_group *paths, const u8 *data);
void quic_path_challenge_clear(struct quic_path_group *paths);

void quic_path_set_validated(struct quic_path_group *paths, bool validated);
u64 quic_path_ampl_room(const struct quic_path_group *paths);
bool quic_path_ampl_send(struct quic_path_group *paths, u32 len);
bool quic_path_ampl_rcvd(struct quic_path_group *paths, u32 len);

int quic_path_offer_pref_addr(struct sock *sk, struct quic_path_group *paths,
			      const union quic_addr *addr);
int quic_path_put_pref_addr(struct sock *sk, struct quic_path_group *paths, u8 **pp,
			    u32 *plen);
int quic_path_get_pref_addr(struct sock *sk, struct quic_path_group *paths, const u8 **pp,
			    u32 *plen);

u32 quic_path_encap_len(struct quic_path_group *paths);
u32 quic_path_pl_toobig(struct quic_path_group *paths, u32 mtu);

void quic_path_flush(void);
void quic_path_destroy(void);

#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
int quic_udp_rcv(struct sock *sk, struct sk_buff *skb);
void quic_udp_err(struct sock *sk, struct sk_buff *skb, int err, __be16 port, u32 info,
		  u8 *payload);
#endif

#endif /* __net_quic_path_h__ */
