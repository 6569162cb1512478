// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Intel core driver's constraint logic
 * (core-constraints.c) on a cpuc built here: the shared extra registers
 * (one value at a time, shared by equal values, released on put, a fake
 * cpuc that leaves the event alone, a branch-register conflict that gives
 * back the extra register), the HT erratum's narrowing by the sibling
 * thread's counter states, and the model wrappers (TSX checkpointing,
 * :ppp on counter 0 or fixed counter 0, TSX force abort, hybrid).
 *
 * The booted PMU's own tables answer the static lookups, so expectations
 * are stated against what intel_get_event_constraints() gives for the
 * same event.  Nothing is programmed; the one global touched
 * (intel_allow_tsx_force_abort, read by Skylake's wrapper only) is put
 * back before the case ends, at boot, before any event exists.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "core.h"

#define RSP_A	0x10001ULL
#define RSP_B	0x20002ULL

struct constraint_fixture {
	struct cpu_hw_events *cpuc;
	struct perf_event *ev[4];
};

static int constraints_init(struct kunit *test)
{
	struct constraint_fixture *f;
	int i;

	if (!x86_pmu.version || !x86_pmu.get_event_constraints)
		kunit_skip(test, "no Intel architectural PMU booted");

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->cpuc = kunit_kzalloc(test, sizeof(*f->cpuc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->cpuc);
	f->cpuc->shared_regs = kunit_kzalloc(test, sizeof(*f->cpuc->shared_regs),
					     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->cpuc->shared_regs);
	for (i = 0; i < EXTRA_REG_MAX; i++)
		raw_spin_lock_init(&f->cpuc->shared_regs->regs[i].lock);
	f->cpuc->constraint_list = kunit_kcalloc(test, X86_PMC_IDX_MAX,
						 sizeof(struct event_constraint),
						 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->cpuc->constraint_list);

	for (i = 0; i < ARRAY_SIZE(f->ev); i++) {
		struct perf_event *event;

		event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, event);
		/* a plain user-mode event, unit mask 1 of event 0xc2 */
		event->hw.config = 0x01c2 | ARCH_PERFMON_EVENTSEL_USR;
		event->hw.idx = -1;
		event->hw.extra_reg.idx = EXTRA_REG_NONE;
		event->hw.branch_reg.idx = EXTRA_REG_NONE;
		f->ev[i] = event;
	}
	test->priv = f;
	return 0;
}

static void wants_rsp0(struct perf_event *event, u64 value)
{
	event->hw.extra_reg.idx = EXTRA_REG_RSP_0;
	event->hw.extra_reg.reg = MSR_OFFCORE_RSP_0;
	event->hw.extra_reg.config = value;
}

static void wants_lbr_select(struct perf_event *event, u64 value)
{
	event->hw.branch_reg.idx = EXTRA_REG_LBR;
	event->hw.branch_reg.reg = MSR_LBR_SELECT;
	event->hw.branch_reg.config = value;
}

static struct event_constraint *get(struct cpu_hw_events *cpuc, struct perf_event *event)
{
	return intel_get_event_constraints(cpuc, 0, event);
}

static int rsp0_refs(struct cpu_hw_events *cpuc)
{
	return atomic_read(&cpuc->shared_regs->regs[EXTRA_REG_RSP_0].ref);
}

static void test_shared_reg_one_value_at_a_time(struct kunit *test)
{
	struct constraint_fixture *f = test->priv;
	struct cpu_hw_events *cpuc = f->cpuc;
	struct perf_event *a = f->ev[0], *b = f->ev[1], *c = f->ev[2];

	/* with a second OFFCORE_RSP register an event would move there */
	if (x86_pmu.flags & PMU_FL_HAS_RSP_1)
		kunit_skip(test, "the booted PMU has OFFCORE_RSP_1");

	wants_rsp0(a, RSP_A);
	wants_rsp0(b, RSP_A);
	wants_rsp0(c, RSP_B);

	KUNIT_EXPECT_PTR_NE(test, get(cpuc, a), &emptyconstraint);
	KUNIT_EXPECT_EQ(test, a->hw.extra_reg.alloc, 1);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 1);
	KUNIT_EXPECT_EQ(test, cpuc->shared_regs->regs[EXTRA_REG_RSP_0].config, RSP_A);

	/* asked again (incremental scheduling): no second reference */
	KUNIT_EXPECT_PTR_NE(test, get(cpuc, a), &emptyconstraint);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 1);

	/* the same value shares the register */
	KUNIT_EXPECT_PTR_NE(test, get(cpuc, b), &emptyconstraint);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 2);

	/* another value gets no counter, and holds nothing */
	KUNIT_EXPECT_PTR_EQ(test, get(cpuc, c), &emptyconstraint);
	KUNIT_EXPECT_EQ(test, c->hw.extra_reg.alloc, 0);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 2);

	intel_put_event_constraints(cpuc, a);
	KUNIT_EXPECT_EQ(test, a->hw.extra_reg.alloc, 0);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 1);
	KUNIT_EXPECT_PTR_EQ(test, get(cpuc, c), &emptyconstraint);
	intel_put_event_constraints(cpuc, b);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 0);

	/* free again: the other value may have it now */
	KUNIT_EXPECT_PTR_NE(test, get(cpuc, c), &emptyconstraint);
	KUNIT_EXPECT_EQ(test, cpuc->shared_regs->regs[EXTRA_REG_RSP_0].config, RSP_B);
	intel_put_event_constraints(cpuc, c);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 0);

	/* a put of an event that holds nothing changes nothing */
	intel_put_event_constraints(cpuc, c);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 0);
}

