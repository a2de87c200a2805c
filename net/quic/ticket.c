// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Session resumption and 0-RTT (RFC 9001 Sections 4.5 and 4.6).
 *
 * Server: a listener holds the key its TLS library protects session
 * tickets with (QUIC_SOCKOPT_SESSION_TICKET, made at listen() unless the
 * application set one), so that every connection it accepts, in whatever
 * process runs its handshake, can resume the sessions of the others. The
 * library reads the key from the accepted socket and sends
 * NewSessionTicket messages in CRYPTO frames of 1-RTT packets. An
 * accepted socket holds a key derived from the listener's, its QUIC
 * version and the transport parameters a client remembers for 0-RTT: a
 * ticket is then good only in its version (RFC 9369 Section 5) and only
 * while the server keeps those parameters (RFC 9000 Section 7.4.1);
 * otherwise the library cannot open it and makes a full handshake,
 * without 0-RTT.
 *
 * Client: after the handshake, CRYPTO data in 1-RTT packets can only be
 * NewSessionTicket messages (RFC 9001 Section 4.1.3; QUIC has no TLS
 * KeyUpdate, Section 6, and no post-handshake authentication, Section
 * 4.4). The kernel takes them itself instead of queueing them for
 * recvmsg(), where the application reads stream data: the latest one is
 * kept for QUIC_SOCKOPT_SESSION_TICKET, announced with
 * QUIC_EVENT_NEW_SESSION_TICKET, and EPOLLPRI is raised until it is read.
 *
 * 0-RTT (client): once the library installs the 0-RTT send keys, the
 * first bytes of the server's Handshake CRYPTO stream are copied as they
 * arrive; when the handshake completes, its EncryptedExtensions tell
 * whether the server accepted early data (Section 4.6.2). If it did not,
 * the 0-RTT packets in flight are discarded from recovery (RFC 9002
 * Section 6.4) and their frames sent again in 1-RTT packets.
 */

#include <crypto/sha2.h>
#include <linux/random.h>
#include <linux/unaligned.h>
#include <net/sock.h>

#include "event.h"
#include "frame.h"
#include "inqueue.h"
#include "outqueue.h"
#include "socket.h"
#include "ticket.h"

/**
 * quic_ticket_ee_early_data - does an EncryptedExtensions accept early data
 * @p: the start of the server's Handshake-level CRYPTO stream
 * @len: bytes at @p
 *
 * The server's first Handshake-level message is EncryptedExtensions (RFC
 * 8446 Section 4.3.1); it holds an empty early_data extension when the
 * server accepts 0-RTT (RFC 9001 Section 4.6.2).
 *
 * Return: 1 when it accepts, 0 when it does not, -EAGAIN when the message
 * is not all in @len, -EINVAL when @p is not a well-formed
 * EncryptedExtensions.
 */
int quic_ticket_ee_early_data(const u8 *p, u32 len)
{
	u64 type, mlen, elen, xtype, xlen;
	bool early = false;

	if (quic_get_int(&p, &len, &type, 1) || quic_get_int(&p, &len, &mlen, 3) ||
	    mlen > len)
		return -EAGAIN;
	if (type != QUIC_TLS_ENCRYPTED_EXTENSIONS)
		return -EINVAL;
	len = mlen;	/* what follows the message does not matter */
	if (quic_get_int(&p, &len, &elen, 2) || elen != len)
		return -EINVAL;
	while (len) {
		if (quic_get_int(&p, &len, &xtype, 2) || quic_get_int(&p, &len, &xlen, 2) ||
		    xlen > len)
			return -EINVAL;
		if (xtype == QUIC_TLS_EXT_EARLY_DATA) {
			/* RFC 8446 Section 4.2.10: empty in EncryptedExtensions */
			if (xlen || early)
				return -EINVAL;
			early = true;
		}
		p += xlen;
		len -= xlen;
	}
	return early;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_ticket_ee_early_data);

/**
 * quic_ticket_key_init - give a new listener a ticket key
 * @sk: the socket, owned by the caller, becoming a listener
 *
 * A key the application set with QUIC_SOCKOPT_SESSION_TICKET (to share it
 * among listeners in several processes) is kept.
 *
 * Return: 0 or -ENOMEM.
 */
int quic_ticket_key_init(struct sock *sk)
{
	u8 key[QUIC_TICKET_KEY_LEN];
	int err;

	sock_owned_by_me(sk);
	if (quic_ticket(sk)->len)
		return 0;
	get_random_bytes(key, sizeof(key));
	err = quic_data_dup(quic_ticket(sk), key, sizeof(key), GFP_KERNEL);
	memzero_explicit(key, sizeof(key));
	return err;
}

/* What a derived ticket key is bound to: a label, the version, then the
 * parameters RFC 9000 Section 7.4.1 forbids a server accepting 0-RTT to
 * reduce, and max_datagram_frame_size (RFC 9221 Section 3).
 */
