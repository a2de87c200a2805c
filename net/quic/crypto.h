/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC packet protection (RFC 9001 Sections 5 and 6, RFC 9369 Section 3.3):
 * the TLS 1.3 key schedule, AEAD payload protection, header protection, key
 * update, the Retry integrity tag, stateless reset tokens and address
 * validation tokens.
 *
 * One struct quic_crypto holds the keys of one encryption level in both
 * directions; the socket embeds one per level. Transforms are allocated and
 * keyed in process context (installing secrets, preparing the next key
 * generation); the per-packet functions only use what was prepared there and
 * never sleep unless a transform completes asynchronously (docs/crypto.md).
 * All calls on one quic_crypto are serialised by the caller (socket lock).
 */

#ifndef __net_quic_crypto_h__
#define __net_quic_crypto_h__

#include <linux/types.h>
#include <uapi/linux/quic.h>
#include <uapi/linux/tls.h>

#include "common.h"

struct crypto_aead;
struct crypto_shash;
struct crypto_skcipher;
struct quic_cipher;

#define QUIC_TAG_LEN		16	/* AEAD expansion (RFC 9001 Section 5.3) */
#define QUIC_IV_LEN		12	/* AEAD nonce of every QUIC cipher suite */
#define QUIC_KEY_MAX_LEN	32	/* AES-256 and ChaCha20 keys */
#define QUIC_SECRET_MAX_LEN	QUIC_CRYPTO_SECRET_BUFFER_SIZE	/* SHA-384 */
#define QUIC_HP_SAMPLE_LEN	16	/* RFC 9001 Section 5.4.2 */
#define QUIC_HP_MASK_LEN	5	/* RFC 9001 Section 5.4.1 */
#define QUIC_PN_MAX_LEN		4	/* longest packet number encoding */

/**
 * struct quic_crypto_keys - packet protection keys derived from one secret
 * @key: AEAD key ("quic key"), @keylen bytes
 * @iv: AEAD IV ("quic iv")
 * @hp: header protection key ("quic hp"), @keylen bytes
 * @keylen: key length of the cipher suite
 */
struct quic_crypto_keys {
	u8 key[QUIC_KEY_MAX_LEN];
	u8 iv[QUIC_IV_LEN];
	u8 hp[QUIC_KEY_MAX_LEN];
	u32 keylen;
};

/* What the second key slot of a direction holds (1-RTT only). */
enum quic_crypto_slot {
	QUIC_CRYPTO_SLOT_NONE,		/* nothing usable: to be derived */
	QUIC_CRYPTO_SLOT_NEXT,		/* the next generation, keyed and ready */
	QUIC_CRYPTO_SLOT_PREV,		/* the previous generation, kept for reordering */
};

/**
 * struct quic_crypto_dir - keys of one direction of one encryption level
 * @aead: AEAD transforms; slot @phase is current, the other one is @other
 * @hp: header protection transform (never changes on key update)
 * @secret: traffic secret of the generation keyed in each slot
 * @iv: AEAD IV of each slot
 * @phase: slot of the current keys; equals the Key Phase bit for 1-RTT
 * @other: content of the other slot (enum quic_crypto_slot)
 * @ready: keys are installed
 */
struct quic_crypto_dir {
	struct crypto_aead *aead[2];
	struct crypto_skcipher *hp;
	u8 secret[2][QUIC_SECRET_MAX_LEN];
	u8 iv[2][QUIC_IV_LEN];
	u8 phase;
	u8 other;
	u8 ready;
};

/**
 * struct quic_crypto - packet protection state of one encryption level
 * @cipher: negotiated cipher suite (NULL until a secret is installed)
 * @hash: HMAC transform of the suite's hash, keyed per derivation
 * @retry: AES-128-GCM keyed with the Retry integrity key (Initial level)
 * @tx: sending keys
 * @rx: receiving keys
 * @version: QUIC version whose labels derived the keys
 * @level: encryption level (enum quic_crypto_level)
 * @key_pending: our last key update is not acknowledged yet
 * @plain_1rtt: disable_1rtt_encryption negotiated: 1-RTT packets unprotected
 * @tx_first_pn: first packet number sent with the current send keys, or -1
 * @rx_first_pn: lowest packet number received with the current receive keys
 * @tx_count: packets encrypted with the current send keys (RFC 9001 §6.6)
 * @rx_failures: packets that failed authentication at this level (§6.6)
 */
struct quic_crypto {
	const struct quic_cipher *cipher;
	struct crypto_shash *hash;
	struct crypto_aead *retry;
	struct quic_crypto_dir tx;
	struct quic_crypto_dir rx;
	u32 version;
	u8 level;
	u8 key_pending:1;
	u8 plain_1rtt:1;
	s64 tx_first_pn;
	s64 rx_first_pn;
	u64 tx_count;
	u64 rx_failures;
};

