// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ISA 2.07 / 3.0 / 3.1 model layer on real event codes
 * of POWER8, POWER9, POWER10 and the generic-compat PMU: which codes are
 * accepted, the (mask, value) constraints and which groups fit, the MMCR
 * values of event sets (expected values worked out from the ISA field
 * positions), alternatives, reserved values, BHRB filters and SIER
 * decoding.  Nothing here touches the running CPU's PMU.
 *
 * Locking: none; every test works on its own local data.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <asm/reg.h>

#include "isa207.h"

/* The framework's acceptance rule (asm/perf_event_server.h) for a set. */
static bool set_fits(const struct isa207_model *m, const u64 *ev, int n,
		     u64 config1)
{
	unsigned long grp = m->l2l3_pmc4_group ? ISA207_CN_L2L3_PMC4 : 0;
	unsigned long mask = 0, value = 0, em, evv, sum;
	int i;

	for (i = 0; i < n; i++) {
		if (isa207_constraint(m, ev[i], config1, &em, &evv))
			return false;
		sum = (value | evv) + (value & evv & ISA207_ADD_FIELDS);
		if (((sum + ISA207_TEST_ADDER) ^ value) & mask & ~grp)
			return false;
		if (((sum + ISA207_TEST_ADDER) ^ evv) & em & ~grp)
			return false;
		value = sum;
		mask |= em;
	}
	return (value & mask & grp) == (mask & grp);
}

static bool accepted(const struct isa207_model *m, u64 ev)
{
	unsigned long mask, val;

	return !isa207_constraint(m, ev, 0, &mask, &val);
}

static void isa207_test_accept(struct kunit *test)
{
	/* POWER9 generic events and the fixed counters */
	KUNIT_EXPECT_TRUE(test, accepted(&power9_model, 0x1e));
	KUNIT_EXPECT_TRUE(test, accepted(&power9_model, 0x600f4));
	KUNIT_EXPECT_TRUE(test, accepted(&power9_model, 0x500fa));
	KUNIT_EXPECT_TRUE(test, accepted(&power9_model, 0x34340401e0ULL));
	/* PMC5/6 count nothing else; there is no PMC7 */
	KUNIT_EXPECT_FALSE(test, accepted(&power9_model, 0x500f4));
	KUNIT_EXPECT_FALSE(test, accepted(&power9_model, 0x600fa));
	KUNIT_EXPECT_FALSE(test, accepted(&power9_model, 0x7001e));
	/* bits outside the ISA 3.0 layout; bit 9 is POWER10's radix scope */
	KUNIT_EXPECT_FALSE(test, accepted(&power9_model, BIT_ULL(52) | 0x1e));
	KUNIT_EXPECT_FALSE(test, accepted(&power9_model, BIT_ULL(9) | 0x1e));
	KUNIT_EXPECT_TRUE(test, accepted(&power10_model, BIT_ULL(9) | 0x1e));
	KUNIT_EXPECT_TRUE(test, accepted(&power10_model, BIT_ULL(52) | 0x1e));
	/* POWER8: bit 10 and the SDAR mode bits 50-51 do not exist */
	KUNIT_EXPECT_FALSE(test, accepted(&power8_model, BIT_ULL(10) | 0x1e));
	KUNIT_EXPECT_FALSE(test, accepted(&power8_model, BIT_ULL(50) | 0x1e));
	KUNIT_EXPECT_TRUE(test, accepted(&power9_model, BIT_ULL(50) | 0x1e));
	/* POWER8 L2/L3 events need the zero MMCRC selector */
	KUNIT_EXPECT_TRUE(test, accepted(&power8_model, 0x17080));
	KUNIT_EXPECT_TRUE(test, accepted(&power8_model, 0x817080));
	KUNIT_EXPECT_FALSE(test, accepted(&power8_model, 0x117080));
	KUNIT_EXPECT_TRUE(test, accepted(&power9_model, 0x117080));
	/* EBB needs a PMC; BHRB only with EBB */
	KUNIT_EXPECT_FALSE(test, accepted(&power9_model, BIT_ULL(63) | 0x1e));
	KUNIT_EXPECT_TRUE(test, accepted(&power9_model, BIT_ULL(63) | 0x1001e));
	KUNIT_EXPECT_FALSE(test, accepted(&power9_model, BIT_ULL(62) | 0x1001e));
	KUNIT_EXPECT_TRUE(test, accepted(&power9_model,
					 BIT_ULL(63) | BIT_ULL(62) | 0x1001e));
	/* threshold compare: exponent set, mantissa top bits clear */
	KUNIT_EXPECT_FALSE(test, accepted(&power9_model,
					  (0x80ULL << 40) | (1 << 29) | 0x1e));
	KUNIT_EXPECT_TRUE(test, accepted(&power9_model,
					 (0xa0ULL << 40) | (1 << 29) | 0x1e));
	/* the generic-compat model follows the CPU's ISA layout */
	KUNIT_EXPECT_FALSE(test, accepted(&generic_compat_v300_model,
					  BIT_ULL(52) | 0x1e));
	KUNIT_EXPECT_TRUE(test, accepted(&generic_compat_v31_model,
					 BIT_ULL(52) | 0x1e));
}

