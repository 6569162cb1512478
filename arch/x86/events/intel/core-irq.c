// SPDX-License-Identifier: GPL-2.0
/*
 * Intel core PMU: turning counters on and off, reading them, and the PMI.
 *
 * Version 2 and later gate every counter through IA32_PERF_GLOBAL_CTRL:
 * disable_all() clears it, enable_all() writes the set of counters in
 * use (less those reserved for a guest).  General counters are switched
 * by their event select's EN bit, fixed counters by a nibble each in
 * IA32_FIXED_CTR_CTRL (kept in cpuc->fixed_ctrl_val, written on the next
 * enable_all() only when it changed).  Version 1 has neither: every
 * counter is switched by its own event select (core_pmu_*).
 *
 * The topdown events of Icelake and later (fixed counter 3 "slots" and
 * the eight-bit fractions of IA32_PERF_METRICS) are read together, so
 * reading one updates every active topdown event.
 *
 * The PMI: freeze (GLOBAL_CTRL = 0), read GLOBAL_STATUS, acknowledge what
 * was read, hand each overflowed counter to the core, and repeat until
 * the status reads 0.  When the LVT's PMI mask is cleared again depends
 * on the part: early (before handling) on old parts, after re-enabling
 * on Haswell and later big cores ("late ack"), before re-enabling on
 * Tremont-based small cores ("mid ack").
 *
 * Locking: all of it runs on the CPU it touches with interrupts off or
 * in NMI context.
 */
/* Messages keep the prefix 6.1 gave them (its intel/core.o). */
#define pr_fmt(fmt) "core: " fmt

#include <linux/perf_event.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <asm/apic.h>
#include <asm/perf_event.h>
#include "core.h"

/* Status bits that come with an overflow but are not one. */
#define INTEL_STATUS_NOT_OVERFLOW	(GLOBAL_STATUS_COND_CHG | \
					 GLOBAL_STATUS_ASIF | \
					 GLOBAL_STATUS_LBRS_FROZEN)

/* A PMI that keeps finding new overflows is stuck after this many rounds. */
#define INTEL_PMI_MAX_ROUNDS		100

static inline u64 intel_read_global_status(void)
{
	u64 status;

	rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, status);
	return status;
}

static inline void intel_ack_global_status(u64 bits)
{
	wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, bits);
}

static __always_inline void intel_freeze_counters(bool with_bts)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);

	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	if (with_bts && test_bit(INTEL_PMC_IDX_FIXED_BTS, cpuc->active_mask))
		intel_pmu_disable_bts();
}

void intel_pmu_disable_all(void)
{
	intel_freeze_counters(true);
	intel_pmu_pebs_disable_all();
	intel_pmu_lbr_disable_all();
}

static void intel_unfreeze_counters(bool from_pmi)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	u64 in_use = hybrid(cpuc->pmu, intel_ctrl);

	intel_pmu_lbr_enable_all(from_pmi);

	if (cpuc->active_fixed_ctrl_val != cpuc->fixed_ctrl_val) {
		wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, cpuc->fixed_ctrl_val);
		cpuc->active_fixed_ctrl_val = cpuc->fixed_ctrl_val;
	}

	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL,
	       in_use & ~cpuc->intel_ctrl_guest_mask);

	if (test_bit(INTEL_PMC_IDX_FIXED_BTS, cpuc->active_mask)) {
		struct perf_event *bts = cpuc->events[INTEL_PMC_IDX_FIXED_BTS];

		if (!WARN_ON_ONCE(!bts))
			intel_pmu_enable_bts(bts->hw.config);
	}
}

void intel_pmu_enable_all(int added)
{
	intel_pmu_pebs_enable_all();
	intel_unfreeze_counters(false);
}

/*
 * Nehalem and Westmere errata AAK100, AAP53, BD53: adding counters needs
 * the four general counters reset by running three (in practice four)
 * non-counting events on them.  The live counts are saved first and
 * reloaded after.
 */
