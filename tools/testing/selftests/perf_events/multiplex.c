// SPDX-License-Identifier: GPL-2.0
/*
 * Event multiplexing and time_enabled/time_running.
 *
 * Covers: software events never multiplex (10 independent events and a
 * 10-event group all have time_running == time_enabled); with more hardware
 * groups than counters, some group has time_running < time_enabled, every
 * group gets running > 0, and value * enabled / running estimates the count
 * measured alone within 30%; the per-PMU perf_event_mux_interval_ms sysfs
 * file accepts a new value and rejects 0, negative and non-numbers with
 * EINVAL; a hardware PMU's default is at least one tick.  The mmap user
 * page of a group that cannot go on its PMU (kept off by pinned events
 * filling the counters of perfev_test, or of the hardware PMU) is
 * refreshed at each scheduling pass, as 6.1 does: index 0, and times no
 * older than the last pass.  The multiplexing policy (core-design.rst,
 * "Multiplexing"; each case says where 6.1 differs): a single event takes
 * the counter a group could not use (first fit), a group as big as the PMU
 * gets every other turn beside three single events, a task working in
 * short bursts still rotates, and CPU-wide groups that fill the PMU do not
 * starve the task's.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define NR_SW		10
#define NR_HW		8	/* POWER9: 4 programmable PMCs for instructions */
#define LOOPS		200000UL

static int open_timed(__u32 type, __u64 config, int group_fd, bool user_only)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, type, config);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (user_only) {
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
	}
	if (group_fd >= 0)
		attr.disabled = 0;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

static __u64 thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

TEST(software_events_never_multiplex)
{
	struct perfev_value v;
	int fds[NR_SW], i;

	for (i = 0; i < NR_SW; i++) {
		/* configs 0..9: cpu-clock .. dummy, all software */
		fds[i] = open_timed(PERF_TYPE_SOFTWARE, i, -1, false);
		ASSERT_GE(fds[i], 0) TH_LOG("sw config %d: errno %d", i, errno);
	}
	for (i = 0; i < NR_SW; i++)
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(LOOPS);
	perfev_touch_pages(16);
	for (i = 0; i < NR_SW; i++)
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0));
	for (i = 0; i < NR_SW; i++) {
		ASSERT_EQ(0, perfev_read_value(fds[i], &v));
		EXPECT_GT(v.enabled, 0ULL) TH_LOG("sw config %d", i);
		EXPECT_EQ(v.enabled, v.running) TH_LOG("sw config %d", i);
		close(fds[i]);
	}
}

TEST(software_group_of_ten_never_multiplexes)
{
	struct perfev_value v;
	int fds[NR_SW], i;

	fds[0] = open_timed(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1, false);
	ASSERT_GE(fds[0], 0);
	for (i = 1; i < NR_SW; i++) {
		fds[i] = open_timed(PERF_TYPE_SOFTWARE, i, fds[0], false);
		ASSERT_GE(fds[i], 0) TH_LOG("sw config %d: errno %d", i, errno);
	}
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(LOOPS);
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0));
	for (i = 0; i < NR_SW; i++) {
		ASSERT_EQ(0, perfev_read_value(fds[i], &v));
		EXPECT_GT(v.enabled, 0ULL) TH_LOG("member %d", i);
		EXPECT_EQ(v.enabled, v.running) TH_LOG("member %d", i);
	}
	for (i = NR_SW - 1; i >= 0; i--)
		close(fds[i]);
}

