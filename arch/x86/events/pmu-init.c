// SPDX-License-Identifier: GPL-2.0
/*
 * x86 PMU framework: boot, CPU hotplug and the API other subsystems call.
 *
 * At early_initcall time init_hw_perf_events() lets the vendor driver
 * (intel_pmu_init(), amd_pmu_init(), zhaoxin_pmu_init()) fill x86_pmu,
 * checks that the counters really exist (an emulator may drop every MSR
 * write), points the static calls at the driver's methods and registers
 * the "cpu" PMU, or one PMU per core type on a hybrid part.
 *
 * Also here: perf_get_x86_pmu_capability(), perf_get_hw_event_config()
 * and perf_guest_get_msrs() for KVM, x86_get_pmu() for LBR/PEBS, and the
 * microcode hook.
 *
 * Locking: x86_pmu is written here, before any event exists, and is
 * read-only afterwards.  The hotplug callbacks run on (or for) one CPU.
 */
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include "framework.h"

struct x86_pmu x86_pmu __read_mostly;

DEFINE_PER_CPU(struct cpu_hw_events, cpu_hw_events) = {
	.enabled = 1,
	.pmu = &x86_core_pmu,
};

DEFINE_STATIC_KEY_FALSE(perf_is_hybrid);

/* Cache event tables, filled by the vendor driver (0: none, -1: invalid). */
u64 __read_mostly hw_cache_event_ids
				[PERF_COUNT_HW_CACHE_MAX]
				[PERF_COUNT_HW_CACHE_OP_MAX]
				[PERF_COUNT_HW_CACHE_RESULT_MAX];
u64 __read_mostly hw_cache_extra_regs
				[PERF_COUNT_HW_CACHE_MAX]
				[PERF_COUNT_HW_CACHE_OP_MAX]
				[PERF_COUNT_HW_CACHE_RESULT_MAX];

/* Constraints every driver shares; "unconstrained" is set at boot. */
struct event_constraint emptyconstraint;
struct event_constraint unconstrained;

/*
 * The driver's methods, called through static calls.  A NULL one is
 * skipped by static_call_cond(); guest_get_msrs() answers NULL even when
 * no driver loaded (KVM calls it anyway).
 */
DEFINE_STATIC_CALL_NULL(x86_pmu_handle_irq, *x86_pmu.handle_irq);
DEFINE_STATIC_CALL_NULL(x86_pmu_disable_all, *x86_pmu.disable_all);
DEFINE_STATIC_CALL_NULL(x86_pmu_enable_all, *x86_pmu.enable_all);
DEFINE_STATIC_CALL_NULL(x86_pmu_enable, *x86_pmu.enable);
DEFINE_STATIC_CALL_NULL(x86_pmu_disable, *x86_pmu.disable);
DEFINE_STATIC_CALL_NULL(x86_pmu_assign, *x86_pmu.assign);
DEFINE_STATIC_CALL_NULL(x86_pmu_add, *x86_pmu.add);
DEFINE_STATIC_CALL_NULL(x86_pmu_del, *x86_pmu.del);
DEFINE_STATIC_CALL_NULL(x86_pmu_read, *x86_pmu.read);
DEFINE_STATIC_CALL_NULL(x86_pmu_set_period, *x86_pmu.set_period);
DEFINE_STATIC_CALL_NULL(x86_pmu_update, *x86_pmu.update);
DEFINE_STATIC_CALL_NULL(x86_pmu_limit_period, *x86_pmu.limit_period);
DEFINE_STATIC_CALL_NULL(x86_pmu_schedule_events, *x86_pmu.schedule_events);
DEFINE_STATIC_CALL_NULL(x86_pmu_get_event_constraints, *x86_pmu.get_event_constraints);
DEFINE_STATIC_CALL_NULL(x86_pmu_put_event_constraints, *x86_pmu.put_event_constraints);
DEFINE_STATIC_CALL_NULL(x86_pmu_start_scheduling, *x86_pmu.start_scheduling);
DEFINE_STATIC_CALL_NULL(x86_pmu_commit_scheduling, *x86_pmu.commit_scheduling);
DEFINE_STATIC_CALL_NULL(x86_pmu_stop_scheduling, *x86_pmu.stop_scheduling);
DEFINE_STATIC_CALL_NULL(x86_pmu_sched_task, *x86_pmu.sched_task);
DEFINE_STATIC_CALL_NULL(x86_pmu_swap_task_ctx, *x86_pmu.swap_task_ctx);
DEFINE_STATIC_CALL_NULL(x86_pmu_drain_pebs, *x86_pmu.drain_pebs);
DEFINE_STATIC_CALL_NULL(x86_pmu_pebs_aliases, *x86_pmu.pebs_aliases);
DEFINE_STATIC_CALL_RET0(x86_pmu_guest_get_msrs, *x86_pmu.guest_get_msrs);

