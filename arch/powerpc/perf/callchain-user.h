/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared pieces of the powerpc user-space callchain walkers
 * (callchain-user64.c for 64-bit tasks, callchain-user32.c for native
 * PPC32 and compat tasks; perf_callchain_user() in callchain-kernel.c
 * picks one).
 *
 * Context: called from the PMU interrupt (NMI-like, interrupts may be
 * soft-disabled) with preemption off.  No locks may be taken and user
 * memory must only be read through user_word_read(), which never faults
 * pages in: an unmapped or paged-out stack word just ends the walk.
 */
#ifndef _POWERPC_PERF_CALLCHAIN_USER_H
#define _POWERPC_PERF_CALLCHAIN_USER_H

#include <linux/perf_event.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>

#ifdef CONFIG_PPC64
void ppc_user_callchain64(struct perf_callchain_entry_ctx *entry,
			  struct pt_regs *regs);
#else
static inline void ppc_user_callchain64(struct perf_callchain_entry_ctx *entry,
					struct pt_regs *regs)
{
}
#endif

#if defined(CONFIG_PPC32) || defined(CONFIG_COMPAT)
void ppc_user_callchain32(struct perf_callchain_entry_ctx *entry,
			  struct pt_regs *regs);
#else
static inline void ppc_user_callchain32(struct perf_callchain_entry_ctx *entry,
					struct pt_regs *regs)
{
}
#endif

/*
 * Read one naturally aligned word of @len bytes (4 or 8) of the current
 * task's memory at @uaddr into @val.  Returns 0 or -EFAULT; never sleeps
 * and never takes a page fault (copy_from_user_nofault() checks
 * access_ok() and runs with page faults disabled).
 */
static inline int user_word_read(const void __user *uaddr, void *val,
				 size_t len)
{
	unsigned long addr = (unsigned long)uaddr;

	if ((addr & (len - 1)) || addr > TASK_SIZE - len)
		return -EFAULT;
	return copy_from_user_nofault(val, uaddr, len);
}

/*
 * Plausible user stack pointer: non-zero, aligned to @align bytes and
 * leaving at least @room bytes below the top of the user stack.
 */
static inline bool user_sp_plausible(unsigned long sp, unsigned long align,
				     unsigned long room)
{
	return sp && !(sp & (align - 1)) && sp <= STACK_TOP - room;
}

#endif /* _POWERPC_PERF_CALLCHAIN_USER_H */
