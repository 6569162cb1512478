/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Intel core PMU driver's private interface, shared by its files:
 *   core-pmu.c          boot: architectural perfmon discovery (CPUID 0xA,
 *                       IA32_PERF_CAPABILITIES), the x86_pmu template, the
 *                       checks every model goes through
 *   core-models.c       the microarchitectures 6.1 knows, as a table: which
 *                       CPU models, which event tables, constraints, extra
 *                       registers, flags and sysfs attributes
 *   core-tables.c       the data: cache event tables (as rows), event
 *                       constraints and extra-register tables per model
 *   core-constraints.c  which counters an event may use: the model tables,
 *                       shared OFFCORE_RSP/LDLAT registers, the HT erratum's
 *                       exclusive counters, TSX force abort, hybrid PMUs
 *   core-config.c       attr -> PERFEVTSEL: PEBS aliases, BTS, topdown
 *                       metrics, period limits
 *   core-irq.c          enable/disable (global control, fixed counters,
 *                       perf metrics), reading, the PMI for v1-v5
 *   core-cpu.c          CPU hotplug, per-CPU shared state, context switch
 *                       hooks, the MSR lists KVM switches on VM entry
 *   core-sysfs.c        format/, events/, caps/ and the driver's knobs
 *   core-quirks.c       errata and microcode checks
 * The framework (../pmu-*.c) calls it through struct x86_pmu; PEBS, LBR,
 * BTS and PT (ds.c, lbr.c, bts.c, pt.c, 6.1's) through perf_event.h.
 *
 * Locking: as the framework's.  Everything per CPU is touched on its CPU
 * with interrupts off or from the PMI; the shared-register and exclusive-
 * counter state of HT siblings is under their raw spinlocks; x86_pmu and
 * the tables are written at boot only.
 */
#ifndef _X86_EVENTS_INTEL_CORE_H
#define _X86_EVENTS_INTEL_CORE_H

#include <linux/static_call.h>
#include "../perf_event.h"

typedef u64 intel_cache_table_t[PERF_COUNT_HW_CACHE_MAX]
			       [PERF_COUNT_HW_CACHE_OP_MAX]
			       [PERF_COUNT_HW_CACHE_RESULT_MAX];

/* core-tables.c: the cache tables, by name. */
enum intel_cache_ids {
	INTEL_CACHE_IDS_NONE,
	INTEL_CACHE_IDS_CORE2,
	INTEL_CACHE_IDS_NEHALEM,
	INTEL_CACHE_IDS_WESTMERE,
	INTEL_CACHE_IDS_ATOM,
	INTEL_CACHE_IDS_SLM,
	INTEL_CACHE_IDS_GLM,
	INTEL_CACHE_IDS_GLP,
	INTEL_CACHE_IDS_SNB,
	INTEL_CACHE_IDS_HSW,
	INTEL_CACHE_IDS_SKL,
	INTEL_CACHE_IDS_SPR,
};

enum intel_cache_extra {
	INTEL_CACHE_EXTRA_NONE,
	INTEL_CACHE_EXTRA_NEHALEM,
	INTEL_CACHE_EXTRA_SLM,
	INTEL_CACHE_EXTRA_GLM,
	INTEL_CACHE_EXTRA_GLP,
	INTEL_CACHE_EXTRA_TNT,
	INTEL_CACHE_EXTRA_KNL,
	INTEL_CACHE_EXTRA_SNB,
	INTEL_CACHE_EXTRA_HSW,
	INTEL_CACHE_EXTRA_SKL,
	INTEL_CACHE_EXTRA_SPR,
};

/* Fill @ids and @extra (zeroed first) from the named tables. */
void __init intel_load_cache_tables(intel_cache_table_t *ids,
				    enum intel_cache_ids ids_name,
				    intel_cache_table_t *extra,
				    enum intel_cache_extra extra_name);

/* Broadwell's OFFCORE_RSP L3-miss bits (differ from Haswell's). */
#define INTEL_HSW_DEMAND_READ		BIT_ULL(0)
#define INTEL_HSW_DEMAND_WRITE		BIT_ULL(1)
#define INTEL_HSW_SNOOP_DRAM		GENMASK_ULL(36, 31)	/* any snoop but non-DRAM */
#define INTEL_BDW_L3_MISS_LOCAL		BIT_ULL(26)
#define INTEL_BDW_L3_MISS		(INTEL_BDW_L3_MISS_LOCAL | BIT_ULL(27) | \
					 BIT_ULL(28) | BIT_ULL(29))

