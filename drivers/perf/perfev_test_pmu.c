// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only PMU ("perfev_test") that models four hardware counters with
 * placement constraints, so that group scheduling, transactions, pinned
 * groups in error state, exclusive groups and multiplexing can be exercised
 * where no real PMU exists (x86_64 under QEMU TCG).
 *
 * Counters "count" the nanoseconds their event is scheduled in, times a
 * per-event factor, which makes counts deterministic enough for the scaled
 * estimates the tests check.  Events (attr.config):
 *
 *   0x01 ns        any counter          0x10 ns_pmc0    counter 0 only
 *   0x02 ns_x2     any counter, x2      0x11 ns_pmc01   counter 0 or 1
 *   0x03 ns_x3     any counter, x3      0x20 ns_nofork  as ns, but an
 *                                            inherited copy is refused
 *                                            (ENOSPC), so a fork fails
 *   0x30 ns_wrap   as ns, but a short counter: it wraps every
 *                  PTP_WRAP_NS, and a counting event's wrap raises the
 *                  overflow interrupt too, as real PMUs do for the core to
 *                  ignore (a counting event takes no samples)
 *
 * Sampling: each counter has a pinned hard-irq hrtimer standing in for its
 * overflow interrupt.  It fires when the counter reaches the event's period
 * (at least PTP_MIN_NS apart) and calls perf_event_overflow() with the
 * interrupted registers, as a hardware PMU's interrupt handler would, so the
 * core's overflow, throttling, freq and PERF_SAMPLE_READ paths run for
 * "hardware" events where no real PMU exists.
 *
 * A second PMU, "perfev_uncore", stands for an uncore PMU (no task
 * contexts); see ptp_uncore_pmu below.  Events may be aux_output members
 * of a "perfev_aux" group (perfev_aux_pmu.c): each start reports its
 * counter as the AUX output hardware id.
 *
 * It is a plain driver of the 6.1 struct pmu API, built into both the
 * upstream and the new core in the testbed.
 *
 * Locking: every callback but event_init runs on the CPU that owns the
 * per-CPU state, with interrupts disabled (the core's rules for pmu->add,
 * ->del, ->start, ->stop, ->read and the transaction callbacks), and the
 * overflow timers are pinned hard-irq timers of that CPU, so the per-CPU
 * state needs no lock.  event_init only reads the group under construction.
 */
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/math64.h>
#include <linux/sched/clock.h>
#include <linux/string.h>

#include <asm/irq_regs.h>

#define PTP_NR_COUNTERS	4
#define PTP_ALL		GENMASK(PTP_NR_COUNTERS - 1, 0)
#define PTP_START	0x1	/* hw.flags: start when the transaction commits */
#define PTP_MIN_NS	10000	/* overflow timers at most every 10 us */
#define PTP_MAX_CATCHUP	16	/* periods reported by one late timer */
#define PTP_NOFORK	0x20	/* the event that cannot be inherited */
#define PTP_WRAP	0x30	/* the counter that wraps */
#define PTP_WRAP_NS	1000000	/* ... every 1 ms of counting */

struct ptp_event_desc {
	u64 config;
	unsigned long mask;	/* counters the event may use */
	u64 factor;		/* count = scheduled-in ns * factor */
};

static const struct ptp_event_desc ptp_events[] = {
	{ 0x01, PTP_ALL, 1 },
	{ 0x02, PTP_ALL, 2 },
	{ 0x03, PTP_ALL, 3 },
	{ 0x10, BIT(0),  1 },
	{ 0x11, BIT(0) | BIT(1), 1 },
	{ PTP_NOFORK, PTP_ALL, 1 },
	{ PTP_WRAP, PTP_ALL, 1 },
};

struct ptp_counter {
	struct perf_event *event;
	struct hrtimer overflow;	/* the counter's "interrupt" */
};

