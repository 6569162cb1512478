// SPDX-License-Identifier: GPL-2.0
/*
 * Inheritance of events across fork, and the end of a task's context.
 *
 * Owns: perf_event_init_task() (fork: clone the parent's inheritable
 * groups into a new child context), perf_event_exit_task() (the task's
 * context goes away: non-inherited events stay readable in state EXIT,
 * their groups whole; inherited children fold into their parents), perf_event_free_task() (a
 * fork that failed), perf_event_delayed_put() and perf_event_fold_child().
 *
 * Locking: fork holds the forking task's ctx->mutex while it walks the
 * groups, and the new child context's mutex (nested) while it copies them
 * all into it: nothing else can see that context until a copy is linked
 * to its parent, so the copies are made first and then go in together, in
 * one hold of its ctx->lock, without cross-CPU calls.
 * A child is linked on its top-level parent's child_list under that
 * parent's child_mutex once every copy is installed, and never while
 * holding the child context's mutex; when that parent is not
 * in the forking context (a grandchild), only after the forking ctx->mutex
 * is dropped too, since the parent's release may hold its child_mutex
 * while it waits for the forking context's mutex.  Whoever unlinks a child
 * from child_list under child_mutex owns the reference the link held
 * (this side here, perf_event_release() on the parent side).  Exit removes
 * the events under ctx->mutex, then drops it before taking any parent's
 * child_mutex to fold, so child_mutex is never taken inside a child's
 * ctx->mutex.  The exiting task's context is scheduled out, marked
 * TASK_TOMBSTONE, unpublished and emptied (perf_ctx_remove_all_exit()) in
 * one IRQs-off section under ctx->lock.  A failed fork's
 * perf_event_free_task() then sleeps, holding no lock, until the copies
 * that a parent's release took from child_list are freed (they point to
 * the task copy_process() frees): perf_ctx_put() wakes it.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "internal.h"

/* ---- exit ------------------------------------------------------------- */

/*
 * @child has left its context (exit or remove_on_exec): add its final
 * count and times to its parent and unlink it.  Called without any
 * ctx->mutex or child_mutex held, with a reference on @child that is
 * dropped here.
 */
void perf_event_fold_child(struct perf_event *child)
{
	struct perf_event *parent = child->parent;
	bool linked;

	/* its totals are final only once it is out (and nothing puts it back) */
	WARN_ON_ONCE(READ_ONCE(child->attach_state) & PERF_ATTACH_CONTEXT);
	if (WARN_ON_ONCE(!parent)) {
		perf_event_put(child);
		return;
	}

	mutex_lock(&parent->child_mutex);
	linked = !list_empty(&child->child_list);
	if (linked) {
		atomic64_add(perf_event_count(child), &parent->child_count);
		atomic64_add(child->total_time_enabled, &parent->child_total_time_enabled);
		atomic64_add(child->total_time_running, &parent->child_total_time_running);
		/* a group read that sees the list empty sees the count too */
		smp_wmb();
		list_del_init(&child->child_list);
	}
	mutex_unlock(&parent->child_mutex);

	if (!linked) {
		perf_event_put(child);		/* the caller's */
		return;
	}
	/* the last child gone may be what a poller of the parent waits for */
	perf_event_wakeup(parent);
	/* the child_list link's reference and the caller's */
	if (atomic_long_sub_and_test(2, &child->refcount))
		perf_free_event(child);
}

void perf_event_detach_exit(struct perf_event *event, struct list_head *fold,
			    unsigned long flags)
{
	if (event->parent) {
		perf_event_ref(event);
		perf_remove_from_context(event, DETACH_GROUP | DETACH_EXIT);
		list_add_tail(&event->migrate_entry, fold);
	} else {
		perf_remove_from_context(event, flags | DETACH_EXIT);
		perf_event_wakeup(event);
	}
}

/*
 * Sort the events that left @ctx at exit (on @gone; ctx->mutex held).
 * Non-inherited events stay in state EXIT with their final values, keeping
 * event->ctx for read(), and their pollers are woken; inherited ones are
 * queued on @fold, with a reference, for perf_event_fold_child().
 */
static void perf_ctx_sort_exited(struct list_head *gone, struct list_head *fold)
{
	struct perf_event *event, *tmp;

	/* @gone goes whole: its entries are reused or reset, not unlinked */
	list_for_each_entry_safe(event, tmp, gone, migrate_entry) {
		if (event->parent) {
			/* before ctx->mutex goes: a parent's release waits for it */
			perf_event_ref(event);
			list_add_tail(&event->migrate_entry, fold);
		} else {
			INIT_LIST_HEAD(&event->migrate_entry);
			perf_event_wakeup(event);
		}
	}
	INIT_LIST_HEAD(gone);
}

