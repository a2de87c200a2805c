// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC connection ID sets: sequence numbers, the active ID, Retire Prior
 * To, the active_connection_id_limit, stateless reset tokens (RFC 9000
 * Sections 5.1, 10.3, 19.15, 19.16) and the global table of source IDs
 * that maps a received packet to its socket.
 */

#include <crypto/utils.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "connid.h"

/**
 * quic_conn_id_set_init - set up an empty connection ID set
 * @set: the set
 * @source: true for the IDs we issue, false for those the peer issues
 * @net: network namespace the source IDs are registered in (unused for
 *	destination sets)
 * @sk: socket stored with every source ID (unused for destination sets)
 *
 * The limit starts at the active_connection_id_limit default, 2 (RFC
 * 9000 Section 18.2).
 */
void quic_conn_id_set_init(struct quic_conn_id_set *set, bool source, struct net *net,
			   struct sock *sk)
{
	memset(set, 0, sizeof(*set));
	INIT_LIST_HEAD(&set->head);
	set->source = source;
	set->net = net;
	set->sk = sk;
	set->max_count = QUIC_DEF_ACTIVE_CONN_ID_LIMIT;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_set_init);

static bool quic_source_conn_id_match(const struct quic_source_conn_id *s,
				      const struct net *net, const u8 *data, u32 len)
{
	return net_eq(read_pnet(&s->net), net) && s->common.id.len == len &&
	       !memcmp(s->common.id.data, data, len);
}

/* Register a source ID in the global table, refusing one that another
 * connection in the namespace already uses.
 */
static int quic_source_conn_id_hash(struct quic_source_conn_id *s)
{
	const struct quic_conn_id *id = &s->common.id;
	struct net *net = read_pnet(&s->net);
	struct quic_source_conn_id *tmp;
	struct quic_hash_head *head;
	int err = 0;

	head = quic_source_conn_id_head(net, id->data, id->len);
	spin_lock_bh(&head->s_lock);
	hlist_for_each_entry(tmp, &head->head, node) {
		if (quic_source_conn_id_match(tmp, net, id->data, id->len)) {
			err = -EADDRINUSE;
			goto out;
		}
	}
	hlist_add_head_rcu(&s->node, &head->head);
out:
	spin_unlock_bh(&head->s_lock);
	return err;
}

static void quic_source_conn_id_unhash(struct quic_source_conn_id *s)
{
	const struct quic_conn_id *id = &s->common.id;
	struct quic_hash_head *head;

	if (hlist_unhashed(&s->node))
		return;
	head = quic_source_conn_id_head(read_pnet(&s->net), id->data, id->len);
	spin_lock_bh(&head->s_lock);
	hlist_del_init_rcu(&s->node);
	spin_unlock_bh(&head->s_lock);
}

/**
 * quic_conn_id_mark_used - packets go to this destination ID
 * @set: its set (nothing happens for a source set)
 * @e: the entry, or NULL
 *
 * Only the stateless reset tokens of IDs we have sent to are checked
 * (RFC 9000 Section 10.3.1); the active ID is marked when it becomes
 * active, others (a probe's) by their user.
 */
void quic_conn_id_mark_used(struct quic_conn_id_set *set, struct quic_conn_id_entry *e)
{
	if (e && !set->source)
		quic_dest_conn_id(e)->used = 1;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_mark_used);

static void quic_conn_id_make_active(struct quic_conn_id_set *set, struct quic_conn_id_entry *e)
{
	set->active = e;
	quic_conn_id_mark_used(set, e);
}

/* Take an entry out of its set and free it. */
static void quic_conn_id_del(struct quic_conn_id_set *set, struct quic_conn_id_entry *e)
{
	struct quic_source_conn_id *s;

	list_del(&e->list);
	set->count--;
	if (set->active == e) {
		struct quic_conn_id_entry *next;

		next = list_first_entry_or_null(&set->head, struct quic_conn_id_entry, list);
		quic_conn_id_make_active(set, next);
	}

	if (!set->source) {
		kfree(quic_dest_conn_id(e));
		return;
	}
	s = quic_source_conn_id(e);
	quic_source_conn_id_unhash(s);
	kfree_rcu(s, rcu);
}

/**
 * quic_conn_id_set_free - remove and free every ID of a set
 * @set: an initialised set; it is left empty and may be reused
 *
 * Source IDs leave the global table at once and are freed after an RCU
 * grace period.
 */
