// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one-call handshakes: quic_client_handshake() on a connect()ed QUIC
 * socket, quic_server_handshake() on an accept()ed one. Each builds a
 * GnuTLS session the way QUIC needs it (TLS 1.3 only, RFC 9001 Section
 * 4.2; no EndOfEarlyData, Section 8.3; no middlebox compatibility mode,
 * Section 8.4) and runs the handshake to its end.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <linux/tls.h>

#include "internal.h"

#define PRIO_BASE	"NORMAL:-VERS-ALL:+VERS-TLS1.3:%DISABLE_TLS13_COMPAT_MODE"
#define PRIO_PSK	":+ECDHE-PSK:+DHE-PSK:+PSK"
#define PRIO_ALL_AEAD	":+AES-128-CCM"

static pthread_mutex_t opt_lock = PTHREAD_MUTEX_INITIALIZER;
static int opt_server_early_data = 1;

/*
 * Zero @enable: servers of quic_server_handshake() started from now on
 * take no 0-RTT data; nonzero (the default) lets them.
 */
QUIC_API void quic_set_server_early_data(int enable)
{
	pthread_mutex_lock(&opt_lock);
	opt_server_early_data = !!enable;
	pthread_mutex_unlock(&opt_lock);
}

/* The GnuTLS flags of a session of ours. */
static unsigned int session_flags(bool server)
{
	unsigned int flags = GNUTLS_NO_END_OF_EARLY_DATA;	/* RFC 9001 Section 8.3 */
	int early;

	if (!server)
		return flags | GNUTLS_CLIENT;
	pthread_mutex_lock(&opt_lock);
	early = opt_server_early_data;
	pthread_mutex_unlock(&opt_lock);
	/* Without the flag GnuTLS allows 0-RTT in no ticket it issues and
	 * rejects what a client sends on an older one (RFC 8446 Section
	 * 4.2.10); the client then sends it again in 1-RTT packets.
	 */
	flags |= GNUTLS_SERVER | GNUTLS_NO_AUTO_SEND_TICKET;
	return early ? flags | GNUTLS_ENABLE_EARLY_DATA : flags;
}

/*
 * The cipher suites to allow: the one QUIC_SOCKOPT_CONFIG names in
 * payload_cipher_type, or all four TLS 1.3 AEADs QUIC can use.
 */
static const char *aead_priority(int fd)
{
	struct quic_config cfg;
	socklen_t len = sizeof(cfg);

	memset(&cfg, 0, sizeof(cfg));
	if (quic_kops->getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len))
		return PRIO_ALL_AEAD;
	switch (cfg.payload_cipher_type) {
	case TLS_CIPHER_AES_GCM_128:
		return ":-CIPHER-ALL:+AES-128-GCM";
	case TLS_CIPHER_AES_GCM_256:
		return ":-CIPHER-ALL:+AES-256-GCM";
	case TLS_CIPHER_AES_CCM_128:
		return ":-CIPHER-ALL:+AES-128-CCM";
	case TLS_CIPHER_CHACHA20_POLY1305:
		return ":-CIPHER-ALL:+CHACHA20-POLY1305";
	default:
		return PRIO_ALL_AEAD;
	}
}

/* Build a session for @fd, run the handshake, tear everything down. */
static int endpoint_run(int fd, bool server, const char *pkey_file, const char *cert_or_host,
			const char *alpns)
{
	struct quic_creds creds = { 0 };
	gnutls_session_t session;
	char alpnbuf[1024], prio[256];
	bool psk = server ? !cert_or_host : !!pkey_file;
	int ret, len;

	if (fd < 0)
		return -EBADF;
	if (alpns) {
		len = strlen(alpns);
	} else {
		len = quic_alpn_from_socket(fd, alpnbuf, sizeof(alpnbuf));
		if (len < 0)
			return len;
		alpns = alpnbuf;
	}
	ret = gnutls_init(&session, session_flags(server));
	if (ret)
		return -ENOMEM;
	/* A server takes resumption in either PSK mode (RFC 8446 Section
	 * 4.2.9), as QUIC_PRIORITY does: a client that offers psk_ke alone
	 * (tlshd's priorities) otherwise gets no session ticket at all.
	 */
	snprintf(prio, sizeof(prio), "%s%s%s", PRIO_BASE, psk || server ? PRIO_PSK : "",
		 aead_priority(fd));
	ret = gnutls_priority_set_direct(session, prio, NULL);
	if (ret) {
		quic_err("priority %s: %s", prio, gnutls_strerror(ret));
		ret = -EINVAL;
		goto out;
	}
	if (server)
		ret = quic_creds_server(&creds, session, pkey_file, cert_or_host);
	else
		ret = quic_creds_client(&creds, session, pkey_file, cert_or_host);
	if (ret)
		goto out;
	if (len) {
		ret = quic_alpn_apply(session, alpns, len);
		if (ret)
			goto out;
	}
	gnutls_transport_set_int(session, fd);
	ret = quic_handshake_run(session, len > 0, server && psk ? pkey_file : NULL);
out:
	gnutls_deinit(session);
	quic_creds_free(&creds);
	return ret;
}

/*
 * Run the client side of the handshake on the connect()ed QUIC socket
 * @sockfd. @pkey_file: a PSK file ("identity:hexkey"), or NULL for X.509
 * with the server verified against the system trust (or quic_set_ca_file())
 * and @hostname, which is also sent as SNI; without @hostname the chain
 * alone is verified, with a warning (see quic_set_allow_no_hostname()).
 * @alpns: "h3,hq-interop" form,
 * or NULL for the socket's QUIC_SOCKOPT_ALPN. Returns 0 once the kernel
 * holds the 1-RTT keys, or a negative errno (see the header).
 */
QUIC_API int quic_client_handshake(int sockfd, const char *pkey_file, const char *hostname,
				   const char *alpns)
{
	return endpoint_run(sockfd, false, pkey_file, hostname, alpns);
}

/*
 * Run the server side of the handshake on the accept()ed QUIC socket
 * @sockfd: X.509 with @cert_file (PEM chain) and its key @pkey_file, or,
 * with @cert_file NULL, the PSK file @pkey_file. @alpns: the protocols
 * accepted, or NULL for the socket's QUIC_SOCKOPT_ALPN. Returns 0 or a
 * negative errno.
 */
QUIC_API int quic_server_handshake(int sockfd, const char *pkey_file, const char *cert_file,
				   const char *alpns)
{
	return endpoint_run(sockfd, true, pkey_file, cert_file, alpns);
}
