// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every SOL_QUIC option number (0..14) and an unknown one, through
 * setsockopt() and getsockopt() with a short, exact and oversized length,
 * a NULL or unmapped value pointer and a bad length: each request gets the
 * errno docs/socket.md and net/quic/socket.c define, and never a crash.
 *
 * What the kernel does with each request today:
 * - set: a NULL value with a non-zero length is EINVAL before anything
 *   else; then the option decides. EVENT takes exactly its size (EINVAL
 *   otherwise); TRANSPORT_PARAM and CONFIG take their size or more (the
 *   socket API draft's layouts are longer; what follows ours is ignored),
 *   EINVAL when shorter; all three EFAULT for an unreadable value. Byte options (TOKEN up to 512 bytes, SESSION_TICKET up
 *   to 4096, ALPN lists up to 256 bytes: the draft's limits) accept any length up to
 *   their limit, the empty value clearing them, and EINVAL above it.
 * - get: the length is read first (EFAULT when unreadable, EINVAL when
 *   negative); a buffer smaller than the value is EINVAL, a larger one is
 *   accepted and the length written back is the value's; an unwritable value
 *   is EFAULT.
 * - STREAM_RESET (2) and STREAM_STOP_SENDING (3) take exactly a struct
 *   quic_errinfo (EINVAL otherwise, EFAULT when unreadable), then need a
 *   connection (ENOTCONN); KEY_UPDATE (7) ignores its value and needs a
 *   connection. All three are set only: a get is EOPNOTSUPP.
 * - CONNECTION_ID (4) takes exactly a struct quic_connection_id_info both
 *   ways, then needs a connection (ENOTCONN).
 * - CONNECTION_MIGRATION (6) is set only (a get is EOPNOTSUPP): any length
 *   from a struct sockaddr_in's to a sockaddr_storage's is read (EFAULT
 *   when unreadable, EINVAL when shorter), then it needs a connection
 *   (ENOTCONN). An unknown option is ENOPROTOOPT.
 * - STREAM_OPEN (1) is a get only (a set is EOPNOTSUPP): its length and
 *   pointers are checked first, then it needs a connection (ENOTCONN).
 * - CONNECTION_CLOSE (5) takes a struct quic_connection_close whose phrase
 *   is a NUL-terminated string of up to 80 bytes: from the structure's
 *   size (8) up to 86 bytes; a get reports at least the structure's size.
 * - CRYPTO_SECRET (13) and TRANSPORT_PARAM_EXT (14) belong to the
 *   handshake: on a socket that is not connecting, a well-formed set is
 *   EINVAL after the length and pointer checks of a structure
 *   (CRYPTO_SECRET) or of a byte string of 1 to 4096 bytes
 *   (TRANSPORT_PARAM_EXT). Secrets are never read back (get is EOPNOTSUPP);
 *   getting TRANSPORT_PARAM_EXT is EINVAL until connect().
 * The negative set length is refused by the socket layer itself (EINVAL).
 *
 * ioctl() SIOCINQ, SIOCOUTQ and SIOCOUTQNSD read 0 on a new socket (no
 * queue holds anything), EFAULT into an unmapped int, and EINVAL on a
 * listening socket, as TCP answers.
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/quic.h>
#include <linux/sockios.h>

#include "ktap.h"

enum kind {
	K_STRUCT,	/* fixed-size structure */
	K_BYTES,	/* byte string up to a limit */
	K_ALPN,		/* "name1,name2" list */
	K_DATAPATH,	/* arrives with its feature */
	K_ERRINFO,	/* stream action: struct quic_errinfo, set only */
	K_CID,		/* connection ID control: a structure both ways, live only */
	K_MIGRATE,	/* an address of varying length, set only, live only */
	K_KEYUPDATE,	/* action without a value, set only */
	K_OPEN,		/* STREAM_OPEN: a get that needs a connection */
	K_CLOSE,	/* structure with a NUL-terminated tail */
	K_SECRET,	/* handshake structure, write-only */
	K_PARAM_EXT,	/* handshake byte string */
	K_PEELOFF,	/* STREAM_PEELOFF: a get that needs a connection, makes a descriptor */
	K_UNKNOWN,	/* not a QUIC option */
};

struct opt {
	int name;
	const char *label;
	enum kind kind;
	unsigned int size;	/* structure size, or the longest value accepted */
};

/* The longest ALPN list accepted, the socket API draft's 256 bytes: a
 * name of 127 bytes, a comma and one of 128.
 */
#define ALPN_LONGEST	256
/* The longest CONNECTION_CLOSE: an 80-byte phrase and its NUL. */
#define CLOSE_LONGEST	(offsetof(struct quic_connection_close, phrase) + 81)

static const struct opt opts[] = {
	{ QUIC_SOCKOPT_EVENT, "EVENT", K_STRUCT, sizeof(struct quic_event_option) },
	{ QUIC_SOCKOPT_STREAM_OPEN, "STREAM_OPEN", K_OPEN, sizeof(struct quic_stream_info) },
	{ QUIC_SOCKOPT_STREAM_RESET, "STREAM_RESET", K_ERRINFO, sizeof(struct quic_errinfo) },
	{ QUIC_SOCKOPT_STREAM_STOP_SENDING, "STREAM_STOP_SENDING", K_ERRINFO,
	  sizeof(struct quic_errinfo) },
	{ QUIC_SOCKOPT_CONNECTION_ID, "CONNECTION_ID", K_CID,
	  sizeof(struct quic_connection_id_info) },
	{ QUIC_SOCKOPT_CONNECTION_CLOSE, "CONNECTION_CLOSE", K_CLOSE, CLOSE_LONGEST },
	{ QUIC_SOCKOPT_CONNECTION_MIGRATION, "CONNECTION_MIGRATION", K_MIGRATE,
	  sizeof(struct sockaddr_in6) },
	{ QUIC_SOCKOPT_KEY_UPDATE, "KEY_UPDATE", K_KEYUPDATE, sizeof(uint8_t) },
	{ QUIC_SOCKOPT_TRANSPORT_PARAM, "TRANSPORT_PARAM", K_STRUCT,
	  sizeof(struct quic_transport_param) },
	{ QUIC_SOCKOPT_CONFIG, "CONFIG", K_STRUCT, sizeof(struct quic_config) },
	{ QUIC_SOCKOPT_TOKEN, "TOKEN", K_BYTES, 512 },
	{ QUIC_SOCKOPT_ALPN, "ALPN", K_ALPN, ALPN_LONGEST },
	{ QUIC_SOCKOPT_SESSION_TICKET, "SESSION_TICKET", K_BYTES, 4096 },
	{ QUIC_SOCKOPT_CRYPTO_SECRET, "CRYPTO_SECRET", K_SECRET,
	  sizeof(struct quic_crypto_secret) },
	{ QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, "TRANSPORT_PARAM_EXT", K_PARAM_EXT, 256 },
	{ QUIC_SOCKOPT_STREAM_PEELOFF, "STREAM_PEELOFF", K_PEELOFF,
	  sizeof(struct quic_stream_peeloff) },
	{ QUIC_SOCKOPT_STREAM_PEELOFF + 1, "unknown option 16", K_UNKNOWN, 16 },
};

#define SET_CASES	7
#define GET_CASES	8

/* Values stored before the get cases, so each option has something to return. */
static const char token[] = "0123456789abcdef";
static const char ticket[] = "session ticket of thirty-two b.";
static const char alpn[] = "h3,hq-interop";
static const char close_phrase[] = "bye";

static char buf[8192];
static char *unmapped;

/* What a request returns before the option's own checks: dispatch refuses it. */
static const int set_dispatch[] = {
	[K_DATAPATH] = EOPNOTSUPP,
	[K_KEYUPDATE] = ENOTCONN,	/* the value is never read */
	[K_OPEN] = EOPNOTSUPP,
	[K_PEELOFF] = EOPNOTSUPP,
	[K_UNKNOWN] = ENOPROTOOPT,
};

static const int get_dispatch[] = {
	[K_DATAPATH] = EOPNOTSUPP,
	[K_ERRINFO] = EOPNOTSUPP,
	[K_KEYUPDATE] = EOPNOTSUPP,
	[K_MIGRATE] = EOPNOTSUPP,
	[K_SECRET] = EOPNOTSUPP,
	[K_PARAM_EXT] = EINVAL,
	[K_UNKNOWN] = ENOPROTOOPT,
};

static int dispatch_errno(const struct opt *o, bool get)
{
	return get ? get_dispatch[o->kind] : set_dispatch[o->kind];
}

/* A well-formed get: STREAM_OPEN, STREAM_PEELOFF and CONNECTION_ID check
 * their input, then want a connection.
 */
static int get_errno(const struct opt *o)
{
	if (o->kind == K_OPEN || o->kind == K_PEELOFF || o->kind == K_CID)
		return ENOTCONN;
	return dispatch_errno(o, true);
}

/* A malformed request: the option's own check, unless dispatch refuses first. */
static int bad_errno(const struct opt *o, int err, bool get)
{
	return dispatch_errno(o, get) ?: err;
}

/* A well-formed set: handshake options need a connecting socket, stream
 * actions a connection.
 */
static int set_errno(const struct opt *o)
{
	if (o->kind == K_SECRET || o->kind == K_PARAM_EXT)
		return EINVAL;
	if (o->kind == K_ERRINFO || o->kind == K_CID || o->kind == K_MIGRATE)
		return ENOTCONN;
	return dispatch_errno(o, false);
}

static bool is_bytes(const struct opt *o)
{
	return o->kind == K_BYTES || o->kind == K_ALPN;
}

/* Options whose structure may be longer than ours (docs/socket.md). */
static bool longer_ok(const struct opt *o)
{
	return o->name == QUIC_SOCKOPT_TRANSPORT_PARAM || o->name == QUIC_SOCKOPT_CONFIG;
}

/* A length just below the shortest accepted value. */
static socklen_t short_len(const struct opt *o)
{
	if (is_bytes(o))
		return 0;
	if (o->kind == K_CLOSE)
		return sizeof(struct quic_connection_close) - 1;
	/* The 56-byte layout of later upstream headers is accepted. */
	if (o->name == QUIC_SOCKOPT_TRANSPORT_PARAM)
		return offsetof(struct quic_transport_param, reserved) - 1;
	return o->size - 1;
}

/* Fill buf with an acceptable value of o->size bytes. */
static void valid_value(int fd, const struct opt *o)
{
	struct quic_event_option ev = { .type = QUIC_EVENT_STREAM_UPDATE, .on = 1 };
	socklen_t len = sizeof(struct quic_transport_param);

	memset(buf, 0, sizeof(buf));
	switch (o->name) {
	case QUIC_SOCKOPT_EVENT:
		memcpy(buf, &ev, sizeof(ev));
		break;
	case QUIC_SOCKOPT_TRANSPORT_PARAM:
		/* The socket's own local parameters are valid by definition. */
		if (getsockopt(fd, SOL_QUIC, o->name, buf, &len))
			ktap_diag("reading TRANSPORT_PARAM for the set cases: %s",
				  errno_name(errno));
		break;
	case QUIC_SOCKOPT_ALPN:
		memset(buf, 'a', ALPN_LONGEST);
		buf[127] = ',';
		break;
	default:
		/* CONFIG: all zero selects the defaults; byte options: any bytes. */
		if (is_bytes(o))
			memset(buf, 'x', o->size);
		break;
	}
}

static void set_cases(int fd, const struct opt *o)
{
	int ret;

	ktap_plan(SET_CASES);

	/* Byte options: the shortest value is the empty one, which clears. */
	/* An address option takes a range of lengths: these are in it. */
	valid_value(fd, o);
	ret = setsockopt(fd, SOL_QUIC, o->name, buf, short_len(o));
	ktap_expect_errno(ret, errno, o->kind == K_MIGRATE ? ENOTCONN :
			  bad_errno(o, is_bytes(o) ? 0 : EINVAL, false),
			  "setsockopt %s short optlen", o->label);

	valid_value(fd, o);
	ret = setsockopt(fd, SOL_QUIC, o->name, buf, o->size);
	ktap_expect_errno(ret, errno, set_errno(o), "setsockopt %s exact optlen (%u)",
			  o->label, o->size);

	valid_value(fd, o);
	ret = setsockopt(fd, SOL_QUIC, o->name, buf, o->size + 1);
	ktap_expect_errno(ret, errno, o->kind == K_MIGRATE ? ENOTCONN :
			  longer_ok(o) ? 0 : bad_errno(o, EINVAL, false),
			  "setsockopt %s oversized optlen", o->label);

	ret = setsockopt(fd, SOL_QUIC, o->name, NULL, o->size);
	ktap_expect_errno(ret, errno, EINVAL, "setsockopt %s NULL value", o->label);

	ret = setsockopt(fd, SOL_QUIC, o->name, NULL, 0);
	ktap_expect_errno(ret, errno, bad_errno(o, is_bytes(o) ? 0 : EINVAL, false),
			  "setsockopt %s NULL value with zero optlen", o->label);

	ret = setsockopt(fd, SOL_QUIC, o->name, unmapped, o->size);
	ktap_expect_errno(ret, errno, bad_errno(o, EFAULT, false), "setsockopt %s unmapped value",
			  o->label);

	valid_value(fd, o);
	ret = setsockopt(fd, SOL_QUIC, o->name, buf, (socklen_t)-1);
	ktap_expect_errno(ret, errno, EINVAL, "setsockopt %s negative optlen", o->label);
}

/* Give the option a known value; return the length getsockopt() reports for it. */
static unsigned int get_setup(int fd, const struct opt *o)
{
	struct quic_event_option ev = { .type = QUIC_EVENT_STREAM_UPDATE, .on = 1 };
	int ret = 0;

	switch (o->name) {
	case QUIC_SOCKOPT_EVENT:
		ret = setsockopt(fd, SOL_QUIC, o->name, &ev, sizeof(ev));
		break;
	case QUIC_SOCKOPT_TOKEN:
		ret = setsockopt(fd, SOL_QUIC, o->name, token, strlen(token));
		break;
	case QUIC_SOCKOPT_SESSION_TICKET:
		ret = setsockopt(fd, SOL_QUIC, o->name, ticket, strlen(ticket));
		break;
	case QUIC_SOCKOPT_ALPN:
		ret = setsockopt(fd, SOL_QUIC, o->name, alpn, strlen(alpn));
		break;
	case QUIC_SOCKOPT_CONNECTION_CLOSE:
		memset(buf, 0, sizeof(buf));
		((struct quic_connection_close *)buf)->errcode = 7;
		strcpy((char *)((struct quic_connection_close *)buf)->phrase, close_phrase);
		ret = setsockopt(fd, SOL_QUIC, o->name, buf, CLOSE_LONGEST);
		break;
	}
	if (ret)
		ktap_diag("storing a value for the get cases: %s", errno_name(errno));

	switch (o->name) {
	case QUIC_SOCKOPT_TOKEN:
		return strlen(token);
	case QUIC_SOCKOPT_SESSION_TICKET:
		return strlen(ticket);
	case QUIC_SOCKOPT_ALPN:
		return strlen(alpn);
	case QUIC_SOCKOPT_CONNECTION_CLOSE:
		return offsetof(struct quic_connection_close, phrase) + strlen(close_phrase) + 1;
	}
	return o->size;
}

/* Some options read their input from the buffer: the event type, the "remote" flag. */
static void get_input(const struct opt *o)
{
	struct quic_event_option ev = { .type = QUIC_EVENT_STREAM_UPDATE };
	struct quic_stream_info si = { .stream_id = -1 };

	memset(buf, 0, sizeof(buf));
	if (o->name == QUIC_SOCKOPT_EVENT)
		memcpy(buf, &ev, sizeof(ev));
	if (o->name == QUIC_SOCKOPT_STREAM_OPEN)
		memcpy(buf, &si, sizeof(si));
}

/*
 * What a new socket's options hold (net/quic/socket.c, docs/socket.md):
 * the local transport parameters are RFC 9000 Section 18.2's defaults
 * with the kernel's flow control limits (1 MiB for the connection,
 * 256 KiB per stream, 100 streams each way) and a 30 s idle timeout; the
 * config is QUIC v1, an initial RTT of 333 ms (RFC 9002 Section 6.2.2),
 * Reno and everything else off.
 */
/* draft-lxin-quic-socket-apis, struct quic_transport_param defaults. */
static const struct quic_transport_param default_param = {
	.active_connection_id_limit = 7,
	.ack_delay_exponent = 3,
	.max_udp_payload_size = 65527,
	.max_idle_timeout = 30 * 1000 * 1000,
	.max_ack_delay = 25000,
	.max_streams_bidi = 100,
	.max_streams_uni = 100,
	.max_data = 65536 * 32,
	.max_stream_data_bidi_local = 65536 * 4,
	.max_stream_data_bidi_remote = 65536 * 4,
	.max_stream_data_uni = 65536 * 4,
};

static const struct quic_config default_config = {
	.version = QUIC_VERSION_V1,
	.initial_smoothed_rtt = 333000,
	.congestion_control_algo = QUIC_CONG_ALG_RENO,
};

/*
 * The value returned by a successful get of @len bytes: the one stored by
 * get_setup(), or the new socket's default. An option that has no value
 * to return never matches.
 */
static bool get_value_ok(const struct opt *o, socklen_t len)
{
	const struct quic_connection_close *cc = (const void *)buf;
	const struct quic_event_option *ev = (const void *)buf;
	uint32_t keepalive;

	switch (o->name) {
	case QUIC_SOCKOPT_EVENT:
		return len == sizeof(*ev) && ev->type == QUIC_EVENT_STREAM_UPDATE && ev->on == 1;
	case QUIC_SOCKOPT_TRANSPORT_PARAM:
		/* The local set, asked for with remote 0, as a new socket has it. */
		return len == sizeof(default_param) &&
		       !memcmp(buf, &default_param, sizeof(default_param));
	case QUIC_SOCKOPT_CONFIG:
		if (len != sizeof(default_config) && len != sizeof(default_config) + 4)
			return false;
		/* The later layout's keepalive_probe_interval: 0, none. */
		memcpy(&keepalive, buf + sizeof(default_config), sizeof(keepalive));
		return !memcmp(buf, &default_config, sizeof(default_config)) &&
		       (len == sizeof(default_config) || !keepalive);
	case QUIC_SOCKOPT_TOKEN:
		return len == strlen(token) && !memcmp(buf, token, len);
	case QUIC_SOCKOPT_SESSION_TICKET:
		return len == strlen(ticket) && !memcmp(buf, ticket, len);
	case QUIC_SOCKOPT_ALPN:
		return len == strlen(alpn) && !memcmp(buf, alpn, len);
	case QUIC_SOCKOPT_CONNECTION_CLOSE:
		return len == offsetof(struct quic_connection_close, phrase) +
			      strlen(close_phrase) + 1 &&
		       cc->errcode == 7 && cc->frame == 0 &&
		       !strcmp((const char *)cc->phrase, close_phrase);
	}
	return false;
}

static void get_cases(int fd, const struct opt *o)
{
	unsigned int exact = get_setup(fd, o);
	socklen_t len;
	int ret, err;

	ktap_plan(GET_CASES);

	get_input(o);
	len = exact - 1;
	ret = getsockopt(fd, SOL_QUIC, o->name, buf, &len);
	err = errno;
	/* TRANSPORT_PARAM: a buffer too short for the full structure gets the
	 * 56-byte layout of later upstream headers.
	 */
	if (o->name == QUIC_SOCKOPT_TRANSPORT_PARAM) {
		if (!ret && (len != offsetof(struct quic_transport_param, reserved) ||
			     memcmp(buf, &default_param, len))) {
			ktap_diag("optlen %u, expected the 56-byte layout of the defaults", len);
			ret = -2;
		}
		ktap_expect_errno(ret, err, 0, "getsockopt %s short optlen: the later 56-byte layout",
				  o->label);
	} else {
		ktap_expect_errno(ret, err, bad_errno(o, EINVAL, true),
				  "getsockopt %s short optlen", o->label);
	}

	get_input(o);
	len = exact;
	ret = getsockopt(fd, SOL_QUIC, o->name, buf, &len);
	err = errno;
	if (!ret && (len != exact || !get_value_ok(o, len))) {
		ktap_diag("optlen %u (expected %u), value %s", len, exact,
			  get_value_ok(o, len) ? "right" : "wrong");
		ret = -2;
	}
	ktap_expect_errno(ret, err, get_errno(o), "getsockopt %s exact optlen (%u)",
			  o->label, exact);

	get_input(o);
	len = exact + 64;
	ret = getsockopt(fd, SOL_QUIC, o->name, buf, &len);
	err = errno;
	/* A buffer that holds it gets the later 28-byte config layout, with
	 * keepalive_probe_interval after our 24 bytes (docs/socket.md).
	 */
	if (!ret && (len != (o->name == QUIC_SOCKOPT_CONFIG ? exact + 4 : exact) ||
		     !get_value_ok(o, len))) {
		ktap_diag("optlen %u, expected %u, value %s", len, exact,
			  get_value_ok(o, len) ? "right" : "wrong");
		ret = -2;
	}
	ktap_expect_errno(ret, err, get_errno(o),
			  "getsockopt %s oversized optlen reports the value's length", o->label);

	len = exact;
	ret = getsockopt(fd, SOL_QUIC, o->name, NULL, &len);
	ktap_expect_errno(ret, errno, bad_errno(o, EFAULT, true), "getsockopt %s NULL value",
			  o->label);

	len = exact;
	ret = getsockopt(fd, SOL_QUIC, o->name, unmapped, &len);
	ktap_expect_errno(ret, errno, bad_errno(o, EFAULT, true), "getsockopt %s unmapped value",
			  o->label);

	get_input(o);
	ret = getsockopt(fd, SOL_QUIC, o->name, buf, NULL);
	ktap_expect_errno(ret, errno, EFAULT, "getsockopt %s NULL optlen", o->label);

	get_input(o);
	ret = getsockopt(fd, SOL_QUIC, o->name, buf, (socklen_t *)unmapped);
	ktap_expect_errno(ret, errno, EFAULT, "getsockopt %s unmapped optlen", o->label);

	get_input(o);
	len = (socklen_t)-1;
	ret = getsockopt(fd, SOL_QUIC, o->name, buf, &len);
	ktap_expect_errno(ret, errno, EINVAL, "getsockopt %s negative optlen", o->label);
}

/* One subtest on a fresh socket, so that earlier cases leave nothing behind. */
static void on_new_socket(int family, int type, const struct opt *o, const char *name,
			  void (*cases)(int fd, const struct opt *o))
{
	int fd;

	ktap_subtest_begin(name);
	fd = socket(family, type, IPPROTO_QUIC);
	if (fd < 0) {
		ktap_plan(1);
		ktap_expect_errno(fd, errno, 0, "socket(IPPROTO_QUIC)");
	} else {
		cases(fd, o);
		close(fd);
	}
	ktap_subtest_end(name);
}

static void option(int family, int type, const struct opt *o)
{
	ktap_subtest_begin(o->label);
	ktap_plan(2);
	on_new_socket(family, type, o, "setsockopt", set_cases);
	on_new_socket(family, type, o, "getsockopt", get_cases);
	ktap_subtest_end(o->label);
}

static void kind(int family, int type, const char *name)
{
	unsigned int i;

	ktap_subtest_begin(name);
	ktap_plan(ARRAY_SIZE(opts));
	for (i = 0; i < ARRAY_SIZE(opts); i++)
		option(family, type, &opts[i]);
	ktap_subtest_end(name);
}

static void queue_ioctls(int family, int type, const char *name)
{
	static const struct { unsigned long cmd; const char *name; } cmds[] = {
		{ SIOCINQ, "SIOCINQ" }, { SIOCOUTQ, "SIOCOUTQ" }, { SIOCOUTQNSD, "SIOCOUTQNSD" },
	};
	struct sockaddr_storage ss = { .ss_family = family };
	unsigned int i;
	int fd, lfd, n, ret;

	ktap_subtest_begin(name);
	ktap_plan(ARRAY_SIZE(cmds) * 3);
	fd = socket(family, type, IPPROTO_QUIC);
	lfd = socket(family, type, IPPROTO_QUIC);
	if (family == AF_INET)
		inet_pton(AF_INET, "127.0.0.1", &((struct sockaddr_in *)&ss)->sin_addr);
	else
		inet_pton(AF_INET6, "::1", &((struct sockaddr_in6 *)&ss)->sin6_addr);
	if (fd < 0 || lfd < 0 ||
	    bind(lfd, (struct sockaddr *)&ss, family == AF_INET ? sizeof(struct sockaddr_in) :
							       sizeof(struct sockaddr_in6)) ||
	    listen(lfd, 1))
		ktap_diag("socket/bind/listen: %s", errno_name(errno));
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		n = -1;
		ret = ioctl(fd, cmds[i].cmd, &n);
		ktap_result(ret == 0 && n == 0, "%s on a new socket reads 0 (%d, %d)",
			    cmds[i].name, ret, n);
		ret = ioctl(fd, cmds[i].cmd, unmapped);
		ktap_expect_errno(ret, errno, EFAULT, "%s into an unmapped int: EFAULT",
				  cmds[i].name);
		ret = ioctl(lfd, cmds[i].cmd, &n);
		ktap_expect_errno(ret, errno, EINVAL, "%s on a listening socket: EINVAL",
				  cmds[i].name);
	}
	close(fd);
	close(lfd);
	ktap_subtest_end(name);
}

int main(void)
{
	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unmapped == MAP_FAILED)
		return 1;

	ktap_plan(4);
	kind(AF_INET, SOCK_STREAM, "AF_INET SOCK_STREAM");
	kind(AF_INET6, SOCK_DGRAM, "AF_INET6 SOCK_DGRAM");
	queue_ioctls(AF_INET, SOCK_STREAM, "ioctl AF_INET");
	queue_ioctls(AF_INET6, SOCK_DGRAM, "ioctl AF_INET6");
	return ktap_finish();
}