/* core-tables.c: event constraints, EVENT_CONSTRAINT_END terminated. */
extern struct event_constraint intel_core_event_constraints[];
extern struct event_constraint intel_core2_event_constraints[];
extern struct event_constraint intel_nehalem_event_constraints[];
extern struct event_constraint intel_westmere_event_constraints[];
extern struct event_constraint intel_snb_event_constraints[];
extern struct event_constraint intel_ivb_event_constraints[];
extern struct event_constraint intel_hsw_event_constraints[];
extern struct event_constraint intel_bdw_event_constraints[];
extern struct event_constraint intel_skl_event_constraints[];
extern struct event_constraint intel_icl_event_constraints[];
extern struct event_constraint intel_spr_event_constraints[];
extern struct event_constraint intel_slm_event_constraints[];
extern struct event_constraint intel_v1_event_constraints[];
extern struct event_constraint intel_gen_event_constraints[];

/* core-tables.c: extra registers, EVENT_EXTRA_END terminated. */
extern struct extra_reg intel_nehalem_extra_regs[];
extern struct extra_reg intel_westmere_extra_regs[];
extern struct extra_reg intel_snb_extra_regs[];
extern struct extra_reg intel_snbep_extra_regs[];
extern struct extra_reg intel_skl_extra_regs[];
extern struct extra_reg intel_icl_extra_regs[];
extern struct extra_reg intel_spr_extra_regs[];
extern struct extra_reg intel_knl_extra_regs[];
extern struct extra_reg intel_slm_extra_regs[];
extern struct extra_reg intel_glm_extra_regs[];
extern struct extra_reg intel_tnt_extra_regs[];
extern struct extra_reg intel_grt_extra_regs[];

/* core-models.c */
struct intel_uarch;
const struct intel_uarch * __init intel_find_uarch(void);
int __init intel_apply_uarch(const struct intel_uarch *ua);

/* core-pmu.c */
extern u64 intel_perfmon_event_map[PERF_COUNT_HW_MAX];
extern struct event_constraint intel_v5_gen_event_constraints[];
void intel_build_v5_constraints(struct event_constraint *table, int nr_fixed);
void intel_fit_constraints(struct event_constraint *table, int nr_gp,
			   int nr_fixed, u64 ctrl);

/* core-constraints.c */
struct event_constraint *intel_get_event_constraints(struct cpu_hw_events *cpuc,
						     int idx,
						     struct perf_event *event);
void intel_put_event_constraints(struct cpu_hw_events *cpuc,
				 struct perf_event *event);
struct event_constraint *hsw_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event);
struct event_constraint *icl_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event);
struct event_constraint *spr_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event);
struct event_constraint *glp_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event);
struct event_constraint *tnt_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event);
struct event_constraint *tfa_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event);
struct event_constraint *adl_get_event_constraints(struct cpu_hw_events *cpuc,
						   int idx,
						   struct perf_event *event);
int intel_excl_narrow(struct event_constraint *c,
		      const struct intel_excl_states *theirs, bool exclusive);
void intel_start_scheduling(struct cpu_hw_events *cpuc);
void intel_commit_scheduling(struct cpu_hw_events *cpuc, int idx, int cntr);
void intel_stop_scheduling(struct cpu_hw_events *cpuc);
void intel_tfa_commit_scheduling(struct cpu_hw_events *cpuc, int idx,
				 int cntr);
extern bool intel_allow_tsx_force_abort;

/* core-config.c */
int intel_pmu_hw_config(struct perf_event *event);
int core_pmu_hw_config(struct perf_event *event);
int hsw_hw_config(struct perf_event *event);
int adl_hw_config(struct perf_event *event);
void intel_pebs_aliases_core2(struct perf_event *event);
void intel_pebs_aliases_snb(struct perf_event *event);
void intel_pebs_aliases_ivb(struct perf_event *event);
void intel_pebs_aliases_skl(struct perf_event *event);
void nhm_limit_period(struct perf_event *event, s64 *left);
void hsw_limit_period(struct perf_event *event, s64 *left);
void bdw_limit_period(struct perf_event *event, s64 *left);
void spr_limit_period(struct perf_event *event, s64 *left);
int intel_pmu_check_period(struct perf_event *event, u64 value);
int intel_pmu_aux_output_match(struct perf_event *event);
int intel_pmu_filter_match(struct perf_event *event);
void intel_aux_output_init(void);

