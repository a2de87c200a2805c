// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The socket API on live connections with real TLS: each case opens a
 * connection with libquic (tools/lib/quic) and GnuTLS between a client on
 * side 0 and a server on side 1 of a namespace pair joined by veth
 * (netns.h), then drives both ends step by step and checks what each call
 * returns and what the peer sees.
 *
 * The server runs socket(), bind(), listen(), accept() and
 * quic_server_handshake() in a thread that has entered side 1; the main
 * thread, on side 0, runs the client's socket(), connect() and
 * quic_client_handshake() (X.509 verified against the test CA, or a PSK).
 * Once both handshakes returned, both descriptors belong to the main
 * thread, which scripts the case.
 *
 * Each case is a KTAP subtest whose plan is the number of checks it makes;
 * each check names the behaviour it checks. The first one of every case
 * reads back the cipher suite and QUIC version the handshake agreed on
 * (the ones the case names, if it does). A step that only prepares a
 * check (enabling an event, an action whose effect the next checks look
 * at) is not a result: when it fails the case stops short of its plan.
 *
 * The cases cover stream opening, reset and stop sending (RFC 9000
 * Sections 2-3, 19.4, 19.5), stream states and limits as notifications
 * (QUIC_SOCKOPT_EVENT), key update by each side (RFC 9001 Section 6),
 * connection IDs (RFC 9000 Section 5.1), the peer's close, DATAGRAM frames
 * (RFC 9221), the queue ioctls, poll(), /proc/net/quic and ALPN.
 *
 * Usage: functional [certificate directory, default /tests/certs]
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <time.h>
#include <unistd.h>
#include <linux/sockios.h>
#include <linux/tls.h>
#include <netinet/quic.h>

#include "hswatch.h"
#include "ktap.h"
#include "netns.h"
#include "util.h"

#define PORT_BASE	4700
#define TIMEO_S		10
#define HOSTNAME	"server.test"	/* the SAN of server.pem */
#define ALPN		"quic-selftest"
#define PREF_DELTA	1000		/* the preferred address's port, from the server's */

/* How a case's connection is made. */
struct conn_opts {
	int family;
	uint32_t version;
	uint32_t cipher;
	bool psk;
	uint32_t listen_events;		/* bit per QUIC_EVENT_* on the listener */
	uint16_t server_max_streams_uni;	/* 0: the default */
	uint16_t max_datagram;		/* max_datagram_frame_size, both sides */
	uint32_t listen_version;	/* the listener's preferred version, 0: v1 */
	uint32_t client_events;		/* bit per QUIC_EVENT_* on the client, before connect() */
	uint16_t pref_port_delta;	/* server: offer its address at port + this */
	int pref_family;		/* that address's family, 0: @family */
	bool client_v6only;		/* IPV6_V6ONLY on the client before connect() */
};

struct conn {
	int cli;
	int srv;
	struct hs_keys cli_keys;	/* what each handshake gave its kernel */
	struct hs_keys srv_keys;
};

struct fn_case {
	const char *name;
	unsigned int checks;
	void (*run)(struct conn *c);
	struct conn_opts opts;
};

static struct netns_pair pair;
static int next_port = PORT_BASE;


static void lib_log(int level, const char *msg)
{
	ktap_diag("libquic: %s", msg);
}


static socklen_t server_addr(int family, int port, struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons(port);
		a4->sin_addr = pair.addr4[1];
		return sizeof(*a4);
	}
	a6->sin6_family = AF_INET6;
	a6->sin6_port = htons(port);
	a6->sin6_addr = pair.addr6[1];
	return sizeof(*a6);
}

static int event_set(int fd, uint8_t type, bool on)
{
	struct quic_event_option ev = { .type = type, .on = on };

	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev));
}

static int event_get(int fd, uint8_t type)
{
	struct quic_event_option ev = { .type = type };
	socklen_t len = sizeof(ev);

	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_EVENT, &ev, &len))
		return -1;
	return ev.on;
}

/* Stream and datagram limits of one side, before connect() or listen(). */
static int set_params(int fd, const struct conn_opts *o, bool server)
{
	struct quic_transport_param prm;
	socklen_t len = sizeof(prm);

	memset(&prm, 0, sizeof(prm));
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &prm, &len))
		return -1;
	if (server && o->server_max_streams_uni)
		prm.max_streams_uni = o->server_max_streams_uni;
	prm.max_datagram_frame_size = o->max_datagram;
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &prm, sizeof(prm));
}

struct server_arg {
	const struct conn_opts *o;
	int port;
	int ready[2];
	int fd;
	int ret;
	struct hs_keys keys;
	char why[128];
};

static void *server_main(void *p)
{
	struct server_arg *a = p;
	const struct conn_opts *o = a->o;
	struct sockaddr_storage ss;
	socklen_t len = server_addr(o->family, a->port, &ss);
	int lfd, i;

	a->fd = -1;
	a->ret = -1;
	if (netns_enter(&pair, 1)) {
		snprintf(a->why, sizeof(a->why), "entering side 1: %s", errno_name(errno));
		goto out;
	}
	lfd = socket(o->family, SOCK_STREAM, IPPROTO_QUIC);
	if (lfd < 0) {
		snprintf(a->why, sizeof(a->why), "socket: %s", errno_name(errno));
		goto out;
	}
	sock_timeouts(lfd, TIMEO_S);
	for (i = 1; i <= QUIC_EVENT_MAX; i++) {
		if ((o->listen_events & (1u << i)) && event_set(lfd, i, true)) {
			snprintf(a->why, sizeof(a->why), "event %d: %s", i, errno_name(errno));
			close(lfd);
			goto out;
		}
	}
	if (o->listen_version) {
		struct quic_config cfg = { .version = o->listen_version };

		if (setsockopt(lfd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, sizeof(cfg))) {
			snprintf(a->why, sizeof(a->why), "config: %s", errno_name(errno));
			close(lfd);
			goto out;
		}
	}
	if (set_params(lfd, o, true) || bind(lfd, (struct sockaddr *)&ss, len) ||
	    listen(lfd, 1)) {
		snprintf(a->why, sizeof(a->why), "listener: %s", errno_name(errno));
		close(lfd);
		goto out;
	}
	if (write(a->ready[1], "r", 1) != 1)
		snprintf(a->why, sizeof(a->why), "ready: %s", errno_name(errno));
	a->fd = accept(lfd, NULL, NULL);
	close(lfd);
	if (a->fd < 0) {
		snprintf(a->why, sizeof(a->why), "accept: %s", errno_name(errno));
		return NULL;
	}
	sock_timeouts(a->fd, TIMEO_S);
	hs_watch(a->fd);
	if (o->pref_port_delta) {
		len = server_addr(o->pref_family ?: o->family, a->port + o->pref_port_delta,
				  &ss);
		if (setsockopt(a->fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_MIGRATION, &ss, len)) {
			snprintf(a->why, sizeof(a->why), "preferred address: %s",
				 errno_name(errno));
			return NULL;
		}
	}
	if (o->psk)
		a->ret = quic_server_handshake(a->fd, cert_path("psk-alice.txt"), NULL,
					       "h3," ALPN);
	else
		a->ret = quic_server_handshake(a->fd, cert_path("server.key"),
					       cert_path("server.pem"), "h3," ALPN);
	a->keys = hs_watch_end(a->fd);
	if (a->ret)
		snprintf(a->why, sizeof(a->why), "handshake: %s", errno_name(-a->ret));
	return NULL;
out:
	if (write(a->ready[1], "x", 1) != 1)
		a->ret = -1;
	return NULL;
}

