// SPDX-License-Identifier: GPL-2.0
/*
 * Group scheduling: putting groups on their PMU and taking them off, time
 * accounting of events and contexts, whole contexts in and out, installing
 * and removing events, enable/disable, and the event's irq_work.  Reading
 * counts is event_read.c's; the scheduler's hooks are task_switch.c's.
 *
 * Policy, per PMU and CPU: CPU-context pinned groups, task-context pinned,
 * CPU-context flexible, task-context flexible, each list in order.  A group
 * goes on as a transaction: all members or none.  A pinned group that does
 * not fit goes to ERROR; the first flexible group that does not fit stops
 * flexible scheduling of that list and asks for rotation (rotation.c); the
 * user pages of the groups left waiting are refreshed.  An exclusive group
 * runs only alone on its PMU.
 *
 * Locking: everything that touches a scheduled context runs on its CPU with
 * IRQs off and cpuctx->ctx.lock (then the task context's lock) held;
 * everything that changes lists also holds ctx->mutex (install, remove).
 * Functions taking a cpuctx accept NULL for "context not scheduled in".
 */
#include <linux/irq_work.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "internal.h"

/* ---- time ---------------------------------------------------------- */

/*
 * Bring the clock of @ctx to @now, and for this CPU's context the clocks of
 * its running cgroups too (cgroup.c).
 */
static void perf_ctx_clock_update(struct perf_event_context *ctx, u64 now)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);

	perf_time_clock_update(&ctx->clock, now);
	if (ctx == &cpuctx->ctx && perf_cpu_has_cgroup_events(cpuctx))
		perf_cgroup_update_time(cpuctx, now);
}

void perf_ctx_update_time(struct perf_event_context *ctx)
{
	perf_ctx_clock_update(ctx, perf_clock());
}

/*
 * The context clock is brought up to date once, at the start of each
 * operation (perf_ctx_update_time()); every state change within the
 * operation then happens at that same context time, so an event that goes
 * INACTIVE -> ACTIVE (or back) within one operation accrues no enabled
 * time without running time.
 */
/*
 * A member of a group whose leader is off (or in error) is not eligible to
 * run whatever its own state: it accrues time as its leader does.
 */
static __always_inline enum perf_event_state perf_effective_state(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	if (leader != event && leader->state < PERF_EVENT_STATE_INACTIVE)
		return leader->state;
	return event->state;
}

/* Inline in the state changes of every context switch, out of line elsewhere. */
static __always_inline void __perf_event_update_time(struct perf_event *event)
{
	perf_time_update(&event->times, perf_effective_state(event), perf_event_clock_time(event));
}

void perf_event_update_time(struct perf_event *event)
{
	__perf_event_update_time(event);
}

/*
 * The list of @cpmu a group waits on: pinned or flexible while its leader
 * may run, idle while the leader is off or in error, so that scheduling
 * walks only groups that can go on (a task with thousands of disabled
 * events switches as fast as one without).
 */
static struct list_head *group_list(struct perf_ctx_pmu *cpmu, struct perf_event *leader)
{
	if (leader->state < PERF_EVENT_STATE_INACTIVE)
		return &cpmu->idle;
	return leader->attr.pinned ? &cpmu->pinned : &cpmu->flexible;
}

void perf_event_set_state(struct perf_event *event, enum perf_event_state state)
{
	bool turns_on = state >= PERF_EVENT_STATE_INACTIVE;
	bool leader = event->group_leader == event;
	struct perf_event *sibling;
	bool on;

	if (event->state == state)
		return;
	__perf_event_update_time(event);
	/* a leader going off or on changes what its siblings accrue */
	on = event->state >= PERF_EVENT_STATE_INACTIVE;
	if (leader && on != turns_on) {
		list_for_each_entry(sibling, &event->sibling_list, sibling_list)
			perf_event_update_time(sibling);
	}
	WRITE_ONCE(event->state, state);
	/*
	 * and the list its group waits on: an enabled group goes to the
	 * tail of its list, as a new one would (6.1 keeps its place)
	 */
	if (leader && on != turns_on && !list_empty(&event->group_entry))
		list_move_tail(&event->group_entry, group_list(event->ctx_pmu, event));
}

/* ---- one event on and off its PMU -------------------------------------- */

static int event_sched_in(struct perf_event *event, struct perf_event_context *ctx)
{
	if (event->state != PERF_EVENT_STATE_INACTIVE)
		return 0;
	if (event->cpu != -1 && event->cpu != smp_processor_id())
		return 0;

	/* throttled when it last ran, and no tick restarted it since */
	if (unlikely(event->hw.interrupts == PERF_THROTTLED))
		perf_event_clear_throttle(event);

	WRITE_ONCE(event->oncpu, smp_processor_id());
	/* oncpu before ACTIVE: readers that see ACTIVE find the CPU */
	smp_wmb();
	perf_event_set_state(event, PERF_EVENT_STATE_ACTIVE);
	if (event->pmu->capabilities & PERF_PMU_CAP_ITRACE)
		perf_record_itrace_start(event);
	if (event->pmu->add(event, PERF_EF_START)) {
		perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
		WRITE_ONCE(event->oncpu, -1);
		return -EAGAIN;
	}
	ctx->nr_active++;
	if (event->attr.freq && event->attr.sample_freq)
		ctx->nr_freq++;
	return 0;
}

