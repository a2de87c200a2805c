// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host tests of url.c: URL parsing, listening addresses, the file a
 * request target names below the served root (path traversal refused),
 * and the name a client saves a response under.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "tests.h"

static const struct url_case {
	const char *url;
	int ret;
	const char *host, *port, *authority, *path;
} url_cases[] = {
	{ "https://example.com/file.bin", 0, "example.com", "443", "example.com", "/file.bin" },
	{ "https://server:4433/a/b?x=1#frag", 0, "server", "4433", "server:4433", "/a/b?x=1" },
	{ "HTTPS://Host.Test", 0, "Host.Test", "443", "Host.Test", "/" },
	{ "https://10.0.2.2:443/", 0, "10.0.2.2", "443", "10.0.2.2:443", "/" },
	{ "https://[::1]:8443/x", 0, "::1", "8443", "[::1]:8443", "/x" },
	{ "https://[2001:db8::5]/y", 0, "2001:db8::5", "443", "[2001:db8::5]", "/y" },
	{ "https://[fe80::1%eth0]:443/z", 0, "fe80::1%eth0", "443", "[fe80::1%eth0]:443", "/z" },
	{ "https://h?q", 0, "h", "443", "h", "/?q" },
	{ "http://example.com/", -EINVAL, NULL, NULL, NULL, NULL },
	{ "example.com/file", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https:///path", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://user@host/", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://host:/x", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://host:0/x", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://host:65536/x", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://host:44a/x", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://::1/x", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://[::1/x", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://[::1]x/", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://[not-v6]/", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://ho st/", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://host/a b", -EINVAL, NULL, NULL, NULL, NULL },
	{ "https://host/a\tb", -EINVAL, NULL, NULL, NULL, NULL },
};

static void test_urls(void)
{
	struct qt_url u;
	size_t i;
	bool ok;
	int ret;

	for (i = 0; i < sizeof(url_cases) / sizeof(url_cases[0]); i++) {
		const struct url_case *c = &url_cases[i];

		ret = qt_url_parse(c->url, &u);
		ok = ret == c->ret;
		if (ok && !ret)
			ok = !strcmp(u.host, c->host) && !strcmp(u.port, c->port) &&
			     !strcmp(u.authority, c->authority) && !strcmp(u.path, c->path);
		if (!ok)
			printf("# got %d host \"%s\" port \"%s\" authority \"%s\" path \"%s\"\n",
			       ret, u.host, u.port, u.authority, u.path);
		result(ok, "%s: \"%s\"", c->ret ? "URL refused" : "URL parsed", c->url);
	}
}

static const struct hostport_case {
	const char *in;
	int ret;
	const char *host;
	uint16_t port;
} hostport_cases[] = {
	{ "0.0.0.0:443", 0, "0.0.0.0", 443 },
	{ "[::]:4433", 0, "::", 4433 },
	{ "127.0.0.1:1", 0, "127.0.0.1", 1 },
	{ ":443", 0, "", 443 },
	{ "*:443", 0, "", 443 },
	{ "[::1]", -EINVAL, NULL, 0 },
	{ "0.0.0.0", -EINVAL, NULL, 0 },
	{ "0.0.0.0:", -EINVAL, NULL, 0 },
	{ "0.0.0.0:99999", -EINVAL, NULL, 0 },
	{ ":::443", -EINVAL, NULL, 0 },
	{ "[::1]:x", -EINVAL, NULL, 0 },
};

static void test_hostports(void)
{
	char host[QT_HOST_MAX];
	uint16_t port = 0;
	size_t i;
	bool ok;
	int ret;

	for (i = 0; i < sizeof(hostport_cases) / sizeof(hostport_cases[0]); i++) {
		const struct hostport_case *c = &hostport_cases[i];

		host[0] = '\0';
		ret = qt_hostport_parse(c->in, host, sizeof(host), &port);
		ok = ret == c->ret && (ret || (!strcmp(host, c->host) && port == c->port));
		result(ok, "listen address %s: \"%s\"", c->ret ? "refused" : "parsed", c->in);
	}
}

static const struct path_case {
	const char *target;
	int ret;
	const char *rel;
} path_cases[] = {
	{ "/file.bin", 0, "file.bin" },
	{ "/dir/sub/file", 0, "dir/sub/file" },
	{ "//dir///file", 0, "dir/file" },
	{ "/./dir/./file", 0, "dir/file" },
	{ "/file.bin?download=1", 0, "file.bin" },
	{ "/file.bin#top", 0, "file.bin" },
	{ "/", 0, "index.html" },
	{ "/dir/", 0, "dir" },
	{ "/with%20space", 0, "with space" },
	{ "/..file", 0, "..file" },
	{ "/file..", 0, "file.." },
	{ "/.hidden", 0, ".hidden" },
	{ "/../etc/passwd", -EACCES, NULL },
	{ "/dir/../../etc/passwd", -EACCES, NULL },
	{ "/dir/..", -EACCES, NULL },
	{ "/%2e%2e/etc/passwd", -EACCES, NULL },
	{ "/%2E%2e%2fetc%2fpasswd", -EACCES, NULL },
	{ "/..%2fetc", -EACCES, NULL },
	{ "/dir/..?x", -EACCES, NULL },
	{ "etc/passwd", -EINVAL, NULL },
	{ "", -EINVAL, NULL },
	{ "../x", -EINVAL, NULL },
	{ "/nul%00byte", -EINVAL, NULL },
	{ "/bad%zzescape", -EINVAL, NULL },
	{ "/short%2", -EINVAL, NULL },
	{ "/short%", -EINVAL, NULL },
	{ "/ctl%0a", -EINVAL, NULL },
};

static void test_paths(void)
{
	char rel[QT_PATH_MAX], small[8];
	char longpath[QT_PATH_MAX + 10];
	size_t i;
	bool ok;
	int ret;

	for (i = 0; i < sizeof(path_cases) / sizeof(path_cases[0]); i++) {
		const struct path_case *c = &path_cases[i];

		ret = qt_path_sanitize(c->target, rel, sizeof(rel));
		ok = ret == c->ret && (ret || !strcmp(rel, c->rel));
		if (!ok)
			printf("# got %d \"%s\"\n", ret, ret ? "" : rel);
		result(ok, "%s: \"%s\"", c->ret == -EACCES ? "traversal refused" :
		       c->ret ? "bad target refused" : "target sanitised", c->target);
	}
	result(qt_path_sanitize("/abcdefgh", small, sizeof(small)) == -ENAMETOOLONG,
	       "a result longer than the buffer is -ENAMETOOLONG");
	result(qt_path_sanitize("/abcdefg", small, sizeof(small)) == 0 &&
	       !strcmp(small, "abcdefg"), "a result filling the buffer exactly fits");
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	result(qt_path_sanitize(longpath, rel, sizeof(rel)) == -ENAMETOOLONG,
	       "an over-long target is -ENAMETOOLONG");
}

static const struct base_case {
	const char *target;
	int ret;
	const char *name;
} base_cases[] = {
	{ "/file.bin", 0, "file.bin" },
	{ "/a/b/c.txt", 0, "c.txt" },
	{ "/a/b/c.txt?x=/y", 0, "c.txt" },
	{ "/", 0, "index.html" },
	{ "/dir/", 0, "index.html" },
	{ "/sp%20ace", 0, "sp ace" },
	{ "/a/..", -EINVAL, NULL },
	{ "/a/.", -EINVAL, NULL },
	{ "/a%2fb", -EINVAL, NULL },
	{ "/x%00", -EINVAL, NULL },
	{ "/x%2", -EINVAL, NULL },
};

static void test_basenames(void)
{
	char name[QT_PATH_MAX];
	size_t i;
	bool ok;
	int ret;

	for (i = 0; i < sizeof(base_cases) / sizeof(base_cases[0]); i++) {
		const struct base_case *c = &base_cases[i];

		ret = qt_path_basename(c->target, name, sizeof(name));
		ok = ret == c->ret && (ret || !strcmp(name, c->name));
		if (!ok)
			printf("# got %d \"%s\"\n", ret, ret ? "" : name);
		result(ok, "output name %s: \"%s\"", c->ret ? "refused" : "made", c->target);
	}
}

/* How many results test_url() reports. */
int test_url_count(void)
{
	return (int)(sizeof(url_cases) / sizeof(url_cases[0]) +
		     sizeof(hostport_cases) / sizeof(hostport_cases[0]) +
		     sizeof(path_cases) / sizeof(path_cases[0]) + 3 +
		     sizeof(base_cases) / sizeof(base_cases[0]));
}

void test_url(void)
{
	test_urls();
	test_hostports();
	test_paths();
	test_basenames();
}
