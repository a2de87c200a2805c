// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quic-handshaked: one handshake request, run in its own process.
 *
 * The daemon forks for every accepted request and the child runs the
 * whole thing here: it checks that the socket is a QUIC one, turns the
 * request's keys (or the configured files) into what libquic's one-call
 * API takes, runs the handshake and reports the outcome to the kernel
 * with HANDSHAKE_CMD_DONE, exactly once. Keys never touch the disk: they
 * go into memfd files that libquic opens as /proc/self/fd/N.
 *
 * A timer bounds the request. When it fires, its signal handler sends a
 * DONE message built beforehand (ETIMEDOUT), which needs nothing but
 * sendto() and so is safe there, and shuts the socket down so that the
 * handshake returns; the process then ends normally. Should it not, the
 * timer's second expiry ends the process.
 */

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <keyutils.h>
#include <linux/netlink.h>
#include <netinet/quic.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <syslog.h>

#include "handshake_nl.h"
#include "hsd.h"

/* After a timeout, how long the handshake has to return before _exit(). */
#define HSD_GRACE_S		2
/* Exit status of a child ended by the grace timer. */
#define HSD_EXIT_TIMEOUT	3

/* One request and what the child learned about it. */
struct job {
	const struct hsd_request *req;
	const struct hsd_opts *opts;
	struct nl_sock *sk;		/* for DONE */
	int family;
	char addr[64];			/* the peer's address, "" when unknown */
	int32_t remote_auth;		/* key that authenticated the peer, 0: none */
	uint64_t start_ms;
	unsigned int timeout_ms;
};

/* What the SIGALRM handler uses; set before the timer is armed. */
static volatile sig_atomic_t done_sent;
static volatile sig_atomic_t timed_out;
static int alarm_nl_fd = -1;
static int alarm_sock_fd = -1;
static struct nl_msg *alarm_msg;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Fire SIGALRM once after @ms milliseconds (0: disarm). */
static void set_timer(unsigned int ms)
{
	struct itimerval it = { 0 };

	it.it_value.tv_sec = ms / 1000;
	it.it_value.tv_usec = (ms % 1000) * 1000;
	setitimer(ITIMER_REAL, &it, NULL);
}

/* The request's time is up: complete it with ETIMEDOUT (async-signal-safe). */
static void on_alarm(int sig)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct nlmsghdr *nlh = nlmsg_hdr(alarm_msg);
	int saved = errno;

	(void)sig;
	if (done_sent)
		_exit(HSD_EXIT_TIMEOUT);
	done_sent = 1;
	timed_out = 1;
	sendto(alarm_nl_fd, nlh, nlh->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel));
	shutdown(alarm_sock_fd, SHUT_RDWR);
	set_timer(HSD_GRACE_S * 1000);
	errno = saved;
}

/* Prepare the ETIMEDOUT completion and start the request's timer. */
static int arm_timeout(struct job *j)
{
	struct sigaction sa;

	alarm_msg = hsd_done_msg(j->family, j->req->fd, ETIMEDOUT, NULL, 0);
	if (!alarm_msg)
		return -ENOMEM;
	/* No acknowledgment asked for, and no sequence number taken from the
	 * socket: the DONE sent after a handshake stays in step with it.
	 */
	nlmsg_hdr(alarm_msg)->nlmsg_flags |= NLM_F_REQUEST;
	alarm_nl_fd = nl_socket_get_fd(j->sk);
	alarm_sock_fd = j->req->fd;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))
		return -errno;
	set_timer(j->timeout_ms);
	return 0;
}

/*
 * Report the outcome @ret (0 or a negative errno) unless the timer did.
 * Returns the status the kernel got: a positive errno, 0 for success.
 */
