// SPDX-License-Identifier: GPL-2.0
/*
 * Events across execve(): perf_event_exec(), called by the task itself
 * once the exec can no longer fail.
 *
 * Owns: enable_on_exec (each such event of the task's context is enabled
 * at the first exec that follows and the flag is consumed, so a later exec
 * does not enable it again) and remove_on_exec (the event leaves the
 * context: an inherited child folds into its parent, any other event stays
 * open and readable with its count frozen in state EXIT and its pollers
 * see POLLHUP).  COMM records at exec are part 2 (perf_event_comm()).
 *
 * Locking: the task's ctx->mutex around every change; inherited children
 * are folded after it is dropped (perf_event_fold_child() takes their
 * parents' child_mutex).  When anything changed, the context stops being
 * a clone of its parent's (ctx->parent_ctx, under ctx->lock too).
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "internal.h"

/* Enable the task's enable_on_exec events; true if one was enabled. */
static bool perf_enable_on_exec(struct perf_event_context *ctx)
{
	struct perf_event *event;
	bool changed = false;

	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (!event->attr.enable_on_exec)
			continue;
		/* fires once: the next exec leaves the event as it finds it */
		event->attr.enable_on_exec = 0;
		if (event->state >= PERF_EVENT_STATE_INACTIVE)
			continue;
		_perf_event_enable(event);
		changed = true;
	}
	return changed;
}

/*
 * Take the remove_on_exec events out of @ctx; inherited ones go on @fold
 * with a reference.  True if any event left.
 */
static bool perf_remove_on_exec(struct perf_event_context *ctx, struct list_head *fold)
{
	struct perf_event *event, *tmp;
	bool changed = false;

	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		if (!event->attr.remove_on_exec)
			continue;
		changed = true;
		perf_event_detach_exit(event, fold);
	}
	return changed;
}

/* @ctx changed: it is no longer equivalent to its parent or its clones. */
static struct perf_event_context *perf_ctx_unclone(struct perf_event_context *ctx)
{
	struct perf_event_context *clone;

	raw_spin_lock_irq(&ctx->lock);
	clone = ctx->parent_ctx;
	ctx->parent_ctx = NULL;
	ctx->generation++;
	raw_spin_unlock_irq(&ctx->lock);
	return clone;
}

void perf_event_exec(void)
{
	struct perf_event_context *ctx, *clone = NULL;
	struct perf_event *event, *tmp;
	bool changed;
	LIST_HEAD(fold);

	rcu_read_lock();
	ctx = rcu_dereference(current->perf_event_ctxp);
	if (ctx)
		perf_ctx_get(ctx);
	rcu_read_unlock();
	if (!ctx)
		return;

	mutex_lock(&ctx->mutex);
	if (READ_ONCE(ctx->task) == current) {
		changed = perf_enable_on_exec(ctx);
		changed |= perf_remove_on_exec(ctx, &fold);
		if (changed)
			clone = perf_ctx_unclone(ctx);
	}
	mutex_unlock(&ctx->mutex);

	list_for_each_entry_safe(event, tmp, &fold, migrate_entry) {
		list_del_init(&event->migrate_entry);
		perf_event_fold_child(event);
	}
	if (clone)
		perf_ctx_put(clone);
	perf_ctx_put(ctx);
}
