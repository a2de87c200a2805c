// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_connid: connection ID sets (RFC 9000 Sections 5.1.1
 * and 5.1.2), NEW_CONNECTION_ID and RETIRE_CONNECTION_ID processing
 * (Sections 19.15 and 19.16), active_connection_id_limit (Section 18.2),
 * stateless reset tokens (Section 10.3) and the global table of source
 * IDs, looked up under RCU.
 *
 * Sockets are stand-ins: the sets only store the pointer. The global
 * table is the real one, created at module init; every set a case fills
 * is freed by a cleanup action, which takes its IDs out of the table even
 * when the case fails half-way.
 */

#include <kunit/test.h>
#include <linux/rcupdate.h>
#include <net/net_namespace.h>

#include "../connid.h"

/* Two "sockets": only their addresses matter. */
static u8 fake_socks[2];
#define SK1	((struct sock *)&fake_socks[0])
#define SK2	((struct sock *)&fake_socks[1])

static const u8 token_a[QUIC_CONN_ID_TOKEN_LEN] = { [0] = 0xaa, [15] = 0x01 };
static const u8 token_b[QUIC_CONN_ID_TOKEN_LEN] = { [0] = 0xbb, [15] = 0x02 };
static const u8 token_c[QUIC_CONN_ID_TOKEN_LEN] = { [0] = 0xcc, [15] = 0x03 };
static const u8 token_d[QUIC_CONN_ID_TOKEN_LEN] = { [0] = 0xdd, [15] = 0x04 };

KUNIT_DEFINE_ACTION_WRAPPER(conn_id_set_free_action, quic_conn_id_set_free,
			    struct quic_conn_id_set *);

static struct quic_conn_id_set *set_new(struct kunit *test, bool source, struct net *net,
					struct sock *sk, u8 limit)
{
	struct quic_transport_param p = { .active_connection_id_limit = limit };
	struct quic_conn_id_set *set;

	set = kunit_kzalloc(test, sizeof(*set), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, set);
	quic_conn_id_set_init(set, source, net, sk);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_id_set_free_action, set), 0);
	KUNIT_ASSERT_EQ(test, quic_conn_id_set_param(set, &p), 0);
	return set;
}

/* An ID of @len bytes: seed, seed + 1, ... */
static struct quic_conn_id mkid(u8 seed, u32 len)
{
	struct quic_conn_id id = { .len = len };
	u32 i;

	for (i = 0; i < len; i++)
		id.data[i] = seed + i;
	return id;
}

static int add(struct quic_conn_id_set *set, u8 seed, u32 len, u64 number, const u8 *token)
{
	struct quic_conn_id id = mkid(seed, len);

	return quic_conn_id_add(set, &id, number, token, GFP_KERNEL);
}

static int recv_new(struct quic_conn_id_set *set, u64 number, u64 prior_to, u8 seed,
		    const u8 *token)
{
	struct quic_conn_id id = mkid(seed, 8);

	return quic_conn_id_recv_new(set, number, prior_to, &id, token, GFP_KERNEL);
}

/* Under RCU, as on the receive path: the socket of an ID, or NULL. */
static struct sock *lookup_sk(struct net *net, u8 seed, u32 len)
{
	struct quic_conn_id id = mkid(seed, len);
	struct quic_source_conn_id *s;
	struct sock *sk = NULL;

	rcu_read_lock();
	s = quic_conn_id_lookup(net, id.data, id.len);
	if (s)
		sk = quic_conn_id_sk(s);
	rcu_read_unlock();
	return sk;
}

static int connid_test_init(struct kunit *test)
{
	/* quic_hash_tables_init() runs at module init, before the suites. */
	KUNIT_ASSERT_NOT_NULL_MSG(test, quic_hash_table(QUIC_HT_CONNECTION_ID)->hash,
				  "global hash tables not initialised");
	return 0;
}