/**
 * struct quic_crypto_pkt - one packet handed to packet protection
 * @len: bytes of the packet from its first byte, the 16-byte tag included
 *	(on encryption the last %QUIC_TAG_LEN bytes are room for the tag)
 * @pn_offset: offset of the Packet Number field
 * @number: full packet number (encryption: in; decryption: out)
 * @largest: largest packet number received in this space, or -1 (decryption)
 * @number_len: length of the Packet Number field (decryption: out)
 * @key_phase: Key Phase bit of a short header packet (decryption: out)
 * @key_update: this packet completed a key update (decryption: out)
 *
 * On encryption the packet number length comes from the low two bits of the
 * unprotected first byte, the Packet Number field is filled from @number and,
 * for short headers, the Key Phase bit is set from the current send keys.
 */
struct quic_crypto_pkt {
	u32 len;
	u32 pn_offset;
	s64 number;
	s64 largest;
	u8 number_len;
	u8 key_phase;
	u8 key_update;
};

/**
 * struct quic_version_info - what the key schedule changes per QUIC version
 * @version: QUIC_VERSION_*
 * @salt: Initial salt (RFC 9001 Section 5.2, RFC 9369 Section 3.3.1)
 * @retry_key: Retry integrity key (RFC 9001 Section 5.8, RFC 9369 Section 3.3.3)
 * @retry_nonce: Retry integrity nonce
 * @key: label of the AEAD key (RFC 9369 Section 3.3.2)
 * @iv: label of the AEAD IV
 * @hp: label of the header protection key
 * @ku: label of the key update
 */
struct quic_version_info {
	u32 version;
	u8 salt[20];
	u8 retry_key[16];
	u8 retry_nonce[QUIC_IV_LEN];
	const char *key;
	const char *iv;
	const char *hp;
	const char *ku;
};

const struct quic_version_info *quic_version_find(u32 version);

/* HKDF (RFC 5869) and HKDF-Expand-Label (RFC 8446 Section 7.1) */
#define QUIC_LABEL_MAX		32	/* a label, without "tls13 " */
#define QUIC_HKDF_LABEL_MAX	(2 + 1 + 6 + QUIC_LABEL_MAX + 1)
int quic_crypto_hkdf_label(u8 *info, const char *label, u32 outlen);
int quic_crypto_hkdf_extract(struct crypto_shash *hash, const u8 *salt, u32 saltlen,
			     const u8 *ikm, u32 ikmlen, u8 *prk);
int quic_crypto_hkdf_expand_label(struct crypto_shash *hash, const u8 *secret, u32 secretlen,
				  const char *label, u8 *out, u32 outlen);

/* Key installation (process context) */
int quic_crypto_set_secret(struct quic_crypto *crypto, const struct quic_crypto_secret *srt,
			   u32 version);
int quic_crypto_initial_keys_install(struct quic_crypto *crypto,
				     const struct quic_conn_id *dcid, u32 version, bool is_serv);
void quic_crypto_set_plain_1rtt(struct quic_crypto *crypto, bool plain);
void quic_crypto_destroy(struct quic_crypto *crypto);

/* Packet protection (any context) */
int quic_crypto_encrypt(struct quic_crypto *crypto, struct sk_buff *skb,
			struct quic_crypto_pkt *pkt);
int quic_crypto_decrypt(struct quic_crypto *crypto, struct sk_buff *skb,
			struct quic_crypto_pkt *pkt);
int quic_crypto_encrypt_buf(struct quic_crypto *crypto, u8 *buf, struct quic_crypto_pkt *pkt);
int quic_crypto_decrypt_buf(struct quic_crypto *crypto, u8 *buf, struct quic_crypto_pkt *pkt);
u32 quic_crypto_tag_len(const struct quic_crypto *crypto, bool long_header);

/* Key update (RFC 9001 Section 6) */
int quic_crypto_key_update(struct quic_crypto *crypto);
void quic_crypto_pn_acked(struct quic_crypto *crypto, s64 largest_acked);
int quic_crypto_prepare_next_keys(struct quic_crypto *crypto);

/* AEAD limits (RFC 9001 Section 6.6) */
u64 quic_crypto_confidentiality_limit(const struct quic_crypto *crypto);
u64 quic_crypto_integrity_limit(const struct quic_crypto *crypto);

/* Retry integrity tag (RFC 9001 Section 5.8, RFC 9369 Section 3.3.3) */
int quic_crypto_retry_tag(struct quic_crypto *crypto, const u8 *retry, u32 len,
			  const struct quic_conn_id *odcid, u8 *tag);
int quic_crypto_verify_retry_tag(struct quic_crypto *crypto, const u8 *retry, u32 len,
				 const struct quic_conn_id *odcid);

#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
int quic_crypto_initial_secret(struct crypto_shash *hash, u32 version,
			       const struct quic_conn_id *dcid, u8 *secret);
int quic_crypto_derive_keys(struct crypto_shash *hash, u32 version, const u8 *secret,
			    u32 secretlen, u32 keylen, struct quic_crypto_keys *keys);
int quic_crypto_next_secret(struct crypto_shash *hash, u32 version, const u8 *secret,
			    u32 secretlen, u8 *next);
#endif

#endif /* __net_quic_crypto_h__ */
