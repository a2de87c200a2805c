// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC packet protection: key schedule (RFC 9001 Sections 5.1 and 5.2, RFC
 * 9369 Section 3.3), AEAD and header protection (RFC 9001 Sections 5.3 and
 * 5.4), key update (RFC 9001 Section 6) and Retry integrity (RFC 9001
 * Section 5.8). Tokens are in token.c. See docs/crypto.md.
 */

#include <crypto/aead.h>
#include <crypto/hash.h>
#include <crypto/sha2.h>
#include <crypto/skcipher.h>
#include <crypto/utils.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/unaligned.h>

#include "crypto.h"

#define QUIC_HEADER_FORM_LONG	0x80
#define QUIC_KEY_PHASE_BIT	0x04
#define QUIC_PN_LEN_MASK	0x03
#define QUIC_LONG_HP_BITS	0x0f	/* RFC 9001 Section 5.4.1 */
#define QUIC_SHORT_HP_BITS	0x1f

#define QUIC_AEAD_IV_MAX	16	/* ccm(aes) takes a 16-byte IV */
#define QUIC_CCM_IV_L		2	/* ccm(aes) IV[0]: L - 1 with L = 15 - 12 */

/**
 * struct quic_cipher - a TLS 1.3 cipher suite as QUIC uses it
 * @type: TLS_CIPHER_* value from uapi/linux/tls.h
 * @secretlen: traffic secret length, the hash output length
 * @keylen: AEAD key and header protection key length
 * @ccm: the AEAD is ccm(aes), whose IV carries a length byte before the nonce
 * @hp_chacha: header protection is ChaCha20 (RFC 9001 Section 5.4.4)
 * @aead: crypto API name of the AEAD
 * @hp: crypto API name of the header protection cipher
 * @hash: crypto API name of the HMAC used by HKDF
 * @conf_limit: confidentiality limit in packets (RFC 9001 Section 6.6)
 * @integ_limit: integrity limit in packets (RFC 9001 Section 6.6)
 */
struct quic_cipher {
	u32 type;
	u32 secretlen;
	u32 keylen;
	u8 ccm;
	u8 hp_chacha;
	const char *aead;
	const char *hp;
	const char *hash;
	u64 conf_limit;
	u64 integ_limit;
};

/* RFC 9001 Section 6.6: 2^21.5 packets for AEAD_AES_128_CCM, rounded down. */
#define QUIC_CCM_LIMIT		2965820ULL

static const struct quic_cipher quic_ciphers[] = {
	{
		.type = TLS_CIPHER_AES_GCM_128, .secretlen = 32, .keylen = 16,
		.aead = "gcm(aes)", .hp = "ecb(aes)", .hash = "hmac(sha256)",
		.conf_limit = 1ULL << 23, .integ_limit = 1ULL << 52,
	},
	{
		.type = TLS_CIPHER_AES_GCM_256, .secretlen = 48, .keylen = 32,
		.aead = "gcm(aes)", .hp = "ecb(aes)", .hash = "hmac(sha384)",
		.conf_limit = 1ULL << 23, .integ_limit = 1ULL << 52,
	},
	{
		.type = TLS_CIPHER_AES_CCM_128, .secretlen = 32, .keylen = 16, .ccm = 1,
		.aead = "ccm(aes)", .hp = "ecb(aes)", .hash = "hmac(sha256)",
		.conf_limit = QUIC_CCM_LIMIT, .integ_limit = QUIC_CCM_LIMIT,
	},
	{
		/* The confidentiality limit exceeds 2^62 packets: disregarded. */
		.type = TLS_CIPHER_CHACHA20_POLY1305, .secretlen = 32, .keylen = 32,
		.hp_chacha = 1, .aead = "rfc7539(chacha20,poly1305)", .hp = "chacha20",
		.hash = "hmac(sha256)", .conf_limit = U64_MAX, .integ_limit = 1ULL << 36,
	},
};

static const struct quic_version_info quic_versions[] = {
	{
		.version = QUIC_VERSION_V1,
		.salt = { 0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
			  0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a },
		.retry_key = { 0xbe, 0x0c, 0x69, 0x0b, 0x9f, 0x66, 0x57, 0x5a,
			       0x1d, 0x76, 0x6b, 0x54, 0xe3, 0x68, 0xc8, 0x4e },
		.retry_nonce = { 0x46, 0x15, 0x99, 0xd3, 0x5d, 0x63,
				 0x2b, 0xf2, 0x23, 0x98, 0x25, 0xbb },
		.key = "quic key", .iv = "quic iv", .hp = "quic hp", .ku = "quic ku",
	},
	{
		.version = QUIC_VERSION_V2,
		.salt = { 0x0d, 0xed, 0xe3, 0xde, 0xf7, 0x00, 0xa6, 0xdb, 0x81, 0x93,
			  0x81, 0xbe, 0x6e, 0x26, 0x9d, 0xcb, 0xf9, 0xbd, 0x2e, 0xd9 },
		.retry_key = { 0x8f, 0xb4, 0xb0, 0x1b, 0x56, 0xac, 0x48, 0xe2,
			       0x60, 0xfb, 0xcb, 0xce, 0xad, 0x7c, 0xcc, 0x92 },
		.retry_nonce = { 0xd8, 0x69, 0x69, 0xbc, 0x2d, 0x7c,
				 0x6d, 0x99, 0x90, 0xef, 0xb0, 0x4a },
		.key = "quicv2 key", .iv = "quicv2 iv", .hp = "quicv2 hp", .ku = "quicv2 ku",
	},
};

static const struct quic_cipher *quic_cipher_find(u32 type)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(quic_ciphers); i++)
		if (quic_ciphers[i].type == type)
			return &quic_ciphers[i];
	return NULL;
}

/**
 * quic_version_find - key schedule parameters of a QUIC version
 * @version: QUIC_VERSION_V1 or QUIC_VERSION_V2
 *
 * Return: the salt, Retry key and labels of @version, or NULL for another.
 */
const struct quic_version_info *quic_version_find(u32 version)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(quic_versions); i++)
		if (quic_versions[i].version == version)
			return &quic_versions[i];
	return NULL;
}

/* HKDF */

/**
 * quic_crypto_hkdf_extract - HKDF-Extract (RFC 5869 Section 2.2)
 * @hash: an HMAC transform ("hmac(sha256)" or "hmac(sha384)"); it is rekeyed
 * @salt: the salt
 * @saltlen: salt length; 0 stands for a string of hash-length zeros
 * @ikm: input keying material
 * @ikmlen: length of @ikm
 * @prk: output, digest size of @hash
 *
 * Context: any context where @hash is not used concurrently.
 * Return: 0 or a negative errno from the crypto API.
 */
