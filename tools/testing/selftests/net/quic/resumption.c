// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Session resumption and 0-RTT (RFC 9001 Sections 4.5 and 4.6), booted,
 * with libquic and GnuTLS: a client in one network namespace, listeners in
 * the other. The client builds its own GnuTLS session, as libquic's API
 * expects of an application that resumes (quic_handshake(),
 * quic_session_get_data(), quic_session_set_data()).
 *
 * Each case is a KTAP subtest whose plan is the number of checks it makes.
 *
 * Usage: resumption [certificate directory, default /tests/certs]
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/quic.h>

#include "hswatch.h"
#include "ktap.h"
#include "netns.h"
#include "util.h"

#define PORT_BASE	4900
#define TIMEO_S		10
#define HOSTNAME	"server.test"	/* the SAN of server.pem */
#define ALPN		"quic-selftest"
#define REQ_LEN		3000		/* more than one 0-RTT packet holds */
#define MAX_CONNS	2		/* connections one listener answers */

static struct netns_pair pair;
static int next_port = PORT_BASE;
static uint32_t client_version = QUIC_VERSION_V1;	/* of the next client_conn() */

static void lib_log(int level, const char *msg)
{
	(void)level;
	ktap_diag("libquic: %s", msg);
}

static socklen_t server_addr(int port, struct sockaddr_in *a)
{
	return netns_addr4(&pair, 1, port, a);
}

static uint8_t pattern(size_t i, uint8_t seed)
{
	return (uint8_t)(i * 7 + seed);
}

/* A listener in the server namespace answering @conns connections: each
 * one's stream 0 is read to its end and checked, then "ok" and FIN go back.
 */
struct server {
	int port;
	int lfd;
	int conns;
	const uint8_t *key;	/* ticket key to set, NULL: the kernel's */
	size_t keylen;
	uint64_t max_data;	/* initial_max_data to set, 0: the default */
	int served;		/* connections whose request arrived intact */
	/* Per connection: bytes the accepted socket held for recvmsg() just
	 * before its first 1-RTT key (-1: none came). Without 1-RTT keys
	 * only 0-RTT packets can have brought stream data.
	 */
	int early_inq[MAX_CONNS];
	char why[128];
	pthread_t th;
	int ready[2];
};

static bool serve_one(struct server *s, int fd, uint8_t seed)
{
	uint8_t buf[4096];
	uint32_t flags = 0;
	size_t got = 0, i;
	int64_t sid = 0;
	ssize_t n;
	int ret;

	hs_watch(fd);
	ret = quic_server_handshake(fd, cert_path("server.key"), cert_path("server.pem"), ALPN);
	s->early_inq[seed] = hs_watch_end(fd).inq_at_app;
	if (ret) {
		snprintf(s->why, sizeof(s->why), "server handshake failed");
		return false;
	}
	for (;;) {
		n = quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags);
		if (n < 0 || sid != 0) {
			snprintf(s->why, sizeof(s->why), "request: %s, stream %lld",
				 errno_name(errno), (long long)sid);
			return false;
		}
		for (i = 0; i < (size_t)n; i++)
			if (buf[i] != pattern(got + i, seed)) {
				snprintf(s->why, sizeof(s->why), "request byte %zu differs", got + i);
				return false;
			}
		got += n;
		if (flags & MSG_STREAM_FIN)
			break;
	}
	if (got != REQ_LEN) {
		snprintf(s->why, sizeof(s->why), "request of %zu bytes", got);
		return false;
	}
	if (quic_sendmsg(fd, "ok", 2, 0, MSG_STREAM_FIN) != 2) {
		snprintf(s->why, sizeof(s->why), "reply: %s", errno_name(errno));
		return false;
	}
	/* Until the client closes, so that the reply is not lost. */
	while (quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags) > 0)
		;
	return true;
}

