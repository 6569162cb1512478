// SPDX-License-Identifier: GPL-2.0
/*
 * x86 PMU framework: turning an attr into a hardware event.
 *
 * x86_pmu_event_init() accepts PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE and
 * the PMU's own type (raw), reserves the counters for perf while any
 * event exists, lets the driver's hw_config() build hw.config (with
 * x86_pmu_hw_config() as the common part), and checks that the event, or
 * its whole group, could be scheduled on an otherwise empty PMU (a "fake"
 * cpu_hw_events that goes through the driver's constraint code).
 *
 * Also the reservation of LBR, BTS and PT, which exclude each other.
 *
 * Locking: pmc_reserve_mutex serialises the first reservation and the
 * last release of the counter MSRs and of the exclusive facilities; the
 * counts themselves are atomics, so the common case takes no lock.
 */
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <asm/nmi.h>
#include "framework.h"

atomic_t x86_pmu_active_events;
static atomic_t pmc_refcount;
static DEFINE_MUTEX(pmc_reserve_mutex);

bool is_x86_event(struct perf_event *event)
{
	int i;

	if (!is_hybrid())
		return event->pmu == &x86_core_pmu;

	for (i = 0; i < x86_pmu.num_hybrid_pmus; i++)
		if (event->pmu == &x86_pmu.hybrid_pmu[i].pmu)
			return true;
	return false;
}

#ifdef CONFIG_X86_LOCAL_APIC
/* The widest core type's counters: a hybrid part reserves them all. */
static int x86_pmu_max_counters(void)
{
	int i, n = x86_pmu.num_counters;

	if (is_hybrid())
		for (i = 0; i < x86_pmu.num_hybrid_pmus; i++)
			n = max(n, x86_pmu.hybrid_pmu[i].num_counters);
	return n;
}

/* Take the counters from the NMI watchdog's allocator, all or none. */
static bool reserve_pmc_hardware(void)
{
	int n = x86_pmu_max_counters(), ctr = 0, sel = 0;

	for (; ctr < n; ctr++)
		if (!reserve_perfctr_nmi(x86_pmu_event_addr(ctr)))
			goto undo;
	for (; sel < n; sel++)
		if (!reserve_evntsel_nmi(x86_pmu_config_addr(sel)))
			goto undo;
	return true;

undo:
	while (--sel >= 0)
		release_evntsel_nmi(x86_pmu_config_addr(sel));
	while (--ctr >= 0)
		release_perfctr_nmi(x86_pmu_event_addr(ctr));
	return false;
}

static void release_pmc_hardware(void)
{
	int i, n = x86_pmu_max_counters();

	for (i = 0; i < n; i++) {
		release_perfctr_nmi(x86_pmu_event_addr(i));
		release_evntsel_nmi(x86_pmu_config_addr(i));
	}
}
#else
static bool reserve_pmc_hardware(void)
{
	return true;
}

static void release_pmc_hardware(void)
{
}
#endif

/* The first user takes the counters and the DS/LBR buffers. */
int x86_reserve_hardware(void)
{
	int err = 0;

	if (atomic_inc_not_zero(&pmc_refcount))
		return 0;

	mutex_lock(&pmc_reserve_mutex);
	if (atomic_read(&pmc_refcount) == 0) {
		if (reserve_pmc_hardware()) {
			reserve_ds_buffers();
			reserve_lbr_buffers();
		} else {
			err = -EBUSY;
		}
	}
	if (!err)
		atomic_inc(&pmc_refcount);
	mutex_unlock(&pmc_reserve_mutex);
	return err;
}

void x86_release_hardware(void)
{
	if (!atomic_dec_and_mutex_lock(&pmc_refcount, &pmc_reserve_mutex))
		return;
	release_pmc_hardware();
	release_ds_buffers();
	release_lbr_buffers();
	mutex_unlock(&pmc_reserve_mutex);
}

/*
 * LBR, BTS and PT use one tracing facility: events of one kind exclude
 * the others (PT may coexist with LBR or BTS where the driver says so).
 * Each such event also counts as a PMI user.
 */
