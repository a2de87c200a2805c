/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Socket memory of QUIC sockets (memory.c): charged as TCP charges it.
 */

#ifndef __net_quic_memory_h__
#define __net_quic_memory_h__

#include <linux/types.h>

struct quic_inq;
struct sock;

int quic_sock_rmem_charge(struct quic_inq *inq, u32 bytes);
void __quic_sock_mem_sync(struct sock *sk);
void quic_sock_mem_sync(struct sock *sk);
bool quic_sock_wmem_charge(struct sock *sk, u32 bytes);

#endif /* __net_quic_memory_h__ */
