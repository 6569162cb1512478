// SPDX-License-Identifier: GPL-2.0
/*
 * Book3S PMU framework: the counters themselves.
 *
 * Reading and writing PMC1-8, folding a counter's progress into its
 * event's count, writing MMCR0 (with the POWER5+/6/7 "limited" PMC5/6,
 * which ignore the freeze bits and must be read at the instant the others
 * freeze or thaw), and the sysrq register dump.
 *
 * PMCs are 32 bits wide and count up; an event's hw.prev_count holds the
 * value last seen, so count += (now - prev) mod 2^32.  Sampling events
 * are programmed with 0x80000000 - period_left: the counter's top bit
 * rising raises the performance monitor interrupt.
 *
 * Context: interrupts disabled, or the PMI (NMI-like).  The count update
 * is lock free (local64 cmpxchg) because the PMI can interrupt a reader.
 */
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <asm/reg.h>
#include "book3s.h"

/* mfspr/mtspr take the SPR number as an immediate: one case per PMC. */
unsigned long book3s_read_pmc(int pmc)
{
	switch (pmc) {
	case 1: return mfspr(SPRN_PMC1);
	case 2: return mfspr(SPRN_PMC2);
	case 3: return mfspr(SPRN_PMC3);
	case 4: return mfspr(SPRN_PMC4);
	case 5: return mfspr(SPRN_PMC5);
	case 6: return mfspr(SPRN_PMC6);
#ifdef CONFIG_PPC64
	case 7: return mfspr(SPRN_PMC7);
	case 8: return mfspr(SPRN_PMC8);
#endif
	}
	WARN_ONCE(1, "perf: read of PMC%d\n", pmc);
	return 0;
}

void book3s_write_pmc(int pmc, unsigned long val)
{
	switch (pmc) {
	case 1:
		mtspr(SPRN_PMC1, val);
		return;
	case 2:
		mtspr(SPRN_PMC2, val);
		return;
	case 3:
		mtspr(SPRN_PMC3, val);
		return;
	case 4:
		mtspr(SPRN_PMC4, val);
		return;
	case 5:
		mtspr(SPRN_PMC5, val);
		return;
	case 6:
		mtspr(SPRN_PMC6, val);
		return;
#ifdef CONFIG_PPC64
	case 7:
		mtspr(SPRN_PMC7, val);
		return;
	case 8:
		mtspr(SPRN_PMC8, val);
		return;
#endif
	}
	WARN_ONCE(1, "perf: write of PMC%d\n", pmc);
}

/*
 * Progress of a 32-bit counter from prev to now.  POWER7 counters can go
 * back by up to 256 when speculatively counted instructions do not
 * complete; such a small step back is no progress, not a wrap.
 */
u64 book3s_delta(u64 prev, u64 now)
{
	if (prev > now && prev - now < 256)
		return 0;
	return (now - prev) & 0xffffffffULL;
}

