// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "api" cases for the draft's Sections 4 to 6 and 9: the control messages,
 * the events, the socket options and the limits of the security section.
 */

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/tls.h>

#include "api.h"
#include "ktap.h"
#include "util.h"

/* Not in our header: the draft's option (its number is not fixed there). */
#define DRAFT_SOCKOPT_STREAM_PEELOFF	15

static int send_raw_cmsgs(int fd, const void *data, size_t len, const void *ctl, size_t clen,
			  int flags)
{
	struct iovec iov = { (void *)data, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = (void *)ctl,
			    .msg_controllen = clen };

	return sendmsg(fd, &m, flags);
}

/* One SOL_QUIC control message of @type carrying @len bytes of @val, in @buf. */
static size_t cmsg_put(void *buf, int level, int type, const void *val, size_t len)
{
	struct cmsghdr *cm = buf;

	memset(buf, 0, CMSG_SPACE(len));
	cm->cmsg_level = level;
	cm->cmsg_type = type;
	cm->cmsg_len = CMSG_LEN(len);
	memcpy(CMSG_DATA(cm), val, len);
	return CMSG_SPACE(len);
}

static int udp_peer(int port)
{
	struct sockaddr_storage ss;
	socklen_t len = side_addr(1, AF_INET, port, &ss);
	int fd = socket_in(1, AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, len))
		return -1;
	return fd;
}

/* ------------------------------------------------------- Stream Information */

int c_si_new_bidi(void)
{
	struct streams st;
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(quic_sendmsg(c.cli, "a", 1, -1, MSG_QUIC_STREAM_NEW) == 1 &&
	      quic_sendmsg(c.cli, "b", 1, -1, MSG_QUIC_STREAM_NEW) == 1, "sends");
	CHECK(!drain(c.srv, 2, &st), "the peer read no 2 bytes");
	CHECK(!strcmp(st.data[0], "a") && !strcmp(st.data[4], "b"),
	      "stream 0 \"%s\", stream 4 \"%s\"", st.data[0], st.data[4]);
	return 1;
}

int c_si_new_uni(void)
{
	struct conn c;
	int64_t sid;
	char in[4];

	if (conn_open(NULL, &c))
		return -1;
	CHECK(quic_sendmsg(c.cli, "a", 1, -1, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_UNI) == 1,
	      "send");
	CHECK(recv_info(c.srv, in, 1, &sid, NULL, 0) == 1 && sid == 2, "stream %lld",
	      (long long)sid);
	return 1;
}

int c_si_latest(void)
{
	struct streams st;
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW) == 1 &&
	      quic_sendmsg(c.cli, "b", 1, 4, MSG_QUIC_STREAM_NEW) == 1 &&
	      quic_sendmsg(c.cli, "c", 1, 0, 0) == 1, "streams 0 and 4, then 0 again");
	CHECK(quic_sendmsg(c.cli, "d", 1, -1, MSG_QUIC_STREAM_FIN) == 1,
	      "stream_id -1 without MSG_QUIC_STREAM_NEW");
	CHECK(!drain(c.srv, 4, &st), "the peer read no 4 bytes");
	CHECK(!strcmp(st.data[4], "bd") && st.fin[4],
	      "stream 4 \"%s\"%s: the data did not end stream 4, the latest opened",
	      st.data[4], st.fin[4] ? " with FIN" : "");
	return 1;
}

int c_si_server_bit(void)
{
	struct conn c;
	int64_t sid;
	char in[4];

	if (conn_open(NULL, &c))
		return -1;
	CHECK(quic_sendmsg(c.srv, "s", 1, -1, MSG_QUIC_STREAM_NEW) == 1, "server send");
	CHECK(recv_info(c.cli, in, 1, &sid, NULL, 0) == 1 && sid == 1, "stream %lld",
	      (long long)sid);
	CHECK(quic_sendmsg(c.srv, "t", 1, -1, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_UNI) == 1,
	      "server send");
	CHECK(recv_info(c.cli, in, 1, &sid, NULL, 0) == 1 && sid == 3, "stream %lld",
	      (long long)sid);
	return 1;
}

int c_si_fin_closes(void)
{
	struct conn c;
	char in[4];
	bool fin;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1,
	      "send");
	CHECK(read_stream(c.srv, 0, in, 4, &fin) == 1 && fin, "no FIN at the peer");
	CHECK(quic_sendmsg(c.cli, "b", 1, 0, 0) == -1, "stream 0 still takes data");
	return 1;
}

int c_si_dontwait(void)
{
	struct conn_opts o = { .srv_bidi = 1 };
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW) == 1, "stream 0");
	CHECK(quic_sendmsg(c.cli, "b", 1, 4, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_DONTWAIT)
	      == -1 && errno == EAGAIN, "a stream beyond the limit: not EAGAIN");
	return 1;
}

int c_si_reserved(void)
{
	struct {
		int64_t id;
		uint32_t flags;
		uint32_t reserved;
	} si = { 0, MSG_QUIC_STREAM_NEW, 0xffffffff };
	union {
		char buf[CMSG_SPACE(sizeof(si))];
		struct cmsghdr align;
	} cb;
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	cmsg_put(cb.buf, SOL_QUIC, QUIC_STREAM_INFO, &si, sizeof(si));
	CHECK(send_raw_cmsgs(c.cli, "r", 1, cb.buf, sizeof(cb.buf), 0) == 1,
	      "refused with a non-zero reserved field");
	return 1;
}

/* ---------------------------------------------------- Handshake Information */

static int handshake_info_8(uint8_t fill)
{
	uint8_t hi[8];
	union {
		char buf[CMSG_SPACE(8)];
		struct cmsghdr align;
	} cb;
	int port = new_port();
	int u = udp_peer(port), cli;

	SETUP(u >= 0, "UDP peer");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0, "connect");
	memset(hi, fill, sizeof(hi));
	hi[0] = QUIC_CRYPTO_INITIAL;
	cmsg_put(cb.buf, SOL_QUIC, QUIC_HANDSHAKE_INFO, hi, sizeof(hi));
	CHECK(send_raw_cmsgs(cli, "\x01\x00\x00\x02hi", 6, cb.buf, sizeof(cb.buf), 0) == 6,
	      "sendmsg with an 8-byte handshake info");
	CHECK(readable(u, 2000), "no Initial packet went out");
	return 1;
}

int c_hi_draft_len(void)
{
	return handshake_info_8(0);
}

int c_hi_reserved(void)
{
	return handshake_info_8(0xa5);
}

/* ----------------------------------------------------------- Ancillary data */

int c_anc_one_only(void)
{
	struct quic_stream_info si = { .stream_id = 0, .stream_flags = MSG_QUIC_STREAM_NEW };
	union {
		char buf[2 * CMSG_SPACE(sizeof(si))];
		struct cmsghdr align;
	} cb;
	struct msghdr m = { .msg_control = cb.buf, .msg_controllen = sizeof(cb.buf) };
	struct conn c;
	size_t off;

	if (conn_open(NULL, &c))
		return -1;
	off = cmsg_put(cb.buf, SOL_QUIC, QUIC_STREAM_INFO, &si, sizeof(si));
	si.stream_id = 4;
	cmsg_put(cb.buf + off, SOL_QUIC, QUIC_STREAM_INFO, &si, sizeof(si));
	(void)m;
	CHECK(send_raw_cmsgs(c.cli, "2", 1, cb.buf, sizeof(cb.buf), 0) == -1 && errno == EINVAL,
	      "two QUIC_STREAM_INFO in one call not EINVAL");
	return 1;
}