TEST(hw_groups_beyond_counters_multiplex_and_scale)
{
	struct perfev_value v;
	__u64 alone, t0, expect;
	unsigned long reps, r;
	int fds[NR_HW], i, fd, partial = 0;

	if (!perfev_have_hw())
		SKIP(return, "no hardware PMU (hardware events do not open)");

	/* calibrate: instructions of one chunk, and how many chunks fill ~150 ms */
	fd = open_timed(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, -1, true);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	t0 = thread_cpu_ns();
	perfev_burn(LOOPS);
	t0 = thread_cpu_ns() - t0;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	close(fd);
	ASSERT_EQ(v.enabled, v.running);	/* alone: no multiplexing */
	alone = v.value;
	ASSERT_GE(alone, LOOPS);
	reps = 150000000ULL / (t0 ? t0 : 1) + 1;
	if (reps > 500)
		reps = 500;
	expect = alone * reps;

	for (i = 0; i < NR_HW; i++) {
		fds[i] = open_timed(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, -1, true);
		ASSERT_GE(fds[i], 0) TH_LOG("event %d: errno %d", i, errno);
	}
	for (i = 0; i < NR_HW; i++)
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0));
	for (r = 0; r < reps; r++)
		perfev_burn(LOOPS);
	for (i = 0; i < NR_HW; i++)
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0));

	for (i = 0; i < NR_HW; i++) {
		__u64 scaled;

		ASSERT_EQ(0, perfev_read_value(fds[i], &v));
		EXPECT_GT(v.running, 0ULL) TH_LOG("event %d never ran", i);
		EXPECT_LE(v.running, v.enabled);
		if (v.running < v.enabled)
			partial++;
		if (!v.running)
			continue;
		scaled = (__u64)((double)v.value * v.enabled / v.running);
		EXPECT_GE(scaled * 10, expect * 7) TH_LOG("event %d: %llu vs %llu alone", i,
							  (unsigned long long)scaled,
							  (unsigned long long)expect);
		EXPECT_LE(scaled * 10, expect * 13) TH_LOG("event %d: %llu vs %llu alone", i,
							   (unsigned long long)scaled,
							   (unsigned long long)expect);
	}
	EXPECT_GT(partial, 0) TH_LOG("%d events on %d counters never multiplexed", NR_HW, NR_HW);
	for (i = 0; i < NR_HW; i++)
		close(fds[i]);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

FIXTURE(mux_interval)
{
	char path[256];
	long long saved;
	bool have;
};

FIXTURE_SETUP(mux_interval)
{
	snprintf(self->path, sizeof(self->path),
		 "/sys/bus/event_source/devices/software/perf_event_mux_interval_ms");
	self->have = perfev_read_int(self->path, &self->saved) == 0;
}

FIXTURE_TEARDOWN(mux_interval)
{
	/* 0 (never set, see below) cannot be written back: leave the test value */
	if (self->have && self->saved >= 1)
		perfev_write_int(self->path, self->saved);
}

TEST_F(mux_interval, readable_writable_and_rejects_zero)
{
	long long val;

	if (!self->have)
		SKIP(return, "no perf_event_mux_interval_ms for the software PMU");
	/*
	 * 6.1 sets the default (1000 / HZ ms) only for PMUs that can multiplex;
	 * the software PMU never does and reads 0 until written.
	 */
	EXPECT_GE(self->saved, 0LL);
	EXPECT_LE(self->saved, 1000LL);

	ASSERT_EQ(0, write_str(self->path, "7\n"));
	ASSERT_EQ(0, perfev_read_int(self->path, &val));
	EXPECT_EQ(7LL, val);

	EXPECT_EQ(-1, write_str(self->path, "0\n"));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write_str(self->path, "-5\n"));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write_str(self->path, "abc\n"));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, perfev_read_int(self->path, &val));
	EXPECT_EQ(7LL, val);
}

TEST(hardware_pmu_interval_defaults_to_a_tick_or_more)
{
	const char *cpu = "/sys/bus/event_source/devices/cpu/perf_event_mux_interval_ms";
	long long val;

	if (!perfev_have_hw() || perfev_read_int(cpu, &val))
		SKIP(return, "no hardware PMU named cpu");
	/* a multiplexing PMU gets 1000 / HZ ms unless its driver chose one */
	EXPECT_GE(val, 1LL);
	EXPECT_LE(val, 1000LL);
}

