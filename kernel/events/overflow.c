// SPDX-License-Identifier: GPL-2.0
/*
 * Overflows: what a PMU's overflow interrupt (or a software event's elapsed
 * period) reports to the core, interrupt throttling and frequency mode.
 *
 * Owns: perf_event_overflow(), perf_event_account_interrupt(), the per-CPU
 * tick sequence and count of throttled events, the THROTTLE/UNTHROTTLE
 * records, the period re-estimate of frequency-mode events, SIGIO on
 * overflow (fasync) and the SIGTRAP of attr.sigtrap, and the tick's part
 * (perf_overflow_tick()).
 *
 * Throttling (perf_event_max_sample_rate): an event may take at most
 * perf_max_samples_per_tick overflow interrupts in one tick of its CPU.
 * The interrupt that reaches the limit marks it PERF_THROTTLED
 * (hw.interrupts), writes a PERF_RECORD_THROTTLE and perf_event_overflow()
 * returns 1: the driver stops the counter.  The next tick of that CPU
 * starts every throttled event of its scheduled contexts again
 * (pmu->start), with a PERF_RECORD_UNTHROTTLE.  As in 6.1, a software
 * event's first overflow of one occurrence is not counted against the
 * limit (a page fault is one sample, whatever the rate).
 *
 * Frequency mode (attr.freq): the period is re-estimated so that the event
 * overflows attr.sample_freq times a second: at each overflow from the
 * time since the previous one, and at each tick from the count of the
 * tick, both through a low-pass filter (perf_event_adjust_period()).
 *
 * Locking: perf_event_overflow() runs in NMI or IRQ context on the event's
 * CPU (or in task context with preemption off for software events) and
 * touches only that event and this CPU's counters; signals and wakeups go
 * through the event's irq_work.  The tick runs with IRQs off and holds the
 * CPU context's lock, then the task context's, while it walks the groups
 * on the PMUs.
 */
#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched/signal.h>
#include <linux/task_work.h>
#include <linux/tick.h>

#include "internal.h"
#include "period_math.h"

/* Bumped by every tick: interrupts are counted per event and tick. */
static DEFINE_PER_CPU(u64, perf_throttled_seq);
/* Events this CPU throttled since its last tick. */
static DEFINE_PER_CPU(int, perf_throttled_count);

/* PERF_RECORD_THROTTLE (@unthrottle false) or PERF_RECORD_UNTHROTTLE. */
static void perf_log_throttle(struct perf_event *event, bool unthrottle)
{
	struct {
		struct perf_event_header	header;
		u64				time;
		u64				id;
		u64				stream_id;
	} rec = {
		.header.type = unthrottle ? PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE,
		.time = event->clock(),
		.id = event->parent ? event->parent->id : event->id,
		.stream_id = event->id,
	};

	perf_output_record(event, &rec.header, sizeof(rec), NULL, 0, 0);
}

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
	perf_log_throttle(event, false);
	return 1;
}

/* ---- frequency mode ------------------------------------------------------- */

/*
 * Move the period towards the estimate from @count events in @nsec
 * (period_math.h).  A period left far larger than the new one is cut
 * short; @restart: the event is running and must be stopped for that.
 */
static void perf_event_adjust_period(struct perf_event *event, u64 nsec, u64 count,
				     bool restart)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 target = perf_freq_target_period(count, nsec, event->attr.sample_freq);
	u64 period = perf_freq_filter(hwc->sample_period, target);

	hwc->sample_period = period;

	if (local64_read(&hwc->period_left) > 8 * (s64)period) {
		if (restart)
			event->pmu->stop(event, PERF_EF_UPDATE);
		local64_set(&hwc->period_left, 0);
		if (restart)
			event->pmu->start(event, PERF_EF_RELOAD);
	}
}

