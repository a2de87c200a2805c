// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "api" cases for the draft's Sections 4 to 6: the control messages and
 * the events; the helpers api_opts.c shares.
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

int udp_peer(int port)
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

int open_stream(int fd, int64_t id, uint32_t flags, int64_t *out)
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

int cid_set(int fd, uint8_t dest, uint32_t active, uint32_t prior_to)
{
	struct quic_connection_id_info i = { .dest = dest, .active = active,
					     .prior_to = prior_to };

	return setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_ID, &i, sizeof(i));
}

int cid_get(int fd, uint8_t dest, struct quic_connection_id_info *i)
{
	socklen_t len = sizeof(*i);

	memset(i, 0, sizeof(*i));
	i->dest = dest;
	return getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_ID, i, &len);
}

/* A connection that carried data both ways, so that new IDs were issued. */
int conn_warm(const struct conn_opts *o, struct conn *c)
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
