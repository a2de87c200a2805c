// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf's download rows ("dl"): one HTTP/3 GET of a file of --dl-bytes,
 * served from tmpfs, by two pairs of programs that do the same job:
 *  - quic: tools/quic's quic-server and quic-client, on the kernel's QUIC
 *    (libquic for the handshake);
 *  - ngtcp2: ngtcp2's example programs gtlsserver and gtlsclient (Debian's
 *    ngtcp2-server and ngtcp2-client), QUIC in userspace over UDP.
 * Both use AES-128-GCM, and neither client checks the certificate (the
 * server is named by its address). The figure is the file's size over
 * the client's whole life, from fork() to exit: start-up and the
 * handshake are inside it, a few milliseconds against seconds of data.
 * The downloaded copy must match the file byte for byte.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "netns.h"
#include "perf.h"
#include "util.h"

#define DL_DIR		"/tmp/perf-dl"
#define DL_WWW		DL_DIR "/www"
#define DL_OUT		DL_DIR "/out"
#define DL_FILE		"file"
/* Waiting for the server's UDP socket: this often, this long. */
#define DL_POLL_US	20000
#define DL_READY_S	30

const char *perf_dl_tools = "/tests";

static double dl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *const dl_progs[PERF_KINDS][2] = {
	[PERF_QUIC] = { "quic-server", "quic-client" },
	[PERF_NGTCP2] = { "gtlsserver", "gtlsclient" },
};

/* Where @name is: under perf_dl_tools for ours, on $PATH for ngtcp2's. */
static bool dl_find(enum perf_kind kind, const char *name, char *path, size_t len)
{
	const char *env = getenv("PATH");
	char dirs[512], *dir, *save = NULL;

	if (kind == PERF_QUIC) {
		snprintf(path, len, "%s/%s", perf_dl_tools, name);
		return !access(path, X_OK);
	}
	snprintf(dirs, sizeof(dirs), "%s", env && *env ? env :
		 "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin");
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(path, len, "%s/%s", dir, name);
		if (!access(path, X_OK))
			return true;
	}
	return false;
}

bool perf_dl_available(enum perf_kind kind, char *why, size_t len)
{
	char path[256];
	int i;

	if (kind >= PERF_KINDS || !dl_progs[kind][0]) {
		snprintf(why, len, "no download programs for this kind");
		return false;
	}
	for (i = 0; i < 2; i++) {
		if (!dl_find(kind, dl_progs[kind][i], path, sizeof(path))) {
			snprintf(why, len, "%s not found (%s)", dl_progs[kind][i],
				 kind == PERF_QUIC ? perf_dl_tools : "$PATH");
			return false;
		}
	}
	return true;
}