/* Connect a client to a fresh server; 0 with both descriptors in @c. */
static int conn_open(const struct conn_opts *o, struct conn *c)
{
	struct server_arg a = { .o = o, .port = next_port++ };
	struct sockaddr_storage ss;
	socklen_t alen = server_addr(o->family, a.port, &ss);
	struct quic_config cfg;
	socklen_t len = sizeof(cfg);
	pthread_t th;
	int ret = -1, i;
	char r;

	c->cli = -1;
	c->srv = -1;
	if (pipe(a.ready))
		return -1;
	if (pthread_create(&th, NULL, server_main, &a)) {
		ktap_diag("pthread_create failed");
		goto out;
	}
	if (read(a.ready[0], &r, 1) != 1 || r != 'r') {
		pthread_join(th, NULL);
		ktap_diag("server not ready: %s", a.why);
		goto out;
	}
	c->cli = socket(o->family, SOCK_STREAM, IPPROTO_QUIC);
	if (c->cli < 0)
		goto join;
	sock_timeouts(c->cli, TIMEO_S);
	hs_watch(c->cli);
	memset(&cfg, 0, sizeof(cfg));
	if (getsockopt(c->cli, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len))
		goto join;
	cfg.version = o->version ?: QUIC_VERSION_V1;
	cfg.payload_cipher_type = o->cipher;
	if (setsockopt(c->cli, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, sizeof(cfg)) ||
	    set_params(c->cli, o, false))
		goto join;
	if (o->client_v6only &&
	    setsockopt(c->cli, IPPROTO_IPV6, IPV6_V6ONLY, &(int){ 1 }, sizeof(int)))
		goto join;
	for (i = 1; i <= QUIC_EVENT_MAX; i++)
		if ((o->client_events & (1u << i)) && event_set(c->cli, i, true))
			goto join;
	quic_set_ca_file(cert_path("ca.pem"));
	if (connect(c->cli, (struct sockaddr *)&ss, alen))
		goto join;
	if (o->psk)
		ret = quic_client_handshake(c->cli, cert_path("psk-alice.txt"), NULL, ALPN);
	else
		ret = quic_client_handshake(c->cli, NULL, HOSTNAME, ALPN);
	if (ret)
		ktap_diag("client handshake: %s", errno_name(-ret));
	c->cli_keys = hs_watch_end(c->cli);
join:
	if (ret && ret != -1)
		shutdown(c->cli, SHUT_RDWR);	/* unblock the server */
	if (ret == -1)
		ktap_diag("client setup: %s", errno_name(errno));
	pthread_join(th, NULL);
	c->srv = a.fd;
	c->srv_keys = a.keys;
	if (a.ret) {
		ktap_diag("server: %s", a.why);
		ret = -1;
	}
out:
	close(a.ready[0]);
	close(a.ready[1]);
	return ret ? -1 : 0;
}

static void conn_close(struct conn *c)
{
	if (c->cli >= 0)
		close(c->cli);
	if (c->srv >= 0)
		close(c->srv);
}

/* ---------------------------------------------------------- helpers */

static bool check(bool ok, const char *name)
{
	return ktap_result(ok, "%s", name);
}

static bool check_errno(long ret, int want, const char *name)
{
	return ktap_expect_errno(ret, errno, want, "%s", name);
}

/*
 * A step that prepares what the following checks look at is not a result
 * of its own: when it fails, the case says what and stops there, short of
 * its plan, which fails it.
 */
static bool setup(bool ok, const char *what)
{
	if (!ok)
		ktap_diag("setup failed: %s (%s)", what, errno_name(errno));
	return ok;
}

static ssize_t send_stream(int fd, int64_t sid, uint32_t flags, const void *buf, size_t len)
{
	return quic_sendmsg(fd, buf, len, sid, flags);
}

/* One recvmsg(): data, datagram or notification; @flags gets msg_flags. */
static ssize_t recv_any(int fd, void *buf, size_t len, int64_t *sid, uint32_t *flags)
{
	*flags = 0;
	return quic_recvmsg(fd, buf, len, sid, flags);
}

/* Read until a notification of @type; its payload goes to @out. Data and
 * other notifications on the way are dropped. Returns the payload length.
 */
static ssize_t wait_event(int fd, uint8_t type, void *out, size_t len)
{
	uint8_t buf[256];
	uint32_t flags;
	int64_t sid;
	ssize_t n;
	int i;

	for (i = 0; i < 1000; i++) {
		n = recv_any(fd, buf, sizeof(buf), &sid, &flags);
		if (n <= 0) {
			ktap_diag("waiting for event %u: %zd, %s", type, n, errno_name(errno));
			return -1;
		}
		if (!(flags & MSG_NOTIFICATION) || buf[0] != type)
			continue;
		if ((size_t)n - 1 < len)
			len = n - 1;
		memcpy(out, buf + 1, len);
		return n - 1;
	}
	return -1;
}

/* Read stream updates until @id reaches @state. */
static bool wait_update(int fd, int64_t id, uint8_t state, struct quic_stream_update *u)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (wait_event(fd, QUIC_EVENT_STREAM_UPDATE, u, sizeof(*u)) != sizeof(*u))
			return false;
		if (u->id == id && u->state == state)
			return true;
	}
	return false;
}

static uint8_t pattern(size_t i, uint8_t seed)
{
	return (uint8_t)(i * 29 + (i >> 10) + seed);
}

static uint8_t *pattern_buf(size_t len, uint8_t seed)
{
	uint8_t *b = malloc(len);
	size_t i;

	for (i = 0; b && i < len; i++)
		b[i] = pattern(i, seed);
	return b;
}

/* Read stream @sid until its FIN (or @len bytes when @fin is false) and
 * compare with pattern(@seed). Notifications on the way are skipped.
 */
static bool read_stream(int fd, int64_t sid, size_t len, uint8_t seed, bool fin)
{
	uint8_t *buf = malloc(len + 1);
	size_t got = 0, i;
	uint32_t flags;
	bool ok = false;
	int64_t id;
	ssize_t n;

	if (!buf)
		return false;
	for (;;) {
		n = recv_any(fd, buf + got, len + 1 - got, &id, &flags);
		if (n < 0) {
			ktap_diag("stream %lld after %zu bytes: %s", (long long)sid, got,
				  errno_name(errno));
			goto out;
		}
		if (flags & MSG_NOTIFICATION)
			continue;
		if (id != sid) {
			ktap_diag("data of stream %lld, expected %lld", (long long)id,
				  (long long)sid);
			goto out;
		}
		got += n;
		if (flags & MSG_STREAM_FIN)
			break;
		if (!fin && got >= len)
			break;
		if (!n) {
			ktap_diag("end of file after %zu bytes", got);
			goto out;
		}
	}
	if (got != len) {
		ktap_diag("stream %lld: %zu bytes, expected %zu", (long long)sid, got, len);
		goto out;
	}
	for (i = 0; i < len; i++) {
		if (buf[i] != pattern(i, seed)) {
			ktap_diag("stream %lld: byte %zu differs", (long long)sid, i);
			goto out;
		}
	}
	ok = true;
out:
	free(buf);
	return ok;
}

static ssize_t send_pattern(int fd, int64_t sid, uint32_t flags, size_t len, uint8_t seed)
{
	uint8_t *buf = pattern_buf(len, seed);
	ssize_t n;

	if (!buf)
		return -1;
	n = send_stream(fd, sid, flags, buf, len);
	free(buf);
	return n;
}

