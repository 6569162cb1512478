// SPDX-License-Identifier: GPL-2.0
/*
 * ISA 2.07 / 3.0 / 3.1 event validation: which raw codes a model accepts,
 * the (mask, value) constraint of each code for the framework's solver,
 * the alternative codes of an event, and the reserved-value check of
 * attr.config.
 *
 * Locking: none; pure functions of the model and their arguments.
 */
#include <linux/bitops.h>
#include <linux/errno.h>

#include "isa207.h"

bool isa207_event_valid(const struct isa207_model *m, u64 event)
{
	u64 valid;

	switch (m->isa) {
	case ISA207_V31:
		valid = ISA207_VALID_V31;
		break;
	case ISA207_V300:
		valid = ISA207_VALID_V300;
		break;
	default:
		valid = ISA207_VALID_V207;
		break;
	}
	return !(event & ~valid);
}

/*
 * ISA 3.1 threshold compare: an 18-bit count N, saturated at the largest
 * representable value, stored as an 8-bit mantissa and a 3-bit exponent
 * (value = mantissa << 2 * exponent).  Returns (exponent << 8) | mantissa,
 * or -1 if the result would be an invalid mantissa.
 */
s64 isa207_cmp31_encode(u64 value)
{
	unsigned int exp = 0;

	if (!value)
		return 0;
	value = min(value, ISA207_CMP31_MAX);
	while (fls64(value) > 8) {
		value >>= 2;
		exp++;
	}
	/* A non-zero exponent needs one of the top two mantissa bits. */
	if (exp && !(value & 0xc0))
		return -1;
	return ((s64)exp << 8) | value;
}

/* ISA 2.07/3.0: same rule on the 10-bit compare field of the code. */
static bool cmp_field_ok(u64 event)
{
	u64 cmp = ISA207_EV_THR_CMP(event);

	return !(cmp >> 7) || (cmp & 0x60);
}

/*
 * POWER8's PM_MRK_FAB_RSP_MATCH (PMC3) and PM_MRK_FAB_RSP_MATCH_CYC (PMC4)
 * reuse the threshold control field as the fabric match value.
 */
bool isa207_fab_match(u64 event)
{
	u64 key = event & 0xff0feULL;	/* PMC, unit, PMCxSEL without edge */

	return key == 0x30056 || key == 0x4f052;
}

/* Cache-select constraints of the L2/L3 units 6-9 and of L1 events. */
static int cache_constraint(const struct isa207_model *m, u64 event,
			    unsigned int pmc, unsigned long *mask,
			    unsigned long *val)
{
	u64 unit = ISA207_EV_UNIT(event);
	u64 cache = ISA207_EV_CACHE(event);

	if (m->isa == ISA207_V31)
		cache &= 3;

	if (unit < 6 || unit > 9) {
		if (m->isa != ISA207_V207 || (event & ISA207_EV_L1)) {
			*mask |= ISA207_CN_L1Q(3);
			*val |= ISA207_CN_L1Q(cache);
		}
		return 0;
	}

	switch (m->isa) {
	case ISA207_V31:
		if (unit == 6) {
			*mask |= ISA207_CN_L2L3_31(0x1f);
			*val |= ISA207_CN_L2L3_31(ISA207_EV_L2L3(event));
		}
		break;
	case ISA207_V300:
		/* One bus event selector for all units 6-9 */
		*mask |= ISA207_CN_CACHE(0xff) | ISA207_CN_L2L3_PMC4;
		*val |= ISA207_CN_CACHE(ISA207_EV_PSEL(event));
		if (pmc == 4)
			*val |= ISA207_CN_L2L3_PMC4;
		break;
	default:
		/*
		 * The L2/L3 selectors live in MMCRC, which only the
		 * hypervisor writes (and leaves zero): accept only codes that
		 * need the zero selector.  Bit 3 (bank) does not matter.
		 */
		if (cache & 7)
			return -1;
		break;
	}
	return 0;
}

static int thresh_constraint(const struct isa207_model *m, u64 event,
			     u64 config1, unsigned long *mask,
			     unsigned long *val)
{
	s64 enc;

	switch (m->isa) {
	case ISA207_V31:
		if (!ISA207_EV_THR_SEL(event))
			return 0;
		/* the compare value comes from attr.config1 */
		enc = isa207_cmp31_encode(config1);
		if (enc < 0)
			return -1;
		*mask |= ISA207_CN_THR31(0x7ff) | ISA207_CN_CMP31(0x7ff);
		*val |= ISA207_CN_THR31(ISA207_EV_THR_ALL(event)) |
			ISA207_CN_CMP31(enc);
		return 0;
	case ISA207_V300:
		if (!ISA207_EV_THR_SEL(event))
			return 0;
		break;
	default:
		if (isa207_fab_match(event)) {
			*mask |= ISA207_CN_FAB(0xff);
			*val |= ISA207_CN_FAB(ISA207_EV_THR_CTL(event));
			return 0;
		}
		break;
	}
	if (!cmp_field_ok(event))
		return -1;
	*mask |= ISA207_CN_THR(0x1fffff);
	*val |= ISA207_CN_THR(ISA207_EV_THR_ALL(event));
	return 0;
}

