// SPDX-License-Identifier: GPL-2.0
/*
 * Intel core PMU: boot.
 *
 * Without architectural perfmon the P6, KNC or P4 driver takes over.
 * Otherwise CPUID leaf 0xA gives the version, the general counters
 * (number, width), the architectural events that are missing, and the
 * fixed counters (a count from v2, a bitmap from v5); PDCM says
 * IA32_PERF_CAPABILITIES exists (LBR format, PEBS format, full-width
 * writes, perf metrics).  Version 1 runs as "core" (no global control),
 * version 2 and later as "Intel".  The microarchitecture row
 * (core-models.c) then adds its tables; what follows is common: the
 * counter masks, the fixed-counter constraints cut to what exists, the
 * LBR and extra-register MSR checks, full-width writes.
 *
 * Locking: boot only.
 */
/* Messages keep the prefix 6.1 gave them (its intel/core.o). */
#define pr_fmt(fmt) "core: " fmt

#include <linux/perf_event.h>
#include <linux/static_call.h>
#include "core.h"

/* The architectural events, by CPUID 0xA EBX bit order. */
u64 intel_perfmon_event_map[PERF_COUNT_HW_MAX] __read_mostly = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x003c,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x00c0,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 0x4f2e,
	[PERF_COUNT_HW_CACHE_MISSES]		= 0x412e,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x00c4,
	[PERF_COUNT_HW_BRANCH_MISSES]		= 0x00c5,
	[PERF_COUNT_HW_BUS_CYCLES]		= 0x013c,
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= 0x0300,	/* fixed 2 pseudo code */
};

static u64 intel_pmu_event_map(int hw_event)
{
	return intel_perfmon_event_map[hw_event];
}

/*
 * Version 5 and later without a model row: fixed counter i is event
 * 0x00c0, 0x003c, then the pseudo codes umask i+1 (0x0300, 0x0400, ...),
 * cut to the fixed counters that exist.
 */
struct event_constraint intel_v5_gen_event_constraints[INTEL_PMC_MAX_FIXED + 1];

void intel_build_v5_constraints(struct event_constraint *table, int nr_fixed)
{
	int i;

	for (i = 0; i < nr_fixed; i++) {
		u64 code = (u64)(i + 1) << 8;

		if (i == 0)
			code = 0x00c0;
		else if (i == 1)
			code = 0x003c;
		table[i] = (struct event_constraint)
			__EVENT_CONSTRAINT(code, 1ULL << (INTEL_PMC_IDX_FIXED + i),
					   FIXED_EVENT_FLAGS, 1, 0, 0);
	}
	table[nr_fixed] = (struct event_constraint)EVENT_CONSTRAINT_END;
}

/*
 * What both templates share: MSR bases, the event map, constraint
 * lookup, sysfs, CPU hotplug, LBR access.  Counter writes sign-extend
 * bit 31 (until full-width writes are found), so periods stay below 2^31.
 */
#define INTEL_PMU_COMMON						\
	.schedule_events	= x86_schedule_events,			\
	.eventsel		= MSR_ARCH_PERFMON_EVENTSEL0,		\
	.perfctr		= MSR_ARCH_PERFMON_PERFCTR0,		\
	.event_map		= intel_pmu_event_map,			\
	.max_events		= ARRAY_SIZE(intel_perfmon_event_map),	\
	.apic			= 1,					\
	.large_pebs_flags	= LARGE_PEBS_FLAGS,			\
	.max_period		= (1ULL << 31) - 1,			\
	.get_event_constraints	= intel_get_event_constraints,		\
	.put_event_constraints	= intel_put_event_constraints,		\
	.events_sysfs_show	= intel_event_sysfs_show,		\
	.cpu_prepare		= intel_pmu_cpu_prepare,		\
	.cpu_starting		= intel_pmu_cpu_starting,		\
	.cpu_dying		= intel_pmu_cpu_dying,			\
	.cpu_dead		= intel_pmu_cpu_dead,			\
	.check_period		= intel_pmu_check_period,		\
	.lbr_reset		= intel_pmu_lbr_reset_64,		\
	.lbr_read		= intel_pmu_lbr_read_64,		\
	.lbr_save		= intel_pmu_lbr_save,			\
	.lbr_restore		= intel_pmu_lbr_restore

