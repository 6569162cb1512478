// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perf event time accounting (event_time.h): the context
 * clock and the enabled/running totals of events in each state.
 *
 * Pure arithmetic on local structures: no locking, no events, no PMU.
 */
#include <kunit/test.h>

#include "event_time.h"

static void clock_advances_only_while_active(struct kunit *test)
{
	struct perf_time_clock c = { };

	perf_time_clock_update(&c, 100);
	KUNIT_EXPECT_EQ(test, c.time, 0ULL);
	perf_time_clock_start(&c, 200);
	perf_time_clock_update(&c, 250);
	KUNIT_EXPECT_EQ(test, c.time, 50ULL);
	perf_time_clock_stop(&c, 300);
	KUNIT_EXPECT_EQ(test, c.time, 100ULL);
	perf_time_clock_update(&c, 1000);
	KUNIT_EXPECT_EQ(test, c.time, 100ULL);
	perf_time_clock_start(&c, 2000);
	perf_time_clock_stop(&c, 2010);
	KUNIT_EXPECT_EQ(test, c.time, 110ULL);
}

static void clock_start_and_stop_are_idempotent(struct kunit *test)
{
	struct perf_time_clock c = { };

	perf_time_clock_start(&c, 10);
	perf_time_clock_start(&c, 40);	/* already running: keeps 10 */
	perf_time_clock_stop(&c, 50);
	KUNIT_EXPECT_EQ(test, c.time, 40ULL);
	perf_time_clock_stop(&c, 90);	/* already stopped: nothing */
	KUNIT_EXPECT_EQ(test, c.time, 40ULL);
	KUNIT_EXPECT_FALSE(test, c.active);
}

static void clock_never_runs_backwards(struct kunit *test)
{
	struct perf_time_clock c = { };

	perf_time_clock_start(&c, 1000);
	perf_time_clock_update(&c, 1500);
	/* a migrated task context sees a slightly older perf_clock() */
	perf_time_clock_update(&c, 1400);
	KUNIT_EXPECT_EQ(test, c.time, 500ULL);
	perf_time_clock_update(&c, 1600);
	KUNIT_EXPECT_EQ(test, c.time, 600ULL);
}

static void clock_peek_matches_update(struct kunit *test)
{
	struct perf_time_clock c = { };

	perf_time_clock_start(&c, 1000);
	perf_time_clock_update(&c, 1300);
	KUNIT_EXPECT_EQ(test, perf_time_clock_peek(&c, 1700), 700ULL);
	KUNIT_EXPECT_EQ(test, c.time, 300ULL);	/* peek wrote nothing */
	perf_time_clock_stop(&c, 1800);
	KUNIT_EXPECT_EQ(test, perf_time_clock_peek(&c, 99999), 800ULL);
}

static void inactive_event_accrues_enabled_only(struct kunit *test)
{
	struct perf_time_totals t;

	perf_time_reset(&t, 100);
	perf_time_update(&t, PERF_EVENT_STATE_INACTIVE, 160);
	KUNIT_EXPECT_EQ(test, t.enabled, 60ULL);
	KUNIT_EXPECT_EQ(test, t.running, 0ULL);
	KUNIT_EXPECT_EQ(test, t.tstamp, 160ULL);
}

static void active_event_accrues_both(struct kunit *test)
{
	struct perf_time_totals t;

	perf_time_reset(&t, 0);
	perf_time_update(&t, PERF_EVENT_STATE_ACTIVE, 40);
	perf_time_update(&t, PERF_EVENT_STATE_INACTIVE, 100);
	perf_time_update(&t, PERF_EVENT_STATE_ACTIVE, 130);
	KUNIT_EXPECT_EQ(test, t.enabled, 130ULL);
	KUNIT_EXPECT_EQ(test, t.running, 70ULL);
	KUNIT_EXPECT_LE(test, t.running, t.enabled);
}

