// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of stopped counters in the Book3S driver: the core stops an
 * event (throttling, an event_limit that ran out) and the counter must
 * raise no PMI and disturb no other until start().
 *
 * - Inside the PMI (book3s-pmi.c): two counters that overflow in one PMI,
 *   each with an event_limit of one, so perf_event_overflow() tells the
 *   driver to stop the first before the second is handled.  The counters
 *   must stay frozen (MMCR0[FC], set by the alert with MMCR0[FCECE]) until
 *   the handler has taken every sample: a stop that brackets itself with
 *   pmu_disable/enable thaws them and clears SIAR/SDAR under the second
 *   event's sample (6.1's power_pmu_stop() from record_and_restart() does).
 * - In a reprogram (book3s-schedule.c): a stopped event that another
 *   event's add() moves to a different counter is loaded with 0 there, not
 *   with a live period (6.1 loads 0 too; ours once gave it its period).
 *
 * Runs on the booted PMU (ISA 2.07+ models: POWER8/9/10 and QEMU's) with
 * real counters on this CPU: PM_INST_CMPL (raw 0x2, any of PMC1-4) and
 * PM_CYC on a chosen PMC (raw 0xN001e), which QEMU counts on PMC1-4.
 * The cases call the driver's stop()/start() themselves, on this CPU with
 * interrupts and PMIs masked (the core calls them under ctx->lock, IRQs
 * off); migration is off while their CPU-wide counters exist.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <asm/hardirq.h>
#include <asm/hw_irq.h>
#include <asm/reg.h>
#include "book3s.h"

#define PMI_TEST_PERIOD	20000
/*
 * Opened with a period that does not end before the restart: PMIs every
 * PMI_TEST_PERIOD instructions of the whole CPU meanwhile would make the
 * core lower perf_event_max_sample_rate for everything after KUnit.
 */
#define PMI_TEST_QUIET_PERIOD	BIT_ULL(30)

/* What each overflow handler saw, in the order they ran. */
static struct pmi_test_log {
	int n;
	struct perf_event *event[2];
	unsigned long mmcr0[2];
	unsigned int pmi[2];		/* this CPU's PMI count */
} pmi_log;

static void pmi_test_handler(struct perf_event *event,
			     struct perf_sample_data *data,
			     struct pt_regs *regs)
{
	int i = pmi_log.n;

	if (i >= ARRAY_SIZE(pmi_log.event))
		return;
	pmi_log.event[i] = event;
	pmi_log.mmcr0[i] = mfspr(SPRN_MMCR0);
	pmi_log.pmi[i] = __this_cpu_read(irq_stat.pmu_irqs);
	/* the log is read by the test thread on this CPU after the PMI */
	WRITE_ONCE(pmi_log.n, i + 1);
}

/*
 * A counter of @config on PMC1-4, on the PMU now: a pinned sampling one
 * of this CPU, or (@task) a counting one of the current task.  NULL if it
 * could not go on.
 */
static struct perf_event *stop_test_counter(u64 config, bool task)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_RAW,
		.config = config,
		.size = sizeof(attr),
		.pinned = !task,
		.sample_period = task ? 0 : PMI_TEST_QUIET_PERIOD,
	};
	struct perf_event *event;

	if (task)
		event = perf_event_create_kernel_counter(&attr, -1, current,
							 NULL, NULL);
	else
		event = perf_event_create_kernel_counter(&attr, smp_processor_id(),
							 NULL, pmi_test_handler,
							 NULL);
	if (IS_ERR(event))
		return NULL;
	if (event->state != PERF_EVENT_STATE_ACTIVE || !event->hw.idx ||
	    event->hw.idx > 4) {
		perf_event_release_kernel(event);
		return NULL;
	}
	return event;
}

static void stop_test_release(struct perf_event *a, struct perf_event *b)
{
	if (b)
		perf_event_release_kernel(b);
	if (a)
		perf_event_release_kernel(a);
	migrate_enable();
}

/*
 * Load both counters with PMI_TEST_PERIOD to go and thaw them at once, with
 * the log emptied.  PMIs are masked meanwhile (local_irq_save() leaves
 * them on: they are NMI-like).
 */
static void pmi_test_restart_together(struct perf_event *a,
				      struct perf_event *b)
{
	unsigned long flags;

	powerpc_local_irq_pmu_save(flags);
	perf_pmu_disable(a->pmu);
	memset(&pmi_log, 0, sizeof(pmi_log));
	a->pmu->stop(a, PERF_EF_UPDATE);
	b->pmu->stop(b, PERF_EF_UPDATE);
	atomic_set(&a->event_limit, 1);
	atomic_set(&b->event_limit, 1);
	local64_set(&a->hw.period_left, PMI_TEST_PERIOD);
	local64_set(&b->hw.period_left, PMI_TEST_PERIOD);
	a->pmu->start(a, PERF_EF_RELOAD);
	b->pmu->start(b, PERF_EF_RELOAD);
	perf_pmu_enable(a->pmu);
	powerpc_local_irq_pmu_restore(flags);
}

