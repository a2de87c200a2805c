// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The programs that use QUIC sockets today, exercised the way they call
 * us (issue 35, item 5), booted. Each group below is our own code making
 * the same calls in the same order as one real caller, with every step
 * checked:
 *
 *   samba     Samba's QUIC transport: non-blocking sockets and one poll()
 *             loop driving libquic's quic_handshake_init() and
 *             quic_handshake_step() for both the client and the server
 *             (the loop makes each sendmsg()/recvmsg() itself and feeds
 *             the result back), ALPN "smb" set on the listener before
 *             listen(), then QUIC_SOCKOPT_STREAM_OPEN with stream_id -1,
 *             data both ways on that stream and close(); no call blocks.
 *   tlshd     the net/handshake user agent's QUIC client: its own GnuTLS
 *             code, not libquic's handshake. It recognises the socket by
 *             SO_PROTOCOL 261, reads ALPN, SESSION_TICKET and CONFIG from
 *             it, installs each secret with QUIC_SOCKOPT_CRYPTO_SECRET as
 *             GnuTLS reports it (1-RTT ones too, before its Finished goes
 *             out), carries the transport parameters through
 *             QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, sends handshake messages
 *             with a QUIC_HANDSHAKE_INFO control message (MSG_MORE while
 *             more follow), and after the handshake reads the
 *             NewSessionTicket with getsockopt(SESSION_TICKET) and sets
 *             the resumption data back; a second connection resumes with
 *             it. The server is libquic's quic_server_handshake().
 *   null-host a client calling quic_client_handshake(fd, NULL, NULL, NULL):
 *             no PSK, no host name, no ALPN, the CA in the system trust
 *             store (/etc/ssl/certs/ca-certificates.crt, which
 *             scripts/selftest.py fills with the test CA for this test).
 *
 * Each group is a KTAP subtest; a step that fails makes the cases that
 * depend on it fail too (they report what was missing).
 *
 * Usage: callers [certificate directory, default /tests/certs]
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/tls.h>
#include <netinet/quic.h>

#include "ktap.h"
#include "netns.h"
#include "util.h"

#define PORT_BASE	6900
#define TIMEO_MS	10000
#define HOSTNAME	"server.test"	/* the SAN of server.pem */
#define SYSTEM_STORE	"/etc/ssl/certs/ca-certificates.crt"
#define TP_EXT_MAX	256		/* what tlshd gives TRANSPORT_PARAM_EXT */
#define TICKET_MAX	4096
#define MSG_MAX		4096		/* one handshake message */

static struct netns_pair pair;
static int next_port = PORT_BASE;

/* libquic's messages, as diagnostics; warnings are also kept for null-host. */
static char warnings[1024];

static void lib_log(int level, const char *msg)
{
	ktap_diag("libquic[%d]: %s", level, msg);
	if (level == QUIC_LOG_WARN)
		snprintf(warnings + strlen(warnings), sizeof(warnings) - strlen(warnings),
			 "%s\n", msg);
}

static bool __printf(2, 3) expect(bool ok, const char *fmt, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return ktap_result(ok, "%s", name);
}

static socklen_t server_addr(int port, struct sockaddr_in *a)
{
	return netns_addr4(&pair, 1, port, a);
}

/* A QUIC socket made in namespace @side (then usable from anywhere). */
static int socket_in(int side)
{
	int fd, err;

	if (netns_enter(&pair, side))
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	err = errno;
	netns_enter(&pair, 0);
	errno = err;
	return fd;
}

static int nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static uint8_t pattern(size_t i, uint8_t seed)
{
	return (uint8_t)(i * 13 + seed + (i >> 8));
}

static long long left_ms(long long deadline)
{
	long long n = deadline - mono_ms();

	return n > 0 ? n : 0;
}