struct ptp_cpu {
	struct ptp_counter ctr[PTP_NR_COUNTERS];
	struct perf_event *pending[PTP_NR_COUNTERS];	/* added in a txn */
	int nr_pending;
	unsigned int txn_flags;
	unsigned int freeze_depth;	/* pmu_disable, transactions, overflow */
	u64 frozen_at;		/* non-zero: counters frozen at this instant */
};

static DEFINE_PER_CPU(struct ptp_cpu, ptp_cpu);
static struct pmu ptp_pmu;

static const struct ptp_event_desc *ptp_desc(u64 config)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ptp_events); i++)
		if (ptp_events[i].config == config)
			return &ptp_events[i];
	return NULL;
}

static unsigned long ptp_mask(struct perf_event *event)
{
	return ptp_desc(event->attr.config)->mask;
}

/*
 * Counter for an event of @mask among the free counters: a constrained
 * event takes the lowest it may use, an unconstrained one the highest, so
 * that the nested masks above never block each other needlessly.
 */
static int ptp_pick(unsigned long mask, unsigned long used)
{
	unsigned long free = mask & ~used & PTP_ALL;

	if (!free)
		return -1;
	if (mask == PTP_ALL)
		return __fls(free);
	return __ffs(free);
}

/*
 * Place @n events of @masks on counters already @used, most constrained
 * first.  Returns the counters now used, or -1 when they cannot all fit.
 */
static long ptp_fit(const unsigned long *masks, int n, unsigned long used)
{
	int w, i, idx;

	for (w = 1; w <= PTP_NR_COUNTERS; w++) {
		for (i = 0; i < n; i++) {
			if (hweight_long(masks[i]) != w)
				continue;
			idx = ptp_pick(masks[i], used);
			if (idx < 0)
				return -1;
			used |= BIT(idx);
		}
	}
	return used;
}

static u64 ptp_factor(struct perf_event *event)
{
	return ptp_desc(event->attr.config)->factor;
}

/*
 * Does the counter raise overflow interrupts: at the end of a sampling
 * event's period, or when a wrapping counter wraps (its period is then the
 * wrap, set up by event_init).
 */
static bool ptp_interrupts(struct perf_event *event)
{
	return is_sampling_event(event) || event->attr.config == PTP_WRAP;
}

/* The counters' time: local_clock(), or the instant they were frozen. */
static u64 ptp_now(void)
{
	return this_cpu_ptr(&ptp_cpu)->frozen_at ?: local_clock();
}

static void ptp_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 now = ptp_now(), delta;

	delta = (now - local64_xchg(&hwc->prev_count, now)) * ptp_factor(event);
	local64_add(delta, &event->count);
	if (ptp_interrupts(event))
		local64_sub(delta, &hwc->period_left);
}

/* Nanoseconds until the counter reaches the end of its period. */
static u64 ptp_ns_to_overflow(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);

	if (left <= 0) {
		left = hwc->sample_period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = left;
	}
	return max_t(u64, div64_u64(left + ptp_factor(event) - 1, ptp_factor(event)),
		     PTP_MIN_NS);
}

static struct hrtimer *ptp_overflow_timer(struct perf_event *event)
{
	return &this_cpu_ptr(&ptp_cpu)->ctr[event->hw.idx].overflow;
}

static void ptp_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(hwc->idx < 0))
		return;
	local64_set(&hwc->prev_count, ptp_now());
	hwc->state = 0;
	/* an aux_output event's data would be tagged with its counter */
	if (event->attr.aux_output)
		perf_report_aux_output_id(event, hwc->idx);
	if (ptp_interrupts(event))
		hrtimer_start(ptp_overflow_timer(event), ns_to_ktime(ptp_ns_to_overflow(event)),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

static void ptp_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	/* a no-op when called from the timer itself (throttling) */
	if (ptp_interrupts(event))
		hrtimer_try_to_cancel(ptp_overflow_timer(event));
	ptp_update(event);
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static void ptp_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		ptp_update(event);
}

