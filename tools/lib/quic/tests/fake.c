// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fake kernel behind libquic's socket calls in the host tests. See
 * fake.h; the rules mirror docs/socket.md and docs/connection.md.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../internal.h"
#include "fake.h"

#define FAKE_BASE	1000
#define FAKE_MAX	8
#define FAKE_STREAM	0xff	/* a queued message of stream data */
#define FAKE_WAIT_S	5

struct fake_msg {
	struct fake_msg *next;
	uint8_t level;
	int64_t sid;
	uint32_t sflags;
	size_t len, off;
	uint8_t data[];
};

static struct fake_sock socks[FAKE_MAX];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

/* The fake socket behind @fd, or NULL when @fd is not one. */
struct fake_sock *fake_get(int fd)
{
	if (fd < FAKE_BASE || fd >= FAKE_BASE + FAKE_MAX || !socks[fd - FAKE_BASE].used)
		return NULL;
	return &socks[fd - FAKE_BASE];
}

/* Free every socket and its queue. */
void fake_reset(void)
{
	struct fake_msg *m;
	int i;

	for (i = 0; i < FAKE_MAX; i++) {
		while ((m = socks[i].q)) {
			socks[i].q = m->next;
			free(m);
		}
	}
	memset(socks, 0, sizeof(socks));
}

/*
 * Make a connected pair, ESTABLISHING, with recognisable encoded transport
 * parameters on each side. Returns 0 (fds in *@cfd, *@sfd) or -1 when all
 * fake sockets are taken.
 */
int fake_pair(int *cfd, int *sfd)
{
	int i, j = -1, k = -1;

	for (i = 0; i < FAKE_MAX; i++) {
		if (socks[i].used)
			continue;
		if (j < 0)
			j = i;
		else if (k < 0)
			k = i;
	}
	if (k < 0)
		return -1;
	socks[j].used = socks[k].used = true;
	socks[j].client = true;
	socks[j].peer = k;
	socks[k].peer = j;
	/* Recognisable parameter bytes per side, as the kernel would encode. */
	socks[j].tplen = snprintf((char *)socks[j].tp, 64, "\x0f\x08" "client-%d", j);
	socks[k].tplen = snprintf((char *)socks[k].tp, 64, "\x0f\x08" "server-%d", k);
	*cfd = FAKE_BASE + j;
	*sfd = FAKE_BASE + k;
	return 0;
}

static int fail(int err)
{
	errno = err;
	return -1;
}

static int f_setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct fake_sock *s = fake_get(fd);
	const struct quic_crypto_secret *cs = val;
	int ret = 0;

	if (!s)
		return fail(EBADF);
	if (level != SOL_QUIC)
		return fail(ENOPROTOOPT);
	pthread_mutex_lock(&lock);
	switch (name) {
	case QUIC_SOCKOPT_CRYPTO_SECRET:
		if (len != sizeof(*cs) || cs->level == QUIC_CRYPTO_INITIAL ||
		    cs->level >= QUIC_CRYPTO_MAX || cs->send > 1 || s->established ||
		    s->sec[cs->level][cs->send].set) {
			s->violations++;
			ret = fail(EINVAL);
			break;
		}
		s->sec[cs->level][cs->send].set = true;
		s->sec[cs->level][cs->send].type = cs->type;
		memcpy(s->sec[cs->level][cs->send].secret, cs->secret, sizeof(cs->secret));
		if (s->sec[QUIC_CRYPTO_APP][0].set && s->sec[QUIC_CRYPTO_APP][1].set)
			s->established = true;
		break;
	case QUIC_SOCKOPT_TRANSPORT_PARAM_EXT:
		if (!len || len > sizeof(s->peer_tp) || s->peer_tplen) {
			s->violations++;
			ret = fail(EINVAL);
			break;
		}
		memcpy(s->peer_tp, val, len);
		s->peer_tplen = len;
		break;
	case QUIC_SOCKOPT_CONNECTION_CLOSE:
		if (len < 8 || len > 86) {
			s->violations++;
			ret = fail(EINVAL);
			break;
		}
		memcpy(&s->close_code, val, sizeof(uint32_t));
		break;
	case QUIC_SOCKOPT_ALPN:
		/* As the kernel: any state; the library records the agreed one. */
		if (len >= sizeof(s->alpn)) {
			ret = fail(EINVAL);
			break;
		}
		memcpy(s->alpn, val, len);
		s->alpn[len] = '\0';
		break;
	case QUIC_SOCKOPT_CONFIG:
		ret = fail(EISCONN);	/* settings are for closed sockets */
		break;
	default:
		ret = fail(ENOPROTOOPT);
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

static int f_getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	struct fake_sock *s = fake_get(fd);
	const void *src;
	socklen_t n;

	if (!s)
		return fail(EBADF);
	if (level != SOL_QUIC)
		return fail(ENOPROTOOPT);
	switch (name) {
	case QUIC_SOCKOPT_TRANSPORT_PARAM_EXT:
		src = s->tp;
		n = s->tplen;
		break;
	case QUIC_SOCKOPT_ALPN:
		src = s->alpn;
		n = strlen(s->alpn);
		break;
	case QUIC_SOCKOPT_CONFIG:
		src = &s->cfg;
		n = sizeof(s->cfg);
		break;
	case QUIC_SOCKOPT_SESSION_TICKET: {
		static __thread uint8_t buf[sizeof(s->ticket)];
		size_t i;

		/* A server's key as the listener gives it; a client's ticket. */
		if (!s->client && !s->ticket_key)
			return fail(ENOPROTOOPT);
		pthread_mutex_lock(&lock);
		if (s->client) {
			memcpy(buf, s->ticket, s->ticket_len);
			n = s->ticket_len;
			s->ticket_new = false;
		} else {
			for (i = 0; i < 64; i++)
				buf[i] = (uint8_t)(0xa5 ^ i);
			n = 64;
		}
		pthread_mutex_unlock(&lock);
		src = buf;
		break;
	}
	case QUIC_SOCKOPT_CONNECTION_CLOSE: {
		static __thread uint8_t cc[8];

		memset(cc, 0, sizeof(cc));
		memcpy(cc, s->peer_gone ? &s->peer_code : &s->close_code, 4);
		src = cc;
		n = sizeof(cc);
		break;
	}
	default:
		return fail(ENOPROTOOPT);
	}
	if (!n && name == QUIC_SOCKOPT_TRANSPORT_PARAM_EXT)
		return fail(EINVAL);
	if (*len < n)
		return fail(EINVAL);
	memcpy(val, src, n);
	*len = n;
	return 0;
}