static void perf_fold_list(struct list_head *fold)
{
	struct perf_event *event, *tmp;

	/* @fold goes whole (and each event may go with its fold) */
	list_for_each_entry_safe(event, tmp, fold, migrate_entry) {
		INIT_LIST_HEAD(&event->migrate_entry);
		perf_event_fold_child(event);
	}
	INIT_LIST_HEAD(fold);
}

/*
 * Detach @task's context: schedule it out if it runs here, mark it
 * TASK_TOMBSTONE, unpublish it and empty it, in one IRQs-off section.
 * Drops the task's reference; the context lives on while removed events
 * point to it.
 */
static void perf_task_ctx_detach(struct task_struct *task)
{
	struct perf_event_context *ctx;
	struct perf_cpu_context *cpuctx;
	struct perf_ctx_pmu *cpmu, *next;
	LIST_HEAD(emptied);
	LIST_HEAD(gone);
	LIST_HEAD(fold);

	/*
	 * Only the task itself (exit) or a failed fork gets here.  No clone
	 * any more: a swap must not hand it to another task while this
	 * sleeps on its mutex (ctx_swap.c).
	 */
	ctx = perf_task_ctx_hold(task);
	if (!ctx)
		return;

	mutex_lock(&ctx->mutex);
	local_irq_disable();
	cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	perf_ctx_lock(cpuctx, ctx);
	if (cpuctx->task_ctx == ctx)
		perf_ctx_sched_out(cpuctx, ctx);
	WARN_ON_ONCE(ctx->is_active);
	WRITE_ONCE(ctx->task, TASK_TOMBSTONE);
	RCU_INIT_POINTER(task->perf_event_ctxp, NULL);
	perf_ctx_remove_all_exit(ctx, &gone, &emptied);
	perf_ctx_unlock(cpuctx, ctx);
	local_irq_enable();

	list_for_each_entry_safe(cpmu, next, &emptied, node)
		kfree(cpmu);
	perf_ctx_sort_exited(&gone, &fold);
	mutex_unlock(&ctx->mutex);

	perf_fold_list(&fold);
	perf_ctx_put(ctx);			/* the task's reference */
	perf_task_ctx_unpin(ctx);		/* perf_task_ctx_hold()'s */
}

void perf_event_exit_task(struct task_struct *child)
{
	struct perf_event *event, *tmp;

	/* events this task opened (prctl): they no longer have an owner */
	mutex_lock(&child->perf_event_mutex);
	list_for_each_entry_safe(event, tmp, &child->perf_event_list, owner_entry) {
		list_del_init(&event->owner_entry);
		/* pairs with READ_ONCE(event->owner) in perf_event_release() */
		smp_store_release(&event->owner, NULL);
	}
	mutex_unlock(&child->perf_event_mutex);

	perf_record_exit(child);
	perf_task_ctx_detach(child);
}

/*
 * A fork failed after perf_event_init_task(): the child never ran, and
 * copy_process() frees it without looking at its usage count.  Its event
 * copies each hold a reference on it (hw.target) and one on its context;
 * a copy that a parent's release took off its child list is freed by that
 * release, possibly after detach returns.  So wait until ours is the last
 * reference on the context: every copy has dropped its task by then
 * (perf_free_event() puts the task before the context; perf_ctx_put()
 * wakes us).
 */
void perf_event_free_task(struct task_struct *task)
{
	struct perf_event_context *ctx;

	/* nobody else can change the pointer of a task that never ran */
	ctx = rcu_dereference_protected(task->perf_event_ctxp, true);
	if (!ctx)
		return;
	perf_ctx_get(ctx);
	perf_task_ctx_detach(task);
	wait_var_event(&ctx->refcount, refcount_read(&ctx->refcount) == 1);
	perf_ctx_put(ctx);
}

void perf_event_delayed_put(struct task_struct *task)
{
	WARN_ON_ONCE(rcu_access_pointer(task->perf_event_ctxp));
}

/* ---- fork ------------------------------------------------------------- */

/*
 * Whether a child context holding copies of all of @event's group may be
 * swapped with its twins (ctx_swap.c): not when an event acts on its own
 * task (SIGTRAP) or keeps per-task counts (inherit_stat).
 */
static bool perf_group_swappable(struct perf_event *leader)
{
	struct perf_event *event;

	if (leader->attr.sigtrap || leader->attr.inherit_stat)
		return false;
	for_each_sibling_event(event, leader) {
		if (event->attr.sigtrap || event->attr.inherit_stat)
			return false;
	}
	return true;
}