int c_anc_other_level(void)
{
	struct quic_stream_info si = { .stream_id = 0, .stream_flags = MSG_QUIC_STREAM_NEW };
	int tos = 0x10;
	union {
		char buf[CMSG_SPACE(sizeof(si)) + CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} cb;
	struct conn c;
	char in[4];
	bool fin;
	size_t off;

	if (conn_open(NULL, &c))
		return -1;
	off = cmsg_put(cb.buf, SOL_IP, IP_TOS, &tos, sizeof(tos));
	cmsg_put(cb.buf + off, SOL_QUIC, QUIC_STREAM_INFO, &si, sizeof(si));
	CHECK(send_raw_cmsgs(c.cli, "o", 1, cb.buf, sizeof(cb.buf), 0) == 1,
	      "an IP-level item next to QUIC_STREAM_INFO was refused");
	CHECK(read_stream(c.srv, 0, in, 1, &fin) == 1, "nothing at the peer");
	return 1;
}

/* ------------------------------------------------------------------ Events */

int c_ev_default_off(void)
{
	struct quic_event_option ev;
	socklen_t len;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));
	int t;

	SETUP(fd >= 0, "socket");
	for (t = QUIC_EVENT_STREAM_UPDATE; t <= QUIC_EVENT_NEW_SESSION_TICKET; t++) {
		ev.type = t;
		ev.on = 0xff;
		len = sizeof(ev);
		CHECK(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_EVENT, &ev, &len) && !ev.on,
		      "event %d on by default", t);
	}
	return 1;
}

int c_ev_format(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	struct quic_stream_update u;
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1,
	      "send");
	CHECK(wait_event(c.srv, QUIC_EVENT_STREAM_UPDATE, &u, sizeof(u), 3000) == sizeof(u),
	      "no event of type 1 with a quic_stream_update after it");
	CHECK(u.id == 0, "for stream %lld", (long long)u.id);
	return 1;
}

static bool send_recvd(int fd, int64_t sid)
{
	struct quic_stream_update u[16];
	int n;

	if (quic_sendmsg(fd, "a", 1, sid, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) != 1)
		return false;
	n = collect_updates(fd, sid, QUIC_STREAM_SEND_STATE_RECVD, u, 16, 3000);
	return n && u[n - 1].state == QUIC_STREAM_SEND_STATE_RECVD;
}

int c_ev_any_nonzero(void)
{
	struct quic_event_option ev = { .type = QUIC_EVENT_STREAM_UPDATE };
	socklen_t len = sizeof(ev);
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(!event_on(c.cli, QUIC_EVENT_STREAM_UPDATE, 2), "on = 2 refused");
	CHECK(!getsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_EVENT, &ev, &len) && ev.on,
	      "reads back as off");
	CHECK(send_recvd(c.cli, 0), "no event delivered");
	return 1;
}

int c_ev_zero_disables(void)
{
	struct quic_stream_update u;
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	SETUP(!event_on(c.cli, QUIC_EVENT_STREAM_UPDATE, 1), "enable");
	CHECK(!event_on(c.cli, QUIC_EVENT_STREAM_UPDATE, 0), "disable");
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1,
	      "send");
	CHECK(wait_event(c.cli, QUIC_EVENT_STREAM_UPDATE, &u, sizeof(u), 500) < 0,
	      "an event came although disabled");
	return 1;
}

static bool allowed_state(uint8_t s)
{
	switch (s) {
	case QUIC_STREAM_SEND_STATE_RECVD:
	case QUIC_STREAM_SEND_STATE_RESET_SENT:
	case QUIC_STREAM_SEND_STATE_RESET_RECVD:
	case QUIC_STREAM_RECV_STATE_RECV:
	case QUIC_STREAM_RECV_STATE_SIZE_KNOWN:
	case QUIC_STREAM_RECV_STATE_RECVD:
	case QUIC_STREAM_RECV_STATE_RESET_RECVD:
		return true;
	}
	return false;
}

int c_su_send_recvd(void)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	CHECK(send_recvd(c.cli, 0), "no SEND_STATE_RECVD");
	return 1;
}

int c_su_only_listed(void)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	struct quic_stream_update u[16];
	struct conn c;
	int i, n;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1,
	      "send");
	n = collect_updates(c.cli, 0, QUIC_STREAM_SEND_STATE_RECVD, u, 16, 3000);
	SETUP(n, "no update");
	for (i = 0; i < n; i++)
		CHECK(allowed_state(u[i].state), "state %u delivered", u[i].state);
	return 1;
}

int c_su_reset_sent(void)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	struct quic_errinfo ei = { .stream_id = 0, .errcode = 7 };
	struct quic_stream_update u[16];
	struct conn c;
	char in[4];
	bool fin;
	int n;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW) == 1, "send");
	SETUP(read_stream(c.srv, 0, in, 1, &fin) == 1, "server read");
	CHECK(!setsockopt(c.srv, SOL_QUIC, QUIC_SOCKOPT_STREAM_STOP_SENDING, &ei, sizeof(ei)),
	      "STOP_SENDING");
	n = collect_updates(c.cli, 0, QUIC_STREAM_SEND_STATE_RESET_SENT, u, 16, 3000);
	CHECK(n && u[n - 1].state == QUIC_STREAM_SEND_STATE_RESET_SENT, "no RESET_SENT");
	CHECK(u[n - 1].errcode == 7, "errcode %u", u[n - 1].errcode);
	return 1;
}

static int own_reset(struct quic_stream_update *u, int *n)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	struct quic_errinfo ei = { .stream_id = 0, .errcode = 9 };
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW) == 1, "send");
	SETUP(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_STREAM_RESET, &ei, sizeof(ei)),
	      "STREAM_RESET");
	*n = collect_updates(c.cli, 0, QUIC_STREAM_SEND_STATE_RESET_RECVD, u, 16, 3000);
	return 0;
}

int c_su_reset_recvd(void)
{
	struct quic_stream_update u[16];
	int n = 0;

	if (own_reset(u, &n))
		return -1;
	CHECK(n && u[n - 1].state == QUIC_STREAM_SEND_STATE_RESET_RECVD, "no RESET_RECVD");
	CHECK(u[n - 1].errcode == 9, "errcode %u", u[n - 1].errcode);
	return 1;
}

int c_su_no_reset_sent_own(void)
{
	struct quic_stream_update u[16];
	int n = 0, i;

	if (own_reset(u, &n))
		return -1;
	SETUP(n, "no update");
	for (i = 0; i < n; i++)
		CHECK(u[i].state != QUIC_STREAM_SEND_STATE_RESET_SENT,
		      "RESET_SENT for a reset we made ourselves");
	return 1;
}

int c_su_recv_recv(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	struct quic_stream_update u[16];
	struct conn c;
	int n;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "abc", 3, 0, MSG_QUIC_STREAM_NEW) == 3, "send");
	n = collect_updates(c.srv, 0, QUIC_STREAM_RECV_STATE_RECV, u, 16, 1500);
	CHECK(n && u[n - 1].state == QUIC_STREAM_RECV_STATE_RECV, "no RECV_STATE_RECV");
	return 1;
}

int c_su_recv_recvd(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	struct quic_stream_update u[16];
	struct conn c;
	int n;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "abcd", 4, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 4,
	      "send");
	n = collect_updates(c.srv, 0, QUIC_STREAM_RECV_STATE_RECVD, u, 16, 3000);
	CHECK(n && u[n - 1].state == QUIC_STREAM_RECV_STATE_RECVD, "no RECV_STATE_RECVD");
	CHECK(u[n - 1].finalsz == 4, "finalsz %llu", (unsigned long long)u[n - 1].finalsz);
	return 1;
}

