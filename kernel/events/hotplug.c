// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug: making a CPU's context usable when the CPU comes up, and
 * emptying it when the CPU goes down.
 *
 * Owns: perf_cpu_context.online.
 *
 * kernel/cpu.c calls perf_event_init_cpu() and perf_event_exit_cpu() from
 * two states: CPUHP_PERF_PREPARE (on a control CPU, before the CPU starts
 * and after it is dead) and CPUHP_AP_PERF_ONLINE (in the CPU's own hotplug
 * thread, process context, while it is online).  So each runs twice per
 * transition and tells the two apart by cpu_online():
 *
 *   up:   PREPARE      perf_swevent_init_cpu()
 *         AP_ONLINE    perf_swevent_init_cpu() again (must be idempotent),
 *                      online = 1: events may be installed from now on
 *   down: AP_ONLINE    online = 0 and the CPU context scheduled out, on the
 *                      CPU itself; then every event taken out of the
 *                      context (state OFF: it stays open and readable with
 *                      its count frozen and is not put back on online)
 *         PREPARE      (CPU dead) the same for anything left, which runs
 *                      without IPIs since event_function_call() sees the
 *                      CPU offline; then perf_swevent_exit_cpu()
 *
 * The boot CPU never runs the hotplug states: perf_hotplug_init() brings
 * it up from perf_event_init().
 *
 * Locking: the CPU context's ctx->mutex around the whole transition (so
 * syscall.c's online check under that mutex sees a stable answer);
 * online is written under ctx->lock too, on the CPU, since
 * event_function_call() reads it there.
 */
#include <linux/cpu.h>
#include <linux/smp.h>

#include "internal.h"

/* On the CPU going down, IRQs off: stop installing and take all off the PMUs. */
static int perf_cpu_ctx_offline(void *info)
{
	struct perf_cpu_context *cpuctx = info;

	WARN_ON_ONCE(cpuctx != this_cpu_ptr(&perf_cpu_ctx));
	perf_ctx_lock(cpuctx, NULL);
	cpuctx->online = 0;
	perf_ctx_sched_out(cpuctx, &cpuctx->ctx);
	perf_ctx_unlock(cpuctx, NULL);
	return 0;
}

/* Take every event out of the CPU context of @cpu (ctx->mutex held). */
static void perf_cpu_ctx_empty(struct perf_cpu_context *cpuctx)
{
	struct perf_event_context *ctx = &cpuctx->ctx;
	struct perf_event *event, *tmp;

	lockdep_assert_held(&ctx->mutex);
	/* a removed leader's siblings become leaders further down the list */
	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry)
		perf_remove_from_context(event, DETACH_GROUP);
}

int perf_event_init_cpu(unsigned int cpu)
{
	struct perf_cpu_context *cpuctx = per_cpu_ptr(&perf_cpu_ctx, cpu);
	unsigned long flags;
	int ret;

	ret = perf_swevent_init_cpu(cpu);
	if (ret)
		return ret;

	/* only once the CPU runs: events are installed by IPI to it */
	if (!cpu_online(cpu))
		return 0;

	/* irqsave: the boot CPU's call runs with IRQs still off */
	mutex_lock(&cpuctx->ctx.mutex);
	raw_spin_lock_irqsave(&cpuctx->ctx.lock, flags);
	cpuctx->online = 1;
	raw_spin_unlock_irqrestore(&cpuctx->ctx.lock, flags);
	mutex_unlock(&cpuctx->ctx.mutex);
	return 0;
}

int perf_event_exit_cpu(unsigned int cpu)
{
	struct perf_cpu_context *cpuctx = per_cpu_ptr(&perf_cpu_ctx, cpu);
	struct perf_event_context *ctx = &cpuctx->ctx;
	bool dead = true;

	mutex_lock(&ctx->mutex);
	if (cpu_online(cpu) && !perf_cpu_function_call(cpu, perf_cpu_ctx_offline, cpuctx))
		dead = false;
	if (dead) {
		/* nothing runs there: the context cannot be on a PMU */
		raw_spin_lock_irq(&ctx->lock);
		cpuctx->online = 0;
		WARN_ON_ONCE(ctx->is_active);
		raw_spin_unlock_irq(&ctx->lock);
	}
	perf_cpu_ctx_empty(cpuctx);
	mutex_unlock(&ctx->mutex);

	if (dead)
		perf_swevent_exit_cpu(cpu);
	return 0;
}

void __init perf_hotplug_init(void)
{
	perf_event_init_cpu(smp_processor_id());
}
