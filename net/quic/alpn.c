// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ALPN routing: several listeners on one address and port.
 *
 * A server may run one listening socket per application protocol (say
 * "h3" in one process and "smb" in another) on the same UDP port. Each
 * names its protocols with QUIC_SOCKOPT_ALPN before listen(); listeners
 * may share an address when each has such a list, no protocol is in two
 * of them and they belong to one user (as SO_REUSEPORT asks).
 *
 * The receive path picks the listener for a new client from the client's
 * first Initial packet. Initial packets are protected with keys derived
 * from the Destination Connection ID the client chose (RFC 9001 Section
 * 5.2), so any endpoint can open one: we open a copy, gather its CRYPTO
 * frames from offset 0 (RFC 9000 Section 19.6), read the ALPN extension
 * (RFC 7301 Section 3.1) of the ClientHello there (RFC 8446 Section
 * 4.1.2) and hand the client to the listener that serves the protocol the
 * client prefers most. A ClientHello may not fit in one datagram (large
 * key shares, long protocol lists): a first datagram whose ClientHello
 * ends before the ALPN extension is held, for a second or so, until the
 * client's next datagram brings the rest; both are then read together and
 * handed on in order. Any later datagram of a client (0-RTT packets)
 * follows it to the listener that already queued it. Without a verdict
 * the first listener found takes the client, and its TLS handshake
 * answers with the alert of RFC 7301 Section 3.2.
 *
 * This runs in softirq before any socket lock is taken, for every first
 * datagram to a shared port (listeners alone on their address are not
 * affected). It uses the library AES-GCM, AES and SHA-256 of lib/crypto:
 * no transform to allocate or key under a lock, nothing that sleeps. A
 * kernel built without the AES-GCM library (Debian's, for the module
 * built out of tree) gets the same from AES and lib/crypto's GF(2^128)
 * multiplication, composed here as NIST SP 800-38D defines GCM. The
 * routing only chooses a socket: the connection opens the packet again
 * with its own keys, so nothing here is trusted beyond that choice.
 */

#include <crypto/aes.h>
#include <crypto/algapi.h>
#include <crypto/gcm.h>
#include <crypto/ghash.h>
#include <crypto/sha2.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <net/sock.h>

#include "alpn.h"
#include "connection.h"
#include "crypto.h"
#include "family.h"
#include "frame.h"
#include "packet.h"
#include "receive.h"
#include "request.h"
#include "socket.h"

/* ------------------------------------------------------------ listeners */

/**
 * quic_alpn_listen_start - take the protocol list a listener routes by
 * @sk: the socket entering LISTENING, owned by the caller
 *
 * A copy of QUIC_SOCKOPT_ALPN as it is now: later changes of the option
 * apply to the connections accepted, not to the routing.
 *
 * Return: 0, or -ENOMEM.
 */
int quic_alpn_listen_start(struct sock *sk)
{
	struct quic_data *alpn = quic_alpn(sk);
	struct quic_listen_alpn *la;

	sock_owned_by_me(sk);
	if (!alpn->len)
		return 0;
	la = kmalloc(struct_size(la, data, alpn->len), GFP_KERNEL);
	if (!la)
		return -ENOMEM;
	la->len = alpn->len;
	memcpy(la->data, alpn->data, alpn->len);
	rcu_assign_pointer(quic_sk(sk)->listen_alpn, la);
	return 0;
}

/**
 * quic_alpn_listen_stop - drop the protocol list of a listener
 * @sk: the socket, out of the listener table (readers may still hold it)
 */
void quic_alpn_listen_stop(struct sock *sk)
{
	struct quic_listen_alpn *la;

	la = rcu_replace_pointer(quic_sk(sk)->listen_alpn, NULL, true);
	if (la)
		kfree_rcu(la, rcu);
}

/* The listener's list as a struct quic_data (empty without one). */
static struct quic_data *quic_alpn_listen_list(struct sock *sk, struct quic_data *d)
{
	struct quic_listen_alpn *la = rcu_dereference_check(quic_sk(sk)->listen_alpn, 1);

	return quic_data(d, la ? la->data : NULL, la ? la->len : 0);
}

/**
 * quic_alpn_listen_shares - may two listeners serve one address and port
 * @sk: the socket about to listen
 * @other: a listener whose address overlaps, in the same namespace
 *
 * Both need a protocol list, the lists no protocol in common, and both
 * sockets the same owner: a client is then never in doubt between them
 * and no user takes another user's clients.
 *
 * Context: under the listener table's bucket lock.
 * Return: true when they may share.
 */
