// SPDX-License-Identifier: GPL-2.0
/*
 * Reading counts: perf_event_read() brings an event (or its group) up to
 * date, on the CPU where it runs when it is on a PMU, with its times; the
 * totals of an event and of its inherited children (read(), the group
 * read, kernel counters); PERF_FORMAT_GROUP values taken at one instant.
 *
 * Locking: the update of a running event runs on its CPU with IRQs off
 * and its context's lock held (a cross-CPU call when it runs elsewhere);
 * the totals walk child_list under the event's child_mutex; callers hold
 * the event's ctx->mutex (read(), ioctls) or own the event (kernel users),
 * but for perf_event_read_value_here() and perf_group_read_record_here(),
 * which read a childless event or group that counts on the caller's CPU
 * with IRQs off and no mutex.
 */
#include <linux/smp.h>

#include "internal.h"

struct read_args {
	struct perf_event	*event;
	bool			group;
};

/* The times of a group's members, brought to now (ctx->lock held). */
static void perf_group_update_time(struct perf_event *leader)
{
	struct perf_event *sibling;

	perf_event_update_time(leader);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list)
		perf_event_update_time(sibling);
}

/* Read one event on its CPU (ctx->lock held) and bring its times up to date. */
static void perf_event_read_here(struct perf_event *event)
{
	if (event->state == PERF_EVENT_STATE_ACTIVE)
		event->pmu->read(event);
	perf_event_update_time(event);
}

/*
 * On the event's CPU.  A group is read as a PMU read transaction, so that
 * a PMU that supports one (PERF_PMU_TXN_READ) gives every member's value
 * at one instant.
 */
static void __perf_event_read(void *info)
{
	struct read_args *ra = info;
	struct perf_event *event = ra->event, *sibling;
	struct perf_event_context *ctx = event->ctx;
	struct pmu *pmu = event->pmu;

	raw_spin_lock(&ctx->lock);
	if (READ_ONCE(event->oncpu) != smp_processor_id())
		goto unlock;
	if (ctx->is_active)
		perf_ctx_update_time(ctx);
	if (!ra->group) {
		perf_event_read_here(event);
		goto unlock;
	}
	pmu->start_txn(pmu, PERF_PMU_TXN_READ);
	perf_event_read_here(event);
	list_for_each_entry(sibling, &event->sibling_list, sibling_list)
		perf_event_read_here(sibling);
	pmu->commit_txn(pmu);
unlock:
	raw_spin_unlock(&ctx->lock);
}

int perf_event_read(struct perf_event *event, bool group)
{
	struct perf_event_context *ctx = event->ctx;
	struct read_args ra = { .event = event, .group = group };
	unsigned long flags;
	int cpu;

	for (;;) {
		if (READ_ONCE(event->state) == PERF_EVENT_STATE_ACTIVE) {
			cpu = READ_ONCE(event->oncpu);
			if (cpu >= 0 && !smp_call_function_single(cpu, __perf_event_read, &ra, 1))
				return 0;
		}
		raw_spin_lock_irqsave(&ctx->lock, flags);
		if (event->state == PERF_EVENT_STATE_ACTIVE && READ_ONCE(event->oncpu) >= 0) {
			raw_spin_unlock_irqrestore(&ctx->lock, flags);
			continue;
		}
		if (ctx->is_active)
			perf_ctx_update_time(ctx);
		if (group)
			perf_group_update_time(event);
		else
			perf_event_update_time(event);
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		return 0;
	}
}

/*
 * Count and times of @event with what its gone children folded into it,
 * as last read.
 */
static u64 perf_event_own_total(struct perf_event *event, u64 *enabled, u64 *running)
{
	*enabled = event->total_time_enabled +
		   atomic64_read(&event->child_total_time_enabled);
	*running = event->total_time_running +
		   atomic64_read(&event->child_total_time_running);
	return perf_event_count(event);
}

/*
 * @event has no live inherited children: its own total is all of it, and
 * needs no child_mutex.  The fold that emptied the list added the child's
 * count and times first (perf_event_fold_child()'s smp_wmb()).  A child
 * inherited meanwhile has counted nothing yet.
 */
static bool perf_event_childless(struct perf_event *event)
{
	if (!list_empty(&event->child_list))
		return false;
	smp_rmb();	/* the folded counts after the empty list */
	return true;
}

/*
 * Count and times of @event and its children as last read, without reading
 * the hardware again (child_mutex held).
 */
static u64 perf_event_total(struct perf_event *event, u64 *enabled, u64 *running)
{
	struct perf_event *child;
	u64 total;

	lockdep_assert_held(&event->child_mutex);
	total = perf_event_own_total(event, enabled, running);
	list_for_each_entry(child, &event->child_list, child_list) {
		total += perf_event_count(child);
		*enabled += child->total_time_enabled;
		*running += child->total_time_running;
	}
	return total;
}

/*
 * The total of @event when it counts on this CPU right now and has no live
 * inherited children, read here without its context's mutex (read() of an
 * event on itself, the common self-monitoring case).  Returns false, with
 * nothing read, when it does not.
 *
 * With IRQs off, an event found on this CPU stays there: it goes off only
 * on this CPU (a switch, a rotation, or a cross-CPU call from the paths
 * that remove, disable or move it, each waiting for this CPU).  Found on
 * this CPU after event->ctx was loaded, it was on it all along, so that
 * context is the event's and is alive.  What the mutex would keep still,
 * the sibling list and the children, is not looked at: a group read and an
 * event with children take the locked path.
 */
