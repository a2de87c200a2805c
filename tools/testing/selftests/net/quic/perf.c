// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf: throughput, request/response rate and handshake rate of QUIC
 * against TCP and kTLS, side by side in one boot. Not a pass/fail test:
 * a benchmark (Makefile: TEST_BENCH_PROGS, "make list-bench"), which
 * `make check` does not run. It needs root, a kernel with the quic module,
 * CONFIG_TLS (the kTLS rows), CONFIG_VETH, network namespaces and
 * CONFIG_PACKET (the wire check), and the test credentials of
 * tools/lib/quic/tests/gencerts.sh in /tests/certs (--certs DIR).
 *
 * Topology: a namespace pair joined by veth (netns.h). For every run the
 * server is a process forked into side 1 (192.0.2.2), the client one forked
 * into side 0 (192.0.2.1), IPv4, a new port each run. The parent only
 * watches: a run whose processes are not done within its limit (--timeout,
 * by default 3 x --seconds + 60 s) is killed and its row is "not ok".
 *
 * Rows (each run --repeat times, every run on a new connection):
 *  - tput <kind> <size>: bulk transfer, kind quic, quic-nocrypt, tcp or
 *    ktls, one message per write() / sendmsg() of 1, 4, 16 and 64 KiB
 *    (--sizes). Design: fixed duration. The client writes for --seconds
 *    (default 3) and then ends the stream (QUIC: FIN with the last message
 *    on stream 0; TCP, kTLS: shutdown(SHUT_WR)); the server reads with
 *    256 KiB buffers and answers with one byte once it has it all. Mbit/s
 *    = bytes / (client's first write .. that byte). A fixed duration keeps
 *    the matrix's length known under emulation, whose speed varies tenfold
 *    between KVM and TCG; --bytes N makes every run move N bytes instead.
 *  - rr <kind> <size>: requests of 1 byte and 1 KiB each answered by a
 *    response of the same size, one at a time on one connection, for
 *    --seconds; transactions/s. QUIC opens a stream per request
 *    (MSG_STREAM_NEW | MSG_STREAM_FIN) and reads the response to its FIN.
 *    Kinds quic, tcp, ktls.
 *  - hs <kind>: connections per second for --seconds, one at a time, each
 *    connect() + handshake + one byte + close(): QUIC (libquic), TCP (no
 *    handshake), kTLS (GnuTLS, then the TLS ULP). The client sends the
 *    byte once its side is ready (kTLS installed); the server reads it and
 *    closes first, the client once it sees that. PSK by default, --x509
 *    for certificates.
 *  - dl <kind> <bytes>: an HTTP/3 download of one file of --dl-bytes
 *    (32 MiB) by a pair of programs (perf_dl.c): kind quic, tools/quic's
 *    quic-server and quic-client (--tools DIR) on the kernel's QUIC, and
 *    kind ngtcp2, ngtcp2's gtlsserver and gtlsclient ($PATH), a userspace
 *    QUIC stack; Mbit/s over the client's life. A row whose programs are
 *    not there is skipped.
 *
 * The kinds: quic: AES-128-GCM (the cipher of QUIC_SOCKOPT_CONFIG, the
 * only one libquic then offers). quic-nocrypt: quic with the transport
 * parameter disable_1rtt_encryption set on both sides before the
 * handshake; the first run reports whether both sent it (the peer's
 * parameters, read back) and whether it took effect: a packet socket on
 * the client's veth looks for the data in the clear in the first 1-RTT
 * packets (quic: finding it there fails the row). tcp: plain. ktls: TCP,
 * a GnuTLS TLS 1.3 handshake (AES-128-GCM), then TCP_ULP "tls" and
 * TLS_TX/TLS_RX from gnutls_record_get_state(), then plain send()/recv().
 * Every socket: SO_SNDBUF/SO_RCVBUF of --buf (4 MiB; the kernel doubles
 * it), SO_RCVTIMEO/SO_SNDTIMEO; QUIC: max_data and max_stream_data_bidi_*
 * of --window (4 MiB: the kernel's defaults of 1 MiB and 256 KiB would
 * bound a connection's data in flight, and a window beyond half the
 * receive buffer lets the sender overrun the receiver, whose backlog then
 * drops packets; TCP likewise advertises about half its buffer),
 * PLPMTUD every 5 s; rr: TCP_NODELAY.
 *
 * A run is ok when it completed and the data checked: the receiver counts
 * bytes (the same as sent, whole messages) and compares the first and the
 * last message with the pattern sent; responses are compared whole. A
 * row stops at its first failed run. The figures never fail anything.
 *
 * Usage (as root, in the guest):
 *   perf [--quick] [--only LIST] [--sizes LIST] [--repeat N] [--seconds S]
 *        [--bytes N] [--mtu N | --mtu-all] [--psk | --x509] [--no-ktls]
 *        [--buf N] [--window N] [--timeout S] [--certs DIR]
 *   perf --quick                 smoke test: 1 run of 1 s, 1K and 64K
 *   perf --only tcp --quick      a host without QUIC (no kTLS row either)
 *   perf --only tcp,rr,hs        the TCP request/response and handshake rows
 *   perf --mtu-all               the whole matrix at MTU 1500, then 9000
 * (perf --help for the list.) The default matrix, 25 rows of 5 runs of
 * 3 s, takes about 8 minutes per MTU under KVM, more under TCG.
 *
 * Output: KTAP, one result per row ("ok 7 tput quic 16K mtu 1500"), with
 * the figures of its runs before it and, after each MTU's rows, tables as
 * "# " diagnostics: per size the median and (min..max) of every kind, and
 * the ratios quic/ktls and quic-nocrypt/tcp of the medians. Then one line
 * per row for scripts:
 *   # bench <kind> <size> <metric> median=<x> min=<x> max=<x> unit=<u> mtu=<m> runs=<n>
 * kind quic, quic-nocrypt, tcp, ktls or ngtcp2; size in bytes (0 for hs);
 * metric tput or dl (unit Mbit/s), rr (trans/s) or hs (conn/s); a failed
 * row has median=nan min=nan max=nan (a skipped one no line). Ratios
 * follow as kind quic/ktls (tput, rr, hs), quic-nocrypt/tcp (tput),
 * quic/tcp (rr, hs) or quic/ngtcp2 (dl), unit=ratio: the median of the
 * first over the median of the second, min and max the extremes the two
 * spreads allow (min of the first over max of the second, and the
 * reverse). Also "# bench-config ..." first (the
 * settings), and for the first run of each QUIC bulk row
 *   # bench-wire <kind> <size> negotiated=<0|1> short=<n> clear=<n> mtu=<m>
 * (disable_1rtt_encryption sent by both; 1-RTT packets looked at, and
 * those carrying the data in the clear), and for every run of a QUIC bulk
 * row
 *   # bench-pkts <kind> <size> run=<n> packets=<n> bytes_per_packet=<x> mtu=<m>
 * (packets the client's namespace protected during the transfer, and the
 * bytes written per packet: how well writes were coalesced). Exit status 0 when every row is
 * ok, 1 otherwise, 2 for bad options.
 */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/quic.h>

#include "ktap.h"
#include "netns.h"
#include "perf.h"
#include "util.h"

#define MAX_SIZES	16
#define MAX_REPEAT	50
#define MAX_SIZE	(4 << 20)
#define PORT_BASE	20000
#define PORT_LAST	29999
/* The server is listening within this long, or the run failed. */
#define READY_S		30

struct perf_opts perf_opt = {
	.seconds = 3,
	.buf = 4 << 20,
	.window = 4 << 20,
	.io_timeout = 20,
};

static const char *const kind_names[PERF_KINDS] = {
	[PERF_QUIC] = "quic",
	[PERF_NOCRYPT] = "quic-nocrypt",
	[PERF_TCP] = "tcp",
	[PERF_KTLS] = "ktls",
	[PERF_NGTCP2] = "ngtcp2",
};

static const char *const test_names[PERF_TESTS] = {
	[PERF_TPUT] = "tput",
	[PERF_RR] = "rr",
	[PERF_HS] = "hs",
	[PERF_DL] = "dl",
};

static const char *const test_units[PERF_TESTS] = {
	[PERF_TPUT] = "Mbit/s",
	[PERF_RR] = "trans/s",
	[PERF_HS] = "conn/s",
	[PERF_DL] = "Mbit/s",
};

static const size_t rr_sizes[] = { 1, 1024 };

/* One line of the matrix and the figures of its runs. */
struct row {
	enum perf_test test;
	enum perf_kind kind;
	size_t size;		/* 0 for hs */
	int mtu;
	double v[MAX_REPEAT];
	int nv;
	bool ok;
	bool skipped;		/* dl: the programs are not in this image */
};

static struct {
	unsigned int kinds;	/* BIT(enum perf_kind) */
	unsigned int tests;	/* BIT(enum perf_test) */
	size_t sizes[MAX_SIZES];
	int nsizes;
	int repeat;
	int mtus[2];
	int nmtus;
	int timeout;		/* per run, seconds; 0: derived */
	size_t dl_bytes;	/* size of the file the dl rows fetch */
} cfg = {
	.repeat = 5,
	.mtus = { 1500 },
	.nmtus = 1,
	.dl_bytes = 32 << 20,
};

static struct netns_pair pair;
static struct row *rows;
static int nrows;
static int next_port = PORT_BASE;
static char setup_err[200];	/* no run can start */
static char creds_err[200];	/* no QUIC or kTLS run can start */
static char dl_err[200];	/* no dl run can start */

#define BIT(n)	(1u << (n))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "1", "1K", "64K", "1M", or bytes. */
static const char *size_name(size_t size, char *buf, size_t len)
{
	if (size >= (1 << 20) && !(size % (1 << 20)))
		snprintf(buf, len, "%zuM", size >> 20);
	else if (size >= 1024 && !(size % 1024))
		snprintf(buf, len, "%zuK", size >> 10);
	else
		snprintf(buf, len, "%zu", size);
	return buf;
}

static void row_name(const struct row *r, char *buf, size_t len)
{
	char sz[24];

	if (r->test == PERF_HS)
		snprintf(buf, len, "hs %s mtu %d", kind_names[r->kind], r->mtu);
	else
		snprintf(buf, len, "%s %s %s mtu %d", test_names[r->test], kind_names[r->kind],
			 size_name(r->size, sz, sizeof(sz)), r->mtu);
}

/* ------------------------------------------------------------ options */

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: perf [options]   (root; see the top of perf.c)\n"
		"  --quick          1 run of 1 s per row, sizes 1K and 64K (smoke test)\n"
		"  --only LIST      kinds quic,quic-nocrypt,tcp,ktls,ngtcp2 and/or tests\n"
		"                   tput,rr,hs,dl\n"
		"                   (no kind: all kinds; no test: all tests)\n"
		"  --sizes LIST     bulk message sizes (default 1K,4K,16K,64K)\n"
		"  --repeat N       runs per row (default 5), median and min..max of them\n"
		"  --seconds S      length of a run (default 3)\n"
		"  --bytes N        bulk runs move N bytes instead of lasting S seconds\n"
		"  --mtu N          MTU of both veth ends (default 1500)\n"
		"  --mtu-all        everything at MTU 1500, then again at 9000\n"
		"  --psk, --x509    handshake authentication (default PSK)\n"
		"  --no-ktls        leave out the kTLS rows (hosts that must not load tls)\n"
		"  --buf N          SO_SNDBUF/SO_RCVBUF asked for (default 4M)\n"
		"  --window N       QUIC max_data and max_stream_data_bidi_* (default 4M)\n"
		"  --timeout S      kill a run after S s (default 3 x seconds + 60)\n"
		"  --certs DIR      test credentials (default /tests/certs)\n"
		"  --dl-bytes N     size of the file the dl rows fetch (default 32M)\n"
		"  --tools DIR      where quic-server and quic-client are (default /tests)\n"
		"  --help\n"
		"N takes a K, M or G suffix (binary).\n");
}

