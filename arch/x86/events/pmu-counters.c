// SPDX-License-Identifier: GPL-2.0
/*
 * x86 PMU framework: the counters themselves.
 *
 * A counter is cntval_bits wide and counts up; to interrupt after "left"
 * events it is loaded with -left, and hw.prev_count remembers the raw
 * value last folded into the event.  x86_perf_event_update() folds the
 * difference in, x86_perf_event_set_period() loads the next period.
 * Also: the counter MSRs an event uses (x86_assign_hw_event()), the
 * default enable/disable of all counters, clearing counters that another
 * task's rdpmc could read, and the sysrq dump of the PMU.
 *
 * Locking: runs on the event's CPU, with interrupts off or in the PMI.
 * The update may race with the PMI on the same CPU, hence the cmpxchg on
 * prev_count.
 */
#include <linux/perf_event.h>
#include "framework.h"

/* The last period loaded in each counter, for perf_event_print_debug(). */
DEFINE_PER_CPU(u64 [X86_PMC_IDX_MAX], pmc_prev_left);

/*
 * Fold what the counter counted since the last look into the event.
 * Returns the raw counter value read.
 */
u64 x86_perf_event_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int shift = 64 - x86_pmu.cntval_bits;
	u64 prev, now, delta;

	if (unlikely(!hwc->event_base))
		return 0;

	/* a PMI between the read and the exchange would be counted twice */
	do {
		prev = local64_read(&hwc->prev_count);
		rdpmcl(hwc->event_base_rdpmc, now);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	/* only the low cntval_bits are the count (not all parts sign-extend) */
	delta = ((now << shift) - (prev << shift)) >> shift;
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
	return now;
}

/*
 * Load the counter with the rest of the current period (or a new period
 * if that one is over).  The counter must not be counting.  Returns 1 if
 * a new period began (the caller reports a sample), else 0.
 */
int x86_perf_event_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	s64 period = hwc->sample_period;
	int new_period = 0;

	if (unlikely(!hwc->event_base))
		return 0;

	if (unlikely(left <= -period)) {
		/* far behind (e.g. after a long stop): start afresh */
		left = period;
		new_period = 1;
	} else if (unlikely(left <= 0)) {
		left += period;
		new_period = 1;
	}
	if (new_period) {
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
	}

	/* some parts misbehave with a counter one event from overflow */
	left = clamp_t(s64, left, 2, x86_pmu.max_period);
	static_call_cond(x86_pmu_limit_period)(event, &left);
	this_cpu_write(pmc_prev_left[hwc->idx], left);

	local64_set(&hwc->prev_count, (u64)-left);
	wrmsrl(hwc->event_base, (u64)(-left) & x86_pmu.cntval_mask);

	/* AMD large-increment pairs: the merge counter holds the top bits */
	if (is_counter_pair(hwc))
		wrmsrl(x86_pmu_event_addr(hwc->idx + 1), 0xffff);

	perf_event_update_userpage(event);
	return new_period;
}

/* Enable a started event's counter, unless the PMU as a whole is off. */
void x86_pmu_enable_event(struct perf_event *event)
{
	if (__this_cpu_read(cpu_hw_events.enabled))
		__x86_pmu_enable_event(&event->hw, ARCH_PERFMON_EVENTSEL_ENABLE);
}

/* The default disable_all(): clear the enable bit of every active GP counter. */
void x86_pmu_disable_all(void)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int idx;
	u64 val;

	for_each_set_bit(idx, cpuc->active_mask, x86_pmu.num_counters) {
		rdmsrl(x86_pmu_config_addr(idx), val);
		if (!(val & ARCH_PERFMON_EVENTSEL_ENABLE))
			continue;
		wrmsrl(x86_pmu_config_addr(idx), val & ~ARCH_PERFMON_EVENTSEL_ENABLE);
		if (is_counter_pair(&cpuc->events[idx]->hw))
			wrmsrl(x86_pmu_config_addr(idx + 1), 0);
	}
}

/* The default enable_all(): set it again on every active GP counter. */
void x86_pmu_enable_all(int added)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int idx;

	for_each_set_bit(idx, cpuc->active_mask, x86_pmu.num_counters)
		__x86_pmu_enable_event(&cpuc->events[idx]->hw,
				       ARCH_PERFMON_EVENTSEL_ENABLE);
}

/*
 * Give event @i of cpuc->event_list the counter the schedule chose, and
 * note which MSRs and rdpmc index that means.
 */
