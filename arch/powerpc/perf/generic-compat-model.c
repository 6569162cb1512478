// SPDX-License-Identifier: GPL-2.0
/*
 * Architected ("generic compat", ISAv3) PMU model: the events ISA 3.0
 * defines for every implementation, used when the CPU is ISA 3.0 or later
 * but no specific model matched.  The code layout and MMCR programming
 * follow the CPU's ISA level (3.0 or 3.1).
 *
 * Locking: none; the model is chosen at boot and read-only afterwards.
 */
#define pr_fmt(fmt)	"generic-compat-pmu: " fmt

#include <linux/init.h>
#include <asm/cputable.h>

#include "isa207.h"
#include "internal.h"

/* Event codes ISA 3.0 architects (Book III-S, PMU event list) */
enum {
	GC_PM_CYC_ALT		= 0x100f0,
	GC_PM_NO_INST_AVAIL	= 0x100f8,	/* completion stalled, empty */
	GC_PM_INST_CMPL_ALT	= 0x100fe,
	GC_PM_INST_DISP		= 0x200f2,
	GC_PM_L1_ICACHE_MISS	= 0x200fc,
	GC_PM_ST_MISS_L1	= 0x300f0,
	GC_PM_INST_DISP_ALT	= 0x300f2,
	GC_PM_DTLB_MISS		= 0x300fc,
	GC_PM_DATA_FROM_L3MISS	= 0x300fe,
	GC_PM_LD_MISS_L1	= 0x400f0,
	GC_PM_BR_MPRED_CMPL	= 0x400f6,
	GC_PM_ITLB_MISS		= 0x400fc,
	GC_PM_INST_CMPL		= 0x500fa,
	GC_PM_CYC		= 0x600f4,
};

static struct dev_ext_attribute gc_formats[] = {
	ISA207_FORMAT("event",	"config:0-19"),
	ISA207_FORMAT("pmcxsel",	"config:0-7"),
	ISA207_FORMAT("pmc",	"config:16-19"),
};

static struct attribute *gc_format_ptrs[ARRAY_SIZE(gc_formats) + 1];

static int gc_generic[] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= GC_PM_CYC,
	[PERF_COUNT_HW_INSTRUCTIONS]		= GC_PM_INST_CMPL,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= GC_PM_NO_INST_AVAIL,
	[PERF_COUNT_HW_BRANCH_MISSES]		= GC_PM_BR_MPRED_CMPL,
	[PERF_COUNT_HW_CACHE_MISSES]		= GC_PM_LD_MISS_L1,
};

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NS	ISA207_CACHE_NONSENSE
static isa207_cache_table gc_cache = {
	[C(L1D)] = ISA207_CACHE_OPS(0, GC_PM_LD_MISS_L1, 0, GC_PM_ST_MISS_L1,
				    0, 0),
	[C(L1I)] = ISA207_CACHE_OPS(0, GC_PM_L1_ICACHE_MISS, 0, NS, 0, 0),
	[C(LL)] = ISA207_CACHE_OPS(0, GC_PM_DATA_FROM_L3MISS, 0, 0, 0, 0),
	[C(DTLB)] = ISA207_CACHE_OPS(0, GC_PM_DTLB_MISS, NS, NS, NS, NS),
	[C(ITLB)] = ISA207_CACHE_OPS(0, GC_PM_ITLB_MISS, NS, NS, NS, NS),
	[C(BPU)] = ISA207_CACHE_OPS(0, GC_PM_BR_MPRED_CMPL, NS, NS, NS, NS),
	[C(NODE)] = ISA207_CACHE_NONE_OPS,
};

#undef NS
#undef C

static const u32 gc_alts[][2] = {
	{ GC_PM_CYC_ALT,	GC_PM_CYC },
	{ GC_PM_INST_CMPL_ALT,	GC_PM_INST_CMPL },
	{ GC_PM_INST_DISP,	GC_PM_INST_DISP_ALT },
};

/*
 * No SIER decoding, BHRB, reserved-value check or L2/L3 group rule: only
 * what ISA 3.0 architects.  PMC5/6 count regardless of the run latch.
 */
#define GC_MODEL(_isa)						\
	.name			= "ISAv3",			\
	.isa			= (_isa),			\
	.flags			= PPMU_HAS_SIER | PPMU_ARCH_207S, \
	.c56run			= true,				\
	.alts			= gc_alts,			\
	.n_alts			= ARRAY_SIZE(gc_alts),		\
	.generic_events		= gc_generic,			\
	.n_generic		= ARRAY_SIZE(gc_generic),	\
	.cache_events		= &gc_cache,			\
	ISA207_MODEL_FORMATS(gc)

struct isa207_model generic_compat_v300_model = { GC_MODEL(ISA207_V300) };
struct isa207_model generic_compat_v31_model = { GC_MODEL(ISA207_V31) };

/**
 * init_generic_compat_pmu - fallback for ISA 3.0+ CPUs without a model
 *
 * Called last by the framework's probing.  ISA 3.0 is required: it
 * architects PM_LD_CMPL and PM_INST_CMPL_ALT, which 2.07 lacks.
 *
 * Return: 0, -ENODEV before ISA 3.0, or the registration error.
 */
int __init init_generic_compat_pmu(void)
{
	if (!cpu_has_feature(CPU_FTR_ARCH_300))
		return -ENODEV;
	if (cpu_has_feature(CPU_FTR_ARCH_31))
		return isa207_register(&generic_compat_v31_model);
	return isa207_register(&generic_compat_v300_model);
}
