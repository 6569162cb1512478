// SPDX-License-Identifier: GPL-2.0
/*
 * POWER10 (ISA 3.1) PMU model: tables and boot-time detection, including
 * the DD1 variant's event tables.  The event code layout and the MMCR
 * programming are the shared ISA 3.1 code of isa207-*.c.
 *
 * Locking: none; the model is set up by init_power10_pmu() at boot and
 * read-only afterwards.
 */
#define pr_fmt(fmt)	"power10-pmu: " fmt

#include <linux/init.h>
#include <asm/perf_regs.h>
#include <asm/reg.h>

#include "isa207.h"
#include "internal.h"
#include "power10-events.h"

static struct dev_ext_attribute p10_formats[] = {
	ISA207_FORMAT("event",		"config:0-59"),
	ISA207_FORMAT("pmcxsel",		"config:0-7"),
	ISA207_FORMAT("mark",		"config:8"),
	ISA207_FORMAT("combine",		"config:10-11"),
	ISA207_FORMAT("unit",		"config:12-15"),
	ISA207_FORMAT("pmc",		"config:16-19"),
	ISA207_FORMAT("cache_sel",	"config:20-21"),
	ISA207_FORMAT("sdar_mode",	"config:22-23"),
	ISA207_FORMAT("sample_mode",	"config:24-28"),
	ISA207_FORMAT("thresh_sel",	"config:29-31"),
	ISA207_FORMAT("thresh_stop",	"config:32-35"),
	ISA207_FORMAT("thresh_start",	"config:36-39"),
	ISA207_FORMAT("l2l3_sel",		"config:40-44"),
	ISA207_FORMAT("src_sel",		"config:45-46"),
	ISA207_FORMAT("invert_bit",	"config:47"),
	ISA207_FORMAT("src_mask",		"config:48-53"),
	ISA207_FORMAT("src_match",	"config:54-59"),
	ISA207_FORMAT("radix_scope",	"config:9"),
	ISA207_FORMAT("thresh_cmp",	"config1:0-17"),
};

/* events/ besides the generic and cache tables (DD1 too) */
static struct perf_pmu_events_attr p10_extra_events[] = {
	ISA207_EVENT("mem-loads",		P10_MEM_LOADS),
	ISA207_EVENT("mem-stores",		P10_MEM_STORES),
};

static struct attribute *p10_format_ptrs[ARRAY_SIZE(p10_formats) + 1];

static int p10_generic[] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= P10_PM_CYC,
	[PERF_COUNT_HW_INSTRUCTIONS]		= P10_PM_INST_CMPL,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= P10_PM_BR_FIN,
	[PERF_COUNT_HW_BRANCH_MISSES]		= P10_PM_MPRED_BR_FIN,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= P10_PM_LD_REF_L1,
	[PERF_COUNT_HW_CACHE_MISSES]		= P10_PM_LD_DEMAND_MISS_L1_FIN,
};

static int p10_dd1_generic[] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= P10_PM_CYC,
	[PERF_COUNT_HW_INSTRUCTIONS]		= P10_PM_INST_CMPL,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= P10_PM_BR_CMPL,
	[PERF_COUNT_HW_BRANCH_MISSES]		= P10_PM_BR_MPRED_CMPL,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= P10_PM_LD_REF_L1,
	[PERF_COUNT_HW_CACHE_MISSES]		= P10_PM_LD_MISS_L1,
};

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NS	ISA207_CACHE_NONSENSE
#define P10_CACHE_TABLE(ll_wa, ll_wm, ll_pa)				\
	[C(L1D)] = ISA207_CACHE_OPS(P10_PM_LD_REF_L1, P10_PM_LD_MISS_L1, \
				    0, P10_PM_ST_MISS_L1,		\
				    P10_PM_LD_PREFETCH_CACHE_LINE_MISS, 0), \
	[C(L1I)] = ISA207_CACHE_OPS(P10_PM_INST_FROM_L1,		\
				    P10_PM_L1_ICACHE_MISS,		\
				    P10_PM_INST_FROM_L1MISS, NS,	\
				    P10_PM_IC_PREF_REQ, 0),		\
	[C(LL)] = ISA207_CACHE_OPS(P10_PM_DATA_FROM_L3,			\
				   P10_PM_DATA_FROM_L3MISS,		\
				   (ll_wa), (ll_wm), (ll_pa), 0),	\
	[C(DTLB)] = ISA207_CACHE_OPS(0, P10_PM_DTLB_MISS, NS, NS, NS, NS), \
	[C(ITLB)] = ISA207_CACHE_OPS(0, P10_PM_ITLB_MISS, NS, NS, NS, NS), \
	[C(BPU)] = ISA207_CACHE_OPS(P10_PM_BR_CMPL, P10_PM_BR_MPRED_CMPL, \
				    NS, NS, NS, NS),			\
	[C(NODE)] = ISA207_CACHE_NONE_OPS

