// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc sample registers (PERF_SAMPLE_REGS_USER / _INTR): the mapping
 * of the uapi PERF_REG_POWERPC_* numbers onto struct pt_regs and PMU
 * SPRs, register mask validation and the sample ABI.
 *
 * PERF_REG_EXTENDED_MASK is the set of PMU SPRs (MMCR0 .. SIAR) this CPU
 * can report beyond pt_regs; it stays 0 unless the PMU model's init sets
 * it (PERF_REG_PMU_MASK_300 on ISA 3.0, PERF_REG_PMU_MASK_31 on ISA 3.1)
 * at boot, before any event exists, and is only read afterwards.
 *
 * Context: perf_reg_value() runs from the PMU interrupt (NMI-like) or
 * sample output with preemption off; it takes no locks and reads SPRs
 * of the current CPU.
 */
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stddef.h>
#include <asm/perf_regs.h>
#include <asm/ptrace.h>
#include <asm/reg.h>

u64 PERF_REG_EXTENDED_MASK;

#define PT_REG(r)	offsetof(struct pt_regs, r)

/*
 * pt_regs offset of each non-extended register.  The PMU interrupt
 * leaves SIER in regs->dar and MMCRA in regs->dsisr of its sample regs,
 * so those two read the same slots as DAR and DSISR.
 */
static const unsigned short ppc_reg_offset[PERF_REG_POWERPC_MAX] = {
	[PERF_REG_POWERPC_R0]		= PT_REG(gpr[0]),
	[PERF_REG_POWERPC_R1]		= PT_REG(gpr[1]),
	[PERF_REG_POWERPC_R2]		= PT_REG(gpr[2]),
	[PERF_REG_POWERPC_R3]		= PT_REG(gpr[3]),
	[PERF_REG_POWERPC_R4]		= PT_REG(gpr[4]),
	[PERF_REG_POWERPC_R5]		= PT_REG(gpr[5]),
	[PERF_REG_POWERPC_R6]		= PT_REG(gpr[6]),
	[PERF_REG_POWERPC_R7]		= PT_REG(gpr[7]),
	[PERF_REG_POWERPC_R8]		= PT_REG(gpr[8]),
	[PERF_REG_POWERPC_R9]		= PT_REG(gpr[9]),
	[PERF_REG_POWERPC_R10]		= PT_REG(gpr[10]),
	[PERF_REG_POWERPC_R11]		= PT_REG(gpr[11]),
	[PERF_REG_POWERPC_R12]		= PT_REG(gpr[12]),
	[PERF_REG_POWERPC_R13]		= PT_REG(gpr[13]),
	[PERF_REG_POWERPC_R14]		= PT_REG(gpr[14]),
	[PERF_REG_POWERPC_R15]		= PT_REG(gpr[15]),
	[PERF_REG_POWERPC_R16]		= PT_REG(gpr[16]),
	[PERF_REG_POWERPC_R17]		= PT_REG(gpr[17]),
	[PERF_REG_POWERPC_R18]		= PT_REG(gpr[18]),
	[PERF_REG_POWERPC_R19]		= PT_REG(gpr[19]),
	[PERF_REG_POWERPC_R20]		= PT_REG(gpr[20]),
	[PERF_REG_POWERPC_R21]		= PT_REG(gpr[21]),
	[PERF_REG_POWERPC_R22]		= PT_REG(gpr[22]),
	[PERF_REG_POWERPC_R23]		= PT_REG(gpr[23]),
	[PERF_REG_POWERPC_R24]		= PT_REG(gpr[24]),
	[PERF_REG_POWERPC_R25]		= PT_REG(gpr[25]),
	[PERF_REG_POWERPC_R26]		= PT_REG(gpr[26]),
	[PERF_REG_POWERPC_R27]		= PT_REG(gpr[27]),
	[PERF_REG_POWERPC_R28]		= PT_REG(gpr[28]),
	[PERF_REG_POWERPC_R29]		= PT_REG(gpr[29]),
	[PERF_REG_POWERPC_R30]		= PT_REG(gpr[30]),
	[PERF_REG_POWERPC_R31]		= PT_REG(gpr[31]),
	[PERF_REG_POWERPC_NIP]		= PT_REG(nip),
	[PERF_REG_POWERPC_MSR]		= PT_REG(msr),
	[PERF_REG_POWERPC_ORIG_R3]	= PT_REG(orig_gpr3),
	[PERF_REG_POWERPC_CTR]		= PT_REG(ctr),
	[PERF_REG_POWERPC_LINK]		= PT_REG(link),
	[PERF_REG_POWERPC_XER]		= PT_REG(xer),
	[PERF_REG_POWERPC_CCR]		= PT_REG(ccr),
#ifdef CONFIG_PPC64
	[PERF_REG_POWERPC_SOFTE]	= PT_REG(softe),
#else
	[PERF_REG_POWERPC_SOFTE]	= PT_REG(mq),
#endif
	[PERF_REG_POWERPC_TRAP]		= PT_REG(trap),
	[PERF_REG_POWERPC_DAR]		= PT_REG(dar),
	[PERF_REG_POWERPC_DSISR]	= PT_REG(dsisr),
	[PERF_REG_POWERPC_SIER]		= PT_REG(dar),
	[PERF_REG_POWERPC_MMCRA]	= PT_REG(dsisr),
};

