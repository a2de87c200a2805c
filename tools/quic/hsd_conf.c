// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quic-handshaked: the parts that need neither the kernel nor a key,
 * kept free of I/O so that the host tests can reach every branch: the
 * config file, the timeout option, the PSK identity in a key's
 * description, the line handed to libquic as a PSK file, and the small
 * conversions of the request log line.
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "handshake_nl.h"
#include "hsd.h"

/*
 * A number from 1 to @max: decimal digits only. Returns 0 with *@v set,
 * or -EINVAL.
 */
static int parse_count(const char *s, unsigned long max, unsigned int *v)
{
	unsigned long n = 0;
	const char *p;

	if (!*s)
		return -EINVAL;
	for (p = s; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		n = n * 10 + (unsigned long)(*p - '0');
		if (n > max)
			return -EINVAL;
	}
	if (!n)
		return -EINVAL;
	*v = (unsigned int)n;
	return 0;
}

/*
 * A timeout in milliseconds: decimal digits only, 1 to a day. Returns 0
 * with *@ms set, or -EINVAL.
 */
int hsd_parse_timeout(const char *s, unsigned int *ms)
{
	return parse_count(s, HSD_MAX_TIMEOUT_MS, ms);
}

/*
 * How many handshakes may run at once: 1 to HSD_MAX_CHILDREN_LIMIT.
 * Returns 0 with *@n set, or -EINVAL.
 */
int hsd_parse_max_children(const char *s, unsigned int *n)
{
	return parse_count(s, HSD_MAX_CHILDREN_LIMIT, n);
}

/* @s without the white space at either end (@s is changed). */
static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Replace the string *@slot by a copy of @val. Returns 0 or -ENOMEM. */
static int set_string(char **slot, const char *val)
{
	char *copy = strdup(val);

	if (!copy)
		return -ENOMEM;
	free(*slot);
	*slot = copy;
	return 0;
}

/* Apply "@key = @val" to @o. Returns 0, -ENOENT (unknown key) or -errno. */
static int conf_set(struct hsd_opts *o, const char *key, const char *val)
{
	if (!strcmp(key, "cert"))
		return set_string(&o->cert, val);
	if (!strcmp(key, "key"))
		return set_string(&o->key, val);
	if (!strcmp(key, "ca"))
		return set_string(&o->ca, val);
	if (!strcmp(key, "timeout"))
		return hsd_parse_timeout(val, &o->timeout_ms);
	if (!strcmp(key, "max-children"))
		return hsd_parse_max_children(val, &o->max_children);
	return -ENOENT;
}

/* One line of the config file, without its newline. */
static int conf_line(char *line, unsigned int n, struct hsd_opts *o, char *err, size_t errlen)
{
	char *key, *val, *eq;
	int ret;

	key = trim(line);
	if (!*key || *key == '#')
		return 0;
	eq = strchr(key, '=');
	if (!eq) {
		snprintf(err, errlen, "line %u: not 'key = value'", n);
		return -EINVAL;
	}
	*eq = '\0';
	key = trim(key);
	val = trim(eq + 1);
	if (!*key || !*val) {
		snprintf(err, errlen, "line %u: empty %s", n, *key ? "value" : "key");
		return -EINVAL;
	}
	ret = conf_set(o, key, val);
	if (ret == -ENOENT)
		snprintf(err, errlen,
			 "line %u: unknown key '%s' (cert, key, ca, timeout, max-children)",
			 n, key);
	else if (ret == -EINVAL && !strcmp(key, "max-children"))
		snprintf(err, errlen, "line %u: max-children: from 1 to %u, not '%s'", n,
			 HSD_MAX_CHILDREN_LIMIT, val);
	else if (ret == -EINVAL)
		snprintf(err, errlen, "line %u: timeout: milliseconds from 1 to %u, not '%s'", n,
			 HSD_MAX_TIMEOUT_MS, val);
	else if (ret)
		snprintf(err, errlen, "line %u: %s", n, strerror(-ret));
	return ret ? -EINVAL : 0;
}

/*
 * Read a config file: "key = value" lines (keys cert, key, ca, timeout,
 * max-children),
 * blank lines, and comment lines starting with '#'. A '#' after a value
 * belongs to the value (file names may hold one). A later line for the
 * same key wins. Values go into @o, which may already hold some.
 * Returns 0, or -EINVAL with a message naming the line in @err.
 */
int hsd_conf_parse(FILE *f, struct hsd_opts *o, char *err, size_t errlen)
{
	char line[HSD_CONF_LINE_MAX + 1];
	unsigned int n = 0;
	size_t len;

	while (fgets(line, sizeof(line), f)) {
		n++;
		len = strlen(line);
		if (len && line[len - 1] == '\n') {
			line[len - 1] = '\0';
		} else if (getc(f) != EOF) {
			snprintf(err, errlen, "line %u: longer than %d bytes", n,
				 HSD_CONF_LINE_MAX - 1);
			return -EINVAL;
		}
		if (conf_line(line, n, o, err, errlen))
			return -EINVAL;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "read error");
		return -EINVAL;
	}
	return 0;
}

/*
 * What @over sets replaces what @base has (the command line over the
 * config file). Strings move from @over to @base.
 */