static void *server_main(void *p)
{
	struct server *s = p;
	struct sockaddr_in a;
	socklen_t len = server_addr(s->port, &a);
	int i, fd;
	char r = 'x';

	if (netns_enter(&pair, 1)) {
		snprintf(s->why, sizeof(s->why), "entering side 1: %s", errno_name(errno));
		goto ready;
	}
	s->lfd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	if (s->lfd < 0)
		goto ready;
	sock_timeouts(s->lfd, TIMEO_S);
	if (s->max_data) {
		struct quic_transport_param tp = {};
		socklen_t tlen = sizeof(tp);

		if (getsockopt(s->lfd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &tp, &tlen))
			goto ready;
		tp.max_data = s->max_data;
		if (setsockopt(s->lfd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &tp, sizeof(tp)))
			goto ready;
	}
	if ((s->key && setsockopt(s->lfd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, s->key,
				  s->keylen)) ||
	    bind(s->lfd, (struct sockaddr *)&a, len) || listen(s->lfd, 4)) {
		snprintf(s->why, sizeof(s->why), "listener: %s", errno_name(errno));
		goto ready;
	}
	r = 'r';
ready:
	if (write(s->ready[1], &r, 1) != 1 || r != 'r')
		return NULL;
	for (i = 0; i < s->conns; i++) {
		fd = accept(s->lfd, NULL, NULL);
		if (fd < 0) {
			snprintf(s->why, sizeof(s->why), "accept: %s", errno_name(errno));
			break;
		}
		sock_timeouts(fd, TIMEO_S);
		if (serve_one(s, fd, (uint8_t)i))
			s->served++;
		close(fd);
	}
	return NULL;
}

static int server_start_with(struct server *s, int conns, const uint8_t *key, size_t keylen,
			     uint64_t max_data)
{
	char r;
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < MAX_CONNS; i++)
		s->early_inq[i] = -1;
	s->max_data = max_data;
	s->port = next_port++;
	s->lfd = -1;
	s->conns = conns < MAX_CONNS ? conns : MAX_CONNS;
	s->key = key;
	s->keylen = keylen;
	if (pipe(s->ready) || pthread_create(&s->th, NULL, server_main, s))
		return -1;
	if (read(s->ready[0], &r, 1) != 1 || r != 'r') {
		pthread_join(s->th, NULL);
		ktap_diag("server not ready: %s", s->why);
		return -1;
	}
	return 0;
}

static int server_start(struct server *s, int conns, const uint8_t *key, size_t keylen)
{
	return server_start_with(s, conns, key, keylen, 0);
}

static void server_stop(struct server *s)
{
	pthread_join(s->th, NULL);
	if (s->why[0])
		ktap_diag("server: %s", s->why);
	if (s->lfd >= 0)
		close(s->lfd);
	close(s->ready[0]);
	close(s->ready[1]);
}

/* What one connection keeps for the next. */
struct resume {
	uint8_t session[8192];
	size_t len;
	struct quic_transport_param tp;
	bool have_tp;
};

/* What one client connection saw. */
struct outcome {
	bool handshake;		/* quic_handshake() succeeded */
	bool resumed;		/* TLS resumed the session */
	bool early;		/* the server accepted early data */
	bool reply;		/* "ok" and FIN came back */
	bool kept;		/* resumption data for the next connection */
	bool early_keys;	/* the client's kernel got 0-RTT keys */
	uint32_t version;	/* QUIC_SOCKOPT_CONFIG's afterwards */
};

static int tls_session(int fd, const struct resume *rs, gnutls_session_t *ps,
		       gnutls_certificate_credentials_t *pc)
{
	const char *prio = "NORMAL:-VERS-ALL:+VERS-TLS1.3:%DISABLE_TLS13_COMPAT_MODE";

	if (gnutls_certificate_allocate_credentials(pc))
		return -1;
	if (gnutls_init(ps, GNUTLS_CLIENT | GNUTLS_ENABLE_EARLY_DATA |
			GNUTLS_NO_END_OF_EARLY_DATA))
		return -1;
	if (gnutls_priority_set_direct(*ps, prio, NULL) ||
	    gnutls_certificate_set_x509_trust_file(*pc, cert_path("ca.pem"),
						   GNUTLS_X509_FMT_PEM) < 0 ||
	    gnutls_server_name_set(*ps, GNUTLS_NAME_DNS, HOSTNAME, strlen(HOSTNAME)) ||
	    gnutls_credentials_set(*ps, GNUTLS_CRD_CERTIFICATE, *pc) ||
	    quic_session_set_alpn(*ps, ALPN, strlen(ALPN)))
		return -1;
	gnutls_session_set_verify_cert(*ps, HOSTNAME, 0);
	if (rs->len && quic_session_set_data(*ps, rs->session, rs->len))
		return -1;
	gnutls_transport_set_int(*ps, fd);
	return 0;
}

static bool send_request(int fd, uint8_t seed)
{
	uint8_t buf[REQ_LEN];
	size_t i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = pattern(i, seed);
	return quic_sendmsg(fd, buf, sizeof(buf), 0, MSG_STREAM_NEW | MSG_STREAM_FIN) ==
	       (ssize_t)sizeof(buf);
}

static bool read_reply(int fd)
{
	uint32_t flags = 0;
	int64_t sid = -1;
	char buf[16];
	ssize_t n;

	n = quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags);
	return n == 2 && sid == 0 && !memcmp(buf, "ok", 2) && (flags & MSG_STREAM_FIN);
}