static void event_sched_out(struct perf_event *event, struct perf_event_context *ctx)
{
	enum perf_event_state state = PERF_EVENT_STATE_INACTIVE;

	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	event->pmu->del(event, 0);
	WRITE_ONCE(event->oncpu, -1);
	if (event->pending_disable) {
		event->pending_disable = 0;
		state = PERF_EVENT_STATE_OFF;
	}
	/* the irq_work that would send it may run only after this switch */
	if (event->pending_sigtrap)
		perf_sigtrap_sched_out(event, state == PERF_EVENT_STATE_OFF);
	perf_event_set_state(event, state);
	ctx->nr_active--;
	if (event->attr.freq && event->attr.sample_freq)
		ctx->nr_freq--;
}

/* ---- groups ------------------------------------------------------------ */

static bool group_can_go_on(struct perf_event *leader, struct perf_ctx_pmu *cpmu,
			    struct perf_cpu_pmu *cp)
{
	if (leader->group_caps & PERF_EV_CAP_SOFTWARE)
		return true;
	if (cp->exclusive)
		return false;
	if (leader->attr.exclusive) {
		if ((cp->cpu_part && cp->cpu_part->nr_active) ||
		    (cp->task_part && cp->task_part->nr_active))
			return false;
	}
	return true;
}

static void group_sched_out(struct perf_event *leader, struct perf_ctx_pmu *cpmu)
{
	struct perf_event_context *ctx = cpmu->ctx;
	struct perf_event *sibling;

	if (list_empty(&leader->active_list))
		return;
	perf_pmu_disable(cpmu->pmu);
	event_sched_out(leader, ctx);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list)
		event_sched_out(sibling, ctx);
	perf_pmu_enable(cpmu->pmu);
	list_del_init(&leader->active_list);
	cpmu->nr_active--;
	if (leader->attr.exclusive && !(leader->group_caps & PERF_EV_CAP_SOFTWARE))
		this_cpu_ptr(cpmu->pmu->cpu_pmu)->exclusive = 0;
}

static int group_sched_in(struct perf_event *leader, struct perf_ctx_pmu *cpmu,
			  struct perf_cpu_pmu *cp)
{
	struct perf_event_context *ctx = cpmu->ctx;
	struct pmu *pmu = cpmu->pmu;
	struct perf_event *sibling, *failed = NULL;

	if (!perf_group_may_run_here(leader))
		return 0;
	if (!group_can_go_on(leader, cpmu, cp))
		return -EAGAIN;

	pmu->start_txn(pmu, PERF_PMU_TXN_ADD);
	if (event_sched_in(leader, ctx)) {
		pmu->cancel_txn(pmu);
		return -EAGAIN;
	}
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list) {
		if (event_sched_in(sibling, ctx)) {
			failed = sibling;
			break;
		}
	}
	if (!failed && !pmu->commit_txn(pmu)) {
		list_add_tail(&leader->active_list, &cpmu->active);
		cpmu->nr_active++;
		if (leader->attr.exclusive && !(leader->group_caps & PERF_EV_CAP_SOFTWARE))
			cp->exclusive = 1;
		return 0;
	}

	/* undo: the members that went on come off, with no time accrued */
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list) {
		if (sibling == failed)
			break;
		event_sched_out(sibling, ctx);
	}
	event_sched_out(leader, ctx);
	pmu->cancel_txn(pmu);
	return -EAGAIN;
}

/*
 * A flexible group that stays off its PMU on this CPU: the user page of
 * each member user space maps now says so (index 0), with the times of
 * this instant, as 6.1 does for every group it could not schedule.  A
 * self-monitoring reader would otherwise keep the index and the times of
 * the group's last time on the PMU.
 */
static void group_update_userpages(struct perf_event *leader)
{
	struct perf_event *sibling;

	if (!perf_group_may_run_here(leader))
		return;
	if (atomic_read(&leader->mmap_count))
		perf_event_update_userpage(leader);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list) {
		if (atomic_read(&sibling->mmap_count))
			perf_event_update_userpage(sibling);
	}
}

/* Schedule the pinned or flexible groups of one part in, on this CPU. */
static void cpmu_sched_in(struct perf_ctx_pmu *cpmu, struct perf_cpu_pmu *cp, bool pinned)
{
	struct perf_event *leader, *tmp;
	int fit_below = INT_MAX;
	bool full = false;

	if (!cpmu || !cpmu->ctx->is_active)
		return;
	if (pinned) {
		/* a group in ERROR leaves the list for the idle one */
		list_for_each_entry_safe(leader, tmp, &cpmu->pinned, group_entry) {
			if (group_sched_in(leader, cpmu, cp))
				perf_event_set_state(leader, PERF_EVENT_STATE_ERROR);
		}
		return;
	}
	/*
	 * First fit: after a group that does not fit, only smaller ones are
	 * tried; once a single event does not fit, none is.  Those left out
	 * wait for their turn (rotation.c).
	 */
	list_for_each_entry(leader, &cpmu->flexible, group_entry) {
		int size = leader->nr_siblings + 1;

		if (size < fit_below && !group_sched_in(leader, cpmu, cp))
			continue;
		if (size < fit_below)
			fit_below = size;
		if (!full) {
			full = true;
			cpmu->rotate_necessary = true;
			perf_mux_start_turn(cpmu, cp);
			perf_cpu_pmu_start_timer(cp);
		}
		/* with no event mapped anywhere, no user page to refresh */
		if (!atomic_read(&perf_nr_mapped_events)) {
			if (fit_below == 1)
				break;
			continue;
		}
		group_update_userpages(leader);
	}
	/* all on: no turn runs */
	if (!full && cpmu->mux_turn_end)
		cpmu->mux_turn_end = 0;
}

