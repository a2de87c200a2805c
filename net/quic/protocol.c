// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC protocol registration: inet/inet6 protosw for SOCK_STREAM and
 * SOCK_DGRAM, per-namespace MIB counters in /proc/net/quic/snmp, and the
 * net.quic memory sysctls.
 */

#include <linux/init.h>
#include <linux/module.h>
#include <linux/percpu_counter.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>
#include <net/inet_common.h>
#include <net/ip.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/protocol.h>

#include "addrval.h"
#include "alpn.h"
#include "connid_ctl.h"
#include "peeloff.h"
#include "procfs.h"
#include "socket.h"

unsigned int quic_net_id __read_mostly;

struct percpu_counter quic_sockets_allocated;
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_sockets_allocated);

long sysctl_quic_mem[3];
EXPORT_SYMBOL_IF_QUIC_KUNIT(sysctl_quic_mem);
int sysctl_quic_rmem[3];
EXPORT_SYMBOL_IF_QUIC_KUNIT(sysctl_quic_rmem);
int sysctl_quic_wmem[3];
EXPORT_SYMBOL_IF_QUIC_KUNIT(sysctl_quic_wmem);

/*
 * The three values of each sysctl are a minimum, a default and a maximum:
 * they must be positive and ordered. The value is parsed into a scratch
 * copy and only a well-formed triple is committed, so garbage leaves the
 * old values in place.
 */
static int quic_sysctl_ordered(const struct ctl_table *table, int write, void *buffer,
			       size_t *lenp, loff_t *ppos, bool is_long)
{
	union {
		long l[3];
		int i[3];
	} vals;
	struct ctl_table tmp = {
		.data	= &vals,
		.maxlen	= table->maxlen,
		.mode	= table->mode,
	};
	long v[3];
	int ret, k;

	memcpy(&vals, table->data, table->maxlen);
	if (is_long)
		ret = proc_doulongvec_minmax(&tmp, write, buffer, lenp, ppos);
	else
		ret = proc_dointvec(&tmp, write, buffer, lenp, ppos);
	if (!write || ret)
		return ret;

	for (k = 0; k < 3; k++)
		v[k] = is_long ? vals.l[k] : vals.i[k];
	if (v[0] <= 0 || v[0] > v[1] || v[1] > v[2])
		return -EINVAL;
	memcpy(table->data, &vals, table->maxlen);
	return 0;
}

VISIBLE_IF_QUIC_KUNIT int quic_sysctl_mem(const struct ctl_table *table, int write,
					  void *buffer, size_t *lenp, loff_t *ppos)
{
	return quic_sysctl_ordered(table, write, buffer, lenp, ppos, true);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_sysctl_mem);

VISIBLE_IF_QUIC_KUNIT int quic_sysctl_buf(const struct ctl_table *table, int write,
					  void *buffer, size_t *lenp, loff_t *ppos)
{
	return quic_sysctl_ordered(table, write, buffer, lenp, ppos, false);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_sysctl_buf);

static struct ctl_table quic_table[] = {
	{
		.procname	= "quic_mem",
		.data		= &sysctl_quic_mem,
		.maxlen		= sizeof(sysctl_quic_mem),
		.mode		= 0644,
		.proc_handler	= quic_sysctl_mem,
	},
	{
		.procname	= "quic_rmem",
		.data		= &sysctl_quic_rmem,
		.maxlen		= sizeof(sysctl_quic_rmem),
		.mode		= 0644,
		.proc_handler	= quic_sysctl_buf,
	},
	{
		.procname	= "quic_wmem",
		.data		= &sysctl_quic_wmem,
		.maxlen		= sizeof(sysctl_quic_wmem),
		.mode		= 0644,
		.proc_handler	= quic_sysctl_buf,
	},
};

