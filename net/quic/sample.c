// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kernel consumer of QUIC, as SMB or NFS would be one: it opens a QUIC
 * socket with __sock_create(), lets a userspace agent run the TLS 1.3
 * handshake on it through net/handshake (tls_client_hello_*() and
 * tls_server_hello_*(), answered by tools/quic/quic-handshaked), then
 * exchanges one hq-interop request and response (HTTP/0.9: "GET /path"
 * on a new bidirectional stream, the body back, each ended by FIN) with
 * kernel_sendmsg() and kernel_recvmsg().
 *
 * Everything happens while the module loads, and the load returns what
 * happened: 0 after a complete exchange, otherwise the errno of the step
 * that failed (-ESRCH: no agent listens; -ETIMEDOUT: the handshake did not
 * finish in time; the agent's status when it failed the handshake). The
 * module then stays loaded only to be removed.
 *
 *   role=client  connect to addr:port, GET @path, check the body against
 *                @expect or @expect_size (a pattern) when given; with @fd,
 *                on the loader's own QUIC socket (created and connected
 *                in userspace) instead of a kernel socket
 *   role=server  listen on addr:port, answer one request with @reply_size
 *                pattern bytes, or a line naming the path when it is 0
 *   role=loop    both, the server in the network namespace of the
 *                process @server_pid (0: the loader's) and the client in
 *                the loader's
 *   role=tcp     ask for a client handshake on a TCP socket, which a QUIC
 *                agent must refuse (the load returns the agent's status)
 *
 * Before the handshake the sockets get their ALPN list, and on request
 * the QUIC version and max_idle_timeout, with quic_kernel_setsockopt();
 * after it the client reads both back with quic_kernel_getsockopt().
 *
 * Authentication: @psk names the key (serial) holding a pre-shared key;
 * without it X.509: the server uses @cert and @privkey (serials, 0: the
 * agent's configured files) and the client verifies the server against
 * @peername (sent as SNI).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kthread.h>
#include <linux/inet.h>
#include <linux/vmalloc.h>
#include <linux/pid_namespace.h>
#include <linux/file.h>
#include <linux/net.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <net/handshake.h>
#include <uapi/linux/quic.h>
#include <linux/quic.h>

static char *role = "client";
module_param(role, charp, 0444);
MODULE_PARM_DESC(role, "client, server, loop (both, in two namespaces) or tcp");

static char *addr = "127.0.0.1";
module_param(addr, charp, 0444);
MODULE_PARM_DESC(addr, "the server's IPv4 or IPv6 address");

static ushort port = 4433;
module_param(port, ushort, 0444);
MODULE_PARM_DESC(port, "the server's UDP port");

static char *alpn = "hq-interop";
module_param(alpn, charp, 0444);
MODULE_PARM_DESC(alpn, "application protocol(s) for QUIC_SOCKOPT_ALPN");

static int psk;
module_param(psk, int, 0444);
MODULE_PARM_DESC(psk, "serial of the key holding the pre-shared key (0: X.509)");

static int cert;
module_param(cert, int, 0444);
MODULE_PARM_DESC(cert, "server: serial of its certificate (0: the agent's file)");

static int privkey;
module_param(privkey, int, 0444);
MODULE_PARM_DESC(privkey, "server: serial of its private key (0: the agent's file)");

static int keyring;
module_param(keyring, int, 0444);
MODULE_PARM_DESC(keyring, "serial of a keyring the agent may search (0: none)");

static char *peername;
module_param(peername, charp, 0444);
MODULE_PARM_DESC(peername, "client: the name the server's certificate must carry");

static char *path = "/";
module_param(path, charp, 0444);
MODULE_PARM_DESC(path, "client: the path requested");

static char *expect;
module_param(expect, charp, 0444);
MODULE_PARM_DESC(expect, "client: the exact body expected");

static uint expect_size;
module_param(expect_size, uint, 0444);
MODULE_PARM_DESC(expect_size, "client: expect this many pattern bytes");

static uint reply_size;
module_param(reply_size, uint, 0444);
MODULE_PARM_DESC(reply_size, "server: answer with this many pattern bytes");

static uint timeout_ms = 15000;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "limit for the handshake and for each wait");

static uint version;
module_param(version, uint, 0444);
MODULE_PARM_DESC(version, "QUIC version to use, 1 or 2 (0: the default, 1)");

static uint idle_timeout_ms;
module_param(idle_timeout_ms, uint, 0444);
MODULE_PARM_DESC(idle_timeout_ms, "our max_idle_timeout transport parameter (0: default)");

static int fd = -1;
module_param(fd, int, 0444);
MODULE_PARM_DESC(fd, "client: a connected QUIC socket of the loading process to use");

static int server_pid;
module_param(server_pid, int, 0444);
MODULE_PARM_DESC(server_pid, "loop: the server joins this process's network namespace");

#define SAMPLE_MAX_BODY		(16U << 20)
#define SAMPLE_MAX_REQUEST	1024

/* The byte at @i of a pattern body: easy to check, hard to get by chance. */
static u8 sample_pattern(size_t i)
{
	return 'a' + (i * 7 + i / 26) % 26;
}

struct sample_peer {
	struct sockaddr_storage ss;
	int len;
};

static int sample_parse_addr(struct sample_peer *p)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&p->ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&p->ss;

	memset(p, 0, sizeof(*p));
	if (in4_pton(addr, -1, (u8 *)&sin->sin_addr, -1, NULL)) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		p->len = sizeof(*sin);
		return 0;
	}
	if (in6_pton(addr, -1, sin6->sin6_addr.s6_addr, -1, NULL)) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		p->len = sizeof(*sin6);
		return 0;
	}
	pr_err("addr=%s is neither an IPv4 nor an IPv6 address\n", addr);
	return -EINVAL;
}

