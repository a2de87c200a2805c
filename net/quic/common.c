// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC common helpers: integer codecs, packet number reconstruction,
 * transport parameter TLVs, ALPN lists and the global hash tables.
 */

#include <crypto/sha2.h>
#include <linux/slab.h>

#include "common.h"

/* Two most significant bits of the first byte give the encoded length. */
#define QUIC_VARINT_PREFIX_SHIFT	6
#define QUIC_VARINT_FIRST_MASK		0x3f

static struct quic_hash_table quic_hash_tables[QUIC_HT_MAX_TABLES];

/* Bucket counts; powers of two so that a mask picks the bucket. */
static const u32 quic_hash_sizes[QUIC_HT_MAX_TABLES] = {
	[QUIC_HT_SOCK]		= 256,
	[QUIC_HT_UDP_SOCK]	= 64,
	[QUIC_HT_LISTEN_SOCK]	= 64,
	[QUIC_HT_CONNECTION_ID]	= 256,
};

/* Big-endian byte helpers shared by the varint and fixed-width codecs. */
static u64 quic_read_be(const u8 *p, u32 len)
{
	u64 v = 0;
	u32 i;

	for (i = 0; i < len; i++)
		v = (v << 8) | p[i];
	return v;
}

static void quic_write_be(u8 *p, u64 v, u32 len)
{
	while (len--) {
		p[len] = v & 0xff;
		v >>= 8;
	}
}

#if IS_ENABLED(CONFIG_IP_QUIC_DEBUG_INVARIANTS)
/* Broken invariants reported so far (quic_invariant_check()): a suite reads
 * it before and after an input to name the input that broke one.
 */
atomic_t quic_invariant_breaks = ATOMIC_INIT(0);
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_invariant_breaks);
#endif

/**
 * quic_conn_id_set - fill a connection ID from raw bytes
 * @id: destination
 * @data: ID bytes (may be NULL when @len is 0)
 * @len: length, 0 to %QUIC_CONN_ID_MAX_LEN
 *
 * Return: 0, or -EINVAL when @len is too long (@id is left unchanged).
 */
int quic_conn_id_set(struct quic_conn_id *id, const u8 *data, u32 len)
{
	if (len > QUIC_CONN_ID_MAX_LEN)
		return -EINVAL;
	if (len)
		memcpy(id->data, data, len);
	id->len = len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_set);

/**
 * quic_data_dup - replace the bytes held by @to with a copy of @data
 * @to: holder; its previous buffer is freed on success
 * @data: bytes to copy
 * @len: number of bytes; 0 empties @to
 * @gfp: allocation flags
 *
 * Return: 0, or -ENOMEM (then @to is unchanged).
 */
int quic_data_dup(struct quic_data *to, const u8 *data, u32 len, gfp_t gfp)
{
	u8 *p = NULL;

	if (len) {
		p = kmemdup(data, len, gfp);
		if (!p)
			return -ENOMEM;
	}
	kfree_sensitive(to->data);	/* it may hold a ticket or a key */
	to->data = p;
	to->len = len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_data_dup);

/**
 * quic_var_len - bytes needed to encode a variable-length integer
 * @val: value to encode
 *
 * Return: 1, 2, 4 or 8, or 0 when @val exceeds %QUIC_VARINT_MAX.
 */
u32 quic_var_len(u64 val)
{
	if (val < (1ULL << 6))
		return 1;
	if (val < (1ULL << 14))
		return 2;
	if (val < (1ULL << 30))
		return 4;
	if (val <= QUIC_VARINT_MAX)
		return 8;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_var_len);

/**
 * quic_get_var - decode a variable-length integer
 * @pp: cursor; advanced past the integer on success
 * @plen: bytes left at the cursor; reduced on success
 * @val: decoded value
 *
 * Non-minimal encodings are accepted, as RFC 9000 Section 16 requires for
 * everything but frame types (the frame decoder checks those itself).
 *
 * Return: 0, or -EINVAL when the input ends inside the integer.
 */
