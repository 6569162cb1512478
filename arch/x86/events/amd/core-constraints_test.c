// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the AMD core driver's constraint tables
 * (core-constraints.c): Family 15h's counter masks by event class with
 * the BKDG's exceptions and unit-mask rules, and the northbridge counter
 * claims of a node (on a node table built here, with as many counters as
 * the booted PMU has).
 *
 * Pure logic: events are hw configs built here, nothing is programmed.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "core.h"

/* The counter mask Family 15h gives raw config @config (-1: none). */
static int f15h_mask(u64 config)
{
	static struct perf_event event;	/* the cases run one at a time */
	struct event_constraint *c;

	event.hw.config = config;
	c = amd_f15h_get_constraints(NULL, 0, &event);

	return c->weight ? (int)c->idxmsk64 : -1;
}

static void test_f15h_classes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, f15h_mask(0x010), 0x38);	/* FP */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x020), 0x3f);	/* LS */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x040), 0x3f);	/* DC */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x060), 0x07);	/* CU */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x080), 0x07);	/* IC/DE */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x0c0), 0x3f);	/* EX/LS */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x0d0), 0x07);	/* DE */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x0a0), -1);	/* no such class */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x0e0), -1);	/* northbridge: uncore */
}

static void test_f15h_exceptions(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, f15h_mask(0x003), 0x08);
	KUNIT_EXPECT_EQ(test, f15h_mask(0x02d), 0x08);
	KUNIT_EXPECT_EQ(test, f15h_mask(0x02e), 0x09);
	KUNIT_EXPECT_EQ(test, f15h_mask(0x043), 0x07);
	KUNIT_EXPECT_EQ(test, f15h_mask(0x08f), 0x01);
	KUNIT_EXPECT_EQ(test, f15h_mask(0x0dd), 0x3f);
	/* codes above 0xff: EventSelect[11:8] is config bits 35:32 */
	KUNIT_EXPECT_EQ(test, f15h_mask(BIT_ULL(32) | 0x87), 0x01);	/* 0x187 */
	KUNIT_EXPECT_EQ(test, f15h_mask(BIT_ULL(32) | 0xc0), 0x38);	/* 0x1c0 */
	KUNIT_EXPECT_EQ(test, f15h_mask(BIT_ULL(32) | 0xd6), 0x3f);	/* 0x1d6 */
}

static void test_f15h_unit_mask_rules(struct kunit *test)
{
	/* 0x000: counter 3 only when both unit mask nibbles are set */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x0100), 0x38);
	KUNIT_EXPECT_EQ(test, f15h_mask(0x1100), 0x08);
	/* 0x004: counter 3 with more than one unit mask bit */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x0104), 0x38);
	KUNIT_EXPECT_EQ(test, f15h_mask(0x0304), 0x08);
	/* 0x031: one unit mask bit at a time */
	KUNIT_EXPECT_EQ(test, f15h_mask(0x0131), 0x07);
	KUNIT_EXPECT_EQ(test, f15h_mask(0x0331), -1);
}

/* A cpu_hw_events with a node table of its own. */
static struct cpu_hw_events *node_cpuc(struct kunit *test)
{
	struct cpu_hw_events *cpuc = kunit_kzalloc(test, sizeof(*cpuc), GFP_KERNEL);
	struct amd_nb *nb = kunit_kzalloc(test, sizeof(*nb), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, cpuc);
	KUNIT_ASSERT_NOT_NULL(test, nb);
	for (i = 0; i < x86_pmu.num_counters; i++) {
		__set_bit(i, nb->event_constraints[i].idxmsk);
		nb->event_constraints[i].weight = 1;
	}
	cpuc->amd_nb = nb;
	return cpuc;
}

static void test_nb_events_claim_distinct_counters(struct kunit *test)
{
	int n = x86_pmu.num_counters, i;
	struct cpu_hw_events *cpuc;
	struct perf_event *ev;
	u64 seen = 0;

	if (n < 2 || n > 16)
		kunit_skip(test, "%d counters", n);
	cpuc = node_cpuc(test);
	ev = kunit_kcalloc(test, n + 1, sizeof(*ev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	for (i = 0; i <= n; i++) {
		ev[i].hw.config = 0xe0;		/* a northbridge event */
		ev[i].hw.idx = -1;
	}

	for (i = 0; i < n; i++) {
		struct event_constraint *c = amd_nb_get_constraints(cpuc, i, &ev[i]);

		KUNIT_ASSERT_EQ(test, c->weight, 1);
		KUNIT_EXPECT_EQ(test, seen & c->idxmsk64, 0ULL);
		seen |= c->idxmsk64;
		/* asking again keeps the claim */
		KUNIT_EXPECT_PTR_EQ(test, amd_nb_get_constraints(cpuc, i, &ev[i]), c);
	}
	/* the node's counters are all taken */
	KUNIT_EXPECT_PTR_EQ(test, amd_nb_get_constraints(cpuc, n, &ev[n]),
			    &emptyconstraint);

	/* one leaves: its counter is free for the next */
	amd_nb_put_constraints(cpuc, &ev[1]);
	KUNIT_EXPECT_EQ(test, amd_nb_get_constraints(cpuc, n, &ev[n])->weight, 1);

	/* an ordinary event is not constrained */
	ev[0].hw.config = 0xc0;
	KUNIT_EXPECT_PTR_EQ(test, amd_nb_get_constraints(cpuc, 0, &ev[0]),
			    &unconstrained);
}

static void test_nb_event_prefers_its_last_counter(struct kunit *test)
{
	int n = x86_pmu.num_counters;
	struct cpu_hw_events *cpuc;
	struct perf_event *ev;

	if (n < 3 || n > 16)
		kunit_skip(test, "%d counters", n);
	cpuc = node_cpuc(test);
	ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->hw.config = 0xe0;
	ev->hw.idx = 2;
	KUNIT_EXPECT_EQ(test, amd_nb_get_constraints(cpuc, 0, ev)->idxmsk64, BIT_ULL(2));
	amd_nb_put_constraints(cpuc, ev);
	KUNIT_EXPECT_NULL(test, cpuc->amd_nb->owners[2]);
}

static struct kunit_case amd_constraint_cases[] = {
	KUNIT_CASE(test_f15h_classes),
	KUNIT_CASE(test_f15h_exceptions),
	KUNIT_CASE(test_f15h_unit_mask_rules),
	KUNIT_CASE(test_nb_events_claim_distinct_counters),
	KUNIT_CASE(test_nb_event_prefers_its_last_counter),
	{}
};

static struct kunit_suite amd_constraint_suite = {
	.name = "x86_amd_constraints",
	.test_cases = amd_constraint_cases,
};

kunit_test_suite(amd_constraint_suite);