/*
 * A QUIC socket in @net with a file: net/handshake passes the file to the
 * agent as a descriptor. Only fput(*filp) releases it afterwards.
 */
static int sample_socket(struct net *net, int family, struct socket **sockp,
			 struct file **filp)
{
	struct socket *sock;
	struct file *file;
	int err;

	err = __sock_create(net, family, SOCK_DGRAM, IPPROTO_QUIC, &sock, 1);
	if (err)
		return err;
	file = sock_alloc_file(sock, 0, NULL);
	if (IS_ERR(file))
		return PTR_ERR(file);	/* sock_alloc_file() released @sock */
	*sockp = sock;
	*filp = file;
	return 0;
}

/*
 * The loader's socket @fd: it must be a QUIC socket, connected (the
 * application set its options); a reference on its file is taken.
 */
static int sample_user_socket(struct socket **sockp, struct file **filp)
{
	long timeo = msecs_to_jiffies(timeout_ms);
	struct socket *sock;
	int err;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	/* Only QUIC registers stream and datagram sockets of protocol 261;
	 * a raw socket may carry that number too.
	 */
	if (sock->sk->sk_protocol != IPPROTO_QUIC ||
	    (sock->type != SOCK_STREAM && sock->type != SOCK_DGRAM)) {
		sockfd_put(sock);
		return -EPROTOTYPE;
	}
	WRITE_ONCE(sock->sk->sk_rcvtimeo, timeo);
	WRITE_ONCE(sock->sk->sk_sndtimeo, timeo);
	*sockp = sock;
	*filp = sock->file;
	return 0;
}

static u32 sample_version(void)
{
	return version == 2 ? QUIC_VERSION_V2 : QUIC_VERSION_V1;
}

/*
 * What a kernel consumer sets before the handshake, with
 * quic_kernel_setsockopt(): the ALPN list the agent offers, and when asked
 * the version (QUIC_SOCKOPT_CONFIG) and a transport parameter (read, one
 * field changed, written back).
 */
