// SPDX-License-Identifier: GPL-2.0
/*
 * Intel core PMU: which counters an event may use.
 *
 * An event's constraint comes from the first of these that has one:
 *  1. the virtual LBR event and BTS (pseudo counters of their own);
 *  2. a shared extra register (OFFCORE_RSP_0/1, LDLAT, FRONTEND): when
 *     another event holds it with a different value, the event gets no
 *     counter at all (or, for OFFCORE_RSP, moves to the other register);
 *  3. the PEBS table when precise_ip is set (ds.c);
 *  4. the model's event table; else every general counter.
 * Model wrappers then narrow it (TSX checkpointing on counter 2 only,
 * :ppp on counter 0 or fixed counter 0, no PMC3 without TSX force abort).
 *
 * The HT erratum (SNB/IVB/HSW: BJ122, BV98, HSD29): some memory events
 * corrupt the same counter of the sibling thread.  Such events need the
 * counter exclusively across both threads, so constraints become
 * per-thread copies ("dynamic") that drop the counters the sibling uses
 * in a conflicting way.  Scheduling is then a transaction under the
 * core's excl_cntrs->lock (start/commit/stop_scheduling).
 *
 * Locking: a shared register's use count and value are under its
 * er_account lock (the register may be shared by HT siblings); the
 * exclusive-counter states under excl_cntrs->lock, held from
 * start_scheduling() to stop_scheduling().  A fake cpuc (group
 * validation) touches neither the event nor the sibling's state.
 */
#include <linux/perf_event.h>
#include "core.h"

static struct event_constraint intel_counter0_only =
	INTEL_ALL_EVENT_CONSTRAINT(0, 0x1);
static struct event_constraint intel_counter2_only =
	EVENT_CONSTRAINT(0, 0x4, 0);
static struct event_constraint intel_fixed0_only =
	FIXED_EVENT_CONSTRAINT(0x00c0, 0);
static struct event_constraint intel_fixed0_or_counter0 =
	INTEL_ALL_EVENT_CONSTRAINT(0, 0x100000001ULL);

bool intel_allow_tsx_force_abort = true;

/* The model table lookup, also used by P6, KNC and P4 as their only one. */
struct event_constraint *x86_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event)
{
	struct event_constraint *table = hybrid(cpuc->pmu, event_constraints);
	struct event_constraint *c;

	if (table) {
		for_each_event_constraint(c, table) {
			if (!constraint_match(c, event->hw.config))
				continue;
			event->hw.flags |= c->flags;
			return c;
		}
	}
	return &hybrid_var(cpuc->pmu, unconstrained);
}

/* ---- shared extra registers ---- */

/*
 * OFFCORE_RSP has two registers on most parts: an event that finds its
 * register taken with another value may use the other one, if the value
 * is valid there.  Returns the register to try next (@idx: no other).
 */
static int intel_other_rsp_reg(struct cpu_hw_events *cpuc, int idx, u64 value)
{
	struct extra_reg *regs = hybrid(cpuc->pmu, extra_regs);
	int other;

	if (!(x86_pmu.flags & PMU_FL_HAS_RSP_1))
		return idx;
	if (idx == EXTRA_REG_RSP_0)
		other = EXTRA_REG_RSP_1;
	else if (idx == EXTRA_REG_RSP_1)
		other = EXTRA_REG_RSP_0;
	else
		return idx;
	if (value & ~regs[other].valid_mask)
		return idx;
	return other;
}

/* Move @event to OFFCORE_RSP register @idx: its event code follows. */
static void intel_move_to_rsp_reg(struct perf_event *event, int idx)
{
	struct extra_reg *regs = hybrid(event->pmu, extra_regs);
	struct hw_perf_event *hwc = &event->hw;

	hwc->extra_reg.idx = idx;
	if (idx != EXTRA_REG_RSP_0 && idx != EXTRA_REG_RSP_1)
		return;
	hwc->config = (hwc->config & ~INTEL_ARCH_EVENT_MASK) | regs[idx].event;
	hwc->extra_reg.reg = idx == EXTRA_REG_RSP_0 ? MSR_OFFCORE_RSP_0 :
						      MSR_OFFCORE_RSP_1;
}

/*
 * Take a reference on the shared register @reg asks for.  NULL: taken
 * (or already held), go on to the counter constraint; emptyconstraint:
 * held by someone else with another value.
 */