bool quic_alpn_listen_shares(struct sock *sk, struct sock *other)
{
	struct quic_data a, b;
	const u8 *p;
	u32 left;

	quic_alpn_listen_list(sk, &a);
	quic_alpn_listen_list(other, &b);
	if (!a.len || !b.len || !uid_eq(sk->sk_uid, other->sk_uid))
		return false;
	for (p = a.data, left = a.len; left && p[0] < left; left -= p[0] + 1, p += p[0] + 1)
		if (quic_alpn_has(&b, p + 1, p[0]))
			return false;
	return true;
}

/* --------------------------------------------- opening a client Initial */

/* HKDF-Expand-Label (RFC 8446 Section 7.1) with an empty context, for an
 * output of one SHA-256 block at most: T(1) = HMAC(secret, info | 0x01).
 */
static int quic_alpn_expand_label(const u8 *secret, const char *label, u8 *out, u32 outlen)
{
	u8 info[QUIC_HKDF_LABEL_MAX + 1], t[SHA256_DIGEST_SIZE];
	int len;

	len = quic_crypto_hkdf_label(info, label, outlen);
	if (len < 0)
		return len;
	info[len] = 1;
	quic_hmac_sha256(secret, SHA256_DIGEST_SIZE, info, len + 1, t);
	memcpy(out, t, outlen);
	memzero_explicit(t, sizeof(t));
	return 0;
}

/**
 * quic_alpn_initial_keys - the keys of a client's Initial packets
 * @version: QUIC version of the packet
 * @dcid: Destination Connection ID of the client's first Initial
 * @dcid_len: its length, at most 20
 * @keys: output: AES-128-GCM key, IV and header protection key
 *
 * RFC 9001 Section 5.2 (RFC 9369 Section 3.3 for v2): the Initial secret
 * is HKDF-Extract(salt, dcid), the client's is its "client in" expansion,
 * and the keys are expanded from that with the version's labels.
 *
 * Context: any; nothing sleeps.
 * Return: 0, or -EINVAL for another version or a longer ID.
 */
VISIBLE_IF_QUIC_KUNIT int quic_alpn_initial_keys(u32 version, const u8 *dcid, u32 dcid_len,
						 struct quic_crypto_keys *keys)
{
	const struct quic_version_info *v = quic_version_find(version);
	u8 initial[SHA256_DIGEST_SIZE], client[SHA256_DIGEST_SIZE];
	int err;

	if (!v || dcid_len > QUIC_CONN_ID_MAX_LEN)
		return -EINVAL;
	quic_hmac_sha256(v->salt, sizeof(v->salt), dcid, dcid_len, initial);
	err = quic_alpn_expand_label(initial, "client in", client, sizeof(client));
	keys->keylen = AES_KEYSIZE_128;
	if (!err)
		err = quic_alpn_expand_label(client, v->key, keys->key, AES_KEYSIZE_128);
	if (!err)
		err = quic_alpn_expand_label(client, v->iv, keys->iv, QUIC_IV_LEN);
	if (!err)
		err = quic_alpn_expand_label(client, v->hp, keys->hp, AES_KEYSIZE_128);
	memzero_explicit(initial, sizeof(initial));
	memzero_explicit(client, sizeof(client));
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_initial_keys);

/* CRYPTO frames are gathered in at most this many passes over a packet:
 * a client splits its ClientHello in a few frames, maybe reordered; more
 * would only make a hostile packet cost quadratic time.
 */
#define QUIC_ALPN_CRYPTO_PASSES	16

/**
 * quic_alpn_crypto_prefix - the CRYPTO stream of one packet from offset 0
 * @frames: the packet's plaintext frames
 * @len: their length
 * @out: where the stream's bytes go
 * @cap: size of @out
 * @have: output: how many bytes from offset 0 are contiguous in @out
 *
 * Frames may come in any order and overlap; bytes past a gap are left out.
 * They are decoded and checked by quic_frame_decode(), as the server's
 * receive path does for an Initial (RFC 9000 Sections 12.4 and 19).
 *
 * Return: 0, or -EINVAL when a frame is malformed or not one an Initial
 * carries.
 */
