/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Core-private structures and the interfaces between the files of the
 * perf_events core (Documentation/perf_events/core-design.rst).
 *
 * Objects:
 *   struct perf_event_context   one per task (task->perf_event_ctxp) and one
 *                               per CPU (perf_cpu_context.ctx)
 *   struct perf_ctx_pmu         the per-PMU part of a context: its group lists
 *   struct perf_cpu_pmu         per PMU and CPU (pmu->cpu_pmu): what is
 *                               scheduled on that PMU there, multiplexing
 *
 * Lock order (outermost first): pmus_lock; task->perf_event_mutex;
 * ctx->mutex of a parent event's context, then the parent's
 * event->child_mutex, then a child's ctx->mutex (mutex_lock_nested(...,
 * SINGLE_DEPTH_NESTING)); event->mmap_mutex; ctx->lock of the CPU context,
 * then ctx->lock of the task context (raw spinlocks, IRQs off).
 *
 * ctx->mutex serialises every change made from process context; ctx->lock
 * protects what the scheduler path and IPIs touch too (event state, group
 * lists, times, is_active).  Changing a list needs both.
 */
#ifndef _KERNEL_EVENTS_INTERNAL_H
#define _KERNEL_EVENTS_INTERNAL_H

#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/perf_event.h>
#include <linux/poll.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/uaccess.h>
#include <asm/local.h>
#include <asm/unaligned.h>

#include "event_time.h"

/* A task whose context is gone (exit): ctx->task is set to this. */
#define TASK_TOMBSTONE ((void *)-1L)

/* ctx->is_active bits */
#define EVENT_FLEXIBLE	0x1
#define EVENT_PINNED	0x2
#define EVENT_ALL	(EVENT_FLEXIBLE | EVENT_PINNED)

/*
 * The per-PMU part of one context.  Created by perf_ctx_pmu_get() when the
 * first group of a PMU arrives (ctx->mutex held), freed by
 * perf_ctx_pmu_put() with the last one.  A group lives in the part of its
 * leader's PMU, except that a software leader with a hardware sibling puts
 * the group in the part of the hardware PMU (it is scheduled with it).
 * Groups whose leader is off or in error wait on @idle, out of the way of
 * the scheduling walks (group_sched.c: group_list()).
 */
struct perf_ctx_pmu {
	struct list_head		node;		/* in ctx->pmu_ctx_list */
	struct perf_event_context	*ctx;
	struct pmu			*pmu;
	struct list_head		pinned;		/* leaders, event->group_entry */
	struct list_head		flexible;	/* leaders, event->group_entry */
	struct list_head		idle;		/* leaders off or in error: not scheduled */
	struct list_head		active;		/* leaders on the PMU, event->active_list */
	int				nr_events;	/* events in this part, all states */
	int				nr_groups;	/* leaders in pinned, flexible, idle */
	int				nr_cgroups;	/* of those, cgroup groups */
	int				nr_active;	/* leaders in active */
	bool				rotate_necessary; /* a flexible group did not fit */
	bool				scheduled;	/* this part is scheduled in */
	bool				keep_when_empty; /* perf_ctx_pmu_keep() */
	/* context time when the flexible groups' turn ends, 0: none runs */
	u64				mux_turn_end;
	/* the group the last turn's end made room for (only compared) */
	const struct perf_event		*mux_target;
};

/*
 * Per PMU and CPU (pmu->cpu_pmu).  Touched only on its CPU with IRQs off,
 * or under the CPU context's lock.
 */
struct perf_cpu_pmu {
	struct pmu			*pmu;
	int				cpu;
	struct perf_ctx_pmu		*cpu_part;	/* of the CPU context, or NULL */
	struct perf_ctx_pmu		*task_part;	/* of the scheduled task context */
	int				exclusive;	/* an exclusive group is on */
	int				sched_cb_usage;	/* perf_sched_cb_inc() users */
	struct list_head		sched_cb_entry;	/* on this CPU's sched_cb list */
	/* multiplexing (rotation.c) */
	raw_spinlock_t			timer_lock;
	struct hrtimer			timer;
	ktime_t				interval;
	bool				timer_active;
	/*
	 * Whose flexible groups go first: the task part's every other turn
	 * while both parts have groups left out (rotation.c)
	 */
	bool				task_first;
	u32				mux_seed;	/* jitter of the intervals */
};

DECLARE_PER_CPU(struct perf_cpu_context, perf_cpu_ctx);

/* A function run on another CPU by perf_{task,cpu}_function_call(). */
typedef int (*remote_function_f)(void *info);

/*
 * Function run on the CPU that owns @ctx, with cpuctx and ctx locked; or,
 * when the context is not scheduled in anywhere, locally with only
 * ctx->lock held and @cpuctx NULL.
 */
typedef void (*event_f)(struct perf_event *event, struct perf_cpu_context *cpuctx,
			struct perf_event_context *ctx, void *data);

/*
 * A core-private bit of event_caps: the event's PMU counts on every CPU
 * (it has no pmu->filter_match).  group_caps, the AND over the members,
 * has it when the whole group does.
 */
#define PERF_EV_CAP_EVERY_CPU	BIT(15)

