// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bulk transfers over bad networks: a QUIC connection (libquic + GnuTLS,
 * X.509) between a client on side 0 and a server on side 1 of a namespace
 * pair joined by veth (netns.h), with the netem qdisc on both veth ends
 * (tc, from iproute2, in /sbin), and for comparison the same transfer over
 * TCP through the same qdisc.
 *
 * Each case is one impairment with one congestion controller, Reno or
 * CUBIC, chosen on both ends (QUIC_SOCKOPT_CONFIG congestion_control_algo,
 * TCP_CONGESTION "reno"/"cubic") and read back from both connected sockets.
 * The client sends 2 MiB of random bytes on 4 streams (512 KiB each, in
 * 16 KiB pieces taken in turn, FIN with the last one); the server reads
 * until every stream's FIN and compares each stream's length and SHA-256
 * (gnutls_hash_fast()) with those of the bytes sent. A case passes only
 * when every stream arrived whole and identical: loss recovery (RFC 9002
 * Section 6), the congestion controller and stream reassembly (RFC 9000
 * Section 2.2) got every byte through, in order, exactly once, over:
 *
 *  - random loss of 1 %, 5 %, 20 % and 30 % of the packets, both ways:
 *    lost STREAM frames are sent again, lost ACKs are made up for;
 *  - reordering (25 % of the packets overtake the others, which are held
 *    10 ms): out-of-order STREAM data is reassembled, and packets taken for
 *    lost but arriving late do no harm;
 *  - duplication of 5 %: duplicate packets are dropped by packet number
 *    and duplicate STREAM data is not delivered twice;
 *  - corruption of 1 % (such packets die at the UDP checksum or the AEAD);
 *  - 100 ms delay with 10 ms jitter each way: a 200 ms RTT, reordered;
 *  - a blackout: once a quarter of the data was written and an eighth has
 *    arrived, both veth ends drop every packet for 2 s ("tc qdisc change
 *    ... loss 100%"), then carry it again: the probe timeouts back off and
 *    the connection resumes instead of dying.
 *
 * The impairment is in place before the handshake (except for the
 * blackout), so the TLS handshake crosses the bad network too. A QUIC
 * transfer fails when no byte arrives for 90 s. Both senders get a send
 * buffer large enough for the whole transfer (QUIC's default, 16 KiB and
 * not grown on demand, would leave its sender application limited and its
 * congestion controller idle). The veth devices get gso_max_segs 1, so
 * that TCP hands the qdisc one segment per packet as QUIC does, rather
 * than 64 KiB GSO packets that netem would drop or duplicate as one.
 *
 * Figures, never verdicts: the completion time (first byte written to last
 * byte read), the retransmissions (QuicFrmRetrans of /proc/net/quic/snmp,
 * RetransSegs of /proc/net/snmp for TCP) and the IPv4 packets sent
 * (OutRequests), all of the sender's namespace, are printed per case and
 * as a table at the end. TCP backs off for minutes at 20 % or 30 % loss
 * both ways; it is given up on after 10 s (120 s in stress mode) and its
 * figures are then those of the bytes that had arrived.
 *
 * The default run (make selftest, make check) stays within two minutes
 * under QEMU: 7 cases, every impairment but 1 % and 30 % loss once, four
 * with CUBIC and three with Reno (the "quick" column below). With
 * quic_stress=1 in the environment (the kernel command line: make stress)
 * all 18 run: every impairment with both controllers.
 *
 * Usage: netem [certificate directory, default /tests/certs]
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/tcp.h>
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
#include <netinet/quic.h>

#include "ktap.h"
#include "netns.h"
#include "util.h"

#define NR_STREAMS	4
#define STREAM_LEN	(512 * 1024)
#define TOTAL_LEN	(NR_STREAMS * STREAM_LEN)
#define CHUNK		(16 * 1024)
#define SHA256_LEN	32

/* No byte for this long: the QUIC transfer failed. Generous: TCG + KASAN. */
#define STALL_S		90
/* TCP, the comparison, gets this long (RTO backoff at high loss). */
#define TCP_BUDGET_S		10
#define TCP_BUDGET_STRESS_S	120
#define BLACKOUT_MS	2000
/* Both senders' send buffer: room for the whole transfer. */
#define SNDBUF		TOTAL_LEN

#define QUIC_PORT_BASE	4900
#define TCP_PORT_BASE	5900
#define HOSTNAME	"server.test"	/* the SAN of server.pem */
#define ALPN		"quic-selftest"

#define TC		"/sbin/tc"
/* Room for the packets a 100 ms delay holds back (the default is 1000). */
#define NETEM_LIMIT	"limit 10000"

#define QUIC_SNMP	"/proc/thread-self/net/quic/snmp"
#define IP_SNMP		"/proc/thread-self/net/snmp"

enum { RENO = 1, CUBIC = 2 };	/* bits of impairment.quick */

struct impairment {
	const char *name;	/* as the case names it */
	const char *netem;	/* netem parameters on both veth ends */
	bool blackout;		/* 2 s of total loss in mid-transfer */
	unsigned int quick;	/* controllers run by the default (short) mode */
};

static const struct impairment impairments[] = {
	{ "loss 1%",			"loss 1%",		false,	0 },
	{ "loss 5%",			"loss 5%",		false,	CUBIC },
	{ "loss 20%",			"loss 20%",		false,	RENO },
	{ "loss 30%",			"loss 30%",		false,	0 },
	{ "reorder 25% delay 10ms",	"delay 10ms reorder 25%", false, CUBIC },
	{ "duplicate 5%",		"duplicate 5%",		false,	RENO },
	{ "corrupt 1%",			"corrupt 1%",		false,	RENO },
	{ "delay 100ms jitter 10ms",	"delay 100ms 10ms",	false,	CUBIC },
	{ "blackout 2s",		"",			true,	CUBIC },
};

struct cc {
	const char *name;	/* in the case name and for TCP_CONGESTION */
	uint8_t algo;		/* QUIC_CONG_ALG_* */
	unsigned int bit;	/* in impairment.quick */
};

static const struct cc ccs[] = {
	{ "reno",	QUIC_CONG_ALG_RENO,	RENO },
	{ "cubic",	QUIC_CONG_ALG_CUBIC,	CUBIC },
};

/* The outcome of one transfer. */
struct result {
	bool intact;		/* every stream arrived whole with its SHA-256 */
	double secs;		/* first byte written to last byte read */
	double handshake;	/* connect() to the end of the handshake */
	long long retrans;	/* sender's namespace; -1 when unreadable */
	long long sent;		/* IPv4 packets it sent */
	bool gave_up;		/* TCP: not done within its budget */
	size_t arrived;		/* bytes read by then */
	struct tcp_info ti;	/* the TCP sender's state by then */
	char why[192];		/* what went wrong */
};

struct run {
	const struct impairment *imp;
	const struct cc *cc;
	struct result quic, tcp;
};

/* A transfer's shared state: the sender (main thread, side 0) and the
 * receiver (a thread on side 1).
 */
struct xfer {
	const struct cc *cc;
	bool quic;
	int port;
	int ready[2];		/* the receiver writes 'r' once it listens */
	int lfd;		/* its listener */
	int fd;			/* its connection */
	int cli;		/* the sender's socket */
	int budget;		/* seconds, 0: none (QUIC: STALL_S without a byte) */
	bool gave_up;		/* the budget ran out */
	struct tcp_info ti;	/* the TCP sender's state by then */
	uint8_t *rx;		/* stream i at rx + i * STREAM_LEN */
	size_t got[NR_STREAMS];
	size_t arrived;		/* bytes read so far (atomic) */
	struct timespec end;	/* when the last byte was read */
	bool done;		/* every byte read */
	char why[160];
};

/* 2 s of total loss in the middle of a transfer. */
struct blackout {
	pthread_t thread;
	bool started;
	int err;
	size_t arrived;		/* bytes the receiver had read when it began */
	struct timespec begin, end;
};

static struct netns_pair pair;
static uint8_t *src;				/* what every transfer sends */
static uint8_t want[NR_STREAMS][SHA256_LEN];	/* SHA-256 of each stream */
static int next_quic_port = QUIC_PORT_BASE;
static int next_tcp_port = TCP_PORT_BASE;
static int tcp_budget = TCP_BUDGET_S;

static void lib_log(int level, const char *msg)
{
	ktap_diag("libquic: %s", msg);
}

static double secs_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static double since(const struct timespec *a)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return secs_between(a, &now);
}

