// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_explore: loss patterns explored on live connections.
 *
 * Two in-kernel QUIC sockets talk over a model link that sits at the
 * transmit hook of the KUnit build: every datagram either connection
 * sends is taken from the real path, and a seeded generator decides its
 * fate: lost, duplicated, held back until later datagrams passed it,
 * delayed, one byte changed, or (after the handshake, in the scenario
 * that allows it) sent from a new client port as a NAT rebinding would.
 * Each seed also picks one pattern to stress: independent losses, loss
 * bursts, a blackout of consecutive datagrams, or "lose the k-th datagram
 * of each flight". A link thread hands the surviving datagrams to
 * quic_rcv() as the UDP tunnel does, in softirq context.
 *
 * Every seed runs one scenario (handshake in each version and with Retry,
 * bulk transfer on one and many streams, both ends writing at once,
 * DATAGRAM, key update mid-transfer, NAT rebinding mid-transfer, client
 * migration mid-transfer, the server's preferred address, close with data
 * in flight) with initial_smoothed_rtt and max_ack_delay of a
 * millisecond or two, so that loss recovery runs in milliseconds. The
 * oracle, per seed:
 *   - it ends within its deadline: no deadlock in the handshake or at the
 *     tail of a transfer;
 *   - every byte a stream delivers is the byte sent at that offset, each
 *     stream ends with its FIN at its length, and a DATAGRAM, when it
 *     comes at all, comes once and intact;
 *   - neither connection closes, except where the scenario closes it, and
 *     then with code 0 (NO_ERROR, or the application's 0), or by an idle
 *     timeout when the CONNECTION_CLOSE itself was lost;
 *   - no connection invariant broke (CONFIG_IP_QUIC_DEBUG_INVARIANTS):
 *     among them bytes in flight against the packets in flight, and a peer
 *     acknowledging a packet never sent closes with PROTOCOL_VIOLATION,
 *     which the previous rule reports.
 * At the end of each scenario every socket is released and the socket
 * count and charged memory are back where they started.
 *
 * Each scenario is one case (a parameter), explore_seeds seeds each (16 in
 * make check). A failing seed is printed with its scenario, what went
 * wrong and each end's state, and replays alone, with the fate of every
 * datagram printed:
 *   ./kunit.py run 'quic_explore' --kernel_args='quic_kunit.explore_only=bulk_one_stream
 *	quic_kunit.explore_replay=0x...'
 * Timers run on real time, so a replay makes the same link decisions per
 * datagram but may see other timings. make stress runs 100 times the
 * seeds (scripts/explore-stress.sh: twenty boots, each with its own base
 * seed, quic_kunit.explore_seed).
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/wait.h>
#include <net/sock.h>
#include <net/udp.h>
#include <uapi/linux/tls.h>

#include "../endpoint.h"
#include "../path.h"
#include "../protocol.h"
#include "../socket.h"
#include "../transmit.h"
#include "conn_util.h"
#include "rx_util.h"
#include "util.h"

static unsigned int explore_seeds = 16;
module_param(explore_seeds, uint, 0444);
MODULE_PARM_DESC(explore_seeds, "seeds per scenario of the quic_explore suite (default 16)");

static unsigned long long explore_seed = 0x4558504c51554943ULL;	/* "EXPLQUIC" */
module_param(explore_seed, ullong, 0444);
MODULE_PARM_DESC(explore_seed, "base seed of the quic_explore suite");

static char *explore_only;
module_param(explore_only, charp, 0444);
MODULE_PARM_DESC(explore_only, "run only the quic_explore scenario of this name");

static unsigned long long explore_replay;
module_param(explore_replay, ullong, 0444);
MODULE_PARM_DESC(explore_replay, "run only this seed (as a failure prints it)");

/* Listener ports: one per seed in turn, so that a socket of the previous
 * seed still being freed never holds the next seed's port.
 */
#define XP_PORT_BASE	62400
#define XP_PORTS	16
/* The server's preferred address: 127.0.0.3, this far above its port. */
#define XP_PREF_OFFSET	50

/* Datagrams the link holds at most; more are lost (a full router queue). */
#define XL_QUEUE_MAX	256
/* Rebindings per seed at most. */
#define XL_REBINDS_MAX	6
/* A gap this long starts a new flight of a direction. */
#define XL_FLIGHT_GAP_US	1500
/* A held datagram goes after this long even if nothing passed it. */
#define XL_HOLD_MAX_MS	40

/* The pattern a seed stresses, beyond its background rates. */
enum xl_pattern {
	XL_MIXED,	/* independent losses, duplicates, reordering, delays */
	XL_BURSTS,	/* losses in runs of 2 to 8 */
	XL_BLACKOUT,	/* everything lost for 20 to 300 ms */
	XL_KTH,		/* the k-th datagram of each of the first flights lost */
	XL_REORDER,	/* mostly reordering and delay */
	XL_DAMAGE,	/* changed bytes and duplicates */
	XL_PATTERNS
};

/* A replay prints the fate of each datagram. */
static bool xl_trace(void)
{
	return explore_replay;
}

static const char * const xl_pattern_name[XL_PATTERNS] = {
	"mixed", "bursts", "blackout", "kth-of-flight", "reorder", "damage"
};

/* Per-mille rates of one seed. */
struct xl_rates {
	u16 drop, dup, hold, delay, corrupt, burst, rebind;
	u16 delay_ms;
	u32 blackout_at, blackout_len;	/* milliseconds after the seed began */
	u8 kth;
	u8 kth_flights;	/* of each direction */
};

struct xl_dgram {
	struct list_head list;
	ktime_t due;
	u32 hold;
	u32 gen;
	u32 len;
	struct sockaddr_in src, dst;
	u8 data[];
};

/* The model link; one per suite run, the transmit hook reaches it. */
struct xlink {
	spinlock_t lock;		/* all below */
	struct list_head queue;
	u32 queued;
	struct rnd_state rnd;
	struct xl_rates rate;
	enum xl_pattern pattern;
	u32 gen;
	__be16 port;			/* the listener's */
	__be16 port2;			/* the server's preferred address's, or 0 */
	bool rebind_ok;
	__be16 nat_real;		/* the client's own port */
	__be16 nat_ext[XL_REBINDS_MAX + 1];	/* what the server sees, latest last */
	u32 nat_n;
	u32 index;
	ktime_t began;
	u32 burst_left;
	u32 flight_pos[2];
	u32 flights[2];
	ktime_t flight_last[2];
	struct {	/* what happened, for the summary */
		u64 seen, lost, dups, held, delayed, damaged, rebinds, overflow, delivered;
	} st;

	bool active;			/* READ_ONCE: the hook takes datagrams */
	wait_queue_head_t wq;
	struct task_struct *task;
	struct mutex deliver;		/* held while a datagram is delivered */
	struct socket *udp;		/* names the namespace for quic_rcv() */
};

static struct xlink xl;

static u32 xl_below(u32 n)
{
	return n ? prandom_u32_state(&xl.rnd) % n : 0;
}

static bool xl_chance(u16 per_mille)
{
	return per_mille && xl_below(1000) < per_mille;
}

/* Called with xl.lock held: whether this datagram is lost. */
static bool xl_lose(int dir)
{
	const struct xl_rates *r = &xl.rate;
	ktime_t now = ktime_get();
	s64 ms = ktime_ms_delta(now, xl.began);
	u32 pos;

	if (ktime_us_delta(now, xl.flight_last[dir]) > XL_FLIGHT_GAP_US) {
		xl.flight_pos[dir] = 0;
		xl.flights[dir]++;
	}
	xl.flight_last[dir] = now;
	pos = ++xl.flight_pos[dir];

	xl.index++;
	if (r->blackout_len && ms >= r->blackout_at && ms < r->blackout_at + r->blackout_len)
		return true;
	if (xl.burst_left) {
		xl.burst_left--;
		return true;
	}
	if (xl_chance(r->burst)) {
		xl.burst_left = 1 + xl_below(7);
		return true;
	}
	if (r->kth && pos == r->kth && xl.flights[dir] <= r->kth_flights)
		return true;
	return xl_chance(r->drop);
}

/* Called with xl.lock held: queue a copy of @d for delivery, at @due, after
 * @hold later datagrams passed it.
 */
static void xl_queue(struct xl_dgram *d, ktime_t now, ktime_t due, u32 hold)
{
	struct xl_dgram *q, *tmp;

	if (xl.queued >= XL_QUEUE_MAX) {
		xl.st.overflow++;
		kfree(d);
		return;
	}
	d->due = due;
	d->hold = hold;
	d->gen = xl.gen;
	list_add_tail(&d->list, &xl.queue);
	xl.queued++;
	/* A held datagram that @d was the last to pass goes right after it. */
	list_for_each_entry_safe(q, tmp, &xl.queue, list) {
		if (q == d)
			break;
		if (q->hold && !--q->hold) {
			q->due = now;
			list_move_tail(&q->list, &xl.queue);
		}
	}
}

static struct xl_dgram *xl_copy(const struct xl_dgram *d)
{
	struct xl_dgram *c = kmalloc(sizeof(*d) + d->len, GFP_ATOMIC);

	if (c)
		memcpy(c, d, sizeof(*d) + d->len);
	return c;
}

/*
 * The transmit hook: every datagram of the scenario's connections is taken
 * from the real path and given a fate. Runs under the sender's socket lock
 * (owned, or in softirq), so it only queues; the link thread delivers.
 */
static bool xl_hook(struct sock *sk, struct sk_buff *skb)
{
	struct quic_path_group *paths = quic_paths(sk);
	union quic_addr *sa = quic_path_saddr(paths, 0), *da = quic_path_daddr(paths, 0);
	struct xl_dgram *d, *dup;
	ktime_t now, due;
	u32 hold = 0, i;
	int dir;

	if (!READ_ONCE(xl.active) || sa->sa.sa_family != AF_INET)
		return false;
	/* 1: the server sends */
	dir = sa->v4.sin_port == xl.port || (xl.port2 && sa->v4.sin_port == xl.port2);
	if (!dir && da->v4.sin_port != xl.port && (!xl.port2 || da->v4.sin_port != xl.port2))
		return false;

	d = kmalloc(sizeof(*d) + skb->len, GFP_ATOMIC);
	if (!d)
		return true;
	d->len = skb->len;
	if (skb_copy_bits(skb, 0, d->data, skb->len)) {
		kfree(d);
		return true;
	}
	d->src = sa->v4;
	d->dst = da->v4;
	now = ktime_get();
	due = now;

	spin_lock_bh(&xl.lock);
	xl.st.seen++;
	if (!dir) {
		if (xl.rebind_ok && xl.nat_n < XL_REBINDS_MAX && xl_chance(xl.rate.rebind)) {
			xl.nat_ext[++xl.nat_n] = htons(40000 + xl_below(20000));
			xl.st.rebinds++;
		}
		xl.nat_real = d->src.sin_port;
		d->src.sin_port = xl.nat_ext[xl.nat_n] ?: d->src.sin_port;
	} else {
		/* Any port the NAT ever handed out still leads to the client. */
		for (i = 1; i <= xl.nat_n; i++)
			if (d->dst.sin_port == xl.nat_ext[i])
				d->dst.sin_port = xl.nat_real;
	}
	if (xl_trace())
		pr_info("explore: %s #%u len %u first %#x pn-ish %*ph\n", dir ? "S>C" : "C>S",
			xl.index, d->len, d->data[0], 8, d->data + 1);
	if (xl_lose(dir)) {
		if (xl_trace())
			pr_info("explore:   lost\n");
		xl.st.lost++;
		spin_unlock_bh(&xl.lock);
		kfree(d);
		return true;
	}
	if (xl_chance(xl.rate.corrupt)) {
		d->data[xl_below(d->len)] ^= 1 + xl_below(255);
		xl.st.damaged++;
	}
	if (xl_chance(xl.rate.hold)) {
		hold = 1 + xl_below(4);
		due = ktime_add_ms(now, XL_HOLD_MAX_MS);
		xl.st.held++;
	} else if (xl_chance(xl.rate.delay)) {
		due = ktime_add_ms(now, 1 + xl_below(xl.rate.delay_ms));
		xl.st.delayed++;
	}
	if (xl_chance(xl.rate.dup)) {
		dup = xl_copy(d);
		if (dup) {
			xl_queue(dup, now, ktime_add_us(now, xl_below(3000)), 0);
			xl.st.dups++;
		}
	}
	xl_queue(d, now, due, hold);
	spin_unlock_bh(&xl.lock);
	wake_up(&xl.wq);
	return true;
}

/* Called with xl.lock held: the first datagram due now, or NULL. A held
 * datagram is due when enough later ones passed it (xl_queue()), or at
 * the latest XL_HOLD_MAX_MS after it was sent.
 */
static struct xl_dgram *xl_due(ktime_t now)
{
	struct xl_dgram *d;

	list_for_each_entry(d, &xl.queue, list) {
		if (d->gen != xl.gen || !ktime_before(now, d->due)) {
			list_del(&d->list);
			xl.queued--;
			return d;
		}
	}
	return NULL;
}

/* Hand one datagram to quic_rcv() as the UDP tunnel does, in softirq. */
static void xl_deliver(const struct xl_dgram *d)
{
	struct sk_buff *skb = quic_kunit_udp4_skb(&d->src, &d->dst, d->data, d->len, GFP_KERNEL);

	if (!skb)
		return;
	local_bh_disable();
	quic_rcv(xl.udp->sk, skb);
	local_bh_enable();
}

static bool xl_anything(void)
{
	bool any;

	spin_lock_bh(&xl.lock);
	any = xl.queued;
	spin_unlock_bh(&xl.lock);
	return any;
}

/* The link thread: delivers what is due, in order of sending. */
static int xl_thread(void *unused)
{
	struct xl_dgram *d;
	u32 gen;

	while (!kthread_should_stop()) {
		wait_event_interruptible_timeout(xl.wq, kthread_should_stop() || xl_anything(),
						 HZ);
		mutex_lock(&xl.deliver);
		for (;;) {
			spin_lock_bh(&xl.lock);
			d = xl_due(ktime_get());
			gen = xl.gen;
			if (d && d->gen == gen)
				xl.st.delivered++;
			spin_unlock_bh(&xl.lock);
			if (!d)
				break;
			if (d->gen == gen)
				xl_deliver(d);
			kfree(d);
		}
		mutex_unlock(&xl.deliver);
		if (xl_anything())
			usleep_range(200, 400);
	}
	return 0;
}

/* Start the link for one seed: its rates and pattern come from @seed. */
static void xl_start(u64 seed, u16 port, u16 port2, bool rebind)
{
	struct xl_rates *r = &xl.rate;

	spin_lock_bh(&xl.lock);
	prandom_seed_state(&xl.rnd, seed);
	memset(r, 0, sizeof(*r));
	xl.pattern = xl_below(XL_PATTERNS);
	/* Background rates every pattern has, in per mille. */
	r->drop = xl_below(60);
	r->dup = xl_below(10);
	r->hold = xl_below(20);
	r->delay = xl_below(20);
	r->delay_ms = 1 + xl_below(10);
	r->corrupt = xl_below(5);
	r->rebind = rebind ? 20 + xl_below(40) : 0;
	switch (xl.pattern) {
	case XL_MIXED:
		r->drop = 50 + xl_below(200);
		r->dup = xl_below(50);
		r->hold = xl_below(80);
		r->delay = xl_below(80);
		break;
	case XL_BURSTS:
		r->burst = 10 + xl_below(40);
		break;
	case XL_BLACKOUT:
		r->blackout_at = xl_below(200);
		r->blackout_len = 20 + xl_below(280);
		break;
	case XL_KTH:
		/* Every flight would starve a side whose flights are one
		 * datagram (ACKs): the first few flights of each side.
		 */
		r->kth = 1 + xl_below(4);
		r->kth_flights = 2 + xl_below(8);
		break;
	case XL_REORDER:
		r->hold = 100 + xl_below(200);
		r->delay = 50 + xl_below(150);
		break;
	default:
		r->corrupt = 20 + xl_below(80);
		r->dup = 20 + xl_below(80);
		break;
	}
	xl.port = htons(port);
	xl.port2 = htons(port2);
	xl.rebind_ok = false;
	memset(xl.nat_ext, 0, sizeof(xl.nat_ext));
	xl.nat_n = 0;
	xl.index = 0;
	xl.began = ktime_get();
	xl.burst_left = 0;
	memset(xl.flight_pos, 0, sizeof(xl.flight_pos));
	memset(xl.flights, 0, sizeof(xl.flights));
	memset(xl.flight_last, 0, sizeof(xl.flight_last));
	spin_unlock_bh(&xl.lock);
	WRITE_ONCE(xl.active, true);
}

/* Stop the link: nothing queued is delivered any more, none in delivery. */
static void xl_stop(void)
{
	struct xl_dgram *d, *tmp;

	WRITE_ONCE(xl.active, false);
	spin_lock_bh(&xl.lock);
	xl.gen++;
	list_for_each_entry_safe(d, tmp, &xl.queue, list) {
		list_del(&d->list);
		kfree(d);
	}
	xl.queued = 0;
	spin_unlock_bh(&xl.lock);
	mutex_lock(&xl.deliver);
	mutex_unlock(&xl.deliver);
}

static void xl_down(void *unused)
{
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, NULL);
	xl_stop();
	if (xl.task)
		kthread_stop(xl.task);
	xl.task = NULL;
	if (xl.udp)
		sock_release(xl.udp);
	xl.udp = NULL;
}