static int sample_prepare(struct socket *sock)
{
	long timeo = msecs_to_jiffies(timeout_ms);
	struct quic_transport_param prm = {};
	struct quic_config cfg = {};
	unsigned int len;
	int err;

	WRITE_ONCE(sock->sk->sk_rcvtimeo, timeo);
	WRITE_ONCE(sock->sk->sk_sndtimeo, timeo);
	err = quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_ALPN, alpn, strlen(alpn));
	if (err)
		return err;
	if (version) {
		len = sizeof(cfg);
		err = quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_CONFIG, &cfg, &len);
		if (err)
			return err;
		cfg.version = sample_version();
		err = quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_CONFIG, &cfg, sizeof(cfg));
		if (err)
			return err;
	}
	if (idle_timeout_ms) {
		len = sizeof(prm);
		err = quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &prm, &len);
		if (err)
			return err;
		prm.max_idle_timeout = idle_timeout_ms * USEC_PER_MSEC;
		err = quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &prm,
					     sizeof(prm));
	}
	return err;
}

/*
 * After the handshake, with quic_kernel_getsockopt(): the version in use,
 * and (@peer_idle: the peer is our own server, which set the same value)
 * the peer's max_idle_timeout as its transport parameters announced it.
 */
static int sample_check_settings(struct socket *sock, bool peer_idle)
{
	struct quic_transport_param prm = { .remote = 1 };
	struct quic_config cfg = {};
	unsigned int len = sizeof(cfg);
	int err;

	err = quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_CONFIG, &cfg, &len);
	if (err)
		return err;
	if (version && cfg.version != sample_version()) {
		pr_info("client: version 0x%08x in use, 0x%08x asked for\n", cfg.version,
			sample_version());
		return -EPROTO;
	}
	if (!idle_timeout_ms || !peer_idle)
		return 0;
	len = sizeof(prm);
	err = quic_kernel_getsockopt(sock->sk, QUIC_SOCKOPT_TRANSPORT_PARAM, &prm, &len);
	if (err)
		return err;
	if (prm.max_idle_timeout != idle_timeout_ms * USEC_PER_MSEC) {
		pr_info("client: the peer's max_idle_timeout is %u us, %u ms expected\n",
			prm.max_idle_timeout, idle_timeout_ms);
		return -EPROTO;
	}
	return 0;
}

struct sample_handshake {
	struct completion done;
	int status;
	key_serial_t peerid;
};

/* Called once by net/handshake when the agent reports the outcome. */
static void sample_handshake_done(void *data, int status, key_serial_t peerid)
{
	struct sample_handshake *hs = data;

	hs->status = status;
	hs->peerid = peerid;
	complete(&hs->done);
}

/*
 * Hand the handshake on @sock to the agent and wait for its end, at most
 * timeout_ms: the agent is told the same limit, but one that died or hangs
 * must not hold the caller, so the request is cancelled on expiry.
 */
static int sample_handshake(struct socket *sock, bool server, const char *who)
{
	struct tls_handshake_args args = {
		.ta_sock = sock,
		.ta_done = sample_handshake_done,
		.ta_timeout_ms = timeout_ms,
		.ta_keyring = keyring,
		.ta_peername = server ? NULL : peername,
	};
	struct sample_handshake hs;
	long left;
	int err;

	init_completion(&hs.done);
	hs.status = -EIO;
	hs.peerid = TLS_NO_PEERID;
	args.ta_data = &hs;
	if (psk) {
		args.ta_num_peerids = 1;
		args.ta_my_peerids[0] = psk;
		err = server ? tls_server_hello_psk(&args, GFP_KERNEL) :
			       tls_client_hello_psk(&args, GFP_KERNEL);
	} else if (server) {
		args.ta_my_cert = cert;
		args.ta_my_privkey = privkey;
		err = tls_server_hello_x509(&args, GFP_KERNEL);
	} else {
		args.ta_my_cert = TLS_NO_CERT;
		args.ta_my_privkey = TLS_NO_PRIVKEY;
		err = tls_client_hello_x509(&args, GFP_KERNEL);
	}
	if (err) {
		pr_info("%s: handshake request refused: %d\n", who, err);
		return err;
	}

	left = wait_for_completion_killable_timeout(&hs.done, msecs_to_jiffies(timeout_ms));
	if (left <= 0) {
		if (tls_handshake_cancel(sock->sk)) {
			err = left ? -EINTR : -ETIMEDOUT;
			pr_info("%s: handshake cancelled after %u ms: %d\n", who, timeout_ms, err);
			return err;
		}
		/* The agent's answer won the race: it is being delivered. */
		wait_for_completion(&hs.done);
	}
	pr_info("%s: handshake %s (status %d, peer key %d)\n", who,
		hs.status ? "failed" : "done", hs.status, hs.peerid);
	return hs.status;
}