int quic_crypto_hkdf_extract(struct crypto_shash *hash, const u8 *salt, u32 saltlen,
			     const u8 *ikm, u32 ikmlen, u8 *prk)
{
	u8 zeros[HASH_MAX_DIGESTSIZE] = {};
	int err;

	if (!saltlen) {
		salt = zeros;
		saltlen = crypto_shash_digestsize(hash);
	}
	err = crypto_shash_setkey(hash, salt, saltlen);
	if (err)
		return err;
	return crypto_shash_tfm_digest(hash, ikm, ikmlen, prk);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_hkdf_extract);

static int quic_crypto_hkdf_expand(struct crypto_shash *hash, const u8 *prk, u32 prklen,
				   const u8 *info, u32 infolen, u8 *out, u32 outlen)
{
	u32 hlen = crypto_shash_digestsize(hash), done = 0, n;
	SHASH_DESC_ON_STACK(desc, hash);
	u8 block[HASH_MAX_DIGESTSIZE];
	u8 counter = 1;
	int err;

	if (outlen > 255 * hlen)
		return -EINVAL;
	err = crypto_shash_setkey(hash, prk, prklen);
	if (err)
		return err;
	desc->tfm = hash;
	/* T(i) = HMAC(PRK, T(i - 1) | info | i), with T(0) empty */
	while (done < outlen) {
		err = crypto_shash_init(desc);
		if (!err && done)
			err = crypto_shash_update(desc, block, hlen);
		if (!err)
			err = crypto_shash_update(desc, info, infolen);
		if (!err)
			err = crypto_shash_finup(desc, &counter, 1, block);
		if (err)
			break;
		n = min(hlen, outlen - done);
		memcpy(out + done, block, n);
		done += n;
		counter++;
	}
	shash_desc_zero(desc);
	memzero_explicit(block, sizeof(block));
	return err;
}

/**
 * quic_crypto_hkdf_expand_label - HKDF-Expand-Label with an empty context
 * @hash: an HMAC transform; it is rekeyed with @secret
 * @secret: the secret to expand
 * @secretlen: length of @secret
 * @label: label without the "tls13 " prefix, at most 32 characters
 * @out: output
 * @outlen: output length, at most 255 times the hash length
 *
 * RFC 8446 Section 7.1: HKDF-Expand(Secret, HkdfLabel, Length), the
 * HkdfLabel from quic_crypto_hkdf_label().
 *
 * Context: any context where @hash is not used concurrently.
 * Return: 0, -EINVAL for a bad label or length, or an errno from the crypto API.
 */
int quic_crypto_hkdf_expand_label(struct crypto_shash *hash, const u8 *secret, u32 secretlen,
				  const char *label, u8 *out, u32 outlen)
{
	u8 info[QUIC_HKDF_LABEL_MAX];
	int len;

	len = quic_crypto_hkdf_label(info, label, outlen);
	if (len < 0)
		return len;
	return quic_crypto_hkdf_expand(hash, secret, secretlen, info, len, out, outlen);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_hkdf_expand_label);

/**
 * quic_crypto_hkdf_label - the HkdfLabel of HKDF-Expand-Label
 * @info: output, %QUIC_HKDF_LABEL_MAX bytes
 * @label: label without the "tls13 " prefix, at most %QUIC_LABEL_MAX characters
 * @outlen: the length to expand to
 *
 * RFC 8446 Section 7.1: the length as uint16, then "tls13 " + Label and the
 * Context as opaque vectors with one length byte each; the Context is
 * empty in QUIC (RFC 9001 Section 5.1).
 *
 * Return: the HkdfLabel's length, or -EINVAL for a longer label or length.
 */
int quic_crypto_hkdf_label(u8 *info, const char *label, u32 outlen)
{
	u32 llen = strlen(label);
	u8 *p = info;

	if (llen > QUIC_LABEL_MAX || outlen > U16_MAX)
		return -EINVAL;
	put_unaligned_be16(outlen, p);
	p += 2;
	*p++ = 6 + llen;
	memcpy(p, "tls13 ", 6);
	p += 6;
	memcpy(p, label, llen);
	p += llen;
	*p++ = 0;
	return p - info;
}

/**
 * quic_crypto_initial_secret - Initial secret from the client's first DCID
 * @hash: an "hmac(sha256)" transform
 * @version: QUIC version, selecting the salt
 * @dcid: Destination Connection ID of the client's first Initial packet
 * @secret: output, 32 bytes
 *
 * Return: 0, -EINVAL for an unknown version, or an errno from the crypto API.
 */
VISIBLE_IF_QUIC_KUNIT int quic_crypto_initial_secret(struct crypto_shash *hash, u32 version,
						     const struct quic_conn_id *dcid, u8 *secret)
{
	const struct quic_version_info *v = quic_version_find(version);

	if (!v || dcid->len > QUIC_CONN_ID_MAX_LEN)
		return -EINVAL;
	return quic_crypto_hkdf_extract(hash, v->salt, sizeof(v->salt), dcid->data, dcid->len,
					secret);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_initial_secret);

/**
 * quic_crypto_derive_keys - AEAD key, IV and header protection key of a secret
 * @hash: HMAC transform of the cipher suite's hash
 * @version: QUIC version, selecting the labels
 * @secret: traffic secret
 * @secretlen: length of @secret
 * @keylen: key length of the cipher suite
 * @keys: output
 *
 * Return: 0, -EINVAL for an unknown version or key length, or a crypto API errno.
 */
VISIBLE_IF_QUIC_KUNIT int quic_crypto_derive_keys(struct crypto_shash *hash, u32 version,
						  const u8 *secret, u32 secretlen, u32 keylen,
						  struct quic_crypto_keys *keys)
{
	const struct quic_version_info *v = quic_version_find(version);
	int err;

	if (!v || keylen > QUIC_KEY_MAX_LEN)
		return -EINVAL;
	keys->keylen = keylen;
	err = quic_crypto_hkdf_expand_label(hash, secret, secretlen, v->key, keys->key, keylen);
	if (!err)
		err = quic_crypto_hkdf_expand_label(hash, secret, secretlen, v->iv, keys->iv,
						    QUIC_IV_LEN);
	if (!err)
		err = quic_crypto_hkdf_expand_label(hash, secret, secretlen, v->hp, keys->hp,
						    keylen);
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_derive_keys);

/**
 * quic_crypto_next_secret - traffic secret of the next key phase
 * @hash: HMAC transform of the cipher suite's hash
 * @version: QUIC version, selecting the "ku" label
 * @secret: current traffic secret
 * @secretlen: length of @secret, also the length of the output
 * @next: output (RFC 9001 Section 6.1)
 *
 * Return: 0, -EINVAL for an unknown version, or an errno from the crypto API.
 */
VISIBLE_IF_QUIC_KUNIT int quic_crypto_next_secret(struct crypto_shash *hash, u32 version,
						  const u8 *secret, u32 secretlen, u8 *next)
{
	const struct quic_version_info *v = quic_version_find(version);

	if (!v)
		return -EINVAL;
	return quic_crypto_hkdf_expand_label(hash, secret, secretlen, v->ku, next, secretlen);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_next_secret);

/* Transforms */

