// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libquic (tools/lib/quic) against the kernel: real TLS 1.3 handshakes by
 * GnuTLS between a client and a server in two network namespaces joined
 * by veth (netns.h), the server on side 1, the client on side 0.
 *
 * Every case runs a server in a child process: socket(), bind(), listen(),
 * accept() and quic_server_handshake(); the client, in the parent, makes
 * socket(), sets QUIC_SOCKOPT_CONFIG, connect()s and calls
 * quic_client_handshake() with the name in the server certificate's SAN
 * and the test CA (quic_set_ca_file()). The child reports back through a
 * pipe; only the parent prints results.
 *
 * - Completed handshakes cover X.509 with each of the four TLS 1.3 AEADs
 *   in QUIC v1 and v2, and PSK, over IPv4 and IPv6. The cipher is chosen
 *   with payload_cipher_type of the client's QUIC_SOCKOPT_CONFIG: libquic
 *   then offers that suite alone in its ClientHello. Both ends must have
 *   handed the kernel 1-RTT keys of that suite (hswatch.h: the type libquic
 *   passes with QUIC_SOCKOPT_CRYPTO_SECRET, from gnutls_cipher_get()), the
 *   AEAD the kernel then protects every packet with. The version is the
 *   client's config too; both sockets must report it afterwards, and, since the
 *   server accepts "h3,quic-selftest", QUIC_SOCKOPT_ALPN must name the one
 *   agreed (libquic records it there). Afterwards 64 KiB
 *   go each way on stream 0 and every byte is compared.
 * - Refusals: a wrong host name and an untrusted CA (the client fails
 *   with -EKEYREJECTED and closes with CRYPTO_ERROR 0x12a, bad_certificate,
 *   which the server reads back), no common application protocol (both
 *   fail with -ENOPROTOOPT; the client reads the server's 0x178,
 *   no_application_protocol) and an unknown PSK identity (the server
 *   fails with -ENOKEY, the client sees the connection closed). In none of
 *   them may a 1-RTT key reach either kernel.
 *
 * The time each handshake takes is printed as a diagnostic line.
 *
 * Usage: handshake [certificate directory, default /tests/certs]
 */

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/tls.h>
#include <netinet/quic.h>

#include "hswatch.h"
#include "ktap.h"
#include "netns.h"
#include "util.h"

#define PORT_BASE	4500
#define DATA_LEN	(64 * 1024)
#define CHUNK		(16 * 1024)
#define TIMEO_S		10
#define SERVER_ALARM_S	90

#define HOSTNAME	"server.test"	/* the SAN of server.pem */
#define ALPN		"quic-selftest"
#define CLOSE_BAD_CERT	(QUIC_TRANSPORT_ERROR_CRYPTO + 42)	/* bad_certificate */
#define CLOSE_NO_ALPN	(QUIC_TRANSPORT_ERROR_CRYPTO + 120)	/* no_application_protocol */

enum hs_kind {
	HS_OK,			/* both complete, then data both ways */
	HS_CLIENT_REJECTS,	/* the client refuses the server's certificate */
	HS_NO_ALPN,		/* the server finds no common protocol */
	HS_UNKNOWN_PSK,		/* the server does not know the client's key */
};

struct hs_case {
	const char *name;
	enum hs_kind kind;
	int family;
	uint32_t version;
	uint32_t cipher;	/* TLS_CIPHER_*, set on the client */
	bool psk;
	const char *host;	/* the name the client expects */
	const char *ca;		/* the CA file the client trusts */
	const char *client_psk;	/* the client's PSK file */
	const char *client_alpn;
	const char *server_alpn;
};

/*
 * TLS 1.3 binds an external PSK to SHA-256 in GnuTLS, so the PSK cases use
 * suites with that hash; the X.509 cases cover all four AEADs in both
 * versions, alternating the address family.
 */
