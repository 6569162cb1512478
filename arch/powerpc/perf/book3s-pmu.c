// SPDX-License-Identifier: GPL-2.0
/*
 * Book3S PMU framework: the "cpu" PMU and its events.
 *
 * At boot, init_ppc64_pmu() asks each CPU model (internal.h) in turn
 * whether it describes this CPU; the one that does calls
 * register_power_pmu() and becomes book3s_ppmu, and we register the "cpu"
 * PMU (type PERF_TYPE_RAW) with its sysfs groups.  event_init() turns
 * attr.type/config into a model event code, checks it against the model
 * and against the rest of its group, and reserves the PMU hardware (the
 * performance monitor interrupt) while any event exists.
 *
 * Locking: book3s_ppmu is written once at boot.  pmc_reserve_lock
 * serialises taking and releasing the interrupt; everything else is per
 * CPU (book3s.h).
 */
#include <linux/cpuhotplug.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <asm/firmware.h>
#include <asm/pmc.h>
#include <asm/reg.h>
#include "book3s.h"
#include "internal.h"

DEFINE_PER_CPU(struct book3s_cpu, book3s_cpu);
struct power_pmu *book3s_ppmu;

/*
 * Freeze bit for exclude_kernel before ISA 2.07: FCS (supervisor), or
 * FCHV when the kernel itself runs with MSR[HV] set.
 */
unsigned long book3s_freeze_kernel = MMCR0_FCS;

/* asm/perf_event.h, for perf_regs: does the model sample into SIER? */
bool is_sier_available(void)
{
	return book3s_ppmu && (book3s_ppmu->flags & PPMU_HAS_SIER);
}

/* asm/perf_event.h: PMC idx (0 = PMC1) as the current PMI read it. */
unsigned long get_pmcs_ext_regs(int idx)
{
	if (idx < 0 || idx >= MAX_HWEVENTS)
		return 0;
	return this_cpu_ptr(&book3s_cpu)->pmc_snapshot[idx];
}

/* Hardware events exist: the PMI is ours (shared with oprofile-likes). */
static atomic_t book3s_users;
static DEFINE_MUTEX(pmc_reserve_lock);

static void book3s_event_destroy(struct perf_event *event)
{
	if (atomic_add_unless(&book3s_users, -1, 1))
		return;
	mutex_lock(&pmc_reserve_lock);
	if (atomic_dec_return(&book3s_users) == 0)
		release_pmc_hardware();
	mutex_unlock(&pmc_reserve_lock);
}

static int book3s_reserve(void)
{
	int err = 0;

	if (atomic_inc_not_zero(&book3s_users))
		return 0;
	mutex_lock(&pmc_reserve_lock);
	if (atomic_read(&book3s_users) == 0 && reserve_pmc_hardware(book3s_pmi))
		err = -EBUSY;
	else
		atomic_inc(&book3s_users);
	mutex_unlock(&pmc_reserve_lock);
	return err;
}

static bool book3s_blocked_code(u64 code)
{
	int i;

	for (i = 0; i < book3s_ppmu->n_blacklist_ev; i++)
		if (book3s_ppmu->blacklist_ev[i] == code)
			return true;
	return false;
}

/* PERF_TYPE_HW_CACHE config: type | op << 8 | result << 16. */
static int book3s_cache_code(u64 config, u64 *code)
{
	unsigned int type = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;
	u64 c;

	if (!book3s_ppmu->cache_events)
		return -EINVAL;
	if (type >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	c = (*book3s_ppmu->cache_events)[type][op][result];
	if (c == 0)
		return -EOPNOTSUPP;	/* the model has no such event */
	if (c == (u64)-1)
		return -EINVAL;		/* combination meaningless */
	*code = c;
	return 0;
}

/* The model event code an attr asks for. */
static int book3s_event_code(struct perf_event *event, u64 *code)
{
	u64 config = event->attr.config;
	int err;

	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		if (config >= book3s_ppmu->n_generic ||
		    !book3s_ppmu->generic_events[config])
			return -EOPNOTSUPP;
		*code = book3s_ppmu->generic_events[config];
		break;
	case PERF_TYPE_HW_CACHE:
		err = book3s_cache_code(config, code);
		if (err)
			return err;
		break;
	case PERF_TYPE_RAW:
		*code = config;
		break;
	default:
		return -ENOENT;
	}
	return book3s_blocked_code(*code) ? -EINVAL : 0;
}

