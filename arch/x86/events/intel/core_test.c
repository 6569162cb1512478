// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Intel core driver's pure logic: the generic v5
 * fixed-counter constraints, fitting a constraint table to the counters
 * CPUID enumerates, the topdown metric arithmetic, the period limits of
 * the errata, and the PEBS-capable aliases of the cycles event.
 *
 * Events are configs built here on the stack; nothing is programmed and
 * the live tables are not touched.
 */
#include <kunit/test.h>
#include "core.h"

#define FIXED_BIT(i)	BIT_ULL(INTEL_PMC_IDX_FIXED + (i))

static void test_v5_constraints(struct kunit *test)
{
	struct event_constraint t[INTEL_PMC_MAX_FIXED + 1];
	static const u64 codes[] = { 0x00c0, 0x003c, 0x0300, 0x0400, 0x0500 };
	int i;

	intel_build_v5_constraints(t, ARRAY_SIZE(codes));
	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		KUNIT_EXPECT_EQ(test, t[i].code, codes[i]);
		KUNIT_EXPECT_EQ(test, t[i].idxmsk64, FIXED_BIT(i));
		KUNIT_EXPECT_EQ(test, t[i].cmask, (u64)FIXED_EVENT_FLAGS);
		KUNIT_EXPECT_EQ(test, t[i].weight, 1);
	}
	KUNIT_EXPECT_EQ(test, t[i].weight, -1);		/* the end */

	intel_build_v5_constraints(t, INTEL_PMC_MAX_FIXED);
	KUNIT_EXPECT_EQ(test, t[15].code, 0x1000ULL);
	KUNIT_EXPECT_EQ(test, t[16].weight, -1);
}

static void test_fit_constraints(struct kunit *test)
{
	struct event_constraint t[] = {
		FIXED_EVENT_CONSTRAINT(0x00c0, 0),
		FIXED_EVENT_CONSTRAINT(0x003c, 1),
		FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* pseudo encoding */
		FIXED_EVENT_CONSTRAINT(0x0400, 3),	/* slots */
		METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_RETIRING, 0),
		INTEL_EVENT_CONSTRAINT(0x48, 0x4),
		INTEL_EVENT_CONSTRAINT(0xa3, 0x30),	/* counters 4, 5 */
		EVENT_CONSTRAINT_END
	};
	/* 4 general counters; fixed 0 and 2 exist, 1 and 3 do not. */
	u64 ctrl = 0xf | FIXED_BIT(0) | FIXED_BIT(2);

	intel_fit_constraints(t, 4, 3, ctrl);

	/* A fixed event may also run on every general counter. */
	KUNIT_EXPECT_EQ(test, t[0].idxmsk64, 0xfULL | FIXED_BIT(0));
	KUNIT_EXPECT_EQ(test, t[0].weight, 5);
	/* Its fixed counter missing: the general counters only. */
	KUNIT_EXPECT_EQ(test, t[1].idxmsk64, 0xfULL);
	KUNIT_EXPECT_EQ(test, t[1].weight, 4);
	/* A pseudo encoding means nothing to a general counter. */
	KUNIT_EXPECT_EQ(test, t[2].idxmsk64, FIXED_BIT(2));
	KUNIT_EXPECT_EQ(test, t[2].weight, 1);
	/* No slots counter: slots and the metrics are gone. */
	KUNIT_EXPECT_EQ(test, t[3].weight, 0);
	KUNIT_EXPECT_EQ(test, t[4].weight, 0);
	/* General-counter constraints are left as they are... */
	KUNIT_EXPECT_EQ(test, t[5].idxmsk64, 0x4ULL);
	KUNIT_EXPECT_EQ(test, t[5].weight, 1);
	/* ... even naming counters beyond the ones that exist (as 6.1). */
	KUNIT_EXPECT_EQ(test, t[6].idxmsk64, 0x30ULL);
}

static void test_fit_keeps_slots_when_enumerated(struct kunit *test)
{
	struct event_constraint t[] = {
		FIXED_EVENT_CONSTRAINT(0x0400, 3),
		METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_BAD_SPEC, 1),
		EVENT_CONSTRAINT_END
	};
	u64 ctrl = 0xff | GENMASK_ULL(INTEL_PMC_IDX_FIXED + 3,
				      INTEL_PMC_IDX_FIXED);

	intel_fit_constraints(t, 8, 4, ctrl);
	KUNIT_EXPECT_EQ(test, t[0].idxmsk64, FIXED_BIT(3));
	KUNIT_EXPECT_EQ(test, t[0].weight, 1);
	KUNIT_EXPECT_EQ(test, t[1].idxmsk64,
			BIT_ULL(INTEL_PMC_IDX_METRIC_BASE + 1));
	KUNIT_EXPECT_EQ(test, t[1].weight, 1);
}