static void isa207_test_constraint_values(struct kunit *test)
{
	unsigned long mask, val;

	/* PM_CYC on any PMC: counter count, L1 qualifier, EBB */
	KUNIT_ASSERT_EQ(test, isa207_constraint(&power9_model, 0x1e, 0,
						&mask, &val), 0);
	KUNIT_EXPECT_EQ(test, mask, 0x1c08000UL);
	KUNIT_EXPECT_EQ(test, val, 0x1000UL);

	/* PMC6 cycles: its own PMC field and EBB only */
	KUNIT_ASSERT_EQ(test, isa207_constraint(&power9_model, 0x600f4, 0,
						&mask, &val), 0);
	KUNIT_EXPECT_EQ(test, mask, 0x1000800UL);
	KUNIT_EXPECT_EQ(test, val, 0x400UL);

	/* POWER9 PM_L2_ST (unit 6, PMC1): bus selector 0x80, not on PMC4 */
	KUNIT_ASSERT_EQ(test, isa207_constraint(&power9_model, 0x16880, 0,
						&mask, &val), 0);
	KUNIT_EXPECT_EQ(test, mask, 0x7fc0000001008002UL);
	KUNIT_EXPECT_EQ(test, val, 0x4000000000001001UL);

	/* POWER10 threshold event: select/control and compare from config1 */
	KUNIT_ASSERT_EQ(test, isa207_constraint(&power10_model,
						(1ULL << 29) | 0x1001e, 1000,
						&mask, &val), 0);
	KUNIT_EXPECT_EQ(test, mask & GENMASK(53, 32), GENMASK(53, 32));
	KUNIT_EXPECT_EQ(test, val & GENMASK(53, 32),
			(0x1faUL << 43) | (1UL << 32));
}