static void connid_source_numbers_increase_by_one(struct kunit *test)
{
	struct quic_conn_id_set *set = set_new(test, true, &init_net, SK1, 4);

	/* RFC 9000 Section 5.1.1: 0 first, then each new one + 1. */
	KUNIT_EXPECT_EQ(test, add(set, 0x10, 8, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, add(set, 0x20, 8, 1, NULL), 0);
	KUNIT_EXPECT_EQ(test, add(set, 0x30, 8, 3, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, add(set, 0x30, 8, 1, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, add(set, 0x30, 8, 2, NULL), 0);
	/* The same ID twice, even under a new number, is refused. */
	KUNIT_EXPECT_EQ(test, add(set, 0x20, 8, 3, NULL), -EEXIST);

	KUNIT_EXPECT_EQ(test, set->count, 3U);
	KUNIT_EXPECT_EQ(test, set->next_number, 3ULL);
	KUNIT_ASSERT_NOT_NULL(test, quic_conn_id_active(set));
	KUNIT_EXPECT_EQ(test, quic_conn_id_active(set)->number, 0ULL);
	KUNIT_EXPECT_EQ(test, quic_conn_id_find(set, 2)->id.data[0], 0x30);
}

static void connid_source_limit_excludes_retiring(struct kunit *test)
{
	struct quic_conn_id_set *set = set_new(test, true, &init_net, SK1, 2);

	/* The peer stores 2 IDs (its active_connection_id_limit). */
	KUNIT_ASSERT_EQ(test, add(set, 0x10, 8, 0, NULL), 0);
	KUNIT_ASSERT_EQ(test, add(set, 0x20, 8, 1, NULL), 0);
	KUNIT_EXPECT_EQ(test, add(set, 0x30, 8, 2, NULL), -EDQUOT);

	/* Section 5.1.1: IDs sent with a Retire Prior To that covers the
	 * excess may exceed the limit temporarily.
	 */
	KUNIT_EXPECT_EQ(test, quic_conn_id_retire_prior(set, 1), 0);
	KUNIT_EXPECT_EQ(test, add(set, 0x30, 8, 2, NULL), 0);
	KUNIT_EXPECT_EQ(test, add(set, 0x40, 8, 3, NULL), -EDQUOT);
	KUNIT_EXPECT_EQ(test, set->count, 3U);
	/* Still valid until the peer retires it. */
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x10, 8), SK1);

	/* Retire Prior To cannot go past the next number to issue (3). */
	KUNIT_EXPECT_EQ(test, quic_conn_id_retire_prior(set, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_conn_id_retire_prior(set, 0), 0);
	KUNIT_EXPECT_EQ(test, set->retire_prior_to, 1ULL);
}

static void connid_peer_retires_source_ids(struct kunit *test)
{
	struct quic_conn_id_set *set = set_new(test, true, &init_net, SK1, 3);
	int err;

	KUNIT_ASSERT_EQ(test, add(set, 0x10, 8, 0, NULL), 0);
	KUNIT_ASSERT_EQ(test, add(set, 0x20, 8, 1, NULL), 0);
	KUNIT_ASSERT_EQ(test, add(set, 0x30, 8, 2, NULL), 0);

	KUNIT_EXPECT_EQ(test, quic_conn_id_recv_retire(set, 1), 1);
	KUNIT_EXPECT_NULL(test, quic_conn_id_find(set, 1));
	KUNIT_EXPECT_NULL(test, lookup_sk(&init_net, 0x20, 8));
	/* A repeated RETIRE_CONNECTION_ID is harmless. */
	KUNIT_EXPECT_EQ(test, quic_conn_id_recv_retire(set, 1), 0);

	/* Section 19.16: a number never sent is a PROTOCOL_VIOLATION. */
	err = quic_conn_id_recv_retire(set, 3);
	KUNIT_EXPECT_EQ(test, err, -EPROTO);
	KUNIT_EXPECT_EQ(test, quic_conn_id_transport_error(err),
			(u32)QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);

	/* Retiring the active ID makes the lowest one left active. */
	KUNIT_EXPECT_EQ(test, quic_conn_id_recv_retire(set, 0), 1);
	KUNIT_ASSERT_NOT_NULL(test, quic_conn_id_active(set));
	KUNIT_EXPECT_EQ(test, quic_conn_id_active(set)->number, 2ULL);
	KUNIT_EXPECT_EQ(test, set->count, 1U);
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x30, 8), SK1);
	/* A replacement takes number 3. */
	KUNIT_EXPECT_EQ(test, add(set, 0x40, 8, 3, NULL), 0);
}

