// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Socket set-up for the throughput benchmark (perf.c): the options every
 * socket of a run gets, the handshakes (libquic for QUIC; GnuTLS then the
 * kernel's TLS ULP for kTLS), what a run reports about its sockets, and the
 * capture that tells whether disable_1rtt_encryption took effect.
 *
 * kTLS: TLS 1.3 with AES-128-GCM only, no session tickets (a
 * NewSessionTicket after the handshake would reach kTLS as a handshake
 * record, which recv() refuses), then TCP_ULP "tls" and TLS_TX/TLS_RX
 * with the traffic keys, IVs and record sequence numbers GnuTLS used. The
 * credentials are read for every handshake, as libquic's one-call
 * handshake does for QUIC, so that the handshake rows compare the same
 * userspace work.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/tls.h>
#include <netinet/tcp.h>
#include <gnutls/gnutls.h>
#include <netinet/quic.h>

#include "ktap.h"
#include "perf.h"
#include "util.h"

#ifndef SOL_TLS
#define SOL_TLS		282
#endif
#ifndef TCP_ULP
#define TCP_ULP		31
#endif

#define TLS_PRIO	"NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM"
#define TLS_PRIO_PSK	":+ECDHE-PSK:+DHE-PSK:+PSK"
#define PSK_FILE	"psk-alice.txt"

/* A run of this many bytes of the pattern in a packet: the data is in the clear. */
#define CLEAR_RUN	32

static char lib_last[200];

bool perf_is_quic(enum perf_kind kind)
{
	return kind == PERF_QUIC || kind == PERF_NOCRYPT;
}

/* libquic's messages are kept, not printed: a failed run reports the last. */
void perf_libquic_log(int level, const char *msg)
{
	snprintf(lib_last, sizeof(lib_last), "%s", msg);
}

const char *perf_libquic_last(void)
{
	return lib_last;
}

/*
 * SO_SNDBUF and SO_RCVBUF of perf_opt.buf, past net.core.[rw]mem_max
 * (the FORCE variants, we are root), else as far as those allow.
 */
static int perf_sock_bufs(int fd)
{
	int v = perf_opt.buf, err = 0;

	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v)) &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)))
		err = -1;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)))
		err = -1;
	return err;
}

/*
 * AES-128-GCM (libquic offers only the cipher named here), PLPMTUD, and
 * the flow-control windows: max_data and the per-stream limits of the
 * bidirectional streams bound what a connection may have in flight, at
 * 1 MiB and 256 KiB by default (net/quic/socket.h).
 */
static int quic_setup(const struct perf_job *j, int fd, char *why, size_t len)
{
	struct quic_transport_param p;
	struct quic_config c;
	socklen_t l;

	memset(&c, 0, sizeof(c));
	l = sizeof(c);
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &c, &l))
		goto fail;
	c.payload_cipher_type = TLS_CIPHER_AES_GCM_128;
	c.plpmtud_probe_interval = PERF_PLPMTUD_US;
	c.stream_data_nodelay = j->test == PERF_RR;
	if (setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &c, sizeof(c)))
		goto fail;

	memset(&p, 0, sizeof(p));	/* remote = 0: our own parameters */
	l = sizeof(p);
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, &l))
		goto fail;
	p.max_data = perf_opt.window;
	p.max_stream_data_bidi_local = perf_opt.window;
	p.max_stream_data_bidi_remote = perf_opt.window;
	p.disable_1rtt_encryption = j->kind == PERF_NOCRYPT;
	if (setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &p, sizeof(p)))
		goto fail;
	return 0;
fail:
	snprintf(why, len, "QUIC socket options: %s", errno_name(errno));
	return -1;
}

/*
 * A socket for @j with every option set: timeouts, buffers, and QUIC's
 * settings or, for request/response over TCP, TCP_NODELAY. Returns the
 * descriptor, or -1 with @why filled in.
 */
