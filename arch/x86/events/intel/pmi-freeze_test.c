// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test of the CPU's freeze on PMI (IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI,
 * bit 12), which neither our driver nor 6.1's uses, so that the testbed's
 * PMU model is held to the SDM where no user-space test can look: a PMI
 * request freezes the counters, from version 4 by setting CTR_Frz
 * (IA32_PERF_GLOBAL_STATUS bit 59) until software clears it through
 * GLOBAL_OVF_CTRL, before version 4 by clearing IA32_PERF_GLOBAL_CTRL.
 * Without the bit the counters count on past the overflow.
 *
 * The case programs the last general counter by hand (it skips when an
 * event is on it), with interrupts off on this CPU and the local APIC's
 * performance counter entry masked: the PMI is requested but not
 * delivered, so no handler acknowledges the overflow or unfreezes the
 * counters before they are read.  Everything it changes is put back.
 */
#include <kunit/test.h>
#include <linux/irqflags.h>
#include <asm/apic.h>
#include <asm/msr.h>
#include "../framework.h"

#define FREEZE_EVENT	(0xc0 | ARCH_PERFMON_EVENTSEL_OS |	\
			 ARCH_PERFMON_EVENTSEL_INT | ARCH_PERFMON_EVENTSEL_ENABLE)
#define FREEZE_LOOPS	20000UL
/* through the legacy alias: bit 31 sign-extends, so 500 events to overflow */
#define FREEZE_START	((u32)-500)

static noinline void freeze_burn(unsigned long n)
{
	while (n--)
		asm volatile("" ::: "memory");
}

struct freeze_run {
	u64 status;	/* GLOBAL_STATUS after the overflow */
	u64 ctrl;	/* GLOBAL_CTRL after the overflow */
	u64 after;	/* the counter, read after the overflow ... */
	u64 later;	/* ... and after as many instructions again */
	u64 resumed;	/* and after the freeze was lifted and a loop ran */
};

/*
 * Count kernel instructions on general counter @idx from 500 before its
 * overflow, with freeze on PMI if @freeze, IRQs off and LVTPC masked.
 */
static void freeze_run(int idx, bool freeze, struct freeze_run *r)
{
	u64 debugctl, ctrl, frozen = GLOBAL_STATUS_COUNTERS_FROZEN;
	unsigned long flags;
	u32 lvtpc;

	local_irq_save(flags);
	lvtpc = apic_read(APIC_LVTPC);
	apic_write(APIC_LVTPC, lvtpc | APIC_LVT_MASKED);
	rdmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
	rdmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);

	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	wrmsrl(MSR_ARCH_PERFMON_PERFCTR0 + idx, FREEZE_START);
	wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + idx, FREEZE_EVENT);
	wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(idx));
	if (freeze)
		wrmsrl(MSR_IA32_DEBUGCTLMSR, debugctl | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(idx));

	freeze_burn(FREEZE_LOOPS);
	rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, r->status);
	rdmsrl(MSR_CORE_PERF_GLOBAL_CTRL, r->ctrl);
	rdmsrl(MSR_ARCH_PERFMON_PERFCTR0 + idx, r->after);
	freeze_burn(FREEZE_LOOPS);
	rdmsrl(MSR_ARCH_PERFMON_PERFCTR0 + idx, r->later);

	/* lift the freeze: CTR_Frz cleared (version 4), or GLOBAL_CTRL again */
	if (x86_pmu.version < 4)
		frozen = 0;
	wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(idx) | frozen);
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(idx));
	freeze_burn(FREEZE_LOOPS);
	rdmsrl(MSR_ARCH_PERFMON_PERFCTR0 + idx, r->resumed);

	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + idx, 0);
	wrmsrl(MSR_ARCH_PERFMON_PERFCTR0 + idx, 0);
	wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(idx) | frozen);
	wrmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
	apic_write(APIC_LVTPC, lvtpc);
	local_irq_restore(flags);
}

/* The last general counter, if the booted PMU is Intel's and it is idle. */
static int freeze_counter(struct kunit *test)
{
	u64 sel;
	int idx;

	if (!x86_pmu_initialized() || boot_cpu_data.x86_vendor != X86_VENDOR_INTEL)
		kunit_skip(test, "no Intel PMU booted");
	if (x86_pmu.version < 2)
		kunit_skip(test, "architectural perfmon version %d: no GLOBAL_CTRL",
			   x86_pmu.version);
	idx = x86_pmu.num_counters - 1;
	rdmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + idx, sel);
	if (sel & ARCH_PERFMON_EVENTSEL_ENABLE)
		kunit_skip(test, "counter %d is in use (%#llx)", idx, sel);
	return idx;
}

static void test_counts_on_without_freeze(struct kunit *test)
{
	struct freeze_run r;
	int idx = freeze_counter(test);

	freeze_run(idx, false, &r);
	/* it overflowed and said so, and went on counting */
	KUNIT_EXPECT_TRUE(test, r.status & BIT_ULL(idx));
	KUNIT_EXPECT_FALSE(test, r.status & GLOBAL_STATUS_COUNTERS_FROZEN);
	KUNIT_EXPECT_EQ(test, r.ctrl, BIT_ULL(idx));
	KUNIT_EXPECT_LT(test, r.after, 1ULL << 31);
	KUNIT_EXPECT_GT(test, r.later, r.after + FREEZE_LOOPS);
}

static void test_pmi_request_freezes_the_counters(struct kunit *test)
{
	struct freeze_run r;
	int idx = freeze_counter(test);

	freeze_run(idx, true, &r);
	KUNIT_EXPECT_TRUE(test, r.status & BIT_ULL(idx));
	if (x86_pmu.version >= 4) {
		/* streamlined freeze: CTR_Frz, GLOBAL_CTRL as it was */
		KUNIT_EXPECT_TRUE(test, r.status & GLOBAL_STATUS_COUNTERS_FROZEN);
		KUNIT_EXPECT_EQ(test, r.ctrl, BIT_ULL(idx));
	} else {
		/* legacy freeze: GLOBAL_CTRL cleared */
		KUNIT_EXPECT_FALSE(test, r.status & GLOBAL_STATUS_COUNTERS_FROZEN);
		KUNIT_EXPECT_EQ(test, r.ctrl, 0ULL);
	}
	/* frozen just past the overflow, and still there a loop later */
	KUNIT_EXPECT_LT(test, r.after, (u64)FREEZE_LOOPS);
	KUNIT_EXPECT_EQ(test, r.later, r.after);
	/* counting again once software lifts the freeze */
	KUNIT_EXPECT_GT(test, r.resumed, r.later + FREEZE_LOOPS);
}

static struct kunit_case pmi_freeze_cases[] = {
	KUNIT_CASE(test_counts_on_without_freeze),
	KUNIT_CASE(test_pmi_request_freezes_the_counters),
	{}
};

static struct kunit_suite pmi_freeze_suite = {
	.name = "x86_intel_pmi_freeze",
	.test_cases = pmi_freeze_cases,
};

kunit_test_suite(pmi_freeze_suite);