/*
 * Freeze every running counter of this CPU at one instant, as a PMU's global
 * control register does: while the PMU is disabled, during a transaction and
 * while its overflow interrupt is handled.  Counters started or stopped while
 * frozen do so at that instant, so a group scheduled in or out, read, or
 * sampled with PERF_SAMPLE_READ sees its members over the same interval
 * however long the core takes between them.  Thawing restarts the counters
 * from the current time (the frozen time is not counted).  Freezes nest.
 */
static void ptp_freeze(struct ptp_cpu *pc)
{
	struct perf_event *event;
	int i;

	if (pc->freeze_depth++)
		return;
	pc->frozen_at = local_clock();
	for (i = 0; i < PTP_NR_COUNTERS; i++) {
		event = pc->ctr[i].event;
		if (event && !(event->hw.state & PERF_HES_STOPPED))
			ptp_update(event);
	}
}

static void ptp_thaw(struct ptp_cpu *pc)
{
	struct perf_event *event;
	u64 now;
	int i;

	if (WARN_ON_ONCE(!pc->freeze_depth) || --pc->freeze_depth)
		return;
	now = local_clock();
	pc->frozen_at = 0;
	for (i = 0; i < PTP_NR_COUNTERS; i++) {
		event = pc->ctr[i].event;
		if (event && !(event->hw.state & PERF_HES_STOPPED))
			local64_set(&event->hw.prev_count, now);
	}
}

static void ptp_pmu_disable(struct pmu *pmu)
{
	ptp_freeze(this_cpu_ptr(&ptp_cpu));
}

static void ptp_pmu_enable(struct pmu *pmu)
{
	ptp_thaw(this_cpu_ptr(&ptp_cpu));
}

/*
 * The overflow "interrupt": hard-irq context on the counter's CPU.  A timer
 * can fire late (more so under emulation), so every period that elapsed is
 * reported, as the software PMU does, up to PTP_MAX_CATCHUP; the overshoot
 * is carried into the next period.  A throttled event stays stopped until
 * the core's tick restarts it.
 */
static enum hrtimer_restart ptp_overflow(struct hrtimer *timer)
{
	struct ptp_counter *ctr = container_of(timer, struct ptp_counter, overflow);
	struct ptp_cpu *pc = this_cpu_ptr(&ptp_cpu);
	struct perf_event *event = ctr->event;
	struct pt_regs *regs = get_irq_regs();
	struct perf_sample_data data __uninitialized;
	struct hw_perf_event *hwc;
	int n;

	/* a timer left from an event that is gone, stopped or counting only */
	if (!event || (event->hw.state & PERF_HES_STOPPED) || !ptp_interrupts(event))
		return HRTIMER_NORESTART;
	hwc = &event->hw;
	ptp_freeze(pc);
	for (n = 0; local64_read(&hwc->period_left) <= 0; n++) {
		if (n == PTP_MAX_CATCHUP) {
			local64_set(&hwc->period_left, hwc->sample_period);
			hwc->last_period = hwc->sample_period;
			break;
		}
		perf_sample_data_init(&data, 0, hwc->last_period);
		local64_add(hwc->sample_period, &hwc->period_left);
		hwc->last_period = hwc->sample_period;
		if (regs && perf_event_overflow(event, &data, regs)) {
			/* throttled */
			hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
			break;
		}
	}
	ptp_thaw(pc);
	/* stopped, or restarted (and so re-armed) by the core meanwhile */
	if ((hwc->state & PERF_HES_STOPPED) || hrtimer_is_queued(timer))
		return HRTIMER_NORESTART;
	hrtimer_set_expires(timer, ktime_add_ns(hrtimer_cb_get_time(timer),
						ptp_ns_to_overflow(event)));
	return HRTIMER_RESTART;
}