int perf_sock_open(const struct perf_job *j, bool listener, char *why, size_t len)
{
	bool quic = perf_is_quic(j->kind);
	int one = 1, fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, quic ? IPPROTO_QUIC : IPPROTO_TCP);
	if (fd < 0) {
		snprintf(why, len, "socket(IPPROTO_%s): %s%s", quic ? "QUIC" : "TCP",
			 errno_name(errno),
			 errno == EPROTONOSUPPORT ? " (no QUIC in this kernel)" : "");
		return -1;
	}
	sock_timeouts(fd, perf_opt.io_timeout);
	if (perf_sock_bufs(fd)) {
		snprintf(why, len, "SO_SNDBUF/SO_RCVBUF: %s", errno_name(errno));
		goto fail;
	}
	if (quic) {
		if (quic_setup(j, fd, why, len))
			goto fail;
		return fd;
	}
	if ((listener && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one))) ||
	    (j->test == PERF_RR && setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))) {
		snprintf(why, len, "TCP socket options: %s", errno_name(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/*
 * An accepted socket: it takes the listener's timeouts and TCP_NODELAY,
 * but an accepted QUIC socket not its buffer sizes; all are set again.
 * Returns 0 or -1 with errno set.
 */
int perf_sock_accepted(const struct perf_job *j, int fd)
{
	int one = 1;

	sock_timeouts(fd, perf_opt.io_timeout);
	if (perf_sock_bufs(fd))
		return -1;
	if (j->test == PERF_RR && !perf_is_quic(j->kind))
		return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return 0;
}

/* ------------------------------------------------------------ kTLS */

/* The first "identity:hexkey" line of the PSK file. */
static int psk_read(char *id, size_t idlen, char *hex, size_t hexlen)
{
	char line[512], *sep, *end;
	int ret = -ENOKEY;
	FILE *f;

	f = fopen(cert_path(PSK_FILE), "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		end = line + strcspn(line, "\r\n");
		*end = '\0';
		sep = strchr(line, ':');
		if (line[0] == '#' || !sep || sep == line || !sep[1])
			continue;
		*sep = '\0';
		if (strlen(line) < idlen && strlen(sep + 1) < hexlen) {
			memcpy(id, line, strlen(line) + 1);
			memcpy(hex, sep + 1, strlen(sep + 1) + 1);
			ret = 0;
		}
		break;
	}
	explicit_bzero(line, sizeof(line));
	fclose(f);
	return ret;
}

struct tls_creds {
	gnutls_certificate_credentials_t cert;
	gnutls_psk_client_credentials_t psk_client;
	gnutls_psk_server_credentials_t psk_server;
};

static void tls_creds_free(struct tls_creds *c)
{
	if (c->cert)
		gnutls_certificate_free_credentials(c->cert);
	if (c->psk_client)
		gnutls_psk_free_client_credentials(c->psk_client);
	if (c->psk_server)
		gnutls_psk_free_server_credentials(c->psk_server);
}

/* The same credentials as the QUIC rows: PSK "alice", or server.test's certificate. */
static int tls_creds_set(gnutls_session_t s, struct tls_creds *c, bool server)
{
	char id[128], hex[256];
	gnutls_datum_t key;
	int ret;

	if (perf_opt.x509) {
		if (gnutls_certificate_allocate_credentials(&c->cert))
			return GNUTLS_E_MEMORY_ERROR;
		if (server)
			ret = gnutls_certificate_set_x509_key_file(c->cert, cert_path("server.pem"),
								   cert_path("server.key"),
								   GNUTLS_X509_FMT_PEM);
		else
			ret = gnutls_certificate_set_x509_trust_file(c->cert, cert_path("ca.pem"),
								     GNUTLS_X509_FMT_PEM);
		if (ret < 0)
			return ret;
		if (!server) {
			gnutls_session_set_verify_cert(s, PERF_HOSTNAME, 0);
			ret = gnutls_server_name_set(s, GNUTLS_NAME_DNS, PERF_HOSTNAME,
						     strlen(PERF_HOSTNAME));
			if (ret)
				return ret;
		}
		return gnutls_credentials_set(s, GNUTLS_CRD_CERTIFICATE, c->cert);
	}
	if (server) {
		if (gnutls_psk_allocate_server_credentials(&c->psk_server))
			return GNUTLS_E_MEMORY_ERROR;
		ret = gnutls_psk_set_server_credentials_file(c->psk_server, cert_path(PSK_FILE));
		return ret ? ret : gnutls_credentials_set(s, GNUTLS_CRD_PSK, c->psk_server);
	}
	if (psk_read(id, sizeof(id), hex, sizeof(hex)))
		return GNUTLS_E_FILE_ERROR;
	if (gnutls_psk_allocate_client_credentials(&c->psk_client))
		return GNUTLS_E_MEMORY_ERROR;
	key.data = (unsigned char *)hex;
	key.size = strlen(hex);
	ret = gnutls_psk_set_client_credentials(c->psk_client, id, &key, GNUTLS_PSK_KEY_HEX);
	explicit_bzero(hex, sizeof(hex));
	return ret ? ret : gnutls_credentials_set(s, GNUTLS_CRD_PSK, c->psk_client);
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A failed GnuTLS call as an errno: the peer's close stays recognisable. */
static int tls_errno(int ret)
{
	switch (ret) {
	case GNUTLS_E_PREMATURE_TERMINATION:
		return -ECONNRESET;
	case GNUTLS_E_PUSH_ERROR:
		return -EPIPE;
	case GNUTLS_E_PULL_ERROR:
		return errno ? -errno : -EIO;
	case GNUTLS_E_FILE_ERROR:
		return -ENOENT;
	case GNUTLS_E_MEMORY_ERROR:
		return -ENOMEM;
	default:
		return -EPROTO;
	}
}

/* One direction's traffic keys from GnuTLS into the kernel. */
static int ktls_set(gnutls_session_t s, int fd, bool tx, char *why, size_t len)
{
	struct tls12_crypto_info_aes_gcm_128 ci;
	gnutls_datum_t mac, iv, key;
	unsigned char seq[8];
	int ret;

	ret = gnutls_record_get_state(s, !tx, &mac, &iv, &key, seq);
	if (ret || key.size != sizeof(ci.key) || iv.size != sizeof(ci.salt) + sizeof(ci.iv)) {
		snprintf(why, len, "gnutls_record_get_state: %s (key %u, iv %u bytes)",
			 ret ? gnutls_strerror(ret) : "unexpected sizes", key.size, iv.size);
		return -EPROTO;
	}
	memset(&ci, 0, sizeof(ci));
	ci.info.version = TLS_1_3_VERSION;
	ci.info.cipher_type = TLS_CIPHER_AES_GCM_128;
	memcpy(ci.key, key.data, sizeof(ci.key));
	memcpy(ci.salt, iv.data, sizeof(ci.salt));
	memcpy(ci.iv, iv.data + sizeof(ci.salt), sizeof(ci.iv));
	memcpy(ci.rec_seq, seq, sizeof(ci.rec_seq));
	ret = setsockopt(fd, SOL_TLS, tx ? TLS_TX : TLS_RX, &ci, sizeof(ci)) ? -errno : 0;
	explicit_bzero(&ci, sizeof(ci));
	if (ret)
		snprintf(why, len, "setsockopt(SOL_TLS, %s): %s", tx ? "TLS_TX" : "TLS_RX",
			 errno_name(-ret));
	return ret;
}

/*
 * TLS 1.3 over the connected TCP socket @fd, then the kernel takes over
 * the record layer. Returns 0 or a negative errno with @why filled in.
 */
static int ktls_handshake(int fd, bool server, char *why, size_t len)
{
	const gnutls_datum_t alpn = { (unsigned char *)PERF_ALPN, sizeof(PERF_ALPN) - 1 };
	double deadline = mono() + perf_opt.io_timeout;
	struct tls_creds creds = {};
	gnutls_session_t s;
	int ret, err;

	if (gnutls_init(&s, (server ? GNUTLS_SERVER : GNUTLS_CLIENT) | GNUTLS_NO_TICKETS)) {
		snprintf(why, len, "gnutls_init failed");
		return -ENOMEM;
	}
	ret = gnutls_priority_set_direct(s, perf_opt.x509 ? TLS_PRIO : TLS_PRIO TLS_PRIO_PSK,
					 NULL);
	if (!ret)
		ret = tls_creds_set(s, &creds, server);
	if (!ret)
		ret = gnutls_alpn_set_protocols(s, &alpn, 1, server ? GNUTLS_ALPN_MANDATORY : 0);
	if (ret) {
		snprintf(why, len, "TLS set-up: %s", gnutls_strerror(ret));
		err = tls_errno(ret);
		goto out;
	}
	gnutls_transport_set_int(s, fd);
	do {
		ret = gnutls_handshake(s);
	} while (ret < 0 && !gnutls_error_is_fatal(ret) && mono() < deadline);
	if (ret) {
		snprintf(why, len, "TLS %s handshake: %s", server ? "server" : "client",
			 gnutls_strerror(ret));
		err = ret == GNUTLS_E_AGAIN ? -ETIMEDOUT : tls_errno(ret);
		goto out;
	}
	if (gnutls_protocol_get_version(s) != GNUTLS_TLS1_3 ||
	    gnutls_cipher_get(s) != GNUTLS_CIPHER_AES_128_GCM || gnutls_record_check_pending(s)) {
		snprintf(why, len, "TLS: not TLS 1.3 with AES-128-GCM, or data left in GnuTLS");
		err = -EPROTO;
		goto out;
	}
	if (setsockopt(fd, IPPROTO_TCP, TCP_ULP, "tls", sizeof("tls"))) {
		err = -errno;
		snprintf(why, len, "setsockopt(TCP_ULP, \"tls\"): %s%s", errno_name(errno),
			 errno == ENOENT ? " (no CONFIG_TLS in this kernel)" : "");
		goto out;
	}
	err = ktls_set(s, fd, true, why, len);
	if (!err)
		err = ktls_set(s, fd, false, why, len);
out:
	gnutls_deinit(s);
	tls_creds_free(&creds);
	return err;
}

static int set_nodelay(int fd, bool on)
{
	int v = on;

	return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &v, sizeof(v)) ? -errno : 0;
}

/*
 * The handshake of @j's kind on the connected (or accepted) socket @fd;
 * nothing for TCP. Returns 0 or a negative errno with @why filled in.
 */
int perf_handshake(const struct perf_job *j, int fd, bool server, char *why, size_t len)
{
	const char *psk = cert_path(PSK_FILE);
	int ret;

	why[0] = '\0';
	if (j->kind == PERF_TCP)
		return 0;
	if (j->kind == PERF_KTLS) {
		/*
		 * A flight of several records must not wait on Nagle for the
		 * peer's delayed ACK: TCP_NODELAY during the handshake, then
		 * what the test asks for (perf_sock_open()).
		 */
		ret = set_nodelay(fd, true);
		if (!ret)
			ret = ktls_handshake(fd, server, why, len);
		if (!ret && j->test != PERF_RR)
			ret = set_nodelay(fd, false);
		if (ret && !why[0])
			snprintf(why, len, "TCP_NODELAY: %s", errno_name(-ret));
		return ret;
	}
	lib_last[0] = '\0';
	if (server)
		ret = perf_opt.x509 ? quic_server_handshake(fd, cert_path("server.key"),
							    cert_path("server.pem"), PERF_ALPN) :
				      quic_server_handshake(fd, psk, NULL, PERF_ALPN);
	else
		ret = quic_client_handshake(fd, perf_opt.x509 ? NULL : psk, PERF_HOSTNAME,
					    PERF_ALPN);
	if (ret)
		snprintf(why, len, "QUIC %s handshake: %s%s%s", server ? "server" : "client",
			 errno_name(-ret), lib_last[0] ? "; libquic: " : "", lib_last);
	return ret;
}

/* ------------------------------------------------------------ reports */

static int sockopt_int(int fd, int level, int name)
{
	socklen_t l = sizeof(int);
	int v = -1;

	getsockopt(fd, level, name, &v, &l);
	return v;
}

/* Our transport parameters, or (@p->remote set) the peer's. */
static int transport_param(int fd, struct quic_transport_param *p)
{
	socklen_t l = sizeof(*p);

	return getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, p, &l);
}

/*
 * At the end of a QUIC run: why @fd's connection closed, if it did, and the
 * QUIC counters of this side's namespace that are not zero (cumulative:
 * the namespaces serve every run), appended to @r->note (one line each).
 * The client calls it when its run failed; the server always, since only
 * the client may see the failure. The parent prints it for failed runs.
 */
/*
 * Packets QUIC protected and sent in the caller's namespace so far
 * (QuicPktEncFastpaths + QuicPktEncBacklogs of /proc/net/quic/snmp), 0 when
 * the file cannot be read.
 */
uint64_t perf_sock_quic_packets(void)
{
	unsigned long long v, sum = 0;
	char line[128], name[64];
	FILE *f;

	f = fopen("/proc/net/quic/snmp", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %llu", name, &v) == 2 &&
		    (!strcmp(name, "QuicPktEncFastpaths") || !strcmp(name, "QuicPktEncBacklogs")))
			sum += v;
	fclose(f);
	return sum;
}

void perf_sock_report_end(const struct perf_job *j, int fd, struct perf_res *r)
{
	struct {
		struct quic_connection_close c;
		uint8_t phrase[80];
	} cl;
	size_t len = sizeof(r->note), n = strlen(r->note);
	char line[128], name[64];
	unsigned long long v;
	bool first = true;
	socklen_t l;
	FILE *f;

	if (!perf_is_quic(j->kind) || n >= len)
		return;
	memset(&cl, 0, sizeof(cl));
	l = sizeof(cl) - 1;
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &cl, &l))
		n += snprintf(r->note + n, len - n, "%sclose: %s", n ? "\n" : "",
			      errno_name(errno));
	else
		n += snprintf(r->note + n, len - n, "%sclose: error 0x%x frame 0x%x \"%s\"",
			      n ? "\n" : "", cl.c.errcode, cl.c.frame, (char *)cl.c.phrase);
	f = fopen("/proc/net/quic/snmp", "r");
	if (!f)
		return;
	while (n < len && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %llu", name, &v) != 2 || !v)
			continue;
		n += snprintf(r->note + n, len - n, "%s%s %llu",
			      first ? "\ncounters: " : ", ", name, v);
		first = false;
	}
	fclose(f);
}