static void x86_pmu_point_static_calls(void)
{
	static_call_update(x86_pmu_handle_irq, x86_pmu.handle_irq);
	static_call_update(x86_pmu_disable_all, x86_pmu.disable_all);
	static_call_update(x86_pmu_enable_all, x86_pmu.enable_all);
	static_call_update(x86_pmu_enable, x86_pmu.enable);
	static_call_update(x86_pmu_disable, x86_pmu.disable);
	static_call_update(x86_pmu_assign, x86_pmu.assign);
	static_call_update(x86_pmu_add, x86_pmu.add);
	static_call_update(x86_pmu_del, x86_pmu.del);
	static_call_update(x86_pmu_read, x86_pmu.read);
	static_call_update(x86_pmu_set_period, x86_pmu.set_period);
	static_call_update(x86_pmu_update, x86_pmu.update);
	static_call_update(x86_pmu_limit_period, x86_pmu.limit_period);
	static_call_update(x86_pmu_schedule_events, x86_pmu.schedule_events);
	static_call_update(x86_pmu_get_event_constraints,
			   x86_pmu.get_event_constraints);
	static_call_update(x86_pmu_put_event_constraints,
			   x86_pmu.put_event_constraints);
	static_call_update(x86_pmu_start_scheduling, x86_pmu.start_scheduling);
	static_call_update(x86_pmu_commit_scheduling, x86_pmu.commit_scheduling);
	static_call_update(x86_pmu_stop_scheduling, x86_pmu.stop_scheduling);
	static_call_update(x86_pmu_sched_task, x86_pmu.sched_task);
	static_call_update(x86_pmu_swap_task_ctx, x86_pmu.swap_task_ctx);
	static_call_update(x86_pmu_drain_pebs, x86_pmu.drain_pebs);
	static_call_update(x86_pmu_pebs_aliases, x86_pmu.pebs_aliases);
	static_call_update(x86_pmu_guest_get_msrs, x86_pmu.guest_get_msrs);
}

/* The default read: fold the counter into the event. */
static void x86_pmu_read_counter(struct perf_event *event)
{
	static_call(x86_pmu_update)(event);
}

/*
 * Does the PMU the driver describes answer?  Counters a firmware left
 * enabled are reported but tolerated; a counter that does not keep what
 * we write (some hypervisors ignore the MSRs) means there is no PMU.
 * Returns false (after finishing the boot line) when the PMU is unusable.
 */
