/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An in-process stand-in for the kernel's QUIC socket, enough for the
 * handshake: pairs of fake sockets exchange CRYPTO bytes per level, keep
 * the secrets and transport parameters they were given, and enforce the
 * rules of docs/socket.md that a TLS library could break.
 */

#ifndef __LIBQUIC_TEST_FAKE_H__
#define __LIBQUIC_TEST_FAKE_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/quic.h>

struct fake_secret {
	bool set;
	uint32_t type;
	uint8_t secret[QUIC_CRYPTO_SECRET_BUFFER_SIZE];
};

struct fake_msg;

struct fake_sock {
	bool used, nonblock, established, shut, peer_gone;
	bool client;			/* the first socket of its pair */
	int peer;			/* index of the other end */
	uint8_t tp[64];			/* "our" encoded transport parameters */
	size_t tplen;
	uint8_t peer_tp[4096];		/* what the library handed over */
	size_t peer_tplen;
	struct fake_secret sec[QUIC_CRYPTO_MAX][2];	/* [level][send] */
	char alpn[256];			/* QUIC_SOCKOPT_ALPN */
	struct quic_config cfg;
	uint32_t close_code;		/* QUIC_SOCKOPT_CONNECTION_CLOSE set */
	uint32_t peer_code;		/* the peer's close, once gone */
	size_t max_read;		/* cut every recvmsg() to this (0: no) */
	bool ticket_key;		/* server: a listener's ticket key to read */
	uint8_t ticket[4096];		/* client: the last NewSessionTicket */
	size_t ticket_len;
	bool ticket_new;		/* client: not read yet (POLLPRI) */
	uint8_t hello[4096];		/* client: Initial bytes it sent (ClientHello) */
	size_t hello_len;
	unsigned int violations;	/* calls the kernel would refuse */
	struct fake_msg *q;		/* bytes on their way to us */
};

/* Create a connected client/server pair (fake.c says more). */
int fake_pair(int *cfd, int *sfd);
struct fake_sock *fake_get(int fd);
void fake_reset(void);
void fake_install(void);

#endif
