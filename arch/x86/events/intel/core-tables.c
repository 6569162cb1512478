// SPDX-License-Identifier: GPL-2.0
/*
 * Intel core PMU: the per-model data.
 *
 * - The cache events (PERF_TYPE_HW_CACHE): for each microarchitecture a
 *   list of rows, one per (cache, operation), giving the event for
 *   accesses and for misses, and a second list giving the OFFCORE_RSP
 *   request/response mask the LL and NODE events program alongside.
 *   intel_load_cache_tables() expands the named lists into the
 *   framework's arrays.
 * - The event constraints: which counters an event code (or code and
 *   unit mask, or range of codes) may use.  The lookup takes the first
 *   entry that matches, so a narrower entry has to precede a wider one
 *   that covers the same event.
 * - The extra registers: the events that program a second MSR
 *   (OFFCORE_RSP_x, the PEBS load-latency threshold, PEBS_FRONTEND).
 *
 * The event codes, unit masks and register layouts are Intel's (SDM
 * volume 3B and the per-model event lists).
 *
 * Locking: none.  The tables are written at boot only (the cache rows
 * are __initconst; the constraint and extra-register tables may be
 * adjusted by the model setup before the PMU is registered) and are
 * read-only after that.
 */
#include <linux/perf_event.h>
#include "core.h"

/* ------------------------------------------------------ cache events */

/*
 * One row of a cache event list: the value for an access and for a
 * miss of @op on @cache.  A (cache, op) without a row is 0, "not
 * counted"; C_NA marks an operation that means nothing for that cache.
 */
struct intel_cache_row {
	u8 cache, op;
	u64 access, miss;
};

#define C_NA			((u64)-1)
#define CROW(c, o, acc, mis)	{ C(c), C(OP_##o), (acc), (mis) }
#define CROW_NA(c, o)		{ C(c), C(OP_##o), C_NA, C_NA }

/* Core 2: loads and stores counted at the L1D, LL is the L2. */
static const struct intel_cache_row core2_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0x0f40, 0x0140),	/* L1D_CACHE_LD: all MESI, I state */
	CROW(L1D,  WRITE,    0x0f41, 0x0141),	/* L1D_CACHE_ST: all MESI, I state */
	CROW(L1D,  PREFETCH, 0x104e, 0),	/* L1D_PREFETCH.REQUESTS */
	CROW(L1I,  READ,     0x0080, 0x0081),	/* L1I reads, misses */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x4f29, 0x4129),	/* L2_LD: all MESI, I state */
	CROW(LL,   WRITE,    0x4f2a, 0x412a),	/* L2_ST: all MESI, I state */
	CROW(DTLB, READ,     0x0f40, 0x0208),	/* loads, DTLB_MISSES.MISS_LD */
	CROW(DTLB, WRITE,    0x0f41, 0x0808),	/* stores, DTLB_MISSES.MISS_ST */
	CROW(ITLB, READ,     0x00c0, 0x1282),	/* INST_RETIRED.ANY_P, ITLB misses */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x00c4, 0x00c5),	/* branches retired, mispredicted */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
};

/* Bonnell (first Atom): no L1D miss event. */
static const struct intel_cache_row atom_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0x2140, 0),	/* L1D_CACHE.LD */
	CROW(L1D,  WRITE,    0x2240, 0),	/* L1D_CACHE.ST */
	CROW(L1I,  READ,     0x0380, 0x0280),	/* L1I reads, misses */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x4f29, 0x4129),	/* L2_LD: all MESI, I state */
	CROW(LL,   WRITE,    0x4f2a, 0x412a),	/* L2_ST: all MESI, I state */
	CROW(DTLB, READ,     0x2140, 0x0508),	/* L1D loads, DTLB_MISSES.MISS_LD */
	CROW(DTLB, WRITE,    0x2240, 0x0608),	/* L1D stores, DTLB_MISSES.MISS_ST */
	CROW(ITLB, READ,     0x00c0, 0x0282),	/* INST_RETIRED.ANY_P, ITLB.MISSES */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x00c4, 0x00c5),	/* branches retired, mispredicted */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
};

/*
 * Nehalem and Westmere differ in the TLB rows only.  LL and NODE are
 * OFFCORE_RESPONSE_0 (0x01b7): which requests and which responses it
 * counts is in the extra list.  A write miss shows up as an RFO.
 */
static const struct intel_cache_row nehalem_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0x010b, 0x0151),	/* MEM_INST_RETIRED.LOADS, L1D.REPL */
	CROW(L1D,  WRITE,    0x020b, 0x0251),	/* MEM_INST_RETIRED.STORES, L1D.M_REPL */
	CROW(L1D,  PREFETCH, 0x014e, 0x024e),	/* L1D_PREFETCH: requests, misses */
	CROW(L1I,  READ,     0x0380, 0x0280),	/* L1I: reads, misses */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x01b7, 0x01b7),
	CROW(LL,   WRITE,    0x01b7, 0x01b7),
	CROW(LL,   PREFETCH, 0x01b7, 0x01b7),
	CROW(DTLB, READ,     0x0f40, 0x0108),	/* L1D_CACHE_LD.MESI, DTLB_LOAD_MISSES.ANY */
	CROW(DTLB, WRITE,    0x0f41, 0x010c),	/* L1D_CACHE_ST.MESI, MEM_STORE_RETIRED.DTLB_MISS */
	CROW(ITLB, READ,     0x01c0, 0x20c8),	/* INST_RETIRED.ANY_P, ITLB_MISS_RETIRED */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x00c4, 0x03e8),	/* BR_INST_RETIRED.ALL_BRANCHES, BPU_CLEARS.ANY */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
	CROW(NODE, READ,     0x01b7, 0x01b7),
	CROW(NODE, WRITE,    0x01b7, 0x01b7),
	CROW(NODE, PREFETCH, 0x01b7, 0x01b7),
};

static const struct intel_cache_row westmere_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0x010b, 0x0151),	/* MEM_INST_RETIRED.LOADS, L1D.REPL */
	CROW(L1D,  WRITE,    0x020b, 0x0251),	/* MEM_INST_RETIRED.STORES, L1D.M_REPL */
	CROW(L1D,  PREFETCH, 0x014e, 0x024e),	/* L1D_PREFETCH: requests, misses */
	CROW(L1I,  READ,     0x0380, 0x0280),	/* L1I: reads, misses */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x01b7, 0x01b7),
	CROW(LL,   WRITE,    0x01b7, 0x01b7),
	CROW(LL,   PREFETCH, 0x01b7, 0x01b7),
	CROW(DTLB, READ,     0x010b, 0x0108),	/* MEM_INST_RETIRED.LOADS, DTLB_LOAD_MISSES.ANY */
	CROW(DTLB, WRITE,    0x020b, 0x010c),	/* ...STORES, MEM_STORE_RETIRED.DTLB_MISS */
	CROW(ITLB, READ,     0x01c0, 0x0185),	/* INST_RETIRED.ANY_P, ITLB_MISSES.ANY */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x00c4, 0x03e8),	/* BR_INST_RETIRED.ALL_BRANCHES, BPU_CLEARS.ANY */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
	CROW(NODE, READ,     0x01b7, 0x01b7),
	CROW(NODE, WRITE,    0x01b7, 0x01b7),
	CROW(NODE, PREFETCH, 0x01b7, 0x01b7),
};