static ssize_t f_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct fake_sock *s = fake_get(fd), *p;
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(msg);
	struct fake_msg *m, **tail;
	size_t len = msg->msg_iov[0].iov_len;
	struct quic_handshake_info hi;
	struct quic_stream_info si;
	ssize_t ret = -1;

	(void)flags;
	if (!s)
		return fail(EBADF);
	if (!cmsg || cmsg->cmsg_level != SOL_QUIC || msg->msg_iovlen != 1)
		return fail(EINVAL);
	m = calloc(1, sizeof(*m) + len);
	if (!m)
		return fail(ENOMEM);
	memcpy(m->data, msg->msg_iov[0].iov_base, len);
	m->len = len;
	pthread_mutex_lock(&lock);
	p = &socks[s->peer];
	if (s->shut || s->peer_gone) {
		errno = s->shut ? EPIPE : ECONNRESET;
		goto out;
	}
	if (cmsg->cmsg_type == QUIC_HANDSHAKE_INFO) {
		memcpy(&hi, CMSG_DATA(cmsg), sizeof(hi));
		if (hi.crypto_level >= QUIC_CRYPTO_MAX || (hi.crypto_level != QUIC_CRYPTO_INITIAL &&
		    !s->sec[hi.crypto_level][1].set)) {
			s->violations++;
			errno = ENOKEY;
			goto out;
		}
		m->level = hi.crypto_level;
		/* Kept for tests that replay a ClientHello elsewhere. */
		if (s->client && m->level == QUIC_CRYPTO_INITIAL &&
		    s->hello_len + len <= sizeof(s->hello)) {
			memcpy(s->hello + s->hello_len, m->data, len);
			s->hello_len += len;
		}
		/* As the kernel: a client keeps 1-RTT handshake data (tickets). */
		if (m->level == QUIC_CRYPTO_APP && p->client) {
			if (len > sizeof(p->ticket)) {
				s->violations++;
				errno = EMSGSIZE;
				goto out;
			}
			memcpy(p->ticket, m->data, len);
			p->ticket_len = len;
			p->ticket_new = true;
			ret = len;
			pthread_cond_broadcast(&cond);
			goto out;
		}
	} else if (cmsg->cmsg_type == QUIC_STREAM_INFO) {
		if (!s->established) {
			errno = ENOTCONN;
			goto out;
		}
		memcpy(&si, CMSG_DATA(cmsg), sizeof(si));
		m->level = FAKE_STREAM;
		m->sid = si.stream_id;
		m->sflags = si.stream_flags & MSG_STREAM_FIN;
	} else {
		errno = EINVAL;
		goto out;
	}
	for (tail = &p->q; *tail; tail = &(*tail)->next)
		;
	*tail = m;
	m = NULL;
	ret = len;
	pthread_cond_broadcast(&cond);
