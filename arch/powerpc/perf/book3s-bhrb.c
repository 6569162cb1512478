// SPDX-License-Identifier: GPL-2.0
/*
 * Book3S PMU framework: branch stacks from the Branch History Rolling
 * Buffer (BHRB, ISA 2.07+), for PERF_SAMPLE_BRANCH_STACK.
 *
 * The BHRB holds the addresses of recent taken branches, newest first
 * (entry 0), read one by one with mfbhrbe (read_bhrb(), bhrb-read.c).  An
 * entry is either a branch's own address ("from"), whose target the
 * instruction encodes (I- and B-form: we decode it), or, for XL-form
 * branches (blr, bctr, ...), a target entry marked BHRB_TARGET followed by
 * the entry of the branch that went there.  A zero entry ends the list.
 * book3s_bhrb_read() copies the raw entries out at the PMI;
 * book3s_bhrb_decode(), a pure function (KUnit: book3s-bhrb_test.c),
 * pairs them into branches, and drops a pair as one when it hides the
 * kernel's branches (before ISA 3.1 the buffer records them too).
 *
 * The BHRB has one filter per CPU: all branch-stack events on a CPU ask
 * for the same one (book3s_branch_filters_conflict(), checked with the
 * counter constraints), and pmu_enable() applies it last.
 *
 * The buffer is cleared when the branch-stack users of a CPU change task
 * context and at each context switch in (sched_task), so one task never
 * sees another's branches.
 *
 * Context: the PMI (book3s_bhrb_read) and the scheduler with interrupts
 * disabled; per-CPU state only.
 */
#include <linux/perf_event.h>
#include <linux/uaccess.h>
#include <asm/code-patching.h>
#include <asm/ppc-opcode.h>
#include "book3s.h"

#define BHRB_PREDICTION		0x1UL	/* the branch was mispredicted */
#define BHRB_TARGET		0x2UL	/* entry is a target address */
#define BHRB_EA			(~0x3UL)

static void book3s_bhrb_clear(void)
{
	asm volatile(PPC_CLRBHRB);
}

/* First branch-stack event of a context on this CPU: start clean. */
void book3s_bhrb_get(struct perf_event *event)
{
	struct book3s_cpu *cpuhw = this_cpu_ptr(&book3s_cpu);

	if (!book3s_ppmu->bhrb_nr)
		return;
	if (event->ctx->task && cpuhw->bhrb_owner_ctx != event->ctx) {
		book3s_bhrb_clear();
		cpuhw->bhrb_owner_ctx = event->ctx;
	}
	cpuhw->bhrb_users++;
	perf_sched_cb_inc(event->ctx->pmu);
}

void book3s_bhrb_put(struct perf_event *event)
{
	struct book3s_cpu *cpuhw = this_cpu_ptr(&book3s_cpu);

	if (!book3s_ppmu->bhrb_nr)
		return;
	WARN_ON_ONCE(!cpuhw->bhrb_users);
	cpuhw->bhrb_users--;
	perf_sched_cb_dec(event->ctx->pmu);
	if (!cpuhw->bhrb_users)
		cpuhw->bhrb_owner_ctx = NULL;	/* do not keep a stale ctx */
}

/* pmu::sched_task: a new task's branches start from an empty buffer. */
void book3s_sched_task(struct perf_event_context *ctx, bool sched_in)
{
	if (book3s_ppmu && book3s_ppmu->bhrb_nr && sched_in)
		book3s_bhrb_clear();
}

/* The target of the I/B-form branch at addr, 0 if it cannot be read. */
static u64 book3s_branch_to(u64 addr)
{
	unsigned int insn;
	unsigned long target;

	if (is_kernel_addr(addr)) {
		if (copy_from_kernel_nofault(&insn, (void *)addr, sizeof(insn)))
			return 0;
		return branch_target(&insn);
	}

	if (copy_from_user_nofault(&insn, (unsigned int __user *)addr,
				   sizeof(insn)))
		return 0;
	target = branch_target(&insn);
	if (!target || (insn & BRANCH_ABSOLUTE))
		return target;
	/* relative: branch_target() computed it from our copy's address */
	return target - (unsigned long)&insn + addr;
}

static void book3s_bhrb_entry(struct perf_branch_entry *e, u64 from, u64 to,
			      bool mispred)
{
	memset(e, 0, sizeof(*e));
	e->from = from;
	e->to = to;
	e->mispred = mispred;
	e->predicted = !mispred;
}

/**
 * book3s_bhrb_decode - branch entries from the raw BHRB
 * @raw: the entries as mfbhrbe reads them, newest first; 0 ends the list
 * @nr: number of values in @raw
 * @hide_kernel: leave out branches from or to the kernel
 * @out: receives the branches
 * @max: room in @out
 *
 * Return: the number of branches written.
 */
int book3s_bhrb_decode(const u64 *raw, int nr, bool hide_kernel,
		       struct perf_branch_entry *out, int max)
{
	int r = 0, n = 0;
	u64 val, from, to;
	bool mispred;

	while (r < nr && n < max) {
		val = raw[r++];
		if (!val)
			break;			/* end of the valid entries */
		mispred = val & BHRB_PREDICTION;
		if (!(val & BHRB_EA))
			continue;

		if (val & BHRB_TARGET) {
			/*
			 * XL-form: the branch itself is the next entry, unless
			 * that is the end or another target (then unknown).
			 */
			to = val & BHRB_EA;
			from = 0;
			if (r < nr && raw[r] && !(raw[r] & BHRB_TARGET))
				from = raw[r++] & BHRB_EA;
		} else {
			from = val & BHRB_EA;
			to = 0;
		}

		/* the pair goes or stays as one */
		if (hide_kernel && (is_kernel_addr(from) || is_kernel_addr(to)))
			continue;
		if (!(val & BHRB_TARGET)) {
			to = book3s_branch_to(from);
			if (hide_kernel && is_kernel_addr(to))
				continue;
		}
		book3s_bhrb_entry(&out[n++], from, to, mispred);
	}
	return n;
}

/* Fill cpuhw->bhrb_stack from the buffer (at a PMI, counters frozen). */
void book3s_bhrb_read(struct perf_event *event, struct book3s_cpu *cpuhw)
{
	int max = min(book3s_ppmu->bhrb_nr, BOOK3S_BHRB_MAX);
	u64 raw[BOOK3S_BHRB_MAX];
	int nr;

	for (nr = 0; nr < max; nr++) {
		raw[nr] = read_bhrb(nr);
		if (!raw[nr])
			break;
	}
	/*
	 * Before ISA 3.1 the buffer also records kernel branches: hide them
	 * from events that exclude the kernel.
	 */
	cpuhw->bhrb_stack.nr =
		book3s_bhrb_decode(raw, nr, !(book3s_ppmu->flags & PPMU_ARCH_31) &&
				   event->attr.exclude_kernel,
				   cpuhw->bhrb_entries, max);
	cpuhw->bhrb_stack.hw_idx = -1ULL;
}
