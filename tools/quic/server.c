// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quic-server: serve the files of a directory over kernel QUIC sockets
 * with hq-interop and/or HTTP/3.
 *
 * The listener accepts forever; each connection runs in a child process
 * (handshake, then its application protocol on a non-blocking socket), so
 * a connection that fails or crashes never takes the server down. The
 * parent reaps its children; SIGINT/SIGTERM stop it and, through it,
 * them (each closes its connection with CONNECTION_CLOSE).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <netinet/quic.h>

#include "common.h"

/* RFC 9114 Section 8.1: the application close code of a clean close. */
#define H3_NO_ERROR	0x100
/* Children get this long to end their connections before SIGKILL. */
#define STOP_GRACE_MS	5000

struct server_opts {
	const char *listen;
	const char *cert;
	const char *key;
	const char *root;
	const char *alpn;
	const char *psk;
	const char *keylog;
	const char *ca;
	bool hq, h3;		/* in --alpn */
	bool retry;
	uint32_t version;	/* preferred version, 0: v1 */
	const char *preferred;	/* --preferred-addr, or NULL */
	struct sockaddr_storage pref;
	socklen_t preflen;
};

struct children {
	pid_t *pids;
	size_t n, cap;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: quic-server --listen ADDR:PORT --root DIR (--cert FILE --key FILE | --psk FILE)\n"
"                   [OPTIONS]\n"
"Serve the files below DIR over QUIC (kernel IPPROTO_QUIC sockets) with\n"
"hq-interop (HTTP/0.9: \"GET /path\" answered with the bytes and FIN) and\n"
"HTTP/3 (200 with content-length, 404 for a missing file). Each connection\n"
"is served by a child process; requests on one connection are answered\n"
"concurrently. A request that leaves DIR (\"..\", links pointing out) is\n"
"refused and logged.\n"
"\n"
"  --listen ADDR:PORT  address to listen on: 0.0.0.0:443, [::]:443,\n"
"                      192.0.2.1:4433 (an empty ADDR or * means 0.0.0.0)\n"
"  --root DIR          the directory whose files are served\n"
"  --cert FILE         certificate chain (PEM), with --key\n"
"  --key FILE          its private key (PEM)\n"
"  --psk FILE          authenticate with pre-shared keys instead: lines\n"
"                      \"identity:hexkey\" (no --cert/--key then)\n"
"  --alpn LIST         protocols offered, comma separated, of h3 and\n"
"                      hq-interop (default: h3,hq-interop)\n"
"  --keylog FILE       append the TLS secrets to FILE (NSS key log format)\n"
"  --retry             validate client addresses: answer each new client with\n"
"                      a Retry unless it brings a token (RFC 9000 Section 8.1)\n"
"  --version 1|2       the QUIC version preferred: a client of the other one\n"
"                      that offers it is moved to it (compatible version\n"
"                      negotiation, RFC 9368); default 1\n"
"  --preferred-addr ADDR:PORT\n"
"                      offer clients this address, of our host and of the\n"
"                      --listen family, to move to once the handshake is\n"
"                      done (preferred_address, RFC 9000 Section 9.6)\n"
"  --ca FILE           CA certificates (PEM) for verifying peers; accepted\n"
"                      for symmetry with quic-client, no effect today:\n"
"                      libquic requests no client certificate\n"
"  --quiet             log only errors, not every request\n"
"  --verbose           more messages (library and stream debugging)\n"
"  --help              this text\n"
"\n"
"hq-interop has no status codes: a refused or missing file is answered by\n"
"resetting the stream (QUIC_SOCKOPT_STREAM_RESET, application error 0x1);\n"
"should the reset fail, by ending the stream with FIN and no data.\n"
"Exit status: 0 after SIGINT/SIGTERM, 1 when the server cannot start,\n"
"2 for bad arguments.\n");
}

/* Check the --alpn list: only names we speak, none empty. */
static int parse_alpn(struct server_opts *o)
{
	const char *p = o->alpn;
	size_t len;

	do {
		len = strcspn(p, ",");
		if (len == 2 && !strncmp(p, "h3", 2))
			o->h3 = true;
		else if (len == 10 && !strncmp(p, "hq-interop", 10))
			o->hq = true;
		else
			return -EINVAL;
		p += len;
	} while (*p++ == ',');
	return 0;
}