int c_su_recv_reset(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	struct quic_errinfo ei = { .stream_id = 0, .errcode = 5 };
	struct quic_stream_update u[16];
	struct conn c;
	int n;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "ab", 2, 0, MSG_QUIC_STREAM_NEW) == 2, "send");
	CHECK(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_STREAM_RESET, &ei, sizeof(ei)),
	      "STREAM_RESET");
	n = collect_updates(c.srv, 0, QUIC_STREAM_RECV_STATE_RESET_RECVD, u, 16, 3000);
	CHECK(n && u[n - 1].state == QUIC_STREAM_RECV_STATE_RESET_RECVD, "no RESET_RECVD");
	CHECK(u[n - 1].errcode == 5 && u[n - 1].finalsz == 2, "errcode %u, finalsz %llu",
	      u[n - 1].errcode, (unsigned long long)u[n - 1].finalsz);
	return 1;
}

int c_md_event(void)
{
	struct conn_opts o = { .srv_stream_data = 32768,
			       .cli_events = EV(QUIC_EVENT_STREAM_MAX_DATA) };
	static char buf[32768];
	struct quic_stream_max_data md;
	struct conn c;
	bool fin;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, buf, sizeof(buf), 0, MSG_QUIC_STREAM_NEW) == sizeof(buf),
	      "send the whole window");
	SETUP(read_stream(c.srv, 0, buf, sizeof(buf), &fin) == sizeof(buf), "server read");
	CHECK(wait_event(c.cli, QUIC_EVENT_STREAM_MAX_DATA, &md, sizeof(md), 3000) ==
	      sizeof(md), "no STREAM_MAX_DATA");
	CHECK(md.id == 0 && md.max_data > sizeof(buf), "stream %lld, max_data %llu",
	      (long long)md.id, (unsigned long long)md.max_data);
	return 1;
}

int c_md_enospc(void)
{
	struct conn_opts o = { .srv_stream_data = 16384 };
	static char buf[16384];
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, buf, sizeof(buf), 0, MSG_QUIC_STREAM_NEW) == sizeof(buf),
	      "send the whole window");
	CHECK(send(c.cli, "x", 1, MSG_DONTWAIT) == -1 && errno == ENOSPC,
	      "a non-blocking send on a blocked stream not ENOSPC");
	return 1;
}

static int open_stream(int fd, int64_t id, uint32_t flags, int64_t *out)
{
	struct quic_stream_info si = { .stream_id = id, .stream_flags = flags };
	socklen_t len = sizeof(si);
	int ret = getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_STREAM_OPEN, &si, &len);

	if (out)
		*out = si.stream_id;
	return ret;
}

/* A client at its limit of one uni stream, told of a new limit. */
static int max_stream_case(int what)
{
	struct conn_opts o = { .srv_uni = 1, .cli_events = EV(QUIC_EVENT_STREAM_MAX_STREAM) };
	uint64_t ms = 0;
	struct conn c;
	char in[4];
	bool fin;
	int n;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "x", 1, 2, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1,
	      "stream 2");
	if (what == 2)
		CHECK(open_stream(c.cli, -1, MSG_QUIC_STREAM_UNI | MSG_QUIC_STREAM_DONTWAIT, NULL)
		      == -1 && errno == EAGAIN, "a second uni stream before the event");
	SETUP(read_stream(c.srv, 2, in, 4, &fin) == 1 && fin, "server read");
	CHECK(wait_event(c.cli, QUIC_EVENT_STREAM_MAX_STREAM, &ms, sizeof(ms), 3000) ==
	      sizeof(ms), "no STREAM_MAX_STREAM");
	if (what == 0) {
		CHECK((ms & QUIC_STREAM_TYPE_MASK) == QUIC_STREAM_TYPE_UNI_MASK,
		      "max_stream %llu: not the client uni type", (unsigned long long)ms);
		return 1;
	}
	if (what == 2) {
		CHECK(!open_stream(c.cli, -1, MSG_QUIC_STREAM_UNI | MSG_QUIC_STREAM_DONTWAIT,
				   NULL), "opening again after the event");
		return 1;
	}
	for (n = 1; n < 300; n++)
		if (open_stream(c.cli, -1, MSG_QUIC_STREAM_UNI | MSG_QUIC_STREAM_DONTWAIT, NULL))
			break;
	CHECK((ms >> 2) == (uint64_t)n, "max_stream %llu, %d streams allowed",
	      (unsigned long long)ms, n);
	return 1;
}

int c_ms_event(void)
{
	return max_stream_case(0);
}

int c_ms_limit(void)
{
	return max_stream_case(1);
}

int c_ms_retry(void)
{
	return max_stream_case(2);
}

static int cid_set(int fd, uint8_t dest, uint32_t active, uint32_t prior_to)
{
	struct quic_connection_id_info i = { .dest = dest, .active = active,
					     .prior_to = prior_to };

	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_ID, &i, sizeof(i));
}

static int cid_get(int fd, uint8_t dest, struct quic_connection_id_info *i)
{
	socklen_t len = sizeof(*i);

	memset(i, 0, sizeof(*i));
	i->dest = dest;
	return getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_ID, i, &len);
}

/* A connection that carried data both ways, so that new IDs were issued. */
static int conn_warm(const struct conn_opts *o, struct conn *c)
{
	char in[4];
	bool fin;

	if (conn_open(o, c))
		return -1;
	SETUP(quic_sendmsg(c->cli, "w", 1, 0, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1 &&
	      read_stream(c->srv, 0, in, 4, &fin) == 1 &&
	      quic_sendmsg(c->srv, "w", 1, 0, MSG_QUIC_STREAM_FIN) == 1 &&
	      read_stream(c->cli, 0, in, 4, &fin) == 1, "warm-up exchange");
	return 0;
}

int c_cid_event_option(void)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_CONNECTION_ID) };
	struct quic_connection_id_info i;
	struct conn c;

	if (conn_warm(&o, &c))
		return -1;
	CHECK(!cid_set(c.cli, 1, 1, 1), "retiring the peer's ID 0");
	CHECK(wait_event(c.cli, QUIC_EVENT_CONNECTION_ID, &i, sizeof(i), 2000) == sizeof(i),
	      "no CONNECTION_ID event");
	return 1;
}

int c_cid_event_peer(void)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_CONNECTION_ID) };
	struct quic_connection_id_info i;
	struct conn c;

	if (conn_warm(&o, &c))
		return -1;
	SETUP(!cid_set(c.srv, 0, 0, 2), "the server retires its IDs below 2");
	CHECK(wait_event(c.cli, QUIC_EVENT_CONNECTION_ID, &i, sizeof(i), 2000) == sizeof(i),
	      "no CONNECTION_ID event");
	CHECK(i.dest == 1 && i.active >= 2, "dest %u active %u", i.dest, i.active);
	return 1;
}

int c_close_event(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_CONNECTION_CLOSE) };
	struct quic_connection_close cc = { .errcode = 0x77 };
	uint8_t ev[128] = {};
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	SETUP(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &cc, sizeof(cc)),
	      "CONNECTION_CLOSE");
	SETUP(!shutdown(c.cli, SHUT_RDWR), "shutdown");
	CHECK(wait_event(c.srv, QUIC_EVENT_CONNECTION_CLOSE, ev, sizeof(ev), 3000) >= 4,
	      "no CONNECTION_CLOSE event");
	CHECK(((struct quic_connection_close *)ev)->errcode == 0x77, "errcode %#x",
	      ((struct quic_connection_close *)ev)->errcode);
	return 1;
}

/* The draft's quic_connection_close: the phrase after three reserved bytes. */
struct draft_close {
	uint32_t errcode;
	uint8_t frame;
	uint8_t reserved[3];
	char phrase[24];
};

int c_close_event_layout(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_CONNECTION_CLOSE) };
	struct {
		struct quic_connection_close cc;
		char phrase[8];
	} set = { .cc.errcode = 0x78 };
	struct draft_close ev = {};
	struct conn c;

	memcpy((char *)&set + offsetof(struct quic_connection_close, phrase), "later", 6);
	if (conn_open(&o, &c))
		return -1;
	SETUP(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &set,
			  offsetof(struct quic_connection_close, phrase) + 6), "CONNECTION_CLOSE");
	SETUP(!shutdown(c.cli, SHUT_RDWR), "shutdown");
	SETUP(wait_event(c.srv, QUIC_EVENT_CONNECTION_CLOSE, &ev, sizeof(ev) - 1, 3000) >= 4,
	      "no CONNECTION_CLOSE event");
	CHECK(!strcmp(ev.phrase, "later"), "no phrase at offset 8");
	return 1;
}

