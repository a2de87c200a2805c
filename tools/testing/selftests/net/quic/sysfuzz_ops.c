// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysfuzz's operations: what one fuzzing thread does to one socket of the
 * pool (sysfuzz.c), with which values. Each draws everything from the
 * thread's generator; calls on a descriptor another thread just closed
 * are part of the test.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/sockios.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <netinet/quic.h>

#include "sysfuzz.h"
#include "util.h"

const char *const op_name[OP_MAX] = {
	"setsockopt", "getsockopt", "send", "recv", "send-junk", "recv-junk", "stream",
	"key-update", "migrate", "sol-socket", "ioctl", "shutdown", "close", "new-socket",
	"accept", "fork", "splice", "sendfile", "poll", "epoll", "sample-fd",
};

/*
 * Weights of the operations, in parts of their sum. Those that end a
 * connection (shutdown, close, the consumer's failed handshake) are rare,
 * or the pool would hold no connection for the rest to work on.
 */
static const unsigned int op_weight[OP_MAX] = {
	170, 110, 160, 130, 40, 40, 50, 15, 15, 25, 20, 4, 5, 40, 10, 5, 25, 15, 44, 30, 2,
};

static atomic_int sample_busy;
unsigned long long ops_mask = ~0ull;	/* sysfuzz_ops=: operations to run */
atomic_ulong op_calls[OP_MAX], op_ok[OP_MAX];
atomic_ulong bytes_read, bytes_sent, canary_checks, canary_broken, overlong, forks, sample_loads;
char first_violation[200];
static pthread_mutex_t violation_lock = PTHREAD_MUTEX_INITIALIZER;

