// SPDX-License-Identifier: GPL-2.0
/*
 * AMD core PMU: what this CPU has, and the x86_pmu that describes it.
 *
 *   K7 to Family 10h   four counters at MSR 0xC0010000 (PERF_CTL) and
 *                      0xC0010004 (PERF_CTR); northbridge events share
 *                      counters between the cores of a node
 *   PerfCtrExtCore     six counters, PERF_CTL/PERF_CTR interleaved from
 *                      0xC0010200; northbridge events move to their own
 *                      PMU (amd/uncore.c)
 *   Family 15h         per-class counter constraints
 *   Family 17h+        counter pairs for large-increment events
 *   PerfMonV2 (Zen 4)  CPUID 0x80000022: the counter count, global
 *                      control and status
 *   LBR (Zen 4) or BRS (Zen 3)  branch stacks, from amd/lbr.c, amd/brs.c
 *
 * Also here: the format/ and caps/ files, and the KVM switch between
 * counting host-only (SVM on) and everything (SVM off).
 *
 * Locking: x86_pmu is filled at boot; the virt switch runs on its CPU
 * with preemption off.
 */
#include <linux/export.h>
#include <linux/init.h>
#include <linux/perf_event.h>
#include "core.h"

DEFINE_STATIC_CALL_NULL(amd_pmu_branch_add, *x86_pmu.add);
DEFINE_STATIC_CALL_NULL(amd_pmu_branch_del, *x86_pmu.del);

/* Counter n's registers: n apart (legacy) or 2n apart (interleaved). */
static unsigned int amd_ctr_stride_shift __read_mostly;

static int amd_pmu_addr_offset(int index, bool eventsel)
{
	return index << amd_ctr_stride_shift;
}

static void amd_pmu_add_event(struct perf_event *event)
{
	if (needs_branch_stack(event))
		static_call(amd_pmu_branch_add)(event);
}

static void amd_pmu_del_event(struct perf_event *event)
{
	if (needs_branch_stack(event))
		static_call(amd_pmu_branch_del)(event);
}

/* BRS records the last N branches before the overflow: start N earlier. */
static void amd_pmu_brs_limit_period(struct perf_event *event, s64 *left)
{
	if (has_branch_stack(event) && *left > x86_pmu.lbr_nr)
		*left -= x86_pmu.lbr_nr;
}

PMU_FORMAT_ATTR(event, "config:0-7,32-35");
PMU_FORMAT_ATTR(umask, "config:8-15");
PMU_FORMAT_ATTR(edge, "config:18");
PMU_FORMAT_ATTR(inv, "config:23");
PMU_FORMAT_ATTR(cmask, "config:24-31");

static struct attribute *amd_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_umask.attr,
	&format_attr_edge.attr,
	&format_attr_inv.attr,
	&format_attr_cmask.attr,
	NULL,
};

/* caps/branches: the depth of the branch stack, when there is one. */
static ssize_t branches_show(struct device *cdev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%d\n", x86_pmu.lbr_nr);
}
static DEVICE_ATTR_RO(branches);

static struct attribute *amd_caps_attrs[] = {
	&dev_attr_branches.attr,
	NULL,
};

static umode_t amd_caps_visible(struct kobject *kobj, struct attribute *attr, int i)
{
	return x86_pmu.lbr_nr ? attr->mode : 0;
}

static struct attribute_group amd_caps_group = {
	.name		= "caps",
	.attrs		= amd_caps_attrs,
	.is_visible	= amd_caps_visible,
};

#ifdef CONFIG_PERF_EVENTS_AMD_BRS
/* events/branch-brs: the event BRS samples (retired taken branches) */
static struct perf_pmu_events_attr amd_branch_brs = {
	.attr = {
		.attr = { .name = "branch-brs", .mode = 0444 },
		.show = events_sysfs_show,
	},
	.event_str = "event=" __stringify(AMD_FAM19H_BRS_EVENT) "\n",
};

static struct attribute *amd_brs_event_attrs[] = {
	&amd_branch_brs.attr.attr,
	NULL,
};