#ifdef CONFIG_PROC_FS
static const struct snmp_mib quic_snmp_list[] = {
	SNMP_MIB_ITEM("QuicConnCurrentEstabs", QUIC_MIB_CONN_CURRENTESTABS),
	SNMP_MIB_ITEM("QuicConnPassiveEstabs", QUIC_MIB_CONN_PASSIVEESTABS),
	SNMP_MIB_ITEM("QuicConnActiveEstabs", QUIC_MIB_CONN_ACTIVEESTABS),
	SNMP_MIB_ITEM("QuicPktRcvFastpaths", QUIC_MIB_PKT_RCVFASTPATHS),
	SNMP_MIB_ITEM("QuicPktDecFastpaths", QUIC_MIB_PKT_DECFASTPATHS),
	SNMP_MIB_ITEM("QuicPktEncFastpaths", QUIC_MIB_PKT_ENCFASTPATHS),
	SNMP_MIB_ITEM("QuicPktRcvBacklogs", QUIC_MIB_PKT_RCVBACKLOGS),
	SNMP_MIB_ITEM("QuicPktDecBacklogs", QUIC_MIB_PKT_DECBACKLOGS),
	SNMP_MIB_ITEM("QuicPktEncBacklogs", QUIC_MIB_PKT_ENCBACKLOGS),
	SNMP_MIB_ITEM("QuicPktInvHdrDrop", QUIC_MIB_PKT_INVHDRDROP),
	SNMP_MIB_ITEM("QuicPktInvNumDrop", QUIC_MIB_PKT_INVNUMDROP),
	SNMP_MIB_ITEM("QuicPktInvFrmDrop", QUIC_MIB_PKT_INVFRMDROP),
	SNMP_MIB_ITEM("QuicPktRcvDrop", QUIC_MIB_PKT_RCVDROP),
	SNMP_MIB_ITEM("QuicPktDecDrop", QUIC_MIB_PKT_DECDROP),
	SNMP_MIB_ITEM("QuicPktEncDrop", QUIC_MIB_PKT_ENCDROP),
	SNMP_MIB_ITEM("QuicFrmRcvBufDrop", QUIC_MIB_FRM_RCVBUFDROP),
	SNMP_MIB_ITEM("QuicFrmRetrans", QUIC_MIB_FRM_RETRANS),
	SNMP_MIB_ITEM("QuicFrmOutCloses", QUIC_MIB_FRM_OUTCLOSES),
	SNMP_MIB_ITEM("QuicFrmInCloses", QUIC_MIB_FRM_INCLOSES),
	SNMP_MIB_SENTINEL
};

/* Every counter but QUIC_MIB_NUM has a line. */
static_assert(ARRAY_SIZE(quic_snmp_list) == QUIC_MIB_MAX);

/**
 * quic_snmp_seq_show - print the namespace's QUIC counters, one per line
 * @seq: output; seq->private is the struct net
 * @v: unused
 *
 * Return: 0.
 */
VISIBLE_IF_QUIC_KUNIT int quic_snmp_seq_show(struct seq_file *seq, void *v)
{
	unsigned long buff[QUIC_MIB_MAX] = {};
	struct net *net = seq->private;
	u32 i;

	snmp_get_cpu_field_batch(buff, quic_snmp_list, quic_net(net)->stat);
	for (i = 0; quic_snmp_list[i].name; i++)
		seq_printf(seq, "%-32s\t%lu\n", quic_snmp_list[i].name, buff[i]);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_snmp_seq_show);

