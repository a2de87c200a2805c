/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC socket data calls: sendmsg(), recvmsg() and poll(), with the
 * QUIC_HANDSHAKE_INFO and QUIC_STREAM_INFO control messages of the uapi.
 */

#ifndef __net_quic_sockmsg_h__
#define __net_quic_sockmsg_h__

#include <linux/net.h>
#include <linux/poll.h>
#include <linux/sockptr.h>

struct msghdr;
struct quic_stream;
struct sock;

/* Largest CRYPTO message one sendmsg() takes: a TLS flight with a long
 * certificate chain fits comfortably.
 */
#define QUIC_MSG_CRYPTO_MAX	(64 * 1024)

int quic_sendmsg(struct sock *sk, struct msghdr *msg, size_t len);
int quic_recvmsg(struct sock *sk, struct msghdr *msg, size_t len, int flags, int *addr_len);
__poll_t quic_inet_poll(struct file *file, struct socket *sock, poll_table *wait);
int quic_ioctl(struct sock *sk, int cmd, int *karg);

int quic_msg_stream_open(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen);
int quic_msg_stream_reset_opt(struct sock *sk, sockptr_t optval, unsigned int optlen);
int quic_msg_stop_sending_opt(struct sock *sk, sockptr_t optval, unsigned int optlen);

int quic_msg_stream_sendmsg(struct sock *sk, s64 id, struct msghdr *msg, size_t len,
			    long timeo);
int quic_msg_stream_recvmsg(struct sock *sk, s64 id, struct msghdr *msg, size_t len,
			    int flags, long timeo);
__poll_t quic_msg_stream_poll(struct sock *sk, s64 id);
void quic_msg_stream_end(struct sock *sk, s64 id, u8 how, u8 *done);

#endif /* __net_quic_sockmsg_h__ */