static void cpmu_sched_out(struct perf_ctx_pmu *cpmu, bool flexible_only)
{
	struct perf_event *leader, *tmp;

	if (!cpmu || list_empty(&cpmu->active))
		return;
	perf_pmu_disable(cpmu->pmu);
	list_for_each_entry_safe(leader, tmp, &cpmu->active, active_list) {
		if (flexible_only && leader->attr.pinned)
			continue;
		group_sched_out(leader, cpmu);
	}
	perf_pmu_enable(cpmu->pmu);
}

/*
 * The flexible groups of both parts, the CPU's first unless it is the
 * task's turn to go first (rotation.c); with @cpu_too false only the
 * task's, after the CPU's that are on.
 */
static void flexible_sched_in(struct perf_cpu_pmu *cp, bool cpu_too)
{
	if (cp->task_first)
		cpmu_sched_in(cp->task_part, cp, false);
	if (cpu_too)
		cpmu_sched_in(cp->cpu_part, cp, false);
	if (!cp->task_first)
		cpmu_sched_in(cp->task_part, cp, false);
}

/* Everything of one PMU on this CPU, in priority order. */
static void pmu_sched_in(struct perf_cpu_pmu *cp)
{
	cpmu_sched_in(cp->cpu_part, cp, true);
	cpmu_sched_in(cp->task_part, cp, true);
	flexible_sched_in(cp, true);
}

/* One clock read for both contexts: they are brought to one instant. */
static void cp_update_times(struct perf_cpu_pmu *cp)
{
	u64 now = perf_clock();

	if (cp->cpu_part && cp->cpu_part->ctx->is_active)
		perf_ctx_clock_update(cp->cpu_part->ctx, now);
	if (cp->task_part && cp->task_part->ctx->is_active)
		perf_ctx_clock_update(cp->task_part->ctx, now);
}

/*
 * Start of an operation on the CPU owning @ctx: bring the clocks of the
 * contexts it may reschedule (this CPU's and the scheduled task's) up to
 * date, once.
 */
static void perf_op_begin(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx)
{
	struct perf_event_context *active[3];
	int nr = 0;
	u64 now;

	if (cpuctx) {
		if (cpuctx->ctx.is_active)
			active[nr++] = &cpuctx->ctx;
		if (cpuctx->task_ctx && cpuctx->task_ctx != ctx && cpuctx->task_ctx->is_active)
			active[nr++] = cpuctx->task_ctx;
	}
	if (ctx->is_active && (!cpuctx || ctx != &cpuctx->ctx))
		active[nr++] = ctx;
	/* no clock to read for contexts that are out (a new or exited task's) */
	if (!nr)
		return;
	now = perf_clock();
	while (nr--)
		perf_ctx_clock_update(active[nr], now);
}

/*
 * Take the flexible groups of one PMU off this CPU and reschedule all.
 * With @cpu_pinned (a CPU pinned group arrived or was enabled) the task's
 * pinned groups come off too: CPU pinned groups go first, and task pinned
 * groups that no longer fit go to ERROR, as the policy says.  The caller
 * brought the context clocks up to date (perf_op_begin()).
 */
static void pmu_resched_groups(struct perf_cpu_pmu *cp, bool cpu_pinned)
{
	perf_pmu_disable(cp->pmu);
	cpmu_sched_out(cp->task_part, !cpu_pinned);
	cpmu_sched_out(cp->cpu_part, true);
	if (cp->cpu_part)
		cp->cpu_part->rotate_necessary = false;
	if (cp->task_part)
		cp->task_part->rotate_necessary = false;
	pmu_sched_in(cp);
	perf_pmu_enable(cp->pmu);
}

/*
 * Whether a flexible group of this PMU waits on this CPU: cpmu_sched_in()
 * marks the part of each group it left out (rotate_necessary).
 */
static bool pmu_has_waiting(struct perf_cpu_pmu *cp)
{
	return (cp->task_part && cp->task_part->rotate_necessary) ||
	       (cp->cpu_part && cp->cpu_part->rotate_necessary);
}

static void pmu_resched(struct perf_cpu_pmu *cp)
{
	pmu_resched_groups(cp, false);
}

/*
 * Reschedule after @leader's group of @ctx arrived or was enabled.  A
 * software group just goes on.  A pinned group may displace flexible ones:
 * all of them are rescheduled.
 * A flexible one only goes after the flexible groups of its own context
 * and of those behind it in priority order: a task's flexible group leaves
 * everything of the CPU context as it is (as in 6.1), so that opening an
 * event costs the same however many CPU-wide events there are.
 */
static void pmu_resched_for(struct perf_cpu_pmu *cp, struct perf_event_context *ctx,
			    struct perf_event *leader)
{
	bool cpu_group = !ctx->task;

	/* software groups always fit: the others stay as they are */
	if (leader->group_caps & PERF_EV_CAP_SOFTWARE) {
		struct perf_ctx_pmu *cpmu = leader->ctx_pmu;

		if (!group_sched_in(leader, cpmu, cp))
			return;
		if (leader->attr.pinned) {
			perf_event_set_state(leader, PERF_EVENT_STATE_ERROR);
		} else {
			cpmu->rotate_necessary = true;
			perf_mux_start_turn(cpmu, cp);
			perf_cpu_pmu_start_timer(cp);
		}
		return;
	}
	if (leader->attr.pinned) {
		pmu_resched_groups(cp, cpu_group);
		return;
	}
	/* and while the task's groups go first, the CPU's come off too */
	cpu_group |= cp->task_first;
	perf_pmu_disable(cp->pmu);
	cpmu_sched_out(cp->task_part, true);
	if (cp->task_part)
		cp->task_part->rotate_necessary = false;
	if (cpu_group) {
		cpmu_sched_out(cp->cpu_part, true);
		if (cp->cpu_part)
			cp->cpu_part->rotate_necessary = false;
	}
	flexible_sched_in(cp, cpu_group);
	perf_pmu_enable(cp->pmu);
}