static void isa207_test_groups(struct kunit *test)
{
	const u64 four[] = { 0x1e, 0x2, 0x100f8, 0x4000a };
	const u64 five[] = { 0x1e, 0x2, 0x100f8, 0x4000a, 0x300f0 };
	const u64 six[] = { 0x1e, 0x2, 0x100f8, 0x4000a, 0x500fa, 0x600f4 };
	const u64 same_pmc[] = { 0x100f8, 0x100fc };
	const u64 marked_diff[] = { 0x401e0 | (1 << 24), 0x101e0 | (2 << 24) };
	const u64 marked_same[] = { 0x401e0 | (1 << 24), 0x101e0 | (1 << 24) };
	const u64 l1q_diff[] = { 0x100f8, 0x1e | (1 << 20) };
	const u64 p9_l2l3_no_pmc4[] = { 0x16880, 0x26880 };
	const u64 p9_l2l3_pmc4[] = { 0x16880, 0x46880 };
	const u64 p9_l2l3_selector[] = { 0x16880, 0x46882 };
	const u64 thresh_diff[] = { (0x34ULL << 32) | (1 << 29) | 0x1e,
				    (0x35ULL << 32) | (1 << 29) | 0x2 };
	const u64 ebb_mixed[] = { BIT_ULL(63) | 0x1001e, 0x2 };
	const u64 p10_l2l3_diff[] = { 0x010000046080ULL, 0x020000016080ULL };

	KUNIT_EXPECT_TRUE(test, set_fits(&power9_model, four, 4, 0));
	KUNIT_EXPECT_FALSE(test, set_fits(&power9_model, five, 5, 0));
	KUNIT_EXPECT_TRUE(test, set_fits(&power9_model, six, 6, 0));
	KUNIT_EXPECT_FALSE(test, set_fits(&power9_model, same_pmc, 2, 0));
	KUNIT_EXPECT_FALSE(test, set_fits(&power9_model, marked_diff, 2, 0));
	KUNIT_EXPECT_TRUE(test, set_fits(&power9_model, marked_same, 2, 0));
	KUNIT_EXPECT_FALSE(test, set_fits(&power9_model, l1q_diff, 2, 0));
	/* POWER8 only qualifies codes with the L1 bit set */
	KUNIT_EXPECT_TRUE(test, set_fits(&power8_model, l1q_diff, 2, 0));
	/* POWER9 L2/L3 events: one of them must be on PMC4 */
	KUNIT_EXPECT_FALSE(test, set_fits(&power9_model, p9_l2l3_no_pmc4,
					  2, 0));
	KUNIT_EXPECT_TRUE(test, set_fits(&power9_model, p9_l2l3_pmc4, 2, 0));
	KUNIT_EXPECT_FALSE(test, set_fits(&power9_model, p9_l2l3_selector,
					  2, 0));
	KUNIT_EXPECT_FALSE(test, set_fits(&power9_model, thresh_diff, 2, 0));
	KUNIT_EXPECT_FALSE(test, set_fits(&power9_model, ebb_mixed, 2, 0));
	/* POWER10 unit 6 events share one L2/L3 select value */
	KUNIT_EXPECT_FALSE(test, set_fits(&power10_model, p10_l2l3_diff,
					  2, 0));
}

static struct perf_event *fake_event(struct kunit *test)
{
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
	return ev;
}

static void isa207_test_mmcr_p9(struct kunit *test)
{
	u64 ev[] = { 0x1e, 0x2, 0x600f4, 0x500fa };
	struct perf_event *pev[4];
	struct mmcr_regs r;
	unsigned int hwc[4];
	int i;

	for (i = 0; i < 4; i++)
		pev[i] = fake_event(test);
	pev[0]->attr.exclude_kernel = 1;
	pev[1]->attr.exclude_user = 1;

	KUNIT_ASSERT_EQ(test, isa207_mmcr(&power9_model, false, ev, 4, hwc,
					  &r, pev, power9_model.flags), 0);
	KUNIT_EXPECT_EQ(test, hwc[0], 0U);
	KUNIT_EXPECT_EQ(test, hwc[1], 1U);
	KUNIT_EXPECT_EQ(test, hwc[2], 5U);
	KUNIT_EXPECT_EQ(test, hwc[3], 4U);
	KUNIT_EXPECT_EQ(test, r.mmcr0, MMCR0_PMC1CE | MMCR0_PMCjCE);
	KUNIT_EXPECT_EQ(test, r.mmcr1, 0x1e020000UL);
	/* PMC1 FCS (IBM bit 0), PMC2 FCP (IBM bit 10) */
	KUNIT_EXPECT_EQ(test, r.mmcr2, 0x8020000000000000UL);
	/* SDAR mode 0b10 (D-cache miss) default */
	KUNIT_EXPECT_EQ(test, r.mmcra, 0x80000000000UL);
	KUNIT_EXPECT_EQ(test, r.mmcr3, 0UL);

	/* hypervisor mode: exclude_kernel freezes in HV state instead */
	KUNIT_ASSERT_EQ(test, isa207_mmcr(&power9_model, true, ev, 1, hwc,
					  &r, pev, power9_model.flags), 0);
	KUNIT_EXPECT_EQ(test, r.mmcr2, 1UL << 57);
	KUNIT_EXPECT_EQ(test, r.mmcr0, MMCR0_PMC1CE | MMCR0_FC56);
}