out:
	pthread_mutex_unlock(&lock);
	free(m);
	return ret;
}

/* The head of @s's queue if it can be read now (its keys are there). */
static struct fake_msg *readable(struct fake_sock *s)
{
	struct fake_msg *m = s->q;

	if (!m)
		return NULL;
	if (m->level == FAKE_STREAM || m->level == QUIC_CRYPTO_INITIAL ||
	    s->sec[m->level][0].set)
		return m;
	return NULL;
}

static int wait_locked(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += FAKE_WAIT_S;
	return pthread_cond_timedwait(&cond, &lock, &ts);
}

static ssize_t f_recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct fake_sock *s = fake_get(fd);
	struct cmsghdr *cmsg;
	struct fake_msg *m;
	ssize_t n;

	if (!s)
		return fail(EBADF);
	pthread_mutex_lock(&lock);
	while (!(m = readable(s))) {
		if (s->peer_gone || s->shut) {
			pthread_mutex_unlock(&lock);
			return s->shut ? 0 : fail(ECONNRESET);
		}
		if (s->nonblock || (flags & MSG_DONTWAIT) || wait_locked()) {
			pthread_mutex_unlock(&lock);
			return fail(EAGAIN);
		}
	}
	n = m->len - m->off;
	if ((size_t)n > msg->msg_iov[0].iov_len)
		n = msg->msg_iov[0].iov_len;
	if (s->max_read && (size_t)n > s->max_read)
		n = s->max_read;
	memcpy(msg->msg_iov[0].iov_base, m->data + m->off, n);
	m->off += n;
	cmsg = CMSG_FIRSTHDR(msg);
	msg->msg_flags = 0;
	if (m->level == FAKE_STREAM) {
		struct quic_stream_info si = { .stream_id = m->sid };

		if (m->off == m->len)
			si.stream_flags = m->sflags;
		cmsg->cmsg_type = QUIC_STREAM_INFO;
		cmsg->cmsg_len = CMSG_LEN(sizeof(si));
		memcpy(CMSG_DATA(cmsg), &si, sizeof(si));
	} else {
		struct quic_handshake_info hi = { .crypto_level = m->level };

		cmsg->cmsg_type = QUIC_HANDSHAKE_INFO;
		cmsg->cmsg_len = CMSG_LEN(sizeof(hi));
		memcpy(CMSG_DATA(cmsg), &hi, sizeof(hi));
	}
	cmsg->cmsg_level = SOL_QUIC;
	msg->msg_controllen = CMSG_SPACE(cmsg->cmsg_len - CMSG_LEN(0));
	if (m->off == m->len) {
		s->q = m->next;
		free(m);
	}
	pthread_mutex_unlock(&lock);
	return n;
}

static int f_shutdown(int fd, int how)
{
	struct fake_sock *s = fake_get(fd), *p;

	(void)how;
	if (!s)
		return fail(EBADF);
	pthread_mutex_lock(&lock);
	p = &socks[s->peer];
	s->shut = true;
	p->peer_gone = true;
	p->peer_code = s->close_code;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return 0;
}

/* What poll() reports for @s when asked for @events. */
static short poll_events(struct fake_sock *s, short events)
{
	short revents = events & POLLOUT;

	if ((events & POLLIN) && readable(s))
		revents |= POLLIN;
	if ((events & POLLPRI) && s->ticket_new)
		revents |= POLLPRI;
	if (s->peer_gone || s->shut)
		revents |= (events & POLLIN) | POLLHUP;
	return revents;
}

/* One socket; a wait is cut to FAKE_WAIT_S, and 0 does not wait. */
static int f_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	struct fake_sock *s = nfds == 1 ? fake_get(fds[0].fd) : NULL;
	int ret = 1;

	if (!s)
		return fail(EINVAL);
	pthread_mutex_lock(&lock);
	for (;;) {
		fds[0].revents = poll_events(s, fds[0].events);
		if (fds[0].revents)
			break;
		if (!timeout || wait_locked()) {
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

static const struct quic_kops fake_kops = {
	.setsockopt	= f_setsockopt,
	.getsockopt	= f_getsockopt,
	.sendmsg	= f_sendmsg,
	.recvmsg	= f_recvmsg,
	.shutdown	= f_shutdown,
	.poll		= f_poll,
};

/* Put the fake behind libquic's socket calls. */
void fake_install(void)
{
	quic_kops_set(&fake_kops);
}
