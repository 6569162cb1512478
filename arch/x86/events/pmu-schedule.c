// SPDX-License-Identifier: GPL-2.0
/*
 * x86 PMU framework: which counter each event gets.
 *
 * Every event has a constraint, a mask of the counters that can count it
 * (fixed counters from bit INTEL_PMC_IDX_FIXED up).  perf_assign_events()
 * gives each event one counter of its mask:
 *
 *  1. greedily, the most constrained events (fewest counters) first, each
 *     on a fixed counter if it has one, else on its lowest free general
 *     purpose counter (a "pair" event takes that counter and the next);
 *  2. if that leaves an event without a counter, by augmenting paths
 *     (Kuhn's matching): events already placed move to other counters of
 *     their masks to make room.  This finds an assignment whenever one
 *     exists, where 6.1 only backtracks over constraints flagged as
 *     overlapping, at most twice, and can refuse a set that fits.  It is
 *     used when the only rule is "one counter per event": not with pair
 *     events or a cap on general purpose counters, where the greedy
 *     result stands.
 *
 * x86_schedule_events() wraps it for a cpu_hw_events: it caches each
 * event's constraint, keeps every event on its previous counter when
 * that still works (the common case on a context switch), and calls the
 * driver's start/commit/stop_scheduling hooks.
 *
 * Locking: a cpu_hw_events is used only by its CPU with interrupts off,
 * or is a private fake one (validation).
 */
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/perf_event.h>
#include "framework.h"

#define X86_SCHED_GP_MASK	GENMASK_ULL(INTEL_PMC_IDX_FIXED - 1, 0)

struct x86_sched {
	struct event_constraint **c;
	int gpmax;
	int nr_gp;
	u64 used;
	s8 owner[X86_PMC_IDX_MAX];	/* counter -> event, -1 if free */
	s8 where[X86_PMC_IDX_MAX];	/* event -> counter, -1 if none */
};

/* The counters event @e takes when placed on @idx. */
static u64 x86_sched_footprint(struct x86_sched *s, int e, int idx)
{
	u64 m = BIT_ULL(idx);

	if (idx < INTEL_PMC_IDX_FIXED && (s->c[e]->flags & PERF_X86_EVENT_PAIR))
		m |= m << 1;
	return m;
}

static void x86_sched_take(struct x86_sched *s, int e, int idx)
{
	s->used |= x86_sched_footprint(s, e, idx);
	s->owner[idx] = e;
	s->where[e] = idx;
	if (idx < INTEL_PMC_IDX_FIXED)
		s->nr_gp++;
}

/*
 * Step 1 for one event: a free fixed counter, else the lowest free GP;
 * an event left without one keeps where[] at -1 for step 2.
 */
static void x86_sched_place(struct x86_sched *s, int e)
{
	u64 mask = s->c[e]->idxmsk64;
	u64 fixed = mask & ~X86_SCHED_GP_MASK & ~s->used;
	int idx;

	if (fixed) {
		x86_sched_take(s, e, __ffs64(fixed));
		return;
	}
	if (s->nr_gp >= s->gpmax)
		return;
	for (mask &= X86_SCHED_GP_MASK; mask; mask &= mask - 1) {
		idx = __ffs64(mask);
		if (!(s->used & x86_sched_footprint(s, e, idx))) {
			x86_sched_take(s, e, idx);
			return;
		}
	}
}

/*
 * Step 2 for one event: breadth-first search over counters for a free
 * one, where going from counter c to c2 means "the event on c moves to
 * c2"; then shift every event along the path found.  Iterative, bounded
 * by the 64 counters.
 */
