// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel consumers: QUIC sockets opened in the kernel, their TLS
 * handshakes run by the userspace agent quic-handshaked through
 * net/handshake, then data exchanged with kernel_sendmsg() and
 * kernel_recvmsg(). The kernel side is the sample module quic_sample
 * (net/quic/sample.c): loading it runs one exchange and returns its result,
 * so each case is a finit_module() whose errno is checked.
 *
 * A namespace pair (netns.h) with one agent in each side: side 1
 * (192.0.2.2, 2001:db8::2) is the server's, side 0 the client's. Cases:
 * no agent (ESRCH); an in-kernel client fetching from quic-server (also
 * with the server started after the client's first Initial); quic-client
 * fetching from an in-kernel server; in-kernel to in-kernel across the two
 * namespaces over IPv4 and IPv6; each with a PSK from the keyring and with
 * X.509. Failures: a wrong PSK, a key serial that does not exist, a name
 * the server's certificate does not carry, a TCP socket (refused by the
 * agent), and the agent killed in the middle of a handshake, which must not
 * hold the kernel caller past its timeout. At the end no QUIC socket is
 * left and both modules unload.
 *
 * Usage: kconsumer (programs and credentials in /tests)
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/keyctl.h>
#include <linux/quic.h>

#include "ktap.h"
#include "netns.h"
#include "util.h"

#define TESTS_DIR	"/tests"
#define AGENT		TESTS_DIR "/quic-handshaked"
#define SERVER		TESTS_DIR "/quic-server"
#define CLIENT		TESTS_DIR "/quic-client"
#define WWW		"/tmp/kconsumer-www"
#define OUT		"/tmp/kconsumer-out"
#define HELLO		"hello-from-a-userspace-QUIC-server"
#define SERVER_NAME	"server.test"
#define TIMEOUT_MS	15000
#define SLOW_S		8	/* an exchange still running then is likely stuck */
#define SYSLOG_ACTION_READ_ALL	3	/* klogctl(): the whole kernel log */

static struct netns_pair pair;
static pid_t agents[2];
static char addr4[2][INET_ADDRSTRLEN], addr6[2][INET6_ADDRSTRLEN];
static char ko_path[256];
static int psk_key, wrong_key;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------ keys */

static int key_add(const char *type, const char *desc, const void *payload, size_t len,
		   int ring)
{
	long serial;

	serial = syscall(__NR_add_key, type, desc, payload, len, ring);
	if (serial < 0)
		return -errno;
	/* The agent runs as root but does not possess the key: let uid 0 read it. */
	if (syscall(__NR_keyctl, KEYCTL_SETPERM, serial, 0x3f3f0000))
		return -errno;
	return serial;
}

/* The PSK of psk-alice.txt ("identity:hexkey") as a key, and a wrong one. */
static int keys_setup(void)
{
	char line[256], *colon;
	unsigned char key[64];
	size_t n, i;
	ssize_t len;
	int ring;

	len = read_file(cert_path("psk-alice.txt"), line, sizeof(line));
	if (len <= 0)
		return -ENOENT;
	line[strcspn(line, "\r\n")] = '\0';
	colon = strchr(line, ':');
	if (!colon)
		return -EINVAL;
	*colon++ = '\0';
	n = strlen(colon) / 2;
	if (n == 0 || n > sizeof(key))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (sscanf(colon + 2 * i, "%2hhx", &key[i]) != 1)
			return -EINVAL;
	psk_key = key_add("user", line, key, n, KEY_SPEC_USER_KEYRING);
	/*
	 * Same identity, another secret: the server must refuse it. It goes
	 * to a keyring of its own: adding a key of the same type and
	 * description to one keyring would replace the first one's payload.
	 */
	ring = key_add("keyring", "kconsumer-wrong", NULL, 0, KEY_SPEC_USER_KEYRING);
	for (i = 0; i < n; i++)
		key[i] ^= 0x5a;
	wrong_key = ring < 0 ? ring : key_add("user", line, key, n, ring);
	memset(key, 0, sizeof(key));
	if (psk_key < 0 || wrong_key < 0)
		return psk_key < 0 ? psk_key : wrong_key;
	if (psk_key == wrong_key)
		return -EEXIST;
	return 0;
}