void x86_assign_hw_event(struct perf_event *event, struct cpu_hw_events *cpuc,
			 int i)
{
	struct hw_perf_event *hwc = &event->hw;
	int idx = cpuc->assign[i];

	hwc->idx = idx;
	hwc->last_cpu = smp_processor_id();
	hwc->last_tag = ++cpuc->tags[i];

	static_call_cond(x86_pmu_assign)(event, idx);

	if (idx == INTEL_PMC_IDX_FIXED_BTS || idx == INTEL_PMC_IDX_FIXED_VLBR) {
		/* not a counter: BTS and the guest LBR pseudo event */
		hwc->config_base = 0;
		hwc->event_base = 0;
		return;
	}
	if (idx >= INTEL_PMC_IDX_FIXED) {
		/* the topdown metrics all live in fixed counter 3 (slots) */
		if (is_metric_idx(idx))
			idx = INTEL_PMC_IDX_FIXED_SLOTS;
		idx -= INTEL_PMC_IDX_FIXED;
		hwc->config_base = MSR_ARCH_PERFMON_FIXED_CTR_CTRL;
		hwc->event_base = MSR_ARCH_PERFMON_FIXED_CTR0 + idx;
		hwc->event_base_rdpmc = idx | INTEL_PMC_FIXED_RDPMC_BASE;
		return;
	}
	hwc->config_base = x86_pmu_config_addr(idx);
	hwc->event_base = x86_pmu_event_addr(idx);
	hwc->event_base_rdpmc = x86_pmu_rdpmc_index(idx);
}

/*
 * Called on a switch to an mm that may rdpmc: zero the counters that
 * were used since the last switch and are not in use now, so that the
 * new task cannot read what the old one counted.
 */
void perf_clear_dirty_counters(void)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int i, nr_fixed = hybrid(cpuc->pmu, num_counters_fixed);

	for (i = 0; i < cpuc->n_events; i++)
		__clear_bit(cpuc->assign[i], cpuc->dirty);

	for_each_set_bit(i, cpuc->dirty, X86_PMC_IDX_MAX) {
		if (i < INTEL_PMC_IDX_FIXED) {
			wrmsrl(x86_pmu_event_addr(i), 0);
			continue;
		}
		/* metrics and pseudo counters have no register */
		if (i - INTEL_PMC_IDX_FIXED < nr_fixed)
			wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + (i - INTEL_PMC_IDX_FIXED), 0);
	}
	bitmap_zero(cpuc->dirty, X86_PMC_IDX_MAX);
}

/* sysrq-p: the PMU registers of this CPU. */
void perf_event_print_debug(void)
{
	struct cpu_hw_events *cpuc;
	int cpu, nr_gp, nr_fixed, idx;
	unsigned long flags;
	u64 val, ctrl;

	/*
	 * SysRq-p through /proc/sysrq-trigger calls this preemptible: the
	 * CPU is the one that dumps, so take it with interrupts off (6.1
	 * takes it before and trips DEBUG_PREEMPT's check).
	 */
	local_irq_save(flags);
	cpu = smp_processor_id();
	cpuc = &per_cpu(cpu_hw_events, cpu);
	nr_gp = hybrid(cpuc->pmu, num_counters);
	nr_fixed = hybrid(cpuc->pmu, num_counters_fixed);
	if (!nr_gp) {
		local_irq_restore(flags);
		return;
	}

	if (x86_pmu.version >= 2) {
		static const struct { const char *name; u32 msr; } global[] = {
			{ "ctrl:    ", MSR_CORE_PERF_GLOBAL_CTRL },
			{ "status:  ", MSR_CORE_PERF_GLOBAL_STATUS },
			{ "overflow:", MSR_CORE_PERF_GLOBAL_OVF_CTRL },
			{ "fixed:   ", MSR_ARCH_PERFMON_FIXED_CTR_CTRL },
		};

		pr_info("\n");
		for (idx = 0; idx < ARRAY_SIZE(global); idx++) {
			rdmsrl(global[idx].msr, val);
			pr_info("CPU#%d: %s   %016llx\n", cpu, global[idx].name, val);
		}
		if (hybrid(cpuc->pmu, pebs_constraints)) {
			rdmsrl(MSR_IA32_PEBS_ENABLE, val);
			pr_info("CPU#%d: pebs:       %016llx\n", cpu, val);
		}
		if (x86_pmu.lbr_nr) {
			rdmsrl(MSR_IA32_DEBUGCTLMSR, val);
			pr_info("CPU#%d: debugctl:   %016llx\n", cpu, val);
		}
	}
	pr_info("CPU#%d: active:     %016llx\n", cpu, *(u64 *)cpuc->active_mask);

	for (idx = 0; idx < nr_gp; idx++) {
		rdmsrl(x86_pmu_config_addr(idx), ctrl);
		rdmsrl(x86_pmu_event_addr(idx), val);
		pr_info("CPU#%d:   gen-PMC%d ctrl:  %016llx\n", cpu, idx, ctrl);
		pr_info("CPU#%d:   gen-PMC%d count: %016llx\n", cpu, idx, val);
		pr_info("CPU#%d:   gen-PMC%d left:  %016llx\n", cpu, idx,
			per_cpu(pmc_prev_left[idx], cpu));
	}
	for (idx = 0; idx < nr_fixed; idx++) {
		if (fixed_counter_disabled(idx, cpuc->pmu))
			continue;
		rdmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + idx, val);
		pr_info("CPU#%d: fixed-PMC%d count: %016llx\n", cpu, idx, val);
	}
	local_irq_restore(flags);
}