static int errinfo(int fd, int opt, int64_t sid, uint32_t code)
{
	struct quic_errinfo ei = { .stream_id = sid, .errcode = code };

	return setsockopt(fd, SOL_QUIC, opt, &ei, sizeof(ei));
}

static int stream_open(int fd, int64_t id, uint32_t flags, int64_t *out)
{
	struct quic_stream_info si = { .stream_id = id, .stream_flags = flags };
	socklen_t len = sizeof(si);
	int ret;

	ret = getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_STREAM_OPEN, &si, &len);
	if (!ret && out)
		*out = si.stream_id;
	return ret;
}

/* Try a key update for up to 5 s while it is not allowed yet (EAGAIN). */
static int key_update(int fd)
{
	int i, ret = -1;

	for (i = 0; i < 250; i++) {
		ret = setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_KEY_UPDATE, NULL, 0);
		if (!ret || errno != EAGAIN)
			break;
		usleep(20000);
	}
	return ret;
}

/* ------------------------------------------------------------ cases */

/* RFC 9000 Section 2.1 and QUIC_SOCKOPT_STREAM_OPEN. */
static void case_stream_open(struct conn *c)
{
	int64_t id = -1;
	int ret;

	ret = stream_open(c->cli, -1, 0, &id);
	check(!ret && id == 0, "STREAM_OPEN with id -1 opens the client's first bidirectional stream, 0");
	ret = stream_open(c->cli, -1, MSG_STREAM_UNI, &id);
	check(!ret && id == 2, "STREAM_OPEN with MSG_STREAM_UNI opens the first unidirectional one, 2");
	ret = stream_open(c->cli, 0, 0, NULL);
	check_errno(ret, EEXIST, "STREAM_OPEN of a stream opened before is EEXIST");
	ret = stream_open(c->cli, 1, 0, NULL);
	check_errno(ret, EINVAL, "STREAM_OPEN of a server stream ID is EINVAL");
	ret = stream_open(c->cli, 4, MSG_STREAM_UNI, NULL);
	check_errno(ret, EINVAL, "STREAM_OPEN of a bidirectional ID with MSG_STREAM_UNI is EINVAL");
	ret = stream_open(c->cli, -1, MSG_STREAM_FIN, NULL);
	check_errno(ret, EINVAL, "STREAM_OPEN with a flag other than UNI or DONTWAIT is EINVAL");
	ret = stream_open(c->srv, -1, 0, &id);
	check(!ret && id == 1, "the server's first bidirectional stream is 1");

	check(send_pattern(c->cli, 2, MSG_STREAM_FIN, 3000, 1) == 3000,
	      "the client writes its unidirectional stream 2 with FIN");
	check(read_stream(c->srv, 2, 3000, 1, true), "the server reads stream 2 to its FIN, byte-exact");
	errno = 0;
	check_errno(send_stream(c->srv, 2, 0, "x", 1), EINVAL,
		    "the server cannot write on the client's unidirectional stream");
	check(send_pattern(c->cli, 0, MSG_STREAM_FIN, 5000, 2) == 5000,
	      "the client writes bidirectional stream 0 with FIN");
	check(read_stream(c->srv, 0, 5000, 2, true), "the server reads stream 0");
	check(send_pattern(c->srv, 0, MSG_STREAM_FIN, 7000, 3) == 7000,
	      "the server answers on the same stream");
	check(read_stream(c->cli, 0, 7000, 3, true), "the client reads the answer on stream 0");
	check(send_pattern(c->srv, 1, MSG_STREAM_FIN, 100, 4) == 100,
	      "the server writes on its own stream 1");
	check(read_stream(c->cli, 1, 100, 4, true), "the client reads stream 1");
	check_errno(send_stream(c->cli, 0, 0, "x", 1), EPIPE,
		    "a write after the stream's FIN and release is EPIPE");
}

/* RFC 9000 Sections 3.1 and 19.4: QUIC_SOCKOPT_STREAM_RESET. */
static void case_stream_reset(struct conn *c)
{
	struct quic_errinfo ei = { .stream_id = 0, .errcode = 1 };
	struct quic_stream_update u;
	socklen_t len = sizeof(ei);

	check(event_get(c->srv, QUIC_EVENT_STREAM_UPDATE) == 1,
	      "the accepted socket has the listener's STREAM_UPDATE event on");
	check(send_pattern(c->cli, 0, MSG_STREAM_NEW, 1000, 5) == 1000,
	      "the client writes 1000 bytes on stream 0 without FIN");
	if (!setup(!errinfo(c->cli, QUIC_SOCKOPT_STREAM_RESET, 0, 0x1234),
		   "STREAM_RESET of stream 0"))
		return;
	check(wait_update(c->srv, 0, QUIC_STREAM_RECV_STATE_RESET_RECVD, &u),
	      "the server is told: stream 0 in Reset Recvd");
	check(u.errcode == 0x1234, "the notification carries the application error code");
	check(u.finalsz == 1000, "the notification carries the final size, the bytes written");
	check_errno(send_stream(c->cli, 0, 0, "x", 1), EPIPE,
		    "writing a reset stream is EPIPE");
	check_errno(errinfo(c->cli, QUIC_SOCKOPT_STREAM_RESET, 0, 1), EALREADY,
		    "resetting it again is EALREADY");
	check_errno(errinfo(c->cli, QUIC_SOCKOPT_STREAM_RESET, 400, 1), ENOENT,
		    "resetting a stream never opened is ENOENT");
	check_errno(errinfo(c->cli, QUIC_SOCKOPT_STREAM_RESET, 3, 1), EINVAL,
		    "resetting the peer's unidirectional stream (we cannot send on it) is EINVAL");
	check_errno(setsockopt(c->cli, SOL_QUIC, QUIC_SOCKOPT_STREAM_RESET, &ei, sizeof(ei) - 1),
		    EINVAL, "STREAM_RESET with a short value is EINVAL");
	check_errno(getsockopt(c->cli, SOL_QUIC, QUIC_SOCKOPT_STREAM_RESET, &ei, &len),
		    EOPNOTSUPP, "STREAM_RESET cannot be read: EOPNOTSUPP");
	/* The connection carries on. */
	check(send_pattern(c->cli, 4, MSG_STREAM_NEW | MSG_STREAM_FIN, 2000, 6) == 2000,
	      "another stream is written after the reset");
	check(read_stream(c->srv, 4, 2000, 6, true), "and read whole by the server");
}

/* RFC 9000 Sections 3.5 and 19.5: QUIC_SOCKOPT_STREAM_STOP_SENDING. */
static void case_stop_sending(struct conn *c)
{
	struct quic_stream_update u;

	if (!setup(!event_set(c->cli, QUIC_EVENT_STREAM_UPDATE, true),
		   "the client enables STREAM_UPDATE"))
		return;
	check(send_pattern(c->cli, 4, MSG_STREAM_NEW, 500, 7) == 500,
	      "the client writes 500 bytes on stream 4");
	check(read_stream(c->srv, 4, 500, 7, false), "the server reads them");
	if (!setup(!event_set(c->srv, QUIC_EVENT_STREAM_UPDATE, true),
		   "the server enables STREAM_UPDATE") ||
	    !setup(!errinfo(c->srv, QUIC_SOCKOPT_STREAM_STOP_SENDING, 4, 0x77),
		   "the server asks the client to stop sending on stream 4"))
		return;
	check(wait_update(c->cli, 4, QUIC_STREAM_SEND_STATE_RESET_SENT, &u),
	      "the client's stream 4 goes to Reset Sent");
	check(u.errcode == 0x77, "with the code of the STOP_SENDING");
	check(u.finalsz == 500, "and the bytes written as final size");
	check(wait_update(c->srv, 4, QUIC_STREAM_RECV_STATE_RESET_RECVD, &u),
	      "the server's stream 4 goes to Reset Recvd");
	check(u.errcode == 0x77, "with the same code");
	check(wait_update(c->cli, 4, QUIC_STREAM_SEND_STATE_RESET_RECVD, &u),
	      "the client's RESET_STREAM is acknowledged: Reset Recvd");
	check_errno(send_stream(c->cli, 4, 0, "x", 1), EPIPE, "writing stream 4 is EPIPE");
	check_errno(errinfo(c->cli, QUIC_SOCKOPT_STREAM_STOP_SENDING, 2, 1), EINVAL,
		    "STOP_SENDING on our own unidirectional stream is EINVAL");
	check_errno(errinfo(c->srv, QUIC_SOCKOPT_STREAM_STOP_SENDING, 8, 1), ENOENT,
		    "STOP_SENDING on a stream not open is ENOENT");
}

