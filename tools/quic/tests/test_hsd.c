// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host tests of quic-handshaked's pure parts: the config file, --timeout
 * and --max-children (hsd_conf.c), the PSK identity in a key
 * description, the PSK file line, addresses and DONE statuses, the two
 * netlink messages (hsd_nl.c): ACCEPT replies built here with nla_put(),
 * DONE requests read back attribute by attribute, and the bound on the
 * handshakes running at once (hsd_admit.c) against a fake request queue.
 * No kernel is involved.
 */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <sys/un.h>

#include "handshake_nl.h"
#include "hsd.h"
#include "tests.h"

#define N(a)		(sizeof(a) / sizeof((a)[0]))
#define FAMILY		0x1d	/* any id: nothing is sent */

/* ---- config file ---- */

/* Parse @text as a config file into @o. Returns what hsd_conf_parse() did. */
static int conf(const char *text, struct hsd_opts *o, char *err, size_t errlen)
{
	char *copy = strdup(text);
	FILE *f;
	int ret;

	memset(o, 0, sizeof(*o));
	*err = '\0';
	f = copy ? fmemopen(copy, strlen(copy), "r") : NULL;
	if (!f) {
		free(copy);
		return -ENOMEM;
	}
	ret = hsd_conf_parse(f, o, err, errlen);
	fclose(f);
	free(copy);
	return ret;
}

static bool streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static void test_conf_good(void)
{
	struct hsd_opts o;
	char err[256];
	int ret;

	ret = conf("# quic-handshaked\n\ncert = /etc/q/server.pem\n  key=/etc/q/server.key  \n"
		   "\t# indented comment\nca =  /etc/q/ca#1.pem\ntimeout = 5000\n"
		   "max-children = 16\n", &o, err, sizeof(err));
	result(!ret && streq(o.cert, "/etc/q/server.pem") && streq(o.key, "/etc/q/server.key") &&
	       streq(o.ca, "/etc/q/ca#1.pem") && o.timeout_ms == 5000 && o.max_children == 16,
	       "config: keys, spaces, comments and a '#' inside a value");
	hsd_opts_free(&o);

	ret = conf("ca = /a\nca = /b", &o, err, sizeof(err));
	result(!ret && streq(o.ca, "/b") && !o.cert && !o.timeout_ms,
	       "config: a later line wins, a last line without newline counts");
	hsd_opts_free(&o);

	ret = conf("", &o, err, sizeof(err));
	result(!ret && !o.cert && !o.key && !o.ca && !o.timeout_ms && !o.max_children,
	       "config: an empty file");
	hsd_opts_free(&o);
}

static void test_conf_line_limit(void)
{
	char text[HSD_CONF_LINE_MAX + 16], err[256];
	struct hsd_opts o;
	size_t len;
	int ret;

	/* "ca = " and a value up to HSD_CONF_LINE_MAX bytes with the newline. */
	strcpy(text, "ca = ");
	len = strlen(text);
	memset(text + len, 'x', HSD_CONF_LINE_MAX - 1 - len);
	strcpy(text + HSD_CONF_LINE_MAX - 1, "\n");
	ret = conf(text, &o, err, sizeof(err));
	result(!ret && o.ca && strlen(o.ca) == HSD_CONF_LINE_MAX - 1 - len,
	       "config: a line of %d bytes with its newline", HSD_CONF_LINE_MAX);
	hsd_opts_free(&o);

	strcpy(text + HSD_CONF_LINE_MAX - 1, "y\ntimeout = 1\n");
	ret = conf(text, &o, err, sizeof(err));
	result(ret == -EINVAL && strstr(err, "line 1") && strstr(err, "longer"),
	       "config: a longer line is refused (\"%s\")", err);
	hsd_opts_free(&o);
}

