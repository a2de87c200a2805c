/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the QUIC KUnit suites.
 */

#ifndef __net_quic_tests_util_h__
#define __net_quic_tests_util_h__

#include <kunit/test.h>
#include <linux/net.h>
#include <linux/skbuff.h>

struct socket *quic_kunit_socket(struct kunit *test, int family, int type);
void quic_kunit_addr4(void *addr, const char *ip, u16 port);
void quic_kunit_addr6(void *addr, const char *ip, u16 port);
int quic_kunit_loopback_up(void);
void quic_kunit_loopback_down(void);
int quic_kunit_net_suite_init(struct kunit_suite *suite);
struct sk_buff *quic_kunit_udp4_skb(const void *src, const void *dst, const u8 *data, u32 len,
				    gfp_t gfp);
void quic_kunit_rcv4(struct kunit *test, struct sock *udp_sk, const void *src,
		     const void *dst, const u8 *data, u32 len);
void quic_kunit_net_suite_exit(struct kunit_suite *suite);

#endif /* __net_quic_tests_util_h__ */