/* ------------------------------------------------------------ tc, netlink */

/*
 * Run "tc @fmt..." in side @side's namespace. Its output is kept and
 * printed as diagnostics when it fails. Returns 0 or -1.
 */
static int __printf(2, 3) tc(int side, const char *fmt, ...)
{
	char cmd[256], line[256], out[1024], sink[256], *argv[24], *tok, *save = NULL;
	int pfd[2], status = 0, argc = 0;
	size_t len = 0;
	va_list ap;
	ssize_t n;
	pid_t pid;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	memcpy(line, cmd, sizeof(line));
	argv[argc++] = TC;
	for (tok = strtok_r(cmd, " ", &save); tok && argc < 23; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (!pid) {
		/* Only async-signal-safe calls: the parent has threads. */
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		if (setns(pair.ns[side], CLONE_NEWNET))
			_exit(126);
		execv(TC, argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		if (len < sizeof(out) - 1)
			n = read(pfd[0], out + len, sizeof(out) - 1 - len);
		else
			n = read(pfd[0], sink, sizeof(sink));	/* keep the child going */
		if (n <= 0)
			break;
		if (len < sizeof(out) - 1)
			len += n;
	}
	out[len] = '\0';
	close(pfd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		ktap_diag("\"tc %s\" in %s's namespace failed (%s, status %#x)", line,
			  pair.ifname[side], pid < 0 ? "fork" : "exit", status);
		for (tok = strtok_r(out, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save))
			ktap_diag("tc: %s", tok);
		return -1;
	}
	return 0;
}

/* The same netem parameters on both veth ends ("replace" or "change"). */
static int netem_set(const char *verb, const char *params)
{
	int side;

	for (side = 0; side < 2; side++)
		if (tc(side, "qdisc %s dev %s root netem %s %s", verb, pair.ifname[side],
		       NETEM_LIMIT, params))
			return -1;
	return 0;
}

static void netem_clear(void)
{
	int side;

	for (side = 0; side < 2; side++)
		tc(side, "qdisc del dev %s root", pair.ifname[side]);
}

/*
 * RTM_NEWLINK with IFLA_GSO_MAX_SEGS for @ifname of the calling thread's
 * namespace. Returns 0 or a negative errno.
 */
static int set_gso_max_segs(const char *ifname, uint32_t segs)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		struct rtattr rta;
		uint32_t segs;
	} req;
	struct nlmsghdr *nh;
	char buf[512];
	int fd, err;
	ssize_t n;

	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = sizeof(req);
	req.nh.nlmsg_type = RTM_NEWLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.ifi.ifi_family = AF_UNSPEC;
	req.ifi.ifi_index = if_nametoindex(ifname);
	req.rta.rta_type = IFLA_GSO_MAX_SEGS;
	req.rta.rta_len = RTA_LENGTH(sizeof(req.segs));
	req.segs = segs;
	if (!req.ifi.ifi_index)
		return -ENODEV;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	err = -EPROTO;
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
	} else {
		n = recv(fd, buf, sizeof(buf), 0);
		nh = (struct nlmsghdr *)buf;
		if (n < 0)
			err = -errno;
		else if (NLMSG_OK(nh, (size_t)n) && nh->nlmsg_type == NLMSG_ERROR)
			err = ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
	}
	close(fd);
	return err;
}