static const struct conf_bad_case {
	const char *what, *text, *needle;
} conf_bad_cases[] = {
	{ "unknown key", "cert = /c\n\npassword = x\n", "line 3: unknown key 'password'" },
	{ "missing '='", "# c\ncert /etc/c.pem\n", "line 2" },
	{ "empty value", "key =   \n", "line 1: empty value" },
	{ "empty key", " = /x\n", "line 1: empty key" },
	{ "timeout not a number", "timeout = 5s\n", "line 1: timeout" },
	{ "timeout zero", "timeout = 0\n", "timeout" },
	{ "key in another case", "CERT = /c\n", "unknown key" },
	{ "max-children zero", "max-children = 0\n", "line 1: max-children: from 1 to 4096" },
	{ "max-children over the limit", "\nmax-children = 4097\n", "line 2: max-children" },
	{ "max-children not a number", "max-children = many\n", "max-children" },
	{ "max_children with an underscore", "max_children = 8\n", "unknown key" },
};

static void test_conf_bad(void)
{
	struct hsd_opts o;
	char err[256];
	size_t i;
	int ret;

	for (i = 0; i < N(conf_bad_cases); i++) {
		const struct conf_bad_case *c = &conf_bad_cases[i];

		ret = conf(c->text, &o, err, sizeof(err));
		result(ret == -EINVAL && strstr(err, c->needle), "config refused: %s (\"%s\")",
		       c->what, err);
		hsd_opts_free(&o);
	}
}

static void test_conf_merge(void)
{
	struct hsd_opts file = { 0 }, cli = { 0 };

	file.cert = strdup("/file.pem");
	file.key = strdup("/file.key");
	file.timeout_ms = 1000;
	cli.cert = strdup("/cli.pem");
	cli.ca = strdup("/cli-ca.pem");
	hsd_opts_merge(&file, &cli);
	result(streq(file.cert, "/cli.pem") && streq(file.key, "/file.key") &&
	       streq(file.ca, "/cli-ca.pem") && file.timeout_ms == 1000 && !cli.cert && !cli.ca,
	       "options: the command line overrides the config file");
	cli.timeout_ms = 7;
	hsd_opts_merge(&file, &cli);
	result(file.timeout_ms == 7 && streq(file.cert, "/cli.pem"),
	       "options: --timeout overrides the file's timeout");
	file.max_children = 10;
	hsd_opts_merge(&file, &cli);
	result(file.max_children == 10, "options: without --max-children the file's value stays");
	cli.max_children = 3;
	hsd_opts_merge(&file, &cli);
	result(file.max_children == 3, "options: --max-children overrides the file's");
	hsd_opts_free(&file);
	hsd_opts_free(&cli);
}

static const struct timeout_case {
	const char *in;
	int ret;
	unsigned int ms;
} timeout_cases[] = {
	{ "1", 0, 1 }, { "30000", 0, 30000 }, { "86400000", 0, 86400000 },
	{ "0", -EINVAL, 0 }, { "", -EINVAL, 0 }, { "-1", -EINVAL, 0 }, { "5s", -EINVAL, 0 },
	{ " 5", -EINVAL, 0 }, { "86400001", -EINVAL, 0 },
	{ "99999999999999999999999", -EINVAL, 0 },
};

static void test_timeouts(void)
{
	unsigned int ms;
	size_t i;
	int ret;

	for (i = 0; i < N(timeout_cases); i++) {
		ms = 0;
		ret = hsd_parse_timeout(timeout_cases[i].in, &ms);
		result(ret == timeout_cases[i].ret && ms == timeout_cases[i].ms,
		       "--timeout \"%s\": %s", timeout_cases[i].in, ret ? "refused" : "taken");
	}
}

static const struct timeout_case max_children_cases[] = {
	{ "1", 0, 1 }, { "64", 0, 64 }, { "4096", 0, 4096 },
	{ "0", -EINVAL, 0 }, { "", -EINVAL, 0 }, { "4097", -EINVAL, 0 }, { "-1", -EINVAL, 0 },
	{ "8x", -EINVAL, 0 }, { "99999999999999999999999", -EINVAL, 0 },
};

static void test_max_children(void)
{
	unsigned int n;
	size_t i;
	int ret;

	for (i = 0; i < N(max_children_cases); i++) {
		n = 0;
		ret = hsd_parse_max_children(max_children_cases[i].in, &n);
		result(ret == max_children_cases[i].ret && n == max_children_cases[i].ms,
		       "--max-children \"%s\": %s", max_children_cases[i].in,
		       ret ? "refused" : "taken");
	}
}