static unsigned int complete(struct job *j, int ret)
{
	unsigned int status;
	struct nl_msg *msg;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (done_sent)
		return ETIMEDOUT;
	done_sent = 1;
	set_timer(0);
	status = hsd_done_status(ret);
	msg = hsd_done_msg(j->family, j->req->fd, status, &j->remote_auth, status ? 0 : 1);
	ret = msg ? nl_send_sync(j->sk, msg) : -NLE_NOMEM;
	if (ret < 0)
		hsd_log(LOG_ERR, "HANDSHAKE_CMD_DONE refused: %s", nl_geterror(ret));
	return status;
}

/* The socket is a QUIC one? Returns 0 or a negative errno. */
static int check_protocol(int fd)
{
	socklen_t len = sizeof(int);
	int proto;

	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len)) {
		hsd_log(LOG_ERR, "SO_PROTOCOL: %s", strerror(errno));
		return -errno;
	}
	if (proto != IPPROTO_QUIC) {
		hsd_log(LOG_ERR, "request for a non-QUIC socket (protocol %d) refused: use tlshd for TLS over TCP",
			proto);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

/* Free a key's payload, wiped first. */
static void free_secret(void *buf, size_t len)
{
	if (!buf)
		return;
	explicit_bzero(buf, len);
	free(buf);
}

/*
 * The payload of key @serial (malloc()ed, @len bytes). 0 is no key and a
 * negative serial names a special keyring, never a key. Returns 0 or
 * -ENOKEY, with the reason logged.
 */
static int read_key(int32_t serial, void **data, size_t *len)
{
	long n;

	if (serial <= 0) {
		hsd_log(LOG_ERR, "key %d: not a key serial", serial);
		return -ENOKEY;
	}
	n = keyctl_read_alloc(serial, data);
	if (n < 0) {
		hsd_log(LOG_ERR, "key %d: cannot read it: %s", serial, strerror(errno));
		return -ENOKEY;
	}
	*len = (size_t)n;
	return 0;
}

/*
 * A memfd holding @data, and in @path (room for 32 bytes) the name by
 * which libquic opens it. Returns the descriptor or a negative errno.
 */
static int memfd_file(const char *name, const void *data, size_t len, char *path)
{
	const char *p = data;
	ssize_t n;
	int fd;

	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return -EIO;
		}
		p += n;
		len -= (size_t)n;
	}
	snprintf(path, 32, "/proc/self/fd/%d", fd);
	if (access(path, R_OK)) {
		hsd_log(LOG_ERR, "%s: %s (is /proc mounted?)", path, strerror(errno));
		close(fd);
		return -ENOENT;
	}
	return fd;
}

/* Key @serial's payload (a PEM file) in a memfd. Returns it or -errno. */
static int key_memfd(int32_t serial, const char *name, char *path)
{
	size_t len = 0;
	void *data;
	int ret;

	ret = read_key(serial, &data, &len);
	if (ret)
		return ret;
	ret = memfd_file(name, data, len, path);
	free_secret(data, len);
	return ret;
}

/*
 * "identity:hexkey\n" for @identity and the payload of key @serial, in a
 * malloc()ed string (to be wiped), or NULL with the reason logged.
 */
static char *psk_format(int32_t serial, const char *identity, size_t *linelen)
{
	size_t keylen = 0, size;
	void *key = NULL;
	char *line;
	ssize_t n;

	if (read_key(serial, &key, &keylen))
		return NULL;
	size = strlen(identity) + 2 * keylen + 3;
	line = malloc(size);
	n = line ? hsd_psk_format(line, size, identity, key, keylen) : -ENOMEM;
	free_secret(key, keylen);
	if (n < 0) {
		hsd_log(LOG_ERR, "key %d: identity \"%s\" with %zu key bytes: %s", serial, identity,
			keylen, n == -EINVAL ?
			"empty key, or an identity holding ':' or a line break" :
			strerror((int)-n));
		free(line);	/* nothing was written to it */
		return NULL;
	}
	*linelen = (size_t)n;
	return line;
}

