// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Socket memory of QUIC sockets.
 *
 * Socket memory is charged as TCP charges it (net/core/sock.c). What the
 * receive queue holds (quic_inq_rmem(): chunk data and headers) is in
 * sk_rmem_alloc; the STREAM and DATAGRAM bytes the send queue holds until
 * they are acknowledged (or, for DATAGRAM frames, sent) are in
 * sk_wmem_queued. Both are charged against sk_forward_alloc, which takes
 * whole pages from the protocol's quic_memory_allocated (bounded by
 * net.quic.quic_mem, with memory pressure between its second and third
 * values) and from the socket's memory cgroup. Memory is charged before
 * the queues take it, and refused there: received data is dropped (the
 * peer sends it again), a write waits. What the queues free is given back
 * by quic_sock_mem_sync() at the end of each received datagram and of each
 * system call (release_sock()).
 */

#include <linux/memcontrol.h>
#include <net/proto_memory.h>
#include <net/sock.h>

#include "memory.h"
#include "socket.h"

/*
 * A memory cgroup (or one above it) is at its limit. cgroup v2 charges
 * socket memory taken in softirq past memory.max (try_charge() forces
 * atomic charges and only counts a "max" event), so without this check a
 * receiver in a full cgroup would go on taking what its peers send.
 */
static bool quic_sock_memcg_full(const struct sock *sk)
{
#ifdef CONFIG_MEMCG
	struct page_counter *c;

	if (!mem_cgroup_sk_enabled(sk))
		return false;
	for (c = &mem_cgroup_from_sk(sk)->memory; c; c = c->parent)
		if (page_counter_read(c) >= READ_ONCE(c->max))
			return true;
#endif
	return false;
}

/**
 * quic_sock_rmem_charge - the receive queue's charge hook
 * @inq: the receive queue of a QUIC socket (&struct quic_inq)
 * @bytes: what the queue is about to allocate
 *
 * New pages come from the protocol (net.quic.quic_mem) and the memory
 * cgroup, neither of which may be full.
 *
 * Context: socket lock held.
 * Return: 0 when charged, -ENOBUFS when refused.
 */
int quic_sock_rmem_charge(struct quic_inq *inq, u32 bytes)
{
	struct sock *sk = (struct sock *)container_of(inq, struct quic_sock, inq);

	sock_owned_by_me(sk);
	/* sk_rmem_alloc is an int: a receive bound taken from a huge
	 * connection window must not wrap it.
	 */
	if (bytes > INT_MAX - atomic_read(&sk->sk_rmem_alloc))
		return -ENOBUFS;
	if ((int)bytes > sk_forward_alloc_get(sk) &&
	    (quic_sock_memcg_full(sk) || !__sk_mem_schedule(sk, bytes, SK_MEM_RECV)))
		return -ENOBUFS;
	sk_mem_charge(sk, bytes);
	atomic_add(bytes, &sk->sk_rmem_alloc);
	return 0;
}

/**
 * __quic_sock_mem_sync - uncharge what the queues no longer hold
 * @sk: the socket
 *
 * quic_sock_mem_sync() without its lock assertion and pressure update,
 * for the socket's destroy, when no other context can reach it.
 */
void __quic_sock_mem_sync(struct sock *sk)
{
	u32 rmem = quic_inq_rmem(quic_inq(sk)), rcharged = atomic_read(&sk->sk_rmem_alloc);
	u64 wmem = quic_outq_wmem(quic_outq(sk));

	if (rmem < rcharged) {
		sk_mem_uncharge(sk, rcharged - rmem);
		atomic_set(&sk->sk_rmem_alloc, rmem);
	}
	if (wmem < sk->sk_wmem_queued) {
		sk_mem_uncharge(sk, sk->sk_wmem_queued - wmem);
		WRITE_ONCE(sk->sk_wmem_queued, wmem);
	}
}

/**
 * quic_sock_mem_sync - give back the socket memory the queues freed
 * @sk: the socket
 *
 * The queues free what was read, acknowledged, reset or discarded without
 * telling; this uncharges the difference between what was charged and what
 * they hold, returns whole free pages to the protocol, and passes memory
 * pressure on to the receive queue (quic_inq_set_pressure()).
 *
 * Context: socket lock held (owner or the receive path).
 */
void quic_sock_mem_sync(struct sock *sk)
{
	sock_owned_by_me(sk);
	__quic_sock_mem_sync(sk);
	quic_inq_set_pressure(quic_inq(sk), sk_under_memory_pressure(sk));
	/* Charged first, given back here: now the two agree exactly. */
	if (quic_inq_rmem(quic_inq(sk)) != atomic_read(&sk->sk_rmem_alloc))
		quic_invariant_check(sk, "receive memory held differs from sk_rmem_alloc");
	else if (quic_outq_wmem(quic_outq(sk)) != READ_ONCE(sk->sk_wmem_queued))
		quic_invariant_check(sk, "send memory held differs from sk_wmem_queued");
}

/**
 * quic_sock_wmem_charge - charge bytes about to join the send queue
 * @sk: the socket
 * @bytes: STREAM or DATAGRAM bytes to be queued
 *
 * Charged to sk_wmem_queued before quic_outq_stream_append_iter() or
 * quic_outq_datagram_append_iter() takes them; when the append fails,
 * the next quic_sock_mem_sync() gives the charge back.
 *
 * Context: process, socket lock held by the caller.
 * Return: true when charged; false when the protocol's hard limit or the
 * memory cgroup refuses the memory (sk_wmem_schedule()).
 */
bool quic_sock_wmem_charge(struct sock *sk, u32 bytes)
{
	quic_sock_mem_sync(sk);
	/* sk_wmem_queued is an int, SO_SNDBUF may be near INT_MAX. */
	if (bytes > INT_MAX - READ_ONCE(sk->sk_wmem_queued) || !sk_wmem_schedule(sk, bytes))
		return false;
	sk_mem_charge(sk, bytes);
	sk_wmem_queued_add(sk, bytes);
	return true;
}