static const u64 intel_nhm_reset_events[4] = {
	0x4300b5, 0x4300d2, 0x4300b1, 0x4300b1,
};

static void intel_nhm_reset_counters(void)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int i;

	for (i = 0; i < 4; i++)
		if (cpuc->events[i])
			static_call(x86_pmu_update)(cpuc->events[i]);

	for (i = 0; i < 4; i++) {
		wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + i,
		       intel_nhm_reset_events[i]);
		wrmsrl(MSR_ARCH_PERFMON_PERFCTR0 + i, 0);
	}
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0xf);
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);

	for (i = 0; i < 4; i++) {
		struct perf_event *event = cpuc->events[i];

		if (!event) {
			wrmsrl(MSR_ARCH_PERFMON_EVENTSEL0 + i, 0);
			continue;
		}
		static_call(x86_pmu_set_period)(event);
		__x86_pmu_enable_event(&event->hw, ARCH_PERFMON_EVENTSEL_ENABLE);
	}
}

void intel_pmu_nhm_enable_all(int added)
{
	if (added)
		intel_nhm_reset_counters();
	intel_pmu_enable_all(added);
}

/* TSX force abort: PMC3 is usable only while RTM transactions abort. */
void intel_set_tfa(struct cpu_hw_events *cpuc, bool on)
{
	u64 want = on ? MSR_TFA_RTM_FORCE_ABORT : 0;

	if (cpuc->tfa_shadow == want)
		return;
	cpuc->tfa_shadow = want;
	wrmsrl(MSR_TSX_FORCE_ABORT, want);
}

void intel_tfa_pmu_enable_all(int added)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);

	if (!test_bit(3, cpuc->active_mask))
		intel_set_tfa(cpuc, false);
	intel_pmu_enable_all(added);
}

/* Version 1: no global control; each event select carries EN. */
void core_pmu_enable_event(struct perf_event *event)
{
	if (!event->attr.exclude_host)
		x86_pmu_enable_event(event);
}

void core_pmu_enable_all(int added)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int idx;

	for_each_set_bit(idx, cpuc->active_mask, x86_pmu.num_counters) {
		struct perf_event *event = cpuc->events[idx];

		if (!event->attr.exclude_host)
			__x86_pmu_enable_event(&event->hw,
					       ARCH_PERFMON_EVENTSEL_ENABLE);
	}
}

/*
 * Branch-stack snapshot for BPF: stop everything that records branches
 * before anything else branches, copy, restart.  noinline keeps the
 * copy out of the window.
 */
static noinline int intel_snapshot_copy(struct perf_branch_entry *entries,
					unsigned int cnt, unsigned long flags)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);

	intel_pmu_lbr_read();
	cnt = min_t(unsigned int, cnt, x86_pmu.lbr_nr);
	memcpy(entries, cpuc->lbr_entries, cnt * sizeof(*entries));
	intel_pmu_enable_all(0);
	local_irq_restore(flags);
	return cnt;
}

int intel_pmu_snapshot_branch_stack(struct perf_branch_entry *entries,
				    unsigned int cnt)
{
	unsigned long flags;

	local_irq_save(flags);
	intel_freeze_counters(false);
	__intel_pmu_lbr_disable();
	return intel_snapshot_copy(entries, cnt, flags);
}

int intel_pmu_snapshot_arch_branch_stack(struct perf_branch_entry *entries,
					 unsigned int cnt)
{
	unsigned long flags;

	local_irq_save(flags);
	intel_freeze_counters(false);
	__intel_pmu_arch_lbr_disable();
	return intel_snapshot_copy(entries, cnt, flags);
}

/* Host/guest-only and checkpointed counters, tracked per counter bit. */
static void intel_note_counter_masks(struct perf_event *event, int bit)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);

	if (event->attr.exclude_host)
		__set_bit(bit, (unsigned long *)&cpuc->intel_ctrl_guest_mask);
	if (event->attr.exclude_guest)
		__set_bit(bit, (unsigned long *)&cpuc->intel_ctrl_host_mask);
	if (intel_event_is_checkpointed(event))
		__set_bit(bit, (unsigned long *)&cpuc->intel_cp_status);
}

