// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the scheduling decisions of group_sched.c and rotation.c,
 * through a fake PMU with two counters and in-kernel CPU counters: pinned
 * groups that do not fit go to ERROR, flexible groups that do not fit wait
 * and are rotated in, a group goes on whole or not at all, an exclusive
 * group runs alone, disable/enable move events between OFF and the
 * scheduled states, perf_pmu_migrate_context() moves groups whole with
 * their times, and overflow interrupts are throttled per tick, while
 * those of a counting event are no samples at all; a disable left for an
 * irq_work that runs on a CPU the event has left follows the event; the
 * multiplexing policy: first fit, and the groups on the PMU longest making
 * room for the first in line at the end of a turn (singles slide through
 * the counters, a big group and small ones take turns, an exclusive group
 * gets the whole PMU).
 *
 * Locking: none of its own; the fake PMU's per-CPU state is touched only
 * by the core's add/del/txn callbacks, on that CPU with IRQs off.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>

#include "internal.h"

#define FAKE_COUNTERS	2

struct fake_pmu_cpu {
	int	used;		/* counters taken by added events */
	int	txn_start;	/* used at start_txn, or -1 */
	int	starts;		/* start() calls */
};

static DEFINE_PER_CPU(struct fake_pmu_cpu, fake_cpu);

static int fake_event_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	return 0;
}

static int fake_add(struct perf_event *event, int flags)
{
	struct fake_pmu_cpu *fc = this_cpu_ptr(&fake_cpu);

	/* inside a transaction the check is deferred to commit */
	if (fc->txn_start < 0 && fc->used >= FAKE_COUNTERS)
		return -EAGAIN;
	fc->used++;
	return 0;
}

static void fake_del(struct perf_event *event, int flags)
{
	this_cpu_ptr(&fake_cpu)->used--;
}

static void fake_start(struct perf_event *event, int flags)
{
	this_cpu_ptr(&fake_cpu)->starts++;
}

static void fake_stop(struct perf_event *event, int flags) { }
static void fake_read(struct perf_event *event) { }

static void fake_start_txn(struct pmu *pmu, unsigned int flags)
{
	this_cpu_ptr(&fake_cpu)->txn_start = this_cpu_ptr(&fake_cpu)->used;
}

static int fake_commit_txn(struct pmu *pmu)
{
	struct fake_pmu_cpu *fc = this_cpu_ptr(&fake_cpu);

	if (fc->used > FAKE_COUNTERS)
		return -EAGAIN;
	fc->txn_start = -1;
	return 0;
}

static void fake_cancel_txn(struct pmu *pmu)
{
	/* the core takes the added members off again with del() */
	this_cpu_ptr(&fake_cpu)->txn_start = -1;
}

static struct pmu fake_pmu = {
	.task_ctx_nr	= perf_invalid_context,
	.event_init	= fake_event_init,
	.add		= fake_add,
	.del		= fake_del,
	.start		= fake_start,
	.stop		= fake_stop,
	.read		= fake_read,
	.start_txn	= fake_start_txn,
	.commit_txn	= fake_commit_txn,
	.cancel_txn	= fake_cancel_txn,
};

struct sched_test_ctx {
	int			cpu;
	int			nr;
	struct perf_event	*events[8];
};

static int sched_test_init(struct kunit *test)
{
	struct sched_test_ctx *st;
	int cpu, err;

	for_each_possible_cpu(cpu)
		per_cpu_ptr(&fake_cpu, cpu)->txn_start = -1;
	err = perf_pmu_register(&fake_pmu, "kunit_fake", -1);
	KUNIT_ASSERT_EQ(test, err, 0);
	/* no rotation unless a test asks for it: states stay put */
	perf_cpu_pmu_set_interval(&fake_pmu, 600000);
	st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st);
	st->cpu = cpumask_first(cpu_online_mask);
	test->priv = st;
	return 0;
}

static void sched_test_exit(struct kunit *test)
{
	struct sched_test_ctx *st = test->priv;

	while (st->nr)
		perf_event_release_kernel(st->events[--st->nr]);
	perf_pmu_unregister(&fake_pmu);
}

