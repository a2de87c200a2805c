// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysfuzz: random system calls, from several threads at once, on a small
 * pool of QUIC sockets whose connections are alive and carry data.
 *
 * Two network namespaces joined by veth (netns.h), netem on both ends
 * (loss, delay with jitter, so reordering). Side 1 keeps four listeners
 * (two share one port with different ALPNs, one is IPv6, one serves two
 * protocols on another port; each replaced every 3 s, since the fuzzers
 * change listeners' options too) and two acceptor threads that run
 * libquic's PSK handshake on what they accept; on side 0 two connector
 * threads open connections with a random family, socket type and ALPN
 * (some match no listener), up to six at a time. A handshake still
 * running after 10 s is shut down. Every socket lands in one shared pool.
 *
 * Four fuzzing threads, two per side, then pick a socket (88 % live
 * connections, which hold the state worth breaking; 0.2 % each listeners
 * and sockets in their handshake, or no connection would form) and an
 * operation (weights in sysfuzz_ops.c): every SOL_QUIC option set and
 * read with valid, boundary and garbage values and lengths, with buffers
 * that end at an unmapped page, NULL, unmapped and kernel pointers;
 * sendmsg()/recvmsg() with random flags and control messages, and
 * well-formed stream data and datagrams; stream open, reset and
 * stop-sending; key update; migration to a second address; SO_RCVBUF,
 * SO_SNDBUF, SO_LINGER and others; queue ioctls; shutdown(), close(), a
 * new socket bound, connected or listening at random, a non-blocking
 * accept(); a fork() whose child works on copies of the descriptors and
 * closes them; splice() and sendfile(); poll() and epoll; and, one at a
 * time, a socket handed to the in-kernel consumer (quic_sample's fd=
 * parameter) while the other threads keep using it. A socket being
 * handshaken is never closed under libquic; everything else is fair game,
 * including calls on a descriptor another thread has just closed.
 *
 * The run is seeded (each thread draws from its own generator seeded from
 * the run's seed; the interleaving is not reproducible, the operation mix
 * and values are) and bounded in time: 40 s by default, 55 min when the
 * kernel command line says quic_stress=1 (make stress), or sysfuzz_secs=;
 * sysfuzz_seed= picks the seed, sysfuzz_ops= a mask of the operations
 * (bit n: enum op), sysfuzz_fuzzers= the fuzzing threads per side
 * (scripts/selftest.py --append passes them).
 *
 * It passes when:
 *  - every thread returns once time is up (no call stuck);
 *  - no call wrote into user memory around the buffer it was given
 *    (canary bytes on both sides of every getsockopt()/recvmsg() buffer)
 *    and none returned more bytes than it was offered;
 *  - the run did real work: connections were established and data read;
 *  - afterwards every QUIC socket is gone from both namespaces, the
 *    module's reference count and the protocol's charged memory are back
 *    to where they were, and quic.ko unloads;
 *  - and, checked by scripts/selftest.py, the kernel log holds no report
 *    (KASAN, UBSAN, lockdep, WARN, hung task; KCSAN under --kcsan).
 *
 * Usage: sysfuzz [certificate directory, default /tests/certs]
 */


#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <netinet/quic.h>

#include "sysfuzz.h"
#include "util.h"

#define FUZZERS_PER_SIDE	2
#define ACCEPTORS	2
#define CONNECTORS	2
#define HS_TIMEO_S	3
#define HS_LIFE_S	10
#define SECS_DEFAULT	40
#define SECS_STRESS	(55 * 60)
#define TC		"/sbin/tc"
#define NETEM		"loss 2% delay 2ms 2ms"

struct netns_pair pair;
struct in_addr second4;		/* side 0's extra addresses, for migration */
struct in6_addr second6;
char sample_ko[256];
static atomic_int stop;
static unsigned long long run_seed;
static atomic_ulong handshakes_ok, handshakes_failed;
/* What the acceptors and the connector are doing, for a stuck one. */
static const char *volatile acceptor_doing[ACCEPTORS], *volatile connector_doing[CONNECTORS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------ the pool */

struct slot {
	int fd;
	int side;
	enum kind kind;
	int cfg;		/* listener configuration, or -1 */
	double born;		/* when it entered the pool */
	uint32_t next_sid;	/* streams opened by well-formed sends */
	int64_t cur_sid;	/* the one they write to, or -1 */
};

static struct slot slots[NSLOT];
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;

/* What the listeners of side 1 are: family, port, ALPN list. */
static const struct {
	int family;
	int port;
	const char *alpn;
} listeners[] = {
	{ AF_INET, PORT_A, "alpha" },
	{ AF_INET, PORT_A, "beta" },
	{ AF_INET6, PORT_A, "alpha" },
	{ AF_INET, PORT_B, "gamma,alpha" },
};

static const char *const client_alpns[] = {
	"alpha", "beta", "gamma", "beta,alpha", "delta", "gamma,beta",
};

/* Put @fd in a free slot; -1 (and @fd closed) when the pool is full. */
int slot_add(int fd, int side, enum kind kind, int cfg)
{
	int i;

	pthread_mutex_lock(&slot_lock);
	for (i = 0; i < NSLOT; i++) {
		if (slots[i].kind == K_FREE) {
			slots[i] = (struct slot){ .fd = fd, .side = side, .kind = kind,
						  .cfg = cfg, .born = now(), .cur_sid = -1 };
			pthread_mutex_unlock(&slot_lock);
			return i;
		}
	}
	pthread_mutex_unlock(&slot_lock);
	close(fd);
	return -1;
}

int slot_count(int side, unsigned int kinds)
{
	int i, n = 0;

	pthread_mutex_lock(&slot_lock);
	for (i = 0; i < NSLOT; i++)
		if (slots[i].side == side && (kinds & (1u << slots[i].kind)))
			n++;
	pthread_mutex_unlock(&slot_lock);
	return n;
}

/*
 * A random slot of @side whose kind is in @kinds; its descriptor in *@fd.
 * The descriptor is only a number once the lock is dropped: another
 * thread may close it at any moment, which is part of the test.
 */
int slot_pick(struct rng *r, int side, unsigned int kinds, int *fd, enum kind *kind)
{
	int idx[NSLOT], n = 0, i;

	pthread_mutex_lock(&slot_lock);
	for (i = 0; i < NSLOT; i++)
		if (slots[i].kind != K_FREE && slots[i].side == side &&
		    (kinds & (1u << slots[i].kind)))
			idx[n++] = i;
	if (!n) {
		pthread_mutex_unlock(&slot_lock);
		return -1;
	}
	i = idx[rnd(r, n)];
	*fd = slots[i].fd;
	if (kind)
		*kind = slots[i].kind;
	pthread_mutex_unlock(&slot_lock);
	return i;
}

/* Move slot @i from @from to @to if it still holds @fd in state @from. */
static bool slot_move(int i, int fd, enum kind from, enum kind to)
{
	bool ok;

	pthread_mutex_lock(&slot_lock);
	ok = slots[i].fd == fd && slots[i].kind == from;
	if (ok)
		slots[i].kind = to;
	pthread_mutex_unlock(&slot_lock);
	return ok;
}

/* Empty slot @i if it still holds @fd and is not being handshaken; close it. */
bool slot_close(int i, int fd)
{
	bool ok;

	pthread_mutex_lock(&slot_lock);
	ok = slots[i].fd == fd && slots[i].kind != K_FREE && slots[i].kind != K_HS;
	if (ok)
		slots[i].kind = K_FREE;
	pthread_mutex_unlock(&slot_lock);
	if (ok)
		close(fd);
	return ok;
}

bool slot_is(int i, enum kind kind)
{
	bool is;

	pthread_mutex_lock(&slot_lock);
	is = slots[i].kind == kind;
	pthread_mutex_unlock(&slot_lock);
	return is;
}

/*
 * The stream well-formed sends of slot @i write to: its current one, or
 * a new one (*@open set) after a FIN. Numbers climb as streams open, as
 * the peer's MAX_STREAMS allows; beyond it the send fails, as it should.
 */
int64_t slot_sid(int i, int side, bool uni, bool *open)
{
	int64_t sid;

	pthread_mutex_lock(&slot_lock);
	*open = slots[i].cur_sid < 0;
	if (*open)
		slots[i].cur_sid = (int64_t)slots[i].next_sid++ * 4 +
				   (uni ? QUIC_STREAM_TYPE_UNI_MASK : 0) +
				   (side ? QUIC_STREAM_TYPE_SERVER_MASK : 0);
	sid = slots[i].cur_sid;
	pthread_mutex_unlock(&slot_lock);
	return sid;
}

/* After a FIN (or a failure) on the current stream, the next send opens one. */
void slot_sid_done(int i, int64_t sid)
{
	pthread_mutex_lock(&slot_lock);
	if (slots[i].cur_sid == sid)
		slots[i].cur_sid = -1;
	pthread_mutex_unlock(&slot_lock);
}

/* The descriptors of every slot whose kind is in @kinds, into @fds (NSLOT). */
int slot_fds(int *fds, unsigned int kinds)
{
	int i, n = 0;

	pthread_mutex_lock(&slot_lock);
	for (i = 0; i < NSLOT; i++)
		if (slots[i].kind != K_FREE && (kinds & (1u << slots[i].kind)))
			fds[n++] = slots[i].fd;
	pthread_mutex_unlock(&slot_lock);
	return n;
}

static void *fuzzer_main(void *arg)
{
	struct fuzzer *f = arg;

	if (netns_enter(&pair, f->side))
		return NULL;
	while (!atomic_load(&stop)) {
		if (f->idle)
			usleep(100 * 1000);
		else
			fuzz_one(f);
	}
	f->doing = "returned";
	return NULL;
}

/* ------------------------------------------------------------ the connections */

static const char *psk_file;

/* Why handshakes failed, by errno (the last bucket: any other). */
static atomic_ulong hs_errno[2][136];

static void hs_failed(int side, int err)
{
	atomic_fetch_add(&handshakes_failed, 1);
	err = -err;
	atomic_fetch_add(&hs_errno[side][err > 0 && err < 135 ? err : 135], 1);
}

/* The first few closes that reset a client's handshake: the peer's code. */
static void hs_reset_why(int fd)
{
	static atomic_int shown;
	struct {
		struct quic_connection_close c;
		uint8_t phrase[96];
	} cl = {};
	socklen_t len = sizeof(cl);

	if (atomic_fetch_add(&shown, 1) >= 3)
		return;
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONNECTION_CLOSE, &cl, &len))
		ktap_diag("client reset: %s", errno_name(errno));
	else
		ktap_diag("client reset: code %#x frame %#x \"%.80s\"", cl.c.errcode, cl.c.frame,
			  (char *)cl.c.phrase);
}