/*
 * Does every member's PMU take this CPU (pmu->filter_match(), optional:
 * hybrid systems have PMUs of some CPUs only)?  A group that does not
 * match waits, as one of another CPU does.  IRQs off.  The answer for an
 * event and a CPU does not change (the PMU's CPUs are those of a kind of
 * core): the leader remembers the CPU of its last yes
 * (filter_match_cpu; -1 again when a member joins), so that a group that
 * stays on its CPU calls no filter_match() at each context switch (x86
 * has one for every hardware event).
 */
static inline bool perf_group_pmus_match(struct perf_event *leader)
{
	struct perf_event *sibling;
	int cpu;

	/* the scheduling fast path: no member has a PMU of some CPUs */
	if (likely(leader->group_caps & PERF_EV_CAP_EVERY_CPU))
		return true;
	cpu = smp_processor_id();
	if (leader->filter_match_cpu == cpu)
		return true;
	if (leader->pmu->filter_match && !leader->pmu->filter_match(leader))
		return false;
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list) {
		if (sibling->pmu->filter_match && !sibling->pmu->filter_match(sibling))
			return false;
	}
	leader->filter_match_cpu = cpu;
	return true;
}

/* ---- context.c: context lifetime, locking, cross-CPU calls ---------- */
struct perf_event_context *perf_ctx_alloc(struct task_struct *task);
void perf_ctx_get(struct perf_event_context *ctx);
void perf_ctx_put(struct perf_event_context *ctx);
/* A reference unless @ctx is on its way out (refcount zero). */
bool perf_ctx_tryget(struct perf_event_context *ctx);
/*
 * The context an event for (@task, @cpu) goes into, with a reference:
 * @task's (created on first use; held, see perf_task_ctx_hold(): the
 * caller unholds it once its event is in) or CPU @cpu's.  ERR_PTR on
 * failure.
 */
struct perf_event_context *perf_find_get_context(struct task_struct *task, int cpu);
/*
 * Lock @ctx->mutex of the event's context, coping with the event moving
 * (inheritance never moves events; kept for migrate_context).
 */
struct perf_event_context *perf_event_ctx_lock(struct perf_event *event);
void perf_event_ctx_unlock(struct perf_event *event, struct perf_event_context *ctx);
/* The per-PMU part of @ctx for @pmu, created if missing (ctx->mutex held). */
struct perf_ctx_pmu *perf_ctx_pmu_get(struct perf_event_context *ctx, struct pmu *pmu);
/* Unlink an empty @cpmu from its context (ctx->lock held, on its CPU). */
void perf_ctx_pmu_unlink_locked(struct perf_ctx_pmu *cpmu);
/* Does @cpmu stay in its context when its last event goes? (context.c) */
static inline bool perf_ctx_pmu_keep(struct perf_ctx_pmu *cpmu)
{
	return cpmu->keep_when_empty;
}

/*
 * Run @func for @event on the CPU that owns its context (IPI), or locally
 * with ctx->lock held when a task context is not scheduled anywhere.
 * ctx->mutex held by the caller (or the event not yet visible).
 */
void event_function_call(struct perf_event *event, event_f func, void *data);
/* Same, but only from the CPU that owns the context, IRQs off. */
void event_function_local(struct perf_event *event, event_f func, void *data);
/* Lock cpuctx->ctx.lock then ctx->lock (if ctx is not the CPU context). */
void perf_ctx_lock(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx);
void perf_ctx_unlock(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx);
/* Run @func(info) on the CPU @task runs on, if it runs; -ESRCH/-EAGAIN. */
int perf_task_function_call(struct task_struct *task, remote_function_f func, void *info);
int perf_cpu_function_call(int cpu, remote_function_f func, void *info);
/*
 * Stop @event's PMU where the event runs, if it runs, and with @restart
 * start it again (a PMU takes changed settings at its start); one its PMU
 * stopped stays so.  No lock needed; IRQs on.  _here: on the event's CPU,
 * IRQs off.
 */
void perf_event_stop_where_it_runs(struct perf_event *event, bool restart);
void perf_event_stop_here(struct perf_event *event, bool restart);
/* Initialise every possible CPU's perf_cpu_ctx (boot, from perf_event_init). */
void perf_contexts_init(void);

/* ---- ctx_swap.c: clones of one context swapped at a context switch -- */
/* @ctx no longer a clone: drop its root (ctx->lock held). */
void perf_ctx_unclone(struct perf_event_context *ctx);
/* @ctx's events changed (install, remove): a new generation, no clone. */
void perf_ctx_changed(struct perf_event_context *ctx);
/* Fork: @child holds a copy of every event of @parent (its mutex held). */
void perf_ctx_mark_clone(struct perf_event_context *child,
			 struct perf_event_context *parent);
/*
 * @task's context with a reference, a clone no more and pinned (never
 * swapped to another task) until perf_task_ctx_unhold(), or NULL.
 */
struct perf_event_context *perf_task_ctx_hold(struct task_struct *task);
void perf_task_ctx_unhold(struct perf_event_context *ctx);
/* @task's context with a reference, not swapped until unpinned, or NULL. */
struct perf_event_context *perf_task_ctx_pin(struct task_struct *task);
void perf_task_ctx_unpin(struct perf_event_context *ctx);
/* Twins: same events, neither pinned (both locked; KUnit: ctx_swap_test.c). */
bool perf_ctx_equivalent(struct perf_event_context *a, struct perf_event_context *b);
/*
 * Context switch, IRQs off, @ctx (@prev's) scheduled in here: give it to
 * @next and @next's equivalent context to @prev.  False if they are not
 * twins, and nothing changed.
 */
