// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The two sides of one benchmark run (perf.c): the server, in a process on
 * side 1 of the namespace pair, and the client, in a process on side 0.
 * Each fills in a struct perf_res that the parent compares.
 *
 * Bulk (PERF_TPUT): the client writes messages of one size, the byte at
 * offset o of the transfer being o % 251, until its time (or its byte
 * count) is up; the last message carries the FIN (QUIC: every message on
 * stream 0) or is followed by shutdown(SHUT_WR). The server reads with
 * 256 KiB buffers into a ring, counts the bytes, checks the first and the
 * last message against the pattern and answers with one byte ('k', or 'x'
 * for bad data); the client's time runs from its first write to that byte.
 *
 * Request/response (PERF_RR): the client sends a request of 'q' bytes and
 * reads the response, which the server makes of the same bytes; a request
 * of 'Z' bytes, answered like the others, ends the run. QUIC: every
 * request on a new stream (MSG_STREAM_NEW | MSG_STREAM_FIN), the response
 * on the same stream up to its FIN.
 *
 * Handshakes (PERF_HS): the client connects (and for QUIC and kTLS runs
 * the handshake), waits for the server's close and closes, again and again;
 * the server accepts, runs its side of the handshake and closes, until the
 * parent's SIGUSR1 once the client is done. The server closing first keeps
 * both ends in step (a TCP client would otherwise run ahead of accept()
 * and stall on a full backlog) and leaves TIME_WAIT to the server.
 */

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/quic.h>

#include "ktap.h"
#include "perf.h"
#include "util.h"

#define READ_MAX	(256 * 1024)
/* The wire check looks at the packets of the first 256 KiB, or 200 ms. */
#define WIRE_BYTES	(256 * 1024)
#define WIRE_SECS	0.2
/* How long a finished side waits for its peer's close. */
#define CLOSE_WAIT_MS	2000

static uint8_t *src;		/* perf_pattern() of offsets 0.. */
static size_t src_len;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The sender's data: message k of size s starts at src + (k * s) % 251, so
 * no message costs more than the write. Returns 0 or -ENOMEM.
 */
int perf_pattern_init(size_t max_size)
{
	size_t i;

	src_len = max_size + PERF_PATTERN_PERIOD;
	src = malloc(src_len);
	if (!src)
		return -ENOMEM;
	for (i = 0; i < src_len; i++)
		src[i] = perf_pattern(i);
	return 0;
}

/* Are the @n bytes at @p those of offset @off of a transfer? */
static bool pattern_ok(const uint8_t *p, size_t n, uint64_t off)
{
	size_t k;

	while (n) {
		k = n < src_len - PERF_PATTERN_PERIOD ? n : src_len - PERF_PATTERN_PERIOD;
		if (memcmp(p, src + off % PERF_PATTERN_PERIOD, k))
			return false;
		p += k;
		n -= k;
		off += k;
	}
	return true;
}

/*
 * One message, whole: on QUIC stream @sid with @flags (MSG_STREAM_NEW
 * only with the first piece should a write be cut short). Returns 0 or a
 * negative errno.
 */
