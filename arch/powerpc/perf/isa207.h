/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMU model layer of the ISA 2.07 / 3.0 / 3.1 Book3S processors (POWER8,
 * POWER9, POWER10 and the architected "generic compat" PMU).
 *
 * One struct isa207_model describes a processor: its ISA level (which
 * fixes the raw event code layout and the MMCR field positions), the
 * tables it exposes (events, formats, generic and cache events,
 * alternatives, blacklist, BHRB filters) and a few per-model switches.
 * isa207-constraint.c, isa207-mmcr.c and isa207-sample.c are pure
 * functions of a model and their arguments (KUnit: isa207_test.c);
 * isa207-sample.c also binds the one registered model to the
 * struct power_pmu callbacks.
 *
 * Locking: none.  Models are set up once at boot (__init) before
 * register_power_pmu() and are read-only afterwards.
 */
#ifndef _POWERPC_PERF_ISA207_H
#define _POWERPC_PERF_ISA207_H

#include <linux/bits.h>
#include <linux/device.h>
#include <linux/perf_event.h>	/* struct power_pmu, via asm/perf_event.h */

/*
 * Raw event code (attr.config), shared by all three ISA levels.  A field
 * marked with the levels that define it is zero (invalid) elsewhere.
 *
 *  0- 7 PMCxSEL            8 mark               9 radix scope (3.1)
 * 10-11 combine (3.0+; 2.07 uses bit 11 only)  12-15 unit
 * 16-19 PMC (1-based, 0 = any of PMC1-4)       20-23 cache select
 *       (3.1: 20-21, with 22-23 the SDAR mode)
 * 24-28 sampling mode/eligibility (marked events)
 * 29-31 threshold select  32-39 threshold control (stop 32-35, start 36-39)
 * 40-49 threshold compare (2.07, 3.0)     50-51 SDAR mode (3.0)
 * 40-44 L2/L3 event select (3.1)          45-59 MMCR3 source fields (3.1)
 * 60-61 BHRB IFM, 62 wants BHRB, 63 EBB (bits defined by Linux)
 */
#define ISA207_EV_PSEL(e)	((e) & 0xffULL)
#define ISA207_EV_MARK		BIT_ULL(8)
#define ISA207_EV_RADIX(e)	(((e) >> 9) & 1)
#define ISA207_EV_UNIT(e)	(((e) >> 12) & 0xf)
#define ISA207_EV_PMC(e)	((unsigned int)(((e) >> 16) & 0xf))
#define ISA207_EV_CACHE(e)	(((e) >> 20) & 0xf)
#define ISA207_EV_L1		BIT_ULL(22)
#define ISA207_EV_SAMPLE(e)	(((e) >> 24) & 0x1f)
#define ISA207_EV_THR_SEL(e)	(((e) >> 29) & 0x7)
#define ISA207_EV_THR_CTL(e)	(((e) >> 32) & 0xff)
#define ISA207_EV_THR_CMP(e)	(((e) >> 40) & 0x3ff)
#define ISA207_EV_THR_ALL(e)	(((e) >> 29) & 0x1fffff)
#define ISA207_EV_L2L3(e)	(((e) >> 40) & 0x1f)
#define ISA207_EV_MMCR3(e)	(((e) >> 45) & 0x7fff)
#define ISA207_EV_IFM(e)	(((e) >> 60) & 3)
#define ISA207_EV_BHRB		BIT_ULL(62)
#define ISA207_EV_EBB(e)	(((e) >> PERF_EVENT_CONFIG_EBB_SHIFT) & 1)
#define ISA207_EV_LINUX_BITS	GENMASK_ULL(63, 60)

/* Valid bits of a raw code at each ISA level. */
#define ISA207_VALID_V207	(ISA207_EV_LINUX_BITS | GENMASK_ULL(49, 11) | \
				 GENMASK_ULL(8, 0))
#define ISA207_VALID_V300	(ISA207_EV_LINUX_BITS | GENMASK_ULL(51, 10) | \
				 GENMASK_ULL(8, 0))