static isa207_cache_table p10_cache = {
	P10_CACHE_TABLE(P10_PM_L2_ST, P10_PM_L2_ST_MISS, P10_PM_L3_PF_MISS_L3),
};

static isa207_cache_table p10_dd1_cache = {
	P10_CACHE_TABLE(NS, NS, NS),
};

#undef P10_CACHE_TABLE
#undef NS
#undef C

static const u32 p10_alts[][2] = {
	{ P10_PM_INST_CMPL_ALT,	P10_PM_INST_CMPL },
	{ P10_PM_CYC_ALT,	P10_PM_CYC },
};

/* ISA 3.1 adds indirect-call (IFM2) and conditional (IFM3) filters. */
static const struct isa207_bhrb_rule p10_bhrb[] = {
	{ PERF_SAMPLE_BRANCH_ANY,	 0 },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, ISA207_BHRB_REJECT },
	{ PERF_SAMPLE_BRANCH_IND_CALL,	 2UL << ISA207_MMCRA_IFM },
	{ PERF_SAMPLE_BRANCH_COND,	 3UL << ISA207_MMCRA_IFM },
	{ PERF_SAMPLE_BRANCH_CALL,	 ISA207_BHRB_REJECT },
	{ PERF_SAMPLE_BRANCH_ANY_CALL,	 1UL << ISA207_MMCRA_IFM },
};

struct isa207_model power10_model = {
	.name			= "POWER10",
	.isa			= ISA207_V31,
	.flags			= PPMU_HAS_SIER | PPMU_ARCH_207S |
				  PPMU_ARCH_31 | PPMU_HAS_ATTR_CONFIG1,
	.capabilities		= PERF_PMU_CAP_EXTENDED_REGS,
	.bhrb_nr		= 32,
	.c56run			= true,
	.sier_decode		= true,
	.l2l3_pmc4_group	= true,
	/* 0x10 (random sampling mode 0, eligibility 0b100) is reserved */
	.reserved_samples	= ISA207_RESERVED_SAMPLES | BIT(0x10),
	.ext_regs_mask		= PERF_REG_PMU_MASK_31,
	.alts			= p10_alts,
	.n_alts			= ARRAY_SIZE(p10_alts),
	.bhrb_rules		= p10_bhrb,
	.n_bhrb_rules		= ARRAY_SIZE(p10_bhrb),
	.generic_events		= p10_generic,
	.n_generic		= ARRAY_SIZE(p10_generic),
	.cache_events		= &p10_cache,
	ISA207_MODEL_FORMATS(p10),
	ISA207_MODEL_EXTRA_EVENTS(p10),
};

/**
 * init_power10_pmu - register the POWER10 PMU if this CPU is a POWER10
 *
 * The PVR version decides; PVR configuration 1 (DD1) gets the DD1 flag
 * and the DD1 generic and cache tables (and so their sysfs events).
 *
 * Return: 0, -ENODEV on other CPUs, or the registration error.
 */
int __init init_power10_pmu(void)
{
	unsigned int pvr = mfspr(SPRN_PVR);

	if (PVR_VER(pvr) != PVR_POWER10)
		return -ENODEV;

	if (PVR_CFG(pvr) == 1) {
		power10_model.flags |= PPMU_P10_DD1;
		power10_model.generic_events = p10_dd1_generic;
		power10_model.n_generic = ARRAY_SIZE(p10_dd1_generic);
		power10_model.cache_events = &p10_dd1_cache;
	}
	return isa207_register(&power10_model);
}