bool check_hw_exists(struct pmu *pmu, int num_counters, int num_counters_fixed)
{
	int i, spare = -1, busy_msr = -1, msr = -1;
	u64 val = 0, busy_val = 0, probe = ~0ULL;

	for (i = 0; i < num_counters; i++) {
		msr = x86_pmu_config_addr(i);
		if (rdmsrl_safe(msr, &val))
			goto unusable;
		if (val & ARCH_PERFMON_EVENTSEL_ENABLE) {
			busy_msr = msr;
			busy_val = val;
		} else {
			spare = i;
		}
	}

	if (num_counters_fixed) {
		msr = MSR_ARCH_PERFMON_FIXED_CTR_CTRL;
		if (rdmsrl_safe(msr, &val))
			goto unusable;
		for (i = 0; i < num_counters_fixed; i++) {
			if (fixed_counter_disabled(i, pmu))
				continue;
			if (val & (0x3ULL << (4 * i))) {
				busy_msr = msr;
				busy_val = val;
			}
		}
	}

	/* With every counter taken, nothing is left to test or to use. */
	if (spare < 0) {
		msr = -1;
		goto unusable;
	}

	msr = x86_pmu_event_addr(spare);
	if (rdmsrl_safe(msr, &val))
		goto unusable;
	val ^= 0xffffUL;
	if (wrmsrl_safe(msr, val) || rdmsrl_safe(msr, &probe) || probe != val)
		goto unusable;

	if (busy_msr >= 0) {
		pr_cont("Broken BIOS detected, complain to your hardware vendor.\n");
		pr_err(FW_BUG "the BIOS has corrupted hw-PMU resources (MSR %x is %llx)\n",
		       busy_msr, busy_val);
	}
	return true;

unusable:
	if (boot_cpu_has(X86_FEATURE_HYPERVISOR)) {
		pr_cont("PMU not available due to virtualization, using software events only.\n");
	} else {
		pr_cont("Broken PMU hardware detected, using software events only.\n");
		pr_err("Failed to access perfctr msr (MSR %x is %llx)\n", msr, probe);
	}
	return false;
}

/* Without a local APIC the counters count but cannot interrupt. */
static void __init x86_pmu_check_apic(void)
{
	if (boot_cpu_has(X86_FEATURE_APIC))
		return;

	x86_pmu.apic = 0;
	pr_info("no APIC, boot with the \"lapic\" boot parameter to force-enable it.\n");
	pr_info("no hardware sampling interrupt available.\n");
	x86_core_pmu.capabilities |= PERF_PMU_CAP_NO_INTERRUPT;
}

void x86_pmu_show_pmu_cap(int num_counters, int num_counters_fixed,
			  u64 intel_ctrl)
{
	u64 fixed = intel_ctrl & (GENMASK_ULL(num_counters_fixed - 1, 0) <<
				  INTEL_PMC_IDX_FIXED);

	if (!num_counters_fixed)
		fixed = 0;
	pr_info("... version:                %d\n", x86_pmu.version);
	pr_info("... bit width:              %d\n", x86_pmu.cntval_bits);
	pr_info("... generic registers:      %d\n", num_counters);
	pr_info("... value mask:             %016llx\n", x86_pmu.cntval_mask);
	pr_info("... max period:             %016llx\n", x86_pmu.max_period);
	pr_info("... fixed-purpose events:   %lu\n", (unsigned long)hweight64(fixed));
	pr_info("... event mask:             %016llx\n", intel_ctrl);
}

/*
 * The core gives every possible CPU the context of the first PMU
 * registered; on a hybrid part each CPU's context belongs to the PMU of
 * its own core type.
 */
void x86_pmu_update_cpu_context(struct pmu *pmu, int cpu)
{
	struct perf_cpu_context *cpuctx;

	if (!pmu->pmu_cpu_context)
		return;
	cpuctx = per_cpu_ptr(pmu->pmu_cpu_context, cpu);
	cpuctx->ctx.pmu = pmu;
}

struct pmu *x86_get_pmu(unsigned int cpu)
{
	struct cpu_hw_events *cpuc = &per_cpu(cpu_hw_events, cpu);

	/* a hybrid CPU whose core type never came online has none */
	if (WARN_ON_ONCE(!cpuc->pmu))
		return &x86_core_pmu;
	return cpuc->pmu;
}

/* CPU hotplug: the driver's per-CPU state follows the CPU. */
static int x86_pmu_prepare_cpu(unsigned int cpu)
{
	struct cpu_hw_events *cpuc = &per_cpu(cpu_hw_events, cpu);

	memset(cpuc->kfree_on_online, 0, sizeof(cpuc->kfree_on_online));
	return x86_pmu.cpu_prepare ? x86_pmu.cpu_prepare(cpu) : 0;
}

static int x86_pmu_dead_cpu(unsigned int cpu)
{
	if (x86_pmu.cpu_dead)
		x86_pmu.cpu_dead(cpu);
	return 0;
}

static int x86_pmu_starting_cpu(unsigned int cpu)
{
	if (x86_pmu.cpu_starting)
		x86_pmu.cpu_starting(cpu);
	return 0;
}