int quic_get_var(const u8 **pp, u32 *plen, u64 *val)
{
	const u8 *p = *pp;
	u32 len;

	if (!*plen)
		return -EINVAL;
	len = 1U << (p[0] >> QUIC_VARINT_PREFIX_SHIFT);
	if (*plen < len)
		return -EINVAL;

	/* Drop the two length bits at the top of the first byte. */
	*val = quic_read_be(p, len) & (QUIC_VARINT_MAX >> (64 - 8 * len));
	*pp = p + len;
	*plen -= len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_var);

/**
 * quic_put_var_fixed - encode a variable-length integer on exactly @len bytes
 * @pp: output cursor; advanced on success
 * @plen: room left at the cursor; reduced on success
 * @val: value to encode
 * @len: encoded length: 1, 2, 4 or 8
 *
 * Used where a field's size is fixed before its value is known, such as the
 * Length field of a long header packet.
 *
 * Return: 0, -EINVAL for a bad @len or a value that does not fit in it,
 * -ENOSPC when the output has less than @len bytes left.
 */
int quic_put_var_fixed(u8 **pp, u32 *plen, u64 val, u32 len)
{
	u8 *p = *pp;

	if (len != 1 && len != 2 && len != 4 && len != 8)
		return -EINVAL;
	if (val > QUIC_VARINT_MAX || (len < 8 && val >= (1ULL << (len * 8 - 2))))
		return -EINVAL;
	if (*plen < len)
		return -ENOSPC;

	quic_write_be(p, val, len);
	p[0] |= ilog2(len) << QUIC_VARINT_PREFIX_SHIFT;

	*pp = p + len;
	*plen -= len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_put_var_fixed);

/**
 * quic_put_var - encode a variable-length integer in its shortest form
 * @pp: output cursor; advanced on success
 * @plen: room left at the cursor; reduced on success
 * @val: value to encode
 *
 * Return: 0, -EINVAL when @val exceeds %QUIC_VARINT_MAX (it is refused, not
 * truncated), -ENOSPC when the output is too short.
 */
int quic_put_var(u8 **pp, u32 *plen, u64 val)
{
	u32 len = quic_var_len(val);

	if (!len)
		return -EINVAL;
	return quic_put_var_fixed(pp, plen, val, len);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_put_var);

/**
 * quic_get_int - decode a big-endian integer of @len bytes
 * @pp: cursor; advanced on success
 * @plen: bytes left at the cursor; reduced on success
 * @val: decoded value
 * @len: width in bytes, 1 to 8
 *
 * Return: 0, or -EINVAL for a bad @len or a truncated input.
 */
int quic_get_int(const u8 **pp, u32 *plen, u64 *val, u32 len)
{
	const u8 *p = *pp;

	if (!len || len > sizeof(u64) || *plen < len)
		return -EINVAL;

	*val = quic_read_be(p, len);
	*pp = p + len;
	*plen -= len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_int);

/**
 * quic_put_int - encode @val as a big-endian integer of @len bytes
 * @pp: output cursor; advanced on success
 * @plen: room left at the cursor; reduced on success
 * @val: value to encode
 * @len: width in bytes, 1 to 8
 *
 * Return: 0, -EINVAL for a bad @len or a value wider than @len bytes,
 * -ENOSPC when the output is too short.
 */
int quic_put_int(u8 **pp, u32 *plen, u64 val, u32 len)
{
	u8 *p = *pp;

	if (!len || len > sizeof(u64))
		return -EINVAL;
	if (len < sizeof(u64) && val >> (len * 8))
		return -EINVAL;
	if (*plen < len)
		return -ENOSPC;

	quic_write_be(p, val, len);
	*pp = p + len;
	*plen -= len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_put_int);

/**
 * quic_get_data - copy @len raw bytes out of the input
 * @pp: cursor; advanced on success
 * @plen: bytes left at the cursor; reduced on success
 * @data: destination, at least @len bytes
 * @len: number of bytes
 *
 * Return: 0, or -EINVAL when fewer than @len bytes are left.
 */
int quic_get_data(const u8 **pp, u32 *plen, u8 *data, u32 len)
{
	if (*plen < len)
		return -EINVAL;
	if (len)
		memcpy(data, *pp, len);
	*pp += len;
	*plen -= len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_data);