/* ------------------------------------------------------------ counters */

/* "QuicFrmRetrans 12" lines: the value of @name, or -1. */
static long long quic_counter(const char *name)
{
	char buf[4096], *line, *save = NULL, key[64];
	unsigned long long v;

	if (read_file(QUIC_SNMP, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%63s %llu", key, &v) == 2 && !strcmp(key, name))
			return v;
	return -1;
}

/*
 * /proc/net/snmp: a names line, then a values line per protocol, both
 * starting with @proto ("Tcp:"). The value under @name, or -1.
 */
static long long snmp_counter(const char *proto, const char *name)
{
	char buf[8192], *names = NULL, *values = NULL, *line, *save = NULL;
	char *n, *v, *sn = NULL, *sv = NULL;

	if (read_file(IP_SNMP, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, proto, strlen(proto)))
			continue;
		if (!names)
			names = line;
		else
			values = line;
	}
	if (!values)
		return -1;
	n = strtok_r(names, " ", &sn);
	v = strtok_r(values, " ", &sv);
	while (n && v) {
		if (!strcmp(n, name))
			return strtoll(v, NULL, 10);
		n = strtok_r(NULL, " ", &sn);
		v = strtok_r(NULL, " ", &sv);
	}
	return -1;
}

/*
 * After a failed QUIC transfer: the non-zero counters of /proc/net/quic/snmp
 * of each side (totals since the namespaces were made), for the report.
 */
static void quic_counters_diag(void)
{
	char buf[4096], out[1024], *line, *save;
	unsigned long long v;
	char key[64];
	size_t len;
	int side;

	for (side = 0; side < 2; side++) {
		if (netns_enter(&pair, side) || read_file(QUIC_SNMP, buf, sizeof(buf)) < 0)
			continue;
		len = 0;
		out[0] = '\0';
		save = NULL;
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (sscanf(line, "%63s %llu", key, &v) == 2 && v && len < sizeof(out))
				len += snprintf(out + len, sizeof(out) - len, " %s=%llu",
						key + 4, v);
		ktap_diag("  side %d (%s) Quic*:%s", side, side ? "server" : "client", out);
	}
	netns_enter(&pair, 0);
}

/* The sender's namespace: retransmissions, and IPv4 packets sent. */
static void read_counters(bool quic, long long *retrans, long long *sent)
{
	*retrans = quic ? quic_counter("QuicFrmRetrans") : snmp_counter("Tcp:", "RetransSegs");
	*sent = snmp_counter("Ip:", "OutRequests");
}

static long long delta(long long before, long long after)
{
	return before >= 0 && after >= before ? after - before : -1;
}

/* ------------------------------------------------------------ sockets */

static void server_addr(struct sockaddr_in *sin, int port)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	sin->sin_addr = pair.addr4[1];
}