static int migrate(bool event)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_CONNECTION_MIGRATION) };
	struct sockaddr_in before, after, to;
	socklen_t len = sizeof(before);
	uint8_t local = 9;
	struct conn c;

	if (conn_warm(&o, &c))
		return -1;
	SETUP(!getsockname(c.cli, (struct sockaddr *)&before, &len), "getsockname");
	to = before;
	to.sin_port = 0;
	CHECK(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_MIGRATION, &to, sizeof(to)),
	      "CONNECTION_MIGRATION");
	if (event) {
		CHECK(wait_event(c.cli, QUIC_EVENT_CONNECTION_MIGRATION, &local, 1, 3000) == 1,
		      "no CONNECTION_MIGRATION event");
		CHECK(local == 1, "local_migration %u", local);
		return 1;
	}
	len = sizeof(after);
	CHECK(!getsockname(c.cli, (struct sockaddr *)&after, &len) &&
	      after.sin_port != before.sin_port, "still on the old port");
	return 1;
}

int c_migration_event(void)
{
	return migrate(true);
}

int c_migration_option(void)
{
	return migrate(false);
}

int c_key_update_event(void)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_KEY_UPDATE) };
	uint8_t phase = 9;
	struct conn c;
	char in[4];
	bool fin;

	if (conn_warm(&o, &c))
		return -1;
	CHECK(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_KEY_UPDATE, NULL, 0), "KEY_UPDATE");
	SETUP(quic_sendmsg(c.cli, "k", 1, 4, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1 &&
	      read_stream(c.srv, 4, in, 4, &fin) == 1 &&
	      quic_sendmsg(c.srv, "l", 1, 4, MSG_QUIC_STREAM_FIN) == 1, "exchange");
	CHECK(wait_event(c.cli, QUIC_EVENT_KEY_UPDATE, &phase, 1, 3000) == 1,
	      "no KEY_UPDATE event");
	CHECK(phase == 1, "key phase %u", phase);
	return 1;
}

int c_new_token_event(void)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_NEW_TOKEN) };
	uint8_t tok[600];
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	CHECK(wait_event(c.cli, QUIC_EVENT_NEW_TOKEN, tok, sizeof(tok), 3000) > 0,
	      "no NEW_TOKEN event");
	return 1;
}

int c_ticket_event(void)
{
	struct conn_opts o = { .cert = true, .cli_events = EV(QUIC_EVENT_NEW_SESSION_TICKET) };
	uint8_t t[4096];
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	CHECK(wait_event(c.cli, QUIC_EVENT_NEW_SESSION_TICKET, t, sizeof(t), 3000) > 4,
	      "no NEW_SESSION_TICKET event");
	CHECK(t[0] == 4, "not a NewSessionTicket message (type %u)", t[0]);
	return 1;
}

/* ------------------------------------------------------- TRANSPORT_PARAM */

int c_tp_defaults(void)
{
	struct quic_transport_param tp;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0 && !tp_get(fd, false, &tp), "get");
	CHECK(!tp.disable_active_migration && !tp.grease_quic_bit && !tp.stateless_reset &&
	      !tp.disable_1rtt_encryption && !tp.disable_compatible_version,
	      "a flag is on by default");
	CHECK(tp.ack_delay_exponent == 3, "ack_delay_exponent %u", tp.ack_delay_exponent);
	CHECK(tp.max_datagram_frame_size == 0, "max_datagram_frame_size %u",
	      tp.max_datagram_frame_size);
	CHECK(tp.max_udp_payload_size == 65527, "max_udp_payload_size %u",
	      tp.max_udp_payload_size);
	CHECK(tp.max_idle_timeout == 30000000, "max_idle_timeout %u", tp.max_idle_timeout);
	CHECK(tp.max_ack_delay == 25000, "max_ack_delay %u", tp.max_ack_delay);
	CHECK(tp.max_streams_bidi == 100 && tp.max_streams_uni == 100, "streams %u/%u",
	      tp.max_streams_bidi, tp.max_streams_uni);
	CHECK(tp.max_stream_data_bidi_local == 65536 * 4 &&
	      tp.max_stream_data_bidi_remote == 65536 * 4 && tp.max_stream_data_uni == 65536 * 4,
	      "stream data %llu/%llu/%llu", (unsigned long long)tp.max_stream_data_bidi_local,
	      (unsigned long long)tp.max_stream_data_bidi_remote,
	      (unsigned long long)tp.max_stream_data_uni);
	return 1;
}

int c_tp_default_cid_limit(void)
{
	struct quic_transport_param tp;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0 && !tp_get(fd, false, &tp), "get");
	CHECK(tp.active_connection_id_limit == 7, "active_connection_id_limit %u",
	      tp.active_connection_id_limit);
	return 1;
}

int c_tp_default_max_data(void)
{
	struct quic_transport_param tp;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0 && !tp_get(fd, false, &tp), "get");
	CHECK(tp.max_data == 65536 * 32, "max_data %llu", (unsigned long long)tp.max_data);
	return 1;
}

/* Set only max_streams_bidi = @val in an otherwise zero struct of @size bytes. */
static int tp_set_one(int fd, uint16_t val, size_t size, uint8_t rsv_fill, bool remote)
{
	union {
		struct quic_transport_param tp;
		uint8_t raw[88];
	} u;
	size_t rsv = offsetof(struct quic_transport_param, reserved);

	memset(&u, 0, sizeof(u));
	if (size > rsv)
		memset(u.raw + rsv, rsv_fill, size - rsv);
	u.tp.remote = remote;
	u.tp.max_streams_bidi = val;
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM, &u, size);
}

static bool tp_same_but_bidi(const struct quic_transport_param *a,
			     const struct quic_transport_param *b)
{
	struct quic_transport_param x = *a, y = *b;

	x.max_streams_bidi = 0;
	y.max_streams_bidi = 0;
	return !memcmp(&x, &y, offsetof(struct quic_transport_param, reserved));
}

int c_tp_partial(void)
{
	struct quic_transport_param before, after;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0 && !tp_get(fd, false, &before), "get");
	CHECK(!tp_set_one(fd, 33, sizeof(struct quic_transport_param), 0, false),
	      "a struct with one field set refused");
	SETUP(!tp_get(fd, false, &after), "get");
	CHECK(after.max_streams_bidi == 33, "max_streams_bidi %u", after.max_streams_bidi);
	CHECK(tp_same_but_bidi(&before, &after), "other fields changed");
	return 1;
}

int c_tp_draft_size(void)
{
	struct quic_transport_param before, after;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0 && !tp_get(fd, false, &before), "get");
	CHECK(!tp_set_one(fd, 44, 88, 0xff, false),
	      "the draft's 88-byte struct with reserved bytes set refused");
	SETUP(!tp_get(fd, false, &after), "get");
	CHECK(after.max_streams_bidi == 44 && tp_same_but_bidi(&before, &after),
	      "max_streams_bidi %u", after.max_streams_bidi);
	return 1;
}

int c_tp_after_connect(void)
{
	struct quic_transport_param tp;
	int cli = client_to(AF_INET, new_port());

	SETUP(cli >= 0, "connect");
	CHECK(!tp_set_one(cli, 20, sizeof(tp), 0, false), "set after connect()");
	SETUP(!tp_get(cli, false, &tp), "get");
	CHECK(tp.max_streams_bidi == 20, "max_streams_bidi %u", tp.max_streams_bidi);
	return 1;
}