static void xl_up(struct kunit *test)
{
	memset(&xl, 0, sizeof(xl));
	spin_lock_init(&xl.lock);
	INIT_LIST_HEAD(&xl.queue);
	init_waitqueue_head(&xl.wq);
	mutex_init(&xl.deliver);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_UDP,
					       &xl.udp), 0);
	xl.task = kthread_run(xl_thread, NULL, "quic-explore-link");
	KUNIT_ASSERT_FALSE(test, IS_ERR(xl.task));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, xl_down, NULL), 0);
	WRITE_ONCE(quic_xmit_kunit_hooks.drop, xl_hook);
}

/* ------------------------------------------------------------------ */
/* Transfers, driven without blocking from the test's thread.          */

#define XF_MAX		16
#define XF_CHUNK	4096
#define XF_BOUNCE	16384
#define XD_MAX		64

/* One direction of a stream; @after: a flow on the same stream the other
 * way, which must have delivered a byte before this one may start (a
 * response on a stream the peer opened).
 */
struct xflow {
	struct socket *tx, *rx;
	const struct xflow *after;
	s64 id;
	u32 len, sent, got;
	bool fin;
};

struct xrun;

/**
 * struct xscen - one scenario
 * @name: what explore_only selects
 * @version: the client's version
 * @listen_version: the listener's preferred version (0: v1)
 * @retry: the listener answers with a Retry
 * @rebind: the link may rebind the client's port after the handshake
 * @pref: the server offers a preferred address (RFC 9000 Section 9.6)
 * @datagram: both ends take DATAGRAM frames of this size
 * @idle: both ends' max_idle_timeout, microseconds (0: default)
 * @run: the scenario after the handshake: NULL, or what went wrong
 * @step: what xs_up_down() does on each round, or NULL
 */
