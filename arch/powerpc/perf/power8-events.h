/* SPDX-License-Identifier: GPL-2.0 */
/*
 * POWER8 raw event codes used by power8-model.c (generic and cache
 * events, alternatives).  Codes from the POWER8 PMU event list.
 *
 * Locking: none (constants).
 */
#ifndef _POWERPC_PERF_POWER8_EVENTS_H
#define _POWERPC_PERF_POWER8_EVENTS_H

enum {
	P8_PM_CYC			= 0x0001e,
	P8_PM_INST_CMPL			= 0x00002,
	P8_PM_GCT_NOSLOT_CYC		= 0x100f8,	/* no dispatch slot */
	P8_PM_CMPLU_STALL		= 0x4000a,
	P8_PM_CMPLU_STALL_ALT		= 0x1e054,
	P8_PM_BRU_FIN			= 0x10068,	/* branches finished */
	P8_PM_BR_MPRED_CMPL		= 0x400f6,
	P8_PM_LD_REF_L1			= 0x100ee,
	P8_PM_LD_MISS_L1		= 0x3e054,
	P8_PM_LD_MISS_L1_ALT		= 0x400f0,
	P8_PM_ST_MISS_L1		= 0x300f0,
	P8_PM_L1_PREF			= 0x0d8b8,
	P8_PM_INST_FROM_L1		= 0x04080,
	P8_PM_L1_ICACHE_MISS		= 0x200fd,
	P8_PM_L1_DEMAND_WRITE		= 0x0408c,
	P8_PM_IC_PREF_WRITE		= 0x0408e,
	P8_PM_DATA_FROM_L3		= 0x4c042,
	P8_PM_DATA_FROM_L3MISS		= 0x300fe,
	P8_PM_L2_ST			= 0x17080,
	P8_PM_L2_ST_MISS		= 0x17082,
	P8_PM_L3_PREF_ALL		= 0x4e052,
	P8_PM_DTLB_MISS			= 0x300fc,
	P8_PM_ITLB_MISS			= 0x400fc,
	P8_PM_RUN_INST_CMPL		= 0x500fa,
	P8_PM_RUN_INST_CMPL_ALT		= 0x400fa,
	P8_PM_RUN_CYC			= 0x600f4,
	P8_PM_RUN_CYC_ALT		= 0x200f4,
	P8_PM_MRK_ST_CMPL		= 0x10134,
	P8_PM_MRK_ST_CMPL_ALT		= 0x301e2,
	P8_PM_BR_MRK_2PATH		= 0x10138,
	P8_PM_BR_MRK_2PATH_ALT		= 0x40138,
	P8_PM_L3_CO_MEPF		= 0x18082,
	P8_PM_L3_CO_MEPF_ALT		= 0x3e05e,
	P8_PM_MRK_DATA_FROM_L2MISS	= 0x1d14e,
	P8_PM_MRK_DATA_FROM_L2MISS_ALT	= 0x401e8,
	P8_PM_BR_2PATH			= 0x20036,
	P8_PM_BR_2PATH_ALT		= 0x40036,
	P8_PM_INST_DISP			= 0x200f2,
	P8_PM_INST_DISP_ALT		= 0x300f2,
	P8_PM_MRK_FILT_MATCH		= 0x2013c,
	P8_PM_MRK_FILT_MATCH_ALT	= 0x3012e,
};

/* Marked loads and stores sampled with thresholding (mem_access). */
#define P8_MEM_ACCESS			0x10401e0ULL

#endif /* _POWERPC_PERF_POWER8_EVENTS_H */