bool perf_event_read_value_here(struct perf_event *event, u64 *value, u64 *enabled,
				u64 *running)
{
	struct perf_event_context *ctx;
	unsigned long flags;
	bool done = false;

	local_irq_save(flags);
	ctx = READ_ONCE(event->ctx);
	if (READ_ONCE(event->oncpu) != smp_processor_id())
		goto out;
	raw_spin_lock(&ctx->lock);
	if (event->state == PERF_EVENT_STATE_ACTIVE && perf_event_childless(event)) {
		if (ctx->is_active)
			perf_ctx_update_time(ctx);
		perf_event_read_here(event);
		*value = perf_event_own_total(event, enabled, running);
		done = true;
	}
	raw_spin_unlock(&ctx->lock);
out:
	local_irq_restore(flags);
	return done;
}

/* No member of @leader's group has live inherited children. */
static bool perf_group_childless(struct perf_event *leader)
{
	struct perf_event *sibling;

	if (!perf_event_childless(leader))
		return false;
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list) {
		if (!perf_event_childless(sibling))
			return false;
	}
	return true;
}

/*
 * The PERF_FORMAT_GROUP read() record of @event's group, when the group
 * counts on this CPU and no member has live inherited children, built in
 * @rec (at most @max_words u64s) without the context's mutex; returns its
 * length in u64s, or 0 with nothing read when the locked path must do it.
 * As in perf_event_read_value_here(): @event found on this CPU with IRQs
 * off stays on it, so does its group (a leader leaves, a member joins or
 * leaves, only by a call to this CPU), and under the context's lock the
 * group and its size are the ones read.  The members are read in one
 * PERF_PMU_TXN_READ transaction, as by perf_event_read().
 */
int perf_group_read_record_here(struct perf_event *event, u64 *rec, int max_words)
{
	u64 read_format = event->attr.read_format;
	struct perf_event *leader, *sibling;
	struct perf_event_context *ctx;
	u64 value, enabled, running, *p = rec;
	unsigned long flags;
	struct pmu *pmu;
	int nr;

	local_irq_save(flags);
	if (READ_ONCE(event->oncpu) != smp_processor_id())
		goto out;
	ctx = READ_ONCE(event->ctx);
	raw_spin_lock(&ctx->lock);
	leader = event->group_leader;
	nr = leader->nr_siblings + 1;
	if (event->state != PERF_EVENT_STATE_ACTIVE ||
	    perf_read_size(read_format, nr) > max_words * sizeof(u64) ||
	    !perf_group_childless(leader))
		goto unlock;
	if (ctx->is_active)
		perf_ctx_update_time(ctx);
	pmu = leader->pmu;
	pmu->start_txn(pmu, PERF_PMU_TXN_READ);
	perf_event_read_here(leader);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list)
		perf_event_read_here(sibling);
	pmu->commit_txn(pmu);

	value = perf_event_own_total(leader, &enabled, &running);
	*p++ = nr;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		*p++ = enabled;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		*p++ = running;
	*p++ = value;
	p = perf_put_id_lost(p, leader, read_format);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list) {
		*p++ = perf_event_count(sibling);
		p = perf_put_id_lost(p, sibling, read_format);
	}
unlock:
	raw_spin_unlock(&ctx->lock);
out:
	local_irq_restore(flags);
	return p - rec;
}

u64 perf_event_read_value_locked(struct perf_event *event, u64 *enabled, u64 *running)
{
	struct perf_event *child;
	u64 total;

	perf_event_read(event, false);
	if (perf_event_childless(event))
		return perf_event_own_total(event, enabled, running);
	/* folded and live children under one lock: a fold is seen once */
	mutex_lock(&event->child_mutex);
	list_for_each_entry(child, &event->child_list, child_list)
		perf_event_read(child, false);
	total = perf_event_total(event, enabled, running);
	mutex_unlock(&event->child_mutex);
	return total;
}

void perf_group_read_values(struct perf_event *leader, u64 *values, u64 *enabled,
			    u64 *running)
{
	struct perf_event *child, *sibling;
	u64 e, r;
	int i = 0;

	/*
	 * One read per group instance: the leader's group, then each
	 * inherited copy of it (a child leader's group holds the children
	 * of the siblings).  child_mutex of the leader keeps the copies.
	 */
	perf_event_read(leader, true);
	if (perf_event_childless(leader)) {
		values[i++] = perf_event_own_total(leader, enabled, running);
	} else {
		mutex_lock(&leader->child_mutex);
		list_for_each_entry(child, &leader->child_list, child_list)
			perf_event_read(child, true);
		values[i++] = perf_event_total(leader, enabled, running);
		mutex_unlock(&leader->child_mutex);
	}

	for_each_sibling_event(sibling, leader) {
		/* a member without inherited copies (most are): no mutex */
		if (perf_event_childless(sibling)) {
			values[i++] = perf_event_count(sibling);
			continue;
		}
		mutex_lock(&sibling->child_mutex);
		values[i++] = perf_event_total(sibling, &e, &r);
		mutex_unlock(&sibling->child_mutex);
	}
}
