// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quic-handshaked: the two messages of the handshake family that carry
 * more than a command. The reply to HANDSHAKE_CMD_ACCEPT describes one
 * request; HANDSHAKE_CMD_DONE reports its outcome. Neither touches a
 * socket, so the host tests build and read them in memory.
 */

#include <errno.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "handshake_nl.h"
#include "hsd.h"

/* The value of a 32-bit attribute, which must be exactly that long. */
static int get_32(const struct nlattr *a, uint32_t *v)
{
	if (nla_len(a) != (int)sizeof(*v))
		return -EINVAL;
	memcpy(v, nla_data(a), sizeof(*v));
	return 0;
}

/* HANDSHAKE_A_ACCEPT_CERTIFICATE: the certificate and key serials. */
static int accept_cert(const struct nlattr *nest, struct hsd_request *req)
{
	struct nlattr *a;
	uint32_t v;
	int rem;

	req->has_cert = true;
	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) != HANDSHAKE_A_X509_CERT &&
		    nla_type(a) != HANDSHAKE_A_X509_PRIVKEY)
			continue;
		if (get_32(a, &v))
			return -EINVAL;
		if (nla_type(a) == HANDSHAKE_A_X509_CERT)
			req->cert = (int32_t)v;
		else
			req->privkey = (int32_t)v;
	}
	return 0;
}

/* HANDSHAKE_A_ACCEPT_PEERNAME: a NUL-terminated string that fits. */
static int accept_peername(const struct nlattr *a, struct hsd_request *req)
{
	const char *s = nla_data(a);
	int len = nla_len(a);
	size_t n;

	if (len <= 0 || !memchr(s, '\0', (size_t)len))
		return -EINVAL;
	n = strlen(s);
	if (n >= sizeof(req->peername))
		return -ENAMETOOLONG;
	memcpy(req->peername, s, n + 1);
	return 0;
}

/* A scalar attribute of the ACCEPT reply into @req. */
static int accept_u32(int type, uint32_t v, struct hsd_request *req)
{
	switch (type) {
	case HANDSHAKE_A_ACCEPT_SOCKFD:
		if ((int32_t)v < 0)
			return -EINVAL;
		req->fd = (int32_t)v;
		break;
	case HANDSHAKE_A_ACCEPT_MESSAGE_TYPE:
		req->msg_type = v;
		break;
	case HANDSHAKE_A_ACCEPT_TIMEOUT:
		req->timeout_ms = v;
		break;
	case HANDSHAKE_A_ACCEPT_AUTH_MODE:
		req->auth_mode = v;
		break;
	case HANDSHAKE_A_ACCEPT_PEER_IDENTITY:
		/* The kernel sends at most HSD_MAX_PEERIDS; only the first is used. */
		if (req->num_peerids < HSD_MAX_PEERIDS)
			req->peerids[req->num_peerids++] = (int32_t)v;
		break;
	}
	return 0;
}

/* One attribute of the ACCEPT reply. Unknown ones are skipped. */
static int accept_attr(const struct nlattr *a, struct hsd_request *req)
{
	uint32_t v;

	switch (nla_type(a)) {
	case HANDSHAKE_A_ACCEPT_SOCKFD:
	case HANDSHAKE_A_ACCEPT_MESSAGE_TYPE:
	case HANDSHAKE_A_ACCEPT_TIMEOUT:
	case HANDSHAKE_A_ACCEPT_AUTH_MODE:
	case HANDSHAKE_A_ACCEPT_PEER_IDENTITY:
		if (get_32(a, &v))
			return -EINVAL;
		return accept_u32(nla_type(a), v, req);
	case HANDSHAKE_A_ACCEPT_CERTIFICATE:
		return accept_cert(a, req);
	case HANDSHAKE_A_ACCEPT_PEERNAME:
		return accept_peername(a, req);
	}
	return 0;
}

/*
 * Read the kernel's reply to HANDSHAKE_CMD_ACCEPT into @req. PEER_IDENTITY
 * may repeat, so the attributes are walked in order rather than parsed
 * into a table (which keeps only the last of each type). Returns 0, or
 * -EINVAL / -ENAMETOOLONG for a malformed reply; even then @req->fd is
 * the installed socket when the reply named it (>= 0), and the request
 * must still be completed.
 */
int hsd_parse_accept(struct nlmsghdr *nlh, struct hsd_request *req)
{
	struct genlmsghdr *gnlh;
	struct nlattr *a;
	int rem, ret = 0, err;

	memset(req, 0, sizeof(*req));
	req->fd = -1;
	if (!genlmsg_valid_hdr(nlh, 0))
		return -EINVAL;
	gnlh = nlmsg_data(nlh);
	if (gnlh->cmd != HANDSHAKE_CMD_ACCEPT)
		return -EINVAL;
	nla_for_each_attr(a, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem) {
		err = accept_attr(a, req);
		if (err && !ret)
			ret = err;
	}
	if (!ret && (req->fd < 0 || !req->msg_type || !req->auth_mode))
		ret = -EINVAL;
	return ret;
}

/*
 * A HANDSHAKE_CMD_DONE request for the socket @fd: @status is a positive
 * errno (0: success), @auth the key serials that authenticated the peer
 * (zeros are left out). Returns the message (nlmsg_free() it, or hand
 * it to nl_send_sync()), or NULL when out of memory.
 */
struct nl_msg *hsd_done_msg(int family, int fd, unsigned int status,
			    const int32_t *auth, unsigned int nauth)
{
	struct nl_msg *msg = nlmsg_alloc();
	unsigned int i;

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0, HANDSHAKE_CMD_DONE,
			 HANDSHAKE_FAMILY_VERSION) ||
	    nla_put_u32(msg, HANDSHAKE_A_DONE_STATUS, status) ||
	    nla_put_s32(msg, HANDSHAKE_A_DONE_SOCKFD, fd))
		goto fail;
	for (i = 0; i < nauth; i++)
		if (auth[i] && nla_put_u32(msg, HANDSHAKE_A_DONE_REMOTE_AUTH, (uint32_t)auth[i]))
			goto fail;
	return msg;
fail:
	nlmsg_free(msg);
	return NULL;
}
