// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hq-interop: HTTP/0.9 over QUIC, as the QUIC interop runner uses it.
 *
 * The client opens one bidirectional stream per file and sends
 * "GET /path\r\n" with FIN; the server answers with the file's bytes and
 * FIN. There are no status codes: a request the server refuses (bad
 * request, a path leaving the root, a missing file) is answered by
 * resetting the stream when the socket can (QUIC_SOCKOPT_STREAM_RESET),
 * otherwise by FIN with no data; either way the server logs why.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

/* Application error code of a refused request's RESET_STREAM. */
#define HQ_REFUSED	0x1
/* Longest request line accepted. */
#define HQ_LINE_MAX	(QT_PATH_MAX + 16)

/* ---- server ---- */

struct hq_stream {
	struct hq_stream *next;
	int64_t sid;
	char line[HQ_LINE_MAX];
	size_t len;		/* bytes of the request line so far */
	bool parsed;		/* the answer is chosen */
	bool req_fin;		/* the client ended its side */
	bool resp_fin;		/* we ended ours (or gave up on it) */
	bool refuse;		/* answer with a reset, else an empty FIN */
	int fd;			/* the file, -1 for an empty answer */
	off_t size, off;	/* file size, bytes read from it */
	uint8_t *buf;		/* read from the file, not yet sent */
	size_t blen, boff;
};

struct hq_server {
	struct qt_app app;
	int rootfd;
	struct hq_stream *streams;	/* oldest first; flush rotates it */
};

static void hq_stream_free(struct hq_stream *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	free(s);
}

/* Choose the answer to the request line in @s (complete, or ended). */
static void hq_parse(struct hq_server *hs, struct hq_stream *s)
{
	char rel[QT_PATH_MAX], *target, *end;
	int ret;

	s->parsed = true;
	s->line[s->len] = '\0';
	s->line[strcspn(s->line, "\r\n")] = '\0';
	if (strncmp(s->line, "GET ", 4)) {
		qt_info("hq stream %lld: not a GET request, refused", (long long)s->sid);
		s->refuse = true;
		return;
	}
	target = s->line + 4;
	while (*target == ' ')
		target++;
	end = strchr(target, ' ');	/* an HTTP/1.x version, if any */
	if (end)
		*end = '\0';
	ret = qt_path_sanitize(target, rel, sizeof(rel));
	if (!ret) {
		ret = qt_open_beneath(hs->rootfd, rel, &s->size);
		if (ret >= 0) {
			s->fd = ret;
			qt_info("hq stream %lld: GET %s: %lld bytes", (long long)s->sid, target,
				(long long)s->size);
			return;
		}
	}
	s->refuse = true;
	if (ret == -EACCES)
		qt_info("hq stream %lld: GET %s: refused, outside the root", (long long)s->sid,
			target);
	else if (ret == -ENOENT)
		qt_info("hq stream %lld: GET %s: not found", (long long)s->sid, target);
	else
		qt_info("hq stream %lld: GET %s: refused: %s", (long long)s->sid, target,
			strerror(-ret));
}

static struct hq_stream *hq_stream_get(struct hq_server *hs, int64_t sid)
{
	struct hq_stream *s, **pp;

	for (pp = &hs->streams; *pp; pp = &(*pp)->next)
		if ((*pp)->sid == sid)
			return *pp;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->sid = sid;
	s->fd = -1;
	*pp = s;
	return s;
}

static int hq_server_recv(struct qt_app *app, int64_t sid, const uint8_t *data, size_t len,
			  bool fin)
{
	struct hq_server *hs = (struct hq_server *)app;
	struct hq_stream *s;
	size_t room;

	if (!QT_SID_CLIENT_BIDI(sid)) {
		qt_debug("hq: ignoring %zu bytes on stream %lld", len, (long long)sid);
		return 0;
	}
	s = hq_stream_get(hs, sid);
	if (!s)
		return -ENOMEM;
	if (!s->parsed) {
		room = sizeof(s->line) - 1 - s->len;
		if (len > room) {
			qt_info("hq stream %lld: request line too long, refused", (long long)sid);
			s->parsed = true;
			s->refuse = true;
		} else {
			memcpy(s->line + s->len, data, len);
			s->len += len;
			if (fin || memchr(data, '\n', len))
				hq_parse(hs, s);
		}
	}
	if (fin)
		s->req_fin = true;
	return 0;
}

/*
 * Send the next piece of @s's answer. Returns 0 when it went out whole
 * (the stream may have more), 1 when the send buffer is full, or -errno.
 */