static int quic_set_cc(int fd, uint8_t algo)
{
	struct quic_config cfg;
	socklen_t len = sizeof(cfg);

	memset(&cfg, 0, sizeof(cfg));
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len))
		return -1;
	cfg.congestion_control_algo = algo;
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, sizeof(cfg));
}

static int set_cc(const struct xfer *x, int fd)
{
	if (x->quic)
		return quic_set_cc(fd, x->cc->algo);
	return setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, x->cc->name, strlen(x->cc->name));
}

/* Is @x's controller the one in force on the connected socket @fd? */
static bool cc_in_force(const struct xfer *x, int fd)
{
	struct quic_config cfg;
	socklen_t len;
	char name[16];

	if (x->quic) {
		len = sizeof(cfg);
		memset(&cfg, 0, sizeof(cfg));
		return !getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len) &&
		       cfg.congestion_control_algo == x->cc->algo;
	}
	len = sizeof(name) - 1;
	memset(name, 0, sizeof(name));
	return !getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len) &&
	       !strcmp(name, x->cc->name);
}

/* ------------------------------------------------------------ receiver */

/* A piece of stream @i (QUIC) or of the byte stream (TCP, i < 0). */
static int rx_store(struct xfer *x, int i, const uint8_t *buf, size_t n)
{
	size_t off;

	if (i < 0) {
		/* TCP carries the streams back to back. */
		off = __atomic_load_n(&x->arrived, __ATOMIC_RELAXED);
		if (n > TOTAL_LEN - off) {
			snprintf(x->why, sizeof(x->why), "more than %d bytes arrived", TOTAL_LEN);
			return -1;
		}
		memcpy(x->rx + off, buf, n);
		for (i = 0; i < NR_STREAMS; i++) {
			off = (size_t)i * STREAM_LEN;
			if (x->arrived + n > off)
				x->got[i] = x->arrived + n - off > STREAM_LEN ? STREAM_LEN :
					    x->arrived + n - off;
		}
	} else {
		if (n > STREAM_LEN - x->got[i]) {
			snprintf(x->why, sizeof(x->why), "stream %d: more than %d bytes arrived",
				 i * 4, STREAM_LEN);
			return -1;
		}
		memcpy(x->rx + (size_t)i * STREAM_LEN + x->got[i], buf, n);
		x->got[i] += n;
	}
	__atomic_add_fetch(&x->arrived, n, __ATOMIC_RELAXED);
	return 0;
}

/*
 * Wait until the connection has something to read. QUIC fails once no byte
 * came for STALL_S; TCP is given up on once its budget is spent. @last: the
 * last read, @start: the first wait.
 */
static int rx_wait(struct xfer *x, const struct timespec *start, const struct timespec *last)
{
	struct pollfd pfd = { .fd = x->fd, .events = POLLIN };
	socklen_t len = sizeof(x->ti);

	/* On a poll() error, the read that follows reports it. */
	while (!poll(&pfd, 1, 1000)) {
		if (x->budget && since(start) > x->budget) {
			x->gave_up = true;
			snprintf(x->why, sizeof(x->why), "not done within %d s", x->budget);
			/* What the TCP sender made of the network by then. */
			getsockopt(x->cli, IPPROTO_TCP, TCP_INFO, &x->ti, &len);
			return -1;
		}
		if (!x->budget && since(last) > STALL_S) {
			snprintf(x->why, sizeof(x->why), "no byte for %d s after %zu bytes",
				 STALL_S, x->arrived);
			return -1;
		}
	}
	return 0;
}

/* Until the FIN of every stream: client bidirectional streams 0, 4, 8, 12. */
static int quic_receive(struct xfer *x, uint8_t *buf, size_t size)
{
	bool fin[NR_STREAMS] = {};
	struct timespec start, last;
	unsigned int fins = 0;
	uint32_t flags;
	int64_t sid;
	ssize_t n;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &start);
	last = start;
	while (fins < NR_STREAMS) {
		if (rx_wait(x, &start, &last))
			return -1;
		flags = 0;
		n = quic_recvmsg(x->fd, buf, size, &sid, &flags);
		if (n < 0 || (!n && !(flags & MSG_STREAM_FIN))) {
			snprintf(x->why, sizeof(x->why), "read after %zu bytes: %s", x->arrived,
				 n ? errno_name(errno) : "end of file");
			return -1;
		}
		if (flags & MSG_NOTIFICATION)
			continue;
		i = sid >= 0 && !(sid % 4) && sid / 4 < NR_STREAMS ? sid / 4 : -1;
		if (i < 0 || fin[i]) {
			snprintf(x->why, sizeof(x->why), "data on stream %lld, unexpected",
				 (long long)sid);
			return -1;
		}
		if (rx_store(x, i, buf, n))
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &last);
		if (flags & MSG_STREAM_FIN) {
			fin[i] = true;
			fins++;
		}
	}
	return 0;
}