/**
 * quic_put_data - copy @len raw bytes into the output
 * @pp: output cursor; advanced on success
 * @plen: room left at the cursor; reduced on success
 * @data: source bytes
 * @len: number of bytes
 *
 * Return: 0, or -ENOSPC when the output is too short.
 */
int quic_put_data(u8 **pp, u32 *plen, const void *data, u32 len)
{
	if (*plen < len)
		return -ENOSPC;
	if (len)
		memcpy(*pp, data, len);
	*pp += len;
	*plen -= len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_put_data);

/**
 * quic_put_param - encode an integer transport parameter
 * @pp: output cursor; advanced on success
 * @plen: room left at the cursor; reduced on success
 * @id: transport parameter ID
 * @val: value, carried as a variable-length integer
 *
 * Writes the (ID, Length, Value) triple of RFC 9000 Section 18 in one go, so
 * a short buffer never leaves half a parameter behind.
 *
 * Return: 0, -EINVAL when @id or @val exceed %QUIC_VARINT_MAX, -ENOSPC when
 * the output is too short.
 */
int quic_put_param(u8 **pp, u32 *plen, u64 id, u64 val)
{
	u32 vlen = quic_var_len(val), ilen = quic_var_len(id);
	u32 left = *plen;
	u8 *p = *pp;

	if (!vlen || !ilen)
		return -EINVAL;
	if (left < ilen + 1 + vlen)
		return -ENOSPC;

	quic_put_var(&p, &left, id);
	quic_put_var(&p, &left, vlen);
	quic_put_var(&p, &left, val);
	*pp = p;
	*plen = left;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_put_param);

/**
 * quic_get_param - decode the Length and Value of an integer parameter
 * @pp: cursor just past the parameter ID; advanced past the value on success
 * @plen: bytes left at the cursor; reduced on success
 * @val: decoded value
 *
 * The Length field must describe exactly one variable-length integer:
 * trailing bytes or a value running past Length are errors.
 *
 * Return: 0, or -EINVAL for a malformed or truncated parameter.
 */
int quic_get_param(const u8 **pp, u32 *plen, u64 *val)
{
	const u8 *p = *pp, *value;
	u32 left = *plen, vlen;
	u64 len, v;

	if (quic_get_var(&p, &left, &len) || len > left || !len)
		return -EINVAL;
	value = p;
	vlen = len;
	if (quic_get_var(&value, &vlen, &v) || vlen)
		return -EINVAL;

	*val = v;
	*pp = p + len;
	*plen = left - len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_get_param);

/**
 * quic_pn_decode - reconstruct a full packet number from its truncated form
 * @largest_pn: largest packet number received so far in this space, or -1
 * @truncated_pn: the packet number bits carried in the header
 * @pn_len: length of the packet number field, 1 to 4 bytes
 *
 * Picks the candidate closest to the next expected packet number, as in RFC
 * 9000 Appendix A.3, never going below 0 nor above 2^62 - 1.
 *
 * Return: the packet number, or -EINVAL for a bad @pn_len or bits of
 * @truncated_pn outside the field.
 */
s64 quic_pn_decode(s64 largest_pn, u64 truncated_pn, u32 pn_len)
{
	s64 expected, win, hwin, mask, cand;

	if (pn_len < 1 || pn_len > 4 || truncated_pn >> (pn_len * 8))
		return -EINVAL;

	expected = largest_pn + 1;
	win = 1LL << (pn_len * 8);
	hwin = win / 2;
	mask = win - 1;
	cand = (expected & ~mask) | (s64)truncated_pn;

	if (cand <= expected - hwin && cand < (1LL << 62) - win)
		return cand + win;
	if (cand > expected + hwin && cand >= win)
		return cand - win;
	return cand;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pn_decode);

/**
 * quic_pn_encode_len - length of the packet number field to send
 * @full_pn: packet number about to be sent
 * @largest_acked: largest packet number the peer acknowledged, or -1
 *
 * RFC 9000 Section 17.1 and Appendix A.2: enough bits to cover twice the
 * distance to the largest acknowledged packet.
 *
 * Return: 1 to 4.
 */
