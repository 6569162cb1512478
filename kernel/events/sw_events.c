// SPDX-License-Identifier: GPL-2.0
/*
 * Software events: the "software" PMU (PERF_TYPE_SOFTWARE, every
 * PERF_COUNT_SW_* but the two clocks), the cpu-clock and task-clock PMUs,
 * and the paths that count software events: ___perf_sw_event() and
 * __perf_sw_event() (perf_sw_event() of the header), perf_swevent_event()
 * (shared with the tracepoint and breakpoint paths), the per-context-level
 * recursion guard and the sampling period arithmetic.
 *
 * Delivery: each CPU has a hash table (struct swevent_hlist) of the
 * software events currently on its PMU, keyed by config.  pmu->add puts an
 * event in the table of its CPU, pmu->del takes it out, both on that CPU
 * with IRQs off (the core's scheduling path).  The hot path walks one
 * bucket under RCU with preemption off; events are freed after a grace
 * period (core-contract.rst), so a walker never sees freed memory.
 *
 * The tables exist while any software event exists: the first event_init
 * allocates one for every online CPU (cpus_read_lock() keeps the set
 * stable), perf_swevent_init_cpu() gives one to a CPU coming up, and the
 * last destroy frees them all after a grace period.  A CPU going down keeps
 * its table (an event may still be on it until the core removes it).
 * swevent_hlist_mutex serialises all of that; it nests inside the CPU
 * hotplug lock.
 *
 * The perf_swevent_enabled[] static keys are raised by each top-level
 * event of a config (children share their parent's) and dropped by its
 * destroy; both run in process context.
 *
 * cpu-clock counts local_clock() nanoseconds while it is on its PMU,
 * task-clock the time of its context's clock (of its cgroup's for a cgroup
 * event) meanwhile, which is the time its time_running counts: a task
 * event is on its PMU only while its task runs, so both exclude the time
 * the task sleeps.  Sampling clock events are driven by
 * a pinned hard-irq hrtimer per event, with freq mode turned into the
 * fixed period NSEC_PER_SEC / freq at event_init.
 */
#include <linux/cpu.h>
#include <linux/hash.h>
#include <linux/hrtimer.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/static_key.h>

#include <asm/irq_regs.h>

#include "internal.h"

struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX] = {
	[0 ... PERF_COUNT_SW_MAX - 1] = STATIC_KEY_INIT_FALSE,
};
EXPORT_SYMBOL_GPL(perf_swevent_enabled);

/* Scratch registers of perf_fetch_caller_regs() users, one per level. */
DEFINE_PER_CPU(struct pt_regs, __perf_regs[4]);

/* ---- recursion guard -------------------------------------------------- */

/*
 * One busy flag per context level (task, softirq, hardirq, NMI) and CPU:
 * a software event raised while the same level of the same CPU is already
 * delivering one is dropped.
 */
struct swevent_recursion {
	int	busy[4];
};

static DEFINE_PER_CPU(struct swevent_recursion, swevent_recursion);

int perf_swevent_get_recursion_context(void)
{
	struct swevent_recursion *rec = this_cpu_ptr(&swevent_recursion);
	unsigned char level = interrupt_context_level();

	if (rec->busy[level])
		return -1;
	rec->busy[level] = 1;
	barrier();
	return level;
}
EXPORT_SYMBOL_GPL(perf_swevent_get_recursion_context);

void perf_swevent_put_recursion_context(int rctx)
{
	struct swevent_recursion *rec = this_cpu_ptr(&swevent_recursion);

	barrier();
	rec->busy[rctx] = 0;
}
EXPORT_SYMBOL_GPL(perf_swevent_put_recursion_context);

/* ---- periods and overflow --------------------------------------------- */

/*
 * hw.period_left is minus the number of events left before the next
 * overflow; zero or more means at least one period has elapsed.  Re-arm
 * it for hw.sample_period (which freq mode may have changed) and return
 * how many periods elapsed: 0 when it is still armed.  Also called by PMUs
 * (tracepoints, breakpoints) from pmu->add to arm a fresh event.
 */
