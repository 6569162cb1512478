// SPDX-License-Identifier: GPL-2.0
/*
 * The context-switch hooks of the scheduler: __perf_event_task_sched_out()
 * takes the outgoing task's context off this CPU (or swaps it with the
 * incoming task's twin, ctx_swap.c), __perf_event_task_sched_in() puts the
 * incoming task's context on; the sched_task callbacks that PMUs ask for
 * (perf_sched_cb_inc(), LBR call stacks); and the tick's hook (the rule
 * that a running task with events has its context scheduled in,
 * throttling and frequency mode in overflow.c).
 *
 * Locking: the scheduler calls the hooks with IRQs off and, for sched_in,
 * the runqueue lock held: nothing here may print directly (a console that
 * waits for that lock would hang) or sleep.  Contexts are taken with
 * perf_ctx_lock() (the CPU context's lock, then the task context's).  The
 * per-CPU list of sched_task PMUs changes under the CPU context's lock.
 */
#include <linux/printk.h>
#include <linux/sched.h>

#include "internal.h"

/* PMUs of this CPU that asked for a sched_task callback (perf_sched_cb_inc()) */
static DEFINE_PER_CPU(struct list_head, sched_cb_list);
static DEFINE_PER_CPU(int, sched_cb_inited);

static void __perf_pmu_sched_task(struct task_struct *prev, struct task_struct *next,
				  bool sched_in);

/* Run the sched_task callbacks of PMUs that asked for them (context switch). */
static __always_inline void perf_pmu_sched_task(struct task_struct *prev,
						struct task_struct *next, bool sched_in)
{
	if (this_cpu_read(sched_cb_inited) && !list_empty(this_cpu_ptr(&sched_cb_list)))
		__perf_pmu_sched_task(prev, next, sched_in);
}

void __perf_event_task_sched_out(struct task_struct *prev, struct task_struct *next)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *ctx = rcu_dereference_raw(prev->perf_event_ctxp);

	perf_record_switch(prev, next, false);
	perf_pmu_sched_task(prev, next, false);
	if (!ctx || cpuctx->task_ctx != ctx)
		return;
	/* a twin of @next's context stays on, for @next (ctx_swap.c) */
	if (perf_ctx_try_swap(ctx, prev, next))
		return;
	perf_ctx_lock(cpuctx, ctx);
	perf_ctx_sched_out(cpuctx, ctx);
	perf_ctx_unlock(cpuctx, ctx);
}

void __perf_event_task_sched_in(struct task_struct *prev, struct task_struct *task)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *ctx = rcu_dereference_raw(task->perf_event_ctxp);

	/* CPU events of the new task's cgroup go on before its own events */
	if (perf_cpu_has_cgroup_events(cpuctx))
		perf_cgroup_switch();
	/*
	 * nr_events is read under ctx->lock: an install that found the task
	 * not running did so under that lock, so either it sees the task
	 * current now and goes through the IPI, or we see its event here.
	 */
	if (ctx && cpuctx->task_ctx != ctx) {	/* not swapped in */
		perf_ctx_lock(cpuctx, ctx);
		if (ctx->nr_events && ctx->task == task) {
			/*
			 * The previous task's context went out with it (or was
			 * empty).  The runqueue lock is held: a console
			 * printing now could wait for it, so report deferred.
			 */
			if (likely(!cpuctx->task_ctx)) {
				perf_ctx_sched_in(cpuctx, ctx);
			} else {
				printk_deferred_enter();
				WARN_ON_ONCE(1);
				printk_deferred_exit();
			}
		}
		perf_ctx_unlock(cpuctx, ctx);
	}
	perf_pmu_sched_task(prev, task, true);
	perf_record_switch(task, prev, true);
}

/* ---- sched_task callbacks ------------------------------------------------------ */

void perf_sched_cb_inc(struct pmu *pmu)
{
	struct perf_cpu_pmu *cp;

	if (!pmu || !pmu->cpu_pmu)
		return;
	cp = this_cpu_ptr(pmu->cpu_pmu);
	if (!this_cpu_read(sched_cb_inited)) {
		INIT_LIST_HEAD(this_cpu_ptr(&sched_cb_list));
		this_cpu_write(sched_cb_inited, 1);
	}
	if (!cp->sched_cb_usage++)
		list_add(&cp->sched_cb_entry, this_cpu_ptr(&sched_cb_list));
}

void perf_sched_cb_dec(struct pmu *pmu)
{
	struct perf_cpu_pmu *cp;

	if (!pmu || !pmu->cpu_pmu)
		return;
	cp = this_cpu_ptr(pmu->cpu_pmu);
	if (!--cp->sched_cb_usage)
		list_del(&cp->sched_cb_entry);
}

bool perf_sched_cb_active(void)
{
	return this_cpu_read(sched_cb_inited) && !list_empty(this_cpu_ptr(&sched_cb_list));
}

static void __perf_pmu_sched_task(struct task_struct *prev, struct task_struct *next,
				  bool sched_in)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_cpu_pmu *cp;

	list_for_each_entry(cp, this_cpu_ptr(&sched_cb_list), sched_cb_entry) {
		if (!cp->pmu->sched_task)
			continue;
		perf_ctx_lock(cpuctx, cpuctx->task_ctx);
		perf_pmu_disable(cp->pmu);
		cp->pmu->sched_task(cpuctx->task_ctx, sched_in);
		perf_pmu_enable(cp->pmu);
		perf_ctx_unlock(cpuctx, cpuctx->task_ctx);
	}
}

/* ---- tick ------------------------------------------------------ */

/*
 * A running task with events has its context scheduled in on its CPU.  The
 * tick checks that rule (a lost sched-in would leave a spinning task's
 * events uncounted until its next switch) and repairs a breach after
 * warning once.
 */
static void perf_check_current_ctx(void)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *ctx = rcu_dereference_raw(current->perf_event_ctxp);

	if (!ctx || cpuctx->task_ctx == ctx || !READ_ONCE(ctx->nr_events))
		return;
	perf_ctx_lock(cpuctx, ctx);
	if (ctx->nr_events && ctx->task == current && !cpuctx->task_ctx) {
		WARN_ONCE(1, "perf: the running task's context is not scheduled in\n");
		perf_ctx_sched_in(cpuctx, ctx);
	}
	perf_ctx_unlock(cpuctx, ctx);
}

void perf_ctx_walk_active_groups(struct perf_event_context *ctx, perf_group_fn fn,
				 void *data)
{
	struct perf_ctx_pmu *cpmu;
	struct perf_event *leader;

	list_for_each_entry(cpmu, &ctx->pmu_ctx_list, node) {
		list_for_each_entry(leader, &cpmu->active, active_list)
			fn(leader, data);
	}
}

void perf_event_task_tick(void)
{
	lockdep_assert_irqs_disabled();
	perf_check_current_ctx();
	perf_overflow_tick();
	/* part 2: frequency adjustment */
}