u32 quic_pn_encode_len(s64 full_pn, s64 largest_acked)
{
	u64 unacked = full_pn - largest_acked;	/* full_pn + 1 when nothing acked */
	u32 len;

	for (len = 1; len < 4; len++)
		if (unacked <= (1ULL << (len * 8 - 1)))
			break;
	return len;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_pn_encode_len);

/**
 * quic_hmac_sha256 - HMAC-SHA256 (RFC 2104) with the SHA-256 library
 * @key: the key; one longer than a block is hashed first
 * @keylen: its length
 * @msg: the message
 * @len: its length
 * @out: output, SHA256_DIGEST_SIZE bytes
 *
 * For derivations outside a socket's transforms: nothing is allocated and
 * nothing sleeps, so any context may call it.
 */
void quic_hmac_sha256(const u8 *key, u32 keylen, const u8 *msg, u32 len, u8 *out)
{
	u8 pad[SHA256_BLOCK_SIZE];
	struct sha256_state st;
	int i;

	memset(pad, 0, sizeof(pad));
	if (keylen > SHA256_BLOCK_SIZE)
		sha256(key, keylen, pad);
	else
		memcpy(pad, key, keylen);
	for (i = 0; i < SHA256_BLOCK_SIZE; i++)
		pad[i] ^= 0x36;
	sha256_init(&st);
	sha256_update(&st, pad, sizeof(pad));
	sha256_update(&st, msg, len);
	sha256_final(&st, out);
	for (i = 0; i < SHA256_BLOCK_SIZE; i++)
		pad[i] ^= 0x36 ^ 0x5c;
	sha256_init(&st);
	sha256_update(&st, pad, sizeof(pad));
	sha256_update(&st, out, SHA256_DIGEST_SIZE);
	sha256_final(&st, out);
	memzero_explicit(pad, sizeof(pad));
	memzero_explicit(&st, sizeof(st));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_hmac_sha256);

/**
 * quic_alpn_validate - check a length-prefixed protocol name list
 * @list: the list: entries of a one-byte length and that many bytes
 * @len: total length
 *
 * Return: number of entries (at least 1), or -EINVAL for an empty list, an
 * empty entry or an entry running past @len.
 */
int quic_alpn_validate(const u8 *list, u32 len)
{
	int count = 0;
	u32 n;

	if (!len)
		return -EINVAL;
	while (len) {
		n = list[0];
		if (!n || n >= len)
			return -EINVAL;
		list += n + 1;
		len -= n + 1;
		count++;
	}
	return count;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_validate);

/**
 * quic_alpn_from_string - build a protocol name list from "name1,name2"
 * @to: receives the newly allocated list; its old content is freed
 * @str: comma-separated names (spaces around a name are ignored)
 * @len: length of @str
 * @gfp: allocation flags
 *
 * Return: 0, -EINVAL for an empty string, an empty name, a name longer than
 * %QUIC_ALPN_MAX_LEN or a list longer than %QUIC_ALPN_LIST_MAX_LEN,
 * -ENOMEM on allocation failure. @to is unchanged on error.
 */
int quic_alpn_from_string(struct quic_data *to, const u8 *str, u32 len, gfp_t gfp)
{
	const u8 *end = str + len, *s, *e;
	u8 *buf, *p;

	if (!len || len >= QUIC_ALPN_LIST_MAX_LEN)
		return -EINVAL;
	/* Each name gains one length byte and each comma disappears: +1 byte. */
	buf = kmalloc(len + 1, gfp);
	if (!buf)
		return -ENOMEM;

	p = buf;
	s = str;
	while (true) {
		e = memchr(s, ',', end - s);
		if (!e)
			e = end;
		while (s < e && *s == ' ')
			s++;
		while (e > s && e[-1] == ' ')
			e--;
		if (e == s || e - s > QUIC_ALPN_MAX_LEN)
			goto err;
		*p++ = e - s;
		memcpy(p, s, e - s);
		p += e - s;

		s = memchr(s, ',', end - s);
		if (!s)
			break;
		s++;
	}

	kfree(to->data);
	to->data = buf;
	to->len = p - buf;
	return 0;
err:
	kfree(buf);
	return -EINVAL;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_from_string);

