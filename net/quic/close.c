// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC connection termination (RFC 9000 Section 10).
 *
 * A connection ends in one of three ways:
 * - idle timeout (Section 10.1): silently, nothing is sent and no period
 *   follows;
 * - an immediate close by us (Section 10.2): at close() or shutdown() with
 *   the application's code and reason (QUIC_SOCKOPT_CONNECTION_CLOSE, an
 *   application close, frame type 0x1d) or NO_ERROR, or on a protocol
 *   violation with its transport error. Every stream is abandoned, the
 *   CONNECTION_CLOSE goes out in one datagram and the closing state
 *   begins (Section 10.2.1): late packets of the connection are answered
 *   with that same datagram ("endpoints MAY send the exact same packet"),
 *   after 1, 2, 4, 8, ... of them, and never beyond three times the bytes
 *   received;
 * - a CONNECTION_CLOSE from the peer: the draining state (Section 10.2.2),
 *   in which nothing is sent.
 * Both periods last three PTOs ("These states SHOULD persist for at least
 * three times the current PTO interval"), during which the socket keeps
 * its connection IDs so that late packets still find it. The application
 * sees the end at once: its calls fail (or read end of file) and
 * QUIC_SOCKOPT_CONNECTION_CLOSE reports what ended the connection.
 *
 * When the application closes its socket while a period runs, the socket
 * lingers, orphaned, until the period ends; a work item then releases it
 * in process context. Kernel sockets do not linger: they hold no
 * reference on their network namespace, which may go away first.
 */

#include <linux/skbuff.h>
#include <net/sock.h>

#include "close.h"
#include "connection.h"
#include "lookup.h"
#include "socket.h"
#include "transmit.h"

static struct workqueue_struct *quic_close_wq;

static void quic_close_info_clear(struct quic_close_info *info)
{
	kfree(info->phrase);
	memset(info, 0, sizeof(*info));
}

/* Copy @len bytes of phrase (truncated to the maximum) into @info. */
static int quic_close_info_phrase(struct quic_close_info *info, const u8 *phrase, u32 len,
				  gfp_t gfp)
{
	len = min_t(u32, len, QUIC_CLOSE_PHRASE_MAX_LEN);
	info->phrase = NULL;
	info->phrase_len = 0;
	if (!len)
		return 0;
	info->phrase = kmalloc(len + 1, gfp);
	if (!info->phrase)
		return -ENOMEM;
	memcpy(info->phrase, phrase, len);
	info->phrase[len] = '\0';
	info->phrase_len = len;
	return 0;
}

/* Release a lingering socket: process context, no lock held. */
static void quic_close_work(struct work_struct *work)
{
	struct quic_close *c = container_of(work, struct quic_close, work);
	struct quic_sock *qs = container_of(c, struct quic_sock, close);
	struct sock *sk = &qs->inet.sk;

	lock_sock(sk);
	quic_timer_stop_all(quic_timers(sk));
	release_sock(sk);
	/* Drops the reference the application's file held. */
	sk_common_release(sk);
}

/**
 * quic_close_init - set up the termination state of a new socket
 * @sk: the socket
 */
void quic_close_init(struct sock *sk)
{
	struct quic_close *c = &quic_sk(sk)->close;

	memset(c, 0, sizeof(*c));
	INIT_WORK(&c->work, quic_close_work);
}

/**
 * quic_close_free - release the termination state of a socket
 * @sk: the socket, from its proto destroy
 */
void quic_close_free(struct sock *sk)
{
	struct quic_close *c = &quic_sk(sk)->close;

	quic_close_info_clear(&c->local);
	quic_close_info_clear(&c->seen);
	kfree_skb(c->skb);
	c->skb = NULL;
}

/*
 * Later upstream headers give struct quic_connection_close three reserved
 * bytes after @frame and a fixed 64-byte phrase: 72 bytes, the phrase at
 * offset 8 instead of 5. A set of exactly that length whose three bytes
 * after @frame are zero is read that way (in our layout they would start
 * an empty phrase); a get into a buffer of exactly that length is written
 * that way.
 */
#define QUIC_CLOSE_LONG_PAD	3
#define QUIC_CLOSE_LONG_PHRASE	64
#define QUIC_CLOSE_LONG		(offsetof(struct quic_connection_close, phrase) + \
				 QUIC_CLOSE_LONG_PAD + QUIC_CLOSE_LONG_PHRASE)