/* ------------------------------------------------------------ processes */

/* Start @argv in the namespace of @side with its output in @log. */
static pid_t spawn(int side, const char *log, char *const argv[])
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (netns_enter(&pair, side))
		_exit(126);
	if (log) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
	}
	execv(argv[0], argv);
	_exit(127);
}

static int wait_exit(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void stop(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGTERM);
		wait_exit(*pid);
	}
	*pid = 0;
}

static const char *agent_log(int side)
{
	return side ? "/tmp/kconsumer-agent1.log" : "/tmp/kconsumer-agent0.log";
}

/* How many times the agent of @side announced that it serves requests. */
static int agent_starts(int side)
{
	static char buf[262144];
	int n = 0;
	char *p;

	if (read_file(agent_log(side), buf, sizeof(buf)) <= 0)
		return 0;
	for (p = buf; (p = strstr(p, "]: serving ")); p++)
		n++;
	return n;
}

/* How many handshake requests the agent of @side took (it logs each one). */
static int agent_requests(int side)
{
	static char buf[262144];
	int n = 0;
	char *p;

	if (read_file(agent_log(side), buf, sizeof(buf)) <= 0)
		return 0;
	for (p = buf; (p = strstr(p, " request: process ")); p++)
		n++;
	return n;
}

/*
 * Start the agent of @side and wait until it has joined the handshake
 * family's group (it logs "serving" then): a request made before gets
 * ESRCH, the kernel's answer when no agent listens in the namespace.
 */
static void agent_start_cert(int side, const char *cert)
{
	char *argv[] = { AGENT, "-f", "-v", "--ca", (char *)cert_path("ca.pem"),
			 "--cert", (char *)cert, "--key", (char *)cert_path("server.key"), NULL };
	int before = agent_starts(side);
	double deadline = now() + 20;

	agents[side] = spawn(side, agent_log(side), argv);
	while (agent_starts(side) == before && now() < deadline)
		usleep(20 * 1000);
	if (agent_starts(side) == before)
		ktap_diag("agent %d did not start within 20 s", side);
}

static void agent_start(int side)
{
	agent_start_cert(side, cert_path("server.pem"));
}