static int hq_stream_send(struct qt_io *io, struct hq_stream *s)
{
	struct iovec iov;
	ssize_t n;
	bool fin;

	if (s->refuse) {
		s->refuse = false;
		if (!io->ops->reset(io, s->sid, HQ_REFUSED)) {
			s->resp_fin = true;
			return 0;
		}
		/* No stream reset on this socket: end the stream empty. */
	}
	if (s->boff == s->blen && s->off < s->size) {
		size_t want = (size_t)(s->size - s->off) < QT_CHUNK ?
			      (size_t)(s->size - s->off) : QT_CHUNK;

		if (!s->buf) {
			s->buf = malloc(QT_CHUNK);
			if (!s->buf)
				return -ENOMEM;
		}
		n = pread(s->fd, s->buf, want, s->off);
		if (n <= 0) {
			qt_err("hq stream %lld: reading the file failed at %lld, ending it short",
			       (long long)s->sid, (long long)s->off);
			s->size = s->off;
			n = 0;
		}
		s->blen = (size_t)n;
		s->boff = 0;
		s->off += n;
	}
	fin = s->off == s->size;
	iov.iov_base = s->buf ? s->buf + s->boff : NULL;
	iov.iov_len = s->blen - s->boff;
	n = io->ops->send(io, s->sid, &iov, 1, fin);
	if (n == -EAGAIN)
		return 1;
	if (n < 0) {
		qt_info("hq stream %lld: sending failed (%s), dropped", (long long)s->sid,
			strerror((int)-n));
		s->resp_fin = true;
		return 0;
	}
	s->boff += (size_t)n;
	if (s->boff < s->blen)
		return 1;
	if (fin) {
		s->resp_fin = true;
		if (s->fd >= 0)
			close(s->fd);
		s->fd = -1;
		free(s->buf);
		s->buf = NULL;
	}
	return 0;
}

/* Make @s the head of the list, keeping the order around (round robin). */
static void hq_rotate(struct hq_server *hs, struct hq_stream *s)
{
	struct hq_stream *p, *tail;

	if (hs->streams == s)
		return;
	for (p = hs->streams; p->next != s; p = p->next)
		;
	p->next = NULL;
	for (tail = s; tail->next; tail = tail->next)
		;
	tail->next = hs->streams;
	hs->streams = s;
}

/*
 * Answer every parsed request a piece at a time, in turns, until all are
 * answered or the send buffer fills; a stream whose turn it was when the
 * buffer filled goes first next time. Streams finished both ways are
 * freed.
 */
static int hq_server_flush(struct qt_app *app)
{
	struct hq_server *hs = (struct hq_server *)app;
	struct hq_stream *s, **pp;
	bool progress;
	int ret;

	do {
		progress = false;
		for (pp = &hs->streams; (s = *pp);) {
			if (s->parsed && !s->resp_fin) {
				ret = hq_stream_send(app->io, s);
				if (ret < 0)
					return ret;
				if (ret) {
					hq_rotate(hs, s);
					return QT_WANT_WRITE;
				}
				progress = true;
			}
			if (s->resp_fin && s->req_fin) {
				*pp = s->next;
				hq_stream_free(s);
				continue;
			}
			pp = &s->next;
		}
	} while (progress);
	return 0;
}

static uint64_t hq_close_code(const struct qt_app *app)
{
	(void)app;
	return 0;
}

static void hq_server_free(struct qt_app *app)
{
	struct hq_server *hs = (struct hq_server *)app;
	struct hq_stream *s;

	while ((s = hs->streams)) {
		hs->streams = s->next;
		hq_stream_free(s);
	}
	free(hs);
}

static const struct qt_app_ops hq_server_ops = {
	.recv		= hq_server_recv,
	.flush		= hq_server_flush,
	.close_code	= hq_close_code,
	.free		= hq_server_free,
};

/**
 * qt_hq_server_new - serve files below @rootfd with hq-interop
 * @io: the connection
 * @rootfd: the served directory
 *
 * Return: the application, or NULL when out of memory.
 */
struct qt_app *qt_hq_server_new(struct qt_io *io, int rootfd)
{
	struct hq_server *hs = calloc(1, sizeof(*hs));

	if (!hs)
		return NULL;
	hs->app.ops = &hq_server_ops;
	hs->app.io = io;
	hs->rootfd = rootfd;
	return &hs->app;
}

/* ---- client ---- */

struct hq_client {
	struct qt_app app;
	struct qt_request *reqs;
	size_t n, next;		/* requests, the first not started */
	unsigned int active;
};

