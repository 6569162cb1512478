// SPDX-License-Identifier: GPL-2.0
/*
 * Intel core PMU: the microarchitectures, one row each.
 *
 * A row names the CPU models (family 6 model numbers) it covers and what
 * they need: cache event tables, counter constraints, PEBS constraints,
 * extra registers, the LBR flavour, sysfs attributes, PMU flags, errata
 * quirks and behaviour bits (INTEL_UA_*).  What does not fit a row
 * (Sapphire Rapids' memory, Broadwell's OFFCORE_RSP bits, TSX force
 * abort, the two PMUs of Alder Lake) is in the row's setup() function.
 * A model no row covers runs as generic architectural perfmon, by
 * version.
 *
 * Adding a microarchitecture: add its tables to core-tables.c (or reuse
 * a predecessor's), a row here, and check the differential
 * (`make x86-models`) on a QEMU model of it if there is one.
 *
 * Locking: boot only.
 */
/* Messages keep the prefix 6.1 gave them (its intel/core.o). */
#define pr_fmt(fmt) "core: " fmt

#include <linux/perf_event.h>
#include <linux/slab.h>
#include <asm/intel-family.h>
#include "core.h"

/* Behaviour bits of a row. */
#define INTEL_UA_LATE_ACK		BIT(0)	/* unmask the PMI last */
#define INTEL_UA_MID_ACK		BIT(1)	/* ... before re-enabling */
#define INTEL_UA_PREC_DIST		BIT(2)	/* :ppp exists */
#define INTEL_UA_PEBS_BLOCK		BIT(3)
#define INTEL_UA_LBR_PT_COEXIST		BIT(4)
#define INTEL_UA_PEBS_NO_TLB		BIT(5)
#define INTEL_UA_LBR_DOUBLE_ABORT	BIT(6)
#define INTEL_UA_RTM_ABORT_EVENT	BIT(7)	/* RTM_RETIRED.ABORTED exists */
#define INTEL_UA_NO_PEBS_ALIASES	BIT(8)	/* cycles:pp needs no alias */
#define INTEL_UA_NO_ITLB_ACCESS		BIT(9)	/* iTLB-loads is meaningless */
#define INTEL_UA_TOPDOWN_METRICS	BIT(10)	/* slots + IA32_PERF_METRICS */
#define INTEL_UA_DATA_SRC_NHM		BIT(11)
#define INTEL_UA_DATA_SRC_SKL		BIT(12)
#define INTEL_UA_QUIRK_NEHALEM		BIT(13)	/* AAJ80 */
#define INTEL_UA_QUIRK_SNB_UCODE	BIT(14)	/* PEBS needs microcode */
#define INTEL_UA_QUIRK_HT_BUG		BIT(15)	/* BJ122, BV98, HSD29 */
#define INTEL_UA_QUIRK_PEBS_ISOLATION	BIT(16)

struct intel_uarch {
	const char *name;		/* caps/pmu_name */
	const char *banner;		/* in the boot line */
	const u8 *models;		/* 0-terminated */
	enum intel_cache_ids cache_ids;
	enum intel_cache_extra cache_extra;
	struct event_constraint *constraints;
	struct event_constraint *pebs_constraints;
	struct extra_reg *extra_regs;
	void (*lbr_init)(void);
	void (*pebs_aliases)(struct perf_event *event);
	struct event_constraint *(*get_event_constraints)(struct cpu_hw_events *cpuc,
							  int idx,
							  struct perf_event *event);
	int (*hw_config)(struct perf_event *event);
	void (*limit_period)(struct perf_event *event, s64 *left);
	void (*enable_all)(int added);
	u64 stalled_frontend, stalled_backend;	/* 0: the default */
	enum intel_sysfs_set_id sysfs;
	unsigned int pmu_flags;			/* PMU_FL_* */
	unsigned int traits;			/* INTEL_UA_* */
	u8 num_topdown_events;
	int (*setup)(void);
};

#define MODELS(...)	((const u8 []){ __VA_ARGS__, 0 })

/* Event select value: event, umask, inv, cmask (X86_CONFIG() is not constant). */
#define INTEL_EVTSEL(ev, um, inv, cm)	((ev) | ((um) << 8) | \
					 ((inv) ? ARCH_PERFMON_EVENTSEL_INV : 0) | \
					 ((u64)(cm) << 24))

