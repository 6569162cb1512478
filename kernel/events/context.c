// SPDX-License-Identifier: GPL-2.0
/*
 * Perf contexts: their lifetime, their per-PMU parts, their locks, and how
 * an operation reaches the CPU that owns a context.
 *
 * Owns: the per-CPU perf_cpu_ctx (one CPU context each), task contexts
 * (task->perf_event_ctxp, created on first use), struct perf_ctx_pmu
 * creation and freeing, perf_event_ctx_lock(), event_function_call().
 *
 * Locking: a task context is published under task->perf_event_mutex and
 * read under RCU; it holds no reference on its task: ctx->task is valid
 * while the task has not passed perf_event_exit_task(), which sets it to
 * TASK_TOMBSTONE under ctx->mutex and ctx->lock.  ctx->lock nests inside
 * the CPU context's lock (perf_ctx_lock()).  A perf_ctx_pmu is linked and
 * unlinked with ctx->mutex and ctx->lock held, on the CPU that owns the
 * context when it is scheduled in.
 */
#include <linux/cpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/wait_bit.h>

#include "internal.h"

DEFINE_PER_CPU(struct perf_cpu_context, perf_cpu_ctx);

/*
 * CPU contexts' locks are classes of their own: a task's ctx->lock nests
 * inside the CPU's; and the CPU-hotplug callbacks take a CPU context's
 * mutex, which must not look like the task context mutexes that fork holds
 * while it allocates (event_mutex, the hotplug lock) to lockdep.
 */
static struct lock_class_key perf_cpu_ctx_lock_key;
static struct lock_class_key perf_cpu_ctx_mutex_key;

static void perf_ctx_init(struct perf_event_context *ctx, struct task_struct *task)
{
	raw_spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mutex);
	INIT_LIST_HEAD(&ctx->pmu_ctx_list);
	INIT_LIST_HEAD(&ctx->event_list);
	refcount_set(&ctx->refcount, 1);
	ctx->task = task;
	ctx->pmu = perf_hw_context_pmu();
}

void perf_contexts_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct perf_cpu_context *cpuctx = per_cpu_ptr(&perf_cpu_ctx, cpu);

		perf_ctx_init(&cpuctx->ctx, NULL);
		lockdep_set_class(&cpuctx->ctx.lock, &perf_cpu_ctx_lock_key);
		lockdep_set_class(&cpuctx->ctx.mutex, &perf_cpu_ctx_mutex_key);
		cpuctx->cpu = cpu;
		cpuctx->task_ctx = NULL;
	}
}

struct perf_event_context *perf_ctx_alloc(struct task_struct *task)
{
	struct perf_event_context *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (ctx)
		perf_ctx_init(ctx, task);
	return ctx;
}

void perf_ctx_get(struct perf_event_context *ctx)
{
	if (ctx->task)
		refcount_inc(&ctx->refcount);
}

bool perf_ctx_tryget(struct perf_event_context *ctx)
{
	return !ctx->task || refcount_inc_not_zero(&ctx->refcount);
}

void perf_ctx_put(struct perf_event_context *ctx)
{
	struct perf_ctx_pmu *cpmu, *tmp;

	if (!ctx->task)		/* CPU contexts live forever */
		return;
	if (!refcount_dec_and_test(&ctx->refcount)) {
		/* a failed fork waits for its copies (perf_event_free_task()) */
		if (READ_ONCE(ctx->task) == TASK_TOMBSTONE &&
		    refcount_read(&ctx->refcount) == 1) {
			/* the count before the waiter's check of its queue */
			smp_mb();
			wake_up_var(&ctx->refcount);
		}
		return;
	}
	/* every pin comes with a reference: one left is a leaked pin */
	WARN_ON_ONCE(ctx->pin_count);
	/* only empty parts that stayed (perf_ctx_pmu_keep()) are left */
	list_for_each_entry_safe(cpmu, tmp, &ctx->pmu_ctx_list, node) {
		WARN_ON_ONCE(cpmu->nr_events || !perf_ctx_pmu_keep(cpmu));
		kfree(cpmu);
	}
	/* a clone's reference on its root (ctx_swap.c); a root has none */
	if (ctx->parent_ctx)
		perf_ctx_put(ctx->parent_ctx);
	kfree_rcu(ctx, rcu_head);
}

