// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Socket memory limits hold against peers that fill receive queues.
 *
 * A server on side 1 of a namespace pair (netns.h) accepts NCONN
 * connections and reads nothing; a client on side 0 writes, on each, two
 * streams of 256 KiB: what flow control lets it send (8 MiB in all). The
 * TLS handshake is the stand-in of standin.h. Two runs:
 *
 *  - quic_mem: net.quic.quic_mem is lowered to 1 MiB first. Past it the
 *    server's sockets take nothing more (the datagrams are dropped and
 *    counted in QuicFrmRcvBufDrop), the client's writes stall, and the
 *    protocol's pages (/proc/net/protocols) stay within the limit plus what
 *    the CPUs hold back (net.core.mem_pcpu_rsv each).
 *  - memory cgroup: the server runs in a cgroup v2 group whose memory.max
 *    is set to its usage plus 1 MiB once the connections are up. The
 *    group's socket memory (memory.stat "sock") stops there, no process is
 *    OOM-killed.
 *
 * Then the limit is lifted: the peers' retransmissions bring the rest, the
 * server reads every byte and checks it, and after the close the memory is
 * given back (protocol pages to where they were, "sock" to 0). Figures:
 * what the server held at the limit, and the counters.
 *
 * Usage: memory
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/quic.h>
#include <linux/sockios.h>

#include "ktap.h"
#include "netns.h"
#include "standin.h"
#include "util.h"

#define NCONN		16
#define NSTREAM		2
#define STREAM_LEN	(256 * 1024)
#define TOTAL		((long)NCONN * NSTREAM * STREAM_LEN)
#define CHUNK		(16 * 1024)
#define PORT		4520
#define LIMIT_PAGES	256		/* the lowered quic_mem, 1 MiB */
#define CG		"/sys/fs/cgroup"
#define CG_GROUP	CG "/quic-mem"

static long page_size;

/* The pipes between the parent and its two children. */
struct chan {
	int to_server[2];
	int from_server[2];
	int to_client[2];
	int from_client[2];
};

static uint8_t pattern(int conn, int stream, size_t off)
{
	return (uint8_t)(conn * 31 + stream * 7 + off * 13 + (off >> 8));
}

static char get(int fd)
{
	char c = 0;

	return read(fd, &c, 1) == 1 ? c : 0;
}

static void put(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		ktap_diag("pipe write: %s", errno_name(errno));
}

static long read_long(const char *path, const char *key)
{
	char buf[8192], *p;
	size_t klen;

	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	if (!key)
		return strtol(buf, NULL, 10);
	klen = strlen(key);
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '\t'))
			return strtol(p + klen + 1, NULL, 10);
	return -1;
}

/* A counter of /proc/net/quic/snmp in side @side's namespace. */
static long snmp(const struct netns_pair *p, int side, const char *name)
{
	long v;

	if (netns_enter(p, side))
		return -1;
	v = read_long("/proc/net/quic/snmp", name);
	netns_enter(p, -1);
	return v;
}

/* Side 1: accept NCONN connections, then do what the parent says. */
static int server(const struct netns_pair *p, struct chan *ch, bool cgroup)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(PORT),
				 .sin_addr = p->addr4[1] };
	static size_t got[NCONN][NSTREAM];
	static uint8_t buf[65536];
	struct pollfd pfd[NCONN];
	int lfd, fd[NCONN], i, done = 0;
	long unread;
	char cmd;

	/* Sockets belong to the cgroup of the process that creates them. */
	CHECK(!cgroup || !write_file(CG_GROUP "/cgroup.procs", "0"), "join the cgroup");
	CHECK(!netns_enter(p, 1), "enter side 1");
	lfd = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);
	CHECK(lfd >= 0, "server socket");
	CHECK(!bind(lfd, (struct sockaddr *)&a, sizeof(a)), "bind");
	CHECK(!listen(lfd, NCONN), "listen");
	put(ch->from_server[1], 'r');
	for (i = 0; i < NCONN; i++) {
		fd[i] = accept(lfd, NULL, NULL);
		CHECK(fd[i] >= 0, "accept");
		sock_timeouts(fd[i], STANDIN_TIMEO_S);
		CHECK(!handshake(fd[i], false), "server handshake");
	}
	put(ch->from_server[1], 'a');

	/* 'm': report the bytes held unread; 'r': read everything. */
	while ((cmd = get(ch->to_server[0])) == 'm') {
		unread = 0;
		for (i = 0; i < NCONN; i++) {
			int n = 0;

			CHECK(!ioctl(fd[i], SIOCINQ, &n), "SIOCINQ");
			unread += n;
		}
		CHECK(write(ch->from_server[1], &unread, sizeof(unread)) == sizeof(unread),
		      "report");
	}
	CHECK(cmd == 'r', "command");
	for (i = 0; i < NCONN; i++) {
		fcntl(fd[i], F_SETFL, O_NONBLOCK);
		pfd[i].fd = fd[i];
		pfd[i].events = POLLIN;
	}
	while (done < NCONN * NSTREAM) {
		CHECK(poll(pfd, NCONN, 60000) > 0, "poll for the rest");
		for (i = 0; i < NCONN; i++) {
			struct quic_stream_info si;
			ssize_t n, k;
			int s;

			if (!(pfd[i].revents & POLLIN))
				continue;
			n = quic_recv(fd[i], QUIC_STREAM_INFO, &si, sizeof(si), buf, sizeof(buf));
			CHECK(n >= 0, "stream recvmsg");
			s = si.stream_id / 4;
			CHECK(si.stream_id % 4 == 0 && s < NSTREAM, "data on an unexpected stream");
			for (k = 0; k < n; k++)
				CHECK(buf[k] == pattern(i, s, got[i][s] + k), "stream data differs");
			got[i][s] += n;
			CHECK(got[i][s] <= STREAM_LEN, "more stream data than sent");
			if (si.stream_flags & MSG_STREAM_FIN) {
				CHECK(got[i][s] == STREAM_LEN, "FIN before all the data");
				done++;
			}
		}
	}
	put(ch->from_server[1], 'd');
	CHECK(get(ch->to_server[0]) == 'x', "command");
	for (i = 0; i < NCONN; i++)
		close(fd[i]);
	close(lfd);
	return 0;
}

