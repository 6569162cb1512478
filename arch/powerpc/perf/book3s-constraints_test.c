// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Book3S constraint solver (book3s-constraints.c) on a
 * toy model whose constraints use each kind of field the interface
 * defines: a select field (a 4-bit "unit"), an add field (at most two
 * events of the "any PMC" class), a NAND field (classes X, Y, Z not all
 * three), and a group constraint (a set with "cache" events needs one of
 * them on PMC4).  The model's events are codes that spell their own
 * constraint, so every expectation below follows from the field rules.
 *
 * The memo of the sets that went onto an empty PMU (book3s-set-memo.c):
 * which sets are the same, and which it keeps.
 *
 * No hardware access; runs on any CPU.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include "book3s.h"

/* Toy event code: unit | class << 4 | flags << 8 | alternative unit << 12 */
#define TOY_UNIT(u)	((u64)(u))
#define TOY_ANY		BIT_ULL(8)	/* uses the add field */
#define TOY_X		BIT_ULL(9)
#define TOY_Y		(2ULL << 9)
#define TOY_Z		(4ULL << 9)
#define TOY_CACHE	BIT_ULL(12)	/* cache event, not on PMC4 */
#define TOY_CACHE4	(2ULL << 12)	/* cache event on PMC4 */
#define TOY_ALT(u)	((u64)(u) << 16)	/* may use unit u instead */
#define TOY_BAD		BIT_ULL(24)	/* get_constraint() refuses */

/* Fields in (mask, value). */
#define F_UNIT_MASK	0xfUL
#define F_ADD_SHIFT	8		/* 3 bits: at most 2 */
#define F_NAND_SHIFT	16		/* 4 bits: X, Y, Z */
#define F_GROUP_BIT	BIT(30)

static int toy_get_constraint(u64 code, unsigned long *mask,
			      unsigned long *value, u64 config1)
{
	unsigned long m = 0, v = 0;

	if (code & TOY_BAD)
		return -1;
	if (code & 0xf) {
		m |= F_UNIT_MASK;
		v |= code & 0xf;
	}
	if (code & TOY_ANY) {
		m |= 4UL << F_ADD_SHIFT;
		v |= 1UL << F_ADD_SHIFT;
	}
	if (code & (TOY_X | TOY_Y | TOY_Z)) {
		m |= 8UL << F_NAND_SHIFT;
		v |= ((code >> 9) & 7) << F_NAND_SHIFT;
	}
	if (code & (TOY_CACHE | TOY_CACHE4)) {
		m |= F_GROUP_BIT;
		if (code & TOY_CACHE4)
			v |= F_GROUP_BIT;
	}
	*mask = m;
	*value = v;
	return 0;
}

/* The code itself, then the same event on its alternative unit. */
static int toy_get_alternatives(u64 code, unsigned int flags, u64 alt[])
{
	u64 other = (code >> 16) & 0xf;

	alt[0] = code;
	if (!other)
		return 1;
	alt[1] = (code & ~0xfULL & ~TOY_ALT(0xf)) | other;
	return 2;
}

static struct power_pmu toy_pmu = {
	.name			= "toy",
	.n_counter		= 4,
	.add_fields		= 1UL << F_ADD_SHIFT,
	.test_adder		= (1UL << F_ADD_SHIFT) | (1UL << F_NAND_SHIFT),
	.get_constraint		= toy_get_constraint,
	.get_alternatives	= toy_get_alternatives,
	.group_constraint_mask	= F_GROUP_BIT,
	.group_constraint_val	= F_GROUP_BIT,
};

struct toy_ctx {
	struct book3s_fit fit;
	u64 code[MAX_HWEVENTS];
	unsigned int altflags[MAX_HWEVENTS];
	struct perf_event *event[MAX_HWEVENTS];
};

static int toy_fits(struct kunit *test, const u64 *codes, int n)
{
	struct toy_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	for (i = 0; i < n; i++)
		c->code[i] = codes[i];
	return book3s_fit_events(&toy_pmu, &c->fit, c->code, c->altflags,
				 c->event, n);
}

static void test_empty_set_fits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, toy_fits(test, NULL, 0), 0);
}

static void test_select_field(struct kunit *test)
{
	const u64 same[] = { TOY_UNIT(3), TOY_UNIT(3), TOY_UNIT(3) };
	const u64 differ[] = { TOY_UNIT(3), TOY_UNIT(5) };

	KUNIT_EXPECT_EQ(test, toy_fits(test, same, 3), 0);
	KUNIT_EXPECT_EQ(test, toy_fits(test, differ, 2), -1);
}