TEST_F(mux_interval, tracepoint_pmu_has_its_own_interval)
{
	const char *tp = "/sys/bus/event_source/devices/tracepoint/perf_event_mux_interval_ms";
	long long before, after;

	if (!self->have || perfev_read_int(tp, &before))
		SKIP(return, "no perf_event_mux_interval_ms files");
	ASSERT_EQ(0, write_str(self->path, before == 9 ? "11\n" : "9\n"));
	ASSERT_EQ(0, perfev_read_int(tp, &after));
	EXPECT_EQ(before, after);
}

/* ---- the user page of groups that stay off their PMU ---- */

#define PTP_NS		0x01	/* perfev_test: scheduled-in nanoseconds, any counter */
#define MAX_FILL	32	/* pinned events tried to fill the PMU */
#define NR_KEPT_OFF	12	/* flexible groups, each with its user page mapped */
#define KEPT_OFF_ROUNDS	3
#define KEPT_OFF_SPIN	100000000ULL	/* ns of CPU time between two checks */
#define CLOCK_SLACK	20000000ULL	/* perf_clock() vs CLOCK_MONOTONIC */

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* What a self-monitoring reader takes from a user page, consistently. */
struct user_page_snap {
	__u32 index;
	__s64 offset;
	__u64 enabled, running;
};

#define PAGE_LOAD(field)	__atomic_load_n(&(field), __ATOMIC_RELAXED)

static void read_user_page(const struct perf_event_mmap_page *up, struct user_page_snap *u)
{
	__u32 seq;

	/* ->lock is odd while the kernel updates the page, and moves on after */
	do {
		seq = PAGE_LOAD(up->lock);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		u->index = PAGE_LOAD(up->index);
		u->offset = PAGE_LOAD(up->offset);
		u->enabled = PAGE_LOAD(up->time_enabled);
		u->running = PAGE_LOAD(up->time_running);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || PAGE_LOAD(up->lock) != seq);
}

/*
 * The PMU whose counters the test fills: the test-only perfev_test PMU
 * (four counters) where it is registered, else the hardware PMU (user-mode
 * instructions; the same attributes for every event, so that they all
 * compete for the same counters).  A longer multiplexing interval for it
 * while the test runs: the groups it keeps off then wait for the passes
 * the test makes itself, and a page these passes do not refresh grows old
 * enough to be seen.  6.1's behaviour does not depend on it.
 */
FIXTURE(kept_off)
{
	struct perf_event_attr attr;
	bool have;
	char path[256];
	long long saved;
	bool restore;
};

