// SPDX-License-Identifier: GPL-2.0
/*
 * x86 PMU framework: the struct pmu the core drives.
 *
 * add() appends an event to this CPU's cpu_hw_events and checks that
 * the whole set still fits (or, inside a group transaction, leaves that
 * to commit_txn()); nothing is written to the hardware yet.  The next
 * pmu_enable() applies the new assignment: events whose counter changed
 * are stopped first and loaded into their new counter after, then the
 * driver's enable_all() turns the PMU on.  start()/stop() enable and
 * disable one counter; del() stops the event and closes the gap in the
 * list.
 *
 * The event list keeps the events in the order they were added:
 * event_list[0 .. n_events - n_added) already have counters,
 * the last n_added were added since the last pmu_enable(), and in a
 * transaction the last n_txn are the transaction's.
 *
 * Locking: all on the local CPU with interrupts off (the core's
 * contract for these callbacks); cpuc->enabled is also read by the PMI.
 */
#include <linux/perf_event.h>
#include "framework.h"

/* Does event @i keep the counter it had, untouched since? */
static bool x86_counter_kept(struct cpu_hw_events *cpuc, int i)
{
	struct hw_perf_event *hwc = &cpuc->event_list[i]->hw;

	return hwc->idx == cpuc->assign[i] &&
	       hwc->last_cpu == smp_processor_id() &&
	       hwc->last_tag == cpuc->tags[i];
}

/*
 * Put the assignment of the last schedule into effect.  A stopped event
 * (throttled, or added without PERF_EF_START) that moves stays stopped
 * (PERF_HES_ARCH remembers it), but its new counter is loaded now: a
 * later start() without PERF_EF_RELOAD, as after throttling, then
 * counts from a value that matches prev_count.  (6.1 leaves the new
 * counter holding whatever its previous user left in it.)
 */
static void x86_pmu_apply_assignment(struct cpu_hw_events *cpuc)
{
	int n_running = cpuc->n_events - cpuc->n_added;
	struct hw_perf_event *hwc;
	int i;

	/* 1: take every moving event off its old counter */
	for (i = 0; i < n_running; i++) {
		hwc = &cpuc->event_list[i]->hw;
		if (hwc->idx == -1 || x86_counter_kept(cpuc, i))
			continue;
		if (hwc->state & PERF_HES_STOPPED)
			hwc->state |= PERF_HES_ARCH;
		x86_pmu_stop(cpuc->event_list[i], PERF_EF_UPDATE);
	}

	/* 2: put moved and new events on their counters */
	for (i = 0; i < cpuc->n_events; i++) {
		struct perf_event *event = cpuc->event_list[i];

		hwc = &event->hw;
		if (x86_counter_kept(cpuc, i)) {
			if (i < n_running)
				continue;
		} else {
			x86_assign_hw_event(event, cpuc, i);
			/* (topdown metrics share a counter: not reloaded) */
			if (hwc->state & PERF_HES_ARCH) {
				if (!is_topdown_count(event))
					static_call(x86_pmu_set_period)(event);
				continue;
			}
		}
		if (!(hwc->state & PERF_HES_ARCH))
			x86_pmu_start(event, PERF_EF_RELOAD);
	}
	cpuc->n_added = 0;
	perf_events_lapic_init();
}

static void x86_pmu_enable(struct pmu *pmu)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int added = cpuc->n_added;

	if (!x86_pmu_initialized() || cpuc->enabled)
		return;

	if (cpuc->n_added)
		x86_pmu_apply_assignment(cpuc);

	cpuc->enabled = 1;
	barrier();
	static_call(x86_pmu_enable_all)(added);
}

/*
 * A PMI may land just before or after disable_all(); it sees
 * enabled == 0 and does not turn the PMU back on either way.
 */
static void x86_pmu_disable(struct pmu *pmu)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);

	if (!x86_pmu_initialized() || !cpuc->enabled)
		return;

	cpuc->n_added = 0;
	cpuc->enabled = 0;
	barrier();
	static_call(x86_pmu_disable_all)();
}