#define ISA207_VALID_V31	(ISA207_EV_LINUX_BITS | GENMASK_ULL(59, 0))

/*
 * Sampling mode/eligibility values the ISA 3.0 and 3.1 PMU user guides
 * reserve: random sampling mode 0b11, and seven further combinations.
 */
#define ISA207_SAMPLES_MODE3	0x88888888U
#define ISA207_RESERVED_SAMPLES	(ISA207_SAMPLES_MODE3 | BIT(0x5) | BIT(0x9) | \
				 BIT(0xd) | BIT(0x19) | BIT(0x1a) |	\
				 BIT(0x1d) | BIT(0x1e))

/* The two fixed-counter codes: PMC5 instructions, PMC6 cycles. */
#define ISA207_PMC5_INST	0x500faULL
#define ISA207_PMC6_CYC		0x600f4ULL
/* Their PMC1-4 counterparts (PM_INST_CMPL / PM_CYC on any PMC). */
#define ISA207_ANY_INST		0x2ULL
#define ISA207_ANY_CYC		0x1eULL

/*
 * Constraint (mask, value) words built by isa207_constraint(), see the
 * field kinds in asm/perf_event_server.h.
 *
 *  0-11 one 2-bit add field per PMC1..6: the low bit counts, the high
 *       bit overflows when two events want the same PMC
 * 12-15 add field: events needing one of PMC1-4 (4 at most, biased by 3)
 * 16-20 sampling mode of marked events        21 radix scope (3.1)
 * 22-23 L1 I/D cache qualifier    24 EBB     25-26 BHRB IFM
 * 32-52 threshold fields (2.07, 3.0)
 * 32-42 threshold select + control (3.1)   43-53 threshold compare (3.1)
 * 54    "an L2/L3 event is on PMC4" (group constraint, 3.0 and 3.1 models)
 * 55-62 L2/L3 bus event selector (3.0); 55-59 L2/L3 select (3.1);
 * 56-63 fabric match value (2.07)
 */
#define ISA207_CN_PMC_VAL(pmc)	BIT(2 * ((pmc) - 1))
#define ISA207_CN_PMC_MASK(pmc)	(2UL << (2 * ((pmc) - 1)))
#define ISA207_CN_NC_VAL	BIT(12)
#define ISA207_CN_NC_MASK	(8UL << 12)
#define ISA207_CN_SAMPLE(v)	(((unsigned long)(v) & 0x1f) << 16)
#define ISA207_CN_RADIX(v)	(((unsigned long)(v) & 1) << 21)
#define ISA207_CN_L1Q(v)	(((unsigned long)(v) & 3) << 22)
#define ISA207_CN_EBB(v)	(((unsigned long)(v) & 1) << 24)
#define ISA207_CN_IFM(v)	(((unsigned long)(v) & 3) << 25)
#define ISA207_CN_THR(v)	(((unsigned long)(v) & 0x1fffff) << 32)
#define ISA207_CN_THR31(v)	(((unsigned long)(v) & 0x7ff) << 32)
#define ISA207_CN_CMP31(v)	(((unsigned long)(v) & 0x7ff) << 43)
#define ISA207_CN_L2L3_PMC4	BIT(54)
#define ISA207_CN_CACHE(v)	(((unsigned long)(v) & 0xff) << 55)
#define ISA207_CN_L2L3_31(v)	(((unsigned long)(v) & 0x1f) << 55)
#define ISA207_CN_FAB(v)	(((unsigned long)(v) & 0xff) << 56)

#define ISA207_ADD_FIELDS	(ISA207_CN_PMC_VAL(1) | ISA207_CN_PMC_VAL(2) | \
				 ISA207_CN_PMC_VAL(3) | ISA207_CN_PMC_VAL(4) | \
				 ISA207_CN_PMC_VAL(5) | ISA207_CN_PMC_VAL(6) | \
				 ISA207_CN_NC_VAL)
#define ISA207_TEST_ADDER	(3UL << 12)

/*
 * MMCR fields written by isa207_mmcr(), as shifts from bit 0 (the ISA
 * numbers bits from the left: IBM bit b of a 64-bit SPR is 63 - b).
 */