void perf_pmu_resched(struct pmu *pmu)
{
	struct perf_cpu_context *cpuctx;
	unsigned long flags;

	local_irq_save(flags);
	cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	perf_ctx_lock(cpuctx, cpuctx->task_ctx);
	cp_update_times(this_cpu_ptr(pmu->cpu_pmu));
	pmu_resched(this_cpu_ptr(pmu->cpu_pmu));
	perf_ctx_unlock(cpuctx, cpuctx->task_ctx);
	local_irq_restore(flags);
}

void perf_cpmu_rotate(struct perf_cpu_pmu *cp, bool force)
{
	struct perf_ctx_pmu *parts[2] = { cp->cpu_part, cp->task_part };
	bool due[2], any = false;
	int i;

	cp_update_times(cp);
	for (i = 0; i < 2; i++) {
		due[i] = parts[i] && parts[i]->rotate_necessary &&
			 (force || perf_mux_turn_over(parts[i]));
		any |= due[i];
	}
	if (!any)
		return;
	perf_mux_pick_first_part(cp);
	perf_pmu_disable(cp->pmu);
	for (i = 0; i < 2; i++) {
		if (!due[i])
			continue;
		perf_mux_rotate_part(parts[i], cp);
		cpmu_sched_out(parts[i], true);
	}
	pmu_resched(cp);
	perf_pmu_enable(cp->pmu);
}

/* ---- whole contexts ---------------------------------------------------- */

void perf_ctx_sched_in(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx)
{
	struct perf_ctx_pmu *cpmu;
	u64 now;

	if (ctx->is_active)
		return;
	now = perf_clock();
	perf_time_clock_start(&ctx->clock, now);
	ctx->is_active = EVENT_ALL;
	if (!ctx->task && perf_cpu_has_cgroup_events(cpuctx))
		perf_cgroup_sync(cpuctx, now);
	if (ctx->task) {
		cpuctx->task_ctx = ctx;
		if (cpuctx->ctx.is_active)
			perf_ctx_clock_update(&cpuctx->ctx, now);
		list_for_each_entry(cpmu, &ctx->pmu_ctx_list, node) {
			struct perf_cpu_pmu *cp = this_cpu_ptr(cpmu->pmu->cpu_pmu);

			cp->task_part = cpmu;
			cpmu->scheduled = true;
			/* a part kept for its next event (perf_ctx_pmu_keep()) */
			if (!cpmu->nr_events)
				continue;
			/*
			 * One pmu_disable()/pmu_enable() around all the groups:
			 * a PMU then programs its counters once, not once per
			 * group (each group's transaction would otherwise be
			 * the outermost disable).
			 */
			perf_pmu_disable(cpmu->pmu);
			/*
			 * Pinned task groups come before flexible CPU ones:
			 * flip the CPU's flexible groups only when needed.
			 */
			if ((!list_empty(&cpmu->pinned) || cp->task_first) &&
			    cp->cpu_part && cp->cpu_part->nr_active) {
				pmu_resched(cp);
			} else {
				cpmu_sched_in(cpmu, cp, true);
				cpmu_sched_in(cpmu, cp, false);
			}
			perf_pmu_enable(cpmu->pmu);
		}
		return;
	}
	list_for_each_entry(cpmu, &ctx->pmu_ctx_list, node) {
		struct perf_cpu_pmu *cp = this_cpu_ptr(cpmu->pmu->cpu_pmu);

		cpmu->scheduled = true;
		perf_pmu_disable(cpmu->pmu);
		pmu_sched_in(cp);
		perf_pmu_enable(cpmu->pmu);
	}
}

void perf_ctx_sched_out(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx)
{
	struct perf_ctx_pmu *cpmu;
	u64 now;

	if (!ctx->is_active)
		return;
	/* one instant: the events go out and the clock stops at the same time */
	now = perf_clock();
	perf_ctx_clock_update(ctx, now);
	list_for_each_entry(cpmu, &ctx->pmu_ctx_list, node) {
		struct perf_cpu_pmu *cp = this_cpu_ptr(cpmu->pmu->cpu_pmu);

		/* a task that had its turn before the timer ended it */
		if (ctx->task && perf_mux_turn_over(cpmu))
			perf_mux_rotate_part(cpmu, cp);
		cpmu_sched_out(cpmu, false);
		cpmu->rotate_necessary = false;
		cpmu->scheduled = false;
		/*
		 * On a turn the task's groups go first, the CPU's groups they
		 * kept off stay off until the turn ends (rotation.c): were
		 * they back on while the task sleeps, their estimates would
		 * weigh its sleep over its work.
		 */
		if (ctx->task && cp->task_part == cpmu)
			cp->task_part = NULL;
	}
	ctx->is_active = 0;
	perf_time_clock_stop(&ctx->clock, now);
	if (!ctx->task)
		perf_cgroup_sync(cpuctx, now);
	if (ctx->task && cpuctx->task_ctx == ctx)
		cpuctx->task_ctx = NULL;
}