/* ---- keys ---- */

static const struct identity_case {
	const char *desc, *identity;
} identity_cases[] = {
	{ "user;0;0;3f010000;my-identity", "my-identity" },
	{ "psk;0;0;3f030000;NVMe0R01 host sub", "NVMe0R01 host sub" },
	{ "user;1000;1000;3f010000;a;b", "a;b" },
	{ "", NULL },
	{ "my-identity", NULL },
	{ "user;0;0;3f010000", NULL },
	{ "user;0;0;3f010000;", NULL },
	{ ";0;0;3f010000;id", NULL },
	{ "user;;0;3f010000;id", NULL },
	{ "user;0;0;;id", NULL },
};

static void test_identities(void)
{
	const char *got;
	size_t i;

	for (i = 0; i < N(identity_cases); i++) {
		const struct identity_case *c = &identity_cases[i];

		got = hsd_key_identity(c->desc);
		result(c->identity ? streq(got, c->identity) : !got, "key description \"%s\": %s",
		       c->desc, c->identity ? c->identity : "refused");
	}
}

static void test_psk_format(void)
{
	static const unsigned char key[] = { 0x00, 0x01, 0xab, 0xff, 0x10 };
	static const char want[] = "my-identity:0001abff10\n";
	unsigned char key32[32];
	char buf[128];
	ssize_t n;
	size_t i;

	n = hsd_psk_format(buf, sizeof(buf), "my-identity", key, sizeof(key));
	result(n == (ssize_t)strlen(want) && !strcmp(buf, want),
	       "PSK line: \"my-identity:0001abff10\" and a newline");

	n = hsd_psk_format(buf, sizeof(want), "my-identity", key, sizeof(key));
	result(n == (ssize_t)strlen(want) && !strcmp(buf, want), "PSK line: an exact buffer");
	n = hsd_psk_format(buf, sizeof(want) - 1, "my-identity", key, sizeof(key));
	result(n == -ENOSPC, "PSK line: one byte short is -ENOSPC");
	n = hsd_psk_format(buf, 2, "i", key, 1);
	result(n == -ENOSPC, "PSK line: a tiny buffer is -ENOSPC");

	for (i = 0; i < sizeof(key32); i++)
		key32[i] = (unsigned char)(i * 9);
	n = hsd_psk_format(buf, sizeof(buf), "id", key32, sizeof(key32));
	result(n == 3 + 64 + 1 && !strncmp(buf, "id:0009121b242d363f48", 21) &&
	       !strcmp(buf + 3 + 62, "17\n"), "PSK line: a 32-byte key is 64 hex digits");
}

static const struct psk_bad_case {
	const char *what, *identity;
	size_t keylen;
} psk_bad_cases[] = {
	{ "an empty identity", "", 4 },
	{ "an identity holding ':'", "a:b", 4 },
	{ "an identity starting with '#'", "#comment", 4 },
	{ "an identity ending in a space", "trailing ", 4 },
	{ "an identity holding a newline", "two\nlines", 4 },
	{ "an identity holding a carriage return", "cr\r", 4 },
	{ "an empty key", "id", 0 },
};

static void test_psk_bad(void)
{
	static const unsigned char key[4] = { 1, 2, 3, 4 };
	char buf[64];
	size_t i;

	for (i = 0; i < N(psk_bad_cases); i++) {
		const struct psk_bad_case *c = &psk_bad_cases[i];

		result(hsd_psk_format(buf, sizeof(buf), c->identity, key, c->keylen) == -EINVAL,
		       "PSK line refused: %s", c->what);
	}
}

/* ---- addresses and statuses ---- */