#define ISA207_MMCR1_UNIT(pmc)		(60 - 4 * ((pmc) - 1))
#define ISA207_MMCR1_PSEL(pmc)		(24 - 8 * ((pmc) - 1))
#define ISA207_MMCR1_COMB207(pmc)	(35 - ((pmc) - 1))
#define ISA207_MMCR1_COMB300(pmc)	(38 - 2 * ((pmc) - 1))
#define ISA207_MMCR1_FAB		36
#define ISA207_MMCR1_RADIX		45
#define ISA207_MMCR1_L1Q		46
#define ISA207_MMCRA_SMODE		1
#define ISA207_MMCRA_SELIG		4
#define ISA207_MMCRA_THR_CTL		8
#define ISA207_MMCRA_THR_SEL		16
#define ISA207_MMCRA_CMP207		32
#define ISA207_MMCRA_CMP300		45
#define ISA207_MMCRA_IFM		30
#define ISA207_MMCRA_SDAR		42
#define ISA207_MMCRA_SDAR_ALL		(3ULL << ISA207_MMCRA_SDAR)
#define ISA207_SDAR_TLB			1ULL
#define ISA207_SDAR_DCACHE		2ULL
#define ISA207_MMCR2_PMC_BASE(pmc)	(63 - 9 * ((pmc) - 1))
#define ISA207_MMCR2_FCS(pmc)		BIT_ULL(ISA207_MMCR2_PMC_BASE(pmc))
#define ISA207_MMCR2_FCP(pmc)		BIT_ULL(ISA207_MMCR2_PMC_BASE(pmc) - 1)
#define ISA207_MMCR2_FCWAIT(pmc)	BIT_ULL(ISA207_MMCR2_PMC_BASE(pmc) - 5)
#define ISA207_MMCR2_FCH(pmc)		BIT_ULL(ISA207_MMCR2_PMC_BASE(pmc) - 6)
#define ISA207_MMCR2_L2L3		3
#define ISA207_MMCR3_PMC(pmc)		(49 - 15 * ((pmc) - 1))
#define ISA207_BHRB_IFM_MASK		(3UL << ISA207_MMCRA_IFM)

/* Largest threshold compare value ISA 3.1 can express (mantissa 0xff, exp 5). */
#define ISA207_CMP31_MAX		261120ULL

enum isa207_level {
	ISA207_V207,	/* POWER8 */
	ISA207_V300,	/* POWER9 */
	ISA207_V31,	/* POWER10 */
};

/* One row of a BHRB filter table: first rule whose bit is requested wins. */
struct isa207_bhrb_rule {
	u64 branch_type;	/* PERF_SAMPLE_BRANCH_* bit */
	u64 filter;		/* MMCRA IFM bits, or ISA207_BHRB_REJECT */
};

#define ISA207_BHRB_REJECT	(~0ULL)
/* Cache event table entry meaning "makes no sense" (0 = not counted). */
#define ISA207_CACHE_NONSENSE	(~0ULL)

typedef u64 isa207_cache_table[PERF_COUNT_HW_CACHE_MAX]
			      [PERF_COUNT_HW_CACHE_OP_MAX]
			      [PERF_COUNT_HW_CACHE_RESULT_MAX];

/* Read, write and prefetch (access, miss) of one cache, in table order. */
#define ISA207_CACHE_OPS(ra, rm, wa, wm, pa, pm)	\
	{ { (ra), (rm) }, { (wa), (wm) }, { (pa), (pm) } }
#define ISA207_CACHE_NONE_OPS				\
	ISA207_CACHE_OPS(ISA207_CACHE_NONSENSE, ISA207_CACHE_NONSENSE,	\
			 ISA207_CACHE_NONSENSE, ISA207_CACHE_NONSENSE,	\
			 ISA207_CACHE_NONSENSE, ISA207_CACHE_NONSENSE)

/* sysfs events/ entry NAME with code CODE, shown by the framework. */
#define ISA207_EVENT(_name, _code)					\
	{ .attr = { .attr = { .name = (_name), .mode = 0444 },		\
		    .show = power_events_sysfs_show },			\
	  .id = (_code) }

