/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Session resumption and 0-RTT (RFC 9001 Sections 4.5 and 4.6).
 *
 * The TLS library makes and takes the tickets; the kernel keeps what must
 * outlive one handshake or be acted on in the receive path: the server's
 * ticket key (shared by a listener's connections), the client's latest
 * NewSessionTicket, and whether the server took the client's 0-RTT data.
 */

#ifndef __net_quic_ticket_h__
#define __net_quic_ticket_h__

#include <linux/types.h>

struct sock;
struct quic_frame_data;
struct quic_transport_param;

/* Size of the key a listener makes for its TLS library to protect tickets
 * with, unless the application set one (GnuTLS takes 64 bytes).
 */
#define QUIC_TICKET_KEY_LEN		64

/* The first bytes of the server's Handshake CRYPTO stream kept to see
 * whether its EncryptedExtensions accept early data.
 */
#define QUIC_TICKET_EE_MAX		2048

/* TLS 1.3 (RFC 8446 Section 4): HandshakeType and ExtensionType values. */
#define QUIC_TLS_NEW_SESSION_TICKET	4
#define QUIC_TLS_ENCRYPTED_EXTENSIONS	8
#define QUIC_TLS_EXT_EARLY_DATA		42
/* TLS alert unexpected_message (RFC 8446 Section 6) */
#define QUIC_TLS_ALERT_UNEXPECTED_MESSAGE	10

/* Client: what became of the 0-RTT data offered. */
enum quic_early_state {
	QUIC_EARLY_NONE,
	QUIC_EARLY_OFFERED,
	QUIC_EARLY_ACCEPTED,
	QUIC_EARLY_REJECTED,
};

int quic_ticket_ee_early_data(const u8 *p, u32 len);
int quic_ticket_key_init(struct sock *sk);
int quic_ticket_key_bind(struct sock *newsk, struct sock *sk);
int quic_ticket_key_settle(struct sock *sk);
int quic_ticket_early_offered(struct sock *sk);
void quic_ticket_established(struct sock *sk);
int quic_ticket_crypto_recv(struct sock *sk, const struct quic_frame_data *d);

#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
void quic_ticket_key_derive(const u8 *key, u32 keylen, u32 version,
			    const struct quic_transport_param *p, u8 *out);
#endif

#endif /* __net_quic_ticket_h__ */
