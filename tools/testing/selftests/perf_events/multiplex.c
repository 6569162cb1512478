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
 * EINVAL; a hardware PMU's default is at least one tick.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

TEST_HARNESS_MAIN
