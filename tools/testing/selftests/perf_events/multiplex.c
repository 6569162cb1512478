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
 * older than the last pass.
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

TEST_HARNESS_MAIN
