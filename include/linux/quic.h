/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC socket options for kernel consumers (SMB, NFS via net/handshake),
 * which cannot reach SOL_QUIC through kernel_setsockopt().
 */

#ifndef __linux_quic_h__
#define __linux_quic_h__

#include <uapi/linux/quic.h>

struct sock;

int quic_kernel_setsockopt(struct sock *sk, int optname, void *optval, unsigned int optlen);
int quic_kernel_getsockopt(struct sock *sk, int optname, void *optval, unsigned int *optlen);

#endif /* __linux_quic_h__ */
