// SPDX-License-Identifier: GPL-2.0
/*
 * Book3S PMU framework: putting events on and off the counters.
 *
 * The core brackets every change with pmu_disable()/pmu_enable().
 * Disabling freezes all counters (MMCR0[FC]); add() and del() then only
 * edit the per-CPU list of events and check that the new set still fits
 * (book3s-constraints.c); enabling programs the MMCRs for the set when it
 * changed, moves counters that the new assignment relocates, loads the
 * PMCs of new events (sampling events with 0x80000000 - period_left) and
 * unfreezes.  A group is added as one transaction: the fit is checked
 * once, at commit_txn().
 *
 * POWER has no per-counter enable: a stopped event's counter keeps
 * counting, its value is ignored (hw.state has PERF_HES_STOPPED) and
 * reloaded on start.
 *
 * Context: the core calls these with interrupts disabled or within
 * pmu_disable(); each takes local_irq_save() itself.  The PMI cannot run
 * while the counters are frozen and interrupts are hard-disabled.
 */
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <asm/hw_irq.h>
#include <asm/pmc.h>
#include <asm/reg.h>
#include "book3s.h"

/*
 * First value to load into a counter: sampling counts up to the top bit.
 * The core asks for a whole new period with period_left = 0 (IOC_PERIOD,
 * a frequency step that cuts the period short).  Loading 0x80000000 then
 * would raise no interrupt on POWER8+, which alerts on the transition of
 * the top bit, until the counter wrapped through 2^32 events; pmu_enable()
 * re-raises it for a counter with the top bit set (6.1's count then came
 * out a period ahead).
 */
static unsigned long book3s_start_value(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);

	if (!hwc->sample_period)
		return 0;
	if (left <= 0) {
		left = hwc->sample_period;
		local64_set(&hwc->period_left, left);
	}
	if (left >= 0x80000000LL)
		return 0;
	return 0x80000000UL - left;
}

static bool book3s_any_overflowed(struct book3s_cpu *cpuhw)
{
	int i, pmc;

	for (i = 0; i < cpuhw->n_events; i++) {
		pmc = cpuhw->event[i]->hw.idx;
		if (pmc && (int)book3s_read_pmc(pmc) < 0)
			return true;
	}
	return false;
}

void book3s_pmu_disable(struct pmu *pmu)
{
	struct book3s_cpu *cpuhw;
	unsigned long flags, mmcr0, frozen, mmcra;

	if (!book3s_ppmu)
		return;
	local_irq_save(flags);
	cpuhw = this_cpu_ptr(&book3s_cpu);
	if (cpuhw->frozen)
		goto out;

	if (!cpuhw->pmcs_enabled) {
		ppc_enable_pmcs();
		cpuhw->pmcs_enabled = true;
	}

	/*
	 * Freeze; also take back user access, EBB and BHRB, a pending alert
	 * and the interrupt enable, so no PMI fires while we reprogram.
	 */
	mmcr0 = mfspr(SPRN_MMCR0);
	frozen = (mmcr0 | MMCR0_FC) & ~(MMCR0_EBE | MMCR0_BHRBA | MMCR0_PMCC |
					MMCR0_PMAO | MMCR0_PMXE | MMCR0_FC56);
	if (book3s_ppmu->flags & PPMU_ARCH_31)
		frozen |= MMCR0_PMCCEXT;
	book3s_write_mmcr0(cpuhw, frozen);
	/* the counters are frozen before we look at them */
	mb();
	isync();

	/*
	 * A PMI that hard-disabled interrupts and was left pending is for
	 * counters we are about to reprogram; enable re-raises it if an
	 * active counter still has its top bit set.
	 */
	if (pmi_irq_pending())
		clear_pmi_irq_pending();

	mmcra = cpuhw->mmcr.mmcra & ~MMCRA_SAMPLE_ENABLE;
	if (book3s_ppmu->flags & PPMU_ARCH_31)
		mmcra |= MMCRA_BHRB_DISABLE;
	if (mmcra != cpuhw->mmcr.mmcra) {
		mtspr(SPRN_MMCRA, mmcra);
		/* sampling is off before anything is reprogrammed */
		mb();
		isync();
	}

	cpuhw->frozen = true;
	book3s_ebb_save(mmcr0);

#ifdef CONFIG_PPC64
	/*
	 * Userspace can read SIAR and SDAR, which may hold kernel addresses
	 * and are not context switched: clear them.
	 */
	if (book3s_ppmu->flags & PPMU_ARCH_207S) {
		mtspr(SPRN_SDAR, 0);
		mtspr(SPRN_SIAR, 0);
	}
#endif
out:
	local_irq_restore(flags);
}

