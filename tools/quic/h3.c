// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HTTP/3 (RFC 9114) with nghttp3 0.8, client and server.
 *
 * nghttp3 does no I/O. What arrives on a stream goes to
 * nghttp3_conn_read_stream(); what it has to send comes from
 * nghttp3_conn_writev_stream() and goes to the socket, after which
 * nghttp3_conn_add_write_offset() says how much the socket took.
 *
 * Acknowledgments: the kernel tells the application nothing about ACK
 * frames, and it keeps (and retransmits) every byte it accepted until the
 * peer acknowledged it. So bytes are reported to nghttp3 as acknowledged
 * (nghttp3_conn_add_ack_offset()) as soon as sendmsg() took them; nghttp3
 * then releases them, and the body buffer they came from (the
 * acked_stream_data callback) can be refilled.
 *
 * Flow control: the kernel returns stream and connection credit as
 * recvmsg() reads, so the consumed counts nghttp3 reports (the return of
 * read_stream, deferred_consume) need no action here.
 *
 * Server: a request is answered when its stream ended (end_stream): 200
 * with content-length and the file, 404 (missing), 403 (outside the
 * root), 400 or 405, the errors without a body. The body is read from
 * the file QT_CHUNK bytes at a time into one buffer per stream; read_data
 * hands out a full buffer and returns NGHTTP3_ERR_WOULDBLOCK while
 * nghttp3 still holds part of it, and the stream is resumed as soon as
 * all of it was acknowledged.
 *
 * A stream is released from nghttp3 (nghttp3_conn_close_stream()) once
 * both directions ended: the peer's FIN read and ours sent.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <nghttp3/nghttp3.h>

#include "common.h"

#define H3_VECS		16

/* A request the server answers. */
struct h3_stream {
	struct h3_stream *next;
	int64_t sid;
	char path[QT_PATH_MAX];
	char method[16];
	bool bad;		/* a pseudo-header too long */
	bool req_ended;		/* the request was read to its end */
	bool responded;		/* the response was submitted */
	bool resp_fin;		/* its last byte went to the socket */
	bool blocked;		/* read_data said NGHTTP3_ERR_WOULDBLOCK */
	int fd;
	off_t size, off;	/* file size, bytes read from it */
	uint8_t *buf;		/* body bytes handed to nghttp3 */
	size_t blen, acked;	/* ... how many, how many acknowledged */
};

struct h3 {
	struct qt_app app;
	nghttp3_conn *conn;
	bool server;
	bool bound;		/* control and QPACK streams are set up */
	int64_t uni[3];		/* control, QPACK encoder, QPACK decoder */
	int nuni;
	uint64_t close_code;
	unsigned int resume;	/* streams waiting for nghttp3_conn_resume_stream() */

	/* server */
	int rootfd;
	struct h3_stream *streams;
	uint64_t max_client_bidi;

	/* client */
	const char *authority;
	struct qt_request *reqs;
	size_t n, next;		/* requests, the first not started */
	unsigned int active;
	bool goaway;
};

static int h3_fatal(struct h3 *h, int rv, const char *what)
{
	qt_err("HTTP/3: %s: %s", what, nghttp3_strerror(rv));
	h->close_code = nghttp3_err_infer_quic_app_error_code(rv);
	return -EPROTO;
}

static bool h3_critical(const struct h3 *h, int64_t sid)
{
	int i;

	for (i = 0; i < h->nuni; i++)
		if (h->uni[i] == sid)
			return true;
	return false;
}

/*
 * Open our three unidirectional streams and bind them (RFC 9114 Section
 * 6.2). Returns 0, QT_WANT_STREAM when the peer does not allow them yet,
 * or -errno.
 */
static int h3_bind(struct h3 *h)
{
	struct qt_io *io = h->app.io;
	int ret;

	while (h->nuni < 3) {
		ret = io->ops->open(io, true, &h->uni[h->nuni]);
		if (ret == -EAGAIN)
			return QT_WANT_STREAM;
		if (ret < 0) {
			qt_err("HTTP/3: opening a unidirectional stream: %s", strerror(-ret));
			return ret;
		}
		h->nuni++;
	}
	ret = nghttp3_conn_bind_control_stream(h->conn, h->uni[0]);
	if (ret)
		return h3_fatal(h, ret, "binding the control stream");
	ret = nghttp3_conn_bind_qpack_streams(h->conn, h->uni[1], h->uni[2]);
	if (ret)
		return h3_fatal(h, ret, "binding the QPACK streams");
	h->bound = true;
	return 0;
}

