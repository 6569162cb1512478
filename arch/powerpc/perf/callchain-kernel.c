// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc callchains: the kernel stack walk, and perf_callchain_user(),
 * which hands the user part to the 64-bit or 32-bit walker
 * (callchain-user64.c, callchain-user32.c).
 *
 * Context: PMU interrupt (NMI-like) or a software event, preemption off.
 * Takes no locks.  The kernel walk reads only stack words that
 * validate_sp() places inside one of current's (or this CPU's) kernel
 * stacks, and each step must move to a higher frame of the same stack
 * or to another stack, so it terminates.
 */
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/thread_info.h>
#include <asm/processor.h>
#include <asm/ptrace.h>

#include "callchain-user.h"

/*
 * May the walk go from the frame at @sp to the one at @next?  It must be
 * 16-byte aligned and on a kernel stack; within one stack (THREAD_SIZE
 * aligned area) frames only go up, by at least a minimal frame.  Going
 * down is allowed only when changing stacks (an interrupt or softirq
 * stack returning to the task stack).
 */
static bool kstack_next_ok(unsigned long next, unsigned long sp)
{
	if (next & 0xf)
		return false;
	if (!validate_sp(next, current, STACK_FRAME_OVERHEAD))
		return false;
	if (next >= sp + STACK_FRAME_MIN_SIZE)
		return true;
	return (next & ~(THREAD_SIZE - 1)) != (sp & ~(THREAD_SIZE - 1));
}

/*
 * Does the frame at @sp, whose back chain is @next, hold the pt_regs of
 * an interrupt taken in the kernel?  Interrupt entry builds a frame of
 * exactly STACK_INT_FRAME_SIZE tagged with STACK_FRAME_REGS_MARKER.
 * Like the walk itself, not KASAN-instrumented: it reads other
 * functions' stack frames.
 */
static bool __no_sanitize_address
kstack_is_int_frame(const unsigned long *frame, unsigned long next)
{
	unsigned long sp = (unsigned long)frame;

	return next == sp + STACK_INT_FRAME_SIZE &&
	       validate_sp(sp, current, STACK_INT_FRAME_SIZE) &&
	       frame[STACK_FRAME_MARKER] == STACK_FRAME_REGS_MARKER;
}

/*
 * Entries: the sampled instruction, then one return address per frame.
 * An interrupt frame restarts the chain behind a new PERF_CONTEXT_KERNEL
 * marker with the interrupted NIP.  Right after a (re)start, the first
 * two return addresses are guesses (the LR register, then the LR save
 * slot that may still hold a stale value): those that are no kernel text,
 * or the second repeating the first, become 0 rather than vanish, so the
 * tools still know which entry is which.
 */
void __no_sanitize_address
perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
		      struct pt_regs *regs)
{
	unsigned long sp = regs->gpr[1];
	unsigned long lr = regs->link;
	unsigned long ip, next;
	unsigned long *frame;
	/* frames stepped over since the last (re)start */
	unsigned int level = 0;

	if (perf_callchain_store(entry, perf_instruction_pointer(regs)))
		return;
	if (!validate_sp(sp, current, STACK_FRAME_OVERHEAD))
		return;

	for (;;) {
		frame = (unsigned long *)sp;
		next = frame[0];

		if (kstack_is_int_frame(frame, next)) {
			regs = (struct pt_regs *)(sp + STACK_FRAME_OVERHEAD);
			ip = regs->nip;
			lr = regs->link;
			level = 0;
			if (perf_callchain_store_context(entry,
							 PERF_CONTEXT_KERNEL))
				return;
		} else {
			ip = level ? frame[STACK_FRAME_LR_SAVE] : lr;
			if (level <= 1 && !kernel_text_address(ip))
				ip = 0;
			else if (level == 1 && ip == lr)
				ip = 0;
			level++;
		}

		if (perf_callchain_store(entry, ip))
			return;
		if (!kstack_next_ok(next, sp))
			return;
		sp = next;
	}
}

void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs)
{
	if (is_32bit_task())
		ppc_user_callchain32(entry, regs);
	else
		ppc_user_callchain64(entry, regs);
}
