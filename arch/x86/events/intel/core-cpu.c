// SPDX-License-Identifier: GPL-2.0
/*
 * Intel core PMU: per-CPU state over CPU hotplug, the context-switch
 * hooks, and the MSR values KVM switches on VM entry and exit.
 *
 * Per CPU: the shared extra registers (OFFCORE_RSP, LDLAT, FRONTEND,
 * LBR_SELECT) and, with the HT erratum, the exclusive-counter state.
 * Both are allocated for every CPU in prepare (may sleep), and in
 * starting (atomic, on the CPU) the threads of one core that share them
 * switch to the first sibling's copy; the unused copy is freed by the
 * framework later (kfree_on_online).  A refcount frees the shared copy
 * with its last user.
 *
 * Locking: prepare/dead run under the hotplug lock on another CPU;
 * starting/dying on the CPU itself with interrupts off.
 */
/* Messages keep the prefix 6.1 gave them (its intel/core.o). */
#define pr_fmt(fmt) "core: " fmt

#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <asm/cpu_device_id.h>
#include <asm/kvm_host.h>
#include "core.h"

static struct intel_shared_regs *intel_alloc_shared_regs(int cpu)
{
	struct intel_shared_regs *regs;
	int i;

	regs = kzalloc_node(sizeof(*regs), GFP_KERNEL, cpu_to_node(cpu));
	if (!regs)
		return NULL;
	for (i = 0; i < EXTRA_REG_MAX; i++)
		raw_spin_lock_init(&regs->regs[i].lock);
	regs->core_id = -1;
	return regs;
}

static struct intel_excl_cntrs *intel_alloc_excl_cntrs(int cpu)
{
	struct intel_excl_cntrs *excl;

	excl = kzalloc_node(sizeof(*excl), GFP_KERNEL, cpu_to_node(cpu));
	if (!excl)
		return NULL;
	raw_spin_lock_init(&excl->lock);
	excl->core_id = -1;
	return excl;
}

/* Also used by the framework for the fake cpuc of group validation. */
int intel_cpuc_prepare(struct cpu_hw_events *cpuc, int cpu)
{
	cpuc->pebs_record_size = x86_pmu.pebs_record_size;

	if (is_hybrid() || x86_pmu.extra_regs || x86_pmu.lbr_sel_map) {
		cpuc->shared_regs = intel_alloc_shared_regs(cpu);
		if (!cpuc->shared_regs)
			return -ENOMEM;
	}

	if (x86_pmu.flags & (PMU_FL_EXCL_CNTRS | PMU_FL_TFA)) {
		cpuc->constraint_list =
			kcalloc_node(X86_PMC_IDX_MAX,
				     sizeof(struct event_constraint),
				     GFP_KERNEL, cpu_to_node(cpu));
		if (!cpuc->constraint_list)
			goto fail;
	}

	if (x86_pmu.flags & PMU_FL_EXCL_CNTRS) {
		cpuc->excl_cntrs = intel_alloc_excl_cntrs(cpu);
		if (!cpuc->excl_cntrs)
			goto fail;
		cpuc->excl_thread_id = 0;
	}
	return 0;

fail:
	kfree(cpuc->constraint_list);
	cpuc->constraint_list = NULL;
	kfree(cpuc->shared_regs);
	cpuc->shared_regs = NULL;
	return -ENOMEM;
}

int intel_pmu_cpu_prepare(int cpu)
{
	return intel_cpuc_prepare(&per_cpu(cpu_hw_events, cpu), cpu);
}

void intel_free_excl_cntrs(struct cpu_hw_events *cpuc)
{
	struct intel_excl_cntrs *excl = cpuc->excl_cntrs;

	if (excl) {
		if (excl->core_id == -1 || --excl->refcnt == 0)
			kfree(excl);
		cpuc->excl_cntrs = NULL;
	}
	kfree(cpuc->constraint_list);
	cpuc->constraint_list = NULL;
}

void intel_cpuc_finish(struct cpu_hw_events *cpuc)
{
	struct intel_shared_regs *regs = cpuc->shared_regs;

	if (regs) {
		if (regs->core_id == -1 || --regs->refcnt == 0)
			kfree(regs);
		cpuc->shared_regs = NULL;
	}
	intel_free_excl_cntrs(cpuc);
}