/* Until end of file. */
static int tcp_receive(struct xfer *x, uint8_t *buf, size_t size)
{
	struct timespec start;
	ssize_t n;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		if (rx_wait(x, &start, &start))
			return -1;
		n = recv(x->fd, buf, size, 0);
		if (n <= 0)
			break;
		if (rx_store(x, -1, buf, n))
			return -1;
	}
	if (n < 0) {
		snprintf(x->why, sizeof(x->why), "read after %zu bytes: %s", x->arrived,
			 errno_name(errno));
		return -1;
	}
	return 0;
}

/* Side 1: listen, accept (and handshake), read everything, note the time. */
static void *receiver_main(void *p)
{
	struct xfer *x = p;
	struct sockaddr_in sin;
	uint8_t *buf = NULL;
	int ret;

	x->fd = -1;
	x->lfd = -1;
	if (netns_enter(&pair, 1)) {
		snprintf(x->why, sizeof(x->why), "entering side 1: %s", errno_name(errno));
		goto out;
	}
	server_addr(&sin, x->port);
	x->lfd = x->quic ? socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC) :
			   socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	if (x->lfd < 0 || (sock_timeouts(x->lfd, STALL_S), set_cc(x, x->lfd)) ||
	    bind(x->lfd, (struct sockaddr *)&sin, sizeof(sin)) || listen(x->lfd, 1)) {
		snprintf(x->why, sizeof(x->why), "listener: %s", errno_name(errno));
		goto out;
	}
	if (write(x->ready[1], "r", 1) != 1)
		goto out;
	x->fd = accept(x->lfd, NULL, NULL);
	if (x->fd < 0) {
		snprintf(x->why, sizeof(x->why), "accept: %s", errno_name(errno));
		return NULL;
	}
	sock_timeouts(x->fd, STALL_S);
	if (x->quic) {
		ret = quic_server_handshake(x->fd, cert_path("server.key"),
					    cert_path("server.pem"), ALPN);
		if (ret) {
			snprintf(x->why, sizeof(x->why), "server handshake: %s",
				 errno_name(-ret));
			goto fail;
		}
	}
	if (!cc_in_force(x, x->fd)) {
		snprintf(x->why, sizeof(x->why), "the server's connection is not on %s",
			 x->cc->name);
		goto fail;
	}
	buf = malloc(4 * CHUNK);
	if (!buf)
		goto fail;
	ret = x->quic ? quic_receive(x, buf, 4 * CHUNK) : tcp_receive(x, buf, 4 * CHUNK);
	clock_gettime(CLOCK_MONOTONIC, &x->end);
	free(buf);
	if (!ret) {
		x->done = true;
		return NULL;
	}
fail:
	/* Make the sender's writes fail at once rather than wait. */
	shutdown(x->cli, SHUT_RDWR);
	close(x->fd);
	x->fd = -1;
	return NULL;
out:
	if (write(x->ready[1], "x", 1) != 1)
		x->why[0] = '?';
	return NULL;
}

/* ------------------------------------------------------------ sender */

static void *blackout_main(void *p)
{
	struct timespec d = { BLACKOUT_MS / 1000, (BLACKOUT_MS % 1000) * 1000000L };
	struct blackout *b = p;

	nanosleep(&d, NULL);
	b->err = netem_set("change", "");
	clock_gettime(CLOCK_MONOTONIC, &b->end);
	return NULL;
}

/*
 * Once an eighth of the bytes arrived, everything is dropped; a thread
 * lifts that after 2 s. With the data then in flight or queued, and the
 * rest still to be written, the transfer has to cross the blackout.
 */
static int blackout_begin(struct blackout *b, const struct xfer *x)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (__atomic_load_n(&x->arrived, __ATOMIC_RELAXED) < TOTAL_LEN / 8) {
		if (since(&t0) > STALL_S || x->why[0])
			return -1;
		usleep(10000);
	}
	b->arrived = __atomic_load_n(&x->arrived, __ATOMIC_RELAXED);
	if (netem_set("change", "loss 100%"))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &b->begin);
	if (pthread_create(&b->thread, NULL, blackout_main, b)) {
		netem_set("change", "");
		return -1;
	}
	b->started = true;
	return 0;
}

static ssize_t send_piece(const struct xfer *x, int fd, int i, const uint8_t *p, size_t len,
			  uint32_t flags)
{
	if (x->quic)
		return quic_sendmsg(fd, p, len, (int64_t)i * 4, flags);
	return send(fd, p, len, 0);
}