void hsd_opts_merge(struct hsd_opts *base, struct hsd_opts *over)
{
	char **b[] = { &base->cert, &base->key, &base->ca };
	char **v[] = { &over->cert, &over->key, &over->ca };
	size_t i;

	for (i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		if (!*v[i])
			continue;
		free(*b[i]);
		*b[i] = *v[i];
		*v[i] = NULL;
	}
	if (over->timeout_ms)
		base->timeout_ms = over->timeout_ms;
	if (over->max_children)
		base->max_children = over->max_children;
}

void hsd_opts_free(struct hsd_opts *o)
{
	free(o->cert);
	free(o->key);
	free(o->ca);
	memset(o, 0, sizeof(*o));
}

/*
 * The description of a key, from what keyctl_describe_alloc() returns:
 * "type;uid;gid;perm;description". The kernel writes exactly four
 * separators before the description, which may itself hold ';', so
 * everything after the fourth is the description. For a PSK it is the
 * identity. Returns a pointer into @desc, or NULL when a field is empty
 * or missing.
 */
const char *hsd_key_identity(const char *desc)
{
	const char *p = desc, *sep;
	int i;

	for (i = 0; i < 4; i++) {
		sep = strchr(p, ';');
		if (!sep || sep == p)
			return NULL;
		p = sep + 1;
	}
	return *p ? p : NULL;
}

/*
 * Can libquic's PSK file carry @identity? Its lines are "identity:hex";
 * the first ':' ends the identity, '#' starts a comment line and white
 * space at the end of a line is dropped.
 */
static bool psk_identity_ok(const char *identity)
{
	size_t len = strlen(identity);

	return len && *identity != '#' && identity[len - 1] != ' ' &&
	       !strpbrk(identity, ":\r\n");
}

/*
 * Write the PSK file line "identity:hexkey\n" (GnuTLS psktool's format,
 * which quic_client_handshake() and quic_server_handshake() read) into
 * @buf, NUL-terminated. Returns its length, -EINVAL for an identity the
 * format cannot carry or an empty key, or -ENOSPC.
 */
ssize_t hsd_psk_format(char *buf, size_t size, const char *identity,
		       const unsigned char *key, size_t keylen)
{
	static const char hex[] = "0123456789abcdef";
	size_t idlen = strlen(identity), i;
	char *p;

	if (!psk_identity_ok(identity) || !keylen)
		return -EINVAL;
	if (size < 3 || keylen > (size - 3) / 2 || idlen > size - 3 - 2 * keylen)
		return -ENOSPC;
	memcpy(buf, identity, idlen);
	p = buf + idlen;
	*p++ = ':';
	for (i = 0; i < keylen; i++) {
		*p++ = hex[key[i] >> 4];
		*p++ = hex[key[i] & 0xf];
	}
	*p++ = '\n';
	*p = '\0';
	return p - buf;
}

/*
 * The numeric address of @sa for messages and for matching a server's
 * certificate: IPv6 without brackets, an IPv4-mapped IPv6 address as
 * IPv4 (what a certificate lists). Returns 0, -EAFNOSUPPORT, -EINVAL
 * (@len too short) or -ENOSPC.
 */
int hsd_addr_string(const struct sockaddr *sa, socklen_t len, char *buf, size_t size)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)sa;
	const void *addr;
	int af;

	if (len < (socklen_t)sizeof(sa->sa_family))
		return -EINVAL;
	if (sa->sa_family == AF_INET) {
		if (len < (socklen_t)sizeof(*sin))
			return -EINVAL;
		af = AF_INET;
		addr = &sin->sin_addr;
	} else if (sa->sa_family == AF_INET6) {
		if (len < (socklen_t)sizeof(*sin6))
			return -EINVAL;
		af = AF_INET6;
		addr = &sin6->sin6_addr;
		if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
			af = AF_INET;
			addr = &sin6->sin6_addr.s6_addr[12];
		}
	} else {
		return -EAFNOSUPPORT;
	}
	return inet_ntop(af, addr, buf, (socklen_t)size) ? 0 : -ENOSPC;
}

/*
 * The DONE status for what libquic returned (0 or a negative errno): the
 * positive errno, which the kernel negates. What the kernel's policy
 * would refuse (anything else) becomes EIO.
 */
unsigned int hsd_done_status(int ret)
{
	if (!ret)
		return 0;
	if (ret < 0 && ret >= -HANDSHAKE_DONE_STATUS_MAX)
		return (unsigned int)-ret;
	return EIO;
}

const char *hsd_msg_type_name(unsigned int type)
{
	switch (type) {
	case HANDSHAKE_MSG_TYPE_CLIENTHELLO:
		return "client";
	case HANDSHAKE_MSG_TYPE_SERVERHELLO:
		return "server";
	}
	return "unknown-type";
}

const char *hsd_auth_mode_name(unsigned int mode)
{
	switch (mode) {
	case HANDSHAKE_AUTH_UNAUTH:
		return "unauth";
	case HANDSHAKE_AUTH_PSK:
		return "psk";
	case HANDSHAKE_AUTH_X509:
		return "x509";
	}
	return "unknown-auth";
}