static void off_error_and_dead_accrue_nothing(struct kunit *test)
{
	static const int states[] = {
		PERF_EVENT_STATE_OFF, PERF_EVENT_STATE_ERROR,
		PERF_EVENT_STATE_EXIT, PERF_EVENT_STATE_DEAD,
	};
	struct perf_time_totals t;
	int i;

	perf_time_reset(&t, 0);
	for (i = 0; i < ARRAY_SIZE(states); i++)
		perf_time_update(&t, states[i], 100 * (i + 1));
	KUNIT_EXPECT_EQ(test, t.enabled, 0ULL);
	KUNIT_EXPECT_EQ(test, t.running, 0ULL);
	KUNIT_EXPECT_EQ(test, t.tstamp, 400ULL);
}

static void older_context_time_restamps_without_accruing(struct kunit *test)
{
	struct perf_time_totals t;

	perf_time_reset(&t, 500);
	perf_time_update(&t, PERF_EVENT_STATE_ACTIVE, 300);
	KUNIT_EXPECT_EQ(test, t.enabled, 0ULL);
	KUNIT_EXPECT_EQ(test, t.tstamp, 300ULL);
	perf_time_update(&t, PERF_EVENT_STATE_ACTIVE, 320);
	KUNIT_EXPECT_EQ(test, t.running, 20ULL);
}

static void read_does_not_write(struct kunit *test)
{
	struct perf_time_totals t;
	u64 enabled, running;

	perf_time_reset(&t, 10);
	perf_time_update(&t, PERF_EVENT_STATE_ACTIVE, 20);
	perf_time_read(&t, PERF_EVENT_STATE_INACTIVE, 50, &enabled, &running);
	KUNIT_EXPECT_EQ(test, enabled, 40ULL);
	KUNIT_EXPECT_EQ(test, running, 10ULL);
	KUNIT_EXPECT_EQ(test, t.enabled, 10ULL);
	KUNIT_EXPECT_EQ(test, t.tstamp, 20ULL);
}

/* A task that runs, sleeps and runs again, with a multiplexed event. */
static void task_context_scenario(struct kunit *test)
{
	struct perf_time_clock ctx = { };
	struct perf_time_totals t;
	u64 enabled, running;

	perf_time_clock_start(&ctx, 1000);		/* task scheduled in */
	perf_time_reset(&t, perf_time_clock_peek(&ctx, 1000));
	perf_time_clock_update(&ctx, 1100);		/* on the PMU for 100 */
	perf_time_update(&t, PERF_EVENT_STATE_ACTIVE, ctx.time);
	perf_time_clock_update(&ctx, 1150);		/* rotated out for 50 */
	perf_time_update(&t, PERF_EVENT_STATE_INACTIVE, ctx.time);
	perf_time_clock_stop(&ctx, 1200);		/* back on, then sleeps */
	perf_time_update(&t, PERF_EVENT_STATE_ACTIVE, ctx.time);
	perf_time_clock_start(&ctx, 5000);		/* 3800 asleep: no time */
	perf_time_read(&t, PERF_EVENT_STATE_ACTIVE, perf_time_clock_peek(&ctx, 5030),
		       &enabled, &running);
	KUNIT_EXPECT_EQ(test, enabled, 230ULL);
	KUNIT_EXPECT_EQ(test, running, 180ULL);
}

static struct kunit_case perf_event_time_cases[] = {
	KUNIT_CASE(clock_advances_only_while_active),
	KUNIT_CASE(clock_start_and_stop_are_idempotent),
	KUNIT_CASE(clock_never_runs_backwards),
	KUNIT_CASE(clock_peek_matches_update),
	KUNIT_CASE(inactive_event_accrues_enabled_only),
	KUNIT_CASE(active_event_accrues_both),
	KUNIT_CASE(off_error_and_dead_accrue_nothing),
	KUNIT_CASE(older_context_time_restamps_without_accruing),
	KUNIT_CASE(read_does_not_write),
	KUNIT_CASE(task_context_scenario),
	{}
};

static struct kunit_suite perf_event_time_suite = {
	.name = "perf_event_time",
	.test_cases = perf_event_time_cases,
};

kunit_test_suite(perf_event_time_suite);

MODULE_LICENSE("GPL");