/*
 * Stream i gets src + i * STREAM_LEN, in CHUNK pieces taken in turn (QUIC);
 * TCP gets the streams one after the other. The blackout, when @b is given,
 * begins once a quarter of the bytes was written and an eighth arrived.
 */
static int send_all(struct xfer *x, int fd, struct blackout *b, struct result *res)
{
	size_t off, piece, total = 0;
	uint32_t flags;
	const uint8_t *p;
	ssize_t n;
	int i, k;

	for (k = 0; k < TOTAL_LEN / CHUNK; k++) {
		if (b && total == TOTAL_LEN / 4 && blackout_begin(b, x)) {
			snprintf(res->why, sizeof(res->why), "the blackout could not begin");
			return -1;
		}
		/* QUIC: piece k is stream k % 4 at offset k / 4 * CHUNK. */
		i = x->quic ? k % NR_STREAMS : k / (STREAM_LEN / CHUNK);
		off = x->quic ? (size_t)(k / NR_STREAMS) * CHUNK :
				(size_t)(k % (STREAM_LEN / CHUNK)) * CHUNK;
		flags = off ? 0 : MSG_STREAM_NEW;
		if (off + CHUNK == STREAM_LEN)
			flags |= MSG_STREAM_FIN;
		p = src + (size_t)i * STREAM_LEN + off;
		for (piece = CHUNK; piece; piece -= n, p += n) {
			n = send_piece(x, fd, i, p, piece, flags);
			if (n <= 0) {
				snprintf(res->why, sizeof(res->why),
					 "write after %zu bytes: %s (%zu had arrived)",
					 total, errno_name(errno), x->arrived);
				return -1;
			}
			flags &= ~MSG_STREAM_NEW;
			total += n;
		}
	}
	if (!x->quic && shutdown(fd, SHUT_WR)) {
		snprintf(res->why, sizeof(res->why), "shutdown: %s", errno_name(errno));
		return -1;
	}
	return 0;
}

/* Each stream's length and SHA-256 against what was sent. */
static bool verify(const struct xfer *x, struct result *res)
{
	uint8_t md[SHA256_LEN];
	int i;

	for (i = 0; i < NR_STREAMS; i++) {
		if (x->got[i] != STREAM_LEN) {
			snprintf(res->why, sizeof(res->why), "stream %d: %zu of %d bytes",
				 i * 4, x->got[i], STREAM_LEN);
			return false;
		}
		if (gnutls_hash_fast(GNUTLS_DIG_SHA256, x->rx + (size_t)i * STREAM_LEN,
				     STREAM_LEN, md) < 0) {
			snprintf(res->why, sizeof(res->why), "SHA-256 unavailable");
			return false;
		}
		if (memcmp(md, want[i], SHA256_LEN)) {
			snprintf(res->why, sizeof(res->why),
				 "stream %d: SHA-256 of the bytes read differs from the bytes sent",
				 i * 4);
			return false;
		}
	}
	return true;
}

/*
 * One transfer of @r over QUIC or TCP: the receiver in a thread on side 1,
 * the sender here on side 0. Fills @res.
 */
static void transfer(const struct run *r, bool quic, struct result *res)
{
	struct xfer x = { .cc = r->cc, .quic = quic, .cli = -1, .budget = quic ? 0 : tcp_budget };
	struct blackout b = {}, *bp = NULL;
	struct timespec t0;
	struct sockaddr_in sin;
	long long retrans = -1, sent = -1;
	int sndbuf = SNDBUF / 2;	/* the kernel doubles it */
	int fd = -1, ret;
	pthread_t th;
	char c;

	memset(res, 0, sizeof(*res));
	res->retrans = -1;
	res->sent = -1;
	x.port = quic ? next_quic_port++ : next_tcp_port++;
	x.rx = calloc(1, TOTAL_LEN);
	if (!x.rx || pipe(x.ready)) {
		snprintf(res->why, sizeof(res->why), "out of memory");
		free(x.rx);
		return;
	}
	if (pthread_create(&th, NULL, receiver_main, &x)) {
		snprintf(res->why, sizeof(res->why), "pthread_create failed");
		goto out;
	}
	if (read(x.ready[0], &c, 1) != 1 || c != 'r') {
		pthread_join(th, NULL);
		snprintf(res->why, sizeof(res->why), "receiver: %s", x.why);
		goto out;
	}

	server_addr(&sin, x.port);
	fd = quic ? socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC) :
		    socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	x.cli = fd;
	if (fd < 0 || (sock_timeouts(fd, STALL_S + x.budget), set_cc(&x, fd)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf))) {
		snprintf(res->why, sizeof(res->why), "client socket: %s", errno_name(errno));
		goto unblock;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		snprintf(res->why, sizeof(res->why), "connect: %s", errno_name(errno));
		goto unblock;
	}
	if (quic) {
		ret = quic_client_handshake(fd, NULL, HOSTNAME, ALPN);
		if (ret) {
			snprintf(res->why, sizeof(res->why), "client handshake: %s",
				 errno_name(-ret));
			goto unblock;
		}
	}
	res->handshake = since(&t0);
	if (!cc_in_force(&x, fd)) {
		snprintf(res->why, sizeof(res->why), "the client's connection is not on %s",
			 r->cc->name);
		goto unblock;
	}

	read_counters(quic, &retrans, &sent);
	if (r->imp->blackout)
		bp = &b;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (send_all(&x, fd, bp, res))
		goto unblock;
	pthread_join(th, NULL);
	res->gave_up = x.gave_up;
	res->arrived = x.arrived;
	res->ti = x.ti;
	if (!x.done) {
		snprintf(res->why, sizeof(res->why), "receiver: %s", x.why);
		goto finish;
	}
	res->secs = secs_between(&t0, &x.end);
	res->intact = verify(&x, res);
	goto finish;

