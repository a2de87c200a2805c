/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libquic internals shared between its source files. Nothing here is
 * exported from libquic.so (the library is built -fvisibility=hidden and
 * marks its API with QUIC_API).
 */

#ifndef __LIBQUIC_INTERNAL_H__
#define __LIBQUIC_INTERNAL_H__

#include <poll.h>
#include <stdbool.h>
#include <netinet/quic.h>

#define QUIC_API __attribute__((visibility("default")))

/* The TLS extension carrying QUIC transport parameters (RFC 9001 8.2). */
#define QUIC_EXT_TRANSPORT_PARAMS	0x39
/* Largest encoded transport parameter list the kernel hands over. */
#define QUIC_TP_MAX			4096
/* Largest TLS handshake message accepted from the peer (certificates). */
#define QUIC_HS_MSG_MAX			(64 * 1024)

/*
 * Every call this library makes on a QUIC socket goes through this table,
 * so that host tests can put a fake kernel behind it. The functions behave
 * like the system calls of the same name: -1 with errno on failure.
 */
struct quic_kops {
	int (*setsockopt)(int fd, int level, int name, const void *val, socklen_t len);
	int (*getsockopt)(int fd, int level, int name, void *val, socklen_t *len);
	ssize_t (*sendmsg)(int fd, const struct msghdr *msg, int flags);
	ssize_t (*recvmsg)(int fd, struct msghdr *msg, int flags);
	int (*shutdown)(int fd, int how);
	int (*poll)(struct pollfd *fds, nfds_t nfds, int timeout);
};

extern const struct quic_kops *quic_kops;
void quic_kops_set(const struct quic_kops *ops);

/* log.c */
void quic_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define quic_err(...)	quic_log(QUIC_LOG_ERROR, __VA_ARGS__)
#define quic_warn(...)	quic_log(QUIC_LOG_WARN, __VA_ARGS__)
#define quic_notice(...) quic_log(QUIC_LOG_NOTICE, __VA_ARGS__)
#define quic_debug(...)	quic_log(QUIC_LOG_DEBUG, __VA_ARGS__)

/* One handshake message to hand to the kernel (sendmsg). */
struct quic_chunk {
	struct quic_chunk *next;
	uint8_t level;		/* enum quic_crypto_level */
	size_t len, off;	/* bytes, bytes already sent */
	uint8_t data[];
};

/* Bytes received at one level that do not yet form a whole message. */
struct quic_rbuf {
	uint8_t *data;
	size_t len, cap;
};

/* A secret TLS produced that is held back before the kernel gets it. */
struct quic_pending_secret {
	bool set;
	uint32_t type;
	size_t len;
	uint8_t secret[QUIC_CRYPTO_SECRET_BUFFER_SIZE];
};

/* The state of one handshake, found from its GnuTLS session. */
struct quic_conn {
	struct quic_conn *next;		/* registry list */
	gnutls_session_t session;
	int fd;
	int err;			/* sticky error once failed */
	int kerr;			/* a socket call in a callback failed */
	bool alert_sent;		/* the connection was closed by us */
	bool completed;			/* TLS reported completion */
	bool app_installed;		/* 1-RTT secrets given to the kernel */
	bool tp_received;		/* the peer's 0x39 extension came */
	bool alpn_wanted;		/* we offered/accept a protocol list */
	bool psk_unknown;		/* the client's PSK identity is unknown */
	bool client;			/* we sent a ClientHello */
	bool tickets;			/* server: session tickets are issued */
	const char *psk_file;		/* a server's PSK file (creds.c) */
	struct quic_pending_secret app[2];	/* [0] receive, [1] send */

	struct quic_chunk *sendq, **sendq_tail;
	struct quic_rbuf rbuf[QUIC_CRYPTO_MAX];

	uint8_t tp[QUIC_TP_MAX];	/* our encoded transport parameters */
	size_t tplen;

	/* The step handed to the caller and what it points into. */
	struct quic_handshake_step step;
	struct msghdr msg;
	struct iovec iov;
	union {
		char buf[CMSG_SPACE(sizeof(struct quic_handshake_info))];
		struct cmsghdr align;
	} cbuf;
	uint8_t recvbuf[16384];
};

/* handshake.c */
struct quic_conn *quic_conn_find(gnutls_session_t session);
int quic_handshake_run(gnutls_session_t session, bool need_alpn, const char *psk_file);

/* secret.c */
int quic_secret_func(gnutls_session_t session, gnutls_record_encryption_level_t level,
		     const void *rsecret, const void *wsecret, size_t size);
int quic_secret_install(struct quic_conn *conn, uint8_t level, bool send, uint32_t type,
			const void *secret, size_t size);
int quic_level_from_gnutls(gnutls_record_encryption_level_t level);
gnutls_record_encryption_level_t quic_level_to_gnutls(uint8_t level);

/* keylog.c */
int quic_keylog_func(gnutls_session_t session, const char *label, const gnutls_datum_t *secret);

/* tparam.c */
int quic_tparam_register(struct quic_conn *conn);
int quic_tparam_load(struct quic_conn *conn);

/* alpn.c */
int quic_alpn_apply(gnutls_session_t session, const char *alpns, size_t len);
int quic_alpn_from_socket(int fd, char *buf, size_t size);
bool quic_alpn_offered(const uint8_t *msg, size_t len);

/* creds.c: the credentials quic_client/server_handshake() use */
struct quic_creds {
	gnutls_certificate_credentials_t cert;
	gnutls_psk_client_credentials_t psk_client;
	gnutls_psk_server_credentials_t psk_server;
};
int quic_creds_client(struct quic_creds *creds, gnutls_session_t session,
		      const char *pkey_file, const char *hostname);
int quic_creds_server(struct quic_creds *creds, gnutls_session_t session,
		      const char *pkey_file, const char *cert_file);
void quic_creds_free(struct quic_creds *creds);

/* handshake.c */
int quic_error_from_gnutls(int gerr);

void quic_ticket_server_setup(struct quic_conn *conn);
void quic_ticket_server_send(struct quic_conn *conn);
int quic_ticket_client_take(gnutls_session_t session, bool any);
int quic_ticket_client_wait(gnutls_session_t session, int timeout_ms);

#endif /* __LIBQUIC_INTERNAL_H__ */