/* Send @len bytes on stream @sid, the last of them with FIN. */
static int sample_send(struct socket *sock, s64 sid, u32 flags, const void *data, size_t len)
{
	u8 ctl[CMSG_SPACE(sizeof(struct quic_stream_info))] __aligned(sizeof(long)) = {};
	struct cmsghdr *cmsg = (struct cmsghdr *)ctl;
	struct quic_stream_info *info;
	size_t done = 0;
	int ret;

	cmsg->cmsg_level = SOL_QUIC;
	cmsg->cmsg_type = QUIC_STREAM_INFO;
	cmsg->cmsg_len = CMSG_LEN(sizeof(*info));
	info = (struct quic_stream_info *)CMSG_DATA(cmsg);
	info->stream_id = sid;
	do {
		struct kvec iov = { .iov_base = (u8 *)data + done, .iov_len = len - done };
		struct msghdr msg = { .msg_control = ctl, .msg_controllen = sizeof(ctl) };

		info->stream_flags = flags | MSG_STREAM_FIN;
		ret = kernel_sendmsg(sock, &msg, &iov, 1, iov.iov_len);
		if (ret < 0)
			return ret;
		done += ret;
		flags &= ~MSG_STREAM_NEW;
	} while (done < len);
	return 0;
}

/*
 * Read one stream up to its FIN into @buf (at most @size bytes). Returns
 * the length and sets *@sid, or a negative errno: -EMSGSIZE when the
 * stream is longer, -EPROTO when data of another stream is interleaved.
 */
static ssize_t sample_recv(struct socket *sock, s64 *sid, void *buf, size_t size)
{
	size_t got = 0;
	bool first = true;

	for (;;) {
		u8 ctl[CMSG_SPACE(sizeof(struct quic_stream_info))] __aligned(sizeof(long)) = {};
		struct kvec iov = { .iov_base = (u8 *)buf + got, .iov_len = size - got };
		struct msghdr msg = { .msg_control = ctl, .msg_controllen = sizeof(ctl) };
		struct cmsghdr *cmsg = (struct cmsghdr *)ctl;
		struct quic_stream_info info;
		int ret;

		if (got == size)
			return -EMSGSIZE;
		ret = kernel_recvmsg(sock, &msg, &iov, 1, iov.iov_len, 0);
		if (ret < 0)
			return ret;
		if (msg.msg_flags & MSG_NOTIFICATION)
			continue;	/* events were not asked for; skip any */
		if (cmsg->cmsg_level != SOL_QUIC || cmsg->cmsg_type != QUIC_STREAM_INFO ||
		    cmsg->cmsg_len != CMSG_LEN(sizeof(info)))
			return ret ? -EPROTO : -ECONNRESET;	/* 0: closed by the peer */
		memcpy(&info, CMSG_DATA(cmsg), sizeof(info));
		if (!first && info.stream_id != *sid)
			return -EPROTO;
		*sid = info.stream_id;
		first = false;
		got += ret;
		if (info.stream_flags & MSG_STREAM_FIN)
			return got;
	}
}

static int sample_check_body(const u8 *body, size_t len)
{
	size_t i;

	if (expect) {
		if (len != strlen(expect) || memcmp(body, expect, len)) {
			pr_info("client: body of %zu bytes differs from the expected %zu\n",
				len, strlen(expect));
			return -EBADMSG;
		}
	} else if (expect_size) {
		if (len != expect_size) {
			pr_info("client: %zu bytes received, %u expected\n", len, expect_size);
			return -EBADMSG;
		}
		for (i = 0; i < len; i++) {
			if (body[i] != sample_pattern(i)) {
				pr_info("client: body differs at byte %zu\n", i);
				return -EBADMSG;
			}
		}
	}
	return 0;
}