/* At an overflow: the time since the previous one gives the rate. */
static void perf_freq_overflow(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 now = perf_clock();
	s64 delta = now - hwc->freq_time_stamp;

	hwc->freq_time_stamp = now;
	/* a long pause (descheduled, throttled) says nothing about the rate */
	if (delta > 0 && delta < 2 * TICK_NSEC)
		perf_event_adjust_period(event, delta, hwc->last_period, true);
}

/*
 * An overflow interrupt that gives no sample (a POWER PMI with an invalid
 * SIAR, a PEBS error record): throttled and frequency-adjusted as one that
 * does, as in 6.1.
 */
int perf_event_account_interrupt(struct perf_event *event)
{
	int ret = __perf_event_account_interrupt(event, true);

	if (event->attr.freq)
		perf_freq_overflow(event);
	return ret;
}

/* ---- signals -------------------------------------------------------------------- */

/*
 * attr.sigtrap: a synchronous SIGTRAP to the task the event watches, sent
 * from the event's irq_work (perf_pending_irq()) right after this
 * interrupt, with the address of the access when the PMU gave one.
 */
static void perf_queue_sigtrap(struct perf_event *event, struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	bool valid = !perf_event_excluded_at(event, regs);
	unsigned int id = regs ? hash32_ptr((void *)instruction_pointer(regs)) : 0;

	if (event->pending_sigtrap)
		return;
	/* non-zero: the IP hash says which access raised it (for debugging) */
	event->pending_sigtrap = id ? id : 1;
	event->pending_addr = 0;
	if (valid && (data->sample_flags & PERF_SAMPLE_ADDR))
		event->pending_addr = data->addr;
	irq_work_queue(&event->pending_irq);
}

/*
 * The event leaves its CPU with a SIGTRAP still queued for its irq_work
 * (which may run only after the switch, e.g. from the decrementer on
 * powerpc): the task (current) gets it on its way back to user space
 * instead, as in 6.1, unless the event is being disabled by its
 * event_limit.  ctx->lock held, IRQs off.
 */
void perf_sigtrap_sched_out(struct perf_event *event, bool disabling)
{
	event->pending_sigtrap = 0;
	if (disabling || event->pending_work)
		return;
	/* the task work holds a reference until it has run */
	if (!atomic_long_inc_not_zero(&event->refcount))
		return;
	if (task_work_add(current, &event->pending_task, TWA_RESUME)) {
		/* exiting: nobody to signal; the put cannot be the last one */
		atomic_long_dec(&event->refcount);
		return;
	}
	event->pending_work = 1;
}

/*
 * Task work: the SIGTRAP that perf_sigtrap_sched_out() moved here, sent
 * under the software-event recursion guard as from perf_pending_irq() (the
 * guard is per CPU: no preemption meanwhile).
 */
void perf_pending_task(struct callback_head *head)
{
	struct perf_event *event = container_of(head, struct perf_event, pending_task);
	int rctx;

	preempt_disable_notrace();
	rctx = perf_swevent_get_recursion_context();
	if (event->pending_work) {
		event->pending_work = 0;
		perf_deliver_sigtrap(event);
	}
	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
	preempt_enable_notrace();
	perf_event_put(event);
}

/* From the event's irq_work: deliver a queued SIGTRAP to current. */
void perf_deliver_sigtrap(struct perf_event *event)
{
	event->pending_sigtrap = 0;
	/* only to the watched task, and not while it dies */
	if (event->ctx->task != current || (current->flags & PF_EXITING))
		return;
	send_sig_perf((void __user *)event->pending_addr, event->attr.type,
		      event->attr.sig_data);
}

/* ---- the overflow ------------------------------------------------------------------- */