static umode_t amd_brs_visible(struct kobject *kobj, struct attribute *attr, int i)
{
	return static_cpu_has(X86_FEATURE_BRS) && x86_pmu.lbr_nr ? attr->mode : 0;
}

static struct attribute_group amd_brs_events_group = {
	.name		= "events",
	.attrs		= amd_brs_event_attrs,
	.is_visible	= amd_brs_visible,
};
#endif

static const struct attribute_group *amd_attr_update[] = {
	&amd_caps_group,
#ifdef CONFIG_PERF_EVENTS_AMD_BRS
	&amd_brs_events_group,
#endif
	NULL,
};

/* K7 to Family 10h; the extensions below change what they must. */
static const struct x86_pmu amd_legacy_pmu __initconst = {
	.name			= "AMD",
	.handle_irq		= amd_pmu_handle_irq,
	.disable_all		= amd_pmu_disable_all,
	.enable_all		= amd_pmu_enable_all,
	.enable			= amd_pmu_enable_event,
	.disable		= amd_pmu_disable_event,
	.hw_config		= amd_pmu_hw_config,
	.schedule_events	= x86_schedule_events,
	.eventsel		= MSR_K7_EVNTSEL0,
	.perfctr		= MSR_K7_PERFCTR0,
	.addr_offset		= amd_pmu_addr_offset,
	.event_map		= amd_pmu_event_map,
	.max_events		= PERF_COUNT_HW_MAX,
	.num_counters		= AMD64_NUM_COUNTERS,
	.add			= amd_pmu_add_event,
	.del			= amd_pmu_del_event,
	.cntval_bits		= 48,
	.cntval_mask		= (1ULL << 48) - 1,
	.apic			= 1,
	/* the top bit tells an overflow: periods stay below it */
	.max_period		= (1ULL << 47) - 1,
	.get_event_constraints	= amd_nb_get_constraints,
	.put_event_constraints	= amd_nb_put_constraints,
	.format_attrs		= amd_format_attrs,
	.events_sysfs_show	= amd_event_sysfs_show,
	.cpu_prepare		= amd_pmu_cpu_prepare,
	.cpu_starting		= amd_pmu_cpu_starting,
	.cpu_dead		= amd_pmu_cpu_dead,
	.amd_nb_constraints	= 1,
};

static void __init amd_pmu_use_perfmon_v2(void)
{
	union cpuid_0x80000022_ebx ebx;

	ebx.full = cpuid_ebx(EXT_PERFMON_DEBUG_FEATURES);
	x86_pmu.version = 2;
	x86_pmu.num_counters = ebx.split.num_core_pmc;
	amd_pmu_global_cntr_mask = (1ULL << x86_pmu.num_counters) - 1;

	x86_pmu.enable_all = amd_pmu_v2_enable_all;
	x86_pmu.disable_all = amd_pmu_v2_disable_all;
	x86_pmu.enable = amd_pmu_v2_enable_event;
	x86_pmu.handle_irq = amd_pmu_v2_handle_irq;
}

/* Branch stacks: LBR (Zen 4) or else BRS (Zen 3), never both. */
static void __init amd_pmu_init_branches(void)
{
	if (!amd_pmu_lbr_init()) {
		x86_pmu.sched_task = amd_pmu_lbr_sched_task;
		static_call_update(amd_pmu_branch_hw_config, amd_pmu_lbr_hw_config);
		static_call_update(amd_pmu_branch_reset, amd_pmu_lbr_reset);
		static_call_update(amd_pmu_branch_add, amd_pmu_lbr_add);
		static_call_update(amd_pmu_branch_del, amd_pmu_lbr_del);
	} else if (!amd_brs_init()) {
		x86_pmu.get_event_constraints = amd_f19h_brs_get_constraints;
		x86_pmu.sched_task = amd_pmu_brs_sched_task;
		x86_pmu.limit_period = amd_pmu_brs_limit_period;
		static_call_update(amd_pmu_branch_hw_config, amd_brs_hw_config);
		static_call_update(amd_pmu_branch_reset, amd_brs_reset);
		static_call_update(amd_pmu_branch_add, amd_pmu_brs_add);
		static_call_update(amd_pmu_branch_del, amd_pmu_brs_del);
		/* BRS stops before the CPU enters a low-power state */
		amd_brs_lopwr_init();
	}
}