static int sample_client(struct net *net, const struct sample_peer *peer)
{
	size_t size = max_t(size_t, (size_t)expect_size + 1, SZ_64K);
	struct socket *sock;
	struct file *file;
	char *req = NULL;
	u8 *body = NULL;
	ssize_t len;
	s64 sid = 0;
	int err;

	if (fd >= 0) {
		err = sample_user_socket(&sock, &file);
		if (err)
			return err;
	} else {
		err = sample_socket(net, peer->ss.ss_family, &sock, &file);
		if (err)
			return err;
		err = sample_prepare(sock);
		if (err)
			goto out;
		err = kernel_connect(sock, (struct sockaddr *)&peer->ss, peer->len, 0);
		if (err)
			goto out;
	}
	err = sample_handshake(sock, false, "client");
	if (!err)
		err = sample_check_settings(sock, !strcmp(role, "loop"));
	if (err)
		goto out;

	err = -ENOMEM;
	req = kasprintf(GFP_KERNEL, "GET %s\r\n", path);
	body = vmalloc(size);
	if (!req || !body)
		goto out;
	err = sample_send(sock, sid, MSG_STREAM_NEW, req, strlen(req));
	if (err)
		goto out;
	len = sample_recv(sock, &sid, body, size);
	if (len < 0) {
		err = len;
		goto out;
	}
	err = sid ? -EPROTO : sample_check_body(body, len);
	pr_info("client: GET %s: %zd bytes on stream %lld: %d\n", path, len, sid, err);
out:
	if (err)
		pr_info("client: failed: %d\n", err);
	/*
	 * Close the connection now: the last fput() of a file released in a
	 * task is deferred to its return to userspace, and the loop's server
	 * waits for this close before the module load can return.
	 */
	if (fd < 0)
		kernel_sock_shutdown(sock, SHUT_RDWR);
	vfree(body);
	kfree(req);
	fput(file);
	return err;
}

/* The path of an hq-interop request "GET /path" (CR, LF or end after it). */
static int sample_request_path(char *req, size_t len, char **pathp)
{
	char *p, *end;

	req[len] = '\0';
	if (len < 5 || memcmp(req, "GET /", 5))
		return -EPROTO;
	p = req + 4;
	end = p + strcspn(p, " \r\n");
	*end = '\0';
	*pathp = p;
	return 0;
}

static int sample_answer(struct socket *sock)
{
	char req[SAMPLE_MAX_REQUEST + 1], *rpath;
	u8 *body = NULL;
	size_t len, i;
	ssize_t n;
	s64 sid;
	int err;

	n = sample_recv(sock, &sid, req, SAMPLE_MAX_REQUEST);
	if (n < 0)
		return n;
	err = sample_request_path(req, n, &rpath);
	if (err)
		return err;
	if (reply_size) {
		len = reply_size;
		body = vmalloc(len);
		if (!body)
			return -ENOMEM;
		for (i = 0; i < len; i++)
			body[i] = sample_pattern(i);
	} else {
		body = (u8 *)kasprintf(GFP_KERNEL, "kernel QUIC server: %s\n", rpath);
		if (!body)
			return -ENOMEM;
		len = strlen(body);
	}
	err = sample_send(sock, sid, 0, body, len);
	pr_info("server: GET %s on stream %lld: %zu bytes sent: %d\n", rpath, sid, len, err);
	kvfree(body);
	return err;
}

/*
 * Serve one connection on @peer's address in @net. @listening, when given,
 * is completed once the socket listens or setting it up failed.
 */
static int sample_server(struct net *net, const struct sample_peer *peer,
			 struct completion *listening)
{
	struct socket *lsock, *sock;
	struct file *lfile, *file;
	int err;