static struct crypto_aead *quic_crypto_aead_alloc(const struct quic_cipher *cipher,
						  const u8 *key)
{
	struct crypto_aead *tfm;
	int err;

	/* Packets are protected in softirq, where crypto_wait_req() must not
	 * sleep: only synchronous implementations (docs/crypto.md).
	 */
	tfm = crypto_alloc_aead(cipher->aead, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(tfm))
		return tfm;
	err = crypto_aead_setauthsize(tfm, QUIC_TAG_LEN);
	if (!err)
		err = crypto_aead_setkey(tfm, key, cipher->keylen);
	if (err) {
		crypto_free_aead(tfm);
		return ERR_PTR(err);
	}
	return tfm;
}

static struct crypto_skcipher *quic_crypto_hp_alloc(const struct quic_cipher *cipher,
						    const u8 *key)
{
	struct crypto_skcipher *tfm;
	int err;

	tfm = crypto_alloc_skcipher(cipher->hp, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(tfm))
		return tfm;
	err = crypto_skcipher_setkey(tfm, key, cipher->keylen);
	if (err) {
		crypto_free_skcipher(tfm);
		return ERR_PTR(err);
	}
	return tfm;
}

static void quic_crypto_dir_free(struct quic_crypto_dir *dir)
{
	crypto_free_aead(dir->aead[0]);
	crypto_free_aead(dir->aead[1]);
	crypto_free_skcipher(dir->hp);
	memzero_explicit(dir, sizeof(*dir));
}

/* Key the other slot of @dir with the generation after the current one. */
static int quic_crypto_dir_next(struct quic_crypto *crypto, struct quic_crypto_dir *dir)
{
	const struct quic_cipher *cipher = crypto->cipher;
	u8 secret[QUIC_SECRET_MAX_LEN];
	struct quic_crypto_keys keys;
	u8 cur = dir->phase;
	int err;

	err = quic_crypto_next_secret(crypto->hash, crypto->version, dir->secret[cur],
				      cipher->secretlen, secret);
	if (err)
		goto out;
	err = quic_crypto_derive_keys(crypto->hash, crypto->version, secret, cipher->secretlen,
				      cipher->keylen, &keys);
	if (err)
		goto out;
	dir->other = QUIC_CRYPTO_SLOT_NONE;
	if (!dir->aead[!cur]) {
		dir->aead[!cur] = quic_crypto_aead_alloc(cipher, keys.key);
		if (IS_ERR(dir->aead[!cur])) {
			err = PTR_ERR(dir->aead[!cur]);
			dir->aead[!cur] = NULL;
			goto out;
		}
	} else {
		err = crypto_aead_setkey(dir->aead[!cur], keys.key, cipher->keylen);
		if (err)
			goto out;
	}
	memcpy(dir->secret[!cur], secret, cipher->secretlen);
	memcpy(dir->iv[!cur], keys.iv, QUIC_IV_LEN);
	dir->other = QUIC_CRYPTO_SLOT_NEXT;
out:
	memzero_explicit(secret, sizeof(secret));
	memzero_explicit(&keys, sizeof(keys));
	return err;
}

static int quic_crypto_dir_install(struct quic_crypto *crypto, struct quic_crypto_dir *dir,
				   const u8 *secret)
{
	const struct quic_cipher *cipher = crypto->cipher;
	struct quic_crypto_keys keys;
	int err;

	err = quic_crypto_derive_keys(crypto->hash, crypto->version, secret, cipher->secretlen,
				      cipher->keylen, &keys);
	if (err)
		goto out;
	dir->aead[0] = quic_crypto_aead_alloc(cipher, keys.key);
	if (IS_ERR(dir->aead[0])) {
		err = PTR_ERR(dir->aead[0]);
		dir->aead[0] = NULL;
		goto out;
	}
	dir->hp = quic_crypto_hp_alloc(cipher, keys.hp);
	if (IS_ERR(dir->hp)) {
		err = PTR_ERR(dir->hp);
		dir->hp = NULL;
		goto out;
	}
	memcpy(dir->secret[0], secret, cipher->secretlen);
	memcpy(dir->iv[0], keys.iv, QUIC_IV_LEN);
	dir->phase = 0;
	dir->other = QUIC_CRYPTO_SLOT_NONE;
	/* 1-RTT keys can be updated: have the next generation ready now, so that
	 * a packet of the next key phase never costs a derivation (RFC 9001
	 * Section 6.3) and following the peer needs no sleeping call.
	 */
	if (crypto->level == QUIC_CRYPTO_APP)
		err = quic_crypto_dir_next(crypto, dir);
out:
	memzero_explicit(&keys, sizeof(keys));
	if (err)
		quic_crypto_dir_free(dir);
	else
		dir->ready = 1;
	return err;
}

/**
 * quic_crypto_set_secret - install the traffic secret of one level and direction
 * @crypto: the state of the level named in @srt
 * @srt: secret from the TLS handshake: direction, level, cipher and secret
 * @version: QUIC version in use, selecting the key derivation labels
 *
 * Derives the AEAD key, IV and header protection key (RFC 9001 Section 5.1)
 * and keys the transforms; for 1-RTT also the next key generation. Both
 * directions of a level must use the same cipher suite and version.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL for an unknown cipher, level, direction or version or a
 * mismatch with the other direction; -EEXIST when this direction already has
 * keys; -ENOMEM or an errno from the crypto API.
 */
int quic_crypto_set_secret(struct quic_crypto *crypto, const struct quic_crypto_secret *srt,
			   u32 version)
{
	const struct quic_cipher *cipher = quic_cipher_find(srt->type);
	struct quic_crypto_dir *dir, *other;
	int err;

	might_sleep();
	if (!cipher || !quic_version_find(version) || srt->level >= QUIC_CRYPTO_MAX ||
	    srt->send > 1)
		return -EINVAL;
	if (crypto->cipher && (crypto->cipher != cipher || crypto->version != version ||
			       crypto->level != srt->level))
		return -EINVAL;
	dir = srt->send ? &crypto->tx : &crypto->rx;
	other = srt->send ? &crypto->rx : &crypto->tx;
	if (dir->ready)
		return -EEXIST;

	if (!crypto->hash) {
		crypto->hash = crypto_alloc_shash(cipher->hash, 0, 0);
		if (IS_ERR(crypto->hash)) {
			err = PTR_ERR(crypto->hash);
			crypto->hash = NULL;
			return err;
		}
	}
	crypto->cipher = cipher;
	crypto->version = version;
	crypto->level = srt->level;

	err = quic_crypto_dir_install(crypto, dir, srt->secret);
	if (err) {
		if (!other->ready) {
			crypto_free_shash(crypto->hash);
			crypto->hash = NULL;
			crypto->cipher = NULL;
		}
		return err;
	}
	if (srt->send) {
		crypto->tx_first_pn = -1;
		crypto->tx_count = 0;
		crypto->key_pending = 0;
	} else {
		crypto->rx_first_pn = S64_MAX;
	}
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_set_secret);