static void test_fake_cpuc_leaves_the_event_alone(struct kunit *test)
{
	struct constraint_fixture *f = test->priv;
	struct cpu_hw_events *cpuc = f->cpuc;
	struct perf_event *a = f->ev[0];

	/* group validation: its own registers are counted, the event untouched */
	cpuc->is_fake = 1;
	wants_rsp0(a, RSP_A);
	KUNIT_EXPECT_PTR_NE(test, get(cpuc, a), &emptyconstraint);
	KUNIT_EXPECT_EQ(test, a->hw.extra_reg.alloc, 0);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 1);
	/* a second try of the same event in the same fake group counts again */
	KUNIT_EXPECT_PTR_NE(test, get(cpuc, a), &emptyconstraint);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 2);
	/* and nothing is put back: the fake cpuc goes whole */
	intel_put_event_constraints(cpuc, a);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 2);
}

static void test_branch_reg_conflict_gives_back_the_extra_reg(struct kunit *test)
{
	struct constraint_fixture *f = test->priv;
	struct cpu_hw_events *cpuc = f->cpuc;
	struct perf_event *lbr = f->ev[0], *both = f->ev[1];
	struct er_account *lbr_reg = &cpuc->shared_regs->regs[EXTRA_REG_LBR];

	if (x86_pmu.flags & PMU_FL_HAS_RSP_1)
		kunit_skip(test, "the booted PMU has OFFCORE_RSP_1");

	wants_lbr_select(lbr, 0x1);
	KUNIT_EXPECT_PTR_NE(test, get(cpuc, lbr), &emptyconstraint);
	KUNIT_EXPECT_EQ(test, atomic_read(&lbr_reg->ref), 1);

	/* OFFCORE_RSP is free, LBR_SELECT is not: neither is kept */
	wants_rsp0(both, RSP_A);
	wants_lbr_select(both, 0x2);
	KUNIT_EXPECT_PTR_EQ(test, get(cpuc, both), &emptyconstraint);
	KUNIT_EXPECT_EQ(test, both->hw.extra_reg.alloc, 0);
	KUNIT_EXPECT_EQ(test, both->hw.branch_reg.alloc, 0);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&lbr_reg->ref), 1);

	/* with the same branch filter both registers are taken */
	both->hw.branch_reg.config = 0x1;
	KUNIT_EXPECT_PTR_NE(test, get(cpuc, both), &emptyconstraint);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&lbr_reg->ref), 2);
	intel_put_event_constraints(cpuc, both);
	intel_put_event_constraints(cpuc, lbr);
	KUNIT_EXPECT_EQ(test, rsp0_refs(cpuc), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&lbr_reg->ref), 0);
}