/* The longest successful handshake, and failures that took longer than a cut. */
static double hs_longest;
static atomic_ulong hs_slow_failures;
static pthread_mutex_t hs_lock = PTHREAD_MUTEX_INITIALIZER;

static void hs_took(double start, int ret)
{
	double t = now() - start;

	pthread_mutex_lock(&hs_lock);
	if (!ret && t > hs_longest)
		hs_longest = t;
	pthread_mutex_unlock(&hs_lock);
	if (ret && t >= HS_LIFE_S)
		atomic_fetch_add(&hs_slow_failures, 1);
}

/* A handshake of @side on slot @i ended with @ret: a connection, or not. */
static void hs_done(int side, int i, int fd, double start, int ret)
{
	hs_took(start, ret);
	if (ret) {
		hs_failed(side, ret);
		slot_move(i, fd, K_HS, K_RAW);
		return;
	}
	atomic_fetch_add(&handshakes_ok, 1);
	sock_timeouts(fd, IO_TIMEO_S);
	slot_move(i, fd, K_HS, K_CONN);
}

static void hs_report(void)
{
	char line[512];
	int side, e, n;

	for (side = 0; side < 2; side++) {
		n = snprintf(line, sizeof(line), "failed %s handshakes:", side ? "server" : "client");
		for (e = 0; e < 136 && n < (int)sizeof(line) - 32; e++)
			if (atomic_load(&hs_errno[side][e]))
				n += snprintf(line + n, sizeof(line) - n, " %s %lu",
					      e == 135 ? "other" : errno_name(e),
					      atomic_load(&hs_errno[side][e]));
		ktap_diag("%s", line);
	}
	ktap_diag("longest handshake %.2f s; %lu failed after %d s or more (cut)", hs_longest,
		  atomic_load(&hs_slow_failures), HS_LIFE_S);
}