/* sendmsg() of stream data with a QUIC_STREAM_INFO control message. */
static ssize_t stream_send(int fd, int64_t sid, uint32_t sflags, const void *buf, size_t len,
			   int flags)
{
	char ctl[CMSG_SPACE(sizeof(struct quic_stream_info))] = {};
	struct iovec iov = { (void *)buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	struct quic_stream_info si = { .stream_id = sid, .stream_flags = sflags };

	c->cmsg_level = SOL_QUIC;
	c->cmsg_type = QUIC_STREAM_INFO;
	c->cmsg_len = CMSG_LEN(sizeof(si));
	memcpy(CMSG_DATA(c), &si, sizeof(si));
	return sendmsg(fd, &m, flags);
}

/* recvmsg() of stream data; *@sid and *@sflags from QUIC_STREAM_INFO. */
static ssize_t stream_recv(int fd, void *buf, size_t len, int64_t *sid, uint32_t *sflags,
			   int flags)
{
	char ctl[CMSG_SPACE(sizeof(struct quic_stream_info))] = {};
	struct iovec iov = { buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct quic_stream_info si = { .stream_id = -1 };
	struct cmsghdr *c;
	ssize_t n;

	n = recvmsg(fd, &m, flags);
	if (n < 0)
		return n;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_QUIC && c->cmsg_type == QUIC_STREAM_INFO &&
		    c->cmsg_len >= CMSG_LEN(sizeof(si)))
			memcpy(&si, CMSG_DATA(c), sizeof(si));
	*sid = si.stream_id;
	*sflags = si.stream_flags;
	return n;
}

/*
 * Non-blocking transfer of @len pattern bytes on stream @sid from @tx to
 * @rx, both O_NONBLOCK, in one poll() loop (an event loop's way). @fin:
 * the last piece carries the stream's FIN, which the reader must see.
 * Returns NULL on success, or what went wrong.
 */
static const char *transfer(int tx, int rx, int64_t sid, size_t len, uint8_t seed, bool fin)
{
	static char why[160];
	uint8_t out[8192], in[8192];
	size_t sent = 0, got = 0, i, n;
	long long deadline = mono_ms() + TIMEO_MS;
	bool fin_seen = false;
	uint32_t sflags;
	int64_t rsid;
	ssize_t r;

	while (got < len || (fin && !fin_seen)) {
		struct pollfd p[2] = { { .fd = tx, .events = POLLOUT }, { .fd = rx, .events = POLLIN } };

		if (poll(p, 2, left_ms(deadline)) <= 0) {
			snprintf(why, sizeof(why), "stalled after %zu sent, %zu received", sent, got);
			return why;
		}
		if (sent < len && (p[0].revents & POLLOUT)) {
			n = len - sent < sizeof(out) ? len - sent : sizeof(out);
			for (i = 0; i < n; i++)
				out[i] = pattern(sent + i, seed);
			r = stream_send(tx, sid, fin && sent + n == len ? MSG_QUIC_STREAM_FIN : 0,
					out, n, MSG_DONTWAIT);
			if (r < 0 && errno != EAGAIN) {
				snprintf(why, sizeof(why), "sendmsg: %s", errno_name(errno));
				return why;
			}
			if (r > 0)
				sent += r;
		}
		if (p[1].revents & (POLLIN | POLLERR | POLLHUP)) {
			r = stream_recv(rx, in, sizeof(in), &rsid, &sflags, MSG_DONTWAIT);
			if (r < 0 && errno == EAGAIN)
				continue;
			if (r <= 0) {
				snprintf(why, sizeof(why), "recvmsg: %zd, %s", r, errno_name(errno));
				return why;
			}
			if (rsid != sid) {
				snprintf(why, sizeof(why), "data of stream %lld", (long long)rsid);
				return why;
			}
			for (i = 0; i < (size_t)r; i++)
				if (got + i >= len || in[i] != pattern(got + i, seed)) {
					snprintf(why, sizeof(why), "byte %zu differs", got + i);
					return why;
				}
			got += r;
			fin_seen = sflags & MSG_QUIC_STREAM_FIN;
		}
	}
	return NULL;
}

/* ------------------------------------------------------------ samba */

/* One side's handshake, driven a call at a time from the event loop. */
struct stepper {
	const char *who;
	int fd;
	gnutls_session_t s;
	gnutls_certificate_credentials_t cred;
	struct quic_handshake_step *step;
	bool started;
	bool done;
	int err;		/* negative errno once failed */
	int blocked;		/* calls that would have blocked (EAGAIN) */
};

static void stepper_free(struct stepper *st)
{
	if (st->started)
		quic_handshake_deinit(st->s);
	if (st->s)
		gnutls_deinit(st->s);
	if (st->cred)
		gnutls_certificate_free_credentials(st->cred);
	if (st->fd >= 0)
		close(st->fd);
	memset(st, 0, sizeof(*st));
	st->fd = -1;
}

/* The GnuTLS session Samba prepares for the step API. */
static int samba_session(struct stepper *st, bool server)
{
	int ret;

	if (gnutls_certificate_allocate_credentials(&st->cred))
		return -ENOMEM;
	if (server)
		ret = gnutls_certificate_set_x509_key_file(st->cred, cert_path("server.pem"),
							   cert_path("server.key"),
							   GNUTLS_X509_FMT_PEM);
	else
		ret = gnutls_certificate_set_x509_trust_file(st->cred, cert_path("ca.pem"),
							     GNUTLS_X509_FMT_PEM);
	if (ret < 0)
		return -ENOENT;
	if (gnutls_init(&st->s, (server ? GNUTLS_SERVER : GNUTLS_CLIENT) |
			GNUTLS_NO_END_OF_EARLY_DATA))
		return -ENOMEM;
	if (gnutls_credentials_set(st->s, GNUTLS_CRD_CERTIFICATE, st->cred) ||
	    gnutls_priority_set_direct(st->s, QUIC_PRIORITY, NULL))
		return -EINVAL;
	if (!server) {
		if (gnutls_server_name_set(st->s, GNUTLS_NAME_DNS, HOSTNAME, strlen(HOSTNAME)))
			return -EINVAL;
		gnutls_session_set_verify_cert(st->s, HOSTNAME, 0);
	}
	ret = quic_session_set_alpn(st->s, "smb", 3);
	if (ret)
		return ret;
	gnutls_transport_set_int(st->s, st->fd);
	return 0;
}

/*
 * Make the calls the handshake asks for until one would block, the
 * handshake is over or it failed. The loop polls the socket for what the
 * pending step needs (stepper_events()) and calls this again.
 */
static void stepper_run(struct stepper *st)
{
	struct quic_handshake_step *p;
	ssize_t n;
	int ret;

	while (!st->done && !st->err) {
		p = st->step;
		if (!p) {
			st->done = true;
			break;
		}
		if (p->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG)
			n = sendmsg(st->fd, p->s_sendmsg.msg, p->s_sendmsg.flags | MSG_DONTWAIT);
		else
			n = recvmsg(st->fd, p->s_recvmsg.msg, p->s_recvmsg.flags | MSG_DONTWAIT);
		if (n < 0 && errno == EAGAIN) {
			st->blocked++;
			return;		/* the same call again once polled ready */
		}
		if (p->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG)
			p->s_sendmsg.retval = n < 0 ? -errno : n;
		else
			p->s_recvmsg.retval = n < 0 ? -errno : n;
		ret = quic_handshake_step(st->s, &st->step);
		if (ret) {
			struct cmsghdr *c = p->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG ?
					    CMSG_FIRSTHDR(p->s_sendmsg.msg) : NULL;

			ktap_diag("%s: %s returned %zd (%s)%s%d, then step %s", st->who,
				  c ? "sendmsg" : "recvmsg", n, n < 0 ? errno_name(errno) : "-",
				  c ? " at level " : "", c ? *CMSG_DATA(c) : -1,
				  errno_name(-ret));
			st->err = ret;
		}
	}
}

static short stepper_events(const struct stepper *st)
{
	if (st->done || st->err || !st->step)
		return 0;
	return st->step->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG ? POLLOUT : POLLIN;
}

static void group_samba(void)
{
	struct stepper cli = { .who = "client", .fd = -1 }, srv = { .who = "server", .fd = -1 };
	struct quic_stream_info si = { .stream_id = -1, .stream_flags = 0 };
	struct sockaddr_in a;
	int port = next_port++;
	socklen_t len = server_addr(port, &a), slen;
	long long deadline;
	char alpn[64] = "", calpn[16] = "", salpn[16] = "";
	size_t clen = sizeof(calpn), sslen = sizeof(salpn);
	bool hs_ok = false, open_ok = false, ok;
	const char *why;
	uint8_t b;
	int lfd, ret;

	ktap_subtest_begin("samba");
	ktap_plan(9);

	/* The listener: ALPN "smb" before listen(), non-blocking accept(). */
	lfd = socket_in(1);
	ret = lfd < 0 ? -1 : setsockopt(lfd, SOL_QUIC, QUIC_SOCKOPT_ALPN, "smb", 3);
	ok = !ret;
	slen = sizeof(alpn) - 1;
	ok = ok && !getsockopt(lfd, SOL_QUIC, QUIC_SOCKOPT_ALPN, alpn, &slen) &&
	     slen == 3 && !memcmp(alpn, "smb", 3);
	ok = ok && !nonblock(lfd) && !bind(lfd, (struct sockaddr *)&a, len) && !listen(lfd, 8);
	if (!ok)
		ktap_diag("listener: %s", errno_name(errno));
	expect(ok, "samba: ALPN \"smb\" set on the listener before listen(), read back");
	ret = lfd < 0 ? -1 : accept(lfd, NULL, NULL);
	expect(ret < 0 && errno == EAGAIN,
	       "samba: non-blocking accept() with no client yet fails with EAGAIN (%s)",
	       ret < 0 ? errno_name(errno) : "a socket");
	if (ret >= 0)
		close(ret);

	/* The client: non-blocking before connect(), its session, the first step. */
	cli.fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	ret = cli.fd < 0 || nonblock(cli.fd) ? -errno : 0;
	if (!ret && connect(cli.fd, (struct sockaddr *)&a, len))
		ret = -errno;
	if (!ret)
		ret = samba_session(&cli, false);
	if (!ret) {
		ret = quic_handshake_init(cli.s, &cli.step);
		cli.started = !ret;
	}
	expect(!ret && cli.step && cli.step->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG,
	       "samba: non-blocking connect(), then quic_handshake_init() asks for a sendmsg() (%s)",
	       errno_name(-ret));
	cli.err = ret;

	/* One loop, no thread: the listener, then both handshakes. */
	deadline = mono_ms() + TIMEO_MS;
	stepper_run(&cli);
	while (!cli.err && !srv.err && !(cli.done && srv.done) && lfd >= 0) {
		struct pollfd p[3] = {
			{ .fd = cli.fd, .events = stepper_events(&cli) },
			{ .fd = srv.fd >= 0 ? srv.fd : lfd,
			  .events = srv.fd >= 0 ? stepper_events(&srv) : POLLIN },
		};

		if (poll(p, 2, left_ms(deadline)) <= 0) {
			ktap_diag("handshakes stalled: client step %d, server step %d",
				  cli.step ? (int)cli.step->op : 0, srv.step ? (int)srv.step->op : 0);
			cli.err = -ETIMEDOUT;
			break;
		}
		if (p[0].revents)
			stepper_run(&cli);
		if (!p[1].revents)
			continue;
		if (srv.fd < 0) {
			srv.fd = accept(lfd, NULL, NULL);
			if (srv.fd < 0) {
				if (errno != EAGAIN)
					srv.err = -errno;
				continue;
			}
			ret = nonblock(srv.fd) ? -errno : samba_session(&srv, true);
			if (!ret) {
				ret = quic_handshake_init(srv.s, &srv.step);
				srv.started = !ret;
			}
			srv.err = ret;
		}
		stepper_run(&srv);
	}
	hs_ok = cli.done && srv.done && !cli.err && !srv.err;
	expect(hs_ok, "samba: client and server handshakes complete from one poll() loop "
	       "(client %s, server %s, %d + %d calls would have blocked)",
	       errno_name(-cli.err), errno_name(-srv.err), cli.blocked, srv.blocked);

	if (hs_ok) {
		quic_session_get_alpn(cli.s, calpn, &clen);
		quic_session_get_alpn(srv.s, salpn, &sslen);
	}
	expect(hs_ok && !strcmp(calpn, "smb") && !strcmp(salpn, "smb"),
	       "samba: both sides agreed on ALPN \"smb\" (\"%s\", \"%s\")", calpn, salpn);

	/* A stream as Samba opens it: -1 asks for the next bidirectional one. */
	slen = sizeof(si);
	ret = hs_ok ? getsockopt(cli.fd, SOL_QUIC, QUIC_SOCKOPT_STREAM_OPEN, &si, &slen) : -1;
	open_ok = !ret && si.stream_id == 0;
	expect(open_ok, "samba: getsockopt(QUIC_SOCKOPT_STREAM_OPEN) with stream_id -1 opens "
	       "stream 0 (%d, %s, id %lld)", ret, errno_name(errno), (long long)si.stream_id);

	why = open_ok ? transfer(cli.fd, srv.fd, si.stream_id, 300000, 1, false) : "no stream";
	if (why)
		ktap_diag("client to server: %s", why);
	expect(!why, "samba: 300000 bytes client to server on the opened stream, non-blocking");
	why = open_ok ? transfer(srv.fd, cli.fd, si.stream_id, 300000, 2, true) : "no stream";
	if (why)
		ktap_diag("server to client: %s", why);
	expect(!why, "samba: 300000 bytes and FIN back on the same stream, non-blocking");

	/* close(): the server's next read is end of file. */
	ok = false;
	if (hs_ok) {
		struct pollfd p = { .fd = srv.fd, .events = POLLIN };
		ssize_t n;

		close(cli.fd);
		cli.fd = -1;
		n = poll(&p, 1, TIMEO_MS) == 1 ? recv(srv.fd, &b, 1, MSG_DONTWAIT) : -2;
		ok = n == 0;
		if (!ok)
			ktap_diag("server read %zd after the client's close() (%s)", n,
				  errno_name(errno));
	}
	expect(ok, "samba: the client's close() reaches the server: its read returns 0");

	stepper_free(&cli);
	stepper_free(&srv);
	if (lfd >= 0)
		close(lfd);
	ktap_subtest_end("samba");
}

/* ------------------------------------------------------------ tlshd */

struct hs_msg {
	struct hs_msg *next;
	uint8_t level;
	size_t len;
	uint8_t data[];
};

/* What tlshd keeps per handshake. */
struct agent {
	int fd;
	gnutls_session_t s;
	gnutls_certificate_credentials_t cred;
	char alpns[128];
	uint8_t ticket[TICKET_MAX];
	socklen_t ticket_len;
	struct quic_config cfg;
	struct hs_msg *sendq, **tail;
	bool completed;
	int err;
	int secrets;		/* CRYPTO_SECRET setsockopt()s made */
	bool app_before_finished; /* 1-RTT secrets in before a message left */
	int tp_out, tp_in;	/* TRANSPORT_PARAM_EXT bytes, ours and the peer's */
	int more;		/* sendmsg()s with MSG_MORE */
};

static int level_of(gnutls_record_encryption_level_t l)
{
	switch (l) {
	case GNUTLS_ENCRYPTION_LEVEL_INITIAL:
		return QUIC_CRYPTO_INITIAL;
	case GNUTLS_ENCRYPTION_LEVEL_HANDSHAKE:
		return QUIC_CRYPTO_HANDSHAKE;
	case GNUTLS_ENCRYPTION_LEVEL_EARLY:
		return QUIC_CRYPTO_EARLY;
	default:
		return QUIC_CRYPTO_APP;
	}
}

static gnutls_record_encryption_level_t gnutls_level(uint8_t l)
{
	switch (l) {
	case QUIC_CRYPTO_INITIAL:
		return GNUTLS_ENCRYPTION_LEVEL_INITIAL;
	case QUIC_CRYPTO_HANDSHAKE:
		return GNUTLS_ENCRYPTION_LEVEL_HANDSHAKE;
	case QUIC_CRYPTO_EARLY:
		return GNUTLS_ENCRYPTION_LEVEL_EARLY;
	default:
		return GNUTLS_ENCRYPTION_LEVEL_APPLICATION;
	}
}

static uint32_t aead_of(gnutls_cipher_algorithm_t c)
{
	switch (c) {
	case GNUTLS_CIPHER_AES_128_GCM:
		return TLS_CIPHER_AES_GCM_128;
	case GNUTLS_CIPHER_AES_256_GCM:
		return TLS_CIPHER_AES_GCM_256;
	case GNUTLS_CIPHER_AES_128_CCM:
		return TLS_CIPHER_AES_CCM_128;
	case GNUTLS_CIPHER_CHACHA20_POLY1305:
		return TLS_CIPHER_CHACHA20_POLY1305;
	default:
		return 0;
	}
}

/* Secrets go to the kernel as GnuTLS reports them: send, then receive. */
static int agent_secret(gnutls_session_t s, gnutls_record_encryption_level_t glevel,
			const void *rx, const void *tx, size_t size)
{
	struct agent *ag = gnutls_session_get_ptr(s);
	struct quic_crypto_secret cs = {};
	gnutls_cipher_algorithm_t c;

	if (ag->completed)
		return 0;
	c = glevel == GNUTLS_ENCRYPTION_LEVEL_EARLY ? gnutls_early_cipher_get(s) :
						      gnutls_cipher_get(s);
	cs.level = level_of(glevel);
	cs.type = aead_of(c);
	if (size > sizeof(cs.secret))
		return -1;
	if (tx) {
		cs.send = 1;
		memcpy(cs.secret, tx, size);
		if (setsockopt(ag->fd, SOL_QUIC, QUIC_SOCKOPT_CRYPTO_SECRET, &cs, sizeof(cs))) {
			ktap_diag("tlshd: send secret of level %u: %s", cs.level, errno_name(errno));
			return -1;
		}
		ag->secrets++;
	}
	if (rx) {
		cs.send = 0;
		memcpy(cs.secret, rx, size);
		if (setsockopt(ag->fd, SOL_QUIC, QUIC_SOCKOPT_CRYPTO_SECRET, &cs, sizeof(cs))) {
			ktap_diag("tlshd: receive secret of level %u: %s", cs.level,
				  errno_name(errno));
			return -1;
		}
		ag->secrets++;
		if (cs.level == QUIC_CRYPTO_APP) {
			ag->completed = true;
			ag->app_before_finished = ag->sendq != NULL;
		}
	}
	explicit_bzero(&cs, sizeof(cs));
	return 0;
}

/* Handshake messages GnuTLS writes are queued for sendmsg(). */
static int agent_read(gnutls_session_t s, gnutls_record_encryption_level_t glevel,
		      gnutls_handshake_description_t htype, const void *data, size_t len)
{
	struct agent *ag = gnutls_session_get_ptr(s);
	struct hs_msg *m;

	if (htype == GNUTLS_HANDSHAKE_KEY_UPDATE)
		return 0;
	m = malloc(sizeof(*m) + len);
	if (!m)
		return -1;
	m->next = NULL;
	m->level = level_of(glevel);
	m->len = len;
	memcpy(m->data, data, len);
	*ag->tail = m;
	ag->tail = &m->next;
	/* The client's Finished is queued after its 1-RTT secrets went in. */
	if (ag->completed)
		ag->app_before_finished = true;
	return 0;
}

static int agent_alert(gnutls_session_t s, gnutls_record_encryption_level_t level,
		       gnutls_alert_level_t alevel, gnutls_alert_description_t desc)
{
	ktap_diag("tlshd: alert %u at level %u", desc, level);
	return 0;
}

/* Our transport parameters from the kernel into the ClientHello. */
static int agent_tp_send(gnutls_session_t s, gnutls_buffer_t ext)
{
	struct agent *ag = gnutls_session_get_ptr(s);
	uint8_t buf[TP_EXT_MAX];
	socklen_t len = sizeof(buf);

	if (getsockopt(ag->fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, buf, &len)) {
		ktap_diag("tlshd: TRANSPORT_PARAM_EXT get: %s", errno_name(errno));
		return -1;
	}
	ag->tp_out = len;
	return gnutls_buffer_append_data(ext, buf, len);
}

/* The server's, from its EncryptedExtensions, into the kernel. */
static int agent_tp_recv(gnutls_session_t s, const unsigned char *data, size_t len)
{
	struct agent *ag = gnutls_session_get_ptr(s);

	if (setsockopt(ag->fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, data, len)) {
		ktap_diag("tlshd: TRANSPORT_PARAM_EXT set: %s", errno_name(errno));
		return -1;
	}
	ag->tp_in = len;
	return 0;
}

/* The socket's settings, read as tlshd reads them. 0 or -errno. */
static int agent_read_socket(struct agent *ag)
{
	socklen_t len;

	len = sizeof(ag->alpns) - 1;
	memset(ag->alpns, 0, sizeof(ag->alpns));
	if (getsockopt(ag->fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, ag->alpns, &len))
		return -errno;
	len = sizeof(ag->ticket);
	if (getsockopt(ag->fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, ag->ticket, &len))
		return -errno;
	ag->ticket_len = len;
	len = sizeof(ag->cfg);
	if (getsockopt(ag->fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &ag->cfg, &len))
		return -errno;
	return 0;
}

/* The client session: priorities from CONFIG's cipher, ALPN, callbacks. */
static int agent_session(struct agent *ag)
{
	char prio[200] = "%DISABLE_TLS13_COMPAT_MODE:NORMAL:-VERS-ALL:+VERS-TLS1.3:+PSK"
			 ":-CIPHER-ALL:+";
	gnutls_datum_t names[8];
	char *tok, *save = NULL;
	int n = 0;

	switch (ag->cfg.payload_cipher_type) {
	case TLS_CIPHER_AES_GCM_256:
		strcat(prio, "AES-256-GCM");
		break;
	case TLS_CIPHER_CHACHA20_POLY1305:
		strcat(prio, "CHACHA20-POLY1305");
		break;
	default:
		strcat(prio, "AES-128-GCM:+AES-256-GCM:+AES-128-CCM:+CHACHA20-POLY1305");
	}
	if (gnutls_certificate_allocate_credentials(&ag->cred) ||
	    gnutls_certificate_set_x509_trust_file(ag->cred, cert_path("ca.pem"),
						   GNUTLS_X509_FMT_PEM) < 0)
		return -ENOENT;
	if (gnutls_init(&ag->s, GNUTLS_CLIENT | GNUTLS_ENABLE_EARLY_DATA |
			GNUTLS_NO_END_OF_EARLY_DATA))
		return -ENOMEM;
	gnutls_session_set_ptr(ag->s, ag);
	if (ag->ticket_len && gnutls_session_set_data(ag->s, ag->ticket, ag->ticket_len))
		return -EINVAL;
	if (gnutls_credentials_set(ag->s, GNUTLS_CRD_CERTIFICATE, ag->cred) ||
	    gnutls_server_name_set(ag->s, GNUTLS_NAME_DNS, HOSTNAME, strlen(HOSTNAME)))
		return -EINVAL;
	gnutls_session_set_verify_cert(ag->s, HOSTNAME, 0);
	if (gnutls_priority_set_direct(ag->s, prio, NULL))
		return -EINVAL;
	for (tok = strtok_r(ag->alpns, ",", &save); tok && n < 8;
	     tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		names[n].data = (unsigned char *)tok;
		names[n++].size = strlen(tok);
	}
	if (n && gnutls_alpn_set_protocols(ag->s, names, n, GNUTLS_ALPN_MANDATORY))
		return -EINVAL;
	gnutls_handshake_set_secret_function(ag->s, agent_secret);
	gnutls_handshake_set_read_function(ag->s, agent_read);
	gnutls_alert_set_read_function(ag->s, agent_alert);
	if (gnutls_session_ext_register(ag->s, "QUIC Transport Parameters", 0x39,
					GNUTLS_EXT_TLS, agent_tp_recv, agent_tp_send,
					NULL, NULL, NULL,
					GNUTLS_EXT_FLAG_TLS | GNUTLS_EXT_FLAG_CLIENT_HELLO |
					GNUTLS_EXT_FLAG_EE))
		return -EINVAL;
	return 0;
}

/* Bytes at @level into GnuTLS, then let it run. 0 or a GnuTLS error. */
static int agent_feed(struct agent *ag, uint8_t level, const uint8_t *data, size_t len)
{
	int ret;

	if (len) {
		ret = gnutls_handshake_write(ag->s, gnutls_level(level), data, len);
		if (ret)
			return gnutls_error_is_fatal(ret) ? ret : 0;
	}
	ret = gnutls_handshake(ag->s);
	if (ret < 0 && gnutls_error_is_fatal(ret)) {
		gnutls_alert_send_appropriate(ag->s, ret);
		return ret;
	}
	return 0;
}

/* Every queued message, MSG_MORE on all but the last. 0 or -errno. */
static int agent_flush(struct agent *ag)
{
	char ctl[CMSG_SPACE(sizeof(struct quic_handshake_info))];
	struct hs_msg *m;

	while ((m = ag->sendq)) {
		struct iovec iov = { m->data, m->len };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
				     .msg_controllen = sizeof(ctl) };
		struct cmsghdr *c;
		struct quic_handshake_info hi = { .crypto_level = m->level };

		memset(ctl, 0, sizeof(ctl));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_QUIC;
		c->cmsg_type = QUIC_HANDSHAKE_INFO;
		c->cmsg_len = CMSG_LEN(sizeof(hi));
		memcpy(CMSG_DATA(c), &hi, sizeof(hi));
		ag->more += !!m->next;
		if (sendmsg(ag->fd, &mh, m->next ? MSG_MORE : 0) < 0) {
			ktap_diag("tlshd: sendmsg of %zu bytes at level %u: %s", m->len, m->level,
				  errno_name(errno));
			return -errno;
		}
		ag->sendq = m->next;
		if (!ag->sendq)
			ag->tail = &ag->sendq;
		free(m);
	}
	return 0;
}