static int write_msg(const struct perf_job *j, int fd, int64_t sid, const uint8_t *p,
		     size_t len, uint32_t flags)
{
	bool quic = perf_is_quic(j->kind);
	ssize_t n;

	while (len) {
		n = quic ? quic_sendmsg(fd, p, len, sid, flags) : send(fd, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? -errno : -EIO;
		p += n;
		len -= n;
		flags &= ~MSG_STREAM_NEW;
	}
	return 0;
}

/*
 * QUIC: one stream's data up to its FIN into @buf, which has room for
 * @cap + 1 bytes. Returns the length with *@sid set, or a negative errno:
 * -EMSGSIZE beyond @cap, -EPROTO for a second stream, -EPIPE when the
 * connection ended first.
 */
static ssize_t quic_read_stream(int fd, uint8_t *buf, size_t cap, int64_t *sid)
{
	uint32_t flags;
	size_t got = 0;
	int64_t s;
	ssize_t n;

	*sid = -1;
	for (;;) {
		flags = 0;
		n = quic_recvmsg(fd, buf + got, cap + 1 - got, &s, &flags);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (flags & MSG_NOTIFICATION)
			continue;
		if (!n && !(flags & MSG_STREAM_FIN))
			return -EPIPE;
		if (*sid >= 0 && s != *sid)
			return -EPROTO;
		*sid = s;
		got += n;
		if (got > cap)
			return -EMSGSIZE;
		if (flags & MSG_STREAM_FIN)
			return got;
	}
}

/* TCP and kTLS: exactly @len bytes. Returns @len, fewer at end of file, or -errno. */
static ssize_t read_full(int fd, uint8_t *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = recv(fd, buf + got, len - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		got += n;
	}
	return got;
}

/* One message of @len bytes whatever the transport; *@sid: its QUIC stream. */
static ssize_t read_msg(const struct perf_job *j, int fd, uint8_t *buf, size_t len,
			int64_t *sid)
{
	*sid = -1;
	return perf_is_quic(j->kind) ? quic_read_stream(fd, buf, len, sid) :
				       read_full(fd, buf, len);
}

/* Done: let the peer close first (or give up after a while), not to cut it short. */
static void wait_close(const struct perf_job *j, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint8_t buf[256];
	uint32_t flags;
	int64_t sid;
	ssize_t n;
	int i;

	for (i = 0; i < 16; i++) {
		if (poll(&pfd, 1, CLOSE_WAIT_MS) <= 0)
			return;
		flags = 0;
		n = perf_is_quic(j->kind) ? quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags) :
					    recv(fd, buf, sizeof(buf), 0);
		if (n <= 0 && !(flags & MSG_NOTIFICATION))
			return;
	}
}

static bool closed_by_peer(int err)
{
	return err == -ECONNRESET || err == -EPIPE || err == -ENOTCONN || err == -ECONNABORTED;
}

/* ------------------------------------------------------------ connections */

/* The client's connection, handshake done. -1 with @r->why filled in. */
static int connect_conn(const struct perf_job *j, struct perf_res *r, int *err)
{
	int fd;

	*err = 0;
	fd = perf_sock_open(j, false, r->why, sizeof(r->why));
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&j->server, sizeof(j->server))) {
		*err = -errno;
		snprintf(r->why, sizeof(r->why), "connect: %s", errno_name(errno));
		goto fail;
	}
	*err = perf_handshake(j, fd, false, r->why, sizeof(r->why));
	if (!*err)
		return fd;
fail:
	close(fd);
	return -1;
}

/*
 * The server's next connection, handshake done. -1 with @r->why filled in
 * and *@err the handshake's error, if it failed.
 */
static int accept_conn(const struct perf_job *j, int lfd, struct perf_res *r, int *err)
{
	int fd;

	*err = 0;
	fd = accept(lfd, NULL, NULL);
	if (fd < 0) {
		snprintf(r->why, sizeof(r->why), "accept: %s", errno_name(errno));
		return -1;
	}
	if (perf_sock_accepted(j, fd)) {
		snprintf(r->why, sizeof(r->why), "accepted socket options: %s", errno_name(errno));
		close(fd);
		return -1;
	}
	*err = perf_handshake(j, fd, true, r->why, sizeof(r->why));
	if (!*err)
		return fd;
	close(fd);
	return -1;
}

/* ------------------------------------------------------------ bulk */

/* Check the last message in the ring once the transfer is over. */
static bool last_ok(const uint8_t *ring, size_t ring_len, uint64_t total, size_t size)
{
	uint64_t off = total - size;
	size_t start = off % ring_len, part;

	part = ring_len - start < size ? ring_len - start : size;
	return pattern_ok(ring + start, part, off) &&
	       pattern_ok(ring, size - part, off + part);
}