/* Print the last 3000 bytes of @len in @buf, a line at a time, as @name's. */
static void show_text(const char *name, char *buf, ssize_t len)
{
	char *line, *save = NULL, *start = buf;

	if (len <= 0)
		return;
	buf[len] = '\0';
	if (len > 3000) {
		start = strchr(buf + len - 3000, '\n');
		start = start ? start + 1 : buf + len - 3000;
	}
	for (line = strtok_r(start, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		ktap_diag("%s: %s", name, line);
}

/* Print the end of a log file as diagnostics (after a failure). */
static void show_log(const char *path)
{
	static char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;
	off_t end;

	if (fd < 0)
		return;
	/* Files of /proc have no size: they are read from their start. */
	end = lseek(fd, 0, SEEK_END);
	if (end > (off_t)sizeof(buf) - 1)
		lseek(fd, end - (sizeof(buf) - 1), SEEK_SET);
	else
		lseek(fd, 0, SEEK_SET);
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	show_text(path, buf, len);
}

/*
 * For an exchange that failed or takes too long: what QUIC in each
 * namespace counted and which sockets it holds (read through an agent's
 * /proc entry, which is in its namespace), and the end of the kernel log,
 * where the sample module reports its steps.
 */
static void show_state(void)
{
	static const char *const files[] = { "snmp", "conns" };
	static char klog[65536];
	char path[64];
	unsigned int f;
	int side;

	for (side = 0; side < 2; side++) {
		if (agents[side] <= 0)
			continue;
		for (f = 0; f < ARRAY_SIZE(files); f++) {
			snprintf(path, sizeof(path), "/proc/%d/net/quic/%s", agents[side],
				 files[f]);
			show_log(path);
		}
	}
	show_text("dmesg", klog, klogctl(SYSLOG_ACTION_READ_ALL, klog, sizeof(klog) - 1));
}

/* ------------------------------------------------------------ the module */

/* When set, sample_start() gives the module this socket of the child's. */
static int (*user_socket)(void);
static int user_port;

/* A QUIC socket made as an application would: ALPN set, connected. */
static int connected_quic_socket(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(user_port),
				   .sin_addr = pair.addr4[1] };
	int sfd = socket(AF_INET, SOCK_DGRAM, IPPROTO_QUIC);

	if (sfd < 0 ||
	    setsockopt(sfd, SOL_QUIC, QUIC_SOCKOPT_ALPN, "hq-interop", strlen("hq-interop")) ||
	    connect(sfd, (struct sockaddr *)&sin, sizeof(sin)))
		return -1;
	return sfd;
}

/*
 * Load quic_sample with @params in the namespace of @side, in a child: its
 * exit status is the errno of finit_module() (0: the exchange worked).
 * While the agents start, their netlink group may not be joined yet: a
 * load refused with ESRCH is retried for a while when @agent_up is set.
 */
static pid_t sample_start(int side, const char *params, bool agent_up)
{
	double deadline = now() + 10;
	pid_t pid = fork();
	int fd, err;

	if (pid)
		return pid;
	if (netns_enter(&pair, side))
		_exit(126);
	fd = open(ko_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(125);
	if (user_socket) {
		char *all = NULL;
		int sfd = user_socket();

		if (sfd < 0 || asprintf(&all, "%s fd=%d", params, sfd) < 0)
			_exit(124);
		params = all;
	}
	for (;;) {
		err = syscall(__NR_finit_module, fd, params, 0) ? errno : 0;
		if (err != ESRCH || !agent_up || now() > deadline)
			break;
		usleep(100 * 1000);
	}
	_exit(err);
}

/* Wait for a load started by sample_start(); unload the module after success. */
static int sample_wait(pid_t pid, double *secs)
{
	double start = now();
	bool snap = false;
	int rc, st = 0;
	pid_t r;

	/*
	 * Every exchange here takes well under SLOW_S: one still running
	 * then is likely stuck, and its sockets are listed while they exist
	 * (the module releases them when it gives up).
	 */
	while ((r = waitpid(pid, &st, WNOHANG)) == 0) {
		usleep(20 * 1000);
		if (!snap && now() - start > SLOW_S) {
			snap = true;
			ktap_diag("still waiting after %d s: the state of both namespaces", SLOW_S);
			show_state();
		}
	}
	if (r < 0)
		rc = -errno;
	else
		rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	if (secs)
		*secs = now() - start;
	if (rc == 0 && module_unload("quic_sample", 5000))
		ktap_diag("quic_sample did not unload");
	return rc;
}

static int sample_run(int side, const char *params, double *secs)
{
	return sample_wait(sample_start(side, params, true), secs);
}

/* Is an in-kernel server listening on @port, seen from side 1's agent? */
static bool listening(int port)
{
	char path[64], buf[8192], needle[16];
	double deadline = now() + 10;

	snprintf(path, sizeof(path), "/proc/%d/net/quic/conns", agents[1]);
	snprintf(needle, sizeof(needle), ":%d ", port);
	while (now() < deadline) {
		if (read_file(path, buf, sizeof(buf)) > 0 && strstr(buf, needle) &&
		    strstr(buf, "LISTEN"))
			return true;
		usleep(50 * 1000);
	}
	return false;
}

/* Create (or replace) @path holding @str. */
static int create_file(const char *path, const char *str)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, str, strlen(str));
	close(fd);
	return n == (ssize_t)strlen(str) ? 0 : -EIO;
}

/* QUIC sockets where the test makes them: home and the pair's namespaces. */
static int quic_sockets(void)
{
	return netns_pair_sockets(&pair, true);
}

static bool expect_errno(int rc, int want, const char *name)
{
	return ktap_result(rc == want, "%s (%s, got %s)", name, errno_name(want),
			   rc ? errno_name(rc) : "success");
}

/* ------------------------------------------------------------ cases */

static void case_no_agent(void)
{
	char params[256];

	snprintf(params, sizeof(params), "role=client addr=%s port=4450 psk=%d timeout_ms=3000",
		 addr4[1], psk_key);
	expect_errno(sample_wait(sample_start(0, params, false), NULL), ESRCH,
		     "no agent listening: the kernel client's request fails at once");
}

