// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kernel QUIC socket (IPPROTO_QUIC) behind struct qt_io, and the loop
 * that runs one connection's application protocol on it.
 *
 * The socket is non-blocking once the handshake is done. Stream data goes
 * out with sendmsg() and a QUIC_STREAM_INFO control message; a full send
 * buffer shows as a short count or EAGAIN, and POLLOUT says when there is
 * room again. Streams of ours are opened with QUIC_SOCKOPT_STREAM_OPEN
 * (MSG_STREAM_DONTWAIT), which fails with EAGAIN at the peer's stream
 * limit. The kernel raises no event when the peer's MAX_STREAMS arrives
 * (POLLOUT only means send buffer room), so a protocol blocked on the limit
 * is flushed again every QT_RETRY_MS. recvmsg() returns one piece of one
 * stream per call, the last one flagged MSG_STREAM_FIN.
 */

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/quic.h>

#include "common.h"

#define QT_RETRY_MS	10
#define QT_RECV_BUF	(64 * 1024)
/* Messages read per wakeup before writing gets a turn. */
#define QT_RECV_BATCH	64

static struct qt_sock_io *to_sio(struct qt_io *io)
{
	return (struct qt_sock_io *)io;
}

static ssize_t sock_send(struct qt_io *io, int64_t sid, const struct iovec *iov, int iovcnt,
			 bool fin)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct quic_stream_info))];
		struct cmsghdr align;
	} cbuf;
	struct quic_stream_info si = {
		.stream_id = sid,
		.stream_flags = MSG_STREAM_DONTWAIT | (fin ? MSG_STREAM_FIN : 0),
	};
	struct cmsghdr *cmsg;
	struct msghdr mh;
	ssize_t n;

	memset(&mh, 0, sizeof(mh));
	memset(&cbuf, 0, sizeof(cbuf));
	mh.msg_iov = (struct iovec *)iov;
	mh.msg_iovlen = (size_t)iovcnt;
	mh.msg_control = cbuf.buf;
	mh.msg_controllen = sizeof(cbuf.buf);
	cmsg = CMSG_FIRSTHDR(&mh);
	cmsg->cmsg_level = SOL_QUIC;
	cmsg->cmsg_type = QUIC_STREAM_INFO;
	cmsg->cmsg_len = CMSG_LEN(sizeof(si));
	memcpy(CMSG_DATA(cmsg), &si, sizeof(si));
	n = sendmsg(to_sio(io)->fd, &mh, MSG_DONTWAIT);
	return n < 0 ? -errno : n;
}

static int sock_open(struct qt_io *io, bool uni, int64_t *sid)
{
	struct quic_stream_info si = {
		.stream_id = -1,
		.stream_flags = MSG_STREAM_DONTWAIT | (uni ? MSG_STREAM_UNI : 0),
	};
	socklen_t len = sizeof(si);

	if (getsockopt(to_sio(io)->fd, SOL_QUIC, QUIC_SOCKOPT_STREAM_OPEN, &si, &len))
		return -errno;
	*sid = si.stream_id;
	return 0;
}

static int sock_errinfo(struct qt_io *io, int opt, int64_t sid, uint64_t code)
{
	struct quic_errinfo ei = { .stream_id = sid, .errcode = (uint32_t)code };

	if (setsockopt(to_sio(io)->fd, SOL_QUIC, opt, &ei, sizeof(ei)))
		return -errno;
	return 0;
}

static int sock_reset(struct qt_io *io, int64_t sid, uint64_t code)
{
	return sock_errinfo(io, QUIC_SOCKOPT_STREAM_RESET, sid, code);
}

static int sock_stop(struct qt_io *io, int64_t sid, uint64_t code)
{
	return sock_errinfo(io, QUIC_SOCKOPT_STREAM_STOP_SENDING, sid, code);
}

static const struct qt_io_ops sock_io_ops = {
	.send	= sock_send,
	.open	= sock_open,
	.reset	= sock_reset,
	.stop	= sock_stop,
};

/**
 * qt_sock_io_init - put the established QUIC socket @fd behind @sio
 * @sio: to fill in
 * @fd: the socket, already non-blocking
 * @server: we accepted it
 */
void qt_sock_io_init(struct qt_sock_io *sio, int fd, bool server)
{
	struct quic_transport_param tp;
	socklen_t len = sizeof(tp);

	memset(sio, 0, sizeof(*sio));
	sio->io.ops = &sock_io_ops;
	sio->io.server = server;
	sio->fd = fd;
	memset(&tp, 0, sizeof(tp));
	tp.remote = 0;
	sio->io.local_max_bidi = 100;
	if (!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &tp, &len))
		sio->io.local_max_bidi = tp.max_streams_bidi;
	memset(&tp, 0, sizeof(tp));
	tp.remote = 1;
	len = sizeof(tp);
	if (!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &tp, &len))
		qt_debug("the peer allows %u bidirectional and %u unidirectional streams",
			 tp.max_streams_bidi, tp.max_streams_uni);
}

/**
 * qt_sock_alpn - the socket's QUIC_SOCKOPT_ALPN as a string
 * @fd: the socket
 * @buf: where it goes
 * @len: room at @buf
 *
 * Return: 0 or -errno.
 */
int qt_sock_alpn(int fd, char *buf, size_t len)
{
	socklen_t n = (socklen_t)(len - 1);

	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, buf, &n))
		return -errno;
	buf[n < len ? n : len - 1] = '\0';
	return 0;
}

