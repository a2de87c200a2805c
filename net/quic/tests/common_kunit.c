// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_common: transport parameter TLVs (RFC 9000 Section 18),
 * ALPN protocol name lists (RFC 7301 Section 3.1), connection IDs, owned
 * byte strings and the global hash tables.
 */

#include <kunit/test.h>
#include <net/net_namespace.h>

#include "../common.h"

static void param_put_then_get_round_trips(struct kunit *test)
{
	/* id 0x03 (max_udp_payload_size) = 1472: 03 02 45 c0 */
	static const u8 want[] = { 0x03, 0x02, 0x45, 0xc0 };
	u8 buf[16] = {}, *w = buf;
	u32 room = sizeof(buf), left;
	const u8 *r = buf;
	u64 id, val;

	KUNIT_ASSERT_EQ(test, quic_put_param(&w, &room, 0x03, 1472), 0);
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));

	left = w - buf;
	KUNIT_ASSERT_EQ(test, quic_get_var(&r, &left, &id), 0);
	KUNIT_ASSERT_EQ(test, quic_get_param(&r, &left, &val), 0);
	KUNIT_EXPECT_EQ(test, id, 0x03ULL);
	KUNIT_EXPECT_EQ(test, val, 1472ULL);
	KUNIT_EXPECT_EQ(test, left, 0U);
}

static void param_put_is_all_or_nothing(struct kunit *test)
{
	u8 buf[8] = {}, *w = buf;
	u32 room = 3;

	/* 1472 needs 1 + 1 + 2 bytes: nothing may be written into 3. */
	KUNIT_EXPECT_EQ(test, quic_put_param(&w, &room, 0x03, 1472), -ENOSPC);
	KUNIT_EXPECT_PTR_EQ(test, w, &buf[0]);
	KUNIT_EXPECT_EQ(test, room, 3U);
	room = sizeof(buf);
	KUNIT_EXPECT_EQ(test, quic_put_param(&w, &room, 0x03, 1ULL << 62), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_put_param(&w, &room, 1ULL << 62, 1), -EINVAL);
}

static void param_get_rejects_length_mismatch(struct kunit *test)
{
	/* Length 3 around a 2-byte varint: a trailing byte inside the value. */
	static const u8 trailing[] = { 0x03, 0x45, 0xc0, 0x00 };
	/* Length 1 around a 2-byte varint: the value runs past Length. */
	static const u8 overrun[] = { 0x01, 0x45, 0xc0 };
	/* Length 4 with only 2 bytes left. */
	static const u8 truncated[] = { 0x04, 0x45, 0xc0 };
	static const u8 empty[] = { 0x00 };
	const u8 *r;
	u32 left;
	u64 val;

	r = trailing;
	left = sizeof(trailing);
	KUNIT_EXPECT_EQ(test, quic_get_param(&r, &left, &val), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, r, &trailing[0]);
	r = overrun;
	left = sizeof(overrun);
	KUNIT_EXPECT_EQ(test, quic_get_param(&r, &left, &val), -EINVAL);
	r = truncated;
	left = sizeof(truncated);
	KUNIT_EXPECT_EQ(test, quic_get_param(&r, &left, &val), -EINVAL);
	KUNIT_EXPECT_EQ(test, left, (u32)sizeof(truncated));
	r = empty;
	left = sizeof(empty);
	KUNIT_EXPECT_EQ(test, quic_get_param(&r, &left, &val), -EINVAL);
}

