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
 * see POLLHUP; an inherited inherit_stat one writes a PERF_RECORD_READ
 * of its values first).  COMM records at exec are part 2 (perf_event_comm()).
 *
 * Locking: the task's ctx->mutex around every change; inherited children
 * are folded after it is dropped (perf_event_fold_child() takes their
 * parents' child_mutex).  The context is no clone any more after an exec
 * (ctx_swap.c): it stays the task's while this sleeps on its mutex.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "internal.h"

/*
 * Take the remove_on_exec events out of @ctx; inherited ones go on @fold
 * with a reference.
 */
static void perf_remove_on_exec(struct perf_event_context *ctx, struct list_head *fold)
{
	struct perf_event *event, *tmp;

	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		if (!event->attr.remove_on_exec)
			continue;
		perf_event_detach_exit(event, fold, DETACH_GROUP);
		/* an inherit_stat child tells its own values (6.1 does here) */
		if (event->parent && event->attr.inherit_stat)
			perf_record_read(event, current);
	}
}

void perf_event_exec(void)
{
	struct perf_event_context *ctx;
	struct perf_event *event, *tmp;
	LIST_HEAD(fold);

	ctx = perf_task_ctx_hold(current);
	if (!ctx)
		return;

	mutex_lock(&ctx->mutex);
	if (READ_ONCE(ctx->task) == current) {
		perf_addr_filters_exec(ctx);
		perf_ctx_enable_on_exec(ctx);
		perf_remove_on_exec(ctx, &fold);
	}
	mutex_unlock(&ctx->mutex);

	list_for_each_entry_safe(event, tmp, &fold, migrate_entry) {
		list_del_init(&event->migrate_entry);
		perf_event_fold_child(event);
	}
	perf_task_ctx_unpin(ctx);
}
