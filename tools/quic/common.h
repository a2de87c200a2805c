/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * quic-server and quic-client: what their source files share.
 *
 * A connection's application protocol (hq-interop in hq.c, HTTP/3 in h3.c)
 * is a struct qt_app. It never touches the socket: it writes through a
 * struct qt_io (sock.c for a kernel QUIC socket, a fake in the host tests)
 * and is handed what arrives, one piece of one stream at a time, by the
 * loop that owns the socket (qt_sock_run()).
 */

#ifndef __QUIC_TOOLS_COMMON_H__
#define __QUIC_TOOLS_COMMON_H__

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

/* RFC 9000 Section 2.1: the two low bits of a stream ID. */
#define QT_SID_SERVER		0x1
#define QT_SID_UNI		0x2
#define QT_SID_CLIENT_BIDI(sid)	(((sid) & 0x3) == 0)

/* Longest request target, host name, or file path we handle. */
#define QT_PATH_MAX		4096
#define QT_HOST_MAX		256
/* Requests a client keeps open at once, whatever the peer allows. */
#define QT_MAX_INFLIGHT		128
/* Bytes read from a served file at a time, per stream. */
#define QT_CHUNK		(64 * 1024)

/* ---- common.c: logging, signals, files ---- */

enum { QT_LOG_ERR, QT_LOG_INFO, QT_LOG_DEBUG };

extern int qt_log_level;
extern const char *qt_prog;
extern volatile sig_atomic_t qt_stop;

void qt_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define qt_err(...)	qt_log(QT_LOG_ERR, __VA_ARGS__)
#define qt_info(...)	qt_log(QT_LOG_INFO, __VA_ARGS__)
#define qt_debug(...)	qt_log(QT_LOG_DEBUG, __VA_ARGS__)
int qt_bad_usage(const char *fmt, const char *arg) __attribute__((format(printf, 1, 0)));
/* "1" or "2" as QUIC_VERSION_V1 or QUIC_VERSION_V2; 0 for anything else. */
uint32_t qt_parse_version(const char *s);
void qt_lib_log(int level, const char *msg);

int qt_signals_init(void);
void qt_signals_watch_fd(int fd);
int qt_open_beneath(int rootfd, const char *rel, off_t *size);
int qt_write_all(int fd, const void *buf, size_t len);
uint64_t qt_now_ms(void);

/* ---- url.c: URLs, addresses, request paths (no I/O, unit tested) ---- */

struct qt_url {
	char host[QT_HOST_MAX];		/* without brackets */
	char authority[QT_HOST_MAX + 8];/* host[:port] as written, brackets kept */
	char port[6];			/* decimal, "443" when absent */
	char path[QT_PATH_MAX];		/* request target, "/" when absent */
};

int qt_url_parse(const char *url, struct qt_url *u);
int qt_hostport_parse(const char *s, char *host, size_t hostlen, uint16_t *port);
int qt_path_sanitize(const char *target, char *out, size_t outlen);
int qt_path_basename(const char *target, char *out, size_t outlen);

/* ---- the transport an application protocol writes to ---- */

struct qt_io;

struct qt_io_ops {
	/* Queue bytes on stream @sid, FIN after the last when @fin and all
	 * of them are taken. Returns the bytes taken (possibly fewer), or
	 * -EAGAIN when the send buffer is full, or another -errno.
	 */
	ssize_t (*send)(struct qt_io *io, int64_t sid, const struct iovec *iov, int iovcnt,
			bool fin);
	/* Open our next stream: 0 and *@sid, or -EAGAIN at the peer's limit. */
	int (*open)(struct qt_io *io, bool uni, int64_t *sid);
	/* RESET_STREAM / STOP_SENDING with an application error code. */
	int (*reset)(struct qt_io *io, int64_t sid, uint64_t code);
	int (*stop)(struct qt_io *io, int64_t sid, uint64_t code);
};