/* UOPS_ISSUED.ANY (Nehalem: .STALLED_CYCLES), cmask=1, inv: nothing issued. */
#define INTEL_STALL_ISSUE		INTEL_EVTSEL(0x0e, 0x01, 1, 1)
/* UOPS_EXECUTED.CORE_ACTIVE_CYCLES, cmask=1, inv: nothing executed. */
#define INTEL_STALL_EXEC_NHM		INTEL_EVTSEL(0xb1, 0x3f, 1, 1)
/* UOPS_DISPATCHED.THREAD, cmask=1, inv. */
#define INTEL_STALL_EXEC_SNB		INTEL_EVTSEL(0xb1, 0x01, 1, 1)

#define INTEL_RTM_RETIRED_ABORTED	INTEL_EVTSEL(0xc9, 0x04, 0, 0)

static u8 __init intel_model(void)
{
	return boot_cpu_data.x86_model;
}

static int __init core2_setup(void)
{
	if (intel_model() == INTEL_FAM6_CORE2_MEROM)
		x86_add_quirk(intel_clovertown_quirk);
	return 0;
}

/* Server parts of Sandy Bridge to Haswell have more OFFCORE_RSP bits. */
static int __init snb_setup(void)
{
	switch (intel_model()) {
	case INTEL_FAM6_SANDYBRIDGE_X:
	case INTEL_FAM6_IVYBRIDGE_X:
		x86_pmu.extra_regs = intel_snbep_extra_regs;
		break;
	}
	return 0;
}

static int __init ivb_setup(void)
{
	/* DTLB_LOAD_MISSES.DEMAND_LD_MISS_CAUSES_A_WALK */
	hw_cache_event_ids[C(DTLB)][C(OP_READ)][C(RESULT_MISS)] = 0x8108;
	return snb_setup();
}

/* Broadwell: L3 miss (local DRAM) is a different OFFCORE_RSP bit. */
static int __init bdw_setup(void)
{
	u64 rd = INTEL_HSW_DEMAND_READ | INTEL_HSW_SNOOP_DRAM;
	u64 wr = INTEL_HSW_DEMAND_WRITE | INTEL_HSW_SNOOP_DRAM;

	hw_cache_extra_regs[C(LL)][C(OP_READ)][C(RESULT_MISS)] = rd | INTEL_BDW_L3_MISS;
	hw_cache_extra_regs[C(LL)][C(OP_WRITE)][C(RESULT_MISS)] = wr | INTEL_BDW_L3_MISS;
	hw_cache_extra_regs[C(NODE)][C(OP_READ)][C(RESULT_ACCESS)] =
		rd | INTEL_BDW_L3_MISS_LOCAL;
	hw_cache_extra_regs[C(NODE)][C(OP_WRITE)][C(RESULT_ACCESS)] =
		wr | INTEL_BDW_L3_MISS_LOCAL;
	return 0;
}

static int __init skl_setup(void)
{
	intel_pmu_pebs_data_source_skl(intel_model() == INTEL_FAM6_SKYLAKE_X);

	/*
	 * TSX force abort: PMC3 is usable while RTM transactions are forced
	 * to abort.  Not needed where microcode already disabled RTM.
	 */
	if (boot_cpu_has(X86_FEATURE_TSX_FORCE_ABORT) &&
	    !boot_cpu_has(X86_FEATURE_RTM_ALWAYS_ABORT)) {
		x86_pmu.flags |= PMU_FL_TFA;
		x86_pmu.get_event_constraints = tfa_get_event_constraints;
		x86_pmu.enable_all = intel_tfa_pmu_enable_all;
		x86_pmu.commit_scheduling = intel_tfa_commit_scheduling;
	}
	return 0;
}

static int __init icl_setup(void)
{
	bool server = intel_model() == INTEL_FAM6_ICELAKE_X ||
		      intel_model() == INTEL_FAM6_ICELAKE_D;

	if (server)
		x86_pmu.pebs_ept = 1;
	intel_pmu_pebs_data_source_skl(server);
	return 0;
}

static int __init spr_setup(void)
{
	intel_pmu_pebs_data_source_skl(true);
	return 0;
}

static int __init glp_setup(void)
{
	x86_pmu.pebs_capable = ~0ULL;
	return 0;
}

static int __init grt_setup(void)
{
	intel_pmu_pebs_data_source_grt();
	x86_pmu.pebs_latency_data = grt_latency_data;
	return 0;
}

