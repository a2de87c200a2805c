/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC address family helpers: everything that differs between IPv4 and
 * IPv6, so that the rest of the stack never tests the family itself.
 */

#ifndef __net_quic_family_h__
#define __net_quic_family_h__

#include <linux/sockptr.h>
#include <net/flow.h>
#include <net/udp_tunnel.h>

#include "common.h"

/* RFC 9000 Section 18.2, preferred_address: the address part of the value. */
#define QUIC_ADDR4_LEN		4
#define QUIC_ADDR6_LEN		16
#define QUIC_PORT_LEN		2
#define QUIC_PREF_ADDR_LEN	(QUIC_ADDR4_LEN + QUIC_PORT_LEN + QUIC_ADDR6_LEN + QUIC_PORT_LEN)

struct seq_file;

/* Helpers selected by the address's own family */
bool quic_addr_is_any(const union quic_addr *a);
sa_family_t quic_addr_family(const union quic_addr *a);
u32 quic_encap_len(const union quic_addr *a);
void quic_udp_conf_init(struct sock *sk, struct udp_port_cfg *conf, const union quic_addr *a);
int quic_flow_route(struct sock *sk, union quic_addr *da, union quic_addr *sa, struct flowi *fl);
void quic_lower_xmit(struct sock *sk, struct sk_buff *skb, const union quic_addr *da,
		     struct flowi *fl, u8 ecn);
void quic_seq_dump_addr(struct seq_file *seq, const union quic_addr *a);

/* Helpers selected by the received packet's IP version */
void quic_get_msg_addrs(const struct sk_buff *skb, const struct udphdr *uh,
			union quic_addr *da, union quic_addr *sa);
int quic_get_mtu_info(const struct sk_buff *skb, u32 *info);
u8 quic_get_msg_ecn(const struct sk_buff *skb);

/* Helpers selected by the socket's family */
int quic_get_user_addr(struct sock *sk, union quic_addr *a, const struct sockaddr *addr,
		       int addr_len);
int quic_get_user_pref_addr(union quic_addr *a, const struct sockaddr *addr, int addr_len);
int quic_get_pref_addr(struct sock *sk, union quic_addr *addr, const u8 **pp, u32 *plen);
int quic_set_pref_addr(struct sock *sk, u8 **pp, u32 *plen, const union quic_addr *addr);
int quic_set_pref_addrs(u8 **pp, u32 *plen, const union quic_addr *addr,
			const union quic_addr *addr2);
bool quic_cmp_sk_addr(struct sock *sk, const union quic_addr *a, const union quic_addr *addr);
int quic_get_sk_addr(struct socket *sock, struct sockaddr *uaddr, bool peer);
void quic_set_sk_addr(struct sock *sk, const union quic_addr *a, bool src);
void quic_set_sk_ecn(struct sock *sk, u8 ecn);
int quic_common_setsockopt(struct sock *sk, int level, int optname, sockptr_t optval,
			   unsigned int optlen);
int quic_common_getsockopt(struct sock *sk, int level, int optname, char __user *optval,
			   int __user *optlen);

#endif /* __net_quic_family_h__ */