/**
 * quic_crypto_initial_keys_install - derive and install the Initial keys
 * @crypto: the Initial level state; any previous keys are dropped
 * @dcid: Destination Connection ID of the client's first Initial packet (or
 *	the one chosen by the server in a Retry)
 * @version: QUIC version of the Initial packets
 * @is_serv: install as a server (send with "server in", receive with "client in")
 *
 * RFC 9001 Section 5.2 (RFC 9369 Section 3.3.1 for the v2 salt). Also keys
 * the Retry integrity transform of @version.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL for an unknown version or a bad @dcid, or a negative errno.
 */
int quic_crypto_initial_keys_install(struct quic_crypto *crypto,
				     const struct quic_conn_id *dcid, u32 version, bool is_serv)
{
	const struct quic_version_info *v = quic_version_find(version);
	u8 initial[32], client[32], server[32];
	struct quic_crypto_secret srt = {};
	struct crypto_shash *hash;
	int err;

	might_sleep();
	if (!v || dcid->len > QUIC_CONN_ID_MAX_LEN)
		return -EINVAL;
	quic_crypto_destroy(crypto);

	hash = crypto_alloc_shash("hmac(sha256)", 0, 0);
	if (IS_ERR(hash))
		return PTR_ERR(hash);
	err = quic_crypto_initial_secret(hash, version, dcid, initial);
	if (!err)
		err = quic_crypto_hkdf_expand_label(hash, initial, 32, "client in", client, 32);
	if (!err)
		err = quic_crypto_hkdf_expand_label(hash, initial, 32, "server in", server, 32);
	crypto_free_shash(hash);
	if (err)
		goto out;

	srt.level = QUIC_CRYPTO_INITIAL;
	srt.type = TLS_CIPHER_AES_GCM_128;
	srt.send = 1;
	memcpy(srt.secret, is_serv ? server : client, 32);
	err = quic_crypto_set_secret(crypto, &srt, version);
	if (err)
		goto out;
	srt.send = 0;
	memcpy(srt.secret, is_serv ? client : server, 32);
	err = quic_crypto_set_secret(crypto, &srt, version);
	if (err)
		goto out;

	/* Synchronous, like the packet transforms: a client checks a Retry's
	 * tag in the receive path, where nothing may wait.
	 */
	crypto->retry = crypto_alloc_aead("gcm(aes)", 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(crypto->retry)) {
		err = PTR_ERR(crypto->retry);
		crypto->retry = NULL;
		goto out;
	}
	err = crypto_aead_setauthsize(crypto->retry, QUIC_TAG_LEN);
	if (!err)
		err = crypto_aead_setkey(crypto->retry, v->retry_key, sizeof(v->retry_key));
out:
	if (err)
		quic_crypto_destroy(crypto);
	memzero_explicit(initial, sizeof(initial));
	memzero_explicit(client, sizeof(client));
	memzero_explicit(server, sizeof(server));
	memzero_explicit(&srt, sizeof(srt));
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_initial_keys_install);

/**
 * quic_crypto_set_plain_1rtt - leave 1-RTT packets unprotected
 * @crypto: the 1-RTT state
 * @plain: true once both endpoints sent disable_1rtt_encryption
 *
 * With @plain, short header packets get neither AEAD nor header protection
 * and carry no tag (quic_crypto_tag_len() returns 0); the packet number is
 * still written and read by the protection calls.
 */
void quic_crypto_set_plain_1rtt(struct quic_crypto *crypto, bool plain)
{
	crypto->plain_1rtt = plain;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_set_plain_1rtt);

/**
 * quic_crypto_destroy - free the transforms and wipe the keys of a level
 * @crypto: the state; it is left zeroed and can be installed again
 *
 * Context: process context.
 */
void quic_crypto_destroy(struct quic_crypto *crypto)
{
	quic_crypto_dir_free(&crypto->tx);
	quic_crypto_dir_free(&crypto->rx);
	crypto_free_shash(crypto->hash);
	crypto_free_aead(crypto->retry);
	memzero_explicit(crypto, sizeof(*crypto));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_destroy);

/**
 * quic_crypto_tag_len - bytes the protection adds after the payload
 * @crypto: the level's state
 * @long_header: the packet has a long header
 *
 * Return: %QUIC_TAG_LEN, or 0 for short header packets with 1-RTT encryption
 * disabled.
 */
u32 quic_crypto_tag_len(const struct quic_crypto *crypto, bool long_header)
{
	return (!long_header && crypto->plain_1rtt) ? 0 : QUIC_TAG_LEN;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_tag_len);

/**
 * quic_crypto_confidentiality_limit - packets one set of send keys may protect
 * @crypto: the level's state, with keys installed
 *
 * Return: the RFC 9001 Section 6.6 limit of the cipher suite (U64_MAX for
 * ChaCha20-Poly1305, whose limit exceeds the packet number space), 0 without keys.
 */
u64 quic_crypto_confidentiality_limit(const struct quic_crypto *crypto)
{
	return crypto->cipher ? crypto->cipher->conf_limit : 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_confidentiality_limit);

/**
 * quic_crypto_integrity_limit - failed decryptions a connection may tolerate
 * @crypto: the level's state, with keys installed
 *
 * Return: the RFC 9001 Section 6.6 limit of the cipher suite, 0 without keys.
 */
u64 quic_crypto_integrity_limit(const struct quic_crypto *crypto)
{
	return crypto->cipher ? crypto->cipher->integ_limit : 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_integrity_limit);

/* Per-packet requests
 *
 * One allocation per packet holds everything the transforms may touch after
 * the call returns: the scatterlist, the nonce, the header protection sample
 * and both requests. Today the requests complete through crypto_req_done()
 * and the caller waits with crypto_wait_req(); the "finish" halves below are
 * what an asynchronous completion callback will run instead (docs/crypto.md).
 */
struct quic_crypto_req {
	struct crypto_wait wait;
	struct aead_request *aead;
	struct skcipher_request *hp;
	u8 iv[QUIC_AEAD_IV_MAX];
	u8 hp_iv[QUIC_HP_SAMPLE_LEN];
	u8 mask[QUIC_HP_SAMPLE_LEN];	/* the sample in, the mask out */
	struct scatterlist hp_sg;
	u32 nents;
	struct scatterlist sg[];
};

static struct quic_crypto_req *quic_crypto_req_alloc(struct quic_crypto_dir *dir, u32 nsg)
{
	u32 reqsize = crypto_aead_reqsize(dir->aead[dir->phase]);
	size_t len, aead_off, hp_off;
	struct quic_crypto_req *req;

	if (dir->aead[!dir->phase])
		reqsize = max(reqsize, crypto_aead_reqsize(dir->aead[!dir->phase]));
	len = ALIGN(struct_size(req, sg, nsg), crypto_tfm_ctx_alignment());
	aead_off = len;
	len = ALIGN(len + sizeof(struct aead_request) + reqsize, crypto_tfm_ctx_alignment());
	hp_off = len;
	len += sizeof(struct skcipher_request) + crypto_skcipher_reqsize(dir->hp);

