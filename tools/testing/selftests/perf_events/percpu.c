// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-wide events (pid == -1, cpu == N).
 *
 * Covers: a CPU-wide event counts the work done on its CPU only (a workload
 * pinned to one CPU shows up there and not on another); cpu-clock on a CPU
 * counts wall time while enabled, with time_running == time_enabled; a
 * CPU-wide and a per-task event count the same workload at once; without
 * CAP_PERFMON/CAP_SYS_ADMIN a CPU-wide event is EACCES when
 * perf_event_paranoid >= 1 and allowed at 0, while the task's own events stay
 * allowed; cpu out of range (or pid == -1 with cpu == -1, or cpu < -1) is
 * EINVAL; a possible but offline CPU is ENODEV.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define PARANOID_PATH	"/proc/sys/kernel/perf_event_paranoid"
#define PAGES		4096

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int open_cpu_event(__u64 config, int cpu, __u64 rf)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.read_format = rf;
	return perfev_open(&attr, -1, cpu, -1, 0);
}

/* First two CPUs in our affinity mask; false if there are fewer. */
static bool two_cpus(int *a, int *b)
{
	cpu_set_t set;
	int i;

	*a = *b = -1;
	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	for (i = 0; i < CPU_SETSIZE && *b < 0; i++) {
		if (!CPU_ISSET(i, &set))
			continue;
		if (*a < 0)
			*a = i;
		else
			*b = i;
	}
	return *b >= 0;
}

static int pin_to(int cpu, cpu_set_t *old)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(*old), old))
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Pinned to @on, touch PAGES pages with page-fault events enabled on @on and
 * @off; return the two deltas.
 */
static int fault_on_cpu(int fd_on, int fd_off, int on, __u64 *d_on, __u64 *d_off)
{
	__u64 on0, off0, on1, off1;
	cpu_set_t old;

	if (pin_to(on, &old))
		return -1;
	if (perfev_read_count(fd_on, &on0) || perfev_read_count(fd_off, &off0) ||
	    perfev_touch_pages(PAGES) ||
	    perfev_read_count(fd_on, &on1) || perfev_read_count(fd_off, &off1)) {
		sched_setaffinity(0, sizeof(old), &old);
		return -1;
	}
	*d_on = on1 - on0;
	*d_off = off1 - off0;
	return sched_setaffinity(0, sizeof(old), &old);
}