static bool perf_event_inheritable(struct perf_event *event, u64 clone_flags)
{
	if (!event->attr.inherit)
		return false;
	if (event->attr.inherit_thread && !(clone_flags & CLONE_THREAD))
		return false;
	/* no SIGTRAP to a child whose signal handlers are reset */
	if (event->attr.sigtrap && (clone_flags & CLONE_CLEAR_SIGHAND))
		return false;
	return true;
}

/*
 * Clone @parent_event for @child_ctx (not yet linked to its parent; its
 * mutex held), prepared to go into the part of @group_pmu.  An enabled
 * parent gives an INACTIVE child, anything else an OFF one.
 */
static struct perf_event *inherit_event(struct perf_event *parent_event,
					struct task_struct *child,
					struct perf_event_context *child_ctx,
					struct perf_event *child_leader,
					struct pmu *group_pmu)
{
	struct perf_event *top = parent_event->parent ?: parent_event;
	perf_overflow_handler_t handler = NULL;
	void *handler_ctx = NULL;
	struct perf_event *event;
	int err;

	if (parent_event->overflow_handler && !is_default_overflow_handler(parent_event)) {
		handler = parent_event->overflow_handler;
		handler_ctx = parent_event->overflow_handler_context;
	}
	event = perf_event_alloc(&parent_event->attr, parent_event->cpu, child,
				 child_leader, top, handler, handler_ctx, -1);
	if (IS_ERR(event))
		return event;
	/* an aux_output or aux_sample_size member follows its new leader */
	if (parent_event->aux_event && child_leader)
		event->aux_event = child_leader;
	perf_addr_filters_inherit(event, parent_event);

	/* dropped by perf_free_event(); @top is pinned by @parent_event */
	perf_event_ref(top);
	event->attach_state |= PERF_ATTACH_CHILD;
	if (parent_event->state >= PERF_EVENT_STATE_INACTIVE)
		event->state = PERF_EVENT_STATE_INACTIVE;
	else
		event->state = PERF_EVENT_STATE_OFF;

	/* its reference on @child_ctx comes with perf_install_all_in_new_ctx() */
	err = perf_install_prepare_in(child_ctx, event, group_pmu);
	if (err) {
		perf_free_event(event);
		return ERR_PTR(err);
	}
	return event;
}

/* Take an unlinked child out of its (private) context and free it. */
static void inherit_discard(struct perf_event *event, struct perf_event_context *child_ctx)
{
	mutex_lock(&child_ctx->mutex);
	perf_remove_from_context(event, DETACH_GROUP | DETACH_DEAD);
	mutex_unlock(&child_ctx->mutex);
	perf_event_put(event);
}

/* Discard the events on @list (by event->migrate_entry), last first. */
static void inherit_discard_list(struct list_head *list, struct perf_event_context *child_ctx)
{
	struct perf_event *event, *tmp;

	list_for_each_entry_safe_reverse(event, tmp, list, migrate_entry) {
		list_del_init(&event->migrate_entry);
		inherit_discard(event, child_ctx);
	}
}

/*
 * Link @event on its top-level parent's child_list; false when that parent
 * is being released (its release has walked or will walk child_list only
 * under child_mutex, after setting DEAD).
 */
static bool inherit_link(struct perf_event *event)
{
	struct perf_event *top = event->parent;
	bool ok;

	mutex_lock(&top->child_mutex);
	ok = READ_ONCE(top->state) != PERF_EVENT_STATE_DEAD;
	if (ok)
		list_add_tail(&event->child_list, &top->child_list);
	mutex_unlock(&top->child_mutex);
	return ok;
}

/*
 * Clone the group of @parent_leader for @child_ctx (its mutex held), its
 * members added to @members (by migrate_entry) as they are made, for
 * perf_install_all_in_new_ctx(): on an error the caller installs and then
 * discards what is there, this group's part included.  The copy lives in
 * the part of the PMU the parent group lives in.  Its members' event_init
 * runs before any of them is linked to the copied leader, so a driver's
 * group check sees that leader alone: the parent group passed the same
 * check when it was opened.
 */
static int inherit_group(struct perf_event *parent_leader, struct task_struct *child,
			 struct perf_event_context *child_ctx, struct list_head *members)
{
	struct pmu *group_pmu = parent_leader->ctx_pmu->pmu;
	struct perf_event *leader, *sub, *event;

	leader = inherit_event(parent_leader, child, child_ctx, NULL, group_pmu);
	if (IS_ERR(leader))
		return PTR_ERR(leader);
	list_add_tail(&leader->migrate_entry, members);

