// SPDX-License-Identifier: GPL-2.0
/*
 * Tracing events: the tracepoint PMU (PERF_TYPE_TRACEPOINT), the kprobe and
 * uprobe PMUs (dynamic types), delivery of a tracepoint hit to its events
 * (perf_tp_event(), perf_trace_run_bpf_submit()), breakpoint hits
 * (perf_bp_event()), and the SET_FILTER / SET_BPF back ends.
 *
 * The probe side lives in kernel/trace/trace_event_perf.c: perf_trace_init
 * and friends find the trace_event_call, and pmu->add/del (perf_trace_add,
 * perf_trace_del) put an event on the call's per-CPU list, the @head that
 * perf_tp_event() gets.  So, as for software events, an event is on the
 * list of the CPU where it is scheduled, and that list is walked under RCU
 * with preemption off by the tracepoint's own CPU.
 *
 * Locking: perf_tp_event() runs in any context with preemption off and a
 * recursion context taken by perf_trace_buf_alloc(), which it releases.
 * For a tracepoint about another task (@task, e.g. sched_stat_*) it also
 * walks that task's context under its ctx->lock, taken with a trylock:
 * the caller may already hold locks the scheduler path takes before
 * ctx->lock, so on contention that delivery is skipped.
 * perf_event_set_filter() is called with the event's ctx->mutex held and
 * drops it around the filter parser (event_mutex, then the tracepoint
 * registration's CPU hotplug lock, which the hotplug path takes before
 * ctx->mutex).
 */
#include <linux/filter.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/trace_events.h>

#include "internal.h"

/* ---- breakpoints --------------------------------------------------------- */

#ifdef CONFIG_HAVE_HW_BREAKPOINT
/* A hit of breakpoint @bp; @data is the trapping context's pt_regs. */
void perf_bp_event(struct perf_event *bp, void *data)
{
	struct perf_sample_data sample __uninitialized;
	struct pt_regs *regs = data;

	if (bp->hw.state || perf_event_excluded_at(bp, regs))
		return;
	perf_sample_data_init(&sample, bp->attr.bp_addr, 0);
	perf_swevent_event(bp, 1, &sample, regs);
}
#endif

#ifdef CONFIG_EVENT_TRACING

/* ---- tracepoint delivery --------------------------------------------------- */

/* Bit 0 of the kprobe and uprobe PMUs' config: probe the return. */
#define PERF_PROBE_CONFIG_IS_RETPROBE	BIT(0)

/* Filters of a tracing event other than its running state. */
static bool perf_tp_event_match(struct perf_event *event, void *record, struct pt_regs *regs)
{
	/* a tracepoint fires in the kernel; only uprobes have user regs */
	if (event->attr.exclude_kernel && regs && !user_mode(regs))
		return false;
	if (event->filter && !filter_match_preds(event->filter, record))
		return false;
	return true;
}

/* A sampling event's hit: the record goes into its samples as the raw payload. */
static noinline void perf_tp_deliver_sample(struct perf_event *event, u64 count, void *record,
					    int entry_size, struct pt_regs *regs)
{
	struct perf_raw_record raw = {
		.frag = {
			.data = record,
			.size = entry_size,
		},
		/* u32 size + data, padded so that the sample stays u64 aligned */
		.size = ALIGN(entry_size + sizeof(u32), sizeof(u64)) - sizeof(u32),
	};
	struct perf_sample_data data __uninitialized;

	perf_sample_data_init(&data, 0, 0);
	data.raw = &raw;
	data.sample_flags |= PERF_SAMPLE_RAW;
	perf_swevent_event(event, count, &data, regs);
}

/*
 * A counting event only counts: no sample data to set up, and no period
 * (perf_swevent_event() would add the count and return; hot).
 */
static inline void perf_tp_deliver(struct perf_event *event, u64 count, void *record,
				   int entry_size, struct pt_regs *regs)
{
	if (is_sampling_event(event))
		perf_tp_deliver_sample(event, count, record, entry_size, regs);
	else
		local64_add(count, &event->count);
}