static void connid_new_ids_retire_prior_ones(struct kunit *test)
{
	struct quic_conn_id_set *set = set_new(test, false, NULL, NULL, 3);

	KUNIT_ASSERT_EQ(test, add(set, 0x10, 8, 0, token_a), 0);
	KUNIT_ASSERT_EQ(test, recv_new(set, 1, 0, 0x20, token_b), 0);
	KUNIT_ASSERT_EQ(test, recv_new(set, 2, 0, 0x30, token_c), 0);
	KUNIT_EXPECT_EQ(test, set->count, 3U);

	/* Retire Prior To 2: 0 and 1 go first, then 3 fits (Section 5.1.2). */
	KUNIT_EXPECT_EQ(test, recv_new(set, 3, 2, 0x40, token_d), 0);
	KUNIT_EXPECT_EQ(test, set->retire_prior_to, 2ULL);
	KUNIT_EXPECT_EQ(test, set->count, 2U);
	KUNIT_EXPECT_NULL(test, quic_conn_id_find(set, 0));
	KUNIT_EXPECT_NULL(test, quic_conn_id_find(set, 1));
	KUNIT_ASSERT_NOT_NULL(test, quic_conn_id_active(set));
	KUNIT_EXPECT_EQ(test, quic_conn_id_active(set)->number, 2ULL);

	/* A lower Retire Prior To later has no effect (Section 19.15). */
	KUNIT_EXPECT_EQ(test, recv_new(set, 4, 1, 0x50, token_a), 0);
	KUNIT_EXPECT_EQ(test, set->retire_prior_to, 2ULL);
	KUNIT_EXPECT_EQ(test, set->count, 3U);
}

static void connid_late_id_below_retire_prior_to_is_dropped(struct kunit *test)
{
	struct quic_conn_id_set *set = set_new(test, false, NULL, NULL, 2);

	KUNIT_ASSERT_EQ(test, add(set, 0x10, 8, 0, token_a), 0);
	/* 1 is delayed; 2 arrives asking to retire everything below 2. */
	KUNIT_ASSERT_EQ(test, recv_new(set, 2, 2, 0x30, token_c), 0);
	/* 1 is not added; 1 tells the caller to retire it (Section 19.15). */
	KUNIT_EXPECT_EQ(test, recv_new(set, 1, 0, 0x20, token_b), 1);
	KUNIT_EXPECT_NULL(test, quic_conn_id_find(set, 1));
	KUNIT_EXPECT_EQ(test, set->count, 1U);
}

static void connid_retire_prior_to_beyond_all_held(struct kunit *test)
{
	struct quic_conn_id_set *set = set_new(test, false, NULL, NULL, 2);

	KUNIT_ASSERT_EQ(test, add(set, 0x10, 8, 0, token_a), 0);
	KUNIT_ASSERT_EQ(test, recv_new(set, 1, 0, 0x20, token_b), 0);

	/* Retire Prior To 5 is above every number held: all go, and 5,
	 * the only one left, becomes active even with the set full before.
	 */
	KUNIT_EXPECT_EQ(test, recv_new(set, 5, 5, 0x60, token_c), 0);
	KUNIT_EXPECT_EQ(test, set->count, 1U);
	KUNIT_ASSERT_NOT_NULL(test, quic_conn_id_active(set));
	KUNIT_EXPECT_EQ(test, quic_conn_id_active(set)->number, 5ULL);
	KUNIT_EXPECT_EQ(test, set->retire_prior_to, 5ULL);
	KUNIT_EXPECT_FALSE(test, quic_conn_id_token_exists(set, token_a));
}

