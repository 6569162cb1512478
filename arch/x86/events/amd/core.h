/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AMD core PMU driver's private interface, shared by its files:
 *   core-pmu.c          boot (family, extensions, PerfMonV2), sysfs, the
 *                       KVM host/guest switch
 *   core-events.c       generic and cache event tables, hw_config()
 *   core-constraints.c  which counters an event may use: Family 15h's
 *                       table, Family 17h+ pairs, BRS, and the northbridge
 *                       counters older parts share between cores
 *   core-irq.c          enabling and disabling, the PMI (legacy and
 *                       PerfMonV2), NMI latency handling
 * The framework (../pmu-*.c) calls it through struct x86_pmu.
 */
#ifndef _X86_EVENTS_AMD_CORE_H
#define _X86_EVENTS_AMD_CORE_H

#include <linux/static_call.h>
#include "../perf_event.h"

/* Event 0xFFF, "Merge": the odd partner of a large-increment event. */
#define AMD_MERGE_EVENT		((0xFULL << 32) | 0xFFULL)
#define AMD_MERGE_EVENT_ENABLE	(AMD_MERGE_EVENT | ARCH_PERFMON_EVENTSEL_ENABLE)

/* The 12-bit event code: EventSelect[11:8] (config 35:32) and [7:0]. */
static inline unsigned int amd_event_code(struct hw_perf_event *hwc)
{
	return ((hwc->config >> 24) & 0x0f00) | (hwc->config & 0x00ff);
}

/* core-events.c */
u64 amd_pmu_event_map(int hw_event);
ssize_t amd_event_sysfs_show(char *page, u64 config);
int amd_pmu_hw_config(struct perf_event *event);
bool amd_is_pair_event(struct hw_perf_event *hwc);
void __init amd_pmu_load_event_tables(void);

/* core-constraints.c */
struct event_constraint *amd_nb_get_constraints(struct cpu_hw_events *cpuc,
						int idx, struct perf_event *event);
void amd_nb_put_constraints(struct cpu_hw_events *cpuc, struct perf_event *event);
struct event_constraint *amd_f15h_get_constraints(struct cpu_hw_events *cpuc,
						  int idx, struct perf_event *event);
struct event_constraint *amd_f17h_get_constraints(struct cpu_hw_events *cpuc,
						  int idx, struct perf_event *event);
void amd_f17h_put_constraints(struct cpu_hw_events *cpuc, struct perf_event *event);
struct event_constraint *amd_f19h_brs_get_constraints(struct cpu_hw_events *cpuc,
						      int idx, struct perf_event *event);
void __init amd_pair_constraint_init(int num_counters);
int amd_pmu_cpu_prepare(int cpu);
void amd_pmu_cpu_starting(int cpu);
void amd_pmu_cpu_dead(int cpu);

/* core-irq.c */
extern u64 amd_pmu_global_cntr_mask;
void amd_pmu_enable_event(struct perf_event *event);
void amd_pmu_disable_event(struct perf_event *event);
void amd_pmu_enable_all(int added);
void amd_pmu_disable_all(void);
void amd_pmu_v2_enable_event(struct perf_event *event);
void amd_pmu_v2_enable_all(int added);
void amd_pmu_v2_disable_all(void);
void amd_pmu_enable_active(void);
int amd_pmu_handle_irq(struct pt_regs *regs);
int amd_pmu_v2_handle_irq(struct pt_regs *regs);
void __init amd_pmu_irq_init(bool perfmon_v2);
void amd_pmu_cpu_reset(void);

/* The branch facility in use (LBR on Zen 4, BRS on Zen 3, or none). */
typedef void (amd_branch_op_t)(void);
DECLARE_STATIC_CALL(amd_pmu_branch_hw_config, *x86_pmu.hw_config);
DECLARE_STATIC_CALL(amd_pmu_branch_reset, amd_branch_op_t);
DECLARE_STATIC_CALL(amd_pmu_branch_add, *x86_pmu.add);
DECLARE_STATIC_CALL(amd_pmu_branch_del, *x86_pmu.del);

#endif /* _X86_EVENTS_AMD_CORE_H */