bool perf_ctx_try_swap(struct perf_event_context *ctx, struct task_struct *prev,
		       struct task_struct *next);

/* ---- group_sched.c: scheduling groups in and out -------------------- */
/* Context time now (ctx->lock held), bringing the clock up to date. */
void perf_ctx_update_time(struct perf_event_context *ctx);
/* Bring event's enabled/running totals up to date (ctx->lock held). */
void perf_event_update_time(struct perf_event *event);
void perf_event_set_state(struct perf_event *event, enum perf_event_state state);
/* The event's irq_work (event->pending_irq): pending disable and wakeup. */
void perf_pending_irq(struct irq_work *work);
/*
 * Add @event (not yet in any list) to @ctx and schedule it if it can run;
 * it takes over the caller's reference on @ctx.  -ENOMEM (and nothing
 * changed: the reference stays the caller's) if the context's part for
 * the event's PMU could not be allocated.
 */
int perf_install_in_context(struct perf_event_context *ctx, struct perf_event *event, int cpu);
/*
 * Fork's install, into a context that no task runs and nobody else can
 * see yet (a forking child's, before fork links its first event to its
 * parent), in two steps.  First each event is prepared (ctx->mutex held;
 * may allocate, -ENOMEM as above): event->ctx, and its part of @ctx for
 * @group_pmu, the PMU of the part its group lives in (its parent group's),
 * so that no group moves between parts as members arrive.  Then all the
 * prepared events on @events (by migrate_entry, each leader before its
 * members) go in at once, under one hold of ctx->lock.  A prepared event
 * holds no reference on @ctx: the install takes one for each, so every
 * prepared event goes through it (a failed fork installs, then removes).
 */
int perf_install_prepare_in(struct perf_event_context *ctx, struct perf_event *event,
			    struct pmu *group_pmu);
void perf_install_all_in_new_ctx(struct perf_event_context *ctx, struct list_head *events);

#define DETACH_GROUP	0x01UL	/* break the group: siblings become leaders */
#define DETACH_EXIT	0x02UL	/* the task exits: state EXIT */
#define DETACH_DEAD	0x04UL	/* the event is being freed: state DEAD */
#define DETACH_MOVE	0x08UL	/* it moves to another context: state kept */
/* Unschedule @event and take it out of its context (ctx->mutex held). */
void perf_remove_from_context(struct perf_event *event, unsigned long flags);
/*
 * exec: enable every enable_on_exec event of current's context @ctx in one
 * pass, one reschedule per PMU (ctx->mutex held).
 */
void perf_ctx_enable_on_exec(struct perf_event_context *ctx);
/* ctx->mutex held variants of perf_event_enable/disable. */
void _perf_event_enable(struct perf_event *event);
void _perf_event_disable(struct perf_event *event);
/*
 * Bring @event's count up to date (IPI to its CPU when active elsewhere);
 * with @group the whole group of which @event is the leader.
 */
int perf_event_read(struct perf_event *event, bool group);
/* Count of @event and all its children, with times; ctx->mutex held. */
u64 perf_event_read_value_locked(struct perf_event *event, u64 *enabled, u64 *running);
bool perf_event_read_value_here(struct perf_event *event, u64 *value, u64 *enabled,
				u64 *running);
int perf_group_read_record_here(struct perf_event *event, u64 *rec, int max_words);
/*
 * The values of @leader's group, leader first, each summed over its
 * inherited children, with the leader's times; every instance of the group
 * read at one instant (one cross-CPU call each).  ctx->mutex held.
 */
void perf_group_read_values(struct perf_event *leader, u64 *values, u64 *enabled,
			    u64 *running);
/*
 * The running cgroup of this CPU changes (IRQs off, cpuctx and its task
 * context locked): reschedule the PMUs that have cgroup groups, around
 * perf_cgroup_sync() at one instant.
 */
void perf_cgroup_resched(struct perf_cpu_context *cpuctx);
/* Schedule a whole context in or out on this CPU (cpuctx locked). */
void perf_ctx_sched_in(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx);
void perf_ctx_sched_out(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx);
/* Rotation (rotation.c): move the first flexible group of each list to its tail. */
/* End the turns that are over (@force: every running one) on this CPU. */
void perf_cpmu_rotate(struct perf_cpu_pmu *cp, bool force);
/* rotation.c: the multiplexing policy (IRQs off, on the part's CPU, locked) */
void perf_mux_rotate_part(struct perf_ctx_pmu *cpmu, struct perf_cpu_pmu *cp);
void perf_mux_start_turn(struct perf_ctx_pmu *cpmu, struct perf_cpu_pmu *cp);
void perf_mux_pick_first_part(struct perf_cpu_pmu *cp);

/* Whether @cpmu's groups have had their turn (its context's clock is current). */
static inline bool perf_mux_turn_over(struct perf_ctx_pmu *cpmu)
{
	return cpmu->rotate_necessary && cpmu->mux_turn_end &&
	       cpmu->ctx->clock.time >= cpmu->mux_turn_end;
}

