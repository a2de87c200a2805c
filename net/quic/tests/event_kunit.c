// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_event: which stream state changes become
 * QUIC_EVENT_STREAM_UPDATE notifications (event.c), and the value of
 * QUIC_EVENT_STREAM_MAX_STREAM.
 *
 * draft-lxin-quic-socket-apis, "QUIC_EVENT_STREAM_UPDATE": "Only
 * notifications with one of the following states are delivered": on the
 * sending side Data Recvd, Reset Sent (for a STOP_SENDING of the peer)
 * and Reset Recvd; on the receiving side Recv (the first data of a stream
 * that is not complete yet), Size Known, Data Recvd and Reset Recvd. The
 * cases drive event.c directly on an unconnected socket with the event
 * enabled, and read what it queued.
 */

#include <kunit/test.h>
#include <linux/net.h>
#include <linux/unaligned.h>
#include <net/sock.h>

#include "../event.h"
#include "../inqueue.h"
#include "../socket.h"
#include "../stream.h"
#include "util.h"

static struct sock *ev_socket(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_DGRAM)->sk;
	struct quic_event_option ev = { .type = QUIC_EVENT_STREAM_UPDATE, .on = 1 };

	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev)), 0);
	return sk;
}

/* Read the next notification; its state, or -1 when none is queued. */
static int ev_next_state(struct kunit *test, struct sock *sk, s64 *id)
{
	struct quic_stream_update u;
	struct quic_inq_rinfo ri;
	u8 buf[64];
	int ret;

	lock_sock(sk);
	ret = quic_inq_read_buf(quic_inq(sk), quic_streams(sk), buf, sizeof(buf), &ri);
	release_sock(sk);
	if (ret <= 0)
		return -1;
	KUNIT_EXPECT_EQ(test, ri.type, QUIC_INQ_EVENT);
	KUNIT_EXPECT_EQ(test, buf[0], QUIC_EVENT_STREAM_UPDATE);
	KUNIT_EXPECT_EQ(test, ret, 1 + (int)sizeof(u));
	memcpy(&u, buf + 1, sizeof(u));
	if (id)
		*id = u.id;
	return u.state;
}

/* Report the part of @s in @state; return the state delivered, or -1. */
static int ev_part(struct kunit *test, struct sock *sk, struct quic_stream *s, bool send,
		   u8 state)
{
	if (send)
		s->send.state = state;
	else
		s->recv.state = state;
	lock_sock(sk);
	quic_event_stream_part(sk, s, send);
	release_sock(sk);
	return ev_next_state(test, sk, NULL);
}

static void event_stream_update_delivers_only_the_listed_states(struct kunit *test)
{
	struct sock *sk = ev_socket(test);
	struct quic_stream s = { .id = 4 };

	/* Sending part: Data Recvd, Reset Sent and Reset Recvd. */
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, true, QUIC_STREAM_SEND_STATE_READY), -1);
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, true, QUIC_STREAM_SEND_STATE_SEND), -1);
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, true, QUIC_STREAM_SEND_STATE_SENT), -1);
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, true, QUIC_STREAM_SEND_STATE_RECVD),
			QUIC_STREAM_SEND_STATE_RECVD);
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, true, QUIC_STREAM_SEND_STATE_RESET_SENT),
			QUIC_STREAM_SEND_STATE_RESET_SENT);
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, true, QUIC_STREAM_SEND_STATE_RESET_RECVD),
			QUIC_STREAM_SEND_STATE_RESET_RECVD);

	/* Receiving part: all but the two the application itself causes. */
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, false, QUIC_STREAM_RECV_STATE_RECV),
			QUIC_STREAM_RECV_STATE_RECV);
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, false, QUIC_STREAM_RECV_STATE_SIZE_KNOWN),
			QUIC_STREAM_RECV_STATE_SIZE_KNOWN);
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, false, QUIC_STREAM_RECV_STATE_RECVD),
			QUIC_STREAM_RECV_STATE_RECVD);
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, false, QUIC_STREAM_RECV_STATE_READ), -1);
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, false, QUIC_STREAM_RECV_STATE_RESET_RECVD),
			QUIC_STREAM_RECV_STATE_RESET_RECVD);
	KUNIT_EXPECT_EQ(test, ev_part(test, sk, &s, false, QUIC_STREAM_RECV_STATE_RESET_READ), -1);
}