static void violation(atomic_ulong *counter, const char *fmt, ...) __printf(2, 3);
static void violation(atomic_ulong *counter, const char *fmt, ...)
{
	va_list ap;

	atomic_fetch_add(counter, 1);
	pthread_mutex_lock(&violation_lock);
	if (!first_violation[0]) {
		va_start(ap, fmt);
		vsnprintf(first_violation, sizeof(first_violation), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&violation_lock);
}

/* ------------------------------------------------------------ buffers */

/* A buffer of @len bytes between canaries; @len at most AREA - 2 * GUARD. */
static uint8_t *canaried(struct fuzzer *f, size_t len)
{
	memset(f->area, CANARY, sizeof(f->area));
	return f->area + GUARD;
}

static void canary_check(struct fuzzer *f, size_t len, const char *what, int opt)
{
	size_t i;

	atomic_fetch_add(&canary_checks, 1);
	for (i = 0; i < GUARD; i++) {
		if (f->area[i] != CANARY || f->area[GUARD + len + i] != CANARY) {
			violation(&canary_broken, "%s (option %d, %zu bytes): byte %s the buffer changed",
				  what, opt, len, f->area[i] != CANARY ? "before" : "after");
			return;
		}
	}
}

/* @len bytes that end where the unmapped page begins. */
static uint8_t *at_page_end(struct fuzzer *f, size_t len)
{
	if (len > (size_t)f->page * 2)
		len = f->page * 2;
	return f->pages + 2 * f->page - len;
}

/* A pointer the kernel must refuse to touch. */
static void *bad_pointer(struct fuzzer *f)
{
	switch (rnd(&f->r, 4)) {
	case 0:
		return NULL;
	case 1:
		return f->pages + 2 * f->page;		/* the hole */
	case 2:
		return (void *)(uintptr_t)(~0ul << 12);	/* top of the address space */
	default:
		return (void *)(uintptr_t)(1ul << (sizeof(long) * 8 - 1));	/* kernel half */
	}
}

/* ------------------------------------------------------------ option values */

static const size_t opt_size[] = {
	[QUIC_SOCKOPT_EVENT] = sizeof(struct quic_event_option),
	[QUIC_SOCKOPT_STREAM_OPEN] = sizeof(struct quic_stream_info),
	[QUIC_SOCKOPT_STREAM_RESET] = sizeof(struct quic_errinfo),
	[QUIC_SOCKOPT_STREAM_STOP_SENDING] = sizeof(struct quic_errinfo),
	[QUIC_SOCKOPT_CONNECTION_ID] = sizeof(struct quic_connection_id_info),
	[QUIC_SOCKOPT_CONNECTION_CLOSE] = sizeof(struct quic_connection_close),
	[QUIC_SOCKOPT_CONNECTION_MIGRATION] = sizeof(struct sockaddr_in6),
	[QUIC_SOCKOPT_KEY_UPDATE] = 0,
	[QUIC_SOCKOPT_TRANSPORT_PARAM] = sizeof(struct quic_transport_param),
	[QUIC_SOCKOPT_CONFIG] = sizeof(struct quic_config),
	[QUIC_SOCKOPT_TOKEN] = 64,
	[QUIC_SOCKOPT_ALPN] = 16,
	[QUIC_SOCKOPT_SESSION_TICKET] = 256,
	[QUIC_SOCKOPT_CRYPTO_SECRET] = sizeof(struct quic_crypto_secret),
	[QUIC_SOCKOPT_TRANSPORT_PARAM_EXT] = 64,
};

static uint32_t cipher(struct rng *r)
{
	static const uint32_t v[] = { 0, 51, 52, 53, 54, 55, 56 };

	return chance(r, 90) ? v[rnd(r, ARRAY_SIZE(v))] : (uint32_t)rnd64(r);
}

static void fill_sockaddr(struct rng *r, void *buf, size_t *len, int side)
{
	struct sockaddr_in6 *a6 = buf;
	struct sockaddr_in *a4 = buf;
	uint16_t port = chance(r, 50) ? 0 : htons(PORT_A + rnd(r, 200));

	memset(buf, 0, sizeof(struct sockaddr_in6));
	if (chance(r, 50)) {
		a4->sin_family = AF_INET;
		a4->sin_port = port;
		a4->sin_addr = chance(r, 70) ? (side ? pair.addr4[1] : second4) :
			       pair.addr4[side];
		*len = sizeof(*a4);
	} else {
		a6->sin6_family = chance(r, 95) ? AF_INET6 : rnd(r, 50);
		a6->sin6_port = port;
		a6->sin6_addr = chance(r, 70) ? (side ? pair.addr6[1] : second6) :
				pair.addr6[side];
		*len = sizeof(*a6);
	}
}

/* A plausible value of option @opt in @buf; returns its length. */
static size_t opt_value(struct rng *r, int opt, uint8_t *buf, size_t room, int side)
{
	static const char *const alpns[] = {
		"alpha", "beta", "alpha,beta", "h3, smb", ",", "a,,b", "", "x,",
	};
	size_t len = 0, n;

	memset(buf, 0, room);
	switch (opt) {
	case QUIC_SOCKOPT_EVENT: {
		struct quic_event_option *e = (void *)buf;

		e->type = rnd(r, QUIC_EVENT_END + 2);
		e->on = rnd(r, 3);
		len = sizeof(*e);
		break;
	}
	case QUIC_SOCKOPT_STREAM_OPEN: {
		struct quic_stream_info *s = (void *)buf;

		s->stream_id = chance(r, 50) ? -1 : stream_id(r);
		s->stream_flags = chance(r, 80) ? (chance(r, 50) ? MSG_STREAM_UNI : 0) :
				  (uint32_t)rnd64(r);
		len = sizeof(*s);
		break;
	}
	case QUIC_SOCKOPT_STREAM_RESET:
	case QUIC_SOCKOPT_STREAM_STOP_SENDING: {
		struct quic_errinfo *e = (void *)buf;

		e->stream_id = stream_id(r);
		e->errcode = (uint32_t)edgy(r);
		len = sizeof(*e);
		break;
	}
	case QUIC_SOCKOPT_CONNECTION_ID: {
		struct quic_connection_id_info *c = (void *)buf;

		c->dest = rnd(r, 3);
		c->active = (uint32_t)(chance(r, 70) ? rnd(r, 10) : edgy(r));
		c->prior_to = (uint32_t)(chance(r, 70) ? rnd(r, 10) : edgy(r));
		len = sizeof(*c);
		break;
	}
	case QUIC_SOCKOPT_CONNECTION_CLOSE: {
		struct quic_connection_close *c = (void *)buf;

		c->errcode = (uint32_t)edgy(r);
		c->frame = rnd(r, 0x40);
		n = rnd(r, 3) ? rnd(r, 40) : rnd(r, room - sizeof(*c));
		memset(c->phrase, 'a' + rnd(r, 26), n);
		if (n && chance(r, 80))
			c->phrase[n - 1] = '\0';
		len = sizeof(*c) + n;
		break;
	}
	case QUIC_SOCKOPT_CONNECTION_MIGRATION:
		fill_sockaddr(r, buf, &len, side);
		break;
	case QUIC_SOCKOPT_KEY_UPDATE:
		len = rnd(r, 3);
		break;
	case QUIC_SOCKOPT_TRANSPORT_PARAM: {
		struct quic_transport_param *p = (void *)buf;

		if (chance(r, 30)) {
			rnd_fill(r, p, sizeof(*p));
		} else {
			p->remote = chance(r, 20);
			p->disable_active_migration = rnd(r, 3);
			p->grease_quic_bit = rnd(r, 3);
			p->stateless_reset = rnd(r, 3);
			p->disable_compatible_version = rnd(r, 3);
			p->active_connection_id_limit = (uint8_t)edgy(r);
			p->ack_delay_exponent = rnd(r, 24);
			p->max_datagram_frame_size = (uint16_t)edgy(r);
			p->max_udp_payload_size = (uint16_t)edgy(r);
			p->max_idle_timeout = (uint32_t)edgy(r);
			p->max_ack_delay = (uint32_t)edgy(r);
			p->max_streams_bidi = (uint16_t)edgy(r);
			p->max_streams_uni = (uint16_t)edgy(r);
			p->max_data = edgy(r);
			p->max_stream_data_bidi_local = edgy(r);
			p->max_stream_data_bidi_remote = edgy(r);
			p->max_stream_data_uni = edgy(r);
		}
		len = sizeof(*p);
		break;
	}
	case QUIC_SOCKOPT_CONFIG: {
		static const uint32_t versions[] = { 0, QUIC_VERSION_V1, QUIC_VERSION_V2,
						     0xff00001d, 0x1a2a3a4a, 2 };
		struct quic_config *c = (void *)buf;

		c->version = versions[rnd(r, ARRAY_SIZE(versions))];
		c->plpmtud_probe_interval = (uint32_t)edgy(r);
		c->initial_smoothed_rtt = (uint32_t)edgy(r);
		c->payload_cipher_type = cipher(r);
		c->congestion_control_algo = rnd(r, QUIC_CONG_ALG_MAX + 2);
		c->validate_peer_address = rnd(r, 3);
		c->stream_data_nodelay = rnd(r, 3);
		c->receive_session_ticket = rnd(r, 3);
		c->certificate_request = rnd(r, 5);
		len = sizeof(*c);
		break;
	}
	case QUIC_SOCKOPT_ALPN: {
		const char *a = alpns[rnd(r, ARRAY_SIZE(alpns))];

		len = strlen(a) + chance(r, 20);
		memcpy(buf, a, strlen(a));
		break;
	}
	case QUIC_SOCKOPT_CRYPTO_SECRET: {
		struct quic_crypto_secret *s = (void *)buf;

		s->send = rnd(r, 3);
		s->level = rnd(r, QUIC_CRYPTO_MAX + 1);
		s->type = cipher(r);
		rnd_fill(r, s->secret, sizeof(s->secret));
		len = sizeof(*s);
		break;
	}
	default:
		/* TOKEN, SESSION_TICKET, TRANSPORT_PARAM_EXT, unknown options. */
		len = rnd(r, 3) ? rnd(r, 80) : rnd(r, room);
		rnd_fill(r, buf, len);
		break;
	}
	if (chance(r, 8))
		len = len + (chance(r, 50) ? 1 : -1);	/* one off either way */
	return len > room ? room : len;
}

/* STREAM_PEELOFF is left out: each success would be a descriptor that no
 * operation here closes.
 */
static int pick_option(struct rng *r)
{
	if (chance(r, 90))
		return rnd(r, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT + 1);
	if (chance(r, 50))
		return QUIC_SOCKOPT_STREAM_PEELOFF + 1 + (int)rnd(r, 8);
	return (int)rnd64(r);
}

/* ------------------------------------------------------------ operations */

static int op_setsockopt(struct fuzzer *f, int fd)
{
	struct rng *r = &f->r;
	int opt = pick_option(r), mode = rnd(r, 10);
	uint8_t *buf = canaried(f, 0);
	size_t len = opt_value(r, opt, buf, 1024, f->side);

	if (mode == 7) {		/* the value ends where the hole begins */
		memcpy(at_page_end(f, len), buf, len);
		buf = at_page_end(f, len);
	} else if (mode == 8) {		/* the value runs into the hole */
		buf = at_page_end(f, 4);
		len += 4;
	} else if (mode == 9) {
		buf = bad_pointer(f);
		len = chance(r, 50) ? len : edgy(r);
	}
	return setsockopt(fd, SOL_QUIC, opt, buf, (socklen_t)len);
}

static int op_getsockopt(struct fuzzer *f, int fd)
{
	static const int lens[] = { 0, 1, 2, 4, 8, 16, 24, 56, 64, 256, 4096, -1 };
	struct rng *r = &f->r;
	int opt = pick_option(r), mode = rnd(r, 10), ret;
	uint8_t *buf = canaried(f, 0);
	socklen_t len, given, *lenp = &len;
	size_t natural = opt >= 0 && opt < (int)ARRAY_SIZE(opt_size) ? opt_size[opt] : 8;

	/* Options that read an input (stream, level, direction) before answering. */
	opt_value(r, opt, buf, 1024, f->side);
	if (chance(r, 50))
		len = natural + (chance(r, 30) ? rnd(r, 3) - 1 : 0);
	else
		len = (socklen_t)lens[rnd(r, ARRAY_SIZE(lens))];
	if (mode < 6 && len <= 8192) {
		given = len;
		memset(buf + len, CANARY, GUARD);
		ret = getsockopt(fd, SOL_QUIC, opt, buf, &len);
		canary_check(f, given, "getsockopt", opt);
		if (!ret && len > given && opt != QUIC_SOCKOPT_TOKEN &&
		    opt != QUIC_SOCKOPT_SESSION_TICKET)
			violation(&overlong, "getsockopt option %d: %u bytes given, %u returned",
				  opt, given, len);
		return ret;
	}
	if (mode < 8) {
		buf = at_page_end(f, len > 8192 ? 8192 : len);
	} else if (mode == 8) {
		buf = bad_pointer(f);
	} else {
		lenp = chance(r, 50) ? (socklen_t *)bad_pointer(f) :
		       (socklen_t *)at_page_end(f, 2);	/* half of it in the hole */
	}
	return getsockopt(fd, SOL_QUIC, opt, buf, lenp);
}

static size_t stream_cmsg(struct msghdr *m, uint8_t *ctl, size_t room, int64_t sid,
			  uint32_t flags)
{
	struct quic_stream_info info = { .stream_id = sid, .stream_flags = flags };
	struct cmsghdr *c;

	if (room < CMSG_SPACE(sizeof(info)))
		return 0;
	memset(ctl, 0, CMSG_SPACE(sizeof(info)));
	m->msg_control = ctl;
	m->msg_controllen = CMSG_SPACE(sizeof(info));
	c = CMSG_FIRSTHDR(m);
	c->cmsg_level = SOL_QUIC;
	c->cmsg_type = QUIC_STREAM_INFO;
	c->cmsg_len = CMSG_LEN(sizeof(info));
	memcpy(CMSG_DATA(c), &info, sizeof(info));
	return m->msg_controllen;
}

/* Well-formed stream data or a datagram on a connection. */
static int op_send(struct fuzzer *f, int i, int fd)
{
	static const size_t sizes[] = { 1, 100, 1200, 1400, 5000, 30000 };
	static uint8_t data[32768];
	struct rng *r = &f->r;
	uint8_t ctl[64];
	struct iovec iov = { data, sizes[rnd(r, ARRAY_SIZE(sizes))] };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	int flags = chance(r, 70) ? MSG_DONTWAIT : 0;
	uint32_t sflags = 0;
	bool uni = chance(r, 30);
	ssize_t ret;
	int64_t sid;

	bool open, well = chance(r, 80);

	if (chance(r, 12)) {
		flags |= MSG_DATAGRAM;
		iov.iov_len = chance(r, 80) ? 1 + rnd(r, 1100) : 1500 + rnd(r, 2000);
	} else {
		sid = well ? slot_sid(i, f->side, uni, &open) : stream_id(r);
		if (well ? open : chance(r, 40))
			sflags |= MSG_STREAM_NEW | (uni ? MSG_STREAM_UNI : 0);
		if (chance(r, well ? 5 : 25))
			sflags |= MSG_STREAM_FIN;
		if (chance(r, 10))
			sflags |= MSG_STREAM_DONTWAIT;
		stream_cmsg(&m, ctl, sizeof(ctl), sid, sflags);
	}
	ret = sendmsg(fd, &m, flags | MSG_NOSIGNAL);
	if (well && !(flags & MSG_DATAGRAM) &&
	    ((sflags & MSG_STREAM_FIN) || (ret < 0 && errno != EAGAIN)))
		slot_sid_done(i, sid);
	if (ret > (ssize_t)iov.iov_len)
		violation(&overlong, "sendmsg: %zu bytes offered, %zd taken", iov.iov_len, ret);
	if (ret > 0)
		atomic_fetch_add(&bytes_sent, ret);
	return ret < 0 ? -1 : 0;
}

static int op_recv(struct fuzzer *f, int i, int fd)
{
	static const size_t sizes[] = { 1, 7, 100, 1500, 4096 };
	struct rng *r = &f->r;
	size_t len = sizes[rnd(r, ARRAY_SIZE(sizes))];
	uint8_t *buf = canaried(f, len), ctl[64];
	struct iovec iov = { buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = chance(r, 80) ? sizeof(ctl) : rnd(r, 32) };
	int flags = chance(r, 80) ? MSG_DONTWAIT : 0;
	ssize_t ret;

	if (chance(r, 10))
		flags |= MSG_PEEK;
	if (chance(r, 10))
		flags |= MSG_WAITALL;
	memset(buf + len, CANARY, GUARD);
	ret = recvmsg(fd, &m, flags);
	canary_check(f, len, "recvmsg", -1);
	if (ret > (ssize_t)len)
		violation(&overlong, "recvmsg: %zu bytes of room, %zd returned", len, ret);
	if (ret > 0 && !(flags & MSG_PEEK) && !(m.msg_flags & MSG_NOTIFICATION) &&
	    slot_is(i, K_CONN))
		atomic_fetch_add(&bytes_read, ret);
	return ret < 0 ? -1 : 0;
}

/* msghdr fields the kernel must validate: flags, names, iovecs, cmsgs. */
static void junk_msghdr(struct fuzzer *f, struct msghdr *m, struct iovec *iov, uint8_t *ctl,
			size_t ctl_room)
{
	struct rng *r = &f->r;
	struct cmsghdr *c;
	size_t i, n;

	memset(m, 0, sizeof(*m));
	m->msg_iovlen = rnd(r, 4);
	m->msg_iov = chance(r, 95) ? iov : bad_pointer(f);
	for (i = 0; i < 3; i++) {
		iov[i].iov_len = chance(r, 80) ? rnd(r, 3000) : edgy(r);
		iov[i].iov_base = chance(r, 70) ? canaried(f, 0) :
				  chance(r, 50) ? at_page_end(f, 100) : bad_pointer(f);
		if (iov[i].iov_base == f->area + GUARD && iov[i].iov_len > 4096)
			iov[i].iov_len = 4096;
	}
	if (chance(r, 20)) {
		m->msg_name = ctl + ctl_room / 2;
		m->msg_namelen = rnd(r, 40);
		fill_sockaddr(r, m->msg_name, &n, f->side);
	}
	if (chance(r, 30))
		return;
	m->msg_control = ctl;
	m->msg_controllen = rnd(r, ctl_room / 2);
	rnd_fill(r, ctl, ctl_room / 2);
	if (m->msg_controllen >= sizeof(*c) && chance(r, 70)) {
		c = (struct cmsghdr *)ctl;
		c->cmsg_level = chance(r, 85) ? SOL_QUIC : (chance(r, 50) ? SOL_SOCKET : rnd(r, 300));
		c->cmsg_type = rnd(r, 4);
		c->cmsg_len = chance(r, 60) ? CMSG_LEN(rnd(r, 2) ? 16 : 1) : edgy(r);
	}
	if (chance(r, 5))
		m->msg_control = bad_pointer(f);
}

static int op_send_junk(struct fuzzer *f, int fd)
{
	struct iovec iov[3];
	uint8_t ctl[256];
	struct msghdr m;
	int flags;

	junk_msghdr(f, &m, iov, ctl, sizeof(ctl));
	flags = chance(&f->r, 80) ? (int)(rnd64(&f->r) & 0x7fffffff) : MSG_DONTWAIT;
	flags &= ~MSG_OOB;	/* SIGURG-free, and QUIC refuses it anyway */
	return sendmsg(fd, &m, flags | MSG_DONTWAIT | MSG_NOSIGNAL) < 0 ? -1 : 0;
}

static int op_recv_junk(struct fuzzer *f, int fd)
{
	struct iovec iov[3];
	uint8_t ctl[256];
	struct msghdr m;
	int flags;

	junk_msghdr(f, &m, iov, ctl, sizeof(ctl));
	flags = chance(&f->r, 70) ? (int)(rnd64(&f->r) & 0x7fffffff) : 0;
	return recvmsg(fd, &m, flags | MSG_DONTWAIT) < 0 ? -1 : 0;
}

/* Open a stream, then maybe reset it or stop its receiving side. */
static int op_stream(struct fuzzer *f, int fd)
{
	struct quic_stream_info info = { .stream_id = -1 };
	struct quic_errinfo e = { 0 };
	socklen_t len = sizeof(info);
	struct rng *r = &f->r;

	if (chance(r, 50))
		info.stream_flags = MSG_STREAM_UNI;
	if (chance(r, 20))
		info.stream_id = stream_id(r);
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_STREAM_OPEN, &info, &len))
		info.stream_id = stream_id(r);
	e.stream_id = chance(r, 80) ? info.stream_id : stream_id(r);
	e.errcode = rnd(r, 4) ? rnd(r, 100) : (uint32_t)edgy(r);
	switch (rnd(r, 3)) {
	case 0:
		return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_STREAM_RESET, &e, sizeof(e));
	case 1:
		return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_STREAM_STOP_SENDING, &e, sizeof(e));
	default:
		return 0;
	}
}