/* MMCR0 freeze bits for exclude_* before ISA 2.07 (one set for all PMCs). */
static unsigned long book3s_mmcr0_excludes(struct perf_event *event)
{
	unsigned long bits = 0;

	if (event->attr.exclude_user)
		bits |= MMCR0_FCP;
	if (event->attr.exclude_kernel)
		bits |= book3s_freeze_kernel;
	if (event->attr.exclude_hv)
		bits |= MMCR0_FCHV;
	return bits;
}

/* The BHRB filter of the set: all its branch-stack events share one. */
static u64 book3s_set_bhrb_filter(struct book3s_cpu *cpuhw)
{
	int i;

	for (i = 0; i < cpuhw->n_events; i++)
		if (has_branch_stack(cpuhw->event[i]))
			return cpuhw->event[i]->hw.branch_reg.config;
	return 0;
}

/*
 * The set of events changed: compute and write the MMCRs (counters still
 * frozen) and place every event on its counter.  Returns false if the
 * model could not compute a configuration (the set was checked, so this
 * is a model bug).
 */
static bool book3s_program(struct book3s_cpu *cpuhw)
{
	struct power_pmu *pmu = book3s_ppmu;
	unsigned int pmc_of[MAX_HWEVENTS];
	struct perf_event *event;
	unsigned long val;
	int i, pmc;

	if (!cpuhw->memo_set ||
	    !book3s_memo_get_mmcr(cpuhw->memo_set, &cpuhw->mmcr, pmc_of)) {
		memset(&cpuhw->mmcr, 0, sizeof(cpuhw->mmcr));
		if (pmu->compute_mmcr(cpuhw->code, cpuhw->n_events, pmc_of,
				      &cpuhw->mmcr, cpuhw->event, pmu->flags)) {
			pr_err_once("perf: %s: no MMCR setting for a checked set of events\n",
				    pmu->name);
			return false;
		}
		if (cpuhw->memo_set)
			book3s_memo_put_mmcr(cpuhw->memo_set, &cpuhw->mmcr, pmc_of);
	}
	if (!(pmu->flags & PPMU_ARCH_207S))
		cpuhw->mmcr.mmcr0 |= book3s_mmcr0_excludes(cpuhw->event[0]);
	if (cpuhw->bhrb_users)
		cpuhw->bhrb_filter = book3s_set_bhrb_filter(cpuhw);

	ppc_set_pmu_inuse(1);
	mtspr(SPRN_MMCRA, cpuhw->mmcr.mmcra & ~MMCRA_SAMPLE_ENABLE);
	mtspr(SPRN_MMCR1, cpuhw->mmcr.mmcr1);
	mtspr(SPRN_MMCR0, (cpuhw->mmcr.mmcr0 & ~(MMCR0_PMC1CE | MMCR0_PMCjCE)) |
			  MMCR0_FC);
	if (pmu->flags & PPMU_ARCH_207S)
		mtspr(SPRN_MMCR2, cpuhw->mmcr.mmcr2);
	if (pmu->flags & PPMU_ARCH_31)
		mtspr(SPRN_MMCR3, cpuhw->mmcr.mmcr3);

	/* Events that move to another counter: collect what they counted. */
	for (i = 0; i < cpuhw->n_events; i++) {
		event = cpuhw->event[i];
		if (event->hw.idx && event->hw.idx != pmc_of[i] + 1) {
			book3s_update_count(event);
			book3s_write_pmc(event->hw.idx, 0);
			event->hw.idx = 0;
		}
	}

	/* Load the counters of new and moved events. */
	cpuhw->n_limited = 0;
	for (i = 0; i < cpuhw->n_events; i++) {
		event = cpuhw->event[i];
		if (event->hw.idx)
			continue;
		pmc = pmc_of[i] + 1;
		if (book3s_limited_pmc(pmc)) {
			/* accounted for by book3s_write_mmcr0() on thaw */
			cpuhw->limited[cpuhw->n_limited] = event;
			cpuhw->limited_pmc[cpuhw->n_limited] = pmc;
			cpuhw->n_limited++;
			continue;
		}
		if (book3s_is_ebb(event)) {
			val = local64_read(&event->hw.prev_count);
		} else if (event->hw.state & PERF_HES_STOPPED) {
			/* throttled or not started: no PMI until start() */
			val = 0;
			local64_set(&event->hw.prev_count, 0);
		} else {
			val = book3s_start_value(event);
			local64_set(&event->hw.prev_count, val);
		}
		event->hw.idx = pmc;
		book3s_write_pmc(pmc, val);
		perf_event_update_userpage(event);
	}
	cpuhw->mmcr.mmcr0 |= MMCR0_PMXE | MMCR0_FCECE;
	return true;
}

