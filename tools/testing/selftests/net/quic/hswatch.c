// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The keys libquic installs, seen from its socket calls (hswatch.h).
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>
#include <linux/tls.h>

#include "internal.h"	/* libquic's, for struct quic_kops */
#include "hswatch.h"

#define HS_WATCH_MAX	16

static struct {
	bool used;
	int fd;
	struct hs_keys keys;
} slots[HS_WATCH_MAX];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

/* Record what a successful CRYPTO_SECRET set installed; @inq read before it. */
static void note_secret(int fd, const struct quic_crypto_secret *s, int inq)
{
	struct hs_keys *k;
	int i;

	pthread_mutex_lock(&slots_lock);
	for (i = 0; i < HS_WATCH_MAX; i++) {
		if (!slots[i].used || slots[i].fd != fd)
			continue;
		k = &slots[i].keys;
		if (s->level == QUIC_CRYPTO_EARLY) {
			k->early = s->type;
		} else if (s->level == QUIC_CRYPTO_APP) {
			if (!k->app_tx && !k->app_rx)
				k->inq_at_app = inq;
			if (s->send)
				k->app_tx = s->type;
			else
				k->app_rx = s->type;
		}
		break;
	}
	pthread_mutex_unlock(&slots_lock);
}

static int watch_setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	const struct quic_crypto_secret *s = val;
	int inq = -1, ret;

	if (level != SOL_QUIC || name != QUIC_SOCKOPT_CRYPTO_SECRET || !val || len < sizeof(*s))
		return setsockopt(fd, level, name, val, len);
	/* Before 1-RTT keys nothing but 0-RTT data can be stream data. */
	if (s->level == QUIC_CRYPTO_APP && ioctl(fd, SIOCINQ, &inq))
		inq = -1;
	ret = setsockopt(fd, level, name, val, len);
	if (!ret)
		note_secret(fd, s, inq);
	return ret;
}

static const struct quic_kops watch_kops = {
	.setsockopt	= watch_setsockopt,
	.getsockopt	= getsockopt,
	.sendmsg	= sendmsg,
	.recvmsg	= recvmsg,
	.shutdown	= shutdown,
	.poll		= poll,
};

void hs_watch_init(void)
{
	quic_kops_set(&watch_kops);
}

void hs_watch(int fd)
{
	int i, free_slot = -1;

	pthread_mutex_lock(&slots_lock);
	for (i = 0; i < HS_WATCH_MAX; i++) {
		if (slots[i].used && slots[i].fd == fd)
			break;
		if (!slots[i].used && free_slot < 0)
			free_slot = i;
	}
	if (i == HS_WATCH_MAX)
		i = free_slot;
	if (i >= 0) {
		slots[i].used = true;
		slots[i].fd = fd;
		memset(&slots[i].keys, 0, sizeof(slots[i].keys));
		slots[i].keys.inq_at_app = -1;
	}
	pthread_mutex_unlock(&slots_lock);
}

struct hs_keys hs_watch_end(int fd)
{
	struct hs_keys k = { .inq_at_app = -1 };
	int i;

	pthread_mutex_lock(&slots_lock);
	for (i = 0; i < HS_WATCH_MAX; i++) {
		if (slots[i].used && slots[i].fd == fd) {
			k = slots[i].keys;
			slots[i].used = false;
			break;
		}
	}
	pthread_mutex_unlock(&slots_lock);
	return k;
}

const char *cipher_name(uint32_t type)
{
	switch (type) {
	case 0:
		return "none";
	case TLS_CIPHER_AES_GCM_128:
		return "AES_GCM_128";
	case TLS_CIPHER_AES_GCM_256:
		return "AES_GCM_256";
	case TLS_CIPHER_AES_CCM_128:
		return "AES_CCM_128";
	case TLS_CIPHER_CHACHA20_POLY1305:
		return "CHACHA20_POLY1305";
	default:
		return "unknown";
	}
}
