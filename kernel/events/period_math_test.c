// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the frequency-mode period arithmetic (period_math.h): the
 * target period of a rate, and the filter that moves the period to it.
 *
 * Pure arithmetic on local values: no locking, no event, no PMU.
 */
#include <kunit/test.h>

#include "period_math.h"

static void target_is_count_per_wanted_overflow(struct kunit *test)
{
	/* 1e6 events in 1 ms at 4000 Hz: 1e9 events/s / 4000 */
	KUNIT_EXPECT_EQ(test, perf_freq_target_period(1000000, 1000000, 4000), 250000ULL);
	/* 30 events in 1 ms at 10 kHz: 3 */
	KUNIT_EXPECT_EQ(test, perf_freq_target_period(30, 1000000, 10000), 3ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_target_period(30, 0, 10000), 0ULL);
	/* large counts do not overflow the intermediate product */
	KUNIT_EXPECT_EQ(test, perf_freq_target_period(U64_MAX / 2, NSEC_PER_SEC, 1),
			U64_MAX / 2);
}

static void filter_moves_an_eighth_of_the_way(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_freq_filter(1000, 1800), 1100ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_filter(1800, 1000), 1700ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_filter(1000, 1000), 1000ULL);
}

static void filter_takes_small_steps_both_ways(struct kunit *test)
{
	/* 6.1's (step + 7) / 8 made both of these no step at all */
	KUNIT_EXPECT_EQ(test, perf_freq_filter(17, 3), 15ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_filter(4, 3), 3ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_filter(3, 4), 4ULL);
}

static void filter_never_reaches_zero(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_freq_filter(1, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_filter(2, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_filter(U64_MAX, 0), U64_MAX - U64_MAX / 8 - 1);
}

/* From any start, a steady rate brings the period to its target. */
static void filter_converges_on_the_target(struct kunit *test)
{
	static const u64 targets[] = { 1, 3, 7, 100, 250000 };
	static const u64 starts[] = { 1, 17, 1000, 10000000 };
	int t, s, i;

	for (t = 0; t < ARRAY_SIZE(targets); t++) {
		for (s = 0; s < ARRAY_SIZE(starts); s++) {
			u64 p = starts[s];

			for (i = 0; i < 200 && p != targets[t]; i++)
				p = perf_freq_filter(p, targets[t]);
			KUNIT_EXPECT_EQ_MSG(test, p, targets[t], "from %llu", starts[s]);
		}
	}
}

static struct kunit_case perf_period_math_cases[] = {
	KUNIT_CASE(target_is_count_per_wanted_overflow),
	KUNIT_CASE(filter_moves_an_eighth_of_the_way),
	KUNIT_CASE(filter_takes_small_steps_both_ways),
	KUNIT_CASE(filter_never_reaches_zero),
	KUNIT_CASE(filter_converges_on_the_target),
	{}
};

static struct kunit_suite perf_period_math_suite = {
	.name = "perf_period_math",
	.test_cases = perf_period_math_cases,
};

kunit_test_suite(perf_period_math_suite);

MODULE_LICENSE("GPL");