	err = sample_socket(net, peer->ss.ss_family, &lsock, &lfile);
	if (err) {
		if (listening)
			complete(listening);
		goto out;
	}
	err = sample_prepare(lsock);
	if (!err)
		err = kernel_bind(lsock, (struct sockaddr *)&peer->ss, peer->len);
	if (!err)
		err = kernel_listen(lsock, 1);
	if (listening)
		complete(listening);
	if (err)
		goto out_listen;
	pr_info("server: listening on %s port %u\n", addr, port);
	err = kernel_accept(lsock, &sock, 0);
	if (err)
		goto out_listen;
	file = sock_alloc_file(sock, 0, NULL);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		goto out_listen;
	}
	sock->sk->sk_rcvtimeo = lsock->sk->sk_rcvtimeo;
	sock->sk->sk_sndtimeo = lsock->sk->sk_sndtimeo;
	err = sample_handshake(sock, true, "server");
	if (!err)
		err = sample_answer(sock);
	/* Wait (bounded) for the client to close, so our FIN is not cut off. */
	if (!err) {
		u8 c;
		struct kvec iov = { .iov_base = &c, .iov_len = 1 };
		struct msghdr msg = {};

		kernel_recvmsg(sock, &msg, &iov, 1, 1, 0);
	}
	fput(file);
out_listen:
	fput(lfile);
out:
	if (err)
		pr_info("server: failed: %d\n", err);
	return err;
}

struct sample_loop {
	struct net *net;
	const struct sample_peer *peer;
	struct completion listening;
	struct completion done;
	int err;
};

static int sample_server_thread(void *data)
{
	struct sample_loop *loop = data;

	loop->err = sample_server(loop->net, loop->peer, &loop->listening);
	kthread_complete_and_exit(&loop->done, 0);
}

/* Server in a thread (in another namespace), client here: both in-kernel. */
static int sample_loop(struct net *cnet, const struct sample_peer *peer)
{
	struct sample_loop loop = { .peer = peer };
	struct task_struct *t;
	int err;

	loop.net = server_pid ? get_net_ns_by_pid(server_pid) : get_net(cnet);
	if (IS_ERR(loop.net))
		return PTR_ERR(loop.net);
	init_completion(&loop.listening);
	init_completion(&loop.done);
	t = kthread_run(sample_server_thread, &loop, "quic_sample_srv");
	if (IS_ERR(t)) {
		put_net(loop.net);
		return PTR_ERR(t);
	}
	wait_for_completion(&loop.listening);
	err = sample_client(cnet, peer);
	wait_for_completion(&loop.done);
	put_net(loop.net);
	return err ?: loop.err;
}

/* A handshake request for a TCP socket: not for a QUIC agent to serve. */
static int sample_tcp(struct net *net)
{
	struct socket *sock;
	struct file *file;
	int err;

	err = __sock_create(net, AF_INET, SOCK_STREAM, IPPROTO_TCP, &sock, 1);
	if (err)
		return err;
	file = sock_alloc_file(sock, 0, NULL);
	if (IS_ERR(file))
		return PTR_ERR(file);
	err = sample_handshake(sock, false, "tcp");
	fput(file);
	return err;
}

static int __init sample_init(void)
{
	struct net *net = current->nsproxy->net_ns;
	struct sample_peer peer;
	int err;

	/* Parameters come from whoever loads the module: bound them first. */
	if (reply_size > SAMPLE_MAX_BODY || expect_size >= SAMPLE_MAX_BODY || version > 2 ||
	    idle_timeout_ms > U32_MAX / USEC_PER_MSEC)
		return -EINVAL;
	err = sample_parse_addr(&peer);
	if (err)
		return err;
	if (!strcmp(role, "client"))
		err = sample_client(net, &peer);
	else if (!strcmp(role, "server"))
		err = sample_server(net, &peer, NULL);
	else if (!strcmp(role, "loop"))
		err = sample_loop(net, &peer);
	else if (!strcmp(role, "tcp"))
		err = sample_tcp(net);
	else
		err = -EINVAL;
	pr_info("%s: result %d\n", role, err);
	return err;
}

static void __exit sample_exit(void)
{
}

module_init(sample_init);
module_exit(sample_exit);
MODULE_DESCRIPTION("Sample kernel QUIC client and server using net/handshake");
MODULE_LICENSE("GPL");