void book3s_pmu_enable(struct pmu *pmu)
{
	struct book3s_cpu *cpuhw;
	unsigned long flags, mmcr0;
	bool ebb;

	if (!book3s_ppmu)
		return;
	local_irq_save(flags);
	cpuhw = this_cpu_ptr(&book3s_cpu);
	if (!cpuhw->frozen)
		goto out;

	if (!cpuhw->n_events) {
		/* nothing to count: stay frozen */
		cpuhw->n_new = 0;
		ppc_set_pmu_inuse(0);
		goto out;
	}

	/* EBB groups are exclusive and all-or-none: the first one tells. */
	ebb = book3s_is_ebb(cpuhw->event[0]);

	if (cpuhw->n_new) {
		cpuhw->n_new = 0;
		if (!book3s_program(cpuhw))
			goto out;
	} else {
		/*
		 * Same events (or fewer): restore the configuration, and the
		 * pending PMI that disable dropped if a counter overflowed.
		 * An EBB counter's overflow is the task's event-based branch,
		 * taken in problem state (or inside its handler, not yet
		 * reloaded): never a PMI, which would take the PMU from it.
		 */
		hard_irq_disable();
		if (!ebb && book3s_any_overflowed(cpuhw))
			set_pmi_irq_pending();
		mtspr(SPRN_MMCRA, cpuhw->mmcr.mmcra & ~MMCRA_SAMPLE_ENABLE);
		mtspr(SPRN_MMCR1, cpuhw->mmcr.mmcr1);
		if (book3s_ppmu->flags & PPMU_ARCH_31)
			mtspr(SPRN_MMCR3, cpuhw->mmcr.mmcr3);
	}
	cpuhw->frozen = false;

	book3s_pmao_workaround(ebb);
	mmcr0 = book3s_ebb_restore(ebb, cpuhw);
	/* all configuration written before the counters run */
	mb();
	book3s_write_mmcr0(cpuhw, mmcr0);

	if (cpuhw->mmcr.mmcra & MMCRA_SAMPLE_ENABLE) {
		/* instruction sampling last, once the counters run */
		mb();
		mtspr(SPRN_MMCRA, cpuhw->mmcr.mmcra);
	}
	/*
	 * The model adds the branch filter to MMCRA as it stands: after the
	 * last write of MMCRA, which would otherwise drop it.
	 */
	if (cpuhw->bhrb_users && book3s_ppmu->config_bhrb)
		book3s_ppmu->config_bhrb(cpuhw->bhrb_filter);
out:
	local_irq_restore(flags);
}

/*
 * Is the set event[0..n-1] (with codes code[]) schedulable?  Updates code.
 * @base events of it were on the PMU already.  A set that goes onto an
 * empty PMU at once is looked for in the memo first, and remembered.
 */