static unsigned long ptp_used(struct ptp_cpu *pc)
{
	unsigned long used = 0;
	int i;

	for (i = 0; i < PTP_NR_COUNTERS; i++)
		if (pc->ctr[i].event)
			used |= BIT(i);
	return used;
}

static int ptp_add(struct perf_event *event, int flags)
{
	struct ptp_cpu *pc = this_cpu_ptr(&ptp_cpu);
	struct hw_perf_event *hwc = &event->hw;
	int idx;

	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	hwc->idx = -1;
	hwc->flags = 0;

	/* in an ADD transaction the placement is decided by commit_txn */
	if (pc->txn_flags & PERF_PMU_TXN_ADD) {
		if (pc->nr_pending >= PTP_NR_COUNTERS)
			return -EAGAIN;
		pc->pending[pc->nr_pending++] = event;
		if (flags & PERF_EF_START)
			hwc->flags = PTP_START;
		return 0;
	}

	idx = ptp_pick(ptp_mask(event), ptp_used(pc));
	if (idx < 0)
		return -EAGAIN;
	pc->ctr[idx].event = event;
	hwc->idx = idx;
	if (flags & PERF_EF_START)
		ptp_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void ptp_del(struct perf_event *event, int flags)
{
	struct ptp_cpu *pc = this_cpu_ptr(&ptp_cpu);
	struct hw_perf_event *hwc = &event->hw;
	int i;

	ptp_stop(event, PERF_EF_UPDATE);
	if (hwc->idx >= 0) {
		/* also when throttled: a restart may have re-armed the timer */
		hrtimer_try_to_cancel(&pc->ctr[hwc->idx].overflow);
		pc->ctr[hwc->idx].event = NULL;
		hwc->idx = -1;
	}
	for (i = 0; i < pc->nr_pending; i++) {
		if (pc->pending[i] == event) {
			pc->pending[i] = pc->pending[--pc->nr_pending];
			break;
		}
	}
	perf_event_update_userpage(event);
}

static void ptp_start_txn(struct pmu *pmu, unsigned int txn_flags)
{
	struct ptp_cpu *pc = this_cpu_ptr(&ptp_cpu);

	WARN_ON_ONCE(pc->txn_flags);
	pc->txn_flags = txn_flags;
	pc->nr_pending = 0;
	ptp_freeze(pc);
}

static int ptp_commit_txn(struct pmu *pmu)
{
	struct ptp_cpu *pc = this_cpu_ptr(&ptp_cpu);
	unsigned long masks[PTP_NR_COUNTERS];
	struct perf_event *event;
	int i, w, idx;

	if (!(pc->txn_flags & PERF_PMU_TXN_ADD)) {
		pc->txn_flags = 0;
		ptp_thaw(pc);
		return 0;
	}
	for (i = 0; i < pc->nr_pending; i++)
		masks[i] = ptp_mask(pc->pending[i]);
	if (ptp_fit(masks, pc->nr_pending, ptp_used(pc)) < 0)
		return -EAGAIN;	/* the core cancels: del() of each, then cancel_txn */

	/* the same order ptp_fit() proved to work */
	for (w = 1; w <= PTP_NR_COUNTERS; w++) {
		for (i = 0; i < pc->nr_pending; i++) {
			if (hweight_long(masks[i]) != w)
				continue;
			event = pc->pending[i];
			idx = ptp_pick(masks[i], ptp_used(pc));
			pc->ctr[idx].event = event;
			event->hw.idx = idx;
		}
	}
	for (i = 0; i < pc->nr_pending; i++) {
		event = pc->pending[i];
		if (event->hw.flags & PTP_START)
			ptp_start(event, PERF_EF_RELOAD);
		perf_event_update_userpage(event);
	}
	pc->nr_pending = 0;
	pc->txn_flags = 0;
	ptp_thaw(pc);
	return 0;
}

static void ptp_cancel_txn(struct pmu *pmu)
{
	struct ptp_cpu *pc = this_cpu_ptr(&ptp_cpu);

	/* del() has already taken back every event of the failed group */
	WARN_ON_ONCE(pc->nr_pending);
	pc->nr_pending = 0;
	pc->txn_flags = 0;
	ptp_thaw(pc);
}

/*
 * Can @event join its group on an empty PMU?  A group that can never fit is
 * refused at open (EINVAL), as real PMU drivers do.  The group leader is
 * already published, so its sibling list is walked as real drivers walk it.
 */
static int ptp_validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned long masks[PTP_NR_COUNTERS + 1];
	int n = 0;

	if (leader != event) {
		if (leader->pmu == &ptp_pmu)
			masks[n++] = ptp_mask(leader);
		list_for_each_entry(sibling, &leader->sibling_list, sibling_list) {
			if (sibling->pmu != &ptp_pmu)
				continue;
			if (n == PTP_NR_COUNTERS)
				return -EINVAL;
			masks[n++] = ptp_mask(sibling);
		}
	}
	masks[n++] = ptp_mask(event);
	return ptp_fit(masks, n, 0) < 0 ? -EINVAL : 0;
}

