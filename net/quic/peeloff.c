// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC stream peeloff (draft-lxin-quic-socket-apis,
 * QUIC_SOCKOPT_STREAM_PEELOFF and its Appendix B): one stream of a
 * connection as a socket of its own.
 *
 * getsockopt(QUIC_SOCKOPT_STREAM_PEELOFF) on an established connection
 * returns a new descriptor of the same family and type for one open
 * stream. Its send(), write() and sendmsg() go on that stream, without
 * QUIC_STREAM_INFO (MSG_STREAM_FIN in the flags ends it); its recv(),
 * read() and recvmsg() return that stream's bytes, wherever they sit in
 * the connection's queue, and the connection's own recvmsg() passes them
 * over from then on. poll() combines the stream's state and the
 * connection's. shutdown(SHUT_WR) sends a FIN, SHUT_RD a STOP_SENDING and
 * drops what is queued for the stream (its credit goes back to the peer),
 * and close() does both, each only where the stream's state allows it.
 * Events about the stream still come on the connection's socket.
 *
 * The stream socket has a small struct sock of its own: its SO_RCVTIMEO
 * and SO_SNDTIMEO apply and security modules see a socket. It holds the
 * connection's socket, and a reference on its file when it has one, so the
 * connection and its wait queue, on which the stream socket waits, last
 * until the last stream socket is closed, as with a dup()ed descriptor.
 * A kernel user's connection socket has no file: that user releases its
 * stream sockets first. Each call runs under the connection's socket lock
 * (sockmsg.c); nothing here takes that lock twice.
 */

#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/security.h>
#include <net/sock.h>

#include "family.h"
#include "peeloff.h"
#include "socket.h"
#include "sockmsg.h"

/**
 * struct quic_peel_sock - the socket of a peeled-off stream
 * @sk: its own socket
 * @conn: the connection's socket (a reference held), NULL until attached
 * @file: the connection's file (a reference held), NULL for a kernel
 *	connection socket
 * @id: the stream
 */
struct quic_peel_sock {
	struct sock sk;
	struct sock *conn;
	struct file *file;
	s64 id;
};

static struct quic_peel_sock *quic_peel_sk(const struct sock *sk)
{
	return container_of(sk, struct quic_peel_sock, sk);
}

static struct proto quic_peel_prot = {
	.name		= "QUIC_STREAM",
	.owner		= THIS_MODULE,
	.obj_size	= sizeof(struct quic_peel_sock),
};

static int quic_peel_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct quic_peel_sock *ps;

	if (!sk)
		return 0;
	ps = quic_peel_sk(sk);
	if (ps->conn) {
		quic_msg_stream_end(ps->conn, ps->id, SHUTDOWN_MASK, &sk->sk_shutdown);
		sock_put(ps->conn);
		if (ps->file)
			fput(ps->file);
	}
	sock_orphan(sk);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

static int quic_peel_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct quic_peel_sock *ps = quic_peel_sk(sock->sk);

	if (READ_ONCE(sock->sk->sk_shutdown) & SEND_SHUTDOWN)
		return -EPIPE;
	return quic_msg_stream_sendmsg(ps->conn, ps->id, msg, len,
				       sock_sndtimeo(sock->sk, msg->msg_flags & MSG_DONTWAIT));
}

static int quic_peel_recvmsg(struct socket *sock, struct msghdr *msg, size_t len, int flags)
{
	struct quic_peel_sock *ps = quic_peel_sk(sock->sk);

	if (flags & (MSG_OOB | MSG_ERRQUEUE))
		return -EOPNOTSUPP;
	if (READ_ONCE(sock->sk->sk_shutdown) & RCV_SHUTDOWN)
		return 0;
	return quic_msg_stream_recvmsg(ps->conn, ps->id, msg, len, flags,
				       sock_rcvtimeo(sock->sk, flags & MSG_DONTWAIT));
}

static __poll_t quic_peel_poll(struct file *file, struct socket *sock, poll_table *wait)
{
	struct quic_peel_sock *ps = quic_peel_sk(sock->sk);
	u8 shut = READ_ONCE(sock->sk->sk_shutdown);
	__poll_t mask;

	/* What changes the stream wakes the connection's waiters. */
	poll_wait(file, sk_sleep(ps->conn), wait);
	mask = quic_msg_stream_poll(ps->conn, ps->id);
	if (shut & RCV_SHUTDOWN)
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	if (shut & SEND_SHUTDOWN)
		mask &= ~(EPOLLOUT | EPOLLWRNORM);
	return mask;
}

static int quic_peel_shutdown(struct socket *sock, int how)
{
	struct quic_peel_sock *ps = quic_peel_sk(sock->sk);

	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	/* SHUT_RD, SHUT_WR, SHUT_RDWR are RCV_SHUTDOWN, SEND_SHUTDOWN or both, less one. */
	quic_msg_stream_end(ps->conn, ps->id, how + 1, &sock->sk->sk_shutdown);
	return 0;
}

static int quic_peel_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sock *conn = quic_peel_sk(sock->sk)->conn;

	if (!conn->sk_socket)
		return -ENOTCONN;
	return quic_get_sk_addr(conn->sk_socket, uaddr, peer);
}

static int quic_peel_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	return -ENOIOCTLCMD;
}

static const struct proto_ops quic_peel_ops = {
	.family		= PF_INET,
	.owner		= THIS_MODULE,
	.release	= quic_peel_release,
	.bind		= sock_no_bind,
	.connect	= sock_no_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= quic_peel_getname,
	.poll		= quic_peel_poll,
	.ioctl		= quic_peel_ioctl,
	.listen		= sock_no_listen,
	.shutdown	= quic_peel_shutdown,
	.sendmsg	= quic_peel_sendmsg,
	.recvmsg	= quic_peel_recvmsg,
	.mmap		= sock_no_mmap,
};