struct xscen {
	const char *name;
	u32 version;
	u32 listen_version;
	u8 retry;
	u8 rebind;
	u8 pref;
	u16 datagram;
	u32 idle;
	const char *(*run)(struct xrun *r);
	const char *(*step)(struct xrun *r);
};

struct xrun {
	struct kunit *test;
	const struct xscen *s;
	u64 seed;
	bool in_seed;
	struct conn_pair p;
	struct xflow flow[XF_MAX];
	u32 nflows;
	u8 *data;		/* what every flow sends, from its start */
	u8 *bounce;
	unsigned long deadline;
	/* DATAGRAM: what each end sent and received, by index */
	u32 dg_sent[2];
	DECLARE_BITMAP(dg_got[2], XD_MAX);
	u32 dg_count;
	/* key update scenario: how many updates were started; migration
	 * scenario: whether the client moved
	 */
	u32 updates;
	/* over the seeds of the scenario: updates or moves done, and seeds
	 * that ended with the client on the server's preferred address
	 */
	u32 acts;
	u32 on_pref;
	/* the last recvmsg() error, or 1 at end of file */
	int rcv_err;
	char why[192];
};

#define XF_DATA_MAX	(256 * 1024)

/* Datagram @i: two bytes of index, then the test bytes at an offset. */
static u32 xd_len(u32 i)
{
	return 32 + (i * 131) % 900;
}