FIXTURE_SETUP(kept_off)
{
	int type = perfev_pmu_type("perfev_test");
	const char *pmu = "perfev_test";

	if (type >= 0) {
		perfev_attr_init(&self->attr, type, PTP_NS);
	} else {
		perfev_attr_init(&self->attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		self->attr.exclude_kernel = 1;
		self->attr.exclude_hv = 1;
		pmu = "cpu";
	}
	self->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				 PERF_FORMAT_TOTAL_TIME_RUNNING;
	self->have = type >= 0 || perfev_have_hw();
	snprintf(self->path, sizeof(self->path),
		 "/sys/bus/event_source/devices/%s/perf_event_mux_interval_ms", pmu);
	self->restore = self->have && !perfev_read_int(self->path, &self->saved) &&
			self->saved >= 1 && !perfev_write_int(self->path, 1000);
}

FIXTURE_TEARDOWN(kept_off)
{
	if (self->restore)
		perfev_write_int(self->path, self->saved);
}

static int kept_off_open(struct perf_event_attr *attr, bool pinned, bool disabled)
{
	attr->pinned = pinned;
	attr->disabled = disabled;
	return perfev_open(attr, 0, -1, -1, 0);
}

/*
 * Pinned events fill the PMU (the first one that finds no counter goes to
 * error and is closed), so that NR_KEPT_OFF flexible single-event groups,
 * each with its user page mapped, never go on (time_running 0 <
 * time_enabled).  Enabling one more flexible group is a scheduling pass:
 * 6.1 (merge_sched_in()) then updates the user page of every group it
 * could not schedule, the first that failed and all behind it, with index
 * 0 and the times of that moment.  So right after the pass each page may
 * lag read() by no more than the time since the pass began; a page left as
 * it was lags by all the time its group has been waiting.
 */
TEST_F(kept_off, user_page_of_groups_kept_off_is_refreshed)
{
	int fill[MAX_FILL], fds[NR_KEPT_OFF], nr_fill, kick, cpu, i, round;
	struct perf_event_mmap_page *up[NR_KEPT_OFF];
	struct perfev_value v[NR_KEPT_OFF], filled;
	struct user_page_snap u[NR_KEPT_OFF];
	size_t pg = sysconf(_SC_PAGESIZE);
	__u64 t0, t1, bound, spin;
	cpu_set_t orig;

	if (!self->have)
		SKIP(return, "neither the perfev_test PMU nor a hardware PMU");
	/* one CPU: one PMU to fill, one perf_clock() for its times and ours */
	cpu = perfev_pin_here(&orig);
	ASSERT_GE(cpu, 0);

	for (nr_fill = 0; nr_fill < MAX_FILL; nr_fill++) {
		fill[nr_fill] = kept_off_open(&self->attr, true, false);
		ASSERT_GE(fill[nr_fill], 0) TH_LOG("pinned %d: errno %d", nr_fill, errno);
		/* in error (read() gives 0 bytes): no counter left */
		if (perfev_read_value(fill[nr_fill], &filled)) {
			close(fill[nr_fill]);
			break;
		}
	}
	ASSERT_GT(nr_fill, 0) TH_LOG("no pinned event gets a counter");
	ASSERT_LT(nr_fill, MAX_FILL) TH_LOG("%d pinned events, still counters left", MAX_FILL);
	for (i = 0; i < NR_KEPT_OFF; i++) {
		fds[i] = kept_off_open(&self->attr, false, false);
		ASSERT_GE(fds[i], 0) TH_LOG("group %d: errno %d", i, errno);
		up[i] = mmap(NULL, pg, PROT_READ, MAP_SHARED, fds[i], 0);
		ASSERT_NE(MAP_FAILED, up[i]) TH_LOG("group %d: errno %d", i, errno);
	}
	kick = kept_off_open(&self->attr, false, true);
	ASSERT_GE(kick, 0);

	for (round = 0; round < KEPT_OFF_ROUNDS; round++) {
		spin = thread_cpu_ns();
		while (thread_cpu_ns() - spin < KEPT_OFF_SPIN)
			perfev_burn(10000);
		t0 = mono_ns();
		ASSERT_EQ(0, ioctl(kick, PERF_EVENT_IOC_ENABLE, 0));
		for (i = 0; i < NR_KEPT_OFF; i++) {
			read_user_page(up[i], &u[i]);
			ASSERT_EQ(0, perfev_read_value(fds[i], &v[i]));
		}
		t1 = mono_ns();
		ASSERT_EQ(0, ioctl(kick, PERF_EVENT_IOC_DISABLE, 0));
		bound = 2 * (t1 - t0) + CLOCK_SLACK;
		for (i = 0; i < NR_KEPT_OFF; i++) {
			/* kept off: never ran, and the page says it is off */
			ASSERT_EQ(0ULL, v[i].running) TH_LOG("group %d ran", i);
			EXPECT_GT(v[i].enabled, 0ULL);
			EXPECT_EQ(0U, u[i].index) TH_LOG("round %d group %d", round, i);
			EXPECT_EQ(0ULL, u[i].running) TH_LOG("round %d group %d", round, i);
			EXPECT_EQ((__s64)v[i].value, u[i].offset) TH_LOG("round %d group %d",
									 round, i);
			/* no time from the future, none older than the pass */
			EXPECT_LE(u[i].enabled, v[i].enabled) TH_LOG("round %d group %d",
								     round, i);
			EXPECT_LE(v[i].enabled - u[i].enabled, bound)
				TH_LOG("round %d group %d: %llu ns stale, pass %llu ns ago",
				       round, i, (unsigned long long)(v[i].enabled - u[i].enabled),
				       (unsigned long long)(t1 - t0));
		}
	}
	/* the pinned events had their counters all along */
	for (i = 0; i < nr_fill; i++) {
		ASSERT_EQ(0, perfev_read_value(fill[i], &filled));
		EXPECT_EQ(filled.enabled, filled.running) TH_LOG("pinned %d", i);
	}

	perfev_unpin(&orig);
	close(kick);
	for (i = 0; i < NR_KEPT_OFF; i++) {
		munmap(up[i], pg);
		close(fds[i]);
	}
	for (i = nr_fill - 1; i >= 0; i--)
		close(fill[i]);
}

/* ---- the multiplexing policy: turns, first fit, no starvation ---- */

#define POLICY_MAX	40

/*
 * The PMU the policy tests fill, as for kept_off: perfev_test where it is
 * registered, else user-mode instructions on the hardware PMU.  The
 * interval is set per test (1 s: no rotation while the test looks; 4 ms:
 * 6.1's default, many turns).
 */
/* The events a policy test opened, all alike. */
struct policy_events {
	struct perf_event_attr attr;
	int cpu;		/* the CPU the test runs on */
	int fds[POLICY_MAX];
	int nfds;
};

FIXTURE(policy)
{
	struct policy_events ev;
	bool have;
	char path[256];
	long long saved;
	bool restore;
	cpu_set_t orig;
	int nr;			/* counters the events can use */
};

static int policy_open(struct policy_events *ev, int group_fd, bool cpu_wide)
{
	struct perf_event_attr attr = ev->attr;
	int fd;

	if (ev->nfds >= POLICY_MAX)
		return -1;
	fd = perfev_open(&attr, cpu_wide ? -1 : 0, cpu_wide ? ev->cpu : -1, group_fd, 0);
	if (fd >= 0)
		ev->fds[ev->nfds++] = fd;
	return fd;
}

static void policy_close_all(struct policy_events *ev)
{
	while (ev->nfds)
		close(ev->fds[--ev->nfds]);
}

static void spin_ns(__u64 ns)
{
	__u64 t = thread_cpu_ns();

	while (thread_cpu_ns() - t < ns)
		perfev_burn(2000);
}

/* Whether the event ran all of the time it was enabled, and did run. */
static bool ran_all_along(int fd)
{
	struct perfev_value v;

	return !perfev_read_value(fd, &v) && v.running && v.running == v.enabled;
}

FIXTURE_SETUP(policy)
{
	int type = perfev_pmu_type("perfev_test");
	const char *pmu = "perfev_test";
	int i;

	if (type >= 0) {
		perfev_attr_init(&self->ev.attr, type, PTP_NS);
	} else {
		perfev_attr_init(&self->ev.attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		self->ev.attr.exclude_kernel = 1;
		self->ev.attr.exclude_hv = 1;
		pmu = "cpu";
	}
	self->ev.attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				 PERF_FORMAT_TOTAL_TIME_RUNNING;
	self->ev.attr.disabled = 0;
	self->have = type >= 0 || perfev_have_hw();
	self->ev.nfds = 0;
	self->nr = 0;
	if (!self->have)
		return;
	snprintf(self->path, sizeof(self->path),
		 "/sys/bus/event_source/devices/%s/perf_event_mux_interval_ms", pmu);
	self->restore = !perfev_read_int(self->path, &self->saved) && self->saved >= 1;
	self->ev.cpu = perfev_pin_here(&self->orig);
	ASSERT_GE(self->ev.cpu, 0);
	/*
	 * The counters: single events opened one by one until one waits
	 * (the newest: never ran, or ran only after a rotation).
	 */
	ASSERT_EQ(0, perfev_write_int(self->path, 4));
	for (i = 0; i < POLICY_MAX; i++) {
		ASSERT_GE(policy_open(&self->ev, -1, false), 0) TH_LOG("errno %d", errno);
		spin_ns(2000000);
		if (!ran_all_along(self->ev.fds[i]))
			break;
	}
	policy_close_all(&self->ev);
	self->nr = i;
	ASSERT_GT(self->nr, 1) TH_LOG("fewer than two counters");
	ASSERT_LT(self->nr, POLICY_MAX / 4) TH_LOG("%d counters", self->nr);
}

/*
 * A new interval applies from the next time the timer is started: let the
 * one the setup started run out (nothing left to rotate, it stops).
 */
static int policy_set_interval(const char *path, int ms)
{
	if (perfev_write_int(path, ms))
		return -1;
	usleep(30000);
	return 0;
}

FIXTURE_TEARDOWN(policy)
{
	policy_close_all(&self->ev);
	if (self->restore)
		perfev_write_int(self->path, self->saved);
	if (self->have)
		perfev_unpin(&self->orig);
}

/*
 * First fit: nr - 1 single events leave one counter; a group of two does
 * not fit in it, and a single event opened after that group takes it.
 * 6.1 tries no group after the first that does not fit: the single event
 * waits for a rotation (none comes within the test's 1 s interval).
 */
TEST_F(policy, single_event_fills_the_counter_a_group_left)
{
	int i, lead, last;

	if (!self->have)
		SKIP(return, "neither the perfev_test PMU nor a hardware PMU");
	ASSERT_EQ(0, policy_set_interval(self->path, 1000));
	for (i = 0; i < self->nr - 1; i++)
		ASSERT_GE(policy_open(&self->ev, -1, false), 0);
	lead = policy_open(&self->ev, -1, false);
	ASSERT_GE(lead, 0);
	ASSERT_GE(policy_open(&self->ev, lead, false), 0);
	last = policy_open(&self->ev, -1, false);
	ASSERT_GE(last, 0);
	spin_ns(20000000);
	for (i = 0; i < self->ev.nfds; i++) {
		struct perfev_value v;

		ASSERT_EQ(0, perfev_read_value(self->ev.fds[i], &v));
		EXPECT_TRUE(i == self->nr - 1 || i == self->nr || v.running == v.enabled)
			TH_LOG("event %d of %d (%d counters): enabled %llu running %llu", i,
			       self->ev.nfds, self->nr, (unsigned long long)v.enabled,
			       (unsigned long long)v.running);
	}
	EXPECT_TRUE(ran_all_along(last)) TH_LOG("the single event after the group waited");
}

/*
 * An event that closes leaves its counter to the event that waits for
 * one at once, not at the next turn (1 s away here): the time the waiting
 * event runs starts with the close.  6.1 leaves the counter empty until
 * the turn ends.  The close path skips that rescheduling when nothing
 * waits, which this test and single_event_fills_the_counter_a_group_left
 * (nothing waits until the group) keep honest.
 */
TEST_F(policy, closing_an_event_lets_the_waiting_one_on_at_once)
{
	struct perfev_value before, after;
	int i, waiting;

	if (!self->have)
		SKIP(return, "neither the perfev_test PMU nor a hardware PMU");
	ASSERT_EQ(0, policy_set_interval(self->path, 1000));
	for (i = 0; i < self->nr; i++)
		ASSERT_GE(policy_open(&self->ev, -1, false), 0);
	waiting = policy_open(&self->ev, -1, false);
	ASSERT_GE(waiting, 0);
	spin_ns(5000000);
	ASSERT_EQ(0, perfev_read_value(waiting, &before));
	ASSERT_EQ(0ULL, before.running) TH_LOG("the last event ran before any closed");

	close(self->ev.fds[0]);
	self->ev.fds[0] = -1;		/* closed again by the teardown: EBADF */
	spin_ns(20000000);
	ASSERT_EQ(0, perfev_read_value(waiting, &after));
	EXPECT_GE(after.running, 10000000ULL)
		TH_LOG("ran %llu ns of the 20 ms after the close",
		       (unsigned long long)after.running);
}

/* Percent of its enabled time @fd ran. */
static double share_of(int fd)
{
	struct perfev_value v;

	if (perfev_read_value(fd, &v) || !v.enabled)
		return -1;
	return 100.0 * v.running / v.enabled;
}

/*
 * A group as big as the PMU beside three single events: at the end of a
 * turn the groups on the PMU make room for the first in line, so the big
 * group and the singles take turns, half of the time each.  6.1 moves one group per
 * interval and stops at the first that does not fit: the big group runs
 * one interval in four (25 %).
 */
TEST_F(policy, big_group_gets_every_other_turn)
{
	int i, lead;
	double big;

	if (!self->have)
		SKIP(return, "neither the perfev_test PMU nor a hardware PMU");
	ASSERT_EQ(0, policy_set_interval(self->path, 4));
	lead = policy_open(&self->ev, -1, false);
	ASSERT_GE(lead, 0);
	for (i = 1; i < self->nr; i++)
		ASSERT_GE(policy_open(&self->ev, lead, false), 0);
	for (i = 0; i < 3; i++)
		ASSERT_GE(policy_open(&self->ev, -1, false), 0);
	spin_ns(800000000);
	big = share_of(lead);
	fprintf(stderr, "# shares: group of %d %.1f %%, singles %.1f %.1f %.1f %%\n",
		self->nr, big, share_of(self->ev.fds[self->nr]),
		share_of(self->ev.fds[self->nr + 1]), share_of(self->ev.fds[self->nr + 2]));
	EXPECT_GE(big, 40.0) TH_LOG("the group of %d ran %.1f %% of the time", self->nr, big);
	for (i = self->nr; i < self->nr + 3; i++)
		EXPECT_GE(share_of(self->ev.fds[i]), 30.0) TH_LOG("single %d", i - self->nr);
}

/*
 * A task that works in bursts shorter than the interval, asleep in
 * between, with twice as many single events as counters: its turns are
 * measured in the time it runs, so every event gets some.  6.1's timer
 * keeps a fixed grid of intervals and rotates only when a grid point falls
 * in a burst (else it finds the task asleep and stops): whether the groups
 * that did not fit at the first burst ever run depends on the phase.
 */
TEST_F(policy, task_working_in_short_bursts_rotates)
{
	int i, burst;

	if (!self->have)
		SKIP(return, "neither the perfev_test PMU nor a hardware PMU");
	ASSERT_EQ(0, policy_set_interval(self->path, 10));
	for (i = 0; i < 2 * self->nr; i++)
		ASSERT_GE(policy_open(&self->ev, -1, false), 0);
	/* 1 ms of work per 13 ms: the timer (10 ms) always fires in a sleep */
	for (burst = 0; burst < 60; burst++) {
		spin_ns(1000000);
		usleep(12000);
	}
	for (i = 0; i < 2 * self->nr; i++) {
		struct perfev_value v;

		ASSERT_EQ(0, perfev_read_value(self->ev.fds[i], &v));
		EXPECT_GT(v.running, 0ULL) TH_LOG("event %d of %d never ran", i, 2 * self->nr);
	}
}

/*
 * CPU-wide flexible events that more than fill the PMU, and two of the
 * task's: while both have groups left out, the task's go first every
 * other turn.  In 6.1 the CPU's flexible groups always go first, and the
 * task's never run.
 */
TEST_F(policy, cpu_wide_groups_do_not_starve_the_tasks)
{
	int i;

	if (!self->have)
		SKIP(return, "neither the perfev_test PMU nor a hardware PMU");
	ASSERT_EQ(0, policy_set_interval(self->path, 4));
	for (i = 0; i < self->nr + 1; i++)
		ASSERT_GE(policy_open(&self->ev, -1, true), 0) TH_LOG("CPU-wide: errno %d", errno);
	for (i = 0; i < 2; i++)
		ASSERT_GE(policy_open(&self->ev, -1, false), 0);
	spin_ns(200000000);
	for (i = self->nr + 1; i < self->nr + 3; i++) {
		double share = share_of(self->ev.fds[i]);

		EXPECT_GE(share, 10.0) TH_LOG("task event %d ran %.1f %%", i - self->nr - 1, share);
	}
	for (i = 0; i < self->nr + 1; i++)
		EXPECT_GT(share_of(self->ev.fds[i]), 0.0) TH_LOG("CPU-wide event %d", i);
}

TEST_HARNESS_MAIN
