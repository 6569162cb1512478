// SPDX-License-Identifier: GPL-2.0
/*
 * Intel core PMU: from attr to event select, and the period rules.
 *
 * hw_config() adds to the framework's checks what only Intel has: BTS
 * (the branch trace store as a pseudo event), PEBS (auto-reload, large
 * PEBS buffers, the cycle-event aliases that make cycles PEBS-capable),
 * LBR filters, PEBS-via-PT (aux_output), the topdown slots and metric
 * events, Sapphire Rapids' mem-loads auxiliary event, AnyThread, and TSX
 * filters on Haswell and later.  The start period of a frequency event
 * is estimated from the event kind instead of 1.
 *
 * Locking: none; called from event init, which owns the event.
 */
#include <linux/perf_event.h>
#include <linux/math64.h>
#include <asm/intel_pt.h>
#include "core.h"

/* ---- PEBS aliases: a PEBS-capable encoding of CPU_CLK_UNHALTED.THREAD_P ---- */

/*
 * Cycles (0x3c) cannot be PEBS-sampled.  A retirement event with the
 * condition "fewer than 16 per cycle" (cmask=16, inv=1) is true every
 * cycle and is PEBS-capable, so it counts cycles precisely.
 */
static void intel_pebs_cycles_as(struct perf_event *event, u64 alias)
{
	u64 config = event->hw.config;

	if ((config & X86_RAW_EVENT_MASK) != 0x003c)
		return;
	event->hw.config = alias | (config & ~X86_RAW_EVENT_MASK);
}

/* INST_RETIRED.ANY_P, cmask=16, inv. */
void intel_pebs_aliases_core2(struct perf_event *event)
{
	intel_pebs_cycles_as(event, X86_CONFIG(.event = 0xc0, .inv = 1,
					       .cmask = 16));
}

/* UOPS_RETIRED.ALL, cmask=16, inv. */
void intel_pebs_aliases_snb(struct perf_event *event)
{
	intel_pebs_cycles_as(event, X86_CONFIG(.event = 0xc2, .umask = 0x01,
					       .inv = 1, .cmask = 16));
}

/* INST_RETIRED.PREC_DIST, cmask=16, inv: less shadowing, counter 1 only. */
static void intel_pebs_aliases_precdist(struct perf_event *event)
{
	intel_pebs_cycles_as(event, X86_CONFIG(.event = 0xc0, .umask = 0x01,
					       .inv = 1, .cmask = 16));
}

void intel_pebs_aliases_ivb(struct perf_event *event)
{
	if (event->attr.precise_ip < 3)
		intel_pebs_aliases_snb(event);
	else
		intel_pebs_aliases_precdist(event);
}

void intel_pebs_aliases_skl(struct perf_event *event)
{
	if (event->attr.precise_ip < 3)
		intel_pebs_aliases_core2(event);
	else
		intel_pebs_aliases_precdist(event);
}

/* The sample types a large (multi-record) PEBS buffer can serve for @event. */
static unsigned long intel_large_pebs_types(struct perf_event *event)
{
	unsigned long types = x86_pmu.large_pebs_flags;

	if (event->attr.use_clockid)
		types &= ~PERF_SAMPLE_TIME;
	if (!event->attr.exclude_kernel ||
	    (event->attr.sample_regs_user & ~PEBS_GP_REGS))
		types &= ~PERF_SAMPLE_REGS_USER;
	if (event->attr.sample_regs_intr & ~PEBS_GP_REGS)
		types &= ~PERF_SAMPLE_REGS_INTR;
	return types;
}

/* BTS: user-only, not precise, and exclusive with LBR users. */
static int intel_bts_config(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	if (likely(!intel_pmu_has_bts(event)))
		return 0;
	if (!x86_pmu.bts_active || !attr->exclude_kernel || attr->precise_ip)
		return -EOPNOTSUPP;
	if (x86_add_exclusive(x86_lbr_exclusive_lbr))
		return -EBUSY;
	event->destroy = hw_perf_lbr_event_destroy;
	return 0;
}

int core_pmu_hw_config(struct perf_event *event)
{
	int ret = x86_pmu_hw_config(event);

	return ret ? ret : intel_bts_config(event);
}

/*
 * The first period of a frequency event: what the event would count in
 * 1/freq s at 1 GHz, 1 IPC and 50 % idle (cycles and instructions),
 * a quarter of that for branches, a twentieth for cache events, and a
 * small default for raw events.  Minus one keeps it off powers of two.
 */