static const u8 *xd_body(const struct xrun *r, u32 i)
{
	return r->data + (i * 37) % 1024;
}

static void xr_add(struct xrun *r, struct socket *tx, struct socket *rx, s64 id, u32 len)
{
	struct xflow *f = &r->flow[r->nflows++];
	u32 i;

	f->tx = tx;
	f->rx = rx;
	f->id = id;
	f->len = len;
	for (i = 0; i + 1 < r->nflows; i++)
		if (r->flow[i].id == id && r->flow[i].tx == rx)
			f->after = &r->flow[i];
}

static __printf(2, 3) const char *xr_fail(struct xrun *r, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, args);
	va_end(args);
	return r->why;
}

static const char *xf_send(struct xrun *r, struct xflow *f, bool *progress)
{
	u32 n = min_t(u32, f->len - f->sent, XF_CHUNK);
	struct quic_stream_info si = { .stream_id = f->id };
	int ret;

	if (f->after && !f->after->got)
		return NULL;
	si.stream_flags = (f->sent || f->after ? 0 : MSG_STREAM_NEW) |
			  (f->sent + n == f->len ? MSG_STREAM_FIN : 0);
	ret = conn_send(f->tx, QUIC_STREAM_INFO, &si, sizeof(si), r->data + f->sent, n,
			MSG_DONTWAIT);
	if (ret == -EAGAIN)
		return NULL;
	if (ret <= 0)
		return xr_fail(r, "stream %lld: send at %u of %u returned %d", f->id, f->sent,
			       f->len, ret);
	f->sent += ret;
	*progress = true;
	return NULL;
}

static const char *xf_datagram(struct xrun *r, struct socket *sock, int end, const u8 *p,
			       u32 len)
{
	u32 i;

	if (len < 2)
		return xr_fail(r, "a %u-byte DATAGRAM", len);
	i = p[0] | p[1] << 8;
	if (i >= r->dg_count || len != xd_len(i))
		return xr_fail(r, "DATAGRAM %u of %u bytes: none such was sent", i, len);
	if (memcmp(p + 2, xd_body(r, i), len - 2))
		return xr_fail(r, "DATAGRAM %u arrived changed", i);
	if (test_and_set_bit(i, r->dg_got[end]))
		return xr_fail(r, "DATAGRAM %u arrived twice", i);
	return NULL;
}