static int op_migrate(struct fuzzer *f, int fd)
{
	struct sockaddr_in6 a;
	size_t len;

	fill_sockaddr(&f->r, &a, &len, f->side);
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_MIGRATION, &a, len);
}

static int op_socket_opt(struct fuzzer *f, int fd)
{
	static const int opts[] = { SO_RCVBUF, SO_SNDBUF, SO_RCVLOWAT, SO_KEEPALIVE,
				    SO_LINGER, SO_PRIORITY, SO_MARK };
	struct rng *r = &f->r;
	int opt = opts[rnd(r, ARRAY_SIZE(opts))];
	struct linger l = { .l_onoff = rnd(r, 2), .l_linger = rnd(r, 2) };
	int v = chance(r, 50) ? (int)rnd(r, 1 << 16) : (int)edgy(r);

	if (opt == SO_LINGER)
		return setsockopt(fd, SOL_SOCKET, opt, &l, sizeof(l));
	if (chance(r, 20)) {
		socklen_t len = sizeof(v);

		return getsockopt(fd, SOL_SOCKET, opt, &v, &len);
	}
	return setsockopt(fd, SOL_SOCKET, opt, &v, sizeof(v));
}

static int op_ioctl(struct fuzzer *f, int fd)
{
	static const unsigned long cmds[] = { SIOCINQ, SIOCOUTQ, SIOCOUTQNSD, SIOCATMARK };
	int v = 0;

	return ioctl(fd, cmds[rnd(&f->r, ARRAY_SIZE(cmds))],
		     chance(&f->r, 90) ? (void *)&v : bad_pointer(f));
}

