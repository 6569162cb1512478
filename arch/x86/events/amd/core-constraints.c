// SPDX-License-Identifier: GPL-2.0
/*
 * AMD core PMU: which counters an event may use.
 *
 * - Family 15h: each event class counts on a subset of the six counters
 *   (a table by event code, from the BKDG).
 * - Family 17h and later: any counter, except the large-increment events,
 *   which take an even counter and its odd partner (a pair); with BRS
 *   (Zen 3 branch sampling) every branch-sampling event is held to
 *   counter 0, so that BRS has one user at a time.
 * - Before the core counter extensions (K8 to Family 10h): northbridge
 *   events (codes 0xE0-0xFF) count on counters shared by every core of a
 *   node.  Each node has an owner table; an event claims one counter in
 *   it with a cmpxchg when scheduled and gives it back when it leaves.
 *   The node's table is shared by its CPUs (allocated per CPU at prepare
 *   time, the first CPU's kept when a second one of the node starts).
 *
 * Locking: constraint calls run on the event's CPU with the PMU off; the
 * owner tables are shared by the node's CPUs and changed by cmpxchg
 * only.  The hotplug callbacks are serialised by the hotplug lock.
 */
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include "core.h"

/* ------------------------------------------------ northbridge counters */

static bool amd_is_nb_event(struct hw_perf_event *hwc)
{
	return (hwc->config & 0xe0) == 0xe0;
}

static bool amd_has_nb(struct cpu_hw_events *cpuc)
{
	return cpuc->amd_nb && cpuc->amd_nb->nb_id != -1;
}

/* Claim a node counter for @event: the one it holds, its last, or any free. */
static struct event_constraint *amd_nb_claim(struct cpu_hw_events *cpuc,
					     struct perf_event *event)
{
	struct amd_nb *nb = cpuc->amd_nb;
	int idx, last = event->hw.idx, n = x86_pmu.num_counters;

	/* validation of a group on a fake cpuc: no node to claim from */
	if (cpuc->is_fake)
		return &unconstrained;

	/* scheduled again before the PMU was enabled: keep the claim */
	for (idx = 0; idx < n; idx++)
		if (READ_ONCE(nb->owners[idx]) == event)
			return &nb->event_constraints[idx];

	if (last >= 0 && last < n && !cmpxchg(&nb->owners[last], NULL, event))
		return &nb->event_constraints[last];
	for (idx = 0; idx < n; idx++)
		if (!cmpxchg(&nb->owners[idx], NULL, event))
			return &nb->event_constraints[idx];
	return &emptyconstraint;
}

struct event_constraint *amd_nb_get_constraints(struct cpu_hw_events *cpuc,
						int idx, struct perf_event *event)
{
	if (!amd_has_nb(cpuc) || !amd_is_nb_event(&event->hw))
		return &unconstrained;
	return amd_nb_claim(cpuc, event);
}

void amd_nb_put_constraints(struct cpu_hw_events *cpuc, struct perf_event *event)
{
	struct amd_nb *nb = cpuc->amd_nb;
	int idx;

	if (!amd_has_nb(cpuc) || !amd_is_nb_event(&event->hw))
		return;
	/* the event may have claimed without being placed: look everywhere */
	for (idx = 0; idx < x86_pmu.num_counters; idx++)
		if (cmpxchg(&nb->owners[idx], event, NULL) == event)
			break;
}

static struct amd_nb *amd_nb_alloc(int cpu)
{
	struct amd_nb *nb;
	int i;

	nb = kzalloc_node(sizeof(*nb), GFP_KERNEL, cpu_to_node(cpu));
	if (!nb)
		return NULL;
	nb->nb_id = -1;
	/* constraint i: node counter i only */
	for (i = 0; i < x86_pmu.num_counters; i++) {
		__set_bit(i, nb->event_constraints[i].idxmsk);
		nb->event_constraints[i].weight = 1;
	}
	return nb;
}

int amd_pmu_cpu_prepare(int cpu)
{
	struct cpu_hw_events *cpuc = &per_cpu(cpu_hw_events, cpu);

	cpuc->lbr_sel = kzalloc_node(sizeof(*cpuc->lbr_sel), GFP_KERNEL,
				     cpu_to_node(cpu));
	if (!cpuc->lbr_sel)
		return -ENOMEM;

	WARN_ON_ONCE(cpuc->amd_nb);
	if (!x86_pmu.amd_nb_constraints)
		return 0;

	cpuc->amd_nb = amd_nb_alloc(cpu);
	if (cpuc->amd_nb)
		return 0;
	kfree(cpuc->lbr_sel);
	cpuc->lbr_sel = NULL;
	return -ENOMEM;
}

