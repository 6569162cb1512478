// SPDX-License-Identifier: GPL-2.0
/*
 * Intel core PMU: errata, microcode checks, and MSRs that may not exist.
 *
 * Quirks run once at boot after the model is set up (x86_add_quirk());
 * the microcode checks run again on each microcode update
 * (x86_pmu.check_microcode, serialized by the microcode loader).  The
 * HT erratum workaround is switched on at boot and off again by an
 * initcall once the topology shows that no core runs two threads.
 *
 * Locking: boot-time, except check_microcode (microcode lock) and the
 * HT fixup (CPU hotplug lock, with the NMI watchdog stopped).
 */
/* Messages keep the prefix 6.1 gave them (its intel/core.o). */
#define pr_fmt(fmt) "core: " fmt

#include <linux/perf_event.h>
#include <linux/nmi.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include "core.h"

/*
 * Core 2 (Clovertown): PEBS leaks CPL (AJ67), delays its PMI (AJ68), sets
 * GLOBAL_STATUS[62] only with DEBUGCTL[12] (AJ69) and breaks LBR
 * freezing (AJ106).  Not worth working around: no PEBS.
 */
void __init intel_clovertown_quirk(void)
{
	pr_warn("PEBS disabled due to CPU errata\n");
	x86_pmu.pebs = 0;
	x86_pmu.pebs_constraints = NULL;
}

/* Microcode from which PEBS no longer writes into a guest after VM entry. */
static const struct x86_cpu_desc intel_pebs_isolation_ucode[] = {
	INTEL_CPU_DESC(INTEL_FAM6_HASWELL,	 3, 0x0000001f),
	INTEL_CPU_DESC(INTEL_FAM6_HASWELL_L,	 1, 0x0000001e),
	INTEL_CPU_DESC(INTEL_FAM6_HASWELL_G,	 1, 0x00000015),
	INTEL_CPU_DESC(INTEL_FAM6_HASWELL_X,	 2, 0x00000037),
	INTEL_CPU_DESC(INTEL_FAM6_HASWELL_X,	 4, 0x0000000a),
	INTEL_CPU_DESC(INTEL_FAM6_BROADWELL,	 4, 0x00000023),
	INTEL_CPU_DESC(INTEL_FAM6_BROADWELL_G,	 1, 0x00000014),
	INTEL_CPU_DESC(INTEL_FAM6_BROADWELL_D,	 2, 0x00000010),
	INTEL_CPU_DESC(INTEL_FAM6_BROADWELL_D,	 3, 0x07000009),
	INTEL_CPU_DESC(INTEL_FAM6_BROADWELL_D,	 4, 0x0f000009),
	INTEL_CPU_DESC(INTEL_FAM6_BROADWELL_D,	 5, 0x0e000002),
	INTEL_CPU_DESC(INTEL_FAM6_BROADWELL_X,	 1, 0x0b000014),
	INTEL_CPU_DESC(INTEL_FAM6_SKYLAKE_X,	 3, 0x00000021),
	INTEL_CPU_DESC(INTEL_FAM6_SKYLAKE_X,	 4, 0x00000000),
	INTEL_CPU_DESC(INTEL_FAM6_SKYLAKE_X,	 5, 0x00000000),
	INTEL_CPU_DESC(INTEL_FAM6_SKYLAKE_X,	 6, 0x00000000),
	INTEL_CPU_DESC(INTEL_FAM6_SKYLAKE_X,	 7, 0x00000000),
	INTEL_CPU_DESC(INTEL_FAM6_SKYLAKE_X,	11, 0x00000000),
	INTEL_CPU_DESC(INTEL_FAM6_SKYLAKE_L,	 3, 0x0000007c),
	INTEL_CPU_DESC(INTEL_FAM6_SKYLAKE,	 3, 0x0000007c),
	INTEL_CPU_DESC(INTEL_FAM6_KABYLAKE,	 9, 0x0000004e),
	INTEL_CPU_DESC(INTEL_FAM6_KABYLAKE,	10, 0x0000004e),
	INTEL_CPU_DESC(INTEL_FAM6_KABYLAKE,	11, 0x0000004e),
	INTEL_CPU_DESC(INTEL_FAM6_KABYLAKE,	12, 0x0000004e),
	INTEL_CPU_DESC(INTEL_FAM6_KABYLAKE,	13, 0x0000004e),
	INTEL_CPU_DESC(INTEL_FAM6_KABYLAKE_L,	 9, 0x0000004e),
	INTEL_CPU_DESC(INTEL_FAM6_KABYLAKE_L,	10, 0x0000004e),
	INTEL_CPU_DESC(INTEL_FAM6_KABYLAKE_L,	11, 0x0000004e),
	INTEL_CPU_DESC(INTEL_FAM6_KABYLAKE_L,	12, 0x0000004e),
	{}
};