static bool book3s_set_fits(struct book3s_cpu *cpuhw, int base, int n)
{
	struct book3s_memo_set *memo_set = NULL;
	u64 code_in[MAX_HWEVENTS];

	if (!base) {
		memo_set = book3s_memo_find(&cpuhw->memo, cpuhw->event, cpuhw->code, n);
		if (memo_set)
			goto fits;
		memcpy(code_in, cpuhw->code, n * sizeof(u64));
	}
	/* a set that does not fit is not taken: memo_set stays the set's */
	if (book3s_excludes_conflict(book3s_ppmu, cpuhw->event,
				     cpuhw->altflags, n))
		return false;
	if (cpuhw->bhrb_users && book3s_branch_filters_conflict(cpuhw->event, n))
		return false;
	if (book3s_fit_events(book3s_ppmu, &cpuhw->fit, cpuhw->code,
			      cpuhw->altflags, cpuhw->event, n))
		return false;
	if (!base)
		memo_set = book3s_memo_save(&cpuhw->memo, cpuhw->event, code_in,
					    cpuhw->code, n);
fits:
	cpuhw->memo_set = memo_set;
	return true;
}

int book3s_add(struct perf_event *event, int ef_flags)
{
	struct book3s_cpu *cpuhw;
	unsigned long flags;
	int n, ret = -EAGAIN;

	local_irq_save(flags);
	perf_pmu_disable(event->pmu);
	cpuhw = this_cpu_ptr(&book3s_cpu);

	n = cpuhw->n_events;
	if (n >= book3s_ppmu->n_counter)
		goto out;
	cpuhw->event[n] = event;
	cpuhw->code[n] = event->hw.config;
	cpuhw->altflags[n] = event->hw.event_base;

	/*
	 * Added stopped unless told to start; an event the core throttled
	 * or stopped at its event_limit starts afresh.
	 */
	if (ef_flags & PERF_EF_START)
		event->hw.state = 0;
	else
		event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;

	/* Inside a group transaction, commit_txn() checks the whole set. */
	if (!(cpuhw->txn_flags & PERF_PMU_TXN_ADD)) {
		if (!book3s_set_fits(cpuhw, n, n + 1))
			goto out;
		event->hw.config = cpuhw->code[n];
	}

	book3s_ebb_add(event);
	cpuhw->n_events++;
	cpuhw->n_new++;
	if (has_branch_stack(event))
		book3s_bhrb_get(event);
	ret = 0;
out:
	perf_pmu_enable(event->pmu);
	local_irq_restore(flags);
	return ret;
}

/* Drop a limited (PMC5/6) event from the list book3s_write_mmcr0() uses. */
static void book3s_forget_limited(struct book3s_cpu *cpuhw,
				  struct perf_event *event)
{
	int i, j;

	for (i = 0; i < cpuhw->n_limited; i++) {
		if (cpuhw->limited[i] != event)
			continue;
		for (j = i + 1; j < cpuhw->n_limited; j++) {
			cpuhw->limited[j - 1] = cpuhw->limited[j];
			cpuhw->limited_pmc[j - 1] = cpuhw->limited_pmc[j];
		}
		cpuhw->n_limited--;
		return;
	}
}

void book3s_del(struct perf_event *event, int ef_flags)
{
	struct book3s_cpu *cpuhw;
	unsigned long flags;
	int i, j;

	local_irq_save(flags);
	perf_pmu_disable(event->pmu);
	cpuhw = this_cpu_ptr(&book3s_cpu);

	book3s_update_count(event);
	/* the set is no longer one that went on at once */
	cpuhw->memo_set = NULL;

	for (i = 0; i < cpuhw->n_events; i++) {
		if (cpuhw->event[i] != event)
			continue;
		for (j = i + 1; j < cpuhw->n_events; j++) {
			cpuhw->event[j - 1] = cpuhw->event[j];
			cpuhw->code[j - 1] = cpuhw->code[j];
			cpuhw->altflags[j - 1] = cpuhw->altflags[j];
		}
		cpuhw->n_events--;
		if (event->hw.idx) {
			book3s_ppmu->disable_pmc(event->hw.idx - 1, &cpuhw->mmcr);
			book3s_write_pmc(event->hw.idx, 0);
			event->hw.idx = 0;
		}
		perf_event_update_userpage(event);
		break;
	}
	book3s_forget_limited(cpuhw, event);

	/* no events: no interrupts */
	if (!cpuhw->n_events)
		cpuhw->mmcr.mmcr0 &= ~(MMCR0_PMXE | MMCR0_FCECE);

	if (has_branch_stack(event))
		book3s_bhrb_put(event);

	perf_pmu_enable(event->pmu);
	local_irq_restore(flags);
}