static void test_addresses(void)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char buf[64];
	int ret;

	inet_pton(AF_INET, "192.0.2.7", &sin.sin_addr);
	ret = hsd_addr_string((struct sockaddr *)&sin, sizeof(sin), buf, sizeof(buf));
	result(!ret && !strcmp(buf, "192.0.2.7"), "address: IPv4");
	inet_pton(AF_INET6, "2001:db8::5", &sin6.sin6_addr);
	ret = hsd_addr_string((struct sockaddr *)&sin6, sizeof(sin6), buf, sizeof(buf));
	result(!ret && !strcmp(buf, "2001:db8::5"), "address: IPv6 without brackets");
	inet_pton(AF_INET6, "::ffff:10.0.0.2", &sin6.sin6_addr);
	ret = hsd_addr_string((struct sockaddr *)&sin6, sizeof(sin6), buf, sizeof(buf));
	result(!ret && !strcmp(buf, "10.0.0.2"), "address: IPv4-mapped IPv6 as IPv4");
	ret = hsd_addr_string((struct sockaddr *)&sin6, sizeof(sin), buf, sizeof(buf));
	result(ret == -EINVAL, "address: a short IPv6 address is -EINVAL");
	ret = hsd_addr_string((struct sockaddr *)&sun, sizeof(sun), buf, sizeof(buf));
	result(ret == -EAFNOSUPPORT, "address: AF_UNIX is -EAFNOSUPPORT");
	ret = hsd_addr_string((struct sockaddr *)&sin, sizeof(sin), buf, 4);
	result(ret == -ENOSPC, "address: a small buffer is -ENOSPC");
}

static void test_statuses(void)
{
	result(hsd_done_status(0) == 0 && hsd_done_status(-ENOKEY) == ENOKEY &&
	       hsd_done_status(-EKEYREJECTED) == EKEYREJECTED &&
	       hsd_done_status(-HANDSHAKE_DONE_STATUS_MAX) == HANDSHAKE_DONE_STATUS_MAX,
	       "DONE status: 0 and negative errnos become positive");
	result(hsd_done_status(-HANDSHAKE_DONE_STATUS_MAX - 1) == EIO &&
	       hsd_done_status(5) == EIO && hsd_done_status(INT_MIN) == EIO,
	       "DONE status: anything the kernel would refuse is EIO");
}

/* ---- ACCEPT replies ---- */

