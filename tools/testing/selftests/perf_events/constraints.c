// SPDX-License-Identifier: GPL-2.0
/*
 * Counter constraints, group scheduling and multiplexing on the test-only
 * "perfev_test" PMU (CONFIG_PERF_TEST_PMU, drivers/perf/perfev_test_pmu.c).
 *
 * The PMU models four counters; its events count the nanoseconds they are
 * scheduled in (times 1, 2 or 3), and two are constrained: ns_pmc0 only in
 * counter 0, ns_pmc01 in counter 0 or 1.  That makes the core's scheduling
 * observable without hardware: a group that can never fit is EINVAL at open,
 * groups that fit together all run all the time, conflicting groups are
 * rotated (each runs, time_running < time_enabled, count ~ time_running), a
 * pinned event that cannot get its counter goes to error state (read()
 * returns 0 bytes), an exclusive group keeps every other group off the PMU,
 * and a software leader moves into the PMU's context with its siblings.
 * Also: sysfs format/events, bad config EINVAL, exclude_user/kernel
 * EOPNOTSUPP.  Sampling through the PMU's overflow timers (a hardware-style
 * overflow path without hardware): sample count ~ count / period with the
 * PERIOD field exact, factor events, freq mode adapting the period,
 * PERF_SAMPLE_READ of a group, THROTTLE/UNTHROTTLE above
 * perf_event_max_sample_rate.  A counting event of the wrapping counter
 * (ns_wrap: the PMU raises its overflow interrupt at every wrap, as real
 * counters do) takes no samples and sends no SIGIO: an overflow of a
 * non-sampling event is no sample (6.1).  Every test SKIPs when the PMU is
 * not built in.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"
#include "perfev_ring.h"

#define PTP_NS		0x01
#define PTP_NS_X2	0x02
#define PTP_NS_X3	0x03
#define PTP_NS_PMC0	0x10
#define PTP_NS_PMC01	0x11
#define PTP_NOFORK	0x20
#define PTP_NS_WRAP	0x30	/* wraps every 1 ms of counting */
#define PTP_WRAP_NS	1000000ULL
#define BURN		3000000UL

#define RF_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

#define REQUIRE_PTP(type)							\
	do {									\
		type = perfev_pmu_type("perfev_test");				\
		if (type < 0)							\
			SKIP(return, "no perfev_test PMU (CONFIG_PERF_TEST_PMU)"); \
	} while (0)

static int ptp_open(int type, __u64 config, int group_fd, bool disabled)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, type, config);
	attr.read_format = RF_TIMES;
	attr.disabled = disabled;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

static int ptp_open_attr(struct perf_event_attr *attr)
{
	return perfev_open(attr, 0, -1, -1, 0);
}

static void close_fds(int *fds, int n)
{
	while (n-- > 0)
		if (fds[n] >= 0)
			close(fds[n]);
}

/* |a - b| <= b * pct / 100 + slack */
static bool near(__u64 a, __u64 b, unsigned int pct, __u64 slack)
{
	__u64 d = a > b ? a - b : b - a;

	return d * 100 <= b * pct + slack * 100;
}

static int read_sysfs(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

TEST(pmu_has_dynamic_type_format_and_events)
{
	const char *dir = "/sys/bus/event_source/devices/perfev_test";
	char path[256], buf[64];
	int type;

	REQUIRE_PTP(type);
	EXPECT_GE(type, PERF_TYPE_MAX);
	snprintf(path, sizeof(path), "%s/format/event", dir);
	ASSERT_EQ(0, read_sysfs(path, buf, sizeof(buf)));
	EXPECT_STREQ("config:0-7", buf);
	snprintf(path, sizeof(path), "%s/events/ns_pmc0", dir);
	ASSERT_EQ(0, read_sysfs(path, buf, sizeof(buf)));
	EXPECT_STREQ("event=0x10", buf);
	snprintf(path, sizeof(path), "%s/events/ns_x3", dir);
	ASSERT_EQ(0, read_sysfs(path, buf, sizeof(buf)));
	EXPECT_STREQ("event=0x03", buf);
}

TEST(unknown_config_is_einval)
{
	static const __u64 bad[] = { 0x00, 0x04, 0x12, 0xff, 1ULL << 32 };
	unsigned int i;
	int type;

	REQUIRE_PTP(type);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, ptp_open(type, bad[i], -1, true))
			TH_LOG("config %#llx", (unsigned long long)bad[i]);
		EXPECT_EQ(EINVAL, errno);
	}
}

