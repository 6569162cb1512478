// SPDX-License-Identifier: GPL-2.0
/*
 * The in-kernel counter API: events created and driven by kernel code
 * (hardware breakpoints of ptrace and kgdb, the hard-lockup watchdog, KVM,
 * BPF readers) rather than by a file.
 *
 * Owns: perf_event_create_kernel_counter(), perf_event_release_kernel(),
 * perf_event_read_value(), perf_event_read_local(), perf_event_pause(),
 * perf_event_period() and perf_event_refresh().
 *
 * Locking: everything but perf_event_read_local() runs in process context
 * and takes the event's ctx->mutex (perf_event_ctx_lock()); changes to an
 * event that may be on its PMU run on the CPU owning its context through
 * event_function_call().  perf_event_read_local() runs with IRQs off on the
 * event's own CPU or task, takes no lock and may be called from NMI.
 */
#include <linux/export.h>
#include <linux/irqflags.h>
#include <linux/smp.h>

#include "internal.h"

struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t overflow_handler,
				 void *context)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int err;

	/* aux_output needs a group with an AUX leader: no groups here */
	if (attr->aux_output)
		return ERR_PTR(-EINVAL);

	event = perf_event_alloc(attr, cpu, task, NULL, NULL, overflow_handler, context, -1);
	if (IS_ERR(event))
		return event;

	/* an uncore-style PMU has no task contexts */
	if (task && event->pmu->task_ctx_nr == perf_invalid_context) {
		err = -EINVAL;
		goto err_event;
	}

	ctx = perf_find_get_context(task, event->cpu);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto err_event;
	}

	mutex_lock(&ctx->mutex);
	if (ctx->task == TASK_TOMBSTONE)
		err = -ESRCH;
	else if (!task && !per_cpu(perf_cpu_ctx, event->cpu).online)
		err = -ENODEV;
	else	/* hands our context reference over to the event */
		err = perf_install_in_context(ctx, event, event->cpu);
	mutex_unlock(&ctx->mutex);
	if (task)
		perf_task_ctx_unhold(ctx);
	if (!err)
		return event;

	perf_ctx_put(ctx);
err_event:
	perf_free_event(event);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(perf_event_create_kernel_counter);

int perf_event_release_kernel(struct perf_event *event)
{
	return perf_event_release(event);
}
EXPORT_SYMBOL_GPL(perf_event_release_kernel);

u64 perf_event_read_value(struct perf_event *event, u64 *enabled, u64 *running)
{
	struct perf_event_context *ctx;
	u64 count;

	ctx = perf_event_ctx_lock(event);
	count = perf_event_read_value_locked(event, enabled, running);
	perf_event_ctx_unlock(event, ctx);
	return count;
}
EXPORT_SYMBOL_GPL(perf_event_read_value);

/*
 * Read @event without sleeping or IPIs: only an event of the current task
 * or of this CPU, and not one with children (they cannot be summed here).
 * @enabled and @running may be NULL.
 */
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running)
{
	struct perf_event_context *ctx;
	unsigned long flags;
	int this_cpu, oncpu;
	int ret = 0;

	local_irq_save(flags);
	this_cpu = smp_processor_id();

	if (event->attr.inherit) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (event->attach_state & PERF_ATTACH_TASK) {
		/* a task event of another task, or bound to another CPU */
		if (event->hw.target != current ||
		    (event->cpu != -1 && event->cpu != this_cpu)) {
			ret = -EINVAL;
			goto out;
		}
	} else if (event->cpu != this_cpu) {
		ret = -EINVAL;
		goto out;
	}

	oncpu = READ_ONCE(event->oncpu);
	/* a pinned event that is not on its PMU has no count to give */
	if (event->attr.pinned && oncpu != this_cpu) {
		ret = -EBUSY;
		goto out;
	}
	if (oncpu == this_cpu && READ_ONCE(event->state) == PERF_EVENT_STATE_ACTIVE)
		event->pmu->read(event);

	*value = local64_read(&event->count);
	if (enabled || running) {
		u64 e = 0, r = 0;

		ctx = READ_ONCE(event->ctx);
		if (ctx) {
			u64 now = perf_event_clock_peek(event, perf_clock());

			perf_time_read(&event->times, READ_ONCE(event->state), now, &e, &r);
		} else {
			e = event->total_time_enabled;
			r = event->total_time_running;
		}
		if (enabled)
			*enabled = e;
		if (running)
			*running = r;
	}
out:
	local_irq_restore(flags);
	return ret;
}

/*
 * Stop @event and return its own count, optionally zeroing it; the event
 * stays disabled until perf_event_enable() (how KVM pauses a vPMC).
 */
u64 perf_event_pause(struct perf_event *event, bool reset)
{
	struct perf_event_context *ctx;
	u64 count;

	ctx = perf_event_ctx_lock(event);
	WARN_ON_ONCE(event->attr.inherit);
	_perf_event_disable(event);
	count = local64_read(&event->count);
	if (reset)
		local64_set(&event->count, 0);
	perf_event_ctx_unlock(event, ctx);
	return count;
}
EXPORT_SYMBOL_GPL(perf_event_pause);

static void perf_event_set_period(struct perf_event *event, u64 value)
{
	if (event->attr.freq) {
		event->attr.sample_freq = value;
	} else {
		event->attr.sample_period = value;
		event->hw.sample_period = value;
	}
}

/*
 * On the CPU owning the context, locks held: a new period, and a PMU that
 * counts restarted so that it takes effect with the next overflow.
 */
static void __perf_event_period(struct perf_event *event, struct perf_cpu_context *cpuctx,
				struct perf_event_context *ctx, void *data)
{
	bool active = event->state == PERF_EVENT_STATE_ACTIVE &&
		      event->oncpu == smp_processor_id();
	struct pmu *pmu = event->pmu;

	if (active) {
		perf_pmu_disable(pmu);
		pmu->stop(event, PERF_EF_UPDATE);
	}
	perf_event_set_period(event, *(u64 *)data);
	local64_set(&event->hw.period_left, 0);
	if (active) {
		pmu->start(event, PERF_EF_RELOAD);
		perf_pmu_enable(pmu);
	}
}

int perf_event_period(struct perf_event *event, u64 value)
{
	struct perf_event_context *ctx;
	int ret = 0;

	if (!is_sampling_event(event) || !value)
		return -EINVAL;
	if (event->attr.freq) {
		if (value > sysctl_perf_event_sample_rate)
			return -EINVAL;
	} else if (value & (1ULL << 63)) {
		return -EINVAL;
	}
	if (event->pmu->check_period && event->pmu->check_period(event, value))
		return -EINVAL;

	ctx = perf_event_ctx_lock(event);
	if (event->attach_state & PERF_ATTACH_CONTEXT) {
		event_function_call(event, __perf_event_period, &value);
	} else {
		/* out of its context (task gone): nothing runs it any more */
		raw_spin_lock_irq(&ctx->lock);
		perf_event_set_period(event, value);
		local64_set(&event->hw.period_left, 0);
		raw_spin_unlock_irq(&ctx->lock);
	}
	perf_event_ctx_unlock(event, ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(perf_event_period);

/* Allow @refresh more overflows, then disable again; enables @event. */
int perf_event_refresh(struct perf_event *event, int refresh)
{
	struct perf_event_context *ctx;

	if (event->attr.inherit || !is_sampling_event(event))
		return -EINVAL;

	ctx = perf_event_ctx_lock(event);
	atomic_add(refresh, &event->event_limit);
	_perf_event_enable(event);
	perf_event_ctx_unlock(event, ctx);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_refresh);