static void intel_forget_counter_masks(int bit)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);

	__clear_bit(bit, (unsigned long *)&cpuc->intel_ctrl_guest_mask);
	__clear_bit(bit, (unsigned long *)&cpuc->intel_ctrl_host_mask);
	__clear_bit(bit, (unsigned long *)&cpuc->intel_cp_status);
}

/*
 * The fixed counter a fixed or topdown event runs on, or -1 when it is a
 * topdown event sharing fixed counter 3 with another active one (which
 * keeps the counter's control nibble as it is).
 */
static int intel_fixed_counter_bit(struct perf_event *event)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int idx = event->hw.idx;

	if (!is_topdown_idx(idx))
		return idx;
	if (*(u64 *)cpuc->active_mask & INTEL_PMC_OTHER_TOPDOWN_BITS(idx))
		return -1;
	return INTEL_PMC_IDX_FIXED_SLOTS;
}

static void intel_fixed_counter_off(struct perf_event *event)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int bit = intel_fixed_counter_bit(event);

	if (bit < 0)
		return;
	intel_forget_counter_masks(bit);
	cpuc->fixed_ctrl_val &= ~(0xfULL << ((bit - INTEL_PMC_IDX_FIXED) * 4));
}

/* IA32_FIXED_CTR_CTRL nibble: 0x1 ring 0, 0x2 ring 3, 0x4 any thread, 0x8 PMI. */
static void intel_fixed_counter_on(struct perf_event *event)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	u64 config = event->hw.config;
	int bit = intel_fixed_counter_bit(event);
	unsigned int shift;
	u64 nibble = 0, mask = 0xf;

	if (bit < 0)
		return;
	intel_note_counter_masks(event, bit);

	if (config & ARCH_PERFMON_EVENTSEL_OS)
		nibble |= 0x1;
	if (config & ARCH_PERFMON_EVENTSEL_USR)
		nibble |= 0x2;
	if (x86_pmu.version > 2 && (config & ARCH_PERFMON_EVENTSEL_ANY))
		nibble |= 0x4;
	if (!event->attr.precise_ip)
		nibble |= 0x8;	/* PEBS records instead of a PMI */

	shift = (bit - INTEL_PMC_IDX_FIXED) * 4;
	nibble <<= shift;
	mask <<= shift;
	if (x86_pmu.intel_cap.pebs_baseline && event->attr.precise_ip) {
		nibble |= ICL_FIXED_0_ADAPTIVE << shift;
		mask |= ICL_FIXED_0_ADAPTIVE << shift;
	}
	cpuc->fixed_ctrl_val = (cpuc->fixed_ctrl_val & ~mask) | nibble;
}

void intel_pmu_disable_event(struct perf_event *event)
{
	int idx = event->hw.idx;

	if (idx >= 0 && idx < INTEL_PMC_IDX_FIXED) {
		intel_forget_counter_masks(idx);
		x86_pmu_disable_event(event);
	} else if ((idx >= INTEL_PMC_IDX_FIXED && idx < INTEL_PMC_IDX_FIXED_BTS) ||
		   is_metric_idx(idx)) {
		intel_fixed_counter_off(event);
	} else if (idx == INTEL_PMC_IDX_FIXED_BTS) {
		intel_pmu_disable_bts();
		intel_pmu_drain_bts_buffer();
		return;
	} else if (idx == INTEL_PMC_IDX_FIXED_VLBR) {
		intel_forget_counter_masks(idx);
	} else {
		intel_forget_counter_masks(idx);
		pr_warn("cannot disable an event on counter index %d\n", idx);
		return;
	}

	/* After the counter is off: it must not count without PEBS set. */
	if (unlikely(event->attr.precise_ip))
		intel_pmu_pebs_disable(event);
}