void amd_pmu_cpu_starting(int cpu)
{
	struct cpu_hw_events *cpuc = &per_cpu(cpu_hw_events, cpu);
	int other, nb_id;

	cpuc->perf_ctr_virt_mask = AMD64_EVENTSEL_HOSTONLY;
	amd_pmu_cpu_reset();

	if (!x86_pmu.amd_nb_constraints)
		return;

	nb_id = topology_die_id(cpu);
	WARN_ON_ONCE(nb_id == BAD_APICID);

	/* another CPU of this node came first: share its table */
	for_each_online_cpu(other) {
		struct amd_nb *nb = per_cpu(cpu_hw_events, other).amd_nb;

		if (WARN_ON_ONCE(!nb))
			continue;
		if (nb->nb_id == nb_id) {
			cpuc->kfree_on_online[X86_PERF_KFREE_SHARED] = cpuc->amd_nb;
			cpuc->amd_nb = nb;
			break;
		}
	}
	cpuc->amd_nb->nb_id = nb_id;
	cpuc->amd_nb->refcnt++;
}

void amd_pmu_cpu_dead(int cpu)
{
	struct cpu_hw_events *cpuc = &per_cpu(cpu_hw_events, cpu);
	struct amd_nb *nb = cpuc->amd_nb;

	kfree(cpuc->lbr_sel);
	cpuc->lbr_sel = NULL;

	if (!x86_pmu.amd_nb_constraints || !nb)
		return;
	/* never started (nb_id -1), or the node's last CPU */
	if (nb->nb_id == -1 || --nb->refcnt == 0)
		kfree(nb);
	cpuc->amd_nb = NULL;
}

/* ------------------------------------------------------- Family 15h */

/* Counter masks of Family 15h's six counters. */
static struct event_constraint amd_f15h_ctr0 = EVENT_CONSTRAINT(0, 0x01, 0);
static struct event_constraint amd_f15h_ctr0_2 = EVENT_CONSTRAINT(0, 0x07, 0);
static struct event_constraint amd_f15h_ctr3 = EVENT_CONSTRAINT(0, 0x08, 0);
static struct event_constraint amd_f15h_ctr0_3 = EVENT_CONSTRAINT_OVERLAP(0, 0x09, 0);
static struct event_constraint amd_f15h_ctr0_5 = EVENT_CONSTRAINT(0, 0x3f, 0);
static struct event_constraint amd_f15h_ctr3_5 = EVENT_CONSTRAINT(0, 0x38, 0);

/* By event class (code bits 7:4): FP, LS, DC, CU, IC/DE, -, EX/LS, DE, NB. */
static struct event_constraint *const amd_f15h_by_class[16] = {
	[0x0] = &amd_f15h_ctr3_5,  [0x1] = &amd_f15h_ctr3_5,	/* FP */
	[0x2] = &amd_f15h_ctr0_5,  [0x3] = &amd_f15h_ctr0_5,	/* LS */
	[0x4] = &amd_f15h_ctr0_5,  [0x5] = &amd_f15h_ctr0_5,	/* DC */
	[0x6] = &amd_f15h_ctr0_2,  [0x7] = &amd_f15h_ctr0_2,	/* CU */
	[0x8] = &amd_f15h_ctr0_2,  [0x9] = &amd_f15h_ctr0_2,	/* IC/DE */
	[0xc] = &amd_f15h_ctr0_5,				/* EX/LS */
	[0xd] = &amd_f15h_ctr0_2,				/* DE */
	/* 0xa, 0xb: no events; 0xe, 0xf: northbridge, in amd/uncore.c */
};