/* Apply a change to @s between a snapshot and its report. */
static int ev_change(struct kunit *test, struct sock *sk, struct quic_stream *s, u8 recv_state,
		     u64 highest)
{
	struct quic_event_stream_snap snap;
	s64 id = -1;
	int state;

	lock_sock(sk);
	quic_event_stream_snap(s, &snap);
	s->recv.state = recv_state;
	s->recv.highest = highest;
	quic_event_stream_changed(sk, s, &snap);
	release_sock(sk);
	state = ev_next_state(test, sk, &id);
	if (state >= 0)
		KUNIT_EXPECT_EQ(test, id, s->id);
	KUNIT_EXPECT_EQ(test, ev_next_state(test, sk, NULL), -1);	/* one at most */
	return state;
}

/* "QUIC_STREAM_RECV_STATE_RECV: An update is delivered only when the last
 * fragment of data has not yet arrived ... there is pending data for the
 * stream": once, for the first bytes of a stream that do not complete it.
 */
static void event_stream_update_recv_once_for_the_first_pending_data(struct kunit *test)
{
	struct sock *sk = ev_socket(test);
	struct quic_stream s = { .id = 1, .recv.state = QUIC_STREAM_RECV_STATE_RECV };
	struct quic_stream t = { .id = 5, .recv.state = QUIC_STREAM_RECV_STATE_RECV };
	struct quic_stream u = { .id = 9, .recv.state = QUIC_STREAM_RECV_STATE_RECV };

	/* An empty frame brings no data: nothing. */
	KUNIT_EXPECT_EQ(test, ev_change(test, sk, &s, QUIC_STREAM_RECV_STATE_RECV, 0), -1);
	/* The first bytes: Recv. */
	KUNIT_EXPECT_EQ(test, ev_change(test, sk, &s, QUIC_STREAM_RECV_STATE_RECV, 100),
			QUIC_STREAM_RECV_STATE_RECV);
	/* More bytes: nothing new to tell. */
	KUNIT_EXPECT_EQ(test, ev_change(test, sk, &s, QUIC_STREAM_RECV_STATE_RECV, 200), -1);
	/* The FIN arrives in order: Data Recvd. */
	KUNIT_EXPECT_EQ(test, ev_change(test, sk, &s, QUIC_STREAM_RECV_STATE_RECVD, 300),
			QUIC_STREAM_RECV_STATE_RECVD);

	/* A first frame that completes its stream gives Data Recvd alone. */
	KUNIT_EXPECT_EQ(test, ev_change(test, sk, &t, QUIC_STREAM_RECV_STATE_RECVD, 10),
			QUIC_STREAM_RECV_STATE_RECVD);
	/* A first frame with the FIN ahead of missing data: Size Known. */
	KUNIT_EXPECT_EQ(test, ev_change(test, sk, &u, QUIC_STREAM_RECV_STATE_SIZE_KNOWN, 50),
			QUIC_STREAM_RECV_STATE_SIZE_KNOWN);
}

/* A notification carries the id, the state, the error code of a reset and
 * the final size once it is known; its padding is zero.
 */
static void event_stream_update_carries_code_and_final_size(struct kunit *test)
{
	struct sock *sk = ev_socket(test);
	struct quic_stream s = { .id = 8, .send.bytes = 1234, .send.errcode = 77,
				 .send.state = QUIC_STREAM_SEND_STATE_RESET_RECVD };
	struct quic_stream_update u;
	struct quic_inq_rinfo ri;
	u8 buf[64];
	int ret;

	lock_sock(sk);
	quic_event_stream_part(sk, &s, true);
	ret = quic_inq_read_buf(quic_inq(sk), quic_streams(sk), buf, sizeof(buf), &ri);
	release_sock(sk);
	KUNIT_ASSERT_EQ(test, ret, 1 + (int)sizeof(u));
	memcpy(&u, buf + 1, sizeof(u));
	KUNIT_EXPECT_EQ(test, u.id, 8LL);
	KUNIT_EXPECT_EQ(test, u.state, QUIC_STREAM_SEND_STATE_RESET_RECVD);
	KUNIT_EXPECT_EQ(test, u.errcode, 77U);
	KUNIT_EXPECT_EQ(test, u.finalsz, 1234ULL);
	/* The three bytes between state and errcode are padding, cleared. */
	KUNIT_EXPECT_EQ(test, buf[1 + 9] | buf[1 + 10] | buf[1 + 11], 0);
}