/* A leader (@leader NULL) or a sibling, pinned or flexible, enabled. */
static struct perf_event *open_event(struct kunit *test, bool pinned, bool exclusive,
				     struct perf_event *leader)
{
	struct sched_test_ctx *st = test->priv;
	struct perf_event_attr attr = {
		.type		= fake_pmu.type,
		.size		= sizeof(attr),
		.pinned		= pinned,
		.exclusive	= exclusive,
	};
	struct perf_event *event;

	if (leader) {
		struct perf_event_context *ctx = leader->ctx;

		event = perf_event_alloc(&attr, st->cpu, NULL, leader, NULL, NULL, NULL, -1);
		KUNIT_ASSERT_FALSE(test, IS_ERR(event));
		mutex_lock(&ctx->mutex);
		perf_ctx_get(ctx);
		KUNIT_ASSERT_EQ(test, perf_install_in_context(ctx, event, st->cpu), 0);
		mutex_unlock(&ctx->mutex);
	} else {
		event = perf_event_create_kernel_counter(&attr, st->cpu, NULL, NULL, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	}
	st->events[st->nr++] = event;
	return event;
}

static void test_pinned_overflow_goes_to_error(struct kunit *test)
{
	struct perf_event *a = open_event(test, true, false, NULL);
	struct perf_event *b = open_event(test, true, false, NULL);
	struct perf_event *c = open_event(test, true, false, NULL);

	KUNIT_EXPECT_EQ(test, a->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, b->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, c->state, PERF_EVENT_STATE_ERROR);

	/* a freed counter does not bring an ERROR group back by itself */
	perf_event_disable(a);
	KUNIT_EXPECT_EQ(test, a->state, PERF_EVENT_STATE_OFF);
	KUNIT_EXPECT_EQ(test, c->state, PERF_EVENT_STATE_ERROR);
	/* re-enabling it does */
	perf_event_enable(c);
	KUNIT_EXPECT_EQ(test, c->state, PERF_EVENT_STATE_ACTIVE);
}

static void test_pinned_before_flexible(struct kunit *test)
{
	struct perf_event *f1 = open_event(test, false, false, NULL);
	struct perf_event *f2 = open_event(test, false, false, NULL);
	struct perf_event *p;

	KUNIT_EXPECT_EQ(test, f1->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, f2->state, PERF_EVENT_STATE_ACTIVE);
	/* a pinned group arriving later displaces a flexible one */
	p = open_event(test, true, false, NULL);
	KUNIT_EXPECT_EQ(test, p->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, f1->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, f2->state, PERF_EVENT_STATE_INACTIVE);
}

static void test_group_goes_on_whole(struct kunit *test)
{
	struct perf_event *lead = open_event(test, false, false, NULL);
	struct perf_event *s1, *s2;

	s1 = open_event(test, false, false, lead);
	KUNIT_EXPECT_EQ(test, lead->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, s1->state, PERF_EVENT_STATE_ACTIVE);
	/* three members on two counters: none runs */
	s2 = open_event(test, false, false, lead);
	KUNIT_EXPECT_EQ(test, lead->state, PERF_EVENT_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, s1->state, PERF_EVENT_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, s2->state, PERF_EVENT_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, per_cpu_ptr(&fake_cpu, lead->cpu)->used, 0);
}

static void test_flexible_groups_rotate(struct kunit *test)
{
	struct perf_event *ev[3];
	u64 enabled, running;
	int i;

	perf_cpu_pmu_set_interval(&fake_pmu, 4);
	for (i = 0; i < 3; i++)
		ev[i] = open_event(test, false, false, NULL);
	/* several multiplexing intervals */
	msleep(100);
	for (i = 0; i < 3; i++) {
		perf_event_read_value(ev[i], &enabled, &running);
		KUNIT_EXPECT_GT(test, running, 0ULL);
		KUNIT_EXPECT_LT(test, running, enabled);
	}
}

static void test_exclusive_runs_alone(struct kunit *test)
{
	struct perf_event *x = open_event(test, false, true, NULL);
	struct perf_event *f = open_event(test, false, false, NULL);

	KUNIT_EXPECT_EQ(test, x->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, f->state, PERF_EVENT_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, per_cpu_ptr(&fake_cpu, x->cpu)->used, 1);
}

static void test_disable_enable(struct kunit *test)
{
	struct perf_event *e = open_event(test, false, false, NULL);
	u64 enabled, running, enabled2, running2;

	perf_event_disable(e);
	KUNIT_EXPECT_EQ(test, e->state, PERF_EVENT_STATE_OFF);
	perf_event_read_value(e, &enabled, &running);
	msleep(20);
	perf_event_read_value(e, &enabled2, &running2);
	/* no time accrues while off */
	KUNIT_EXPECT_EQ(test, enabled, enabled2);
	perf_event_enable(e);
	KUNIT_EXPECT_EQ(test, e->state, PERF_EVENT_STATE_ACTIVE);
	msleep(20);
	perf_event_read_value(e, &enabled2, &running2);
	KUNIT_EXPECT_GT(test, running2, running);
}

static void test_migrate_moves_groups_whole(struct kunit *test)
{
	struct sched_test_ctx *st = test->priv;
	int dst = cpumask_next(st->cpu, cpu_online_mask);
	struct perf_event *lead, *sib, *off, *waiting;
	u64 enabled, running, enabled2, running2, wait_enabled, wait_running;
	u64 slept;

	if (dst >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	lead = open_event(test, false, false, NULL);
	sib = open_event(test, false, false, lead);
	off = open_event(test, false, false, NULL);
	perf_event_disable(off);
	/* no counter left for it: it waits, accruing enabled time only */
	waiting = open_event(test, false, false, NULL);
	KUNIT_EXPECT_EQ(test, waiting->state, PERF_EVENT_STATE_INACTIVE);
	/*
	 * Context time is perf_clock(), which under TCG can advance less than
	 * the jiffies msleep() waits for (18.8 ms of 20 once): measure it.
	 */
	slept = local_clock();
	msleep(20);
	slept = local_clock() - slept;
	perf_event_read_value(lead, &enabled, &running);
	KUNIT_EXPECT_GT(test, running, 0ULL);
	perf_event_read_value(waiting, &wait_enabled, &wait_running);
	/* at least the time slept, less a tenth for clocks of two CPUs */
	KUNIT_EXPECT_GE(test, wait_enabled, slept - slept / 10);

	perf_pmu_migrate_context(&fake_pmu, st->cpu, dst);
	/* the group runs on the other CPU, whole, and has kept its times */
	KUNIT_EXPECT_EQ(test, lead->cpu, dst);
	KUNIT_EXPECT_PTR_EQ(test, lead->ctx, &per_cpu_ptr(&perf_cpu_ctx, dst)->ctx);
	KUNIT_EXPECT_PTR_EQ(test, sib->group_leader, lead);
	KUNIT_EXPECT_EQ(test, lead->nr_siblings, 1);
	KUNIT_EXPECT_EQ(test, lead->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, sib->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(lead->oncpu), dst);
	KUNIT_EXPECT_EQ(test, per_cpu_ptr(&fake_cpu, st->cpu)->used, 0);
	KUNIT_EXPECT_EQ(test, per_cpu_ptr(&fake_cpu, dst)->used, 2);
	perf_event_read_value(lead, &enabled2, &running2);
	KUNIT_EXPECT_GE(test, enabled2, enabled);
	KUNIT_EXPECT_GE(test, running2, running);
	/* a disabled event moves and stays disabled */
	KUNIT_EXPECT_EQ(test, off->cpu, dst);
	KUNIT_EXPECT_EQ(test, off->state, PERF_EVENT_STATE_OFF);
	/*
	 * A waiting one keeps the times it accrued before the move.  (It may
	 * run for a moment while the groups ahead of it leave, and for how
	 * long depends on the host: no bound on its running time here.)
	 */
	perf_event_read_value(waiting, &enabled2, &running2);
	KUNIT_EXPECT_GE(test, enabled2, wait_enabled);
	KUNIT_EXPECT_GE(test, running2, wait_running);
}

struct throttle_args {
	struct perf_event	*event;
	int			overflows;	/* until perf_event_overflow() said stop */
	u64			interrupts;	/* hw.interrupts then */
	int			starts;		/* pmu->start() calls by the tick */
	u64			after;		/* hw.interrupts after the tick */
};

/* On the event's CPU, IRQs off: no tick between the overflows. */
static void throttle_on_cpu(void *info)
{
	struct throttle_args *ta = info;
	struct perf_sample_data data;
	int starts;

	perf_sample_data_init(&data, 0, ta->event->hw.last_period);
	while (ta->overflows < 100000) {
		ta->overflows++;
		if (perf_event_overflow(ta->event, &data, NULL))
			break;
	}
	ta->interrupts = ta->event->hw.interrupts;
	starts = this_cpu_read(fake_cpu.starts);
	perf_overflow_tick();
	ta->starts = this_cpu_read(fake_cpu.starts) - starts;
	ta->after = ta->event->hw.interrupts;
}

static void count_overflow(struct perf_event *event, struct perf_sample_data *data,
			   struct pt_regs *regs)
{
	(*(int *)event->overflow_handler_context)++;
}

/*
 * An in-kernel sampling event (KVM's guest PMU makes them) takes at most
 * perf_max_samples_per_tick overflow interrupts per tick: the one that
 * reaches it is told to stop, and the next tick starts the event again.
 */
static void test_overflows_are_throttled_per_tick(struct kunit *test)
{
	struct sched_test_ctx *st = test->priv;
	struct perf_event_attr attr = {
		.type		= fake_pmu.type,
		.size		= sizeof(attr),
		.sample_period	= 1000,
	};
	struct throttle_args ta = { };
	int handled = 0;

	ta.event = perf_event_create_kernel_counter(&attr, st->cpu, NULL, count_overflow,
						    &handled);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ta.event));
	st->events[st->nr++] = ta.event;
	KUNIT_ASSERT_EQ(test, ta.event->state, PERF_EVENT_STATE_ACTIVE);