static void hq_client_finish(struct hq_client *hc, struct qt_request *r, bool ok,
			     const char *why)
{
	if (r->state == QT_REQ_ACTIVE)
		hc->active--;
	qt_req_finish(r, ok, why);
}

/* Send (the rest of) @r's request line with FIN. 0 or 1 when blocked. */
static int hq_request_send(struct hq_client *hc, struct qt_request *r)
{
	struct qt_io *io = hc->app.io;
	char line[HQ_LINE_MAX];
	struct iovec iov;
	ssize_t n;
	int len;

	len = snprintf(line, sizeof(line), "GET %s\r\n", r->target);
	if (len < 0 || (size_t)len >= sizeof(line)) {
		hq_client_finish(hc, r, false, "request target too long");
		return 0;
	}
	iov.iov_base = line + r->sent;
	iov.iov_len = (size_t)len - r->sent;
	n = io->ops->send(io, r->sid, &iov, 1, true);
	if (n == -EAGAIN)
		return 1;
	if (n < 0) {
		hq_client_finish(hc, r, false, "sending the request failed");
		return 0;
	}
	r->sent += (size_t)n;
	if (r->sent < (size_t)len)
		return 1;
	r->fin_sent = true;
	return 0;
}

/*
 * Finish sending request lines, then start requests on new streams while
 * the peer's stream limit and QT_MAX_INFLIGHT allow.
 */
static int hq_client_flush(struct qt_app *app)
{
	struct hq_client *hc = (struct hq_client *)app;
	struct qt_request *r;
	int64_t sid;
	size_t i;
	int ret;

	for (i = 0; i < hc->next; i++) {
		r = &hc->reqs[i];
		if (r->state == QT_REQ_ACTIVE && !r->fin_sent && hq_request_send(hc, r))
			return QT_WANT_WRITE;
	}
	while (hc->next < hc->n && hc->active < QT_MAX_INFLIGHT) {
		r = &hc->reqs[hc->next];
		if (qt_req_open_output(r)) {
			hc->next++;
			qt_req_finish(r, false, "cannot create the output file");
			continue;
		}
		ret = app->io->ops->open(app->io, false, &sid);
		if (ret == -EAGAIN)
			return QT_WANT_STREAM;
		if (ret < 0) {
			qt_err("opening a stream: %s", strerror(-ret));
			return ret;
		}
		hc->next++;
		hc->active++;
		r->sid = sid;
		r->state = QT_REQ_ACTIVE;
		qt_debug("%s: stream %lld", r->url, (long long)sid);
		if (hq_request_send(hc, r))
			return QT_WANT_WRITE;
	}
	return 0;
}

static int hq_client_recv(struct qt_app *app, int64_t sid, const uint8_t *data, size_t len,
			  bool fin)
{
	struct hq_client *hc = (struct hq_client *)app;
	struct qt_request *r = qt_req_find(hc->reqs, hc->n, sid);

	if (!r) {
		qt_debug("hq: ignoring %zu bytes on stream %lld", len, (long long)sid);
		return 0;
	}
	if (qt_req_write(r, data, len)) {
		hq_client_finish(hc, r, false, "writing the output file failed");
		return 0;
	}
	if (fin)
		hq_client_finish(hc, r, true, NULL);
	return 0;
}

static bool hq_client_done(const struct qt_app *app)
{
	const struct hq_client *hc = (const struct hq_client *)app;

	return hc->next == hc->n && !hc->active;
}

static void hq_client_free(struct qt_app *app)
{
	free(app);
}

static const struct qt_app_ops hq_client_ops = {
	.recv		= hq_client_recv,
	.flush		= hq_client_flush,
	.done		= hq_client_done,
	.close_code	= hq_close_code,
	.free		= hq_client_free,
};

/**
 * qt_hq_client_new - fetch @n requests with hq-interop
 * @io: the connection
 * @reqs: the requests, all QT_REQ_PENDING; they stay the caller's
 * @n: how many
 *
 * A request is complete when its stream ends with FIN: hq-interop has no
 * other way to tell success.
 *
 * Return: the application, or NULL when out of memory.
 */
struct qt_app *qt_hq_client_new(struct qt_io *io, struct qt_request *reqs, size_t n)
{
	struct hq_client *hc = calloc(1, sizeof(*hc));

	if (!hc)
		return NULL;
	hc->app.ops = &hq_client_ops;
	hc->app.io = io;
	hc->reqs = reqs;
	hc->n = n;
	return &hc->app;
}