u64 perf_swevent_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 period = hwc->sample_period;
	s64 left, rest;
	u64 nr;

	if (period <= 0)
		period = 1;
	do {
		left = local64_read(&hwc->period_left);
		if (left < 0)
			return 0;
		nr = div64_u64(left, period) + 1;
		rest = left - (s64)(nr * period);
	} while (local64_cmpxchg(&hwc->period_left, left, rest) != left);

	hwc->last_period = period;
	return nr;
}

/* One sample per elapsed period, until the core throttles or stops us. */
static void perf_swevent_overflows(struct perf_event *event, struct perf_sample_data *data,
				   struct pt_regs *regs)
{
	u64 nr = perf_swevent_set_period(event);
	bool throttle = false;

	/* the first overflow of one occurrence is not throttled (6.1) */
	for (; nr; nr--) {
		data->period = event->hw.last_period;
		if (__perf_event_overflow(event, throttle, data, regs))
			break;
		throttle = true;
	}
}

void perf_swevent_event(struct perf_event *event, u64 nr, struct perf_sample_data *data,
			struct pt_regs *regs)
{
	struct hw_perf_event *hwc = &event->hw;

	local64_add(nr, &event->count);

	if (!regs || !is_sampling_event(event))
		return;
	/* throttled: no overflow until the tick starts it again */
	if (hwc->interrupts == PERF_THROTTLED)
		return;

	/*
	 * Asked for the period in each sample, with a fixed period: every
	 * occurrence is a sample whose period is its count (6.1).
	 */
	if ((event->attr.sample_type & PERF_SAMPLE_PERIOD) && !event->attr.freq) {
		data->period = nr;
		__perf_event_overflow(event, false, data, regs);
		return;
	}

	if (local64_add_negative(nr, &hwc->period_left))
		return;
	perf_swevent_overflows(event, data, regs);
}

/* ---- per-CPU hash tables -------------------------------------------------- */

static DEFINE_PER_CPU(struct swevent_hlist __rcu *, swevent_hlist);
static DEFINE_MUTEX(swevent_hlist_mutex);
static int swevent_hlist_users;		/* software events alive */

static struct hlist_head *swevent_bucket(struct swevent_hlist *hl, u64 config)
{
	return &hl->heads[hash_64(config, SWEVENT_HLIST_BITS)];
}

/* Give @cpu a table if it has none (swevent_hlist_mutex held). */
static int swevent_hlist_alloc_cpu(unsigned int cpu)
{
	struct swevent_hlist *hl;

	lockdep_assert_held(&swevent_hlist_mutex);
	if (rcu_access_pointer(per_cpu(swevent_hlist, cpu)))
		return 0;
	hl = kzalloc_node(sizeof(*hl), GFP_KERNEL, cpu_to_node(cpu));
	if (!hl)
		return -ENOMEM;
	rcu_assign_pointer(per_cpu(swevent_hlist, cpu), hl);
	return 0;
}

/* Unpublish every table; readers finish with them before they are freed. */
static void swevent_hlist_free_all(void)
{
	struct swevent_hlist *hl;
	unsigned int cpu;

	lockdep_assert_held(&swevent_hlist_mutex);
	for_each_possible_cpu(cpu) {
		hl = rcu_dereference_protected(per_cpu(swevent_hlist, cpu),
					       lockdep_is_held(&swevent_hlist_mutex));
		if (!hl)
			continue;
		RCU_INIT_POINTER(per_cpu(swevent_hlist, cpu), NULL);
		kfree_rcu(hl, rcu_head);
	}
}

/*
 * Take a reference on the tables, allocating them for the first event.
 * Only that first allocation takes the CPU hotplug lock: an inherited
 * child is created under its parent's ctx->mutex, which the hotplug path
 * takes inside the hotplug lock, and its parent keeps the tables alive.
 */
static int swevent_hlist_get(void)
{
	unsigned int cpu;
	int err = 0;

	mutex_lock(&swevent_hlist_mutex);
	if (swevent_hlist_users) {
		swevent_hlist_users++;
		mutex_unlock(&swevent_hlist_mutex);
		return 0;
	}
	mutex_unlock(&swevent_hlist_mutex);

	cpus_read_lock();
	mutex_lock(&swevent_hlist_mutex);
	if (!swevent_hlist_users) {
		for_each_online_cpu(cpu) {
			err = swevent_hlist_alloc_cpu(cpu);
			if (err) {
				swevent_hlist_free_all();
				goto out;
			}
		}
	}
	swevent_hlist_users++;
out:
	mutex_unlock(&swevent_hlist_mutex);
	cpus_read_unlock();
	return err;
}

