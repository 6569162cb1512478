/* SPDX-License-Identifier: GPL-2.0 */
/*
 * POWER10 raw event codes used by power10-model.c (generic and cache
 * events, alternatives).  Codes from the POWER10 PMU event list; some
 * use the L2/L3 select and MMCR3 fields above bit 40, so all are u64.
 *
 * Locking: none (constants).
 */
#ifndef _POWERPC_PERF_POWER10_EVENTS_H
#define _POWERPC_PERF_POWER10_EVENTS_H

#define P10_PM_CYC			0x600f4ULL
#define P10_PM_CYC_ALT			0x0001eULL
#define P10_PM_INST_CMPL		0x500faULL
#define P10_PM_INST_CMPL_ALT		0x00002ULL
#define P10_PM_BR_CMPL			0x4d05eULL
#define P10_PM_BR_MPRED_CMPL		0x400f6ULL
#define P10_PM_BR_FIN			0x2f04aULL
#define P10_PM_MPRED_BR_FIN		0x3e098ULL
#define P10_PM_LD_DEMAND_MISS_L1_FIN	0x400f0ULL
#define P10_PM_LD_REF_L1		0x100fcULL
#define P10_PM_LD_MISS_L1		0x3e054ULL
#define P10_PM_ST_MISS_L1		0x300f0ULL
#define P10_PM_LD_PREFETCH_CACHE_LINE_MISS 0x1002cULL
#define P10_PM_L1_ICACHE_MISS		0x200fcULL
#define P10_PM_INST_FROM_L1		0x04080ULL
#define P10_PM_INST_FROM_L1MISS		0x03f00000001c040ULL
#define P10_PM_IC_PREF_REQ		0x040a0ULL
#define P10_PM_DATA_FROM_L3		0x01340000001c040ULL
#define P10_PM_DATA_FROM_L3MISS		0x300feULL
#define P10_PM_L2_ST			0x010000046080ULL
#define P10_PM_L2_ST_MISS		0x26880ULL
#define P10_PM_L3_PF_MISS_L3		0x100000016080ULL
#define P10_PM_DTLB_MISS		0x300fcULL
#define P10_PM_ITLB_MISS		0x400fcULL

/* Marked loads / stores with thresholding (mem-loads, mem-stores). */
#define P10_MEM_LOADS			0x35340401e0ULL
#define P10_MEM_STORES			0x353c0401e0ULL

#endif /* _POWERPC_PERF_POWER10_EVENTS_H */