/* Silvermont, also Knights Landing's: no L1D/DTLB access counts. */
static const struct intel_cache_row slm_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0,      0x0104),	/* LD_DCU_MISS */
	CROW(L1I,  READ,     0x0380, 0x0280),	/* ICACHE: accesses, misses */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x01b7, 0),	/* OFFCORE_RESPONSE_0 */
	CROW(LL,   WRITE,    0x01b7, 0x01b7),
	CROW(LL,   PREFETCH, 0x01b7, 0x01b7),
	CROW(DTLB, READ,     0,      0x0804),	/* LD_DTLB_MISS */
	CROW(ITLB, READ,     0x00c0, 0x40205),	/* INST_RETIRED.ANY_P, PAGE_WALKS.I_SIDE_WALKS */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x00c4, 0x00c5),	/* branches retired, mispredicted */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
};

/* Goldmont: LL is OFFCORE_RESPONSE_0, prefetches included. */
static const struct intel_cache_row glm_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0x81d0, 0),	/* MEM_UOPS_RETIRED.ALL_LOADS */
	CROW(L1D,  WRITE,    0x82d0, 0),	/* MEM_UOPS_RETIRED.ALL_STORES */
	CROW(L1I,  READ,     0x0380, 0x0280),	/* ICACHE: accesses, misses */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x01b7, 0x01b7),
	CROW(LL,   WRITE,    0x01b7, 0x01b7),
	CROW(LL,   PREFETCH, 0x01b7, 0x01b7),
	CROW(DTLB, READ,     0x81d0, 0),	/* all loads */
	CROW(DTLB, WRITE,    0x82d0, 0),	/* all stores */
	CROW(ITLB, READ,     0x00c0, 0x0481),	/* INST_RETIRED.ANY_P, ITLB.MISS */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x00c4, 0x00c5),	/* BR_INST_RETIRED, BR_MISP_RETIRED */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
};

/* Goldmont Plus, also Tremont's and Gracemont's: DTLB walks, no prefetch. */
static const struct intel_cache_row glp_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0x81d0, 0),	/* MEM_UOPS_RETIRED.ALL_LOADS */
	CROW(L1D,  WRITE,    0x82d0, 0),	/* MEM_UOPS_RETIRED.ALL_STORES */
	CROW(L1I,  READ,     0x0380, 0x0280),	/* ICACHE: accesses, misses */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x01b7, 0x01b7),
	CROW(LL,   WRITE,    0x01b7, 0x01b7),
	CROW(DTLB, READ,     0x81d0, 0x0e08),	/* all loads, DTLB_LOAD_MISSES.WALK_COMPLETED */
	CROW(DTLB, WRITE,    0x82d0, 0x0e49),	/* all stores, DTLB_STORE_MISSES.WALK_COMPLETED */
	CROW(ITLB, READ,     0x00c0, 0x0481),	/* INST_RETIRED.ANY_P, ITLB.MISS */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x00c4, 0x00c5),	/* BR_INST_RETIRED, BR_MISP_RETIRED */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
};

/* Sandy Bridge, Ivy Bridge. */
static const struct intel_cache_row snb_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0xf1d0, 0x0151),	/* MEM_UOPS_RETIRED loads, L1D.REPLACEMENT */
	CROW(L1D,  WRITE,    0xf2d0, 0x0851),	/* ...stores, L1D.ALL_M_REPLACEMENT */
	CROW(L1D,  PREFETCH, 0,      0x024e),	/* HW_PRE_REQ.DL1_MISS */
	CROW(L1I,  READ,     0,      0x0280),	/* ICACHE.MISSES */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x01b7, 0x01b7),
	CROW(LL,   WRITE,    0x01b7, 0x01b7),
	CROW(LL,   PREFETCH, 0x01b7, 0x01b7),
	CROW(DTLB, READ,     0x81d0, 0x0108),	/* all loads, DTLB_LOAD_MISSES.CAUSES_A_WALK */
	CROW(DTLB, WRITE,    0x82d0, 0x0149),	/* all stores, DTLB_STORE_MISSES.CAUSES_A_WALK */
	CROW(ITLB, READ,     0x1085, 0x0185),	/* ITLB_MISSES: STLB_HIT, CAUSES_A_WALK */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x00c4, 0x00c5),	/* BR_INST_RETIRED, BR_MISP_RETIRED */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
	CROW(NODE, READ,     0x01b7, 0x01b7),
	CROW(NODE, WRITE,    0x01b7, 0x01b7),
	CROW(NODE, PREFETCH, 0x01b7, 0x01b7),
};

/*
 * Haswell, Broadwell.  From here on prefetches are left out (they are
 * not counted reliably); data counts include speculative accesses,
 * except for L1D writes, DTLB and BPU.
 */
static const struct intel_cache_row hsw_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0x81d0, 0x0151),	/* all loads, L1D.REPLACEMENT */
	CROW(L1D,  WRITE,    0x82d0, 0),	/* all stores */
	CROW(L1I,  READ,     0,      0x0280),	/* ICACHE.MISSES */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x01b7, 0x01b7),
	CROW(LL,   WRITE,    0x01b7, 0x01b7),
	CROW(DTLB, READ,     0x81d0, 0x0108),	/* all loads, DTLB_LOAD_MISSES.MISS_CAUSES_A_WALK */
	CROW(DTLB, WRITE,    0x82d0, 0x0149),	/* all stores, DTLB_STORE_MISSES.CAUSES_WALK */
	CROW(ITLB, READ,     0x6085, 0x0185),	/* ITLB_MISSES: STLB_HIT, MISS_CAUSES_A_WALK */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x00c4, 0x00c5),	/* BR_INST_RETIRED, BR_MISP_RETIRED */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
	CROW(NODE, READ,     0x01b7, 0x01b7),
	CROW(NODE, WRITE,    0x01b7, 0x01b7),
};

/* Skylake and its descendants up to Ice Lake / Tiger Lake. */
static const struct intel_cache_row skl_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0x81d0, 0x0151),	/* MEM_INST_RETIRED.ALL_LOADS, L1D.REPLACEMENT */
	CROW(L1D,  WRITE,    0x82d0, 0),	/* MEM_INST_RETIRED.ALL_STORES */
	CROW(L1I,  READ,     0,      0x0283),	/* ICACHE_64B.IFTAG_MISS */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x01b7, 0x01b7),
	CROW(LL,   WRITE,    0x01b7, 0x01b7),
	CROW(DTLB, READ,     0x81d0, 0x0e08),	/* all loads, DTLB_LOAD_MISSES.WALK_COMPLETED */
	CROW(DTLB, WRITE,    0x82d0, 0x0e49),	/* all stores, DTLB_STORE_MISSES.WALK_COMPLETED */
	CROW(ITLB, READ,     0x2085, 0x0e85),	/* ITLB_MISSES: STLB_HIT, WALK_COMPLETED */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x00c4, 0x00c5),	/* BR_INST_RETIRED, BR_MISP_RETIRED */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
	CROW(NODE, READ,     0x01b7, 0x01b7),
	CROW(NODE, WRITE,    0x01b7, 0x01b7),
};