/* @fn for each group on a PMU of @ctx (its CPU, IRQs off, ctx locked). */
typedef void (*perf_group_fn)(struct perf_event *leader, void *data);
void perf_ctx_walk_active_groups(struct perf_event_context *ctx, perf_group_fn fn,
				 void *data);
/* A PMU on this CPU wants its sched_task callback (perf_sched_cb_inc()). */
bool perf_sched_cb_active(void);

static inline u64 perf_clock(void)
{
	return local_clock();
}

/* ---- cgroup.c: cgroup events ----------------------------------------- */
#ifdef CONFIG_CGROUP_PERF
/* Attach @event to the cgroup of directory fd @cgroup_fd; drop it again. */
int perf_cgroup_connect(struct perf_event *event, int cgroup_fd,
			struct perf_event *group_leader);
void perf_cgroup_disconnect(struct perf_event *event);
/* The running task's cgroup may have changed: reschedule (IRQs off). */
void perf_cgroup_switch(void);
/* Set cpuctx->cgrp and its clocks from what runs now (cpuctx locked). */
void perf_cgroup_sync(struct perf_cpu_context *cpuctx, u64 now);
/* A cgroup event joins (+1) or leaves (-1) CPU context @ctx (locked). */
void perf_cgroup_count(struct perf_cpu_context *cpuctx, struct perf_event_context *ctx,
		       int delta);
/* Bring the running cgroups' clocks of this CPU to @now (cpuctx locked). */
void perf_cgroup_update_time(struct perf_cpu_context *cpuctx, u64 now);
bool perf_cgroup_event_runs(struct perf_event *event);
u64 perf_cgroup_event_time(struct perf_event *event);
u64 perf_cgroup_event_time_peek(struct perf_event *event, u64 now);

static inline bool perf_cpu_has_cgroup_events(struct perf_cpu_context *cpuctx)
{
	return READ_ONCE(cpuctx->ctx.nr_cgroups);
}
#else
static inline int perf_cgroup_connect(struct perf_event *event, int cgroup_fd,
				      struct perf_event *group_leader)
{
	return -EINVAL;
}

static inline void perf_cgroup_disconnect(struct perf_event *event) { }
static inline void perf_cgroup_switch(void) { }
static inline void perf_cgroup_sync(struct perf_cpu_context *cpuctx, u64 now) { }
static inline void perf_cgroup_count(struct perf_cpu_context *cpuctx,
				     struct perf_event_context *ctx, int delta) { }
static inline void perf_cgroup_update_time(struct perf_cpu_context *cpuctx, u64 now) { }
static inline bool perf_cgroup_event_runs(struct perf_event *event) { return true; }
static inline u64 perf_cgroup_event_time(struct perf_event *event) { return 0; }
static inline u64 perf_cgroup_event_time_peek(struct perf_event *event, u64 now) { return 0; }
static inline bool perf_cpu_has_cgroup_events(struct perf_cpu_context *cpuctx) { return false; }
#endif

static inline bool perf_event_is_cgroup(struct perf_event *event)
{
#ifdef CONFIG_CGROUP_PERF
	return event->cgrp;
#else
	return false;
#endif
}

/*
 * May @leader's group go on the PMU on this CPU now (enabled and not on,
 * of this CPU, of the cgroup running here, of a PMU of this CPU)?  One
 * that may not waits without asking for rotation.  IRQs off.
 */
static inline bool perf_group_may_run_here(struct perf_event *leader)
{
	if (leader->state != PERF_EVENT_STATE_INACTIVE)
		return false;
	if (leader->cpu != -1 && leader->cpu != smp_processor_id())
		return false;
	if (perf_event_is_cgroup(leader) && !perf_cgroup_event_runs(leader))
		return false;
	return perf_group_pmus_match(leader);
}

/*
 * The time, on the clock @event accrues on, of the last update: its
 * cgroup's clock on its CPU for a cgroup event, else its context's clock.
 */
static __always_inline u64 perf_event_clock_time(struct perf_event *event)
{
	if (perf_event_is_cgroup(event))
		return perf_cgroup_event_time(event);
	return event->ctx->clock.time;
}

/* The same at @now, without updating (lock-free readers). */
static inline u64 perf_event_clock_peek(struct perf_event *event, u64 now)
{
	if (perf_event_is_cgroup(event))
		return perf_cgroup_event_time_peek(event, now);
	return perf_time_clock_peek(&event->ctx->clock, now);
}

static inline u64 perf_event_count(struct perf_event *event)
{
	return local64_read(&event->count) + atomic64_read(&event->child_count);
}

static inline bool perf_event_is_leader(struct perf_event *event)
{
	return event->group_leader == event;
}

/* Does exclude_user/exclude_kernel filter out an event raised at @regs? */
static __always_inline bool perf_event_excluded_at(struct perf_event *event,
						   struct pt_regs *regs)
{
	if (!regs)
		return false;
	if (event->attr.exclude_user && user_mode(regs))
		return true;
	if (event->attr.exclude_kernel && !user_mode(regs))
		return true;
	return false;
}

/* ---- rotation.c ------------------------------------------------------ */
/* Start the multiplexing timer of @cp if it is not running (IRQs off). */
void perf_cpu_pmu_start_timer(struct perf_cpu_pmu *cp);
void perf_cpu_pmu_init(struct perf_cpu_pmu *cp, struct pmu *pmu, int cpu);
void perf_cpu_pmu_set_interval(struct pmu *pmu, int ms);