static void alpn_from_string_builds_wire_list(struct kunit *test)
{
	static const u8 want[] = { 2, 'h', '3', 4, 's', 'm', 'b', 'd', 3, 'n', 'f', 's' };
	static const u8 str[] = "h3, smbd ,nfs";
	struct quic_data list = {};

	KUNIT_ASSERT_EQ(test, quic_alpn_from_string(&list, str, sizeof(str) - 1, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, list.len, (u32)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, list.data, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, quic_alpn_validate(list.data, list.len), 3);
	quic_data_free(&list);
}

static void alpn_to_string_round_trips(struct kunit *test)
{
	static const u8 str[] = "h3,smbd,nfs";
	struct quic_data list = {};
	u8 out[32];
	u32 len = sizeof(out);

	KUNIT_ASSERT_EQ(test, quic_alpn_from_string(&list, str, sizeof(str) - 1, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, quic_alpn_to_string(&list, out, &len), 0);
	KUNIT_EXPECT_EQ(test, len, (u32)sizeof(str) - 1);
	KUNIT_EXPECT_MEMEQ(test, out, str, sizeof(str) - 1);

	/* One byte short of the rendered string. */
	len = sizeof(str) - 2;
	KUNIT_EXPECT_EQ(test, quic_alpn_to_string(&list, out, &len), -ENOSPC);
	quic_data_free(&list);
}

static void alpn_rejects_empty_and_overlong_names(struct kunit *test)
{
	struct quic_data list = {};
	u8 *big;

	KUNIT_EXPECT_EQ(test, quic_alpn_from_string(&list, "", 0, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn_from_string(&list, "h3,,nfs", 7, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn_from_string(&list, "h3,", 3, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn_from_string(&list, ",h3", 3, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn_from_string(&list, " , ", 3, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_NULL(test, list.data);

	big = kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, 'a', 256);
	/* 255 characters is the longest protocol name, 256 is one too many. */
	KUNIT_EXPECT_EQ(test, quic_alpn_from_string(&list, big, 256, GFP_KERNEL), -EINVAL);
	KUNIT_ASSERT_EQ(test, quic_alpn_from_string(&list, big, 255, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, list.len, 256U);
	KUNIT_EXPECT_EQ(test, list.data[0], 255);
	quic_data_free(&list);
}

static void alpn_validate_rejects_malformed_lists(struct kunit *test)
{
	static const u8 zero_len[] = { 2, 'h', '3', 0 };
	static const u8 overrun[] = { 2, 'h', '3', 5, 'a' };
	static const u8 good[] = { 1, 'a', 1, 'b' };

	KUNIT_EXPECT_EQ(test, quic_alpn_validate(good, sizeof(good)), 2);
	KUNIT_EXPECT_EQ(test, quic_alpn_validate(good, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn_validate(zero_len, sizeof(zero_len)), -EINVAL);
	KUNIT_EXPECT_EQ(test, quic_alpn_validate(overrun, sizeof(overrun)), -EINVAL);
	/* A cut in the middle of an entry. */
	KUNIT_EXPECT_EQ(test, quic_alpn_validate(good, 3), -EINVAL);
}

static void alpn_has_matches_whole_names_only(struct kunit *test)
{
	static u8 raw[] = { 2, 'h', '3', 4, 's', 'm', 'b', 'd' };
	struct quic_data list;

	quic_data(&list, raw, sizeof(raw));
	KUNIT_EXPECT_TRUE(test, quic_alpn_has(&list, "h3", 2));
	KUNIT_EXPECT_TRUE(test, quic_alpn_has(&list, "smbd", 4));
	KUNIT_EXPECT_FALSE(test, quic_alpn_has(&list, "h", 1));
	KUNIT_EXPECT_FALSE(test, quic_alpn_has(&list, "smb", 3));
	KUNIT_EXPECT_FALSE(test, quic_alpn_has(&list, "h3smbd", 6));
	quic_data(&list, NULL, 0);
	KUNIT_EXPECT_FALSE(test, quic_alpn_has(&list, "h3", 2));
}

static void alpn_select_prefers_our_order(struct kunit *test)
{
	static u8 ours_raw[] = { 3, 'n', 'f', 's', 2, 'h', '3' };
	static u8 theirs_raw[] = { 2, 'h', '3', 3, 'n', 'f', 's' };
	static u8 other_raw[] = { 4, 's', 'm', 'b', 'd' };
	struct quic_data ours, theirs, other, sel;

	quic_data(&ours, ours_raw, sizeof(ours_raw));
	quic_data(&theirs, theirs_raw, sizeof(theirs_raw));
	quic_data(&other, other_raw, sizeof(other_raw));

	KUNIT_ASSERT_EQ(test, quic_alpn_select(&ours, &theirs, &sel), 0);
	KUNIT_EXPECT_EQ(test, sel.len, 3U);
	KUNIT_EXPECT_MEMEQ(test, sel.data, "nfs", 3);
	KUNIT_EXPECT_EQ(test, quic_alpn_select(&ours, &other, &sel), -ENOENT);
	quic_data(&other, NULL, 0);
	KUNIT_EXPECT_EQ(test, quic_alpn_select(&ours, &other, &sel), -EINVAL);
}

static void conn_id_accepts_0_to_20_bytes(struct kunit *test)
{
	u8 raw[21] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21 };
	struct quic_conn_id a = {}, b = {};

	KUNIT_EXPECT_EQ(test, quic_conn_id_set(&a, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, a.len, 0);
	KUNIT_EXPECT_EQ(test, quic_conn_id_set(&a, raw, 20), 0);
	KUNIT_EXPECT_EQ(test, a.len, 20);
	KUNIT_EXPECT_MEMEQ(test, a.data, raw, 20);
	KUNIT_EXPECT_EQ(test, quic_conn_id_set(&a, raw, 21), -EINVAL);
	KUNIT_EXPECT_EQ(test, a.len, 20);

	KUNIT_ASSERT_EQ(test, quic_conn_id_set(&b, raw, 4), 0);
	KUNIT_EXPECT_FALSE(test, quic_conn_id_equal(&a, &b));
	KUNIT_ASSERT_EQ(test, quic_conn_id_set(&a, raw, 4), 0);
	KUNIT_EXPECT_TRUE(test, quic_conn_id_equal(&a, &b));
}

static void data_dup_replaces_and_frees(struct kunit *test)
{
	struct quic_data d = {}, e = {};

	KUNIT_ASSERT_EQ(test, quic_data_dup(&d, "token", 5, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, d.len, 5U);
	KUNIT_EXPECT_MEMEQ(test, d.data, "token", 5);
	KUNIT_ASSERT_EQ(test, quic_data_dup(&d, "tk", 2, GFP_KERNEL), 0);
	KUNIT_EXPECT_MEMEQ(test, d.data, "tk", 2);
	quic_data(&e, "tk", 2);
	KUNIT_EXPECT_TRUE(test, quic_data_equal(&d, &e));
	KUNIT_ASSERT_EQ(test, quic_data_dup(&d, NULL, 0, GFP_KERNEL), 0);
	KUNIT_EXPECT_NULL(test, d.data);
	KUNIT_EXPECT_EQ(test, d.len, 0U);
}

static void hash_tables_are_ready_after_module_init(struct kunit *test)
{
	struct quic_hash_table *ht;
	u32 t;

	for (t = 0; t < QUIC_HT_MAX_TABLES; t++) {
		ht = quic_hash_table(t);
		KUNIT_ASSERT_NOT_NULL(test, ht->hash);
		KUNIT_EXPECT_TRUE(test, is_power_of_2(ht->size));
	}
}

static void hash_table_init_and_destroy(struct kunit *test)
{
	struct quic_hash_table ht = {};
	u32 i;

	KUNIT_EXPECT_EQ(test, quic_hash_table_init(&ht, 12, false), -EINVAL);
	KUNIT_EXPECT_NULL(test, ht.hash);

	KUNIT_ASSERT_EQ(test, quic_hash_table_init(&ht, 16, true), 0);
	KUNIT_ASSERT_NOT_NULL(test, ht.hash);
	KUNIT_EXPECT_EQ(test, ht.size, 16U);
	for (i = 0; i < ht.size; i++) {
		KUNIT_EXPECT_TRUE(test, hlist_empty(&ht.hash[i].head));
		/* The buckets' mutexes are usable. */
		mutex_lock(&ht.hash[i].m_lock);
		mutex_unlock(&ht.hash[i].m_lock);
	}
	quic_hash_table_destroy(&ht);
	KUNIT_EXPECT_NULL(test, ht.hash);
	KUNIT_EXPECT_EQ(test, ht.size, 0U);
	/* A second destroy is harmless. */
	quic_hash_table_destroy(&ht);

	KUNIT_ASSERT_EQ(test, quic_hash_table_init(&ht, 4, false), 0);
	spin_lock_bh(&ht.hash[3].s_lock);
	spin_unlock_bh(&ht.hash[3].s_lock);
	quic_hash_table_destroy(&ht);
}

static void hash_conn_id_uses_every_byte(struct kunit *test)
{
	struct quic_hash_table *ht = quic_hash_table(QUIC_HT_CONNECTION_ID);
	u32 i, seen = 0, differ = 0;
	struct quic_hash_head *first, *head;
	u8 id[20] = {};

	/* IDs that differ only past byte 8 must still spread over buckets. */
	first = quic_source_conn_id_head(&init_net, id, sizeof(id));
	for (i = 0; i < 64; i++) {
		id[19] = i;
		head = quic_source_conn_id_head(&init_net, id, sizeof(id));
		KUNIT_EXPECT_TRUE(test, head >= ht->hash && head < ht->hash + ht->size);
		seen += head != first;
	}
	KUNIT_EXPECT_GT(test, seen, 32U);

	/*
	 * Same leading bytes, different length: a different key. Any two keys
	 * may share one of the 256 buckets (the namespace's hash seed is random
	 * per boot), so count over many IDs rather than test a single pair.
	 */
	for (i = 0; i < 64; i++) {
		id[0] = i;
		differ += quic_source_conn_id_head(&init_net, id, 8) !=
			  quic_source_conn_id_head(&init_net, id, 9);
	}
	KUNIT_EXPECT_GT(test, differ, 32U);
}

static struct kunit_case common_cases[] = {
	KUNIT_CASE(param_put_then_get_round_trips),
	KUNIT_CASE(param_put_is_all_or_nothing),
	KUNIT_CASE(param_get_rejects_length_mismatch),
	KUNIT_CASE(alpn_from_string_builds_wire_list),
	KUNIT_CASE(alpn_to_string_round_trips),
	KUNIT_CASE(alpn_rejects_empty_and_overlong_names),
	KUNIT_CASE(alpn_validate_rejects_malformed_lists),
	KUNIT_CASE(alpn_has_matches_whole_names_only),
	KUNIT_CASE(alpn_select_prefers_our_order),
	KUNIT_CASE(conn_id_accepts_0_to_20_bytes),
	KUNIT_CASE(data_dup_replaces_and_frees),
	KUNIT_CASE(hash_tables_are_ready_after_module_init),
	KUNIT_CASE(hash_table_init_and_destroy),
	KUNIT_CASE(hash_conn_id_uses_every_byte),
	{}
};

static struct kunit_suite common_suite = {
	.name = "quic_common",
	.test_cases = common_cases,
};

kunit_test_suite(common_suite);
