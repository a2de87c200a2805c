/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A C library whose <netinet/in.h> knows IPPROTO_QUIC, written the way
 * glibc writes IPPROTO_MPTCP: an enumerator, then a macro of the same
 * name. uapi_header.c is compiled with -I of this directory to check
 * that <linux/quic.h> leaves the name to the C library in either order.
 */
#include_next <netinet/in.h>

#ifndef UAPI_LIBC_NETINET_IN_H
#define UAPI_LIBC_NETINET_IN_H
enum {
	IPPROTO_QUIC = 261,
#define IPPROTO_QUIC	IPPROTO_QUIC
};
#endif