static void tput_server(const struct perf_job *j, int fd, struct perf_res *r)
{
	size_t ring_len = READ_MAX + j->size, off, room, k;
	bool quic = perf_is_quic(j->kind), fin = false, first = true;
	uint64_t pos = 0;
	uint8_t *ring, ack;
	uint32_t flags;
	int64_t sid;
	ssize_t n;

	ring = malloc(ring_len);
	if (!ring) {
		snprintf(r->why, sizeof(r->why), "out of memory");
		return;
	}
	while (!fin) {
		off = pos % ring_len;
		room = ring_len - off < READ_MAX ? ring_len - off : READ_MAX;
		flags = 0;
		n = quic ? quic_recvmsg(fd, ring + off, room, &sid, &flags) :
			   recv(fd, ring + off, room, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(r->why, sizeof(r->why), "read after %llu bytes: %s",
				 (unsigned long long)pos, errno_name(errno));
			goto out;
		}
		if (quic && (flags & MSG_NOTIFICATION))
			continue;
		if (quic && !n && !(flags & MSG_STREAM_FIN)) {
			snprintf(r->why, sizeof(r->why),
				 "the connection ended after %llu bytes, before the FIN",
				 (unsigned long long)pos);
			goto out;
		}
		if (quic && sid) {
			snprintf(r->why, sizeof(r->why), "data on stream %lld, not 0",
				 (long long)sid);
			goto out;
		}
		fin = quic ? !!(flags & MSG_STREAM_FIN) : !n;
		if (pos < j->size && n > 0) {
			k = j->size - pos < (size_t)n ? j->size - pos : (size_t)n;
			first = first && pattern_ok(ring + off, k, pos);
		}
		pos += n;
	}
	r->bytes = pos;
	r->count = pos / j->size;
	if (!pos || pos % j->size)
		snprintf(r->why, sizeof(r->why), "%llu bytes: not whole %zu-byte messages",
			 (unsigned long long)pos, j->size);
	else if (!first)
		snprintf(r->why, sizeof(r->why), "the first message differs from what was sent");
	else if (!last_ok(ring, ring_len, pos, j->size))
		snprintf(r->why, sizeof(r->why), "the last message differs from what was sent");
	else
		r->ok = 1;
	ack = r->ok ? 'k' : 'x';
	if (write_msg(j, fd, 0, &ack, 1, MSG_STREAM_FIN)) {
		snprintf(r->why, sizeof(r->why), "writing the acknowledgment: %s",
			 errno_name(errno));
		r->ok = 0;
	} else {
		wait_close(j, fd);
	}
out:
	free(ring);
}

/* Whether the 1-RTT packets carried the data in the clear, for the report. */
static void wire_report(const struct perf_job *j, const struct perf_wire *w, int err,
			struct perf_res *r)
{
	size_t n = strlen(r->note);
	const char *verdict;

	if (err) {
		snprintf(r->note + n, sizeof(r->note) - n, "\nwire check: packet socket: %s",
			 errno_name(-err));
		return;
	}
	if (!w->short_pkts)
		verdict = "no 1-RTT packet seen";
	else if (!w->clear_pkts)
		verdict = j->kind == PERF_NOCRYPT ?
			  "encrypted: disable_1rtt_encryption NOT in effect" :
			  "encrypted, as it should be";
	else
		verdict = j->kind == PERF_NOCRYPT ?
			  "in the clear: disable_1rtt_encryption in effect" :
			  "in the clear although encryption is on";
	snprintf(r->note + n, sizeof(r->note) - n,
		 "\nwire check: %u of the first %u 1-RTT packets carry the data in the clear: %s",
		 w->clear_pkts, w->short_pkts, verdict);
	r->wire_short = w->short_pkts;
	r->wire_clear = w->clear_pkts;
	/* Plaintext on an encrypted connection is a failure, not a figure. */
	if (j->kind == PERF_QUIC && w->clear_pkts) {
		snprintf(r->why, sizeof(r->why), "1-RTT packets carry the data in the clear");
		r->ok = 0;
	}
}