/* The file served: @bytes of the bulk pattern. */
int perf_dl_prepare(uint64_t bytes)
{
	static char chunk[PERF_PATTERN_PERIOD * 256];
	uint64_t off = 0;
	size_t i, n;
	int fd, err = 0;

	for (i = 0; i < sizeof(chunk); i++)
		chunk[i] = perf_pattern(i);
	if ((mkdir(DL_DIR, 0755) && errno != EEXIST) ||
	    (mkdir(DL_WWW, 0755) && errno != EEXIST))
		return -errno;
	fd = open(DL_WWW "/" DL_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	/* sizeof(chunk) is a whole number of periods: every write starts at 0. */
	while (!err && off < bytes) {
		n = bytes - off < sizeof(chunk) ? bytes - off : sizeof(chunk);
		if (write(fd, chunk, n) != (ssize_t)n)
			err = errno ? -errno : -EIO;
		off += n;
	}
	if (close(fd) && !err)
		err = -errno;
	return err;
}

void perf_dl_cleanup(void)
{
	unlink(DL_WWW "/" DL_FILE);
	unlink(DL_OUT "/" DL_FILE);
	unlink(DL_DIR "/server.log");
	unlink(DL_DIR "/client.log");
	rmdir(DL_WWW);
	rmdir(DL_OUT);
	rmdir(DL_DIR);
}

/* Fill @argv for side @side (1: server) of @kind; the strings live in @buf. */
static void dl_argv(enum perf_kind kind, int side, const struct perf_job *j, char *argv[16],
		    char buf[4][256])
{
	char *addr = buf[3];
	int n = 0;

	inet_ntop(AF_INET, &j->server.sin_addr, addr, sizeof(buf[3]));
	dl_find(kind, dl_progs[kind][side ? 0 : 1], buf[0], sizeof(buf[0]));
	argv[n++] = buf[0];
	if (kind == PERF_QUIC && side) {
		snprintf(buf[1], sizeof(buf[1]), "%s:%d", addr, j->port);
		argv[n++] = "--listen";
		argv[n++] = buf[1];
		argv[n++] = "--cert";
		argv[n++] = (char *)cert_path("server.pem");
		argv[n++] = "--key";
		argv[n++] = (char *)cert_path("server.key");
		argv[n++] = "--root";
		argv[n++] = DL_WWW;
		argv[n++] = "--alpn";
		argv[n++] = "h3";
		argv[n++] = "--quiet";
	} else if (kind == PERF_QUIC) {
		snprintf(buf[1], sizeof(buf[1]), "https://%s:%d/" DL_FILE, addr, j->port);
		argv[n++] = "--alpn";
		argv[n++] = "h3";
		argv[n++] = "--insecure";
		argv[n++] = "--cipher";
		argv[n++] = "TLS_AES_128_GCM_SHA256";
		argv[n++] = "--output";
		argv[n++] = DL_OUT;
		argv[n++] = buf[1];
	} else {
		/* ngtcp2: the same suite, through a GnuTLS priority string. */
		argv[n++] = "--quiet";
		argv[n++] = "--ciphers=NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM";
		snprintf(buf[1], sizeof(buf[1]), "%d", j->port);
		if (side) {
			argv[n++] = "--htdocs=" DL_WWW;
			argv[n++] = addr;
			argv[n++] = buf[1];
			argv[n++] = (char *)cert_path("server.key");
			argv[n++] = (char *)cert_path("server.pem");
		} else {
			snprintf(buf[2], sizeof(buf[2]), "https://%s:%d/" DL_FILE, addr, j->port);
			argv[n++] = "--exit-on-all-streams-close";
			argv[n++] = "--download=" DL_OUT;
			argv[n++] = addr;
			argv[n++] = buf[1];
			argv[n++] = buf[2];
		}
	}
	argv[n] = NULL;
}

/* Run side @side of @j in its namespace, output into @log. */
static pid_t dl_spawn(const struct netns_pair *pair, const struct perf_job *j, int side,
		      const char *log)
{
	char *argv[16], buf[4][256];
	pid_t pid;
	int fd;

	dl_argv(j->kind, side, j, argv, buf);
	fflush(stdout);
	pid = fork();
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || netns_enter(pair, side))
		_exit(126);
	execv(argv[0], argv);
	_exit(127);
}

/* Does side 1's namespace have a UDP socket on @port? (Our own /proc/net/udp.) */
static bool dl_udp_bound(const struct netns_pair *pair, int port)
{
	unsigned int lport;
	bool found = false;
	char line[256];
	FILE *f;

	if (netns_enter(pair, 1))
		return false;
	/* "  sl  local_address ...": "   0: 0202000C:4E20 ...", the port in hex. */
	f = fopen("/proc/self/net/udp", "re");
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, " %*u: %*x:%x", &lport) == 1 && lport == (unsigned int)port;
	if (f)
		fclose(f);
	netns_enter(pair, -1);
	return found;
}

/* The last line of @path that says something, into @buf. */
static const char *dl_last_line(const char *path, char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen(path, "re");

	snprintf(buf, len, "(no output)");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0])
			snprintf(buf, len, "%s", line);
	}
	if (f)
		fclose(f);
	return buf;
}