static struct h3_stream *h3_stream_find(struct h3 *h, int64_t sid)
{
	struct h3_stream *s;

	for (s = h->streams; s; s = s->next)
		if (s->sid == sid)
			return s;
	return NULL;
}

static void h3_stream_free(struct h3 *h, struct h3_stream *s)
{
	struct h3_stream **pp;

	for (pp = &h->streams; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	if (s->blocked)
		h->resume--;
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	free(s);
}

static void h3_client_finish(struct h3 *h, struct qt_request *r, bool ok, const char *why)
{
	if (r->state == QT_REQ_ACTIVE)
		h->active--;
	qt_req_finish(r, ok, why);
}

/* Our side of stream @sid ended: FIN sent or, @failed, given up. */
static void h3_fin_sent(struct h3 *h, int64_t sid, bool failed)
{
	struct qt_request *r;
	struct h3_stream *s;
	size_t i;

	if (h->server) {
		s = h3_stream_find(h, sid);
		if (s)
			s->resp_fin = true;
		return;
	}
	for (i = 0; i < h->next; i++) {
		r = &h->reqs[i];
		if (r->sid != sid || r->closed)
			continue;
		r->fin_sent = true;
		if (failed)
			h3_client_finish(h, r, false, "sending the request failed");
	}
}

/* Resume the streams whose body buffer was acknowledged in full. */
static int h3_resume(struct h3 *h)
{
	struct h3_stream *s;
	int rv;

	for (s = h->streams; s && h->resume; s = s->next) {
		if (!s->blocked || s->acked < s->blen)
			continue;
		s->blocked = false;
		h->resume--;
		rv = nghttp3_conn_resume_stream(h->conn, s->sid);
		if (rv)
			return h3_fatal(h, rv, "resuming a stream");
	}
	return 0;
}

/*
 * Move what nghttp3 has to send to the socket until nothing is left or
 * the send buffer is full. Returns 0, QT_WANT_WRITE or -errno.
 */
static int h3_write(struct h3 *h)
{
	struct qt_io *io = h->app.io;
	struct iovec iov[H3_VECS];
	nghttp3_vec vec[H3_VECS];
	nghttp3_ssize cnt;
	int64_t sid;
	ssize_t sent;
	size_t total;
	int fin, rv, i;

	for (;;) {
		sid = -1;
		fin = 0;
		cnt = nghttp3_conn_writev_stream(h->conn, &sid, &fin, vec, H3_VECS);
		if (cnt < 0)
			return h3_fatal(h, (int)cnt, "writing");
		if (sid < 0)
			return 0;
		total = 0;
		for (i = 0; i < cnt; i++) {
			iov[i].iov_base = vec[i].base;
			iov[i].iov_len = vec[i].len;
			total += vec[i].len;
		}
		if (!total && !fin)
			return 0;	/* nothing to do: do not spin */
		sent = io->ops->send(io, sid, iov, (int)cnt, fin);
		if (sent == -EAGAIN)
			return QT_WANT_WRITE;
		if (sent < 0) {
			if (h3_critical(h, sid)) {
				qt_err("HTTP/3: sending on stream %lld: %s", (long long)sid,
				       strerror((int)-sent));
				return (int)sent;
			}
			/* The stream is gone (reset, released): stop writing it. */
			qt_info("HTTP/3 stream %lld: sending failed (%s), dropped", (long long)sid,
				strerror((int)-sent));
			nghttp3_conn_shutdown_stream_write(h->conn, sid);
			h3_fin_sent(h, sid, true);
			continue;
		}
		rv = nghttp3_conn_add_write_offset(h->conn, sid, (size_t)sent);
		if (rv)
			return h3_fatal(h, rv, "add_write_offset");
		/* Taken by the kernel: counts as acknowledged (see the top). */
		rv = nghttp3_conn_add_ack_offset(h->conn, sid, (uint64_t)sent);
		if (rv)
			return h3_fatal(h, rv, "add_ack_offset");
		if (fin && (size_t)sent == total)
			h3_fin_sent(h, sid, false);
		rv = h3_resume(h);
		if (rv)
			return rv;
		if ((size_t)sent < total)
			return QT_WANT_WRITE;
	}
}

static int h3_recv(struct qt_app *app, int64_t sid, const uint8_t *data, size_t len, bool fin)
{
	struct h3 *h = (struct h3 *)app;
	nghttp3_ssize n;

	n = nghttp3_conn_read_stream(h->conn, sid, data, len, fin);
	if (n < 0)
		return h3_fatal(h, (int)n, "reading");
	return 0;
}

static uint64_t h3_close_code(const struct qt_app *app)
{
	return ((const struct h3 *)app)->close_code;
}

/* ---- callbacks both sides use ---- */

static int cb_acked(nghttp3_conn *conn, int64_t sid, uint64_t len, void *conn_ud,
		    void *stream_ud)
{
	struct h3 *h = conn_ud;
	struct h3_stream *s = stream_ud;

	(void)conn;
	(void)sid;
	if (h->server && s)
		s->acked += len;
	return 0;
}

static int cb_stop_sending(nghttp3_conn *conn, int64_t sid, uint64_t code, void *conn_ud,
			   void *stream_ud)
{
	struct h3 *h = conn_ud;

	(void)conn;
	(void)stream_ud;
	/* Best effort: without STOP_SENDING the peer's data is just read. */
	h->app.io->ops->stop(h->app.io, sid, code);
	return 0;
}

static int cb_reset_stream(nghttp3_conn *conn, int64_t sid, uint64_t code, void *conn_ud,
			   void *stream_ud)
{
	struct h3 *h = conn_ud;

	(void)conn;
	(void)stream_ud;
	h->app.io->ops->reset(h->app.io, sid, code);
	return 0;
}

static int cb_deferred_consume(nghttp3_conn *conn, int64_t sid, size_t consumed,
			       void *conn_ud, void *stream_ud)
{
	/* The kernel returned the flow control credit when we read. */
	(void)conn;
	(void)sid;
	(void)consumed;
	(void)conn_ud;
	(void)stream_ud;
	return 0;
}

static void h3_copy(char *dst, size_t size, nghttp3_rcbuf *rc, bool *bad)
{
	nghttp3_vec v = nghttp3_rcbuf_get_buf(rc);

	if (v.len >= size || memchr(v.base, '\0', v.len)) {
		*bad = true;
		return;
	}
	memcpy(dst, v.base, v.len);
	dst[v.len] = '\0';
}

/* ---- server ---- */

static int cb_srv_begin_headers(nghttp3_conn *conn, int64_t sid, void *conn_ud,
				void *stream_ud)
{
	struct h3 *h = conn_ud;
	struct h3_stream *s;

	if (stream_ud || !QT_SID_CLIENT_BIDI(sid))
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NGHTTP3_ERR_CALLBACK_FAILURE;
	s->sid = sid;
	s->fd = -1;
	s->next = h->streams;
	h->streams = s;
	if (nghttp3_conn_set_stream_user_data(conn, sid, s)) {
		h3_stream_free(h, s);
		return NGHTTP3_ERR_CALLBACK_FAILURE;
	}
	return 0;
}

static int cb_srv_recv_header(nghttp3_conn *conn, int64_t sid, int32_t token,
			      nghttp3_rcbuf *name, nghttp3_rcbuf *value, uint8_t flags,
			      void *conn_ud, void *stream_ud)
{
	struct h3_stream *s = stream_ud;

	(void)conn;
	(void)sid;
	(void)name;
	(void)flags;
	(void)conn_ud;
	if (!s)
		return 0;
	if (token == NGHTTP3_QPACK_TOKEN__PATH)
		h3_copy(s->path, sizeof(s->path), value, &s->bad);
	else if (token == NGHTTP3_QPACK_TOKEN__METHOD)
		h3_copy(s->method, sizeof(s->method), value, &s->bad);
	return 0;
}

static int cb_srv_end_stream(nghttp3_conn *conn, int64_t sid, void *conn_ud, void *stream_ud)
{
	struct h3_stream *s = stream_ud;

	(void)conn;
	(void)sid;
	(void)conn_ud;
	if (s)
		s->req_ended = true;
	return 0;
}

static int cb_srv_stream_close(nghttp3_conn *conn, int64_t sid, uint64_t code, void *conn_ud,
			       void *stream_ud)
{
	struct h3 *h = conn_ud;

	(void)conn;
	(void)sid;
	(void)code;
	if (stream_ud)
		h3_stream_free(h, stream_ud);
	return 0;
}

/* The response body: one buffer at a time, refilled once acknowledged. */
static nghttp3_ssize cb_srv_read_data(nghttp3_conn *conn, int64_t sid, nghttp3_vec *vec,
				      size_t veccnt, uint32_t *pflags, void *conn_ud,
				      void *stream_ud)
{
	struct h3_stream *s = stream_ud;
	struct h3 *h = conn_ud;
	size_t want;
	ssize_t n;

	(void)conn;
	if (!s || !veccnt)
		return NGHTTP3_ERR_CALLBACK_FAILURE;
	if (s->acked < s->blen) {
		/* nghttp3 still holds part of the buffer. */
		if (!s->blocked) {
			s->blocked = true;
			h->resume++;
		}
		return NGHTTP3_ERR_WOULDBLOCK;
	}
	want = (size_t)(s->size - s->off) < QT_CHUNK ? (size_t)(s->size - s->off) : QT_CHUNK;
	if (!want) {
		*pflags |= NGHTTP3_DATA_FLAG_EOF;
		return 0;
	}
	if (!s->buf) {
		s->buf = malloc(QT_CHUNK);
		if (!s->buf)
			return NGHTTP3_ERR_CALLBACK_FAILURE;
	}
	n = pread(s->fd, s->buf, want, s->off);
	if (n <= 0) {
		/* The client sees a body shorter than content-length. */
		qt_err("HTTP/3 stream %lld: reading the file failed at %lld, ending it short",
		       (long long)sid, (long long)s->off);
		s->size = s->off;
		*pflags |= NGHTTP3_DATA_FLAG_EOF;
		return 0;
	}
	s->blen = (size_t)n;
	s->acked = 0;
	s->off += n;
	vec[0].base = s->buf;
	vec[0].len = (size_t)n;
	if (s->off == s->size)
		*pflags |= NGHTTP3_DATA_FLAG_EOF;
	return 1;
}

/* Submit the response to the request of @s. Returns 0 or -errno. */
static int h3_respond(struct h3 *h, struct h3_stream *s)
{
	static const nghttp3_data_reader reader = { .read_data = cb_srv_read_data };
	char rel[QT_PATH_MAX], clen[24];
	const char *status = "200";
	bool head, body = false;
	nghttp3_nv nv[2];
	int ret;

	s->responded = true;
	head = !strcmp(s->method, "HEAD");
	if (s->bad || !s->path[0]) {
		status = "400";
		qt_info("HTTP/3 stream %lld: bad request", (long long)s->sid);
	} else if (strcmp(s->method, "GET") && !head) {
		status = "405";
		qt_info("HTTP/3 stream %lld: %s %s: method not allowed", (long long)s->sid,
			s->method, s->path);
	} else {
		ret = qt_path_sanitize(s->path, rel, sizeof(rel));
		if (!ret)
			ret = qt_open_beneath(h->rootfd, rel, &s->size);
		if (ret >= 0) {
			s->fd = ret;
			body = !head && s->size > 0;
			qt_info("HTTP/3 stream %lld: %s %s: %lld bytes", (long long)s->sid,
				s->method, s->path, (long long)s->size);
		} else {
			status = ret == -EACCES ? "403" : ret == -EINVAL ? "400" : "404";
			qt_info("HTTP/3 stream %lld: %s %s: %s", (long long)s->sid, s->method,
				s->path, ret == -EACCES ? "refused, outside the root" :
				ret == -ENOENT ? "not found" : strerror(-ret));
		}
	}
	snprintf(clen, sizeof(clen), "%lld", (long long)(s->fd >= 0 ? s->size : 0));
	nv[0] = (nghttp3_nv){ (uint8_t *)":status", (uint8_t *)status, 7, 3, 0 };
	nv[1] = (nghttp3_nv){ (uint8_t *)"content-length", (uint8_t *)clen, 14, strlen(clen),
			      0 };
	ret = nghttp3_conn_submit_response(h->conn, s->sid, nv, 2, body ? &reader : NULL);
	if (!body && s->fd >= 0) {
		close(s->fd);
		s->fd = -1;
	}
	if (ret)
		return h3_fatal(h, ret, "submitting a response");
	return 0;
}

/* Release the streams done both ways; the peer may open as many more. */
static int h3_reap_server(struct h3 *h)
{
	struct h3_stream *s, *next;
	int rv;

	for (s = h->streams; s; s = next) {
		next = s->next;
		if (!s->req_ended || !s->resp_fin)
			continue;
		rv = nghttp3_conn_close_stream(h->conn, s->sid, NGHTTP3_H3_NO_ERROR);
		if (rv == NGHTTP3_ERR_STREAM_NOT_FOUND)
			h3_stream_free(h, s);	/* no callback came */
		else if (rv)
			return h3_fatal(h, rv, "closing a stream");
		/* RFC 9000 Section 4.6: the kernel gives the client one more
		 * stream for each released one; PRIORITY_UPDATE frames may
		 * name any of them.
		 */
		h->max_client_bidi++;
		nghttp3_conn_set_max_client_streams_bidi(h->conn, h->max_client_bidi);
	}
	return 0;
}

static int h3_server_flush(struct qt_app *app)
{
	struct h3 *h = (struct h3 *)app;
	struct h3_stream *s;
	int ret;

	if (!h->bound) {
		ret = h3_bind(h);
		if (ret)
			return ret;
	}
	for (s = h->streams; s; s = s->next) {
		if (s->req_ended && !s->responded) {
			ret = h3_respond(h, s);
			if (ret)
				return ret;
		}
	}
	ret = h3_write(h);
	if (ret < 0)
		return ret;
	return h3_reap_server(h) ?: ret;
}

/* ---- client ---- */

static int cb_cli_recv_header(nghttp3_conn *conn, int64_t sid, int32_t token,
			      nghttp3_rcbuf *name, nghttp3_rcbuf *value, uint8_t flags,
			      void *conn_ud, void *stream_ud)
{
	struct qt_request *r = stream_ud;
	char buf[24];
	bool bad = false;
	char *end;

	(void)conn;
	(void)sid;
	(void)name;
	(void)flags;
	(void)conn_ud;
	if (!r || (token != NGHTTP3_QPACK_TOKEN__STATUS &&
		   token != NGHTTP3_QPACK_TOKEN_CONTENT_LENGTH))
		return 0;
	h3_copy(buf, sizeof(buf), value, &bad);
	if (bad)
		return 0;
	if (token == NGHTTP3_QPACK_TOKEN__STATUS)
		r->status = (int)strtol(buf, &end, 10);
	else
		r->clen = strtoll(buf, &end, 10);
	return 0;
}

static int cb_cli_recv_data(nghttp3_conn *conn, int64_t sid, const uint8_t *data, size_t len,
			    void *conn_ud, void *stream_ud)
{
	struct qt_request *r = stream_ud;
	struct h3 *h = conn_ud;

	(void)conn;
	(void)sid;
	if (!r || r->state != QT_REQ_ACTIVE)
		return 0;
	if (r->status != 200) {
		r->bytes += len;	/* an error page: not saved */
		return 0;
	}
	if (qt_req_write(r, data, len))
		h3_client_finish(h, r, false, "writing the output file failed");
	return 0;
}

static int cb_cli_end_stream(nghttp3_conn *conn, int64_t sid, void *conn_ud, void *stream_ud)
{
	struct qt_request *r = stream_ud;
	struct h3 *h = conn_ud;

	(void)conn;
	(void)sid;
	if (!r)
		return 0;
	r->ended = true;
	if (r->state != QT_REQ_ACTIVE)
		return 0;
	if (r->status != 200) {
		snprintf(r->whybuf, sizeof(r->whybuf), "status %d", r->status);
		h3_client_finish(h, r, false, r->whybuf);
	} else if (r->clen >= 0 && (uint64_t)r->clen != r->bytes) {
		snprintf(r->whybuf, sizeof(r->whybuf), "%" PRIu64 " bytes, content-length %" PRId64,
			 r->bytes, r->clen);
		h3_client_finish(h, r, false, r->whybuf);
	} else {
		h3_client_finish(h, r, true, NULL);
	}
	return 0;
}

static int cb_cli_stream_close(nghttp3_conn *conn, int64_t sid, uint64_t code, void *conn_ud,
			       void *stream_ud)
{
	struct qt_request *r = stream_ud;

	(void)conn;
	(void)sid;
	(void)code;
	if (r) {
		r->closed = true;
		if (r->state == QT_REQ_ACTIVE)
			h3_client_finish(conn_ud, r, false, "the stream closed early");
	}
	return 0;
}

/* GOAWAY: requests on streams from @id on will not be processed. */
static int cb_cli_shutdown(nghttp3_conn *conn, int64_t id, void *conn_ud)
{
	struct h3 *h = conn_ud;
	struct qt_request *r;
	size_t i;

	(void)conn;
	h->goaway = true;
	for (i = 0; i < h->n; i++) {
		r = &h->reqs[i];
		if (r->state == QT_REQ_PENDING ||
		    (r->state == QT_REQ_ACTIVE && r->sid >= id))
			h3_client_finish(h, r, false, "refused: the server is going away");
	}
	h->next = h->n;
	return 0;
}

/* Release the streams done both ways from nghttp3. */
static int h3_reap_client(struct h3 *h)
{
	struct qt_request *r;
	size_t i;
	int rv;

	for (i = 0; i < h->next; i++) {
		r = &h->reqs[i];
		if (r->sid < 0 || r->closed || !r->ended || !r->fin_sent)
			continue;
		rv = nghttp3_conn_close_stream(h->conn, r->sid, NGHTTP3_H3_NO_ERROR);
		if (rv && rv != NGHTTP3_ERR_STREAM_NOT_FOUND)
			return h3_fatal(h, rv, "closing a stream");
		r->closed = true;
	}
	return 0;
}

/* Submit requests on new streams while the peer and QT_MAX_INFLIGHT allow. */
static int h3_submit(struct h3 *h)
{
	struct qt_io *io = h->app.io;
	struct qt_request *r;
	nghttp3_nv nv[5];
	int64_t sid;
	int ret;

#define NV(i, n, v) (nv[i] = (nghttp3_nv){ (uint8_t *)(n), (uint8_t *)(v), strlen(n), \
					    strlen(v), 0 })
	while (!h->goaway && h->next < h->n && h->active < QT_MAX_INFLIGHT) {
		r = &h->reqs[h->next];
		ret = io->ops->open(io, false, &sid);
		if (ret == -EAGAIN)
			return QT_WANT_STREAM;
		if (ret < 0) {
			qt_err("opening a stream: %s", strerror(-ret));
			return ret;
		}
		h->next++;
		NV(0, ":method", "GET");
		NV(1, ":scheme", "https");
		NV(2, ":authority", h->authority);
		NV(3, ":path", r->target);
		NV(4, "user-agent", "quic-client");
		r->clen = -1;
		ret = nghttp3_conn_submit_request(h->conn, sid, nv, 5, NULL, r);
		if (ret) {
			snprintf(r->whybuf, sizeof(r->whybuf), "submitting the request: %s",
				 nghttp3_strerror(ret));
			qt_req_finish(r, false, r->whybuf);
			continue;
		}
		r->sid = sid;
		r->state = QT_REQ_ACTIVE;
		h->active++;
		qt_debug("%s: stream %lld", r->url, (long long)sid);
	}
