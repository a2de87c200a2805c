// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers both tools use: logging, signal handling, files below a served
 * root, and the output files of a client's requests.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <netinet/quic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "common.h"

int qt_log_level = QT_LOG_INFO;
const char *qt_prog = "quic";
volatile sig_atomic_t qt_stop;

/* The connection a signal shuts down, so that a blocking call returns. */
static volatile sig_atomic_t watched_fd = -1;

/* Print one line to stderr: "prog[pid]: message". */
void qt_log(int level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (level > qt_log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s[%d]: %s\n", qt_prog, (int)getpid(), msg);
}

/* A command-line error: the message, a pointer to --help, exit status 2. */
int qt_bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", qt_prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", qt_prog);
	return 2;
}

/* libquic's messages (quic_set_log_func()) through qt_log(). */
void qt_lib_log(int level, const char *msg)
{
	qt_log(level <= QUIC_LOG_ERROR ? QT_LOG_ERR : QT_LOG_DEBUG, "libquic: %s", msg);
}

static void on_signal(int sig)
{
	int fd = watched_fd;

	qt_stop = sig;
	/* The handshake blocks in the library and retries after EINTR:
	 * ending the connection is what makes it return.
	 */
	if (fd >= 0)
		shutdown(fd, SHUT_RDWR);
}

/*
 * SIGINT, SIGTERM and SIGALRM set qt_stop to their number and shut the
 * watched connection down (CONNECTION_CLOSE); they interrupt blocking
 * calls instead of restarting them. SIGPIPE is ignored. Returns 0 or
 * -errno.
 */
int qt_signals_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGALRM };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL))
		return -errno;
	return 0;
}

/* The connection a stop signal shuts down (-1: none). */
void qt_signals_watch_fd(int fd)
{
	watched_fd = fd;
}

/*
 * Without openat2(): open @rel one segment at a time with O_NOFOLLOW, so
 * that no symbolic link is followed at all (stricter than
 * RESOLVE_BENEATH, which allows links that stay inside). Returns the
 * descriptor or -errno.
 */
static int open_nofollow(int rootfd, const char *rel)
{
	char buf[QT_PATH_MAX], *seg, *slash;
	int dfd = rootfd, fd, err;

	if (strlen(rel) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, rel);
	for (seg = buf;; seg = slash + 1) {
		slash = strchr(seg, '/');
		if (slash)
			*slash = '\0';
		fd = openat(dfd, seg, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
			    (slash ? O_DIRECTORY : 0));
		err = errno;
		if (dfd != rootfd)
			close(dfd);
		if (fd < 0)
			return err == ELOOP ? -EACCES : err == ENOTDIR ? -ENOENT : -err;
		if (!slash)
			return fd;
		dfd = fd;
	}
}

/*
 * Open the regular file @rel below the directory @rootfd for reading,
 * never leaving it: openat2() with RESOLVE_BENEATH refuses "..", absolute
 * paths and symbolic links pointing outside. Where openat2() is missing
 * (kernels before 5.6, valgrind), no link is followed. @rel was
 * sanitised already (qt_path_sanitize()). Returns the descriptor (size in
 * *@size) or -errno: -EACCES for a way out of the root, -ENOENT also for
 * something that is not a regular file.
 */
int qt_open_beneath(int rootfd, const char *rel, off_t *size)
{
	struct open_how how;
	struct stat st;
	int fd;

	memset(&how, 0, sizeof(how));
	how.flags = O_RDONLY | O_CLOEXEC | O_NOCTTY;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS) {
		fd = open_nofollow(rootfd, rel);
		if (fd < 0)
			return fd;
	} else if (fd < 0) {
		return errno == EXDEV ? -EACCES : -errno;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENOENT;
	}
	*size = st.st_size;
	return fd;
}

/* write() all of @buf. Returns 0 or -errno. */
int qt_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Milliseconds on the monotonic clock. */
uint64_t qt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A pending request for @target, saved to @out (freed by the caller). */
void qt_req_init(struct qt_request *r, const char *url, const char *target, char *out)
{
	memset(r, 0, sizeof(*r));
	r->url = url;
	r->target = target;
	r->out = out;
	r->state = QT_REQ_PENDING;
	r->sid = -1;
	r->fd = -1;
	r->clen = -1;
}

/* Create (truncate) the output file of @r. Returns 0 or -errno. */
int qt_req_open_output(struct qt_request *r)
{
	if (r->fd >= 0)
		return 0;
	r->fd = open(r->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (r->fd < 0) {
		qt_err("%s: %s", r->out, strerror(errno));
		return -errno;
	}
	r->created = true;
	return 0;
}

/* Append response body bytes to @r's output file. Returns 0 or -errno. */
int qt_req_write(struct qt_request *r, const void *data, size_t len)
{
	int ret;

	r->bytes += len;
	if (!len)
		return 0;
	ret = qt_req_open_output(r);
	if (!ret)
		ret = qt_write_all(r->fd, data, len);
	if (ret)
		qt_err("writing %s: %s", r->out, strerror(-ret));
	return ret;
}

/*
 * Settle @r: DONE with its file closed (created empty if nothing came),
 * or FAILED with @why and the file it wrote removed, so that only
 * complete files are left behind.
 */
void qt_req_finish(struct qt_request *r, bool ok, const char *why)
{
	if (r->state == QT_REQ_DONE || r->state == QT_REQ_FAILED)
		return;
	if (ok && qt_req_open_output(r)) {
		ok = false;
		why = "cannot create the output file";
	}
	if (r->fd >= 0) {
		if (close(r->fd) && ok) {
			ok = false;
			why = "closing the output file failed";
		}
		r->fd = -1;
	}
	r->state = ok ? QT_REQ_DONE : QT_REQ_FAILED;
	r->why = ok ? NULL : why;
	if (ok) {
		qt_info("%s: %llu bytes", r->url, (unsigned long long)r->bytes);
	} else {
		if (r->created)
			unlink(r->out);
		qt_debug("%s: %s", r->url, why);	/* the caller lists failures */
	}
}

/* The active request on stream @sid, or NULL. */
struct qt_request *qt_req_find(struct qt_request *reqs, size_t n, int64_t sid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (reqs[i].state == QT_REQ_ACTIVE && reqs[i].sid == sid)
			return &reqs[i];
	return NULL;
}

uint32_t qt_parse_version(const char *s)
{
	if (!strcmp(s, "1"))
		return QUIC_VERSION_V1;
	if (!strcmp(s, "2"))
		return QUIC_VERSION_V2;
	return 0;
}