/*
 * Architectural perfmon v1: counters switched one by one.  Virtual CPUs
 * may pair v1 with extra registers, hence the hotplug callbacks.
 */
static const struct x86_pmu intel_v1_template __initconst = {
	INTEL_PMU_COMMON,
	.name			= "core",
	.handle_irq		= x86_pmu_handle_irq,
	.disable_all		= x86_pmu_disable_all,
	.enable_all		= core_pmu_enable_all,
	.enable			= core_pmu_enable_event,
	.disable		= x86_pmu_disable_event,
	.hw_config		= core_pmu_hw_config,
	.event_constraints	= intel_core_event_constraints,
	.guest_get_msrs		= core_guest_get_msrs,
	.format_attrs		= intel_arch_formats_attr,
};

/* Version 2 and later: global control, status and overflow acknowledge. */
static const struct x86_pmu intel_v2_template __initconst = {
	INTEL_PMU_COMMON,
	.name			= "Intel",
	.handle_irq		= intel_pmu_handle_irq,
	.disable_all		= intel_pmu_disable_all,
	.enable_all		= intel_pmu_enable_all,
	.enable			= intel_pmu_enable_event,
	.disable		= intel_pmu_disable_event,
	.add			= intel_pmu_add_event,
	.del			= intel_pmu_del_event,
	.read			= intel_pmu_read_event,
	.set_period		= intel_pmu_set_period,
	.update			= intel_pmu_update,
	.hw_config		= intel_pmu_hw_config,
	.pebs_aliases		= intel_pebs_aliases_core2,
	.format_attrs		= intel_arch3_formats_attr,
	.guest_get_msrs		= intel_guest_get_msrs,
	.sched_task		= intel_pmu_sched_task,
	.swap_task_ctx		= intel_pmu_swap_task_ctx,
	.aux_output_match	= intel_pmu_aux_output_match,
	/*
	 * The USR/OS filters cannot tell SMM from the rest, and firmware
	 * runs ring-3 code in SMM: do not count SMM unless asked to.
	 */
	.attr_freeze_on_smi	= 1,
};

/* No row for this model: generic architectural perfmon by version. */
static void __init intel_generic_setup(void)
{
	const char *name;

	if (x86_pmu.version == 1) {
		x86_pmu.event_constraints = intel_v1_event_constraints;
		name = "generic_arch_v1";
	} else if (x86_pmu.version < 5) {
		x86_pmu.event_constraints = intel_gen_event_constraints;
		name = "generic_arch_v2+";
	} else {
		if (x86_pmu.num_counters_fixed > INTEL_PMC_MAX_FIXED)
			x86_pmu.num_counters_fixed = INTEL_PMC_MAX_FIXED;
		intel_build_v5_constraints(intel_v5_gen_event_constraints,
					   x86_pmu.num_counters_fixed);
		x86_pmu.event_constraints = intel_v5_gen_event_constraints;
		name = "generic_arch_v5+";
	}
	pr_cont("%s, ", x86_pmu.version == 1 ?
		"generic architected perfmon v1" :
		"generic architected perfmon");
	strscpy(intel_pmu_name, name, sizeof(intel_pmu_name));
}

