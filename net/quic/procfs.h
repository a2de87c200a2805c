/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/net/quic/conns and /proc/net/quic/eps (procfs.c).
 */

#ifndef __net_quic_procfs_h__
#define __net_quic_procfs_h__

struct seq_file;

int quic_proc_conns_show(struct seq_file *seq, void *v);
int quic_proc_eps_show(struct seq_file *seq, void *v);

#endif /* __net_quic_procfs_h__ */
