// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quic-client: fetch https URLs over a kernel QUIC socket with
 * hq-interop or HTTP/3 and save each body under an output directory.
 *
 * URLs of the same authority share one connection; authorities are
 * fetched one after the other. Exit status: 0 when every file arrived
 * complete, 1 when any did not, 2 for bad arguments.
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/tls.h>
#include <sys/stat.h>
#include <netinet/quic.h>

#include "common.h"

struct client_opts {
	const char *alpn;
	const char *ca;
	const char *psk;
	const char *keylog;
	const char *output;
	bool insecure;
	bool key_update;
	bool migrate;
	bool resume;		/* first URL, then the rest resuming its session */
	bool early_data;	/* the resumed connection's requests in 0-RTT */
	uint32_t version;	/* 0: the kernel's default (v1) */
	uint32_t cipher;	/* TLS_CIPHER_*, 0: any */
	unsigned int timeout;	/* seconds, 0: none */
};

/* What a connection leaves for the next one to resume with (--resume). */
struct resume {
	uint8_t session[8192];		/* quic_session_get_data() */
	size_t len;			/* 0: nothing to resume */
	struct quic_transport_param tp;	/* the server's, remembered */
	bool have_tp;
};

/* The URLs of one authority, fetched over one connection. */
struct group {
	const struct qt_url *url;	/* the first; host and port for all */
	struct qt_request *reqs;
	size_t n;
	char why[128];			/* why the connection failed */
};

static const struct {
	const char *name;
	uint32_t type;
} ciphers[] = {
	{ "TLS_AES_128_GCM_SHA256", TLS_CIPHER_AES_GCM_128 },
	{ "TLS_AES_256_GCM_SHA384", TLS_CIPHER_AES_GCM_256 },
	{ "TLS_CHACHA20_POLY1305_SHA256", TLS_CIPHER_CHACHA20_POLY1305 },
	{ "TLS_AES_128_CCM_SHA256", TLS_CIPHER_AES_CCM_128 },
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: quic-client [OPTIONS] --output DIR URL...\n"
"Fetch https://HOST[:PORT]/path URLs over QUIC (kernel IPPROTO_QUIC sockets)\n"
"and save each response body as DIR/<last path segment>. URLs with the\n"
"same HOST:PORT share one connection; their requests run concurrently up\n"
"to the server's stream limit. HOST is a name, an IPv4 address or an IPv6\n"
"address in brackets.\n"
"\n"
"  --alpn PROTO        h3 (default) or hq-interop (HTTP/0.9)\n"
"  --ca FILE           trust only the CA certificates in this PEM file\n"
"  --insecure          do not verify the server's certificate\n"
"                      (default: verify against the system trust store,\n"
"                      with the URL's host as the expected name)\n"
"  --version 1|2       QUIC version 1 (RFC 9000, default) or 2 (RFC 9369)\n"
"  --cipher NAME       allow only this TLS 1.3 cipher suite:\n"
"                      TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384,\n"
"                      TLS_CHACHA20_POLY1305_SHA256, TLS_AES_128_CCM_SHA256\n"
"  --psk FILE          authenticate with the first pre-shared key of FILE\n"
"                      (lines \"identity:hexkey\") instead of certificates\n"
"  --keylog FILE       append the TLS secrets to FILE (NSS key log format)\n"
"  --key-update        update the 1-RTT keys once, as soon as the handshake\n"
"                      is confirmed (RFC 9001 Section 6)\n"
"  --migrate           move the connection to a new local port once the\n"
"                      server gave a spare connection ID (RFC 9000 Section 9)\n"
"  --resume            fetch the first URL, close, then fetch the others on\n"
"                      a new connection resuming the first one's TLS session\n"
"                      (RFC 9001 Section 4.5; X.509 only, one authority)\n"
"  --early-data        with --resume, send the second connection's requests\n"
"                      in 0-RTT packets (RFC 9001 Section 4.6)\n"
"  --timeout SECONDS   give up after this long in total (default: no limit;\n"
"                      a silent server still ends at the idle timeout)\n"
"  --output DIR        where the files go (created if missing)\n"
"  --verbose           more messages (library and stream debugging)\n"
"  --help              this text\n"
"\n"
"Exit status: 0 when every file arrived complete (hq-interop: its stream\n"
"ended with FIN; h3: status 200 and, when sent, content-length bytes),\n"
"1 otherwise (each failure is listed), 2 for bad arguments.\n");
}

