// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "api" cases for the examples of the draft's appendices: the same calls in
 * the same order, written for this test (a server thread on side 1, the
 * client in the main thread), with each step's outcome checked instead of
 * printed.
 *
 *   A  several streams through quic_sendmsg()/quic_recvmsg()
 *   B  stream peeloff: a descriptor of its own for one stream
 *   C  client and server handshakes built on quic_handshake() with a ticket
 *   D  resumption with a ticket, a token and remembered transport
 *      parameters, and 0-RTT data written before the handshake
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "ktap.h"
#include "util.h"

#define DRAFT_SOCKOPT_STREAM_PEELOFF	15

struct appx_server {
	int lfd;
	char why[160];
	bool ok;
	bool early[2];		/* D: the server's TLS session took early data */
	uint8_t key[256];
	socklen_t keylen;
};

static void *appx_set_why(struct appx_server *s, const char *what)
{
	snprintf(s->why, sizeof(s->why), "%s: %s", what, errno_name(errno));
	return NULL;
}

/* ------------------------------------------------------------ Appendix A */

static void *a_server(void *p)
{
	struct appx_server *s = p;
	char text[2][64] = { "", "" };
	size_t len[2] = { 0, 0 };
	bool fin[2] = { false, false };
	char buf[64];
	uint32_t flags;
	int64_t sid;
	ssize_t n;
	int fd, i;

	fd = keep(accept(s->lfd, NULL, NULL));
	if (fd < 0)
		return appx_set_why(s, "accept");
	sock_timeouts(fd, API_TIMEO_S);
	if (quic_server_handshake(fd, cert_path("server.key"), cert_path("server.pem"), API_ALPN))
		return appx_set_why(s, "server handshake");
	for (i = 0; i < 16 && !(fin[0] && fin[1]); i++) {
		flags = 0;
		n = quic_recvmsg(fd, buf, sizeof(buf), &sid, &flags);
		if (n < 0)
			return appx_set_why(s, "server recv");
		if (sid != 0 && sid != 2)
			return appx_set_why(s, "data of another stream");
		sid >>= 1;
		if (len[sid] + n >= sizeof(text[0]))
			return appx_set_why(s, "too much data");
		memcpy(text[sid] + len[sid], buf, n);
		len[sid] += n;
		fin[sid] = flags & MSG_QUIC_STREAM_FIN;
	}
	if (strcmp(text[0], "hello quic server stream 0!") ||
	    strcmp(text[1], "hello quic server stream 2!")) {
		snprintf(s->why, sizeof(s->why), "server read \"%s\" and \"%s\"", text[0], text[1]);
		return NULL;
	}
	strcpy(buf, "hello quic client stream 1!");
	if (quic_sendmsg(fd, buf, strlen(buf), 1, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) !=
	    (ssize_t)strlen(buf))
		return appx_set_why(s, "server send");
	s->ok = true;
	return NULL;
}

static bool a_send(int fd, const char *text, int64_t sid, uint32_t flags)
{
	return quic_sendmsg(fd, text, strlen(text), sid, flags) == (ssize_t)strlen(text);
}