/*
 * POWER5+/6/7: PMC5/6 count only run instructions/cycles, cannot be
 * frozen, excluded or interrupted.  An event may use them only if it
 * does none of that; an event that is a PMC5/6 event but cannot, moves
 * to an equivalent code on a normal counter.
 */
static int book3s_limited_choice(struct perf_event *event, u64 *code,
				 unsigned int *altflags)
{
	struct power_pmu *pmu = book3s_ppmu;
	u64 alt[MAX_EVENT_ALTERNATIVES];
	bool can_limit;

	if (!(pmu->flags & PPMU_LIMITED_PMC5_6))
		return 0;

	can_limit = !event->attr.exclude_user && !event->attr.exclude_kernel &&
		    !event->attr.exclude_hv && !event->attr.sample_period;
	if (can_limit && !pmu->limited_pmc_event(*code))
		can_limit = pmu->get_alternatives &&
			    pmu->get_alternatives(*code, *altflags |
						  PPMU_LIMITED_PMC_OK |
						  PPMU_LIMITED_PMC_REQD,
						  alt) > 0;
	if (can_limit) {
		*altflags |= PPMU_LIMITED_PMC_OK;
		return 0;
	}
	if (!pmu->limited_pmc_event(*code))
		return 0;
	if (!pmu->get_alternatives ||
	    pmu->get_alternatives(*code, *altflags & ~(PPMU_LIMITED_PMC_OK |
						       PPMU_LIMITED_PMC_REQD),
				  alt) <= 0)
		return -EINVAL;
	*code = alt[0];
	return *code ? 0 : -EINVAL;
}

/* The branch stack request, checked as 6.1 does (errno EOPNOTSUPP). */
static int book3s_branch_check(struct perf_event *event)
{
	u64 type = event->attr.branch_sample_type;

	/* one filter at a time; the privilege bits the core adds are free */
	if (hweight64(type & ~PERF_SAMPLE_BRANCH_PLM_ALL) > 1)
		return -EOPNOTSUPP;
	if (!book3s_ppmu->bhrb_filter_map ||
	    book3s_ppmu->bhrb_filter_map(type) == (u64)-1)
		return -EOPNOTSUPP;
	return 0;
}

/* An event with its group, as the constraint check sees them. */
struct book3s_set {
	struct perf_event *event[MAX_HWEVENTS];
	u64 code[MAX_HWEVENTS];
	unsigned int altflags[MAX_HWEVENTS];
	int n;
};

static bool book3s_set_add(struct book3s_set *set, struct perf_event *event,
			   int room)
{
	if (set->n >= room)
		return false;
	set->event[set->n] = event;
	set->code[set->n] = event->hw.config;
	set->altflags[set->n] = event->hw.event_base;
	set->n++;
	return true;
}

/* The leader and its enabled siblings that are on this PMU already. */
static bool book3s_collect_group(struct perf_event *leader, int room,
				 struct book3s_set *set)
{
	struct perf_event *sib;

	if (leader->pmu->task_ctx_nr == perf_hw_context &&
	    !book3s_set_add(set, leader, room))
		return false;
	for_each_sibling_event(sib, leader) {
		if (sib->pmu->task_ctx_nr != perf_hw_context ||
		    sib->state == PERF_EVENT_STATE_OFF)
			continue;
		if (!book3s_set_add(set, sib, room))
			return false;
	}
	return true;
}