static int parse_args(int argc, char **argv, struct client_opts *o)
{
	enum { O_ALPN = 256, O_CA, O_INSECURE, O_VERSION, O_CIPHER, O_PSK, O_KEYLOG,
	       O_KEY_UPDATE, O_MIGRATE, O_RESUME, O_EARLY_DATA, O_TIMEOUT, O_OUTPUT, O_VERBOSE,
	       O_HELP };
	static const struct option longopts[] = {
		{ "alpn", required_argument, NULL, O_ALPN },
		{ "ca", required_argument, NULL, O_CA },
		{ "insecure", no_argument, NULL, O_INSECURE },
		{ "version", required_argument, NULL, O_VERSION },
		{ "cipher", required_argument, NULL, O_CIPHER },
		{ "psk", required_argument, NULL, O_PSK },
		{ "keylog", required_argument, NULL, O_KEYLOG },
		{ "key-update", no_argument, NULL, O_KEY_UPDATE },
		{ "migrate", no_argument, NULL, O_MIGRATE },
		{ "resume", no_argument, NULL, O_RESUME },
		{ "early-data", no_argument, NULL, O_EARLY_DATA },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "output", required_argument, NULL, O_OUTPUT },
		{ "verbose", no_argument, NULL, O_VERBOSE },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long v;
	char *end;
	size_t i;
	int c;

	memset(o, 0, sizeof(*o));
	o->alpn = "h3";
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case O_ALPN:
			if (strcmp(optarg, "h3") && strcmp(optarg, "hq-interop"))
				return qt_bad_usage("--alpn: h3 or hq-interop, not '%s'", optarg);
			o->alpn = optarg;
			break;
		case O_CA:
			o->ca = optarg;
			break;
		case O_INSECURE:
			o->insecure = true;
			break;
		case O_VERSION:
			o->version = qt_parse_version(optarg);
			if (!o->version)
				return qt_bad_usage("--version: 1 or 2, not '%s'", optarg);
			break;
		case O_CIPHER:
			for (i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
				if (!strcasecmp(optarg, ciphers[i].name))
					o->cipher = ciphers[i].type;
			if (!o->cipher)
				return qt_bad_usage("--cipher: unknown cipher suite '%s'", optarg);
			break;
		case O_PSK:
			o->psk = optarg;
			break;
		case O_KEYLOG:
			o->keylog = optarg;
			break;
		case O_KEY_UPDATE:
			o->key_update = true;
			break;
		case O_MIGRATE:
			o->migrate = true;
			break;
		case O_RESUME:
			o->resume = true;
			break;
		case O_EARLY_DATA:
			o->early_data = true;
			break;
		case O_TIMEOUT:
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || v > 86400 || optarg[0] == '-')
				return qt_bad_usage("--timeout: seconds (0..86400), not '%s'", optarg);
			o->timeout = (unsigned int)v;
			break;
		case O_OUTPUT:
			o->output = optarg;
			break;
		case O_VERBOSE:
			qt_log_level = QT_LOG_DEBUG;
			break;
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			return qt_bad_usage("unknown option or missing argument: '%s'",
					 argv[optind - 1]);
		}
	}
	if (!o->output)
		return qt_bad_usage("%s", "--output DIR is required");
	if (optind == argc)
		return qt_bad_usage("%s", "no URL given");
	if (o->ca && o->insecure)
		return qt_bad_usage("%s", "--ca and --insecure exclude each other");
	if (o->ca && access(o->ca, R_OK))
		return qt_bad_usage("--ca: cannot read '%s'", o->ca);
	if (o->psk && access(o->psk, R_OK))
		return qt_bad_usage("--psk: cannot read '%s'", o->psk);
	if (o->resume && o->psk)
		return qt_bad_usage("%s", "--resume works with certificates, not --psk");
	if (o->early_data && !o->resume)
		return qt_bad_usage("%s", "--early-data needs --resume");
	if (o->resume && argc - optind < 2)
		return qt_bad_usage("%s", "--resume needs at least two URLs");
	return 0;
}