/*
 * What the client's connection @fd of @j runs with, read back, into
 * @r->note: buffers, congestion control, and for QUIC both sides'
 * transport parameters (whether disable_1rtt_encryption was negotiated
 * also into @r->nocrypt_negotiated).
 */
void perf_sock_describe(const struct perf_job *j, int fd, struct perf_res *r)
{
	struct quic_transport_param ours, peer;
	size_t len = sizeof(r->note), n;
	char *buf = r->note, cc[16];
	struct quic_config c;
	socklen_t l;

	n = snprintf(buf, len, "SO_SNDBUF %d, SO_RCVBUF %d (read back)",
		     sockopt_int(fd, SOL_SOCKET, SO_SNDBUF),
		     sockopt_int(fd, SOL_SOCKET, SO_RCVBUF));
	if (j->kind == PERF_KTLS && n < len)
		n += snprintf(buf + n, len - n, "; TLS 1.3 AES-128-GCM, kTLS TX and RX");
	if (!perf_is_quic(j->kind)) {
		memset(cc, 0, sizeof(cc));
		l = sizeof(cc) - 1;
		if (n < len && !getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &l))
			snprintf(buf + n, len - n, "; %s", cc);
		return;
	}
	memset(&c, 0, sizeof(c));
	l = sizeof(c);
	if (n < len && !getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &c, &l))
		n += snprintf(buf + n, len - n, "; %s",
			      c.congestion_control_algo == QUIC_CONG_ALG_RENO ? "reno" :
			      c.congestion_control_algo == QUIC_CONG_ALG_CUBIC ? "cubic" : "?");
	if (n >= len)
		return;
	memset(&ours, 0, sizeof(ours));
	memset(&peer, 0, sizeof(peer));
	peer.remote = 1;
	if (transport_param(fd, &ours) || transport_param(fd, &peer)) {
		snprintf(buf + n, len - n, "; transport parameters: %s", errno_name(errno));
		return;
	}
	r->nocrypt_negotiated = ours.disable_1rtt_encryption && peer.disable_1rtt_encryption;
	n += snprintf(buf + n, len - n, "\nmax_data %llu, max_stream_data_bidi_local %llu, %s",
		      (unsigned long long)ours.max_data,
		      (unsigned long long)ours.max_stream_data_bidi_local,
		      "bidi_remote");
	if (n >= len)
		return;
	snprintf(buf + n, len - n,
		 " %llu; the server's: %llu, %llu, %llu\n%s sent by the client %u, by the server %u: %s",
		 (unsigned long long)ours.max_stream_data_bidi_remote,
		 (unsigned long long)peer.max_data,
		 (unsigned long long)peer.max_stream_data_bidi_local,
		 (unsigned long long)peer.max_stream_data_bidi_remote,
		 "disable_1rtt_encryption", ours.disable_1rtt_encryption,
		 peer.disable_1rtt_encryption,
		 r->nocrypt_negotiated ? "negotiated" : "not negotiated");
}

