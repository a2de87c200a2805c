/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfuzz: what the fuzzer's threads (sysfuzz.c) and its operations
 * (sysfuzz_ops.c) share: the pool of sockets, the generators and the
 * figures.
 */

#ifndef __QUIC_SELFTEST_SYSFUZZ_H__
#define __QUIC_SELFTEST_SYSFUZZ_H__

#include <netinet/in.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ktap.h"
#include "netns.h"

#define NSLOT		24
#define PORT_A		5500
#define PORT_B		5501
#define IO_TIMEO_S	1
#define CANARY		0xa5
#define GUARD		64		/* canary bytes on each side of a buffer */
#define AREA		(8192 + 2 * GUARD)

/* ---- randomness: each thread its own generator, seeded from the run's */

struct rng {
	uint64_t s;
};

static inline uint64_t rnd64(struct rng *r)
{
	/* xorshift64*: fast, and good enough to choose operations. */
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static inline uint32_t rnd(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd64(r) % n) : 0;
}

static inline bool chance(struct rng *r, unsigned int percent)
{
	return rnd(r, 100) < percent;
}

static inline void rnd_fill(struct rng *r, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len--)
		*p++ = (uint8_t)rnd64(r);
}

/* A value from the edges where parsers and limits tend to break. */
static inline uint64_t edgy(struct rng *r)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 16, 63, 64, 255, 256, 1199, 1200, 1500, 16383, 16384,
		65535, 65536, 1u << 20, (1ull << 30) - 1, 1ull << 30, 0x7fffffff, 0xffffffff,
		(1ull << 62) - 1, 1ull << 62, INT64_MAX, UINT64_MAX,
	};

	return chance(r, 80) ? v[rnd(r, ARRAY_SIZE(v))] : rnd64(r) >> rnd(r, 64);
}

/* A stream ID: mostly small ones of every type, sometimes out of range. */
static inline int64_t stream_id(struct rng *r)
{
	if (chance(r, 85))
		return rnd(r, 24);
	return (int64_t)edgy(r) * (chance(r, 20) ? -1 : 1);
}

/* ---- the pool of sockets (sysfuzz.c) */

enum kind { K_FREE, K_RAW, K_HS, K_LISTEN, K_CONN };

int slot_add(int fd, int side, enum kind kind, int cfg);
int slot_count(int side, unsigned int kinds);
int slot_pick(struct rng *r, int side, unsigned int kinds, int *fd, enum kind *kind);
bool slot_close(int i, int fd);
bool slot_is(int i, enum kind kind);
int64_t slot_sid(int i, int side, bool uni, bool *open);
void slot_sid_done(int i, int64_t sid);
int slot_fds(int *fds, unsigned int kinds);

/* The namespaces, side 0's second addresses, the consumer module. */
extern struct netns_pair pair;
extern struct in_addr second4;
extern struct in6_addr second6;
extern char sample_ko[256];

/* ---- the operations (sysfuzz_ops.c) */

enum op {
	OP_SETSOCKOPT, OP_GETSOCKOPT, OP_SEND, OP_RECV, OP_SEND_JUNK, OP_RECV_JUNK,
	OP_STREAM, OP_KEY_UPDATE, OP_MIGRATE, OP_SOCKET_OPT, OP_IOCTL, OP_SHUTDOWN,
	OP_CLOSE, OP_NEW, OP_ACCEPT, OP_FORK, OP_SPLICE, OP_SENDFILE, OP_POLL, OP_EPOLL,
	OP_SAMPLE, OP_MAX
};

extern const char *const op_name[OP_MAX];
extern unsigned long long ops_mask;

/*
 * One fuzzing thread: its generator, an area with canary bytes around the
 * buffer it hands the kernel, three pages of which the last is unmapped
 * (buffers that end exactly at, or run into, a hole), and its own pipe,
 * memfd and epoll set.
 */
struct fuzzer {
	int side;
	int id;
	struct rng r;
	uint8_t area[AREA];
	uint8_t *pages;		/* pages[2 * page] is PROT_NONE */
	long page;
	int pipe[2];
	int memfd;
	int epfd;
	bool idle;		/* sysfuzz_fuzzers= below this one's rank */
	const char *doing;	/* the operation under way, for a stuck thread */
};

/* One random operation on a random socket of @f's side. */
void fuzz_one(struct fuzzer *f);

/* ---- figures */

extern atomic_ulong op_calls[OP_MAX], op_ok[OP_MAX];
extern atomic_ulong bytes_read, bytes_sent, canary_checks, canary_broken, overlong, forks,
	sample_loads;
extern char first_violation[200];

#endif /* __QUIC_SELFTEST_SYSFUZZ_H__ */