static u64 intel_freq_start_period(struct perf_event *event)
{
	u64 per_second = 64 * 4000;
	s64 start;

	if (event->attr.type == PERF_TYPE_HW_CACHE) {
		per_second = 25000000;
	} else if (event->attr.type == PERF_TYPE_HARDWARE) {
		switch (event->attr.config & PERF_HW_EVENT_MASK) {
		case PERF_COUNT_HW_CPU_CYCLES:
		case PERF_COUNT_HW_INSTRUCTIONS:
		case PERF_COUNT_HW_BUS_CYCLES:
		case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND:
		case PERF_COUNT_HW_STALLED_CYCLES_BACKEND:
		case PERF_COUNT_HW_REF_CPU_CYCLES:
			per_second = 500000000;
			break;
		case PERF_COUNT_HW_BRANCH_INSTRUCTIONS:
		case PERF_COUNT_HW_BRANCH_MISSES:
			per_second = 125000000;
			break;
		case PERF_COUNT_HW_CACHE_REFERENCES:
		case PERF_COUNT_HW_CACHE_MISSES:
			per_second = 25000000;
			break;
		}
	}

	start = DIV_ROUND_UP_ULL(per_second, event->attr.sample_freq) - 1;
	if (start > x86_pmu.max_period)
		start = x86_pmu.max_period;
	if (x86_pmu.limit_period)
		x86_pmu.limit_period(event, &start);
	return start;
}

static bool intel_has_cap(struct perf_event *event, int bit)
{
	union perf_capabilities *cap = &hybrid(event->pmu, intel_cap);

	return test_bit(bit, (unsigned long *)&cap->capabilities);
}

/*
 * Topdown: "slots" (fixed counter 3) may sample on its own; the metric
 * events are fractions of it, read with it, so they need a non-sampling
 * slots leader, cannot sample, and take no filters.
 */
static int intel_topdown_config(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	u64 last_metric = INTEL_TD_METRIC_RETIRING +
			  ((u64)(x86_pmu.num_topdown_events - 1) << 8);

	if (event->attr.config1 || event->attr.config2)
		return -EINVAL;
	if (event->attr.config & X86_ALL_EVENT_FLAGS)
		return -EINVAL;
	if (!is_metric_event(event) || event->attr.config > last_metric)
		return 0;

	if (is_sampling_event(event) || !is_slots_event(leader) ||
	    is_sampling_event(leader))
		return -EINVAL;

	event->event_caps |= PERF_EV_CAP_SIBLING;
	leader->hw.flags |= PERF_X86_EVENT_TOPDOWN;
	event->hw.flags |= PERF_X86_EVENT_TOPDOWN;
	return 0;
}

static bool intel_is_config(struct perf_event *event, u64 config)
{
	return (event->attr.config & INTEL_ARCH_EVENT_MASK) == config;
}

#define INTEL_MEM_LOADS		X86_CONFIG(.event = 0xcd, .umask = 0x01)
#define INTEL_MEM_LOADS_AUX	X86_CONFIG(.event = 0x03, .umask = 0x82)

/*
 * Sapphire Rapids: load-latency sampling (MEM_TRANS_RETIRED.LOAD_LATENCY
 * with data source) works only while the auxiliary event 0x8203 counts,
 * so it must be in the group, before the load-latency event.
 */
static int intel_mem_loads_aux_config(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;

	if (!(x86_pmu.flags & PMU_FL_MEM_LOADS_AUX))
		return 0;
	if (is_hybrid() && hybrid_pmu(event->pmu)->cpu_type != hybrid_big)
		return 0;
	if (!(event->attr.sample_type & PERF_SAMPLE_DATA_SRC) ||
	    !intel_is_config(event, INTEL_MEM_LOADS))
		return 0;

	if (leader == event)
		return -ENODATA;
	if (intel_is_config(leader, INTEL_MEM_LOADS_AUX))
		return 0;
	for_each_sibling_event(sibling, leader)
		if (intel_is_config(sibling, INTEL_MEM_LOADS_AUX))
			return 0;
	return -ENODATA;
}

int intel_pmu_hw_config(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	struct perf_event_attr *attr = &event->attr;
	int ret;

	ret = x86_pmu_hw_config(event);
	if (ret)
		return ret;
	ret = intel_bts_config(event);
	if (ret)
		return ret;

	if (attr->freq && attr->sample_freq) {
		hwc->sample_period = intel_freq_start_period(event);
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}

	if (attr->precise_ip) {
		if ((attr->config & INTEL_ARCH_EVENT_MASK) ==
		    INTEL_FIXED_VLBR_EVENT)
			return -EINVAL;
		/* Reloaded by the hardware unless every record must wake. */
		if (!attr->freq && !(attr->wakeup_events && !attr->watermark)) {
			hwc->flags |= PERF_X86_EVENT_AUTO_RELOAD;
			if (!(attr->sample_type & ~intel_large_pebs_types(event))) {
				hwc->flags |= PERF_X86_EVENT_LARGE_PEBS;
				event->attach_state |= PERF_ATTACH_SCHED_CB;
			}
		}
		if (x86_pmu.pebs_aliases)
			x86_pmu.pebs_aliases(event);
	}

	if (needs_branch_stack(event)) {
		ret = intel_pmu_setup_lbr_filter(event);
		if (ret)
			return ret;
		event->attach_state |= PERF_ATTACH_SCHED_CB;
		/* BTS took the LBR reservation already. */
		if (likely(!intel_pmu_has_bts(event))) {
			if (x86_add_exclusive(x86_lbr_exclusive_lbr))
				return -EBUSY;
			event->destroy = hw_perf_lbr_event_destroy;
		}
	}

	if (attr->aux_output) {
		if (!attr->precise_ip)
			return -EINVAL;
		hwc->flags |= PERF_X86_EVENT_PEBS_VIA_PT;
	}

	if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE)
		return 0;

	if (intel_has_cap(event, PERF_CAP_METRICS_IDX) &&
	    is_topdown_event(event)) {
		ret = intel_topdown_config(event);
		if (ret)
			return ret;
	}

	ret = intel_mem_loads_aux_config(event);
	if (ret)
		return ret;

	if (!(attr->config & ARCH_PERFMON_EVENTSEL_ANY))
		return 0;
	/* AnyThread: v3 and later, and it sees the sibling thread. */
	if (x86_pmu.version < 3)
		return -EINVAL;
	ret = perf_allow_cpu(attr);
	if (ret)
		return ret;
	hwc->config |= ARCH_PERFMON_EVENTSEL_ANY;
	return 0;
}