void intel_pmu_enable_event(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int idx = hwc->idx;

	if (unlikely(event->attr.precise_ip))
		intel_pmu_pebs_enable(event);

	if (idx >= 0 && idx < INTEL_PMC_IDX_FIXED) {
		intel_note_counter_masks(event, idx);
		__x86_pmu_enable_event(hwc, ARCH_PERFMON_EVENTSEL_ENABLE);
	} else if ((idx >= INTEL_PMC_IDX_FIXED && idx < INTEL_PMC_IDX_FIXED_BTS) ||
		   is_metric_idx(idx)) {
		intel_fixed_counter_on(event);
	} else if (idx == INTEL_PMC_IDX_FIXED_BTS) {
		if (__this_cpu_read(cpu_hw_events.enabled))
			intel_pmu_enable_bts(hwc->config);
	} else if (idx == INTEL_PMC_IDX_FIXED_VLBR) {
		intel_note_counter_masks(event, idx);
	} else {
		pr_warn("cannot enable an event on counter index %d\n", idx);
	}
}

void intel_pmu_add_event(struct perf_event *event)
{
	if (event->attr.precise_ip)
		intel_pmu_pebs_add(event);
	if (needs_branch_stack(event))
		intel_pmu_lbr_add(event);
}

void intel_pmu_del_event(struct perf_event *event)
{
	if (needs_branch_stack(event))
		intel_pmu_lbr_del(event);
	if (event->attr.precise_ip)
		intel_pmu_pebs_del(event);
}

void intel_pmu_assign_event(struct perf_event *event, int idx)
{
	if (is_pebs_pt(event))
		perf_report_aux_output_id(event, idx);
}

/* ---- topdown: fixed counter 3 (slots) and IA32_PERF_METRICS ---- */

/* A metric's share of @slots: its byte of @metrics, in 255ths. */
u64 intel_metric_slots(u64 metrics, u64 slots, int idx)
{
	u32 share = (metrics >> ((idx - INTEL_PMC_IDX_METRIC_BASE) * 8)) & 0xff;

	return mul_u64_u32_div(slots, share, 0xff);
}

static u64 intel_topdown_value(struct perf_event *event, u64 slots,
			       u64 metrics)
{
	if (is_metric_idx(event->hw.idx))
		return intel_metric_slots(metrics, slots, event->hw.idx);
	return slots;
}

/*
 * Add what @event gained between the saved (@then_*) and the current
 * readings.  A fraction can drop (e.g. 1/255 to 0/255 on a small
 * change): a drop is not added.
 */
static void intel_topdown_account(struct perf_event *event, u64 slots,
				  u64 metrics, u64 then_slots, u64 then_metrics)
{
	u64 now = intel_topdown_value(event, slots, metrics);
	u64 then = then_slots ?
		intel_topdown_value(event, then_slots, then_metrics) : 0;

	if (now > then)
		local64_add(now - then, &event->count);
}

static void intel_topdown_save(struct perf_event *event, u64 slots,
			       u64 metrics, int last_idx)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int idx;

	event->hw.saved_slots = slots;
	event->hw.saved_metric = metrics;
	for_each_set_bit(idx, cpuc->active_mask, last_idx + 1) {
		if (!is_topdown_idx(idx))
			continue;
		cpuc->events[idx]->hw.saved_slots = slots;
		cpuc->events[idx]->hw.saved_metric = metrics;
	}
}

/*
 * Update every active topdown event (and @event, which may have just
 * left active_mask in x86_pmu_stop()).  Called with the PMU disabled:
 * the two registers are read separately.  Both restart from 0 after a
 * read, except when @event is being switched out: then the readings are
 * saved and reloaded at its next set_period().
 */