/* The PSK file line for key @serial: its description is the identity. */
static char *psk_line(int32_t serial, size_t *linelen)
{
	const char *identity;
	char *desc = NULL;
	char *line = NULL;

	if (keyctl_describe_alloc(serial, &desc) < 0) {
		hsd_log(LOG_ERR, "key %d: cannot describe it: %s", serial, strerror(errno));
		return NULL;
	}
	identity = hsd_key_identity(desc);
	if (identity)
		line = psk_format(serial, identity, linelen);
	else
		hsd_log(LOG_ERR, "key %d: no PSK identity in its description", serial);
	free(desc);
	return line;
}

/* PSK, either role: the first peer identity is the key. */
static int do_psk(struct job *j, bool client)
{
	const struct hsd_request *req = j->req;
	size_t len = 0;
	char path[32];
	int32_t serial;
	char *line;
	int fd, ret;

	if (!req->num_peerids) {
		hsd_log(LOG_ERR, "PSK request without a key");
		return -ENOKEY;
	}
	serial = req->peerids[0];
	if (serial <= 0) {
		hsd_log(LOG_ERR, "key %d: not a key serial", serial);
		return -ENOKEY;
	}
	line = psk_line(serial, &len);
	if (!line)
		return -ENOKEY;
	fd = memfd_file("psk", line, len, path);
	free_secret(line, len);
	if (fd < 0)
		return fd;
	if (client)
		ret = quic_client_handshake(req->fd, path, NULL, NULL);
	else
		ret = quic_server_handshake(req->fd, path, NULL, NULL);
	close(fd);
	if (!ret)
		j->remote_auth = serial;
	return ret;
}

/* A configured file the server needs, readable? Returns 0 or -ENOENT. */
static int check_file(const char *what, const char *path)
{
	if (!path) {
		hsd_log(LOG_ERR, "X.509 server request without a certificate, and no %s configured",
			what);
		return -ENOENT;
	}
	if (access(path, R_OK)) {
		hsd_log(LOG_ERR, "%s %s: %s", what, path, strerror(errno));
		return -ENOENT;
	}
	return 0;
}

/* X.509 server: the request's certificate and key, else the configured ones. */
static int do_x509_server(struct job *j)
{
	const struct hsd_request *req = j->req;
	const char *cert = j->opts->cert, *key = j->opts->key;
	char certpath[32], keypath[32];
	int certfd = -1, keyfd = -1, ret;

	if (req->cert && req->privkey) {
		ret = certfd = key_memfd(req->cert, "cert", certpath);
		if (certfd >= 0)
			ret = keyfd = key_memfd(req->privkey, "key", keypath);
		cert = certpath;
		key = keypath;
	} else {
		ret = check_file("--cert", cert);
		if (!ret)
			ret = check_file("--key", key);
	}
	if (ret >= 0)
		ret = quic_server_handshake(req->fd, key, cert, NULL);
	if (certfd >= 0)
		close(certfd);
	if (keyfd >= 0)
		close(keyfd);
	return ret;
}

/* X.509 client: verify the server's chain and its name (or address). */
static int do_x509_client(struct job *j)
{
	const struct hsd_request *req = j->req;
	const char *host = *req->peername ? req->peername : j->addr;

	if (req->cert || req->privkey) {
		hsd_log(LOG_ERR, "client certificates are not supported (libquic's client handshake sends none)");
		return -EOPNOTSUPP;
	}
	if (!*host) {
		hsd_log(LOG_ERR, "no peer name and no peer address to verify the server against");
		return -ENOTCONN;
	}
	return quic_client_handshake(req->fd, NULL, host, NULL);
}