/* RFC 9000 Section 3: a stream's life seen in notifications at both ends,
 * in the states draft-lxin-quic-socket-apis delivers.
 */
static void case_stream_states(struct conn *c)
{
	struct quic_stream_update u;

	if (!setup(!event_set(c->cli, QUIC_EVENT_STREAM_UPDATE, true) &&
		   !event_set(c->srv, QUIC_EVENT_STREAM_UPDATE, true),
		   "both ends enable STREAM_UPDATE"))
		return;
	check(send_pattern(c->cli, 0, MSG_STREAM_NEW | MSG_STREAM_FIN, 300, 8) == 300,
	      "the client writes stream 0 and ends it in one call");
	check(wait_update(c->srv, 0, QUIC_STREAM_RECV_STATE_RECVD, &u),
	      "the server's receiving part reaches Data Recvd");
	check(u.finalsz == 300, "Data Recvd reports the final size");
	check(read_stream(c->srv, 0, 300, 8, true), "the server reads the stream");
	check(wait_update(c->cli, 0, QUIC_STREAM_SEND_STATE_RECVD, &u),
	      "the client's part reaches Data Recvd once everything is acknowledged");
	check(u.finalsz == 300, "and reports the final size");
	check(send_pattern(c->cli, 4, MSG_STREAM_NEW, 10, 9) == 10,
	      "a write without FIN");
	check(wait_update(c->srv, 4, QUIC_STREAM_RECV_STATE_RECV, &u),
	      "tells the server of a new stream with data pending (Recv)");
	check(read_stream(c->srv, 4, 10, 9, false), "which the server reads");
}

/* RFC 9000 Section 4.6: stream limits, STREAMS_BLOCKED, MAX_STREAMS. */
static void case_stream_limits(struct conn *c)
{
	int64_t max_id = 0, id = -1;

	if (!setup(!event_set(c->cli, QUIC_EVENT_STREAM_MAX_STREAM, true),
		   "the client enables STREAM_MAX_STREAM"))
		return;
	check(send_pattern(c->cli, 2, MSG_STREAM_NEW | MSG_STREAM_FIN, 10, 20) == 10,
	      "the first unidirectional stream of the two allowed");
	check(send_pattern(c->cli, 6, MSG_STREAM_NEW | MSG_STREAM_FIN, 10, 21) == 10,
	      "the second one");
	check_errno(stream_open(c->cli, -1, MSG_STREAM_UNI | MSG_STREAM_DONTWAIT, NULL), EAGAIN,
		    "a third is EAGAIN with MSG_STREAM_DONTWAIT while the limit holds");
	check_errno(send_stream(c->cli, -1, MSG_STREAM_NEW | MSG_STREAM_UNI | MSG_STREAM_DONTWAIT,
				"c", 1), EAGAIN, "and so is a write that would open it");
	check_errno(stream_open(c->cli, -1, MSG_STREAM_UNI | MSG_STREAM_DONTWAIT |
				MSG_STREAM_SNDBLOCK, NULL), EAGAIN,
		    "STREAM_OPEN takes MSG_STREAM_SNDBLOCK, and is still EAGAIN while the limit holds");
	check(read_stream(c->srv, 2, 10, 20, true) && read_stream(c->srv, 6, 10, 21, true),
	      "the server reads both streams to their end");
	check(wait_event(c->cli, QUIC_EVENT_STREAM_MAX_STREAM, &max_id, sizeof(max_id)) == 8,
	      "the client is told the limit was raised");
	check((max_id & 3) == 2, "the notification names a client unidirectional stream ID");
	check(max_id >= 10, "and allows at least one more stream");
	check(!stream_open(c->cli, -1, MSG_STREAM_UNI | MSG_STREAM_DONTWAIT, &id) && id == 10,
	      "now the third stream, 10, opens");
}

/* RFC 9000 Section 4.1: MAX_STREAM_DATA as a notification. */
static void case_stream_max_data(struct conn *c)
{
	const size_t len = 300 * 1024;
	struct quic_stream_max_data md = {};

	if (!setup(!event_set(c->cli, QUIC_EVENT_STREAM_MAX_DATA, true),
		   "the client enables STREAM_MAX_DATA"))
		return;
	check(send_pattern(c->cli, 0, MSG_STREAM_NEW | MSG_STREAM_FIN, len, 10) == (ssize_t)len,
	      "the client writes more than the initial stream window");
	check(read_stream(c->srv, 0, len, 10, true), "the server reads all of it, byte-exact");
	check(wait_event(c->cli, QUIC_EVENT_STREAM_MAX_DATA, &md, sizeof(md)) == sizeof(md),
	      "the client is told the stream's limit was raised");
	check(md.id == 0, "for stream 0");
	check(md.max_data > 256 * 1024, "beyond the initial window");
}

/* RFC 9001 Section 6: key updates started by each side. */
static void case_key_update(struct conn *c)
{
	const size_t len = 64 * 1024;
	uint8_t phase = 9;

	if (!setup(!event_set(c->cli, QUIC_EVENT_KEY_UPDATE, true) &&
		   !event_set(c->srv, QUIC_EVENT_KEY_UPDATE, true),
		   "both ends enable KEY_UPDATE"))
		return;
	check(send_stream(c->cli, 0, MSG_STREAM_NEW | MSG_STREAM_FIN, "", 0) == 0 &&
	      read_stream(c->srv, 0, 0, 0, true), "a first exchange confirms the handshake");
	if (!setup(!key_update(c->cli), "the client starts a key update"))
		return;
	check(send_pattern(c->cli, 4, MSG_STREAM_NEW | MSG_STREAM_FIN, len, 11) == (ssize_t)len,
	      "and writes 64 KiB under the new keys");
	check(wait_event(c->srv, QUIC_EVENT_KEY_UPDATE, &phase, 1) == 1,
	      "the server is told of the update");
	check(phase == 1, "the server is in key phase 1");
	check(read_stream(c->srv, 4, len, 11, true), "the server reads the 64 KiB byte-exact");
	check(wait_event(c->cli, QUIC_EVENT_KEY_UPDATE, &phase, 1) == 1,
	      "the client is told once the server answered in the new phase");
	check(phase == 1, "the client is in key phase 1");
	check(send_stream(c->srv, 1, MSG_STREAM_NEW | MSG_STREAM_FIN, "", 0) == 0 &&
	      read_stream(c->cli, 1, 0, 0, true), "the server sends under the new keys");
	if (!setup(!key_update(c->srv), "the server starts the next key update"))
		return;
	check(send_pattern(c->srv, 5, MSG_STREAM_NEW | MSG_STREAM_FIN, len, 12) == (ssize_t)len,
	      "and writes 64 KiB");
	check(wait_event(c->cli, QUIC_EVENT_KEY_UPDATE, &phase, 1) == 1,
	      "the client is told of the server's update");
	check(phase == 0, "the client is back in key phase 0");
	check(read_stream(c->cli, 5, len, 12, true), "the client reads the 64 KiB byte-exact");
	check(wait_event(c->srv, QUIC_EVENT_KEY_UPDATE, &phase, 1) == 1 && phase == 0,
	      "the server sees its update complete, phase 0");
}

