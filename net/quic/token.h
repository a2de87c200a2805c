/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC tokens (token.c): stateless reset tokens and address validation
 * tokens, made with a keyed HMAC-SHA256.
 */

#ifndef __net_quic_token_h__
#define __net_quic_token_h__

#include <linux/types.h>

#include "common.h"

struct crypto_shash;

/* RFC 9000 Section 10.3: a stateless reset token is 16 bytes. */
#define QUIC_RESET_TOKEN_LEN	16

/* Address validation tokens (RFC 9000 Sections 8.1.3 and 8.1.4), our format:
 * flags (1) | expiry (8) | nonce (8) | ODCID length (1) | ODCID | MAC (16).
 */
#define QUIC_TOKEN_NONCE_LEN	8
#define QUIC_TOKEN_MAC_LEN	16
#define QUIC_ADDR_TOKEN_MIN_LEN	(1 + 8 + QUIC_TOKEN_NONCE_LEN + 1 + QUIC_TOKEN_MAC_LEN)
#define QUIC_ADDR_TOKEN_MAX_LEN	(QUIC_ADDR_TOKEN_MIN_LEN + QUIC_CONN_ID_MAX_LEN)
#define QUIC_TOKEN_FLAG_RETRY	0x01	/* issued in a Retry packet, else NEW_TOKEN */

/**
 * struct quic_crypto_mac - a keyed HMAC-SHA256 for tokens
 * @tfm: the transform, keyed once at init and then only read
 *
 * Keyed once in process context, it can then be used concurrently from any
 * context: every computation keeps its state in its own descriptor.
 */
struct quic_crypto_mac {
	struct crypto_shash *tfm;
};

int quic_crypto_mac_init(struct quic_crypto_mac *mac, const u8 *key, u32 keylen);
int quic_crypto_mac_init_random(struct quic_crypto_mac *mac);
void quic_crypto_mac_free(struct quic_crypto_mac *mac);

/* Stateless reset tokens (RFC 9000 Section 10.3.2) */
int quic_crypto_reset_token(const struct quic_crypto_mac *mac, const struct quic_conn_id *cid,
			    u8 *token);
int quic_crypto_verify_reset_token(const struct quic_crypto_mac *mac,
				   const struct quic_conn_id *cid, const u8 *token);

/* Address validation tokens (RFC 9000 Sections 8.1.3 and 8.1.4) */
int quic_crypto_token_generate(const struct quic_crypto_mac *mac, const union quic_addr *addr,
			       u32 version, const struct quic_conn_id *odcid, u64 now, u64 lifetime,
			       u8 *token, u32 *tokenlen);
int quic_crypto_token_verify(const struct quic_crypto_mac *mac, const union quic_addr *addr,
			     u32 version, const u8 *token, u32 tokenlen, u64 now, u8 *flags,
			     struct quic_conn_id *odcid);

#endif /* __net_quic_token_h__ */