/* core-irq.c */
void intel_pmu_disable_all(void);
void intel_pmu_enable_all(int added);
void intel_pmu_nhm_enable_all(int added);
void intel_tfa_pmu_enable_all(int added);
void intel_pmu_enable_event(struct perf_event *event);
void intel_pmu_disable_event(struct perf_event *event);
void intel_pmu_add_event(struct perf_event *event);
void intel_pmu_del_event(struct perf_event *event);
void intel_pmu_assign_event(struct perf_event *event, int idx);
void intel_pmu_read_event(struct perf_event *event);
int intel_pmu_set_period(struct perf_event *event);
u64 intel_pmu_update(struct perf_event *event);
int intel_pmu_handle_irq(struct pt_regs *regs);
u64 intel_metric_slots(u64 metrics, u64 slots, int idx);
void core_pmu_enable_event(struct perf_event *event);
void core_pmu_enable_all(int added);
void intel_pmu_reset(void);
void intel_set_tfa(struct cpu_hw_events *cpuc, bool on);
void intel_topdown_use_icl(void);
void intel_topdown_use_adl(void);
int intel_pmu_snapshot_branch_stack(struct perf_branch_entry *entries,
				    unsigned int cnt);
int intel_pmu_snapshot_arch_branch_stack(struct perf_branch_entry *entries,
					 unsigned int cnt);

/* core-cpu.c */
int intel_pmu_cpu_prepare(int cpu);
void intel_pmu_cpu_starting(int cpu);
void intel_pmu_cpu_dying(int cpu);
void intel_pmu_cpu_dead(int cpu);
void intel_pmu_sched_task(struct perf_event_context *ctx, bool sched_in);
void intel_pmu_swap_task_ctx(struct perf_event_context *prev,
			     struct perf_event_context *next);
struct perf_guest_switch_msr *intel_guest_get_msrs(int *nr, void *data);
struct perf_guest_switch_msr *core_guest_get_msrs(int *nr, void *data);
void intel_free_excl_cntrs(struct cpu_hw_events *cpuc);
u8 adl_get_hybrid_cpu_type(void);

/* core-sysfs.c */
extern struct attribute *intel_arch_formats_attr[];
extern struct attribute *intel_arch3_formats_attr[];
extern struct attribute *intel_pmu_caps_attrs[];
extern struct attribute *intel_pmu_attrs[];
extern struct attribute *intel_empty_attrs[];

/* The sysfs attribute sets a model picks (core-sysfs.c). */
struct intel_sysfs_sets {
	struct attribute **td;		/* events/: topdown */
	struct attribute **mem;		/* events/: mem-loads, mem-stores */
	struct attribute **tsx;		/* events/: TSX, when RTM is present */
	struct attribute **format;	/* format/: model extras */
	struct attribute **format_rtm;	/* format/: instead, when RTM */
	struct attribute **format_skl;	/* format/: frontend */
};

enum intel_sysfs_set_id {
	INTEL_SYSFS_NONE,
	INTEL_SYSFS_NHM,		/* Nehalem, Westmere */
	INTEL_SYSFS_SNB,
	INTEL_SYSFS_HSW,		/* Haswell, Broadwell */
	INTEL_SYSFS_SKL,
	INTEL_SYSFS_ICL,
	INTEL_SYSFS_SPR,
	INTEL_SYSFS_SLM,
	INTEL_SYSFS_GLM,
	INTEL_SYSFS_GLP,
	INTEL_SYSFS_TNT,
	INTEL_SYSFS_GRT,
	INTEL_SYSFS_KNL,
	INTEL_SYSFS_ADL,
};

extern char intel_pmu_name[30];
void __init intel_sysfs_init(enum intel_sysfs_set_id set);

/* core-quirks.c */
void __init intel_clovertown_quirk(void);
void __init intel_pebs_isolation_quirk(void);
void __init intel_sandybridge_quirk(void);
void __init intel_arch_events_quirk(void);
void __init intel_nehalem_quirk(void);
void __init intel_ht_bug(void);
void intel_snb_check_microcode(void);
void intel_check_pebs_isolation(void);
bool __init intel_check_lbr_msrs(void);
void __init intel_check_extra_regs(struct extra_reg *regs);

/* Helpers shared by several files. */
static inline bool intel_event_is_checkpointed(struct perf_event *event)
{
	return unlikely(event->hw.config & HSW_IN_TX_CHECKPOINTED) != 0;
}

#endif /* _X86_EVENTS_INTEL_CORE_H */