static void tput_client(const struct perf_job *j, int fd, struct perf_res *r)
{
	struct perf_wire w = { .fd = -1 };
	bool quic = perf_is_quic(j->kind), last = false;
	uint64_t off = 0, k;
	int64_t sid = 0;
	int err, werr = 0;
	uint32_t flags;
	uint8_t ack[2];
	double t0;
	ssize_t n;

	if (j->wire_check)
		werr = perf_wire_open(&w, j->client_ifname);
	t0 = now();
	for (k = 0; !last; k++) {
		if (perf_opt.bytes)
			last = off + j->size >= perf_opt.bytes;
		else
			last = now() - t0 >= perf_opt.seconds;
		flags = (k ? 0 : MSG_STREAM_NEW) | (last ? MSG_STREAM_FIN : 0);
		err = write_msg(j, fd, 0, src + off % PERF_PATTERN_PERIOD, j->size, flags);
		if (err) {
			snprintf(r->why, sizeof(r->why), "message %llu (%llu bytes sent): %s",
				 (unsigned long long)k, (unsigned long long)off, errno_name(-err));
			goto out;
		}
		off += j->size;
		if (w.fd >= 0 && (off >= WIRE_BYTES || now() - t0 > WIRE_SECS))
			perf_wire_scan(&w, ntohs(j->server.sin_port));
	}
	if (!quic && shutdown(fd, SHUT_WR)) {
		snprintf(r->why, sizeof(r->why), "shutdown: %s", errno_name(errno));
		goto out;
	}
	n = read_msg(j, fd, ack, 1, &sid);
	r->secs = now() - t0;
	r->bytes = off;
	r->count = k;
	if (n != 1 || sid > 0 || ack[0] != 'k')
		snprintf(r->why, sizeof(r->why), "the receiver's acknowledgment: %s",
			 n < 0 ? errno_name(-n) : n != 1 || sid > 0 ? "missing" : "bad data");
	else
		r->ok = 1;
out:
	if (w.fd >= 0)
		perf_wire_scan(&w, ntohs(j->server.sin_port));
	if (j->first)
		perf_sock_describe(j, fd, r);
	if (j->wire_check)
		wire_report(j, &w, werr, r);
}

/* ------------------------------------------------------------ request/response */

static void rr_client(const struct perf_job *j, int fd, struct perf_res *r)
{
	uint8_t *req = malloc(j->size), *resp = malloc(j->size + 1);
	double t0, t = 0;
	int64_t sid, rsid;
	bool final;
	uint64_t n;
	ssize_t got;
	int err;

	if (!req || !resp) {
		snprintf(r->why, sizeof(r->why), "out of memory");
		goto out;
	}
	t0 = now();
	for (n = 0;; n++) {
		t = now() - t0;
		final = t >= perf_opt.seconds;
		memset(req, final ? 'Z' : 'q', j->size);
		/* QUIC: the client's bidirectional streams are 0, 4, 8, ... */
		sid = (int64_t)n * 4;
		err = write_msg(j, fd, sid, req, j->size, MSG_STREAM_NEW | MSG_STREAM_FIN);
		if (err) {
			snprintf(r->why, sizeof(r->why), "request %llu: %s", (unsigned long long)n,
				 errno_name(-err));
			goto out;
		}
		got = read_msg(j, fd, resp, j->size, &rsid);
		if (got < 0) {
			snprintf(r->why, sizeof(r->why), "response %llu: %s", (unsigned long long)n,
				 errno_name(-got));
			goto out;
		}
		if ((size_t)got != j->size || memcmp(resp, req, j->size) ||
		    (perf_is_quic(j->kind) && rsid != sid)) {
			if (perf_is_quic(j->kind))
				snprintf(r->why, sizeof(r->why),
					 "response %llu: %zd bytes on stream %lld, not the %zu sent on %lld",
					 (unsigned long long)n, got, (long long)rsid, j->size,
					 (long long)sid);
			else
				snprintf(r->why, sizeof(r->why),
					 "response %llu: %zd bytes, not the %zu sent",
					 (unsigned long long)n, got, j->size);
			goto out;
		}
		if (final)
			break;
	}
	r->count = n;
	r->secs = t;
	r->ok = 1;
	if (j->first)
		perf_sock_describe(j, fd, r);
out:
	free(req);
	free(resp);
}