int __perf_event_overflow(struct perf_event *event, bool throttle,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	struct perf_event *owner = event->parent ? event->parent : event;
	perf_overflow_handler_t handler;
	int ret;

	/*
	 * A counting event's interrupt only tells that its counter wrapped
	 * (the driver folds it into the count): no sample, no signal, no
	 * throttling, as in 6.1.
	 */
	if (unlikely(!is_sampling_event(event)))
		return 0;

	ret = __perf_event_account_interrupt(event, throttle);
	if (event->attr.freq)
		perf_freq_overflow(event);

	/* SIGIO (fasync) on every overflow, POLL_HUP when the limit runs out */
	if (owner->fasync)
		event->pending_kill = POLL_IN;
	if (atomic_read(&event->event_limit) && atomic_dec_and_test(&event->event_limit)) {
		ret = 1;
		event->pending_kill = POLL_HUP;
		perf_event_disable_inatomic(event);
	}
	if (event->attr.sigtrap)
		perf_queue_sigtrap(event, data, regs);

	handler = READ_ONCE(event->overflow_handler);
	if (handler)
		handler(event, data, regs);

	if (owner->fasync && event->pending_kill) {
		event->pending_wakeup = 1;
		irq_work_queue(&event->pending_irq);
	}
	return ret;
}

/*
 * An overflow reported by a PMU (NMI or IRQ).  Returns non-zero when the
 * driver should stop the event: it is throttled, or its
 * PERF_EVENT_IOC_REFRESH budget ran out.  Always 0, and nothing done, for
 * an event that does not sample.
 */
int perf_event_overflow(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs)
{
	return __perf_event_overflow(event, true, data, regs);
}

/* A throttled event may overflow again (its CPU, IRQs off). */
void perf_event_clear_throttle(struct perf_event *event)
{
	event->hw.interrupts = 0;
	perf_log_throttle(event, true);
}

/* Start a throttled event again (its CPU, IRQs off, its context locked). */
static void perf_event_unthrottle(struct perf_event *event)
{
	perf_event_clear_throttle(event);
	event->pmu->start(event, 0);
}

/*
 * The tick's look at one running event: unthrottle it, and re-estimate the
 * period of a frequency-mode event from what it counted since the last
 * tick.
 */
static void perf_event_tick(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 counted;

	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	perf_pmu_disable(event->pmu);
	if (hwc->interrupts == PERF_THROTTLED)
		perf_event_unthrottle(event);
	if (event->attr.freq && event->attr.sample_freq) {
		event->pmu->stop(event, PERF_EF_UPDATE);
		counted = local64_read(&event->count) - hwc->freq_count_stamp;
		hwc->freq_count_stamp = local64_read(&event->count);
		if (counted > 0)
			perf_event_adjust_period(event, TICK_NSEC, counted, false);
		event->pmu->start(event, counted > 0 ? PERF_EF_RELOAD : 0);
	}
	perf_pmu_enable(event->pmu);
}

static void perf_group_tick(struct perf_event *leader, void *data)
{
	struct perf_event *sibling;

	perf_event_tick(leader);
	for_each_sibling_event(sibling, leader)
		perf_event_tick(sibling);
}

static bool perf_ctx_needs_tick(struct perf_event_context *ctx, bool throttled)
{
	return ctx && (throttled || READ_ONCE(ctx->nr_freq));
}

void perf_overflow_tick(void)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx = cpuctx->task_ctx;
	bool throttled;

	lockdep_assert_irqs_disabled();
	__this_cpu_inc(perf_throttled_seq);
	throttled = __this_cpu_xchg(perf_throttled_count, 0);
	if (throttled)
		tick_dep_clear_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);
	if (!perf_ctx_needs_tick(&cpuctx->ctx, throttled) &&
	    !perf_ctx_needs_tick(task_ctx, throttled))
		return;

	perf_ctx_lock(cpuctx, task_ctx);
	if (perf_ctx_needs_tick(&cpuctx->ctx, throttled))
		perf_ctx_walk_active_groups(&cpuctx->ctx, perf_group_tick, NULL);
	if (perf_ctx_needs_tick(task_ctx, throttled))
		perf_ctx_walk_active_groups(task_ctx, perf_group_tick, NULL);
	perf_ctx_unlock(cpuctx, task_ctx);
}
