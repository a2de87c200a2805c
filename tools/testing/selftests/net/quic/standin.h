/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A stand-in for the TLS handshake, for the static selftests (no GnuTLS):
 * it makes the calls a TLS library makes on a QUIC socket. Handshake
 * "messages" go with sendmsg()/recvmsg() and QUIC_HANDSHAKE_INFO, the
 * transport parameters ride inside them as TLS carries them (ClientHello,
 * EncryptedExtensions) and are handed over with
 * QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, and fixed traffic secrets are
 * installed with QUIC_SOCKOPT_CRYPTO_SECRET. The fixed secrets are a test
 * device only; nothing in the kernel knows them.
 */

#ifndef __QUIC_SELFTEST_STANDIN_H__
#define __QUIC_SELFTEST_STANDIN_H__

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* How long wait_fd() waits, seconds. */
#define STANDIN_TIMEO_S	20

/* On failure: a KTAP diagnostic naming @what and errno, and return -1. */
#define CHECK(cond, what) do { if (!(cond)) { ktap_diag("%s: %s", what, \
	errno_name(errno)); return -1; } } while (0)

/* poll() @fd for @events; 0, or -1 with errno (ETIMEDOUT). */
int wait_fd(int fd, short events);
/* sendmsg() with one SOL_QUIC control message; waits on EAGAIN. */
ssize_t quic_send(int fd, int type, const void *ctl, size_t ctl_len, const void *data,
		  size_t len);
/* recvmsg() returning the control message's content in @ctl; waits on EAGAIN. */
ssize_t quic_recv(int fd, int type, void *ctl, size_t ctl_len, void *data, size_t len);
/* One handshake message at @level: a 2-byte length, then the bytes. */
int hs_send(int fd, uint8_t level, const void *data, size_t len);
/* Exactly @len handshake bytes at @level. */
int hs_read(int fd, uint8_t level, uint8_t *buf, size_t len);
/* One handshake message at @level into @buf; its length, or -1. */
ssize_t hs_recv(int fd, uint8_t level, uint8_t *buf, size_t max);
/* Install the fixed secret of one direction at @level. */
int secret(int fd, uint8_t level, bool send, bool client_dir);
/* Install both directions' fixed secrets at @level. */
int secrets(int fd, uint8_t level, bool client);
/* The TLS 1.3 flights, with the transport parameters inside them. */
int handshake(int fd, bool client);

#endif /* __QUIC_SELFTEST_STANDIN_H__ */
