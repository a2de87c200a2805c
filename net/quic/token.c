// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC tokens: the keyed MAC that makes them, stateless reset tokens (RFC
 * 9000 Section 10.3.2) and address validation tokens (RFC 9000 Sections
 * 8.1.3 and 8.1.4). Nothing here protects packets: that is crypto.c.
 * See docs/crypto.md.
 */

#include <crypto/hash.h>
#include <crypto/sha2.h>
#include <crypto/utils.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/unaligned.h>

#include "token.h"

/* Labels separating the uses of one token key. */
static const char quic_reset_label[] = "stateless reset";
static const char quic_token_label[] = "address token";

/**
 * quic_crypto_mac_init - key the MAC used for tokens
 * @mac: the MAC to set up
 * @key: a secret of the endpoint (random, or shared across a cluster)
 * @keylen: length of @key, at least 16 bytes
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL for a short key, or a negative errno.
 */
int quic_crypto_mac_init(struct quic_crypto_mac *mac, const u8 *key, u32 keylen)
{
	struct crypto_shash *tfm;
	int err;

	if (keylen < 16)
		return -EINVAL;
	tfm = crypto_alloc_shash("hmac(sha256)", 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	err = crypto_shash_setkey(tfm, key, keylen);
	if (err) {
		crypto_free_shash(tfm);
		return err;
	}
	mac->tfm = tfm;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_mac_init);

/**
 * quic_crypto_mac_init_random - key the MAC used for tokens with a fresh secret
 * @mac: the MAC to set up
 *
 * The 32-byte secret is drawn here and wiped once the MAC holds it.
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int quic_crypto_mac_init_random(struct quic_crypto_mac *mac)
{
	u8 key[32];
	int err;

	get_random_bytes(key, sizeof(key));
	err = quic_crypto_mac_init(mac, key, sizeof(key));
	memzero_explicit(key, sizeof(key));
	return err;
}

/**
 * quic_crypto_mac_free - release the MAC of tokens
 * @mac: the MAC; it may be unset
 */
void quic_crypto_mac_free(struct quic_crypto_mac *mac)
{
	crypto_free_shash(mac->tfm);
	mac->tfm = NULL;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_mac_free);

/**
 * quic_crypto_reset_token - stateless reset token of a connection ID
 * @mac: keyed token MAC
 * @cid: a connection ID issued by this endpoint (not empty)
 * @token: output, %QUIC_RESET_TOKEN_LEN bytes
 *
 * HMAC-SHA256(key, "stateless reset" | CID) truncated to 16 bytes, the
 * construction RFC 9000 Section 10.3.2 suggests: an endpoint that lost its
 * state recomputes it from the connection ID alone.
 *
 * Context: any.
 * Return: 0, -EINVAL for an empty or too long ID, or an errno from the crypto API.
 */
int quic_crypto_reset_token(const struct quic_crypto_mac *mac, const struct quic_conn_id *cid,
			    u8 *token)
{
	SHASH_DESC_ON_STACK(desc, mac->tfm);
	u8 out[SHA256_DIGEST_SIZE];
	int err;

	if (!cid->len || cid->len > QUIC_CONN_ID_MAX_LEN)
		return -EINVAL;
	desc->tfm = mac->tfm;
	err = crypto_shash_init(desc);
	if (!err)
		err = crypto_shash_update(desc, quic_reset_label, strlen(quic_reset_label));
	if (!err)
		err = crypto_shash_finup(desc, cid->data, cid->len, out);
	if (!err)
		memcpy(token, out, QUIC_RESET_TOKEN_LEN);
	shash_desc_zero(desc);
	memzero_explicit(out, sizeof(out));
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_reset_token);

/**
 * quic_crypto_verify_reset_token - check a token against a connection ID
 * @mac: keyed token MAC
 * @cid: the connection ID the token claims to belong to
 * @token: %QUIC_RESET_TOKEN_LEN bytes to check
 *
 * Context: any.
 * Return: 0 when @token is the one of @cid, -EBADMSG when not, or an errno of
 * quic_crypto_reset_token().
 */
int quic_crypto_verify_reset_token(const struct quic_crypto_mac *mac,
				   const struct quic_conn_id *cid, const u8 *token)
{
	u8 expect[QUIC_RESET_TOKEN_LEN];
	int err;

	err = quic_crypto_reset_token(mac, cid, expect);
	if (!err && crypto_memneq(expect, token, QUIC_RESET_TOKEN_LEN))
		err = -EBADMSG;
	memzero_explicit(expect, sizeof(expect));
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_verify_reset_token);

/* MAC of an address token: its body (everything but the MAC) and the client
 * address, with the port for Retry tokens only (RFC 9000 Section 8.1.3: the
 * port of a later connection is unlikely to be the same).
 */
static int quic_crypto_token_mac(const struct quic_crypto_mac *mac, const union quic_addr *addr,
				 u32 version, const u8 *body, u32 len, bool retry, u8 *out)
{
	u8 digest[SHA256_DIGEST_SIZE], a[2 + 16 + 2 + 4];
	SHASH_DESC_ON_STACK(desc, mac->tfm);
	u32 alen;
	int err;

	put_unaligned_be16(addr->sa.sa_family, a);
	if (addr->sa.sa_family == AF_INET) {
		memcpy(a + 2, &addr->v4.sin_addr, 4);
		memcpy(a + 6, &addr->v4.sin_port, 2);
		alen = 2 + 4;
	} else if (addr->sa.sa_family == AF_INET6) {
		memcpy(a + 2, &addr->v6.sin6_addr, 16);
		memcpy(a + 18, &addr->v6.sin6_port, 2);
		alen = 2 + 16;
	} else {
		return -EAFNOSUPPORT;
	}
	if (retry)
		alen += 2;
	/* RFC 9369 Section 5: a token is good for its QUIC version only. */
	put_unaligned_be32(version, a + alen);
	alen += 4;

	desc->tfm = mac->tfm;
	err = crypto_shash_init(desc);
	if (!err)
		err = crypto_shash_update(desc, quic_token_label, strlen(quic_token_label));
	if (!err)
		err = crypto_shash_update(desc, body, len);
	if (!err)
		err = crypto_shash_finup(desc, a, alen, digest);
	if (!err)
		memcpy(out, digest, QUIC_TOKEN_MAC_LEN);
	shash_desc_zero(desc);
	memzero_explicit(digest, sizeof(digest));
	return err;
}

/**
 * quic_crypto_token_generate - issue an address validation token
 * @mac: keyed token MAC
 * @addr: the client address the token is bound to
 * @version: the QUIC version it is for: a Retry's own, or the version a
 *	connection negotiated for its NEW_TOKEN tokens (RFC 9369 Section 5)
 * @odcid: for a Retry token, the Destination Connection ID of the client's
 *	Initial (recovered on verification); NULL for a NEW_TOKEN token
 * @now: current time, in any unit the caller also uses for verification
 * @lifetime: validity, in the unit of @now
 * @token: output buffer
 * @tokenlen: size of @token in, token length out
 *
 * The token is flags | expiry | random nonce | ODCID length | ODCID | MAC,
 * the MAC (truncated HMAC-SHA256) covering the rest, the address and the
 * version. The
 * nonce makes every token unique (RFC 9000 Section 8.1.3). No address is
 * carried in clear.
 *
 * Context: any.
 * Return: 0, -EINVAL for a bad ODCID, an overflowing expiry or a short buffer,
 * -EAFNOSUPPORT, or an errno from the crypto API.
 */
int quic_crypto_token_generate(const struct quic_crypto_mac *mac, const union quic_addr *addr,
			       u32 version, const struct quic_conn_id *odcid, u64 now,
			       u64 lifetime, u8 *token, u32 *tokenlen)
{
	u32 cidlen = odcid ? odcid->len : 0, len;
	u8 *p = token;
	int err;

	if (cidlen > QUIC_CONN_ID_MAX_LEN || lifetime > U64_MAX - now)
		return -EINVAL;
	len = QUIC_ADDR_TOKEN_MIN_LEN + cidlen;
	if (*tokenlen < len)
		return -EINVAL;

	*p++ = odcid ? QUIC_TOKEN_FLAG_RETRY : 0;
	put_unaligned_be64(now + lifetime, p);
	p += 8;
	get_random_bytes(p, QUIC_TOKEN_NONCE_LEN);
	p += QUIC_TOKEN_NONCE_LEN;
	*p++ = cidlen;
	if (cidlen)
		memcpy(p, odcid->data, cidlen);
	p += cidlen;
	err = quic_crypto_token_mac(mac, addr, version, token, p - token, !!odcid, p);
	if (err)
		return err;
	*tokenlen = len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_token_generate);

/**
 * quic_crypto_token_verify - validate an address validation token
 * @mac: keyed token MAC
 * @addr: the address the token arrived from
 * @version: the version of the Initial packet that carried it
 * @token: the token from an Initial packet
 * @tokenlen: its length
 * @now: current time, in the unit used at generation
 * @flags: output, %QUIC_TOKEN_FLAG_RETRY for a Retry token
 * @odcid: output, the ODCID of a Retry token (empty for NEW_TOKEN tokens)
 *
 * The MAC is compared in constant time before the expiry is looked at.
 *
 * Context: any.
 * Return: 0 for a valid token; -EINVAL when it is not one of ours; -EBADMSG
 * when it was altered or comes from another address or version; -EKEYEXPIRED when it
 * expired; -EAFNOSUPPORT; or an errno from the crypto API.
 */
int quic_crypto_token_verify(const struct quic_crypto_mac *mac, const union quic_addr *addr,
			     u32 version, const u8 *token, u32 tokenlen, u64 now, u8 *flags,
			     struct quic_conn_id *odcid)
{
	u8 expect[QUIC_TOKEN_MAC_LEN], f, cidlen;
	u32 body;
	int err;

	if (tokenlen < QUIC_ADDR_TOKEN_MIN_LEN || tokenlen > QUIC_ADDR_TOKEN_MAX_LEN)
		return -EINVAL;
	body = tokenlen - QUIC_TOKEN_MAC_LEN;
	f = token[0];
	cidlen = token[1 + 8 + QUIC_TOKEN_NONCE_LEN];
	if ((f & ~QUIC_TOKEN_FLAG_RETRY) || tokenlen != QUIC_ADDR_TOKEN_MIN_LEN + cidlen ||
	    (cidlen && !(f & QUIC_TOKEN_FLAG_RETRY)))
		return -EINVAL;
	err = quic_crypto_token_mac(mac, addr, version, token, body, f & QUIC_TOKEN_FLAG_RETRY,
				    expect);
	if (err)
		return err;
	if (crypto_memneq(expect, token + body, QUIC_TOKEN_MAC_LEN))
		return -EBADMSG;
	if (now > get_unaligned_be64(token + 1))
		return -EKEYEXPIRED;
	*flags = f;
	/* The ODCID ends where the MAC starts. */
	return quic_conn_id_set(odcid, token + body - cidlen, cidlen);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_crypto_token_verify);
