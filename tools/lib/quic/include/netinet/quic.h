/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libquic: the TLS 1.3 handshake for in-kernel QUIC sockets (IPPROTO_QUIC),
 * done in userspace with GnuTLS, plus small helpers for stream data.
 *
 * The kernel carries the handshake bytes in CRYPTO frames; this library
 * runs TLS on them and hands the kernel the traffic secrets and the peer's
 * transport parameters (RFC 9001 Section 4, "Carrying TLS Messages").
 *
 * Errors are negative errno values unless a function says otherwise:
 *   -EKEYREJECTED  the peer's certificate failed verification (chain,
 *                  trust anchor or host name); a bad_certificate class
 *                  alert was sent to the peer
 *   -ENOPROTOOPT   no application protocol was agreed (ALPN); alert 120
 *                  (no_application_protocol) was sent, or received
 *   -ENOKEY        the PSK identity was unknown or no usable key was found
 *   -EPROTO        any other TLS failure; the matching alert was sent
 *   -ECONNRESET    the peer closed the connection during the handshake
 *   -ETIMEDOUT     the handshake did not progress in time
 *   -ENOMEM, -EINVAL, -ENOENT, ...: as usual
 * When the library sends an alert it sets QUIC_SOCKOPT_CONNECTION_CLOSE
 * to 0x100 + alert (RFC 9001 Section 4.8) and shuts the socket down, so
 * the peer learns why; the socket itself stays the caller's to close().
 */

#ifndef __LIBQUIC_NETINET_QUIC_H__
#define __LIBQUIC_NETINET_QUIC_H__

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <linux/quic.h>
#include <gnutls/gnutls.h>

#ifndef IPPROTO_QUIC
#define IPPROTO_QUIC	261
#endif
#ifndef SOL_QUIC
#define SOL_QUIC	288
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Log levels (syslog priorities) for quic_set_log_level(). */
#define QUIC_LOG_ERROR	0x03
#define QUIC_LOG_WARN	0x04
#define QUIC_LOG_NOTICE	0x05
#define QUIC_LOG_DEBUG	0x07

/*
 * A GnuTLS priority string for sessions the caller prepares for
 * quic_handshake() or the step API: TLS 1.3 alone (RFC 9001 Section 4.2),
 * certificate and PSK key exchanges, the four AEADs a QUIC packet can be
 * protected with, the usual groups, and no middlebox compatibility mode
 * (RFC 9001 Section 8.4). For gnutls_priority_set_direct().
 */
#define QUIC_PRIORITY							\
	"NORMAL:-VERS-ALL:+VERS-TLS1.3:+PSK:+ECDHE-PSK"			\
	":-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:+AES-128-CCM" \
	":-GROUP-ALL:+GROUP-SECP256R1:+GROUP-X25519:+GROUP-SECP384R1"	\
	":+GROUP-SECP521R1:%DISABLE_TLS13_COMPAT_MODE"

/*
 * The step API: the handshake one system call at a time, for a caller
 * that runs its own event loop. quic_handshake_init() and each
 * quic_handshake_step() hand back the call to make next: for
 * QUIC_HANDSHAKE_STEP_OP_SENDMSG, sendmsg(fd, s_sendmsg.msg,
 * s_sendmsg.flags | the caller's own, e.g. MSG_DONTWAIT); for
 * QUIC_HANDSHAKE_STEP_OP_RECVMSG, recvmsg() likewise with s_recvmsg. The
 * caller stores what the call returned in that member's retval (-errno
 * when it failed) and calls quic_handshake_step(). A call that would
 * block (EAGAIN) is simply made again once the socket is ready; storing
 * -EAGAIN or -EINTR asks for the same call again too. NULL in place of a
 * step: the handshake is over, both 1-RTT secrets are with the kernel.
 */
enum quic_handshake_step_op {
	QUIC_HANDSHAKE_STEP_OP_SENDMSG = 1,
	QUIC_HANDSHAKE_STEP_OP_RECVMSG,
};

struct quic_handshake_step_sendmsg {
	const struct msghdr *msg;
	int flags;
	ssize_t retval;
};

struct quic_handshake_step_recvmsg {
	struct msghdr *msg;
	int flags;
	ssize_t retval;
};

struct quic_handshake_step {
	enum quic_handshake_step_op op;
	union {
		struct quic_handshake_step_sendmsg s_sendmsg;
		struct quic_handshake_step_recvmsg s_recvmsg;
	};
};