static void test_add_field_counts(struct kunit *test)
{
	const u64 three[] = { TOY_ANY, TOY_ANY, TOY_ANY };

	KUNIT_EXPECT_EQ(test, toy_fits(test, three, 1), 0);
	KUNIT_EXPECT_EQ(test, toy_fits(test, three, 2), 0);
	KUNIT_EXPECT_EQ(test, toy_fits(test, three, 3), -1);
}

static void test_nand_field(struct kunit *test)
{
	const u64 xy[] = { TOY_X, TOY_Y, TOY_X | TOY_UNIT(1) };
	const u64 xyz[] = { TOY_X, TOY_Y, TOY_Z };

	KUNIT_EXPECT_EQ(test, toy_fits(test, xy, 3), 0);
	KUNIT_EXPECT_EQ(test, toy_fits(test, xyz, 3), -1);
	KUNIT_EXPECT_EQ(test, toy_fits(test, xyz + 1, 2), 0);
}

static void test_group_constraint(struct kunit *test)
{
	const u64 none_on_pmc4[] = { TOY_CACHE, TOY_CACHE };
	const u64 one_on_pmc4[] = { TOY_CACHE, TOY_CACHE4, TOY_UNIT(2) };
	const u64 no_cache[] = { TOY_UNIT(2), TOY_ANY };

	KUNIT_EXPECT_EQ(test, toy_fits(test, none_on_pmc4, 2), -1);
	/* differing values in group bits are no conflict */
	KUNIT_EXPECT_EQ(test, toy_fits(test, one_on_pmc4, 3), 0);
	KUNIT_EXPECT_EQ(test, toy_fits(test, no_cache, 2), 0);
}

static void test_alternative_makes_it_fit(struct kunit *test)
{
	struct toy_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->code[0] = TOY_UNIT(2);
	c->code[1] = TOY_UNIT(1) | TOY_ALT(2);
	KUNIT_EXPECT_EQ(test, book3s_fit_events(&toy_pmu, &c->fit, c->code,
						c->altflags, c->event, 2), 0);
	KUNIT_EXPECT_EQ(test, c->code[0], TOY_UNIT(2));
	KUNIT_EXPECT_EQ(test, c->code[1], TOY_UNIT(2));
	KUNIT_EXPECT_EQ(test, c->fit.pick[1], 1);
}

/* The first event's requested code blocks the second: it must move. */
static void test_backtracks_to_earlier_event(struct kunit *test)
{
	struct toy_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->code[0] = TOY_UNIT(1) | TOY_ALT(2);
	c->code[1] = TOY_ANY | TOY_UNIT(2);
	c->code[2] = TOY_ANY;
	KUNIT_EXPECT_EQ(test, book3s_fit_events(&toy_pmu, &c->fit, c->code,
						c->altflags, c->event, 3), 0);
	KUNIT_EXPECT_EQ(test, c->fit.pick[0], 1);
	KUNIT_EXPECT_EQ(test, c->code[0], TOY_UNIT(2));
}

static void test_unfit_set_keeps_codes(struct kunit *test)
{
	struct toy_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->code[0] = TOY_UNIT(1) | TOY_ALT(2);
	c->code[1] = TOY_UNIT(3);
	KUNIT_EXPECT_EQ(test, book3s_fit_events(&toy_pmu, &c->fit, c->code,
						c->altflags, c->event, 2), -1);
	KUNIT_EXPECT_EQ(test, c->code[0], TOY_UNIT(1) | TOY_ALT(2));
}

static void test_refused_code_and_too_many(struct kunit *test)
{
	const u64 bad[] = { TOY_UNIT(1), TOY_BAD };
	const u64 five[] = { 0, 0, 0, 0, 0 };

	KUNIT_EXPECT_EQ(test, toy_fits(test, bad, 2), -1);
	KUNIT_EXPECT_EQ(test, toy_fits(test, five, 4), 0);
	KUNIT_EXPECT_EQ(test, toy_fits(test, five, 5), -1);
}

/*
 * An exhaustive search (8^6 combinations: small enough for an emulated
 * guest) fails cleanly, and finds the only solution, in the last corner.
 */
#define EXH_EVENTS	6