static const struct hs_case cases[] = {
	{ .name = "X.509, AES_GCM_128, QUIC v1, IPv4", .family = AF_INET,
	  .version = QUIC_VERSION_V1, .cipher = TLS_CIPHER_AES_GCM_128 },
	{ .name = "X.509, AES_GCM_128, QUIC v2, IPv6", .family = AF_INET6,
	  .version = QUIC_VERSION_V2, .cipher = TLS_CIPHER_AES_GCM_128 },
	{ .name = "X.509, AES_GCM_256, QUIC v1, IPv6", .family = AF_INET6,
	  .version = QUIC_VERSION_V1, .cipher = TLS_CIPHER_AES_GCM_256 },
	{ .name = "X.509, AES_GCM_256, QUIC v2, IPv4", .family = AF_INET,
	  .version = QUIC_VERSION_V2, .cipher = TLS_CIPHER_AES_GCM_256 },
	{ .name = "X.509, AES_CCM_128, QUIC v1, IPv4", .family = AF_INET,
	  .version = QUIC_VERSION_V1, .cipher = TLS_CIPHER_AES_CCM_128 },
	{ .name = "X.509, AES_CCM_128, QUIC v2, IPv6", .family = AF_INET6,
	  .version = QUIC_VERSION_V2, .cipher = TLS_CIPHER_AES_CCM_128 },
	{ .name = "X.509, CHACHA20_POLY1305, QUIC v1, IPv6", .family = AF_INET6,
	  .version = QUIC_VERSION_V1, .cipher = TLS_CIPHER_CHACHA20_POLY1305 },
	{ .name = "X.509, CHACHA20_POLY1305, QUIC v2, IPv4", .family = AF_INET,
	  .version = QUIC_VERSION_V2, .cipher = TLS_CIPHER_CHACHA20_POLY1305 },
	{ .name = "PSK, AES_GCM_128, QUIC v2, IPv6", .family = AF_INET6,
	  .version = QUIC_VERSION_V2, .cipher = TLS_CIPHER_AES_GCM_128, .psk = true },
	{ .name = "PSK, CHACHA20_POLY1305, QUIC v1, IPv4", .family = AF_INET,
	  .version = QUIC_VERSION_V1, .cipher = TLS_CIPHER_CHACHA20_POLY1305, .psk = true },
	{ .name = "wrong host name", .kind = HS_CLIENT_REJECTS, .family = AF_INET,
	  .version = QUIC_VERSION_V1, .cipher = TLS_CIPHER_AES_GCM_128, .host = "other.test" },
	{ .name = "untrusted CA", .kind = HS_CLIENT_REJECTS, .family = AF_INET6,
	  .version = QUIC_VERSION_V1, .cipher = TLS_CIPHER_AES_GCM_128, .ca = "other-ca.pem" },
	{ .name = "ALPN mismatch", .kind = HS_NO_ALPN, .family = AF_INET,
	  .version = QUIC_VERSION_V2, .cipher = TLS_CIPHER_AES_GCM_128,
	  .client_alpn = "hq-interop", .server_alpn = "h3" },
	{ .name = "unknown PSK identity", .kind = HS_UNKNOWN_PSK, .family = AF_INET6,
	  .version = QUIC_VERSION_V1, .cipher = TLS_CIPHER_AES_GCM_128, .psk = true,
	  .client_psk = "psk-mallory.txt" },
};

/* Three results per case. */
#define RESULTS_PER_CASE	3

/* What the server child tells the parent when it is done. */
struct server_report {
	int ret;		/* quic_server_handshake() */
	uint32_t version;	/* QUIC_SOCKOPT_CONFIG of the accepted socket */
	uint32_t close_code;	/* the CONNECTION_CLOSE that ended a failed handshake */
	bool data_ok;		/* 64 KiB read, 64 KiB sent, the client's close seen */
	double secs;		/* time spent in quic_server_handshake() */
	struct hs_keys keys;	/* what quic_server_handshake() gave the kernel */
	char alpn[64];		/* QUIC_SOCKOPT_ALPN of the accepted socket afterwards */
	char why[128];		/* the first thing that went wrong */
};

static const char *side = "client";