TEST(exclude_user_and_kernel_are_eopnotsupp)
{
	struct perf_event_attr attr;
	int type;

	REQUIRE_PTP(type);
	perfev_attr_init(&attr, type, PTP_NS);
	attr.exclude_user = 1;
	EXPECT_EQ(-1, ptp_open_attr(&attr));
	EXPECT_EQ(EOPNOTSUPP, errno);

	perfev_attr_init(&attr, type, PTP_NS);
	attr.exclude_kernel = 1;
	EXPECT_EQ(-1, ptp_open_attr(&attr));
	EXPECT_EQ(EOPNOTSUPP, errno);
}

TEST(ns_event_counts_its_running_time)
{
	struct perfev_value v;
	int fd, type;

	REQUIRE_PTP(type);
	fd = ptp_open(type, PTP_NS, -1, true);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_EQ(0ULL, v.value);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(BURN);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_GT(v.value, 0ULL);
	EXPECT_EQ(v.enabled, v.running);
	/* counted while scheduled in; the core times the same interval */
	EXPECT_TRUE(near(v.value, v.running, 10, 200000))
		TH_LOG("value %llu running %llu",
		       (unsigned long long)v.value, (unsigned long long)v.running);
	close(fd);
}

TEST(group_read_shows_the_event_factors)
{
	const __u64 rf = PERF_FORMAT_GROUP | RF_TIMES;
	struct perf_event_attr attr;
	__u64 buf[3 + 3];
	int fds[3], i, type;

	REQUIRE_PTP(type);
	for (i = 0; i < 3; i++) {
		perfev_attr_init(&attr, type, PTP_NS + i);
		attr.read_format = rf;
		attr.disabled = i == 0;
		fds[i] = perfev_open(&attr, 0, -1, i ? fds[0] : -1, 0);
		ASSERT_GE(fds[i], 0) TH_LOG("event %d errno %d", i, errno);
	}
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(BURN);
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ((ssize_t)sizeof(buf), read(fds[0], buf, sizeof(buf)));
	ASSERT_EQ(3ULL, buf[0]);
	EXPECT_EQ(buf[1], buf[2]);	/* the group ran all the time */
	ASSERT_GT(buf[3], 0ULL);
	/* members start one after the other: allow 5% and 0.2 ms */
	EXPECT_TRUE(near(buf[4], 2 * buf[3], 5, 200000))
		TH_LOG("x1 %llu x2 %llu", (unsigned long long)buf[3], (unsigned long long)buf[4]);
	EXPECT_TRUE(near(buf[5], 3 * buf[3], 5, 300000))
		TH_LOG("x1 %llu x3 %llu", (unsigned long long)buf[3], (unsigned long long)buf[5]);
	close_fds(fds, 3);
}

TEST(four_events_fit_a_fifth_sibling_is_einval)
{
	int fds[5], i, type;

	REQUIRE_PTP(type);
	for (i = 0; i < 4; i++) {
		fds[i] = ptp_open(type, PTP_NS, i ? fds[0] : -1, i == 0);
		ASSERT_GE(fds[i], 0) TH_LOG("member %d errno %d", i, errno);
	}
	EXPECT_EQ(-1, ptp_open(type, PTP_NS, fds[0], false));
	EXPECT_EQ(EINVAL, errno);
	close_fds(fds, 4);
}

