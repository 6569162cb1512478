/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Book3S PMU framework: state shared by book3s-*.c.
 *
 * The framework drives the "cpu" PMU of Book3S CPUs (PPC970 to POWER10)
 * through one struct power_pmu, the model description a CPU table
 * registers with register_power_pmu().  This header is private to the
 * framework; models see only asm/perf_event_server.h.
 *
 * Locking: struct book3s_cpu is per CPU and touched only by its own CPU
 * with interrupts disabled (local_irq_save), or from the performance
 * monitor interrupt (PMI), which on 64-bit arrives even while interrupts
 * are soft-disabled and is therefore treated like an NMI: every field the
 * PMI reads is stable once the PMU is frozen (book3s_pmu_disable()).
 */
#ifndef _POWERPC_PERF_BOOK3S_H
#define _POWERPC_PERF_BOOK3S_H

#include <linux/perf_event.h>
/* asm/perf_event_server.h comes with linux/perf_event.h (no guard) */
#include <asm/reg.h>

/*
 * 32-bit Book3S has neither MMCRA nor the ISA 2.07 additions: map what the
 * framework touches to harmless values there.  Every use of a register
 * that does not exist is behind a book3s_ppmu->flags test that 32-bit models
 * never set.
 */
#ifdef CONFIG_PPC32
#define MMCR0_FCHV		0
#define MMCR0_PMCjCE		MMCR0_PMCnCE
#define MMCR0_FC56		0
#define MMCR0_PMAO		0
#define MMCR0_EBE		0
#define MMCR0_BHRBA		0
#define MMCR0_PMCC		0
#define MMCR0_PMCC_U6		0
#define MMCR0_PMCCEXT		0
#define SPRN_MMCRA		SPRN_MMCR2
#define SPRN_MMCR3		0
#define SPRN_SIER2		0
#define SPRN_SIER3		0
#define MMCRA_SAMPLE_ENABLE	0
#define MMCRA_BHRB_DISABLE	0
#endif

/* The BHRB of every model we know holds at most 32 entries. */
#define BOOK3S_BHRB_MAX		32

/*
 * Candidates of one event for the constraint solver: the event's own code
 * first, then its alternatives, each with its constraint (mask, value).
 */
struct book3s_candidates {
	int n;
	u64 code[MAX_EVENT_ALTERNATIVES];
	unsigned long mask[MAX_EVENT_ALTERNATIVES];
	unsigned long value[MAX_EVENT_ALTERNATIVES];
};

/* Input and output of one constraint check; pick[i] indexes cand[i]. */
struct book3s_fit {
	struct book3s_candidates cand[MAX_HWEVENTS];
	int pick[MAX_HWEVENTS];
};

/*
 * The sets of events a CPU checked and programmed lately, each as it went
 * onto an empty PMU (book3s-set-memo.c): tasks switched out and in again
 * bring them back unchanged.  n = 0 (the zeroed per-CPU state) is the
 * empty set, which fits.
 */
struct book3s_memo_set {
	int n;
	u64 id[MAX_HWEVENTS];		/* event->id of each, in set order */
	u64 code_in[MAX_HWEVENTS];	/* the codes the check was asked for */
	u64 code_out[MAX_HWEVENTS];	/* and those it chose */
	bool have_mmcr;			/* mmcr and pmc_of are of code_out */
	struct mmcr_regs mmcr;
	unsigned int pmc_of[MAX_HWEVENTS];
};

/* Enough for a few tasks that take turns on a CPU. */
#define BOOK3S_MEMO_SETS	4

struct book3s_memo {
	struct book3s_memo_set set[BOOK3S_MEMO_SETS];
	unsigned int next;		/* the entry a new set replaces */
};

struct book3s_cpu {
	/* Events on this CPU's counters, in the order they were added. */
	struct perf_event *event[MAX_HWEVENTS];
	u64 code[MAX_HWEVENTS];			/* code chosen for each */
	unsigned int altflags[MAX_HWEVENTS];	/* PPMU_LIMITED_PMC_* etc */
	int n_events;
	int n_new;		/* added since the MMCRs were last computed */
	int n_txn_base;		/* n_events when the transaction began */
	unsigned int txn_flags;

	bool frozen;		/* book3s_pmu_disable() froze the counters */
	bool pmcs_enabled;	/* ppc_enable_pmcs() done on this CPU */
	struct mmcr_regs mmcr;	/* programmed configuration */

	/* POWER5+/6/7: PMC5/6 that cannot be frozen or interrupt. */
	struct perf_event *limited[MAX_LIMITED_HWCOUNTERS];
	u8 limited_pmc[MAX_LIMITED_HWCOUNTERS];
	int n_limited;

	/* PMC values read by the PMI, for PERF_SAMPLE_REGS_INTR. */
	unsigned long pmc_snapshot[MAX_HWEVENTS];

	/* Branch history (book3s-bhrb.c); the filter all users share. */
	unsigned int bhrb_users;
	u64 bhrb_filter;
	void *bhrb_owner_ctx;
	struct perf_branch_stack bhrb_stack;
	struct perf_branch_entry bhrb_entries[BOOK3S_BHRB_MAX];