/* libquic's messages become diagnostics, tagged with the side. */
static void lib_log(int level, const char *msg)
{
	ktap_diag("%s: libquic: %s", side, msg);
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

static uint8_t pattern(size_t i, bool from_client)
{
	return (uint8_t)(i * 13 + (i >> 9) * 7 + (from_client ? 0x21 : 0x8b));
}


static socklen_t server_addr(const struct netns_pair *p, const struct hs_case *c, int port,
			     struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (c->family == AF_INET) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons(port);
		a4->sin_addr = p->addr4[1];
		return sizeof(*a4);
	}
	a6->sin6_family = AF_INET6;
	a6->sin6_port = htons(port);
	a6->sin6_addr = p->addr6[1];
	return sizeof(*a6);
}

/* The code of the CONNECTION_CLOSE that ended the connection, or 0. */
static uint32_t close_code(int fd)
{
	union {
		struct quic_connection_close cc;
		uint8_t bytes[sizeof(struct quic_connection_close) + 81];
	} b;
	socklen_t len = sizeof(b);

	memset(&b, 0, sizeof(b));
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &b, &len))
		return 0;
	return b.cc.errcode;
}

/* 64 KiB on stream @sid in 16 KiB writes, FIN with the last one. */
static int send_data(int fd, int64_t sid, bool from_client, bool open, char *why,
		     size_t whylen)
{
	static uint8_t buf[DATA_LEN];
	size_t off, i;
	uint32_t flags;
	ssize_t n;

	for (i = 0; i < DATA_LEN; i++)
		buf[i] = pattern(i, from_client);
	for (off = 0; off < DATA_LEN; off += CHUNK) {
		flags = (open && !off ? MSG_STREAM_NEW : 0) |
			(off + CHUNK == DATA_LEN ? MSG_STREAM_FIN : 0);
		n = quic_sendmsg(fd, buf + off, CHUNK, sid, flags);
		if (n != CHUNK) {
			snprintf(why, whylen, "stream send at %zu: %zd, %s", off, n,
				 errno_name(errno));
			return -1;
		}
	}
	return 0;
}

/* Read stream @sid up to its FIN; it must hold the peer's 64 KiB pattern. */
static int recv_data(int fd, int64_t sid, bool from_client, char *why, size_t whylen)
{
	static uint8_t buf[DATA_LEN + 1];
	size_t got = 0, i;
	uint32_t flags;
	int64_t id;
	ssize_t n;

	for (;;) {
		flags = 0;
		n = quic_recvmsg(fd, buf + got, sizeof(buf) - got, &id, &flags);
		if (n < 0) {
			snprintf(why, whylen, "stream receive after %zu bytes: %s", got,
				 errno_name(errno));
			return -1;
		}
		if (!n && !(flags & MSG_STREAM_FIN)) {
			snprintf(why, whylen, "end of file after %zu bytes", got);
			return -1;
		}
		if (id != sid) {
			snprintf(why, whylen, "data on stream %lld, expected %lld",
				 (long long)id, (long long)sid);
			return -1;
		}
		got += n;
		if (flags & MSG_STREAM_FIN)
			break;
		if (got > DATA_LEN) {
			snprintf(why, whylen, "more than %d bytes", DATA_LEN);
			return -1;
		}
	}
	if (got != DATA_LEN) {
		snprintf(why, whylen, "FIN after %zu bytes, expected %d", got, DATA_LEN);
		return -1;
	}
	for (i = 0; i < DATA_LEN; i++) {
		if (buf[i] != pattern(i, from_client)) {
			snprintf(why, whylen, "byte %zu is 0x%02x, expected 0x%02x", i, buf[i],
				 pattern(i, from_client));
			return -1;
		}
	}
	return 0;
}

