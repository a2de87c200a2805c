/* SPDX-License-Identifier: GPL-2.0+ WITH Linux-syscall-note */
/*
 * QUIC socket API (IPPROTO_QUIC, SOL_QUIC).
 *
 * This header is a userspace ABI shared with libquic, tlshd, curl and Samba:
 * every constant, enumerator order and structure layout is fixed. The layout
 * is pinned by compile-time checks in net/quic/socket.c.
 */

#ifndef __uapi_quic_h__
#define __uapi_quic_h__

#ifdef __KERNEL__
#include <linux/socket.h>
#include <linux/types.h>
#else
#include <sys/socket.h>
#include <stdint.h>

/*
 * IPPROTO_QUIC and SOL_QUIC, for programs that include only this header.
 * The C library's definitions come first when it has them. glibc writes
 * IPPROTO_* as enumerators, each followed by "#define IPPROTO_X
 * IPPROTO_X", with no guard around them, so a macro of ours seen before a
 * <netinet/in.h> that names IPPROTO_QUIC would break that header. It is
 * therefore read here, before the check; not after <linux/in.h> though,
 * which must not be followed by <netinet/in.h> (linux/libc-compat.h only
 * handles the other order). SOL_* are plain macros of <sys/socket.h>.
 */
#if !defined(_NETINET_IN_H) && !defined(_LINUX_IN_H) && !defined(_UAPI_LINUX_IN_H)
#include <netinet/in.h>
#endif
#ifndef IPPROTO_QUIC
#define IPPROTO_QUIC	261
#endif
#ifndef SOL_QUIC
#define SOL_QUIC	288
#endif
#endif

/* Control message types carried with sendmsg()/recvmsg() at SOL_QUIC. */
enum quic_cmsg_type {
	QUIC_STREAM_INFO,
	QUIC_HANDSHAKE_INFO,
};

/* Low two bits of a stream ID: who opened it and in which direction. */
#define QUIC_STREAM_TYPE_SERVER_MASK	0x01
#define QUIC_STREAM_TYPE_UNI_MASK	0x02
#define QUIC_STREAM_TYPE_MASK		0x03

/*
 * Stream flags reuse MSG_* bits that have no meaning for QUIC sockets.
 *
 * The names below are those of the first upstream header; later ones use
 * the MSG_QUIC_* names further down. MSG_NOTIFICATION is SCTP's name too
 * (<linux/sctp.h>: an enumerator and a macro, 0x8000 like MSG_MORE), so
 * each name here is declared only when no header before this one did, and
 * is then also a macro of its own name, as the C library does. A program
 * that includes <linux/sctp.h> after this header, which then declares the
 * name a second time, defines QUIC_NO_LEGACY_MSG_NOTIFICATION first (or
 * includes <linux/sctp.h> first): either way MSG_NOTIFICATION stays 0x8000.
 */
enum quic_msg_flags {
	/* in quic_stream_info.stream_flags */
#ifndef MSG_STREAM_NEW
	MSG_STREAM_NEW		= MSG_SYN,
#define MSG_STREAM_NEW		MSG_STREAM_NEW
#endif
#ifndef MSG_STREAM_FIN
	MSG_STREAM_FIN		= MSG_FIN,
#define MSG_STREAM_FIN		MSG_STREAM_FIN
#endif
#ifndef MSG_STREAM_UNI
	MSG_STREAM_UNI		= MSG_CONFIRM,
#define MSG_STREAM_UNI		MSG_STREAM_UNI
#endif
#ifndef MSG_STREAM_DONTWAIT
	MSG_STREAM_DONTWAIT	= MSG_WAITFORONE,
#define MSG_STREAM_DONTWAIT	MSG_STREAM_DONTWAIT
#endif
#ifndef MSG_STREAM_SNDBLOCK
	MSG_STREAM_SNDBLOCK	= MSG_ERRQUEUE,
#define MSG_STREAM_SNDBLOCK	MSG_STREAM_SNDBLOCK
#endif

	/* in msghdr.msg_flags */
#ifndef MSG_DATAGRAM
	MSG_DATAGRAM		= MSG_RST,
#define MSG_DATAGRAM		MSG_DATAGRAM
#endif
#if !defined(MSG_NOTIFICATION) && !defined(QUIC_NO_LEGACY_MSG_NOTIFICATION)
	MSG_NOTIFICATION	= MSG_MORE,
#define MSG_NOTIFICATION	MSG_NOTIFICATION
#endif
};