/* pmu::read, and before any reprogramming of the event's counter. */
void book3s_update_count(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 prev, now, delta, left, want;

	if ((hwc->state & PERF_HES_STOPPED) || !hwc->idx)
		return;

	if (book3s_is_ebb(event)) {
		/* The owner task reads EBB counters; just track the value. */
		local64_set(&hwc->prev_count, book3s_read_pmc(hwc->idx));
		return;
	}

	do {
		prev = local64_read(&hwc->prev_count);
		barrier();
		now = book3s_read_pmc(hwc->idx);
		delta = book3s_delta(prev, now);
		if (!delta)
			return;
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	local64_add(delta, &event->count);

	/*
	 * Keep period_left >= 1: programming the counter with 0x80000000 or
	 * more would make it wrap to 0 (seen on POWER8) instead of raising
	 * the interrupt.
	 */
	do {
		left = local64_read(&hwc->period_left);
		want = max_t(s64, left - delta, 1);
	} while (local64_cmpxchg(&hwc->period_left, left, want) != left);
}

/* The limited PMCs stopped (MMCR0 froze the others) at pmc5/pmc6. */
static void book3s_limited_stopped(struct book3s_cpu *cpuhw,
				   unsigned long pmc5, unsigned long pmc6)
{
	struct perf_event *event;
	u64 now, delta;
	int i;

	for (i = 0; i < cpuhw->n_limited; i++) {
		event = cpuhw->limited[i];
		if (!event->hw.idx)
			continue;
		now = event->hw.idx == 5 ? pmc5 : pmc6;
		delta = book3s_delta(local64_read(&event->hw.prev_count), now);
		event->hw.idx = 0;
		if (delta)
			local64_add(delta, &event->count);
	}
}

/* The others run again: the limited events count from pmc5/pmc6 on. */
static void book3s_limited_started(struct book3s_cpu *cpuhw,
				   unsigned long pmc5, unsigned long pmc6)
{
	struct perf_event *event;
	u64 now;
	int i;

	for (i = 0; i < cpuhw->n_limited; i++) {
		event = cpuhw->limited[i];
		event->hw.idx = cpuhw->limited_pmc[i];
		now = event->hw.idx == 5 ? pmc5 : pmc6;
		if (book3s_delta(local64_read(&event->hw.prev_count), now))
			local64_set(&event->hw.prev_count, now);
		perf_event_update_userpage(event);
	}
}

/* The PMI froze the counters: account the limited ones as of now. */
void book3s_limited_freeze(struct book3s_cpu *cpuhw)
{
	book3s_limited_stopped(cpuhw, mfspr(SPRN_PMC5), mfspr(SPRN_PMC6));
}

/*
 * Write MMCR0.  With limited events in use, PMC5/6 are read in the same
 * instruction sequence as the write, with the overflow interrupt enables
 * held back until the limited events are accounted for.
 */
void book3s_write_mmcr0(struct book3s_cpu *cpuhw, unsigned long mmcr0)
{
	unsigned long enables = MMCR0_PMC1CE | MMCR0_PMCjCE;
	unsigned long pmc5, pmc6;

	if (!cpuhw->n_limited) {
		mtspr(SPRN_MMCR0, mmcr0);
		return;
	}

	asm volatile("mtspr %3,%2; mfspr %0,%4; mfspr %1,%5"
		     : "=&r" (pmc5), "=&r" (pmc6)
		     : "r" (mmcr0 & ~enables), "i" (SPRN_MMCR0),
		       "i" (SPRN_PMC5), "i" (SPRN_PMC6));

	if (mmcr0 & MMCR0_FC)
		book3s_limited_stopped(cpuhw, pmc5, pmc6);
	else
		book3s_limited_started(cpuhw, pmc5, pmc6);

	if (mmcr0 & enables)
		mtspr(SPRN_MMCR0, mmcr0);
}

/* sysrq 'p' (drivers/tty/sysrq.c): dump this CPU's PMU registers. */
void perf_event_print_debug(void)
{
	struct power_pmu *pmu = book3s_ppmu;
	unsigned long flags, pmc[MAX_HWEVENTS] = { 0 };
	int i;

	if (!pmu) {
		pr_info("Performance monitor hardware not registered.\n");
		return;
	}
	if (!pmu->n_counter)
		return;

	local_irq_save(flags);
	for (i = 0; i < pmu->n_counter && i < MAX_HWEVENTS; i++)
		pmc[i] = book3s_read_pmc(i + 1);

	pr_info("CPU %d: %s PMU, %d counters\n", smp_processor_id(),
		pmu->name, pmu->n_counter);
	pr_info("PMC1-4: %08lx %08lx %08lx %08lx\n",
		pmc[0], pmc[1], pmc[2], pmc[3]);
	if (pmu->n_counter > 4)
		pr_info("PMC5-8: %08lx %08lx %08lx %08lx\n",
			pmc[4], pmc[5], pmc[6], pmc[7]);
	pr_info("MMCR0: %016lx MMCR1: %016lx MMCRA: %016lx\n",
		mfspr(SPRN_MMCR0), mfspr(SPRN_MMCR1), mfspr(SPRN_MMCRA));
#ifdef CONFIG_PPC64
	if (pmu->flags & PPMU_ARCH_207S)
		pr_info("MMCR2: %016lx EBBHR: %016lx EBBRR: %016lx BESCR: %016lx\n",
			mfspr(SPRN_MMCR2), mfspr(SPRN_EBBHR),
			mfspr(SPRN_EBBRR), mfspr(SPRN_BESCR));
	if (pmu->flags & PPMU_ARCH_31)
		pr_info("MMCR3: %016lx SIER2: %016lx SIER3: %016lx\n",
			mfspr(SPRN_MMCR3), mfspr(SPRN_SIER2),
			mfspr(SPRN_SIER3));
	pr_info("SIAR: %016lx SDAR: %016lx SIER: %016lx\n",
		mfspr(SPRN_SIAR), mfspr(SPRN_SDAR),
		(pmu->flags & PPMU_HAS_SIER) ? mfspr(SPRN_SIER) : 0UL);
#endif
	local_irq_restore(flags);
}