/* A new socket: created, then bound, connected or listening at random. */
static int op_new(struct fuzzer *f)
{
	struct rng *r = &f->r;
	int family = chance(r, 60) ? AF_INET : AF_INET6;
	int type = chance(r, 50) ? SOCK_STREAM : SOCK_DGRAM;
	struct sockaddr_in6 a;
	size_t len;
	int fd, i;

	if (chance(r, 3))
		type = rnd(r, 12);
	fd = socket(family, type, IPPROTO_QUIC);
	if (fd < 0)
		return -1;
	sock_timeouts(fd, IO_TIMEO_S);
	i = slot_add(fd, f->side, K_RAW, -1);
	if (i < 0)
		return -1;
	if (chance(r, 30)) {
		uint8_t buf[64];

		len = opt_value(r, QUIC_SOCKOPT_ALPN, buf, sizeof(buf), f->side);
		setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, buf, len);
	}
	fill_sockaddr(r, &a, &len, f->side);
	switch (rnd(r, 4)) {
	case 0:
		return bind(fd, (struct sockaddr *)&a, len);
	case 1:
		fill_sockaddr(r, &a, &len, 1 - f->side);
		return connect(fd, (struct sockaddr *)&a, len);
	case 2:
		if (bind(fd, (struct sockaddr *)&a, len) && chance(r, 50))
			return -1;
		return listen(fd, rnd(r, 8));
	default:
		return 0;
	}
}

