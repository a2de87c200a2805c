// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite quic_cong_bench: cost of processing one ACK in each
 * congestion control algorithm. Not part of the functional suites; run it
 * on its own, at native speed where possible:
 *
 *   ./kunit.py run --arch=um 'quic_cong_bench*'
 *
 * The number of simulated ACKs is the module parameter
 * quic_kunit.cong_bench_acks (default 10^6; pass it with
 * --kernel_args=quic_kunit.cong_bench_acks=N). The figures are printed;
 * only functional sanity is asserted, never time.
 */

#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>

#include "../cong.h"

static unsigned int cong_bench_acks = 1000000;
module_param(cong_bench_acks, uint, 0444);
MODULE_PARM_DESC(cong_bench_acks, "ACKs simulated per algorithm by quic_cong_bench");

#define BENCH_PKT	1200
#define BENCH_RTT	20000		/* microseconds */
#define BENCH_STEP	100		/* microseconds between ACKs */
#define BENCH_BDP	(200 * BENCH_PKT)	/* the path holds 200 packets */

struct cong_bench_result {
	u64 ns;
	u32 losses;
	u32 min_window;
	u32 max_window;
};

/*
 * A sender in steady state over a path that holds BENCH_BDP bytes with a
 * 20 ms RTT and one ACK every 100 us: each ACK carries an RTT sample and
 * acknowledges one packet, and one new packet is sent. When the window
 * exceeds the path's capacity a packet is declared lost, which gives the
 * usual saw-tooth through slow start, recovery and congestion avoidance.
 */
static void cong_bench_run(struct quic_cong *cong, u32 acks, struct cong_bench_result *res)
{
	u64 now = 10ULL * 1000 * 1000, start;
	u32 i, w;

	for (i = 0; i < BENCH_BDP / BENCH_PKT; i++)
		quic_cong_on_packet_sent(cong, now - BENCH_RTT, BENCH_PKT);

	start = ktime_get_ns();
	for (i = 0; i < acks; i++) {
		quic_cong_rtt_update(cong, now, now - BENCH_RTT, 0);
		if (quic_cong_window(cong) > BENCH_BDP) {
			quic_cong_on_packet_lost(cong, now, now - BENCH_RTT + 1, BENCH_PKT);
			res->losses++;
			quic_cong_on_packet_sent(cong, now, BENCH_PKT);
		}
		quic_cong_on_packet_acked(cong, now, now - BENCH_RTT, BENCH_PKT);
		quic_cong_on_packet_sent(cong, now, BENCH_PKT);

		w = quic_cong_window(cong);
		res->min_window = min(res->min_window, w);
		res->max_window = max(res->max_window, w);
		now += BENCH_STEP;
	}
	res->ns = ktime_get_ns() - start;
}

static void cong_bench_algo(struct kunit *test, u8 algo)
{
	struct cong_bench_result res = { .min_window = U32_MAX };
	struct quic_cong *cong;
	u32 acks = cong_bench_acks;

	if (!acks)
		kunit_skip(test, "cong_bench_acks is 0");

	cong = kunit_kzalloc(test, sizeof(*cong), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cong);
	quic_cong_init(cong);
	KUNIT_ASSERT_EQ(test, quic_cong_set_algo(cong, algo), 0);
	quic_cong_set_confirmed(cong);

	cong_bench_run(cong, acks, &res);

	kunit_info(test, "%s: %u ACKs in %llu ns: %llu ns/ACK, %u losses, window %u..%u\n",
		   cong->ops->name, acks, res.ns, div_u64(res.ns, acks), res.losses,
		   res.min_window, res.max_window);

	/* The window never left [kMinimumWindow, capacity + growth of one
	 * ACK], and the path's capacity was found: at least one reduction.
	 */
	KUNIT_EXPECT_GE(test, res.min_window, quic_cong_min_window(cong));
	KUNIT_EXPECT_LE(test, res.max_window, BENCH_BDP + 2 * BENCH_PKT);
	if (acks >= 10000)
		KUNIT_EXPECT_GT(test, res.losses, 0U);
	KUNIT_EXPECT_EQ(test, quic_cong_in_flight(cong), BENCH_BDP);
}

static void cong_bench_reno(struct kunit *test)
{
	cong_bench_algo(test, QUIC_CONG_ALG_RENO);
}

static void cong_bench_cubic(struct kunit *test)
{
	cong_bench_algo(test, QUIC_CONG_ALG_CUBIC);
}

static struct kunit_case cong_bench_cases[] = {
	KUNIT_CASE_SLOW(cong_bench_reno),
	KUNIT_CASE_SLOW(cong_bench_cubic),
	{}
};

static struct kunit_suite cong_bench_suite = {
	.name = "quic_cong_bench",
	.test_cases = cong_bench_cases,
};

kunit_test_suite(cong_bench_suite);
