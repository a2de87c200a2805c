// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The handshake driver: TLS 1.3 in GnuTLS's QUIC mode on one side, the
 * kernel's handshake socket calls on the other (RFC 9001 Section 4.1,
 * "Interface to TLS").
 *
 * - GnuTLS hands each outgoing handshake message to hs_out() with its
 *   encryption level; it is queued and sent with sendmsg() and a
 *   QUIC_HANDSHAKE_INFO control message naming the level (Section 4.1.3).
 * - recvmsg() returns CRYPTO bytes in order per level; whole messages
 *   are given to gnutls_handshake_write(), then gnutls_handshake() runs.
 * - Secrets go to the kernel as they appear (secret.c); the 1-RTT ones
 *   once the handshake is complete (Section 4.1.1) and our last
 *   Handshake-level bytes (the client's Finished) have been sent.
 * - On a TLS error the alert becomes the connection's error 0x100 + alert
 *   (Section 4.8), and the socket is shut down at once.
 *
 * The loop itself is the caller's (quic_handshake_step()) or ours
 * (quic_handshake()). A handshake's state is found from its session in a
 * small registry, so the session's user pointer stays the caller's.
 */

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define QUIC_HS_TIMEOUT_MS	30000
/* The retval a step starts with: its call has not been made (yet). */
#define STEP_NOT_MADE		(-EINPROGRESS)
#define QUIC_TICKET_WAIT_MS	5000

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct quic_conn *registry;

/* The handshake state of @session, or NULL when none is in progress. */
struct quic_conn *quic_conn_find(gnutls_session_t session)
{
	struct quic_conn *conn;

	pthread_mutex_lock(&registry_lock);
	for (conn = registry; conn && conn->session != session; conn = conn->next)
		;
	pthread_mutex_unlock(&registry_lock);
	return conn;
}

static struct quic_conn *conn_unlink(gnutls_session_t session)
{
	struct quic_conn **pp, *conn = NULL;

	pthread_mutex_lock(&registry_lock);
	for (pp = &registry; *pp; pp = &(*pp)->next) {
		if ((*pp)->session == session) {
			conn = *pp;
			*pp = conn->next;
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return conn;
}

static void conn_free(struct quic_conn *conn)
{
	struct quic_chunk *c;
	int i;

	while ((c = conn->sendq)) {
		conn->sendq = c->next;
		free(c);
	}
	for (i = 0; i < QUIC_CRYPTO_MAX; i++)
		free(conn->rbuf[i].data);
	explicit_bzero(conn->app, sizeof(conn->app));
	free(conn);
}

/* Map a GnuTLS error to the negative errno this library reports. */
int quic_error_from_gnutls(int gerr)
{
	switch (gerr) {
	case GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR:
	case GNUTLS_E_CERTIFICATE_ERROR:
	case GNUTLS_E_CERTIFICATE_KEY_MISMATCH:
		return -EKEYREJECTED;
	case GNUTLS_E_NO_APPLICATION_PROTOCOL:
		return -ENOPROTOOPT;
	case GNUTLS_E_INSUFFICIENT_CREDENTIALS:
	case GNUTLS_E_NO_CERTIFICATE_FOUND:
	case GNUTLS_E_KEYFILE_ERROR:
		return -ENOKEY;
	case GNUTLS_E_MEMORY_ERROR:
		return -ENOMEM;
	default:
		return -EPROTO;
	}
}

/*
 * Close the connection with CRYPTO_ERROR 0x100 + @alert (RFC 9001 Section
 * 4.8): the code is set as the socket's close code and the socket shut
 * down so that the CONNECTION_CLOSE goes out now.
 */
static void conn_close_alert(struct quic_conn *conn, int alert)
{
	union {
		struct quic_connection_close cc;
		uint8_t bytes[sizeof(struct quic_connection_close) + 81];
	} b;
	const char *name = gnutls_alert_get_name(alert);
	size_t len;

	memset(&b, 0, sizeof(b));
	b.cc.errcode = QUIC_TRANSPORT_ERROR_CRYPTO + (alert & 0xff);
	snprintf((char *)b.cc.phrase, 81, "TLS alert: %s", name ? name : "unknown");
	len = offsetof(struct quic_connection_close, phrase) + strlen((char *)b.cc.phrase) + 1;
	if (len < sizeof(b.cc))
		len = sizeof(b.cc);
	if (conn->alert_sent)
		return;
	conn->alert_sent = true;
	quic_notice("closing with TLS alert %d (%s)", alert, name ? name : "?");
	if (quic_kops->setsockopt(conn->fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &b, len))
		quic_warn("setting the close code: %s", strerror(errno));
	if (quic_kops->shutdown(conn->fd, SHUT_RDWR))
		quic_warn("shutdown: %s", strerror(errno));
}

/* Fail the handshake with @err, after closing with @alert (-1: none). */
static int conn_fail(struct quic_conn *conn, int err, int alert)
{
	if (conn->err)
		return conn->err;
	if (alert >= 0)
		conn_close_alert(conn, alert);
	conn->err = err;
	return err;
}

/* Fail after the GnuTLS error @gerr, with the alert TLS would send. */
static int conn_fail_tls(struct quic_conn *conn, int gerr)
{
	int level, alert;

	quic_err("TLS handshake: %s", gnutls_strerror(gerr));
	if (conn->kerr)	/* a kernel call failed inside a callback */
		return conn_fail(conn, conn->kerr, GNUTLS_A_INTERNAL_ERROR);
	alert = gnutls_error_to_alert(gerr, &level);
	return conn_fail(conn, conn->psk_unknown ? -ENOKEY : quic_error_from_gnutls(gerr),
			 alert >= 0 ? alert : GNUTLS_A_INTERNAL_ERROR);
}

/* gnutls_handshake_read_func: queue one outgoing handshake message. */
static int hs_out(gnutls_session_t session, gnutls_record_encryption_level_t glevel,
		  gnutls_handshake_description_t htype, const void *data, size_t len)
{
	struct quic_conn *conn = quic_conn_find(session);
	int level = quic_level_from_gnutls(glevel);
	struct quic_chunk *c;

	if (!conn || level < 0)
		return GNUTLS_E_INTERNAL_ERROR;
	if (htype == GNUTLS_HANDSHAKE_CHANGE_CIPHER_SPEC)
		return 0;	/* never in QUIC (RFC 9001 Section 8.4) */
	if (htype == GNUTLS_HANDSHAKE_CLIENT_HELLO) {
		conn->client = true;
		if (quic_alpn_offered(data, len))
			conn->alpn_wanted = true;
	}
	c = malloc(sizeof(*c) + len);
	if (!c)
		return GNUTLS_E_MEMORY_ERROR;
	c->next = NULL;
	c->level = level;
	c->len = len;
	c->off = 0;
	memcpy(c->data, data, len);
	*conn->sendq_tail = c;
	conn->sendq_tail = &c->next;
	quic_debug("queued %s (%zu bytes) at level %d",
		   gnutls_handshake_description_get_name(htype), len, level);
	return 0;
}

/*
 * gnutls_alert_read_func: in QUIC mode TLS never sends an alert record;
 * it becomes the connection's error instead.
 */
static int alert_out(gnutls_session_t session, gnutls_record_encryption_level_t glevel,
		     gnutls_alert_level_t alevel, gnutls_alert_description_t desc)
{
	struct quic_conn *conn = quic_conn_find(session);

	(void)glevel;
	(void)alevel;
	if (conn)
		conn_close_alert(conn, desc);
	return 0;
}

/* The record layer must never touch the socket in QUIC mode. */
static ssize_t no_pull(gnutls_transport_ptr_t ptr, void *data, size_t len)
{
	(void)ptr;
	(void)data;
	(void)len;
	errno = EAGAIN;
	return -1;
}

static ssize_t no_push(gnutls_transport_ptr_t ptr, const void *data, size_t len)
{
	(void)ptr;
	(void)data;
	(void)len;
	errno = EIO;
	return -1;
}

/*
 * Leave the agreed protocol in the socket's QUIC_SOCKOPT_ALPN, where the
 * caller's list was: getsockopt() then tells the application what it
 * speaks (a server accepting "h3,hq-interop" learns which one). A name
 * the "a,b" form cannot hold (one with a comma) is left out.
 */
static void conn_record_alpn(struct quic_conn *conn, const gnutls_datum_t *proto)
{
	if (memchr(proto->data, ',', proto->size) ||
	    quic_kops->setsockopt(conn->fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, proto->data,
				  proto->size))
		quic_warn("could not record the negotiated protocol on the socket");
}

/* Run TLS as far as it goes; note completion and check what QUIC needs. */
static int conn_advance(struct quic_conn *conn)
{
	gnutls_datum_t proto;
	int ret;

	if (conn->completed)
		return 0;
	ret = gnutls_handshake(conn->session);
	if (ret == GNUTLS_E_AGAIN || ret == GNUTLS_E_INTERRUPTED)
		return 0;
	if (ret < 0)
		return conn_fail_tls(conn, ret);
	conn->completed = true;
	/* RFC 9001 Section 8.2: the extension is mandatory. */
	if (!conn->tp_received) {
		quic_err("the peer sent no transport parameters");
		return conn_fail(conn, -EPROTO, GNUTLS_A_MISSING_EXTENSION);
	}
	/* RFC 9001 Section 8.1: no protocol agreed, no connection. */
	if (conn->alpn_wanted && gnutls_alpn_get_selected_protocol(conn->session, &proto)) {
		quic_err("no application protocol was negotiated");
		return conn_fail(conn, -ENOPROTOOPT, GNUTLS_A_NO_APPLICATION_PROTOCOL);
	}
	if (conn->alpn_wanted)
		conn_record_alpn(conn, &proto);
	quic_notice("TLS handshake complete");
	return 0;
}

/*
 * Take @len bytes received at @level, hand every whole handshake message
 * (4-byte header: type, 24-bit length) to TLS and run it after each.
 */
static int conn_feed(struct quic_conn *conn, uint8_t level, const uint8_t *data, size_t len)
{
	struct quic_rbuf *rb = &conn->rbuf[level];
	size_t off = 0, mlen;
	int ret;

	if (rb->len + len > rb->cap) {
		size_t cap = rb->len + len;
		uint8_t *p;

		if (cap > QUIC_HS_MSG_MAX + 4)
			return conn_fail(conn, -EMSGSIZE, GNUTLS_A_INTERNAL_ERROR);
		p = realloc(rb->data, cap);
		if (!p)
			return conn_fail(conn, -ENOMEM, GNUTLS_A_INTERNAL_ERROR);
		rb->data = p;
		rb->cap = cap;
	}
	memcpy(rb->data + rb->len, data, len);
	rb->len += len;

	while (rb->len - off >= 4) {
		const uint8_t *m = rb->data + off;

		mlen = 4 + ((size_t)m[1] << 16 | m[2] << 8 | m[3]);
		if (mlen > QUIC_HS_MSG_MAX)
			return conn_fail(conn, -EMSGSIZE, GNUTLS_A_DECODE_ERROR);
		if (rb->len - off < mlen)
			break;
		ret = gnutls_handshake_write(conn->session, quic_level_to_gnutls(level), m, mlen);
		if (ret < 0)
			return conn_fail_tls(conn, ret);
		off += mlen;
		ret = conn_advance(conn);
		if (ret)
			return ret;
	}
	memmove(rb->data, rb->data + off, rb->len - off);
	rb->len -= off;
	return 0;
}

/* Give the held 1-RTT secrets to the kernel: this ends its handshake. */
static int conn_install_app(struct quic_conn *conn)
{
	int dir, ret;

	for (dir = 1; dir >= 0; dir--) {
		struct quic_pending_secret *p = &conn->app[dir];

		if (!p->set)
			return conn_fail(conn, -EPROTO, GNUTLS_A_INTERNAL_ERROR);
		ret = quic_secret_install(conn, QUIC_CRYPTO_APP, dir, p->type, p->secret, p->len);
		explicit_bzero(p, sizeof(*p));
		if (ret)
			return conn_fail(conn, ret, GNUTLS_A_INTERNAL_ERROR);
	}
	conn->app_installed = true;
	return 0;
}

/* Point the step at a sendmsg() of the head of the send queue. */
static void step_send(struct quic_conn *conn)
{
	struct quic_chunk *c = conn->sendq;
	struct quic_handshake_info hi = { .crypto_level = c->level };
	struct cmsghdr *cmsg;

	memset(&conn->msg, 0, sizeof(conn->msg));
	memset(&conn->cbuf, 0, sizeof(conn->cbuf));
	conn->iov.iov_base = c->data + c->off;
	conn->iov.iov_len = c->len - c->off;
	conn->msg.msg_iov = &conn->iov;
	conn->msg.msg_iovlen = 1;
	conn->msg.msg_control = conn->cbuf.buf;
	conn->msg.msg_controllen = sizeof(conn->cbuf.buf);
	cmsg = CMSG_FIRSTHDR(&conn->msg);
	cmsg->cmsg_level = SOL_QUIC;
	cmsg->cmsg_type = QUIC_HANDSHAKE_INFO;
	cmsg->cmsg_len = CMSG_LEN(sizeof(hi));
	memcpy(CMSG_DATA(cmsg), &hi, sizeof(hi));
	memset(&conn->step, 0, sizeof(conn->step));
	conn->step.op = QUIC_HANDSHAKE_STEP_OP_SENDMSG;
	conn->step.s_sendmsg.msg = &conn->msg;
	/* A peer gone must not kill the caller with SIGPIPE. */
	conn->step.s_sendmsg.flags = MSG_NOSIGNAL;
	conn->step.s_sendmsg.retval = STEP_NOT_MADE;
}

/* Point the step at a recvmsg() into our buffer. */
static void step_recv(struct quic_conn *conn)
{
	memset(&conn->msg, 0, sizeof(conn->msg));
	conn->iov.iov_base = conn->recvbuf;
	conn->iov.iov_len = sizeof(conn->recvbuf);
	conn->msg.msg_iov = &conn->iov;
	conn->msg.msg_iovlen = 1;
	conn->msg.msg_control = conn->cbuf.buf;
	conn->msg.msg_controllen = sizeof(conn->cbuf.buf);
	memset(&conn->step, 0, sizeof(conn->step));
	conn->step.op = QUIC_HANDSHAKE_STEP_OP_RECVMSG;
	conn->step.s_recvmsg.msg = &conn->msg;
	conn->step.s_recvmsg.flags = 0;
	conn->step.s_recvmsg.retval = STEP_NOT_MADE;
}

/* Decide the next call: send what is queued, install 1-RTT, or read. */
static int conn_next(struct quic_conn *conn, struct quic_handshake_step **pstep)
{
	struct quic_chunk *c;
	bool early = false;
	int ret;

	for (c = conn->sendq; c; c = c->next)
		if (c->level != QUIC_CRYPTO_APP)
			early = true;
	if (conn->completed && !conn->app_installed && !early) {
		ret = conn_install_app(conn);
		if (ret)
			return ret;
		/* 1-RTT keys exist: a ticket can go (RFC 9001 Section 4.6.1). */
		if (!conn->client)
			quic_ticket_server_send(conn);
	}
	/* A 1-RTT message (a NewSessionTicket GnuTLS sends by itself, when
	 * the caller's server session lacks GNUTLS_NO_AUTO_SEND_TICKET) waits
	 * for the 1-RTT keys: sent earlier, the kernel refuses it (ENOKEY).
	 */
	if (conn->sendq && (conn->sendq->level != QUIC_CRYPTO_APP || conn->app_installed)) {
		step_send(conn);
		*pstep = &conn->step;
		return 0;
	}
	if (conn->app_installed) {
		*pstep = NULL;
		return 0;
	}
	step_recv(conn);
	*pstep = &conn->step;
	return 0;
}

/* Read the close code the peer ended the connection with (0: none). */
static uint32_t peer_close_code(struct quic_conn *conn)
{
	union {
		struct quic_connection_close cc;
		uint8_t bytes[sizeof(struct quic_connection_close) + 81];
	} b;
	socklen_t len = sizeof(b);

	memset(&b, 0, sizeof(b));
	if (quic_kops->getsockopt(conn->fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &b, &len))
		return 0;
	return b.cc.errcode;
}

/* The peer ended the connection (@err from the socket). */
static int conn_peer_gone(struct quic_conn *conn, int err)
{
	uint32_t code = peer_close_code(conn);

	quic_err("the connection ended during the handshake: %s (code 0x%x)",
		 strerror(-err), code);
	if (code == QUIC_TRANSPORT_ERROR_CRYPTO + GNUTLS_A_NO_APPLICATION_PROTOCOL)
		err = -ENOPROTOOPT;
	return conn_fail(conn, err, -1);
}

/* Account for a finished recvmsg() of @n bytes. */
static int conn_received(struct quic_conn *conn, int n)
{
	struct quic_handshake_info hi;
	struct cmsghdr *cmsg;

	if (!n)
		return conn_peer_gone(conn, -ECONNRESET);
	cmsg = CMSG_FIRSTHDR(&conn->msg);
	if (!cmsg || cmsg->cmsg_level != SOL_QUIC || cmsg->cmsg_type != QUIC_HANDSHAKE_INFO ||
	    cmsg->cmsg_len < CMSG_LEN(sizeof(hi)))
		return conn_fail(conn, -EBADMSG, GNUTLS_A_INTERNAL_ERROR);
	memcpy(&hi, CMSG_DATA(cmsg), sizeof(hi));
	if (hi.crypto_level >= QUIC_CRYPTO_MAX || hi.crypto_level == QUIC_CRYPTO_EARLY)
		return conn_fail(conn, -EBADMSG, GNUTLS_A_UNEXPECTED_MESSAGE);
	if (conn->completed)
		return 0;	/* post-handshake messages are not ours to read */
	return conn_feed(conn, hi.crypto_level, conn->recvbuf, n);
}

/*
 * Start the handshake on @session, whose transport is the QUIC socket
 * (gnutls_transport_set_int()). The caller set credentials, priorities
 * (TLS 1.3 only, "%DISABLE_TLS13_COMPAT_MODE") and, at gnutls_init(),
 * GNUTLS_NO_END_OF_EARLY_DATA (RFC 9001 Sections 8.3 and 8.4). Sets
 * *@pstep to the first call to make. Returns 0 or a negative errno.
 */
QUIC_API int quic_handshake_init(gnutls_session_t session, struct quic_handshake_step **pstep)
{
	struct quic_conn *conn;
	int ret;

	if (!session || !pstep)
		return -EINVAL;
	*pstep = NULL;
	if (quic_conn_find(session))
		return -EALREADY;
	conn = calloc(1, sizeof(*conn));
	if (!conn)
		return -ENOMEM;
	conn->session = session;
	conn->fd = gnutls_transport_get_int(session);
	conn->sendq_tail = &conn->sendq;
	ret = quic_tparam_load(conn);
	if (ret) {
		free(conn);
		return ret;
	}
	pthread_mutex_lock(&registry_lock);
	conn->next = registry;
	registry = conn;
	pthread_mutex_unlock(&registry_lock);

	ret = quic_tparam_register(conn);
	if (ret) {
		quic_handshake_deinit(session);
		return ret;
	}
	gnutls_handshake_set_secret_function(session, quic_secret_func);
	gnutls_handshake_set_read_function(session, hs_out);
	gnutls_alert_set_read_function(session, alert_out);
	gnutls_transport_set_pull_function(session, no_pull);
	gnutls_transport_set_push_function(session, no_push);
	gnutls_session_set_keylog_function(session, quic_keylog_func);

	/* A client's first call makes its ClientHello; a server has none to
	 * make and sets up its tickets before the client's arrives.
	 */
	ret = conn_advance(conn);
	if (!ret && !conn->client)
		quic_ticket_server_setup(conn);
	if (!ret)
		ret = conn_next(conn, pstep);
	return ret;
}

/*
 * Continue after the caller made the call *@pstep asked for and stored
 * its result in the s_sendmsg or s_recvmsg retval (-errno on failure;
 * -EAGAIN or -EINTR just asks for the same call again; -1 is read as
 * -errno). Sets *@pstep to the next call, or to NULL when the handshake
 * is done. Returns 0 or a negative errno: -EINVAL when the call was not
 * made (retval left as it was handed out).
 */
QUIC_API int quic_handshake_step(gnutls_session_t session, struct quic_handshake_step **pstep)
{
	struct quic_conn *conn = session ? quic_conn_find(session) : NULL;
	ssize_t r;
	int ret;

	if (!conn || !pstep)
		return -EINVAL;
	if (conn->err)
		return conn->err;
	if (*pstep != &conn->step)
		return conn_next(conn, pstep);
	if (conn->step.op == QUIC_HANDSHAKE_STEP_OP_SENDMSG)
		r = conn->step.s_sendmsg.retval;
	else
		r = conn->step.s_recvmsg.retval;
	if (r == STEP_NOT_MADE)
		return -EINVAL;
	if (r == -1 && errno)
		r = -errno;
	if (r == -EAGAIN || r == -EWOULDBLOCK || r == -EINTR) {
		if (conn->step.op == QUIC_HANDSHAKE_STEP_OP_SENDMSG)
			step_send(conn);
		else
			step_recv(conn);
		return 0;
	}
	if (conn->step.op == QUIC_HANDSHAKE_STEP_OP_SENDMSG) {
		struct quic_chunk *c = conn->sendq;

		if (r < 0)
			return conn_peer_gone(conn, (int)r);
		if ((size_t)r > c->len - c->off)
			return conn_fail(conn, -EIO, GNUTLS_A_INTERNAL_ERROR);
		c->off += r;
		if (c->off == c->len) {
			conn->sendq = c->next;
			if (!conn->sendq)
				conn->sendq_tail = &conn->sendq;
			free(c);
		}
	} else {
		if (r < 0)
			return conn_peer_gone(conn, (int)r);
		if ((size_t)r > conn->iov.iov_len)
			return conn_fail(conn, -EIO, GNUTLS_A_INTERNAL_ERROR);
		ret = conn_received(conn, (int)r);
		if (ret)
			return ret;
	}
	return conn_next(conn, pstep);
}

/* Forget the handshake state of @session (its GnuTLS hooks stay set). */
QUIC_API void quic_handshake_deinit(gnutls_session_t session)
{
	struct quic_conn *conn = conn_unlink(session);

	if (conn)
		conn_free(conn);
}

/* Wait until @fd can do what @op needs. Returns 0 or a negative errno. */
static int wait_fd(int fd, int op)
{
	struct pollfd pfd = { .fd = fd };
	int n;

	pfd.events = op == QUIC_HANDSHAKE_STEP_OP_SENDMSG ? POLLOUT : POLLIN;
	n = quic_kops->poll(&pfd, 1, QUIC_HS_TIMEOUT_MS);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	return n ? 0 : -ETIMEDOUT;
}

/*
 * Run the whole handshake of @session on its socket (blocking); a server
 * given @need_alpn insists on a protocol, @psk_file names a server's PSK
 * file. Returns 0 or a negative errno.
 */
int quic_handshake_run(gnutls_session_t session, bool need_alpn, const char *psk_file)
{
	struct quic_handshake_step *step;
	struct quic_conn *conn;
	ssize_t n;
	int fd, ret;

	ret = quic_handshake_init(session, &step);
	conn = quic_conn_find(session);
	if (conn) {
		conn->alpn_wanted |= need_alpn;
		conn->psk_file = psk_file;
	}
	fd = gnutls_transport_get_int(session);
	while (!ret && step) {
		if (step->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG) {
			n = quic_kops->sendmsg(fd, step->s_sendmsg.msg, step->s_sendmsg.flags);
			step->s_sendmsg.retval = n < 0 ? -errno : n;
		} else {
			n = quic_kops->recvmsg(fd, step->s_recvmsg.msg, step->s_recvmsg.flags);
			step->s_recvmsg.retval = n < 0 ? -errno : n;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			ret = wait_fd(fd, step->op);
			if (ret)
				break;
		}
		ret = quic_handshake_step(session, &step);
	}
	/* A client whose socket has receive_session_ticket set also waits for
	 * the server's ticket, so that quic_session_get_data() has it.
	 */
	if (!ret && conn && conn->client &&
	    quic_ticket_client_wait(session, QUIC_TICKET_WAIT_MS))
		quic_warn("no session ticket came from the server");
	quic_handshake_deinit(session);
	return ret;
}

/*
 * Run the whole handshake of a caller-prepared @session (see
 * quic_handshake_init()) on its socket, waiting as needed. Returns 0 when
 * both 1-RTT secrets are installed, or a negative errno.
 */
QUIC_API int quic_handshake(gnutls_session_t session)
{
	if (!session)
		return -EINVAL;
	return quic_handshake_run(session, false, NULL);
}