/* sysfs format/ entry NAME describing SPEC ("config:0-7"). */
#define ISA207_FORMAT(_name, _spec)					\
	{ .attr = { .attr = { .name = (_name), .mode = 0444 },		\
		    .show = isa207_format_show },			\
	  .var = (void *)(_spec) }

struct isa207_model {
	const char *name;
	enum isa207_level isa;
	u32 flags;			/* PPMU_* */
	int capabilities;		/* PERF_PMU_CAP_* */
	int max_alternatives;
	int bhrb_nr;
	bool c56run;			/* always set MMCR0[C56RUN] */
	bool sier_decode;		/* get_mem_data_src / get_mem_weight */
	bool l2l3_pmc4_group;		/* L2/L3 events need one on PMC4 */
	u32 reserved_samples;		/* bit n: sample field n is reserved */
	u64 ext_regs_mask;		/* PERF_REG_EXTENDED_MASK, 0: leave */

	const u32 (*alts)[2];		/* pairs of codes counting the same */
	int n_alts;
	const struct isa207_bhrb_rule *bhrb_rules;
	int n_bhrb_rules;

	int *generic_events;
	int n_generic;
	isa207_cache_table *cache_events;
	int *blacklist;
	int n_blacklist;

	struct dev_ext_attribute *formats;
	int n_formats;
	struct attribute **format_ptrs;	/* n_formats + 1 slots */
	/*
	 * events/ holds the generic and cache events of the tables above,
	 * by their perf names (isa207-pmu.c), and these besides.
	 */
	struct perf_pmu_events_attr *extra_events;
	int n_extra_events;
};

/* Model fields for the table PREFIX_formats[] and PREFIX_format_ptrs[]. */
#define ISA207_MODEL_FORMATS(_prefix)				\
	.formats = _prefix##_formats,				\
	.n_formats = ARRAY_SIZE(_prefix##_formats),		\
	.format_ptrs = _prefix##_format_ptrs

/* Model fields for the events/ entries PREFIX_extra_events[]. */
#define ISA207_MODEL_EXTRA_EVENTS(_prefix)			\
	.extra_events = _prefix##_extra_events,			\
	.n_extra_events = ARRAY_SIZE(_prefix##_extra_events)

/* isa207-constraint.c */
bool isa207_event_valid(const struct isa207_model *m, u64 event);
bool isa207_fab_match(u64 event);
int isa207_constraint(const struct isa207_model *m, u64 event, u64 config1,
		      unsigned long *maskp, unsigned long *valp);
int isa207_alternatives(const struct isa207_model *m, u64 event,
			unsigned int flags, u64 alt[]);
int isa207_check_config(const struct isa207_model *m, u64 config);
s64 isa207_cmp31_encode(u64 value);

/* isa207-mmcr.c */
int isa207_mmcr(const struct isa207_model *m, bool hv_mode, u64 event[],
		int n_ev, unsigned int hwc[], struct mmcr_regs *mmcr,
		struct perf_event *pevents[], u32 flags);
void isa207_disable_pmc(unsigned int pmc, struct mmcr_regs *mmcr);

/* isa207-sample.c */
u64 isa207_data_src(const struct isa207_model *m, u64 sier, u64 mmcra);
void isa207_weight(const struct isa207_model *m, u64 *weight, u64 type,
		   u64 mmcra, u64 sier, u64 sier2);
u64 isa207_bhrb_filter(const struct isa207_model *m, u64 branch_type);
ssize_t isa207_format_show(struct device *dev, struct device_attribute *attr,
			   char *page);
int isa207_register(const struct isa207_model *m);

/* Model descriptions, for KUnit (the init functions are in internal.h). */
extern struct isa207_model power8_model;
extern struct isa207_model power9_model;
extern struct isa207_model power10_model;
extern struct isa207_model generic_compat_v300_model;
extern struct isa207_model generic_compat_v31_model;

#endif /* _POWERPC_PERF_ISA207_H */
