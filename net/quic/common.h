/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC common helpers: wire integer codecs (RFC 9000 Section 16), packet
 * number reconstruction (RFC 9000 Section 17.1), transport parameter TLVs,
 * length-prefixed lists (ALPN), addresses, connection IDs and the global
 * hash tables.
 *
 * Every decoder takes a cursor (@pp, @plen): it never reads more than *@plen
 * bytes, and on failure it returns a negative errno with the cursor left
 * exactly where it was. Every encoder takes the same kind of cursor for the
 * room left in the output buffer and refuses values it cannot represent.
 */

#ifndef __net_quic_common_h__
#define __net_quic_common_h__

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/jhash.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <net/netns/hash.h>
#include <kunit/visibility.h>

/*
 * Internal functions reached by the KUnit suites (net/wireless/core.h
 * pattern): exported in the EXPORTED_FOR_KUNIT_TESTING namespace only when
 * the QUIC test module is configured; otherwise the symbol is swallowed by
 * a no-op compile-time assertion.
 */
#if IS_ENABLED(CONFIG_IP_QUIC_KUNIT_TEST)
#define VISIBLE_IF_QUIC_KUNIT
#define EXPORT_SYMBOL_IF_QUIC_KUNIT		EXPORT_SYMBOL_IF_KUNIT
#else
#define VISIBLE_IF_QUIC_KUNIT			static
#define EXPORT_SYMBOL_IF_QUIC_KUNIT		__QUIC_NO_EXPORT
#define __QUIC_NO_EXPORT(sym)	static_assert(sizeof(typeof(sym) *) == sizeof(void *))
#endif

#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
extern atomic_t quic_invariant_breaks;
#endif

/* RFC 9000 Section 16: the largest value a variable-length integer holds. */
#define QUIC_VARINT_MAX		((1ULL << 62) - 1)

/* RFC 9000 Section 17.2: connection IDs are 0 to 20 bytes in QUIC v1/v2.
 * The ones we make are 16 random bytes: the socket API draft's Security
 * section asks for at least 128 bits of entropy in each.
 */
#define QUIC_CONN_ID_MAX_LEN	20
#define QUIC_CONN_ID_DEF_LEN	16

/* RFC 9000 Section 14: smallest datagram payload a path must carry. */
#define QUIC_MIN_UDP_PAYLOAD	1200

/* RFC 9000 Section 18.2 defaults and limits (time values in microseconds). */
#define QUIC_DEF_ACK_DELAY_EXPONENT	3
#define QUIC_MAX_ACK_DELAY_EXPONENT	20
#define QUIC_DEF_ACK_DELAY		25000
#define QUIC_MAX_ACK_DELAY		(16384 * 1000)
#define QUIC_DEF_ACTIVE_CONN_ID_LIMIT	2
#define QUIC_MAX_UDP_PAYLOAD		65527

/* RFC 9000 Section 19.8: low bits of the STREAM frame type. */
#define QUIC_STREAM_BIT_FIN	0x01
#define QUIC_STREAM_BIT_LEN	0x02
#define QUIC_STREAM_BIT_OFF	0x04
#define QUIC_STREAM_BIT_MASK	0x08

/**
 * struct quic_conn_id - a connection ID of any length from 0 to 20 bytes
 * @len: number of valid bytes in @data
 * @data: the ID bytes
 */
struct quic_conn_id {
	u8 len;
	u8 data[QUIC_CONN_ID_MAX_LEN];
};

int quic_conn_id_set(struct quic_conn_id *id, const u8 *data, u32 len);

static inline bool quic_conn_id_equal(const struct quic_conn_id *a, const struct quic_conn_id *b)
{
	return a->len == b->len && !memcmp(a->data, b->data, a->len);
}

/**
 * union quic_addr - an IPv4 or IPv6 socket address with its port
 * @v6: IPv6 view
 * @v4: IPv4 view
 * @sa: family-independent view (sa_family selects the other two)
 */
union quic_addr {
	struct sockaddr_in6 v6;
	struct sockaddr_in v4;
	struct sockaddr sa;
};

static inline union quic_addr *quic_addr(const void *addr)
{
	return (union quic_addr *)addr;
}

/**
 * struct quic_data - a counted byte string owned by its holder
 * @data: the bytes (kmalloc'ed when owned), or NULL when empty
 * @len: number of bytes
 */
struct quic_data {
	u8 *data;
	u32 len;
};

static inline struct quic_data *quic_data(struct quic_data *d, u8 *data, u32 len)
{
	d->data = data;
	d->len = len;
	return d;
}