VISIBLE_IF_QUIC_KUNIT int quic_alpn_crypto_prefix(const u8 *frames, u32 len, u8 *out, u32 cap,
						  u32 *have)
{
	/* A client's Initial, as the server's receive path decodes it. */
	const struct quic_frame_ctx ctx = { .level = QUIC_CRYPTO_INITIAL, .is_serv = 1 };
	struct quic_frame f;
	bool grew = true;
	const u8 *p;
	int pass;
	u64 end;
	u32 left;

	*have = 0;
	for (pass = 0; grew && pass < QUIC_ALPN_CRYPTO_PASSES; pass++) {
		grew = false;
		for (p = frames, left = len; left;) {
			if (quic_frame_decode(&p, &left, &ctx, &f))
				return -EINVAL;
			if (f.type != QUIC_FRAME_CRYPTO || f.data.offset > *have)
				continue;
			end = min_t(u64, f.data.offset + f.data.len, cap);
			if (end <= *have)
				continue;
			memcpy(out + *have, f.data.data + (*have - f.data.offset), end - *have);
			*have = end;
			grew = true;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_crypto_prefix);

/* A cursor over a TLS message of which @avail bytes are at hand; each
 * length field read also bounds what it encloses.
 */
struct quic_alpn_tls {
	const u8 *p;
	u32 pos;
	u32 avail;
};

/* Take a length of @size bytes and check that many more fit in @end:
 * -EINVAL when they run past it, -EAGAIN when only past the bytes here.
 */
static int quic_alpn_tls_len(struct quic_alpn_tls *t, u32 size, u32 end, u32 *len)
{
	u32 i, v = 0;

	if (t->pos + size > end)
		return -EINVAL;
	if (t->pos + size > t->avail)
		return -EAGAIN;
	for (i = 0; i < size; i++)
		v = (v << 8) | t->p[t->pos++];
	if (t->pos + v > end)
		return -EINVAL;
	*len = v;
	return 0;
}

/* Step over @n bytes inside @end. */
static int quic_alpn_tls_skip(struct quic_alpn_tls *t, u32 n, u32 end)
{
	if (t->pos + n > end)
		return -EINVAL;
	t->pos += n;
	return 0;
}

#define QUIC_TLS_CLIENT_HELLO	1	/* RFC 8446 Section 4 HandshakeType */
#define QUIC_TLS_EXT_ALPN	16	/* RFC 7301 Section 3.1 */

/**
 * quic_alpn_client_hello - the ALPN list of a ClientHello
 * @msg: the start of the CRYPTO stream: a Handshake message
 * @len: bytes of it at hand
 * @list: output: the ProtocolNameList's names (length-prefixed), in @msg
 * @list_len: output: their length
 *
 * RFC 8446 Section 4.1.2: legacy_version, random, legacy_session_id,
 * cipher_suites, legacy_compression_methods, then the extensions; RFC
 * 7301 Section 3.1: the ALPN extension holds a two-byte-length list of
 * one-byte-length names. Every length is checked against its enclosing
 * one before it is used.
 *
 * Return: 0; -EAGAIN when @len ends before the ALPN extension does (the
 * rest is in a later packet); -ENOENT when the extensions hold no ALPN;
 * -EINVAL for another message or a malformed one.
 */
VISIBLE_IF_QUIC_KUNIT int quic_alpn_client_hello(const u8 *msg, u32 len, const u8 **list,
						 u32 *list_len)
{
	struct quic_alpn_tls t = { .p = msg, .avail = len };
	u32 end, n, ext_end, type, ext_len, names;
	int err;

	if (len < 1)
		return -EAGAIN;
	if (msg[0] != QUIC_TLS_CLIENT_HELLO)
		return -EINVAL;
	t.pos = 1;
	err = quic_alpn_tls_len(&t, 3, U32_MAX, &n);
	if (err)
		return err;
	end = t.pos + n;
	/* legacy_version, random */
	err = quic_alpn_tls_skip(&t, 2 + 32, end);
	if (!err)
		err = quic_alpn_tls_len(&t, 1, end, &n);
	if (!err)
		err = quic_alpn_tls_skip(&t, n, end);	/* legacy_session_id */
	if (!err)
		err = quic_alpn_tls_len(&t, 2, end, &n);
	if (!err)
		err = quic_alpn_tls_skip(&t, n, end);	/* cipher_suites */
	if (!err)
		err = quic_alpn_tls_len(&t, 1, end, &n);
	if (!err)
		err = quic_alpn_tls_skip(&t, n, end);	/* compression */
	if (!err)
		err = quic_alpn_tls_len(&t, 2, end, &n);
	if (err)
		return err;
	ext_end = t.pos + n;
	while (t.pos < ext_end) {
		if (t.pos + 4 > ext_end)
			return -EINVAL;
		if (t.pos + 2 > t.avail)
			return -EAGAIN;
		type = get_unaligned_be16(msg + t.pos);
		t.pos += 2;
		err = quic_alpn_tls_len(&t, 2, ext_end, &ext_len);
		if (err)
			return err;
		if (type != QUIC_TLS_EXT_ALPN) {
			t.pos += ext_len;
			continue;
		}
		err = quic_alpn_tls_len(&t, 2, t.pos + ext_len, &names);
		if (err)
			return err;
		if (names + 2 != ext_len)
			return -EINVAL;
		if (t.pos + names > t.avail)
			return -EAGAIN;
		if (quic_alpn_validate(msg + t.pos, names) < 0)
			return -EINVAL;
		*list = msg + t.pos;
		*list_len = names;
		return 0;
	}
	return -ENOENT;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_client_hello);

#if !IS_ENABLED(CONFIG_CRYPTO_LIB_AESGCM) || IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
/* Fold @len bytes at @p into the GHASH accumulator @x under the hash key
 * @h, the last block padded with zeros (NIST SP 800-38D Section 6.4).
 */
static void quic_alpn_ghash(be128 *x, const be128 *h, const u8 *p, u32 len)
{
	u8 block[GHASH_BLOCK_SIZE];
	u32 n;

	while (len) {
		n = min_t(u32, len, GHASH_BLOCK_SIZE);
		memset(block, 0, sizeof(block));
		memcpy(block, p, n);
		crypto_xor((u8 *)x, block, GHASH_BLOCK_SIZE);
		gf128mul_lle(x, h);
		p += n;
		len -= n;
	}
}

/**
 * quic_alpn_gcm_open_ghash - AES-128-GCM decryption without the library
 * @aes: room for the expanded key, wiped on return
 * @key: the 16-byte key
 * @iv: the 12-byte nonce
 * @text: the ciphertext, decrypted in place when the tag matches
 * @len: its length
 * @ad: the associated data
 * @ad_len: its length
 * @tag: the 16-byte tag that follows the ciphertext
 *
 * GCM as NIST SP 800-38D Section 7.2 defines its decryption for a 96-bit
 * nonce, from the AES block cipher and the GF(2^128) multiplication of
 * lib/crypto: H is the encryption of the zero block, the counter block J0
 * is the nonce followed by the 32-bit 1, the tag is the encryption of J0
 * XOR GHASH(associated data, ciphertext, their bit lengths), and the
 * keystream is the encryption of J0 + 1, J0 + 2, ... The tag is checked
 * before anything is decrypted. Used where CONFIG_CRYPTO_LIB_AESGCM is
 * absent; the KUnit kernel builds it too to compare it with the library.
 *
 * Context: any; does not sleep.
 * Return: 0 with @text decrypted, -EBADMSG when the tag does not match
 * (@text unchanged), or what aes_expandkey() returns.
 */
int quic_alpn_gcm_open_ghash(struct crypto_aes_ctx *aes, const u8 *key, const u8 *iv,
			     u8 *text, u32 len, const u8 *ad, u32 ad_len, const u8 *tag)
{
	u8 j[AES_BLOCK_SIZE], pad[AES_BLOCK_SIZE];
	be128 h = {}, x = {}, bits;
	u32 done, n, ctr = 1;
	int err;

	err = aes_expandkey(aes, key, AES_KEYSIZE_128);
	if (err)
		return err;
	aes_encrypt(aes, (u8 *)&h, (u8 *)&h);
	quic_alpn_ghash(&x, &h, ad, ad_len);
	quic_alpn_ghash(&x, &h, text, len);
	bits.a = cpu_to_be64((u64)ad_len * 8);
	bits.b = cpu_to_be64((u64)len * 8);
	quic_alpn_ghash(&x, &h, (u8 *)&bits, sizeof(bits));

	memcpy(j, iv, GCM_AES_IV_SIZE);
	put_unaligned_be32(ctr, j + GCM_AES_IV_SIZE);
	aes_encrypt(aes, pad, j);
	crypto_xor(pad, (u8 *)&x, AES_BLOCK_SIZE);
	err = crypto_memneq(pad, tag, GHASH_DIGEST_SIZE) ? -EBADMSG : 0;
	for (done = 0; !err && done < len; done += n) {
		put_unaligned_be32(++ctr, j + GCM_AES_IV_SIZE);
		aes_encrypt(aes, pad, j);
		n = min_t(u32, len - done, AES_BLOCK_SIZE);
		crypto_xor(text + done, pad, n);
	}
	memzero_explicit(aes, sizeof(*aes));
	memzero_explicit(&h, sizeof(h));
	memzero_explicit(pad, sizeof(pad));
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_gcm_open_ghash);
#endif

/* What opening one Initial needs besides the packet: kept off the stack. */
struct quic_alpn_open {
#if IS_ENABLED(CONFIG_CRYPTO_LIB_AESGCM)
	struct aesgcm_ctx gcm;
#endif
	struct crypto_aes_ctx hp;
	struct quic_crypto_keys keys;
	u8 mask[AES_BLOCK_SIZE];
	u8 nonce[QUIC_IV_LEN];
	u8 buf[];
};

/* Open the first packet of a datagram, an Initial of v1 or v2, with the
 * client's Initial keys, in @o->buf at @o_off; its plaintext frames are
 * then at @o->buf + *@frames for *@len bytes.
 */
static int quic_alpn_open_initial(struct quic_alpn_open *o, u32 o_off, const u8 *data,
				  u32 dlen, u32 *frames, u32 *len)
{
	u32 pn_len, ad_len, ct_len, i, left = dlen;
	struct quic_packet_hdr hdr;
	u8 *pkt = o->buf + o_off;
	const u8 *p = data;
	u64 pn = 0;
	int err;

	if (quic_packet_parse(&p, &left, 0, false, &hdr) || hdr.type != QUIC_PACKET_INITIAL)
		return -EINVAL;
	/* RFC 9001 Section 5.4.2: the sample starts 4 bytes after the Packet
	 * Number field; the shortest Packet Number leaves room for the tag.
	 */
	if (hdr.len < hdr.pn_offset + 4 + AES_BLOCK_SIZE ||
	    hdr.length < QUIC_PN_MAX_LEN + QUIC_TAG_LEN)
		return -EINVAL;
	memcpy(pkt, data, hdr.len);

	err = quic_alpn_initial_keys(hdr.version, hdr.dcid.data, hdr.dcid.len, &o->keys);
	if (err)
		return err;
	/* Header protection (RFC 9001 Section 5.4.3, AES-based). */
	err = aes_expandkey(&o->hp, o->keys.hp, AES_KEYSIZE_128);
	if (err)
		return err;
	aes_encrypt(&o->hp, o->mask, pkt + hdr.pn_offset + 4);
	pkt[0] ^= o->mask[0] & 0x0f;
	pn_len = (pkt[0] & QUIC_HDR_PN_LEN_MASK) + 1;
	for (i = 0; i < pn_len; i++) {
		pkt[hdr.pn_offset + i] ^= o->mask[1 + i];
		pn = (pn << 8) | pkt[hdr.pn_offset + i];
	}
	/* AEAD (RFC 9001 Section 5.3): the nonce is the IV XOR the packet
	 * number, the header up to the Packet Number is the associated data.
	 */
	memcpy(o->nonce, o->keys.iv, QUIC_IV_LEN);
	for (i = 0; i < 8; i++)
		o->nonce[QUIC_IV_LEN - 1 - i] ^= (u8)(pn >> (8 * i));
	ad_len = hdr.pn_offset + pn_len;
	ct_len = hdr.len - ad_len - QUIC_TAG_LEN;
#if IS_ENABLED(CONFIG_CRYPTO_LIB_AESGCM)
	err = aesgcm_expandkey(&o->gcm, o->keys.key, AES_KEYSIZE_128, QUIC_TAG_LEN);
	if (err)
		return err;
	if (!aesgcm_decrypt(&o->gcm, pkt + ad_len, pkt + ad_len, ct_len, pkt, ad_len, o->nonce,
			    pkt + ad_len + ct_len))
		return -EBADMSG;
#else
	err = quic_alpn_gcm_open_ghash(&o->hp, o->keys.key, o->nonce, pkt + ad_len, ct_len,
				       pkt, ad_len, pkt + ad_len + ct_len);
	if (err)
		return err;
#endif
	*frames = o_off + ad_len;
	*len = ct_len;
	return 0;
}

/**
 * quic_alpn_peek_many - the protocols the first Initials of a client offer
 * @dgrams: datagrams of one client, each from its first QUIC packet
 * @n: how many, 1 or 2
 * @peek: output; quic_alpn_peek_free() it after use, whatever the result
 *
 * Opens a copy of each datagram's first packet, an Initial of v1 or v2,
 * with the client's Initial keys, gathers the CRYPTO frames of all of
 * them from offset 0 and reads the ALPN extension of the ClientHello
 * they start.
 *
 * Context: any; allocates with GFP_ATOMIC.
 * Return: 0 with @peek->list set; -ENODATA when the packets hold no
 * CRYPTO data from offset 0 (no ClientHello start); -EAGAIN when they
 * hold a ClientHello that ends before its ALPN extension does; -ENOENT
 * when the ClientHello has none; -EBADMSG when a packet fails
 * authentication; -EINVAL for another packet or malformed content;
 * -ENOMEM.
 */
int quic_alpn_peek_many(const struct quic_data *dgrams, u32 n, struct quic_alpn_peek *peek)
{
	u32 total = 0, at = 0, off, len, have, i;
	struct quic_alpn_open *o;
	u8 *stream;
	int err = 0;

	memset(peek, 0, sizeof(*peek));
	if (!n || n > 2)
		return -EINVAL;
	for (i = 0; i < n; i++)
		total += dgrams[i].len;
	/* The packet copies, then the CRYPTO stream gathered from them. */
	o = kmalloc(struct_size(o, buf, 2 * (size_t)total), GFP_ATOMIC);
	if (!o)
		return -ENOMEM;
	peek->buf = (u8 *)o;
	stream = o->buf + total;
	/* Each packet is opened in its own place; the frames of all of them
	 * are then moved together to the front (never onto bytes not read).
	 */
	for (i = 0, off = 0; i < n && !err; off += dgrams[i].len, i++) {
		u32 frames;

		err = quic_alpn_open_initial(o, off, dgrams[i].data, dgrams[i].len, &frames,
					     &len);
		if (!err) {
			memmove(o->buf + at, o->buf + frames, len);
			at += len;
		}
	}
	if (!err)
		err = quic_alpn_crypto_prefix(o->buf, at, stream, total, &have);
	if (!err && !have)
		err = -ENODATA;
	if (!err)
		err = quic_alpn_client_hello(stream, have, &peek->list, &peek->len);
	memzero_explicit(o, sizeof(*o));
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_peek_many);

/**
 * quic_alpn_peek - the protocols a client's first Initial offers
 * @data: a datagram, from its first QUIC packet
 * @len: its length
 * @peek: output; quic_alpn_peek_free() it after use, whatever the result
 *
 * quic_alpn_peek_many() for one datagram.
 *
 * Context: any; allocates with GFP_ATOMIC.
 * Return: as quic_alpn_peek_many().
 */
int quic_alpn_peek(const u8 *data, u32 len, struct quic_alpn_peek *peek)
{
	struct quic_data d = { .data = (u8 *)data, .len = len };

	return quic_alpn_peek_many(&d, 1, peek);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_peek);

/**
 * quic_alpn_peek_free - release what quic_alpn_peek() allocated
 * @peek: its result
 */
void quic_alpn_peek_free(struct quic_alpn_peek *peek)
{
	kfree(peek->buf);
	memset(peek, 0, sizeof(*peek));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_peek_free);

/* ---------------------------------------------- ClientHellos held back */

/*
 * A first datagram whose ClientHello ends before its ALPN extension waits
 * here for the client's next datagram. Few are held, and not for long: a
 * client sends the rest of its ClientHello right after the start, and
 * resends both after its first PTO (1 s with the initial RTT of RFC 9002
 * Section 6.2.2) if they were lost. An entry older than that, or the
 * oldest when the table is full, is dropped; the client's retransmission
 * is then held anew.
 */
#define QUIC_ALPN_HELD_MAX	32
#define QUIC_ALPN_HELD_TIME	HZ

struct quic_alpn_held {
	struct list_head list;
	possible_net_t net;
	union quic_addr local;
	union quic_addr peer;
	struct quic_conn_id dcid;
	unsigned long since;
	struct sk_buff *skb;
};

static LIST_HEAD(quic_alpn_held_list);	/* oldest first */
static DEFINE_SPINLOCK(quic_alpn_held_lock);
static u32 quic_alpn_held_count;

/* Take @h out of the table; returns its datagram. */
static struct sk_buff *quic_alpn_held_unlink(struct quic_alpn_held *h)
{
	struct sk_buff *skb = h->skb;

	lockdep_assert_held(&quic_alpn_held_lock);
	list_del(&h->list);
	quic_alpn_held_count--;
	kfree(h);
	return skb;
}

/* Take @h out and queue its datagram on @freed, freed after the lock. */
static void quic_alpn_held_drop(struct quic_alpn_held *h, struct sk_buff_head *freed)
{
	__skb_queue_tail(freed, quic_alpn_held_unlink(h));
}

static struct quic_alpn_held *quic_alpn_held_find(struct net *net, const union quic_addr *local,
						  const union quic_addr *peer,
						  const struct quic_conn_id *dcid,
						  struct sk_buff_head *freed)
{
	struct quic_alpn_held *h, *tmp, *found = NULL;

	lockdep_assert_held(&quic_alpn_held_lock);
	list_for_each_entry_safe(h, tmp, &quic_alpn_held_list, list) {
		if (time_after(jiffies, h->since + QUIC_ALPN_HELD_TIME)) {
			quic_alpn_held_drop(h, freed);
			continue;
		}
		if (net_eq(read_pnet(&h->net), net) && quic_conn_id_equal(&h->dcid, dcid) &&
		    !memcmp(&h->local, local, sizeof(*local)) &&
		    !memcmp(&h->peer, peer, sizeof(*peer)))
			found = h;
	}
	return found;
}

/* Hold @skb, the start of a ClientHello of the client @dcid from @skb's
 * peer; a datagram held for it before (a retransmission) is replaced.
 * Return: 0 with @skb taken, or -ENOMEM.
 */
static int quic_alpn_hold(struct net *net, const union quic_addr *local,
			  const struct quic_conn_id *dcid, struct sk_buff *skb)
{
	const union quic_addr *peer = &QUIC_SKB_CB(skb)->peer;
	struct quic_alpn_held *h, *new;
	struct sk_buff_head freed;

	new = kzalloc(sizeof(*new), GFP_ATOMIC);
	if (!new)
		return -ENOMEM;
	/* The UDP receive path's route is not referenced (a noref dst valid
	 * within its RCU section only); nothing needs it later.
	 */
	skb_dst_drop(skb);
	__skb_queue_head_init(&freed);
	spin_lock_bh(&quic_alpn_held_lock);
	h = quic_alpn_held_find(net, local, peer, dcid, &freed);
	if (h)
		quic_alpn_held_drop(h, &freed);
	else if (quic_alpn_held_count >= QUIC_ALPN_HELD_MAX)
		quic_alpn_held_drop(list_first_entry(&quic_alpn_held_list, struct quic_alpn_held,
						     list), &freed);
	write_pnet(&new->net, net);
	new->local = *local;
	new->peer = *peer;
	new->dcid = *dcid;
	new->since = jiffies;
	new->skb = skb;
	list_add_tail(&new->list, &quic_alpn_held_list);
	quic_alpn_held_count++;
	spin_unlock_bh(&quic_alpn_held_lock);
	__skb_queue_purge(&freed);
	return 0;
}

/* The datagram held for the client @dcid at @peer, taken out, or NULL. */
static struct sk_buff *quic_alpn_unhold(struct net *net, const union quic_addr *local,
					const union quic_addr *peer,
					const struct quic_conn_id *dcid)
{
	struct sk_buff *skb = NULL;
	struct sk_buff_head freed;
	struct quic_alpn_held *h;

	__skb_queue_head_init(&freed);
	spin_lock_bh(&quic_alpn_held_lock);
	h = quic_alpn_held_find(net, local, peer, dcid, &freed);
	if (h)
		skb = quic_alpn_held_unlink(h);
	spin_unlock_bh(&quic_alpn_held_lock);
	__skb_queue_purge(&freed);
	return skb;
}

/**
 * quic_alpn_held_purge - drop the datagrams held for a namespace
 * @net: the namespace going away (every one on module unload)
 */
void quic_alpn_held_purge(struct net *net)
{
	struct quic_alpn_held *h, *tmp;
	struct sk_buff_head freed;

	__skb_queue_head_init(&freed);
	spin_lock_bh(&quic_alpn_held_lock);
	list_for_each_entry_safe(h, tmp, &quic_alpn_held_list, list)
		if (net_eq(read_pnet(&h->net), net))
			quic_alpn_held_drop(h, &freed);
	spin_unlock_bh(&quic_alpn_held_lock);
	__skb_queue_purge(&freed);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_held_purge);

/* --------------------------------------------------------------- choice */

/* Another listener of the group @first leads: same namespace, an address
 * of the same kind (the datagram's own, or a wildcard) covering @local.
 */
static bool quic_alpn_in_group(struct sock *sk, struct net *net, const union quic_addr *local,
			       bool specific)
{
	union quic_addr *a = quic_path_saddr(quic_paths(sk), 0);

	return net_eq(sock_net(sk), net) && quic_cmp_sk_addr(sk, a, local) &&
	       quic_addr_is_any(a) != specific;
}

/* The listener of the group serving the protocol the client lists first
 * among those served, or NULL.
 */
static struct sock *quic_alpn_pick(struct net *net, struct quic_hash_head *head,
				   const union quic_addr *local, bool specific,
				   const struct quic_alpn_peek *peek)
{
	struct quic_data list;
	struct sock *sk;
	const u8 *p;
	u32 left;

	for (p = peek->list, left = peek->len; left; left -= p[0] + 1, p += p[0] + 1) {
		sk_for_each_rcu(sk, &head->head) {
			if (quic_is_listen(sk) && quic_alpn_in_group(sk, net, local, specific) &&
			    quic_alpn_has(quic_alpn_listen_list(sk, &list), p + 1, p[0]))
				return sk;
		}
	}
	return NULL;
}

/* The listener of the group where the client @dcid at @peer waits, or NULL. */
static struct sock *quic_alpn_queued(struct net *net, struct quic_hash_head *head,
				     const union quic_addr *local, bool specific,
				     const struct quic_conn_id *dcid, const union quic_addr *peer)
{
	struct sock *sk;

	sk_for_each_rcu(sk, &head->head)
		if (quic_is_listen(sk) && quic_alpn_in_group(sk, net, local, specific) &&
		    quic_conn_request_queued(sk, dcid, peer))
			return sk;
	return NULL;
}

/**
 * quic_alpn_route - choose among the listeners sharing a datagram's address
 * @net: namespace of the receiving tunnel
 * @head: the listener bucket of the datagram's port
 * @local: the address and port the datagram was sent to
 * @first: the first listener of the group, taken when nothing decides
 * @skb: the datagram, skb->data at its first QUIC packet, the peer's
 *	address in QUIC_SKB_CB()
 * @held: where a datagram held back before @skb is returned, to be
 *	processed by the listener before @skb; NULL when the caller cannot
 *	take one, and nothing is then held
 *
 * A client's first Initial goes to the listener holding the protocol the
 * client lists first among those served. A first datagram whose
 * ClientHello ends before its ALPN extension is held (with @held) until
 * the client's next datagram, and both go where the two read together
 * say. Any other datagram of a client some listener has queued goes there.
 *
 * Context: softirq, under rcu_read_lock(); no socket lock held.
 * Return: the listener, without a reference; ERR_PTR(-EINPROGRESS) when
 * @skb was taken and held.
 */
struct sock *quic_alpn_route(struct net *net, struct quic_hash_head *head,
			     const union quic_addr *local, struct sock *first,
			     struct sk_buff *skb, struct sk_buff **held)
{
	union quic_addr *a = quic_path_saddr(quic_paths(first), 0);
	struct quic_data d[2] = { { .data = skb->data, .len = skb->len } };
	const union quic_addr *peer = &QUIC_SKB_CB(skb)->peer;
	bool specific = !quic_addr_is_any(a);
	struct quic_packet_invariant inv;
	struct quic_alpn_peek peek;
	struct quic_conn_id dcid;
	struct sock *sk = NULL;
	int err;

	if (quic_skb_invariant(skb, &inv) || !inv.long_header ||
	    inv.dcid_len > QUIC_CONN_ID_MAX_LEN)
		return first;
	quic_conn_id_set(&dcid, inv.dcid, inv.dcid_len);

	err = quic_alpn_peek(skb->data, skb->len, &peek);
	if (!err)
		sk = quic_alpn_pick(net, head, local, specific, &peek);
	quic_alpn_peek_free(&peek);
	if (!err)
		return sk ?: first;
	/* A retransmitted start of a ClientHello whose client is queued
	 * already goes there, as any later datagram does.
	 */
	sk = quic_alpn_queued(net, head, local, specific, &dcid, peer);
	if (sk)
		return sk;
	if (err == -EAGAIN && held) {
		if (!quic_alpn_hold(net, local, &dcid, skb))
			return ERR_PTR(-EINPROGRESS);
		return first;
	}
	if (err == -ENODATA && held) {
		/* The rest of a ClientHello whose start waits here? */
		*held = quic_alpn_unhold(net, local, peer, &dcid);
		if (*held) {
			d[1] = d[0];
			d[0].data = (*held)->data;
			d[0].len = (*held)->len;
			if (!quic_alpn_peek_many(d, 2, &peek))
				sk = quic_alpn_pick(net, head, local, specific, &peek);
			quic_alpn_peek_free(&peek);
			return sk ?: first;
		}
	}
	return first;
}