/* The peer's CONNECTION_CLOSE as a notification, before the error. */
static void case_close_event(struct conn *c)
{
	union {
		struct quic_connection_close cc;
		uint8_t b[sizeof(struct quic_connection_close) + 81];
	} v;
	uint8_t buf[128];
	socklen_t len;
	uint32_t flags;
	int64_t sid;
	ssize_t n;

	memset(&v, 0, sizeof(v));
	v.cc.errcode = 0x99;
	strcpy((char *)v.cc.phrase, "done here");
	if (!setup(!event_set(c->srv, QUIC_EVENT_CONNECTION_CLOSE, true),
		   "the server enables CONNECTION_CLOSE") ||
	    !setup(!setsockopt(c->cli, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &v,
			       sizeof(v.cc) + strlen("done here") + 1),
		   "the client sets its close code and phrase"))
		return;
	close(c->cli);
	c->cli = -1;
	n = recv_any(c->srv, buf, sizeof(buf), &sid, &flags);
	check(n == 1 + 5 + 10 && (flags & MSG_NOTIFICATION),
	      "the server reads a notification with the close's length");
	check(buf[0] == QUIC_EVENT_CONNECTION_CLOSE, "of type CONNECTION_CLOSE");
	memcpy(&v.cc.errcode, buf + 1, 4);
	check(v.cc.errcode == 0x99, "carrying the client's code");
	check(!strcmp((char *)buf + 6, "done here"), "and its phrase");
	n = recv_any(c->srv, buf, sizeof(buf), &sid, &flags);
	check_errno(n, ECONNRESET, "the next read returns the error, ECONNRESET");
	len = sizeof(v);
	memset(&v, 0, sizeof(v));
	check(!getsockopt(c->srv, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &v, &len) &&
	      v.cc.errcode == 0x99, "CONNECTION_CLOSE reads back the peer's code");
}

/* QUIC_SOCKOPT_EVENT itself and a notification larger than the buffer. */
static void case_event_option(struct conn *c)
{
	struct quic_event_option ev = { .type = QUIC_EVENT_STREAM_UPDATE, .on = 2 };
	uint8_t buf[32];
	uint32_t flags;
	int64_t sid;
	int i, on = 0;

	for (i = 1; i <= QUIC_EVENT_MAX; i++)
		on += event_get(c->cli, i);
	check(on == 0, "every event type is off on a new connection");
	check(!event_set(c->cli, QUIC_EVENT_STREAM_UPDATE, true) &&
	      event_get(c->cli, QUIC_EVENT_STREAM_UPDATE) == 1, "an event type can be enabled");
	check(!event_set(c->cli, QUIC_EVENT_STREAM_UPDATE, false) &&
	      event_get(c->cli, QUIC_EVENT_STREAM_UPDATE) == 0, "and disabled again");
	check(!setsockopt(c->cli, SOL_QUIC, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev)) &&
	      event_get(c->cli, QUIC_EVENT_STREAM_UPDATE) == 1,
	      "any non-zero 'on' enables (socket API draft)");
	check(!event_set(c->cli, QUIC_EVENT_STREAM_UPDATE, false), "and 0 disables");
	check_errno(event_set(c->cli, 0, true), EINVAL, "event type 0 is EINVAL");
	check_errno(event_set(c->cli, QUIC_EVENT_MAX + 1, true), EINVAL,
		    "an event type beyond the last is EINVAL");

	if (!setup(!event_set(c->srv, QUIC_EVENT_STREAM_UPDATE, true),
		   "the server enables STREAM_UPDATE"))
		return;
	check(send_pattern(c->cli, 0, MSG_STREAM_NEW | MSG_STREAM_FIN, 20, 13) == 20,
	      "the client writes a short stream");
	check(recv_any(c->srv, buf, 4, &sid, &flags) == 4, "a 4-byte read returns 4 bytes");
	check((flags & MSG_NOTIFICATION) && !(flags & (MSG_EOR | MSG_TRUNC)),
	      "of a notification, without MSG_EOR: more of it follows");
	check(buf[0] == QUIC_EVENT_STREAM_UPDATE, "the type byte comes first");
	check(recv_any(c->srv, buf, sizeof(buf), &sid, &flags) ==
	      (ssize_t)(1 + sizeof(struct quic_stream_update) - 4) &&
	      (flags & MSG_NOTIFICATION) && (flags & MSG_EOR),
	      "the next read returns the rest, with MSG_EOR");
	if (!setup(!event_set(c->srv, QUIC_EVENT_STREAM_UPDATE, false),
		   "the server disables STREAM_UPDATE"))
		return;
	check(read_stream(c->srv, 0, 20, 13, true), "the data follows, whole");
}

/* RFC 9221: DATAGRAM frames both ways, bounded by max_datagram_frame_size. */
static void case_datagram(struct conn *c)
{
	uint8_t big[1500] = {}, buf[64];
	uint32_t flags;
	int64_t sid;
	ssize_t n;

	check(send(c->cli, "hello dgram", 11, MSG_DATAGRAM) == 11,
	      "the client sends a datagram");
	n = recv_any(c->srv, buf, sizeof(buf), &sid, &flags);
	check(n == 11 && (flags & MSG_DATAGRAM), "the server reads one message with MSG_DATAGRAM");
	check(!memcmp(buf, "hello dgram", 11), "with the bytes sent");
	check(send(c->srv, "back", 4, MSG_DATAGRAM) == 4, "the server sends one back");
	n = recv_any(c->cli, buf, sizeof(buf), &sid, &flags);
	check(n == 4 && (flags & MSG_DATAGRAM) && !memcmp(buf, "back", 4),
	      "the client reads it");
	check_errno(send(c->cli, big, sizeof(big), MSG_DATAGRAM), EMSGSIZE,
		    "a datagram larger than the peer's max_datagram_frame_size is EMSGSIZE");
	check(send(c->cli, "0123456789", 10, MSG_DATAGRAM) == 10, "another datagram");
	n = recv_any(c->srv, buf, 4, &sid, &flags);
	check(n == 4 && (flags & MSG_DATAGRAM) && !(flags & (MSG_EOR | MSG_TRUNC)),
	      "read into 4 bytes: the first part, without MSG_EOR");
	n = recv_any(c->srv, buf, sizeof(buf), &sid, &flags);
	check(n == 6 && (flags & MSG_DATAGRAM) && (flags & MSG_EOR) && !memcmp(buf, "456789", 6),
	      "the next read: the rest, with MSG_EOR");
}