static void swevent_hlist_put(void)
{
	mutex_lock(&swevent_hlist_mutex);
	if (!WARN_ON_ONCE(swevent_hlist_users <= 0) && !--swevent_hlist_users)
		swevent_hlist_free_all();
	mutex_unlock(&swevent_hlist_mutex);
}

int perf_swevent_init_cpu(unsigned int cpu)
{
	int err = 0;

	mutex_lock(&swevent_hlist_mutex);
	if (swevent_hlist_users)
		err = swevent_hlist_alloc_cpu(cpu);
	mutex_unlock(&swevent_hlist_mutex);
	return err;
}

void perf_swevent_exit_cpu(unsigned int cpu)
{
	/*
	 * Nothing to do: the table stays until the last software event is
	 * gone, since the core may still take events off this CPU.
	 */
}

/* ---- counting: the hot path ---------------------------------------------- */

/*
 * Count @event_id on this CPU (preemption off, recursion guarded).  The
 * sample data is __uninitialized, as on every hot path of the core: no
 * CONFIG_INIT_STACK_ALL_ZERO clearing of its hundreds of bytes on each
 * software event of the kernel; perf_sample_data_init() sets what
 * perf_prepare_sample() reads before it fills the rest by sample_flags.
 */
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	struct perf_sample_data data __uninitialized;
	struct swevent_hlist *hl;
	struct perf_event *event;
	struct hlist_head *head;

	rcu_read_lock();
	hl = rcu_dereference(*this_cpu_ptr(&swevent_hlist));
	if (!hl)
		goto out;
	head = swevent_bucket(hl, event_id);
	hlist_for_each_entry_rcu(event, head, hlist_entry) {
		if (event->attr.config != event_id ||
		    event->attr.type != PERF_TYPE_SOFTWARE)
			continue;
		if (event->hw.state & PERF_HES_STOPPED)
			continue;
		if (perf_event_excluded_at(event, regs))
			continue;
		/* as perf_swevent_event() counts an occurrence it does not sample */
		if (!regs || !is_sampling_event(event)) {
			local64_add(nr, &event->count);
			continue;
		}
		/* fresh per event: preparing a sample may fill it in */
		perf_sample_data_init(&data, addr, 0);
		perf_swevent_event(event, nr, &data, regs);
	}
out:
	rcu_read_unlock();
}

void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	int rctx;

	preempt_disable_notrace();
	rctx = perf_swevent_get_recursion_context();
	if (likely(rctx >= 0)) {
		___perf_sw_event(event_id, nr, regs, addr);
		perf_swevent_put_recursion_context(rctx);
	}
	preempt_enable_notrace();
}

/* ---- the software PMU --------------------------------------------------------- */

static void sw_perf_event_destroy(struct perf_event *event)
{
	swevent_hlist_put();
}

/* Destroy of a top-level event: it also holds its config's static key. */
static void sw_perf_event_destroy_key(struct perf_event *event)
{
	static_key_slow_dec(&perf_swevent_enabled[event->attr.config]);
	swevent_hlist_put();
}

static int perf_swevent_init(struct perf_event *event)
{
	u64 config = event->attr.config;
	int err;

	if (event->attr.type != PERF_TYPE_SOFTWARE)
		return -ENOENT;
	/* no branch sampling for software events */
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	if (config >= PERF_COUNT_SW_MAX)
		return -ENOENT;
	/* the clocks are PMUs of their own */
	if (config == PERF_COUNT_SW_CPU_CLOCK || config == PERF_COUNT_SW_TASK_CLOCK)
		return -ENOENT;

	err = swevent_hlist_get();
	if (err)
		return err;
	if (event->parent) {
		event->destroy = sw_perf_event_destroy;
	} else {
		static_key_slow_inc(&perf_swevent_enabled[config]);
		event->destroy = sw_perf_event_destroy_key;
	}
	return 0;
}