/*
 * An in-kernel client fetches /hello.txt from quic-server on side 1. With
 * @late_ms the client starts first and the server @late_ms later: the
 * client's first Initial finds no socket, and a retransmission must reach
 * the server once it listens.
 */
static void case_kernel_client(bool psk, int late_ms)
{
	char params[512], listen[64];
	char *argv[] = { SERVER, "--listen", listen, "--root", WWW, "--alpn", "hq-interop",
			 psk ? "--psk" : "--cert",
			 (char *)cert_path(psk ? "psk-alice.txt" : "server.pem"),
			 psk ? NULL : "--key", psk ? NULL : (char *)cert_path("server.key"),
			 NULL };
	int port = late_ms ? 4456 : psk ? 4451 : 4452;
	pid_t server = 0, client = 0;
	double secs;
	int rc;

	snprintf(listen, sizeof(listen), "%s:%d", addr4[1], port);
	if (!late_ms) {
		server = spawn(1, "/tmp/kconsumer-server.log", argv);
		if (!listening(port))
			ktap_diag("quic-server does not listen on %d", port);
	}
	if (psk)
		snprintf(params, sizeof(params),
			 "role=client addr=%s port=%d psk=%d path=/hello.txt expect=%s",
			 addr4[1], port, psk_key, HELLO);
	else
		snprintf(params, sizeof(params),
			 "role=client addr=%s port=%d peername=%s path=/hello.txt expect=%s",
			 addr4[1], port, SERVER_NAME, HELLO);
	if (late_ms) {
		client = sample_start(0, params, true);
		usleep(late_ms * 1000);
		server = spawn(1, "/tmp/kconsumer-server.log", argv);
		rc = sample_wait(client, &secs);
	} else {
		rc = sample_run(0, params, &secs);
	}
	stop(&server);
	if (!ktap_result(rc == 0,
			 "in-kernel client fetches a file from quic-server (%s%s): %s, %.2f s",
			 psk ? "PSK" : "X.509", late_ms ? ", the server starts late" : "",
			 rc ? errno_name(rc) : "ok", secs)) {
		show_log("/tmp/kconsumer-server.log");
		show_log(agent_log(0));
		show_state();
	}
}

static bool file_is(const char *path, const char *want)
{
	char buf[256];
	ssize_t n = read_file(path, buf, sizeof(buf));

	return n == (ssize_t)strlen(want) && !memcmp(buf, want, n);
}

static bool file_is_pattern(const char *path, size_t size)
{
	size_t i, len = 0;
	unsigned char *buf;
	bool ok = true;
	FILE *f;

	buf = malloc(size + 1);
	f = fopen(path, "rb");
	if (buf && f)
		len = fread(buf, 1, size + 1, f);
	if (f)
		fclose(f);
	if (!buf || len != size)
		ok = false;
	/* The sample's pattern (net/quic/sample.c, sample_pattern()). */
	for (i = 0; ok && i < size; i++)
		ok = buf[i] == 'a' + (i * 7 + i / 26) % 26;
	free(buf);
	return ok;
}

/* quic-client on side 0 fetches from an in-kernel server on side 1. */
static void case_kernel_server(bool psk)
{
	char params[512], url[128], out[128];
	char *argv[] = { CLIENT, "--alpn", "hq-interop", "--timeout", "20", "--output", OUT,
			 psk ? "--psk" : "--ca",
			 (char *)cert_path(psk ? "psk-alice.txt" : "ca.pem"), url, NULL };
	int port = psk ? 4453 : 4454;
	bool ok_file;
	pid_t server;
	int rc, crc;

	if (psk)
		snprintf(params, sizeof(params), "role=server addr=%s port=%d psk=%d",
			 addr4[1], port, psk_key);
	else
		snprintf(params, sizeof(params), "role=server addr=%s port=%d reply_size=65536",
			 addr4[1], port);
	server = sample_start(1, params, true);
	if (!listening(port)) {
		ktap_diag("the in-kernel server does not listen on %d", port);
		kill(server, SIGKILL);
	}
	if (psk)
		snprintf(url, sizeof(url), "https://%s:%d/psk/file", addr4[1], port);
	else
		snprintf(url, sizeof(url), "https://%s:%d/blob", SERVER_NAME, port);
	crc = wait_exit(spawn(0, "/tmp/kconsumer-client.log", argv));
	rc = sample_wait(server, NULL);
	snprintf(out, sizeof(out), "%s/%s", OUT, psk ? "file" : "blob");
	ok_file = psk ? file_is(out, "kernel QUIC server: /psk/file\n") :
			file_is_pattern(out, 65536);
	if (!ktap_result(rc == 0 && crc == 0 && ok_file,
			 "quic-client fetches %s from an in-kernel server (%s): server %s, client %d, body %s",
			 psk ? "a line" : "64 KiB", psk ? "PSK" : "X.509",
			 rc ? errno_name(rc) : "ok", crc, ok_file ? "right" : "wrong")) {
		show_log("/tmp/kconsumer-client.log");
		show_log(agent_log(1));
		show_state();
	}
}