static int x86_pmu_add(struct perf_event *event, int flags)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	struct hw_perf_event *hwc = &event->hw;
	int assign[X86_PMC_IDX_MAX];
	int n, n_before = cpuc->n_events;

	n = x86_collect_events(cpuc, event, false);
	if (n < 0)
		return n;

	hwc->state = PERF_HES_UPTODATE | PERF_HES_STOPPED;
	if (!(flags & PERF_EF_START))
		hwc->state |= PERF_HES_ARCH;

	/* in a transaction, commit_txn() schedules the group as a whole */
	if (!(cpuc->txn_flags & PERF_PMU_TXN_ADD)) {
		int err = static_call(x86_pmu_schedule_events)(cpuc, n, assign);

		if (err)
			return err;
		memcpy(cpuc->assign, assign, n * sizeof(int));
	}

	cpuc->n_events = n;
	cpuc->n_added += n - n_before;
	cpuc->n_txn += n - n_before;

	/* before start(): the driver sets up what the event needs (LBR) */
	static_call_cond(x86_pmu_add)(event);
	return 0;
}

void x86_pmu_start(struct perf_event *event, int flags)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	struct hw_perf_event *hwc = &event->hw;
	int idx = hwc->idx;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	if (WARN_ON_ONCE(idx == -1))
		return;

	if (flags & PERF_EF_RELOAD) {
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
		static_call(x86_pmu_set_period)(event);
	}

	hwc->state = 0;
	cpuc->events[idx] = event;
	__set_bit(idx, cpuc->active_mask);
	static_call(x86_pmu_enable)(event);
	perf_event_update_userpage(event);
}

void x86_pmu_stop(struct perf_event *event, int flags)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	struct hw_perf_event *hwc = &event->hw;

	if (test_bit(hwc->idx, cpuc->active_mask)) {
		static_call(x86_pmu_disable)(event);
		__clear_bit(hwc->idx, cpuc->active_mask);
		cpuc->events[hwc->idx] = NULL;
		WARN_ON_ONCE(hwc->state & PERF_HES_STOPPED);
		hwc->state |= PERF_HES_STOPPED;
	}

	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		static_call(x86_pmu_update)(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

static void x86_pmu_del(struct perf_event *event, int flags)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int i;

	/*
	 * In a transaction the event never got a counter: undo the
	 * driver's add() only; cancel_txn() shortens the list.
	 */
	if (cpuc->txn_flags & PERF_PMU_TXN_ADD)
		goto driver_del;

	/*
	 * Its counter may hold a count another task could rdpmc.  An event
	 * added and removed within one disabled section never got a counter
	 * (idx -1: 6.1 sets bit -1, the word before the bitmap).
	 */
	if (event->hw.idx >= 0)
		__set_bit(event->hw.idx, cpuc->dirty);
	x86_pmu_stop(event, PERF_EF_UPDATE);

	for (i = 0; i < cpuc->n_events; i++)
		if (cpuc->event_list[i] == event)
			break;
	if (WARN_ON_ONCE(i == cpuc->n_events))
		return;

	if (i >= cpuc->n_events - cpuc->n_added)
		cpuc->n_added--;

	static_call_cond(x86_pmu_put_event_constraints)(cpuc, event);

	for (i++; i < cpuc->n_events; i++) {
		cpuc->event_list[i - 1] = cpuc->event_list[i];
		cpuc->event_constraint[i - 1] = cpuc->event_constraint[i];
		cpuc->assign[i - 1] = cpuc->assign[i];
	}
	cpuc->event_constraint[i - 1] = NULL;
	cpuc->n_events--;
	if (hybrid(cpuc->pmu, intel_cap).perf_metrics)
		x86_forget_metric_event(cpuc, event);

	perf_event_update_userpage(event);

driver_del:
	/* after stop(): what the driver set up is no longer needed */
	static_call_cond(x86_pmu_del)(event);
}

static void x86_pmu_read(struct perf_event *event)
{
	static_call(x86_pmu_read)(event);
}

/*
 * Group transactions: add() of every member skips the schedule, and
 * commit_txn() schedules them all at once.  Only PERF_PMU_TXN_ADD does
 * anything; other kinds are accepted and ignored.
 */