static int perf_swevent_add(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	struct swevent_hlist *hl;

	if (is_sampling_event(event))
		perf_swevent_set_period(event);

	hwc->state = (flags & PERF_EF_START) ? 0 : PERF_HES_STOPPED;

	hl = rcu_dereference_protected(*this_cpu_ptr(&swevent_hlist), 1);
	if (WARN_ON_ONCE(!hl))
		return -EINVAL;
	hlist_add_head_rcu(&event->hlist_entry, swevent_bucket(hl, event->attr.config));
	perf_event_update_userpage(event);
	return 0;
}

static void perf_swevent_del(struct perf_event *event, int flags)
{
	hlist_del_rcu(&event->hlist_entry);
}

static void perf_swevent_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void perf_swevent_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

static void perf_swevent_read(struct perf_event *event)
{
	/* the count is always current */
}

static struct pmu perf_swevent_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
	.event_init	= perf_swevent_init,
	.add		= perf_swevent_add,
	.del		= perf_swevent_del,
	.start		= perf_swevent_start,
	.stop		= perf_swevent_stop,
	.read		= perf_swevent_read,
};

/* ---- cpu-clock and task-clock ---------------------------------------------- */

/* Shortest sampling period of the clocks: 10 us. */
#define PERF_CLOCK_MIN_PERIOD	10000ULL

static u64 perf_clock_period(struct perf_event *event)
{
	return max_t(u64, PERF_CLOCK_MIN_PERIOD, event->hw.sample_period);
}

/*
 * The time a clock event counts, on its CPU: local_clock() for cpu-clock;
 * for task-clock the time of the clock its times accrue on (its context's,
 * or its cgroup's), so that one alone counts its time_running to the
 * nanosecond, as in 6.1.  At a sched-in or out (@at_switch) that clock was
 * brought up to date for the switch and the event's times are taken from
 * it: the count takes the same instant.  Elsewhere (a read, the sampling
 * timer, a throttle) it is the clock's time now.
 */
static __always_inline u64 perf_clock_now(struct perf_event *event, bool at_switch)
{
	if (event->attr.config != PERF_COUNT_SW_TASK_CLOCK)
		return perf_clock();
	if (at_switch)
		return perf_event_clock_time(event);
	return perf_event_clock_peek(event, perf_clock());
}

/*
 * Add the time since the last update to the count (on the event's CPU,
 * IRQs off).  A context's clock read just after a migration may lag what
 * the count last took: the count then waits rather than run backwards.
 */
static void perf_clock_update(struct perf_event *event, u64 now)
{
	u64 prev = local64_read(&event->hw.prev_count);

	if ((s64)(now - prev) <= 0)
		return;
	local64_set(&event->hw.prev_count, now);
	local64_add(now - prev, &event->count);
}

static enum hrtimer_restart perf_clock_hrtimer(struct hrtimer *timer)
{
	struct perf_event *event = container_of(timer, struct perf_event, hw.hrtimer);
	enum hrtimer_restart ret = HRTIMER_RESTART;
	struct perf_sample_data data __uninitialized;
	struct pt_regs *regs;
	u64 period;

	if (READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE ||
	    (event->hw.state & PERF_HES_STOPPED))
		return HRTIMER_NORESTART;

	event->pmu->read(event);
	period = perf_clock_period(event);
	event->hw.last_period = period;
	perf_sample_data_init(&data, 0, period);

	regs = get_irq_regs();
	if (regs && !perf_event_excluded_at(event, regs) &&
	    !(event->attr.exclude_idle && is_idle_task(current))) {
		/* throttled or stopped: the core restarts us with pmu->start */
		if (perf_event_overflow(event, &data, regs))
			ret = HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ns_to_ktime(period));
	return ret;
}

/* Arm the sampling timer, resuming a period that a stop interrupted. */
static void perf_clock_start_timer(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left;

	if (!is_sampling_event(event) || hrtimer_is_queued(&hwc->hrtimer))
		return;
	left = local64_xchg(&hwc->period_left, 0);
	if (left <= 0 || left > perf_clock_period(event))
		left = perf_clock_period(event);
	hrtimer_start(&hwc->hrtimer, ns_to_ktime(left), HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * Stop the sampling timer and keep what was left of its period.  Never
 * waits: this may run from the timer's own callback (through the
 * overflow path), which then sees PERF_HES_STOPPED and does not restart.
 */
static void perf_clock_cancel_timer(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	ktime_t rem;

	if (!is_sampling_event(event))
		return;
	rem = hrtimer_get_remaining(&hwc->hrtimer);
	local64_set(&hwc->period_left, ktime_to_ns(rem) > 0 ? ktime_to_ns(rem) : 0);
	hrtimer_try_to_cancel(&hwc->hrtimer);
}

static void __perf_clock_start(struct perf_event *event, bool at_switch)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED) {
		local64_set(&hwc->prev_count, perf_clock_now(event, at_switch));
		hwc->state = 0;
	}
	/* also the way back from throttling: the timer is re-armed */
	perf_clock_start_timer(event);
}

