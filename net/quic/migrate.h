/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Connection migration (migrate.c, RFC 9000 Section 9).
 */

#ifndef __net_quic_migrate_h__
#define __net_quic_migrate_h__

#include <linux/sockptr.h>
#include <linux/types.h>

struct quic_frame;
struct sock;
union quic_addr;

void quic_migrate_peer_moved(struct sock *sk, const union quic_addr *peer, u32 len);
void quic_migrate_path_response(struct sock *sk);
void quic_migrate_path_timeout(struct sock *sk);
int quic_migrate_local(struct sock *sk, sockptr_t optval, unsigned int optlen);

void quic_migrate_pref_start(struct sock *sk);
void quic_migrate_pref_prepare(struct sock *sk);
bool quic_migrate_alt_local(struct sock *sk, const union quic_addr *local);
bool quic_migrate_pref_on_path(struct sock *sk, bool alt_local, const union quic_addr *peer);
void quic_migrate_pref_respond(struct sock *sk, const struct quic_frame *f,
			       const union quic_addr *peer);
void quic_migrate_pref_rcvd(struct sock *sk, const union quic_addr *peer, bool moved);

#endif /* __net_quic_migrate_h__ */