/*
 * Sapphire Rapids, also Alder Lake's big cores: OFFCORE_RESPONSE_0 is
 * event 0x2a (OCR); L1 misses are counted as L2 requests.
 */
static const struct intel_cache_row spr_cache_ids[] __initconst = {
	CROW(L1D,  READ,     0x81d0, 0xe124),	/* all loads, L2_RQSTS.ALL_DEMAND_DATA_RD */
	CROW(L1D,  WRITE,    0x82d0, 0),	/* all stores */
	CROW(L1I,  READ,     0,      0xe424),	/* L2_RQSTS.ALL_CODE_RD */
	CROW_NA(L1I, WRITE),
	CROW(LL,   READ,     0x012a, 0x012a),
	CROW(LL,   WRITE,    0x012a, 0x012a),
	CROW(DTLB, READ,     0x81d0, 0x0e12),	/* all loads, DTLB_LOAD_MISSES.WALK_COMPLETED */
	CROW(DTLB, WRITE,    0x82d0, 0x0e13),	/* all stores, DTLB_STORE_MISSES.WALK_COMPLETED */
	CROW(ITLB, READ,     C_NA,   0x0e11),	/* ITLB_MISSES.WALK_COMPLETED */
	CROW_NA(ITLB, WRITE),
	CROW_NA(ITLB, PREFETCH),
	CROW(BPU,  READ,     0x04c4, 0x04c5),	/* BR_INST_RETIRED, BR_MISP_RETIRED */
	CROW_NA(BPU, WRITE),
	CROW_NA(BPU, PREFETCH),
	CROW(NODE, READ,     0x012a, 0x012a),
};

/*
 * OFFCORE_RSP_x, Nehalem and Westmere: request type in bits 0-7, where
 * the response came from in bits 8-15.
 */
#define NHM_RQ_DMD_RD		BIT_ULL(0)	/* demand data read */
#define NHM_RQ_DMD_RFO		BIT_ULL(1)	/* demand read for ownership */
#define NHM_RQ_DMD_WB		BIT_ULL(3)	/* writeback */
#define NHM_RQ_PF_RD		BIT_ULL(4)	/* prefetch data read */
#define NHM_RQ_PF_RFO		BIT_ULL(5)	/* prefetch RFO */
#define NHM_RS_L3_HIT		GENMASK_ULL(10, 8)	/* L3: unshared, other core clean/HITM */
#define NHM_RS_REMOTE_FWD	BIT_ULL(12)	/* remote cache forward */
#define NHM_RS_REMOTE_DRAM	BIT_ULL(13)
#define NHM_RS_LOCAL_DRAM	BIT_ULL(14)
#define NHM_RS_NON_DRAM		BIT_ULL(15)

#define NHM_READS		NHM_RQ_DMD_RD
#define NHM_WRITES		(NHM_RQ_DMD_RFO | NHM_RQ_DMD_WB)
#define NHM_PREFETCHES		(NHM_RQ_PF_RD | NHM_RQ_PF_RFO)
#define NHM_L3_MISSED		(NHM_RS_REMOTE_FWD | NHM_RS_REMOTE_DRAM | \
				 NHM_RS_LOCAL_DRAM | NHM_RS_NON_DRAM)
#define NHM_L3_ANY		(NHM_RS_L3_HIT | NHM_L3_MISSED)
#define NHM_MEMORY		(NHM_RS_REMOTE_FWD | NHM_RS_REMOTE_DRAM | NHM_RS_LOCAL_DRAM)

static const struct intel_cache_row nehalem_cache_extra[] __initconst = {
	CROW(LL,   READ,     NHM_READS | NHM_L3_ANY,        NHM_READS | NHM_L3_MISSED),
	CROW(LL,   WRITE,    NHM_WRITES | NHM_L3_ANY,       NHM_WRITES | NHM_L3_MISSED),
	CROW(LL,   PREFETCH, NHM_PREFETCHES | NHM_L3_ANY,   NHM_PREFETCHES | NHM_L3_MISSED),
	CROW(NODE, READ,     NHM_READS | NHM_MEMORY,        NHM_READS | NHM_RS_REMOTE_DRAM),
	CROW(NODE, WRITE,    NHM_WRITES | NHM_MEMORY,       NHM_WRITES | NHM_RS_REMOTE_DRAM),
	CROW(NODE, PREFETCH, NHM_PREFETCHES | NHM_MEMORY,   NHM_PREFETCHES | NHM_RS_REMOTE_DRAM),
};

/*
 * OFFCORE_RSP_x from Sandy Bridge and Silvermont on: request type in
 * bits 0-15, supplier in bits 16-30 (model specific above bit 17), snoop
 * outcome in bits 31-37.
 */
#define ORSP_DMD_RD		BIT_ULL(0)	/* demand data read */
#define ORSP_DMD_RFO		BIT_ULL(1)	/* demand read for ownership */
#define ORSP_PF_L2_RD		BIT_ULL(4)	/* L2 prefetcher data read */
#define ORSP_PF_L2_RFO		BIT_ULL(5)	/* L2 prefetcher RFO */
#define ORSP_PF_L3_RD		BIT_ULL(7)	/* L3 prefetcher data read (SNB) */
#define ORSP_PF_L3_RFO		BIT_ULL(8)	/* L3 prefetcher RFO (SNB) */
#define ORSP_ANY		BIT_ULL(16)	/* any response */
#define ORSP_NO_SUPPLIER	BIT_ULL(17)	/* supplier not known */
#define ORSP_SNP_NONE		BIT_ULL(31)
#define ORSP_SNP_NOT_NEEDED	BIT_ULL(32)
#define ORSP_SNP_MISS		BIT_ULL(33)	/* Goldmont: none or miss */
#define ORSP_SNP_HIT		BIT_ULL(34)	/* hit, not forwarded */
#define ORSP_SNP_FWD		BIT_ULL(35)	/* hit and forwarded */
#define ORSP_SNP_HITM		BIT_ULL(36)	/* hit modified */
#define ORSP_SNP_NON_DRAM	BIT_ULL(37)	/* served by something not DRAM */
#define ORSP_SNP_DRAM		GENMASK_ULL(36, 31)	/* any outcome of a DRAM access */

/* Suppliers, bits 18-30, by model. */
#define ORSP_SNB_LOCAL		BIT_ULL(22)	/* local DRAM */
#define ORSP_SNB_REMOTE		GENMASK_ULL(30, 23)	/* remote DRAM or cache */
#define ORSP_HSW_MISS_LOCAL	BIT_ULL(22)	/* L3 miss, local DRAM */
#define ORSP_SKL_MISS_LOCAL	BIT_ULL(26)	/* L3 miss, local DRAM (also BDW) */
#define ORSP_MISS_REMOTE	GENMASK_ULL(29, 27)	/* L3 miss, remote hop 0, 1, 2+ */
#define ORSP_SKL_SPL_HIT	BIT_ULL(30)	/* special hit, grouped with the snoops */
#define ORSP_TNT_LOCAL_DRAM	BIT_ULL(26)
#define ORSP_KNL_OTHER_TILE	GENMASK_ULL(20, 19)	/* other tile's L2, E or F */
#define ORSP_KNL_MEMORY		GENMASK_ULL(24, 21)	/* MCDRAM, DDR: local or far */