/* The handshake loop: ClientHello out, then read what came (non-blocking
 * reads after a wait for readability), feed it, send what GnuTLS wrote.
 */
static int agent_handshake(struct agent *ag)
{
	static uint8_t buf[MSG_MAX];
	long long deadline = mono_ms() + TIMEO_MS;
	int ret;

	ret = agent_feed(ag, QUIC_CRYPTO_INITIAL, NULL, 0);
	if (ret)
		return -EPROTO;
	ret = agent_flush(ag);
	if (ret)
		return ret;
	while (!ag->completed) {
		struct pollfd p = { .fd = ag->fd, .events = POLLIN };

		if (poll(&p, 1, left_ms(deadline)) <= 0)
			return -ETIMEDOUT;
		while (!ag->completed) {
			char ctl[CMSG_SPACE(sizeof(struct quic_handshake_info))] = {};
			struct iovec iov = { buf, sizeof(buf) };
			struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
					     .msg_control = ctl, .msg_controllen = sizeof(ctl) };
			struct quic_handshake_info hi = {};
			struct cmsghdr *c;
			ssize_t n;

			n = recvmsg(ag->fd, &mh, MSG_DONTWAIT);
			if (n < 0 && errno == EAGAIN)
				break;
			if (n <= 0) {
				ktap_diag("tlshd: recvmsg: %zd, %s", n, errno_name(errno));
				return n ? -errno : -ECONNRESET;
			}
			for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
				if (c->cmsg_level == SOL_QUIC &&
				    c->cmsg_type == QUIC_HANDSHAKE_INFO)
					memcpy(&hi, CMSG_DATA(c), sizeof(hi));
			ret = agent_feed(ag, hi.crypto_level, buf, n);
			if (ret) {
				ktap_diag("tlshd: GnuTLS: %s", gnutls_strerror(ret));
				return -EPROTO;
			}
		}
		ret = agent_flush(ag);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * After the handshake: the server's NewSessionTicket as the kernel kept it
 * (getsockopt, retried while empty: tlshd sleeps between tries, we wait
 * for POLLPRI), into GnuTLS, and the resumption data set back on the
 * socket for the next connection. 0 or -errno.
 */
static int agent_ticket(struct agent *ag, uint8_t *data, size_t *size)
{
	long long deadline = mono_ms() + TIMEO_MS;
	socklen_t len;
	int ret;

	for (;;) {
		struct pollfd p = { .fd = ag->fd, .events = POLLPRI };

		len = sizeof(ag->ticket);
		if (getsockopt(ag->fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, ag->ticket, &len))
			return -errno;
		if (len)
			break;
		if (!left_ms(deadline) || poll(&p, 1, left_ms(deadline)) <= 0)
			return -ETIMEDOUT;
		if (p.revents != POLLPRI) {
			ktap_diag("tlshd: no ticket yet, poll() reports %#x", p.revents);
			return -ECONNRESET;
		}
	}
	/* Only written: tlshd also calls gnutls_handshake() here, which on a
	 * session without a transport would read from descriptor 0.
	 */
	ret = gnutls_handshake_write(ag->s, GNUTLS_ENCRYPTION_LEVEL_APPLICATION, ag->ticket, len);
	if (ret) {
		ktap_diag("tlshd: the ticket: %s", gnutls_strerror(ret));
		return -EPROTO;
	}
	if (gnutls_session_get_data(ag->s, data, size))
		return -ENOSPC;
	if (setsockopt(ag->fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, data, *size))
		return -errno;
	return 0;
}

static void agent_free(struct agent *ag)
{
	struct hs_msg *m;

	while ((m = ag->sendq)) {
		ag->sendq = m->next;
		free(m);
	}
	if (ag->s)
		gnutls_deinit(ag->s);
	if (ag->cred)
		gnutls_certificate_free_credentials(ag->cred);
	if (ag->fd >= 0)
		close(ag->fd);
}

/* The server: libquic, a connection at a time, each echoing stream 0. */
struct tserver {
	int lfd;
	int conns;
	int served;
	uint16_t peer_uni[2];	/* max_streams_uni the clients announced */
	char why[160];
};

static void *tserver_main(void *arg)
{
	struct tserver *ts = arg;
	struct quic_transport_param tp;
	uint8_t buf[4096];
	uint32_t flags;
	int64_t sid;
	int i, fd;

	for (i = 0; i < ts->conns; i++) {
		size_t got = 0;
		socklen_t len = sizeof(tp);

		fd = accept(ts->lfd, NULL, NULL);
		if (fd < 0) {
			snprintf(ts->why, sizeof(ts->why), "accept: %s", errno_name(errno));
			return NULL;
		}
		sock_timeouts(fd, TIMEO_MS / 1000);
		if (quic_server_handshake(fd, cert_path("server.key"), cert_path("server.pem"),
					  NULL)) {
			snprintf(ts->why, sizeof(ts->why), "server handshake %d failed", i);
			close(fd);
			return NULL;
		}
		memset(&tp, 0, sizeof(tp));
		tp.remote = 1;
		if (!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &tp, &len))
			ts->peer_uni[i] = tp.max_streams_uni;
		for (;;) {
			ssize_t n;

			flags = 0;
			n = quic_recvmsg(fd, buf + got, sizeof(buf) - got, &sid, &flags);
			if (n <= 0 || sid != 0)
				break;
			got += n;
			if (flags & MSG_QUIC_STREAM_FIN)
				break;
		}
		if (got && quic_sendmsg(fd, buf, got, 0, MSG_QUIC_STREAM_FIN) == (ssize_t)got)
			ts->served++;
		/* Until the client closes, so that the echo is not lost. */
		while (quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags) > 0)
			;
		close(fd);
	}
	return NULL;
}

