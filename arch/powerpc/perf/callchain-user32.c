// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User callchains of 32-bit powerpc tasks (native PPC32 kernels and
 * compat tasks of PPC64 ones): follow the stack back chain, and step
 * through sigreturn and rt_sigreturn frames into the interrupted context.
 *
 * Context: PMU interrupt (NMI-like), preemption off.  Takes no locks and
 * reads the task's stack only through user_word_read() (no page faults);
 * any unreadable word or implausible stack pointer ends the walk.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/stddef.h>
#include <asm/sigcontext.h>
#include <asm/ucontext.h>
#include <asm/vdso.h>

#include "callchain-user.h"

/*
 * The 32-bit signal ABI types: the compat ones on a 64-bit kernel, the
 * native ones on a 32-bit kernel.
 */
#ifdef CONFIG_PPC64
#include <linux/compat.h>
#include <asm/syscalls_32.h>
#define SIG32_CALLER_FRAME	__SIGNAL_FRAMESIZE32
#define sig32_sigcontext	sigcontext32
#define sig32_mcontext		mcontext32
#define sig32_ucontext		ucontext32
#define sig32_siginfo		compat_siginfo
#else
#define SIG32_CALLER_FRAME	__SIGNAL_FRAMESIZE
#define sig32_sigcontext	sigcontext
#define sig32_mcontext		mcontext
#define sig32_ucontext		ucontext
#define sig32_siginfo		siginfo
#endif

/* Word of a 32-bit ABI stack frame that receives its callee's LR */
#define FRAME32_LR_SLOT		1

/*
 * A 32-bit task's stack seen from a signal handler's initial r1, laid
 * out by arch/powerpc/kernel/signal_32.c: a dummy caller frame, then the
 * signal frame.  sigreturn (non-RT) frame first:
 */
struct sig32_stack {
	char			caller_frame[SIG32_CALLER_FRAME];
	struct sig32_sigcontext	sctx;
	struct sig32_mcontext	mctx;
#ifdef CONFIG_PPC_TRANSACTIONAL_MEM
	struct sig32_sigcontext	sctx_transact;
	struct sig32_mcontext	mctx_transact;
#endif
	int			abigap[56];
};

/* rt_sigreturn frame (the caller frame is 16 bytes larger there) */
struct rt_sig32_stack {
	char			caller_frame[SIG32_CALLER_FRAME + 16];
	struct sig32_siginfo	info;
	struct sig32_ucontext	uc;
#ifdef CONFIG_PPC_TRANSACTIONAL_MEM
	struct sig32_ucontext	uc_transact;
#endif
	int			abigap[56];
};

static int user_read32(const void __user *uaddr, u32 *val)
{
	return user_word_read(uaddr, val, sizeof(*val));
}

static void __user *uptr32(u32 addr)
{
	return (void __user *)(unsigned long)addr;
}

/*
 * The handler returns to the trampoline: either the vDSO's, or the two
 * instructions the kernel wrote into the frame's mc_pad.
 */
static bool sig32_return_addr(u32 addr, u32 sp)
{
	void __user *vdso = current->mm->context.vdso;

	if (addr == sp + offsetof(struct sig32_stack, mctx.mc_pad))
		return true;
	return vdso && addr == VDSO32_SYMBOL(vdso, sigtramp32);
}

static bool rt_sig32_return_addr(u32 addr, u32 sp)
{
	void __user *vdso = current->mm->context.vdso;

	if (addr == sp + offsetof(struct rt_sig32_stack, uc.uc_mcontext.mc_pad))
		return true;
	return vdso && addr == VDSO32_SYMBOL(vdso, sigtramp_rt32);
}

/* sigcontext.regs must point at the frame's own mcontext */
static bool sig32_frame_sane(u32 sp)
{
	struct sig32_stack __user *sf = uptr32(sp);
	u32 regs;

	if (user_read32(&sf->sctx.regs, &regs))
		return false;
	return uptr32(regs) == &sf->mctx;
}

/* ucontext.uc_regs must point at the frame's own uc_mcontext */
static bool rt_sig32_frame_sane(u32 sp)
{
	struct rt_sig32_stack __user *sf = uptr32(sp);
	u32 regs;

	if (user_read32(&sf->uc.uc_regs, &regs))
		return false;
	return uptr32(regs) == &sf->uc.uc_mcontext;
}

/*
 * If the frame at @sp (whose back chain is @caller_sp) is a signal frame
 * that returns to @addr, the saved general registers of the interrupted
 * context, else NULL.  The size tests also accept a back chain that goes
 * down (unsigned wrap), as it does after an alternate signal stack.
 */
static u32 __user *sig32_saved_gprs(u32 sp, u32 caller_sp, u32 addr)
{
	struct sig32_mcontext __user *mctx;

	if (caller_sp - sp >= sizeof(struct sig32_stack) &&
	    sig32_return_addr(addr, sp) && sig32_frame_sane(sp)) {
		mctx = &((struct sig32_stack __user *)uptr32(sp))->mctx;
	} else if (caller_sp - sp >= sizeof(struct rt_sig32_stack) &&
		   rt_sig32_return_addr(addr, sp) && rt_sig32_frame_sane(sp)) {
		mctx = &((struct rt_sig32_stack __user *)uptr32(sp))->uc.uc_mcontext;
	} else {
		return NULL;
	}
	return (u32 __user *)mctx->mc_gregs;
}

void ppc_user_callchain32(struct perf_callchain_entry_ctx *entry,
			  struct pt_regs *regs)
{
	u32 ip = perf_instruction_pointer(regs);
	u32 lr = regs->link;
	u32 sp = regs->gpr[1];
	u32 caller_sp;
	u32 __user *gprs;
	/* frames stepped over since the innermost one of this context */
	unsigned int level = 0;

	if (perf_callchain_store(entry, ip))
		return;

	while (entry->nr < entry->max_stack) {
		u32 __user *frame = uptr32(sp);

		if (!user_sp_plausible(sp, 4, 16) ||
		    user_read32(&frame[0], &caller_sp))
			return;
		/* outer return addresses are in the caller's LR save word */
		if (level && user_read32(&frame[FRAME32_LR_SLOT], &ip))
			return;

		gprs = sig32_saved_gprs(sp, caller_sp, ip);
		if (!gprs && level <= 1)
			gprs = sig32_saved_gprs(sp, caller_sp, lr);
		if (gprs) {
			/* restart from the interrupted context's registers */
			if (user_read32(&gprs[PT_NIP], &ip) ||
			    user_read32(&gprs[PT_LNK], &lr) ||
			    user_read32(&gprs[PT_R1], &sp))
				return;
			level = 0;
			if (perf_callchain_store_context(entry, PERF_CONTEXT_USER) ||
			    perf_callchain_store(entry, ip))
				return;
			continue;
		}

		if (!level)
			ip = lr;
		if (perf_callchain_store(entry, ip))
			return;
		level++;
		sp = caller_sp;
	}
}
