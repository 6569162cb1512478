// SPDX-License-Identifier: GPL-2.0
/*
 * Book3S PMU framework: the performance monitor interrupt (PMI).
 *
 * A counter whose top bit rises (0x80000000) raises the PMI and, with
 * MMCR0[FCECE], freezes all counters.  The handler finds the counters
 * with the top bit set, folds them into their events, reloads sampling
 * events with the next period and emits the sample, then thaws MMCR0.
 *
 * Where the sample happened: the sampled instruction address register
 * (SIAR), with SIER (ISA 2.07+) or MMCRA telling the privilege state,
 * whether SIAR/SDAR are valid and the instruction's type.  For the
 * sample's lifetime pt_regs carries them as 6.1 does, an ABI that
 * perf_regs (PERF_REG_POWERPC_MMCRA/SIER) relies on: regs->dsisr = MMCRA,
 * regs->dar = SIER, regs->result = "take the IP from SIAR".
 *
 * Context: the PMI is NMI-like on 64-bit (delivered while interrupts are
 * soft-disabled).  It touches only this CPU's state.  The small flag tests
 * are always inlined: the kernel is built for size, and calls to them
 * were a tenth of the PMI's cost.
 */
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <asm/cputable.h>
#include <asm/hw_irq.h>
#include <asm/interrupt.h>
#include <asm/reg.h>
#include "book3s.h"

/* SIER[46:48]: type of the sampled instruction (0 = not known). */
#define SIER_TYPE_SHIFT		15
#define SIER_TYPE_MASK		(0x7ULL << SIER_TYPE_SHIFT)

#define PERF_SAMPLE_ADDR_TYPE	(PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR | \
				 PERF_SAMPLE_DATA_PAGE_SIZE)

static __always_inline bool book3s_regs_from_pmi(struct pt_regs *regs)
{
	/* only regs of a PMI have the fields below set up */
	return TRAP(regs) == INTERRUPT_PERFMON && regs->result;
}

#ifdef CONFIG_PPC64
static __always_inline bool book3s_has(unsigned long flag)
{
	return book3s_ppmu->flags & flag;
}

/* Sampled MSR[PR]: SIER, or MMCRA where POWER6 has it elsewhere. */
static __always_inline bool book3s_sampled_pr(struct pt_regs *regs)
{
	if (book3s_has(PPMU_HAS_SIER))
		return regs->dar & SIER_SIPR;
	if (book3s_has(PPMU_ALT_SIPR))
		return regs->dsisr & POWER6_MMCRA_SIPR;
	return regs->dsisr & MMCRA_SIPR;
}

static __always_inline bool book3s_sampled_hv(struct pt_regs *regs)
{
	if (book3s_has(PPMU_HAS_SIER))
		return regs->dar & SIER_SIHV;
	if (book3s_has(PPMU_ALT_SIPR))
		return regs->dsisr & POWER6_MMCRA_SIHV;
	return regs->dsisr & MMCRA_SIHV;
}

static __always_inline bool book3s_marked(struct pt_regs *regs)
{
	return regs->dsisr & MMCRA_SAMPLE_ENABLE;
}

/* Keep MMCRA and SIER in regs; decide whether SIAR is the sample's IP. */
static void book3s_capture_sample_regs(struct pt_regs *regs)
{
	bool use_siar;

	regs->dsisr = mfspr(SPRN_MMCRA);
	if (book3s_has(PPMU_HAS_SIER))
		regs->dar = mfspr(SPRN_SIER);

	/*
	 * SIAR for marked (sampled) instructions and for kernel and
	 * hypervisor samples; the interrupted user IP when SIER says the
	 * sample was in user mode (continuous sampling: SIAR may lag far
	 * behind), or when the model has no usable SIAR.
	 */
	if (TRAP(regs) != INTERRUPT_PERFMON || book3s_has(PPMU_NO_SIAR))
		use_siar = false;
	else if (book3s_marked(regs))
		use_siar = true;
	else if (book3s_has(PPMU_NO_CONT_SAMPLING))
		use_siar = false;
	else if (!user_mode(regs))
		use_siar = true;
	else
		use_siar = book3s_has(PPMU_NO_SIPR) || !book3s_sampled_pr(regs);
	regs->result = use_siar;
}