/* Get, change with @edit, set back: a transport parameter of @fd. */
static int tp_edit(int fd, uint16_t bidi, uint16_t uni)
{
	struct quic_transport_param tp = {};
	socklen_t len = sizeof(tp);

	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &tp, &len))
		return -1;
	if (bidi)
		tp.max_streams_bidi = bidi;
	if (uni)
		tp.max_streams_uni = uni;
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &tp, sizeof(tp));
}

/* One request and its echo on stream 0, through plain sendmsg()/recvmsg(). */
static bool echo(int fd, const char *req)
{
	char buf[128] = "";
	size_t got = 0, len = strlen(req);
	uint32_t sflags = 0;
	int64_t sid;
	ssize_t n;

	if (stream_send(fd, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN, req, len, 0) !=
	    (ssize_t)len)
		return false;
	while (got < sizeof(buf) - 1 && !(sflags & MSG_QUIC_STREAM_FIN)) {
		n = stream_recv(fd, buf + got, sizeof(buf) - 1 - got, &sid, &sflags, 0);
		if (n <= 0 || sid != 0)
			return false;
		got += n;
	}
	return got == len && !memcmp(buf, req, len);
}

static void group_tlshd(void)
{
	struct tserver ts = { .lfd = -1, .conns = 2 };
	struct agent ag = { .fd = -1 }, ag2 = { .fd = -1 };
	struct quic_config cfg = {};
	struct quic_transport_param rtp = { .remote = 1 };
	static uint8_t resume[TICKET_MAX];
	size_t resume_len = sizeof(resume);
	struct sockaddr_in a;
	int port = next_port++;
	socklen_t len = server_addr(port, &a), slen;
	bool started = false, hs_ok = false, ok;
	int proto = 0, ret;
	pthread_t th;

	ktap_subtest_begin("tlshd");
	ktap_plan(9);
	quic_set_log_level(QUIC_LOG_WARN);	/* the server's, if it sends no ticket */

	ts.lfd = socket_in(1);
	ok = ts.lfd >= 0 && !setsockopt(ts.lfd, SOL_QUIC, QUIC_SOCKOPT_ALPN, "h3", 2) &&
	     !tp_edit(ts.lfd, 9, 0) && !bind(ts.lfd, (struct sockaddr *)&a, len) &&
	     !listen(ts.lfd, 4);
	if (ok)
		started = !pthread_create(&th, NULL, tserver_main, &ts);
	if (!started)
		ktap_diag("server: %s", errno_name(errno));

	/* What the kernel consumer prepares: ALPN, CONFIG, its own limits. */
	ag.tail = &ag.sendq;
	ag.fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	cfg.receive_session_ticket = 1;
	ok = ag.fd >= 0 && !setsockopt(ag.fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, "h3", 2) &&
	     !setsockopt(ag.fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, sizeof(cfg)) &&
	     !tp_edit(ag.fd, 0, 7) && !connect(ag.fd, (struct sockaddr *)&a, len);
	if (!ok)
		ktap_diag("client socket: %s", errno_name(errno));
	slen = sizeof(proto);
	ret = getsockopt(ag.fd, SOL_SOCKET, SO_PROTOCOL, &proto, &slen);
	expect(!ret && proto == 261 && slen == sizeof(int),
	       "tlshd: getsockopt(SOL_SOCKET, SO_PROTOCOL) is 261 (%d, %d)", ret, proto);

	ret = ok ? agent_read_socket(&ag) : -EBADF;
	expect(!ret && !strcmp(ag.alpns, "h3") && ag.ticket_len == 0 &&
	       ag.cfg.receive_session_ticket == 1,
	       "tlshd: ALPN \"%s\", SESSION_TICKET (%u bytes) and CONFIG read from the socket (%s)",
	       ag.alpns, ag.ticket_len, errno_name(-ret));

	ret = !ret && started ? agent_session(&ag) : -EINVAL;
	if (!ret)
		ret = agent_handshake(&ag);
	hs_ok = !ret;
	expect(hs_ok, "tlshd: its own GnuTLS handshake completes (%s, %d secrets installed)",
	       errno_name(-ret), ag.secrets);
	/* Its order: both 1-RTT secrets in before the client's Finished is
	 * sent (the server's handshake, which needs it, shows it arrived).
	 */
	expect(hs_ok && ag.app_before_finished && !ag.sendq,
	       "tlshd: the client's Finished is sent after both 1-RTT secrets were set");

	slen = sizeof(rtp);
	ok = hs_ok && !getsockopt(ag.fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &rtp, &slen);
	expect(ok && ag.tp_out > 0 && ag.tp_in > 0 && rtp.max_streams_bidi == 9,
	       "tlshd: TRANSPORT_PARAM_EXT: ours out (%d bytes), the server's in (%d bytes, "
	       "max_streams_bidi %u)", ag.tp_out, ag.tp_in, rtp.max_streams_bidi);

	ret = hs_ok ? agent_ticket(&ag, resume, &resume_len) : -EINVAL;
	expect(!ret && resume_len > 0,
	       "tlshd: SESSION_TICKET: the NewSessionTicket read, resumption data (%zu bytes) "
	       "set back (%s)", ret ? 0 : resume_len, errno_name(-ret));

	/* Then the consumer has its socket: data both ways. */
	expect(hs_ok && echo(ag.fd, "tlshd request"),
	       "tlshd: data both ways after the handshake");
	ok = !ret;

	/* The next connection: the consumer gives the ticket to the socket. */
	close(ag.fd);
	ag.fd = -1;
	ag2.tail = &ag2.sendq;
	ag2.fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	ok = ok && ag2.fd >= 0 &&
	     !setsockopt(ag2.fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, resume, resume_len) &&
	     !setsockopt(ag2.fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, "h3", 2) &&
	     !tp_edit(ag2.fd, 0, 5) && !connect(ag2.fd, (struct sockaddr *)&a, len);
	ret = ok ? agent_read_socket(&ag2) : -errno;
	if (!ret)
		ret = ag2.ticket_len == resume_len ? agent_session(&ag2) : -EINVAL;
	if (!ret)
		ret = agent_handshake(&ag2);
	if (!ret)
		ret = agent_flush(&ag2);
	expect(!ret && gnutls_session_is_resumed(ag2.s) && echo(ag2.fd, "again"),
	       "tlshd: a second connection given that ticket resumes (%s, %u bytes read back)",
	       errno_name(-ret), ag2.ticket_len);
	if (ag2.fd >= 0) {
		close(ag2.fd);
		ag2.fd = -1;
	}

	if (started) {
		if (ts.served < ts.conns)
			shutdown(ts.lfd, SHUT_RDWR);
		pthread_join(th, NULL);
	}
	if (ts.why[0])
		ktap_diag("server: %s", ts.why);
	expect(ts.served == 2 && ts.peer_uni[0] == 7 && ts.peer_uni[1] == 5,
	       "tlshd: the server saw both clients' parameters (max_streams_uni %u, %u) and "
	       "served %d", ts.peer_uni[0], ts.peer_uni[1], ts.served);
	agent_free(&ag);
	agent_free(&ag2);
	if (ts.lfd >= 0)
		close(ts.lfd);
	quic_set_log_level(QUIC_LOG_ERROR);
	ktap_subtest_end("tlshd");
}