static int quic_net_proc_init(struct net *net)
{
	struct quic_net *qn = quic_net(net);

	qn->proc_net = proc_net_mkdir(net, "quic", net->proc_net);
	if (!qn->proc_net)
		return -ENOMEM;
	if (!proc_create_net_single("snmp", 0444, qn->proc_net, quic_snmp_seq_show, NULL) ||
	    !proc_create_net_single("conns", 0444, qn->proc_net, quic_proc_conns_show, NULL) ||
	    !proc_create_net_single("eps", 0444, qn->proc_net, quic_proc_eps_show, NULL)) {
		remove_proc_subtree("quic", net->proc_net);
		qn->proc_net = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void quic_net_proc_exit(struct net *net)
{
	remove_proc_subtree("quic", net->proc_net);
	quic_net(net)->proc_net = NULL;
}
#else
static int quic_net_proc_init(struct net *net)
{
	return 0;
}

static void quic_net_proc_exit(struct net *net)
{
}
#endif

#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
/**
 * quic_mib_read - sum one MIB counter over all CPUs
 * @net: namespace
 * @field: QUIC_MIB_* index
 *
 * Return: the counter's value.
 */
unsigned long quic_mib_read(struct net *net, int field)
{
	return snmp_fold_field(quic_net(net)->stat, field);
}
EXPORT_SYMBOL_IF_KUNIT(quic_mib_read);
#endif

static struct inet_protosw quic_stream_protosw = {
	.type		= SOCK_STREAM,
	.protocol	= IPPROTO_QUIC,
	.prot		= &quic_prot,
	.ops		= &quic_proto_ops,
};

static struct inet_protosw quic_dgram_protosw = {
	.type		= SOCK_DGRAM,
	.protocol	= IPPROTO_QUIC,
	.prot		= &quic_prot,
	.ops		= &quic_proto_ops,
};

static struct inet_protosw quicv6_stream_protosw = {
	.type		= SOCK_STREAM,
	.protocol	= IPPROTO_QUIC,
	.prot		= &quicv6_prot,
	.ops		= &quicv6_proto_ops,
};

static struct inet_protosw quicv6_dgram_protosw = {
	.type		= SOCK_DGRAM,
	.protocol	= IPPROTO_QUIC,
	.prot		= &quicv6_prot,
	.ops		= &quicv6_proto_ops,
};

static int quic_protosw_init(void)
{
	int err;

	err = quic_peel_init();
	if (err)
		return err;
	err = proto_register(&quic_prot, 1);
	if (err)
		goto err_prot;
	err = proto_register(&quicv6_prot, 1);
	if (err)
		goto err_prot6;

	inet_register_protosw(&quic_stream_protosw);
	inet_register_protosw(&quic_dgram_protosw);
	err = inet6_register_protosw(&quicv6_stream_protosw);
	if (err)
		goto err_v6_stream;
	err = inet6_register_protosw(&quicv6_dgram_protosw);
	if (err)
		goto err_v6_dgram;
	return 0;

err_v6_dgram:
	inet6_unregister_protosw(&quicv6_stream_protosw);
err_v6_stream:
	inet_unregister_protosw(&quic_dgram_protosw);
	inet_unregister_protosw(&quic_stream_protosw);
	proto_unregister(&quicv6_prot);
err_prot6:
	proto_unregister(&quic_prot);
err_prot:
	quic_peel_exit();
	return err;
}

static void quic_protosw_exit(void)
{
	inet6_unregister_protosw(&quicv6_dgram_protosw);
	inet6_unregister_protosw(&quicv6_stream_protosw);
	inet_unregister_protosw(&quic_dgram_protosw);
	inet_unregister_protosw(&quic_stream_protosw);
	proto_unregister(&quicv6_prot);
	proto_unregister(&quic_prot);
	quic_peel_exit();
}

static int __net_init quic_net_init(struct net *net)
{
	struct quic_net *qn = quic_net(net);
	int err;

	qn->stat = alloc_percpu(struct quic_mib);
	if (!qn->stat)
		return -ENOMEM;

	err = quic_net_proc_init(net);
	if (err)
		goto err_proc;
	err = quic_cid_net_init(net);
	if (err)
		goto err_cid;
	err = quic_addrval_net_init(net);
	if (err)
		goto err_addrval;
	return 0;

err_addrval:
	quic_cid_net_exit(net);
err_cid:
	quic_net_proc_exit(net);
err_proc:
	free_percpu(qn->stat);
	qn->stat = NULL;
	return err;
}

static void __net_exit quic_net_exit(struct net *net)
{
	struct quic_net *qn = quic_net(net);

	/* Tunnels of this namespace still being released are closed by work items. */
	quic_path_flush();
	quic_alpn_held_purge(net);
	quic_addrval_net_exit(net);
	quic_cid_net_exit(net);
	quic_net_proc_exit(net);
	free_percpu(qn->stat);
	qn->stat = NULL;
}

static struct pernet_operations quic_net_ops = {
	.init	= quic_net_init,
	.exit	= quic_net_exit,
	.id	= &quic_net_id,
	.size	= sizeof(struct quic_net),
};

static struct ctl_table_header *quic_sysctl_header;

/* Memory limits scale with the machine, in the manner of TCP and SCTP. */
static void quic_mem_init(void)
{
	unsigned long limit, max_share;

	limit = max(nr_free_buffer_pages() / 8, 128UL);
	sysctl_quic_mem[0] = limit / 4 * 3;
	sysctl_quic_mem[1] = limit;
	sysctl_quic_mem[2] = sysctl_quic_mem[0] * 2;

	/* One socket may use at most 1/128 of the pressure threshold, 4 MiB tops. */
	max_share = min(4UL * 1024 * 1024, (unsigned long)sysctl_quic_mem[1] << (PAGE_SHIFT - 7));

	sysctl_quic_rmem[0] = PAGE_SIZE;
	sysctl_quic_rmem[1] = 1024 * 1024;
	sysctl_quic_rmem[2] = max(1024UL * 1024, max_share);

	sysctl_quic_wmem[0] = PAGE_SIZE;
	sysctl_quic_wmem[1] = 16 * 1024;
	sysctl_quic_wmem[2] = max(64UL * 1024, max_share);
}

static __init int quic_init(void)
{
	int err;

	quic_mem_init();

	err = percpu_counter_init(&quic_sockets_allocated, 0, GFP_KERNEL);
	if (err)
		return err;

	err = quic_hash_tables_init();
	if (err)
		goto err_hash;

	err = register_pernet_subsys(&quic_net_ops);
	if (err)
		goto err_pernet;

	err = quic_close_wq_init();
	if (err)
		goto err_close_wq;

	err = quic_addrval_init();
	if (err)
		goto err_addrval;

	err = quic_protosw_init();
	if (err)
		goto err_protosw;

	quic_sysctl_header = register_net_sysctl(&init_net, "net/quic", quic_table);
	if (IS_ENABLED(CONFIG_SYSCTL) && !quic_sysctl_header) {
		err = -ENOMEM;
		goto err_sysctl;
	}
	return 0;

err_sysctl:
	quic_protosw_exit();
err_protosw:
	quic_addrval_exit();
err_addrval:
	quic_close_wq_destroy();
err_close_wq:
	unregister_pernet_subsys(&quic_net_ops);
err_pernet:
	quic_hash_tables_destroy();
err_hash:
	percpu_counter_destroy(&quic_sockets_allocated);
	return err;
}

static __exit void quic_exit(void)
{
	unregister_net_sysctl_table(quic_sysctl_header);
	quic_protosw_exit();
	quic_addrval_exit();
	quic_close_wq_destroy();
	unregister_pernet_subsys(&quic_net_ops);
	quic_path_destroy();
	quic_hash_tables_destroy();
	percpu_counter_destroy(&quic_sockets_allocated);
}

module_init(quic_init);
module_exit(quic_exit);

MODULE_ALIAS("net-pf-" __stringify(PF_INET) "-proto-261");
MODULE_ALIAS("net-pf-" __stringify(PF_INET6) "-proto-261");
MODULE_DESCRIPTION("QUIC transport protocol (RFC 9000)");
MODULE_LICENSE("GPL");
