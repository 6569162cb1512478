// SPDX-License-Identifier: GPL-2.0
/*
 * Multiplexing: when more flexible groups want a PMU than fit on it, they
 * take turns.  Owns the per-PMU, per-CPU hrtimer that ends the turns, the
 * order the flexible groups of a part are tried in, and whose part goes
 * first.
 *
 * Policy (Documentation/perf_events/core-design.rst, "Multiplexing"; 6.1
 * moves one group to the tail per interval and tries no group after the
 * first that does not fit):
 *  - a turn ends with the flexible groups on the PMU longest making room
 *    for the first that waits: they go to the tail of the list, oldest
 *    first, until they hold as many events as it does.  Singles then run
 *    in a window that slides by one a turn (each stays on for several
 *    turns in a row: a longer stretch of a periodic workload, a smaller
 *    error of its estimate than a turn at a time), and a big group goes
 *    on as soon as it is first in line (in 6.1 a group as big as the PMU
 *    waits until it is at the head of the list, and only then runs);
 *    if that group still waits at the next turn's end, or is exclusive,
 *    every group that ran makes room;
 *  - within a turn, groups go on first fit (group_sched.c): after a group
 *    that does not fit, smaller ones are still tried;
 *  - a turn lasts an interval drawn uniformly from [1/2, 3/2) of
 *    perf_event_mux_interval_ms, so that the turns do not alias with a
 *    periodic workload (the mean is the interval the user set);
 *  - a turn is measured in its part's context time (mux_turn_end): the
 *    timer rotates the parts whose turn is over, and a task switched out
 *    after its turn is over rotates then (6.1's timer may always find a
 *    task that works in bursts shorter than the interval asleep);
 *  - while the groups of both the CPU and the task context are left out,
 *    the task's flexible groups go before the CPU's every other turn (in
 *    6.1 CPU flexible groups that fill the PMU starve the task's); the
 *    CPU's groups they keep off stay off until that turn ends, also while
 *    the task is switched out (back on at once, they would run more while
 *    the task sleeps than while it works, and their estimates of a
 *    working task would fall short).
 * The timer runs only while a part scheduled on its CPU needs rotation
 * (group_sched.c sets rotate_necessary and starts it) and fires when the
 * first running turn ends; each expiry rotates the parts whose turn is
 * over (group_sched.c's perf_cpmu_rotate()), is set for the next end, and
 * stops when nothing needs rotation any more.
 *
 * Locking: cp->timer_lock (raw, IRQs off) guards timer_active and the
 * interval; the rotation itself takes the CPU context's lock, then the
 * task context's.  The timer is pinned to its CPU (HRTIMER_MODE_ABS_PINNED_HARD).
 * The policy's state (the lists' order, mux_turn_end, task_first,
 * mux_seed) is touched only on the CPU, with IRQs off, under the
 * contexts' locks.
 */
#include <linux/hrtimer.h>
#include <linux/math64.h>

#include "internal.h"

#define PERF_MUX_DEFAULT_MS	4

/*
 * The length of the next turn: uniform in [interval / 2, 3 * interval / 2),
 * from a per-CPU xorshift generator (repeatable runs under -icount).
 */
static u64 perf_mux_next_interval(struct perf_cpu_pmu *cp)
{
	u64 ns = ktime_to_ns(READ_ONCE(cp->interval));
	u32 x = cp->mux_seed;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	cp->mux_seed = x;
	return ns / 2 + mul_u64_u32_shr(ns, x, 32);
}

/* The first flexible group of @cpmu that waits for the PMU here, or NULL. */
static struct perf_event *perf_mux_first_waiting(struct perf_ctx_pmu *cpmu)
{
	struct perf_event *leader;

	list_for_each_entry(leader, &cpmu->flexible, group_entry) {
		if (perf_group_may_run_here(leader))
			return leader;
	}
	return NULL;
}

/*
 * End the turn of @cpmu's flexible groups (before they come off): the
 * groups on the PMU longest go to the tail of the list, in order, until
 * they hold as many events as the first group that waits, which then goes
 * on.  The list keeps the groups on the PMU in the order they went on, the
 * oldest first.  All that ran go if that group waited through the last
 * turn's end already (the room made was not room for it: counter
 * constraints, another context's groups) or is exclusive, and if none
 * waits.  If none ran (all left out by pinned or exclusive groups, or by
 * the other context's), the first that may run here goes to the tail, as
 * in 6.1.
 */
void perf_mux_rotate_part(struct perf_ctx_pmu *cpmu, struct perf_cpu_pmu *cp)
{
	struct perf_event *leader, *tmp, *next = perf_mux_first_waiting(cpmu);
	int room = INT_MAX;
	LIST_HEAD(ran);

	if (next && next != cpmu->mux_target && !next->attr.exclusive)
		room = next->nr_siblings + 1;
	cpmu->mux_target = next;
	list_for_each_entry_safe(leader, tmp, &cpmu->flexible, group_entry) {
		if (room <= 0)
			break;
		if (list_empty(&leader->active_list))
			continue;
		list_move_tail(&leader->group_entry, &ran);
		room -= leader->nr_siblings + 1;
	}
	if (list_empty(&ran) && next)
		list_move_tail(&next->group_entry, &cpmu->flexible);
	list_splice_tail(&ran, &cpmu->flexible);
	cpmu->mux_turn_end = cpmu->ctx->clock.time + perf_mux_next_interval(cp);
}

/*
 * A group of @cpmu was left out: unless a turn runs already, the one of the
 * groups now on ends an interval from now (mux_turn_end 0: no turn runs).
 */