struct perf_event_context *perf_find_get_context(struct task_struct *task, int cpu)
{
	struct perf_event_context *ctx, *fresh = NULL;

	if (!task) {
		if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu))
			return ERR_PTR(-EINVAL);
		return &per_cpu(perf_cpu_ctx, cpu).ctx;
	}

	for (;;) {
		/* no clone any more, pinned: it stays @task's (ctx_swap.c) */
		ctx = perf_task_ctx_hold(task);
		if (ctx)
			break;

		if (!fresh) {
			fresh = perf_ctx_alloc(task);
			if (!fresh)
				return ERR_PTR(-ENOMEM);
		}
		mutex_lock(&task->perf_event_mutex);
		if (task->flags & PF_EXITING) {
			mutex_unlock(&task->perf_event_mutex);
			kfree(fresh);
			return ERR_PTR(-ESRCH);
		}
		if (!rcu_access_pointer(task->perf_event_ctxp)) {
			/* one reference for the task, one for the caller */
			refcount_set(&fresh->refcount, 2);
			/* held like a found one: a fork may clone it now */
			fresh->pin_count = 1;
			rcu_assign_pointer(task->perf_event_ctxp, fresh);
			ctx = fresh;
			fresh = NULL;
		}
		mutex_unlock(&task->perf_event_mutex);
		if (ctx)
			break;
	}
	kfree(fresh);
	return ctx;
}

struct perf_event_context *perf_event_ctx_lock(struct perf_event *event)
{
	struct perf_event_context *ctx;

	for (;;) {
		rcu_read_lock();
		ctx = READ_ONCE(event->ctx);
		if (!perf_ctx_tryget(ctx)) {
			rcu_read_unlock();
			continue;
		}
		rcu_read_unlock();
		mutex_lock(&ctx->mutex);
		if (READ_ONCE(event->ctx) == ctx)
			return ctx;
		mutex_unlock(&ctx->mutex);
		perf_ctx_put(ctx);
	}
}

void perf_event_ctx_unlock(struct perf_event *event, struct perf_event_context *ctx)
{
	mutex_unlock(&ctx->mutex);
	perf_ctx_put(ctx);
}

/* The CPU of a CPU context. */
static int perf_cpu_ctx_cpu(struct perf_event_context *ctx)
{
	return container_of(ctx, struct perf_cpu_context, ctx)->cpu;
}

struct perf_ctx_pmu *perf_ctx_pmu_get(struct perf_event_context *ctx, struct pmu *pmu)
{
	struct perf_ctx_pmu *cpmu;
	unsigned long flags;

	lockdep_assert_held(&ctx->mutex);
	list_for_each_entry(cpmu, &ctx->pmu_ctx_list, node)
		if (cpmu->pmu == pmu)
			return cpmu;

	cpmu = kzalloc(sizeof(*cpmu), GFP_KERNEL);
	if (!cpmu)
		return NULL;
	cpmu->ctx = ctx;
	cpmu->pmu = pmu;
	/*
	 * A task context keeps the part of a core software PMU when the
	 * part's last event goes, until the context is freed (see
	 * perf_ctx_pmu_keep()): those PMUs never go away, and a task that
	 * opens and closes such an event again and again (a tool polling a
	 * counter) then allocates nothing but the event.  Any other part
	 * goes with its last event: a module's PMU may be unregistered.
	 */
	cpmu->keep_when_empty = ctx->task && perf_pmu_is_core_sw(pmu);
	INIT_LIST_HEAD(&cpmu->pinned);
	INIT_LIST_HEAD(&cpmu->flexible);
	INIT_LIST_HEAD(&cpmu->idle);
	INIT_LIST_HEAD(&cpmu->active);