/* Hybrid: which PMU this CPU belongs to; the first of a kind checks it. */
static bool intel_hybrid_cpu_online(int cpu)
{
	struct cpu_hw_events *cpuc = &per_cpu(cpu_hw_events, cpu);
	u8 type = get_this_hybrid_cpu_type();
	struct x86_hybrid_pmu *pmu = NULL;
	int i;

	if (!type && x86_pmu.get_hybrid_cpu_type)
		type = x86_pmu.get_hybrid_cpu_type();

	for (i = 0; i < x86_pmu.num_hybrid_pmus; i++) {
		if (x86_pmu.hybrid_pmu[i].cpu_type == type) {
			pmu = &x86_pmu.hybrid_pmu[i];
			break;
		}
	}
	if (WARN_ON_ONCE(!pmu || pmu->pmu.type == -1)) {
		cpuc->pmu = NULL;
		return false;
	}

	if (cpumask_empty(&pmu->supported_cpus)) {
		if (!check_hw_exists(&pmu->pmu, pmu->num_counters,
				     pmu->num_counters_fixed))
			return false;
		pr_info("%s PMU driver: ", pmu->name);
		if (pmu->intel_cap.pebs_output_pt_available)
			pr_cont("PEBS-via-PT ");
		pr_cont("\n");
		x86_pmu_show_pmu_cap(pmu->num_counters, pmu->num_counters_fixed,
				     pmu->intel_ctrl);
	}

	cpumask_set_cpu(cpu, &pmu->supported_cpus);
	cpuc->pmu = &pmu->pmu;
	x86_pmu_update_cpu_context(&pmu->pmu, cpu);
	return true;
}

/* Adopt the shared registers and exclusive state of an online sibling. */
static void intel_share_with_siblings(struct cpu_hw_events *cpuc, int cpu)
{
	int core_id = topology_core_id(cpu);
	int i;

	if (!(x86_pmu.flags & PMU_FL_NO_HT_SHARING)) {
		for_each_cpu(i, topology_sibling_cpumask(cpu)) {
			struct intel_shared_regs *theirs =
				per_cpu(cpu_hw_events, i).shared_regs;

			if (theirs && theirs->core_id == core_id) {
				cpuc->kfree_on_online[0] = cpuc->shared_regs;
				cpuc->shared_regs = theirs;
				break;
			}
		}
		cpuc->shared_regs->core_id = core_id;
		cpuc->shared_regs->refcnt++;
	}

	if (x86_pmu.lbr_sel_map)
		cpuc->lbr_sel = &cpuc->shared_regs->regs[EXTRA_REG_LBR];

	if (!(x86_pmu.flags & PMU_FL_EXCL_CNTRS))
		return;

	for_each_cpu(i, topology_sibling_cpumask(cpu)) {
		struct cpu_hw_events *sibling = &per_cpu(cpu_hw_events, i);
		struct intel_excl_cntrs *theirs = sibling->excl_cntrs;

		if (theirs && theirs->core_id == core_id) {
			cpuc->kfree_on_online[1] = cpuc->excl_cntrs;
			cpuc->excl_cntrs = theirs;
			if (!sibling->excl_thread_id)
				cpuc->excl_thread_id = 1;
			break;
		}
	}
	cpuc->excl_cntrs->core_id = core_id;
	cpuc->excl_cntrs->refcnt++;
}

void intel_pmu_cpu_starting(int cpu)
{
	struct cpu_hw_events *cpuc = &per_cpu(cpu_hw_events, cpu);

	if (is_hybrid() && !intel_hybrid_cpu_online(cpu))
		return;

	init_debug_store_on_cpu(cpu);

	/* Some CPUs come out of reset (or firmware) with LBRs running. */
	if (!static_cpu_has(X86_FEATURE_ARCH_LBR) && x86_pmu.lbr_nr)
		msr_clear_bit(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR_BIT);
	intel_pmu_lbr_reset();
	cpuc->lbr_sel = NULL;

	if (x86_pmu.flags & PMU_FL_TFA) {
		WARN_ON_ONCE(cpuc->tfa_shadow);
		cpuc->tfa_shadow = ~0ULL;	/* forces the first write */
		intel_set_tfa(cpuc, false);
	}

	if (x86_pmu.version > 1) {
		if (x86_pmu.attr_freeze_on_smi)
			msr_set_bit(MSR_IA32_DEBUGCTLMSR,
				    DEBUGCTLMSR_FREEZE_IN_SMM_BIT);
		else
			msr_clear_bit(MSR_IA32_DEBUGCTLMSR,
				      DEBUGCTLMSR_FREEZE_IN_SMM_BIT);
	}

	/*
	 * Perf metrics only if every CPU has them (not checked on hybrid
	 * parts: there the capability bit says nothing about the model).
	 */
	if (!is_hybrid() && x86_pmu.intel_cap.perf_metrics) {
		union perf_capabilities cap;

		rdmsrl(MSR_IA32_PERF_CAPABILITIES, cap.capabilities);
		if (!cap.perf_metrics) {
			x86_pmu.intel_cap.perf_metrics = 0;
			x86_pmu.intel_ctrl &= ~BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS);
		}
	}

	if (cpuc->shared_regs)
		intel_share_with_siblings(cpuc, cpu);
}

void intel_pmu_cpu_dying(int cpu)
{
	fini_debug_store_on_cpu(cpu);
}