static struct event_constraint *
intel_claim_shared_reg(struct cpu_hw_events *cpuc, struct perf_event *event,
		       struct hw_perf_event_extra *reg)
{
	int idx = reg->idx;

	/* Incremental scheduling asks again: claim once. */
	if (reg->alloc && !cpuc->is_fake)
		return NULL;

	for (;;) {
		struct er_account *era = &cpuc->shared_regs->regs[idx];
		unsigned long flags;
		int next;

		raw_spin_lock_irqsave(&era->lock, flags);
		if (!atomic_read(&era->ref) || era->config == reg->config) {
			/* A fake cpuc leaves the event as it is. */
			if (!cpuc->is_fake) {
				if (idx != reg->idx)
					intel_move_to_rsp_reg(event, idx);
				reg->alloc = 1;
			}
			era->config = reg->config;
			era->reg = reg->reg;
			atomic_inc(&era->ref);
			raw_spin_unlock_irqrestore(&era->lock, flags);
			return NULL;
		}
		next = intel_other_rsp_reg(cpuc, idx, reg->config);
		raw_spin_unlock_irqrestore(&era->lock, flags);
		if (next == reg->idx)
			return &emptyconstraint;
		idx = next;
	}
}

static void intel_release_shared_reg(struct cpu_hw_events *cpuc,
				     struct hw_perf_event_extra *reg)
{
	if (!reg->alloc || cpuc->is_fake)
		return;
	atomic_dec(&cpuc->shared_regs->regs[reg->idx].ref);
	reg->alloc = 0;
}

static struct event_constraint *
intel_shared_regs_constraint(struct cpu_hw_events *cpuc,
			     struct perf_event *event)
{
	struct hw_perf_event_extra *xreg = &event->hw.extra_reg;
	struct hw_perf_event_extra *breg = &event->hw.branch_reg;

	if (xreg->idx != EXTRA_REG_NONE &&
	    intel_claim_shared_reg(cpuc, event, xreg) == &emptyconstraint)
		return &emptyconstraint;

	if (breg->idx != EXTRA_REG_NONE &&
	    intel_claim_shared_reg(cpuc, event, breg) == &emptyconstraint) {
		intel_release_shared_reg(cpuc, xreg);
		return &emptyconstraint;
	}
	return NULL;
}

/* The static constraint, before any HT exclusion. */
static struct event_constraint *
intel_static_constraint(struct cpu_hw_events *cpuc, int idx,
			struct perf_event *event)
{
	struct event_constraint *c;

	if (unlikely(constraint_match(&vlbr_constraint, event->hw.config))) {
		event->hw.flags |= vlbr_constraint.flags;
		return &vlbr_constraint;
	}
	if (unlikely(intel_pmu_has_bts(event)))
		return &bts_constraint;

	c = intel_shared_regs_constraint(cpuc, event);
	if (c)
		return c;

	c = intel_pebs_constraints(event);
	if (c)
		return c;

	return x86_get_event_constraints(cpuc, idx, event);
}

/* ---- the HT erratum: exclusive counters ---- */

static bool intel_excl_active(struct cpu_hw_events *cpuc)
{
	if (cpuc->is_fake || !is_ht_workaround_enabled())
		return false;
	return !WARN_ON_ONCE(!cpuc->excl_cntrs);
}

/* A per-event copy of @c that may be narrowed (cpuc->constraint_list). */
static struct event_constraint *
intel_dynamic_copy(struct cpu_hw_events *cpuc, struct event_constraint *c,
		   int idx)
{
	struct event_constraint *copy;

	WARN_ON_ONCE(!cpuc->constraint_list);
	if (c->flags & PERF_X86_EVENT_DYNAMIC)
		return c;

	copy = &cpuc->constraint_list[idx];
	*copy = *c;
	copy->flags |= PERF_X86_EVENT_DYNAMIC;
	return copy;
}

void intel_start_scheduling(struct cpu_hw_events *cpuc)
{
	if (!intel_excl_active(cpuc))
		return;
	cpuc->excl_cntrs->states[cpuc->excl_thread_id].sched_started = true;
	raw_spin_lock(&cpuc->excl_cntrs->lock);
}