static_assert(QUIC_CLOSE_LONG == 72);

static bool quic_close_long_layout(const struct quic_connection_close *opt, u32 optlen)
{
	return optlen == QUIC_CLOSE_LONG &&
	       !memchr_inv(opt->phrase, 0, QUIC_CLOSE_LONG_PAD);
}

/**
 * quic_close_set - QUIC_SOCKOPT_CONNECTION_CLOSE: the close the application wants
 * @sk: the socket, owned by the caller
 * @optval: struct quic_connection_close, its phrase a NUL-terminated string
 * @optlen: from sizeof(struct quic_connection_close) up to room for a phrase
 *	of %QUIC_CLOSE_PHRASE_MAX_LEN bytes and its NUL
 *
 * The code and phrase go in the application CONNECTION_CLOSE (0x1d) that
 * close() or shutdown() sends; without this option those send NO_ERROR.
 * @frame, the type of the frame that caused the close (0 by default, as
 * the socket API draft has it), goes in the Frame Type field when the
 * close is sent as a transport CONNECTION_CLOSE (0x1c: a TLS alert during
 * the handshake, see quic_close_local()); an application close has no
 * such field, and the value is only reported back.
 *
 * The 72-byte layout of later upstream headers is taken too (see above).
 *
 * Return: 0, -EINVAL for a bad length or a phrase without its NUL (but
 * the bare structure, whose padding is not a phrase),
 * -EFAULT, -ENOMEM.
 */
int quic_close_set(struct sock *sk, sockptr_t optval, unsigned int optlen)
{
	const u32 off = offsetof(struct quic_connection_close, phrase);
	struct quic_close_info info = { .app = 1, .set = 1 };
	struct quic_connection_close *opt;
	const u8 *phrase;
	u32 len;
	int err;

	sock_owned_by_me(sk);
	if (optlen < sizeof(*opt) || optlen > off + QUIC_CLOSE_PHRASE_MAX_LEN + 1)
		return -EINVAL;
	opt = memdup_sockptr(optval, optlen);
	if (IS_ERR(opt))
		return PTR_ERR(opt);
	phrase = opt->phrase;
	err = -EINVAL;
	if (quic_close_long_layout(opt, optlen)) {
		/* The phrase fills its 64 bytes or ends with a NUL. */
		phrase += QUIC_CLOSE_LONG_PAD;
		len = strnlen((const char *)phrase, QUIC_CLOSE_LONG_PHRASE);
	} else {
		len = strnlen((const char *)phrase, optlen - off);
		/* The bare structure: its last three bytes are padding,
		 * which a program that gives no phrase leaves as it is
		 * (struct quic_connection_close c = { .errcode = 3 }).
		 */
		if (len == optlen - off && optlen != sizeof(*opt))
			goto out;
		if (len == optlen - off)
			len = 0;
	}
	info.errcode = opt->errcode;
	info.frame = opt->frame;
	err = quic_close_info_phrase(&info, phrase, len, GFP_KERNEL);
	if (err)
		goto out;
	quic_close_info_clear(&quic_sk(sk)->close.local);
	quic_sk(sk)->close.local = info;
out:
	kfree(opt);
	return err;
}

/**
 * quic_close_get - QUIC_SOCKOPT_CONNECTION_CLOSE: how the connection ended
 * @sk: the socket, owned by the caller
 * @len: the caller's buffer length
 * @optval: where struct quic_connection_close and its phrase go
 * @optlen: where the length written goes
 *
 * Once a CONNECTION_CLOSE ended the connection, the peer's or ours (a
 * protocol violation, or close() on a socket shut down before), its error
 * code (capped at U32_MAX), frame type and reason phrase; until then what
 * close() would send. The phrase is NUL-terminated; the length reported
 * is at least sizeof(struct quic_connection_close). A buffer of exactly
 * 72 bytes gets the layout of later upstream headers (see above).
 *
 * Return: 0, -EINVAL when @len is too short, -EFAULT, -ENOMEM.
 */