	raw_spin_lock_irqsave(&ctx->lock, flags);
	list_add_tail(&cpmu->node, &ctx->pmu_ctx_list);
	if (!ctx->task) {
		int cpu = perf_cpu_ctx_cpu(ctx);

		/* read by that CPU under this (its CPU context's) lock */
		per_cpu_ptr(pmu->cpu_pmu, cpu)->cpu_part = cpmu;
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return cpmu;
}

/*
 * Unlink an empty part: on the CPU owning the context, or with the
 * context not scheduled anywhere.  Freed by the caller after unlocking.
 */
void perf_ctx_pmu_unlink_locked(struct perf_ctx_pmu *cpmu)
{
	struct perf_event_context *ctx = cpmu->ctx;

	lockdep_assert_held(&ctx->lock);
	list_del_init(&cpmu->node);
	if (!ctx->task) {
		int cpu = perf_cpu_ctx_cpu(ctx);

		per_cpu_ptr(cpmu->pmu->cpu_pmu, cpu)->cpu_part = NULL;
	} else if (cpmu->scheduled) {
		struct perf_cpu_pmu *cp = this_cpu_ptr(cpmu->pmu->cpu_pmu);

		if (cp->task_part == cpmu)
			cp->task_part = NULL;
	}
}

void perf_ctx_lock(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx)
{
	raw_spin_lock(&cpuctx->ctx.lock);
	if (ctx && ctx != &cpuctx->ctx)
		raw_spin_lock(&ctx->lock);
}

void perf_ctx_unlock(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx)
{
	if (ctx && ctx != &cpuctx->ctx)
		raw_spin_unlock(&ctx->lock);
	raw_spin_unlock(&cpuctx->ctx.lock);
}

struct remote_call {
	struct task_struct	*task;
	remote_function_f	func;
	void			*info;
	int			ret;
};

static void perf_remote_call(void *data)
{
	struct remote_call *rc = data;

	if (rc->task && rc->task != current) {
		rc->ret = -EAGAIN;
		return;
	}
	rc->ret = rc->func(rc->info);
}

int perf_task_function_call(struct task_struct *task, remote_function_f func, void *info)
{
	struct remote_call rc = { .task = task, .func = func, .info = info, .ret = -ESRCH };
	int ret;

	for (;;) {
		if (!task_curr(task))
			return -ESRCH;
		ret = smp_call_function_single(task_cpu(task), perf_remote_call, &rc, 1);
		if (!ret)
			ret = rc.ret;
		if (ret != -EAGAIN)
			return ret;
		cond_resched();
	}
}

int perf_cpu_function_call(int cpu, remote_function_f func, void *info)
{
	struct remote_call rc = { .func = func, .info = info, .ret = -ENXIO };
	int ret;

	ret = smp_call_function_single(cpu, perf_remote_call, &rc, 1);
	return ret ? ret : rc.ret;
}

/*
 * Stop @event on this CPU, where it runs (IRQs off), and with @restart
 * start it again at once: a PMU syncs what changed at its start (address
 * filters).  One its PMU stopped already (throttled, AUX area full) stays
 * as it is; it syncs when it starts.
 */
void perf_event_stop_here(struct perf_event *event, bool restart)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	event->pmu->stop(event, PERF_EF_UPDATE);
	if (restart)
		event->pmu->start(event, 0);
}

struct perf_stop_call {
	struct perf_event	*event;
	bool			restart;
	bool			moved;
};

static void perf_event_stop_ipi(void *info)
{
	struct perf_stop_call *call = info;
	struct perf_event *event = call->event;

	call->moved = false;
	if (READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE)
		return;
	if (READ_ONCE(event->oncpu) != smp_processor_id()) {
		call->moved = true;
		return;
	}
	perf_event_stop_here(event, call->restart);
}

void perf_event_stop_where_it_runs(struct perf_event *event, bool restart)
{
	struct perf_stop_call call = { .event = event, .restart = restart };
	int cpu;

	do {
		if (READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE)
			return;
		cpu = READ_ONCE(event->oncpu);
		if (cpu < 0) {
			/* between its state and its CPU at sched-in or out */
			cpu_relax();
			call.moved = true;
			continue;
		}
		if (smp_call_function_single(cpu, perf_event_stop_ipi, &call, 1))
			return;
	} while (call.moved);
}