/* Group @urls[0..@n) by authority; requests point into @urls and @argv. */
static int make_groups(char **argv, const struct qt_url *urls, size_t n, const char *outdir,
		       struct group **pgroups, size_t *pngroups)
{
	struct group *groups, *g;
	size_t i, j, ng = 0;
	char name[QT_PATH_MAX];
	size_t *which;
	char *out;

	groups = calloc(n, sizeof(*groups));
	which = calloc(n, sizeof(*which));
	if (!groups || !which)
		goto nomem;
	for (i = 0; i < n; i++) {
		for (j = 0; j < ng; j++)
			if (!strcasecmp(groups[j].url->host, urls[i].host) &&
			    !strcmp(groups[j].url->port, urls[i].port))
				break;
		if (j == ng)
			groups[ng++].url = &urls[i];
		groups[j].n++;
		which[i] = j;
	}
	for (j = 0; j < ng; j++) {
		groups[j].reqs = calloc(groups[j].n, sizeof(*groups[j].reqs));
		if (!groups[j].reqs)
			goto nomem;
		groups[j].n = 0;
	}
	for (i = 0; i < n; i++) {
		g = &groups[which[i]];
		/* Checked in main(): the name is valid. */
		qt_path_basename(urls[i].path, name, sizeof(name));
		if (asprintf(&out, "%s/%s", outdir, name) < 0)
			goto nomem;
		qt_req_init(&g->reqs[g->n++], argv[i], urls[i].path, out);
	}
	free(which);
	*pgroups = groups;
	*pngroups = ng;
	return 0;
nomem:
	for (j = 0; groups && j < ng; j++) {
		for (i = 0; i < groups[j].n && groups[j].reqs; i++)
			free(groups[j].reqs[i].out);
		free(groups[j].reqs);
	}
	free(groups);
	free(which);
	return -ENOMEM;
}

/* A connected QUIC socket to @g's server, configured from @o, or -errno.
 * With @rs, the server's transport parameters of the last connection are
 * remembered for 0-RTT (RFC 9000 Section 7.4.1).
 */
static int client_connect(const struct client_opts *o, const struct group *g,
			  const struct resume *rs)
{
	struct addrinfo hints, *res, *ai;
	struct quic_config cfg;
	socklen_t len;
	int fd = -1, ret;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_DGRAM;
	ret = getaddrinfo(g->url->host, g->url->port, &hints, &res);
	if (ret) {
		qt_err("%s: %s", g->url->host, gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	ret = -EHOSTUNREACH;
	for (ai = res; ai; ai = ai->ai_next) {
		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		fd = socket(ai->ai_family, SOCK_DGRAM, IPPROTO_QUIC);
		if (fd < 0) {
			ret = -errno;
			qt_err("socket(IPPROTO_QUIC): %s (is the quic module available?)",
			       strerror(errno));
			continue;
		}
		len = sizeof(cfg);
		memset(&cfg, 0, sizeof(cfg));
		if ((o->version || o->cipher) &&
		    !getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len)) {
			if (o->version)
				cfg.version = o->version;
			if (o->cipher)
				cfg.payload_cipher_type = o->cipher;
			if (setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, sizeof(cfg)))
				qt_err("QUIC_SOCKOPT_CONFIG: %s", strerror(errno));
		}
		if (setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, o->alpn, strlen(o->alpn)))
			qt_err("QUIC_SOCKOPT_ALPN: %s", strerror(errno));
		if (rs && rs->len && rs->have_tp &&
		    setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &rs->tp, sizeof(rs->tp)))
			qt_err("remembering the transport parameters: %s", strerror(errno));
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			break;
		ret = -errno;
		qt_err("connecting to %s: %s", g->url->authority, strerror(errno));
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd >= 0 ? fd : ret;
}