int quic_close_get(struct sock *sk, u32 len, sockptr_t optval, sockptr_t optlen)
{
	const u32 off = offsetof(struct quic_connection_close, phrase);
	struct quic_close *c = &quic_sk(sk)->close;
	const struct quic_close_info *info = c->seen.set ? &c->seen : &c->local;
	struct quic_connection_close *opt;
	u32 out, n = info->phrase_len;
	bool longer = len == QUIC_CLOSE_LONG;
	int err;

	sock_owned_by_me(sk);
	out = max_t(u32, sizeof(*opt), off + info->phrase_len + 1);
	if (longer) {
		/* The later layout: the phrase cut to 63 bytes and its NUL. */
		out = QUIC_CLOSE_LONG;
		n = min_t(u32, n, QUIC_CLOSE_LONG_PHRASE - 1);
	}
	if (len < out)
		return -EINVAL;
	opt = kzalloc(out, GFP_KERNEL);
	if (!opt)
		return -ENOMEM;
	opt->errcode = min_t(u64, info->errcode, U32_MAX);
	opt->frame = info->frame;
	if (n)
		memcpy(opt->phrase + (longer ? QUIC_CLOSE_LONG_PAD : 0), info->phrase, n);
	err = -EFAULT;
	if (!copy_to_sockptr(optval, opt, out) &&
	    !copy_to_sockptr(optlen, &out, sizeof(out)))
		err = 0;
	kfree(opt);
	return err;
}

/**
 * quic_close_period - how long the closing or draining period lasts
 * @sk: the socket, owned by the caller
 *
 * RFC 9000 Section 10.2: "at least three times the current PTO interval",
 * the interval of RFC 9002 Section 6.2.1's formula. The backoff of PTOs
 * that expired unanswered is left out: a peer that stopped acknowledging
 * would otherwise keep a closed socket for 2^pto_count times as long (up
 * to the timer's hour). The whole is capped at
 * %QUIC_CLOSE_PERIOD_MAX, as TCP bounds TIME-WAIT: an RTT estimate that a
 * peer inflated with late acknowledgments (samples go up to QUIC_RTT_MAX),
 * or its max_ack_delay of up to 2^14 ms, cannot either. Below a 20 s PTO
 * the three PTOs are kept.
 *
 * Return: microseconds.
 */
u64 quic_close_period(struct sock *sk)
{
	struct quic_cong *cong = quic_cong(sk);
	u64 pto = quic_cong_pto(cong, QUIC_CRYPTO_APP) >> cong->pto_count;

	return min_t(u64, 3 * pto, QUIC_CLOSE_PERIOD_MAX);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_close_period);

/* Enter the closing or draining period, measured on the IDLE timer. */
static void quic_close_period_start(struct sock *sk)
{
	struct quic_close *c = &quic_sk(sk)->close;

	c->period = 1;
	quic_timer_reset(quic_timers(sk), QUIC_TIMER_IDLE, quic_close_period(sk));
}

/**
 * quic_close_immediate - close the connection with a CONNECTION_CLOSE of ours
 * @sk: the socket, owned by the caller, establishing or established
 * @info: error code, frame type and phrase to send (copied)
 * @err: what the application's next call returns (positive errno, 0 for
 *	end of file)
 *
 * RFC 9000 Section 10.2: every stream is abandoned, the CONNECTION_CLOSE
 * is sent at each level the peer may read and the closing state begins.
 * Safe in softirq context.
 */
void quic_close_immediate(struct sock *sk, const struct quic_close_info *info, int err)
{
	struct quic_close *c = &quic_sk(sk)->close;

	sock_owned_by_me(sk);
	if (!quic_is_establishing(sk) && !quic_is_established(sk))
		return;
	quic_close_info_clear(&c->seen);
	c->seen = *info;
	c->seen.set = 1;
	if (quic_close_info_phrase(&c->seen, info->phrase, info->phrase_len, GFP_ATOMIC))
		c->seen.phrase_len = 0;

	quic_outq_abandon(quic_outq(sk));
	kfree_skb(c->skb);
	c->skb = NULL;
	/* This close supersedes an error latched but not acted on yet. */
	c->latched = 0;
	quic_xmit_close(sk, info, &c->skb);
	c->rcvd = 0;
	c->sent = c->skb ? c->skb->len : 0;
	c->pkts = 0;

	quic_conn_closed(sk, err);
	quic_close_period_start(sk);
}

/**
 * quic_close_local - the application ends the connection (close(), shutdown())
 * @sk: the socket, owned by the caller
 *
 * Sends the application's code and phrase when it set them, NO_ERROR
 * otherwise; the application then reads end of file. Stream data a
 * MSG_MORE write held back goes first, as far as the congestion window
 * lets it, as TCP sends corked data before its FIN.
 *
 * RFC 9001 Section 4.8: a TLS alert becomes CRYPTO_ERROR, 0x0100 plus the
 * AlertDescription, in a CONNECTION_CLOSE of type 0x1c. A TLS library that
 * fails the handshake sets such a code and shuts the socket down: while
 * the connection is still establishing, a code in 0x0100-0x01ff is sent
 * as that transport error rather than as an application close.
 */
