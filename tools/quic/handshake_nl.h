/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The generic netlink "handshake" family of Linux 6.12 as quic-handshaked
 * speaks it. Debian 12's linux-libc-dev (6.1) has no linux/handshake.h,
 * so the values below are copied from the 6.12 uapi header
 * include/uapi/linux/handshake.h (generated from
 * Documentation/netlink/specs/handshake.yaml); they are part of the
 * kernel ABI and do not change.
 */

#ifndef __QUIC_TOOLS_HANDSHAKE_NL_H__
#define __QUIC_TOOLS_HANDSHAKE_NL_H__

#define HANDSHAKE_FAMILY_NAME			"handshake"
#define HANDSHAKE_FAMILY_VERSION		1
#define HANDSHAKE_MCGRP_TLSHD			"tlshd"

/* enum handshake_handler_class */
#define HANDSHAKE_HANDLER_CLASS_TLSHD		1

/* enum handshake_msg_type */
#define HANDSHAKE_MSG_TYPE_CLIENTHELLO		1
#define HANDSHAKE_MSG_TYPE_SERVERHELLO		2

/* enum handshake_auth */
#define HANDSHAKE_AUTH_UNAUTH			1
#define HANDSHAKE_AUTH_PSK			2
#define HANDSHAKE_AUTH_X509			3

/* Nested in HANDSHAKE_A_ACCEPT_CERTIFICATE: key serials (s32). */
#define HANDSHAKE_A_X509_CERT			1
#define HANDSHAKE_A_X509_PRIVKEY		2

/* Attributes of HANDSHAKE_CMD_READY (handler class only) and ACCEPT. */
#define HANDSHAKE_A_ACCEPT_SOCKFD		1	/* s32 */
#define HANDSHAKE_A_ACCEPT_HANDLER_CLASS	2	/* u32 */
#define HANDSHAKE_A_ACCEPT_MESSAGE_TYPE		3	/* u32 */
#define HANDSHAKE_A_ACCEPT_TIMEOUT		4	/* u32, milliseconds */
#define HANDSHAKE_A_ACCEPT_AUTH_MODE		5	/* u32 */
#define HANDSHAKE_A_ACCEPT_PEER_IDENTITY	6	/* u32 key serial, repeated */
#define HANDSHAKE_A_ACCEPT_CERTIFICATE		7	/* nested HANDSHAKE_A_X509_* */
#define HANDSHAKE_A_ACCEPT_PEERNAME		8	/* string */

/* Attributes of HANDSHAKE_CMD_DONE. */
#define HANDSHAKE_A_DONE_STATUS			1	/* u32, positive errno */
#define HANDSHAKE_A_DONE_SOCKFD			2	/* s32 */
#define HANDSHAKE_A_DONE_REMOTE_AUTH		3	/* u32 key serial, repeated */

#define HANDSHAKE_CMD_READY			1
#define HANDSHAKE_CMD_ACCEPT			2
#define HANDSHAKE_CMD_DONE			3

/* The largest DONE status the kernel's policy takes (MAX_ERRNO). */
#define HANDSHAKE_DONE_STATUS_MAX		4095

#endif /* __QUIC_TOOLS_HANDSHAKE_NL_H__ */