/* ---- pmu_registry.c --------------------------------------------------- */
extern struct srcu_struct pmus_srcu;
extern struct mutex pmus_lock;
extern struct list_head pmus;		/* all PMUs, RCU/SRCU list */
/* Find the PMU for @event->attr and initialise the event with it. */
int perf_init_event(struct perf_event *event);
/* The registered PMU whose task_ctx_nr is perf_hw_context, or NULL. */
struct pmu *perf_hw_context_pmu(void);
int perf_pmu_sysfs_init(void);
/*
 * perf_event_init() (boot) lives in pmu_registry.c: it calls
 * perf_event_cache_init(), perf_contexts_init(), perf_sw_pmus_init(),
 * perf_tp_pmus_init(), perf_output_init() and perf_hotplug_init().
 */

/* ---- event_alloc.c ----------------------------------------------------- */
/* The slab cache events come from (boot). */
void perf_event_cache_init(void);
/* Copy and check perf_event_attr from user space (the errno rules of 6.1). */
int perf_copy_attr(struct perf_event_attr __user *uattr, struct perf_event_attr *attr);
/*
 * Allocate and initialise an event (not yet in a context).  @task is the
 * target task or NULL, @cpu the CPU or -1, @group_leader NULL for a
 * leader, @parent_event set for an inherited child.
 */
struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent_event,
				    perf_overflow_handler_t overflow_handler,
				    void *context, int cgroup_fd);
/* Free an event that was never installed, or after it left its context. */
void perf_free_event(struct perf_event *event);
void perf_event_ref(struct perf_event *event);
/* Drop a reference; the last one frees (ctx->mutex not held). */
void perf_event_put(struct perf_event *event);
/* Release an event owned by a file or by the kernel: remove, free children. */
int perf_event_release(struct perf_event *event);
/* The id user space sees: an inherited child reports its parent's. */
static inline u64 perf_event_user_id(struct perf_event *event)
{
	return event->parent ? event->parent->id : event->id;
}

/* Append @event's [id] and [lost] of a read() record at @p; the next slot. */
static inline u64 *perf_put_id_lost(u64 *p, struct perf_event *event, u64 read_format)
{
	if (read_format & PERF_FORMAT_ID)
		*p++ = perf_event_user_id(event);
	if (read_format & PERF_FORMAT_LOST)
		*p++ = atomic64_read(&event->lost_samples);
	return p;
}

/* Bytes a read() with @read_format returns for a group of @nr members. */
static inline size_t perf_read_size(u64 read_format, int nr)
{
	size_t per_value = sizeof(u64);
	size_t fixed = 0;

	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fixed += sizeof(u64);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fixed += sizeof(u64);
	if (read_format & PERF_FORMAT_ID)
		per_value += sizeof(u64);
	if (read_format & PERF_FORMAT_LOST)
		per_value += sizeof(u64);

	if (!(read_format & PERF_FORMAT_GROUP))
		return fixed + per_value;
	/* u64 nr, then one value block per member */
	return fixed + sizeof(u64) + nr * per_value;
}

/* Size of a read() for @event's read_format and group; header/id sizes. */
void perf_event__header_size(struct perf_event *event);
void perf_event__id_header_size(struct perf_event *event);
bool perf_event_validate_size(struct perf_event *event);
/* Accounting of events that need the scheduler hooks (perf_sched_events). */
void perf_sched_events_inc(void);
void perf_sched_events_dec(void);

/* ---- syscall.c: perf_event_open(2) and the event file ----------------- */
extern const struct file_operations perf_fops;
/* The event of an event file, or NULL if @file is not one. */
static inline struct perf_event *perf_file_event(struct file *file)
{
	extern const struct file_operations perf_fops;

	return file && file->f_op == &perf_fops ? file->private_data : NULL;
}

/* Read values in @event's read_format into @buf (ctx->mutex held). */
ssize_t perf_read_values(struct perf_event *event, char __user *buf, size_t count);
/* Wake pollers and fasync of @event (may be called with IRQs off). */
void perf_event_wakeup(struct perf_event *event);

/* ---- ioctl.c ------------------------------------------------------------ */
long perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
long perf_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* ---- ring_buffer.c: the mmap ring buffer --------------------------------- */
/*
 * The user page and 2^n data pages (or none) that events write records
 * into.  See ring_buffer.c for the lifetime and locking rules.
 */
struct perf_buffer {
	refcount_t			refcount;	/* events attached + VMAs */
	struct rcu_head			rcu_head;
	int				nr_pages;	/* data pages: 0 or 2^n */
	bool				overwrite;	/* read-only mapping: no data_tail */
	bool				paused;		/* PAUSE_OUTPUT */
	unsigned long			watermark;	/* bytes between wakeups */
	atomic_t			poll;		/* EPOLL* bits for the next poll() */

	/* the writers' side (output.c): positions are free-running bytes */
	local_t				head;		/* reserved up to here */
	local_t				nest;		/* writers in progress, nested */
	local_t				wakeup_seq;	/* bumped when readers are due a wakeup */
	local_t				wakeup_head;	/* head at the last watermark wakeup */
	local_t				events;		/* samples toward attr.wakeup_events */
	local_t				lost;		/* records dropped, not yet reported */