static void __init adl_init_pmu(struct x86_hybrid_pmu *pmu, int nr_gp,
				int nr_fixed)
{
	pmu->num_counters = nr_gp;
	pmu->num_counters_fixed = nr_fixed;
	pmu->unconstrained = (struct event_constraint)
		__EVENT_CONSTRAINT(0, (1ULL << nr_gp) - 1, 0, nr_gp, 0, 0);
	pmu->intel_cap.capabilities = x86_pmu.intel_cap.capabilities;
}

/*
 * Alder Lake and Raptor Lake: a "cpu_core" PMU for the Golden Cove cores
 * (Sapphire Rapids' tables, perf metrics) and a "cpu_atom" PMU for the
 * Gracemont cores (Goldmont Plus cache events with Tremont's extra
 * registers).  CPUID 0xA enumerates the small cores' counters; the big
 * ones have two more general and one more fixed counter, unless the
 * firmware disabled the small cores and 0xA already describes big ones.
 */
static int __init adl_setup(void)
{
	struct x86_hybrid_pmu *big, *small;
	int gp = x86_pmu.num_counters, fixed = x86_pmu.num_counters_fixed;

	x86_pmu.hybrid_pmu = kcalloc(X86_HYBRID_NUM_PMUS,
				     sizeof(*x86_pmu.hybrid_pmu), GFP_KERNEL);
	if (!x86_pmu.hybrid_pmu)
		return -ENOMEM;
	static_branch_enable(&perf_is_hybrid);
	x86_pmu.num_hybrid_pmus = X86_HYBRID_NUM_PMUS;

	intel_pmu_pebs_data_source_adl();
	x86_pmu.pebs_latency_data = grt_latency_data;
	intel_topdown_use_adl();
	x86_pmu.filter_match = intel_pmu_filter_match;
	x86_pmu.get_hybrid_cpu_type = adl_get_hybrid_cpu_type;

	big = &x86_pmu.hybrid_pmu[X86_HYBRID_PMU_CORE_IDX];
	big->name = "cpu_core";
	big->cpu_type = hybrid_big;
	big->late_ack = true;
	if (cpu_feature_enabled(X86_FEATURE_HYBRID_CPU) &&
	    gp + 2 <= 8 && fixed + 1 <= 4)
		adl_init_pmu(big, gp + 2, fixed + 1);
	else
		adl_init_pmu(big, gp, fixed);
	big->max_pebs_events = min_t(unsigned int, MAX_PEBS_EVENTS,
				     big->num_counters);
	big->intel_cap.perf_metrics = 1;
	big->intel_cap.pebs_output_pt_available = 0;
	intel_load_cache_tables(&big->hw_cache_event_ids, INTEL_CACHE_IDS_SPR,
				&big->hw_cache_extra_regs, INTEL_CACHE_EXTRA_SPR);
	big->event_constraints = intel_spr_event_constraints;
	big->pebs_constraints = intel_spr_pebs_event_constraints;
	big->extra_regs = intel_spr_extra_regs;

	small = &x86_pmu.hybrid_pmu[X86_HYBRID_PMU_ATOM_IDX];
	small->name = "cpu_atom";
	small->cpu_type = hybrid_small;
	small->mid_ack = true;
	adl_init_pmu(small, gp, fixed);
	small->max_pebs_events = x86_pmu.max_pebs_events;
	small->intel_cap.perf_metrics = 0;
	small->intel_cap.pebs_output_pt_available = 1;
	intel_load_cache_tables(&small->hw_cache_event_ids, INTEL_CACHE_IDS_GLP,
				&small->hw_cache_extra_regs, INTEL_CACHE_EXTRA_TNT);
	small->hw_cache_event_ids[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)] = -1;
	small->event_constraints = intel_slm_event_constraints;
	small->pebs_constraints = intel_grt_pebs_event_constraints;
	small->extra_regs = intel_grt_extra_regs;
	return 0;
}