/* An ACCEPT reply header; the caller adds the attributes. */
static struct nl_msg *accept_msg(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, 1234, 5, FAMILY, 0, 0, cmd, HANDSHAKE_FAMILY_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* A CERTIFICATE nest with the serials given (0: left out). */
static int put_cert(struct nl_msg *msg, int32_t cert, int32_t privkey)
{
	struct nlattr *nest = nla_nest_start(msg, HANDSHAKE_A_ACCEPT_CERTIFICATE);

	if (!nest || (cert && nla_put_s32(msg, HANDSHAKE_A_X509_CERT, cert)) ||
	    (privkey && nla_put_s32(msg, HANDSHAKE_A_X509_PRIVKEY, privkey)))
		return -1;
	return nla_nest_end(msg, nest);
}

/* The attributes every reply has: socket, type, mode. */
static int put_basics(struct nl_msg *msg, int fd)
{
	return nla_put_s32(msg, HANDSHAKE_A_ACCEPT_SOCKFD, fd) ||
	       nla_put_u32(msg, HANDSHAKE_A_ACCEPT_MESSAGE_TYPE, HANDSHAKE_MSG_TYPE_CLIENTHELLO) ||
	       nla_put_u32(msg, HANDSHAKE_A_ACCEPT_AUTH_MODE, HANDSHAKE_AUTH_PSK);
}

static void test_accept_all(void)
{
	struct nl_msg *msg = accept_msg(HANDSHAKE_CMD_ACCEPT);
	struct hsd_request req;
	bool built;
	int ret;

	built = msg && !nla_put_u32(msg, HANDSHAKE_A_ACCEPT_HANDLER_CLASS, 1) &&
		!put_basics(msg, 7) &&
		!nla_put_u32(msg, HANDSHAKE_A_ACCEPT_TIMEOUT, 5000) &&
		!nla_put_u32(msg, HANDSHAKE_A_ACCEPT_PEER_IDENTITY, 11) &&
		!nla_put_u32(msg, HANDSHAKE_A_ACCEPT_PEER_IDENTITY, 12) &&
		!put_cert(msg, 21, 22) &&
		!nla_put_u32(msg, HANDSHAKE_A_ACCEPT_PEER_IDENTITY, 13) &&
		!nla_put_string(msg, HANDSHAKE_A_ACCEPT_PEERNAME, "server.test") &&
		!nla_put_u32(msg, 99, 1);
	ret = built ? hsd_parse_accept(nlmsg_hdr(msg), &req) : -ENOMEM;
	result(!ret && req.fd == 7 && req.msg_type == HANDSHAKE_MSG_TYPE_CLIENTHELLO &&
	       req.auth_mode == HANDSHAKE_AUTH_PSK && req.timeout_ms == 5000 &&
	       req.num_peerids == 3 && req.peerids[0] == 11 && req.peerids[1] == 12 &&
	       req.peerids[2] == 13 && req.has_cert && req.cert == 21 && req.privkey == 22 &&
	       !strcmp(req.peername, "server.test"),
	       "ACCEPT reply: every attribute, identities in order, unknown ones skipped");
	nlmsg_free(msg);
}

static void test_accept_optional(void)
{
	struct nl_msg *msg = accept_msg(HANDSHAKE_CMD_ACCEPT);
	struct hsd_request req;
	int ret, i;

	ret = msg && !put_basics(msg, 0) ? hsd_parse_accept(nlmsg_hdr(msg), &req) : -ENOMEM;
	result(!ret && req.fd == 0 && !req.timeout_ms && !req.num_peerids && !req.has_cert &&
	       !req.cert && !req.privkey && !*req.peername,
	       "ACCEPT reply: the optional attributes absent");
	nlmsg_free(msg);

	msg = accept_msg(HANDSHAKE_CMD_ACCEPT);
	ret = msg && !put_basics(msg, 3) ? 0 : -ENOMEM;
	for (i = 1; !ret && i <= 7; i++)
		ret = nla_put_u32(msg, HANDSHAKE_A_ACCEPT_PEER_IDENTITY, (uint32_t)i);
	if (!ret)
		ret = hsd_parse_accept(nlmsg_hdr(msg), &req);
	result(!ret && req.num_peerids == HSD_MAX_PEERIDS && req.peerids[0] == 1 &&
	       req.peerids[4] == 5, "ACCEPT reply: seven identities, the first five kept");
	nlmsg_free(msg);

	msg = accept_msg(HANDSHAKE_CMD_ACCEPT);
	ret = msg && !put_basics(msg, 3) && !put_cert(msg, 0, 42) ?
	      hsd_parse_accept(nlmsg_hdr(msg), &req) : -ENOMEM;
	result(!ret && req.has_cert && !req.cert && req.privkey == 42,
	       "ACCEPT reply: a CERTIFICATE with only a private key");
	nlmsg_free(msg);
}

/* How a malformed reply is built: after the basics unless @bare. */
enum bad_kind {
	BAD_NO_SOCKFD, BAD_SOCKFD_SIZE, BAD_SOCKFD_NEGATIVE, BAD_TYPE_SIZE, BAD_IDENTITY_SIZE,
	BAD_CERT_SIZE, BAD_PEERNAME_NUL, BAD_PEERNAME_LONG, BAD_NO_AUTH_MODE, BAD_COMMAND,
};

static const struct accept_bad_case {
	const char *what;
	enum bad_kind kind;
	int ret;
	int fd;		/* what req.fd must be afterwards */
} accept_bad_cases[] = {
	{ "no SOCKFD", BAD_NO_SOCKFD, -EINVAL, -1 },
	{ "a 2-byte SOCKFD", BAD_SOCKFD_SIZE, -EINVAL, -1 },
	{ "a negative SOCKFD", BAD_SOCKFD_NEGATIVE, -EINVAL, -1 },
	{ "an 8-byte MESSAGE_TYPE (the socket still named)", BAD_TYPE_SIZE, -EINVAL, 9 },
	{ "a 2-byte PEER_IDENTITY", BAD_IDENTITY_SIZE, -EINVAL, 9 },
	{ "an 8-byte X509_CERT in CERTIFICATE", BAD_CERT_SIZE, -EINVAL, 9 },
	{ "a PEERNAME without NUL", BAD_PEERNAME_NUL, -EINVAL, 9 },
	{ "a PEERNAME of 300 bytes", BAD_PEERNAME_LONG, -ENAMETOOLONG, 9 },
	{ "no AUTH_MODE", BAD_NO_AUTH_MODE, -EINVAL, 9 },
	{ "another command", BAD_COMMAND, -EINVAL, -1 },
};

/* The attributes of a malformed reply of @kind. Returns 0 or -1. */
static int put_bad(struct nl_msg *msg, enum bad_kind kind)
{
	static const char raw[4] = { 'a', 'b', 'c', 'd' };
	uint64_t wide = 1;
	uint16_t narrow = 1;
	char longname[300];
	struct nlattr *nest;

	if (kind == BAD_NO_SOCKFD)
		return nla_put_u32(msg, HANDSHAKE_A_ACCEPT_MESSAGE_TYPE, 1) ||
		       nla_put_u32(msg, HANDSHAKE_A_ACCEPT_AUTH_MODE, 2);
	if (kind == BAD_SOCKFD_SIZE)
		return nla_put(msg, HANDSHAKE_A_ACCEPT_SOCKFD, sizeof(narrow), &narrow);
	if (kind == BAD_SOCKFD_NEGATIVE)
		return put_basics(msg, -3);
	if (kind == BAD_NO_AUTH_MODE)
		return nla_put_s32(msg, HANDSHAKE_A_ACCEPT_SOCKFD, 9) ||
		       nla_put_u32(msg, HANDSHAKE_A_ACCEPT_MESSAGE_TYPE, 1);
	if (put_basics(msg, 9))
		return -1;
	switch (kind) {
	case BAD_TYPE_SIZE:
		return nla_put(msg, HANDSHAKE_A_ACCEPT_MESSAGE_TYPE, sizeof(wide), &wide);
	case BAD_IDENTITY_SIZE:
		return nla_put(msg, HANDSHAKE_A_ACCEPT_PEER_IDENTITY, sizeof(narrow), &narrow);
	case BAD_CERT_SIZE:
		nest = nla_nest_start(msg, HANDSHAKE_A_ACCEPT_CERTIFICATE);
		if (!nest || nla_put(msg, HANDSHAKE_A_X509_CERT, sizeof(wide), &wide))
			return -1;
		return nla_nest_end(msg, nest);
	case BAD_PEERNAME_NUL:
		return nla_put(msg, HANDSHAKE_A_ACCEPT_PEERNAME, sizeof(raw), raw);
	case BAD_PEERNAME_LONG:
		memset(longname, 'n', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		return nla_put_string(msg, HANDSHAKE_A_ACCEPT_PEERNAME, longname);
	default:
		return 0;
	}
}

static void test_accept_bad(void)
{
	struct hsd_request req;
	struct nl_msg *msg;
	size_t i;
	int ret;

	for (i = 0; i < N(accept_bad_cases); i++) {
		const struct accept_bad_case *c = &accept_bad_cases[i];

		memset(&req, 0, sizeof(req));
		msg = accept_msg(c->kind == BAD_COMMAND ? HANDSHAKE_CMD_DONE :
			 HANDSHAKE_CMD_ACCEPT);
		ret = msg && !put_bad(msg, c->kind) ? hsd_parse_accept(nlmsg_hdr(msg), &req) :
		      -ENOMEM;
		result(ret == c->ret && req.fd == c->fd, "ACCEPT reply refused: %s (%d, fd %d)",
		       c->what, ret, req.fd);
		nlmsg_free(msg);
	}
}

static void test_accept_truncated(void)
{
	struct {
		struct nlmsghdr nlh;
		unsigned char genl[2];
	} m = { .nlh = { .nlmsg_len = NLMSG_HDRLEN + 2, .nlmsg_type = FAMILY } };
	struct hsd_request req;
	int ret;

	ret = hsd_parse_accept(&m.nlh, &req);
	result(ret == -EINVAL && req.fd == -1, "ACCEPT reply refused: shorter than its header");
}

/* ---- DONE requests ---- */

/* Read @msg back: STATUS, SOCKFD and the REMOTE_AUTH serials in order. */
static int read_done(struct nl_msg *msg, uint32_t *status, int32_t *fd, uint32_t *auth,
		     int *nauth)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh = nlmsg_data(nlh);
	struct nlattr *a;
	int rem, other = 0;

	if (nlh->nlmsg_type != FAMILY || gnlh->cmd != HANDSHAKE_CMD_DONE ||
	    gnlh->version != HANDSHAKE_FAMILY_VERSION)
		return -1;
	*nauth = 0;
	nla_for_each_attr(a, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_len(a) != 4)
			return -1;
		if (nla_type(a) == HANDSHAKE_A_DONE_STATUS)
			*status = nla_get_u32(a);
		else if (nla_type(a) == HANDSHAKE_A_DONE_SOCKFD)
			*fd = nla_get_s32(a);
		else if (nla_type(a) == HANDSHAKE_A_DONE_REMOTE_AUTH && *nauth < 4)
			auth[(*nauth)++] = nla_get_u32(a);
		else
			other++;
	}
	return other;
}