/* Sandy Bridge, Ivy Bridge: reads and RFOs include the L3 prefetcher's. */
#define SNB_READS		(ORSP_DMD_RD | ORSP_PF_L3_RD)
#define SNB_WRITES		(ORSP_DMD_RFO | ORSP_PF_L3_RFO)
#define SNB_PREFETCHES		(ORSP_PF_L2_RD | ORSP_PF_L2_RFO)
#define SNB_REMOTE_MEM		(ORSP_SNB_REMOTE | ORSP_SNP_DRAM)
#define SNB_ANY_MEM		(ORSP_SNB_LOCAL | SNB_REMOTE_MEM)
#define SNB_L3_MISSED		(SNB_ANY_MEM | ORSP_SNP_NON_DRAM)

static const struct intel_cache_row snb_cache_extra[] __initconst = {
	CROW(LL,   READ,     SNB_READS | ORSP_ANY,          SNB_READS | SNB_L3_MISSED),
	CROW(LL,   WRITE,    SNB_WRITES | ORSP_ANY,         SNB_WRITES | SNB_L3_MISSED),
	CROW(LL,   PREFETCH, SNB_PREFETCHES | ORSP_ANY,     SNB_PREFETCHES | SNB_L3_MISSED),
	CROW(NODE, READ,     SNB_READS | SNB_ANY_MEM,       SNB_READS | SNB_REMOTE_MEM),
	CROW(NODE, WRITE,    SNB_WRITES | SNB_ANY_MEM,      SNB_WRITES | SNB_REMOTE_MEM),
	CROW(NODE, PREFETCH, SNB_PREFETCHES | SNB_ANY_MEM,  SNB_PREFETCHES | SNB_REMOTE_MEM),
};

/* Haswell (Broadwell patches the L3-miss rows: its local DRAM is bit 26). */
#define HSW_L3_MISSED		(ORSP_HSW_MISS_LOCAL | ORSP_MISS_REMOTE | \
				 ORSP_SNP_DRAM | ORSP_SNP_NON_DRAM)
#define HSW_LOCAL_MEM		(ORSP_HSW_MISS_LOCAL | ORSP_SNP_DRAM)
#define HSW_REMOTE_MEM		(ORSP_MISS_REMOTE | ORSP_SNP_DRAM)

static const struct intel_cache_row hsw_cache_extra[] __initconst = {
	CROW(LL,   READ,     ORSP_DMD_RD | ORSP_ANY,        ORSP_DMD_RD | HSW_L3_MISSED),
	CROW(LL,   WRITE,    ORSP_DMD_RFO | ORSP_ANY,       ORSP_DMD_RFO | HSW_L3_MISSED),
	CROW(NODE, READ,     ORSP_DMD_RD | HSW_LOCAL_MEM,   ORSP_DMD_RD | HSW_REMOTE_MEM),
	CROW(NODE, WRITE,    ORSP_DMD_RFO | HSW_LOCAL_MEM,  ORSP_DMD_RFO | HSW_REMOTE_MEM),
};

/* Skylake: the special hit (bit 30) counts as a snoop outcome. */
#define SKL_SNP_DRAM		(ORSP_SKL_SPL_HIT | ORSP_SNP_DRAM)
#define SKL_SNP_ALL		(SKL_SNP_DRAM | ORSP_SNP_NON_DRAM)
#define SKL_L3_ANY		(ORSP_ANY | SKL_SNP_ALL)
#define SKL_L3_MISSED		(ORSP_NO_SUPPLIER | ORSP_SKL_MISS_LOCAL | \
				 ORSP_MISS_REMOTE | SKL_SNP_ALL)
#define SKL_LOCAL_MEM		(ORSP_SKL_MISS_LOCAL | SKL_SNP_DRAM)
#define SKL_REMOTE_MEM		(ORSP_MISS_REMOTE | SKL_SNP_DRAM)

static const struct intel_cache_row skl_cache_extra[] __initconst = {
	CROW(LL,   READ,     ORSP_DMD_RD | SKL_L3_ANY,      ORSP_DMD_RD | SKL_L3_MISSED),
	CROW(LL,   WRITE,    ORSP_DMD_RFO | SKL_L3_ANY,     ORSP_DMD_RFO | SKL_L3_MISSED),
	CROW(NODE, READ,     ORSP_DMD_RD | SKL_LOCAL_MEM,   ORSP_DMD_RD | SKL_REMOTE_MEM),
	CROW(NODE, WRITE,    ORSP_DMD_RFO | SKL_LOCAL_MEM,  ORSP_DMD_RFO | SKL_REMOTE_MEM),
};

/*
 * Sapphire Rapids: demand data reads (bit 0) and RFOs (bit 1) with a
 * supplier/snoop mask each, as plain values.
 */
static const struct intel_cache_row spr_cache_extra[] __initconst = {
	CROW(LL,   READ,     0x0000010001ULL, 0x3fbfc00001ULL),	/* any; L3 miss */
	CROW(LL,   WRITE,    0x3f3ffc0002ULL, 0x3f3fc00002ULL),	/* any; L3 miss */
	CROW(NODE, READ,     0x010c000001ULL, 0x3fb3000001ULL),	/* local; remote */
};

/* Silvermont: the L3 (really L2) miss for reads is not counted. */
#define SLM_PREFETCHES		(ORSP_PF_L2_RD | ORSP_PF_L2_RFO)
#define SLM_MISSED		(ORSP_SNP_NONE | ORSP_SNP_MISS | ORSP_SNP_HIT | \
				 ORSP_SNP_HITM | ORSP_SNP_NON_DRAM)

static const struct intel_cache_row slm_cache_extra[] __initconst = {
	CROW(LL,   READ,     ORSP_DMD_RD | ORSP_ANY,        0),
	CROW(LL,   WRITE,    ORSP_DMD_RFO | ORSP_ANY,       ORSP_DMD_RFO | SLM_MISSED),
	CROW(LL,   PREFETCH, SLM_PREFETCHES | ORSP_ANY,     SLM_PREFETCHES | SLM_MISSED),
};

/* Goldmont and Goldmont Plus (the latter without the prefetch row). */
#define GLM_MISSED		(ORSP_SNP_MISS | ORSP_SNP_HIT | ORSP_SNP_HITM | \
				 ORSP_SNP_NON_DRAM)

static const struct intel_cache_row glm_cache_extra[] __initconst = {
	CROW(LL,   READ,     ORSP_DMD_RD | ORSP_ANY,        ORSP_DMD_RD | GLM_MISSED),
	CROW(LL,   WRITE,    ORSP_DMD_RFO | ORSP_ANY,       ORSP_DMD_RFO | GLM_MISSED),
	CROW(LL,   PREFETCH, SLM_PREFETCHES | ORSP_ANY,     SLM_PREFETCHES | GLM_MISSED),
};