/* Note the first thing that went wrong on the server's side. */
static int __printf(2, 3) fail(struct server_report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* The server's part of one case, in the child, on side 1. */
static int server_side(const struct netns_pair *p, const struct hs_case *c, int port,
		       int ready, struct server_report *r)
{
	/* Accepts two protocols: the socket must say which one was agreed. */
	const char *alpn = c->server_alpn ? c->server_alpn : "h3," ALPN;
	struct quic_config cfg;
	struct sockaddr_storage ss;
	socklen_t len = server_addr(p, c, port, &ss);
	struct timespec t0;
	uint8_t byte;
	int64_t sid;
	uint32_t flags = 0;
	int lfd, fd;

	r->ret = -EINPROGRESS;
	if (netns_enter(p, 1))
		return fail(r, "entering side 1: %s", errno_name(errno));
	lfd = socket(c->family, SOCK_STREAM, IPPROTO_QUIC);
	if (lfd < 0)
		return fail(r, "socket: %s", errno_name(errno));
	sock_timeouts(lfd, TIMEO_S);
	if (bind(lfd, (struct sockaddr *)&ss, len))
		return fail(r, "bind: %s", errno_name(errno));
	if (listen(lfd, 1))
		return fail(r, "listen: %s", errno_name(errno));
	if (write(ready, "r", 1) != 1)
		return fail(r, "ready: %s", errno_name(errno));
	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		return fail(r, "accept: %s", errno_name(errno));
	sock_timeouts(fd, TIMEO_S);

	hs_watch(fd);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (c->psk)
		r->ret = quic_server_handshake(fd, cert_path("psk-alice.txt"), NULL, alpn);
	else
		r->ret = quic_server_handshake(fd, cert_path("server.key"),
					       cert_path("server.pem"), alpn);
	r->secs = since(&t0);
	r->keys = hs_watch_end(fd);
	len = sizeof(cfg);
	if (!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len))
		r->version = cfg.version;
	len = sizeof(r->alpn) - 1;
	if (!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, r->alpn, &len))
		r->alpn[len] = '\0';
	if (r->ret) {
		r->close_code = close_code(fd);
		close(fd);
		close(lfd);
		return 0;
	}

	/* The client's 64 KiB first, then ours on the same stream. */
	if (recv_data(fd, 0, true, r->why, sizeof(r->why)) ||
	    send_data(fd, 0, false, false, r->why, sizeof(r->why)))
		return -1;
	/* The client closes once it has read everything: end of file. */
	if (quic_recvmsg(fd, &byte, 1, &sid, &flags) != 0)
		return fail(r, "no end of file after the client's close: %s", errno_name(errno));
	r->data_ok = true;
	close(fd);
	close(lfd);
	return 0;
}

/* The client's QUIC version and the one suite libquic will offer. */
static int set_config(int fd, const struct hs_case *c)
{
	struct quic_config cfg;
	socklen_t len = sizeof(cfg);

	memset(&cfg, 0, sizeof(cfg));
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len))
		return -1;
	cfg.version = c->version;
	cfg.payload_cipher_type = c->cipher;
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, sizeof(cfg));
}

/* The client's part: socket, config, connect, handshake. Returns the fd. */
static int client_handshake(const struct netns_pair *p, const struct hs_case *c, int port,
			    int *ret, double *secs)
{
	struct sockaddr_storage ss;
	socklen_t alen = server_addr(p, c, port, &ss);
	const char *alpn = c->client_alpn ? c->client_alpn : ALPN;
	struct timespec t0;
	int fd;

	*secs = 0;
	fd = socket(c->family, SOCK_STREAM, IPPROTO_QUIC);
	if (fd < 0) {
		*ret = -errno;
		ktap_diag("%s: client socket: %s", c->name, errno_name(errno));
		return -1;
	}
	sock_timeouts(fd, TIMEO_S);
	hs_watch(fd);
	if (set_config(fd, c)) {
		*ret = -errno;
		ktap_diag("%s: QUIC_SOCKOPT_CONFIG: %s", c->name, errno_name(errno));
		return fd;
	}
	quic_set_ca_file(cert_path(c->ca ? c->ca : "ca.pem"));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (connect(fd, (struct sockaddr *)&ss, alen)) {
		*ret = -errno;
		ktap_diag("%s: connect: %s", c->name, errno_name(errno));
		return fd;
	}
	if (c->psk)
		*ret = quic_client_handshake(fd, cert_path(c->client_psk ?: "psk-alice.txt"),
					     NULL, alpn);
	else
		*ret = quic_client_handshake(fd, NULL, c->host ?: HOSTNAME, alpn);
	*secs = since(&t0);
	return fd;
}

static const char *version_name(uint32_t v)
{
	return v == QUIC_VERSION_V1 ? "v1" : v == QUIC_VERSION_V2 ? "v2" : "unknown";
}