int c_tp_accepted(void)
{
	static struct hello h;
	struct quic_transport_param tp;
	int port = new_port();
	int lfd = listener(AF_INET, port, NULL), cli, acc;

	SETUP(lfd >= 0, "listener");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0 && !hello_send(cli, API_ALPN, &h), "client");
	acc = keep(accept(lfd, NULL, NULL));
	SETUP(acc >= 0, "accept");
	CHECK(!tp_set_one(acc, 21, sizeof(tp), 0, false), "set on the accepted socket");
	SETUP(!tp_get(acc, false, &tp), "get");
	CHECK(tp.max_streams_bidi == 21, "max_streams_bidi %u", tp.max_streams_bidi);
	return 1;
}

int c_tp_remote_set(void)
{
	struct quic_transport_param tp;
	int cli = client_to(AF_INET, new_port());

	SETUP(cli >= 0, "connect");
	CHECK(!tp_set_one(cli, 9, sizeof(tp), 0, true), "remote = 1 before the handshake");
	SETUP(!tp_get(cli, true, &tp), "get");
	CHECK(tp.max_streams_bidi == 9, "remote max_streams_bidi %u", tp.max_streams_bidi);
	return 1;
}

int c_tp_remote_get(void)
{
	struct conn_opts o = { .srv_bidi = 33 };
	struct quic_transport_param tp;
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	CHECK(!tp_get(c.cli, true, &tp), "get remote");
	CHECK(tp.max_streams_bidi == 33, "the peer's max_streams_bidi read as %u",
	      tp.max_streams_bidi);
	return 1;
}

/* ------------------------------------------------------------------ CONFIG */

int c_cfg_defaults(void)
{
	struct quic_config cf;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0 && !cfg_get(fd, &cf), "get");
	CHECK(cf.version == QUIC_VERSION_V1, "version %#x", cf.version);
	CHECK(!cf.plpmtud_probe_interval, "plpmtud_probe_interval %u", cf.plpmtud_probe_interval);
	CHECK(cf.initial_smoothed_rtt == 333000, "initial_smoothed_rtt %u",
	      cf.initial_smoothed_rtt);
	CHECK(cf.congestion_control_algo == QUIC_CONG_ALG_RENO, "congestion control %u",
	      cf.congestion_control_algo);
	CHECK(!cf.payload_cipher_type && !cf.validate_peer_address && !cf.stream_data_nodelay &&
	      !cf.receive_session_ticket && !cf.certificate_request, "a setting is on");
	return 1;
}

/* Set a config of @size bytes, zero but for @edit's fields and @rsv_fill. */
static int cfg_set(int fd, void (*edit)(struct quic_config *), size_t size, uint8_t rsv_fill)
{
	union {
		struct quic_config c;
		uint8_t raw[64];
	} u;
	size_t rsv = offsetof(struct quic_config, reserved);

	memset(&u, 0, sizeof(u));
	memset(u.raw + rsv, rsv_fill, size - rsv);
	edit(&u.c);
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &u, size);
}

static void nodelay(struct quic_config *c)
{
	c->stream_data_nodelay = 1;
}

static void rtt_200ms(struct quic_config *c)
{
	c->initial_smoothed_rtt = 200000;
}

int c_cfg_partial(void)
{
	struct quic_config cf;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!cfg_set(fd, nodelay, sizeof(cf), 0), "a struct with one field set refused");
	SETUP(!cfg_get(fd, &cf), "get");
	CHECK(cf.stream_data_nodelay == 1 && cf.version == QUIC_VERSION_V1 &&
	      cf.initial_smoothed_rtt == 333000, "version %#x, rtt %u, nodelay %u", cf.version,
	      cf.initial_smoothed_rtt, cf.stream_data_nodelay);
	return 1;
}

int c_cfg_draft_size(void)
{
	struct quic_config cf;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!cfg_set(fd, rtt_200ms, 64, 0), "the draft's 64-byte struct refused");
	SETUP(!cfg_get(fd, &cf), "get");
	CHECK(cf.initial_smoothed_rtt == 200000 && cf.version == QUIC_VERSION_V1, "rtt %u",
	      cf.initial_smoothed_rtt);
	return 1;
}

int c_cfg_reserved(void)
{
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!cfg_set(fd, rtt_200ms, sizeof(struct quic_config), 0xff),
	      "non-zero reserved bytes refused");
	return 1;
}

int c_cfg_listener(void)
{
	static struct hello h;
	struct quic_config cf;
	int port = new_port();
	int lfd = listener(AF_INET, port, NULL), cli, acc;

	SETUP(lfd >= 0, "listener");
	CHECK(!cfg_set(lfd, nodelay, sizeof(cf), 0), "set after listen()");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0 && !hello_send(cli, API_ALPN, &h), "client");
	acc = keep(accept(lfd, NULL, NULL));
	SETUP(acc >= 0 && !cfg_get(acc, &cf), "accept");
	CHECK(cf.stream_data_nodelay == 1, "the accepted socket did not inherit it");
	return 1;
}

int c_cfg_after_connect(void)
{
	struct quic_config cf;
	int cli = client_to(AF_INET, new_port());

	SETUP(cli >= 0, "connect");
	CHECK(!cfg_set(cli, rtt_200ms, sizeof(cf), 0), "set after connect()");
	SETUP(!cfg_get(cli, &cf), "get");
	CHECK(cf.initial_smoothed_rtt == 200000, "rtt %u", cf.initial_smoothed_rtt);
	return 1;
}

int c_cfg_accepted(void)
{
	static struct hello h;
	struct quic_config cf;
	int port = new_port();
	int lfd = listener(AF_INET, port, NULL), cli, acc;

	SETUP(lfd >= 0, "listener");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0 && !hello_send(cli, API_ALPN, &h), "client");
	acc = keep(accept(lfd, NULL, NULL));
	SETUP(acc >= 0, "accept");
	CHECK(!cfg_set(acc, nodelay, sizeof(cf), 0), "set on the accepted socket");
	return 1;
}

static int set_version(int fd, void *arg)
{
	struct quic_config cf;

	if (cfg_get(fd, &cf))
		return -1;
	cf.version = *(uint32_t *)arg;
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cf, sizeof(cf));
}

int c_cfg_v2(void)
{
	uint32_t v = QUIC_VERSION_V2;
	struct conn_opts o = { .cli_tune = set_version, .arg = &v };
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	CHECK(quic_version_of(c.cli) == QUIC_VERSION_V2 && quic_version_of(c.srv) ==
	      QUIC_VERSION_V2, "version %#x/%#x", quic_version_of(c.cli), quic_version_of(c.srv));
	return 1;
}

int c_cfg_vn(void)
{
	uint32_t v = 0x1a2a3a4a;
	struct conn_opts o = { .cli_tune = set_version, .arg = &v };
	struct conn c;

	CHECK(conn_open(&o, &c), "a handshake in version %#x succeeded", v);
	CHECK(c.cli_ret == -EPROTONOSUPPORT, "client handshake: %s", errno_name(-c.cli_ret));
	return 1;
}

int c_cfg_vn_then_v1(void)
{
	uint32_t v = 0x1a2a3a4a;
	struct conn_opts o = { .cli_tune = set_version, .arg = &v };
	struct conn c;

	SETUP(conn_open(&o, &c) && c.cli_ret == -EPROTONOSUPPORT,
	      "no Version Negotiation failure first (%s)", errno_name(-c.cli_ret));
	CHECK(!conn_open(NULL, &c), "a new v1 socket did not connect");
	return 1;
}

static int cfg_try(void (*edit)(struct quic_config *))
{
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	if (fd < 0)
		return -2;
	return cfg_set(fd, edit, sizeof(struct quic_config), 0);
}