/*
 * A socket created and connected by an application, handed to the kernel
 * consumer (as a server hands NFS its listener): same handshake upcall.
 */
static void case_user_socket(void)
{
	char listen[64];
	char *argv[] = { SERVER, "--listen", listen, "--root", WWW, "--alpn", "hq-interop",
			 "--psk", (char *)cert_path("psk-alice.txt"), NULL };
	char params[256];
	pid_t server;
	double secs;
	int rc;

	user_port = 4455;
	snprintf(listen, sizeof(listen), "%s:%d", addr4[1], user_port);
	server = spawn(1, "/tmp/kconsumer-server.log", argv);
	if (!listening(user_port))
		ktap_diag("quic-server does not listen on %d", user_port);
	snprintf(params, sizeof(params), "role=client psk=%d path=/hello.txt expect=%s",
		 psk_key, HELLO);
	user_socket = connected_quic_socket;
	rc = sample_run(0, params, &secs);
	user_socket = NULL;
	stop(&server);
	if (!ktap_result(rc == 0,
			 "a socket from userspace handed to the kernel consumer: %s, %.2f s",
			 rc ? errno_name(rc) : "ok", secs)) {
		show_log("/tmp/kconsumer-server.log");
		show_log(agent_log(0));
		show_state();
	}
}

/* Both ends in the kernel: the server in side 1, the client in side 0. */
static void case_kernel_both(bool psk, bool ipv6)
{
	const char *addr = ipv6 ? addr6[1] : addr4[1];
	int port = 4460 + psk * 2 + ipv6;
	char params[512];
	double secs;
	int rc;

	if (psk)
		snprintf(params, sizeof(params),
			 "role=loop addr=%s port=%d server_pid=%d reply_size=200000 expect_size=200000 psk=%d",
			 addr, port, agents[1], psk_key);
	else
		snprintf(params, sizeof(params),
			 "role=loop addr=%s port=%d server_pid=%d reply_size=200000 expect_size=200000 peername=%s",
			 addr, port, agents[1], SERVER_NAME);
	rc = sample_run(0, params, &secs);
	if (!ktap_result(rc == 0, "in-kernel client and server in two namespaces (%s, %s, 200000 bytes): %s, %.2f s",
			 psk ? "PSK" : "X.509", ipv6 ? "IPv6" : "IPv4",
			 rc ? errno_name(rc) : "ok", secs)) {
		show_log(agent_log(0));
		show_log(agent_log(1));
		show_state();
	}
}

/*
 * Settings a kernel consumer makes with quic_kernel_setsockopt() before
 * the handshake (QUIC v2 in QUIC_SOCKOPT_CONFIG, max_idle_timeout in the
 * transport parameters) survive the agent's handshake: the client reads
 * the version in use and the server's parameter back (the module checks).
 */
static void case_kernel_settings(void)
{
	char params[512];
	double secs;
	int rc;

	snprintf(params, sizeof(params),
		 "role=loop addr=%s port=4465 server_pid=%d psk=%d version=2 idle_timeout_ms=42000 reply_size=5000 expect_size=5000",
		 addr4[1], agents[1], psk_key);
	rc = sample_run(0, params, &secs);
	ktap_result(rc == 0,
		    "settings made with quic_kernel_setsockopt() hold after the agent's handshake (QUIC v2, max_idle_timeout): %s",
		    rc ? errno_name(rc) : "ok");
}

