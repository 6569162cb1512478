// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the x86 counter assignment (perf_assign_events() in
 * pmu-schedule.c): fixed counters first, least weight first, pair events,
 * the general purpose cap, and that a set is placed whenever some
 * assignment exists (checked against brute force over every set of three
 * events on four counters).
 *
 * Pure logic: constraints are built here, no hardware is touched.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include "framework.h"

#define GP(n)		BIT_ULL(n)
#define FIXED(n)	BIT_ULL(INTEL_PMC_IDX_FIXED + (n))

static struct event_constraint mk(u64 mask, int flags)
{
	return (struct event_constraint){
		.idxmsk64 = mask,
		.weight = hweight64(mask),
		.flags = flags,
	};
}

/* Assign @n events with constraints @c; returns what perf_assign_events() did. */
static int assign_set(struct event_constraint *c, int n, int gpmax, int *assign)
{
	struct event_constraint *cp[X86_PMC_IDX_MAX];
	int i, wmin = X86_PMC_IDX_MAX, wmax = 0;

	for (i = 0; i < n; i++) {
		cp[i] = &c[i];
		wmin = min(wmin, c[i].weight);
		wmax = max(wmax, c[i].weight);
	}
	for (i = 0; i < n; i++)
		assign[i] = -1;
	return perf_assign_events(cp, n, wmin, wmax, gpmax, assign);
}

static void test_empty_set_fits(struct kunit *test)
{
	int assign[1];

	KUNIT_EXPECT_EQ(test, assign_set(NULL, 0, 4, assign), 0);
}

static void test_fixed_counter_preferred(struct kunit *test)
{
	struct event_constraint c[] = {
		mk(GP(0) | GP(1) | GP(2) | GP(3) | FIXED(1), 0),	/* cycles */
		mk(GP(0) | GP(1) | GP(2) | GP(3), 0),
	};
	int assign[2];

	KUNIT_ASSERT_EQ(test, assign_set(c, 2, 4, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[0], INTEL_PMC_IDX_FIXED + 1);
	KUNIT_EXPECT_EQ(test, assign[1], 0);
}

static void test_least_weight_first(struct kunit *test)
{
	/* listed first, but the one-counter event must get counter 0 */
	struct event_constraint c[] = {
		mk(GP(0) | GP(1), 0),
		mk(GP(0), 0),
	};
	int assign[2];

	KUNIT_ASSERT_EQ(test, assign_set(c, 2, 4, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[0], 1);
	KUNIT_EXPECT_EQ(test, assign[1], 0);
}

/*
 * Greedy in weight order puts {0} on 0 and {1,2} on 1, leaving {0,1}
 * nothing; 6.1's scheduler refuses this set (it only backtracks over
 * constraints flagged as overlapping).  It fits: 0, 2, 1.
 */
static void test_augmenting_path_places_what_greedy_cannot(struct kunit *test)
{
	struct event_constraint c[] = {
		mk(GP(0), 0),
		mk(GP(1) | GP(2), 0),
		mk(GP(0) | GP(1), 0),
	};
	int assign[3];

	KUNIT_ASSERT_EQ(test, assign_set(c, 3, 4, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[0], 0);
	KUNIT_EXPECT_EQ(test, assign[1], 2);
	KUNIT_EXPECT_EQ(test, assign[2], 1);
}

static void test_too_many_events_refused(struct kunit *test)
{
	struct event_constraint c[] = {
		mk(GP(0) | GP(1), 0),
		mk(GP(0) | GP(1), 0),
		mk(GP(0) | GP(1), 0),
	};
	int assign[3];

	KUNIT_EXPECT_NE(test, assign_set(c, 3, 4, assign), 0);
	/* a refused set leaves the caller's assignment alone */
	KUNIT_EXPECT_EQ(test, assign[0], -1);
}

static void test_pair_takes_two_counters(struct kunit *test)
{
	u64 even = GP(0) | GP(2) | GP(4);
	struct event_constraint c[] = {
		mk(even, PERF_X86_EVENT_PAIR),
		mk(even, PERF_X86_EVENT_PAIR),
		mk(even, PERF_X86_EVENT_PAIR),
		mk(GP(0) | GP(1) | GP(2) | GP(3) | GP(4) | GP(5), 0),
	};
	int assign[4];

	KUNIT_ASSERT_EQ(test, assign_set(c, 3, 6, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[0], 0);
	KUNIT_EXPECT_EQ(test, assign[1], 2);
	KUNIT_EXPECT_EQ(test, assign[2], 4);
	/* three pairs fill six counters: a fourth event has none left */
	KUNIT_EXPECT_NE(test, assign_set(c, 4, 6, assign), 0);
}

static void test_general_purpose_cap(struct kunit *test)
{
	u64 gp4 = GP(0) | GP(1) | GP(2) | GP(3);
	struct event_constraint c[] = {
		mk(gp4, 0),
		mk(gp4, 0),
		mk(gp4 | FIXED(0), 0),
	};
	int assign[3];

	/* two GP counters allowed: the third event takes the fixed one */
	KUNIT_ASSERT_EQ(test, assign_set(c, 3, 2, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[2], INTEL_PMC_IDX_FIXED);
	/* without it, the cap refuses a set four counters could hold */
	c[2] = mk(gp4, 0);
	KUNIT_EXPECT_NE(test, assign_set(c, 3, 2, assign), 0);
}

/* Is there any assignment of @n events (masks over 4 counters)? */
static bool fits_somehow(const u64 *mask, int n, int used, int i)
{
	int k;

	if (i == n)
		return true;
	for (k = 0; k < 4; k++)
		if ((mask[i] & BIT_ULL(k)) && !(used & BIT(k)) &&
		    fits_somehow(mask, n, used | BIT(k), i + 1))
			return true;
	return false;
}

static void test_places_every_set_that_fits(struct kunit *test)
{
	struct event_constraint c[3];
	int assign[3], bad = 0, set, i, left;
	bool fits;
	u64 m[3];

	/* every three non-empty masks over four counters: 15^3 sets */
	for (set = 0; set < 15 * 15 * 15; set++) {
		m[0] = set % 15 + 1;
		m[1] = set / 15 % 15 + 1;
		m[2] = set / 225 + 1;
		for (i = 0; i < 3; i++)
			c[i] = mk(m[i], 0);

		fits = fits_somehow(m, 3, 0, 0);
		left = assign_set(c, 3, 4, assign);
		if (fits != !left) {
			bad++;
			continue;
		}
		if (left)
			continue;
		/* a valid assignment: each in its mask, no counter twice */
		for (i = 0; i < 3; i++)
			if (!(m[i] & BIT_ULL(assign[i])))
				bad++;
		if (assign[0] == assign[1] || assign[0] == assign[2] ||
		    assign[1] == assign[2])
			bad++;
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
}

static struct kunit_case x86_schedule_cases[] = {
	KUNIT_CASE(test_empty_set_fits),
	KUNIT_CASE(test_fixed_counter_preferred),
	KUNIT_CASE(test_least_weight_first),
	KUNIT_CASE(test_augmenting_path_places_what_greedy_cannot),
	KUNIT_CASE(test_too_many_events_refused),
	KUNIT_CASE(test_pair_takes_two_counters),
	KUNIT_CASE(test_general_purpose_cap),
	KUNIT_CASE(test_places_every_set_that_fits),
	{}
};

static struct kunit_suite x86_schedule_suite = {
	.name = "x86_pmu_schedule",
	.test_cases = x86_schedule_cases,
};

kunit_test_suite(x86_schedule_suite);