/* "64K" and the like; 0 when not a number. */
static unsigned long long parse_num(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return 0;
	switch (*end) {
	case 'k': case 'K':
		v <<= 10, end++;
		break;
	case 'm': case 'M':
		v <<= 20, end++;
		break;
	case 'g': case 'G':
		v <<= 30, end++;
		break;
	}
	return *end ? 0 : v;
}

static int parse_only(char *list)
{
	char *tok, *save = NULL;
	int k, t;

	cfg.kinds = 0;
	cfg.tests = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < PERF_KINDS && strcmp(tok, kind_names[k]); k++)
			;
		for (t = 0; t < PERF_TESTS && strcmp(tok, test_names[t]); t++)
			;
		if (k < PERF_KINDS)
			cfg.kinds |= BIT(k);
		else if (t < PERF_TESTS)
			cfg.tests |= BIT(t);
		else
			return -1;
	}
	return 0;
}

static int parse_sizes(char *list)
{
	char *tok, *save = NULL;
	unsigned long long v;

	cfg.nsizes = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		v = parse_num(tok);
		if (!v || v > MAX_SIZE || cfg.nsizes == MAX_SIZES)
			return -1;
		cfg.sizes[cfg.nsizes++] = v;
	}
	return cfg.nsizes ? 0 : -1;
}