static void connid_retire_prior_to_above_number_is_frame_error(struct kunit *test)
{
	struct quic_conn_id_set *set = set_new(test, false, NULL, NULL, 2);
	struct quic_conn_id empty = {}, long_id = mkid(1, 20);
	int err;

	KUNIT_ASSERT_EQ(test, add(set, 0x10, 8, 0, token_a), 0);

	/* Section 19.15: Retire Prior To above Sequence Number. */
	err = recv_new(set, 3, 4, 0x40, token_d);
	KUNIT_EXPECT_EQ(test, err, -EBADMSG);
	KUNIT_EXPECT_EQ(test, quic_conn_id_transport_error(err),
			(u32)QUIC_TRANSPORT_ERROR_FRAME_ENCODING);
	/* Length below 1 or above 20 (a 21-byte ID cannot be built). */
	KUNIT_EXPECT_EQ(test, quic_conn_id_recv_new(set, 3, 0, &empty, token_d, GFP_KERNEL),
			-EBADMSG);
	long_id.len = QUIC_CONN_ID_MAX_LEN + 1;
	KUNIT_EXPECT_EQ(test, quic_conn_id_recv_new(set, 3, 0, &long_id, token_d, GFP_KERNEL),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, set->count, 1U);
	KUNIT_EXPECT_EQ(test, set->retire_prior_to, 0ULL);
}

static void connid_duplicate_sequence_numbers(struct kunit *test)
{
	struct quic_conn_id_set *set = set_new(test, false, NULL, NULL, 4);
	int err;

	KUNIT_ASSERT_EQ(test, add(set, 0x10, 8, 0, token_a), 0);
	KUNIT_ASSERT_EQ(test, recv_new(set, 1, 0, 0x20, token_b), 0);

	/* Section 19.15: the same frame again is no error. */
	KUNIT_EXPECT_EQ(test, recv_new(set, 1, 0, 0x20, token_b), 0);
	KUNIT_EXPECT_EQ(test, set->count, 2U);

	/* A number reused for another ID, or another token. */
	err = recv_new(set, 1, 0, 0x30, token_b);
	KUNIT_EXPECT_EQ(test, err, -EPROTO);
	KUNIT_EXPECT_EQ(test, quic_conn_id_transport_error(err),
			(u32)QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);
	KUNIT_EXPECT_EQ(test, recv_new(set, 1, 0, 0x20, token_c), -EPROTO);
	/* An ID repeated under another number. */
	KUNIT_EXPECT_EQ(test, recv_new(set, 2, 0, 0x20, token_c), -EPROTO);
	/* Section 10.3.2: one token for two IDs. */
	KUNIT_EXPECT_EQ(test, recv_new(set, 2, 0, 0x30, token_b), -EPROTO);
	/* The plain add refuses a number in use. */
	KUNIT_EXPECT_EQ(test, add(set, 0x40, 8, 1, token_d), -EEXIST);
	KUNIT_EXPECT_EQ(test, set->count, 2U);
}

static void connid_limit_exceeded_is_connection_id_limit(struct kunit *test)
{
	struct quic_conn_id_set *set = set_new(test, false, NULL, NULL, 2);
	int err;

	KUNIT_ASSERT_EQ(test, add(set, 0x10, 8, 0, token_a), 0);
	KUNIT_ASSERT_EQ(test, recv_new(set, 1, 0, 0x20, token_b), 0);

	/* Section 5.1.1: a third active ID exceeds our limit of 2. */
	err = recv_new(set, 2, 0, 0x30, token_c);
	KUNIT_EXPECT_EQ(test, err, -EDQUOT);
	KUNIT_EXPECT_EQ(test, quic_conn_id_transport_error(err),
			(u32)QUIC_TRANSPORT_ERROR_CONNECTION_ID_LIMIT);
	KUNIT_EXPECT_EQ(test, set->count, 2U);
	KUNIT_EXPECT_NULL(test, quic_conn_id_find(set, 2));
	KUNIT_EXPECT_EQ(test, set->retire_prior_to, 0ULL);

	/* Retiring one in the same frame makes room. */
	KUNIT_EXPECT_EQ(test, recv_new(set, 2, 1, 0x30, token_c), 0);
	KUNIT_EXPECT_EQ(test, set->count, 2U);
}