static int listener_open(int cfg)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(listeners[cfg].port),
				   .sin6_addr = pair.addr6[1] };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(listeners[cfg].port),
				  .sin_addr = pair.addr4[1] };
	bool v6 = listeners[cfg].family == AF_INET6;
	const char *alpn = listeners[cfg].alpn;
	int fd = socket(listeners[cfg].family, SOCK_STREAM, IPPROTO_QUIC);

	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, alpn, strlen(alpn)) ||
	    bind(fd, v6 ? (struct sockaddr *)&a6 : (struct sockaddr *)&a4,
		 v6 ? sizeof(a6) : sizeof(a4)) ||
	    listen(fd, 16)) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return slot_add(fd, 1, K_LISTEN, cfg) < 0 ? -1 : 0;
}

/*
 * The fuzzers change listeners' options too (ALPN, version, transport
 * parameters), which every later connection inherits: a listener older
 * than this is replaced by a fresh one, so that connections keep forming.
 */
#define LISTENER_LIFE_S	3

static void listeners_refresh(void)
{
	int cfg, i, old[NSLOT], n = 0;
	bool have[ARRAY_SIZE(listeners)] = { false };

	pthread_mutex_lock(&slot_lock);
	for (i = 0; i < NSLOT; i++) {
		if (slots[i].kind != K_LISTEN || slots[i].cfg < 0)
			continue;
		if (now() - slots[i].born > LISTENER_LIFE_S) {
			slots[i].kind = K_FREE;
			old[n++] = slots[i].fd;
		} else {
			have[slots[i].cfg] = true;
		}
	}
	pthread_mutex_unlock(&slot_lock);
	/* Closed first: a new listener with the same ALPN would be refused. */
	for (i = 0; i < n; i++)
		close(old[i]);
	for (cfg = 0; cfg < (int)ARRAY_SIZE(listeners); cfg++)
		if (!have[cfg])
			listener_open(cfg);
}