/* Is SIAR valid for this sample?  Only marked samples can say no. */
static __always_inline bool book3s_siar_valid(struct pt_regs *regs)
{
	if (!book3s_marked(regs) || book3s_has(PPMU_P10_DD1))
		return true;
	if (book3s_has(PPMU_HAS_SIER))
		return regs->dar & SIER_SIAR_VALID;
	if (book3s_has(PPMU_SIAR_VALID))
		return regs->dsisr & POWER7P_MMCRA_SIAR_VALID;
	return true;
}

/* POWER6/7 report the sampled slot of a group: IP = SIAR + 4 * (slot-1). */
static unsigned long book3s_slot_offset(struct pt_regs *regs)
{
	unsigned long slot;

	if (!book3s_has(PPMU_HAS_SSLOT) || !book3s_marked(regs))
		return 0;
	slot = (regs->dsisr & MMCRA_SLOT) >> MMCRA_SLOT_SHIFT;
	return slot > 1 ? 4 * (slot - 1) : 0;
}

static u32 book3s_misc_from_msr(struct pt_regs *regs)
{
	if (regs->msr & MSR_PR)
		return PERF_RECORD_MISC_USER;
	if ((regs->msr & MSR_HV) && book3s_freeze_kernel != MMCR0_FCHV)
		return PERF_RECORD_MISC_HYPERVISOR;
	return PERF_RECORD_MISC_KERNEL;
}

static u32 book3s_misc_from_addr(unsigned long addr)
{
	return is_kernel_addr(addr) ? PERF_RECORD_MISC_KERNEL :
				      PERF_RECORD_MISC_USER;
}

static u32 book3s_misc(struct pt_regs *regs)
{
	unsigned long siar;

	if (!book3s_regs_from_pmi(regs))
		return book3s_misc_from_msr(regs);

	/* POWER10 DD1 leaves SIER's PR/HV clear for marked events */
	if (book3s_marked(regs) && book3s_has(PPMU_P10_DD1)) {
		siar = mfspr(SPRN_SIAR);
		return book3s_misc_from_addr(siar ? siar : regs->nip);
	}
	if (book3s_has(PPMU_NO_SIPR))
		return book3s_misc_from_addr(mfspr(SPRN_SIAR));
	if (book3s_sampled_pr(regs))
		return PERF_RECORD_MISC_USER;
	if (book3s_sampled_hv(regs) && book3s_freeze_kernel != MMCR0_FCHV)
		return PERF_RECORD_MISC_HYPERVISOR;
	return PERF_RECORD_MISC_KERNEL;
}

/*
 * The data address: SDAR, if it belongs to the sampled instruction (or
 * no instruction was marked) and is not a kernel address the event may
 * not see.
 */
static void book3s_data_addr(struct perf_event *event, struct pt_regs *regs,
			     u64 *addr)
{
	unsigned long sdar = mfspr(SPRN_SDAR);
	bool valid;

	if (book3s_has(PPMU_HAS_SIER))
		valid = regs->dar & SIER_SDAR_VALID;
	else if (book3s_has(PPMU_SIAR_VALID))
		valid = regs->dsisr & POWER7P_MMCRA_SDAR_VALID;
	else if (book3s_has(PPMU_ALT_SIPR))
		valid = regs->dsisr & POWER6_MMCRA_SDSYNC;
	else if (book3s_has(PPMU_NO_SIAR))
		valid = regs->dsisr & MMCRA_SAMPLE_ENABLE;
	else
		valid = regs->dsisr & MMCRA_SDSYNC;

	if (!book3s_marked(regs) || valid)
		*addr = sdar;
	if (is_kernel_addr(sdar) && event->attr.exclude_kernel)
		*addr = 0;
}

/* Is the SIER instruction type one this ISA defines? */
static bool book3s_sier_type_known(struct pt_regs *regs)
{
	unsigned long type = (regs->dar & SIER_TYPE_MASK) >> SIER_TYPE_SHIFT;

	/* 7 is reserved before ISA 3.1, which uses it for larx/stcx */
	return type && (type != 7 || cpu_has_feature(CPU_FTR_ARCH_31));
}
#else /* 32-bit: no SIAR worth using, the MSR tells the mode */
static void book3s_capture_sample_regs(struct pt_regs *regs)
{
	regs->result = 0;
}

static bool book3s_siar_valid(struct pt_regs *regs) { return true; }
static unsigned long book3s_slot_offset(struct pt_regs *regs) { return 0; }

static u32 book3s_misc(struct pt_regs *regs)
{
	return 0;
}