/* The handshake the request asks for. Returns 0 or a negative errno. */
static int handshake(struct job *j)
{
	bool client = j->req->msg_type == HANDSHAKE_MSG_TYPE_CLIENTHELLO;

	if (!client && j->req->msg_type != HANDSHAKE_MSG_TYPE_SERVERHELLO) {
		hsd_log(LOG_ERR, "unknown message type %u", j->req->msg_type);
		return -EINVAL;
	}
	switch (j->req->auth_mode) {
	case HANDSHAKE_AUTH_PSK:
		return do_psk(j, client);
	case HANDSHAKE_AUTH_X509:
		return client ? do_x509_client(j) : do_x509_server(j);
	case HANDSHAKE_AUTH_UNAUTH:
		if (client) {
			hsd_log(LOG_INFO, "unauthenticated request: the server is verified anyway");
			return do_x509_client(j);
		}
		hsd_log(LOG_ERR, "unauthenticated server handshakes are not supported");
		return -EOPNOTSUPP;
	}
	hsd_log(LOG_ERR, "unknown authentication mode %u", j->req->auth_mode);
	return -EINVAL;
}

/* The peer's address into @j->addr, for the log and a client's check. */
static void peer_address(struct job *j)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getpeername(j->req->fd, (struct sockaddr *)&ss, &len) ||
	    hsd_addr_string((struct sockaddr *)&ss, len, j->addr, sizeof(j->addr)))
		j->addr[0] = '\0';
}

/* The one line every request gets. */
static void log_outcome(struct job *j, unsigned int status)
{
	const struct hsd_request *req = j->req;
	unsigned long long ms = (unsigned long long)(now_ms() - j->start_ms);
	char peer[HSD_PEERNAME_MAX + 80];

	snprintf(peer, sizeof(peer), "%s%s%s%s", *j->addr ? j->addr : "unknown address",
		 *req->peername ? " (" : "", req->peername, *req->peername ? ")" : "");
	if (!status)
		hsd_log(LOG_INFO, "%s %s handshake with %s: ok in %llu ms",
			hsd_msg_type_name(req->msg_type), hsd_auth_mode_name(req->auth_mode),
			peer, ms);
	else if (timed_out)
		hsd_log(LOG_ERR, "%s %s handshake with %s: timed out (limit %u ms), ETIMEDOUT after %llu ms",
			hsd_msg_type_name(req->msg_type), hsd_auth_mode_name(req->auth_mode),
			peer, j->timeout_ms, ms);
	else
		hsd_log(LOG_ERR, "%s %s handshake with %s: failed, %s (%s) in %llu ms",
			hsd_msg_type_name(req->msg_type), hsd_auth_mode_name(req->auth_mode),
			peer, strerrorname_np((int)status) ?: "?", strerror((int)status), ms);
}

/* A netlink socket of our own for DONE. Returns 0 or a negative errno. */
static int open_done_socket(struct job *j)
{
	int ret;

	j->sk = nl_socket_alloc();
	if (!j->sk)
		return -ENOMEM;
	ret = genl_connect(j->sk);
	if (ret < 0) {
		hsd_log(LOG_ERR, "netlink: %s", nl_geterror(ret));
		return -EIO;
	}
	return 0;
}

/*
 * Serve @req in this (forked) process and exit: 0 when the handshake
 * succeeded, 1 otherwise. The request's socket is closed on the way out.
 */
void hsd_child_run(const struct hsd_opts *o, int family, const struct hsd_request *req)
{
	struct job j = { .req = req, .opts = o, .family = family };
	unsigned int status;
	int ret;

	j.start_ms = now_ms();
	j.timeout_ms = req->timeout_ms ? req->timeout_ms : o->timeout_ms;
	if (!j.timeout_ms)
		j.timeout_ms = HSD_DEFAULT_TIMEOUT_MS;
	peer_address(&j);
	ret = open_done_socket(&j);
	if (ret) {
		hsd_log(LOG_ERR, "cannot complete the request: %s", strerror(-ret));
		exit(1);
	}
	ret = arm_timeout(&j);
	if (!ret)
		ret = check_protocol(req->fd);
	if (!ret)
		ret = handshake(&j);
	status = complete(&j, ret);
	log_outcome(&j, status);
	close(req->fd);
	nl_socket_free(j.sk);
	nlmsg_free(alarm_msg);
	exit(status ? 1 : 0);
}