int c_appendix_a(void)
{
	struct appx_server s = {};
	struct sockaddr_storage ss;
	int port = new_port();
	socklen_t len = side_addr(1, AF_INET, port, &ss);
	uint32_t flags = 0;
	int64_t sid = -1;
	char msg[64] = "";
	pthread_t th;
	int fd, ret;

	s.lfd = socket_in(1, AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	SETUP(s.lfd >= 0 && !bind(s.lfd, (struct sockaddr *)&ss, len) && !listen(s.lfd, 1),
	      "server socket");
	SETUP(!pthread_create(&th, NULL, a_server, &s), "thread");
	fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));
	sock_timeouts(fd, API_TIMEO_S);
	/* The example passes no host name: the chain alone is checked. */
	ret = fd < 0 || connect(fd, (struct sockaddr *)&ss, len) ? -1 :
	      quic_client_handshake(fd, NULL, NULL, API_ALPN);
	if (!ret)
		ret = !(a_send(fd, "hello ", 0, MSG_QUIC_STREAM_NEW) &&
			a_send(fd, "hello quic ", 2, MSG_QUIC_STREAM_NEW) &&
			a_send(fd, "quic ", 0, 0) &&
			a_send(fd, "server stream 2!", 2, MSG_QUIC_STREAM_FIN) &&
			a_send(fd, "server stream 0!", 0, MSG_QUIC_STREAM_FIN));
	if (!ret)
		ret = quic_recvmsg(fd, msg, sizeof(msg) - 1, &sid, &flags) < 0;
	if (ret)
		shutdown(s.lfd, SHUT_RDWR);
	pthread_join(th, NULL);
	CHECK(!ret, "client side");
	CHECK(s.ok, "%s", s.why);
	CHECK(sid == 1 && !strcmp(msg, "hello quic client stream 1!"),
	      "client read \"%s\" on stream %lld", msg, (long long)sid);
	return 1;
}

/* The example's client call as it stands: certificate mode, no host name. */
int c_appendix_a_no_host(void)
{
	struct conn_opts o = { .cert = true, .no_host = true };
	struct conn c;

	CHECK(!conn_open(&o, &c), "client handshake: %s", errno_name(-c.cli_ret));
	return 1;
}

/* ------------------------------------------------------------ Appendix B */

static int peel(int fd, int64_t sid)
{
	struct {
		int64_t stream_id;
		uint32_t flags;
		int sd;
	} p = { .stream_id = sid, .sd = -1 };
	socklen_t len = sizeof(p);
	int ret = getsockopt(fd, SOL_QUIC, DRAFT_SOCKOPT_STREAM_PEELOFF, &p, &len);

	return ret < 0 ? -1 : keep(ret ?: p.sd);
}

int c_appendix_b(void)
{
	struct conn_opts o = { .cert = true };
	struct quic_stream_info si = { .stream_id = -1, .stream_flags = MSG_QUIC_STREAM_UNI };
	socklen_t len = sizeof(si);
	uint8_t ev[64];
	struct quic_stream_update u;
	char msg[50] = "";
	struct conn c;
	int cfd, sfd, i;

	if (conn_open(&o, &c))
		return -1;
	CHECK(!event_on(c.srv, QUIC_EVENT_STREAM_UPDATE, 1), "server enables STREAM_UPDATE");
	CHECK(!getsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_STREAM_OPEN, &si, &len),
	      "client opens a uni stream");
	cfd = peel(c.cli, si.stream_id);
	CHECK(cfd >= 0, "client peels stream %lld off", (long long)si.stream_id);
	CHECK(send(cfd, "hello quic server!", 18, 0) == 18, "send on the peeled socket");
	close(cfd);
	for (i = 0; i < 16; i++) {
		CHECK(wait_event(c.srv, QUIC_EVENT_STREAM_UPDATE, ev, sizeof(ev), 3000) >=
		      (ssize_t)sizeof(u), "server: no stream update");
		memcpy(&u, ev, sizeof(u));
		if (u.state == QUIC_STREAM_RECV_STATE_RECV)
			break;
	}
	CHECK(i < 16 && u.id == si.stream_id, "no RECV_STATE_RECV for the stream");
	sfd = peel(c.srv, u.id);
	CHECK(sfd >= 0, "server peels the stream off");
	CHECK(recv(sfd, msg, sizeof(msg) - 1, 0) == 18 && !strcmp(msg, "hello quic server!"),
	      "server read \"%s\"", msg);
	return 1;
}

/* ------------------------------------------------------- Appendices C, D */

