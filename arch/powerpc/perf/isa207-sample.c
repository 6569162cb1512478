// SPDX-License-Identifier: GPL-2.0
/*
 * ISA 2.07 / 3.0 / 3.1 sample decoding: the data source (perf_mem_data_src)
 * and latency weight of a marked sample from SIER, SIER2 and MMCRA, and
 * the BHRB filter of a branch_sample_type request.
 *
 * Locking: none.  The decoders are pure functions of the register values
 * their callers read on the CPU that took the sample.
 */
#include <linux/perf_event.h>

#include "isa207.h"

/* SIER fields (shifts from bit 0) */
#define SIER_TYPE(s)		(((s) >> 15) & 7)	/* 1 load, 2 store, 7 larx/stcx */
#define SIER_LDST(s)		(((s) >> 1) & 7)	/* where the data came from */
#define SIER_SRC(s)		(((s) >> 53) & 7)	/* finer source of LDST 4-6 */
#define MMCRA_ELIG(r)		(((r) >> ISA207_MMCRA_SELIG) & 7)
#define MMCRA_THR_MANT(r)	(((r) >> 19) & 0xff)
#define MMCRA_THR_EXP(r)	(((r) >> 27) & 7)
#define SIER2_FINISH_CYC(s)	(((s) >> 26) & 0x7ff)
#define SIER2_DISPATCH_CYC(s)	(((s) >> 50) & 0x7ff)

#define MS(a, b)	PERF_MEM_S(a, b)
#define AT(lvl)		(MS(LVL, HIT) | MS(LVL, lvl))
#define HIT_L1		(AT(L1) | MS(LVLNUM, L1))
#define HIT_L2		(AT(L2) | MS(LVLNUM, L2))
#define HIT_L3		(AT(L3) | MS(LVLNUM, L3))
#define REMOTE_		MS(REMOTE, REMOTE)
#define SHIT		MS(SNOOP, HIT)
#define SHITM		MS(SNOOP, HITM)

/* Sources that SIER[DATA_SRC] does not refine, by SIER[LDST]. */
static const u64 src_flat[8] = {
	[0] = PERF_MEM_NA,
	[1] = HIT_L1 | SHIT,
	[2] = HIT_L2 | SHIT,
	[3] = HIT_L3 | SHIT,
	[7] = MS(LVL, MISS) | MS(LVL, L1),
};

/* ISA 2.07/3.0 SIER[LDST] 4-6, by SIER[DATA_SRC]. */
#define RMT_L2		(HIT_L2 | REMOTE_ | MS(HOPS, 0))
#define RMT_L3		(HIT_L3 | REMOTE_ | MS(HOPS, 0))
#define P8_CCE2		AT(REM_CCE2)
static const u64 src_v300[3][8] = {
	[0] = { AT(LOC_RAM) | SHIT, AT(LOC_RAM) | SHIT, AT(REM_RAM1) | SHIT,
		AT(REM_RAM2) | SHIT, AT(REM_RAM2) | SHIT, AT(REM_RAM2) | SHIT,
		AT(REM_RAM2) | SHIT, AT(REM_RAM2) | SHIT },
	[1] = { RMT_L2 | SHIT, RMT_L2 | SHITM, RMT_L3 | SHIT,
		RMT_L3 | SHITM, RMT_L3 | SHIT, RMT_L3 | SHITM,
		PERF_MEM_NA, PERF_MEM_NA },
	[2] = { P8_CCE2 | SHIT, P8_CCE2 | SHITM, P8_CCE2 | SHIT,
		P8_CCE2 | SHITM, P8_CCE2, P8_CCE2, P8_CCE2, P8_CCE2 },
};