/* ioctl() SIOCINQ, SIOCOUTQ and SIOCOUTQNSD on a live connection. */
static void case_ioctl(struct conn *c)
{
	int inq = -1, outq = -1, nsd = -1, i;
	uint8_t buf[400];
	uint32_t flags;
	int64_t sid;

	check(send_pattern(c->cli, 0, MSG_STREAM_NEW, 1000, 14) == 1000,
	      "the client writes 1000 bytes");
	for (i = 0; i < 250; i++) {
		if (!ioctl(c->srv, SIOCINQ, &inq) && inq == 1000)
			break;
		usleep(20000);
	}
	check(inq == 1000, "SIOCINQ on the server reaches 1000");
	check(recv_any(c->srv, buf, sizeof(buf), &sid, &flags) == 400, "the server reads 400");
	check(!ioctl(c->srv, SIOCINQ, &inq) && inq == 600, "SIOCINQ is then 600");
	for (i = 0; i < 250; i++) {
		if (!ioctl(c->cli, SIOCOUTQ, &outq) && !outq)
			break;
		usleep(20000);
	}
	check(outq == 0, "SIOCOUTQ on the client drops to 0 once acknowledged");
	check(!ioctl(c->cli, SIOCOUTQNSD, &nsd) && nsd == 0, "SIOCOUTQNSD is 0: nothing unsent");
}

/* poll() and shutdown() on a live connection. */
static void case_poll_shutdown(struct conn *c)
{
	struct pollfd pfd = { .fd = c->cli, .events = POLLOUT };
	uint8_t buf[16];
	uint32_t flags;
	int64_t sid;

	check(poll(&pfd, 1, 1000) == 1 && (pfd.revents & POLLOUT), "an established socket is writable");
	pfd.fd = c->srv;
	pfd.events = POLLIN;
	check(poll(&pfd, 1, 0) == 0, "and not readable with nothing received");
	check(send_stream(c->cli, 0, MSG_STREAM_NEW | MSG_STREAM_FIN, "ab", 2) == 2,
	      "the client writes 2 bytes");
	check(poll(&pfd, 1, TIMEO_S * 1000) == 1 && (pfd.revents & POLLIN),
	      "the server becomes readable");
	check(recv_any(c->srv, buf, sizeof(buf), &sid, &flags) == 2, "and reads them");
	if (!setup(!shutdown(c->cli, SHUT_WR), "the client shuts its connection down"))
		return;
	check(recv_any(c->srv, buf, sizeof(buf), &sid, &flags) == 0,
	      "the server reads end of file");
	pfd.events = POLLIN | POLLRDHUP;
	check(poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLRDHUP), "and polls POLLRDHUP");
	check_errno(send_stream(c->srv, 1, MSG_STREAM_NEW, "x", 1), EPIPE,
		    "writing after the peer closed is EPIPE");
}

/* ALPN agreed by the handshake, recorded on both sockets (libquic). */
static void case_alpn(struct conn *c)
{
	char buf[64];
	socklen_t len;

	len = sizeof(buf) - 1;
	check(!getsockopt(c->srv, SOL_QUIC, QUIC_SOCKOPT_ALPN, buf, &len) &&
	      (buf[len] = '\0', !strcmp(buf, ALPN)),
	      "the server's socket names the protocol agreed, of the two it accepts");
	len = sizeof(buf) - 1;
	check(!getsockopt(c->cli, SOL_QUIC, QUIC_SOCKOPT_ALPN, buf, &len) &&
	      (buf[len] = '\0', !strcmp(buf, ALPN)), "so does the client's");
}

static int cid_get(int fd, bool dest, struct quic_connection_id_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	info->dest = dest;
	return getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_ID, info, &len);
}

static int cid_set(int fd, bool dest, uint32_t active, uint32_t prior_to)
{
	struct quic_connection_id_info info = {
		.dest = dest, .active = active, .prior_to = prior_to,
	};

	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_ID, &info, sizeof(info));
}

/* One exchange on a new stream: the connection still carries data. */
static bool round_trip(struct conn *c, int64_t sid, uint8_t seed)
{
	return send_pattern(c->cli, sid, MSG_STREAM_NEW | MSG_STREAM_FIN, 1000, seed) == 1000 &&
	       read_stream(c->srv, sid, 1000, seed, true) &&
	       send_pattern(c->srv, sid, MSG_STREAM_FIN, 1000, seed + 1) == 1000 &&
	       read_stream(c->cli, sid, 1000, seed + 1, true);
}

/* RFC 9368 Section 2.3: a v1 client offering v2 to a listener preferring
 * v2 ends up in v2, and TLS (the transport parameters' version_information,
 * Section 4) agreed.
 */
static void case_version_upgrade(struct conn *c)
{
	check(quic_version_of(c->cli) == QUIC_VERSION_V2, "the client moved from v1 to v2");
	check(quic_version_of(c->srv) == QUIC_VERSION_V2, "the server answered in v2");
	check(round_trip(c, 0, 40), "data flows in v2");
}

/* RFC 9000 Section 5.1: connection IDs issued, switched and retired. */
static void case_connection_ids(struct conn *c)
{
	struct quic_connection_id_info info;

	check(round_trip(c, 0, 30), "a first exchange delivers the IDs each side issued");
	check(!cid_get(c->cli, true, &info) && info.active == 0 && info.prior_to == 0,
	      "the client sends to the server's ID 0, the lowest it holds");
	check(!cid_get(c->srv, false, &info) && info.active == 0,
	      "the server's own ID in use is 0");
	check_errno(cid_set(c->cli, true, 7, 0), EINVAL,
		    "switching to an ID the peer never issued is EINVAL");
	check_errno(cid_set(c->cli, true, 0, 1), EINVAL,
		    "retiring the ID one switches to is EINVAL");
	if (!setup(!cid_set(c->cli, true, 1, 1),
		   "the client moves to the server's ID 1, retiring 0"))
		return;
	check(!cid_get(c->cli, true, &info) && info.active == 1 && info.prior_to == 1,
	      "the client now uses 1 and holds nothing below it");
	check(round_trip(c, 4, 32), "data flows on the new ID");
	if (!setup(!event_set(c->cli, QUIC_EVENT_CONNECTION_ID, true),
		   "the client enables CONNECTION_ID") ||
	    !setup(!cid_set(c->srv, false, 0, 3),
		   "the server asks the client to retire its IDs below 3"))
		return;
	check(wait_event(c->cli, QUIC_EVENT_CONNECTION_ID, &info, sizeof(info)) == sizeof(info),
	      "the client is told it had to change IDs");
	check(info.dest == 1 && info.active >= 3, "it now sends to an ID of 3 or above");
	check(round_trip(c, 8, 34), "and the connection carries on");
	check_errno(cid_set(c->srv, false, 0, 99), EINVAL,
		    "asking to retire IDs never issued is EINVAL");
}

