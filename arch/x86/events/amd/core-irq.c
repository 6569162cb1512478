// SPDX-License-Identifier: GPL-2.0
/*
 * AMD core PMU: turning counters on and off, and the overflow interrupt.
 *
 * Without PerfMonV2 each counter has only its PERF_CTL enable bit; a
 * counter has overflowed when its top bit (47) is clear again.  With
 * PerfMonV2 (Zen 4) PerfCntrGlobalCtl turns them all on and off at once
 * and PerfCntrGlobalStatus says which overflowed (acknowledged through
 * PerfCntrGlobalStatusClr).  AMD's APIC does not mask LVTPC on a PMI.
 *
 * NMI latency: an overflow may be handled by an earlier NMI than its own
 * (several counters overflowing, or a PMI while another NMI runs); its
 * own NMI then finds nothing.  For 100 ms after a PMI that handled
 * something, an NMI that finds nothing is claimed anyway, so that the
 * kernel does not report it as unknown.  Disabling a counter outside the
 * NMI waits (briefly) for a pending overflow's NMI to reset it.
 *
 * Locking: this CPU's counters, interrupts off or in the NMI.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/perf_event.h>
#include <asm/nmi.h>
#include "core.h"

/* PerfCntrGlobal* bits of the core counters (PerfMonV2). */
u64 amd_pmu_global_cntr_mask __read_mostly;

static unsigned long amd_nmi_window __read_mostly;
static DEFINE_PER_CPU(unsigned long, amd_nmi_window_end);

DEFINE_STATIC_CALL_NULL(amd_pmu_branch_reset, amd_branch_op_t);

static bool amd_ctr_overflowed_topbit(int idx)
{
	u64 val;

	rdmsrl(x86_pmu_event_addr(idx), val);
	return !(val & BIT_ULL(x86_pmu.cntval_bits - 1));
}

static bool amd_ctr_overflowed_status(int idx)
{
	u64 status;

	rdmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, status);
	return status & BIT_ULL(idx);
}

DEFINE_STATIC_CALL(amd_ctr_overflowed, amd_ctr_overflowed_topbit);

/* Give a pending overflow's NMI (at most ~50 us) the chance to reset it. */
static void amd_wait_for_overflow_nmi(int idx)
{
	int i;

	for (i = 0; i < 50 && static_call(amd_ctr_overflowed)(idx); i++)
		udelay(1);
}

static void amd_wait_for_all_overflow_nmis(void)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int idx;

	/* in the NMI itself nothing else could reset them */
	if (in_nmi())
		return;
	for_each_set_bit(idx, cpuc->active_mask, x86_pmu.num_counters)
		amd_wait_for_overflow_nmi(idx);
}

void amd_pmu_enable_event(struct perf_event *event)
{
	x86_pmu_enable_event(event);
}

void amd_pmu_disable_event(struct perf_event *event)
{
	x86_pmu_disable_event(event);
	if (!in_nmi())
		amd_wait_for_overflow_nmi(event->hw.idx);
}

/* Enable every active counter (cpuc->events[] may lose one to a throttle). */
void amd_pmu_enable_active(void)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int idx;

	for_each_set_bit(idx, cpuc->active_mask, x86_pmu.num_counters)
		if (cpuc->events[idx])
			amd_pmu_enable_event(cpuc->events[idx]);
}

void amd_pmu_enable_all(int added)
{
	amd_brs_enable_all();
	amd_pmu_enable_active();
}

void amd_pmu_disable_all(void)
{
	amd_brs_disable_all();
	x86_pmu_disable_all();
	amd_wait_for_all_overflow_nmis();
}

/*
 * PerfMonV2: PERF_CTL keeps its enable bit while the PMU is off (global
 * control does the switching), so a counter is programmed ready even
 * before cpuc->enabled is set.
 */
void amd_pmu_v2_enable_event(struct perf_event *event)
{
	__x86_pmu_enable_event(&event->hw, ARCH_PERFMON_EVENTSEL_ENABLE);
}

