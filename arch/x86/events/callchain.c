// SPDX-License-Identifier: GPL-2.0
/*
 * x86 callchains and the IP and flags of a sample.
 *
 * Kernel callchains come from the configured unwinder (frame pointer or
 * ORC), starting at the interrupted IP when the regs are from an
 * interrupt or exception, or at the caller's stack when they were made
 * by perf_arch_fetch_caller_regs() (tracepoints, software events).
 * User callchains follow the frame pointer chain (rbp, return address)
 * on the user stack, without faulting; a 32-bit task's segments are
 * applied.  Guest samples (taken while KVM runs a guest) get neither.
 *
 * perf_instruction_pointer() and perf_misc_flags() give the sample's IP
 * as a linear address and its privilege (user/kernel, host/guest,
 * exact IP from PEBS).
 *
 * Locking: runs in the sampling context (NMI or IRQs off), on current.
 */
#include <linux/perf_event.h>
#include <linux/uaccess.h>
#include <asm/desc.h>
#include <asm/ibt.h>
#include <asm/ldt.h>
#include <asm/mmu_context.h>
#include <asm/stacktrace.h>
#include <asm/tlbflush.h>
#include <asm/unwind.h>
#include <asm/uprobes.h>
#include "framework.h"

/* Regs from an interrupt carry EFLAGS' always-one bit; fetched ones do not. */
static bool perf_regs_from_interrupt(struct pt_regs *regs)
{
	return regs->flags & X86_EFLAGS_FIXED;
}

void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs)
{
	struct unwind_state state;
	unsigned long addr;

	if (perf_guest_state())
		return;

	if (perf_regs_from_interrupt(regs)) {
		if (perf_callchain_store(entry, regs->ip))
			return;
		unwind_start(&state, current, regs, NULL);
	} else {
		unwind_start(&state, current, NULL, (void *)regs->sp);
	}

	for (; !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || perf_callchain_store(entry, addr))
			return;
	}
}

/* The base of a GDT or LDT segment (0 if the selector is not valid). */
static unsigned long get_segment_base(unsigned int segment)
{
	unsigned int idx = segment >> 3;
	struct desc_struct *desc;

	if ((segment & SEGMENT_TI_MASK) == SEGMENT_LDT) {
#ifdef CONFIG_MODIFY_LDT_SYSCALL
		struct ldt_struct *ldt;

		/* IRQs are off: pairs with the smp_store_release() of a new LDT */
		ldt = READ_ONCE(current->active_mm->context.ldt);
		if (!ldt || idx >= ldt->nr_entries)
			return 0;
		desc = &ldt->entries[idx];
#else
		return 0;
#endif
	} else {
		if (idx >= GDT_ENTRIES)
			return 0;
		desc = raw_cpu_ptr(gdt_page.gdt) + idx;
	}
	return get_desc_base(desc);
}

/*
 * In a uprobe at a function's first instruction (push %rbp or endbr64,
 * with frame pointers) the frame is not set up yet: the caller's return
 * address is at the top of the stack, not behind rbp.
 */
static bool uprobe_at_function_entry(struct pt_regs *regs)
{
#ifdef CONFIG_UPROBES
	struct arch_uprobe *auprobe;

	if (!current->utask)
		return false;
	auprobe = current->utask->auprobe;
	if (!auprobe)
		return false;
	if (auprobe->insn[0] == 0x55)
		return true;
	if (user_64bit_mode(regs) && is_endbr(*(u32 *)auprobe->insn))
		return true;
#endif
	return false;
}

#ifdef CONFIG_IA32_EMULATION
#include <linux/compat.h>

/* A 32-bit task on a 64-bit kernel: 4-byte frames, segment bases. */
static bool perf_callchain_user32(struct pt_regs *regs,
				  struct perf_callchain_entry_ctx *entry)
{
	const struct stack_frame_ia32 __user *fp;
	unsigned long cs_base, ss_base;
	u32 next, ret;

	if (user_64bit_mode(regs))
		return false;

	cs_base = get_segment_base(regs->cs);
	ss_base = get_segment_base(regs->ss);
	fp = compat_ptr(ss_base + regs->bp);

	pagefault_disable();
	if (uprobe_at_function_entry(regs) &&
	    !get_user(ret, (const u32 __user *)regs->sp))
		perf_callchain_store(entry, ret);

	while (entry->nr < entry->max_stack) {
		if (!__access_ok(fp, sizeof(*fp)))
			break;
		if (__get_user(next, &fp->next_frame) ||
		    __get_user(ret, &fp->return_address))
			break;
		perf_callchain_store(entry, cs_base + ret);
		fp = compat_ptr(ss_base + next);
	}
	pagefault_enable();
	return true;
}
#else
static bool perf_callchain_user32(struct pt_regs *regs,
				  struct perf_callchain_entry_ctx *entry)
{
	return false;
}
#endif

void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs)
{
	const struct stack_frame __user *fp;
	unsigned long next, ret;

	if (perf_guest_state())
		return;
	/* vm86 stacks are not followed */
	if (regs->flags & (X86_VM_MASK | PERF_EFLAGS_VM))
		return;

	perf_callchain_store(entry, regs->ip);

	/* in an NMI during a CR3 switch, user memory may not be this task's */
	if (!nmi_uaccess_okay())
		return;
	if (perf_callchain_user32(regs, entry))
		return;

	fp = (const void __user *)regs->bp;
	pagefault_disable();
	if (uprobe_at_function_entry(regs) &&
	    !get_user(ret, (const unsigned long __user *)regs->sp))
		perf_callchain_store(entry, ret);

	while (entry->nr < entry->max_stack) {
		if (!__access_ok(fp, sizeof(*fp)))
			break;
		if (__get_user(next, (unsigned long __user *)&fp->next_frame) ||
		    __get_user(ret, &fp->return_address))
			break;
		perf_callchain_store(entry, ret);
		fp = (const void __user *)next;
	}
	pagefault_enable();
}

/*
 * The linear address of the code segment: non-zero only for a 32-bit
 * task with its own code segment (or vm86 on a 32-bit kernel).
 */
static unsigned long code_segment_base(struct pt_regs *regs)
{
#ifdef CONFIG_X86_32
	if (regs->flags & X86_VM_MASK)
		return 0x10 * regs->cs;
	if (user_mode(regs) && regs->cs != __USER_CS)
		return get_segment_base(regs->cs);
#else
	if (user_mode(regs) && !user_64bit_mode(regs) &&
	    regs->cs != __USER32_CS)
		return get_segment_base(regs->cs);
#endif
	return 0;
}

unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	if (perf_guest_state())
		return perf_guest_get_ip();
	return regs->ip + code_segment_base(regs);
}

unsigned long perf_misc_flags(struct pt_regs *regs)
{
	unsigned int guest = perf_guest_state();
	unsigned long misc;

	if (guest)
		misc = guest & PERF_GUEST_USER ? PERF_RECORD_MISC_GUEST_USER :
						 PERF_RECORD_MISC_GUEST_KERNEL;
	else
		misc = user_mode(regs) ? PERF_RECORD_MISC_USER :
					 PERF_RECORD_MISC_KERNEL;

	/* PEBS gave the IP of the instruction itself */
	if (regs->flags & PERF_EFLAGS_EXACT)
		misc |= PERF_RECORD_MISC_EXACT_IP;
	return misc;
}
