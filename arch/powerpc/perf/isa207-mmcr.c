// SPDX-License-Identifier: GPL-2.0
/*
 * ISA 2.07 / 3.0 / 3.1 MMCR programming: from a set of raw codes that
 * fit together (see isa207-constraint.c) to the MMCR0 counter bits, the
 * MMCR1 per-PMC selectors, the MMCR2 freeze bits, MMCRA sampling and
 * threshold fields and the ISA 3.1 MMCR3, plus the PMC of each event.
 *
 * Locking: none; pure functions of the model and their arguments (the
 * caller tells whether the CPU runs in hypervisor mode).
 */
#include <linux/perf_event.h>
#include <asm/reg.h>

#include "isa207.h"

/* Combine field of a code and where it goes in MMCR1 for @pmc. */
static u64 mmcr1_combine(const struct isa207_model *m, u64 event,
			 unsigned int pmc)
{
	if (m->isa == ISA207_V207)
		return ((event >> 11) & 1) << ISA207_MMCR1_COMB207(pmc);
	return ((event >> 10) & 3) << ISA207_MMCR1_COMB300(pmc);
}

/*
 * MMCRA[SDAR_MODE]: POWER8 updates SDAR on TLB misses in continuous
 * sampling.  ISA 3.0+: no updates once the group has a marked event,
 * else the mode of the code, or "on D-cache miss" when the code has none
 * (the hardware needs a non-zero mode).
 */
static u64 sdar_mode(const struct isa207_model *m, u64 event, u64 mmcra)
{
	u64 mode;

	if (m->isa == ISA207_V207)
		return mmcra | (ISA207_SDAR_TLB << ISA207_MMCRA_SDAR);
	if ((event & ISA207_EV_MARK) || (mmcra & MMCRA_SAMPLE_ENABLE))
		return mmcra & ~ISA207_MMCRA_SDAR_ALL;
	if (m->isa == ISA207_V31)
		mode = (event >> 22) & 3;
	else
		mode = (event >> 50) & 3;
	if (!mode)
		mode = ISA207_SDAR_DCACHE;
	return mmcra | (mode << ISA207_MMCRA_SDAR);
}

/* Threshold fields: MMCRA start/stop, select and compare, or FAB match. */
static void thresh_fields(const struct isa207_model *m, u64 event,
			  struct perf_event *pev, u32 flags, u64 *mmcr1,
			  u64 *mmcra)
{
	s64 cmp;

	if (m->isa == ISA207_V207 && isa207_fab_match(event)) {
		*mmcr1 |= ISA207_EV_THR_CTL(event) << ISA207_MMCR1_FAB;
		return;
	}

	*mmcra |= ISA207_EV_THR_CTL(event) << ISA207_MMCRA_THR_CTL;
	*mmcra |= ISA207_EV_THR_SEL(event) << ISA207_MMCRA_THR_SEL;

	switch (m->isa) {
	case ISA207_V207:
		*mmcra |= ISA207_EV_THR_CMP(event) << ISA207_MMCRA_CMP207;
		break;
	case ISA207_V300:
		*mmcra |= ISA207_EV_THR_CMP(event) << ISA207_MMCRA_CMP300;
		break;
	case ISA207_V31:
		/*
		 * A threshold event's compare value is its config1, encoded
		 * as the constraint checked it (isa207-constraint.c); other
		 * events' config1 means nothing here.
		 */
		if (!(flags & PPMU_HAS_ATTR_CONFIG1) || !ISA207_EV_THR_SEL(event))
			break;
		cmp = isa207_cmp31_encode(pev->attr.config1);
		if (cmp > 0)
			*mmcra |= (u64)cmp << ISA207_MMCRA_CMP300;
		break;
	}
}

/* MMCR2 freeze bits of one counter from the event's exclude_* bits. */
static u64 freeze_bits(struct perf_event *pev, unsigned int pmc,
		       bool hv_mode)
{
	u64 fc = 0;

	if (pev->attr.exclude_user)
		fc |= ISA207_MMCR2_FCP(pmc);
	if (pev->attr.exclude_hv)
		fc |= ISA207_MMCR2_FCH(pmc);
	/* in HV mode the kernel is the hypervisor */
	if (pev->attr.exclude_kernel)
		fc |= hv_mode ? ISA207_MMCR2_FCH(pmc) : ISA207_MMCR2_FCS(pmc);
	if (pev->attr.exclude_idle)
		fc |= ISA207_MMCR2_FCWAIT(pmc);
	return fc;
}