	spinlock_t			event_lock;	/* writers of event_list */
	struct list_head		event_list;	/* events writing here (rb_entry) */

	atomic_t			mmap_count;	/* VMAs mapping the buffer */
	unsigned long			mmap_pinned;	/* of its pages, in mm->pinned_vm */
	struct user_struct		*mmap_user;	/* the rest: user->locked_vm */

	/*
	 * The AUX area (aux_area.c, aux_output.c), mapped past the data
	 * pages; aux_nr_pages is 0 while there is none.  aux_mutex
	 * serialises its mapping and unmapping; aux_writer is the event that
	 * holds the one open AUX handle (set by cmpxchg), and only it touches
	 * the aux_head/aux_wakeup fields.
	 */
	struct mutex			aux_mutex;
	atomic_t			aux_mmap_count;	/* VMAs mapping the AUX area */
	refcount_t			aux_refcount;	/* the mappings + the open handle */
	struct perf_event		*aux_writer;
	int				aux_nr_pages;	/* a power of two */
	bool				aux_overwrite;	/* read-only AUX mapping */
	bool				aux_in_sampling; /* PERF_SAMPLE_AUX copy under way */
	unsigned long			aux_pgoff;	/* its page offset in the mapping */
	unsigned long			aux_watermark;	/* bytes between wakeups */
	unsigned long			aux_head;	/* free-running byte position */
	unsigned long			aux_wakeup;	/* aux_head at the last wakeup */
	void				**aux_pages;	/* page addresses */
	void				*aux_priv;	/* pmu->setup_aux()'s */
	struct pmu			*aux_pmu;	/* ... which PMU's: its only writer */
	void				(*aux_free)(void *priv); /* pmu->free_aux */
	unsigned long			aux_mmap_pinned;
	struct user_struct		*aux_mmap_user;

	struct perf_event_mmap_page	*user_page;
	/*
	 * CONFIG_PERF_USE_VMALLOC (architectures whose caches alias, where
	 * the kernel must write through an address that agrees with the
	 * user's): the user page and the data pages are one vmalloc_user()
	 * area, written through it; else separate pages, written through the
	 * linear map.  pages[] holds them either way (the fault handler).
	 */
	void				*vmalloc_area;
	struct page			*pages[];	/* user page, then data pages */
};

static inline unsigned long perf_rb_data_size(struct perf_buffer *rb)
{
	return (unsigned long)rb->nr_pages << PAGE_SHIFT;
}

/* The kernel address of page @i of @rb (0: the user page; 1..: data). */
static inline void *perf_rb_page_addr(struct perf_buffer *rb, unsigned long i)
{
	if (IS_ENABLED(CONFIG_PERF_USE_VMALLOC))
		return rb->vmalloc_area + (i << PAGE_SHIFT);
	return page_address(rb->pages[i]);
}

int perf_mmap(struct file *file, struct vm_area_struct *vma);
/* Events with a mapping of their own (ring_buffer.c). */
extern atomic_t perf_nr_mapped_events;
__poll_t perf_poll(struct file *file, poll_table *wait);
/*
 * Redirect @event's output to @output's buffer (NULL: detach); the checks
 * of SET_OUTPUT and PERF_FLAG_FD_OUTPUT.
 */
int perf_event_set_output(struct perf_event *event, struct perf_event *output);
/* PERF_EVENT_IOC_PAUSE_OUTPUT: EINVAL without a buffer with data pages. */
int perf_event_pause_output(struct perf_event *event, bool pause);
/* A freed event lets go of its buffer. */
void perf_event_detach_rb(struct perf_event *event);

/* ---- inherit.c --------------------------------------------------------- */
/*
 * Take @event out of its context for good (exit, remove_on_exec; ctx->mutex
 * held): an inherited child goes on @fold, with a reference, for
 * perf_event_fold_child() once the mutex is dropped; any other event stays
 * readable in state EXIT and its pollers are woken.  @flags: DETACH_GROUP
 * to break its group (remove_on_exec); exit uses perf_ctx_remove_all_exit().
 */
void perf_event_detach_exit(struct perf_event *event, struct list_head *fold,
			    unsigned long flags);
/*
 * Task exit: take every event out of @ctx at once, in state EXIT (ctx->mutex
 * and ctx->lock held; no task runs it any more: TASK_TOMBSTONE, scheduled
 * out).  Inherited children leave their groups (they fold into their
 * parents); the task's own groups stay whole, to be read together.  The
 * events go on @out by migrate_entry, the parts they left empty and
 * unlinked on @emptied by node, for the caller to kfree() once unlocked.
 */
void perf_ctx_remove_all_exit(struct perf_event_context *ctx, struct list_head *out,
			      struct list_head *emptied);
/*
 * Fold a child's count and times into its parent; child leaves its ctx
 * and its parent's child_list (unless the parent's release unlinked it
 * first).  No ctx->mutex or child_mutex held; drops the caller's
 * reference on @child.
 */
void perf_event_fold_child(struct perf_event *child);