/* Loops whose handshake must fail with an error, never a hang. */
static void case_failures(void)
{
	char params[512];
	double secs;
	int rc;

	/* quic-server knows the right key: the two secrets differ. */
	snprintf(params, sizeof(params), "role=client addr=%s port=4470 psk=%d timeout_ms=8000 path=/hello.txt",
		 addr4[1], wrong_key);
	{
		char listen[64];
		char *argv[] = { SERVER, "--listen", listen, "--root", WWW, "--alpn",
				 "hq-interop", "--psk", (char *)cert_path("psk-alice.txt"), NULL };
		pid_t server;

		snprintf(listen, sizeof(listen), "%s:4470", addr4[1]);
		server = spawn(1, "/tmp/kconsumer-server.log", argv);
		if (!listening(4470))
			ktap_diag("quic-server does not listen on 4470");
		rc = sample_run(0, params, &secs);
		stop(&server);
	}
	ktap_result(rc && rc != ETIMEDOUT && secs < 8,
		    "wrong PSK: the handshake fails and the caller gets the agent's error (%s after %.2f s)",
		    rc ? errno_name(rc) : "success", secs);

	snprintf(params, sizeof(params), "role=client addr=%s port=4471 psk=987654321 timeout_ms=8000",
		 addr4[1]);
	rc = sample_run(0, params, &secs);
	expect_errno(rc, ENOKEY, "a PSK key serial that does not exist: the agent completes with ENOKEY");

	snprintf(params, sizeof(params),
		 "role=loop addr=%s port=4472 server_pid=%d peername=wrong.test timeout_ms=8000",
		 addr4[1], agents[1]);
	rc = sample_run(0, params, &secs);
	ktap_result(rc && rc != ETIMEDOUT && secs < 8,
		    "the server's certificate does not name peername: the client's handshake fails (%s after %.2f s)",
		    rc ? errno_name(rc) : "success", secs);

	rc = sample_run(0, "role=server reply_size=4294967295", &secs);
	expect_errno(rc, EINVAL, "a body size past the module's 16 MiB bound is refused before any socket");

	rc = sample_run(0, "role=tcp timeout_ms=8000", &secs);
	expect_errno(rc, EPROTONOSUPPORT, "a handshake request for a TCP socket is refused by the QUIC agent");
}

/*
 * The server's agent is configured with a certificate file that is not
 * there: it must still complete the request, with ENOENT, and the
 * in-kernel server return that instead of waiting.
 */
static void case_missing_cert(void)
{
	char url[128];
	char *argv[] = { CLIENT, "--alpn", "hq-interop", "--timeout", "10", "--output", OUT,
			 "--ca", (char *)cert_path("ca.pem"), url, NULL };
	char params[256];
	pid_t server;
	double secs;
	int rc;

	stop(&agents[1]);
	agent_start_cert(1, "/tests/certs/missing.pem");
	snprintf(params, sizeof(params), "role=server addr=%s port=4476 timeout_ms=8000",
		 addr4[1]);
	secs = now();
	server = sample_start(1, params, true);
	if (!listening(4476))
		ktap_diag("the in-kernel server does not listen on 4476");
	snprintf(url, sizeof(url), "https://%s:4476/x", SERVER_NAME);
	wait_exit(spawn(0, "/tmp/kconsumer-client.log", argv));
	rc = sample_wait(server, NULL);
	secs = now() - secs;
	if (!ktap_result(rc == ENOENT && secs < 8,
			 "the agent's certificate file is missing: the server's request completes with ENOENT (%s after %.2f s)",
			 rc ? errno_name(rc) : "success", secs))
		show_log(agent_log(1));
	stop(&agents[1]);
	agent_start(1);
}