static void __perf_clock_stop(struct perf_event *event, bool at_switch)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	hwc->state = PERF_HES_STOPPED;
	perf_clock_cancel_timer(event);
	perf_clock_update(event, perf_clock_now(event, at_switch));
}

static void perf_clock_start(struct perf_event *event, int flags)
{
	__perf_clock_start(event, false);
}

static void perf_clock_stop(struct perf_event *event, int flags)
{
	__perf_clock_stop(event, false);
}

static int perf_clock_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		__perf_clock_start(event, true);
	perf_event_update_userpage(event);
	return 0;
}

static void perf_clock_del(struct perf_event *event, int flags)
{
	__perf_clock_stop(event, true);
}

static void perf_clock_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		perf_clock_update(event, perf_clock_now(event, false));
}

static void perf_clock_destroy(struct perf_event *event)
{
	if (is_sampling_event(event))
		hrtimer_cancel(&event->hw.hrtimer);
}

static int perf_clock_event_init(struct perf_event *event, u64 config)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period;

	/* the clock PMUs have no type of their own (pmu_registry.c) */
	if (event->attr.type != PERF_TYPE_SOFTWARE)
		return -ENOENT;
	if (event->attr.config != config)
		return -ENOENT;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	if (!is_sampling_event(event))
		return 0;

	/* the clocks sample at a fixed period: freq becomes NSEC_PER_SEC / freq */
	if (event->attr.freq) {
		period = div64_u64(NSEC_PER_SEC, event->attr.sample_freq);
		if (!period)
			period = 1;
		event->attr.freq = 0;
		event->attr.sample_period = period;
		hwc->sample_period = period;
		hwc->last_period = period;
	}
	hrtimer_init(&hwc->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	hwc->hrtimer.function = perf_clock_hrtimer;
	local64_set(&hwc->period_left, 0);
	event->destroy = perf_clock_destroy;
	return 0;
}

static int cpu_clock_event_init(struct perf_event *event)
{
	return perf_clock_event_init(event, PERF_COUNT_SW_CPU_CLOCK);
}

static int task_clock_event_init(struct perf_event *event)
{
	return perf_clock_event_init(event, PERF_COUNT_SW_TASK_CLOCK);
}

static struct pmu perf_cpu_clock_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
	.event_init	= cpu_clock_event_init,
	.add		= perf_clock_add,
	.del		= perf_clock_del,
	.start		= perf_clock_start,
	.stop		= perf_clock_stop,
	.read		= perf_clock_read,
};

/*
 * A task event is on its PMU exactly while its task runs; it counts its
 * context's time meanwhile (perf_clock_now()), and a CPU-wide task-clock
 * its CPU context's, as cpu-clock does.
 */
static struct pmu perf_task_clock_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
	.event_init	= task_clock_event_init,
	.add		= perf_clock_add,
	.del		= perf_clock_del,
	.start		= perf_clock_start,
	.stop		= perf_clock_stop,
	.read		= perf_clock_read,
};

bool perf_pmu_is_core_sw(struct pmu *pmu)
{
	return pmu == &perf_swevent_pmu || pmu == &perf_cpu_clock_pmu ||
	       pmu == &perf_task_clock_pmu;
}

void __init perf_sw_pmus_init(void)
{
	perf_pmu_register(&perf_swevent_pmu, "software", PERF_TYPE_SOFTWARE);
	/* as in 6.1: no name, so no sysfs device (their type is internal) */
	perf_pmu_register(&perf_cpu_clock_pmu, NULL, -1);
	perf_pmu_register(&perf_task_clock_pmu, NULL, -1);
}