static u64 intel_topdown_update(struct perf_event *event, int last_idx)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	u64 then_slots = event ? event->hw.saved_slots : 0;
	u64 then_metrics = event ? event->hw.saved_metric : 0;
	u64 slots, metrics;
	int idx;

	rdpmcl(INTEL_PMC_FIXED_RDPMC_BASE | 3, slots);
	if (!slots)
		return 0;
	rdpmcl(INTEL_PMC_FIXED_RDPMC_METRICS, metrics);

	for_each_set_bit(idx, cpuc->active_mask, last_idx + 1) {
		if (is_topdown_idx(idx))
			intel_topdown_account(cpuc->events[idx], slots, metrics,
					      then_slots, then_metrics);
	}

	if (event && !test_bit(event->hw.idx, cpuc->active_mask)) {
		intel_topdown_account(event, slots, metrics,
				      event->hw.saved_slots,
				      event->hw.saved_metric);
		intel_topdown_save(event, slots, metrics, last_idx);
		return slots;
	}

	/* Slots first: IA32_PERF_METRICS is derived from it. */
	wrmsrl(MSR_CORE_PERF_FIXED_CTR3, 0);
	wrmsrl(MSR_PERF_METRICS, 0);
	if (event)
		intel_topdown_save(event, 0, 0, last_idx);
	return slots;
}

static u64 icl_update_topdown_event(struct perf_event *event)
{
	return intel_topdown_update(event, INTEL_PMC_IDX_METRIC_BASE +
					   x86_pmu.num_topdown_events - 1);
}

static u64 adl_update_topdown_event(struct perf_event *event)
{
	if (hybrid_pmu(event->pmu)->cpu_type != hybrid_big)
		return 0;
	return icl_update_topdown_event(event);
}

static int icl_set_topdown_event_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	/* First start: both registers from zero. */
	if (local64_read(&hwc->period_left) == x86_pmu.max_period) {
		wrmsrl(MSR_CORE_PERF_FIXED_CTR3, 0);
		wrmsrl(MSR_PERF_METRICS, 0);
		hwc->saved_slots = 0;
		hwc->saved_metric = 0;
	}
	if (hwc->saved_slots && is_slots_event(event)) {
		wrmsrl(MSR_CORE_PERF_FIXED_CTR3, hwc->saved_slots);
		wrmsrl(MSR_PERF_METRICS, hwc->saved_metric);
	}
	perf_event_update_userpage(event);
	return 0;
}

static int adl_set_topdown_event_period(struct perf_event *event)
{
	if (hybrid_pmu(event->pmu)->cpu_type != hybrid_big)
		return 0;
	return icl_set_topdown_event_period(event);
}

DEFINE_STATIC_CALL(intel_topdown_update_call, x86_perf_event_update);
DEFINE_STATIC_CALL(intel_topdown_set_period_call, x86_perf_event_set_period);

void __init intel_topdown_use_icl(void)
{
	static_call_update(intel_topdown_update_call, icl_update_topdown_event);
	static_call_update(intel_topdown_set_period_call,
			   icl_set_topdown_event_period);
}

void __init intel_topdown_use_adl(void)
{
	static_call_update(intel_topdown_update_call, adl_update_topdown_event);
	static_call_update(intel_topdown_set_period_call,
			   adl_set_topdown_event_period);
}

/*
 * Reading an auto-reload PEBS event drains the PEBS buffer; reading a
 * topdown event reads the whole topdown set (once per group read).
 * Both with the PMU off.
 */
void intel_pmu_read_event(struct perf_event *event)
{
	struct cpu_hw_events *cpuc;
	int was_enabled;

	if (!(event->hw.flags &
	      (PERF_X86_EVENT_AUTO_RELOAD | PERF_X86_EVENT_TOPDOWN))) {
		x86_perf_event_update(event);
		return;
	}

	cpuc = this_cpu_ptr(&cpu_hw_events);
	if (is_metric_event(event) && (cpuc->txn_flags & PERF_PMU_TXN_READ))
		return;

	was_enabled = cpuc->enabled;
	cpuc->enabled = 0;
	if (was_enabled)
		intel_pmu_disable_all();

	if (is_topdown_count(event))
		static_call(intel_topdown_update_call)(event);
	else
		intel_pmu_drain_pebs_buffer();

	cpuc->enabled = was_enabled;
	if (was_enabled)
		intel_pmu_enable_all(0);
}