/*
 * One client connection to @port carrying request @seed: resuming @rs if
 * it holds a session, writing the request before the handshake if @early,
 * and leaving in @rs what the next connection resumes with.
 */
static void client_conn(int port, struct resume *rs, bool early, uint8_t seed,
			struct outcome *o)
{
	struct quic_config cfg;
	gnutls_certificate_credentials_t cred = NULL;
	gnutls_session_t session = NULL;
	socklen_t len = sizeof(cfg);
	struct sockaddr_in a;
	socklen_t alen = server_addr(port, &a);
	size_t n;
	int fd;

	memset(o, 0, sizeof(*o));
	fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	if (fd < 0)
		return;
	sock_timeouts(fd, TIMEO_S);
	hs_watch(fd);
	/* libquic waits for the server's ticket before returning. */
	if (!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len)) {
		cfg.receive_session_ticket = 1;
		cfg.version = client_version;
		setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, sizeof(cfg));
	}
	if (rs->have_tp &&
	    setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &rs->tp, sizeof(rs->tp)))
		ktap_diag("remembered parameters: %s", errno_name(errno));
	if (connect(fd, (struct sockaddr *)&a, alen) || tls_session(fd, rs, &session, &cred)) {
		ktap_diag("client setup: %s", errno_name(errno));
		goto out;
	}
	if (early && !send_request(fd, seed))
		ktap_diag("request before the handshake: %s", errno_name(errno));
	o->handshake = !quic_handshake(session);
	o->early_keys = hs_watch_end(fd).early != 0;
	len = sizeof(cfg);
	if (!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len))
		o->version = cfg.version;
	if (!o->handshake)
		goto out;
	o->resumed = gnutls_session_is_resumed(session);
	o->early = gnutls_session_get_flags(session) & GNUTLS_SFLAGS_EARLY_DATA;
	if (!early && !send_request(fd, seed))
		ktap_diag("request: %s", errno_name(errno));
	o->reply = read_reply(fd);

	n = sizeof(rs->session);
	o->kept = !quic_session_get_data(session, rs->session, &n) && n;
	rs->len = o->kept ? n : 0;
	memset(&rs->tp, 0, sizeof(rs->tp));
	rs->tp.remote = 1;
	len = sizeof(rs->tp);
	rs->have_tp = !getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &rs->tp, &len);
	rs->tp.remote = 1;
out:
	if (session)
		gnutls_deinit(session);
	if (cred)
		gnutls_certificate_free_credentials(cred);
	close(fd);
}

static bool check(bool ok, const char *name)
{
	return ktap_result(ok, "%s", name);
}

/*
 * 0-RTT seen from the kernels rather than from GnuTLS's flag: the client's
 * got 0-RTT keys, and the server's socket held the whole request before it
 * had any 1-RTT key, so the request came in 0-RTT packets. @early_inq:
 * what the server's socket held then.
 */
static void check_early_sent(const struct outcome *o, int early_inq)
{
	check(o->early_keys && early_inq == REQ_LEN,
	      "the kernels carried it in 0-RTT: the server held it all before its 1-RTT keys");
	ktap_diag("server: %d bytes held before its 1-RTT keys, of %d", early_inq, REQ_LEN);
}

/* Early data refused: none of it reached the server's socket before 1-RTT. */
static void check_early_refused(int early_inq)
{
	check(early_inq == 0, "the server's kernel took none of it before its 1-RTT keys");
	ktap_diag("server: %d bytes held before its 1-RTT keys", early_inq);
}

/* ------------------------------------------------------------ cases */