/* The TLS session of a connection that resumes or is to be resumed. */
struct tls {
	gnutls_session_t session;
	gnutls_certificate_credentials_t cred;
};

static void tls_free(struct tls *t)
{
	if (t->session)
		gnutls_deinit(t->session);
	if (t->cred)
		gnutls_certificate_free_credentials(t->cred);
	memset(t, 0, sizeof(*t));
}

/*
 * A client session for @fd built the way libquic's API expects of its
 * caller (quic_handshake()): TLS 1.3 only, early data allowed, the server
 * verified as quic_client_handshake() would, and @rs's session to resume.
 */
static int tls_client(const struct client_opts *o, const char *host, int fd,
		      const struct resume *rs, struct tls *t)
{
	static const struct {
		uint32_t type;
		const char *prio;
	} aead[] = {
		{ TLS_CIPHER_AES_GCM_128, ":-CIPHER-ALL:+AES-128-GCM" },
		{ TLS_CIPHER_AES_GCM_256, ":-CIPHER-ALL:+AES-256-GCM" },
		{ TLS_CIPHER_AES_CCM_128, ":-CIPHER-ALL:+AES-128-CCM" },
		{ TLS_CIPHER_CHACHA20_POLY1305, ":-CIPHER-ALL:+CHACHA20-POLY1305" },
	};
	char prio[160] = "NORMAL:-VERS-ALL:+VERS-TLS1.3:%DISABLE_TLS13_COMPAT_MODE";
	struct in6_addr a6;
	struct in_addr a4;
	size_t i;
	int ret;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < sizeof(aead) / sizeof(aead[0]); i++)
		if (aead[i].type == o->cipher)
			strcat(prio, aead[i].prio);
	if (gnutls_init(&t->session, GNUTLS_CLIENT | GNUTLS_ENABLE_EARLY_DATA |
			GNUTLS_NO_END_OF_EARLY_DATA) ||
	    gnutls_certificate_allocate_credentials(&t->cred))
		goto nomem;
	ret = gnutls_priority_set_direct(t->session, prio, NULL);
	if (!ret)
		ret = o->ca ? gnutls_certificate_set_x509_trust_file(t->cred, o->ca,
								     GNUTLS_X509_FMT_PEM) :
			      gnutls_certificate_set_x509_system_trust(t->cred);
	if (ret < 0) {
		qt_err("TLS setup: %s", gnutls_strerror(ret));
		tls_free(t);
		return -EINVAL;
	}
	/* A name goes as SNI; an address is only matched against the cert. */
	if (inet_pton(AF_INET, host, &a4) != 1 && inet_pton(AF_INET6, host, &a6) != 1 &&
	    gnutls_server_name_set(t->session, GNUTLS_NAME_DNS, host, strlen(host)))
		goto nomem;
	if (!o->insecure)
		gnutls_session_set_verify_cert(t->session, host, 0);
	if (gnutls_credentials_set(t->session, GNUTLS_CRD_CERTIFICATE, t->cred) ||
	    quic_session_set_alpn(t->session, o->alpn, strlen(o->alpn)))
		goto nomem;
	if (rs->len && quic_session_set_data(t->session, rs->session, rs->len))
		qt_err("the saved session cannot be resumed; a full handshake follows");
	gnutls_transport_set_int(t->session, fd);
	return 0;
nomem:
	tls_free(t);
	return -ENOMEM;
}

/* Keep what the next connection resumes with: the TLS session (its
 * ticket came after the handshake) and the server's transport parameters.
 */