int intel_pmu_set_period(struct perf_event *event)
{
	if (unlikely(is_topdown_count(event)))
		return static_call(intel_topdown_set_period_call)(event);
	return x86_perf_event_set_period(event);
}

u64 intel_pmu_update(struct perf_event *event)
{
	if (unlikely(is_topdown_count(event)))
		return static_call(intel_topdown_update_call)(event);
	return x86_perf_event_update(event);
}

/*
 * Fold the count of an overflowed event and arm its next period.  A
 * counter that counts inside TSX transactions with checkpointing
 * restarts from 0: restarting just below the overflow would abort the
 * transaction again and again.
 */
int intel_pmu_save_and_restart(struct perf_event *event)
{
	static_call(x86_pmu_update)(event);
	if (unlikely(intel_event_is_checkpointed(event))) {
		wrmsrl(event->hw.event_base, 0);
		local64_set(&event->hw.prev_count, 0);
	}
	return static_call(x86_pmu_set_period)(event);
}

/* Zero every counter and the status after a stuck PMI (or at boot). */
void intel_pmu_reset(void)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	struct debug_store *ds = cpuc->ds;
	int nr_gp = hybrid(cpuc->pmu, num_counters);
	int nr_fixed = hybrid(cpuc->pmu, num_counters_fixed);
	unsigned long flags;
	int i;

	if (!nr_gp)
		return;

	local_irq_save(flags);
	pr_info("clearing PMU state on CPU#%d\n", smp_processor_id());

	for (i = 0; i < nr_gp; i++) {
		wrmsrl_safe(x86_pmu_config_addr(i), 0);
		wrmsrl_safe(x86_pmu_event_addr(i), 0);
	}
	for (i = 0; i < nr_fixed; i++)
		if (!fixed_counter_disabled(i, cpuc->pmu))
			wrmsrl_safe(MSR_ARCH_PERFMON_FIXED_CTR0 + i, 0);

	if (ds)
		ds->bts_index = ds->bts_buffer_base;

	if (x86_pmu.version >= 2) {
		intel_ack_global_status(intel_read_global_status());
		wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	}

	if (x86_pmu.lbr_nr)
		update_debugctlmsr(get_debugctlmsr() &
				   ~(DEBUGCTLMSR_FREEZE_LBRS_ON_PMI |
				     DEBUGCTLMSR_LBR));

	local_irq_restore(flags);
}

/*
 * A PEBS overflow of a counter KVM gave a guest (its records went to the
 * guest's DS area): one fake overflow of such an event tells KVM to
 * inject the PMI.
 */
static void intel_guest_pebs_overflow(struct pt_regs *regs,
				      struct perf_sample_data *data)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	u64 guest_pebs = cpuc->pebs_enabled & ~cpuc->intel_ctrl_host_mask;
	int bit;

	if (likely(!perf_guest_state()))
		return;
	if (!x86_pmu.pebs_ept || !x86_pmu.pebs_active || !guest_pebs)
		return;

	for_each_set_bit(bit, (unsigned long *)&guest_pebs,
			 INTEL_PMC_IDX_FIXED + x86_pmu.num_counters_fixed) {
		struct perf_event *event = cpuc->events[bit];

		if (!event->attr.precise_ip)
			continue;
		perf_sample_data_init(data, 0, event->hw.last_period);
		if (perf_event_overflow(event, data, regs))
			x86_pmu_stop(event, 0);
		return;
	}
}