static int x86_pmu_dying_cpu(unsigned int cpu)
{
	if (x86_pmu.cpu_dying)
		x86_pmu.cpu_dying(cpu);
	return 0;
}

/* Memory a starting CPU gave up (shared per-core state) is freed here. */
static int x86_pmu_online_cpu(unsigned int cpu)
{
	struct cpu_hw_events *cpuc = &per_cpu(cpu_hw_events, cpu);
	int i;

	for (i = 0; i < X86_PERF_KFREE_MAX; i++) {
		kfree(cpuc->kfree_on_online[i]);
		cpuc->kfree_on_online[i] = NULL;
	}
	return 0;
}

static int __init x86_pmu_vendor_init(void)
{
	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_INTEL:
		return intel_pmu_init();
	case X86_VENDOR_AMD:
		return amd_pmu_init();
	case X86_VENDOR_HYGON: {
		int err = amd_pmu_init();

		x86_pmu.name = "HYGON";
		return err;
	}
	case X86_VENDOR_ZHAOXIN:
	case X86_VENDOR_CENTAUR:
		return zhaoxin_pmu_init();
	default:
		return -ENOTSUPP;
	}
}

/* Defaults for the methods a driver may leave out. */
static void __init x86_pmu_fill_defaults(void)
{
	if (!x86_pmu.intel_ctrl)
		x86_pmu.intel_ctrl = (1 << x86_pmu.num_counters) - 1;
	if (!x86_pmu.read)
		x86_pmu.read = x86_pmu_read_counter;
	if (!x86_pmu.guest_get_msrs)
		x86_pmu.guest_get_msrs = (void *)&__static_call_return0;
	if (!x86_pmu.set_period)
		x86_pmu.set_period = x86_perf_event_set_period;
	if (!x86_pmu.update)
		x86_pmu.update = x86_perf_event_update;

	unconstrained = (struct event_constraint)
		__EVENT_CONSTRAINT(0, (1ULL << x86_pmu.num_counters) - 1,
				   0, x86_pmu.num_counters, 0, 0);
}

static int __init x86_pmu_register_hybrid(void)
{
	u8 this_type = get_this_hybrid_cpu_type();
	int i, err = 0;

	if (!this_type && x86_pmu.get_hybrid_cpu_type)
		this_type = x86_pmu.get_hybrid_cpu_type();

	for (i = 0; i < x86_pmu.num_hybrid_pmus; i++) {
		struct x86_hybrid_pmu *h = &x86_pmu.hybrid_pmu[i];

		h->pmu = x86_core_pmu;
		h->pmu.type = -1;
		h->pmu.attr_update = x86_pmu.attr_update;
		h->pmu.capabilities |= PERF_PMU_CAP_HETEROGENEOUS_CPUS |
				       PERF_PMU_CAP_EXTENDED_HW_TYPE;
		/* the big cores keep PERF_TYPE_RAW, as on a non-hybrid part */
		err = perf_pmu_register(&h->pmu, h->name,
					h->cpu_type == hybrid_big ? PERF_TYPE_RAW : -1);
		if (err)
			break;
		if (h->cpu_type == this_type)
			x86_pmu_update_cpu_context(&h->pmu, raw_smp_processor_id());
	}
	if (!err)
		return 0;

	while (--i >= 0)
		perf_pmu_unregister(&x86_pmu.hybrid_pmu[i].pmu);
	pr_warn("Failed to register hybrid PMUs\n");
	kfree(x86_pmu.hybrid_pmu);
	x86_pmu.hybrid_pmu = NULL;
	x86_pmu.num_hybrid_pmus = 0;
	return err;
}

