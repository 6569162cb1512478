// SPDX-License-Identifier: GPL-2.0
/*
 * Book3S PMU framework: event-based branches (EBB, ISA 2.07) and the
 * POWER8E lost-alert workaround, both about PMU state that belongs to a
 * task rather than to perf.
 *
 * An EBB event (bit 63 of attr.config, PERF_EVENT_CONFIG_EBB_SHIFT) gives
 * the counters to the task itself: an overflow branches to the task's
 * handler instead of raising a PMI, and the task reads and writes the
 * PMCs, MMCR0's user bits, MMCR2, SIAR/SDAR/SIER directly.  perf only
 * schedules the group (pinned, exclusive, per task, never sampling) and
 * switches that user state with the task: saved into current->thread when
 * the PMU is frozen (book3s_ebb_save), merged back when it is enabled
 * (book3s_ebb_restore).
 *
 * Context: pmu_disable/pmu_enable on the current task's CPU, interrupts
 * disabled.
 */
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <asm/cputable.h>
#include <asm/hw_irq.h>
#include <asm/reg.h>
#include "book3s.h"

/* event_init: the rules an EBB group must follow (EINVAL as 6.1). */
int book3s_ebb_check(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	if (book3s_is_ebb(leader) != book3s_is_ebb(event))
		return -EINVAL;
	if (!book3s_is_ebb(event))
		return 0;

	if (!(event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;
	if (!leader->attr.pinned || !leader->attr.exclusive)
		return -EINVAL;
	if (event->attr.freq || event->attr.inherit ||
	    event->attr.sample_type || event->attr.sample_period ||
	    event->attr.enable_on_exec)
		return -EINVAL;
	return 0;
}

/*
 * First EBB event of the task: set PMXE in its saved MMCR0 so that we can
 * tell when its handler (which runs with PMXE clear) is interrupted.
 */
void book3s_ebb_add(struct perf_event *event)
{
	if (!book3s_is_ebb(event) || current->thread.used_ebb)
		return;
	current->thread.used_ebb = 1;
	current->thread.mmcr0 |= MMCR0_PMXE;
}

/* PMU frozen with EBB on: keep the task's view of the PMU. */
void book3s_ebb_save(unsigned long mmcr0)
{
	struct thread_struct *t = &current->thread;

	if (!(mmcr0 & MMCR0_EBE))
		return;
	t->siar = mfspr(SPRN_SIAR);
	t->sier = mfspr(SPRN_SIER);
	t->sdar = mfspr(SPRN_SDAR);
	t->mmcr0 = mmcr0 & MMCR0_USER_MASK;
	t->mmcr2 = mfspr(SPRN_MMCR2) & MMCR2_USER_MASK;
	if (book3s_ppmu->flags & PPMU_ARCH_31) {
		t->mmcr3 = mfspr(SPRN_MMCR3);
		t->sier2 = mfspr(SPRN_SIER2);
		t->sier3 = mfspr(SPRN_SIER3);
	}
}

/*
 * The MMCR0 to enable with: ours, plus for EBB the user access bits and
 * the task's own FC/PMAO/PMXE; the task's registers go back in place.
 */
unsigned long book3s_ebb_restore(bool ebb, struct book3s_cpu *cpuhw)
{
	struct thread_struct *t = &current->thread;
	unsigned long mmcr0 = cpuhw->mmcr.mmcr0;

	if (!ebb)
		return mmcr0;

	mmcr0 |= MMCR0_EBE | MMCR0_BHRBA | MMCR0_PMCC_U6 | t->mmcr0;
	/* the task's handler may be running: its PMXE wins */
	if (!(t->mmcr0 & MMCR0_PMXE))
		mmcr0 &= ~MMCR0_PMXE;

	mtspr(SPRN_SIAR, t->siar);
	mtspr(SPRN_SIER, t->sier);
	mtspr(SPRN_SDAR, t->sdar);
	/* the task may add freeze bits to ours, not remove them */
	mtspr(SPRN_MMCR2, cpuhw->mmcr.mmcr2 | t->mmcr2);
	if (book3s_ppmu->flags & PPMU_ARCH_31) {
		mtspr(SPRN_MMCR3, t->mmcr3);
		mtspr(SPRN_SIER2, t->sier2);
		mtspr(SPRN_SIER3, t->sier3);
	}
	return mmcr0;
}

/*
 * POWER8E (CPU_FTR_PMAO_BUG): writing MMCR0 with PMAO set does not raise
 * the alert again, so an alert pending when the task was switched out
 * would be lost.  Make the hardware raise a new one: let PMC6 overflow
 * with interrupts hard-disabled, then restore the counters; the exception
 * is taken once interrupts (or, for EBB, user mode) allow.
 */
void book3s_pmao_workaround(bool ebb)
{
	unsigned long pmc[6];
	int i;

	if (!cpu_has_feature(CPU_FTR_PMAO_BUG))
		return;
	if ((current->thread.mmcr0 & (MMCR0_PMAO | MMCR0_PMAO_SYNC)) !=
	    MMCR0_PMAO)
		return;
	if (ebb && !(current->thread.bescr & BESCR_GE))
		return;

	hard_irq_disable();
	for (i = 0; i < 6; i++)
		pmc[i] = book3s_read_pmc(i + 1);

	mtspr(SPRN_MMCR2, 0);			/* nothing frozen */
	mtspr(SPRN_PMC6, 0x7ffffffeUL);		/* overflows in a cycle */
	mtspr(SPRN_MMCR0, MMCR0_PMXE | MMCR0_PMCjCE | MMCR0_PMAO);
	mtspr(SPRN_MMCR0, MMCR0_FC | MMCR0_PMAO);

	for (i = 0; i < 6; i++)
		book3s_write_pmc(i + 1, pmc[i]);
}