/*
 * Side 0: connect NCONN times, then on 'w' write all streams without
 * blocking, round after round. Tell the parent 'p' once no write got in
 * for two seconds (the server stopped taking data), 'd' when all is
 * written; close on 'x'.
 */
static int client(const struct netns_pair *p, struct chan *ch)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(PORT),
				 .sin_addr = p->addr4[1] };
	static size_t off[NCONN][NSTREAM];
	static uint8_t buf[CHUNK];
	struct pollfd pfd[NCONN];
	int fd[NCONN], i, s, left = NCONN * NSTREAM;
	bool stalled = false;
	time_t last;

	CHECK(!netns_enter(p, 0), "enter side 0");
	for (i = 0; i < NCONN; i++) {
		fd[i] = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);
		CHECK(fd[i] >= 0, "client socket");
		sock_timeouts(fd[i], STANDIN_TIMEO_S);
		CHECK(!connect(fd[i], (struct sockaddr *)&a, sizeof(a)), "connect");
		CHECK(!handshake(fd[i], true), "client handshake");
		pfd[i].fd = fd[i];
		pfd[i].events = POLLOUT;
	}
	put(ch->from_client[1], 'c');
	CHECK(get(ch->to_client[0]) == 'w', "command");

	last = time(NULL);
	while (left) {
		/* Writable but refused by socket memory: do not spin. */
		if (time(NULL) != last)
			usleep(20000);
		if (poll(pfd, NCONN, 100) < 0)
			return -1;
		for (i = 0; i < NCONN; i++) {
			for (s = 0; s < NSTREAM; s++) {
				struct quic_stream_info si = { .stream_id = 4 * s };
				char cbuf[CMSG_SPACE(sizeof(si))] = { 0 };
				struct iovec iov = { .iov_base = buf };
				struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
						      .msg_control = cbuf,
						      .msg_controllen = sizeof(cbuf) };
				struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
				size_t n = STREAM_LEN - off[i][s], k;
				ssize_t w;

				if (!n)
					continue;
				n = n < CHUNK ? n : CHUNK;
				for (k = 0; k < n; k++)
					buf[k] = pattern(i, s, off[i][s] + k);
				si.stream_flags = (off[i][s] ? 0 : MSG_STREAM_NEW) |
						  (off[i][s] + n == STREAM_LEN ? MSG_STREAM_FIN : 0);
				cm->cmsg_level = SOL_QUIC;
				cm->cmsg_type = QUIC_STREAM_INFO;
				cm->cmsg_len = CMSG_LEN(sizeof(si));
				memcpy(CMSG_DATA(cm), &si, sizeof(si));
				iov.iov_len = n;
				w = sendmsg(fd[i], &msg, MSG_DONTWAIT);
				if (w < 0) {
					CHECK(errno == EAGAIN, "stream sendmsg");
					continue;
				}
				/* A partial write ends without FIN: the rest follows. */
				off[i][s] += w;
				if (off[i][s] == STREAM_LEN)
					left--;
				last = time(NULL);
			}
		}
		if (!stalled && time(NULL) - last >= 2) {
			stalled = true;
			put(ch->from_client[1], 'p');
		}
		CHECK(time(NULL) - last < 60, "writes made no progress for 60 s");
	}
	put(ch->from_client[1], 'd');
	CHECK(get(ch->to_client[0]) == 'x', "command");
	for (i = 0; i < NCONN; i++)
		close(fd[i]);
	return 0;
}