static void stop_in_pmi_keeps_counters_frozen(struct kunit *test)
{
	struct perf_event *a, *b;
	int spins;

	if (!book3s_ppmu || !(book3s_ppmu->flags & PPMU_ARCH_207S))
		kunit_skip(test, "needs an ISA 2.07+ Book3S PMU");

	migrate_disable();
	a = stop_test_counter(0x2, false);	/* PM_INST_CMPL */
	b = a ? stop_test_counter(0x2, false) : NULL;
	if (!b) {
		stop_test_release(a, b);
		kunit_skip(test, "could not put two PM_INST_CMPL counters on this CPU");
	}

	pmi_test_restart_together(a, b);
	/* busy-wait, not sleep: the counters count this CPU's instructions */
	for (spins = 0; spins < 1000 && READ_ONCE(pmi_log.n) < 2; spins++)
		udelay(100);

	stop_test_release(a, b);

	KUNIT_ASSERT_EQ_MSG(test, pmi_log.n, 2, "both counters took a sample");
	KUNIT_EXPECT_PTR_NE(test, pmi_log.event[0], pmi_log.event[1]);
	KUNIT_ASSERT_EQ_MSG(test, pmi_log.pmi[0], pmi_log.pmi[1],
			    "both samples came from one PMI");
	KUNIT_EXPECT_TRUE_MSG(test, pmi_log.mmcr0[0] & MMCR0_FC,
			      "the alert froze the counters (MMCR0 %#lx)",
			      pmi_log.mmcr0[0]);
	KUNIT_EXPECT_TRUE_MSG(test, pmi_log.mmcr0[1] & MMCR0_FC,
			      "still frozen after the first event was stopped (MMCR0 %#lx)",
			      pmi_log.mmcr0[1]);
}

/*
 * A CPU-wide counter, stopped as the core stops a throttled event, then a
 * task counter that can only go on its PMC: the add() moves the stopped
 * one, which must arrive with 0 (no PMI for 2^31 events), not with the
 * rest of its period.
 */
static void stopped_counter_moved_is_loaded_with_zero(struct kunit *test)
{
	struct perf_event *a, *b = NULL;
	unsigned long flags, val;
	int pmc;

	if (!book3s_ppmu || !(book3s_ppmu->flags & PPMU_ARCH_207S))
		kunit_skip(test, "needs an ISA 2.07+ Book3S PMU");

	migrate_disable();
	a = stop_test_counter(0x2, false);	/* PM_INST_CMPL */
	if (!a) {
		stop_test_release(a, b);
		kunit_skip(test, "could not put a PM_INST_CMPL counter on this CPU");
	}
	powerpc_local_irq_pmu_save(flags);
	perf_pmu_disable(a->pmu);
	a->pmu->stop(a, PERF_EF_UPDATE);
	perf_pmu_enable(a->pmu);
	powerpc_local_irq_pmu_restore(flags);
	pmc = a->hw.idx;

	/* PM_CYC on the stopped counter's PMC: a task event goes on at once */
	b = stop_test_counter(((u64)pmc << 16) | 0x1e, true);
	if (!b || b->hw.idx != pmc) {
		stop_test_release(a, b);
		kunit_skip(test, "PM_CYC did not go on PMC%d", pmc);
	}

	powerpc_local_irq_pmu_save(flags);
	val = a->hw.idx ? book3s_read_pmc(a->hw.idx) : 0;
	powerpc_local_irq_pmu_restore(flags);
	KUNIT_EXPECT_TRUE_MSG(test, a->hw.state & PERF_HES_STOPPED,
			      "still stopped after the move");
	KUNIT_EXPECT_GT(test, a->hw.idx, 0);
	KUNIT_EXPECT_NE(test, a->hw.idx, pmc);
	/* 0 plus what it counted since: far below a live period's start */
	KUNIT_EXPECT_LT_MSG(test, val, 0x10000000UL,
			    "PMC%d of the moved stopped counter", a->hw.idx);
	stop_test_release(a, b);
}

static struct kunit_case book3s_stop_cases[] = {
	KUNIT_CASE(stop_in_pmi_keeps_counters_frozen),
	KUNIT_CASE(stopped_counter_moved_is_loaded_with_zero),
	{}
};

static struct kunit_suite book3s_stop_suite = {
	.name = "powerpc_book3s_stop",
	.test_cases = book3s_stop_cases,
};

kunit_test_suite(book3s_stop_suite);