static void test_exhaustive_search_ends(struct kunit *test)
{
	struct book3s_fit *fit = kunit_kzalloc(test, sizeof(*fit), GFP_KERNEL);
	int i, j;

	KUNIT_ASSERT_NOT_NULL(test, fit);
	for (i = 0; i < EXH_EVENTS; i++) {
		fit->cand[i].n = MAX_EVENT_ALTERNATIVES;
		for (j = 0; j < MAX_EVENT_ALTERNATIVES; j++) {
			fit->cand[i].mask[j] = F_UNIT_MASK;
			/* the last event conflicts with every choice */
			fit->cand[i].value[j] = i == EXH_EVENTS - 1 ? 9 : 1;
		}
	}
	KUNIT_EXPECT_EQ(test, book3s_fit_solve(&toy_pmu, fit, EXH_EVENTS), -1);
	fit->cand[EXH_EVENTS - 1].value[MAX_EVENT_ALTERNATIVES - 1] = 1;
	KUNIT_EXPECT_EQ(test, book3s_fit_solve(&toy_pmu, fit, EXH_EVENTS), 0);
	for (i = 0; i < EXH_EVENTS - 1; i++)
		KUNIT_EXPECT_EQ(test, fit->pick[i], 0);
	KUNIT_EXPECT_EQ(test, fit->pick[EXH_EVENTS - 1],
			MAX_EVENT_ALTERNATIVES - 1);
}

static void test_excludes_before_isa207(struct kunit *test)
{
	struct perf_event *ev = kunit_kcalloc(test, 3, sizeof(*ev), GFP_KERNEL);
	struct perf_event *set[3];
	unsigned int flags[3] = { 0, 0, PPMU_LIMITED_PMC_OK };
	struct power_pmu old = toy_pmu, isa207 = toy_pmu;

	KUNIT_ASSERT_NOT_NULL(test, ev);
	old.flags = 0;
	isa207.flags = PPMU_ARCH_207S;
	set[0] = &ev[0];
	set[1] = &ev[1];
	set[2] = &ev[2];
	ev[0].attr.exclude_kernel = 1;
	ev[1].attr.exclude_kernel = 1;

	/* agreeing normal events: the limited one must go on PMC5/6 */
	KUNIT_EXPECT_FALSE(test, book3s_excludes_conflict(&old, set, flags, 3));
	KUNIT_EXPECT_TRUE(test, flags[2] & PPMU_LIMITED_PMC_REQD);

	ev[1].attr.exclude_kernel = 0;
	KUNIT_EXPECT_TRUE(test, book3s_excludes_conflict(&old, set, flags, 3));
	/* per-counter freeze bits (MMCR2): anything goes */
	KUNIT_EXPECT_FALSE(test, book3s_excludes_conflict(&isa207, set, flags,
							  3));
}

/* The memo of sets that went on at once (book3s-set-memo.c): what is a hit. */
static void test_memo_same_set_only(struct kunit *test)
{
	static struct book3s_memo memo;
	static struct perf_event ev[3];
	struct perf_event *set[2] = { &ev[0], &ev[1] };
	struct perf_event *other[2] = { &ev[0], &ev[2] };
	struct perf_event *swapped[2] = { &ev[1], &ev[0] };
	const u64 in[2] = { 0x10, 0x20 }, out[2] = { 0x11, 0x21 };
	struct book3s_memo_set *entry;
	u64 codes[2];

	ev[0].id = 100;
	ev[1].id = 101;
	ev[2].id = 102;

	/* zeroed: the empty set, which fits */
	KUNIT_EXPECT_NOT_NULL(test, book3s_memo_find(&memo, set, codes, 0));
	codes[0] = in[0];
	codes[1] = in[1];
	KUNIT_EXPECT_NULL(test, book3s_memo_find(&memo, set, codes, 2));

	entry = book3s_memo_save(&memo, set, in, out, 2);
	KUNIT_EXPECT_PTR_EQ(test, book3s_memo_find(&memo, set, codes, 2), entry);
	KUNIT_EXPECT_EQ(test, codes[0], out[0]);
	KUNIT_EXPECT_EQ(test, codes[1], out[1]);

	/* asked for other codes, other events, another order, fewer */
	KUNIT_EXPECT_NULL(test, book3s_memo_find(&memo, set, codes, 2));
	codes[0] = in[0];
	codes[1] = in[1];
	KUNIT_EXPECT_NULL(test, book3s_memo_find(&memo, other, codes, 2));
	KUNIT_EXPECT_NULL(test, book3s_memo_find(&memo, swapped, codes, 2));
	KUNIT_EXPECT_NULL(test, book3s_memo_find(&memo, set, codes, 1));
	KUNIT_EXPECT_EQ(test, codes[0], in[0]);

	/* a new event at the address of a freed one is another event */
	ev[1].id = 103;
	KUNIT_EXPECT_NULL(test, book3s_memo_find(&memo, set, codes, 2));
}