void perf_cgroup_resched(struct perf_cpu_context *cpuctx)
{
	struct perf_event_context *ctx = &cpuctx->ctx;
	struct perf_ctx_pmu *cpmu;
	u64 now;

	if (!ctx->is_active)
		return;
	now = perf_clock();
	perf_ctx_clock_update(ctx, now);
	if (cpuctx->task_ctx && cpuctx->task_ctx->is_active)
		perf_ctx_clock_update(cpuctx->task_ctx, now);
	/* the task's groups of such a PMU too: CPU pinned groups go first */
	list_for_each_entry(cpmu, &ctx->pmu_ctx_list, node) {
		if (!cpmu->nr_cgroups)
			continue;
		cpmu_sched_out(this_cpu_ptr(cpmu->pmu->cpu_pmu)->task_part, false);
		cpmu_sched_out(cpmu, false);
	}
	perf_cgroup_sync(cpuctx, now);
	list_for_each_entry(cpmu, &ctx->pmu_ctx_list, node) {
		if (cpmu->nr_cgroups)
			pmu_sched_in(this_cpu_ptr(cpmu->pmu->cpu_pmu));
	}
}

/* ---- install and remove -------------------------------------------------- */

/*
 * The disable and the SIGTRAP an overflow left for the irq_work act on the
 * event where it runs.  Running elsewhere now (it moved before the work
 * ran): follow it there, as 6.1 does.  Not running: its sched-out took
 * care of both already (event_sched_out()).
 */
static void perf_pending_here(struct perf_event *event)
{
	int cpu = READ_ONCE(event->oncpu);

	if (!READ_ONCE(event->pending_disable) && !event->pending_sigtrap)
		return;
	if (cpu >= 0 && cpu != smp_processor_id()) {
		irq_work_queue_on(&event->pending_irq, cpu);
		return;
	}
	if (READ_ONCE(event->pending_disable)) {
		event->pending_disable = 0;
		perf_event_disable_local(event);
	}
	if (event->pending_sigtrap)
		perf_deliver_sigtrap(event);
}

void perf_pending_irq(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event, pending_irq);
	int rctx;

	/*
	 * The software-event recursion guard, as in 6.1: a signal sent from
	 * here (SIGIO, SIGTRAP) must not raise an event (signal_generate)
	 * that queues this work again, or the CPU never leaves it.  Already
	 * held (-1): nothing below can recurse either.
	 */
	rctx = perf_swevent_get_recursion_context();
	perf_pending_here(event);
	if (event->pending_wakeup) {
		event->pending_wakeup = 0;
		perf_event_wakeup(event);
	}
	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}

/*
 * A group joins (+1) or leaves (-1) @cpmu's lists: count it, and count it
 * as a cgroup group if it is one (all members watch the leader's cgroup).
 */
static void cpmu_count_group(struct perf_ctx_pmu *cpmu, struct perf_event *leader, int delta)
{
	cpmu->nr_groups += delta;
	if (perf_event_is_cgroup(leader))
		cpmu->nr_cgroups += delta;
}

/* Move a group to another part of the same context (software to hardware). */
static void group_move(struct perf_event *leader, struct perf_ctx_pmu *to)
{
	struct perf_ctx_pmu *from = leader->ctx_pmu;
	struct perf_event *sibling;

	group_sched_out(leader, from);
	list_move_tail(&leader->group_entry, group_list(to, leader));
	cpmu_count_group(from, leader, -1);
	cpmu_count_group(to, leader, 1);
	from->nr_events -= 1 + leader->nr_siblings;
	to->nr_events += 1 + leader->nr_siblings;
	leader->ctx_pmu = to;
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list)
		sibling->ctx_pmu = to;
}

/*
 * Link @event into @ctx's lists and its part's, and into its group
 * (ctx->lock held; its clock brought up to date by the caller).  A part
 * left empty by a group that moved to the event's part is unlinked and
 * returned, for the caller to free; NULL otherwise.
 */
static struct perf_ctx_pmu *perf_ctx_link_event(struct perf_cpu_context *cpuctx,
						struct perf_event_context *ctx,
						struct perf_event *event)
{
	struct perf_ctx_pmu *cpmu = event->ctx_pmu, *emptied = NULL;
	struct perf_event *leader = event->group_leader;

	perf_time_rebase(&event->times, perf_event_clock_time(event));
	list_add_tail(&event->event_entry, &ctx->event_list);
	WRITE_ONCE(ctx->nr_events, ctx->nr_events + 1);
	cpmu->nr_events++;
	if (perf_event_is_cgroup(event))
		perf_cgroup_count(cpuctx, ctx, 1);
	event->attach_state |= PERF_ATTACH_CONTEXT;

	if (leader == event) {
		list_add_tail(&event->group_entry, group_list(cpmu, event));
		cpmu_count_group(cpmu, event, 1);
		event->group_caps = event->event_caps;
		return NULL;
	}

	if (leader->ctx_pmu != cpmu) {
		struct perf_ctx_pmu *from = leader->ctx_pmu;

		group_move(leader, cpmu);
		if (!from->nr_events && !perf_ctx_pmu_keep(from)) {
			perf_ctx_pmu_unlink_locked(from);
			emptied = from;
		}
	} else if (!list_empty(&leader->active_list)) {
		group_sched_out(leader, cpmu);
	}
	list_add_tail(&event->sibling_list, &leader->sibling_list);
	leader->nr_siblings++;
	leader->group_caps &= event->event_caps;
	leader->filter_match_cpu = -1;
	leader->group_generation++;
	event->attach_state |= PERF_ATTACH_GROUP;
	leader->attach_state |= PERF_ATTACH_GROUP;
	return emptied;
}

static void __perf_install(struct perf_event *event, struct perf_cpu_context *cpuctx,
			   struct perf_event_context *ctx, void *data)
{
	struct perf_ctx_pmu *cpmu = event->ctx_pmu, **emptied = data;