	KUNIT_ASSERT_EQ(test, smp_call_function_single(st->cpu, throttle_on_cpu, &ta, 1), 0);
	KUNIT_EXPECT_EQ(test, ta.overflows, READ_ONCE(perf_max_samples_per_tick));
	KUNIT_EXPECT_EQ(test, handled, ta.overflows);
	KUNIT_EXPECT_EQ(test, ta.interrupts, PERF_THROTTLED);
	KUNIT_EXPECT_EQ(test, ta.starts, 1);
	KUNIT_EXPECT_EQ(test, ta.after, 0ULL);
}

struct counting_args {
	struct perf_event	*event;
	int			overflows;	/* perf_event_overflow() calls */
	int			stops;		/* of them, non-zero returns */
	u64			interrupts;	/* hw.interrupts before */
	u64			interrupts_after;
};

/* On the event's CPU, IRQs off: more interrupts than a tick allows. */
static void overflow_counting_on_cpu(void *info)
{
	struct counting_args *ca = info;
	struct perf_sample_data data;
	int limit = 2 * READ_ONCE(perf_max_samples_per_tick) + 1;

	perf_sample_data_init(&data, 0, 0);
	ca->interrupts = ca->event->hw.interrupts;
	for (ca->overflows = 0; ca->overflows < limit; ca->overflows++) {
		if (perf_event_overflow(ca->event, &data, NULL))
			ca->stops++;
	}
	ca->interrupts_after = ca->event->hw.interrupts;
}

