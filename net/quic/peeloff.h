/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC stream peeloff: one stream of a connection as a socket of its own.
 */

#ifndef __net_quic_peeloff_h__
#define __net_quic_peeloff_h__

#include <linux/net.h>
#include <linux/sockptr.h>

struct sock;

int quic_peel_init(void);
void quic_peel_exit(void);
int quic_peel_stream(struct sock *sk, s64 id, struct socket **sockp);
int quic_peel_opt(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen);

#endif /* __net_quic_peeloff_h__ */