static int parse_args(int argc, char **argv, struct server_opts *o)
{
	enum { O_LISTEN = 256, O_CERT, O_KEY, O_ROOT, O_ALPN, O_PSK, O_KEYLOG, O_CA,
	       O_RETRY, O_VERSION, O_PREFERRED, O_QUIET, O_VERBOSE, O_HELP };
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, O_LISTEN },
		{ "cert", required_argument, NULL, O_CERT },
		{ "key", required_argument, NULL, O_KEY },
		{ "root", required_argument, NULL, O_ROOT },
		{ "alpn", required_argument, NULL, O_ALPN },
		{ "psk", required_argument, NULL, O_PSK },
		{ "keylog", required_argument, NULL, O_KEYLOG },
		{ "ca", required_argument, NULL, O_CA },
		{ "retry", no_argument, NULL, O_RETRY },
		{ "version", required_argument, NULL, O_VERSION },
		{ "preferred-addr", required_argument, NULL, O_PREFERRED },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ "verbose", no_argument, NULL, O_VERBOSE },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->alpn = "h3,hq-interop";
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case O_LISTEN:
			o->listen = optarg;
			break;
		case O_CERT:
			o->cert = optarg;
			break;
		case O_KEY:
			o->key = optarg;
			break;
		case O_ROOT:
			o->root = optarg;
			break;
		case O_ALPN:
			o->alpn = optarg;
			break;
		case O_PSK:
			o->psk = optarg;
			break;
		case O_KEYLOG:
			o->keylog = optarg;
			break;
		case O_CA:
			o->ca = optarg;
			break;
		case O_RETRY:
			o->retry = true;
			break;
		case O_VERSION:
			o->version = qt_parse_version(optarg);
			if (!o->version)
				return qt_bad_usage("--version: 1 or 2, not '%s'", optarg);
			break;
		case O_PREFERRED:
			o->preferred = optarg;
			break;
		case O_QUIET:
			qt_log_level = QT_LOG_ERR;
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
	if (optind < argc)
		return qt_bad_usage("unexpected argument '%s'", argv[optind]);
	if (!o->listen)
		return qt_bad_usage("%s", "--listen ADDR:PORT is required");
	if (!o->root)
		return qt_bad_usage("%s", "--root DIR is required");
	if (parse_alpn(o))
		return qt_bad_usage("--alpn: a list of h3 and hq-interop, not '%s'", o->alpn);
	if (o->psk && (o->cert || o->key))
		return qt_bad_usage("%s", "--psk excludes --cert and --key");
	if (!o->psk && (!o->cert || !o->key))
		return qt_bad_usage("%s", "--cert and --key (or --psk) are required");
	if (o->psk && access(o->psk, R_OK))
		return qt_bad_usage("--psk: cannot read '%s'", o->psk);
	if (o->cert && access(o->cert, R_OK))
		return qt_bad_usage("--cert: cannot read '%s'", o->cert);
	if (o->key && access(o->key, R_OK))
		return qt_bad_usage("--key: cannot read '%s'", o->key);
	if (o->ca && access(o->ca, R_OK))
		return qt_bad_usage("--ca: cannot read '%s'", o->ca);
	return 0;
}

/* --retry and --version: the listener's QUIC_SOCKOPT_CONFIG. */
static int set_config(int fd, const struct server_opts *o)
{
	struct quic_config cfg;
	socklen_t len = sizeof(cfg);

	memset(&cfg, 0, sizeof(cfg));
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len))
		return -1;
	cfg.validate_peer_address = o->retry;
	if (o->version)
		cfg.version = o->version;
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, sizeof(cfg));
}

/* Fill @ss from --listen. Returns its length, or 0 when it is no address. */
static socklen_t listen_addr(const char *s, struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	char host[QT_HOST_MAX];
	uint16_t port;

	memset(ss, 0, sizeof(*ss));
	if (qt_hostport_parse(s, host, sizeof(host), &port))
		return 0;
	if (!*host || inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
		return sizeof(*s4);
	}
	if (strchr(host, '%') || inet_pton(AF_INET6, host, &s6->sin6_addr) != 1)
		return 0;
	s6->sin6_family = AF_INET6;
	s6->sin6_port = htons(port);
	return sizeof(*s6);
}