/* ------------------------------------------------------------ null-host */

struct nserver {
	int lfd;
	int ret;
	bool served;
};

static void *nserver_main(void *arg)
{
	struct nserver *ns = arg;
	char buf[64];
	uint32_t flags = 0;
	int64_t sid;
	ssize_t n;
	int fd;

	fd = accept(ns->lfd, NULL, NULL);
	if (fd < 0) {
		ns->ret = -errno;
		return NULL;
	}
	sock_timeouts(fd, TIMEO_MS / 1000);
	ns->ret = quic_server_handshake(fd, cert_path("server.key"), cert_path("server.pem"),
					NULL);
	if (!ns->ret) {
		n = quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags);
		ns->served = n == 5 && !memcmp(buf, "hello", 5) &&
			     quic_sendmsg(fd, "world", 5, sid, MSG_QUIC_STREAM_FIN) == 5;
		while (quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags) > 0)
			;
	}
	close(fd);
	return NULL;
}

/* One connection: the server thread and quic_client_handshake(fd, NULL, NULL, NULL). */
static int null_host_conn(struct nserver *ns, int *cfd)
{
	struct sockaddr_in a;
	socklen_t len = server_addr(next_port++, &a);
	pthread_t th;
	int fd, ret;

	*cfd = -1;
	ns->lfd = socket_in(1);
	ns->ret = -EINPROGRESS;
	ns->served = false;
	if (ns->lfd < 0 || bind(ns->lfd, (struct sockaddr *)&a, len) || listen(ns->lfd, 1) ||
	    pthread_create(&th, NULL, nserver_main, ns)) {
		ret = -errno;
		if (ns->lfd >= 0)
			close(ns->lfd);
		return ret;
	}
	fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	sock_timeouts(fd, TIMEO_MS / 1000);
	ret = fd < 0 || connect(fd, (struct sockaddr *)&a, len) ? -errno :
	      quic_client_handshake(fd, NULL, NULL, NULL);
	if (!ret) {
		char buf[16] = "";
		uint32_t flags = 0;
		int64_t sid = 0;

		if (quic_sendmsg(fd, "hello", 5, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) != 5 ||
		    quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags) != 5 || strcmp(buf, "world"))
			ret = 1;	/* handshake fine, data not */
	}
	if (ret && ret != 1)
		shutdown(ns->lfd, SHUT_RDWR);
	if (fd >= 0 && ret)
		close(fd);
	else
		*cfd = fd;
	pthread_join(th, NULL);
	close(ns->lfd);
	return ret;
}