/* Does the event fit with its group?  Updates the event's chosen code. */
static int book3s_group_fits(struct perf_event *event, u64 *code,
			     unsigned int *altflags)
{
	struct book3s_set set = { .n = 0 };
	unsigned long flags;
	int n, err = 0;

	if (event->group_leader != event &&
	    !book3s_collect_group(event->group_leader,
				  book3s_ppmu->n_counter - 1, &set))
		return -EINVAL;
	n = set.n;
	set.event[n] = event;
	set.code[n] = *code;
	set.altflags[n] = *altflags;

	if (book3s_excludes_conflict(book3s_ppmu, set.event, set.altflags,
				     n + 1) ||
	    book3s_branch_filters_conflict(set.event, n + 1))
		return -EINVAL;

	/* the solver's scratch is per CPU: keep this CPU meanwhile */
	local_irq_save(flags);
	if (book3s_fit_events(book3s_ppmu, &this_cpu_ptr(&book3s_cpu)->fit,
			      set.code, set.altflags, set.event, n + 1))
		err = -EINVAL;
	local_irq_restore(flags);

	*code = set.code[n];
	*altflags = set.altflags[n];
	return err;
}

static int book3s_event_init(struct perf_event *event)
{
	struct power_pmu *pmu = book3s_ppmu;
	unsigned int altflags = 0;
	int err, fit;
	u64 code;

	if (!pmu)
		return -ENOENT;
	if (has_branch_stack(event) && !(pmu->flags & PPMU_ARCH_207S))
		return -EOPNOTSUPP;

	err = book3s_event_code(event, &code);
	if (err)
		return err;

	/* reserved values in the code (e.g. MMCRA sampling mode 0b11) */
	if (pmu->check_attr_config && pmu->check_attr_config(event))
		return -EINVAL;

	event->hw.config_base = code;
	event->hw.idx = 0;

	/* Outside a hypervisor's partition there is no HV state to exclude. */
	if (!firmware_has_feature(FW_FEATURE_LPAR))
		event->attr.exclude_hv = 0;

	/* A task's events count only while it runs: PM_RUN_* codes will do. */
	if (event->attach_state & PERF_ATTACH_TASK)
		altflags |= PPMU_ONLY_COUNT_RUN;

	err = book3s_limited_choice(event, &code, &altflags);
	if (err)
		return err;

	err = book3s_ebb_check(event);
	if (err)
		return err;

	/* the BHRB filter the event needs; members of a set share one */
	if (has_branch_stack(event) && pmu->bhrb_filter_map)
		event->hw.branch_reg.config =
			pmu->bhrb_filter_map(event->attr.branch_sample_type);

	fit = book3s_group_fits(event, &code, &altflags);

	/* 6.1 reports an unusable branch filter before an unfit group */
	if (has_branch_stack(event)) {
		err = book3s_branch_check(event);
		if (err)
			return err;
	}
	if (fit)
		return fit;

	event->hw.config = code;
	event->hw.event_base = altflags;
	event->hw.last_period = event->hw.sample_period;
	local64_set(&event->hw.period_left, event->hw.last_period);

	/* EBB counters are context switched, not sampled: start from 0. */
	if (book3s_is_ebb(event))
		local64_set(&event->hw.prev_count, 0);

	/* only an event that holds a reservation may give one back */
	err = book3s_reserve();
	if (!err)
		event->destroy = book3s_event_destroy;
	return err;
}

/* perf_event_mmap_page.index: the PMC number, 0 if not on a counter. */
static int book3s_event_idx(struct perf_event *event)
{
	return event->hw.idx;
}

static void book3s_read(struct perf_event *event)
{
	book3s_update_count(event);
}

