// SPDX-License-Identifier: GPL-2.0
/*
 * Book3S PMU framework: can a set of events share the counters?
 *
 * A model describes each event code by a constraint, a (mask, value) pair
 * made of select, add and NAND fields (see asm/perf_event_server.h).  A
 * set of events fits when their constraints merge without conflict, with
 * the model's add_fields and test_adder detecting overfull add fields and
 * the group constraint (group_constraint_mask/val) holding for the set as
 * a whole.  When the codes as given do not fit, each event may be
 * replaced by one of its alternatives (other codes counting the same
 * thing); a depth-first search tries the combinations in order, the
 * requested codes first.
 *
 * Everything here is a pure function of its arguments and the model's
 * callbacks: no hardware access, no locking (callers pass per-CPU
 * scratch with interrupts disabled).  KUnit: book3s-constraints_test.c.
 */
#include <linux/bug.h>
#include "book3s.h"

/*
 * Merge constraint (m, v) into the running (*mask, *value) of a set.
 * Group-constraint bits never conflict here: they are checked once the
 * whole set is known (book3s_group_ok()).
 */
static bool book3s_merge(const struct power_pmu *pmu, unsigned long *mask,
			 unsigned long *value, unsigned long m,
			 unsigned long v)
{
	unsigned long checked = ~pmu->group_constraint_mask;
	unsigned long sum = (*value | v) + (*value & v & pmu->add_fields);
	unsigned long probe = sum + pmu->test_adder;

	if ((probe ^ *value) & *mask & checked)
		return false;
	if ((probe ^ v) & m & checked)
		return false;
	*value = sum;
	*mask |= m;
	return true;
}

static bool book3s_group_ok(const struct power_pmu *pmu, unsigned long mask,
			    unsigned long value)
{
	unsigned long grp = pmu->group_constraint_mask;

	return (value & mask & grp) == (mask & pmu->group_constraint_val);
}

/**
 * book3s_fit_solve - choose one candidate per event so that all fit
 * @pmu: the model (add_fields, test_adder, group constraint)
 * @fit: fit->cand[0..n-1] filled in; fit->pick[] receives the choice
 * @n: number of events
 *
 * Return: 0 with fit->pick[i] the chosen candidate of event i, or -1.
 */
int book3s_fit_solve(const struct power_pmu *pmu, struct book3s_fit *fit,
		     int n)
{
	unsigned long mask[MAX_HWEVENTS + 1], value[MAX_HWEVENTS + 1];
	const struct book3s_candidates *c;
	unsigned long m, v;
	int i = 0, k;

	if (n < 0 || n > MAX_HWEVENTS)
		return -1;
	mask[0] = 0;
	value[0] = 0;
	if (n)
		fit->pick[0] = -1;

	while (i >= 0) {
		if (i == n) {
			if (book3s_group_ok(pmu, mask[n], value[n]))
				return 0;
			i--;		/* try the next choice below */
			continue;
		}
		c = &fit->cand[i];
		k = ++fit->pick[i];
		if (k >= c->n) {
			i--;		/* exhausted: backtrack */
			continue;
		}
		m = mask[i];
		v = value[i];
		if (!book3s_merge(pmu, &m, &v, c->mask[k], c->value[k]))
			continue;
		mask[i + 1] = m;
		value[i + 1] = v;
		if (++i < n)
			fit->pick[i] = -1;
	}
	return -1;
}

/* The common case, without search: do the requested codes fit? */
static bool book3s_fit_as_requested(const struct power_pmu *pmu,
				    struct book3s_fit *fit, int n)
{
	unsigned long mask = 0, value = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (!book3s_merge(pmu, &mask, &value, fit->cand[i].mask[0],
				  fit->cand[i].value[0]))
			return false;
		fit->pick[i] = 0;
	}
	return book3s_group_ok(pmu, mask, value);
}

/* Candidate 0 of event i: its code as requested. */
static int book3s_first_candidate(const struct power_pmu *pmu,
				  struct book3s_candidates *c, u64 code,
				  unsigned int altflags, u64 config1)
{
	u64 alt[MAX_EVENT_ALTERNATIVES];

	/*
	 * An event that must go on a limited PMC (POWER5+/6/7 PMC5/6, when
	 * the set excludes a privilege level) becomes its first limited
	 * alternative.
	 */
	if ((altflags & PPMU_LIMITED_PMC_REQD) && pmu->limited_pmc_event &&
	    !pmu->limited_pmc_event(code) && pmu->get_alternatives &&
	    pmu->get_alternatives(code, altflags, alt) > 0)
		code = alt[0];

	c->n = 1;
	c->code[0] = code;
	return pmu->get_constraint(code, &c->mask[0], &c->value[0], config1);
}