static const struct intel_uarch intel_uarchs[] __initconst = {
	{
		.name = "core", .banner = "Core",
		.models = MODELS(INTEL_FAM6_CORE_YONAH),
	}, {
		.name = "core2", .banner = "Core2",
		.models = MODELS(INTEL_FAM6_CORE2_MEROM,
				 INTEL_FAM6_CORE2_MEROM_L,
				 INTEL_FAM6_CORE2_PENRYN,
				 INTEL_FAM6_CORE2_DUNNINGTON),
		.cache_ids = INTEL_CACHE_IDS_CORE2,
		.constraints = intel_core2_event_constraints,
		.pebs_constraints = intel_core2_pebs_event_constraints,
		.lbr_init = intel_pmu_lbr_init_core,
		.setup = core2_setup,
	}, {
		.name = "nehalem", .banner = "Nehalem",
		.models = MODELS(INTEL_FAM6_NEHALEM, INTEL_FAM6_NEHALEM_EP,
				 INTEL_FAM6_NEHALEM_EX),
		.cache_ids = INTEL_CACHE_IDS_NEHALEM,
		.cache_extra = INTEL_CACHE_EXTRA_NEHALEM,
		.constraints = intel_nehalem_event_constraints,
		.pebs_constraints = intel_nehalem_pebs_event_constraints,
		.extra_regs = intel_nehalem_extra_regs,
		.lbr_init = intel_pmu_lbr_init_nhm,
		.enable_all = intel_pmu_nhm_enable_all,
		.limit_period = nhm_limit_period,
		.stalled_frontend = INTEL_STALL_ISSUE,
		.stalled_backend = INTEL_STALL_EXEC_NHM,
		.sysfs = INTEL_SYSFS_NHM,
		.traits = INTEL_UA_DATA_SRC_NHM | INTEL_UA_QUIRK_NEHALEM |
			  INTEL_UA_PEBS_NO_TLB,
	}, {
		.name = "bonnell", .banner = "Atom",
		.models = MODELS(INTEL_FAM6_ATOM_BONNELL,
				 INTEL_FAM6_ATOM_BONNELL_MID,
				 INTEL_FAM6_ATOM_SALTWELL,
				 INTEL_FAM6_ATOM_SALTWELL_MID,
				 INTEL_FAM6_ATOM_SALTWELL_TABLET),
		.cache_ids = INTEL_CACHE_IDS_ATOM,
		.constraints = intel_gen_event_constraints,
		.pebs_constraints = intel_atom_pebs_event_constraints,
		.lbr_init = intel_pmu_lbr_init_atom,
		.pebs_aliases = intel_pebs_aliases_core2,
	}, {
		.name = "silvermont", .banner = "Silvermont",
		.models = MODELS(INTEL_FAM6_ATOM_SILVERMONT,
				 INTEL_FAM6_ATOM_SILVERMONT_D,
				 INTEL_FAM6_ATOM_SILVERMONT_MID,
				 INTEL_FAM6_ATOM_AIRMONT,
				 INTEL_FAM6_ATOM_AIRMONT_MID),
		.cache_ids = INTEL_CACHE_IDS_SLM,
		.cache_extra = INTEL_CACHE_EXTRA_SLM,
		.constraints = intel_slm_event_constraints,
		.pebs_constraints = intel_slm_pebs_event_constraints,
		.extra_regs = intel_slm_extra_regs,
		.lbr_init = intel_pmu_lbr_init_slm,
		.sysfs = INTEL_SYSFS_SLM,
		.pmu_flags = PMU_FL_HAS_RSP_1,
	}, {
		.name = "goldmont", .banner = "Goldmont",
		.models = MODELS(INTEL_FAM6_ATOM_GOLDMONT,
				 INTEL_FAM6_ATOM_GOLDMONT_D),
		.cache_ids = INTEL_CACHE_IDS_GLM,
		.cache_extra = INTEL_CACHE_EXTRA_GLM,
		.constraints = intel_slm_event_constraints,
		.pebs_constraints = intel_glm_pebs_event_constraints,
		.extra_regs = intel_glm_extra_regs,
		.lbr_init = intel_pmu_lbr_init_skl,
		.sysfs = INTEL_SYSFS_GLM,
		.pmu_flags = PMU_FL_HAS_RSP_1,
		/* CPU_CLK_UNHALTED.CORE_P with PEBS is precise cycles. */
		.traits = INTEL_UA_NO_PEBS_ALIASES | INTEL_UA_PREC_DIST |
			  INTEL_UA_LBR_PT_COEXIST,
	}, {
		.name = "goldmont_plus", .banner = "Goldmont plus",
		.models = MODELS(INTEL_FAM6_ATOM_GOLDMONT_PLUS),
		.cache_ids = INTEL_CACHE_IDS_GLP,
		.cache_extra = INTEL_CACHE_EXTRA_GLP,
		.constraints = intel_slm_event_constraints,
		.extra_regs = intel_glm_extra_regs,
		.lbr_init = intel_pmu_lbr_init_skl,
		.get_event_constraints = glp_get_event_constraints,
		.sysfs = INTEL_SYSFS_GLP,
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_PEBS_ALL,
		.traits = INTEL_UA_NO_PEBS_ALIASES | INTEL_UA_PREC_DIST |
			  INTEL_UA_LBR_PT_COEXIST,
		.setup = glp_setup,
	}, {
		.name = "Tremont", .banner = "Tremont",
		.models = MODELS(INTEL_FAM6_ATOM_TREMONT_D,
				 INTEL_FAM6_ATOM_TREMONT,
				 INTEL_FAM6_ATOM_TREMONT_L),
		.cache_ids = INTEL_CACHE_IDS_GLP,
		.cache_extra = INTEL_CACHE_EXTRA_TNT,
		.constraints = intel_slm_event_constraints,
		.extra_regs = intel_tnt_extra_regs,
		.lbr_init = intel_pmu_lbr_init_skl,
		.get_event_constraints = tnt_get_event_constraints,
		.sysfs = INTEL_SYSFS_TNT,
		.pmu_flags = PMU_FL_HAS_RSP_1,
		.traits = INTEL_UA_LATE_ACK | INTEL_UA_NO_ITLB_ACCESS |
			  INTEL_UA_NO_PEBS_ALIASES | INTEL_UA_PREC_DIST |
			  INTEL_UA_LBR_PT_COEXIST,
	}, {
		.name = "gracemont", .banner = "Gracemont",
		.models = MODELS(INTEL_FAM6_ALDERLAKE_N),
		.cache_ids = INTEL_CACHE_IDS_GLP,
		.cache_extra = INTEL_CACHE_EXTRA_TNT,
		.constraints = intel_slm_event_constraints,
		.pebs_constraints = intel_grt_pebs_event_constraints,
		.extra_regs = intel_grt_extra_regs,
		.get_event_constraints = tnt_get_event_constraints,
		.limit_period = spr_limit_period,
		.sysfs = INTEL_SYSFS_GRT,
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_INSTR_LATENCY,
		.traits = INTEL_UA_MID_ACK | INTEL_UA_NO_ITLB_ACCESS |
			  INTEL_UA_NO_PEBS_ALIASES | INTEL_UA_PREC_DIST |
			  INTEL_UA_PEBS_BLOCK | INTEL_UA_LBR_PT_COEXIST,
		.setup = grt_setup,
	}, {
		.name = "westmere", .banner = "Westmere",
		.models = MODELS(INTEL_FAM6_WESTMERE, INTEL_FAM6_WESTMERE_EP,
				 INTEL_FAM6_WESTMERE_EX),
		.cache_ids = INTEL_CACHE_IDS_WESTMERE,
		.cache_extra = INTEL_CACHE_EXTRA_NEHALEM,
		.constraints = intel_westmere_event_constraints,
		.pebs_constraints = intel_westmere_pebs_event_constraints,
		.extra_regs = intel_westmere_extra_regs,
		.lbr_init = intel_pmu_lbr_init_nhm,
		.enable_all = intel_pmu_nhm_enable_all,
		.stalled_frontend = INTEL_STALL_ISSUE,
		.stalled_backend = INTEL_STALL_EXEC_NHM,
		.sysfs = INTEL_SYSFS_NHM,
		.pmu_flags = PMU_FL_HAS_RSP_1,
		.traits = INTEL_UA_DATA_SRC_NHM,
	}, {
		.name = "sandybridge", .banner = "SandyBridge",
		.models = MODELS(INTEL_FAM6_SANDYBRIDGE,
				 INTEL_FAM6_SANDYBRIDGE_X),
		.cache_ids = INTEL_CACHE_IDS_SNB,
		.cache_extra = INTEL_CACHE_EXTRA_SNB,
		.constraints = intel_snb_event_constraints,
		.pebs_constraints = intel_snb_pebs_event_constraints,
		.extra_regs = intel_snb_extra_regs,
		.lbr_init = intel_pmu_lbr_init_snb,
		.pebs_aliases = intel_pebs_aliases_snb,
		.stalled_frontend = INTEL_STALL_ISSUE,
		.stalled_backend = INTEL_STALL_EXEC_SNB,
		.sysfs = INTEL_SYSFS_SNB,
		/* All extra registers are per thread with HT. */
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_NO_HT_SHARING,
		.traits = INTEL_UA_QUIRK_SNB_UCODE | INTEL_UA_QUIRK_HT_BUG,
		.setup = snb_setup,
	}, {
		.name = "ivybridge", .banner = "IvyBridge",
		.models = MODELS(INTEL_FAM6_IVYBRIDGE, INTEL_FAM6_IVYBRIDGE_X),
		.cache_ids = INTEL_CACHE_IDS_SNB,
		.cache_extra = INTEL_CACHE_EXTRA_SNB,
		.constraints = intel_ivb_event_constraints,
		.pebs_constraints = intel_ivb_pebs_event_constraints,
		.extra_regs = intel_snb_extra_regs,
		.lbr_init = intel_pmu_lbr_init_snb,
		.pebs_aliases = intel_pebs_aliases_ivb,
		.stalled_frontend = INTEL_STALL_ISSUE,
		.sysfs = INTEL_SYSFS_SNB,
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_NO_HT_SHARING,
		.traits = INTEL_UA_PREC_DIST | INTEL_UA_QUIRK_HT_BUG,
		.setup = ivb_setup,
	}, {
		.name = "haswell", .banner = "Haswell",
		.models = MODELS(INTEL_FAM6_HASWELL, INTEL_FAM6_HASWELL_X,
				 INTEL_FAM6_HASWELL_L, INTEL_FAM6_HASWELL_G),
		.cache_ids = INTEL_CACHE_IDS_HSW,
		.cache_extra = INTEL_CACHE_EXTRA_HSW,
		.constraints = intel_hsw_event_constraints,
		.pebs_constraints = intel_hsw_pebs_event_constraints,
		.extra_regs = intel_snbep_extra_regs,
		.lbr_init = intel_pmu_lbr_init_hsw,
		.pebs_aliases = intel_pebs_aliases_ivb,
		.get_event_constraints = hsw_get_event_constraints,
		.hw_config = hsw_hw_config,
		.limit_period = hsw_limit_period,
		.sysfs = INTEL_SYSFS_HSW,
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_NO_HT_SHARING,
		.traits = INTEL_UA_LATE_ACK | INTEL_UA_PREC_DIST |
			  INTEL_UA_LBR_DOUBLE_ABORT | INTEL_UA_QUIRK_HT_BUG |
			  INTEL_UA_QUIRK_PEBS_ISOLATION,
	}, {
		.name = "broadwell", .banner = "Broadwell",
		.models = MODELS(INTEL_FAM6_BROADWELL, INTEL_FAM6_BROADWELL_D,
				 INTEL_FAM6_BROADWELL_G, INTEL_FAM6_BROADWELL_X),
		.cache_ids = INTEL_CACHE_IDS_HSW,
		.cache_extra = INTEL_CACHE_EXTRA_HSW,
		.constraints = intel_bdw_event_constraints,
		.pebs_constraints = intel_bdw_pebs_event_constraints,
		.extra_regs = intel_snbep_extra_regs,
		.lbr_init = intel_pmu_lbr_init_hsw,
		.pebs_aliases = intel_pebs_aliases_ivb,
		.get_event_constraints = hsw_get_event_constraints,
		.hw_config = hsw_hw_config,
		.limit_period = bdw_limit_period,
		.sysfs = INTEL_SYSFS_HSW,
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_NO_HT_SHARING,
		.traits = INTEL_UA_LATE_ACK | INTEL_UA_PREC_DIST |
			  INTEL_UA_QUIRK_PEBS_ISOLATION,
		.setup = bdw_setup,
	}, {
		.name = "knights-landing", .banner = "Knights Landing/Mill",
		.models = MODELS(INTEL_FAM6_XEON_PHI_KNL,
				 INTEL_FAM6_XEON_PHI_KNM),
		.cache_ids = INTEL_CACHE_IDS_SLM,
		.cache_extra = INTEL_CACHE_EXTRA_KNL,
		.constraints = intel_slm_event_constraints,
		.pebs_constraints = intel_slm_pebs_event_constraints,
		.extra_regs = intel_knl_extra_regs,
		.lbr_init = intel_pmu_lbr_init_knl,
		.sysfs = INTEL_SYSFS_KNL,
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_NO_HT_SHARING,
	}, {
		.name = "skylake", .banner = "Skylake",
		.models = MODELS(INTEL_FAM6_SKYLAKE_X, INTEL_FAM6_SKYLAKE_L,
				 INTEL_FAM6_SKYLAKE, INTEL_FAM6_KABYLAKE_L,
				 INTEL_FAM6_KABYLAKE, INTEL_FAM6_COMETLAKE_L,
				 INTEL_FAM6_COMETLAKE),
		.cache_ids = INTEL_CACHE_IDS_SKL,
		.cache_extra = INTEL_CACHE_EXTRA_SKL,
		.constraints = intel_skl_event_constraints,
		.pebs_constraints = intel_skl_pebs_event_constraints,
		.extra_regs = intel_skl_extra_regs,
		.lbr_init = intel_pmu_lbr_init_skl,
		.pebs_aliases = intel_pebs_aliases_skl,
		.get_event_constraints = hsw_get_event_constraints,
		.hw_config = hsw_hw_config,
		.sysfs = INTEL_SYSFS_SKL,
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_NO_HT_SHARING,
		.traits = INTEL_UA_LATE_ACK | INTEL_UA_PREC_DIST |
			  INTEL_UA_QUIRK_PEBS_ISOLATION,
		.setup = skl_setup,
	}, {
		.name = "icelake", .banner = "Icelake",
		.models = MODELS(INTEL_FAM6_ICELAKE_X, INTEL_FAM6_ICELAKE_D,
				 INTEL_FAM6_ICELAKE_L, INTEL_FAM6_ICELAKE,
				 INTEL_FAM6_TIGERLAKE_L, INTEL_FAM6_TIGERLAKE,
				 INTEL_FAM6_ROCKETLAKE),
		.cache_ids = INTEL_CACHE_IDS_SKL,
		.cache_extra = INTEL_CACHE_EXTRA_SKL,
		.constraints = intel_icl_event_constraints,
		.pebs_constraints = intel_icl_pebs_event_constraints,
		.extra_regs = intel_icl_extra_regs,
		.lbr_init = intel_pmu_lbr_init_skl,
		.get_event_constraints = icl_get_event_constraints,
		.hw_config = hsw_hw_config,
		.sysfs = INTEL_SYSFS_ICL,
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_NO_HT_SHARING,
		.traits = INTEL_UA_LATE_ACK | INTEL_UA_NO_ITLB_ACCESS |
			  INTEL_UA_NO_PEBS_ALIASES | INTEL_UA_PREC_DIST |
			  INTEL_UA_RTM_ABORT_EVENT | INTEL_UA_LBR_PT_COEXIST |
			  INTEL_UA_TOPDOWN_METRICS,
		.num_topdown_events = 4,
		.setup = icl_setup,
	}, {
		.name = "sapphire_rapids", .banner = "Sapphire Rapids",
		.models = MODELS(INTEL_FAM6_SAPPHIRERAPIDS_X,
				 INTEL_FAM6_EMERALDRAPIDS_X),
		.cache_ids = INTEL_CACHE_IDS_SPR,
		.cache_extra = INTEL_CACHE_EXTRA_SPR,
		.constraints = intel_spr_event_constraints,
		.pebs_constraints = intel_spr_pebs_event_constraints,
		.extra_regs = intel_spr_extra_regs,
		.get_event_constraints = spr_get_event_constraints,
		.hw_config = hsw_hw_config,
		.limit_period = spr_limit_period,
		.sysfs = INTEL_SYSFS_SPR,
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_NO_HT_SHARING |
			     PMU_FL_INSTR_LATENCY | PMU_FL_MEM_LOADS_AUX,
		.traits = INTEL_UA_LATE_ACK | INTEL_UA_NO_PEBS_ALIASES |
			  INTEL_UA_PREC_DIST | INTEL_UA_PEBS_BLOCK |
			  INTEL_UA_RTM_ABORT_EVENT | INTEL_UA_LBR_PT_COEXIST |
			  INTEL_UA_TOPDOWN_METRICS,
		.num_topdown_events = 8,
		.setup = spr_setup,
	}, {
		.name = "alderlake_hybrid", .banner = "Alderlake Hybrid",
		.models = MODELS(INTEL_FAM6_ALDERLAKE, INTEL_FAM6_ALDERLAKE_L,
				 INTEL_FAM6_RAPTORLAKE, INTEL_FAM6_RAPTORLAKE_P,
				 INTEL_FAM6_RAPTORLAKE_S),
		.get_event_constraints = adl_get_event_constraints,
		.hw_config = adl_hw_config,
		.limit_period = spr_limit_period,
		.sysfs = INTEL_SYSFS_ADL,
		.pmu_flags = PMU_FL_HAS_RSP_1 | PMU_FL_NO_HT_SHARING |
			     PMU_FL_INSTR_LATENCY | PMU_FL_MEM_LOADS_AUX,
		/* The small cores have no RTM: the event is harmless there. */
		.traits = INTEL_UA_NO_PEBS_ALIASES | INTEL_UA_PREC_DIST |
			  INTEL_UA_PEBS_BLOCK | INTEL_UA_RTM_ABORT_EVENT |
			  INTEL_UA_LBR_PT_COEXIST,
		.num_topdown_events = 8,
		.setup = adl_setup,
	},
};