#undef NV
	return 0;
}

static int h3_client_flush(struct qt_app *app)
{
	struct h3 *h = (struct h3 *)app;
	int want = 0, ret;

	if (!h->bound) {
		ret = h3_bind(h);
		if (ret)
			return ret;
	}
	ret = h3_submit(h);
	if (ret < 0)
		return ret;
	want |= ret;
	ret = h3_write(h);
	if (ret < 0)
		return ret;
	want |= ret;
	ret = h3_reap_client(h);
	return ret ?: want;
}

static bool h3_client_done(const struct qt_app *app)
{
	const struct h3 *h = (const struct h3 *)app;

	return h->next == h->n && !h->active;
}

static void h3_free(struct qt_app *app)
{
	struct h3 *h = (struct h3 *)app;

	/* nghttp3_conn_del() calls no callbacks: free our streams here. */
	nghttp3_conn_del(h->conn);
	while (h->streams)
		h3_stream_free(h, h->streams);
	free(h);
}

static const struct qt_app_ops h3_server_ops = {
	.recv		= h3_recv,
	.flush		= h3_server_flush,
	.close_code	= h3_close_code,
	.free		= h3_free,
};

static const struct qt_app_ops h3_client_ops = {
	.recv		= h3_recv,
	.flush		= h3_client_flush,
	.done		= h3_client_done,
	.close_code	= h3_close_code,
	.free		= h3_free,
};