/* Does file @path hold the first certificate of file @pem? */
static bool file_has(const char *path, const char *pem)
{
	static char a[65536], b[8192];
	ssize_t n = read_file(path, a, sizeof(a)), m = read_file(pem, b, sizeof(b));
	char *end;

	if (n <= 0 || m <= 0)
		return false;
	end = strstr(b, "-----END CERTIFICATE-----");
	if (!end)
		return false;
	end[0] = '\0';
	return strstr(a, b);
}

static void group_null_host(void)
{
	struct nserver ns = {};
	char saved[] = SYSTEM_STORE ".callers";
	bool in_store;
	int ret, cfd;

	ktap_subtest_begin("null-host");
	ktap_plan(5);

	in_store = file_has(SYSTEM_STORE, cert_path("ca.pem"));
	expect(in_store, "null-host: the test CA is in the system trust store " SYSTEM_STORE);

	warnings[0] = '\0';
	quic_set_log_level(QUIC_LOG_WARN);
	ret = null_host_conn(&ns, &cfd);
	expect(ret != -EINVAL && ret != -ENOENT && ret >= 0 && !ns.ret,
	       "null-host: quic_client_handshake(fd, NULL, NULL, NULL) verifies against the system "
	       "store and succeeds (client %s, server %s)",
	       ret == 1 ? "ok" : errno_name(-ret), errno_name(-ns.ret));
	expect(!ret && ns.served, "null-host: data both ways after it");
	if (cfd >= 0)
		close(cfd);
	expect(strstr(warnings, "name is not checked"),
	       "null-host: libquic warns that the server's name was not checked");

	/* The same with the test CA gone from the store: the chain is checked. */
	ret = -EPERM;
	if (in_store && !rename(SYSTEM_STORE, saved)) {
		char other[8192];
		FILE *f = fopen(SYSTEM_STORE, "w");

		if (f && read_file(cert_path("other-ca.pem"), other, sizeof(other)) > 0 &&
		    fputs(other, f) >= 0 && !fclose(f)) {
			f = NULL;
			ret = null_host_conn(&ns, &cfd);
		}
		if (f)
			fclose(f);
		if (rename(saved, SYSTEM_STORE))
			ktap_diag("could not restore %s: %s", SYSTEM_STORE, errno_name(errno));
	}
	if (ret == 0 && cfd >= 0)
		close(cfd);
	expect(ret == -EKEYREJECTED,
	       "null-host: with only another CA in the system store, the same call fails with "
	       "-EKEYREJECTED (%s)", ret == 1 ? "ok" : errno_name(-ret));
	quic_set_log_level(QUIC_LOG_ERROR);
	ktap_subtest_end("null-host");
}

int main(int argc, char **argv)
{
	if (argc > 1)
		cert_dir = argv[1];
	ktap_plan(3);
	signal(SIGPIPE, SIG_IGN);
	quic_set_log_func(lib_log);
	if (access(cert_path("ca.pem"), R_OK) || netns_pair_create(&pair) ||
	    netns_enter(&pair, 0)) {
		ktap_diag("no test credentials in %s or no namespace pair", cert_dir);
		ktap_result(false, "samba");
		ktap_result(false, "tlshd");
		ktap_result(false, "null-host");
		return ktap_finish();
	}
	group_samba();
	group_tlshd();
	group_null_host();
	netns_pair_destroy(&pair);
	return ktap_finish();
}
