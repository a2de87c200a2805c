// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Stream data on an established QUIC socket: sendmsg()/recvmsg() with a
 * QUIC_STREAM_INFO control message naming the stream.
 */

#include <errno.h>
#include <string.h>

#include "internal.h"

/* The stream flags of struct quic_stream_info on the send side. */
#define STREAM_SEND_FLAGS	(MSG_STREAM_NEW | MSG_STREAM_FIN | MSG_STREAM_UNI | \
				 MSG_STREAM_DONTWAIT | MSG_STREAM_SNDBLOCK)
/* sendmsg() flags the socket API draft lets quic_sendmsg() pass on. */
#define SEND_FLAGS		(MSG_DONTWAIT | MSG_DATAGRAM | MSG_MORE | MSG_NOSIGNAL)
/* recvmsg() flags quic_recvmsg() passes on; any other is refused. */
#define RECV_FLAGS		(MSG_DONTWAIT | MSG_PEEK | MSG_WAITALL)

/*
 * Send @len bytes of @msg on stream @sid. @flags holds both the stream
 * flags (MSG_STREAM_NEW, MSG_STREAM_FIN, ...) and the sendmsg() flags
 * (MSG_DONTWAIT, MSG_DATAGRAM, ...); any other bit is refused with EINVAL
 * (draft-lxin-quic-socket-apis, quic_sendmsg()). Returns the bytes queued,
 * or -1 with errno set, like sendmsg().
 */
QUIC_API ssize_t quic_sendmsg(int sockfd, const void *msg, size_t len, int64_t sid,
			      uint32_t flags)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct quic_stream_info))];
		struct cmsghdr align;
	} cbuf;
	struct quic_stream_info si = { .stream_id = sid,
				       .stream_flags = flags & STREAM_SEND_FLAGS };
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh;
	struct cmsghdr *cmsg;

	if (flags & ~(STREAM_SEND_FLAGS | SEND_FLAGS)) {
		errno = EINVAL;
		return -1;
	}
	memset(&mh, 0, sizeof(mh));
	memset(&cbuf, 0, sizeof(cbuf));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cbuf.buf;
	mh.msg_controllen = sizeof(cbuf.buf);
	cmsg = CMSG_FIRSTHDR(&mh);
	cmsg->cmsg_level = SOL_QUIC;
	cmsg->cmsg_type = QUIC_STREAM_INFO;
	cmsg->cmsg_len = CMSG_LEN(sizeof(si));
	memcpy(CMSG_DATA(cmsg), &si, sizeof(si));
	return quic_kops->sendmsg(sockfd, &mh, (int)(flags & SEND_FLAGS));
}

/*
 * Receive up to @len bytes into @msg. *@flags: recvmsg() flags in
 * (MSG_DONTWAIT, MSG_PEEK, MSG_WAITALL; any other is refused with EINVAL,
 * draft-lxin-quic-socket-apis); out, the stream flags (MSG_STREAM_FIN on
 * the last byte) or'ed with the message flags (MSG_DATAGRAM,
 * MSG_NOTIFICATION, MSG_EOR). *@sid: the stream, -1 when the message
 * carried none; @sid may be NULL when the caller does not need it.
 * Returns the bytes read, 0 at end of file, or -1 with errno set, like
 * recvmsg().
 */
QUIC_API ssize_t quic_recvmsg(int sockfd, void *msg, size_t len, int64_t *sid, uint32_t *flags)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct quic_stream_info))];
		struct cmsghdr align;
	} cbuf;
	struct quic_stream_info si = { .stream_id = -1 };
	struct iovec iov = { .iov_base = msg, .iov_len = len };
	struct msghdr mh;
	struct cmsghdr *cmsg;
	ssize_t n;

	if (!flags || (*flags & ~RECV_FLAGS)) {
		errno = EINVAL;
		return -1;
	}
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cbuf.buf;
	mh.msg_controllen = sizeof(cbuf.buf);
	n = quic_kops->recvmsg(sockfd, &mh, (int)*flags);
	if (n < 0)
		return n;
	for (cmsg = CMSG_FIRSTHDR(&mh); cmsg; cmsg = CMSG_NXTHDR(&mh, cmsg)) {
		if (cmsg->cmsg_level == SOL_QUIC && cmsg->cmsg_type == QUIC_STREAM_INFO &&
		    cmsg->cmsg_len >= CMSG_LEN(sizeof(si)))
			memcpy(&si, CMSG_DATA(cmsg), sizeof(si));
	}
	if (sid)
		*sid = si.stream_id;
	*flags = si.stream_flags | (uint32_t)mh.msg_flags;
	return n;
}