/* ------------------------------------------------------------ wire check */

/*
 * A packet socket on the client's veth: it sees the packets the client
 * sends as they leave (only ETH_P_ALL sockets see outgoing packets).
 * Only the first packets of a transfer are looked at: perf_wire_scan()
 * closes it.
 */
int perf_wire_open(struct perf_wire *w, const char *ifname)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
	};
	int rcvbuf = 1 << 20;

	memset(w, 0, sizeof(*w));
	sll.sll_ifindex = if_nametoindex(ifname);
	w->fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (w->fd < 0)
		return -errno;
	if (!sll.sll_ifindex || bind(w->fd, (struct sockaddr *)&sll, sizeof(sll)) ||
	    setsockopt(w->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf))) {
		close(w->fd);
		w->fd = -1;
		return -errno;
	}
	return 0;
}

/* Does @p hold CLEAR_RUN bytes of the pattern, at any offset? */
static bool has_clear_run(const uint8_t *p, size_t len)
{
	size_t i, k;

	for (i = 0; i + CLEAR_RUN <= len; i++) {
		if (p[i] >= PERF_PATTERN_PERIOD)
			continue;
		for (k = 1; k < CLEAR_RUN; k++)
			if (p[i + k] != perf_pattern(p[i] + k))
				break;
		if (k == CLEAR_RUN)
			return true;
	}
	return false;
}