struct event_function_args {
	struct perf_event	*event;
	event_f			func;
	void			*data;
};

/*
 * On the CPU that should own the event's context, IRQs off: make sure the
 * context is scheduled in here, then run the function with it locked.
 */
static int event_function_remote(void *info)
{
	struct event_function_args *efa = info;
	struct perf_event *event = efa->event;
	struct perf_event_context *ctx = event->ctx;
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct task_struct *task = READ_ONCE(ctx->task);

	lockdep_assert_irqs_disabled();
	if (task) {
		perf_ctx_lock(cpuctx, ctx);
		/*
		 * Stable under ctx->lock.  Not current's (any more: exit, or
		 * a swap gave it to another task): the caller looks again.
		 */
		if (ctx->task != current) {
			perf_ctx_unlock(cpuctx, ctx);
			return -ESRCH;
		}
		if (cpuctx->task_ctx != ctx) {
			if (cpuctx->task_ctx) {
				perf_ctx_unlock(cpuctx, ctx);
				return -EAGAIN;
			}
			/* created after the task was scheduled in */
			perf_ctx_sched_in(cpuctx, ctx);
		}
		efa->func(event, cpuctx, ctx, efa->data);
		perf_ctx_unlock(cpuctx, ctx);
		return 0;
	}

	if (WARN_ON_ONCE(ctx != &cpuctx->ctx))
		return -EINVAL;
	perf_ctx_lock(cpuctx, cpuctx->task_ctx);
	if (!ctx->is_active && cpuctx->online)
		perf_ctx_sched_in(cpuctx, ctx);
	efa->func(event, cpuctx, ctx, efa->data);
	perf_ctx_unlock(cpuctx, cpuctx->task_ctx);
	return 0;
}

void event_function_call(struct perf_event *event, event_f func, void *data)
{
	struct event_function_args efa = { .event = event, .func = func, .data = data };
	struct perf_event_context *ctx = event->ctx;
	struct task_struct *task = READ_ONCE(ctx->task);

	if (!task) {
		int cpu = perf_cpu_ctx_cpu(ctx);

		if (cpu_online(cpu) &&
		    !perf_cpu_function_call(cpu, event_function_remote, &efa))
			return;
		/* CPU offline: nothing runs there, its context is out */
		raw_spin_lock_irq(&ctx->lock);
		func(event, NULL, ctx, data);
		raw_spin_unlock_irq(&ctx->lock);
		return;
	}

	/* the caller's own context: this CPU owns it, no cross-CPU call */
	if (task == current) {
		int ret;

		local_irq_disable();
		ret = event_function_remote(&efa);
		local_irq_enable();
		if (!ret)
			return;
	}

	for (;;) {
		if (task != TASK_TOMBSTONE &&
		    !perf_task_function_call(task, event_function_remote, &efa))
			return;

		raw_spin_lock_irq(&ctx->lock);
		task = ctx->task;
		if (task != TASK_TOMBSTONE && (ctx->is_active || task_curr(task))) {
			/* it is running somewhere: go there */
			raw_spin_unlock_irq(&ctx->lock);
			cond_resched();
			continue;
		}
		func(event, NULL, ctx, data);
		raw_spin_unlock_irq(&ctx->lock);
		return;
	}
}

void event_function_local(struct perf_event *event, event_f func, void *data)
{
	struct perf_event_context *ctx = event->ctx;
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct task_struct *task = READ_ONCE(ctx->task);
	struct perf_event_context *task_ctx = NULL;

	lockdep_assert_irqs_disabled();
	if (task) {
		if (task == TASK_TOMBSTONE)
			return;
		task_ctx = ctx;
	}
	perf_ctx_lock(cpuctx, task_ctx ? task_ctx : cpuctx->task_ctx);
	if (task && (task != current || cpuctx->task_ctx != ctx))
		goto unlock;
	if (!task && WARN_ON_ONCE(ctx != &cpuctx->ctx))
		goto unlock;
	func(event, cpuctx, ctx, data);
unlock:
	perf_ctx_unlock(cpuctx, task_ctx ? task_ctx : cpuctx->task_ctx);
}
