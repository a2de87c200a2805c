/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * quic-handshaked: what its source files share.
 *
 * hsd_conf.c and hsd_nl.c do no I/O beyond the FILE or netlink message
 * they are handed, and hsd_admit.c none but through the calls it is
 * given, so the host tests (tests/test_hsd.c) exercise them directly;
 * quic-handshaked.c (the daemon: options, netlink sockets, children) and
 * hsd_child.c (one handshake) use them.
 */

#ifndef __QUIC_TOOLS_HSD_H__
#define __QUIC_TOOLS_HSD_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>

struct nlmsghdr;
struct nl_msg;

#define HSD_PROG		"quic-handshaked"
#define HSD_DEFAULT_CONFIG	"/etc/quic-handshaked.conf"
#define HSD_DEFAULT_TIMEOUT_MS	30000
#define HSD_MAX_TIMEOUT_MS	86400000	/* a day: anything longer is a typo */
/* Handshakes (child processes) running at once, by default and at most. */
#define HSD_DEFAULT_MAX_CHILDREN	64
#define HSD_MAX_CHILDREN_LIMIT		4096
#define HSD_CONF_LINE_MAX	1024		/* bytes per config line, newline included */
#define HSD_PEERNAME_MAX	256
/* The kernel passes at most five peer identities (struct tls_handshake_req). */
#define HSD_MAX_PEERIDS		5

/* ---- hsd_conf.c: options, config file, key descriptions, PSK lines ---- */

/* Settings from the config file or the command line. Strings are owned. */
struct hsd_opts {
	char *cert;			/* server certificate chain (PEM) */
	char *key;			/* its private key (PEM) */
	char *ca;			/* CA file for verifying servers; NULL: system trust */
	unsigned int timeout_ms;	/* 0: not set */
	unsigned int max_children;	/* 0: not set */
};

int hsd_parse_timeout(const char *s, unsigned int *ms);
int hsd_parse_max_children(const char *s, unsigned int *n);
int hsd_conf_parse(FILE *f, struct hsd_opts *o, char *err, size_t errlen);
void hsd_opts_merge(struct hsd_opts *base, struct hsd_opts *over);
void hsd_opts_free(struct hsd_opts *o);

const char *hsd_key_identity(const char *desc);
ssize_t hsd_psk_format(char *buf, size_t size, const char *identity,
		       const unsigned char *key, size_t keylen);
int hsd_addr_string(const struct sockaddr *sa, socklen_t len, char *buf, size_t size);
unsigned int hsd_done_status(int ret);
const char *hsd_msg_type_name(unsigned int type);
const char *hsd_auth_mode_name(unsigned int mode);

/* ---- hsd_nl.c: the ACCEPT reply and the DONE request ---- */

/* One accepted handshake request, as the kernel described it. */
struct hsd_request {
	int fd;				/* the socket, installed in our table; -1: none */
	unsigned int msg_type;		/* HANDSHAKE_MSG_TYPE_* */
	unsigned int auth_mode;		/* HANDSHAKE_AUTH_* */
	unsigned int timeout_ms;	/* 0: none given */
	unsigned int num_peerids;	/* entries used in @peerids */
	int32_t peerids[HSD_MAX_PEERIDS];
	bool has_cert;			/* a CERTIFICATE attribute came */
	int32_t cert;			/* key serials, 0: none */
	int32_t privkey;
	char peername[HSD_PEERNAME_MAX];/* "" when none */
};

int hsd_parse_accept(struct nlmsghdr *nlh, struct hsd_request *req);
struct nl_msg *hsd_done_msg(int family, int fd, unsigned int status,
			    const int32_t *auth, unsigned int nauth);

/* ---- hsd_admit.c: how many handshakes run at once ---- */

/* What the admission loop does with requests; the host tests fake it. */
struct hsd_admit_ops {
	/* Take the next pending request into @req: 0, -EAGAIN when none is
	 * pending, or another negative errno; then @req->fd >= 0 names a
	 * request taken that is malformed but must still be completed.
	 */
	int (*accept)(void *ctx, struct hsd_request *req);
	/* Hand @req to a new child: 0, or a negative errno (@req not taken). */
	int (*start)(void *ctx, const struct hsd_request *req);
	/* Complete @req at once as failed with @err (HANDSHAKE_CMD_DONE). */
	void (*refuse)(void *ctx, const struct hsd_request *req, int err);
};

struct hsd_admit {
	unsigned int max;		/* handshakes allowed to run at once */
	unsigned int running;		/* started and not yet ended */
	bool backlog;			/* stopped at @max: requests may wait */
};

int hsd_admit_drain(struct hsd_admit *a, const struct hsd_admit_ops *ops, void *ctx);
bool hsd_admit_ended(struct hsd_admit *a, unsigned int n);

/* ---- quic-handshaked.c: logging; hsd_child.c: one request ---- */

void hsd_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hsd_child_run(const struct hsd_opts *o, int family, const struct hsd_request *req)
	__attribute__((noreturn));

#endif /* __QUIC_TOOLS_HSD_H__ */