/*
 * Tracepoint events of @task's context that count a hit concerning @task
 * raised on this CPU while @task is not running here: its enabled events
 * of that tracepoint count even though they are not on a PMU, as in 6.1.
 */
static void perf_tp_event_task(struct task_struct *task, u16 event_type, u64 count,
			       void *record, int entry_size, struct pt_regs *regs)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	unsigned long flags;
	int cpu = smp_processor_id();

	rcu_read_lock();
	ctx = rcu_dereference(task->perf_event_ctxp);
	if (!ctx || !raw_spin_trylock_irqsave(&ctx->lock, flags))
		goto out;
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->attr.type != PERF_TYPE_TRACEPOINT ||
		    event->attr.config != event_type)
			continue;
		if (event->cpu != -1 && event->cpu != cpu)
			continue;
		if (event->state < PERF_EVENT_STATE_INACTIVE)
			continue;
		/* no synchronous signal can go to another task */
		if (event->attr.sigtrap)
			continue;
		if (perf_tp_event_match(event, record, regs))
			perf_tp_deliver(event, count, record, entry_size, regs);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
out:
	rcu_read_unlock();
}

/*
 * A tracepoint hit: @record (@entry_size bytes, a struct trace_entry
 * first) counts @count on each running event of @head, this CPU's list of
 * the tracepoint's events, and on @task's events of that tracepoint when
 * @task is another task.  Ends the recursion context @rctx.
 */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task)
{
	struct perf_event *event;

	/* common_type, flags, preempt count and pid of the record */
	perf_trace_buf_update(record, event_type);

	hlist_for_each_entry_rcu(event, head, hlist_entry) {
		if (event->hw.state & PERF_HES_STOPPED)
			continue;
		if (perf_tp_event_match(event, record, regs))
			perf_tp_deliver(event, count, record, entry_size, regs);
	}

	if (task && task != current)
		perf_tp_event_task(task, event_type, count, record, entry_size, regs);

	perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

/*
 * Run the BPF programs attached to @call first (they see the regs pointer
 * in the record's first word); a program returning 0 drops the hit.
 */
void perf_trace_run_bpf_submit(void *raw_data, int size, int rctx,
			       struct trace_event_call *call, u64 count,
			       struct pt_regs *regs, struct hlist_head *head,
			       struct task_struct *task)
{
	if (bpf_prog_array_valid(call)) {
		*(struct pt_regs **)raw_data = regs;
		if (!trace_call_bpf(call, raw_data) || hlist_empty(head)) {
			perf_swevent_put_recursion_context(rctx);
			return;
		}
	}
	perf_tp_event(call->event.type, count, raw_data, size, regs, head, rctx, task);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);

/* ---- the tracing PMUs ------------------------------------------------------ */

static void perf_tp_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void perf_tp_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

static void perf_tp_read(struct perf_event *event)
{
	/* the count is always current */
}

static int perf_tp_event_init(struct perf_event *event)
{
	int err;

	if (event->attr.type != PERF_TYPE_TRACEPOINT)
		return -ENOENT;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	/* also checks who may see raw tracepoint data (perf_allow_tracepoint) */
	err = perf_trace_init(event);
	if (err)
		return err;
	event->destroy = perf_trace_destroy;
	return 0;
}

static struct pmu perf_tracepoint_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= perf_tp_event_init,
	.add		= perf_trace_add,
	.del		= perf_trace_del,
	.start		= perf_tp_start,
	.stop		= perf_tp_stop,
	.read		= perf_tp_read,
};

#if defined(CONFIG_KPROBE_EVENTS) || defined(CONFIG_UPROBE_EVENTS)
PMU_FORMAT_ATTR(retprobe, "config:0");
#endif

#ifdef CONFIG_KPROBE_EVENTS
static struct attribute *kprobe_format_attrs[] = {
	&format_attr_retprobe.attr,
	NULL,
};