static struct pmu book3s_pmu = {
	.pmu_enable	= book3s_pmu_enable,
	.pmu_disable	= book3s_pmu_disable,
	.event_init	= book3s_event_init,
	.add		= book3s_add,
	.del		= book3s_del,
	.start		= book3s_start,
	.stop		= book3s_stop,
	.read		= book3s_read,
	.start_txn	= book3s_start_txn,
	.cancel_txn	= book3s_cancel_txn,
	.commit_txn	= book3s_commit_txn,
	.event_idx	= book3s_event_idx,
	.sched_task	= book3s_sched_task,
};

/* CPU coming up: fresh state, counters frozen. */
static int book3s_prepare_cpu(unsigned int cpu)
{
	struct book3s_cpu *cpuhw = &per_cpu(book3s_cpu, cpu);

	if (book3s_ppmu) {
		memset(cpuhw, 0, sizeof(*cpuhw));
		cpuhw->mmcr.mmcr0 = MMCR0_FC;
	}
	return 0;
}

/**
 * register_power_pmu - a CPU model claims the PMU
 * @pmu: its description
 *
 * Return: 0, or -EBUSY if a model was registered already.
 */
int __init register_power_pmu(struct power_pmu *pmu)
{
	if (book3s_ppmu)
		return -EBUSY;

	book3s_ppmu = pmu;
	pr_info("%s performance monitor hardware support registered\n",
		pmu->name);

	book3s_pmu.attr_groups = pmu->attr_groups;
	if (pmu->flags & PPMU_ARCH_207S)
		book3s_pmu.attr_update = book3s_caps_groups;
	book3s_pmu.capabilities |= pmu->capabilities &
				   PERF_PMU_CAP_EXTENDED_REGS;

#ifdef MSR_HV
	if (mfmsr() & MSR_HV)
		book3s_freeze_kernel = MMCR0_FCHV;
#endif

	perf_pmu_register(&book3s_pmu, "cpu", PERF_TYPE_RAW);
	cpuhp_setup_state(CPUHP_PERF_POWER, "perf/powerpc:prepare",
			  book3s_prepare_cpu, NULL);
	return 0;
}

#ifdef CONFIG_PPC64
/*
 * pmu_override=MMCR1 (bare metal only): leave perf off and let the
 * counters run free with that MMCR1, for external observers.
 */
static bool pmu_override;
static unsigned long pmu_override_mmcr1;

static void book3s_override_cpu(void *unused)
{
	ppc_set_pmu_inuse(1);
	if (pmu_override_mmcr1)
		mtspr(SPRN_MMCR1, pmu_override_mmcr1);
	mtspr(SPRN_MMCR0, mfspr(SPRN_MMCR0) & ~MMCR0_FC);
}

static int __init pmu_override_setup(char *str)
{
	if (!early_cpu_has_feature(CPU_FTR_HVMODE))
		return 0;
	pmu_override = true;
	if (kstrtoul(str, 0, &pmu_override_mmcr1))
		pmu_override_mmcr1 = 0;
	return 1;
}
__setup("pmu_override=", pmu_override_setup);

/* Most specific first; generic-compat when no model knows the CPU. */
static int (* const book3s_models[])(void) __initconst = {
	init_power5_pmu,
	init_power5p_pmu,
	init_power6_pmu,
	init_power7_pmu,
	init_power8_pmu,
	init_power9_pmu,
	init_power10_pmu,
	init_ppc970_pmu,
	init_generic_compat_pmu,
};

static int __init init_ppc64_pmu(void)
{
	int i, err = -ENODEV;

	if (cpu_has_feature(CPU_FTR_HVMODE) && pmu_override) {
		pr_warn("disabling perf due to pmu_override= command line option.\n");
		on_each_cpu(book3s_override_cpu, NULL, 1);
		return 0;
	}

	for (i = 0; i < ARRAY_SIZE(book3s_models); i++) {
		err = book3s_models[i]();
		if (!err)
			break;
	}
	return err;
}
early_initcall(init_ppc64_pmu);
#endif /* CONFIG_PPC64 */