/* A non-blocking accept() on any listener of this side: a socket nobody handshakes. */
static int op_accept(struct fuzzer *f, int fd)
{
	int nfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK);

	if (nfd < 0)
		return -1;
	sock_timeouts(nfd, IO_TIMEO_S);
	return slot_add(nfd, f->side, K_RAW, -1) < 0 ? -1 : 0;
}

static int op_shutdown(struct fuzzer *f, int fd)
{
	int how = chance(&f->r, 90) ? (int)rnd(&f->r, 3) : (int)rnd64(&f->r);

	return shutdown(fd, how);
}

/*
 * fork(): the child holds a copy of every descriptor, works on a few of
 * them with async-signal-safe calls only (the parent has threads), and
 * exits, closing them all; an alarm bounds it.
 */
static int op_fork(struct fuzzer *f)
{
	int fds[NSLOT], n, k;
	char byte = 'x';
	pid_t pid;

	/* Not those in a handshake: a byte read there would be libquic's. */
	n = slot_fds(fds, (1u << K_CONN) | (1u << K_RAW));
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid) {
		atomic_fetch_add(&forks, 1);
		return 0;
	}
	alarm(5);
	for (k = 0; k < 16 && n; k++) {
		int fd = fds[rnd(&f->r, n)];
		struct quic_stream_info info = { .stream_id = -1 };
		socklen_t len = sizeof(info);

		switch (rnd(&f->r, 5)) {
		case 0:
			send(fd, &byte, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
			break;
		case 1:
			recv(fd, &byte, 1, MSG_DONTWAIT);
			break;
		case 2:
			getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_STREAM_OPEN, &info, &len);
			break;
		case 3:
			close(fd);
			break;
		default:
			/* Rarely: it ends the parent's connection too. */
			if (chance(&f->r, 1))
				shutdown(fd, SHUT_RDWR);
			break;
		}
	}
	_exit(0);
}

