// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "api" cases for the draft's Sections 7 and 9: the socket options, one
 * block per option, and the limits of the security section.
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

/* The draft's number, spelled here so that the case checks it (our header
 * names it QUIC_SOCKOPT_STREAM_PEELOFF).
 */
#define DRAFT_SOCKOPT_STREAM_PEELOFF	15
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
	uint8_t ev[600], first[600];
	struct conn c;
	int n, n1;

	if (conn_open(&o, &c))
		return -1;
	/* The token issued after the handshake, if any, first; a frame sent
	 * again repeats it, so only a different token counts.
	 */
	n1 = wait_event(c.cli, QUIC_EVENT_NEW_TOKEN, first, sizeof(first), 1000);
	CHECK(!setsockopt(c.srv, SOL_QUIC, QUIC_SOCKOPT_TOKEN, NULL, 0), "set on the server");
	do
		n = wait_event(c.cli, QUIC_EVENT_NEW_TOKEN, ev, sizeof(ev), 2000);
	while (n > 0 && n == n1 && !memcmp(ev, first, n));
	CHECK(n > 0, "no new token after the server's set");
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
	CHECK(dl >= 16, "the ID the client picked for the server has %d bits", dl * 8);
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