	perf_op_begin(cpuctx, ctx);
	perf_ctx_changed(ctx);
	/* a part created after the context was scheduled in joins it now */
	if (cpuctx && ctx->is_active) {
		cpmu->scheduled = true;
		if (ctx->task)
			this_cpu_ptr(cpmu->pmu->cpu_pmu)->task_part = cpmu;
	}
	*emptied = perf_ctx_link_event(cpuctx, ctx, event);

	if (cpuctx && ctx->is_active)
		pmu_resched_for(this_cpu_ptr(cpmu->pmu->cpu_pmu), ctx, event->group_leader);
}

/*
 * Before @ctx sees @event: its part of @ctx for @pmu (the only step that
 * can fail, before anything is changed), and event->ctx.
 */
int perf_install_prepare_in(struct perf_event_context *ctx, struct perf_event *event,
			    struct pmu *pmu)
{
	struct perf_ctx_pmu *cpmu;

	lockdep_assert_held(&ctx->mutex);
	cpmu = perf_ctx_pmu_get(ctx, pmu);
	if (!cpmu)
		return -ENOMEM;
	/* drivers find their PMU as event->ctx->pmu (6.1's layout) */
	if (!ctx->pmu && event->pmu->task_ctx_nr == perf_hw_context)
		ctx->pmu = event->pmu;
	event->ctx_pmu = cpmu;
	/*
	 * A CPU-wide event that asked for side-band records is on its CPU's
	 * record list since it was allocated: publish the context last, the
	 * record writers skip an event without one (records.c).
	 */
	smp_store_release(&event->ctx, ctx);
	return 0;
}

/* The same in the part of the event's PMU, or of its group's. */
static int perf_install_prepare(struct perf_event_context *ctx, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct pmu *pmu = event->pmu;

	/* a group goes with its hardware member, if it has one */
	if (leader != event && is_software_event(event))
		pmu = leader->ctx_pmu->pmu;
	return perf_install_prepare_in(ctx, event, pmu);
}

int perf_install_in_context(struct perf_event_context *ctx, struct perf_event *event, int cpu)
{
	struct perf_ctx_pmu *emptied = NULL;
	int err;

	err = perf_install_prepare(ctx, event);
	if (err)
		return err;
	event_function_call(event, __perf_install, &emptied);
	/* the part a moved group left, if it is empty now */
	kfree(emptied);
	return 0;
}

void perf_install_all_in_new_ctx(struct perf_event_context *ctx, struct list_head *events)
{
	struct perf_ctx_pmu *emptied = NULL;
	struct perf_event *event;
	unsigned int nr = 0;

	/* nothing runs @ctx and nothing else sees it: no cross-CPU call, no clock */
	raw_spin_lock_irq(&ctx->lock);
	WARN_ON_ONCE(ctx->is_active || !ctx->task);
	perf_ctx_changed(ctx);
	list_for_each_entry(event, events, migrate_entry) {
		/* every member was prepared in its group's part: nothing moves */
		if (!WARN_ON_ONCE(emptied))
			emptied = perf_ctx_link_event(NULL, ctx, event);
		nr++;
	}
	/* the events' references on @ctx, one each (perf_free_event() drops it) */
	if (nr)
		refcount_add(nr, &ctx->refcount);
	raw_spin_unlock_irq(&ctx->lock);
	kfree(emptied);
}

/*
 * Break @event's group links (ctx->lock held).  A sibling leaves its
 * leader; a leader's siblings become leaders of their own, in @cpmu's
 * lists if they are still in the context (an event that lost its group
 * and cannot be alone, PERF_EV_CAP_SIBLING, goes to ERROR).  Events that
 * left the context with their group (task exit) just become single.
 */
static void perf_group_detach(struct perf_event *event, struct perf_ctx_pmu *cpmu)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling, *tmp;

	if (leader != event) {
		list_del_init(&event->sibling_list);
		leader->nr_siblings--;
		leader->group_generation++;
		event->group_leader = event;
		event->attach_state &= ~PERF_ATTACH_GROUP;
		WRITE_ONCE(event->aux_event, NULL);
		return;
	}

	list_for_each_entry_safe(sibling, tmp, &event->sibling_list, sibling_list) {
		list_del_init(&sibling->sibling_list);
		sibling->group_leader = sibling;
		sibling->group_caps = sibling->event_caps;
		sibling->attach_state &= ~PERF_ATTACH_GROUP;
		if (!(sibling->attach_state & PERF_ATTACH_CONTEXT) || WARN_ON_ONCE(!cpmu)) {
			/* it left with the group: no leader to point to any more */
			WRITE_ONCE(sibling->aux_event, NULL);
			continue;
		}
		/* as in 6.1, an aux_output event without its AUX leader is done */
		if ((sibling->event_caps & PERF_EV_CAP_SIBLING) || sibling->aux_event)
			perf_event_set_state(sibling, PERF_EVENT_STATE_ERROR);
		WRITE_ONCE(sibling->aux_event, NULL);
		list_add_tail(&sibling->group_entry, group_list(cpmu, sibling));
		cpmu_count_group(cpmu, sibling, 1);
	}
	event->nr_siblings = 0;
	event->attach_state &= ~PERF_ATTACH_GROUP;
}

static void __perf_remove(struct perf_event *event, struct perf_cpu_context *cpuctx,
			  struct perf_event_context *ctx, void *data)
{
	unsigned long flags = (unsigned long)data;
	struct perf_ctx_pmu *cpmu = event->ctx_pmu;
	struct perf_event *leader = event->group_leader;
	enum perf_event_state state = PERF_EVENT_STATE_OFF;
	bool resched = false, promoted = false;