static void test_memo_mmcr_of_its_set(struct kunit *test)
{
	static struct book3s_memo memo;
	static struct perf_event ev[2];
	struct perf_event *set[2] = { &ev[0], &ev[1] };
	const u64 in[2] = { 0x10, 0x20 }, out[2] = { 0x11, 0x21 };
	struct mmcr_regs mmcr = { .mmcr1 = 0x1234, .mmcra = 0x5 }, got = {};
	unsigned int pmc_of[2] = { 3, 1 }, got_pmc[2] = {};
	struct book3s_memo_set *entry;

	ev[0].id = 200;
	ev[1].id = 201;
	entry = book3s_memo_save(&memo, set, in, out, 2);
	KUNIT_EXPECT_FALSE(test, book3s_memo_get_mmcr(entry, &got, got_pmc));

	book3s_memo_put_mmcr(entry, &mmcr, pmc_of);
	KUNIT_EXPECT_TRUE(test, book3s_memo_get_mmcr(entry, &got, got_pmc));
	KUNIT_EXPECT_EQ(test, got.mmcr1, mmcr.mmcr1);
	KUNIT_EXPECT_EQ(test, got.mmcra, mmcr.mmcra);
	KUNIT_EXPECT_EQ(test, got_pmc[0], 3U);
	KUNIT_EXPECT_EQ(test, got_pmc[1], 1U);

	/* checked again on other codes: same entry, MMCRs forgotten */
	KUNIT_EXPECT_PTR_EQ(test, book3s_memo_save(&memo, set, out, out, 2), entry);
	KUNIT_EXPECT_FALSE(test, book3s_memo_get_mmcr(entry, &got, got_pmc));
}

/* Tasks taking turns: each one's set stays until newer sets push it out. */
static void test_memo_keeps_a_few_sets(struct kunit *test)
{
	static struct book3s_memo memo;
	static struct perf_event ev[BOOK3S_MEMO_SETS + 1];
	struct perf_event *set[1];
	const u64 code = 0x42;
	u64 codes[1];
	int i;

	for (i = 0; i <= BOOK3S_MEMO_SETS; i++) {
		ev[i].id = 300 + i;
		set[0] = &ev[i];
		book3s_memo_save(&memo, set, &code, &code, 1);
		/* saved again (same events): no second entry */
		book3s_memo_save(&memo, set, &code, &code, 1);
	}
	/* the first was the oldest: gone; every later one is there */
	for (i = 0; i <= BOOK3S_MEMO_SETS; i++) {
		set[0] = &ev[i];
		codes[0] = code;
		KUNIT_EXPECT_EQ_MSG(test, !!book3s_memo_find(&memo, set, codes, 1), i > 0,
				    "set %d", i);
	}
}

static struct kunit_case book3s_constraint_cases[] = {
	KUNIT_CASE(test_empty_set_fits),
	KUNIT_CASE(test_select_field),
	KUNIT_CASE(test_add_field_counts),
	KUNIT_CASE(test_nand_field),
	KUNIT_CASE(test_group_constraint),
	KUNIT_CASE(test_alternative_makes_it_fit),
	KUNIT_CASE(test_backtracks_to_earlier_event),
	KUNIT_CASE(test_unfit_set_keeps_codes),
	KUNIT_CASE(test_refused_code_and_too_many),
	KUNIT_CASE(test_exhaustive_search_ends),
	KUNIT_CASE(test_excludes_before_isa207),
	KUNIT_CASE(test_memo_same_set_only),
	KUNIT_CASE(test_memo_mmcr_of_its_set),
	KUNIT_CASE(test_memo_keeps_a_few_sets),
	{}
};

static struct kunit_suite book3s_constraint_suite = {
	.name = "powerpc_book3s_constraints",
	.test_cases = book3s_constraint_cases,
};

kunit_test_suite(book3s_constraint_suite);