void intel_commit_scheduling(struct cpu_hw_events *cpuc, int idx, int cntr)
{
	struct event_constraint *c = cpuc->event_constraint[idx];
	struct intel_excl_states *mine;

	if (!intel_excl_active(cpuc) || !(c->flags & PERF_X86_EVENT_DYNAMIC))
		return;

	mine = &cpuc->excl_cntrs->states[cpuc->excl_thread_id];
	lockdep_assert_held(&cpuc->excl_cntrs->lock);
	mine->state[cntr] = (c->flags & PERF_X86_EVENT_EXCL) ?
			    INTEL_EXCL_EXCLUSIVE : INTEL_EXCL_SHARED;
}

void intel_stop_scheduling(struct cpu_hw_events *cpuc)
{
	if (!intel_excl_active(cpuc))
		return;
	cpuc->excl_cntrs->states[cpuc->excl_thread_id].sched_started = false;
	raw_spin_unlock(&cpuc->excl_cntrs->lock);
}

/*
 * Drop from @c (a dynamic copy) the counters the sibling thread uses in
 * a way that conflicts, by its states @theirs: any counter it holds
 * exclusively, and for an @exclusive event any counter it uses at all.
 * Returns how many counters are left (c->weight too).
 */
int intel_excl_narrow(struct event_constraint *c,
		      const struct intel_excl_states *theirs, bool exclusive)
{
	int bit;

	for_each_set_bit(bit, c->idxmsk, X86_PMC_IDX_MAX) {
		enum intel_excl_state_type state = theirs->state[bit];

		if (state == INTEL_EXCL_EXCLUSIVE ||
		    (exclusive && state == INTEL_EXCL_SHARED)) {
			__clear_bit(bit, c->idxmsk);
			c->weight--;
		}
	}
	return c->weight;
}

static struct event_constraint *
intel_excl_constraint(struct cpu_hw_events *cpuc, struct perf_event *event,
		      int idx, struct event_constraint *c)
{
	struct intel_excl_cntrs *excl = cpuc->excl_cntrs;
	int tid = cpuc->excl_thread_id;
	bool exclusive;

	if (!intel_excl_active(cpuc))
		return c;

	c = intel_dynamic_copy(cpuc, c, idx);
	exclusive = c->flags & PERF_X86_EVENT_EXCL;

	if (exclusive && !(event->hw.flags & PERF_X86_EVENT_EXCL_ACCT)) {
		event->hw.flags |= PERF_X86_EVENT_EXCL_ACCT;
		if (!cpuc->n_excl++)
			WRITE_ONCE(excl->has_exclusive[tid], 1);
	}

	/* Nothing left: the static empty constraint needs no undoing. */
	if (!intel_excl_narrow(c, &excl->states[tid ^ 1], exclusive))
		return &emptyconstraint;
	return c;
}

struct event_constraint *intel_get_event_constraints(struct cpu_hw_events *cpuc,
						     int idx,
						     struct perf_event *event)
{
	struct event_constraint *prev = cpuc->event_constraint[idx];
	struct event_constraint *c = intel_static_constraint(cpuc, idx, event);

	/*
	 * Asked again during incremental scheduling: a dynamic copy from
	 * the last round is refreshed from the static constraint.
	 */
	if (prev) {
		WARN_ON_ONCE(!(prev->flags & PERF_X86_EVENT_DYNAMIC));
		bitmap_copy(prev->idxmsk, c->idxmsk, X86_PMC_IDX_MAX);
		prev->weight = c->weight;
		c = prev;
	}

	if (cpuc->excl_cntrs)
		return intel_excl_constraint(cpuc, event, idx, c);
	return c;
}

static void intel_release_excl(struct cpu_hw_events *cpuc,
			       struct perf_event *event)
{
	struct intel_excl_cntrs *excl = cpuc->excl_cntrs;
	struct hw_perf_event *hwc = &event->hw;
	int tid = cpuc->excl_thread_id;
	struct intel_excl_states *mine;

	if (cpuc->is_fake || WARN_ON_ONCE(!excl))
		return;

	if (hwc->flags & PERF_X86_EVENT_EXCL_ACCT) {
		hwc->flags &= ~PERF_X86_EVENT_EXCL_ACCT;
		if (!--cpuc->n_excl)
			WRITE_ONCE(excl->has_exclusive[tid], 0);
	}