static int op_splice(struct fuzzer *f, int fd)
{
	static uint8_t junk[4096];
	struct rng *r = &f->r;
	ssize_t n;

	if (chance(r, 60)) {
		n = write(f->pipe[1], junk, 1 + rnd(r, sizeof(junk)));
		if (n < 0)
			return -1;
		return splice(f->pipe[0], NULL, fd, NULL, 1 + rnd(r, 8192),
			      SPLICE_F_NONBLOCK | (chance(r, 30) ? SPLICE_F_MORE : 0)) < 0 ?
		       -1 : 0;
	}
	n = splice(fd, NULL, f->pipe[1], NULL, 1 + rnd(r, 8192), SPLICE_F_NONBLOCK);
	while (read(f->pipe[0], junk, sizeof(junk)) > 0)
		;
	return n < 0 ? -1 : 0;
}

static int op_sendfile(struct fuzzer *f, int fd)
{
	off_t off = rnd(&f->r, 60000);

	return sendfile(fd, f->memfd, &off, 1 + rnd(&f->r, 20000)) < 0 ? -1 : 0;
}

static int op_poll(struct fuzzer *f)
{
	struct pollfd p[4];
	int n = 0, i;

	for (i = 0; i < 4; i++) {
		if (slot_pick(&f->r, f->side, ~0u, &p[n].fd, NULL) < 0)
			continue;
		p[n].events = (short)(chance(&f->r, 80) ? POLLIN | POLLOUT | POLLPRI :
				      rnd64(&f->r));
		n++;
	}
	return poll(p, n, rnd(&f->r, 6)) < 0 ? -1 : 0;
}