static void test_done(void)
{
	static const int32_t auth[] = { 0, 1234, 5678 };
	struct nl_msg *msg;
	uint32_t status = 99, got[4];
	int32_t fd = -1;
	int n = -1;

	msg = hsd_done_msg(FAMILY, 9, ENOKEY, auth, N(auth));
	result(msg && !read_done(msg, &status, &fd, got, &n) && status == ENOKEY && fd == 9 &&
	       n == 2 && got[0] == 1234 && got[1] == 5678,
	       "DONE: status, socket and the non-zero REMOTE_AUTH serials in order");
	nlmsg_free(msg);

	msg = hsd_done_msg(FAMILY, 0, 0, NULL, 0);
	status = 99;
	fd = -1;
	result(msg && !read_done(msg, &status, &fd, got, &n) && status == 0 && fd == 0 && !n,
	       "DONE: success without REMOTE_AUTH");
	nlmsg_free(msg);
}

/* ---- the bound on handshakes running at once ---- */

/* One request in the fake kernel queue: accept() returns @err with @fd. */
struct fake_req {
	int fd;
	int err;
};

/* The kernel's queue as hsd_admit_drain() sees it, and what it did. */
struct fake_queue {
	struct fake_req reqs[8];
	unsigned int n, next;		/* queued, taken */
	unsigned int accepts;		/* ACCEPT calls */
	int fail_start;			/* the fd whose child cannot be made */
	int started[8];
	unsigned int nstarted;
	int refused[8];			/* fds completed at once */
	uint32_t refused_status[8];	/* with the status their DONE carried */
	unsigned int nrefused;
};