int x86_add_exclusive(unsigned int what)
{
	int i;

	if (x86_pmu.lbr_pt_coexist && what == x86_lbr_exclusive_pt)
		goto counted;
	if (atomic_inc_not_zero(&x86_pmu.lbr_exclusive[what]))
		goto counted;

	mutex_lock(&pmc_reserve_mutex);
	for (i = 0; i < ARRAY_SIZE(x86_pmu.lbr_exclusive); i++) {
		if (i != what && atomic_read(&x86_pmu.lbr_exclusive[i])) {
			mutex_unlock(&pmc_reserve_mutex);
			return -EBUSY;
		}
	}
	atomic_inc(&x86_pmu.lbr_exclusive[what]);
	mutex_unlock(&pmc_reserve_mutex);

counted:
	atomic_inc(&x86_pmu_active_events);
	return 0;
}

void x86_del_exclusive(unsigned int what)
{
	atomic_dec(&x86_pmu_active_events);
	if (x86_pmu.lbr_pt_coexist && what == x86_lbr_exclusive_pt)
		return;
	atomic_dec(&x86_pmu.lbr_exclusive[what]);
}

static void x86_hw_event_destroy(struct perf_event *event)
{
	x86_release_hardware();
	atomic_dec(&x86_pmu_active_events);
}

void hw_perf_lbr_event_destroy(struct perf_event *event)
{
	x86_hw_event_destroy(event);
	x86_del_exclusive(x86_lbr_exclusive_lbr);
}

/* An event that needs an extra MSR (offcore response, ...) gets it here. */
static int x86_pmu_extra_regs(u64 config, struct perf_event *event)
{
	struct extra_reg *er = hybrid(event->pmu, extra_regs);
	struct hw_perf_event_extra *reg = &event->hw.extra_reg;

	for (; er && er->msr; er++) {
		if (er->event != (config & er->config_mask))
			continue;
		if (event->attr.config1 & ~er->valid_mask)
			return -EINVAL;
		if (!er->extra_msr_access)
			return -ENXIO;
		reg->idx = er->idx;
		reg->config = event->attr.config1;
		reg->reg = er->msr;
		break;
	}
	return 0;
}