	req = kmalloc(len, GFP_ATOMIC);
	if (!req)
		return NULL;
	crypto_init_wait(&req->wait);
	req->aead = (void *)req + aead_off;
	aead_request_set_tfm(req->aead, dir->aead[dir->phase]);
	aead_request_set_callback(req->aead, CRYPTO_TFM_REQ_MAY_BACKLOG, crypto_req_done,
				  &req->wait);
	req->hp = (void *)req + hp_off;
	skcipher_request_set_tfm(req->hp, dir->hp);
	skcipher_request_set_callback(req->hp, CRYPTO_TFM_REQ_MAY_BACKLOG, crypto_req_done,
				      &req->wait);
	sg_init_table(req->sg, nsg);
	req->nents = nsg;
	return req;
}

/* Turn the 16-byte sample in req->mask into the header protection mask. */
static int quic_crypto_hp_mask(const struct quic_crypto *crypto, struct quic_crypto_req *req)
{
	u8 *iv = NULL;

	if (crypto->cipher->hp_chacha) {
		/* RFC 9001 Section 5.4.4: the sample is the block counter (little
		 * endian) and the nonce, exactly the IV layout of "chacha20"; the
		 * mask is the key stream, i.e. the encryption of zeros.
		 */
		memcpy(req->hp_iv, req->mask, QUIC_HP_SAMPLE_LEN);
		memset(req->mask, 0, QUIC_HP_SAMPLE_LEN);
		iv = req->hp_iv;
	}
	sg_init_one(&req->hp_sg, req->mask, QUIC_HP_SAMPLE_LEN);
	skcipher_request_set_crypt(req->hp, &req->hp_sg, &req->hp_sg, QUIC_HP_SAMPLE_LEN, iv);
	return crypto_wait_req(crypto_skcipher_encrypt(req->hp), &req->wait);
}

/* RFC 9001 Section 5.3: the packet number, left-padded, XORed into the IV. */
static void quic_crypto_nonce(const struct quic_crypto *crypto, const u8 *iv, s64 number,
			      u8 *out)
{
	u8 *nonce = out;
	int i;

	if (crypto->cipher->ccm) {
		memset(out, 0, QUIC_AEAD_IV_MAX);
		out[0] = QUIC_CCM_IV_L;
		nonce = out + 1;
	}
	memcpy(nonce, iv, QUIC_IV_LEN);
	for (i = 0; i < 8; i++)
		nonce[QUIC_IV_LEN - 1 - i] ^= (u8)((u64)number >> (8 * i));
}

static void quic_crypto_put_pn(u8 *p, s64 number, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = (u8)((u64)number >> (8 * (len - 1 - i)));
}

static void quic_crypto_apply_mask(u8 *hdr, u32 pn_offset, u32 pn_len, const u8 *mask)
{
	u32 i;

	hdr[0] ^= mask[0] & ((hdr[0] & QUIC_HEADER_FORM_LONG) ? QUIC_LONG_HP_BITS :
							     QUIC_SHORT_HP_BITS);
	for (i = 0; i < pn_len; i++)
		hdr[pn_offset + i] ^= mask[1 + i];
}

static bool quic_crypto_is_plain(const struct quic_crypto *crypto, u8 first)
{
	return crypto->plain_1rtt && !(first & QUIC_HEADER_FORM_LONG);
}

/* Bytes of the header that must be linear and writable before protection. */
static int quic_crypto_check(const struct quic_crypto *crypto, u8 first,
			     const struct quic_crypto_pkt *pkt, u32 *hlen)
{
	u32 pn_len = (first & QUIC_PN_LEN_MASK) + 1;

	if (pkt->pn_offset >= pkt->len)
		return -EINVAL;
	if (quic_crypto_is_plain(crypto, first)) {
		if (pkt->len - pkt->pn_offset < pn_len)
			return -EINVAL;
		*hlen = pkt->pn_offset + pn_len;
		return 0;
	}
	/* RFC 9001 Section 5.4.2: the sample starts 4 bytes after the packet
	 * number offset; a packet too short for it is discarded. The tag room
	 * is covered by the sample as pn_len <= 4 and the tag is 16 bytes.
	 */
	if (pkt->len - pkt->pn_offset < QUIC_PN_MAX_LEN + QUIC_HP_SAMPLE_LEN)
		return -EINVAL;
	*hlen = pkt->pn_offset + QUIC_PN_MAX_LEN;
	return 0;
}

/* Encryption */

static int quic_crypto_seal_finish(struct quic_crypto *crypto, u8 *hdr,
				   struct quic_crypto_req *req, struct quic_crypto_pkt *pkt)
{
	u32 pn_len = (hdr[0] & QUIC_PN_LEN_MASK) + 1;
	int err;

	/* Header protection is applied last, sampling the ciphertext. */
	if (sg_pcopy_to_buffer(req->sg, req->nents, req->mask, QUIC_HP_SAMPLE_LEN,
			       pkt->pn_offset + QUIC_PN_MAX_LEN) != QUIC_HP_SAMPLE_LEN)
		return -EINVAL;
	err = quic_crypto_hp_mask(crypto, req);
	if (err)
		return err;
	quic_crypto_apply_mask(hdr, pkt->pn_offset, pn_len, req->mask);
	crypto->tx_count++;
	if (crypto->tx_first_pn < 0)
		crypto->tx_first_pn = pkt->number;
	return 0;
}

static int quic_crypto_seal(struct quic_crypto *crypto, u8 *hdr, struct quic_crypto_req *req,
			    struct quic_crypto_pkt *pkt)
{
	u32 pn_len = (hdr[0] & QUIC_PN_LEN_MASK) + 1, assoclen;
	struct quic_crypto_dir *tx = &crypto->tx;
	int err;

	if (!(hdr[0] & QUIC_HEADER_FORM_LONG))
		hdr[0] = (hdr[0] & ~QUIC_KEY_PHASE_BIT) | (tx->phase ? QUIC_KEY_PHASE_BIT : 0);
	quic_crypto_put_pn(hdr + pkt->pn_offset, pkt->number, pn_len);

	assoclen = pkt->pn_offset + pn_len;
	quic_crypto_nonce(crypto, tx->iv[tx->phase], pkt->number, req->iv);
	aead_request_set_tfm(req->aead, tx->aead[tx->phase]);
	aead_request_set_ad(req->aead, assoclen);
	aead_request_set_crypt(req->aead, req->sg, req->sg, pkt->len - assoclen - QUIC_TAG_LEN,
			       req->iv);
	err = crypto_wait_req(crypto_aead_encrypt(req->aead), &req->wait);
	if (err)
		return err;
	return quic_crypto_seal_finish(crypto, hdr, req, pkt);
}

