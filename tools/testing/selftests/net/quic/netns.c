// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Network namespace pair joined by veth, set up with rtnetlink requests:
 * RTM_NEWLINK creates the pair with each end placed straight into its
 * namespace (IFLA_NET_NS_FD), then, inside each namespace, RTM_NEWLINK
 * brings the links up and RTM_NEWADDR adds the addresses.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "ktap.h"
#include "netns.h"
#include "util.h"

#define NL_BUFSIZE	1024

struct nl_req {
	struct nlmsghdr *nh;
	size_t cap;
};

static void *nl_tail(struct nl_req *r)
{
	return (char *)r->nh + NLMSG_ALIGN(r->nh->nlmsg_len);
}

static struct rtattr *nl_attr(struct nl_req *r, unsigned short type, const void *data,
			      size_t len)
{
	struct rtattr *rta = nl_tail(r);
	size_t total = NLMSG_ALIGN(r->nh->nlmsg_len) + RTA_ALIGN(RTA_LENGTH(len));

	if (total > r->cap)
		return NULL;
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (data)
		memcpy(RTA_DATA(rta), data, len);
	r->nh->nlmsg_len = total;
	return rta;
}

/* Nested attributes: open with an empty attribute, close by fixing its length. */
static void nl_nest_end(struct nl_req *r, struct rtattr *nest)
{
	nest->rta_len = (char *)nl_tail(r) - (char *)nest;
}

static void nl_init(struct nl_req *r, void *buf, size_t cap, unsigned short type,
		    unsigned short flags, size_t hdrlen)
{
	memset(buf, 0, cap);
	r->nh = buf;
	r->cap = cap;
	r->nh->nlmsg_type = type;
	r->nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->nh->nlmsg_len = NLMSG_LENGTH(hdrlen);
}

/* Send one request on a fresh socket of the current namespace; wait for its ack. */
static int nl_talk(struct nl_req *r)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[NL_BUFSIZE];
	struct nlmsgerr *e;
	struct nlmsghdr *nh;
	int fd, err;
	ssize_t n;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	r->nh->nlmsg_seq = 1;
	if (sendto(fd, r->nh, r->nh->nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		goto out;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0) {
		err = -errno;
		goto out;
	}
	nh = (struct nlmsghdr *)buf;
	if (!NLMSG_OK(nh, (size_t)n) || nh->nlmsg_type != NLMSG_ERROR) {
		err = -EPROTO;
		goto out;
	}
	e = NLMSG_DATA(nh);
	err = e->error;
out:
	close(fd);
	return err;
}

static int create_veth(struct netns_pair *p)
{
	struct rtattr *linkinfo, *data, *peer;
	struct ifinfomsg *ifi, *peer_ifi;
	char buf[NL_BUFSIZE];
	struct nl_req r;

	nl_init(&r, buf, sizeof(buf), RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, sizeof(*ifi));
	ifi = NLMSG_DATA(r.nh);
	ifi->ifi_family = AF_UNSPEC;
	nl_attr(&r, IFLA_IFNAME, p->ifname[0], strlen(p->ifname[0]) + 1);
	nl_attr(&r, IFLA_NET_NS_FD, &p->ns[0], sizeof(p->ns[0]));
	linkinfo = nl_attr(&r, IFLA_LINKINFO, NULL, 0);
	nl_attr(&r, IFLA_INFO_KIND, "veth", 4);
	data = nl_attr(&r, IFLA_INFO_DATA, NULL, 0);
	/* VETH_INFO_PEER carries an ifinfomsg followed by the peer's attributes. */
	peer = nl_attr(&r, VETH_INFO_PEER, NULL, sizeof(*peer_ifi));
	if (!peer)
		return -ENOSPC;
	peer_ifi = RTA_DATA(peer);
	peer_ifi->ifi_family = AF_UNSPEC;
	nl_attr(&r, IFLA_IFNAME, p->ifname[1], strlen(p->ifname[1]) + 1);
	if (!nl_attr(&r, IFLA_NET_NS_FD, &p->ns[1], sizeof(p->ns[1])))
		return -ENOSPC;
	nl_nest_end(&r, peer);
	nl_nest_end(&r, data);
	nl_nest_end(&r, linkinfo);
	return nl_talk(&r);
}

static int link_up(const char *ifname)
{
	char buf[NL_BUFSIZE];
	struct ifinfomsg *ifi;
	struct nl_req r;
	int ifindex;

	ifindex = if_nametoindex(ifname);
	if (!ifindex)
		return -ENODEV;
	nl_init(&r, buf, sizeof(buf), RTM_NEWLINK, 0, sizeof(*ifi));
	ifi = NLMSG_DATA(r.nh);
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
	return nl_talk(&r);
}

