// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Host tests for libquic: a client and a server session handshake with
 * each other in one process through the fake kernel (fake.c), no QUIC
 * kernel needed. Credentials come from gencerts.sh (directory argv[1]).
 *
 * Output is KTAP-like and ends with "N passed, N failed".
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/tls.h>

#include "../internal.h"
#include "fake.h"

static const char *dir;
static int passed, failed, number;

static void result(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d ", ok ? "ok" : "not ok", ++number);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

#define diag(...) do { printf("# " __VA_ARGS__); printf("\n"); } while (0)

static char *path(const char *name)
{
	static __thread char buf[8][512];
	static __thread int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

/* The library's error messages since log_clear(), for tests of its reasons. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char log_errors[4096];
static char log_warnings[4096];	/* and its warnings */

static void quiet_log(int level, const char *msg)
{
	char *to = level > QUIC_LOG_ERROR ? log_warnings : log_errors;

	if (getenv("LIBQUIC_TEST_VERBOSE"))
		printf("# libquic[%d]: %s\n", level, msg);
	if (level > QUIC_LOG_WARN)
		return;
	pthread_mutex_lock(&log_lock);
	strncat(to, msg, sizeof(log_errors) - strlen(to) - 2);
	strcat(to, "\n");
	pthread_mutex_unlock(&log_lock);
}

static void log_clear(void)
{
	pthread_mutex_lock(&log_lock);
	log_errors[0] = '\0';
	log_warnings[0] = '\0';
	pthread_mutex_unlock(&log_lock);
}

/* Did a warning since log_clear() contain @needle? */
static bool warn_saw(const char *needle)
{
	bool seen;

	pthread_mutex_lock(&log_lock);
	seen = strstr(log_warnings, needle);
	pthread_mutex_unlock(&log_lock);
	return seen;
}

/* Did an error message since log_clear() contain @needle? */
static bool log_saw(const char *needle)
{
	bool seen;

	pthread_mutex_lock(&log_lock);
	seen = strstr(log_errors, needle);
	pthread_mutex_unlock(&log_lock);
	return seen;
}

/* ---- checks on what the fake kernel saw ---- */

static size_t secret_len(uint32_t type)
{
	return type == TLS_CIPHER_AES_GCM_256 ? 48 : 32;
}

/*
 * Both sides installed Handshake and 1-RTT secrets of @type in both
 * directions, each side's send secret equal to the other's receive one,
 * never an Initial or 0-RTT one, and both ended up established.
 */
static bool secrets_match(int cfd, int sfd, uint32_t type)
{
	struct fake_sock *c = fake_get(cfd), *s = fake_get(sfd);
	static const int levels[] = { QUIC_CRYPTO_HANDSHAKE, QUIC_CRYPTO_APP };
	size_t i, len = secret_len(type);
	int dir;

	if (!c->established || !s->established || c->violations || s->violations)
		return false;
	for (dir = 0; dir < 2; dir++) {
		if (c->sec[QUIC_CRYPTO_INITIAL][dir].set || s->sec[QUIC_CRYPTO_INITIAL][dir].set ||
		    c->sec[QUIC_CRYPTO_EARLY][dir].set || s->sec[QUIC_CRYPTO_EARLY][dir].set)
			return false;
	}
	for (i = 0; i < 2; i++) {
		for (dir = 0; dir < 2; dir++) {
			const struct fake_secret *a = &c->sec[levels[i]][dir];
			const struct fake_secret *b = &s->sec[levels[i]][!dir];
			static const uint8_t zero[48];

			if (!a->set || !b->set || a->type != type || b->type != type ||
			    memcmp(a->secret, b->secret, sizeof(a->secret)) ||
			    !memcmp(a->secret, zero, len) ||
			    memcmp(a->secret + len, zero, sizeof(a->secret) - len))
				return false;
		}
	}
	/* and the secrets of the two directions differ */
	return memcmp(c->sec[QUIC_CRYPTO_APP][0].secret, c->sec[QUIC_CRYPTO_APP][1].secret, len);
}

/* Each side received exactly the other's transport parameter bytes. */
static bool tparams_exchanged(int cfd, int sfd)
{
	struct fake_sock *c = fake_get(cfd), *s = fake_get(sfd);

	return c->peer_tplen == s->tplen && !memcmp(c->peer_tp, s->tp, s->tplen) &&
	       s->peer_tplen == c->tplen && !memcmp(s->peer_tp, c->tp, c->tplen);
}

/* ---- sessions prepared by the test, driven with the step API ---- */

struct side {
	gnutls_session_t session;
	gnutls_certificate_credentials_t cert;
	gnutls_psk_client_credentials_t pskc;
	gnutls_psk_server_credentials_t psks;
	struct quic_handshake_step *step;
	int fd, ret;
	bool done;
};

static const char *prio_fmt =
	"NORMAL:-VERS-ALL:+VERS-TLS1.3:%%DISABLE_TLS13_COMPAT_MODE:-CIPHER-ALL:+%s";

/* Set: side_init() lets a server's GnuTLS send its ticket by itself. */
static bool side_auto_ticket;

static int side_init(struct side *sd, int fd, bool server, const char *cipher, const char *alpn)
{
	unsigned int no_auto = side_auto_ticket ? 0 : GNUTLS_NO_AUTO_SEND_TICKET;
	char prio[256];

	memset(sd, 0, sizeof(*sd));
	sd->fd = fd;
	if (gnutls_init(&sd->session, (server ? GNUTLS_SERVER | no_auto :
					       GNUTLS_CLIENT) | GNUTLS_NO_END_OF_EARLY_DATA))
		return -1;
	snprintf(prio, sizeof(prio), prio_fmt, cipher);
	if (gnutls_priority_set_direct(sd->session, prio, NULL) ||
	    gnutls_certificate_allocate_credentials(&sd->cert))
		return -1;
	if (server) {
		if (gnutls_certificate_set_x509_key_file(sd->cert, path("server.pem"),
							 path("server.key"), GNUTLS_X509_FMT_PEM))
			return -1;
	} else {
		if (gnutls_certificate_set_x509_trust_file(sd->cert, path("ca.pem"),
							   GNUTLS_X509_FMT_PEM) != 1)
			return -1;
		gnutls_session_set_verify_cert(sd->session, "server.test", 0);
		gnutls_server_name_set(sd->session, GNUTLS_NAME_DNS, "server.test", 11);
	}
	if (gnutls_credentials_set(sd->session, GNUTLS_CRD_CERTIFICATE, sd->cert))
		return -1;
	if (alpn && quic_session_set_alpn(sd->session, alpn, strlen(alpn)))
		return -1;
	gnutls_transport_set_int(sd->session, fd);
	return 0;
}

static void side_free(struct side *sd)
{
	quic_handshake_deinit(sd->session);
	if (sd->session)
		gnutls_deinit(sd->session);
	if (sd->cert)
		gnutls_certificate_free_credentials(sd->cert);
}

/* Make the call @sd's step asks for on the fake; false when it would block. */
static bool side_turn(struct side *sd)
{
	const struct quic_kops *k = quic_kops;
	ssize_t n;

	if (sd->done || sd->ret)
		return false;
	if (sd->step->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG) {
		n = k->sendmsg(sd->fd, sd->step->s_sendmsg.msg, sd->step->s_sendmsg.flags);
		sd->step->s_sendmsg.retval = n < 0 ? -errno : n;
	} else {
		n = k->recvmsg(sd->fd, sd->step->s_recvmsg.msg, sd->step->s_recvmsg.flags);
		sd->step->s_recvmsg.retval = n < 0 ? -errno : n;
	}
	sd->ret = quic_handshake_step(sd->session, &sd->step);
	if (!sd->ret && !sd->step)
		sd->done = true;
	return n >= 0;
}

/* Interleave both sides' steps in this thread until neither progresses. */
static void drive(struct side *c, struct side *s)
{
	bool progress = true;
	int rounds = 0;

	fake_get(c->fd)->nonblock = fake_get(s->fd)->nonblock = true;
	c->ret = quic_handshake_init(c->session, &c->step);
	s->ret = quic_handshake_init(s->session, &s->step);
	c->done = !c->ret && !c->step;
	s->done = !s->ret && !s->step;
	while (progress && rounds++ < 1000) {
		progress = side_turn(c);
		progress |= side_turn(s);
	}
}

static void test_step_cipher(const char *cipher, uint32_t type)
{
	struct side c, s;
	char calpn[32] = "", salpn[32] = "";
	size_t clen = sizeof(calpn), slen = sizeof(salpn);
	int cfd, sfd;
	bool ok;

	fake_reset();
	fake_pair(&cfd, &sfd);
	fake_get(cfd)->max_read = 300;	/* CRYPTO data in pieces */
	fake_get(sfd)->max_read = 200;
	ok = !side_init(&c, cfd, false, cipher, "h3,hq-interop") &&
	     !side_init(&s, sfd, true, cipher, "hq-interop");
	if (ok) {
		drive(&c, &s);
		ok = c.done && s.done;
		if (!ok)
			diag("client %d (%s), server %d (%s)", c.ret, strerror(-c.ret), s.ret,
			     strerror(-s.ret));
	}
	result(ok, "step API, X.509, %s: both sides complete", cipher);
	result(ok && secrets_match(cfd, sfd, type),
	       "step API, %s: matching Handshake and 1-RTT secrets of type %u", cipher, type);
	result(ok && tparams_exchanged(cfd, sfd), "step API, %s: transport parameters exchanged",
	       cipher);
	ok = ok && !quic_session_get_alpn(c.session, calpn, &clen) &&
	     !quic_session_get_alpn(s.session, salpn, &slen) &&
	     clen == 10 && slen == 10 && !memcmp(calpn, "hq-interop", 10) &&
	     !memcmp(salpn, "hq-interop", 10);
	result(ok, "step API, %s: ALPN hq-interop negotiated on both sides", cipher);
	side_free(&c);
	side_free(&s);
}

/*
 * A server session prepared without GNUTLS_NO_AUTO_SEND_TICKET (as a
 * caller may well write it): GnuTLS writes a NewSessionTicket by itself,
 * which must wait for the 1-RTT keys instead of failing the handshake.
 */
static void test_step_auto_ticket(void)
{
	struct side c, s;
	int cfd, sfd;
	bool ok;

	fake_reset();
	fake_pair(&cfd, &sfd);
	side_auto_ticket = true;
	ok = !side_init(&c, cfd, false, "AES-128-GCM", "smb") &&
	     !side_init(&s, sfd, true, "AES-128-GCM", "smb");
	side_auto_ticket = false;
	if (ok) {
		drive(&c, &s);
		ok = c.done && s.done;
		if (!ok)
			diag("client %d (%s), server %d (%s)", c.ret, strerror(-c.ret), s.ret,
			     strerror(-s.ret));
	}
	result(ok && !fake_get(sfd)->violations,
	       "step API: a server session without GNUTLS_NO_AUTO_SEND_TICKET completes, "
	       "its own ticket sent after the 1-RTT keys (%u violations)",
	       fake_get(sfd)->violations);
	side_free(&c);
	side_free(&s);
}

/* ---- the API of today's upstream libquic ---- */

/*
 * One turn of @sd as an event loop makes it (Samba's tstream_tls_quic
 * does so): the step's own flags plus MSG_DONTWAIT, a call that would
 * block left for later without telling the library, end of file turned
 * into -ECONNRESET. Returns whether the call went through.
 */
static bool loop_turn(struct side *sd)
{
	const struct quic_kops *k = quic_kops;
	struct quic_handshake_step *st = sd->step;
	ssize_t n;

	if (sd->done || sd->ret)
		return false;
	if (st->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG)
		n = k->sendmsg(sd->fd, st->s_sendmsg.msg, st->s_sendmsg.flags | MSG_DONTWAIT);
	else
		n = k->recvmsg(sd->fd, st->s_recvmsg.msg, st->s_recvmsg.flags | MSG_DONTWAIT);
	if (n < 0 && errno == EAGAIN)
		return false;
	if (n <= 0)
		n = n ? -errno : -ECONNRESET;
	if (st->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG)
		st->s_sendmsg.retval = n;
	else
		st->s_recvmsg.retval = n;
	sd->ret = quic_handshake_step(sd->session, &sd->step);
	if (!sd->ret && !sd->step)
		sd->done = true;
	return true;
}

/* Two sides on a new pair: QUIC_PRIORITY, ALPN lists @calpn and @salpn. */
static bool pair_sides(struct side *c, struct side *s, int *cfd, int *sfd, const char *calpn,
		       const char *salpn)
{
	fake_reset();
	fake_pair(cfd, sfd);
	return !side_init(c, *cfd, false, "AES-128-GCM", calpn) &&
	       !side_init(s, *sfd, true, "AES-128-GCM", salpn) &&
	       !gnutls_priority_set_direct(c->session, QUIC_PRIORITY, NULL) &&
	       !gnutls_priority_set_direct(s->session, QUIC_PRIORITY, NULL);
}

/* Two sides that handshake with ALPN lists @calpn and @salpn, or fail. */
static bool alpn_pair(struct side *c, struct side *s, const char *calpn, const char *salpn)
{
	int cfd, sfd;

	if (!pair_sides(c, s, &cfd, &sfd, calpn, salpn))
		return false;
	drive(c, s);
	return c->done && s->done;
}

static void test_api_today(void)
{
	struct quic_handshake_step *st;
	bool ok, flags_ok, progress;
	struct side c, s;
	int cfd, sfd, rounds;

	ok = pair_sides(&c, &s, &cfd, &sfd, "hq-interop", "hq-interop");
	{
		/* upstream's string, written out in one piece */
		static const char prio[] = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+PSK:+ECDHE-PSK:"
			"-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:+AES-128-CCM:"
			"-GROUP-ALL:+GROUP-SECP256R1:+GROUP-X25519:+GROUP-SECP384R1:"
			"+GROUP-SECP521R1:%DISABLE_TLS13_COMPAT_MODE";

		result(ok && !strcmp(QUIC_PRIORITY, prio),
		       "QUIC_PRIORITY: upstream's string, and GnuTLS takes it");
	}

	/* An event loop's driving, and what each step asks for. */
	flags_ok = true;
	if (ok) {
		c.ret = quic_handshake_init(c.session, &c.step);
		s.ret = quic_handshake_init(s.session, &s.step);
		for (rounds = 0, progress = true; progress && rounds < 1000; rounds++) {
			for (st = c.step; st; st = NULL)
				flags_ok &= st->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG ?
					    (st->s_sendmsg.flags & MSG_NOSIGNAL) && st->s_sendmsg.msg :
					    st->op == QUIC_HANDSHAKE_STEP_OP_RECVMSG && st->s_recvmsg.msg;
			progress = loop_turn(&c);
			progress |= loop_turn(&s);
		}
		ok = c.done && s.done;
		if (!ok)
			diag("client %d, server %d", c.ret, s.ret);
	}
	result(ok && secrets_match(cfd, sfd, TLS_CIPHER_AES_GCM_128),
	       "step API from an event loop (MSG_DONTWAIT, EAGAIN not reported): both complete");
	result(ok && flags_ok, "step API: sendmsg steps carry MSG_NOSIGNAL, every step a msghdr");
	{
		/* No ticket came: nothing to resume with, and no error. */
		uint8_t data[4096];
		size_t len = sizeof(data);
		int ret = quic_session_get_data(c.session, data, &len);

		result(ok && ret == 0 && len == 0,
		       "quic_session_get_data() before any ticket: 0 and size 0 (%d, %zu)", ret, len);
	}
	side_free(&c);
	side_free(&s);

	/* A step handed back without its call made is refused. */
	ok = pair_sides(&c, &s, &cfd, &sfd, NULL, NULL) &&
	     !quic_handshake_init(c.session, &c.step) && c.step &&
	     c.step->op == QUIC_HANDSHAKE_STEP_OP_SENDMSG;
	result(ok && quic_handshake_step(c.session, &c.step) == -EINVAL,
	       "quic_handshake_step() with the call not made (retval untouched) is -EINVAL");
	side_free(&c);
	side_free(&s);
	{
		/* "smbd, h3, ksmbd" is three protocols, whichever the peer has. */
		char alpn[16];
		size_t len = sizeof(alpn);

		ok = alpn_pair(&c, &s, "smbd, h3, ksmbd", "h3") &&
		     !quic_session_get_alpn(c.session, alpn, &len) && len == 2 &&
		     !memcmp(alpn, "h3", 2);
		result(ok, "ALPN: a client's \"smbd, h3, ksmbd\" offers \"h3\" (%d, %d)", c.ret,
		       s.ret);
		side_free(&c);
		side_free(&s);
		len = sizeof(alpn);
		ok = alpn_pair(&c, &s, "smbd, h3, ksmbd", "ksmbd") &&
		     !quic_session_get_alpn(s.session, alpn, &len) && len == 5 &&
		     !memcmp(alpn, "ksmbd", 5);
		result(ok, "ALPN: ... and \"ksmbd\", the last name (%d, %d)", c.ret, s.ret);
		side_free(&c);
		side_free(&s);
	}
	{
		/* The log setters hand back what they replace. */
		quic_set_log_func_t prev_func = quic_set_log_func(NULL);
		int prev_level;

		ok = prev_func == quiet_log && quic_set_log_func(prev_func) == NULL;
		prev_level = quic_set_log_level(QUIC_LOG_WARN);
		ok = ok && prev_level == QUIC_LOG_DEBUG &&
		     quic_set_log_level(prev_level) == QUIC_LOG_WARN;
		result(ok, "quic_set_log_func(), quic_set_log_level() return the previous setting");
	}
}

/* ---- the one-call API, client and server in two threads ---- */

struct run {
	int fd;
	const char *pkey, *cert, *host, *alpn;
	int ret;
};

static void *client_thread(void *arg)
{
	struct run *r = arg;

	r->ret = quic_client_handshake(r->fd, r->pkey, r->host, r->alpn);
	return NULL;
}

static void *server_thread(void *arg)
{
	struct run *r = arg;

	r->ret = quic_server_handshake(r->fd, r->pkey, r->cert, r->alpn);
	return NULL;
}

/* Run both sides; the fds are in @c and @s. */
static void both(struct run *c, struct run *s)
{
	pthread_t tc, ts;

	pthread_create(&ts, NULL, server_thread, s);
	pthread_create(&tc, NULL, client_thread, c);
	pthread_join(tc, NULL);
	pthread_join(ts, NULL);
}

static void pair_runs(struct run *c, struct run *s)
{
	fake_reset();
	fake_pair(&c->fd, &s->fd);
}

/*
 * Run both sides, the client in this thread; a client that fails shuts
 * its socket down, as a caller closing it would, so that a server still
 * waiting for a ClientHello learns the connection is gone.
 */
static void client_first(struct run *c, struct run *s)
{
	pthread_t ts;

	pthread_create(&ts, NULL, server_thread, s);
	client_thread(c);
	if (c->ret)
		quic_kops->shutdown(c->fd, SHUT_RDWR);
	pthread_join(ts, NULL);
}

static void test_x509(void)
{
	struct run c = { .host = "server.test" };
	struct run s = { .pkey = path("server.key"), .cert = path("server.pem") };

	pair_runs(&c, &s);
	/* ALPN from the sockets, cipher from the client's QUIC_SOCKOPT_CONFIG */
	strcpy(fake_get(c.fd)->alpn, "h3");
	strcpy(fake_get(s.fd)->alpn, "hq-interop,h3");
	fake_get(c.fd)->cfg.payload_cipher_type = TLS_CIPHER_CHACHA20_POLY1305;
	quic_set_ca_file(path("ca.pem"));
	both(&c, &s);
	quic_set_ca_file(NULL);
	result(!c.ret && !s.ret, "quic_client/server_handshake, X.509: both return 0 (%d, %d)",
	       c.ret, s.ret);
	result(secrets_match(c.fd, s.fd, TLS_CIPHER_CHACHA20_POLY1305),
	       "X.509: the configured CHACHA20_POLY1305 suite, matching secrets");
	result(tparams_exchanged(c.fd, s.fd), "X.509: transport parameters exchanged");
	result(!strcmp(fake_get(c.fd)->alpn, "h3") && !strcmp(fake_get(s.fd)->alpn, "h3"),
	       "X.509: both sockets' QUIC_SOCKOPT_ALPN hold the agreed h3 (client \"%s\", "
	       "server \"%s\")", fake_get(c.fd)->alpn, fake_get(s.fd)->alpn);
}

static void test_psk(void)
{
	struct run c = { .pkey = path("psk-alice.txt"), .alpn = "hq-interop" };
	struct run s = { .pkey = path("psk-alice.txt"), .alpn = "hq-interop" };

	pair_runs(&c, &s);
	both(&c, &s);
	result(!c.ret && !s.ret, "PSK: both return 0 (%d, %d)", c.ret, s.ret);
	result(secrets_match(c.fd, s.fd, fake_get(c.fd)->sec[QUIC_CRYPTO_APP][1].type),
	       "PSK: matching secrets (type %u)", fake_get(c.fd)->sec[QUIC_CRYPTO_APP][1].type);
	result(tparams_exchanged(c.fd, s.fd), "PSK: transport parameters exchanged");
}

/* A refused handshake: both fail, nobody is established, the close code. */
static void refused(const char *what, struct run *c, struct run *s, int cerr, int serr,
		    int alert, bool client_closes)
{
	struct fake_sock *fc = fake_get(c->fd), *fs = fake_get(s->fd);
	struct fake_sock *closer = client_closes ? fc : fs, *other = client_closes ? fs : fc;

	result(c->ret == cerr && s->ret == serr, "%s: client %d, server %d (want %d, %d)", what,
	       c->ret, s->ret, cerr, serr);
	result(!fc->established && !fs->established && closer->shut && other->peer_gone &&
	       other->peer_code == (uint32_t)(QUIC_TRANSPORT_ERROR_CRYPTO + alert),
	       "%s: %s closes with 0x%x (seen 0x%x)", what, client_closes ? "client" : "server",
	       QUIC_TRANSPORT_ERROR_CRYPTO + alert, other->peer_code);
}

static void test_refusals(void)
{
	struct run c = { .host = "other.test", .alpn = "h3" };
	struct run s = { .pkey = path("server.key"), .cert = path("server.pem"), .alpn = "h3" };

	pair_runs(&c, &s);
	quic_set_ca_file(path("ca.pem"));
	both(&c, &s);
	refused("wrong host name", &c, &s, -EKEYREJECTED, -ECONNRESET, GNUTLS_A_BAD_CERTIFICATE,
		true);

	c.host = "server.test";
	pair_runs(&c, &s);
	quic_set_ca_file(path("other-ca.pem"));
	both(&c, &s);
	refused("untrusted CA", &c, &s, -EKEYREJECTED, -ECONNRESET, GNUTLS_A_BAD_CERTIFICATE,
		true);

	pair_runs(&c, &s);
	quic_set_ca_file(path("ca.pem"));
	s.alpn = "hq-interop";
	both(&c, &s);
	refused("ALPN mismatch", &c, &s, -ENOPROTOOPT, -ENOPROTOOPT,
		GNUTLS_A_NO_APPLICATION_PROTOCOL, false);
	quic_set_ca_file(NULL);

	struct run pc = { .pkey = path("psk-mallory.txt") };
	struct run ps = { .pkey = path("psk-alice.txt") };

	pair_runs(&pc, &ps);
	both(&pc, &ps);
	result(pc.ret == -ECONNRESET && ps.ret == -ENOKEY && !fake_get(pc.fd)->established &&
	       !fake_get(ps.fd)->established && fake_get(ps.fd)->shut &&
	       fake_get(pc.fd)->peer_code > QUIC_TRANSPORT_ERROR_CRYPTO &&
	       fake_get(pc.fd)->peer_code <= QUIC_TRANSPORT_ERROR_CRYPTO + 0xff,
	       "unknown PSK identity: server -ENOKEY, client -ECONNRESET (%d, %d), close 0x%x",
	       ps.ret, pc.ret, fake_get(pc.fd)->peer_code);
}

/* ---- a client that names no server ---- */

static void test_no_hostname(void)
{
	struct run c = { .alpn = "h3" };
	struct run s = { .pkey = path("server.key"), .cert = path("server.pem"), .alpn = "h3" };

	/* The draft's examples pass no name: the chain is checked, and only
	 * the chain, with a warning that the name was not.
	 */
	quic_set_ca_file(path("ca.pem"));
	pair_runs(&c, &s);
	log_clear();
	client_first(&c, &s);
	result(!c.ret && !s.ret &&
	       secrets_match(c.fd, s.fd, fake_get(c.fd)->sec[QUIC_CRYPTO_APP][1].type),
	       "no host name, X.509: the chain is enough (%d, %d)", c.ret, s.ret);
	result(warn_saw("name is not checked") && !log_saw("no host name"),
	       "no host name, X.509: a warning (not an error) says the name was not checked");
	quic_set_ca_file(path("other-ca.pem"));
	pair_runs(&c, &s);
	client_first(&c, &s);
	result(c.ret == -EKEYREJECTED && !fake_get(c.fd)->established,
	       "no host name, X.509: an untrusted chain is still refused (%d)", c.ret);

	/* The caller says it knows: the same check, no warning. */
	quic_set_ca_file(path("ca.pem"));
	quic_set_allow_no_hostname(1);
	pair_runs(&c, &s);
	log_clear();
	client_first(&c, &s);
	result(!c.ret && !s.ret && !warn_saw("name is not checked"),
	       "no host name, quic_set_allow_no_hostname(1): the chain, no warning (%d, %d)",
	       c.ret, s.ret);
	quic_set_ca_file(path("other-ca.pem"));
	pair_runs(&c, &s);
	client_first(&c, &s);
	result(c.ret == -EKEYREJECTED,
	       "no host name, quic_set_allow_no_hostname(1): an untrusted chain is still refused (%d)",
	       c.ret);
	quic_set_allow_no_hostname(0);

	/* No verification at all: no name needed either. */
	quic_set_insecure(1);
	pair_runs(&c, &s);
	client_first(&c, &s);
	result(!c.ret && !s.ret, "no host name, quic_set_insecure(1): no verification (%d, %d)",
	       c.ret, s.ret);
	quic_set_insecure(0);
	quic_set_ca_file(NULL);
}

/* ---- SSLKEYLOGFILE ---- */

static int hexcmp(const char *hex, const uint8_t *bin, size_t len)
{
	char buf[97];
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(buf + 2 * i, "%02x", bin[i]);
	return strncmp(hex, buf, 2 * len) || (hex[2 * len] != '\n' && hex[2 * len]);
}

static void test_keylog(void)
{
	static const char *labels[] = { "CLIENT_HANDSHAKE_TRAFFIC_SECRET",
		"SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0",
		"SERVER_TRAFFIC_SECRET_0" };
	/* which fake secret each label must equal: level, direction seen by the client */
	static const int lv[] = { QUIC_CRYPTO_HANDSHAKE, QUIC_CRYPTO_HANDSHAKE, QUIC_CRYPTO_APP,
				  QUIC_CRYPTO_APP };
	struct run c = { .pkey = path("psk-alice.txt") };
	struct run s = { .pkey = path("psk-alice.txt") };
	char line[512], *kl = path("keylog.txt");
	int count[4] = { 0 }, good = 0, i;
	struct stat st;
	mode_t mask;
	FILE *f;

	remove(kl);
	setenv("SSLKEYLOGFILE", kl, 1);
	pair_runs(&c, &s);
	fake_get(c.fd)->cfg.payload_cipher_type = TLS_CIPHER_AES_GCM_128;
	/* With no umask to hide it, a careless open() would show in the mode. */
	mask = umask(0);
	both(&c, &s);
	umask(mask);
	unsetenv("SSLKEYLOGFILE");
	if (stat(kl, &st))
		st.st_mode = 0;
	result((st.st_mode & 07777) == 0600,
	       "key log: the file is created with mode 0600 under umask 0 (%04o)",
	       (unsigned int)(st.st_mode & 07777));
	f = fopen(kl, "r");
	while (f && fgets(line, sizeof(line), f)) {
		for (i = 0; i < 4; i++) {
			size_t n = strlen(labels[i]);
			struct fake_sock *fc = fake_get(c.fd);
			const char *hex;

			if (strncmp(line, labels[i], n) || line[n] != ' ')
				continue;
			count[i]++;
			hex = strchr(line + n + 1, ' ');
			/* the client sends with CLIENT_*, receives with SERVER_* */
			if (hex && !hexcmp(hex + 1, fc->sec[lv[i]][i % 2 == 0].secret, 32))
				good++;
		}
	}
	if (f)
		fclose(f);
	result(!c.ret && !s.ret && f, "key log: handshake with SSLKEYLOGFILE set");
	result(count[0] == 2 && count[1] == 2 && count[2] == 2 && count[3] == 2 && good == 8,
	       "key log: each side wrote the 4 traffic secrets, equal to the installed ones (%d %d %d %d, %d good)",
	       count[0], count[1], count[2], count[3], good);
	remove(kl);
}

/* ---- 0-RTT: a resuming client against quic_server_handshake() ---- */

struct resume {
	uint8_t data[4096];
	size_t len;
};

/* A client session built as an application that resumes builds one. */
static int resume_client(struct side *sd, int fd, const struct resume *rs)
{
	char prio[256];

	memset(sd, 0, sizeof(*sd));
	sd->fd = fd;
	snprintf(prio, sizeof(prio), prio_fmt, "AES-128-GCM");
	if (gnutls_init(&sd->session, GNUTLS_CLIENT | GNUTLS_ENABLE_EARLY_DATA |
			GNUTLS_NO_END_OF_EARLY_DATA) ||
	    gnutls_priority_set_direct(sd->session, prio, NULL) ||
	    gnutls_certificate_allocate_credentials(&sd->cert) ||
	    gnutls_certificate_set_x509_trust_file(sd->cert, path("ca.pem"),
						   GNUTLS_X509_FMT_PEM) != 1 ||
	    gnutls_credentials_set(sd->session, GNUTLS_CRD_CERTIFICATE, sd->cert) ||
	    gnutls_server_name_set(sd->session, GNUTLS_NAME_DNS, "server.test", 11) ||
	    quic_session_set_alpn(sd->session, "hq-interop", 10))
		return -1;
	gnutls_session_set_verify_cert(sd->session, "server.test", 0);
	if (rs && quic_session_set_data(sd->session, rs->data, rs->len))
		return -1;
	gnutls_transport_set_int(sd->session, fd);
	return 0;
}

static void *resume_client_thread(void *arg)
{
	struct side *sd = arg;

	sd->ret = quic_handshake(sd->session);
	return NULL;
}

/*
 * One connection of a client resuming with @rs (NULL: none) to
 * quic_server_handshake() on a socket that has a listener's ticket key.
 * With @save, the client waits for the server's ticket and keeps its
 * resumption data there. The client is left in @c (side_free() it), the
 * server's socket in *@sfd. Returns the server's result.
 */
static int resume_run(struct side *c, const struct resume *rs, struct resume *save, int *sfd)
{
	struct run s = { .pkey = path("server.key"), .cert = path("server.pem"),
			 .alpn = "hq-interop" };
	pthread_t tc, ts;
	int cfd;

	fake_reset();
	fake_pair(&cfd, &s.fd);
	*sfd = s.fd;
	fake_get(s.fd)->ticket_key = true;
	fake_get(cfd)->cfg.receive_session_ticket = !!save;
	if (resume_client(c, cfd, rs)) {
		c->ret = -ENOMEM;
		return -ENOMEM;
	}
	pthread_create(&ts, NULL, server_thread, &s);
	pthread_create(&tc, NULL, resume_client_thread, c);
	pthread_join(tc, NULL);
	if (c->ret)
		quic_kops->shutdown(cfd, SHUT_RDWR);
	pthread_join(ts, NULL);
	if (save) {
		save->len = sizeof(save->data);
		if (c->ret || quic_session_get_data(c->session, save->data, &save->len))
			save->len = 0;
	}
	return s.ret;
}

/* The client installed a 0-RTT key: it offered early data. */
static bool early_offered(const struct side *c)
{
	return fake_get(c->fd)->sec[QUIC_CRYPTO_EARLY][1].set;
}

/* A big-endian field of @len (at most 4) bytes; -1 when fewer are left. */
static long take_be(const uint8_t **p, size_t *left, size_t len)
{
	long v = 0;

	if (*left < len)
		return -1;
	*left -= len;
	while (len--)
		v = v << 8 | *(*p)++;
	return v;
}

/* Step over @len bytes; false when fewer are left. */
static bool skip(const uint8_t **p, size_t *left, long len)
{
	if (len < 0 || (size_t)len > *left)
		return false;
	*p += len;
	*left -= len;
	return true;
}

/*
 * The max_early_data_size the NewSessionTicket held by the client socket
 * @fd allows (its early_data extension, RFC 8446 Section 4.6.1): 0 when
 * it has none, -1 when there is no ticket or it is malformed.
 */
static long ticket_early_data(int fd)
{
	const struct fake_sock *s = fake_get(fd);
	const uint8_t *p = s->ticket;
	size_t left = s->ticket_len;
	long type, len;

	/* type 4 and length; lifetime, age_add; nonce<1>, ticket<2>; extensions<2> */
	if (take_be(&p, &left, 1) != 4 || take_be(&p, &left, 3) != (long)left ||
	    !skip(&p, &left, 8) || !skip(&p, &left, take_be(&p, &left, 1)) ||
	    !skip(&p, &left, take_be(&p, &left, 2)) || take_be(&p, &left, 2) != (long)left)
		return -1;
	while (left) {
		type = take_be(&p, &left, 2);
		len = take_be(&p, &left, 2);
		if (type == 42)		/* early_data */
			return len == 4 ? take_be(&p, &left, 4) : -1;
		if (type < 0 || !skip(&p, &left, len))
			return -1;
	}
	return 0;
}

/* The server took the 0-RTT key and the client saw it accept. */
static bool early_accepted(const struct side *c, int sfd)
{
	return fake_get(sfd)->sec[QUIC_CRYPTO_EARLY][0].set &&
	       (gnutls_session_get_flags(c->session) & GNUTLS_SFLAGS_EARLY_DATA);
}

static void test_zero_rtt(void)
{
	struct resume first, second;
	struct side c;
	int sret, sfd;

	sret = resume_run(&c, NULL, &first, &sfd);
	result(!c.ret && !sret && first.len,
	       "0-RTT: a full handshake leaves resumption data (%d, %d, %zu bytes)", c.ret, sret,
	       first.len);
	result(ticket_early_data(c.fd) == 0xffffffffL,
	       "0-RTT: by default the ticket allows early data, 0xffffffff bytes (0x%lx)",
	       ticket_early_data(c.fd));
	side_free(&c);

	sret = resume_run(&c, &first, NULL, &sfd);
	result(!c.ret && !sret && gnutls_session_is_resumed(c.session) && early_offered(&c) &&
	       early_accepted(&c, sfd),
	       "0-RTT: by default the server accepts the client's early data (%d, %d)", c.ret,
	       sret);
	side_free(&c);

	/* Opted out: a ticket that allows 0-RTT resumes, its early data does not count. */
	quic_set_server_early_data(0);
	sret = resume_run(&c, &first, &second, &sfd);
	result(!c.ret && !sret && gnutls_session_is_resumed(c.session) && early_offered(&c) &&
	       !fake_get(sfd)->sec[QUIC_CRYPTO_EARLY][0].set &&
	       !(gnutls_session_get_flags(c.session) & GNUTLS_SFLAGS_EARLY_DATA),
	       "0-RTT off: the server resumes but rejects the early data offered (%d, %d)", c.ret,
	       sret);
	result(second.len && !ticket_early_data(c.fd),
	       "0-RTT off: the ticket it sends allows no early data (%ld)",
	       ticket_early_data(c.fd));
	side_free(&c);
	quic_set_server_early_data(1);
}

/* ---- 0-RTT replay across processes: quic_set_replay_store() ---- */

struct replay_hello {
	uint8_t data[4096];
	size_t len;
};

/*
 * Send @h, a ClientHello captured earlier, to quic_server_handshake() on
 * a new socket, as an attacker replaying it would. True when the server
 * took its early data (installed the 0-RTT key).
 */
static bool replay_accepted(const struct replay_hello *h)
{
	struct run s = { .pkey = path("server.key"), .cert = path("server.pem"),
			 .alpn = "hq-interop" };
	struct quic_handshake_info hi = { .crypto_level = QUIC_CRYPTO_INITIAL };
	char cbuf[CMSG_SPACE(sizeof(hi))] = { 0 };
	struct iovec iov = { .iov_base = (void *)h->data, .iov_len = h->len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	struct pollfd pfd;
	pthread_t ts;
	bool early;
	int cfd;

	fake_reset();
	fake_pair(&cfd, &s.fd);
	fake_get(s.fd)->ticket_key = true;
	cm->cmsg_level = SOL_QUIC;
	cm->cmsg_type = QUIC_HANDSHAKE_INFO;
	cm->cmsg_len = CMSG_LEN(sizeof(hi));
	memcpy(CMSG_DATA(cm), &hi, sizeof(hi));
	if (quic_kops->sendmsg(cfd, &msg, 0) != (ssize_t)h->len)
		return false;
	pthread_create(&ts, NULL, server_thread, &s);
	/* The server's answer shows that it has read the ClientHello. */
	pfd.fd = cfd;
	pfd.events = POLLIN;
	quic_kops->poll(&pfd, 1, 5000);
	early = fake_get(s.fd)->sec[QUIC_CRYPTO_EARLY][0].set;
	quic_kops->shutdown(cfd, SHUT_RDWR);
	pthread_join(ts, NULL);
	return early;
}

/* In a child process: a store mapped from @store afresh, then the replay. */
static int replay_in_child(const char *store, const struct replay_hello *h)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid) {
		if (quic_set_replay_store(store))
			_exit(3);
		_exit(replay_accepted(h) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_replay_store(void)
{
	char tmpl[] = "/tmp/libquic-replay-XXXXXX", store[64], other[64];
	struct replay_hello *h = calloc(1, sizeof(*h));
	struct resume first;
	struct side c;
	int sret, sfd, fd;

	if (!h || !mkdtemp(tmpl)) {
		result(false, "replay: a temporary directory");
		result(false, "replay: -");
		result(false, "replay: -");
		result(false, "replay: -");
		result(false, "replay: -");
		free(h);
		return;
	}
	snprintf(store, sizeof(store), "%s/store", tmpl);
	snprintf(other, sizeof(other), "%s/other", tmpl);
	result(!quic_set_replay_store(store) && quic_set_replay_store("") == -EINVAL,
	       "replay: quic_set_replay_store() makes a store, refuses an empty name");

	/* A ticket, then a resumption whose early data the server takes. */
	sret = resume_run(&c, NULL, &first, &sfd);
	side_free(&c);
	sret |= resume_run(&c, &first, NULL, &sfd);
	h->len = fake_get(c.fd)->hello_len;
	memcpy(h->data, fake_get(c.fd)->hello, h->len);
	result(!sret && !c.ret && early_accepted(&c, sfd) && h->len,
	       "replay: a resumption with 0-RTT is accepted (%d, %d, %zu bytes of ClientHello)",
	       c.ret, sret, h->len);
	side_free(&c);

	/* The same ClientHello in another process: refused there through the
	 * shared file, taken by a process with a store of its own.
	 */
	result(replay_in_child(store, h) == 0,
	       "replay: a process sharing the store file refuses the replayed early data");
	result(replay_in_child(other, h) == 1,
	       "replay: a process with another store takes it (the check can fail)");

	/* A file others could write is not trusted. */
	fd = open(other, O_RDWR);
	if (fd >= 0) {
		fchmod(fd, 0666);
		close(fd);
	}
	result(quic_set_replay_store(other) == -EPERM,
	       "replay: a store file open to others is refused");
	unlink(store);
	unlink(other);
	rmdir(tmpl);
	free(h);
}

/* ---- smaller things ---- */

static void test_misc(void)
{
	struct quic_handshake_step *step = NULL;
	gnutls_session_t session;
	uint8_t buf[64];
	uint32_t flags = 0;
	int64_t sid = 0;
	int cfd, sfd, ret;
	ssize_t n;

	gnutls_init(&session, GNUTLS_CLIENT);
	result(quic_handshake_step(session, &step) == -EINVAL,
	       "quic_handshake_step() without init is -EINVAL");
	gnutls_transport_set_int(session, 999);
	result(quic_handshake_init(session, &step) == -EBADF && !step,
	       "quic_handshake_init() on a bad socket returns its error");
	gnutls_deinit(session);

	result(quic_client_handshake(-1, NULL, "x", NULL) == -EBADF,
	       "quic_client_handshake(-1) is -EBADF");
	fake_reset();
	fake_pair(&cfd, &sfd);
	result(quic_server_handshake(sfd, path("missing.key"), path("missing.pem"), "h3") ==
	       -ENOENT, "missing certificate files are -ENOENT");
	result(quic_client_handshake(cfd, path("missing-psk.txt"), NULL, "h3") == -ENOENT,
	       "a missing PSK file is -ENOENT");

	/* stream data once established */
	fake_get(cfd)->established = fake_get(sfd)->established = true;
	n = quic_sendmsg(cfd, "hello", 5, 4, MSG_STREAM_NEW | MSG_STREAM_FIN);
	flags = MSG_DONTWAIT;
	ret = quic_recvmsg(sfd, buf, sizeof(buf), &sid, &flags);
	result(n == 5 && ret == 5 && sid == 4 && (flags & MSG_STREAM_FIN) && !memcmp(buf, "hello", 5),
	       "quic_sendmsg()/quic_recvmsg(): stream 4, data and FIN");
	flags = MSG_DONTWAIT;
	result(quic_recvmsg(sfd, buf, sizeof(buf), &sid, &flags) == -1 && errno == EAGAIN,
	       "quic_recvmsg() with nothing queued: -1, EAGAIN");

	/* draft-lxin-quic-socket-apis: the flags are stream flags and
	 * sendmsg()/recvmsg() flags at once; unknown ones are refused; the
	 * stream ID pointer of quic_recvmsg() may be NULL (Appendix B).
	 */
	errno = 0;
	result(quic_sendmsg(cfd, "x", 1, 4, MSG_STREAM_FIN | MSG_OOB) == -1 && errno == EINVAL,
	       "quic_sendmsg() refuses a flag it does not know (MSG_OOB): EINVAL");
	n = quic_sendmsg(cfd, "bye", 3, 8, MSG_STREAM_NEW | MSG_STREAM_FIN | MSG_DONTWAIT);
	flags = MSG_DONTWAIT;
	ret = quic_recvmsg(sfd, buf, sizeof(buf), NULL, &flags);
	result(n == 3 && ret == 3 && (flags & MSG_STREAM_FIN),
	       "quic_sendmsg() with MSG_DONTWAIT among its flags; quic_recvmsg() with sid NULL");
	flags = MSG_DONTWAIT | MSG_OOB;
	errno = 0;
	result(quic_recvmsg(sfd, buf, sizeof(buf), &sid, &flags) == -1 && errno == EINVAL,
	       "quic_recvmsg() refuses a flag it does not know (MSG_OOB): EINVAL");
}

static void test_alpn_sizes(void)
{
	struct side c, s;
	size_t len = 2;
	char small[2];
	int cfd, sfd;

	fake_reset();
	fake_pair(&cfd, &sfd);
	if (side_init(&c, cfd, false, "AES-128-GCM", "hq-interop") ||
	    side_init(&s, sfd, true, "AES-128-GCM", "hq-interop")) {
		result(false, "ALPN buffer sizes: setup");
		return;
	}
	drive(&c, &s);
	result(quic_session_get_alpn(c.session, small, &len) == -ENOSPC && len == 10,
	       "quic_session_get_alpn(): a short buffer is -ENOSPC with the length");
	result(quic_session_set_alpn(c.session, "a,,b", 4) == -EINVAL,
	       "quic_session_set_alpn(): an empty name is -EINVAL");
	result(quic_session_set_alpn(c.session, "a, ,b", 5) == -EINVAL,
	       "quic_session_set_alpn(): a name of spaces only is -EINVAL");
	side_free(&c);
	side_free(&s);

	/* Spaces after the commas, as programs write lists: the server's
	 * second and third names match (no no_application_protocol).
	 */
	fake_reset();
	fake_pair(&cfd, &sfd);
	if (side_init(&c, cfd, false, "AES-128-GCM", "ksmbd") ||
	    side_init(&s, sfd, true, "AES-128-GCM", "smbd, h3 , ksmbd")) {
		result(false, "ALPN with spaces: setup");
		return;
	}
	drive(&c, &s);
	len = sizeof(small);
	result(!c.ret && !s.ret && quic_session_get_alpn(s.session, NULL, &len) == 0 && len == 5,
	       "ALPN \"smbd, h3 , ksmbd\" at the server matches a client's \"ksmbd\" (%d, %d)",
	       c.ret, s.ret);
	side_free(&c);
	side_free(&s);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; uint32_t type; } ciphers[] = {
		{ "AES-128-GCM", TLS_CIPHER_AES_GCM_128 },
		{ "AES-256-GCM", TLS_CIPHER_AES_GCM_256 },
		{ "AES-128-CCM", TLS_CIPHER_AES_CCM_128 },
		{ "CHACHA20-POLY1305", TLS_CIPHER_CHACHA20_POLY1305 },
	};
	size_t i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CREDENTIAL-DIR (from gencerts.sh)\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	unsetenv("SSLKEYLOGFILE");
	quic_set_log_func(quiet_log);
	quic_set_log_level(QUIC_LOG_DEBUG);
	fake_install();
	gnutls_global_init();
	printf("KTAP version 1\n1..70\n");

	for (i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		test_step_cipher(ciphers[i].name, ciphers[i].type);
	test_x509();
	test_psk();
	test_refusals();
	test_no_hostname();
	test_keylog();
	test_zero_rtt();
	test_replay_store();
	test_misc();
	test_alpn_sizes();
	test_api_today();
	test_step_auto_ticket();

	fake_reset();
	gnutls_global_deinit();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