static int quic_crypto_tx_ready(const struct quic_crypto *crypto,
				const struct quic_crypto_pkt *pkt)
{
	if (!crypto->tx.ready)
		return -ENOKEY;
	if (crypto->tx_count >= crypto->cipher->conf_limit)
		return -EKEYEXPIRED;
	if (pkt->number < 0 || pkt->number > (s64)QUIC_VARINT_MAX)
		return -EINVAL;
	return 0;
}

/* Make @hlen header bytes linear and the first pkt->len bytes writable.
 * Returns the number of scatterlist entries the packet needs.
 */
static int quic_crypto_skb_prepare(struct sk_buff *skb, u32 hlen)
{
	struct sk_buff *trailer;

	if (!pskb_may_pull(skb, hlen))
		return -ENOMEM;
	/* Page fragments we own are protected in place; shared ones (cloned
	 * skbs, spliced pages, fragment lists) are copied first.
	 */
	if (skb_cloned(skb) || skb_has_frag_list(skb) || skb_has_shared_frag(skb))
		return skb_cow_data(skb, 0, &trailer);
	return 1 + skb_shinfo(skb)->nr_frags;
}

/* Decryption */

/* A packet of the next key phase authenticated: the update is complete on
 * the receive side; follow it on the send side if the peer started it
 * (RFC 9001 Section 6.2). Only pointers and flags change here.
 */
static void quic_crypto_commit_update(struct quic_crypto *crypto, s64 number)
{
	struct quic_crypto_dir *tx = &crypto->tx, *rx = &crypto->rx;

	rx->phase = !rx->phase;
	rx->other = QUIC_CRYPTO_SLOT_PREV;
	crypto->rx_first_pn = number;
	if (tx->phase != rx->phase) {
		tx->phase = rx->phase;
		tx->other = QUIC_CRYPTO_SLOT_NONE;
		crypto->tx_count = 0;
		crypto->tx_first_pn = -1;
		crypto->key_pending = 1;
	}
}

static int quic_crypto_open_finish(struct quic_crypto *crypto, struct quic_crypto_pkt *pkt,
				   int err, s64 number, u32 pn_len, u8 phase, u8 slot_kind)
{
	if (err) {
		if (err == -EBADMSG)
			crypto->rx_failures++;
		return err;
	}
	switch (slot_kind) {
	case QUIC_CRYPTO_SLOT_PREV:
		/* Old keys are only good for packets older than the new phase
		 * (RFC 9001 Section 6.4): otherwise the peer went back a phase.
		 */
		if (number >= crypto->rx_first_pn)
			return -EKEYREJECTED;
		break;
	case QUIC_CRYPTO_SLOT_NEXT:
		quic_crypto_commit_update(crypto, number);
		pkt->key_update = 1;
		break;
	default:
		if (number < crypto->rx_first_pn)
			crypto->rx_first_pn = number;
		break;
	}
	pkt->number = number;
	pkt->number_len = pn_len;
	pkt->key_phase = phase;
	return 0;
}

static int quic_crypto_open(struct quic_crypto *crypto, u8 *hdr, struct quic_crypto_req *req,
			    struct quic_crypto_pkt *pkt)
{
	struct quic_crypto_dir *tx = &crypto->tx, *rx = &crypto->rx;
	bool is_long = hdr[0] & QUIC_HEADER_FORM_LONG;
	u8 first, phase = 0, slot, kind;
	u32 pn_len, assoclen, i;
	u64 truncated = 0;
	s64 number;
	int err;

	if (sg_pcopy_to_buffer(req->sg, req->nents, req->mask, QUIC_HP_SAMPLE_LEN,
			       pkt->pn_offset + QUIC_PN_MAX_LEN) != QUIC_HP_SAMPLE_LEN)
		return -EINVAL;
	err = quic_crypto_hp_mask(crypto, req);
	if (err)
		return err;

	first = hdr[0] ^ (req->mask[0] & (is_long ? QUIC_LONG_HP_BITS : QUIC_SHORT_HP_BITS));
	pn_len = (first & QUIC_PN_LEN_MASK) + 1;
	for (i = 0; i < pn_len; i++)
		truncated = (truncated << 8) | (hdr[pkt->pn_offset + i] ^ req->mask[1 + i]);
	number = quic_pn_decode(pkt->largest, truncated, pn_len);
	if (number < 0)
		return -EINVAL;

	/* Pick the keys by the Key Phase bit alone; which generation the other
	 * slot holds costs no time difference and nothing is derived here.
	 */
	slot = rx->phase;
	kind = QUIC_CRYPTO_SLOT_NONE;
	if (!is_long) {
		phase = !!(first & QUIC_KEY_PHASE_BIT);
		if (phase != rx->phase) {
			slot = phase;
			kind = rx->other;
			if (kind == QUIC_CRYPTO_SLOT_NONE ||
			    (kind == QUIC_CRYPTO_SLOT_NEXT && tx->phase == rx->phase &&
			     tx->other != QUIC_CRYPTO_SLOT_NEXT))
				return -EKEYREJECTED;
		}
	}

	/* The unprotected header is the associated data. */
	quic_crypto_apply_mask(hdr, pkt->pn_offset, pn_len, req->mask);
	assoclen = pkt->pn_offset + pn_len;
	quic_crypto_nonce(crypto, rx->iv[slot], number, req->iv);
	aead_request_set_tfm(req->aead, rx->aead[slot]);
	aead_request_set_ad(req->aead, assoclen);
	aead_request_set_crypt(req->aead, req->sg, req->sg, pkt->len - assoclen, req->iv);
	err = crypto_wait_req(crypto_aead_decrypt(req->aead), &req->wait);
	return quic_crypto_open_finish(crypto, pkt, err, number, pn_len, phase, kind);
}

static int quic_crypto_open_plain(const u8 *hdr, struct quic_crypto_pkt *pkt)
{
	u32 pn_len = (hdr[0] & QUIC_PN_LEN_MASK) + 1, i;
	u64 truncated = 0;
	s64 number;

	for (i = 0; i < pn_len; i++)
		truncated = (truncated << 8) | hdr[pkt->pn_offset + i];
	number = quic_pn_decode(pkt->largest, truncated, pn_len);
	if (number < 0)
		return -EINVAL;
	pkt->number = number;
	pkt->number_len = pn_len;
	pkt->key_phase = !!(hdr[0] & QUIC_KEY_PHASE_BIT);
	return 0;
}

static int quic_crypto_rx_ready(const struct quic_crypto *crypto,
				const struct quic_crypto_pkt *pkt)
{
	if (!crypto->rx.ready)
		return -ENOKEY;
	/* RFC 9001 Section 6.6: past the integrity limit nothing is processed. */
	if (crypto->rx_failures >= crypto->cipher->integ_limit)
		return -EKEYEXPIRED;
	if (pkt->largest < -1 || pkt->largest > (s64)QUIC_VARINT_MAX)
		return -EINVAL;
	return 0;
}

/* Packets in and out */