struct limit_ops {
	const char *name;
	bool cgroup;
	int (*lower)(void);
	int (*lift)(void);
	/* Check what is held at the limit; @unread: the server's bytes. */
	void (*check)(long unread);
	void (*after)(void);
};

static char saved_mem[128];

static int mem_lower(void)
{
	char v[64];

	if (read_file("/proc/sys/net/quic/quic_mem", saved_mem, sizeof(saved_mem)) < 0)
		return -1;
	snprintf(v, sizeof(v), "%d %d %d", LIMIT_PAGES / 2, LIMIT_PAGES * 3 / 4, LIMIT_PAGES);
	return write_file("/proc/sys/net/quic/quic_mem", v);
}

static int mem_lift(void)
{
	return write_file("/proc/sys/net/quic/quic_mem", saved_mem);
}

/* Pages the CPUs may hold charged without counting them globally. */
static long pcpu_slack(void)
{
	long rsv = read_long("/proc/sys/net/core/mem_pcpu_rsv", NULL);

	return (rsv > 0 ? rsv : 256) * sysconf(_SC_NPROCESSORS_ONLN);
}

static void mem_check(long unread)
{
	long pages = proto_pages("QUIC"), bound = LIMIT_PAGES + pcpu_slack() + 128;

	ktap_diag("quic_mem: server held %ld of %ld bytes, protocol pages %ld (limit %d)",
		  unread, TOTAL, pages, LIMIT_PAGES);
	ktap_result(unread >= 0 && unread * 4 / 3 < TOTAL && unread <= bound * page_size,
		    "quic_mem: the server's sockets take no more past the limit");
	ktap_result(pages >= 0 && pages <= bound,
		    "quic_mem: protocol pages within the limit and the per-CPU reserves");
}

static long cg_max;

static int cg_setup(void)
{
	mkdir(CG, 0755);
	if (mount("cgroup2", CG, "cgroup2", 0, NULL) && errno != EBUSY)
		return -1;
	if (write_file(CG "/cgroup.subtree_control", "+memory"))
		return -1;
	rmdir(CG_GROUP);
	return mkdir(CG_GROUP, 0755);
}

static int cg_lower(void)
{
	char v[32];

	cg_max = read_long(CG_GROUP "/memory.current", NULL) + 1024 * 1024;
	snprintf(v, sizeof(v), "%ld", cg_max);
	return write_file(CG_GROUP "/memory.max", v);
}

static int cg_lift(void)
{
	return write_file(CG_GROUP "/memory.max", "max");
}

static void cg_check(long unread)
{
	long sock = read_long(CG_GROUP "/memory.stat", "sock");
	long oom = read_long(CG_GROUP "/memory.events", "oom_kill");
	long current = read_long(CG_GROUP "/memory.current", NULL);

	ktap_diag("memcg: server held %ld of %ld bytes, sock %ld, current %ld, max %ld",
		  unread, TOTAL, sock, current, cg_max);
	/* memory.stat is flushed lazily (rstat): "sock" may lag the charges,
	 * so it is not compared with what the sockets hold.
	 */
	ktap_result(sock > 0, "memcg: the sockets' memory is the group's (sock %ld)", sock);
	ktap_result(unread >= 0 && unread * 4 / 3 < TOTAL && current <= cg_max + 64 * page_size,
		    "memcg: the server's sockets take no more past memory.max");
	ktap_result(oom == 0, "memcg: nothing was OOM-killed");
}

static void cg_after(void)
{
	long sock = read_long(CG_GROUP "/memory.stat", "sock");
	int i;

	/* The statistics are flushed lazily (every 2 s at the latest, sooner
	 * only after large changes): a few pages uncharged at the end may
	 * still show. Wait for a flush before judging.
	 */
	for (i = 0; i < 50 && sock > 16 * page_size; i++) {
		usleep(100000);
		sock = read_long(CG_GROUP "/memory.stat", "sock");
	}
	ktap_result(sock >= 0 && sock <= 16 * page_size,
		    "memcg: the sockets' memory left the group with them (sock %ld)", sock);
	rmdir(CG_GROUP);
}

static void mem_after(void)
{
}

static const struct limit_ops runs[] = {
	{ "quic_mem", false, mem_lower, mem_lift, mem_check, mem_after },
	{ "memcg", true, cg_lower, cg_lift, cg_check, cg_after },
};