static void connid_zero_length_ids(struct kunit *test)
{
	struct quic_conn_id_set *src = set_new(test, true, &init_net, SK1, 2);
	struct quic_conn_id_set *dst = set_new(test, false, NULL, NULL, 2);
	struct quic_conn_id_entry *e;

	KUNIT_ASSERT_EQ(test, add(src, 0, 0, 0, NULL), 0);
	e = quic_conn_id_active(src);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->id.len, 0);
	/* Never in the global table: found by address instead. */
	KUNIT_EXPECT_TRUE(test, hlist_unhashed(&quic_source_conn_id(e)->node));
	KUNIT_EXPECT_NULL(test, lookup_sk(&init_net, 0, 0));

	/* Section 5.1.1: no new ID after a zero-length one. */
	KUNIT_EXPECT_EQ(test, add(src, 0x10, 8, 1, NULL), -EINVAL);
	/* Section 19.16: RETIRE_CONNECTION_ID to a zero-length ID. */
	KUNIT_EXPECT_EQ(test, quic_conn_id_recv_retire(src, 0), -EPROTO);

	/* Section 19.15: NEW_CONNECTION_ID while sending to a zero-length ID. */
	KUNIT_ASSERT_EQ(test, add(dst, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, recv_new(dst, 1, 0, 0x20, token_b), -EPROTO);
	KUNIT_EXPECT_EQ(test, dst->count, 1U);
}

static void connid_lookup_across_sockets_and_lengths(struct kunit *test)
{
	struct quic_conn_id_set *a = set_new(test, true, &init_net, SK1, 8);
	struct quic_conn_id_set *b = set_new(test, true, &init_net, SK2, 8);

	/* Socket 1: lengths 1, 8, 20 from seed 0x10; socket 2: lengths 4,
	 * 9 and 19 from the same seed (prefixes of socket 1's IDs) and a
	 * 20-byte one from seed 0x11.
	 */
	KUNIT_ASSERT_EQ(test, add(a, 0x10, 1, 0, NULL), 0);
	KUNIT_ASSERT_EQ(test, add(a, 0x10, 8, 1, NULL), 0);
	KUNIT_ASSERT_EQ(test, add(a, 0x10, 20, 2, NULL), 0);
	KUNIT_ASSERT_EQ(test, add(b, 0x10, 4, 0, NULL), 0);
	KUNIT_ASSERT_EQ(test, add(b, 0x10, 9, 1, NULL), 0);
	KUNIT_ASSERT_EQ(test, add(b, 0x10, 19, 2, NULL), 0);
	KUNIT_ASSERT_EQ(test, add(b, 0x11, 20, 3, NULL), 0);

	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x10, 1), SK1);
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x10, 8), SK1);
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x10, 20), SK1);
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x10, 4), SK2);
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x10, 9), SK2);
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x10, 19), SK2);
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x11, 20), SK2);
	/* Same bytes, a length nobody registered. */
	KUNIT_EXPECT_NULL(test, lookup_sk(&init_net, 0x10, 2));
	KUNIT_EXPECT_NULL(test, lookup_sk(&init_net, 0x10, 7));
	KUNIT_EXPECT_NULL(test, lookup_sk(&init_net, 0x12, 20));

	/* One ID cannot belong to two connections in a namespace. */
	KUNIT_EXPECT_EQ(test, add(b, 0x10, 8, 4, NULL), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, b->count, 4U);
}