/*
 * Read what arrived and hand it to @app. Returns 0 when nothing is left
 * for now, 1 at the end of a connection the peer closed cleanly, or
 * -errno (the connection's error, or the application's).
 */
static int sock_drain(int fd, struct qt_app *app, uint8_t *buf)
{
	uint32_t flags;
	int64_t sid;
	ssize_t n;
	int i, ret;

	for (i = 0; i < QT_RECV_BATCH; i++) {
		flags = MSG_DONTWAIT;
		n = quic_recvmsg(fd, buf, QT_RECV_BUF, &sid, &flags);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			return -errno;
		}
		if (flags & (MSG_DATAGRAM | MSG_NOTIFICATION))
			continue;
		if (sid < 0) {
			/* No stream: end of file, or something not ours. */
			if (!n)
				return 1;
			continue;
		}
		ret = app->ops->recv(app, sid, buf, (size_t)n, flags & MSG_STREAM_FIN);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * qt_sock_run - run @app on the established, non-blocking QUIC socket @fd
 * @fd: the socket
 * @app: the connection's application protocol
 * @opts: limits
 *
 * Alternates between flushing @app and reading, until a client's
 * requests are all done, the connection ends, or qt_stop is set.
 *
 * Return: 0 when @app is done, 1 when the peer closed the connection
 * cleanly, -EINTR when stopped, -ETIMEDOUT at the deadline, or another
 * -errno (the connection's error, e.g. -ETIMEDOUT after the idle timeout,
 * -ECONNRESET when the peer closed with an error, or the application's).
 */
/* QUIC_SOCKOPT_CONNECTION_MIGRATION to the same address, a new port. */
static int sock_migrate(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return -errno;
	if (ss.ss_family == AF_INET)
		((struct sockaddr_in *)&ss)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&ss)->sin6_port = 0;
	if (setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_MIGRATION, &ss, len))
		return -errno;
	return 0;
}

int qt_sock_run(int fd, struct qt_app *app, const struct qt_run_opts *opts)
{
	bool key_update = opts && opts->key_update;
	bool migrate = opts && opts->migrate;
	struct pollfd pfd = { .fd = fd };
	uint64_t now;
	uint8_t *buf;
	int want, timeout, n, ret;

	buf = malloc(QT_RECV_BUF);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (qt_stop) {
			ret = -EINTR;
			break;
		}
		/* ENOTCONN until the handshake is confirmed, EAGAIN until the
		 * server gave a spare connection ID: try again later.
		 */
		if (migrate) {
			ret = sock_migrate(fd);
			if (!ret) {
				qt_info("moved to a new local port");
				migrate = false;
			} else if (ret != -EAGAIN && ret != -ENOTCONN) {
				qt_err("migration: %s", strerror(-ret));
				migrate = false;
			}
		}
		/* EAGAIN until the handshake is confirmed: try again later. */
		if (key_update) {
			if (!setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_KEY_UPDATE, NULL, 0)) {
				qt_info("key update started");
				key_update = false;
			} else if (errno != EAGAIN) {
				qt_err("key update: %s", strerror(errno));
				key_update = false;
			}
		}
		want = app->ops->flush(app);
		if (want < 0) {
			ret = want;
			break;
		}
		if (app->ops->done && app->ops->done(app)) {
			ret = 0;
			break;
		}
		timeout = want & QT_WANT_STREAM || key_update || migrate ? QT_RETRY_MS : 1000;
		if (opts && opts->deadline_ms) {
			now = qt_now_ms();
			if (now >= opts->deadline_ms) {
				ret = -ETIMEDOUT;
				break;
			}
			if (opts->deadline_ms - now < (uint64_t)timeout)
				timeout = (int)(opts->deadline_ms - now);
		}
		pfd.events = POLLIN | (want & QT_WANT_WRITE ? POLLOUT : 0);
		pfd.revents = 0;
		n = poll(&pfd, 1, timeout);
		if (n < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (n <= 0 || !(pfd.revents & (POLLIN | POLLERR | POLLHUP)))
			continue;
		ret = sock_drain(fd, app, buf);
		if (ret)
			break;
	}
	free(buf);
	return ret;
}

/**
 * qt_sock_peer_close - the code a CONNECTION_CLOSE ended the connection with
 * @fd: the socket, after recvmsg() reported the end
 * @code: the error code (transport or application)
 *
 * Return: 0, or -errno when it cannot be read.
 */
int qt_sock_peer_close(int fd, uint32_t *code)
{
	union {
		struct quic_connection_close cc;
		uint8_t bytes[sizeof(struct quic_connection_close) + 96];
	} b;
	socklen_t len = sizeof(b);

	memset(&b, 0, sizeof(b));
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &b, &len))
		return -errno;
	*code = b.cc.errcode;
	return 0;
}

/**
 * qt_sock_close - end the connection and close the socket
 * @fd: the socket
 * @code: application error code for the CONNECTION_CLOSE (0: NO_ERROR)
 */
void qt_sock_close(int fd, uint64_t code)
{
	struct quic_connection_close cc;

	if (code) {
		/* Only the code: an empty phrase (its NUL in the padding). */
		memset(&cc, 0, sizeof(cc));
		cc.errcode = (uint32_t)code;
		if (setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &cc, sizeof(cc)))
			qt_debug("setting the close code: %s", strerror(errno));
	}
	close(fd);
}
