// SPDX-License-Identifier: GPL-2.0
/*
 * Context swapping: two tasks whose contexts hold the same inherited
 * events exchange their contexts at a context switch, instead of taking
 * every event off the PMU and putting its twin back on.  This is what
 * keeps "perf stat" of a multi-process workload cheap: the counters of a
 * parent and of its forked children are inherited copies of the same
 * events, whose counts all add up into the parents.
 *
 * Owns: marking a fork child's context as a clone (perf_ctx_mark_clone()),
 * ending the relation when a context changes (perf_ctx_changed(),
 * perf_ctx_unclone()), finding a task's context so that it stays the
 * task's (perf_task_ctx_hold(), perf_task_ctx_pin()), and the swap itself
 * (perf_ctx_try_swap()).
 *
 * Clones: ctx->parent_ctx is the root context a clone was made from, with
 * a reference; a clone of a clone names the same root, so that all the
 * copies of one root compare equal.  ctx->parent_gen is the root's
 * generation at the fork.  Two contexts are equivalent when both are
 * clones of one root at one generation, or when one is that root, still
 * at that generation.  Installing or removing an event bumps a context's
 * generation and makes it a clone no more.  A context whose events act on
 * their own task (sigtrap) or keep per-task counts (inherit_stat) is never
 * marked as a clone.
 *
 * Locking: parent_ctx, parent_gen and pin_count change under ctx->lock,
 * generation under ctx->lock and ctx->mutex.  The swap runs in the context
 * switch, IRQs off, with the outgoing context's lock and the incoming
 * one's (nested) held, and changes ctx->task and
 * task->perf_event_ctxp of both: whoever holds a context's lock sees its
 * task stable.  Code that looks a task's context up in order to change it
 * (open, exit, exec) unclones and pins it under its lock after checking
 * ctx->task, so it stays with its task until it unpins it (unclone alone
 * is not enough: a root has no parent_ctx, yet its clones are its twins);
 * fork pins the parent's context while it copies it, so the copy is the
 * task's own.
 */
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "internal.h"

void perf_ctx_unclone(struct perf_event_context *ctx)
{
	struct perf_event_context *root = ctx->parent_ctx;

	lockdep_assert_held(&ctx->lock);
	if (!root)
		return;
	ctx->parent_ctx = NULL;
	perf_ctx_put(root);
}

void perf_ctx_changed(struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	ctx->generation++;
	perf_ctx_unclone(ctx);
}

void perf_ctx_mark_clone(struct perf_event_context *child,
			 struct perf_event_context *parent)
{
	struct perf_event_context *root = parent->parent_ctx;
	u64 gen = parent->parent_gen;

	lockdep_assert_held(&parent->mutex);
	if (!root) {
		root = parent;
		gen = parent->generation;
	}
	perf_ctx_get(root);
	raw_spin_lock_irq(&child->lock);
	child->parent_ctx = root;
	child->parent_gen = gen;
	raw_spin_unlock_irq(&child->lock);
}

/*
 * @task's context with a reference, locked and checked to be the task's:
 * a swap may hand it to another task between the RCU lookup and the lock.
 * IRQs are off on return when a context is returned.
 */
static struct perf_event_context *perf_task_ctx_lock(struct task_struct *task)
{
	struct perf_event_context *ctx;

	for (;;) {
		rcu_read_lock();
		ctx = rcu_dereference(task->perf_event_ctxp);
		if (ctx && !perf_ctx_tryget(ctx))
			ctx = NULL;
		rcu_read_unlock();
		if (!ctx)
			return NULL;
		local_irq_disable();
		raw_spin_lock(&ctx->lock);
		if (ctx->task == task)
			return ctx;
		raw_spin_unlock(&ctx->lock);
		local_irq_enable();
		perf_ctx_put(ctx);
	}
}

/*
 * A clone no more, and pinned: it may still be the root other contexts
 * were cloned from, and a root is their twin (perf_ctx_equivalent()), so
 * only the pin keeps it from being swapped to another task while the
 * caller sleeps on its mutex.  perf_task_ctx_unhold() ends the pin.
 */
struct perf_event_context *perf_task_ctx_hold(struct task_struct *task)
{
	struct perf_event_context *ctx = perf_task_ctx_lock(task);

	if (ctx) {
		perf_ctx_unclone(ctx);
		ctx->pin_count++;
		raw_spin_unlock_irq(&ctx->lock);
	}
	return ctx;
}

void perf_task_ctx_unhold(struct perf_event_context *ctx)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	ctx->pin_count--;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

struct perf_event_context *perf_task_ctx_pin(struct task_struct *task)
{
	struct perf_event_context *ctx = perf_task_ctx_lock(task);

	if (ctx) {
		ctx->pin_count++;
		raw_spin_unlock_irq(&ctx->lock);
	}
	return ctx;
}

void perf_task_ctx_unpin(struct perf_event_context *ctx)
{
	perf_task_ctx_unhold(ctx);
	perf_ctx_put(ctx);
}

bool perf_ctx_equivalent(struct perf_event_context *a, struct perf_event_context *b)
{
	if (a->pin_count || b->pin_count)
		return false;
	if (a->parent_ctx)
		return (a->parent_ctx == b->parent_ctx && a->parent_gen == b->parent_gen) ||
		       (a->parent_ctx == b && a->parent_gen == b->generation);
	return b->parent_ctx == a && b->parent_gen == a->generation;
}

bool perf_ctx_try_swap(struct perf_event_context *ctx, struct task_struct *prev,
		       struct task_struct *next)
{
	struct perf_event_context *next_ctx = rcu_dereference_raw(next->perf_event_ctxp);
	bool swapped = false;

	lockdep_assert_irqs_disabled();
	/* most contexts are no clone, nor a root with a clone running next */
	if (!next_ctx || (!READ_ONCE(ctx->parent_ctx) && !READ_ONCE(next_ctx->parent_ctx)))
		return false;
	/* a PMU that wants to see the switch (LBR call stacks) sees it */
	if (perf_sched_cb_active())
		return false;

	/*
	 * Not the CPU context's lock: nothing of this CPU changes, and
	 * whoever else looks at the context on this CPU does so with IRQs
	 * off here, or under ctx->lock.
	 */
	raw_spin_lock(&ctx->lock);
	raw_spin_lock_nested(&next_ctx->lock, SINGLE_DEPTH_NESTING);
	if (ctx->task == prev && next_ctx->task == next && !next_ctx->is_active &&
	    perf_ctx_equivalent(ctx, next_ctx)) {
		/* the events on the PMU go on counting, for @next now */
		WRITE_ONCE(ctx->task, next);
		WRITE_ONCE(next_ctx->task, prev);
		RCU_INIT_POINTER(prev->perf_event_ctxp, next_ctx);
		RCU_INIT_POINTER(next->perf_event_ctxp, ctx);
		swapped = true;
	}
	raw_spin_unlock(&next_ctx->lock);
	raw_spin_unlock(&ctx->lock);
	return swapped;
}