static int op_epoll(struct fuzzer *f, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLPRI | EPOLLRDHUP };
	struct epoll_event out[8];
	struct rng *r = &f->r;

	if (chance(r, 20))
		ev.events |= EPOLLET;
	if (chance(r, 10))
		ev.events |= EPOLLONESHOT;
	ev.data.fd = fd;
	switch (rnd(r, 4)) {
	case 0:
		epoll_ctl(f->epfd, EPOLL_CTL_ADD, fd, &ev);
		break;
	case 1:
		epoll_ctl(f->epfd, EPOLL_CTL_MOD, fd, &ev);
		break;
	case 2:
		epoll_ctl(f->epfd, EPOLL_CTL_DEL, fd, NULL);
		break;
	default:
		break;
	}
	return epoll_wait(f->epfd, out, ARRAY_SIZE(out), rnd(r, 6)) < 0 ? -1 : 0;
}

/*
 * The in-kernel consumer takes the socket through fd= while this process
 * goes on using it. No handshake agent runs, so its handshake request
 * fails (or the socket is refused): what matters is that taking and
 * giving back the socket races safely with everything else. One load at
 * a time; a child makes the call, in this thread's namespace.
 */
static int op_sample(struct fuzzer *f, int fd)
{
	char params[160];
	int expected = 0, status, kfd;
	pid_t pid;

	if (!sample_ko[0] || !atomic_compare_exchange_strong(&sample_busy, &expected, 1))
		return -1;
	snprintf(params, sizeof(params),
		 "role=client addr=%s port=%d path=/x timeout_ms=%u fd=%d",
		 f->side ? "192.0.2.1" : "192.0.2.2", PORT_A, 200 + rnd(&f->r, 800), fd);
	pid = fork();
	if (!pid) {
		alarm(10);
		kfd = open(sample_ko, O_RDONLY | O_CLOEXEC);
		if (kfd < 0)
			_exit(125);
		_exit(syscall(__NR_finit_module, kfd, params, 0) ? errno : 0);
	}
	status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	atomic_fetch_add(&sample_loads, 1);
	if (pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status))
		module_unload("quic_sample", 5000);
	atomic_store(&sample_busy, 0);
	return pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static enum op pick_op(struct rng *r)
{
	unsigned int x, sum = 0;
	int i;

	for (i = 0; i < OP_MAX; i++)
		sum += op_weight[i];
	x = rnd(r, sum);
	sum = 0;
	for (i = 0; i < OP_MAX; i++) {
		sum += op_weight[i];
		if (x < sum)
			return i;
	}
	return OP_POLL;
}