static void connid_lookup_is_per_namespace(struct kunit *test)
{
	struct quic_conn_id_set *a, *b;
	struct net *other;

	/* A zeroed stand-in for a second namespace: only its address and
	 * its hash_mix (0) are used. Allocated first, so freed last.
	 */
	other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, other);
	a = set_new(test, true, &init_net, SK1, 2);
	b = set_new(test, true, other, SK2, 2);

	KUNIT_ASSERT_EQ(test, add(a, 0x70, 8, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, add(b, 0x70, 8, 0, NULL), 0);
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x70, 8), SK1);
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(other, 0x70, 8), SK2);
	quic_conn_id_set_free(a);
	KUNIT_EXPECT_NULL(test, lookup_sk(&init_net, 0x70, 8));
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(other, 0x70, 8), SK2);
}

static void connid_stateless_reset_tokens(struct kunit *test)
{
	static const u8 zero[QUIC_CONN_ID_TOKEN_LEN];
	struct quic_conn_id_set *dst = set_new(test, false, NULL, NULL, 4);
	struct quic_conn_id_set *src = set_new(test, true, &init_net, SK1, 4);

	/* Sequence 0 without a token yet (a client learns it from the
	 * server's stateless_reset_token parameter).
	 */
	KUNIT_ASSERT_EQ(test, add(dst, 0x10, 8, 0, NULL), 0);
	KUNIT_EXPECT_FALSE(test, quic_conn_id_token_exists(dst, zero));
	KUNIT_EXPECT_EQ(test, quic_conn_id_set_token(dst, 0, token_a), 0);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_token_exists(dst, token_a));
	KUNIT_EXPECT_EQ(test, quic_conn_id_set_token(dst, 7, token_a), -ENOENT);

	KUNIT_ASSERT_EQ(test, recv_new(dst, 1, 0, 0x20, token_b), 0);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_token_exists(dst, token_b));
	KUNIT_EXPECT_FALSE(test, quic_conn_id_token_exists(dst, token_c));
	/* Section 19.16: retiring an ID invalidates its token. */
	KUNIT_EXPECT_EQ(test, quic_conn_id_remove(dst, 1), 0);
	KUNIT_EXPECT_FALSE(test, quic_conn_id_token_exists(dst, token_b));
	KUNIT_EXPECT_EQ(test, quic_conn_id_remove(dst, 1), -ENOENT);

	/* Source sets keep no tokens. */
	KUNIT_ASSERT_EQ(test, add(src, 0x30, 8, 0, token_c), 0);
	KUNIT_EXPECT_FALSE(test, quic_conn_id_token_exists(src, token_c));
	KUNIT_EXPECT_EQ(test, quic_conn_id_set_token(src, 0, token_c), -EINVAL);
}

/* RFC 9000 Section 10.3.1: a token counts for Stateless Reset detection
 * only once its ID was used: made active, or marked by a user (a probe);
 * an ID made active when the one before it goes counts from then on.
 */
static void connid_reset_token_counts_only_for_used_ids(struct kunit *test)
{
	struct quic_conn_id_set *dst = set_new(test, false, NULL, NULL, 4);

	KUNIT_ASSERT_EQ(test, add(dst, 0x10, 8, 0, token_a), 0);
	KUNIT_ASSERT_EQ(test, recv_new(dst, 1, 0, 0x20, token_b), 0);
	KUNIT_ASSERT_EQ(test, recv_new(dst, 2, 0, 0x30, token_c), 0);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_reset_matches(dst, token_a));
	KUNIT_EXPECT_FALSE(test, quic_conn_id_reset_matches(dst, token_b));
	KUNIT_EXPECT_FALSE(test, quic_conn_id_reset_matches(dst, token_c));
	/* Duplicate detection still sees every token. */
	KUNIT_EXPECT_TRUE(test, quic_conn_id_token_exists(dst, token_b));

	quic_conn_id_mark_used(dst, quic_conn_id_find(dst, 2));
	KUNIT_EXPECT_TRUE(test, quic_conn_id_reset_matches(dst, token_c));
	KUNIT_EXPECT_EQ(test, quic_conn_id_remove(dst, 0), 0);
	KUNIT_EXPECT_EQ(test, quic_conn_id_active(dst)->number, 1ULL);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_reset_matches(dst, token_b));
	KUNIT_EXPECT_FALSE(test, quic_conn_id_reset_matches(dst, token_a));
}

