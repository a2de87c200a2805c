// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Many connections at once: 500 QUIC connections from four client
 * processes to one listener, all open at the same time, each carrying
 * data both ways, then closed; afterwards the kernel holds nothing more
 * than before.
 *
 * The server process sits on side 1 of a namespace pair (netns.h): a
 * listener with a backlog of 128, handshake threads that accept() and run
 * quic_server_handshake() (PSK), and, once every connection is up, one
 * thread that poll()s all of them and echoes each stream back. Each client
 * process, on side 0, opens its share of the connections one after the
 * other and keeps them all open (SO_KEEPALIVE: opening them all takes
 * longer than the idle timeout under emulation); when every client reports its share
 * open, the parent counts the server's established connections in
 * /proc/net/quic/conns and lets the clients send: 4 KiB with FIN on
 * stream 0 of each connection, read back and compared. The clients then
 * close everything; the server must see each connection end.
 *
 * Afterwards the QUIC socket count of /proc/net/protocols in the two
 * namespaces and the module's reference count return exactly to what they
 * were before (a leak of a single socket or module reference shows
 * there); a lockdep or KASAN report fails the run through the kernel log
 * check of scripts/selftest.py.
 * Times of each phase are printed as figures.
 *
 * Usage: many [certificate directory, default /tests/certs]
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <netinet/quic.h>

#include "ktap.h"
#include "netns.h"
#include "util.h"

#define CLIENTS		4
#define PER_CLIENT	125
#define TOTAL		(CLIENTS * PER_CLIENT)
#define SERVER_THREADS	4
#define PORT		5300
#define MSG_LEN		4096
#define TIMEO_S		60
#define ALPN		"quic-selftest"

static struct netns_pair pair;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void lib_log(int level, const char *msg)
{
	(void)level;
	ktap_diag("libquic: %s", msg);
}

static uint8_t pattern(unsigned int conn, size_t i)
{
	return (uint8_t)(conn * 131 + i * 7 + (i >> 8));
}

/* ------------------------------------------------------------ server */

struct server {
	int lfd;
	pthread_mutex_t lock;
	int fds[TOTAL];
	int accepted;
	int failed;
	int tries;
};

static void *server_handshakes(void *p)
{
	struct server *s = p;
	int fd, ret;

	for (;;) {
		pthread_mutex_lock(&s->lock);
		if (s->tries >= TOTAL) {
			pthread_mutex_unlock(&s->lock);
			return NULL;
		}
		s->tries++;
		pthread_mutex_unlock(&s->lock);

		fd = accept(s->lfd, NULL, NULL);
		if (fd < 0) {
			ktap_diag("server: accept: %s", errno_name(errno));
			pthread_mutex_lock(&s->lock);
			s->failed++;
			pthread_mutex_unlock(&s->lock);
			continue;
		}
		sock_timeouts(fd, TIMEO_S);
		ret = quic_server_handshake(fd, cert_path("psk-alice.txt"), NULL, ALPN);
		pthread_mutex_lock(&s->lock);
		if (ret) {
			ktap_diag("server: handshake: %s", errno_name(-ret));
			s->failed++;
			close(fd);
		} else {
			s->fds[s->accepted++] = fd;
		}
		pthread_mutex_unlock(&s->lock);
	}
}

/*
 * Echo every stream back until each connection ends (recvmsg() returns 0
 * or an error once the client closed). Return: connections that ended
 * after echoing a whole message.
 */