/*
 * A counting event's counter may wrap and its PMU report an overflow (a
 * driver folding a short counter): as in 6.1 that is no sample.  The
 * overflow handler (the sample writer of a user event) is not called,
 * the interrupt is not counted toward throttling, no signal is queued,
 * and the driver is never told to stop.
 */
static void test_counting_event_overflow_is_no_sample(struct kunit *test)
{
	struct sched_test_ctx *st = test->priv;
	struct perf_event_attr attr = {
		.type		= fake_pmu.type,
		.size		= sizeof(attr),
	};
	struct counting_args ca = { };
	int handled = 0;

	ca.event = perf_event_create_kernel_counter(&attr, st->cpu, NULL, count_overflow,
						    &handled);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ca.event));
	st->events[st->nr++] = ca.event;
	KUNIT_ASSERT_FALSE(test, is_sampling_event(ca.event));
	KUNIT_ASSERT_EQ(test, ca.event->state, PERF_EVENT_STATE_ACTIVE);

	KUNIT_ASSERT_EQ(test, smp_call_function_single(st->cpu, overflow_counting_on_cpu, &ca,
						       1), 0);
	KUNIT_EXPECT_GT(test, ca.overflows, READ_ONCE(perf_max_samples_per_tick));
	KUNIT_EXPECT_EQ(test, ca.stops, 0);
	KUNIT_EXPECT_EQ(test, handled, 0);
	KUNIT_EXPECT_EQ(test, ca.interrupts_after, ca.interrupts);
	KUNIT_EXPECT_EQ(test, ca.event->pending_kill, 0U);
	KUNIT_EXPECT_EQ(test, ca.event->pending_wakeup, 0U);
	KUNIT_EXPECT_EQ(test, ca.event->state, PERF_EVENT_STATE_ACTIVE);
}