static int fake_accept(void *ctx, struct hsd_request *req)
{
	struct fake_queue *q = ctx;
	const struct fake_req *r;

	memset(req, 0, sizeof(*req));
	req->fd = -1;
	q->accepts++;
	if (q->next == q->n)
		return -EAGAIN;
	r = &q->reqs[q->next++];
	req->fd = r->fd;
	return r->err;
}

static int fake_start(void *ctx, const struct hsd_request *req)
{
	struct fake_queue *q = ctx;

	if (req->fd == q->fail_start)
		return -EAGAIN;
	q->started[q->nstarted++] = req->fd;
	return 0;
}

/* The daemon's way: a DONE message for the request; read it back. */
static void fake_refuse(void *ctx, const struct hsd_request *req, int err)
{
	struct nl_msg *msg = hsd_done_msg(FAMILY, req->fd, hsd_done_status(err), NULL, 0);
	struct fake_queue *q = ctx;
	uint32_t status = 0, auth[4];
	int32_t fd = -1;
	int nauth;

	if (msg && !read_done(msg, &status, &fd, auth, &nauth)) {
		q->refused[q->nrefused] = fd;
		q->refused_status[q->nrefused++] = status;
	}
	nlmsg_free(msg);
}

static const struct hsd_admit_ops fake_ops = {
	.accept	= fake_accept,
	.start	= fake_start,
	.refuse	= fake_refuse,
};

