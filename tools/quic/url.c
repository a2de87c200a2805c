// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text the tools take from users and peers: https URLs, ADDR:PORT pairs,
 * and request targets that name files below a served directory. Nothing
 * here does I/O, so tests/test_url.c checks it on the host.
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common.h"

/* Copy @len bytes of @src into @dst (room @size) as a string. */
static int copy_span(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(dst, src, len);
	dst[len] = '\0';
	return 0;
}

/* A decimal port 1..65535 of exactly @len characters. */
static int parse_port(const char *s, size_t len, uint16_t *port)
{
	unsigned long v = 0;
	size_t i;

	if (!len || len > 5)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (!v || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

/* An IPv6 literal, optionally with a "%zone" suffix. */
static bool valid_v6(const char *host)
{
	char buf[INET6_ADDRSTRLEN + 1];
	struct in6_addr a;
	const char *zone = strchr(host, '%');
	size_t len = zone ? (size_t)(zone - host) : strlen(host);

	if (len >= sizeof(buf) || (zone && !zone[1]))
		return false;
	memcpy(buf, host, len);
	buf[len] = '\0';
	return inet_pton(AF_INET6, buf, &a) == 1;
}

/* A host name or IPv4 literal: letters, digits, '-', '.', '_'. */
static bool valid_name(const char *host)
{
	const char *p;

	if (!*host)
		return false;
	for (p = host; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.' && *p != '_')
			return false;
	return true;
}

/*
 * Split "host:port", "[v6]:port" (or, with @need_port false, the same
 * without ":port") of length @len. Returns 0 or -EINVAL.
 */
static int split_hostport(const char *s, size_t len, char *host, size_t hostlen,
			  uint16_t *port, bool need_port, bool *bracketed)
{
	const char *end = s + len, *colon;
	int ret;

	*port = 0;
	*bracketed = false;
	if (len && *s == '[') {
		const char *close = memchr(s, ']', len);

		if (!close)
			return -EINVAL;
		ret = copy_span(host, hostlen, s + 1, (size_t)(close - s - 1));
		if (ret)
			return -EINVAL;
		if (!valid_v6(host))
			return -EINVAL;
		*bracketed = true;
		colon = close + 1;
		if (colon == end)
			return need_port ? -EINVAL : 0;
		if (*colon != ':')
			return -EINVAL;
		return parse_port(colon + 1, (size_t)(end - colon - 1), port);
	}
	colon = memchr(s, ':', len);
	if (colon && memchr(colon + 1, ':', (size_t)(end - colon - 1)))
		return -EINVAL;	/* a bare IPv6 address needs brackets */
	ret = copy_span(host, hostlen, s, colon ? (size_t)(colon - s) : len);
	if (ret)
		return -EINVAL;
	if (!colon)
		return need_port ? -EINVAL : 0;
	return parse_port(colon + 1, (size_t)(end - colon - 1), port);
}

/**
 * qt_url_parse - split an https URL
 * @url: "https://HOST[:PORT][/path][?query][#fragment]"
 * @u: the parts; the fragment is dropped, the port defaults to 443
 *
 * HOST is a name, an IPv4 literal or a bracketed IPv6 literal. User
 * information, other schemes, spaces and control characters are refused.
 *
 * Return: 0 or -EINVAL.
 */
int qt_url_parse(const char *url, struct qt_url *u)
{
	static const char scheme[] = "https://";
	const char *auth, *p, *frag;
	uint16_t port;
	size_t alen, plen;
	bool br;

	memset(u, 0, sizeof(*u));
	if (strncasecmp(url, scheme, sizeof(scheme) - 1))
		return -EINVAL;
	auth = url + sizeof(scheme) - 1;
	alen = strcspn(auth, "/?#");
	if (!alen || memchr(auth, '@', alen))
		return -EINVAL;
	if (split_hostport(auth, alen, u->host, sizeof(u->host), &port, false, &br))
		return -EINVAL;
	if (!br && !valid_name(u->host))
		return -EINVAL;
	if (copy_span(u->authority, sizeof(u->authority), auth, alen))
		return -EINVAL;
	snprintf(u->port, sizeof(u->port), "%u", port ? port : 443);

	p = auth + alen;
	frag = strchr(p, '#');
	plen = frag ? (size_t)(frag - p) : strlen(p);
	if (!plen) {
		strcpy(u->path, "/");
	} else if (*p == '?') {
		u->path[0] = '/';
		if (copy_span(u->path + 1, sizeof(u->path) - 1, p, plen))
			return -EINVAL;
	} else if (copy_span(u->path, sizeof(u->path), p, plen)) {
		return -EINVAL;
	}
	for (p = u->path; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return -EINVAL;
	return 0;
}

/**
 * qt_hostport_parse - split a listening address
 * @s: "ADDR:PORT" or "[V6ADDR]:PORT"; ADDR may be empty or "*" for any
 * @host: the address without brackets ("" for any)
 * @hostlen: room at @host
 * @port: the port, 1..65535
 *
 * Return: 0 or -EINVAL.
 */
int qt_hostport_parse(const char *s, char *host, size_t hostlen, uint16_t *port)
{
	bool br;

	if (split_hostport(s, strlen(s), host, hostlen, port, true, &br))
		return -EINVAL;
	if (!br && !strcmp(host, "*"))
		host[0] = '\0';
	if (!br && *host && !valid_name(host))
		return -EINVAL;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Percent-decode @len bytes of @s into @out (room @size, NUL added).
 * Returns the decoded length, or -EINVAL for a bad escape, a NUL or a
 * control character, -ENAMETOOLONG when it does not fit.
 */
static int pct_decode(const char *s, size_t len, char *out, size_t size)
{
	size_t i, n = 0;
	int hi, lo, c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == '%') {
			if (i + 2 >= len)	/* needs two hex digits */
				return -EINVAL;
			hi = hexval(s[i + 1]);
			lo = hexval(s[i + 2]);
			if (hi < 0 || lo < 0)
				return -EINVAL;
			c = hi << 4 | lo;
			i += 2;
		}
		if (c < 0x20 || c == 0x7f)
			return -EINVAL;
		if (n + 1 >= size)
			return -ENAMETOOLONG;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return (int)n;
}

/**
 * qt_path_sanitize - the file a request target names below the served root
 * @target: the request target: "/dir/file", maybe with "?query"
 * @out: the relative path to open below the root ("dir/file")
 * @outlen: room at @out
 *
 * The query and fragment are dropped, escapes decoded, empty and "."
 * segments removed; "/" names "index.html". A ".." segment anywhere is
 * refused outright rather than resolved, so nothing can climb out of the
 * root (the server also opens with RESOLVE_BENEATH, which catches
 * symbolic links).
 *
 * Return: 0; -EINVAL for a target that is not an absolute path or has a
 * bad escape, NUL or control character; -EACCES for a ".." segment;
 * -ENAMETOOLONG.
 */
int qt_path_sanitize(const char *target, char *out, size_t outlen)
{
	char dec[QT_PATH_MAX], *seg, *save = NULL;
	size_t n = 0, len;
	int ret;

	if (!outlen)
		return -ENAMETOOLONG;
	if (*target != '/')
		return -EINVAL;
	ret = pct_decode(target, strcspn(target, "?#"), dec, sizeof(dec));
	if (ret < 0)
		return ret;
	out[0] = '\0';
	for (seg = strtok_r(dec, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
		if (!strcmp(seg, "."))
			continue;
		if (!strcmp(seg, ".."))
			return -EACCES;
		len = strlen(seg);
		if (n + !!n + len >= outlen)
			return -ENAMETOOLONG;
		if (n)
			out[n++] = '/';
		memcpy(out + n, seg, len + 1);
		n += len;
	}
	if (!n) {
		if (outlen <= strlen("index.html"))
			return -ENAMETOOLONG;
		strcpy(out, "index.html");
	}
	return 0;
}

/**
 * qt_path_basename - the local file name a client saves a response under
 * @target: the request target ("/dir/file.bin?x")
 * @out: its last segment, decoded ("file.bin"); "index.html" for a target
 *	ending in '/'
 * @outlen: room at @out
 *
 * Return: 0, or -EINVAL when that segment is "." or "..", decodes to
 * something holding '/', a NUL or a control character; -ENAMETOOLONG.
 */
int qt_path_basename(const char *target, char *out, size_t outlen)
{
	size_t len = strcspn(target, "?#");
	const char *last = target + len;
	int ret;

	while (last > target && last[-1] != '/')
		last--;
	if (last == target + len) {
		if (outlen <= strlen("index.html"))
			return -ENAMETOOLONG;
		strcpy(out, "index.html");
		return 0;
	}
	ret = pct_decode(last, (size_t)(target + len - last), out, outlen);
	if (ret < 0)
		return ret;
	if (strchr(out, '/') || !strcmp(out, ".") || !strcmp(out, ".."))
		return -EINVAL;
	return 0;
}