/**
 * quic_alpn_to_string - render a protocol name list as "name1,name2"
 * @list: a list accepted by quic_alpn_validate(), or an empty one
 * @buf: output buffer
 * @len: in: size of @buf; out: length of the string (no NUL is written)
 *
 * Return: 0, -EINVAL for a malformed list, -ENOSPC when @buf is too small.
 */
int quic_alpn_to_string(const struct quic_data *list, u8 *buf, u32 *len)
{
	const u8 *p = list->data;
	u32 left = list->len, out = 0, n;

	if (!left) {
		*len = 0;
		return 0;
	}
	if (quic_alpn_validate(p, left) < 0)
		return -EINVAL;
	/* A list of L bytes renders to exactly L - 1 characters. */
	if (*len < left - 1)
		return -ENOSPC;

	while (left) {
		n = p[0];
		if (out)
			buf[out++] = ',';
		memcpy(buf + out, p + 1, n);
		out += n;
		p += n + 1;
		left -= n + 1;
	}
	*len = out;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_to_string);

/**
 * quic_alpn_has - tell whether a protocol name list holds @name
 * @list: a list accepted by quic_alpn_validate(), or an empty one
 * @name: protocol name
 * @len: length of @name
 *
 * Return: true when an entry equals @name exactly.
 */
bool quic_alpn_has(const struct quic_data *list, const u8 *name, u32 len)
{
	const u8 *p = list->data;
	u32 left = list->len, n;

	while (left) {
		n = p[0];
		if (n >= left)
			return false;
		if (n == len && !memcmp(p + 1, name, len))
			return true;
		p += n + 1;
		left -= n + 1;
	}
	return false;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_has);

/**
 * quic_alpn_select - pick our most preferred protocol that the peer offers
 * @ours: our list, most preferred first
 * @theirs: the peer's list
 * @selected: set to point at the chosen name inside @ours (not a copy)
 *
 * Return: 0 when a common protocol exists, -ENOENT when none does, -EINVAL
 * when either list is malformed.
 */
int quic_alpn_select(const struct quic_data *ours, const struct quic_data *theirs,
		     struct quic_data *selected)
{
	u8 *p = ours->data;
	u32 left = ours->len, n;

	if (quic_alpn_validate(ours->data, ours->len) < 0 ||
	    quic_alpn_validate(theirs->data, theirs->len) < 0)
		return -EINVAL;

	while (left) {
		n = p[0];
		if (quic_alpn_has(theirs, p + 1, n)) {
			quic_data(selected, p + 1, n);
			return 0;
		}
		p += n + 1;
		left -= n + 1;
	}
	return -ENOENT;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_alpn_select);

/**
 * quic_hash_table_init - allocate the buckets of one table
 * @ht: the table
 * @size: number of buckets, a power of two
 * @sleepable: true for a table changed only from process context (its
 *             buckets get a mutex), false for one changed in softirq
 *             (its buckets get a spinlock)
 *
 * Return: 0, -EINVAL when @size is not a power of two, or -ENOMEM.
 */
int quic_hash_table_init(struct quic_hash_table *ht, u32 size, bool sleepable)
{
	u32 i;

	if (!is_power_of_2(size))
		return -EINVAL;
	ht->hash = kmalloc_array(size, sizeof(*ht->hash), GFP_KERNEL);
	if (!ht->hash)
		return -ENOMEM;
	ht->size = size;
	ht->sleepable = sleepable;
	for (i = 0; i < size; i++) {
		INIT_HLIST_HEAD(&ht->hash[i].head);
		if (sleepable)
			mutex_init(&ht->hash[i].m_lock);
		else
			spin_lock_init(&ht->hash[i].s_lock);
	}
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_hash_table_init);

/**
 * quic_hash_table_destroy - free the buckets of one table
 * @ht: the table; every bucket must be empty. Safe on a table that was
 *      never initialised or is already destroyed.
 */