/* The protocol of an accepted connection: the one agreed, or a sniffer. */
static struct qt_app *server_app(const struct server_opts *o, int fd, struct qt_io *io,
				 int rootfd)
{
	char alpn[256];

	if (!qt_sock_alpn(fd, alpn, sizeof(alpn))) {
		if (!strcmp(alpn, "h3"))
			return qt_h3_server_new(io, rootfd);
		if (!strcmp(alpn, "hq-interop"))
			return qt_hq_server_new(io, rootfd);
	}
	return qt_sniff_server_new(io, rootfd, o->hq, o->h3);
}

/* "address:port" of the peer of @fd, for messages. */
static void peer_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	char host[INET6_ADDRSTRLEN];
	const void *addr;
	int port;

	snprintf(buf, len, "?");
	if (getpeername(fd, (struct sockaddr *)&ss, &sslen))
		return;
	if (ss.ss_family == AF_INET6) {
		addr = &((struct sockaddr_in6 *)&ss)->sin6_addr;
		port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	} else {
		addr = &((struct sockaddr_in *)&ss)->sin_addr;
		port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	}
	if (inet_ntop(ss.ss_family, addr, host, sizeof(host)))
		snprintf(buf, len, ss.ss_family == AF_INET6 ? "[%s]:%d" : "%s:%d", host, port);
}

/* A child's work: handshake on @fd, then serve it until it ends. */
static int serve(const struct server_opts *o, int fd, int rootfd)
{
	char peer[INET6_ADDRSTRLEN + 8];
	struct qt_sock_io sio;
	uint32_t peer_code;
	struct qt_app *app;
	uint64_t code = 0;
	int ret;

	qt_signals_watch_fd(fd);
	/* The offer travels in our transport parameters: set it before them. */
	if (o->preferred &&
	    setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_MIGRATION, &o->pref, o->preflen))
		qt_err("--preferred-addr %s: %s", o->preferred, strerror(errno));
	if (o->psk)
		ret = quic_server_handshake(fd, o->psk, NULL, o->alpn);
	else
		ret = quic_server_handshake(fd, o->key, o->cert, o->alpn);
	if (ret) {
		qt_err("handshake failed: %s", qt_stop ? "stopped" : strerror(-ret));
		qt_sock_close(fd, 0);
		return 1;
	}
	/* The peer's address is known once established (docs/socket.md). */
	peer_name(fd, peer, sizeof(peer));
	qt_info("%s: connection established", peer);
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)) {
		qt_err("fcntl(O_NONBLOCK): %s", strerror(errno));
		qt_sock_close(fd, 0);
		return 1;
	}
	qt_sock_io_init(&sio, fd, true);
	app = server_app(o, fd, &sio.io, rootfd);
	if (!app) {
		qt_sock_close(fd, 0);
		return 1;
	}
	ret = qt_sock_run(fd, app, NULL);
	if (ret == -ECONNRESET && !qt_sock_peer_close(fd, &peer_code) &&
	    peer_code == H3_NO_ERROR)
		ret = 1;	/* an HTTP/3 client's normal goodbye */
	if (ret == 1)
		qt_info("%s: connection closed by the client", peer);
	else if (ret == -EINTR)
		qt_info("%s: stopping", peer);
	else if (ret == -ECONNRESET && !qt_sock_peer_close(fd, &peer_code))
		qt_err("%s: connection closed by the client with error 0x%x", peer, peer_code);
	else if (ret)
		qt_err("%s: connection ended: %s", peer, strerror(-ret));
	code = app->ops->close_code(app);
	app->ops->free(app);
	qt_signals_watch_fd(-1);
	qt_sock_close(fd, code);
	return ret < 0 && ret != -EINTR ? 1 : 0;
}

static int children_add(struct children *c, pid_t pid)
{
	pid_t *p;

	if (c->n == c->cap) {
		p = realloc(c->pids, (c->cap ? c->cap * 2 : 16) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		c->pids = p;
		c->cap = c->cap ? c->cap * 2 : 16;
	}
	c->pids[c->n++] = pid;
	return 0;
}

/* Reap every child that ended (without waiting). */
static void children_reap(struct children *c)
{
	size_t i;
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (WIFSIGNALED(st))
			qt_err("connection process %d killed by signal %d", (int)pid,
			       WTERMSIG(st));
		for (i = 0; i < c->n; i++) {
			if (c->pids[i] == pid) {
				c->pids[i] = c->pids[--c->n];
				break;
			}
		}
	}
}