void perf_mux_start_turn(struct perf_ctx_pmu *cpmu, struct perf_cpu_pmu *cp)
{
	if (!cpmu->mux_turn_end)
		cpmu->mux_turn_end = cpmu->ctx->clock.time + perf_mux_next_interval(cp);
}

static bool perf_part_has_flexible_on(struct perf_ctx_pmu *cpmu)
{
	struct perf_event *leader;

	list_for_each_entry(leader, &cpmu->active, active_list) {
		if (!leader->attr.pinned)
			return true;
	}
	return false;
}

/*
 * At the end of a turn: the task part's flexible groups go first in the
 * next one if they went second in this one while both parts had groups
 * left out, or while the CPU part's kept all of the task part's out.
 */
void perf_mux_pick_first_part(struct perf_cpu_pmu *cp)
{
	struct perf_ctx_pmu *task = cp->task_part, *cpu = cp->cpu_part;

	if (!task || !task->rotate_necessary || !cpu || cp->task_first) {
		cp->task_first = false;
		return;
	}
	cp->task_first = cpu->rotate_necessary || !perf_part_has_flexible_on(task);
	if (cp->task_first && !perf_part_has_flexible_on(cpu))
		cp->task_first = false;
}

static bool perf_cpu_pmu_needs_rotation(struct perf_cpu_pmu *cp)
{
	return (cp->cpu_part && cp->cpu_part->rotate_necessary) ||
	       (cp->task_part && cp->task_part->rotate_necessary);
}

/* Never sooner than this: a turn that just ended is not checked in a loop. */
#define PERF_MUX_MIN_NS	50000

/*
 * Nanoseconds until the first running turn of @cp's parts ends (their
 * clocks are current); a fresh interval if none runs.
 */
static u64 perf_mux_until_next_turn(struct perf_cpu_pmu *cp)
{
	struct perf_ctx_pmu *parts[2] = { cp->cpu_part, cp->task_part };
	u64 next = U64_MAX;
	int i;

	for (i = 0; i < 2; i++) {
		struct perf_ctx_pmu *cpmu = parts[i];
		u64 now, left;

		if (!cpmu || !cpmu->rotate_necessary || !cpmu->mux_turn_end)
			continue;
		now = cpmu->ctx->clock.time;
		left = cpmu->mux_turn_end > now ? cpmu->mux_turn_end - now : 0;
		next = min(next, left);
	}
	if (next == U64_MAX)
		return perf_mux_next_interval(cp);
	return max_t(u64, next, PERF_MUX_MIN_NS);
}

static enum hrtimer_restart perf_mux_timer_fn(struct hrtimer *timer)
{
	struct perf_cpu_pmu *cp = container_of(timer, struct perf_cpu_pmu, timer);
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	u64 next = 0;
	bool again;

	lockdep_assert_irqs_disabled();
	perf_ctx_lock(cpuctx, cpuctx->task_ctx);
	/* the parts whose turn is over rotate; then wait for the next end */
	if (perf_cpu_pmu_needs_rotation(cp))
		perf_cpmu_rotate(cp, false);
	again = perf_cpu_pmu_needs_rotation(cp);
	if (again)
		next = perf_mux_until_next_turn(cp);
	perf_ctx_unlock(cpuctx, cpuctx->task_ctx);

	raw_spin_lock(&cp->timer_lock);
	if (again) {
		hrtimer_forward_now(timer, ns_to_ktime(next));
		ret = HRTIMER_RESTART;
	} else {
		cp->timer_active = false;
	}
	raw_spin_unlock(&cp->timer_lock);
	return ret;
}

void perf_cpu_pmu_init(struct perf_cpu_pmu *cp, struct pmu *pmu, int cpu)
{
	int ms = pmu->hrtimer_interval_ms;

	if (ms <= 0)
		ms = PERF_MUX_DEFAULT_MS;
	cp->pmu = pmu;
	cp->cpu = cpu;
	INIT_LIST_HEAD(&cp->sched_cb_entry);
	raw_spin_lock_init(&cp->timer_lock);
	hrtimer_init(&cp->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	cp->timer.function = perf_mux_timer_fn;
	cp->interval = ms_to_ktime(ms);
	/* any non-zero seed; one per CPU */
	cp->mux_seed = (cpu + 1) * 2654435761u | 1;
}

/*
 * A part of @cp needs rotation (its caller holds the contexts' locks):
 * unless the timer runs, it fires when the first turn ends.  A timer that
 * runs already fires at the end it was set for, and then at the next.
 */
void perf_cpu_pmu_start_timer(struct perf_cpu_pmu *cp)
{
	unsigned long flags;

	/* software PMUs never run out of counters */
	if (cp->pmu->task_ctx_nr == perf_sw_context)
		return;
	raw_spin_lock_irqsave(&cp->timer_lock, flags);
	if (!cp->timer_active) {
		cp->timer_active = true;
		hrtimer_start(&cp->timer, ns_to_ktime(perf_mux_until_next_turn(cp)),
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	raw_spin_unlock_irqrestore(&cp->timer_lock, flags);
}

void perf_cpu_pmu_set_interval(struct pmu *pmu, int ms)
{
	int cpu;

	if (ms <= 0)
		ms = PERF_MUX_DEFAULT_MS;
	pmu->hrtimer_interval_ms = ms;
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		struct perf_cpu_pmu *cp = per_cpu_ptr(pmu->cpu_pmu, cpu);
		unsigned long flags;

		raw_spin_lock_irqsave(&cp->timer_lock, flags);
		cp->interval = ms_to_ktime(ms);
		raw_spin_unlock_irqrestore(&cp->timer_lock, flags);
	}
	cpus_read_unlock();
}