	if (hwc->idx < 0)
		return;

	/* From x86_schedule_events() the lock is already held. */
	mine = &excl->states[tid];
	if (mine->sched_started) {
		mine->state[hwc->idx] = INTEL_EXCL_UNUSED;
	} else {
		raw_spin_lock(&excl->lock);
		mine->state[hwc->idx] = INTEL_EXCL_UNUSED;
		raw_spin_unlock(&excl->lock);
	}
}

void intel_put_event_constraints(struct cpu_hw_events *cpuc,
				 struct perf_event *event)
{
	if (event->hw.extra_reg.idx != EXTRA_REG_NONE)
		intel_release_shared_reg(cpuc, &event->hw.extra_reg);
	if (event->hw.branch_reg.idx != EXTRA_REG_NONE)
		intel_release_shared_reg(cpuc, &event->hw.branch_reg);

	/* With the erratum, every event takes part in the exclusion. */
	if (cpuc->excl_cntrs)
		intel_release_excl(cpuc, event);
}

/* ---- model wrappers ---- */

/* Haswell+: a TSX-checkpointed event counts on counter 2 only. */
struct event_constraint *hsw_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event)
{
	struct event_constraint *c = intel_get_event_constraints(cpuc, idx, event);

	if (!(event->hw.config & HSW_IN_TX_CHECKPOINTED))
		return c;
	return (c->idxmsk64 & BIT_ULL(2)) ? &intel_counter2_only :
					    &emptyconstraint;
}

/* Icelake+: instructions:ppp on fixed counter 0, which has less skid. */
struct event_constraint *icl_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event)
{
	if (event->attr.precise_ip == 3 &&
	    constraint_match(&intel_fixed0_only, event->hw.config))
		return &intel_fixed0_only;
	return hsw_get_event_constraints(cpuc, idx, event);
}

/*
 * Sapphire Rapids: any other :ppp event needs PDist, on counter 0 only;
 * an event that cannot count there cannot be :ppp.
 */
struct event_constraint *spr_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event)
{
	struct event_constraint *c = icl_get_event_constraints(cpuc, idx, event);

	if (event->attr.precise_ip != 3 ||
	    constraint_match(&intel_fixed0_only, event->hw.config))
		return c;
	return (c->idxmsk64 & BIT_ULL(0)) ? &intel_counter0_only :
					    &emptyconstraint;
}

/* Goldmont Plus: :ppp is reduced-skid PEBS, counter 0 only. */
struct event_constraint *glp_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event)
{
	if (event->attr.precise_ip == 3)
		return &intel_counter0_only;
	return intel_get_event_constraints(cpuc, idx, event);
}

/* Tremont+: reduced-skid PEBS on counter 0, and fixed 0 for instructions. */
struct event_constraint *tnt_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event)
{
	struct event_constraint *c = intel_get_event_constraints(cpuc, idx, event);

	if (event->attr.precise_ip != 3)
		return c;
	if (constraint_match(&intel_fixed0_only, event->hw.config))
		return &intel_fixed0_or_counter0;
	return &intel_counter0_only;
}

/* Skylake with TSX force abort: PMC3 only while RTM is forced to abort. */
struct event_constraint *tfa_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event)
{
	struct event_constraint *c = hsw_get_event_constraints(cpuc, idx, event);

	if (!intel_allow_tsx_force_abort && test_bit(3, c->idxmsk)) {
		c = intel_dynamic_copy(cpuc, c, idx);
		c->idxmsk64 &= ~BIT_ULL(3);
		c->weight--;
	}
	return c;
}

void intel_tfa_commit_scheduling(struct cpu_hw_events *cpuc, int idx, int cntr)
{
	/* Force aborts on before PMC3 is programmed. */
	if (cntr == 3)
		intel_set_tfa(cpuc, true);
}

/* Alder Lake: the big cores are Sapphire Rapids', the small Tremont's. */
struct event_constraint *adl_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event)
{
	switch (hybrid_pmu(event->pmu)->cpu_type) {
	case hybrid_big:
		return spr_get_event_constraints(cpuc, idx, event);
	case hybrid_small:
		return tnt_get_event_constraints(cpuc, idx, event);
	default:
		WARN_ON(1);
		return &emptyconstraint;
	}
}