/* The downloaded copy: @bytes long and the pattern throughout. */
static bool dl_check(uint64_t bytes, char *why, size_t len)
{
	static uint8_t buf[1 << 16], pat[(1 << 16) + PERF_PATTERN_PERIOD];
	uint64_t off = 0;
	ssize_t n, i;
	int fd;

	for (i = 0; i < (ssize_t)sizeof(pat); i++)
		pat[i] = perf_pattern(i);
	fd = open(DL_OUT "/" DL_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "no downloaded file: %s", strerror(errno));
		return false;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (memcmp(buf, pat + off % PERF_PATTERN_PERIOD, n)) {
			for (i = 0; buf[i] == pat[off % PERF_PATTERN_PERIOD + i]; i++)
				;
			snprintf(why, len, "downloaded byte %llu differs",
				 (unsigned long long)(off + i));
			close(fd);
			return false;
		}
		off += n;
	}
	close(fd);
	unlink(DL_OUT "/" DL_FILE);
	if (n < 0 || off != bytes) {
		snprintf(why, len, "downloaded %llu bytes of %llu", (unsigned long long)off,
			 (unsigned long long)bytes);
		return false;
	}
	return true;
}

bool perf_dl_run(const struct netns_pair *pair, const struct perf_job *j, uint64_t bytes,
		 int limit, double *mbps, char *why, size_t len)
{
	struct pollfd pfd = { .events = POLLIN };
	pid_t server, client;
	double t0, t1, ready;
	int status = 0, cst = -1;
	char last[256];
	bool ok = false;

	why[0] = '\0';
	if ((mkdir(DL_OUT, 0755) && errno != EEXIST)) {
		snprintf(why, len, "%s: %s", DL_OUT, strerror(errno));
		return false;
	}
	unlink(DL_OUT "/" DL_FILE);
	server = dl_spawn(pair, j, 1, DL_DIR "/server.log");
	if (server < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return false;
	}
	ready = dl_now() + DL_READY_S;
	while (!dl_udp_bound(pair, j->port) && dl_now() < ready &&
	       waitpid(server, &status, WNOHANG) == 0)
		usleep(DL_POLL_US);
	if (!dl_udp_bound(pair, j->port)) {
		snprintf(why, len, "server: no UDP socket on port %d within %d s: %s", j->port,
			 DL_READY_S, dl_last_line(DL_DIR "/server.log", last, sizeof(last)));
		goto out;
	}

	t0 = dl_now();
	client = dl_spawn(pair, j, 0, DL_DIR "/client.log");
	if (client < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		goto out;
	}
	/* Sleep until the client ends (its pidfd turns readable) or time is up. */
	pfd.fd = syscall(SYS_pidfd_open, client, 0);
	if (pfd.fd >= 0) {
		poll(&pfd, 1, limit * 1000);
		close(pfd.fd);
	}
	if (waitpid(client, &cst, pfd.fd >= 0 ? WNOHANG : 0) <= 0) {
		kill(client, SIGKILL);
		waitpid(client, &cst, 0);
		snprintf(why, len, "client: not done within %d s, killed", limit);
		goto out;
	}
	t1 = dl_now();
	if (!WIFEXITED(cst) || WEXITSTATUS(cst)) {
		snprintf(why, len, "client: exit status %d: %s",
			 WIFEXITED(cst) ? WEXITSTATUS(cst) : 128 + WTERMSIG(cst),
			 dl_last_line(DL_DIR "/client.log", last, sizeof(last)));
		goto out;
	}
	if (!dl_check(bytes, why, len))
		goto out;
	*mbps = bytes * 8 / (t1 - t0) / 1e6;
	ok = true;
out:
	kill(server, SIGKILL);
	waitpid(server, &status, 0);
	return ok;
}