static void test_admit_burst(void)
{
	struct fake_queue q = { .n = 5, .fail_start = -1 };
	struct hsd_admit a = { .max = 3 };
	unsigned int i;
	int ret;

	for (i = 0; i < q.n; i++)
		q.reqs[i].fd = 10 + (int)i;
	ret = hsd_admit_drain(&a, &fake_ops, &q);
	result(!ret && q.nstarted == 3 && q.started[0] == 10 && q.started[2] == 12 &&
	       a.running == 3 && a.backlog && !q.nrefused,
	       "bound 3, 5 requests: 3 children started, the bound noted (%u started)",
	       q.nstarted);
	result(q.accepts == 3 && q.next == 3,
	       "bound 3: no ACCEPT beyond the bound, 2 requests left in the kernel (%u ACCEPTs)",
	       q.accepts);

	ret = hsd_admit_drain(&a, &fake_ops, &q);
	result(!ret && q.accepts == 3 && q.nstarted == 3,
	       "bound 3: a READY at the bound accepts nothing");

	result(hsd_admit_ended(&a, 1), "bound 3: a child ending while requests wait asks to drain");
	ret = hsd_admit_drain(&a, &fake_ops, &q);
	result(!ret && q.nstarted == 4 && q.started[3] == 13 && a.running == 3 && a.backlog &&
	       q.accepts == 4, "bound 3: the freed room takes the next waiting request");

	result(hsd_admit_ended(&a, 3) && a.running == 0, "bound 3: three more end");
	ret = hsd_admit_drain(&a, &fake_ops, &q);
	result(!ret && q.nstarted == 5 && q.started[4] == 14 && a.running == 1 && !a.backlog &&
	       q.accepts == 6 && !q.nrefused,
	       "bound 3: the last request started, the empty queue clears the backlog");

	result(!hsd_admit_ended(&a, 5) && a.running == 0,
	       "bound 3: ends with nothing waiting ask for nothing, the count stops at 0");
}

static void test_admit_refusals(void)
{
	struct fake_queue q = { .n = 4, .fail_start = 21 };
	struct hsd_admit a = { .max = 1 };
	int ret;

	q.reqs[0] = (struct fake_req){ .fd = 20, .err = -EINVAL };	/* malformed */
	q.reqs[1] = (struct fake_req){ .fd = 21 };			/* no process */
	q.reqs[2] = (struct fake_req){ .fd = 22 };
	q.reqs[3] = (struct fake_req){ .fd = 23 };
	ret = hsd_admit_drain(&a, &fake_ops, &q);
	result(!ret && q.nrefused == 2 && q.refused[0] == 20 && q.refused_status[0] == EINVAL &&
	       q.refused[1] == 21 && q.refused_status[1] == EAGAIN,
	       "a malformed request and one without a child get a failed DONE (%u refused)",
	       q.nrefused);
	result(q.nstarted == 1 && q.started[0] == 22 && a.running == 1 && a.backlog &&
	       q.next == 3, "refused requests take no room: the next one starts, one waits");

	q = (struct fake_queue){ .n = 2, .fail_start = -1 };
	q.reqs[0] = (struct fake_req){ .fd = -1, .err = -EPERM };
	q.reqs[1] = (struct fake_req){ .fd = 30 };
	a = (struct hsd_admit){ .max = 4 };
	ret = hsd_admit_drain(&a, &fake_ops, &q);
	result(ret == -EPERM && !q.nstarted && !q.nrefused && !a.running,
	       "a failed ACCEPT stops the loop with its error");
}

int test_hsd_count(void)
{
	return 3 + 2 + N(conf_bad_cases) + 4 + N(timeout_cases) + N(max_children_cases) +
	       N(identity_cases) + 5 + N(psk_bad_cases) + 6 + 2 + 1 + 3 + N(accept_bad_cases) +
	       1 + 2 + 8 + 3;
}

void test_hsd(void)
{
	test_conf_good();
	test_conf_line_limit();
	test_conf_bad();
	test_conf_merge();
	test_timeouts();
	test_max_children();
	test_identities();
	test_psk_format();
	test_psk_bad();
	test_addresses();
	test_statuses();
	test_accept_all();
	test_accept_optional();
	test_accept_bad();
	test_accept_truncated();
	test_done();
	test_admit_burst();
	test_admit_refusals();
}