	list_for_each_entry(sub, &parent_leader->sibling_list, sibling_list) {
		event = inherit_event(sub, child, child_ctx, leader, group_pmu);
		if (IS_ERR(event))
			return PTR_ERR(event);
		list_add_tail(&event->migrate_entry, members);
	}
	return 0;
}

/*
 * Link the events on @members to their parents (@parent_ctx's mutex held).
 * Those whose parent lives in @parent_ctx are linked now; the others
 * (grandchildren of their top-level parent, whose child_mutex must not be
 * taken under a ctx->mutex it may wait for) go on @pending, and those
 * whose parent is being released on @dead.  Once linked, a member may be
 * removed and freed by its parent's release at any time: its entry is
 * reset before it is linked, and @members is only walked forward.
 */
static void inherit_link_members(struct list_head *members,
				 struct perf_event_context *parent_ctx,
				 struct list_head *pending, struct list_head *dead)
{
	struct perf_event *event, *tmp;

	/* @members goes whole: its entries are reused or reset, not unlinked */
	list_for_each_entry_safe(event, tmp, members, migrate_entry) {
		if (READ_ONCE(event->parent->ctx) != parent_ctx) {
			list_add_tail(&event->migrate_entry, pending);
			continue;
		}
		INIT_LIST_HEAD(&event->migrate_entry);
		if (!inherit_link(event))
			list_add_tail(&event->migrate_entry, dead);
	}
	INIT_LIST_HEAD(members);
}

/*
 * Link the members left on @pending (no ctx->mutex held).  A member whose
 * parent went meanwhile is discarded (its removal makes the context no
 * copy of its parent's any more).
 */
static void inherit_link_pending(struct list_head *pending,
				 struct perf_event_context *child_ctx)
{
	struct perf_event *event, *tmp;

	list_for_each_entry_safe(event, tmp, pending, migrate_entry) {
		list_del_init(&event->migrate_entry);
		if (!inherit_link(event))
			inherit_discard(event, child_ctx);
	}
}

int perf_event_init_task(struct task_struct *child, u64 clone_flags)
{
	struct perf_event_context *parent_ctx, *child_ctx = NULL;
	struct perf_event *leader;
	LIST_HEAD(members);
	LIST_HEAD(pending);
	LIST_HEAD(dead);
	bool clone = true;
	int ret = 0;

	RCU_INIT_POINTER(child->perf_event_ctxp, NULL);
	mutex_init(&child->perf_event_mutex);
	INIT_LIST_HEAD(&child->perf_event_list);

	/* pinned: it stays current's while we copy it */
	parent_ctx = perf_task_ctx_pin(current);
	if (!parent_ctx)
		return 0;

	mutex_lock(&parent_ctx->mutex);
	if (READ_ONCE(parent_ctx->task) != current)
		goto unlock;

	list_for_each_entry(leader, &parent_ctx->event_list, event_entry) {
		if (!perf_event_is_leader(leader))
			continue;
		if (!perf_event_inheritable(leader, clone_flags)) {
			clone = false;
			continue;
		}
		if (!perf_group_swappable(leader))
			clone = false;
		if (!child_ctx) {
			child_ctx = perf_ctx_alloc(child);
			if (!child_ctx) {
				ret = -ENOMEM;
				break;
			}
			/* held for the whole copy, which nothing else sees yet */
			mutex_lock_nested(&child_ctx->mutex, SINGLE_DEPTH_NESTING);
		}
		/* a group that cannot follow fails the fork, pinned or not (6.1) */
		ret = inherit_group(leader, child, child_ctx, &members);
		if (ret)
			break;
	}
	if (!child_ctx)
		goto unlock;
	/* every copy made (or the ones before a failure) goes in at once */
	perf_install_all_in_new_ctx(child_ctx, &members);
	/* a copy of every event, and nothing went meanwhile: a twin */
	if (!ret && clone && child_ctx->nr_events == parent_ctx->nr_events)
		perf_ctx_mark_clone(child_ctx, parent_ctx);
	/* parents' child_mutex is never taken under a child's ctx->mutex */
	mutex_unlock(&child_ctx->mutex);
	if (ret)
		list_splice_init(&members, &dead);
	else
		inherit_link_members(&members, parent_ctx, &pending, &dead);

unlock:
	mutex_unlock(&parent_ctx->mutex);
	perf_task_ctx_unpin(parent_ctx);

	if (child_ctx) {
		inherit_discard_list(&dead, child_ctx);
		inherit_link_pending(&pending, child_ctx);
		/* the child is not running: nobody else looks at its pointer */
		rcu_assign_pointer(child->perf_event_ctxp, child_ctx);
		if (ret || !READ_ONCE(child_ctx->nr_events))
			perf_event_free_task(child);
	}
	return ret;
}