/* Candidates 1..: the model's alternatives of candidate 0. */
static void book3s_more_candidates(const struct power_pmu *pmu,
				   struct book3s_candidates *c,
				   unsigned int altflags, u64 config1)
{
	u64 alt[MAX_EVENT_ALTERNATIVES];
	int n, j;

	n = pmu->get_alternatives(c->code[0], altflags, alt);
	if (n > MAX_EVENT_ALTERNATIVES)
		n = MAX_EVENT_ALTERNATIVES;
	if (n <= 0)
		return;		/* keep the code itself as the only one */

	c->n = 0;
	for (j = 0; j < n; j++) {
		if (pmu->get_constraint(alt[j], &c->mask[c->n],
					&c->value[c->n], config1))
			continue;
		c->code[c->n++] = alt[j];
	}
}

/**
 * book3s_fit_events - check that events can count together, choosing codes
 * @pmu: the model
 * @fit: scratch
 * @codes: in: the codes of the n events; out: the codes to program
 * @altflags: per event PPMU_LIMITED_PMC_* / PPMU_ONLY_COUNT_RUN flags
 * @events: the events (for attr.config1), may hold NULL for tests
 * @n: number of events
 *
 * Return: 0 if they fit (codes[] updated), -1 if they do not.
 */
int book3s_fit_events(const struct power_pmu *pmu, struct book3s_fit *fit,
		      u64 codes[], const unsigned int altflags[],
		      struct perf_event *events[], int n)
{
	u64 config1;
	int i;

	if (n > pmu->n_counter)
		return -1;

	for (i = 0; i < n; i++) {
		config1 = events[i] ? events[i]->attr.config1 : 0;
		if (book3s_first_candidate(pmu, &fit->cand[i], codes[i],
					   altflags[i], config1))
			return -1;
	}
	if (!book3s_fit_as_requested(pmu, fit, n)) {
		if (!pmu->get_alternatives)
			return -1;
		for (i = 0; i < n; i++) {
			config1 = events[i] ? events[i]->attr.config1 : 0;
			book3s_more_candidates(pmu, &fit->cand[i], altflags[i],
					       config1);
		}
		if (book3s_fit_solve(pmu, fit, n))
			return -1;
	}
	for (i = 0; i < n; i++)
		codes[i] = fit->cand[i].code[fit->pick[i]];
	return 0;
}

/**
 * book3s_excludes_conflict - can these events share one set of freeze bits?
 * @pmu: the model
 * @events: the events
 * @altflags: per event flags, updated: events that may go on a limited
 *            PMC are required to when the others exclude a mode (limited
 *            PMCs ignore the freeze bits, so they cannot exclude anything)
 * @n: number of events
 *
 * Before ISA 2.07 the exclude_user/kernel/hv settings are MMCR0 bits for
 * all counters at once, so every event on a normal PMC must agree.  From
 * ISA 2.07 on, MMCR2 freezes each counter separately and anything goes.
 *
 * Return: true if they conflict.
 */
bool book3s_excludes_conflict(const struct power_pmu *pmu,
			      struct perf_event *events[],
			      unsigned int altflags[], int n)
{
	struct perf_event *first = NULL, *e;
	bool any;
	int i;

	if ((pmu->flags & PPMU_ARCH_207S) || n <= 1)
		return false;

	for (i = 0; i < n; i++) {
		if (altflags[i] & PPMU_LIMITED_PMC_OK) {
			altflags[i] &= ~PPMU_LIMITED_PMC_REQD;
			continue;
		}
		e = events[i];
		if (!first) {
			first = e;
			continue;
		}
		if (e->attr.exclude_user != first->attr.exclude_user ||
		    e->attr.exclude_kernel != first->attr.exclude_kernel ||
		    e->attr.exclude_hv != first->attr.exclude_hv)
			return true;
	}

	any = first && (first->attr.exclude_user ||
			first->attr.exclude_kernel ||
			first->attr.exclude_hv);
	if (any)
		for (i = 0; i < n; i++)
			if (altflags[i] & PPMU_LIMITED_PMC_OK)
				altflags[i] |= PPMU_LIMITED_PMC_REQD;
	return false;
}

/**
 * book3s_branch_filters_conflict - do branch-stack events need two filters?
 * @events: the events
 * @n: number of events
 *
 * The BHRB has one instruction filter (MMCRA[IFM]) per CPU: events with a
 * branch stack share the PMU only if they ask for the same one
 * (hw.branch_reg.config, set at event_init).  Others take turns, as
 * events that need the same counter do.
 *
 * Return: true if two of them want different filters.
 */
bool book3s_branch_filters_conflict(struct perf_event *events[], int n)
{
	struct perf_event *first = NULL;
	int i;

	for (i = 0; i < n; i++) {
		if (!has_branch_stack(events[i]))
			continue;
		if (!first)
			first = events[i];
		else if (events[i]->hw.branch_reg.config !=
			 first->hw.branch_reg.config)
			return true;
	}
	return false;
}