int quic_client_handshake(int sockfd, const char *pkey_file, const char *hostname,
			  const char *alpns);
int quic_server_handshake(int sockfd, const char *pkey_file, const char *cert_file,
			  const char *alpns);
int quic_handshake(gnutls_session_t session);

int quic_handshake_init(gnutls_session_t session, struct quic_handshake_step **pstep);
int quic_handshake_step(gnutls_session_t session, struct quic_handshake_step **pstep);
void quic_handshake_deinit(gnutls_session_t session);

/*
 * A client's resumption data: 0 with *size 0 while no session ticket has
 * arrived (none yet, or the server sends none). See session.c.
 */
int quic_session_get_data(gnutls_session_t session, void *data, size_t *size);
int quic_session_set_data(gnutls_session_t session, const void *data, size_t size);
/* Protocol lists are "name1,name2"; spaces around a name are ignored. */
int quic_session_get_alpn(gnutls_session_t session, void *data, size_t *size);
int quic_session_set_alpn(gnutls_session_t session, const void *data, size_t size);

ssize_t quic_sendmsg(int sockfd, const void *msg, size_t len, int64_t sid, uint32_t flags);
ssize_t quic_recvmsg(int sockfd, void *msg, size_t len, int64_t *sid, uint32_t *flags);

/* Both setters return the setting they replace. */
typedef void (*quic_set_log_func_t)(int level, const char *msg);
quic_set_log_func_t quic_set_log_func(quic_set_log_func_t func);
int quic_set_log_level(int level);

/*
 * ---- Extensions of this implementation (not in upstream libquic) ----
 *
 * Peer verification in quic_client_handshake() with X.509: by default the
 * server's chain is checked against the system trust store and its
 * certificate against @hostname. With a NULL or empty @hostname (as the
 * socket API draft's examples call it) the chain alone is checked and a
 * warning is logged that the name was not: any server holding a
 * certificate from a trusted CA is then accepted. These process-wide
 * settings change that for handshakes started afterwards.
 */

/* Trust only the CA certificates in this PEM file (NULL: system trust).
 * Returns 0, or -ENOMEM.
 */
int quic_set_ca_file(const char *ca_file);

/* Nonzero: skip certificate verification (tests only). */
void quic_set_insecure(int insecure);

/* Nonzero: the caller knows that a client given no host name checks the
 * server's chain and nothing more (its trust anchors, quic_set_ca_file(),
 * identify the server by themselves, e.g. a private CA that signs one
 * server), and the warning is not logged. Zero (the default): the chain
 * is checked all the same, with the warning. A host name, when given, is
 * always checked. (Earlier versions of this library refused a client
 * given no host name with -EINVAL unless this was nonzero.)
 */
void quic_set_allow_no_hostname(int allow);

/*
 * 0-RTT on the server side of quic_server_handshake(): by default its
 * tickets allow early data and it accepts early data (once per
 * ClientHello: GnuTLS's anti-replay check). Zero: its tickets no longer
 * allow 0-RTT, and early data a client sends with an older ticket is
 * rejected (the client's stack sends it again in 1-RTT), for servers
 * whose requests are not safe to replay (RFC 9001 Section 9.2). Applies
 * to handshakes started afterwards; a session prepared for
 * quic_handshake() takes early data only when the caller created it with
 * GNUTLS_ENABLE_EARLY_DATA.
 */
void quic_set_server_early_data(int enable);

/*
 * Early data is accepted once per ClientHello (RFC 8446 Section 8.2)
 * against a store of the ClientHellos seen, shared by default with the
 * processes forked after the library was loaded. Servers that share a
 * ticket key (QUIC_SOCKOPT_SESSION_TICKET) but were started apart name
 * one store file here, and a ClientHello replayed from one to another is
 * then caught too: the file (created 0600 if missing; it must belong to
 * the caller and be closed to others) is mapped by each. Servers on other
 * machines cannot share it: give them keys of their own, or turn 0-RTT
 * off with quic_set_server_early_data(0). Applies to handshakes started
 * afterwards. Returns 0, or -EPERM for a file that fails those checks,
 * -EINVAL for a file that is not a store, another -errno.
 */
int quic_set_replay_store(const char *path);

#ifdef __cplusplus
}
#endif

#endif /* __LIBQUIC_NETINET_QUIC_H__ */