/**
 * isa207_mmcr - compute the MMCRs for a set of events that fit
 * @m: the model
 * @hv_mode: the kernel runs in hypervisor mode (MSR[HV])
 * @event: raw codes
 * @n_ev: number of codes
 * @hwc: receives the 0-based PMC of each event
 * @mmcr: receives the MMCR values
 * @pevents: the events (exclude_* bits, config1, branch stack request)
 * @flags: the PMU's PPMU_* flags
 *
 * Events with a fixed PMC keep it; the others take the free PMCs of 1-4
 * in order.
 *
 * Return: 0.
 */
int isa207_mmcr(const struct isa207_model *m, bool hv_mode, u64 event[],
		int n_ev, unsigned int hwc[], struct mmcr_regs *mmcr,
		struct perf_event *pevents[], u32 flags)
{
	u64 mmcr0 = 0, mmcr1 = 0, mmcr2 = 0, mmcr3 = 0, mmcra = 0;
	bool v31 = m->isa == ISA207_V31;
	unsigned int used = 0;	/* bit p: PMCp taken (1-based) */
	int i;

	for (i = 0; i < n_ev; i++)
		used |= BIT(ISA207_EV_PMC(event[i]));
	used &= ~1U;

	/* ISA 3.1: BHRB stays off unless an event asks for it */
	if (v31)
		mmcra |= MMCRA_BHRB_DISABLE;

	for (i = 0; i < n_ev; i++) {
		u64 ev = event[i];
		struct perf_event *pev = pevents[i];
		unsigned int pmc = ISA207_EV_PMC(ev);

		if (!pmc) {
			for (pmc = 1; pmc < 4; pmc++)
				if (!(used & BIT(pmc)))
					break;
			used |= BIT(pmc);
		}

		if (pmc <= 4) {
			mmcr1 |= ISA207_EV_UNIT(ev) << ISA207_MMCR1_UNIT(pmc);
			mmcr1 |= mmcr1_combine(m, ev, pmc);
			mmcr1 |= ISA207_EV_PSEL(ev) << ISA207_MMCR1_PSEL(pmc);
		}

		mmcra = sdar_mode(m, ev, mmcra);

		if (m->isa != ISA207_V207 || (ev & ISA207_EV_L1))
			mmcr1 |= (ISA207_EV_CACHE(ev) & 3) << ISA207_MMCR1_L1Q;

		if (v31)
			mmcr1 |= ISA207_EV_RADIX(ev) << ISA207_MMCR1_RADIX;

		if (ev & ISA207_EV_MARK) {
			u64 s = ISA207_EV_SAMPLE(ev);

			mmcra |= MMCRA_SAMPLE_ENABLE;
			mmcra |= (s & 3) << ISA207_MMCRA_SMODE;
			mmcra |= (s >> 2) << ISA207_MMCRA_SELIG;
		}

		thresh_fields(m, ev, pev, flags, &mmcr1, &mmcra);

		if (v31 && ISA207_EV_UNIT(ev) == 6)
			mmcr2 |= ISA207_EV_L2L3(ev) << ISA207_MMCR2_L2L3;

		if (ev & ISA207_EV_BHRB)
			mmcra |= ISA207_EV_IFM(ev) << ISA207_MMCRA_IFM;

		if (v31 && (has_branch_stack(pev) || (ev & ISA207_EV_BHRB)))
			mmcra &= ~(u64)MMCRA_BHRB_DISABLE;

		mmcr2 |= freeze_bits(pev, pmc, hv_mode);

		if (v31 && pmc <= 4)
			mmcr3 |= ISA207_EV_MMCR3(ev) << ISA207_MMCR3_PMC(pmc);

		hwc[i] = pmc - 1;
	}

	if (used & BIT(1))
		mmcr0 |= MMCR0_PMC1CE;
	if (used & GENMASK(6, 2))
		mmcr0 |= MMCR0_PMCjCE;
	/* freeze PMC5/6 when neither is used */
	if (!(used & (BIT(5) | BIT(6))))
		mmcr0 |= MMCR0_FC56;
	/* ISA 3.1: group B registers are not user readable with PMCC=0b00 */
	if (v31)
		mmcr0 |= MMCR0_PMCCEXT;
	/* count instructions/cycles on PMC5/6 whatever the run latch */
	if (m->c56run)
		mmcr0 |= MMCR0_C56RUN;

	mmcr->mmcr0 = mmcr0;
	mmcr->mmcr1 = mmcr1;
	mmcr->mmcr2 = mmcr2;
	mmcr->mmcra = mmcra;
	mmcr->mmcr3 = mmcr3;
	return 0;
}

/* Stop PMC @pmc (0-based) counting: clear its MMCR1 event selector. */
void isa207_disable_pmc(unsigned int pmc, struct mmcr_regs *mmcr)
{
	if (pmc < 4)
		mmcr->mmcr1 &= ~(0xffUL << ISA207_MMCR1_PSEL(pmc + 1));
}