/* Results of one run: 6 common ones and what check() and after() add. */
#define RESULTS_MEM	(6 + 2)
#define RESULTS_CG	(6 + 3 + 1)

static void chan_close(struct chan *ch)
{
	int *fds = (int *)ch;
	size_t i;

	for (i = 0; i < sizeof(*ch) / sizeof(int); i++)
		close(fds[i]);
}

static void one_run(const struct netns_pair *p, const struct limit_ops *r, int results)
{
	long unread = -1, drops, pages0 = proto_pages("QUIC"), pages;
	bool client_done;
	pid_t spid, cpid;
	int st = -1, ct = -1, i;
	struct chan ch;
	char c;

	if (pipe(ch.to_server) || pipe(ch.from_server) || pipe(ch.to_client) ||
	    pipe(ch.from_client)) {
		for (i = 0; i < results; i++)
			ktap_result(false, "%s: pipe", r->name);
		return;
	}
	drops = snmp(p, 1, "QuicFrmRcvBufDrop");
	spid = fork();
	if (!spid) {
		alarm(240);
		_exit(server(p, &ch, r->cgroup) ? 1 : 0);
	}
	if (get(ch.from_server[0]) != 'r')
		ktap_diag("%s: the server did not start", r->name);
	cpid = fork();
	if (!cpid) {
		alarm(240);
		_exit(client(p, &ch) ? 1 : 0);
	}
	c = get(ch.from_client[0]);
	ktap_result(c == 'c' && get(ch.from_server[0]) == 'a',
		    "%s: %d connections up", r->name, NCONN);

	ktap_result(!r->lower(), "%s: limit lowered", r->name);
	put(ch.to_client[1], 'w');
	c = get(ch.from_client[0]);
	client_done = c == 'd';
	if (c == 'p') {
		put(ch.to_server[1], 'm');
		if (read(ch.from_server[0], &unread, sizeof(unread)) != sizeof(unread))
			unread = -1;
	} else {
		ktap_diag("%s: the client's writes never stalled (%c)", r->name, c ? c : '-');
	}
	r->check(unread);
	drops = snmp(p, 1, "QuicFrmRcvBufDrop") - drops;
	/* Not only little held: data was offered and refused at the limit. */
	ktap_result(c == 'p' && drops > 0, "%s: the refused stream data was counted "
		    "(QuicFrmRcvBufDrop +%ld)", r->name, drops);

	if (r->lift())
		ktap_diag("%s: could not lift the limit: %s", r->name, errno_name(errno));
	put(ch.to_server[1], 'r');
	c = get(ch.from_server[0]);
	if (c == 'd' && !client_done && get(ch.from_client[0]) != 'd')
		c = 0;
	ktap_result(c == 'd', "%s: with the limit lifted every byte arrives intact", r->name);
	put(ch.to_server[1], 'x');
	put(ch.to_client[1], 'x');
	waitpid(spid, &st, 0);
	waitpid(cpid, &ct, 0);
	ktap_result(WIFEXITED(st) && !WEXITSTATUS(st) && WIFEXITED(ct) && !WEXITSTATUS(ct),
		    "%s: both sides finished", r->name);
	chan_close(&ch);

	/* The closed connections linger for their closing period. The
	 * global count may keep pages a CPU moved out of its reserve while
	 * that CPU's own count went below zero by as much: allow them.
	 */
	for (i = 0; i < 100; i++) {
		pages = proto_pages("QUIC");
		if (pages <= pages0 + pcpu_slack() + 16)
			break;
		usleep(100000);
	}
	ktap_result(pages >= 0 && pages <= pages0 + pcpu_slack() + 16,
		    "%s: the protocol's pages back after the close (%ld, were %ld)", r->name,
		    pages, pages0);
	r->after();
}

int main(void)
{
	struct netns_pair p;
	int i;

	page_size = sysconf(_SC_PAGESIZE);
	alarm(540);
	ktap_plan(RESULTS_MEM + RESULTS_CG);
	if (netns_pair_create(&p)) {
		for (i = 0; i < RESULTS_MEM + RESULTS_CG; i++)
			ktap_result(false, "no namespace pair");
		return ktap_finish();
	}
	one_run(&p, &runs[0], RESULTS_MEM);
	if (cg_setup()) {
		for (i = 0; i < RESULTS_CG; i++)
			ktap_result(false, "memcg: no cgroup v2 memory controller: %s",
				    errno_name(errno));
	} else {
		one_run(&p, &runs[1], RESULTS_CG);
	}
	netns_pair_destroy(&p);
	return ktap_finish();
}