TEST(conflicting_constraints_in_a_group_are_einval)
{
	int fds[3], type;

	REQUIRE_PTP(type);
	/* two events that both need counter 0 */
	fds[0] = ptp_open(type, PTP_NS_PMC0, -1, true);
	ASSERT_GE(fds[0], 0);
	EXPECT_EQ(-1, ptp_open(type, PTP_NS_PMC0, fds[0], false));
	EXPECT_EQ(EINVAL, errno);
	/* counters 0-1 for three events that need them */
	fds[1] = ptp_open(type, PTP_NS_PMC01, fds[0], false);
	ASSERT_GE(fds[1], 0) TH_LOG("errno %d", errno);
	EXPECT_EQ(-1, ptp_open(type, PTP_NS_PMC01, fds[0], false));
	EXPECT_EQ(EINVAL, errno);
	/* an unconstrained one still fits */
	fds[2] = ptp_open(type, PTP_NS, fds[0], false);
	EXPECT_GE(fds[2], 0) TH_LOG("errno %d", errno);
	close_fds(fds, 3);
}

TEST(constrained_group_that_fits_runs_all_the_time)
{
	static const __u64 cfg[4] = { PTP_NS, PTP_NS_PMC01, PTP_NS_X2, PTP_NS_PMC0 };
	struct perfev_value v;
	int fds[4], i, type;

	REQUIRE_PTP(type);
	for (i = 0; i < 4; i++) {
		fds[i] = ptp_open(type, cfg[i], i ? fds[0] : -1, i == 0);
		ASSERT_GE(fds[i], 0) TH_LOG("member %d errno %d", i, errno);
	}
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(BURN);
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, perfev_read_value(fds[i], &v));
		EXPECT_GT(v.value, 0ULL) TH_LOG("member %d", i);
		EXPECT_GT(v.running, 0ULL) TH_LOG("member %d", i);
		EXPECT_EQ(v.enabled, v.running) TH_LOG("member %d", i);
	}
	close_fds(fds, 4);
}

TEST(groups_competing_for_counter0_are_rotated)
{
	struct perfev_value v[3];
	cpu_set_t saved;
	__u64 sum = 0;
	int fds[3], i, type;

	REQUIRE_PTP(type);
	/*
	 * On one CPU: a task context's times are taken with perf_clock() of
	 * whichever CPU the task is on, while each counter runs on one CPU, so
	 * clock skew between emulated CPUs would blur value vs running.
	 */
	ASSERT_LE(0, perfev_pin_here(&saved));
	for (i = 0; i < 3; i++) {
		fds[i] = ptp_open(type, PTP_NS_PMC0, -1, true);
		ASSERT_GE(fds[i], 0);
	}
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0));
	/* long enough for many rotations (4 ms at HZ=250) even under TCG */
	perfev_burn(6 * BURN);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, perfev_read_value(fds[i], &v[i]));
		EXPECT_GT(v[i].running, 0ULL) TH_LOG("event %d never ran", i);
		EXPECT_LT(v[i].running, v[i].enabled) TH_LOG("event %d", i);
		/*
		 * Counted only while scheduled in, and for most of that time.
		 * (6.1 leaves the first group that failed to schedule about a
		 * millisecond short of its time_running, so no tighter bound.)
		 */
		EXPECT_LE(v[i].value, v[i].running + v[i].running / 20 + 200000)
			TH_LOG("event %d: value %llu running %llu", i,
			       (unsigned long long)v[i].value, (unsigned long long)v[i].running);
		EXPECT_GE(v[i].value * 2, v[i].running)
			TH_LOG("event %d: value %llu running %llu", i,
			       (unsigned long long)v[i].value, (unsigned long long)v[i].running);
		sum += v[i].running;
	}
	/* one counter 0: the three shared it, never overlapping */
	EXPECT_LE(sum, v[0].enabled + v[0].enabled / 10);
	EXPECT_GE(sum * 2, v[0].enabled);
	close_fds(fds, 3);
	perfev_unpin(&saved);
}