static const struct attribute_group kprobe_format_group = {
	.name	= "format",
	.attrs	= kprobe_format_attrs,
};

static const struct attribute_group *kprobe_attr_groups[] = {
	&kprobe_format_group,
	NULL,
};

static struct pmu perf_kprobe_pmu;

/* config: bit 0 retprobe; config1 function name or config2 address */
static int perf_kprobe_event_init(struct perf_event *event)
{
	int err;

	if (event->attr.type != perf_kprobe_pmu.type)
		return -ENOENT;
	if (!perfmon_capable())
		return -EACCES;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	err = perf_kprobe_init(event, event->attr.config & PERF_PROBE_CONFIG_IS_RETPROBE);
	if (err)
		return err;
	event->destroy = perf_kprobe_destroy;
	return 0;
}

static struct pmu perf_kprobe_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= perf_kprobe_event_init,
	.add		= perf_trace_add,
	.del		= perf_trace_del,
	.start		= perf_tp_start,
	.stop		= perf_tp_stop,
	.read		= perf_tp_read,
	.attr_groups	= kprobe_attr_groups,
};
#endif /* CONFIG_KPROBE_EVENTS */

#ifdef CONFIG_UPROBE_EVENTS
PMU_FORMAT_ATTR(ref_ctr_offset, "config:32-63");

static struct attribute *uprobe_format_attrs[] = {
	&format_attr_retprobe.attr,
	&format_attr_ref_ctr_offset.attr,
	NULL,
};

static const struct attribute_group uprobe_format_group = {
	.name	= "format",
	.attrs	= uprobe_format_attrs,
};

static const struct attribute_group *uprobe_attr_groups[] = {
	&uprobe_format_group,
	NULL,
};

static struct pmu perf_uprobe_pmu;

/* config: bit 0 retprobe, 32-63 ref_ctr_offset; config1 path, config2 offset */
static int perf_uprobe_event_init(struct perf_event *event)
{
	unsigned long ref_ctr_offset;
	int err;

	if (event->attr.type != perf_uprobe_pmu.type)
		return -ENOENT;
	if (!perfmon_capable())
		return -EACCES;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	ref_ctr_offset = event->attr.config >> 32;
	err = perf_uprobe_init(event, ref_ctr_offset,
			       event->attr.config & PERF_PROBE_CONFIG_IS_RETPROBE);
	if (err)
		return err;
	event->destroy = perf_uprobe_destroy;
	return 0;
}

static struct pmu perf_uprobe_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= perf_uprobe_event_init,
	.add		= perf_trace_add,
	.del		= perf_trace_del,
	.start		= perf_tp_start,
	.stop		= perf_tp_stop,
	.read		= perf_tp_read,
	.attr_groups	= uprobe_attr_groups,
};
#endif /* CONFIG_UPROBE_EVENTS */

static bool perf_event_is_tracing(struct perf_event *event)
{
	if (event->pmu == &perf_tracepoint_pmu)
		return true;
#ifdef CONFIG_KPROBE_EVENTS
	if (event->pmu == &perf_kprobe_pmu)
		return true;
#endif
#ifdef CONFIG_UPROBE_EVENTS
	if (event->pmu == &perf_uprobe_pmu)
		return true;
#endif
	return false;
}

/* ---- filters and BPF --------------------------------------------------------- */

/*
 * PERF_EVENT_IOC_SET_FILTER: a trace event filter expression for a tracing
 * event.  The string is copied first (a bad pointer is EFAULT whatever the
 * event); the parser's errors go back as they are (6.1).  An event of a
 * PMU with address filters takes address filters (addr_filters.c); any
 * other event -EINVAL.
 * Called with ctx->mutex held; see the top of the file.
 */