static struct h3 *h3_new(struct qt_io *io, bool server)
{
	nghttp3_callbacks cb;
	nghttp3_settings settings;
	struct h3 *h;
	int rv;

	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->app.io = io;
	h->server = server;
	h->close_code = NGHTTP3_H3_NO_ERROR;
	memset(&cb, 0, sizeof(cb));
	cb.acked_stream_data = cb_acked;
	cb.deferred_consume = cb_deferred_consume;
	cb.stop_sending = cb_stop_sending;
	cb.reset_stream = cb_reset_stream;
	nghttp3_settings_default(&settings);
	/* No dynamic QPACK table for the peer's encoder: nothing can block. */
	settings.qpack_max_dtable_capacity = 0;
	settings.qpack_blocked_streams = 0;
	settings.max_field_section_size = 64 * 1024;
	if (server) {
		h->app.ops = &h3_server_ops;
		cb.begin_headers = cb_srv_begin_headers;
		cb.recv_header = cb_srv_recv_header;
		cb.end_stream = cb_srv_end_stream;
		cb.stream_close = cb_srv_stream_close;
		rv = nghttp3_conn_server_new(&h->conn, &cb, &settings, NULL, h);
	} else {
		h->app.ops = &h3_client_ops;
		cb.recv_header = cb_cli_recv_header;
		cb.recv_data = cb_cli_recv_data;
		cb.end_stream = cb_cli_end_stream;
		cb.stream_close = cb_cli_stream_close;
		cb.shutdown = cb_cli_shutdown;
		rv = nghttp3_conn_client_new(&h->conn, &cb, &settings, NULL, h);
	}
	if (rv) {
		qt_err("HTTP/3: %s", nghttp3_strerror(rv));
		free(h);
		return NULL;
	}
	/* Open our streams now if the peer allows, else in flush. */
	if (h3_bind(h) < 0) {
		h3_free(&h->app);
		return NULL;
	}
	return h;
}

