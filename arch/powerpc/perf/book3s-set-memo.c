// SPDX-License-Identifier: GPL-2.0
/*
 * Book3S PMU framework: the sets of events a CPU checked and programmed
 * lately, each as it went onto an empty PMU.
 *
 * A task that is switched in brings its events to counters left empty by
 * the task before, on the codes the constraint check chose the last time
 * it ran.  The check (book3s_fit_events() and the conflict rules) and the
 * model's MMCR computation are pure functions of the set: its events (by
 * their attr: exclude bits, config1, branch filter), their codes and their
 * order.  Remembering their answers for the last few sets that went onto
 * an empty PMU at once (one event, or one group in a transaction: a few
 * tasks taking turns on the CPU) turns the context switch of such a task
 * into a comparison of a few words.  Sets built one group at a time are
 * not remembered: the several groups of a task multiplexing come back in
 * other combinations, and looking for them would cost every add().
 *
 * Events are known by event->id, which is never reused (an event freed
 * and another allocated at the same address differ), and their attr does
 * not change while they live (MODIFY_ATTRIBUTES is for breakpoints only).
 *
 * Locking: struct book3s_memo lives in the CPU's struct book3s_cpu and is
 * touched by that CPU only, with interrupts disabled (book3s-schedule.c).
 * Pure functions otherwise: no hardware access (KUnit:
 * book3s-constraints_test.c).
 */
#include <linux/perf_event.h>
#include <linux/string.h>
#include "book3s.h"

static bool book3s_memo_same_events(const struct book3s_memo_set *set,
				    struct perf_event *events[], int n)
{
	int i;

	if (set->n != n)
		return false;
	for (i = 0; i < n; i++)
		if (set->id[i] != events[i]->id)
			return false;
	return true;
}

/**
 * book3s_memo_find - an earlier check of this set
 * @memo: the CPU's memo
 * @events: the set
 * @codes: in: the codes asked for; out: the codes to program, on a hit
 * @n: the number of events
 *
 * Return: the entry of the same events asked for on the same codes, which
 * fitted (@codes then holds the codes it chose), or NULL.
 */
struct book3s_memo_set *book3s_memo_find(struct book3s_memo *memo,
					 struct perf_event *events[], u64 codes[], int n)
{
	struct book3s_memo_set *set;
	int i;

	for (set = memo->set; set < memo->set + BOOK3S_MEMO_SETS; set++) {
		if (set->n != n)
			continue;
		/* a few words each: no memcmp() call */
		for (i = 0; i < n; i++)
			if (set->id[i] != events[i]->id || set->code_in[i] != codes[i])
				break;
		if (i < n)
			continue;
		for (i = 0; i < n; i++)
			codes[i] = set->code_out[i];
		return set;
	}
	return NULL;
}

/**
 * book3s_memo_save - remember a set that fitted
 * @memo: the CPU's memo
 * @events: the set
 * @code_in: the codes it was asked for
 * @code_out: the codes the check chose
 * @n: the number of events
 *
 * Takes the entry of the same events if there is one (asked for on other
 * codes), else the oldest.  Its MMCRs are not known yet.
 *
 * Return: the entry.
 */
struct book3s_memo_set *book3s_memo_save(struct book3s_memo *memo,
					 struct perf_event *events[], const u64 code_in[],
					 const u64 code_out[], int n)
{
	struct book3s_memo_set *set;
	int i;

	for (set = memo->set; set < memo->set + BOOK3S_MEMO_SETS; set++)
		if (book3s_memo_same_events(set, events, n))
			break;
	if (set == memo->set + BOOK3S_MEMO_SETS) {
		set = &memo->set[memo->next];
		memo->next = (memo->next + 1) % BOOK3S_MEMO_SETS;
	}

	set->n = n;
	for (i = 0; i < n; i++)
		set->id[i] = events[i]->id;
	memcpy(set->code_in, code_in, n * sizeof(u64));
	memcpy(set->code_out, code_out, n * sizeof(u64));
	set->have_mmcr = false;
	return set;
}

/**
 * book3s_memo_get_mmcr - the MMCRs computed for @set, if they were
 * @set: an entry of the memo
 * @mmcr: receives the MMCR values
 * @pmc_of: receives the 0-based PMC of each event
 *
 * Return: false if they are not known yet.
 */
bool book3s_memo_get_mmcr(const struct book3s_memo_set *set, struct mmcr_regs *mmcr,
			  unsigned int pmc_of[])
{
	if (!set->have_mmcr)
		return false;
	*mmcr = set->mmcr;
	memcpy(pmc_of, set->pmc_of, set->n * sizeof(*pmc_of));
	return true;
}

/**
 * book3s_memo_put_mmcr - remember the MMCRs computed for @set
 * @set: an entry of the memo
 * @mmcr: the MMCR values the model computed for its codes
 * @pmc_of: the 0-based PMC of each event
 */
void book3s_memo_put_mmcr(struct book3s_memo_set *set, const struct mmcr_regs *mmcr,
			  const unsigned int pmc_of[])
{
	set->mmcr = *mmcr;
	memcpy(set->pmc_of, pmc_of, set->n * sizeof(*pmc_of));
	set->have_mmcr = true;
}