void quic_close_local(struct sock *sk)
{
	struct quic_close *c = &quic_sk(sk)->close;
	struct quic_close_info info = {};

	sock_owned_by_me(sk);
	if (quic_outq(sk)->corked) {
		quic_outq(sk)->corked = 0;
		quic_xmit(sk);
	}
	if (c->local.set)
		info = c->local;
	if (quic_is_establishing(sk) && info.errcode >= QUIC_TRANSPORT_ERROR_CRYPTO &&
	    info.errcode <= QUIC_TRANSPORT_ERROR_CRYPTO + 0xff)
		info.app = 0;
	quic_close_immediate(sk, &info, 0);
}

/**
 * quic_close_received - the peer sent CONNECTION_CLOSE
 * @sk: the socket, owned by the caller
 * @f: the frame; its phrase points into the packet
 *
 * RFC 9000 Section 10.2.2: the draining state, in which nothing is sent.
 * A close without an error is an end of file for the application, any
 * other ECONNRESET. Softirq context.
 */
void quic_close_received(struct sock *sk, const struct quic_frame *f)
{
	struct quic_close *c = &quic_sk(sk)->close;
	struct quic_close_info *seen = &c->seen;

	sock_owned_by_me(sk);
	quic_close_info_clear(seen);
	seen->errcode = f->close.errcode;
	seen->frame = min_t(u64, f->close.frame_type, U8_MAX);
	seen->app = f->type == QUIC_FRAME_CONNECTION_CLOSE_APP;
	seen->set = 1;
	quic_close_info_phrase(seen, f->close.phrase, f->close.phrase_len, GFP_ATOMIC);
	quic_sk(sk)->peer_errcode = f->close.errcode;

	kfree_skb(c->skb);
	c->skb = NULL;
	quic_conn_closed(sk, f->close.errcode ? ECONNRESET : 0);
	quic_close_period_start(sk);
}

/**
 * quic_close_rcv - a datagram for a connection in its closing or draining period
 * @sk: the socket, owned by the caller
 * @skb: the datagram; consumed
 *
 * No frame is processed (RFC 9000 Section 10.2.1 does not require it). In
 * the closing state the closing datagram is repeated after the 1st, 2nd,
 * 4th, 8th, ... packet, within three times the bytes received (the
 * Section 10.2.1 limit, which also covers an unvalidated new address).
 */
void quic_close_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct quic_close *c = &quic_sk(sk)->close;

	sock_owned_by_me(sk);
	c->rcvd += skb->len;
	c->pkts++;
	if (c->skb && is_power_of_2(c->pkts) && c->sent + c->skb->len <= 3 * c->rcvd &&
	    !quic_xmit_resend(sk, c->skb))
		c->sent += c->skb->len;
	kfree_skb(skb);
}

/**
 * quic_close_repeat - send the closing datagram again for the application
 * @sk: the socket, owned by the caller (process context)
 *
 * draft-lxin-quic-socket-apis, shutdown(): "applications MAY use SHUT_WR
 * to send the CLOSE frame multiple times". Only in the closing state,
 * whose datagram is kept (RFC 9000 Section 10.2.1); the draining state
 * sends nothing (Section 10.2.2). To an address not validated yet the
 * copies stay within three times the bytes received in the period, the
 * limit quic_close_rcv() keeps (Section 8.1).
 *
 * Return: 0 when sent; -ENOTCONN outside the closing state; -EAGAIN at
 * the amplification limit; -ENOMEM or a routing error.
 */
int quic_close_repeat(struct sock *sk)
{
	struct quic_close *c = &quic_sk(sk)->close;
	int err;

	sock_owned_by_me(sk);
	if (!c->period || !c->skb)
		return -ENOTCONN;
	if (!quic_paths(sk)->validated && c->sent + c->skb->len > 3 * c->rcvd)
		return -EAGAIN;
	err = quic_xmit_resend(sk, c->skb);
	if (!err)
		c->sent += c->skb->len;
	return err;
}

/**
 * quic_close_period_end - the closing or draining period is over
 * @sk: the socket, owned by the caller (IDLE timer handler)
 *
 * The closing datagram is dropped; a socket the application already
 * closed is released from process context.
 */
