// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers shared by the QUIC selftests.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/quic.h>

#include "util.h"

ssize_t read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd);
	return len;
}

int write_file(const char *path, const char *str)
{
	size_t len = strlen(str);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, str, len);
	if (n < 0)
		n = -errno;
	else if ((size_t)n != len)
		n = -EIO;
	else
		n = 0;
	close(fd);
	return n;
}

bool module_present(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return !stat(path, &st);
}

int module_refs(const char *name)
{
	char path[256], buf[32];

	snprintf(path, sizeof(path), "/sys/module/%s/refcnt", name);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return atoi(buf);
}

long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static const struct timespec poll_step = { .tv_nsec = 10 * 1000 * 1000 };

bool wait_until(bool (*cond)(void *arg), void *arg, int timeout_ms)
{
	long long deadline = mono_ms() + timeout_ms;

	while (!cond(arg)) {
		if (mono_ms() >= deadline)
			return cond(arg);
		nanosleep(&poll_step, NULL);
	}
	return true;
}

int wait_value(int (*read_now)(void), int want, int timeout_ms)
{
	long long deadline = mono_ms() + timeout_ms;
	int v;

	while ((v = read_now()) != want && mono_ms() < deadline)
		nanosleep(&poll_step, NULL);
	return v;
}

int run_wait(char *const argv[])
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int module_file(const char *name, char *path, size_t size)
{
	static const char *const dirs[] = { "kernel/net/quic", "updates", "updates/dkms",
					    "extra" };
	struct utsname u;
	size_t i;

	if (uname(&u))
		return -errno;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, size, "/lib/modules/%s/%s/%s.ko", u.release, dirs[i], name);
		if (!access(path, R_OK))
			return 0;
	}
	snprintf(path, size, "/lib/modules/%s/kernel/net/quic/%s.ko", u.release, name);
	return -ENOENT;
}

int module_load(const char *name)
{
	char *argv[] = { "/sbin/modprobe", (char *)name, NULL };
	int ret;

	ret = run_wait(argv);
	return ret > 0 ? -EIO : ret;
}

int module_unload(const char *name, int timeout_ms)
{
	struct timespec delay = { .tv_nsec = 10 * 1000 * 1000 };
	int waited = 0;

	/* Sockets drop their module references when freed, which may lag close(). */
	while (syscall(SYS_delete_module, name, O_NONBLOCK)) {
		if (errno != EWOULDBLOCK && errno != EAGAIN)
			return -errno;
		if (waited >= timeout_ms)
			return -EBUSY;
		nanosleep(&delay, NULL);
		waited += 10;
	}
	return 0;
}

/* Field @col of @proto's line in /proc/net/protocols: 0 size, 1 sockets,
 * 2 memory (pages); -1 when absent.
 */
static long proto_field(const char *proto, int col)
{
	char buf[16384], *line, *save = NULL;
	char name[32];
	long v[3];

	if (read_file("/proc/net/protocols", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%31s %ld %ld %ld", name, &v[0], &v[1], &v[2]) == 4 &&
		    !strcmp(name, proto))
			return v[col];
	}
	return -1;
}

int proto_sockets(const char *proto)
{
	return (int)proto_field(proto, 1);
}

long proto_pages(const char *proto)
{
	return proto_field(proto, 2);
}

uint32_t quic_version_of(int fd)
{
	struct quic_config cfg;
	socklen_t len = sizeof(cfg);

	memset(&cfg, 0, sizeof(cfg));
	if (getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len))
		return 0;
	return cfg.version;
}

const char *cert_dir = "/tests/certs";

const char *cert_path(const char *file)
{
	static char buf[4][256];
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", cert_dir, file);
	return p;
}

void sock_timeouts(int fd, int secs)
{
	struct timeval tv = { .tv_sec = secs };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}