static void case_ticket_event(void)
{
	struct quic_event_option ev = { .type = QUIC_EVENT_NEW_SESSION_TICKET, .on = 1 };
	uint8_t buf[4200], opt[4200];
	gnutls_certificate_credentials_t cred = NULL;
	gnutls_session_t session = NULL;
	struct resume rs = { 0 };
	struct pollfd pfd;
	socklen_t olen = sizeof(opt);
	struct sockaddr_in a;
	struct server s;
	uint32_t flags = 0;
	int64_t sid = 0;
	ssize_t n = -1;
	size_t dlen;
	int fd, ret;

	if (server_start(&s, 1, NULL, 0))
		return;
	fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	sock_timeouts(fd, TIMEO_S);
	ret = setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev));
	if (!ret)
		ret = connect(fd, (struct sockaddr *)&a, server_addr(s.port, &a));
	if (!ret)
		ret = tls_session(fd, &rs, &session, &cred);
	if (!ret)
		ret = quic_handshake(session);
	check(!ret, "the handshake completes without waiting for a ticket");

	/* The ticket comes after the handshake: POLLPRI, and an event that
	 * overtakes the data.
	 */
	pfd.fd = fd;
	pfd.events = POLLPRI;
	check(poll(&pfd, 1, TIMEO_S * 1000) == 1 && (pfd.revents & POLLPRI),
	      "POLLPRI: a session ticket waits");
	n = quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags);
	check(n > 5 && (flags & MSG_NOTIFICATION) && buf[0] == QUIC_EVENT_NEW_SESSION_TICKET &&
	      buf[1] == 4, "QUIC_EVENT_NEW_SESSION_TICKET carries a NewSessionTicket message");
	check(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, opt, &olen) &&
	      n > 1 && (ssize_t)olen == n - 1 && !memcmp(opt, buf + 1, olen),
	      "QUIC_SOCKOPT_SESSION_TICKET returns the same message");
	pfd.revents = 0;
	check(poll(&pfd, 1, 0) == 0, "reading the option clears POLLPRI");
	check(send_request(fd, 0) && read_reply(fd), "the request is answered");
	dlen = sizeof(rs.session);
	check(!quic_session_get_data(session, rs.session, &dlen) && dlen > 0,
	      "quic_session_get_data() turns it into resumption data");
	if (session)
		gnutls_deinit(session);
	if (cred)
		gnutls_certificate_free_credentials(cred);
	close(fd);
	server_stop(&s);
	check(s.served == 1, "the server got the request intact");
}

static void case_resumption(void)
{
	struct resume *rs = calloc(1, sizeof(*rs));
	struct outcome o1, o2;
	struct server s;

	if (!rs || server_start(&s, 2, NULL, 0)) {
		free(rs);
		return;
	}
	client_conn(s.port, rs, false, 0, &o1);
	check(o1.handshake && !o1.resumed, "a first connection makes a full handshake");
	check(o1.reply, "and is answered");
	check(o1.kept && rs->have_tp, "receive_session_ticket: the ticket is there at once");
	client_conn(s.port, rs, false, 1, &o2);
	check(o2.handshake && o2.resumed, "the second connection resumes the session");
	check(o2.reply, "and is answered");
	server_stop(&s);
	check(s.served == 2, "the server got both requests intact");
	free(rs);
}

static void case_zero_rtt(void)
{
	struct resume *rs = calloc(1, sizeof(*rs));
	struct outcome o1, o2;
	struct server s;

	if (!rs || server_start(&s, 2, NULL, 0)) {
		free(rs);
		return;
	}
	client_conn(s.port, rs, false, 0, &o1);
	check(o1.handshake && o1.kept, "a first connection leaves a session");
	client_conn(s.port, rs, true, 1, &o2);
	check(o2.handshake && o2.resumed, "the request written before the handshake resumes");
	check(o2.early, "the server accepted the early data");
	check(o2.reply, "the 0-RTT request is answered");
	server_stop(&s);
	check(s.served == 2, "the server got both requests intact");
	check_early_sent(&o2, s.early_inq[1]);
	free(rs);
}

static void case_zero_rtt_rejected(void)
{
	struct resume *rs = calloc(1, sizeof(*rs));
	struct outcome o1, o2;
	struct server s1, s2;

	if (!rs || server_start(&s1, 1, NULL, 0)) {
		free(rs);
		return;
	}
	client_conn(s1.port, rs, false, 0, &o1);
	server_stop(&s1);
	check(o1.handshake && o1.kept, "a first connection leaves a session");
	/* Another listener: its own ticket key cannot open the ticket. */
	if (server_start(&s2, 1, NULL, 0)) {
		free(rs);
		return;
	}
	client_conn(s2.port, rs, true, 0, &o2);
	check(o2.handshake && !o2.resumed, "a listener with another key makes a full handshake");
	check(!o2.early, "and rejects the early data");
	check(o2.reply, "the request is answered all the same");
	server_stop(&s2);
	check(s2.served == 1, "the request came whole, sent again in 1-RTT packets");
	check(o2.early_keys && s2.early_inq[0] == 0,
	      "the client's kernel had 0-RTT keys, the server's took none of it before 1-RTT keys");
	ktap_diag("server: %d bytes held before its 1-RTT keys", s2.early_inq[0]);
	free(rs);
}