/* The work both directions share, on an skb or on a linear buffer: check
 * the keys and the header against the level, then either write or read a
 * plain packet number (levels without protection) or run the AEAD and
 * header protection over a scatterlist of the first pkt->len bytes.
 */
static int quic_crypto_protect(struct quic_crypto *crypto, bool send, struct sk_buff *skb,
			       u8 *buf, struct quic_crypto_pkt *pkt)
{
	struct quic_crypto_req *req;
	int nsg = 1, err;
	u32 hlen;

	err = send ? quic_crypto_tx_ready(crypto, pkt) : quic_crypto_rx_ready(crypto, pkt);
	if (err)
		return err;
	if (!pkt->len)
		return -EINVAL;
	if (skb) {
		if (pkt->len > skb->len || !pskb_may_pull(skb, 1))
			return -EINVAL;
		buf = skb->data;
	} else if (!virt_addr_valid(buf)) {
		return -EFAULT;
	}
	err = quic_crypto_check(crypto, buf[0], pkt, &hlen);
	if (err)
		return err;
	if (skb) {
		nsg = quic_crypto_skb_prepare(skb, hlen);
		if (nsg < 0)
			return nsg;
		buf = skb->data;	/* pulling or copying may move it */
	}
	if (quic_crypto_is_plain(crypto, buf[0])) {
		if (!send)
			return quic_crypto_open_plain(buf, pkt);
		quic_crypto_put_pn(buf + pkt->pn_offset, pkt->number,
				   (buf[0] & QUIC_PN_LEN_MASK) + 1);
		return 0;
	}

	req = quic_crypto_req_alloc(send ? &crypto->tx : &crypto->rx, nsg);
	if (!req)
		return -ENOMEM;
	if (skb) {
		err = skb_to_sgvec(skb, req->sg, 0, pkt->len);
		if (err <= 0) {
			err = err ?: -EINVAL;
			goto out;
		}
		req->nents = err;
	} else {
		sg_set_buf(req->sg, buf, pkt->len);
	}
	if (send)
		err = quic_crypto_seal(crypto, buf, req, pkt);
	else
		err = quic_crypto_open(crypto, buf, req, pkt);
out:
	kfree(req);
	return err;
}

/**
 * quic_crypto_encrypt - protect a packet held in an skb
 * @crypto: the state of the packet's encryption level
 * @skb: the packet from skb->data: unprotected header, payload and
 *	%QUIC_TAG_LEN bytes of room for the tag; it may be non-linear
 * @pkt: layout (@pkt->len, @pkt->pn_offset) and packet number
 *
 * Applies AEAD protection, then header protection (RFC 9001 Sections 5.3 and
 * 5.4). Shared data (cloned skb, shared fragments) is copied before.
 *
 * Context: any; does not sleep unless a transform completes asynchronously.
 * Return: 0; -ENOKEY without send keys; -EKEYEXPIRED at the confidentiality
 * limit; -EINVAL for a packet too short to be sampled; -ENOMEM.
 */
int quic_crypto_encrypt(struct quic_crypto *crypto, struct sk_buff *skb,
			struct quic_crypto_pkt *pkt)
{
	return quic_crypto_protect(crypto, true, skb, NULL, pkt);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_encrypt);

/**
 * quic_crypto_encrypt_buf - protect a packet held in a linear buffer
 * @crypto: the state of the packet's encryption level
 * @buf: the packet, @pkt->len bytes including the tag room; it must be
 *	addressable by a scatterlist (kmalloc'ed, not on the stack)
 * @pkt: layout and packet number
 *
 * Context: any; does not sleep unless a transform completes asynchronously.
 * Return: as quic_crypto_encrypt(), and -EFAULT for a buffer outside the
 * linear mapping.
 */
int quic_crypto_encrypt_buf(struct quic_crypto *crypto, u8 *buf, struct quic_crypto_pkt *pkt)
{
	return quic_crypto_protect(crypto, true, NULL, buf, pkt);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_encrypt_buf);

/**
 * quic_crypto_decrypt - remove the protection of a packet held in an skb
 * @crypto: the state of the packet's encryption level
 * @skb: the packet from skb->data (more coalesced packets may follow); it may
 *	be non-linear
 * @pkt: layout (@pkt->len, @pkt->pn_offset) and @pkt->largest in; packet
 *	number, its length, key phase and key update flag out
 *
 * Removes header protection, reconstructs the packet number and opens the
 * AEAD (RFC 9001 Sections 5.3 and 5.4). For 1-RTT packets the Key Phase bit
 * selects the current keys or the other slot: the next generation, or the
 * previous one while it is retained. A packet of the next phase that
 * authenticates completes a key update (@pkt->key_update set; the caller
 * arms the timer that ends with quic_crypto_prepare_next_keys()). On failure
 * nothing but the failure counter changes; the header and payload bytes are
 * not restored.
 *
 * Context: any; does not sleep unless a transform completes asynchronously.
 * Return: 0; -EBADMSG when authentication fails; -EKEYREJECTED for a packet
 * that old keys authenticate but whose number belongs to the new phase
 * (KEY_UPDATE_ERROR) or for a key phase without keys; -EKEYEXPIRED past the
 * integrity limit; -ENOKEY without receive keys; -EINVAL for a packet too
 * short to be sampled; -ENOMEM.
 */
int quic_crypto_decrypt(struct quic_crypto *crypto, struct sk_buff *skb,
			struct quic_crypto_pkt *pkt)
{
	return quic_crypto_protect(crypto, false, skb, NULL, pkt);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_decrypt);

/**
 * quic_crypto_decrypt_buf - remove the protection of a packet in a buffer
 * @crypto: the state of the packet's encryption level
 * @buf: the packet, @pkt->len bytes; kmalloc'ed, not on the stack
 * @pkt: as for quic_crypto_decrypt()
 *
 * Context: any; does not sleep unless a transform completes asynchronously.
 * Return: as quic_crypto_decrypt(), and -EFAULT for a buffer outside the
 * linear mapping.
 */
int quic_crypto_decrypt_buf(struct quic_crypto *crypto, u8 *buf, struct quic_crypto_pkt *pkt)
{
	return quic_crypto_protect(crypto, false, NULL, buf, pkt);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_decrypt_buf);

/* Key update */

/**
 * quic_crypto_key_update - start a key update (RFC 9001 Section 6.1)
 * @crypto: the 1-RTT state, both directions installed
 *
 * Switches the send keys to the prepared next generation and flips the Key
 * Phase bit of the packets that follow. The receive side keeps using the
 * current keys until a packet of the new phase authenticates.
 *
 * Context: any; only switches prepared keys.
 * Return: 0; -EINVAL when not at the 1-RTT level or without keys; -EBUSY when
 * no packet sent with the current keys has been acknowledged yet; -EAGAIN
 * while the previous generation is retained (next keys not prepared).
 */