	perf_op_begin(cpuctx, ctx);
	perf_ctx_changed(ctx);
	if (leader == event) {
		if (!list_empty(&event->active_list)) {
			group_sched_out(event, cpmu);
			resched = true;
		}
	} else {
		event_sched_out(event, ctx);
	}
	/* totals up to date in this context's time: a moved event keeps them */
	perf_event_update_time(event);

	/* off its part's group lists first: the state change need not move it */
	if (leader == event) {
		list_del_init(&event->group_entry);
		cpmu_count_group(cpmu, event, -1);
	}

	if (flags & DETACH_EXIT)
		state = PERF_EVENT_STATE_EXIT;
	if (flags & DETACH_DEAD)
		state = PERF_EVENT_STATE_DEAD;
	if (!(flags & DETACH_MOVE) &&
	    (event->state > PERF_EVENT_STATE_OFF || state < PERF_EVENT_STATE_OFF))
		perf_event_set_state(event, state);
	/*
	 * The group stays whole unless asked (6.1's rule): the members of a
	 * group whose task exited are read together afterwards.
	 */
	if ((flags & DETACH_GROUP) && (event->attach_state & PERF_ATTACH_GROUP)) {
		/* a leader's siblings become groups of their own: they go on again */
		if (leader == event && event->nr_siblings)
			promoted = true;
		perf_group_detach(event, cpmu);
	}

	list_del_init(&event->event_entry);
	WRITE_ONCE(ctx->nr_events, ctx->nr_events - 1);
	if (perf_event_is_cgroup(event))
		perf_cgroup_count(cpuctx, ctx, -1);
	event->attach_state &= ~PERF_ATTACH_CONTEXT;

	/*
	 * The counters the group leaves go to its promoted siblings and to
	 * a group that waits for them: at once, not at the next turn (6.1
	 * waits for the turn).  None waits when no part of the PMU here had
	 * a group left out.
	 */
	if (cpuctx && ctx->is_active) {
		struct perf_cpu_pmu *cp = this_cpu_ptr(cpmu->pmu->cpu_pmu);

		if (cpmu->rotate_necessary ||
		    (resched && (promoted || pmu_has_waiting(cp))))
			pmu_resched(cp);
	}
	/*
	 * The part goes with its last event (not its last group: the members
	 * of a group whose leader left with them, at exit, are still here),
	 * unless it stays for the next one (perf_ctx_pmu_keep()).
	 */
	if (--cpmu->nr_events || perf_ctx_pmu_keep(cpmu) ||
	    WARN_ON_ONCE(!list_empty(&cpmu->active)))
		cpmu = NULL;
	else
		event->ctx_pmu = NULL;	/* freed by the caller */
	if (cpmu)
		perf_ctx_pmu_unlink_locked(cpmu);
	/*
	 * An empty task context does not stay scheduled in: the context
	 * switch hooks that would take it out go away with the last event.
	 */
	if (cpuctx && ctx->task && !ctx->nr_events)
		perf_ctx_sched_out(cpuctx, ctx);
}

void perf_remove_from_context(struct perf_event *event, unsigned long flags)
{
	struct perf_event_context *ctx = event->ctx;
	struct perf_ctx_pmu *cpmu = event->ctx_pmu;

	lockdep_assert_held(&ctx->mutex);
	if (!(event->attach_state & PERF_ATTACH_CONTEXT)) {
		/* it left with its group (exit): the group ends with a close */
		if ((flags & DETACH_GROUP) && (event->attach_state & PERF_ATTACH_GROUP)) {
			raw_spin_lock_irq(&ctx->lock);
			perf_group_detach(event, NULL);
			raw_spin_unlock_irq(&ctx->lock);
		}
		return;
	}
	event_function_call(event, __perf_remove, (void *)flags);
	if (!event->ctx_pmu) {
		/* __perf_remove unlinked the now empty part */
		kfree(cpmu);
	}
	event->ctx_pmu = NULL;
}

void perf_ctx_remove_all_exit(struct perf_event_context *ctx, struct list_head *out,
			      struct list_head *emptied)
{
	struct perf_event *event, *tmp;
	struct perf_ctx_pmu *cpmu, *next;

	lockdep_assert_held(&ctx->mutex);
	lockdep_assert_held(&ctx->lock);
	WARN_ON_ONCE(ctx->task != TASK_TOMBSTONE || ctx->is_active);
	if (list_empty(&ctx->event_list))
		return;
	perf_ctx_changed(ctx);
	/*
	 * All leave at once, at the context's last instant (it is out: its
	 * clock stands still).  Times first, while every member still
	 * accrues as its leader does; and out of the context, so that no
	 * group breaking below promotes a member that leaves anyway.
	 */
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		__perf_event_update_time(event);
		event->attach_state &= ~PERF_ATTACH_CONTEXT;
	}
	/*
	 * The event list and the parts' group lists go whole: their entries
	 * are reset, not unlinked one at a time.
	 */
	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		WRITE_ONCE(event->state, PERF_EVENT_STATE_EXIT);
		INIT_LIST_HEAD(&event->group_entry);
		/* a child folds into its parent alone; a group of the task stays whole */
		if (event->parent && (event->attach_state & PERF_ATTACH_GROUP))
			perf_group_detach(event, NULL);
		if (perf_event_is_cgroup(event))
			perf_cgroup_count(NULL, ctx, -1);
		event->ctx_pmu = NULL;
		INIT_LIST_HEAD(&event->event_entry);
		list_add_tail(&event->migrate_entry, out);
	}
	INIT_LIST_HEAD(&ctx->event_list);
	WRITE_ONCE(ctx->nr_events, 0);

	/* the parts are empty: a core software one stays (perf_ctx_pmu_keep()) */
	list_for_each_entry_safe(cpmu, next, &ctx->pmu_ctx_list, node) {
		/* leaders only (an exited context has none on the PMU) */
		WARN_ON_ONCE(!list_empty(&cpmu->active));
		INIT_LIST_HEAD(&cpmu->pinned);
		INIT_LIST_HEAD(&cpmu->flexible);
		INIT_LIST_HEAD(&cpmu->idle);
		cpmu->nr_events = 0;
		cpmu->nr_groups = 0;
		cpmu->nr_cgroups = 0;
		if (perf_ctx_pmu_keep(cpmu))
			continue;
		perf_ctx_pmu_unlink_locked(cpmu);
		list_add(&cpmu->node, emptied);
	}
}