static void book3s_data_addr(struct perf_event *event, struct pt_regs *regs,
			     u64 *addr)
{
	*addr = mfspr(SPRN_SDAR);
}

static bool book3s_sier_type_known(struct pt_regs *regs) { return true; }
#endif

/* include/linux/perf_event.h: PERF_RECORD_MISC_* of a sample's regs. */
unsigned long perf_misc_flags(struct pt_regs *regs)
{
	u32 misc = book3s_ppmu ? book3s_misc(regs) : 0;

	if (misc)
		return misc;
	return user_mode(regs) ? PERF_RECORD_MISC_USER :
				 PERF_RECORD_MISC_KERNEL;
}

/* include/linux/perf_event.h: the IP a sample reports. */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	unsigned long siar;

	if (!book3s_ppmu || !book3s_regs_from_pmi(regs) ||
	    !book3s_siar_valid(regs))
		return regs->nip;
	siar = mfspr(SPRN_SIAR);
	return siar ? siar + book3s_slot_offset(regs) : regs->nip;
}

/*
 * The core throttled @event (or it reached its event_limit) inside the
 * PMI.  The counters are frozen until the handler thaws them: silence the
 * counter here.  book3s_stop() would bracket this with pmu_disable/enable,
 * which clears SIAR and SDAR and thaws the counters while later counters
 * of the same PMI still wait for their samples.
 */
static void book3s_pmi_stop(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	/* book3s_overflow() has just folded the counter into the count */
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	book3s_write_pmc(hwc->idx, 0);
	local64_set(&hwc->prev_count, 0);
	perf_event_update_userpage(event);
}

/* Fill the model-specific parts of a sample and hand it to the core. */
static void book3s_emit_sample(struct perf_event *event, struct pt_regs *regs,
			       struct book3s_cpu *cpuhw)
{
	u64 type = event->attr.sample_type;
	struct perf_sample_data data __uninitialized;

	perf_sample_data_init(&data, ~0ULL, event->hw.last_period);

	if (type & PERF_SAMPLE_ADDR_TYPE)
		book3s_data_addr(event, regs, &data.addr);

	if (type & PERF_SAMPLE_BRANCH_STACK) {
		book3s_bhrb_read(event, cpuhw);
		data.br_stack = &cpuhw->bhrb_stack;
		data.sample_flags |= PERF_SAMPLE_BRANCH_STACK;
	}
	if ((type & PERF_SAMPLE_DATA_SRC) && book3s_ppmu->get_mem_data_src) {
		book3s_ppmu->get_mem_data_src(&data.data_src,
					      book3s_ppmu->flags, regs);
		data.sample_flags |= PERF_SAMPLE_DATA_SRC;
	}
	if ((type & PERF_SAMPLE_WEIGHT_TYPE) && book3s_ppmu->get_mem_weight) {
		book3s_ppmu->get_mem_weight(&data.weight.full, type);
		data.sample_flags |= PERF_SAMPLE_WEIGHT_TYPE;
	}

	if (perf_event_overflow(event, &data, regs))
		book3s_pmi_stop(event);
}

/*
 * The event's counter (value val) overflowed: count, reload for the next
 * period, and sample if a period ended.
 */
static void book3s_overflow(struct perf_event *event, unsigned long val,
			    struct pt_regs *regs, struct book3s_cpu *cpuhw)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period = hwc->sample_period, type = event->attr.sample_type;
	bool record = false;
	s64 delta, left;

	if (hwc->state & PERF_HES_STOPPED) {
		book3s_write_pmc(hwc->idx, 0);
		return;
	}

	delta = book3s_delta(local64_read(&hwc->prev_count), val);
	local64_add(delta, &event->count);

	/* a PMI without progress still consumes one event of the period */
	left = local64_read(&hwc->period_left) - delta;
	if (!delta)
		left++;
	val = 0;
	if (period) {
		if (left <= 0) {
			left += period;
			if (left <= 0)
				left = period;
			record = !(type & PERF_SAMPLE_IP) ||
				 book3s_siar_valid(regs);
			hwc->last_period = period;
		}
		if (left < 0x80000000LL)
			val = 0x80000000UL - left;
	}
	book3s_write_pmc(hwc->idx, val);
	local64_set(&hwc->prev_count, val);
	local64_set(&hwc->period_left, left);
	perf_event_update_userpage(event);

	/* MMCR2 freezes, but SIAR may still catch a kernel address */
	if (event->attr.exclude_kernel && (type & PERF_SAMPLE_IP) &&
	    is_kernel_addr(mfspr(SPRN_SIAR)))
		record = false;

	/* a data source needs an instruction type the ISA defines */
	if (record && (type & PERF_SAMPLE_DATA_SRC) &&
	    book3s_ppmu->get_mem_data_src && !book3s_sier_type_known(regs)) {
		record = false;
		atomic64_inc(&event->lost_samples);
	}

	if (record)
		book3s_emit_sample(event, regs, cpuhw);
	else if (period && perf_event_account_interrupt(event))
		book3s_pmi_stop(event);
}