/* The line of @text that contains @needle, copied to @line. */
static bool find_line(const char *text, const char *needle, char *line, size_t len)
{
	const char *p = strstr(text, needle), *b, *e;

	if (!p)
		return false;
	for (b = p; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	if (!e)
		e = p + strlen(p);
	snprintf(line, len, "%.*s", (int)(e - b), b);
	return true;
}

/* /proc/net/quic/conns and eps list this namespace's sockets. */
static void case_procfs(struct conn *c)
{
	struct sockaddr_in local, peer;
	socklen_t alen = sizeof(local);
	char *text = malloc(65536), line[256], want[64];

	if (!text)
		return;
	getsockname(c->cli, (struct sockaddr *)&local, &alen);
	alen = sizeof(peer);
	getpeername(c->cli, (struct sockaddr *)&peer, &alen);

	check(read_file("/proc/net/quic/conns", text, 65536) > 0, "/proc/net/quic/conns can be read");
	check(!strncmp(text, "LOCAL_ADDRESS", 13), "it starts with its header line");
	snprintf(want, sizeof(want), "192.0.2.2:%u ", ntohs(peer.sin_port));
	check(find_line(text, want, line, sizeof(line)), "the client's connection is listed");
	ktap_diag("%s", line);
	snprintf(want, sizeof(want), "192.0.2.1:%u ", ntohs(local.sin_port));
	check(strstr(line, want) != NULL, "with its local address and port");
	check(strstr(line, "ESTABLISHED") != NULL, "in state ESTABLISHED");
	check(strstr(line, "0x00000001") != NULL, "speaking QUIC v1");
	check(!strstr(text, "LISTEN"), "the server's listener, in the other namespace, is not");

	check(read_file("/proc/net/quic/eps", text, 65536) > 0, "/proc/net/quic/eps can be read");
	snprintf(want, sizeof(want), ":%u ", ntohs(local.sin_port));
	check(find_line(text, want, line, sizeof(line)) && strstr(line, " 1"),
	      "the client's UDP tunnel is listed, used by one socket");
	free(text);
}

/* sendfile() and splice() into a stream: the stream written last. */
static void case_sendfile(struct conn *c)
{
	const size_t len = 100000;
	uint8_t *data = pattern_buf(len, 40);
	char path[] = "/tmp/quic-sendfile-XXXXXX";
	int fd, pfd[2];
	off_t off = 0;
	ssize_t n;

	fd = mkstemp(path);
	if (fd < 0 || !data || write(fd, data, len) != (ssize_t)len) {
		ktap_diag("temporary file: %s", errno_name(errno));
		free(data);
		return;
	}
	unlink(path);
	pfd[0] = -1;
	pfd[1] = -1;
	/* An empty write opens stream 0 and makes it the current one. */
	if (!setup(send_stream(c->cli, 0, MSG_STREAM_NEW, "", 0) == 0, "opening stream 0"))
		goto out;
	n = sendfile(c->cli, fd, &off, len);
	check(n == (ssize_t)len, "sendfile() writes the whole file to the stream");
	/* An empty write with FIN ends it. */
	if (!setup(send_stream(c->cli, 0, MSG_STREAM_FIN, "", 0) == 0, "ending stream 0"))
		goto out;
	check(read_stream(c->srv, 0, len, 40, true), "the server reads the file's bytes, exact");

	if (!setup(!pipe(pfd) && write(pfd[1], data, 4096) == 4096, "4 KiB in a pipe") ||
	    !setup(send_stream(c->cli, 4, MSG_STREAM_NEW, "", 0) == 0, "opening stream 4"))
		goto out;
	n = splice(pfd[0], NULL, c->cli, NULL, 4096, 0);
	check(n == 4096, "splice() moves the pipe's bytes to the stream");
	if (!setup(send_stream(c->cli, 4, MSG_STREAM_FIN, "", 0) == 0, "ending stream 4"))
		goto out;
	check(read_stream(c->srv, 4, 4096, 40, true), "and the server reads them");
out:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	close(fd);
	free(data);
}

/* RFC 9000 Section 9: the client moves to a new local port. */
static void case_migration(struct conn *c)
{
	struct sockaddr_in before, after, na;
	struct quic_connection_id_info info;
	socklen_t len = sizeof(before);
	uint8_t local = 9;

	if (!setup(!event_set(c->cli, QUIC_EVENT_CONNECTION_MIGRATION, true) &&
		   !event_set(c->srv, QUIC_EVENT_CONNECTION_MIGRATION, true),
		   "both ends enable CONNECTION_MIGRATION"))
		return;
	check(round_trip(c, 0, 50), "a first exchange confirms the handshake and brings IDs");
	getsockname(c->cli, (struct sockaddr *)&before, &len);
	na = before;
	na.sin_port = 0;
	check_errno(setsockopt(c->srv, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_MIGRATION, &na,
			       sizeof(na)), EINVAL, "a server cannot move by itself: EINVAL");
	if (!setup(!setsockopt(c->cli, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_MIGRATION, &na,
			       sizeof(na)), "the client moves to a new local port"))
		return;
	len = sizeof(after);
	getsockname(c->cli, (struct sockaddr *)&after, &len);
	check(after.sin_port != before.sin_port && after.sin_addr.s_addr == before.sin_addr.s_addr,
	      "getsockname() reports the new port");
	check(wait_event(c->cli, QUIC_EVENT_CONNECTION_MIGRATION, &local, 1) == 1 && local == 1,
	      "the client is told it moved (local_migration 1)");
	check(!cid_get(c->cli, true, &info) && info.active == 1,
	      "it uses a new connection ID of the server's");
	check(wait_event(c->srv, QUIC_EVENT_CONNECTION_MIGRATION, &local, 1) == 1 && local == 0,
	      "the server followed and validated the new address (local_migration 0)");
	check(round_trip(c, 4, 52), "data flows from the new port");
	check(round_trip(c, 8, 54), "and keeps flowing");
}

/* The port of a socket's local (@peer false) or peer address. */
static int port_of(int fd, bool peer)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	memset(&ss, 0, sizeof(ss));
	if ((peer ? getpeername : getsockname)(fd, (struct sockaddr *)&ss, &len))
		return -1;
	return ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
						((struct sockaddr_in *)&ss)->sin_port);
}

/* RFC 9000 Section 9.6: the server offered its address at another port as
 * its preferred address; the client validates it once the handshake is
 * confirmed and moves there, and so does the server.
 */
static void case_preferred_address(struct conn *c)
{
	struct quic_connection_id_info info;
	int orig = next_port - 1;	/* conn_open()'s listener */
	struct sockaddr_storage ss;
	uint8_t local = 9;
	socklen_t len;

	check(wait_event(c->cli, QUIC_EVENT_CONNECTION_MIGRATION, &local, 1) == 1 && local == 0,
	      "the client moved to the server's preferred address (local_migration 0)");
	check(port_of(c->cli, true) == orig + PREF_DELTA,
	      "getpeername() on the client reports the preferred port");
	check(!cid_get(c->cli, true, &info) && info.active == 1,
	      "the client sends to connection ID 1, the preferred address's");
	local = 9;
	check(wait_event(c->srv, QUIC_EVENT_CONNECTION_MIGRATION, &local, 1) == 1 && local == 1,
	      "the server moved its sending there (local_migration 1)");
	check(port_of(c->srv, false) == orig + PREF_DELTA,
	      "getsockname() on the server reports the preferred port");
	check(round_trip(c, 0, 70), "data flows on the new path");
	check(round_trip(c, 4, 72), "and keeps flowing");
	/* The server's own address at yet another port, valid but too late. */
	len = sizeof(ss);
	memset(&ss, 0, sizeof(ss));
	getsockname(c->srv, (struct sockaddr *)&ss, &len);
	if (ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(orig + 2 * PREF_DELTA);
	else
		((struct sockaddr_in *)&ss)->sin_port = htons(orig + 2 * PREF_DELTA);
	check_errno(setsockopt(c->srv, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_MIGRATION, &ss, len),
		    EINVAL, "a preferred address is offered before the handshake only: EINVAL");
}

/* RFC 9000 Sections 9.6 and 18.2: the preferred address is of the other IP
 * version than the connection (an AF_INET client offered IPv6 only, an
 * IPV6_V6ONLY client offered IPv4 only): the client reaches it through a
 * UDP tunnel of that family and both ends move as above.
 */
static void case_preferred_address_other_family(struct conn *c)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(int);
	int family = -1;

	/* The move may be over already: compare with the socket's family. */
	if (getsockopt(c->cli, SOL_SOCKET, SO_DOMAIN, &family, &len))
		family = -1;
	case_preferred_address(c);
	memset(&ss, 0, sizeof(ss));
	len = sizeof(ss);
	check(family > 0 && !getpeername(c->cli, (struct sockaddr *)&ss, &len) &&
	      ss.ss_family != family &&
	      len == (ss.ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
						 sizeof(struct sockaddr_in)),
	      "getpeername() on the client reports the other IP version");
}

