// SPDX-License-Identifier: GPL-2.0
/*
 * x86 PMU framework: the performance monitoring interrupt.
 *
 * The local APIC delivers counter overflow as an NMI (LVTPC in NMI
 * mode).  perf_event_nmi_handler() is registered on NMI_LOCAL; while no
 * event exists it declines at once, so that other NMI users keep their
 * NMIs.  The driver's handle_irq() finds the overflowed counters; the
 * generic x86_pmu_handle_irq() here serves drivers without a global
 * status register: a counter whose top bit is clear has wrapped.
 *
 * The time each PMI takes is reported to the core, which lowers the
 * maximum sample rate when PMIs eat too much of the CPU.
 *
 * Locking: NMI context on the CPU of the counters; no locks.
 */
#include <linux/kprobes.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include "framework.h"

int x86_pmu_handle_irq(struct pt_regs *regs)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	u64 top_bit = 1ULL << (x86_pmu.cntval_bits - 1);
	struct perf_sample_data data;
	struct perf_event *event;
	int idx, handled = 0;

	/* the APIC masked LVTPC when it delivered the PMI */
	apic_write(APIC_LVTPC, APIC_DM_NMI);

	for_each_set_bit(idx, cpuc->active_mask, x86_pmu.num_counters) {
		event = cpuc->events[idx];

		/* loaded with -left: still negative means no overflow */
		if (static_call(x86_pmu_update)(event) & top_bit)
			continue;
		handled++;

		if (!static_call(x86_pmu_set_period)(event))
			continue;

		perf_sample_data_init(&data, 0, event->hw.last_period);
		if (has_branch_stack(event)) {
			data.br_stack = &cpuc->lbr_stack;
			data.sample_flags |= PERF_SAMPLE_BRANCH_STACK;
		}
		if (perf_event_overflow(event, &data, regs))
			x86_pmu_stop(event, 0);
	}

	if (handled)
		inc_irq_stat(apic_perf_irqs);
	return handled;
}

/* Counter overflow interrupts as NMIs (also after an APIC reset). */
void perf_events_lapic_init(void)
{
	if (!x86_pmu.apic || !x86_pmu_initialized())
		return;
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

static int perf_event_nmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	u64 start, end;
	int handled;

	/* every PMU sharing the PMI counts its events in active_events */
	if (!atomic_read(&x86_pmu_active_events))
		return NMI_DONE;

	start = sched_clock();
	handled = static_call(x86_pmu_handle_irq)(regs);
	end = sched_clock();
	perf_sample_event_took(end - start);
	return handled;
}

NOKPROBE_SYMBOL(perf_event_nmi_handler);

void x86_pmu_nmi_init(void)
{
	register_nmi_handler(NMI_LOCAL, perf_event_nmi_handler, 0, "PMI");
}