/* Count the 1-RTT packets sent to @port so far, and those in the clear. */
void perf_wire_scan(struct perf_wire *w, int port)
{
	static uint8_t pkt[65536];
	struct sockaddr_ll from;
	size_t ihl, plen;
	const uint8_t *udp;
	socklen_t alen;
	ssize_t n;
	int i;

	for (i = 0; w->fd >= 0 && i < 1024; i++) {
		alen = sizeof(from);
		n = recvfrom(w->fd, pkt, sizeof(pkt), MSG_DONTWAIT, (struct sockaddr *)&from,
			     &alen);
		if (n < 0)
			break;
		if (from.sll_pkttype != PACKET_OUTGOING || from.sll_protocol != htons(ETH_P_IP) ||
		    n < 20 || (pkt[0] >> 4) != 4 || pkt[9] != IPPROTO_UDP)
			continue;
		ihl = (pkt[0] & 0xf) * 4;
		if ((size_t)n < ihl + 8)
			continue;
		udp = pkt + ihl;
		if (((udp[2] << 8) | udp[3]) != port)
			continue;
		plen = n - ihl - 8;
		/* Long header packets are the handshake's. */
		if (!plen || (udp[8] & 0x80))
			continue;
		w->short_pkts++;
		if (has_clear_run(udp + 8, plen))
			w->clear_pkts++;
	}
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}