/* The core counter extensions and what came with and after them. */
static void __init amd_pmu_init_core_ext(void)
{
	bool perfmon_v2 = boot_cpu_has(X86_FEATURE_PERFMON_V2);

	amd_pmu_irq_init(perfmon_v2);
	if (!boot_cpu_has(X86_FEATURE_PERFCTR_CORE))
		return;

	x86_pmu.eventsel = MSR_F15H_PERF_CTL;
	x86_pmu.perfctr = MSR_F15H_PERF_CTR;
	x86_pmu.num_counters = AMD64_NUM_COUNTERS_CORE;
	amd_ctr_stride_shift = 1;
	if (perfmon_v2)
		amd_pmu_use_perfmon_v2();

	/* northbridge events have their own counters and PMU now */
	x86_pmu.amd_nb_constraints = 0;
	x86_pmu.get_event_constraints = NULL;
	x86_pmu.put_event_constraints = NULL;

	if (boot_cpu_data.x86 == 0x15) {
		pr_cont("Fam15h ");
		x86_pmu.get_event_constraints = amd_f15h_get_constraints;
	}
	if (boot_cpu_data.x86 >= 0x17) {
		pr_cont("Fam17h+ ");
		amd_pair_constraint_init(x86_pmu.num_counters);
		x86_pmu.get_event_constraints = amd_f17h_get_constraints;
		x86_pmu.put_event_constraints = amd_f17h_put_constraints;
		x86_pmu.perf_ctr_pair_en = AMD_MERGE_EVENT_ENABLE;
		x86_pmu.flags |= PMU_FL_PAIR;
	}

	amd_pmu_init_branches();
	x86_pmu.attr_update = amd_attr_update;
	pr_cont("core perfctr, ");
}

/* Every other case has no constraint at all. */
static struct event_constraint *amd_no_constraints(struct cpu_hw_events *cpuc,
						   int idx, struct perf_event *event)
{
	return &unconstrained;
}

__init int amd_pmu_init(void)
{
	/* K7 and later */
	if (boot_cpu_data.x86 < 6)
		return -ENODEV;

	x86_pmu = amd_legacy_pmu;
	amd_pmu_init_core_ext();
	if (!x86_pmu.get_event_constraints)
		x86_pmu.get_event_constraints = amd_no_constraints;

	/* one CPU has nothing to share a northbridge counter with */
	if (num_possible_cpus() == 1)
		x86_pmu.amd_nb_constraints = 0;

	amd_pmu_load_event_tables();
	return 0;
}

/* Rewrite every active PERF_CTL with the current host/guest mask. */
static void amd_pmu_reprogram(void)
{
	if (x86_pmu.version >= 2) {
		amd_pmu_v2_disable_all();
		amd_pmu_enable_active();
		amd_pmu_v2_enable_all(0);
		return;
	}
	amd_pmu_disable_all();
	amd_pmu_enable_all(0);
}

/* SVM on: host-only events may now be told apart; count as asked. */
void amd_pmu_enable_virt(void)
{
	this_cpu_write(cpu_hw_events.perf_ctr_virt_mask, 0);
	amd_pmu_reprogram();
}
EXPORT_SYMBOL_GPL(amd_pmu_enable_virt);

/*
 * SVM off: the host-only bit would stop a counter, so it is masked (a
 * guest-only event then counts nothing, as it should).
 */
void amd_pmu_disable_virt(void)
{
	this_cpu_write(cpu_hw_events.perf_ctr_virt_mask, AMD64_EVENTSEL_HOSTONLY);
	amd_pmu_reprogram();
}
EXPORT_SYMBOL_GPL(amd_pmu_disable_virt);