/* Side 1: keep the listeners up, accept, handshake. */
static void *acceptor_main(void *arg)
{
	struct rng r = { .s = run_seed ^ (0x1000 + (uintptr_t)arg) };
	struct pollfd p;
	int i, fd, cfg, nfd, ret;
	bool first = !(uintptr_t)arg;
	double t;

	if (netns_enter(&pair, 1))
		return NULL;
	while (!atomic_load(&stop)) {
		if (first)
			listeners_refresh();
		i = slot_pick(&r, 1, 1u << K_LISTEN, &fd, NULL);
		pthread_mutex_lock(&slot_lock);
		cfg = i < 0 ? -1 : slots[i].cfg;
		pthread_mutex_unlock(&slot_lock);
		if (cfg < 0) {
			usleep(20000);
			continue;
		}
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 50) <= 0)
			continue;
		acceptor_doing[first ? 0 : 1] = "accept";
		nfd = accept4(fd, NULL, NULL, 0);
		if (nfd < 0)
			continue;
		sock_timeouts(nfd, HS_TIMEO_S);
		i = slot_add(nfd, 1, K_HS, -1);
		if (i < 0)
			continue;
		acceptor_doing[first ? 0 : 1] = "server handshake";
		t = now();
		ret = quic_server_handshake(nfd, psk_file, NULL, listeners[cfg].alpn);
		acceptor_doing[first ? 0 : 1] = "between handshakes";
		hs_done(1, i, nfd, t, ret);
	}
	return NULL;
}

