// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The net.quic sysctls: quic_mem (pages), quic_rmem and quic_wmem (bytes)
 * each hold a minimum, a default and a maximum. They exist once the module
 * is loaded, read back what was written, refuse garbage (EINVAL, old value
 * kept: net/quic/protocol.c only commits three positive, ordered numbers),
 * and new sockets take their buffer sizes from the rmem/wmem defaults.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"
#include "util.h"

struct knob {
	const char *name;
	const char *value;	/* a valid triple to write */
};

static const struct knob knobs[] = {
	{ "quic_mem", "12288 16384 24576" },
	{ "quic_rmem", "4096 131072 6291456" },
	{ "quic_wmem", "8192 32768 4194304" },
};

/* Each is refused whole, whatever part of it was well-formed. */
static const char *const garbage[] = {
	"abc",			/* not a number */
	"300000 200000 100000",	/* not ordered */
	"0 4096 8192",		/* zero minimum */
	"-1 4096 8192",		/* negative */
	"4096 8192 12x",	/* trailing junk in the last number */
};

static int path_of(char *path, size_t size, const char *name)
{
	return snprintf(path, size, "/proc/sys/net/quic/%s", name);
}

static int read_triple(const char *name, long long v[3])
{
	char path[128], buf[128];

	path_of(path, sizeof(path), name);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return sscanf(buf, "%lld %lld %lld", &v[0], &v[1], &v[2]) == 3 ? 0 : -1;
}

static bool same(const long long a[3], const long long b[3])
{
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static int sock_buf(int name)
{
	socklen_t len = sizeof(int);
	int fd, v = -1;

	fd = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);
	if (fd < 0)
		return -1;
	if (getsockopt(fd, SOL_SOCKET, name, &v, &len))
		v = -1;
	close(fd);
	return v;
}

int main(void)
{
	long long orig[3][3], v[3], want[3];
	char path[128], str[96];
	unsigned int i, g;
	int fd, ret;

	ktap_plan(ARRAY_SIZE(knobs) * (3 + ARRAY_SIZE(garbage)) + 2);

	/* The sysctls are registered by the module. */
	fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	if (fd >= 0)
		close(fd);

	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		ret = read_triple(knobs[i].name, orig[i]);
		ktap_result(!ret && orig[i][0] > 0 && orig[i][0] <= orig[i][1] &&
			    orig[i][1] <= orig[i][2],
			    "net.quic.%s exists and holds min <= default <= max", knobs[i].name);

		path_of(path, sizeof(path), knobs[i].name);
		ret = write_file(path, knobs[i].value);
		if (ret)
			ktap_diag("write \"%s\": %s", knobs[i].value, errno_name(-ret));
		if (sscanf(knobs[i].value, "%lld %lld %lld", &want[0], &want[1], &want[2]) != 3)
			return 2;
		ktap_result(!ret && !read_triple(knobs[i].name, v) && same(v, want),
			    "net.quic.%s reads back \"%s\"", knobs[i].name, knobs[i].value);

		for (g = 0; g < ARRAY_SIZE(garbage); g++) {
			ret = write_file(path, garbage[g]);
			if (ret != -EINVAL)
				ktap_diag("write returned %s, expected EINVAL",
					  ret ? errno_name(-ret) : "success");
			ktap_result(ret == -EINVAL && !read_triple(knobs[i].name, v) &&
				    same(v, want),
				    "net.quic.%s refuses \"%s\" and keeps its value",
				    knobs[i].name, garbage[g]);
		}
	}

	/* New sockets start with the defaults just written (quic_init_sock()). */
	ret = sock_buf(SO_RCVBUF);
	ktap_result(ret == 131072, "a new socket's SO_RCVBUF is the quic_rmem default (%d)", ret);
	ret = sock_buf(SO_SNDBUF);
	ktap_result(ret == 32768, "a new socket's SO_SNDBUF is the quic_wmem default (%d)", ret);

	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		path_of(path, sizeof(path), knobs[i].name);
		snprintf(str, sizeof(str), "%lld %lld %lld", orig[i][0], orig[i][1], orig[i][2]);
		ret = write_file(path, str);
		ktap_result(!ret && !read_triple(knobs[i].name, v) && same(v, orig[i]),
			    "net.quic.%s restored", knobs[i].name);
	}
	return ktap_finish();
}