static void pl_low(struct quic_config *c) { c->plpmtud_probe_interval = 4999999; }
static void pl_ok(struct quic_config *c) { c->plpmtud_probe_interval = 5000000; }
static void rtt_low(struct quic_config *c) { c->initial_smoothed_rtt = 99999; }
static void rtt_high(struct quic_config *c) { c->initial_smoothed_rtt = 6000000; }
static void rtt_min(struct quic_config *c) { c->initial_smoothed_rtt = 100000; }
static void rtt_max(struct quic_config *c) { c->initial_smoothed_rtt = 5999999; }
static void cubic(struct quic_config *c) { c->congestion_control_algo = QUIC_CONG_ALG_CUBIC; }
static void cc_bad(struct quic_config *c) { c->congestion_control_algo = 200; }
static void gcm256(struct quic_config *c) { c->payload_cipher_type = TLS_CIPHER_AES_GCM_256; }
static void ticket_secs(struct quic_config *c) { c->receive_session_ticket = 30; }
static void cert_require(struct quic_config *c) { c->certificate_request = 2; }

int c_cfg_plpmtud(void)
{
	CHECK(cfg_try(pl_low) == -1 && errno == EINVAL, "4999999 us not EINVAL");
	CHECK(!cfg_try(pl_ok), "5000000 us refused");
	return 1;
}

int c_cfg_rtt_low(void)
{
	CHECK(cfg_try(rtt_low) == -1 && errno == EINVAL, "99999 us not EINVAL");
	return 1;
}

int c_cfg_rtt_high(void)
{
	CHECK(cfg_try(rtt_high) == -1 && errno == EINVAL, "6000000 us not EINVAL");
	return 1;
}

int c_cfg_rtt_range(void)
{
	CHECK(!cfg_try(rtt_min), "100000 us refused");
	CHECK(!cfg_try(rtt_max), "5999999 us refused");
	return 1;
}

int c_cfg_cc(void)
{
	CHECK(!cfg_try(cubic), "CUBIC refused");
	CHECK(cfg_try(cc_bad) == -1 && errno == EINVAL, "algorithm 200 not EINVAL");
	return 1;
}

int c_cfg_cipher(void)
{
	struct quic_config cf;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!cfg_set(fd, gcm256, sizeof(cf), 0), "AES_GCM_256 refused");
	SETUP(!cfg_get(fd, &cf), "get");
	CHECK(cf.payload_cipher_type == TLS_CIPHER_AES_GCM_256, "cipher %u",
	      cf.payload_cipher_type);
	return 1;
}

int c_cfg_ticket_secs(void)
{
	CHECK(!cfg_try(ticket_secs), "receive_session_ticket 30 refused");
	return 1;
}

int c_cfg_cert_require(void)
{
	CHECK(!cfg_try(cert_require), "certificate_request 2 refused");
	return 1;
}

static int validate(int fd, void *arg)
{
	struct quic_config cf;

	if (cfg_get(fd, &cf))
		return -1;
	cf.validate_peer_address = 1;
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cf, sizeof(cf));
}

int c_cfg_validate(void)
{
	struct conn_opts o = { .lfd_tune = validate };
	struct conn c;

	CHECK(!conn_open(&o, &c), "no connection with validate_peer_address");
	return 1;
}

/* --------------------------------------------------------- CONNECTION_ID */

int c_cid_get(void)
{
	struct quic_connection_id_info s, d;
	struct conn c;

	if (conn_warm(NULL, &c))
		return -1;
	CHECK(!cid_get(c.cli, 0, &s) && !cid_get(c.cli, 1, &d), "get");
	CHECK(s.active >= s.prior_to && d.active >= d.prior_to, "active below prior_to");
	return 1;
}

int c_cid_dest_switch(void)
{
	struct quic_connection_id_info d;
	struct conn c;

	if (conn_warm(NULL, &c))
		return -1;
	CHECK(!cid_set(c.cli, 1, 1, 1), "switch to the peer's ID 1 retiring 0");
	CHECK(!cid_get(c.cli, 1, &d) && d.active == 1 && d.prior_to == 1, "active %u prior_to %u",
	      d.active, d.prior_to);
	return 1;
}

int c_cid_source_active(void)
{
	struct quic_connection_id_info s;
	struct conn c;

	if (conn_warm(NULL, &c))
		return -1;
	CHECK(!cid_set(c.cli, 0, 1, 0), "set source active 1");
	CHECK(!cid_get(c.cli, 0, &s) && s.active == 1, "source active %u", s.active);
	return 1;
}

int c_cid_reserved(void)
{
	struct quic_connection_id_info d;
	struct conn c;

	if (conn_warm(NULL, &c))
		return -1;
	SETUP(!cid_get(c.cli, 1, &d), "get");
	memset((uint8_t *)&d + 1, 0xff, 3);
	CHECK(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_ID, &d, sizeof(d)),
	      "reserved bytes set refused");
	return 1;
}

/* ------------------------------------------------------ CONNECTION_CLOSE */

int c_cc_defaults(void)
{
	uint8_t buf[128];
	struct quic_connection_close *cc = (void *)buf;
	socklen_t len = sizeof(buf);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	memset(buf, 0xee, sizeof(buf));
	CHECK(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, &len), "get");
	CHECK(!cc->errcode && !cc->frame, "errcode %u frame %u", cc->errcode, cc->frame);
	CHECK(len == offsetof(struct quic_connection_close, phrase) ||
	      !buf[offsetof(struct quic_connection_close, phrase)], "a phrase by default");
	return 1;
}

int c_cc_frame(void)
{
	struct quic_connection_close set = { .errcode = 3, .frame = 0x08 }, got;
	socklen_t len = sizeof(got);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &set, sizeof(set)),
	      "frame 8 refused");
	memset(&got, 0, sizeof(got));
	CHECK(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &got, &len) &&
	      got.errcode == 3 && got.frame == 0x08, "read back errcode %u frame %u",
	      got.errcode, got.frame);
	return 1;
}

int c_cc_layout(void)
{
	struct draft_close set = { .errcode = 4 }, got;
	socklen_t len = sizeof(got);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	strcpy(set.phrase, "abc");
	CHECK(!setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &set,
			  offsetof(struct draft_close, phrase) + 4), "set");
	memset(&got, 0, sizeof(got));
	CHECK(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &got, &len), "get");
	CHECK(got.errcode == 4 && !strcmp(got.phrase, "abc"), "no phrase \"abc\" at offset 8");
	return 1;
}

/* ------------------------------------------------------------------- TOKEN */

int c_token_default(void)
{
	uint8_t tok[64];
	socklen_t len = sizeof(tok);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TOKEN, tok, &len) && !len,
	      "a token of %u bytes by default", len);
	return 1;
}

int c_token_client_get(void)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_NEW_TOKEN) };
	uint8_t ev[600], tok[600];
	socklen_t len = sizeof(tok);
	struct conn c;
	ssize_t n;

	if (conn_open(&o, &c))
		return -1;
	n = wait_event(c.cli, QUIC_EVENT_NEW_TOKEN, ev, sizeof(ev), 3000);
	SETUP(n > 0, "NEW_TOKEN event");
	CHECK(!getsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_TOKEN, tok, &len), "get");
	CHECK(len == n && !memcmp(tok, ev, len), "the token read (%u bytes) is not the one "
	      "issued (%zd)", len, n);
	return 1;
}

int c_token_server_einval(void)
{
	uint8_t tok[600];
	socklen_t len = sizeof(tok);
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(getsockopt(c.srv, SOL_QUIC, QUIC_SOCKOPT_TOKEN, tok, &len) == -1 &&
	      errno == EINVAL, "getsockopt on a server not EINVAL");
	return 1;
}