static bool x86_sched_augment(struct x86_sched *s, int e)
{
	s8 from[X86_PMC_IDX_MAX], queue[X86_PMC_IDX_MAX];
	int head = 0, tail = 0, idx, cur, prev, ev;
	u64 reached = 0, mask;

	for (mask = s->c[e]->idxmsk64; mask; mask &= mask - 1) {
		idx = __ffs64(mask);
		reached |= BIT_ULL(idx);
		from[idx] = -1;
		queue[tail++] = idx;
	}

	while (head < tail) {
		cur = queue[head++];
		if (s->owner[cur] < 0)
			goto found;
		ev = s->owner[cur];
		for (mask = s->c[ev]->idxmsk64 & ~reached; mask; mask &= mask - 1) {
			idx = __ffs64(mask);
			reached |= BIT_ULL(idx);
			from[idx] = cur;
			queue[tail++] = idx;
		}
	}
	return false;

found:
	s->used |= BIT_ULL(cur);
	/* walk back: each counter gets the event of the one before it */
	for (;;) {
		prev = from[cur];
		ev = prev < 0 ? e : s->owner[prev];
		s->owner[cur] = ev;
		s->where[ev] = cur;
		if (prev < 0)
			break;
		cur = prev;
	}
	return true;
}

/*
 * Assign a counter to each of @n events with @constraints (weights in
 * [@wmin, @wmax]), at most @gpmax of them general purpose.  On success
 * @assign (if not NULL) holds each event's counter.  Returns how many
 * events got none: 0 on success.
 */
int perf_assign_events(struct event_constraint **constraints, int n,
		       int wmin, int wmax, int gpmax, int *assign)
{
	struct x86_sched s = { .c = constraints, .gpmax = gpmax };
	u64 gp_wanted = 0;
	bool simple = true;
	int w, i, left = 0;

	if (WARN_ON_ONCE(n > X86_PMC_IDX_MAX))
		return n;
	memset(s.owner, -1, sizeof(s.owner));
	memset(s.where, -1, sizeof(s.where));

	/* least weight first, in list order within a weight */
	for (w = wmin; w <= wmax; w++)
		for (i = 0; i < n; i++)
			if (constraints[i]->weight == w)
				x86_sched_place(&s, i);
	for (i = 0; i < n; i++)
		left += s.where[i] < 0;

	if (left) {
		for (i = 0; i < n; i++) {
			if (constraints[i]->flags & PERF_X86_EVENT_PAIR)
				simple = false;
			gp_wanted |= constraints[i]->idxmsk64 & X86_SCHED_GP_MASK;
		}
		if (hweight64(gp_wanted) > gpmax)
			simple = false;
		for (i = 0; simple && i < n; i++)
			if (s.where[i] < 0 && x86_sched_augment(&s, i))
				left--;
	}
	if (left)
		return left;

	for (i = 0; assign && i < n; i++)
		assign[i] = s.where[i];
	return 0;
}
EXPORT_SYMBOL_GPL(perf_assign_events);

/* The default schedule_events() of a driver. */
int x86_schedule_events(struct cpu_hw_events *cpuc, int n, int *assign)
{
	int num_counters = hybrid(cpuc->pmu, num_counters);
	int i, n_old, wmin = X86_PMC_IDX_MAX, wmax = 0, unsched = 0;
	struct event_constraint *c;
	u64 used = 0;

	/*
	 * Events before n_old were scheduled before and keep a cached
	 * constraint; in a transaction the last n_txn ones are new.
	 */
	n_old = cpuc->n_events;
	if (cpuc->txn_flags & PERF_PMU_TXN_ADD)
		n_old -= cpuc->n_txn;

	static_call_cond(x86_pmu_start_scheduling)(cpuc);

	for (i = 0; i < n; i++) {
		c = cpuc->event_constraint[i];
		WARN_ON_ONCE((c && i >= n_old) || (!c && i < n_old));
		/* a dynamic constraint depends on the others: ask again */
		if (!c || (c->flags & PERF_X86_EVENT_DYNAMIC)) {
			struct perf_event *e = cpuc->event_list[i];

			c = static_call(x86_pmu_get_event_constraints)(cpuc, i, e);
			cpuc->event_constraint[i] = c;
		}
		wmin = min(wmin, c->weight);
		wmax = max(wmax, c->weight);
	}

	/* every event keeps its last counter, if that still works */
	for (i = 0; i < n; i++) {
		struct hw_perf_event *hwc = &cpuc->event_list[i]->hw;
		u64 m;

		c = cpuc->event_constraint[i];
		if (hwc->idx < 0 || !test_bit(hwc->idx, c->idxmsk))
			break;
		m = BIT_ULL(hwc->idx);
		if (is_counter_pair(hwc))
			m |= m << 1;
		if (used & m)
			break;
		used |= m;
		if (assign)
			assign[i] = hwc->idx;
	}

	if (i < n) {
		int gpmax = num_counters;

		/*
		 * With HT exclusion active, leave half the counters to the
		 * sibling thread; pair events need room for their partner.
		 */
		if (is_ht_workaround_enabled() && !cpuc->is_fake &&
		    READ_ONCE(cpuc->excl_cntrs->exclusive_present))
			gpmax /= 2;
		if (x86_pmu.flags & PMU_FL_PAIR) {
			gpmax = num_counters - cpuc->n_pair;
			WARN_ON(gpmax <= 0);
		}
		unsched = perf_assign_events(cpuc->event_constraint, n, wmin,
					     wmax, gpmax, assign);
	}

	if (!unsched && assign) {
		/* the driver locks shared resources of the new placement */
		for (i = 0; i < n; i++)
			static_call_cond(x86_pmu_commit_scheduling)(cpuc, i, assign[i]);
	} else {
		/* the new events did not go on: drop their constraints */
		for (i = n_old; i < n; i++) {
			struct perf_event *e = cpuc->event_list[i];

			static_call_cond(x86_pmu_put_event_constraints)(cpuc, e);
			cpuc->event_constraint[i] = NULL;
		}
	}

	static_call_cond(x86_pmu_stop_scheduling)(cpuc);
	return unsched ? -EINVAL : 0;
}

