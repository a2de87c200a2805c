// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Traffic secrets: GnuTLS reports each new secret (RFC 9001 Section 4.1.4,
 * "Encryption Level Changes"); the kernel derives packet protection keys
 * from it, so it gets the secret with QUIC_SOCKOPT_CRYPTO_SECRET, one
 * direction at a time, tagged with the AEAD of the negotiated suite.
 *
 * Initial secrets are never installed: the kernel derives them itself from
 * the Destination Connection ID (RFC 9001 Section 5.2). 1-RTT secrets are
 * held back until the handshake is complete (Section 4.1.1): the kernel
 * treats the second 1-RTT direction as the end of the handshake.
 */

#include <errno.h>
#include <string.h>
#include <linux/tls.h>

#include "internal.h"

/* Map a GnuTLS encryption level to enum quic_crypto_level, or -1. */
int quic_level_from_gnutls(gnutls_record_encryption_level_t level)
{
	switch (level) {
	case GNUTLS_ENCRYPTION_LEVEL_INITIAL:
		return QUIC_CRYPTO_INITIAL;
	case GNUTLS_ENCRYPTION_LEVEL_EARLY:
		return QUIC_CRYPTO_EARLY;
	case GNUTLS_ENCRYPTION_LEVEL_HANDSHAKE:
		return QUIC_CRYPTO_HANDSHAKE;
	case GNUTLS_ENCRYPTION_LEVEL_APPLICATION:
		return QUIC_CRYPTO_APP;
	}
	return -1;
}

/* Map enum quic_crypto_level (checked by the caller) to GnuTLS's. */
gnutls_record_encryption_level_t quic_level_to_gnutls(uint8_t level)
{
	switch (level) {
	case QUIC_CRYPTO_INITIAL:
		return GNUTLS_ENCRYPTION_LEVEL_INITIAL;
	case QUIC_CRYPTO_EARLY:
		return GNUTLS_ENCRYPTION_LEVEL_EARLY;
	case QUIC_CRYPTO_HANDSHAKE:
		return GNUTLS_ENCRYPTION_LEVEL_HANDSHAKE;
	default:
		return GNUTLS_ENCRYPTION_LEVEL_APPLICATION;
	}
}

/* The kernel's name (linux/tls.h) for the four TLS 1.3 AEADs; 0 if other. */
static uint32_t cipher_type(gnutls_cipher_algorithm_t cipher)
{
	switch (cipher) {
	case GNUTLS_CIPHER_AES_128_GCM:
		return TLS_CIPHER_AES_GCM_128;
	case GNUTLS_CIPHER_AES_256_GCM:
		return TLS_CIPHER_AES_GCM_256;
	case GNUTLS_CIPHER_AES_128_CCM:
		return TLS_CIPHER_AES_CCM_128;
	case GNUTLS_CIPHER_CHACHA20_POLY1305:
		return TLS_CIPHER_CHACHA20_POLY1305;
	default:
		return 0;
	}
}

/*
 * Hand one direction of one level's secret to the kernel. Returns 0 or a
 * negative errno from setsockopt().
 */
int quic_secret_install(struct quic_conn *conn, uint8_t level, bool send, uint32_t type,
			const void *secret, size_t size)
{
	struct quic_crypto_secret s;
	int ret;

	memset(&s, 0, sizeof(s));
	s.send = send;
	s.level = level;
	s.type = type;
	memcpy(s.secret, secret, size);
	ret = quic_kops->setsockopt(conn->fd, SOL_QUIC, QUIC_SOCKOPT_CRYPTO_SECRET, &s,
				    sizeof(s));
	explicit_bzero(&s, sizeof(s));
	if (ret) {
		ret = -errno;
		quic_err("installing the %s secret of level %u: %s", send ? "send" : "receive",
			 level, strerror(-ret));
		return ret;
	}
	quic_debug("installed the %s secret of level %u", send ? "send" : "receive", level);
	return 0;
}

/*
 * gnutls_handshake_secret_func: install a new Handshake or 0-RTT secret at
 * once and keep 1-RTT ones for the end of the handshake. Returns 0, or a
 * GnuTLS error that makes the handshake fail.
 */
int quic_secret_func(gnutls_session_t session, gnutls_record_encryption_level_t glevel,
		     const void *rsecret, const void *wsecret, size_t size)
{
	struct quic_conn *conn = quic_conn_find(session);
	const void *secrets[2] = { rsecret, wsecret };
	gnutls_cipher_algorithm_t cipher;
	int level, dir, ret;
	uint32_t type;

	if (!conn)
		return GNUTLS_E_INTERNAL_ERROR;
	level = quic_level_from_gnutls(glevel);
	if (level < 0 || level == QUIC_CRYPTO_INITIAL)
		return 0;
	cipher = level == QUIC_CRYPTO_EARLY ? gnutls_early_cipher_get(session) :
					      gnutls_cipher_get(session);
	type = cipher_type(cipher);
	if (!type || size > QUIC_CRYPTO_SECRET_BUFFER_SIZE) {
		quic_err("cipher %s cannot protect QUIC packets", gnutls_cipher_get_name(cipher));
		return GNUTLS_E_UNWANTED_ALGORITHM;
	}
	for (dir = 0; dir < 2; dir++) {
		if (!secrets[dir])
			continue;
		if (level == QUIC_CRYPTO_APP) {
			struct quic_pending_secret *p = &conn->app[dir];

			p->set = true;
			p->type = type;
			p->len = size;
			memcpy(p->secret, secrets[dir], size);
			continue;
		}
		ret = quic_secret_install(conn, level, dir, type, secrets[dir], size);
		if (ret) {
			conn->kerr = ret;
			return GNUTLS_E_INTERNAL_ERROR;
		}
	}
	return 0;
}
