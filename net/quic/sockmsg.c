// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC socket data calls.
 *
 * sendmsg():
 *  - with a QUIC_HANDSHAKE_INFO control message: TLS handshake bytes for
 *    CRYPTO frames at that encryption level (the TLS library's output);
 *  - with MSG_DATAGRAM in msg_flags: one DATAGRAM frame (RFC 9221);
 *  - otherwise stream data: the stream of a QUIC_STREAM_INFO control
 *    message, or without one of the flags argument (draft-lxin-quic-
 *    socket-apis): stream ID -1 or none is a new stream with
 *    MSG_STREAM_NEW (MSG_STREAM_UNI: unidirectional), otherwise the latest
 *    opened stream we may send on; MSG_STREAM_FIN ends it;
 *    MSG_STREAM_DONTWAIT does not wait for a stream limit; MSG_MORE holds
 *    data that does not fill a packet until a write without it.
 * recvmsg() returns one chunk of what arrived in order, with a
 * QUIC_HANDSHAKE_INFO control message (CRYPTO data and its level; without
 * control message room, EINVAL), a QUIC_STREAM_INFO one (stream ID,
 * MSG_STREAM_FIN on the last byte; without room, the flags in msg_flags)
 * or MSG_DATAGRAM/MSG_NOTIFICATION. MSG_EOR marks the end of a datagram,
 * a notification or a stream; a datagram or notification longer than the
 * buffer continues on the next read. Both honour O_NONBLOCK/MSG_DONTWAIT,
 * SO_SNDTIMEO and SO_RCVTIMEO, and signals.
 */

#include <asm/ioctls.h>
#include <linux/fs.h>
#include <linux/random.h>
#include <linux/sockios.h>
#include <linux/sched/signal.h>
#include <net/sock.h>

#include "connection.h"
#include "memory.h"
#include "socket.h"
#include "sockmsg.h"
#include "transmit.h"

struct quic_msg_info {
	struct quic_handshake_info hs;
	struct quic_stream_info stream;
	bool has_hs;
	bool has_stream;
};

/* The fields of struct quic_stream_info before its reserved one. */
#define QUIC_MSG_STREAM_INFO_LEN	offsetofend(struct quic_stream_info, stream_flags)

static int quic_msg_parse(struct msghdr *msg, struct quic_msg_info *mi)
{
	struct cmsghdr *cmsg;

	memset(mi, 0, sizeof(*mi));
	for_each_cmsghdr(cmsg, msg) {
		if (!CMSG_OK(msg, cmsg))
			return -EINVAL;
		if (cmsg->cmsg_level != SOL_QUIC)
			continue;
		/* Structures of other header generations (the draft's
		 * quic_handshake_info has seven reserved bytes): the fields
		 * we know are taken, what follows them is reserved. "Only
		 * one such type of ancillary data is allowed per sendmsg()"
		 * (draft-lxin-quic-socket-apis): a second one is refused.
		 */
		switch (cmsg->cmsg_type) {
		case QUIC_HANDSHAKE_INFO:
			if (cmsg->cmsg_len < CMSG_LEN(sizeof(mi->hs)) || mi->has_hs)
				return -EINVAL;
			memcpy(&mi->hs, CMSG_DATA(cmsg), sizeof(mi->hs));
			mi->has_hs = true;
			break;
		case QUIC_STREAM_INFO:
			if (cmsg->cmsg_len < CMSG_LEN(QUIC_MSG_STREAM_INFO_LEN) || mi->has_stream)
				return -EINVAL;
			memcpy(&mi->stream, CMSG_DATA(cmsg), QUIC_MSG_STREAM_INFO_LEN);
			mi->has_stream = true;
			break;
		default:
			return -EINVAL;
		}
	}
	if (mi->has_hs && mi->has_stream)
		return -EINVAL;
	return 0;
}

/* The connection can still carry data: an error or its end ends waits. */
static bool quic_msg_alive(struct sock *sk)
{
	return quic_is_establishing(sk) || quic_is_established(sk);
}

/* Wait for send buffer room (SO_SNDBUF bounds what is queued and not yet
 * acknowledged). Return: 0 or a negative errno.
 */
static int quic_msg_wait_room(struct sock *sk, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		if (sk->sk_err) {
			err = sock_error(sk);
			break;
		}
		if (!quic_msg_alive(sk)) {
			err = -EPIPE;
			break;
		}
		if (quic_outq_wmem(quic_outq(sk)) < READ_ONCE(sk->sk_sndbuf))
			break;
		if (!*timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(*timeo);
			break;
		}
		set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		sk_wait_event(sk, timeo, sk->sk_err || !quic_msg_alive(sk) ||
			      quic_outq_wmem(quic_outq(sk)) < READ_ONCE(sk->sk_sndbuf), &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/*
 * The send buffer has room but socket memory is short (the protocol's hard
 * limit, net.quic.quic_mem, or the memory cgroup): nothing of ours may be
 * freed soon, so wait a little and try again, as sk_stream_wait_memory()
 * does for TCP. Return: 0 to try again, or the error to return.
 */
static int quic_msg_wait_memory(struct sock *sk, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	long pause = get_random_u32_below(HZ / 5) + 2;
	int err = 0;

	if (!*timeo)
		return -EAGAIN;
	if (signal_pending(current))
		return sock_intr_errno(*timeo);
	pause = min(pause, *timeo);
	*timeo -= pause;
	set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
	add_wait_queue(sk_sleep(sk), &wait);
	sk_wait_event(sk, &pause, sk->sk_err || !quic_msg_alive(sk), &wait);
	remove_wait_queue(sk_sleep(sk), &wait);
	*timeo += pause;
	if (sk->sk_err)
		err = sock_error(sk);
	else if (!quic_msg_alive(sk))
		err = -EPIPE;
	return err;
}

/* TLS handshake bytes for CRYPTO frames at the level the control message names. */
static int quic_msg_send_crypto(struct sock *sk, struct msghdr *msg, size_t len, u8 level)
{
	u8 *buf;
	int err;

	if (!quic_msg_alive(sk))
		return -ENOTCONN;
	/* 0-RTT packets carry no CRYPTO frames (RFC 9000 Section 12.4). */
	if (level == QUIC_CRYPTO_EARLY || level >= QUIC_CRYPTO_MAX)
		return -EINVAL;
	if (!quic_crypto(sk, level)->tx.ready)
		return -ENOKEY;
	if (!len || len > QUIC_MSG_CRYPTO_MAX)
		return -EMSGSIZE;

	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = -EFAULT;
	if (!copy_from_iter_full(buf, len, &msg->msg_iter))
		goto out;
	err = quic_outq_crypto_append(quic_outq(sk), level, buf, len, GFP_KERNEL);
	if (!err)
		quic_xmit(sk);
out:
	kfree(buf);
	return err ?: len;
}

/*
 * Data may go on streams (and in DATAGRAM frames) once the handshake is
 * done, and at a client
 * during it when the peer's limits are known from an earlier connection
 * (RFC 9000 Section 7.4.1): it leaves in 0-RTT packets if the TLS library
 * installs 0-RTT keys (RFC 9001 Section 4.6.1), otherwise in the first
 * 1-RTT ones.
 */
static bool quic_msg_stream_ready(struct sock *sk)
{
	if (quic_is_established(sk))
		return true;
	return quic_is_establishing(sk) && !quic_paths(sk)->serv &&
	       (quic_sk(sk)->remote_remembered ||
		quic_crypto(sk, QUIC_CRYPTO_EARLY)->tx.ready);
}

static int quic_msg_send_datagram(struct sock *sk, struct msghdr *msg, size_t len)
{
	int err;

	/* RFC 9221 Section 3: in 0-RTT packets too, with the remembered
	 * max_datagram_frame_size (quic_msg_stream_ready()).
	 */
	if (!quic_msg_stream_ready(sk))
		return -ENOTCONN;
	/* RFC 9221 Section 3: the peer's max_datagram_frame_size bounds the
	 * whole frame; a frame that big may still not fit a packet.
	 */
	if (len + 1 + 8 > quic_remote_param(sk)->max_datagram_frame_size ||
	    len > quic_cong_mss(quic_cong(sk)) - 64)
		return -EMSGSIZE;

	/* Datagrams do not wait: one that socket memory cannot take is
	 * refused, as UDP refuses one its send buffer cannot.
	 */
	if (!quic_sock_wmem_charge(sk, len))
		return -ENOBUFS;
	err = quic_outq_datagram_append_iter(quic_outq(sk), &msg->msg_iter, len, GFP_KERNEL);
	if (err)
		return err;
	quic_xmit(sk);
	return len;
}

/* RFC 9000 Section 4.6: the peer's limit keeps us from opening a stream
 * of this type; tell it once per limit with STREAMS_BLOCKED.
 */
static void quic_msg_streams_blocked(struct sock *sk, bool uni)
{
	struct quic_frame f = {};

	if (!quic_stream_local_blocked(quic_streams(sk), uni, &f.limit.max))
		return;
	f.type = uni ? QUIC_FRAME_STREAMS_BLOCKED_UNI : QUIC_FRAME_STREAMS_BLOCKED_BIDI;
	if (!quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, GFP_KERNEL))
		quic_xmit(sk);
}

/* Opening streams changes the table: only with the socket lock held. */
static struct quic_stream *quic_msg_send_get(struct sock *sk, s64 id)
{
	sock_owned_by_me(sk);
	return quic_stream_send_get(quic_streams(sk), id, GFP_KERNEL);
}

/* Get stream @id to send on, opening it (and every lower one of its type)
 * when it is not open yet; waits for MAX_STREAMS unless @nowait or the
 * timeout is zero.
 *
 * While the peer's limit holds, STREAMS_BLOCKED tells it that we want
 * more streams (RFC 9000 Section 4.6). A caller about to wait wants them;
 * one that does not wait may only be trying, and the frame goes out for
 * it only when it asked with @sndblock (MSG_STREAM_SNDBLOCK).
 */
static struct quic_stream *quic_msg_stream_get(struct sock *sk, s64 id, bool nowait,
					       bool sndblock, long *timeo)
{
	struct quic_stream_table *t = quic_streams(sk);
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct quic_stream *s;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		s = quic_msg_send_get(sk, id);
		if (!IS_ERR(s) || PTR_ERR(s) != -EAGAIN)
			break;
		if (sndblock || (*timeo && !nowait))
			quic_msg_streams_blocked(sk, quic_stream_id_uni(id));
		if (!*timeo || nowait)
			break;
		if (signal_pending(current)) {
			s = ERR_PTR(sock_intr_errno(*timeo));
			break;
		}
		/* Evaluated after release_sock() too: only reads. */
		sk_wait_event(sk, timeo, sk->sk_err || !quic_msg_alive(sk) ||
			      quic_stream_send_limit_allows(t, id), &wait);
		if (sk->sk_err || !quic_msg_alive(sk)) {
			s = ERR_PTR(-EPIPE);
			break;
		}
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return s;
}

/* The stream a write goes to, opened when asked for. */
static struct quic_stream *quic_msg_stream(struct sock *sk, const struct quic_msg_info *mi,
					   long *timeo)
{
	struct quic_stream_table *t = quic_streams(sk);
	u32 flags = mi->stream.stream_flags;
	struct quic_stream *s;
	s64 id;

	/* draft-lxin-quic-socket-apis, Stream Information: ID -1 (or no ID:
	 * no QUIC_STREAM_INFO) is a new stream with MSG_STREAM_NEW, otherwise
	 * the latest opened stream, by either end, that we may send on. With
	 * none open yet, a new one is opened rather than the write refused.
	 */
	id = mi->stream.stream_id;
	if (!mi->has_stream || id == -1) {
		if ((flags & MSG_STREAM_NEW) || t->latest < 0)
			id = quic_stream_next_local_id(t, !!(flags & MSG_STREAM_UNI));
		else
			id = t->latest;
	}

	s = quic_msg_stream_get(sk, id, flags & MSG_STREAM_DONTWAIT,
				flags & MSG_STREAM_SNDBLOCK, timeo);
	if (IS_ERR(s) && PTR_ERR(s) == -ENOENT)
		s = ERR_PTR(-EPIPE);	/* ended and released */
	return s;
}

/**
 * quic_msg_stream_open - QUIC_SOCKOPT_STREAM_OPEN: open a stream before writing to it
 * @sk: the socket, owned by the caller
 * @len: the caller's buffer length
 * @optval: a struct quic_stream_info: in, @stream_id (-1: the next stream
 *	of ours of the type @stream_flags asks for) and @stream_flags
 *	(MSG_STREAM_UNI: unidirectional; MSG_STREAM_DONTWAIT: do not wait
 *	for the peer's stream limit; MSG_STREAM_SNDBLOCK: send
 *	STREAMS_BLOCKED even when not waiting); out, the stream's ID
 * @optlen: where the length written goes
 *
 * An explicit @stream_id must be one of ours that we may send on, of the
 * type MSG_STREAM_UNI says; like a first write to it, opening it opens
 * every lower-numbered stream of its type (RFC 9000 Section 3.2). When the
 * peer's limit does not allow the stream yet, the call sends
 * STREAMS_BLOCKED and waits for MAX_STREAMS (SO_SNDTIMEO, signals), unless
 * MSG_STREAM_DONTWAIT is set or the socket is non-blocking: it then fails
 * with -EAGAIN, and sends STREAMS_BLOCKED only with MSG_STREAM_SNDBLOCK.
 *
 * Return: 0, -EINVAL for a bad length, unknown flags or a stream ID that
 * is not one of ours of that type, -EEXIST for a stream opened before,
 * -ENOTCONN before the handshake can carry data, -EAGAIN, -EPIPE when the
 * connection ends while waiting, -EINTR/-ERESTARTSYS, -EFAULT, -ENOMEM.
 */
int quic_msg_stream_open(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen)
{
	struct quic_stream_table *t = quic_streams(sk);
	struct quic_stream_info si;
	struct quic_stream *s;
	bool uni, nonblock;
	long timeo;

	sock_owned_by_me(sk);
	if (len < sizeof(si))
		return -EINVAL;
	if (copy_from_sockptr(&si, optval, sizeof(si)))
		return -EFAULT;
	if (si.stream_flags & ~(MSG_STREAM_UNI | MSG_STREAM_DONTWAIT | MSG_STREAM_SNDBLOCK))
		return -EINVAL;
	if (!quic_msg_stream_ready(sk))
		return -ENOTCONN;

	uni = si.stream_flags & MSG_STREAM_UNI;
	if (si.stream_id == -1)
		si.stream_id = quic_stream_next_local_id(t, uni);
	if (!quic_stream_id_valid(si.stream_id) ||
	    !quic_stream_id_local(si.stream_id, t->is_serv) ||
	    quic_stream_id_uni(si.stream_id) != uni)
		return -EINVAL;
	if (si.stream_id < quic_stream_next_local_id(t, uni))
		return -EEXIST;

	/* getsockopt() carries no MSG_DONTWAIT: O_NONBLOCK is read here. */
	nonblock = (si.stream_flags & MSG_STREAM_DONTWAIT) ||
		   (sk->sk_socket && sk->sk_socket->file &&
		    (sk->sk_socket->file->f_flags & O_NONBLOCK));
	timeo = sock_sndtimeo(sk, nonblock);
	s = quic_msg_stream_get(sk, si.stream_id, false,
				si.stream_flags & MSG_STREAM_SNDBLOCK, &timeo);
	if (IS_ERR(s))
		return PTR_ERR(s);
	si.stream_flags = 0;
	len = sizeof(si);
	if (copy_to_sockptr(optval, &si, len) || copy_to_sockptr(optlen, &len, sizeof(len)))
		return -EFAULT;
	return 0;
}

/* The stream of a QUIC_SOCKOPT_STREAM_RESET / STOP_SENDING value. */
static struct quic_stream *quic_msg_errinfo_stream(struct sock *sk, sockptr_t optval,
						   unsigned int optlen, bool send,
						   struct quic_errinfo *ei)
{
	struct quic_stream_table *t = quic_streams(sk);
	struct quic_stream *s;

	if (optlen != sizeof(*ei))
		return ERR_PTR(-EINVAL);
	if (copy_from_sockptr(ei, optval, sizeof(*ei)))
		return ERR_PTR(-EFAULT);
	if (!quic_msg_stream_ready(sk))
		return ERR_PTR(-ENOTCONN);
	if (!quic_stream_id_valid(ei->stream_id) ||
	    (send ? !quic_stream_id_send(ei->stream_id, t->is_serv) :
		    !quic_stream_id_recv(ei->stream_id, t->is_serv)))
		return ERR_PTR(-EINVAL);
	s = quic_stream_find(t, ei->stream_id);
	return s ?: ERR_PTR(-ENOENT);
}

/**
 * quic_msg_stream_reset_opt - QUIC_SOCKOPT_STREAM_RESET
 * @sk: the socket, owned by the caller
 * @optval: a struct quic_errinfo: the stream and the error code
 * @optlen: its size, exactly
 *
 * Resets the sending part of an open stream (quic_msg_stream_reset()).
 *
 * Return: 0, -EINVAL for a bad length or a stream ID we cannot send on,
 * -EFAULT, -ENOTCONN before the connection carries stream data, -ENOENT
 * for a stream not open (never opened, or ended and released), -EALREADY
 * when already reset or fully acknowledged, -ENOMEM.
 */
int quic_msg_stream_reset_opt(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	struct quic_errinfo ei;
	struct quic_stream *s;
	int err;

	sock_owned_by_me(sk);
	s = quic_msg_errinfo_stream(sk, optval, optlen, true, &ei);
	if (IS_ERR(s))
		return PTR_ERR(s);
	/* No STREAM_UPDATE: the draft reports Reset Sent only for a reset
	 * the peer's STOP_SENDING asked for. Reset Recvd follows its ACK.
	 */
	err = quic_msg_stream_reset(sk, s, ei.errcode);
	if (err)
		return err;
	quic_xmit(sk);
	return 0;
}

/**
 * quic_msg_stop_sending_opt - QUIC_SOCKOPT_STREAM_STOP_SENDING
 * @sk: the socket, owned by the caller
 * @optval: a struct quic_errinfo: the stream and the error code
 * @optlen: its size, exactly
 *
 * RFC 9000 Sections 3.5 and 19.5: asks the peer to stop sending on a
 * stream whose data we no longer read. A STOP_SENDING is queued (and sent
 * again if lost, until the stream is reset or ends); the peer answers with
 * RESET_STREAM, which drops what was buffered (see the STREAM_UPDATE
 * notification). Data already received stays readable until then.
 *
 * Return: 0, -EINVAL for a bad length or a stream ID we cannot receive on,
 * -EFAULT, -ENOTCONN, -ENOENT for a stream not open, -EALREADY when all
 * its data arrived already or it was reset, -ENOMEM.
 */
int quic_msg_stop_sending_opt(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	struct quic_frame f = { .type = QUIC_FRAME_STOP_SENDING };
	struct quic_errinfo ei;
	struct quic_stream *s;
	int err;

	sock_owned_by_me(sk);
	s = quic_msg_errinfo_stream(sk, optval, optlen, false, &ei);
	if (IS_ERR(s))
		return PTR_ERR(s);
	if (s->recv.state != QUIC_STREAM_RECV_STATE_RECV &&
	    s->recv.state != QUIC_STREAM_RECV_STATE_SIZE_KNOWN)
		return -EALREADY;
	f.reset.id = s->id;
	f.reset.errcode = ei.errcode;
	err = quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, GFP_KERNEL);
	if (err)
		return err;
	quic_xmit(sk);
	return 0;
}

/* The stream flags a write may carry; any other bit is refused. */
#define QUIC_MSG_STREAM_SEND_FLAGS						\
	(MSG_STREAM_NEW | MSG_STREAM_FIN | MSG_STREAM_UNI | MSG_STREAM_DONTWAIT |	\
	 MSG_STREAM_SNDBLOCK)

static int quic_msg_send_stream(struct sock *sk, struct msghdr *msg, size_t len,
				const struct quic_msg_info *mi, long timeo)
{
	bool fin = mi->stream.stream_flags & MSG_STREAM_FIN;
	bool more = msg->msg_flags & MSG_MORE;
	struct quic_stream *s;
	size_t copied = 0;
	u32 chunk;
	s64 id;
	int err;

	if (mi->stream.stream_flags & ~QUIC_MSG_STREAM_SEND_FLAGS)
		return -EINVAL;
	if (!quic_msg_stream_ready(sk))
		return -ENOTCONN;
	s = quic_msg_stream(sk, mi, &timeo);
	if (IS_ERR(s))
		return PTR_ERR(s);
	id = s->id;
	/* MSG_MORE (the bit MSG_NOTIFICATION has on receive): what does not
	 * fill a packet waits for a write without it (draft-lxin-quic-
	 * socket-apis, sendmsg(); quic_sendmsg() lifts it).
	 */
	quic_outq(sk)->corked = more;

	do {
		err = quic_msg_wait_room(sk, &timeo);
		if (err)
			break;
		/* The lock may have been dropped while waiting: a reset by
		 * the peer may have ended and released the stream.
		 */
		s = quic_stream_find(quic_streams(sk), id);
		if (!s) {
			err = -EPIPE;
			break;
		}
		/* Straight from the user's buffer into the frame kept for
		 * retransmission, at most 64 KiB per frame.
		 */
		chunk = min_t(size_t, len - copied, SZ_64K);
		if (!quic_sock_wmem_charge(sk, chunk)) {
			err = quic_msg_wait_memory(sk, &timeo);
			if (err)
				break;
			continue;
		}
		err = quic_outq_stream_append_iter(quic_outq(sk), s, &msg->msg_iter, chunk,
						   fin && copied + chunk == len, GFP_KERNEL);
		if (err)
			break;
		copied += chunk;
		quic_xmit(sk);
	} while (copied < len);
	return copied ?: err;
}

/**
 * quic_sendmsg - sendmsg() on a QUIC socket
 * @sk: the socket
 * @msg: data and control messages (see the file comment)
 * @len: bytes in @msg
 *
 * Return: bytes queued, or a negative errno: -ENOTCONN before connect()
 * (or, for stream data and datagrams, before the handshake completed),
 * -EPIPE once the connection ended (after its error was returned once),
 * -EINVAL for a malformed control message, -EMSGSIZE, -EAGAIN, -EPIPE
 * once the connection is closed, -ENOKEY for a level without keys.
 */
int quic_sendmsg(struct sock *sk, struct msghdr *msg, size_t len)
{
	struct quic_msg_info mi;
	long timeo;
	int err;

	lock_sock(sk);
	/* Any write without MSG_MORE lets stream data held by one with it
	 * go, even when it fails itself.
	 */
	if (quic_outq(sk)->corked && !(msg->msg_flags & MSG_MORE)) {
		quic_outq(sk)->corked = 0;
		quic_xmit(sk);
	}
	err = quic_msg_parse(msg, &mi);
	if (err)
		goto out;
	if (sk->sk_err) {
		err = sock_error(sk);
		goto out;
	}
	/* Once the connection ended (its error, if any, was reported above),
	 * writes fail as on a TCP socket that was shut down; no SIGPIPE.
	 */
	if (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN) {
		err = -EPIPE;
		goto out;
	}
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	/* Without QUIC_STREAM_INFO the stream flags come with the flags
	 * argument (draft-lxin-quic-socket-apis, msghdr send side).
	 */
	if (!mi.has_stream)
		mi.stream.stream_flags = msg->msg_flags & QUIC_MSG_STREAM_SEND_FLAGS;
	if (mi.has_hs)
		err = quic_msg_send_crypto(sk, msg, len, mi.hs.crypto_level);
	else if (msg->msg_flags & MSG_DATAGRAM)
		err = quic_msg_send_datagram(sk, msg, len);
	else
		err = quic_msg_send_stream(sk, msg, len, &mi, timeo);
out:
	release_sock(sk);
	return err;
}

static int quic_msg_wait_data(struct sock *sk, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		if (quic_inq_readable(quic_inq(sk)))
			break;
		if (sk->sk_err) {
			err = sock_error(sk);
			break;
		}
		if (!quic_msg_alive(sk)) {
			/* After a clean close: end of file. */
			err = quic_is_listen(sk) ? -EINVAL : 1;
			break;
		}
		/* SHUT_RD: nothing will be queued again, end of file. */
		if (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN) {
			err = 1;
			break;
		}
		if (!*timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(*timeo);
			break;
		}
		sk_wait_event(sk, timeo, quic_inq_readable(quic_inq(sk)) || sk->sk_err ||
			      !quic_msg_alive(sk) || (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN),
			      &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/* Flow control credit the application freed: advertise it (RFC 9000 4.2). */
static void quic_msg_read_updates(struct sock *sk, const struct quic_inq_rinfo *ri,
				  bool queued)
{
	quic_msg_read_credit(sk, ri, GFP_KERNEL);
	/* @queued: MAX_STREAMS from quic_msg_stream_done() waits too. */
	if (ri->conn_update || ri->stream_update || queued)
		quic_xmit(sk);
}

/* The control message and flags of what @ri describes: the stream or
 * CRYPTO level it came from, or what kind of message it was.
 */
static void quic_msg_put_info(struct msghdr *msg, const struct quic_inq_rinfo *ri)
{
	struct quic_handshake_info hs;
	struct quic_stream_info si;

	switch (ri->type) {
	case QUIC_INQ_CRYPTO:
		hs.crypto_level = ri->level;
		put_cmsg(msg, SOL_QUIC, QUIC_HANDSHAKE_INFO, sizeof(hs), &hs);
		break;
	case QUIC_INQ_STREAM:
		memset(&si, 0, sizeof(si));
		si.stream_id = ri->stream_id;
		si.stream_flags = ri->fin ? MSG_STREAM_FIN : 0;
		/* The stream's end is a message's end. Without control
		 * message room the stream flags go to msg_flags instead
		 * (draft-lxin-quic-socket-apis, msghdr receive side).
		 */
		if (ri->fin)
			msg->msg_flags |= MSG_EOR;
		if (msg->msg_controllen)
			put_cmsg(msg, SOL_QUIC, QUIC_STREAM_INFO, sizeof(si), &si);
		else
			msg->msg_flags |= si.stream_flags;
		break;
	case QUIC_INQ_EVENT:
		msg->msg_flags |= MSG_NOTIFICATION;
		if (!ri->trunc)
			msg->msg_flags |= MSG_EOR;
		break;
	default:
		msg->msg_flags |= MSG_DATAGRAM;
		if (!ri->trunc)
			msg->msg_flags |= MSG_EOR;
		break;
	}
}

/*
 * MSG_WAITALL on stream data: read more of the stream the first read came
 * from until @len bytes, its FIN, an error, a signal or the timeout, or
 * until the head of the queue is something else (another stream's data, a
 * DATAGRAM, an event), which one recvmsg() never mixes in. The credit each
 * read frees is advertised at once, so a peer held by flow control can
 * send the rest.
 *
 * Return: bytes read here (the caller's first read not counted).
 */
static int quic_msg_read_rest(struct sock *sk, struct msghdr *msg, size_t len,
			      struct quic_inq_rinfo *ri, long *timeo)
{
	struct quic_inq_rinfo more;
	int copied = 0, n;

	while (!ri->fin && msg_data_left(msg) && copied < len) {
		quic_msg_read_updates(sk, ri, false);
		ri->conn_update = 0;
		ri->stream_update = 0;
		if (quic_msg_wait_data(sk, timeo) ||
		    !quic_inq_head_continues(quic_inq(sk), ri))
			break;
		n = quic_inq_read(quic_inq(sk), quic_streams(sk), &msg->msg_iter, &more);
		if (n < 0)
			break;
		copied += n;
		ri->fin = more.fin;
		ri->conn_update = more.conn_update;
		ri->max_data = more.max_data;
		ri->stream_update = more.stream_update;
		ri->max_stream_data = more.max_stream_data;
	}
	return copied;
}

/**
 * quic_recvmsg - recvmsg() on a QUIC socket
 * @sk: the socket
 * @msg: where the data and control messages go
 * @len: room in @msg
 * @flags: MSG_DONTWAIT; MSG_PEEK returns what the next read would and
 *	leaves it queued; MSG_WAITALL waits, on stream data, for @len bytes
 *	of the same stream or its end (quic_msg_read_rest())
 * @addr_len: unused: the peer is fixed
 *
 * Return: bytes read; 0 once the connection was closed cleanly and
 * nothing is left; or a negative errno: -ENOTCONN before connect(), -EAGAIN,
 * the connection's error (ECONNRESET when the peer closed it with an
 * error, ETIMEDOUT after the idle timeout, EPROTO after a protocol error).
 */
int quic_recvmsg(struct sock *sk, struct msghdr *msg, size_t len, int flags, int *addr_len)
{
	struct quic_inq_rinfo ri;
	bool queued = false;
	long timeo;
	int err;

	lock_sock(sk);
	if (quic_is_closed(sk) && !quic_inq_readable(quic_inq(sk)) && !sk->sk_err &&
	    !(READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN)) {
		err = -ENOTCONN;
		goto out;
	}
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	err = quic_msg_wait_data(sk, &timeo);
	if (err) {
		err = err > 0 ? 0 : err;
		goto out;
	}

	/* draft-lxin-quic-socket-apis, recv(): TLS messages come only with
	 * a QUIC_HANDSHAKE_INFO control message to say their level.
	 */
	if (!msg->msg_controllen && quic_inq_head_type(quic_inq(sk)) == QUIC_INQ_CRYPTO) {
		err = -EINVAL;
		goto out;
	}
	if (flags & MSG_PEEK) {
		err = quic_inq_peek(quic_inq(sk), &msg->msg_iter, &ri);
		if (err >= 0)
			quic_msg_put_info(msg, &ri);
		goto out;
	}
	err = quic_inq_read(quic_inq(sk), quic_streams(sk), &msg->msg_iter, &ri);
	if (err < 0)
		goto out;
	if ((flags & MSG_WAITALL) && ri.type == QUIC_INQ_STREAM)
		err += quic_msg_read_rest(sk, msg, len - err, &ri, &timeo);
	quic_msg_put_info(msg, &ri);
	if (ri.type == QUIC_INQ_STREAM && ri.fin) {
		struct quic_stream *s = quic_stream_find(quic_streams(sk), ri.stream_id);

		/* "App Read All Data" (Data Read, not a notified state): the
		 * stream may go.
		 */
		if (s)
			queued = quic_msg_stream_done(sk, s);
	}
	quic_msg_read_updates(sk, &ri, queued);
out:
	release_sock(sk);
	return err;
}

/*
 * One stream of the connection, for its peeled-off socket (peeloff.c).
 * Each call takes the connection's socket lock; the waits are on the
 * connection's wait queue, whose owner the stream socket keeps alive.
 */

/* The receiving part of @s has nothing more for its reader: 1 at its end,
 * -ECONNRESET after the peer's reset, 0 while data may still come.
 */
static int quic_msg_stream_recv_over(const struct quic_stream *s)
{
	switch (s->recv.state) {
	case QUIC_STREAM_RECV_STATE_RECV:
	case QUIC_STREAM_RECV_STATE_SIZE_KNOWN:
		return 0;
	case QUIC_STREAM_RECV_STATE_RESET_RECVD:
	case QUIC_STREAM_RECV_STATE_RESET_READ:
		return -ECONNRESET;
	default:
		return 1;	/* all read, or no receiving part */
	}
}

/* Wait for data of stream @id. Return: 0 when some is queued, 1 at the end
 * of the stream or of the connection, or a negative errno.
 */
static int quic_msg_stream_wait(struct sock *sk, s64 id, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct quic_inq *inq = quic_inq(sk);
	struct quic_stream *s;
	int err;
	u32 seq;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		err = 0;
		if (quic_inq_stream_readable(inq, id))
			break;
		s = quic_stream_find(quic_streams(sk), id);
		err = s ? quic_msg_stream_recv_over(s) : 1;
		if (err)
			break;
		err = -READ_ONCE(sk->sk_err);
		if (err)
			break;
		err = 1;
		if (!quic_msg_alive(sk))
			break;
		err = -EAGAIN;
		if (!*timeo)
			break;
		err = sock_intr_errno(*timeo);
		if (signal_pending(current))
			break;
		/* Evaluated after release_sock() too: only reads. */
		seq = READ_ONCE(inq->peeled_seq);
		sk_wait_event(sk, timeo, READ_ONCE(inq->peeled_seq) != seq ||
			      READ_ONCE(sk->sk_err) || !quic_msg_alive(sk), &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/**
 * quic_msg_stream_sendmsg - write to one stream, for its peeled-off socket
 * @sk: the connection's socket, not locked
 * @id: the stream
 * @msg: the data; MSG_STREAM_FIN in msg_flags ends the stream with it,
 *	MSG_MORE holds short data as on the connection's socket
 * @len: bytes in @msg
 * @timeo: how long to wait for send buffer room or memory
 *
 * Context: process context; takes the socket lock.
 * Return: bytes queued, or as quic_sendmsg(); the connection's error is
 * returned without being cleared (the connection's socket reports it too).
 */
int quic_msg_stream_sendmsg(struct sock *sk, s64 id, struct msghdr *msg, size_t len,
			    long timeo)
{
	struct quic_msg_info mi = { .has_stream = true };
	int err;

	lock_sock(sk);
	if (quic_outq(sk)->corked && !(msg->msg_flags & MSG_MORE)) {
		quic_outq(sk)->corked = 0;
		quic_xmit(sk);
	}
	err = -READ_ONCE(sk->sk_err);
	if (!err && (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN))
		err = -EPIPE;
	if (!err) {
		mi.stream.stream_id = id;
		mi.stream.stream_flags = msg->msg_flags & MSG_STREAM_FIN;
		err = quic_msg_send_stream(sk, msg, len, &mi, timeo);
	}
	release_sock(sk);
	return err;
}

/**
 * quic_msg_stream_recvmsg - read one stream, for its peeled-off socket
 * @sk: the connection's socket, not locked
 * @id: the stream
 * @msg: where the bytes go; MSG_EOR is set with the stream's last byte
 * @len: room in @msg
 * @flags: MSG_PEEK; MSG_WAITALL: @len bytes or the stream's end
 * @timeo: how long to wait for data
 *
 * Only this stream's data is read, wherever it sits in the connection's
 * queue; its flow control credit is returned to the peer as for any read.
 *
 * Context: process context; takes the socket lock.
 * Return: bytes read; 0 at the end of the stream (its last byte read, or
 * no receiving part) or after a clean close of the connection;
 * -ECONNRESET once the peer reset the stream; -EAGAIN; the connection's
 * error (not cleared); -EINTR/-ERESTARTSYS; -EFAULT.
 */
int quic_msg_stream_recvmsg(struct sock *sk, s64 id, struct msghdr *msg, size_t len,
			    int flags, long timeo)
{
	struct quic_inq_rinfo ri;
	struct quic_stream *s;
	int err, n, copied = 0;
	bool queued;

	lock_sock(sk);
	for (;;) {
		err = quic_msg_stream_wait(sk, id, &timeo);
		if (err)
			break;
		if (flags & MSG_PEEK) {
			n = quic_inq_peek_stream(quic_inq(sk), id, &msg->msg_iter, &ri);
			if (n < 0)
				err = n;
			copied = max(n, 0);
			break;
		}
		n = quic_inq_read_stream(quic_inq(sk), quic_streams(sk), id, &msg->msg_iter, &ri);
		if (n < 0) {
			err = n;
			break;
		}
		copied += n;
		queued = false;
		if (ri.fin) {
			msg->msg_flags |= MSG_EOR;
			s = quic_stream_find(quic_streams(sk), id);
			if (s)
				queued = quic_msg_stream_done(sk, s);
		}
		quic_msg_read_updates(sk, &ri, queued);
		if (ri.fin || !(flags & MSG_WAITALL) || !msg_data_left(msg) || copied >= len)
			break;
	}
	release_sock(sk);
	if (copied)
		return copied;
	return err > 0 ? 0 : err;
}

/**
 * quic_msg_stream_poll - the poll() mask of one stream's socket
 * @sk: the connection's socket, not locked
 * @id: the stream
 *
 * Readable: the stream's data is queued or its receiving part is over (a
 * read returns at once); writable: the connection is established, its
 * send buffer has room and the stream's sending part is open; error and
 * hang-up from the connection, hang-up too once the stream is released.
 *
 * Context: process context; takes the socket lock.
 * Return: the event mask.
 */
__poll_t quic_msg_stream_poll(struct sock *sk, s64 id)
{
	struct quic_stream *s;
	__poll_t mask = 0;

	lock_sock(sk);
	if (READ_ONCE(sk->sk_err))
		mask |= EPOLLERR;
	s = quic_stream_find(quic_streams(sk), id);
	if (!s || !quic_msg_alive(sk))
		mask |= EPOLLHUP | EPOLLIN | EPOLLRDNORM;
	if (quic_inq_stream_readable(quic_inq(sk), id) || (s && quic_msg_stream_recv_over(s)))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (s && quic_is_established(sk) &&
	    (s->send.state == QUIC_STREAM_SEND_STATE_READY ||
	     s->send.state == QUIC_STREAM_SEND_STATE_SEND)) {
		if (quic_outq_wmem(quic_outq(sk)) < READ_ONCE(sk->sk_sndbuf))
			mask |= EPOLLOUT | EPOLLWRNORM;
		else
			set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
	}
	release_sock(sk);
	return mask;
}

/**
 * quic_msg_stream_end - end one stream's parts, for its peeled-off socket
 * @sk: the connection's socket, not locked
 * @id: the stream
 * @how: SEND_SHUTDOWN: a FIN ends the sending part; RCV_SHUTDOWN:
 *	STOP_SENDING (error code 0) asks the peer to stop, and what is
 *	queued for the stream is read away so that its credit returns
 * @done: the stream socket's sk_shutdown: the parts of @how already in it
 *	are not ended again, and @how is added to it (under the connection's
 *	lock, so that concurrent calls end each part once)
 *
 * draft-lxin-quic-socket-apis, QUIC_SOCKOPT_STREAM_PEELOFF: close() and
 * shutdown() of the stream's socket, "if permitted by the stream state
 * and the parent socket state". A part already over is left alone.
 *
 * Context: process context; takes the socket lock.
 */
void quic_msg_stream_end(struct sock *sk, s64 id, u8 how, u8 *done)
{
	struct quic_frame f = { .type = QUIC_FRAME_STOP_SENDING };
	struct quic_inq_rinfo ri;
	struct quic_stream *s;
	struct iov_iter to;
	bool queued = false;

	lock_sock(sk);
	how &= ~*done;
	WRITE_ONCE(*done, *done | how);
	/* Only an established connection has streams to end. */
	if (!how || !quic_is_established(sk))
		goto out;
	s = quic_stream_find(quic_streams(sk), id);
	if (!s)
		goto out;
	if ((how & SEND_SHUTDOWN) && (s->send.state == QUIC_STREAM_SEND_STATE_READY ||
				      s->send.state == QUIC_STREAM_SEND_STATE_SEND)) {
		iov_iter_kvec(&to, ITER_SOURCE, NULL, 0, 0);
		if (!quic_outq_stream_append_iter(quic_outq(sk), s, &to, 0, true, GFP_KERNEL))
			queued = true;
	}
	if (how & RCV_SHUTDOWN) {
		if (s->recv.state == QUIC_STREAM_RECV_STATE_RECV ||
		    s->recv.state == QUIC_STREAM_RECV_STATE_SIZE_KNOWN) {
			f.reset.id = id;
			if (!quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, GFP_KERNEL))
				queued = true;
		}
		for (;;) {
			iov_iter_discard(&to, ITER_DEST, U32_MAX);
			if (quic_inq_read_stream(quic_inq(sk), quic_streams(sk), id, &to, &ri) < 0)
				break;
			queued |= quic_msg_read_credit(sk, &ri, GFP_KERNEL);
			if (ri.fin) {
				queued |= quic_msg_stream_done(sk, s);
				break;
			}
		}
	}
	if (queued)
		quic_xmit(sk);
out:
	release_sock(sk);
}

/**
 * quic_inet_poll - poll() on a QUIC socket
 * @file: the file
 * @sock: the socket
 * @wait: poll table
 *
 * Readable: data (or a client waiting in accept() for a listener);
 * writable: the handshake is done and the send buffer has room; error and
 * hang-up when the connection ended, as for TCP. EPOLLPRI: a client got a
 * session ticket that QUIC_SOCKOPT_SESSION_TICKET has not returned yet.
 *
 * Return: the event mask.
 */
__poll_t quic_inet_poll(struct file *file, struct socket *sock, poll_table *wait)
{
	struct sock *sk = sock->sk;
	__poll_t mask = 0;

	sock_poll_wait(file, sock, wait);
	if (quic_is_listen(sk))
		return list_empty(&quic_sk(sk)->requests) ? 0 : EPOLLIN | EPOLLRDNORM;

	if (READ_ONCE(sk->sk_err) || !skb_queue_empty_lockless(&sk->sk_error_queue))
		mask |= EPOLLERR;
	if (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN)
		mask |= EPOLLRDHUP | EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(sk->sk_shutdown) == SHUTDOWN_MASK)
		mask |= EPOLLHUP;
	if (quic_inq_readable(quic_inq(sk)))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(quic_sk(sk)->ticket_new))
		mask |= EPOLLPRI;
	if (quic_is_established(sk)) {
		if (quic_outq_wmem(quic_outq(sk)) < READ_ONCE(sk->sk_sndbuf))
			mask |= EPOLLOUT | EPOLLWRNORM;
		else
			set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
	}
	return mask;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_inet_poll);

/**
 * quic_ioctl - queue sizes for ioctl(), as TCP reports them
 * @sk: the socket, not locked
 * @cmd: SIOCINQ (bytes recvmsg() can return now), SIOCOUTQ (stream and
 *	datagram bytes held for sending: not yet sent or not yet
 *	acknowledged) or SIOCOUTQNSD (of those, the ones never sent)
 * @karg: out: the count, capped at INT_MAX
 *
 * Context: process context; takes the socket lock.
 * Return: 0, -EINVAL on a listening socket, -ENOIOCTLCMD for any other
 * command (the family's ioctl() then answers).
 */
int quic_ioctl(struct sock *sk, int cmd, int *karg)
{
	u64 n;

	if (cmd != SIOCINQ && cmd != SIOCOUTQ && cmd != SIOCOUTQNSD)
		return -ENOIOCTLCMD;
	lock_sock(sk);
	if (quic_is_listen(sk)) {
		release_sock(sk);
		return -EINVAL;
	}
	if (cmd == SIOCINQ)
		n = quic_inq_unread(quic_inq(sk));
	else if (cmd == SIOCOUTQ)
		n = quic_outq_wmem(quic_outq(sk));
	else
		n = quic_outq_unsent(quic_outq(sk));
	release_sock(sk);
	*karg = min_t(u64, n, INT_MAX);
	return 0;
}