/**
 * qt_h3_server_new - serve files below @rootfd with HTTP/3
 * @io: the connection
 * @rootfd: the served directory
 *
 * Return: the application, or NULL on failure (logged).
 */
struct qt_app *qt_h3_server_new(struct qt_io *io, int rootfd)
{
	struct h3 *h = h3_new(io, true);

	if (!h)
		return NULL;
	h->rootfd = rootfd;
	h->max_client_bidi = io->local_max_bidi;
	nghttp3_conn_set_max_client_streams_bidi(h->conn, h->max_client_bidi);
	return &h->app;
}

/**
 * qt_h3_client_new - fetch @n requests from @authority with HTTP/3
 * @io: the connection
 * @authority: the :authority of every request
 * @reqs: the requests, all QT_REQ_PENDING; they stay the caller's
 * @n: how many
 *
 * A request is complete with status 200 and, when the response has a
 * content-length, a body of that length.
 *
 * Return: the application, or NULL on failure (logged).
 */
struct qt_app *qt_h3_client_new(struct qt_io *io, const char *authority,
				struct qt_request *reqs, size_t n)
{
	struct h3 *h = h3_new(io, false);

	if (!h)
		return NULL;
	h->authority = authority;
	h->reqs = reqs;
	h->n = n;
	return &h->app;
}