/* ---- sw_events.c ------------------------------------------------------- */
int perf_swevent_init_cpu(unsigned int cpu);
void perf_swevent_exit_cpu(unsigned int cpu);
void perf_sw_pmus_init(void);
/* One of the core's software PMUs (software, cpu_clock, task_clock)? */
bool perf_pmu_is_core_sw(struct pmu *pmu);
/* Count +@nr on @event and report any overflow (IRQs off). */
void perf_swevent_event(struct perf_event *event, u64 nr, struct perf_sample_data *data,
			struct pt_regs *regs);

/* ---- addr_filters.c: address range filters ---------------------------- */
/* PERF_EVENT_IOC_SET_FILTER of an event whose PMU has address filters. */
int perf_addr_filters_set(struct perf_event *event, char *str);
/*
 * The ranges of an event of such a PMU: allocated by perf_event_alloc(),
 * copied at fork (@child starts with those of @from), freed with the
 * event.  Inline tests: most events have none.
 */
int __perf_addr_filters_init(struct perf_event *event);
void __perf_addr_filters_inherit(struct perf_event *child, struct perf_event *from);
void __perf_addr_filters_free(struct perf_event *event);

static inline int perf_addr_filters_init(struct perf_event *event)
{
	return event->pmu->nr_addr_filters ? __perf_addr_filters_init(event) : 0;
}

static inline void perf_addr_filters_inherit(struct perf_event *child, struct perf_event *from)
{
	if (child->addr_filter_ranges)
		__perf_addr_filters_inherit(child, from);
}

static inline void perf_addr_filters_free(struct perf_event *event)
{
	if (event->addr_filter_ranges)
		__perf_addr_filters_free(event);
}

/* A new mapping of current (mmap_lock held). */
void perf_addr_filters_mmap(struct vm_area_struct *vma);
/* Current execs: file ranges of @ctx's events are gone (ctx->mutex held). */
void perf_addr_filters_exec(struct perf_event_context *ctx);

/* ---- tp_events.c -------------------------------------------------------- */
void perf_tp_pmus_init(void);
int perf_event_set_filter(struct perf_event *event, void __user *arg);
void perf_event_free_filter(struct perf_event *event);
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog, u64 bpf_cookie);
void perf_event_free_bpf_prog(struct perf_event *event);

/* ---- overflow.c: overflows and throttling ------------------------------ */
/* hw.interrupts of a throttled event: stopped until the next tick. */
#define PERF_THROTTLED	(~0ULL)
/*
 * The tick of this CPU: unthrottle what it throttled, re-estimate the
 * periods of frequency-mode events (IRQs off).
 */
void perf_overflow_tick(void);
/* perf_event_overflow(), but @throttle false does not count the interrupt. */
int __perf_event_overflow(struct perf_event *event, bool throttle,
			  struct perf_sample_data *data, struct pt_regs *regs);
/*
 * A throttled event may overflow again (PERF_RECORD_UNTHROTTLE): the tick,
 * or its sched-in when it was throttled while it ran before.
 */
void perf_event_clear_throttle(struct perf_event *event);
/* From the event's irq_work: send the SIGTRAP an overflow queued. */
void perf_deliver_sigtrap(struct perf_event *event);
/* event_sched_out() with a SIGTRAP queued: move it to task work. */
void perf_sigtrap_sched_out(struct perf_event *event, bool disabling);
/* The task work of a moved SIGTRAP (event->pending_task). */
void perf_pending_task(struct callback_head *head);

/* ---- output.c: writing records ---------------------------------------------- */
/* Copy user memory (from any context); returns what could not be copied. */
unsigned int perf_output_copy_user(struct perf_output_handle *handle,
				   const void __user *buf, unsigned int len);
/* Copy @len bytes through a raw fragment's @copy callback. */
unsigned int perf_output_copy_custom(struct perf_output_handle *handle, perf_copy_f copy,
				     const void *src, unsigned int len);
/*
 * A whole record of @event: @head (its size set here), @tail_len bytes of
 * @tail zero-padded to @tail_room, the sample_id trailer.
 */
void perf_output_record(struct perf_event *event, struct perf_event_header *head,
			size_t head_len, const void *tail, size_t tail_len, size_t tail_room);
/*
 * perf_output_put() of a u64-sized field, which is most of every record:
 * stored in place, without a call, when it ends inside the current page
 * (it may start unaligned after a raw payload: both arches store that).
 */
static __always_inline void __perf_output_put_u64(struct perf_output_handle *handle,
						  const void *field)
{
	if (likely(handle->size >= sizeof(u64) &&
		   offset_in_page(handle->addr) < PAGE_SIZE - sizeof(u64))) {
		put_unaligned(get_unaligned((const u64 *)field), (u64 *)handle->addr);
		handle->addr += sizeof(u64);
		handle->size -= sizeof(u64);
		return;
	}
	perf_output_copy(handle, field, sizeof(u64));
}

#define perf_output_put_u64(handle, x) do {				\
	BUILD_BUG_ON(sizeof(x) != sizeof(u64));				\
	__perf_output_put_u64((handle), &(x));				\
} while (0)

/* A sample was written: count it toward attr.wakeup_events. */
void perf_output_count_wakeup_event(struct perf_output_handle *handle);
/* Wake the pollers of every event writing into @event's buffer. */
void perf_rb_wakeup(struct perf_event *event);
/* Readers of @handle's buffer are due a wakeup (from the event's irq_work). */
void perf_output_wakeup(struct perf_output_handle *handle);
/* The event whose buffer @event writes into: an inherited child's parent. */
static inline struct perf_event *perf_output_owner(struct perf_event *event)
{
	return event->parent ? event->parent : event;
}

