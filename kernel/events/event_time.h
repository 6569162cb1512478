/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time accounting of perf events: the pure arithmetic, no locking of its own.
 *
 * A context keeps a clock that advances only while the context is active (a
 * task context while its task runs, a CPU context while it is scheduled in).
 * An event keeps its totals, time_enabled and time_running, and the context
 * time at which they were last brought up to date.  Between two updates an
 * event accrues enabled time while its state is INACTIVE or ACTIVE and
 * running time only while ACTIVE; OFF and ERROR (and every negative state)
 * accrue nothing.  The totals are brought up to date before each state
 * change, so the state in between is the one that applied.
 *
 * Locking: callers hold the owning context's lock (ctx->lock, IRQs off) for
 * every update.  perf_time_clock_peek() is the one lock-free reader, for NMI
 * and user-page paths: it reads @offset, written last by each update.
 *
 * Everything is static inline: these run on every context switch of a task
 * with events (the per-event update always inline: with -Os GCC would
 * otherwise make a call of its few instructions once it has many callers).
 * KUnit: event_time_test.c.
 */
#ifndef _KERNEL_EVENTS_EVENT_TIME_H
#define _KERNEL_EVENTS_EVENT_TIME_H

#include <linux/compiler.h>
#include <linux/perf_event.h>
#include <linux/types.h>

/*
 * The clock of one context and the totals of one event.  The new core's
 * include/linux/perf_event.h defines them (they live in its structures);
 * until it replaces upstream's, the KUnit tests get them from here.
 */
#ifndef PERF_TIME_TYPES_DEFINED
/* The clock of one context; times are perf_clock() nanoseconds. */
struct perf_time_clock {
	u64	time;		/* accumulated active time at @stamp */
	u64	stamp;		/* perf_clock() of the last update */
	u64	offset;		/* time - stamp: time at @now is now + offset */
	bool	active;
};

/* The totals of one event, in the time of its context's clock. */
struct perf_time_totals {
	u64	enabled;
	u64	running;
	u64	tstamp;		/* context time of the last update */
};
#endif

static inline void __perf_time_clock_set(struct perf_time_clock *c, u64 now)
{
	c->stamp = now;
	WRITE_ONCE(c->offset, c->time - now);
}

/*
 * Bring @c up to @now; nothing accrues while it is stopped.  perf_clock() of
 * another CPU may lag a little behind @stamp (a task context migrates): the
 * clock then stays put rather than run backwards.
 */
static inline void perf_time_clock_update(struct perf_time_clock *c, u64 now)
{
	if (now <= c->stamp)
		return;
	if (c->active)
		c->time += now - c->stamp;
	__perf_time_clock_set(c, now);
}

static inline void perf_time_clock_start(struct perf_time_clock *c, u64 now)
{
	if (c->active)
		return;
	__perf_time_clock_set(c, now);
	WRITE_ONCE(c->active, true);
}

static inline void perf_time_clock_stop(struct perf_time_clock *c, u64 now)
{
	if (!c->active)
		return;
	perf_time_clock_update(c, now);
	WRITE_ONCE(c->active, false);
}

/* Context time at @now without updating (lock-free; see the file comment). */
static inline u64 perf_time_clock_peek(const struct perf_time_clock *c, u64 now)
{
	if (!READ_ONCE(c->active))
		return READ_ONCE(c->time);
	return now + READ_ONCE(c->offset);
}

/* Enabled and running time an event in @state accrues over @delta. */
static __always_inline void perf_time_accrue(struct perf_time_totals *t, int state, u64 delta)
{
	if (state >= PERF_EVENT_STATE_INACTIVE)
		t->enabled += delta;
	if (state >= PERF_EVENT_STATE_ACTIVE)
		t->running += delta;
}

/*
 * Bring @t up to context time @ctx_time for an event that has been in
 * @state since the last update.  A context time behind @tstamp (an event
 * moved to a younger context) accrues nothing and restamps.
 */
static __always_inline void perf_time_update(struct perf_time_totals *t, int state, u64 ctx_time)
{
	if (ctx_time > t->tstamp)
		perf_time_accrue(t, state, ctx_time - t->tstamp);
	t->tstamp = ctx_time;
}

/* What perf_time_update() would give, without writing @t. */
static inline void perf_time_read(const struct perf_time_totals *t, int state, u64 ctx_time,
				  u64 *enabled, u64 *running)
{
	struct perf_time_totals tmp = *t;

	perf_time_update(&tmp, state, ctx_time);
	*enabled = tmp.enabled;
	*running = tmp.running;
}

/* Restart the accounting of an event joining a context at @ctx_time. */
static inline void perf_time_reset(struct perf_time_totals *t, u64 ctx_time)
{
	t->enabled = 0;
	t->running = 0;
	t->tstamp = ctx_time;
}

/*
 * An event joining a context at @ctx_time keeps its totals: a new event's
 * are zero, an event moved from another context (perf_pmu_migrate_context())
 * carries on from what it had there.
 */
static inline void perf_time_rebase(struct perf_time_totals *t, u64 ctx_time)
{
	t->tstamp = ctx_time;
}

#endif /* _KERNEL_EVENTS_EVENT_TIME_H */