/* Side 0: keep opening connections while there is room. */
static void *connector_main(void *arg)
{
	struct rng r = { .s = run_seed ^ (0x2000 + (uintptr_t)arg) };
	int id = (int)(uintptr_t)arg;
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = pair.addr6[1] };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_addr = pair.addr4[1] };
	const char *alpn;
	int fd, i, port, ret;
	double t;
	bool v6;

	if (netns_enter(&pair, 0))
		return NULL;
	while (!atomic_load(&stop)) {
		if (slot_count(0, (1u << K_CONN) | (1u << K_HS)) >= 6) {
			usleep(20000);
			continue;
		}
		v6 = chance(&r, 30);
		port = chance(&r, 75) ? PORT_A : PORT_B;
		alpn = client_alpns[rnd(&r, ARRAY_SIZE(client_alpns))];
		fd = socket(v6 ? AF_INET6 : AF_INET, chance(&r, 50) ? SOCK_STREAM : SOCK_DGRAM,
			    IPPROTO_QUIC);
		if (fd < 0) {
			usleep(20000);
			continue;
		}
		sock_timeouts(fd, HS_TIMEO_S);
		a4.sin_port = htons(port);
		a6.sin6_port = htons(port);
		i = slot_add(fd, 0, K_HS, -1);
		if (i < 0)
			continue;
		connector_doing[id] = "connect and client handshake";
		t = now();
		ret = connect(fd, v6 ? (struct sockaddr *)&a6 : (struct sockaddr *)&a4,
			      v6 ? sizeof(a6) : sizeof(a4)) ? -errno :
		      quic_client_handshake(fd, psk_file, NULL, alpn);
		if (ret == -ECONNRESET)
			hs_reset_why(fd);
		hs_done(0, i, fd, t, ret);
	}
	return NULL;
}

/*
 * A handshake whose peer never answers (a client offering only protocols
 * no listener serves, a listener closed under it) would hold its thread
 * for libquic's 30 s: those older than HS_LIFE_S are shut down instead.
 */

static void handshakes_cut(void)
{
	int i;

	pthread_mutex_lock(&slot_lock);
	for (i = 0; i < NSLOT; i++)
		if (slots[i].kind == K_HS && now() - slots[i].born > HS_LIFE_S)
			shutdown(slots[i].fd, SHUT_RDWR);
	pthread_mutex_unlock(&slot_lock);
}

/* ------------------------------------------------------------ setup and checks */