/*
 * Haswell and later with TSX: the in_tx and in_tx_cp filters.  Neither
 * works with PEBS or AnyThread; a checkpointed counter that samples
 * would abort its transaction at each overflow forever, so only long
 * periods (perf stat in a guest) are allowed there.
 */
int hsw_hw_config(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int ret = intel_pmu_hw_config(event);

	if (ret)
		return ret;
	if (!boot_cpu_has(X86_FEATURE_RTM) && !boot_cpu_has(X86_FEATURE_HLE))
		return 0;

	hwc->config |= event->attr.config & (HSW_IN_TX | HSW_IN_TX_CHECKPOINTED);
	if (!(hwc->config & (HSW_IN_TX | HSW_IN_TX_CHECKPOINTED)))
		return 0;
	if ((hwc->config & ARCH_PERFMON_EVENTSEL_ANY) || event->attr.precise_ip)
		return -EOPNOTSUPP;
	if (intel_event_is_checkpointed(event) &&
	    event->attr.sample_period > 0 &&
	    event->attr.sample_period < 0x7fffffff)
		return -EOPNOTSUPP;
	return 0;
}

int adl_hw_config(struct perf_event *event)
{
	switch (hybrid_pmu(event->pmu)->cpu_type) {
	case hybrid_big:
		return hsw_hw_config(event);
	case hybrid_small:
		return intel_pmu_hw_config(event);
	default:
		WARN_ON(1);
		return -EOPNOTSUPP;
	}
}

/* ---- period limits ---- */

/* INST_RETIRED.ALL (0x01c0). */
static bool intel_is_inst_retired_all(struct perf_event *event)
{
	return (event->hw.config & INTEL_ARCH_EVENT_MASK) ==
	       X86_CONFIG(.event = 0xc0, .umask = 0x01);
}

/* Nehalem: periods below 32 make the PMI take too long. */
void nhm_limit_period(struct perf_event *event, s64 *left)
{
	*left = max(*left, 32LL);
}

/* Haswell: as Nehalem, and HSW11 wants >= 100 for INST_RETIRED.ALL. */
void hsw_limit_period(struct perf_event *event, s64 *left)
{
	*left = max(*left, intel_is_inst_retired_all(event) ? 128LL : 32LL);
}

/*
 * Broadwell: INST_RETIRED.ALL needs >= 100 (BDM11) with the low six bits
 * clear (BDM55): 128 at least, rounded down to 64.  What is cut off is
 * carried in period_left, so the average period stays the one asked for.
 */
void bdw_limit_period(struct perf_event *event, s64 *left)
{
	if (!intel_is_inst_retired_all(event))
		return;
	*left = max(*left, 128LL) & ~0x3fLL;
}

/* Sapphire Rapids: PDist (:ppp) needs periods of 128 and more. */
void spr_limit_period(struct perf_event *event, s64 *left)
{
	if (event->attr.precise_ip == 3)
		*left = max(*left, 128LL);
}

int intel_pmu_check_period(struct perf_event *event, u64 value)
{
	return intel_pmu_has_bts_period(event, value) ? -EINVAL : 0;
}

/* PEBS records into PT: assign() reports the counter in an AUX record. */
void intel_aux_output_init(void)
{
	if (x86_pmu.intel_cap.pebs_output_pt_available)
		x86_pmu.assign = intel_pmu_assign_event;
}

int intel_pmu_aux_output_match(struct perf_event *event)
{
	return x86_pmu.intel_cap.pebs_output_pt_available &&
	       is_intel_pt_event(event);
}

/* Hybrid: an event of one core type runs on CPUs of that type only. */
int intel_pmu_filter_match(struct perf_event *event)
{
	return cpumask_test_cpu(smp_processor_id(),
				&hybrid_pmu(event->pmu)->supported_cpus);
}