/* ---- enable and disable --------------------------------------------------- */

static void __perf_enable(struct perf_event *event, struct perf_cpu_context *cpuctx,
			  struct perf_event_context *ctx, void *data)
{
	struct perf_event *leader = event->group_leader;

	if (event->state >= PERF_EVENT_STATE_INACTIVE ||
	    event->state <= PERF_EVENT_STATE_EXIT)
		return;
	perf_op_begin(cpuctx, ctx);
	perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
	if (!cpuctx || !ctx->is_active)
		return;
	/* a sibling of a group that is off does not run on its own */
	if (leader != event && leader->state != PERF_EVENT_STATE_ACTIVE &&
	    leader->state != PERF_EVENT_STATE_INACTIVE)
		return;
	if (leader != event && !list_empty(&leader->active_list))
		group_sched_out(leader, leader->ctx_pmu);
	pmu_resched_for(this_cpu_ptr(leader->ctx_pmu->pmu->cpu_pmu), ctx, leader);
}

void _perf_event_enable(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	raw_spin_lock_irq(&ctx->lock);
	if (event->state >= PERF_EVENT_STATE_INACTIVE ||
	    event->state < PERF_EVENT_STATE_ERROR) {
		raw_spin_unlock_irq(&ctx->lock);
		return;
	}
	/* an ERROR event is re-enabled as if it was off */
	if (event->state == PERF_EVENT_STATE_ERROR)
		event->state = PERF_EVENT_STATE_OFF;
	raw_spin_unlock_irq(&ctx->lock);
	if (!(event->attach_state & PERF_ATTACH_CONTEXT))
		return;
	event_function_call(event, __perf_enable, NULL);
}

void perf_event_enable(struct perf_event *event)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);

	_perf_event_enable(event);
	perf_event_ctx_unlock(event, ctx);
}
EXPORT_SYMBOL_GPL(perf_event_enable);

static void __perf_disable(struct perf_event *event, struct perf_cpu_context *cpuctx,
			   struct perf_event_context *ctx, void *data)
{
	if (event->state < PERF_EVENT_STATE_INACTIVE)
		return;
	perf_op_begin(cpuctx, ctx);
	if (event == event->group_leader)
		group_sched_out(event, event->ctx_pmu);
	else
		event_sched_out(event, ctx);
	perf_event_set_state(event, PERF_EVENT_STATE_OFF);
	if (cpuctx && ctx->is_active && event->ctx_pmu && event->ctx_pmu->rotate_necessary)
		pmu_resched(this_cpu_ptr(event->ctx_pmu->pmu->cpu_pmu));
}

void _perf_event_disable(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	raw_spin_lock_irq(&ctx->lock);
	if (event->state <= PERF_EVENT_STATE_OFF) {
		raw_spin_unlock_irq(&ctx->lock);
		return;
	}
	raw_spin_unlock_irq(&ctx->lock);
	if (!(event->attach_state & PERF_ATTACH_CONTEXT))
		return;
	event_function_call(event, __perf_disable, NULL);
}

void perf_event_disable(struct perf_event *event)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);

	_perf_event_disable(event);
	perf_event_ctx_unlock(event, ctx);
}
EXPORT_SYMBOL_GPL(perf_event_disable);

void perf_ctx_enable_on_exec(struct perf_event_context *ctx)
{
	struct perf_cpu_context *cpuctx;
	struct perf_ctx_pmu *cpmu;
	struct perf_event *event;
	bool changed = false, here;

	lockdep_assert_held(&ctx->mutex);
	local_irq_disable();
	cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	perf_ctx_lock(cpuctx, ctx);
	/* current's context, scheduled here unless it has no events */
	here = cpuctx->task_ctx == ctx;
	if (here)
		perf_op_begin(cpuctx, ctx);
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (!event->attr.enable_on_exec)
			continue;
		/* fires once: the next exec leaves the event as it finds it */
		event->attr.enable_on_exec = 0;
		if (event->state != PERF_EVENT_STATE_OFF &&
		    event->state != PERF_EVENT_STATE_ERROR)
			continue;
		perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
		changed = true;
	}
	/* one reschedule per PMU for all of them, groups put back whole */
	if (changed && here) {
		list_for_each_entry(cpmu, &ctx->pmu_ctx_list, node) {
			cpmu_sched_out(cpmu, false);
			pmu_resched(this_cpu_ptr(cpmu->pmu->cpu_pmu));
		}
	}
	perf_ctx_unlock(cpuctx, ctx);
	local_irq_enable();
}

void perf_event_disable_local(struct perf_event *event)
{
	event_function_local(event, __perf_disable, NULL);
}

void perf_event_disable_inatomic(struct perf_event *event)
{
	WRITE_ONCE(event->pending_disable, 1);
	irq_work_queue(&event->pending_irq);
}