TEST(pinned_event_without_its_counter_is_in_error_state)
{
	struct perf_event_attr attr;
	struct perfev_value v;
	__u64 buf[3];
	int a, b, type;

	REQUIRE_PTP(type);
	perfev_attr_init(&attr, type, PTP_NS_PMC0);
	attr.read_format = RF_TIMES;
	attr.pinned = 1;
	attr.disabled = 0;
	a = ptp_open_attr(&attr);
	ASSERT_GE(a, 0) TH_LOG("errno %d", errno);
	b = ptp_open_attr(&attr);
	ASSERT_GE(b, 0) TH_LOG("errno %d", errno);
	perfev_burn(BURN);
	/* the first pinned event holds counter 0; the second never fits */
	ASSERT_EQ(0, perfev_read_value(a, &v));
	EXPECT_GT(v.value, 0ULL);
	EXPECT_EQ(v.enabled, v.running);
	EXPECT_EQ(0, read(b, buf, sizeof(buf)));
	/* enabling does not leave the error state while a still holds it */
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(0, read(b, buf, sizeof(buf)));
	close(b);
	close(a);
}

TEST(exclusive_group_keeps_other_groups_off)
{
	struct perf_event_attr attr;
	struct perfev_value ve, vo;
	int ex, other, type;

	REQUIRE_PTP(type);
	perfev_attr_init(&attr, type, PTP_NS);
	attr.read_format = RF_TIMES;
	attr.pinned = 1;
	attr.exclusive = 1;
	ex = ptp_open_attr(&attr);
	ASSERT_GE(ex, 0) TH_LOG("errno %d", errno);
	other = ptp_open(type, PTP_NS, -1, true);
	ASSERT_GE(other, 0);
	ASSERT_EQ(0, ioctl(ex, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(other, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(BURN);
	ASSERT_EQ(0, ioctl(other, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(ex, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_value(ex, &ve));
	ASSERT_EQ(0, perfev_read_value(other, &vo));
	EXPECT_EQ(ve.enabled, ve.running);
	EXPECT_GT(ve.value, 0ULL);
	/* three free counters, but the pinned exclusive group owns the PMU */
	EXPECT_GT(vo.enabled, 0ULL);
	EXPECT_EQ(0ULL, vo.running);
	EXPECT_EQ(0ULL, vo.value);
	close(other);
	close(ex);
}

TEST(software_leader_moves_into_the_pmu_context)
{
	const __u64 rf = PERF_FORMAT_GROUP | RF_TIMES;
	struct perf_event_attr attr;
	__u64 buf[3 + 2];
	int lead, sib, type;

	REQUIRE_PTP(type);
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = rf;
	lead = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(lead, 0);
	perfev_attr_init(&attr, type, PTP_NS);
	attr.read_format = rf;
	attr.disabled = 0;
	sib = perfev_open(&attr, 0, -1, lead, 0);
	ASSERT_GE(sib, 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(BURN);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ((ssize_t)sizeof(buf), read(lead, buf, sizeof(buf)));
	ASSERT_EQ(2ULL, buf[0]);
	EXPECT_EQ(buf[1], buf[2]);
	ASSERT_GT(buf[3], 0ULL);
	/* task-clock and the PMU's ns count the same scheduled-in time */
	EXPECT_TRUE(near(buf[4], buf[3], 10, 200000))
		TH_LOG("task-clock %llu ns %llu",
		       (unsigned long long)buf[3], (unsigned long long)buf[4]);
	close(sib);
	close(lead);
}

TEST(events_of_another_task_count_only_its_time)
{
	struct perf_event_attr attr;
	struct perfev_child child;
	struct perfev_value v, mine;
	int fd, self_fd, type;

	REQUIRE_PTP(type);
	ASSERT_EQ(0, perfev_child_start(&child, NULL, NULL));
	perfev_attr_init(&attr, type, PTP_NS);
	attr.read_format = RF_TIMES;
	attr.disabled = 0;
	fd = perfev_open(&attr, child.pid, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	self_fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(self_fd, 0) TH_LOG("errno %d", errno);
	/* the child sleeps on its pipe: this task's burn is not its time */
	perfev_burn(10 * BURN);
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	ASSERT_EQ(0, perfev_read_value(self_fd, &mine));
	EXPECT_LT(v.value * 2, mine.value)
		TH_LOG("child %llu, this task %llu", (unsigned long long)v.value,
		       (unsigned long long)mine.value);
	EXPECT_LE(v.running, v.enabled);
	ASSERT_EQ(0, perfev_child_go(&child));
	ASSERT_EQ(0, perfev_child_wait(&child));
	close(self_fd);
	close(fd);
}

/* A pinned ns_pmc0 event on CPU @cpu (pid -1) or on this task (@cpu -1). */
static int open_pinned_pmc0(int type, int cpu, bool disabled)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, type, PTP_NS_PMC0);
	attr.read_format = RF_TIMES;
	attr.pinned = 1;
	attr.disabled = disabled;
	return perfev_open(&attr, cpu < 0 ? 0 : -1, cpu, -1, 0);
}

/*
 * Policy: CPU pinned groups are scheduled before task pinned ones.  That
 * holds when a CPU pinned group arrives (@enable_later false) or is
 * enabled while a task pinned group holds the counter it needs: the CPU
 * group gets it, the task group goes to ERROR (6.1's ctx_resched()).
 */
static void cpu_pinned_wins(struct __test_metadata *_metadata, bool enable_later)
{
	struct perfev_value v;
	cpu_set_t orig;
	__u64 buf[3];
	int task_fd, cpu_fd, cpu, type;

	REQUIRE_PTP(type);
	cpu = perfev_pin_here(&orig);
	ASSERT_GE(cpu, 0);
	task_fd = open_pinned_pmc0(type, -1, false);
	ASSERT_GE(task_fd, 0) TH_LOG("errno %d", errno);
	perfev_burn(BURN);
	ASSERT_EQ(0, perfev_read_value(task_fd, &v));
	ASSERT_GT(v.running, 0ULL);

	cpu_fd = open_pinned_pmc0(type, cpu, enable_later);
	ASSERT_GE(cpu_fd, 0) TH_LOG("errno %d", errno);
	if (enable_later) {
		perfev_burn(BURN);
		ASSERT_EQ(0, ioctl(cpu_fd, PERF_EVENT_IOC_ENABLE, 0));
	}
	perfev_burn(BURN);
	EXPECT_EQ(0, perfev_read_value(cpu_fd, &v)) TH_LOG("the CPU pinned event is in error");
	EXPECT_GT(v.running, 0ULL);
	EXPECT_EQ(0, read(task_fd, buf, sizeof(buf))) TH_LOG("the task pinned event still runs");
	close(cpu_fd);
	close(task_fd);
	perfev_unpin(&orig);
}

TEST(cpu_pinned_group_installed_goes_before_task_pinned)
{
	cpu_pinned_wins(_metadata, false);
}

TEST(cpu_pinned_group_enabled_goes_before_task_pinned)
{
	cpu_pinned_wins(_metadata, true);
}

/*
 * A group read while it runs gives every member at one instant: the PMU
 * counts all of them over the same intervals (it freezes its counters for
 * scheduling) and the core reads the group in one PMU read transaction,
 * during which the counters are frozen too.  So x2 and x3 are exact
 * multiples of x1.
 */
TEST(group_read_while_running_reads_every_member_at_one_instant)
{
	const __u64 rf = PERF_FORMAT_GROUP | RF_TIMES;
	struct perf_event_attr attr;
	__u64 buf[3 + 3];
	int fds[3], i, round, type;

	REQUIRE_PTP(type);
	for (i = 0; i < 3; i++) {
		perfev_attr_init(&attr, type, PTP_NS + i);
		attr.read_format = rf;
		attr.disabled = i == 0;
		fds[i] = perfev_open(&attr, 0, -1, i ? fds[0] : -1, 0);
		ASSERT_GE(fds[i], 0) TH_LOG("event %d errno %d", i, errno);
	}
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	for (round = 0; round < 5; round++) {
		perfev_burn(BURN / 4);
		ASSERT_EQ((ssize_t)sizeof(buf), read(fds[0], buf, sizeof(buf)));
		ASSERT_EQ(3ULL, buf[0]);
		ASSERT_GT(buf[3], 0ULL);
		EXPECT_EQ(2 * buf[3], buf[4])
			TH_LOG("round %d: x1 %llu x2 %llu", round, (unsigned long long)buf[3],
			       (unsigned long long)buf[4]);
		EXPECT_EQ(3 * buf[3], buf[5])
			TH_LOG("round %d: x1 %llu x3 %llu", round, (unsigned long long)buf[3],
			       (unsigned long long)buf[5]);
	}
	close_fds(fds, 3);
}

/*
 * An inherited group that cannot be cloned into the child fails the fork
 * with the PMU's error, flexible as well as pinned (6.1).
 */
TEST(inherited_group_that_cannot_be_cloned_fails_the_fork)
{
	struct perf_event_attr attr;
	int fd, type, status;
	pid_t pid;

	REQUIRE_PTP(type);
	perfev_attr_init(&attr, type, PTP_NOFORK);
	attr.inherit = 1;
	attr.disabled = 0;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	pid = fork();
	if (pid == 0)
		_exit(0);
	EXPECT_EQ(-1, pid);
	EXPECT_EQ(ENOSPC, errno);
	if (pid > 0)
		waitpid(pid, &status, 0);
	close(fd);

	/* without the event, fork works again */
	pid = fork();
	if (pid == 0)
		_exit(0);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
}

/*
 * "perfev_uncore" has no task contexts (perf_invalid_context), like an
 * uncore PMU: it takes CPU events only.  Task events, on any CPU or none,
 * are EINVAL from the core itself (the driver does not check).
 */
TEST(uncore_pmu_takes_cpu_events_only)
{
	struct perf_event_attr attr;
	struct perfev_value v;
	int fd, type;

	type = perfev_pmu_type("perfev_uncore");
	if (type < 0)
		SKIP(return, "no perfev_uncore PMU (CONFIG_PERF_TEST_PMU)");
	perfev_attr_init(&attr, type, 0x01);
	attr.read_format = RF_TIMES;
	attr.disabled = 0;
	fd = perfev_open(&attr, -1, 0, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	usleep(10000);
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_GT(v.value, 0ULL);
	close(fd);

	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, perfev_open(&attr, 0, 0, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	/* cgroup events: cgroup.c, where a cgroup hierarchy is mounted */
}

/* Open a sampling event of @config (IP, TID, PERIOD + @extra) and map a ring. */
static int ptp_sampler(struct perfev_ring *r, int type, __u64 config, __u64 period,
		       __u64 extra, int group_fd)
{
	struct perf_event_attr attr;
	int fd;

	perfev_attr_init(&attr, type, config);
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | extra;
	fd = perfev_open(&attr, 0, -1, group_fd, 0);
	if (fd < 0)
		return -1;
	if (perfev_ring_map(r, fd, 64, false)) {
		close(fd);
		return -1;
	}
	return fd;
}

struct sample_stats {
	unsigned int samples, user, wrong_tid, throttle, unthrottle;
	__u64 last_period, min_period, max_period;
};

/* Walk IP, TID, PERIOD samples (and the throttle records) of @r. */
static void sample_stats(struct perfev_ring *r, struct sample_stats *st)
{
	struct perf_event_header *h;
	const __u64 *p;

	memset(st, 0, sizeof(*st));
	st->min_period = ~0ULL;
	while ((h = perfev_ring_next(r))) {
		if (h->type == PERF_RECORD_THROTTLE)
			st->throttle++;
		if (h->type == PERF_RECORD_UNTHROTTLE)
			st->unthrottle++;
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		p = (const __u64 *)(h + 1);
		if ((__u32)(p[1] >> 32) != (__u32)gettid())
			st->wrong_tid++;
		if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER)
			st->user++;
		st->last_period = p[2];
		if (p[2] < st->min_period)
			st->min_period = p[2];
		if (p[2] > st->max_period)
			st->max_period = p[2];
		st->samples++;
	}
}

TEST(period_sampling_gives_count_over_period_samples)
{
	const __u64 period = 2000000;	/* 2 ms of scheduled-in time */
	struct sample_stats st;
	struct perfev_ring r;
	__u64 count;
	int fd, type;

	REQUIRE_PTP(type);
	fd = ptp_sampler(&r, type, PTP_NS, period, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(10 * BURN);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_count(fd, &count));
	sample_stats(&r, &st);
	ASSERT_GE(count, 4 * period)
		TH_LOG("burn too short: count %llu", (unsigned long long)count);
	/* one sample per elapsed period; the last may not have fired yet */
	EXPECT_LE(st.samples, count / period);
	EXPECT_GE(st.samples + 2, count / period)
		TH_LOG("%u samples, count %llu", st.samples, (unsigned long long)count);
	EXPECT_EQ(period, st.min_period);
	EXPECT_EQ(period, st.max_period);
	EXPECT_EQ(0U, st.wrong_tid);
	/* the burn loop is user code: the "interrupt" mostly lands there */
	EXPECT_GE(st.user * 2, st.samples);
	perfev_ring_unmap(&r);
	close(fd);
}

TEST(factor_event_overflows_in_its_own_units)
{
	const __u64 period = 6000000;	/* ns_x3: 2 ms of scheduled-in time */
	struct sample_stats st;
	struct perfev_ring r;
	__u64 count;
	int fd, type;

	REQUIRE_PTP(type);
	fd = ptp_sampler(&r, type, PTP_NS_X3, period, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(10 * BURN);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_count(fd, &count));
	sample_stats(&r, &st);
	ASSERT_GE(count, 4 * period);
	EXPECT_LE(st.samples, count / period);
	EXPECT_GE(st.samples + 2, count / period)
		TH_LOG("%u samples, count %llu", st.samples, (unsigned long long)count);
	EXPECT_EQ(period, st.max_period);
	perfev_ring_unmap(&r);
	close(fd);
}

/*
 * The wrapping counter raises its overflow interrupt for a counting event
 * too (a real PMU's interrupt when a counter wraps): the driver calls
 * perf_event_overflow(), and the core must take no sample, count no lost
 * one and send no SIGIO for an event that does not sample.  The ring stays
 * empty (no side-band records were asked for) and the count goes on.
 */
TEST(counting_event_overflow_is_not_a_sample)
{
	struct perf_event_attr attr;
	struct timespec ts = { 0, 200000000 };
	struct perfev_value v;
	struct perfev_ring r;
	struct perf_event_header *h;
	siginfo_t si;
	sigset_t set;
	int fd, type, i, records = 0;

	REQUIRE_PTP(type);
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	perfev_attr_init(&attr, type, PTP_NS_WRAP);
	attr.read_format = RF_TIMES;
	attr.wakeup_events = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	fd = ptp_open_attr(&attr);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, perfev_ring_map(&r, fd, 8, false));
	ASSERT_EQ(0, fcntl(fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/* some 20 wraps of the counter, whatever the speed of the guest */
	for (i = 0; i < 100; i++) {
		perfev_burn(BURN);
		ASSERT_EQ(0, perfev_read_value(fd, &v));
		if (v.value >= 20 * PTP_WRAP_NS)
			break;
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	ASSERT_GE(v.value, 20 * PTP_WRAP_NS);
	/* never stopped (throttled) by its interrupts */
	EXPECT_TRUE(near(v.value, v.running, 10, 2 * PTP_WRAP_NS))
		TH_LOG("count %llu, running %llu", (unsigned long long)v.value,
		       (unsigned long long)v.running);

	while ((h = perfev_ring_next(&r))) {
		TH_LOG("record type %u size %u", h->type, h->size);
		records++;
	}
	EXPECT_EQ(0, records);
	EXPECT_EQ(-1, sigtimedwait(&set, &si, &ts));
	EXPECT_EQ(EAGAIN, errno);
	perfev_ring_unmap(&r);
	close(fd);
}

TEST(freq_mode_adapts_the_period)
{
	struct perf_event_attr attr;
	struct sample_stats st;
	struct perfev_ring r;
	int fd, type;

	REQUIRE_PTP(type);
	perfev_attr_init(&attr, type, PTP_NS);
	attr.freq = 1;
	attr.sample_freq = 1000;	/* period should approach 1 ms of ns */
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	fd = ptp_open_attr(&attr);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, perfev_ring_map(&r, fd, 64, false));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(10 * BURN);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	sample_stats(&r, &st);
	ASSERT_GE(st.samples, 5U);
	/*
	 * Freq mode starts at period 1 and the core adjusts it at overflows
	 * and ticks; under emulation the estimate is noisy, so only its order
	 * of magnitude is checked (1 ms of ns at 1000 Hz).
	 */
	EXPECT_LT(st.min_period, st.max_period);
	EXPECT_GE(st.last_period, 10000ULL)
		TH_LOG("last period %llu", (unsigned long long)st.last_period);
	EXPECT_LE(st.last_period, 100000000ULL)
		TH_LOG("last period %llu", (unsigned long long)st.last_period);
	perfev_ring_unmap(&r);
	close(fd);
}

TEST(sample_read_of_a_group_reads_every_member)
{
	const __u64 rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	unsigned int samples = 0, checked = 0;
	struct perfev_ring r;
	__u64 id[2];
	int fds[2], type;

	REQUIRE_PTP(type);
	perfev_attr_init(&attr, type, PTP_NS);
	attr.sample_period = 2000000;
	attr.sample_type = PERF_SAMPLE_READ;
	attr.read_format = rf;
	fds[0] = ptp_open_attr(&attr);
	ASSERT_GE(fds[0], 0) TH_LOG("errno %d", errno);
	perfev_attr_init(&attr, type, PTP_NS_X2);
	attr.read_format = rf;
	attr.disabled = 0;
	fds[1] = perfev_open(&attr, 0, -1, fds[0], 0);
	ASSERT_GE(fds[1], 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ID, &id[0]));
	ASSERT_EQ(0, ioctl(fds[1], PERF_EVENT_IOC_ID, &id[1]));
	ASSERT_EQ(0, perfev_ring_map(&r, fds[0], 64, false));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(5 * BURN);
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0));
	while ((h = perfev_ring_next(&r))) {
		const __u64 *p = (const __u64 *)(h + 1);

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		/* nr, then { value, id } per member, leader first */
		ASSERT_EQ(sizeof(*h) + 5 * sizeof(__u64), h->size);
		ASSERT_EQ(2ULL, p[0]);
		EXPECT_EQ(id[0], p[2]);
		EXPECT_EQ(id[1], p[4]);
		if (p[1] < 1000000)
			continue;
		/* read together: the x2 sibling is twice the leader */
		EXPECT_TRUE(near(p[3], 2 * p[1], 5, 100000))
			TH_LOG("leader %llu x2 %llu",
			       (unsigned long long)p[1], (unsigned long long)p[3]);
		checked++;
	}
	EXPECT_GE(samples, 2U);
	EXPECT_GE(checked, 1U);
	perfev_ring_unmap(&r);
	close(fds[1]);
	close(fds[0]);
}

FIXTURE(throttle)
{
	long long rate;
	bool saved;
};

FIXTURE_SETUP(throttle)
{
	self->saved = !perfev_read_int("/proc/sys/kernel/perf_event_max_sample_rate",
				       &self->rate);
}

FIXTURE_TEARDOWN(throttle)
{
	if (self->saved)
		perfev_write_int("/proc/sys/kernel/perf_event_max_sample_rate", self->rate);
}

TEST_F(throttle, fast_overflows_are_throttled_and_unthrottled)
{
	struct sample_stats st;
	struct perfev_ring r;
	int fd, type;

	REQUIRE_PTP(type);
	if (!self->saved || geteuid())
		SKIP(return, "needs root and perf_event_max_sample_rate");
	/* 1000/s at HZ 250: 4 samples per tick; the PMU tries 100000/s */
	ASSERT_EQ(0, perfev_write_int("/proc/sys/kernel/perf_event_max_sample_rate", 1000));
	fd = ptp_sampler(&r, type, PTP_NS, 10000, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(5 * BURN);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	sample_stats(&r, &st);
	EXPECT_GE(st.throttle, 1U);
	EXPECT_GE(st.unthrottle, 1U);
	EXPECT_GE(st.samples, 1U);
	perfev_ring_unmap(&r);
	close(fd);
}

TEST_HARNESS_MAIN