static void test_metric_slots(struct kunit *test)
{
	/* Bytes of IA32_PERF_METRICS: retiring 0x80, bad spec 0x7f, ... */
	u64 metrics = 0x000000ff007f80ULL;
	int base = INTEL_PMC_IDX_METRIC_BASE;

	KUNIT_EXPECT_EQ(test, intel_metric_slots(metrics, 255000, base), 128000ULL);
	KUNIT_EXPECT_EQ(test, intel_metric_slots(metrics, 255000, base + 1), 127000ULL);
	KUNIT_EXPECT_EQ(test, intel_metric_slots(metrics, 255000, base + 2), 0ULL);
	KUNIT_EXPECT_EQ(test, intel_metric_slots(metrics, 255000, base + 3), 255000ULL);
	/* No overflow for large slot counts. */
	KUNIT_EXPECT_EQ(test, intel_metric_slots(0xff, 1ULL << 62, base), 1ULL << 62);
}

/* One event at a time (the cases run in sequence): too big for the stack. */
static struct perf_event test_event;

static s64 limited(void (*limit)(struct perf_event *, s64 *), u64 config,
		   int precise, s64 left)
{
	memset(&test_event, 0, sizeof(test_event));
	test_event.hw.config = config;
	test_event.attr.precise_ip = precise;
	limit(&test_event, &left);
	return left;
}

#define INST_RETIRED_ALL	0x01c0ULL
#define CYCLES			0x003cULL

static void test_limit_period(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, limited(nhm_limit_period, CYCLES, 0, 1), 32);
	KUNIT_EXPECT_EQ(test, limited(nhm_limit_period, CYCLES, 0, 1000), 1000);

	/* HSW11: INST_RETIRED.ALL needs 128, everything else 32. */
	KUNIT_EXPECT_EQ(test, limited(hsw_limit_period, INST_RETIRED_ALL, 0, 100), 128);
	KUNIT_EXPECT_EQ(test, limited(hsw_limit_period, CYCLES, 0, 100), 100);
	KUNIT_EXPECT_EQ(test, limited(hsw_limit_period, CYCLES, 0, 5), 32);

	/* BDM11 + BDM55: at least 128, low six bits clear; others free. */
	KUNIT_EXPECT_EQ(test, limited(bdw_limit_period, INST_RETIRED_ALL, 0, 100), 128);
	KUNIT_EXPECT_EQ(test, limited(bdw_limit_period, INST_RETIRED_ALL, 0, 1000), 960);
	KUNIT_EXPECT_EQ(test, limited(bdw_limit_period, CYCLES, 0, 5), 5);

	/* Sapphire Rapids PDist: 128 for :ppp only. */
	KUNIT_EXPECT_EQ(test, limited(spr_limit_period, CYCLES, 3, 10), 128);
	KUNIT_EXPECT_EQ(test, limited(spr_limit_period, CYCLES, 2, 10), 10);
}

static u64 aliased(void (*alias)(struct perf_event *), u64 config, int precise)
{
	memset(&test_event, 0, sizeof(test_event));
	test_event.hw.config = config;
	test_event.attr.precise_ip = precise;
	alias(&test_event);
	return test_event.hw.config;
}

#define FLAGS	(ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_INT)
#define INV16	(ARCH_PERFMON_EVENTSEL_INV | (16ULL << 24))

static void test_pebs_aliases(struct kunit *test)
{
	/* Cycles become "fewer than 16 retired per cycle", flags kept. */
	KUNIT_EXPECT_EQ(test, aliased(intel_pebs_aliases_core2, CYCLES | FLAGS, 1),
			0x00c0 | INV16 | FLAGS);
	KUNIT_EXPECT_EQ(test, aliased(intel_pebs_aliases_snb, CYCLES | FLAGS, 1),
			0x01c2 | INV16 | FLAGS);
	KUNIT_EXPECT_EQ(test, aliased(intel_pebs_aliases_ivb, CYCLES, 2),
			0x01c2 | INV16);
	KUNIT_EXPECT_EQ(test, aliased(intel_pebs_aliases_ivb, CYCLES, 3),
			0x01c0 | INV16);
	KUNIT_EXPECT_EQ(test, aliased(intel_pebs_aliases_skl, CYCLES, 2),
			0x00c0 | INV16);
	KUNIT_EXPECT_EQ(test, aliased(intel_pebs_aliases_skl, CYCLES, 3),
			0x01c0 | INV16);
	/* Any other event, or cycles with a unit mask, is left alone. */
	KUNIT_EXPECT_EQ(test, aliased(intel_pebs_aliases_skl, 0x01c4ULL, 3), 0x01c4ULL);
	KUNIT_EXPECT_EQ(test, aliased(intel_pebs_aliases_core2, 0x013cULL, 1), 0x013cULL);
}

static struct kunit_case intel_core_cases[] = {
	KUNIT_CASE(test_v5_constraints),
	KUNIT_CASE(test_fit_constraints),
	KUNIT_CASE(test_fit_keeps_slots_when_enumerated),
	KUNIT_CASE(test_metric_slots),
	KUNIT_CASE(test_limit_period),
	KUNIT_CASE(test_pebs_aliases),
	{}
};

static struct kunit_suite intel_core_suite = {
	.name = "x86_intel_core",
	.test_cases = intel_core_cases,
};

kunit_test_suite(intel_core_suite);