static void rr_server(const struct perf_job *j, int fd, struct perf_res *r)
{
	uint8_t *buf = malloc(j->size + 1);
	uint64_t n;
	int64_t sid;
	ssize_t got;
	size_t i;
	int err;

	if (!buf) {
		snprintf(r->why, sizeof(r->why), "out of memory");
		return;
	}
	for (n = 0;; n++) {
		got = read_msg(j, fd, buf, j->size, &sid);
		if (got != (ssize_t)j->size) {
			snprintf(r->why, sizeof(r->why), "request %llu: %s", (unsigned long long)n,
				 got < 0 ? errno_name(-got) : "short");
			goto out;
		}
		for (i = 0; i < j->size && buf[i] == buf[0]; i++)
			;
		if (i < j->size || (buf[0] != 'q' && buf[0] != 'Z')) {
			snprintf(r->why, sizeof(r->why), "request %llu: unexpected bytes",
				 (unsigned long long)n);
			goto out;
		}
		err = write_msg(j, fd, sid, buf, j->size, MSG_STREAM_FIN);
		if (err) {
			snprintf(r->why, sizeof(r->why), "response %llu: %s", (unsigned long long)n,
				 errno_name(-err));
			goto out;
		}
		if (buf[0] == 'Z')
			break;
	}
	r->count = n;
	r->ok = 1;
	wait_close(j, fd);
out:
	free(buf);
}

/* ------------------------------------------------------------ handshakes */

/* Set by the signal handler: read and written with atomics, not volatile. */
static int hs_stop;

static void hs_on_stop(int sig)
{
	__atomic_store_n(&hs_stop, 1, __ATOMIC_RELAXED);
}

/*
 * The parent ends the server's loop with SIGUSR1 once the client is done.
 * It is blocked from before the server listens and only let in while the
 * server waits in ppoll(), so it interrupts no handshake and is not lost.
 */
static void hs_stop_init(sigset_t *waitmask)
{
	struct sigaction sa = { .sa_handler = hs_on_stop };
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, waitmask);
	sigdelset(waitmask, SIGUSR1);
	sigaction(SIGUSR1, &sa, NULL);
}

/*
 * Connections one after the other: connect(), the handshake, then wait
 * for the server's close (so that both ends did their part) and close.
 */
static void hs_client(const struct perf_job *j, struct perf_res *r)
{
	bool quic = perf_is_quic(j->kind);
	uint8_t buf[16];
	uint32_t flags;
	int fd, err;
	int64_t sid;
	double t0;
	ssize_t n;

	t0 = now();
	while (now() - t0 < perf_opt.seconds) {
		fd = connect_conn(j, r, &err);
		if (fd < 0)
			return;
		if (j->first && !r->count)
			perf_sock_describe(j, fd, r);
		/* One byte tells the server that this side is ready (kTLS
		 * installed): a close arriving before TCP_ULP would fail it.
		 */
		err = write_msg(j, fd, 0, (const uint8_t *)"h", 1, MSG_STREAM_NEW | MSG_STREAM_FIN);
		if (err) {
			close(fd);
			snprintf(r->why, sizeof(r->why), "connection %llu: sending: %s",
				 (unsigned long long)r->count, errno_name(-err));
			return;
		}
		/* Whatever comes before the close (an event, say) is skipped. */
		do {
			flags = 0;
			n = quic ? quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags) :
				   recv(fd, buf, sizeof(buf), 0);
		} while (n > 0 || (n < 0 && errno == EINTR));
		err = n < 0 ? -errno : 0;
		close(fd);
		if (n && !closed_by_peer(err)) {
			snprintf(r->why, sizeof(r->why), "connection %llu: %s before the close",
				 (unsigned long long)r->count, errno_name(-err));
			return;
		}
		r->count++;
	}
	r->secs = now() - t0;
	r->ok = 1;
}