const struct intel_uarch * __init intel_find_uarch(void)
{
	u8 model = intel_model();
	int i;
	const u8 *m;

	for (i = 0; i < ARRAY_SIZE(intel_uarchs); i++)
		for (m = intel_uarchs[i].models; *m; m++)
			if (*m == model)
				return &intel_uarchs[i];
	return NULL;
}

/* The quirks a row asks for; each x86_add_quirk() needs its own site. */
static void __init intel_add_row_quirks(unsigned int traits)
{
	if (traits & INTEL_UA_QUIRK_NEHALEM)
		x86_add_quirk(intel_nehalem_quirk);
	if (traits & INTEL_UA_QUIRK_SNB_UCODE)
		x86_add_quirk(intel_sandybridge_quirk);
	if (traits & INTEL_UA_QUIRK_HT_BUG)
		x86_add_quirk(intel_ht_bug);
	if (traits & INTEL_UA_QUIRK_PEBS_ISOLATION)
		x86_add_quirk(intel_pebs_isolation_quirk);
}

int __init intel_apply_uarch(const struct intel_uarch *ua)
{
	unsigned int t = ua->traits;

	strscpy(intel_pmu_name, ua->name, sizeof(intel_pmu_name));
	pr_cont("%s events, ", ua->banner);

	intel_load_cache_tables(&hw_cache_event_ids, ua->cache_ids,
				&hw_cache_extra_regs, ua->cache_extra);
	if (t & INTEL_UA_NO_ITLB_ACCESS)
		hw_cache_event_ids[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)] = -1;

	if (ua->lbr_init)
		ua->lbr_init();

	x86_pmu.event_constraints = ua->constraints;
	x86_pmu.pebs_constraints = ua->pebs_constraints;
	x86_pmu.extra_regs = ua->extra_regs;
	if (ua->pebs_aliases || (t & INTEL_UA_NO_PEBS_ALIASES))
		x86_pmu.pebs_aliases = ua->pebs_aliases;
	if (ua->get_event_constraints)
		x86_pmu.get_event_constraints = ua->get_event_constraints;
	if (ua->hw_config)
		x86_pmu.hw_config = ua->hw_config;
	if (ua->limit_period)
		x86_pmu.limit_period = ua->limit_period;
	if (ua->enable_all)
		x86_pmu.enable_all = ua->enable_all;
	if (ua->stalled_frontend)
		intel_perfmon_event_map[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] =
			ua->stalled_frontend;
	if (ua->stalled_backend)
		intel_perfmon_event_map[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] =
			ua->stalled_backend;

	x86_pmu.flags |= ua->pmu_flags;
	x86_pmu.late_ack = !!(t & INTEL_UA_LATE_ACK);
	x86_pmu.mid_ack = !!(t & INTEL_UA_MID_ACK);
	x86_pmu.pebs_prec_dist = !!(t & INTEL_UA_PREC_DIST);
	x86_pmu.pebs_block = !!(t & INTEL_UA_PEBS_BLOCK);
	x86_pmu.lbr_pt_coexist = !!(t & INTEL_UA_LBR_PT_COEXIST);
	x86_pmu.pebs_no_tlb = !!(t & INTEL_UA_PEBS_NO_TLB);
	x86_pmu.lbr_double_abort = !!(t & INTEL_UA_LBR_DOUBLE_ABORT);
	if (t & INTEL_UA_RTM_ABORT_EVENT)
		x86_pmu.rtm_abort_event = INTEL_RTM_RETIRED_ABORTED;
	if (t & INTEL_UA_DATA_SRC_NHM)
		intel_pmu_pebs_data_source_nhm();
	if (t & INTEL_UA_TOPDOWN_METRICS)
		intel_topdown_use_icl();
	x86_pmu.num_topdown_events = ua->num_topdown_events;

	intel_add_row_quirks(t);
	if (ua->setup) {
		int ret = ua->setup();

		if (ret)
			return ret;
	}
	/* After setup(): Alder Lake's makes the PMU hybrid. */
	intel_sysfs_init(ua->sysfs);
	return 0;
}