/* On another CPU than the event's: its irq_work runs here, with a disable. */
static void pending_disable_elsewhere(void *info)
{
	struct perf_event *event = info;

	WRITE_ONCE(event->pending_disable, 1);
	perf_pending_irq(&event->pending_irq);
}

/*
 * The irq_work that an overflow queued runs on a CPU the event has left
 * (it moved meanwhile): the pending disable follows the event to its CPU
 * and takes effect there, as in 6.1 (ours once dropped it: the event went
 * on counting past a REFRESH limit or a full AUX area).
 */
static void test_pending_work_follows_the_event(struct kunit *test)
{
	struct sched_test_ctx *st = test->priv;
	int other = cpumask_next(st->cpu, cpu_online_mask);
	struct perf_event *event;
	int i;

	if (other >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	event = open_event(test, false, false, NULL);
	KUNIT_ASSERT_EQ(test, event->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_ASSERT_EQ(test, READ_ONCE(event->oncpu), st->cpu);

	KUNIT_ASSERT_EQ(test, smp_call_function_single(other, pending_disable_elsewhere, event,
						       1), 0);
	for (i = 0; i < 100 && READ_ONCE(event->state) != PERF_EVENT_STATE_OFF; i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(event->state), PERF_EVENT_STATE_OFF);
	KUNIT_EXPECT_EQ(test, per_cpu_ptr(&fake_cpu, st->cpu)->used, 0);
}

/* ---- the multiplexing policy (rotation.c) ---- */

static void rotate_on_cpu(void *info)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);

	perf_ctx_lock(cpuctx, cpuctx->task_ctx);
	perf_cpmu_rotate(this_cpu_ptr(fake_pmu.cpu_pmu), true);
	perf_ctx_unlock(cpuctx, cpuctx->task_ctx);
}

/* End the current turn on the test's CPU, as the timer does. */
static void end_turn(struct kunit *test)
{
	struct sched_test_ctx *st = test->priv;

	KUNIT_ASSERT_EQ(test, smp_call_function_single(st->cpu, rotate_on_cpu, NULL, 1), 0);
}

static void test_first_fit_after_a_group_that_does_not_fit(struct kunit *test)
{
	struct perf_event *a = open_event(test, false, false, NULL);
	struct perf_event *b = open_event(test, false, false, NULL);
	struct perf_event *b1 = open_event(test, false, false, b);
	struct perf_event *c = open_event(test, false, false, NULL);

	/* a takes a counter, b's pair does not fit in the other: c does */
	KUNIT_EXPECT_EQ(test, a->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, b->state, PERF_EVENT_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, b1->state, PERF_EVENT_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, c->state, PERF_EVENT_STATE_ACTIVE);
}