/* Nothing is queued while the application has not enabled the event. */
static void event_stream_update_needs_the_event_enabled(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_DGRAM)->sk;
	struct quic_stream s = { .id = 0, .send.state = QUIC_STREAM_SEND_STATE_RECVD };

	lock_sock(sk);
	quic_event_stream_part(sk, &s, true);
	release_sock(sk);
	KUNIT_EXPECT_EQ(test, ev_next_state(test, sk, NULL), -1);
}

/* draft-lxin-quic-socket-apis, QUIC_EVENT_STREAM_MAX_STREAM: "The stream
 * type is encoded in the first 2 bits, and the maximum stream limit is
 * calculated by shifting max_stream right by 2 bits": the peer's new
 * MAX_STREAMS count, with the type of the streams it limits (ours: a
 * client's unidirectional ones here).
 */
static void event_max_stream_is_the_limit_shifted_by_two(struct kunit *test)
{
	struct sock *sk = quic_kunit_socket(test, AF_INET, SOCK_DGRAM)->sk;
	struct quic_event_option ev = { .type = QUIC_EVENT_STREAM_MAX_STREAM, .on = 1 };
	struct quic_inq_rinfo ri;
	u64 max_stream;
	u8 buf[16];
	int ret;

	KUNIT_ASSERT_EQ(test, quic_kernel_setsockopt(sk, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev)), 0);
	lock_sock(sk);
	quic_event_max_streams(sk, true, 5);
	quic_event_max_streams(sk, false, 7);
	ret = quic_inq_read_buf(quic_inq(sk), quic_streams(sk), buf, sizeof(buf), &ri);
	release_sock(sk);
	KUNIT_ASSERT_EQ(test, ret, 1 + (int)sizeof(max_stream));
	KUNIT_EXPECT_EQ(test, buf[0], QUIC_EVENT_STREAM_MAX_STREAM);
	memcpy(&max_stream, buf + 1, sizeof(max_stream));
	KUNIT_EXPECT_EQ(test, max_stream >> 2, 5ULL);
	KUNIT_EXPECT_EQ(test, max_stream & QUIC_STREAM_TYPE_MASK, QUIC_STREAM_TYPE_UNI_MASK);

	lock_sock(sk);
	ret = quic_inq_read_buf(quic_inq(sk), quic_streams(sk), buf, sizeof(buf), &ri);
	release_sock(sk);
	KUNIT_ASSERT_EQ(test, ret, 1 + (int)sizeof(max_stream));
	memcpy(&max_stream, buf + 1, sizeof(max_stream));
	KUNIT_EXPECT_EQ(test, max_stream >> 2, 7ULL);
	KUNIT_EXPECT_EQ(test, max_stream & QUIC_STREAM_TYPE_MASK, 0ULL);
}

static struct kunit_case event_test_cases[] = {
	KUNIT_CASE(event_stream_update_delivers_only_the_listed_states),
	KUNIT_CASE(event_stream_update_recv_once_for_the_first_pending_data),
	KUNIT_CASE(event_stream_update_carries_code_and_final_size),
	KUNIT_CASE(event_stream_update_needs_the_event_enabled),
	KUNIT_CASE(event_max_stream_is_the_limit_shifted_by_two),
	{}
};

static struct kunit_suite event_suite = {
	.name = "quic_event",
	.test_cases = event_test_cases,
};

kunit_test_suite(event_suite);