#define QUIC_TICKET_LABEL	"quic ticket key"
#define QUIC_TICKET_INFO_LEN	(sizeof(QUIC_TICKET_LABEL) - 1 + 4 + 1 + 4 * 8 + 3 * 2)

/**
 * quic_ticket_key_derive - the ticket key of one version and parameter set
 * @key: the listener's key
 * @keylen: its length
 * @version: the QUIC version of the connection
 * @p: the server's transport parameters
 * @out: output, %QUIC_TICKET_KEY_LEN bytes
 *
 * HKDF-Expand (RFC 5869 Section 2.3) with HMAC-SHA256 keyed with @key, the
 * info being the label, @version, active_connection_id_limit,
 * initial_max_data, the three initial_max_stream_data values, the two
 * initial_max_streams values and max_datagram_frame_size. Two listeners
 * with one key and one configuration derive the same keys.
 */
VISIBLE_IF_QUIC_KUNIT void quic_ticket_key_derive(const u8 *key, u32 keylen, u32 version,
						  const struct quic_transport_param *p, u8 *out)
{
	u8 buf[SHA256_DIGEST_SIZE + QUIC_TICKET_INFO_LEN + 1], *info, *q;
	u32 n, prev = 0;

	info = buf + SHA256_DIGEST_SIZE;
	q = info;
	memcpy(q, QUIC_TICKET_LABEL, sizeof(QUIC_TICKET_LABEL) - 1);
	q += sizeof(QUIC_TICKET_LABEL) - 1;
	put_unaligned_be32(version, q);
	q += 4;
	*q++ = p->active_connection_id_limit;
	put_unaligned_be64(p->max_data, q);
	put_unaligned_be64(p->max_stream_data_bidi_local, q + 8);
	put_unaligned_be64(p->max_stream_data_bidi_remote, q + 16);
	put_unaligned_be64(p->max_stream_data_uni, q + 24);
	q += 32;
	put_unaligned_be16(p->max_streams_bidi, q);
	put_unaligned_be16(p->max_streams_uni, q + 2);
	put_unaligned_be16(p->max_datagram_frame_size, q + 4);
	q += 6;
	/* T(n) = HMAC(key, T(n-1) | info | n), until the key is filled. */
	for (n = 1; n * SHA256_DIGEST_SIZE <= QUIC_TICKET_KEY_LEN; n++) {
		*q = n;
		quic_hmac_sha256(key, keylen, info - prev, prev + QUIC_TICKET_INFO_LEN + 1,
				 out + (n - 1) * SHA256_DIGEST_SIZE);
		memcpy(buf, out + (n - 1) * SHA256_DIGEST_SIZE, SHA256_DIGEST_SIZE);
		prev = SHA256_DIGEST_SIZE;
	}
	memzero_explicit(buf, sizeof(buf));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_ticket_key_derive);

/**
 * quic_ticket_key_bind - give an accepted connection its listener's ticket key
 * @newsk: the new socket, owned
 * @sk: its listener, owned
 *
 * The key an accepted socket uses is derived from the listener's, its
 * original version and its transport parameters; the application may
 * still change those parameters before the handshake (draft-lxin-quic-
 * socket-apis, QUIC_SOCKOPT_TRANSPORT_PARAM), so the listener's key is
 * only copied here and quic_ticket_key_settle() derives the connection's.
 *
 * Return: 0, or -ENOMEM; a listener without a key leaves none.
 */
int quic_ticket_key_bind(struct sock *newsk, struct sock *sk)
{
	struct quic_data *key = quic_ticket(sk);
	int err;

	sock_owned_by_me(newsk);
	if (!key->len)
		return 0;
	err = quic_data_dup(quic_ticket(newsk), key->data, key->len, GFP_KERNEL);
	if (!err)
		quic_sk(newsk)->ticket_unsettled = 1;
	return err;
}

/**
 * quic_ticket_key_settle - derive an accepted connection's ticket key
 * @sk: the socket, owned by the caller
 *
 * Called before the key leaves the kernel (QUIC_SOCKOPT_SESSION_TICKET)
 * and when our transport parameters are encoded for the TLS library: the
 * parameters the key is bound to cannot change after either. Nothing to
 * do for a key already derived, or set by the application.
 *
 * Return: 0 or -ENOMEM (the listener's key is then kept, still unsettled).
 */
int quic_ticket_key_settle(struct sock *sk)
{
	struct quic_data *key = quic_ticket(sk);
	u8 out[QUIC_TICKET_KEY_LEN];
	int err;

	sock_owned_by_me(sk);
	if (!quic_sk(sk)->ticket_unsettled)
		return 0;
	quic_ticket_key_derive(key->data, key->len, quic_sk(sk)->orig_version,
			       quic_local_param(sk), out);
	err = quic_data_dup(key, out, sizeof(out), GFP_KERNEL);
	memzero_explicit(out, sizeof(out));
	if (!err)
		quic_sk(sk)->ticket_unsettled = 0;
	return err;
}