static int tc(int side, const char *args)
{
	char line[256], *argv[24], *tok, *save = NULL;
	int argc = 0, status = 0, devnull;
	pid_t pid;

	snprintf(line, sizeof(line), "%s", args);
	argv[argc++] = TC;
	for (tok = strtok_r(line, " ", &save); tok && argc < 23; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	pid = fork();
	if (!pid) {
		devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, STDOUT_FILENO);
		if (setns(pair.ns[side], CLONE_NEWNET))
			_exit(126);
		execv(TC, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) ? -1 : 0;
}

static int quic_refs(void)
{
	return module_refs("quic");
}

static int pair_sockets(void)
{
	return netns_pair_sockets(&pair, false);
}

/* The protocol's charged pages, polled until at most @want (10 s). */
static bool pages_at_most(void *want)
{
	long v = proto_pages("QUIC");

	return v >= 0 && v <= *(long *)want;
}

static long pcpu_slack(void)
{
	char buf[32];

	if (read_file("/proc/sys/net/core/mem_pcpu_rsv", buf, sizeof(buf)) < 0)
		return 256;
	return atol(buf) * sysconf(_SC_NPROCESSORS_ONLN);
}

/* What /proc/net/quic/conns of each side still lists. */
static void show_conns(void)
{
	char buf[8192], *line, *save = NULL;
	int side;

	for (side = 0; side < 2; side++) {
		if (netns_enter(&pair, side) ||
		    read_file("/proc/net/quic/conns", buf, sizeof(buf)) < 0)
			continue;
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			ktap_diag("side %d: %s", side, line);
	}
	netns_enter(&pair, -1);
}

static unsigned long long parse_env(const char *name, unsigned long long def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : def;
}

static int fuzzer_init(struct fuzzer *f, int side, int id)
{
	f->side = side;
	f->id = id;
	f->r.s = run_seed * 0x9e3779b97f4a7c15ULL + id + 1;
	f->page = sysconf(_SC_PAGESIZE);
	f->pages = mmap(NULL, 3 * f->page, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f->pages == MAP_FAILED || mprotect(f->pages + 2 * f->page, f->page, PROT_NONE))
		return -1;
	memset(f->pages, 0x5a, 2 * f->page);
	if (pipe2(f->pipe, O_NONBLOCK | O_CLOEXEC))
		return -1;
	f->memfd = memfd_create("sysfuzz", MFD_CLOEXEC);
	if (f->memfd < 0 || ftruncate(f->memfd, 65536))
		return -1;
	f->epfd = epoll_create1(EPOLL_CLOEXEC);
	f->doing = "starting";
	return f->epfd < 0 ? -1 : 0;
}

static void fuzzer_fini(struct fuzzer *f)
{
	close(f->pipe[0]);
	close(f->pipe[1]);
	close(f->memfd);
	close(f->epfd);
	munmap(f->pages, 3 * f->page);
}

static void lib_log(int level, const char *msg)
{
	(void)level;
	(void)msg;	/* failed handshakes are expected here by the hundred */
}

int main(int argc, char **argv)
{
	static struct fuzzer fz[2 * FUZZERS_PER_SIDE];
	pthread_t fth[2 * FUZZERS_PER_SIDE], ath[ACCEPTORS], cth[CONNECTORS];
	long refcnt0, pages0, v, slack, want;
	unsigned long long secs;
	int i, stuck = 0, started;
	double t0, end;

	if (argc > 1)
		cert_dir = argv[1];
	psk_file = cert_path("psk-alice.txt");
	signal(SIGPIPE, SIG_IGN);
	ktap_plan(8);
	run_seed = parse_env("sysfuzz_seed", 0);
	if (!run_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		run_seed = (unsigned long long)ts.tv_nsec * 0x100000001b3ULL ^ ts.tv_sec ^ getpid();
	}
	ops_mask = parse_env("sysfuzz_ops", ~0ull);
	secs = parse_env("sysfuzz_secs", parse_env("quic_stress", 0) ? SECS_STRESS : SECS_DEFAULT);
	ktap_diag("seed 0x%llx, %llu s; replay: scripts/selftest.py -t sysfuzz "
		  "--append 'sysfuzz_seed=0x%llx sysfuzz_secs=%llu'", run_seed, secs, run_seed, secs);

	if (module_file("quic_sample", sample_ko, sizeof(sample_ko)))
		sample_ko[0] = '\0';
	quic_set_log_func(lib_log);
	/* Load the module, then let sockets of earlier tests finish closing. */
	close(socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC));
	refcnt0 = wait_value(quic_refs, 0, 10 * 1000);
	pages0 = proto_pages("QUIC");
	if (netns_pair_create(&pair)) {
		ktap_result(false, "two namespaces joined by veth");
		return ktap_finish();
	}
	inet_pton(AF_INET, "192.0.2.11", &second4);
	inet_pton(AF_INET6, "2001:db8::11", &second6);
	if (netns_addr_add(&pair, 0, AF_INET, &second4, 24) ||
	    netns_addr_add(&pair, 0, AF_INET6, &second6, 64))
		ktap_diag("no second address on side 0: migrations will fail");
	for (i = 0; i < 2; i++) {
		char args[160];

		snprintf(args, sizeof(args), "qdisc replace dev %s root netem %s",
			 pair.ifname[i], NETEM);
		if (tc(i, args))
			ktap_diag("tc could not set netem on %s: no loss or reordering",
				  pair.ifname[i]);
	}
	for (i = 0; i < NSLOT; i++)
		slots[i].fd = -1;

	t0 = now();
	started = 0;
	for (i = 0; i < ACCEPTORS; i++)
		started += !pthread_create(&ath[i], NULL, acceptor_main, (void *)(uintptr_t)i);
	for (i = 0; i < CONNECTORS; i++)
		started += !pthread_create(&cth[i], NULL, connector_main, (void *)(uintptr_t)i);
	for (i = 0; i < 2 * FUZZERS_PER_SIDE; i++) {
		fz[i].idle = i / 2 >= (int)parse_env("sysfuzz_fuzzers", FUZZERS_PER_SIDE);
		if (fuzzer_init(&fz[i], i % 2, i)) {
			ktap_diag("fuzzer %d: setup: %s", i, errno_name(errno));
			break;
		}
		started += !pthread_create(&fth[i], NULL, fuzzer_main, &fz[i]);
	}
	if (started != ACCEPTORS + CONNECTORS + 2 * FUZZERS_PER_SIDE) {
		ktap_diag("only %d threads started", started);
		return ktap_finish() | 1;
	}

	end = t0 + secs;
	while (now() < end) {
		sleep(1);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		handshakes_cut();
		if ((int)(now() - t0) % 60 == 0 && secs > 120)
			ktap_diag("%.0f s: %lu handshakes, %lu bytes read", now() - t0,
				  atomic_load(&handshakes_ok), atomic_load(&bytes_read));
	}
	atomic_store(&stop, 1);
	/* Unblock whatever waits: handshakes poll, readers and writers sleep. */
	pthread_mutex_lock(&slot_lock);
	for (i = 0; i < NSLOT; i++)
		if (slots[i].kind != K_FREE)
			shutdown(slots[i].fd, SHUT_RDWR);
	pthread_mutex_unlock(&slot_lock);
	{
		struct timespec dl;

		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += 45;	/* libquic's own handshake poll may wait 30 s */
		for (i = 0; i < 2 * FUZZERS_PER_SIDE; i++) {
			if (pthread_timedjoin_np(fth[i], NULL, &dl)) {
				ktap_diag("fuzzer %d stuck in %s", i, fz[i].doing);
				stuck++;
			}
		}
		for (i = 0; i < ACCEPTORS; i++) {
			if (pthread_timedjoin_np(ath[i], NULL, &dl)) {
				ktap_diag("acceptor %d stuck in %s", i, acceptor_doing[i]);
				stuck++;
			}
		}
		for (i = 0; i < CONNECTORS; i++) {
			if (pthread_timedjoin_np(cth[i], NULL, &dl)) {
				ktap_diag("connector %d stuck in %s", i, connector_doing[i]);
				stuck++;
			}
		}
	}
	ktap_result(!stuck, "all %d threads return when time is up (%d stuck)",
		    ACCEPTORS + CONNECTORS + 2 * FUZZERS_PER_SIDE, stuck);
	if (stuck) {
		/* Their descriptors cannot be closed safely: report and leave. */
		return ktap_finish() | 1;
	}
	for (i = 0; i < 2 * FUZZERS_PER_SIDE; i++)
		fuzzer_fini(&fz[i]);
	for (i = 0; i < NSLOT; i++)
		if (slots[i].kind != K_FREE)
			close(slots[i].fd);
	while (waitpid(-1, NULL, 0) > 0)
		;

	for (i = 0; i < OP_MAX; i++)
		ktap_diag("%-11s %8lu calls, %8lu succeeded", op_name[i],
			  atomic_load(&op_calls[i]), atomic_load(&op_ok[i]));
	ktap_diag("%lu handshakes completed, %lu failed; %lu bytes sent, %lu read; "
		  "%lu forks, %lu sockets handed to quic_sample; %.0f s",
		  atomic_load(&handshakes_ok), atomic_load(&handshakes_failed),
		  atomic_load(&bytes_sent), atomic_load(&bytes_read), atomic_load(&forks),
		  atomic_load(&sample_loads), now() - t0);
	hs_report();
	if (first_violation[0])
		ktap_diag("first violation: %s", first_violation);
	ktap_result(!atomic_load(&canary_broken),
		    "no call wrote outside the buffer it was given (%lu buffers checked)",
		    atomic_load(&canary_checks));
	ktap_result(!atomic_load(&overlong),
		    "no call took or returned more bytes than it was offered (%lu did)",
		    atomic_load(&overlong));
	ktap_result(atomic_load(&handshakes_ok) >= 4 && atomic_load(&bytes_read) > 0,
		    "the pool was alive: %lu connections established, %lu bytes read",
		    atomic_load(&handshakes_ok), atomic_load(&bytes_read));

	/* A closed connection keeps its socket for its closing period, at
	 * most QUIC_CLOSE_PERIOD_MAX (a minute).
	 */
	v = wait_value(pair_sockets, 0, 75 * 1000);
	if (!ktap_result(!v, "no QUIC socket left in either namespace (%ld)", v))
		show_conns();
	v = wait_value(quic_refs, refcnt0, 10 * 1000);
	ktap_result(v >= 0 && v <= refcnt0, "module refcount back to %ld (now %ld)", refcnt0, v);
	netns_pair_destroy(&pair);
	slack = pcpu_slack() + 16;
	want = pages0 + slack;
	wait_until(pages_at_most, &want, 10 * 1000);
	v = proto_pages("QUIC");
	ktap_result(pages0 >= 0 && v >= 0 && v <= want,
		    "charged memory back to its level: %ld pages, %ld before (slack %ld)", v, pages0,
		    slack);
	v = module_unload("quic", 10000);
	ktap_result(!v, "quic.ko unloads afterwards (%s)", v ? errno_name(-v) : "ok");
	return ktap_finish();
}