void quic_hash_table_destroy(struct quic_hash_table *ht)
{
	u32 i;

	if (!ht->hash)
		return;
	for (i = 0; i < ht->size; i++) {
		WARN_ON_ONCE(!hlist_empty(&ht->hash[i].head));
		if (ht->sleepable)
			mutex_destroy(&ht->hash[i].m_lock);
	}
	kfree(ht->hash);
	ht->hash = NULL;
	ht->size = 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_hash_table_destroy);

/**
 * quic_hash_tables_init - allocate the global lookup tables
 *
 * Return: 0 or -ENOMEM (nothing is left allocated then).
 */
int quic_hash_tables_init(void)
{
	int t, err;

	for (t = 0; t < QUIC_HT_MAX_TABLES; t++) {
		err = quic_hash_table_init(&quic_hash_tables[t], quic_hash_sizes[t],
					   t == QUIC_HT_UDP_SOCK);
		if (err) {
			quic_hash_tables_destroy();
			return err;
		}
	}
	return 0;
}

/**
 * quic_hash_tables_destroy - free the global lookup tables
 *
 * Every table must be empty: all sockets are gone when this runs.
 */
void quic_hash_tables_destroy(void)
{
	int t;

	for (t = 0; t < QUIC_HT_MAX_TABLES; t++)
		quic_hash_table_destroy(&quic_hash_tables[t]);
}

/**
 * quic_hash_table - one of the global tables
 * @id: which table
 *
 * Return: the table (its @hash is NULL before quic_hash_tables_init()).
 */
struct quic_hash_table *quic_hash_table(enum quic_hash_table_id id)
{
	return &quic_hash_tables[id];
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_hash_table);

static struct quic_hash_head *quic_bucket(enum quic_hash_table_id id, u32 hash)
{
	struct quic_hash_table *ht = &quic_hash_tables[id];

	return &ht->hash[hash & (ht->size - 1)];
}

/**
 * quic_addr_hash - hash an address and port within a network namespace
 * @net: namespace the address lives in
 * @a: IPv4 or IPv6 address with port
 *
 * Return: the hash.
 */
u32 quic_addr_hash(const struct net *net, const union quic_addr *a)
{
	u32 addr;

	if (a->sa.sa_family == AF_INET6)
		addr = jhash(&a->v6.sin6_addr, sizeof(a->v6.sin6_addr), 0);
	else
		addr = (__force u32)a->v4.sin_addr.s_addr;
	/* sin_port and sin6_port share their offset. */
	return jhash_2words(addr, (__force u32)a->v4.sin_port, net_hash_mix(net));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_addr_hash);

/**
 * quic_sock_head - bucket of a connected socket
 * @net: namespace
 * @s: local address
 * @d: peer address
 *
 * Return: the bucket.
 */
struct quic_hash_head *quic_sock_head(const struct net *net, const union quic_addr *s,
				      const union quic_addr *d)
{
	return quic_bucket(QUIC_HT_SOCK, quic_addr_hash(net, s) ^ quic_addr_hash(net, d));
}

/**
 * quic_listen_sock_head - bucket of a listening socket
 * @net: namespace
 * @port: local port, host order
 *
 * Return: the bucket.
 */
struct quic_hash_head *quic_listen_sock_head(const struct net *net, u16 port)
{
	return quic_bucket(QUIC_HT_LISTEN_SOCK, jhash_1word(port, net_hash_mix(net)));
}

/**
 * quic_udp_sock_head - bucket of a UDP tunnel socket
 * @net: namespace
 * @port: local port, host order
 *
 * Return: the bucket.
 */
struct quic_hash_head *quic_udp_sock_head(const struct net *net, u16 port)
{
	return quic_bucket(QUIC_HT_UDP_SOCK, jhash_1word(port, net_hash_mix(net)));
}

/**
 * quic_source_conn_id_head - bucket of a source connection ID
 * @net: namespace
 * @id: ID bytes
 * @len: ID length (all of it is hashed: no fixed ID length is assumed)
 *
 * Return: the bucket.
 */
struct quic_hash_head *quic_source_conn_id_head(const struct net *net, const u8 *id, u32 len)
{
	return quic_bucket(QUIC_HT_CONNECTION_ID, jhash(id, len, net_hash_mix(net)));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_source_conn_id_head);