void quic_close_period_end(struct sock *sk)
{
	struct quic_close *c = &quic_sk(sk)->close;

	sock_owned_by_me(sk);
	if (!c->period)
		return;
	c->period = 0;
	kfree_skb(c->skb);
	c->skb = NULL;
	if (c->lingering)
		queue_work(quic_close_wq, &c->work);
}

/**
 * quic_close_linger - at close(): keep the socket for the rest of its period?
 * @sk: the socket, owned by the caller
 *
 * When the closing or draining period still runs and the socket belongs
 * to a user (it holds a reference on its network namespace), it is
 * orphaned here and released by quic_close_period_end(); the caller then
 * leaves the application's reference to that release.
 *
 * A socket that does not linger (a kernel socket holds no reference on
 * its namespace) leaves its period here, under the lock: the receive
 * path, which may still hold a reference to it, then drops what arrives
 * instead of answering with the closing datagram that destroy frees.
 *
 * Return: true when the socket lingers.
 */
bool quic_close_linger(struct sock *sk)
{
	struct quic_close *c = &quic_sk(sk)->close;

	sock_owned_by_me(sk);
	if (!c->period || !sk->sk_net_refcnt || !quic_close_wq) {
		c->period = 0;
		kfree_skb(c->skb);
		c->skb = NULL;
		return false;
	}
	c->lingering = 1;
	/* Under the socket lock: a period ending now is deferred to
	 * release_sock() and finds the socket orphaned.
	 */
	sock_orphan(sk);
	return true;
}

/**
 * quic_close_wq_init - create the workqueue that releases lingering sockets
 *
 * Return: 0, or -ENOMEM.
 */
int quic_close_wq_init(void)
{
	quic_close_wq = alloc_workqueue("quic_close", 0, 0);
	return quic_close_wq ? 0 : -ENOMEM;
}

/**
 * quic_close_wq_destroy - wait for the last releases and free the workqueue
 */
void quic_close_wq_destroy(void)
{
	destroy_workqueue(quic_close_wq);
	quic_close_wq = NULL;
}

/**
 * quic_conn_closed - the connection is over: wake every waiter
 * @sk: the socket, owned by the caller
 * @err: what the application's next call returns (positive errno)
 *
 * Safe from a timer handler: timers are stopped without waiting.
 */
void quic_conn_closed(struct sock *sk, int err)
{
	int i;

	for (i = 0; i < QUIC_TIMER_MAX; i++)
		quic_timer_stop(quic_timers(sk), i);
	WRITE_ONCE(sk->sk_err, err);
	WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
	quic_set_state(sk, QUIC_SS_CLOSED);
	sk_error_report(sk);
}

/**
 * quic_rcv_conn_error - latch a connection error
 * @sk: the socket, owned by the caller
 * @errcode: transport error code (RFC 9000 Section 20.1)
 * @frame_type: the frame type that caused it, or 0
 *
 * Only records the error: the first one of a connection wins, and nothing
 * is sent for the connection meanwhile (quic_xmit()). quic_close_flush(),
 * from quic_conn_flush() at the end of the received datagram, the timer
 * expiry or the system call, sends CONNECTION_CLOSE and enters the
 * closing state; the application then sees EPROTO. So a frame handler's
 * error never closes the socket in the middle of the frame loop.
 */
void quic_rcv_conn_error(struct sock *sk, u32 errcode, u8 frame_type)
{
	struct quic_close *c = &quic_sk(sk)->close;

	sock_owned_by_me(sk);
	if (c->latched || (!quic_is_establishing(sk) && !quic_is_established(sk)))
		return;
	c->err_code = errcode;
	c->err_frame = frame_type;
	c->latched = 1;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_rcv_conn_error);

/**
 * quic_close_flush - close the connection for its latched error
 * @sk: the socket, owned by the caller or its spinlock held (softirq)
 *
 * Sends CONNECTION_CLOSE with the error quic_rcv_conn_error() latched and
 * enters the closing state (quic_close_immediate()).
 */
void quic_close_flush(struct sock *sk)
{
	struct quic_close *c = &quic_sk(sk)->close;
	struct quic_close_info info = {};

	sock_owned_by_me(sk);
	if (!c->latched)
		return;
	c->latched = 0;
	info.errcode = c->err_code;
	info.frame = c->err_frame;
	quic_close_immediate(sk, &info, EPROTO);
}