/**
 * quic_ticket_early_offered - the client installed its 0-RTT send keys
 * @sk: the socket, owned by the caller
 *
 * From here the server's EncryptedExtensions are watched for its answer.
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int quic_ticket_early_offered(struct sock *sk)
{
	int err;

	sock_owned_by_me(sk);
	err = quic_inq_tap_set(quic_inq(sk), QUIC_CRYPTO_HANDSHAKE, QUIC_INQ_TAP_COPY,
			       QUIC_TICKET_EE_MAX, GFP_KERNEL);
	if (!err)
		quic_sk(sk)->early = QUIC_EARLY_OFFERED;
	return err;
}

/**
 * quic_ticket_established - the handshake completed: settle 0-RTT, await tickets
 * @sk: the socket, owned by the caller, now ESTABLISHED
 *
 * Client: the 0-RTT keys go (RFC 9001 Section 4.9.3). Rejected 0-RTT
 * data is sent again in 1-RTT packets; an EncryptedExtensions that cannot
 * be read (beyond %QUIC_TICKET_EE_MAX) leaves it to loss recovery. Later
 * 1-RTT CRYPTO data is read by quic_ticket_crypto_recv().
 * Server: 0-RTT packets without keys by now will never have any: they
 * are dropped from now on (their held copies too).
 *
 * Context: process context.
 */
void quic_ticket_established(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);
	struct quic_inq *inq = quic_inq(sk);
	int ret;

	sock_owned_by_me(sk);
	if (quic_paths(sk)->serv) {
		if (!quic_crypto(sk, QUIC_CRYPTO_EARLY)->rx.ready)
			qs->discarded |= BIT(QUIC_CRYPTO_EARLY);
		return;
	}
	if (qs->early == QUIC_EARLY_OFFERED) {
		ret = quic_ticket_ee_early_data(inq->tap.buf, inq->tap.len);
		if (!ret) {
			qs->early = QUIC_EARLY_REJECTED;
			quic_outq_early_rejected(quic_outq(sk));
		} else if (ret > 0) {
			qs->early = QUIC_EARLY_ACCEPTED;
		}
	}
	if (quic_crypto(sk, QUIC_CRYPTO_EARLY)->tx.ready) {
		quic_crypto_destroy(quic_crypto(sk, QUIC_CRYPTO_EARLY));
		qs->discarded |= BIT(QUIC_CRYPTO_EARLY);
	}
	/* Without room for a ticket, post-handshake CRYPTO data overflows the
	 * tap and closes the connection: better than handing it to recvmsg().
	 */
	quic_inq_tap_set(inq, QUIC_CRYPTO_APP, QUIC_INQ_TAP_DIVERT, QUIC_TICKET_MAX_LEN + 4,
			 GFP_KERNEL);
}

/* Keep a whole NewSessionTicket message of @len bytes at @msg. */
static void quic_ticket_store(struct sock *sk, const u8 *msg, u32 len)
{
	if (quic_data_dup(quic_ticket(sk), msg, len, GFP_ATOMIC))
		return;	/* a later ticket may fare better */
	WRITE_ONCE(quic_sk(sk)->ticket_new, 1);
	quic_event_new_session_ticket(sk, msg, len);
	sk->sk_data_ready(sk);
}

/**
 * quic_ticket_crypto_recv - CRYPTO data in a 1-RTT packet
 * @sk: the socket, owned (softirq with the spinlock, or process context)
 * @d: the frame's offset and data
 *
 * A client takes every whole NewSessionTicket from it (see the top of
 * this file). A server gets none: a client sends no TLS message after
 * its Finished in QUIC.
 *
 * Return: 0; -EPROTO for a message QUIC does not carry there
 * (CRYPTO_ERROR with TLS alert unexpected_message); -EMSGSIZE
 * (CRYPTO_BUFFER_EXCEEDED) for a message larger than %QUIC_TICKET_MAX_LEN;
 * the errors of quic_inq_crypto_recv().
 */
int quic_ticket_crypto_recv(struct sock *sk, const struct quic_frame_data *d)
{
	struct quic_inq *inq = quic_inq(sk);
	struct quic_inq_tap *tap = &inq->tap;
	const u8 *p;
	u64 mlen;
	u32 n;
	int err;

	if (quic_paths(sk)->serv || tap->mode != QUIC_INQ_TAP_DIVERT ||
	    tap->level != QUIC_CRYPTO_APP)
		return -EPROTO;
	err = quic_inq_crypto_recv(inq, QUIC_CRYPTO_APP, d, GFP_ATOMIC);
	if (err)
		return err;
	while (tap->len >= 4) {
		if (tap->buf[0] != QUIC_TLS_NEW_SESSION_TICKET)
			return -EPROTO;
		p = tap->buf + 1;
		n = 3;
		quic_get_int(&p, &n, &mlen, 3);	/* the 24-bit length */
		mlen += 4;
		if (mlen > QUIC_TICKET_MAX_LEN)
			return -EMSGSIZE;
		if (tap->len < mlen)
			break;
		quic_ticket_store(sk, tap->buf, mlen);
		quic_inq_tap_consume(inq, mlen);
	}
	return 0;
}