/* PERF_TYPE_HW_CACHE: config is type | op << 8 | result << 16. */
static int x86_pmu_cache_event(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	unsigned int type = attr->config & 0xff;
	unsigned int op = (attr->config >> 8) & 0xff;
	unsigned int result = (attr->config >> 16) & 0xff;
	u64 val;

	if (type >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	type = array_index_nospec(type, PERF_COUNT_HW_CACHE_MAX);
	op = array_index_nospec(op, PERF_COUNT_HW_CACHE_OP_MAX);
	result = array_index_nospec(result, PERF_COUNT_HW_CACHE_RESULT_MAX);

	val = hybrid_var(event->pmu, hw_cache_event_ids)[type][op][result];
	if (val == 0)
		return -ENOENT;
	if (val == -1)
		return -EINVAL;

	event->hw.config |= val;
	attr->config1 = hybrid_var(event->pmu, hw_cache_extra_regs)[type][op][result];
	return x86_pmu_extra_regs(val, event);
}

/* The event selector bits of a generic, cache or raw event. */
int x86_setup_perfctr(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u64 config;

	/* a counting event still interrupts, at the widest period */
	if (!is_sampling_event(event)) {
		hwc->sample_period = x86_pmu.max_period;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}

	if (attr->type == event->pmu->type)
		return x86_pmu_extra_regs(attr->config, event);
	if (attr->type == PERF_TYPE_HW_CACHE)
		return x86_pmu_cache_event(event);

	if (attr->config >= x86_pmu.max_events)
		return -EINVAL;
	attr->config = array_index_nospec((unsigned long)attr->config,
					  x86_pmu.max_events);
	config = x86_pmu.event_map(attr->config);
	if (config == 0)
		return -ENOENT;
	if (config == -1LL)
		return -EINVAL;
	hwc->config |= config;
	return 0;
}

/* How precise an IP the PEBS/LBR hardware can give (attr.precise_ip). */
int x86_pmu_max_precise(void)
{
	int precise = 0;

	if (!x86_pmu.pebs_active || x86_pmu.pebs_broken)
		return 0;
	precise++;			/* constant skid */
	if (x86_pmu.lbr_nr || x86_pmu.intel_cap.pebs_format >= 2)
		precise++;		/* IP fixed up */
	if (x86_pmu.pebs_prec_dist)
		precise++;		/* precise distribution */
	return precise;
}

/*
 * precise_ip >= 2 on old PEBS fixes the IP up from the LBR, which must
 * then see every taken branch at the event's privilege levels.
 */
static int x86_pmu_precise_branches(struct perf_event *event)
{
	u64 *mask = &event->attr.branch_sample_type;
	u64 want = PERF_SAMPLE_BRANCH_ANY;

	if (!event->attr.exclude_user)
		want |= PERF_SAMPLE_BRANCH_USER;
	if (!event->attr.exclude_kernel)
		want |= PERF_SAMPLE_BRANCH_KERNEL;

	if (!has_branch_stack(event)) {
		*mask = want;
		return 0;
	}
	/* the user's branch filter must be exactly that (HV is ignored) */
	if (!(*mask & PERF_SAMPLE_BRANCH_ANY))
		return -EOPNOTSUPP;
	if ((*mask & (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL)) !=
	    (want & ~PERF_SAMPLE_BRANCH_ANY))
		return -EOPNOTSUPP;
	return 0;
}

/* The vendor-neutral part of a driver's hw_config(). */
int x86_pmu_hw_config(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	int err;

	if (attr->precise_ip) {
		if (attr->precise_ip > x86_pmu_max_precise())
			return -EOPNOTSUPP;
		if (!is_sampling_event(event))
			return -EINVAL;
	}
	if (attr->precise_ip > 1 && x86_pmu.intel_cap.pebs_format < 2) {
		err = x86_pmu_precise_branches(event);
		if (err)
			return err;
	}

	if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK)
		event->attach_state |= PERF_ATTACH_TASK_DATA;

	/* interrupt on overflow; the enable bit is set when it runs */
	event->hw.config = ARCH_PERFMON_EVENTSEL_INT;
	if (!attr->exclude_user)
		event->hw.config |= ARCH_PERFMON_EVENTSEL_USR;
	if (!attr->exclude_kernel)
		event->hw.config |= ARCH_PERFMON_EVENTSEL_OS;
	if (attr->type == event->pmu->type)
		event->hw.config |= attr->config & X86_RAW_EVENT_MASK;

	/* a fixed period the hardware would have to round up is refused */
	if (is_sampling_event(event) && !attr->freq && x86_pmu.limit_period) {
		s64 left = attr->sample_period;

		x86_pmu.limit_period(event, &left);
		if (left > attr->sample_period)
			return -EINVAL;
	}

	/* XMM registers only come from PEBS, never in user regs */
	if (unlikely(attr->sample_regs_user & PERF_REG_EXTENDED_MASK))
		return -EINVAL;
	if (unlikely(attr->sample_regs_intr & PERF_REG_EXTENDED_MASK)) {
		if (!(event->pmu->capabilities & PERF_PMU_CAP_EXTENDED_REGS))
			return -EINVAL;
		if (!attr->precise_ip)
			return -EINVAL;
	}

	return x86_setup_perfctr(event);
}

/*
 * A cpu_hw_events of no CPU, to try a schedule: with the driver's shared
 * state (extra registers, HT exclusion) of a CPU the event can run on.
 */
static void x86_free_fake_cpuc(struct cpu_hw_events *cpuc)
{
	intel_cpuc_finish(cpuc);
	kfree(cpuc);
}

static struct cpu_hw_events *x86_alloc_fake_cpuc(struct pmu *event_pmu)
{
	struct cpu_hw_events *cpuc;
	int cpu = raw_smp_processor_id();

	cpuc = kzalloc(sizeof(*cpuc), GFP_KERNEL);
	if (!cpuc)
		return ERR_PTR(-ENOMEM);
	cpuc->is_fake = 1;
	cpuc->pmu = event_pmu;