static bool keys_are(const struct hs_keys *k, uint32_t cipher)
{
	return k->app_tx == cipher && k->app_rx == cipher;
}

/* The results of a case whose handshake must complete. */
static void check_ok(const struct hs_case *c, int cret, const struct server_report *r,
		     const struct hs_keys *ck, uint32_t cversion, bool client_data,
		     const char *client_why)
{
	bool ok = !cret && !r->ret && r->version == c->version && !strcmp(r->alpn, ALPN);

	ktap_result(ok, "%s: both handshakes complete, the server's connection runs QUIC %s "
		    "and reports ALPN " ALPN, c->name, version_name(c->version));
	if (!ok)
		ktap_diag("%s: client %s, server %s, server version 0x%x, ALPN \"%s\"", c->name,
			  errno_name(-cret), errno_name(-r->ret), r->version, r->alpn);
	ok = keys_are(ck, c->cipher) && keys_are(&r->keys, c->cipher) && cversion == c->version;
	ktap_result(ok, "%s: both kernels got %s 1-RTT keys, the client's connection runs QUIC %s",
		    c->name, cipher_name(c->cipher), version_name(c->version));
	if (!ok)
		ktap_diag("%s: client keys %s/%s (send/receive), server %s/%s, client version 0x%x",
			  c->name, cipher_name(ck->app_tx), cipher_name(ck->app_rx),
			  cipher_name(r->keys.app_tx), cipher_name(r->keys.app_rx), cversion);
	ktap_result(client_data && r->data_ok, "%s: 64 KiB each way on stream 0, byte-exact",
		    c->name);
	if (*client_why)
		ktap_diag("%s: client: %s", c->name, client_why);
	if (r->why[0])
		ktap_diag("%s: server: %s", c->name, r->why);
}

/* The results of a refused handshake. */
static void check_refused(const struct hs_case *c, int cret, uint32_t ccode,
			  const struct server_report *r, const struct hs_keys *ck)
{
	bool none = keys_are(ck, 0) && keys_are(&r->keys, 0);

	switch (c->kind) {
	case HS_CLIENT_REJECTS:
		ktap_result(cret == -EKEYREJECTED && r->ret == -ECONNRESET,
			    "%s: the client refuses with -EKEYREJECTED, the server gets -ECONNRESET",
			    c->name);
		ktap_result(r->close_code == CLOSE_BAD_CERT,
			    "%s: the server reads CONNECTION_CLOSE 0x%x (bad_certificate)",
			    c->name, CLOSE_BAD_CERT);
		break;
	case HS_NO_ALPN:
		ktap_result(cret == -ENOPROTOOPT && r->ret == -ENOPROTOOPT,
			    "%s: both sides fail with -ENOPROTOOPT", c->name);
		ktap_result(ccode == CLOSE_NO_ALPN,
			    "%s: the client reads CONNECTION_CLOSE 0x%x (no_application_protocol)",
			    c->name, CLOSE_NO_ALPN);
		break;
	default:
		ktap_result(r->ret == -ENOKEY && cret == -ECONNRESET,
			    "%s: the server refuses with -ENOKEY, the client gets -ECONNRESET",
			    c->name);
		ktap_result(ccode > QUIC_TRANSPORT_ERROR_CRYPTO &&
			    ccode <= QUIC_TRANSPORT_ERROR_CRYPTO + 0xff,
			    "%s: the client reads a CRYPTO_ERROR CONNECTION_CLOSE", c->name);
		break;
	}
	ktap_result(none, "%s: no 1-RTT key reached either kernel", c->name);
	if (!none)
		ktap_diag("%s: client keys %s/%s (send/receive), server %s/%s", c->name,
			  cipher_name(ck->app_tx), cipher_name(ck->app_rx),
			  cipher_name(r->keys.app_tx), cipher_name(r->keys.app_rx));
	ktap_diag("%s: client %s, close code 0x%x; server %s, close code 0x%x", c->name,
		  errno_name(-cret), ccode, errno_name(-r->ret), r->close_code);
	if (r->why[0])
		ktap_diag("%s: server: %s", c->name, r->why);
}