int c_token_server_issue(void)
{
	struct conn_opts o = { .cli_events = EV(QUIC_EVENT_NEW_TOKEN) };
	uint8_t ev[600];
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	/* The token issued after the handshake, if any, first. */
	wait_event(c.cli, QUIC_EVENT_NEW_TOKEN, ev, sizeof(ev), 1000);
	CHECK(!setsockopt(c.srv, SOL_QUIC, QUIC_SOCKOPT_TOKEN, NULL, 0), "set on the server");
	CHECK(wait_event(c.cli, QUIC_EVENT_NEW_TOKEN, ev, sizeof(ev), 2000) > 0,
	      "no NEW_TOKEN after the server's set");
	return 1;
}

/* -------------------------------------------------------------------- ALPN */

int c_alpn_default(void)
{
	char a[64];
	socklen_t len = sizeof(a);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, a, &len) && (!len || !a[0]),
	      "an ALPN by default");
	return 1;
}

int c_alpn_list(void)
{
	char a[64] = "";
	socklen_t len = sizeof(a) - 1;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, "smbd,h3,ksmbd", 13), "set");
	CHECK(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, a, &len) &&
	      !strncmp(a, "smbd,h3,ksmbd", 13), "read back \"%s\"", a);
	return 1;
}

/* ---------------------------------------------------------- SESSION_TICKET */

int c_ticket_key(void)
{
	uint8_t key[256];
	socklen_t len = sizeof(key);
	int lfd = listener(AF_INET, new_port(), NULL);

	SETUP(lfd >= 0, "listener");
	CHECK(!getsockopt(lfd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, key, &len) && len > 0,
	      "no key on the listener");
	return 1;
}

static bool have_ticket(void *arg)
{
	uint8_t t[4096];
	socklen_t len = sizeof(t);
	int fd = *(int *)arg;

	return !getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, t, &len) && len > 4 &&
	       t[0] == 4;
}

int c_ticket_client(void)
{
	struct conn_opts o = { .cert = true };
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	CHECK(wait_until(have_ticket, &c.cli, 3000), "no NewSessionTicket message to read");
	return 1;
}

/* ----------------------------------------------------------- CRYPTO_SECRET */

int c_secret_get(void)
{
	struct quic_crypto_secret s = { .level = QUIC_CRYPTO_APP, .send = 1 };
	socklen_t len = sizeof(s);
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(!getsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_CRYPTO_SECRET, &s, &len),
	      "getsockopt");
	return 1;
}

int c_secret_layout(void)
{
	/* level, send (16 bits), reserved (16), type (32), secret[48]: 60 bytes */
	uint8_t d[60] = {};
	uint16_t send = 1;
	uint32_t type = TLS_CIPHER_AES_GCM_128;
	int cli = client_to(AF_INET, new_port());

	SETUP(cli >= 0, "connect");
	d[0] = QUIC_CRYPTO_HANDSHAKE;
	memcpy(d + 2, &send, 2);
	memcpy(d + 8, &type, 4);
	memset(d + 12, 0x5a, 32);
	CHECK(!setsockopt(cli, SOL_QUIC, QUIC_SOCKOPT_CRYPTO_SECRET, d, sizeof(d)),
	      "the draft's layout refused");
	return 1;
}

/* -------------------------------------------------- TRANSPORT_PARAM_EXT */

static uint64_t varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v;
	int n, i;

	if (*p >= end)
		return UINT64_MAX;
	n = 1 << (**p >> 6);
	if (*p + n > end)
		return UINT64_MAX;
	v = **p & 0x3f;
	for (i = 1; i < n; i++)
		v = (v << 8) | (*p)[i];
	*p += n;
	return v;
}

static void bidi_42(struct quic_transport_param *tp, void *arg)
{
	tp->max_streams_bidi = 42;
}

int c_tpext_get(void)
{
	uint8_t ext[512];
	socklen_t len = sizeof(ext);
	const uint8_t *p = ext, *end;
	uint64_t id, l, val = 0;
	bool seen = false;
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));
	int port = new_port();
	struct sockaddr_storage ss;
	socklen_t alen = side_addr(1, AF_INET, port, &ss);

	SETUP(fd >= 0 && !tp_update(fd, bidi_42, NULL) &&
	      !connect(fd, (struct sockaddr *)&ss, alen), "socket");
	CHECK(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, ext, &len) && len,
	      "get");
	end = ext + len;
	while (p < end) {
		id = varint(&p, end);
		l = varint(&p, end);
		CHECK(id != UINT64_MAX && l != UINT64_MAX && p + l <= end, "bad encoding");
		if (id == 0x08) {	/* initial_max_streams_bidi */
			const uint8_t *q = p;

			val = varint(&q, p + l);
			seen = true;
		}
		p += l;
	}
	CHECK(seen && val == 42, "initial_max_streams_bidi %s %llu", seen ? "is" : "missing",
	      (unsigned long long)val);
	return 1;
}

/* ------------------------------------------------------------ STREAM_OPEN */

int c_open_bidi(void)
{
	struct conn c;
	int64_t a = -9, b = -9;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(!open_stream(c.cli, -1, 0, &a) && !open_stream(c.cli, -1, 0, &b), "open");
	CHECK(a == 0 && b == 4, "streams %lld and %lld", (long long)a, (long long)b);
	return 1;
}

int c_open_uni(void)
{
	struct conn c;
	int64_t a = -9;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(!open_stream(c.cli, -1, MSG_QUIC_STREAM_UNI, &a) && a == 2, "stream %lld",
	      (long long)a);
	return 1;
}

int c_open_id(void)
{
	struct conn c;
	int64_t a = -9;
	char in[4];
	bool fin;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(!open_stream(c.cli, 8, 0, &a) && a == 8, "stream %lld", (long long)a);
	CHECK(quic_sendmsg(c.cli, "o", 1, 8, MSG_QUIC_STREAM_FIN) == 1, "send on it");
	CHECK(read_stream(c.srv, 8, in, 4, &fin) == 1, "the peer got nothing");
	return 1;
}

int c_open_dontwait(void)
{
	struct conn_opts o = { .srv_bidi = 1 };
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	SETUP(!open_stream(c.cli, -1, 0, NULL), "stream 0");
	CHECK(open_stream(c.cli, -1, MSG_QUIC_STREAM_DONTWAIT, NULL) == -1 && errno == EAGAIN,
	      "a stream beyond the limit not EAGAIN");
	return 1;
}

/* --------------------------------------------------------- STREAM_PEELOFF */

struct draft_peeloff {
	int64_t stream_id;
	uint32_t flags;
	int sd;
};

static int peeloff(int fd, int64_t sid)
{
	struct draft_peeloff p = { .stream_id = sid, .sd = -1 };
	socklen_t len = sizeof(p);
	int ret = getsockopt(fd, SOL_QUIC, DRAFT_SOCKOPT_STREAM_PEELOFF, &p, &len);

	return ret < 0 ? -1 : keep(ret ?: p.sd);
}

int c_peeloff(void)
{
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	SETUP(!open_stream(c.cli, -1, MSG_QUIC_STREAM_UNI, NULL), "open stream 2");
	CHECK(peeloff(c.cli, 2) >= 0, "no descriptor for stream 2");
	return 1;
}

int c_peeloff_calls(void)
{
	struct pollfd p;
	struct conn c;
	char in[4];
	bool fin;
	int sd;

	if (conn_open(NULL, &c))
		return -1;
	SETUP(!open_stream(c.cli, 0, 0, NULL), "open stream 0");
	sd = peeloff(c.cli, 0);
	CHECK(sd >= 0, "no descriptor for stream 0");
	p.fd = sd;
	p.events = POLLOUT;
	CHECK(poll(&p, 1, 1000) == 1 && (p.revents & POLLOUT), "poll()");
	CHECK(send(sd, "p", 1, 0) == 1 && !shutdown(sd, SHUT_WR), "send() and shutdown()");
	CHECK(read_stream(c.srv, 0, in, 4, &fin) == 1 && fin, "no data and FIN at the peer");
	return 1;
}

/* ------------------------------------------------- STREAM_RESET/STOP_SENDING */