	if (is_hybrid()) {
		struct x86_hybrid_pmu *h = hybrid_pmu(event_pmu);

		if (cpumask_empty(&h->supported_cpus))
			goto fail;
		cpu = cpumask_first(&h->supported_cpus);
	}
	if (intel_cpuc_prepare(cpuc, cpu))
		goto fail;
	return cpuc;

fail:
	x86_free_fake_cpuc(cpuc);
	return ERR_PTR(-ENOMEM);
}

/* A lone event: does any counter accept it? */
static int x86_validate_event(struct perf_event *event)
{
	struct cpu_hw_events *fake = x86_alloc_fake_cpuc(event->pmu);
	struct event_constraint *c;
	int err = 0;

	if (IS_ERR(fake))
		return PTR_ERR(fake);

	c = x86_pmu.get_event_constraints(fake, 0, event);
	if (!c || !c->weight)
		err = -EINVAL;
	if (x86_pmu.put_event_constraints)
		x86_pmu.put_event_constraints(fake, event);

	x86_free_fake_cpuc(fake);
	return err;
}

/* All x86 members of a group must be of one PMU (one core type). */
static bool x86_group_one_pmu(struct perf_event *leader)
{
	struct pmu *seen = is_x86_event(leader) ? leader->pmu : NULL;
	struct perf_event *sibling;

	if (!is_hybrid())
		return true;
	for_each_sibling_event(sibling, leader) {
		if (!is_x86_event(sibling))
			continue;
		if (!seen)
			seen = sibling->pmu;
		else if (seen != sibling->pmu)
			return false;
	}
	return true;
}

/*
 * A group member: could the leader, its enabled siblings and this event
 * all be on the PMU at once?  (The event is not linked into the group
 * yet, so it is collected last.)
 */
static int x86_validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct cpu_hw_events *fake;
	int n, err = -EINVAL;

	if (!x86_group_one_pmu(leader))
		return -EINVAL;

	fake = x86_alloc_fake_cpuc(event->pmu);
	if (IS_ERR(fake))
		return PTR_ERR(fake);

	n = x86_collect_events(fake, leader, true);
	if (n < 0)
		goto out;
	fake->n_events = n;
	n = x86_collect_events(fake, event, false);
	if (n < 0)
		goto out;
	/* everything collected is new: no cached constraint to reuse */
	fake->n_events = 0;
	err = x86_pmu.schedule_events(fake, n, NULL);
out:
	x86_free_fake_cpuc(fake);
	return err;
}

int x86_pmu_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	int err;

	if (attr->type != event->pmu->type && attr->type != PERF_TYPE_HARDWARE &&
	    attr->type != PERF_TYPE_HW_CACHE)
		return -ENOENT;

	if (is_hybrid() && event->cpu != -1 &&
	    !cpumask_test_cpu(event->cpu, &hybrid_pmu(event->pmu)->supported_cpus))
		return -ENOENT;

	if (!x86_pmu_initialized())
		return -ENODEV;

	err = x86_reserve_hardware();
	if (err)
		return err;
	atomic_inc(&x86_pmu_active_events);
	event->destroy = x86_hw_event_destroy;

	hwc->idx = -1;
	hwc->last_cpu = -1;
	hwc->last_tag = ~0ULL;
	hwc->extra_reg.idx = EXTRA_REG_NONE;
	hwc->branch_reg.idx = EXTRA_REG_NONE;

	err = x86_pmu.hw_config(event);
	if (!err)
		err = event->group_leader != event ? x86_validate_group(event) :
						     x86_validate_event(event);
	if (err) {
		/* hw_config() may have replaced destroy (LBR, BTS) */
		if (event->destroy)
			event->destroy(event);
		event->destroy = NULL;
	}

	if (READ_ONCE(x86_pmu.attr_rdpmc) &&
	    !(hwc->flags & PERF_X86_EVENT_LARGE_PEBS))
		hwc->flags |= PERF_EVENT_FLAG_USER_READ_CNT;

	return err;
}