TEST(percpu_event_counts_only_its_cpu)
{
	__u64 a_on, b_off, b_on, a_off;
	int fd_a, fd_b, a, b, trial;

	if (!two_cpus(&a, &b))
		SKIP(return, "needs two CPUs");
	fd_a = open_cpu_event(PERF_COUNT_SW_PAGE_FAULTS, a, 0);
	ASSERT_GE(fd_a, 0);
	fd_b = open_cpu_event(PERF_COUNT_SW_PAGE_FAULTS, b, 0);
	ASSERT_GE(fd_b, 0);
	ASSERT_EQ(0, ioctl(fd_a, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(fd_b, PERF_EVENT_IOC_ENABLE, 0));
	/*
	 * Other tasks may fault on the CPU we left meanwhile (noise on a busy
	 * machine), but not our PAGES faults.  A kernel that counts all CPUs
	 * never separates them, so allow a few trials for the noise.
	 */
	for (trial = 0; trial < 5; trial++) {
		ASSERT_EQ(0, fault_on_cpu(fd_a, fd_b, a, &a_on, &b_off));
		ASSERT_EQ(0, fault_on_cpu(fd_b, fd_a, b, &b_on, &a_off));
		/* Each CPU sees our faults while we run there. */
		ASSERT_GE(a_on, (__u64)PAGES);
		ASSERT_GE(b_on, (__u64)PAGES);
		if (a_on >= b_off + PAGES / 2 && b_on >= a_off + PAGES / 2)
			break;
	}
	close(fd_a);
	close(fd_b);
	EXPECT_GE(a_on, b_off + PAGES / 2);
	EXPECT_GE(b_on, a_off + PAGES / 2);
	TH_LOG("cpu%d: %llu (other %llu), cpu%d: %llu (other %llu)", a,
	       (unsigned long long)a_on, (unsigned long long)b_off, b,
	       (unsigned long long)b_on, (unsigned long long)a_off);
}

TEST(percpu_cpu_clock_counts_wall_time)
{
	const __u64 rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct timespec ts = { 0, 30 * 1000000 };
	struct perfev_value v;
	__u64 t0, t1;
	int fd;

	fd = open_cpu_event(PERF_COUNT_SW_CPU_CLOCK, 0, rf);
	ASSERT_GE(fd, 0);
	t0 = mono_ns();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/* We sleep: the CPU-wide clock runs anyway (idle included). */
	ASSERT_EQ(0, nanosleep(&ts, NULL));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	t1 = mono_ns();
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_GE(v.value, 30 * 1000000ULL / 2);
	EXPECT_LE(v.value, (t1 - t0) + (t1 - t0) / 10 + 2000000);
	EXPECT_GT(v.enabled, 0ULL);
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

TEST(percpu_and_per_task_events_together)
{
	int fd_cpu, fd_task, a, b;
	__u64 c_cpu, c_task;
	cpu_set_t old;

	if (!two_cpus(&a, &b))
		a = sched_getcpu();
	ASSERT_EQ(0, pin_to(a, &old));
	fd_cpu = open_cpu_event(PERF_COUNT_SW_PAGE_FAULTS, a, 0);
	ASSERT_GE(fd_cpu, 0);
	fd_task = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, -1);
	ASSERT_GE(fd_task, 0);
	ASSERT_EQ(0, ioctl(fd_cpu, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(fd_task, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(PAGES / 2));
	ASSERT_EQ(0, ioctl(fd_task, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fd_cpu, PERF_EVENT_IOC_DISABLE, 0));
	sched_setaffinity(0, sizeof(old), &old);
	ASSERT_EQ(0, perfev_read_count(fd_cpu, &c_cpu));
	ASSERT_EQ(0, perfev_read_count(fd_task, &c_task));
	EXPECT_GE(c_task, (__u64)PAGES / 2);
	EXPECT_LT(c_task, (__u64)PAGES / 2 + 1000);
	/* The CPU saw at least everything the task did there. */
	EXPECT_GE(c_cpu, c_task);
	close(fd_cpu);
	close(fd_task);
}

TEST(cpu_out_of_range_einval)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	EXPECT_EQ(-1, perfev_open(&attr, -1, INT_MAX, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, perfev_open(&attr, -1, 1 << 20, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, perfev_open(&attr, 0, 1 << 20, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, perfev_open(&attr, 0, -2, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	/* Neither a task nor a CPU. */
	EXPECT_EQ(-1, perfev_open(&attr, -1, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST(offline_cpu_enodev)
{
	struct perf_event_attr attr;
	char path[64];
	long long online;
	int cpu;

	for (cpu = 1; cpu < 1024; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
		if (perfev_read_int(path, &online))
			continue;
		if (online == 0)
			break;
	}
	if (cpu == 1024)
		SKIP(return, "no offline CPU");
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	EXPECT_EQ(-1, perfev_open(&attr, -1, cpu, -1, 0));
	EXPECT_EQ(ENODEV, errno);
}

/* Unprivileged opens with perf_event_paranoid set; restored in teardown. */
FIXTURE(paranoid)
{
	long long saved;
	bool have;
};

FIXTURE_SETUP(paranoid)
{
	self->have = perfev_read_int(PARANOID_PATH, &self->saved) == 0;
}

FIXTURE_TEARDOWN(paranoid)
{
	if (self->have)
		perfev_write_int(PARANOID_PATH, self->saved);
}

/* Child bodies: 0 on success, errno on failure. */
static int try_open_cpu0(void *arg)
{
	struct perf_event_attr attr;
	int fd;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = perfev_open(&attr, -1, 0, -1, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int try_open_self(void *arg)
{
	struct perf_event_attr attr;
	int fd;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

TEST_F(paranoid, unprivileged_percpu_paranoid1_eacces)
{
	if (!self->have)
		SKIP(return, "no %s", PARANOID_PATH);
	ASSERT_EQ(0, perfev_write_int(PARANOID_PATH, 1));
	EXPECT_EQ(EACCES, perfev_run_unprivileged(try_open_cpu0, NULL));
	/* Its own task is still fine at level 1. */
	EXPECT_EQ(0, perfev_run_unprivileged(try_open_self, NULL));
	/* Root (CAP_PERFMON/CAP_SYS_ADMIN) is not restricted. */
	EXPECT_EQ(0, try_open_cpu0(NULL));
}

TEST_F(paranoid, unprivileged_percpu_paranoid2_eacces)
{
	if (!self->have)
		SKIP(return, "no %s", PARANOID_PATH);
	ASSERT_EQ(0, perfev_write_int(PARANOID_PATH, 2));
	EXPECT_EQ(EACCES, perfev_run_unprivileged(try_open_cpu0, NULL));
	EXPECT_EQ(0, perfev_run_unprivileged(try_open_self, NULL));
}

TEST_F(paranoid, unprivileged_percpu_paranoid0_allowed)
{
	if (!self->have)
		SKIP(return, "no %s", PARANOID_PATH);
	ASSERT_EQ(0, perfev_write_int(PARANOID_PATH, 0));
	EXPECT_EQ(0, perfev_run_unprivileged(try_open_cpu0, NULL));
}

TEST_HARNESS_MAIN
