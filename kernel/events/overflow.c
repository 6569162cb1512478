// SPDX-License-Identifier: GPL-2.0
/*
 * Overflows: what a PMU's overflow interrupt (or a software event's elapsed
 * period) reports to the core, and interrupt throttling.
 *
 * Owns: perf_event_overflow(), perf_event_account_interrupt(), the per-CPU
 * tick sequence and count of throttled events, and unthrottling from the
 * tick (perf_overflow_tick()).
 *
 * Throttling (perf_event_max_sample_rate): an event may take at most
 * perf_max_samples_per_tick overflow interrupts in one tick of its CPU.
 * The interrupt that reaches the limit marks it PERF_THROTTLED
 * (hw.interrupts) and perf_event_overflow() returns 1: the driver stops
 * the counter.  The next tick of that CPU starts every throttled event of
 * its scheduled contexts again (pmu->start) and clears the mark.  This
 * already holds for the in-kernel sampling events of part 1 (KVM's guest
 * PMU, whose periods a guest chooses; the hard-lockup watchdog); the ring
 * buffer, signals and the THROTTLE/UNTHROTTLE records are part 2.
 *
 * Locking: perf_event_overflow() runs in NMI or IRQ context on the event's
 * CPU and touches only that event and this CPU's counters.  The tick runs
 * with IRQs off and holds the CPU context's lock, then the task context's,
 * while it walks the groups on the PMUs.
 */
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/tick.h>

#include "internal.h"

/* Bumped by every tick: interrupts are counted per event and tick. */
static DEFINE_PER_CPU(u64, perf_throttled_seq);
/* Events this CPU throttled since its last tick. */
static DEFINE_PER_CPU(int, perf_throttled_count);

static int __perf_event_account_interrupt(struct perf_event *event, bool throttle)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 seq = __this_cpu_read(perf_throttled_seq);

	if (seq != hwc->interrupts_seq) {
		hwc->interrupts_seq = seq;
		hwc->interrupts = 1;
	} else {
		hwc->interrupts++;
	}
	if (!throttle || hwc->interrupts < READ_ONCE(perf_max_samples_per_tick))
		return 0;

	__this_cpu_inc(perf_throttled_count);
	/* a tickless CPU must tick to unthrottle it */
	tick_dep_set_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);
	hwc->interrupts = PERF_THROTTLED;
	return 1;
}

int perf_event_account_interrupt(struct perf_event *event)
{
	return __perf_event_account_interrupt(event, true);
}

/*
 * An overflow reported by a PMU (NMI or IRQ).  Returns non-zero when the
 * driver should stop the event: it is throttled, or its
 * PERF_EVENT_IOC_REFRESH budget ran out.
 */
int perf_event_overflow(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs)
{
	perf_overflow_handler_t handler;
	int ret;

	/* a software event's "interrupt" is not throttled */
	ret = __perf_event_account_interrupt(event, !is_software_event(event));

	if (atomic_read(&event->event_limit) && atomic_dec_and_test(&event->event_limit)) {
		ret = 1;
		event->pending_kill = POLL_HUP;
		perf_event_disable_inatomic(event);
	}

	handler = READ_ONCE(event->overflow_handler);
	if (handler)
		handler(event, data, regs);
	return ret;
}

/* Start a throttled event again (its CPU, IRQs off, its context locked). */
static void perf_event_unthrottle(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (event->state != PERF_EVENT_STATE_ACTIVE || hwc->interrupts != PERF_THROTTLED)
		return;
	hwc->interrupts = 0;
	perf_pmu_disable(event->pmu);
	event->pmu->start(event, 0);
	perf_pmu_enable(event->pmu);
}

static void perf_group_unthrottle(struct perf_event *leader, void *data)
{
	struct perf_event *sibling;

	perf_event_unthrottle(leader);
	for_each_sibling_event(sibling, leader)
		perf_event_unthrottle(sibling);
}

void perf_overflow_tick(void)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx;

	lockdep_assert_irqs_disabled();
	__this_cpu_inc(perf_throttled_seq);
	if (!__this_cpu_xchg(perf_throttled_count, 0))
		return;
	tick_dep_clear_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);

	task_ctx = cpuctx->task_ctx;
	perf_ctx_lock(cpuctx, task_ctx);
	perf_ctx_walk_active_groups(&cpuctx->ctx, perf_group_unthrottle, NULL);
	if (task_ctx)
		perf_ctx_walk_active_groups(task_ctx, perf_group_unthrottle, NULL);
	perf_ctx_unlock(cpuctx, task_ctx);
}
