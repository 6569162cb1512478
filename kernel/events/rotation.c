// SPDX-License-Identifier: GPL-2.0
/*
 * Multiplexing: the per-PMU, per-CPU hrtimer that rotates flexible groups
 * when more of them want a PMU than fit on it.
 *
 * Owns: struct perf_cpu_pmu's timer fields and their interval (the PMU's
 * perf_event_mux_interval_ms).  The timer runs only while a part scheduled
 * on its CPU needs rotation (group_sched.c sets rotate_necessary and starts
 * it); each expiry rotates (group_sched.c's perf_cpmu_rotate()) and stops
 * the timer when nothing needs rotation any more.
 *
 * Locking: cp->timer_lock (raw, IRQs off) guards timer_active and the
 * interval; the rotation itself takes the CPU context's lock, then the
 * task context's.  The timer is pinned to its CPU (HRTIMER_MODE_ABS_PINNED_HARD).
 */
#include <linux/hrtimer.h>

#include "internal.h"

#define PERF_MUX_DEFAULT_MS	4

static bool perf_cpu_pmu_needs_rotation(struct perf_cpu_pmu *cp)
{
	return (cp->cpu_part && cp->cpu_part->rotate_necessary) ||
	       (cp->task_part && cp->task_part->rotate_necessary);
}

static enum hrtimer_restart perf_mux_timer_fn(struct hrtimer *timer)
{
	struct perf_cpu_pmu *cp = container_of(timer, struct perf_cpu_pmu, timer);
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	bool again;

	lockdep_assert_irqs_disabled();
	perf_ctx_lock(cpuctx, cpuctx->task_ctx);
	if (perf_cpu_pmu_needs_rotation(cp))
		perf_cpmu_rotate(cp);
	again = perf_cpu_pmu_needs_rotation(cp);
	perf_ctx_unlock(cpuctx, cpuctx->task_ctx);

	raw_spin_lock(&cp->timer_lock);
	if (again) {
		hrtimer_forward_now(timer, cp->interval);
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
}

void perf_cpu_pmu_start_timer(struct perf_cpu_pmu *cp)
{
	unsigned long flags;

	/* software PMUs never run out of counters */
	if (cp->pmu->task_ctx_nr == perf_sw_context)
		return;
	raw_spin_lock_irqsave(&cp->timer_lock, flags);
	if (!cp->timer_active) {
		cp->timer_active = true;
		hrtimer_forward_now(&cp->timer, cp->interval);
		hrtimer_start_expires(&cp->timer, HRTIMER_MODE_ABS_PINNED_HARD);
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
