/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Connection IDs on a live connection (RFC 9000 Sections 5.1 and 10.3):
 * issuing our IDs with NEW_CONNECTION_ID, applying the peer's
 * NEW_CONNECTION_ID and RETIRE_CONNECTION_ID frames, stateless reset
 * tokens, and QUIC_SOCKOPT_CONNECTION_ID. The sets themselves are connid.c.
 */

#ifndef __net_quic_connid_ctl_h__
#define __net_quic_connid_ctl_h__

#include <linux/sockptr.h>
#include <linux/types.h>

struct sock;
struct quic_conn_id;
struct quic_frame;

/* Our IDs the peer holds at most, whatever its active_connection_id_limit. */
#define QUIC_CONN_ID_ISSUE_MAX		8
/* RETIRE_CONNECTION_ID frames one raise of the peer's Retire Prior To may
 * cause (quic_cid_recv_new()).
 */
#define QUIC_CONN_ID_RETIRE_MAX		16

int quic_cid_net_init(struct net *net);
void quic_cid_net_exit(struct net *net);
int quic_cid_reset_token(struct net *net, const struct quic_conn_id *id, u8 *token);
bool quic_cid_is_stateless_reset(struct sock *sk, const u8 *data, u32 len);

int quic_cid_issue(struct sock *sk, gfp_t gfp);
int quic_cid_recv_new(struct sock *sk, const struct quic_frame *f);
int quic_cid_recv_retire(struct sock *sk, const struct quic_frame *f);
u32 quic_cid_retire_bound(const struct sock *sk);

int quic_cid_get_opt(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen);
int quic_cid_set_opt(struct sock *sk, sockptr_t optval, unsigned int optlen);

#endif /* __net_quic_connid_ctl_h__ */