static void test_excl_narrow(struct kunit *test)
{
	struct event_constraint c = INTEL_ALL_EVENT_CONSTRAINT(0, 0xf);
	struct intel_excl_states *theirs;

	theirs = kunit_kzalloc(test, sizeof(*theirs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, theirs);
	theirs->state[0] = INTEL_EXCL_EXCLUSIVE;
	theirs->state[1] = INTEL_EXCL_SHARED;
	theirs->state[3] = INTEL_EXCL_SHARED;
	theirs->state[5] = INTEL_EXCL_EXCLUSIVE;	/* not ours to lose */

	/* a shared user loses only what the sibling holds exclusively */
	KUNIT_EXPECT_EQ(test, intel_excl_narrow(&c, theirs, false), 3);
	KUNIT_EXPECT_EQ(test, c.idxmsk64, 0xeULL);

	/* an exclusive one loses every counter the sibling uses */
	c.idxmsk64 = 0xf;
	c.weight = 4;
	KUNIT_EXPECT_EQ(test, intel_excl_narrow(&c, theirs, true), 1);
	KUNIT_EXPECT_EQ(test, c.idxmsk64, 0x4ULL);

	/* nothing left */
	theirs->state[2] = INTEL_EXCL_EXCLUSIVE;
	c.idxmsk64 = 0xf;
	c.weight = 4;
	KUNIT_EXPECT_EQ(test, intel_excl_narrow(&c, theirs, true), 0);
	KUNIT_EXPECT_EQ(test, c.idxmsk64, 0ULL);
}

static void test_tsx_checkpointed_on_counter2(struct kunit *test)
{
	struct constraint_fixture *f = test->priv;
	struct perf_event *event = f->ev[0];
	struct event_constraint *base, *c;

	event->hw.config |= HSW_IN_TX_CHECKPOINTED;
	base = get(f->cpuc, event);
	c = hsw_get_event_constraints(f->cpuc, 0, event);
	if (base->idxmsk64 & BIT_ULL(2)) {
		KUNIT_EXPECT_EQ(test, c->idxmsk64, BIT_ULL(2));
		KUNIT_EXPECT_EQ(test, c->weight, 1);
	} else {
		KUNIT_EXPECT_PTR_EQ(test, c, &emptyconstraint);
	}

	/* without the bit, the event's own constraint */
	event->hw.config &= ~HSW_IN_TX_CHECKPOINTED;
	KUNIT_EXPECT_PTR_EQ(test, hsw_get_event_constraints(f->cpuc, 0, event),
			    get(f->cpuc, event));
}

static void test_ppp_wrappers(struct kunit *test)
{
	struct constraint_fixture *f = test->priv;
	struct cpu_hw_events *cpuc = f->cpuc;
	struct perf_event *insns = f->ev[0], *other = f->ev[1];
	struct event_constraint *base, *c;

	insns->hw.config = 0x00c0 | ARCH_PERFMON_EVENTSEL_USR;
	insns->attr.precise_ip = 3;
	other->attr.precise_ip = 3;

	/* Icelake+: instructions:ppp on fixed counter 0 only */
	c = icl_get_event_constraints(cpuc, 0, insns);
	KUNIT_EXPECT_EQ(test, c->idxmsk64, BIT_ULL(INTEL_PMC_IDX_FIXED));
	KUNIT_EXPECT_EQ(test, c->weight, 1);
	/* Sapphire Rapids keeps that, and puts any other :ppp on counter 0 */
	KUNIT_EXPECT_PTR_EQ(test, spr_get_event_constraints(cpuc, 0, insns), c);
	base = icl_get_event_constraints(cpuc, 0, other);
	c = spr_get_event_constraints(cpuc, 0, other);
	if (base->idxmsk64 & BIT_ULL(0))
		KUNIT_EXPECT_EQ(test, c->idxmsk64, BIT_ULL(0));
	else
		KUNIT_EXPECT_PTR_EQ(test, c, &emptyconstraint);

	/* Goldmont Plus: every :ppp on counter 0 */
	KUNIT_EXPECT_EQ(test, glp_get_event_constraints(cpuc, 0, insns)->idxmsk64, BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, glp_get_event_constraints(cpuc, 0, other)->idxmsk64, BIT_ULL(0));

	/* Tremont: instructions:ppp on fixed 0 or counter 0, others counter 0 */
	KUNIT_EXPECT_EQ(test, tnt_get_event_constraints(cpuc, 0, insns)->idxmsk64,
			BIT_ULL(INTEL_PMC_IDX_FIXED) | BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, tnt_get_event_constraints(cpuc, 0, insns)->weight, 2);
	KUNIT_EXPECT_EQ(test, tnt_get_event_constraints(cpuc, 0, other)->idxmsk64, BIT_ULL(0));

	/* below :ppp every wrapper gives the event's own constraint */
	other->attr.precise_ip = 0;
	base = get(cpuc, other);
	KUNIT_EXPECT_PTR_EQ(test, glp_get_event_constraints(cpuc, 0, other), base);
	KUNIT_EXPECT_PTR_EQ(test, tnt_get_event_constraints(cpuc, 0, other), base);
	KUNIT_EXPECT_PTR_EQ(test, spr_get_event_constraints(cpuc, 0, other), base);
}

static void test_tsx_force_abort_takes_pmc3(struct kunit *test)
{
	struct constraint_fixture *f = test->priv;
	struct perf_event *event = f->ev[0];
	struct event_constraint *base, *c;
	bool allow = intel_allow_tsx_force_abort;

	base = get(f->cpuc, event);
	if (!(base->idxmsk64 & BIT_ULL(3)))
		kunit_skip(test, "the booted PMU has no counter 3");

	/* allowed to force aborts: PMC3 is there */
	intel_allow_tsx_force_abort = true;
	KUNIT_EXPECT_PTR_EQ(test, tfa_get_event_constraints(f->cpuc, 0, event), base);

	/* not allowed: a copy without it, the table's constraint untouched */
	intel_allow_tsx_force_abort = false;
	c = tfa_get_event_constraints(f->cpuc, 0, event);
	intel_allow_tsx_force_abort = allow;
	KUNIT_EXPECT_PTR_NE(test, c, base);
	KUNIT_EXPECT_EQ(test, c->idxmsk64, base->idxmsk64 & ~BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, c->weight, base->weight - 1);
	KUNIT_EXPECT_TRUE(test, c->flags & PERF_X86_EVENT_DYNAMIC);
	KUNIT_EXPECT_TRUE(test, base->idxmsk64 & BIT_ULL(3));
}

static void test_hybrid_by_core_type(struct kunit *test)
{
	struct constraint_fixture *f = test->priv;
	struct perf_event *event = f->ev[0];
	struct x86_hybrid_pmu *core;

	core = kunit_kzalloc(test, sizeof(*core), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, core);
	event->pmu = &core->pmu;
	event->attr.precise_ip = 3;

	/* a big core answers as Sapphire Rapids, a small one as Tremont */
	core->cpu_type = hybrid_big;
	KUNIT_EXPECT_PTR_EQ(test, adl_get_event_constraints(f->cpuc, 0, event),
			    spr_get_event_constraints(f->cpuc, 0, event));
	core->cpu_type = hybrid_small;
	KUNIT_EXPECT_EQ(test, adl_get_event_constraints(f->cpuc, 0, event)->idxmsk64,
			BIT_ULL(0));
}

static struct kunit_case intel_constraint_cases[] = {
	KUNIT_CASE(test_shared_reg_one_value_at_a_time),
	KUNIT_CASE(test_fake_cpuc_leaves_the_event_alone),
	KUNIT_CASE(test_branch_reg_conflict_gives_back_the_extra_reg),
	KUNIT_CASE(test_excl_narrow),
	KUNIT_CASE(test_tsx_checkpointed_on_counter2),
	KUNIT_CASE(test_ppp_wrappers),
	KUNIT_CASE(test_tsx_force_abort_takes_pmc3),
	KUNIT_CASE(test_hybrid_by_core_type),
	{}
};

static struct kunit_suite intel_constraint_suite = {
	.name = "x86_intel_constraints",
	.init = constraints_init,
	.test_cases = intel_constraint_cases,
};

kunit_test_suite(intel_constraint_suite);