void intel_check_pebs_isolation(void)
{
	x86_pmu.pebs_no_isolation =
		!x86_cpu_has_min_microcode_rev(intel_pebs_isolation_ucode);
}

void __init intel_pebs_isolation_quirk(void)
{
	WARN_ON_ONCE(x86_pmu.check_microcode);
	x86_pmu.check_microcode = intel_check_pebs_isolation;
	intel_check_pebs_isolation();
}

/* Sandy Bridge: PEBS can hang the core before this microcode. */
static const struct x86_cpu_desc intel_snb_pebs_ucode[] = {
	INTEL_CPU_DESC(INTEL_FAM6_SANDYBRIDGE,	 7, 0x00000028),
	INTEL_CPU_DESC(INTEL_FAM6_SANDYBRIDGE_X, 6, 0x00000618),
	INTEL_CPU_DESC(INTEL_FAM6_SANDYBRIDGE_X, 7, 0x0000070c),
	{}
};

void intel_snb_check_microcode(void)
{
	bool broken = !x86_cpu_has_min_microcode_rev(intel_snb_pebs_ucode);

	if (broken == !!x86_pmu.pebs_broken)
		return;
	x86_pmu.pebs_broken = broken;
	if (broken)
		pr_info("PEBS disabled due to CPU errata, please upgrade microcode\n");
	else
		pr_info("PEBS enabled due to microcode update\n");
}

void __init intel_sandybridge_quirk(void)
{
	x86_pmu.check_microcode = intel_snb_check_microcode;
	cpus_read_lock();
	intel_snb_check_microcode();
	cpus_read_unlock();
}

/* CPUID.0xA EBX bit i set: architectural event i is not available. */
struct intel_arch_event_bit {
	int generic;
	const char *name;
};

static const struct intel_arch_event_bit intel_arch_event_bits[] __initconst = {
	{ PERF_COUNT_HW_CPU_CYCLES,		"cpu cycles" },
	{ PERF_COUNT_HW_INSTRUCTIONS,		"instructions" },
	{ PERF_COUNT_HW_BUS_CYCLES,		"bus cycles" },
	{ PERF_COUNT_HW_CACHE_REFERENCES,	"cache references" },
	{ PERF_COUNT_HW_CACHE_MISSES,		"cache misses" },
	{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS,	"branch instructions" },
	{ PERF_COUNT_HW_BRANCH_MISSES,		"branch misses" },
};

void __init intel_arch_events_quirk(void)
{
	int bit;

	for_each_set_bit(bit, x86_pmu.events_mask,
			 ARRAY_SIZE(intel_arch_event_bits)) {
		intel_perfmon_event_map[intel_arch_event_bits[bit].generic] = 0;
		pr_warn("CPUID marked event: '%s' unavailable\n",
			intel_arch_event_bits[bit].name);
	}
}

/*
 * Nehalem AAJ80: the architectural branch-misses event is often bogus.
 * BR_MISP_EXEC.ANY over-counts a little but is far better; it also
 * makes the event available where CPUID says it is not.
 */
void __init intel_nehalem_quirk(void)
{
	union cpuid10_ebx ebx = { .full = x86_pmu.events_maskl };

	if (!ebx.split.no_branch_misses_retired)
		return;
	intel_perfmon_event_map[PERF_COUNT_HW_BRANCH_MISSES] = 0x7f89;
	ebx.split.no_branch_misses_retired = 0;
	x86_pmu.events_maskl = ebx.full;
	pr_info("CPU erratum AAJ80 worked around\n");
}