/* The client's handshake of Appendix C: own GnuTLS session, optional ticket in and out. */
static int own_client_handshake(int fd, const char *alpns, const uint8_t *tin, size_t tin_len,
				uint8_t *tout, size_t *tout_len, bool *resumed)
{
	gnutls_certificate_credentials_t cred;
	gnutls_session_t session;
	char alpn[64];
	size_t alen;
	long long end;
	int ret;

	ret = gnutls_certificate_allocate_credentials(&cred);
	if (ret)
		return -1;
	ret = gnutls_certificate_set_x509_trust_file(cred, cert_path("ca.pem"),
						     GNUTLS_X509_FMT_PEM) < 0 ? -1 : 0;
	if (ret)
		goto free_cred;
	ret = gnutls_init(&session, GNUTLS_CLIENT | GNUTLS_ENABLE_EARLY_DATA |
			  GNUTLS_NO_END_OF_EARLY_DATA);
	if (ret)
		goto free_cred;
	ret = gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, cred) ||
	      gnutls_priority_set_direct(session, QUIC_PRIORITY, NULL) ||
	      gnutls_server_name_set(session, GNUTLS_NAME_DNS, API_HOSTNAME,
				     strlen(API_HOSTNAME));
	if (ret)
		goto free_session;
	gnutls_session_set_verify_cert(session, API_HOSTNAME, 0);
	if (alpns && quic_session_set_alpn(session, alpns, strlen(alpns))) {
		ret = -1;
		goto free_session;
	}
	gnutls_transport_set_int(session, fd);
	if (tin && quic_session_set_data(session, tin, tin_len)) {
		ret = -1;
		goto free_session;
	}
	ret = quic_handshake(session);
	if (ret)
		goto free_session;
	if (resumed)
		*resumed = gnutls_session_is_resumed(session);
	if (alpns) {
		alen = sizeof(alpn);
		ret = quic_session_get_alpn(session, alpn, &alen);
		if (ret || alen != strlen(API_ALPN) || memcmp(alpn, API_ALPN, alen)) {
			ktap_diag("client: ALPN not agreed");
			ret = -1;
			goto free_session;
		}
	}
	if (tout) {
		/* The ticket comes after the handshake: wait for it, bounded. */
		size_t cap = *tout_len;

		for (end = mono_ms() + 3000; mono_ms() < end; poll(NULL, 0, 10)) {
			*tout_len = cap;
			ret = quic_session_get_data(session, tout, tout_len);
			if (ret || *tout_len)
				break;
		}
		if (!ret && !*tout_len)
			ret = -ETIMEDOUT;
	}
free_session:
	gnutls_deinit(session);
free_cred:
	gnutls_certificate_free_credentials(cred);
	return ret;
}

/* The server's handshake of Appendix C, with the ticket key of the kernel. */
static int own_server_handshake(int fd, const char *alpns, uint8_t *key, unsigned int keylen,
				bool *early)
{
	gnutls_certificate_credentials_t cred;
	gnutls_datum_t skey = { key, keylen };
	gnutls_session_t session;
	char alpn[64];
	size_t alen;
	int ret;

	ret = gnutls_certificate_allocate_credentials(&cred);
	if (ret)
		return -1;
	ret = gnutls_certificate_set_x509_key_file(cred, cert_path("server.pem"),
						   cert_path("server.key"), GNUTLS_X509_FMT_PEM);
	if (ret)
		goto free_cred;
	ret = gnutls_init(&session, GNUTLS_SERVER | GNUTLS_NO_AUTO_SEND_TICKET |
			  GNUTLS_ENABLE_EARLY_DATA | GNUTLS_NO_END_OF_EARLY_DATA);
	if (ret)
		goto free_cred;
	ret = gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, cred) ||
	      gnutls_session_ticket_enable_server(session, &skey) ||
	      gnutls_priority_set_direct(session, QUIC_PRIORITY, NULL);
	if (ret)
		goto free_session;
	if (alpns && quic_session_set_alpn(session, alpns, strlen(alpns))) {
		ret = -1;
		goto free_session;
	}
	gnutls_transport_set_int(session, fd);
	ret = quic_handshake(session);
	if (ret)
		goto free_session;
	if (early)
		*early = gnutls_session_get_flags(session) & GNUTLS_SFLAGS_EARLY_DATA;
	if (alpns) {
		alen = sizeof(alpn);
		ret = quic_session_get_alpn(session, alpn, &alen);
	}