/* The agent dies holding a request: the caller returns at its timeout. */
static void case_agent_killed(void)
{
	char params[256];
	double secs, start;
	int rc, taken;
	pid_t pid;

	/* Nobody listens on port 4480: the handshake waits for an answer. */
	snprintf(params, sizeof(params), "role=client addr=%s port=4480 psk=%d timeout_ms=4000",
		 addr4[1], psk_key);
	taken = agent_requests(0);
	start = now();
	pid = sample_start(0, params, true);
	/* Killed once it has taken the request and started its handshake. */
	while (agent_requests(0) == taken && now() - start < 10)
		usleep(10 * 1000);
	if (agent_requests(0) == taken)
		ktap_diag("agent 0 took no request within 10 s");
	kill(agents[0], SIGKILL);
	wait_exit(agents[0]);
	agents[0] = 0;
	rc = sample_wait(pid, NULL);
	secs = now() - start;
	ktap_result(rc == ETIMEDOUT && secs > 3.5 && secs < 4 + 5,
		    "agent killed during a handshake: the kernel caller returns ETIMEDOUT at its timeout (%s after %.2f s)",
		    rc ? errno_name(rc) : "success", secs);
	agent_start(0);
	snprintf(params, sizeof(params),
		 "role=loop addr=%s port=4481 server_pid=%d psk=%d expect_size=1000 reply_size=1000",
		 addr4[1], agents[1], psk_key);
	rc = sample_run(0, params, &secs);
	if (!ktap_result(rc == 0, "a restarted agent serves the next request (%s)",
			 rc ? errno_name(rc) : "ok"))
		show_log(agent_log(0));
}

static int setup(void)
{
	int err;

	if (module_file("quic_sample", ko_path, sizeof(ko_path)) || access(AGENT, X_OK)) {
		ktap_diag("missing %s or %s", ko_path, AGENT);
		return -ENOENT;
	}
	err = module_load("quic");
	if (err) {
		ktap_diag("modprobe quic: %s", strerror(-err));
		return err;
	}
	err = keys_setup();
	if (err) {
		ktap_diag("keys: %s", strerror(-err));
		return err;
	}
	err = netns_pair_create(&pair);
	if (err)
		return err;
	inet_ntop(AF_INET, &pair.addr4[1], addr4[1], sizeof(addr4[1]));
	inet_ntop(AF_INET6, &pair.addr6[1], addr6[1], sizeof(addr6[1]));
	inet_ntop(AF_INET, &pair.addr4[0], addr4[0], sizeof(addr4[0]));
	inet_ntop(AF_INET6, &pair.addr6[0], addr6[0], sizeof(addr6[0]));
	mkdir(WWW, 0755);
	err = create_file(WWW "/hello.txt", HELLO);
	if (!err) {
		char hosts[128];

		/* quic-client resolves the certificate's name. */
		snprintf(hosts, sizeof(hosts), "127.0.0.1 localhost\n%s %s\n", addr4[1],
			 SERVER_NAME);
		err = create_file("/etc/hosts", hosts);
	}
	if (err)
		ktap_diag("files: %s", strerror(-err));
	return err;
}

int main(void)
{
	int sockets_before, sockets_after;

	ktap_plan(22);
	if (setup()) {
		ktap_diag("setup failed: no case can run");
		return 1;
	}
	sockets_before = quic_sockets();
	case_no_agent();
	agent_start(0);
	agent_start(1);
	case_kernel_client(true, 0);
	case_kernel_client(false, 0);
	case_kernel_client(true, 1500);
	case_kernel_server(true);
	case_kernel_server(false);
	case_user_socket();
	case_kernel_both(true, false);
	case_kernel_both(true, true);
	case_kernel_both(false, false);
	case_kernel_both(false, true);
	case_kernel_settings();
	case_failures();
	case_missing_cert();
	case_agent_killed();
	stop(&agents[0]);
	stop(&agents[1]);

	/* Sockets are freed when their last file reference goes: a moment later. */
	sockets_after = wait_value(quic_sockets, sockets_before, 10 * 1000);
	ktap_result(sockets_before >= 0 && sockets_after == sockets_before,
		    "no QUIC socket left behind (%d before, %d after)", sockets_before,
		    sockets_after);
	ktap_result(!module_present("quic_sample") && module_unload("quic", 10000) == 0,
		    "the sample and the quic module unload: no reference held");
	netns_pair_destroy(&pair);
	return ktap_finish();
}