struct qt_io {
	const struct qt_io_ops *ops;
	bool server;
	uint64_t local_max_bidi;	/* the peer may open this many bidi streams */
};

/* ---- one connection's application protocol ---- */

/* What a flush waits for (a bit mask; 0: nothing left to write). */
#define QT_WANT_WRITE	0x1	/* room in the send buffer: poll for POLLOUT */
#define QT_WANT_STREAM	0x2	/* the peer's stream limit: try again shortly */

struct qt_app;

struct qt_app_ops {
	/* @len bytes of stream @sid arrived in order; @fin: they end it. */
	int (*recv)(struct qt_app *app, int64_t sid, const uint8_t *data, size_t len, bool fin);
	/* Write what can be written now. Returns QT_WANT_* bits or -errno. */
	int (*flush)(struct qt_app *app);
	/* A client: every request has finished (well or not). */
	bool (*done)(const struct qt_app *app);
	/* The application close code to end the connection with. */
	uint64_t (*close_code)(const struct qt_app *app);
	void (*free)(struct qt_app *app);
};

struct qt_app {
	const struct qt_app_ops *ops;
	struct qt_io *io;
};

/* A client's request: one URL, and how it went. */
enum { QT_REQ_PENDING, QT_REQ_ACTIVE, QT_REQ_DONE, QT_REQ_FAILED };

struct qt_request {
	const char *url;	/* as given, for messages */
	const char *target;	/* request target ("/dir/file?x") */
	char *out;		/* output file */
	int state;
	const char *why;	/* QT_REQ_FAILED: the reason */
	char whybuf[96];	/* room for a reason made up on the spot */
	int64_t sid;
	int fd;			/* output file, -1 when not open */
	uint64_t bytes;		/* body bytes received */
	int status;		/* h3: response status */
	int64_t clen;		/* h3: content-length, -1 when absent */
	size_t sent;		/* hq: request bytes sent */
	bool created;		/* the output file was created */
	bool fin_sent;		/* our side of the stream ended */
	bool ended;		/* h3: the response was read to its end */
	bool closed;		/* h3: released from nghttp3 */
};

void qt_req_init(struct qt_request *r, const char *url, const char *target, char *out);
int qt_req_open_output(struct qt_request *r);
int qt_req_write(struct qt_request *r, const void *data, size_t len);
void qt_req_finish(struct qt_request *r, bool ok, const char *why);
struct qt_request *qt_req_find(struct qt_request *reqs, size_t n, int64_t sid);

/* Server side protocols; @rootfd is the served directory. NULL on error. */
struct qt_app *qt_hq_server_new(struct qt_io *io, int rootfd);
struct qt_app *qt_h3_server_new(struct qt_io *io, int rootfd);
/* Pick hq-interop or h3 from the first bytes the client sends (sniff.c). */
struct qt_app *qt_sniff_server_new(struct qt_io *io, int rootfd, bool hq, bool h3);

/* Client side protocols, fetching @n requests from @authority. */
struct qt_app *qt_hq_client_new(struct qt_io *io, struct qt_request *reqs, size_t n);
struct qt_app *qt_h3_client_new(struct qt_io *io, const char *authority,
				struct qt_request *reqs, size_t n);

/* ---- sock.c: a kernel QUIC socket behind struct qt_io ---- */

struct qt_sock_io {
	struct qt_io io;
	int fd;
};

struct qt_run_opts {
	uint64_t deadline_ms;	/* qt_now_ms() limit, 0: none */
	bool key_update;	/* start one key update as soon as it is allowed */
	bool migrate;		/* move to a new local port once it is allowed */
};

void qt_sock_io_init(struct qt_sock_io *sio, int fd, bool server);
int qt_sock_alpn(int fd, char *buf, size_t len);
int qt_sock_run(int fd, struct qt_app *app, const struct qt_run_opts *opts);
int qt_sock_peer_close(int fd, uint32_t *code);
void qt_sock_close(int fd, uint64_t code);

#endif /* __QUIC_TOOLS_COMMON_H__ */