int perf_event_set_filter(struct perf_event *event, void __user *arg)
{
	struct perf_event_context *ctx = event->ctx;
	char *str;
	int ret;

	str = strndup_user(arg, PAGE_SIZE);
	if (IS_ERR(str))
		return PTR_ERR(str);

	ret = -EINVAL;
	if (perf_event_is_tracing(event)) {
		lockdep_assert_held(&ctx->mutex);
		mutex_unlock(&ctx->mutex);
		ret = ftrace_profile_set_filter(event, event->attr.config, str);
		mutex_lock(&ctx->mutex);
	} else if (has_addr_filter(event)) {
		ret = perf_addr_filters_set(event, str);
	}
	kfree(str);
	return ret;
}

void perf_event_free_filter(struct perf_event *event)
{
	if (perf_event_is_tracing(event))
		ftrace_profile_free_filter(event);
}

/*
 * PERF_EVENT_IOC_SET_BPF: attach @prog to a tracing event's trace call.
 * Kprobe and uprobe events take kprobe programs, tracepoints (syscall ones
 * too) tracepoint programs.  As in 6.1, before the program reaches the
 * attach code (which trusts all of this):
 *  - a sleepable program only on a uprobe (a kprobe runs atomic): -EINVAL;
 *  - a program that overrides return values (bpf_override_return()) only
 *    on a kprobe; on a uprobe it would be treated as one: -EINVAL;
 *  - a tracepoint program may not read past the record: -EACCES when the
 *    verifier's largest context offset exceeds the event's record size.
 * BPF overflow handlers of sampling events are not supported yet
 * (-EINVAL).  Without CONFIG_BPF_EVENTS the attach is -EOPNOTSUPP.
 */
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog, u64 bpf_cookie)
{
	unsigned int flags;
	bool is_probe, is_tp;

	if (!perf_event_is_tracing(event) || !event->tp_event)
		return -EINVAL;

	flags = event->tp_event->flags;
	is_probe = flags & TRACE_EVENT_FL_UKPROBE;
	is_tp = (flags & TRACE_EVENT_FL_TRACEPOINT) || is_syscall_trace_event(event->tp_event);
	if (!is_probe && !is_tp)
		return -EINVAL;
	if ((is_probe && prog->type != BPF_PROG_TYPE_KPROBE) ||
	    (is_tp && prog->type != BPF_PROG_TYPE_TRACEPOINT))
		return -EINVAL;

	if (prog->aux->sleepable && !(flags & TRACE_EVENT_FL_UPROBE))
		return -EINVAL;
	if (prog->kprobe_override && !(flags & TRACE_EVENT_FL_KPROBE))
		return -EINVAL;
	if (is_tp && prog->aux->max_ctx_offset > trace_event_get_offsets(event->tp_event))
		return -EACCES;

	return perf_event_attach_bpf_prog(event, prog, bpf_cookie);
}

void perf_event_free_bpf_prog(struct perf_event *event)
{
	if (perf_event_is_tracing(event))
		perf_event_detach_bpf_prog(event);
}

void __init perf_tp_pmus_init(void)
{
	perf_pmu_register(&perf_tracepoint_pmu, "tracepoint", PERF_TYPE_TRACEPOINT);
#ifdef CONFIG_KPROBE_EVENTS
	perf_pmu_register(&perf_kprobe_pmu, "kprobe", -1);
#endif
#ifdef CONFIG_UPROBE_EVENTS
	perf_pmu_register(&perf_uprobe_pmu, "uprobe", -1);
#endif
}

#else /* !CONFIG_EVENT_TRACING */

int perf_event_set_filter(struct perf_event *event, void __user *arg)
{
	char *str;
	int ret;

	if (!has_addr_filter(event))
		return -ENOENT;
	str = strndup_user(arg, PAGE_SIZE);
	if (IS_ERR(str))
		return PTR_ERR(str);
	ret = perf_addr_filters_set(event, str);
	kfree(str);
	return ret;
}

void perf_event_free_filter(struct perf_event *event)
{
}

int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog, u64 bpf_cookie)
{
	return -ENOENT;
}

void perf_event_free_bpf_prog(struct perf_event *event)
{
}

void __init perf_tp_pmus_init(void)
{
}

#endif /* CONFIG_EVENT_TRACING */
