// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup events (PERF_FLAG_PID_CGROUP): the perf_event cgroup controller,
 * attaching an event to a cgroup, the per-cgroup clocks and the switch of
 * a CPU's cgroup events when the running task's cgroup changes.
 *
 * A cgroup event is a CPU event that counts only while a task of its
 * cgroup, or of a descendant, runs on that CPU.  It lives in the CPU
 * context like any CPU event; group_sched.c leaves it INACTIVE while its
 * cgroup is not running there (perf_cgroup_event_runs()).
 *
 * Time: each cgroup has a clock per CPU (struct perf_cgroup_info).  While
 * a CPU context has cgroup events and is scheduled in, cpuctx->cgrp is the
 * running task's cgroup and the clocks of it and of all its ancestors run;
 * every other cgroup's clock on that CPU is stopped.  A cgroup event
 * accrues its enabled and running time on its cgroup's clock instead of
 * the context clock, so time_enabled is the time its cgroup ran there.
 *
 * Locking: cpuctx->cgrp and the clocks of one CPU change only on that CPU,
 * with IRQs off and cpuctx->ctx.lock held.  An event holds a reference on
 * its cgroup's css from open to free.  cpuctx->cgrp holds none: it is the
 * cgroup of the task running there, which keeps it alive, and it is
 * replaced at the next switch.
 */
#include <linux/cgroup.h>
#include <linux/file.h>
#include <linux/slab.h>

#include "internal.h"

static inline struct perf_cgroup *css_to_perf_cgroup(struct cgroup_subsys_state *css)
{
	return container_of(css, struct perf_cgroup, css);
}

static struct perf_time_clock *cgroup_clock(struct perf_cgroup *cgrp, int cpu)
{
	return &per_cpu_ptr(cgrp->info, cpu)->clock;
}

/* ---- the clocks of the running cgroup and its ancestors ------------------- */

enum cgroup_clock_op { CLOCK_UPDATE, CLOCK_START, CLOCK_STOP };

static void cgroup_chain_clocks(struct perf_cgroup *cgrp, enum cgroup_clock_op op, u64 now)
{
	struct cgroup_subsys_state *css;
	struct perf_time_clock *clock;

	for (css = &cgrp->css; css; css = css->parent) {
		clock = &this_cpu_ptr(css_to_perf_cgroup(css)->info)->clock;
		if (op == CLOCK_START)
			perf_time_clock_start(clock, now);
		else if (op == CLOCK_STOP)
			perf_time_clock_stop(clock, now);
		else
			perf_time_clock_update(clock, now);
	}
}

void perf_cgroup_update_time(struct perf_cpu_context *cpuctx, u64 now)
{
	if (cpuctx->cgrp)
		cgroup_chain_clocks(cpuctx->cgrp, CLOCK_UPDATE, now);
}

/*
 * Make cpuctx->cgrp what it should be now: the running task's cgroup while
 * the CPU context has cgroup events and is scheduled in, else none; the
 * clocks of the old chain stop and those of the new one start at @now.
 */
void perf_cgroup_sync(struct perf_cpu_context *cpuctx, u64 now)
{
	struct perf_cgroup *want = NULL;

	if (cpuctx->ctx.nr_cgroups && cpuctx->ctx.is_active)
		want = perf_cgroup_from_task(current, &cpuctx->ctx);
	if (want == cpuctx->cgrp)
		return;
	if (cpuctx->cgrp)
		cgroup_chain_clocks(cpuctx->cgrp, CLOCK_STOP, now);
	if (want)
		cgroup_chain_clocks(want, CLOCK_START, now);
	cpuctx->cgrp = want;
}

/*
 * Called within an operation on the CPU context, whose clock the operation
 * brought to its instant (perf_op_begin()): the chain starts or stops then.
 */
void perf_cgroup_count(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx,
		       int delta)
{
	ctx->nr_cgroups += delta;
	if (cpuctx && ctx == &cpuctx->ctx)
		perf_cgroup_sync(cpuctx, ctx->clock.stamp);
}

/* May @event (of this CPU's context) be on its PMU now? */
bool perf_cgroup_event_runs(struct perf_event *event)
{
	struct perf_cgroup *running = this_cpu_ptr(&perf_cpu_ctx)->cgrp;

	return running && cgroup_is_descendant(running->css.cgroup, event->cgrp->css.cgroup);
}