static int server_echo(struct server *s)
{
	static struct pollfd pfd[TOTAL];
	static size_t echoed[TOTAL];
	int open = s->accepted, good = 0, i;
	uint8_t *buf = malloc(MSG_LEN);

	if (!buf)
		return 0;
	for (i = 0; i < s->accepted; i++) {
		pfd[i].fd = s->fds[i];
		pfd[i].events = POLLIN;
	}
	while (open > 0) {
		int n = poll(pfd, s->accepted, TIMEO_S * 1000);

		if (n <= 0) {
			ktap_diag("server: poll: %s with %d connections open",
				  n ? errno_name(errno) : "timeout", open);
			break;
		}
		for (i = 0; i < s->accepted; i++) {
			uint32_t flags = 0;
			int64_t sid = 0;
			ssize_t got;

			if (pfd[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = quic_recvmsg(pfd[i].fd, buf, MSG_LEN, &sid, &flags);
			if (got < 0 && errno == EAGAIN)
				continue;
			if (got <= 0) {
				if (echoed[i] == MSG_LEN)
					good++;
				close(pfd[i].fd);
				pfd[i].fd = -1;
				open--;
				continue;
			}
			if (quic_sendmsg(pfd[i].fd, buf, got, sid, flags & MSG_STREAM_FIN) != got) {
				ktap_diag("server: echo: %s", errno_name(errno));
				continue;
			}
			echoed[i] += got;
		}
	}
	free(buf);
	return good;
}

/* The server process; its exit status is the number of connections that
 * were echoed and ended cleanly, capped at 254 (255: setup failed).
 */
static int server_main(int ready)
{
	struct server s = { .lfd = -1 };
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(PORT) };
	pthread_t th[SERVER_THREADS];
	int i, good;

	pthread_mutex_init(&s.lock, NULL);
	sin.sin_addr = pair.addr4[1];
	if (netns_enter(&pair, 1))
		return 255;
	s.lfd = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);
	if (s.lfd < 0 || bind(s.lfd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(s.lfd, 128)) {
		ktap_diag("server: listener: %s", errno_name(errno));
		return 255;
	}
	sock_timeouts(s.lfd, TIMEO_S);
	if (write(ready, "r", 1) != 1)
		return 255;
	for (i = 0; i < SERVER_THREADS; i++)
		pthread_create(&th[i], NULL, server_handshakes, &s);
	for (i = 0; i < SERVER_THREADS; i++)
		pthread_join(th[i], NULL);
	close(s.lfd);
	if (s.failed)
		ktap_diag("server: %d of %d connections failed", s.failed, TOTAL);
	good = server_echo(&s);
	/* Report over the pipe too: an exit status holds only 8 bits. */
	if (write(ready, &good, sizeof(good)) != sizeof(good))
		return 255;
	return 0;
}

/* ------------------------------------------------------------ client */

/* One client process: @k-th share of the connections. Exit status 0 when
 * every connection echoed its message intact.
 */
static int client_main(int k, int to_parent, int from_parent)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(PORT) };
	static int fds[PER_CLIENT];
	uint8_t *msg = malloc(MSG_LEN), *back = malloc(MSG_LEN + 1);
	int i, ok = 0, ret, one = 1;
	char go;

	if (!msg || !back || netns_enter(&pair, 0))
		return 2;
	sin.sin_addr = pair.addr4[1];
	for (i = 0; i < PER_CLIENT; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);
		if (fds[i] < 0)
			return 2;
		sock_timeouts(fds[i], TIMEO_S);
		/* Opening all 500 takes longer than the 30 s idle timeout
		 * under emulation: the first ones keep themselves alive.
		 */
		if (setsockopt(fds[i], SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one)))
			return 2;
		if (connect(fds[i], (struct sockaddr *)&sin, sizeof(sin))) {
			ktap_diag("client %d: connect %d: %s", k, i, errno_name(errno));
			return 2;
		}
		ret = quic_client_handshake(fds[i], cert_path("psk-alice.txt"), NULL, ALPN);
		if (ret) {
			ktap_diag("client %d: handshake %d: %s", k, i, errno_name(-ret));
			return 2;
		}
	}
	if (write(to_parent, "o", 1) != 1 || read(from_parent, &go, 1) != 1 || go != 'g')
		return 2;

	for (i = 0; i < PER_CLIENT; i++) {
		unsigned int conn = k * PER_CLIENT + i;
		size_t j;

		for (j = 0; j < MSG_LEN; j++)
			msg[j] = pattern(conn, j);
		if (quic_sendmsg(fds[i], msg, MSG_LEN, 0, MSG_STREAM_NEW | MSG_STREAM_FIN) !=
		    MSG_LEN)
			ktap_diag("client %d: send %d: %s", k, i, errno_name(errno));
	}
	for (i = 0; i < PER_CLIENT; i++) {
		unsigned int conn = k * PER_CLIENT + i;
		uint32_t flags = 0;
		size_t n = 0, j;
		int64_t sid;
		ssize_t got;

		do {
			flags = 0;	/* in: recvmsg() flags; out: what came */
			got = quic_recvmsg(fds[i], back + n, MSG_LEN + 1 - n, &sid, &flags);
			if (got > 0)
				n += got;
		} while (got > 0 && !(flags & MSG_STREAM_FIN));
		for (j = 0; j < n && j < MSG_LEN && back[j] == pattern(conn, j); j++)
			;
		if (n == MSG_LEN && j == MSG_LEN && sid == 0)
			ok++;
		else
			ktap_diag("client %d: connection %d: %zu bytes back, %zu intact (%s)", k, i,
				  n, j, got < 0 ? errno_name(errno) : "no error");
	}
	for (i = 0; i < PER_CLIENT; i++)
		close(fds[i]);
	free(msg);
	free(back);
	return ok == PER_CLIENT ? 0 : 1;
}

/* ------------------------------------------------------------ parent */

static int quic_refcnt(void)
{
	return module_refs("quic");
}