void book3s_start(struct perf_event *event, int ef_flags)
{
	unsigned long flags, val;

	if (!event->hw.idx || !(event->hw.state & PERF_HES_STOPPED))
		return;
	if (book3s_limited_pmc(event->hw.idx))
		return;		/* cannot be loaded; counts while scheduled */

	if (ef_flags & PERF_EF_RELOAD)
		WARN_ON_ONCE(!(event->hw.state & PERF_HES_UPTODATE));

	local_irq_save(flags);
	perf_pmu_disable(event->pmu);
	event->hw.state = 0;
	val = book3s_start_value(event);
	local64_set(&event->hw.prev_count, val);
	book3s_write_pmc(event->hw.idx, val);
	perf_event_update_userpage(event);
	perf_pmu_enable(event->pmu);
	local_irq_restore(flags);
}

void book3s_stop(struct perf_event *event, int ef_flags)
{
	unsigned long flags;

	if (!event->hw.idx || (event->hw.state & PERF_HES_STOPPED))
		return;
	if (book3s_limited_pmc(event->hw.idx))
		return;

	local_irq_save(flags);
	perf_pmu_disable(event->pmu);
	book3s_update_count(event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	book3s_write_pmc(event->hw.idx, 0);
	perf_event_update_userpage(event);
	perf_pmu_enable(event->pmu);
	local_irq_restore(flags);
}

/* Only PERF_PMU_TXN_ADD transactions need work; others are recorded. */
void book3s_start_txn(struct pmu *pmu, unsigned int txn_flags)
{
	struct book3s_cpu *cpuhw = this_cpu_ptr(&book3s_cpu);

	WARN_ON_ONCE(cpuhw->txn_flags);
	cpuhw->txn_flags = txn_flags;
	if (txn_flags & ~PERF_PMU_TXN_ADD)
		return;
	perf_pmu_disable(pmu);
	cpuhw->n_txn_base = cpuhw->n_events;
}

void book3s_cancel_txn(struct pmu *pmu)
{
	struct book3s_cpu *cpuhw = this_cpu_ptr(&book3s_cpu);
	unsigned int txn_flags = cpuhw->txn_flags;

	WARN_ON_ONCE(!txn_flags);
	cpuhw->txn_flags = 0;
	if (txn_flags & ~PERF_PMU_TXN_ADD)
		return;
	perf_pmu_enable(pmu);
}

int book3s_commit_txn(struct pmu *pmu)
{
	struct book3s_cpu *cpuhw = this_cpu_ptr(&book3s_cpu);
	int i;

	WARN_ON_ONCE(!cpuhw->txn_flags);
	if (cpuhw->txn_flags & ~PERF_PMU_TXN_ADD) {
		cpuhw->txn_flags = 0;
		return 0;
	}

	/* on failure the core cancels: del() each member, cancel_txn() */
	if (!book3s_set_fits(cpuhw, cpuhw->n_txn_base, cpuhw->n_events))
		return -EAGAIN;

	for (i = cpuhw->n_txn_base; i < cpuhw->n_events; i++)
		cpuhw->event[i]->hw.config = cpuhw->code[i];
	cpuhw->txn_flags = 0;
	perf_pmu_enable(pmu);
	return 0;
}

#ifdef CONFIG_PPC64
/*
 * asm/hw_irq.h: may the masking code let a PMI in early?  Yes while any
 * event is on this CPU's counters (samples then point at the right spot).
 */
bool power_pmu_wants_prompt_pmi(void)
{
	if (!book3s_ppmu)
		return false;
	return this_cpu_ptr(&book3s_cpu)->n_events != 0;
}
#endif