static void x86_pmu_start_txn(struct pmu *pmu, unsigned int txn_flags)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);

	WARN_ON_ONCE(cpuc->txn_flags);
	cpuc->txn_flags = txn_flags;
	if (txn_flags & ~PERF_PMU_TXN_ADD)
		return;

	perf_pmu_disable(pmu);
	cpuc->n_txn = 0;
	cpuc->n_txn_pair = 0;
	cpuc->n_txn_metric = 0;
}

static void x86_pmu_cancel_txn(struct pmu *pmu)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	unsigned int txn_flags = cpuc->txn_flags;

	WARN_ON_ONCE(!txn_flags);
	cpuc->txn_flags = 0;
	if (txn_flags & ~PERF_PMU_TXN_ADD)
		return;

	/* forget the transaction's events, appended last */
	cpuc->n_added -= cpuc->n_txn;
	cpuc->n_events -= cpuc->n_txn;
	cpuc->n_pair -= cpuc->n_txn_pair;
	cpuc->n_metric -= cpuc->n_txn_metric;
	perf_pmu_enable(pmu);
}

/* On failure the transaction stays open: the core cancels it. */
static int x86_pmu_commit_txn(struct pmu *pmu)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int assign[X86_PMC_IDX_MAX];
	int err;

	WARN_ON_ONCE(!cpuc->txn_flags);
	if (cpuc->txn_flags & ~PERF_PMU_TXN_ADD) {
		cpuc->txn_flags = 0;
		return 0;
	}
	if (!x86_pmu_initialized())
		return -EAGAIN;

	err = static_call(x86_pmu_schedule_events)(cpuc, cpuc->n_events, assign);
	if (err)
		return err;
	memcpy(cpuc->assign, assign, cpuc->n_events * sizeof(int));

	cpuc->txn_flags = 0;
	perf_pmu_enable(pmu);
	return 0;
}

static void x86_pmu_sched_task(struct perf_event_context *ctx, bool sched_in)
{
	static_call_cond(x86_pmu_sched_task)(ctx, sched_in);
}

static void x86_pmu_swap_task_ctx(struct perf_event_context *prev,
				  struct perf_event_context *next)
{
	static_call_cond(x86_pmu_swap_task_ctx)(prev, next);
}

/* PERF_EVENT_IOC_PERIOD: the driver's limits apply to a new period too. */
static int x86_pmu_check_period(struct perf_event *event, u64 value)
{
	if (x86_pmu.check_period && x86_pmu.check_period(event, value))
		return -EINVAL;

	if (value && x86_pmu.limit_period) {
		s64 left = value;

		x86_pmu.limit_period(event, &left);
		if (left > value)
			return -EINVAL;
	}
	return 0;
}

static int x86_pmu_aux_output_match(struct perf_event *event)
{
	if (!(x86_core_pmu.capabilities & PERF_PMU_CAP_AUX_OUTPUT))
		return 0;
	return x86_pmu.aux_output_match ? x86_pmu.aux_output_match(event) : 0;
}

static int x86_pmu_filter_match(struct perf_event *event)
{
	return x86_pmu.filter_match ? x86_pmu.filter_match(event) : 1;
}

struct pmu x86_core_pmu = {
	.pmu_enable		= x86_pmu_enable,
	.pmu_disable		= x86_pmu_disable,
	.attr_groups		= x86_pmu_attr_groups,
	.event_init		= x86_pmu_event_init,
	.event_mapped		= x86_pmu_event_mapped,
	.event_unmapped		= x86_pmu_event_unmapped,
	.add			= x86_pmu_add,
	.del			= x86_pmu_del,
	.start			= x86_pmu_start,
	.stop			= x86_pmu_stop,
	.read			= x86_pmu_read,
	.start_txn		= x86_pmu_start_txn,
	.cancel_txn		= x86_pmu_cancel_txn,
	.commit_txn		= x86_pmu_commit_txn,
	.event_idx		= x86_pmu_event_idx,
	.sched_task		= x86_pmu_sched_task,
	.swap_task_ctx		= x86_pmu_swap_task_ctx,
	.check_period		= x86_pmu_check_period,
	.aux_output_match	= x86_pmu_aux_output_match,
	.filter_match		= x86_pmu_filter_match,
};
