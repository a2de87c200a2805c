// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/net/quic/snmp: one "name value" line per counter of the upstream
 * series (net/quic/protocol.c, quic_snmp_list), every value zero while no
 * connection was ever made, and the same file in each network namespace.
 */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"
#include "util.h"

#define SNMP	"/proc/net/quic/snmp"

/* The counter names of the seed, in its order. */
static const char *const counters[] = {
	"QuicConnCurrentEstabs", "QuicConnPassiveEstabs", "QuicConnActiveEstabs",
	"QuicPktRcvFastpaths", "QuicPktDecFastpaths", "QuicPktEncFastpaths",
	"QuicPktRcvBacklogs", "QuicPktDecBacklogs", "QuicPktEncBacklogs",
	"QuicPktInvHdrDrop", "QuicPktInvNumDrop", "QuicPktInvFrmDrop",
	"QuicPktRcvDrop", "QuicPktDecDrop", "QuicPktEncDrop",
	"QuicFrmRcvBufDrop", "QuicFrmRetrans", "QuicFrmOutCloses", "QuicFrmInCloses",
};

#define NR_COUNTERS	ARRAY_SIZE(counters)

struct snmp {
	unsigned int lines;		/* lines read */
	unsigned int unknown;		/* lines whose name is not a counter */
	unsigned int seen[NR_COUNTERS];
	unsigned long long value[NR_COUNTERS];
};

static int index_of(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_COUNTERS; i++)
		if (!strcmp(name, counters[i]))
			return i;
	return -1;
}

static int read_snmp(struct snmp *s)
{
	char buf[4096], *line, *save = NULL;
	unsigned long long v;
	char name[64];
	ssize_t n;
	int i;

	memset(s, 0, sizeof(*s));
	n = read_file(SNMP, buf, sizeof(buf));
	if (n < 0)
		return n;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		s->lines++;
		i = sscanf(line, "%63s %llu", name, &v) == 2 ? index_of(name) : -1;
		if (i < 0) {
			ktap_diag("unexpected line: %s", line);
			s->unknown++;
			continue;
		}
		s->seen[i]++;
		s->value[i] = v;
	}
	return 0;
}

static bool all_once(const struct snmp *s)
{
	bool ok = !s->unknown && s->lines == NR_COUNTERS;
	unsigned int i;

	for (i = 0; i < NR_COUNTERS; i++) {
		if (s->seen[i] != 1) {
			ktap_diag("%s listed %u times", counters[i], s->seen[i]);
			ok = false;
		}
	}
	return ok;
}

/* In a new namespace: exit status 0 when the file is complete there too. */
static int child_in_new_netns(void)
{
	struct snmp s;

	if (unshare(CLONE_NEWNET)) {
		ktap_diag("unshare(CLONE_NEWNET): %s", errno_name(errno));
		return 1;
	}
	if (read_snmp(&s)) {
		ktap_diag("no %s in the new namespace", SNMP);
		return 1;
	}
	return all_once(&s) ? 0 : 1;
}

int main(void)
{
	bool zero = true;
	struct snmp s;
	unsigned int i;
	int fd, status;
	pid_t pid;

	ktap_plan(4);

	/* The file belongs to the module: make sure it is loaded. */
	fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);
	if (fd < 0)
		ktap_diag("socket: %s", errno_name(errno));
	ktap_result(fd >= 0 && !read_snmp(&s), SNMP " can be read");
	if (fd >= 0)
		close(fd);

	ktap_result(all_once(&s), "every counter of the seed is listed exactly once (%zu)",
		    NR_COUNTERS);

	for (i = 0; i < NR_COUNTERS; i++) {
		if (s.seen[i] && s.value[i]) {
			ktap_diag("%s = %llu", counters[i], s.value[i]);
			zero = false;
		}
	}
	ktap_result(zero, "every counter is zero before any connection");

	pid = fork();
	if (!pid)
		_exit(child_in_new_netns());
	ktap_result(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		    !WEXITSTATUS(status), "a new network namespace has its own complete file");

	return ktap_finish();
}