static int __init init_hw_perf_events(void)
{
	struct x86_pmu_quirk *quirk;
	int err;

	pr_info("Performance Events: ");
	if (x86_pmu_vendor_init()) {
		pr_cont("no PMU driver, software events only.\n");
		goto no_pmu;
	}

	x86_pmu_check_apic();
	if (!check_hw_exists(&x86_core_pmu, x86_pmu.num_counters,
			     x86_pmu.num_counters_fixed))
		goto no_pmu;

	pr_cont("%s PMU driver.\n", x86_pmu.name);

	/* user-space rdpmc of its own mmap'ed events, by default */
	x86_pmu.attr_rdpmc = 1;

	for (quirk = x86_pmu.quirks; quirk; quirk = quirk->next)
		quirk->func();

	x86_pmu_fill_defaults();
	perf_events_lapic_init();
	x86_pmu_nmi_init();

	x86_pmu_format_group.attrs = x86_pmu.format_attrs;
	if (!x86_pmu.events_sysfs_show)
		x86_pmu_events_group.attrs = x86_pmu_empty_attrs;
	x86_core_pmu.attr_update = x86_pmu.attr_update;

	if (!is_hybrid())
		x86_pmu_show_pmu_cap(x86_pmu.num_counters,
				     x86_pmu.num_counters_fixed,
				     x86_pmu.intel_ctrl);

	x86_pmu_point_static_calls();

	err = cpuhp_setup_state(CPUHP_PERF_X86_PREPARE, "perf/x86:prepare",
				x86_pmu_prepare_cpu, x86_pmu_dead_cpu);
	if (err)
		return err;
	err = cpuhp_setup_state(CPUHP_AP_PERF_X86_STARTING, "perf/x86:starting",
				x86_pmu_starting_cpu, x86_pmu_dying_cpu);
	if (err)
		goto remove_prepare;
	err = cpuhp_setup_state(CPUHP_AP_PERF_X86_ONLINE, "perf/x86:online",
				x86_pmu_online_cpu, NULL);
	if (err)
		goto remove_starting;

	if (is_hybrid())
		err = x86_pmu_register_hybrid();
	else
		err = perf_pmu_register(&x86_core_pmu, "cpu", PERF_TYPE_RAW);
	if (!err)
		return 0;

	cpuhp_remove_state(CPUHP_AP_PERF_X86_ONLINE);
remove_starting:
	cpuhp_remove_state(CPUHP_AP_PERF_X86_STARTING);
remove_prepare:
	cpuhp_remove_state(CPUHP_PERF_X86_PREPARE);
	memset(&x86_pmu, 0, sizeof(x86_pmu));
	return err;

no_pmu:
	memset(&x86_pmu, 0, sizeof(x86_pmu));
	return 0;
}
early_initcall(init_hw_perf_events);

void perf_check_microcode(void)
{
	if (x86_pmu.check_microcode)
		x86_pmu.check_microcode();
}

/* For KVM: the PMU it may virtualise (not enumerated on hybrid parts). */
void perf_get_x86_pmu_capability(struct x86_pmu_capability *cap)
{
	if (WARN_ON_ONCE(cpu_feature_enabled(X86_FEATURE_HYBRID_CPU)) ||
	    !x86_pmu_initialized()) {
		memset(cap, 0, sizeof(*cap));
		return;
	}

	cap->version = x86_pmu.version;
	cap->num_counters_gp = x86_pmu.num_counters;
	cap->num_counters_fixed = x86_pmu.num_counters_fixed;
	cap->bit_width_gp = x86_pmu.cntval_bits;
	cap->bit_width_fixed = x86_pmu.cntval_bits;
	cap->events_mask = (unsigned int)x86_pmu.events_maskl;
	cap->events_mask_len = x86_pmu.events_mask_len;
	cap->pebs_ept = x86_pmu.pebs_ept;
}
EXPORT_SYMBOL_GPL(perf_get_x86_pmu_capability);

/* For KVM: the raw encoding of a PERF_COUNT_HW_* event, 0 if none. */
u64 perf_get_hw_event_config(int hw_event)
{
	int max = x86_pmu.max_events;

	if (hw_event < 0 || hw_event >= max)
		return 0;
	return x86_pmu.event_map(array_index_nospec(hw_event, max));
}
EXPORT_SYMBOL_GPL(perf_get_hw_event_config);

/* For KVM: the MSRs to switch on VM entry and exit. */
struct perf_guest_switch_msr *perf_guest_get_msrs(int *nr, void *data)
{
	return static_call(x86_pmu_guest_get_msrs)(nr, data);
}
EXPORT_SYMBOL_GPL(perf_guest_get_msrs);