/* The names later upstream headers use for the same flags. */
#define MSG_QUIC_STREAM_NEW		MSG_STREAM_NEW
#define MSG_QUIC_STREAM_FIN		MSG_STREAM_FIN
#define MSG_QUIC_STREAM_UNI		MSG_STREAM_UNI
#define MSG_QUIC_STREAM_DONTWAIT	MSG_STREAM_DONTWAIT
#define MSG_QUIC_STREAM_SNDBLOCK	MSG_STREAM_SNDBLOCK
#define MSG_QUIC_DATAGRAM		MSG_DATAGRAM
#define MSG_QUIC_NOTIFICATION		MSG_MORE	/* MSG_NOTIFICATION */

/* Encryption levels; the numbering is part of the ABI. */
enum quic_crypto_level {
	QUIC_CRYPTO_APP,
	QUIC_CRYPTO_INITIAL,
	QUIC_CRYPTO_HANDSHAKE,
	QUIC_CRYPTO_EARLY,
	QUIC_CRYPTO_MAX,
};

struct quic_handshake_info {
	uint8_t	crypto_level;
};

struct quic_stream_info {
	int64_t  stream_id;
	uint32_t stream_flags;
};

/* QUIC_SOCKOPT_STREAM_PEELOFF (getsockopt() only): @stream_id and @flags
 * (O_CLOEXEC, O_NONBLOCK) in; the new descriptor comes back in @sd and as
 * the call's return value.
 */
struct quic_stream_peeloff {
	int64_t  stream_id;
	uint32_t flags;
	int      sd;
};

/* SOL_QUIC socket option names */
#define QUIC_SOCKOPT_EVENT				0
#define QUIC_SOCKOPT_STREAM_OPEN			1
#define QUIC_SOCKOPT_STREAM_RESET			2
#define QUIC_SOCKOPT_STREAM_STOP_SENDING		3
#define QUIC_SOCKOPT_CONNECTION_ID			4
#define QUIC_SOCKOPT_CONNECTION_CLOSE			5
#define QUIC_SOCKOPT_CONNECTION_MIGRATION		6
#define QUIC_SOCKOPT_KEY_UPDATE				7
#define QUIC_SOCKOPT_TRANSPORT_PARAM			8
#define QUIC_SOCKOPT_CONFIG				9
#define QUIC_SOCKOPT_TOKEN				10
#define QUIC_SOCKOPT_ALPN				11
#define QUIC_SOCKOPT_SESSION_TICKET			12
#define QUIC_SOCKOPT_CRYPTO_SECRET			13
#define QUIC_SOCKOPT_TRANSPORT_PARAM_EXT		14
#define QUIC_SOCKOPT_STREAM_PEELOFF			15

#define QUIC_VERSION_V1			0x1
#define QUIC_VERSION_V2			0x6b3343cf

struct quic_transport_param {
	uint8_t		remote;
	uint8_t		disable_active_migration;
	uint8_t		grease_quic_bit;
	uint8_t		stateless_reset;
	uint8_t		disable_1rtt_encryption;
	uint8_t		disable_compatible_version;
	uint8_t		active_connection_id_limit;
	uint8_t		ack_delay_exponent;
	uint16_t	max_datagram_frame_size;
	uint16_t	max_udp_payload_size;
	uint32_t	max_idle_timeout;
	uint32_t	max_ack_delay;
	uint16_t	max_streams_bidi;
	uint16_t	max_streams_uni;
	uint64_t	max_data;
	uint64_t	max_stream_data_bidi_local;
	uint64_t	max_stream_data_bidi_remote;
	uint64_t	max_stream_data_uni;
	uint64_t	reserved;
};

struct quic_config {
	uint32_t	version;
	uint32_t	plpmtud_probe_interval;
	uint32_t	initial_smoothed_rtt;
	uint32_t	payload_cipher_type;
	uint8_t		congestion_control_algo;
	uint8_t		validate_peer_address;
	uint8_t		stream_data_nodelay;
	uint8_t		receive_session_ticket;
	uint8_t		certificate_request;
	uint8_t		reserved[3];
};

struct quic_crypto_secret {
	uint8_t send;	/* 1: secret for sending, 0: for receiving */
	uint8_t level;	/* enum quic_crypto_level */
	uint32_t type;	/* TLS_CIPHER_* from linux/tls.h */
#define QUIC_CRYPTO_SECRET_BUFFER_SIZE 48
	uint8_t secret[QUIC_CRYPTO_SECRET_BUFFER_SIZE];
};

enum quic_cong_algo {
	QUIC_CONG_ALG_RENO,
	QUIC_CONG_ALG_CUBIC,
	QUIC_CONG_ALG_MAX,
};

struct quic_errinfo {
	int64_t  stream_id;
	uint32_t errcode;
};

struct quic_connection_id_info {
	uint8_t  dest;
	uint32_t active;
	uint32_t prior_to;
};

struct quic_event_option {
	uint8_t type;
	uint8_t on;
};