/**
 * isa207_constraint - constraint of one raw event code on model @m
 * @m: the model
 * @event: raw code (attr.config after the framework's translation)
 * @config1: attr.config1 (ISA 3.1 threshold compare)
 * @maskp: receives the constraint mask
 * @valp: receives the constraint value
 *
 * Return: 0, or -1 if the code cannot be counted at all.
 */
int isa207_constraint(const struct isa207_model *m, u64 event, u64 config1,
		      unsigned long *maskp, unsigned long *valp)
{
	unsigned int pmc = ISA207_EV_PMC(event);
	u64 ebb = ISA207_EV_EBB(event);
	unsigned long mask = 0, val = 0;

	if (!isa207_event_valid(m, event))
		return -1;

	if (pmc) {
		u64 code = event & ~ISA207_EV_LINUX_BITS;

		if (pmc > 6)
			return -1;
		/* PMC5 and PMC6 count one fixed event each */
		if (pmc == 5 && code != ISA207_PMC5_INST)
			return -1;
		if (pmc == 6 && code != ISA207_PMC6_CYC)
			return -1;
		mask |= ISA207_CN_PMC_MASK(pmc);
		val |= ISA207_CN_PMC_VAL(pmc);
	}

	/* PMC5/6 have none of the selector, cache or threshold fields */
	if (pmc < 5) {
		/* any-PMC events too: they take one of PMC1-4 later */
		mask |= ISA207_CN_NC_MASK;
		val |= ISA207_CN_NC_VAL;

		if (cache_constraint(m, event, pmc, &mask, &val))
			return -1;

		if (m->isa == ISA207_V31) {
			mask |= ISA207_CN_RADIX(1);
			val |= ISA207_CN_RADIX(ISA207_EV_RADIX(event));
		}

		if (event & ISA207_EV_MARK) {
			mask |= ISA207_CN_SAMPLE(0x1f);
			val |= ISA207_CN_SAMPLE(ISA207_EV_SAMPLE(event));
		}

		if (thresh_constraint(m, event, config1, &mask, &val))
			return -1;
	}

	/* EBB needs a fixed PMC; BHRB filtering only comes with EBB */
	if (ebb && !pmc)
		return -1;
	if (event & ISA207_EV_BHRB) {
		if (!ebb)
			return -1;
		mask |= ISA207_CN_IFM(3);
		val |= ISA207_CN_IFM(ISA207_EV_IFM(event));
	}
	/* all events of a group agree on EBB */
	mask |= ISA207_CN_EBB(1);
	val |= ISA207_CN_EBB(ebb);

	*maskp = mask;
	*valp = val;
	return 0;
}

/* The code counting the same as @code on the other counter, or 0. */
static u64 run_latch_twin(u64 code)
{
	switch (code) {
	case ISA207_ANY_CYC:
		return ISA207_PMC6_CYC;
	case ISA207_PMC6_CYC:
		return ISA207_ANY_CYC;
	case ISA207_ANY_INST:
		return ISA207_PMC5_INST;
	case ISA207_PMC5_INST:
		return ISA207_ANY_INST;
	}
	return 0;
}

/**
 * isa207_alternatives - codes that count the same as @event
 * @m: the model (its table of code pairs)
 * @event: raw code
 * @flags: PPMU_ONLY_COUNT_RUN etc (get_alternatives flags)
 * @alt: receives @event first, then its alternatives
 *
 * When only counting in the run state, cycles and instructions on PMC1-4
 * are the same as the run-latch gated PMC6/PMC5 events; each code of the
 * list then gets its twin appended (repeats are harmless to the solver).
 *
 * Return: the number of codes in @alt.
 */
int isa207_alternatives(const struct isa207_model *m, u64 event,
			unsigned int flags, u64 alt[])
{
	int i, n = 0, base;

	alt[n++] = event;
	for (i = 0; i < m->n_alts; i++) {
		if (m->alts[i][0] == event) {
			alt[n++] = m->alts[i][1];
			break;
		}
		if (m->alts[i][1] == event) {
			alt[n++] = m->alts[i][0];
			break;
		}
	}

	if (!(flags & PPMU_ONLY_COUNT_RUN))
		return n;

	base = n;
	for (i = 0; i < base; i++) {
		u64 twin = run_latch_twin(alt[i]);

		if (twin)
			alt[n++] = twin;
	}
	return n;
}

/**
 * isa207_check_config - reject reserved field values of attr.config
 * @m: the model (its reserved sampling values)
 * @config: attr.config
 *
 * Return: 0 or -EINVAL.
 */
int isa207_check_config(const struct isa207_model *m, u64 config)
{
	u64 ctl = ISA207_EV_THR_CTL(config);

	if (m->reserved_samples & BIT(ISA207_EV_SAMPLE(config)))
		return -EINVAL;
	/* threshold start 0b1111 and stop 0b1111 are reserved */
	if ((ctl & 0xf0) == 0xf0 || (ctl & 0xf) == 0xf)
		return -EINVAL;
	return 0;
}