static struct perf_event *book3s_event_on(struct book3s_cpu *cpuhw, int pmc)
{
	int i;

	for (i = 0; i < cpuhw->n_events; i++)
		if (cpuhw->event[i]->hw.idx == pmc)
			return cpuhw->event[i];
	return NULL;
}

/*
 * POWER7 can raise the PMI for a counter that then rolled back below the
 * top bit (speculative events that did not complete), by at most 256.
 * Looked for only when no counter has its top bit set, because a tiny
 * period could otherwise look like it.
 */
static bool book3s_power7_rolled_back(struct book3s_cpu *cpuhw,
				      struct pt_regs *regs)
{
	struct perf_event *event;
	unsigned long val;
	bool found = false;
	int i, pmc;

	if (!pvr_version_is(PVR_POWER7))
		return false;
	for (i = 0; i < cpuhw->n_events; i++) {
		event = cpuhw->event[i];
		pmc = event->hw.idx;
		if (!pmc || book3s_limited_pmc(pmc))
			continue;
		val = cpuhw->pmc_snapshot[pmc - 1];
		if (0x80000000UL - val <= 256) {
			found = true;
			book3s_overflow(event, val, regs, cpuhw);
		}
	}
	return found;
}

static void book3s_handle_pmi(struct pt_regs *regs)
{
	struct book3s_cpu *cpuhw = this_cpu_ptr(&book3s_cpu);
	int i, n = min(book3s_ppmu->n_counter, MAX_HWEVENTS);
	struct perf_event *event;
	bool found = false;

	/*
	 * The counters of an EBB group belong to the task and alert it with
	 * an event-based branch, never a PMI: a stale or replayed one must
	 * not reload them or rewrite MMCR0 without EBE and PMCC (the task's
	 * next PMC write in problem state would take SIGILL).
	 */
	if (cpuhw->n_events && book3s_is_ebb(cpuhw->event[0])) {
		clear_pmi_irq_pending();
		return;
	}

	/* the PMI froze the others: account PMC5/6 of POWER5+/6/7 now */
	if (cpuhw->n_limited)
		book3s_limited_freeze(cpuhw);

	book3s_capture_sample_regs(regs);

	for (i = 0; i < n; i++)
		cpuhw->pmc_snapshot[i] = book3s_read_pmc(i + 1);

	for (i = 0; i < n; i++) {
		if ((int)cpuhw->pmc_snapshot[i] >= 0 ||
		    book3s_limited_pmc(i + 1))
			continue;
		found = true;
		event = book3s_event_on(cpuhw, i + 1);
		if (event)
			book3s_overflow(event, cpuhw->pmc_snapshot[i], regs,
					cpuhw);
		else
			book3s_write_pmc(i + 1, 0);	/* stale: quiet it */
		/* enable may have re-raised it for this very overflow */
		clear_pmi_irq_pending();
	}
	if (!found)
		found = book3s_power7_rolled_back(cpuhw, regs);

	/*
	 * Without an overflowed counter the PMI is stale: it can follow a
	 * wakeup from idle that lost the counters.  Only a surprise if
	 * interrupts were on.
	 */
	if (unlikely(!found) && !arch_irq_disabled_regs(regs))
		pr_warn_ratelimited("Can't find PMC that caused IRQ\n");

	/* thaw: clears FC and PMAO, sets PMXE again */
	book3s_write_mmcr0(cpuhw, cpuhw->mmcr.mmcr0);
	memset(cpuhw->pmc_snapshot, 0, sizeof(cpuhw->pmc_snapshot));
}

/* perf_irq (asm/pmc.h), installed while events exist. */
void book3s_pmi(struct pt_regs *regs)
{
	u64 start = sched_clock();

	book3s_handle_pmi(regs);
	perf_sample_event_took(sched_clock() - start);
}