/* One round of the PMI: everything @status reports.  Returns the work done. */
static int intel_pmi_round(struct pt_regs *regs, u64 status)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	u64 in_use = hybrid(cpuc->pmu, intel_ctrl);
	struct perf_sample_data data;
	int handled = 0;
	int bit;

	inc_irq_stat(apic_perf_irqs);

	status &= ~INTEL_STATUS_NOT_OVERFLOW;
	if (!status)
		return 0;

	/*
	 * PEBS counters are only ever handled by draining the PEBS buffer:
	 * their status bits may be set beside a pending record, and a
	 * regular sample from them would be a non-precise duplicate.
	 */
	status &= ~(cpuc->pebs_enabled & x86_pmu.pebs_capable);

	if (__test_and_clear_bit(GLOBAL_STATUS_BUFFER_OVF_BIT,
				 (unsigned long *)&status)) {
		u64 pebs_before = cpuc->pebs_enabled;

		handled++;
		intel_guest_pebs_overflow(regs, &data);
		static_call(x86_pmu_drain_pebs)(regs, &data);
		status &= in_use | GLOBAL_STATUS_TRACE_TOPAPMI;

		/*
		 * Throttling inside the drain stops PEBS events but cannot
		 * write the MSR with the PMU forced off: write it here.
		 */
		if (cpuc->pebs_enabled != pebs_before)
			wrmsrl(MSR_IA32_PEBS_ENABLE, cpuc->pebs_enabled);
	}

	if (__test_and_clear_bit(GLOBAL_STATUS_TRACE_TOPAPMI_BIT,
				 (unsigned long *)&status)) {
		handled++;
		if (!perf_guest_handle_intel_pt_intr())
			intel_pt_interrupt();
	}

	if (__test_and_clear_bit(GLOBAL_STATUS_PERF_METRICS_OVF_BIT,
				 (unsigned long *)&status)) {
		handled++;
		static_call(intel_topdown_update_call)(NULL);
	}

	/*
	 * A transaction abort rolls back the overflow bit of a checkpointed
	 * counter with everything else: always look at those counters.
	 */
	status |= cpuc->intel_cp_status;

	for_each_set_bit(bit, (unsigned long *)&status, X86_PMC_IDX_MAX) {
		struct perf_event *event = cpuc->events[bit];

		handled++;
		if (!test_bit(bit, cpuc->active_mask))
			continue;
		if (!intel_pmu_save_and_restart(event))
			continue;

		perf_sample_data_init(&data, 0, event->hw.last_period);
		if (has_branch_stack(event)) {
			data.br_stack = &cpuc->lbr_stack;
			data.sample_flags |= PERF_SAMPLE_BRANCH_STACK;
		}
		if (perf_event_overflow(event, &data, regs))
			x86_pmu_stop(event, 0);
	}
	return handled;
}

static void intel_pmi_stuck(void)
{
	static bool reported;

	if (!reported) {
		reported = true;
		WARN(1, "perfevents: irq loop stuck!\n");
		perf_event_print_debug();
	}
	intel_pmu_reset();
}

/* The PMI (an NMI through the local APIC's LVTPC entry). */
int intel_pmu_handle_irq(struct pt_regs *regs)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	bool late_ack = hybrid_bit(cpuc->pmu, late_ack);
	bool mid_ack = hybrid_bit(cpuc->pmu, mid_ack);
	int was_enabled = cpuc->enabled;
	int rounds = 0;
	int handled;
	u64 status;

	if (!late_ack && !mid_ack)
		apic_write(APIC_LVTPC, APIC_DM_NMI);

	intel_bts_disable_local();
	cpuc->enabled = 0;
	intel_freeze_counters(true);
	handled = intel_pmu_drain_bts_buffer();
	handled += intel_bts_interrupt();

	for (status = intel_read_global_status(); status;
	     status = intel_read_global_status()) {
		intel_pmu_lbr_read();
		intel_ack_global_status(status);
		if (++rounds > INTEL_PMI_MAX_ROUNDS) {
			intel_pmi_stuck();
			break;
		}
		handled += intel_pmi_round(regs, status);
	}

	if (mid_ack)
		apic_write(APIC_LVTPC, APIC_DM_NMI);

	/* Re-enable only what was on: see x86_pmu_disable(). */
	cpuc->enabled = was_enabled;
	if (was_enabled)
		intel_unfreeze_counters(true);
	intel_bts_enable_local();

	/* After the counters were reset: avoids spurious NMIs on Haswell. */
	if (late_ack)
		apic_write(APIC_LVTPC, APIC_DM_NMI);
	return handled;
}