static int ptp_event_init(struct perf_event *event)
{
	if (event->attr.type != ptp_pmu.type)
		return -ENOENT;
	if (!ptp_desc(event->attr.config))
		return -EINVAL;
	/* it counts scheduled-in time: there is no user/kernel split */
	if (event->attr.exclude_user || event->attr.exclude_kernel)
		return -EOPNOTSUPP;
	/* a PMU without room for the copy a fork needs */
	if (event->attr.config == PTP_NOFORK && event->parent)
		return -ENOSPC;
	event->hw.idx = -1;
	/* a counting event of a wrapping counter: its period is the wrap */
	if (event->attr.config == PTP_WRAP && !is_sampling_event(event)) {
		event->hw.sample_period = PTP_WRAP_NS;
		event->hw.last_period = PTP_WRAP_NS;
		local64_set(&event->hw.period_left, PTP_WRAP_NS);
	}
	return ptp_validate_group(event);
}

PMU_FORMAT_ATTR(event, "config:0-7");

static struct attribute *ptp_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group ptp_format_group = {
	.name = "format",
	.attrs = ptp_format_attrs,
};

#define PTP_EVENT_ATTR(_name, _str) PMU_EVENT_ATTR_STRING(_name, ptp_attr_##_name, _str)
PTP_EVENT_ATTR(ns, "event=0x01");
PTP_EVENT_ATTR(ns_x2, "event=0x02");
PTP_EVENT_ATTR(ns_x3, "event=0x03");
PTP_EVENT_ATTR(ns_pmc0, "event=0x10");
PTP_EVENT_ATTR(ns_pmc01, "event=0x11");
PTP_EVENT_ATTR(ns_nofork, "event=0x20");
PTP_EVENT_ATTR(ns_wrap, "event=0x30");

static struct attribute *ptp_event_attrs[] = {
	&ptp_attr_ns.attr.attr,
	&ptp_attr_ns_x2.attr.attr,
	&ptp_attr_ns_x3.attr.attr,
	&ptp_attr_ns_pmc0.attr.attr,
	&ptp_attr_ns_pmc01.attr.attr,
	&ptp_attr_ns_nofork.attr.attr,
	&ptp_attr_ns_wrap.attr.attr,
	NULL,
};

static const struct attribute_group ptp_events_group = {
	.name = "events",
	.attrs = ptp_event_attrs,
};

static const struct attribute_group *ptp_attr_groups[] = {
	&ptp_format_group,
	&ptp_events_group,
	NULL,
};

/* aux_output: into the AUX area of a perfev_aux leader (perfev_aux_pmu.c) */
static int ptp_aux_output_match(struct perf_event *aux_event)
{
	return !strcmp(aux_event->pmu->name, "perfev_aux");
}

