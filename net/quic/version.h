/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Compatible version negotiation between QUIC v1 and v2 (RFC 9368 Section
 * 2.3, RFC 9369 Section 4) and version downgrade prevention (RFC 9368
 * Section 4).
 */

#ifndef __net_quic_version_h__
#define __net_quic_version_h__

#include <linux/types.h>

struct sock;
struct quic_crypto;
struct quic_param_version_info;

u32 quic_version_other(u32 version);
u32 quic_version_select(u32 original, u32 preferred, const struct quic_param_version_info *vi);
int quic_version_check_client(u32 original, const struct quic_param_version_info *vi);
int quic_version_check_server(u32 in_use, const struct quic_param_version_info *vi);
void quic_version_fill(struct sock *sk, struct quic_param_version_info *vi);
int quic_version_prepare(struct sock *sk);
bool quic_version_switch(struct sock *sk, u32 version);
int quic_version_negotiate(struct sock *sk, const struct quic_param_version_info *vi);
void quic_version_free(struct sock *sk);
struct quic_crypto *quic_version_rx_crypto(struct sock *sk, u8 type, u32 version);

#endif /* __net_quic_version_h__ */