/* Established connections in /proc/net/quic/conns of the server's side. */
static int server_conns(void)
{
	size_t size = 1 << 20;
	char *buf = malloc(size), *p;
	int n = 0;

	if (!buf || netns_enter(&pair, 1)) {
		free(buf);
		return -1;
	}
	if (read_file("/proc/net/quic/conns", buf, size) < 0)
		n = -1;
	for (p = buf; n >= 0 && (p = strstr(p, " ESTABLISHED ")); p++)
		n++;
	netns_enter(&pair, -1);
	free(buf);
	return n;
}

/* QUIC sockets in the pair's namespaces, where every socket of the test lives. */
static int pair_sockets(void)
{
	return netns_pair_sockets(&pair, false);
}

int main(int argc, char **argv)
{
	int to_parent[2], from_parent[CLIENTS][2], ready[2];
	int sockets_before, refcnt_before, i, good = -1, status, opened = 0, clients_ok = 0;
	pid_t server, clients[CLIENTS];
	double t0, t1, t2, t3;
	char c;

	if (argc > 1)
		cert_dir = argv[1];
	signal(SIGPIPE, SIG_IGN);
	quic_set_log_func(lib_log);
	ktap_plan(6);
	if (netns_pair_create(&pair))
		return ktap_finish();
	/* A first socket loads the module, so that the baseline counts it. */
	close(socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC));
	/* The namespaces are new: no QUIC socket in them yet. */
	sockets_before = pair_sockets();
	/*
	 * Each QUIC socket holds a reference on the module: with none left
	 * it is 0. Sockets of an earlier test may still be in their closing
	 * period, and the one above is freed a moment after close(): wait
	 * for them, for a while.
	 */
	refcnt_before = wait_value(quic_refcnt, 0, 30 * 1000);
	if (refcnt_before)
		ktap_diag("module refcount %d at the start, not 0: held from before",
			  refcnt_before);
	ktap_diag("baseline: %d QUIC sockets, module refcount %d", sockets_before,
		  refcnt_before);

	if (pipe(ready) || pipe(to_parent))
		return ktap_finish();
	t0 = now();
	server = fork();
	if (!server)
		_exit(server_main(ready[1]));
	if (read(ready[0], &c, 1) != 1 || c != 'r') {
		ktap_diag("the server did not start");
		return ktap_finish();
	}
	for (i = 0; i < CLIENTS; i++) {
		if (pipe(from_parent[i]))
			return ktap_finish();
		clients[i] = fork();
		if (!clients[i])
			_exit(client_main(i, to_parent[1], from_parent[i][0]));
	}
	close(to_parent[1]);	/* a client that dies ends the read below */
	for (i = 0; i < CLIENTS; i++)
		if (read(to_parent[0], &c, 1) == 1 && c == 'o')
			opened++;
	t1 = now();
	ktap_result(opened == CLIENTS,
		    "%d connections open at once: %d client processes of %d each completed every handshake",
		    TOTAL, CLIENTS, PER_CLIENT);
	i = server_conns();
	ktap_diag("/proc/net/quic/conns on the server's side: %d established", i);
	ktap_result(i >= TOTAL, "the server's /proc/net/quic/conns lists all %d at the peak",
		    TOTAL);

	for (i = 0; i < CLIENTS; i++)
		if (write(from_parent[i][1], "g", 1) != 1)
			ktap_diag("client %d: cannot start it", i);
	for (i = 0; i < CLIENTS; i++) {
		if (waitpid(clients[i], &status, 0) == clients[i] && WIFEXITED(status) &&
		    !WEXITSTATUS(status))
			clients_ok++;
	}
	t2 = now();
	ktap_result(clients_ok == CLIENTS, "each of the %d connections echoed 4 KiB intact",
		    TOTAL);
	if (read(ready[0], &good, sizeof(good)) != sizeof(good))
		good = -1;
	waitpid(server, &status, 0);
	ktap_result(good == TOTAL, "the server saw all %d connections end after their echo (%d)",
		    TOTAL, good);

	/*
	 * Closing connections linger through their closing period; then the
	 * counts must come back to the baseline exactly: a single socket or
	 * module reference left over fails.
	 */
	i = wait_value(pair_sockets, sockets_before, 30 * 1000);
	t3 = now();
	ktap_result(sockets_before >= 0 && i == sockets_before,
		    "QUIC sockets back to the baseline of %d (now %d)", sockets_before, i);
	i = wait_value(quic_refcnt, refcnt_before, 10 * 1000);
	ktap_result(refcnt_before >= 0 && i == refcnt_before, "module refcount back to %d (now %d)",
		    refcnt_before, i);
	ktap_diag("handshakes %.1f s, transfers %.1f s, teardown %.1f s", t1 - t0, t2 - t1,
		  t3 - t2);
	netns_pair_destroy(&pair);
	return ktap_finish();
}