void quic_conn_id_set_free(struct quic_conn_id_set *set)
{
	struct quic_conn_id_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, &set->head, list)
		quic_conn_id_del(set, e);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_set_free);

/**
 * quic_conn_id_set_param - take the active_connection_id_limit that applies to a set
 * @set: the set
 * @p: for a source set the peer's parameters (how many IDs it stores),
 *	for a destination set ours (how many we store)
 *
 * Return: 0, or -EINVAL when the limit is below 2 (RFC 9000 Section 18.2:
 * a TRANSPORT_PARAMETER_ERROR when received from the peer).
 */
int quic_conn_id_set_param(struct quic_conn_id_set *set, const struct quic_transport_param *p)
{
	if (p->active_connection_id_limit < QUIC_DEF_ACTIVE_CONN_ID_LIMIT)
		return -EINVAL;
	set->max_count = p->active_connection_id_limit;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_set_param);

/**
 * quic_conn_id_get_param - report the limit of a set as a transport parameter
 * @set: the set
 * @p: its active_connection_id_limit is filled
 */
void quic_conn_id_get_param(const struct quic_conn_id_set *set, struct quic_transport_param *p)
{
	p->active_connection_id_limit = min_t(u32, set->max_count, U8_MAX);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_get_param);

/**
 * quic_conn_id_generate - make a random connection ID
 * @id: filled with @len random bytes
 * @len: 0 to %QUIC_CONN_ID_MAX_LEN
 *
 * Random IDs carry nothing an observer could link (RFC 9000 Section 5.1).
 *
 * Return: 0, or -EINVAL when @len is too long.
 */
int quic_conn_id_generate(struct quic_conn_id *id, u32 len)
{
	if (len > QUIC_CONN_ID_MAX_LEN)
		return -EINVAL;
	get_random_bytes(id->data, len);
	id->len = len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_generate);

/**
 * quic_conn_id_find - look an ID of a set up by sequence number
 * @set: the set
 * @number: sequence number
 *
 * Return: the entry, or NULL.
 */
struct quic_conn_id_entry *quic_conn_id_find(const struct quic_conn_id_set *set, u64 number)
{
	struct quic_conn_id_entry *e;

