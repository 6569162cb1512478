// SPDX-License-Identifier: GPL-2.0
/*
 * POWER9 (ISA 3.0) PMU model: tables and boot-time detection.  The event
 * code layout and the MMCR programming are the shared ISA 3.0 code of
 * isa207-*.c.
 *
 * Locking: none; the model is set up by init_power9_pmu() at boot and
 * read-only afterwards.
 */
#define pr_fmt(fmt)	"power9-pmu: " fmt

#include <linux/init.h>
#include <asm/perf_regs.h>
#include <asm/reg.h>

#include "isa207.h"
#include "internal.h"
#include "power9-events.h"

/* PVR bit of the Cumulus (scale-up) chips, which need no blacklist */
#define P9_PVR_CUMULUS		0x00002000

static struct dev_ext_attribute p9_formats[] = {
	ISA207_FORMAT("event",		"config:0-51"),
	ISA207_FORMAT("pmcxsel",		"config:0-7"),
	ISA207_FORMAT("mark",		"config:8"),
	ISA207_FORMAT("combine",		"config:10-11"),
	ISA207_FORMAT("unit",		"config:12-15"),
	ISA207_FORMAT("pmc",		"config:16-19"),
	ISA207_FORMAT("cache_sel",	"config:20-23"),
	ISA207_FORMAT("sample_mode",	"config:24-28"),
	ISA207_FORMAT("thresh_sel",	"config:29-31"),
	ISA207_FORMAT("thresh_stop",	"config:32-35"),
	ISA207_FORMAT("thresh_start",	"config:36-39"),
	ISA207_FORMAT("thresh_cmp",	"config:40-49"),
	ISA207_FORMAT("sdar_mode",	"config:50-51"),
};

/* events/ besides the generic and cache tables */
static struct perf_pmu_events_attr p9_extra_events[] = {
	ISA207_EVENT("mem-loads",		P9_MEM_LOADS),
	ISA207_EVENT("mem-stores",		P9_MEM_STORES),
};

static struct attribute *p9_format_ptrs[ARRAY_SIZE(p9_formats) + 1];

/* POWER9 has no bus-cycles or ref-cycles event. */
static int p9_generic[] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= P9_PM_CYC,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= P9_PM_ICT_NOSLOT_CYC,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= P9_PM_CMPLU_STALL,
	[PERF_COUNT_HW_INSTRUCTIONS]		= P9_PM_INST_CMPL,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= P9_PM_BR_CMPL,
	[PERF_COUNT_HW_BRANCH_MISSES]		= P9_PM_BR_MPRED_CMPL,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= P9_PM_LD_REF_L1,
	[PERF_COUNT_HW_CACHE_MISSES]		= P9_PM_LD_MISS_L1_FIN,
};

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NS	ISA207_CACHE_NONSENSE
static isa207_cache_table p9_cache = {
	[C(L1D)] = ISA207_CACHE_OPS(P9_PM_LD_REF_L1, P9_PM_LD_MISS_L1_FIN,
				    0, P9_PM_ST_MISS_L1, P9_PM_L1_PREF, 0),
	[C(L1I)] = ISA207_CACHE_OPS(P9_PM_INST_FROM_L1, P9_PM_L1_ICACHE_MISS,
				    P9_PM_L1_DEMAND_WRITE, NS,
				    P9_PM_IC_PREF_WRITE, 0),
	[C(LL)] = ISA207_CACHE_OPS(P9_PM_DATA_FROM_L3, P9_PM_DATA_FROM_L3MISS,
				   0, 0, P9_PM_L3_PREF_ALL, 0),
	[C(DTLB)] = ISA207_CACHE_OPS(0, P9_PM_DTLB_MISS, NS, NS, NS, NS),
	[C(ITLB)] = ISA207_CACHE_OPS(0, P9_PM_ITLB_MISS, NS, NS, NS, NS),
	[C(BPU)] = ISA207_CACHE_OPS(P9_PM_BR_CMPL, P9_PM_BR_MPRED_CMPL,
				    NS, NS, NS, NS),
	[C(NODE)] = ISA207_CACHE_NONE_OPS,
};

#undef NS
#undef C

static const u32 p9_alts[][2] = {
	{ P9_PM_BR_2PATH,		P9_PM_BR_2PATH_ALT },
	{ P9_PM_INST_DISP,		P9_PM_INST_DISP_ALT },
	{ P9_PM_RUN_CYC_ALT,		P9_PM_RUN_CYC },
	{ P9_PM_LD_MISS_L1,		P9_PM_LD_MISS_L1_ALT },
	{ P9_PM_RUN_INST_CMPL_ALT,	P9_PM_RUN_INST_CMPL },
};