/* ---- aux_area.c: the AUX area of a buffer ------------------------------------- */
static inline unsigned long perf_aux_size(struct perf_buffer *rb)
{
	return (unsigned long)rb->aux_nr_pages << PAGE_SHIFT;
}

/*
 * mmap() of the AUX area (vm_pgoff != 0, event->mmap_mutex held): the
 * buffer with a reference for the VMA, or an ERR_PTR.
 */
struct perf_buffer *perf_mmap_aux(struct perf_event *event, struct vm_area_struct *vma);
/* The last AUX mapping goes: stop its writer, uncharge, free the area. */
void perf_munmap_aux(struct perf_buffer *rb, struct vm_area_struct *vma);
/* The AUX page at mapping offset @pgoff, or NULL. */
struct page *perf_aux_page(struct perf_buffer *rb, unsigned long pgoff);
/* Drop a reference to the AUX area; the last frees it. */
void perf_aux_put(struct perf_buffer *rb);
/* Charge @pages mapped pages to current's user: the pinned part, or -EPERM. */
long perf_mmap_charge(struct vm_area_struct *vma, unsigned long pages);
/* Buffer references for writers that outlive an RCU section (AUX handles). */
struct perf_buffer *perf_rb_get(struct perf_event *event);
void perf_rb_put(struct perf_buffer *rb);

/* ---- aux_output.c: AUX handles, records, links and samples -------------------- */
/* PERF_RECORD_ITRACE_START before an event of a PERF_PMU_CAP_ITRACE PMU runs. */
void perf_record_itrace_start(struct perf_event *event);
/* Open: link an aux_output / aux_sample_size event to its AUX group leader. */
int perf_aux_link(struct perf_event *event, struct perf_event *leader);
/* PERF_SAMPLE_AUX: bytes to snapshot into a sample whose other parts take @size. */
u32 perf_aux_sample_size(struct perf_event *event, u16 size);
void perf_aux_sample_output(struct perf_event *event, struct perf_output_handle *handle,
			    struct perf_sample_data *data);

/* ---- sample.c ----------------------------------------------------------------- */
/* PERF_RECORD_READ of an inherit_stat child leaving @task's context (exec). */
void perf_record_read(struct perf_event *event, struct task_struct *task);
/* @task's pid of @type in the pid namespace of the event's opener (-1: reaped). */
u32 perf_event_task_nr(struct perf_event *event, struct task_struct *task, enum pid_type type);

/* ---- records.c: side-band records ----------------------------------------------- */
/* attach_state: the event asked for side-band records (records.c counts it). */
#define PERF_ATTACH_SIDEBAND	0x4000
/* The side-band records an event may ask for (records.c). */
enum perf_sb_kind {
	PERF_SB_COMM,
	PERF_SB_MMAP,		/* any of mmap, mmap2, mmap_data */
	PERF_SB_BUILD_ID,
	PERF_SB_TASK,		/* FORK/EXIT: task, comm or any mmap */
	PERF_SB_NAMESPACES,
	PERF_SB_SWITCH,
	PERF_SB_CGROUP,
	PERF_SB_KSYMBOL,
	PERF_SB_BPF,
	PERF_SB_TEXT_POKE,
	PERF_SB_NR,
};

/* Events alive that asked for each kind: read on hot paths before any work. */
extern atomic_t perf_sb_count[PERF_SB_NR];

static inline bool perf_sb_wanted(enum perf_sb_kind kind)
{
	return atomic_read(&perf_sb_count[kind]);
}

/* Boot: the per-CPU lists of CPU-wide events that asked for records. */
void perf_output_init(void);
/* A new event that asks for records is counted (and listed if CPU-wide). */
void perf_sideband_attach(struct perf_event *event);
void perf_sideband_detach(struct perf_event *event);
/* current exits: PERF_RECORD_EXIT, while its events are still attached. */
void perf_record_exit(struct task_struct *task);
/* Context switch (IRQs off): @task goes out for @other, or comes in after it. */
void __perf_record_switch(struct task_struct *task, struct task_struct *other, bool in);

static inline void perf_record_switch(struct task_struct *task, struct task_struct *other,
				      bool in)
{
	if (perf_sb_wanted(PERF_SB_SWITCH))
		__perf_record_switch(task, other, in);
}

#ifdef CONFIG_CGROUP_PERF
/* A cgroup came online: PERF_RECORD_CGROUP. */
void perf_record_cgroup(struct cgroup *cgrp);
#endif

/* ---- hotplug.c ---------------------------------------------------------- */
void perf_hotplug_init(void);

/* ---- sysctl.c ----------------------------------------------------------- */
extern int sysctl_perf_event_paranoid;
extern int sysctl_perf_event_mlock;
extern int sysctl_perf_event_sample_rate;
extern int sysctl_perf_cpu_time_max_percent;
extern int perf_sample_period_ns;
/* Overflow interrupts one event may take per tick (throttling). */
extern int perf_max_samples_per_tick;

#endif /* _KERNEL_EVENTS_INTERNAL_H */
