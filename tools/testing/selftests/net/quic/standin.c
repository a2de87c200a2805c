// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The TLS handshake stand-in of the static selftests (see standin.h).
 */

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/tls.h>
#include <linux/quic.h>

#include "ktap.h"
#include "standin.h"

int wait_fd(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int n = poll(&pfd, 1, STANDIN_TIMEO_S * 1000);

	if (n == 1)
		return 0;
	errno = n ? errno : ETIMEDOUT;
	return -1;
}

/* sendmsg() with one SOL_QUIC control message; waits on EAGAIN. */
ssize_t quic_send(int fd, int type, const void *ctl, size_t ctl_len, const void *data,
			 size_t len)
{
	char cbuf[CMSG_SPACE(sizeof(struct quic_stream_info))] = { 0 };
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;
	ssize_t n;

	msg.msg_control = cbuf;
	msg.msg_controllen = CMSG_SPACE(ctl_len);
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_QUIC;
	cmsg->cmsg_type = type;
	cmsg->cmsg_len = CMSG_LEN(ctl_len);
	memcpy(CMSG_DATA(cmsg), ctl, ctl_len);
	for (;;) {
		n = sendmsg(fd, &msg, 0);
		if (n >= 0 || errno != EAGAIN || wait_fd(fd, POLLOUT))
			return n;
	}
}

/* recvmsg() returning the control message's content in @ctl; waits on EAGAIN. */
ssize_t quic_recv(int fd, int type, void *ctl, size_t ctl_len, void *data, size_t len)
{
	char cbuf[CMSG_SPACE(sizeof(struct quic_stream_info))];
	struct iovec iov = { .iov_base = data, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;
	ssize_t n;

	for (;;) {
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		n = recvmsg(fd, &msg, 0);
		if (n >= 0 || errno != EAGAIN || wait_fd(fd, POLLIN))
			break;
	}
	if (n <= 0)
		return n;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_level != SOL_QUIC || cmsg->cmsg_type != type ||
	    cmsg->cmsg_len != CMSG_LEN(ctl_len)) {
		errno = EBADMSG;
		return -1;
	}
	memcpy(ctl, CMSG_DATA(cmsg), ctl_len);
	return n;
}

/* One handshake message: a 2-byte length, then the bytes. */
int hs_send(int fd, uint8_t level, const void *data, size_t len)
{
	struct quic_handshake_info hi = { .crypto_level = level };
	uint8_t buf[2048];

	buf[0] = len >> 8;
	buf[1] = len;
	memcpy(buf + 2, data, len);
	return quic_send(fd, QUIC_HANDSHAKE_INFO, &hi, sizeof(hi), buf, len + 2) ==
	       (ssize_t)len + 2 ? 0 : -1;
}

int hs_read(int fd, uint8_t level, uint8_t *buf, size_t len)
{
	struct quic_handshake_info hi;
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = quic_recv(fd, QUIC_HANDSHAKE_INFO, &hi, sizeof(hi), buf + got, len - got);
		if (n <= 0 || hi.crypto_level != level) {
			if (!n || hi.crypto_level != level)
				errno = EPROTO;
			return -1;
		}
		got += n;
	}
	return 0;
}

ssize_t hs_recv(int fd, uint8_t level, uint8_t *buf, size_t max)
{
	uint8_t hdr[2];
	size_t len;

	if (hs_read(fd, level, hdr, 2))
		return -1;
	len = hdr[0] << 8 | hdr[1];
	if (len > max || hs_read(fd, level, buf, len))
		return -1;
	return len;
}

int secret(int fd, uint8_t level, bool send, bool client_dir)
{
	struct quic_crypto_secret s = { .send = send, .level = level,
					.type = TLS_CIPHER_AES_GCM_128 };

	memset(s.secret, 0x30 + level * 2 + client_dir, sizeof(s.secret));
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CRYPTO_SECRET, &s, sizeof(s));
}

int secrets(int fd, uint8_t level, bool client)
{
	return secret(fd, level, true, client) ?: secret(fd, level, false, !client);
}

/* The TLS 1.3 flights, with the transport parameters inside them. */
int handshake(int fd, bool client)
{
	uint8_t tp[1024], msg[1200];
	socklen_t tplen = sizeof(tp);
	ssize_t n;

	CHECK(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, tp, &tplen),
	      "our transport parameters");
	if (client) {
		CHECK(!hs_send(fd, QUIC_CRYPTO_INITIAL, tp, tplen), "ClientHello");
		n = hs_recv(fd, QUIC_CRYPTO_INITIAL, msg, sizeof(msg));
		CHECK(n > 0, "ServerHello");
		CHECK(!secrets(fd, QUIC_CRYPTO_HANDSHAKE, true), "Handshake secrets");
		n = hs_recv(fd, QUIC_CRYPTO_HANDSHAKE, msg, sizeof(msg));
		CHECK(n > 0, "EncryptedExtensions");
		CHECK(!setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, msg, n),
		      "server's transport parameters");
		CHECK(!hs_send(fd, QUIC_CRYPTO_HANDSHAKE, "finished", 8), "client Finished");
		CHECK(!secrets(fd, QUIC_CRYPTO_APP, true), "1-RTT secrets");
		return 0;
	}
	n = hs_recv(fd, QUIC_CRYPTO_INITIAL, msg, sizeof(msg));
	CHECK(n > 0, "ClientHello");
	CHECK(!setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, msg, n),
	      "client's transport parameters");
	CHECK(!secrets(fd, QUIC_CRYPTO_HANDSHAKE, false), "Handshake secrets");
	CHECK(!hs_send(fd, QUIC_CRYPTO_INITIAL, "server hello", 12), "ServerHello");
	CHECK(!hs_send(fd, QUIC_CRYPTO_HANDSHAKE, tp, tplen), "EncryptedExtensions");
	n = hs_recv(fd, QUIC_CRYPTO_HANDSHAKE, msg, sizeof(msg));
	CHECK(n == 8 && !memcmp(msg, "finished", 8), "client Finished");
	CHECK(!secrets(fd, QUIC_CRYPTO_APP, false), "1-RTT secrets");
	return 0;
}