/* Which of @ev (@nr groups) are on, as a bit mask. */
static unsigned int groups_on(struct perf_event **ev, int nr)
{
	unsigned int mask = 0;
	int i;

	for (i = 0; i < nr; i++) {
		if (ev[i]->state == PERF_EVENT_STATE_ACTIVE)
			mask |= 1U << i;
	}
	return mask;
}

static void test_oldest_group_makes_room_for_the_first_waiting(struct kunit *test)
{
	/* four singles on two counters: a window that slides by one (as in 6.1) */
	static const unsigned int on[] = { 0x3, 0x6, 0xc, 0x9, 0x3 };
	struct perf_event *ev[4];
	int i;

	for (i = 0; i < 4; i++)
		ev[i] = open_event(test, false, false, NULL);
	for (i = 0; i < ARRAY_SIZE(on); i++) {
		KUNIT_EXPECT_EQ_MSG(test, groups_on(ev, 4), on[i], "turn %d", i);
		end_turn(test);
	}
}

static void test_exclusive_group_gets_the_whole_pmu_in_its_turn(struct kunit *test)
{
	struct perf_event *ev[3];

	ev[0] = open_event(test, false, false, NULL);
	ev[1] = open_event(test, false, false, NULL);
	ev[2] = open_event(test, false, true, NULL);
	KUNIT_EXPECT_EQ(test, groups_on(ev, 3), 0x3U);
	/* one counter's room would not do: both that ran go */
	end_turn(test);
	KUNIT_EXPECT_EQ(test, groups_on(ev, 3), 0x4U);
	end_turn(test);
	KUNIT_EXPECT_EQ(test, groups_on(ev, 3), 0x3U);
}

static void test_big_group_gets_every_other_turn(struct kunit *test)
{
	struct perf_event *g = open_event(test, false, false, NULL);
	struct perf_event *g1 = open_event(test, false, false, g);
	struct perf_event *s1 = open_event(test, false, false, NULL);
	struct perf_event *s2 = open_event(test, false, false, NULL);
	int turn;

	for (turn = 0; turn < 4; turn++) {
		bool big = !(turn & 1);

		KUNIT_EXPECT_EQ(test, g->state == PERF_EVENT_STATE_ACTIVE, big);
		KUNIT_EXPECT_EQ(test, g1->state == PERF_EVENT_STATE_ACTIVE, big);
		KUNIT_EXPECT_EQ(test, s1->state == PERF_EVENT_STATE_ACTIVE, !big);
		KUNIT_EXPECT_EQ(test, s2->state == PERF_EVENT_STATE_ACTIVE, !big);
		end_turn(test);
	}
}

static struct kunit_case group_sched_cases[] = {
	KUNIT_CASE(test_pinned_overflow_goes_to_error),
	KUNIT_CASE(test_pinned_before_flexible),
	KUNIT_CASE(test_group_goes_on_whole),
	KUNIT_CASE(test_flexible_groups_rotate),
	KUNIT_CASE(test_exclusive_runs_alone),
	KUNIT_CASE(test_disable_enable),
	KUNIT_CASE(test_migrate_moves_groups_whole),
	KUNIT_CASE(test_overflows_are_throttled_per_tick),
	KUNIT_CASE(test_counting_event_overflow_is_no_sample),
	KUNIT_CASE(test_pending_work_follows_the_event),
	KUNIT_CASE(test_first_fit_after_a_group_that_does_not_fit),
	KUNIT_CASE(test_oldest_group_makes_room_for_the_first_waiting),
	KUNIT_CASE(test_exclusive_group_gets_the_whole_pmu_in_its_turn),
	KUNIT_CASE(test_big_group_gets_every_other_turn),
	{}
};

static struct kunit_suite group_sched_suite = {
	.name		= "perf_group_sched",
	.init		= sched_test_init,
	.exit		= sched_test_exit,
	.test_cases	= group_sched_cases,
};

kunit_test_suite(group_sched_suite);

MODULE_LICENSE("GPL");