	list_for_each_entry(e, &set->head, list) {
		if (e->number == number)
			return e;
		if (e->number > number)
			break;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_find);

static struct quic_conn_id_entry *quic_conn_id_find_id(const struct quic_conn_id_set *set,
						       const struct quic_conn_id *id)
{
	struct quic_conn_id_entry *e;

	list_for_each_entry(e, &set->head, list) {
		if (quic_conn_id_equal(&e->id, id))
			return e;
	}
	return NULL;
}

/* IDs that still count against the limit: not asked to be retired. */
static u32 quic_conn_id_active_count(const struct quic_conn_id_set *set, u64 prior_to)
{
	struct quic_conn_id_entry *e;
	u32 n = 0;

	list_for_each_entry(e, &set->head, list)
		n += e->number >= prior_to;
	return n;
}

/**
 * quic_conn_id_add - add a connection ID to a set
 * @set: the set
 * @id: the ID, 0 to 20 bytes
 * @number: its sequence number; in a source set the next one (they
 *	increase by one, RFC 9000 Section 5.1.1), in a destination set any
 *	unused one
 * @token: stateless reset token of a destination ID, or NULL when not
 *	known (yet); ignored for source IDs
 * @gfp: allocation flags
 *
 * The first ID added becomes the active one. A source ID is also
 * registered in the global table for quic_conn_id_lookup(), unless it is
 * zero-length: such a connection is found by its addresses instead. A set
 * holds either one zero-length ID or only non-zero-length ones (RFC 9000
 * Sections 5.1.1 and 19.15). IDs the set was asked to retire do not count
 * against @set->max_count.
 *
 * Return: 0; -EDQUOT when @set->max_count IDs are active already;
 * -EEXIST when @number or @id is in the set already; -EADDRINUSE when
 * another connection in the namespace registered @id; -EINVAL for a bad
 * length, number or zero-length mix; -ENOMEM.
 */
int quic_conn_id_add(struct quic_conn_id_set *set, const struct quic_conn_id *id, u64 number,
		     const u8 *token, gfp_t gfp)
{
	struct quic_conn_id_entry *e, *pos;
	struct quic_source_conn_id *s;
	struct quic_dest_conn_id *d;
	int err;

	if (id->len > QUIC_CONN_ID_MAX_LEN || number > QUIC_VARINT_MAX)
		return -EINVAL;
	if (set->active && (!set->active->id.len || !id->len))
		return -EINVAL;
	if (set->source && number != set->next_number)
		return -EINVAL;
	if (quic_conn_id_find(set, number) || quic_conn_id_find_id(set, id))
		return -EEXIST;
	if (quic_conn_id_active_count(set, set->retire_prior_to) >= set->max_count)
		return -EDQUOT;

	if (set->source) {
		s = kzalloc(sizeof(*s), gfp);
		if (!s)
			return -ENOMEM;
		e = &s->common;
		e->id = *id;
		write_pnet(&s->net, set->net);
		s->sk = set->sk;
		INIT_HLIST_NODE(&s->node);
		if (id->len) {
			err = quic_source_conn_id_hash(s);
			if (err) {
				kfree(s);
				return err;
			}
		}
	} else {
		d = kzalloc(sizeof(*d), gfp);
		if (!d)
			return -ENOMEM;
		e = &d->common;
		e->id = *id;
		if (token) {
			memcpy(d->token, token, QUIC_CONN_ID_TOKEN_LEN);
			d->has_token = 1;
		}
	}
	e->number = number;

	/* Keep ascending order: insert before the first larger number. */
	list_for_each_entry(pos, &set->head, list) {
		if (pos->number > number)
			break;
	}
	list_add_tail(&e->list, &pos->list);
	set->count++;
	if (!set->active)
		quic_conn_id_make_active(set, e);
	if (number >= set->next_number)
		set->next_number = number + 1;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_add);

/**
 * quic_conn_id_remove - retire and free one ID of a set
 * @set: the set
 * @number: sequence number of the ID
 *
 * For a destination set this is our own retirement (the caller sends
 * RETIRE_CONNECTION_ID); for a source set the peer's, see
 * quic_conn_id_recv_retire(). When the active ID goes, the lowest
 * numbered one left becomes active.
 *
 * Return: 0, or -ENOENT when @number is not in the set.
 */
int quic_conn_id_remove(struct quic_conn_id_set *set, u64 number)
{
	struct quic_conn_id_entry *e = quic_conn_id_find(set, number);

	if (!e)
		return -ENOENT;
	quic_conn_id_del(set, e);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_remove);

/**
 * quic_conn_id_retire_prior - ask the peer to retire our IDs below a number
 * @set: a source set
 * @prior_to: Retire Prior To of the next NEW_CONNECTION_ID we send
 *
 * The IDs stay valid until the peer retires them (RFC 9000 Section
 * 5.1.2), but no longer count against the peer's limit, so new ones can
 * be added in their place.
 *
 * Return: 0 (also when @prior_to does not increase the current value), or
 * -EINVAL for a destination set or a number beyond the next one to issue.
 */
int quic_conn_id_retire_prior(struct quic_conn_id_set *set, u64 prior_to)
{
	if (!set->source || prior_to > set->next_number)
		return -EINVAL;
	if (prior_to > set->retire_prior_to)
		set->retire_prior_to = prior_to;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_retire_prior);

/**
 * quic_conn_id_known - is this one of the set's connection IDs?
 * @set: the set
 * @data: the ID's bytes
 * @len: their number
 *
 * Return: true when an ID of @set is exactly @data.
 */
bool quic_conn_id_known(const struct quic_conn_id_set *set, const u8 *data, u32 len)
{
	struct quic_conn_id_entry *e;

	list_for_each_entry(e, &set->head, list)
		if (e->id.len == len && !memcmp(e->id.data, data, len))
			return true;
	return false;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_known);

/**
 * quic_conn_id_reset_matches - do these bytes end a Stateless Reset for us?
 * @set: a destination set
 * @token: the last %QUIC_CONN_ID_TOKEN_LEN bytes of a datagram
 *
 * RFC 9000 Section 10.3.1: only the tokens of IDs we have sent to count,
 * never those of IDs not used yet or retired (retired IDs have left the
 * set). Compared in constant time.
 *
 * Return: true when @token is the token of a used ID of @set.
 */
bool quic_conn_id_reset_matches(const struct quic_conn_id_set *set, const u8 *token)
{
	struct quic_conn_id_entry *e;
	struct quic_dest_conn_id *d;
	bool match = false;

	if (set->source)
		return false;
	list_for_each_entry(e, &set->head, list) {
		d = quic_dest_conn_id(e);
		if (d->has_token && d->used &&
		    !crypto_memneq(d->token, token, QUIC_CONN_ID_TOKEN_LEN))
			match = true;
	}
	return match;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_reset_matches);

/**
 * quic_conn_id_token_exists - is this a stateless reset token of a destination ID?
 * @set: a destination set
 * @token: the last %QUIC_CONN_ID_TOKEN_LEN bytes of a datagram
 *
 * Compared in constant time (RFC 9000 Section 10.3.1). Retired IDs have
 * left the set, so their tokens no longer match.
 *
 * Return: true when @token belongs to an ID of @set.
 */
bool quic_conn_id_token_exists(const struct quic_conn_id_set *set, const u8 *token)
{
	struct quic_conn_id_entry *e;
	struct quic_dest_conn_id *d;

	if (set->source)
		return false;
	list_for_each_entry(e, &set->head, list) {
		d = quic_dest_conn_id(e);
		if (d->has_token && !crypto_memneq(d->token, token, QUIC_CONN_ID_TOKEN_LEN))
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_token_exists);

/**
 * quic_conn_id_recv_new - apply a NEW_CONNECTION_ID frame to the destination set
 * @set: a destination set
 * @number: Sequence Number field
 * @prior_to: Retire Prior To field
 * @id: Connection ID field
 * @token: Stateless Reset Token field (%QUIC_CONN_ID_TOKEN_LEN bytes)
 * @gfp: allocation flags
 *
 * Follows RFC 9000 Sections 5.1.1, 5.1.2 and 19.15: a repeated frame is
 * accepted silently; IDs below the largest Retire Prior To received are
 * retired first, then the new ID is added unless it is below that value
 * itself; the IDs left must fit active_connection_id_limit. Nothing
 * changes when an error is returned (other than -ENOMEM).
 *
 * When the call raises @set->retire_prior_to from a to b, the caller sends
 * RETIRE_CONNECTION_ID for the IDs it held below b and for the numbers in
 * [a, b) it never received (the last ones of a huge jump only). A
 * NEW_CONNECTION_ID below b arriving later is not added: 1 tells the
 * caller to retire it (Section 19.15), which may repeat a retirement
 * already sent (harmless, and bounded by the caller).
 *
 * Return: 0, or 1 for an ID below Retire Prior To; -EBADMSG when
 * @prior_to exceeds @number, @number exceeds 2^62 - 1 or @id is not 1 to
 * 20 bytes (FRAME_ENCODING_ERROR); -EPROTO
 * when we send to a zero-length ID, or @number, @id or @token is in use
 * for something else (PROTOCOL_VIOLATION); -EDQUOT when too many IDs
 * would be active (CONNECTION_ID_LIMIT_ERROR); -EINVAL for a source set;
 * -ENOMEM.
 */
int quic_conn_id_recv_new(struct quic_conn_id_set *set, u64 number, u64 prior_to,
			  const struct quic_conn_id *id, const u8 *token, gfp_t gfp)
{
	struct quic_conn_id_entry *e, *tmp;
	struct quic_dest_conn_id *d;
	u64 retire;

	if (set->source)
		return -EINVAL;
	if (number > QUIC_VARINT_MAX || prior_to > number || !id->len ||
	    id->len > QUIC_CONN_ID_MAX_LEN)
		return -EBADMSG;
	if (set->active && !set->active->id.len)
		return -EPROTO;

	e = quic_conn_id_find(set, number);
	if (e) {
		d = quic_dest_conn_id(e);
		if (quic_conn_id_equal(&e->id, id) && d->has_token &&
		    !crypto_memneq(d->token, token, QUIC_CONN_ID_TOKEN_LEN))
			return 0;
		return -EPROTO;
	}
	if (quic_conn_id_find_id(set, id) || quic_conn_id_token_exists(set, token))
		return -EPROTO;

	retire = max(prior_to, set->retire_prior_to);
	if (number < retire)
		return 1;
	if (quic_conn_id_active_count(set, retire) + 1 > set->max_count)
		return -EDQUOT;

	list_for_each_entry_safe(e, tmp, &set->head, list) {
		if (e->number >= retire)
			break;
		quic_conn_id_del(set, e);
	}
	set->retire_prior_to = retire;
	return quic_conn_id_add(set, id, number, token, gfp);
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_recv_new);

/**
 * quic_conn_id_recv_retire - apply a RETIRE_CONNECTION_ID frame to the source set
 * @set: a source set
 * @number: Sequence Number field
 *
 * The caller checks that @number is not the ID the frame's packet was
 * sent to (RFC 9000 Section 19.16 lets that be a PROTOCOL_VIOLATION) and
 * issues a replacement when 1 is returned.
 *
 * Return: 1 when the ID was retired, 0 when it was retired already;
 * -EPROTO when @number was never issued or our ID is zero-length
 * (PROTOCOL_VIOLATION); -EINVAL for a destination set.
 */
int quic_conn_id_recv_retire(struct quic_conn_id_set *set, u64 number)
{
	struct quic_conn_id_entry *e;

	if (!set->source)
		return -EINVAL;
	if (set->active && !set->active->id.len)
		return -EPROTO;
	if (number >= set->next_number)
		return -EPROTO;

	e = quic_conn_id_find(set, number);
	if (!e)
		return 0;
	quic_conn_id_del(set, e);
	return 1;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_recv_retire);

/**
 * quic_conn_id_set_active - choose the ID in use
 * @set: the set
 * @number: sequence number of an ID in the set
 *
 * Return: 0, or -ENOENT.
 */
int quic_conn_id_set_active(struct quic_conn_id_set *set, u64 number)
{
	struct quic_conn_id_entry *e = quic_conn_id_find(set, number);

	if (!e)
		return -ENOENT;
	quic_conn_id_make_active(set, e);
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_set_active);

/**
 * quic_conn_id_set_token - attach a stateless reset token to a destination ID
 * @set: a destination set
 * @number: sequence number of the ID (0 for the server's stateless_reset_token
 *	transport parameter)
 * @token: %QUIC_CONN_ID_TOKEN_LEN bytes
 *
 * Return: 0, -ENOENT when @number is not in the set, -EINVAL for a source set.
 */
int quic_conn_id_set_token(struct quic_conn_id_set *set, u64 number, const u8 *token)
{
	struct quic_conn_id_entry *e;
	struct quic_dest_conn_id *d;

	if (set->source)
		return -EINVAL;
	e = quic_conn_id_find(set, number);
	if (!e)
		return -ENOENT;
	d = quic_dest_conn_id(e);
	memcpy(d->token, token, QUIC_CONN_ID_TOKEN_LEN);
	d->has_token = 1;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_set_token);

/**
 * quic_conn_id_lookup - find the source ID a received packet is addressed to
 * @net: network namespace the packet arrived in
 * @data: Destination Connection ID bytes
 * @len: their number, 1 to 20
 *
 * Runs under rcu_read_lock(), which the caller holds for as long as it
 * uses the entry; to keep the socket beyond that it takes a reference on
 * quic_conn_id_sk() inside the read-side section with
 * refcount_inc_not_zero(&sk->sk_refcnt), treating failure as "not found"
 * (the socket is closing; QUIC sockets are SOCK_RCU_FREE, so it is still
 * readable until the grace period ends). Zero-length IDs are
 * never in the table: a packet with an empty Destination Connection ID is
 * matched by its addresses instead.
 *
 * Return: the entry, or NULL when no connection in @net uses the ID.
 */
struct quic_source_conn_id *quic_conn_id_lookup(const struct net *net, const u8 *data, u32 len)
{
	struct quic_source_conn_id *s;
	struct quic_hash_head *head;

	if (!len || len > QUIC_CONN_ID_MAX_LEN)
		return NULL;
	head = quic_source_conn_id_head(net, data, len);
	hlist_for_each_entry_rcu(s, &head->head, node) {
		if (quic_source_conn_id_match(s, net, data, len))
			return s;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_lookup);

/**
 * quic_conn_id_transport_error - the transport error code for an error of this component
 * @err: a return value of a quic_conn_id_*() function
 *
 * Return: the QUIC_TRANSPORT_ERROR_* code to close the connection with
 * (QUIC_TRANSPORT_ERROR_NONE for 0 or a positive value); the mapping is
 * listed in connid.h.
 */
u32 quic_conn_id_transport_error(int err)
{
	if (err >= 0)
		return QUIC_TRANSPORT_ERROR_NONE;
	switch (err) {
	case -EDQUOT:
		return QUIC_TRANSPORT_ERROR_CONNECTION_ID_LIMIT;
	case -EPROTO:
		return QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION;
	case -EBADMSG:
		return QUIC_TRANSPORT_ERROR_FRAME_ENCODING;
	default:
		return QUIC_TRANSPORT_ERROR_INTERNAL;
	}
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_conn_id_transport_error);