int quic_crypto_key_update(struct quic_crypto *crypto)
{
	struct quic_crypto_dir *tx = &crypto->tx, *rx = &crypto->rx;

	if (crypto->level != QUIC_CRYPTO_APP || !tx->ready || !rx->ready)
		return -EINVAL;
	if (crypto->key_pending)
		return -EBUSY;
	if (tx->other != QUIC_CRYPTO_SLOT_NEXT || rx->other != QUIC_CRYPTO_SLOT_NEXT ||
	    tx->phase != rx->phase)
		return -EAGAIN;
	tx->phase = !tx->phase;
	tx->other = QUIC_CRYPTO_SLOT_NONE;
	crypto->tx_count = 0;
	crypto->tx_first_pn = -1;
	crypto->key_pending = 1;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_key_update);

/**
 * quic_crypto_pn_acked - note the largest packet number the peer acknowledged
 * @crypto: the 1-RTT state
 * @largest_acked: largest acknowledged packet number of the application space
 *
 * Once a packet sent with the current keys is acknowledged, the key update
 * that introduced them is complete and another one may start (RFC 9001
 * Section 6.1).
 */
void quic_crypto_pn_acked(struct quic_crypto *crypto, s64 largest_acked)
{
	if (crypto->key_pending && crypto->tx_first_pn >= 0 &&
	    largest_acked >= crypto->tx_first_pn)
		crypto->key_pending = 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_pn_acked);

/**
 * quic_crypto_prepare_next_keys - drop old keys and derive the next generation
 * @crypto: the 1-RTT state
 *
 * Called once the previous receive keys have been retained long enough
 * (RFC 9001 Section 6.5 suggests three PTOs after the update) and after a
 * local key update: the slot that held the previous (or the superseded)
 * generation is rekeyed with the generation after the current one, so that
 * the next key phase can be received and started without a derivation on the
 * packet path. Until then a second update by the peer fails to authenticate.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL when not at the 1-RTT level or without keys, or a
 * negative errno from the crypto API (the slot is then left unusable).
 */
int quic_crypto_prepare_next_keys(struct quic_crypto *crypto)
{
	int err = 0;

	might_sleep();
	if (crypto->level != QUIC_CRYPTO_APP || !crypto->tx.ready || !crypto->rx.ready)
		return -EINVAL;
	/* Send side first: a ready next receive slot implies a ready send slot. */
	if (crypto->tx.other != QUIC_CRYPTO_SLOT_NEXT)
		err = quic_crypto_dir_next(crypto, &crypto->tx);
	if (!err && crypto->rx.other != QUIC_CRYPTO_SLOT_NEXT)
		err = quic_crypto_dir_next(crypto, &crypto->rx);
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_prepare_next_keys);

/* Retry integrity */

struct quic_crypto_retry_req {
	struct crypto_wait wait;
	u8 prefix[1 + QUIC_CONN_ID_MAX_LEN];
	u8 tag[QUIC_TAG_LEN];
	u8 iv[QUIC_IV_LEN];
	struct scatterlist sg[3];
	struct aead_request aead;	/* last: followed by its context */
};

/**
 * quic_crypto_retry_tag - compute the Retry Integrity Tag
 * @crypto: an Initial level state installed by quic_crypto_initial_keys_install()
 * @retry: the Retry packet without its tag; kmalloc'ed or skb data
 * @len: length of @retry
 * @odcid: Destination Connection ID of the Initial the Retry answers
 * @tag: output, %QUIC_TAG_LEN bytes
 *
 * AEAD_AES_128_GCM over the Retry pseudo-packet (ODCID length, ODCID, Retry
 * packet) with an empty plaintext, keyed per version (RFC 9001 Section 5.8,
 * RFC 9369 Section 3.3.3).
 *
 * Context: any; never sleeps (the transform is a synchronous one).
 * Return: 0, -ENOKEY without Initial keys, -EINVAL for bad lengths, -EFAULT,
 * -ENOMEM or an errno from the crypto API.
 */
int quic_crypto_retry_tag(struct quic_crypto *crypto, const u8 *retry, u32 len,
			  const struct quic_conn_id *odcid, u8 *tag)
{
	const struct quic_version_info *v = quic_version_find(crypto->version);
	struct quic_crypto_retry_req *req;
	int err;

	if (!crypto->retry || !v)
		return -ENOKEY;
	if (!len || len > QUIC_MAX_UDP_PAYLOAD || odcid->len > QUIC_CONN_ID_MAX_LEN)
		return -EINVAL;
	if (!virt_addr_valid(retry))
		return -EFAULT;
	req = kmalloc(sizeof(*req) + crypto_aead_reqsize(crypto->retry), GFP_ATOMIC);
	if (!req)
		return -ENOMEM;
	req->prefix[0] = odcid->len;
	memcpy(req->prefix + 1, odcid->data, odcid->len);
	memcpy(req->iv, v->retry_nonce, QUIC_IV_LEN);
	sg_init_table(req->sg, 3);
	sg_set_buf(&req->sg[0], req->prefix, 1 + odcid->len);
	sg_set_buf(&req->sg[1], retry, len);
	sg_set_buf(&req->sg[2], req->tag, QUIC_TAG_LEN);

	crypto_init_wait(&req->wait);
	aead_request_set_tfm(&req->aead, crypto->retry);
	aead_request_set_callback(&req->aead, CRYPTO_TFM_REQ_MAY_BACKLOG, crypto_req_done,
				  &req->wait);
	aead_request_set_ad(&req->aead, 1 + odcid->len + len);
	aead_request_set_crypt(&req->aead, req->sg, req->sg, 0, req->iv);
	err = crypto_wait_req(crypto_aead_encrypt(&req->aead), &req->wait);
	if (!err)
		memcpy(tag, req->tag, QUIC_TAG_LEN);
	kfree(req);
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_retry_tag);

/**
 * quic_crypto_verify_retry_tag - check the Retry Integrity Tag of a Retry
 * @crypto: an Initial level state installed by quic_crypto_initial_keys_install()
 * @retry: the whole Retry packet, tag included; kmalloc'ed or skb data
 * @len: length of @retry
 * @odcid: Destination Connection ID the client sent in its first Initial
 *
 * Context: any; never sleeps (the transform is a synchronous one).
 * Return: 0 when the tag matches, -EBADMSG when not, -EINVAL for a packet
 * shorter than a tag, or an errno of quic_crypto_retry_tag().
 */
int quic_crypto_verify_retry_tag(struct quic_crypto *crypto, const u8 *retry, u32 len,
				 const struct quic_conn_id *odcid)
{
	u8 tag[QUIC_TAG_LEN];
	int err;

	if (len <= QUIC_TAG_LEN)
		return -EINVAL;
	err = quic_crypto_retry_tag(crypto, retry, len - QUIC_TAG_LEN, odcid, tag);
	if (err)
		return err;
	return crypto_memneq(tag, retry + len - QUIC_TAG_LEN, QUIC_TAG_LEN) ? -EBADMSG : 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_verify_retry_tag);
