// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Book3S branch-stack code that needs no BHRB: the
 * decoding of raw BHRB entries into branches (book3s_bhrb_decode(), with
 * the kernel's branches hidden as for an event that excludes the kernel
 * before ISA 3.1), and the rule that the branch-stack events of a set
 * share one filter (book3s_branch_filters_conflict()).  QEMU keeps a BHRB
 * for POWER10 only, which records no kernel branches, so the decoding of
 * a buffer that mixes both is only reachable here.
 *
 * Addresses are made up: user ones are not mapped in the test's kthread,
 * so the target of an I-form branch decodes as 0 (unreadable).
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include "book3s.h"

#define T		0x2ULL			/* BHRB_TARGET */
#define USER(a)		(0x10000000ULL + (a))
#define KERN(a)		(0xc000000000010000ULL + (a))

static void bhrb_test_plain(struct kunit *test)
{
	/* a target/branch pair, an I-form branch, the end */
	const u64 raw[] = { USER(0x100) | T, USER(0x40), USER(0x80), 0,
			    USER(0x200) };
	struct perf_branch_entry e[8];
	int n;

	n = book3s_bhrb_decode(raw, ARRAY_SIZE(raw), false, e, ARRAY_SIZE(e));
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, e[0].from, USER(0x40));
	KUNIT_EXPECT_EQ(test, e[0].to, USER(0x100));
	KUNIT_EXPECT_EQ(test, e[1].from, USER(0x80));
	KUNIT_EXPECT_EQ(test, e[1].to, 0ULL);

	/* a target at the very end has no branch entry: from 0 */
	n = book3s_bhrb_decode(raw, 1, false, e, ARRAY_SIZE(e));
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, e[0].from, 0ULL);
	KUNIT_EXPECT_EQ(test, e[0].to, USER(0x100));
}

/*
 * Hiding the kernel drops whole branches: a kernel target must not leave
 * its (user) branch entry to be read as an I-form branch of its own, and
 * a user target reached from the kernel must not pair with the kernel
 * address.  Only the plain user branch at the end remains.
 */
static void bhrb_test_hide_kernel(struct kunit *test)
{
	const u64 raw[] = { KERN(0x100) | T, USER(0x40),
			    USER(0x300) | T, KERN(0x80),
			    USER(0x500), 0 };
	struct perf_branch_entry e[8];
	int n, i;

	n = book3s_bhrb_decode(raw, ARRAY_SIZE(raw), true, e, ARRAY_SIZE(e));
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_FALSE(test, is_kernel_addr(e[i].from));
		KUNIT_EXPECT_FALSE(test, is_kernel_addr(e[i].to));
	}
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, e[0].from, USER(0x500));

	/* not hidden: both pairs and the branch */
	n = book3s_bhrb_decode(raw, ARRAY_SIZE(raw), false, e, ARRAY_SIZE(e));
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, e[0].from, USER(0x40));
	KUNIT_EXPECT_EQ(test, e[0].to, KERN(0x100));
	KUNIT_EXPECT_EQ(test, e[1].from, KERN(0x80));
	KUNIT_EXPECT_EQ(test, e[1].to, USER(0x300));
}

static void bhrb_test_room(struct kunit *test)
{
	const u64 raw[] = { USER(0x10), USER(0x20), USER(0x30) };
	struct perf_branch_entry e[2];

	KUNIT_EXPECT_EQ(test, book3s_bhrb_decode(raw, ARRAY_SIZE(raw), false,
						 e, ARRAY_SIZE(e)), 2);
}

static void bhrb_test_filters_conflict(struct kunit *test)
{
	struct perf_event *ev[3];
	int i;

	for (i = 0; i < 3; i++) {
		ev[i] = kunit_kzalloc(test, sizeof(*ev[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev[i]);
	}
	/* no branch stacks: nothing to share */
	KUNIT_EXPECT_FALSE(test, book3s_branch_filters_conflict(ev, 3));

	ev[0]->attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	ev[0]->hw.branch_reg.config = 1;
	ev[2]->attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	ev[2]->hw.branch_reg.config = 1;
	/* ev[1] asks for no branch stack: its filter field is not looked at */
	ev[1]->hw.branch_reg.config = 3;
	KUNIT_EXPECT_FALSE(test, book3s_branch_filters_conflict(ev, 3));

	ev[2]->hw.branch_reg.config = 0;
	KUNIT_EXPECT_TRUE(test, book3s_branch_filters_conflict(ev, 3));
	KUNIT_EXPECT_FALSE(test, book3s_branch_filters_conflict(ev, 2));
}

static struct kunit_case book3s_bhrb_cases[] = {
	KUNIT_CASE(bhrb_test_plain),
	KUNIT_CASE(bhrb_test_hide_kernel),
	KUNIT_CASE(bhrb_test_room),
	KUNIT_CASE(bhrb_test_filters_conflict),
	{}
};

static struct kunit_suite book3s_bhrb_suite = {
	.name = "powerpc_book3s_bhrb",
	.test_cases = book3s_bhrb_cases,
};

kunit_test_suite(book3s_bhrb_suite);