/* The BKDG's exceptions to the class rule. */
static const struct {
	u16 code;
	struct event_constraint *c;
} amd_f15h_exceptions[] = {
	{ 0x003, &amd_f15h_ctr3 }, { 0x00b, &amd_f15h_ctr3 },
	{ 0x00d, &amd_f15h_ctr3 }, { 0x023, &amd_f15h_ctr0_2 },
	{ 0x02d, &amd_f15h_ctr3 }, { 0x02e, &amd_f15h_ctr0_3 },
	{ 0x043, &amd_f15h_ctr0_2 }, { 0x045, &amd_f15h_ctr0_2 },
	{ 0x046, &amd_f15h_ctr0_2 }, { 0x054, &amd_f15h_ctr0_2 },
	{ 0x055, &amd_f15h_ctr0_2 }, { 0x08f, &amd_f15h_ctr0 },
	{ 0x0db, &amd_f15h_ctr0_5 }, { 0x0dc, &amd_f15h_ctr0_5 },
	{ 0x0dd, &amd_f15h_ctr0_5 }, { 0x0de, &amd_f15h_ctr0_5 },
	{ 0x0df, &amd_f15h_ctr0_5 }, { 0x187, &amd_f15h_ctr0 },
	{ 0x188, &amd_f15h_ctr0 }, { 0x1c0, &amd_f15h_ctr3_5 },
	{ 0x1d6, &amd_f15h_ctr0_5 }, { 0x1d8, &amd_f15h_ctr0_5 },
};

struct event_constraint *amd_f15h_get_constraints(struct cpu_hw_events *cpuc,
						  int idx, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	unsigned int code = amd_event_code(hwc);
	unsigned int umask_bits = hweight_long(hwc->config & ARCH_PERFMON_EVENTSEL_UMASK);
	struct event_constraint *c;
	int i;

	/* events whose counters depend on the unit mask */
	switch (code) {
	case 0x000:	/* FP: counter 3 when both unit mask nibbles are set */
		if ((hwc->config & 0xf000) && (hwc->config & 0x0f00))
			return &amd_f15h_ctr3;
		return &amd_f15h_ctr3_5;
	case 0x004:	/* FP: counter 3 with more than one unit mask bit */
		return umask_bits > 1 ? &amd_f15h_ctr3 : &amd_f15h_ctr3_5;
	case 0x031:	/* LS: one unit mask bit at a time */
		return umask_bits <= 1 ? &amd_f15h_ctr0_2 : &emptyconstraint;
	}

	for (i = 0; i < ARRAY_SIZE(amd_f15h_exceptions); i++)
		if (amd_f15h_exceptions[i].code == code)
			return amd_f15h_exceptions[i].c;

	c = amd_f15h_by_class[(code >> 4) & 0xf];
	return c ? c : &emptyconstraint;
}

/* --------------------------------------------------- Family 17h and up */

static struct event_constraint amd_pair_constraint;

/* Even counters that have an odd partner: the places of a pair event. */
void __init amd_pair_constraint_init(int num_counters)
{
	u64 even = 0;
	int i;

	for (i = 0; i + 1 < num_counters; i += 2)
		even |= BIT_ULL(i);
	amd_pair_constraint = (struct event_constraint)
		__EVENT_CONSTRAINT(0, even, 0, num_counters / 2, 0,
				   PERF_X86_EVENT_PAIR);
}

struct event_constraint *amd_f17h_get_constraints(struct cpu_hw_events *cpuc,
						  int idx, struct perf_event *event)
{
	return amd_is_pair_event(&event->hw) ? &amd_pair_constraint : &unconstrained;
}

/* A pair event leaving gives back the counter its partner took. */
void amd_f17h_put_constraints(struct cpu_hw_events *cpuc, struct perf_event *event)
{
	if (is_counter_pair(&event->hw))
		cpuc->n_pair--;
}

static struct event_constraint amd_brs_ctr0 =
	EVENT_CONSTRAINT(0, 0x1, AMD64_RAW_EVENT_MASK);
static struct event_constraint amd_brs_pair_ctr0 =
	__EVENT_CONSTRAINT(0, 0x1, AMD64_RAW_EVENT_MASK, 1, 0, PERF_X86_EVENT_PAIR);

/* With BRS: one branch-sampling event at a time, on counter 0. */
struct event_constraint *amd_f19h_brs_get_constraints(struct cpu_hw_events *cpuc,
						      int idx, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	bool brs = has_amd_brs(hwc);

	if (amd_is_pair_event(hwc))
		return brs ? &amd_brs_pair_ctr0 : &amd_pair_constraint;
	return brs ? &amd_brs_ctr0 : &unconstrained;
}