static void isa207_test_mmcr_marked(struct kunit *test)
{
	u64 ev[] = { 0x34340401e0ULL };		/* POWER9 mem-loads */
	struct perf_event *pev[1] = { fake_event(test) };
	struct mmcr_regs r;
	unsigned int hwc[1];

	KUNIT_ASSERT_EQ(test, isa207_mmcr(&power9_model, false, ev, 1, hwc,
					  &r, pev, power9_model.flags), 0);
	KUNIT_EXPECT_EQ(test, hwc[0], 3U);
	KUNIT_EXPECT_EQ(test, r.mmcr1, 0xe0UL);
	/* sample enable, eligibility 5, threshold 0x34 select 1, no SDAR */
	KUNIT_EXPECT_EQ(test, r.mmcra, 0x13451UL);
	KUNIT_EXPECT_EQ(test, r.mmcr0, MMCR0_PMCjCE | MMCR0_FC56);
}

static void isa207_test_mmcr_p8_vs_p9(struct kunit *test)
{
	/* PMC2, combine, L1 qualifier 1, threshold ctl 0x12 sel 2 cmp 0xa5 */
	u64 ev[] = { 0xa5124052081cULL };
	struct perf_event *pev[1] = { fake_event(test) };
	struct mmcr_regs r;
	unsigned int hwc[1];

	KUNIT_ASSERT_EQ(test, isa207_mmcr(&power8_model, false, ev, 1, hwc,
					  &r, pev, power8_model.flags), 0);
	KUNIT_EXPECT_EQ(test, r.mmcr1, 0x4004001c0000UL);
	KUNIT_EXPECT_EQ(test, r.mmcra, 0x4a500021200UL);

	KUNIT_ASSERT_EQ(test, isa207_mmcr(&power9_model, false, ev, 1, hwc,
					  &r, pev, power9_model.flags), 0);
	KUNIT_EXPECT_EQ(test, r.mmcr1, 0x4020001c0000UL);
	KUNIT_EXPECT_EQ(test, r.mmcra, 0x14a80000021200UL);
	KUNIT_EXPECT_EQ(test, hwc[0], 1U);

	/* POWER8 fabric match: threshold control goes to MMCR1 */
	ev[0] = (0x5aULL << 32) | 0x30056;
	KUNIT_ASSERT_EQ(test, isa207_mmcr(&power8_model, false, ev, 1, hwc,
					  &r, pev, power8_model.flags), 0);
	KUNIT_EXPECT_EQ(test, r.mmcr1, (0x5aUL << 36) | (0x56UL << 8));
	KUNIT_EXPECT_EQ(test, r.mmcra, 1UL << 42);
}