u64 perf_cgroup_event_time(struct perf_event *event)
{
	return cgroup_clock(event->cgrp, event->cpu)->time;
}

u64 perf_cgroup_event_time_peek(struct perf_event *event, u64 now)
{
	return perf_time_clock_peek(cgroup_clock(event->cgrp, event->cpu), now);
}

/*
 * The running task's cgroup on this CPU may have changed (context switch,
 * or the task moved): reschedule the CPU context if it has cgroup events.
 * IRQs off.
 */
void perf_cgroup_switch(void)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx;

	if (!READ_ONCE(cpuctx->ctx.nr_cgroups) ||
	    perf_cgroup_from_task(current, NULL) == READ_ONCE(cpuctx->cgrp))
		return;
	/* only PMUs with cgroup groups; the task's groups stay: lock both */
	task_ctx = cpuctx->task_ctx;
	perf_ctx_lock(cpuctx, task_ctx);
	perf_cgroup_resched(cpuctx);
	perf_ctx_unlock(cpuctx, task_ctx);
}

/* ---- attaching events ------------------------------------------------------ */

/*
 * Attach @event to the cgroup whose directory @cgroup_fd is open on.  Every
 * event of a group watches the same cgroup (a task is in one at a time).
 */
int perf_cgroup_connect(struct perf_event *event, int cgroup_fd,
			struct perf_event *group_leader)
{
	struct cgroup_subsys_state *css;
	struct fd f = fdget(cgroup_fd);
	int err = 0;

	if (!f.file)
		return -EBADF;
	css = css_tryget_online_from_dir(f.file->f_path.dentry, &perf_event_cgrp_subsys);
	if (IS_ERR(css)) {
		err = PTR_ERR(css);
		goto out;
	}
	event->cgrp = css_to_perf_cgroup(css);
	if (group_leader && group_leader->cgrp != event->cgrp) {
		perf_cgroup_disconnect(event);
		err = -EINVAL;
	}
out:
	fdput(f);
	return err;
}

void perf_cgroup_disconnect(struct perf_event *event)
{
	if (event->cgrp) {
		css_put(&event->cgrp->css);
		event->cgrp = NULL;
	}
}

/* ---- the controller -------------------------------------------------------- */

static struct cgroup_subsys_state *perf_cgroup_css_alloc(struct cgroup_subsys_state *parent_css)
{
	struct perf_cgroup *cgrp = kzalloc(sizeof(*cgrp), GFP_KERNEL);

	if (!cgrp)
		return ERR_PTR(-ENOMEM);
	cgrp->info = alloc_percpu(struct perf_cgroup_info);
	if (!cgrp->info) {
		kfree(cgrp);
		return ERR_PTR(-ENOMEM);
	}
	return &cgrp->css;
}

static void perf_cgroup_css_free(struct cgroup_subsys_state *css)
{
	struct perf_cgroup *cgrp = css_to_perf_cgroup(css);

	free_percpu(cgrp->info);
	kfree(cgrp);
}

/* A new cgroup (mkdir): PERF_RECORD_CGROUP for the events that asked. */
static int perf_cgroup_css_online(struct cgroup_subsys_state *css)
{
	perf_record_cgroup(css->cgroup);
	return 0;
}

/* On the CPU where the moved task is current (perf_task_function_call()). */
static int perf_cgroup_attach_one(void *info)
{
	perf_cgroup_switch();
	return 0;
}

/* Tasks moved to another cgroup: those running switch now, the rest at sched-in. */
static void perf_cgroup_attach(struct cgroup_taskset *tset)
{
	struct cgroup_subsys_state *css;
	struct task_struct *task;

	cgroup_taskset_for_each(task, css, tset)
		perf_task_function_call(task, perf_cgroup_attach_one, task);
}

struct cgroup_subsys perf_event_cgrp_subsys = {
	.css_alloc	= perf_cgroup_css_alloc,
	.css_online	= perf_cgroup_css_online,
	.css_free	= perf_cgroup_css_free,
	.attach		= perf_cgroup_attach,
	/* enabled in every cgroup2 hierarchy, threaded included, as in 6.1 */
	.implicit_on_dfl = true,
	.threaded	= true,
};