static const struct intel_cache_row glp_cache_extra[] __initconst = {
	CROW(LL,   READ,     ORSP_DMD_RD | ORSP_ANY,        ORSP_DMD_RD | GLM_MISSED),
	CROW(LL,   WRITE,    ORSP_DMD_RFO | ORSP_ANY,       ORSP_DMD_RFO | GLM_MISSED),
};

/* Tremont, also Gracemont's. */
#define TNT_MISSED		(ORSP_TNT_LOCAL_DRAM | ORSP_SNP_NOT_NEEDED | \
				 ORSP_SNP_MISS | ORSP_SNP_HIT | ORSP_SNP_FWD | \
				 ORSP_SNP_HITM | ORSP_SNP_NON_DRAM)

static const struct intel_cache_row tnt_cache_extra[] __initconst = {
	CROW(LL,   READ,     ORSP_DMD_RD | ORSP_ANY,        ORSP_DMD_RD | TNT_MISSED),
	CROW(LL,   WRITE,    ORSP_DMD_RFO | ORSP_ANY,       ORSP_DMD_RFO | TNT_MISSED),
};

/* Knights Landing: LL is the tile's L2; a miss is served elsewhere. */
#define KNL_MISSED		(ORSP_KNL_OTHER_TILE | ORSP_KNL_MEMORY | \
				 ORSP_SNP_DRAM | ORSP_SNP_NON_DRAM)

static const struct intel_cache_row knl_cache_extra[] __initconst = {
	CROW(LL,   READ,     ORSP_DMD_RD | ORSP_ANY,        0),
	CROW(LL,   WRITE,    ORSP_DMD_RFO | ORSP_ANY,       ORSP_DMD_RFO | KNL_MISSED),
	CROW(LL,   PREFETCH, SLM_PREFETCHES | ORSP_ANY,     SLM_PREFETCHES | KNL_MISSED),
};

struct intel_cache_list {
	const struct intel_cache_row *rows;
	unsigned int nr;
};

static const struct intel_cache_list intel_cache_ids_lists[] __initconst = {
	[INTEL_CACHE_IDS_CORE2]		= { core2_cache_ids, ARRAY_SIZE(core2_cache_ids) },
	[INTEL_CACHE_IDS_NEHALEM]	= { nehalem_cache_ids, ARRAY_SIZE(nehalem_cache_ids) },
	[INTEL_CACHE_IDS_WESTMERE]	= { westmere_cache_ids, ARRAY_SIZE(westmere_cache_ids) },
	[INTEL_CACHE_IDS_ATOM]		= { atom_cache_ids, ARRAY_SIZE(atom_cache_ids) },
	[INTEL_CACHE_IDS_SLM]		= { slm_cache_ids, ARRAY_SIZE(slm_cache_ids) },
	[INTEL_CACHE_IDS_GLM]		= { glm_cache_ids, ARRAY_SIZE(glm_cache_ids) },
	[INTEL_CACHE_IDS_GLP]		= { glp_cache_ids, ARRAY_SIZE(glp_cache_ids) },
	[INTEL_CACHE_IDS_SNB]		= { snb_cache_ids, ARRAY_SIZE(snb_cache_ids) },
	[INTEL_CACHE_IDS_HSW]		= { hsw_cache_ids, ARRAY_SIZE(hsw_cache_ids) },
	[INTEL_CACHE_IDS_SKL]		= { skl_cache_ids, ARRAY_SIZE(skl_cache_ids) },
	[INTEL_CACHE_IDS_SPR]		= { spr_cache_ids, ARRAY_SIZE(spr_cache_ids) },
};

static const struct intel_cache_list intel_cache_extra_lists[] __initconst = {
	[INTEL_CACHE_EXTRA_NEHALEM]	= { nehalem_cache_extra, ARRAY_SIZE(nehalem_cache_extra) },
	[INTEL_CACHE_EXTRA_SLM]		= { slm_cache_extra, ARRAY_SIZE(slm_cache_extra) },
	[INTEL_CACHE_EXTRA_GLM]		= { glm_cache_extra, ARRAY_SIZE(glm_cache_extra) },
	[INTEL_CACHE_EXTRA_GLP]		= { glp_cache_extra, ARRAY_SIZE(glp_cache_extra) },
	[INTEL_CACHE_EXTRA_TNT]		= { tnt_cache_extra, ARRAY_SIZE(tnt_cache_extra) },
	[INTEL_CACHE_EXTRA_KNL]		= { knl_cache_extra, ARRAY_SIZE(knl_cache_extra) },
	[INTEL_CACHE_EXTRA_SNB]		= { snb_cache_extra, ARRAY_SIZE(snb_cache_extra) },
	[INTEL_CACHE_EXTRA_HSW]		= { hsw_cache_extra, ARRAY_SIZE(hsw_cache_extra) },
	[INTEL_CACHE_EXTRA_SKL]		= { skl_cache_extra, ARRAY_SIZE(skl_cache_extra) },
	[INTEL_CACHE_EXTRA_SPR]		= { spr_cache_extra, ARRAY_SIZE(spr_cache_extra) },
};

/* Zero @dst, then write the rows of @lists[@which] (none: all zero). */
static void __init intel_expand_cache_list(intel_cache_table_t *dst,
					   const struct intel_cache_list *lists,
					   unsigned int nr_lists,
					   unsigned int which)
{
	const struct intel_cache_row *row;
	unsigned int i;

	if (!dst)
		return;
	memset(dst, 0, sizeof(*dst));
	if (WARN_ON_ONCE(which >= nr_lists))
		return;

	for (i = 0, row = lists[which].rows; i < lists[which].nr; i++, row++) {
		(*dst)[row->cache][row->op][C(RESULT_ACCESS)] = row->access;
		(*dst)[row->cache][row->op][C(RESULT_MISS)] = row->miss;
	}
}

void __init intel_load_cache_tables(intel_cache_table_t *ids,
				    enum intel_cache_ids ids_name,
				    intel_cache_table_t *extra,
				    enum intel_cache_extra extra_name)
{
	intel_expand_cache_list(ids, intel_cache_ids_lists,
				ARRAY_SIZE(intel_cache_ids_lists), ids_name);
	intel_expand_cache_list(extra, intel_cache_extra_lists,
				ARRAY_SIZE(intel_cache_extra_lists), extra_name);
}

/* ------------------------------------------------ event constraints */

/*
 * Fixed counters 0-2 count these three on every model with fixed
 * counters; the pseudo event 0x0300 is "reference cycles", which only
 * fixed counter 2 can count.
 */

/* Core (Yonah), the perfmon v1 template's: a few events on one counter each. */
struct event_constraint intel_core_event_constraints[] __read_mostly = {
	INTEL_EVENT_CONSTRAINT(0x11, 0x2),	/* FP_ASSIST */
	INTEL_EVENT_CONSTRAINT(0x12, 0x2),	/* MUL */
	INTEL_EVENT_CONSTRAINT(0x13, 0x2),	/* DIV */
	INTEL_EVENT_CONSTRAINT(0x14, 0x1),	/* CYCLES_DIV_BUSY */
	INTEL_EVENT_CONSTRAINT(0x19, 0x2),	/* DELAYED_BYPASS */
	INTEL_EVENT_CONSTRAINT(0xc1, 0x1),	/* FP_COMP_INSTR_RET */
	EVENT_CONSTRAINT_END
};