static struct pmu ptp_pmu = {
	.task_ctx_nr	= perf_hw_context,
	.capabilities	= PERF_PMU_CAP_AUX_OUTPUT,
	.aux_output_match = ptp_aux_output_match,
	.attr_groups	= ptp_attr_groups,
	.event_init	= ptp_event_init,
	.add		= ptp_add,
	.del		= ptp_del,
	.start		= ptp_start,
	.stop		= ptp_stop,
	.read		= ptp_read,
	.pmu_enable	= ptp_pmu_enable,
	.pmu_disable	= ptp_pmu_disable,
	.start_txn	= ptp_start_txn,
	.commit_txn	= ptp_commit_txn,
	.cancel_txn	= ptp_cancel_txn,
};

/*
 * "perfev_uncore": an uncore-style PMU (perf_invalid_context), with one
 * event, 0x01, counting the nanoseconds it is started.  Like an uncore
 * driver it takes only CPU events and cannot sample; unlike most, it does
 * not refuse cpu == -1 itself, so that the core's own rule (no task or
 * cgroup events on a PMU without task contexts) is what tests see.
 */
static struct pmu ptp_uncore_pmu;

static void ptp_uncore_update(struct perf_event *event)
{
	u64 now = local_clock();
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - prev, &event->count);
}

static void ptp_uncore_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, local_clock());
	event->hw.state = 0;
}

static void ptp_uncore_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	ptp_uncore_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int ptp_uncore_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		ptp_uncore_start(event, flags);
	return 0;
}

static void ptp_uncore_del(struct perf_event *event, int flags)
{
	ptp_uncore_stop(event, flags);
}

static void ptp_uncore_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		ptp_uncore_update(event);
}

static int ptp_uncore_event_init(struct perf_event *event)
{
	if (event->attr.type != ptp_uncore_pmu.type)
		return -ENOENT;
	if (event->attr.config != 0x01)
		return -EINVAL;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	return 0;
}

static const struct attribute_group *ptp_uncore_attr_groups[] = {
	&ptp_format_group,
	NULL,
};

static struct pmu ptp_uncore_pmu = {
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.attr_groups	= ptp_uncore_attr_groups,
	.event_init	= ptp_uncore_event_init,
	.add		= ptp_uncore_add,
	.del		= ptp_uncore_del,
	.start		= ptp_uncore_start,
	.stop		= ptp_uncore_stop,
	.read		= ptp_uncore_read,
};

/*
 * perf_hw_context holds one PMU: where the CPU has a real one (x86_64 on the
 * testbed's QEMU with tcg-pmu=on), "perfev_test" steps aside and the tests
 * that need it skip; "perfev_uncore" has no task context and always
 * registers.  Probe with a kernel counter of the generic hardware type.
 */
static bool __init ptp_hw_pmu_exists(void)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.size		= sizeof(attr),
		.config		= PERF_COUNT_HW_INSTRUCTIONS,
		.disabled	= 1,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, cpumask_first(cpu_online_mask),
						 NULL, NULL, NULL);
	if (IS_ERR(event))
		return false;
	perf_event_release_kernel(event);
	return true;
}

static int __init ptp_init(void)
{
	struct hrtimer *timer;
	int cpu, i, ret;

	if (ptp_hw_pmu_exists()) {
		pr_info("perfev_test: the CPU has a hardware PMU, not registering\n");
		return perf_pmu_register(&ptp_uncore_pmu, "perfev_uncore", -1);
	}
	for_each_possible_cpu(cpu) {
		for (i = 0; i < PTP_NR_COUNTERS; i++) {
			timer = &per_cpu_ptr(&ptp_cpu, cpu)->ctr[i].overflow;
			hrtimer_init(timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
			timer->function = ptp_overflow;
		}
	}
	ret = perf_pmu_register(&ptp_pmu, "perfev_test", -1);
	if (ret)
		return ret;
	return perf_pmu_register(&ptp_uncore_pmu, "perfev_uncore", -1);
}
device_initcall(ptp_init);