static const char *version_name(uint32_t v)
{
	return v == QUIC_VERSION_V1 ? "v1" : v == QUIC_VERSION_V2 ? "v2" : "unknown";
}

static bool keys_are(const struct hs_keys *k, uint32_t cipher)
{
	return k->app_tx == cipher && k->app_rx == cipher;
}

/*
 * The first result of every case: the cipher suite and version the
 * handshake agreed on, read back. The kernel does not report the suite:
 * hswatch.h records the one of the 1-RTT keys libquic gave it at each end.
 * A case that names no suite lets the ends pick one: the same on both.
 */
static void check_handshake(const struct conn_opts *o, const struct conn *c)
{
	uint32_t want = o->listen_version ?: o->version ?: QUIC_VERSION_V1;
	uint32_t cipher = o->cipher ?: c->cli_keys.app_tx;
	uint32_t vc = quic_version_of(c->cli), vs = quic_version_of(c->srv);
	bool ok;

	ok = cipher && keys_are(&c->cli_keys, cipher) && keys_are(&c->srv_keys, cipher) &&
	     vc == want && vs == want;
	if (o->cipher)
		ktap_result(ok, "the handshake gave both kernels %s 1-RTT keys, both ends run QUIC %s",
			    cipher_name(o->cipher), version_name(want));
	else
		ktap_result(ok, "the handshake gave both kernels 1-RTT keys of one suite, both ends run QUIC %s",
			    version_name(want));
	ktap_diag("client keys %s/%s (send/receive), server %s/%s; versions 0x%x and 0x%x",
		  cipher_name(c->cli_keys.app_tx), cipher_name(c->cli_keys.app_rx),
		  cipher_name(c->srv_keys.app_tx), cipher_name(c->srv_keys.app_rx), vc, vs);
}

#define EV(x)	(1u << (x))

static struct fn_case cases[] = {
	{ "stream open and data", 17, case_stream_open,
	  { .family = AF_INET } },
	{ "stream reset", 13, case_stream_reset,
	  { .family = AF_INET6, .listen_events = EV(QUIC_EVENT_STREAM_UPDATE) } },
	{ "stop sending", 11, case_stop_sending,
	  { .family = AF_INET, .version = QUIC_VERSION_V2 } },
	{ "stream states", 9, case_stream_states,
	  { .family = AF_INET6 } },
	{ "stream limits", 10, case_stream_limits,
	  { .family = AF_INET, .server_max_streams_uni = 2 } },
	{ "stream max data", 5, case_stream_max_data,
	  { .family = AF_INET6 } },
	{ "key update, X.509, AES_GCM_128, v1, IPv6", 13, case_key_update,
	  { .family = AF_INET6, .cipher = TLS_CIPHER_AES_GCM_128 } },
	{ "key update, PSK, CHACHA20_POLY1305, v2, IPv4", 13, case_key_update,
	  { .family = AF_INET, .version = QUIC_VERSION_V2,
	    .cipher = TLS_CIPHER_CHACHA20_POLY1305, .psk = true } },
	{ "key update, X.509, AES_GCM_256, v2, IPv4", 13, case_key_update,
	  { .family = AF_INET, .version = QUIC_VERSION_V2, .cipher = TLS_CIPHER_AES_GCM_256 } },
	{ "close notification", 6, case_close_event,
	  { .family = AF_INET } },
	{ "event option and truncation", 13, case_event_option,
	  { .family = AF_INET6 } },
	{ "datagram", 9, case_datagram,
	  { .family = AF_INET, .max_datagram = 1200 } },
	{ "queue ioctls", 6, case_ioctl,
	  { .family = AF_INET6 } },
	{ "poll and shutdown", 8, case_poll_shutdown,
	  { .family = AF_INET } },
	{ "connection IDs", 11, case_connection_ids,
	  { .family = AF_INET6 } },
	{ "sendfile and splice", 4, case_sendfile,
	  { .family = AF_INET6 } },
	{ "connection migration", 8, case_migration,
	  { .family = AF_INET } },
	{ "server preferred address, IPv4", 8, case_preferred_address,
	  { .family = AF_INET, .pref_port_delta = PREF_DELTA,
	    .listen_events = EV(QUIC_EVENT_CONNECTION_MIGRATION),
	    .client_events = EV(QUIC_EVENT_CONNECTION_MIGRATION) } },
	{ "server preferred address, IPv6, v2", 8, case_preferred_address,
	  { .family = AF_INET6, .version = QUIC_VERSION_V2, .pref_port_delta = PREF_DELTA,
	    .listen_events = EV(QUIC_EVENT_CONNECTION_MIGRATION),
	    .client_events = EV(QUIC_EVENT_CONNECTION_MIGRATION) } },
	{ "server preferred address, IPv4 client to IPv6", 9,
	  case_preferred_address_other_family,
	  { .family = AF_INET, .pref_port_delta = PREF_DELTA, .pref_family = AF_INET6,
	    .listen_events = EV(QUIC_EVENT_CONNECTION_MIGRATION),
	    .client_events = EV(QUIC_EVENT_CONNECTION_MIGRATION) } },
	{ "server preferred address, IPV6_V6ONLY client to IPv4", 9,
	  case_preferred_address_other_family,
	  { .family = AF_INET6, .pref_port_delta = PREF_DELTA, .pref_family = AF_INET,
	    .client_v6only = true,
	    .listen_events = EV(QUIC_EVENT_CONNECTION_MIGRATION),
	    .client_events = EV(QUIC_EVENT_CONNECTION_MIGRATION) } },
	{ "procfs", 9, case_procfs,
	  { .family = AF_INET } },
	{ "alpn", 2, case_alpn,
	  { .family = AF_INET6, .psk = true } },
	{ "compatible version negotiation, v1 to v2", 3, case_version_upgrade,
	  { .family = AF_INET, .listen_version = QUIC_VERSION_V2 } },
	{ "compatible version negotiation, v1 to v2, PSK, IPv6", 3, case_version_upgrade,
	  { .family = AF_INET6, .psk = true, .listen_version = QUIC_VERSION_V2 } },
};

int main(int argc, char **argv)
{
	unsigned int i;
	struct conn c;

	if (argc > 1)
		cert_dir = argv[1];
	ktap_plan(ARRAY_SIZE(cases));
	signal(SIGPIPE, SIG_IGN);
	quic_set_log_func(lib_log);
	hs_watch_init();
	if (access(cert_path("ca.pem"), R_OK) || netns_pair_create(&pair)) {
		ktap_diag("no test credentials in %s or no namespace pair", cert_dir);
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			ktap_result(false, "%s", cases[i].name);
		return ktap_finish();
	}
	if (netns_enter(&pair, 0)) {
		ktap_diag("entering side 0: %s", errno_name(errno));
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ktap_subtest_begin(cases[i].name);
		ktap_plan(1 + cases[i].checks);
		if (conn_open(&cases[i].opts, &c)) {
			ktap_diag("no connection");
		} else {
			check_handshake(&cases[i].opts, &c);
			cases[i].run(&c);
		}
		conn_close(&c);
		ktap_subtest_end(cases[i].name);
	}
	quic_set_ca_file(NULL);
	netns_pair_destroy(&pair);
	return ktap_finish();
}