/* Topdown metric events share fixed counter 3 and have a limit of their own. */
static int x86_count_metric_event(struct cpu_hw_events *cpuc,
				  struct perf_event *event)
{
	if (!is_metric_event(event))
		return 0;
	if (cpuc->n_metric == INTEL_TD_METRIC_NUM)
		return -EINVAL;
	cpuc->n_metric++;
	cpuc->n_txn_metric++;
	return 0;
}

void x86_forget_metric_event(struct cpu_hw_events *cpuc,
			     struct perf_event *event)
{
	if (is_metric_event(event))
		cpuc->n_metric--;
}

static int x86_collect_one(struct cpu_hw_events *cpuc, struct perf_event *event,
			   int max_count, int n)
{
	if (hybrid(cpuc->pmu, intel_cap).perf_metrics &&
	    x86_count_metric_event(cpuc, event))
		return -EINVAL;
	if (n >= max_count + cpuc->n_metric)
		return -EINVAL;

	cpuc->event_list[n] = event;
	if (is_counter_pair(&event->hw)) {
		cpuc->n_pair++;
		cpuc->n_txn_pair++;
	}
	return 0;
}

/*
 * Append @leader (and, @with_siblings, its enabled x86 siblings) to
 * cpuc->event_list after the cpuc->n_events already there.  Returns the
 * new number of events, or -EINVAL if they cannot all be on the PMU.
 */
int x86_collect_events(struct cpu_hw_events *cpuc, struct perf_event *leader,
		       bool with_siblings)
{
	int max_count = hybrid(cpuc->pmu, num_counters) +
			hybrid(cpuc->pmu, num_counters_fixed);
	struct perf_event *sibling;
	int n = cpuc->n_events;

	if (!n)
		cpuc->pebs_output = 0;

	/* PEBS records go to the DS area or to PT, one for all events */
	if (!cpuc->is_fake && leader->attr.precise_ip) {
		int output = is_pebs_pt(leader) + 1;

		/* a PEBS-via-PT event whose PT leader went away cannot run */
		if (is_pebs_pt(leader) && !leader->aux_event)
			return -EINVAL;
		if (cpuc->pebs_output && cpuc->pebs_output != output)
			return -EINVAL;
		cpuc->pebs_output = output;
	}

	if (is_x86_event(leader)) {
		if (x86_collect_one(cpuc, leader, max_count, n))
			return -EINVAL;
		n++;
	}
	if (!with_siblings)
		return n;

	for_each_sibling_event(sibling, leader) {
		if (!is_x86_event(sibling) || sibling->state <= PERF_EVENT_STATE_OFF)
			continue;
		if (x86_collect_one(cpuc, sibling, max_count, n))
			return -EINVAL;
		n++;
	}
	return n;
}