enum {
	O_QUICK = 256, O_ONLY, O_SIZES, O_REPEAT, O_SECONDS, O_BYTES, O_MTU, O_MTU_ALL,
	O_PSK, O_X509, O_NO_KTLS, O_BUF, O_WINDOW, O_TIMEOUT, O_CERTS, O_DL_BYTES, O_TOOLS,
	O_HELP,
};

static const struct option long_opts[] = {
	{ "quick", no_argument, NULL, O_QUICK },
	{ "only", required_argument, NULL, O_ONLY },
	{ "sizes", required_argument, NULL, O_SIZES },
	{ "repeat", required_argument, NULL, O_REPEAT },
	{ "seconds", required_argument, NULL, O_SECONDS },
	{ "bytes", required_argument, NULL, O_BYTES },
	{ "mtu", required_argument, NULL, O_MTU },
	{ "mtu-all", no_argument, NULL, O_MTU_ALL },
	{ "psk", no_argument, NULL, O_PSK },
	{ "x509", no_argument, NULL, O_X509 },
	{ "no-ktls", no_argument, NULL, O_NO_KTLS },
	{ "buf", required_argument, NULL, O_BUF },
	{ "window", required_argument, NULL, O_WINDOW },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "certs", required_argument, NULL, O_CERTS },
	{ "dl-bytes", required_argument, NULL, O_DL_BYTES },
	{ "tools", required_argument, NULL, O_TOOLS },
	{ "help", no_argument, NULL, O_HELP },
	{}
};