/* Clip the counter numbers and compute the GLOBAL_CTRL enable mask. */
static void __init intel_fit_counters(int *nr_gp, int *nr_fixed, u64 *ctrl,
				      u64 fixed_mask)
{
	if (*nr_gp > INTEL_PMC_MAX_GENERIC) {
		WARN(1, "hw perf events %d > max(%d), clipping!",
		     *nr_gp, INTEL_PMC_MAX_GENERIC);
		*nr_gp = INTEL_PMC_MAX_GENERIC;
	}
	if (*nr_fixed > INTEL_PMC_MAX_FIXED) {
		WARN(1, "hw perf events fixed %d > max(%d), clipping!",
		     *nr_fixed, INTEL_PMC_MAX_FIXED);
		*nr_fixed = INTEL_PMC_MAX_FIXED;
	}
	*ctrl = ((1ULL << *nr_gp) - 1) | (fixed_mask << INTEL_PMC_IDX_FIXED);
}

/*
 * Make the constraints match the counters that exist: a fixed-counter
 * event may also run on any general counter (unless its code is a
 * pseudo encoding that only the fixed counter understands); fixed
 * counters the CPU lacks go; topdown events go without the slots
 * counter; nothing points past the last fixed counter.
 */
void intel_fit_constraints(struct event_constraint *table, int nr_gp,
			   int nr_fixed, u64 ctrl)
{
	struct event_constraint *c;

	if (!table)
		return;

	for_each_event_constraint(c, table) {
		if (c->idxmsk64 & INTEL_PMC_MSK_TOPDOWN) {
			if (!(ctrl & INTEL_PMC_MSK_FIXED_SLOTS))
				c->idxmsk64 = 0;
			c->weight = hweight64(c->idxmsk64);
			continue;
		}
		if (c->cmask == FIXED_EVENT_FLAGS) {
			c->idxmsk64 &= ctrl;
			if (!use_fixed_pseudo_encoding(c->code))
				c->idxmsk64 |= (1ULL << nr_gp) - 1;
		}
		c->idxmsk64 &= ~(~0ULL << (INTEL_PMC_IDX_FIXED + nr_fixed));
		c->weight = hweight64(c->idxmsk64);
	}
}

static void __init intel_fit_hybrid_pmus(u64 fixed_mask)
{
	int i;

	for (i = 0; i < x86_pmu.num_hybrid_pmus; i++) {
		struct x86_hybrid_pmu *pmu = &x86_pmu.hybrid_pmu[i];

		intel_fit_counters(&pmu->num_counters, &pmu->num_counters_fixed,
				   &pmu->intel_ctrl, fixed_mask);
		if (pmu->intel_cap.perf_metrics)
			pmu->intel_ctrl |= BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS) |
					   INTEL_PMC_MSK_FIXED_SLOTS;
		if (pmu->intel_cap.pebs_output_pt_available)
			pmu->pmu.capabilities |= PERF_PMU_CAP_AUX_OUTPUT;
		intel_fit_constraints(pmu->event_constraints, pmu->num_counters,
				      pmu->num_counters_fixed, pmu->intel_ctrl);
		intel_check_extra_regs(pmu->extra_regs);
	}
}

static void __init intel_setup_lbr(void)
{
	if (!intel_check_lbr_msrs())
		x86_pmu.lbr_nr = 0;
	if (!x86_pmu.lbr_nr)
		return;

	intel_pmu_lbr_init();
	pr_cont("%d-deep LBR, ", x86_pmu.lbr_nr);

	/* BPF branch snapshots need global control (v2+). */
	if (x86_pmu.disable_all != intel_pmu_disable_all)
		return;
	if (boot_cpu_has(X86_FEATURE_ARCH_LBR))
		static_call_update(perf_snapshot_branch_stack,
				   intel_pmu_snapshot_arch_branch_stack);
	else
		static_call_update(perf_snapshot_branch_stack,
				   intel_pmu_snapshot_branch_stack);
}