static void isa207_test_mmcr_p10(struct kunit *test)
{
	/* PM_DATA_FROM_L3 (PMC1, MMCR3 source), PM_L2_ST (PMC4), PM_CYC */
	u64 ev[] = { 0x01340000001c040ULL, 0x010000046080ULL, 0x600f4 };
	struct perf_event *pev[3];
	struct mmcr_regs r;
	unsigned int hwc[3];
	int i;

	for (i = 0; i < 3; i++)
		pev[i] = fake_event(test);

	KUNIT_ASSERT_EQ(test, isa207_mmcr(&power10_model, false, ev, 3, hwc,
					  &r, pev, power10_model.flags), 0);
	KUNIT_EXPECT_EQ(test, hwc[0], 0U);
	KUNIT_EXPECT_EQ(test, hwc[1], 3U);
	KUNIT_EXPECT_EQ(test, hwc[2], 5U);
	KUNIT_EXPECT_EQ(test, r.mmcr0, MMCR0_PMC1CE | MMCR0_PMCjCE |
			MMCR0_PMCCEXT | MMCR0_C56RUN);
	KUNIT_EXPECT_EQ(test, r.mmcr1, 0xc006000040000080UL);
	KUNIT_EXPECT_EQ(test, r.mmcr2, 0x8UL);
	KUNIT_EXPECT_EQ(test, r.mmcr3, 0x134000000000000UL);
	KUNIT_EXPECT_EQ(test, r.mmcra, 0x82000000000UL);

	/* a branch stack request turns the BHRB on; config1 threshold */
	ev[0] = (1ULL << 29) | 0x1001e;
	pev[0]->attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	pev[0]->attr.config1 = 1000;
	KUNIT_ASSERT_EQ(test, isa207_mmcr(&power10_model, false, ev, 1, hwc,
					  &r, pev, power10_model.flags), 0);
	KUNIT_EXPECT_EQ(test, r.mmcra, (0x1faUL << 45) | (1UL << 16) |
			(2UL << 42));
	KUNIT_EXPECT_EQ(test, r.mmcr0, MMCR0_PMC1CE | MMCR0_FC56 |
			MMCR0_PMCCEXT | MMCR0_C56RUN);

	/*
	 * Only a threshold event's config1 is its compare value: a sibling
	 * without threshold fields and a stray config1 leaves MMCRA alone.
	 */
	ev[1] = 0x600f4;
	pev[1]->attr.config1 = 0x3;
	KUNIT_ASSERT_EQ(test, isa207_mmcr(&power10_model, false, ev, 2, hwc,
					  &r, pev, power10_model.flags), 0);
	KUNIT_EXPECT_EQ(test, r.mmcra, (0x1faUL << 45) | (1UL << 16) |
			(2UL << 42));
	pev[1]->attr.config1 = 0;

	/*
	 * config1 of 2^18 or more: MMCRA gets the value the constraint
	 * checked (saturated at the largest compare), not config1's low
	 * 18 bits (2^18 + 1000 would program 1000).
	 */
	pev[0]->attr.config1 = (1ULL << 18) + 1000;
	KUNIT_ASSERT_EQ(test, isa207_mmcr(&power10_model, false, ev, 1, hwc,
					  &r, pev, power10_model.flags), 0);
	KUNIT_EXPECT_EQ(test, r.mmcra, (0x5ffUL << 45) | (1UL << 16) |
			(2UL << 42));
	pev[0]->attr.config1 = 1000;

	/* generic compat on ISA 3.1 ignores config1 */
	KUNIT_ASSERT_EQ(test, isa207_mmcr(&generic_compat_v31_model, false,
					  ev, 1, hwc, &r, pev,
					  generic_compat_v31_model.flags), 0);
	KUNIT_EXPECT_EQ(test, r.mmcra, (1UL << 16) | (2UL << 42));
}

static void isa207_test_disable_pmc(struct kunit *test)
{
	struct mmcr_regs r = { .mmcr1 = 0xf0001e020304UL };

	isa207_disable_pmc(1, &r);
	KUNIT_EXPECT_EQ(test, r.mmcr1, 0xf0001e000304UL);
	isa207_disable_pmc(5, &r);
	KUNIT_EXPECT_EQ(test, r.mmcr1, 0xf0001e000304UL);
}

static void isa207_test_alternatives(struct kunit *test)
{
	u64 alt[MAX_EVENT_ALTERNATIVES];
	int n;

	n = isa207_alternatives(&power9_model, 0x200f4, 0, alt);
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, alt[1], 0x600f4ULL);

	n = isa207_alternatives(&power9_model, 0x200f4, PPMU_ONLY_COUNT_RUN,
				alt);
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, alt[2], 0x1eULL);

	n = isa207_alternatives(&power9_model, 0x1e, PPMU_ONLY_COUNT_RUN, alt);
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, alt[1], 0x600f4ULL);

	n = isa207_alternatives(&power9_model, 0x1e, 0, alt);
	KUNIT_EXPECT_EQ(test, n, 1);

	n = isa207_alternatives(&power8_model, 0x4000a, 0, alt);
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, alt[1], 0x1e054ULL);

	n = isa207_alternatives(&power8_model, 0x301e2, 0, alt);
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, alt[1], 0x10134ULL);

	/* POWER10: PM_INST_CMPL_ALT and its run-latch twin coincide */
	n = isa207_alternatives(&power10_model, 0x2, PPMU_ONLY_COUNT_RUN, alt);
	KUNIT_ASSERT_EQ(test, n, 4);
	KUNIT_EXPECT_EQ(test, alt[1], 0x500faULL);
	KUNIT_EXPECT_EQ(test, alt[2], 0x500faULL);
	KUNIT_EXPECT_EQ(test, alt[3], 0x2ULL);

	n = isa207_alternatives(&generic_compat_v300_model, 0x300f2, 0, alt);
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, alt[1], 0x200f2ULL);
}