	/* Scratch of the constraint solver (too big for the stack). */
	struct book3s_fit fit;
	struct book3s_memo memo;
	/* the memo's entry of the set as it stands, if it went on at once */
	struct book3s_memo_set *memo_set;
};

DECLARE_PER_CPU(struct book3s_cpu, book3s_cpu);

extern struct power_pmu *book3s_ppmu;	/* the registered model, or NULL */
extern unsigned long book3s_freeze_kernel;

/* book3s-constraints.c: pure functions, no hardware access. */
int book3s_fit_solve(const struct power_pmu *pmu, struct book3s_fit *fit,
		     int n);
int book3s_fit_events(const struct power_pmu *pmu, struct book3s_fit *fit,
		      u64 codes[], const unsigned int altflags[],
		      struct perf_event *events[], int n);
bool book3s_excludes_conflict(const struct power_pmu *pmu,
			      struct perf_event *events[],
			      unsigned int altflags[], int n);
bool book3s_branch_filters_conflict(struct perf_event *events[], int n);

/* book3s-set-memo.c: pure functions, no hardware access. */
struct book3s_memo_set *book3s_memo_find(struct book3s_memo *memo,
					 struct perf_event *events[], u64 codes[], int n);
struct book3s_memo_set *book3s_memo_save(struct book3s_memo *memo,
					 struct perf_event *events[], const u64 code_in[],
					 const u64 code_out[], int n);
bool book3s_memo_get_mmcr(const struct book3s_memo_set *set, struct mmcr_regs *mmcr,
			  unsigned int pmc_of[]);
void book3s_memo_put_mmcr(struct book3s_memo_set *set, const struct mmcr_regs *mmcr,
			  const unsigned int pmc_of[]);

/* book3s-counters.c */
unsigned long book3s_read_pmc(int pmc);
void book3s_write_pmc(int pmc, unsigned long val);
u64 book3s_delta(u64 prev, u64 now);
void book3s_update_count(struct perf_event *event);
void book3s_write_mmcr0(struct book3s_cpu *cpuhw, unsigned long mmcr0);
void book3s_limited_freeze(struct book3s_cpu *cpuhw);

/* book3s-schedule.c: the struct pmu callbacks that move events. */
void book3s_pmu_disable(struct pmu *pmu);
void book3s_pmu_enable(struct pmu *pmu);
int book3s_add(struct perf_event *event, int ef_flags);
void book3s_del(struct perf_event *event, int ef_flags);
void book3s_start(struct perf_event *event, int ef_flags);
void book3s_stop(struct perf_event *event, int ef_flags);
void book3s_start_txn(struct pmu *pmu, unsigned int txn_flags);
void book3s_cancel_txn(struct pmu *pmu);
int book3s_commit_txn(struct pmu *pmu);

static inline bool book3s_limited_pmc(int pmc)
{
	return (book3s_ppmu->flags & PPMU_LIMITED_PMC5_6) && (pmc == 5 || pmc == 6);
}

/* book3s-pmi.c */
void book3s_pmi(struct pt_regs *regs);

/* book3s-bhrb.c: branch stacks (ISA 2.07+, so 64-bit only) */
#ifdef CONFIG_PPC64
void book3s_bhrb_get(struct perf_event *event);
void book3s_bhrb_put(struct perf_event *event);
void book3s_bhrb_read(struct perf_event *event, struct book3s_cpu *cpuhw);
int book3s_bhrb_decode(const u64 *raw, int nr, bool hide_kernel,
		       struct perf_branch_entry *out, int max);
void book3s_sched_task(struct perf_event_context *ctx, bool sched_in);
#else
static inline void book3s_bhrb_get(struct perf_event *event) { }
static inline void book3s_bhrb_put(struct perf_event *event) { }
static inline void book3s_bhrb_read(struct perf_event *event,
				    struct book3s_cpu *cpuhw) { }
#define book3s_sched_task NULL
#endif

/* book3s-ebb.c: event-based branches (ISA 2.07), user-owned counters. */
#ifdef CONFIG_PPC64
/* Bit 63 of attr.config asks for EBB, where the ISA has it (hot path). */
static inline bool book3s_is_ebb(struct perf_event *event)
{
	return (book3s_ppmu->flags & PPMU_ARCH_207S) &&
	       ((event->attr.config >> PERF_EVENT_CONFIG_EBB_SHIFT) & 1);
}

int book3s_ebb_check(struct perf_event *event);
void book3s_ebb_add(struct perf_event *event);
void book3s_ebb_save(unsigned long mmcr0);
unsigned long book3s_ebb_restore(bool ebb, struct book3s_cpu *cpuhw);
void book3s_pmao_workaround(bool ebb);
#else
static inline bool book3s_is_ebb(struct perf_event *event) { return false; }
static inline int book3s_ebb_check(struct perf_event *event) { return 0; }
static inline void book3s_ebb_add(struct perf_event *event) { }
static inline void book3s_ebb_save(unsigned long mmcr0) { }
static inline unsigned long book3s_ebb_restore(bool ebb,
					       struct book3s_cpu *cpuhw)
{
	return cpuhw->mmcr.mmcr0;
}

static inline void book3s_pmao_workaround(bool ebb) { }
#endif

/* book3s-sysfs.c */
extern const struct attribute_group *book3s_caps_groups[];

#endif /* _POWERPC_PERF_BOOK3S_H */