/* Returns 0, or the exit status to leave with. */
static int parse_args(int argc, char **argv)
{
	bool quick = false, sizes = false, repeat = false, seconds = false, no_ktls = false;
	bool dl_bytes = false;
	unsigned long long v;
	char *end;
	int c;

	cfg.kinds = BIT(PERF_KINDS) - 1;
	cfg.tests = BIT(PERF_TESTS) - 1;
	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		v = optarg ? parse_num(optarg) : 0;
		switch (c) {
		case O_QUICK:
			quick = true;
			break;
		case O_ONLY:
			if (parse_only(optarg))
				goto bad;
			break;
		case O_SIZES:
			if (parse_sizes(optarg))
				goto bad;
			sizes = true;
			break;
		case O_REPEAT:
			if (!v || v > MAX_REPEAT)
				goto bad;
			cfg.repeat = v;
			repeat = true;
			break;
		case O_SECONDS:
			perf_opt.seconds = strtod(optarg, &end);
			if (*end || !(perf_opt.seconds > 0 && perf_opt.seconds <= 3600))
				goto bad;
			seconds = true;
			break;
		case O_BYTES:
			if (!v)
				goto bad;
			perf_opt.bytes = v;
			break;
		case O_MTU:
			if (v < 1280 || v > 65535)
				goto bad;
			cfg.mtus[0] = v;
			break;
		case O_MTU_ALL:
			cfg.mtus[0] = 1500;
			cfg.mtus[1] = 9000;
			cfg.nmtus = 2;
			break;
		case O_PSK:
		case O_X509:
			perf_opt.x509 = c == O_X509;
			break;
		case O_NO_KTLS:
			no_ktls = true;
			break;
		case O_BUF:
			if (!v || v > (1 << 30))
				goto bad;
			perf_opt.buf = v;
			break;
		case O_WINDOW:
			if (!v || v >= (1ULL << 62))
				goto bad;
			perf_opt.window = v;
			break;
		case O_TIMEOUT:
			if (!v || v > 86400)
				goto bad;
			cfg.timeout = v;
			break;
		case O_CERTS:
			cert_dir = optarg;
			break;
		case O_DL_BYTES:
			if (!v || v > (1ULL << 32))
				goto bad;
			cfg.dl_bytes = v;
			dl_bytes = true;
			break;
		case O_TOOLS:
			perf_dl_tools = optarg;
			break;
		case O_HELP:
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		goto bad;
	if (!cfg.kinds)
		cfg.kinds = BIT(PERF_KINDS) - 1;
	if (!cfg.tests)
		cfg.tests = BIT(PERF_TESTS) - 1;
	if (no_ktls)
		cfg.kinds &= ~BIT(PERF_KTLS);
	if (!sizes) {
		static const size_t quick_sizes[] = { 1024, 65536 };
		static const size_t all_sizes[] = { 1024, 4096, 16384, 65536 };
		const size_t *s = quick ? quick_sizes : all_sizes;

		cfg.nsizes = quick ? 2 : 4;
		memcpy(cfg.sizes, s, cfg.nsizes * sizeof(*s));
	}
	if (quick && !repeat)
		cfg.repeat = 1;
	if (quick && !seconds)
		perf_opt.seconds = 1;
	if (quick && !dl_bytes)
		cfg.dl_bytes = 8 << 20;
	return -1;
bad:
	fprintf(stderr, "perf: bad option or value\n");
	print_usage(stderr);
	return 2;
}

/* ------------------------------------------------------------ the matrix */

static void add_row(int mtu, enum perf_test test, enum perf_kind kind, size_t size)
{
	struct row *r = &rows[nrows++];

	memset(r, 0, sizeof(*r));
	r->mtu = mtu;
	r->test = test;
	r->kind = kind;
	r->size = size;
}

static bool wanted(enum perf_test test, enum perf_kind kind)
{
	if (!(cfg.tests & BIT(test)) || !(cfg.kinds & BIT(kind)))
		return false;
	if (test == PERF_DL)
		return kind == PERF_QUIC || kind == PERF_NGTCP2;
	return kind != PERF_NGTCP2 && (test == PERF_TPUT || kind != PERF_NOCRYPT);
}

/* Every MTU: bulk per size and kind, then rr, then hs, then dl. */
static int build_rows(void)
{
	size_t max = cfg.nmtus * (cfg.nsizes * PERF_KINDS + ARRAY_SIZE(rr_sizes) * PERF_KINDS +
				  2 * PERF_KINDS);
	int m, i, k;

	rows = calloc(max, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (m = 0; m < cfg.nmtus; m++) {
		for (i = 0; i < cfg.nsizes; i++)
			for (k = 0; k < PERF_KINDS; k++)
				if (wanted(PERF_TPUT, k))
					add_row(cfg.mtus[m], PERF_TPUT, k, cfg.sizes[i]);
		for (i = 0; i < (int)ARRAY_SIZE(rr_sizes); i++)
			for (k = 0; k < PERF_KINDS; k++)
				if (wanted(PERF_RR, k))
					add_row(cfg.mtus[m], PERF_RR, k, rr_sizes[i]);
		for (k = 0; k < PERF_KINDS; k++)
			if (wanted(PERF_HS, k))
				add_row(cfg.mtus[m], PERF_HS, k, 0);
		for (k = 0; k < PERF_KINDS; k++)
			if (wanted(PERF_DL, k))
				add_row(cfg.mtus[m], PERF_DL, k, cfg.dl_bytes);
	}
	return 0;
}

/* MTU of both veth ends, each set from inside its namespace. */
static int set_mtu(int mtu)
{
	struct ifreq ifr;
	int side, fd, err = 0;

	for (side = 0; side < 2 && !err; side++) {
		err = netns_enter(&pair, side);
		fd = err ? -1 : socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", pair.ifname[side]);
		ifr.ifr_mtu = mtu;
		if (fd < 0 || ioctl(fd, SIOCSIFMTU, &ifr) || ioctl(fd, SIOCGIFMTU, &ifr))
			err = -errno;
		else if (ifr.ifr_mtu != mtu)
			err = -ERANGE;
		if (fd >= 0)
			close(fd);
		if (err)
			ktap_diag("MTU %d on %s: %s", mtu, pair.ifname[side], errno_name(-err));
	}
	netns_enter(&pair, -1);
	return err;
}

/*
 * The TCP handshake rows open thousands of connections a second: the
 * client gets every port there is, and the server, which closes first,
 * room for all the TIME_WAIT sockets that leaves (beyond the limit the
 * kernel drops them and logs it).
 */
static void ns_sysctls(void)
{
	static const struct {
		int side;
		const char *path, *value;
	} knobs[] = {
		{ 0, "/proc/sys/net/ipv4/ip_local_port_range", "1024 65535" },
		{ 1, "/proc/sys/net/ipv4/tcp_max_tw_buckets", "262144" },
	};
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		err = netns_enter(&pair, knobs[i].side);
		if (!err)
			err = write_file(knobs[i].path, knobs[i].value);
		if (err)
			ktap_diag("%s on side %d: %s", knobs[i].path, knobs[i].side,
				  errno_name(-err));
	}
	netns_enter(&pair, -1);
}

/* ------------------------------------------------------------ one run */

/*
 * Fork the process of @side for @j: it enters its namespace, runs, and
 * writes its struct perf_res into the pipe whose read end lands in *@fd
 * (the server first writes 'r' once it listens, 'x' if it cannot).
 */
static pid_t spawn(int side, const struct perf_job *j, int *fd)
{
	struct perf_res r;
	ssize_t n;
	pid_t pid;
	int p[2];
	char c;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		memset(&r, 0, sizeof(r));
		r.wire_short = -1;
		if (netns_enter(&pair, side)) {
			snprintf(r.why, sizeof(r.why), "entering side %d: %s", side,
				 errno_name(errno));
			c = 'x';
			if (side && write(p[1], &c, 1) != 1)
				_exit(1);
		} else if (side) {
			perf_server(j, p[1], &r);
		} else {
			perf_client(j, &r);
		}
		n = write(p[1], &r, sizeof(r));
		_exit(n == sizeof(r) ? 0 : 1);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

/* The server's first byte, within READY_S. */
static char wait_ready(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c = 0;

	if (poll(&pfd, 1, READY_S * 1000) == 1 && read(fd, &c, 1) == 1)
		return c;
	return 0;
}

/* The seconds a run of @r may take before it is killed. */
static int run_limit(const struct row *r)
{
	if (cfg.timeout)
		return cfg.timeout;
	if ((r->test == PERF_TPUT && perf_opt.bytes) || r->test == PERF_DL)
		return 300;
	return (int)(3 * perf_opt.seconds) + 60;
}

/* How long a side that failed leaves its peer to report. */
#define PEER_GRACE_S	3

struct side {
	pid_t pid;
	int fd;
	size_t got;		/* bytes of res read */
	bool eof;		/* the process closed its pipe */
	bool killed;		/* by the watchdog */
	struct perf_res res;
};

static bool side_done(const struct side *s)
{
	return s->pid < 0 || s->eof || s->got == sizeof(s->res);
}

/*
 * Read both results until @deadline. A side that reported a failure leaves
 * its peer PEER_GRACE_S to report what it saw (the peer often notices
 * nothing wrong and finishes), then the peer is killed. @stop_server: the
 * server runs until told, with SIGUSR1 once the client reported success.
 */
static void collect(struct side s[2], bool stop_server, double deadline)
{
	struct pollfd pfd[2];
	double left;
	ssize_t n;
	int i;

	while (!side_done(&s[0]) || !side_done(&s[1])) {
		left = deadline - now();
		if (left <= 0)
			break;
		for (i = 0; i < 2; i++) {
			pfd[i].fd = side_done(&s[i]) ? -1 : s[i].fd;
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		if (poll(pfd, 2, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			break;
		for (i = 0; i < 2; i++) {
			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			n = read(s[i].fd, (char *)&s[i].res + s[i].got,
				 sizeof(s[i].res) - s[i].got);
			if (n <= 0)
				s[i].eof = true;
			else
				s[i].got += n;
			if (s[i].got != sizeof(s[i].res) || side_done(&s[!i]))
				continue;
			if (!s[i].res.ok) {
				if (deadline > now() + PEER_GRACE_S)
					deadline = now() + PEER_GRACE_S;
			} else if (!i && stop_server) {
				/* The handshake server serves until told to stop. */
				kill(s[1].pid, SIGUSR1);
			}
		}
	}
	for (i = 0; i < 2; i++) {
		if (s[i].pid > 0 && s[i].got != sizeof(s[i].res) && !s[i].killed) {
			kill(s[i].pid, SIGKILL);
			s[i].killed = true;
		}
	}
}

/*
 * Why the run of @s has no figure, or "": a side that reported a failure
 * first (its peer killed if still running after the grace), then a side
 * that did not report.
 */
static void run_why(const struct side s[2], int limit, char *why, size_t len)
{
	static const char *const name[2] = { "client", "server" };
	size_t n = 0;
	int i;

	why[0] = '\0';
	for (i = 0; i < 2 && n < len; i++)
		if (s[i].got == sizeof(s[i].res) && !s[i].res.ok)
			n += snprintf(why + n, len - n, "%s%s: %s", n ? "; " : "", name[i],
				      s[i].res.why[0] ? s[i].res.why : "failed");
	for (i = 0; i < 2 && !why[0]; i++) {
		if (s[i].got == sizeof(s[i].res))
			continue;
		if (s[i].pid < 0)
			snprintf(why, len, "%s: not started", name[i]);
		else if (s[i].killed)
			snprintf(why, len, "%s: not done within %d s, killed", name[i], limit);
		else
			snprintf(why, len, "%s: ended without a result", name[i]);
	}
}

/* Print a child's note, one diagnostic per line. */
static void print_note(const char *note)
{
	char buf[sizeof(((struct perf_res *)0)->note)], *line, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", note);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		ktap_diag("  %s", line);
}

/* Compare what the two sides counted; the figure of the run into *@value. */
static bool judge(const struct row *r, const struct perf_res *c, const struct perf_res *s,
		  double *value, char *why, size_t len)
{
	if (c->secs <= 0) {
		snprintf(why, len, "no time measured");
		return false;
	}
	switch (r->test) {
	case PERF_TPUT:
		if (c->bytes != s->bytes || c->count != s->count) {
			snprintf(why, len, "sent %llu bytes in %llu messages, received %llu",
				 (unsigned long long)c->bytes, (unsigned long long)c->count,
				 (unsigned long long)s->bytes);
			return false;
		}
		*value = c->bytes * 8 / c->secs / 1e6;
		return true;
	case PERF_RR:
		if (c->count != s->count) {
			snprintf(why, len, "%llu exchanges made, %llu served",
				 (unsigned long long)c->count, (unsigned long long)s->count);
			return false;
		}
		break;
	default:
		if (c->count != s->count) {
			snprintf(why, len, "%llu connections made, %llu served",
				 (unsigned long long)c->count, (unsigned long long)s->count);
			return false;
		}
		break;
	}
	*value = c->count / c->secs;
	return true;
}

/* Run @r once; false with @why filled in when something broke. */
static bool run_once(const struct row *r, int rep, double *value, char *why, size_t len)
{
	struct side s[2] = { { .pid = -1, .fd = -1 }, { .pid = -1, .fd = -1 } };
	int limit = run_limit(r), status, i;
	struct perf_job j;
	bool ok = false;
	char c;

	memset(&j, 0, sizeof(j));
	j.kind = r->kind;
	j.test = r->test;
	j.size = r->size;
	j.port = next_port++;
	if (next_port > PORT_LAST)
		next_port = PORT_BASE;
	j.server.sin_family = AF_INET;
	j.server.sin_port = htons(j.port);
	j.server.sin_addr = pair.addr4[1];
	j.client_ifname = pair.ifname[0];
	j.first = !rep;
	j.wire_check = !rep && r->test == PERF_TPUT && perf_is_quic(r->kind);
	if (r->test == PERF_DL)
		return perf_dl_run(&pair, &j, r->size, limit, value, why, len);

	s[1].pid = spawn(1, &j, &s[1].fd);
	c = s[1].pid > 0 ? wait_ready(s[1].fd) : 0;
	if (c == 'r')
		s[0].pid = spawn(0, &j, &s[0].fd);
	if ((c == 'r' && s[0].pid > 0) || c == 'x')
		collect(s, r->test == PERF_HS, now() + (c == 'r' ? limit : READY_S));
	else if (s[1].pid > 0)
		s[1].killed = true;	/* no client, not listening in time, or dead */

	for (i = 0; i < 2; i++) {
		if (s[i].pid > 0) {
			if (s[i].killed)
				kill(s[i].pid, SIGKILL);
			waitpid(s[i].pid, &status, 0);
		}
		if (s[i].fd >= 0)
			close(s[i].fd);
	}
	if (c != 'r' && c != 'x')
		snprintf(why, len, "server: not listening within %d s", READY_S);
	else if (c == 'r' && s[0].pid < 0)
		snprintf(why, len, "client: fork failed");
	else
		run_why(s, limit, why, len);
	if (!why[0])
		ok = judge(r, &s[0].res, &s[1].res, value, why, len);
	if ((!rep || !ok) && s[0].got == sizeof(s[0].res))
		print_note(s[0].res.note);
	/* The server's note holds only what perf_sock_report_end() found. */
	if (!ok && s[1].got == sizeof(s[1].res) && s[1].res.note[0]) {
		ktap_diag("server:");
		print_note(s[1].res.note);
	}
	/* How full the sender's packets were: writes coalesced or not. */
	if (ok && s[0].res.pkts)
		ktap_diag("bench-pkts %s %zu run=%d packets=%llu bytes_per_packet=%.0f mtu=%d",
			  kind_names[r->kind], r->size, rep + 1,
			  (unsigned long long)s[0].res.pkts,
			  (double)s[0].res.bytes / s[0].res.pkts, r->mtu);
	if (j.wire_check && s[0].got == sizeof(s[0].res) && s[0].res.wire_short >= 0)
		ktap_diag("bench-wire %s %zu negotiated=%d short=%d clear=%d mtu=%d",
			  kind_names[r->kind], r->size, s[0].res.nocrypt_negotiated,
			  s[0].res.wire_short, s[0].res.wire_clear, r->mtu);
	return ok;
}

static void run_row(struct row *r)
{
	char name[64], why[512], vals[MAX_REPEAT * 12] = "";
	size_t n = 0;
	double v;
	int rep;

	row_name(r, name, sizeof(name));
	r->ok = true;
	if (r->test == PERF_DL && !setup_err[0] && !perf_dl_available(r->kind, why, sizeof(why))) {
		/* Not every image has both programs (ngtcp2's: native builds). */
		r->skipped = true;
		ktap_skip(why, "%s", name);
		return;
	}
	if (setup_err[0] || (r->test == PERF_DL && dl_err[0]) ||
	    (r->kind != PERF_TCP && r->test != PERF_DL && creds_err[0])) {
		ktap_diag("%s: %s", name, setup_err[0] ? setup_err :
			  r->test == PERF_DL ? dl_err : creds_err);
		r->ok = false;
	}
	for (rep = 0; r->ok && rep < cfg.repeat; rep++) {
		if (!run_once(r, rep, &v, why, sizeof(why))) {
			ktap_diag("%s: run %d of %d: %s", name, rep + 1, cfg.repeat, why);
			r->ok = false;
			break;
		}
		r->v[r->nv++] = v;
		if (n < sizeof(vals))
			n += snprintf(vals + n, sizeof(vals) - n, " %.1f", v);
	}
	if (r->nv)
		ktap_diag("%s:%s %s", name, vals, test_units[r->test]);
	ktap_result(r->ok, "%s", name);
}

/* ------------------------------------------------------------ tables */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median, min and max of an ok row; false for a failed or absent one. */
static bool stats(const struct row *r, double *med, double *min, double *max)
{
	double v[MAX_REPEAT];

	if (!r || !r->ok || !r->nv)
		return false;
	memcpy(v, r->v, r->nv * sizeof(v[0]));
	qsort(v, r->nv, sizeof(v[0]), cmp_double);
	*min = v[0];
	*max = v[r->nv - 1];
	*med = r->nv % 2 ? v[r->nv / 2] : (v[r->nv / 2 - 1] + v[r->nv / 2]) / 2;
	return true;
}

static const struct row *find_row(int mtu, enum perf_test test, enum perf_kind kind,
				  size_t size)
{
	int i;

	for (i = 0; i < nrows; i++)
		if (rows[i].mtu == mtu && rows[i].test == test && rows[i].kind == kind &&
		    rows[i].size == size)
			return &rows[i];
	return NULL;
}

/* Three significant digits or so, whatever the magnitude. */
static const char *num(double v, char *buf, size_t len)
{
	snprintf(buf, len, v >= 1000 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
	return buf;
}

/* "1234 (1200..1300)", "failed" or "-". */
static const char *cell(const struct row *r, char *buf, size_t len)
{
	char a[24], b[24], c[24];
	double med, min, max;

	if (!r || r->skipped)
		snprintf(buf, len, "-");
	else if (!stats(r, &med, &min, &max))
		snprintf(buf, len, "failed");
	else
		snprintf(buf, len, "%s (%s..%s)", num(med, a, sizeof(a)), num(min, b, sizeof(b)),
			 num(max, c, sizeof(c)));
	return buf;
}

/* Median of @a over median of @b, and the extremes the spreads allow. */
static bool ratio(const struct row *a, const struct row *b, double *med, double *lo,
		  double *hi)
{
	double am, amin, amax, bm, bmin, bmax;

	if (!stats(a, &am, &amin, &amax) || !stats(b, &bm, &bmin, &bmax) || !bm || !bmin)
		return false;
	*med = am / bm;
	*lo = amin / bmax;
	*hi = amax / bmin;
	return true;
}

static const char *ratio_cell(const struct row *a, const struct row *b, char *buf, size_t len)
{
	double med, lo, hi;

	if (ratio(a, b, &med, &lo, &hi))
		snprintf(buf, len, "%.2f", med);
	else
		snprintf(buf, len, "-");
	return buf;
}

/*
 * One table: sizes down, the kinds of @kinds across, then the ratios
 * @ra/@rb and @rc/@rd (none when @rc is PERF_KINDS).
 */
static void print_table(int mtu, enum perf_test test, const enum perf_kind *kinds, int nk,
			const size_t *sizes, int ns, enum perf_kind ra, enum perf_kind rb,
			enum perf_kind rc, enum perf_kind rd)
{
	char line[512], buf[80], sz[24], h1[32], h2[32];
	const struct row *r;
	size_t n;
	int i, k;

	snprintf(h1, sizeof(h1), "%s/%s", kind_names[ra], kind_names[rb]);
	h2[0] = '\0';
	if (rc < PERF_KINDS)
		snprintf(h2, sizeof(h2), "%s/%s", kind_names[rc], kind_names[rd]);
	n = snprintf(line, sizeof(line), "%-6s", test == PERF_HS ? "" : "size");
	for (k = 0; k < nk; k++)
		n += snprintf(line + n, sizeof(line) - n, " %-22s", kind_names[kinds[k]]);
	snprintf(line + n, sizeof(line) - n, " %-16s %s", h1, h2);
	ktap_diag("%s", line);
	for (i = 0; i < ns; i++) {
		n = snprintf(line, sizeof(line), "%-6s",
			     test == PERF_HS ? "" : size_name(sizes[i], sz, sizeof(sz)));
		for (k = 0; k < nk; k++) {
			r = find_row(mtu, test, kinds[k], sizes[i]);
			n += snprintf(line + n, sizeof(line) - n, " %-22s",
				      cell(r, buf, sizeof(buf)));
		}
		n += snprintf(line + n, sizeof(line) - n, " %-16s",
			      ratio_cell(find_row(mtu, test, ra, sizes[i]),
					 find_row(mtu, test, rb, sizes[i]), buf, sizeof(buf)));
		if (rc < PERF_KINDS)
			snprintf(line + n, sizeof(line) - n, " %s",
				 ratio_cell(find_row(mtu, test, rc, sizes[i]),
					    find_row(mtu, test, rd, sizes[i]), buf, sizeof(buf)));
		ktap_diag("%s", line);
	}
}

static void bench_ratio(int mtu, enum perf_test test, size_t size, enum perf_kind a,
			enum perf_kind b)
{
	double med, lo, hi;

	if (ratio(find_row(mtu, test, a, size), find_row(mtu, test, b, size), &med, &lo, &hi))
		ktap_diag("bench %s/%s %zu %s median=%.4g min=%.4g max=%.4g unit=ratio mtu=%d",
			  kind_names[a], kind_names[b], size, test_names[test], med, lo, hi, mtu);
}

/* The machine-readable lines of @mtu's rows and ratios. */
static void print_bench(int mtu)
{
	double med, min, max;
	const struct row *r;
	int i;

	for (i = 0; i < nrows; i++) {
		r = &rows[i];
		if (r->mtu != mtu || r->skipped)
			continue;
		if (!stats(r, &med, &min, &max)) {
			med = NAN;
			min = NAN;
			max = NAN;
		}
		ktap_diag("bench %s %zu %s median=%.6g min=%.6g max=%.6g unit=%s mtu=%d runs=%d",
			  kind_names[r->kind], r->size, test_names[r->test], med, min, max,
			  test_units[r->test], mtu, r->nv);
	}
	for (i = 0; i < cfg.nsizes; i++) {
		bench_ratio(mtu, PERF_TPUT, cfg.sizes[i], PERF_QUIC, PERF_KTLS);
		bench_ratio(mtu, PERF_TPUT, cfg.sizes[i], PERF_NOCRYPT, PERF_TCP);
	}
	for (i = 0; i < (int)ARRAY_SIZE(rr_sizes); i++) {
		bench_ratio(mtu, PERF_RR, rr_sizes[i], PERF_QUIC, PERF_KTLS);
		bench_ratio(mtu, PERF_RR, rr_sizes[i], PERF_QUIC, PERF_TCP);
	}
	bench_ratio(mtu, PERF_HS, 0, PERF_QUIC, PERF_KTLS);
	bench_ratio(mtu, PERF_HS, 0, PERF_QUIC, PERF_TCP);
	bench_ratio(mtu, PERF_DL, cfg.dl_bytes, PERF_QUIC, PERF_NGTCP2);
}

static void print_tables(int mtu)
{
	static const enum perf_kind tput_kinds[] = { PERF_QUIC, PERF_NOCRYPT, PERF_TCP, PERF_KTLS };
	static const enum perf_kind kinds3[] = { PERF_QUIC, PERF_TCP, PERF_KTLS };
	static const enum perf_kind dl_kinds[] = { PERF_QUIC, PERF_NGTCP2 };
	static const size_t hs_size[] = { 0 };
	const char *runs = cfg.repeat == 1 ? "run" : "runs";

	ktap_diag("==== MTU %d: median (min..max) of %d %s; ratios of the medians", mtu,
		  cfg.repeat, runs);
	if (cfg.tests & BIT(PERF_TPUT)) {
		if (perf_opt.bytes)
			ktap_diag("bulk transfer, Mbit/s, %llu bytes per run",
				  (unsigned long long)perf_opt.bytes);
		else
			ktap_diag("bulk transfer, Mbit/s, %g s per run", perf_opt.seconds);
		print_table(mtu, PERF_TPUT, tput_kinds, ARRAY_SIZE(tput_kinds), cfg.sizes,
			    cfg.nsizes, PERF_QUIC, PERF_KTLS, PERF_NOCRYPT, PERF_TCP);
	}
	if (cfg.tests & BIT(PERF_RR)) {
		ktap_diag("request/response, transactions/s, %g s per run", perf_opt.seconds);
		print_table(mtu, PERF_RR, kinds3, ARRAY_SIZE(kinds3), rr_sizes,
			    ARRAY_SIZE(rr_sizes), PERF_QUIC, PERF_KTLS, PERF_QUIC, PERF_TCP);
	}
	if (cfg.tests & BIT(PERF_HS)) {
		ktap_diag("connections (handshake + close) per second, %s, %g s per run",
			  perf_opt.x509 ? "X.509" : "PSK", perf_opt.seconds);
		print_table(mtu, PERF_HS, kinds3, ARRAY_SIZE(kinds3), hs_size, 1, PERF_QUIC,
			    PERF_KTLS, PERF_QUIC, PERF_TCP);
	}
	if (cfg.tests & BIT(PERF_DL)) {
		ktap_diag("HTTP/3 download of one file, Mbit/s: quic = tools/quic on the kernel,");
		ktap_diag("ngtcp2 = its example programs in userspace");
		print_table(mtu, PERF_DL, dl_kinds, ARRAY_SIZE(dl_kinds), &cfg.dl_bytes, 1,
			    PERF_QUIC, PERF_NGTCP2, PERF_KINDS, PERF_KINDS);
	}
	print_bench(mtu);
}

/* ------------------------------------------------------------ main */

/* The QUIC and kTLS rows need the credentials; say once which is missing. */
static void check_creds(void)
{
	static const char *const x509[] = { "server.pem", "server.key", "ca.pem" };
	static const char *const psk[] = { "psk-alice.txt" };
	const char *const *files = perf_opt.x509 ? x509 : psk;
	unsigned int i, nr = perf_opt.x509 ? ARRAY_SIZE(x509) : ARRAY_SIZE(psk);

	for (i = 0; i < nr; i++) {
		if (access(cert_path(files[i]), R_OK)) {
			snprintf(creds_err, sizeof(creds_err),
				 "%s: %s (the QUIC and kTLS rows need it; --certs DIR)",
				 cert_path(files[i]), errno_name(errno));
			return;
		}
	}
}

int main(int argc, char **argv)
{
	double t0 = now(), est;
	size_t max_size = 1024;
	bool have_pair;
	int ret, i, m;

	ret = parse_args(argc, argv);
	if (ret >= 0)
		return ret;
	if (build_rows()) {
		fprintf(stderr, "perf: out of memory\n");
		return 1;
	}
	ktap_plan(nrows);
	for (i = 0; i < cfg.nsizes; i++)
		if (cfg.sizes[i] > max_size)
			max_size = cfg.sizes[i];
	est = nrows * cfg.repeat * (perf_opt.seconds + 0.5);
	ktap_diag("bench-config seconds=%g bytes=%llu repeat=%d auth=%s buf=%d window=%llu %s=%d",
		  perf_opt.seconds, (unsigned long long)perf_opt.bytes, cfg.repeat,
		  perf_opt.x509 ? "x509" : "psk", perf_opt.buf,
		  (unsigned long long)perf_opt.window, "plpmtud_us", PERF_PLPMTUD_US);
	ktap_diag("SO_SNDBUF/SO_RCVBUF %d asked for (the kernel doubles it); QUIC: max_data,",
		  perf_opt.buf);
	ktap_diag("max_stream_data_bidi_local and _remote %llu, AES-128-GCM, PLPMTUD every %d s",
		  (unsigned long long)perf_opt.window, PERF_PLPMTUD_US / 1000000);
	if (!perf_opt.bytes)
		ktap_diag("%d rows x %d runs: about %.0f s", nrows, cfg.repeat, est);

	signal(SIGPIPE, SIG_IGN);
	quic_set_log_func(perf_libquic_log);
	quic_set_ca_file(cert_path("ca.pem"));
	if (perf_pattern_init(max_size))
		snprintf(setup_err, sizeof(setup_err), "out of memory");
	if (cfg.kinds & ~BIT(PERF_TCP))
		check_creds();
	for (i = 0; i < nrows && !dl_err[0]; i++) {
		if (rows[i].test != PERF_DL)
			continue;
		ret = perf_dl_prepare(cfg.dl_bytes);
		if (ret)
			snprintf(dl_err, sizeof(dl_err), "the file to serve: %s",
				 errno_name(-ret));
		break;
	}
	if (creds_err[0])
		ktap_diag("%s", creds_err);
	if (!setup_err[0] && netns_pair_create(&pair))
		snprintf(setup_err, sizeof(setup_err), "no namespace pair (see above)");
	have_pair = !setup_err[0];
	if (have_pair)
		ns_sysctls();

	for (m = 0; m < cfg.nmtus; m++) {
		if (!setup_err[0] && set_mtu(cfg.mtus[m]))
			snprintf(setup_err, sizeof(setup_err), "the MTU could not be set");
		else if (!setup_err[0])
			ktap_diag("MTU %d on %s and %s", cfg.mtus[m], pair.ifname[0],
				  pair.ifname[1]);
		for (i = 0; i < nrows; i++)
			if (rows[i].mtu == cfg.mtus[m])
				run_row(&rows[i]);
		print_tables(cfg.mtus[m]);
	}
	ktap_diag("done in %.0f s", now() - t0);
	if (have_pair)
		netns_pair_destroy(&pair);
	perf_dl_cleanup();
	quic_set_ca_file(NULL);
	free(rows);
	return ktap_finish();
}