/* Stop every child: SIGTERM, then SIGKILL after STOP_GRACE_MS. */
static void children_stop(struct children *c)
{
	uint64_t end = qt_now_ms() + STOP_GRACE_MS;
	size_t i;

	for (i = 0; i < c->n; i++)
		kill(c->pids[i], SIGTERM);
	while (c->n && qt_now_ms() < end) {
		children_reap(c);
		if (c->n)
			poll(NULL, 0, 50);
	}
	for (i = 0; i < c->n; i++) {
		qt_err("connection process %d did not stop, killing it", (int)c->pids[i]);
		kill(c->pids[i], SIGKILL);
		waitpid(c->pids[i], NULL, 0);
	}
	c->n = 0;
}

/* Accept connections until stopped; each is served by a child. */
static void accept_loop(const struct server_opts *o, int lfd, int rootfd, struct children *c)
{
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };
	pid_t pid;
	int fd;

	while (!qt_stop) {
		children_reap(c);
		if (poll(&pfd, 1, 1000) <= 0)
			continue;
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno != EINTR && errno != EAGAIN) {
				qt_err("accept: %s", strerror(errno));
				poll(NULL, 0, 100);	/* e.g. out of descriptors */
			}
			continue;
		}
		pid = fork();
		if (!pid) {
			close(lfd);
			free(c->pids);
			signal(SIGCHLD, SIG_DFL);
			exit(serve(o, fd, rootfd));
		}
		if (pid < 0)
			qt_err("fork: %s", strerror(errno));
		else if (children_add(c, pid))
			qt_err("out of memory: connection process %d not tracked", (int)pid);
		close(fd);
	}
}

static void on_child(int sig)
{
	(void)sig;	/* only interrupts poll() so that children are reaped */
}

int main(int argc, char **argv)
{
	struct children children = { NULL, 0, 0 };
	struct sockaddr_storage ss;
	struct server_opts o;
	struct sigaction sa;
	int lfd, rootfd, ret;
	socklen_t sslen;

	qt_prog = "quic-server";
	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret;
	sslen = listen_addr(o.listen, &ss);
	if (!sslen)
		return qt_bad_usage("--listen: not ADDR:PORT with a numeric address: '%s'",
				 o.listen);
	if (o.preferred) {
		o.preflen = listen_addr(o.preferred, &o.pref);
		if (!o.preflen || o.pref.ss_family != ss.ss_family ||
		    /* sin_port and sin6_port share one offset */
		    !((struct sockaddr_in *)&o.pref)->sin_port)
			return qt_bad_usage("--preferred-addr: not a numeric ADDR:PORT of the --listen family: '%s'",
					    o.preferred);
	}
	rootfd = open(o.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return qt_bad_usage("--root: not a readable directory: '%s'", o.root);

	if (qt_signals_init()) {
		qt_err("sigaction: %s", strerror(errno));
		close(rootfd);
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	if (o.keylog)
		setenv("SSLKEYLOGFILE", o.keylog, 1);
	quic_set_log_func(qt_lib_log);
	quic_set_log_level(qt_log_level >= QT_LOG_DEBUG ? QUIC_LOG_DEBUG : QUIC_LOG_ERROR);
	if (o.ca && quic_set_ca_file(o.ca))
		qt_err("out of memory");

	lfd = socket(ss.ss_family, SOCK_DGRAM, IPPROTO_QUIC);
	if (lfd < 0) {
		qt_err("socket(IPPROTO_QUIC): %s (is the quic module available?)",
		       strerror(errno));
		close(rootfd);
		return 1;
	}
	if (setsockopt(lfd, SOL_QUIC, QUIC_SOCKOPT_ALPN, o.alpn, strlen(o.alpn)) ||
	    ((o.retry || o.version) && set_config(lfd, &o)) ||
	    bind(lfd, (struct sockaddr *)&ss, sslen) || listen(lfd, 128)) {
		qt_err("listening on %s: %s", o.listen, strerror(errno));
		close(lfd);
		close(rootfd);
		return 1;
	}
	fcntl(lfd, F_SETFD, FD_CLOEXEC);
	qt_info("listening on %s (%s), serving %s", o.listen, o.alpn, o.root);

	accept_loop(&o, lfd, rootfd, &children);

	qt_info("stopping");
	close(lfd);
	children_stop(&children);
	free(children.pids);
	close(rootfd);
	return 0;
}