/* Read whatever @sock has; @end: 0 the client, 1 the server. */
static const char *xf_recv(struct xrun *r, struct socket *sock, int end, bool *progress)
{
	u8 cbuf[CMSG_SPACE(sizeof(struct quic_stream_info))];
	struct kvec iov = { .iov_base = r->bounce, .iov_len = XF_BOUNCE };
	struct quic_stream_info si;
	struct msghdr msg = {};
	struct cmsghdr *cmsg;
	struct xflow *f;
	int ret, i, n;

	for (n = 0; n < 32; n++) {
		memset(cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		msg.msg_flags = 0;
		ret = kernel_recvmsg(sock, &msg, &iov, 1, XF_BOUNCE, MSG_DONTWAIT);
		if (ret == -EAGAIN)
			return NULL;
		if (ret < 0) {
			r->rcv_err = ret;
			return xr_fail(r, "%s: recvmsg returned %d", end ? "server" : "client",
				       ret);
		}
		/* End of file: no control message was written. */
		if (!ret && msg.msg_controllen == sizeof(cbuf)) {
			r->rcv_err = 1;
			return xr_fail(r, "%s: end of file", end ? "server" : "client");
		}
		*progress = true;
		if (msg.msg_flags & MSG_DATAGRAM) {
			if (xf_datagram(r, sock, end, r->bounce, ret))
				return r->why;
			continue;
		}
		cmsg = (struct cmsghdr *)cbuf;
		if (cmsg->cmsg_level != SOL_QUIC || cmsg->cmsg_type != QUIC_STREAM_INFO)
			return xr_fail(r, "%s: recvmsg of %d bytes without stream information",
				       end ? "server" : "client", ret);
		memcpy(&si, CMSG_DATA(cmsg), sizeof(si));
		f = NULL;
		for (i = 0; i < r->nflows; i++)
			if (r->flow[i].rx == sock && r->flow[i].id == si.stream_id)
				f = &r->flow[i];
		if (!f)
			return xr_fail(r, "%s: %d bytes on stream %lld, which nobody sent",
				       end ? "server" : "client", ret, si.stream_id);
		if (f->fin || f->got + ret > f->len)
			return xr_fail(r, "stream %lld: %d bytes beyond its %u", f->id, ret,
				       f->len);
		if (memcmp(r->bounce, r->data + f->got, ret))
			return xr_fail(r, "stream %lld: bytes at %u differ from those sent",
				       f->id, f->got);
		f->got += ret;
		if (si.stream_flags & MSG_STREAM_FIN) {
			if (f->got != f->len)
				return xr_fail(r, "stream %lld: FIN after %u of %u bytes", f->id,
					       f->got, f->len);
			f->fin = true;
		}
	}
	return NULL;
}

static bool xf_done(const struct xrun *r)
{
	u32 i;

	for (i = 0; i < r->nflows; i++)
		if (!r->flow[i].fin)
			return false;
	return true;
}

/*
 * Run every flow to its end: sends and receives without blocking, from
 * this thread; @step, when set, is called on each round.
 */
static const char *xf_pump(struct xrun *r, const char *(*step)(struct xrun *r))
{
	bool progress;
	u32 i;

	while (!xf_done(r)) {
		if (time_after(jiffies, r->deadline))
			return xr_fail(r, "no end within the deadline");
		progress = false;
		for (i = 0; i < r->nflows; i++)
			if (r->flow[i].sent < r->flow[i].len &&
			    xf_send(r, &r->flow[i], &progress))
				return r->why;
		if (xf_recv(r, r->p.client, 0, &progress) ||
		    xf_recv(r, r->p.server, 1, &progress))
			return r->why;
		if (step && step(r))
			return r->why;
		if (!progress)
			usleep_range(200, 400);
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Scenarios.                                                          */

/* A request and a response on stream 0. */
static const char *xs_echo(struct xrun *r)
{
	xr_add(r, r->p.client, r->p.server, 0, 700);
	xr_add(r, r->p.server, r->p.client, 0, 1900);
	return xf_pump(r, NULL);
}

static const char *xs_bulk_one(struct xrun *r)
{
	xr_add(r, r->p.client, r->p.server, 0, 96 * 1024);
	return xf_pump(r, NULL);
}

/* Twelve streams from each end, of different lengths, at once. */
static const char *xs_bulk_many(struct xrun *r)
{
	u32 i;

	for (i = 0; i < 6; i++) {
		xr_add(r, r->p.client, r->p.server, 4 * i, 1000 + 3000 * i);
		xr_add(r, r->p.server, r->p.client, 4 * i + 1, 17000 - 2500 * i);
	}
	return xf_pump(r, NULL);
}

static const char *xs_both(struct xrun *r)
{
	xr_add(r, r->p.client, r->p.server, 0, 64 * 1024);
	xr_add(r, r->p.server, r->p.client, 1, 64 * 1024);
	return xf_pump(r, NULL);
}

/* A key update from each end, at a third and at two thirds. */
static const char *xs_key_update_step(struct xrun *r)
{
	const struct xflow *f = &r->flow[0];
	struct socket *sock;
	int err;

	if (r->updates >= 2 || f->sent < (r->updates + 1) * f->len / 3)
		return NULL;
	sock = r->updates ? r->p.server : r->p.client;
	err = quic_kernel_setsockopt(sock->sk, QUIC_SOCKOPT_KEY_UPDATE, NULL, 0);
	if (err == -EAGAIN)
		return NULL;	/* the previous update is not done yet */
	if (err)
		return xr_fail(r, "key update %u returned %d", r->updates, err);
	r->updates++;
	return NULL;
}

/*
 * 96 KB up and 48 KB down at once; the scenario's step runs on each round
 * (a key update, a move), and the NAT may rebind the client's port when
 * the scenario allows it: the server has confirmed the handshake by now.
 */
static const char *xs_up_down(struct xrun *r)
{
	if (r->s->rebind) {
		spin_lock_bh(&xl.lock);
		xl.rebind_ok = true;
		spin_unlock_bh(&xl.lock);
	}
	xr_add(r, r->p.client, r->p.server, 0, 96 * 1024);
	xr_add(r, r->p.server, r->p.client, 1, 48 * 1024);
	return xf_pump(r, r->s->step);
}

/* DATAGRAM number dg_sent[@end] from @end (0: the client, 1: the server). */
/* Both write at once; whether the client then talks to the preferred
 * address is counted: a path that lost its validation stays where it was
 * (RFC 9000 Section 9.6.1), which is no failure.
 */
static const char *xs_pref(struct xrun *r)
{
	union quic_addr got;
	const char *why;

	why = xs_both(r);
	if (!why && kernel_getpeername(r->p.client, &got.sa) > 0 &&
	    got.v4.sin_addr.s_addr == htonl(0x7f000003))
		r->on_pref++;
	return why;
}

/* The client moves to 127.0.0.2 once a third of its data is sent. */
static const char *xs_migrate_step(struct xrun *r)
{
	const struct xflow *f = &r->flow[0];
	union quic_addr a;
	int err;

	if (r->updates || f->sent < f->len / 3)
		return NULL;
	quic_kunit_addr4(&a, "127.0.0.2", 0);
	err = quic_kernel_setsockopt(r->p.client->sk, QUIC_SOCKOPT_CONNECTION_MIGRATION, &a,
				     sizeof(a.v4));
	/* Not before the handshake is confirmed (RFC 9000 Section 9), nor
	 * without a spare connection ID of the server's, nor during a move.
	 */
	if (err == -ENOTCONN || err == -EAGAIN || err == -EBUSY)
		return NULL;
	if (err)
		return xr_fail(r, "migration returned %d", err);
	r->updates++;
	return NULL;
}

static const char *xd_send(struct xrun *r, struct socket *sock, int end, bool *progress)
{
	u32 i = r->dg_sent[end], len = xd_len(i);
	int ret;

	r->bounce[0] = i & 0xff;
	r->bounce[1] = i >> 8;
	memcpy(r->bounce + 2, xd_body(r, i), len - 2);
	ret = conn_send(sock, 0, NULL, 0, r->bounce, len, MSG_DATAGRAM | MSG_DONTWAIT);
	if (ret == -EAGAIN)
		return NULL;
	if (ret != len)
		return xr_fail(r, "DATAGRAM %u: send returned %d", i, ret);
	r->dg_sent[end]++;
	*progress = true;
	return NULL;
}

/* DATAGRAMs both ways, then a stream exchange proves the connection lives. */
static const char *xs_datagram(struct xrun *r)
{
	unsigned long quiet;
	bool progress;

	r->dg_count = XD_MAX;
	while (r->dg_sent[0] < XD_MAX || r->dg_sent[1] < XD_MAX) {
		if (time_after(jiffies, r->deadline))
			return xr_fail(r, "DATAGRAMs not sent within the deadline");
		progress = false;
		if (r->dg_sent[0] < XD_MAX && xd_send(r, r->p.client, 0, &progress))
			return r->why;
		if (r->dg_sent[1] < XD_MAX && xd_send(r, r->p.server, 1, &progress))
			return r->why;
		if (xf_recv(r, r->p.client, 0, &progress) ||
		    xf_recv(r, r->p.server, 1, &progress))
			return r->why;
		if (!progress)
			usleep_range(200, 400);
	}
	/* Stragglers: until nothing arrived for 50 ms. */
	quiet = jiffies + msecs_to_jiffies(50);
	while (time_before(jiffies, quiet)) {
		progress = false;
		if (xf_recv(r, r->p.client, 0, &progress) ||
		    xf_recv(r, r->p.server, 1, &progress))
			return r->why;
		if (progress)
			quiet = jiffies + msecs_to_jiffies(50);
		usleep_range(500, 1000);
	}
	return xs_echo(r);
}

/*
 * The client writes and closes with data in flight. The server reads a
 * prefix of what was sent, then learns of the close: the application
 * close the client sent (error code 0), or, when that packet was lost, its
 * idle timeout.
 */
static const char *xs_close(struct xrun *r)
{
	struct quic_close_info seen;
	struct xflow *f;
	bool progress;
	int i, ret;

	xr_add(r, r->p.client, r->p.server, 0, 48 * 1024);
	f = &r->flow[0];
	for (i = 0; i < 40 && f->sent < f->len; i++) {
		progress = false;
		if (xf_send(r, f, &progress) || xf_recv(r, r->p.server, 1, &progress))
			return r->why;
	}
	kunit_release_action(r->test, conn_sock_release, r->p.client);
	r->p.client = NULL;
	r->nflows = 1;
	for (;;) {
		if (time_after(jiffies, r->deadline))
			return xr_fail(r, "the server never learned of the close");
		progress = false;
		if (!xf_recv(r, r->p.server, 1, &progress)) {
			if (f->fin)
				return NULL;	/* everything arrived before the close */
			if (!progress)
				usleep_range(200, 400);
			continue;
		}
		break;
	}
	ret = r->rcv_err;
	if (!ret)
		return r->why;
	lock_sock(r->p.server->sk);
	seen = quic_sk(r->p.server->sk)->close.seen;
	release_sock(r->p.server->sk);
	/* RFC 9000 Section 20.1: NO_ERROR, or the application's 0. */
	if (seen.set && seen.errcode)
		return xr_fail(r, "closed with %s code %#llx, not 0",
			       seen.app ? "application" : "transport", seen.errcode);
	if (!seen.set && ret != -ETIMEDOUT)
		return xr_fail(r, "recvmsg after the close returned %d (1: end of file)", ret);
	return NULL;
}

static const struct xscen xscens[] = {
	{ "handshake_v1", QUIC_VERSION_V1, 0, 0, 0, 0, 0, 0, xs_echo },
	{ "handshake_v2", QUIC_VERSION_V2, 0, 0, 0, 0, 0, 0, xs_echo },
	{ "compatible_v1_to_v2", QUIC_VERSION_V1, QUIC_VERSION_V2, 0, 0, 0, 0, 0, xs_echo },
	{ "retry", QUIC_VERSION_V1, 0, 1, 0, 0, 0, 0, xs_echo },
	{ "bulk_one_stream", QUIC_VERSION_V1, 0, 0, 0, 0, 0, 0, xs_bulk_one },
	{ "bulk_many_streams", QUIC_VERSION_V2, 0, 0, 0, 0, 0, 0, xs_bulk_many },
	{ "both_write", QUIC_VERSION_V1, 0, 0, 0, 0, 0, 0, xs_both },
	{ "datagram", QUIC_VERSION_V1, 0, 0, 0, 0, 1200, 0, xs_datagram },
	{ "key_update", QUIC_VERSION_V1, 0, 0, 0, 0, 0, 0, xs_up_down, xs_key_update_step },
	{ "nat_rebinding", QUIC_VERSION_V1, 0, 0, 1, 0, 0, 0, xs_up_down },
	{ "client_migration", QUIC_VERSION_V1, 0, 0, 0, 0, 0, 0, xs_up_down, xs_migrate_step },
	{ "preferred_address", QUIC_VERSION_V1, 0, 0, 0, 1, 0, 0, xs_pref },
	{ "close_in_flight", QUIC_VERSION_V1, 0, 0, 0, 0, 0, 1000000, xs_close },
};

static const u32 xciphers[] = {
	TLS_CIPHER_AES_GCM_128, TLS_CIPHER_AES_GCM_256, TLS_CIPHER_CHACHA20_POLY1305,
};

/* On a failed assertion inside a seed (in the handshake), name the seed. */
static void xr_name_seed(void *arg)
{
	struct xrun *r = arg;

	if (r->in_seed && r->test->status == KUNIT_FAILURE)
		kunit_err(r->test, "explore: failed in scenario %s seed %#llx (pattern %s)\n",
			  r->s->name, r->seed, xl_pattern_name[xl.pattern]);
}

/* What a failed seed left: each end's state, and each flow's progress. */
static void xr_dump(struct xrun *r, const char *who, struct socket *sock)
{
	const struct quic_close_info *seen;
	struct quic_sock *qs;
	struct sock *sk;
	u8 level;

	if (!sock)
		return;
	sk = sock->sk;
	qs = quic_sk(sk);
	lock_sock(sk);
	seen = &qs->close.seen;
	kunit_err(r->test, "  %s: state %d, close %s code %#llx frame %#x\n", who,
		  sk->sk_state, seen->set ? (seen->app ? "application" : "transport") : "none",
		  seen->errcode, seen->frame);
	kunit_err(r->test, "  %s: in flight %u window %u pto_count %u, data sent %llu of %llu, wmem %llu queued %d sndbuf %d\n",
		  who, quic_cong_in_flight(&qs->cong), quic_cong_window(&qs->cong),
		  quic_cong_pto_count(&qs->cong), qs->outq.data_sent, qs->outq.max_data,
		  qs->outq.wmem, READ_ONCE(sk->sk_wmem_queued), READ_ONCE(sk->sk_sndbuf));
	kunit_err(r->test, "  %s: timers loss %d ack %d idle %d path %d pace %d\n", who,
		  quic_timer_pending(&qs->timers, QUIC_TIMER_LOSS),
		  quic_timer_pending(&qs->timers, QUIC_TIMER_ACK),
		  quic_timer_pending(&qs->timers, QUIC_TIMER_IDLE),
		  quic_timer_pending(&qs->timers, QUIC_TIMER_PATH),
		  quic_timer_pending(&qs->timers, QUIC_TIMER_PACE));
	kunit_err(r->test, "  %s: peer port %u (alternate %u, state %u), validated %u blocked %u, amplification sent %llu received %llu\n",
		  who, ntohs(quic_path_daddr(&qs->paths, 0)->v4.sin_port),
		  ntohs(quic_path_daddr(&qs->paths, 1)->v4.sin_port), qs->paths.alt_state,
		  qs->paths.validated, qs->paths.blocked, qs->paths.ampl_sndlen,
		  qs->paths.ampl_rcvlen);
	kunit_err(r->test, "  %s: outq confirmed %u peer_validated %u amp_limited %u, app space eliciting %u in flight %u, loss timer %llu (now %llu)\n",
		  who, qs->outq.confirmed, qs->outq.peer_validated, qs->outq.amp_limited,
		  qs->outq.spaces[QUIC_CRYPTO_APP].eliciting, qs->space[QUIC_CRYPTO_APP].inflight,
		  quic_outq_loss_timer(&qs->outq, quic_time_us(), &level), quic_time_us());
	release_sock(sk);
}

static void xr_dump_flows(struct xrun *r)
{
	const struct xflow *f;
	u32 i;

	for (i = 0; i < r->nflows; i++) {
		f = &r->flow[i];
		kunit_err(r->test, "  stream %lld %s: sent %u got %u of %u%s\n", f->id,
			  f->tx == r->p.client ? "C>S" : "S>C", f->sent, f->got, f->len,
			  f->fin ? ", FIN" : "");
	}
	if (r->dg_count)
		kunit_err(r->test, "  DATAGRAM: sent %u/%u, received %u/%u\n", r->dg_sent[0],
			  r->dg_sent[1], bitmap_weight(r->dg_got[1], XD_MAX),
			  bitmap_weight(r->dg_got[0], XD_MAX));
}

/* One seed of a scenario: NULL, or what went wrong. */
static const char *xr_seed(struct xrun *r, u64 seed, u16 port)
{
	struct conn_case c = { "explore", AF_INET, "127.0.0.1", r->s->version };
	union quic_addr pref;
	const char *why;
#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
	int breaks = atomic_read(&quic_invariant_breaks);
#endif

	r->seed = seed;
	memset(&r->p, 0, sizeof(r->p));
	memset(r->flow, 0, sizeof(r->flow));
	r->nflows = 0;
	memset(r->dg_sent, 0, sizeof(r->dg_sent));
	bitmap_zero(r->dg_got[0], XD_MAX);
	bitmap_zero(r->dg_got[1], XD_MAX);
	r->dg_count = 0;
	r->updates = 0;
	r->rcv_err = 0;
	c.cipher = xciphers[seed % ARRAY_SIZE(xciphers)];
	r->p.initial_rtt = 1000;
	r->p.max_ack_delay = 2000;
	r->p.listen_version = r->s->listen_version;
	r->p.validate_peer_address = r->s->retry;
	r->p.max_datagram = r->s->datagram;
	r->p.idle_timeout = r->s->idle;

	if (r->s->pref) {
		quic_kunit_addr4(&pref, "127.0.0.3", port + XP_PREF_OFFSET);
		r->p.server_pref = &pref;
	}
	xl_start(seed, port, r->s->pref ? port + XP_PREF_OFFSET : 0, r->s->rebind);
	r->in_seed = true;
	r->deadline = jiffies + 20 * HZ;
	conn_handshake(r->test, &c, port, &r->p);
	why = r->s->run(r);
	r->acts += r->updates;
#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
	if (!why && atomic_read(&quic_invariant_breaks) != breaks)
		why = "a connection invariant broke (see the log above)";
#endif
	if (why) {
		xr_dump(r, "client", r->p.client);
		xr_dump(r, "server", r->p.server);
		xr_dump_flows(r);
	}
	xl_stop();
	r->in_seed = false;
	if (r->p.server)
		kunit_release_action(r->test, conn_sock_release, r->p.server);
	if (r->p.client)
		kunit_release_action(r->test, conn_sock_release, r->p.client);
	kunit_release_action(r->test, conn_sock_release, r->p.lsock);
	return why;
}

/* Seed @i of a scenario: the base seed, the scenario's name and @i mixed. */
static u64 xr_seed_of(const struct xscen *s, u32 i)
{
	u64 h = 0xcbf29ce484222325ULL;	/* FNV-1a */
	const char *c;

	for (c = s->name; *c; c++)
		h = (h ^ (u8)*c) * 0x100000001b3ULL;
	return explore_seed ^ h ^ ((i + 1) * 0x9e3779b97f4a7c15ULL);
}

static void xs_desc(const struct xscen *s, char *desc)
{
	strscpy(desc, s->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(xscen, xscens, xs_desc);

/* Listener ports go round across scenarios too. */
static u32 xp_next_port;

/*
 * explore_seeds seeds of the scenario (one case each: KUnit's limit of
 * five minutes applies per scenario); each ends as the oracle at the top
 * of this file says, and then nothing is left behind.
 */
static void explore_scenario_completes_or_closes_as_expected(struct kunit *test)
{
	const struct xscen *s = test->param_value;
	s64 socks_before = percpu_counter_sum(&quic_sockets_allocated);
	long mem_before = rx_memory_charged(&quic_prot);
	u32 seeds = explore_replay ? 1 : explore_seeds;
	u32 i, fails = 0;
	const char *why;
	ktime_t start;
	struct xrun *r;
	u64 seed;

	if (explore_only && *explore_only && strcmp(explore_only, s->name))
		kunit_skip(test, "explore_only=%s", explore_only);
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->test = test;
	r->s = s;
	r->data = conn_pattern(test, XF_DATA_MAX, 0x5a);
	r->bounce = kunit_kmalloc(test, XF_BOUNCE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->bounce);
	xl_up(test);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, xr_name_seed, r), 0);

	start = ktime_get();
	for (i = 0; i < seeds && fails < 3; i++) {
		seed = explore_replay ?: xr_seed_of(s, i);
		why = xr_seed(r, seed, XP_PORT_BASE + xp_next_port++ % XP_PORTS);
		if (!why)
			continue;
		fails++;
		KUNIT_FAIL(test, "scenario %s seed %#llx (pattern %s): %s\n"
			   "replay: --kernel_args='quic_kunit.explore_only=%s quic_kunit.explore_replay=%#llx'",
			   s->name, seed, xl_pattern_name[xl.pattern], why, s->name, seed);
	}
	kunit_info(test, "%s: %u seeds (base %#llx) in %lld ms: %llu datagrams, %llu lost, %llu duplicated, %llu held, %llu delayed, %llu changed, %llu rebound, %llu overflow; %u key updates or moves, %u on the preferred address\n",
		   s->name, i, explore_seed, ktime_ms_delta(ktime_get(), start), xl.st.seen,
		   xl.st.lost, xl.st.dups, xl.st.held, xl.st.delayed, xl.st.damaged,
		   xl.st.rebinds, xl.st.overflow, r->acts, r->on_pref);

	/* Nothing left behind: sockets and charged memory. */
	rx_expect_released(test, &quic_prot, socks_before, mem_before);
}

static struct kunit_case explore_cases[] = {
	KUNIT_CASE_PARAM_ATTR(explore_scenario_completes_or_closes_as_expected, xscen_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite explore_suite = {
	.name = "quic_explore",
	.suite_init = quic_kunit_net_suite_init,
	.suite_exit = quic_kunit_net_suite_exit,
	.test_cases = explore_cases,
};

kunit_test_suite(explore_suite);