/* Core 2. */
struct event_constraint intel_core2_event_constraints[] __read_mostly = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	INTEL_EVENT_CONSTRAINT(0x10, 0x1),	/* FP_COMP_OPS_EXE */
	INTEL_EVENT_CONSTRAINT(0x11, 0x2),	/* FP_ASSIST */
	INTEL_EVENT_CONSTRAINT(0x12, 0x2),	/* MUL */
	INTEL_EVENT_CONSTRAINT(0x13, 0x2),	/* DIV */
	INTEL_EVENT_CONSTRAINT(0x14, 0x1),	/* CYCLES_DIV_BUSY */
	INTEL_EVENT_CONSTRAINT(0x18, 0x1),	/* IDLE_DURING_DIV */
	INTEL_EVENT_CONSTRAINT(0x19, 0x2),	/* DELAYED_BYPASS */
	INTEL_EVENT_CONSTRAINT(0xa1, 0x1),	/* RS_UOPS_DISPATCH_CYCLES */
	INTEL_EVENT_CONSTRAINT(0xc9, 0x1),	/* ITLB_MISS_RETIRED (erratum T30-9) */
	INTEL_EVENT_CONSTRAINT(0xcb, 0x1),	/* MEM_LOAD_RETIRED */
	EVENT_CONSTRAINT_END
};

/* Nehalem: the L1D events count on counters 0-1. */
struct event_constraint intel_nehalem_event_constraints[] __read_mostly = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	INTEL_EVENT_CONSTRAINT(0x40, 0x3),	/* L1D_CACHE_LD */
	INTEL_EVENT_CONSTRAINT(0x41, 0x3),	/* L1D_CACHE_ST */
	INTEL_EVENT_CONSTRAINT(0x42, 0x3),	/* L1D_CACHE_LOCK */
	INTEL_EVENT_CONSTRAINT(0x43, 0x3),	/* L1D_ALL_REF */
	INTEL_EVENT_CONSTRAINT(0x48, 0x3),	/* L1D_PEND_MISS */
	INTEL_EVENT_CONSTRAINT(0x4e, 0x3),	/* L1D_PREFETCH */
	INTEL_EVENT_CONSTRAINT(0x51, 0x3),	/* L1D (replacements) */
	INTEL_EVENT_CONSTRAINT(0x63, 0x3),	/* CACHE_LOCK_CYCLES */
	EVENT_CONSTRAINT_END
};

/* Westmere. */
struct event_constraint intel_westmere_event_constraints[] __read_mostly = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	INTEL_EVENT_CONSTRAINT(0x51, 0x3),	/* L1D (replacements) */
	INTEL_EVENT_CONSTRAINT(0x60, 0x1),	/* OFFCORE_REQUESTS_OUTSTANDING */
	INTEL_EVENT_CONSTRAINT(0x63, 0x3),	/* CACHE_LOCK_CYCLES */
	INTEL_EVENT_CONSTRAINT(0xb3, 0x1),	/* SNOOPQ_REQUESTS_OUTSTANDING */
	EVENT_CONSTRAINT_END
};

/*
 * Sandy Bridge.  The memory-retired events (0xd0-0xd3) can only use
 * counters 0-3, and with HT on they hit the HT erratum: the sibling's
 * counter must stay idle (EXCL).  The second 0x04a3 and 0x02a3 entries
 * can never match (the first ones do); they are kept as 6.1 has them.
 */
struct event_constraint intel_snb_event_constraints[] __read_mostly = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	INTEL_UEVENT_CONSTRAINT(0x04a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_NO_DISPATCH */
	INTEL_UEVENT_CONSTRAINT(0x05a3, 0xf),	/* CYCLE_ACTIVITY.STALLS_L2_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x02a3, 0x4),	/* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x06a3, 0x4),	/* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	INTEL_EVENT_CONSTRAINT(0x48, 0x4),	/* L1D_PEND_MISS.* */
	INTEL_UEVENT_CONSTRAINT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	INTEL_EVENT_CONSTRAINT(0xcd, 0x8),	/* MEM_TRANS_RETIRED.* (load latency) */
	INTEL_UEVENT_CONSTRAINT(0x04a3, 0xf),	/* (repeat, unreachable) */
	INTEL_UEVENT_CONSTRAINT(0x02a3, 0x4),	/* (repeat, unreachable) */
	INTEL_EXCLEVT_CONSTRAINT(0xd0, 0xf),	/* MEM_UOPS_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd1, 0xf),	/* MEM_LOAD_UOPS_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd2, 0xf),	/* MEM_LOAD_UOPS_LLC_HIT_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd3, 0xf),	/* MEM_LOAD_UOPS_LLC_MISS_RETIRED.* */
	EVENT_CONSTRAINT_END
};

/* Ivy Bridge: as Sandy Bridge for 0xd0-0xd3 (counters 0-3, EXCL with HT). */
struct event_constraint intel_ivb_event_constraints[] __read_mostly = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	INTEL_UEVENT_CONSTRAINT(0x0148, 0x4),	/* L1D_PEND_MISS.PENDING */
	INTEL_UEVENT_CONSTRAINT(0x0279, 0xf),	/* IDQ.EMPTY */
	INTEL_UEVENT_CONSTRAINT(0x019c, 0xf),	/* IDQ_UOPS_NOT_DELIVERED.CORE */
	INTEL_UEVENT_CONSTRAINT(0x02a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_LDM_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x04a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_NO_EXECUTE */
	INTEL_UEVENT_CONSTRAINT(0x05a3, 0xf),	/* CYCLE_ACTIVITY.STALLS_L2_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x06a3, 0xf),	/* CYCLE_ACTIVITY.STALLS_LDM_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x08a3, 0x4),	/* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x0ca3, 0x4),	/* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	INTEL_EXCLEVT_CONSTRAINT(0xd0, 0xf),	/* MEM_UOPS_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd1, 0xf),	/* MEM_LOAD_UOPS_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd2, 0xf),	/* MEM_LOAD_UOPS_LLC_HIT_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd3, 0xf),	/* MEM_LOAD_UOPS_LLC_MISS_RETIRED.* */
	EVENT_CONSTRAINT_END
};

/* Haswell: as Sandy Bridge for 0xd0-0xd3 (counters 0-3, EXCL with HT). */
struct event_constraint intel_hsw_event_constraints[] = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	INTEL_UEVENT_CONSTRAINT(0x0148, 0x4),	/* L1D_PEND_MISS.PENDING */
	INTEL_UEVENT_CONSTRAINT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	INTEL_EVENT_CONSTRAINT(0xcd, 0x8),	/* MEM_TRANS_RETIRED.* (load latency) */
	INTEL_UEVENT_CONSTRAINT(0x08a3, 0x4),	/* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x0ca3, 0x4),	/* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x04a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_NO_EXECUTE */
	INTEL_EXCLEVT_CONSTRAINT(0xd0, 0xf),	/* MEM_UOPS_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd1, 0xf),	/* MEM_LOAD_UOPS_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd2, 0xf),	/* MEM_LOAD_UOPS_LLC_HIT_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd3, 0xf),	/* MEM_LOAD_UOPS_LLC_MISS_RETIRED.* */
	EVENT_CONSTRAINT_END
};