static inline bool quic_data_equal(const struct quic_data *a, const struct quic_data *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data, a->len));
}

/* Tickets, ticket keys and tokens live in these buffers: wiped when freed. */
static inline void quic_data_free(struct quic_data *d)
{
	kfree_sensitive(d->data);
	d->data = NULL;
	d->len = 0;
}

int quic_data_dup(struct quic_data *to, const u8 *data, u32 len, gfp_t gfp);

/* Variable-length integers (RFC 9000 Section 16) */
u32 quic_var_len(u64 val);
int quic_get_var(const u8 **pp, u32 *plen, u64 *val);
int quic_put_var(u8 **pp, u32 *plen, u64 val);
int quic_put_var_fixed(u8 **pp, u32 *plen, u64 val, u32 len);

/* Fixed-width big-endian integers and raw bytes */
int quic_get_int(const u8 **pp, u32 *plen, u64 *val, u32 len);
int quic_put_int(u8 **pp, u32 *plen, u64 val, u32 len);
int quic_get_data(const u8 **pp, u32 *plen, u8 *data, u32 len);
int quic_put_data(u8 **pp, u32 *plen, const void *data, u32 len);

/* Transport parameter TLVs carrying an integer value (RFC 9000 Section 18) */
int quic_put_param(u8 **pp, u32 *plen, u64 id, u64 val);
int quic_get_param(const u8 **pp, u32 *plen, u64 *val);

/* Packet number reconstruction (RFC 9000 Section 17.1, Appendix A.3) */
s64 quic_pn_decode(s64 largest_pn, u64 truncated_pn, u32 pn_len);
u32 quic_pn_encode_len(s64 full_pn, s64 largest_acked);

/* Length-prefixed lists, the TLS ALPN wire format (RFC 7301 Section 3.1) */
#define QUIC_ALPN_MAX_LEN	255	/* one protocol name */
#define QUIC_ALPN_LIST_MAX_LEN	1024	/* a whole list, as stored on a socket */

void quic_hmac_sha256(const u8 *key, u32 keylen, const u8 *msg, u32 len, u8 *out);
int quic_alpn_validate(const u8 *list, u32 len);
int quic_alpn_from_string(struct quic_data *to, const u8 *str, u32 len, gfp_t gfp);
int quic_alpn_to_string(const struct quic_data *list, u8 *buf, u32 *len);
bool quic_alpn_has(const struct quic_data *list, const u8 *name, u32 len);
int quic_alpn_select(const struct quic_data *ours, const struct quic_data *theirs,
		     struct quic_data *selected);

/* Global hash tables.
 *
 * Lookups on the receive path walk a bucket under rcu_read_lock(); writers
 * serialise on the bucket lock and use the _rcu list primitives. The UDP
 * tunnel table is only changed from process context (creating a tunnel
 * socket sleeps), so its buckets carry a mutex instead of a spinlock.
 */
struct quic_hash_head {
	struct hlist_head head;
	union {
		spinlock_t s_lock;	/* atomic-context tables */
		struct mutex m_lock;	/* QUIC_HT_UDP_SOCK */
	};
};

struct quic_hash_table {
	struct quic_hash_head *hash;
	u32 size;			/* a power of two */
	bool sleepable;			/* buckets use m_lock */
};

enum quic_hash_table_id {
	QUIC_HT_SOCK,			/* connected sockets by address pair */
	QUIC_HT_UDP_SOCK,		/* UDP tunnel sockets by local port */
	QUIC_HT_LISTEN_SOCK,		/* listening sockets by local port */
	QUIC_HT_CONNECTION_ID,		/* source connection IDs */
	QUIC_HT_MAX_TABLES,
};

int quic_hash_table_init(struct quic_hash_table *ht, u32 size, bool sleepable);
void quic_hash_table_destroy(struct quic_hash_table *ht);
int quic_hash_tables_init(void);
void quic_hash_tables_destroy(void);
struct quic_hash_table *quic_hash_table(enum quic_hash_table_id id);

u32 quic_addr_hash(const struct net *net, const union quic_addr *a);
struct quic_hash_head *quic_sock_head(const struct net *net, const union quic_addr *s,
				      const union quic_addr *d);
struct quic_hash_head *quic_listen_sock_head(const struct net *net, u16 port);
struct quic_hash_head *quic_udp_sock_head(const struct net *net, u16 port);
struct quic_hash_head *quic_source_conn_id_head(const struct net *net, const u8 *id, u32 len);

#endif /* __net_quic_common_h__ */
