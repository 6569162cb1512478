// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug: making a CPU's context usable when the CPU comes up, and
 * emptying it when the CPU goes down; and perf_pmu_migrate_context(), which
 * PMU drivers call from their own hotplug callbacks.
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
 * it up from perf_event_init().  A reboot notifier takes every online CPU
 * down the same way before reboot or kexec.
 *
 * Locking: the CPU context's ctx->mutex around the whole transition (so
 * syscall.c's online check under that mutex sees a stable answer);
 * online is written under ctx->lock too, on the CPU, since
 * event_function_call() reads it there.  A migration holds both CPU
 * contexts' mutexes, the one at the lower address first.
 */
#include <linux/cpu.h>
#include <linux/notifier.h>
#include <linux/reboot.h>
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

/* ---- moving a PMU's events to another CPU ------------------------------- */

/* The first group of @pmu in CPU context @ctx, or NULL. */
static struct perf_event *first_group_of(struct perf_event_context *ctx, struct pmu *pmu)
{
	struct perf_event *event;

	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->group_leader == event && event->ctx_pmu->pmu == pmu)
			return event;
	}
	return NULL;
}

/* Take @event out of its CPU context; it keeps its count, times and state. */
static void migrate_out(struct perf_event *event)
{
	/* a member leaves its group; migrate_in() links it again */
	perf_remove_from_context(event, DETACH_MOVE | DETACH_GROUP);
	perf_ctx_put(event->ctx);
}

/* Put @event into CPU @cpu's context; one in error gets another chance. */
static void migrate_in(struct perf_event *event, struct perf_event_context *ctx, int cpu)
{
	if (event->state == PERF_EVENT_STATE_ERROR)
		event->state = PERF_EVENT_STATE_INACTIVE;
	/* a member whose leader could not join goes on alone */
	if (event->group_leader != event &&
	    !(event->group_leader->attach_state & PERF_ATTACH_CONTEXT))
		event->group_leader = event;
	event->cpu = cpu;
	perf_ctx_get(ctx);
	/* out of memory: it stays out of any context, as after a hotplug */
	if (WARN_ON_ONCE(perf_install_in_context(ctx, event, cpu)))
		perf_ctx_put(ctx);
}

/*
 * Move every group of @pmu from CPU @src_cpu's context to @dst_cpu's, as
 * uncore drivers do when the CPU that reads their counters goes offline.
 * A group moves whole, members out before their leader and in after it;
 * each event keeps its file, count, times and whether it is enabled.  All
 * leave before any joins, with an RCU grace period between: lock-free
 * readers of the old CPU's lists (software events) may still be walking
 * past a moved event.
 */
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu)
{
	struct perf_event_context *src = &per_cpu_ptr(&perf_cpu_ctx, src_cpu)->ctx;
	struct perf_event_context *dst = &per_cpu_ptr(&perf_cpu_ctx, dst_cpu)->ctx;
	struct perf_event *leader, *event, *tmp;
	LIST_HEAD(moved);		/* each leader, then its members */

	if (src == dst)
		return;
	if (src < dst) {
		mutex_lock(&src->mutex);
		mutex_lock_nested(&dst->mutex, SINGLE_DEPTH_NESTING);
	} else {
		mutex_lock(&dst->mutex);
		mutex_lock_nested(&src->mutex, SINGLE_DEPTH_NESTING);
	}
	while ((leader = first_group_of(src, pmu))) {
		LIST_HEAD(members);

		list_for_each_entry(event, &leader->sibling_list, sibling_list)
			list_add_tail(&event->migrate_entry, &members);
		list_for_each_entry(event, &members, migrate_entry) {
			migrate_out(event);
			/* linked to it again by migrate_in() */
			event->group_leader = leader;
		}
		migrate_out(leader);
		list_add_tail(&leader->migrate_entry, &moved);
		list_splice_tail(&members, &moved);
	}
	if (!list_empty(&moved))
		synchronize_rcu();
	list_for_each_entry_safe(event, tmp, &moved, migrate_entry) {
		list_del_init(&event->migrate_entry);
		migrate_in(event, dst, dst_cpu);
	}
	mutex_unlock(&src->mutex);
	mutex_unlock(&dst->mutex);
}
EXPORT_SYMBOL_GPL(perf_pmu_migrate_context);

/*
 * Reboot and kexec: quiesce every CPU context as if its CPU went down, so
 * that no counter runs or interrupts into the next kernel.
 */
static int perf_reboot(struct notifier_block *nb, unsigned long action, void *data)
{
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		perf_event_exit_cpu(cpu);
	cpus_read_unlock();
	return NOTIFY_OK;
}

static struct notifier_block perf_reboot_notifier = {
	.notifier_call	= perf_reboot,
	.priority	= INT_MIN,	/* after everyone else's */
};

void __init perf_hotplug_init(void)
{
	perf_event_init_cpu(smp_processor_id());
	register_reboot_notifier(&perf_reboot_notifier);
}