static void case_shared_key(void)
{
	struct resume *rs = calloc(1, sizeof(*rs));
	uint8_t key[64], got[128];
	socklen_t len = sizeof(got);
	struct outcome o1, o2;
	struct server s1, s2;
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 13 + 5);
	if (!rs || server_start(&s1, 1, key, sizeof(key))) {
		free(rs);
		return;
	}
	check(!getsockopt(s1.lfd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, got, &len) &&
	      len == sizeof(key) && !memcmp(got, key, len),
	      "a listener keeps the ticket key set before listen()");
	client_conn(s1.port, rs, false, 0, &o1);
	server_stop(&s1);
	if (server_start(&s2, 1, key, sizeof(key))) {
		free(rs);
		return;
	}
	client_conn(s2.port, rs, true, 0, &o2);
	check(o1.handshake && o2.handshake && o2.resumed,
	      "a listener with the same key resumes the other's session");
	check(o2.early && o2.reply, "and takes its 0-RTT request");
	server_stop(&s2);
	check(s2.served == 1, "the request arrived intact");
	check_early_sent(&o2, s2.early_inq[0]);
	free(rs);
}

/* A session resumed on a listener sharing the key: @max_data for the
 * second listener's initial_max_data (0: the same), @version for the
 * second client. What the second connection saw is in @o2.
 */
static bool resume_elsewhere(uint64_t max_data, uint32_t version, struct outcome *o2,
			     int *early_inq)
{
	struct resume *rs = calloc(1, sizeof(*rs));
	uint8_t key[64];
	struct outcome o1;
	struct server s1, s2;
	bool ok = false;
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 29 + 7);
	memset(o2, 0, sizeof(*o2));
	*early_inq = -1;
	if (!rs || server_start(&s1, 1, key, sizeof(key)))
		goto out;
	client_conn(s1.port, rs, false, 0, &o1);
	server_stop(&s1);
	if (!o1.handshake || !o1.kept) {
		ktap_diag("the first connection left no session");
		goto out;
	}
	if (server_start_with(&s2, 1, key, sizeof(key), max_data))
		goto out;
	client_version = version;
	client_conn(s2.port, rs, true, 0, o2);
	client_version = QUIC_VERSION_V1;
	server_stop(&s2);
	ok = s2.served == 1;
	*early_inq = s2.early_inq[0];
out:
	free(rs);
	return ok;
}

static void case_lowered_limits(void)
{
	struct outcome o;
	int early_inq;
	bool served = resume_elsewhere(65536, QUIC_VERSION_V1, &o, &early_inq);

	check(o.handshake && !o.resumed,
	      "a listener with the same key but a lower initial_max_data makes a full handshake");
	check(!o.early, "and rejects the early data (RFC 9000 Section 7.4.1)");
	check(o.reply && served, "the request arrives whole, sent again in 1-RTT packets");
	check_early_refused(early_inq);
}

static void case_other_version(void)
{
	struct outcome o;
	int early_inq;
	bool served = resume_elsewhere(0, QUIC_VERSION_V2, &o, &early_inq);

	check(o.handshake && !o.resumed && o.version == QUIC_VERSION_V2,
	      "a version 1 ticket in a version 2 connection makes a full handshake");
	if (o.version != QUIC_VERSION_V2)
		ktap_diag("the connection runs version 0x%x", o.version);
	check(!o.early, "without 0-RTT (RFC 9369 Section 5)");
	check(o.reply && served, "the request arrives whole");
	check_early_refused(early_inq);
}

static const struct {
	const char *name;
	unsigned int checks;
	void (*run)(void);
} cases[] = {
	{ "session ticket event, POLLPRI and option", 8, case_ticket_event },
	{ "resumption", 6, case_resumption },
	{ "0-RTT accepted", 6, case_zero_rtt },
	{ "0-RTT rejected", 6, case_zero_rtt_rejected },
	{ "listeners sharing a ticket key", 5, case_shared_key },
	{ "a ticket after the limits were lowered", 4, case_lowered_limits },
	{ "a ticket of another version", 4, case_other_version },
};

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc > 1)
		cert_dir = argv[1];
	ktap_plan(sizeof(cases) / sizeof(cases[0]));
	signal(SIGPIPE, SIG_IGN);
	quic_set_log_func(lib_log);
	hs_watch_init();
	if (access(cert_path("ca.pem"), R_OK) || netns_pair_create(&pair)) {
		ktap_diag("no test credentials in %s or no namespace pair", cert_dir);
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			ktap_result(false, "%s", cases[i].name);
		return ktap_finish();
	}
	if (netns_enter(&pair, 0)) {
		ktap_diag("entering side 0: %s", errno_name(errno));
		return 1;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ktap_subtest_begin(cases[i].name);
		ktap_plan(cases[i].checks);
		cases[i].run();
		ktap_subtest_end(cases[i].name);
	}
	netns_pair_destroy(&pair);
	return ktap_finish();
}