/* ANY_CALL is the only filter besides none (IFM1 = calls only). */
static const struct isa207_bhrb_rule p9_bhrb[] = {
	{ PERF_SAMPLE_BRANCH_ANY,	 0 },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, ISA207_BHRB_REJECT },
	{ PERF_SAMPLE_BRANCH_IND_CALL,	 ISA207_BHRB_REJECT },
	{ PERF_SAMPLE_BRANCH_CALL,	 ISA207_BHRB_REJECT },
	{ PERF_SAMPLE_BRANCH_ANY_CALL,	 1UL << ISA207_MMCRA_IFM },
};

static int p9_dd21_blacklist[] = {
	P9_PM_MRK_ST_DONE_L2, P9_PM_RADIX_PWC_L1_HIT, P9_PM_FLOP_CMPL,
	P9_PM_MRK_NTF_FIN, P9_PM_RADIX_PWC_L2_HIT, P9_PM_IFETCH_THROTTLE,
	P9_PM_MRK_L2_TM_ST_ABORT_SISTER, P9_PM_RADIX_PWC_L3_HIT,
	P9_PM_RUN_CYC_SMT2_MODE, P9_PM_TM_TX_PASS_RUN_INST,
	P9_PM_DISP_HELD_SYNC_HOLD,
};

static int p9_dd22_blacklist[] = {
	P9_PM_DTLB_MISS_16G, P9_PM_DERAT_MISS_2M, P9_PM_DTLB_MISS_2M,
	P9_PM_MRK_DTLB_MISS_1G, P9_PM_DTLB_MISS_4K, P9_PM_DERAT_MISS_1G,
	P9_PM_MRK_DERAT_MISS_2M, P9_PM_MRK_DTLB_MISS_4K,
	P9_PM_MRK_DTLB_MISS_16G, P9_PM_DTLB_MISS_64K,
	P9_PM_MRK_DERAT_MISS_1G, P9_PM_MRK_DTLB_MISS_64K,
	P9_PM_DISP_HELD_SYNC_HOLD, P9_PM_DTLB_MISS_16M, P9_PM_DTLB_MISS_1G,
	P9_PM_MRK_DTLB_MISS_16M,
};

struct isa207_model power9_model = {
	.name			= "POWER9",
	.isa			= ISA207_V300,
	.flags			= PPMU_HAS_SIER | PPMU_ARCH_207S,
	.capabilities		= PERF_PMU_CAP_EXTENDED_REGS,
	.bhrb_nr		= 32,
	.sier_decode		= true,
	.l2l3_pmc4_group	= true,
	/* 0xc (random sampling of all eligible loads/stores) is reserved */
	.reserved_samples	= ISA207_RESERVED_SAMPLES | BIT(0xc),
	.ext_regs_mask		= PERF_REG_PMU_MASK_300,
	.alts			= p9_alts,
	.n_alts			= ARRAY_SIZE(p9_alts),
	.bhrb_rules		= p9_bhrb,
	.n_bhrb_rules		= ARRAY_SIZE(p9_bhrb),
	.generic_events		= p9_generic,
	.n_generic		= ARRAY_SIZE(p9_generic),
	.cache_events		= &p9_cache,
	ISA207_MODEL_FORMATS(p9),
	ISA207_MODEL_EXTRA_EVENTS(p9),
};

/**
 * init_power9_pmu - register the POWER9 PMU if this CPU is a POWER9
 *
 * The PVR version decides.  DD2.1 and DD2.2 chips other than Cumulus get
 * their blacklist of events that do not count correctly.
 *
 * Return: 0, -ENODEV on other CPUs, or the registration error.
 */
int __init init_power9_pmu(void)
{
	unsigned int pvr = mfspr(SPRN_PVR);

	if (PVR_VER(pvr) != PVR_POWER9)
		return -ENODEV;

	if (!(pvr & P9_PVR_CUMULUS) && PVR_CFG(pvr) == 2) {
		if (PVR_MIN(pvr) == 1) {
			power9_model.blacklist = p9_dd21_blacklist;
			power9_model.n_blacklist = ARRAY_SIZE(p9_dd21_blacklist);
		} else if (PVR_MIN(pvr) == 2) {
			power9_model.blacklist = p9_dd22_blacklist;
			power9_model.n_blacklist = ARRAY_SIZE(p9_dd22_blacklist);
		}
	}
	return isa207_register(&power9_model);
}