unblock:
	/* The receiver may wait in accept() or read(): end both. */
	if (fd >= 0)
		shutdown(fd, SHUT_RDWR);
	if (x.lfd >= 0)
		shutdown(x.lfd, SHUT_RDWR);
	pthread_join(th, NULL);
	res->gave_up = x.gave_up;
	res->arrived = x.arrived;
	res->ti = x.ti;
	if (x.why[0]) {
		ret = strlen(res->why);
		snprintf(res->why + ret, sizeof(res->why) - ret, "; receiver: %s", x.why);
	}
finish:
	if (b.started) {
		pthread_join(b.thread, NULL);
		ktap_diag("  %s: blackout of %.2f s after %.2f s, %zu KiB of %d arrived before%s",
			  quic ? "QUIC" : "TCP", secs_between(&b.begin, &b.end),
			  secs_between(&t0, &b.begin), b.arrived / 1024, TOTAL_LEN / 1024,
			  b.err ? "; lifting it failed" : "");
		if (b.err) {
			res->intact = false;
			snprintf(res->why, sizeof(res->why), "the blackout could not be lifted");
		}
	}
	if (retrans >= 0 || sent >= 0) {
		read_counters(quic, &res->retrans, &res->sent);
		res->retrans = delta(retrans, res->retrans);
		res->sent = delta(sent, res->sent);
	}
	if (fd >= 0)
		close(fd);
	if (x.fd >= 0)
		close(x.fd);
	if (x.lfd >= 0)
		close(x.lfd);
out:
	close(x.ready[0]);
	close(x.ready[1]);
	free(x.rx);
}

/* ------------------------------------------------------------ cases */

static void describe(const char *proto, const struct result *res)
{
	bool quic = proto[0] == 'Q';

	if (res->gave_up) {
		ktap_diag("  %s: not done within %d s, %zu KiB of %d arrived; %lld packets sent,",
			  proto, tcp_budget, res->arrived / 1024, TOTAL_LEN / 1024, res->sent);
		ktap_diag("  %lld segments retransmitted; then rto %u ms, %u timeouts in a row",
			  res->retrans, res->ti.tcpi_rto / 1000, res->ti.tcpi_retransmits);
		return;
	}
	if (!res->intact) {
		ktap_diag("  %s FAILED: %s", proto, res->why);
		return;
	}
	ktap_diag("  %s: %.2f s, %lld packets sent, %lld %s retransmitted (%s %.2f s)", proto,
		  res->secs, res->sent, res->retrans, quic ? "frames" : "segments",
		  quic ? "handshake" : "connect", res->handshake);
}