/* Events delivered with MSG_NOTIFICATION */
enum quic_event_type {
	QUIC_EVENT_NONE,
	QUIC_EVENT_STREAM_UPDATE,
	QUIC_EVENT_STREAM_MAX_DATA,
	QUIC_EVENT_STREAM_MAX_STREAM,
	QUIC_EVENT_CONNECTION_ID,
	QUIC_EVENT_CONNECTION_CLOSE,
	QUIC_EVENT_CONNECTION_MIGRATION,
	QUIC_EVENT_KEY_UPDATE,
	QUIC_EVENT_NEW_TOKEN,
	QUIC_EVENT_NEW_SESSION_TICKET,
	QUIC_EVENT_END,
	QUIC_EVENT_MAX = QUIC_EVENT_END - 1,
};

/* Stream states reported in quic_stream_update.state (RFC 9000 Section 3) */
enum {
	QUIC_STREAM_SEND_STATE_READY,
	QUIC_STREAM_SEND_STATE_SEND,
	QUIC_STREAM_SEND_STATE_SENT,
	QUIC_STREAM_SEND_STATE_RECVD,
	QUIC_STREAM_SEND_STATE_RESET_SENT,
	QUIC_STREAM_SEND_STATE_RESET_RECVD,

	QUIC_STREAM_RECV_STATE_RECV,
	QUIC_STREAM_RECV_STATE_SIZE_KNOWN,
	QUIC_STREAM_RECV_STATE_RECVD,
	QUIC_STREAM_RECV_STATE_READ,
	QUIC_STREAM_RECV_STATE_RESET_RECVD,
	QUIC_STREAM_RECV_STATE_RESET_READ,
};

struct quic_stream_update {
	int64_t  id;
	uint8_t  state;
	uint32_t errcode;
	uint64_t finalsz;
};

struct quic_stream_max_data {
	int64_t  id;
	uint64_t max_data;
};

/*
 * The reason phrase is NUL-terminated; the kernel keeps at most 80 bytes
 * of it. QUIC_CLOSE_PHRASE_BUFFER_SIZE is the room for such a phrase and
 * its NUL: a buffer of offsetof(struct quic_connection_close, phrase) +
 * QUIC_CLOSE_PHRASE_BUFFER_SIZE bytes (86) holds any close that
 * getsockopt(QUIC_SOCKOPT_CONNECTION_CLOSE) reports. A setsockopt() passes
 * the offset plus the phrase and its NUL, at most those 86 bytes.
 */
struct quic_connection_close {
	uint32_t errcode;
	uint8_t frame;
#define QUIC_CLOSE_PHRASE_BUFFER_SIZE	81
	uint8_t phrase[];
};

union quic_event {
	struct quic_stream_update update;
	struct quic_stream_max_data max_data;
	struct quic_connection_close close;
	struct quic_connection_id_info info;
	uint64_t max_stream;
	uint8_t local_migration;
	uint8_t key_update_phase;
};

/* Transport error codes (RFC 9000 Section 20.1) */
enum {
	QUIC_TRANSPORT_ERROR_NONE,
	QUIC_TRANSPORT_ERROR_INTERNAL,
	QUIC_TRANSPORT_ERROR_CONNECTION_REFUSED,
	QUIC_TRANSPORT_ERROR_FLOW_CONTROL,
	QUIC_TRANSPORT_ERROR_STREAM_LIMIT,
	QUIC_TRANSPORT_ERROR_STREAM_STATE,
	QUIC_TRANSPORT_ERROR_FINAL_SIZE,
	QUIC_TRANSPORT_ERROR_FRAME_ENCODING,
	QUIC_TRANSPORT_ERROR_TRANSPORT_PARAM,
	QUIC_TRANSPORT_ERROR_CONNECTION_ID_LIMIT,
	QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION,
	QUIC_TRANSPORT_ERROR_INVALID_TOKEN,
	QUIC_TRANSPORT_ERROR_APPLICATION,
	QUIC_TRANSPORT_ERROR_CRYPTO_BUF_EXCEEDED,
	QUIC_TRANSPORT_ERROR_KEY_UPDATE,
	QUIC_TRANSPORT_ERROR_AEAD_LIMIT_REACHED,
	QUIC_TRANSPORT_ERROR_NO_VIABLE_PATH,

	/* RFC 9368 Section 10.2: VERSION_NEGOTIATION_ERROR */
	QUIC_TRANSPORT_ERROR_VERSION_NEGOTIATION = 0x11,

	/* 0x0100-0x01ff: CRYPTO_ERROR, the low byte carries the TLS alert
	 * (RFC 9001 Section 4.8).
	 */
	QUIC_TRANSPORT_ERROR_CRYPTO = 0x0100,
};

#endif /* __uapi_quic_h__ */