static void resume_save(int fd, struct tls *t, struct resume *rs)
{
	socklen_t len = sizeof(rs->tp);
	size_t n = sizeof(rs->session);

	memset(&rs->tp, 0, sizeof(rs->tp));
	rs->tp.remote = 1;
	rs->have_tp = !getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &rs->tp, &len);
	rs->tp.remote = 1;
	if (quic_session_get_data(t->session, rs->session, &n) || !n) {
		qt_err("no session to resume: the server sent no ticket");
		rs->len = 0;
		return;
	}
	rs->len = n;
	qt_info("kept a %zu-byte session to resume", n);
}

static const char *run_error(int ret)
{
	if (ret == 1)
		return "the server closed the connection";
	if (ret == -EINTR)
		return qt_stop == SIGALRM ? "timed out" : "interrupted";
	if (ret == -ETIMEDOUT)
		return "timed out";
	return strerror(-ret);
}

/* The protocol client for @g's requests on @sio, or NULL. */
static struct qt_app *client_app(const struct client_opts *o, struct group *g,
				 struct qt_sock_io *sio, int fd)
{
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK))
		return NULL;
	qt_sock_io_init(sio, fd, false);
	if (!strcmp(o->alpn, "h3"))
		return qt_h3_client_new(&sio->io, g->url->authority, g->reqs, g->n);
	return qt_hq_client_new(&sio->io, g->reqs, g->n);
}

/*
 * Fetch the requests of @g over one connection. With @rs, its TLS session
 * resumes @rs's and is kept there for the next; with @early, the requests
 * are written before the handshake, for 0-RTT packets.
 */
static void fetch_group(const struct client_opts *o, struct group *g, uint64_t deadline,
			struct resume *rs, bool early)
{
	struct qt_run_opts ropts = { .deadline_ms = deadline, .key_update = o->key_update,
				     .migrate = o->migrate };
	const char *why = "not fetched";
	struct qt_app *app = NULL;
	struct tls tls = { 0 };
	struct qt_sock_io sio;
	uint32_t peer_code;
	uint64_t code = 0;
	int fd, ret;
	size_t i;

	fd = client_connect(o, g, rs);
	if (fd < 0) {
		snprintf(g->why, sizeof(g->why), "no connection: %s", strerror(-fd));
		why = g->why;
		goto out;
	}
	qt_signals_watch_fd(fd);
	if (rs) {
		ret = tls_client(o, g->url->host, fd, rs, &tls);
		/* RFC 9001 Section 4.6.1: what is written now leaves in 0-RTT
		 * packets if the server's ticket allows early data.
		 */
		if (!ret && early) {
			app = client_app(o, g, &sio, fd);
			if (!app)
				ret = -ENOMEM;
			else if (app->ops->flush(app) < 0)
				qt_err("writing the requests before the handshake failed");
		}
		if (!ret)
			ret = qt_stop ? -EINTR : quic_handshake(tls.session);
	} else {
		ret = qt_stop ? -EINTR : quic_client_handshake(fd, o->psk, g->url->host, o->alpn);
	}
	if (ret) {
		/* A stop signal shuts the socket down: say why, not ECONNRESET. */
		snprintf(g->why, sizeof(g->why), "handshake failed: %s",
			 qt_stop ? run_error(-EINTR) : strerror(-ret));
		why = g->why;
		qt_err("%s: %s", g->url->authority, why);
		goto close;
	}
	qt_info("connected to %s (%s)", g->url->authority, o->alpn);
	if (!app)
		app = client_app(o, g, &sio, fd);
	if (!app) {
		why = "out of memory";
		goto close;
	}
	ret = qt_sock_run(fd, app, &ropts);
	if (ret == -ECONNRESET && !qt_sock_peer_close(fd, &peer_code))
		snprintf(g->why, sizeof(g->why), "the server closed the connection (code 0x%x)",
			 peer_code);
	else if (ret)
		snprintf(g->why, sizeof(g->why), "%s", run_error(ret));
	if (ret) {
		why = g->why;
		qt_err("%s: %s", g->url->authority, why);
	}
	code = app->ops->close_code(app);
	if (rs)
		resume_save(fd, &tls, rs);
close:
	if (app)
		app->ops->free(app);
	qt_signals_watch_fd(-1);
	qt_sock_close(fd, code);
	tls_free(&tls);
out:
	for (i = 0; i < g->n; i++)
		qt_req_finish(&g->reqs[i], false, why);
}