/* The extended registers: live PMU SPRs and counters of this CPU */
static u64 ppc_ext_reg_value(int idx)
{
	switch (idx) {
	case PERF_REG_POWERPC_MMCR0:
		return mfspr(SPRN_MMCR0);
	case PERF_REG_POWERPC_MMCR1:
		return mfspr(SPRN_MMCR1);
	case PERF_REG_POWERPC_MMCR2:
		return mfspr(SPRN_MMCR2);
#ifdef CONFIG_PPC64
	case PERF_REG_POWERPC_MMCR3:
		return mfspr(SPRN_MMCR3);
	case PERF_REG_POWERPC_SIER2:
		return mfspr(SPRN_SIER2);
	case PERF_REG_POWERPC_SIER3:
		return mfspr(SPRN_SIER3);
	case PERF_REG_POWERPC_SDAR:
		return mfspr(SPRN_SDAR);
#endif
	case PERF_REG_POWERPC_PMC1 ... PERF_REG_POWERPC_PMC6:
		return get_pmcs_ext_regs(idx - PERF_REG_POWERPC_PMC1);
	case PERF_REG_POWERPC_SIAR:
		return mfspr(SPRN_SIAR);
	}
	return 0;
}

/* Book3S server PMU only: no SIER/MMCRA on PPC32 or the FSL embedded PMU */
static bool ppc_server_pmu_reg(void)
{
	return !IS_ENABLED(CONFIG_PPC32) &&
	       !IS_ENABLED(CONFIG_FSL_EMB_PERF_EVENT);
}

u64 perf_reg_value(struct pt_regs *regs, int idx)
{
	switch (idx) {
	case PERF_REG_POWERPC_SIER:
		if (!ppc_server_pmu_reg() || !is_sier_available())
			return 0;
		break;
	case PERF_REG_POWERPC_MMCRA:
		if (!ppc_server_pmu_reg())
			return 0;
		break;
	case PERF_REG_POWERPC_MAX ... PERF_REG_EXTENDED_MAX - 1:
		return ppc_ext_reg_value(idx);
	default:
		/* perf_reg_validate() keeps anything else out */
		if (WARN_ON_ONCE(idx < 0 || idx >= PERF_REG_EXTENDED_MAX))
			return 0;
	}
	return regs_get_register(regs, ppc_reg_offset[idx]);
}

int perf_reg_validate(u64 mask)
{
	u64 known = PERF_REG_PMU_MASK | PERF_REG_EXTENDED_MASK;

	if (!mask || (mask & ~known))
		return -EINVAL;
	return 0;
}

u64 perf_reg_abi(struct task_struct *task)
{
	return is_tsk_32bit_task(task) ? PERF_SAMPLE_REGS_ABI_32 :
					 PERF_SAMPLE_REGS_ABI_64;
}

/* User registers of a sample: always the current task's entry pt_regs */
void perf_get_regs_user(struct perf_regs *regs_user, struct pt_regs *regs)
{
	regs_user->regs = task_pt_regs(current);
	regs_user->abi = regs_user->regs ? perf_reg_abi(current) :
					   PERF_SAMPLE_REGS_ABI_NONE;
}