void intel_pmu_cpu_dead(int cpu)
{
	struct cpu_hw_events *cpuc = &per_cpu(cpu_hw_events, cpu);

	intel_cpuc_finish(cpuc);
	if (is_hybrid() && cpuc->pmu)
		cpumask_clear_cpu(cpu, &hybrid_pmu(cpuc->pmu)->supported_cpus);
}

void intel_pmu_sched_task(struct perf_event_context *ctx, bool sched_in)
{
	intel_pmu_pebs_sched_task(ctx, sched_in);
	intel_pmu_lbr_sched_task(ctx, sched_in);
}

void intel_pmu_swap_task_ctx(struct perf_event_context *prev,
			     struct perf_event_context *next)
{
	intel_pmu_lbr_swap_task_ctx(prev, next);
}

u8 adl_get_hybrid_cpu_type(void)
{
	return hybrid_big;
}

/* ---- KVM: MSR values to load atomically on VM entry/exit ---- */

static void intel_guest_msr(struct perf_guest_switch_msr *arr, int *nr,
			    u32 msr, u64 host, u64 guest)
{
	arr[*nr].msr = msr;
	arr[*nr].host = host;
	arr[*nr].guest = guest;
	(*nr)++;
}

/*
 * GLOBAL_CTRL: the host runs its host-or-both counters, the guest its
 * guest-or-both counters, never host PEBS counters (PEBS writes through
 * virtual addresses).  With PEBS, either PEBS is switched off in the
 * guest (parts without isolation), or, with EPT-friendly PEBS, the DS
 * area and data config are the guest's and the guest's own PEBS counters
 * are let through when the host uses no PEBS itself.
 */
struct perf_guest_switch_msr *intel_guest_get_msrs(int *nr, void *data)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	struct perf_guest_switch_msr *arr = cpuc->guest_switch_msrs;
	struct kvm_pmu *kvm_pmu = data;
	u64 in_use = hybrid(cpuc->pmu, intel_ctrl);
	u64 host_pebs = cpuc->pebs_enabled & x86_pmu.pebs_capable;
	u64 guest_pebs;

	*nr = 0;
	intel_guest_msr(arr, nr, MSR_CORE_PERF_GLOBAL_CTRL,
			in_use & ~cpuc->intel_ctrl_guest_mask,
			in_use & ~cpuc->intel_ctrl_host_mask & ~host_pebs);

	if (!x86_pmu.pebs)
		return arr;

	if (x86_pmu.pebs_no_isolation) {
		intel_guest_msr(arr, nr, MSR_IA32_PEBS_ENABLE,
				cpuc->pebs_enabled, 0);
		return arr;
	}

	if (!kvm_pmu || !x86_pmu.pebs_ept)
		return arr;

	intel_guest_msr(arr, nr, MSR_IA32_DS_AREA, (unsigned long)cpuc->ds,
			kvm_pmu->ds_area);
	if (x86_pmu.intel_cap.pebs_baseline)
		intel_guest_msr(arr, nr, MSR_PEBS_DATA_CFG, cpuc->pebs_data_cfg,
				kvm_pmu->pebs_data_cfg);

	/*
	 * The guest's PEBS counters: ones it enabled, guest-only, and mapped
	 * to the same host counter (the record reports the host's status
	 * bits).  None while the host samples with PEBS itself.
	 */
	guest_pebs = host_pebs & in_use & kvm_pmu->pebs_enable &
		     ~cpuc->intel_ctrl_host_mask & cpuc->intel_ctrl_guest_mask &
		     ~kvm_pmu->host_cross_mapped_mask;
	if (host_pebs & ~cpuc->intel_ctrl_guest_mask)
		guest_pebs = 0;

	/* PEBS_ENABLE stays: GLOBAL_CTRL alone gates the counters. */
	arr[0].guest |= guest_pebs;
	return arr;
}

/* Version 1: each counter's event select, with EN per side. */
struct perf_guest_switch_msr *core_guest_get_msrs(int *nr, void *data)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	struct perf_guest_switch_msr *arr = cpuc->guest_switch_msrs;
	int idx;

	for (idx = 0; idx < x86_pmu.num_counters; idx++) {
		struct perf_event *event = cpuc->events[idx];
		u64 sel = 0;

		arr[idx].msr = x86_pmu_config_addr(idx);
		if (test_bit(idx, cpuc->active_mask))
			sel = event->hw.config | ARCH_PERFMON_EVENTSEL_ENABLE;
		arr[idx].host = sel;
		arr[idx].guest = sel;
		if (!sel)
			continue;
		if (event->attr.exclude_host)
			arr[idx].host &= ~ARCH_PERFMON_EVENTSEL_ENABLE;
		else if (event->attr.exclude_guest)
			arr[idx].guest &= ~ARCH_PERFMON_EVENTSEL_ENABLE;
	}
	*nr = x86_pmu.num_counters;
	return arr;
}