struct config_case {
	const struct isa207_model *m;
	u64 config;
	int ret;
};

static void isa207_test_check_config(struct kunit *test)
{
	const struct config_case cases[] = {
		{ &power9_model, 0x34340401e0ULL, 0 },	/* mem-loads */
		{ &power9_model, 0xcULL << 24, -EINVAL },
		{ &power10_model, 0xcULL << 24, 0 },
		{ &power10_model, 0x10ULL << 24, -EINVAL },
		{ &power9_model, 0x10ULL << 24, 0 },
		{ &power9_model, 0x3ULL << 24, -EINVAL },
		{ &power9_model, 0x1aULL << 24, -EINVAL },
		{ &power9_model, 0xf0ULL << 32, -EINVAL },
		{ &power9_model, 0x0fULL << 32, -EINVAL },
		{ &power9_model, 0xeeULL << 32, 0 },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, isa207_check_config(cases[i].m,
							      cases[i].config),
				    cases[i].ret, "case %d", i);
	/* only POWER9 and POWER10 have the check at all */
	KUNIT_EXPECT_EQ(test, power8_model.reserved_samples, 0U);
	KUNIT_EXPECT_EQ(test, generic_compat_v300_model.reserved_samples, 0U);
}

static void isa207_test_cmp31(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, isa207_cmp31_encode(0), 0LL);
	KUNIT_EXPECT_EQ(test, isa207_cmp31_encode(200), 200LL);
	KUNIT_EXPECT_EQ(test, isa207_cmp31_encode(1000), 0x1faLL);
	KUNIT_EXPECT_EQ(test, isa207_cmp31_encode(261120), 0x5ffLL);
	KUNIT_EXPECT_EQ(test, isa207_cmp31_encode(1ULL << 40), 0x5ffLL);
}

struct bhrb_case {
	const struct isa207_model *m;
	u64 request;
	u64 filter;
};

static void isa207_test_bhrb(struct kunit *test)
{
	const struct bhrb_case cases[] = {
		{ &power9_model, PERF_SAMPLE_BRANCH_ANY, 0 },
		{ &power9_model, PERF_SAMPLE_BRANCH_ANY_CALL, 0x40000000 },
		{ &power9_model, PERF_SAMPLE_BRANCH_IND_CALL,
		  ISA207_BHRB_REJECT },
		{ &power8_model, PERF_SAMPLE_BRANCH_USER, ISA207_BHRB_REJECT },
		{ &power8_model, PERF_SAMPLE_BRANCH_ANY |
		  PERF_SAMPLE_BRANCH_CALL, 0 },
		{ &power10_model, PERF_SAMPLE_BRANCH_IND_CALL, 0x80000000 },
		{ &power10_model, PERF_SAMPLE_BRANCH_COND, 0xc0000000 },
		{ &power10_model, PERF_SAMPLE_BRANCH_ANY_CALL |
		  PERF_SAMPLE_BRANCH_CALL, ISA207_BHRB_REJECT },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, isa207_bhrb_filter(cases[i].m,
							     cases[i].request),
				    cases[i].filter, "case %d", i);
	KUNIT_EXPECT_EQ(test, generic_compat_v300_model.n_bhrb_rules, 0);
}

