// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * include/uapi/linux/quic.h compiled in userspace, as C and as C++ with
 * -Wall -Wextra -Werror, by the host side of `make selftest` (never run,
 * only compiled). The sizes are the ones net/quic/socket.c pins on the
 * kernel side: userspace must see the same layout on every arch.
 *
 * scripts/selftest.py compiles this file once per include order a caller
 * may use, selected with -D:
 *   (none)             <linux/quic.h> alone
 *   UAPI_IN_FIRST      <netinet/in.h>, then <linux/quic.h>
 *   UAPI_IN_AFTER      <linux/quic.h>, then <netinet/in.h>
 *   UAPI_LINUX_IN      <linux/in.h>, then <linux/quic.h>
 *   UAPI_SCTP_FIRST    <linux/sctp.h>, then <linux/quic.h>
 *   UAPI_SCTP_AFTER    <linux/quic.h>, then <linux/sctp.h>, as a program
 *                      that uses both does it (NetPerfMeter)
 * and once more for the first two with -I uapi_libc, a C library that
 * defines IPPROTO_QUIC and SOL_QUIC itself, as glibc may one day.
 */

#if defined(UAPI_IN_FIRST)
#include <netinet/in.h>
#include <linux/quic.h>
#elif defined(UAPI_IN_AFTER)
#include <linux/quic.h>
#include <netinet/in.h>
#elif defined(UAPI_LINUX_IN)
#include <linux/in.h>
#include <linux/quic.h>
#elif defined(UAPI_SCTP_FIRST)
/* What <netinet/sctp.h> of lksctp-tools does, then <linux/quic.h>. */
#include <stdint.h>
#include <sys/socket.h>
#include <linux/sctp.h>
#include <linux/quic.h>
#elif defined(UAPI_SCTP_AFTER)
#define QUIC_NO_LEGACY_MSG_NOTIFICATION
#include <linux/quic.h>
#include <linux/sctp.h>
#else
#include <linux/quic.h>
#endif

/* The header under test is ours, not one the host may have installed. */
#ifndef __uapi_quic_h__
#error "include/uapi/linux/quic.h was not the header included"
#endif

#ifdef __cplusplus
#define QUIC_ASSERT(cond, what)		static_assert(cond, what)
#else
#define QUIC_ASSERT(cond, what)		_Static_assert(cond, what)
#endif
#define QUIC_ASSERT_SIZE(type, size)	QUIC_ASSERT(sizeof(type) == (size), #type)

QUIC_ASSERT_SIZE(struct quic_handshake_info, 1);
QUIC_ASSERT_SIZE(struct quic_stream_info, 16);
QUIC_ASSERT_SIZE(struct quic_transport_param, 64);
QUIC_ASSERT_SIZE(struct quic_config, 24);
QUIC_ASSERT_SIZE(struct quic_crypto_secret, 56);
QUIC_ASSERT_SIZE(struct quic_errinfo, 16);
QUIC_ASSERT_SIZE(struct quic_connection_id_info, 12);
QUIC_ASSERT_SIZE(struct quic_event_option, 2);
QUIC_ASSERT_SIZE(struct quic_stream_update, 24);
QUIC_ASSERT_SIZE(struct quic_stream_max_data, 16);
QUIC_ASSERT_SIZE(struct quic_connection_close, 8);
QUIC_ASSERT_SIZE(union quic_event, 24);

/* Room for the longest phrase and its NUL, never the later 72-byte layout. */
QUIC_ASSERT(QUIC_CLOSE_PHRASE_BUFFER_SIZE == 80 + 1, "QUIC_CLOSE_PHRASE_BUFFER_SIZE");
QUIC_ASSERT(sizeof(struct quic_connection_close) + QUIC_CLOSE_PHRASE_BUFFER_SIZE != 72,
	    "a buffer of that size selects the later layout (net/quic/close.c)");

/* Ours or the C library's, the values are the same. */
QUIC_ASSERT(IPPROTO_QUIC == 261, "IPPROTO_QUIC");
QUIC_ASSERT(SOL_QUIC == 288, "SOL_QUIC");

/* The flag names of both generations, whoever declared MSG_NOTIFICATION. */
QUIC_ASSERT((int)MSG_STREAM_NEW == 0x400 && (int)MSG_QUIC_STREAM_NEW == 0x400, "NEW");
QUIC_ASSERT((int)MSG_STREAM_FIN == 0x200 && (int)MSG_QUIC_STREAM_FIN == 0x200, "FIN");
QUIC_ASSERT((int)MSG_STREAM_UNI == 0x800 && (int)MSG_QUIC_STREAM_UNI == 0x800, "UNI");
QUIC_ASSERT((int)MSG_STREAM_DONTWAIT == 0x10000 && (int)MSG_QUIC_STREAM_DONTWAIT == 0x10000,
	    "DONTWAIT");
QUIC_ASSERT((int)MSG_STREAM_SNDBLOCK == 0x2000 && (int)MSG_QUIC_STREAM_SNDBLOCK == 0x2000,
	    "SNDBLOCK");
QUIC_ASSERT((int)MSG_DATAGRAM == 0x1000 && (int)MSG_QUIC_DATAGRAM == 0x1000, "DATAGRAM");
QUIC_ASSERT((int)MSG_NOTIFICATION == 0x8000 && (int)MSG_QUIC_NOTIFICATION == 0x8000,
	    "NOTIFICATION");
#if defined(UAPI_SCTP_FIRST) || defined(UAPI_SCTP_AFTER)
QUIC_ASSERT((int)SCTP_NOTIFICATION == (int)MSG_NOTIFICATION, "SCTP's own use of the name");
#endif

int main(void)
{
	struct quic_event_option ev = { QUIC_EVENT_STREAM_UPDATE, 1 };
	struct quic_stream_info si = { -1, MSG_STREAM_NEW | MSG_STREAM_FIN };
	int flags = MSG_DATAGRAM | MSG_NOTIFICATION;
	int fd = socket(AF_INET, SOCK_STREAM, IPPROTO_QUIC);

	if (fd >= 0 && setsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_EVENT, &ev, sizeof(ev)))
		return 1;
	return ev.on == 1 && QUIC_SOCKOPT_TRANSPORT_PARAM_EXT == 14 && si.stream_flags &&
	       flags ? 0 : 1;
}
