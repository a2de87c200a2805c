/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two network namespaces joined by a veth pair, for tests that need a
 * client and a server on separate stacks. Built with rtnetlink directly:
 * busybox's ip has neither veth nor netns support.
 *
 * Side 0 holds "veth0" with 192.0.2.1/24 and 2001:db8::1/64, side 1 holds
 * "veth1" with 192.0.2.2/24 and 2001:db8::2/64 (documentation prefixes,
 * RFC 5737 and RFC 3849: the traffic never leaves the guest). Loopback is
 * up on both sides and IPv6 duplicate address detection is off, so the
 * addresses are usable as soon as netns_pair_create() returns.
 */

#ifndef __QUIC_SELFTEST_NETNS_H__
#define __QUIC_SELFTEST_NETNS_H__

#include <stdbool.h>
#include <net/if.h>
#include <netinet/in.h>

struct netns_pair {
	int home;			/* namespace the caller started in */
	int ns[2];			/* the two sides */
	char ifname[2][IF_NAMESIZE];
	struct in_addr addr4[2];
	struct in6_addr addr6[2];
};

/* Returns 0, or a negative errno with a KTAP diagnostic printed. */
int netns_pair_create(struct netns_pair *p);
/* Move the calling thread to side 0 or 1, or back home with -1. */
int netns_enter(const struct netns_pair *p, int side);
/* Side @side's IPv4 address and @port in @a; returns sizeof(*a). */
socklen_t netns_addr4(const struct netns_pair *p, int side, int port, struct sockaddr_in *a);
/* Add one more address to side @side's device (from the caller's namespace). */
int netns_addr_add(const struct netns_pair *p, int side, int family, const void *addr,
		   unsigned char prefixlen);
/*
 * QUIC sockets of both families (/proc/net/protocols) in the pair's two
 * namespaces, and in the caller's home one too with @home; -1 when one
 * cannot be read. Leaves the calling thread at home.
 */
int netns_pair_sockets(const struct netns_pair *p, bool home);
/* Go home and drop the namespaces (they vanish with their last user). */
void netns_pair_destroy(struct netns_pair *p);

#endif /* __QUIC_SELFTEST_NETNS_H__ */