void amd_pmu_v2_enable_all(int added)
{
	amd_pmu_lbr_enable_all();
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, amd_pmu_global_cntr_mask);
}

void amd_pmu_v2_disable_all(void)
{
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
	amd_pmu_lbr_disable_all();
	amd_wait_for_all_overflow_nmis();
}

/* A fresh CPU: branch facility reset, PerfMonV2 off with no status left. */
void amd_pmu_cpu_reset(void)
{
	if (x86_pmu.lbr_nr)
		static_call(amd_pmu_branch_reset)();
	if (x86_pmu.version < 2)
		return;
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR,
	       GLOBAL_STATUS_LBRS_FROZEN | amd_pmu_global_cntr_mask);
}

/* Claim an empty NMI that follows a handled one closely (see the top). */
static int amd_nmi_window_verdict(int handled)
{
	if (handled) {
		this_cpu_write(amd_nmi_window_end, jiffies + amd_nmi_window);
		return handled;
	}
	if (time_after(jiffies, this_cpu_read(amd_nmi_window_end)))
		return NMI_DONE;
	return NMI_HANDLED;
}

int amd_pmu_handle_irq(struct pt_regs *regs)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int was_enabled = cpuc->enabled;
	int handled;

	/* the generic handler must not turn counters back on */
	cpuc->enabled = 0;
	amd_brs_disable_all();
	if (cpuc->lbr_users)
		amd_brs_drain();

	handled = x86_pmu_handle_irq(regs);

	cpuc->enabled = was_enabled;
	if (was_enabled)
		amd_brs_enable_all();
	return amd_nmi_window_verdict(handled);
}

int amd_pmu_v2_handle_irq(struct pt_regs *regs)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	static atomic64_t warned_bits = ATOMIC64_INIT(0);
	bool was_enabled = cpuc->enabled;
	struct perf_sample_data data;
	struct perf_event *event;
	u64 status, stray;
	int idx, handled = 0;

	/* stop counting, but keep the LBR frozen state for reading */
	cpuc->enabled = 0;
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);

	rdmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, status);
	if (!status)
		goto out;

	if (x86_pmu.lbr_nr) {
		amd_pmu_lbr_read();
		status &= ~GLOBAL_STATUS_LBRS_FROZEN;
	}
	stray = status & ~amd_pmu_global_cntr_mask;
	if (stray)
		pr_warn_once("Reserved PerfCntrGlobalStatus bits are set (0x%llx), please consider updating microcode\n",
			     stray);
	status &= amd_pmu_global_cntr_mask;

	for_each_set_bit(idx, cpuc->active_mask, x86_pmu.num_counters) {
		event = cpuc->events[idx];
		/* every active counter is brought up to date */
		x86_perf_event_update(event);
		if (!(status & BIT_ULL(idx)))
			continue;

		status &= ~BIT_ULL(idx);
		handled++;
		perf_sample_data_init(&data, 0, event->hw.last_period);
		if (!x86_perf_event_set_period(event))
			continue;
		if (has_branch_stack(event)) {
			data.br_stack = &cpuc->lbr_stack;
			data.sample_flags |= PERF_SAMPLE_BRANCH_STACK;
		}
		if (perf_event_overflow(event, &data, regs))
			x86_pmu_stop(event, 0);
	}

	/* overflow of a counter no event owns: say so once per counter */
	if (status) {
		u64 seen = atomic64_fetch_or(status, &warned_bits);

		WARN(status & ~seen, "New overflows for inactive PMCs: %llx\n",
		     status & ~seen);
	}

	/* acknowledge what was handled, and unfreeze */
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, ~status);
	inc_irq_stat(apic_perf_irqs);

out:
	cpuc->enabled = was_enabled;
	if (was_enabled)
		wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, amd_pmu_global_cntr_mask);
	return amd_nmi_window_verdict(handled);
}

void __init amd_pmu_irq_init(bool perfmon_v2)
{
	amd_nmi_window = msecs_to_jiffies(100);
	if (perfmon_v2)
		static_call_update(amd_ctr_overflowed, amd_ctr_overflowed_status);
}