/*
 * Which sockets an operation works on: mostly live connections (they hold
 * the state worth breaking), a few of the rest. Listeners and sockets in
 * their handshake are picked rarely: what the fuzzers set on a listener
 * every later connection inherits, and one call on a handshake is often
 * enough to end it.
 */
static int pick_target(struct fuzzer *f, int *fd)
{
	unsigned int x = rnd(&f->r, 1000), kinds;

	if (x < 880)
		kinds = 1u << K_CONN;
	else if (x < 996)
		kinds = 1u << K_RAW;
	else if (x < 998)
		kinds = 1u << K_LISTEN;
	else
		kinds = 1u << K_HS;
	return slot_pick(&f->r, f->side, kinds, fd, NULL);
}

void fuzz_one(struct fuzzer *f)
{
	enum op op = pick_op(&f->r);
	int i = -1, fd = -1, ret = -1;

	if (!(ops_mask & (1ull << op)))
		return;

	switch (op) {
	case OP_ACCEPT:
		i = slot_pick(&f->r, f->side, 1u << K_LISTEN, &fd, NULL);
		break;
	case OP_NEW:
		/* A few unconnected sockets at a time: the pool is for connections. */
		if (slot_count(f->side, 1u << K_RAW) >= 4)
			return;
		break;
	case OP_FORK:
	case OP_POLL:
		break;
	default:
		i = pick_target(f, &fd);
		break;
	}
	if (i < 0 && op != OP_NEW && op != OP_FORK && op != OP_POLL)
		return;
	f->doing = op_name[op];
	atomic_fetch_add(&op_calls[op], 1);
	switch (op) {
	case OP_SETSOCKOPT:
		ret = op_setsockopt(f, fd);
		break;
	case OP_GETSOCKOPT:
		ret = op_getsockopt(f, fd);
		break;
	case OP_SEND:
		ret = op_send(f, i, fd);
		break;
	case OP_RECV:
		ret = op_recv(f, i, fd);
		break;
	case OP_SEND_JUNK:
		ret = op_send_junk(f, fd);
		break;
	case OP_RECV_JUNK:
		ret = op_recv_junk(f, fd);
		break;
	case OP_STREAM:
		ret = op_stream(f, fd);
		break;
	case OP_KEY_UPDATE:
		ret = setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_KEY_UPDATE, NULL, 0);
		break;
	case OP_MIGRATE:
		ret = op_migrate(f, fd);
		break;
	case OP_SOCKET_OPT:
		ret = op_socket_opt(f, fd);
		break;
	case OP_IOCTL:
		ret = op_ioctl(f, fd);
		break;
	case OP_SHUTDOWN:
		ret = op_shutdown(f, fd);
		break;
	case OP_CLOSE:
		ret = slot_close(i, fd) ? 0 : -1;
		break;
	case OP_NEW:
		ret = op_new(f);
		break;
	case OP_ACCEPT:
		ret = op_accept(f, fd);
		break;
	case OP_FORK:
		ret = op_fork(f);
		break;
	case OP_SPLICE:
		ret = op_splice(f, fd);
		break;
	case OP_SENDFILE:
		ret = op_sendfile(f, fd);
		break;
	case OP_POLL:
		ret = op_poll(f);
		break;
	case OP_EPOLL:
		ret = op_epoll(f, fd);
		break;
	case OP_SAMPLE:
		ret = op_sample(f, fd);
		break;
	case OP_MAX:
		break;
	}
	if (!ret)
		atomic_fetch_add(&op_ok[op], 1);
	f->doing = "between operations";
}