static int addr_add(const char *ifname, int family, const void *addr, size_t len,
		    unsigned char prefixlen)
{
	char buf[NL_BUFSIZE];
	struct ifaddrmsg *ifa;
	struct nl_req r;
	int ifindex;

	ifindex = if_nametoindex(ifname);
	if (!ifindex)
		return -ENODEV;
	nl_init(&r, buf, sizeof(buf), RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL, sizeof(*ifa));
	ifa = NLMSG_DATA(r.nh);
	ifa->ifa_family = family;
	ifa->ifa_prefixlen = prefixlen;
	ifa->ifa_flags = IFA_F_NODAD;
	ifa->ifa_index = ifindex;
	nl_attr(&r, IFA_LOCAL, addr, len);
	nl_attr(&r, IFA_ADDRESS, addr, len);
	return nl_talk(&r);
}

static int open_ns(void)
{
	return open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
}

/* Configure side @i from inside its namespace. */
static int setup_side(struct netns_pair *p, int i)
{
	int err;

	err = netns_enter(p, i);
	if (err)
		return err;
	err = link_up("lo");
	if (!err)
		err = link_up(p->ifname[i]);
	if (!err)
		err = addr_add(p->ifname[i], AF_INET, &p->addr4[i], sizeof(p->addr4[i]), 24);
	if (!err)
		err = addr_add(p->ifname[i], AF_INET6, &p->addr6[i], sizeof(p->addr6[i]), 64);
	netns_enter(p, -1);
	return err;
}

socklen_t netns_addr4(const struct netns_pair *p, int side, int port, struct sockaddr_in *a)
{
	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_port = htons(port);
	a->sin_addr = p->addr4[side];
	return sizeof(*a);
}

int netns_addr_add(const struct netns_pair *p, int side, int family, const void *addr,
		   unsigned char prefixlen)
{
	size_t len = family == AF_INET ? sizeof(struct in_addr) : sizeof(struct in6_addr);
	int err;

	err = netns_enter(p, side);
	if (!err)
		err = addr_add(p->ifname[side], family, addr, len, prefixlen);
	netns_enter(p, -1);
	return err;
}

int netns_pair_sockets(const struct netns_pair *p, bool home)
{
	int side, v4, v6, n = 0;

	for (side = home ? -1 : 0; side < 2; side++) {
		if (netns_enter(p, side))
			return -1;
		v4 = proto_sockets("QUIC");
		v6 = proto_sockets("QUICv6");
		netns_enter(p, -1);
		if (v4 < 0 || v6 < 0)
			return -1;
		n += v4 + v6;
	}
	return n;
}

int netns_enter(const struct netns_pair *p, int side)
{
	int fd = side < 0 ? p->home : p->ns[side];

	return setns(fd, CLONE_NEWNET) ? -errno : 0;
}

int netns_pair_create(struct netns_pair *p)
{
	static const char *const a4[2] = { "192.0.2.1", "192.0.2.2" };
	static const char *const a6[2] = { "2001:db8::1", "2001:db8::2" };
	int i, err;

	memset(p, 0, sizeof(*p));
	p->ns[0] = -1;
	p->ns[1] = -1;
	p->home = open_ns();
	if (p->home < 0) {
		err = -errno;
		ktap_diag("netns: open own namespace: %s", strerror(-err));
		return err;
	}
	for (i = 0; i < 2; i++) {
		snprintf(p->ifname[i], sizeof(p->ifname[i]), "veth%d", i);
		inet_pton(AF_INET, a4[i], &p->addr4[i]);
		inet_pton(AF_INET6, a6[i], &p->addr6[i]);
		if (unshare(CLONE_NEWNET)) {
			err = -errno;
			ktap_diag("netns: unshare(CLONE_NEWNET): %s", strerror(-err));
			goto fail;
		}
		p->ns[i] = open_ns();
		err = p->ns[i] < 0 ? -errno : netns_enter(p, -1);
		if (err) {
			ktap_diag("netns: namespace %d: %s", i, strerror(-err));
			goto fail;
		}
	}
	err = create_veth(p);
	if (err) {
		ktap_diag("netns: RTM_NEWLINK veth: %s", strerror(-err));
		goto fail;
	}
	for (i = 0; i < 2; i++) {
		err = setup_side(p, i);
		if (err) {
			ktap_diag("netns: configure %s: %s", p->ifname[i], strerror(-err));
			goto fail;
		}
	}
	return 0;
fail:
	netns_pair_destroy(p);
	return err;
}

void netns_pair_destroy(struct netns_pair *p)
{
	int i;

	if (p->home >= 0) {
		netns_enter(p, -1);
		close(p->home);
		p->home = -1;
	}
	for (i = 0; i < 2; i++) {
		if (p->ns[i] >= 0)
			close(p->ns[i]);
		p->ns[i] = -1;
	}
}