free_session:
	gnutls_deinit(session);
free_cred:
	gnutls_certificate_free_credentials(cred);
	return ret;
}

/* C: two connections through the own handshakes, the second resuming. */
static void *c_server(void *p)
{
	struct appx_server *s = p;
	int i, fd;

	for (i = 0; i < 2; i++) {
		fd = keep(accept(s->lfd, NULL, NULL));
		if (fd < 0)
			return appx_set_why(s, "accept");
		sock_timeouts(fd, API_TIMEO_S);
		s->keylen = sizeof(s->key);
		if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, s->key, &s->keylen))
			return appx_set_why(s, "ticket key");
		if (own_server_handshake(fd, API_ALPN, s->key, s->keylen, NULL))
			return appx_set_why(s, "server handshake");
	}
	s->ok = true;
	return NULL;
}

static uint8_t ticket[4096];

int c_appendix_c(void)
{
	struct appx_server s = {};
	struct sockaddr_storage ss;
	int port = new_port();
	socklen_t len = side_addr(1, AF_INET, port, &ss);
	size_t tlen = sizeof(ticket);
	bool resumed = false;
	pthread_t th;
	int fd, ret;

	s.lfd = socket_in(1, AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	SETUP(s.lfd >= 0 && !bind(s.lfd, (struct sockaddr *)&ss, len) && !listen(s.lfd, 1),
	      "server socket");
	SETUP(!pthread_create(&th, NULL, c_server, &s), "thread");
	fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));
	ret = fd < 0 || connect(fd, (struct sockaddr *)&ss, len) ? -1 :
	      own_client_handshake(fd, API_ALPN, NULL, 0, ticket, &tlen, NULL);
	if (!ret) {
		fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));
		ret = fd < 0 || connect(fd, (struct sockaddr *)&ss, len) ? -1 :
		      own_client_handshake(fd, API_ALPN, ticket, tlen, NULL, NULL, &resumed);
	}
	if (ret)
		shutdown(s.lfd, SHUT_RDWR);
	pthread_join(th, NULL);
	CHECK(!ret, "client handshakes: %d", ret);
	CHECK(s.ok, "%s", s.why);
	CHECK(resumed, "the second handshake did not resume the session");
	return 1;
}

/* D: the server of the example, two connections. */
static void *d_server(void *p)
{
	static const char *const want[2] = { "hello quic server!", "hello quic server, I'm back!" };
	static const char *const reply[2] = { "hello quic client!",
					      "hello quic client! welcome back!" };
	struct appx_server *s = p;
	char msg[64];
	uint32_t flags;
	int64_t sid;
	int i, fd;

	for (i = 0; i < 2; i++) {
		fd = keep(accept(s->lfd, NULL, NULL));
		if (fd < 0)
			return appx_set_why(s, "accept");
		sock_timeouts(fd, API_TIMEO_S);
		if (!i) {
			s->keylen = sizeof(s->key);
			if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, s->key,
				       &s->keylen))
				return appx_set_why(s, "ticket key");
		}
		if (own_server_handshake(fd, API_ALPN, s->key, s->keylen, &s->early[i]))
			return appx_set_why(s, "server handshake");
		memset(msg, 0, sizeof(msg));
		flags = 0;
		if (quic_recvmsg(fd, msg, sizeof(msg) - 1, &sid, &flags) < 0)
			return appx_set_why(s, "server recv");
		if (sid != 2 || strcmp(msg, want[i])) {
			snprintf(s->why, sizeof(s->why), "server read \"%s\" on stream %lld", msg,
				 (long long)sid);
			return NULL;
		}
		if (!a_send(fd, reply[i], 1, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN))
			return appx_set_why(s, "server send");
		/* Until the client is done, so that the reply is not cut. */
		while (quic_recvmsg(fd, msg, sizeof(msg), &sid, &flags) > 0)
			;
	}
	s->ok = true;
	return NULL;
}

