/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC protocol registration, per-namespace statistics and sysctls.
 */

#ifndef __net_quic_protocol_h__
#define __net_quic_protocol_h__

#include <net/netns/generic.h>
#include <net/snmp.h>

#include "crypto.h"
#include "token.h"

struct seq_file;

extern struct percpu_counter quic_sockets_allocated;

extern long sysctl_quic_mem[3];
extern int sysctl_quic_rmem[3];
extern int sysctl_quic_wmem[3];

/* MIB counters shown in /proc/net/quic/snmp, in this order. */
enum {
	QUIC_MIB_NUM = 0,
	QUIC_MIB_CONN_CURRENTESTABS,	/* connections now established */
	QUIC_MIB_CONN_PASSIVEESTABS,	/* established by accept() */
	QUIC_MIB_CONN_ACTIVEESTABS,	/* established by connect() */
	QUIC_MIB_PKT_RCVFASTPATHS,	/* packets processed in softirq */
	QUIC_MIB_PKT_DECFASTPATHS,	/* packets decrypted in softirq */
	QUIC_MIB_PKT_ENCFASTPATHS,	/* packets encrypted in the sender's context */
	QUIC_MIB_PKT_RCVBACKLOGS,	/* packets deferred to the socket backlog */
	QUIC_MIB_PKT_DECBACKLOGS,	/* packets decrypted from the backlog */
	QUIC_MIB_PKT_ENCBACKLOGS,	/* packets encrypted from deferred work */
	QUIC_MIB_PKT_INVHDRDROP,	/* dropped: malformed header */
	QUIC_MIB_PKT_INVNUMDROP,	/* dropped: duplicate or unusable packet number */
	QUIC_MIB_PKT_INVFRMDROP,	/* dropped: malformed frame */
	QUIC_MIB_PKT_RCVDROP,		/* dropped on receive, other reasons */
	QUIC_MIB_PKT_DECDROP,		/* dropped: decryption failed */
	QUIC_MIB_PKT_ENCDROP,		/* dropped: encryption failed */
	QUIC_MIB_FRM_RCVBUFDROP,	/* frames dropped: receive buffer full */
	QUIC_MIB_FRM_RETRANS,		/* frames retransmitted */
	QUIC_MIB_FRM_OUTCLOSES,		/* CONNECTION_CLOSE frames sent */
	QUIC_MIB_FRM_INCLOSES,		/* CONNECTION_CLOSE frames received */
	QUIC_MIB_MAX
};

struct quic_mib {
	unsigned long mibs[QUIC_MIB_MAX];
};

/* Per network namespace state: per-CPU MIB counters, /proc/net/quic, and
 * the keys of what a namespace's endpoints hand out to peers: stateless
 * reset tokens (connid_ctl.c) and address validation tokens (addrval.c).
 * Keys of their own, so that what one namespace's listeners reveal says
 * nothing about another's connections.
 */
struct quic_net {
	DEFINE_SNMP_STAT(struct quic_mib, stat);
	struct quic_crypto_mac reset_mac;
	struct quic_crypto_mac token_mac;
#ifdef CONFIG_PROC_FS
	struct proc_dir_entry *proc_net;
#endif
};

extern unsigned int quic_net_id;

/**
 * quic_net - QUIC state of a network namespace
 * @net: the namespace
 *
 * An inline accessor: every layer reads its namespace's counters and keys.
 *
 * Return: the namespace's struct quic_net.
 */
static inline struct quic_net *quic_net(struct net *net)
{
	return net_generic(net, quic_net_id);
}

#define QUIC_INC_STATS(net, field)	SNMP_INC_STATS(quic_net(net)->stat, field)
#define QUIC_DEC_STATS(net, field)	SNMP_DEC_STATS(quic_net(net)->stat, field)
#define QUIC_ADD_STATS(net, field, n)	SNMP_ADD_STATS(quic_net(net)->stat, field, n)

#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
struct ctl_table;
int quic_sysctl_mem(const struct ctl_table *table, int write, void *buffer, size_t *lenp,
		    loff_t *ppos);
int quic_sysctl_buf(const struct ctl_table *table, int write, void *buffer, size_t *lenp,
		    loff_t *ppos);
int quic_snmp_seq_show(struct seq_file *seq, void *v);
unsigned long quic_mib_read(struct net *net, int field);
#endif

#endif /* __net_quic_protocol_h__ */