static void isa207_test_sier(struct kunit *test)
{
	union perf_sample_weight w = { .full = 0 };
	u64 sier_l2_load = (1ULL << 15) | (2ULL << 1);
	u64 l2 = PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L2) |
		 PERF_MEM_S(LVLNUM, L2) | PERF_MEM_S(SNOOP, HIT);

	KUNIT_EXPECT_EQ(test, isa207_data_src(&power9_model, sier_l2_load, 0),
			l2 | PERF_MEM_S(OP, LOAD));
	/* type 7 (larx/stcx) only decodes on ISA 3.1, by MMCRA eligibility */
	KUNIT_EXPECT_EQ(test, isa207_data_src(&power9_model,
					      (7ULL << 15) | (2ULL << 1),
					      5ULL << 4), 0ULL);
	KUNIT_EXPECT_EQ(test, isa207_data_src(&power10_model,
					      (7ULL << 15) | (2ULL << 1),
					      7ULL << 4),
			l2 | PERF_MEM_S(OP, STORE));
	/* not a load or store */
	KUNIT_EXPECT_EQ(test, isa207_data_src(&power9_model, 2ULL << 1, 0),
			0ULL);

	/* latency: mantissa 0x45 << 2 * exponent 3 */
	isa207_weight(&power9_model, &w.full, PERF_SAMPLE_WEIGHT,
		      (3ULL << 27) | (0x45ULL << 19), 1ULL << 15, 0);
	KUNIT_EXPECT_EQ(test, w.full, 0x45ULL << 6);
	isa207_weight(&power9_model, &w.full, PERF_SAMPLE_WEIGHT,
		      (3ULL << 27) | (0x45ULL << 19), 0, 0);
	KUNIT_EXPECT_EQ(test, w.full, 0ULL);
	isa207_weight(&power10_model, &w.full, PERF_SAMPLE_WEIGHT_STRUCT,
		      0xc5ULL << 19, 2ULL << 15,
		      (0x123ULL << 26) | (0x45ULL << 50));
	KUNIT_EXPECT_EQ(test, w.var1_dw, 0xc5U);
	KUNIT_EXPECT_EQ(test, w.var2_w, 0x123U);
	KUNIT_EXPECT_EQ(test, w.var3_w, 0x45U);
}

static void isa207_test_tables(struct kunit *test)
{
	/* POWER9 has no bus-cycles or ref-cycles; POWER10 no stall events */
	KUNIT_EXPECT_EQ(test, power9_model.n_generic,
			PERF_COUNT_HW_STALLED_CYCLES_BACKEND + 1);
	KUNIT_EXPECT_EQ(test, power9_model.generic_events[PERF_COUNT_HW_BUS_CYCLES],
			0);
	KUNIT_EXPECT_EQ(test, power10_model.n_generic,
			PERF_COUNT_HW_BRANCH_MISSES + 1);
	KUNIT_EXPECT_EQ(test, power8_model.max_alternatives, 3);
	KUNIT_EXPECT_EQ(test, power9_model.max_alternatives, 0);
	KUNIT_EXPECT_EQ(test, (*power9_model.cache_events)
			[PERF_COUNT_HW_CACHE_L1D][PERF_COUNT_HW_CACHE_OP_READ]
			[PERF_COUNT_HW_CACHE_RESULT_MISS], 0x2c04eULL);
	KUNIT_EXPECT_EQ(test, (*power9_model.cache_events)
			[PERF_COUNT_HW_CACHE_DTLB][PERF_COUNT_HW_CACHE_OP_WRITE]
			[PERF_COUNT_HW_CACHE_RESULT_MISS], ISA207_CACHE_NONSENSE);
}

static struct kunit_case isa207_cases[] = {
	KUNIT_CASE(isa207_test_accept),
	KUNIT_CASE(isa207_test_constraint_values),
	KUNIT_CASE(isa207_test_groups),
	KUNIT_CASE(isa207_test_mmcr_p9),
	KUNIT_CASE(isa207_test_mmcr_marked),
	KUNIT_CASE(isa207_test_mmcr_p8_vs_p9),
	KUNIT_CASE(isa207_test_mmcr_p10),
	KUNIT_CASE(isa207_test_disable_pmc),
	KUNIT_CASE(isa207_test_alternatives),
	KUNIT_CASE(isa207_test_check_config),
	KUNIT_CASE(isa207_test_cmp31),
	KUNIT_CASE(isa207_test_bhrb),
	KUNIT_CASE(isa207_test_sier),
	KUNIT_CASE(isa207_test_tables),
	{}
};

static struct kunit_suite isa207_suite = {
	.name = "powerpc_isa207",
	.test_cases = isa207_cases,
};

kunit_test_suite(isa207_suite);