static bool d_reply(int fd, const char *want)
{
	char msg[64] = "";
	uint32_t flags = 0;
	int64_t sid = -1;

	if (quic_recvmsg(fd, msg, sizeof(msg) - 1, &sid, &flags) < 0)
		return fail("client recv");
	if (sid != 1 || strcmp(msg, want))
		return fail("client read \"%s\" on stream %lld", msg, (long long)sid);
	return true;
}

static int d_client(const struct sockaddr_storage *ss, socklen_t len, bool *resumed)
{
	struct quic_transport_param param = { .remote = 1 };
	socklen_t plen = sizeof(param), tklen;
	static uint8_t token[512];
	struct sockaddr_storage la;
	socklen_t llen = sizeof(la);
	size_t tlen = sizeof(ticket);
	int fd;

	fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));
	if (fd < 0 || connect(fd, (struct sockaddr *)ss, len))
		return fail("first connect");
	sock_timeouts(fd, API_TIMEO_S);
	if (own_client_handshake(fd, API_ALPN, NULL, 0, ticket, &tlen, NULL))
		return fail("first handshake");
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &param, &plen))
		return fail("remote transport parameters");
	tklen = sizeof(token);
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TOKEN, token, &tklen))
		return fail("token");
	if (getsockname(fd, (struct sockaddr *)&la, &llen))
		return fail("getsockname");
	if (!a_send(fd, "hello quic server!", 2, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN))
		return fail("first send");
	if (!d_reply(fd, "hello quic client!"))
		return false;
	close(dup2(fd, fd));

	fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));
	if (fd < 0 || bind(fd, (struct sockaddr *)&la, llen))
		return fail("bind to the previous address");
	if (connect(fd, (struct sockaddr *)ss, len))
		return fail("second connect");
	sock_timeouts(fd, API_TIMEO_S);
	if (setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TOKEN, token, tklen))
		return fail("set the token");
	if (setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &param, plen))
		return fail("set the remembered transport parameters after connect()");
	if (!a_send(fd, "hello quic server, I'm back!", 2,
		    MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN))
		return fail("early data before the handshake");
	if (own_client_handshake(fd, API_ALPN, ticket, tlen, NULL, NULL, resumed))
		return fail("second handshake");
	return d_reply(fd, "hello quic client! welcome back!");
}

int c_appendix_d(void)
{
	struct quic_config cf = { .validate_peer_address = 1 };
	struct appx_server s = {};
	struct sockaddr_storage ss;
	int port = new_port();
	socklen_t len = side_addr(1, AF_INET, port, &ss);
	bool resumed = false, ok;
	pthread_t th;

	s.lfd = socket_in(1, AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	SETUP(s.lfd >= 0 && !bind(s.lfd, (struct sockaddr *)&ss, len), "server socket");
	SETUP(!setsockopt(s.lfd, SOL_QUIC, QUIC_SOCKOPT_ALPN, API_ALPN, strlen(API_ALPN)),
	      "listener ALPN");
	SETUP(!listen(s.lfd, 1), "listen");
	CHECK(!setsockopt(s.lfd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cf, sizeof(cf)),
	      "validate_peer_address on the listener after listen()");
	SETUP(!pthread_create(&th, NULL, d_server, &s), "thread");
	ok = d_client(&ss, len, &resumed);
	if (!ok)
		shutdown(s.lfd, SHUT_RDWR);
	pthread_join(th, NULL);
	CHECK(ok, "client side");
	CHECK(s.ok, "%s", s.why);
	CHECK(resumed, "the second connection did not resume");
	CHECK(s.early[1], "the server did not take the early data as 0-RTT");
	return 1;
}
