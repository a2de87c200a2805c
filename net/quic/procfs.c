// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/net/quic/conns and /proc/net/quic/eps: the QUIC sockets and the
 * UDP tunnel sockets (endpoints) of a network namespace, one per line, in
 * the manner of /proc/net/tcp and /proc/net/udp.
 *
 * conns lists listening and connected sockets with their addresses,
 * state, version, the bytes held by their queues, owner and inode. Only
 * fields that stay valid without the socket lock are read (the bucket lock
 * keeps the socket alive; a value may be a moment old). eps lists the
 * tunnels: local address and how many QUIC sockets use each.
 */

#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/sock.h>

#include "procfs.h"
#include "socket.h"

static const char *quic_proc_state(int state)
{
	switch (state) {
	case QUIC_SS_LISTENING:
		return "LISTEN";
	case QUIC_SS_ESTABLISHING:
		return "ESTABLISHING";
	case QUIC_SS_ESTABLISHED:
		return "ESTABLISHED";
	default:
		return "CLOSED";
	}
}

/* "address:port", IPv6 in brackets and compressed ('c' is for IPv6 only). */
static void quic_proc_addr(char *buf, size_t len, const union quic_addr *a)
{
	if (a->sa.sa_family == AF_INET6)
		snprintf(buf, len, "%pISpc", &a->sa);
	else
		snprintf(buf, len, "%pISp", &a->sa);
}

static void quic_proc_sock(struct seq_file *seq, struct sock *sk)
{
	struct quic_path_group *paths = quic_paths(sk);
	struct quic_sock *qs = quic_sk(sk);
	char local[64], remote[64];

	quic_proc_addr(local, sizeof(local), quic_path_saddr(paths, 0));
	quic_proc_addr(remote, sizeof(remote), quic_path_daddr(paths, 0));
	seq_printf(seq, "%-47s %-47s %-12s 0x%08x %8llu %8u %5u %lu\n", local, remote,
		   quic_proc_state(READ_ONCE(sk->sk_state)), READ_ONCE(qs->config.version),
		   quic_outq_wmem(&qs->outq), quic_inq_rmem(&qs->inq),
		   from_kuid_munged(seq_user_ns(seq), sock_i_uid(sk)), sock_i_ino(sk));
}

static void quic_proc_table(struct seq_file *seq, enum quic_hash_table_id id)
{
	struct quic_hash_table *ht = quic_hash_table(id);
	struct net *net = seq->private;
	struct quic_hash_head *head;
	struct sock *sk;
	u32 i;

	for (i = 0; i < ht->size; i++) {
		head = &ht->hash[i];
		spin_lock_bh(&head->s_lock);
		sk_for_each(sk, &head->head)
			if (net_eq(sock_net(sk), net))
				quic_proc_sock(seq, sk);
		spin_unlock_bh(&head->s_lock);
	}
}

/**
 * quic_proc_conns_show - /proc/net/quic/conns
 * @seq: output; seq->private is the namespace
 * @v: unused
 *
 * Context: process context; takes each bucket lock in turn.
 * Return: 0.
 */
int quic_proc_conns_show(struct seq_file *seq, void *v)
{
	seq_printf(seq, "%-47s %-47s %-12s %-10s %8s %8s %5s %s\n", "LOCAL_ADDRESS",
		   "REMOTE_ADDRESS", "STATE", "VERSION", "TX_QUEUE", "RX_QUEUE", "UID",
		   "INODE");
	quic_proc_table(seq, QUIC_HT_LISTEN_SOCK);
	quic_proc_table(seq, QUIC_HT_SOCK);
	return 0;
}

/**
 * quic_proc_eps_show - /proc/net/quic/eps
 * @seq: output; seq->private is the namespace
 * @v: unused
 *
 * Context: process context; takes each bucket mutex in turn.
 * Return: 0.
 */
int quic_proc_eps_show(struct seq_file *seq, void *v)
{
	struct quic_hash_table *ht = quic_hash_table(QUIC_HT_UDP_SOCK);
	struct net *net = seq->private;
	struct quic_hash_head *head;
	struct quic_udp_sock *us;
	char local[64];
	u32 i;

	seq_printf(seq, "%-47s %s\n", "LOCAL_ADDRESS", "USERS");
	for (i = 0; i < ht->size; i++) {
		head = &ht->hash[i];
		mutex_lock(&head->m_lock);
		hlist_for_each_entry(us, &head->head, node)
			if (net_eq(us->net, net)) {
				quic_proc_addr(local, sizeof(local), &us->addr);
				seq_printf(seq, "%-47s %u\n", local, refcount_read(&us->refcnt));
			}
		mutex_unlock(&head->m_lock);
	}
	return 0;
}