static void connid_active_and_limit_param(struct kunit *test)
{
	struct quic_conn_id_set *set = set_new(test, false, NULL, NULL, 5);
	struct quic_transport_param p = {};

	KUNIT_ASSERT_EQ(test, add(set, 0x10, 8, 0, token_a), 0);
	KUNIT_ASSERT_EQ(test, recv_new(set, 1, 0, 0x20, token_b), 0);
	KUNIT_EXPECT_EQ(test, quic_conn_id_set_active(set, 1), 0);
	KUNIT_EXPECT_EQ(test, quic_conn_id_active(set)->number, 1ULL);
	KUNIT_EXPECT_EQ(test, quic_conn_id_set_active(set, 9), -ENOENT);
	KUNIT_EXPECT_EQ(test, quic_conn_id_active(set)->number, 1ULL);

	quic_conn_id_get_param(set, &p);
	KUNIT_EXPECT_EQ(test, p.active_connection_id_limit, 5);
	/* Section 18.2: values below 2 are invalid. */
	p.active_connection_id_limit = 1;
	KUNIT_EXPECT_EQ(test, quic_conn_id_set_param(set, &p), -EINVAL);
	p.active_connection_id_limit = 0;
	KUNIT_EXPECT_EQ(test, quic_conn_id_set_param(set, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, set->max_count, 5U);
}

static void connid_default_limit_is_two(struct kunit *test)
{
	struct quic_conn_id_set *set = kunit_kzalloc(test, sizeof(*set), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, set);
	/* Section 18.2: "If this transport parameter is absent, a default
	 * of 2 is assumed."
	 */
	quic_conn_id_set_init(set, false, NULL, NULL);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conn_id_set_free_action, set), 0);
	KUNIT_EXPECT_EQ(test, set->max_count, 2U);
	KUNIT_EXPECT_NULL(test, quic_conn_id_active(set));
	KUNIT_EXPECT_EQ(test, add(set, 0x10, 8, 0, token_a), 0);
	KUNIT_EXPECT_EQ(test, add(set, 0x20, 8, 1, token_b), 0);
	KUNIT_EXPECT_EQ(test, add(set, 0x30, 8, 2, token_c), -EDQUOT);
}

static void connid_teardown_unhashes_everything(struct kunit *test)
{
	struct quic_conn_id_set *a = set_new(test, true, &init_net, SK1, 4);
	struct quic_conn_id_set *b = set_new(test, true, &init_net, SK2, 4);
	int i;

	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_EQ(test, add(a, 0x80 + i, 5 + i, i, NULL), 0);
		KUNIT_ASSERT_EQ(test, add(b, 0x90 + i, 5 + i, i, NULL), 0);
	}

	quic_conn_id_set_free(a);
	KUNIT_EXPECT_EQ(test, a->count, 0U);
	KUNIT_EXPECT_NULL(test, quic_conn_id_active(a));
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_NULL(test, lookup_sk(&init_net, 0x80 + i, 5 + i));
		KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x90 + i, 5 + i), SK2);
	}

	/* The freed IDs may be registered again, by anyone. */
	KUNIT_EXPECT_EQ(test, add(b, 0x80, 5, 4, NULL), -EDQUOT);
	KUNIT_ASSERT_EQ(test, quic_conn_id_recv_retire(b, 0), 1);
	KUNIT_EXPECT_EQ(test, add(b, 0x80, 5, 4, NULL), 0);
	KUNIT_EXPECT_PTR_EQ(test, lookup_sk(&init_net, 0x80, 5), SK2);

	quic_conn_id_set_free(b);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_NULL(test, lookup_sk(&init_net, 0x90 + i, 5 + i));
	KUNIT_EXPECT_NULL(test, lookup_sk(&init_net, 0x80, 5));
	/* The cleanup actions free both sets again: a no-op. */
}