__init int intel_pmu_init(void)
{
	const struct intel_uarch *ua;
	union cpuid10_eax eax;
	union cpuid10_ebx ebx;
	union cpuid10_edx edx;
	unsigned int fixed_mask;
	int version, ret;

	if (!cpu_has(&boot_cpu_data, X86_FEATURE_ARCH_PERFMON)) {
		switch (boot_cpu_data.x86) {
		case 0x6:
			return p6_pmu_init();
		case 0xb:
			return knc_pmu_init();
		case 0xf:
			return p4_pmu_init();
		}
		return -ENODEV;
	}

	cpuid(10, &eax.full, &ebx.full, &fixed_mask, &edx.full);
	/* Fewer than the 7 architectural events (branch misses): too old. */
	if (eax.split.mask_length < ARCH_PERFMON_EVENTS_COUNT)
		return -ENODEV;

	version = eax.split.version_id;
	x86_pmu = version < 2 ? intel_v1_template : intel_v2_template;
	x86_pmu.version = version;
	x86_pmu.num_counters = eax.split.num_counters;
	x86_pmu.cntval_bits = eax.split.bit_width;
	x86_pmu.cntval_mask = (1ULL << eax.split.bit_width) - 1;
	x86_pmu.events_maskl = ebx.full;
	x86_pmu.events_mask_len = eax.split.mask_length;
	x86_pmu.max_pebs_events = min_t(unsigned int, MAX_PEBS_EVENTS,
					x86_pmu.num_counters);
	x86_pmu.pebs_capable = PEBS_COUNTER_MASK;

	/*
	 * Fixed counters: v2-v4 give a count, which some v2 parts leave 0
	 * though they have three (believed on bare metal only); v5 gives
	 * a bitmap (ECX).
	 */
	if (version >= 5) {
		x86_pmu.num_counters_fixed = fls(fixed_mask);
	} else if (version > 1) {
		int assumed = boot_cpu_has(X86_FEATURE_HYPERVISOR) ? 0 : 3;

		x86_pmu.num_counters_fixed =
			max((int)edx.split.num_counters_fixed, assumed);
		fixed_mask = (1U << x86_pmu.num_counters_fixed) - 1;
	}

	if (boot_cpu_has(X86_FEATURE_PDCM))
		rdmsrl(MSR_IA32_PERF_CAPABILITIES,
		       x86_pmu.intel_cap.capabilities);

	if (x86_pmu.intel_cap.lbr_format == LBR_FORMAT_32) {
		x86_pmu.lbr_reset = intel_pmu_lbr_reset_32;
		x86_pmu.lbr_read = intel_pmu_lbr_read_32;
	}
	if (boot_cpu_has(X86_FEATURE_ARCH_LBR))
		intel_pmu_arch_lbr_init();

	intel_ds_init();

	/* Quirks run last-added first: this one runs after the model's. */
	x86_add_quirk(intel_arch_events_quirk);

	ua = intel_find_uarch();
	if (ua) {
		ret = intel_apply_uarch(ua);
		if (ret)
			return ret;
	} else {
		intel_generic_setup();
		intel_sysfs_init(INTEL_SYSFS_NONE);
	}

	intel_fit_counters(&x86_pmu.num_counters, &x86_pmu.num_counters_fixed,
			   &x86_pmu.intel_ctrl, fixed_mask);

	if (version >= 5 && edx.split.anythread_deprecated) {
		x86_pmu.format_attrs = intel_arch_formats_attr;
		pr_cont("AnyThread deprecated, ");
	}

	intel_fit_constraints(x86_pmu.event_constraints, x86_pmu.num_counters,
			      x86_pmu.num_counters_fixed, x86_pmu.intel_ctrl);

	intel_setup_lbr();
	intel_check_extra_regs(x86_pmu.extra_regs);

	/* IA32_A_PMC0..: writes take the full counter width. */
	if (x86_pmu.intel_cap.full_width_write) {
		x86_pmu.max_period = x86_pmu.cntval_mask >> 1;
		x86_pmu.perfctr = MSR_IA32_PMC0;
		pr_cont("full-width counters, ");
	}

	if (!is_hybrid() && x86_pmu.intel_cap.perf_metrics)
		x86_pmu.intel_ctrl |= BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS);
	if (is_hybrid())
		intel_fit_hybrid_pmus(fixed_mask);

	intel_aux_output_init();
	return 0;
}