/*
 * Broadwell: the memory events are held to counters 0-3 (no HT erratum
 * here).  0x08a3 matches on the umask bit: any umask with bit 3 set.
 */
struct event_constraint intel_bdw_event_constraints[] = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	INTEL_UEVENT_CONSTRAINT(0x0148, 0x4),	/* L1D_PEND_MISS.PENDING */
	INTEL_UBIT_EVENT_CONSTRAINT(0x08a3, 0x4),	/* CYCLE_ACTIVITY.CYCLES_L1D_MISS */
	INTEL_EVENT_CONSTRAINT(0xd0, 0xf),	/* MEM_UOPS_RETIRED.* */
	INTEL_EVENT_CONSTRAINT(0xd1, 0xf),	/* MEM_LOAD_UOPS_RETIRED.* */
	INTEL_EVENT_CONSTRAINT(0xd2, 0xf),	/* MEM_LOAD_UOPS_L3_HIT_RETIRED.* */
	INTEL_EVENT_CONSTRAINT(0xcd, 0xf),	/* MEM_TRANS_RETIRED.* */
	EVENT_CONSTRAINT_END
};

/* Skylake: memory and frontend-retired events on counters 0-3. */
struct event_constraint intel_skl_event_constraints[] = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	INTEL_UEVENT_CONSTRAINT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	INTEL_EVENT_CONSTRAINT(0xd0, 0xf),	/* MEM_INST_RETIRED.* */
	INTEL_EVENT_CONSTRAINT(0xd1, 0xf),	/* MEM_LOAD_RETIRED.* */
	INTEL_EVENT_CONSTRAINT(0xd2, 0xf),	/* MEM_LOAD_L3_HIT_RETIRED.* */
	INTEL_EVENT_CONSTRAINT(0xcd, 0xf),	/* MEM_TRANS_RETIRED.* */
	INTEL_EVENT_CONSTRAINT(0xc6, 0xf),	/* FRONTEND_RETIRED.* */
	EVENT_CONSTRAINT_END
};

/*
 * Ice Lake: fixed counter 0 also takes precise-distribution retired
 * instructions (old and new encoding), fixed counter 3 the slots, and
 * the four level-1 topdown metrics live in PERF_METRICS.  Many event
 * codes are held to the low four of the eight counters; the three
 * CYCLE_ACTIVITY umasks allowed everywhere precede the catch-all 0xa3.
 */
struct event_constraint intel_icl_event_constraints[] = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x01c0, 0),	/* INST_RETIRED.PREC_DIST, old encoding */
	FIXED_EVENT_CONSTRAINT(0x0100, 0),	/* INST_RETIRED.PREC_DIST */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	FIXED_EVENT_CONSTRAINT(0x0400, 3),	/* TOPDOWN.SLOTS */
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_RETIRING, 0),
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_BAD_SPEC, 1),
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_FE_BOUND, 2),
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_BE_BOUND, 3),
	INTEL_EVENT_CONSTRAINT_RANGE(0x03, 0x0a, 0xf),	/* LD_BLOCKS .. DTLB_LOAD_MISSES */
	INTEL_EVENT_CONSTRAINT_RANGE(0x1f, 0x28, 0xf),	/* .. L2_RQSTS .. CORE_POWER */
	INTEL_EVENT_CONSTRAINT(0x32, 0xf),	/* SW_PREFETCH_ACCESS.* */
	INTEL_EVENT_CONSTRAINT_RANGE(0x48, 0x56, 0xf),	/* L1D_PEND_MISS .. */
	INTEL_EVENT_CONSTRAINT_RANGE(0x60, 0x8b, 0xf),	/* OFFCORE_REQUESTS_OUTSTANDING .. */
	INTEL_UEVENT_CONSTRAINT(0x04a3, 0xff),	/* CYCLE_ACTIVITY.STALLS_TOTAL */
	INTEL_UEVENT_CONSTRAINT(0x10a3, 0xff),	/* CYCLE_ACTIVITY.CYCLES_MEM_ANY */
	INTEL_UEVENT_CONSTRAINT(0x14a3, 0xff),	/* CYCLE_ACTIVITY.STALLS_MEM_ANY */
	INTEL_EVENT_CONSTRAINT(0xa3, 0xf),	/* the other CYCLE_ACTIVITY.* */
	INTEL_EVENT_CONSTRAINT_RANGE(0xa8, 0xb0, 0xf),	/* LSD .. OFFCORE_REQUESTS */
	INTEL_EVENT_CONSTRAINT_RANGE(0xb7, 0xbd, 0xf),	/* OFFCORE_RESPONSE .. TLB_FLUSH */
	INTEL_EVENT_CONSTRAINT_RANGE(0xd0, 0xe6, 0xf),	/* MEM_*_RETIRED .. BACLEARS */
	INTEL_EVENT_CONSTRAINT(0xef, 0xf),	/* CORE_SNOOP_RESPONSE */
	INTEL_EVENT_CONSTRAINT_RANGE(0xf0, 0xf4, 0xf),	/* L2_TRANS .. SQ_MISC */
	EVENT_CONSTRAINT_END
};

/*
 * Sapphire Rapids: eight level-1/level-2 topdown metrics.  Event codes
 * below 0x90 are held to counters 0-3, except 0x2e and 0x3c, which must
 * therefore come first; codes from 0x90 are free except the ones listed
 * before that range.
 */
