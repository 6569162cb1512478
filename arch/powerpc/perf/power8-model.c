// SPDX-License-Identifier: GPL-2.0
/*
 * POWER8 (ISA 2.07) PMU model: tables and boot-time detection.  The event
 * code layout and the MMCR programming are the shared ISA 2.07 code of
 * isa207-*.c.
 *
 * Locking: none; the model is read-only after boot.
 */
#define pr_fmt(fmt)	"power8-pmu: " fmt

#include <linux/init.h>
#include <linux/printk.h>
#include <asm/cputable.h>
#include <asm/reg.h>

#include "isa207.h"
#include "internal.h"
#include "power8-events.h"

static struct dev_ext_attribute p8_formats[] = {
	ISA207_FORMAT("event",		"config:0-49"),
	ISA207_FORMAT("pmcxsel",		"config:0-7"),
	ISA207_FORMAT("mark",		"config:8"),
	ISA207_FORMAT("combine",		"config:11"),
	ISA207_FORMAT("unit",		"config:12-15"),
	ISA207_FORMAT("pmc",		"config:16-19"),
	ISA207_FORMAT("cache_sel",	"config:20-23"),
	ISA207_FORMAT("sample_mode",	"config:24-28"),
	ISA207_FORMAT("thresh_sel",	"config:29-31"),
	ISA207_FORMAT("thresh_stop",	"config:32-35"),
	ISA207_FORMAT("thresh_start",	"config:36-39"),
	ISA207_FORMAT("thresh_cmp",	"config:40-49"),
};

/* events/ besides the generic and cache tables */
static struct perf_pmu_events_attr p8_extra_events[] = {
	ISA207_EVENT("mem_access",		P8_MEM_ACCESS),
};

static struct attribute *p8_format_ptrs[ARRAY_SIZE(p8_formats) + 1];

static int p8_generic[] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= P8_PM_CYC,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= P8_PM_GCT_NOSLOT_CYC,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= P8_PM_CMPLU_STALL,
	[PERF_COUNT_HW_INSTRUCTIONS]		= P8_PM_INST_CMPL,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= P8_PM_BRU_FIN,
	[PERF_COUNT_HW_BRANCH_MISSES]		= P8_PM_BR_MPRED_CMPL,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= P8_PM_LD_REF_L1,
	[PERF_COUNT_HW_CACHE_MISSES]		= P8_PM_LD_MISS_L1,
};

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NS	ISA207_CACHE_NONSENSE
static isa207_cache_table p8_cache = {
	[C(L1D)] = ISA207_CACHE_OPS(P8_PM_LD_REF_L1, P8_PM_LD_MISS_L1,
				    0, P8_PM_ST_MISS_L1, P8_PM_L1_PREF, 0),
	[C(L1I)] = ISA207_CACHE_OPS(P8_PM_INST_FROM_L1, P8_PM_L1_ICACHE_MISS,
				    P8_PM_L1_DEMAND_WRITE, NS,
				    P8_PM_IC_PREF_WRITE, 0),
	[C(LL)] = ISA207_CACHE_OPS(P8_PM_DATA_FROM_L3, P8_PM_DATA_FROM_L3MISS,
				   P8_PM_L2_ST, P8_PM_L2_ST_MISS,
				   P8_PM_L3_PREF_ALL, 0),
	[C(DTLB)] = ISA207_CACHE_OPS(0, P8_PM_DTLB_MISS, NS, NS, NS, NS),
	[C(ITLB)] = ISA207_CACHE_OPS(0, P8_PM_ITLB_MISS, NS, NS, NS, NS),
	[C(BPU)] = ISA207_CACHE_OPS(P8_PM_BRU_FIN, P8_PM_BR_MPRED_CMPL,
				    NS, NS, NS, NS),
	[C(NODE)] = ISA207_CACHE_NONE_OPS,
};

#undef NS
#undef C

static const u32 p8_alts[][2] = {
	{ P8_PM_MRK_ST_CMPL,		P8_PM_MRK_ST_CMPL_ALT },
	{ P8_PM_BR_MRK_2PATH,		P8_PM_BR_MRK_2PATH_ALT },
	{ P8_PM_L3_CO_MEPF,		P8_PM_L3_CO_MEPF_ALT },
	{ P8_PM_MRK_DATA_FROM_L2MISS,	P8_PM_MRK_DATA_FROM_L2MISS_ALT },
	{ P8_PM_CMPLU_STALL_ALT,	P8_PM_CMPLU_STALL },
	{ P8_PM_BR_2PATH,		P8_PM_BR_2PATH_ALT },
	{ P8_PM_INST_DISP,		P8_PM_INST_DISP_ALT },
	{ P8_PM_RUN_CYC_ALT,		P8_PM_RUN_CYC },
	{ P8_PM_MRK_FILT_MATCH,		P8_PM_MRK_FILT_MATCH_ALT },
	{ P8_PM_LD_MISS_L1,		P8_PM_LD_MISS_L1_ALT },
	{ P8_PM_RUN_INST_CMPL_ALT,	P8_PM_RUN_INST_CMPL },
};

/* ANY_CALL is the only filter besides none (IFM1 = calls only). */
static const struct isa207_bhrb_rule p8_bhrb[] = {
	{ PERF_SAMPLE_BRANCH_ANY,	 0 },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, ISA207_BHRB_REJECT },
	{ PERF_SAMPLE_BRANCH_IND_CALL,	 ISA207_BHRB_REJECT },
	{ PERF_SAMPLE_BRANCH_CALL,	 ISA207_BHRB_REJECT },
	{ PERF_SAMPLE_BRANCH_ANY_CALL,	 1UL << ISA207_MMCRA_IFM },
};

struct isa207_model power8_model = {
	.name			= "POWER8",
	.isa			= ISA207_V207,
	.flags			= PPMU_HAS_SIER | PPMU_ARCH_207S,
	/* the event plus one alternative plus its run-latch twin */
	.max_alternatives	= 3,
	.bhrb_nr		= 32,
	.sier_decode		= true,
	.alts			= p8_alts,
	.n_alts			= ARRAY_SIZE(p8_alts),
	.bhrb_rules		= p8_bhrb,
	.n_bhrb_rules		= ARRAY_SIZE(p8_bhrb),
	.generic_events		= p8_generic,
	.n_generic		= ARRAY_SIZE(p8_generic),
	.cache_events		= &p8_cache,
	ISA207_MODEL_FORMATS(p8),
	ISA207_MODEL_EXTRA_EVENTS(p8),
};

/**
 * init_power8_pmu - register the POWER8 PMU on POWER8, POWER8E, POWER8NVL
 *
 * Return: 0, -ENODEV on other CPUs (by PVR version), or the registration
 * error.
 */
int __init init_power8_pmu(void)
{
	unsigned int ver = PVR_VER(mfspr(SPRN_PVR));
	int rc;

	if (ver != PVR_POWER8 && ver != PVR_POWER8E && ver != PVR_POWER8NVL)
		return -ENODEV;

	rc = isa207_register(&power8_model);
	if (!rc && cpu_has_feature(CPU_FTR_PMAO_BUG))
		pr_info("PMAO restore workaround active.\n");
	return rc;
}