/* Accept, run the server's side of the handshake, read the client's byte, close;
 * until SIGUSR1.
 */
static void hs_server(const struct perf_job *j, int lfd, const sigset_t *waitmask,
		      struct perf_res *r)
{
	struct timespec idle = { .tv_sec = perf_opt.io_timeout };
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };
	uint8_t buf[2];
	int64_t sid;
	int fd, err;
	ssize_t n;

	for (;;) {
		n = ppoll(&pfd, 1, &idle, waitmask);
		if (__atomic_load_n(&hs_stop, __ATOMIC_RELAXED))
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(r->why, sizeof(r->why), "no connection for %d s after %llu",
				 perf_opt.io_timeout, (unsigned long long)r->count);
			return;
		}
		fd = accept_conn(j, lfd, r, &err);
		if (fd < 0)
			return;
		n = read_msg(j, fd, buf, 1, &sid);
		close(fd);
		if (n != 1 || buf[0] != 'h') {
			snprintf(r->why, sizeof(r->why), "connection %llu: the client's byte: %s",
				 (unsigned long long)r->count, n < 0 ? errno_name((int)-n) : "missing");
			return;
		}
		r->count++;
	}
	r->ok = 1;
}

/* ------------------------------------------------------------ the two sides */

/*
 * Listen on @j's port, tell the parent through @ready_fd ('r', or 'x' when
 * that failed), then serve the run.
 */
void perf_server(const struct perf_job *j, int ready_fd, struct perf_res *r)
{
	sigset_t waitmask;
	int lfd, fd, err;
	char c = 'x';

	if (j->test == PERF_HS)
		hs_stop_init(&waitmask);
	lfd = perf_sock_open(j, true, r->why, sizeof(r->why));
	if (lfd >= 0 && (bind(lfd, (const struct sockaddr *)&j->server, sizeof(j->server)) ||
			 listen(lfd, 128))) {
		snprintf(r->why, sizeof(r->why), "listener: %s", errno_name(errno));
		close(lfd);
		lfd = -1;
	}
	if (lfd >= 0)
		c = 'r';
	if (write(ready_fd, &c, 1) != 1 || lfd < 0)
		goto out;
	if (j->test == PERF_HS) {
		hs_server(j, lfd, &waitmask, r);
		goto out;
	}
	fd = accept_conn(j, lfd, r, &err);
	if (fd < 0)
		goto out;
	if (j->test == PERF_TPUT)
		tput_server(j, fd, r);
	else
		rr_server(j, fd, r);
	/* The client may have failed where the server saw nothing wrong. */
	perf_sock_report_end(j, fd, r);
	close(fd);
out:
	if (lfd >= 0)
		close(lfd);
}

void perf_client(const struct perf_job *j, struct perf_res *r)
{
	int fd, err;

	if (j->test == PERF_HS) {
		hs_client(j, r);
		return;
	}
	fd = connect_conn(j, r, &err);
	if (fd < 0)
		return;
	if (j->test == PERF_TPUT) {
		uint64_t before = perf_is_quic(j->kind) ? perf_sock_quic_packets() : 0, after;

		tput_client(j, fd, r);
		after = before ? perf_sock_quic_packets() : 0;
		if (after > before)
			r->pkts = after - before;
	} else
		rr_client(j, fd, r);
	if (!r->ok)
		perf_sock_report_end(j, fd, r);
	close(fd);
}