static void connid_generate_random_ids(struct kunit *test)
{
	struct quic_conn_id a, b;

	KUNIT_EXPECT_EQ(test, quic_conn_id_generate(&a, QUIC_CONN_ID_DEF_LEN), 0);
	KUNIT_EXPECT_EQ(test, a.len, QUIC_CONN_ID_DEF_LEN);
	KUNIT_EXPECT_EQ(test, quic_conn_id_generate(&b, QUIC_CONN_ID_MAX_LEN), 0);
	KUNIT_EXPECT_EQ(test, b.len, QUIC_CONN_ID_MAX_LEN);
	KUNIT_EXPECT_EQ(test, quic_conn_id_generate(&b, 0), 0);
	KUNIT_EXPECT_EQ(test, b.len, 0);
	KUNIT_EXPECT_EQ(test, quic_conn_id_generate(&b, QUIC_CONN_ID_MAX_LEN + 1), -EINVAL);
}

static void connid_errors_map_to_transport_codes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, quic_conn_id_transport_error(0), (u32)QUIC_TRANSPORT_ERROR_NONE);
	KUNIT_EXPECT_EQ(test, quic_conn_id_transport_error(1), (u32)QUIC_TRANSPORT_ERROR_NONE);
	KUNIT_EXPECT_EQ(test, quic_conn_id_transport_error(-EDQUOT),
			(u32)QUIC_TRANSPORT_ERROR_CONNECTION_ID_LIMIT);
	KUNIT_EXPECT_EQ(test, quic_conn_id_transport_error(-EPROTO),
			(u32)QUIC_TRANSPORT_ERROR_PROTOCOL_VIOLATION);
	KUNIT_EXPECT_EQ(test, quic_conn_id_transport_error(-EBADMSG),
			(u32)QUIC_TRANSPORT_ERROR_FRAME_ENCODING);
	KUNIT_EXPECT_EQ(test, quic_conn_id_transport_error(-ENOMEM),
			(u32)QUIC_TRANSPORT_ERROR_INTERNAL);
}

static struct kunit_case connid_cases[] = {
	KUNIT_CASE(connid_source_numbers_increase_by_one),
	KUNIT_CASE(connid_source_limit_excludes_retiring),
	KUNIT_CASE(connid_peer_retires_source_ids),
	KUNIT_CASE(connid_new_ids_retire_prior_ones),
	KUNIT_CASE(connid_late_id_below_retire_prior_to_is_dropped),
	KUNIT_CASE(connid_retire_prior_to_beyond_all_held),
	KUNIT_CASE(connid_retire_prior_to_above_number_is_frame_error),
	KUNIT_CASE(connid_duplicate_sequence_numbers),
	KUNIT_CASE(connid_limit_exceeded_is_connection_id_limit),
	KUNIT_CASE(connid_zero_length_ids),
	KUNIT_CASE(connid_lookup_across_sockets_and_lengths),
	KUNIT_CASE(connid_lookup_is_per_namespace),
	KUNIT_CASE(connid_stateless_reset_tokens),
	KUNIT_CASE(connid_reset_token_counts_only_for_used_ids),
	KUNIT_CASE(connid_active_and_limit_param),
	KUNIT_CASE(connid_default_limit_is_two),
	KUNIT_CASE(connid_teardown_unhashes_everything),
	KUNIT_CASE(connid_generate_random_ids),
	KUNIT_CASE(connid_errors_map_to_transport_codes),
	{}
};

static struct kunit_suite connid_suite = {
	.name = "quic_connid",
	.init = connid_test_init,
	.test_cases = connid_cases,
};

kunit_test_suite(connid_suite);
