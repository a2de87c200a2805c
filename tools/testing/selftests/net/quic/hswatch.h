/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What libquic handed to the kernel during a handshake: the cipher suite of
 * each key it installed with QUIC_SOCKOPT_CRYPTO_SECRET, and how many bytes
 * the socket held for recvmsg() just before its first 1-RTT key.
 *
 * The kernel does not report the negotiated cipher (secrets go in, never
 * out, and QUIC_SOCKOPT_CONFIG keeps the cipher the application asked for),
 * so the tests watch libquic's socket calls instead: the selftests compile
 * libquic in, and its calls go through a table (struct quic_kops) that
 * hs_watch_init() wraps. The TLS_CIPHER_* type libquic passes comes from
 * gnutls_cipher_get() (gnutls_early_cipher_get() for 0-RTT) on the session,
 * and it is what the kernel protects the packets with.
 */

#ifndef __QUIC_SELFTEST_HSWATCH_H__
#define __QUIC_SELFTEST_HSWATCH_H__

#include <stdbool.h>
#include <stdint.h>

struct hs_keys {
	uint32_t app_tx;	/* TLS_CIPHER_* of the 1-RTT send key, 0: none */
	uint32_t app_rx;	/* of the 1-RTT receive key */
	uint32_t early;		/* of a 0-RTT key (either direction) */
	int inq_at_app;		/* SIOCINQ just before the first 1-RTT key, -1: none came */
};

/* Wrap libquic's socket calls; once, before any handshake (and fork()). */
void hs_watch_init(void);
/* Record the keys installed on @fd from now on. */
void hs_watch(int fd);
/* What was recorded for @fd (zeros if nothing); stops recording it. */
struct hs_keys hs_watch_end(int fd);
/* "AES_GCM_128" and so on for a TLS_CIPHER_* type, "none" for 0. */
const char *cipher_name(uint32_t type);

#endif /* __QUIC_SELFTEST_HSWATCH_H__ */