/* --resume: the first request on its own connection, the rest resuming it. */
static void fetch_resumed(const struct client_opts *o, struct group *g, uint64_t deadline)
{
	struct group first = *g, rest = *g;
	struct resume *rs;

	rs = calloc(1, sizeof(*rs));
	if (!rs) {
		fetch_group(o, g, deadline, NULL, false);
		return;
	}
	first.n = 1;
	rest.reqs = g->reqs + 1;
	rest.n = g->n - 1;
	fetch_group(o, &first, deadline, rs, false);
	fetch_group(o, &rest, deadline, rs, o->early_data);
	free(rs);
}

int main(int argc, char **argv)
{
	struct group *groups = NULL;
	struct qt_url *urls = NULL;
	size_t i, j, n, ng = 0, failed = 0;
	char (*names)[QT_PATH_MAX];
	struct client_opts o;
	uint64_t deadline = 0;
	struct stat st;
	int ret;

	qt_prog = "quic-client";
	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret;
	n = (size_t)(argc - optind);
	urls = calloc(n, sizeof(*urls));
	if (!urls)
		return 1;
	names = calloc(n, sizeof(*names));
	if (!names) {
		free(urls);
		return 1;
	}
	for (i = 0; i < n && !ret; i++) {
		if (qt_url_parse(argv[optind + i], &urls[i]) ||
		    qt_path_basename(urls[i].path, names[i], sizeof(names[i])))
			ret = qt_bad_usage("not a usable https URL: '%s'", argv[optind + i]);
		/* Two responses must not be written to one file. */
		for (j = 0; j < i && !ret; j++)
			if (!strcmp(names[i], names[j]))
				ret = qt_bad_usage("two URLs would be saved as '%s'", names[i]);
	}
	free(names);
	if (ret) {
		free(urls);
		return ret;
	}
	if (mkdir(o.output, 0755) && errno != EEXIST) {
		qt_err("%s: %s", o.output, strerror(errno));
		free(urls);
		return 1;
	}
	if (stat(o.output, &st) || !S_ISDIR(st.st_mode)) {
		qt_err("%s: not a directory", o.output);
		free(urls);
		return 1;
	}
	if (make_groups(argv + optind, urls, n, o.output, &groups, &ng)) {
		qt_err("out of memory");
		free(urls);
		return 1;
	}

	qt_signals_init();
	if (o.keylog)
		setenv("SSLKEYLOGFILE", o.keylog, 1);
	quic_set_log_func(qt_lib_log);
	quic_set_log_level(qt_log_level >= QT_LOG_DEBUG ? QUIC_LOG_DEBUG : QUIC_LOG_ERROR);
	if (o.ca && quic_set_ca_file(o.ca))
		qt_err("out of memory");
	quic_set_insecure(o.insecure);
	if (o.timeout) {
		deadline = qt_now_ms() + o.timeout * 1000ULL;
		alarm(o.timeout);	/* ends a handshake that hangs */
	}

	if (o.resume && ng == 1)
		fetch_resumed(&o, &groups[0], deadline);
	else if (o.resume)
		qt_err("--resume: the URLs must share one authority");
	for (i = 0; i < ng && !o.resume; i++)
		fetch_group(&o, &groups[i], deadline, NULL, false);

	for (i = 0; i < ng; i++) {
		for (j = 0; j < groups[i].n; j++) {
			struct qt_request *r = &groups[i].reqs[j];

			if (r->state != QT_REQ_DONE) {
				failed++;
				fprintf(stderr, "quic-client: FAILED %s: %s\n", r->url,
					r->why ? r->why : "?");
			}
			free(r->out);
		}
		free(groups[i].reqs);
	}
	free(groups);
	free(urls);
	if (failed)
		fprintf(stderr, "quic-client: %zu of %zu files failed\n", failed, n);
	return failed ? 1 : 0;
}
