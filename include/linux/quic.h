/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC socket options for kernel consumers (SMB, NFS via net/handshake),
 * which cannot reach SOL_QUIC through kernel_setsockopt().
 */

#ifndef __linux_quic_h__
#define __linux_quic_h__

#include <linux/in.h>
#include <linux/socket.h>
#include <uapi/linux/quic.h>

/*
 * A kernel tree with QUIC defines both in <uapi/linux/in.h> and
 * <linux/socket.h>. The module built out of tree (make module) against a
 * distribution kernel's headers finds neither there: the same values then
 * come from here. IPPROTO_QUIC fits below the IPPROTO_MAX of every kernel
 * since 5.6 (IPPROTO_MPTCP is 262).
 */
#ifndef IPPROTO_QUIC
#define IPPROTO_QUIC	261
#endif
#ifndef SOL_QUIC
#define SOL_QUIC	288
#endif

struct sock;

int quic_kernel_setsockopt(struct sock *sk, int optname, void *optval, unsigned int optlen);
int quic_kernel_getsockopt(struct sock *sk, int optname, void *optval, unsigned int *optlen);

#endif /* __linux_quic_h__ */