int c_reset_option(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_STREAM_UPDATE) };
	struct quic_errinfo ei = { .stream_id = 0, .errcode = 11 };
	struct quic_stream_update u[16];
	struct conn c;
	int n;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "r", 1, 0, MSG_QUIC_STREAM_NEW) == 1, "send");
	CHECK(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_STREAM_RESET, &ei, sizeof(ei)), "set");
	n = collect_updates(c.srv, 0, QUIC_STREAM_RECV_STATE_RESET_RECVD, u, 16, 3000);
	CHECK(n && u[n - 1].state == QUIC_STREAM_RECV_STATE_RESET_RECVD && u[n - 1].errcode == 11,
	      "the peer did not learn of the reset with errcode 11");
	return 1;
}

int c_errinfo_reserved(void)
{
	struct {
		int64_t id;
		uint32_t errcode;
		uint32_t reserved;
	} ei = { 0, 12, 0xffffffff };
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "r", 1, 0, MSG_QUIC_STREAM_NEW) == 1, "send");
	CHECK(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_STREAM_RESET, &ei, sizeof(ei)),
	      "refused with a non-zero reserved field");
	return 1;
}

/* ----------------------------------------------------------- Security limits */

static int sized_set(int fd, int opt, size_t len, char fill)
{
	static char buf[8192];

	memset(buf, fill, len);
	return setsockopt(fd, SOL_QUIC, opt, buf, len);
}

/* An ALPN list of @len bytes: two protocols of (about) half of it each. */
static int alpn_list(int fd, size_t len)
{
	static char buf[1024];

	memset(buf, 'a', len);
	buf[len / 2] = ',';
	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, buf, len);
}

int c_sec_alpn(void)
{
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!alpn_list(fd, 256), "a list of 256 bytes refused");
	CHECK(alpn_list(fd, 257) == -1 && errno == EINVAL, "a list of 257 bytes not EINVAL");
	return 1;
}

int c_sec_token(void)
{
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!sized_set(fd, QUIC_SOCKOPT_TOKEN, 512, 't'), "512 bytes refused");
	CHECK(sized_set(fd, QUIC_SOCKOPT_TOKEN, 513, 't') == -1 && errno == EINVAL,
	      "513 bytes not EINVAL");
	return 1;
}

int c_sec_ticket(void)
{
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(!sized_set(fd, QUIC_SOCKOPT_SESSION_TICKET, 4096, 's'), "4096 bytes refused");
	CHECK(sized_set(fd, QUIC_SOCKOPT_SESSION_TICKET, 4097, 's') == -1 && errno == EINVAL,
	      "4097 bytes not EINVAL");
	return 1;
}

int c_sec_phrase(void)
{
	static uint8_t buf[1100];
	size_t off = offsetof(struct quic_connection_close, phrase);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	memset(buf, 0, sizeof(buf));
	memset(buf + off, 'p', 1024);
	CHECK(!setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, off + 1025),
	      "a phrase of 1024 bytes refused");
	memset(buf + off, 'p', 1025);
	CHECK(setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, buf, off + 1026) == -1 &&
	      errno == EINVAL, "a phrase of 1025 bytes not EINVAL");
	return 1;
}

int c_sec_cid_bits(void)
{
	uint8_t pkt[1500];
	int port = new_port();
	int u = udp_peer(port), cli;
	static struct hello h;
	ssize_t n;
	int dl, sl;

	SETUP(u >= 0, "UDP peer");
	cli = client_to(AF_INET, port);
	SETUP(cli >= 0 && !hello_send(cli, API_ALPN, &h), "ClientHello");
	SETUP(readable(u, 2000), "no Initial");
	n = recv(u, pkt, sizeof(pkt), 0);
	SETUP(n > 7 && (pkt[0] & 0x80), "not a long header packet");
	dl = pkt[5];
	SETUP(n > 7 + dl, "short packet");
	sl = pkt[6 + dl];
	ktap_diag("destination ID %d bytes, source ID %d bytes", dl, sl);
	CHECK(sl >= 16, "the client's connection ID has %d bits", sl * 8);
	return 1;
}

int c_sec_event_type(void)
{
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));

	SETUP(fd >= 0, "socket");
	CHECK(event_on(fd, QUIC_EVENT_MAX + 1, 1) == -1 && errno == EINVAL,
	      "an unknown event type not EINVAL");
	return 1;
}

/* --------------------------------------------------------- added cases */

int c_si_sndblock(void)
{
	struct conn_opts o = { .srv_bidi = 1 };
	struct conn c;

	if (conn_open(&o, &c))
		return -1;
	SETUP(quic_sendmsg(c.cli, "a", 1, 0, MSG_QUIC_STREAM_NEW) == 1, "stream 0");
	CHECK(quic_sendmsg(c.cli, "b", 1, 4, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_DONTWAIT |
			   MSG_QUIC_STREAM_SNDBLOCK) == -1 && errno == EAGAIN,
	      "MSG_QUIC_STREAM_SNDBLOCK beyond the limit: not EAGAIN");
	return 1;
}

int c_ticket_set_get(void)
{
	uint8_t in[100], out[200];
	socklen_t len = sizeof(out);
	int fd = keep(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));
	unsigned int i;

	SETUP(fd >= 0, "socket");
	for (i = 0; i < sizeof(in); i++)
		in[i] = i * 3 + 1;
	CHECK(!setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, in, sizeof(in)), "set");
	CHECK(!getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, out, &len), "get");
	CHECK(len == sizeof(in) && !memcmp(in, out, len), "read back %u other bytes", len);
	return 1;
}

int c_migration_peer_event(void)
{
	struct conn_opts o = { .srv_events = EV(QUIC_EVENT_CONNECTION_MIGRATION) };
	struct sockaddr_in to;
	socklen_t len = sizeof(to);
	uint8_t local = 9;
	struct conn c;

	if (conn_warm(&o, &c))
		return -1;
	SETUP(!getsockname(c.cli, (struct sockaddr *)&to, &len), "getsockname");
	to.sin_port = 0;
	SETUP(!setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_MIGRATION, &to, sizeof(to)),
	      "client migration");
	SETUP(quic_sendmsg(c.cli, "m", 1, 4, MSG_QUIC_STREAM_NEW | MSG_QUIC_STREAM_FIN) == 1,
	      "data from the new address");
	CHECK(wait_event(c.srv, QUIC_EVENT_CONNECTION_MIGRATION, &local, 1, 3000) == 1,
	      "no CONNECTION_MIGRATION event at the server");
	CHECK(local == 0, "local_migration %u", local);
	return 1;
}

static int preferred(int fd, void *arg)
{
	struct sockaddr_storage ss;
	socklen_t len = side_addr(1, AF_INET, *(int *)arg, &ss);

	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_MIGRATION, &ss, len);
}

int c_migration_preferred(void)
{
	int port = new_port() + 1000;
	struct conn_opts o = { .srv_tune = preferred, .arg = &port };
	struct conn c;

	CHECK(!conn_open(&o, &c), "no connection with a preferred address set");
	return 1;
}

int c_opt_direction(void)
{
	struct quic_stream_info si = { .stream_id = -1 };
	struct quic_errinfo ei = {};
	socklen_t len = sizeof(ei);
	struct conn c;

	if (conn_open(NULL, &c))
		return -1;
	CHECK(setsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_STREAM_OPEN, &si, sizeof(si)) == -1,
	      "STREAM_OPEN (read-only) was set");
	CHECK(getsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_STREAM_RESET, &ei, &len) == -1,
	      "STREAM_RESET (write-only) was read");
	len = sizeof(ei);
	CHECK(getsockopt(c.cli, SOL_QUIC, QUIC_SOCKOPT_KEY_UPDATE, &ei, &len) == -1,
	      "KEY_UPDATE (write-only) was read");
	return 1;
}
