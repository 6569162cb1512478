// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User callchains of 64-bit powerpc tasks: follow the stack back chain,
 * and step through signal frames into the interrupted context.
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

/* Doubleword of a 64-bit ABI stack frame that receives its callee's LR */
#define FRAME64_LR_SLOT		2

/* Words of the on-stack sigreturn trampoline (signal_64.c's TRAMP_SIZE) */
#define SIG64_TRAMP_WORDS	7

/*
 * The stack of a 64-bit task seen from a signal handler's initial r1:
 * the dummy caller frame the kernel leaves below the signal frame, then
 * the rt_sigframe of arch/powerpc/kernel/signal_64.c (both RT and
 * non-RT signals use it).  Field order and sizes are that ABI.
 */
struct sig64_stack {
	char			caller_frame[__SIGNAL_FRAMESIZE];
	struct ucontext		uc;
#ifdef CONFIG_PPC_TRANSACTIONAL_MEM
	struct ucontext		uc_transact;
#endif
	unsigned long		unused[2];
	unsigned int		tramp[SIG64_TRAMP_WORDS];
	struct siginfo __user	*pinfo;
	void __user		*puc;
	struct siginfo		info;
	char			redzone[USER_REDZONE_SIZE];
} __aligned(16);

static int user_read64(const void __user *uaddr, unsigned long *val)
{
	return user_word_read(uaddr, val, sizeof(*val));
}

/*
 * The trampoline starts with the bctrl that calls the handler, so the
 * handler returns to its second instruction; a sample taken before the
 * bctrl sees its first.  Accept both.
 */
static bool in_sigtramp64(unsigned long addr, unsigned long start)
{
	return addr == start || addr == start + 4;
}

/* Is @addr a sigreturn trampoline for a signal frame at @sp? */
static bool sig64_return_addr(unsigned long addr, unsigned long sp)
{
	void __user *vdso = current->mm->context.vdso;

	if (in_sigtramp64(addr, sp + offsetof(struct sig64_stack, tramp)))
		return true;
	return vdso && in_sigtramp64(addr, VDSO64_SYMBOL(vdso, sigtramp_rt64));
}

/* The frame's siginfo and ucontext pointers must point into the frame */
static bool sig64_frame_sane(unsigned long sp)
{
	struct sig64_stack __user *sf = (struct sig64_stack __user *)sp;
	unsigned long pinfo, puc;

	if (user_read64(&sf->pinfo, &pinfo) || user_read64(&sf->puc, &puc))
		return false;
	return pinfo == (unsigned long)&sf->info &&
	       puc == (unsigned long)&sf->uc;
}

/* Load NIP, LR and r1 of the context the signal interrupted */
static int sig64_interrupted(unsigned long sp, unsigned long *ip,
			     unsigned long *lr, unsigned long *r1)
{
	struct sig64_stack __user *sf = (struct sig64_stack __user *)sp;
	unsigned long __user *gpr = sf->uc.uc_mcontext.gp_regs;

	if (user_read64(&gpr[PT_NIP], ip) || user_read64(&gpr[PT_LNK], lr) ||
	    user_read64(&gpr[PT_R1], r1))
		return -EFAULT;
	return 0;
}

void ppc_user_callchain64(struct perf_callchain_entry_ctx *entry,
			  struct pt_regs *regs)
{
	unsigned long ip = perf_instruction_pointer(regs);
	unsigned long lr = regs->link;
	unsigned long sp = regs->gpr[1];
	unsigned long caller_sp;
	/* frames stepped over since the innermost one of this context */
	unsigned int level = 0;

	if (perf_callchain_store(entry, ip))
		return;

	while (entry->nr < entry->max_stack) {
		unsigned long __user *frame = (unsigned long __user *)sp;

		if (!user_sp_plausible(sp, 8, 32) ||
		    user_read64(&frame[0], &caller_sp))
			return;
		/*
		 * The innermost function may not have saved LR yet, so its
		 * return address is the LR register (used below); every
		 * outer one is in the LR save slot of its caller's frame.
		 */
		if (level && user_read64(&frame[FRAME64_LR_SLOT], &ip))
			return;

		/*
		 * A signal frame: the size test also accepts a back chain
		 * that goes down (unsigned wrap), as it does when the
		 * handler ran on an alternate signal stack.
		 */
		if (caller_sp - sp >= sizeof(struct sig64_stack) &&
		    (sig64_return_addr(ip, sp) ||
		     (level <= 1 && sig64_return_addr(lr, sp))) &&
		    sig64_frame_sane(sp)) {
			if (sig64_interrupted(sp, &ip, &lr, &sp))
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