/*
 * SNB BJ122, IVB BV98, HSW HSD29: with HT on, some events corrupt the
 * sibling thread's counter of the same number.  Assume HT at boot;
 * intel_ht_bug_fixup() undoes it when the topology shows no siblings.
 */
void __init intel_ht_bug(void)
{
	x86_pmu.flags |= PMU_FL_EXCL_CNTRS | PMU_FL_EXCL_ENABLED;
	x86_pmu.start_scheduling = intel_start_scheduling;
	x86_pmu.commit_scheduling = intel_commit_scheduling;
	x86_pmu.stop_scheduling = intel_stop_scheduling;
}

static __init int intel_ht_bug_fixup(void)
{
	int cpu;

	if (!(x86_pmu.flags & PMU_FL_EXCL_ENABLED))
		return 0;

	if (topology_max_smt_threads() > 1) {
		pr_info("PMU erratum BJ122, BV98, HSD29 worked around, HT is on\n");
		return 0;
	}

	cpus_read_lock();
	hardlockup_detector_perf_stop();
	x86_pmu.flags &= ~(PMU_FL_EXCL_CNTRS | PMU_FL_EXCL_ENABLED);
	x86_pmu.start_scheduling = NULL;
	x86_pmu.commit_scheduling = NULL;
	x86_pmu.stop_scheduling = NULL;
	hardlockup_detector_perf_restart();
	for_each_online_cpu(cpu)
		intel_free_excl_cntrs(&per_cpu(cpu_hw_events, cpu));
	cpus_read_unlock();
	pr_info("PMU erratum BJ122, BV98, HSD29 workaround disabled, HT off\n");
	return 0;
}
subsys_initcall(intel_ht_bug_fixup);

/* An LBR_FROM MSR: writes need the sign-extension quirk applied. */
static bool intel_is_lbr_from(unsigned long msr)
{
	return msr >= x86_pmu.lbr_from &&
	       msr < x86_pmu.lbr_from + x86_pmu.lbr_nr;
}

/*
 * Can @msr be used?  Hypervisors may not implement it, or may silently
 * drop writes (reads return 0): flip the bits of @mask, read back, and
 * restore.  Bare metal is trusted (and its live registers left alone).
 */
static bool intel_msr_usable(unsigned long msr, u64 mask)
{
	u64 old, flipped, back;

	if (!boot_cpu_has(X86_FEATURE_HYPERVISOR))
		return true;
	if (rdmsrl_safe(msr, &old))
		return false;

	flipped = old ^ mask;
	if (intel_is_lbr_from(msr))
		flipped = lbr_from_signext_quirk_wr(flipped);
	if (wrmsrl_safe(msr, flipped) || rdmsrl_safe(msr, &back))
		return false;
	if (back != flipped)
		return false;

	if (intel_is_lbr_from(msr))
		old = lbr_from_signext_quirk_wr(old);
	wrmsrl(msr, old);
	return true;
}

/* Every LBR MSR usable?  Else LBR is off (lbr_nr = 0). */
bool __init intel_check_lbr_msrs(void)
{
	int i;

	if (x86_pmu.lbr_tos && !intel_msr_usable(x86_pmu.lbr_tos, 0x3))
		return false;
	for (i = 0; i < x86_pmu.lbr_nr; i++) {
		if (!intel_msr_usable(x86_pmu.lbr_from + i, 0xffff) ||
		    !intel_msr_usable(x86_pmu.lbr_to + i, 0xffff))
			return false;
	}
	return true;
}

/*
 * Extra registers (OFFCORE_RSP, LDLAT, ...) a hypervisor may not have.
 * Without the LBR_SELECT one there is no LBR filtering.
 */
void __init intel_check_extra_regs(struct extra_reg *regs)
{
	struct extra_reg *er;

	if (!regs)
		return;
	for (er = regs; er->msr; er++) {
		er->extra_msr_access = intel_msr_usable(er->msr, 0x11);
		if (er->idx == EXTRA_REG_LBR && !er->extra_msr_access)
			x86_pmu.lbr_sel_map = NULL;
	}
}