/* ISA 3.1 refines memory (PMEM, hops) and remote cache sources. */
#define P10_RAM(l)	(AT(l) | MS(LVLNUM, RAM) | SHIT)
#define P10_PMEM	(MS(LVL, HIT) | MS(LVLNUM, PMEM) | SHIT)
#define P10_CCE(l)	(AT(l) | MS(LVLNUM, ANY_CACHE) | REMOTE_)
static const u64 src_v31[3][8] = {
	[0] = { SHIT, P10_RAM(LOC_RAM), P10_PMEM, P10_PMEM,
		P10_RAM(REM_RAM1) | REMOTE_ | MS(HOPS, 2), P10_PMEM | REMOTE_,
		P10_RAM(REM_RAM2) | REMOTE_ | MS(HOPS, 3), P10_PMEM | REMOTE_ },
	[1] = { RMT_L2 | SHIT, RMT_L2 | SHITM, RMT_L3 | SHIT,
		RMT_L3 | SHITM, RMT_L2 | SHIT, RMT_L2 | SHITM,
		RMT_L3 | SHIT, RMT_L3 | SHITM },
	[2] = { P10_CCE(REM_CCE1) | SHIT | MS(HOPS, 2),
		P10_CCE(REM_CCE1) | SHITM | MS(HOPS, 2),
		P10_CCE(REM_CCE2) | SHIT | MS(HOPS, 3),
		P10_CCE(REM_CCE2) | SHITM | MS(HOPS, 3),
		PERF_MEM_NA, PERF_MEM_NA, PERF_MEM_NA, PERF_MEM_NA },
};

/**
 * isa207_data_src - perf_mem_data_src value of a sample
 * @m: the model (its ISA level)
 * @sier: SIER of the sample
 * @mmcra: MMCRA (eligibility of the larx/stcx sample type, ISA 3.1)
 *
 * Return: the encoded data source, or 0 for samples that are not loads
 * or stores.
 */
u64 isa207_data_src(const struct isa207_model *m, u64 sier, u64 mmcra)
{
	bool v31 = m->isa == ISA207_V31;
	u64 type = SIER_TYPE(sier);
	u64 ldst = SIER_LDST(sier);
	u64 src;

	if (type != 1 && type != 2 && !(type == 7 && v31))
		return 0;

	if (ldst < 4 || ldst == 7)
		src = src_flat[ldst];
	else if (v31)
		src = src_v31[ldst - 4][SIER_SRC(sier)];
	else
		src = src_v300[ldst - 4][SIER_SRC(sier)];

	if (type == 1)
		return src | MS(OP, LOAD);
	if (type == 2)
		return src | MS(OP, STORE);
	/* larx/stcx: tell them apart by the sampling eligibility */
	switch (MMCRA_ELIG(mmcra)) {
	case 5:
		return src | MS(OP, LOAD);
	case 7:
		return src | MS(OP, STORE);
	default:
		return src | MS(OP, NA);
	}
}

/**
 * isa207_weight - sample weight from the threshold counter
 * @m: the model (its ISA level)
 * @weight: receives the weight (PERF_SAMPLE_WEIGHT: all 64 bits;
 *	PERF_SAMPLE_WEIGHT_STRUCT: var1_dw, and on ISA 3.1 var2_w/var3_w)
 * @type: the event's sample_type
 * @mmcra: MMCRA (threshold counter mantissa and exponent)
 * @sier: SIER (sample type)
 * @sier2: SIER2 (ISA 3.1 finish and dispatch cycles)
 */
void isa207_weight(const struct isa207_model *m, u64 *weight, u64 type,
		   u64 mmcra, u64 sier, u64 sier2)
{
	union perf_sample_weight *w = (union perf_sample_weight *)weight;
	bool v31 = m->isa == ISA207_V31;
	u64 mant = MMCRA_THR_MANT(mmcra);
	u64 stype = SIER_TYPE(sier);
	u64 lat = 0;

	if (!v31)
		mant &= 0x7f;
	if (stype && !(stype == 7 && !v31))
		lat = mant << (2 * MMCRA_THR_EXP(mmcra));

	if (type & PERF_SAMPLE_WEIGHT) {
		w->full = lat;
		return;
	}
	w->var1_dw = (u32)lat;
	if (v31) {
		w->var2_w = SIER2_FINISH_CYC(sier2);
		w->var3_w = SIER2_DISPATCH_CYC(sier2);
	}
}

/**
 * isa207_bhrb_filter - MMCRA IFM bits for a branch_sample_type request
 * @m: the model (its ordered rule table)
 * @branch_type: attr.branch_sample_type
 *
 * The privilege bits are ignored: BHRB shares the privilege filtering of
 * the counter it is sampled with.
 *
 * Return: IFM bits, or ISA207_BHRB_REJECT if the hardware cannot filter so.
 */
u64 isa207_bhrb_filter(const struct isa207_model *m, u64 branch_type)
{
	int i;

	for (i = 0; i < m->n_bhrb_rules; i++)
		if (branch_type & m->bhrb_rules[i].branch_type)
			return m->bhrb_rules[i].filter;
	return ISA207_BHRB_REJECT;
}