struct event_constraint intel_spr_event_constraints[] = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x0100, 0),	/* INST_RETIRED.PREC_DIST */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	FIXED_EVENT_CONSTRAINT(0x0400, 3),	/* TOPDOWN.SLOTS */
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_RETIRING, 0),
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_BAD_SPEC, 1),
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_FE_BOUND, 2),
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_BE_BOUND, 3),
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_HEAVY_OPS, 4),
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_BR_MISPREDICT, 5),
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_FETCH_LAT, 6),
	METRIC_EVENT_CONSTRAINT(INTEL_TD_METRIC_MEM_BOUND, 7),
	INTEL_EVENT_CONSTRAINT(0x2e, 0xff),	/* LONGEST_LAT_CACHE.* */
	INTEL_EVENT_CONSTRAINT(0x3c, 0xff),	/* CPU_CLK_UNHALTED.* */
	INTEL_EVENT_CONSTRAINT_RANGE(0x01, 0x8f, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x01a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_L2_MISS */
	INTEL_UEVENT_CONSTRAINT(0x02a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_L3_MISS */
	INTEL_UEVENT_CONSTRAINT(0x08a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_L1D_MISS */
	INTEL_UEVENT_CONSTRAINT(0x04a4, 0x1),	/* TOPDOWN.BAD_SPEC_SLOTS */
	INTEL_UEVENT_CONSTRAINT(0x08a4, 0x1),	/* TOPDOWN.BR_MISPREDICT_SLOTS */
	INTEL_UEVENT_CONSTRAINT(0x02cd, 0x1),	/* MEM_TRANS_RETIRED.STORE_SAMPLE */
	INTEL_EVENT_CONSTRAINT(0xce, 0x1),	/* AMX_OPS_RETIRED.* */
	INTEL_EVENT_CONSTRAINT_RANGE(0xd0, 0xdf, 0xf),	/* MEM_*_RETIRED.* */
	INTEL_EVENT_CONSTRAINT_RANGE(0x90, 0xfe, 0xff),
	EVENT_CONSTRAINT_END
};

/* Silvermont and the later Atoms, Knights Landing: only the fixed counters. */
struct event_constraint intel_slm_event_constraints[] __read_mostly = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF (pseudo event) */
	EVENT_CONSTRAINT_END
};

/* Architectural perfmon v1, model not known: no fixed counters, no limits. */
struct event_constraint intel_v1_event_constraints[] __read_mostly = {
	EVENT_CONSTRAINT_END
};

/* Bonnell, and perfmon v2-v4 on a model not known: the fixed counters. */
struct event_constraint intel_gen_event_constraints[] __read_mostly = {
	FIXED_EVENT_CONSTRAINT(0x00c0, 0),	/* INST_RETIRED.ANY */
	FIXED_EVENT_CONSTRAINT(0x003c, 1),	/* CPU_CLK_UNHALTED.CORE */
	FIXED_EVENT_CONSTRAINT(0x0300, 2),	/* CPU_CLK_UNHALTED.REF */
	EVENT_CONSTRAINT_END
};

/* ------------------------------------------------- extra registers */

/*
 * OFFCORE_RSP_0 must be entry 0 and OFFCORE_RSP_1 (where there is one)
 * entry 1: when the constraint code moves an event to the other
 * register it takes the new event code from that entry.  The valid mask
 * is what the model's OFFCORE_RSP_x accepts.
 */

/* Nehalem: one OFFCORE_RSP, 16 bits; load latency on MEM_INST_RETIRED. */
struct extra_reg intel_nehalem_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0xffff, RSP_0),
	INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(0x100b),	/* MEM_INST_RETIRED, load latency */
	EVENT_EXTRA_END
};

/* Westmere: a second OFFCORE_RSP (event 0xbb). */
struct extra_reg intel_westmere_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0xffff, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x01bb, MSR_OFFCORE_RSP_1, 0xffff, RSP_1),
	INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(0x100b),	/* MEM_INST_RETIRED, load latency */
	EVENT_EXTRA_END
};

/* Sandy Bridge and Ivy Bridge, client parts. */
struct extra_reg intel_snb_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0x3f807f8fffULL, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x01bb, MSR_OFFCORE_RSP_1, 0x3f807f8fffULL, RSP_1),
	INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(0x01cd),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	EVENT_EXTRA_END
};

/* Their server parts, and all of Haswell and Broadwell: wider supplier field. */
struct extra_reg intel_snbep_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0x3fffff8fffULL, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x01bb, MSR_OFFCORE_RSP_1, 0x3fffff8fffULL, RSP_1),
	INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(0x01cd),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	EVENT_EXTRA_END
};

/*
 * Skylake: FRONTEND_RETIRED programs MSR_PEBS_FRONTEND; the valid mask
 * leaves out the bits of the event selector field that fault.
 */
struct extra_reg intel_skl_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0x3fffff8fffULL, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x01bb, MSR_OFFCORE_RSP_1, 0x3fffff8fffULL, RSP_1),
	INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(0x01cd),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	/* FRONTEND_RETIRED */
	INTEL_UEVENT_EXTRA_REG(0x01c6, MSR_PEBS_FRONTEND, 0x7fff17, FE),
	EVENT_EXTRA_END
};

/* Ice Lake. */
struct extra_reg intel_icl_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0x3fffffbfffULL, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x01bb, MSR_OFFCORE_RSP_1, 0x3fffffbfffULL, RSP_1),
	INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(0x01cd),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	/* FRONTEND_RETIRED */
	INTEL_UEVENT_EXTRA_REG(0x01c6, MSR_PEBS_FRONTEND, 0x7fff17, FE),
	EVENT_EXTRA_END
};

/*
 * Sapphire Rapids: OFFCORE_RSP is OCR (0x2a/0x2b); three events share
 * MSR_PEBS_FRONTEND, each with its own field.
 */
struct extra_reg intel_spr_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x012a, MSR_OFFCORE_RSP_0, 0x3fffffffffULL, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x012b, MSR_OFFCORE_RSP_1, 0x3fffffffffULL, RSP_1),
	INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(0x01cd),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	/* FRONTEND_RETIRED */
	INTEL_UEVENT_EXTRA_REG(0x01c6, MSR_PEBS_FRONTEND, 0x7fff1f, FE),
	/* INT_MISC.UNKNOWN_BRANCH_CYCLES */
	INTEL_UEVENT_EXTRA_REG(0x40ad, MSR_PEBS_FRONTEND, 0x7, FE),
	/* UOPS_RETIRED.MS */
	INTEL_UEVENT_EXTRA_REG(0x04c2, MSR_PEBS_FRONTEND, 0x8, FE),
	EVENT_EXTRA_END
};

/* Knights Landing: OFFCORE_RSP_1 is umask 0x02 of the same event. */
struct extra_reg intel_knl_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0x799ffbb6e7ULL, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x02b7, MSR_OFFCORE_RSP_1, 0x399ffbffe7ULL, RSP_1),
	EVENT_EXTRA_END
};

/* Silvermont: OFFCORE_RSP_1 is umask 0x02 of 0xb7 on the Atoms. */
struct extra_reg intel_slm_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0x768005ffffULL, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x02b7, MSR_OFFCORE_RSP_1, 0x368005ffffULL, RSP_1),
	EVENT_EXTRA_END
};

/* Goldmont, Goldmont Plus. */
struct extra_reg intel_glm_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0x760005ffbfULL, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x02b7, MSR_OFFCORE_RSP_1, 0x360005ffbfULL, RSP_1),
	EVENT_EXTRA_END
};

/* Tremont. */
struct extra_reg intel_tnt_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0x800ff0ffffff9fffULL, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x02b7, MSR_OFFCORE_RSP_1, 0xff0ffffff9fffULL, RSP_1),
	EVENT_EXTRA_END
};

/* Gracemont (hybrid Atom cores): load latency on MEM_UOPS_RETIRED. */
struct extra_reg intel_grt_extra_regs[] __read_mostly = {
	INTEL_UEVENT_EXTRA_REG(0x01b7, MSR_OFFCORE_RSP_0, 0x3fffffffffULL, RSP_0),
	INTEL_UEVENT_EXTRA_REG(0x02b7, MSR_OFFCORE_RSP_1, 0x3fffffffffULL, RSP_1),
	INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(0x05d0),	/* MEM_UOPS_RETIRED.LOAD_LATENCY */
	EVENT_EXTRA_END
};