/* A stream socket of @sk's family and type, not attached to a stream yet. */
static int quic_peel_alloc(struct sock *sk, struct socket **sockp)
{
	struct socket *sock;
	struct sock *nsk;
	int err;

	err = sock_create_lite(sk->sk_family, sk->sk_type, IPPROTO_QUIC, &sock);
	if (err)
		return err;
	/* Charged to the caller's memory cgroup, as socket slabs are. */
	nsk = sk_alloc(sock_net(sk), sk->sk_family, GFP_KERNEL_ACCOUNT, &quic_peel_prot,
		       !sk->sk_net_refcnt);
	if (!nsk) {
		sock_release(sock);
		return -ENOMEM;
	}
	/* The stream socket is the connection's: it carries its labels. */
	security_sk_clone(sk, nsk);
	sock->ops = &quic_peel_ops;
	__module_get(sock->ops->owner);
	sock_init_data(sock, nsk);
	nsk->sk_protocol = IPPROTO_QUIC;
	*sockp = sock;
	return 0;
}

/* Give @sock the stream @id of @sk. Returns 0 or the errno of
 * quic_peel_stream().
 */
static int quic_peel_attach(struct sock *sk, struct socket *sock, s64 id)
{
	struct quic_peel_sock *ps = quic_peel_sk(sock->sk);
	struct quic_stream *s = NULL;
	int err = 0;

	lock_sock(sk);
	/* The stream table exists from connect() or accept() on. */
	if (quic_is_established(sk))
		s = quic_stream_find(quic_streams(sk), id);
	if (!quic_is_established(sk))
		err = -ENOTCONN;
	else if (!s)
		err = -ENOENT;
	else if (s->peeled)
		err = -EBUSY;
	if (!err) {
		sock_hold(sk);
		ps->conn = sk;
		ps->id = id;
		if (sk->sk_socket && sk->sk_socket->file)
			ps->file = get_file(sk->sk_socket->file);
		quic_inq_stream_peel(quic_inq(sk), s);
	}
	release_sock(sk);
	return err;
}

/**
 * quic_peel_stream - a socket for one stream of a connection
 * @sk: the connection's socket, not locked
 * @id: the stream, open
 * @sockp: out: the stream's socket, released with sock_release()
 *
 * For kernel users; the option below makes a descriptor of it.
 *
 * Context: process context; takes the socket lock.
 * Return: 0; -ENOTCONN when the connection is not established; -ENOENT
 * for a stream not open (never opened, or ended and released); -EBUSY for
 * a stream peeled off already; -ENOMEM; what socket creation returns (a
 * security module may refuse it).
 */
int quic_peel_stream(struct sock *sk, s64 id, struct socket **sockp)
{
	int err;

	err = quic_peel_alloc(sk, sockp);
	if (err)
		return err;
	err = quic_peel_attach(sk, *sockp, id);
	if (err) {
		sock_release(*sockp);
		*sockp = NULL;
	}
	return err;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_peel_stream);

/**
 * quic_peel_opt - getsockopt(QUIC_SOCKOPT_STREAM_PEELOFF)
 * @sk: the connection's socket, not locked
 * @len: the caller's buffer length
 * @optval: struct quic_stream_peeloff: @stream_id and @flags (O_CLOEXEC,
 *	O_NONBLOCK for the new descriptor) in, @sd out
 * @optlen: where the length written goes
 *
 * The descriptor is written to @sd before the stream is taken, so that
 * nothing remains to undo once it is.
 *
 * Context: process context; takes the socket lock.
 * Return: the new descriptor; -EINVAL for a short buffer or other flags;
 * -EOPNOTSUPP for a kernel caller (quic_peel_stream() is its call); the
 * errors of quic_peel_stream(); -EMFILE, -ENFILE; -EFAULT.
 */
int quic_peel_opt(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen)
{
	struct quic_stream_peeloff p;
	struct socket *sock;
	struct file *file;
	int fd, err;

	if (sockptr_is_kernel(optval))
		return -EOPNOTSUPP;
	if (len < sizeof(p))
		return -EINVAL;
	if (copy_from_sockptr(&p, optval, sizeof(p)))
		return -EFAULT;
	if (p.flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	/* Checked again, locked, by quic_peel_attach(); this spares the
	 * allocations when it cannot work.
	 */
	if (!quic_is_established(sk))
		return -ENOTCONN;

	fd = get_unused_fd_flags(p.flags & O_CLOEXEC);
	if (fd < 0)
		return fd;
	err = quic_peel_alloc(sk, &sock);
	if (err)
		goto put_fd;
	file = sock_alloc_file(sock, p.flags & O_NONBLOCK, NULL);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);	/* @sock is released */
		goto put_fd;
	}
	p.sd = fd;
	len = sizeof(p);
	err = -EFAULT;
	if (copy_to_sockptr(optval, &p, len) || copy_to_sockptr(optlen, &len, sizeof(len)))
		goto put_file;
	err = quic_peel_attach(sk, sock, p.stream_id);
	if (err)
		goto put_file;
	fd_install(fd, file);
	return fd;

put_file:
	fput(file);
put_fd:
	put_unused_fd(fd);
	return err;
}

/**
 * quic_peel_init - register the stream sockets' protocol
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int quic_peel_init(void)
{
	return proto_register(&quic_peel_prot, 0);
}

/**
 * quic_peel_exit - unregister the stream sockets' protocol
 *
 * Context: module exit; no stream socket is left (each holds the module).
 */
void quic_peel_exit(void)
{
	proto_unregister(&quic_peel_prot);
}
