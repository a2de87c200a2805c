/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The throughput benchmark (perf.c): what its parent process and the two
 * processes of one run share. perf.c owns the options, the matrix of rows
 * and the watchdog; perf_run.c the client and server of each measurement;
 * perf_sock.c socket set-up (QUIC options, the kTLS handshake, the wire
 * check of disable_1rtt_encryption).
 */

#ifndef __QUIC_SELFTEST_PERF_H__
#define __QUIC_SELFTEST_PERF_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

/* What carries the data. */
enum perf_kind {
	PERF_QUIC,		/* QUIC, AES-128-GCM */
	PERF_NOCRYPT,		/* QUIC with disable_1rtt_encryption on both sides */
	PERF_TCP,		/* plain TCP */
	PERF_KTLS,		/* TCP + TLS 1.3 (GnuTLS) + kTLS TX/RX, AES-128-GCM */
	PERF_NGTCP2,		/* ngtcp2's examples: QUIC in userspace (downloads only) */
	PERF_KINDS,
};

/* What is measured. */
enum perf_test {
	PERF_TPUT,		/* bulk transfer in messages of one size */
	PERF_RR,		/* request/response, one exchange at a time */
	PERF_HS,		/* connection set-up and close */
	PERF_DL,		/* one HTTP/3 download by a pair of programs */
	PERF_TESTS,
};

/* Settings every run uses, from the command line. */
struct perf_opts {
	double seconds;		/* per run (throughput: unless bytes is set) */
	uint64_t bytes;		/* throughput: fixed volume instead, 0: by time */
	int buf;		/* SO_SNDBUF/SO_RCVBUF asked for (the kernel doubles it) */
	uint64_t window;	/* QUIC max_data and max_stream_data_bidi_* */
	int io_timeout;		/* SO_RCVTIMEO/SO_SNDTIMEO, seconds */
	bool x509;		/* certificates instead of the PSK */
};

extern struct perf_opts perf_opt;

/* One run as its two processes see it. */
struct perf_job {
	enum perf_kind kind;
	enum perf_test test;
	size_t size;		/* message, request and response size */
	int port;
	struct sockaddr_in server;	/* address of side 1 and @port */
	const char *client_ifname;	/* side 0's veth, for the wire check */
	bool first;		/* first run of its row: report what was set */
	bool wire_check;	/* QUIC bulk: look at the 1-RTT packets sent */
};

/*
 * What one process of a run reports. Throughput: @bytes moved in @count
 * messages; request/response: @count exchanges; handshakes: @count
 * connections. @secs: the client's measured time.
 */
struct perf_res {
	int ok;
	uint64_t bytes;
	uint64_t count;
	double secs;
	/* QUIC, first run: disable_1rtt_encryption sent by both, the wire check */
	int nocrypt_negotiated;
	int wire_short;		/* -1: no wire check */
	int wire_clear;
	/* QUIC bulk client: packets its namespace protected during the transfer */
	uint64_t pkts;
	char why[240];
	char note[1024];
};

/* The byte at offset @off of every bulk transfer, and of nothing else. */
#define PERF_PATTERN_PERIOD	251
static inline uint8_t perf_pattern(uint64_t off)
{
	return off % PERF_PATTERN_PERIOD;
}

/* perf_run.c: the two sides of one run. Each returns with @r filled in. */
void perf_server(const struct perf_job *j, int ready_fd, struct perf_res *r);
void perf_client(const struct perf_job *j, struct perf_res *r);
int perf_pattern_init(size_t max_size);

/* perf_sock.c */
#define PERF_ALPN	"perf"
#define PERF_HOSTNAME	"server.test"	/* the SAN of server.pem */
/* PLPMTUD probe interval (microseconds): the kernel's minimum, 5 s. */
#define PERF_PLPMTUD_US	5000000

bool perf_is_quic(enum perf_kind kind);
int perf_sock_open(const struct perf_job *j, bool listener, char *why, size_t len);
int perf_sock_accepted(const struct perf_job *j, int fd);
int perf_handshake(const struct perf_job *j, int fd, bool server, char *why, size_t len);
void perf_sock_describe(const struct perf_job *j, int fd, struct perf_res *r);
void perf_sock_report_end(const struct perf_job *j, int fd, struct perf_res *r);
uint64_t perf_sock_quic_packets(void);
void perf_libquic_log(int level, const char *msg);
const char *perf_libquic_last(void);

/*
 * perf_dl.c: the download rows, run by programs (tools/quic's for kind
 * quic, ngtcp2's examples for kind ngtcp2) rather than by perf's own code.
 */
struct netns_pair;
extern const char *perf_dl_tools;	/* where quic-server and quic-client are */
bool perf_dl_available(enum perf_kind kind, char *why, size_t len);
int perf_dl_prepare(uint64_t bytes);
bool perf_dl_run(const struct netns_pair *pair, const struct perf_job *j, uint64_t bytes,
		 int limit, double *mbps, char *why, size_t len);
void perf_dl_cleanup(void);

/* Capture of the client's first 1-RTT packets on its veth. */
struct perf_wire {
	int fd;
	unsigned int short_pkts;	/* 1-RTT (short header) packets seen */
	unsigned int clear_pkts;	/* ... carrying the data in the clear */
};

int perf_wire_open(struct perf_wire *w, const char *ifname);
void perf_wire_scan(struct perf_wire *w, int port);

#endif /* __QUIC_SELFTEST_PERF_H__ */