static void fail_case(const struct hs_case *c, const char *what)
{
	int i;

	for (i = 0; i < RESULTS_PER_CASE; i++)
		ktap_result(false, "%s: %s", c->name, what);
}

static void run_case(const struct netns_pair *p, const struct hs_case *c, int port)
{
	struct server_report r = { 0 };
	struct hs_keys ck = { .inq_at_app = -1 };
	int ready[2], report[2], status = -1, cret = 0, fd;
	uint32_t cversion = 0;
	char client_why[128] = "";
	bool client_data = false;
	uint32_t ccode = 0;
	double csecs;
	pid_t pid;
	char byte;

	if (pipe(ready) || pipe(report)) {
		fail_case(c, "pipe");
		return;
	}
	pid = fork();
	if (pid < 0) {
		fail_case(c, "fork");
		return;
	}
	if (!pid) {
		close(ready[0]);
		close(report[0]);
		side = "server";
		alarm(SERVER_ALARM_S);
		server_side(p, c, port, ready[1], &r);
		_exit(write(report[1], &r, sizeof(r)) == sizeof(r) ? 0 : 1);
	}
	close(ready[1]);
	close(report[1]);
	if (read(ready[0], &byte, 1) != 1) {
		/* The server gave up before listening: say why. */
		if (read(report[0], &r, sizeof(r)) == sizeof(r))
			ktap_diag("%s: server: %s", c->name, r.why);
		waitpid(pid, &status, 0);
		close(ready[0]);
		close(report[0]);
		fail_case(c, "the server did not start");
		return;
	}

	netns_enter(p, 0);
	fd = client_handshake(p, c, port, &cret, &csecs);
	if (fd >= 0) {
		ck = hs_watch_end(fd);
		cversion = quic_version_of(fd);
	}
	if (fd >= 0 && cret)
		ccode = close_code(fd);
	if (fd >= 0 && !cret && c->kind == HS_OK) {
		client_data = !send_data(fd, 0, true, true, client_why, sizeof(client_why)) &&
			      !recv_data(fd, 0, false, client_why, sizeof(client_why));
	}
	if (fd >= 0)
		close(fd);
	netns_enter(p, -1);

	if (read(report[0], &r, sizeof(r)) != sizeof(r)) {
		memset(&r, 0, sizeof(r));
		r.ret = -EPIPE;
		snprintf(r.why, sizeof(r.why), "no report from the server");
	}
	waitpid(pid, &status, 0);
	close(ready[0]);
	close(report[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		ktap_diag("%s: server exit status 0x%x", c->name, status);

	ktap_diag("%s: handshake time %.3f s (client), %.3f s (server)", c->name, csecs,
		  r.secs);
	if (c->kind == HS_OK)
		check_ok(c, cret, &r, &ck, cversion, client_data, client_why);
	else
		check_refused(c, cret, ccode, &r, &ck);
}

/* The clock matters: certificate validity is checked against it. */
static void show_clock(void)
{
	time_t now = time(NULL);
	char buf[64];
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm);
	ktap_diag("clock: %s", buf);
}

int main(int argc, char **argv)
{
	struct timespec t0;
	struct netns_pair p;
	unsigned int i;

	if (argc > 1)
		cert_dir = argv[1];
	ktap_plan(ARRAY_SIZE(cases) * RESULTS_PER_CASE);
	show_clock();
	if (access(cert_path("ca.pem"), R_OK)) {
		ktap_diag("no test credentials in %s: %s", cert_dir, errno_name(errno));
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			fail_case(&cases[i], "no test credentials");
		return ktap_finish();
	}
	if (netns_pair_create(&p)) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			fail_case(&cases[i], "no namespace pair");
		return ktap_finish();
	}
	signal(SIGPIPE, SIG_IGN);
	quic_set_log_func(lib_log);
	hs_watch_init();

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&p, &cases[i], PORT_BASE + i);
	ktap_diag("%zu handshakes in %.1f s", ARRAY_SIZE(cases), since(&t0));

	quic_set_ca_file(NULL);
	netns_pair_destroy(&p);
	return ktap_finish();
}