static void run_case(struct run *r)
{
	struct timespec t0;
	bool set;

	ktap_diag("%s %s: netem \"%s\" on %s and %s", r->imp->name, r->cc->name,
		  r->imp->blackout ? "loss 100% for 2 s mid-transfer" : r->imp->netem,
		  pair.ifname[0], pair.ifname[1]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	set = !netem_set("replace", r->imp->netem);
	if (set) {
		transfer(r, true, &r->quic);
		transfer(r, false, &r->tcp);
	} else {
		snprintf(r->quic.why, sizeof(r->quic.why), "tc could not set up netem");
		snprintf(r->tcp.why, sizeof(r->tcp.why), "tc could not set up netem");
		r->quic.retrans = -1;
		r->quic.sent = -1;
		r->tcp.retrans = -1;
		r->tcp.sent = -1;
	}
	netem_clear();
	describe("QUIC", &r->quic);
	if (set && !r->quic.intact)
		quic_counters_diag();
	describe("TCP", &r->tcp);
	ktap_diag("  case took %.0f s", since(&t0));
	ktap_result(r->quic.intact, "%s %s: %d MiB on %d streams arrive intact", r->imp->name,
		    r->cc->name, TOTAL_LEN >> 20, NR_STREAMS);
}

static void count(char *buf, size_t len, long long v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld", v);
}

/* "   12.34    567   1890": time (or "failed"), retransmissions, packets sent. */
static void table_cell(const struct result *res, char *buf, size_t len)
{
	char secs[24], rtx[24], sent[24];

	if (res->intact)
		snprintf(secs, sizeof(secs), "%.2f", res->secs);
	else if (res->gave_up)
		snprintf(secs, sizeof(secs), ">%d", tcp_budget);
	else
		snprintf(secs, sizeof(secs), "failed");
	count(rtx, sizeof(rtx), res->retrans);
	count(sent, sizeof(sent), res->sent);
	snprintf(buf, len, "%7s %6s %6s", secs, rtx, sent);
}

static void print_table(const struct run *runs, unsigned int nr)
{
	char q[80], t[80];
	unsigned int i;

	ktap_diag("%d MiB on %d streams (TCP: one connection); s: first byte written to last read",
		  TOTAL_LEN >> 20, NR_STREAMS);
	ktap_diag("(>%d: TCP not done within its budget); rtx: QUIC frames (QuicFrmRetrans) or",
		  tcp_budget);
	ktap_diag("TCP segments (RetransSegs) retransmitted; sent: IPv4 packets (OutRequests);");
	ktap_diag("all counted in the sender's namespace");
	ktap_diag("%-23s %-5s | %7s %6s %6s | %7s %6s %6s", "impairment", "cc", "QUIC s", "rtx",
		  "sent", "TCP s", "rtx", "sent");
	for (i = 0; i < nr; i++) {
		table_cell(&runs[i].quic, q, sizeof(q));
		table_cell(&runs[i].tcp, t, sizeof(t));
		ktap_diag("%-23s %-5s | %s | %s", runs[i].imp->name, runs[i].cc->name, q, t);
	}
}

int main(int argc, char **argv)
{
	const char *stress = getenv("quic_stress");
	bool full = stress && *stress && strcmp(stress, "0");
	struct run runs[ARRAY_SIZE(impairments) * ARRAY_SIZE(ccs)];
	unsigned int i, j, nr = 0;
	struct timespec t0;
	int side, err;
	bool ready;

	if (argc > 1)
		cert_dir = argv[1];
	for (i = 0; i < ARRAY_SIZE(impairments); i++)
		for (j = 0; j < ARRAY_SIZE(ccs); j++)
			if (full || (impairments[i].quick & ccs[j].bit)) {
				memset(&runs[nr], 0, sizeof(runs[nr]));
				runs[nr].imp = &impairments[i];
				runs[nr++].cc = &ccs[j];
			}
	if (full)
		tcp_budget = TCP_BUDGET_STRESS_S;
	ktap_plan(nr);
	ktap_diag("%s mode: %u of %zu impairment x congestion control cases%s",
		  full ? "stress" : "default", nr, ARRAY_SIZE(runs),
		  full ? "" : " (quic_stress=1 runs them all)");
	signal(SIGPIPE, SIG_IGN);
	quic_set_log_func(lib_log);
	quic_set_ca_file(cert_path("ca.pem"));

	src = malloc(TOTAL_LEN);
	ready = src && !gnutls_rnd(GNUTLS_RND_NONCE, src, TOTAL_LEN);
	for (i = 0; ready && i < NR_STREAMS; i++)
		ready = !gnutls_hash_fast(GNUTLS_DIG_SHA256, src + (size_t)i * STREAM_LEN,
					  STREAM_LEN, want[i]);
	if (!ready)
		ktap_diag("no random data or no SHA-256");
	if (ready && (access(cert_path("ca.pem"), R_OK) || access(TC, X_OK))) {
		ktap_diag("no test credentials in %s or no %s", cert_dir, TC);
		ready = false;
	}
	if (ready && netns_pair_create(&pair))
		ready = false;
	for (side = 0; ready && side < 2; side++) {
		err = netns_enter(&pair, side) ? -errno : set_gso_max_segs(pair.ifname[side], 1);
		if (err)
			ktap_diag("gso_max_segs of %s: %s", pair.ifname[side], errno_name(-err));
		ready = !err;
	}
	if (ready && netns_enter(&pair, 0)) {
		ktap_diag("entering side 0: %s", errno_name(errno));
		ready = false;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < nr; i++) {
		if (ready)
			run_case(&runs[i]);
		else
			ktap_result(false, "%s %s: %d MiB on %d streams arrive intact",
				    runs[i].imp->name, runs[i].cc->name, TOTAL_LEN >> 20,
				    NR_STREAMS);
	}
	if (ready)
		print_table(runs, nr);
	ktap_diag("%u cases in %.0f s", nr, since(&t0));
	quic_set_ca_file(NULL);
	netns_pair_destroy(&pair);
	free(src);
	return ktap_finish();
}
